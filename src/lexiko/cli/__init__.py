"""The ``lexiko`` command: one module per command (`COMMANDS`), each registering
its parser (``add_parser``) and holding its ``run(args, console) -> int``, on top of the
library. Errors the library raises (`LexikoError`) are printed as
one line, never a traceback.

>>> main(["judge", "--lexicon", "TWL06", "QI", "QX"])
QI: valid
QX: not valid
1
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from lexiko.cli import analyze, autoplay, endgame, find, judge, play, render, replay, serve, tournament, train_leaves
from lexiko.cli.argtypes import Parser
from lexiko.errors import LexikoError

__all__ = ["main", "build_parser", "COMMANDS"]

COMMANDS = (play, judge, find, replay, render, autoplay, train_leaves, analyze, endgame, tournament, serve)
"""The command modules, in the order ``lexiko --help`` lists them."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lexiko")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "unknown"


def build_parser() -> Parser:
    """The ``lexiko`` parser with every command of `COMMANDS` registered.

    >>> print(*build_parser().commands)
    play judge find replay render autoplay train-leaves analyze endgame tournament serve
    """
    parser = Parser(
        prog="lexiko",
        description="lexiko: the crossword-game system. Play against the computer, check "
        "words, find anagrams, check game records.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'lexiko COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"lexiko {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    parser.commands = dict(sub.choices)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (errors are messages, never tracebacks)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # say so with the command's own help, not the top level's
        parser.commands.get(args.command or "", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command is None:
        parser.print_help()
        return 0
    console = Console()
    try:
        status: int = args.func(args, console)
        return status
    except LexikoError as e:
        console.print(f"[red]error:[/red] {escape(str(e))}", highlight=False, soft_wrap=True, emoji=False)
        return 2
    except FileNotFoundError as e:
        console.print(
            f"[red]error:[/red] no such file: {escape(str(e.filename))}", highlight=False, soft_wrap=True, emoji=False
        )
        return 2
    except KeyboardInterrupt:
        return 130
