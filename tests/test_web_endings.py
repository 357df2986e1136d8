"""Ways a web game ends besides the rules: resigning, aborting before the first move,
and a rematch with the same players, over real HTTP and WebSockets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from webharness import Connection, Server, new_game

from lexiko import gcg


def two_people(server: Server, **kw: Any) -> tuple[str, Connection, Connection]:
    gid, tokens = new_game(server.http, seed=None, **kw)
    return gid, server.connect(gid, tokens[0]), server.connect(gid, tokens[1])


def test_a_player_resigns_off_turn_and_loses(server: Server) -> None:
    gid, ann, bob = two_people(server, preset="casual")
    on = ann.state["turn"]
    off = bob if on == 0 else ann
    assert off.state["can"]["resign"] and off.state["can"]["abort"]
    st = off.act({"type": "resign"})
    assert st["status"] == "over" and st["result"]["reason"] == "resigned"
    assert st["result"]["winner_names"] == [["Ann", "Bob"][on]]
    assert st["status_text"] == f"Game over: {['Ann', 'Bob'][on]} wins"
    assert off.act({"type": "resign"})["message"] == "the game is over"
    rec = server.http.get(f"/api/games/{gid}/gcg").text
    assert f"#lexiko-end resigned {['Ann', 'Bob'][1 - on]}" in rec
    assert gcg.parse(rec).replay(lexicon=None).winners() == [on]


def test_abort_before_the_first_move_only(server: Server) -> None:
    gid, ann, bob = two_people(server, preset="casual")
    st = bob.act({"type": "abort"})
    assert st["status"] == "aborted" and st["status_text"] == "Game aborted before the first move"
    assert not any(st["can"].values())
    on = st["turn"]
    assert on is None
    ann.send({"type": "pass"})
    assert ann.recv("error")["message"] == "the game was aborted"
    assert server.http.get(f"/api/games/{gid}").json()["status"] == "aborted"

    gid, ann, bob = two_people(server, preset="casual")
    first = ann if ann.state["turn"] == 0 else bob
    first.act({"type": "pass"})
    assert not first.state["can"]["abort"]
    assert first.act({"type": "abort"})["message"] == "a game can be aborted only before its first move"


def test_an_aborted_game_stays_aborted_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    first = Server(url)
    try:
        gid, tokens = new_game(first.http, seed=None, preset="casual")
        first.connect(gid, tokens[0]).act({"type": "abort"})
    finally:
        first.close()
    second = Server(url)
    try:
        assert second.connect(gid, tokens[1]).state["status"] == "aborted"
    finally:
        second.close()


def test_a_rematch_seats_the_same_players_with_their_keys(server: Server) -> None:
    gid, tokens = new_game(
        server.http,
        seed=None,
        preset="casual",
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "greedy"}],
    )
    ann, bob = server.connect(gid, tokens[0]), server.connect(gid, tokens[1])
    ann.send({"type": "rematch"})
    assert ann.recv("error")["message"] == "a rematch can be asked for once the game is over"
    ann.send({"type": "resign"})
    ann.wait_state(lambda s: s["status"] == "over")
    assert ann.state["can"]["rematch"]
    bob.wait_state(lambda s: s["status"] == "over")
    st = bob.act({"type": "rematch"})
    new_id = st["rematch"]
    assert new_id and new_id != gid and not st["can"]["rematch"]
    assert ann.wait_state(lambda s: s["rematch"] == new_id)["rematch"] == new_id
    ann.send({"type": "rematch"})
    assert ann.recv("error")["message"] == "the rematch has already been made"
    # each person's key opens their seat of the new game; it starts at once
    a2, b2 = server.connect(new_id, tokens[0]), server.connect(new_id, tokens[1])
    assert (a2.seat, b2.seat) == (0, 1)
    assert a2.state["status"] == "active" and [p["name"] for p in a2.state["players"]] == ["Ann", "Bob", "Computer"]
    assert (
        server.http.get(f"/api/games/{new_id}").json()["rules"] == server.http.get(f"/api/games/{gid}").json()["rules"]
    )
