"""CGP operations as other programs write them: letter distribution, board, variant,
bingo bonus, challenge rule, exchange limit, scoreless turns; multi-letter tiles."""

from __future__ import annotations

import pytest

from lexiko import cgp
from lexiko.errors import NotationError

EMPTY = "/".join(["15"] * 15)
SUPER_EMPTY = "/".join(["21"] * 21)


def test_rule_operations_make_the_games_rules() -> None:
    pos = cgp.parse(f"{EMPTY} AEINRST/ 0/0 3 lex NWL20; bb 35; cr 10pt; etl 1; mcnz 4; gid abc123; lm 8D WINDY;")
    g = cgp.to_game(pos, lexicon=None, seed=1)
    r = g.rules
    assert (r.lexicon, r.bingo_bonus, r.challenge_rule, r.exchange_min_bag, r.scoreless_turn_limit) == (
        "NWL20",
        35,
        "ten-point",
        1,
        4,
    )
    assert g.scoreless_turns == 3
    assert pos.ops["gid"] == "abc123" and pos.ops["lm"] == "8D WINDY"  # kept, change nothing


def test_spanish_position_with_multi_letter_tiles() -> None:
    row8 = "5[CH]A[LL]E6"
    board = "/".join(["15"] * 7 + [row8] + ["15"] * 7)
    pos = cgp.parse(f"{board} [RR]A?/ 0/0 0 ld spanish; lex FISE2;")
    assert pos.board.tiles.name == "spanish"
    assert [pos.board.face_at(7, c) for c in range(5, 9)] == ["CH", "A", "LL", "E"]
    g = cgp.to_game(pos, lexicon=None, seed=1)
    assert g.rules.tiles == "spanish" and g.tiles.format(g.rack(0)) == "A[RR]?"  # rack order
    assert cgp.dumps(pos).startswith("15/15/15/15/15/15/15/5[CH]A[LL]E6/")


@pytest.mark.parametrize("ops", ["bdn SuperCrosswordGame;", "var classic_super;", "bdn super21; ld english_super;"])
def test_super_board_by_name(ops: str) -> None:
    g = cgp.to_game(cgp.parse(f"{SUPER_EMPTY} AEIOU/ 0/0 0 {ops}"), lexicon=None, seed=1)
    assert g.rules.layout == "super21" and g.rules.tiles == "super-english"
    assert g.bag_count == 200 - 5 - 7


def test_wordsmog_is_clabbers() -> None:
    g = cgp.to_game(cgp.parse(f"{EMPTY} AEIOU/ 0/0 0 var wordsmog; bdn CrosswordGame;"), lexicon=None, seed=1)
    assert g.rules.variant == "clabbers" and g.rules.layout == "standard15"


@pytest.mark.parametrize(
    ("ops", "message"),
    [
        (
            "ld klingon;",
            "unknown letter distribution 'ld klingon'; known: bulgarian, catalan, czech, danish, dutch, english, "
            "english_super, french, german, greek, hungarian, italian, lexulous, mobile, norwegian, polish, "
            "portuguese, romanian, russian, slovak, spanish, super-english, swedish, ukrainian",
        ),
        (
            "bdn Hexagon;",
            "unknown board 'bdn Hexagon'; known: CrosswordGame, SuperCrosswordGame, lexulous15, "
            "mobile15, standard15, super21",
        ),
        (
            "var speedy;",
            "unknown variant 'var speedy'; known: classic, classic_super, wordsmog, wordsmog_super, clabbers",
        ),
        ("cr triple;", "challenge rule 'cr triple' is not one lexiko plays; known: void, single, double, 5pt, 10pt"),
        ("bb lots;", "'bb lots': the bingo bonus must be a whole number of at least 0"),
        ("etl 0;", "'etl 0': the exchange tile limit must be a whole number of at least 1"),
        ("mcnz -1;", "'mcnz -1': the number of scoreless turns must be a whole number of at least 0"),
    ],
)
def test_bad_operations_are_named(ops: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        cgp.parse(f"{EMPTY} AEIOU/ 0/0 0 {ops}")
    assert str(info.value) == message
