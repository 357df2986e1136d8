"""How long a game review takes (`lexiko.review.review_game`): a 25-turn game of
../shared/gcg (or ``$LEXIKO_SHARED_DIR``; David Boys against Quackle, 2006, full racks) at the default depth, on
``--jobs`` worker processes (2 by default). Target: under 60 s on 2 cores.

    python benchmarks/review.py
    python benchmarks/review.py --jobs 1 --iterations 500 --game ../shared/gcg/macondo__vs_andy.gcg

Prints the wall time and CPU time, the turns by method, the play-outs run, the
players' accuracy, and the machine's load average before and after (the figures
depend on what else runs: repeat them).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import time
from pathlib import Path

from lexiko import gcg
from lexiko.lexicon import Lexicon
from lexiko.review import DEFAULT_DEPTH, review_game

SHARED = Path(os.environ.get("LEXIKO_SHARED_DIR") or Path(__file__).resolve().parents[2] / "shared")
GAME = SHARED / "gcg" / "quackle__boys2.gcg"


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    """Review the game once and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", type=Path, default=GAME, help="the GCG file to review")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    ap.add_argument("--iterations", type=int, default=DEFAULT_DEPTH.iterations, help="play-outs per move")
    ap.add_argument("--candidates", type=int, default=DEFAULT_DEPTH.candidates, help="moves simulated a turn")
    ap.add_argument("--lexicon", default=None, help="lexicon (default: the record's)")
    args = ap.parse_args()
    game = gcg.load(args.game)
    lexicon = Lexicon.load(args.lexicon or game.rules.lexicon, game.tiles)
    depth = dataclasses.replace(DEFAULT_DEPTH, iterations=args.iterations, candidates=args.candidates)
    load_before = os.getloadavg()
    cpu, start = _cpu(), time.perf_counter()
    review = review_game(game, lexicon, depth, jobs=args.jobs)
    wall, cpu = time.perf_counter() - start, _cpu() - cpu
    load_after = os.getloadavg()
    sims = [t for t in review.turns if t.method == "simulation"]
    playouts = sum(line.iterations for t in sims for line in t.top)
    print(
        f"game: {args.game.name}, {len(review.turns)} turns ({len(sims)} simulated, "
        f"{len(review.turns) - len(sims)} solved endgames)"
    )
    print(f"depth: {depth}")
    print(
        f"time: {wall:.1f} s wall, {cpu:.1f} s CPU on {args.jobs} worker(s); {playouts:,} play-outs "
        f"({playouts / wall:,.0f} a second)"
    )
    print(
        f"load average (1, 5, 15 min): before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
        f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}; {os.cpu_count()} CPUs"
    )
    for s in review.summaries:
        print(
            f"{s.name}: accuracy {s.accuracy}%, {s.inaccuracies} inaccuracies, {s.mistakes} mistakes, "
            f"{s.blunders} blunders"
        )


if __name__ == "__main__":
    main()
