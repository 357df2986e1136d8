"""``lexiko render``: the board of a GCG record after a move, as SVG or PNG."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from lexiko.cli.argtypes import file_path, non_negative_int, positive_int

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``render`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> a = p.parse_args(["render", "game.gcg", "-o", "board.svg", "--turn", "3"])
    >>> a.output, a.turn, a.size
    (PosixPath('board.svg'), 3, None)
    """
    d: argparse.ArgumentParser = subparsers.add_parser(
        "render",
        help="draw the board of a GCG record as SVG or PNG",
        description="Draw the board of a GCG record after a move as a picture: premium squares, tiles "
        "with their values, blanks in another colour, the move's tiles highlighted. A .svg file is "
        "written by lexiko itself; a .png file needs CairoSVG (pip install 'lexiko[png]').",
        epilog="examples:\n  lexiko render game.gcg -o board.svg            # the final position\n"
        "  lexiko render game.gcg --turn 12 -o turn12.png  # after the 12th move\n\n"
        "--turn N is the board AFTER move N (moves: plays, exchanges and passes, counted from 1;\n"
        "0 is the empty board); 'lexiko analyze --turn K' looks at the position BEFORE move K.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    d.add_argument("file", type=file_path, metavar="FILE.gcg")
    d.add_argument(
        "-o",
        "--output",
        type=file_path,
        required=True,
        metavar="FILE",
        help="the picture to write: .svg, or .png with CairoSVG",
    )
    d.add_argument(
        "--turn",
        type=non_negative_int,
        default=None,
        metavar="N",
        help="draw the board after move N (default: the end of the record)",
    )
    d.add_argument(
        "--size",
        type=positive_int,
        default=None,
        metavar="PIXELS",
        help="width of the picture in pixels (default: the drawing's own size)",
    )
    d.add_argument("--no-coordinates", action="store_true", help="leave out the row numbers and column letters")
    d.set_defaults(func=run)
    return d


def run(args: argparse.Namespace, console: Console) -> int:
    """Write the picture and say so."""
    from lexiko import svg

    svg.render_file(args.file, args.turn, args.output, size=args.size, coordinates=not args.no_coordinates)
    console.print(f"wrote {args.output}", highlight=False, soft_wrap=True)
    return 0
