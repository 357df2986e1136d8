"""The game service: the server's authority over every game.

Games live in memory as `LiveGame` objects, loaded from the
database on first use by replaying their stored actions. Every action a client asks
for is checked by the engine (which raises and changes nothing when it is refused),
saved to the database, and only then shown to the clients. Bots play from a task of
their own; clocks are watched so that a player whose flag falls loses on time even
without moving.

`GameService` composes the services of `lexiko.web.services`, one per concern, and
starts and stops them; the routes use those services through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from typing import Any

from lexiko.review import DEFAULT_DEPTH, ReviewDepth
from lexiko.web.bus import Bus
from lexiko.web.errors import ActionError, NotFoundError
from lexiko.web.live import LiveGame
from lexiko.web.services.accounts import Accounts
from lexiko.web.services.bots import BOT_KINDS, Bots, available_bots, make_bot
from lexiko.web.services.catchup import CatchUp
from lexiko.web.services.chat import Chat
from lexiko.web.services.clocks import Clocks
from lexiko.web.services.core import Core, Settings
from lexiko.web.services.duplicate import Rounds
from lexiko.web.services.events import Events
from lexiko.web.services.games import Games, SeatRequest
from lexiko.web.services.journal import Journal
from lexiko.web.services.loading import Loader
from lexiko.web.services.lobby import Lobby
from lexiko.web.services.names import clean_name, names_alike
from lexiko.web.services.ratings import Ratings
from lexiko.web.services.review import Review
from lexiko.web.store import Account, Store

__all__ = [
    "GameService",
    "ActionError",
    "NotFoundError",
    "SeatRequest",
    "BOT_KINDS",
    "make_bot",
    "available_bots",
    "clean_name",
    "names_alike",
]


class GameService:
    """Every game the server knows, and the rules for acting on them: the services of
    each concern, made on one `Core`."""

    def __init__(
        self,
        store: Store,
        *,
        lexicons: Sequence[str] = ("TWL06", "SOWPODS"),
        bot_delay: float = 0.0,
        clock_interval: float = 1.0,
        idle_seconds: float = 600.0,
        allow_seeds: bool = False,
        expire_hours: float = 24.0,
        abandon_days: float = 7.0,
        bus: Bus | None = None,
        review_depth: ReviewDepth = DEFAULT_DEPTH,
        review_jobs: int = 1,
    ) -> None:
        settings = Settings(
            lexicons=lexicons,
            bot_delay=bot_delay,
            clock_interval=clock_interval,
            idle_seconds=idle_seconds,
            allow_seeds=allow_seeds,
            expire_hours=expire_hours,
            abandon_days=abandon_days,
            review_depth=review_depth,
            review_jobs=review_jobs,
        )
        core = self.core = Core(store, settings, bus)
        self.ratings = Ratings(core)
        self.accounts = Accounts(core)
        self.chat = Chat(core)
        self.catchup = CatchUp(core, self.ratings, then=self._kick_bots)
        self.journal = Journal(core, self.catchup, self.ratings)
        self.rounds = Rounds(core, self.catchup)
        self.bots = Bots(core, self.journal, self.rounds)
        self.loader = Loader(core, self.ratings, self.catchup, self.journal, self.bots)
        self.games = Games(core, self.loader, self.ratings, self.catchup, self.journal, self.rounds, self.bots)
        self.clocks = Clocks(core, self.loader, self.journal, self.rounds, self.bots)
        self.lobby = Lobby(core, self.loader)
        self.review = Review(core)
        self.events = Events(core, self.loader, self.journal)

    @property
    def store(self) -> Store:
        """The database."""
        return self.core.store

    @property
    def _games(self) -> dict[str, LiveGame]:
        """The games held in memory, by id."""
        return self.core.games

    def _kick_bots(self, live: LiveGame) -> None:
        self.bots.kick(live)

    async def open(self) -> None:
        """Bring the database schema up to date, learn how long the server was down,
        and start watching clocks (the games in progress are loaded in the background,
        each with the downtime its turn went through)."""
        await self.core.db(self.core.store.upgrade)
        await self.clocks.open()
        await self.core.bus.start(self._on_version, self.chat.on_chat, self.rounds.on_submission)
        self.clocks.start()
        self.catchup.start()
        self.events.start_sweep()

    async def close(self) -> None:
        """Stop the background tasks and close the database."""
        await self.clocks.stop()
        await self.catchup.stop()
        await self.events.stop_sweep()
        if self.core.tasks:  # the news of the last moves still on their way
            await asyncio.wait(list(self.core.tasks), timeout=2)
        with contextlib.suppress(Exception):
            await self.core.bus.stop()
        if self.core.loop_appends is not None:
            await self.core.loop_appends.close()
        with contextlib.suppress(Exception):
            self.core.store.beat(time.time())  # the clocks stop from now until the next start
        self.accounts.close()
        self.review.close()
        self.core.close()

    async def _on_version(self, game_id: str, version: int) -> None:
        """Another process changed a game (``version`` -1: its seats): see `CatchUp.on_version`."""
        await self.catchup.on_version(game_id, version)

    async def create_game(
        self,
        *,
        preset: str,
        options: dict[str, Any] | None,
        seats: Sequence[SeatRequest],
        seed: int | None = None,
        listed: bool = False,
        account: Account | None = None,
    ) -> dict[str, Any]:
        """Create a game (see `Games.create`)."""
        return await self.games.create(
            preset=preset, options=options, seats=seats, seed=seed, listed=listed, account=account
        )

    async def join(self, game_id: str, invite: str, name: object, account: Account | None = None) -> dict[str, Any]:
        """Take the seat an invitation is for (see `Games.join`)."""
        return await self.games.join(game_id, invite, name, account)
