"""``lexiko train-leaves``: a leave table trained by self-play (`lexiko.training.train`)."""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from lexiko import training
from lexiko.cli.argtypes import bounded_jobs, non_negative_int, output_file, positive_int
from lexiko.cli.loading import load_lexicon
from lexiko.cli.options import add_executor_options
from lexiko.cli.progress import WorkProgress
from lexiko.errors import LexikoError
from lexiko.executors import make_executor
from lexiko.leaves import LeaveTable
from lexiko.rules import preset

__all__ = ["add_parser", "run"]

EPILOG = """\
Each round plays --games games of the static player against itself with the current
table (the first round with no table, i.e. greedy play), recording the equity (points
plus the value of the tiles kept) of every move made from a full rack. A leave is then
worth the mean equity of the full racks that hold it, each as likely as drawing the rest
of it, less that of a random rack: what keeping it adds to one's next turns. Rarely seen
leaves take a per-tile model's value. See lexiko.training.train.

examples:
  lexiko train-leaves --games 2000 --rounds 3 --out my-leaves.tsv.gz
  lexiko train-leaves --games 20000 --rounds 4 --jobs 8 --out leaves.tsv.gz
  lexiko autoplay --players static:my-leaves.tsv.gz,greedy --games 1000
"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``train-leaves`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> p.parse_args(["train-leaves", "--games", "10", "--out", "t.tsv.gz"]).rounds
    4
    """
    p: argparse.ArgumentParser = subparsers.add_parser(
        "train-leaves",
        help="train a leave table by self-play",
        description="Train the static player's leave values (what the tiles kept after a move are\n"
        "worth) by self-play, and save them as a table for 'lexiko autoplay --players\n"
        "static:FILE' or lexiko.leaves.LeaveTable.load.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--games", type=positive_int, required=True, help="games per round")
    p.add_argument("--rounds", type=positive_int, default=4, help="rounds of play and refitting (default: 4)")
    p.add_argument("--out", required=True, metavar="FILE", help="file to write (.tsv, or .tsv.gz compressed)")
    p.add_argument("--jobs", type=non_negative_int, default=1, help="worker processes, 0 for one per core (default: 1)")
    p.add_argument("--force-jobs", action="store_true", help="use --jobs even when it is more than the cores")
    add_executor_options(p)
    p.add_argument("--seed", type=int, default=0, help="seed of the games (default: 0)")
    p.add_argument("--start", metavar="FILE", help="table to start from (default: none, greedy play)")
    p.add_argument(
        "--min-seen",
        type=positive_int,
        default=20,
        metavar="N",
        help="store the leaves whose value rests on N moves or more; a model values the others "
        "(default: 20; larger, a smaller table)",
    )
    p.add_argument("--lexicon", help="lexicon: TWL06, SOWPODS or a word-list file (default: the rules')")
    p.add_argument("--rules", default="tournament", help="rules preset (default: tournament)")
    p.set_defaults(func=run)
    return p


def _save_or_rescue(table: LeaveTable, out: Path, console: Console) -> Path:
    """Save the trained table; when that fails (a full disk, a device or pipe put at
    the path while training), save it in the temporary folder instead and say where,
    so the training is not lost."""
    try:
        table.save(out)
        return out
    except OSError as e:
        reason = e.strerror or str(e)
    except LexikoError as e:
        reason = str(e).removeprefix(f"cannot write {out}: ")
    rescue = Path(tempfile.gettempdir()) / f"lexiko-leaves-{os.getpid()}{''.join(out.suffixes)}"
    try:
        table.save(rescue)
    except (OSError, LexikoError) as e2:
        why = e2.strerror if isinstance(e2, OSError) else str(e2).removeprefix(f"cannot write {rescue}: ")
        raise LexikoError(f"cannot write {out} ({reason}) nor {rescue} ({why}): the table is lost") from None
    console.print(
        f"warning: cannot write {out} ({reason}); the table is saved in {rescue}",
        style="yellow",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    return rescue


def run(args: argparse.Namespace, console: Console) -> int:
    """Train a table by self-play and save it."""
    if args.games < 1 or args.rounds < 1:
        raise LexikoError("--games and --rounds must be at least 1")
    rules = preset(args.rules, players=2)
    if args.lexicon is not None:
        rules = rules.replace(lexicon=args.lexicon)
    out = output_file(args.out)  # before the training, not after it
    jobs, note = bounded_jobs(args.jobs, args.force_jobs)
    if note:
        console.print(f"note: {note}", style="yellow", markup=False, highlight=False, soft_wrap=True)
    load_lexicon(rules.lexicon, rules.tile_set, console)  # compile once, before the workers start
    initial = LeaveTable.load(args.start, rules.tile_set) if args.start else None
    executor, release = make_executor(args.executor, args.address, jobs)
    started = time.perf_counter()
    with WorkProgress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
    ) as bar:
        try:
            table = training.train(
                args.games,
                rounds=args.rounds,
                lexicon=rules.lexicon,
                rules=rules,
                jobs=jobs,
                seed=args.seed,
                executor=executor,
                initial=initial,
                min_seen=args.min_seen,
                progress=bar.report,
            )
        finally:
            if release is not None:
                release()
    out = _save_or_rescue(table, out, console)
    secs = time.perf_counter() - started
    console.print(
        f"saved {len(table):,} leaves to {out} ({args.games * args.rounds:,} games, {secs:.0f} s, "
        f"{jobs} job{'s' if jobs > 1 else ''})",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )
    best = sorted((v, t) for t, v in table.items() if len(t) == 1)
    console.print(
        "one-tile leaves: " + "  ".join(f"{rules.tile_set.format(t)} {v:+.1f}" for v, t in reversed(best)),
        highlight=False,
        soft_wrap=True,
    )
    return 0
