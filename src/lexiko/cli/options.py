"""Options several commands share: the lexicon and tile set, and where parallel work
runs (``--executor``, ``--address``).

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_executor_options(p)
>>> p.parse_args(["--executor", "dask"]).executor
'dask'
>>> tile_set_named("english").name
'english'
>>> p = argparse.ArgumentParser()
>>> add_word_list_options(p)
>>> a = p.parse_args(["--tiles", "spanish"])
>>> lexicon_named(a.lexicon, tile_set_named(a.tiles))
'wspanish'
"""

from __future__ import annotations

import argparse

from lexiko.errors import LexikoError
from lexiko.executors import EXECUTORS
from lexiko.lexicon import BUILTIN
from lexiko.tiles import TileSet
from lexiko.wordlists import LANGUAGE_LISTS, SYSTEM_LISTS

__all__ = ["LEXICON_HELP", "add_executor_options", "add_word_list_options", "lexicon_named", "tile_set_named"]

LEXICON_HELP = f"lexicon: {', '.join(BUILTIN)} or a word-list file (default: the rules' lexicon, TWL06)"
"""The help of ``--lexicon`` where the rules name the lexicon."""


def add_executor_options(parser: argparse.ArgumentParser) -> None:
    """``--executor`` and ``--address`` on a command that runs work in parallel."""
    parser.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="process",
        help="where the work runs: process (a pool here, --jobs workers), ray or dask "
        "(a cluster: pip install 'lexiko[ray]' or distributed) (default: process)",
    )
    parser.add_argument(
        "--address",
        metavar="ADDRESS",
        help="the cluster to use: ray://HOST:10001 or auto for Ray, tcp://HOST:8786 for Dask "
        "(default: a local one with --jobs workers)",
    )


def tile_set_named(name: str) -> TileSet:
    """The tile set ``--tiles`` names; an unknown one is a `LexikoError`."""
    from lexiko.tiles import tile_set

    try:
        return tile_set(name)
    except (KeyError, ValueError) as e:
        raise LexikoError(str(e).strip("'\"")) from None


def add_word_list_options(parser: argparse.ArgumentParser) -> None:
    """``--lexicon`` and ``--tiles`` on a command about words (``judge``, ``find``)."""
    parser.add_argument(
        "--lexicon",
        help=f"lexicon: {', '.join([*BUILTIN, *SYSTEM_LISTS])} or a word-list file (default: TWL06, and "
        "the language's own list for the tiles of another language, e.g. wspanish for spanish)",
    )
    parser.add_argument("--tiles", default="english", help="tile set of the lexicon (default: english)")


def lexicon_named(name: str | None, tiles: TileSet) -> str:
    """The lexicon ``--lexicon`` names, else the one of the tiles' language: an English
    list never judges another language (`lexiko.lexicon.Lexicon.load` refuses it).

    >>> lexicon_named(None, tile_set_named("german")), lexicon_named(None, tile_set_named("mobile"))
    ('wngerman', 'TWL06')
    """
    if name is not None:
        return name
    return LANGUAGE_LISTS.get(tiles.name, "TWL06")
