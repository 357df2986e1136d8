"""Time: the server's heartbeat (a restart knows how long it was down), the watch of the
clocks (a player whose flag falls loses on time even without moving; a duplicate round
whose time is up closes), games nobody joined deleted, games abandoned ended, and games
nobody watches let go from memory. In shared mode only the process holding a game's
lease watches its clock, and it takes over the bots of a process that is gone. A sweep
claims the games whose lease nobody holds (their process died, or, with one process,
they were let go from memory when idle, and nobody has opened them since), so that
clocks and bots run with nobody watching.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import UTC, datetime, timedelta

from lexiko.errors import LexikoError
from lexiko.web.bus import LEASE_MS
from lexiko.web.errors import ActionError
from lexiko.web.live import FLAG, LiveGame
from lexiko.web.services.bots import Bots
from lexiko.web.services.core import Core
from lexiko.web.services.duplicate import Rounds
from lexiko.web.services.journal import Journal
from lexiko.web.services.loading import Loader

__all__ = ["Clocks", "BEAT_SECONDS", "SWEEP_SECONDS"]

log = logging.getLogger("lexiko.web")

BEAT_SECONDS = 2.0
"""How often the server records that it is up."""

SWEEP_SECONDS = 3.0
"""How often a process looks for games in progress that no process holds (with one
process: games in progress let go from memory)."""


class Clocks:
    """The background tasks of time: the clock watch, and the games resumed at start."""

    def __init__(self, core: Core, loader: Loader, journal: Journal, rounds: Rounds, bots: Bots) -> None:
        self.core = core
        self.loader = loader
        self.journal = journal
        self.rounds = rounds
        self.bots = bots
        self._last_beat = 0.0
        self._last_expiry = 0.0
        self._last_sweep = time.monotonic()
        #: Games in progress found to need no watch (no clock, no bot): never swept again.
        self._unwatched: set[str] = set()
        self._watch: asyncio.Task[None] | None = None
        self._resume: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Learn how long the server was down (from the last heartbeat), and beat."""
        self.core.up_since = time.time()
        self.core.down_since = await self.core.db(self.core.store.last_beat)
        await self.beat(force=True)

    def start(self) -> None:
        """Start watching the clocks, and load every game in progress in the background."""
        self._watch = asyncio.create_task(self._watch_clocks())
        self._resume = asyncio.create_task(self._resume_games())

    async def stop(self) -> None:
        """Stop the background tasks (and the bots of the games in memory)."""
        games = self.core.games.values()
        tasks = [t for t in [self._watch, self._resume, *(g.bot_task for g in games)] if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    async def beat(self, *, force: bool = False) -> None:
        """Record that the server is up (every few seconds: what a restart measures)."""
        now = time.time()
        if force or now - self._last_beat >= BEAT_SECONDS:
            self._last_beat = now
            try:
                await self.core.db(self.core.store.beat, now)
            except Exception:
                log.exception("could not record the heartbeat")

    async def _resume_games(self) -> None:
        """Load every game in progress, so that clocks, rounds and bots go on."""
        try:
            ids = await self.core.db(self.core.store.game_ids, "active")
        except Exception:
            log.exception("could not list the games in progress")
            return
        for gid in ids:
            try:
                await self.loader.get(gid)
            except Exception as e:  # one game that cannot be rebuilt does not stop the others
                log.error("game %s could not be resumed: %s", gid, e)

    async def _watch_clocks(self) -> None:
        """Once a second: a player past the overtime allowed loses on time (the server
        records the flag fall as the player's last action). In shared mode only the
        process holding a game's lease does this, and takes over its bots when the
        process that held it is gone."""
        settings = self.core.settings
        while True:
            await asyncio.sleep(settings.clock_interval)
            await self.beat()
            if time.monotonic() - self._last_expiry > min(600.0, settings.expire_hours * 1800):
                await self.expire()
            self._evict_idle()
            if time.monotonic() - self._last_sweep >= SWEEP_SECONDS:  # one process: it holds every lease
                await self.sweep()
            games = self.core.games
            ours = await self.core.bus.claim(g.id for g in games.values() if g.status == "active")
            for live in list(games.values()):
                try:
                    if live.status == "active" and live.id in ours:
                        await self._check_flag(live)
                        if self.core.bus.shared:
                            self.bots.kick(live, leased=True)
                except Exception:
                    log.exception("clock check of game %s", live.id)

    async def sweep(self) -> list[str]:
        """Claim the games in progress whose lease is free and that need a watch (a clock
        or a bot), and load them here: their process died and nobody has opened them
        since, so no process would run their clocks or bots. A game taken is held, and
        its lease renewed, by every clock tick from then on. Returns the ids taken."""
        self._last_sweep = time.monotonic()
        try:
            # a game that moved within a lease's time is being played: its process is
            # alive and takes the lease at its next tick (taking it here would load a
            # copy that nobody watches, let go at the game's next move, taken again)
            ids = await self.core.db(self.core.store.game_ids, "active", still_for=LEASE_MS / 1000)
        except Exception:
            log.exception("could not list the games in progress")
            return []
        ids = [gid for gid in ids if gid not in self.core.games and gid not in self._unwatched]
        taken: list[str] = []
        for gid in sorted(await self.core.bus.claim(ids)):
            try:
                live = await self.loader.get(gid)
            except Exception as e:  # one game that cannot be rebuilt does not stop the others
                log.error("game %s could not be taken over: %s", gid, e)
                await self.core.bus.release(gid)
                continue
            if not needs_watch(live):
                self._unwatched.add(gid)
                if not live.listeners and not self.core.busy(live):
                    self.core.forget(live)  # gives the lease back
                continue
            taken.append(gid)
        if taken:
            log.info("took over %d games no process held", len(taken))
        return taken

    async def _check_flag(self, live: LiveGame) -> None:
        if live.status != "active":
            return
        if live.duplicate is not None:
            await self._check_round(live)
            return
        g = live.game
        r = live.rules
        if g is None or g.is_over or r.time_minutes is None or live.lock.locked():
            return
        on = g.player_on_turn
        left = g.time_left(on)
        if left is None or left > -r.max_overtime * 60:
            return
        async with live.lock:
            if g.is_over or g.player_on_turn != on or g.awaiting_final_challenge:
                return
            try:
                live.apply_text(on, FLAG)
            except LexikoError:
                return
            try:
                await self.journal.save(live)
            except ActionError:
                return
            self.core.broadcast(live)

    async def _check_round(self, live: LiveGame) -> None:
        """A duplicate round closes when its time is up."""
        d = live.duplicate
        assert d is not None
        left = d.time_left()
        if d.over or left is None or left > 0 or live.lock.locked():
            return
        async with live.lock:
            left = d.time_left()
            if not d.over and left is not None and left <= 0 and await self.rounds.close_if_done(live, time_up=True):
                self.core.broadcast(live)
        self.bots.kick(live)

    def _evict_idle(self) -> None:
        """Forget games nobody has watched for a while (the database has them): memory
        stays bounded however many games are played."""
        now = time.monotonic()
        idle = self.core.settings.idle_seconds
        for live in list(self.core.games.values()):
            if live.idle_since is not None and now - live.idle_since > idle and not self.core.busy(live):
                self.core.forget(live)

    async def expire(self, now: datetime | None = None) -> list[str]:
        """Delete the games nobody joined within ``expire_hours`` of their creation
        (invitations never taken): they would otherwise be kept for ever."""
        self._last_expiry = time.monotonic()
        settings = self.core.settings
        cutoff = (now or datetime.now(UTC)) - timedelta(hours=settings.expire_hours)
        try:
            gone = await self.core.db(self.core.store.delete_waiting, cutoff)
        except Exception:
            log.exception("could not expire old games")
            return []
        for gid in gone:
            self.core.games.pop(gid, None)
        if gone:
            log.info("expired %d games nobody joined", len(gone))
        await self._end_abandoned((now or datetime.now(UTC)) - timedelta(days=settings.abandon_days))
        return gone

    async def _end_abandoned(self, cutoff: datetime) -> None:
        """A game in progress where nobody has moved since ``cutoff`` (an untimed game
        left by the player on turn) ends: that player loses, as on time."""
        try:
            ids = await self.core.db(self.core.store.idle_since, "active", cutoff)
        except Exception:
            log.exception("could not list abandoned games")
            return
        for gid in ids:
            try:
                live = await self.loader.get(gid)
            except ActionError:
                continue
            async with live.lock:
                g = live.game
                if g is None or g.is_over or live.status != "active":
                    continue
                try:
                    live.apply_text(g.player_on_turn, FLAG)
                    await self.journal.save(live)
                except (LexikoError, ActionError) as e:
                    log.error("abandoned game %s could not be ended: %s", gid, e)
                    continue
                self.core.broadcast(live)


def needs_watch(live: LiveGame) -> bool:
    """True for a game that goes on without anybody acting: a clock runs (a flag may
    fall, a duplicate round may time out) or a bot plays.

    >>> from lexiko.rules import preset
    >>> from lexiko.lexicon import Lexicon
    >>> from lexiko.web.live import Seat
    >>> seats = [Seat(0, "human", "Ann", None, None), Seat(1, "human", "Bob", None, None)]
    >>> lex = Lexicon.from_words(["QI"])
    >>> needs_watch(LiveGame("g", preset("casual"), 1, seats, lex))
    False
    >>> needs_watch(LiveGame("g", preset("casual").replace(time_minutes=1), 1, seats, lex))
    True
    """
    r = live.rules
    timed = r.duplicate_seconds is not None if live.is_duplicate else r.time_minutes is not None
    return timed or any(s.is_bot for s in live.seats)
