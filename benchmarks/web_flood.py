"""Flood test of the web app: one client floods the server while 50 games play, and the
other games' move latency and the server's memory are measured.

Against a real server process (``python -m lexiko.web``, SQLite in a temporary folder,
loopback only). The 50 games are between two client players that pass in turn (the
rules never end a game for passes here), each pass timed from sending it to receiving
the new state, after thinking ``--think`` seconds. The flooder, meanwhile, loops over three attacks: a 1 MB play message
(the server drops the connection: frames over 64 KB are not read), a burst of tiny
messages on one connection (answered "slow down", then closed), and a 56 MB request
to create a game (refused with 413 by its length, unread).

    python benchmarks/web_flood.py                 # 10 s quiet, then 20 s with the flood
    python benchmarks/web_flood.py --games 20 --seconds 10

Prints p50 / p99 / max move latency without and with the flood, and the server's peak
resident memory. Targets: p99 under 100 ms with the flood, memory under 300 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

# the web tests' harness (servers on loopback), in tests/ beside this folder
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from webharness import ServerProcess  # noqa: E402


def peak_rss_mb(pid: int) -> float:
    """The peak resident memory of a process in MB (Linux: VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def player(
    ws_url: str, gid: str, token: str, seat: int, stop: asyncio.Event, lat: list[float], think: float
) -> None:
    """One person of a game: passes ``think`` seconds after their turn comes, timing each pass."""
    async with connect(f"{ws_url}/ws/{gid}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        state: dict[str, object] = {}
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            except TimeoutError:
                return
            if msg.get("type") != "state":
                continue
            state = msg
            if state.get("turn") == seat and state.get("status") == "active":
                await asyncio.sleep(think)
                t = time.perf_counter()
                version = state["version"]
                await ws.send(json.dumps({"type": "pass"}))
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
                    if msg.get("type") == "state" and msg["version"] > version:  # type: ignore[operator]
                        lat.append(time.perf_counter() - t)
                        state = msg
                        break


async def flooder(base: str, ws_url: str, gid: str, token: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    big = json.dumps({"type": "play", "tiles": [{"row": 7, "col": 7, "letter": "A"}] * 25_000})  # ~1 MB
    huge = b'{"preset": "casual", "seats": [], "options": {"x": "' + b"y" * (56 << 20) + b'"}}'
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while not stop.is_set():
            try:  # 1. a 1 MB message
                async with connect(f"{ws_url}/ws/{gid}", max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    await ws.send(big)
                    while True:
                        await asyncio.wait_for(ws.recv(), timeout=5)
            except (ConnectionClosed, TimeoutError, OSError):
                counts["big"] += 1
            try:  # 2. a burst of tiny messages
                async with connect(f"{ws_url}/ws/{gid}", max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                    for i in range(5000):
                        await ws.send(json.dumps({"type": "ping", "id": i}))
                        counts["tiny"] += 1
            except (ConnectionClosed, OSError):
                counts["closed"] += 1
            try:  # 3. a 56 MB create request
                r = await http.post("/api/games", content=huge, headers={"Content-Type": "application/json"})
                counts[f"create {r.status_code}"] = counts.get(f"create {r.status_code}", 0) + 1
            except httpx.HTTPError:
                counts["create failed"] = counts.get("create failed", 0) + 1
            await asyncio.sleep(0.05)


def summary(lat: list[float]) -> str:
    if not lat:
        return "no moves"
    q = statistics.quantiles(lat, n=100)
    return (
        f"{len(lat)} moves, p50 {1000 * statistics.median(lat):.1f} ms, p99 {1000 * q[98]:.1f} ms, "
        f"max {1000 * max(lat):.1f} ms"
    )


async def run(args: argparse.Namespace, server: ServerProcess) -> None:
    base, ws_url = server.url, server.ws_url
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    games = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for _ in range(args.games + 1):
            r = await http.post(
                "/api/games", json={"preset": "casual", "seats": seats, "options": {"scoreless_turn_limit": 0}}
            )
            d = r.json()
            inv = d["invites"][0]["path"].rsplit("/", 1)[1]
            j = (await http.post(f"/api/games/{d['game_id']}/join", json={"invite": inv, "name": "Bob"})).json()
            games.append((d["game_id"], d["token"], j["token"]))
    (fgid, ftoken, _), games = games[0], games[1:]
    for phase, flood, seconds in (("quiet", False, args.quiet), ("flood", True, args.seconds)):
        stop = asyncio.Event()
        lat: list[float] = []
        counts = {"big": 0, "tiny": 0, "closed": 0}
        tasks = [
            asyncio.create_task(player(ws_url, g, t, s, stop, lat, args.think))
            for g, t0, t1 in games
            for s, t in ((0, t0), (1, t1))
        ]
        if flood:
            tasks.append(asyncio.create_task(flooder(base, ws_url, fgid, ftoken, stop, counts)))
        await asyncio.sleep(seconds)
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        print(f"{phase:>5}: {summary(lat)}" + (f"; flood: {counts}" if flood else ""))
    assert server.proc is not None
    print(f"server peak memory: {peak_rss_mb(server.proc.pid):.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=20.0, help="time with the flood (default 20)")
    ap.add_argument("--quiet", type=float, default=10.0, help="time without it first (default 10)")
    ap.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="seconds each player thinks before passing (default 0.5; 0 saturates the server)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            str(Path(tmp) / "games.db"),
            log_path=Path(tmp) / "server.log",
            extra=["--games-per-hour", "0", "--connections-per-minute", "0"],
        )
        server.start()
        try:
            asyncio.run(run(args, server))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
