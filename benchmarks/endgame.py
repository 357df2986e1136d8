"""The endgame solver on every bag-empty position of the shared games.

For each game of ``../shared/gcg`` (or ``$LEXIKO_SHARED_DIR/gcg``; two players), every turn played with the bag empty
(``--first`` only the first such turn of each game) is solved from the record's
position with a time limit: whether the answer is exact, the depth reached, the nodes
searched and the time. The summary gives how many were solved exactly and the median
and worst times of those.

    python benchmarks/endgame.py                      # every position, 60 s each, 2 processes
    python benchmarks/endgame.py --first --limit 10   # the first of each game, 10 s each
    python benchmarks/endgame.py --backend python     # the Python search (the reference)
    python benchmarks/endgame.py --first --limit 1500 --only round_2 --only r18_jen   # two games, longer

Times are wall-clock seconds per position on one process each, which other work on
the machine slows (the time limit is wall-clock too), and the processor seconds the
solve took (``cpu``), which it slows much less.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from lexiko import gcg
from lexiko.analysis import position_at_turn
from lexiko.bots.endgame import solve_position
from lexiko.errors import LexikoError
from lexiko.game import Game
from lexiko.lexicon import Lexicon

SHARED = Path(os.environ.get("LEXIKO_SHARED_DIR") or Path(__file__).resolve().parents[2] / "shared")
GCG = SHARED / "gcg"

Row = tuple[str, int, str, int, bool, int, float, int, float]
"""file, turn, racks, depth, exact, nodes, seconds, value, processor seconds."""


def empty_bag_turns(path: Path, first: bool) -> list[int]:
    """The turns (moves counted from 1) made with the bag empty in a two-player game."""
    record = gcg.read(path)
    if len(record.players) != 2:
        return []
    moves = [i for i, ev in enumerate(record.events) if ev.kind in ("play", "exchange", "pass")]
    out = []
    for k, i in enumerate(moves, 1):
        cut = dataclasses.replace(record, events=record.events[:i], final_racks={}, final_rack_lines={})
        try:
            game = cut.replay()
        except LexikoError:
            break
        if game.bag_count == 0 and not game.is_over and not game.awaiting_final_challenge:
            out.append(k)
            if first:
                break
    return out


_LEX: dict[str, Lexicon] = {}


def endgame_at(path: str, turn: int) -> tuple[Game, Lexicon] | None:
    """The game at ``turn`` of the record and its lexicon, or None when the record does
    not show the rack on turn or lexiko does not ship the lexicon (CSW21). The endgame
    is the rack on turn against every tile unseen by its player: a replay may have dealt
    that player more tiles than the record shows, which then sit in the bag."""
    try:
        game: Game = position_at_turn(path, turn)
    except LexikoError:
        return None
    lex = _LEX.get(game.rules.lexicon)
    if lex is None:
        try:
            lex = _LEX[game.rules.lexicon] = Lexicon.load(game.rules.lexicon, game.rules.tile_set)
        except LexikoError:
            return None
    return game, lex


def solve_one(path: str, turn: int, limit: float, backend: str) -> Row | None:
    found = endgame_at(path, turn)
    if found is None:
        return None
    game, lex = found
    p = game.player_on_turn
    cpu = time.process_time()
    res = solve_position(
        game.board,
        (game.rack(p), game.unseen(p)),
        lex,
        game.rules,
        scores=(game.scores[p], game.scores[1 - p]),
        scoreless_turns=game.scoreless_turns,
        time_limit=limit,
        backend=backend,  # type: ignore[arg-type]
    )
    cpu = time.process_time() - cpu
    racks = f"{game.rack_text(p)}/{game.tiles.format(game.unseen(p))}"
    return (Path(path).stem, turn, racks, res.depth, res.complete, res.nodes, res.elapsed, res.value, cpu)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Solve every bag-empty position of the shared games.")
    p.add_argument("--limit", type=float, default=60.0, help="seconds per position (default: %(default)s)")
    p.add_argument("--first", action="store_true", help="only the first bag-empty turn of each game")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="processes (default: %(default)s)")
    p.add_argument("--backend", choices=["auto", "c", "python"], default="auto")
    p.add_argument(
        "--games",
        type=Path,
        default=GCG,
        help="folder of .gcg files (default: $LEXIKO_SHARED_DIR/gcg or ../shared/gcg)",
    )
    p.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="TEXT",
        help="only the games whose file name holds TEXT (repeat for more)",
    )
    args = p.parse_args(argv)
    files = sorted(f for f in args.games.glob("*.gcg") if not args.only or any(t in f.name for t in args.only))
    if not files:
        which = f" whose name holds {' or '.join(map(repr, args.only))}" if args.only else ""
        print(f"no .gcg files{which} in {args.games}", file=sys.stderr)
        return 1
    tasks = [(str(f), t) for f in files for t in empty_bag_turns(f, args.first)]
    print(f"{len(tasks)} bag-empty positions in {len(files)} games; {args.limit} s each, {args.jobs} process(es)")
    print(
        f"{'game':<44} {'turn':>4} {'racks':<17} {'depth':>5} {'exact':>5} {'nodes':>11} "
        f"{'seconds':>8} {'value':>6} {'cpu':>8}"
    )
    rows: list[Row] = []
    skipped = 0
    with ProcessPoolExecutor(args.jobs) as ex:
        futures = [ex.submit(solve_one, f, t, args.limit, args.backend) for f, t in tasks]
        for fut in as_completed(futures):
            row = fut.result()
            if row is None:
                skipped += 1
                continue
            rows.append(row)
            name, turn, racks, depth, exact, nodes, secs, value, cpu = row
            print(
                f"{name[:44]:<44} {turn:>4} {racks:<17} {depth:>5} {'yes' if exact else 'no':>5} "
                f"{nodes:>11,} {secs:>8.2f} {value:>6} {cpu:>8.2f}",
                flush=True,
            )
    solved = [r for r in rows if r[4]]
    times = sorted(r[6] for r in solved)
    print(f"\nsolved exactly: {len(solved)} of {len(rows)} positions (limit {args.limit} s)")
    if skipped:
        print(f"skipped {skipped}: the record does not show the rack on turn, or its lexicon is not shipped (CSW21)")
    if times:
        print(f"time of the exact ones: median {statistics.median(times):.3f} s, worst {times[-1]:.2f} s")
        cpus = sorted(r[8] for r in solved)
        print(f"processor time of the exact ones: median {statistics.median(cpus):.3f} s, worst {cpus[-1]:.2f} s")
    slow = [r for r in rows if not r[4]]
    if slow:
        print("not exact within the limit: " + ", ".join(f"{r[0]} turn {r[1]} ({r[2]})" for r in slow))
    return 0


if __name__ == "__main__":
    sys.exit(main())
