"""lexiko: the crossword-game system for Python.

``import lexiko`` is the public face, as ``import chess`` is python-chess's: the game,
the board, the rules and their presets, moves, racks, lexicons, the record formats
(`lexiko.gcg`, `lexiko.cgp`), the computer players, `play_game` and the
errors. The light parts load with the package; the game, the lexicon, the records and
the players load on first use (``lexiko.Game`` imports the move generator), so
``import lexiko`` stays cheap.

>>> import lexiko
>>> lexiko.parse_move("8D WINDY")
Place.parse('8D WINDY')
>>> game = lexiko.Game(["Ann", "Bob"], seed=1, first_player=0, lexicon=None)
>>> game.set_rack(0, "DINNVWY")
>>> game.play("8D WINDY").score
32
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from lexiko.board import Board, format_position, parse_position, parse_square, square_name
from lexiko.errors import (
    GameStateError,
    IllegalMoveError,
    LexiconError,
    LexikoError,
    NotationError,
    PhonyError,
    RecordError,
)
from lexiko.layouts import LAYOUTS, Layout, layout
from lexiko.move import Exchange, Move, Pass, Place, parse_move, parse_tiles
from lexiko.rules import CASUAL, PRESETS, TOURNAMENT, Rules, family, finish_line, preset
from lexiko.tiles import BLANK, ENGLISH, TILE_SETS, Rack, TileSet, tile_set

if TYPE_CHECKING:  # loaded on first use (see __getattr__); named here for type checkers
    from lexiko import cgp, gcg
    from lexiko.bots import KINDS, LEVELS, GreedyBot, Player, RandomBot, StaticBot, make_player
    from lexiko.bots.simulation import SimulationBot
    from lexiko.game import Accept, Challenge, Event, Game, Position
    from lexiko.lexicon import Lexicon
    from lexiko.movegen import Candidate
    from lexiko.scoring import Word, score, words_formed
    from lexiko.selfplay import play_game

__version__ = "0.1.0"

_LAZY = {
    "Accept": "lexiko.game",
    "Candidate": "lexiko.movegen",
    "Challenge": "lexiko.game",
    "Event": "lexiko.game",
    "Game": "lexiko.game",
    "GreedyBot": "lexiko.bots",
    "KINDS": "lexiko.bots",
    "LEVELS": "lexiko.bots",
    "Lexicon": "lexiko.lexicon",
    "Player": "lexiko.bots",
    "Position": "lexiko.game",
    "RandomBot": "lexiko.bots",
    "SimulationBot": "lexiko.bots.simulation",
    "StaticBot": "lexiko.bots",
    "Word": "lexiko.scoring",
    "make_player": "lexiko.bots",
    "play_game": "lexiko.selfplay",
    "score": "lexiko.scoring",
    "words_formed": "lexiko.scoring",
}
"""Names loaded on first use, and the module each comes from."""

_LAZY_MODULES = ("cgp", "gcg")
"""Submodules loaded on first use as attributes (``lexiko.gcg.load(...)``)."""


def __getattr__(name: str) -> Any:
    """Load a lazy name or submodule on first use and keep it in the package."""
    if name in _LAZY_MODULES:
        value: Any = importlib.import_module(f"lexiko.{name}")
    elif name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'lexiko' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "Accept",
    "BLANK",
    "Board",
    "CASUAL",
    "Candidate",
    "Challenge",
    "ENGLISH",
    "Event",
    "Exchange",
    "Game",
    "GameStateError",
    "GreedyBot",
    "IllegalMoveError",
    "KINDS",
    "LAYOUTS",
    "LEVELS",
    "Layout",
    "Lexicon",
    "LexiconError",
    "LexikoError",
    "Move",
    "NotationError",
    "PRESETS",
    "Pass",
    "PhonyError",
    "Place",
    "Player",
    "Position",
    "Rack",
    "RandomBot",
    "RecordError",
    "Rules",
    "SimulationBot",
    "StaticBot",
    "TILE_SETS",
    "TOURNAMENT",
    "TileSet",
    "Word",
    "cgp",
    "family",
    "finish_line",
    "format_position",
    "gcg",
    "layout",
    "make_player",
    "parse_move",
    "parse_position",
    "parse_square",
    "parse_tiles",
    "play_game",
    "preset",
    "score",
    "square_name",
    "tile_set",
    "words_formed",
]
