"""Word lists of other languages: Debian's spelling lists read for a tile set, and the
presets that play with them (never with an English list)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexiko.errors import LexiconError, PhonyError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.rules import CATALAN, FRENCH, GERMAN, POLISH, SPANISH, Rules
from lexiko.tiles import CATALAN as CATALAN_TILES
from lexiko.tiles import FRENCH as FRENCH_TILES
from lexiko.tiles import GERMAN as GERMAN_TILES
from lexiko.tiles import SPANISH as SPANISH_TILES
from lexiko.wordlists import game_words

REAL_SPANISH = Path("/usr/share/dict/spanish")
needs_wspanish = pytest.mark.skipif(
    not REAL_SPANISH.is_file(), reason="Debian's wspanish is not installed (.ci/run installs it)"
)


def test_spanish_words_are_read_as_spanish_tiles() -> None:
    words = ["perro", "camión", "pingüino", "Madrid", "kilo", "ONU", "a", "ex-novio", "chico", "llama", "perro"]
    assert game_words(words, SPANISH_TILES) == ["PERRO", "CAMION", "PINGUINO", "CHICO", "LLAMA"]
    assert [len(SPANISH_TILES.parse(w)) for w in ("PERRO", "CHICO", "LLAMA")] == [4, 4, 4]


def test_german_keeps_nouns_umlauts_and_writes_eszett_as_ss() -> None:
    words = ["Straße", "Bäume", "über", "AGs", "PKW", "Haus-Tür"]
    assert game_words(words, GERMAN_TILES, capitalized_nouns=True) == ["STRASSE", "BÄUME", "ÜBER"]


def test_french_accents_are_dropped_and_catalan_digraphs_are_tiles() -> None:
    assert game_words(["élève", "garçon", "aujourd'hui", "Paris"], FRENCH_TILES) == ["ELEVE", "GARCON"]
    words = game_words(["col·legi", "any", "quatre", "qatar"], CATALAN_TILES)
    assert words == ["COL·LEGI", "ANY", "QUATRE"]  # Q only as the QU tile
    assert [CATALAN_TILES.format(CATALAN_TILES.parse(w)) for w in words] == ["CO[L·L]EGI", "A[NY]", "[QU]ATRE"]


def test_a_list_from_the_dict_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "spanish").write_text("perro\ncasa\nMadrid\nchico\n", encoding="utf-8")
    monkeypatch.setenv("LEXIKO_DICT_DIR", str(tmp_path))
    lex = Lexicon.load("wspanish", SPANISH_TILES, cache=False)
    assert (lex.name, len(lex), sorted(lex)) == ("wspanish", 3, ["CASA", "CHICO", "PERRO"])
    with pytest.raises(LexiconError) as e:
        Lexicon.load("wspanish", GERMAN_TILES, cache=False)
    assert str(e.value) == "wspanish is a word list for spanish tiles, not german tiles"


def test_a_cached_system_list_is_not_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache of a Debian list is found by the list file's identity (path, size, time),
    so a start with a warm cache never reads and filters the whole list again."""
    from lexiko import wordlists

    (tmp_path / "dict").mkdir()
    listed = tmp_path / "dict" / "spanish"
    listed.write_text("perro\ncasa\n", encoding="utf-8")
    monkeypatch.setenv("LEXIKO_DICT_DIR", str(tmp_path / "dict"))
    monkeypatch.setenv("LEXIKO_CACHE_DIR", str(tmp_path / "cache"))
    assert sorted(Lexicon.load("wspanish", SPANISH_TILES)) == ["CASA", "PERRO"]
    reads: list[str] = []
    real = wordlists.game_words
    monkeypatch.setattr(wordlists, "game_words", lambda words, *a, **k: reads.append("read") or real(words, *a, **k))
    assert sorted(Lexicon.load("wspanish", SPANISH_TILES)) == ["CASA", "PERRO"] and reads == []
    listed.write_text("perro\ncasa\nchico\n", encoding="utf-8")  # the list changed: read again
    assert sorted(Lexicon.load("wspanish", SPANISH_TILES)) == ["CASA", "CHICO", "PERRO"] and reads == ["read"]


def test_a_missing_list_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEXIKO_DICT_DIR", str(tmp_path))
    with pytest.raises(LexiconError) as e:
        Lexicon.load("wfrench", FRENCH_TILES, cache=False)
    assert str(e.value) == (
        f"no French word list: install Debian's wfrench package (apt-get install wfrench, which provides "
        f"{tmp_path}/french) or give a word-list file with --lexicon FILE (one word a line)"
    )


def test_presets_name_their_languages_lists() -> None:
    assert [r.lexicon for r in (SPANISH, FRENCH, GERMAN, POLISH, CATALAN)] == [
        "wspanish",
        "wfrench",
        "wngerman",
        "wpolish",
        "wcatalan",
    ]


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        (
            {"tiles": "spanish"},
            "lexicon TWL06 is an English list: spanish tiles need a word list of their language (a file, or wspanish)",
        ),
        (
            {"tiles": "spanish", "lexicon": "wngerman"},
            "lexicon wngerman is a German list: it does not suit spanish tiles",
        ),
        (
            {"tiles": "english", "lexicon": "wspanish"},
            "lexicon wspanish is a Spanish list: it does not suit english tiles",
        ),
        (
            {"tiles": "french"},
            "lexicon TWL06 is an English list: french tiles need a word list of their language (a file, or wfrench)",
        ),
        (
            {"tiles": "portuguese"},
            "lexicon TWL06 is an English list: portuguese tiles need a word list of their language "
            "(a file, or wbrazilian, wportuguese)",
        ),
        (
            {"tiles": "hungarian"},
            "lexicon TWL06 is an English list: hungarian tiles need a word list of their language "
            "(a file of words, one a line)",
        ),
    ],
)
def test_no_game_judges_with_another_languages_list(kw: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError) as e:
        Rules(**kw)
    assert str(e.value) == message


@needs_wspanish
def test_a_spanish_game_judges_with_the_spanish_list() -> None:
    g = Game(["Ana", "Beto"], SPANISH.replace(challenge_rule="void"), seed=1, first_player=0)
    g.set_rack(0, "HOUSEAR")
    with pytest.raises(PhonyError, match="^word HOUSE is not in the lexicon$"):
        g.play("8D HOUSE")
    g.set_rack(0, "PE[RR]OAS")
    assert g.play("8E PE[RR]O").score == (3 + 1 + 8 + 1) * 2
    assert g.lexicon is not None and g.board.face_at(7, 6) == "RR"


@needs_wspanish
def test_a_spanish_game_with_bots_plays_to_the_end() -> None:
    from lexiko.bots import make_player
    from lexiko.lexicon import Lexicon as Lex

    lex = Lex.load("wspanish", SPANISH_TILES)
    digraphs = 0
    for seed in range(3):
        g = Game(["static", "greedy"], SPANISH, seed=seed, lexicon=lex)
        bots = [make_player("static", lex, seed=seed), make_player("greedy", lex, seed=seed)]
        while not g.is_over:
            if g.awaiting_challenge:
                g.accept()
                continue
            g.apply(bots[g.player_on_turn].choose(g))
        assert g.end_reason in ("out", "scoreless")
        digraphs += sum(1 for r in g.board.rows() for face in r if face.upper() in ("CH", "LL", "RR"))
    assert digraphs > 0


# -- abbreviations (issue 35: German accepted QM, KM, KG, USW, BZW; French CM, KG, KM) ----


def test_german_abbreviations_are_refused_and_words_with_few_vowels_stay() -> None:
    abbreviations = ["qm", "km", "kg", "usw", "bzw", "evtl", "inkl", "Nr", "Pkw", "Std", "Tel"]
    words = ["Angst", "Herbst", "schwarz", "Strumpf", "Typ", "sog", "vorm", "Kap", "Abt", "Zwist"]
    assert game_words(abbreviations + words, GERMAN_TILES, capitalized_nouns=True) == [
        "ANGST",
        "HERBST",
        "SCHWARZ",
        "STRUMPF",
        "TYP",
        "SOG",
        "VORM",
        "KAP",
        "ABT",
        "ZWIST",
    ]


def test_french_abbreviations_are_refused_and_interjections_without_vowels_stay() -> None:
    entries = ["cm", "kg", "km", "mm", "qqn", "déc", "dér", "der", "brrr", "pfft", "pst", "psitt", "lynx", "strict"]
    assert game_words(entries, FRENCH_TILES) == ["DER", "BRRR", "PFFT", "PST", "PSITT", "LYNX", "STRICT"]


def test_spanish_catalan_and_polish_abbreviations() -> None:
    from lexiko.tiles import POLISH as POLISH_TILES

    # "cía" (compañía) is an abbreviation, "cia" (the hip bone) a word: the list's spelling decides
    assert game_words(["pchs", "cía", "cia", "trasplante"], SPANISH_TILES) == ["PCHS", "CIA", "TRASPLANTE"]
    assert game_words(["hm", "km", "rpm", "art", "tel", "prop"], CATALAN_TILES) == ["ART", "TEL", "PROP"]
    polish = ["np", "itd", "tzw", "kg", "prof", "brr", "hm", "pst", "psst", "chrząszcz", "pstryk", "ul", "ur"]
    assert game_words(polish, POLISH_TILES) == ["BRR", "HM", "PST", "PSST", "CHRZĄSZCZ", "PSTRYK", "UL", "UR"]


def test_a_language_without_the_vowel_rule_keeps_words_without_vowels() -> None:
    """Czech and Slovak have words without vowels (VLK, KRK, PRST): a tile set with no
    abbreviation rules of its own keeps every entry the other rules keep."""
    from lexiko.tiles import ENGLISH

    assert game_words(["vlk", "krk", "prst", "km"], ENGLISH) == ["VLK", "KRK", "PRST", "KM"]


def test_czech_and_slovak_keep_words_whose_syllable_is_r_or_l() -> None:
    """Czech VLK, KRK, PRST have no vowel: R or L inside carries the syllable. An entry
    with no vowel and no R or L inside it (KM, TZV, XML with its L last) is an
    abbreviation, but for the interjections (HM, PST)."""
    from lexiko.tiles import tile_set

    czech = ["vlk", "krk", "prst", "čtvrt", "km", "kg", "tzv", "xml", "cfr", "hm", "pst"]
    assert game_words(czech, tile_set("czech")) == ["VLK", "KRK", "PRST", "ČTVRT", "HM", "PST"]
    slovak = ["vĺn", "tŕň", "smrť", "km", "ml", "šš", "psst"]
    assert game_words(slovak, tile_set("slovak")) == ["VĹN", "TŔŇ", "SMRŤ", "ŠŠ", "PSST"]


@pytest.mark.parametrize(
    ("tiles", "entries", "kept"),
    [
        (
            "dutch",
            ["kg", "btw", "brr", "hm", "pst", "aug", "okt", "sept", "hbo", "augurk"],
            ["BRR", "HM", "PST", "HBO", "AUGURK"],
        ),
        ("danish", ["kg", "pc", "hm", "pst", "atm", "efg", "edb", "ånd"], ["HM", "PST", "EDB", "ÅND"]),
        ("norwegian", ["kg", "nr", "hm", "mhm", "osv", "etc", "jul", "des", "øl"], ["HM", "MHM", "JUL", "DES", "ØL"]),
        ("swedish", ["pc", "hm", "öl", "å"], ["HM", "ÖL"]),
        ("portuguese", ["cm", "sr", "etc", "sra", "xx", "iv", "vi", "xi", "pão"], ["VI", "XI", "PAO"]),
        ("italian", ["kg", "sud", "est"], ["SUD", "EST"]),
        ("romanian", ["cm", "html", "hm", "mâr"], ["HM", "MAR"]),
        ("bulgarian", ["км", "хм", "ъгъл"], ["ХМ", "ЪГЪЛ"]),
        ("ukrainian", ["грн", "км", "їжак"], ["ЇЖАК"]),
        ("russian", ["км", "млн", "гм", "хм", "тсс", "шт", "съел"], ["ГМ", "ХМ", "ТСС", "СЪЕЛ"]),
        ("greek", ["κλπ", "χλμ", "χμ", "ωμος"], ["ΧΜ", "ΩΜΟΣ"]),
    ],
)
def test_abbreviations_of_the_newer_languages(tiles: str, entries: list[str], kept: list[str]) -> None:
    from lexiko.tiles import tile_set

    assert game_words(entries, tile_set(tiles)) == kept


def test_what_each_abbreviation_filter_removes_is_counted() -> None:
    dropped: dict[str, list[str]] = {}
    kept = game_words(
        ["ONU", "AGs", "km", "usw", "Haus", "Pkw", "brr"], GERMAN_TILES, capitalized_nouns=True, dropped=dropped
    )
    assert kept == ["HAUS", "BRR"]
    assert dropped == {"capitals": ["ONU", "AGs"], "no vowel": ["km", "Pkw"], "known": ["usw"]}


def _debian_list(file: str) -> list[str]:
    path = Path("/usr/share/dict") / file
    if not path.is_file():
        pytest.skip(f"Debian's list {path} is not installed (apt-get install w{file})")
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("file", "tiles", "refused", "kept"),
    [
        ("ngerman", GERMAN_TILES, ["QM", "KM", "KG", "USW", "BZW"], ["ANGST", "HERBST", "STRUMPF", "TYP", "KAP"]),
        ("french", FRENCH_TILES, ["CM", "KG", "KM"], ["BRRR", "PFFT", "PST", "LYNX", "STRICT"]),
    ],
)
def test_the_named_abbreviations_are_not_in_the_debian_lists(
    file: str, tiles: object, refused: list[str], kept: list[str]
) -> None:
    from lexiko.tiles import TileSet

    assert isinstance(tiles, TileSet)
    words = set(game_words(_debian_list(file), tiles, capitalized_nouns=file == "ngerman"))
    assert [w for w in refused if w in words] == []
    assert [w for w in kept if w in words] == kept
