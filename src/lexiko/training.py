"""Leave values trained by self-play: the static player against itself, rounds of play
and refitting (see `train`); the ``lexiko train-leaves`` command
(`lexiko.cli.train_leaves`) runs it. The table itself, its file formats and the
shipped values are `lexiko.leaves`.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
from array import array
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lexiko.leaves import _PACK_MAXLEN, MAX_COPY_TERMS, Leave, LeaveTable
from lexiko.move import Exchange, Pass, Place
from lexiko.progress import Progress as _Progress
from lexiko.rules import TOURNAMENT, Rules
from lexiko.tiles import TileSet

if TYPE_CHECKING:
    from lexiko.game import Event, Game
    from lexiko.lexicon import Lexicon
    from lexiko.move import Move

__all__ = ["train", "TrainProgress"]

TrainProgress = _Progress
"""``progress(phase, done, total)`` (`lexiko.progress.Progress`): called as games
finish (phase ``"round 2/4"``) and once per fitting pass (phase ``"fitting"``)."""


def _features(
    leave: Leave, vowel: Sequence[bool], tile_index: Mapping[int, int], balance_index: int
) -> list[tuple[int, float]]:
    """(feature, x) pairs of the fallback model for a leave: the constant, each tile's
    copies, the vowel/consonant balance (``balance_index`` + a pair number)."""
    out: list[tuple[int, float]] = [(0, 1.0)]
    vowels = consonants = 0
    for code, k in Counter(leave).items():
        base = tile_index[code]
        for j in range(min(k, MAX_COPY_TERMS - 1)):
            out.append((base + j, 1.0))
        if k >= MAX_COPY_TERMS:
            out.append((base + MAX_COPY_TERMS - 1, float(k - MAX_COPY_TERMS + 1)))
        if code:
            if vowel[code]:
                vowels += k
            else:
                consonants += k
    out.append((balance_index + _pair(vowels, consonants), 1.0))
    return out


def _pair(v: int, c: int) -> int:
    """Number of the pair (v, c) in the order (0,0), (0,1), (1,0), (0,2), (1,1), ..."""
    s = v + c
    return s * (s + 1) // 2 + v


def _unpair(i: int) -> tuple[int, int]:
    s = int((math.isqrt(8 * i + 1) - 1) // 2)
    v = i - s * (s + 1) // 2
    return v, s - v


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b for a symmetric positive definite a (Gaussian elimination with
    partial pivoting; a and b are overwritten)."""
    n = len(b)
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        if piv != col:
            a[col], a[piv] = a[piv], a[col]
            b[col], b[piv] = b[piv], b[col]
        p = a[col][col]
        if abs(p) < 1e-12:
            continue
        row = a[col]
        for r in range(col + 1, n):
            f = a[r][col] / p
            if f:
                ar = a[r]
                for k in range(col, n):
                    ar[k] -= f * row[k]
                b[r] -= f * b[col]
    x = [0.0] * n
    for col in range(n - 1, -1, -1):
        p = a[col][col]
        s = b[col] - sum(a[col][k] * x[k] for k in range(col + 1, n))
        x[col] = s / p if abs(p) >= 1e-12 else 0.0
    return x


@dataclass
class _Racks:
    """Training data of a round: for each full rack a move was made from, the equity of
    those moves summed (points plus the value of the leave kept) and how many there were."""

    stats: dict[bytes, list[float]]

    def add(self, rack: Sequence[int], equity: float) -> None:
        key = bytes(sorted(rack))
        s = self.stats.get(key)
        if s is None:
            self.stats[key] = [equity, 1.0]
        else:
            s[0] += equity
            s[1] += 1.0

    def merge(self, other: _Racks) -> None:
        for key, (total, n) in other.stats.items():
            s = self.stats.get(key)
            if s is None:
                self.stats[key] = [total, n]
            else:
                s[0] += total
                s[1] += n

    @property
    def moves(self) -> int:
        return int(sum(n for _, n in self.stats.values()))


def rack_leaves(
    racks: Mapping[bytes, Sequence[float]], counts: Sequence[int], size: int
) -> dict[Leave, tuple[float, float, float]]:
    """For every leave of 1 to ``size - 1`` tiles held by some rack of ``racks`` (sorted
    codes mapped to (equity summed, moves)): (weighted, weights, seen), where a rack R
    adds ``w * mean(R)`` to weighted, ``w`` to weights and its moves to seen, with ``w``
    the number of ways of drawing R less the leave from a tile set with ``counts[code]``
    copies of each code less the leave. Leaves in increasing code order. The compiled
    kernel's ``rack_leaves`` computes the same; this is its reference.

    >>> r = rack_leaves({bytes([1, 1, 2]): (12.0, 2.0)}, [2, 3, 1], 3)
    >>> r[(1,)], r[(1, 1)]  # AAB: keeping A, AB is drawn from AAB (2 ways); keeping AA, B from B
    ((12.0, 2.0, 2.0), (6.0, 1.0, 2.0))
    """
    out: dict[Leave, tuple[float, float, float]] = {}
    for key, (total, n) in racks.items():
        if n <= 0:
            continue
        mean = total / n
        have = Counter(key)
        codes = sorted(have)
        for digits in itertools.product(*(range(have[c] + 1) for c in codes)):
            length = sum(digits)
            if not 0 < length < size:
                continue
            w = 1
            for c, d in zip(codes, digits, strict=True):
                w *= math.comb(max(counts[c] - d, 0), have[c] - d)
            if not w:
                continue
            leave = tuple(c for c, d in zip(codes, digits, strict=True) for _ in range(d))
            a, b, seen = out.get(leave, (0.0, 0.0, 0.0))
            out[leave] = (a + w * mean, b + w, seen + n)
    return out


def _leave_values(data: _Racks, tiles: TileSet, size: int) -> tuple[dict[Leave, tuple[float, float]], float]:
    """Each leave's value (its racks' weighted mean equity less a random rack's) and the
    moves it rests on, by the kernel when built; and a random rack's mean equity."""
    counts = [tiles.count(c) if c <= tiles.size else 0 for c in range(64)]
    full = 0.0
    norm = 0.0
    for key, (total, n) in data.stats.items():
        w = 1
        for c, k in Counter(key).items():
            w *= math.comb(counts[c], k)
        full += w * total / n
        norm += w
    base = full / norm if norm else 0.0
    raw: dict[Leave, tuple[float, float, float]]
    from lexiko import kernel

    if kernel.available() and size <= _PACK_MAXLEN:  # every rack recorded is full (_add_move)
        keys, weighted, weights, seen = kernel.rack_leaves(
            b"".join(data.stats),
            array("d", (s[0] for s in data.stats.values())),
            array("d", (s[1] for s in data.stats.values())),
            bytes(min(c, 255) for c in counts),
            size,
        )
        raw = {}
        for packed, a, b, n in zip(
            array("Q", keys), array("d", weighted), array("d", weights), array("d", seen), strict=True
        ):
            codes = []
            while packed > 1:
                codes.append(packed & 63)
                packed >>= 6
            raw[tuple(reversed(codes))] = (a, b, n)
    else:
        raw = rack_leaves(data.stats, counts, size)
    values = {}
    for leave, (a, b, n) in raw.items():
        z = leave.count(0)  # increasing codes to rack order: blanks last
        values[(*leave[z:], *leave[:z])] = (a / b - base, n)
    return values, base


def _fit(
    values: Mapping[Leave, tuple[float, float]],
    tiles: TileSet,
    *,
    ridge: float,
    min_seen: int,
    shrink: float,
    meta: Mapping[str, str],
) -> LeaveTable:
    """The table of a round: the fallback model (a constant, a value per tile and copy, a
    term per vowel and consonant count) fitted by ridge regression to the leaves resting
    on ``min_seen`` moves or more, each weighted by its moves; and those leaves stored,
    shrunk toward the model by ``shrink`` (see `train`)."""
    vowel = LeaveTable.zeros(tiles)._vowel
    codes = [0, *range(1, tiles.size + 1)]
    tile_index = {c: 1 + i * MAX_COPY_TERMS for i, c in enumerate(codes)}
    balance_index = 1 + len(codes) * MAX_COPY_TERMS
    stored = {leave: v for leave, (v, n) in values.items() if n >= min_seen}
    max_len = max((len(leave) for leave in stored), default=0)
    nf = balance_index + _pair(0, max_len) + max_len + 1
    xtx = [[0.0] * nf for _ in range(nf)]
    xty = [0.0] * nf
    for leave, v in stored.items():
        w = values[leave][1]
        f = _features(leave, vowel, tile_index, balance_index)
        for fi, xi in f:
            row = xtx[fi]
            wx = w * xi
            xty[fi] += wx * v
            for fj, xj in f:
                row[fj] += wx * xj
    for d in range(nf):
        xtx[d][d] += ridge
    coef = _solve(xtx, xty)
    tile_values: dict[int, list[float]] = {}
    for c in codes:
        vs = coef[tile_index[c] : tile_index[c] + MAX_COPY_TERMS][: max(1, min(tiles.count(c), MAX_COPY_TERMS))]
        if any(vs):
            tile_values[c] = vs
    balance = {_unpair(j): coef[balance_index + j] for j in range(nf - balance_index) if coef[balance_index + j]}
    table = LeaveTable(tiles, {}, tile_values=tile_values, balance=balance, offset=coef[0], meta=meta)
    shrunk = {
        leave: (values[leave][1] * v + shrink * table.fallback(leave)) / (values[leave][1] + shrink)
        for leave, v in stored.items()
    }
    shrunk[()] = 0.0  # the empty leave (a fresh rack of drawn tiles) is worth 0 by definition
    return LeaveTable(tiles, shrunk, tile_values=tile_values, balance=balance, offset=coef[0], meta=meta)


def train(
    games: int,
    *,
    rounds: int = 4,
    lexicon: Lexicon | str = "TWL06",
    rules: Rules = TOURNAMENT,
    jobs: int = 1,
    seed: int = 0,
    executor: Executor | None = None,
    initial: LeaveTable | None = None,
    min_seen: int = 20,
    shrink: float = 30.0,
    ridge: float = 10.0,
    chunk_size: int = 200,
    progress: TrainProgress | None = None,
) -> LeaveTable:
    """Train a leave table by self-play of the static player against itself.

    Method (rack equity, by rounds; the method MAGPIE and Macondo describe for their
    leave tables, written here from that description):

    1. Play ``games`` games, both players static (score + leave value) with the
       current table (``initial``, or zeros: the first round is greedy play). For each
       move (a placement or an exchange) made from a full rack while the bag holds at
       least a rack's worth of tiles, record the rack and the move's equity: its points
       plus the current value of the tiles kept.
    2. A rack's value is the mean equity of the moves made from it. A leave L is worth
       the mean value of the full racks that hold it, each rack R weighted by the number
       of ways of drawing R less L from the tile set less L (how likely R is once L is
       kept), less the mean value of a rack drawn from the full set. So a leave is worth
       what it adds to the next turn's points and, through the leave kept then, to the
       turns after; the empty leave is 0.
    3. Every leave whose value rests on ``min_seen`` moves or more is stored; the
       fallback model (a constant, each tile's 1st, 2nd, 3rd and further copies, a term
       per vowel/consonant count) is fitted to them by ridge regression (``ridge``),
       each weighted by its moves, and values the other leaves. A stored value resting
       on n moves is shrunk toward the model's: ``(n * value + shrink * model) / (n +
       shrink)``, so that a rarely seen leave is not valued by the luck of its racks.
    4. Repeat with the new table for ``rounds`` rounds, each on its own games.

    The table's ``games`` metadata counts the games behind it, ``initial``'s included.

    Games are played in chunks of ``chunk_size`` on ``executor``, or on a process pool
    of ``jobs`` workers, or in this process. The result depends only on the arguments,
    not on ``jobs`` or the executor. ``progress(phase, done, total)`` reports.

    >>> from lexiko.lexicon import Lexicon
    >>> t = train(2, rounds=1, lexicon=Lexicon.from_words(["AB", "BA", "AA"]), seed=1)
    >>> t.value("") == 0.0 and len(t) > 0
    True
    """
    from lexiko import selfplay

    if games < 1 or rounds < 1:
        raise ValueError("train needs at least one game and one round")
    tiles = rules.tile_set
    spec = selfplay.lexicon_spec(lexicon, tiles)
    table = initial if initial is not None else LeaveTable.zeros(tiles)
    before = int(table.meta.get("games", "0")) if table.meta.get("games", "").isdigit() else 0  # games behind it
    started = time.perf_counter()
    cpu = 0.0
    for r in range(rounds):
        phase = f"round {r + 1}/{rounds}"
        blob = table.to_bytes()
        key = hashlib.sha256(blob).hexdigest()[:16]
        tasks = [
            _TrainTask(spec, rules, seed, r, list(range(lo, min(games, lo + chunk_size))), blob, key)
            for lo in range(0, games, chunk_size)
        ]
        done = 0
        if progress:
            progress(phase, 0, games)
        results: list[_TrainResult] = []
        for res in selfplay.run_chunks(_train_chunk, tasks, jobs=jobs, executor=executor, spec=spec):
            results.append(res)
            done += res.games
            cpu += res.cpu
            if progress:
                progress(phase, done, games)
        data = _Racks({})
        for res in sorted(results, key=lambda x: x.first):  # the same sums whatever finished first
            data.merge(res.racks)
        values, base = _leave_values(data, tiles, rules.rack_size)
        meta = {
            "tiles": tiles.name,
            "lexicon": spec[0] if isinstance(spec, tuple) else getattr(spec, "name", "custom"),
            "rules": rules.name,
            "games": str(before + games * (r + 1)),
            "rounds": str(r + 1),
            "moves": str(data.moves),
            "racks": str(len(data.stats)),
            "rack-equity": f"{base:.3f}",
            "min-seen": str(min_seen),
            "shrink": f"{shrink:g}",
            "seed": str(seed),
            "method": "lexiko.training.train (self-play, rack equity)",
        }
        table = _fit(values, tiles, ridge=ridge, min_seen=min_seen, shrink=shrink, meta=meta)
        if progress:
            progress("fitting", r + 1, rounds)
    table.meta["cpu-seconds"] = f"{cpu:.0f}"
    table.meta["seconds"] = f"{time.perf_counter() - started:.0f}"
    return table


@dataclass(frozen=True)
class _TrainTask:
    spec: Any
    rules: Rules
    seed: int
    round: int
    games: list[int]
    table: bytes
    key: str


@dataclass(frozen=True)
class _TrainResult:
    first: int
    racks: _Racks
    games: int
    cpu: float


_tables: dict[str, LeaveTable] = {}


def _train_chunk(task: _TrainTask) -> _TrainResult:
    """Play the task's games (static against static) and return the racks' equities."""
    from lexiko import selfplay
    from lexiko.bots.playout import play_out, unsupported
    from lexiko.bots.static import StaticBot
    from lexiko.game import Game

    t0 = time.process_time()
    lexicon = selfplay.worker_lexicon(task.spec)
    table = _tables.get(task.key)
    if table is None:
        _tables.clear()
        table = _tables[task.key] = LeaveTable.from_bytes(task.table, task.rules.tile_set)
    size = task.rules.rack_size
    value = table.lookup
    racks = _Racks({})
    in_kernel = unsupported(task.rules, 2, [table]) is None
    for g in task.games:
        game_seed = selfplay.game_seed(task.seed, g, f"train-{task.round}")
        names = ["static 1", "static 2"]
        if in_kernel:  # the same game, its turns played in the kernel
            start = Game(names, task.rules, seed=game_seed, lexicon=None, first_player=g % 2)
            for t in play_out(start, [table, table], lexicon, log=True).log:
                _add_move(racks, t.move, t.kept, t.bag, t.score, value, size)
        else:
            players = [StaticBot(lexicon, table, name=names[0]), StaticBot(lexicon, table, name=names[1])]
            rec = _Recorder(racks, value, size)
            selfplay.play_game(players, task.rules, seed=game_seed, first_player=g % 2, observer=rec)
    return _TrainResult(task.games[0], racks, len(task.games), time.process_time() - t0)


class _Recorder:
    """Observer of `lexiko.selfplay.play_game`: adds each move to the racks'
    equities (see `_add_move`)."""

    def __init__(self, racks: _Racks, value: Callable[[Leave], float], size: int) -> None:
        self.racks, self.value, self.size = racks, value, size

    def __call__(self, game: Game, player: int, rack: tuple[int, ...], move: Move, event: Event | None) -> None:
        kept = _leave_after(rack, move)
        _add_move(self.racks, move, kept, game.bag_count, event.score if event else 0, self.value, self.size)


def _add_move(
    racks: _Racks, move: Move, kept: Leave, bag: int, score: int, value: Callable[[Leave], float], size: int
) -> None:
    """Add the equity of ``move`` (``score`` plus the value of the tiles ``kept``) to its
    rack's, when made from a full rack with at least a rack's worth of tiles in the bag
    (``bag``: tiles left after the move and its draw); a pass is not counted. Later
    moves, whose leaves the bag may not refill, are left out."""
    if isinstance(move, Pass):
        return
    used = _used(move)
    before = bag if isinstance(move, Exchange) else bag + len(used)
    if before >= size and len(used) + len(kept) == size:
        racks.add((*used, *kept), score + value(kept))


def _used(move: Move) -> tuple[int, ...]:
    """The tiles ``move`` takes from the rack (a blank as 0)."""
    if isinstance(move, Place):
        return move.rack_tiles()
    if isinstance(move, Exchange):
        return tuple(move.tiles)
    return ()


def _leave_after(rack: Sequence[int], move: Move) -> Leave:
    """Tiles left on ``rack`` (rack order) after ``move``."""
    used = Counter(_used(move))
    out = []
    for t in rack:
        if used[t]:
            used[t] -= 1
        else:
            out.append(t)
    return tuple(out)
