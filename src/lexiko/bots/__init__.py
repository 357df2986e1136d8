"""Computer players. A `Player` chooses a move for the player on turn and
decides whether to challenge the last play.

Kinds, weakest first: ``random`` (a random legal move), ``greedy`` (the highest score),
``static`` (score plus the value of the tiles kept, from a `LeaveTable`),
``sim`` (simulation, `lexiko.bots.simulation`). `make_player` builds one by
kind or by strength level (`LEVELS`).

>>> from lexiko.lexicon import Lexicon
>>> lex = Lexicon.from_words(["QI"])
>>> make_player("easy", lex).name, make_player("random", lex, seed=1).name
('greedy', 'random')
>>> make_player("static", lex, name="Stan").name
'Stan'
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from lexiko.bots.base import Player, last_play_is_phony
from lexiko.bots.greedy import GreedyBot
from lexiko.bots.random_bot import RandomBot
from lexiko.bots.static import StaticBot
from lexiko.errors import LexikoError
from lexiko.lexicon import Lexicon
from lexiko.tiles import TileSet

if TYPE_CHECKING:
    from lexiko.leaves import LeaveTable

__all__ = [
    "Player",
    "GreedyBot",
    "RandomBot",
    "StaticBot",
    "make_player",
    "load_table",
    "KINDS",
    "LEVELS",
    "HARD_ENDGAME_SECONDS",
    "HARD_PREENDGAME_SECONDS",
    "HARD_FINISH_BAG",
    "last_play_is_phony",
]

KINDS = ("random", "greedy", "static", "sim")
"""Kinds of computer player `make_player` knows, weakest first."""

LEVELS = {"beginner": "random", "easy": "greedy", "medium": "static", "hard": "sim"}
"""Strength levels and the kind of player each stands for. ``hard`` also solves the
endgame (bag empty) and the pre-endgame (one tile in the bag) of a two-player game,
within `HARD_ENDGAME_SECONDS` and `HARD_PREENDGAME_SECONDS`, and with a few
more tiles in the bag (up to `HARD_FINISH_BAG`) simulates to the end of the game. In a
game with a clock, ``hard`` takes each move's time from the time manager
(`lexiko.bots.time_manager`) instead of these fixed times; ``clock=False`` keeps them."""

HARD_ENDGAME_SECONDS = 5.0
"""Seconds the ``hard`` level spends on an endgame (most are solved exactly far sooner)."""

HARD_PREENDGAME_SECONDS = 10.0
"""Seconds the ``hard`` level spends on a pre-endgame (one tile in the bag)."""

HARD_FINISH_BAG = 7
"""The most tiles in the bag with which the ``hard`` level's play-outs go on to the end of
the game, its candidates ranked by the games they win (the simulation's ``finish``)."""


_TABLE_CACHE_SIZE = 8
_tables: dict[tuple[str, int, int, str], LeaveTable] = {}


def load_table(path: str | os.PathLike[str], tiles: TileSet) -> LeaveTable:
    """The leave table in the file ``path`` (`lexiko.leaves.LeaveTable.load`),
    read once per process: later calls for the same unchanged file (same resolved path,
    size and modification time) return the same object, which its players share and must
    not change. Self-play builds fresh players for every game; a full table takes
    seconds to read.

    >>> import tempfile
    >>> from lexiko.leaves import LeaveTable
    >>> from lexiko.tiles import ENGLISH
    >>> path = os.path.join(tempfile.mkdtemp(), "t.tsv")
    >>> LeaveTable(ENGLISH, {(19,): 9.0}).save(path)
    >>> load_table(path, ENGLISH) is load_table(path, ENGLISH)
    True
    """
    from lexiko.leaves import LeaveTable

    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return LeaveTable.load(path, tiles)  # let load say what is wrong
    key = (real, st.st_mtime_ns, st.st_size, tiles.name)
    hit = _tables.get(key)
    if hit is None or hit.tiles is not tiles:
        hit = LeaveTable.load(path, tiles)
        if len(_tables) >= _TABLE_CACHE_SIZE:
            _tables.clear()
        _tables[key] = hit
    return hit


def make_player(kind: str, lexicon: Lexicon, *, seed: int | None = None, name: str | None = None, **kw: Any) -> Player:
    """A computer player of a kind (`KINDS`) or level (`LEVELS`).

    ``seed`` seeds the players that draw at random (``random``, ``sim``); ``name``
    defaults to the kind. ``static:FILE`` is the static player with the leave table in
    FILE (read once per process: `load_table`); other keyword arguments go to the
    player's class (``table=`` for ``static``, the simulation options for ``sim``).
    Raises `LexikoError` for an unknown kind.
    """
    key = kind.strip()
    base, _, arg = key.partition(":")
    base = LEVELS.get(base.lower(), base.lower())
    label = name if name is not None else (key if arg else base)
    if arg and base != "static":
        raise LexikoError(f"{kind!r}: only the static player takes a file (static:FILE)")
    if base == "random":
        return RandomBot(lexicon, seed=seed, name=label, **kw)
    if base == "greedy":
        return GreedyBot(lexicon, name=label, **kw)
    if base == "static":
        if arg:
            kw["table"] = load_table(arg, lexicon.tiles)
        return StaticBot(lexicon, name=label, **kw)
    if base == "sim":
        if key.lower() == "hard":  # the level plays the end of a game out exactly
            kw.setdefault("endgame_time", HARD_ENDGAME_SECONDS)
            kw.setdefault("preendgame_time", HARD_PREENDGAME_SECONDS)
            kw.setdefault("finish", HARD_FINISH_BAG)
            kw.setdefault("clock", True)
        # the simulation player lives in its own module, imported only when asked for
        try:
            module = importlib.import_module("lexiko.bots.simulation")
        except ImportError:
            raise LexikoError("the simulation player (lexiko.bots.simulation) is not available") from None
        cls = module.SimulationBot
        player: Player = cls(lexicon, seed=seed, name=label, **kw)
        return player
    known = ", ".join([*KINDS, *LEVELS])
    raise LexikoError(f"unknown kind of player {kind!r}; known: {known} (or static:FILE)")
