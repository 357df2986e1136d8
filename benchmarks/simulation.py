"""Simulation and endgame-solver speed, and the simulation player's strength.

Speed: simulation iterations per second (one iteration plays out every candidate)
on a few mid-game positions of real games (../shared/gcg), in this process and on a
process pool; the endgame solver's nodes per second on the first empty-bag position
of a few real games.

Strength (``--versus N``): N games of the simulation player against the static
player, who starts alternating, on ``--jobs`` processes; the simulation player's win
rate with its 95% Wilson interval.

    python benchmarks/simulation.py                     # speeds
    python benchmarks/simulation.py --versus 200 --jobs 2 --iterations 60

Timings depend on the machine and on what else runs on it: repeat them.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from lexiko import gcg
from lexiko.analysis import position_at_turn
from lexiko.bots.endgame import solve
from lexiko.bots.simulation import SimulationBot
from lexiko.game import Game
from lexiko.lexicon import Lexicon

GCG = Path(__file__).resolve().parents[2] / "shared" / "gcg"
SIM_POSITIONS = [
    ("liwords__every_e.gcg", 10),
    ("liwords__every_e.gcg", 16),
    ("MAGPIE-DATA__success_standard.gcg", 8),
    ("MAGPIE-DATA__success_long_game.gcg", 12),
]
ENDGAME_FILES = [
    "MAGPIE-DATA__out_in_many.gcg",
    "liwords__combined_high_scoring.gcg",
    "MAGPIE-DATA__no_challenge_rack_mid.gcg",
    "MAGPIE__six_pass.gcg",
    "MAGPIE-DATA__success_standard.gcg",
]


def first_empty_bag(path: Path) -> Game | None:
    """The game before the first move made with the bag empty (None if there is none)."""
    record = gcg.read(path)
    moves = [i for i, ev in enumerate(record.events) if ev.kind in ("play", "exchange", "pass")]
    for k, i in enumerate(moves, 1):
        cut = dataclasses.replace(record, events=record.events[:i], final_racks={}, final_rack_lines={})
        game = cut.replay()
        if game.bag_count == 0 and not game.is_over and len(game.players) == 2:
            return position_at_turn(path, k)
    return None


def bench_sim(lex: Lexicon, args: argparse.Namespace) -> None:
    print(f"simulation: {args.candidates} candidates, {args.plies} plies after each, {args.sim_iterations} iterations")
    print(f"{'position':<44} {'jobs':>4} {'seconds':>8} {'iter/s':>8} {'play-outs/s':>12}")
    for name, turn in SIM_POSITIONS:
        game = position_at_turn(GCG / name, turn)
        for jobs in sorted({1, args.jobs}):
            with SimulationBot(
                lex, candidates=args.candidates, iterations=args.sim_iterations, plies=args.plies, seed=1, jobs=jobs
            ) as bot:
                if jobs > 1:
                    bot.evaluate(game, iterations=jobs)  # start the pool outside the measurement
                t = time.perf_counter()
                res = bot.evaluate(game)
                dt = time.perf_counter() - t
            its = res[0].iterations
            label = f"{name[:-4]} turn {turn} (bag {game.bag_count})"
            print(f"{label:<44} {jobs:>4} {dt:>8.2f} {its / dt:>8.1f} {its * len(res) / dt:>12.0f}")


def bench_endgame(lex: Lexicon, args: argparse.Namespace) -> None:
    print(f"\nendgame solver (time limit {args.endgame_time} s per position)")
    print(f"{'position':<40} {'racks':<17} {'depth':>5} {'exact':>5} {'nodes':>9} {'seconds':>7} {'nodes/s':>9}")
    for name in ENDGAME_FILES:
        game = first_empty_bag(GCG / name)
        if game is None:
            continue
        p = game.player_on_turn
        res = solve(game, time_limit=args.endgame_time, lexicon=lex)
        racks = f"{game.rack_text(p)}/{game.tiles.format(game.unseen(p))}"
        rate = res.nodes / res.elapsed if res.elapsed else 0.0
        print(
            f"{name[:-4]:<40} {racks:<17} {res.depth:>5} {'yes' if res.complete else 'no':>5} "
            f"{res.nodes:>9,} {res.elapsed:>7.2f} {rate:>9,.0f}"
        )


def _versus_chunk(games: list[int], seed: int, iterations: int, candidates: int, plies: int) -> list[tuple[int, float]]:
    from lexiko.bots.static import StaticBot
    from lexiko.selfplay import game_seed, play_game

    lex = Lexicon.load("TWL06")
    out = []
    for i in games:
        sim = SimulationBot(
            lex, candidates=candidates, iterations=iterations, plies=plies, seed=game_seed(seed, i, "sim"), name="sim"
        )
        static = StaticBot(lex, name="static")
        game = play_game([sim, static], seed=game_seed(seed, i), first_player=i % 2)
        winners = game.winners()
        out.append((game.scores[0] - game.scores[1], (1.0 if winners == [0] else 0.5 if len(winners) > 1 else 0.0)))
    return out


def versus(args: argparse.Namespace) -> None:
    from lexiko.selfplay import wilson_interval

    n = args.versus
    chunks = [list(range(i, min(n, i + 2))) for i in range(0, n, 2)]
    results: list[tuple[int, float]] = []
    t = time.perf_counter()
    with ProcessPoolExecutor(max(1, args.jobs)) as ex:
        futures = [ex.submit(_versus_chunk, c, args.seed, args.iterations, args.candidates, args.plies) for c in chunks]
        for f in as_completed(futures):
            results.extend(f.result())
            if len(results) % 20 == 0:
                wins = sum(w for _, w in results)
                print(f"  {len(results)} games: sim {wins / len(results):.3f}", file=sys.stderr, flush=True)
    dt = time.perf_counter() - t
    wins = sum(w for _, w in results)
    lo, hi = wilson_interval(wins, len(results))
    spread = sum(s for s, _ in results) / len(results)
    print(
        f"sim ({args.candidates} candidates, {args.iterations} iterations, {args.plies} plies) vs static: "
        f"{len(results)} games, sim wins {wins / len(results):.3f} (95% {lo:.3f}-{hi:.3f}), "
        f"mean spread {spread:+.1f}, {dt:.0f} s on {args.jobs} processes"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="processes (default: %(default)s)")
    p.add_argument("--candidates", type=int, default=10, help="candidates simulated (default: %(default)s)")
    p.add_argument("--plies", type=int, default=2, help="plies after each candidate (default: %(default)s)")
    p.add_argument("--sim-iterations", type=int, default=100, help="iterations per speed run (default: %(default)s)")
    p.add_argument("--endgame-time", type=float, default=5.0, help="seconds per endgame (default: %(default)s)")
    p.add_argument("--versus", type=int, default=0, metavar="N", help="play N games sim against static")
    p.add_argument("--iterations", type=int, default=60, help="iterations per move in --versus (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of --versus (default: %(default)s)")
    p.add_argument("--no-speed", action="store_true", help="skip the speed measurements")
    args = p.parse_args(argv)
    lex = Lexicon.load("TWL06")
    if not args.no_speed:
        bench_sim(lex, args)
        bench_endgame(lex, args)
    if args.versus:
        versus(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
