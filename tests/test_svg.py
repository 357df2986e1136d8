"""lexiko.svg: the drawings' structure (squares, premiums, tiles, highlights, arrows,
coordinates, escaping), the Jupyter hooks and render_file. Pixels are the browser
test's business (tests/browser/test_svg_browser.py)."""

from __future__ import annotations

import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from lexiko import gcg, svg
from lexiko.board import Board
from lexiko.errors import LexikoError, NotationError, RecordError
from lexiko.game import Game
from lexiko.layouts import MOBILE, STANDARD, SUPER, Layout
from lexiko.move import Place, parse_move
from lexiko.tiles import CATALAN, ENGLISH, SPANISH

NS = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert('x')</script>"


def parse(doc: str) -> ET.Element:
    return ET.fromstring(doc)


def classes(e: ET.Element) -> set[str]:
    return set(e.get("class", "").split())


def squares(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(NS + "rect") if "square" in classes(e)]


def with_class(root: ET.Element, name: str, tag: str | None = None) -> list[ET.Element]:
    return [e for e in root.iter() if name in classes(e) and (tag is None or e.tag == NS + tag)]


def tiles(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("data-square", ""): e for e in with_class(root, "tile", "g")}


def texts(e: ET.Element, cls: str) -> list[str]:
    return [t.text or "" for t in e.iter(NS + "text") if cls in classes(t)]


def place(text: str) -> Place:
    move = parse_move(text)
    assert isinstance(move, Place)
    return move


def sample_game(second: str = HOSTILE) -> Game:
    """Four turns: a play, a play, an exchange, a play with a blank (E9 r)."""
    g = Game(["Ann", second], seed=1, lexicon=None, first_player=0)
    g.set_rack(0, "DINNVWY")
    g.play("8D WINDY")
    g.set_rack(1, "ADEEGIL")
    g.play("7C GALE")
    g.set_rack(0, "AGLMNOV")
    g.exchange("AGV")
    g.set_rack(1, "?DEIOOR")
    g.play("9E rOD")
    return g


# -- squares and premiums -------------------------------------------------------------


def test_the_standard_board_has_225_squares_with_the_published_premiums() -> None:
    root = parse(svg.board(Board.empty()))
    sq = squares(root)
    assert len(sq) == 225
    assert len({e.get("data-square") for e in sq}) == 225
    count = {k: sum(k in classes(e) for e in sq) for k in ("tw", "dw", "tl", "dl", "qw", "ql", "start")}
    assert count == {"tw": 8, "dw": 17, "tl": 12, "dl": 24, "qw": 0, "ql": 0, "start": 1}
    (start,) = with_class(root, "start", "rect")
    assert start.get("data-square") == "H8" and "dw" in classes(start)
    assert [e.get("data-square") for e in sq if "tw" in classes(e)] == [
        "A1", "H1", "O1", "A8", "O8", "A15", "H15", "O15"
    ]  # fmt: skip
    # empty premium squares are labelled (the start square has a star instead)
    labels = {e.get("data-square"): e.text for e in with_class(root, "premium", "text")}
    assert len(labels) == 8 + 16 + 12 + 24
    assert (labels["A1"], labels["B2"], labels["F2"], labels["D1"]) == ("TW", "DW", "TL", "DL")
    assert len(with_class(root, "star", "polygon")) == 1


@pytest.mark.parametrize("layout", [STANDARD, SUPER, MOBILE], ids=lambda lay: lay.name)
def test_every_square_is_drawn_as_its_layout_says(layout: Layout) -> None:
    root = parse(svg.board(Board.empty(layout)))
    assert root.get("data-layout") == layout.name
    sq = squares(root)
    n = layout.size
    assert len(sq) == n * n
    expected = {".": "", "d": "dl", "t": "tl", "q": "ql", "D": "dw", "T": "tw", "Q": "qw", "*": "dw", "+": ""}
    for i, e in enumerate(sq):
        ch = layout.rows[i // n][i % n]
        kinds = classes(e) - {"square", "start"}
        assert kinds == ({expected[ch]} if expected[ch] else set()), (e.get("data-square"), ch)
        assert ("start" in classes(e)) == (ch in "*+")


def test_the_super_board_has_441_squares_and_quadruple_premiums() -> None:
    root = parse(svg.board(Board.empty(SUPER)))
    sq = squares(root)
    assert len(sq) == 441
    qw = [e.get("data-square") for e in sq if "qw" in classes(e)]
    assert qw == ["A1", "U1", "A21", "U21"]
    (start,) = with_class(root, "start", "rect")
    assert start.get("data-square") == "K11"
    labels = {e.get("data-square"): e.text for e in with_class(root, "premium", "text")}
    assert labels["A1"] == "QW" and labels["F3"] == "QL"


def test_the_mobile_start_square_is_plain_with_a_star() -> None:
    root = parse(svg.board(Board.empty(MOBILE)))
    (start,) = with_class(root, "start", "rect")
    assert start.get("data-square") == "H8" and classes(start) == {"square", "start"}
    assert len(with_class(root, "star", "polygon")) == 1


# -- tiles ------------------------------------------------------------------------------


def test_tiles_show_their_letter_and_value_and_a_blank_its_letter_without_value() -> None:
    b = Board.empty().place(place("8D WINDy"))
    root = parse(svg.board(b))
    t = tiles(root)
    assert sorted(t) == ["D8", "E8", "F8", "G8", "H8"]
    for square, face, value in [("D8", "W", "4"), ("E8", "I", "1"), ("F8", "N", "1"), ("G8", "D", "2")]:
        assert t[square].get("data-face") == face
        assert classes(t[square]) == {"tile"}
        assert texts(t[square], "letter") == [face]
        assert texts(t[square], "value") == [value]
    blank = t["H8"]
    assert classes(blank) == {"tile", "blank"}
    assert blank.get("data-face") == "y" and blank.get("data-value") == "0"
    assert texts(blank, "letter") == ["Y"]
    assert texts(blank, "value") == []
    (blank_letter,) = [e for e in blank.iter(NS + "text")]
    (w_letter,) = [e for e in t["D8"].iter(NS + "text") if "letter" in classes(e)]
    assert blank_letter.get("fill") == svg.DEFAULT_COLORS["blank letter"] != w_letter.get("fill")
    # covered squares lose their label: D8's DL and H8's star
    assert len(with_class(root, "star", "polygon")) == 0
    labelled = {e.get("data-square") for e in with_class(root, "premium", "text")}
    assert len(labelled) == 59 and "D8" not in labelled and "L8" in labelled
    assert len(squares(root)) == 225


def test_multi_letter_tiles_fit_in_a_smaller_font() -> None:
    b = Board.parse("15/15/15/15/15/15/15/5[CH]A[ll]7/15/15/15/15/15/15/15", tiles=SPANISH)
    t = tiles(parse(svg.board(b)))
    assert [(sq, e.get("data-face")) for sq, e in sorted(t.items())] == [("F8", "CH"), ("G8", "A"), ("H8", "ll")]
    assert texts(t["F8"], "letter") == ["CH"] and texts(t["F8"], "value") == ["5"]
    assert texts(t["H8"], "letter") == ["LL"] and texts(t["H8"], "value") == []

    def font(e: ET.Element) -> float:
        (letter,) = [x for x in e.iter(NS + "text") if "letter" in classes(x)]
        return float(letter.get("font-size", "0"))

    assert font(t["F8"]) < font(t["G8"])
    cat = Board.parse("15/15/15/15/15/15/15/5[L·L]A[NY]7/15/15/15/15/15/15/15", tiles=CATALAN, layout="mobile15")
    ct = tiles(parse(svg.board(cat)))
    assert texts(ct["F8"], "letter") == ["L·L"] and texts(ct["F8"], "value") == ["10"]
    assert font(ct["F8"]) < font(ct["H8"]) < font(ct["G8"])


# -- highlights, arrows, coordinates, size, colours ------------------------------------


def test_the_last_move_highlights_exactly_its_new_tiles() -> None:
    b = Board.empty().place(place("8D WINDY"))
    through = place("H7 A.E")
    b = b.place(through)
    root = parse(svg.board(b, lastmove=through))
    lit = with_class(root, "lastmove")
    assert sorted(e.get("data-square", "") for e in lit) == ["H7", "H9"]  # not H8, played through
    assert all(e.tag == NS + "g" and "tile" in classes(e) for e in lit)
    fills = {e.get("data-square"): e.find(NS + "rect").get("fill") for e in lit}  # type: ignore[union-attr]
    assert set(fills.values()) == {svg.DEFAULT_COLORS["lastmove"]}
    assert classes(tiles(root)["H8"]) == {"tile"}
    assert with_class(parse(svg.board(b)), "lastmove") == []


def test_highlighted_empty_squares_get_an_overlay() -> None:
    root = parse(svg.board(Board.empty(), lastmove=["A1", (14, 14)]))
    lit = with_class(root, "lastmove")
    assert sorted(e.get("data-square", "") for e in lit) == ["A1", "O15"]
    assert all(e.tag == NS + "rect" for e in lit)


def test_arrows_go_from_square_to_square() -> None:
    arrows: list[svg.Arrow | tuple[svg.Square, svg.Square]] = [
        ("D8", "H8"),
        svg.Arrow((0, 0), "A15", color="red"),
        svg.Arrow("K11", "K11"),
    ]
    root = parse(svg.board(Board.empty(), arrows=arrows))
    drawn = with_class(root, "arrow", "g")
    assert [(e.get("data-tail"), e.get("data-head")) for e in drawn] == [("D8", "H8"), ("A1", "A15"), ("K11", "K11")]
    line = drawn[0].find(NS + "line")
    assert line is not None
    # from the centre of D8 towards H8's centre, stopping at the arrow head
    assert (line.get("x1"), line.get("y1"), line.get("y2")) == ("160", "320", "320")
    assert 160 < float(line.get("x2", "0")) < 340
    assert drawn[1].find(NS + "polygon").get("fill") == "red"  # type: ignore[union-attr]
    assert drawn[2].find(NS + "circle") is not None  # tail == head: a ring
    assert with_class(parse(svg.board(Board.empty())), "arrow") == []


def test_bad_squares_are_notation_errors() -> None:
    with pytest.raises(NotationError) as e:
        svg.board(Board.empty(), arrows=[("D8", "P8")])
    assert str(e.value) == "position 'P8' is off the 15x15 board"
    with pytest.raises(NotationError) as e:
        svg.board(Board.empty(), lastmove=[(15, 0)])
    assert str(e.value) == "square (row 15, column 0) is off the 15x15 board"


def test_coordinates_name_the_columns_and_rows() -> None:
    root = parse(svg.board(Board.empty()))
    assert [e.text for e in with_class(root, "column", "text")] == [chr(ord("A") + i) for i in range(15)]
    assert [e.text for e in with_class(root, "row", "text")] == [str(i) for i in range(1, 16)]
    assert root.get("viewBox") == "0 0 640 640"
    bare = parse(svg.board(Board.empty(), coordinates=False))
    assert with_class(bare, "coord") == [] and bare.get("viewBox") == "0 0 600 600"
    super_root = parse(svg.board(Board.empty(SUPER)))
    assert with_class(super_root, "column", "text")[-1].text == "U"


def test_size_sets_the_width_and_keeps_the_proportions() -> None:
    root = parse(svg.board(Board.empty(), size=300))
    assert (root.get("width"), root.get("height")) == ("300", "300")
    r = parse(svg.rack("AB", size=156))
    assert (r.get("width"), r.get("height"), r.get("viewBox")) == ("156", "24", "0 0 312 48")
    with pytest.raises(LexikoError) as e:
        svg.board(Board.empty(), size=0)
    assert str(e.value) == "the picture's size must be positive, not 0"


def test_colours_can_be_overridden_and_unknown_names_are_refused() -> None:
    root = parse(svg.board(Board.empty(), colors={"tw": "black"}))
    assert {e.get("fill") for e in squares(root) if "tw" in classes(e)} == {"black"}
    with pytest.raises(LexikoError) as e:
        svg.board(Board.empty(), colors={"TW": "black"})
    assert str(e.value).startswith("unknown colour 'TW'; known: arrow, blank letter, coord, dl, dw,")


def test_every_text_and_attribute_is_escaped() -> None:
    hostile = '"/><script>alert(1)</script><x a="'
    doc = svg.board(Board.empty(), colors={"tw": hostile}, arrows=[svg.Arrow("A1", "B2", color=hostile)])
    root = parse(doc)  # still one well-formed document
    assert [e for e in root.iter() if e.tag in ("script", NS + "script")] == []
    assert "<script>" not in doc
    assert {e.get("fill") for e in squares(root) if "tw" in classes(e)} == {hostile}


# -- racks and positions -------------------------------------------------------------------


def test_a_rack_draws_its_tiles_and_blanks() -> None:
    root = parse(svg.rack(ENGLISH.parse("QAZ?"), ENGLISH))
    drawn = with_class(root, "tile", "g")
    assert [(e.get("data-face"), e.get("data-value")) for e in drawn] == [
        ("Q", "10"),
        ("A", "1"),
        ("Z", "10"),
        ("?", "0"),
    ]
    assert classes(drawn[3]) == {"tile", "blank"} and list(drawn[3].iter(NS + "text")) == []
    assert root.get("viewBox") == "0 0 312 48"  # seven slots
    nine = parse(svg.rack("[CH][LL]ABCDEFG", SPANISH, slots=7))
    assert len(with_class(nine, "tile", "g")) == 9 and nine.get("viewBox") == "0 0 400 48"
    assert [texts(e, "letter") for e in with_class(nine, "tile", "g")][:2] == [["CH"], ["LL"]]


def test_a_position_shows_the_board_and_the_rack_on_turn() -> None:
    g = Game(["Ann", "Bob"], seed=1, lexicon=None, first_player=0)
    g.set_rack(0, "DINNVWY")
    g.play("8D WINDY")
    g.set_rack(1, "ADEEGL?")
    pos = g.position()
    root = parse(pos._repr_svg_())
    assert root.get("class") == "lexiko-position"
    assert len(squares(root)) == 225
    assert sorted(tiles(root)) == ["", "D8", "E8", "F8", "G8", "H8"]
    player_rack = root.find(f"{NS}g[@class='player-rack']")
    assert player_rack is not None
    assert [e.get("data-face") for e in with_class(player_rack, "tile", "g")] == list("ADEEGL?")


# -- Jupyter hooks -------------------------------------------------------------------------


def test_a_board_shows_itself_as_svg() -> None:
    b = Board.empty().place(place("8D WINDY"))
    assert b._repr_svg_() == svg.board(b)
    assert svg.board(b)._repr_svg_() == str(svg.board(b))


def lit(doc: str) -> list[str]:
    return sorted(e.get("data-square", "") for e in with_class(parse(doc), "lastmove"))


def test_a_game_highlights_its_last_play_only_while_it_stands() -> None:
    g = sample_game()
    assert lit(g._repr_svg_()) == ["E9", "F9", "G9"]
    assert svg.last_play(g) == parse_move("9E rOD")
    g.challenge(ruling=False)  # the play comes off
    assert g.history[-1].kind == "withdrawn"
    assert svg.last_play(g) is None
    root = parse(g._repr_svg_())
    assert with_class(root, "lastmove") == [] and "E9" not in tiles(root)
    g2 = sample_game()
    g2.set_rack(0, "DFLMNOR")
    g2.pass_turn()
    assert lit(g2._repr_svg_()) == []
    assert lit(Game(["Ann", "Bob"], seed=1, lexicon=None)._repr_svg_()) == []


def test_a_game_as_html_has_the_board_scores_turn_and_moves_all_escaped() -> None:
    page = sample_game()._repr_html_()
    assert "<script>" not in page
    root = ET.fromstring(page)  # well-formed, the board inline
    board_svg = root.find(f".//{NS}svg")
    assert (
        board_svg is not None
        and len(squares(board_svg)) == 225
        and lit(ET.tostring(board_svg, encoding="unicode")) == ["E9", "F9", "G9"]
    )

    def rows(cls: str) -> list[list[str]]:
        table = root.find(f".//table[@class='{cls}']")
        assert table is not None
        return [["".join(td.itertext()) for td in tr.findall("td")] for tr in table.iter("tr") if tr.findall("td")]

    assert rows("lexiko-scores") == [["Ann", "32"], [HOSTILE, "32"]]
    on_turn = root.find(".//tr[@class='on-turn']")
    assert on_turn is not None and on_turn[0].text == "Ann"
    assert "".join(root.find(".//p[@class='lexiko-status']").itertext()) == "Ann to play · bag 74"  # type: ignore[union-attr]
    assert rows("lexiko-moves") == [
        ["1", "Ann", "DINNVWY", "8D WINDY", "+32", "32"],
        ["2", HOSTILE, "ADEEGIL", "7C GALE", "+16", "16"],
        ["3", "Ann", "AGLMNOV", "-AGV", "+0", "32"],
        ["4", HOSTILE, "DEIOOR?", "9E rOD", "+16", "32"],
    ]


def test_the_move_list_shows_played_through_letters_and_withdrawals() -> None:
    g = Game(["Ann", "Bob"], seed=1, lexicon=None, first_player=0)
    g.set_rack(0, "DINNVWY")
    g.play("8D WINDY")
    g.set_rack(1, "AEEGILT")
    g.play("H7 A.E")
    g.challenge(ruling=False)
    root = ET.fromstring(g._repr_html_())
    table = root.find(".//table[@class='lexiko-moves']")
    assert table is not None
    moves = [[td.text for td in tr.findall("td")][3:5] for tr in table.iter("tr") if tr.findall("td")]
    assert moves == [["8D WINDY", "+32"], ["H7 A(Y)E", "+6"], ["-- (withdrawn)", "-6"]]


def test_a_finished_game_says_who_won() -> None:
    g = sample_game("Bob")
    g.set_rack(0, "DFLMNOR")
    g.set_rack(1, "AEIIOTU")
    for _ in range(6):
        g.pass_turn()
    assert g.is_over and g.scores == [19, 25]  # 32 - 13 and 32 - 7
    root = ET.fromstring(g._repr_html_())
    status = root.find(".//p[@class='lexiko-status']")
    assert status is not None
    assert status.text == "Game over (scoreless): Bob wins"
    assert root.find(".//tr[@class='on-turn']") is None


# -- render_file ---------------------------------------------------------------------------


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.gcg"
    gcg.write(sample_game(), path)
    return path


@pytest.mark.parametrize(
    ("turn", "count", "highlighted"),
    [
        (0, 0, []),
        (1, 5, ["D8", "E8", "F8", "G8", "H8"]),
        (2, 9, ["C7", "D7", "E7", "F7"]),
        (3, 9, []),  # an exchange
        (4, 12, ["E9", "F9", "G9"]),
        (None, 12, ["E9", "F9", "G9"]),
    ],
)
def test_render_file_draws_the_board_after_a_turn(
    record: Path, tmp_path: Path, turn: int | None, count: int, highlighted: list[str]
) -> None:
    out = tmp_path / "board.svg"
    svg.render_file(record, turn, out)
    root = parse(out.read_text(encoding="utf-8"))
    assert len(squares(root)) == 225
    assert len(tiles(root)) == count
    assert lit(out.read_text(encoding="utf-8")) == highlighted


def test_render_file_keeps_a_challenged_off_play_off(tmp_path: Path) -> None:
    g = sample_game("Bob")
    g.challenge(ruling=False)
    gcg.write(g, tmp_path / "g.gcg")
    svg.render_file(tmp_path / "g.gcg", 4, tmp_path / "b.svg", size=200, coordinates=False)
    root = parse((tmp_path / "b.svg").read_text(encoding="utf-8"))
    assert len(tiles(root)) == 9 and with_class(root, "lastmove") == []
    assert root.get("width") == "200" and with_class(root, "coord") == []


def test_render_file_refuses_a_turn_the_record_does_not_have(record: Path, tmp_path: Path) -> None:
    for turn in (5, -1):
        with pytest.raises(LexikoError) as e:
            svg.render_file(record, turn, tmp_path / "b.svg")
        assert str(e.value) == "the record has 4 moves: --turn must be 0 to 4"
    assert not (tmp_path / "b.svg").exists()


def test_render_file_errors_are_one_line(record: Path, tmp_path: Path) -> None:
    with pytest.raises(LexikoError) as e:
        svg.render_file(record, 1, tmp_path / "b.jpg")
    assert str(e.value) == f"cannot write {tmp_path / 'b.jpg'}: the picture must be a .svg or .png file"
    with pytest.raises(RecordError) as e:
        svg.render_file(tmp_path / "missing.gcg", 1, tmp_path / "b.svg")
    assert str(e.value) == f"cannot read {tmp_path / 'missing.gcg'}: No such file or directory"
    with pytest.raises(LexikoError) as e:
        svg.render_file(record, 1, tmp_path / "no" / "b.svg")
    assert str(e.value) == f"cannot write {tmp_path / 'no' / 'b.svg'}: No such file or directory"


def test_png_without_cairosvg_says_what_to_install(
    record: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import fails as if not installed
    with pytest.raises(LexikoError) as e:
        svg.render_file(record, 1, tmp_path / "b.png")
    assert (
        str(e.value)
        == "PNG pictures need CairoSVG, which is not installed: pip install cairosvg (or write a .svg file)"
    )
    assert not (tmp_path / "b.png").exists()


def test_png_through_cairosvg(record: Path, tmp_path: Path) -> None:
    pytest.importorskip("cairosvg", reason="CairoSVG is not installed (pip install cairosvg)")
    out = tmp_path / "b.PNG"
    svg.render_file(record, 4, out, size=320)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (320, 320)
