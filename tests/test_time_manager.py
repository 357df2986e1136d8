"""The time manager: a forced move gets nothing, a close decision more than a clear
one, the last seconds are never all spent, the end of the game keeps its reserve."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexiko.bots.time_manager import (
    MAX_SHARE,
    RESERVE_SHARE,
    SAFETY_SECONDS,
    Clock,
    budget,
    units_left,
    weight,
)
from lexiko.game import Game
from lexiko.rules import Rules


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
