"""Shared fixtures and helpers for the rules-engine tests.

Helpers are plain functions exposed as session-scoped fixtures (so that hypothesis
tests may use them too): ``make_game``, ``make_endgame``, ``snapshot``.

The web tests' fixtures: ``server``, the app on a SQLite file with the clients a test
opens (``webharness.Server``; a module overrides ``app_options`` to give ``create_app``
options), and ``pg_url``, one PostgreSQL for the session (``webharness.test_postgres``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from webharness import Server, test_postgres

from lexiko.board import Board
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import parse_move
from lexiko.rules import Rules
from lexiko.tiles import BLANK, ENGLISH

# Two conftest.py files (here and in browser/) are both modules named "conftest": with
# --doctest-modules pytest would import them again as test modules and stop on the
# name clash. They hold no doctests.
collect_ignore = ["conftest.py", "browser/conftest.py"]


@pytest.fixture(scope="session")
def twl06() -> Lexicon:
    """The TWL06 word list (compiled once, cached on disk)."""
    return Lexicon.load("TWL06")


class FakeClock:
    """A clock a test moves by hand: ``clock.advance(30)`` spends 30 seconds."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_game(
    racks: Sequence[str | None] = (),
    rules: Rules | None = None,
    *,
    players: int | Sequence[str] = 2,
    seed: int = 1,
    lexicon: Any = None,
    first_player: int = 0,
    clock: Callable[[], float] | None = None,
) -> Game:
    """A dealt game with the draw for first play skipped, then the given racks set
    (``None`` keeps the dealt rack)."""
    names = [f"P{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
    kw: dict[str, Any] = {"seed": seed, "lexicon": lexicon, "first_player": first_player}
    if clock is not None:
        kw["clock"] = clock
    g = Game(names, rules, **kw)
    for i, rack in enumerate(racks):
        if rack is not None:
            g.set_rack(i, rack)
    return g


# Rows of the standard board the end-game helper fills with the tiles nobody holds:
# far from row 8 so that plays near the centre never touch them.
_FILLER_ROWS = (0, 1, 2, 3, 4, 11, 12, 13, 14)


def make_endgame(
    racks: Sequence[str],
    *,
    bag: str = "",
    rules: Rules | None = None,
    scores: Sequence[int] | None = None,
    words: Sequence[str] = ("8D WINDY",),
    turn: int = 0,
    seed: int = 1,
    lexicon: Any = None,
) -> Game:
    """A game late on: ``words`` are played around the centre, the racks are exactly
    ``racks``, the bag holds exactly ``bag`` (drawn in that order) and every other tile
    sits in rows 1-5 and 12-15 (blanks there as ``e``)."""
    board = Board.empty()
    for w in words:
        board = board.place(parse_move(w, ENGLISH, board))
    used: Counter[int] = Counter(board.played_tiles())
    for r in racks:
        used.update(ENGLISH.parse(r))
    used.update(ENGLISH.parse(bag))
    full = Counter(ENGLISH.bag())
    assert not used - full, f"more tiles than the set holds: {used - full}"
    filler = sorted((full - used).elements())
    slots = [r * 15 + c for r in _FILLER_ROWS for c in range(15)]
    assert len(filler) <= len(slots)
    cells = bytearray(board.cells)
    for code, i in zip(filler, slots, strict=False):
        cells[i] = code if code else (ENGLISH.code("E") | BLANK)
    g = Game.from_position(
        Board(bytes(cells)),
        [ENGLISH.parse(r) for r in racks],
        scores,
        rules=rules,
        turn=turn,
        seed=seed,
        lexicon=lexicon,
    )
    assert g.bag_count == len(ENGLISH.parse(bag))
    if bag:
        g.set_next_draws(ENGLISH.parse(bag))
    return g


def snapshot(g: Game) -> dict[str, Any]:
    """Everything observable about a game, to compare before and after an action."""
    n = len(g.players)
    return {
        "board": g.board.cells,
        "racks": [g.rack(i) for i in range(n)],
        "bag": g.bag_count,
        "unseen": [g.unseen(i) for i in range(n)],
        "scores": g.scores,
        "history": g.history,
        "turn": g.player_on_turn,
        "scoreless": g.scoreless_turns,
        "over": g.is_over,
        "end_reason": g.end_reason,
        "awaiting_challenge": g.awaiting_challenge,
        "phonies": g.phonies,
        "exchanges": g.exchanges_made,
        "time_left": [g.time_left(i) for i in range(n)],
    }


@pytest.fixture(scope="session")
def game_factory() -> Callable[..., Game]:
    return make_game


@pytest.fixture(scope="session")
def endgame_factory() -> Callable[..., Game]:
    return make_endgame


@pytest.fixture(scope="session")
def snap() -> Callable[[Game], dict[str, Any]]:
    return snapshot


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app_options() -> dict[str, Any]:
    """``create_app``'s options for the ``server`` fixture: none; a test module overrides it."""
    return {}


@pytest.fixture
def server(tmp_path: Path, app_options: dict[str, Any]) -> Iterator[Server]:
    """The web app on a SQLite file of the test's own, with an HTTP client; closed after."""
    with Server(f"sqlite:///{tmp_path / 'games.db'}", **app_options) as s:
        yield s


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str | None]:
    """A PostgreSQL URL (``LEXIKO_TEST_POSTGRES_URL``, else a throwaway server when the
    Debian package is installed), or None."""
    with test_postgres() as url:
        yield url
