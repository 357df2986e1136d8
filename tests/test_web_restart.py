"""Kill the server (SIGKILL, no shutdown) in the middle of games and start it again:
nothing is lost, and the games go on exactly as they would have."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from webharness import Connection, ServerProcess, board_from_rows, move_message, new_game

from lexiko import movegen
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.rules import preset

RULES = preset("tournament")


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("TWL06")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "games.db")  # a plain path is a SQLite file
    if pg_url is None:
        pytest.skip(
            "PostgreSQL is not installed here (apt-get install postgresql) and LEXIKO_TEST_POSTGRES_URL is unset"
        )
    return pg_url


def best_message(state: dict[str, Any], lex: Lexicon) -> dict[str, Any]:
    rack = tuple(RULES.tile_set.parse_token(f) for f in state["rack"])
    cand = movegen.best_move(board_from_rows(state["board"], RULES), rack, lex, RULES, bag_count=state["bag_count"])
    return move_message(cand.move, RULES.tile_set)


def public(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "players"} | {
        "players": [{k: v for k, v in p.items() if k != "time_left"} for p in state["players"]]
    }


@pytest.mark.slow
def test_kill_mid_game_and_restart(db_url: str, tmp_path: Path, lex: Lexicon) -> None:
    log = tmp_path / "server.log"
    server = ServerProcess(db_url, log_path=log, bot_delay=0.5, extra=["--allow-seeds"]).start()
    try:
        http = httpx.Client(base_url=server.url, timeout=20)
        gid, tokens = new_game(http, seed=2024)
        bot_gid, bot_tokens = new_game(http, seats=[{"kind": "human", "name": "Cy"}, {"kind": "greedy"}], seed=31)
        conns = [Connection(server.ws_url, gid, t) for t in tokens]
        for _ in range(4):
            v = max(c.state["version"] for c in conns)
            for c in conns:
                c.wait_version(v)
            p = conns[conns[0].state["turn"]]
            assert p.act(best_message(p.state, lex))["type"] == "state"
        v = max(c.state["version"] for c in conns)  # the last mover has it first
        for c in conns:
            c.wait_version(v)
        before = [public(c.state) for c in conns]
        # the bot game: Cy moves, and the server is killed while the bot waits to reply
        cy = Connection(server.ws_url, bot_gid, bot_tokens[0])
        st = cy.wait_state(lambda s: s["turn"] == 0)
        st = cy.act(best_message(st, lex))
        assert st["type"] == "state" and st["turn"] == 1
        cy_version = st["version"]
        server.kill()
        for c in [*conns, cy]:
            c.close()

        server.start()
        conns = [Connection(server.ws_url, gid, t) for t in tokens]
        # the same game, one version on: the turn in progress is credited the outage
        # (a "downtime" action, whenever the kill came in the turn)
        assert [public(c.state) for c in conns] == [b | {"version": v + 1} for b in before]
        # the game goes on as the seed and the actions say: the same next draws as a replay
        mirror = Game(["Ann", "Bob"], RULES, seed=2024, lexicon=lex)
        text = httpx.get(f"{server.url}/api/games/{gid}/gcg").text
        assert text.count("\n>") == v
        for _ in range(3):
            p = conns[conns[0].state["turn"]]
            msg = best_message(p.state, lex)
            st = p.act(msg)
            assert st["type"] == "state"
            for c in conns:
                c.wait_version(st["version"])
        from lexiko.web.store import Store

        stored = Store(db_url).load_game(gid)
        assert stored is not None and len(stored.actions) == v + 4
        assert stored.actions[v].text.startswith("downtime ")
        for a in stored.actions:
            if not a.text.startswith("downtime "):
                mirror.apply(a.text, player=a.seat)
        for seat, c in enumerate(conns):
            assert sorted(c.state["rack"]) == sorted(mirror.tiles.face(t) for t in mirror.rack(seat))
            assert c.state["bag_count"] == mirror.bag_count
        # the bot picks up where it was stopped
        cy = Connection(server.ws_url, bot_gid, bot_tokens[0])
        st = cy.wait_state(lambda s: s["version"] > cy_version and s["turn"] == 0, timeout=20)
        assert st["history"][-1]["player"] == 1
        for c in [*conns, cy]:
            c.close()
        http.close()
    finally:
        server.stop()
    assert "Traceback" not in log.read_text()
