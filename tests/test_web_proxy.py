"""deploy/nginx.conf in front of three lexiko processes in shared mode (PostgreSQL,
Redis), all real processes on loopback: two players connected through the proxy play,
one app process is killed (SIGKILL) mid-game, the players reconnect through the proxy
and go on; nothing is lost or applied twice."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from webharness import (
    Connection,
    ServerProcess,
    board_from_rows,
    free_port,
    move_message,
    new_game,
    nginx_config,
)

from lexiko import movegen
from lexiko.lexicon import Lexicon
from lexiko.rules import preset

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
ROOT = Path(__file__).resolve().parents[1]
RULES = preset("casual")
pytestmark = [
    pytest.mark.slow,  # several server processes
    pytest.mark.skipif(
        NGINX is None or shutil.which("redis-server") is None,
        reason="nginx or redis-server is not installed (Debian: apt-get install nginx redis-server)",
    ),
]

from test_web_shared import pg_url, redis_url  # noqa: E402,F401  (the same PostgreSQL and Redis fixtures)


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("TWL06")


@pytest.fixture
def proxied(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[tuple[str, list[ServerProcess]]]:  # noqa: F811
    extra = ["--redis-url", redis_url, "--allow-seeds", "--behind-proxy", "127.0.0.1", "--games-per-hour", "0"]
    apps = [ServerProcess(pg_url, extra=extra, log_path=tmp_path / f"app{i}.log") for i in range(3)]
    for a in apps:
        a.start()
    port = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_config(port, [a.port for a in apps], tmp_path))
    assert NGINX is not None
    proxy = subprocess.Popen(
        [NGINX, "-c", str(conf), "-p", str(tmp_path), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).json()["ok"]:
                    break
            except (httpx.HTTPError, ValueError):
                if time.monotonic() > deadline or proxy.poll() is not None:
                    raise AssertionError(f"nginx did not start: {(tmp_path / 'error.log').read_text()}") from None
                time.sleep(0.1)
        yield f"127.0.0.1:{port}", apps
    finally:
        proxy.terminate()
        proxy.wait(10)
        for a in apps:
            a.stop()


def best(state: dict[str, Any], lex: Lexicon) -> dict[str, Any]:
    rack = tuple(RULES.tile_set.parse_token(f) for f in state["rack"])
    cand = movegen.best_move(board_from_rows(state["board"], RULES), rack, lex, RULES, bag_count=state["bag_count"])
    return move_message(cand.move, RULES.tile_set)


def test_players_through_the_proxy_survive_a_killed_process(
    proxied: tuple[str, list[ServerProcess]], lex: Lexicon
) -> None:
    host, apps = proxied
    with httpx.Client(base_url=f"http://{host}", timeout=20) as http:
        gid, tokens = new_game(http, preset="casual", seed=12, options={"time_minutes": None})

    def connect(seat: int) -> Connection:
        c = Connection(f"ws://{host}", gid, tokens[seat])
        assert c.seat == seat, c.messages  # a player, whichever process took the socket (not a spectator)
        return c

    conns = [connect(0), connect(1)]
    moves = 0

    def play(n: int) -> None:
        nonlocal moves
        for _ in range(n):
            v = max(c.state["version"] for c in conns)
            for c in conns:  # a state of the game under way: the one sent before both joined has no turn
                c.wait_state(lambda s, v=v: s["version"] >= v and s.get("turn") is not None)
            p = conns[conns[0].state["turn"]]
            st = p.act(best(p.state, lex))
            assert st["type"] == "state", st
            moves += 1

    try:
        play(4)
        apps[0].kill()  # one process dies: whoever was on it reconnects through the proxy
        for c in conns:
            c.close()
        conns = [connect(0), connect(1)]
        assert [c.state["version"] for c in conns] == [4, 4]
        play(4)
        with httpx.Client(base_url=f"http://{host}", timeout=20) as http:
            state = http.get(f"/api/games/{gid}/state").json()
        assert state["version"] == moves == 8 and len(state["history"]) == 8  # nothing lost or doubled
    finally:
        for c in conns:
            c.close()
