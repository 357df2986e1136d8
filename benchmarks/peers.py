"""lexiko side by side with MAGPIE, a C engine, built from its public source by the user.

Give the folder of a MAGPIE checkout that is built (``bin/magpie``) and has its data
(``data/lexica/TWL06.kwg`` and ``TWL06.klv2``, ``data/layouts``,
``data/letterdistributions``, ``data/strategy/winpct.csv``; a word map
``data/lexica/TWL06.wmp`` is optional: ``bin/magpie convert dawg2text TWL06`` then
``bin/magpie convert text2wordmap TWL06``). Both engines run on one thread, in turn, on
the same work; the figures are processor seconds of whole processes (start-up included)
for self-play, and each engine's own timing for the searches.

1. Static self-play: ``--games`` games of the static player against itself (lexiko with
   its own leaves, MAGPIE with its TWL06 leaves), with and without MAGPIE's word map.
2. Simulation: 10 candidates, 2 plies, on the mid-game positions of
   ``benchmarks/simulation.py``; play-outs (one candidate played out once) per processor
   second, both engines' start-up left out (MAGPIE's by the difference of two runs).
3. Endgames: the first bag-empty position of each shared TWL06 game (the rack on turn
   against every tile its player has not seen), solved exactly under ``--endgame-limit``
   seconds each. MAGPIE searches ``-eplies 25`` with no time limit of its own (its limit
   stops deepening early when it predicts the next depth will not fit) and is stopped
   15 s (its start-up) after the limit; it is exact when it finished all 25 plies within
   the limit by its own clock.

    python benchmarks/peers.py --magpie ~/src/MAGPIE
    python benchmarks/peers.py --magpie ~/src/MAGPIE --games 2000 --skip endgame

Nothing of MAGPIE is part of lexiko: this script only starts the program the user built.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from lexiko import cgp
from lexiko.analysis import position_at_turn
from lexiko.bots.endgame import solve_position
from lexiko.bots.simulation import simulate
from lexiko.lexicon import Lexicon

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from endgame import GCG, empty_bag_turns, endgame_at  # noqa: E402
from simulation import SIM_POSITIONS  # noqa: E402


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], cwd: Path | None = None) -> tuple[float, str]:
    """Processor seconds of the command (and its children) and what it printed."""
    before = child_cpu()
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{' '.join(cmd[:3])} ... failed ({out.returncode}): {out.stderr.strip()[-400:]}")
    return child_cpu() - before, out.stdout + out.stderr


def magpie(
    root: Path, command: str, position: str | None, settings: list[str], stdin: str = "", timeout: float | None = None
) -> str:
    """Run one MAGPIE command (after loading a CGP position when given) and return its
    output, or nothing when it runs past ``timeout`` seconds (it is then killed)."""
    args = [str(root / "bin" / "magpie")]
    args += ["cgp", *position.split()] if position else []
    args += ["-mode", "sync", "-savesettings", "false", *settings]
    if position:
        stdin = command + "\n"  # the position is loaded first, then the command read
    else:
        args = args[:1] + command.split() + args[1:]
    try:
        text = subprocess.run(args, cwd=root, input=stdin, capture_output=True, text=True, check=False, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ""
    return text.stdout + text.stderr


def magpie_cgp(game_cgp: str, both_racks: bool) -> str:
    """A lexiko CGP line as MAGPIE's cgp command takes it (board, racks, scores, zeros)."""
    board, racks, scores, zeros = game_cgp.split()[:4]
    if not both_racks:
        racks = racks.split("/")[0] + "/"
    return f"{board} {racks} {scores} {zeros}"


def self_play(args: argparse.Namespace) -> None:
    n = args.games
    print(f"\n1. static self-play, {n} games, one thread (processor seconds, median of {args.repeat})")
    lexiko_cmd = [
        sys.executable,
        "-c",
        "import sys; from lexiko.cli import main; sys.exit(main())",
        "autoplay",
        "--players",
        "static,static",
        "--games",
        str(n),
        "--jobs",
        "1",
    ]
    runs: dict[str, list[float]] = {"lexiko": [], "MAGPIE (word map)": [], "MAGPIE (KWG only)": []}
    has_wmp = (args.magpie / "data" / "lexica" / "TWL06.wmp").exists()
    for _ in range(args.repeat):
        runs["lexiko"].append(timed(lexiko_cmd)[0])
        for label, wmp in (("MAGPIE (word map)", "true"), ("MAGPIE (KWG only)", "false")):
            if wmp == "true" and not has_wmp:
                continue
            cmd = [
                str(args.magpie / "bin" / "magpie"),
                "autoplay",
                "games",
                str(n),
                "-lex",
                "TWL06",
                "-threads",
                "1",
                "-seed",
                "0",
                "-wmp",
                wmp,
                "-savesettings",
                "false",
            ]
            runs[label].append(timed(cmd, cwd=args.magpie)[0])
    base = statistics.median(runs["lexiko"])
    for label, xs in runs.items():
        if xs:
            med = statistics.median(xs)
            ratio = base / med
            print(f"   {label:<20} {med:7.2f} s  {n / med:7.1f} games/CPU-s  time ratio lexiko/this {ratio:5.2f}")


def magpie_sim_rate(args: argparse.Namespace, position: str, iterations: int) -> float:
    """MAGPIE's simulation play-outs per processor second on one thread: two runs, of 10 and
    of ``iterations`` iterations, and the difference of their processor seconds (so its
    start-up, loading the lexicon and word map, is not counted; its own printed time is
    wall-clock, which a busy machine inflates)."""
    done, cpu = [], []
    for n in (10, iterations):
        before = child_cpu()
        text = magpie(
            args.magpie,
            "gsim",
            position,
            [
                "-lex",
                "TWL06",
                "-threads",
                "1",
                "-plies",
                "2",
                "-numplays",
                "10",
                "-sr",
                "rr",
                "-seed",
                "1",
                "-iterations",
                str(n),
                "-threshold",
                "none",
            ],
        )
        cpu.append(child_cpu() - before)
        m = re.search(r"Iters:\s+(\d+)", text)
        done.append(int(m.group(1)) if m else 0)
    return (done[1] - done[0]) / (cpu[1] - cpu[0]) if cpu[1] > cpu[0] and done[1] > done[0] else float("nan")


def simulation(args: argparse.Namespace, lex: Lexicon) -> None:
    print("\n2. simulation: 10 candidates, 2 plies, one thread (play-outs per processor second, start-up left out)")
    for name, turn in SIM_POSITIONS:
        g = position_at_turn(GCG / name, turn)
        if g.rules.lexicon.upper() not in ("TWL06", "CSW21"):
            continue
        pos = g.position()
        simulate(pos, lex, candidates=10, iterations=10, plies=2, seed=1)  # warm up
        t = time.process_time()
        res = simulate(pos, lex, candidates=10, iterations=args.sim_iterations, plies=2, seed=1)
        ours = sum(r.iterations for r in res) / (time.process_time() - t)
        theirs = magpie_sim_rate(args, magpie_cgp(cgp.dumps(cgp.from_game(g)), False), 40 * args.sim_iterations)
        label = f"{name[:-4]} turn {turn}"
        print(f"   {label:<46} lexiko {ours:8.0f}   MAGPIE {theirs:8.0f}   ratio {ours / theirs:5.2f}")


def endgame_pair(magpie_root: str, path: str, turn: int, limit: float) -> tuple[str, float, bool, float, bool] | None:
    """One bag-empty position solved by both engines in turn: the rack on turn against
    every tile its player has not seen (as ``benchmarks/endgame.py`` solves it), lexiko
    by ``solve_position`` and MAGPIE by its ``endgame`` command on the same CGP.
    Returns (game, lexiko seconds, exact, MAGPIE seconds, exact), or None when the
    record does not show the rack on turn or the lexicon is not TWL06."""
    found = endgame_at(path, turn)
    if found is None or found[0].rules.lexicon.upper() != "TWL06":
        return None
    g, lex = found
    p = g.player_on_turn
    res = solve_position(
        g.board,
        (g.rack(p), g.unseen(p)),
        lex,
        g.rules,
        scores=(g.scores[p], g.scores[1 - p]),
        scoreless_turns=g.scoreless_turns,
        time_limit=limit,
    )
    racks = (g.tiles.format(g.tiles.rack_sort(g.rack(p))), g.tiles.format(g.tiles.rack_sort(g.unseen(p))))
    position = cgp.dumps(cgp.CGP(g.board, racks, (g.scores[p], g.scores[1 - p]), g.scoreless_turns, {}))
    text = magpie(
        Path(magpie_root),
        "endgame",
        position,
        ["-lex", "TWL06", "-threads", "1", "-eplies", "25", "-ttfraction", "0.05"],
        timeout=limit + 15,
    )
    m = re.search(r"Endgame \(depth: (\d+), time: ([\d.]+)s, status: finished\)", text)
    their_time = float(m.group(2)) if m else float("nan")
    their_exact = m is not None and int(m.group(1)) >= 25 and their_time <= limit
    return Path(path).stem, res.elapsed, res.complete, their_time, their_exact


def endgames(args: argparse.Namespace) -> None:
    limit = args.endgame_limit
    print(
        f"\n3. endgames: the first bag-empty position of each TWL06 game, {limit} s each, one thread per engine,"
        f" {args.jobs} position(s) at a time"
    )
    ours: list[float] = []
    theirs: list[float] = []
    both = 0
    tasks = [(str(path), turn) for path in sorted(GCG.glob("*.gcg")) for turn in empty_bag_turns(path, True)]
    with ProcessPoolExecutor(args.jobs) as ex:
        futures = [ex.submit(endgame_pair, str(args.magpie), path, turn, limit) for path, turn in tasks]
        for fut in as_completed(futures):
            row = fut.result()
            if row is None:
                continue
            name, our_time, our_exact, their_time, their_exact = row
            if our_exact:
                ours.append(our_time)
            if their_exact:
                theirs.append(their_time)
            both += our_exact and their_exact
            print(
                f"   {name[:44]:<44} lexiko {our_time:7.2f} s {'exact' if our_exact else 'not exact':<9}"
                f"  MAGPIE {their_time:7.2f} s {'exact' if their_exact else 'not exact'}",
                flush=True,
            )
    for label, xs in (("lexiko", ours), ("MAGPIE", theirs)):
        if xs:
            print(f"   {label}: {len(xs)} exact, median {statistics.median(xs):.2f} s, worst {max(xs):.2f} s")
    print(f"   exact by both: {both}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Time lexiko and MAGPIE side by side on the same work.")
    p.add_argument("--magpie", type=Path, required=True, help="a built MAGPIE checkout (bin/magpie, data/)")
    p.add_argument("--games", type=int, default=1000, help="self-play games per run (default: %(default)s)")
    p.add_argument("--repeat", type=int, default=3, help="self-play runs per engine (default: %(default)s)")
    p.add_argument("--sim-iterations", type=int, default=500, help="lexiko's iterations per position")
    p.add_argument("--endgame-limit", type=float, default=60.0, help="seconds per endgame (default: %(default)s)")
    p.add_argument("--jobs", type=int, default=1, help="endgame positions solved at a time (default: %(default)s)")
    p.add_argument("--skip", action="append", default=[], choices=["selfplay", "simulation", "endgame"])
    args = p.parse_args(argv)
    if not (args.magpie / "bin" / "magpie").exists():
        print(
            f"{args.magpie}/bin/magpie not found: build MAGPIE there first (make magpie BUILD=release)", file=sys.stderr
        )
        return 2
    print(f"lexiko and MAGPIE ({args.magpie}); load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    lex = Lexicon.load("TWL06")
    if "selfplay" not in args.skip:
        self_play(args)
    if "simulation" not in args.skip:
        simulation(args, lex)
    if "endgame" not in args.skip:
        endgames(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
