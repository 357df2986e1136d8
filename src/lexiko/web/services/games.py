"""Games between players: creating one (its rules, seats and invitations), taking a
seat, starting a duplicate game with the players who came, and acting on a game (a
move, a challenge, resigning, calling it off, a rematch). Every action is checked by
the engine (which raises and changes nothing when it refuses), saved, and only then
shown to the clients.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lexiko.duplicate import DuplicateGame
from lexiko.errors import LexikoError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.rules import PRESETS, Rules
from lexiko.web.errors import ActionError
from lexiko.web.live import ABORT, REMATCH, LiveGame, Seat, canonical_action
from lexiko.web.options import OptionError, rules_from_request, rules_to_json
from lexiko.web.services.bots import BOT_KINDS, Bots, available_bots, make_bot
from lexiko.web.services.catchup import CatchUp
from lexiko.web.services.core import Core
from lexiko.web.services.duplicate import MAX_DUPLICATE_SEATS, Rounds
from lexiko.web.services.journal import Journal
from lexiko.web.services.loading import Loader
from lexiko.web.services.names import check_names, clean_name
from lexiko.web.services.ratings import Ratings
from lexiko.web.store import Account, ConflictError, SeatSpec, hash_token, new_token

__all__ = ["Games", "SeatRequest", "DEFAULT_MINUTES", "invites", "open_path", "creator"]

DEFAULT_MINUTES = 25
"""The clock of each player in a game between people when the request names none."""


@dataclass(frozen=True)
class SeatRequest:
    """A seat asked for when creating a game: ``human`` (the creator's own seat is the
    first human seat; the others are invitations) or a bot kind."""

    kind: str
    name: str | None = None


def invites(live: LiveGame) -> list[dict[str, Any]]:
    """Open seats and the paths that invite a player to them."""
    return [
        {"seat": s.index, "name": s.name, "path": f"/join/{live.id}/{s.invite}"}
        for s in live.seats
        if s.invite and not s.taken
    ]


def open_path(live: LiveGame) -> str | None:
    """The game's open link (each person who opens it takes the next open seat),
    while it is waiting for players and has one."""
    if live.open_invite is None or live.status != "waiting":
        return None
    return f"/join/{live.id}/{live.open_invite}"


def creator(live: LiveGame) -> int:
    """The seat of the person who created the game (the first person's seat)."""
    return next(s.index for s in live.seats if s.kind == "human")


def _check_bots(seats: Sequence[SeatRequest]) -> None:
    """Refuse a seat of a computer player this installation cannot make, saying why."""
    bots_here = available_bots()
    for s in seats:
        if s.kind != "human" and s.kind not in bots_here:
            if s.kind in BOT_KINDS:
                make_bot(s.kind, Lexicon.from_words(["AA"]), s.kind)  # raises, saying why
            raise ActionError(f"unknown computer player {s.kind!r}; known: {', '.join(bots_here)}")


def _seat_specs(seats: Sequence[SeatRequest], creator: int, token: str, account: Account | None) -> list[Seat]:
    """The seats of a new game: bots, the creator's (with the token's hash), and
    invitations for the other people."""
    specs: list[Seat] = []
    bots = sum(1 for s in seats if s.kind != "human")
    for i, s in enumerate(seats):
        if s.kind != "human":
            label = "Computer" if bots == 1 else f"Computer {i + 1}"
            specs.append(Seat(i, s.kind, label))
        elif i == creator:
            if account is not None:  # signed in: the seat is the account's, under its name
                specs.append(Seat(i, "human", account.name, token_hash=hash_token(token), account_id=account.id))
            else:
                specs.append(Seat(i, "human", clean_name(s.name), token_hash=hash_token(token)))
        else:
            name = clean_name(s.name) if s.name else None
            specs.append(Seat(i, "human", name, invite=secrets.token_urlsafe(12)))
    return specs


class Games:
    """Creating, joining and playing games."""

    def __init__(
        self,
        core: Core,
        loader: Loader,
        ratings: Ratings,
        catchup: CatchUp,
        journal: Journal,
        rounds: Rounds,
        bots: Bots,
    ) -> None:
        self.core = core
        self.loader = loader
        self.ratings = ratings
        self.catchup = catchup
        self.journal = journal
        self.rounds = rounds
        self.bots = bots

    # -- creating ---------------------------------------------------------------------

    def _rules(self, preset: str, options: dict[str, Any] | None, seats: Sequence[SeatRequest], humans: int) -> Rules:
        """The rules a creation request asks for (a game between people has a clock
        unless the request says otherwise)."""
        try:
            rules = rules_from_request(preset, options, players=len(seats), lexicons=self.core.lexicons)
        except OptionError as e:
            raise ActionError(str(e)) from None
        if humans > 1 and rules.time_minutes is None and "time_minutes" not in (options or {}):
            if rules.variant != "duplicate":
                rules = rules.replace(time_minutes=DEFAULT_MINUTES)
        return rules

    def _check_seed(self, seed: int | None, humans: int) -> None:
        if seed is not None and not 0 <= seed < 2**63:
            raise ActionError("the seed must be a whole number from 0 to 2**63 - 1")
        if seed is not None and humans > 1 and not self.core.settings.allow_seeds:
            raise ActionError(
                "a seed is only for a game of one person against the computer: between people "
                "the server draws the tiles from a secret seed (a seed tells every rack to come)"
            )

    async def create(
        self,
        *,
        preset: str,
        options: dict[str, Any] | None,
        seats: Sequence[SeatRequest],
        seed: int | None = None,
        listed: bool = False,
        account: Account | None = None,
    ) -> dict[str, Any]:
        """Create a game. The first human seat is the creator's; the other human seats
        get invitation links. Returns the id, the creator's seat and secret token, and
        the invitations. A game between people has a clock (25 minutes each) unless the
        request says otherwise (``time_minutes``: null for none); ``listed`` shows it in
        the lobby, where anyone may take an open seat or watch."""
        duplicate = preset in PRESETS and PRESETS[preset].variant == "duplicate"
        most = MAX_DUPLICATE_SEATS if duplicate else 4
        if not 1 <= len(seats) <= most:
            raise ActionError(f"a duplicate game has 1 to {most} players" if duplicate else "a game has 2 to 4 players")
        humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        if not humans:
            raise ActionError("a game needs at least one person: you")
        _check_bots(seats)
        rules = self._rules(preset, options, seats, len(humans))
        self._check_seed(seed, len(humans))
        lexicon = await self.core.lexicon_for(rules)
        for s in seats:
            if s.kind != "human":
                make_bot(s.kind, lexicon, s.kind)  # raises, saying why, if it cannot play these rules
        token = new_token()
        specs = _seat_specs(seats, humans[0], token, account)
        check_names([s.name for s in specs if s.name])
        game_id = secrets.token_urlsafe(9)
        seeded = seed is not None
        seed = seed if seed is not None else secrets.randbelow(2**63)
        # one link for the open seats nobody is named for, when there are several (an event's players)
        open_invite = secrets.token_urlsafe(12) if sum(1 for s in specs if s.invite and not s.name) >= 2 else None
        live = LiveGame(game_id, rules, seed, specs, lexicon, seeded=seeded, listed=listed, open_invite=open_invite)
        try:  # the engine's own checks of the rules and players, before anything is stored
            names = [s.name or f"player {i + 1}" for i, s in enumerate(specs)]
            if rules.variant == "duplicate":
                DuplicateGame(names, rules, seed=seed, lexicon=lexicon)
            else:
                Game(names, rules, seed=seed, lexicon=None)
        except LexikoError as e:
            raise ActionError(str(e)) from None
        await self.core.db(
            self.core.store.create_game,
            game_id,
            rules_json=rules_to_json(rules),
            seed=seed,
            seats=[SeatSpec(s.index, s.kind, s.name, s.token_hash, s.invite, s.account_id) for s in specs],
            seeded=seeded,
            listed=listed,
            open_invite=open_invite,
        )
        live.idle_since = time.monotonic()
        self.core.games[game_id] = live
        if live.ready:
            await self.loader.start(live)
        return {
            "game_id": game_id,
            "seat": humans[0],
            "token": token,
            "invites": invites(live),
            "open_path": open_path(live),
        }

    # -- joining ------------------------------------------------------------------------

    async def join(self, game_id: str, invite: str, name: object, account: Account | None = None) -> dict[str, Any]:
        """Take the seat an invitation is for (as the signed-in account, if any);
        returns the seat and the player's token."""
        live = await self.loader.get(game_id)
        player_name = account.name if account is not None else clean_name(name)
        account_id = account.id if account is not None else None
        async with live.lock:
            token = new_token()
            if live.open_invite is not None and hmac.compare_digest(live.open_invite, invite):
                seat = await self._take_open_seat(live, invite, player_name, token, account_id)
            else:
                seat = await self._take_invited_seat(live, invite, player_name, token, account_id)
            seat.name, seat.token_hash, seat.invite = player_name, hash_token(token), None
            seat.account_id = account_id
            live.view_cache.pop("seats", None)
            if live.ready:
                await self.loader.start(live)
            else:
                self.core.broadcast(live)
            await self.core.bus.publish(live.id, -1)
        return {"game_id": live.id, "seat": seat.index, "token": token}

    async def _take_open_seat(self, live: LiveGame, invite: str, name: str, token: str, account_id: int | None) -> Seat:
        """The next open seat, through the game's open link (call with the lock held)."""
        check_names([s.name for s in live.seats if s.name] + [name], new=1)
        try:
            index = await self.core.db(
                self.core.store.claim_open_seat,
                live.id,
                open_invite=invite,
                name=name,
                token_hash=hash_token(token),
                account_id=account_id,
            )
        except ConflictError as e:
            await self.catchup.sync(live)  # the seats taken elsewhere, or the start
            raise ActionError(str(e)) from None
        if index >= len(live.seats) or live.seats[index].taken:  # taken here unseen: read them
            await self.catchup.sync(live)
        return live.seats[index]

    async def _take_invited_seat(
        self, live: LiveGame, invite: str, name: str, token: str, account_id: int | None
    ) -> Seat:
        """The seat a personal invitation is for (call with the lock held)."""
        seat = next((s for s in live.seats if s.invite and hmac.compare_digest(s.invite, invite)), None)
        if seat is None or seat.taken:
            raise ActionError("this invitation has been used or does not exist")
        check_names([s.name for s in live.seats if s.name and s is not seat] + [name], new=1)
        try:
            await self.core.db(
                self.core.store.claim_seat,
                live.id,
                seat.index,
                invite=invite,
                name=name,
                token_hash=hash_token(token),
                account_id=account_id,
            )
        except Exception as e:
            raise ActionError(f"could not take the seat: {e}") from None
        return seat

    async def start_now(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Start a duplicate game that is waiting with the players who have joined (its
        creator's decision): the open seats are left out, and the players' seats
        numbered again from the first."""
        live = await self.loader.get(game_id)
        async with live.lock:
            seat = self.loader.seat_for_token(live, token)
            if seat is None:
                raise ActionError("only the player who created the game can start it")
            if live.status != "waiting":
                raise ActionError("the game has already started")
            if not live.is_duplicate:
                raise ActionError(
                    "a game of 2 to 4 players starts when every seat is taken: "
                    "only a duplicate game starts with its open seats left out"
                )
            if seat != creator(live):
                raise ActionError("only the player who created the game can start it")
            started = time.time()
            try:
                stored = await self.core.db(self.core.store.start_with_seats_taken, live.id, started)
            except ConflictError:
                await self.catchup.sync(live)
                self.core.broadcast(live)
                raise ActionError("the game has already started") from None
            live.reseat([Seat(s.seat, s.kind, s.name, s.token_hash, None, s.account_id) for s in stored])
            live.open_invite = None
            await self.ratings.read(live)
            live.start(started)
            self.core.broadcast(live)
            await self.core.bus.publish(live.id, -1)
        self.bots.kick(live)
        return {"game_id": live.id, "players": len(live.seats)}

    # -- acting -------------------------------------------------------------------------

    async def act(self, live: LiveGame, seat: int | None, message: dict[str, Any]) -> None:
        """Apply a client's action for its seat, save it, then tell every client."""
        if seat is None:
            raise ActionError("you are watching this game: only its players can act")
        if not 0 <= seat < len(live.seats) or live.seats[seat].is_bot:
            raise ActionError("you are not a player of this game")
        kind = message.get("type")
        if kind in ("abort", "rematch") and live.event_id is not None:
            raise ActionError(
                "a game of an event is not called off nor played again by its players: the event's director decides"
            )
        if kind in ("abort", "rematch"):
            await (self._abort(live, seat) if kind == "abort" else self._rematch(live, seat))
            return
        if live.status == "aborted":
            raise ActionError("the game was aborted")
        if live.is_duplicate:
            await self.rounds.submit(live, seat, message)
            self.bots.kick(live)
            return
        async with live.lock:
            g = live.game
            if g is None:
                raise ActionError("the game has not started: waiting for every player to join")
            if g.is_over:
                raise ActionError("the game is over")
            if kind in ("play", "exchange", "pass") and seat != g.player_on_turn:
                raise ActionError(f"it is not your turn: {g.players[g.player_on_turn]} is to play")
            if kind == "accept" and not g.awaiting_final_challenge:
                raise ActionError(
                    "there is nothing to accept: a play stands once the next player moves "
                    "(only a play that ends the game waits for an answer)"
                )
            try:
                text = canonical_action(g, message)
                live.apply_text(seat, text)
            except LexikoError as e:
                raise ActionError(str(e)) from None
            await self.journal.save(live)
            self.core.broadcast(live)
        self.bots.kick(live)

    async def _abort(self, live: LiveGame, seat: int) -> None:
        """Call the game off before its first move: nobody wins, nothing is rated."""
        async with live.lock:
            if live.status == "waiting":
                raise ActionError("the game has not started: waiting for every player to join")
            try:
                live.apply_text(seat, ABORT)
            except LexikoError as e:
                raise ActionError(str(e)) from None
            await self.journal.save(live)
            self.core.broadcast(live)

    async def _rematch(self, live: LiveGame, seat: int) -> None:
        """A new game with the same rules and players (each person keeps their key; a
        new secret seed); the finished game points to it, so every player is offered it."""
        async with live.lock:
            if live.status != "over":
                raise ActionError("a rematch can be asked for once the game is over")
            if live.rematch is not None:
                raise ActionError("the rematch has already been made")
            seats = [
                Seat(s.index, s.kind, s.name, token_hash=s.token_hash, account_id=s.account_id) for s in live.seats
            ]
            game_id = secrets.token_urlsafe(9)
            seed = secrets.randbelow(2**63)
            await self.core.db(
                self.core.store.create_game,
                game_id,
                rules_json=rules_to_json(live.rules),
                seed=seed,
                seats=[SeatSpec(s.index, s.kind, s.name, s.token_hash, None, s.account_id) for s in seats],
            )
            again = LiveGame(game_id, live.rules, seed, seats, live.lexicon)
            again.idle_since = time.monotonic()
            self.core.games[game_id] = again
            await self.loader.start(again)
            live.apply_text(seat, f"{REMATCH} {game_id}")
            await self.journal.save(live)
            self.core.broadcast(live)
