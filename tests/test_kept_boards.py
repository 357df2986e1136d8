"""The kernel keeps the cross-checks and anchors of the last boards it searched, and
brings them up to date when the next board adds tiles (a move, or several): every list
it gives from a kept board must equal the list from a board prepared afresh."""

from __future__ import annotations

import pytest

from lexiko import kernel
from lexiko.board import Board
from lexiko.game import Game
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.movegen import generate

pytestmark = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")


def fresh(board: Board, rack: tuple[int, ...], lex: Lexicon, **kw: object) -> list[object]:
    kernel.forget_boards()
    return list(generate(board, rack, lex, leaves=LeaveTable.default(), **kw))  # type: ignore[arg-type]


def test_a_game_searched_from_kept_boards_matches_fresh_searches(twl06: Lexicon) -> None:
    g = Game(["A", "B"], seed=7, lexicon=twl06, first_player=0)
    boards: list[Board] = []
    racks: list[tuple[int, ...]] = []
    kept_hits = 0
    while not g.is_over and g.bag_count and len(boards) < 20:
        board, rack = g.board, g.rack()
        boards.append(board)
        racks.append(rack)
        every = list(generate(board, rack, twl06, leaves=LeaveTable.default()))
        again = list(generate(board, rack, twl06, leaves=LeaveTable.default()))  # the same board, kept
        best = list(generate(board, rack, twl06, leaves=LeaveTable.default(), best=3))
        assert every == again == fresh(board, rack, twl06)
        assert best == fresh(board, rack, twl06, best=3) == every[:3]
        kept_hits += not board.is_empty
        g.play(every[0])
    assert kept_hits >= 12
    # several moves at once: from the board of turn 5 to that of turn 9, and back
    for a, b in ((5, 9), (9, 5), (0, 12), (12, 13)):
        kernel.forget_boards()
        generate(boards[a], racks[a], twl06)
        assert list(generate(boards[b], racks[b], twl06, leaves=LeaveTable.default())) == fresh(
            boards[b], racks[b], twl06
        )
