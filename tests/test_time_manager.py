"""The time manager: a forced move gets nothing, a close decision more than a clear
one, the last seconds are never all spent, the end of the game keeps its reserve."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexiko.bots import make_player
from lexiko.bots.simulation import SimulationBot
from lexiko.bots.static import StaticBot, resolve_leaves, static_choice
from lexiko.bots.time_manager import (
    MAX_SHARE,
    QUICK_SECONDS,
    RESERVE_SHARE,
    SAFETY_SECONDS,
    Clock,
    budget,
    units_left,
    weight,
)
from lexiko.game import Accept, Game
from lexiko.lexicon import Lexicon
from lexiko.movegen import generate
from lexiko.rules import TOURNAMENT, Rules


def test_a_forced_move_gets_no_time() -> None:
    assert budget(Clock(1500.0), 40, choices=1) == 0.0
    assert budget(Clock(1500.0), 0, choices=1) == 0.0
    assert budget(Clock(1500.0), 40, choices=2) == budget(Clock(1500.0), 40)


def test_a_clear_best_gets_little_and_a_close_decision_more() -> None:
    plain = budget(Clock(1000.0), 40)
    # 1000 s: 949.5 to plan on, over 1 + 32/8 mid-game moves and 5 units for the end
    assert plain == pytest.approx(949.5 / 10.0)
    assert budget(Clock(1000.0), 40, margin=0.0) == pytest.approx(949.5 / 10.0 * 1.5)
    assert budget(Clock(1000.0), 40, margin=50.0) == pytest.approx(949.5 / 10.0 * (0.2 + 1.3 * 0.006737947))
    assert budget(Clock(1000.0), 40, margin=50.0) < 0.25 * plain


def test_a_decided_game_gets_little() -> None:
    # 30 tiles in the bag: a lead of 80 + 2 * 30 = 140 can turn; 280 ahead, half the
    # time; behind by 1,000, a quarter at least
    assert budget(Clock(100.0), 30, spread=280) == pytest.approx(budget(Clock(100.0), 30) / 2)
    assert budget(Clock(100.0), 30, spread=-1000) == pytest.approx(budget(Clock(100.0), 30) / 4)
    assert budget(Clock(100.0), 30, spread=-140) == budget(Clock(100.0), 30)
    # the bag empty, 400 ahead: a quarter of the endgame's whole share, under the 40% cap
    assert budget(Clock(100.0), 0, spread=400) == pytest.approx((100.0 * 0.95 - 0.5) / 4)


def test_the_end_of_the_game_keeps_its_reserve() -> None:
    # the last mid-game move (8 tiles in the bag) with 100 s left: it gets one unit of
    # 1 + 1.5 (late) + 0.5 * 3 (pre-endgame) + 2 (endgame), and 5/6 stay for the end
    spendable = 100.0 * (1 - RESERVE_SHARE) - SAFETY_SECONDS
    assert units_left(8) == 6.0
    assert budget(Clock(100.0), 8) == pytest.approx(spendable / 6)
    # the pre-endgame, with what the late moves left: 3 of its 5 units, capped at 40%
    assert weight(1) == 3.0
    assert budget(Clock(60.0), 1) == pytest.approx(MAX_SHARE * (60.0 * 0.95 - 0.5))
    # the endgame gets its weight of all that is left, but never more than 40% of it
    assert budget(Clock(30.0), 0) == pytest.approx(0.4 * (30.0 * 0.95 - 0.5))
    # a pre-endgame gets more than a mid-game move with the same time left
    assert budget(Clock(200.0), 1) > 2 * budget(Clock(200.0), 30)


@given(
    st.floats(-60.0, 3600.0, allow_nan=False),
    st.integers(0, 100),
    st.floats(0.0, 30.0, allow_nan=False),
    st.none() | st.floats(0.0, 200.0, allow_nan=False),
    st.integers(-500, 500),
)
def test_a_move_never_spends_what_is_left(
    left: float, bag: int, increment: float, margin: float | None, spread: int
) -> None:
    got = budget(Clock(left, increment), bag, margin=margin, spread=spread)
    now = left * (1 - RESERVE_SHARE) - SAFETY_SECONDS
    if now <= 0:
        assert got == 0.0
    else:
        assert 0.0 <= got <= MAX_SHARE * (now + increment)
        assert got < left + increment - SAFETY_SECONDS


def test_the_last_move_before_the_clock_runs_out() -> None:
    assert budget(Clock(2.0), 0) == pytest.approx(0.4 * (2.0 * 0.95 - 0.5))  # 0.56 s of 2 s
    assert budget(Clock(0.5), 30) == 0.0
    assert budget(Clock(-10.0), 30) == 0.0  # overtime is not planned on


def test_the_clock_of_a_game_is_read_while_the_player_thinks() -> None:
    now = [0.0]
    g = Game(["A", "B"], Rules(time_minutes=1, time_increment=2), lexicon=None, seed=3, clock=lambda: now[0])
    now[0] = 15.0
    assert Clock.of(g) == Clock(45.0, 2.0)
    assert Clock.of(g, 1 - g.player_on_turn) == Clock(60.0, 2.0)
    assert Clock.of(Game(["A", "B"], lexicon=None, seed=3)) is None


@pytest.fixture(scope="module")
def twl(twl06: Lexicon) -> Lexicon:
    """TWL06 with the default leave table read (seconds, once a session, whoever asks first)."""
    table = resolve_leaves(None, twl06.tiles)
    assert table is not None
    table((1,))
    return twl06


def _hard(lex: Lexicon, **kw: Any) -> SimulationBot:
    bot = make_player("hard", lex, seed=7, **kw)
    assert isinstance(bot, SimulationBot)
    return bot


def test_hard_asks_the_time_manager_when_the_game_has_a_clock(twl: Lexicon) -> None:
    now = [0.0]
    g = Game(["A", "B"], TOURNAMENT.replace(time_minutes=1), lexicon=twl, seed=11, first_player=0, clock=lambda: now[0])
    now[0] = 58.0  # 2 s left: a short search
    bot = _hard(twl)
    move = bot.choose(g)
    two = generate(
        g.board, g.rack(0), twl, g.rules, bag_count=g.bag_count, best=2, leaves=resolve_leaves(None, twl.tiles)
    )
    expected = budget(Clock(2.0), 86, choices=2, margin=two[0].equity - two[1].equity)
    assert bot.last_budget == pytest.approx(expected)
    assert QUICK_SECONDS < expected < 0.4 * 2.0
    assert move in [r.candidate.move for r in bot.last_results]
    assert sum(r.iterations for r in bot.last_results) > 0
    # no clock, or the clock turned off: the fixed settings, no budget
    plain = Game(["A", "B"], lexicon=twl, seed=11, first_player=0)
    quiet = _hard(twl, iterations=2)
    quiet.choose(plain)
    assert quiet.last_budget is None
    off = _hard(twl, iterations=2, clock=False)
    off.choose(g)
    assert off.last_budget is None


def test_with_no_time_left_hard_makes_the_static_best_at_once(twl: Lexicon) -> None:
    now = [0.0]
    g = Game(["A", "B"], TOURNAMENT.replace(time_minutes=1), lexicon=twl, seed=11, first_player=0, clock=lambda: now[0])
    now[0] = 59.6  # 0.4 s left: less than the safety
    bot = _hard(twl)
    assert bot.choose(g) == static_choice(g.position(), twl)
    assert bot.last_budget == 0.0
    now[0] = 75.0  # in overtime
    assert bot.choose(g) == static_choice(g.position(), twl)
    assert bot.last_budget == 0.0


@pytest.mark.slow
def test_hard_on_a_short_clock_never_flags(twl: Lexicon) -> None:
    # a 9-second clock for a whole game against the static player (who moves at once)
    g = Game(["hard", "static"], TOURNAMENT.replace(time_minutes=0.15), lexicon=None, seed=5, first_player=0)
    hard, static = _hard(twl), StaticBot(twl)
    budgets = []
    while not g.is_over:
        if g.awaiting_final_challenge:
            g.apply(Accept(), player=g.player_on_turn)
            continue
        if g.player_on_turn == 0:
            g.apply(hard.choose(g), player=0)
            assert hard.last_budget is not None
            budgets.append(hard.last_budget)
        else:
            g.apply(static.choose(g), player=1, elapsed=0.0)
    left = g.time_left(0)
    assert left is not None and left > 0
    assert g.end_reason != "time"
    assert not [e for e in g.history if e.kind == "time-penalty"]
    assert len(budgets) >= 8 and sum(1 for b in budgets if b >= QUICK_SECONDS) >= 5


def test_the_budget_counts_the_time_the_leave_table_took_to_read(twl: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    # the first static ranking of a process reads the leave table (seconds, on a busy
    # machine tens of them): the budget must be shared from what is left after it
    now = [0.0]
    g = Game(["A", "B"], TOURNAMENT.replace(time_minutes=1), lexicon=twl, seed=11, first_player=0, clock=lambda: now[0])
    ranked = SimulationBot._static_best

    def slow_first_read(self: SimulationBot, game: Game, best: int) -> list[Any]:
        now[0] += 58.0
        return ranked(self, game, best)

    monkeypatch.setattr(SimulationBot, "_static_best", slow_first_read)
    bot = _hard(twl)
    bot.choose(g)
    two = generate(
        g.board, g.rack(0), twl, g.rules, bag_count=g.bag_count, best=2, leaves=resolve_leaves(None, twl.tiles)
    )
    assert bot.last_budget == pytest.approx(budget(Clock(2.0), 86, choices=2, margin=two[0].equity - two[1].equity))
