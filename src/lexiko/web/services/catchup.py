"""Shared mode: catching up with what other processes did. PostgreSQL is the truth; the
bus (Redis) only brings the news sooner. A copy of a game held here is brought up to
the database by version: the actions it lacks are read and applied in order, and its
seats when they may have changed.

Redis's publish is at most once: a message lost while Redis was down (or while this
process was reconnecting) is never delivered again. So in shared mode every process also
checks, every `CHECK_SECONDS`, the versions of all the games it holds against the
database in one read (`Store.versions`), and catches up on any that moved without its
news: a lost message delays a move by that much at most, never for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from lexiko.errors import LexikoError
from lexiko.web.live import LiveGame, Seat
from lexiko.web.services.core import Core
from lexiko.web.services.ratings import Ratings
from lexiko.web.store import SubmissionData

__all__ = ["CatchUp", "CHECK_SECONDS"]

log = logging.getLogger("lexiko.web")

CHECK_SECONDS = 2.0
"""How often a process compares the games it holds with the database (shared mode)."""


class CatchUp:
    """Brings games in memory up to the database. ``then`` is called with a game that
    has caught up (its bots may have to play)."""

    def __init__(self, core: Core, ratings: Ratings, then: Callable[[LiveGame], None]) -> None:
        self.core = core
        self.ratings = ratings
        self.then = then
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """In shared mode, start checking the held games' versions every `CHECK_SECONDS`."""
        if self.core.bus.shared and self._task is None:
            self._task = asyncio.create_task(self._keep_up())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _keep_up(self) -> None:
        while True:
            await asyncio.sleep(CHECK_SECONDS)
            try:
                await self.check()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away for a moment: the next check tries again
                log.exception("could not compare the games held here with the database")

    async def check(self) -> int:
        """Compare every game held here with the database in one read, and catch up on
        those that moved without this process hearing of it; returns how many did.

        The news of a game's seats (taken elsewhere before its start) counts too: a game
        held here as not started that the database has started is read whole."""
        held = list(self.core.games.values())
        if not held:
            return 0
        stored = await self.core.db(self.core.store.versions, [live.id for live in held])
        behind = 0
        for live in held:
            version, started = stored.get(live.id, (0, False))
            if version > live.version or (started and live.started_at is None):
                behind += 1
                log.info("game %s moved to version %d without news here: catching up", live.id, version)
                await self.on_version(live.id, version if version > live.version else -1)
        return behind

    async def on_version(self, game_id: str, version: int) -> None:
        """Another process changed a game (``version`` -1: its seats): catch up if this
        process holds it, and tell this process's clients."""
        live = self.core.games.get(game_id)
        if live is None or (version >= 0 and live.version >= version):
            return
        if version >= 0 and not live.listeners and not self.core.busy(live):
            # nobody here watches it (it was created or joined here, and is played
            # elsewhere): let it go rather than catch up on each move; the database has it
            self.core.forget(live)
            return
        await self.catch_up(live, seats=version < 0)

    async def catch_up(self, live: LiveGame, *, seats: bool) -> None:
        """Bring a game in memory up to the database (``seats``: its seats and start
        too), show this process's clients the result, and let its bots go on."""
        async with live.lock:
            await self.sync(live, seats=seats)
            self.core.broadcast(live)
        self.then(live)

    async def sync(self, live: LiveGame, *, seats: bool = True) -> None:
        """Bring a game in memory up to the database (call with its lock): seats taken
        elsewhere and the start (``seats``), and the actions it lacks, applied in order."""
        db, store = self.core.db, self.core.store
        if seats or live.started_at is None:
            stored = await db(store.load_game, live.id)
            if stored is None:
                return
            if [s.index for s in live.seats] != [st.seat for st in stored.seats]:  # started without open seats
                live.reseat(
                    [Seat(st.seat, st.kind, st.name, st.token_hash, st.invite, st.account_id) for st in stored.seats]
                )
            for seat, st in zip(live.seats, stored.seats, strict=True):
                seat.name, seat.token_hash, seat.invite = st.name, st.token_hash, st.invite
                seat.account_id = st.account_id
            live.open_invite = stored.open_invite
            started_at, missing = stored.started_at, stored.actions[live.version :]
        else:
            started_at, missing = live.started_at, await db(store.actions_after, live.id, live.version)
        subs: list[SubmissionData] = []
        if live.is_duplicate:
            since = live.duplicate.round_number if live.duplicate is not None else 1
            subs = await db(store.submissions, live.id, since)
        try:
            if started_at is not None and live.started_at is None:
                await self.ratings.read(live)
                live.start(started_at)
            live.replay(missing, subs)
        except LexikoError as e:  # cannot follow: forget it, the next use rebuilds it
            log.error("game %s could not catch up with the database: %s", live.id, e)
            self.core.games.pop(live.id, None)
        live.view_cache.clear()
