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
        d.add_player(Player(f"P{i + 1}", max(0, 2000 - 10 * i)))
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


# -- Swiss, over simulated events


def matchable(players: list[int], allowed: object) -> bool:
    """Whether ``players`` can all be paired with pairs ``allowed(a, b)`` (brute force)."""
    if not players:
        return True
    a, rest = players[0], players[1:]
    return any(
        allowed(a, b) and matchable([p for p in rest if p != b], allowed)  # type: ignore[operator]
        for b in rest
    )


def before(d: Division, k: int) -> Division:
    """``d`` as it was before round ``k + 1`` was paired."""
    return Division(d.name, d.settings, list(d.players), d.rounds[:k])


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 12), rounds=st.integers(1, 12), seed=st.integers(0, 10**6))
def test_swiss_repeats_only_when_unavoidable(n: int, rounds: int, seed: int) -> None:
    d = division(n, "swiss")
    run(d, rounds, seed)
    for k, rnd in enumerate(d.rounds):
        recs = records(before(d, k))
        paired = [m for p in rnd.pairings if not p.is_bye for m in p.players]
        met = {(a, b) for a in recs for b in recs[a].opponents}
        if any((p.first, p.second) in met for p in rnd.pairings):
            # none of the 4 next in line for the bye (or nobody, in an even field) leaves
            # a pairing without a repeat
            everyone = [s.number for s in standings(before(d, k))]
            fewest = min(recs[m].byes for m in everyone)
            byes = [m for m in reversed(everyone) if recs[m].byes == fewest][:4] if n % 2 else [0]
            for bye in byes:
                rest = [m for m in everyone if m != bye]
                assert not matchable(rest, lambda a, b, met=met: (a, b) not in met), (k, bye)
            assert not matchable(paired, lambda a, b, met=met: (a, b) not in met), k


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 15), rounds=st.integers(1, 20), method=st.sampled_from(["swiss", "king-of-the-hill", "factor"]))
def test_byes_never_go_twice_to_one_player_while_another_has_none(n: int, rounds: int, method: str) -> None:
    d = division(n, method)
    run(d, rounds)
    for k in range(len(d.rounds)):
        byes = [records(before(d, k + 1))[m].byes for m in range(1, n + 1)]
        assert max(byes) - min(byes) <= 1
    if n % 2:
        # the bye goes to the lowest-ranked of those with the fewest
        k = len(d.rounds) - 1
        ranked = [s.number for s in standings(before(d, k))]
        fewest = min(records(before(d, k))[m].byes for m in ranked)
        bye = next(p.first for p in d.rounds[k].pairings if p.is_bye)
        due = [m for m in reversed(ranked) if records(before(d, k))[m].byes == fewest]
        # Swiss may pass it to the next in line to avoid a repeat
        assert bye == due[0] if method != "swiss" else bye in due[:4]


def test_swiss_pairs_the_top_half_of_a_score_group_with_the_bottom_half() -> None:
    d = division(8, "swiss")
    assert [p.players for p in pair(d).pairings] == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_the_bye_spread_is_set_by_the_division() -> None:
    d = division(3, "swiss", bye_spread=30)
    rnd = pair(d)
    assert rnd.pairings[0] == Pairing(3, None) and rnd.results[0] == Result(30, 0)


# -- the other methods


def test_king_of_the_hill_pairs_one_with_two() -> None:
    d = division(6, "king-of-the-hill")
    run(d, 1)
    ranked = [s.number for s in standings(d)]
    rnd = pair(d)
    assert sorted(tuple(sorted(p.players)) for p in rnd.pairings) == sorted(
        tuple(sorted(ranked[i : i + 2])) for i in (0, 2, 4)
    )


def test_factor_pairs_one_with_one_plus_the_factor() -> None:
    d = division(8, "factor", factor=3)
    run(d, 1)
    ranked = [s.number for s in standings(d)]
    got = {tuple(sorted(p.players)) for p in pair(d).pairings}
    want = {tuple(sorted((ranked[i], ranked[i + 3]))) for i in range(3)} | {tuple(sorted(ranked[6:8]))}
    assert got == want


def test_initial_fontes_plays_round_robins_within_rating_groups_first() -> None:
    d = division(8, "initial-fontes", fontes=3)
    run(d, 3)
    # two groups of 4 by rating, interleaved: 1, 3, 5, 7 and 2, 4, 6, 8
    assert Counter(games(d)) == {g: 1 for grp in ((1, 3, 5, 7), (2, 4, 6, 8)) for g in itertools.combinations(grp, 2)}
    run(d, 1)  # then Swiss
    assert len(set(games(d))) == 16


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 17, 22, 31])
def test_initial_fontes_balances_firsts_within_its_groups(n: int) -> None:
    d = division(n, "initial-fontes", fontes=3)
    run(d, 3)
    assert all(abs(r.balance) <= 1 for r in records(d).values())
    assert max(Counter(games(d)).values()) == 1


def test_initial_fontes_with_an_odd_field_gives_each_bye_once_in_its_group() -> None:
    d = division(7, "initial-fontes", fontes=3)
    run(d, 3)
    assert [records(d)[n].byes for n in range(1, 8)] == [0, 1, 0, 1, 0, 1, 0]


def test_elimination_reseeds_and_ends_with_one_winner() -> None:
    d = division(6, "elimination")
    rnd = pair(d)
    assert [p.players for p in rnd.pairings] == [(1,), (2,), (3, 6), (4, 5)]
    run(d, 0)
    play(d, random.Random(3))
    pair(d)
    play(d, random.Random(4))
    assert len(d.rounds[-1].pairings) == 2
    pair(d)
    play(d, random.Random(5))
    with pytest.raises(TournamentError, match=r"^the elimination is over: player \d \(P\d\) won$"):
        pair(d)


def test_team_round_robin_meets_every_player_of_each_other_team_once() -> None:
    d = Division("T", Settings(method="team-round-robin"))
    for team in "XYZ":
        for i in range(2):
            d.add_player(Player(f"{team}{i}", 1500 - i, team=team))
    run(d, 6)
    met = Counter(games(d))
    team = {n: d.players[n - 1].team for n in range(1, 7)}
    assert set(met.values()) == {1}
    assert all(team[a] != team[b] for a, b in met)
    assert len(met) == 12  # 3 meetings of 2 x 2
    assert all(r.byes == 2 for r in records(d).values())


@pytest.mark.parametrize("teams", range(2, 7))
@pytest.mark.parametrize("size", range(1, 5))
def test_team_round_robin_balances_firsts_and_meets_each_opponent_once(teams: int, size: int) -> None:
    d = Division("T", Settings(method="team-round-robin"))
    for t in range(teams):
        for i in range(size):
            d.add_player(Player(f"T{t}x{i}", 1500 - i, team=f"T{t}"))
    run(d, (teams - 1 + teams % 2) * size)
    met = Counter(games(d))
    assert set(met.values()) == {1} and len(met) == teams * (teams - 1) // 2 * size * size
    assert all(abs(r.balance) <= 1 for r in records(d).values())


def test_team_round_robin_needs_teams_of_one_size() -> None:
    d = Division("T", Settings(method="team-round-robin"))
    for name, team in [("A", "X"), ("B", "X"), ("C", "Y")]:
        d.add_player(Player(name, team=team))
    with pytest.raises(
        TournamentError, match=r"^the teams of a team round robin need as many players each \(X 2, Y 1\)$"
    ):
        pair(d)


def test_manual_pairings_are_checked() -> None:
    d = division(4, "manual")
    with pytest.raises(TournamentError, match="^manual pairing needs the pairings$"):
        pair(d)
    rnd = pair(d, manual=[Pairing(4, 1), Pairing(2, 3)])
    assert rnd.pairings == (Pairing(4, 1), Pairing(2, 3))


@pytest.mark.parametrize("prizes", [1, 2])
def test_gibsonization_pairs_the_clinched_leader_out_of_the_prizes(prizes: int) -> None:
    d = division(8, "swiss", rounds=4, gibson=True, prizes=prizes)
    for _ in range(3):
        pair(d)
        for p in d.rounds[-1].pairings:  # P1 wins each game; the others draw
            assert p.second is not None
            other = p.second if p.first == 1 else p.first
            d.record(len(d.rounds), p.first, 450 if p.first == 1 else 400, p.second, 450 if p.second == 1 else 400)
            assert other
    table = standings(d)
    assert (table[0].name, table[0].wins, table[1].wins) == ("P1", 3.0, 1.5)  # 1 round left: clinched
    ranked = [s.number for s in table[1:]]
    met = records(d)[1].opponents
    # one prize: everyone else is out of it, so the highest-ranked not met yet; two: nobody
    # is out of the second place (all within a win of 1.5), so the lowest-ranked
    want = next(n for n in ranked if n not in met) if prizes == 1 else ranked[-1]
    rnd = pair(d)
    assert next(p for p in rnd.pairings if 1 in p.players).players in ((1, want), (want, 1))


def test_a_lead_of_as_many_wins_as_rounds_left_is_not_clinched() -> None:
    d = division(6, "swiss", rounds=3, gibson=True)
    run(d, 2)
    table = standings(d)
    assert table[0].wins - table[1].wins <= 1
    plain = Division("A", Settings(method="swiss", rounds=3), list(d.players), list(d.rounds))
    assert pair(d) == pair(plain)


def test_swiss_passes_the_bye_to_the_next_in_line_to_avoid_a_repeat() -> None:
    d = division(9, "swiss")
    history = [
        [(9, None, 50, 0), (1, 5, 274, 520), (2, 6, 256, 528), (3, 7, 508, 448), (4, 8, 458, 549)],
        [(2, None, 50, 0), (6, 3, 521, 447), (5, 9, 528, 473), (8, 1, 510, 385), (7, 4, 447, 396)],
        [(1, None, 50, 0), (6, 5, 472, 545), (9, 8, 490, 516), (7, 2, 369, 354), (3, 4, 264, 279)],
        [(4, None, 50, 0), (5, 7, 510, 408), (8, 6, 358, 373), (2, 3, 384, 490), (1, 9, 319, 321)],
        [(7, None, 50, 0), (5, 8, 375, 337), (9, 6, 512, 378), (3, 1, 448, 265), (4, 2, 535, 296)],
        [(6, None, 50, 0), (4, 5, 336, 253), (9, 3, 375, 251), (8, 7, 496, 294), (1, 2, 298, 521)],
    ]
    for r, games_ in enumerate(history, 1):
        d.add_round([Pairing(a, b) for a, b, _, _ in games_])
        for a, b, sa, sb in games_:
            if b is not None:
                d.record(r, a, sa, b, sb)
    recs = records(d)
    ranked = [s.number for s in standings(d)]
    due = [m for m in reversed(ranked) if recs[m].byes == 0]
    assert due == [3, 8, 5]  # 3 is first in line, but the other eight cannot all meet someone new
    met = {(a, b) for a in recs for b in recs[a].opponents}
    assert not matchable([m for m in ranked if m != 3], lambda a, b: (a, b) not in met)
    rnd = pair(d)
    assert rnd.pairings[0] == Pairing(8, None)
    assert not any((p.first, p.second) in met for p in rnd.pairings)
