"""Self-play speed and the static player's strength.

1. Games per second on one core (one process, no pool) for greedy against greedy and
   static against static, by wall clock and by processor time (the processor-time
   figure is the one to compare when other work shares the machine). Static against
   static is played in the kernel (lexiko.bots.playout); the same games with each turn
   through Game are timed too.
2. The static player (score + the shipped leave table) against the greedy one over
   --match games on --jobs workers: win rate with its 95% Wilson interval, mean scores.

Reference figures (design.md): the fastest C engine plays about 400 static games a
second on one core; trained leaves win about 65% against no leaves.

    python benchmarks/selfplay.py                       # 300 games a kind, 2,000-game match
    python benchmarks/selfplay.py --speed 100 --match 0 # speed only
    python benchmarks/selfplay.py --no-wordmap          # the static player by the GADDAG walk
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from lexiko import movegen
from lexiko.bots import StaticBot
from lexiko.lexicon import Lexicon
from lexiko.selfplay import Stats, autoplay, game_seed, play_game


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def speed_line(label: str, s: Stats) -> str:
    return (
        f"{label:<18} {s.games:>6} games  {s.games_per_second:6.1f} games/s wall  "
        f"{s.games_per_cpu_second:6.1f} games per CPU-second  {s.turns / max(1, s.games):.1f} turns a game"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Time lexiko's self-play and measure static against greedy.")
    p.add_argument("--speed", type=int, default=300, help="games per kind for the speed test (default: 300)")
    p.add_argument("--match", type=int, default=2000, help="games of static against greedy (default: 2000)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="workers for the match (default: all cores)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lexicon", default="TWL06")
    p.add_argument(
        "--no-wordmap",
        action="store_true",
        help="the static player's moves by the pruned GADDAG walk rather than the word map (movegen.WORDMAP)",
    )
    args = p.parse_args(argv)
    movegen.WORDMAP = not args.no_wordmap

    lexicon = Lexicon.load(args.lexicon)
    print(f"lexiko self-play benchmark, {args.lexicon}; {load()}")
    if args.speed:
        print("\none core (no pool):")
        for kinds in (["greedy", "greedy"], ["static", "static"]):
            autoplay(kinds, 5, seed=args.seed + 1, lexicon=lexicon)  # warm up: tables, caches
            s = autoplay(kinds, args.speed, seed=args.seed, lexicon=lexicon)
            print(speed_line(" vs ".join(kinds), s))
        # the same static games with each turn through Game (what autoplay does when
        # records are written or a seat is not a plain static player)
        bots = [StaticBot(lexicon, name="a"), StaticBot(lexicon, name="b")]
        t0 = time.process_time()
        turns = 0
        for i in range(args.speed):
            g = play_game(bots, seed=game_seed(args.seed, i), first_player=i % 2)
            turns += sum(1 for e in g.history if e.kind in ("play", "exchange", "pass"))
        cpu = time.process_time() - t0
        print(
            f"{'static, via Game':<18} {args.speed:>6} games  {'':>21}{args.speed / cpu:6.1f} games per CPU-second  "
            f"{turns / args.speed:.1f} turns a game"
        )
    if args.match:
        print(f"\nstatic against greedy, {args.match} games on {args.jobs} job(s), seats alternating:")
        s = autoplay(["static", "greedy"], args.match, jobs=args.jobs, seed=args.seed, lexicon=args.lexicon)
        print(s.summary())
        lo, hi = s.win_interval(0)
        print(f"static wins {s.win_rate(0):.1%} (95% CI {lo:.1%} to {hi:.1%}) of {s.games} games")
    print(f"\n{load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
