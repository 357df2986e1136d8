"""The tournament library: the model's checks, round robin, Swiss and the other pairing
methods, standings, over hand-made and simulated events."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexiko.errors import LexikoError
from lexiko.tournament import (
    Division,
    Event,
    Pairing,
    Player,
    Result,
    Settings,
    TournamentError,
    pair,
    records,
    standings,
)


def division(n: int, method: str = "swiss", **kw: int | bool) -> Division:
    d = Division("A", Settings(method=method, **kw))  # type: ignore[arg-type]
    for i in range(n):
        d.add_player(Player(f"P{i + 1}", 2000 - 10 * i))
    return d


def play(d: Division, rng: random.Random) -> None:
    """Enter a random result for each game of the last round."""
    number = len(d.rounds)
    for p, r in zip(d.rounds[-1].pairings, d.rounds[-1].results, strict=True):
        if r is None and p.second is not None:
            d.record(number, p.first, rng.randint(250, 550), p.second, rng.randint(250, 550))


def run(d: Division, rounds: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(rounds):
        pair(d)
        play(d, rng)


def games(d: Division) -> list[tuple[int, int]]:
    return [tuple(sorted(p.players)) for r in d.rounds for p in r.pairings if not p.is_bye]  # type: ignore[misc]


# -- the model


def test_a_division_names_its_players_and_rounds() -> None:
    d = division(3)
    assert repr(d) == "Division('A', swiss, 3 players, 0 rounds)"
    assert d.players[0] == Player("P1", 2000)
    assert (
        repr(Player("Ann", 1800, team="North", withdrawn=True)) == "Player('Ann', 1800, team='North', withdrawn=True)"
    )
    assert d.find("p2") == 2 and d.find("3") == 3


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda d: d.record(1, 1, 400, 3, 300), "round 1 has no game between player 1 (P1) and player 3 (P3)"),
        (lambda d: d.record(2, 1, 400, 2, 300), "division A has no round 2 (rounds 1 to 1 are paired)"),
        (lambda d: d.record(1, 1, 400, 9, 300), "division A has no player 9 (players are 1 to 4)"),
        (lambda d: d.record(1, 1, 3000, 2, 300), "a score is a whole number from -1000 to 2000, not 3000"),
        (lambda d: d.record_spread(1, 1, 2, 400, 300, 90), "the scores 400-300 make a spread of 100, not 90"),
        (
            lambda d: pair(d),
            "round 1 of division A is not complete (2 results missing): enter them before pairing round 2",
        ),
        (
            lambda d: d.withdraw(2),
            "player 2 (P2) has a game in round 1 without a result: enter its result (or a forfeit) first",
        ),
        (lambda d: d.add_player(Player("p1")), "division A already has a player named 'p1'"),
        (lambda d: d.find("Zed"), "division A has no player named 'Zed'"),
        (lambda d: Player(" "), "a player needs a name"),
        (
            lambda d: Settings(method="chess"),
            "no pairing method 'chess' (round-robin, double-round-robin, swiss, king-of-the-hill, initial-fontes, factor, elimination, team-round-robin, manual)",
        ),
        (
            lambda d: d.add_round([Pairing(1, 2)]),
            "round 1 of division A is not complete (2 results missing): enter them before pairing round 2",
        ),
    ],
)
def test_bad_input_gets_a_clear_message_and_changes_nothing(action: object, message: str) -> None:
    d = division(4)
    d.add_round([Pairing(1, 2), Pairing(3, 4)])
    before = repr(d.rounds), list(d.players)
    with pytest.raises(TournamentError) as e:
        action(d)  # type: ignore[operator]
    assert str(e.value) == message
    assert isinstance(e.value, LexikoError)
    assert (repr(d.rounds), list(d.players)) == before


def test_a_result_entered_twice_is_refused_unless_corrected() -> None:
    d = division(2)
    d.add_round([Pairing(1, 2)])
    d.record(1, 2, 380, 1, 420)
    assert d.rounds[0].results == (Result(420, 380),)
    with pytest.raises(
        TournamentError,
        match=r"^round 1: the game between player 1 \(P1\) and player 2 \(P2\) already has a result \(420-380\); correct it to change it$",
    ):
        d.record(1, 1, 400, 2, 300)
    d.record(1, 1, 400, 2, 300, correct=True)
    assert d.rounds[0].results == (Result(400, 300),)


def test_pairings_must_take_each_active_player_once() -> None:
    d = division(4)
    with pytest.raises(TournamentError, match=r"^player 1 \(P1\) is paired twice in one round$"):
        d.add_round([Pairing(1, 2), Pairing(1, 3)])
    with pytest.raises(TournamentError, match=r"^player 3 \(P3\), player 4 \(P4\) not paired$"):
        d.add_round([Pairing(1, 2)])
    assert d.rounds == []


def test_a_late_entry_gets_missed_rounds_and_a_withdrawn_player_is_not_paired() -> None:
    d = division(4, rounds=4)
    run(d, 2)
    assert d.add_player(Player("Late", 1500)) == 5
    assert [r.pairings[-1] for r in d.rounds] == [Pairing(5, None), Pairing(5, None)]
    assert [r.results[-1] for r in d.rounds] == [Result(-50, 0), Result(-50, 0)]
    rec = records(d)[5]
    assert (rec.wins, rec.losses, rec.spread) == (0.0, 2.0, -100)
    d.withdraw(2)
    rnd = pair(d)
    assert all(2 not in p.players for p in rnd.pairings)
    assert sorted(n for p in rnd.pairings for n in p.players) == [1, 3, 4, 5]


def test_a_forfeit_gives_the_opponent_the_bye_spread() -> None:
    d = division(2)
    d.add_round([Pairing(1, 2)])
    d.forfeit(1, 1)
    assert d.rounds[0].results == (Result(0, 50),)
    assert [(s.name, s.wins, s.spread) for s in standings(d)] == [("P2", 1.0, 50), ("P1", 0.0, -50)]


def test_an_event_finds_its_divisions() -> None:
    e = Event("Club")
    e.add_division(Division("A"))
    e.add_division(Division("B"))
    assert e.division("b").name == "B"
    with pytest.raises(TournamentError, match=r"^event 'Club' has 2 divisions \(A, B\): name one$"):
        e.division()
    with pytest.raises(TournamentError, match=r"^event 'Club' already has a division 'a'$"):
        e.add_division(Division("a"))


# -- round robin


@pytest.mark.parametrize("n", range(2, 14))
@pytest.mark.parametrize("double", [False, True])
def test_round_robin_meets_everyone_once_or_twice_and_balances_firsts(n: int, double: bool) -> None:
    d = division(n, "double-round-robin" if double else "round-robin")
    cycles = 2 if double else 1
    rounds = (n - 1 + n % 2) * cycles
    run(d, rounds)
    met = Counter(games(d))
    assert met == {pair: cycles for pair in itertools.combinations(range(1, n + 1), 2)}
    for rec in records(d).values():
        assert abs(rec.balance) <= (0 if double else 1)
        assert rec.byes == (n % 2) * cycles


def test_a_round_robin_gives_a_withdrawn_players_opponent_a_bye() -> None:
    d = division(4, "round-robin")
    run(d, 1)
    d.withdraw(4)
    rnd = pair(d)
    assert sum(p.is_bye for p in rnd.pairings) == 1
    assert all(4 not in p.players for p in rnd.pairings)


# -- standings


def recomputed(d: Division) -> list[tuple[str, float, int]]:
    """The standings from the raw results, computed another way."""
    wins: Counter[int] = Counter()
    spread: Counter[int] = Counter()
    points: Counter[int] = Counter()
    for rnd in d.rounds:
        for p, r in zip(rnd.pairings, rnd.results, strict=True):
            assert r is not None
            if p.second is None:
                wins[p.first] += 2 if r.first >= 0 else 0
                spread[p.first] += r.first
                continue
            wins[p.first] += 2 if r.first > r.second else 1 if r.first == r.second else 0
            wins[p.second] += 2 if r.second > r.first else 1 if r.first == r.second else 0
            spread[p.first] += r.first - r.second
            spread[p.second] += r.second - r.first
            points[p.first] += r.first
            points[p.second] += r.second
    order = sorted(
        range(1, len(d.players) + 1),
        key=lambda n: (-wins[n], -spread[n], -points[n], -d.players[n - 1].rating, n),
    )
    return [(d.players[n - 1].name, wins[n] / 2, spread[n]) for n in order]


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 11), rounds=st.integers(1, 8), seed=st.integers(0, 10**6))
def test_standings_equal_a_recomputation_from_the_raw_results(n: int, rounds: int, seed: int) -> None:
    d = division(n, "swiss")
    run(d, rounds, seed)
    assert [(s.name, s.wins, s.spread) for s in standings(d)] == recomputed(d)
    assert [s.rank for s in standings(d)] == list(range(1, n + 1))
