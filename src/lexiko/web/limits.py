"""What one client may ask of the server, so that no client can freeze the others.

- A WebSocket message is at most `MAX_MESSAGE` bytes (a move is a few hundred),
  answered with an error before it is parsed; the server (uvicorn) drops a frame over
  `MAX_FRAME` with the connection.
- An HTTP request body is at most `MAX_BODY` bytes (413 with a JSON message,
  before any of it is parsed).
- Every field of a client's message is capped by what it can be (`lexiko.web.models`:
  a move a board line, an exchange a rack, a chat line 300 characters), checked before
  any work: a message over a cap is answered with the field and its limit.
- Rates: messages per seat (all of a player's connections share one budget: opening
  more sockets buys no more) and per spectator's connection (a smaller budget: a
  spectator only asks for states and pings), connections and API requests per address,
  games created per address and sign-ins per address. Messages are counted by their
  cost (`MESSAGE_COSTS`: a play, an exchange or a state costs what its work does, 5
  pings), so the budgets ``messages`` and ``watcher_messages`` are in pings a second. A
  message over its rate is answered with an error and dropped; a connection that keeps
  flooding is closed.

Where the counts live: messages per seat and per spectator's connection always in the
process's memory (a game's sockets are served by one process), as a fixed window per
budget (the ``limits`` library's memory storage scans every key a hundred times a
second, which with hundreds of connections cost more than the messages themselves). The rates per
address are counted with the ``limits`` library (moving windows): in the process's
memory with one process; in shared mode (``redis_url``) in Redis, by the library's own
asyncio Redis storage, so an address has one budget however many processes its
requests reach (otherwise N processes would grant N times the rate). Should Redis stop
answering, the counts per address fail open: the request is let through uncounted and
a warning logged, rather than refused or answered with an internal error (Redis is
not asked again for `REDIS_PAUSE` seconds, so an outage does not slow every
request by a timeout).

>>> rl = RateLimits(Limits(messages="3/second"))
>>> [rl.message("conn-1") for _ in range(4)]
[True, True, True, False]
>>> rl.message("conn-2", MESSAGE_COSTS["play"])  # over the budget at once: refused
False
>>> rl.message("watcher-1", MESSAGE_COSTS["state"], watcher=True)  # a spectator's budget: 12
True
>>> rl.forget("conn-1")  # the connection closed
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage as AsyncMemoryStorage
from limits.aio.storage import Storage as AsyncStorage
from limits.aio.strategies import MovingWindowRateLimiter as AsyncMovingWindowRateLimiter
from limits.errors import StorageError

__all__ = [
    "MESSAGE_COSTS",
    "message_cost",
    "MAX_MESSAGE",
    "MAX_FRAME",
    "MAX_BODY",
    "REDIS_PAUSE",
    "Limits",
    "RateLimits",
    "BodyLimit",
]

log = logging.getLogger("lexiko.web")

MAX_MESSAGE = 8 * 1024
"""Largest WebSocket message the game answers (bytes of text)."""

MAX_FRAME = 64 * 1024
"""Largest WebSocket frame the server reads at all (bigger: the connection is closed)."""

MAX_BODY = 64 * 1024
"""Largest HTTP request body (a new game's request is well under 2 KB)."""

MESSAGE_COSTS: dict[str, int] = {
    "ping": 1,
    "pass": 2,
    "challenge": 3,
    "accept": 2,
    "resign": 2,
    "abort": 2,
    "rematch": 3,
    "chat": 3,
    "preview": 3,
    "state": 5,
    "play": 5,
    "exchange": 5,
}
"""What each kind of message costs its budget (its seat's or its connection's), in pings (an unknown kind
costs 1: it is refused at once). Measured on an 8 KB message before the caps: exchange
23.8 ms, chat 22.4 ms, play 12.8 ms, ping 0.7 ms; with the fields capped a play, an
exchange or a state (a whole state built and sent) cost a few milliseconds, a preview or
a chat line about one."""


def message_cost(kind: str) -> int:
    """What a message of that kind costs its budget.

    >>> message_cost("play"), message_cost("ping"), message_cost("shout")
    (5, 1, 1)
    """
    return MESSAGE_COSTS.get(kind, 1)


PRUNE_AT = 10_000
"""Budgets kept in memory before the ended ones are dropped."""

REDIS_PAUSE = 5.0
"""Seconds the counts per address go uncounted after Redis failed to answer, before
Redis is asked again."""

REDIS_TIMEOUT = 0.5
"""Seconds a request waits for Redis to count it (it answers in well under a
millisecond when it is up) before it is let through uncounted."""

_ASYNC_SCHEMES = {"redis": "async+redis", "rediss": "async+rediss", "unix": "async+redis+unix"}


@dataclass(frozen=True)
class Limits:
    """Rates in the ``limits`` notation (``"30/second"``, ``"20/hour"``); None: no limit."""

    messages: str | None = "60/second"
    watcher_messages: str | None = "12/second"
    connections: str | None = "60/minute"
    requests: str | None = "600/minute"
    games: str | None = "30/hour"
    signins: str | None = "10/minute"


class RateLimits:
    """The counters of one server process: messages per seat and per spectator's
    connection in its memory; the counts per address in its memory too, or with
    ``redis_url`` in Redis, shared with every process using that Redis (see the
    module's description)."""

    def __init__(self, limits: Limits | None = None, *, redis_url: str | None = None) -> None:
        self.limits = limits or Limits()
        self.redis_url = redis_url
        self._windows: dict[str, tuple[float, int]] = {}  # connection -> (window's start, messages in it)
        self._pool: Any = None
        storage: AsyncStorage
        if redis_url:
            import redis.asyncio as redis
            from limits.aio.storage import RedisStorage

            scheme, sep, rest = redis_url.partition("://")
            if not sep or scheme not in _ASYNC_SCHEMES:
                raise ValueError(f"a Redis URL starts with redis://, rediss:// or unix://, not {redis_url!r}")
            # the connection pool is ours (its timeouts, closed by close()); the storage
            # and its scripts are the limits library's
            self._pool = redis.ConnectionPool.from_url(
                redis_url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
            )
            storage = RedisStorage(
                f"{_ASYNC_SCHEMES[scheme]}://{rest}",
                wrap_exceptions=True,
                implementation="redispy",
                key_prefix="lexiko:limits",
                connection_pool=self._pool,
            )
        else:
            storage = AsyncMemoryStorage()
        self._shared = AsyncMovingWindowRateLimiter(storage)
        self._down_until = 0.0  # monotonic time before which Redis is not asked (it failed)
        self._items: dict[str, RateLimitItem | None] = {
            name: parse(rate) if rate else None
            for name, rate in (
                ("messages", self.limits.messages),
                ("watcher_messages", self.limits.watcher_messages),
                ("connections", self.limits.connections),
                ("requests", self.limits.requests),
                ("games", self.limits.games),
                ("signins", self.limits.signins),
            )
        }

    async def _hit(self, what: str, key: str) -> bool:
        """Count one ``what`` for ``key`` in the counts per address; False when over the
        rate. Redis not answering lets it through (fail open), with a warning."""
        item = self._items[what]
        if item is None or time.monotonic() < self._down_until:
            return True
        try:
            allowed = await self._shared.hit(item, what, key)
        except StorageError as e:
            if not self._down_until:
                log.warning(
                    "rate limits: Redis at %s does not answer (%s): the counts per address are not kept until it does",
                    self.redis_url,
                    e.storage_error,
                )
            self._down_until = time.monotonic() + REDIS_PAUSE
            return True
        if self._down_until:
            log.warning("rate limits: Redis at %s answers again: the counts per address are kept", self.redis_url)
            self._down_until = 0.0
        return allowed

    def message(self, key: str, cost: int = 1, *, watcher: bool = False) -> bool:
        """May this budget (a seat's, or with ``watcher`` a spectator connection's)
        spend ``cost`` more now (a message's cost, `message_cost`)? Counted in this
        process, in windows of the rate's period from the budget's first message in each;
        a refused message spends nothing."""
        item = self._items["watcher_messages" if watcher else "messages"]
        if item is None:
            return True
        now = time.monotonic()
        start, count = self._windows.get(key, (now, 0))
        if now - start >= item.get_expiry():
            start, count = now, 0
        if count + cost > item.amount:
            return False
        if len(self._windows) >= PRUNE_AT and key not in self._windows:
            self._prune(now)
        self._windows[key] = (start, count + cost)
        return True

    def _prune(self, now: float) -> None:
        """Drop the windows that have ended (the seats' budgets are kept past their
        connections, which share them)."""
        longest = max((i.get_expiry() for i in self._items.values() if i is not None), default=0)
        self._windows = {k: w for k, w in self._windows.items() if now - w[0] < longest}

    def forget(self, key: str) -> None:
        """Drop a closed spectator connection's count."""
        self._windows.pop(key, None)

    async def connection(self, address: str) -> bool:
        """May this address open one more WebSocket now?"""
        return await self._hit("connections", address)

    async def request(self, address: str) -> bool:
        """May this address make one more API request now?"""
        return await self._hit("requests", address)

    async def game(self, address: str) -> bool:
        """May this address create one more game now?"""
        return await self._hit("games", address)

    async def signin(self, address: str) -> bool:
        """May this address try one more sign-in or sign-up now?"""
        return await self._hit("signins", address)

    async def close(self) -> None:
        """Close the connections to Redis, if any (at the end of the app's life)."""
        if self._pool is not None:
            await self._pool.aclose()


def _json_response(status: int, message: str) -> tuple[dict[str, Any], dict[str, Any]]:
    body = json.dumps({"error": message}).encode()
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
    }
    return start, {"type": "http.response.body", "body": body}


class BodyLimit:
    """ASGI middleware: a request body over ``max_body`` bytes is refused with 413
    (by its Content-Length at once, or as soon as the bytes read pass the limit), and an
    address over its request rate gets 429; neither is read further."""

    def __init__(self, app: Any, *, max_body: int = MAX_BODY, rates: RateLimits | None = None) -> None:
        self.app = app
        self.max_body = max_body
        self.rates = rates

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        if self.rates is not None and path.startswith("/api/"):
            client = scope.get("client") or ("?", 0)
            if not await self.rates.request(str(client[0])):
                for m in _json_response(429, "too many requests from your address: wait a minute"):
                    await send(m)
                return
        length = dict(scope.get("headers") or []).get(b"content-length")
        too_big = f"the request is too large (at most {self.max_body // 1024} KB)"
        if length is not None and length.isdigit() and int(length) > self.max_body:
            for m in _json_response(413, too_big):
                await send(m)
            return
        # read the body here, counting (a body without a length is refused as soon as it
        # passes the limit), then hand it on: it is small
        messages: list[Any] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                messages.append(message)
                break
            seen += len(message.get("body", b""))
            if seen > self.max_body:
                for m in _json_response(413, too_big):
                    await send(m)
                return
            messages.append(message)
            if not message.get("more_body"):
                break
        queue = iter(messages)

        async def replay() -> Any:
            nxt = next(queue, None)
            return nxt if nxt is not None else await receive()

        await self.app(scope, replay, send)
