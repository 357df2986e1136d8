"""Inputs the ``lexiko`` command must answer with one line naming the problem (exit
status 2), never a traceback, leaving everything as it was."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from fifo_harness import named_pipe

from lexiko.cli import main

_TWL06_FOR_SPANISH = (
    "error: lexicon TWL06 is an English list: spanish tiles need a word list of their language (a file, or wspanish)\n"
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


def test_train_leaves_refuses_an_out_that_is_not_a_file_before_training(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with named_pipe(tmp_path / "leaves.tsv") as fifo:
        assert main(["train-leaves", "--games", "1", "--rounds", "1", "--out", str(fifo)]) == 2
    assert capsys.readouterr().out == (
        f"error: --out {fifo} is a named pipe (FIFO), not a file: give a file name, such as leaves.tsv.gz\n"
    )
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_train_leaves_writes_through_a_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lexiko.leaves import LeaveTable

    link = tmp_path / "leaves.tsv"
    link.symlink_to(tmp_path / "kept.tsv")
    assert main(["train-leaves", "--games", "2", "--rounds", "1", "--min-seen", "1", "--out", str(link)]) == 0
    saved = [line for line in capsys.readouterr().out.splitlines() if line.startswith("saved ")]
    assert len(saved) == 1 and saved[0].split(" (")[0].endswith(f" leaves to {link}")
    assert link.is_symlink() and len(LeaveTable.load(tmp_path / "kept.tsv")) > 0


def test_replay_refuses_a_file_larger_than_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.gcg"
    big.write_bytes(b"#player1 a A\n#player2 b B\n" + b"#note " + b"x" * 60 + b"\n" * 1_000_000)
    assert main(["replay", str(big)]) == 2
    assert capsys.readouterr().out == (
        f"error: {big} holds more than a game record: a game record has at most 1,000,000 bytes\n"
    )


def test_replay_refuses_a_line_longer_than_a_record_has(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    long = tmp_path / "long.gcg"
    long.write_text("#player1 a A\n#player2 b B\n#note " + "x" * 10_000 + "\n>a: AEINRST 8D RETAINS +70 70\n")
    assert main(["replay", str(long)]) == 2
    assert capsys.readouterr().out == (
        "error: line 3: the line has 10,006 characters; a game record's lines have at most 10,000\n"
    )


def test_analyze_refuses_a_cgp_line_longer_than_a_position(capsys: pytest.CaptureFixture[str]) -> None:
    line = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 " + "x " * 5_000
    assert main(["analyze", "--cgp", line]) == 2
    assert capsys.readouterr().out == "error: the position has 10,060 characters; a CGP line has at most 10,000\n"


_EMPTY_LEXICON = (
    "error: the lexicon's name is empty: give TWL06, SOWPODS, wspanish, wfrench, wngerman, wpolish, wcatalan, "
    "witalian, wdutch, wbrazilian, wportuguese, wnorwegian, wswedish, wdanish, wbulgarian, wukrainian, "
    "aspell-cs, aspell-sk, aspell-ro, aspell-el, aspell-ru or the path of a word-list file\n"
)


@pytest.mark.parametrize(
    "argv",
    [
        ["judge", "--lexicon", "", "QI"],
        ["find", "--lexicon", " ", "QI"],
        ["play", "--lexicon", ""],
        ["autoplay", "--games", "1", "--lexicon", ""],
        ["analyze", "--cgp", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0", "--lexicon", ""],
    ],
)
def test_an_empty_lexicon_name_is_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().out == _EMPTY_LEXICON


def test_autoplay_output_starts_with_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["autoplay", "--games", "2", "--players", "greedy,random"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].strip() == "2 games, tournament rules, TWL06"
    assert out[-1].startswith("0 ties; ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["judge", "--lexicon", "/dev/zero", "QI"], "error: /dev/zero is a character device, not a word-list file: "),
        (["train-leaves", "--games", "1", "--out", ""], "error: --out needs a file name, such as leaves.tsv.gz"),
    ],
)
def test_places_that_are_not_files_are_named(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out = capsys.readouterr().out
    assert out.startswith(message) and len(out.splitlines()) == 1


@pytest.mark.parametrize("command", ["replay", "render", "analyze"])
def test_an_empty_file_name_is_an_argument_error(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main([command, ""])
    assert e.value.code == 2
    assert capsys.readouterr().err == (
        f"error: lexiko {command}: argument FILE.gcg: the file name is empty (see 'lexiko {command} --help')\n"
    )


def test_a_pipe_made_at_out_during_training_does_not_lose_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from lexiko.cli import train_leaves
    from lexiko.leaves import LeaveTable

    with named_pipe(tmp_path / "leaves.tsv") as fifo:
        monkeypatch.setattr(train_leaves, "output_file", lambda text: Path(text))  # as if made after the check
        monkeypatch.setattr(train_leaves.tempfile, "gettempdir", lambda: str(tmp_path))
        assert main(["train-leaves", "--games", "2", "--rounds", "1", "--min-seen", "1", "--out", str(fifo)]) == 0
        out = capsys.readouterr().out
        rescue = next(tmp_path.glob("lexiko-leaves-*.tsv"))
        assert (
            f"warning: cannot write {fifo} (it is a named pipe (FIFO), not a file); the table is saved in {rescue}"
            in out
        )
        assert stat.S_ISFIFO(fifo.lstat().st_mode) and len(LeaveTable.load(rescue)) > 0
