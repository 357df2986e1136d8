"""Game review: every turn of a game weighed by simulation, with win chances, the
mistakes marked and an accuracy for each player; the endgame solved exactly.

`review_game` replays a game's history. For each move (play, exchange or pass) it
takes the player's position (the board, the rack the history records, the scores, the
tiles in the bag) and:

- with tiles in the bag (or more than two players), simulates the ``candidates``
  best moves by static equity, and the move played when it is not among them, on the
  same play-outs (`lexiko.bots.simulation.simulate`, ``iterations`` play-outs of
  ``plies`` turns each; with 1 to ``finish`` tiles in the bag every play-out goes on
  to the end of the game, where who goes out decides). Each move gets its simulated
  value (spread change plus the value of the tiles kept) and its win chance;
- with the bag empty in a two-player game, solves the endgame
  (`lexiko.bots.endgame.solve_position`, within ``endgame_time`` seconds a solve):
  the best move and the move played, each with the exact spread it gains to the end
  and a win chance of 1, 1/2 or 0 from the final spread.

The move played then loses ``value_lost`` (the best value minus its own, 0 or more)
and ``win_lost`` (the best win chance of the moves weighed minus its own, 0 or more),
and gets a verdict by ``win_lost`` (`VERDICTS`, thresholds in `THRESHOLDS`):
``best`` when it is the first of the list, else ``good`` below 3 points of win
chance lost, ``inaccuracy`` from 3, ``mistake`` from 7 and ``blunder`` from 15. A
move's accuracy is ``100 * exp(-win_lost / 0.15)`` (no loss: 100; 3 points: 82;
7 points: 63; 15 points: 37) and a player's accuracy is the mean over their moves.
A play withdrawn after a challenge is weighed as what it came to: a pass.

Play-outs are seeded by ``seed`` and the turn number, so a review is the same for the
same depth whatever the number of worker processes (``jobs`` or ``executor``). Work is
bounded by play-out counts, not by time, except for the endgame solves.

>>> from lexiko.game import Game
>>> from lexiko.lexicon import Lexicon
>>> lex = Lexicon.from_words(["QI", "QAT", "AT", "TA"])
>>> g = Game(["Ann", "Bob"], lexicon=lex, seed=2, first_player=0)
>>> g.set_rack(0, "QIATEEE")
>>> _ = g.play("8G QI")
>>> r = review_game(g, lex, ReviewDepth(candidates=3, iterations=8), leaves=False)
>>> r
GameReview(players=('Ann', 'Bob'), turns=1, accuracy=(100.0, None))
>>> r.turns[0]
ReviewTurn(1, 'Ann', 'AEEEIQT', played='8G QI', best='8G QI', win_lost=0.0, verdict='best')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal

from lexiko.analysis import _bag_count, _leave_function, _start_board, _unseen, same_move
from lexiko.board import Board
from lexiko.bots.endgame import game_lexicon, solve_position
from lexiko.bots.simulation import SimResult, simulate
from lexiko.bots.static import LeavesArg
from lexiko.errors import LexikoError
from lexiko.game import Event, Game, Position
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Move, Pass, Place
from lexiko.movegen import Candidate, LeaveValue, generate
from lexiko.progress import Progress
from lexiko.scoring import score as score_play
from lexiko.tiles import BLANK, TileSet

__all__ = [
    "ReviewDepth",
    "Line",
    "ReviewTurn",
    "PlayerSummary",
    "GameReview",
    "review_game",
    "verdict",
    "move_accuracy",
    "Verdict",
    "VERDICTS",
    "THRESHOLDS",
    "ACCURACY_SCALE",
    "DEFAULT_DEPTH",
]

Verdict = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
VERDICTS: tuple[Verdict, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The verdicts on a move played, best first."""

THRESHOLDS: tuple[tuple[Verdict, float], ...] = (("blunder", 0.15), ("mistake", 0.07), ("inaccuracy", 0.03))
"""Win chance lost (a fraction) from which a move is a blunder, a mistake, an inaccuracy."""

ACCURACY_SCALE = 0.15
"""A move's accuracy is ``100 * exp(-win_lost / ACCURACY_SCALE)``."""


@dataclass(frozen=True)
class ReviewDepth:
    """How hard a review looks: the ``candidates`` best moves by static equity are
    simulated (with the move played), ``iterations`` play-outs each of ``plies`` turns
    after the move; with 1 to ``finish`` tiles in the bag the play-outs go on to the end
    (0: never); each endgame solve gets ``endgame_time`` seconds (None: no limit);
    ``seed`` seeds the play-outs.

    >>> ReviewDepth()
    ReviewDepth(candidates=8, iterations=300, plies=2, finish=7, endgame_time=10.0, seed=0)
    """

    candidates: int = 8
    iterations: int = 300
    plies: int = 2
    finish: int = 7
    endgame_time: float | None = 10.0
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("candidates", "iterations", "plies"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise LexikoError(f"{name} must be a whole number of at least 1, not {value!r}")
        if not isinstance(self.finish, int) or self.finish < 0:
            raise LexikoError(f"finish must be a whole number of at least 0, not {self.finish!r}")
        if self.endgame_time is not None and not self.endgame_time > 0:
            raise LexikoError(f"endgame_time must be more than 0 seconds, not {self.endgame_time!r}")


DEFAULT_DEPTH = ReviewDepth()
"""The depth a review has unless told: 8 candidates, 300 play-outs of 2 turns each (to the
end with 1 to 7 tiles in the bag), 10 s an endgame solve."""


@dataclass(frozen=True)
class Line:
    """One move weighed in a turn: its notation, score, tiles kept (``leave``), static
    ``equity`` (score plus leave value), ``value`` (simulated: mean spread change plus
    the final leave value; solved: the exact spread it gains to the end of the game),
    ``win`` (the chance the player wins after it, 0 to 1) and the play-outs it had
    (``iterations``; 0 for a solved move).

    >>> Line("8G QI", 22, "AEEET", 22.0, 23.5, 0.61, 300)
    Line(move='8G QI', score=22, leave='AEEET', equity=22.0, value=23.5, win=0.61, iterations=300)
    """

    move: str
    score: int
    leave: str
    equity: float
    value: float
    win: float
    iterations: int = 0


@dataclass(frozen=True)
class ReviewTurn:
    """One move of the game weighed: ``turn`` counts moves from 1; ``scores`` and
    ``bag`` are those before it; ``top`` the moves weighed, best first (by value);
    ``played`` the move played weighed the same way; ``rank`` its place in ``top`` (1:
    the best); ``value_lost`` and ``win_lost`` what it gave away against the best (0
    or more); ``verdict`` and ``accuracy`` as the module says; ``method``
    ``"simulation"`` or ``"endgame"`` (``exact``: every solve finished); ``withdrawn``:
    a play challenged off, weighed as the pass it came to; ``valid``: False for a move
    the lexicon does not allow (a phony, withdrawn or not).

    >>> t = ReviewTurn(3, 0, "Ann", "AEIQTTU", (10, 0), 80, Line("8G QI", 22, "AETTU", 22.0, 20.0, 0.5),
    ...     (Line("8D QUIET", 28, "AT", 30.5, 31.0, 0.6),), None, 11.0, 0.1, "mistake", 51.3)
    >>> t
    ReviewTurn(3, 'Ann', 'AEIQTTU', played='8G QI', best='8D QUIET', win_lost=0.1, verdict='mistake')
    >>> t.best.score
    28
    """

    turn: int
    player: int
    name: str
    rack: str
    scores: tuple[int, ...]
    bag: int
    played: Line
    top: tuple[Line, ...]
    rank: int | None
    value_lost: float
    win_lost: float
    verdict: Verdict
    accuracy: float
    method: Literal["simulation", "endgame"] = "simulation"
    exact: bool = False
    withdrawn: bool = False
    valid: bool = True

    @property
    def best(self) -> Line:
        """The first of the moves weighed."""
        return self.top[0]

    def __repr__(self) -> str:
        return (
            f"ReviewTurn({self.turn}, {self.name!r}, {self.rack!r}, played={self.played.move!r}, "
            f"best={self.best.move!r}, win_lost={self.win_lost!r}, verdict={self.verdict!r})"
        )


@dataclass(frozen=True)
class PlayerSummary:
    """A player's moves in a review: how many, how many of each verdict, the value
    lost in all and the accuracy (the mean of their moves'; None without a move).

    >>> PlayerSummary("Ann", 12, 5, 4, 2, 1, 0, 31.5, 78.25)  # doctest: +NORMALIZE_WHITESPACE
    PlayerSummary(name='Ann', moves=12, best=5, good=4, inaccuracies=2, mistakes=1, blunders=0,
                  value_lost=31.5, accuracy=78.25)
    """

    name: str
    moves: int
    best: int
    good: int
    inaccuracies: int
    mistakes: int
    blunders: int
    value_lost: float
    accuracy: float | None


@dataclass(frozen=True)
class GameReview:
    """A reviewed game: its players, each move weighed (`ReviewTurn`), a summary per
    player (`PlayerSummary`) and the depth it was weighed at."""

    players: tuple[str, ...]
    turns: tuple[ReviewTurn, ...]
    summaries: tuple[PlayerSummary, ...]
    depth: ReviewDepth

    def __repr__(self) -> str:
        accuracy = tuple(s.accuracy for s in self.summaries)
        return f"GameReview(players={self.players!r}, turns={len(self.turns)}, accuracy={accuracy!r})"

    def mistakes(self, player: int | None = None) -> tuple[ReviewTurn, ...]:
        """The moves marked inaccuracy, mistake or blunder (of one player, or all).

        >>> GameReview(("A", "B"), (), (), DEFAULT_DEPTH).mistakes()
        ()
        """
        bad = ("inaccuracy", "mistake", "blunder")
        return tuple(t for t in self.turns if t.verdict in bad and (player is None or t.player == player))


# -- the measures ------------------------------------------------------------------------


def verdict(win_lost: float, rank: int | None) -> Verdict:
    """The verdict on a move that lost ``win_lost`` of win chance, ``rank`` its place.

    >>> verdict(0.0, 1), verdict(0.01, 2), verdict(0.03, 2), verdict(0.08, None), verdict(0.2, 5)
    ('best', 'good', 'inaccuracy', 'mistake', 'blunder')
    """
    for name, threshold in THRESHOLDS:
        if win_lost >= threshold - 1e-9:
            return name
    return "best" if rank == 1 else "good"


def move_accuracy(win_lost: float) -> float:
    """A move's accuracy in percent (rounded to 0.1) from the win chance it lost.

    >>> move_accuracy(0.0), move_accuracy(0.03), move_accuracy(0.07), move_accuracy(0.15)
    (100.0, 81.9, 62.7, 36.8)
    """
    return round(100.0 * math.exp(-max(0.0, win_lost) / ACCURACY_SCALE), 1)


def _summaries(players: Sequence[str], turns: Sequence[ReviewTurn]) -> tuple[PlayerSummary, ...]:
    out = []
    for p, name in enumerate(players):
        mine = [t for t in turns if t.player == p]
        count = {v: sum(1 for t in mine if t.verdict == v) for v in VERDICTS}
        out.append(
            PlayerSummary(
                name=name,
                moves=len(mine),
                best=count["best"],
                good=count["good"],
                inaccuracies=count["inaccuracy"],
                mistakes=count["mistake"],
                blunders=count["blunder"],
                value_lost=round(sum(t.value_lost for t in mine), 2),
                accuracy=round(sum(t.accuracy for t in mine) / len(mine), 1) if mine else None,
            )
        )
    return tuple(out)


# -- one turn --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Turn:
    """What a turn's weighing needs: the position before it and the move played."""

    number: int
    event: Event
    position: Position
    move: Move  # as it came to: a withdrawn play is a pass
    withdrawn: bool
    seed: int


def _take(rack: Sequence[int], tiles: Sequence[int]) -> tuple[int, ...]:
    kept = list(rack)
    for t in tiles:
        t = BLANK if t & BLANK else t
        if t in kept:
            kept.remove(t)
    return tuple(kept)


def _used(move: Move) -> tuple[int, ...]:
    if isinstance(move, Place):
        return tuple(move.rack_tiles())
    if isinstance(move, Exchange):
        return tuple(move.tiles)
    return ()


def _played_candidate(
    turn: _Turn, lexicon: Lexicon, lv: LeaveValue | None, top: Sequence[Candidate]
) -> tuple[Candidate, bool]:
    """The move played as a candidate, and whether the generator lists it: from its list
    when it is there, else scored here (a phony that stood)."""
    pos = turn.position
    for c in top:
        if same_move(c.move, turn.move, pos.board):
            return c, True
    every = generate(
        pos.board, pos.rack, lexicon, pos.rules, bag_count=pos.bag_count, leaves=lv, down_openings=pos.board.is_empty
    )
    for c in every:
        if same_move(c.move, turn.move, pos.board):
            return c, True
    move = turn.move
    leave = pos.board.tiles.rack_sort(_take(pos.rack, _used(move)))
    points = 0
    if isinstance(move, Place):
        try:
            points = score_play(pos.board, move.normalized(pos.board), pos.rules)
        except (LexikoError, ValueError, IndexError):
            points = turn.event.score
    return Candidate(move, points, points + (float(lv(leave)) if lv is not None else 0.0), leave), False


def _line(c: Candidate, board: Board, tiles: TileSet, value: float, win: float, iterations: int) -> Line:
    return Line(
        move=c.move.notation(tiles, board),
        score=c.score,
        leave=tiles.format(c.leave),
        equity=round(c.equity, 3),
        value=round(value, 3),
        win=round(win, 4),
        iterations=iterations,
    )


def _by_simulation(
    turn: _Turn,
    lexicon: Lexicon,
    leaves: LeavesArg,
    depth: ReviewDepth,
    executor: Executor | None,
) -> tuple[list[Line], Line, int | None, bool]:
    pos = turn.position
    tiles = pos.board.tiles
    lv = _leave_function(pos, leaves)
    top = generate(pos.board, pos.rack, lexicon, pos.rules, bag_count=pos.bag_count, best=depth.candidates, leaves=lv)
    played, valid = _played_candidate(turn, lexicon, lv, top)
    cands = list(top)
    if not any(c.move == played.move for c in cands):
        cands.append(played)
    to_the_end = 1 <= pos.bag_count <= depth.finish and len(pos.scores) == 2
    results: list[SimResult] = simulate(
        pos,
        lexicon,
        leaves=leaves,
        candidates=cands,
        iterations=depth.iterations,
        plies=64 if to_the_end else depth.plies,
        seed=turn.seed,
        executor=executor,
    )
    lines = [_line(r.candidate, pos.board, tiles, r.mean, r.win_rate, r.iterations) for r in results]
    k = next(i for i, r in enumerate(results) if r.candidate.move == played.move)
    return lines, lines[k], k + 1, valid


def _win(spread: int) -> float:
    return 1.0 if spread > 0 else 0.0 if spread < 0 else 0.5


def _endgame_line(c: Candidate, board: Board, tiles: TileSet, value: int, spread: int) -> Line:
    return _line(c, board, tiles, float(value), _win(spread), 0)


def _by_endgame(
    turn: _Turn, lexicon: Lexicon, leaves: LeavesArg, depth: ReviewDepth
) -> tuple[list[Line], Line, int | None, bool, bool]:
    """The best move and the move played, each solved to the end of the game; whether
    both solves finished, and whether the move played is one the lexicon allows."""
    pos = turn.position
    board, rules, tiles = pos.board, pos.rules, pos.board.tiles
    p = pos.player
    mine, theirs = pos.scores[p], pos.scores[1 - p]
    opp = tuple(pos.unseen)
    lv = _leave_function(pos, leaves)
    best = solve_position(
        board,
        (pos.rack, opp),
        lexicon,
        rules,
        scores=(mine, theirs),
        scoreless_turns=pos.scoreless_turns,
        time_limit=depth.endgame_time,
    )
    every = generate(board, pos.rack, lexicon, rules, bag_count=0, leaves=lv)
    best_c = next((c for c in every if same_move(c.move, best.best_move, board)), None)
    if best_c is None:  # the solver's pass
        best_c = Candidate(Pass(), 0, float(lv(pos.rack)) if lv is not None else 0.0, tuple(pos.rack))
    best_line = _endgame_line(best_c, board, tiles, best.value, best.spread)
    played, valid = _played_candidate(turn, lexicon, lv, every)
    if same_move(played.move, best_c.move, board):
        return [best_line], best_line, 1, best.complete, valid
    value, complete = _after(played, pos, lexicon, depth)
    played_line = _endgame_line(played, board, tiles, value, mine - theirs + value)
    lines = sorted([best_line, played_line], key=lambda ln: -ln.value)
    return lines, played_line, lines.index(played_line) + 1, best.complete and complete, valid


def _after(played: Candidate, pos: Position, lexicon: Lexicon, depth: ReviewDepth) -> tuple[int, bool]:
    """The spread the move played gains to the end of the game, the opponent then
    playing best: (value, exact)."""
    rules, tiles = pos.rules, pos.board.tiles
    limit = rules.scoreless_turn_limit if rules.scoreless_turn_limit > 0 else 2
    rest = tiles.rack_sort(_take(pos.rack, _used(played.move)))
    opp = tuple(pos.unseen)
    run = 0 if played.score > 0 else pos.scoreless_turns + 1
    if isinstance(played.move, Place) and not rest:
        return played.score + 2 * tiles.rack_value(opp), True
    if run >= limit:
        penalty = tiles.rack_value(opp) - tiles.rack_value(rest) if rules.scoreless_turn_limit > 0 else 0
        return played.score + penalty, True
    board = pos.board.place(played.move) if isinstance(played.move, Place) else pos.board
    p = pos.player
    them = solve_position(
        board,
        (opp, rest),
        lexicon,
        rules,
        scores=(pos.scores[1 - p], pos.scores[p] + played.score),
        scoreless_turns=run,
        time_limit=depth.endgame_time,
    )
    return played.score - them.value, them.complete


# -- the game -------------------------------------------------------------------------


def _turns(game: Game, depth: ReviewDepth) -> list[_Turn]:
    """The positions before each move of the history whose rack it records."""
    tiles, rules = game.tiles, game.rules
    n = len(game.players)
    events = list(game.history)
    withdrawn: set[int] = set()
    for i, ev in enumerate(events):
        if ev.kind == "withdrawn" and isinstance(ev.move, Place):
            for j in range(i - 1, -1, -1):
                if events[j].kind == "play" and events[j].player == ev.player and events[j].move == ev.move:
                    withdrawn.add(j)
                    break
    board = _start_board(game)
    scores = list(game.scores)  # before the first event (a game set up from a position starts with some)
    for p in range(n):
        first = next((ev for ev in events if ev.player == p), None)
        if first is not None:
            scores[p] = first.total - first.score
    run = 0
    run_before = 0
    number = 0
    out: list[_Turn] = []
    for i, ev in enumerate(events):
        if ev.kind in ("play", "exchange", "pass") and ev.move is not None:
            number += 1
            if ev.rack:
                pos = Position(
                    board=board,
                    rack=tuple(ev.rack),
                    scores=tuple(scores),
                    player=ev.player,
                    unseen=_unseen(board, ev.rack, tiles),
                    bag_count=_bag_count(board, rules, n),
                    scoreless_turns=run,
                    rules=rules,
                )
                move = Pass() if i in withdrawn else ev.move
                out.append(_Turn(number, ev, pos, move, i in withdrawn, depth.seed * 1_000_003 + number))
            run_before = run
            scoreless = ev.score == 0 and (ev.kind != "exchange" or rules.exchange_is_scoreless)
            run = run + 1 if scoreless else 0
            if ev.kind == "play" and isinstance(ev.move, Place):
                board = board.place(ev.move)
        elif ev.kind == "withdrawn" and isinstance(ev.move, Place):
            board = board.remove([(r, c) for r, c, _ in ev.move.new_tiles()])
            run = run_before + 1
        scores[ev.player] = ev.total
    return out


def _solved(turn: _Turn) -> bool:
    """Whether the turn's position is an endgame to solve (the bag empty, two players)."""
    return turn.position.bag_count == 0 and len(turn.position.scores) == 2


def _weigh(
    turn: _Turn, game: Game, lexicon: Lexicon, leaves: LeavesArg, depth: ReviewDepth, executor: Executor | None
) -> ReviewTurn:
    pos = turn.position
    tiles = pos.board.tiles
    method: Literal["simulation", "endgame"] = "simulation"
    exact = False
    if _solved(turn):
        method = "endgame"
        lines, played, rank, exact, valid = _by_endgame(turn, lexicon, leaves, depth)
    else:
        lines, played, rank, valid = _by_simulation(turn, lexicon, leaves, depth, executor)
    if turn.withdrawn:
        notation = turn.event.move.notation(tiles, pos.board) if turn.event.move is not None else "-"
        played = Line(
            f"{notation} (withdrawn)", 0, played.leave, played.equity, played.value, played.win, played.iterations
        )
        lines = [played if rank is not None and k == rank - 1 else ln for k, ln in enumerate(lines)]
    value_lost = round(max(0.0, lines[0].value - played.value), 3)
    win_lost = round(max(0.0, max(ln.win for ln in lines) - played.win), 4)
    return ReviewTurn(
        turn=turn.number,
        player=pos.player,
        name=game.players[pos.player],
        rack=tiles.format(pos.rack),
        scores=pos.scores,
        bag=pos.bag_count,
        played=played,
        top=tuple(lines),
        rank=rank,
        value_lost=value_lost,
        win_lost=win_lost,
        verdict=verdict(win_lost, rank),
        accuracy=move_accuracy(win_lost),
        method=method,
        exact=exact,
        withdrawn=turn.withdrawn,
        valid=valid and not turn.withdrawn,
    )


def review_game(
    game: Game,
    lexicon: Lexicon | None = None,
    depth: ReviewDepth = DEFAULT_DEPTH,
    *,
    leaves: LeavesArg = None,
    jobs: int = 1,
    executor: Executor | None = None,
    progress: Progress | None = None,
) -> GameReview:
    """Review every move of ``game`` (finished or as far as it went) at ``depth`` (see
    the module docstring). ``lexicon``: the game's own unless given; ``leaves``: None
    the package's table, False the score alone, or a table; ``jobs`` worker processes
    (a pool for this review) or an ``executor``; ``progress("turns", done, total)``
    after each move weighed.

    >>> from lexiko.game import Game
    >>> lex = Lexicon.from_words(["QI", "QAT", "AT", "TA"])
    >>> g = Game(["Ann", "Bob"], lexicon=lex, seed=2, first_player=0)
    >>> g.set_rack(0, "QIATEEE")
    >>> _ = g.play("8G QI")
    >>> seen = []
    >>> r = review_game(g, lex, ReviewDepth(candidates=3, iterations=8), leaves=False,
    ...                 progress=lambda phase, done, total: seen.append((phase, done, total)))
    >>> [(ln.move, ln.score, ln.iterations) for ln in r.turns[0].top]
    [('8G QI', 22, 8), ('8H QAT', 24, 8), ('8G QAT', 24, 8), ('8F QAT', 24, 8)]
    >>> seen
    [('turns', 0, 1), ('turns', 1, 1)]
    """
    lex = game_lexicon(game, lexicon)
    turns = _turns(game, depth)
    if progress is not None:
        progress("turns", 0, len(turns))
    parallel = executor is not None or jobs > 1
    own: ProcessPoolExecutor | None = None
    if executor is None and jobs > 1:
        own = executor = ProcessPoolExecutor(jobs)
    # endgame solves run in threads (the kernel's search lets go of the interpreter)
    # beside the simulations, whose play-outs run on the executor
    solver = ThreadPoolExecutor(max(2, jobs), thread_name_prefix="lexiko-review") if parallel else None
    done: dict[int, ReviewTurn] = {}
    try:
        solves: dict[int, Future[ReviewTurn]] = {}
        if solver is not None:
            for k, turn in enumerate(turns):
                if _solved(turn):
                    solves[k] = solver.submit(_weigh, turn, game, lex, leaves, depth, None)
        for k, turn in enumerate(turns):
            if k in solves:
                continue
            done[k] = _weigh(turn, game, lex, leaves, depth, executor)
            if progress is not None:
                progress("turns", len(done), len(turns))
        for k, future in solves.items():
            done[k] = future.result()
            if progress is not None:
                progress("turns", len(done), len(turns))
    finally:
        if solver is not None:
            solver.shutdown(cancel_futures=True)
        if own is not None:
            own.shutdown(cancel_futures=True)
    out = [done[k] for k in range(len(turns))]
    return GameReview(tuple(game.players), tuple(out), _summaries(game.players, out), depth)
