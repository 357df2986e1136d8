"""Moves as values: Place, Exchange, Pass; read and written in GCG notation.

A `Place` lists one code per square of the main word from its first square;
``0`` marks a square already occupied (a letter played through).

A move's repr is its notation, which evaluates back to an equal move. A move holds
codes, not letters: the same `Place` is ``8D WINDY`` with the English tile set and
other letters with another set (Spanish code 4 is ``CH``, English code 4 is ``D``). The
kernel builds moves by the million, and a move with a tile set in it would make equal
moves unequal or a repr that changes with a field the value does not compare, so the
repr writes the codes in the default tile set's notation, English, as ``str(move)`` and
`parse_move` do; a move whose codes English cannot write (letters past Z) shows its
fields. `Place.notation` writes a move in any tile set (``[CH]`` for a face of
several letters).

>>> parse_move("8D WINDY")
Place.parse('8D WINDY')
>>> Place(row=7, col=3, down=False, tiles=(23, 9, 14, 4, 25)) == Place.parse("8D WINDY")
True
>>> from lexiko.tiles import SPANISH
>>> m = Place.parse("8D [CH]E", SPANISH)
>>> m, m.notation(SPANISH)
(Place.parse('8D DF'), '8D [CH]E')
>>> Place(7, 3, False, (30, 1))
Place(row=7, col=3, down=False, tiles=(30, 1))

>>> m = parse_move("8D WIND.")
>>> m.row, m.col, m.down, m.tiles[-1]
(7, 3, False, 0)
>>> m.notation(ENGLISH)
'8D WIND.'
>>> parse_move("-AEI").notation(ENGLISH), parse_move("pass").notation(ENGLISH)
('-AEI', '-')
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lexiko.board import format_position, parse_position, square_name
from lexiko.errors import NotationError
from lexiko.layouts import LAYOUTS
from lexiko.tiles import BLANK, ENGLISH, LETTER_MASK, Rack, TileSet

if TYPE_CHECKING:
    from lexiko.board import Board

__all__ = ["Place", "Exchange", "Pass", "Move", "parse_move", "parse_tiles"]


@dataclass(frozen=True, slots=True)
class Place:
    """Tiles placed in one line: start square, direction and one code per square.

    >>> Place.parse("H7 a.E")
    Place.parse('H7 a.E')
    >>> Place.parse("H7 a.E").tiles
    (65, 0, 5)
    """

    row: int
    col: int
    down: bool
    tiles: tuple[int, ...]

    @classmethod
    def parse(
        cls, text: str, tiles: TileSet = ENGLISH, board: Board | None = None, *, size: int | None = None
    ) -> Place:
        """A placement in notation, as `parse_move` reads it; raises `NotationError`
        for an exchange or a pass. ``size`` is the board's side when no ``board`` is
        given (15 by default).

        >>> Place.parse("19D ZA", size=21).row
        18
        """
        m = parse_move(text, tiles, board, size=size)
        if not isinstance(m, Place):
            raise NotationError(f"{text!r} is not a placement of tiles")
        return m

    @property
    def position(self) -> str:
        """``8D`` (across) or ``D8`` (down)."""
        return format_position(self.row, self.col, self.down)

    @property
    def tile_count(self) -> int:
        """Number of tiles taken from the rack."""
        return len(self.tiles) - self.tiles.count(0)

    def squares(self) -> Iterator[tuple[int, int, int]]:
        """Row, column and code of every square of the word (code 0 where played through)."""
        dr, dc = (1, 0) if self.down else (0, 1)
        for i, code in enumerate(self.tiles):
            yield self.row + dr * i, self.col + dc * i, code

    def new_tiles(self) -> Iterator[tuple[int, int, int]]:
        """Row, column and code of each tile placed."""
        r, c = self.row, self.col
        if self.down:
            return ((r + i, c, t) for i, t in enumerate(self.tiles) if t)
        return ((r, c + i, t) for i, t in enumerate(self.tiles) if t)

    def rack_tiles(self) -> tuple[int, ...]:
        """The tiles as they leave the rack: a blank is 0 whatever letter it stands for."""
        return tuple(0 if t & BLANK else t for t in self.tiles if t)

    def notation(self, tiles: TileSet = ENGLISH, board: Board | None = None) -> str:
        """GCG notation. Played-through letters are ``.`` or, given the board, the
        letters in parentheses.

        >>> from lexiko.board import Board
        >>> b = Board.empty().place(parse_move("8D WINDY"))
        >>> parse_move("H7 A.E").notation(ENGLISH, b)
        'H7 A(Y)E'
        """
        out: list[str] = []
        through: list[str] = []
        for r, c, code in self.squares():
            if code:
                if through:
                    out.append(f"({''.join(through)})")
                    through = []
                out.append(tiles.format((code,)))
            elif board is not None and board.tile_at(r, c):
                through.append(tiles.format((board.tile_at(r, c),)))
            else:
                out.append(".")
        if through:
            out.append(f"({''.join(through)})")
        return f"{self.position} {''.join(out)}"

    def normalized(self, board: Board) -> Place:
        """The same tiles written as the whole main word on ``board``: extended over
        adjacent tiles and, for a single tile, in the direction that forms a word
        (across when both do)."""
        new = list(self.new_tiles())
        if not new:
            return self
        down = self.down
        if len(new) == 1:
            r, c, _ = new[0]
            down = not _touches(board, r, c, False) and _touches(board, r, c, True)
        n = board.size
        cells = board.cells
        r0, c0 = new[0][0], new[0][1]
        rl, cl = new[-1][0], new[-1][1]
        dr, dc = (1, 0) if down else (0, 1)
        while 0 <= r0 - dr and 0 <= c0 - dc and cells[(r0 - dr) * n + c0 - dc]:
            r0, c0 = r0 - dr, c0 - dc
        while rl + dr < n and cl + dc < n and cells[(rl + dr) * n + cl + dc]:
            rl, cl = rl + dr, cl + dc
        length = (rl - r0 if down else cl - c0) + 1
        if down == self.down and (r0, c0) == (self.row, self.col) and length == len(self.tiles):
            return self  # already the whole main word: the same squares, the same codes
        placed = {(r, c): t for r, c, t in new}
        codes = tuple(placed.get((r0 + dr * i, c0 + dc * i), 0) for i in range(length))
        return Place(r0, c0, down, codes)

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        if _english(self.tiles):
            end = max(self.row, self.col) + (len(self.tiles) - 1)
            size = next((n for n in _SIZES if n > end), None)
            if size is not None:
                text = self.notation()
                extra = "" if size == 15 else f", size={size}"
                try:
                    if Place.parse(text, size=size) == self:
                        return f"Place.parse({text!r}{extra})"
                except NotationError:
                    pass
        return f"Place(row={self.row!r}, col={self.col!r}, down={self.down!r}, tiles={self.tiles!r})"


_SIZES = sorted({15, *(lay.size for lay in LAYOUTS.values())})
"""Board sides a move's repr may name, smallest first."""


def _english(codes: tuple[int, ...]) -> bool:
    """Whether the default tile set has a face for every code of a placement: a letter,
    a blank standing for one, or 0 (played through)."""
    n = ENGLISH.size
    return all(0 <= c <= n or (c & BLANK and 1 <= c & ~BLANK <= n) for c in codes)


def _touches(board: Board, row: int, col: int, down: bool) -> bool:
    dr, dc = (1, 0) if down else (0, 1)
    n = board.size
    before = 0 <= row - dr and 0 <= col - dc and board.tile_at(row - dr, col - dc)
    after = row + dr < n and col + dc < n and board.tile_at(row + dr, col + dc)
    return bool(before or after)


@dataclass(frozen=True, slots=True)
class Exchange:
    """Tiles put back in the bag (codes as on the rack; 0 is a blank).

    >>> Exchange.parse("-QU?")
    Exchange.parse('-QU?')
    >>> Exchange.parse("exchange QU?").tiles
    (17, 21, 0)
    """

    tiles: tuple[int, ...]

    @classmethod
    def parse(cls, text: str, tiles: TileSet = ENGLISH) -> Exchange:
        """An exchange in notation (``-ABC`` or ``exchange ABC``), as `parse_move`
        reads it; raises `NotationError` for anything else."""
        m = parse_move(text, tiles)
        if not isinstance(m, Exchange):
            raise NotationError(f"{text!r} is not an exchange: write it like -ABC")
        return m

    def __repr__(self) -> str:
        text = Rack(self.tiles).text()
        if text:
            return f"Exchange.parse({'-' + text!r})"
        return f"Exchange(tiles={self.tiles!r})"

    def notation(self, tiles: TileSet = ENGLISH, board: Board | None = None) -> str:
        """``-AEI`` as GCG writes an exchange."""
        return "-" + tiles.format(tiles.rack_sort(self.tiles))

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True, slots=True)
class Pass:
    """A turn with no tiles played or exchanged."""

    def notation(self, tiles: TileSet = ENGLISH, board: Board | None = None) -> str:
        """``-`` as GCG writes a pass."""
        return "-"

    def __str__(self) -> str:
        return "-"


Move = Place | Exchange | Pass

_EXCHANGE_WORDS = re.compile(r"^(?:ex|exch|exchange|swap)\s+(\S+)$", re.IGNORECASE)


def parse_tiles(text: str, tiles: TileSet = ENGLISH) -> tuple[int, ...]:
    """Rack tiles from text (``?`` for a blank); lower-case letters are taken as upper case.

    >>> parse_tiles("aeq?")
    (1, 5, 17, 0)
    """
    return tuple(tiles.parse_token(t.upper()) if t != "?" else 0 for t in tiles.tokens(text))


def parse_move(text: str, tiles: TileSet = ENGLISH, board: Board | None = None, *, size: int | None = None) -> Move:
    """Read a move: ``8D WORD`` / ``D8 WORD`` (blanks lower case, played-through letters
    as ``.`` or in parentheses), ``-ABC`` or ``exchange ABC``, ``-`` or ``pass``.

    Given the board, letters written over occupied squares count as played through,
    as some programs write them. ``size`` is the board's side when no ``board`` is
    given (15 by default).

    >>> parse_move("h8 CAT").position
    'H8'
    >>> parse_move("8H (AB)C").tiles
    (0, 0, 3)
    """
    text = " ".join(text.split())
    if not text:
        raise NotationError("empty move: write a play like 8D WORD, an exchange like -ABC, or - to pass")
    low = text.lower()
    if low in ("-", "pass", "--"):
        return Pass()
    m = _EXCHANGE_WORDS.match(text)
    if m:
        return Exchange(parse_tiles(m.group(1), tiles))
    if text.startswith("-"):
        body = text[1:].strip()
        if body.isdigit():
            raise NotationError(f"{text!r} gives a number of tiles; name the tiles to exchange, like -ABC")
        return Exchange(parse_tiles(body, tiles))
    parts = text.split(" ")
    if len(parts) != 2:
        raise NotationError(f"{text!r} is not a move: write a play like 8D WORD, an exchange like -ABC, or -")
    size = board.size if board is not None else size if size is not None else 15
    row, col, down = parse_position(parts[0], size)
    codes = _word_codes(parts[1], tiles)
    dr, dc = (1, 0) if down else (0, 1)
    end_r, end_c = row + dr * (len(codes) - 1), col + dc * (len(codes) - 1)
    if end_r >= size or end_c >= size:
        raise NotationError(f"{text!r} runs off the board")
    out = []
    for i, (code, through) in enumerate(codes):
        r, c = row + dr * i, col + dc * i
        if board is not None and code and board.tile_at(r, c):
            on_board = board.tile_at(r, c)
            if on_board & LETTER_MASK != code & LETTER_MASK:
                raise NotationError(
                    f"{text!r}: square {square_name(r, c)} holds {board.tiles.face(on_board)}, not {tiles.face(code)}"
                )
            out.append(0)
        elif through and board is not None and not board.tile_at(r, c):
            raise NotationError(f"{text!r}: square {square_name(r, c)} is empty; nothing to play through")
        else:
            out.append(0 if through else code)
    return Place(row, col, down, tuple(out))


def _word_codes(word: str, tiles: TileSet) -> list[tuple[int, bool]]:
    """(code, played-through) for each square of a written word."""
    out: list[tuple[int, bool]] = []
    inside = False
    for token in tiles.tokens(word):
        if token == "(":
            if inside:
                raise NotationError(f"nested '(' in {word!r}")
            inside = True
        elif token == ")":
            if not inside:
                raise NotationError(f"')' without '(' in {word!r}")
            inside = False
        elif token == ".":
            out.append((0, True))
        elif token == "?":
            raise NotationError(f"{word!r}: a blank on the board needs its letter, written lower case")
        else:
            out.append((tiles.parse_token(token), inside))
    if inside:
        raise NotationError(f"unclosed '(' in {word!r}")
    if not out:
        raise NotationError(f"{word!r} has no letters")
    return out
