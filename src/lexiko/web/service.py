"""The game service: the server's authority over every game.

Games live in memory as `LiveGame` objects, loaded from the
database on first use by replaying their stored actions. Every action a client asks
for is checked by the engine (which raises and changes nothing when it is refused),
saved to the database, and only then shown to the clients. Bots play from a task of
their own; clocks are watched so that a player whose flag falls loses on time even
without moving.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hmac
import json
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from lexiko.bots.base import Player
from lexiko.duplicate import DuplicateGame, bot_choice, bot_view
from lexiko.errors import LexikoError
from lexiko.game import Game, word_is_valid
from lexiko.legality import check_placement
from lexiko.lexicon import BUILTIN, Lexicon
from lexiko.move import Exchange, Move, Place
from lexiko.rules import PRESETS, Rules
from lexiko.scoring import score_words, words_formed
from lexiko.web.bus import Bus
from lexiko.web.duplicate_views import SHOWN_PLAYERS
from lexiko.web.errors import ActionError, NotFoundError
from lexiko.web.live import (
    ABORT,
    CLOSE,
    DOWNTIME,
    FLAG,
    REMATCH,
    SERVER_SEAT,
    Listener,
    LiveGame,
    Seat,
    canonical_action,
    placement_from_tiles,
)
from lexiko.web.options import (
    OptionError,
    preset_names,
    rule_schema,
    rules_from_json,
    rules_from_request,
    rules_to_json,
)
from lexiko.web.ratings import Rating, after_game
from lexiko.web.store import (
    DB_THREADS,
    Account,
    ConflictError,
    SeatSpec,
    Store,
    SubmissionData,
    hash_token,
    lost_connection,
    new_token,
)
from lexiko.web.views import lobby_info, state_for, to_json
from lexiko.wordlists import ENGLISH_TILE_SETS

__all__ = ["GameService", "ActionError", "NotFoundError", "SeatRequest", "BOT_KINDS", "make_bot", "available_bots"]

log = logging.getLogger("lexiko.web")

T = TypeVar("T")

BOT_KINDS: dict[str, str] = {
    "random": "Beginner: a random legal move",
    "greedy": "Easy: always the highest-scoring move",
    "static": "Medium: score plus the value of the tiles it keeps",
}
"""Computer players a seat can hold, weakest first: kind -> description (the ones that
work in this installation are listed by `available_bots`)."""

SESSION_DAYS = 30
"""How long a browser stays signed in."""


def _make_hasher() -> Any:
    from argon2 import PasswordHasher

    return PasswordHasher()


_HASHER = _make_hasher()
"""Passwords are kept as Argon2id hashes (argon2-cffi), never as they were typed."""


def _password(password: object) -> str:
    if not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise ActionError("a password has 8 to 200 characters")
    return password


DEFAULT_MINUTES = 25
"""The clock of each player in a game between people when the request names none."""

MAX_DUPLICATE_SEATS = 2000
"""Seats of a duplicate game created in the web app (people by invitation, and bots):
an event's players, over as many processes as it takes (docs/web.md)."""

PROGRESS_SECONDS = 0.5
"""In a duplicate game of more than `SHOWN_PLAYERS`
players, a submission does not send every client a new state: the count of players who
have played goes out at most this often, and the state only when the round closes."""

_NAME_OK = re.compile(r"^[^\x00-\x1f\x7f<>]{1,24}$")
_AVAILABLE: dict[str, str] | None = None


def make_bot(kind: str, lexicon: Lexicon, name: str, seed: int | None = None) -> Player:
    """A computer player of that kind (see `BOT_KINDS`). Raises ActionError with
    the reason when it cannot be made (an unknown kind, a missing leave table)."""
    if kind not in BOT_KINDS:
        raise ActionError(f"unknown computer player {kind!r}; known: {', '.join(BOT_KINDS)}")
    try:
        from lexiko.bots import make_player
    except ImportError:  # an engine without the bot factory: greedy only
        if kind != "greedy":
            raise ActionError(f"the {kind} computer player is not available") from None
        from lexiko.bots import GreedyBot

        return GreedyBot(lexicon, name=name)
    try:
        return make_player(kind, lexicon, seed=seed, name=name)
    except (LexikoError, ImportError, OSError) as e:
        raise ActionError(f"the {kind} computer player is not available: {e}") from None


def available_bots() -> dict[str, str]:
    """The kinds of `BOT_KINDS` that can be made here (checked once)."""
    global _AVAILABLE
    if _AVAILABLE is None:
        tiny = Lexicon.from_words(["AA"])
        found = {}
        for kind, desc in BOT_KINDS.items():
            try:
                make_bot(kind, tiny, kind, seed=0)
            except ActionError:
                continue
            found[kind] = desc
        _AVAILABLE = found
    return dict(_AVAILABLE)


@dataclass(frozen=True)
class SeatRequest:
    """A seat asked for when creating a game: ``human`` (the creator's own seat is the
    first human seat; the others are invitations) or a bot kind."""

    kind: str
    name: str | None = None


def clean_name(name: object) -> str:
    """A player's name, checked and normalised (NFKC: full-width and other compatibility
    forms become the ordinary letters): 1 to 24 characters, no control characters, no
    invisible or direction-changing characters (they can make a name read as another),
    no angle brackets.

    >>> clean_name("  Ａｎｎ  ")
    'Ann'
    """
    if not isinstance(name, str):
        raise ActionError("give your name")
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text:
        raise ActionError("give your name")
    if any(unicodedata.category(ch) == "Cf" for ch in text):
        raise ActionError("a name may not hold invisible or direction-changing characters")
    if not _NAME_OK.match(text):
        raise ActionError("a name has 1 to 24 characters, without < or >")
    return text


def names_alike(a: str, b: str) -> bool:
    """True when two names would be taken for one another: the same but for case, or
    confusable by Unicode's table (UTS #39), such as Latin "Ann" and Cyrillic "Аnn".

    >>> names_alike("Ann", "ANN"), names_alike("Ann", "\u0410nn"), names_alike("Ann", "Bob")
    (True, True, False)
    """
    from confusables import is_confusable

    x, y = a.casefold(), b.casefold()
    return x == y or bool(is_confusable(x, y))


class GameService:
    """Every game the server knows, and the rules for acting on them."""

    def __init__(
        self,
        store: Store,
        *,
        lexicons: Sequence[str] = ("TWL06", "SOWPODS"),
        bot_delay: float = 0.0,
        clock_interval: float = 1.0,
        idle_seconds: float = 600.0,
        allow_seeds: bool = False,
        expire_hours: float = 24.0,
        abandon_days: float = 7.0,
        bus: Bus | None = None,
    ) -> None:
        self.store = store
        self.bus = bus if bus is not None else Bus()
        self.abandon_days = abandon_days
        self.allow_seeds = allow_seeds
        self.expire_hours = expire_hours
        self._last_expiry = 0.0
        self.idle_seconds = idle_seconds
        self.lexicons = list(dict.fromkeys(lexicons)) or list(BUILTIN)
        self.bot_delay = bot_delay
        self.clock_interval = clock_interval
        self._games: dict[str, LiveGame] = {}
        self._load_locks: dict[str, asyncio.Lock] = {}
        self._lexicons: dict[tuple[str, str], Lexicon] = {}
        self._lexicon_lock = asyncio.Lock()
        self._bots: dict[tuple[str, int], Player] = {}
        self._watch: asyncio.Task[None] | None = None
        self._resume: asyncio.Task[None] | None = None
        #: When this process started, and the last heartbeat of the one before it: the
        #: server was down in between, and nobody's clock ran then.
        self.up_since = time.time()
        self.down_since: float | None = None
        self._last_beat = 0.0
        # SQLite takes one writer at a time (others sleep and retry): one database thread
        # keeps writes in line without that; PostgreSQL takes a few at once
        workers = 1 if store.dialect == "sqlite" else DB_THREADS
        self._db_pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lexiko-db")
        self._tasks: set[asyncio.Task[None]] = set()  # publications under way (kept from the collector)

    # -- lifecycle -------------------------------------------------------------

    async def open(self) -> None:
        """Bring the database schema up to date, learn how long the server was down,
        and start watching clocks (the games in progress are loaded in the background,
        each with the downtime its turn went through)."""
        await self._db(self.store.upgrade)
        self.up_since = time.time()
        self.down_since = await self._db(self.store.last_beat)
        await self._beat(force=True)
        await self.bus.start(self._on_version, self._on_chat, self._on_submission)
        self._watch = asyncio.create_task(self._watch_clocks())
        self._resume = asyncio.create_task(self._resume_games())

    async def _beat(self, *, force: bool = False) -> None:
        """Record that the server is up (every few seconds: what a restart measures)."""
        now = time.time()
        if force or now - self._last_beat >= 2.0:
            self._last_beat = now
            try:
                await self._db(self.store.beat, now)
            except Exception:
                log.exception("could not record the heartbeat")

    async def _resume_games(self) -> None:
        """Load every game in progress, so that clocks, rounds and bots go on."""
        try:
            ids = await self._db(self.store.game_ids, "active")
        except Exception:
            log.exception("could not list the games in progress")
            return
        for gid in ids:
            try:
                await self.get(gid)
            except Exception as e:  # one game that cannot be rebuilt does not stop the others
                log.error("game %s could not be resumed: %s", gid, e)

    async def close(self) -> None:
        """Stop the background tasks and close the database."""
        tasks = [t for t in [self._watch, self._resume, *(g.bot_task for g in self._games.values())] if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        if self._tasks:  # the news of the last moves still on their way
            await asyncio.wait(list(self._tasks), timeout=2)
        with contextlib.suppress(Exception):
            await self.bus.stop()
        with contextlib.suppress(Exception):
            self.store.beat(time.time())  # the clocks stop from now until the next start
        self._db_pool.shutdown(wait=True)
        self.store.close()

    async def _db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call in the database thread(s). A call that finds its pooled
        connection dead (the database restarted) is made once more, on a new one."""
        loop = asyncio.get_running_loop()
        call = functools.partial(fn, *args, **kwargs)
        try:
            return await loop.run_in_executor(self._db_pool, call)
        except Exception as e:
            if not lost_connection(e):
                raise
            log.warning("the database connection was lost; trying again on a new one")
            return await loop.run_in_executor(self._db_pool, call)

    async def lexicon_for(self, rules: Rules) -> Lexicon:
        """The rules' lexicon for their tile set, loaded once per process."""
        ts = rules.tile_set
        key = (rules.lexicon, ts.name)
        lex = self._lexicons.get(key)
        if lex is not None:
            return lex
        async with self._lexicon_lock:
            lex = self._lexicons.get(key)
            if lex is None:
                try:
                    lex = await asyncio.to_thread(Lexicon.load, rules.lexicon, ts)
                except LexikoError as e:
                    raise ActionError(str(e)) from None
                self._lexicons[key] = lex
            return lex

    # -- options ---------------------------------------------------------------

    def options(self) -> dict[str, Any]:
        """What the game-creation form offers."""
        presets = {}
        for name in preset_names():
            r = PRESETS[name]
            d = asdict(r)
            if d["lexicon"] not in self.lexicons:
                if r.tiles not in ENGLISH_TILE_SETS:
                    continue  # a language whose word list this server does not offer
                d["lexicon"] = self.lexicons[0]
            most = MAX_DUPLICATE_SEATS if r.variant == "duplicate" else 4
            presets[name] = {
                "rules": d,
                "summary": r.describe(),
                "min_players": r.min_players,
                "max_players": min(r.max_players, most),
            }
        return {
            "presets": presets,
            "default_preset": "casual",
            "schema": rule_schema(self.lexicons),
            "bots": available_bots(),
            "lexicons": self.lexicons,
        }

    # -- creating and joining --------------------------------------------------------

    async def create_game(
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
        bots_here = available_bots()
        for s in seats:
            if s.kind != "human" and s.kind not in bots_here:
                if s.kind in BOT_KINDS:
                    make_bot(s.kind, Lexicon.from_words(["AA"]), s.kind)  # raises, saying why
                raise ActionError(f"unknown computer player {s.kind!r}; known: {', '.join(bots_here)}")
        try:
            rules = rules_from_request(preset, options, players=len(seats), lexicons=self.lexicons)
        except OptionError as e:
            raise ActionError(str(e)) from None
        if (
            len(humans) > 1
            and rules.time_minutes is None
            and "time_minutes" not in (options or {})
            and rules.variant != "duplicate"
        ):
            rules = rules.replace(time_minutes=DEFAULT_MINUTES)
        if seed is not None and not 0 <= seed < 2**63:
            raise ActionError("the seed must be a whole number from 0 to 2**63 - 1")
        if seed is not None and len(humans) > 1 and not self.allow_seeds:
            raise ActionError(
                "a seed is only for a game of one person against the computer: between people "
                "the server draws the tiles from a secret seed (a seed tells every rack to come)"
            )
        lexicon = await self.lexicon_for(rules)
        for s in seats:
            if s.kind != "human":
                make_bot(s.kind, lexicon, s.kind)  # raises, saying why, if it cannot play these rules
        creator = humans[0]
        token = new_token()
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
        self._check_names([s.name for s in specs if s.name])
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
        await self._db(
            self.store.create_game,
            game_id,
            rules_json=rules_to_json(rules),
            seed=seed,
            seats=[SeatSpec(s.index, s.kind, s.name, s.token_hash, s.invite, s.account_id) for s in specs],
            seeded=seeded,
            listed=listed,
            open_invite=open_invite,
        )
        live.idle_since = time.monotonic()
        self._games[game_id] = live
        if live.ready:
            await self._start(live)
        return {
            "game_id": game_id,
            "seat": creator,
            "token": token,
            "invites": self.invites(live),
            "open_path": self.open_path(live),
        }

    def invites(self, live: LiveGame) -> list[dict[str, Any]]:
        """Open seats and the paths that invite a player to them."""
        return [
            {"seat": s.index, "name": s.name, "path": f"/join/{live.id}/{s.invite}"}
            for s in live.seats
            if s.invite and not s.taken
        ]

    @staticmethod
    def open_path(live: LiveGame) -> str | None:
        """The game's open link (each person who opens it takes the next open seat),
        while it is waiting for players and has one."""
        if live.open_invite is None or live.status != "waiting":
            return None
        return f"/join/{live.id}/{live.open_invite}"

    @staticmethod
    def creator(live: LiveGame) -> int:
        """The seat of the person who created the game (the first person's seat)."""
        return next(s.index for s in live.seats if s.kind == "human")

    @staticmethod
    def _check_names(names: Sequence[str], new: int = 0) -> None:
        """Refuse two names that are the same or look alike; with ``new``, only the last
        ``new`` names are compared with the others (the rest were checked before: a
        join into a game of a thousand players costs a thousand comparisons, not half a
        million)."""
        first = len(names) - new if new else 0
        for i, a in enumerate(names):
            for b in names[max(i + 1, first) :]:
                if a.casefold() == b.casefold():
                    raise ActionError("two players have the same name: choose another")
                if names_alike(a, b):
                    raise ActionError(f"two players' names look alike ({a}, {b}): choose another")

    async def join(self, game_id: str, invite: str, name: object, account: Account | None = None) -> dict[str, Any]:
        """Take the seat an invitation is for (as the signed-in account, if any);
        returns the seat and the player's token."""
        live = await self.get(game_id)
        player_name = account.name if account is not None else clean_name(name)
        account_id = account.id if account is not None else None
        async with live.lock:
            if live.open_invite is not None and hmac.compare_digest(live.open_invite, invite):
                self._check_names([s.name for s in live.seats if s.name] + [player_name], new=1)
                token = new_token()
                try:
                    index = await self._db(
                        self.store.claim_open_seat,
                        live.id,
                        open_invite=invite,
                        name=player_name,
                        token_hash=hash_token(token),
                        account_id=account_id,
                    )
                except ConflictError as e:
                    await self._sync(live)  # the seats taken elsewhere, or the start
                    raise ActionError(str(e)) from None
                if index >= len(live.seats) or live.seats[index].taken:  # taken here unseen: read them
                    await self._sync(live)
                seat = live.seats[index]
            else:
                seat_or_none = next((s for s in live.seats if s.invite and hmac.compare_digest(s.invite, invite)), None)
                if seat_or_none is None or seat_or_none.taken:
                    raise ActionError("this invitation has been used or does not exist")
                seat = seat_or_none
                self._check_names([s.name for s in live.seats if s.name and s is not seat] + [player_name], new=1)
                token = new_token()
                try:
                    await self._db(
                        self.store.claim_seat,
                        live.id,
                        seat.index,
                        invite=invite,
                        name=player_name,
                        token_hash=hash_token(token),
                        account_id=account_id,
                    )
                except Exception as e:
                    raise ActionError(f"could not take the seat: {e}") from None
            seat.name, seat.token_hash, seat.invite = player_name, hash_token(token), None
            seat.account_id = account_id
            live.view_cache.pop("seats", None)
            if live.ready:
                await self._start(live)
            else:
                self._broadcast(live)
            await self.bus.publish(live.id, -1)
        return {"game_id": live.id, "seat": seat.index, "token": token}

    async def start_now(self, game_id: str, token: str | None) -> dict[str, Any]:
        """Start a duplicate game that is waiting with the players who have joined (its
        creator's decision): the open seats are left out, and the players' seats
        numbered again from the first."""
        live = await self.get(game_id)
        async with live.lock:
            seat = self.seat_for_token(live, token)
            if seat is None:
                raise ActionError("only the player who created the game can start it")
            if live.status != "waiting":
                raise ActionError("the game has already started")
            if not live.is_duplicate:
                raise ActionError(
                    "a game of 2 to 4 players starts when every seat is taken: "
                    "only a duplicate game starts with its open seats left out"
                )
            if seat != self.creator(live):
                raise ActionError("only the player who created the game can start it")
            started = time.time()
            try:
                stored = await self._db(self.store.start_with_seats_taken, live.id, started)
            except ConflictError:
                await self._sync(live)
                self._broadcast(live)
                raise ActionError("the game has already started") from None
            live.reseat([Seat(s.seat, s.kind, s.name, s.token_hash, None, s.account_id) for s in stored])
            live.open_invite = None
            await self._read_ratings(live)
            live.start(started)
            self._broadcast(live)
            await self.bus.publish(live.id, -1)
        self._kick_bots(live)
        return {"game_id": live.id, "players": len(live.seats)}

    async def _start(self, live: LiveGame) -> None:
        await self._read_ratings(live)
        started = time.time()
        live.start(started)
        await self._db(self.store.start_game, live.id, started)
        self._broadcast(live)
        self._kick_bots(live)

    # -- loading -----------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game, from memory or rebuilt from the database."""
        live = self._games.get(game_id)
        if live is not None:
            return live
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", game_id):
            raise NotFoundError("no such game")
        lock = self._load_locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            live = self._games.get(game_id)
            if live is not None:
                return live
            stored = await self._db(self.store.load_game, game_id)
            if stored is None:
                raise NotFoundError("no such game")
            rules = rules_from_json(stored.rules_json)
            lexicon = await self.lexicon_for(rules)
            seats = [Seat(s.seat, s.kind, s.name, s.token_hash, s.invite, s.account_id) for s in stored.seats]
            live = LiveGame(
                stored.id,
                rules,
                stored.seed,
                seats,
                lexicon,
                review_json=stored.review,
                seeded=stored.seeded,
                listed=stored.listed,
                open_invite=stored.open_invite,
                generator=stored.generator,
            )
            if stored.started_at is not None:
                try:
                    live.start(stored.started_at)
                    live.replay(stored.actions, stored.submissions)
                except LexikoError as e:
                    log.error("game %s cannot be rebuilt from its actions: %s", game_id, e)
                    raise ActionError(f"this game cannot be rebuilt from the database: {e}") from None
            live.idle_since = time.monotonic()
            self._games[game_id] = live
            self._load_locks.pop(game_id, None)
            if stored.started_at is None and live.ready:
                await self._start(live)
            await self._credit_downtime(live)
            self._kick_bots(live)
            return live

    async def _credit_downtime(self, live: LiveGame) -> None:
        """If the turn (or duplicate round) in progress began before the server went
        down, the player on turn is not charged for the time it was down."""
        down, up = self.down_since, self.up_since
        r = live.rules
        timed = r.duplicate_seconds is not None if live.is_duplicate else r.time_minutes is not None
        if down is None or live.status != "active" or not timed or live.started_at is None:
            return
        began = live.actions[-1].at if live.actions else live.started_at
        if began >= up or down <= began:
            return  # the turn began after the outage (or this outage is already counted)
        async with live.lock:
            try:
                live.apply_text(SERVER_SEAT, f"{DOWNTIME} {up - down:.3f}", at=up)
            except LexikoError as e:
                log.error("game %s: the downtime could not be counted: %s", live.id, e)
                return
            await self._save(live)

    async def expire(self, now: datetime | None = None) -> list[str]:
        """Delete the games nobody joined within ``expire_hours`` of their creation
        (invitations never taken): they would otherwise be kept for ever."""
        self._last_expiry = time.monotonic()
        cutoff = (now or datetime.now(UTC)) - timedelta(hours=self.expire_hours)
        try:
            gone = await self._db(self.store.delete_waiting, cutoff)
        except Exception:
            log.exception("could not expire old games")
            return []
        for gid in gone:
            self._games.pop(gid, None)
        if gone:
            log.info("expired %d games nobody joined", len(gone))
        await self._end_abandoned((now or datetime.now(UTC)) - timedelta(days=self.abandon_days))
        return gone

    async def _end_abandoned(self, cutoff: datetime) -> None:
        """A game in progress where nobody has moved since ``cutoff`` (an untimed game
        left by the player on turn) ends: that player loses, as on time."""
        try:
            ids = await self._db(self.store.idle_since, "active", cutoff)
        except Exception:
            log.exception("could not list abandoned games")
            return
        for gid in ids:
            try:
                live = await self.get(gid)
            except ActionError:
                continue
            async with live.lock:
                g = live.game
                if g is None or g.is_over or live.status != "active":
                    continue
                try:
                    live.apply_text(g.player_on_turn, FLAG)
                    await self._save(live)
                except (LexikoError, ActionError) as e:
                    log.error("abandoned game %s could not be ended: %s", gid, e)
                    continue
                self._broadcast(live)

    def seat_for_token(self, live: LiveGame, token: object) -> int | None:
        """The seat a secret token holds in this copy of the game, or None (see
        `game_and_seat` for a token that may hold a seat taken elsewhere)."""
        if not isinstance(token, str) or not token:
            return None
        h = hash_token(token)
        for s in live.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.index
        return None

    async def game_and_seat(self, game_id: str, token: object) -> tuple[LiveGame, int | None]:
        """The game and the seat a secret token holds in it (None: a spectator), as the
        database has them: what a client that opens the game with that token is shown.

        In shared mode the copy of a game in this process's memory may be behind: what
        other processes did reaches it as news through Redis, whenever that comes (a
        busy machine: a whole game's moves may be played meanwhile). So a copy kept here
        is checked against the database before it is shown: the actions it lacks, if
        any, are read (as the news would have them read), and so are its seats when the
        token matches none while a seat is still open: a player may have taken it on
        another process a moment ago, and is never taken for a spectator. With every
        seat taken the copy cannot lack a player (a seat never changes hands), and a
        spectator's token costs no more. (A copy read from the database a moment ago is
        checked too: news that came while it was being read was not for it.) A single
        process's copy is the only one, and shown as it is.
        """
        live = await self.get(game_id)
        seat = self.seat_for_token(live, token)
        if not self.bus.shared:
            return live, seat
        unknown = seat is None and isinstance(token, str) and bool(token) and not live.ready
        if unknown or len(await self._db(self.store.actions_after, live.id, live.version)) > 0:
            await self._catch_up(live, seats=True)
        live = await self.get(game_id)  # the copy kept now: a client subscribes to it (let go meanwhile: read again)
        return live, self.seat_for_token(live, token)

    # -- acting -----------------------------------------------------------------

    async def act(self, live: LiveGame, seat: int | None, message: dict[str, Any]) -> None:
        """Apply a client's action for its seat, save it, then tell every client."""
        if seat is None:
            raise ActionError("you are watching this game: only its players can act")
        if not 0 <= seat < len(live.seats) or live.seats[seat].is_bot:
            raise ActionError("you are not a player of this game")
        kind = message.get("type")
        if kind in ("abort", "rematch"):
            await (self._abort(live, seat) if kind == "abort" else self._rematch(live, seat))
            return
        if live.status == "aborted":
            raise ActionError("the game was aborted")
        if live.is_duplicate:
            await self._submit(live, seat, message)
            return
        async with live.lock:
            g = live.game
            if g is None:
                raise ActionError("the game has not started: waiting for every player to join")
            if g.is_over:
                raise ActionError("the game is over")
            kind = message.get("type")
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
            await self._save(live)
            self._broadcast(live)
        self._kick_bots(live)

    async def _abort(self, live: LiveGame, seat: int) -> None:
        """Call the game off before its first move: nobody wins, nothing is rated."""
        async with live.lock:
            if live.status == "waiting":
                raise ActionError("the game has not started: waiting for every player to join")
            try:
                live.apply_text(seat, ABORT)
            except LexikoError as e:
                raise ActionError(str(e)) from None
            await self._save(live)
            self._broadcast(live)

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
            await self._db(
                self.store.create_game,
                game_id,
                rules_json=rules_to_json(live.rules),
                seed=seed,
                seats=[SeatSpec(s.index, s.kind, s.name, s.token_hash, None, s.account_id) for s in seats],
            )
            again = LiveGame(game_id, live.rules, seed, seats, live.lexicon)
            again.idle_since = time.monotonic()
            self._games[game_id] = again
            await self._start(again)
            live.apply_text(seat, f"{REMATCH} {game_id}")
            await self._save(live)
            self._broadcast(live)

    async def _submit(self, live: LiveGame, seat: int, message: dict[str, Any]) -> None:
        """A player's move for the round of a duplicate game (it replaces their earlier
        one); the round closes when everybody has played."""
        kind = message.get("type")
        if kind in ("exchange", "challenge", "accept"):
            raise ActionError(
                f"duplicate has no {'exchanges' if kind == 'exchange' else 'challenges'}: play a move or pass"
            )
        async with live.lock:
            d = live.duplicate
            if d is None:
                raise ActionError("the game has not started: waiting for every player to join")
            if d.over:
                raise ActionError("the game is over")
            try:
                text = canonical_action(d, message)
            except LexikoError as e:
                raise ActionError(str(e)) from None
            await self._store_submission(live, seat, text)
            if not await self._close_if_done(live) and len(live.seats) > SHOWN_PLAYERS:
                self._post_state(live, seat)
                self._progress(live)
            else:
                self._broadcast(live)
        self._kick_bots(live)

    async def _store_submission(self, live: LiveGame, seat: int, text: str) -> None:
        """Judge a submission for the round in progress, store it and tell the other
        processes (call with the lock held). Raises ActionError, with nothing changed,
        when it is refused or the round closed meanwhile (elsewhere)."""
        d = live.duplicate
        assert d is not None
        number = d.round_number
        previous = live.subs.get((number, seat))
        try:
            sub = live.submit(SubmissionData(number, seat, text, time.time()))
        except LexikoError as e:
            raise ActionError(str(e)) from None
        try:
            count = await self._db(self.store.submit, live.id, sub)
        except ConflictError:
            live.withdraw(sub, previous)
            await self._sync(live, seats=False)
            self._broadcast(live)
            raise ActionError(f"too late: round {number} is over") from None
        except Exception:
            log.exception("could not save a submission of game %s", live.id)
            live.withdraw(sub, previous)
            raise ActionError("the server could not save this move, so it was not made: try again") from None
        sub = dataclasses.replace(sub, count=count)
        live.keep(sub)
        await self.bus.publish_submission(live.id, sub)

    async def _on_submission(self, game_id: str, sub: SubmissionData) -> None:
        """A duplicate submission stored by another process: apply it here (this
        process's clients see who has played) and close the round if it was the last."""
        live = self._games.get(game_id)
        if live is None:
            return
        async with live.lock:
            d = live.duplicate
            if d is None or d.over or d.round_number != sub.round:
                return  # not started here, or already past that round: a sync reads it from the database
            try:
                live.submit(sub, trusted=True)
            except LexikoError as e:
                log.error("game %s: a submission from elsewhere does not apply here: %s", game_id, e)
                return
            if await self._close_if_done(live) or len(live.seats) <= SHOWN_PLAYERS:
                self._broadcast(live)
            else:
                self._progress(live)

    def _progress(self, live: LiveGame) -> None:
        """Tell every client, at most every `PROGRESS_SECONDS`, how many players
        have played the round (one short message, the same for all)."""
        if live.progress_task is not None and not live.progress_task.done():
            return

        async def later() -> None:
            await asyncio.sleep(PROGRESS_SECONDS)
            d = live.duplicate
            if d is None or d.over:
                return
            text = json.dumps(
                {"type": "progress", "round": d.round_number, "played": len(d.submitted()), "players": len(d.players)},
                separators=(",", ":"),
            )
            for listener in list(live.listeners):
                listener.post(text)

        live.progress_task = asyncio.create_task(later())

    async def _close_if_done(self, live: LiveGame, *, time_up: bool = False) -> bool:
        """Close the duplicate round when every player has played (or its time is up):
        the top goes on the board and the rack is refilled. Call with the lock held.

        The close is stored with the submissions it was computed from; if the database
        holds others (one came in on another process meanwhile), they are read and the
        round computed again. Returns True when the round is closed, here or (found
        while storing) by another process, which this one has then caught up with."""
        d = live.duplicate
        if d is None or d.over or (not time_up and len(d.submitted()) < len(d.players)):
            return False
        number = d.round_number
        for _ in range(10):
            applied = live.round_submissions()
            try:
                live.apply_text(SERVER_SEAT, CLOSE)
            except LexikoError as e:
                log.error("game %s: round %d could not be closed: %s", live.id, number, e)
                live.status = "over"
                return False
            a = live.actions[-1]
            totals = (
                json.dumps([live.duplicate.totals[p] for p in live.duplicate.players])
                if live.duplicate is not None
                else None
            )
            try:
                await self._db(
                    self.store.close_round, live.id, number, a, applied, status=live.status, scores_json=totals
                )
            except ConflictError:
                live.undo_last()
                await self._sync(live, seats=False)
                d = live.duplicate
                if d is None or d.over or d.round_number != number:
                    return True  # closed elsewhere: this process has read it
                continue
            except Exception:
                log.exception("could not save the close of round %d of game %s", number, live.id)
                live.undo_last()
                return False
            await self.bus.publish(live.id, live.version)
            return True
        log.error("game %s: round %d kept changing while it was being closed", live.id, number)
        return False

    async def _save(self, live: LiveGame) -> None:
        await self._save_action(live)
        if live.status == "over" and live.rated and live.game is not None:
            await self._rate(live)

    async def _read_ratings(self, live: LiveGame) -> None:
        ids = [s.account_id for s in live.seats if s.account_id is not None]
        if ids:
            accounts = await self._db(self.store.accounts, ids)
            live.ratings = {i: a.rating for i, a in accounts.items()}

    async def _rate(self, live: LiveGame) -> None:
        """The ratings of a rated game's players after its result (once, whatever
        happens: the database refuses a second time)."""
        g = live.game
        assert g is not None
        a_id, b_id = live.seats[0].account_id, live.seats[1].account_id
        assert a_id is not None and b_id is not None
        try:
            accounts = await self._db(self.store.accounts, [a_id, b_id])
            a, b = accounts[a_id], accounts[b_id]
            winners = g.winners()
            score_a = 0.5 if len(winners) == 2 else 1.0 if winners == [0] else 0.0
            ra, rb = after_game(Rating(a.rating, a.rd, a.vol), Rating(b.rating, b.rd, b.vol), score_a)
            done = await self._db(
                self.store.rate_game, live.id, {a_id: (ra.rating, ra.rd, ra.vol), b_id: (rb.rating, rb.rd, rb.vol)}
            )
        except Exception:
            log.exception("the ratings of game %s could not be updated", live.id)
            return
        if done:
            live.ratings = {a_id: ra.rating, b_id: rb.rating}
            live.view_cache.clear()

    # -- accounts (optional: invitation by link works without one) --------------------

    async def sign_up(self, name: object, password: object) -> tuple[Account, str]:
        """A new account, signed in: returns it and the session's secret key."""
        account_name = clean_name(name)
        secret = _password(password)
        digest = await asyncio.to_thread(_HASHER.hash, secret)
        try:
            account = await self._db(self.store.create_account, account_name, account_name.casefold(), digest)
        except ConflictError:
            raise ActionError(f"the name {account_name} is taken: choose another, or sign in") from None
        return account, await self._new_session(account)

    async def sign_in(self, name: object, password: object) -> tuple[Account, str]:
        """Check a name and password; returns the account and a new session's key."""
        from argon2.exceptions import VerificationError

        wrong = ActionError("wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise wrong
        key = " ".join(unicodedata.normalize("NFKC", name).split()).casefold()
        found = await self._db(self.store.account_login, key)
        if found is None:
            await asyncio.to_thread(_HASHER.hash, "x" * 12)  # the same time as a wrong password
            raise wrong
        account, digest = found
        try:
            await asyncio.to_thread(_HASHER.verify, digest, password)
        except VerificationError:
            raise wrong from None
        if _HASHER.check_needs_rehash(digest):
            await self._db(self.store.set_password_hash, account.id, await asyncio.to_thread(_HASHER.hash, password))
        return account, await self._new_session(account)

    async def _new_session(self, account: Account) -> str:
        key = new_token()
        await self._db(self.store.create_session, hash_token(key), account.id, time.time() + SESSION_DAYS * 86400)
        return key

    async def account_for(self, session: str | None) -> Account | None:
        """The account of a browser's session key (None: not signed in)."""
        if not session:
            return None
        return await self._db(self.store.session_account, hash_token(session), time.time())

    async def sign_out(self, session: str) -> None:
        await self._db(self.store.delete_session, hash_token(session))

    async def top_ratings(self) -> list[dict[str, Any]]:
        return [
            {"name": a.name, "rating": round(a.rating), "rd": round(a.rd), "games": a.games}
            for a in await self._db(self.store.top_accounts)
        ]

    async def _save_action(self, live: LiveGame) -> None:
        a = live.actions[-1]
        g = live.game
        d = live.duplicate
        scores = json.dumps(g.scores if g is not None else [d.totals[p] for p in d.players] if d is not None else [])
        try:
            await self._db(self.store.append_action, live.id, a, status=live.status, scores_json=scores)
        except ConflictError:  # another process stored an action of this number first
            live.undo_last()
            await self._sync(live, seats=False)
            self._broadcast(live)
            raise ActionError(
                "the game changed meanwhile (a move came first from elsewhere): look again and act on it"
            ) from None
        except Exception:
            log.exception("could not save action %d of game %s", a.seq, live.id)
            live.undo_last()
            raise ActionError("the server could not save this action, so it was not made: try again") from None
        self._tell_others(live)

    def _tell_others(self, live: LiveGame) -> None:
        """Publish a game's new version for the other processes, without making this
        process's clients wait for Redis (they get the state first). Versions may
        arrive out of order; a process reads whatever it lacks from the database."""
        if not self.bus.shared:
            return
        task = asyncio.get_running_loop().create_task(self.bus.publish(live.id, live.version))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- shared mode: what other processes did ------------------------------------------

    async def _on_version(self, game_id: str, version: int) -> None:
        """Another process changed a game (``version`` -1: its seats): catch up if this
        process holds it, and tell this process's clients."""
        live = self._games.get(game_id)
        if live is None or (version >= 0 and live.version >= version):
            return
        if version >= 0 and not live.listeners and not self._busy(live):
            # nobody here watches it (it was created or joined here, and is played
            # elsewhere): let it go rather than catch up on each move; the database has it
            self._forget(live)
            return
        await self._catch_up(live, seats=version < 0)

    async def _catch_up(self, live: LiveGame, *, seats: bool) -> None:
        """Bring a game in memory up to the database (``seats``: its seats and start
        too), show this process's clients the result, and let its bots go on."""
        async with live.lock:
            await self._sync(live, seats=seats)
            self._broadcast(live)
        self._kick_bots(live)

    async def _sync(self, live: LiveGame, *, seats: bool = True) -> None:
        """Bring a game in memory up to the database (call with its lock): seats taken
        elsewhere and the start (``seats``), and the actions it lacks, applied in order."""
        if seats or live.started_at is None:
            stored = await self._db(self.store.load_game, live.id)
            if stored is None:
                return
            if [s.index for s in live.seats] != [st.seat for st in stored.seats]:  # started without open seats
                live.reseat(
                    [Seat(st.seat, st.kind, st.name, st.token_hash, st.invite, st.account_id) for st in stored.seats]
                )
            for seat, st in zip(live.seats, stored.seats, strict=True):
                seat.name, seat.token_hash, seat.invite = st.name, st.token_hash, st.invite
                seat.account_id = st.account_id
            live.open_invite = stored.open_invite
            started_at, missing = stored.started_at, stored.actions[live.version :]
        else:
            started_at, missing = live.started_at, await self._db(self.store.actions_after, live.id, live.version)
        subs: list[SubmissionData] = []
        if live.is_duplicate:
            since = live.duplicate.round_number if live.duplicate is not None else 1
            subs = await self._db(self.store.submissions, live.id, since)
        try:
            if started_at is not None and live.started_at is None:
                await self._read_ratings(live)
                live.start(started_at)
            live.replay(missing, subs)
        except LexikoError as e:  # cannot follow: forget it, the next use rebuilds it
            log.error("game %s could not catch up with the database: %s", live.id, e)
            self._games.pop(live.id, None)
        live.view_cache.clear()

    def preview(self, live: LiveGame, seat: int | None, message: dict[str, Any]) -> dict[str, Any]:
        """Score of the tiles a player has put on the board, before playing them: the
        words formed and the points, or why the placement is not allowed. In the void
        challenge mode (words checked at once) it also says which words are not valid."""
        out: dict[str, Any] = {"type": "preview", "id": message.get("id")}
        if live.duplicate is not None:
            return self._preview_duplicate(live.duplicate, seat, message, out)
        g = live.game
        if g is None or seat is None:
            return {**out, "ok": False, "error": "only players of a game in progress can play"}
        try:
            move = placement_from_tiles(g, message.get("tiles") or [])
            move = check_placement(g.board, move, g.rules)
            rack = list(g.rack(seat))
            for t in move.rack_tiles():
                if t in rack:
                    rack.remove(t)
                else:
                    raise ActionError(f"{g.tiles.face(t)} is not on your rack")
            words = words_formed(g.board, move)
            if not words:
                raise ActionError("the play forms no word of two or more letters")
            points = score_words(words, move.tile_count, g.rules)
        except (LexikoError, ActionError) as e:
            return {**out, "ok": False, "error": str(e)}
        out.update(ok=True, move=move.notation(g.tiles, g.board), score=points, words=[w.text for w in words])
        if g.rules.challenge_rule == "void" and live.lexicon is not None:
            lex = live.lexicon
            bad = [w.text for w in words if not word_is_valid(lex, w.codes, g.rules)]
            out["invalid"] = bad
        return out

    @staticmethod
    def _preview_duplicate(
        d: DuplicateGame, seat: int | None, message: dict[str, Any], out: dict[str, Any]
    ) -> dict[str, Any]:
        if seat is None or d.over:
            return {**out, "ok": False, "error": "only players of a game in progress can play"}
        try:
            move = check_placement(d.board, placement_from_tiles(d, message.get("tiles") or []), d.rules)
            rack = list(d.rack)
            for t in move.rack_tiles():
                if t not in rack:
                    raise ActionError(f"{d.tiles.face(t)} is not on the rack")
                rack.remove(t)
            words = words_formed(d.board, move)
            if not words:
                raise ActionError("the play forms no word of two or more letters")
            points = score_words(words, move.tile_count, d.rules)
        except (LexikoError, ActionError) as e:
            return {**out, "ok": False, "error": str(e)}
        bad = [w.text for w in words if not word_is_valid(d.lexicon, w.codes, d.rules)]
        return {
            **out,
            "ok": True,
            "move": move.notation(d.tiles, d.board),
            "score": points,
            "words": [w.text for w in words],
            "invalid": bad,
        }

    # -- bots -----------------------------------------------------------------------

    def _bot(self, live: LiveGame, seat: int) -> Player:
        key = (live.id, seat)
        bot = self._bots.get(key)
        if bot is None:
            assert isinstance(live.lexicon, Lexicon)
            bot = make_bot(
                live.seats[seat].kind,
                live.lexicon,
                live.seats[seat].name or "computer",
                seed=(live.seed + seat) % 2**63,
            )
            self._bots[key] = bot
        return bot

    def _kick_bots(self, live: LiveGame, *, leased: bool = False) -> None:
        """Let the bots of a game play (in shared mode, only where the game's lease is;
        ``leased``: this process has just been found to hold it)."""
        if live.status != "active" or not any(s.is_bot for s in live.seats):
            return
        if live.bot_task is None or live.bot_task.done():
            drive = self._drive_duplicate_bots if live.is_duplicate else self._drive_bots
            live.bot_task = asyncio.create_task(drive(live, leased))

    async def _drive_duplicate_bots(self, live: LiveGame, leased: bool) -> None:
        """Each round, every bot that has not played thinks on a copy of the round (the
        people may play meanwhile) and submits; the round closes when all have played."""
        if not leased and not await self.bus.hold(live.id):
            return
        try:
            while True:
                async with live.lock:
                    d = live.duplicate
                    if d is None or d.over or live.status != "active":
                        return
                    done = set(d.submitted())
                    todo = [s.index for s in live.seats if s.is_bot and s.name not in done]
                    if not todo:
                        return
                    number = d.round_number
                    seen = bot_view(d)
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                moves = []
                for seat in todo:
                    move = await asyncio.to_thread(bot_choice, self._bot(live, seat), seen)
                    moves.append((seat, move.notation(d.tiles) if isinstance(move, Place) else "-"))
                async with live.lock:
                    if live.status != "active":
                        return
                    if live.duplicate is not d or d.over or d.round_number != number:
                        continue  # the round closed on time meanwhile: think again
                    for seat, text in moves:
                        try:
                            await self._store_submission(live, seat, text)
                        except ActionError as e:
                            if live.duplicate is not d or d.round_number != number:
                                break  # the round closed elsewhere meanwhile
                            log.error("bot %d of game %s: %s refused (%s); it passes", seat, live.id, text, e)
                            await self._store_submission(live, seat, "-")
                    await self._close_if_done(live)
                    self._broadcast(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bots of game %s stopped", live.id)

    async def _drive_bots(self, live: LiveGame, leased: bool) -> None:
        """Let the bots act while it is up to them: challenge a phony, accept a play that
        ends the game, or move on their turn. One action at a time, each saved and shown."""
        if not leased and not await self.bus.hold(live.id):
            return
        try:
            while True:
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                async with live.lock:
                    step = await self._bot_step(live)
                    if step is None:
                        return
                    seat, text = step
                    try:
                        live.apply_text(seat, text)
                    except LexikoError as e:
                        log.error("bot %d of game %s: %s refused (%s); it passes", seat, live.id, text, e)
                        g = live.game
                        if g is None or g.player_on_turn != seat:
                            return
                        live.apply_text(seat, "-")
                    try:
                        await self._save(live)
                    except ActionError:
                        return
                    self._broadcast(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bots of game %s stopped", live.id)

    async def _bot_step(self, live: LiveGame) -> tuple[int, str] | None:
        g = live.game
        if g is None or g.is_over or live.status != "active":
            return None
        n = len(g.players)
        on = g.player_on_turn
        pending = live.pending_player()
        if pending is not None:
            for k in range(n):
                seat = (on + k) % n
                if seat != pending and live.seats[seat].is_bot and self._bot(live, seat).wants_challenge(g):
                    return seat, "challenge"
            if g.awaiting_final_challenge:
                if live.seats[on].is_bot and on != pending:
                    return on, "accept"
                return None
        if not live.seats[on].is_bot:
            return None
        bot = self._bot(live, on)
        live.thinking = on
        try:
            move = await asyncio.to_thread(bot.choose, g)
        finally:
            live.thinking = None
        return on, _move_text(g, move)

    # -- clocks ------------------------------------------------------------------------

    async def _watch_clocks(self) -> None:
        """Once a second: a player past the overtime allowed loses on time (the server
        records the flag fall as the player's last action). In shared mode only the
        process holding a game's lease does this, and takes over its bots when the
        process that held it is gone."""
        while True:
            await asyncio.sleep(self.clock_interval)
            await self._beat()
            if time.monotonic() - self._last_expiry > min(600.0, self.expire_hours * 1800):
                await self.expire()
            self._evict_idle()
            ours = await self.bus.claim(g.id for g in self._games.values() if g.status == "active")
            for live in list(self._games.values()):
                try:
                    if live.status == "active" and live.id in ours:
                        await self._check_flag(live)
                        if self.bus.shared:
                            self._kick_bots(live, leased=True)
                except Exception:
                    log.exception("clock check of game %s", live.id)

    async def _check_flag(self, live: LiveGame) -> None:
        if live.status != "active":
            return
        d = live.duplicate
        if d is not None:  # a duplicate round closes when its time is up
            left = d.time_left()
            if d.over or left is None or left > 0 or live.lock.locked():
                return
            async with live.lock:
                left = d.time_left()
                if not d.over and left is not None and left <= 0 and await self._close_if_done(live, time_up=True):
                    self._broadcast(live)
            self._kick_bots(live)
            return
        g = live.game
        r = live.rules
        if g is None or g.is_over or r.time_minutes is None or live.lock.locked():
            return
        on = g.player_on_turn
        left = g.time_left(on)
        if left is None or left > -r.max_overtime * 60:
            return
        async with live.lock:
            if g.is_over or g.player_on_turn != on or g.awaiting_final_challenge:
                return
            try:
                live.apply_text(on, FLAG)
            except LexikoError:
                return
            try:
                await self._save(live)
            except ActionError:
                return
            self._broadcast(live)

    # -- clients -----------------------------------------------------------------------

    def subscribe(self, live: LiveGame, listener: Listener) -> None:
        """Send this client every new state of the game from now on (and the chat so far)."""
        if listener not in live.listeners and listener.seat is None:
            live.watchers += 1
        live.listeners.add(listener)
        live.idle_since = None
        if live.chat:
            listener.post({"type": "chat-history", "messages": list(live.chat)})
        if listener.seat is None and live.game is not None:
            self._broadcast(live)  # the number of watchers changed

    def unsubscribe(self, live: LiveGame, listener: Listener) -> None:
        """Stop sending states to this client."""
        if listener in live.listeners and listener.seat is None:
            live.watchers -= 1
        live.listeners.discard(listener)
        if not live.listeners:
            live.idle_since = time.monotonic()
        elif listener.seat is None and live.game is not None:
            self._broadcast(live)

    async def _on_chat(self, game_id: str, line: dict[str, Any]) -> None:
        """A chat line of a player connected to another process."""
        live = self._games.get(game_id)
        if live is None:
            return
        live.chat.append(line)
        del live.chat[:-100]
        for listener in list(live.listeners):
            listener.post(line)

    async def chat(self, live: LiveGame, seat: int | None, message: dict[str, Any]) -> None:
        """A player's chat line, sent to everyone watching the game (players and
        spectators; each may mute a player on their page). Spectators only read."""
        if seat is None:
            raise ActionError("only the players of a game can chat in it")
        text = message.get("text")
        if not isinstance(text, str):
            raise ActionError("a chat message needs its text")
        text = " ".join(
            "".join(ch for ch in unicodedata.normalize("NFKC", text) if unicodedata.category(ch)[0] != "C").split()
        )
        if not text:
            raise ActionError("a chat message needs its text")
        if len(text) > 300:
            raise ActionError("a chat message has at most 300 characters")
        now = time.time()
        if now - live.last_chat.get(seat, 0.0) < 0.5:
            raise ActionError("one chat message at a time: wait a moment")
        live.last_chat[seat] = now
        line = {"type": "chat", "seat": seat, "from": live.seats[seat].name, "text": text, "at": round(now, 3)}
        live.chat.append(line)
        del live.chat[:-100]
        for listener in list(live.listeners):
            listener.post(line)
        await self.bus.publish_chat(live.id, line)

    async def lookup(self, live: LiveGame, word: str) -> dict[str, Any]:
        """Whether a word is valid in the game's lexicon and rules, and, once the game is
        over, its anagrams. While the game is on only the words on the board may be
        looked up (anything else would help a player choose a move)."""
        ts = live.rules.tile_set
        text = unicodedata.normalize("NFKC", word).strip().upper()
        try:
            codes = ts.parse(text)
        except LexikoError as e:
            raise ActionError(str(e)) from None
        if not 2 <= len(codes) <= 15:
            raise ActionError("a word has 2 to 15 letters")
        over = live.status in ("over", "aborted")
        g = live.game
        if not over:
            on_board = g is not None and any(text in ev.words for ev in g.history)
            if not on_board:
                raise ActionError(
                    "while the game is on you may look up only the words on the board; any word once it is over"
                )
        lex = await self.lexicon_for(live.rules)
        out: dict[str, Any] = {
            "word": ts.format(codes),
            "valid": word_is_valid(lex, codes, live.rules),
            "lexicon": live.rules.lexicon,
        }
        if over:
            out["anagrams"] = [w for w in lex.anagrams(ts.format(codes)) if w != out["word"]][:50]
        return out

    def _evict_idle(self) -> None:
        """Forget games nobody has watched for a while (the database has them): memory
        stays bounded however many games are played."""
        now = time.monotonic()
        for live in list(self._games.values()):
            if live.idle_since is not None and now - live.idle_since > self.idle_seconds and not self._busy(live):
                self._forget(live)

    @staticmethod
    def _busy(live: LiveGame) -> bool:
        """True while something here acts on the game (its lock held, its bots moving)."""
        return live.lock.locked() or (live.bot_task is not None and not live.bot_task.done())

    def _forget(self, live: LiveGame) -> None:
        """Let a game go from this process's memory (and its lease): the next use reads
        it from the database."""
        if self._games.get(live.id) is live:
            del self._games[live.id]
        if self.bus.shared:
            asyncio.get_running_loop().create_task(self.bus.release(live.id))
        for seat in range(len(live.seats)):
            self._bots.pop((live.id, seat), None)

    def _broadcast(self, live: LiveGame) -> None:
        """Queue the new state for every client, serialized once per seat."""
        views: dict[int | None, str] = {}
        for listener in list(live.listeners):
            seat = listener.seat
            if seat not in views:
                views[seat] = to_json(state_for(live, seat))
            listener.post(views[seat])

    def _post_state(self, live: LiveGame, seat: int) -> None:
        """Send one seat's clients (a player may have several tabs) their new state."""
        text = ""
        for listener in list(live.listeners):
            if listener.seat == seat:
                text = text or to_json(state_for(live, seat))
                listener.post(text)

    def state(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The state as one seat sees it."""
        return state_for(live, seat)

    def lobby(self, live: LiveGame) -> dict[str, Any]:
        """Public facts about a game (for the invitation page)."""
        return lobby_info(live)

    async def listed(self) -> dict[str, Any]:
        """The lobby: listed games with an open seat (and the path that takes it), and
        listed games in progress to watch."""
        out: dict[str, list[dict[str, Any]]] = {"open": [], "live": []}
        for status, key in (("waiting", "open"), ("active", "live")):
            for gid in await self._db(self.store.listed_games, status):
                try:
                    live = await self.get(gid)
                except ActionError:
                    continue
                info = lobby_info(live)
                if key == "open":
                    seat = next((s for s in live.seats if s.invite and not s.taken), None)
                    if seat is None:
                        continue
                    info["join"] = f"/join/{live.id}/{seat.invite}"
                else:
                    info["watchers"] = live.watchers
                    g = live.game
                    info["scores"] = g.scores if g is not None else None
                out[key].append(info)
        return out

    # -- review --------------------------------------------------------------------------

    async def review(self, live: LiveGame) -> dict[str, Any]:
        """The analysis of every turn of a finished game (computed once, then stored)."""
        if live.is_duplicate:
            raise ActionError("duplicate games have no review: the master sheet shows every round's top and moves")
        if live.status != "over" or live.game is None:
            raise ActionError("the review is available once the game is over")
        async with live.lock:
            if live.review_json is None:
                from lexiko.web.review import compute_review

                lex = await self.lexicon_for(live.rules)
                assert live.started_at is not None
                data = await asyncio.to_thread(
                    compute_review,
                    players=live.names,
                    rules=live.rules,
                    seed=live.seed,
                    started_at=live.started_at,
                    actions=list(live.actions),
                    lexicon=lex,
                )
                text = json.dumps(data)
                await self._db(self.store.save_review, live.id, text)
                live.review_json = text
            result: dict[str, Any] = json.loads(live.review_json)
            return result


def _move_text(g: Game, move: Move) -> str:
    if isinstance(move, Exchange):
        return Exchange(g.tiles.rack_sort(move.tiles)).notation(g.tiles)
    return move.notation(g.tiles)
