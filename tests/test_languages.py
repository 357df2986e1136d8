"""The languages beyond the first five: each tile set against its published table, the
multi-letter and caseless tiles, the presets, and a few turns of each game whose Debian
list is installed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from lexiko import cgp, gcg
from lexiko.aspell import dictionary_path, expand, expanded_words, stems
from lexiko.bots import make_player
from lexiko.duplicate import is_vowel
from lexiko.game import Game
from lexiko.leaves import vowel_flags
from lexiko.lexicon import Lexicon
from lexiko.rules import LANGUAGE_PRESETS, PRESETS, Rules, preset
from lexiko.tiles import BLANK, LETTER_MASK, TILE_SETS, TileSet, tile_set
from lexiko.wordlists import LANGUAGE_LISTS, SYSTEM_LISTS, dict_dir, game_words

# The published distributions, written as the tables of the editions print them: points,
# then the letters worth that many with their number of tiles; the blanks apart. (Sources:
# each edition's retail set as listed on Wikipedia's "Scrabble letter distributions".)
PUBLISHED: dict[str, tuple[int, int, str]] = {
    # name: (tiles in all, blanks, table)
    "italian": (
        120,
        2,
        "1: A14 E11 I12 O15 | 2: C6 R6 S6 T6 | 3: L5 M5 N5 U5 | 5: B3 D3 F3 P3 V3 | 8: G2 H2 Z2 | 10: Q1",
    ),
    "dutch": (
        102,
        2,
        "1: E18 N10 A6 O6 I4 | 2: D5 R5 S5 T5 | 3: G3 K3 L3 M3 B2 P2 | 4: U3 F2 H2 J2 V2 Z2 | 5: C2 W2 | 8: X1 Y1 "
        "| 10: Q1",
    ),
    "portuguese": (
        120,
        3,
        "1: A14 E11 I10 O10 S8 U7 M6 R6 T5 | 2: D5 L5 C4 P4 | 3: N4 B3 Ç2 | 4: F2 G2 H2 V2 | 5: J2 | 6: Q1 | 8: X1 Z1",
    ),
    "norwegian": (
        100,
        2,
        "1: E9 A7 N6 R6 S6 T6 D5 I5 L5 | 2: F4 G4 K4 O4 M3 | 3: H3 | 4: B3 U3 V3 J2 P2 Å2 | 5: Ø2 | 6: Y1 Æ1 "
        "| 8: W1 | 10: C1",
    ),
    "swedish": (
        100,
        2,
        "1: A8 R8 S8 T8 E7 N6 D5 I5 L5 | 2: O5 G3 K3 M3 H2 | 3: Ä2 F2 V2 | 4: U3 B2 Ö2 P2 Å2 | 7: J1 Y1 "
        "| 8: C1 X1 | 10: Z1",
    ),
    "danish": (
        100,
        2,
        "1: E9 A7 N6 R6 | 2: D5 L5 O5 S5 T5 | 3: B4 I4 K4 F3 G3 M3 U3 V3 | 4: H2 J2 P2 Y2 Æ2 Ø2 Å2 | 8: C2 X1 Z1",
    ),
    "bulgarian": (
        102,
        2,
        "1: А9 О9 Е8 И8 Т5 Н4 П4 Р4 С4 | 2: В4 Д4 М4 Б3 К3 Л3 | 3: Г3 Ъ2 | 4: Ж2 З2 | 5: У3 Ч2 Я2 Й1 Х1 "
        "| 8: Ц1 Ш1 Ю1 | 10: Ф1 Щ1 Ь1",
    ),
    "ukrainian": (
        104,
        2,
        "1: О10 А8 И7 Н7 Е5 І5 Р5 Т5 В4 | 2: К4 М4 С4 Д3 Л3 П3 | 3: У3 | 4: Б2 Г2 З2 Я2 | 5: Й1 Ь1 Х1 Ч1 "
        "| 6: Ж1 Ї1 Ц1 Ш1 | 7: Ю1 | 8: Є1 Ф1 Щ1 | 10: Ґ1 '1",
    ),
    "czech": (
        100,
        2,
        "1: O6 A5 E5 N5 I4 S4 T4 V4 D3 K3 L3 P3 R3 | 2: C3 H3 Í3 M3 U3 Á2 J2 Y2 Z2 | 3: B2 É2 Ě2 "
        "| 4: Ř2 Š2 Ý2 Č1 Ů1 Ž1 | 5: F1 G1 Ú1 | 6: Ň1 | 7: Ó1 Ť1 | 8: Ď1 | 10: X1",
    ),
    "slovak": (
        100,
        2,
        "1: A9 O9 E8 I5 N5 R4 S4 T4 V4 | 2: M4 D3 K3 L3 P3 | 3: J2 U2 | 4: B2 Á1 C1 H1 Y1 Z1 "
        "| 5: Č1 Í1 Š1 Ý1 Ž1 | 7: É1 Ľ1 Ť1 Ú1 | 8: Ď1 F1 G1 Ň1 Ô1 | 10: Ä1 Ĺ1 Ó1 Ŕ1 X1",
    ),
    "hungarian": (
        100,
        2,
        "1: A6 E6 K6 T5 Á4 L4 N4 R4 I3 M3 O3 S3 | 2: B3 D3 G3 Ó3 | 3: É3 H2 SZ2 V2 "
        "| 4: F2 GY2 J2 Ö2 P2 U2 Ü2 Z2 | 5: C1 Í1 NY1 | 7: CS1 Ő1 Ú1 Ű1 | 8: LY1 ZS1 | 10: TY1",
    ),
    "romanian": (
        100,
        2,
        "1: A11 I10 E9 R7 T7 N6 U6 C5 O5 S5 L4 | 2: D4 P4 | 4: M3 | 8: F2 V2 | 9: B2 G2 | 10: H1 J1 X1 Z1",
    ),
    "greek": (
        104,
        2,
        "1: Α12 Ο9 Ε8 Ι8 Τ8 Η7 Σ7 Ν6 | 2: Ρ5 Κ4 Π4 Υ4 | 3: Λ3 Μ3 Ω3 | 4: Γ2 Δ2 | 8: Β1 Φ1 Χ1 | 10: Ζ1 Θ1 Ξ1 Ψ1",
    ),
    "russian": (
        104,
        2,
        "1: О10 А8 Е8 В4 И5 Н5 Р5 С5 Т5 | 2: Д4 К4 Л4 П4 У4 М3 | 3: Б2 Г2 Ь2 Я2 Ё1 | 4: Ы2 Й1 "
        "| 5: З2 Ж1 Х1 Ц1 Ч1 | 8: Ш1 Э1 Ю1 | 10: Ф1 Щ1 Ъ1",
    ),
}


def _table(text: str) -> dict[str, tuple[int, int]]:
    """Face → (count, value) from a table written as in `PUBLISHED`."""
    out = {}
    for group in text.split("|"):
        points, letters = group.split(":")
        for item in letters.split():
            face = item.rstrip("0123456789")
            out[face] = (int(item[len(face) :]), int(points))
    return out


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_each_tile_set_is_its_published_table(name: str) -> None:
    total, blanks, table = PUBLISHED[name]
    ts = tile_set(name)
    assert (ts.total, ts.blanks) == (total, blanks)
    assert {face: (ts.count(ts.code(face)), ts.value(ts.code(face))) for face in ts.letters} == _table(table)
    assert sum(count for count, _ in _table(table).values()) + blanks == total


def test_a_few_letters_by_hand() -> None:
    # spot checks, one line a language, read off the printed tables
    def cv(name: str, face: str) -> tuple[int, int]:
        ts = tile_set(name)
        return ts.count(ts.code(face)), ts.value(ts.code(face))

    assert [cv("italian", f) for f in "OQZ"] == [(15, 1), (1, 10), (2, 8)]
    assert [cv("dutch", f) for f in "ENQ"] == [(18, 1), (10, 1), (1, 10)]
    assert [cv("portuguese", f) for f in "AÇQ"] == [(14, 1), (2, 3), (1, 6)]
    assert [cv("norwegian", f) for f in "ÆØÅ"] == [(1, 6), (2, 5), (2, 4)]
    assert [cv("swedish", f) for f in "ÄÖZ"] == [(2, 3), (2, 4), (1, 10)]
    assert [cv("danish", f) for f in "ECZ"] == [(9, 1), (2, 8), (1, 8)]
    assert [cv("bulgarian", f) for f in "АЪЩ"] == [(9, 1), (2, 3), (1, 10)]
    assert [cv("ukrainian", f) for f in ("О", "Ґ", "'")] == [(10, 1), (1, 10), (1, 10)]
    assert [cv("hungarian", f) for f in ("CS", "GY", "LY", "NY", "SZ", "TY", "ZS")] == [
        (1, 7),
        (2, 4),
        (1, 8),
        (1, 5),
        (2, 3),
        (1, 10),
        (1, 8),
    ]
    assert [cv("czech", f) for f in "ŘŮX"] == [(2, 4), (1, 4), (1, 10)]
    assert [cv("slovak", f) for f in "ÄĹŔ"] == [(1, 10), (1, 10), (1, 10)]


def test_the_largest_sets_fit_the_kernels_codes() -> None:
    # letter codes are 6 bits (1..63, the blank bit above): Slovak has the most letters
    assert max((ts.size, name) for name, ts in TILE_SETS.items()) == (41, "slovak")
    with pytest.raises(ValueError, match="^a tile set has 1 to 63 letters, not 64$"):
        TileSet(f"x{64}", tuple(chr(0x410 + i) for i in range(64)), (1,) * 64, (1,) * 64)


def test_hungarian_digraphs_are_one_tile_read_longest_first() -> None:
    hu = tile_set("hungarian")
    assert hu.tokens("SZÉP") == ["SZ", "É", "P"]
    assert hu.tokens("CSÚCS") == ["CS", "Ú", "CS"]
    assert hu.format(hu.parse("GYÖNGY")) == "[GY]ÖN[GY]"  # no NG tile: N, then GY
    assert hu.tokens("ÖSSZEG") == ["Ö", "S", "SZ", "E", "G"]
    assert game_words(["szép", "Lyon", "hegy", "xilofon", "dzsungel"], hu) == ["SZÉP", "HEGY", "DZSUNGEL"]
    assert [hu.face(c) for c in hu.parse("DZSUNGEL")] == ["D", "ZS", "U", "N", "G", "E", "L"]


def test_the_ukrainian_apostrophe_is_a_tile_and_a_blank_can_stand_for_it() -> None:
    uk = tile_set("ukrainian")
    assert game_words(["п'ять", "м'ясо", "Київ", "ґанок", "п’ять"], uk) == ["П'ЯТЬ", "М'ЯСО", "ҐАНОК"]
    word = uk.parse("П'ЯТЬ")
    assert [uk.face(c) for c in word] == ["П", "'", "Я", "Т", "Ь"]
    blank = (word[0], word[1] | BLANK, *word[2:])
    assert uk.format(blank) == "П[?']ЯТЬ" and uk.parse("П[?']ЯТЬ") == blank
    assert uk.value(word[1]) == 10 and uk.value(word[1] | BLANK) == 0


def test_accents_fold_unless_the_set_has_the_letter() -> None:
    assert game_words(["città", "perché"], tile_set("italian")) == ["CITTA", "PERCHE"]
    assert game_words(["coração", "açúcar"], tile_set("portuguese")) == ["CORAÇAO", "AÇUCAR"]
    assert game_words(["ideeën", "ijs", "café"], tile_set("dutch")) == ["IDEEEN", "IJS", "CAFE"]
    assert game_words(["blåbær", "kjøre", "idé"], tile_set("norwegian")) == ["BLÅBÆR", "KJØRE", "IDE"]
    assert game_words(["йод", "її"], tile_set("ukrainian")) == ["ЙОД", "ЇЇ"]
    # a list written decomposed (и + breve) still gives the letter Й
    assert game_words(["и\u0306од"], tile_set("bulgarian")) == ["ЙОД"]


def test_vowels_of_the_new_alphabets() -> None:
    bg = tile_set("bulgarian")
    assert [is_vowel(bg, bg.code(x)) for x in "АЪЙБ"] == [True, True, False, False]
    ru = tile_set("russian")
    flags = vowel_flags(ru)
    assert [flags[ru.code(x)] for x in "ЁЫЙЪ"] == [True, True, False, False]
    sv = tile_set("swedish")
    assert [is_vowel(sv, sv.code(x)) for x in "ÅÄÖYK"] == [True, True, True, True, False]


EXPECTED_PRESETS = {
    # preset: (tile set, word list, Debian file)
    "italian": ("italian", "witalian", "italian"),
    "dutch": ("dutch", "wdutch", "dutch"),
    "portuguese": ("portuguese", "wportuguese", "portuguese"),
    "brazilian": ("portuguese", "wbrazilian", "brazilian"),
    "norwegian": ("norwegian", "wnorwegian", "bokmaal"),
    "swedish": ("swedish", "wswedish", "swedish"),
    "danish": ("danish", "wdanish", "danish"),
    "bulgarian": ("bulgarian", "wbulgarian", "bulgarian"),
    "ukrainian": ("ukrainian", "wukrainian", "ukrainian"),
    "czech": ("czech", "aspell-cs", "cs"),
    "slovak": ("slovak", "aspell-sk", "sk"),
    "romanian": ("romanian", "aspell-ro", "ro"),
    "greek": ("greek", "aspell-el", "el"),
    "russian": ("russian", "aspell-ru", "ru"),
}


def test_each_language_with_a_debian_list_has_a_preset() -> None:
    assert {r.name: (r.tiles, r.lexicon, SYSTEM_LISTS[r.lexicon].file) for r in LANGUAGE_PRESETS} == EXPECTED_PRESETS
    assert all(PRESETS[name] == preset(name) for name in EXPECTED_PRESETS)
    assert LANGUAGE_LISTS["portuguese"] == "wportuguese"  # Portugal's list by default
    # Hungarian has a tile set and no list: no preset, and an English list never judges it
    assert "hungarian" not in PRESETS and "hungarian" not in LANGUAGE_LISTS
    with pytest.raises(ValueError, match="^lexicon TWL06 is an English list: hungarian tiles need"):
        Rules(tiles="hungarian")


def _installed(lexicon: str) -> bool:
    spec = SYSTEM_LISTS[lexicon]
    if spec.aspell:
        return dictionary_path(spec.file).is_file() and shutil.which("aspell") is not None
    return (dict_dir() / spec.file).is_file()


def _board_words(g: Game) -> list[tuple[int, ...]]:
    """Every run of two tiles or more on the board, across and down, as letter codes."""
    ts = g.tiles
    rows = [[ts.parse_token(f) & LETTER_MASK if f else 0 for f in row] for row in g.board.rows()]
    lines = rows + [list(col) for col in zip(*rows, strict=True)]
    runs = []
    for line in lines:
        run: list[int] = []
        for code in [*line, 0]:
            if code:
                run.append(code)
                continue
            if len(run) > 1:
                runs.append(tuple(run))
            run = []
    return runs


FULL_LISTS = os.environ.get("LEXIKO_LANGUAGE_LISTS") == "1"
"""Play with each whole list (compiled once into the cache: about 20 CPU-minutes cold
for all of them), not a sample of it: ``LEXIKO_LANGUAGE_LISTS=1 python -m pytest -m slow
tests/test_languages.py``."""


def _needs_list(lexicon: str) -> None:
    if not _installed(lexicon):
        packages = f"aspell {lexicon}" if SYSTEM_LISTS[lexicon].aspell else lexicon
        pytest.skip(f"Debian's {lexicon} is not installed (apt-get install {packages})")


def _sample(lexicon: str, tiles: TileSet) -> Lexicon:
    """A lexicon of the list's short words (four letters at most) and about 15,000 others,
    taken at even steps through it."""
    spec = SYSTEM_LISTS[lexicon]
    if spec.aspell:  # the words of a sample of the stems: the whole takes seconds to expand
        entries = stems(spec.file, spec.package)
        short = [e for e in entries if len(e.split("/")[0]) <= 4]
        lines = expand(short + entries[:: max(1, len(entries) // 15_000)], spec.file, spec.package)
    else:
        data = (dict_dir() / spec.file).read_bytes()
        try:
            lines = data.decode("utf-8").splitlines()
        except UnicodeDecodeError:
            lines = data.decode("latin-1").splitlines()
    chosen = [w for w in lines if len(w) <= 4] + lines[:: max(1, len(lines) // 15_000)]
    words = game_words(chosen, tiles, capitalized_nouns=spec.capitalized_nouns)
    return Lexicon.from_words(words, tiles, name=lexicon)


def _plays_words_of(rules: Rules, lex: Lexicon) -> None:
    g = Game(["a", "b"], rules, seed=7, lexicon=lex, first_player=0)
    bot = make_player("static", lex, seed=7)
    plays = []
    for _ in range(12):  # until three plays (a small list may leave a rack to exchange)
        event = g.apply(bot.choose(g))
        assert event is not None
        if event.kind == "play":
            plays.append(event)
        if len(plays) == 3:
            break
    assert len(plays) == 3 and all(e.score > 0 for e in plays)
    runs = _board_words(g)
    assert len(runs) >= 2 and all(lex.contains_codes(run) for run in runs)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_each_language_plays_words_of_its_list(name: str) -> None:
    rules = preset(name)
    _needs_list(rules.lexicon)
    lex = Lexicon.load(rules.lexicon, rules.tile_set) if FULL_LISTS else _sample(rules.lexicon, rules.tile_set)
    assert len(lex) > (100_000 if FULL_LISTS else 3_000)
    _plays_words_of(rules, lex)


@pytest.mark.parametrize(
    ("tiles", "rack", "move"),
    [("catalan", "[L·L]AOSTUE", "8H [L·L]A"), ("ukrainian", "П'ЯТЬАО", "8H П'ЯТЬ")],
)
def test_a_record_reads_racks_and_moves_with_tiles_that_are_not_letters(tiles: str, rack: str, move: str) -> None:
    text = (
        f"#character-encoding UTF-8\n#tile-distribution {tiles}\n#player1 a a\n#player2 b b\n"
        f">a: {rack} {move} +10 10\n>b: {rack} -{rack} +0 0\n>a: {rack} ({rack}) +5 15\n"
    )
    record = gcg.parse(text)
    assert [e.rack for e in record.events] == [rack, rack, rack]
    assert (record.events[1].kind, record.events[1].tiles) == ("exchange", rack)
    assert (record.events[2].kind, record.events[2].tiles) == ("end-rack-penalty", rack)
    assert (record.events[0].position, record.events[0].word) == tuple(move.split())


def test_a_position_of_another_language_reads_back_from_its_cgp_line() -> None:
    g = Game(["a", "b"], preset("ukrainian"), seed=3, lexicon=None, first_player=0)
    g.set_rack(0, "П'ЯТЬ?А")
    g.play("8H П[?']ЯТЬ")
    line = cgp.dumps(cgp.from_game(g))
    assert line.startswith("15/15/15/15/15/15/15/7П[?']ЯТЬ3/15/") and line.endswith(" lex wukrainian; ld ukrainian;")
    pos = cgp.parse(line)
    assert pos.board == g.board and pos.board.tiles.name == "ukrainian"
    assert pos.board.face_at(7, 8) == "?'" and pos.board.tiles.value(pos.board.cells[7 * 15 + 8]) == 0


FAKE_ASPELL = """#!/bin/sh
# stands in for GNU Aspell: a dictionary of three stems, one of them with its forms
for arg in "$@"; do case "$arg" in --lang=xx) echo "Error: No word lists can be found for the language" >&2; exit 1;; esac; done
case "$1" in
  dump) printf 'pes\\nkočka\\nPraha\\n' ;;
  expand) while read -r w; do if [ "$w" = pes ]; then echo "pes psa psovi"; else echo "$w"; fi; done ;;
esac
"""


def test_an_aspell_dictionary_is_read_through_the_aspell_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lexiko.errors import LexiconError

    monkeypatch.setenv("LEXIKO_ASPELL_DIR", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    cs = tile_set("czech")
    with pytest.raises(LexiconError) as e:
        Lexicon.load("aspell-cs", cs, cache=False)
    assert str(e.value) == (
        "no Czech word list: install Debian's aspell-cs and aspell packages (apt-get install aspell aspell-cs, "
        f"which provide {tmp_path / 'cs.rws'}) or give a word-list file with --lexicon FILE (one word a line)"
    )
    (tmp_path / "cs.rws").write_bytes(b"")
    with pytest.raises(LexiconError, match="^reading the aspell-cs dictionary needs the aspell program: apt-get"):
        Lexicon.load("aspell-cs", cs, cache=False)
    program = tmp_path / "aspell"
    program.write_text(FAKE_ASPELL)
    program.chmod(0o755)
    lex = Lexicon.load("aspell-cs", cs, cache=False)
    assert (lex.name, sorted(lex)) == ("aspell-cs", ["KOČKA", "PES", "PSA", "PSOVI"])  # Praha: a proper noun
    with pytest.raises(LexiconError) as e:
        expanded_words("xx", "aspell-xx")
    assert (
        str(e.value)
        == "aspell could not read the aspell-xx dictionary: Error: No word lists can be found for the language"
    )
