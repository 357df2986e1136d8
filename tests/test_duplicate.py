"""Duplicate play: the shared rack and board, submissions, the top, the draw rule,
the solo bonus, the time per move, the master sheet and the record format."""

from __future__ import annotations

from collections import Counter

import pytest

from lexiko import duplicate, gcg
from lexiko.bots import make_player
from lexiko.duplicate import DuplicateGame
from lexiko.errors import GameStateError, IllegalMoveError, LexikoError, PhonyError, RecordError
from lexiko.lexicon import Lexicon
from lexiko.rng import Generator
from lexiko.rules import DUPLICATE, Rules
from lexiko.tiles import ENGLISH

SMALL = Lexicon.from_words(["QI", "QAT", "AT", "TA", "TI", "IT", "AI", "QATS"])


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_each_player_scores_their_own_move_and_the_top_is_placed() -> None:
    d = DuplicateGame(["Ann", "Bob", "Cy"], seed=3, lexicon=SMALL)
    d.set_rack("AIQT")
    assert d.submit("Ann", "8G QI").score == 22
    assert d.submit("Bob", "8G AT").score == 4
    r = d.close_round()  # Cy submitted nothing: 0
    assert (r.top.notation, r.top.score) == ("8F QAT", 24)  # ties: the first in move order
    assert r.scores == {"Ann": 22, "Bob": 4, "Cy": 0}
    assert d.totals == {"Ann": 22, "Bob": 4, "Cy": 0} and d.top_total == 24
    assert d.board.face_at(7, 5) == "Q" and d.round_number == 2
    assert [round(d.percentage(p), 1) for p in d.players] == [91.7, 16.7, 0.0]
    # the I stayed and six were drawn; that rack broke the vowel rule and was drawn again
    assert (d.redraws, d.rack_text, d.bag_count) == (1, "DEEILOU", 100 - 3 - 7)


def test_a_later_submission_replaces_the_earlier_one() -> None:
    d = DuplicateGame(["Ann"], seed=1, lexicon=SMALL)
    d.set_rack("AIQT")
    d.submit("Ann", "8G AT")
    d.submit("Ann", "-")
    assert d.close_round().scores == {"Ann": 0}


def test_bad_submissions_change_nothing() -> None:
    d = DuplicateGame(["Ann", "Bob"], seed=1, lexicon=SMALL)
    d.set_rack("AIQT")
    d.submit("Ann", "8G QI")
    with pytest.raises(PhonyError, match=r"^word TIQ is not in the lexicon$"):
        d.submit("Ann", "8G TIQ")
    with pytest.raises(IllegalMoveError, match=r"^tile Z is not on the rack \(AIQT\)$"):
        d.submit("Ann", "8G ZA")
    with pytest.raises(IllegalMoveError, match=r"^the first play must cover the centre square H8$"):
        d.submit("Ann", "1A QI")
    with pytest.raises(GameStateError, match=r"^'Zed' is not a player of this game$"):
        d.submit("Zed", "8G QI")
    assert d.close_round().scores == {"Ann": 22, "Bob": 0}


def test_time_per_move() -> None:
    clock = Clock()
    d = DuplicateGame(["Ann", "Bob"], DUPLICATE.replace(duplicate_seconds=60), seed=1, lexicon=SMALL, clock=clock)
    d.set_rack("AIQT")
    clock.now = 59
    d.submit("Ann", "8G QI")
    assert d.time_left() == 1
    clock.now = 61
    with pytest.raises(GameStateError, match=r"^too late: the round closed after 60 seconds$"):
        d.submit("Bob", "8G QI")
    assert d.submitted() == ["Ann"]
    d.close_round()
    assert d.time_left() == 60  # a new round, a new minute


def test_solo_bonus() -> None:
    d = DuplicateGame(["Ann", "Bob"], DUPLICATE.replace(duplicate_solo_bonus=10), seed=1, lexicon=SMALL)
    d.set_rack("AIQT")
    d.submit("Ann", "8F QAT")
    d.submit("Bob", "8G QI")
    r = d.close_round()
    assert r.bonus == {"Ann": 10} and d.totals == {"Ann": 34, "Bob": 22}
    d2 = DuplicateGame(["Ann", "Bob"], DUPLICATE.replace(duplicate_solo_bonus=10), seed=1, lexicon=SMALL)
    d2.set_rack("AIQT")
    d2.submit("Ann", "8F QAT")
    d2.submit("Bob", "8H QAT")  # another placement of the top score: no solo
    assert d2.close_round().bonus == {}


def _counts(rack: str) -> tuple[int, int, int]:
    codes = ENGLISH.parse(rack)
    v = sum(duplicate.is_vowel(ENGLISH, c) for c in codes)
    b = codes.count(0)
    return v, len(codes) - v - b, b


def _keeps_the_rule(rack: str, number: int) -> bool:
    """Whether a rack of round ``number`` keeps the duplicate preset's vowel rule."""
    v, c, b = _counts(rack)
    need = 2 if number <= 15 else 1
    return max(0, need - v) + max(0, need - c) <= b


def test_the_draw_rule_over_whole_games(twl06: Lexicon) -> None:
    redraws = 0
    for seed in range(12):
        bots = {"greedy": make_player("greedy", twl06, seed=seed)}
        g = duplicate.autoplay(bots, seed=seed, lexicon=twl06)
        tiles: Counter[int] = Counter(g.board.played_tiles())
        assert sum(tiles.values()) + len(g.rack) + g.bag_count == 100  # tiles are conserved
        for r in g.rounds:
            redraws += r.redraws
            assert _keeps_the_rule(r.rack, r.number), (seed, r.number, r.rack)  # the last tiles too
        assert g.totals["greedy"] == g.top_total  # the greedy player always finds the top
    assert redraws > 0  # the rule was needed


def test_the_game_ends_when_the_tiles_left_cannot_keep_the_vowel_rule(twl06: Lexicon) -> None:
    """Seed 18 (a game from before lexiko.rng, as reported): after round 20 the tiles left
    are FGLNPRV, no vowel and no blank, so no rack can keep the rule: the game is over
    (it went on with FGLNPRV, PRV and RV)."""
    d = DuplicateGame(["A"], DUPLICATE.replace(duplicate_seconds=None), seed=18, lexicon=twl06, generator="python")
    while not d.over:
        d.close_round()
    assert len(d.rounds) == 20
    assert duplicate.dumps(d).splitlines()[-1] == ">20 FJLRST? 15L JeST +66"
    assert (d.rack_text, d.bag_count, d.top_total) == ("FGLNPRV", 0, 810 - 22 - 12 - 7)
    assert d.end_reason == "the tiles left (FGLNPRV) cannot make a rack with a vowel and a consonant"


def test_the_last_tiles_keep_the_rule_too(twl06: Lexicon) -> None:
    """Fewer tiles than a rack left: they are the rack only if they keep the rule."""
    d = DuplicateGame(["A"], DUPLICATE.replace(duplicate_seconds=None), seed=18, lexicon=twl06)
    while not d.over:
        d.close_round()
    assert [(r.number, r.rack) for r in d.rounds[-2:]] == [(19, "DIINNTT"), (20, "CFINST")]
    assert (d.rack_text, d.bag_count) == ("CT", 0)
    assert d.end_reason == "the tiles left (CT) cannot make a rack with a vowel and a consonant"


def test_record_round_trip_and_master_sheet(twl06: Lexicon) -> None:
    bots = {
        name: make_player(kind, twl06, seed=3)
        for name, kind in [("Ann", "static"), ("Bob", "random"), ("computer (greedy)", "greedy")]
    }
    g = duplicate.autoplay(bots, seed=3, lexicon=twl06)
    text = duplicate.dumps(g)
    assert text.startswith("#lexiko-duplicate 1\n#lexicon TWL06\n#tile-distribution english\n#seed 3\n#player Ann\n")
    back = duplicate.loads(text, twl06)
    assert back.totals == g.totals and back.top_total == g.top_total
    assert [r.top.notation for r in back.rounds] == [r.top.notation for r in g.rounds]
    assert back.board.cells == g.board.cells
    sheet = duplicate.master_sheet(g)
    last = sheet.splitlines()[-4:]
    assert last[-1] == f"{'top':<24}{g.top_total:>6}    100.0%"
    assert last[0].startswith("computer (greedy)") and f"{g.totals['Ann']}" in sheet
    # the tops as GCG: one player whose running total is the sum of the tops
    rec = gcg.parse(duplicate.top_gcg(g))
    assert len(rec.events) == len(g.rounds) and rec.events[-1].total == g.top_total


def test_a_record_with_a_wrong_score_is_refused(twl06: Lexicon) -> None:
    g = duplicate.autoplay({"greedy": make_player("greedy", twl06, seed=1)}, seed=1, lexicon=twl06)
    lines = duplicate.dumps(g).splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(">1 "))
    head, _, score = lines[i].rpartition(" +")
    lines[i] = f"{head} +{int(score) + 1}"
    with pytest.raises(RecordError, match=rf"^line {i + 3}: round 1: the top .* scores {score}, not {int(score) + 1}$"):
        duplicate.loads("\n".join(lines), twl06)
    with pytest.raises(RecordError, match=r"^line 1: not a lexiko duplicate record"):
        duplicate.loads("#character-encoding UTF-8\n", twl06)


def test_the_game_refuses_duplicate_and_names_the_module() -> None:
    from lexiko.game import Game

    with pytest.raises(GameStateError, match=r"lexiko\.duplicate"):
        Game(["Ann", "Bob"], DUPLICATE, lexicon=None)
    import importlib

    assert importlib.import_module("lexiko.duplicate") is duplicate


def test_duplicate_options_are_checked() -> None:
    with pytest.raises(ValueError, match="duplicate_seconds must be positive"):
        Rules(duplicate_seconds=0)
    with pytest.raises(ValueError, match="must be 0 or more and fit the rack"):
        Rules(duplicate_min_vowels=5, duplicate_min_consonants=5)


# -- invariants (hypothesis) ------------------------------------------------------------


def test_a_close_taken_back_leaves_the_round_as_it_was_and_closes_again_the_same() -> None:
    d = DuplicateGame(["Ann", "Bob"], seed=1, lexicon=SMALL)
    d.set_rack("AIQT")
    d.submit("Ann", "8G QI")
    d.submit("Bob", "8G AT")
    state = (d.round_number, d.rack_text, d.bag_count, d.board.cells, dict(d.totals), d.top_total, d.submitted())
    first = d.close_round()
    after = (d.rack_text, d.bag_count, d.board.cells, dict(d.totals))
    d.reopen_round()
    assert (
        d.round_number,
        d.rack_text,
        d.bag_count,
        d.board.cells,
        dict(d.totals),
        d.top_total,
        d.submitted(),
    ) == state
    assert d.submission("Ann") is not None and d.submission("Ann").score == 22  # type: ignore[union-attr]
    with pytest.raises(GameStateError, match="^no round to reopen: only the last close can be taken back$"):
        d.reopen_round()
    again = d.close_round()
    assert (again.top.notation, again.scores) == (first.top.notation, first.scores)
    assert (d.rack_text, d.bag_count, d.board.cells, dict(d.totals)) == after  # the same tiles drawn
    d.submit("Ann", "-")  # the next round has begun: the close stays
    with pytest.raises(GameStateError, match="^no round to reopen"):
        d.reopen_round()


from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), choices=st.lists(st.integers(0, 3), min_size=40, max_size=40))
@example(seed=619, choices=[0] * 40)  # the tiles left could not keep the vowel rule: a rack was copied
def test_tiles_are_conserved_and_scores_add_up(twl06: Lexicon, seed: int, choices: list[int]) -> None:
    """Whatever the players submit (the top, another legal move, a pass, a phony or
    nothing), the tiles are conserved, each total is the sum of the player's round scores
    and never above the tops, and a refused submission changes nothing."""
    from lexiko.movegen import generate

    d = DuplicateGame(["A", "B"], seed=seed, lexicon=twl06)
    rounds = 0
    while not d.over and rounds < 40:
        moves = generate(d.board, d.rack, twl06, d.rules.replace(variant="classic"), placements_only=True, best=8)
        for name, pick in zip(("A", "B"), (choices[rounds], choices[-1 - rounds]), strict=True):
            if pick == 0 and moves:
                d.submit(name, moves[0].move)
            elif pick == 1 and moves:
                d.submit(name, moves[len(moves) // 2].move)
            elif pick == 2:
                d.submit(name, "-")
            before = (d.submitted(), d.rack, d.board.cells, dict(d.totals))
            with pytest.raises(LexikoError):
                d.submit(name, "8A ZZZZZZZ")  # never legal: refused, nothing changes
            assert (d.submitted(), d.rack, d.board.cells, dict(d.totals)) == before
        d.close_round()
        rounds += 1
        on_board = sum(1 for c in d.board.cells if c)
        assert on_board + len(d.rack) + d.bag_count == 100
        for p in d.players:
            assert d.totals[p] == sum(r.scores[p] for r in d.rounds) <= d.top_total
        assert d.top_total == sum(r.top.score for r in d.rounds)
    assert rounds >= 10  # whole games were played


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**63 - 1), generator=st.sampled_from(["lexiko", "python"]))
@example(seed=18, generator="python")  # the reported game: it went on with FGLNPRV
def test_every_rack_keeps_the_vowel_rule_or_the_game_is_over(twl06: Lexicon, seed: int, generator: Generator) -> None:
    """Each round's rack keeps the rule, whatever its size; when the game ends on the
    draw, no rack kept the rule out of the tiles left (rack and bag)."""
    d = DuplicateGame(["A"], DUPLICATE.replace(duplicate_seconds=None), seed=seed, lexicon=twl06, generator=generator)
    while not d.over:
        assert _keeps_the_rule(d.rack_text, d.round_number), (d.round_number, d.rack_text)
        d.close_round()
    assert all(_keeps_the_rule(r.rack, r.number) for r in d.rounds)
    left = d.tiles.format(d.tiles_left)
    assert d.end_reason is not None
    if d.end_reason.startswith("the tiles left"):
        assert not _keeps_the_rule(left, d.round_number), left  # nor would any part of them
    else:
        assert _keeps_the_rule(left, d.round_number) or not left, left


# -- the terminal ----------------------------------------------------------------------


def test_one_person_and_three_computers_play_duplicate_at_the_terminal(twl06: Lexicon, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import io

    from rich.console import Console

    from lexiko.terminal import DuplicateTerminal

    rules = DUPLICATE.replace(duplicate_seconds=None)
    bots = {
        name: make_player(kind, twl06, seed=7)
        for name, kind in [("static", "static"), ("greedy", "greedy"), ("random", "random")]
    }
    game = DuplicateGame(["You", *bots], rules, seed=7, lexicon=twl06)
    record = tmp_path / "game.dup"
    typed: list[str] = []

    def ask(prompt: str) -> str:
        assert prompt == "[You]> "
        n = game.round_number
        if n == 1 and not typed:
            line = "8a zzzzzzz"  # refused, asked again
        elif n == 2 and typed[-1] != "sheet":
            line = "sheet"
        elif n % 3 == 0:
            line = "pass"
        else:
            top = game.find_top()
            assert top is not None
            line = top.notation.lower() if top.notation.isupper() else top.notation
        if game.find_top() is not None and len(game.rounds) == 5 and typed[-1] != f"save {record}":
            line = f"save {record}"
        typed.append(line)
        return line

    console = Console(record=True, width=100, color_system=None, file=io.StringIO())
    DuplicateTerminal(game, bots, console=console, ask=ask).run()  # type: ignore[arg-type]
    out = console.export_text()
    assert game.over and "Traceback" not in out
    assert "square" in out or "is not" in out  # the refused move was answered with a message
    # every round the person typed the top scores the top; passes score nothing
    for r in game.rounds:
        you = r.submissions["You"]
        assert you is not None
        assert r.scores["You"] == (0 if you.notation == "-" else r.top.score)
    assert game.totals["greedy"] == game.top_total  # the greedy player always finds the top
    sheet = duplicate.master_sheet(game)
    last = out.rstrip().splitlines()[-1]
    assert game.end_reason is not None and game.end_reason.startswith("the ")
    assert last.startswith(f"Game over after {len(game.rounds)} rounds: {game.end_reason}. Best: ")
    assert sheet.splitlines()[-1] in out
    assert game.totals["You"] == sum(r.scores["You"] for r in game.rounds)
    saved = duplicate.loads(record.read_text(encoding="utf-8"), twl06)
    assert len(saved.rounds) == 5 and saved.totals["You"] == sum(r.scores["You"] for r in game.rounds[:5])


@pytest.mark.slow
def test_autoplay_plays_duplicate_games_with_sane_totals(twl06: Lexicon, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from lexiko.cli import main
    from lexiko.selfplay import autoplay_duplicate

    stats = autoplay_duplicate(
        ["static", "greedy", "random"], 20, seed=3, lexicon=twl06, rules=DUPLICATE, record_dir=tmp_path
    )
    assert stats.games == 20 and len(stats.tops) == 20
    for i in range(3):
        assert all(0 <= t <= top for t, top in zip(stats.totals[i], stats.tops, strict=True))
    assert stats.totals[1] == stats.tops  # greedy finds every top
    assert stats.percentage(1) == 100.0 > stats.percentage(0) > stats.percentage(2) > 0
    assert sum(stats.wins) == 20 and all(12 <= r <= 40 for r in stats.rounds)
    back = duplicate.loads((tmp_path / "game-000020.dup").read_text(encoding="utf-8"), twl06)
    assert back.top_total == stats.tops[-1]
    assert gcg.parse((tmp_path / "game-000020.gcg").read_text(encoding="utf-8")).events[-1].total == stats.tops[-1]
    assert main(["autoplay", "--rules", "duplicate", "--players", "greedy,random", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "3 duplicate games, TWL06" in out and "100.0%" in out


def test_a_person_too_late_at_the_terminal_scores_nothing_and_the_game_goes_on(twl06: Lexicon) -> None:
    import io

    from rich.console import Console

    from lexiko.terminal import DuplicateTerminal

    now = [0.0]
    game = DuplicateGame(
        ["You", "greedy"], DUPLICATE.replace(duplicate_seconds=60), seed=2, lexicon=twl06, clock=lambda: now[0]
    )
    answers = iter(["8d faddy", "quit"])

    def ask(prompt: str) -> str:
        now[0] += 61  # the person thinks too long
        return next(answers)

    console = Console(record=True, width=100, color_system=None, file=io.StringIO())
    DuplicateTerminal(
        game,
        {"greedy": make_player("greedy", twl06, seed=2)},
        console=console,  # type: ignore[dict-item]
        ask=ask,
    ).run()
    out = console.export_text()
    assert "too late: the round closed after 60 seconds; You scores 0 this round" in out
    assert len(game.rounds) == 1 and game.rounds[0].submissions["You"] is None and game.totals["You"] == 0


# -- the play command's time per round ------------------------------------------------


def _played_round_seconds(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> float | None:
    """The time per round of the duplicate game ``lexiko play`` starts (the terminal is
    not run)."""
    from lexiko.cli import main
    from lexiko.terminal import DuplicateTerminal

    seen: list[float | None] = []
    monkeypatch.setattr(DuplicateTerminal, "run", lambda self: seen.append(self.game.rules.duplicate_seconds))
    assert main(["play", "--rules", "duplicate", "--players", "You,greedy", *argv]) == 0
    assert len(seen) == 1
    return seen[0]


def test_play_sets_the_time_per_round(twl06: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _played_round_seconds([], monkeypatch) == 180  # the preset's
    assert _played_round_seconds(["--round-seconds", "300"], monkeypatch) == 300
    assert _played_round_seconds(["--round-seconds", "45.5"], monkeypatch) == 45.5
    assert _played_round_seconds(["--round-seconds", "0"], monkeypatch) is None  # no limit


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--rules", "duplicate", "--minutes", "5"],
            "error: duplicate games have no clock per player: give the time per round with --round-seconds "
            "(default 180), e.g. --round-seconds 300 for 5 minutes",
        ),
        (
            ["--round-seconds", "60"],
            "error: --round-seconds is the time per round of duplicate games (--rules duplicate); "
            "casual games have a clock per player: --minutes",
        ),
    ],
)
def test_play_refuses_a_time_option_its_rules_have_not(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from lexiko.cli import main

    assert main(["play", *argv]) == 2
    assert capsys.readouterr().out == message + "\n"


@pytest.mark.parametrize("text", ["-1", "nan", "inf", "abc", "86401"])
def test_play_refuses_a_bad_time_per_round(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    from lexiko.cli import main

    with pytest.raises(SystemExit) as e:
        main(["play", "--rules", "duplicate", "--round-seconds", text])
    assert e.value.code == 2
    assert capsys.readouterr().err == (
        "error: lexiko play: argument --round-seconds: must be seconds from 0 (no limit) to 86400 (a day), "
        f"not {text!r} (see 'lexiko play --help')\n"
    )


def test_play_help_teaches_the_time_per_round(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from lexiko.cli import main

    monkeypatch.setenv("COLUMNS", "120")  # argparse would break --round-seconds at its hyphen
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--round-seconds SECONDS duplicate: seconds to submit a move each round (default: 180; 0: no limit)" in out
    assert "lexiko play --rules duplicate --round-seconds 60" in out
    assert "duplicate has a time per round instead: --round-seconds" in out


def test_a_move_is_judged_once_a_round_and_again_on_a_new_board_or_rack(monkeypatch: pytest.MonkeyPatch) -> None:
    """Verdicts are kept for the round: the same move sent by many players is judged
    once; after the close (a new board) and after the rack is set again, it is judged
    afresh, with the new position's score or refusal."""
    calls: list[str] = []
    real = DuplicateGame._judge

    def counted(self: DuplicateGame, move: object, player: str) -> duplicate.Submission:
        calls.append(str(move))
        return real(self, move, player)  # type: ignore[arg-type]

    monkeypatch.setattr(DuplicateGame, "_judge", counted)
    d = DuplicateGame(["Ann", "Bob", "Cy"], seed=3, lexicon=SMALL)
    d.set_rack("AIQT")
    assert [d.submit(p, " 8G QI ").score for p in ("Ann", "Bob", "Cy")] == [22, 22, 22]
    assert [d.submission(p).player for p in d.players] == ["Ann", "Bob", "Cy"]  # type: ignore[union-attr]
    assert calls == [" 8G QI "]
    with pytest.raises(IllegalMoveError):
        d.submit("Ann", "8G QAI")
    d.close_round()  # 8F QAT on the board
    d.set_rack("AIST")
    with pytest.raises(LexikoError):  # the square is taken now
        d.judge("8G QI")
    assert d.judge("9H AI").score == d.judge("9H AI", "Bob").score == 5  # AI, and TA down
    assert d.judge("8I S").words == ("QATS",)
    d.set_rack("AITT")  # the same board, another rack: judged again
    with pytest.raises(IllegalMoveError, match="not on the rack"):
        d.judge("8I S")
    assert d.judge("9H AI").score == 5
    assert calls.count("9H AI") == 2 and calls.count("8I S") == 2
