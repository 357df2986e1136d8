"""Ratings cannot be farmed (issue 34, item 2): a game between two accounts rates only
after a minimum of play by both, only the first few rated games of a pairing in a day
count, and two accounts playing from one address are not rated; the page says why."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from webharness import Connection, Server, board_from_rows, move_message

from lexiko import movegen
from lexiko.lexicon import Lexicon
from lexiko.move import Place
from lexiko.movegen import Candidate
from lexiko.rules import preset
from lexiko.web.live import LiveGame, Seat
from lexiko.web.services.core import Core, Settings
from lexiko.web.services.ratings import MIN_TURNS, REPEAT_LIMIT, Ratings, unrated_reason
from lexiko.web.store import SeatSpec, Store, address_digest

ANN_ADDRESS = {"X-Forwarded-For": "203.0.113.5"}
BOB_ADDRESS = {"X-Forwarded-For": "198.51.100.7"}


def sign_up(http: httpx.Client, name: str) -> dict[str, Any]:
    r = http.post("/api/accounts", json={"name": name, "password": "correct horse"})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def game_between(server: Server, bob_headers: dict[str, str] = BOB_ADDRESS) -> tuple[Connection, Connection]:
    """A new game between the accounts Ann and Bob, both connected."""
    ann, bob = server.client(), server.client()
    a, b = sign_up(ann, "Ann"), sign_up(bob, "Bob")
    game = ann.post(
        "/api/games",
        headers={"X-CSRF-Token": a["csrf"]},
        json={"preset": "casual", "seats": [{"kind": "human"}, {"kind": "human"}]},
    ).json()
    invite = game["invites"][0]["path"].rsplit("/", 1)[1]
    j = bob.post(
        f"/api/games/{game['game_id']}/join", headers={"X-CSRF-Token": b["csrf"]}, json={"invite": invite, "name": "x"}
    ).json()
    ca = server.connect(game["game_id"], game["token"], headers=ANN_ADDRESS)
    cb = server.connect(game["game_id"], j["token"], headers=bob_headers)
    ca.wait_state(lambda s: s["status"] == "active")
    cb.wait_state(lambda s: s["status"] == "active")
    return ca, cb


def rematch(
    server: Server, ca: Connection, cb: Connection, bob_headers: dict[str, str] = BOB_ADDRESS
) -> tuple[Connection, Connection]:
    """The rematch of a finished game, both players connected to it."""
    st = ca.act({"type": "rematch"})
    new_id = st["rematch"]
    assert new_id
    na = server.connect(new_id, ca.token, headers=ANN_ADDRESS)
    nb = server.connect(new_id, cb.token, headers=bob_headers)
    na.wait_state(lambda s: s["status"] == "active")
    return na, nb


RULES = preset("casual")


@functools.cache
def lexicon() -> Lexicon:
    return Lexicon.load(RULES.lexicon or "TWL06")


def move_once(ca: Connection, cb: Connection, kind: str = "play") -> Connection:
    """The player on turn makes the best play (or exchanges one tile); returns their
    connection once both have seen it."""
    version = max(ca.state["version"], cb.state["version"])
    on_turn = ca.wait_version(version)["turn"]
    c = ca if ca.seat == on_turn else cb
    st = c.wait_version(version)
    top: Sequence[Candidate] = ()
    if kind == "play":
        board = board_from_rows(st["board"], RULES)
        rack = tuple(RULES.tile_set.parse_token(f) for f in st["rack"])
        # the best placement (the best move may be an exchange, by the rack the seed deals);
        # a rack with no placement at all exchanges a tile instead
        top = movegen.generate(board, rack, lexicon(), RULES, bag_count=st["bag_count"], best=1, placements_only=True)
    if top:
        move = top[0].move
        assert isinstance(move, Place)
        message = move_message(move, RULES.tile_set)
    else:
        message = {"type": "exchange", "tiles": st["rack"][0]}
    st = c.act(message)
    assert st["type"] == "state" and st["version"] == version + 1, st
    cb.wait_version(version + 1)
    ca.wait_version(version + 1)
    return c


def moves(ca: Connection, cb: Connection, turns: int, kind: str = "play") -> None:
    """Each player makes ``turns`` moves (plays, or exchanges of one tile), in turn."""
    for _ in range(2 * turns):
        move_once(ca, cb, kind)


def ratings(server: Server) -> list[dict[str, Any]]:
    top: list[dict[str, Any]] = server.http.get("/api/ratings").json()
    return top


def test_the_rule() -> None:
    names = ["Ann", "Bob"]
    assert (MIN_TURNS, REPEAT_LIMIT) == (3, 3)
    assert unrated_reason([(3, 1), (3, 3)], names, recent=2, shared_address=False) is None
    assert unrated_reason([(2, 2), (3, 3)], names, recent=0, shared_address=False) == (
        "Not rated: a game counts once each player has made 3 plays or exchanges, one of them a play (Ann made 2)"
    )
    assert unrated_reason([(3, 3), (3, 3)], names, recent=3, shared_address=False) == (
        "Not rated: Ann and Bob have played 3 rated games against each other in the last 24 hours"
    )
    assert unrated_reason(None, names, recent=0, shared_address=False) is None


def test_exchanges_alone_do_not_rate(server: Server) -> None:
    ca, cb = game_between(server)
    moves(ca, cb, MIN_TURNS, "exchange")  # six scoreless turns end the game
    st = ca.wait_state(lambda s: s["status"] == "over" and "rating_note" in s)
    assert st["rated"] is False and st["result"]["reason"] == "scoreless"
    assert st["rating_note"] == (
        "Not rated: a game counts once each player has made 3 plays or exchanges, one of them a play"
        " (Ann made no play, Bob made no play)"
    )
    assert ratings(server) == []


def test_resigning_at_once_ten_times_rates_nothing(server: Server) -> None:
    ca, cb = game_between(server)
    assert ca.state["rated"] is True and "rating_note" not in ca.state
    for _ in range(10):
        cb.act({"type": "resign"})
        st = ca.wait_state(lambda s: s["status"] == "over" and "rating_note" in s)
        assert st["rated"] is False
        assert st["rating_note"] == (
            "Not rated: a game counts once each player has made 3 plays or exchanges, one of them a play (Ann made 0, Bob made 0)"
        )
        assert [p["rating"] for p in st["players"]] == [1500, 1500]
        ca, cb = rematch(server, ca, cb)
    assert ratings(server) == []


def test_too_little_play_by_one_side_rates_nothing(server: Server) -> None:
    ca, cb = game_between(server)
    moves(ca, cb, 2)
    first = move_once(ca, cb)
    second = cb if first is ca else ca
    second.act({"type": "resign"})  # the first made 3, the second 2
    st = ca.wait_state(lambda s: s["status"] == "over" and "rating_note" in s)
    name = st["players"][second.seat]["name"]
    assert (
        st["rating_note"]
        == f"Not rated: a game counts once each player has made 3 plays or exchanges, one of them a play ({name} made 2)"
    )
    assert ratings(server) == []


def test_only_the_first_rated_games_of_a_pairing_in_a_day_count(server: Server) -> None:
    ca, cb = game_between(server)
    for n in range(1, REPEAT_LIMIT + 1):
        moves(ca, cb, MIN_TURNS)
        cb.act({"type": "resign"})
        st = ca.wait_state(lambda s: s["status"] == "over" and s["players"][0]["rating"] != 1500)
        assert st["rated"] is True and "rating_note" not in st
        assert [r["games"] for r in ratings(server)] == [n, n]
        ca, cb = rematch(server, ca, cb)
    note = "Not rated: Ann and Bob have played 3 rated games against each other in the last 24 hours"
    assert ca.state["rated"] is False and ca.state["rating_note"] == note  # said from the start
    before = ratings(server)
    moves(ca, cb, MIN_TURNS)
    cb.act({"type": "resign"})
    st = ca.wait_state(lambda s: s["status"] == "over")
    assert st["rated"] is False and st["rating_note"] == note
    assert ratings(server) == before


def test_two_accounts_on_one_address_are_not_rated(server: Server, caplog: pytest.LogCaptureFixture) -> None:
    ca, cb = game_between(server, bob_headers=ANN_ADDRESS)
    moves(ca, cb, MIN_TURNS)
    with caplog.at_level(logging.WARNING, logger="lexiko.web"):
        cb.act({"type": "resign"})
        st = ca.wait_state(lambda s: s["status"] == "over" and "rating_note" in s)
    assert st["rated"] is False and st["rating_note"] == "Not rated: both players played from the same address"
    assert ratings(server) == []
    assert any("played from the same address (203.0.113.5)" in r.getMessage() for r in caplog.records)
    assert stored_addresses(server.db_url) == []  # the game is over: nothing needs them


def stored_addresses(url: str) -> list[tuple[str, int, str]]:
    """What the database holds of the addresses players connected from."""
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(text("SELECT game_id, seat, digest FROM seat_addresses ORDER BY seat")).all()
        return [(r[0], r[1], r[2]) for r in rows]
    finally:
        store.close()


def test_an_address_one_process_saw_counts_on_every_process(tmp_path: Path) -> None:
    """Two processes hold one game (shared mode): Ann and Bob connect from their own
    addresses to the first, and Bob from Ann's address to the second. Each process
    compared only the addresses it saw itself, so the first rated the game; the
    addresses are now kept in the database, as keyed hashes (it holds no address)."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    store.upgrade()
    store.create_game(
        "g",
        rules_json="{}",
        seed=1,
        seats=[SeatSpec(0, "human", "Ann", "ha", None, 1), SeatSpec(1, "human", "Bob", "hb", None, 2)],
    )

    def held() -> LiveGame:  # the game as a process holds it
        return LiveGame(
            "g", RULES, 1, [Seat(0, "human", "Ann", account_id=1), Seat(1, "human", "Bob", account_id=2)], None
        )

    async def play() -> tuple[bool, bool, bool]:
        first, second = Core(store, Settings()), Core(Store(url), Settings())
        try:
            here, there = held(), held()
            await Ratings(first).seen(here, 0, "203.0.113.5")
            await Ratings(first).seen(here, 1, "198.51.100.7")
            before = await Ratings(first).shared_address(here)
            await Ratings(second).seen(there, 1, "203.0.113.5")
            return before, await Ratings(first).shared_address(here), await Ratings(second).shared_address(there)
        finally:
            first.close()
            second.close()

    assert asyncio.run(play()) == (False, True, True)
    rows = stored_addresses(url)
    assert [(g, seat) for g, seat, _ in rows] == [("g", 0), ("g", 1), ("g", 1)]
    key = store.address_key()
    assert {d for _, _, d in rows} == {address_digest(key, "203.0.113.5"), address_digest(key, "198.51.100.7")}
    store.close()


def test_why_a_finished_game_was_not_rated_outlives_a_restart(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    note = "Not rated: a game counts once each player has made 3 plays or exchanges, one of them a play (Ann made 0, Bob made 0)"
    with Server(url) as first:
        ca, cb = game_between(first)
        cb.act({"type": "resign"})
        st = ca.wait_state(lambda s: s["status"] == "over" and "rating_note" in s)
        assert (st["rated"], st["rating_note"]) == (False, note)
        gid, token = st["game_id"], ca.token
    with Server(url) as second:  # a new process: the game is read from the database
        st = second.connect(gid, token).state
        assert (st["status"], st["rated"], st["rating_note"]) == ("over", False, note)
