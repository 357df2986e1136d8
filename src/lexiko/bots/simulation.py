"""The simulation player: Monte Carlo look-ahead over the best static candidates.

For a position, the ``candidates`` moves of highest static equity (score plus leave
value, `lexiko.movegen.generate`) are each played out ``iterations`` times:
every iteration deals the opponents random racks from the tiles the player cannot
see (the rest is the bag, in a random order), makes the candidate, then plays
``plies`` more turns with the static policy (best equity; exchanges and passes
allowed). All candidates of one iteration see the same racks and draws (common random
numbers), so their differences are measured with little noise. A play-out is worth
the player's spread change (their points minus the mean of the opponents', with the
end-of-game rack adjustment if the game ends) plus the value of the tiles the player
kept on their last move, less the mean value of those the opponents kept on theirs
(each while the bag has tiles). The candidate with the best mean is played (or, with
``rank="win"``, the best win rate).

The win rate of a candidate is a rough estimate: in each play-out, a win (1), draw
(1/2) or loss (0) if the game ended, else a logistic function of the spread at the
end of the play-out, whose width grows with the tiles still to be played.

Iterations are split into chunks handed to a `concurrent.futures.Executor`
(a process pool of ``jobs`` workers when ``jobs > 1``, each loading the lexicon once
in its initializer; any executor given, e.g. a Ray or Dask one). Every iteration has
its own random generator, derived from the seed and its number, so a seeded search
gives the same result whatever the number of workers.

>>> from lexiko.game import Game
>>> from lexiko.lexicon import Lexicon
>>> lex = Lexicon.from_words(["AT", "TA", "CAT", "ACT", "TACT", "ACTS", "CATS", "SCAT"])
>>> g = Game(["A", "B"], lexicon=lex, seed=3, first_player=0)
>>> g.set_rack(0, "ACTTSEE")
>>> bot = SimulationBot(lex, leaves=False, candidates=3, iterations=4, seed=1)
>>> res = bot.evaluate(g)
>>> [(r.candidate.notation(), r.candidate.score, r.iterations) for r in res]
[('8E SCAT', 12, 4), ('8E CATS', 12, 4), ('8E ACTS', 12, 4)]
>>> bot.choose(g) in [r.candidate.move for r in res]
True
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import random
import time
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from statistics import fmean, stdev
from typing import Literal

from lexiko.board import Board
from lexiko.bots.base import last_play_is_phony
from lexiko.bots.inference import Inference, infer
from lexiko.bots.playout import simulate_iterations, unsupported
from lexiko.bots.static import LeavesArg, _fast, endgame_leaves, resolve_leaves
from lexiko.bots.time_manager import QUICK_SECONDS, Clock, budget
from lexiko.errors import LexikoError
from lexiko.game import Game, Position
from lexiko.leaves import LeaveTable
from lexiko.lexicon import BUILTIN, Lexicon
from lexiko.move import Exchange, Move, Pass, Place
from lexiko.movegen import Candidate, LeaveValue, generate
from lexiko.rng import Rng
from lexiko.rules import Rules
from lexiko.tiles import TileSet, tile_set

__all__ = [
    "SimResult",
    "SimulationBot",
    "simulate",
    "Progress",
    "Rank",
    "RANKS",
]

Progress = Callable[[int, int], None]
"""``progress(done, total)``: iterations done so far and the number planned."""

Rank = Literal["value", "win"]
"""How simulated candidates are ranked: by mean value (spread and leave), or by win rate
with the mean value breaking ties."""
RANKS: tuple[Rank, ...] = ("value", "win")


def _rank(rank: str) -> Rank:
    """``rank`` checked (a `LexikoError` naming the choices)."""
    if rank not in RANKS:
        raise LexikoError(f"rank {rank!r}: candidates are ranked by 'value' or 'win'")
    return "win" if rank == "win" else "value"


# -- results -------------------------------------------------------------------------


@dataclass(frozen=True)
class SimResult:
    """A candidate and what its play-outs gave: the mean and standard deviation of
    their value (spread change plus final leave value), the estimated win rate and
    the number of play-outs.

    >>> SimResult(Candidate(Pass(), 0, 0.0, ()), 1.5, 2.0, 0.5, 4).stderr
    1.0
    """

    candidate: Candidate
    mean: float
    stdev: float
    win_rate: float
    iterations: int

    @property
    def stderr(self) -> float:
        """Standard error of the mean."""
        return self.stdev / math.sqrt(self.iterations) if self.iterations else 0.0


# -- the work of one chunk of iterations (runs in a worker) --------------------------

_LEXICONS: dict[tuple[str, str, int, int], Lexicon] = {}
_LEAVES: dict[tuple[str, int], LeaveValue | None] = {}
_TOKENS = itertools.count(1)


def _leaves_key(leaves: LeavesArg) -> tuple[str, int]:
    """Registry key of a leave argument: the default table and score-only are shared,
    a table given gets a key of its own."""
    if leaves is None:
        return ("default", 0)
    if leaves is False:
        return ("none", 0)
    return ("token", next(_TOKENS) * 100_003 + os.getpid() % 100_003)


def _lexicon_key(lex: Lexicon) -> tuple[str, str, int, int]:
    return (lex.name, lex.tiles.name, len(lex.kwg), zlib.crc32(memoryview(lex.kwg).cast("B")))


def _init_worker(
    key: tuple[str, str, int, int], lexicon: Lexicon, leaves_key: tuple[str, int], leaves: LeavesArg
) -> None:
    """Process-pool initializer: keep the lexicon and the leave table for every task."""
    _LEXICONS[key] = lexicon
    _LEAVES[leaves_key] = _fast(resolve_leaves(leaves, lexicon.tiles))


@dataclass(frozen=True)
class _Task:
    """What a worker needs for a chunk of iterations: small and cheap to pickle."""

    lex_key: tuple[str, str, int, int]
    lexicon: Lexicon | None  # only for executors without the initializer, if not loadable by name
    leaves_key: tuple[str, int]
    leaves: LeavesArg  # sent along in the same case
    board: Board
    rules: Rules
    rack: tuple[int, ...]
    unseen: tuple[int, ...]
    opp_sizes: tuple[int, ...]
    scores: tuple[int, ...]  # the player first, then the others in turn order
    scoreless: int
    moves: tuple[tuple[Move, int, tuple[int, ...]], ...]  # move, score, leave
    plies: int
    seed: int
    start: int
    stop: int
    ids: tuple[int, ...] = ()  # each move's number among all the candidates (its shuffles' seed); () = 0, 1, ...
    known: tuple[tuple[int, ...], ...] = ()  # the next opponent's kept tiles to deal from (inference); () = none


def _known_for(task: _Task) -> list[tuple[int, ...]] | None:
    """The tiles the next opponent holds for sure in each iteration of the task: one of
    ``task.known`` (inferred kept tiles, as often as they were drawn) picked by the
    iteration's own generator, or None without inference."""
    if not task.known:
        return None
    return [
        task.known[Rng(task.seed * 1_000_003 + i + 15_485_863).below(len(task.known))]
        for i in range(task.start, task.stop)
    ]


def _deal(unseen: Sequence[int], known: Sequence[int], rng: Rng) -> list[int]:
    """``unseen`` less the tiles of ``known`` (each time its first copy), shuffled: the
    next opponent gets ``known`` and the first tiles of this, as the kernel deals."""
    pool = list(unseen)
    for t in known:
        pool.remove(t)
    rng.shuffle(pool)
    return pool


def _task_lexicon(task: _Task) -> Lexicon:
    lex = _LEXICONS.get(task.lex_key)
    if lex is None:
        if task.lexicon is not None:
            lex = task.lexicon
        else:
            name, tiles_name = task.lex_key[0], task.lex_key[1]
            lex = Lexicon.load(name, tile_set(tiles_name))
        _LEXICONS[task.lex_key] = lex
    return lex


def _task_leaves(task: _Task, tiles: TileSet) -> LeaveValue | None:
    if task.leaves_key in _LEAVES:
        return _LEAVES[task.leaves_key]
    fast = _fast(resolve_leaves(task.leaves, tiles))
    _LEAVES[task.leaves_key] = fast
    return fast


def _run_chunk(task: _Task) -> list[list[tuple[float, float]]]:
    """Per iteration of ``range(task.start, task.stop)``, per candidate: (value, win)."""
    lex = _task_lexicon(task)
    leaves = _task_leaves(task, lex.tiles)
    board = task.board
    base = task.seed * 1_000_003
    ids = task.ids or tuple(range(len(task.moves)))
    table = LeaveTable.of(leaves)
    in_kernel = table is not None and unsupported(task.rules, 1 + len(task.opp_sizes), [table]) is None
    known = _known_for(task)
    if in_kernel:
        # every play-out of the chunk in one call to the kernel (lexiko.bots.playout): the
        # numbers of the Python play-outs below, without Python per turn
        assert table is not None
        return simulate_iterations(
            board,
            task.rack,
            task.unseen,
            task.opp_sizes,
            task.scores,
            task.scoreless,
            [m for m, _, _ in task.moves],
            [s for _, s, _ in task.moves],
            task.plies,
            base,
            range(task.start, task.stop),
            lex,
            task.rules,
            table,
            ids,
            known,
        )
    sim = _Playout(lex, task.rules, leaves, task.plies)
    out: list[list[tuple[float, float]]] = []
    for i in range(task.start, task.stop):
        rng = Rng(task.seed * 1_000_003 + i)
        held = known[i - task.start] if known is not None else ()
        pool = _deal(task.unseen, held, rng)
        racks: list[list[int]] = [list(task.rack)]
        k = 0
        for q, size in enumerate(task.opp_sizes):
            if q == 0 and held:
                racks.append([*held, *pool[: size - len(held)]])
                k += size - len(held)
                continue
            racks.append(pool[k : k + size])
            k += size
        bag = pool[k:]
        row = []
        for j, (move, score, leave) in zip(ids, task.moves, strict=True):
            crng = Rng(task.seed * 1_000_003 + i + 7_919 * (j + 1))
            row.append(
                sim.run(
                    board, [list(r) for r in racks], list(bag), task.scores, task.scoreless, move, score, leave, crng
                )
            )
        out.append(row)
    return out


class _Playout:
    """One play-out: a candidate, then ``plies`` turns of the static policy."""

    def __init__(self, lex: Lexicon, rules: Rules, leaves: LeaveValue | None, plies: int) -> None:
        self.lex = lex
        self.rules = rules
        self.tiles = lex.tiles
        self.leaves = leaves
        self.plies = plies

    def run(
        self,
        board: Board,
        racks: list[list[int]],
        bag: list[int],
        scores: tuple[int, ...],
        scoreless: int,
        move: Move,
        score: int,
        leave: tuple[int, ...],
        rng: Rng,
    ) -> tuple[float, float]:
        rules, tiles = self.rules, self.tiles
        n = len(racks)
        deltas = [0] * n
        own_leave: tuple[int, ...] = leave
        own_leave_bag = len(bag)
        kept_by: dict[int, tuple[tuple[int, ...], int]] = {}  # the opponents' last kept tiles, and the bag after
        ended = False
        p = 0
        for ply in range(self.plies + 1):
            if ply == 0:
                m, s, kept = move, score, leave
            else:
                lv = self.leaves
                if not bag and lv is not None:
                    lv = endgame_leaves(tiles, [t for q in range(n) if q != p for t in racks[q]])
                found = generate(board, racks[p], self.lex, rules, bag_count=len(bag), best=1, leaves=lv)
                c = found[0]
                m, s, kept = c.move, c.score, c.leave
            rack = racks[p]
            if isinstance(m, Place):
                board = board.place(m)
                new = list(kept)
                draw = min(rules.rack_size - len(new), len(bag))
                if draw:
                    new.extend(bag[-draw:])
                    del bag[-draw:]
                racks[p] = new
                deltas[p] += s
                scoreless = 0 if s > 0 or rules.scoreless_passes_only else scoreless + 1
            elif isinstance(m, Exchange):
                new = list(kept)
                draw = min(len(m.tiles), len(bag))
                new.extend(bag[-draw:])
                del bag[-draw:]
                bag.extend(m.tiles)
                rng.shuffle(bag)
                racks[p] = new
                scoreless = scoreless + 1 if rules.exchange_is_scoreless and not rules.scoreless_passes_only else 0
            else:
                kept = tuple(rack)
                scoreless += 1
            if p == 0:
                own_leave, own_leave_bag = kept, len(bag)
            else:
                kept_by[p] = (kept, len(bag))
            if not racks[p] and not bag and isinstance(m, Place):
                others = [t for q in range(n) if q != p for t in racks[q]]
                v = tiles.rack_value(others)
                if rules.end_rack_rule == "double" and n == 2:  # a two-player rule, as in Game
                    deltas[p] += 2 * v
                else:
                    deltas[p] += v
                    for q in range(n):
                        if q != p:
                            deltas[q] -= tiles.rack_value(racks[q])
                ended = True
                break
            if rules.scoreless_turn_limit and scoreless >= rules.scoreless_turn_limit:
                for q in range(n):
                    deltas[q] -= tiles.rack_value(racks[q])
                ended = True
                break
            p = (p + 1) % n
        others_mean = sum(deltas[1:]) / (n - 1) if n > 1 else 0.0
        value = deltas[0] - others_mean
        leave_value = 0.0
        if not ended and self.leaves is not None:
            if own_leave_bag > 0:
                leave_value = float(self.leaves(own_leave))
            if n > 1:  # less the mean value of what the opponents kept (0 for one who has not moved)
                opp = [float(self.leaves(k)) for k, b in kept_by.values() if b > 0]
                leave_value -= (sum(opp) if opp else 0.0) / (n - 1)
        value += leave_value
        final = [scores[q] + deltas[q] for q in range(n)]
        spread = final[0] - (max(final[1:]) if n > 1 else 0)
        if ended:
            win = 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0
        else:
            left = len(bag) + sum(len(r) for r in racks)
            width = 4.2 * math.sqrt(len(bag) + min(left, 7))
            win = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, (spread + leave_value) / width))))
        return value, win


# -- the driver ------------------------------------------------------------------------


def _opp_sizes(position: Position) -> tuple[int, ...]:
    n = len(position.scores)
    if n < 2:
        return ()
    total = max(0, len(position.unseen) - position.bag_count)
    base, extra = divmod(total, n - 1)
    return tuple(min(position.rules.rack_size, base + (1 if k < extra else 0)) for k in range(n - 1))


@dataclass(frozen=True)
class _Setup:
    """How to simulate: the lexicon and leaves (with their registry keys), where the
    play-outs run (``initialized``: workers that ran `_init_worker`)."""

    lexicon: Lexicon
    lex_key: tuple[str, str, int, int]
    leaves: LeavesArg
    leaves_key: tuple[str, int]
    plies: int
    time_limit: float | None
    executor: Executor | None
    jobs: int
    initialized: bool
    prune: float | None = None
    rank: Rank = "value"


def _stdev(values: Sequence[float]) -> float:
    """The sample standard deviation of ``values`` (0 for fewer than two) in floating
    point: `statistics.stdev` sums exact fractions, 2 us a value, which a long
    simulation (a clock's budget: 10 candidates, tens of thousands of iterations) paid
    for seconds after its time was up.

    >>> _stdev([1.0, 2.0, 3.0, 4.0]), _stdev([5.0])
    (1.2909944487358056, 0.0)
    """
    n = len(values)
    if n < 2:
        return 0.0
    m = math.fsum(values) / n
    return math.sqrt(math.fsum([(v - m) * (v - m) for v in values]) / (n - 1))


_PRUNE_AFTER = 16
"""Iterations every live candidate has before any is dropped (``prune``)."""


def simulate(
    position: Position,
    lexicon: Lexicon,
    *,
    leaves: LeavesArg = None,
    candidates: int | Sequence[Candidate] = 10,
    iterations: int = 100,
    plies: int = 2,
    seed: int | None = None,
    time_limit: float | None = None,
    executor: Executor | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    prune: float | None = None,
    known: Sequence[Sequence[int]] | None = None,
    rank: Rank = "value",
) -> list[SimResult]:
    """Simulate the best ``candidates`` moves of a position (or the candidates given)
    and return them best first (by mean value, or with ``rank="win"`` by win rate, the
    mean value breaking ties). See the module docstring; ``jobs > 1``
    without an ``executor`` makes a process pool for this call (a
    `SimulationBot` keeps its pool between moves).

    ``prune`` (a z value, e.g. 3): a stopping rule. After each batch of iterations (from
    16 on), a candidate is dropped when the leader's advantage over it, measured on the
    same iterations (common random numbers), is more than ``prune`` standard errors; the
    simulation stops when one candidate is left. Dropped candidates keep the iterations
    they had and are listed after the others.

    ``known``: tiles the next opponent may have kept, as `lexiko.bots.inference.infer`
    gives them (each as often as it is likely): each iteration deals that opponent one of
    them (picked by the iteration's own generator) and the rest of the rack at random.

    >>> from lexiko.game import Game
    >>> lex = Lexicon.from_words(["QI", "QAT", "AT", "TA"])
    >>> g = Game(["A", "B"], lexicon=lex, seed=2, first_player=0)
    >>> g.set_rack(0, "QIATEEE")
    >>> res = simulate(g.position(), lex, leaves=False, candidates=2, iterations=3, seed=5)
    >>> [(r.candidate.notation(), r.iterations) for r in res]
    [('8G QAT', 3), ('8F QAT', 3)]
    """
    leaves_key = _leaves_key(leaves)
    key = _lexicon_key(lexicon)
    setup = _Setup(
        lexicon, key, leaves, leaves_key, plies, time_limit, executor, max(1, jobs), False, prune, _rank(rank)
    )
    try:
        if executor is None and jobs > 1:
            init = (key, lexicon, leaves_key, leaves)
            with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=init) as pool:
                setup = dataclasses.replace(setup, executor=pool, initialized=True)
                return _simulate(position, setup, candidates, iterations, seed, progress, known=known)
        return _simulate(position, setup, candidates, iterations, seed, progress, known=known)
    finally:
        if leaves_key[0] == "token":
            _LEAVES.pop(leaves_key, None)


_Rows = list[list[tuple[float, float]]]


def _order(results: Sequence[SimResult], rank: Rank, first: Callable[[int], bool]) -> list[int]:
    """Indices of ``results`` best first: by mean value, or by win rate then mean value
    (``rank``); those for which ``first`` is false after the others, ties by index."""
    if rank == "win":
        return sorted(range(len(results)), key=lambda k: (not first(k), -results[k].win_rate, -results[k].mean, k))
    return sorted(range(len(results)), key=lambda k: (not first(k), -results[k].mean, k))


def _simulate(
    position: Position,
    setup: _Setup,
    candidates: int | Sequence[Candidate],
    iterations: int,
    seed: int | None,
    progress: Progress | None,
    exchanges: bool = True,
    known: Sequence[Sequence[int]] | None = None,
) -> list[SimResult]:
    start_time = time.perf_counter()
    tiles = position.board.tiles
    if setup.leaves_key not in _LEAVES:  # the values are remembered here for every call
        _LEAVES[setup.leaves_key] = _fast(resolve_leaves(setup.leaves, tiles))
    lv = _LEAVES[setup.leaves_key]
    if lv is not None and position.bag_count == 0:
        lv = endgame_leaves(tiles, position.unseen)
    if isinstance(candidates, int):
        cands = generate(
            position.board,
            position.rack,
            setup.lexicon,
            position.rules,
            bag_count=position.bag_count if exchanges else 0,
            best=candidates,
            leaves=lv,
        )
    else:
        cands = list(candidates)
    if not cands:
        return []
    if seed is None:
        seed = random.getrandbits(48)
    n = len(position.scores)
    p = position.player
    if (position.bag_count == 0 and n == 2) or len(cands) == 1:
        iterations = min(iterations, 1)  # nothing random (the opponent holds the unseen tiles), or no choice
    executor = setup.executor
    if executor is None:  # in this process: the registry serves the task
        _LEXICONS.setdefault(setup.lex_key, setup.lexicon)
    travel = executor is not None and not setup.initialized  # workers may know nothing: send what they need
    template = _Task(
        lex_key=setup.lex_key,
        lexicon=setup.lexicon if travel and not _loadable(setup.lexicon) else None,
        leaves_key=setup.leaves_key,
        leaves=setup.leaves if travel else None,
        board=position.board,
        rules=position.rules,
        rack=tuple(position.rack),
        unseen=tuple(position.unseen),
        opp_sizes=_opp_sizes(position),
        scores=tuple(position.scores[(p + k) % n] for k in range(n)),
        scoreless=position.scoreless_turns,
        moves=tuple((c.move, c.score, c.leave) for c in cands),
        plies=setup.plies,
        seed=seed,
        start=0,
        stop=0,
        known=tuple(tuple(t) for t in known) if known and position.bag_count and len(position.scores) > 1 else (),
    )
    if executor is None:
        chunk = max(1, min(16, iterations // 20 or 1))
    else:
        chunk = max(1, math.ceil(iterations / (setup.jobs * 4)))
    if setup.prune is not None and len(cands) > 1:
        return _pruned(cands, template, setup, iterations, start_time, progress)
    tasks = [
        dataclasses.replace(template, start=s, stop=min(iterations, s + chunk)) for s in range(0, iterations, chunk)
    ]
    deadline = start_time + setup.time_limit if setup.time_limit is not None else None
    rows: dict[int, _Rows] = {}
    done = 0
    if progress is not None:
        progress(0, iterations)
    if executor is None:
        for task in tasks:
            rows[task.start] = _run_chunk(task)
            done += task.stop - task.start
            if progress is not None:
                progress(done, iterations)
            if deadline is not None and time.perf_counter() > deadline:
                break
    else:
        futures: dict[Future[_Rows], int] = {executor.submit(_run_chunk, task): task.start for task in tasks}
        pending = set(futures)
        try:
            while pending:
                timeout = None if deadline is None else max(0.0, deadline - time.perf_counter())
                finished, pending = wait(pending, timeout=timeout, return_when="FIRST_COMPLETED")
                for f in finished:
                    chunk_rows = f.result()
                    rows[futures[f]] = chunk_rows
                    done += len(chunk_rows)
                    if progress is not None:
                        progress(done, iterations)
                if deadline is not None and time.perf_counter() > deadline and pending:
                    break
        finally:
            for f in pending:
                f.cancel()
    # in the order of the iterations, whoever ran them: the same sums for the same seed
    ordered = [row for s in sorted(rows) for row in rows[s]]
    results: list[SimResult] = []
    for j, c in enumerate(cands):
        values = [row[j][0] for row in ordered]
        wins = [row[j][1] for row in ordered]
        if values:
            results.append(SimResult(c, fmean(values), _stdev(values), fmean(wins), len(values)))
        else:
            results.append(SimResult(c, c.equity, 0.0, 0.5, 0))
    return [results[k] for k in _order(results, setup.rank, lambda k: True)]


def _pruned(
    cands: Sequence[Candidate],
    template: _Task,
    setup: _Setup,
    iterations: int,
    start_time: float,
    progress: Progress | None,
) -> list[SimResult]:
    """`_simulate` with its stopping rule: batches of ``_PRUNE_AFTER`` iterations
    (split between the workers of an executor), the candidates clearly behind dropped
    between batches (see `simulate`). The batches do not depend on the workers,
    so neither does the result."""
    assert setup.prune is not None
    z = setup.prune
    live = list(range(len(cands)))
    values: list[list[float]] = [[] for _ in cands]
    wins: list[list[float]] = [[] for _ in cands]
    deadline = start_time + setup.time_limit if setup.time_limit is not None else None
    batch = _PRUNE_AFTER
    chunk = batch if setup.executor is None else max(1, math.ceil(batch / setup.jobs))
    done = 0
    if progress is not None:
        progress(0, iterations)
    while done < iterations and len(live) > 1:
        stop = min(iterations, done + batch)
        tasks = [
            dataclasses.replace(
                template,
                start=s,
                stop=min(stop, s + chunk),
                moves=tuple(template.moves[j] for j in live),
                ids=tuple(live),
            )
            for s in range(done, stop, chunk)
        ]
        if setup.executor is None:
            rows = [row for t in tasks for row in _run_chunk(t)]
        else:
            rows = [row for f in [setup.executor.submit(_run_chunk, t) for t in tasks] for row in f.result()]
        for row in rows:
            for k, j in enumerate(live):
                values[j].append(row[k][0])
                wins[j].append(row[k][1])
        done = stop
        if progress is not None:
            progress(done, iterations)
        if deadline is not None and time.perf_counter() > deadline:
            break
        n = len(values[live[0]])
        if n >= _PRUNE_AFTER:
            measure = wins if setup.rank == "win" else values
            lead = max(live, key=lambda j: (fmean(measure[j]), fmean(values[j]), -j))
            keep = [lead]
            for j in live:
                if j == lead:
                    continue
                diffs = [a - b for a, b in zip(measure[lead], measure[j], strict=True)]
                spread = stdev(diffs) if len(diffs) > 1 else 0.0
                if fmean(diffs) <= z * spread / math.sqrt(n):
                    keep.append(j)
            live = sorted(keep)
    results = [
        SimResult(c, fmean(values[j]), _stdev(values[j]), fmean(wins[j]), len(values[j]))
        if values[j]
        else SimResult(c, c.equity, 0.0, 0.5, 0)
        for j, c in enumerate(cands)
    ]
    alive = set(live)
    return [results[k] for k in _order(results, setup.rank, alive.__contains__)]


_CLOCK_RATE = 3_000
"""Iterations a second of budget a clocked move may run at most (about twice what the
simulation reaches): with a clock the time is the limit, this only bounds the work
planned."""

_TO_THE_END = 64
"""Plies of a play-out that goes on to the end of the game (``finish``), as a cap: near
the end a game ends long before it (a turn plays a tile, or is one of a run of scoreless
turns that the rules end); a play-out the cap stops is valued as one that did not end."""


def _loadable(lex: Lexicon) -> bool:
    """Whether a worker can load this lexicon by name (built in, or a file here)."""
    return lex.name.upper() in BUILTIN


class SimulationBot:
    """Plays the candidate with the best simulated value (see the module docstring).

    ``leaves``: a leave table (``None``: the package's default table, ``False``:
    score only). ``candidates``: moves simulated; ``iterations``: play-outs per
    candidate (fewer if ``time_limit`` seconds run out); ``plies``: turns after the
    candidate; ``executor`` or ``jobs``: where play-outs run (``jobs > 1``: a process
    pool kept until `close`); ``seed``: makes every choice reproducible;
    ``endgame_time``: with the bag empty in a two-player game, solve the endgame
    exactly (`lexiko.bots.endgame`) within that many seconds instead;
    ``preendgame_time``: with one tile in the bag, play the pre-endgame's best
    (`lexiko.bots.preendgame`: the ``candidates`` best placements and the pass, each
    in every split, to the end) within about that many seconds. ``infer``: deal the
    opponent the tiles they may have kept, inferred from their last play
    (`lexiko.bots.inference`; two players, tiles in the bag). ``prune``:
    the stopping rule of `simulate` (drop the candidates clearly behind; stop
    when one is left). ``rank``: ``"value"`` plays the best mean value, ``"win"`` the
    best win rate (the mean value breaking ties). ``finish``: with 1 to ``finish`` tiles
    in the bag, every play-out goes on to the end of the game (static turns on every
    side, however many) and the candidates are ranked by the games they win, whatever
    ``plies`` and ``rank`` say (0: never); near the end the leave values a short
    play-out stops on say little, and who goes out, or is stuck with a tile, decides.
    ``clock``: in a game with a clock, each move's time comes from the time manager
    (`lexiko.bots.time_manager.budget`: the time left, the bag, the static equity
    margin of the two best moves, the score) instead of ``time_limit``,
    ``endgame_time`` and ``preendgame_time``, and the simulation runs as many
    iterations as that time allows; a forced move, or a budget under
    `lexiko.bots.time_manager.QUICK_SECONDS`, is the best move by static equity at
    once. The last budget is kept in ``last_budget`` (None: no clock).

    >>> lex = Lexicon.from_words(["QI"])
    >>> with SimulationBot(lex, iterations=10) as bot:
    ...     bot.name
    'sim'
    """

    def __init__(
        self,
        lexicon: Lexicon,
        leaves: LeavesArg = None,
        candidates: int = 10,
        iterations: int = 100,
        plies: int = 2,
        executor: Executor | None = None,
        seed: int | None = None,
        time_limit: float | None = None,
        *,
        jobs: int = 1,
        endgame_time: float | None = None,
        preendgame_time: float | None = None,
        infer: bool = False,
        prune: float | None = None,
        rank: Rank = "value",
        finish: int = 0,
        clock: bool = False,
        name: str = "sim",
    ) -> None:
        self.lexicon = lexicon
        self.prune = prune
        self.rank = _rank(rank)
        if not isinstance(finish, int) or isinstance(finish, bool) or finish < 0:
            raise LexikoError(f"finish {finish!r}: give the most tiles in the bag for play-outs to the end (0: none)")
        self.finish = finish
        self.clock = clock
        self.last_budget: float | None = None
        self.leaves = leaves
        self.candidates = candidates
        self.iterations = iterations
        self.plies = plies
        self.time_limit = time_limit
        self.jobs = jobs
        self.endgame_time = endgame_time
        self.preendgame_time = preendgame_time
        self.infer = infer
        self.last_inference: Inference | None = None
        self.name = name
        self.seed = seed
        self._rng = random.Random(seed)
        self._executor = executor
        self._own_pool: ProcessPoolExecutor | None = None
        self._leaves_key = _leaves_key(leaves)
        self._lex_key = _lexicon_key(lexicon)
        self.last_results: list[SimResult] = []

    # -- executor ---------------------------------------------------------------

    def _pool(self) -> tuple[Executor | None, bool]:
        if self._executor is not None:
            return self._executor, False
        if self.jobs <= 1:
            return None, False
        if self._own_pool is None:
            self._own_pool = ProcessPoolExecutor(
                self.jobs,
                initializer=_init_worker,
                initargs=(self._lex_key, self.lexicon, self._leaves_key, self.leaves),
            )
        return self._own_pool, True

    def close(self) -> None:
        """Shut down the process pool the bot made (not an executor it was given)."""
        if self._own_pool is not None:
            self._own_pool.shutdown(cancel_futures=True)
            self._own_pool = None
        if self._leaves_key[0] == "token":
            _LEAVES.pop(self._leaves_key, None)

    def __enter__(self) -> SimulationBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_own_pool"] = None
        return state

    # -- the Player protocol ---------------------------------------------------------

    def evaluate(
        self, game: Game | Position, *, progress: Progress | None = None, iterations: int | None = None
    ) -> list[SimResult]:
        """The simulated candidates of the position (the player on turn's), best first."""
        return self._evaluate(game, progress, iterations, self.time_limit)

    def _evaluate(
        self, game: Game | Position, progress: Progress | None, iterations: int | None, time_limit: float | None
    ) -> list[SimResult]:
        position = game.position() if isinstance(game, Game) else game
        executor, initialized = self._pool()
        seed = self._rng.getrandbits(48)
        to_the_end = 1 <= position.bag_count <= self.finish
        setup = _Setup(
            self.lexicon,
            self._lex_key,
            self.leaves,
            self._leaves_key,
            _TO_THE_END if to_the_end else self.plies,
            time_limit,
            executor,
            max(1, self.jobs),
            initialized,
            self.prune,
            "win" if to_the_end else self.rank,
        )
        n = self.iterations if iterations is None else iterations
        exchanges = True
        known: tuple[tuple[int, ...], ...] | None = None
        if isinstance(game, Game):  # no exchange candidates where the player may not exchange
            exchanges = game.can_exchange()
            if self.infer:
                self.last_inference = infer(game, self.lexicon, leaves=self.leaves, seed=seed)
                known = self.last_inference.leaves if self.last_inference is not None else None
        results = _simulate(position, setup, self.candidates, n, seed, progress, exchanges, known)
        self.last_results = results
        return results

    def choose(self, game: Game) -> Move:
        two = len(game.players) == 2 and not game.awaiting_final_challenge and not game.is_over
        seconds = self._budget(game) if self.clock else None
        self.last_budget = seconds
        if seconds is not None and seconds < QUICK_SECONDS:
            return self._quick(game)
        if self.endgame_time is not None and two and game.bag_count == 0:
            from lexiko.bots.endgame import solve

            limit = self.endgame_time if seconds is None else seconds
            return solve(game, time_limit=limit, lexicon=self.lexicon).best_move
        if self.preendgame_time is not None and two and game.bag_count == 1:
            from lexiko.bots.preendgame import preendgame

            # every split (one a letter unseen) for every candidate, each endgame given
            # a share of the time, then the time left on the best candidates' inexact ones
            found = preendgame(
                game,
                self.lexicon,
                candidates=self.candidates,
                leaves=self.leaves,
                endgame_time=None,
                time_limit=self.preendgame_time if seconds is None else seconds,
            )
            return found[0].candidate.move
        if seconds is None:
            results = self.evaluate(game)
        else:  # the time is the limit: the iterations only a cap far above what it allows
            cap = max(self.iterations, math.ceil(seconds * _CLOCK_RATE))
            results = self._evaluate(game, None, cap, seconds)
            self.last_results = results
        if not results:
            return Pass()
        return results[0].candidate.move

    # -- the clock -------------------------------------------------------------------

    def _static_best(self, game: Game, best: int) -> Sequence[Candidate]:
        """The ``best`` moves of the player on turn by static equity (exchanges only where
        the player may exchange; with the bag empty, the endgame's leave values)."""
        position = game.position()
        if self._leaves_key not in _LEAVES:
            _LEAVES[self._leaves_key] = _fast(resolve_leaves(self.leaves, self.lexicon.tiles))
        lv = _LEAVES[self._leaves_key]
        if lv is not None and position.bag_count == 0:
            lv = endgame_leaves(self.lexicon.tiles, position.unseen)
        bag = position.bag_count if game.can_exchange() else 0
        return generate(
            position.board, position.rack, self.lexicon, position.rules, bag_count=bag, best=best, leaves=lv
        )

    def _budget(self, game: Game) -> float | None:
        """Seconds for this move from the time manager, or None when the game has no clock.
        The clock is read after the static ranking, whose first call in a process reads
        the leave table (seconds): the budget is shared from what is truly left."""
        if game.rules.time_minutes is None or game.is_over:
            return None
        two = self._static_best(game, 2)
        clock = Clock.of(game)
        if clock is None:
            return None
        margin = two[0].equity - two[1].equity if len(two) > 1 else None
        p = game.player_on_turn
        scores = game.scores
        spread = scores[p] - max((x for q, x in enumerate(scores) if q != p), default=scores[p])
        return budget(clock, game.bag_count, choices=len(two), margin=margin, spread=spread, players=len(game.players))

    def _quick(self, game: Game) -> Move:
        """The best move by static equity, made at once (a forced move, or no time)."""
        found = self._static_best(game, 1)
        return found[0].move if found else Pass()

    def wants_challenge(self, game: Game) -> bool:
        return last_play_is_phony(game, self.lexicon)
