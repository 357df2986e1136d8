"""Leave values trained by self-play: the static player against itself, rounds of play
and refitting (see :func:`train`), and the ``lexiko train-leaves`` command. The table
itself, its file formats and the shipped values are :mod:`lexiko.leaves`.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexiko.argtypes import bounded_jobs, non_negative_int, output_file, positive_int
from lexiko.errors import LexikoError
from lexiko.leaves import MAX_COPY_TERMS, Leave, LeaveTable
from lexiko.rules import TOURNAMENT, Rules
from lexiko.tiles import TileSet

if TYPE_CHECKING:
    from rich.console import Console

    from lexiko.game import Event, Game
    from lexiko.lexicon import Lexicon
    from lexiko.move import Move

__all__ = ["train", "TrainProgress", "add_parsers"]

TrainProgress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``: called as games finish (phase ``"round 2/4"``)
and once per fitting pass (phase ``"fitting"``)."""

def _features(leave: Leave, vowel: Sequence[bool], tile_index: Mapping[int, int], balance_index: int) -> list[
    tuple[int, float]
]:
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


class _Observations:
    """Training data: for each move with a next turn, the leave kept (an id), the
    points of the next turn and the leave kept then (an id)."""

    def __init__(self) -> None:
        self.ids: dict[bytes, int] = {}
        self.leaves: list[Leave] = []
        self.leave_a = array("i")
        self.points = array("i")
        self.leave_b = array("i")

    def id(self, leave: bytes) -> int:
        i = self.ids.get(leave)
        if i is None:
            i = self.ids[leave] = len(self.leaves)
            self.leaves.append(tuple(leave))
        return i

    def add(self, rows: Iterable[tuple[bytes, int, bytes]]) -> None:
        for a, s, b in rows:
            self.leave_a.append(self.id(a))
            self.points.append(s)
            self.leave_b.append(self.id(b))

    def __len__(self) -> int:
        return len(self.points)


@dataclass
class _Fit:
    table: LeaveTable
    shrink: float
    noise_sd: float
    signal_sd: float


@dataclass
class _Design:
    """The fallback model's features of every leave seen, and the weighted normal
    matrix (each leave weighted by its number of observations)."""

    count: list[int]
    feats: list[list[tuple[int, float]]]
    xtx: list[list[float]]
    codes: list[int]
    tile_index: dict[int, int]
    balance_index: int

    @classmethod
    def of(cls, obs: _Observations, tiles: TileSet, vowel: Sequence[bool]) -> _Design:
        m = len(obs.leaves)
        count = [0] * m
        for a in obs.leave_a:
            count[a] += 1
        codes = [0, *range(1, tiles.size + 1)]
        tile_index = {c: 1 + i * MAX_COPY_TERMS for i, c in enumerate(codes)}
        balance_index = 1 + len(codes) * MAX_COPY_TERMS
        max_len = max((len(leave) for leave in obs.leaves), default=0)
        nf = balance_index + _pair(0, max_len) + max_len + 1
        xtx = [[0.0] * nf for _ in range(nf)]
        feats: list[list[tuple[int, float]]] = []
        for i, leave in enumerate(obs.leaves):
            f = _features(leave, vowel, tile_index, balance_index)
            feats.append(f)
            w = count[i]
            if w:
                for fi, xi in f:
                    row = xtx[fi]
                    for fj, xj in f:
                        row[fj] += w * xi * xj
        return cls(count, feats, xtx, codes, tile_index, balance_index)


def _fit(
    obs: _Observations,
    design: _Design,
    current: LeaveTable,
    tiles: TileSet,
    *,
    ridge: float,
    shrink: float | None,
    min_count: int,
    tolerance: float,
    meta: Mapping[str, str],
) -> _Fit:
    """One pass: targets with the current table, the fallback model by ridge regression,
    then each seen leave's mean target shrunk toward the model (see :func:`train`)."""
    m = len(obs.leaves)
    n = design.count
    nxt = [current.lookup(leave) for leave in obs.leaves]
    sy = [0.0] * m
    syy = [0.0] * m
    for a, s, b in zip(obs.leave_a, obs.points, obs.leave_b, strict=True):
        y = s + nxt[b]
        sy[a] += y
        syy[a] += y * y
    # the fallback model: ridge regression of the targets on the features
    nf = len(design.xtx)
    xty = [0.0] * nf
    for i, f in enumerate(design.feats):
        if n[i]:
            for fi, xi in f:
                xty[fi] += xi * sy[i]
    xtx = [list(row) for row in design.xtx]
    for d in range(nf):
        xtx[d][d] += ridge
    coef = _solve(xtx, xty)
    prior = [sum(coef[fi] * xi for fi, xi in f) for f in design.feats]
    # noise (within a leave) and signal (between leaves, around the model) variances
    within = sum(syy[i] - sy[i] * sy[i] / n[i] for i in range(m) if n[i] >= 2)
    dof = sum(n[i] - 1 for i in range(m) if n[i] >= 2)
    noise = within / dof if dof else 1.0
    big = [i for i in range(m) if n[i] >= 20]
    signal = sum((sy[i] / n[i] - prior[i]) ** 2 - noise / n[i] for i in big) / len(big) if big else 0.0
    k = shrink if shrink is not None else min(1000.0, max(1.0, noise / max(signal, 1e-6)))
    # a leave is stored when seen min_count times and its value is not the model's
    values = {
        obs.leaves[i]: v
        for i in range(m)
        if n[i] >= min_count and abs((v := (sy[i] + k * prior[i]) / (n[i] + k)) - prior[i]) >= tolerance
    }
    # the empty leave (a fresh rack of drawn tiles) is worth 0 by definition
    bi, ti = design.balance_index, design.tile_index
    e = obs.ids.get(b"")
    anchor = (sy[e] + k * prior[e]) / (n[e] + k) if e is not None else coef[0] + coef[bi]
    values = {leave: v - anchor for leave, v in values.items()}
    values[()] = 0.0
    tile_values: dict[int, list[float]] = {}
    for c in design.codes:
        vs = coef[ti[c] : ti[c] + MAX_COPY_TERMS][: max(1, min(tiles.count(c), MAX_COPY_TERMS))]
        if any(vs):
            tile_values[c] = vs
    balance = {_unpair(j): coef[bi + j] for j in range(nf - bi) if coef[bi + j] != 0.0}
    table = LeaveTable(tiles, values, tile_values=tile_values, balance=balance, offset=coef[0] - anchor, meta=meta)
    return _Fit(table, k, math.sqrt(noise), math.sqrt(max(signal, 0.0)))


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
    passes: int = 2,
    shrink: float | None = None,
    ridge: float = 10.0,
    min_count: int = 3,
    tolerance: float = 0.05,
    chunk_size: int = 200,
    progress: TrainProgress | None = None,
) -> LeaveTable:
    """Train a leave table by self-play of the static player against itself.

    Method (average-reward temporal differences, by rounds):

    1. Play ``games`` games, both players static (score + leave value) using the
       current table (``initial``, or zeros: the first round is greedy play). Record,
       for each move after which the mover draws and whose next turn also leaves tiles
       in the bag, the leave ``L`` kept, the points ``s'`` of the mover's next turn and
       the leave ``L'`` kept then.
    2. Fit on every observation so far (all rounds), ``passes`` times: the target of an
       observation is ``s' + v(L')`` with ``v`` the current table, so a leave is worth
       what it helps score next turn plus what it helps keep for the turns after.

       - the fallback model (a constant, a value for each tile's 1st, 2nd, 3rd and
         further copies, a term per vowel/consonant count) is fitted to the targets by
         ridge regression (``ridge``);
       - each leave seen at least ``min_count`` times gets the mean of its targets
         shrunk toward the model: ``(sum + k * model) / (count + k)``, where ``k`` is
         the noise variance of a target over the variance of true leave values around
         the model (empirical Bayes, estimated from leaves seen 20 times or more), or
         ``shrink`` when given; it is stored when that differs from the model by
         ``tolerance`` or more (the model gives the others);
       - values are shifted so that the empty leave (a fresh rack of drawn tiles) is 0.
         Only differences between leaves of the same rack matter to a player.
    3. Repeat with the new table for ``rounds`` rounds.

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
    obs = _Observations()
    total_games = 0
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
        for res in selfplay.run_chunks(_train_chunk, tasks, jobs=jobs, executor=executor, spec=spec):
            obs.add(res.rows)
            done += res.games
            cpu += res.cpu
            if progress:
                progress(phase, done, games)
        total_games += games
        design = _Design.of(obs, tiles, table._vowel)
        for p in range(passes):
            meta = {
                "tiles": tiles.name,
                "lexicon": spec[0] if isinstance(spec, tuple) else getattr(spec, "name", "custom"),
                "rules": rules.name,
                "games": str(total_games),
                "rounds": str(r + 1),
                "observations": str(len(obs)),
                "seed": str(seed),
                "method": "lexiko.training.train (self-play, average-reward TD, empirical-Bayes shrinkage)",
            }
            fit = _fit(
                obs, design, table, tiles,
                ridge=ridge, shrink=shrink, min_count=min_count, tolerance=tolerance, meta=meta,
            )
            table = fit.table
            table.meta["shrink"] = f"{fit.shrink:.1f}"
            if progress:
                progress("fitting", p + 1, passes)
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
    rows: list[tuple[bytes, int, bytes]]
    games: int
    cpu: float


_tables: dict[str, LeaveTable] = {}


def _train_chunk(task: _TrainTask) -> _TrainResult:
    """Play the task's games (static against static) and return the observations."""
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
    rows: list[tuple[bytes, int, bytes]] = []
    in_kernel = unsupported(task.rules, 2, [table]) is None
    for g in task.games:
        game_seed = selfplay.game_seed(task.seed, g, f"train-{task.round}")
        names = ["static 1", "static 2"]
        if in_kernel:  # the same game, its turns played in the kernel
            start = Game(names, task.rules, seed=game_seed, lexicon=None, first_player=g % 2)
            moves: list[list[tuple[bytes, int, int]]] = [[], []]
            for t in play_out(start, [table, table], lexicon, log=True).log:
                moves[t.player].append((bytes(t.kept), t.score, t.bag))
        else:
            players = [StaticBot(lexicon, table, name=names[0]), StaticBot(lexicon, table, name=names[1])]
            rec = _Recorder()
            selfplay.play_game(players, task.rules, seed=game_seed, first_player=g % 2, observer=rec)
            moves = rec.moves
        for seq in moves:
            for (la, _, bag_a), (lb, sb, bag_b) in zip(seq, seq[1:], strict=False):
                if bag_a > 0 and bag_b > 0:
                    rows.append((la, sb, lb))
    return _TrainResult(rows, len(task.games), time.process_time() - t0)


class _Recorder:
    """Observer of :func:`lexiko.selfplay.play_game`: each player's moves as (leave
    kept, points, tiles left in the bag after the draw)."""

    def __init__(self) -> None:
        self.moves: list[list[tuple[bytes, int, int]]] = [[], []]

    def __call__(self, game: Game, player: int, rack: tuple[int, ...], move: Move, event: Event | None) -> None:
        self.moves[player].append((bytes(_leave_after(rack, move)), event.score if event else 0, game.bag_count))


def _leave_after(rack: Sequence[int], move: Move) -> Leave:
    """Tiles left on ``rack`` (rack order) after ``move``."""
    from lexiko.move import Exchange, Place

    if isinstance(move, Place):
        used = Counter(move.rack_tiles())
    elif isinstance(move, Exchange):
        used = Counter(move.tiles)
    else:
        return tuple(rack)
    out = []
    for t in rack:
        if used[t]:
            used[t] -= 1
        else:
            out.append(t)
    return tuple(out)


# -- command line ----------------------------------------------------------------------

EPILOG_TRAIN = """\
Each round plays --games games of the static player against itself with the current
table (the first round with no table, i.e. greedy play), then refits the table on every
move of every round so far: a leave is worth the points its owner scores next turn plus
the value of the leave kept then, relative to a fresh rack (the empty leave is 0),
shrunk toward a per-tile model for rarely seen leaves. See lexiko.training.train.

examples:
  lexiko train-leaves --games 2000 --rounds 3 --out my-leaves.tsv.gz
  lexiko train-leaves --games 20000 --rounds 4 --jobs 8 --out leaves.tsv.gz
  lexiko autoplay --players static:my-leaves.tsv.gz,greedy --games 1000
"""


def _save_or_rescue(table: LeaveTable, out: Path, console: Console) -> Path:
    """Save the trained table; when that fails (a full disk), save it in the temporary
    folder instead and say where, so the training is not lost."""
    try:
        table.save(out)
        return out
    except OSError as e:
        reason = e.strerror or str(e)
    import tempfile

    rescue = Path(tempfile.gettempdir()) / f"lexiko-leaves-{os.getpid()}{''.join(out.suffixes)}"
    try:
        table.save(rescue)
    except OSError as e2:
        raise LexikoError(f"cannot write {out} ({reason}) nor {rescue} ({e2.strerror}): the table is lost") from None
    console.print(f"warning: cannot write {out} ({reason}); the table is saved in {rescue}",
                  style="yellow", markup=False, highlight=False, soft_wrap=True)
    return rescue


def cmd_train_leaves(args: argparse.Namespace, console: Console) -> int:
    """``lexiko train-leaves``: train a table by self-play and save it."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from lexiko.rules import preset

    if args.games < 1 or args.rounds < 1:
        raise LexikoError("--games and --rounds must be at least 1")
    try:
        rules = preset(args.rules, players=2)
    except ValueError as e:
        raise LexikoError(str(e)) from None
    if args.lexicon:
        rules = rules.replace(lexicon=args.lexicon)
    out = output_file(args.out)  # before the training, not after it
    jobs, note = bounded_jobs(args.jobs, args.force_jobs)
    if note:
        console.print(f"note: {note}", style="yellow", markup=False, highlight=False, soft_wrap=True)
    from lexiko.loading import load_lexicon

    load_lexicon(rules.lexicon, rules.tile_set, console)  # compile once, before the workers start
    initial = LeaveTable.load(args.start, rules.tile_set) if args.start else None
    from lexiko.executors import make_executor

    executor, release = make_executor(args.executor, args.address, jobs)
    started = time.perf_counter()
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
    ) as bar:
        tasks: dict[str, Any] = {}

        def progress(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total)
            bar.update(tasks[phase], completed=done)

        try:
            table = train(
                args.games,
                rounds=args.rounds,
                lexicon=rules.lexicon,
                rules=rules,
                jobs=jobs,
                seed=args.seed,
                executor=executor,
                initial=initial,
                progress=progress,
            )
        finally:
            if release is not None:
                release()
    out = _save_or_rescue(table, out, console)
    secs = time.perf_counter() - started
    console.print(
        f"saved {len(table):,} leaves to {out} ({args.games * args.rounds:,} games, {secs:.0f} s, "
        f"{jobs} job{'s' if jobs > 1 else ''})",
        highlight=False,
    )
    best = sorted((v, t) for t, v in table.items() if len(t) == 1)
    console.print(
        "one-tile leaves: " + "  ".join(f"{rules.tile_set.format(t)} {v:+.1f}" for v, t in reversed(best)),
        highlight=False,
        soft_wrap=True,
    )
    return 0


def add_parsers(subparsers: Any) -> None:
    """Register ``train-leaves`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); add_parsers(p.add_subparsers())
    >>> p.parse_args(["train-leaves", "--games", "10", "--out", "t.tsv.gz"]).rounds
    4
    """
    p = subparsers.add_parser(
        "train-leaves",
        help="train a leave table by self-play",
        description="Train the static player's leave values (what the tiles kept after a move are\n"
        "worth) by self-play, and save them as a table for 'lexiko autoplay --players\n"
        "static:FILE' or lexiko.leaves.LeaveTable.load.",
        epilog=EPILOG_TRAIN,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--games", type=positive_int, required=True, help="games per round")
    p.add_argument("--rounds", type=positive_int, default=4, help="rounds of play and refitting (default: 4)")
    p.add_argument("--out", required=True, metavar="FILE", help="file to write (.tsv, or .tsv.gz compressed)")
    p.add_argument("--jobs", type=non_negative_int, default=1, help="worker processes, 0 for one per core (default: 1)")
    p.add_argument("--force-jobs", action="store_true", help="use --jobs even when it is more than the cores")
    from lexiko.executors import add_arguments

    add_arguments(p)
    p.add_argument("--seed", type=int, default=0, help="seed of the games (default: 0)")
    p.add_argument("--start", metavar="FILE", help="table to start from (default: none, greedy play)")
    p.add_argument("--lexicon", help="lexicon: TWL06, SOWPODS or a word-list file (default: the rules')")
    p.add_argument("--rules", default="tournament", help="rules preset (default: tournament)")
    p.set_defaults(func=cmd_train_leaves)
