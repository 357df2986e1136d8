"""Games in memory: found there, or rebuilt from the database by replaying their stored
actions (a game whose seats are all taken starts; a turn that began before the server
went down is not charged the downtime); and the seat a secret token holds in one.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import time

from lexiko.errors import LexikoError
from lexiko.web.errors import ActionError, NotFoundError
from lexiko.web.live import DOWNTIME, SERVER_SEAT, LiveGame, Seat
from lexiko.web.options import rules_from_json
from lexiko.web.services.bots import Bots
from lexiko.web.services.catchup import CatchUp
from lexiko.web.services.core import Core
from lexiko.web.services.journal import Journal
from lexiko.web.services.ratings import Ratings
from lexiko.web.store import hash_token

__all__ = ["Loader"]

log = logging.getLogger("lexiko.web")


class Loader:
    """Finds games (in memory or the database) and starts them."""

    def __init__(self, core: Core, ratings: Ratings, catchup: CatchUp, journal: Journal, bots: Bots) -> None:
        self.core = core
        self.ratings = ratings
        self.catchup = catchup
        self.journal = journal
        self.bots = bots
        self._locks: dict[str, asyncio.Lock] = {}

    async def get(self, game_id: str) -> LiveGame:
        """The game, from memory or rebuilt from the database."""
        live = self.core.games.get(game_id)
        if live is not None:
            return live
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", game_id):
            raise NotFoundError("no such game")
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            live = self.core.games.get(game_id)
            if live is not None:
                return live
            live = await self._rebuild(game_id)
            self.core.games[game_id] = live
            self._locks.pop(game_id, None)
            if live.started_at is None and live.ready:
                await self.start(live)
            await self._credit_downtime(live)
            self.bots.kick(live)
            return live

    async def _rebuild(self, game_id: str) -> LiveGame:
        """The game as the database has it, its actions replayed."""
        stored = await self.core.db(self.core.store.load_game, game_id)
        if stored is None:
            raise NotFoundError("no such game")
        rules = rules_from_json(stored.rules_json)
        lexicon = await self.core.lexicon_for(rules)
        seats = [Seat(s.seat, s.kind, s.name, s.token_hash, s.invite, s.account_id) for s in stored.seats]
        live = LiveGame(
            stored.id,
            rules,
            stored.seed,
            seats,
            lexicon,
            seeded=stored.seeded,
            listed=stored.listed,
            open_invite=stored.open_invite,
            generator=stored.generator,
        )
        live.rating_note = stored.rating_note
        live.event_id = stored.event_id
        if stored.started_at is not None:
            try:
                live.start(stored.started_at)
                live.replay(stored.actions, stored.submissions)
            except LexikoError as e:
                log.error("game %s cannot be rebuilt from its actions: %s", game_id, e)
                raise ActionError(f"this game cannot be rebuilt from the database: {e}") from None
        live.idle_since = time.monotonic()
        return live

    async def start(self, live: LiveGame) -> None:
        """Start a game whose seats are taken: the clocks run, the bots may play."""
        await self.ratings.read(live)
        started = time.time()
        live.start(started)
        await self.core.db(self.core.store.start_game, live.id, started)
        self.core.broadcast(live)
        self.bots.kick(live)

    async def _credit_downtime(self, live: LiveGame) -> None:
        """If the turn (or duplicate round) in progress began before the server came
        up, the player on turn is not charged for the time it was down: from the later
        of the last heartbeat and the turn's start, to the start of this process. (A
        server that dies less than a heartbeat's interval into a turn last beat before
        the turn began; the turn is credited from its start, a moment it did run.)"""
        down, up = self.core.down_since, self.core.up_since
        r = live.rules
        timed = r.duplicate_seconds is not None if live.is_duplicate else r.time_minutes is not None
        if down is None or live.status != "active" or not timed or live.started_at is None:
            return
        began = live.actions[-1].at if live.actions else live.started_at
        if began >= up:
            return  # the turn began after the outage (or this outage is already counted)
        since = max(down, began)
        async with live.lock:
            try:
                live.apply_text(SERVER_SEAT, f"{DOWNTIME} {up - since:.3f}", at=up)
            except LexikoError as e:
                log.error("game %s: the downtime could not be counted: %s", live.id, e)
                return
            await self.journal.save(live)

    @staticmethod
    def seat_for_token(live: LiveGame, token: object) -> int | None:
        """The seat a secret token holds in this copy of the game, or None (see
        `game_and_seat` for a token that may hold a seat taken elsewhere)."""
        if not isinstance(token, str) or not token:
            return None
        h = hash_token(token)
        for s in live.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.index
        return None

    async def game_and_seat(self, game_id: str, token: object) -> tuple[LiveGame, int | None]:
        """The game and the seat a secret token holds in it (None: a spectator), as the
        database has them: what a client that opens the game with that token is shown.

        In shared mode the copy of a game in this process's memory may be behind: what
        other processes did reaches it as news through Redis, whenever that comes (a
        busy machine: a whole game's moves may be played meanwhile). So a copy kept here
        is checked against the database before it is shown: the actions it lacks, if
        any, are read (as the news would have them read), and so are its seats when the
        token matches none while a seat is still open: a player may have taken it on
        another process a moment ago, and is never taken for a spectator. With every
        seat taken the copy cannot lack a player (a seat never changes hands), and a
        spectator's token costs no more. (A copy read from the database a moment ago is
        checked too: news that came while it was being read was not for it.) A single
        process's copy is the only one, and shown as it is.
        """
        live = await self.get(game_id)
        seat = self.seat_for_token(live, token)
        if not self.core.bus.shared:
            return live, seat
        unknown = seat is None and isinstance(token, str) and bool(token) and not live.ready
        if unknown or len(await self.core.db(self.core.store.actions_after, live.id, live.version)) > 0:
            await self.catchup.catch_up(live, seats=True)
        live = await self.get(game_id)  # the copy kept now: a client subscribes to it (let go meanwhile: read again)
        return live, self.seat_for_token(live, token)
