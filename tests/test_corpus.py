"""The repository's own corpus: complete games lexiko's players made (tests/data/gcg/corpus,
written by lexiko and checked), so that replay is tested on every checkout, with or
without ../shared. Each replays with every score and running total exact, ends with
the record's totals, and writes back to the same text."""

from __future__ import annotations

from pathlib import Path

import pytest
from shared_paths import DATA

from lexiko import gcg

CORPUS = sorted((DATA / "gcg" / "corpus").glob("*.gcg"))

#: What each game shows, so that the corpus keeps covering these cases.
EXPECTED = {
    "five_point_challenge.gcg": ([494, 359], {"withdrawn", "end-rack-penalty"}),
    "greedy_vs_static.gcg": ([431, 351], {"end-rack-bonus"}),
    "phony_challenged_off.gcg": ([415, 490], {"withdrawn", "exchange"}),
    "single_challenge_single_end_rack.gcg": ([478, 330], {"withdrawn", "end-rack-penalty"}),
    "static_vs_greedy.gcg": ([499, 301], {"end-rack-bonus"}),
    "three_players.gcg": ([242, 242, 67], {"exchange", "end-rack-penalty"}),
}


def test_the_corpus_is_there() -> None:
    assert sorted(p.name for p in CORPUS) == sorted(EXPECTED)


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_a_game_of_the_corpus_replays_exactly(path: Path) -> None:
    record = gcg.read(path)
    game = record.replay()  # checks every rack, score and running total on the way
    scores, kinds = EXPECTED[path.name]
    assert game.is_over and game.end_reason == "out" and game.scores == scores
    last_total = {}
    for ev in record.events:
        last_total[ev.nick] = ev.total
    assert [last_total[p.nick] for p in record.players] == scores
    assert kinds <= {e.kind for e in game.history}
    assert any(c & 0x40 for c in game.board.cells)  # a blank was played
    assert gcg.dumps(game) == path.read_text(encoding="utf-8")
