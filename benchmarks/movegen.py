"""Move generator speed on the positions of ../shared/positions/movegen-twl06.tsv (or
``$LEXIKO_SHARED_DIR/positions``).

For each position: microseconds per position and moves per second for generating every
placement (``generate(..., placements_only=True)``, Python objects included), for
counting them (``count_placements``: the kernel alone, no object per move) and for the
best move (``best_move``), with the compiled kernel and the pure-Python reference (the
reference once by default: it is 25 to 50 times slower).

Then the same for Clabbers (``rules.variant == "clabbers"``: every word formed need only
be an anagram of a word) on the same boards and racks; there a position has up to a
million placements (every order of the tiles counts), and the reference is timed only
on positions with at most ``--clabbers-python-max`` of them.

    python benchmarks/movegen.py                 # both generators
    python benchmarks/movegen.py --no-python     # the kernel only
    python benchmarks/movegen.py --clabbers-only # the Clabbers table only
    python benchmarks/movegen.py --no-wordmap    # best moves by the GADDAG walk, not the word map
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from lexiko import cgp, movegen
from lexiko.board import Board
from lexiko.lexicon import Lexicon
from lexiko.rules import CLABBERS, TOURNAMENT, Rules

SHARED = Path(os.environ.get("LEXIKO_SHARED_DIR") or Path(__file__).resolve().parents[2] / "shared")
DEFAULT_POSITIONS = SHARED / "positions" / "movegen-twl06.tsv"


def timed(fn: Callable[[], object], budget: float, max_runs: int) -> tuple[float, int]:
    """Seconds per call (best of the runs made within ``budget`` seconds, at least one)
    and the number of runs."""
    best = float("inf")
    runs = 0
    start = time.perf_counter()
    while runs < max_runs:
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
        runs += 1
        if time.perf_counter() - start > budget:
            break
    return best, runs


def table(
    rows: list[tuple[str, Board, tuple[int, ...], int]],
    lex: Lexicon,
    rules: Rules,
    backends: list[movegen.Backend],
    args: argparse.Namespace,
    *,
    check: bool,
) -> None:
    """Print one line per position and backend; ``check``: compare with the file's count."""
    gc.collect()
    head = (
        f"{'position':<20} {'backend':<7} {'moves':>7}  {'all µs':>11} {'all moves/s':>12}  "
        f"{'count µs':>10} {'count moves/s':>13}  {'best µs':>10}"
    )
    print(head)
    print("-" * len(head))
    for name, board, rack, expected in rows:
        n = movegen.count_placements(board, rack, lex, rules, backend="c")
        for backend in backends:
            if backend == "python" and not check and n > args.clabbers_python_max:
                print(f"{name:<20} {backend:<7} {n:>7}  (reference not timed: more than {args.clabbers_python_max:,})")
                continue
            budget, runs = (args.budget, args.runs) if backend == "c" else (0.0, args.python_runs)
            status = "" if not check or n == expected else f"  (expected {expected})"
            if n <= args.all_max:
                every = partial(movegen.generate, board, rack, lex, rules, placements_only=True, backend=backend)
                t_all, _ = timed(every, budget, runs)
                all_cols = f"{t_all * 1e6:>11,.0f} {n / t_all:>12,.0f}"
            else:
                all_cols = f"{'-':>11} {'-':>12}"
            count = partial(movegen.count_placements, board, rack, lex, rules, backend=backend)
            t_count, _ = timed(count, budget, runs)
            t_best, _ = timed(partial(movegen.best_move, board, rack, lex, rules, backend=backend), budget, runs)
            print(
                f"{name:<20} {backend:<7} {n:>7}  {all_cols}  "
                f"{t_count * 1e6:>10,.0f} {n / t_count:>13,.0f}  {t_best * 1e6:>10,.0f}{status}"
            )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description="Time lexiko's move generator (compiled kernel and pure-Python reference) "
        "on the positions of a TSV file (name, CGP, placements, top play, top score)."
    )
    p.add_argument("--positions", type=Path, default=DEFAULT_POSITIONS, help="TSV of positions (default: %(default)s)")
    p.add_argument("--lexicon", default="TWL06", help="lexicon name or word-list file (default: %(default)s)")
    p.add_argument("--budget", type=float, default=1.0, help="seconds per kernel measurement (default: %(default)s)")
    p.add_argument("--runs", type=int, default=200, help="most runs per kernel measurement (default: %(default)s)")
    p.add_argument("--python-runs", type=int, default=1, help="runs per reference measurement (default: %(default)s)")
    p.add_argument("--no-python", action="store_true", help="skip the pure-Python reference")
    p.add_argument(
        "--no-wordmap",
        action="store_true",
        help="best moves by the pruned GADDAG walk rather than the word map (movegen.WORDMAP)",
    )
    p.add_argument("--only", metavar="NAME", action="append", help="only this position (repeatable)")
    p.add_argument("--no-clabbers", action="store_true", help="skip the Clabbers table")
    p.add_argument("--clabbers-only", action="store_true", help="only the Clabbers table")
    p.add_argument(
        "--clabbers-python-max",
        type=int,
        default=150_000,
        help="time the reference in Clabbers only up to this many placements (default: %(default)s)",
    )
    p.add_argument(
        "--all-max",
        type=int,
        default=1_000_000,
        help="list every placement (a Python object each, hundreds of bytes) only up to this many; "
        "above, only count and best are timed (default: %(default)s)",
    )
    args = p.parse_args(argv)
    movegen.WORDMAP = not args.no_wordmap

    if not movegen.kernel_available():
        print("lexiko._kernel is not built: reinstall with a C compiler (pip install .)", file=sys.stderr)
        return 1
    lex = Lexicon.load(args.lexicon)
    rows = []
    for line in args.positions.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, text, count = line.split("\t")[:3]
        if args.only and name not in args.only:
            continue
        pos = cgp.parse(text)
        rows.append((name, pos.board, pos.board.tiles.parse(pos.racks[0]), int(count)))

    backends: list[movegen.Backend] = ["c"] if args.no_python else ["c", "python"]
    if not args.clabbers_only:
        print("classic (TWL06 words)")
        table(rows, lex, TOURNAMENT, backends, args, check=True)
    if not args.no_clabbers:
        if not args.clabbers_only:
            print()
        print("Clabbers (anagrams of TWL06 words), the same boards and racks")
        table(rows, lex, CLABBERS, backends, args, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
