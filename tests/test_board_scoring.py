"""Board coordinates, move notation, placement geometry and scoring, with the seeds'
worked examples reproduced on the real board."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lexiko.board import Board, format_position, parse_position, parse_square, square_name
from lexiko.errors import IllegalMoveError, NotationError
from lexiko.game import Game
from lexiko.legality import check_placement, place_from_squares
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place, parse_move, parse_tiles
from lexiko.rules import LEXULOUS, NINE_TILE, SUPER, Rules
from lexiko.scoring import score, words_formed
from lexiko.tiles import BLANK, ENGLISH

E = ENGLISH
R = Rules()
VOID = Rules(challenge_rule="void")


def board_of(*plays: str) -> Board:
    b = Board.empty()
    for p in plays:
        b = b.place(parse_move(p, E, b))
    return b


def words(board: Board, move: str) -> list[tuple[str, int]]:
    m = check_placement(board, parse_move(move, E, board), R)
    return [(w.text, w.score) for w in words_formed(board, m)]


# -- coordinates ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8D", (7, 3, False)),
        ("D8", (7, 3, True)),
        ("8d", (7, 3, False)),
        ("d8", (7, 3, True)),
        ("1A", (0, 0, False)),
        ("A1", (0, 0, True)),
        ("15O", (14, 14, False)),
        ("O15", (14, 14, True)),
        ("H8", (7, 7, True)),
        (" 8H ", (7, 7, False)),
    ],
)
def test_parse_position(text: str, expected: tuple[int, int, bool]) -> None:
    assert parse_position(text) == expected
    r, c, d = expected
    assert format_position(r, c, d) == text.strip().upper()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("16A", "position '16A' is off the 15x15 board"),
        ("P1", "position 'P1' is off the 15x15 board"),
        ("0A", "position '0A' is off the 15x15 board"),
        ("8", "'8' is not a position like 8D (across) or D8 (down)"),
        ("HH", "'HH' is not a position like 8D (across) or D8 (down)"),
        ("8D8", "'8D8' is not a position like 8D (across) or D8 (down)"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_position(text)
    assert str(e.value) == message


def test_square_names() -> None:
    assert square_name(7, 7) == "H8"
    assert square_name(0, 14) == "O1"
    assert parse_square("H8") == (7, 7)
    assert parse_square("A15") == (14, 0)
    assert parse_square("8H") == (7, 7)
    assert parse_position("U21", 21) == (20, 20, True)
    with pytest.raises(NotationError):
        parse_position("U21", 15)


# -- move notation ----------------------------------------------------------------------


def test_parse_across_and_down_plays() -> None:
    across = parse_move("8D WINDY")
    assert across == Place(7, 3, False, E.parse("WINDY"))
    assert across.position == "8D" and across.tile_count == 5
    assert [(r, c) for r, c, _ in across.squares()] == [(7, 3), (7, 4), (7, 5), (7, 6), (7, 7)]
    down = parse_move("D8 WINDY")
    assert down == Place(7, 3, True, E.parse("WINDY"))
    assert [(r, c) for r, c, _ in down.squares()] == [(7, 3), (8, 3), (9, 3), (10, 3), (11, 3)]


def test_lowercase_letters_are_blanks() -> None:
    m = parse_move("8D wINDy")
    assert m.tiles[0] == E.code("W") | BLANK and m.tiles[4] == E.code("Y") | BLANK
    assert m.tiles[1:4] == E.parse("IND")
    assert m.rack_tiles() == (0, 9, 14, 4, 0)  # blanks leave the rack as ?
    assert m.notation() == "8D wINDy"


def test_played_through_letters_as_dot_or_parentheses() -> None:
    dots = parse_move("H7 A.E")
    parens = parse_move("H7 A(Y)E")
    assert dots == parens == Place(6, 7, True, (1, 0, 5))
    assert parse_move("8H (AB)C").tiles == (0, 0, 3)
    assert parse_move("8H (AB)C").tile_count == 1
    b = board_of("8D WINDY")
    # given the board, parentheses are written back with the letters
    assert parens.notation(E, b) == "H7 A(Y)E"
    assert parens.notation(E) == "H7 A.E"
    # letters written over occupied squares count as played through
    assert parse_move("H7 AYE", E, b) == parens
    assert parse_move("8D WINDYs", E, b) == Place(7, 3, False, (0, 0, 0, 0, 0, E.code("S") | BLANK))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move: write a play like 8D WORD, an exchange like -ABC, or - to pass"),
        ("8D", "'8D' is not a move: write a play like 8D WORD, an exchange like -ABC, or -"),
        ("8D WIN DY", "'8D WIN DY' is not a move: write a play like 8D WORD, an exchange like -ABC, or -"),
        ("8L WINDY", "'8L WINDY' runs off the board"),
        ("8D W?NDY", "'W?NDY': a blank on the board needs its letter, written lower case"),
        ("8D W(IN", "unclosed '(' in 'W(IN'"),
        ("8D W)IN", "')' without '(' in 'W)IN'"),
        ("8D W((I))N", "nested '(' in 'W((I))N'"),
        ("8D W1NDY", "'1' is not a letter of the english tile set"),
        ("-7", "'-7' gives a number of tiles; name the tiles to exchange, like -ABC"),
    ],
)
def test_bad_moves(text: str, message: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_move(text)
    assert str(e.value) == message


def test_notation_checked_against_the_board() -> None:
    b = board_of("8D WINDY")
    with pytest.raises(NotationError) as e:
        parse_move("H7 AXE", E, b)
    assert str(e.value) == "'H7 AXE': square H8 holds Y, not X"
    with pytest.raises(NotationError) as e:
        parse_move("H9 (A)E", E, b)
    assert str(e.value) == "'H9 (A)E': square H9 is empty; nothing to play through"


def test_exchange_and_pass_notation() -> None:
    assert parse_move("-AEI") == Exchange((1, 5, 9))
    assert parse_move("exchange QU?") == Exchange((17, 21, 0))
    assert parse_move("-") == Pass() == parse_move("pass")
    assert Exchange((0, 17, 1)).notation() == "-AQ?"
    assert Pass().notation() == "-"
    assert parse_tiles("aeq?") == (1, 5, 17, 0)


# -- placement geometry ------------------------------------------------------------------


def test_place_from_squares() -> None:
    b = board_of("8D WINDY")
    m = place_from_squares(b, [(6, 7, 1), (8, 7, 5)])  # A above Y, E below: AYE down
    assert m == Place(6, 7, True, (1, 0, 5))
    with pytest.raises(IllegalMoveError, match="^tiles are not in one line$"):
        place_from_squares(b, [(6, 7, 1), (8, 8, 5)])
    with pytest.raises(IllegalMoveError, match=r"^square H10 is empty: there is a gap in the word$"):
        place_from_squares(b, [(8, 7, 1), (11, 7, 5)])
    with pytest.raises(IllegalMoveError, match="^two tiles on the same square$"):
        place_from_squares(b, [(8, 7, 1), (8, 7, 5)])
    with pytest.raises(IllegalMoveError, match="^no tiles placed$"):
        place_from_squares(b, [])


def test_single_tile_main_word_direction() -> None:
    b = board_of("8D WINDY")
    # S after WINDY: only the across word
    m = check_placement(b, parse_move("I8 S"), R)
    assert (m.down, m.position, m.tiles) == (False, "8D", (0, 0, 0, 0, 0, 19))
    # A above Y: only the down word
    m = check_placement(b, parse_move("7H A"), R)
    assert (m.down, m.position) == (True, "H7")


def test_single_tile_forming_two_words_scores_both() -> None:
    b = board_of("8D WINDY", "H9 ES")  # Y-E-S down from H8
    # an A on G9 (a DL) makes AE across and DA down (D on G8): the A counts 2 in both
    assert words(b, "G9 A") == [("AE", 2 + 1), ("DA", 2 + 2)]
    assert score(b, check_placement(b, parse_move("G9 A"), R), R) == 7


def test_check_placement_messages() -> None:
    empty = Board.empty()
    b = board_of("8D WINDY")
    cases = [
        (empty, "8A WINDY", "the first play must cover the centre square H8"),
        (empty, "8H A", "the first play must place at least 2 tiles"),
        (b, "8D WINDY", "square D8 is already occupied"),
        (b, "2A AA", "the play does not touch any tile on the board"),
        (b, "8D .....", "no tiles placed"),
    ]
    for board, text, message in cases:
        with pytest.raises(IllegalMoveError) as e:
            check_placement(board, parse_move(text), R)
        assert str(e.value) == message, text
    with pytest.raises(IllegalMoveError) as e:
        check_placement(b, Place(6, 3, False, (1, 0, 1)), R)
    assert str(e.value) == "square E7 is empty: there is a gap in the word"
    with pytest.raises(IllegalMoveError) as e:
        check_placement(b, Place(7, 12, False, (1, 1, 1, 1)), R)
    assert str(e.value) == "the play at 8M runs off the board"


def test_filling_a_gap_counts_as_touching() -> None:
    b = Board.empty().place(parse_move("8D WI")).place(parse_move("8G DY"))
    m = check_placement(b, parse_move("8F N"), R)
    assert m == Place(7, 3, False, (0, 0, 14, 0, 0))
    assert words_formed(b, m)[0].text == "WINDY"


# -- scoring: the seeds' worked arithmetic on the real board ----------------------------


def _play(twl06: Lexicon, racks_and_moves: list[tuple[str, str]]) -> Game:
    g = Game(["P1", "P2"], VOID, seed=7, lexicon=twl06, first_player=0)
    for rack, move in racks_and_moves:
        g.set_rack(g.player_on_turn, rack)
        g.play(move)
    return g


def test_fasten_26(twl06: Lexicon) -> None:
    # FASTEN at 8D: F on the double letter D8, E on the centre star: (8+1+1+1+1+1) x 2
    m = parse_move("8D FASTEN")
    assert E.value(E.code("F")) == 4
    assert Board.empty().layout.premium(7, 3) == "d"
    assert words(Board.empty(), "8D FASTEN") == [("FASTEN", 26)]
    assert score(Board.empty(), m, R) == 26
    g = _play(twl06, [("AEFNSTX", "8D FASTEN")])
    assert g.history[-1].score == 26 and g.scores == [26, 0]


def test_quickly_100(twl06: Lexicon) -> None:
    # QUICKLY down column E from E5 to E11 covers both double-word squares E5 and E11,
    # through the C of ACTOR: 25 x 2 x 2 = 100 (six tiles, so no bingo)
    b = board_of("8D ACTOR")
    m = parse_move("E5 QUICKLY", E, b)
    assert m.notation(E, b) == "E5 QUI(C)KLY"
    assert m.tile_count == 6
    assert sum(E.value(c) for c in E.parse("QUICKLY")) == 25
    assert words(b, "E5 QUI(C)KLY") == [("QUICKLY", 100)]
    g = _play(twl06, [("ACEORTT", "8D ACTOR"), ("IKLQUYZ", "E5 QUI(C)KLY")])
    assert [e.score for e in g.history] == [16, 100]
    assert g.scores == [16, 100]


def test_quickly_as_seven_tiles_is_a_bingo() -> None:
    # for contrast: all seven tiles over the same two DW squares is 100 + 50
    assert score(Board.empty(), parse_move("E5 QUICKLY"), R) == 150


def test_infolds_108(twl06: Lexicon) -> None:
    """INFOLDS, seven tiles with a blank as I, F on a double letter, one double word,
    crossing USQUEBAE: 28 + cross words 10+2+9+4+2+3 = 30, + 50 = 108.

    The seed's own split (main 30 + cross words 1+9+11+4+3 = 28) cannot be laid on the
    real board: its main sum leaves out the S (0+1+8+3+1+2+1 is 16, not 15) and no
    double-letter square of the board is next to a triple-letter one, so F on a DL and
    O on a TL cannot both hold. The total, the blank I, the F doubled in two words, the
    single double word and the bingo are reproduced here.
    """
    g = _play(
        twl06,
        [
            ("EHMOXYZ", "8E HOME"),
            ("ARRSTVV", "E8 (H)ATS"),
            ("ABEEQUU", "11D U(S)QUEBAE"),
            ("?DFLNOS", "12F iNFOLDS"),
        ],
    )
    ev = g.history[-1]
    assert ev.move == Place(11, 5, False, (E.code("I") | BLANK,) + E.parse("NFOLDS"))
    assert ev.score == 108
    assert ev.words == ("INFOLDS", "QI", "UN", "EF", "BO", "AL", "ED")
    lay = g.board.layout
    assert lay.premium(11, 7) == "d"  # F on H12, a double letter
    assert lay.premium(11, 11) == "D"  # S on L12, the one double word
    before = board_of("8E HOME", "E8 (H)ATS", "11D U(S)QUEBAE")
    assert words(before, "12F iNFOLDS") == [
        ("INFOLDS", 28),  # (0+1+8+1+1+2+1) x 2
        ("QI", 10),
        ("UN", 2),
        ("EF", 9),  # the F's double letter counts in both words
        ("BO", 4),
        ("AL", 2),
        ("ED", 3),
    ]
    assert [e.score for e in g.history] == [18, 14, 88, 108]
    assert g.scores == [18 + 88, 14 + 108]


def test_premium_squares_count_only_once(twl06: Lexicon) -> None:
    b = board_of("8D FASTEN")
    # the S extends FASTEN: D8 (DL) and H8 (DW) are covered, so 4+1+1+1+1+1+1
    assert words(b, "8D FASTENS") == [("FASTENS", 10)]
    g = _play(twl06, [("AEFNSTX", "8D FASTEN"), ("JQSVWXZ", "8D FASTENS")])
    assert [e.score for e in g.history] == [26, 10]


def test_bingo_bonus_is_added_after_the_multipliers() -> None:
    # WINDOWS: (8+1+1+2+1+4+1) x 2 + 50; the 50 is not doubled
    assert words(Board.empty(), "8D WINDOWS") == [("WINDOWS", 36)]
    assert score(Board.empty(), parse_move("8D WINDOWS"), R) == 86
    # six tiles: no bonus
    assert score(Board.empty(), parse_move("8D WINDOW"), R) == 34
    # nine-tile rules: 7, 8 or 9 tiles are a bingo
    assert score(Board.empty(), parse_move("8D WINDOWS"), NINE_TILE) == 86
    assert score(Board.empty(), parse_move("8B DOGHOUSE"), NINE_TILE) == (2 + 1 + 2 * 2 + 4 + 1 + 1 + 1 + 1) * 2 + 50
    # seven tiles played through a board letter is still a bingo: MISTAKEN down
    # column F through the S of FASTEN, M and A on triple letters
    b = board_of("8D FASTEN")
    m = parse_move("F6 MISTAKEN", E, b)
    assert m.tile_count == 7
    assert score(b, m, R) == (3 * 3 + 1 + 1 + 1 + 1 * 3 + 5 + 1 + 1) + 50


def test_bingo_bonus_option() -> None:
    assert score(Board.empty(), parse_move("8D WINDOWS"), R.replace(bingo_bonus=35)) == 71


def test_lexulous_bonuses_for_seven_and_eight_tiles() -> None:
    """Checked by hand on the Lexulous board (row 8: triple words at A and O, the
    centre a double word) with its letter values (M 4, P 4, B 4, T 2)."""
    lay, tiles = LEXULOUS.board_layout, LEXULOUS.tile_set
    empty = Board.empty(lay, tiles)
    # 7 tiles: EXAMPLE B8-H8, (1+8+1+4+4+1+1) x 2 on the centre + 40
    example = parse_move("8B EXAMPLE", tiles, empty)
    assert (example.tile_count, score(empty, example, LEXULOUS)) == (7, 20 * 2 + 40)
    # 8 tiles: ABSOLUTE H8-O8, (1+4+1+1+1+1+2+1) x 2 x 3 (the centre and O8) + 50
    absolute = parse_move("8H ABSOLUTE", tiles, empty)
    assert (absolute.tile_count, score(empty, absolute, LEXULOUS)) == (8, 12 * 6 + 50)
    # the tiles placed count, not the letters of the word: ABSOLUT(E) down column H
    # onto the last E of EXAMPLE is 7 tiles, (12) x 3 on H1 + 40
    b = empty.place(example)
    down = parse_move("H1 ABSOLUT(E)", tiles, b)
    assert (down.tile_count, score(b, down, LEXULOUS)) == (7, 12 * 3 + 40)
    # six tiles: no bonus; the standard single bonus for the same plays is 50 from 7
    assert score(empty, parse_move("8C SAMPLE", tiles, empty), LEXULOUS) == 12 * 2
    standard = LEXULOUS.replace(bingo_bonus=50, bonus_tiers=())
    assert score(empty, absolute, standard) == 12 * 6 + 50 and score(b, down, standard) == 12 * 3 + 50


def test_blanks_score_zero_but_word_squares_still_multiply() -> None:
    # blank W on the double letter: 0, not 8
    assert score(Board.empty(), parse_move("8D wINDOWS"), R) == (0 + 1 + 1 + 2 + 1 + 4 + 1) * 2 + 50
    # blank on the star still doubles the word
    assert words(Board.empty(), "8H wIND") == [("WIND", (0 + 1 + 1 + 2) * 2)]
    # a blank already on the board stays worth 0
    b = board_of("8D wINDY")
    assert words(b, "8D WINDYs") == [("WINDYS", 0 + 1 + 1 + 2 + 4 + 0)]
    assert b.face_at(7, 3) == "w"


def test_word_multipliers_compound() -> None:
    e = Board.empty()
    # double x triple: 8A to H8 covers the TW A8 and the DW H8, D8 is a DL
    word = "ABSENTED"  # A B S E N T E D
    expected = (1 + 3 + 1 + 1 * 2 + 1 + 1 + 1 + 2) * 6
    assert words(e, f"8A {word}") == [(word, expected)]
    # triple x triple: A1 down to A8 covers two triple words (A4 is a DL); score() is
    # a pure function of board and play, no legality check
    m = parse_move("A1 QUIXOTIC")
    assert [(w.text, w.score) for w in words_formed(e, m)] == [("QUIXOTIC", (10 + 1 + 1 + 8 * 2 + 1 + 1 + 1 + 3) * 9)]
    assert score(e, m, R) == 34 * 9 + 50
    # a triple word already covered counts nothing: through the A of ABSENTED on A8
    b = board_of("8A ABSENTED")
    m = Place(1, 0, True, E.parse("UIXOTI") + (0,))
    assert words_formed(b, m)[0].score == 1 + 1 + 8 * 2 + 1 + 1 + 1 + 1


def test_cross_words_and_shared_tiles() -> None:
    b = board_of("8D WINDY")
    # G on the double letter C7; every new tile under a WINDY letter makes a cross word
    # in which both the new and the old tile count
    assert Board.empty().layout.premium(6, 2) == "d"
    assert words(b, "7C GALE") == [("GALE", 2 * 2 + 1 + 1 + 1), ("AW", 1 + 4), ("LI", 2), ("EN", 2)]
    assert score(b, parse_move("7C GALE"), R) == 16
    # a tile on a double letter shared by two words counts doubled in both: A on I7
    assert words(b, "I7 AS") == [("AS", 1 * 2 + 1), ("WINDYS", 4 + 1 + 1 + 2 + 4 + 1)]


def test_super_board_quadruple_squares() -> None:
    lay = SUPER.board_layout
    b = Board.empty(lay, SUPER.tile_set)
    assert b.size == 21 and len(b.cells) == 441
    # the first play at the centre K11 doubles
    m = parse_move("11K CAT", SUPER.tile_set, b)
    assert score(b, m, SUPER) == (3 + 1 + 1) * 2
    # a word from A1 (quadruple word) with D1 a double letter
    assert lay.premium(0, 0) == "Q" and lay.premium(0, 3) == "d"
    m = parse_move("1A CATS", SUPER.tile_set, b)
    assert words_formed(b, m)[0].score == (3 + 1 + 1 + 1 * 2) * 4
    qletter = next((r, c) for r in range(21) for c in range(21) if lay.premium(r, c) == "q")
    assert lay.letter_mult[qletter[0] * 21 + qletter[1]] == 4


# -- the board value --------------------------------------------------------------------


def test_board_is_an_immutable_value() -> None:
    e = Board.empty()
    b = e.place(parse_move("8D WINDY"))
    assert e.is_empty and e.count == 0
    assert b.count == 5 and not b.is_empty
    assert b.to_string() == "15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15"
    assert Board.from_string(b.to_string()) == b
    assert b.remove([(7, 3)]).to_string().split("/")[7] == "4INDY7"
    assert b.played_tiles() == list(E.parse("WINDY"))
    assert board_of("8D wINDY").played_tiles()[0] == 0
    assert b.word_at(7, 5, False) == (7, 3, E.parse("WINDY"))
    assert b.word_at(7, 5, True) == (7, 5, (E.code("N"),))
    with pytest.raises(NotationError, match="^board has 2 rows, a 15x15 board needs 15$"):
        Board.from_string("15/15")


@pytest.mark.parametrize(
    ("plays", "expected"),
    [
        (["8D WINDY", "7C GALE"], 16),
        (["8D WINDY", "H7 A.E"], 1 + 4 + 1),
        (["8D WINDY", "I7 AS"], 3 + 13),
        (["8D WINDY", "H9 ES", "G9 A"], 3 + 4),
    ],
)
def test_score_table(plays: list[str], expected: int) -> None:
    b = board_of(*plays[:-1])
    m = check_placement(b, parse_move(plays[-1], E, b), R)
    assert score(b, m, R) == expected


def test_score_matches_game_play_for_the_doctest_opening(game_factory: Callable[..., Game]) -> None:
    g = game_factory(["DINNVWY", "ADEEGIL"], VOID)
    assert g.play("8D WINDY").score == 32  # (8+1+1+2+4) x 2
    assert g.play("7C GALE").score == 16
    assert g.scores == [32, 16]
