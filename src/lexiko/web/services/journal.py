"""Storing a game's actions: each action the engine took is saved before any client
sees it, and a rated game that ends is rated. When another process stored an action of
that number first, the one made here is taken back and the game caught up.

The actions of all games are written in batches (`lexiko.web.services.core.Batches`).
"""

from __future__ import annotations

import json
import logging

from lexiko.web.errors import ActionError
from lexiko.web.live import LiveGame
from lexiko.web.services.catchup import CatchUp
from lexiko.web.services.core import Batches, Core
from lexiko.web.services.ratings import Ratings
from lexiko.web.store import AppendData, ConflictError

__all__ = ["Journal"]

log = logging.getLogger("lexiko.web")


class Journal:
    """Saves the last action of a game (call with its lock held)."""

    def __init__(self, core: Core, catchup: CatchUp, ratings: Ratings) -> None:
        self.core = core
        self.catchup = catchup
        self.ratings = ratings
        # from the loop (PostgreSQL), two batches at once: a game's actions are saved one
        # at a time (with its lock held), so two batches never hold actions of one game
        loop = core.loop_appends
        self._appends: Batches[AppendData, None] = Batches(
            core,
            core.store.append_actions,
            on_loop=loop.append_actions if loop is not None else None,
            writers=loop.connections if loop is not None else 1,
        )

    async def save(self, live: LiveGame) -> None:
        """Store the game's last action; rate the game if it ended it. Raises ActionError,
        with the action taken back, when it could not be stored."""
        await self.save_action(live)
        if live.status == "over" and live.rated and live.game is not None:
            await self.ratings.rate(live)
        elif live.status == "aborted" and live.rated:
            await self.ratings.forget_addresses(live)
        if live.status == "over":
            for then in self.core.on_over:
                then(live)

    async def save_action(self, live: LiveGame) -> None:
        """Store the game's last action and tell the other processes."""
        a = live.actions[-1]
        g = live.game
        d = live.duplicate
        scores = json.dumps(g.scores if g is not None else [d.totals[p] for p in d.players] if d is not None else [])
        try:
            await self._appends.put(AppendData(live.id, a, live.status, scores))
        except ConflictError:  # another process stored an action of this number first
            live.undo_last()
            await self.catchup.sync(live, seats=False)
            self.core.broadcast(live)
            raise ActionError(
                "the game changed meanwhile (a move came first from elsewhere): look again and act on it"
            ) from None
        except Exception:
            log.exception("could not save action %d of game %s", a.seq, live.id)
            live.undo_last()
            raise ActionError("the server could not save this action, so it was not made: try again") from None
        self.core.tell_others(live)
