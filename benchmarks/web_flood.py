"""Flood test of the web app: one client floods the server while 50 games play, and the
other games' move latency and the server's memory are measured.

Against a real server process (``python -m lexiko.web``, SQLite in a temporary folder,
loopback only). The 50 games are between two client players that pass in turn (the
rules never end a game for passes here), each pass timed from sending it to receiving
the new state, after thinking ``--think`` seconds. The flooder, meanwhile, loops over three attacks: a 1 MB play message
(the server drops the connection: frames over 64 KB are not read), a burst of tiny
messages on one connection (answered "slow down", then closed), and a 56 MB request
to create a game (refused with 413 by its length, unread).

Then more phases flood with 8 KB messages of every type (play, exchange, chat, preview,
state, ping) at the rate the server allows them: from 3 and then 200 connections of one
seat (``--sized 3,200``), which share the seat's budget (``--rate``, 60 pings a second,
split among them), and from 200 spectators (``--watchers 200``), each with a
spectator's own budget (``--watcher-rate``, 12 pings a second): every other message has
its field 8 KB long (refused by the field caps, unread), the others a field within its
cap and 8 KB of padding beside it (their work is done, within the budget by cost).
After each, the flood stops and the time until a ping on another game is answered is
printed.

    python benchmarks/web_flood.py                 # 10 s quiet, then 20 s with the flood
    python benchmarks/web_flood.py --games 20 --seconds 10

Prints p50 / p99 / max move latency without and with the flood, the server's processor
time in each phase (in cores, and per message in the 8 KB phases) with the machine's load
average (on a shared machine the latency says as much about the others' load as about
the server; the processor time a message costs does not), and the server's peak
resident memory. Targets: p99 under 100 ms with the flood, memory under 300 MB, and an
answer within 100 ms after the flood of 8 KB messages stops.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

# the web tests' harness (servers on loopback), in tests/ beside this folder
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from limits import parse  # noqa: E402
from webharness import ServerProcess, percentile  # noqa: E402

from lexiko.web.limits import Limits, message_cost  # noqa: E402


def cpu_seconds(pid: int) -> float:
    """The processor time a process has used so far, user and system (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    """The machine's load average over the last minute (the machine may be shared)."""
    return f"{os.getloadavg()[0]:.2f}"


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


KB8 = 8 * 1024 - 200


def sized_messages() -> list[tuple[str, int]]:
    """The 8 KB messages of each type with what each costs its connection's budget:
    the field itself 8 KB long (refused by its cap: costs 1), then a field within its
    cap beside 8 KB of padding (carried out: costs its type's cost)."""
    tile = {"row": 7, "col": 7, "letter": "Q", "blank": False}
    full: list[dict[str, Any]] = [
        {"type": "play", "move": "8D " + "Q" * KB8},
        {"type": "exchange", "tiles": "Q" * KB8},
        {"type": "chat", "text": "\ufdfa" * (KB8 // 3)},
        {"type": "preview", "tiles": [tile] * (KB8 // 50)},
        {"type": "state", "pad": "x" * KB8},
        {"type": "ping", "pad": "x" * KB8},
    ]
    capped: list[dict[str, Any]] = [
        {"type": "play", "move": "8D " + "Q" * 61, "pad": "x" * KB8},
        {"type": "exchange", "tiles": "QQQQQQQ", "pad": "x" * KB8},
        {"type": "chat", "text": "\ufdfa" * 16, "pad": "x" * KB8},
        {"type": "preview", "tiles": [tile] * 7, "pad": "x" * KB8},
        {"type": "state", "pad": "x" * KB8},
        {"type": "ping", "pad": "x" * KB8},
    ]
    out = []
    for a, b in zip(full, capped, strict=True):
        cost = 1 if a["type"] in ("play", "exchange", "chat", "preview") else message_cost(a["type"])
        out += [(json.dumps(a, ensure_ascii=False), cost), (json.dumps(b, ensure_ascii=False), message_cost(b["type"]))]
    return out


async def sized_flooder(
    ws_url: str, gid: str, token: str | None, rate: float, stop: asyncio.Event, counts: dict[str, int]
) -> None:
    """One connection sending 8 KB messages of each type at the rate its budget allows
    (``rate`` pings a second, each message paced by its cost), reading (and dropping)
    what comes back."""
    messages = sized_messages()
    try:
        async with connect(f"{ws_url}/ws/{gid}", max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))

            async def drain() -> None:
                async for _ in ws:
                    counts["answers"] += 1

            reader = asyncio.create_task(drain())
            i, spent = 0, 0.0
            start = time.perf_counter()
            while not stop.is_set():
                text, cost = messages[i % len(messages)]
                await ws.send(text)
                counts["sent"] += 1
                i, spent = i + 1, spent + cost
                await asyncio.sleep(max(0.0, start + spent / rate - time.perf_counter()))
            reader.cancel()
    except (ConnectionClosed, OSError):
        counts["closed"] += 1


async def _ping(ws: object) -> float:
    t = time.perf_counter()
    await ws.send(json.dumps({"type": "ping", "id": "probe"}))  # type: ignore[attr-defined]
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=120))  # type: ignore[attr-defined]
        if msg.get("type") == "pong" and msg.get("id") == "probe":
            return time.perf_counter() - t


def summary(lat: list[float]) -> str:
    if not lat:
        return "no moves"
    return (
        f"{len(lat)} moves, p50 {1000 * percentile(lat, 50):.1f} ms, p99 {1000 * percentile(lat, 99):.1f} ms, "
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
    assert server.proc is not None
    server_pid = server.proc.pid
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
        cpu0 = cpu_seconds(server_pid)
        await asyncio.sleep(seconds)
        cpu = cpu_seconds(server_pid) - cpu0
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        print(
            f"{phase:>5}: {summary(lat)}"
            + (f"; flood: {counts}" if flood else "")
            + f"; server CPU {cpu / seconds:.2f} cores; load average {load_average()}"
        )
    phases = [("seat", n, args.rate / n) for n in args.sized]
    phases += [("spectators", n, args.watcher_rate) for n in args.watchers]
    for who, n, rate in phases:
        stop = asyncio.Event()
        lat = []
        counts = {"sent": 0, "answers": 0, "closed": 0}
        tasks = [
            asyncio.create_task(player(ws_url, g, t, s, stop, lat, args.think))
            for g, t0, t1 in games
            for s, t in ((0, t0), (1, t1))
        ]
        flood_stop = asyncio.Event()
        flooders = [
            asyncio.create_task(
                sized_flooder(ws_url, fgid, ftoken if who == "seat" else None, rate, flood_stop, counts)
            )
            for _ in range(n)
        ]
        async with connect(f"{ws_url}/ws/{games[0][0]}", max_size=2**22) as probe:
            await probe.send(json.dumps({"type": "hello", "token": None}))
            while json.loads(await probe.recv()).get("type") != "state":
                pass
            cpu0, wall0 = cpu_seconds(server_pid), time.perf_counter()
            await asyncio.sleep(args.seconds)
            cpu = cpu_seconds(server_pid) - cpu0
            wall = time.perf_counter() - wall0
            load = load_average()
            flood_stop.set()
            await asyncio.gather(*flooders, return_exceptions=True)  # the flooders' connections are closed
            after = await _ping(probe)
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        print(
            f"8 KB x {n:>3} {who}: {summary(lat)}; answered {1000 * after:.1f} ms after the flood stopped; "
            f"flood: {counts}; "
            f"server CPU {cpu / wall:.2f} cores, {1e6 * cpu / max(1, counts['sent'] + len(lat)):.0f} us a message; "
            f"load average {load}"
        )
    print(f"server peak memory: {peak_rss_mb(server_pid):.0f} MB")


def counts(text: str) -> list[int]:
    """A comma-separated list of connection counts, each 1 or more ('' for none)."""
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of numbers like 3,200") from None
    if any(n < 1 for n in out):
        raise argparse.ArgumentTypeError(f"{text!r}: each phase needs 1 connection or more")
    return out


def per_second(rate: str | None) -> float:
    """A budget of the server's ``Limits`` (``"60/second"``) in pings a second."""
    item = parse(rate or "0/second")
    return item.amount / item.get_expiry()


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
    ap.add_argument(
        "--sized",
        type=counts,
        default=[3, 200],
        help="connections of one seat flooding with 8 KB messages of each type, one phase each "
        "(default 3,200; '' for none)",
    )
    ap.add_argument(
        "--rate",
        type=float,
        default=per_second(Limits().messages),
        help="the seat's budget its flooding connections spend together, in pings a second "
        "(default: the server's, %(default)g)",
    )
    ap.add_argument(
        "--watchers",
        type=counts,
        default=[200],
        help="spectators flooding with 8 KB messages, one phase each (default 200; '' for none)",
    )
    ap.add_argument(
        "--watcher-rate",
        type=float,
        default=per_second(Limits().watcher_messages),
        help="the budget each flooding spectator spends, in pings a second (default: the server's, %(default)g)",
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
