"""The ``lexiko`` command: exit statuses, output, and errors as messages."""

from __future__ import annotations

import pytest
from shared_paths import SHARED as SHARED_DIR
from shared_paths import needs_shared

from lexiko.cli import main

SHARED = SHARED_DIR / "gcg"


def test_judge(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "qi", "QX", "zzz"]) == 1
    assert capsys.readouterr().out == "QI: valid\nQX: not valid\nZZZ: valid\n"
    assert main(["judge", "AA"]) == 0


def test_find_anagrams_longest_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["find", "AEINRST", "--limit", "9"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ANESTRI ANTSIER NASTIER RATINES RETAINS RETINAS RETSINA STAINER STEARIN"
    assert out[1] == "… and 253 more (--limit 0 shows all)"


def test_find_exact_with_blank_and_pattern(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["find", "QI?", "--exact"]) == 0
    assert capsys.readouterr().out == "QIS\n"
    assert main(["find", "Q?I*Z", "--pattern"]) == 0
    assert capsys.readouterr().out == "QUIZ\n"
    assert main(["find", "QZX", "--exact"]) == 1
    assert capsys.readouterr().out == "no words found\n"


@needs_shared
def test_replay_checks_a_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SHARED / "liwords__every_e.gcg")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == ["Josh_Sokol: H8 DUI +8 (8)   words: DUI", "JD: 8D FEUE(D) +13 (13)   words: FEUED"]
    assert out.rstrip().endswith("every score and total agrees; game over (out).")


@needs_shared
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["judge", "--lexicon", "XYZ99", "QI"],
            "error: unknown lexicon 'XYZ99': give TWL06, SOWPODS, wspanish, wfrench, wngerman, wpolish, wcatalan, "
            "witalian, wdutch, wbrazilian, wportuguese, wnorwegian, wswedish, wdanish, wbulgarian, wukrainian, "
            "aspell-cs, aspell-sk, aspell-ro, aspell-el, aspell-ru or the path of a word-list file",
        ),
        (
            ["judge", "--lexicon", "/bin/ls", "QI"],
            "error: /bin/ls is not a word list: it holds NUL bytes (a binary file?)",
        ),
        (["judge", "--lexicon", "/etc/passwd", "QI"], "error: /etc/passwd is not a word list for english tiles: "),
        (["replay", "/no/such.gcg"], "error: cannot read /no/such.gcg: No such file or directory"),
        (
            ["replay", str(SHARED / "broken" / "MAGPIE-DATA__malformed_play.gcg")],
            "error: line 11: '2' is not a letter of the english tile set",
        ),
        (["play", "--rules", "chess"], "error: unknown rules preset 'chess'; known: "),
        (["judge", "--tiles", "klingon", "QI"], "error: "),
    ],
)
def test_errors_are_one_line_messages(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out = capsys.readouterr().out
    assert out.startswith(message)
    assert "Traceback" not in out and len(out.splitlines()) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["play", "--rules", "duplicate", "--challenge", "single"],
            "error: duplicate games have no challenges (every move is checked when it is made): leave out "
            "--challenge single",
        ),
        (
            ["play", "--players", "a,,b"],
            "error: --players 'a,,b' has an empty name: give every player a name between the commas",
        ),
        (
            ["play", "--players", "You,"],
            "error: --players 'You,' has an empty name: give every player a name between the commas",
        ),
        (
            ["play", "--lexicon", "/etc"],
            "error: /etc is a directory, not a word-list file: give a file of words, one a line",
        ),
        (
            ["judge", "--lexicon", "/etc", "QI"],
            "error: /etc is a directory, not a word-list file: give a file of words, one a line",
        ),
    ],
)
def test_play_refuses_what_it_used_to_ignore(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().out == message + "\n"


def test_help_teaches(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "lexiko play --players Ann,Bob" in out and "--challenge" in out


def test_analyze_a_cgp_position_through_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"
    assert main(["analyze", "--cgp", cgp, "--top", "3", "--sort", "score", "--no-board"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines()[2:5]]
    assert rows[0] == ["1", "8B", "ANESTRI", "66", "-", "0.0", "66.0"]  # the TSV's 66 points, ties by position
    assert [r[3] for r in rows] == ["66", "66", "66"]


def test_endgame_needs_an_empty_bag(capsys: pytest.CaptureFixture[str]) -> None:
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"
    assert main(["endgame", "--cgp", cgp]) == 2
    assert capsys.readouterr().out.startswith("error: ")


def test_brackets_in_a_message_are_not_taken_for_markup(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", "--tiles", "spanish", "--lexicon", "/no/[CH]/list.txt", "QI"]) == 2
    assert "/no/[CH]/list.txt" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["play", "--minutes", "0"],
            "error: lexiko play: argument --minutes: must be a number above 0, not '0' (see 'lexiko play --help')",
        ),
        (
            ["play", "--minutes", "-5"],
            "error: lexiko play: argument --minutes: must be a number above 0, not '-5' (see 'lexiko play --help')",
        ),
        (
            ["play", "--minutes", "1e308"],
            "error: lexiko play: argument --minutes: must be minutes above 0 and at most 1440 (a day), not '1e308' (see 'lexiko play --help')",
        ),
        (
            ["serve", "--port", "99999"],
            "error: lexiko serve: argument --port: must be a port number from 1 to 65535, not '99999' (see 'lexiko serve --help')",
        ),
        (
            ["autoplay", "--jobs", "-2"],
            "error: lexiko autoplay: argument --jobs: must be a whole number of at least 0, not '-2' (see 'lexiko autoplay --help')",
        ),
        (
            ["autoplay", "--games", "0"],
            "error: lexiko autoplay: argument --games: must be a whole number of at least 1, not '0' (see 'lexiko autoplay --help')",
        ),
        (
            ["find", "AB", "--min", "-1"],
            "error: lexiko find: argument --min: must be a whole number of at least 1, not '-1' (see 'lexiko find --help')",
        ),
        (
            ["find", "AB", "--limit", "-1"],
            "error: lexiko find: argument --limit: must be a whole number of at least 0, not '-1' (see 'lexiko find --help')",
        ),
        (
            ["analyze", "--plies", "-1"],
            "error: lexiko analyze: argument --plies: must be a whole number of at least 1, not '-1' (see 'lexiko analyze --help')",
        ),
        (
            ["analyze", "--time-limit", "-3"],
            "error: lexiko analyze: argument --time-limit: must be a number above 0, not '-3' (see 'lexiko analyze --help')",
        ),
        (
            ["endgame", "--time-limit", "nan"],
            "error: lexiko endgame: argument --time-limit: must be a number above 0, not 'nan' (see 'lexiko endgame --help')",
        ),
        (
            ["train-leaves", "--games", "-10"],
            "error: lexiko train-leaves: argument --games: must be a whole number of at least 1, not '-10' (see 'lexiko train-leaves --help')",
        ),
    ],
)
def test_bad_numbers_are_one_line_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err == message + "\n"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out == "lexiko 0.1.0\n"


def test_play_defaults_to_casual_rules_and_lists_each_preset_once(capsys: pytest.CaptureFixture[str]) -> None:
    from lexiko.cli import build_parser
    from lexiko.rules import PRESETS

    assert build_parser().parse_args(["play"]).rules == "casual"
    assert PRESETS["casual"].challenge_rule == "void"
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")
    listed = text.split("rules preset: ", 1)[1].split(" (", 1)[0].split(", ")
    assert listed == sorted(PRESETS) and len(set(listed)) == len(listed)


def test_an_unknown_option_points_to_the_commands_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["find", "AB", "--nope"])
    assert e.value.code == 2
    assert capsys.readouterr().err == "error: lexiko find: unrecognized arguments: --nope (see 'lexiko find --help')\n"


def test_python_dash_m_lexiko_is_the_lexiko_command() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "lexiko", "judge", "--lexicon", "TWL06", "QI", "QX"], capture_output=True, text=True
    )
    assert (done.returncode, done.stdout, done.stderr) == (1, "QI: valid\nQX: not valid\n", "")
