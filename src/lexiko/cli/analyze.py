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
from lexiko.review import DEFAULT_DEPTH, GameReview, ReviewDepth, review_game

__all__ = ["add_parser", "run", "review_table", "simulated_review_table", "PREENDGAME_ENDGAME_SECONDS"]

PREENDGAME_ENDGAME_SECONDS = 1.0
"""Seconds ``lexiko analyze --preendgame`` gives each endgame it reaches, by default."""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``analyze`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> a = p.parse_args(["analyze", "game.gcg", "--turn", "12", "--sim"])
    >>> a.turn, a.sim, a.iterations, a.top
    (12, True, None, None)
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
    a.add_argument(
        "--top",
        type=positive_int,
        metavar="N",
        help="moves to list (default: 10); with --review, moves simulated a turn "
        f"(default: {DEFAULT_DEPTH.candidates})",
    )
    a.add_argument("--sort", choices=["equity", "score"], default="equity", help="order of the list (default: equity)")
    a.add_argument("--sim", action="store_true", help="simulate the top moves")
    a.add_argument(
        "--iterations",
        type=positive_int,
        metavar="N",
        help=f"play-outs per move (default: 200; with --review {DEFAULT_DEPTH.iterations})",
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
    a.add_argument(
        "--review",
        action="store_true",
        help="review every move of the game in FILE.gcg: the best moves simulated with the move played, "
        "win chances, mistakes and blunders, each player's accuracy; the endgame solved",
    )
    a.add_argument(
        "--static", action="store_true", help="with --review: weigh moves by static equity alone (fast, no simulation)"
    )
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
        help=f"with --preendgame: seconds for each endgame reached (default: {PREENDGAME_ENDGAME_SECONDS:g}); "
        f"with --review: for each endgame solve (default: {DEFAULT_DEPTH.endgame_time:g})",
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
    if args.endgame_time is not None and not (args.preendgame or args.review):
        raise LexikoError("--endgame-time is the time of each endgame of --preendgame or --review: give one of them")
    if args.static and not args.review:
        raise LexikoError("--static weighs a review's moves: add --review")
    if args.review:
        return _review(args, console)
    if args.endgame:
        return endgame.run(args, console)
    if args.preendgame:
        return _preendgame(args, console)
    args.top = 10 if args.top is None else args.top
    args.iterations = 200 if args.iterations is None else args.iterations
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


def simulated_review_table(review: GameReview, width: int = 80) -> Table:
    """A simulated review as a table that fits ``width`` columns: per move the rack,
    the move played and the best, the win chance after the move played, the win chance
    and value it lost, and the verdict (scores and the value lost from 100 columns).

    >>> import io
    >>> from lexiko.review import Line, ReviewTurn
    >>> played, best = Line("8G QI", 22, "AETTU", 22.0, 20.0, 0.5), Line("8D QUIET", 28, "AT", 30.5, 31.0, 0.6)
    >>> turn = ReviewTurn(1, 0, "Ann", "AEIQTTU", (0, 0), 86, played, (best, played), 2, 11.0, 0.1, "mistake", 51.3)
    >>> review = GameReview(("Ann", "Bob"), (turn,), (), DEFAULT_DEPTH)
    >>> console = Console(record=True, width=80, color_system=None, file=io.StringIO())
    >>> console.print(simulated_review_table(review, 80))
    >>> print(console.export_text().splitlines()[1])
    1 Ann    AEIQTTU 8G QI  8D QUIET  50.0 10.0 mistake
    """
    wide = width >= 100
    t = Table(show_header=True, header_style="bold", box=None, padding=(0, 1, 0, 0), pad_edge=False)
    t.add_column("#", justify="right")
    t.add_column("player", max_width=12 if wide else 8, no_wrap=True, overflow="ellipsis")
    t.add_column("rack", no_wrap=True)
    t.add_column("played", no_wrap=True)
    if wide:
        t.add_column("pts", justify="right", no_wrap=True)
    t.add_column("best", no_wrap=True)
    if wide:
        t.add_column("pts", justify="right", no_wrap=True)
    t.add_column("win %", justify="right", no_wrap=True)
    t.add_column("lost", justify="right", no_wrap=True)
    if wide:
        t.add_column("value lost", justify="right", no_wrap=True)
    t.add_column("", no_wrap=True)
    styles = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
    for r in review.turns:
        best = r.best.move if r.rank != 1 else "="
        row = [str(r.turn), r.name, r.rack, r.played.move]
        if wide:
            row.append(str(r.played.score))
        row.append(best + ("" if r.method == "simulation" else " (solved)" if r.exact else " (endgame)"))
        if wide:
            row.append(str(r.best.score) if r.rank != 1 else "")
        row += [f"{100 * r.played.win:.1f}", f"{100 * r.win_lost:.1f}" if r.win_lost else ""]
        if wide:
            row.append(f"{r.value_lost:.1f}" if r.value_lost else "")
        verdict = r.verdict if r.verdict not in ("best", "good") else ""
        row.append(f"[{styles[verdict]}]{verdict}[/]" if verdict else "")
        t.add_row(*row)
    return t


def _review_summary(review: GameReview, console: Console) -> None:
    """The mistakes of each player and their accuracy, under the table."""
    for p, s in enumerate(review.summaries):
        if not s.moves:
            continue
        console.print(
            f"{s.name}: accuracy {s.accuracy:.1f}%; {s.moves} moves: {s.best} best, {s.good} good, "
            f"{s.inaccuracies} inaccurate, {s.mistakes} mistakes, {s.blunders} blunders",
            highlight=False,
            markup=False,
        )
        for t in review.mistakes(p):
            console.print(
                f"  {t.verdict} at turn {t.turn}: {t.played.move}, win chance -{100 * t.win_lost:.1f}, "
                f"value -{t.value_lost:.1f} (best {t.best.move})",
                highlight=False,
                markup=False,
            )


def _review(args: argparse.Namespace, console: Console) -> int:
    from lexiko import gcg

    path = args.file if args.file is not None else args.board_gcg
    if path is None or args.cgp is not None:
        raise LexikoError("--review needs a GCG file")
    if args.plot:
        from lexiko import plots

        plots.check_output(args.plot)
    if args.sim or args.prune is not None or args.infer or args.rank != "value":
        raise LexikoError("--review simulates every move itself: leave out --sim, --prune, --infer and --rank")
    game = gcg.load(path)
    lexicon = lexicon_for(args, game, console)
    leaves = leaves_from_args(args, game.tiles)
    if args.static:
        return _static_review(game, lexicon, leaves, args, console)
    depth = ReviewDepth(
        candidates=args.top if args.top is not None else DEFAULT_DEPTH.candidates,
        iterations=args.iterations if args.iterations is not None else DEFAULT_DEPTH.iterations,
        plies=args.plies,
        endgame_time=args.endgame_time if args.endgame_time is not None else DEFAULT_DEPTH.endgame_time,
        seed=args.seed if args.seed is not None else DEFAULT_DEPTH.seed,
    )
    err = Console(stderr=True)
    executor, release = make_executor(args.executor, args.address, max(1, args.jobs))
    try:
        with WorkProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
            transient=True,
        ) as bar:
            result = review_game(
                game, lexicon, depth, leaves=leaves, jobs=max(1, args.jobs), executor=executor, progress=bar.report
            )
    finally:
        if release is not None:
            release()
    console.print(simulated_review_table(result, console.width))
    _review_summary(result, console)
    if args.plot:
        _plot(game, [(r.player, r.value_lost) for r in result.turns], args.plot, console)
    return 0


def _plot(game: Game, lost: list[tuple[int, float]], path: str, console: Console) -> None:
    from lexiko import plots

    fig = plots.review_figure(game.players, plots.review_series(game.history), lost)
    plots.save(fig, path)
    console.print(f"plot written to {path}", highlight=False, soft_wrap=True)


def _static_review(game: Game, lexicon: Lexicon, leaves: LeavesArg, args: argparse.Namespace, console: Console) -> int:
    """``--review --static``: every move against the best by static equity."""
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
        _plot(game, [(r.player, r.equity_lost) for r in turns], args.plot, console)
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
            candidates=10 if args.top is None else args.top,
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
