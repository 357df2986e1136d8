"""Tournament files (the JSON event file, TSH's .t files), rating estimates and duplicate
festivals."""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexiko.tournament import Division, Event, Pairing, Player, Round, Settings, TournamentError, pair
from lexiko.tournament.festival import Festival
from lexiko.tournament.files import division_from_tsh, division_to_tsh, event_from_json, event_to_json
from lexiko.tournament.ratings import elo, glicko2


def simulated(n: int, rounds: int, seed: int, method: str = "swiss") -> Division:
    rng = random.Random(seed)
    d = Division("A", Settings(method=method, rounds=rounds + 2, bye_spread=rng.choice([0, 50])))
    for i in range(n):
        d.add_player(Player(f"Player, {chr(65 + i % 26)}{i}", rng.choice([0, rng.randint(500, 2200)])))
    for r in range(rounds):
        if r == rounds // 2 and n > 3:
            d.add_player(Player("Late, Entry", 1200))
            d.withdraw(1)
        pair(d)
        for p, res in zip(d.rounds[-1].pairings, d.rounds[-1].results, strict=True):
            if res is None and p.second is not None:
                d.record(r + 1, p.first, rng.randint(200, 600), p.second, rng.randint(200, 600))
    pair(d)  # a round paired, not played
    if d.rounds[-1].pairings[-1].second is not None:
        last = d.rounds[-1].pairings[-1]
        d.record(rounds + 1, last.first, 400, last.second, 399)
    return d


def normalised(d: Division) -> Division:
    """``d`` with each round's pairings in the order a TSH file gives them."""
    rounds = []
    for rnd in d.rounds:
        both = sorted(zip(rnd.pairings, rnd.results, strict=True), key=lambda pr: min(pr[0].players))
        rounds.append(Round(tuple(p for p, _ in both), tuple(r for _, r in both)))
    return Division(d.name, d.settings, list(d.players), rounds)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 12), rounds=st.integers(0, 6), seed=st.integers(0, 10**6))
def test_an_event_file_reads_back_exactly(n: int, rounds: int, seed: int) -> None:
    e = Event("Club \u00e9t\u00e9", [simulated(n, rounds, seed), Division("B", Settings(method="king-of-the-hill"))])
    text = event_to_json(e)
    assert event_from_json(text) == e
    assert event_to_json(event_from_json(text)) == text


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 12), rounds=st.integers(0, 6), seed=st.integers(0, 10**6))
def test_a_tsh_file_reads_back_exactly(n: int, rounds: int, seed: int) -> None:
    d = simulated(n, rounds, seed)
    back = division_from_tsh(division_to_tsh(d), "A", d.settings)
    assert back == normalised(d)
    assert division_to_tsh(back) == division_to_tsh(d)


def test_a_tsh_file_is_one_player_a_line() -> None:
    d = Division("A")
    for name, rating, team in [("Lee, Ann", 1800, "North"), ("Ng, Bo", 1700, ""), ("Ortiz, Cy", 0, "")]:
        d.add_player(Player(name, rating, team))
    d.add_round([Pairing(2, 1), Pairing(3, None)])
    d.record(1, 1, 420, 2, 380)
    d.add_round([Pairing(1, 3), Pairing(2, None)])
    d.withdraw(2)
    assert division_to_tsh(d) == (
        "Lee, Ann 1800 2 3; 420; p12 2 1; team North\nNg, Bo 1700 1 0; 380 50; p12 1 0; off 1\nOrtiz, Cy 0 0 1; 50; p12 0 2\n"
    )


def test_a_tsh_file_without_p12_puts_the_lower_number_first() -> None:
    d = division_from_tsh("Lee, Ann 1800 2; 420\nNg, Bo 1700 1; 380\n", "A")
    assert d.rounds == [Round((Pairing(1, 2),), (d.rounds[0].results[0],))]
    assert d.rounds[0].results[0] is not None and d.rounds[0].results[0].spread == 40


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not an event file: not JSON (Expecting value: line 1 column 1 (char 0))"),
        ("[1, 2]", "not an event file: the file has no 'format'"),
        ('{"format": "gcg"}', "not an event file: its format is 'gcg', not 'lexiko-tournament'"),
        (
            '{"format": "lexiko-tournament", "version": 9}',
            "event file version 9 is not known (this lexiko reads version 1)",
        ),
        (
            '{"format": "lexiko-tournament", "version": 1, "name": "x", "divisions": [{"name": "A", "settings": {"colour": 1}}]}',
            "not an event file: division 1 has unknown settings colour",
        ),
        (
            '{"format": "lexiko-tournament", "version": 1, "name": "x", "divisions": [{"name": "A", "settings": {}, '
            '"players": [{"name": "Ann", "rating": 1, "team": "", "withdrawn": false}], "rounds": [[{"first": 1, "second": 2}]]}]}',
            "not an event file: division 1, round 1 pairs player 2, who is not in the division",
        ),
    ],
)
def test_a_file_that_is_not_an_event_is_refused(text: str, message: str) -> None:
    with pytest.raises(TournamentError) as e:
        event_from_json(text)
    assert str(e.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "Lee, Ann 1800 2; 420\nNg, Bo 1700 3; 380\nOrtiz, Cy 0 2; 0\n",
            "line 1: player 1 (Lee, Ann) meets player 2 in round 1, who meets player 3",
        ),
        ("Lee, Ann\n", "line 1: not a TSH player line (name, rating, opponents): 'Lee, Ann'"),
        ("Lee, Ann 1800 2; 420 400\n", "line 1: 2 scores for 1 rounds"),
        ("Lee, Ann 1800 2; 420\nNg, Bo 1700 1;\n", "line 1: round 1 has a score for one player of a game only"),
        ("Lee, Ann 1800 2; x\n", "line 1: the scores are not whole numbers: 'x'"),
    ],
)
def test_a_bad_tsh_file_is_refused(text: str, message: str) -> None:
    with pytest.raises(TournamentError) as e:
        division_from_tsh(text, "A")
    assert str(e.value) == message


def test_a_name_with_a_number_cannot_go_in_a_tsh_file() -> None:
    d = Division("A")
    d.add_player(Player("Player 2", 1500))
    with pytest.raises(
        TournamentError, match=r"^a TSH file cannot hold the name 'Player 2' \(a word that is a number, or ;\)$"
    ):
        division_to_tsh(d)


def test_elo_and_glicko2_move_ratings_toward_the_results() -> None:
    d = simulated(10, 6, 3)
    for estimates in (elo(d), glicko2(d)):
        assert [e.number for e in estimates] == list(range(1, 12))
        assert all(e.games <= 7 for e in estimates)
    e = {x.name: x for x in elo(Division("A"))}
    assert e == {}


def test_glicko2_without_its_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "glicko2", None)
    with pytest.raises(
        TournamentError,
        match=r"^Glicko-2 estimates need the glicko2 package: pip install 'lexiko\[tournament\]' \(or use Elo\)$",
    ):
        glicko2(Division("A"))


def test_a_festival_ranks_by_total_and_by_percentage_of_the_top() -> None:
    f = Festival("Summer")
    f.add_game(tops=1000, scores={"Ann": 950, "Bo": 900})
    f.add_game(tops=900, scores={"Ann": 850, "Bo": 900, "Cy": 900})
    assert [(x.rank, x.name, x.total, x.percent) for x in f.by_total()] == [
        (1, "Ann", 1800, 94.74),
        (1, "Bo", 1800, 94.74),
        (3, "Cy", 900, 100.0),
    ]
    assert [(x.rank, x.name) for x in f.by_percent()] == [(1, "Cy"), (2, "Ann"), (2, "Bo")]
    with pytest.raises(TournamentError, match=r"^Ann's score 901 is not between 0 and the top, 900$"):
        f.add_game(tops=900, scores={"Ann": 901})
    assert f.tops == [1000, 900]


def test_blank_lines_of_a_tsh_file_hold_no_player() -> None:
    d = division_from_tsh("Lee, Ann 1800 2; 420\n\nNg, Bo 1700 1; 380\r\n", "A")
    assert [p.name for p in d.players] == ["Lee, Ann", "Ng, Bo"]
    with pytest.raises(
        TournamentError, match=r"^line 3: player 2 \(Ng, Bo\) meets player 1 in round 1, who meets player 3$"
    ):
        division_from_tsh("Lee, Ann 1800 3; 420\n\nNg, Bo 1700 1; 380\nOrtiz, Cy 0 1; 0\n", "A")
