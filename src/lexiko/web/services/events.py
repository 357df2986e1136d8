"""Events run in the app: a director creates one (divisions, rounds, pairing method, the
rules and clock of its games), players register by its link, each round is paired by
`lexiko.tournament` and its games created in the app, and each game's result goes into
the event when it ends; the next round is paired when the last one is complete (unless
the event is paused), or when the director says.

The database is the truth (`lexiko.web.store_events`): every change reads the event,
applies the library's rules to it (which refuse bad input and change nothing), and is
stored only on the version it read; a change refused for a version that moved is
computed again on the new one. So any process may take any request (shared mode), and
the event survives a restart. The event is stored as the library's JSON event file,
plus the app's part (``web``)::

    {"auto": true, "paused": false,
     "divisions": [{"seats": [{"kind": "human", "token_hash": "...", "account_id": null}, ...],
                    "games": [["GAME ID", null, ...], ...]}]}

``seats`` follow the division's players (a seat's token is the player's key to the
event and to each of its games); ``games`` follow the rounds' pairings (null: a bye,
or a missed round). A game that ends gives its result at once (`Events.on_over`); a
sweep every `SWEEP_SECONDS` catches what a process that died before could not do
(a result not entered, a round not paired, a game not started).

How a finished game becomes a result: its final scores, unless its winner (by
resignation, or on time) did not score more; then it is recorded as a forfeit by the
loser (`lexiko.tournament.Division.forfeit`: the winner by the bye spread, at least 1).

>>> result_of([420, 380], [0])
('scores', 420, 380)
>>> result_of([300, 350], [0])
('forfeit', 1, 0)
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from lexiko.errors import LexikoError
from lexiko.rules import Rules
from lexiko.tournament import Division, Event, Player, Settings, TournamentError, pair, standings
from lexiko.tournament.files import event_from_json, event_to_json
from lexiko.web.errors import ActionError, Forbidden, NotFoundError
from lexiko.web.live import ABORT, SERVER_SEAT, LiveGame
from lexiko.web.options import OptionError, rules_from_json, rules_from_request, rules_to_json
from lexiko.web.services.bots import available_bots, make_bot
from lexiko.web.services.core import Core
from lexiko.web.services.journal import Journal
from lexiko.web.services.loading import Loader
from lexiko.web.services.names import clean_name, names_alike
from lexiko.web.store import Account, ConflictError, SeatSpec, hash_token, new_token
from lexiko.web.store_events import EventGame, EventStore, StoredEvent

__all__ = ["Events", "DivisionRequest", "result_of", "SWEEP_SECONDS", "DEFAULT_MINUTES", "MAX_PLAYERS"]

log = logging.getLogger("lexiko.web")

SWEEP_SECONDS = 2.0
"""How often a process looks over the events in progress for what is left to do."""

DEFAULT_MINUTES = 25
"""Each player's clock in an event's games when the director names none."""

MAX_PLAYERS = 500
"""The most players of one division."""

_TRIES = 8
"""How many times a change is computed again on a version that moved meanwhile."""

T = TypeVar("T")


def result_of(scores: list[int], winners: list[int]) -> tuple[str, int, int]:
    """How a finished two-player game's end goes into the event: ``("scores", first's,
    second's)``, or ``("forfeit", loser's seat, 0)`` when the winner (by resignation or
    on time) did not score more than the loser."""
    if len(winners) == 1:
        w = winners[0]
        if scores[w] <= scores[1 - w]:
            return ("forfeit", 1 - w, 0)
    return ("scores", scores[0], scores[1])


@dataclass(frozen=True)
class DivisionRequest:
    """A division of a new event: its name, pairing method and rounds."""

    name: str
    method: str = "swiss"
    rounds: int = 3
    bye_spread: int = 50
    gibson: bool = False


@dataclass
class _State:
    """An event as read, being changed: the library's event and the app's part, and
    what to do once the change is stored."""

    stored: StoredEvent
    event: Event
    web: dict[str, Any]
    rules: Rules
    status: str
    changed: bool = False
    games: list[EventGame] = field(default_factory=list)
    call_off: list[str] = field(default_factory=list)

    def seats(self, d: int) -> list[dict[str, Any]]:
        seats: list[dict[str, Any]] = self.web["divisions"][d]["seats"]
        return seats

    def games_of(self, d: int) -> list[list[str | None]]:
        games: list[list[str | None]] = self.web["divisions"][d]["games"]
        return games


class Events:
    """Creating, joining, pairing and following events."""

    def __init__(self, core: Core, loader: Loader, journal: Journal) -> None:
        self.core = core
        self.loader = loader
        self.journal = journal
        self.store = EventStore(core.store)
        self._locks: dict[str, asyncio.Lock] = {}
        self._task: asyncio.Task[None] | None = None
        self._ended: dict[str, set[str]] = {}  # games ended here whose results are to enter, by event
        self._entering: dict[str, asyncio.Task[None]] = {}  # the task entering them, by event
        core.on_over.append(self.on_over)

    # -- the background sweep -----------------------------------------------------------

    def start_sweep(self) -> None:
        """Look over the events in progress every `SWEEP_SECONDS`."""
        if self._task is None:
            self._task = asyncio.create_task(self._sweep_forever())

    async def stop_sweep(self) -> None:
        """Stop looking over the events."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not look over the events in progress")

    async def sweep(self) -> None:
        """For every event in progress: enter the results of its finished games, start
        its games not started, and pair the next round where it is due."""
        for event_id in await self.core.db(self.store.running):
            statuses = await self.core.db(self.store.game_statuses, event_id)
            state = await self._load(event_id)
            over: list[str] = []
            for d in range(len(state.event.divisions)):
                division = state.event.divisions[d]
                for r, gids in enumerate(state.games_of(d)):
                    for i, gid in enumerate(gids):
                        if gid is None or division.rounds[r].results[i] is not None:
                            continue
                        status = statuses.get(gid)
                        if status == "over":
                            over.append(gid)
                        elif status == "waiting":
                            await self.loader.get(gid)  # starts it
            if over:
                await self.record_games(event_id, over)
            elif self._due(state):
                await self._change(event_id, lambda s: self._advance(s))

    def on_over(self, live: LiveGame) -> None:
        """A game just ended here: enter its result in its event (in a task of its own:
        the game's lock is held)."""
        if live.event_id is None:
            return
        event_id = live.event_id
        self._ended.setdefault(event_id, set()).add(live.id)
        if event_id in self._entering:
            return  # the task entering this event's results takes it too
        task = asyncio.get_running_loop().create_task(self._enter_ended(event_id))
        self._entering[event_id] = task
        self.core.tasks.add(task)
        task.add_done_callback(self.core.tasks.discard)

    async def _enter_ended(self, event_id: str) -> None:
        """Enter the results of the event's games that ended here, those that end
        meanwhile in the same change (a round's games ending together: one change,
        not one each)."""
        try:
            while ended := self._ended.pop(event_id, None):
                try:
                    await self.record_games(event_id, sorted(ended))
                except Exception:  # the sweep will try again
                    log.exception("could not enter the results of games %s in event %s", sorted(ended), event_id)
        finally:
            del self._entering[event_id]

    # -- reading and changing ---------------------------------------------------------

    async def _load(self, event_id: str) -> _State:
        stored = await self.core.db(self.store.load, event_id) if len(event_id) <= 32 else None
        if stored is None:
            raise NotFoundError("no such event")
        return _State(
            stored,
            event_from_json(stored.data),
            json.loads(stored.web),
            rules_from_json(stored.rules_json),
            stored.status,
        )

    async def _change(self, event_id: str, change: Callable[[_State], T]) -> T:
        """Apply ``change`` to the event as stored and store it on the version read (read
        and computed again while another process changed it first); then start the new
        games and call off those of a round paired again. A `TournamentError` or
        `ActionError` from ``change`` changes nothing."""
        lock = self._locks.setdefault(event_id, asyncio.Lock())
        async with lock:
            for _ in range(_TRIES):
                state = await self._load(event_id)
                try:
                    out = change(state)
                except TournamentError as e:
                    raise ActionError(str(e)) from None
                if not state.changed:
                    return out
                try:
                    await self.core.db(
                        self.store.save,
                        event_id,
                        state.stored.version,
                        status=state.status,
                        data=event_to_json(state.event),
                        web=json.dumps(state.web, separators=(",", ":")),
                        games=state.games,
                        rules_json=state.stored.rules_json,
                    )
                except ConflictError:
                    continue
                for gid in state.call_off:
                    await self._call_off(gid)
                for g in state.games:
                    try:
                        await self.loader.get(g.game_id)  # starts it, and its bots
                    except ActionError:
                        log.exception("game %s of event %s could not start", g.game_id, event_id)
                return out
            raise ActionError("the event is changing too fast: try again")

    def _director(self, state: _State, token: str | None) -> None:
        if not token or not hmac.compare_digest(hash_token(token), state.stored.director_hash):
            raise Forbidden("only the event's director can do this")

    @staticmethod
    def _division(state: _State, name: str | None) -> int:
        try:
            return state.event.divisions.index(state.event.division(name))
        except TournamentError as e:
            raise ActionError(str(e)) from None

    # -- creating and registering -----------------------------------------------------

    async def create(
        self,
        *,
        name: object,
        divisions: list[DivisionRequest],
        preset: str,
        options: dict[str, Any] | None,
        auto: bool = True,
    ) -> dict[str, Any]:
        """A new event; returns its id, the director's secret token, its page and its
        registration link."""
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > 100:
            raise ActionError("an event needs a name of 1 to 100 characters")
        if not 1 <= len(divisions) <= 20:
            raise ActionError("an event has 1 to 20 divisions")
        event = Event(" ".join(name.split()))
        try:
            for d in divisions:
                if not 1 <= d.rounds <= 100:
                    raise ActionError(f"division {d.name}: the rounds are 1 to 100, not {d.rounds}")
                if d.method in ("manual", "team-round-robin"):
                    raise ActionError(f"division {d.name}: the app pairs by every method but {d.method}")
                settings = Settings(method=d.method, rounds=d.rounds, bye_spread=d.bye_spread, gibson=d.gibson)
                event.add_division(Division(clean_name(d.name), settings))
        except TournamentError as e:
            raise ActionError(str(e)) from None
        try:
            rules = rules_from_request(preset, options, players=2, lexicons=self.core.lexicons)
        except OptionError as e:
            raise ActionError(str(e)) from None
        if rules.variant == "duplicate":
            raise ActionError("an event's games are games of two players, not duplicate")
        if rules.time_minutes is None and "time_minutes" not in (options or {}):
            rules = rules.replace(time_minutes=DEFAULT_MINUTES)
        await self.core.lexicon_for(rules)  # a lexicon this server has
        token = new_token()
        event_id = secrets.token_urlsafe(9)
        web = {"auto": bool(auto), "paused": False, "divisions": [{"seats": [], "games": []} for _ in divisions]}
        key = secrets.token_urlsafe(12)
        stored = StoredEvent(
            event_id,
            event.name,
            0,
            "registering",
            hash_token(token),
            key,
            rules_to_json(rules),
            event_to_json(event),
            json.dumps(web),
        )
        await self.core.db(self.store.create, stored)
        return {
            "event_id": event_id,
            "token": token,
            "path": f"/event/{event_id}",
            "register_path": f"/event/{event_id}/register/{key}",
        }

    async def register(
        self,
        event_id: str,
        *,
        key: str,
        name: object,
        division: str | None,
        rating: int = 0,
        account: Account | None = None,
    ) -> dict[str, Any]:
        """Register a player by the event's link (signed in: as the account, with its
        rating); returns their division, number and secret token."""
        token = new_token()
        player_name = account.name if account is not None else clean_name(name)
        if account is not None:
            rating = round(account.rating)
        if not 0 <= rating <= 4000:
            raise ActionError("a rating is a whole number from 0 to 4000")

        def change(state: _State) -> dict[str, Any]:
            if not hmac.compare_digest(key.encode(), state.stored.register_key.encode()):
                raise ActionError("this registration link is not the event's")
            if state.status == "over":
                raise ActionError("the event is over")
            d = self._division(state, division)
            seat = {"kind": "human", "token_hash": hash_token(token), "account_id": account.id if account else None}
            number = self._add(state, d, Player(player_name, rating), seat)
            return {"event_id": event_id, "division": state.event.divisions[d].name, "number": number, "token": token}

        return await self._change(event_id, change)

    def _add(self, state: _State, d: int, player: Player, seat: dict[str, Any]) -> int:
        division = state.event.divisions[d]
        if len(division.players) >= MAX_PLAYERS:
            raise ActionError(f"division {division.name} is full ({MAX_PLAYERS} players)")
        if seat["account_id"] is not None and any(s["account_id"] == seat["account_id"] for s in state.seats(d)):
            raise ActionError(f"you are already registered in division {division.name}")
        for p in division.players:
            if names_alike(p.name, player.name):
                raise ActionError(f"division {division.name} already has a player named {p.name}: choose another name")
        number = division.add_player(player)
        state.seats(d).append(seat)
        for games in state.games_of(d):  # a late entry: a missed round in each round paired
            games.append(None)
        state.changed = True
        return number

    async def add_bot(
        self, event_id: str, token: str | None, *, division: str | None, kind: str, name: object = None
    ) -> dict[str, Any]:
        """The director fills a seat with a computer player of that kind."""
        bots = available_bots()
        if kind not in bots:
            raise ActionError(f"unknown computer player {kind!r}; known: {', '.join(bots)}")

        def change(state: _State) -> dict[str, Any]:
            self._director(state, token)
            if state.status == "over":
                raise ActionError("the event is over")
            d = self._division(state, division)
            label = clean_name(name) if name else f"{kind.capitalize()} {len(state.event.divisions[d].players) + 1}"
            number = self._add(state, d, Player(label), {"kind": kind, "token_hash": None, "account_id": None})
            return {"event_id": event_id, "division": state.event.divisions[d].name, "number": number}

        lexicon = await self.core.lexicon_for(rules_from_json((await self._load(event_id)).stored.rules_json))
        make_bot(kind, lexicon, kind)  # raises, saying why, if it cannot play these rules
        return await self._change(event_id, change)

    # -- pairing ----------------------------------------------------------------------

    def _pair(self, state: _State, d: int) -> None:
        """Pair the next round of division ``d`` and make its games."""
        division = state.event.divisions[d]
        if len(division.active()) < 2:
            raise ActionError(f"division {division.name} needs at least 2 players to pair a round")
        rnd = pair(division)
        seats = state.seats(d)
        gids: list[str | None] = []
        for p in rnd.pairings:
            if p.second is None:
                gids.append(None)
                continue
            specs = []
            for i, n in enumerate((p.first, p.second)):
                s = seats[n - 1]
                specs.append(
                    SeatSpec(i, s["kind"], division.players[n - 1].name, s["token_hash"], None, s["account_id"])
                )
            gid = secrets.token_urlsafe(9)
            state.games.append(EventGame(gid, secrets.randbelow(2**63), tuple(specs)))
            gids.append(gid)
        state.games_of(d).append(gids)
        state.status = "running"
        state.changed = True

    @staticmethod
    def _finished(division: Division) -> bool:
        rounds = division.settings.rounds
        return bool(rounds) and len(division.rounds) >= rounds and division.rounds[-1].complete

    def _due(self, state: _State) -> bool:
        """True when a division's next round is due by itself (or the event is over)."""
        if state.status != "running":
            return False
        if all(self._finished(d) for d in state.event.divisions):
            return True
        auto = bool(state.web["auto"]) and not state.web["paused"]
        return auto and any(self._next_due(d) for d in state.event.divisions)

    def _next_due(self, division: Division) -> bool:
        try:
            division.check_next_round()
        except TournamentError:
            return False
        return bool(division.rounds) and len(division.active()) >= 2

    def _advance(self, state: _State) -> None:
        """Pair the rounds due by themselves; the event is over once every division has
        played its rounds."""
        if state.status != "running":
            return
        if not state.web["paused"] and state.web["auto"]:
            for d, division in enumerate(state.event.divisions):
                if self._next_due(division):
                    try:
                        self._pair(state, d)
                    except (TournamentError, ActionError) as e:  # the result stands; the director pairs
                        log.warning("event %s: division %s cannot be paired: %s", state.stored.id, division.name, e)
        if all(self._finished(d) for d in state.event.divisions):
            state.status = "over"
            state.changed = True

    async def start(self, event_id: str, token: str | None) -> dict[str, Any]:
        """The director starts the event: the first round of each division is paired."""

        def change(state: _State) -> dict[str, Any]:
            self._director(state, token)
            if state.status != "registering":
                raise ActionError("the event has already started")
            for division in state.event.divisions:
                if len(division.active()) < 2:
                    raise ActionError(f"division {division.name} needs at least 2 players to start")
            for d in range(len(state.event.divisions)):
                self._pair(state, d)
            return self._view(state, token)

        return await self._change(event_id, change)

    async def pair_next(self, event_id: str, token: str | None, division: str | None) -> dict[str, Any]:
        """The director pairs the next round of a division now (the last one complete)."""

        def change(state: _State) -> dict[str, Any]:
            self._director(state, token)
            if state.status == "registering":
                raise ActionError("the event has not started: start it to pair its first round")
            if state.status == "over":
                raise ActionError("the event is over")
            self._pair(state, self._division(state, division))
            self._advance(state)
            return self._view(state, token)

        return await self._change(event_id, change)

    async def repair(self, event_id: str, token: str | None, division: str | None) -> dict[str, Any]:
        """The director pairs the last round of a division again (while none of its games
        has a result): its games are called off and new ones made."""

        def change(state: _State) -> dict[str, Any]:
            self._director(state, token)
            d = self._division(state, division)
            state.event.divisions[d].unpair()
            old = state.games_of(d).pop()
            state.call_off.extend(g for g in old if g is not None)
            state.changed = True
            self._pair(state, d)
            return self._view(state, token)

        return await self._change(event_id, change)

    async def _call_off(self, game_id: str) -> None:
        """End a game of a round paired again (the server's abort: nobody wins)."""
        try:
            live = await self.loader.get(game_id)
            async with live.lock:
                if live.status != "active":
                    return
                live.apply_text(SERVER_SEAT, ABORT)
                await self.journal.save(live)
                self.core.broadcast(live)
        except (ActionError, LexikoError):
            log.exception("game %s could not be called off", game_id)

    # -- results and the director's other decisions ---------------------------------------

    async def record_games(self, event_id: str, game_ids: list[str]) -> None:
        """Enter finished games' results in their event, in one change (nothing for a
        game not over here, or whose pairing has a result)."""
        results: dict[str, tuple[str, int, int]] = {}
        for game_id in game_ids:
            live = await self.loader.get(game_id)
            g = live.game
            if g is not None and g.is_over:
                results[game_id] = result_of(g.scores, g.winners())

        def change(state: _State) -> None:
            for d, division in enumerate(state.event.divisions):
                for r, gids in enumerate(state.games_of(d)):
                    for i, gid in enumerate(gids):
                        if gid not in results or division.rounds[r].results[i] is not None:
                            continue
                        how, a, b = results[gid]
                        p = division.rounds[r].pairings[i]
                        assert p.second is not None
                        if how == "forfeit":
                            division.forfeit(r + 1, p.first if a == 0 else p.second)
                        else:
                            division.record(r + 1, p.first, a, p.second, b)
                        state.changed = True
            self._advance(state)

        if results:
            await self._change(event_id, change)

    async def enter_result(
        self,
        event_id: str,
        token: str | None,
        *,
        division: str | None,
        round: int,
        player: int,
        score: int,
        opponent: int,
        opponent_score: int,
        spread: int | None = None,
        forfeit: bool = False,
        correct: bool = False,
    ) -> dict[str, Any]:
        """The director enters (or, with ``correct``, corrects) a result: the scores of
        ``player`` and ``opponent`` in ``round`` (with ``spread`` as read on the
        scorecard, which must add up), or with ``forfeit`` a forfeit by ``player``."""

        def change(state: _State) -> dict[str, Any]:
            self._director(state, token)
            d = self._division(state, division)
            div = state.event.divisions[d]
            if forfeit:
                div.forfeit(round, player, opponent, correct=correct)
            elif spread is not None:
                div.record_spread(round, player, opponent, score, opponent_score, spread, correct=correct)
            else:
                div.record(round, player, score, opponent, opponent_score, correct=correct)
            state.changed = True
            self._advance(state)
            return self._view(state, token)

        return await self._change(event_id, change)

    async def pause(self, event_id: str, token: str | None, paused: bool) -> dict[str, Any]:
        """The director pauses the event (no round is paired by itself; games go on) or resumes it."""

        def change(state: _State) -> dict[str, Any]:
            self._director(state, token)
            if state.status == "over":
                raise ActionError("the event is over")
            if bool(state.web["paused"]) == paused:
                raise ActionError("the event is already paused" if paused else "the event is not paused")
            state.web["paused"] = paused
            state.changed = True
            self._advance(state)
            return self._view(state, token)

        return await self._change(event_id, change)

    async def withdraw(self, event_id: str, token: str | None, division: str | None, player: int) -> dict[str, Any]:
        """The director removes a player from the rounds to come (their results stay)."""

        def change(state: _State) -> dict[str, Any]:
            self._director(state, token)
            d = self._division(state, division)
            state.event.divisions[d].withdraw(player)
            state.changed = True
            self._advance(state)
            return self._view(state, token)

        return await self._change(event_id, change)

    # -- what people see ----------------------------------------------------------------

    async def version(self, event_id: str) -> int:
        """The event's version: it grows with each change (a page reads the event again then)."""
        v = await self.core.db(self.store.version, event_id) if len(event_id) <= 32 else None
        if v is None:
            raise NotFoundError("no such event")
        return v

    async def view(self, event_id: str, token: str | None) -> dict[str, Any]:
        """The event as anyone sees it; its director also gets the registration link, a
        registered player their next game."""
        state = await self._load(event_id)
        return self._view(state, token)

    async def file(self, event_id: str) -> tuple[str, str]:
        """The event's name and its JSON event file (`lexiko.tournament.files`)."""
        state = await self._load(event_id)
        return state.event.name, event_to_json(state.event)

    def _view(self, state: _State, token: str | None) -> dict[str, Any]:
        director = bool(token) and hmac.compare_digest(hash_token(token or ""), state.stored.director_hash)
        rules = state.rules
        out: dict[str, Any] = {
            "event_id": state.stored.id,
            "name": state.event.name,
            "version": state.stored.version + (1 if state.changed else 0),
            "status": state.status,
            "paused": bool(state.web["paused"]),
            "auto": bool(state.web["auto"]),
            "rules": {
                "lexicon": rules.lexicon,
                "time_minutes": rules.time_minutes,
                "challenge_rule": rules.challenge_rule,
            },
            "director": director,
            "divisions": [self._division_view(state, d) for d in range(len(state.event.divisions))],
        }
        if director:
            out["register_path"] = f"/event/{state.stored.id}/register/{state.stored.register_key}"
        you = self._you(state, token) if token and not director else None
        if you is not None:
            out["you"] = you
        return out

    def _division_view(self, state: _State, d: int) -> dict[str, Any]:
        division = state.event.divisions[d]
        seats = state.seats(d)
        players = [
            {"number": n, "name": p.name, "rating": p.rating, "kind": seats[n - 1]["kind"], "withdrawn": p.withdrawn}
            for n, p in enumerate(division.players, 1)
        ]
        rounds = []
        for r, (rnd, gids) in enumerate(zip(division.rounds, state.games_of(d), strict=True), 1):
            rows = []
            table = 0
            for p, res, gid in zip(rnd.pairings, rnd.results, gids, strict=True):
                row: dict[str, Any] = {"first": p.first, "second": p.second, "game_id": gid, "table": None}
                if p.second is not None:
                    table += 1
                    row["table"] = table
                    row["scores"] = [res.first, res.second] if res is not None else None
                else:
                    row["bye"] = res.first if res is not None else None
                rows.append(row)
            rounds.append({"round": r, "complete": rnd.complete, "pairings": rows})
        table_rows = [
            {
                "rank": s.rank,
                "number": s.number,
                "name": s.name,
                "wins": s.wins,
                "losses": s.losses,
                "spread": s.spread,
                "withdrawn": s.withdrawn,
            }
            for s in standings(division)
        ]
        return {
            "name": division.name,
            "method": division.settings.method,
            "rounds": division.settings.rounds,
            "players": players,
            "paired": rounds,
            "standings": table_rows,
        }

    def _you(self, state: _State, token: str) -> dict[str, Any] | None:
        h = hash_token(token)
        for d, division in enumerate(state.event.divisions):
            for n, seat in enumerate(state.seats(d), 1):
                if seat["token_hash"] is None or not hmac.compare_digest(seat["token_hash"], h):
                    continue
                you: dict[str, Any] = {"division": division.name, "number": n, "name": division.players[n - 1].name}
                if division.rounds:
                    you["game"] = self._game_of(state, d, n)
                return you
        return None

    def _game_of(self, state: _State, d: int, n: int) -> dict[str, Any] | None:
        """Player ``n``'s game of the last round paired (their next, or the one just played)."""
        division = state.event.divisions[d]
        r = len(division.rounds)
        rnd = division.rounds[-1]
        i = rnd.pairing_of(n)
        if i is None:
            return None
        p = rnd.pairings[i]
        res = rnd.results[i]
        game: dict[str, Any] = {"round": r, "bye": p.second is None, "done": res is not None}
        if p.second is not None:
            other = p.second if p.first == n else p.first
            game.update(
                table=sum(1 for q in rnd.pairings[: i + 1] if q.second is not None),
                opponent=other,
                opponent_name=division.players[other - 1].name,
                first=p.first == n,
                game_id=state.games_of(d)[r - 1][i],
            )
        return game
