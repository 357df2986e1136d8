"""Scoring a placement: pure functions of a board and a play.

>>> from lexiko.board import Board
>>> from lexiko.move import parse_move
>>> from lexiko.rules import Rules
>>> b = Board.empty()
>>> score(b, parse_move("8D WINDY"), Rules())
32
>>> [(w.text, w.score) for w in words_formed(b.place(parse_move("8D WINDY")), parse_move("7C GALE"))]
[('GALE', 7), ('AW', 5), ('LI', 2), ('EN', 2)]
"""

from __future__ import annotations

from dataclasses import dataclass

from lexiko.board import Board
from lexiko.move import Place
from lexiko.rules import Rules
from lexiko.tiles import TileSet

__all__ = ["Word", "words_formed", "score", "score_words"]


@dataclass(frozen=True, slots=True)
class Word:
    """A word formed by a play: where it starts, its direction, its codes (old and new
    tiles), the text and the points it scores."""

    row: int
    col: int
    down: bool
    codes: tuple[int, ...]
    text: str
    score: int


def words_formed(board: Board, move: Place) -> list[Word]:
    """The words a placement forms on ``board`` (the board before the play): the main
    word first (if two or more letters long), then the cross word of each new tile.

    ``move`` should cover its whole main word (see `Place.normalized`).
    """
    n = board.size
    cells = board.cells
    tiles = board.tiles
    lm, wm = board.layout.letter_mult, board.layout.word_mult
    value = _value_table(tiles)
    placed = {r * n + c: code for r, c, code in move.new_tiles()}
    out: list[Word] = []

    def run(row: int, col: int, down: bool) -> Word | None:
        dr, dc = (1, 0) if down else (0, 1)
        r, c = row, col
        while 0 <= r - dr and 0 <= c - dc and (cells[(r - dr) * n + c - dc] or (r - dr) * n + c - dc in placed):
            r, c = r - dr, c - dc
        sr, sc = r, c
        codes: list[int] = []
        total, mult = 0, 1
        while r < n and c < n:
            i = r * n + c
            code = placed.get(i)
            if code is not None:
                total += value[code] * lm[i]
                mult *= wm[i]
            elif cells[i]:
                code = cells[i]
                total += value[code]
            else:
                break
            codes.append(code)
            r, c = r + dr, c + dc
        if len(codes) < 2:
            return None
        return Word(sr, sc, down, tuple(codes), tiles.format(codes).upper(), total * mult)

    new = list(move.new_tiles())
    if not new:
        return out
    r0, c0, _ = new[0]
    main = run(r0, c0, move.down)
    if main:
        out.append(main)
    for r, c, _ in new:
        cross = run(r, c, not move.down)
        if cross:
            out.append(cross)
    return out


class _Values(dict[int, int]):
    """Points of each code of a tile set (``TileSet.value``, looked up once a code)."""

    __slots__ = ("tiles",)

    def __init__(self, tiles: TileSet) -> None:
        super().__init__()
        self.tiles = tiles

    def __missing__(self, code: int) -> int:
        v = self[code] = self.tiles.value(code)
        return v


_values_cache: dict[int, _Values] = {}


def _value_table(tiles: TileSet) -> _Values:
    hit = _values_cache.get(id(tiles))
    if hit is None or hit.tiles is not tiles:
        if len(_values_cache) > 64:
            _values_cache.clear()
        hit = _values_cache[id(tiles)] = _Values(tiles)
    return hit


def score_words(words: list[Word], tiles_placed: int, rules: Rules) -> int:
    """Sum of the words' scores plus the bonus for the number of tiles placed (the
    bingo bonus, or a larger tier's: `Rules.bonus`)."""
    return sum(w.score for w in words) + rules.bonus(tiles_placed)


def score(board: Board, move: Place, rules: Rules) -> int:
    """Points a placement scores on ``board`` (no legality check)."""
    return score_words(words_formed(board, move), move.tile_count, rules)
