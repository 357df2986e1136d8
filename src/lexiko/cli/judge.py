"""``lexiko judge``: whether words are in a lexicon (exit status 1 if any is not)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from lexiko.cli.loading import load_lexicon
from lexiko.cli.options import add_word_list_options, lexicon_named, tile_set_named

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``judge`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko"); _ = add_parser(p.add_subparsers())
    >>> p.parse_args(["judge", "QI", "ZA"]).words
    ['QI', 'ZA']
    """
    j: argparse.ArgumentParser = subparsers.add_parser(
        "judge",
        help="say whether words are valid",
        description="Say whether each word is in the lexicon (exit status 1 if any is not).",
    )
    j.add_argument("words", nargs="+", metavar="WORD")
    add_word_list_options(j)
    j.set_defaults(func=run)
    return j


def run(args: argparse.Namespace, console: Console) -> int:
    """Print each word with ``valid`` or ``not valid``."""
    tiles = tile_set_named(args.tiles)
    lexicon = load_lexicon(lexicon_named(args.lexicon, tiles), tiles, console)
    bad = 0
    for w in args.words:
        ok = w in lexicon
        bad += not ok
        print(f"{w.upper()}: {'valid' if ok else 'not valid'}")
    return 1 if bad else 0
