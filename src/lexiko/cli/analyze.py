"""``lexiko analyze``: the best moves of a position (by equity, or simulated), the
review of a game, its pre-endgame or its endgame, on `lexiko.analysis`."""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from lexiko.analysis import AnalysisRow, TurnReview, analyze_position, review
from lexiko.bots.simulation import RANKS
from lexiko.bots.static import LeavesArg
from lexiko.cli import endgame
from lexiko.cli.argtypes import positive_float, positive_int
from lexiko.cli.options import add_executor_options
from lexiko.cli.positions import (
    add_position_options,
    game_from_args,
    leaves_from_args,
    lexicon_for,
    show_header,
    signed,
)
from lexiko.cli.progress import WorkProgress
from lexiko.errors import LexikoError
from lexiko.executors import make_executor
from lexiko.game import Game
from lexiko.lexicon import Lexicon

__all__ = ["add_parser", "run", "review_table", "PREENDGAME_ENDGAME_SECONDS"]

PREENDGAME_ENDGAME_SECONDS = 1.0
"""Seconds ``lexiko analyze --preendgame`` gives each endgame it reaches, by default."""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``analyze`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> a = p.parse_args(["analyze", "game.gcg", "--turn", "12", "--sim"])
    >>> a.turn, a.sim, a.iterations, a.top
    (12, True, 200, 10)
    """
    a: argparse.ArgumentParser = subparsers.add_parser(
        "analyze",
        help="best moves of a position, or a review of a game",
        description="List the best moves of a position (from a GCG record, a CGP line, or a board and a rack) "
        "by equity (score plus leave value), optionally simulated; review every move of a game; or solve "
        "the endgame when the bag is empty.",
        epilog="examples:\n"
        "  lexiko analyze game.gcg --turn 12 --top 15\n"
        "  lexiko analyze game.gcg --turn 12 --sim --iterations 400 --jobs 4\n"
        "  lexiko analyze --cgp '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0'\n"
        "  lexiko analyze --board-gcg game.gcg --rack AEINST?\n"
        "  lexiko analyze game.gcg --review\n"
        "  lexiko analyze game.gcg --turn 40 --endgame\n"
        "  lexiko analyze game.gcg --turn 38 --preendgame --top 6",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_position_options(a)
    a.add_argument("--top", type=positive_int, default=10, metavar="N", help="moves to list (default: 10)")
    a.add_argument("--sort", choices=["equity", "score"], default="equity", help="order of the list (default: equity)")
    a.add_argument("--sim", action="store_true", help="simulate the top moves")
    a.add_argument(
        "--iterations", type=positive_int, default=200, metavar="N", help="play-outs per move (default: 200)"
    )
    a.add_argument("--plies", type=positive_int, default=2, help="turns played out after each move (default: 2)")
    a.add_argument(
        "--infer",
        action="store_true",
        help="with --sim: deal the opponent tiles that explain their last play (what they may have kept)",
    )
    a.add_argument(
        "--prune",
        type=positive_float,
        metavar="Z",
        help="with --sim: drop a move once the leader is Z standard errors ahead of it on the same "
        "play-outs, and stop when one is left (3 is a safe choice)",
    )
    a.add_argument(
        "--rank",
        choices=RANKS,
        default="value",
        help="with --sim: order the moves by simulated value (spread and leave) or by win rate (default: value)",
    )
    a.add_argument("--jobs", type=positive_int, default=1, metavar="J", help="worker processes for --sim (default: 1)")
    add_executor_options(a)
    a.add_argument("--seed", type=int, help="seed of the simulation, to repeat it")
    a.add_argument("--leaves", metavar="FILE", help="leave table file, or 'none' for the score alone")
    a.add_argument("--review", action="store_true", help="review every move of the game in FILE.gcg")
    a.add_argument(
        "--plot",
        metavar="FILE",
        help="with --review: draw the spread and the equity lost turn by turn "
        "into FILE (.png, .svg or .pdf; needs matplotlib: pip install 'lexiko[plot]')",
    )
    a.add_argument("--endgame", action="store_true", help="solve the endgame (the bag must be empty)")
    a.add_argument(
        "--preendgame",
        action="store_true",
        help="play the --top placements and the pass in every split of the unseen tiles into the "
        "opponent's rack and the bag, to the end (two players, 1 to 7 tiles in the bag): the share "
        "of splits each wins",
    )
    a.add_argument(
        "--endgame-time",
        type=positive_float,
        metavar="S",
        help=f"with --preendgame: seconds for each endgame reached (default: {PREENDGAME_ENDGAME_SECONDS:g})",
    )
    a.add_argument(
        "--time-limit", type=positive_float, metavar="S", help="seconds for --endgame, --sim or --preendgame"
    )
    a.add_argument("--max-depth", type=positive_int, metavar="D", help="plies for --endgame")
    a.set_defaults(func=run)
    return a


def run(args: argparse.Namespace, console: Console) -> int:
    """The table of best moves, a review, a pre-endgame or an endgame."""
    if args.plot and not args.review:
        raise LexikoError("--plot draws a game's review: add --review")
    if args.endgame_time is not None and not args.preendgame:
        raise LexikoError("--endgame-time is the time of each endgame of --preendgame: give --preendgame too")
    if args.review:
        return _review(args, console)
    if args.endgame:
        return endgame.run(args, console)
    if args.preendgame:
        return _preendgame(args, console)
    if args.top < 1:
        raise LexikoError("--top must be at least 1")
    if args.iterations < 1:
        raise LexikoError("--iterations must be at least 1")
    if args.prune is not None and not args.sim:
        raise LexikoError("--prune stops a simulation early: give --sim too")
    if args.infer and not args.sim:
        raise LexikoError("--infer deals the simulation's racks: give --sim too")
    if args.rank != "value" and not args.sim:
        raise LexikoError("--rank orders simulated moves: give --sim too")
    game = game_from_args(args)
    if game.is_over:
        raise LexikoError("the game is over: give --turn K for a position, or --review")
    lexicon = lexicon_for(args, game, console)
    leaves = leaves_from_args(args, game.tiles)
    show_header(game, console, not args.no_board)
    rows = _analyze_with_progress(game, lexicon, leaves, args, console)
    console.print(_table(rows, args.sim))
    return 0


def _analyze_with_progress(
    game: Game, lexicon: Lexicon, leaves: LeavesArg, args: argparse.Namespace, console: Console
) -> list[AnalysisRow]:
    if not args.sim:
        return analyze_position(game, lexicon, top=args.top, leaves=leaves, sort=args.sort)
    with WorkProgress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("simulating", total=args.iterations)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        executor, release = make_executor(args.executor, args.address, max(1, args.jobs))
        try:
            return analyze_position(
                game,
                lexicon,
                top=args.top,
                leaves=leaves,
                simulate=True,
                iterations=args.iterations,
                plies=args.plies,
                jobs=max(1, args.jobs),
                executor=executor,
                seed=args.seed,
                time_limit=args.time_limit,
                progress=progress,
                prune=args.prune,
                infer=args.infer,
                rank=args.rank,
            )
        finally:
            if release is not None:
                release()


def _table(rows: Sequence[AnalysisRow], simulated: bool) -> Table:
    t = Table(show_header=True, header_style="bold", box=None)
    t.add_column("#", justify="right", style="dim")
    t.add_column("move", no_wrap=True)
    t.add_column("score", justify="right")
    t.add_column("leave")
    t.add_column("leave value", justify="right")
    t.add_column("equity", justify="right")
    if simulated:
        t.add_column("sim value", justify="right")
        t.add_column("±", justify="right", style="dim")
        t.add_column("win %", justify="right")
        t.add_column("iters", justify="right", style="dim")
    for i, r in enumerate(rows, 1):
        cells = [str(i), r.notation, str(r.score), r.leave or "-", signed(r.leave_value), f"{r.equity:.1f}"]
        if simulated:
            err = (r.sim_stdev or 0.0) / math.sqrt(r.iterations) if r.iterations else 0.0
            cells += [
                f"{r.sim_value:.1f}" if r.sim_value is not None else "",
                f"{err:.1f}",
                f"{100 * r.win_rate:.1f}" if r.win_rate is not None else "",
                str(r.iterations),
            ]
        t.add_row(*cells)
    return t


def review_table(turns: Sequence[TurnReview], width: int = 80) -> Table:
    """The review as a table that fits ``width`` columns: moves are never cut (a move
    of 15 letters with letters played through takes 20 columns); below 90 columns the
    rank of the move played is left out and names are shortened.

    >>> import io
    >>> from lexiko.analysis import TurnReview
    >>> turn = TurnReview(1, 0, "Ann", "AEIQTTU", "8G QI", 22, 22.0, "8D QUIET", 28, 30.5, 8.5, 3, 40)
    >>> console = Console(record=True, width=100, color_system=None, file=io.StringIO())
    >>> console.print(review_table([turn], 100))
    >>> print(console.export_text().splitlines()[1])
    1 Ann    AEIQTTU 8G QI   22 8D QUIET  28  8.5 3/40
    """
    wide = width >= 90
    t = Table(show_header=True, header_style="bold", box=None, padding=(0, 1, 0, 0), pad_edge=False)
    t.add_column("#", justify="right")
    t.add_column("player", max_width=12 if wide else 8, no_wrap=True, overflow="ellipsis")
    t.add_column("rack", no_wrap=True)
    t.add_column("played", no_wrap=True)
    t.add_column("pts", justify="right", no_wrap=True)
    t.add_column("best", no_wrap=True)
    t.add_column("pts", justify="right", no_wrap=True)
    t.add_column("lost", justify="right", no_wrap=True)
    if wide:
        t.add_column("rank", justify="right", no_wrap=True)
    for r in turns:
        lost = f"{r.equity_lost:.1f}" if r.equity_lost else ""
        played = r.played + (" (withdrawn)" if r.withdrawn and wide else "*" if r.withdrawn else "")
        row = [str(r.turn), r.name, r.rack, played, str(r.played_score), r.best, str(r.best_score), lost]
        if wide:
            row.append(f"{r.rank}/{r.moves}" if r.rank else f"-/{r.moves}")
        t.add_row(*row)
    return t


def _review(args: argparse.Namespace, console: Console) -> int:
    from lexiko import gcg

    path = args.file if args.file is not None else args.board_gcg
    if path is None or args.cgp is not None:
        raise LexikoError("--review needs a GCG file")
    if args.plot:
        from lexiko import plots

        plots.check_output(args.plot)
    game = gcg.load(path)
    lexicon = lexicon_for(args, game, console)
    leaves = leaves_from_args(args, game.tiles)
    turns = review(game, lexicon, leaves)
    console.print(review_table(turns, console.width))
    if console.width < 90 and any(r.withdrawn for r in turns):
        console.print("* withdrawn after a challenge", style="dim")
    for p, name in enumerate(game.players):
        mine = [r for r in turns if r.player == p]
        if mine:
            total = sum(r.equity_lost for r in mine)
            best = sum(1 for r in mine if r.rank == 1)
            console.print(
                f"{name}: {len(mine)} moves, {best} best, equity lost {total:.1f} ({total / len(mine):.1f} a move)",
                highlight=False,
            )
    if args.plot:
        from lexiko import plots

        fig = plots.review_figure(
            game.players, plots.review_series(game.history), [(r.player, r.equity_lost) for r in turns]
        )
        plots.save(fig, args.plot)
        console.print(f"plot written to {args.plot}", highlight=False, soft_wrap=True)
    return 0


def _preendgame(args: argparse.Namespace, console: Console) -> int:
    """``lexiko analyze --preendgame``: the candidates' shares of the splits won."""
    from lexiko.bots.preendgame import preendgame

    if args.sim:
        raise LexikoError("--preendgame plays every split to the end: leave out --sim")
    game = game_from_args(args)
    if game.is_over:
        raise LexikoError("the game is over: give --turn K for a position")
    if len(game.players) != 2:
        raise LexikoError("the pre-endgame handles two-player games")
    if not game.bag_count:
        raise LexikoError("the bag is empty: solve the endgame (--endgame)")
    if game.bag_count > game.rules.rack_size:
        raise LexikoError(f"the bag holds {game.bag_count} tiles: the pre-endgame takes 1 to {game.rules.rack_size}")
    lexicon = lexicon_for(args, game, console)
    leaves = leaves_from_args(args, game.tiles)
    show_header(game, console, not args.no_board)
    with WorkProgress(
        TextColumn("splits"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True
    ) as bar:
        task = bar.add_task("splits", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        results = preendgame(
            game,
            lexicon,
            candidates=args.top,
            leaves=leaves,
            endgame_time=args.endgame_time if args.endgame_time is not None else PREENDGAME_ENDGAME_SECONDS,
            time_limit=args.time_limit,
            seed=args.seed or 0,
            progress=progress,
        )
    t = Table(show_header=True, header_style="bold", box=None)
    for name, justify in (
        ("#", "right"),
        ("move", "left"),
        ("score", "right"),
        ("leave", "left"),
        ("win %", "right"),
        ("mean spread", "right"),
        ("splits", "right"),
        ("exact", "right"),
    ):
        t.add_column(name, justify=justify, no_wrap=name == "move")  # type: ignore[arg-type]
    tiles = game.tiles
    for i, r in enumerate(results, 1):
        c = r.candidate
        t.add_row(
            str(i),
            c.notation(tiles, game.board),
            str(c.score),
            tiles.format(c.leave) or "-",
            f"{100 * r.wins:.1f}",
            f"{r.spread:+.1f}",
            str(r.scenarios),
            str(r.exact),
        )
    console.print(t)
    return 0
