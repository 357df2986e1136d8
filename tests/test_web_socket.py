"""The game socket when its client goes away: the app, driven as the ASGI server drives it,
ends the connection quietly, without an exception for the server to log."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest

from lexiko.web.server import create_app


class _ClientGone(OSError):
    """What the ASGI server raises on a send to a client whose connection has closed."""


async def _new_game(app: Any) -> tuple[str, str]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://lexiko.test") as http:
        r = await http.post(
            "/api/games",
            json={"preset": "casual", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "greedy"}], "seed": 4},
        )
        assert r.status_code == 200, r.text
        data = r.json()
        return data["game_id"], data["token"]


def _scope(path: str) -> dict[str, Any]:
    return {
        "type": "websocket",
        "asgi": {"version": "3.0"},
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "scheme": "ws",
        "subprotocols": [],
        "root_path": "",
        "state": {},
    }


def test_a_client_gone_in_the_middle_of_a_send_ends_its_connection_quietly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The client's connection breaks while the server sends it the state (the send
    fails); then a message it sent before going arrives. Reading on must end the
    connection, not raise (which the ASGI server logs as a traceback)."""
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", lexicons=["TWL06"])
    sent: list[dict[str, Any]] = []
    broken = asyncio.Event()

    async def run() -> None:
        async with app.router.lifespan_context(app):
            game_id, token = await _new_game(app)
            inbox: list[dict[str, Any]] = [
                {"type": "websocket.connect"},
                {"type": "websocket.receive", "text": json.dumps({"type": "hello", "token": token})},
            ]

            async def receive() -> dict[str, Any]:
                if inbox:
                    return inbox.pop(0)
                await broken.wait()  # a message the client sent before its connection broke
                inbox.append({"type": "websocket.disconnect", "code": 1006})
                return {"type": "websocket.receive", "text": json.dumps({"type": "ping", "id": 1})}

            async def send(message: dict[str, Any]) -> None:
                if message["type"] == "websocket.send":
                    broken.set()
                    raise _ClientGone("the client's connection is closed")
                sent.append(message)

            await asyncio.wait_for(app(_scope(f"/ws/{game_id}"), receive, send), timeout=20)

    with caplog.at_level(logging.WARNING):
        asyncio.run(run())
    assert [m["type"] for m in sent] == ["websocket.accept"]
    assert broken.is_set()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


@pytest.mark.parametrize("first", [False, True])
def test_a_binary_frame_is_refused_as_any_message_that_is_not_json_text(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, first: bool
) -> None:
    """A binary frame (the page never sends one) gets the refusal of a message that is
    not JSON (as ``hello``: the connection is closed), not an exception."""
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", lexicons=["TWL06"])
    sent: list[dict[str, Any]] = []

    async def run() -> None:
        async with app.router.lifespan_context(app):
            game_id, token = await _new_game(app)
            hello = {"type": "websocket.receive", "text": json.dumps({"type": "hello", "token": token})}
            binary = {"type": "websocket.receive", "bytes": b"\x00{}"}
            inbox: list[dict[str, Any]] = [
                {"type": "websocket.connect"},
                *([binary] if first else [hello, binary]),
                {"type": "websocket.receive", "text": json.dumps({"type": "ping", "id": 2})},
                {"type": "websocket.disconnect", "code": 1000},
            ]

            async def receive() -> dict[str, Any]:
                return inbox.pop(0)

            async def send(message: dict[str, Any]) -> None:
                sent.append(message)

            await asyncio.wait_for(app(_scope(f"/ws/{game_id}"), receive, send), timeout=20)

    with caplog.at_level(logging.WARNING):
        asyncio.run(run())
    texts = [json.loads(m["text"]) for m in sent if m["type"] == "websocket.send"]
    if first:
        assert texts == []
        assert sent[-1]["type"] == "websocket.close" and sent[-1]["code"] == 4400
    else:
        kinds = [t["type"] for t in texts]
        assert kinds == ["welcome", "state", "error", "pong"]
        assert texts[2]["message"] == "messages must be JSON objects"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
