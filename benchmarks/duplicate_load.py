"""Duplicate at event scale: one duplicate game of 1,000 players over 3 server processes.

Starts a throwaway PostgreSQL, Redis and N ``lexiko serve`` processes in shared mode
(loopback only), creates one untimed duplicate game with P seats, takes every seat (all
players at once by the game's one link, or ``--seat-links``: each by its own), and
connects one WebSocket client per player, spread over the processes in turn (or all
through nginx with ``--proxy``). Each round every client submits at once (one of the
``--moves`` best placements or a pass, by seat number: a server judges each distinct move
once a round, so the spread of the moves sent matters); the round closes when the last
submission is stored, and every client is sent the round's result.

    python benchmarks/duplicate_load.py                       # 1,000 players, 3 processes, 3 rounds
    python benchmarks/duplicate_load.py --players 200 --processes 1 --rounds 2
    python benchmarks/duplicate_load.py --proxy               # every client through nginx
    python benchmarks/duplicate_load.py --moves 200           # 200 distinct moves a round

Prints, per round and over all rounds: the time from the round's end (the instant the
server stored its ``close``) to each client's receiving the result, p50 / p99 / max;
the time from a submission's sending to its acknowledgement; and the server CPU (all
app processes) per submission. The clients run in this process on the same 2 cores, so
their own work is in the figures too. Every wait is bounded (``--timeout``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from lexiko import movegen
from lexiko.lexicon import Lexicon
from lexiko.rules import preset
from lexiko.web.store import Store

# the web tests' harness (servers, PostgreSQL, Redis, nginx on loopback), in tests/ beside this folder
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from webharness import (  # noqa: E402
    NginxProxy,
    RedisServer,
    ServerProcess,
    TemporaryPostgres,
    board_from_rows,
    cpu_seconds,
    move_message,
    percentile,
)

RULES = preset("duplicate")
CLASSIC = RULES.replace(variant="classic")


class Client:
    """One player: its socket, and when it heard what (without parsing every message)."""

    def __init__(self, seat: int, ws: ClientConnection) -> None:
        self.seat = seat
        self.ws = ws
        self.state: dict[str, Any] = {}
        self.acked: dict[int, float] = {}  # round -> when its submission was acknowledged
        self.result: dict[int, float] = {}  # round -> when the state of the next round came
        self.errors: list[str] = []
        self.task: asyncio.Task[None] | None = None

    async def listen(self) -> None:
        async for raw in self.ws:
            now = time.time()
            text = raw if isinstance(raw, str) else raw.decode()
            if text.startswith('{"type":"error"'):
                self.errors.append(json.loads(text)["message"])
                continue
            if not text.startswith('{"type":"state"'):
                continue
            number = int(text.split('"duplicate":{"round":', 1)[1].split(",", 1)[0])
            if number - 1 not in self.result and number > 1:
                self.result[number - 1] = now
            if '"mine":{' in text and number not in self.acked:
                self.acked[number] = now
            if self.seat == 0:
                self.state = json.loads(text)


async def open_client(url: str, game_id: str, seat: int, token: str, timeout: float) -> Client:
    ws = await connect(f"{url}/ws/{game_id}", max_size=2**22, open_timeout=timeout, compression=None)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    c = Client(seat, ws)
    for _ in range(2):  # welcome, then the state
        text = await asyncio.wait_for(ws.recv(), timeout)
        assert isinstance(text, str)
        if seat == 0 and text.startswith('{"type":"state"'):
            c.state = json.loads(text)
    c.task = asyncio.create_task(c.listen())
    return c


async def run(args: argparse.Namespace, http_url: str, ws_urls: list[str], pids: list[int], store: Store) -> int:
    lex = Lexicon.load(RULES.lexicon, RULES.tile_set)
    t = args.timeout
    seats = [{"kind": "human", "name": "P0"}] + [{"kind": "human"}] * (args.players - 1)  # named as they join
    async with httpx.AsyncClient(base_url=http_url, timeout=t) as http:
        r = await http.post(
            "/api/games", json={"preset": "duplicate", "seats": seats, "options": {"duplicate_seconds": None}}
        )
        if r.status_code != 200:
            sys.exit(f"creating the game failed: {r.status_code} {r.text}")
        created = r.json()
        gid = created["game_id"]
        tokens: dict[int, str] = {created["seat"]: created["token"]}
        gate = asyncio.Semaphore(16)

        async def join(path: str, name: str) -> None:
            async with gate:
                j = await http.post(f"/api/games/{gid}/join", json={"invite": path.rsplit("/", 1)[1], "name": name})
                if j.status_code != 200:
                    sys.exit(f"joining failed: {j.status_code} {j.text}")
                tokens[j.json()["seat"]] = j.json()["token"]

        started = time.perf_counter()
        if args.seat_links:
            await asyncio.gather(*(join(inv["path"], f"P{inv['seat']}") for inv in created["invites"]))
        else:  # everybody by the one link, at once: each gets the next open seat
            await asyncio.gather(*(join(created["open_path"], f"P{i}") for i in range(1, args.players)))
        how = "each by its own link" if args.seat_links else "by the one link"
        print(f"  {args.players} seats taken ({how}) in {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    gate = asyncio.Semaphore(50)

    async def opened(seat: int) -> Client:
        async with gate:
            return await open_client(ws_urls[seat % len(ws_urls)], gid, seat, tokens[seat], t)

    clients = await asyncio.gather(*(opened(s) for s in range(args.players)))
    print(f"  {args.players} WebSocket clients connected in {time.perf_counter() - started:.1f} s")
    acks: list[float] = []
    results: list[float] = []
    submissions = 0
    cpu_before = sum(cpu_seconds(p) for p in pids)
    for number in range(1, args.rounds + 1):
        st = clients[0].state
        board = board_from_rows(st["board"], CLASSIC)
        rack = CLASSIC.tile_set.parse("".join(st["rack"]))
        moves = sorted(movegen.generate(board, rack, lex, CLASSIC, placements_only=True), key=lambda m: -m.score)
        if not moves:
            print(f"  round {number}: no play is left: the game is over")
            break
        texts = [json.dumps(move_message(m.move, CLASSIC.tile_set)) for m in moves[: args.moves]]
        pass_text = json.dumps({"type": "pass"})
        sent: dict[int, float] = {}
        for c in clients:
            sent[c.seat] = time.time()
            await c.ws.send(texts[c.seat % len(texts)] if c.seat % 7 else pass_text)
        submissions += len(clients)
        deadline = time.monotonic() + t
        while time.monotonic() < deadline and not all(number in c.result for c in clients):
            await asyncio.sleep(0.05)
        missing = [c.seat for c in clients if number not in c.result]
        if missing:
            print(
                f"  round {number}: {len(missing)} clients had no result after {t:g} s "
                f"(errors: {sum(len(c.errors) for c in clients)}; first: "
                f"{next((c.errors[0] for c in clients if c.errors), '-')})"
            )
            break
        closes = [a for a in store.load_game(gid).actions if a.text.startswith("close")]  # type: ignore[union-attr]
        end = closes[number - 1].at
        lat = [1000 * (c.result[number] - end) for c in clients]
        ack = [1000 * (c.acked.get(number, c.result[number]) - sent[c.seat]) for c in clients]
        acks += ack
        results += lat
        print(
            f"  round {number}: result after the round's end p50 {percentile(lat, 50):.0f} ms, "
            f"p99 {percentile(lat, 99):.0f} ms, "
            f"max {max(lat):.0f} ms; submission acknowledged p50 {percentile(ack, 50):.0f} ms, "
            f"p99 {percentile(ack, 99):.0f} ms"
        )
        await asyncio.sleep(0.3)  # the next round's state reaches player 0's full copy
    cpu = sum(cpu_seconds(p) for p in pids) - cpu_before
    for c in clients:
        await c.ws.close()
        if c.task is not None:
            c.task.cancel()
    if results:
        print(
            f"  all rounds: result after the round's end p50 {percentile(results, 50):.0f} ms, "
            f"p99 {percentile(results, 99):.0f} ms, max {max(results):.0f} ms"
        )
        print(f"  submissions acknowledged p50 {percentile(acks, 50):.0f} ms, p99 {percentile(acks, 99):.0f} ms")
        print(
            f"  server CPU {cpu:.2f} s for {submissions} submissions: {1000 * cpu / submissions:.2f} ms each "
            "(rounds' closes and results included)"
        )
    errors = sum(len(c.errors) for c in clients)
    if errors:
        print(f"  {errors} errors; first: {next(c.errors[0] for c in clients if c.errors)}")
    return 0 if results and not errors and len(results) == args.rounds * args.players else 1


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__
    )
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--processes", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--proxy", action="store_true", help="every client through nginx in front of the processes")
    ap.add_argument(
        "--seat-links",
        action="store_true",
        help="join by each seat's own invitation (default: everybody by the game's one link)",
    )
    ap.add_argument(
        "--moves", type=int, default=5, help="distinct placements sent a round (by seat), beside passes (default: 5)"
    )
    ap.add_argument("--timeout", type=float, default=120.0, help="longest wait for anything (seconds)")
    args = ap.parse_args()
    if not 1 <= args.players <= 2000 or args.processes < 1 or args.rounds < 1 or args.moves < 1:
        sys.exit("--players is 1 to 2000; --processes, --rounds and --moves at least 1")
    tmp = tempfile.TemporaryDirectory()
    # everything started is stopped, whatever fails after it
    with contextlib.ExitStack() as started:
        pg = TemporaryPostgres()
        started.callback(pg.stop)
        pg_url = pg.start()
        redis = RedisServer()
        started.callback(redis.stop)
        extra = [
            "--redis-url",
            redis.start(),
            "--games-per-hour",
            "0",
            "--connections-per-minute",
            "0",
            "--requests-per-minute",
            "0",
            "--behind-proxy",
            "127.0.0.1",
            "--log-level",
            "warning",
        ]
        log_path = Path(tmp.name) / "server.log"
        apps = [ServerProcess(pg_url, log_path=log_path, extra=extra) for _ in range(args.processes)]
        proxy: NginxProxy | None = None
        store = Store(pg_url)
        started.callback(store.close)
        for a in apps:
            started.callback(a.stop)
            a.start()
        if args.proxy:
            proxy = NginxProxy([a.port for a in apps], Path(tmp.name))
            started.callback(proxy.stop)
            proxy.start()
        ws_urls = [proxy.ws_url] if proxy is not None else [a.ws_url for a in apps]
        where = "through nginx" if proxy is not None else "spread over the processes in turn"
        print(
            f"lexiko duplicate load: {args.players} players, {args.processes} processes in shared mode "
            f"(PostgreSQL, Redis), clients {where}, loopback"
        )
        pids = [a.proc.pid for a in apps if a.proc is not None]
        code = asyncio.run(run(args, apps[0].url, ws_urls, pids, store))
    log = log_path.read_text(errors="replace")
    if "Traceback" in log:
        print("  the server logged a traceback:\n" + log[-3000:])
        code = 1
    tmp.cleanup()
    return code


if __name__ == "__main__":
    sys.exit(main())
