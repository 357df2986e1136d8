"""A game: players, a seeded bag, racks, turns, challenges, clocks and the end.

Every move, challenge and acceptance goes through `Game.apply`, which either applies a
whole action or raises and leaves the game exactly as it was. The changes that are not
turns (`Game.resign`, `Game.flag`, `Game.apply_penalty`, `Game.set_rack`,
`Game.set_next_draws`, `Game.undo`) are methods of their own, each checking everything
before it changes anything, so they too apply whole or not at all.

>>> g = Game(["Ann", "Bob"], seed=1, lexicon=None, first_player=0)
>>> g.set_rack(0, "DINNVWY")
>>> g.play("8D WINDY").score
32
>>> g.scores, g.player_on_turn
([32, 0], 1)
>>> g.play("2A AA")
Traceback (most recent call last):
...
lexiko.errors.IllegalMoveError: the play does not touch any tile on the board
>>> g.scores, g.player_on_turn
([32, 0], 1)
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from lexiko.board import Board
from lexiko.errors import GameStateError, IllegalMoveError, PhonyError
from lexiko.legality import check_placement
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Move, Pass, Place, parse_move, parse_tiles
from lexiko.movegen import Candidate, LeaveValue, generate
from lexiko.rng import Generator, Rng, make_generator
from lexiko.rules import Rules
from lexiko.scoring import Word, score_words, words_formed
from lexiko.tiles import BLANK, LETTER_MASK, Rack, TileSet

__all__ = [
    "Game",
    "Event",
    "EventKind",
    "Challenge",
    "Accept",
    "Action",
    "Position",
    "WordJudge",
    "DrawState",
]

EventKind = Literal[
    "play",
    "exchange",
    "pass",
    "withdrawn",
    "challenge-bonus",
    "challenge-penalty",
    "lost-turn",
    "out-of-time",
    "end-rack-bonus",
    "end-rack-penalty",
    "time-penalty",
]

EndReason = Literal["out", "scoreless", "target", "time", "match-time", "resigned"]


class WordJudge(Protocol):
    """What a game needs of a lexicon: membership of a word, and for Clabbers, of an anagram."""

    def contains_codes(self, codes: Sequence[int]) -> bool: ...

    def has_anagram(self, codes: Sequence[int]) -> bool: ...


def word_is_valid(judge: WordJudge, codes: Sequence[int], rules: Rules) -> bool:
    """Whether a word (letter or board codes) stands under ``rules``: in the lexicon, or
    in Clabbers an anagram of a word of it. The one place the variants' word rule lives.

    >>> from lexiko.lexicon import Lexicon
    >>> from lexiko.rules import CLABBERS
    >>> lex = Lexicon.from_words(["FASTEN"])
    >>> codes = lex.tiles.parse("TSAFNE")
    >>> word_is_valid(lex, codes, Rules()), word_is_valid(lex, codes, CLABBERS)
    (False, True)
    """
    letters = [c & LETTER_MASK for c in codes]
    if rules.variant == "clabbers":
        return judge.has_anagram(letters)
    return judge.contains_codes(letters)


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the last play. ``ruling`` overrides the lexicon (True: the play is
    valid), as an adjudicator or a game record decides; ``bonus`` overrides the points
    a failed challenge gives (records show e.g. 10 where two words were challenged
    under a five-point rule)."""

    ruling: bool | None = None
    bonus: int | None = None


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the last play without challenging (needed when it ended the game)."""


Action = Place | Exchange | Pass | Challenge | Accept


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the game's history.

    ``rack`` is the acting player's rack at the time (before a move); ``score`` what the
    event added to that player's score, ``total`` the score after it; ``tiles`` the
    tiles counted by an end-of-game rack event; ``invalid`` the words a challenge found
    not in the lexicon (on a ``withdrawn`` event; empty when a ruling decided it).
    """

    player: int
    kind: EventKind
    rack: tuple[int, ...]
    score: int
    total: int
    move: Move | None = None
    words: tuple[str, ...] = ()
    tiles: tuple[int, ...] = ()
    elapsed: float | None = None
    invalid: tuple[str, ...] = ()


@dataclass(frozen=True)
class Position:
    """What the player on turn sees: the board, their rack, the scores, the tiles they
    cannot see (bag and other racks) and the run of scoreless turns."""

    board: Board
    rack: tuple[int, ...]
    scores: tuple[int, ...]
    player: int
    unseen: tuple[int, ...]
    bag_count: int
    scoreless_turns: int
    rules: Rules

    def _repr_svg_(self) -> str:
        """The board and the rack as an SVG picture, which Jupyter shows (see `lexiko.svg.position`)."""
        from lexiko import svg

        return svg.position(self)


@dataclass
class _Pending:
    """The last play, open to a challenge until the next player acts."""

    player: int
    move: Place
    score: int
    rack_before: tuple[int, ...]
    drawn: list[int]
    scoreless_before: int
    words: tuple[str, ...]
    valid: bool | None
    ends_game: bool
    challenged: bool = False
    invalid: tuple[str, ...] = ()


_AUTO = "auto"


@dataclass(frozen=True)
class DrawState:
    """`Game.draw_state`: the bag (drawn from the end), the racks as held, the
    scores, the player on turn, the scoreless run and the generator's state
    (`lexiko.rng.Rng.getstate`)."""

    bag: tuple[int, ...]
    racks: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    turn: int
    scoreless_run: int
    rng_state: tuple[int, int, int, int]


@dataclass
class _State:
    board: Board
    bag: list[int]
    racks: list[list[int]]
    scores: list[int]
    turn: int
    history: list[Event]
    scoreless_run: int = 0
    exchanges: list[int] = field(default_factory=list)
    pending: _Pending | None = None
    skip_next: set[int] = field(default_factory=set)
    over: bool = False
    end_reason: EndReason | None = None
    lost_on_time: int | None = None
    resigned: int | None = None
    scores_before_end: list[int] | None = None
    phonies: list[Event] = field(default_factory=list)
    time_used: list[float] = field(default_factory=list)
    out_of_time: set[int] = field(default_factory=set)
    penalized: set[int] = field(default_factory=set)
    rng_state: tuple[Any, ...] | None = None  # the generator's own state


class Game:
    """A game of 1 to 4 players (or two teams of two) under a `Rules` value.

    ``seed`` fixes the shuffles: the same seed and the same actions give the same game
    (lexiko's own generator, `lexiko.rng.Rng`, reads it modulo 2**64; without a
    seed the game picks one at random).
    ``lexicon`` judges words: ``"auto"`` loads ``rules.lexicon`` when first needed;
    ``None`` accepts every word (challenges then need a ``ruling``).
    ``first_player`` skips the draw for first play; ``deal=False`` leaves the racks
    empty (for replaying records, with `set_rack`). ``undo_depth`` bounds how many
    actions `undo` can take back (None: all; a server that only takes back an
    action it could not store keeps one, and so a game's memory does not grow with
    a copy of its state per move). ``generator``: ``"python"`` rebuilds a game stored
    before lexiko shuffled with its own generator (see `lexiko.rng.PythonRandom`).
    """

    def __init__(
        self,
        players: Sequence[str] = ("Player 1", "Player 2"),
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        lexicon: WordJudge | None | str = _AUTO,
        first_player: int | None = None,
        deal: bool = True,
        clock: Callable[[], float] = time.monotonic,
        undo_depth: int | None = None,
        generator: Generator = "lexiko",
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        self.players = list(players)
        n = len(self.players)
        least, most = self.rules.min_players, self.rules.max_players
        if not least <= n <= most:
            need = f"exactly {least}" if least == most else f"{least} to {most}"
            raise GameStateError(f"{self.rules.name} rules need {need} players, not {n}")
        if self.rules.variant == "duplicate":
            raise GameStateError("duplicate games are played with lexiko.duplicate, not Game")
        if self.rules.teams and n != 4:
            raise GameStateError(f"team play needs four players (two teams of two), not {n}")
        if len(set(self.players)) != n:
            raise GameStateError("two players have the same name")
        self.tiles: TileSet = self.rules.tile_set
        self.seed = seed if seed is not None else random.randrange(2**63)
        self.generator: Generator = generator
        self._rng = make_generator(generator, self.seed)
        self._lexicon_arg = lexicon
        self._clock = clock
        bag = list(self.tiles.bag())
        self.first_draw: list[list[tuple[int, int]]] = []
        if first_player is None:
            first_player = self._draw_for_first(bag) if self.rules.draw_for_first else 0
        elif not 0 <= first_player < n:
            raise GameStateError(f"first_player must be 0 to {n - 1}")
        self._rng.shuffle(bag)
        self._s = _State(
            board=Board.empty(self.rules.board_layout, self.tiles),
            bag=bag,
            racks=[[] for _ in range(n)],
            scores=[0] * n,
            turn=first_player,
            history=[],
            exchanges=[0] * n,
            time_used=[0.0] * self._clock_count,
        )
        self.first_player = first_player
        if deal:
            for i in range(n):
                p = (first_player + i) % n
                self._draw(p, self.rules.rack_size)
        if undo_depth is not None and undo_depth < 0:
            raise ValueError(f"undo_depth is a number of actions, 0 or more, not {undo_depth}")
        self._undo: list[_State] = []
        self._undo_depth = undo_depth
        self._turn_started = self._clock()

    # -- setup -----------------------------------------------------------------

    def _draw_for_first(self, bag: list[int]) -> int:
        """Each player draws a tile; blank beats all, then the letter nearest A; tied
        players draw again. The tiles go back."""
        contenders = list(range(len(self.players)))
        pool = list(bag)
        self._rng.shuffle(pool)
        while True:
            drawn = [(p, pool.pop()) for p in contenders]
            self.first_draw.append(drawn)
            best = min(t for _, t in drawn)
            contenders = [p for p, t in drawn if t == best]
            if len(contenders) == 1:
                return contenders[0]
            if len(pool) < len(contenders):
                pool = list(bag)
                self._rng.shuffle(pool)

    @property
    def _clock_count(self) -> int:
        return 2 if self.rules.teams else len(self.players)

    def _clock_of(self, player: int) -> int:
        return player % 2 if self.rules.teams else player

    # -- the public state --------------------------------------------------------

    @property
    def board(self) -> Board:
        """The board now (an immutable value)."""
        return self._s.board

    @property
    def scores(self) -> list[int]:
        """Each player's score."""
        return list(self._s.scores)

    def team_scores(self) -> list[int]:
        """Scores of the two teams (players 1 and 3, players 2 and 4)."""
        return [sum(s for i, s in enumerate(self._s.scores) if i % 2 == t) for t in (0, 1)]

    def rack(self, player: int | None = None) -> Rack:
        """A player's rack (the player on turn by default), sorted: a tuple of codes
        that shows itself as letters.

        >>> g = Game(["Ann", "Bob"], seed=1, lexicon=None)
        >>> g.set_rack(0, "WINDY??")
        >>> g.rack(0), g.rack(0) == g.tiles.parse("DINWY??")
        (Rack('DINWY??'), True)
        """
        p = self._s.turn if player is None else player
        return Rack(self.tiles.rack_sort(self._s.racks[p]), self.tiles)

    def rack_text(self, player: int | None = None) -> str:
        """A rack as text, ``?`` for blanks."""
        return self.tiles.format(self.rack(player))

    @property
    def player_on_turn(self) -> int:
        """Index of the player whose turn it is."""
        return self._s.turn

    @property
    def bag_count(self) -> int:
        """Tiles left in the bag."""
        return len(self._s.bag)

    @property
    def history(self) -> list[Event]:
        """Every event so far, in order."""
        return list(self._s.history)

    @property
    def phonies(self) -> list[Event]:
        """Plays with invalid words that stood unchallenged (known when a lexicon is set)."""
        return list(self._s.phonies)

    @property
    def scoreless_turns(self) -> int:
        """Consecutive scoreless turns up to now."""
        return self._s.scoreless_run

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._s.over

    @property
    def end_reason(self) -> EndReason | None:
        """Why the game ended: ``out``, ``scoreless``, ``target``, ``time`` or ``match-time``."""
        return self._s.end_reason

    @property
    def awaiting_challenge(self) -> bool:
        """True while the last play may still be challenged."""
        p = self._s.pending
        return p is not None and not p.challenged and not self._s.over

    @property
    def awaiting_final_challenge(self) -> bool:
        """True when the last play would end the game and waits to be challenged or accepted."""
        p = self._s.pending
        return p is not None and p.ends_game and not self._s.over

    @property
    def exchanges_made(self) -> list[int]:
        """Exchanges each player has made."""
        return list(self._s.exchanges)

    def unseen(self, player: int | None = None) -> Rack:
        """Tiles a player cannot see: the bag and the other racks, sorted."""
        p = self._s.turn if player is None else player
        out = list(self._s.bag)
        for i, r in enumerate(self._s.racks):
            if i != p:
                out.extend(r)
        return Rack(self.tiles.rack_sort(out), self.tiles)

    def position(self, player: int | None = None) -> Position:
        """The position as ``player`` (the player on turn by default) sees it."""
        p = self._s.turn if player is None else player
        return Position(
            board=self._s.board,
            rack=self.rack(p),
            scores=tuple(self._s.scores),
            player=p,
            unseen=self.unseen(p),
            bag_count=len(self._s.bag),
            scoreless_turns=self._s.scoreless_run,
            rules=self.rules,
        )

    def time_left(self, player: int) -> float | None:
        """Seconds left on a player's (team's) clock; negative in overtime; None without clocks."""
        if self.rules.time_minutes is None:
            return None
        c = self._clock_of(player)
        used = self._s.time_used[c]
        if not self._s.over and self._clock_of(self._s.turn) == c:
            used += self._clock() - self._turn_started
        return self.rules.time_minutes * 60 - used

    def winners(self) -> list[int]:
        """Players (teams, with team rules) with the best result; more than one is a draw.
        Only meaningful once the game is over."""
        scores = self.team_scores() if self.rules.teams else self.scores
        sides = list(range(len(scores)))
        forfeit = self._s.lost_on_time if self._s.lost_on_time is not None else self._s.resigned
        if forfeit is not None:
            loser = self._clock_of(forfeit) if self.rules.teams else forfeit
            sides = [s for s in sides if s != loser]
        best = max(scores[s] for s in sides)
        top = [s for s in sides if scores[s] == best]
        if len(top) > 1 and self.rules.tiebreak == "before-adjustment" and self._s.scores_before_end:
            before = self._s.scores_before_end
            if self.rules.teams:
                before = [sum(x for i, x in enumerate(before) if i % 2 == t) for t in (0, 1)]
            best_before = max(before[s] for s in top)
            top = [s for s in top if before[s] == best_before]
        return top

    @property
    def scores_before_end(self) -> list[int] | None:
        """Scores before the end-of-game rack adjustment (set once the game is over)."""
        sb = self._s.scores_before_end
        return list(sb) if sb is not None else None

    # -- actions -----------------------------------------------------------------

    def apply(
        self, action: Action | Candidate | str, *, player: int | None = None, elapsed: float | None = None
    ) -> Event | None:
        """Apply one action for ``player`` (default: the player on turn; for a
        challenge, the player on turn is the challenger). Returns the main event
        recorded (None when the action records none: a failed free challenge, an
        accepted play). Raises and changes nothing if the action is not allowed.

        ``elapsed`` is the thinking time in seconds; by default the game's clock says.

        A `Candidate` is applied as its move: checked, judged and
        scored on the board as it is now, like any play (a candidate made for an earlier
        position may no longer fit, or score differently; checking costs about 1% of a
        static bot's turn, so nothing is taken on trust).

        >>> from lexiko.lexicon import Lexicon
        >>> from lexiko.movegen import generate
        >>> lex = Lexicon.from_words(["QI"])
        >>> g = Game(["A", "B"], seed=1, lexicon=lex, first_player=0)
        >>> g.set_rack(0, "QIAAEEE")
        >>> best = generate(g.board, g.rack(), lex, best=1)[0]
        >>> g.apply(best).score, g.scores
        (22, [22, 0])
        """
        act: Action
        if isinstance(action, Candidate):
            act = action.move
        elif isinstance(action, str):
            act = self._parse_action(action)
        else:
            act = action
        # only an exchange and a challenge (which may withdraw a play) shuffle the bag
        saved = self._snapshot(rng=not isinstance(act, (Place, Pass, Accept)))
        try:
            event = self._apply(act, player, elapsed)
        except BaseException:
            self._restore(saved)
            raise
        self._keep_undo(saved)
        self._turn_started = self._clock()
        return event

    def play(self, move: Move | Candidate | str, *, player: int | None = None, elapsed: float | None = None) -> Event:
        """Make a move: a placement, an exchange or a pass, in notation (``"8D WORD"``,
        ``"-QU"`` or ``"exchange QU"``, ``"-"`` or ``"pass"``) or as a value, or one of
        `moves`. Returns the move's event; raises and changes nothing if it is not
        allowed.

        >>> g = Game(["Ann", "Bob"], seed=1, lexicon=None, first_player=0)
        >>> g.set_rack(0, "DINNVWY")
        >>> g.play("8D WINDY").score, g.play("pass").kind, g.play("-NV", player=0).kind
        (32, 'pass', 'exchange')
        """
        if isinstance(move, str):
            m: Move | Candidate = parse_move(move, self.tiles, self.board)
        else:
            m = move
        return self._turn_event(self.apply(m, player=player, elapsed=elapsed))

    def moves(
        self, best: int | None = None, *, leaves: LeaveValue | None = None, lexicon: Lexicon | None = None
    ) -> Sequence[Candidate]:
        """The legal moves of the player on turn, best first: by equity, which is the
        score plus ``leaves(kept tiles)`` with a leave table (say
        `lexiko.leaves.LeaveTable.default`), the score alone without; ``best=N`` only
        the first N. Placements, then the exchanges the rules allow now and the pass
        (see `lexiko.movegen.generate`); none once the game is over or while the last
        play waits to be challenged or accepted. Each is a `~lexiko.movegen.Candidate`
        (the move with its score, equity and leave) that `play` and `apply` take.

        Words are those of ``lexicon``, else of the game's lexicon, else (a game that
        judges no words, as a record's replay) of the lexicon its rules name.

        >>> from lexiko.lexicon import Lexicon
        >>> g = Game(["Ann", "Bob"], seed=1, lexicon=Lexicon.from_words(["QI", "QAT"]), first_player=0)
        >>> g.set_rack(0, "AQITEEE")
        >>> g.moves(best=1)
        [Candidate(move=Place.parse('8F QAT'), score=24, equity=24.0, leave=Rack('EEEI'))]
        >>> [c.notation() for c in g.moves(best=4)]
        ['8F QAT', '8G QAT', '8H QAT', '8G QI']
        >>> g.play(g.moves(best=1)[0]).score
        24
        """
        s = self._s
        if s.over or (s.pending is not None and s.pending.ends_game):
            return []
        lex = lexicon if lexicon is not None else self._judge_lexicon()
        if not isinstance(lex, Lexicon):
            lex = Lexicon.load(self.rules.lexicon, self.tiles)
        # an exchange the rules refuse now (the exchanges used up, too few of a letter):
        # none listed, as the generator lists none with an empty bag
        bag = len(s.bag) if self.can_exchange() else 0
        return generate(s.board, self.rack(), lex, self.rules, bag_count=bag, best=best, leaves=leaves)

    def exchange(self, tiles: str | Sequence[int], *, player: int | None = None, elapsed: float | None = None) -> Event:
        """Exchange tiles: ``g.exchange("QU")``."""
        codes = parse_tiles(tiles, self.tiles) if isinstance(tiles, str) else tuple(tiles)
        return self._turn_event(self.apply(Exchange(codes), player=player, elapsed=elapsed))

    def pass_turn(self, *, player: int | None = None, elapsed: float | None = None) -> Event:
        """Pass."""
        return self._turn_event(self.apply(Pass(), player=player, elapsed=elapsed))

    @staticmethod
    def _turn_event(ev: Event | None) -> Event:
        assert ev is not None  # a move always records its event
        return ev

    def challenge(
        self,
        *,
        player: int | None = None,
        ruling: bool | None = None,
        bonus: int | None = None,
        elapsed: float | None = None,
    ) -> Event | None:
        """Challenge the last play (see `Challenge`). Returns the withdrawal,
        the bonus or penalty, or the lost turn; None for a failed free challenge.
        The time spent so far is charged to the player on turn."""
        return self.apply(Challenge(ruling, bonus), player=player, elapsed=elapsed)

    def accept(self, *, player: int | None = None, elapsed: float | None = None) -> None:
        """Accept the last play; ends the game if that play went out (or would end it
        otherwise). The time spent so far is charged to the player on turn."""
        self.apply(Accept(), player=player, elapsed=elapsed)

    def set_rack(self, player: int, tiles: str | Sequence[int]) -> None:
        """Give a player exactly these tiles (their old rack goes back first), taken
        from the bag or, failing that, from other racks, which are refilled from the
        bag. For replaying records (which show only the rack of the player on turn)
        and setting up positions.

        Raises and changes nothing if the tiles are not all among the unseen tiles.
        """
        codes = parse_tiles(tiles, self.tiles) if isinstance(tiles, str) else tuple(tiles)
        if len(codes) > self.rules.rack_size:
            raise IllegalMoveError(f"a rack holds at most {self.rules.rack_size} tiles, not {len(codes)}")
        s = self._s
        racks = [list(r) for r in s.racks]
        bag = s.bag + racks[player]
        racks[player] = []
        others = Counter(t for r in racks for t in r)
        missing = Counter(codes) - Counter(bag) - others
        if missing:
            names = self.tiles.format(self.tiles.rack_sort(list(missing.elements())))
            raise IllegalMoveError(
                f"rack {self.tiles.format(self.tiles.rack_sort(codes))} is not available: "
                f"no {names} left among the unseen tiles"
            )
        robbed: Counter[int] = Counter()
        for c in codes:
            if c in bag:
                # take the last copy so the draw order of the rest is kept
                del bag[len(bag) - 1 - bag[::-1].index(c)]
            else:
                # the tile sits on another rack whose draw the record did not show:
                # swap it for a tile from the bag
                q = next(i for i, r in enumerate(racks) if c in r)
                racks[q].remove(c)
                robbed[q] += 1
        for q, k in robbed.items():
            racks[q].extend(bag.pop() for _ in range(min(k, len(bag))))
        racks[player] = list(codes)
        s.bag = bag
        s.racks = racks

    def set_next_draws(self, tiles: Sequence[int], *, available_only: bool = False) -> None:
        """Put these tiles (from the bag) on top of it, to be drawn next in this order.
        For replaying records and setting up puzzles; raises if the bag lacks them, or
        with ``available_only`` stacks just those it holds."""
        s = self._s
        missing = Counter(tiles) - Counter(s.bag)
        if missing and available_only:
            left = Counter(s.bag)
            kept = []
            for c in tiles:
                if left[c]:
                    left[c] -= 1
                    kept.append(c)
            tiles = kept
        elif missing:
            names = self.tiles.format(self.tiles.rack_sort(list(missing.elements())))
            raise IllegalMoveError(f"the bag has no {names} to draw")
        bag = list(s.bag)
        for c in tiles:
            del bag[len(bag) - 1 - bag[::-1].index(c)]
        bag.extend(reversed(tiles))
        s.bag = bag

    def _keep_undo(self, saved: _State) -> None:
        self._undo.append(saved)
        if self._undo_depth is not None and len(self._undo) > self._undo_depth:
            del self._undo[: len(self._undo) - self._undo_depth]

    def undo(self) -> None:
        """Take back the last action (for play against the computer).

        >>> g = Game(["Ann", "Bob"], seed=1, lexicon=None, undo_depth=1)
        >>> _ = g.pass_turn(); _ = g.pass_turn()
        >>> g.undo(); g.undo()
        Traceback (most recent call last):
        lexiko.errors.GameStateError: nothing to undo
        """
        if not self._undo:
            raise GameStateError("nothing to undo")
        self._restore(self._undo.pop())
        self._turn_started = self._clock()

    @property
    def lost_on_time(self) -> int | None:
        """The player whose time ran out and who so lost the game, if any."""
        return self._s.lost_on_time

    def flag(self, player: int) -> None:
        """End the game because ``player``'s time ran out (an arbiter's ruling, or a
        record's, where no clock ran); ``player`` loses whatever the scores.

        >>> g = Game(["Ann", "Bob"], seed=1, lexicon=None)
        >>> g.flag(0); (g.end_reason, g.winners())
        ('time', [1])
        """
        if self._s.over:
            raise GameStateError("the game is over")
        if not 0 <= player < len(self.players):
            raise GameStateError(f"there is no player {player}")
        saved = self._snapshot(rng=False)
        if player == self._s.turn:
            self._charge_clock(player, None)  # the time spent on the turn the flag fell in
        self._s.lost_on_time = player
        self._finish("time")
        self._keep_undo(saved)

    def discount_time(self, seconds: float) -> None:
        """Stop the clock of the player on turn for ``seconds`` of this turn, after the
        fact (the server that ran the game was down that long: nobody could move).

        >>> now = [0.0]
        >>> g = Game(["Ann", "Bob"], Rules(time_minutes=1), seed=1, lexicon=None, clock=lambda: now[0])
        >>> now[0] = 80.0
        >>> g.discount_time(77.0); g.time_left(g.player_on_turn)
        57.0
        """
        if not seconds >= 0:
            raise ValueError(f"the time to discount must be zero or more, not {seconds}")
        self._turn_started += seconds

    @property
    def resigned(self) -> int | None:
        """The player who resigned and so lost the game, if any."""
        return self._s.resigned

    def resign(self, player: int) -> None:
        """End the game because ``player`` resigns: they lose whatever the scores (with
        team rules, their team loses); the scores stay as they are. A player may resign
        at any moment of the game, on turn or not.

        >>> g = Game(["Ann", "Bob"], seed=1, lexicon=None)
        >>> g.resign(1); (g.end_reason, g.winners(), g.scores)
        ('resigned', [0], [0, 0])
        """
        if self._s.over:
            raise GameStateError("the game is over")
        if not 0 <= player < len(self.players):
            raise GameStateError(f"there is no player {player}")
        saved = self._snapshot(rng=False)
        self._charge_clock(self._s.turn, None)  # whoever was thinking, until the game ended
        self._s.resigned = player
        self._finish("resigned")
        self._keep_undo(saved)

    def apply_penalty(self, player: int, points: int) -> Event:
        """Record a time penalty given at the end of the game (as game records do)."""
        s = self._s
        if not s.over:
            raise GameStateError("a time penalty is given only after the game has ended")
        if player in s.penalized:
            raise GameStateError(f"{self.players[player]} already has a time penalty")
        if points > 0:
            raise GameStateError("a time penalty takes points away: give a negative number")
        saved = self._snapshot(rng=False)
        s.penalized.add(player)
        ev = self._add(player, "time-penalty", points)
        self._keep_undo(saved)
        return ev

    @classmethod
    def from_position(
        cls,
        board: Board,
        racks: Sequence[Sequence[int]],
        scores: Sequence[int] | None = None,
        *,
        players: Sequence[str] | None = None,
        rules: Rules | None = None,
        turn: int = 0,
        scoreless_turns: int = 0,
        seed: int | None = None,
        lexicon: WordJudge | None | str = _AUTO,
    ) -> Game:
        """A game set up in the middle: the tiles on ``board`` and the given racks are
        taken from the bag (a blank on the board takes a blank), racks left empty are
        dealt from what remains. For CGP positions and puzzles.

        >>> b = Board.empty().place(parse_move("8D WINDY"))
        >>> g = Game.from_position(b, [(1, 2, 3), ()], [32, 0], turn=1, lexicon=None, seed=1)
        >>> g.bag_count, len(g.rack(1)), g.scores
        (85, 7, [32, 0])
        """
        n = len(racks)
        names = list(players) if players is not None else [f"Player {i + 1}" for i in range(n)]
        if len(names) != n:
            raise GameStateError(f"{len(names)} names for {n} racks")
        base = rules if rules is not None else Rules()
        if base.board_layout.size != board.size:
            raise GameStateError(f"a {board.size}x{board.size} board does not suit {base.name} rules")
        g = cls(names, base.replace(draw_for_first=False), seed=seed, lexicon=lexicon, first_player=turn, deal=False)
        st = g._s
        pool = Counter(st.bag)
        need = Counter(0 if c & BLANK else c for c in board.cells if c)
        for r in racks:
            if len(r) > base.rack_size:
                raise IllegalMoveError(f"a rack holds at most {base.rack_size} tiles, not {len(r)}")
            need.update(r)
        missing = need - pool
        if missing:
            names_ = g.tiles.format(g.tiles.rack_sort(list(missing.elements())))
            raise IllegalMoveError(f"the position uses more tiles than the set holds: {names_} too many")
        bag = list(st.bag)
        for c, k in need.items():
            for _ in range(k):
                del bag[len(bag) - 1 - bag[::-1].index(c)]
        st.bag = bag
        st.board = board
        st.racks = [list(r) for r in racks]
        st.scores = list(scores) if scores is not None else [0] * n
        st.scoreless_run = scoreless_turns
        for p in range(n):
            if not st.racks[p]:
                g._draw(p, base.rack_size)
        return g

    def draw_state(self) -> DrawState:
        """What decides the tiles drawn from here on: the bag in drawing order, the racks
        and the random generator's state (an exchange shuffles the bag with it), with the
        scores, the player on turn and the run of scoreless turns. For engines that play
        the game on by themselves (`lexiko.bots.playout` plays the same game the
        bots would play through `apply`).

        >>> g = Game(["Ann", "Bob"], seed=1, lexicon=None, first_player=0)
        >>> d = g.draw_state()
        >>> len(d.bag), d.racks[0] == tuple(g._s.racks[0]), d.turn, d.scores
        (86, True, 0, (0, 0))
        """
        s = self._s
        if not isinstance(self._rng, Rng):
            raise GameStateError("this game shuffles with Python's generator (stored before lexiko had its own)")
        return DrawState(
            tuple(s.bag),
            tuple(tuple(r) for r in s.racks),
            tuple(s.scores),
            s.turn,
            s.scoreless_run,
            self._rng.getstate(),
        )

    def copy(self) -> Game:
        """An independent copy (for simulations); the copy's shuffles follow the same seed."""
        g = copy.copy(self)
        g._s = self._snapshot(rng=False)
        g._undo = []
        g._rng = self._rng.copy()
        return g

    # -- internals ---------------------------------------------------------------

    def _parse_action(self, text: str) -> Action:
        low = text.strip().lower()
        if low in ("challenge", "chal", "c"):
            return Challenge()
        if low in ("accept", "ok"):
            return Accept()
        return parse_move(text, self.tiles, self.board)

    def _snapshot(self, rng: bool = True) -> _State:
        """A copy of the state to restore on failure or undo. ``rng``: also the random
        generator's state, needed only around what may draw from it (an exchange's
        shuffle); restoring a state saved without it leaves the generator alone, which is
        right when the undone action did not use it (undo goes back in order, so every
        later use has been undone already)."""
        s = self._s
        snap = _State.__new__(_State)  # a shallow copy, without copy.copy's generic path
        snap.__dict__.update(s.__dict__)
        snap.bag = list(s.bag)
        snap.racks = [list(r) for r in s.racks]
        snap.scores = list(s.scores)
        snap.history = list(s.history)
        snap.exchanges = list(s.exchanges)
        if s.pending is not None:
            snap.pending = _Pending.__new__(_Pending)
            snap.pending.__dict__.update(s.pending.__dict__)
        snap.skip_next = set(s.skip_next)
        snap.phonies = list(s.phonies)
        snap.time_used = list(s.time_used)
        snap.out_of_time = set(s.out_of_time)
        snap.penalized = set(s.penalized)
        snap.scores_before_end = list(s.scores_before_end) if s.scores_before_end else None
        snap.rng_state = self._rng.getstate() if rng else None
        return snap

    def _restore(self, state: _State) -> None:
        self._s = state
        if state.rng_state is not None:
            self._rng.setstate(state.rng_state)

    def _apply(self, action: Action, player: int | None, elapsed: float | None) -> Event | None:
        s = self._s
        if s.over:
            raise GameStateError("the game is over")
        if isinstance(action, (Challenge, Accept)):
            # the player on turn was thinking until now, whoever challenges: a challenge
            # or an accept never stops (or resets) the clock of the player on turn
            on_turn = player is None or player == s.turn
            self._charge_clock(s.turn, elapsed if on_turn else None)
            if isinstance(action, Challenge):
                return self._challenge(action, player)
            return self._accept(player)
        who = s.turn if player is None else player
        if who != s.turn:
            raise GameStateError(f"it is not your turn: {self.players[s.turn]} is to play, not {self.players[who]}")
        if s.pending is not None and s.pending.ends_game:
            raise GameStateError(
                f"{self.players[s.pending.player]}'s last play would end the game: challenge it or accept it"
            )
        spent = self._charge_clock(who, elapsed)
        if isinstance(action, Place):
            ev = self._place(who, action, spent)
        elif isinstance(action, Exchange):
            ev = self._exchange(who, action, spent)
        elif isinstance(action, Pass):
            ev = self._pass(who, spent)
        else:
            raise TypeError(f"not an action: {action!r}")
        self._after_turn(who)
        return ev

    def _charge_clock(self, who: int, elapsed: float | None) -> float | None:
        if self.rules.time_minutes is None:
            return elapsed
        spent = elapsed if elapsed is not None else self._clock() - self._turn_started
        self._s.time_used[self._clock_of(who)] += spent
        return spent

    def _settle_pending(self) -> None:
        """The next player acted: the last play stands."""
        p = self._s.pending
        if p is None:
            return
        if p.valid is False and not p.challenged:
            for ev in reversed(self._s.history):
                if ev.kind == "play" and ev.player == p.player and ev.move == p.move:
                    self._s.phonies.append(ev)
                    break
        self._s.pending = None

    def _place(self, who: int, move: Place, spent: float | None) -> Event:
        s = self._s
        move = check_placement(s.board, move, self.rules)
        rack = list(s.racks[who])
        missing = _take(rack, move.rack_tiles())
        if missing:
            raise IllegalMoveError(
                f"tiles {self.tiles.format(self.tiles.rack_sort(missing))} are not on your rack "
                f"({self.tiles.format(self.rack(who))})"
            )
        words = words_formed(s.board, move)
        if not words:
            raise IllegalMoveError("the play forms no word of two or more letters")
        texts = tuple(w.text for w in words)
        valid = self._judge(words)
        if self.rules.challenge_rule == "void" and valid is False:
            raise PhonyError([w.text for w in words if not self._word_ok(w)])
        points = score_words(words, move.tile_count, self.rules)
        self._settle_pending()
        rack_before = self.rack(who)
        s.board = s.board.place(move)
        s.racks[who] = rack
        ev = self._add(who, "play", points, move=move, rack=rack_before, words=texts, elapsed=spent)
        scoreless_before = s.scoreless_run
        self._count_turn(scoreless=points == 0)
        drawn = self._draw(who, self.rules.rack_size - len(rack))
        went_out = not s.racks[who] and not s.bag
        reached = self._reaches_target(who)
        if self.rules.challenge_rule == "void":
            if valid is False:  # no lexicon: cannot happen; kept for clarity
                s.phonies.append(ev)
            if self._time_ran_out(who):
                pass  # a play past the overtime limit loses on time, even one that goes out
            elif went_out:
                self._finish("out", who)
            elif reached:
                self._finish("target")
        else:
            s.pending = _Pending(
                player=who,
                move=move,
                score=points,
                rack_before=rack_before,
                drawn=drawn,
                scoreless_before=scoreless_before,
                words=texts,
                valid=valid,
                ends_game=went_out or reached or self._scoreless_limit_reached(),
                invalid=tuple(w.text for w in words if not self._word_ok(w)) if valid is False else (),
            )
        return ev

    def _exchange(self, who: int, ex: Exchange, spent: float | None) -> Event:
        s = self._s
        r = self.rules
        if not ex.tiles:
            raise IllegalMoveError("name the tiles to exchange")
        if len(s.bag) < r.exchange_min_bag:
            raise IllegalMoveError(
                f"cannot exchange: the bag has {len(s.bag)} tiles and an exchange needs at least {r.exchange_min_bag}"
            )
        if r.max_exchanges_per_player is not None and s.exchanges[who] >= r.max_exchanges_per_player:
            raise IllegalMoveError(f"no exchanges left: the rules allow {r.max_exchanges_per_player} per player")
        if not self._same_letter_allows_exchange(who):
            raise IllegalMoveError(
                f"cannot exchange: the rules allow an exchange only with {r.exchange_min_same_letter} or more "
                f"tiles of one letter on the rack"
            )
        if len(ex.tiles) > len(s.bag):
            raise IllegalMoveError(f"cannot exchange {len(ex.tiles)} tiles: the bag has only {len(s.bag)}")
        rack = list(s.racks[who])
        missing = _take(rack, ex.tiles)
        if missing:
            raise IllegalMoveError(
                f"tiles {self.tiles.format(self.tiles.rack_sort(missing))} are not on your rack "
                f"({self.tiles.format(self.rack(who))})"
            )
        self._settle_pending()
        rack_before = self.rack(who)
        s.racks[who] = rack
        self._draw(who, len(ex.tiles))
        s.bag.extend(self.tiles.rack_sort(ex.tiles))  # the order named must not change the bag
        self._rng.shuffle(s.bag)
        s.exchanges[who] += 1
        ev = self._add(who, "exchange", 0, move=Exchange(tuple(ex.tiles)), rack=rack_before, elapsed=spent)
        # an exchange that is not a scoreless turn (Polish, team rules) breaks the run
        self._count_turn(scoreless=r.exchange_is_scoreless)
        return ev

    def _same_letter_allows_exchange(self, who: int) -> bool:
        need = self.rules.exchange_min_same_letter
        rack = self._s.racks[who]
        return need is None or any(rack.count(t) >= need for t in set(rack) if t)

    def can_exchange(self, player: int | None = None) -> bool:
        """Whether ``player`` (default: the player on turn) may exchange now: the bag
        holds enough tiles, they have exchanges left and their rack allows one.

        >>> g = Game(["Ann", "Bob"], Rules(exchange_min_same_letter=3), seed=0, lexicon=None)
        >>> g.rack_text(), g.can_exchange()
        ('ABEEILP', False)
        """
        s = self._s
        who = s.turn if player is None else player
        limit = self.rules.max_exchanges_per_player
        return (
            not s.over
            and len(s.bag) >= self.rules.exchange_min_bag
            and (limit is None or s.exchanges[who] < limit)
            and self._same_letter_allows_exchange(who)
        )

    def _pass(self, who: int, spent: float | None) -> Event:
        self._settle_pending()
        ev = self._add(who, "pass", 0, move=Pass(), rack=self.rack(who), elapsed=spent)
        self._count_turn(scoreless=True, is_pass=True)
        return ev

    def _challenge(self, ch: Challenge, player: int | None) -> Event | None:
        s = self._s
        p = s.pending
        if self.rules.challenge_rule == "void":
            raise GameStateError("there are no challenges under these rules: words are checked when played")
        if p is None:
            raise GameStateError("there is no play to challenge")
        if p.challenged:
            raise GameStateError("that play has already been challenged")
        challenger = s.turn if player is None else player
        if challenger == p.player:
            raise GameStateError("you cannot challenge your own play")
        if self.rules.teams and challenger % 2 == p.player % 2:
            raise GameStateError("you cannot challenge your own team's play")
        valid = ch.ruling if ch.ruling is not None else p.valid
        if valid is None:
            raise GameStateError("no lexicon to judge the challenge: give a ruling")
        p.challenged = True
        if not valid:
            return self._withdraw(p)
        ev: Event | None = None
        bonus = ch.bonus if ch.bonus is not None else self.rules.challenge_bonus
        if bonus:
            ev = self._add(p.player, "challenge-bonus", bonus, rack=self.rack(p.player))
        if self.rules.challenger_penalty:
            ev = self._add(challenger, "challenge-penalty", -self.rules.challenger_penalty, rack=self.rack(challenger))
        if p.ends_game:
            self._end_after(p)
            return ev
        if self.rules.failed_challenge_loses_turn:
            if challenger == s.turn:
                ev = self._add(challenger, "lost-turn", 0, rack=self.rack(challenger))
                self._count_turn(scoreless=True)
                self._settle_pending()
                self._after_turn(challenger)
            else:
                s.skip_next.add(challenger)
        return ev

    def _withdraw(self, p: _Pending) -> Event:
        """A successful challenge: the play comes off, its tiles go back on the rack and
        the tiles drawn after it go back into the bag, which is shuffled: the player who
        saw them must not know who draws them next."""
        s = self._s
        s.board = s.board.remove([(r, c) for r, c, _ in p.move.new_tiles()])
        s.bag.extend(p.drawn)
        self._rng.shuffle(s.bag)
        s.racks[p.player] = list(p.rack_before)
        ev = self._add(
            p.player, "withdrawn", -p.score, move=p.move, rack=p.rack_before, words=p.words, invalid=p.invalid
        )
        s.scoreless_run = p.scoreless_before
        self._count_turn(scoreless=True)
        s.pending = None
        self._check_scoreless()
        return ev

    def _accept(self, player: int | None) -> Event | None:
        s = self._s
        p = s.pending
        if p is None:
            raise GameStateError("there is no play to accept")
        who = s.turn if player is None else player
        if who == p.player:
            raise GameStateError("you cannot accept your own play")
        self._settle_pending()
        if p.ends_game:
            self._end_after(p)
        return None

    def _after_turn(self, who: int) -> None:
        s = self._s
        if s.over:
            return
        c = self._clock_of(who)
        if self.rules.time_minutes is not None:
            ran_out = self._time_ran_out(who)
            s.time_used[c] -= self.rules.time_increment
            if ran_out:
                if self.rules.teams:
                    s.out_of_time.add(c)
                else:
                    s.lost_on_time = who
                    self._finish("time")
                    return
            if self.rules.match_minutes is not None and sum(s.time_used) >= self.rules.match_minutes * 60:
                self._finish("match-time")
                return
        if self._check_scoreless():
            return
        n = len(self.players)
        nxt = (who + 1) % n
        for _ in range(2 * n):
            if nxt in s.skip_next:
                s.skip_next.discard(nxt)
                self._add(nxt, "lost-turn", 0, rack=self.rack(nxt))
                self._count_turn(scoreless=True)
                if self._check_scoreless():
                    return
                nxt = (nxt + 1) % n
            elif self._clock_of(nxt) in s.out_of_time:
                if len(s.out_of_time) == self._clock_count:
                    self._finish("time")
                    return
                self._add(nxt, "out-of-time", 0, rack=self.rack(nxt))
                nxt = (nxt + 1) % n
            else:
                break
        s.turn = nxt

    def _count_turn(self, *, scoreless: bool, is_pass: bool = False) -> None:
        """Count a turn in the run of scoreless turns (only passes, with ``scoreless_passes_only``)."""
        counts = is_pass if self.rules.scoreless_passes_only else scoreless
        self._s.scoreless_run = self._s.scoreless_run + 1 if counts else 0

    def _scoreless_limit_reached(self) -> bool:
        lim = self.rules.scoreless_turn_limit
        return bool(lim) and self._s.scoreless_run >= lim

    def _check_scoreless(self) -> bool:
        p = self._s.pending
        if p is not None and p.ends_game:
            return False  # the play that reached the limit is open to a challenge first
        if self._scoreless_limit_reached() and not self._s.over:
            self._finish("scoreless")
            return True
        return False

    def _end_after(self, p: _Pending) -> None:
        """The game-ending play ``p`` stands: end the game for the reason it ends it."""
        s = self._s
        s.pending = None
        if not s.racks[p.player] and not s.bag:
            self._finish("out", p.player)
        elif self._reaches_target(p.player):
            self._finish("target")
        else:
            self._finish("scoreless")

    def _time_ran_out(self, who: int) -> bool:
        """True when ``who``'s clock is past the overtime limit (counting this turn's increment)."""
        if self.rules.time_minutes is None:
            return False
        limit = (self.rules.time_minutes + self.rules.max_overtime) * 60
        return self._s.time_used[self._clock_of(who)] - self.rules.time_increment > limit

    def _reaches_target(self, who: int) -> bool:
        t = self.rules.target_score
        if t is None:
            return False
        scores = self.team_scores() if self.rules.teams else self._s.scores
        side = who % 2 if self.rules.teams else who
        return scores[side] >= t

    def _finish(self, reason: EndReason, out_player: int | None = None) -> None:
        s = self._s
        s.over = True
        s.end_reason = reason
        s.pending = None
        s.scores_before_end = list(s.scores)
        n = len(self.players)
        if reason == "out" and out_player is not None:
            others = [p for p in range(n) if p != out_player]
            left = [t for p in others for t in s.racks[p]]
            if self.rules.end_rack_rule == "double" and n == 2:  # a two-player rule
                self._add(
                    out_player,
                    "end-rack-bonus",
                    2 * self.tiles.rack_value(left),
                    rack=(),
                    tiles=Rack(self.tiles.rack_sort(left), self.tiles),
                )
            else:
                self._add(
                    out_player,
                    "end-rack-bonus",
                    self.tiles.rack_value(left),
                    rack=(),
                    tiles=Rack(self.tiles.rack_sort(left), self.tiles),
                )
                for p in others:
                    self._subtract_rack(p)
        elif reason in ("scoreless", "match-time"):
            for i in range(n):
                p = (s.turn + i) % n
                self._subtract_rack(p)
        if self.rules.time_minutes is not None and self.rules.overtime_penalty:
            for c in range(self._clock_count):
                over = s.time_used[c] - self.rules.time_minutes * 60
                if over > 0:
                    minutes = math.ceil(over / 60)
                    p = c  # with teams the first player of the team carries the penalty
                    s.penalized.add(p)
                    self._add(p, "time-penalty", -minutes * self.rules.overtime_penalty, rack=self.rack(p))

    def _subtract_rack(self, p: int) -> None:
        rack = self.rack(p)
        if rack:
            self._add(p, "end-rack-penalty", -self.tiles.rack_value(rack), rack=rack, tiles=rack)

    def _add(
        self,
        player: int,
        kind: EventKind,
        points: int,
        *,
        move: Move | None = None,
        rack: tuple[int, ...] = (),
        words: tuple[str, ...] = (),
        tiles: tuple[int, ...] = (),
        elapsed: float | None = None,
        invalid: tuple[str, ...] = (),
    ) -> Event:
        s = self._s
        s.scores[player] += points
        ev = Event(player, kind, rack, points, s.scores[player], move, words, tiles, elapsed, invalid)
        s.history.append(ev)
        return ev

    def _draw(self, player: int, n: int) -> list[int]:
        s = self._s
        drawn = [s.bag.pop() for _ in range(min(n, len(s.bag)))]
        s.racks[player].extend(drawn)
        return drawn

    def _word_ok(self, w: Word) -> bool:
        lex = self._judge_lexicon()
        if lex is None:
            return True
        return word_is_valid(lex, w.codes, self.rules)

    def _judge(self, words: list[Word]) -> bool | None:
        if self._judge_lexicon() is None:
            return None
        return all(self._word_ok(w) for w in words)

    def _judge_lexicon(self) -> WordJudge | None:
        lex = self._lexicon_arg
        if isinstance(lex, str):
            from lexiko.lexicon import Lexicon

            lex = Lexicon.load(self.rules.lexicon, self.tiles)
            self._lexicon_arg = lex
        return lex

    @property
    def lexicon(self) -> WordJudge | None:
        """The word judge (loaded on first use when ``"auto"``)."""
        return self._judge_lexicon()

    def _repr_svg_(self) -> str:
        """The board with the last play highlighted, as SVG for Jupyter (see `lexiko.svg`)."""
        from lexiko import svg

        return svg.board(self.board, lastmove=svg.last_play(self))

    def _repr_html_(self) -> str:
        """The board, the scores, whose turn it is and the move list, as HTML for Jupyter."""
        from lexiko import svg

        return svg.game_html(self)

    def __repr__(self) -> str:
        scores = ", ".join(f"{n}={s}" for n, s in zip(self.players, self._s.scores, strict=True))
        state = f"over ({self._s.end_reason})" if self._s.over else f"{self.players[self._s.turn]} to play"
        return f"<Game {self.rules.name}: {scores}; {state}; bag {len(self._s.bag)}>"


def _take(rack: list[int], tiles: Sequence[int]) -> list[int]:
    """Remove ``tiles`` from ``rack`` in place; return the ones that were not there."""
    missing = []
    for t in tiles:
        t = 0 if t & BLANK else t
        try:
            rack.remove(t)
        except ValueError:
            missing.append(t)
    return missing
