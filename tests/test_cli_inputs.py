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
