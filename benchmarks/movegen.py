"""Move generator speed on the positions of ../shared/positions/movegen-twl06.tsv.

For each position: microseconds per position and moves per second for generating every
placement (``generate(..., placements_only=True)``, Python objects included), for
counting them (``count_placements``: the kernel alone, no object per move) and for the
best move (``best_move``), with the compiled kernel and the pure-Python reference (the
reference once by default: it is 25 to 50 times slower).

    python benchmarks/movegen.py                 # both generators
    python benchmarks/movegen.py --no-python     # the kernel only
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from lexiko import cgp, movegen
from lexiko.lexicon import Lexicon

DEFAULT_POSITIONS = Path(__file__).resolve().parents[2] / "shared" / "positions" / "movegen-twl06.tsv"


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
    p.add_argument("--only", metavar="NAME", action="append", help="only this position (repeatable)")
    args = p.parse_args(argv)

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

    gc.collect()
    head = (
        f"{'position':<20} {'backend':<7} {'moves':>7}  {'all µs':>11} {'all moves/s':>12}  "
        f"{'count µs':>10} {'count moves/s':>13}  {'best µs':>10}"
    )
    print(head)
    print("-" * len(head))
    backends: list[movegen.Backend] = ["c"] if args.no_python else ["c", "python"]
    for name, board, rack, expected in rows:
        for backend in backends:
            budget, runs = (args.budget, args.runs) if backend == "c" else (0.0, args.python_runs)
            n = len(movegen.generate(board, rack, lex, placements_only=True, backend=backend))
            status = "" if n == expected else f"  (expected {expected})"
            every = partial(movegen.generate, board, rack, lex, placements_only=True, backend=backend)
            t_all, _ = timed(every, budget, runs)
            t_count, _ = timed(partial(movegen.count_placements, board, rack, lex, backend=backend), budget, runs)
            t_best, _ = timed(partial(movegen.best_move, board, rack, lex, backend=backend), budget, runs)
            print(
                f"{name:<20} {backend:<7} {n:>7}  {t_all * 1e6:>11,.0f} {n / t_all:>12,.0f}  "
                f"{t_count * 1e6:>10,.0f} {n / t_count:>13,.0f}  {t_best * 1e6:>10,.0f}{status}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
