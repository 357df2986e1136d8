"""``lexiko autoplay``: computer players against each other, and their figures."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from lexiko.cli.argtypes import bounded_jobs, non_negative_int, output_folder, positive_int
from lexiko.cli.loading import load_lexicon
from lexiko.cli.options import add_executor_options
from lexiko.cli.progress import WorkProgress
from lexiko.errors import LexikoError
from lexiko.executors import make_executor
from lexiko.rules import Rules, preset
from lexiko.selfplay import DuplicateStats, autoplay, autoplay_duplicate

__all__ = ["add_parser", "run"]

EPILOG = """\
Players are kinds of computer player: random (beginner), greedy (easy), static (medium:
score plus the value of the tiles kept), sim (hard, simulation), or static:FILE for the
static player with a leave table from 'lexiko train-leaves'. Seats alternate who starts.
Win rates count a tie as half a win; the interval is a 95% Wilson interval.

examples:
  lexiko autoplay --games 1000 --players static,greedy
  lexiko autoplay --games 10000 --players static,greedy --jobs 0 --seed 7
  lexiko autoplay --games 50 --players greedy,random --gcg-dir games/
  lexiko autoplay --games 2000 --players static:my-leaves.tsv.gz,static --jobs 4
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``autoplay`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> p.parse_args(["autoplay", "--games", "10"]).players
    'static,greedy'
    """
    p: argparse.ArgumentParser = subparsers.add_parser(
        "autoplay",
        help="play computer players against each other and compare them",
        description="Play games between computer players, alternating who starts, and print each\n"
        "player's win rate (with a 95% confidence interval), mean score and bingos a game,\n"
        "and the speed in games per second.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--games", type=positive_int, default=100, help="number of games (default: 100)")
    p.add_argument("--players", default="static,greedy", help="comma-separated kinds (default: static,greedy)")
    p.add_argument("--jobs", type=non_negative_int, default=1, help="worker processes, 0 for one per core (default: 1)")
    p.add_argument("--force-jobs", action="store_true", help="use --jobs even when it is more than the cores")
    p.add_argument("--seed", type=int, default=0, help="seed: the same seed plays the same games (default: 0)")
    p.add_argument("--gcg-dir", metavar="DIR", help="write every game as a GCG file into DIR")
    add_executor_options(p)
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the score distributions and win rates into FILE "
        "(.png, .svg or .pdf; needs matplotlib: pip install 'lexiko[plot]')",
    )
    p.add_argument("--lexicon", help="lexicon: TWL06, SOWPODS or a word-list file (default: the rules')")
    p.add_argument("--rules", default="tournament", help="rules preset (default: tournament)")
    p.set_defaults(func=run)
    return p


def _parse_kinds(text: str) -> list[str]:
    from lexiko.bots import KINDS, LEVELS

    kinds = [k.strip() for k in text.split(",") if k.strip()]
    for k in kinds:
        base = k.partition(":")[0].lower()
        if base not in KINDS and base not in LEVELS:
            raise LexikoError(f"unknown kind of player {k!r}; known: {', '.join([*KINDS, *LEVELS])} (or static:FILE)")
        if ":" in k and not Path(k.partition(":")[2]).is_file():
            raise LexikoError(f"no such leave table: {k.partition(':')[2]}")
    return kinds


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the games between computer players and print the figures."""
    kinds = _parse_kinds(args.players)
    if len(kinds) < 2:
        raise LexikoError("--players needs at least two kinds, e.g. static,greedy")
    if args.games < 1:
        raise LexikoError("--games must be at least 1")
    rules = preset(args.rules, players=len(kinds))
    if not rules.min_players <= len(kinds) <= rules.max_players:
        least, most = rules.min_players, rules.max_players
        need = f"exactly {least}" if least == most else f"{least} to {most}"
        raise LexikoError(f"{rules.name} rules need {need} players, not {len(kinds)}")
    if rules.teams:
        raise LexikoError("autoplay does not play team games")
    if args.lexicon is not None:
        rules = rules.replace(lexicon=args.lexicon)
    if args.gcg_dir:
        output_folder(args.gcg_dir, "--gcg-dir", "game-*.gcg")
    if args.plot:
        from lexiko import plots

        plots.check_output(args.plot)
        if rules.variant == "duplicate":
            raise LexikoError("--plot draws games between players, not duplicate games")
    if rules.variant == "duplicate":
        lex = load_lexicon(rules.lexicon, rules.tile_set, console)
        with WorkProgress(
            TextColumn("playing"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as bar:
            bar.add_task("games", total=args.games)  # shown before the first game ends
            dstats = autoplay_duplicate(
                kinds,
                args.games,
                args.seed,
                lexicon=lex,
                rules=rules,
                record_dir=args.gcg_dir,
                progress=bar.report,
            )
        _print_duplicate(dstats, rules, console)
        if args.gcg_dir:
            console.print(f"games written to {args.gcg_dir} (.dup records, .gcg tops)", highlight=False)
        return 0
    jobs, note = bounded_jobs(args.jobs, args.force_jobs)
    if note:
        console.print(f"note: {note}", style="yellow", markup=False, highlight=False, soft_wrap=True)
    load_lexicon(rules.lexicon, rules.tile_set, console)  # compile once, before the workers start
    executor, release = make_executor(args.executor, args.address, jobs)
    with WorkProgress(
        TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True
    ) as bar:
        bar.add_task("games", total=args.games)  # shown before the first game ends

        try:
            stats = autoplay(
                kinds,
                args.games,
                jobs=jobs,
                seed=args.seed,
                executor=executor,
                progress=bar.report,
                lexicon=rules.lexicon,
                rules=rules,
                gcg_dir=args.gcg_dir,
            )
        finally:
            if release is not None:
                release()
    table = Table(title=f"{stats.games} games, {rules.name} rules, {rules.lexicon}")
    table.add_column("player")
    table.add_column("wins", justify="right")
    table.add_column("win rate (95% CI)", justify="right")
    table.add_column("mean score", justify="right")
    table.add_column("bingos/game", justify="right")
    for i, name in enumerate(stats.players):
        lo, hi = stats.win_interval(i)
        table.add_row(
            name,
            str(stats.wins[i]),
            f"{stats.win_rate(i):.1%} ({lo:.1%}-{hi:.1%})",
            f"{stats.mean_score(i):.1f}",
            f"{stats.bingos_per_game(i):.2f}",
        )
    console.print(table)
    console.print(
        f"{stats.ties} tie{'s' if stats.ties != 1 else ''}; {stats.seconds:.1f} s on {stats.jobs} "
        f"job{'s' if stats.jobs != 1 else ''}: {stats.games_per_second:.1f} games/s, "
        f"{stats.games_per_cpu_second:.1f} games per CPU-second",
        highlight=False,
    )
    if args.gcg_dir:
        console.print(f"games written to {args.gcg_dir}", highlight=False)
    if args.plot:
        from lexiko import plots

        fig = plots.autoplay_figure(
            stats.players,
            stats.scores,
            [stats.win_rate(i) for i in range(len(stats.players))],
            [stats.win_interval(i) for i in range(len(stats.players))],
        )
        plots.save(fig, args.plot)
        console.print(f"plot written to {args.plot}", highlight=False, soft_wrap=True)
    return 0


def _print_duplicate(stats: DuplicateStats, rules: Rules, console: Console) -> None:
    table = Table(title=f"{stats.games} duplicate games, {rules.lexicon}")
    table.add_column("player")
    table.add_column("wins", justify="right")
    table.add_column("mean total", justify="right")
    table.add_column("% of top", justify="right")
    for i, name in enumerate(stats.players):
        table.add_row(Text(name), f"{stats.wins[i]:g}", f"{stats.mean_total(i):.1f}", f"{stats.percentage(i):.1f}%")
    console.print(table)
    mean_top = sum(stats.tops) / max(1, stats.games)
    mean_rounds = sum(stats.rounds) / max(1, stats.games)
    console.print(
        f"mean top {mean_top:.1f} in {mean_rounds:.1f} rounds; {stats.seconds:.1f} s "
        f"({stats.games / max(stats.seconds, 1e-9):.1f} games/s)",
        highlight=False,
    )
