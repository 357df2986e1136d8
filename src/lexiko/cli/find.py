"""``lexiko find``: the words made from letters, or matching a pattern."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from lexiko.cli.argtypes import non_negative_int, positive_int
from lexiko.cli.loading import load_lexicon
from lexiko.cli.options import add_word_list_options, lexicon_named, tile_set_named

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``find`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> a = p.parse_args(["find", "AEINRST"])
    >>> a.letters, a.min, a.limit
    ('AEINRST', 2, 100)
    """
    f: argparse.ArgumentParser = subparsers.add_parser(
        "find",
        help="find words from letters or a pattern",
        description="Find the words that can be made from LETTERS (? for a blank), longest first, "
        "or with --pattern the words matching a pattern (? one letter, * any letters).",
        epilog="examples:\n  lexiko find AEINRST\n  lexiko find 'QI?' --exact\n  lexiko find 'Q?I*' --pattern",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    f.add_argument("letters", metavar="LETTERS")
    f.add_argument("--pattern", action="store_true", help="treat LETTERS as a pattern")
    f.add_argument("--exact", action="store_true", help="use every letter")
    f.add_argument("--min", type=positive_int, default=2, help="shortest word to list (default: 2)")
    f.add_argument("--limit", type=non_negative_int, default=100, help="most words to list, 0 for all (default: 100)")
    add_word_list_options(f)
    f.set_defaults(func=run)
    return f


def run(args: argparse.Namespace, console: Console) -> int:
    """Print the words found, longest first (exit status 1 when there are none)."""
    tiles = tile_set_named(args.tiles)
    lexicon = load_lexicon(lexicon_named(args.lexicon, tiles), tiles, console)
    if args.pattern:
        words = lexicon.pattern(args.letters)
    else:
        words = lexicon.anagrams(args.letters, partial=not args.exact, min_length=args.min)
        words.sort(key=lambda w: (-len(w), w))
    if not words:
        console.print("no words found")
        return 1
    shown = words[: args.limit] if args.limit else words
    console.print(" ".join(shown), soft_wrap=True)
    if len(shown) < len(words):
        console.print(f"… and {len(words) - len(shown)} more (--limit 0 shows all)", style="dim")
    return 0
