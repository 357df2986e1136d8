"""The pre-endgame: the splits of the unseen tiles are every split with its probability,
and each candidate's result is what playing each split through a Game to its end
gives; errors name the problem."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_paths import DATA, SHARED, needs_shared

from lexiko.analysis import position_at_turn
from lexiko.bots import StaticBot
from lexiko.bots.endgame import solve
from lexiko.bots.preendgame import preendgame, scenarios, solve_preendgame
from lexiko.cli import main
from lexiko.errors import GameStateError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Pass, Place
from lexiko.tiles import ENGLISH

GAME = SHARED / "gcg" / "liwords__josh_nationals_round_14.gcg"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 1, 2, 5, 5, 9]), min_size=2, max_size=7), st.integers(1, 3))
def test_the_splits_are_every_split_with_its_probability(unseen: list[int], bag: int) -> None:
    bag = min(bag, len(unseen))
    splits = scenarios(unseen, bag, limit=10_000)
    # brute force: every order of the tiles (told apart by position) is as likely; the bag
    # is its first `bag` tiles, drawn from the end
    orders = list(permutations(range(len(unseen))))
    expected: Counter[tuple[int, ...]] = Counter()
    for o in orders:
        expected[tuple(reversed([unseen[i] for i in o[:bag]]))] += 1
    got = {s.bag: s for s in splits}
    assert len(got) == len(splits) == len(expected)
    for seq, n in expected.items():
        s = got[seq]
        assert Fraction(s.weight).limit_denominator(10**6) == Fraction(n, len(orders))
        assert Counter(s.opponent) + Counter(s.bag) == Counter(unseen)


def test_too_many_splits_are_sampled_with_a_seed() -> None:
    unseen = ENGLISH.parse("ABCDEFGHIJKLMN")
    a, b = scenarios(unseen, 3, limit=5, seed=1), scenarios(unseen, 3, limit=5, seed=1)
    assert a == b != scenarios(unseen, 3, limit=5, seed=2)
    assert len(a) == 5 and all(s.weight == 0.2 for s in a)
    assert all(Counter(s.opponent) + Counter(s.bag) == Counter(unseen) and len(s.bag) == 3 for s in a)


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("TWL06")


@pytest.mark.slow
@needs_shared
def test_each_split_is_what_the_game_played_to_its_end_gives(lex: Lexicon) -> None:
    g = position_at_turn(GAME, 20)
    assert g.bag_count == 1
    p = g.player_on_turn
    results = preendgame(g, lex, candidates=1, endgame_time=30)
    splits = scenarios(g.unseen(p), 1)
    assert [r.candidate.notation() for r in results] == ["D12 TIDY", "-"]
    for r in results:
        assert r.scenarios == r.exact == len(splits) == 6
        spread = wins = 0.0
        for s in splits:
            h = g.copy()
            h.set_rack(1 - p, s.opponent)  # the bag keeps the other tile
            assert Counter(h.unseen(1 - p)) == Counter(s.bag + h.rack(p))
            h.apply(r.candidate.move)
            if isinstance(r.candidate.move, Pass):  # the opponent moves as the static player
                h.apply(StaticBot(lex).choose(h))
            end = solve(h, lexicon=lex, time_limit=30)
            assert end.complete
            final = end.spread if h.player_on_turn == p else -end.spread
            spread += s.weight * final
            wins += s.weight * (final > 0) + s.weight * 0.5 * (final == 0)
        assert r.spread == pytest.approx(spread) and r.wins == pytest.approx(wins)
    assert [round(r.spread, 2) for r in results] == [-25.5, -46.38]


def test_positions_without_a_pre_endgame_are_refused(lex: Lexicon) -> None:
    g = Game(["A", "B", "C"], seed=1, lexicon=lex)
    with pytest.raises(GameStateError, match="^the pre-endgame handles two-player games$"):
        preendgame(g, lex)
    with pytest.raises(GameStateError, match="^the pre-endgame needs 1 to 2 tiles in the bag, not 0$"):
        solve_preendgame(g.board, ENGLISH.parse("QI"), ENGLISH.parse("AZ"), 0, lex)


@pytest.mark.slow
@needs_shared
def test_the_command_lists_the_share_won(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        ["analyze", str(GAME), "--turn", "20", "--preendgame", "--top", "1", "--endgame-time", "30", "--no-board"]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert "jvc to play with DEIISTY; scores Nick_BALLER 454, jvc 408; bag 1, unseen EEHLMSUU" in out
    rows = [ln.split() for ln in out.splitlines() if ln.strip()[:1].isdigit()]
    assert rows == [
        ["1", "D12", "TIDY", "36", "EIS", "0.0", "-25.5", "6", "6"],
        ["2", "-", "0", "DEIISTY", "0.0", "-46.4", "6", "6"],
    ]
    rc = main(["analyze", str(GAME), "--turn", "21", "--preendgame", "--no-board"])
    err = capsys.readouterr()
    assert rc != 0 and "the bag is empty: solve the endgame (--endgame)" in err.out + err.err


@pytest.mark.slow
def test_the_hard_level_plays_the_pre_endgame_with_one_tile_in_the_bag(lex: Lexicon) -> None:
    from lexiko.bots import HARD_ENDGAME_SECONDS, HARD_FINISH_BAG, HARD_PREENDGAME_SECONDS, make_player
    from lexiko.bots.simulation import SimulationBot

    game = position_at_turn(DATA / "gcg" / "corpus" / "phony_challenged_off.gcg", 22)
    assert game.bag_count == 1 and game.tiles.format(game.rack(game.player_on_turn)) == "BCFORTU"
    bot = SimulationBot(lex, candidates=2, preendgame_time=30, seed=1)
    assert bot.choose(game).notation(game.tiles) == "B9 F.CTUR."  # +81.4 over the 6 splits, the pass +47.0
    hard = make_player("hard", lex, seed=1)
    assert isinstance(hard, SimulationBot)
    assert (
        (hard.endgame_time, hard.preendgame_time, hard.finish)
        == (HARD_ENDGAME_SECONDS, HARD_PREENDGAME_SECONDS, HARD_FINISH_BAG)
        == (5.0, 10.0, 7)
    )
    plain = make_player("sim", lex, seed=1)
    assert isinstance(plain, SimulationBot) and plain.preendgame_time is None and plain.finish == 0


def test_the_endgame_time_is_refused_without_the_pre_endgame(capsys: pytest.CaptureFixture[str]) -> None:
    record = str(DATA / "gcg" / "corpus" / "phony_challenged_off.gcg")
    assert main(["analyze", record, "--turn", "22", "--endgame-time", "3"]) != 0
    assert (
        "error: --endgame-time is the time of each endgame of --preendgame or --review: give one of them"
        in capsys.readouterr().out
    )


#: An endgame position (tests/test_endgame.py's HARD) with the opponent holding both
#: blanks, FONT cut to FON and its T unseen: one tile in the bag, five letters it may be.
#: Against two blanks an endgame's first ply took seconds whatever its time, and the
#: pre-endgame played one of the five before its time was out.
BLANKS = (
    "15/15/11XU2/7GODWIT2/4R2R6Z/4ACCORDS2MA/HA2M2K2T2OY/UP1JIVES2I2BI/EH2F5L3N/1O1AY2LEALTIES/"
    "ON1R6E4/PILOTAGE1VROUW1/TA1U11/ES1N1FON7/D2DIENE7 ABEGNQR/AEEII?? 383/310 0 lex TWL06;"
)


def test_every_last_tile_is_played_within_the_time(twl06: Lexicon) -> None:
    """Every candidate plays every split within the time: each endgame gets a share of it
    (stopped, if need be, in its first ply). The time is bounded generously (twice the
    limit) on the process's CPU time, not the wall clock of a loaded machine."""
    import time

    from lexiko import cgp
    from lexiko.bots.static import resolve_leaves

    g = cgp.to_game(cgp.parse(BLANKS), lexicon=twl06, seed=0)
    assert g.bag_count == 1 and ENGLISH.format(g.unseen(0)) == "AEEIIT??"
    read = resolve_leaves(None, twl06.tiles)
    assert read is not None
    read(g.rack(0))  # the leave table read before the clock starts
    t = time.process_time()
    results = preendgame(g, twl06, candidates=3, time_limit=2.0, endgame_time=None)
    assert time.process_time() - t < 4.0
    assert len(results) == 4 and [r.scenarios for r in results] == [5] * 4
    # a pass not solved exactly in every split is no measure against a play: below them
    k = next(i for i, r in enumerate(results) if isinstance(r.candidate.move, Pass))
    assert results[k].exact < 5 and k == 3 and isinstance(results[0].candidate.move, Place)


def test_the_hard_level_keeps_its_pre_endgame_time_and_plays(twl06: Lexicon) -> None:
    """The simulation player's pre-endgame (the hard level's path) on the same position:
    within its time (twice it, on CPU time, as a generous bound) and a play, not the pass
    that estimates of endgames cut short ranked first."""
    import time

    from lexiko import cgp
    from lexiko.bots.simulation import SimulationBot
    from lexiko.bots.static import resolve_leaves

    g = cgp.to_game(cgp.parse(BLANKS), lexicon=twl06, seed=0)
    bot = SimulationBot(twl06, candidates=3, preendgame_time=2.0, seed=1)
    read = resolve_leaves(None, twl06.tiles)
    assert read is not None
    read(g.rack(0))  # the leave table read before the clock starts
    t = time.process_time()
    move = bot.choose(g)
    assert time.process_time() - t < 4.0
    assert isinstance(move, Place)
