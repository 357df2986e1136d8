"""CGP positions: read, write, and set up a game from one."""

from __future__ import annotations

import pytest
from shared_paths import SHARED, needs_shared

from lexiko import cgp
from lexiko.errors import IllegalMoveError, NotationError
from lexiko.rules import SUPER

TSV = SHARED / "positions" / "movegen-twl06.tsv"
LINES = [line.split("\t") for line in TSV.read_text().splitlines()[1:]] if TSV.exists() else []

MANY = (
    "7P7/7A7/7R7/7T7/7E7/7R7/4P2RETRACED/1ORDINEE3S3/4C6T3/4T6O3/4U6N3/4R6I3/4A6E3/4L6S3/15 AEINS??/DEIKLYY 139/221 0"
)


def test_read_a_position_with_two_racks() -> None:
    pos = cgp.parse(MANY)
    assert pos.racks == ("AEINS??", "DEIKLYY")
    assert pos.scores == (139, 221)
    assert pos.zeros == 0 and pos.ops == {}
    assert pos.board.face_at(6, 7) == "R" and pos.board.face_at(7, 1) == "O"
    assert cgp.dumps(pos) == MANY


@needs_shared
@pytest.mark.parametrize("line", LINES, ids=[line[0] for line in LINES])
def test_positions_of_the_movegen_file_round_trip(line: list[str]) -> None:
    pos = cgp.parse(line[1])
    assert cgp.dumps(pos) == line[1]


def test_game_from_a_position_takes_the_tiles_out_of_the_bag() -> None:
    game = cgp.to_game(cgp.parse(MANY), lexicon=None, seed=3)
    on_board = sum(1 for c in game.board.cells if c)
    assert on_board == 35
    assert game.bag_count == 100 - 35 - 14
    assert game.scores == [139, 221]
    assert game.tiles.format(game.rack(0)) == "AEINS??"
    again = cgp.from_game(game)
    assert cgp.dumps(again) == MANY + " lex TWL06;"


def test_operations_and_the_lexicon_op() -> None:
    pos = cgp.parse("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 QI/ 0/0 2 lex CSW21; bb 50;")
    assert pos.ops == {"lex": "CSW21", "bb": "50"} and pos.zeros == 2
    assert cgp.to_game(pos, lexicon=None).rules.lexicon == "CSW21"


def test_super_board_by_row_count() -> None:
    row = "/".join(["21"] * 21)
    pos = cgp.parse(f"{row} AEIOU/ 0/0 0")
    assert pos.board.size == 21
    game = cgp.to_game(pos, SUPER, lexicon=None)
    assert game.bag_count == 200 - 5 - 7


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("15/15 A/ 0/0 0", "the board has 2 rows; boards have 15, 21"),
        (
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/",
            "a CGP position has a board, racks, scores and a scoreless-turn count; got 2 field(s)",
        ),
        (
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A1/ 0/0 0",
            "rack 'A1': '1' is not a letter of the english tile set",
        ),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/x 0", "scores '0/x' are not numbers separated by '/'"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/B/ 0/0 0", "3 racks but 2 scores"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 z", "the scoreless-turn count 'z' is not a number"),
        ("16/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0", "board row 1 '16' has 16 squares, not 15"),
        # found by fuzzing: a run of empty squares was allocated before its length was checked
        pytest.param(
            "15/15/1" + "0" * 30 + "/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0",
            "board row 3 has a run of 1000000000... empty squares; a 15x15 board has 15 a row",
            id="run-of-10**30",
        ),
        pytest.param(
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/" + "9" * 5000 + " A/ 0/0 0",
            "board row 15 has a run of 9999999999... empty squares; a 15x15 board has 15 a row",
            id="run-of-5000-digits",
        ),
    ],
)
def test_bad_positions_are_named(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        cgp.parse(text)
    assert str(info.value) == message


def test_a_position_with_more_tiles_than_the_set() -> None:
    pos = cgp.parse("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ZZ/ 0/0 0")
    with pytest.raises(IllegalMoveError, match=r"^the position uses more tiles than the set holds: Z too many$"):
        cgp.to_game(pos, lexicon=None)
