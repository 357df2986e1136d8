"""Inputs the ``lexiko`` command must answer with one line naming the problem (exit
status 2), never a traceback, leaving everything as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexiko.cli import main

_TWL06_FOR_SPANISH = (
    "error: lexicon TWL06 is an English list: spanish tiles need a word list of their language "
    "(a file, or wcatalan, wfrench, wngerman, wpolish, wspanish)\n"
)
_WSPANISH_FOR_ENGLISH = "error: lexicon wspanish is a Spanish list: it does not suit english tiles\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--lexicon", "wspanish"], _WSPANISH_FOR_ENGLISH),
        (["play", "--rules", "spanish", "--lexicon", "TWL06"], _TWL06_FOR_SPANISH),
        (["autoplay", "--games", "1", "--lexicon", "wspanish"], _WSPANISH_FOR_ENGLISH),
        (["autoplay", "--games", "1", "--rules", "spanish", "--lexicon", "TWL06"], _TWL06_FOR_SPANISH),
        (["train-leaves", "--games", "1", "--out", "{tmp}/t.tsv", "--lexicon", "wspanish"], _WSPANISH_FOR_ENGLISH),
        (
            ["train-leaves", "--games", "1", "--out", "{tmp}/t.tsv", "--rules", "spanish", "--lexicon", "TWL06"],
            _TWL06_FOR_SPANISH,
        ),
    ],
)
def test_a_lexicon_that_does_not_suit_the_rules_tiles_is_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    out = capsys.readouterr()
    assert (out.out, out.err) == (message, "")
    assert list(tmp_path.iterdir()) == []  # nothing trained, nothing written


_NEEDS_WSPANISH = pytest.mark.skipif(
    not Path("/usr/share/dict/spanish").is_file(),
    reason="Debian's wspanish is not installed (apt-get install wspanish)",
)


@pytest.mark.parametrize("command", [["judge", "QI"], ["find", "QI"]])
@pytest.mark.parametrize("lexicon", ["TWL06", "sowpods"])
def test_an_english_list_never_judges_another_language(
    command: list[str], lexicon: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--tiles", "spanish", "--lexicon", lexicon]) == 2
    out = capsys.readouterr()
    assert out.out == (
        f"error: {lexicon.upper()} is an English word list: it does not suit spanish tiles "
        "(give wspanish, or the path of a spanish word-list file)\n"
    )


def test_the_library_refuses_an_english_list_for_other_tiles() -> None:
    from lexiko.errors import LexiconError
    from lexiko.lexicon import Lexicon
    from lexiko.tiles import GERMAN, LEXULOUS

    with pytest.raises(LexiconError, match=r"^TWL06 is an English word list: it does not suit german tiles \(give "):
        Lexicon.load("TWL06", GERMAN)
    assert Lexicon.load("TWL06", LEXULOUS).name == "TWL06"  # English letters, other counts


@_NEEDS_WSPANISH
def test_judge_and_find_with_spanish_tiles_use_the_spanish_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "--tiles", "spanish", "QI", "perro"]) == 1
    assert capsys.readouterr().out == "QI: not valid\nPERRO: valid\n"
    assert main(["find", "--tiles", "spanish", "RREPO", "--exact"]) == 0
    assert capsys.readouterr().out == "PERRO\n"
