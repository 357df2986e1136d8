"""Duplicate play: one board and one rack shared by every player (rules.md section 8).

Each round every player (people and bots, any number) submits a move for the shared
rack, privately, within ``rules.duplicate_seconds``. Each scores the points of their own
move. The *top* (the highest-scoring placement the move generator finds) is placed on
the board; the shared rack keeps the tiles the top did not use and is refilled from the
bag. A player's result is their total against the sum of the tops (percentage of top).

- **Ties for the top**: among placements of equal score, the one lexiko's move order
  lists first (row, then column, across before down, then tiles) is placed, so the same
  game is always played the same way.
- **The draw** (classical duplicate): up to round ``duplicate_rule_rounds`` the rack
  must hold at least ``duplicate_min_vowels`` vowels and ``duplicate_min_consonants``
  consonants (a blank counts as either), after it at least one of each; otherwise all
  its tiles go back to the bag and a new rack is drawn (as often as needed). The last
  tiles, fewer than a rack, must keep the rule too. When the tiles left (rack and bag)
  cannot make such a rack, the game is over, as in the published duplicate rules.
- **Solo bonus**: with ``duplicate_solo_bonus`` set, a player who alone scores the top
  (with at least two players) gets that bonus.
- A submission replaces the player's earlier one in the same round; a play with a word
  not in the lexicon is refused with the words named (as under ``void`` challenges).
  No submission, or a pass, scores 0.
- The game ends when the rack can make no placement, when the bag and rack are empty,
  or when the tiles left cannot make a rack that keeps the vowel rule; `end_reason` says
  which.

>>> from lexiko.lexicon import Lexicon
>>> lex = Lexicon.from_words(["QI", "QAT", "AT", "TA", "TI", "IT", "AI"])
>>> d = DuplicateGame(["Ann", "Bob"], seed=1, lexicon=lex)
>>> d.set_rack("AIQT")
>>> d.submit("Ann", "8G QI").score, d.submit("Bob", "8G AT").score
(22, 4)
>>> r = d.close_round()
>>> r.top.notation, r.top.score, d.totals, d.top_total
('8F QAT', 24, {'Ann': 22, 'Bob': 4}, 24)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from lexiko.board import Board
from lexiko.errors import GameStateError, IllegalMoveError, LexikoError, PhonyError, RecordError
from lexiko.legality import check_placement
from lexiko.move import Pass, Place, parse_move
from lexiko.rng import Generator, make_generator
from lexiko.rules import DUPLICATE, Rules
from lexiko.scoring import score_words, words_formed
from lexiko.tiles import LETTER_MASK, TileSet

if TYPE_CHECKING:
    from lexiko.game import Game
    from lexiko.lexicon import Lexicon
    from lexiko.move import Move

__all__ = [
    "DuplicateGame",
    "Submission",
    "RoundResult",
    "is_vowel",
    "dumps",
    "loads",
    "top_gcg",
    "master_sheet",
    "bot_move",
    "bot_view",
    "bot_choice",
    "autoplay",
]

#: Letters that count as vowels for the duplicate draw, by tile set (Y is a vowel in
#: French and Polish duplicate, not in English).
_JUDGED_KEPT = 4096
"""Verdicts a duplicate game keeps for its round (`DuplicateGame.judge`); past that
they are dropped and judged again (a bound on memory, whatever players send)."""

_VOWELS = {
    "default": frozenset("AEIOU"),
    "french": frozenset("AEIOUY"),
    "polish": frozenset("AĄEĘIOÓUY"),
    "german": frozenset("AEIOUÄÖÜ"),
    "norwegian": frozenset("AEIOUYÆØÅ"),
    "swedish": frozenset("AEIOUYÅÄÖ"),
    "danish": frozenset("AEIOUYÆØÅ"),
    "bulgarian": frozenset("АЕИОУЪЮЯ"),
    "ukrainian": frozenset("АЕЄИІЇОУЮЯ"),
    "russian": frozenset("АЕЁИОУЫЭЮЯ"),
    "greek": frozenset("ΑΕΗΙΟΥΩ"),
    "czech": frozenset("AÁEÉĚIÍOÓUÚŮYÝ"),
    "slovak": frozenset("AÁÄEÉIÍOÓÔUÚYÝ"),
    "hungarian": frozenset("AÁEÉIÍOÓÖŐUÚÜŰ"),
}


def is_vowel(tiles: TileSet, code: int) -> bool:
    """Whether a letter code is a vowel for the duplicate draw (False for the blank).

    >>> from lexiko.tiles import ENGLISH
    >>> [is_vowel(ENGLISH, ENGLISH.code(x)) for x in "AYZ"]
    [True, False, False]
    """
    if code == 0:
        return False
    vowels = _VOWELS.get(tiles.name, _VOWELS["default"])
    return tiles.face(code & LETTER_MASK).upper() in vowels


@dataclass(frozen=True)
class _Snapshot:
    """What `DuplicateGame.close_round` changes, as it was before."""

    board: Board
    bag: list[int]
    rack: list[int]
    rng: tuple[Any, ...]  # the generator's own state
    totals: dict[str, int]
    top_total: int
    subs: dict[str, Submission]
    redraws: int
    round_started: float


@dataclass(frozen=True)
class Submission:
    """A player's move for a round, as judged: its notation (``"-"`` for a pass) and score."""

    player: str
    move: Place | Pass
    notation: str
    score: int
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundResult:
    """One round of the master sheet: the shared rack, the top placed on the board, each
    player's submission (None: none) and score for the round, and the bonus given."""

    number: int
    rack: str
    top: Submission
    submissions: dict[str, Submission | None]
    scores: dict[str, int]
    bonus: dict[str, int] = field(default_factory=dict)
    redraws: int = 0


Judge = Callable[[Sequence[int]], bool]


class DuplicateGame:
    """A duplicate game. ``players`` are names (people or bots alike: bots submit through
    `submit` like anybody). ``lexicon`` judges words and finds the top.

    ``clock`` measures the time per move (``rules.duplicate_seconds``) from the start
    of each round.
    """

    def __init__(
        self,
        players: Sequence[str],
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        lexicon: Lexicon,
        clock: Callable[[], float] = time.monotonic,
        generator: Generator = "lexiko",
    ) -> None:
        self.rules = rules if rules is not None else DUPLICATE
        if self.rules.variant != "duplicate":
            self.rules = self.rules.replace(variant="duplicate", min_players=1, max_players=10_000)
        names = [str(p) for p in players]
        if not names:
            raise GameStateError("a duplicate game needs at least one player")
        if len(set(names)) != len(names):
            raise GameStateError("two players have the same name")
        self.players = names
        self.tiles: TileSet = self.rules.tile_set
        self.lexicon = lexicon
        self.seed = seed if seed is not None else random.randrange(2**63)
        self.generator: Generator = generator  # "python": a game stored before `lexiko.rng`
        self._rng = make_generator(generator, self.seed)
        self._clock = clock
        self.board = Board.empty(self.rules.board_layout, self.tiles)
        self._bag = list(self.tiles.bag())
        self._rng.shuffle(self._bag)
        self._rack: list[int] = []
        self.rounds: list[RoundResult] = []
        self.totals: dict[str, int] = {p: 0 for p in names}
        self.top_total = 0
        self._subs: dict[str, Submission] = {}
        # the verdicts of this board and rack (`judge`)
        self._judged: dict[Place | Pass | str, Submission] = {}
        self._judged_board: Board | None = None
        self._judged_rack: list[int] = []
        self._redraws = 0
        self.over = False
        #: Why the game is over, in words (None while it goes on).
        self.end_reason: str | None = None
        self._set_rack_by_hand = False
        self._refill()
        self._round_started = self._clock()
        self._before_close: _Snapshot | None = None

    # -- state -------------------------------------------------------------------

    @property
    def round_number(self) -> int:
        """The round being played (1 for the first)."""
        return len(self.rounds) + 1

    @property
    def rack(self) -> tuple[int, ...]:
        """The shared rack (rack order)."""
        return self.tiles.rack_sort(self._rack)

    @property
    def rack_text(self) -> str:
        return self.tiles.format(self.rack)

    @property
    def bag_count(self) -> int:
        return len(self._bag)

    @property
    def tiles_left(self) -> tuple[int, ...]:
        """The tiles not on the board, rack and bag together (rack order).

        >>> from lexiko.lexicon import Lexicon
        >>> d = DuplicateGame(["Ann"], seed=1, lexicon=Lexicon.from_words(["QI"]))
        >>> len(d.tiles_left), len(d.rack) + d.bag_count
        (100, 100)
        """
        return self.tiles.rack_sort(self._rack + self._bag)

    @property
    def redraws(self) -> int:
        """How many times the rack of this round was drawn again for the vowel rule."""
        return self._redraws

    def submitted(self) -> list[str]:
        """Players who have submitted a move this round."""
        return [p for p in self.players if p in self._subs]

    @property
    def submitted_count(self) -> int:
        """How many players have submitted a move this round (``len(submitted())``,
        without going through the players)."""
        return len(self._subs)

    def submission(self, player: str) -> Submission | None:
        """The player's move for this round so far (None: none yet)."""
        return self._subs.get(player)

    def percentage(self, player: str) -> float:
        """The player's total as a percentage of the sum of the tops (100 before any round)."""
        return 100.0 if self.top_total == 0 else 100.0 * self.totals[player] / self.top_total

    def time_left(self) -> float | None:
        """Seconds left to submit in this round (None without a limit)."""
        if self.rules.duplicate_seconds is None:
            return None
        return self.rules.duplicate_seconds - (self._clock() - self._round_started)

    def extend_round(self, seconds: float) -> None:
        """Give the round ``seconds`` more (the server that ran it was down that long)."""
        if not seconds >= 0:
            raise ValueError(f"the time to add must be zero or more, not {seconds}")
        self._round_started += seconds

    def standings(self) -> list[tuple[str, int, float]]:
        """(player, total, percentage of top), best first (ties in the players' order)."""
        order = sorted(range(len(self.players)), key=lambda i: -self.totals[self.players[i]])  # stable: seat order
        return [(p, self.totals[p], self.percentage(p)) for p in (self.players[i] for i in order)]

    # -- setting up --------------------------------------------------------------

    def set_rack(self, tiles: str | Sequence[int]) -> None:
        """Give the shared rack exactly these tiles (the old rack goes back to the bag
        first): for puzzles, tests and reading records."""
        codes = list(self.tiles.parse(tiles) if isinstance(tiles, str) else tiles)
        pool = self._bag + self._rack
        for c in codes:
            if c not in pool:
                raise GameStateError(f"no {self.tiles.format([c])} left for the rack {self.tiles.format(codes)}")
            pool.remove(c)
        self._bag = pool
        self._rng.shuffle(self._bag)
        self._rack = codes
        self.over = False
        self.end_reason = None
        self._before_close = None

    # -- a round -----------------------------------------------------------------

    def submit(self, player: str, move: Place | Pass | str, *, elapsed: float | None = None) -> Submission:
        """Judge and record ``player``'s move for this round (replacing an earlier one).
        Raises `LexikoError` naming the problem (nothing changes)."""
        if self.over:
            raise GameStateError("the game is over")
        if player not in self.totals:
            raise GameStateError(f"{player!r} is not a player of this game")
        spent = elapsed if elapsed is not None else self._clock() - self._round_started
        limit = self.rules.duplicate_seconds
        if limit is not None and spent > limit:
            raise GameStateError(f"too late: the round closed after {limit:g} seconds")
        sub = self.judge(move, player)
        self._subs[player] = sub
        self._before_close = None  # the new round has begun: the last close stays
        return sub

    def restore(self, player: str, previous: Submission | None) -> None:
        """Put back ``player``'s submission as it was before the last `submit`
        (None: no move): for a server that could not store the new one.

        >>> from lexiko.lexicon import Lexicon
        >>> d = DuplicateGame(["Ann"], seed=1, lexicon=Lexicon.from_words(["QI"]))
        >>> d.set_rack("IQ")
        >>> before = d.submission("Ann")
        >>> _ = d.submit("Ann", "8H QI")
        >>> d.restore("Ann", before)
        >>> d.submitted()
        []
        """
        if player not in self.totals:
            raise GameStateError(f"{player!r} is not a player of this game")
        if previous is None:
            self._subs.pop(player, None)
        else:
            self._subs[player] = previous

    def judge(self, move: Place | Pass | str, player: str = "") -> Submission:
        """The submission ``move`` would be for the shared rack (raises if it is not legal).

        A round's verdicts are kept until the board or the rack changes: at an event
        most players send one of a few moves, and a server judges each move once.

        >>> from lexiko.lexicon import Lexicon
        >>> d = DuplicateGame(["Ann", "Bob"], seed=1, lexicon=Lexicon.from_words(["QI"]))
        >>> d.set_rack("IQ")
        >>> d.judge("8H QI", "Ann").score
        22
        >>> d.judge("8H  QI", "Bob")  # known: not judged again
        Submission(player='Bob', move=Place.parse('8H QI'), notation='8H QI', score=22, words=('QI',))
        """
        if self._judged_board is not self.board or self._judged_rack != self._rack:
            self._judged.clear()
            self._judged_board, self._judged_rack = self.board, list(self._rack)
        key = move.strip() if isinstance(move, str) else move
        known = self._judged.get(key)
        if known is not None:
            return known if known.player == player else replace(known, player=player)
        sub = self._judge(move, player)
        if len(self._judged) >= _JUDGED_KEPT:
            self._judged.clear()
        self._judged[key] = sub
        return sub

    def _judge(self, move: Place | Pass | str, player: str) -> Submission:
        if isinstance(move, str):
            text = move.strip()
            if text in ("-", "pass", "PASS", "Pass"):
                move = Pass()
            else:
                parsed = parse_move(text, self.tiles, self.board)
                if not isinstance(parsed, Place):
                    raise IllegalMoveError("in duplicate a move is a placement or a pass")
                move = parsed
        if isinstance(move, Pass):
            return Submission(player, move, "-", 0)
        move = check_placement(self.board, move, self.rules)
        rack = list(self._rack)
        for t in move.rack_tiles():
            if t not in rack:
                missing = self.tiles.format([t])
                raise IllegalMoveError(f"tile {missing} is not on the rack ({self.rack_text})")
            rack.remove(t)
        words = words_formed(self.board, move)
        if not words:
            raise IllegalMoveError("the play forms no word of two or more letters")
        bad = [w.text for w in words if not self.lexicon.contains_codes([c & LETTER_MASK for c in w.codes])]
        if bad:
            raise PhonyError(bad)
        points = score_words(words, move.tile_count, self.rules)
        return Submission(player, move, move.notation(self.tiles, self.board), points, tuple(w.text for w in words))

    def find_top(self) -> Submission | None:
        """The top of this round: the highest-scoring placement (None when there is none)."""
        from lexiko.movegen import generate

        found = generate(
            self.board,
            self._rack,
            self.lexicon,
            self.rules.replace(variant="classic"),
            best=1,
            placements_only=True,
        )
        if not found:
            return None
        move = found[0].move
        assert isinstance(move, Place)
        return self.judge(move, "top")

    def close_round(self, top: Place | str | None = None) -> RoundResult:
        """End the round: score every submission, place the top (found by the move
        generator unless ``top`` is given, as a record does) and refill the rack.
        Players who submitted nothing score 0."""
        if self.over:
            raise GameStateError("the game is over")
        best = self.judge(top, "top") if top is not None else self.find_top()
        if best is None:
            self._end(f"the rack ({self.rack_text}) can make no placement")
            raise GameStateError("the rack can make no placement: the game is over")
        before = _Snapshot(
            self.board,
            list(self._bag),
            list(self._rack),
            self._rng.getstate(),
            dict(self.totals),
            self.top_total,
            self._subs,
            self._redraws,
            self._round_started,
        )
        scores = {p: (self._subs[p].score if p in self._subs else 0) for p in self.players}
        bonus: dict[str, int] = {}
        solo = self.rules.duplicate_solo_bonus
        if solo and len(self.players) >= 2:
            finders = [p for p, s in scores.items() if s == best.score]
            if len(finders) == 1:
                bonus[finders[0]] = solo
        for p in self.players:
            self.totals[p] += scores[p] + bonus.get(p, 0)
        self.top_total += best.score
        result = RoundResult(
            self.round_number,
            self.rack_text,
            best,
            {p: self._subs.get(p) for p in self.players},
            scores,
            bonus,
            self._redraws,
        )
        self.rounds.append(result)
        assert isinstance(best.move, Place)
        self.board = self.board.place(best.move)
        for t in best.move.rack_tiles():
            self._rack.remove(t)
        self._subs = {}
        self._refill()
        if not self.over and self.find_top() is None:
            self._end(f"the rack ({self.rack_text}) can make no placement")
        self._round_started = self._clock()
        self._before_close = before
        return result

    def reopen_round(self) -> None:
        """Take back the last `close_round`: the round is in progress again, with
        its rack, its submissions and the totals as they were (for a server that could
        not store the close). Only the last close can be taken back, once.

        >>> from lexiko.lexicon import Lexicon
        >>> d = DuplicateGame(["Ann"], seed=1, lexicon=Lexicon.from_words(["QI"]))
        >>> d.set_rack("IQ")
        >>> _ = d.submit("Ann", "8H QI")
        >>> _ = d.close_round()
        >>> d.reopen_round()
        >>> d.round_number, d.rack_text, d.submitted(), d.totals
        (1, 'IQ', ['Ann'], {'Ann': 0})
        """
        b = self._before_close
        if b is None:
            raise GameStateError("no round to reopen: only the last close can be taken back")
        self._before_close = None
        self.rounds.pop()
        self.board, self._bag, self._rack = b.board, b.bag, b.rack
        self._rng.setstate(b.rng)
        self.totals, self.top_total, self._subs = b.totals, b.top_total, b.subs
        self._redraws, self._round_started, self.over = b.redraws, b.round_started, False
        self.end_reason = None

    # -- the draw ----------------------------------------------------------------

    def _minimums(self) -> tuple[int, int]:
        r = self.rules
        if len(self.rounds) < r.duplicate_rule_rounds:
            return r.duplicate_min_vowels, r.duplicate_min_consonants
        return min(1, r.duplicate_min_vowels), min(1, r.duplicate_min_consonants)

    def _fits(self, rack: Iterable[int], vowels: int, consonants: int) -> bool:
        v = c = b = 0
        for t in rack:
            if t == 0:
                b += 1
            elif is_vowel(self.tiles, t):
                v += 1
            else:
                c += 1
        need = max(0, vowels - v) + max(0, consonants - c)
        return need <= b

    def _end(self, reason: str) -> None:
        self.over = True
        self.end_reason = reason

    def _refill(self) -> None:
        """Draw the rack back to full; redraw it whole while it breaks the vowel rule.
        When the tiles left (rack and bag) cannot make a rack that keeps the rule, the
        game is over (the rack is drawn as is, to show the tiles)."""
        self._redraws = 0
        size = self.rules.rack_size
        vowels, consonants = self._minimums()
        pool = self._rack + self._bag
        if not pool:
            self._end("the bag and the rack are empty")
            return
        if not self._fits(pool, vowels, consonants):
            # no part of the tiles left keeps the rule when all of them together do not
            left = self.tiles.format(self.tiles.rack_sort(pool))
            self._end(f"the tiles left ({left}) cannot make a rack with {_kinds(vowels, consonants)}")
            self._draw_up(size)
            return
        if len(pool) <= size:  # the last tiles, which keep the rule
            self._rack, self._bag = pool, []
            return
        self._draw_up(size)
        while not self._fits(self._rack, vowels, consonants):
            self._redraws += 1
            self._bag.extend(self._rack)
            self._rack = []
            self._rng.shuffle(self._bag)
            self._draw_up(size)

    def _draw_up(self, size: int) -> None:
        while len(self._rack) < size and self._bag:
            self._rack.append(self._bag.pop())


def _kinds(vowels: int, consonants: int) -> str:
    """The vowel rule's minimum in words.

    >>> _kinds(1, 1), _kinds(2, 2), _kinds(0, 1)
    ('a vowel and a consonant', '2 vowels and 2 consonants', 'a consonant')
    """
    parts = [
        ("a " if n == 1 else f"{n} ") + word + ("s" if n > 1 else "")
        for n, word in ((vowels, "vowel"), (consonants, "consonant"))
        if n
    ]
    return " and ".join(parts)


# -- records ---------------------------------------------------------------------------


def master_sheet(game: DuplicateGame) -> str:
    """The master score sheet as text: each round's rack, top and every player's move and
    score with running totals, then the standings with the percentage of the top."""
    lines = []
    running = {p: 0 for p in game.players}
    top_running = 0
    for r in game.rounds:
        top_running += r.top.score
        lines.append(f"round {r.number:>2}  {r.rack:<9} top {r.top.notation:<18} {r.top.score:>4} {top_running:>5}")
        for p in game.players:
            sub = r.submissions[p]
            running[p] += r.scores[p] + r.bonus.get(p, 0)
            what = "(none)" if sub is None else sub.notation
            extra = f" +{r.bonus[p]} solo" if p in r.bonus else ""
            lines.append(f"    {p:<20} {what:<18} {r.scores[p]:>4} {running[p]:>5}{extra}")
    lines.append("")
    lines.append(f"{'player':<24}{'total':>6}  {'% of top':>8}")
    for p, total, pct in game.standings():
        lines.append(f"{p:<24}{total:>6}  {pct:>7.1f}%")
    lines.append(f"{'top':<24}{game.top_total:>6}  {100.0:>7.1f}%")
    return "\n".join(lines)


FORMAT_LINE = "#lexiko-duplicate 1"


def dumps(game: DuplicateGame, *, seed: bool = True) -> str:
    """The game as a lexiko duplicate record (documented in docs/duplicate.md); with
    ``seed=False`` the ``#seed`` line is left out (the seed tells every rack to come, so
    a game still being played gives it to nobody)::

        #lexiko-duplicate 1
        #lexicon TWL06
        #tile-distribution english
        #seed 7
        #player Ann
        #player Bob
        >1 AEINRST? 8D RETAINS +66
        =Ann 8D RETAINS +66
        =Bob -
    """
    lines = [FORMAT_LINE, f"#lexicon {game.rules.lexicon}", f"#tile-distribution {game.tiles.name}"]
    if game.rules.board_layout.name != "standard15":
        lines.append(f"#board {game.rules.board_layout.name}")
    if game.rules.duplicate_solo_bonus:
        lines.append(f"#solo-bonus {game.rules.duplicate_solo_bonus}")
    if seed:
        lines.append(f"#seed {game.seed}")
    lines.extend(f"#player {p}" for p in game.players)
    for r in game.rounds:
        lines.append(f">{r.number} {r.rack} {r.top.notation} +{r.top.score}")
        for p in game.players:
            sub = r.submissions[p]
            if sub is not None:
                lines.append(f"={p}\t{sub.notation}" + (f" +{sub.score}" if sub.notation != "-" else ""))
    return "\n".join(lines) + "\n"


def loads(text: str, lexicon: Lexicon, rules: Rules | None = None) -> DuplicateGame:
    """Read a duplicate record and replay it, checking every score; raises
    `RecordError` naming the line that is wrong."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != FORMAT_LINE:
        raise RecordError(f"line 1: not a lexiko duplicate record (it starts with {FORMAT_LINE!r})")
    players: list[str] = []
    base = rules if rules is not None else DUPLICATE
    seed = 0
    body_start = len(lines)
    for i, raw in enumerate(lines[1:], 2):
        line = raw.strip()
        if not line.startswith("#"):
            body_start = i - 1
            break
        key, _, value = line[1:].partition(" ")
        if key == "player":
            players.append(value)
        elif key == "seed":
            seed = int(value) if value.isdigit() else 0
        elif key == "tile-distribution":
            base = base.replace(tiles=value)
        elif key == "board":
            base = base.replace(layout=value)
        elif key == "lexicon":
            base = base.replace(lexicon=value)
        elif key == "solo-bonus" and value.isdigit():
            base = base.replace(duplicate_solo_bonus=int(value))
    game = DuplicateGame(players, base.replace(duplicate_seconds=None), seed=seed, lexicon=lexicon)
    rnd: tuple[int, str, str, int] | None = None

    def finish(n: int) -> None:
        nonlocal rnd
        if rnd is None:
            return
        number, rack, top, score = rnd
        try:
            res = game.close_round(top)
        except LexikoError as e:
            raise RecordError(f"line {n}: round {number}: {e}") from None
        if res.top.score != score:
            raise RecordError(f"line {n}: round {number}: the top {top} scores {res.top.score}, not {score}")
        rnd = None

    for n, raw in enumerate(lines[body_start:], body_start + 1):
        line = raw.rstrip()
        if not line.strip():
            continue
        if line.startswith(">"):
            finish(n)
            head, _, score_text = line[1:].rpartition(" +")
            parts = head.split(" ", 2)
            if len(parts) != 3 or not score_text.isdigit() or not parts[0].isdigit():
                raise RecordError(f"line {n}: a round line is '>N RACK POSITION WORD +SCORE'")
            number, rack, top = int(parts[0]), parts[1], parts[2]
            try:
                game.set_rack(rack)
            except LexikoError as e:
                raise RecordError(f"line {n}: round {number}: {e}") from None
            rnd = (number, rack, top, int(score_text))
        elif line.startswith("="):
            if rnd is None:
                raise RecordError(f"line {n}: a player's move comes before any round line")
            name, _, rest = line[1:].partition("\t")
            move, _, score_text = rest.rpartition(" +") if " +" in rest else (rest, "", "0")
            try:
                sub = game.submit(name, move, elapsed=0)
            except LexikoError as e:
                raise RecordError(f"line {n}: {name}: {e}") from None
            if str(sub.score) != score_text:
                raise RecordError(f"line {n}: {name}'s {move} scores {sub.score}, not {score_text}")
        else:
            raise RecordError(f"line {n}: unexpected text {line[:40]!r}")
    finish(len(lines))
    return game


def top_gcg(game: DuplicateGame, name: str = "Top", *, seed: bool = True) -> str:
    """The tops of the game as GCG (one player, each turn the shared rack and the top);
    ``seed=False`` leaves the seed out of the description."""
    about = f" (seed {game.seed})" if seed else ""
    lines = [
        "#character-encoding UTF-8",
        f"#lexicon {game.rules.lexicon}",
        f"#tile-distribution {game.tiles.name}",
        f"#player1 {name.replace(' ', '_')} {name}",
        f"#description duplicate game, the top move of each round{about}",
    ]
    total = 0
    for r in game.rounds:
        total += r.top.score
        lines.append(f">{name.replace(' ', '_')}: {r.rack} {r.top.notation} +{r.top.score} {total}")
    return "\n".join(lines) + "\n"


# -- computer players ------------------------------------------------------------------


class _Chooser(Protocol):
    name: str

    def choose(self, game: Game) -> Move: ...


def bot_view(game: DuplicateGame) -> Game:
    """The round as a computer player sees it: an ordinary game on the shared board with
    the shared rack on turn (a copy: the duplicate game may go on while a bot thinks)."""
    from lexiko.game import Game

    classic = game.rules.replace(
        variant="classic", min_players=2, max_players=4, challenge_rule="void", duplicate_seconds=None
    )
    return Game.from_position(
        game.board,
        [game.rack, ()],
        [game.totals[game.players[0]], 0],
        rules=classic,
        seed=game.seed + game.round_number,
        lexicon=game.lexicon,
    )


def bot_choice(bot: _Chooser, seen: Game) -> Place | Pass:
    """A computer player's move on `bot_view`'s game (an exchange, which duplicate
    has not, counts as a pass)."""
    move = bot.choose(seen)
    return move if isinstance(move, Place) else Pass()


def bot_move(bot: _Chooser, game: DuplicateGame) -> Place | Pass:
    """The move a computer player (any `lexiko.bots.Player`) chooses for the
    shared rack: it sees the board, the rack and the bag as in an ordinary game (an
    exchange, which duplicate has not, counts as a pass)."""
    return bot_choice(bot, bot_view(game))


def autoplay(
    bots: Mapping[str, _Chooser],
    rules: Rules | None = None,
    *,
    seed: int | None = None,
    lexicon: Lexicon,
) -> DuplicateGame:
    """A whole duplicate game between computer players (name -> player)."""
    game = DuplicateGame(list(bots), rules, seed=seed, lexicon=lexicon)
    while not game.over:
        for name, bot in bots.items():
            move = bot_move(bot, game)
            try:
                game.submit(name, move, elapsed=0)
            except LexikoError:
                game.submit(name, Pass(), elapsed=0)
        game.close_round()
    return game
