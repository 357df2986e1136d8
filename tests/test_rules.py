"""Rules: defaults, presets checked option by option against rules.md, immutability,
replace() and validation."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from lexiko.layouts import STANDARD, layout
from lexiko.rules import (
    CLABBERS,
    DUPLICATE,
    EIGHT_TILE,
    GERMAN,
    LEXULOUS,
    MOBILE,
    NINE_TILE,
    POLISH,
    PRESETS,
    SPANISH,
    SUPER,
    TEAMS,
    TOURNAMENT,
    Rules,
    family,
    finish_line,
    preset,
)
from lexiko.tiles import ENGLISH, tile_set

# -- the default: tournament rules ------------------------------------------------------


def test_default_rules_are_the_tournament_rules_of_rules_md() -> None:
    r = Rules()
    assert r.name == "standard"
    assert (r.tiles, r.layout, r.rack_size, r.lexicon, r.variant) == (
        "english",
        "standard15",
        7,
        "TWL06",
        "classic",
    )
    assert (r.min_players, r.max_players, r.teams, r.draw_for_first) == (2, 4, False, True)
    assert (r.bingo_bonus, r.bingo_tiles, r.first_play_min_tiles) == (50, 7, 2)
    assert (r.exchange_min_bag, r.max_exchanges_per_player, r.exchange_is_scoreless) == (7, None, True)
    assert r.scoreless_turn_limit == 6
    # rules.md 5: the seeds' single adjustment is the default; ties are draws
    assert r.end_rack_rule == "single"
    assert r.tiebreak == "none"
    assert r.target_score is None
    assert r.challenge_rule == "double"
    assert r.challenge_penalty_to == "challenged"
    assert (r.challenge_bonus, r.challenger_penalty, r.failed_challenge_loses_turn) == (0, 0, True)
    assert (r.time_minutes, r.time_increment, r.max_overtime, r.overtime_penalty) == (None, 0.0, 10.0, 10)
    assert r.match_minutes is None
    assert r.describe() == "standard: standard options"


def test_tournament_preset_uses_the_double_end_rack_rule() -> None:
    assert TOURNAMENT == Rules(name="tournament", end_rack_rule="double")
    assert TOURNAMENT.challenge_rule == "double"
    assert TOURNAMENT.describe() == "tournament: end_rack_rule='double'"


def test_standard_equipment_matches_rules_md() -> None:
    ts = Rules().tile_set
    assert ts is ENGLISH
    assert ts.total == 100 and ts.blanks == 2
    spec = (
        "A 9 1, B 2 3, C 2 3, D 4 2, E 12 1, F 2 4, G 3 2, H 2 4, I 9 1, J 1 8, K 1 5, L 4 1, "
        "M 2 3, N 6 1, O 8 1, P 2 3, Q 1 10, R 6 1, S 4 1, T 6 1, U 4 1, V 2 4, W 2 4, X 1 8, "
        "Y 2 4, Z 1 10"
    )
    for item in spec.split(", "):
        letter, count, value = item.split()
        code = ts.code(letter)
        assert (ts.count(code), ts.value(code)) == (int(count), int(value)), letter
    assert ts.count(0) == 2 and ts.value(0) == 0

    lay = Rules().board_layout
    assert lay is STANDARD and lay.size == 15 and lay.start == (7, 7)

    def squares(names: str) -> set[tuple[int, int]]:
        return {(int(n[1:]) - 1, ord(n[0]) - 65) for n in names.split()}

    expected = {
        "T": squares("A1 H1 O1 A8 O8 A15 H15 O15"),
        "D": squares("B2 C3 D4 E5 K5 L4 M3 N2 B14 C13 D12 E11 K11 L12 M13 N14"),
        "*": squares("H8"),
        "t": squares("F2 J2 B6 F6 J6 N6 B10 F10 J10 N10 F14 J14"),
        "d": squares("D1 L1 G3 I3 A4 H4 O4 C7 G7 I7 M7 D8 L8 C9 G9 I9 M9 A12 H12 O12 G13 I13 D15 L15"),
    }
    for kind, where in expected.items():
        got = {(r, c) for r in range(15) for c in range(15) if lay.premium(r, c) == kind}
        assert got == where, kind
    assert sum(len(w) for w in expected.values()) == 61
    # the star is a double-word square
    assert lay.word_mult[7 * 15 + 7] == 2


# -- family rules of the seeds ----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_family_rules(players: int) -> None:
    r = family(players)
    assert r.name == "family"
    assert r.challenge_rule == "single"  # free challenge
    assert r.scoreless_turn_limit == 2 * players  # everybody passes twice in a row
    assert r.end_rack_rule == "single"
    assert r.tiebreak == "before-adjustment"
    assert r.failed_challenge_loses_turn is False
    assert r.challenge_bonus == 0 and r.challenger_penalty == 0
    assert preset("family", players=players) == r
    assert preset("FAMILY", players=players) == r


def test_family_is_in_presets_for_two_players() -> None:
    assert PRESETS["family"] == family(2)
    assert PRESETS["family"].scoreless_turn_limit == 4


# -- variants ---------------------------------------------------------------------------


def test_nine_tile_preset() -> None:
    assert NINE_TILE.rack_size == 9
    assert NINE_TILE.bingo_tiles == 7  # bonus for 7, 8 or 9 tiles
    assert NINE_TILE.bingo_bonus == 50
    assert NINE_TILE.layout == "standard15" and NINE_TILE.tiles == "english"
    assert preset("nine-tile") is NINE_TILE


def test_eight_tile_preset() -> None:
    assert EIGHT_TILE.rack_size == 8
    assert EIGHT_TILE.bingo_tiles == 8
    assert preset("eight-tile") is EIGHT_TILE


def test_lexulous_preset_its_board_tiles_and_bonus_tiers() -> None:
    from collections import Counter

    assert preset("lexulous") is LEXULOUS
    assert (LEXULOUS.rack_size, LEXULOUS.layout, LEXULOUS.tiles) == (8, "lexulous15", "lexulous")
    assert [LEXULOUS.bonus(n) for n in range(1, 9)] == [0, 0, 0, 0, 0, 0, 40, 50]
    assert LEXULOUS.challenge_rule == "void"  # words are checked as they are played
    # the published figures: 89 tiles worth 206 points; 8 triple-word squares where the
    # standard board has them, 17 double-word, 24 double-letter, 8 triple-letter
    ts = LEXULOUS.tile_set
    assert (ts.total, ts.rack_value(ts.bag())) == (89, 206)
    assert (ts.value(ts.code("Q")), ts.value(ts.code("Z")), ts.value(ts.code("K"))) == (12, 12, 6)
    lay = LEXULOUS.board_layout
    squares = Counter("".join(lay.rows))
    assert (squares["T"], squares["D"] + squares["*"], squares["d"], squares["t"]) == (8, 17, 24, 8)
    std = Rules().board_layout
    assert [i for i, c in enumerate("".join(lay.rows)) if c == "T"] == [
        i for i, c in enumerate("".join(std.rows)) if c == "T"
    ]
    assert lay.start == (7, 7) and lay.word_mult[7 * 15 + 7] == 2


def test_bonus_tiers_option() -> None:
    r = Rules(bingo_tiles=7, bingo_bonus=40, bonus_tiers="8:50, 9:75")
    assert r.bonus_tiers == ((8, 50), (9, 75))
    assert [r.bonus(n) for n in (6, 7, 8, 9, 10)] == [0, 40, 50, 75, 75]
    assert Rules(bonus_tiers=[[8, 50]]) == Rules(bonus_tiers=((8, 50),))  # read back from JSON
    assert Rules().bonus(7) == 50 and Rules().bonus(6) == 0  # no tiers: the one bingo bonus
    assert "bingo_bonus=40, bonus_tiers='8:50'," in LEXULOUS.describe()


@pytest.mark.parametrize(
    ("tiers", "message"),
    [
        ("8", "bonus_tiers must be tiles:bonus pairs such as 8:50, not '8'"),
        ("8:fifty", "bonus_tiers must be tiles:bonus pairs such as 8:50, not '8:fifty'"),
        ([[8, -5]], "bonus_tiers must be tiles:bonus pairs such as 8:50, not [[8, -5]]"),
        ("7:40", "bonus_tiers must each be for more than bingo_tiles (7) tiles, no two for the same number"),
        ("8:50 8:60", "bonus_tiers must each be for more than bingo_tiles (7) tiles, no two for the same number"),
    ],
)
def test_bad_bonus_tiers_are_refused(tiers: object, message: str) -> None:
    with pytest.raises(ValueError) as e:
        Rules(bonus_tiers=tiers)  # type: ignore[arg-type]
    assert str(e.value) == message


def test_super_preset_is_21x21_with_200_tiles_and_4_blanks() -> None:
    assert SUPER.layout == "super21" and SUPER.tiles == "super-english"
    lay = SUPER.board_layout
    assert lay.size == 21 and lay.start == (10, 10)
    kinds = Counter(ch for row in lay.rows for ch in row)
    assert kinds["q"] > 0 and kinds["Q"] > 0  # quadruple letter and quadruple word squares
    assert 4 in lay.letter_mult and 4 in lay.word_mult
    assert lay.word_mult[10 * 21 + 10] == 2
    ts = SUPER.tile_set
    assert ts.total == 200 and ts.blanks == 4
    assert len(ts.bag()) == 200
    # same letter values as the classic set
    assert ts.values == ENGLISH.values
    assert SUPER.rack_size == 7
    assert preset("super") is SUPER


def test_super_layout_is_symmetric() -> None:
    lay = layout("super21")
    n = lay.size
    for r in range(n):
        for c in range(n):
            p = lay.premium(r, c)
            assert p == lay.premium(c, r) == lay.premium(n - 1 - r, c) == lay.premium(r, n - 1 - c)


def test_standard_layout_is_symmetric() -> None:
    n = 15
    for r in range(n):
        for c in range(n):
            p = STANDARD.premium(r, c)
            assert p == STANDARD.premium(c, r) == STANDARD.premium(n - 1 - r, n - 1 - c)


def test_teams_preset_follows_the_seeds_team_rules() -> None:
    r = TEAMS
    assert r.teams is True and (r.min_players, r.max_players) == (4, 4)
    # a failed challenge costs the challenger 5 points; the challenged player gets nothing
    assert r.challenge_rule == "single" and r.challenge_penalty_to == "challenger"
    assert r.challenger_penalty == 5 and r.challenge_bonus == 0
    assert r.failed_challenge_loses_turn is False
    # no exchange with ten tiles or fewer in the bag; an exchange is not a pass
    assert r.exchange_min_bag == 11 and r.exchange_is_scoreless is False
    # all four players passed in two cycles
    assert r.scoreless_turn_limit == 8
    # 15 minutes per team, 30 minutes per match; a team out of time cannot move
    assert (r.time_minutes, r.match_minutes) == (15, 30)
    assert r.max_overtime == 0 and r.overtime_penalty == 0
    assert r.lexicon == "SOWPODS"  # the seed's official dictionary is Collins
    assert preset("teams") is TEAMS


@pytest.mark.parametrize(
    ("level", "targets"),
    [("beginner", (70, 60, 50)), ("intermediate", (120, 100, 90)), ("expert", (200, 180, 160))],
)
def test_finish_line_targets(level: str, targets: tuple[int, int, int]) -> None:
    for players, target in zip((2, 3, 4), targets, strict=True):
        r = finish_line(players, level)
        assert r.target_score == target
        assert r.name == f"finish-line-{level}"
        assert preset(f"finish-line-{level}", players=players) == r


def test_finish_line_defaults_and_errors() -> None:
    assert preset("finish-line").target_score == 120
    assert preset("finish-line", players=4).target_score == 90
    assert PRESETS["finish-line"].target_score == 120
    with pytest.raises(
        ValueError, match="^Finish Line needs 2 to 4 players and a level of beginner, intermediate, expert$"
    ):
        finish_line(5, "expert")
    with pytest.raises(ValueError, match="Finish Line needs 2 to 4 players"):
        finish_line(2, "grandmaster")


def test_language_and_other_presets() -> None:
    # rules.md 8: Spanish exchanges with a single tile in the bag and ends after 12
    # scoreless turns; Polish allows 3 exchanges that are not scoreless; German club
    # play ends after 4 consecutive passes
    assert (SPANISH.tiles, SPANISH.exchange_min_bag, SPANISH.scoreless_turn_limit) == ("spanish", 1, 12)
    assert (POLISH.tiles, POLISH.max_exchanges_per_player, POLISH.exchange_is_scoreless) == (
        "polish",
        3,
        False,
    )
    assert (GERMAN.tiles, GERMAN.scoreless_turn_limit) == ("german", 4)
    assert CLABBERS.variant == "clabbers"
    assert DUPLICATE.variant == "duplicate" and DUPLICATE.min_players == 1
    assert MOBILE.layout == "mobile15" and MOBILE.tiles == "mobile"
    # two-letter tiles count as one tile
    sp = tile_set("spanish")
    assert sp.parse("CHA[LL]") == (sp.code("CH"), sp.code("A"), sp.code("LL"))


def test_every_preset_validates_and_is_found_by_name() -> None:
    for name, r in PRESETS.items():
        assert preset(name) == r
        assert preset(name.upper()) == r
        # every preset names a real tile set and layout
        assert r.tile_set.total > 0 and r.board_layout.size >= 15


def test_unknown_preset() -> None:
    with pytest.raises(ValueError, match=r"^unknown rules preset 'chess'; known: "):
        preset("chess")


# -- immutability, replace, validation --------------------------------------------------


def test_rules_are_immutable_and_hashable() -> None:
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.rack_size = 9  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        TOURNAMENT.challenge_rule = "void"  # type: ignore[misc]
    assert TOURNAMENT.challenge_rule == "double"
    assert hash(Rules()) == hash(Rules())
    assert len({Rules(), Rules(), TOURNAMENT}) == 2


def test_replace_returns_a_new_validated_value() -> None:
    r = Rules()
    v = r.replace(challenge_rule="void", bingo_bonus=35)
    assert (v.challenge_rule, v.bingo_bonus) == ("void", 35)
    assert (r.challenge_rule, r.bingo_bonus) == ("double", 50)  # the original is unchanged
    assert v.describe() == "standard: bingo_bonus=35, challenge_rule='void'"
    with pytest.raises(ValueError, match="^challenge_rule must be one of void, single, double, five-point, ten-point$"):
        r.replace(challenge_rule="triple")
    with pytest.raises(TypeError):
        r.replace(no_such_option=1)


def test_point_challenge_rules() -> None:
    assert Rules(challenge_rule="five-point").challenge_bonus == 5
    assert Rules(challenge_rule="ten-point").challenge_bonus == 10
    assert Rules(challenge_rule="single").challenge_bonus == 0
    assert Rules(challenge_rule="double").failed_challenge_loses_turn is True
    assert Rules(challenge_rule="five-point").failed_challenge_loses_turn is False
    r = Rules(challenge_rule="five-point", challenge_penalty_to="challenger", challenge_points=7)
    assert (r.challenge_bonus, r.challenger_penalty) == (0, 7)
    assert Rules(challenge_rule="void", challenge_penalty_to="challenger").challenger_penalty == 0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rack_size": 0}, "rack_size must be 1 to 15"),
        ({"rack_size": 16}, "rack_size must be 1 to 15"),
        ({"bingo_tiles": 0}, "bingo_tiles must be at least 1"),
        ({"first_play_min_tiles": 8}, "first_play_min_tiles must be between 1 and the rack size"),
        ({"min_players": 5}, "min_players must be at least 1 and at most max_players"),
        ({"teams": True, "max_players": 3}, "team play needs four players"),
        ({"exchange_min_bag": 0}, "exchange_min_bag must be at least 1"),
        ({"scoreless_turn_limit": -1}, "scoreless_turn_limit must be 0 (never) or more"),
        ({"end_rack_rule": "triple"}, "end_rack_rule must be 'single' or 'double'"),
        ({"tiebreak": "coin"}, "tiebreak must be 'none' or 'before-adjustment'"),
        ({"variant": "scrabulous"}, "variant must be 'classic', 'clabbers' or 'duplicate'"),
        ({"challenge_penalty_to": "nobody"}, "challenge_penalty_to must be 'challenged' or 'challenger'"),
        ({"time_minutes": 0}, "time_minutes must be positive"),
        ({"tiles": "klingon"}, "unknown tile set 'klingon'; known: "),
        ({"layout": "hex"}, "unknown layout 'hex'; known: "),
    ],
)
def test_invalid_options_are_refused_with_a_message(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as e:
        Rules(**changes)  # type: ignore[arg-type]
    assert str(e.value).startswith(message)


def test_several_problems_are_reported_together() -> None:
    with pytest.raises(ValueError) as e:
        Rules(rack_size=0, scoreless_turn_limit=-2)
    assert str(e.value) == (
        "rack_size must be 1 to 15; first_play_min_tiles must be between 1 and the rack size; "
        "scoreless_turn_limit must be 0 (never) or more"
    )
