"""The time manager on a game clock: ``hard`` with a clock against ``hard`` at 1 s a move.

Each game is played in lexiko's ``Game`` (tournament rules, TWL06) with a clock of
``--minutes`` (25 by default, ``--increment`` seconds back after each move). The
clocked side is the ``hard`` level as shipped: in a game with a clock it asks the
time manager (`lexiko.bots.time_manager`) for each move's time and thinks that long
by the wall clock, the game's own clock charging it everything from the opponent's
move to its own. The other side is ``hard`` at 1 s a move (``iterations=5000,
time_limit=1``, the endgame and pre-endgame at the level's 5 s and 10 s), off the clock
(its moves charged nothing), as the strength benchmarks measure it. Each process
reads the lexicon and the leave table before its first game, off the clock. Games are paired:
each deal is played twice, each side starting once, so ``--games`` rounds up to even.

Printed: the clocked side's wins (ties count half) with the 95% Wilson interval, the
mean spread; its time used a game (min, median, max) and the least left on a clock at
a game's end; the time a move by phase; the moves that used the most time with
their budgets; the moves that ran past their budget by most; and the games lost on time
and the overtime penalties, which must be 0 (the exit status is 1 otherwise). Run it
with ``nice`` on a shared machine: the budgets are wall-clock time, so a busy machine
gives each move fewer play-outs, never more time.

    nice python benchmarks/time_manager.py --games 200 --jobs 2
    nice python benchmarks/time_manager.py --games 2                 # one deal, both ways
    nice python benchmarks/time_manager.py --games 20 --minutes 1    # a short clock: no flag
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from lexiko.bots import make_player
from lexiko.bots.simulation import SimulationBot
from lexiko.bots.static import resolve_leaves
from lexiko.game import Accept, Game
from lexiko.lexicon import Lexicon
from lexiko.rules import TOURNAMENT
from lexiko.selfplay import game_seed, wilson_interval

CLOCKED, TIMED = 0, 1  # seats: the clocked player is seat 0 (who starts alternates)


@dataclass(frozen=True)
class MoveRecord:
    """One move of the clocked side: the game, its turn, the bag, the budget, the time taken."""

    game: int
    turn: int
    bag: int
    budget: float | None
    used: float
    move: str


@dataclass(frozen=True)
class GameRecord:
    """What one game gave."""

    index: int
    spread: int  # the clocked side's final score less the other's
    won: float  # 1, 1/2 or 0 for the clocked side
    end: str
    lost_on_time: int | None
    penalties: int  # overtime points taken off the clocked side
    used: float  # seconds the clocked side's clock ran
    left: float  # seconds left on it at the end
    timed_used: float  # seconds the 1 s side thought, off the clock
    moves: tuple[MoveRecord, ...]


_LEX: Lexicon | None = None


def _lexicon() -> Lexicon:
    """TWL06 and the default leave table, read once a process before any clock starts
    (the first read of the table takes seconds, on a busy machine tens of them)."""
    global _LEX
    if _LEX is None:
        _LEX = Lexicon.load("TWL06")
        table = resolve_leaves(None, _LEX.tiles)
        assert table is not None
        table((1,))
    return _LEX


def play(index: int, seed: int, minutes: float, increment: float) -> GameRecord:
    """Game ``index`` of the run: deal ``index // 2``, the clocked side starting the even ones."""
    lex = _lexicon()
    rules = TOURNAMENT.replace(time_minutes=minutes, time_increment=increment)
    deal = game_seed(seed, index // 2, "time-manager")
    clocked = make_player("hard", lex, seed=deal % 2**31, name="clocked")
    timed = make_player("hard", lex, seed=deal % 2**31 + 1, name="1s", iterations=5000, time_limit=1.0, clock=False)
    assert isinstance(clocked, SimulationBot) and clocked.clock
    g = Game(["clocked", "1s"], rules, seed=deal, lexicon=None, first_player=index % 2)
    records: list[MoveRecord] = []
    timed_used = 0.0
    turn = 0
    while not g.is_over:
        if g.awaiting_final_challenge:
            g.apply(Accept(), player=g.player_on_turn)
            continue
        p = g.player_on_turn
        bag = g.bag_count
        if p == CLOCKED:
            move = clocked.choose(g)
            text = move.notation(g.tiles, g.board)
            event = g.apply(move, player=p)  # the game's clock charges the whole turn
            assert event is not None
            records.append(MoveRecord(index, turn, bag, clocked.last_budget, event.elapsed or 0.0, text))
        else:
            t = time.perf_counter()
            move = timed.choose(g)
            timed_used += time.perf_counter() - t
            g.apply(move, player=p, elapsed=0.0)  # off the clock
        turn += 1
    scores = g.scores
    winners = g.winners()
    won = 1.0 if winners == [CLOCKED] else 0.5 if CLOCKED in winners else 0.0
    penalties = -sum(e.score for e in g.history if e.kind == "time-penalty" and e.player == CLOCKED)
    left = g.time_left(CLOCKED)
    assert left is not None
    lost = g.lost_on_time if g.end_reason == "time" else None
    return GameRecord(
        index,
        scores[CLOCKED] - scores[TIMED],
        won,
        g.end_reason or "",
        lost,
        penalties,
        sum(r.used for r in records),
        left,
        timed_used,
        tuple(records),
    )


def phase(bag: int) -> str:
    """The phase of a move by the tiles in the bag."""
    return "endgame" if bag == 0 else "pre-endgame" if bag == 1 else "late (2-7)" if bag <= 7 else "mid-game"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games (paired deals; default 200)")
    ap.add_argument("--minutes", type=float, default=25.0, help="the clocked side's clock (default 25)")
    ap.add_argument("--increment", type=float, default=0.0, help="seconds back after each move (default 0)")
    ap.add_argument("--jobs", type=int, default=1, help="games at a time (default 1)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--top", type=int, default=8, help="moves listed by time used (default 8)")
    args = ap.parse_args(argv)
    games = args.games + args.games % 2
    print(f"hard on a {args.minutes:g}-minute clock (+{args.increment:g} s) against hard at 1 s a move, {games} games")
    print(f"start: {load()}", flush=True)
    start = time.perf_counter()
    results: list[GameRecord] = []
    todo = [(i, args.seed, args.minutes, args.increment) for i in range(games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(play, *t) for t in todo]
            for f in futures:
                results.append(f.result())
                _progress(results, games, start)
    else:
        for t in todo:
            results.append(play(*t))
            _progress(results, games, start)
    report(results, args.top)
    print(f"\nwall {time.perf_counter() - start:.0f} s; end: {load()}")
    flagged = sum(1 for r in results if r.lost_on_time == CLOCKED)
    return 1 if flagged or any(r.penalties for r in results) else 0


def _progress(results: list[GameRecord], games: int, start: float) -> None:
    r = results[-1]
    print(
        f"  game {r.index + 1:>3}/{games}: spread {r.spread:+4d}, clock used {r.used:7.1f} s, "
        f"left {r.left:6.1f} s, end {r.end}  [{len(results)} done, {time.perf_counter() - start:.0f} s]",
        flush=True,
    )


def report(results: list[GameRecord], top: int) -> None:
    """Print the figures of the games played."""
    n = len(results)
    won = sum(r.won for r in results)
    lo, hi = wilson_interval(won, n)
    spreads = [r.spread for r in results]
    print(f"\nclocked side: {won:g} of {n} games, {won / n:.1%} (95% CI {lo:.1%} to {hi:.1%})")
    sd = statistics.stdev(spreads) if n > 1 else 0.0
    print(f"mean spread {statistics.fmean(spreads):+.1f} a game (sd {sd:.1f})")
    used = sorted(r.used for r in results)
    print(
        f"clock used a game: min {used[0]:.1f} s, median {statistics.median(used):.1f} s, max {used[-1]:.1f} s; "
        f"least left at the end {min(r.left for r in results):.1f} s"
    )
    timed = [r.timed_used for r in results]
    moves = [m for r in results for m in r.moves]
    print(f"1 s side's thinking a game (off the clock): median {statistics.median(timed):.1f} s")
    print(f"clocked side: {len(moves)} moves, {sum(m.used for m in moves) / max(1, len(moves)):.2f} s a move")
    print(f"\n{'phase':<12} {'moves':>6} {'mean s':>7} {'max s':>7} {'quick':>6}")
    for name in ("mid-game", "late (2-7)", "pre-endgame", "endgame"):
        ms = [m for m in moves if phase(m.bag) == name]
        if ms:
            quick = sum(1 for m in ms if m.budget is not None and m.budget < 0.05)
            print(
                f"{name:<12} {len(ms):>6} {statistics.fmean(m.used for m in ms):7.2f} "
                f"{max(m.used for m in ms):7.2f} {quick:>6}"
            )
    print(f"\nthe {top} moves that used the most time:")
    print(f"{'game':>5} {'turn':>4} {'bag':>3} {'budget s':>9} {'used s':>7}  move")
    for m in sorted(moves, key=lambda m: -m.used)[:top]:
        b = f"{m.budget:9.2f}" if m.budget is not None else f"{'-':>9}"
        print(f"{m.game + 1:>5} {m.turn + 1:>4} {m.bag:>3} {b} {m.used:7.2f}  {m.move}")
    over = [(m.used - m.budget, m) for m in moves if m.budget is not None]
    over.sort(key=lambda x: -x[0])
    if over:
        worst = ", ".join(f"{d:+.2f} s ({m.budget:.2f} s given, {m.bag} in the bag)" for d, m in over[:3])
        print(f"\nmost over budget: {worst}")
    flagged = sum(1 for r in results if r.lost_on_time == CLOCKED)
    penalized = sum(1 for r in results if r.penalties)
    print(f"\nlost on time: {flagged}; games with an overtime penalty: {penalized}")
    print(f"the 1 s side lost on time: {sum(1 for r in results if r.lost_on_time == TIMED)} (off the clock: must be 0)")


if __name__ == "__main__":
    sys.exit(main())
