"""What the processes serving one database tell each other (shared mode, Redis).

One ``lexiko serve`` process with SQLite needs none of this (`LocalBus`). With
``--redis-url`` any number of processes, on any hosts, serve the same games from one
PostgreSQL database:

- **PostgreSQL is the source of truth.** An action is stored with its number in the
  game (``actions`` has the primary key ``(game_id, seq)``): of two processes applying
  an action to the same version of a game, the database takes one and refuses the
  other, which then reads what it missed and answers its client. No action is ever
  applied twice or lost. (A version check on the key, not a row lock: nothing waits,
  and a process that dies holds nothing.)
- **Redis carries the news**: after storing an action a process publishes
  ``GAME VERSION`` on one channel; every process that holds the game in memory reads
  the actions it lacks from the database and sends the new state to its own clients.
  Publishing is at most once (a message sent while Redis is down or a subscriber is
  reconnecting is lost), so the news only speeds things up: every process also
  compares the games it holds with the database every few seconds
  (`lexiko.web.services.catchup`).
- **Leases** (``SET key NX PX``, renewed every clock tick): of the processes holding a
  game, only the one with its lease runs its clocks and its computer players, so a flag
  falls once and a bot moves once; when that process dies, its lease expires within
  `LEASE_MS` and another takes over. A tick takes or renews the leases of all the
  games a process holds in memory in one round trip (`RedisBus.claim`, one Lua
  script), not one or two per game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from lexiko.web.store import SubmissionData

__all__ = ["Bus", "LocalBus", "RedisBus", "LEASE_MS", "CHANNEL", "REDIS_CONNECTIONS"]

log = logging.getLogger("lexiko.web")

LEASE_MS = 5000
"""How long a game's lease lasts without renewal (milliseconds)."""

REDIS_CONNECTIONS = 64
"""Most connections a process opens to Redis; a call past them waits for one to be free
(up to `REDIS_WAIT` seconds) rather than failing, as redis-py's default pool does."""
REDIS_WAIT = 10.0

CHANNEL = "lexiko:games"
"""The Redis channel of game versions."""

Listener = Callable[[str, int], Awaitable[None]]
Talker = Callable[[str, dict[str, Any]], Awaitable[None]]
Submitter = Callable[[str, SubmissionData], Awaitable[None]]

CHAT_CHANNEL = "lexiko:chat"
"""The Redis channel of chat lines (a game's players may be on different processes)."""

SUBMISSION_CHANNEL = "lexiko:submissions"
"""The Redis channel of duplicate submissions once stored (a line each, ``GAME ROUND SEAT
COUNT AT SENDER TEXT``, those of one turn of the loop in one message): every process
knows at once who has played, and the one that sees the round complete closes it,
without reading the database for each."""

_CLAIM = """
-- KEYS: lease keys; ARGV[1]: this process's name; ARGV[2]: the lease in milliseconds.
-- Each lease still ours is extended and each free one taken; the answer has 1 for the
-- leases ours now, 0 for the others (held by another process).
local ours = {}
for i, key in ipairs(KEYS) do
    if redis.call('GET', key) == ARGV[1] then
        redis.call('PEXPIRE', key, ARGV[2])
        ours[i] = 1
    elseif redis.call('SET', key, ARGV[1], 'NX', 'PX', ARGV[2]) then
        ours[i] = 1
    else
        ours[i] = 0
    end
end
return ours
"""


class Bus:
    """The single-process bus: nobody else to tell, every lease is ours."""

    shared = False

    async def start(
        self, on_version: Listener, on_chat: Talker | None = None, on_submission: Submitter | None = None
    ) -> None:
        """Start listening (``on_version(game_id, version)`` for other processes' news,
        ``on_chat(game_id, line)`` for their players' chat, ``on_submission(game_id,
        submission)`` for the duplicate submissions they stored)."""

    async def stop(self) -> None:
        """Stop listening and give back the leases."""

    async def publish(self, game_id: str, version: int) -> None:
        """Tell the other processes that a game reached ``version``."""

    async def publish_chat(self, game_id: str, line: dict[str, Any]) -> None:
        """Pass a chat line to the other processes."""

    async def publish_submission(self, game_id: str, sub: SubmissionData) -> None:
        """Tell the other processes of a duplicate submission just stored."""

    async def hold(self, game_id: str) -> bool:
        """Take or renew the lease of a game; True when this process holds it."""
        return True

    async def claim(self, game_ids: Iterable[str]) -> set[str]:
        """Take or renew the leases of ``game_ids`` at once (what a clock tick does for
        the games in memory); the ids whose lease is ours. Here: all of them."""
        return set(game_ids)

    async def release(self, game_id: str) -> None:
        """Give a lease back (the game leaves this process's memory)."""


LocalBus = Bus


class RedisBus(Bus):
    """The bus of shared mode, over Redis (the ``redis`` package's asyncio client)."""

    shared = True

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self.url = url
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT)
        self.redis: Any = redis.Redis(connection_pool=pool)
        self.me = f"{socket.gethostname()}:{os.getpid()}"
        self._task: asyncio.Task[None] | None = None
        self._held: set[str] = set()
        self._away = False  # Redis did not answer the last call (one warning an outage)
        # news waiting to go out together, by channel: games' versions, submissions
        self._news: dict[str, list[str]] = {CHANNEL: [], SUBMISSION_CHANNEL: []}
        self._flusher: asyncio.Task[None] | None = None
        self._claim: Any = self.redis.register_script(_CLAIM)

    async def start(
        self, on_version: Listener, on_chat: Talker | None = None, on_submission: Submitter | None = None
    ) -> None:
        await self.redis.ping()  # fail at start, with the reason, if Redis is not there
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(CHANNEL, CHAT_CHANNEL, SUBMISSION_CHANNEL)

        async def handle(msg: dict[str, Any]) -> None:
            """Pass one message on to its listener (malformed ones are dropped)."""
            if msg.get("channel") in (SUBMISSION_CHANNEL, SUBMISSION_CHANNEL.encode()):
                for entry in bytes(msg["data"]).decode(errors="replace").split("\n"):  # a few at once
                    fields = entry.split(" ", 6)
                    if len(fields) != 7 or fields[5] == self.me or on_submission is None:
                        continue
                    try:
                        sub = SubmissionData(
                            int(fields[1]), int(fields[2]), fields[6], float(fields[4]), int(fields[3])
                        )
                    except ValueError:
                        continue
                    try:
                        await on_submission(fields[0], sub)
                    except asyncio.CancelledError:
                        raise
                    except Exception:  # one this process could not act on: the others go on
                        log.exception("could not act on the submission %r", entry)
                return
            if msg.get("channel") in (CHAT_CHANNEL, CHAT_CHANNEL.encode()):
                try:
                    data = json.loads(bytes(msg["data"]))
                    game, line = str(data["game"]), dict(data["line"])
                except (ValueError, KeyError, TypeError):
                    return
                if data.get("sender") != self.me and on_chat is not None:
                    await on_chat(game, line)
                return
            for news in bytes(msg["data"]).decode(errors="replace").split("\n"):  # news of a few games at once
                parts = news.split(" ")
                if len(parts) != 3 or parts[2] == self.me:
                    continue
                try:
                    version = int(parts[1])
                except ValueError:
                    continue
                try:
                    await on_version(parts[0], version)
                except asyncio.CancelledError:
                    raise
                except Exception:  # one game's news this process could not act on: the others go on
                    log.exception("could not act on the news %r", news)

        async def listen() -> None:
            while True:
                try:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    self._trouble(e, "lost the Redis channel; listening again")
                    await asyncio.sleep(1)
                    continue
                self._answered()
                if msg is None:
                    continue
                try:
                    await handle(msg)
                except asyncio.CancelledError:
                    raise
                except Exception:  # one piece of news this process could not act on: it listens on
                    log.exception("could not act on the news %r", msg.get("data"))

        self._task = asyncio.create_task(listen())

    async def stop(self) -> None:
        if self._flusher is not None:  # the last news goes out first
            with contextlib.suppress(Exception):
                await self._flusher
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        for gid in list(self._held):
            await self.release(gid)
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def _trouble(self, error: Exception, what: str) -> None:
        """Log a failed call to Redis: Redis away (refused, closed or timed out) is one
        warning for the whole outage, without a traceback (nothing is lost meanwhile:
        moves are stored in the database, and every process catches up from it within
        ``CHECK_SECONDS`` of the catch-up service); anything else is logged in full."""
        import redis.exceptions as rex

        if not isinstance(error, rex.ConnectionError | rex.TimeoutError | OSError):
            log.exception(what)
            return
        if not self._away:
            self._away = True
            log.warning(
                "Redis at %s does not answer (%s: %s): the other processes catch up from the database until it does",
                self.url,
                what,
                error,
            )

    def _answered(self) -> None:
        """Redis answered: say so once after an outage."""
        if self._away:
            self._away = False
            log.warning("Redis at %s answers again", self.url)

    async def publish(self, game_id: str, version: int) -> None:
        """Queue the news; it goes out with the other news of this turn of the loop, in
        one message (a line a game): under load, one Redis call and one message for
        every process to read carry the news of several moves."""
        self._queue(CHANNEL, f"{game_id} {version} {self.me}")

    def _queue(self, channel: str, line: str) -> None:
        """Queue a line of news for ``channel``, to go out with the others of this turn."""
        self._news[channel].append(line)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        await asyncio.sleep(0)  # the news queued in this turn of the loop goes together
        while any(self._news.values()):
            for channel, lines in self._news.items():
                if not lines:
                    continue
                self._news[channel] = []
                try:
                    await self.redis.publish(channel, "\n".join(lines))
                except Exception as e:
                    self._trouble(e, f"could not publish {len(lines)} lines of news on {channel}")
                else:
                    self._answered()

    async def publish_chat(self, game_id: str, line: dict[str, Any]) -> None:
        try:
            await self.redis.publish(CHAT_CHANNEL, json.dumps({"game": game_id, "line": line, "sender": self.me}))
        except Exception as e:
            self._trouble(e, f"could not pass on a chat line of game {game_id}")

    async def publish_submission(self, game_id: str, sub: SubmissionData) -> None:
        """Queue the submission's news; it goes out with the others of this turn of the
        loop, in one message (a line a submission)."""
        self._queue(SUBMISSION_CHANNEL, f"{game_id} {sub.round} {sub.seat} {sub.count} {sub.at!r} {self.me} {sub.text}")

    async def hold(self, game_id: str) -> bool:
        return game_id in await self.claim([game_id])

    async def claim(self, game_ids: Iterable[str]) -> set[str]:
        """One round trip (a Lua script, atomic per lease) for every game of a tick,
        whoever holds it: ours are renewed, free ones taken, the others' left alone. A process that holds
        no lease of a game asks once per tick in the batch, not with two calls per game.
        On a Redis error none is counted ours: a game whose lease is in doubt runs no
        clock here."""
        ids = sorted(set(game_ids))
        if not ids:
            return set()
        try:
            flags = await self._claim(keys=[f"lexiko:lease:{gid}" for gid in ids], args=[self.me, LEASE_MS])
        except Exception as e:
            self._trouble(e, f"could not take or renew the leases of {len(ids)} games")
            self._held.difference_update(ids)
            return set()
        ours = {gid for gid, flag in zip(ids, flags, strict=True) if flag}
        self._held.difference_update(gid for gid in ids if gid not in ours)
        self._held.update(ours)
        return ours

    async def release(self, game_id: str) -> None:
        if game_id not in self._held:
            return
        self._held.discard(game_id)
        key = f"lexiko:lease:{game_id}"
        with contextlib.suppress(Exception):
            owner = await self.redis.get(key)
            if owner is not None and owner.decode() == self.me:
                await self.redis.delete(key)
