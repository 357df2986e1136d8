"""What one client may ask of the server (lexiko.web.limits), over real HTTP and
WebSockets: message and body sizes, rates, malformed JSON, games nobody joined, rule
values and names. Each test failed before its limit existed."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from webharness import Connection, Server, new_game
from websockets.exceptions import ConnectionClosed

from lexiko.rules import Rules
from lexiko.web.limits import Limits


def a_game(server: Server) -> tuple[str, Connection]:
    gid, tokens = new_game(
        server.http,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        preset="casual",
        seed=None,
    )
    return gid, server.connect(gid, tokens[0])


def test_big_and_malformed_messages_are_answered_and_the_connection_goes_on(server: Server) -> None:
    gid, ann = a_game(server)
    ann.send({"type": "exchange", "tiles": ["A"] * 5000})  # ~25 KB
    assert ann.recv("error")["message"] == "a message is at most 8 KB"
    for bad in ({"type": ["play"]}, {"type": {"a": 1}}, {"type": 7}):
        ann.send(bad)
        assert ann.recv("error")["message"] == 'a message needs a "type" that is text'
    ann.ws.send("[" * 4000 + "]" * 4000)  # nested too deep to read
    assert ann.recv("error")["message"] == "messages must be JSON objects"
    ann.send({"type": "ping", "id": {"x": [1, 2]}})  # an id is echoed only if it is a number or short text
    assert ann.recv("pong") == {"type": "pong", "id": None}
    ann.send({"type": "ping", "id": 5})
    assert ann.recv("pong") == {"type": "pong", "id": 5}
    # a frame over 64 KB is not even read: the connection is closed
    ann.ws.send("x" * (65 * 1024))
    with pytest.raises(ConnectionClosed):
        for _ in range(5):
            ann.ws.recv(timeout=5)


def test_a_flooding_connection_is_slowed_then_closed_and_others_play_on(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", limits=Limits(messages="20/second"))
    try:
        _, flood = a_game(server)
        gid, other = a_game(server)
        for i in range(25):  # over the rate: answered, dropped, the connection stays
            flood.send({"type": "ping", "id": i})
        answers = [flood.recv() for _ in range(25)]
        assert [a["id"] for a in answers if a["type"] == "pong"] == list(range(20))
        assert [a["message"] for a in answers if a["type"] == "error"] == ["too many messages: slow down"] * 5
        with contextlib.suppress(ConnectionClosed):  # it does not stop: the server closes the connection
            for i in range(2000):
                flood.send({"type": "ping", "id": i})
        errors = []
        with pytest.raises(ConnectionClosed):
            while True:
                msg = json.loads(flood.ws.recv(timeout=30))
                if msg["type"] == "error":
                    errors.append(msg["message"])
        assert errors[-1] == "too many messages: the connection is closed"
        t = time.perf_counter()
        other.send({"type": "ping", "id": 1})
        assert other.recv("pong")["id"] == 1 and time.perf_counter() - t < 1.0
    finally:
        server.close()


def _pings(conn: Connection, n: int) -> tuple[int, int]:
    """Send ``n`` pings at once: how many were answered, how many refused."""
    for i in range(n):
        conn.send({"type": "ping", "id": i})
    answers = [conn.recv() for _ in range(n)]
    pongs = sum(1 for a in answers if a["type"] == "pong")
    refused = sum(1 for a in answers if a.get("message") == "too many messages: slow down")
    return pongs, refused


def test_a_seat_s_connections_share_one_budget_and_a_spectator_has_a_smaller_one(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", limits=Limits(messages="20/second"))
    try:
        gid, tokens = new_game(
            server.http,
            seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            preset="casual",
            seed=None,
        )
        first, second = server.connect(gid, tokens[0]), server.connect(gid, tokens[0])
        watcher = server.connect(gid, None)
        assert _pings(first, 15) == (15, 0)
        assert _pings(second, 15) == (5, 10)  # a second socket of the seat buys no more
        assert _pings(server.connect(gid, tokens[1]), 15) == (15, 0)  # the other seat has its own
        assert Limits().watcher_messages == "12/second"
        assert _pings(watcher, 15) == (12, 3)
    finally:
        server.close()


def test_request_bodies_are_capped(server: Server) -> None:
    huge = {"preset": "casual", "seats": [{"kind": "human", "name": "Ann"}], "options": {"x": "y" * 100_000}}
    r = server.http.post("/api/games", json=huge)
    assert (r.status_code, r.json()) == (413, {"error": "the request is too large (at most 64 KB)"})

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while read
        yield b'{"preset": "casual", "options": {"x": "'
        for _ in range(100):
            yield b"y" * 1024
        yield b'"}, "seats": []}'

    r = server.http.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert (r.status_code, r.json()) == (413, {"error": "the request is too large (at most 64 KB)"})


def test_games_requests_and_connections_per_address(tmp_path: Path) -> None:
    server = Server(
        f"sqlite:///{tmp_path / 'games.db'}",
        limits=Limits(games="2/hour", connections="3/minute", requests="12/minute"),
    )
    try:
        gid, tokens = new_game(
            server.http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "greedy"}], preset="casual", seed=None
        )
        new_game(server.http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "greedy"}], preset="casual", seed=None)
        r = server.http.post(
            "/api/games", json={"preset": "casual", "seats": [{"kind": "human", "name": "A"}, {"kind": "greedy"}]}
        )
        assert (r.status_code, r.json()) == (
            429,
            {"error": "too many new games from your address (at most 2/hour): wait, or play the ones you have"},
        )
        for _ in range(3):
            server.connect(gid, tokens[0])
        from websockets.sync.client import connect

        with connect(f"{server.ts.ws_url}/ws/{gid}") as ws:  # the fourth is refused, saying why
            assert json.loads(ws.recv(timeout=5)) == {
                "type": "error",
                "message": "too many connections from your address: wait a minute",
                "fatal": True,
            }
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=5)
        codes = [server.http.get(f"/api/games/{gid}").status_code for _ in range(12)]
        assert codes[-1] == 429 and codes[0] == 200
        assert server.http.get(f"/api/games/{gid}").json() == {
            "error": "too many requests from your address: wait a minute"
        }
        assert server.http.get("/").status_code == 200  # pages are not counted
    finally:
        server.close()


@pytest.mark.slow
def test_games_nobody_joins_expire(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", expire_hours=1 / 3600, clock_interval=0.1)
    try:
        r = server.http.post(
            "/api/games", json={"preset": "casual", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]}
        )
        gid = r.json()["game_id"]
        assert server.http.get(f"/api/games/{gid}").json()["status"] == "waiting"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and server.http.get(f"/api/games/{gid}").status_code == 200:
            time.sleep(0.2)
        assert server.http.get(f"/api/games/{gid}").json() == {"error": "no such game"}
        # a game that started is kept
        gid, _ = new_game(
            server.http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "greedy"}], preset="casual", seed=None
        )
        time.sleep(2.5)
        assert server.http.get(f"/api/games/{gid}").json()["status"] == "active"
    finally:
        server.close()


def test_rule_values_are_range_checked() -> None:
    with pytest.raises(ValueError, match=r"^bingo_bonus must be 0 or more, not -1000$"):
        Rules(bingo_bonus=-1000)
    with pytest.raises(ValueError, match=r"^challenge_points must be 0 or more, not -50$"):
        Rules(challenge_points=-50)
    with pytest.raises(ValueError, match=r"^target_score must be 0 or more \(or None\), not -1$"):
        Rules(target_score=-1)


def test_names_are_normalised_and_look_alikes_refused(server: Server) -> None:
    def create(*names: str) -> httpx.Response:
        seats = [{"kind": "human", "name": n} for n in names]
        return server.http.post("/api/games", json={"preset": "casual", "seats": seats})

    r = create("Ａｎｎ", "Bob")  # full-width letters: NFKC makes them ordinary
    assert r.status_code == 200
    info = server.http.get(f"/api/games/{r.json()['game_id']}").json()
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bob"]
    assert create("\u202eAnn", "Bob").json() == {
        "error": "a name may not hold invisible or direction-changing characters"
    }
    assert create("Ann", "\u0410nn").json() == {
        "error": "two players' names look alike (Ann, \u0410nn): choose another"
    }
    # joining with a look-alike of a name in the game
    r = server.http.post(
        "/api/games", json={"preset": "casual", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"}]}
    )
    gid, path = r.json()["game_id"], r.json()["invites"][0]["path"]
    j = server.http.post(f"/api/games/{gid}/join", json={"invite": path.rsplit("/", 1)[1], "name": "\u0410nn"})
    assert j.json() == {"error": "two players' names look alike (Ann, \u0410nn): choose another"}


def test_the_api_docs_are_off_unless_asked_for(server: Server, tmp_path: Path) -> None:
    assert server.http.get("/api/docs").status_code == 404
    other = Server(f"sqlite:///{tmp_path / 'other.db'}", api_docs=True)
    try:
        assert other.http.get("/api/docs").status_code == 200
    finally:
        other.close()


class Work:
    """Counts the calls into the game's work (acting, chat, previews) of a server."""

    def __init__(self, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
        from lexiko.web.routers import socket

        self.calls: list[str] = []
        app: Any = server.ts.server.config.app
        svc = app.state.service
        for name, owner, attr in (("act", svc.games, "act"), ("chat", svc.chat, "say"), ("preview", socket, "preview")):
            monkeypatch.setattr(owner, attr, self._counting(name, getattr(owner, attr)))

    def _counting(self, name: str, f: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return f(*args, **kwargs)

        return counted


def test_every_field_is_capped_before_any_work(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, ann = a_game(server)
    work = Work(server, monkeypatch)
    tile: dict[str, Any] = {"row": 7, "col": 7, "letter": "A", "blank": False}
    refused: dict[str, dict[str, Any]] = {
        "move is at most 64 characters": {"type": "play", "move": "8D " + "A" * 62},
        "tiles is at most 40 characters": {"type": "exchange", "tiles": "A" * 41},
        "text is at most 300 characters": {"type": "chat", "text": "\ufdfa" * 301},
        "tiles has at most 21 items": {"type": "play", "tiles": [tile] * 22},
        "tiles.0.letter is at most 8 characters": {"type": "preview", "tiles": [{**tile, "letter": "A" * 9}]},
        "tiles.0.row is at most 64": {"type": "preview", "tiles": [{**tile, "row": 10**6}]},
    }
    for message, sent in refused.items():
        ann.send({**sent, "id": 9})
        assert ann.recv("error") == {"type": "error", "message": message, "action": sent["type"], "id": 9}
    assert work.calls == []
    ann.send({"type": "chat", "text": "x" * 300})  # at the limit: carried out
    assert ann.recv("chat")["text"] == "x" * 300
    assert work.calls == ["chat"]


def test_a_flood_of_the_largest_messages_gets_its_budget_and_no_more(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, ann = a_game(server)
    work = Work(server, monkeypatch)
    ann.send({"type": "ping", "id": "warm"})  # the window starts
    assert ann.recv("pong")["id"] == "warm"
    largest = {"type": "play", "move": "8D " + "Q" * 61}  # 64 characters: within the cap, not a word
    for i in range(20):
        ann.send({**largest, "id": i})
    answers = [ann.recv("error") for _ in range(20)]
    slowed = [a for a in answers if a["message"] == "too many messages: slow down"]
    assert Limits().messages == "60/second"
    # 60 a second, a ping costs 1 and a play 5: 11 plays, and the 9 others are refused unread
    assert (len(answers) - len(slowed), len(slowed)) == (11, 9)
    assert work.calls == ["act"] * 11


def test_an_over_long_hello_token_is_refused_before_any_lookup(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, _ann = a_game(server)
    app: Any = server.ts.server.config.app
    loader = app.state.service.loader
    looked: list[str | None] = []
    game_and_seat = loader.game_and_seat

    def counted(game_id: str, token: str | None) -> Any:
        looked.append(token)
        return game_and_seat(game_id, token)

    monkeypatch.setattr(loader, "game_and_seat", counted)
    from websockets.sync.client import connect

    with connect(f"{server.ts.ws_url}/ws/{gid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": "t" * 129}))
        assert json.loads(ws.recv(timeout=5)) == {
            "type": "error",
            "message": "token is at most 128 characters",
            "fatal": True,
        }
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
    assert looked == []
    watcher = server.connect(gid, "t" * 128)  # at the limit: looked up (a key of no seat: watching)
    assert watcher.seat is None and watcher.messages[0]["message"].startswith("this link's key does not belong")
    assert looked == ["t" * 128]
