"""``lexiko tournament``: a whole small event from the command line, and its errors."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from lexiko.cli import main
from lexiko.tournament.files import event_from_json


def lexiko(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(["tournament", *argv])
    out = capsys.readouterr()
    return status, out.out + out.err


@pytest.fixture
def club(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "club.json"
    assert lexiko(capsys, "new", str(path), "--name", "Club night", "--rounds", "3") == (
        0,
        f"created {path}: Club night, division A\n",
    )
    for name, rating in [("Lee, Ann", "1800"), ("Ng, Bo", "1700"), ("Ortiz, Cy", "1600")]:
        assert lexiko(capsys, "add", str(path), name, "--rating", rating)[0] == 0
    return path


def test_a_small_event_from_the_command_line(club: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    e = str(club)
    assert lexiko(capsys, "pair", e) == (
        0,
        "round 1 of division A:\n  3 Ortiz, Cy: bye (+50)\n  1 Lee, Ann  v  2 Ng, Bo\n",
    )
    assert lexiko(capsys, "result", e, "1", "ng, bo", "380", "1", "420") == (0, "round 1 is complete\n")
    status, out = lexiko(capsys, "standings", e)
    assert status == 0 and "Ortiz, Cy (3)" in out and out.index("Ortiz") < out.index("Lee") < out.index("Ng")
    status, out = lexiko(capsys, "report", e, "--out", str(tmp_path / "rep"), "--tsh")
    assert out == f"wrote index.html, standings.csv, pairings.csv, scorecards.csv, A.t in {tmp_path / 'rep'}\n"
    rows = list(csv.DictReader(io.StringIO((tmp_path / "rep" / "standings.csv").read_text())))
    assert [(r["name"], r["wins"], r["spread"]) for r in rows] == [
        ("Ortiz, Cy", "1", "50"),
        ("Lee, Ann", "1", "40"),
        ("Ng, Bo", "0", "-40"),
    ]
    assert "<h4>Lee, Ann (#1, 1800)</h4>" in (tmp_path / "rep" / "index.html").read_text()
    assert (tmp_path / "rep" / "A.t").read_text().splitlines()[0] == "Lee, Ann 1800 2; 420; p12 1"
    # the TSH file starts a new event with the same standings
    again = tmp_path / "again.json"
    assert lexiko(capsys, "new", str(again), "--from-tsh", str(tmp_path / "rep" / "A.t"))[0] == 0

    def games(path: Path) -> list[set[object]]:
        rounds = event_from_json(path.read_text()).divisions[0].rounds
        return [set(zip(r.pairings, r.results, strict=True)) for r in rounds]

    assert games(again) == games(club)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["result", "{e}", "1", "1", "400", "3", "300"], "error: division A has no round 1 (no round is paired)\n"),
        (["add", "{e}", "lee, ann"], "error: division A already has a player named 'lee, ann'\n"),
        (["withdraw", "{e}", "Zed"], "error: division A has no player named 'Zed'\n"),
        (["new", "{e}"], "error: {e} already exists (--force replaces it)\n"),
        (
            ["pair", "{e}", "--manual", "1-2", "3"],
            "error: --manual takes pairings as FIRST-SECOND numbers (N-0 for a bye), not '3'\n",
        ),
        (["pair", "{e}", "--manual", "1-2"], "error: player 3 (Ortiz, Cy) not paired\n"),
        (["standings", "{e}", "-d", "B"], "error: event 'Club night' has no division 'B'\n"),
    ],
)
def test_bad_input_is_one_line_and_the_file_is_unchanged(
    club: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = club.read_text()
    assert lexiko(capsys, *(a.format(e=club) for a in argv)) == (2, message.format(e=club))
    assert club.read_text() == before


def test_a_result_entered_twice_and_a_spread_that_does_not_add_up(
    club: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    e = str(club)
    lexiko(capsys, "pair", e)
    assert lexiko(capsys, "result", e, "1", "1", "400", "2", "390", "--spread", "20") == (
        2,
        "error: the scores 400-390 make a spread of 10, not 20\n",
    )
    assert lexiko(capsys, "result", e, "1", "1", "400", "2", "390")[0] == 0
    assert lexiko(capsys, "result", e, "1", "1", "400", "2", "300") == (
        2,
        "error: round 1: the game between player 1 (Lee, Ann) and player 2 (Ng, Bo) already has a result (400-390); correct it to change it\n",
    )
    assert lexiko(capsys, "result", e, "1", "1", "400", "2", "300", "--correct")[0] == 0
    assert lexiko(capsys, "result", e, "1", "1", "0", "3", "0", "--forfeit") == (
        2,
        "error: round 1 has no game between player 1 (Lee, Ann) and player 3 (Ortiz, Cy)\n",
    )


def test_a_file_that_is_not_an_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "x.json"
    bad.write_text("[1]")
    assert lexiko(capsys, "standings", str(bad)) == (2, f"error: {bad}: not an event file: the file has no 'format'\n")
    assert lexiko(capsys, "standings", str(tmp_path / "none.json")) == (
        2,
        f"error: no such file: {tmp_path / 'none.json'}\n",
    )


def test_help_teaches(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    out = capsys.readouterr().out
    assert 'lexiko tournament result club.json 1 "Lee, Ann" 420 "Ng, Bo" 380' in out
    with pytest.raises(SystemExit):
        main(["tournament", "pair"])
    assert capsys.readouterr().err == (
        "error: lexiko tournament pair: the following arguments are required: EVENT.json "
        "(see 'lexiko tournament pair --help')\n"
    )


def test_standings_of_every_division(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    e = str(tmp_path / "two.json")
    assert lexiko(capsys, "new", e, "-d", "A", "-d", "B")[0] == 0
    assert lexiko(capsys, "add", e, "Ann") == (
        2,
        "error: event 'two' has 2 divisions (A, B): name one\n",
    )
    assert lexiko(capsys, "add", e, "Ann", "-d", "b") == (0, "added player 1: Ann\n")
    status, out = lexiko(capsys, "standings", e)
    assert status == 0 and "Division A" in out and "Division B" in out and "Ann (1)" in out


def test_team_standings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    e = str(tmp_path / "teams.json")
    lexiko(capsys, "new", e, "--method", "team-round-robin")
    for name, team in [("Ann", "North"), ("Bo", "North"), ("Cy", "South"), ("Di", "South")]:
        lexiko(capsys, "add", e, name, "--team", team)
    assert lexiko(capsys, "pair", e) == (0, "round 1 of division A:\n  1 Ann  v  3 Cy\n  2 Bo  v  4 Di\n")
    lexiko(capsys, "result", e, "1", "Ann", "400", "Cy", "350")
    lexiko(capsys, "result", e, "1", "Bo", "400", "Di", "390")
    status, out = lexiko(capsys, "standings", e, "--teams")
    north = next(line for line in out.splitlines() if "North" in line)
    assert status == 0 and north.split("│")[1:7] == [" 1 ", " North ", "       2 ", "    2 ", "      0 ", "    +60 "]


def test_a_festival_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = str(tmp_path / "summer.json")
    assert lexiko(capsys, "festival", f, "--name", "Summer", "--game", "1000", "Ann=950", "Bo=900", "Cy=700")[0] == 0
    status, out = lexiko(capsys, "festival", f, "--game", "800", "Ann=700", "Bo=790", "--by", "percent")
    rows = [line.split("│")[1:-1] for line in out.splitlines() if line.startswith("│")]
    assert status == 0 and [[c.strip() for c in r] for r in rows] == [
        ["1", "Bo", "1690", "1800", "93.89", "2"],
        ["2", "Ann", "1650", "1800", "91.67", "2"],
        ["3", "Cy", "700", "1000", "70.00", "1"],
    ]
    assert "Summer, 2 games, by percent" in out
    before = Path(f).read_text()
    assert before == (
        '{"format": "lexiko-festival", "version": 1, "name": "Summer",\n'
        ' "tops": [1000, 800],\n'
        ' "scores": {\n  "Ann": [950, 700],\n  "Bo": [900, 790],\n  "Cy": [700, null]\n }}\n'
    )
    assert lexiko(capsys, "festival", f, "--game", "800", "Ann=900") == (
        2,
        "error: Ann's score 900 is not between 0 and the top, 800\n",
    )
    assert lexiko(capsys, "festival", f, "--game", "800", "Ann:900") == (
        2,
        "error: --game takes each player's score as NAME=SCORE, not 'Ann:900'\n",
    )
    assert Path(f).read_text() == before  # refused: the file as it was
    (tmp_path / "club.json").write_text('{"format": "lexiko-tournament"}')
    assert lexiko(capsys, "festival", str(tmp_path / "club.json")) == (
        2,
        f"error: {tmp_path / 'club.json'}: not a festival file: its format is not 'lexiko-festival'\n",
    )


@pytest.mark.slow
def test_a_festival_of_duplicate_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lexiko import duplicate
    from lexiko.bots import make_player
    from lexiko.lexicon import Lexicon
    from lexiko.tournament.festival import Festival, festival_from_json

    lex = Lexicon.load("TWL06")
    games = []
    for seed in (3, 4):
        bots = {"Ann": make_player("greedy", lex, name="Ann"), "Bo": make_player("random", lex, seed=seed, name="Bo")}
        games.append(duplicate.autoplay(bots, seed=seed, lexicon=lex))
        (tmp_path / f"game{seed}.dup").write_text(duplicate.dumps(games[-1]))
    f = tmp_path / "summer.json"
    status, out = lexiko(capsys, "festival", str(f), "--add", str(tmp_path / "game3.dup"), str(tmp_path / "game4.dup"))
    assert status == 0, out
    expected = Festival("summer")
    for g in games:
        expected.add_game(g.top_total, dict(g.totals))
    assert festival_from_json(f.read_text()) == expected
    assert expected.tops == [g.top_total for g in games] and expected.by_total()[0].name == "Ann"
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in out.splitlines() if line.startswith("│")]
    assert rows == [
        [str(x.rank), x.name, str(x.total), str(x.top), f"{x.percent:.2f}", str(x.games)] for x in expected.by_total()
    ]
    unfinished = "\n".join(duplicate.dumps(games[0]).splitlines()[:12]) + "\n"
    (tmp_path / "half.dup").write_text(unfinished)
    status, out = lexiko(capsys, "festival", str(f), "--add", str(tmp_path / "half.dup"))
    assert status == 2 and out.startswith(
        f"error: {tmp_path / 'half.dup'}: the game is not over (its record stops after round"
    )
