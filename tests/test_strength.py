"""The strength match against MAGPIE (``benchmarks/strength.py``) without MAGPIE: its
move lines, captured from MAGPIE's ``generate``, read into lexiko moves, and what a
refused, phony or misscored move of MAGPIE's stops the match with."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lexiko import cgp
from lexiko.errors import NotationError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, parse_move, parse_tiles
from lexiko.rules import TOURNAMENT

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
try:
    import strength
finally:
    sys.path.pop(0)

VEND = "15/15/15/15/15/15/15/4VEND7/15/15/15/15/15/15/15 ADEILOW/ABLPRTV 0/16 0"
LATE = (
    "15/15/15/15/15/15/4A10/4VEND3A3/4O6I3/4W6R3/3VERBALS1I3/4D4HOLK2/9O1Y3/1GREBE3J5/3TYMPANITIC2 "
    "AEINST?/EFIOTUX 111/117 0"
)
EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 DDHRV??/EINRSUW 0/0 0"
PASSING = (
    "13ME/2Q7Y1OAT/2A5PREFIX1/JUTE3W2A4/E2LOGBOOkS4/R6P2t4/R2OGEE3I4/Y5FIZ1EM3/8AUREI2/5NEIGH1T3/3BRANT3T3/"
    "UNAI7L2V/2C6SHEILA/LANDED3KIDDOS/OWE1SOUARI4T C/NNV 442/322 0"
)


def game_at(position: str, lexicon: Lexicon | None = None) -> Game:
    return cgp.to_game(cgp.parse(position), TOURNAMENT, lexicon=lexicon, seed=1)


def test_a_play_through_a_letter_reads_with_its_leave_score_and_equity() -> None:
    game = game_at(VEND)
    mm = strength.parse_magpie_move("1:  E7 A(V)OWED IL 26 24.61 ", game.board)
    assert mm == strength.MagpieMove("E7 A(V)OWED", parse_move("E7 A.OWED"), "IL", 26, 24.61)
    assert game.apply(mm.move).score == 26  # type: ignore[union-attr]


def test_a_blank_is_lower_case_and_an_empty_leave_is_nothing() -> None:
    game = game_at(LATE)
    mm = strength.parse_magpie_move("1:  N8 ANTISEx  78 78.00 ", game.board)
    assert mm.move == parse_move("N8 ANTISEx") and mm.leave == "" and (mm.score, mm.equity) == (78, 78.0)
    assert game.apply(mm.move).score == 78  # type: ignore[union-attr]


def test_an_exchange_may_keep_or_change_blanks_and_a_pass_keeps_the_rack() -> None:
    board = game_at(EMPTY).board
    assert strength.parse_magpie_move("1:  (exch DDV) HR?? 0 46.89 ", board) == strength.MagpieMove(
        "(exch DDV)", Exchange(parse_tiles("DDV")), "HR??", 0, 46.89
    )
    assert strength.parse_magpie_move("1:  (exch FGLL) RS? 0 36.05 ", board).move == Exchange(parse_tiles("FGLL"))
    assert strength.parse_magpie_move("1:  pass C 0 -1000.00 ", game_at(PASSING).board) == strength.MagpieMove(
        "pass", Pass(), "C", 0, -1000.0
    )


def test_a_line_of_the_simulation_reads_with_its_win_percentage() -> None:
    board = game_at(EMPTY).board
    line = "1:  (exch UUVV)    QUW 0 - 43.80 3.7245 4.74  9.4400 -3.72 10 34.40 21.68 20.00 38.10 19.28 10.00 "
    assert strength.parse_magpie_move(line, board) == strength.MagpieMove(
        "(exch UUVV)", Exchange(parse_tiles("UUVV")), "QUW", 0, None, 43.8
    )
    mm = strength.parse_magpie_move("1:  E7 A(V)OWED IL 26 - 61.02 1.9 30.15 4.4 24.61 100 ", game_at(VEND).board)
    assert (mm.move, mm.leave, mm.score, mm.equity, mm.win) == (parse_move("E7 A.OWED"), "IL", 26, None, 61.02)


@pytest.mark.parametrize("line", ["Showing 1 of 1 plays", "1:  E7 A(V)OWED IL 26", "2:  E7 A(V)OWED IL 26 24.61"])
def test_a_line_that_is_not_the_top_move_is_refused(line: str) -> None:
    with pytest.raises(NotationError, match="not a line of MAGPIE's move list"):
        strength.parse_magpie_move(line, game_at(VEND).board)


def test_a_play_over_a_letter_that_is_not_there_is_refused() -> None:
    with pytest.raises(NotationError, match="square E8 holds V, not X"):
        strength.parse_magpie_move("1:  E7 A(X)OWED IL 26 24.61", game_at(VEND).board)


class CannedMagpie:
    """Answers every position with the same move line, and keeps the positions."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.positions: list[str] = []

    def best(self, position: str) -> str:
        self.positions.append(position)
        return self.line


def turn(line: str, lexicon: Lexicon, position: str = VEND, opponent: str = "static") -> tuple[Game, CannedMagpie]:
    magpie = CannedMagpie(line)
    game = game_at(position, lexicon)
    match = strength.Match(magpie, lexicon, "static", TOURNAMENT, 0, opponent=opponent)  # type: ignore[arg-type]
    strength.magpie_turn(game, match, "game 3 (deal 2, MAGPIE static started), turn 5")
    return game, magpie


def test_magpie_gets_both_racks_and_its_move_is_played(twl06: Lexicon) -> None:
    game, magpie = turn("1:  E7 A(V)OWED IL 26 24.61", twl06)
    assert magpie.positions == [VEND]
    assert game.scores == [26, 16] and game.history[-1].words == ("AVOWED",)


def test_magpie_simulating_gets_its_own_rack_alone(twl06: Lexicon) -> None:
    game, magpie = turn("1:  E7 A(V)OWED IL 26 - 61.02 1.9 30.15 4.4 24.61 100", twl06, opponent="sim")
    assert magpie.positions == [VEND.replace("ADEILOW/ABLPRTV", "ADEILOW/")]
    assert game.scores == [26, 16] and game.rack(1) == parse_tiles("ABLPRTV")


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("1:  E7 A(V)OWED IL 30 24.61", "scores 26 by lexiko's rules, 30 by MAGPIE's"),
        ("1:  E7 A(V)OWEDL I 28 0.00", "forms a word not in TWL06: AVOWEDL"),
        ("1:  E7 A(V)OWED IE 26 24.61", "leaves IL by lexiko's count"),
        ("1:  E7 A(V)OWERS IL 26 0.00", "is refused by lexiko's rules: tiles RS are not on your rack (ADEILOW)"),
        ("1:  E7 A(V)OWED IL 26 -", "cannot be read: not a line of MAGPIE's move list: '1:  E7 A(V)OWED IL 26 -'"),
    ],
)
def test_a_wrong_move_stops_the_match_naming_the_game_the_turn_and_the_position(
    line: str, why: str, twl06: Lexicon
) -> None:
    with pytest.raises(strength.MatchError) as err:
        turn(line, twl06)
    assert str(err.value) == (
        f"game 3 (deal 2, MAGPIE static started), turn 5: MAGPIE's move {line!r} {why}\n  position sent: cgp {VEND}"
    )


class PassingMagpie:
    """Passes every turn, keeping the rack it is sent."""

    def best(self, position: str) -> str:
        return f"1:  pass {position.split()[1].split('/')[0]} 0 -1000.00"


def test_the_game_and_the_turn_are_counted_from_one(twl06: Lexicon) -> None:
    match = strength.Match(CannedMagpie("garbage"), twl06, "static", TOURNAMENT, 0)  # type: ignore[arg-type]
    with pytest.raises(strength.MatchError) as err:
        strength.play(match, 2)  # deal 2, lexiko first: MAGPIE's first turn is the game's second
    assert str(err.value).splitlines()[0] == (
        "game 3 (deal 2, lexiko static started), turn 2: MAGPIE's move 'garbage' cannot be read: "
        "not a line of MAGPIE's move list: 'garbage'"
    )


def test_a_game_is_played_to_its_end_and_recorded_by_seat(twl06: Lexicon) -> None:
    match = strength.Match(PassingMagpie(), twl06, "static", TOURNAMENT, 0)  # type: ignore[arg-type]
    record = strength.play(match, 1)  # MAGPIE starts, and passes every turn
    assert record.first_player == strength.MAGPIE and record.summary.index == 1
    assert record.summary.end_reason == "out" and record.summary.winners == (strength.LEXIKO,)
    assert record.summary.scores[strength.MAGPIE] == 0 and record.exchanges[strength.MAGPIE] == 0
    assert record.turns[strength.MAGPIE] == record.turns[strength.LEXIKO]  # MAGPIE first, lexiko went out


def test_player_options_are_read_as_numbers_words_or_text() -> None:
    assert [strength.player_option(t) for t in ("time_limit=1", "prune=2.5", "infer=True", "rank=win", "x= none")] == [
        ("time_limit", 1),
        ("prune", 2.5),
        ("infer", True),
        ("rank", "win"),
        ("x", None),
    ]
    for bad in ("time_limit", "=1", "time limit=1"):
        with pytest.raises(strength.argparse.ArgumentTypeError, match="give KEY=VALUE, e.g. time_limit=1"):
            strength.player_option(bad)


@pytest.fixture
def magpie_dir(tmp_path: Path) -> Path:
    """A folder laid out as MAGPIE's (bin/magpie, data/): enough for the checks made before any game."""
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "magpie").write_text("")
    (tmp_path / "data").mkdir()
    return tmp_path


def test_an_option_the_player_does_not_take_is_said_before_any_game(
    magpie_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        strength.main(["--magpie", str(magpie_dir), "--games", "2", "--players", "static", "--set", "candidates=5"])
        == 2
    )
    err = capsys.readouterr().err
    assert err == "error: --set: StaticBot.__init__() got an unexpected keyword argument 'candidates'\n"
    assert strength.main(["--magpie", str(magpie_dir), "--games", "2", "--players", "hard", "--set", "rank=best"]) == 2
    assert capsys.readouterr().err == "error: rank 'best': candidates are ranked by 'value' or 'win'\n"


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--magpie-set", "tlim=1"], "--magpie-set sets MAGPIE's simulation: give --opponent sim with it"),
        (
            ["--opponent", "sim", "--magpie-set", "threads=2"],
            "argument --magpie-set: 'threads=2': the match sets -threads itself",
        ),
        (
            ["--opponent", "sim", "--magpie-set", "tlim 1"],
            "argument --magpie-set: 'tlim 1': give KEY=VALUE as MAGPIE names its options, e.g. tlim=1",
        ),
        (
            ["--opponent", "simulation"],
            "argument --opponent: invalid choice: 'simulation' (choose from 'static', 'sim')",
        ),
    ],
)
def test_magpie_options_are_refused_before_any_game(
    args: list[str], why: str, magpie_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        strength.main(["--magpie", str(magpie_dir), "--games", "2", *args])
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(f": error: {why}")


def test_magpie_simulates_with_hard_s_size_unless_told_otherwise() -> None:
    settings = strength.magpie_settings(Path("/nowhere"), "TWL06", {"iterations": "1000000", "tlim": "1"})
    assert settings[settings.index("-r1") + 1] == "all" and settings.count("-iterations") == 1
    assert " ".join(settings[settings.index("-plies") :]) == (
        "-plies 2 -numplays 10 -iterations 1000000 -minplayiterations 100 -scondition 99 -tlim 1 -sinfer false"
    )
    assert "-plies" not in strength.magpie_settings(Path("/nowhere"), "TWL06")


def test_the_module_examples_hold() -> None:
    """The examples in the script's docstrings (outside src, so not collected): among
    them a late-game run compared game by game with a saved one (``paired``)."""
    import doctest

    failed, tried = doctest.testmod(strength)
    assert (failed, tried) == (0, 13)


def test_a_saved_run_of_another_seed_or_late_game_is_not_compared(tmp_path: Path) -> None:
    from lexiko.selfplay import GameSummary

    rec = strength.GameRecord(GameSummary(0, (400, 390), (0,), (0, 0), 20, "out"), 0, (0, 0), (10, 10), (0.0, 0.0), 0.0)
    path = tmp_path / "run.json"
    strength.save([rec], path, {"seed": 1, "late": 7, "players": "hard"})
    with pytest.raises(ValueError, match=r"run.json was saved with late 7, this run has None$"):
        strength.paired([rec], path, {"seed": 1, "late": None})
    with pytest.raises(ValueError, match=r"run.json was saved with opponent static, this run has sim$"):
        strength.paired([rec], path, {"seed": 1, "late": 7, "opponent": "sim"})  # saved before --opponent: static
    with pytest.raises(ValueError, match=r"run.json shares 1 game\(s\) with this run: play the same games"):
        strength.paired([rec], path, {"seed": 1, "late": 7})


def test_a_save_file_that_cannot_be_written_is_refused_before_any_game(
    magpie_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for where in (magpie_dir / "no such folder" / "run.json", magpie_dir):
        with pytest.raises(SystemExit) as stop:
            strength.main(["--magpie", str(magpie_dir), "--games", "2", "--save", str(where)])
        assert stop.value.code == 2
        err = capsys.readouterr().err.splitlines()[-1]
        assert err.endswith(f": error: --save: {where} is not a file in a folder that exists")


def test_a_magpie_that_stops_at_start_says_why_and_leaves_no_folder(
    magpie_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = magpie_dir / "bin" / "magpie"
    script.write_text("#!/bin/sh\nprintf \"(error 1) unrecognized command or argument 'bogus'\"\n")
    script.chmod(0o755)
    folders = tmp_path / "folders"
    folders.mkdir()
    monkeypatch.setattr(strength.tempfile, "tempdir", str(folders))
    with pytest.raises(strength.MatchError) as err:
        strength.Magpie(magpie_dir, sim={"bogus": "1"})
    message = str(err.value)
    assert message.startswith("MAGPIE did not start: ")
    assert message.endswith("(error 1) unrecognized command or argument 'bogus'")
    assert list(folders.iterdir()) == []
