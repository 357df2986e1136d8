"""Options several commands share: the lexicon and tile set, and where parallel work
runs (``--executor``, ``--address``).

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_executor_options(p)
>>> p.parse_args(["--executor", "dask"]).executor
'dask'
>>> tile_set_named("english").name
'english'
"""

from __future__ import annotations

import argparse

from lexiko.errors import LexikoError
from lexiko.executors import EXECUTORS
from lexiko.lexicon import BUILTIN
from lexiko.tiles import TileSet

__all__ = ["LEXICON_HELP", "add_executor_options", "tile_set_named"]

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
