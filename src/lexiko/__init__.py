"""lexiko: the crossword-game system for Python.

>>> import lexiko
>>> lexiko.parse_move("8D WINDY").position
'8D'
"""

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
from lexiko.rules import PRESETS, Rules, family, finish_line, preset
from lexiko.scoring import Word, score, words_formed
from lexiko.tiles import BLANK, ENGLISH, TILE_SETS, TileSet, tile_set

__version__ = "0.1.0"

__all__ = [
    "BLANK",
    "Board",
    "ENGLISH",
    "Exchange",
    "GameStateError",
    "IllegalMoveError",
    "LAYOUTS",
    "Layout",
    "LexiconError",
    "LexikoError",
    "Move",
    "NotationError",
    "PRESETS",
    "Pass",
    "PhonyError",
    "Place",
    "RecordError",
    "Rules",
    "TILE_SETS",
    "TileSet",
    "Word",
    "family",
    "finish_line",
    "format_position",
    "layout",
    "parse_move",
    "parse_position",
    "parse_square",
    "parse_tiles",
    "preset",
    "score",
    "square_name",
    "tile_set",
    "words_formed",
]
