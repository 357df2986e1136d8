"""``python -m lexiko.web [options]``: the same as ``lexiko serve [options]``."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console

from lexiko.errors import LexikoError
from lexiko.web import add_serve_parser


def main(argv: list[str] | None = None) -> int:
    """Parse the options of ``serve`` and run the server."""
    parser = argparse.ArgumentParser(prog="python -m lexiko.web")
    sub = parser.add_subparsers(dest="command")
    add_serve_parser(sub)
    args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    console = Console()
    try:
        status: int = args.func(args, console)
        return status
    except LexikoError as e:
        console.print(f"[red]error:[/red] {e}", highlight=False, soft_wrap=True)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
