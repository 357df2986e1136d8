"""What one client may ask of the server, so that no client can freeze the others.

- A WebSocket message is at most :data:`MAX_MESSAGE` bytes (a move is a few hundred),
  answered with an error before it is parsed; the server (uvicorn) drops a frame over
  :data:`MAX_FRAME` with the connection.
- An HTTP request body is at most :data:`MAX_BODY` bytes (413 with a JSON message,
  before any of it is parsed).
- Rates, counted with the ``limits`` library (moving windows, in memory): messages per
  connection, connections and API requests per address, and games created per address.
  A message over its rate is answered with an error and dropped; a connection that
  keeps flooding is closed.

>>> rl = RateLimits(Limits(messages="3/second"))
>>> [rl.message("conn-1") for _ in range(4)]
[True, True, True, False]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

__all__ = ["MAX_MESSAGE", "MAX_FRAME", "MAX_BODY", "Limits", "RateLimits", "BodyLimit"]

MAX_MESSAGE = 8 * 1024
"""Largest WebSocket message the game answers (bytes of text)."""

MAX_FRAME = 64 * 1024
"""Largest WebSocket frame the server reads at all (bigger: the connection is closed)."""

MAX_BODY = 64 * 1024
"""Largest HTTP request body (a new game's request is well under 2 KB)."""


@dataclass(frozen=True)
class Limits:
    """Rates in the ``limits`` notation (``"30/second"``, ``"20/hour"``); None: no limit."""

    messages: str | None = "30/second"
    connections: str | None = "60/minute"
    requests: str | None = "600/minute"
    games: str | None = "30/hour"
    signins: str | None = "10/minute"


class RateLimits:
    """Counters for one server process."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._items: dict[str, RateLimitItem | None] = {
            name: parse(rate) if rate else None
            for name, rate in (("messages", self.limits.messages), ("connections", self.limits.connections),
                               ("requests", self.limits.requests), ("games", self.limits.games),
                               ("signins", self.limits.signins))
        }

    def _hit(self, what: str, key: str) -> bool:
        item = self._items[what]
        return item is None or self._limiter.hit(item, what, key)

    def message(self, connection: str) -> bool:
        """May this connection send one more message now?"""
        return self._hit("messages", connection)

    def connection(self, address: str) -> bool:
        """May this address open one more WebSocket now?"""
        return self._hit("connections", address)

    def request(self, address: str) -> bool:
        """May this address make one more API request now?"""
        return self._hit("requests", address)

    def game(self, address: str) -> bool:
        """May this address create one more game now?"""
        return self._hit("games", address)

    def signin(self, address: str) -> bool:
        """May this address try one more sign-in or sign-up now?"""
        return self._hit("signins", address)


def _json_response(status: int, message: str) -> tuple[dict[str, Any], dict[str, Any]]:
    body = json.dumps({"error": message}).encode()
    start = {"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]}
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
            if not self.rates.request(str(client[0])):
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
