"""Glicko-2 ratings of the players with accounts, computed with the ``glicko2`` package
(Glickman's reference algorithm): each rated game is a rating period of one game for
both players, updated from their ratings before it.

>>> a, b = Rating(), Rating()
>>> a2, b2 = after_game(a, b, 1.0)
>>> round(a2.rating), round(b2.rating), round(a2.rd)
(1662, 1338, 290)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Rating", "after_game"]


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating: the rating, its deviation and the volatility."""

    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06


def after_game(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both ratings after one game: ``score_a`` is 1 when A won, 0 when B won, 0.5 for a draw."""
    import glicko2

    pa, pb = glicko2.Player(a.rating, a.rd, a.vol), glicko2.Player(b.rating, b.rd, b.vol)
    pa.update_player([b.rating], [b.rd], [score_a])
    pb.update_player([a.rating], [a.rd], [1.0 - score_a])
    return Rating(pa.getRating(), pa.getRd(), pa.vol), Rating(pb.getRating(), pb.getRd(), pb.vol)
