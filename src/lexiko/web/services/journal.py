"""Storing a game's actions: each action the engine took is saved before any client
sees it, and a rated game that ends is rated. When another process stored an action of
that number first, the one made here is taken back and the game caught up.

The actions of all games are written in batches: while one database call stores some,
the ones that arrive meanwhile wait and go together in the next (one transaction, one
commit). A quiet server writes each at once; a busy one does not queue one commit per
move behind the database thread (at 240 moves a second that queue, not the work, was
most of a move's latency).
"""

from __future__ import annotations

import asyncio
import json
import logging

from lexiko.web.errors import ActionError
from lexiko.web.live import LiveGame
from lexiko.web.services.catchup import CatchUp
from lexiko.web.services.core import Core
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
        self._waiting: list[tuple[AppendData, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

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
            await self._append(AppendData(live.id, a, live.status, scores))
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

    async def _append(self, item: AppendData) -> None:
        """Store one action with whatever others are waiting (see the module's text)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())
        await done

    async def _write(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                results = await self.core.db(self.core.store.append_actions, [item for item, _ in batch])
            except Exception as e:  # the whole transaction failed: each caller is told
                for _, done in batch:
                    if not done.done():
                        done.set_exception(e)
                continue
            for (_, done), result in zip(batch, results, strict=True):
                if done.done():  # its caller was cancelled
                    continue
                if result is None:
                    done.set_result(None)
                else:
                    done.set_exception(result)
