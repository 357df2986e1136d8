"""Ratings of signed-in players: read when a game starts (the state shows them), updated
once when a rated game ends (Glicko-2, `lexiko.web.ratings`), and the table of the best.

A fair-play rule about what is rated (which games, which results) goes here.
"""

from __future__ import annotations

import logging
from typing import Any

from lexiko.web.live import LiveGame
from lexiko.web.ratings import Rating, after_game
from lexiko.web.services.core import Core

__all__ = ["Ratings"]

log = logging.getLogger("lexiko.web")


class Ratings:
    """The players' ratings, as the games need them."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def read(self, live: LiveGame) -> None:
        """Learn the ratings of the game's signed-in players (for its state)."""
        ids = [s.account_id for s in live.seats if s.account_id is not None]
        if ids:
            accounts = await self.core.db(self.core.store.accounts, ids)
            live.ratings = {i: a.rating for i, a in accounts.items()}

    async def rate(self, live: LiveGame) -> None:
        """The ratings of a rated game's players after its result (once, whatever
        happens: the database refuses a second time)."""
        g = live.game
        assert g is not None
        a_id, b_id = live.seats[0].account_id, live.seats[1].account_id
        assert a_id is not None and b_id is not None
        db, store = self.core.db, self.core.store
        try:
            accounts = await db(store.accounts, [a_id, b_id])
            a, b = accounts[a_id], accounts[b_id]
            winners = g.winners()
            score_a = 0.5 if len(winners) == 2 else 1.0 if winners == [0] else 0.0
            ra, rb = after_game(Rating(a.rating, a.rd, a.vol), Rating(b.rating, b.rd, b.vol), score_a)
            done = await db(
                store.rate_game, live.id, {a_id: (ra.rating, ra.rd, ra.vol), b_id: (rb.rating, rb.rd, rb.vol)}
            )
        except Exception:
            log.exception("the ratings of game %s could not be updated", live.id)
            return
        if done:
            live.ratings = {a_id: ra.rating, b_id: rb.rating}
            live.view_cache.clear()

    async def top(self) -> list[dict[str, Any]]:
        """The rated players, best first."""
        return [
            {"name": a.name, "rating": round(a.rating), "rd": round(a.rd), "games": a.games}
            for a in await self.core.db(self.core.store.top_accounts)
        ]
