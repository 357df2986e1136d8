"""How long a computer player thinks on a move of a game with a clock.

`budget` takes the seconds left on the player's clock, the increment the rules give
back after each move, the tiles in the bag and what the position says (how many
choices there are, the static equity margin of the best over the second, the score)
and returns the seconds to spend on this move. It is pure arithmetic: the player
measures the clock (`Clock.of`), the search keeps to the budget.

The formula, every constant named in this module:

1. **What may be spent.** ``now = left * (1 - RESERVE_SHARE) - SAFETY_SECONDS``: a
   share and a few tenths of a second are never planned on, for what a search
   overruns and what the machine delays. With nothing left (in overtime too) the
   move is made at once: overtime is a safety net, not time to plan on.
2. **Shared over the moves to come.** Each of the player's moves weighs by the tiles
   in the bag when it is made (`weight`): 1 in the mid-game, `LATE_WEIGHT` with 2
   to `LATE_BAG` tiles (the play-outs to the end), `PREENDGAME_WEIGHT` with one
   (the pre-endgame: every last tile, each endgame solved), `ENDGAME_WEIGHT` for the
   endgame (its first search finds the line; the later moves are quick).
   `units_left` sums the weights of this move and of those to come, as many as
   `moves_left` expects (a pre-endgame only `PREENDGAME_CHANCE` of the time): the
   weights of the last phases are the endgame's reserve. This move's plain share is
   ``(now + increment * moves_left) * weight / units_left``.
3. **How hard the decision is.** The share times `closeness` of the static equity
   margin (a close decision gets up to `CLOSE_FACTOR` times its share, a clear best
   down to `CLEAR_FACTOR`), times `contest` of the score (a game already decided
   by more than the tiles left can turn gets down to `DECIDED_FACTOR`).
4. **Never more than a safe fraction**: at most `MAX_SHARE` of ``now + increment``
   (the increment comes back once the move is made).
5. **A forced move** (one legal choice) gets 0. A budget under `QUICK_SECONDS` is not
   worth a search: the player makes its best move by static equity.

Time a move does not use stays on the clock for the later ones: every move plans
again from what is left.

>>> round(budget(Clock(1500.0), 86), 1)   # the first move of a 25-minute game
90.4
>>> round(budget(Clock(1500.0), 86, margin=0.0), 1), round(budget(Clock(1500.0), 86, margin=40.0), 1)
(135.7, 20.2)
>>> budget(Clock(1500.0), 86, choices=1)   # a forced move
0.0
>>> round(budget(Clock(20.0), 1), 2)   # a pre-endgame with 20 s left: at most 40% of it
7.4
>>> budget(Clock(-3.0), 40)   # in overtime: move at once
0.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lexiko.game import Game

__all__ = [
    "Clock",
    "budget",
    "weight",
    "moves_left",
    "units_left",
    "closeness",
    "contest",
    "QUICK_SECONDS",
    "SAFETY_SECONDS",
    "RESERVE_SHARE",
    "MAX_SHARE",
]

SAFETY_SECONDS = 0.5
"""Seconds never planned on: a search overruns its budget a little, the machine may
be busy, and the move must still reach the game."""

RESERVE_SHARE = 0.05
"""Share of the time left never planned on (for the same reasons, on a long clock)."""

MAX_SHARE = 0.4
"""The most of what may be spent now that one move takes, however the plan shares it."""

QUICK_SECONDS = 0.05
"""A budget below this is not worth a search: the move of best static equity is made."""

LATE_BAG = 7
"""The most tiles in the bag of a late move (the simulation's play-outs go to the end)."""

LATE_WEIGHT = 1.5
"""Weight of a late move (2 to `LATE_BAG` tiles in the bag) against a mid-game move's 1."""

PREENDGAME_WEIGHT = 3.0
"""Weight of a pre-endgame move (one tile in the bag): every last tile is tried and
every endgame after it solved, the closest decisions of a game."""

PREENDGAME_CHANCE = 0.5
"""How often a player plans to meet the pre-endgame (one tile in the bag on their turn)."""

ENDGAME_WEIGHT = 2.0
"""Weight of the whole endgame (bag empty): the first search, the later moves' too."""

ENDGAME_MOVES = 2.0
"""Moves a player expects to make once the bag is empty."""

TILES_A_TURN = 4.0
"""Tiles a turn takes from the bag on average (a game of 86 tiles in the bag after the
opening racks lasts about 21 turns until it is empty)."""

CLOSE_FACTOR = 1.5
"""The share of a decision with two moves of equal static equity."""

CLEAR_FACTOR = 0.2
"""The least share of a decision, when the best is far ahead by static equity."""

MARGIN_SCALE = 10.0
"""Points of static equity margin over which a decision's factor falls by a factor e
towards `CLEAR_FACTOR`."""

DECIDED_POINTS = 80.0
"""A lead the end of a game can still turn with the bag empty; with tiles in the bag,
`DECIDED_PER_TILE` more a tile."""

DECIDED_PER_TILE = 2.0
"""Points a tile in the bag adds to the lead that can still be turned."""

DECIDED_FACTOR = 0.25
"""The least share of a move in a game already decided."""


@dataclass(frozen=True)
class Clock:
    """A player's clock: ``left`` seconds of main time (negative in overtime) and
    ``increment`` seconds given back after each move.

    >>> Clock(90.0, 2.0)
    Clock(left=90.0, increment=2.0)
    """

    left: float
    increment: float = 0.0

    @classmethod
    def of(cls, game: Game, player: int | None = None) -> Clock | None:
        """The clock of ``player`` (the player on turn by default) in ``game``, or None
        when the game has no clocks.

        >>> from lexiko.game import Game
        >>> from lexiko.rules import Rules
        >>> g = Game(["A", "B"], Rules(time_minutes=25, time_increment=5), lexicon=None, seed=1, clock=lambda: 0.0)
        >>> Clock.of(g)
        Clock(left=1500.0, increment=5.0)
        >>> Clock.of(Game(["A", "B"], lexicon=None, seed=1)) is None
        True
        """
        p = game.player_on_turn if player is None else player
        left = game.time_left(p)
        if left is None:
            return None
        return cls(float(left), float(game.rules.time_increment))


def weight(bag_count: int) -> float:
    """Weight of a move made with ``bag_count`` tiles in the bag (a mid-game move weighs 1).

    >>> [weight(b) for b in (0, 1, 5, 40)]
    [2.0, 3.0, 1.5, 1.0]
    """
    if bag_count <= 0:
        return ENDGAME_WEIGHT
    if bag_count == 1:
        return PREENDGAME_WEIGHT
    if bag_count <= LATE_BAG:
        return LATE_WEIGHT
    return 1.0


def _mid_moves(bag_count: int, players: int) -> float:
    """Mid-game moves of the player, this one included, while the bag holds more than
    `LATE_BAG` tiles (every turn of every player draws)."""
    if bag_count <= LATE_BAG:
        return 0.0
    return 1.0 + (bag_count - LATE_BAG - 1) / (TILES_A_TURN * players)


def moves_left(bag_count: int, players: int = 2) -> float:
    """Moves the player expects to make, this one included, with ``bag_count`` tiles in
    the bag and ``players`` players.

    >>> round(moves_left(86), 1), moves_left(1), moves_left(0)
    (14.2, 3.0, 2.0)
    """
    if bag_count <= 0:
        return ENDGAME_MOVES
    if bag_count == 1:
        return 1.0 + ENDGAME_MOVES
    return _mid_moves(bag_count, players) + 1.0 + PREENDGAME_CHANCE + ENDGAME_MOVES


def units_left(bag_count: int, players: int = 2) -> float:
    """The weights of this move and the player's later ones (see the module docstring).

    >>> round(units_left(86), 2), units_left(4), units_left(1), units_left(0)
    (15.75, 5.0, 5.0, 2.0)
    """
    if bag_count <= 0:
        return ENDGAME_WEIGHT
    if bag_count == 1:
        return PREENDGAME_WEIGHT + ENDGAME_WEIGHT
    late = LATE_WEIGHT + PREENDGAME_CHANCE * PREENDGAME_WEIGHT + ENDGAME_WEIGHT
    return _mid_moves(bag_count, players) + late


def closeness(margin: float | None) -> float:
    """The factor of a decision whose best move is ``margin`` points of static equity
    ahead of the second (None: not known, 1).

    >>> [round(closeness(m), 2) for m in (0.0, 5.0, 10.0, 30.0)]
    [1.5, 0.99, 0.68, 0.26]
    """
    if margin is None:
        return 1.0
    m = max(0.0, margin)
    return CLEAR_FACTOR + (CLOSE_FACTOR - CLEAR_FACTOR) * math.exp(-m / MARGIN_SCALE)


def contest(spread: float, bag_count: int) -> float:
    """The factor of a game where the player leads by ``spread`` (behind: negative)
    with ``bag_count`` tiles in the bag: 1 while the lead can still turn, less as it
    grows past that (`DECIDED_POINTS`, `DECIDED_PER_TILE`), at least `DECIDED_FACTOR`.

    >>> contest(50, 0), contest(-160, 0), contest(500, 0), contest(150, 40)
    (1.0, 0.5, 0.25, 1.0)
    """
    turnable = DECIDED_POINTS + DECIDED_PER_TILE * max(0, bag_count)
    lead = abs(spread)
    if lead <= turnable:
        return 1.0
    return max(DECIDED_FACTOR, turnable / lead)


def budget(
    clock: Clock,
    bag_count: int,
    *,
    choices: int | None = None,
    margin: float | None = None,
    spread: float = 0.0,
    players: int = 2,
) -> float:
    """Seconds to spend on this move (see the module docstring for the formula).

    ``choices``: the legal moves there are (1: forced, budget 0; None: not known);
    ``margin``: static equity of the best move less the second's (None: not known);
    ``spread``: the player's score less the best other's.

    >>> c = Clock(60.0)
    >>> round(budget(c, 50), 2), round(budget(c, 50, spread=300), 2)
    (5.02, 3.01)
    >>> budget(Clock(0.4), 0)   # less than the safety left
    0.0
    >>> round(budget(Clock(10.0, increment=5.0), 20), 2)   # the increment counts too
    5.2
    """
    if choices is not None and choices <= 1:
        return 0.0
    now = clock.left * (1.0 - RESERVE_SHARE) - SAFETY_SECONDS
    if now <= 0.0:
        return 0.0
    plan = now + clock.increment * moves_left(bag_count, players)
    share = plan * weight(bag_count) / units_left(bag_count, players)
    share *= closeness(margin) * contest(spread, bag_count)
    return max(0.0, min(share, MAX_SHARE * (now + clock.increment)))
