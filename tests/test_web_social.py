"""What players expect around the moves, over real HTTP and WebSockets: turn numbers and
time used, a banner naming the challenged words and the verdict, the number of
spectators, chat, word lookup, and the end of a game its players abandoned."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from webharness import Connection, Server, board_from_rows, find_phony, move_message, new_game

from lexiko import movegen
from lexiko.lexicon import Lexicon
from lexiko.rules import preset
from lexiko.web.live import LiveGame, Seat
from lexiko.web.services.core import WATCHERS_SECONDS, Core, Settings
from lexiko.web.store import Store

RULES = preset("tournament")
ANN_BOB = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("TWL06")


def players(server: Server, **kw: Any) -> tuple[str, Connection, Connection]:
    gid, tokens = new_game(server.http, seats=ANN_BOB, seed=None, **kw)
    a, b = server.connect(gid, tokens[0]), server.connect(gid, tokens[1])
    on = a.state["turn"]
    return gid, (a if on == 0 else b), (b if on == 0 else a)


def best(state: dict[str, Any], lex: Lexicon) -> Any:
    rack = tuple(RULES.tile_set.parse_token(f) for f in state["rack"])
    return movegen.best_move(
        board_from_rows(state["board"], RULES), rack, lex, RULES, bag_count=state["bag_count"]
    ).move


def test_turn_numbers_time_used_and_a_banner_for_each_challenge(server: Server, lex: Lexicon) -> None:
    gid, p, q = players(server, preset="tournament", options={"time_minutes": 25})  # a clock: time used is shown
    time.sleep(0.4)
    st = p.act(move_message(best(p.state, lex), RULES.tile_set))
    q.wait_version(st["version"])
    first = st["history"][0]
    assert first["turn"] == 1 and first["elapsed"] >= 0.4 and st["banner"] is None
    # q plays a phony; p challenges it off: the banner names the words
    board = board_from_rows(q.state["board"], RULES)
    phony = find_phony(board, tuple(RULES.tile_set.parse_token(f) for f in q.state["rack"]), lex, RULES)
    assert phony is not None
    st = q.act(move_message(phony, RULES.tile_set))
    p.wait_version(st["version"])
    st = p.act({"type": "challenge"})
    banner = st["banner"]
    assert banner["verdict"] == "phony" and banner["words"]
    verb = "is not a word" if len(banner["words"]) == 1 else "are not words"
    phonier = ["Ann", "Bob"][q.seat or 0]
    assert banner["text"] == f"Challenged: {', '.join(banner['words'])} {verb}. {phonier}'s play is taken back."
    assert [h.get("turn") for h in st["history"]] == [1, 2, None]  # the withdrawal is part of turn 2
    # p plays a good word; q challenges and loses a turn: the banner says the words are good
    q.wait_version(st["version"])
    st = p.act(move_message(best(p.state, lex), RULES.tile_set))
    q.wait_version(st["version"])
    st = q.act({"type": "challenge"})
    assert st["banner"]["verdict"] == "good" and st["banner"]["text"].startswith(
        f"Challenged: {', '.join(st['history'][-2]['words'])} "
    )
    assert st["banner"]["text"].endswith(" loses a turn.")


def test_spectators_are_counted_and_chat_reaches_everyone(server: Server) -> None:
    gid, p, q = players(server, preset="casual")
    watcher = server.connect(gid, None)
    assert p.wait_state(lambda s: s["watchers"] == 1)["watchers"] == 1
    p.send({"type": "chat", "text": "  good \u202eluck\u0007 "})
    for c in (p, q, watcher):
        line = c.recv("chat")
        assert (line["from"], line["text"], line["seat"]) == (p.state["players"][p.seat]["name"], "good luck", p.seat)
    watcher.send({"type": "chat", "text": "hi"})
    assert watcher.recv("error")["message"] == "only the players of a game can chat in it"
    time.sleep(0.6)
    q.send({"type": "chat", "text": "x" * 301})
    assert q.recv("error")["message"] == "text is at most 300 characters"
    q.send({"type": "chat", "text": "thanks"})
    assert q.recv("chat")["text"] == "thanks"
    q.send({"type": "chat", "text": "again"})
    assert q.recv("error")["message"] == "one chat message at a time: wait a moment"
    late = server.connect(gid, None)  # a newcomer gets the chat so far
    history = next(m for m in late.messages if m["type"] == "chat-history")
    assert [m["text"] for m in history["messages"]] == ["good luck", "thanks"]
    watcher.close()
    assert p.wait_state(lambda s: s["watchers"] == 1)["watchers"] == 1  # the late one still watches


class Listener:
    """A client of a game that keeps what it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[dict[str, Any]] = []

    def post(self, message: dict[str, Any] | str) -> None:
        self.sent.append(json.loads(message) if isinstance(message, str) else message)


def test_spectators_coming_together_are_told_in_one_state() -> None:
    """Each spectator who came sent every client of the game a whole new state (200
    spectators arriving: 200 states to each of 200 clients); those who come or go
    within `WATCHERS_SECONDS` are now told in one."""

    async def watch() -> tuple[list[int], list[int]]:
        core = Core(Store("sqlite://"), Settings())
        try:
            live = LiveGame("g", preset("casual"), 1, [Seat(0, "human", "Ann"), Seat(1, "human", "Bob")], None)
            live.start(time.time())
            player, spectators = Listener(0), [Listener(None) for _ in range(50)]
            core.subscribe(live, player)
            for s in spectators:
                core.subscribe(live, s)
            await asyncio.sleep(2 * WATCHERS_SECONDS)
            came = [m["watchers"] for m in player.sent if m["type"] == "state"]
            for s in spectators[:20]:
                core.unsubscribe(live, s)
            await asyncio.sleep(2 * WATCHERS_SECONDS)
            went = [m["watchers"] for m in spectators[-1].sent if m["type"] == "state"]
            return came, went
        finally:
            core.close()

    assert asyncio.run(watch()) == ([50], [50, 30])


def test_the_word_judge_opens_when_the_game_ends(server: Server, lex: Lexicon) -> None:
    """During a game no lookup answers, not even for a word on the board: the play
    waiting for a challenge is on the board, and its validity is what a challenge
    decides (the opponent, or a spectator relaying it, would challenge at no risk)."""
    gid, p, q = players(server, preset="casual")
    closed = {"error": "the word judge opens when the game ends"}
    assert server.http.get(f"/api/games/{gid}/lookup", params={"word": "QI"}).json() == closed
    st = p.act(move_message(best(p.state, lex), RULES.tile_set))
    word = st["history"][0]["words"][0]
    assert server.http.get(f"/api/games/{gid}/lookup", params={"word": word.lower()}).json() == closed
    q.wait_version(st["version"])
    q.act({"type": "resign"})
    assert server.http.get(f"/api/games/{gid}/lookup", params={"word": word.lower()}).json()["valid"] is True
    r = server.http.get(f"/api/games/{gid}/lookup", params={"word": "AEINRST"}).json()
    assert r["valid"] is False and {"NASTIER", "RETAINS", "STAINER"} <= set(r["anagrams"])
    assert server.http.get(f"/api/games/{gid}/lookup", params={"word": "A"}).json() == {
        "error": "a word has 2 to 15 letters"
    }


@pytest.mark.slow
def test_a_game_nobody_moves_in_ends_with_the_player_on_turn_losing(tmp_path: Path) -> None:
    server = Server(
        f"sqlite:///{tmp_path / 'games.db'}", abandon_days=1 / 86400, expire_hours=1 / 3600, clock_interval=0.1
    )
    try:
        gid, p, q = players(server, preset="casual")
        st = p.wait_state(lambda s: s["status"] == "over", timeout=15)
        assert st["result"]["reason"] == "time" and st["result"]["winners"] == [q.seat]
    finally:
        server.close()


def test_the_lobby_lists_public_games_only_and_people_get_a_clock(server: Server) -> None:
    private = server.http.post("/api/games", json={"preset": "casual", "seats": ANN_BOB}).json()
    public = server.http.post("/api/games", json={"preset": "casual", "seats": ANN_BOB, "public": True}).json()
    lobby = server.http.get("/api/lobby").json()
    assert [g["id"] for g in lobby["open"]] == [public["game_id"]] and lobby["live"] == []
    assert lobby["open"][0]["join"] == public["invites"][0]["path"]
    assert "time_minutes=25" in lobby["open"][0]["rules"]  # between people: a clock unless asked otherwise
    untimed = server.http.post(
        "/api/games", json={"preset": "casual", "seats": ANN_BOB, "options": {"time_minutes": None}}
    ).json()
    assert "time_minutes" not in server.http.get(f"/api/games/{untimed['game_id']}").json()["rules"]
    solo = server.http.post(
        "/api/games", json={"preset": "casual", "seats": [{"kind": "human", "name": "Ann"}, {"kind": "greedy"}]}
    ).json()
    assert "time_minutes" not in server.http.get(f"/api/games/{solo['game_id']}").json()["rules"]
    # taking the open seat starts the game: it moves to the games to watch
    path = lobby["open"][0]["join"]
    server.http.post(f"/api/games/{public['game_id']}/join", json={"invite": path.rsplit("/", 1)[1], "name": "Bob"})
    lobby = server.http.get("/api/lobby").json()
    assert lobby["open"] == [] and [g["id"] for g in lobby["live"]] == [public["game_id"]]
    assert lobby["live"][0]["scores"] == [0, 0] and private["game_id"] not in str(lobby)
