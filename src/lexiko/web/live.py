"""A game held in memory by the server: the engine's `Game` (or,
for duplicate rules, a `DuplicateGame`), its seats, the actions
so far (the persistence format) and the clock.

Everything that changes a game goes through `LiveGame.apply_text`, which applies
one action written as text (GCG notation, ``challenge``, ``accept``) with the wall clock
frozen at one instant. The same texts and instants replayed through a new game with the
same seed give the same game, clocks included: that is how a restarted server rebuilds
every game from the database.

In a duplicate game an action is a seat's submission for the round (a placement or
``-``), or the server's ``close`` of the round, stored with the top it placed
(``close 8D WORD``) so that a replay places the same top whatever the move generator.

>>> live = LiveGame("g", Rules(challenge_rule="void"), seed=3,
...                 seats=[Seat(0, "human", "Ann"), Seat(1, "human", "Bob")], lexicon=None)
>>> live.start(100.0)
>>> live.game.players
['Ann', 'Bob']
>>> text = live.apply_text(live.game.player_on_turn, "-", at=130.0)
>>> text, live.version
('-', 1)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from lexiko.board import Board, square_name
from lexiko.duplicate import DuplicateGame
from lexiko.errors import GameStateError, IllegalMoveError, NotationError
from lexiko.game import Game, WordJudge
from lexiko.legality import check_placement, place_from_squares
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place, parse_move, parse_tiles
from lexiko.rng import Generator
from lexiko.rules import Rules
from lexiko.tiles import BLANK, TileSet
from lexiko.web.store import ActionData, SubmissionData

__all__ = [
    "WallClock",
    "Seat",
    "LiveGame",
    "Listener",
    "placement_from_tiles",
    "canonical_action",
    "CLOSE",
    "SERVER_SEAT",
    "RESIGN",
    "ABORT",
    "REMATCH",
    "DOWNTIME",
]


class WallClock:
    """The game's clock: wall-clock seconds, or a frozen instant while an action is
    applied or replayed (so the time charged is exactly what the database records)."""

    def __init__(self) -> None:
        self.frozen: float | None = None

    def __call__(self) -> float:
        return self.frozen if self.frozen is not None else time.time()


@dataclass
class Seat:
    """A seat: ``kind`` is ``human`` or a bot kind; ``name`` is None until an invited
    player takes it; ``token_hash`` identifies the player who holds it."""

    index: int
    kind: str
    name: str | None
    token_hash: str | None = None
    invite: str | None = None
    #: The account of the person in the seat, when they were signed in.
    account_id: int | None = None

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return self.kind != "human"

    @property
    def taken(self) -> bool:
        """True once a person (or a bot) sits here."""
        return self.is_bot or self.token_hash is not None


class Listener(Protocol):
    """A connected client: the seat it plays (None: a spectator) and a way to queue a
    message (a JSON object, or one already serialized)."""

    seat: int | None

    def post(self, message: dict[str, Any] | str) -> None: ...


@dataclass
class LiveGame:
    """One game in the server's memory."""

    id: str
    rules: Rules
    seed: int
    seats: list[Seat]
    lexicon: WordJudge | None
    status: str = "waiting"
    started_at: float | None = None
    game: Game | None = None
    #: The game under duplicate rules (``game`` stays None).
    duplicate: DuplicateGame | None = None
    actions: list[ActionData] = field(default_factory=list)
    clock: WallClock = field(default_factory=WallClock)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Any] = field(default_factory=set)
    #: The same clients by seat (spectators left out): a seat's are found at once.
    by_seat: dict[int, set[Any]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    #: The task that will send a duplicate round's progress (see ``PROGRESS_SECONDS``).
    progress_task: asyncio.Task[None] | None = None
    #: Set while a bot decides (a restart may interrupt it: the bots simply go on).
    thinking: int | None = None
    #: When the last client left (monotonic seconds; None while someone watches).
    idle_since: float | None = None
    #: What the views compute once and reuse (see `lexiko.web.views`); cleared on undo.
    view_cache: dict[Any, Any] = field(default_factory=dict)
    #: The id of the rematch of this game, once a player has asked for one.
    rematch: str | None = None
    #: True when the creator chose the seed (one person against the computer): it is shown.
    seeded: bool = False
    #: True when the game is listed in the lobby.
    listed: bool = False
    #: The generator that shuffles it (``python``: a game stored before `lexiko.rng`).
    generator: Generator = "lexiko"
    #: Ratings of the seats' accounts (account id -> rating), as last read.
    ratings: dict[int, float] = field(default_factory=dict)
    #: Why a game between two accounts is not (or will not be) rated, once known
    #: (`lexiko.web.services.ratings.unrated_reason`); None: it counts.
    rating_note: str | None = None
    #: The addresses each seat's player connected to this process from (the database keeps
    #: their digests for every process: `lexiko.web.services.ratings.Ratings.seen`).
    addresses: dict[int, set[str]] = field(default_factory=dict)
    #: Duplicate submissions applied, by (round, seat): stored apart from the actions.
    subs: dict[tuple[int, int], SubmissionData] = field(default_factory=dict)
    #: Seats whose submission is applied here but still being stored (the round does
    #: not close meanwhile, and the seat's next waits for it).
    saving: set[int] = field(default_factory=set)
    #: How many clients watch (spectators), kept as they come and go.
    watchers: int = 0
    #: The task that will send the new number of watchers (see ``Core.WATCHERS_SECONDS``).
    watchers_task: asyncio.Task[None] | None = None
    #: The key of the game's open link (whoever opens it takes the next open seat), if any.
    open_invite: str | None = None
    #: The event whose pairing the game is, if any (`lexiko.web.services.events`).
    event_id: str | None = None
    _sub_total: int = 0
    _bots: bool | None = None

    @property
    def has_bots(self) -> bool:
        """True when a seat is a computer player's (known once per set of seats)."""
        if self._bots is None:
            self._bots = any(s.is_bot for s in self.seats)
        return self._bots

    @property
    def rated(self) -> bool:
        """True for a game between two different signed-in people: its result changes
        their ratings."""
        if len(self.seats) != 2:
            return False
        ids = [s.account_id for s in self.seats]
        return (
            not self.is_duplicate
            and all(s.kind == "human" for s in self.seats)
            and None not in ids
            and ids[0] != ids[1]
        )

    #: The chat so far (the last 100 lines; kept in memory only) and each seat's last line's time.
    chat: list[dict[str, Any]] = field(default_factory=list)
    last_chat: dict[int, float] = field(default_factory=dict)

    @property
    def version(self) -> int:
        """Number of actions applied: grows by one with each."""
        return len(self.actions)

    @property
    def state_version(self) -> int:
        """What a client's state is numbered: the actions, plus in a duplicate game every
        submission made (a replaced one too), so that it grows with each."""
        return len(self.actions) + self._sub_total

    @property
    def is_duplicate(self) -> bool:
        """True for a duplicate game (one shared rack, everyone plays each round)."""
        return self.rules.variant == "duplicate"

    @property
    def names(self) -> list[str]:
        """Seat names (empty for a seat still open)."""
        return [s.name or "" for s in self.seats]

    @property
    def ready(self) -> bool:
        """True when every seat is taken."""
        return all(s.taken for s in self.seats)

    def reseat(self, seats: list[Seat]) -> None:
        """Put in new seats before the game starts (the open ones were left out and the
        rest numbered again): each connected player's seat number follows their seat."""
        by_token = {s.token_hash: s.index for s in seats if s.token_hash}
        for listener in self.listeners:
            if listener.seat is not None:
                old = self.seats[listener.seat] if listener.seat < len(self.seats) else None
                listener.seat = by_token.get(old.token_hash) if old is not None and old.token_hash else None
        self.seats = seats
        self._bots = None
        self.by_seat = {}
        for listener in self.listeners:
            if listener.seat is not None:
                self.by_seat.setdefault(listener.seat, set()).add(listener)
        self.view_cache.clear()

    def start(self, started_at: float) -> None:
        """Create the engine's game (deals the racks) with its clock starting at ``started_at``."""
        self.clock.frozen = started_at
        try:
            if self.is_duplicate:
                if not isinstance(self.lexicon, Lexicon):
                    raise GameStateError("a duplicate game needs a lexicon to find each round's top")
                self.duplicate = DuplicateGame(
                    self.names,
                    self.rules,
                    seed=self.seed,
                    lexicon=self.lexicon,
                    clock=self.clock,
                    generator=self.generator,
                )
            else:
                # one action to take back at most (one the database refused), not a copy of
                # the game's state per move kept for its whole life
                self.game = Game(
                    self.names,
                    self.rules,
                    seed=self.seed,
                    lexicon=self.lexicon,
                    clock=self.clock,
                    undo_depth=1,
                    generator=self.generator,
                )
        finally:
            self.clock.frozen = None
        self.started_at = started_at
        self.status = "over" if self.is_over else "active"

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        if self.duplicate is not None:
            return self.duplicate.over
        return self.game is not None and self.game.is_over

    def replay(self, actions: Iterable[ActionData], submissions: Iterable[SubmissionData] = ()) -> None:
        """Apply stored actions in order (after `start`); in a duplicate game each
        round's ``submissions`` go in before the action that closes it, and those of the
        round in progress at the end."""
        by_round: dict[int, list[SubmissionData]] = {}
        for sd in submissions:
            by_round.setdefault(sd.round, []).append(sd)
        for a in actions:
            if self.duplicate is not None and (a.text == CLOSE or a.text.startswith(CLOSE + " ")):
                for sd in by_round.pop(self.duplicate.round_number, []):
                    self.submit(sd, trusted=True)
            self.apply_text(a.seat, a.text, at=a.at)
        if self.duplicate is not None:
            for sd in by_round.pop(self.duplicate.round_number, []):
                self.submit(sd, trusted=True)

    def submit(self, sd: SubmissionData, *, trusted: bool = False) -> SubmissionData:
        """Apply a duplicate submission (kept apart from the actions): judged as
        `DuplicateGame.submit` does, in time unless ``trusted`` (it was stored, so
        it came in time). Returns it; raises the engine's error and changes nothing if
        it is not allowed or not for the round in progress."""
        d = self.duplicate
        if d is None:
            raise GameStateError("the game has not started: waiting for every player to join")
        if sd.round != d.round_number:
            raise GameStateError(f"round {sd.round} is over: this is round {d.round_number}")
        if not 0 <= sd.seat < len(self.seats):
            raise GameStateError("no such seat")
        self.clock.frozen = sd.at
        try:
            d.submit(self.seats[sd.seat].name or "", sd.text, elapsed=0.0 if trusted else None)
        finally:
            self.clock.frozen = None
        self.keep(sd)
        return sd

    def keep(self, sd: SubmissionData) -> None:
        """Record a submission as applied (replacing the seat's earlier one of the round)."""
        old = self.subs.get((sd.round, sd.seat))
        self._sub_total += sd.count - (old.count if old is not None else 0)
        self.subs[sd.round, sd.seat] = sd

    def withdraw(self, sd: SubmissionData, previous: SubmissionData | None) -> None:
        """Take back a submission that could not be stored (``previous``: the seat's
        earlier one this round, or None)."""
        d = self.duplicate
        assert d is not None
        name = self.seats[sd.seat].name or ""
        if previous is None:
            old = self.subs.pop((sd.round, sd.seat), None)
            self._sub_total -= old.count if old is not None else 0
            d.restore(name, None)
        else:
            self.keep(previous)
            self.clock.frozen = previous.at
            try:
                d.restore(name, d.judge(previous.text, name))
            finally:
                self.clock.frozen = None

    def round_submissions(self) -> list[SubmissionData]:
        """The stored submissions of the duplicate round in progress, by seat."""
        d = self.duplicate
        if d is None:
            return []
        r = d.round_number
        return sorted((sd for (rnd, _), sd in self.subs.items() if rnd == r), key=lambda sd: sd.seat)

    def apply_text(self, seat: int, text: str, *, at: float | None = None) -> str:
        """Apply one action for ``seat``, written as text, at instant ``at`` (now by
        default). Returns the text as stored; raises the engine's error and changes
        nothing if the action is not allowed."""
        if text == ABORT or text.startswith(REMATCH + " "):
            return self._apply_meta(seat, text, time.time() if at is None else at)
        if text.startswith(DOWNTIME + " "):
            return self._apply_downtime(text, time.time() if at is None else at)
        if self.status == "aborted":
            raise GameStateError("the game was aborted")
        if self.is_duplicate:
            if text == RESIGN:
                raise GameStateError("nobody resigns in duplicate: pass, or leave the game")
            return self._apply_duplicate(seat, text, time.time() if at is None else at)
        g = self._game()
        now = time.time() if at is None else at
        self.clock.frozen = now
        try:
            if text == FLAG:
                g.flag(seat)  # the server's ruling: this seat's time ran out
            elif text == RESIGN:
                g.resign(seat)
            else:
                g.apply(text, player=seat)
        finally:
            self.clock.frozen = None
        self.actions.append(ActionData(len(self.actions), seat, text, now))
        if g.is_over:
            self.status = "over"
        return text

    def _apply_downtime(self, text: str, now: float) -> str:
        """The server was down this many seconds during the current turn (or round):
        nobody could move, so that time is not charged."""
        try:
            seconds = float(text.split(" ", 1)[1])
        except ValueError:
            raise GameStateError(f"{text!r}: the downtime is a number of seconds") from None
        if not 0 <= seconds < 10**9:
            raise GameStateError(f"{text!r}: the downtime is a number of seconds")
        if self.duplicate is not None:
            self.duplicate.extend_round(seconds)
        else:
            self._game().discount_time(seconds)
        self.actions.append(ActionData(len(self.actions), SERVER_SEAT, text, now))
        return text

    def _apply_meta(self, seat: int, text: str, now: float) -> str:
        """Abort (before the first move) and the rematch's id (once the game is over):
        what happens to the game from outside its rules."""
        if text == ABORT:
            if self.status != "active":
                raise GameStateError("only a game in progress can be aborted")
            if self.actions and seat != SERVER_SEAT:  # the server calls off an event's game at any time
                raise GameStateError("a game can be aborted only before its first move")
            self.status = "aborted"
        else:
            if self.status != "over":
                raise GameStateError("a rematch can be asked for once the game is over")
            if self.rematch is not None:
                raise GameStateError("the rematch has already been made")
            self.rematch = text.split(" ", 1)[1]
        self.actions.append(ActionData(len(self.actions), seat, text, now))
        return text

    def _apply_duplicate(self, seat: int, text: str, now: float) -> str:
        d = self.duplicate
        if d is None:
            raise GameStateError("the game has not started: waiting for every player to join")
        self.clock.frozen = now
        try:
            if text == CLOSE or text.startswith(CLOSE + " "):
                top = text[len(CLOSE) :].strip() or None
                result = d.close_round(top)
                text = f"{CLOSE} {result.top.notation}"
            else:
                if not 0 <= seat < len(self.seats):
                    raise GameStateError("no such seat")
                d.submit(self.seats[seat].name or "", text)
        finally:
            self.clock.frozen = None
        self.actions.append(ActionData(len(self.actions), seat, text, now))
        if d.over:
            self.status = "over"
        return text

    def undo_last(self) -> None:
        """Take back the last action (when it could not be saved)."""
        last = self.actions[-1].text if self.actions else ""
        if last == ABORT or last.startswith(REMATCH + " "):
            self.actions.pop()
            self.view_cache.clear()
            self.status, self.rematch = ("active", self.rematch) if last == ABORT else ("over", None)
            return
        if self.duplicate is not None and last.startswith(CLOSE + " "):
            try:  # a round's close: the engine takes it back (a replay costs every submission so far)
                self.duplicate.reopen_round()
            except GameStateError:
                pass
            else:
                self.actions.pop()
                self.view_cache.clear()
                self.status = "active"
                return
        if self.is_duplicate or last.startswith(DOWNTIME + " "):  # rebuild from the actions before it
            assert self.started_at is not None
            kept = self.actions[:-1]
            subs = list(self.subs.values())
            self.actions = []
            self.subs = {}
            self._sub_total = 0
            self.rematch = None
            self.view_cache.clear()
            self.start(self.started_at)
            self.replay(kept, sorted(subs, key=lambda sd: (sd.round, sd.seat)))
            return
        self._game().undo()
        self.actions.pop()
        self.view_cache.clear()
        self.status = "over" if self._game().is_over else "active"

    def _game(self) -> Game:
        if self.game is None:
            raise GameStateError("the game has not started: waiting for every player to join")
        return self.game

    def pending_player(self) -> int | None:
        """The player whose last play may still be challenged (or accepted)."""
        g = self.game
        if g is None or not (g.awaiting_challenge or g.awaiting_final_challenge):
            return None
        for ev in reversed(g.history):
            if ev.kind == "play":
                return ev.player
        return None


FLAG = "flag"
"""The stored action of a player whose time ran out (only the server's clock watcher
writes it; clients cannot send it)."""

RESIGN = "resign"
"""The stored action of a player who resigns (and so loses)."""

ABORT = "abort"
"""The stored action of a player who calls the game off before its first move (nobody wins)."""

REMATCH = "rematch"
"""The stored action ``rematch ID`` that points a finished game to its rematch."""

DOWNTIME = "downtime"
"""The stored action ``downtime SECONDS``: the server was down that long during the turn
(or duplicate round) in progress, and the clock of the player on turn did not run."""

CLOSE = "close"
"""The stored action that ends a duplicate round (the server's; clients cannot send it)."""

SERVER_SEAT = -1
"""The seat of the actions the server takes itself (closing a duplicate round)."""


class Table(Protocol):
    """What a placement is read against: a board and its tile set (a
    `Game` or a `DuplicateGame`)."""

    @property
    def board(self) -> Board: ...

    @property
    def tiles(self) -> TileSet: ...

    @property
    def rules(self) -> Rules: ...


def placement_from_tiles(game: Table, tiles: Sequence[Any]) -> Place:
    """A placement from tiles dropped on squares: each item a mapping with ``row``,
    ``col`` (0-based), ``letter`` (the face) and ``blank`` (true when a blank stands for
    that letter). Raises IllegalMoveError / NotationError with a message for the player.
    """
    if not isinstance(tiles, list | tuple) or not tiles:
        raise IllegalMoveError("put some tiles on the board first")
    n = game.board.size
    ts = game.tiles
    squares: list[tuple[int, int, int]] = []
    for t in tiles:
        if not isinstance(t, dict):
            raise NotationError("each tile needs a row, a column and a letter")
        row, col, letter, blank = t.get("row"), t.get("col"), t.get("letter"), bool(t.get("blank", False))
        if not isinstance(row, int) or not isinstance(col, int) or isinstance(row, bool) or isinstance(col, bool):
            raise NotationError("each tile needs a row and a column")
        if not (0 <= row < n and 0 <= col < n):
            raise IllegalMoveError("a tile is off the board")
        if not isinstance(letter, str) or not letter or letter == "?":
            if blank:
                raise IllegalMoveError("choose the letter the blank stands for")
            raise NotationError("each tile needs its letter")
        code = ts.code(letter.upper())
        if game.board.tile_at(row, col):
            raise IllegalMoveError(f"square {square_name(row, col)} is already occupied")
        squares.append((row, col, code | BLANK if blank else code))
    return place_from_squares(game.board, squares)


def canonical_action(game: Table, message: dict[str, Any]) -> str:
    """The text of the action a client asks for, checked for form (the engine judges
    the rest): a placement written in GCG notation, an exchange with its tiles in rack
    order (the order the bag receives them, so a replay shuffles alike), ``-``,
    ``challenge`` or ``accept``."""
    kind = message.get("type")
    ts = game.tiles
    if kind == "play":
        if "move" in message:
            text = message["move"]
            if not isinstance(text, str):
                raise NotationError("the move must be text like 8D WORD")
            move = parse_move(text, ts, game.board)
            if not isinstance(move, Place):
                raise IllegalMoveError(f"{text!r} is not a placement of tiles")
            move = check_placement(game.board, move, game.rules)
        else:
            move = placement_from_tiles(game, message.get("tiles") or [])
        return move.notation(ts)
    if kind == "exchange":
        raw = message.get("tiles")
        if isinstance(raw, list):
            if not all(isinstance(x, str) for x in raw):
                raise NotationError("name the tiles to exchange")
            codes = tuple(0 if x == "?" else ts.code(x.upper()) for x in raw)
        elif isinstance(raw, str):
            codes = parse_tiles(raw, ts)
        else:
            raise NotationError("name the tiles to exchange")
        if not codes:
            raise IllegalMoveError("choose the tiles to exchange")
        return Exchange(ts.rack_sort(codes)).notation(ts)
    if kind == "pass":
        return Pass().notation(ts)
    if kind == "challenge":
        return "challenge"
    if kind == "resign":
        return RESIGN
    if kind == "accept":
        return "accept"
    raise NotationError(f"unknown action {kind!r}")
