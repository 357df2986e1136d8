"""Matches of several games: wins first, then the combined score (seed 000)."""

from __future__ import annotations

import pytest

from lexiko.errors import GameStateError
from lexiko.match import Match
from lexiko.rules import TEAMS, Rules

VOID = Rules(challenge_rule="void")


def _play(m: Match, racks: tuple[str, str], word: str, loser_on_time: int) -> None:
    g = m.next_game(lexicon=None)
    g.set_rack(g.player_on_turn, racks[g.player_on_turn])
    g.play(word)
    g.flag(loser_on_time)


def test_one_win_each_goes_to_the_combined_score() -> None:
    m = Match(["Ann", "Bob"], VOID, seed=1)
    _play(m, ("DINNVWY", "ABCDEFG"), "8D WINDY", loser_on_time=1)  # Ann starts, scores 32 and wins
    assert m.played[0].first_player == 0 and not m.is_over
    with pytest.raises(GameStateError, match="^the match is not over$"):
        m.winners()
    _play(m, ("ABCDEFG", "QAEIOUT"), "8F QAT", loser_on_time=0)  # Bob starts, scores 24, wins
    assert m.played[1].first_player == 1
    assert m.wins() == [1.0, 1.0] and m.totals() == [32, 24]
    assert m.winners() == [0]  # the combined score decides


def test_more_wins_decide_before_the_scores() -> None:
    m = Match(["Ann", "Bob"], VOID, games=3, seed=1)
    _play(m, ("DINNVWY", "ABCDEFG"), "8D WINDY", loser_on_time=0)  # Ann scores 32 but loses on time
    _play(m, ("ABCDEFG", "QAEIOUT"), "8F QAT", loser_on_time=0)
    _play(m, ("DINNVWY", "ABCDEFG"), "8D WINDY", loser_on_time=1)
    assert m.wins() == [1.0, 2.0] and m.totals() == [64, 24]
    assert m.winners() == [1]
    with pytest.raises(GameStateError, match="^the match is over: it has 3 games$"):
        m.next_game(lexicon=None)


def test_a_match_level_on_wins_and_score_is_a_draw() -> None:
    m = Match(["Ann", "Bob"], VOID, seed=1)
    for loser in (0, 1):
        g = m.next_game(lexicon=None)
        g.flag(loser)
    assert m.winners() == [0, 1]


def test_match_errors() -> None:
    with pytest.raises(GameStateError, match="^a match has at least one game$"):
        Match(["Ann", "Bob"], games=0)
    with pytest.raises(GameStateError, match="^team games are decided by team scores, not as a match$"):
        Match(["A", "B", "C", "D"], TEAMS)
    m = Match(["Ann", "Bob"], VOID, seed=1)
    m.next_game(lexicon=None)
    with pytest.raises(GameStateError, match="^the last game of the match is not over$"):
        m.next_game(lexicon=None)
