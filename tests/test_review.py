"""The game review by simulation (`lexiko.review`): verdicts, accuracy, the endgame
solved exactly, withdrawn plays, progress, and the same answer on any number of workers.
Small seeded depths: the work is bounded by play-out counts, so the values are exact."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from shared_paths import SHARED, needs_shared

from lexiko import gcg
from lexiko.errors import LexikoError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.review import Line, ReviewDepth, review_game

JOSH = SHARED / "gcg" / "liwords__vs_josh.gcg"
SMALL = ReviewDepth(candidates=4, iterations=20, seed=3)


@needs_shared
@pytest.mark.slow
def test_review_of_a_game_with_a_withdrawn_phony(twl06: Lexicon) -> None:
    seen: list[tuple[str, int, int]] = []
    r = review_game(gcg.load(JOSH), twl06, SMALL, progress=lambda *a: seen.append(a))
    assert repr(r) == "GameReview(players=('cesar', 'josh'), turns=23, accuracy=(81.6, 87.1))"
    assert seen[0] == ("turns", 0, 23) and seen[-1] == ("turns", 23, 23) and len(seen) == 24
    assert [t.verdict for t in r.turns] == (
        ["best", "inaccuracy", "mistake", "best", "blunder", "best", "good", "best", "best", "best", "inaccuracy"]
        + ["best", "best", "blunder", "best", "best", "inaccuracy", "best", "good", "inaccuracy", "best", "best"]
        + ["best"]
    )
    # MAZEY was challenged off: what it came to is a pass, against 58 for MAIZE
    phony = r.turns[4]
    assert phony.withdrawn and not phony.valid and phony.rank == 5 and phony.scores == (110, 164) and phony.bag == 62
    assert phony.top[0] == Line("H11 MAIZE", 58, "PY", 58.83, 54.384, 0.5029, 20)
    assert phony.played == Line("H11 MAZEY (withdrawn)", 0, "AEIMPYZ", 6.813, 11.338, 0.2248, 20)
    assert (phony.value_lost, phony.win_lost, phony.accuracy) == (43.046, 0.2781, 15.7)
    # the last move, with the bag empty, is solved: VULPINE goes out, 82 and twice EAT
    last = r.turns[-1]
    assert (last.method, last.exact, last.rank) == ("endgame", True, 1)
    assert last.top == (Line("2B VULPINE", 82, "", 98.0, 98.0, 1.0, 0),)
    cesar, josh = r.summaries
    assert (cesar.moves, cesar.best, cesar.good, cesar.inaccuracies, cesar.mistakes, cesar.blunders) == (
        12,
        6,
        2,
        2,
        1,
        1,
    )
    assert (cesar.value_lost, cesar.accuracy) == (125.51, 81.6)
    assert (josh.moves, josh.best, josh.blunders, josh.accuracy) == (11, 8, 1, 87.1)
    assert [t.turn for t in r.mistakes(1)] == [2, 14, 20]


def test_an_endgame_move_is_weighed_exactly(twl06: Lexicon, endgame_factory: Callable[..., Game]) -> None:
    g = endgame_factory(["GOAD", "QUIZ"], scores=(300, 310), lexicon=twl06)
    g.play("K10 GO(X)")
    (t,) = review_game(g, twl06, SMALL).turns
    assert (t.method, t.exact, t.scores, t.bag) == ("endgame", True, (300, 310), 0)
    # DAGO goes out at once: 13 and twice QUIZ (22); GO(X) scores 22 and lets QUIZ play
    assert t.top == (
        Line("7A DAGO", 13, "", 57.0, 57.0, 1.0, 0),
        Line("K10 GO(X)", 22, "AD", 6.0, -4.0, 0.0, 0),
    )
    assert (t.rank, t.value_lost, t.win_lost, t.verdict, t.accuracy) == (2, 61.0, 1.0, "blunder", 0.1)


@needs_shared
@pytest.mark.slow
def test_the_same_review_on_two_workers(twl06: Lexicon) -> None:
    game = gcg.load(JOSH)
    assert review_game(game, twl06, SMALL, jobs=2) == review_game(game, twl06, SMALL)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"iterations": 0}, "iterations must be a whole number of at least 1, not 0"),
        ({"candidates": 2.5}, "candidates must be a whole number of at least 1, not 2.5"),
        ({"finish": -1}, "finish must be a whole number of at least 0, not -1"),
        ({"endgame_time": 0}, "endgame_time must be more than 0 seconds, not 0"),
    ],
)
def test_a_depth_is_checked(kw: dict[str, object], message: str) -> None:
    with pytest.raises(LexikoError) as e:
        ReviewDepth(**kw)  # type: ignore[arg-type]
    assert str(e.value) == message


def test_a_phony_that_stood_is_weighed_and_marked(twl06: Lexicon, game_factory: Callable[..., Game]) -> None:
    g = game_factory(["QIAELNT", "AEINRST"], lexicon=None, seed=3)  # nobody judges the words
    g.play("8D QANLIT")
    g.pass_turn()
    phony, passed = review_game(g, twl06, SMALL).turns
    # QANLIT is no word, but it stood: 50 points the opponent let through
    assert (phony.played.move, phony.played.score, phony.valid, phony.withdrawn) == ("8D QANLIT", 50, False, False)
    assert phony.played.iterations == 20 and phony.rank is not None
    assert passed.valid and passed.played.move == "-" and passed.verdict == "blunder"
