"""Fuzz move notation: parse any text as a move, alone and against a board with tiles
on it, and read back the notation lexiko writes for what parses."""

from __future__ import annotations

from _harness import instrumented, main, text_of

with instrumented():
    from lexiko.board import Board, parse_position
    from lexiko.move import Place, parse_move, parse_tiles
    from lexiko.tiles import ENGLISH, SPANISH

BOARD = Board.empty().place(Place(7, 5, False, (3, 1, 20, 19)))  # CATS at 8F
SPANISH_BOARD = Board.empty(tiles=SPANISH)


def one_input(data: bytes) -> None:
    text = text_of(data)
    choice = data[0] % 4 if data else 0
    if choice == 0:
        move = parse_move(text)
        parse_move(move.notation())
    elif choice == 1:
        move = parse_move(text, board=BOARD)
        parse_move(move.notation(board=BOARD), board=BOARD)
    elif choice == 2:
        move = parse_move(text, SPANISH, SPANISH_BOARD)
        parse_move(move.notation(SPANISH, SPANISH_BOARD), SPANISH, SPANISH_BOARD)
    else:
        parse_tiles(text, ENGLISH)
        parse_position(text, 15)


if __name__ == "__main__":
    main(one_input)
