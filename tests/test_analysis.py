"""Analysis: best moves of known positions, game reviews, positions from records, and
the ``analyze`` and ``endgame`` commands."""

from __future__ import annotations

import argparse
import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from shared_paths import HAVE_SHARED, SHARED, needs_shared

from lexiko import cgp, gcg
from lexiko.analysis import analyze_position, position_at_turn, review
from lexiko.cli import analyze, endgame
from lexiko.errors import LexikoError
from lexiko.game import Game
from lexiko.lexicon import Lexicon

GAME = SHARED / "gcg" / "liwords__every_e.gcg"
PARTIAL = SHARED / "gcg" / "partial" / "quackle__preendgame.gcg"


def positions() -> list[tuple[str, str, str, int]]:
    rows: list[tuple[str, str, str, int]] = []
    if not HAVE_SHARED:
        return rows
    for line in (SHARED / "positions" / "movegen-twl06.tsv").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, text, _, play, score = line.split("\t")[:5]
            rows.append((name, text, play, int(score)))
    return rows


@pytest.mark.slow
@needs_shared
@pytest.mark.parametrize(("name", "text", "play", "score"), positions(), ids=[p[0] for p in positions()])
def test_top_scoring_play_comes_first_by_score(twl06: Lexicon, name: str, text: str, play: str, score: int) -> None:
    game = cgp.to_game(cgp.parse(text), lexicon=None, seed=0)
    rows = analyze_position(game, twl06, top=100_000, sort="score")
    assert rows[0].score == score
    tied = [r.notation for r in rows if r.score == score]
    assert play in tied  # ties are listed in board order
    assert all(a.score >= b.score for a, b in zip(rows, rows[1:], strict=False))


@needs_shared
def test_rows_by_equity(twl06: Lexicon) -> None:
    game = position_at_turn(GAME, 10)
    rows = analyze_position(game, twl06, top=8)
    assert len(rows) == 8
    assert [r.equity for r in rows] == sorted((r.equity for r in rows), reverse=True)
    for r in rows:
        assert r.equity == pytest.approx(r.score + r.leave_value)
        assert r.win_rate is None and r.iterations == 0
    assert rows[0].notation == "6F PALET(T)ES" and rows[0].score == 78 and rows[0].leave == ""
    assert analyze_position(game, twl06, top=3, leaves=False)[0].leave_value == 0.0


@needs_shared
def test_simulated_rows(twl06: Lexicon) -> None:
    game = position_at_turn(GAME, 10)
    rows = analyze_position(game, twl06, top=3, simulate=True, iterations=6, seed=2)
    assert len(rows) == 3
    assert all(r.iterations == 6 and r.win_rate is not None and 0 <= r.win_rate <= 1 for r in rows)
    assert [r.sim_value for r in rows] == sorted((r.sim_value or 0.0 for r in rows), reverse=True)


@needs_shared
def test_position_at_turn_matches_the_record() -> None:
    record = gcg.read(GAME)
    moves = [e for e in record.events if e.kind in ("play", "exchange", "pass")]
    game = position_at_turn(GAME, 10)
    ev = moves[9]
    assert game.players[game.player_on_turn] == ev.nick
    assert game.rack_text() == ev.rack
    assert game.scores[record.nicks.index(moves[8].nick)] == moves[8].total
    # the board is the one the record's 10th move was played on
    full = gcg.load(GAME)
    play = next(
        h
        for h in full.history
        if h.kind in ("play", "exchange", "pass") and h.rack == game.rack() and h.player == game.player_on_turn
    )
    assert play.move is not None
    game.apply(play.move)
    with pytest.raises(LexikoError, match="--turn must be 1 to"):
        position_at_turn(GAME, 999)


@needs_shared
def test_position_at_the_end_of_a_partial_game() -> None:
    game = position_at_turn(PARTIAL)
    assert game.rack_text() == "EGINPS?" and game.bag_count == 2
    game = position_at_turn(PARTIAL, rack="AEINST?")
    assert game.rack_text() == "AEINST?"


@needs_shared
def test_review_of_a_finished_game(twl06: Lexicon) -> None:
    game = gcg.load(GAME)
    turns = review(game, twl06)
    moves = [h for h in game.history if h.kind in ("play", "exchange", "pass")]
    assert len(turns) == len(moves) == 27
    assert [t.turn for t in turns] == list(range(1, 28))
    assert all(t.equity_lost >= 0 for t in turns)
    assert all(t.equity_lost == 0 for t in turns if t.rank == 1)
    assert all(t.played_score == m.score for t, m in zip(turns, moves, strict=True))
    # JD played the 60-point bingo with the 78-point one on the board: 18 points lost
    assert (turns[9].played, turns[9].best, turns[9].equity_lost) == ("5H EPA(U)LETS", "6F PALET(T)ES", 18.0)
    assert turns[9].rank == 2
    assert turns[-1].played == "D4 CO(G)"


def test_review_marks_withdrawn_plays(twl06: Lexicon, game_factory: Callable[..., Game]) -> None:
    from lexiko.rules import Rules

    g = game_factory(["QIAELNT", "AEINRST"], Rules(challenge_rule="double"), lexicon=twl06)
    g.play("8G QAI")
    g.challenge()
    turns = review(g, twl06)
    assert len(turns) == 1 and turns[0].withdrawn and turns[0].rank is None
    assert turns[0].played == "8G QAI" and turns[0].equity_lost > 0


# -- the command line ----------------------------------------------------------------


def run(argv: list[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="lexiko")
    sub = parser.add_subparsers(dest="command")
    analyze.add_parser(sub)
    endgame.add_parser(sub)
    args = parser.parse_args(argv)
    out = io.StringIO()
    console = Console(file=out, width=140, color_system=None, record=False)
    try:
        status = int(args.func(args, console))
    except LexikoError as e:
        return 2, f"error: {e}"
    return status, out.getvalue()


@needs_shared
def test_cli_analyze_turn_and_table() -> None:
    status, out = run(["analyze", str(GAME), "--turn", "10", "--top", "4", "--no-board"])
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("JD to play with AEELPST; scores Josh_Sokol 190, JD 81; bag 49")
    assert "leave value" in lines[1] and "equity" in lines[1]
    assert lines[2].split()[:3] == ["1", "6F", "PALET(T)ES"]
    assert len(lines) == 6


@needs_shared
def test_cli_analyze_sim_cgp_and_rack() -> None:
    text = positions()[3][1]
    status, out = run(
        ["analyze", "--cgp", text, "--sim", "--iterations", "4", "--top", "3", "--seed", "1", "--no-board"]
    )
    assert status == 0 and "win %" in out and "sim value" in out
    status, out = run(
        [
            "analyze",
            str(GAME),
            "--turn",
            "10",
            "--sim",
            "--iterations",
            "400",
            "--top",
            "5",
            "--seed",
            "1",
            "--prune",
            "3",
            "--no-board",
        ]
    )
    rows = [line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    assert status == 0 and rows[0][:3] == ["1", "6F", "PALET(T)ES"]
    assert len(rows) == 5 and all(int(r[-1]) == 16 for r in rows)  # the leader was clear after one batch
    status, out = run(["analyze", str(GAME), "--turn", "10", "--prune", "3", "--no-board"])
    assert status == 2 and "--prune stops a simulation early: give --sim too" in out
    status, out = run(
        [
            "analyze",
            str(GAME),
            "--turn",
            "22",
            "--sim",
            "--iterations",
            "12",
            "--top",
            "6",
            "--seed",
            "11",
            "--rank",
            "win",
            "--no-board",
        ]
    )
    rows = [line.split() for line in out.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    assert status == 0 and len(rows) == 6
    assert [r[1:3] for r in rows[:2]] == [["7A", "GEM"], ["7B", "EX"]]  # by value, B(IN)GE first (32.8 to 29.9)
    wins = [float(r[-2]) for r in rows]  # win %
    assert wins == sorted(wins, reverse=True)
    status, out = run(["analyze", str(GAME), "--turn", "10", "--rank", "win", "--no-board"])
    assert status == 2 and "--rank orders simulated moves: give --sim too" in out
    status, out = run(["analyze", "--board-gcg", str(PARTIAL), "--rack", "aeinst?", "--top", "2", "--no-board"])
    assert status == 0 and "AEINST?" in out.splitlines()[0]


@needs_shared
def test_cli_review_and_endgame() -> None:
    status, out = run(["analyze", str(GAME), "--review", "--static"])
    assert status == 0 and "Josh_Sokol: 14 moves" in out
    status, out = run(["endgame", str(SHARED / "gcg" / "MAGPIE-DATA__out_in_many.gcg"), "--turn", "26", "--no-board"])
    assert status == 0
    assert "best move: 4C N(O)" in out and "exact" in out


@needs_shared
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyze", str(GAME)], "error: the game is over: give --turn K"),
        (["analyze", str(GAME), "--turn", "0"], "error: the record has 27 moves: --turn must be 1 to 27"),
        (["analyze"], "error: give one position"),
        (["analyze", "--board-gcg", str(GAME)], "error: --board-gcg needs --rack"),
        (["endgame", str(GAME), "--turn", "3"], "error: the bag holds"),
        (["analyze", str(PARTIAL), "--rack", "QQQ"], "error: rack QQQ:"),
        (
            ["analyze", "--cgp", "/".join(["15"] * 15) + " /AEIOU 0/0 0"],
            "error: the position has no rack for the player on turn: write it first in the racks field",
        ),
        (
            ["endgame", "--cgp", "/".join(["15"] * 15) + " / 0/0 0"],
            "error: the position has no rack for the player on turn",
        ),
    ],
)
def test_cli_errors(argv: list[str], message: str) -> None:
    status, out = run(argv)
    assert status == 2 and out.startswith(message), out


def test_cli_review_by_simulation(tmp_path: Path, twl06: Lexicon, game_factory: Callable[..., Game]) -> None:
    g = game_factory(["DINNVWY", "AEEGRST"], lexicon=twl06, seed=5)
    g.play("8D WINDY")
    g.play("F2 GREATE(N)S")
    path = tmp_path / "two.gcg"
    gcg.write(g, path)
    status, out = run(["analyze", str(path), "--review", "--iterations", "10", "--top", "3"])
    assert status == 0
    assert [line.rstrip() for line in out.splitlines()] == [
        "# player rack    played        pts best     pts win % lost value lost",
        "1 P1     DINNVWY 8D WINDY       32 8H WINDY  32  60.4  4.4        6.6 inaccuracy",
        "2 P2     AEEGRST F2 GREATE(N)S  65 =             67.2",
        "P1: accuracy 74.6%; 1 moves: 0 best, 0 good, 1 inaccurate, 0 mistakes, 0 blunders",
        "  inaccuracy at turn 1: 8D WINDY, win chance -4.4, value -6.6 (best 8H WINDY)",
        "P2: accuracy 100.0%; 1 moves: 1 best, 0 good, 0 inaccurate, 0 mistakes, 0 blunders",
    ]
    for argv, message in [
        (["--static"], "error: --static weighs a review's moves: add --review"),
        (["--review", "--sim"], "error: --review simulates every move itself: leave out --sim, --prune, --infer"),
        (
            ["--turn", "1", "--endgame-time", "2"],
            "error: --endgame-time is the time of each endgame of --preendgame or",
        ),
    ]:
        status, out = run(["analyze", str(path), *argv])
        assert status == 2 and out.startswith(message), out
    status, out = run(["analyze", str(tmp_path / "none.gcg"), "--review"])
    assert (status, out) == (2, f"error: cannot read {tmp_path / 'none.gcg'}: No such file or directory")


def test_review_finds_an_opening_played_down(twl06: Lexicon) -> None:
    g = Game(["A", "B"], seed=1, lexicon=twl06, first_player=0)
    g.set_rack(0, "DINNVWY")
    g.play("H4 WINDY")  # down through the centre: the mirror of 8D WINDY
    (turn,) = review(g, twl06)
    assert turn.played == "H4 WINDY" and turn.played_score == 32
    assert (turn.rank, turn.equity_lost, turn.moves) == (1, 0.0, 202)  # 101 across plays and their mirrors


def test_a_review_fits_80_columns_without_cutting_a_move() -> None:
    import io

    from rich.console import Console

    from lexiko.analysis import TurnReview
    from lexiko.cli.analyze import review_table

    long_play = "8A (ABCDEFGH)IJKLMNO"  # 15 letters, 8 played through: 20 columns
    rows = [
        TurnReview(
            turn=n,
            player=n % 2,
            name="Bartholomew Longname" if n % 2 else "Kai",
            rack="AEINRS?",
            played=long_play,
            played_score=1234,
            played_equity=0.0,
            best="O1 ZYZZYVAS",
            best_score=999,
            best_equity=123.4,
            equity_lost=123.4,
            rank=17,
            moves=40696,
            withdrawn=n == 3,
        )
        for n in range(1, 30)
    ]
    console = Console(record=True, width=80, color_system=None, file=io.StringIO())
    console.print(review_table(rows, 80))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert all(long_play in line and "O1 ZYZZYVAS" in line for line in lines[1:])
    assert "Barthol…" in lines[1] and lines[3].split()[4:6] == ["(ABCDEFGH)IJKLMNO*", "1234"]
    wide = Console(record=True, width=120, color_system=None, file=io.StringIO())
    wide.print(review_table(rows, 120))
    text = wide.export_text()
    assert "17/40696" in text and "(withdrawn)" in text
