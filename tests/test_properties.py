"""Property tests over random seeded games played with random legal-ish actions
(lexicon=None, so any letters make words; challenges carry a random ruling).

Properties: tiles are conserved, scores add up, a refused action changes nothing,
the same seed and actions give the same game, undo steps back exactly, and GCG
write-then-read gives back the same game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexiko import gcg
from lexiko.errors import LexikoError
from lexiko.game import Accept, Action, Challenge, Game
from lexiko.move import Exchange, Pass, Place
from lexiko.rules import NINE_TILE, SUPER, TEAMS, Rules, family
from lexiko.tiles import BLANK

RULES = [
    Rules(challenge_rule="void"),
    Rules(),  # double challenge
    Rules(challenge_rule="single"),
    Rules(challenge_rule="five-point", end_rack_rule="double"),
    Rules(challenge_rule="ten-point"),
    Rules(challenge_rule="single", challenge_penalty_to="challenger"),
    family(2),
    Rules(challenge_rule="void", exchange_is_scoreless=False, scoreless_turn_limit=4),
    NINE_TILE.replace(challenge_rule="void"),
    SUPER.replace(challenge_rule="single"),
    TEAMS.replace(time_minutes=None, match_minutes=None),  # four players, two teams
    Rules(challenge_rule="single", time_minutes=2, max_overtime=1),  # clocks: thinking times are random
    Rules(challenge_rule="double", scoreless_turn_limit=4, scoreless_passes_only=True),  # German club ending
    Rules(challenge_rule="double", time_minutes=1, max_overtime=1, end_rack_rule="double"),  # challenges and clocks
]

Snap = Callable[[Game], dict[str, Any]]

PROFILE = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


@dataclass
class Played:
    game: Game
    actions: list[tuple[Action, int | None, float | None]] = field(default_factory=list)


def _anchors(g: Game) -> list[tuple[int, int]]:
    b = g.board
    n = b.size
    if b.is_empty:
        return [b.layout.start]
    out = []
    for r in range(n):
        for c in range(n):
            if b.tile_at(r, c):
                continue
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < n and 0 <= cc < n and b.tile_at(rr, cc):
                    out.append((r, c))
                    break
    return out


def random_place(g: Game, rnd: random.Random) -> Place | None:
    """A placement that is geometrically legal (or None when none was found)."""
    b = g.board
    n = b.size
    rack = list(g.rack())
    anchors = _anchors(g)
    if not rack or not anchors:
        return None
    letters = g.tiles.size
    lo = g.rules.first_play_min_tiles if b.is_empty else 1
    if len(rack) < lo:
        return None
    for _ in range(30):
        ar, ac = rnd.choice(anchors)
        down = rnd.random() < 0.5
        dr, dc = (1, 0) if down else (0, 1)
        k = rnd.randint(lo, min(len(rack), 7))
        tiles = [t if t else (rnd.randint(1, letters) | BLANK) for t in rnd.sample(rack, k)]
        back = rnd.randrange(k)
        r, c = ar, ac
        for _ in range(back):  # step back over empty squares so the anchor is inside
            if 0 <= r - dr and 0 <= c - dc and not b.tile_at(r - dr, c - dc):
                r, c = r - dr, c - dc
        start = (r, c)
        codes: list[int] = []
        covered = False
        i = 0
        while i < k and r < n and c < n:
            if b.tile_at(r, c):
                codes.append(0)
            else:
                codes.append(tiles[i])
                i += 1
                covered |= (r, c) == (ar, ac)
            r, c = r + dr, c + dc
        if i == k and covered:
            return Place(start[0], start[1], down, tuple(codes))
    return None


def random_invalid(g: Game, rnd: random.Random) -> tuple[Action, int | None]:
    """An action the game must refuse."""
    n = len(g.players)
    choice = rnd.randrange(6)
    rack = g.rack()
    if choice == 0:  # not this player's turn
        return Pass(), (g.player_on_turn + 1 + rnd.randrange(n - 1)) % n
    if choice == 1:  # tiles that are not on the rack
        missing = [c for c in range(1, g.tiles.size + 1) if c not in rack]
        place = random_place(g, rnd)
        if place is not None and missing:
            t = rnd.choice(missing)
            codes = list(place.tiles)
            j = next(i for i, x in enumerate(codes) if x)
            codes[j] = t
            return Place(place.row, place.col, place.down, tuple(codes)), None
        return Exchange((rnd.choice(missing) if missing else 1,) * 8), None
    if choice == 2:  # a placement touching nothing (or off the centre on the first play)
        b = g.board
        size = b.size
        for _ in range(50):
            r, c = rnd.randrange(size), rnd.randrange(size - 1)
            if b.is_empty and r == b.layout.start[0]:
                continue
            near = [
                (rr, cc)
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 3)
                if 0 <= rr < size and 0 <= cc < size and b.tile_at(rr, cc)
            ]
            if not near and rack:
                return Place(r, c, False, (rack[0] or (1 | BLANK), 1 | BLANK)), None
        return Exchange(()), None
    if choice == 3:  # a challenge of one's own play, or with nothing to challenge
        last = next((e for e in reversed(g.history) if e.kind == "play"), None)
        if g.awaiting_challenge and last is not None:
            return Challenge(ruling=True), last.player
        if g.awaiting_challenge or g.awaiting_final_challenge:
            return Pass(), (g.player_on_turn + 1) % n
        if g.history and g.history[-1].kind in ("play", "challenge-bonus", "challenge-penalty"):
            # the last play may stand after a failed free challenge: accepting it is fine
            return Challenge(ruling=True), None
        return (Challenge(ruling=True) if rnd.random() < 0.5 else Accept()), None
    if choice == 4:  # an exchange the bag cannot serve
        if g.bag_count < g.rules.exchange_min_bag and rack:
            return Exchange((rack[0],)), None
        return Exchange(()), None
    # a placement on an occupied square
    b = g.board
    occupied = [(r, c) for r in range(b.size) for c in range(b.size) if b.tile_at(r, c)]
    if occupied and rack:
        r, c = rnd.choice(occupied)
        return Place(r, c, rnd.random() < 0.5, (rack[0] or (1 | BLANK),)), None
    return Place(0, 0, False, ()), None


def new_game(seed: int, rules: Rules, players: int) -> Game:
    # a clock that never moves: time is spent only through ``elapsed``
    return Game([f"P{i + 1}" for i in range(players)], rules, seed=seed, lexicon=None, clock=lambda: 0.0)


def play_random_game(
    seed: int,
    choice_seed: int,
    rules: Rules,
    players: int,
    steps: int,
    check: Callable[[Game], None] | None = None,
    invalid_rate: float = 0.0,
    on_invalid: Callable[[Game, Action, int | None], None] | None = None,
) -> Played:
    rnd = random.Random(choice_seed)
    g = new_game(seed, rules, players)
    out = Played(g)

    def do(action: Action, player: int | None = None) -> None:
        elapsed = round(rnd.uniform(0, 40), 1) if rules.time_minutes else None
        g.apply(action, player=player, elapsed=elapsed)
        out.actions.append((action, player, elapsed))

    for _ in range(steps):
        if g.is_over:
            break
        if check is not None:
            check(g)
        if invalid_rate and rnd.random() < invalid_rate:
            action, player = random_invalid(g, rnd)
            if on_invalid is not None:
                on_invalid(g, action, player)
            continue
        if g.awaiting_final_challenge:
            do(Challenge(ruling=rnd.random() < 0.6) if rnd.random() < 0.5 else Accept())
            continue
        if g.awaiting_challenge and rnd.random() < 0.25:
            do(Challenge(ruling=rnd.random() < 0.5))
            continue
        x = rnd.random()
        if x < 0.8:
            place = random_place(g, rnd)
            if place is not None:
                do(place)
                continue
        rack = g.rack()
        if x < 0.9 and rack and g.can_exchange():
            k = rnd.randint(1, min(len(rack), g.bag_count))
            do(Exchange(tuple(rnd.sample(list(rack), k))))
            continue
        do(Pass())
    if check is not None:
        check(g)
    return out


@st.composite
def game_params(draw: st.DrawFn, rules: list[Rules] = RULES) -> dict[str, Any]:
    r = draw(st.sampled_from(rules))
    return {
        "seed": draw(st.integers(0, 2**32)),
        "choice_seed": draw(st.integers(0, 2**32)),
        "rules": r,
        "players": 4 if r.teams else draw(st.integers(2, 4)),
    }


games = game_params()
#: GCG records do not carry clocks (see test_gcg_keeps_a_game_lost_on_time)
games_without_clocks = game_params([r for r in RULES if r.time_minutes is None])


# -- the properties -----------------------------------------------------------------------


def tiles_conserved(g: Game) -> None:
    full = Counter(g.tiles.bag())
    seen: Counter[int] = Counter(g.board.played_tiles())
    for i in range(len(g.players)):
        seen.update(g.rack(i))
    bag: Counter[int] = Counter(g.unseen(0))
    for i in range(1, len(g.players)):
        bag.subtract(g.rack(i))
    assert min(bag.values(), default=0) >= 0
    assert sum(bag.values()) == g.bag_count
    assert seen + bag == full
    assert all(len(g.rack(i)) <= g.rules.rack_size for i in range(len(g.players)))


def scores_add_up(g: Game) -> None:
    totals = [0] * len(g.players)
    for ev in g.history:
        totals[ev.player] += ev.score
        assert ev.total == totals[ev.player]
    assert totals == g.scores


@pytest.mark.slow
@PROFILE
@given(games)
def test_tiles_are_conserved(p: dict[str, Any]) -> None:
    played = play_random_game(p["seed"], p["choice_seed"], p["rules"], p["players"], 40, check=tiles_conserved)
    assert played.actions


@pytest.mark.slow
@PROFILE
@given(games)
def test_scores_add_up(p: dict[str, Any]) -> None:
    g = play_random_game(p["seed"], p["choice_seed"], p["rules"], p["players"], 120, check=scores_add_up).game
    if g.is_over and g.end_reason == "out":
        out = [e for e in g.history if e.kind == "end-rack-bonus"]
        assert len(out) == 1


@pytest.mark.slow
@PROFILE
@given(games)
def test_refused_actions_change_nothing(snap: Snap, p: dict[str, Any]) -> None:
    refused = 0

    def try_invalid(g: Game, action: Action, player: int | None) -> None:
        nonlocal refused
        before = snap(g)
        board_before = g.board
        try:
            g.apply(action, player=player)
        except LexikoError:
            refused += 1
        else:  # pragma: no cover - the generator makes only refused actions
            raise AssertionError(f"{action!r} by {player} was accepted")
        assert snap(g) == before
        assert g.board is board_before

    play_random_game(
        p["seed"], p["choice_seed"], p["rules"], p["players"], 40, invalid_rate=0.3, on_invalid=try_invalid
    )
    assert refused > 0


@pytest.mark.slow
@PROFILE
@given(games)
def test_same_seed_and_actions_give_the_same_game(snap: Snap, p: dict[str, Any]) -> None:
    played = play_random_game(p["seed"], p["choice_seed"], p["rules"], p["players"], 40)
    g = new_game(p["seed"], p["rules"], p["players"])
    for action, player, elapsed in played.actions:
        g.apply(action, player=player, elapsed=elapsed)
    assert snap(g) == snap(played.game)


@pytest.mark.slow
@PROFILE
@given(games)
def test_undo_steps_back_exactly(snap: Snap, p: dict[str, Any]) -> None:
    states: list[dict[str, Any]] = []
    played = play_random_game(
        p["seed"], p["choice_seed"], p["rules"], p["players"], 30, check=lambda g: states.append(snap(g))
    )
    g = played.game
    # check() ran before each action and once at the end
    assert len(states) == len(played.actions) + 1
    for before in reversed(states[:-1]):
        g.undo()
        assert snap(g) == before


@pytest.mark.slow
@PROFILE
@given(games_without_clocks)
def test_gcg_write_then_read(p: dict[str, Any]) -> None:
    g = play_random_game(p["seed"], p["choice_seed"], p["rules"], p["players"], 120).game
    text = gcg.dumps(g)
    back = gcg.parse(text).replay()
    assert back.board.cells == g.board.cells
    assert back.scores == g.scores
    assert [e.score for e in back.history] == [e.score for e in g.history]
    assert [e.player for e in back.history] == [e.player for e in g.history]
    assert back.is_over == g.is_over
    assert back.end_reason == g.end_reason
    if not g.is_over:  # an unfinished game's record keeps every rack
        assert [back.rack(i) for i in range(len(g.players))] == [g.rack(i) for i in range(len(g.players))]


def test_gcg_keeps_a_game_lost_on_time() -> None:
    rules = Rules(challenge_rule="void", time_minutes=1, max_overtime=1)
    g = Game(["P1", "P2"], rules, seed=5, lexicon=None, first_player=0, clock=lambda: 0.0)
    g.pass_turn(elapsed=10)
    g.pass_turn(elapsed=10)
    g.pass_turn(elapsed=200)
    assert g.is_over and g.end_reason == "time"
    text = gcg.dumps(g)
    assert "#lexiko-end time P1" in text.splitlines()
    back = gcg.parse(text).replay()
    assert back.scores == g.scores == [-30, 0] and back.is_over and back.winners() == [1]


def test_gcg_keeps_a_finish_line_game_with_challenges() -> None:
    rules = Rules(challenge_rule="single", target_score=20)
    g = Game(["P1", "P2"], rules, seed=5, lexicon=None, first_player=0)
    g.set_rack(0, "AEFNSTX")
    g.play("8D FASTEN")  # 26: the target is reached, P2 may still challenge
    assert g.awaiting_final_challenge
    g.accept()
    assert g.is_over and g.end_reason == "target"
    back = gcg.parse(gcg.dumps(g)).replay()
    assert back.scores == g.scores
    assert back.is_over and back.end_reason == "target"
