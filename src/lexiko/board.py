"""The board: a flat grid of tile codes with its layout, and the coordinate notation.

Squares are named column letter then row number (``H8``); a play's position is row
then column going across (``8D``) and column then row going down (``D8``).

>>> b = Board.empty()
>>> parse_position("8D"), parse_position("D8")
((7, 3, False), (7, 3, True))
>>> format_position(7, 3, True)
'D8'
>>> b.is_empty, len(b.cells)
(True, 225)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lexiko.errors import IllegalMoveError, NotationError
from lexiko.layouts import STANDARD, Layout
from lexiko.layouts import layout as named_layout
from lexiko.tiles import BLANK, ENGLISH, TileSet, tile_set

if TYPE_CHECKING:
    from lexiko.move import Place

__all__ = [
    "Board",
    "column_name",
    "square_name",
    "parse_square",
    "parse_position",
    "format_position",
]

_POSITION = re.compile(r"^(?:(\d+)([A-Za-z])|([A-Za-z])(\d+))$")


def column_name(col: int) -> str:
    """Letter of a column: 0 -> ``A``."""
    return chr(ord("A") + col)


def square_name(row: int, col: int) -> str:
    """Name of a square, ``H8`` for the centre of the standard board.

    >>> square_name(7, 7)
    'H8'
    """
    return f"{column_name(col)}{row + 1}"


def parse_square(text: str, size: int = 15) -> tuple[int, int]:
    """Row and column of a square name (``H8`` or ``8H``).

    >>> parse_square("A15")
    (14, 0)
    """
    row, col, _ = parse_position(text, size)
    return row, col


def parse_position(text: str, size: int = 15) -> tuple[int, int, bool]:
    """Row, column and direction of a play's position: ``8D`` across, ``D8`` down.

    Column letters may be lower case, as some programs write them.

    >>> parse_position("h8", 15)
    (7, 7, True)
    """
    m = _POSITION.match(text.strip())
    if not m:
        raise NotationError(f"{text!r} is not a position like 8D (across) or D8 (down)")
    if m.group(1):
        row_text, col_text, down = m.group(1), m.group(2), False
    else:
        row_text, col_text, down = m.group(4), m.group(3), True
    row = int(row_text) - 1
    col = ord(col_text.upper()) - ord("A")
    if not (0 <= row < size and 0 <= col < size):
        raise NotationError(f"position {text!r} is off the {size}x{size} board")
    return row, col, down


def format_position(row: int, col: int, down: bool) -> str:
    """Notation of a position; the inverse of `parse_position`."""
    return square_name(row, col) if down else f"{row + 1}{column_name(col)}"


@dataclass(frozen=True)
class Board:
    """An immutable board: ``cells[row * size + col]`` is 0 for an empty square or a
    tile code (``letter | BLANK`` for a blank).

    >>> b = Board.from_string("15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15")
    >>> b.tile_at(7, 3), b.face_at(7, 7), b.count
    (23, 'Y', 5)
    """

    cells: bytes
    layout: Layout = STANDARD
    tiles: TileSet = ENGLISH

    def __post_init__(self) -> None:
        if len(self.cells) != self.layout.size**2:
            raise ValueError(f"a {self.layout.size}x{self.layout.size} board has {self.layout.size**2} cells")

    @classmethod
    def empty(cls, layout: Layout = STANDARD, tiles: TileSet = ENGLISH) -> Board:
        """A board with no tiles."""
        return cls(bytes(layout.size**2), layout, tiles)

    @property
    def size(self) -> int:
        """Squares per side."""
        return self.layout.size

    @property
    def is_empty(self) -> bool:
        """True before the first play."""
        cells = self.cells
        return cells == bytes(len(cells))  # a comparison in C: count(0) walks every byte slower

    @property
    def count(self) -> int:
        """Number of tiles on the board."""
        return len(self.cells) - self.cells.count(0)

    def tile_at(self, row: int, col: int) -> int:
        """Code at a square (0 when empty)."""
        return self.cells[row * self.size + col]

    def face_at(self, row: int, col: int) -> str:
        """Face at a square, lower case for a blank, ``""`` when empty."""
        code = self.tile_at(row, col)
        return self.tiles.face(code) if code else ""

    def played_tiles(self) -> list[int]:
        """The tiles on the board as they came off racks (a blank is 0)."""
        return [0 if c & BLANK else c for c in self.cells if c]

    def place(self, move: Place) -> Board:
        """The board after a placement. Only refuses a tile on an occupied square (so a
        tile is never lost); whether the play is legal is `lexiko.legality`'s work.

        >>> from lexiko.move import parse_move
        >>> b = Board.empty().place(parse_move("8H AA"))
        >>> b.place(parse_move("8G QI"))
        Traceback (most recent call last):
        ...
        lexiko.errors.IllegalMoveError: square H8 is already occupied
        """
        cells = bytearray(self.cells)
        n = self.size
        for row, col, code in move.new_tiles():
            if cells[row * n + col]:
                raise IllegalMoveError(f"square {square_name(row, col)} is already occupied")
            cells[row * n + col] = code
        return Board(bytes(cells), self.layout, self.tiles)

    def remove(self, squares: list[tuple[int, int]]) -> Board:
        """The board with the tiles on these squares taken off (a play withdrawn)."""
        cells = bytearray(self.cells)
        for row, col in squares:
            cells[row * self.size + col] = 0
        return Board(bytes(cells), self.layout, self.tiles)

    def word_at(self, row: int, col: int, down: bool) -> tuple[int, int, tuple[int, ...]]:
        """The run of tiles through a square in one direction: start row, start column
        and codes. Empty if the square is empty."""
        n, cells = self.size, self.cells
        if not cells[row * n + col]:
            return row, col, ()
        dr, dc = (1, 0) if down else (0, 1)
        r, c = row, col
        while 0 <= r - dr and 0 <= c - dc and cells[(r - dr) * n + (c - dc)]:
            r, c = r - dr, c - dc
        start = (r, c)
        codes = []
        while r < n and c < n and cells[r * n + c]:
            codes.append(cells[r * n + c])
            r, c = r + dr, c + dc
        return start[0], start[1], tuple(codes)

    # -- text ----------------------------------------------------------------

    def to_string(self) -> str:
        """The board as CGP writes it: rows joined by ``/``, runs of empty squares as
        numbers, blanks lower case, multi-letter faces in brackets."""
        rows = []
        n = self.size
        for r in range(n):
            out, run = [], 0
            for c in range(n):
                code = self.cells[r * n + c]
                if code:
                    if run:
                        out.append(str(run))
                        run = 0
                    out.append(self.tiles.format((code,)))
                else:
                    run += 1
            if run:
                out.append(str(run))
            rows.append("".join(out))
        return "/".join(rows)

    @classmethod
    def from_string(cls, text: str, layout: Layout = STANDARD, tiles: TileSet = ENGLISH) -> Board:
        """Read the CGP board notation written by `to_string`."""
        rows = text.strip().split("/")
        n = layout.size
        if len(rows) != n:
            raise NotationError(f"board has {len(rows)} rows, a {n}x{n} board needs {n}")
        cells = bytearray()
        for r, row in enumerate(rows, 1):
            width = 0
            for token in re.findall(r"\d+|\[[^\]]*\]|.", row):
                if token.isdigit():
                    if len(token) > 3:  # no board is so wide: neither counted nor allocated
                        more = "..." if len(token) > 10 else ""
                        raise NotationError(
                            f"board row {r} has a run of {token[:10]}{more} empty squares; "
                            f"a {n}x{n} board has {n} a row"
                        )
                    cells.extend(bytes(int(token)))
                    width += int(token)
                else:
                    face = token[1:-1] if token.startswith("[") else token
                    code = tiles.parse_token(face)
                    if code == 0:
                        raise NotationError(f"board row {r} has an undesignated blank '?'")
                    cells.append(code)
                    width += 1
            if width != n:
                raise NotationError(f"board row {r} {row!r} has {width} squares, not {n}")
        return cls(bytes(cells), layout, tiles)

    def rows(self) -> list[list[str]]:
        """Faces row by row, ``""`` for empty squares, lower case for a blank (for
        renderers, and the web app's states).

        >>> from lexiko.move import Place
        >>> Board.empty().place(Place(7, 7, False, (1, 2 | 64))).rows()[7][7:9]
        ['A', 'b']
        """
        n = self.size
        face = self.tiles.face
        cells = self.cells
        return [[face(x) if x else "" for x in cells[r * n : (r + 1) * n]] for r in range(n)]

    def __str__(self) -> str:
        n = self.size
        marks = {"D": "-", "T": "=", "Q": "~", "d": "'", "t": '"', "q": "^", "*": "*", "+": "*"}
        head = "    " + " ".join(column_name(c) for c in range(n))
        lines = [head]
        for r in range(n):
            cells = []
            for c in range(n):
                code = self.cells[r * n + c]
                if code:
                    face = self.tiles.face(code)
                    cells.append(face if len(face) == 1 else face[0])
                else:
                    cells.append(marks.get(self.layout.premium(r, c), "."))
            lines.append(f"{r + 1:>3} " + " ".join(cells))
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        """The board as an SVG picture, which Jupyter shows (see `lexiko.svg.board`)."""
        from lexiko import svg

        return svg.board(self)

    def __repr__(self) -> str:
        extra = ""
        if self.layout is not STANDARD:
            extra += f", layout={self.layout.name!r}"
        if self.tiles is not ENGLISH:
            extra += f", tiles={self.tiles.name!r}"
        return f"Board.parse({self.to_string()!r}{extra})"

    @classmethod
    def parse(cls, text: str, layout: str | Layout = STANDARD, tiles: str | TileSet = ENGLISH) -> Board:
        """Like `from_string` but layout and tile set may be given by name.

        >>> Board.parse("21/" * 20 + "21", layout="super21").size
        21
        """
        lay = named_layout(layout) if isinstance(layout, str) else layout
        ts = tile_set(tiles) if isinstance(tiles, str) else tiles
        return cls.from_string(text, lay, ts)
