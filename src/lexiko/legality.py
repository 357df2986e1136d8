"""Where tiles may go: the geometric rules of a placement (rules.md 3.1).

Word validity is the lexicon's business; this module only knows the board.

>>> from lexiko.board import Board
>>> from lexiko.move import parse_move
>>> from lexiko.rules import Rules
>>> check_placement(Board.empty(), parse_move("8A WINDY"), Rules())
Traceback (most recent call last):
...
lexiko.errors.IllegalMoveError: the first play must cover the centre square H8
"""

from __future__ import annotations

from collections.abc import Iterable

from lexiko.board import Board, square_name
from lexiko.errors import IllegalMoveError
from lexiko.move import Place
from lexiko.rules import Rules

__all__ = ["check_placement", "place_from_squares"]


def check_placement(board: Board, move: Place, rules: Rules) -> Place:
    """Check where the tiles of ``move`` go and return the move covering its whole main
    word. Raises `IllegalMoveError` naming the problem."""
    n = board.size
    if not move.tiles or move.tile_count == 0:
        raise IllegalMoveError("no tiles placed")
    squares = list(move.squares())
    last_r, last_c, _ = squares[-1]
    if not (0 <= move.row < n and 0 <= move.col < n and last_r < n and last_c < n):
        raise IllegalMoveError(f"the play at {move.position} runs off the board")
    cells = board.cells
    for r, c, code in squares:
        if code and cells[r * n + c]:
            raise IllegalMoveError(f"square {square_name(r, c)} is already occupied")
        if not code and not cells[r * n + c]:
            raise IllegalMoveError(f"square {square_name(r, c)} is empty: there is a gap in the word")
    if not any(cells):  # board.is_empty
        sr, sc = board.layout.start
        if move.tile_count < rules.first_play_min_tiles:
            raise IllegalMoveError(f"the first play must place at least {rules.first_play_min_tiles} tiles")
        if not any(r == sr and c == sc for r, c, _ in squares):
            raise IllegalMoveError(f"the first play must cover the centre square {square_name(sr, sc)}")
    elif not _connected(board, move):
        raise IllegalMoveError("the play does not touch any tile on the board")
    return move.normalized(board)


def _connected(board: Board, move: Place) -> bool:
    n = board.size
    cells = board.cells
    for r, c, code in move.squares():
        if not code:
            return True
        i = r * n + c
        if (
            (r + 1 < n and cells[i + n])
            or (r > 0 and cells[i - n])
            or (c + 1 < n and cells[i + 1])
            or (c > 0 and cells[i - 1])
        ):
            return True
    return False


def place_from_squares(board: Board, tiles: Iterable[tuple[int, int, int]]) -> Place:
    """Build a placement from loose tiles (row, column, code), as a player drags them
    onto a board: they must lie in one row or one column with no empty square
    between them.

    >>> place_from_squares(Board.empty(), [(7, 8, 1), (7, 7, 20)]).tiles
    (20, 1)
    """
    items = sorted(set(tiles))
    if not items:
        raise IllegalMoveError("no tiles placed")
    if len({(r, c) for r, c, _ in items}) != len(items):
        raise IllegalMoveError("two tiles on the same square")
    rows = {r for r, _, _ in items}
    cols = {c for _, c, _ in items}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalMoveError("tiles are not in one line")
    down = len(rows) > 1 or (len(items) == 1 and _single_down(board, items[0][0], items[0][1]))
    placed = {(r, c): code for r, c, code in items}
    r0, c0 = items[0][0], items[0][1]
    r1, c1 = items[-1][0], items[-1][1]
    codes = []
    dr, dc = (1, 0) if down else (0, 1)
    r, c = r0, c0
    while (r, c) != (r1 + dr, c1 + dc):
        if (r, c) in placed:
            codes.append(placed[(r, c)])
        elif board.tile_at(r, c):
            codes.append(0)
        else:
            raise IllegalMoveError(f"square {square_name(r, c)} is empty: there is a gap in the word")
        r, c = r + dr, c + dc
    return Place(r0, c0, down, tuple(codes)).normalized(board)


def _single_down(board: Board, r: int, c: int) -> bool:
    n = board.size
    across = (c > 0 and board.tile_at(r, c - 1)) or (c + 1 < n and board.tile_at(r, c + 1))
    down = (r > 0 and board.tile_at(r - 1, c)) or (r + 1 < n and board.tile_at(r + 1, c))
    return bool(down and not across)
