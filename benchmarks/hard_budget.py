"""Whether the ``hard`` player's time limits hold against two blanks.

The endgame of tests/test_endgame.py's BLANKS (the opponent holds both blanks: every
play-out generates thousands of plays a turn) solved with a few time limits, and the
pre-endgame of tests/test_preendgame.py's BLANKS (one tile in the bag, five letters it
may be) at the ``hard`` level's settings (10 candidates, 10 s): the CPU seconds each
took against the time given, the depth reached and, for the pre-endgame, the splits
played and the endgames solved exactly.

    python benchmarks/hard_budget.py
    python benchmarks/hard_budget.py --preendgame-time 2 --candidates 3
"""

from __future__ import annotations

import argparse
import time

from lexiko import cgp
from lexiko.bots.endgame import solve_position
from lexiko.bots.preendgame import preendgame
from lexiko.bots.static import resolve_leaves
from lexiko.lexicon import Lexicon

BOARD = (
    "15/15/11XU2/7GODWIT2/4R2R6Z/4ACCORDS2MA/HA2M2K2T2OY/UP1JIVES2I2BI/EH2F5L3N/1O1AY2LEALTIES/"
    "ON1R6E4/PILOTAGE1VROUW1/TA1U11/ES1N1FON{}/D2DIENE7"
)
ENDGAME = BOARD.format("T6") + " ABEGNQR/AEEII?? 383/310 0 lex TWL06;"
PREENDGAME = BOARD.format("7") + " ABEGNQR/AEEII?? 383/310 0 lex TWL06;"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limits", type=float, nargs="*", default=[0.01, 0.114, 0.5, 2.0])
    ap.add_argument("--preendgame-time", type=float, default=10.0)
    ap.add_argument("--candidates", type=int, default=10)
    args = ap.parse_args()
    lex = Lexicon.load("TWL06")
    read = resolve_leaves(None, lex.tiles)
    assert read is not None
    read((1,))  # the leave table read before the clocks start
    g = cgp.to_game(cgp.parse(ENDGAME), lexicon=lex, seed=0)
    print("endgame, the opponent holding both blanks")
    print(f"{'limit s':>8} {'CPU s':>7} {'depth':>5} {'exact':>5} {'nodes':>7}  best")
    for limit in args.limits:
        t = time.process_time()
        r = solve_position(g.board, (g.rack(0), g.unseen(0)), lex, g.rules, time_limit=limit)
        cpu = time.process_time() - t
        print(f"{limit:8.3f} {cpu:7.3f} {r.depth:5} {r.complete!s:>5} {r.nodes:7}  {r.notations()[0]}")
    g = cgp.to_game(cgp.parse(PREENDGAME), lexicon=lex, seed=0)
    print(f"\npre-endgame, one tile in the bag, {args.candidates} candidates, {args.preendgame_time} s")
    t = time.process_time()
    res = preendgame(g, lex, candidates=args.candidates, time_limit=args.preendgame_time, endgame_time=None)
    print(f"CPU {time.process_time() - t:.2f} s")
    print(f"{'move':<14} {'won':>5} {'spread':>7} {'splits':>6} {'exact':>5}")
    for x in res:
        move = x.candidate.move.notation(g.tiles, g.board)
        print(f"{move:<14} {x.wins:5.3f} {x.spread:7.1f} {x.scenarios:6} {x.exact:5}")


if __name__ == "__main__":
    main()
