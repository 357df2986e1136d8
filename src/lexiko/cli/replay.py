"""``lexiko replay``: check a GCG record through the rules engine and show the game."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from lexiko.cli.argtypes import file_path

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``replay`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> p.parse_args(["replay", "game.gcg"]).file
    PosixPath('game.gcg')
    """
    r: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="check a GCG game record and show the game",
        description="Replay a GCG file through the rules engine, checking every score "
        "and running total, and show the moves and the final board. A record is at most "
        "1,000,000 bytes, its lines at most 10,000 characters.",
    )
    r.add_argument("file", type=file_path, metavar="FILE.gcg")
    r.set_defaults(func=run)
    return r


def run(args: argparse.Namespace, console: Console) -> int:
    """Show every move, the final board and whether the game is over."""
    from lexiko import gcg
    from lexiko.terminal import describe, render_game

    game = gcg.load(args.file)
    for ev in game.history:
        console.print(describe(game, ev))
    console.print(render_game(game, None))
    status = f"game over ({game.end_reason})" if game.is_over else "game not finished"
    console.print(f"{args.file}: every score and total agrees; {status}.", soft_wrap=True, highlight=False)
    return 0
