"""The WebSocket of each game, ``/ws/{id}``: JSON text messages both ways (their models:
`lexiko.web.models`).

The client opens with ``{"type": "hello", "token": TOKEN}`` (no token: watch). The
server answers ``welcome`` then a ``state`` after every change. The client sends actions:
``{"type": "play", "tiles": [{"row": 7, "col": 7, "letter": "A", "blank": false}, ...]}``
(or ``"move": "8D WORD"``), ``{"type": "exchange", "tiles": "AEI"}``, ``{"type": "pass"}``,
``{"type": "challenge"}``, ``{"type": "accept"}``, ``{"type": "resign"}``, ``{"type": "abort"}``
(before the first move), ``{"type": "rematch"}`` (once the game is over: a new game with
the same players, whose id the state's ``rematch`` gives); ``{"type": "preview", "tiles": [...],
"id": N}`` asks for the score of tiles placed but not played; ``{"type": "chat", "text": ...}``
(players only) goes to everyone as ``{"type": "chat", "from": ..., "text": ...}``. A refused
action gets ``{"type": "error", "message": ...}`` and changes nothing. In a duplicate game
``play`` and ``pass`` are the player's move for the round (sent again, it replaces the
first); the state carries a ``duplicate`` object (round, time left, who has played, your
move, the last round).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from lexiko.web.deps import address, rates, service
from lexiko.web.errors import ActionError
from lexiko.web.limits import MAX_MESSAGE, RateLimits, message_cost
from lexiko.web.live import LiveGame
from lexiko.web.models import over_limit
from lexiko.web.service import GameService
from lexiko.web.services.preview import preview
from lexiko.web.views import state_text, to_json

__all__ = ["router", "ACTIONS", "STRIKES"]

log = logging.getLogger("lexiko.web")

T = TypeVar("T")

router = APIRouter()

ACTIONS = frozenset({"play", "exchange", "pass", "challenge", "accept", "resign", "abort", "rematch"})
"""The message types that act on the game (through `lexiko.web.services.games.Games.act`)."""

STRIKES = 50
"""Messages over the rate a connection may send before it is closed (it does not listen)."""


class Connection:
    """One WebSocket client: its seat and a queue of messages sent in order by one task."""

    def __init__(self, ws: WebSocket, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue(maxsize=500)
        self.task = asyncio.create_task(self._send_loop())

    def post(self, message: dict[str, Any] | str) -> None:
        """Queue a message (a dict, or JSON text already serialized) for the client."""
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:  # a client that does not read: let it go
            self.task.cancel()

    async def _send_loop(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                msg = await self.queue.get()
                if msg is None:
                    return
                await self.ws.send_text(msg if isinstance(msg, str) else to_json(msg))

    async def close(self) -> None:
        """Send what is queued (for at most two seconds), then stop."""
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(self.task, timeout=2)


async def receive_text(ws: WebSocket) -> str:
    """The client's next message; a binary frame reads as no text (it is not JSON text,
    and is refused as such). Raises WebSocketDisconnect when the client has gone: its
    goodbye came, or a send to it failed (the socket then counts as disconnected)."""
    if ws.application_state != WebSocketState.CONNECTED:
        raise WebSocketDisconnect(1006)
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else ""


async def refuse(ws: WebSocket, message: str, code: int) -> None:
    """Send a fatal error and close the connection with that code."""
    with contextlib.suppress(Exception):
        await ws.send_text(json.dumps({"type": "error", "message": message, "fatal": True}))
        await ws.close(code=code)


async def _load(ws: WebSocket, game_id: str, step: Awaitable[T]) -> T | None:
    """What ``step`` (the game's loading) gives, or None after refusing the connection
    with the reason."""
    try:
        return await step
    except ActionError as e:
        await refuse(ws, str(e), 4404)
    except Exception:
        log.exception("game %s could not be loaded", game_id)
        await refuse(ws, "the server cannot load this game right now: try again later", 1011)
    return None


async def _hello(ws: WebSocket) -> dict[str, Any] | None:
    """The client's first message (within 30 seconds; one that is not a JSON object
    reads as empty: a spectator's), or None after closing the connection (no message
    in time, or not JSON)."""
    try:
        first = await asyncio.wait_for(receive_text(ws), timeout=30)
        hello = json.loads(first) if len(first) <= MAX_MESSAGE else None
    except (TimeoutError, ValueError, RecursionError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close(code=4400)
        return None
    return hello if isinstance(hello, dict) else {}


def _parse(raw: str) -> dict[str, Any] | str:
    """A client's message as a dict with a ``type`` (and a usable ``id`` or None), or
    the reason it is refused."""
    if len(raw) > MAX_MESSAGE:
        return f"a message is at most {MAX_MESSAGE // 1024} KB"
    try:
        msg = orjson.loads(raw)  # a few times faster than the standard library's on 8 KB
        if not isinstance(msg, dict):
            raise ValueError
    except ValueError:  # orjson's errors are ValueErrors (nesting past 1,024 levels too)
        return "messages must be JSON objects"
    if not isinstance(msg.get("type"), str):
        return 'a message needs a "type" that is text'
    if not isinstance(msg.get("id"), int | str | None) or len(str(msg.get("id"))) > 64:
        msg["id"] = None
    return msg


async def _handle(svc: GameService, live: LiveGame, conn: Connection, msg: dict[str, Any]) -> None:
    """Carry out one message of the client (a refusal is answered, never raised)."""
    kind = msg["type"]
    try:
        if kind == "preview":
            conn.post(preview(live, conn.seat, msg))
        elif kind in ACTIONS:
            await svc.games.act(live, conn.seat, msg)
        elif kind == "state":
            conn.post(state_text(live, conn.seat))
        elif kind == "chat":
            await svc.chat.say(live, conn.seat, msg)
        elif kind == "ping":
            conn.post({"type": "pong", "id": msg.get("id")})
        else:
            conn.post({"type": "error", "message": f"unknown message type {kind!r}"})
    except ActionError as e:
        conn.post({"type": "error", "message": str(e), "action": kind, "id": msg.get("id")})
    except Exception:
        log.exception("game %s: %s failed", live.id, kind)
        conn.post(
            {
                "type": "error",
                "message": "internal error: the action was not carried out",
                "action": kind,
                "id": msg.get("id"),
            }
        )


async def _serve(ws: WebSocket, svc: GameService, budget: RateLimits, live: LiveGame, conn: Connection) -> None:
    """Answer the client's messages until it goes (or floods and is let go). Each
    message costs its budget (its seat's, shared by the seat's connections, or a
    spectator connection's): one on arrival, before it is read, and the rest of its
    kind's cost (`lexiko.web.limits.message_cost`) once its fields are found within
    their caps (`lexiko.web.models.over_limit`), before any work."""
    # a seat's connections share one budget (more sockets buy no more); a spectator's
    # connection has its own, smaller one
    watcher = conn.seat is None
    me = f"watch:{id(conn)}" if watcher else f"seat:{live.id}:{conn.seat}"
    strikes = 0

    async def over_budget() -> bool:
        """Count a message over the budget; True when the connection is to be closed."""
        nonlocal strikes
        strikes += 1
        if strikes > STRIKES:  # it does not listen: let it go
            await refuse(ws, "too many messages: the connection is closed", 1008)
            return True
        conn.post({"type": "error", "message": "too many messages: slow down"})
        return False

    try:
        while True:
            raw = await receive_text(ws)
            if not budget.message(me, watcher=watcher):
                if await over_budget():
                    break
                continue
            msg = _parse(raw)
            if isinstance(msg, str):
                conn.post({"type": "error", "message": msg})
                continue
            kind = msg["type"]
            too_big = over_limit(msg)
            if too_big is not None:
                conn.post({"type": "error", "message": too_big, "action": kind, "id": msg.get("id")})
                continue
            if message_cost(kind) > 1 and not budget.message(me, message_cost(kind) - 1, watcher=watcher):
                if await over_budget():
                    break
                continue
            await _handle(svc, live, conn, msg)
            # let the other connections' messages go next: a connection whose messages
            # are waiting would otherwise have them all answered in one go (receiving a
            # waiting message does not yield), and every other game would wait for them
            await asyncio.sleep(0)
    except WebSocketDisconnect:
        pass
    finally:
        if watcher:
            budget.forget(me)


@router.websocket("/ws/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    """A client of the game: a player (its ``hello`` holds the seat's token) or a spectator."""
    try:
        await ws.accept()
    except (OSError, WebSocketDisconnect):
        return  # gone before the handshake ended
    svc, budget = service(ws), rates(ws)
    if not await budget.connection(address(ws)):
        await refuse(ws, "too many connections from your address: wait a minute", 4429)
        return
    if await _load(ws, game_id, svc.loader.get(game_id)) is None:
        return
    hello = await _hello(ws)
    if hello is None:
        return
    token = hello.get("token")
    too_big = over_limit({"type": "hello", "token": token}) if isinstance(token, str) else None
    if too_big is not None:  # no lookup for a key no seat can have
        await refuse(ws, too_big, 4400)
        return
    # again: an idle game may have been let go meanwhile; and as the database has it
    # (its copy here may not have heard yet of a seat or a move made on another process)
    found = await _load(ws, game_id, svc.loader.game_and_seat(game_id, token))
    if found is None:
        return
    live, seat = found
    conn = Connection(ws, seat)
    if token and seat is None:
        conn.post(
            {"type": "error", "message": "this link's key does not belong to a player of this game: you are watching"}
        )
    conn.post({"type": "welcome", "seat": seat, "name": live.seats[seat].name if seat is not None else None})
    await svc.ratings.seen(live, seat, address(ws))
    svc.core.subscribe(live, conn)
    conn.post(state_text(live, seat))
    try:
        await _serve(ws, svc, budget, live, conn)
    finally:
        svc.core.unsubscribe(live, conn)
        await conn.close()
