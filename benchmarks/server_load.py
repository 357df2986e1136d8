"""Load test of the web app: N concurrent games of computer players that play over
WebSockets on loopback, against a real server process (uvicorn, one worker).

Each game has two seats taken by client bots, the games shared among a few client
processes (``--socket-processes``). A bot that is on turn chooses the best-scoring move
with the move generator (in a worker process, so that the client's loop only sends,
receives and times), sends it, and measures the time
until the server's new state comes back (the move latency: the server checks the move
with the engine, saves it to the database and sends the new state to both players).
Games are played to the end. With a thinking time the games begin one after another
over one thinking time, as people's games do; ``--all-at-once`` starts them in the same
instant, and the first moves of every game then arrive together.

    python benchmarks/server_load.py                   # 50 games, SQLite file
    python benchmarks/server_load.py --games 10
    python benchmarks/server_load.py --postgres        # a throwaway PostgreSQL on loopback
    python benchmarks/server_load.py --database-url postgresql://user@127.0.0.1/db

Prints moves per second and the p50 / p90 / p99 / max move latency. With no thinking
time (the default) every game always has a move in flight: the server is saturated and
the latency is mostly waiting in line behind the other games' moves; ``--think 1``
shows the latency at a human pace. Then the processor time of the server, of the
clients' socket loops and of their move choice (all on the same machine), the load
average, and how late the clients' own loops woke (what of a latency is theirs). Traffic
goes only to 127.0.0.1; every loop is bounded (``--timeout``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from lexiko import movegen
from lexiko.lexicon import Lexicon
from lexiko.rules import Rules, preset

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


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    finished: int = 0
    client_cpu: float = 0.0
    loop_lag: list[float] = field(default_factory=list)
    chooser_cpu: float = 0.0
    final_versions: list[tuple[str, int]] = field(default_factory=list)


REDIS_DOWN = 3.0
"""Seconds Redis stays down with --kill-redis."""

GAMES_GO = threading.Event()
"""Set when the games start (what --kill-redis counts from)."""

_CHOOSER: tuple[Rules, Lexicon] | None = None


def _load_chooser(rules_name: str) -> None:
    global _CHOOSER
    rules = preset(rules_name)
    _CHOOSER = (rules, Lexicon.load(rules.lexicon, rules.tile_set))


def choose(rows: list[list[Any]], rack_faces: list[str], bag_count: int) -> dict[str, Any]:
    """The best-scoring move as the message that plays it (in a worker process: the
    clients' loop only sends and receives, so a reply is timed when it arrives, not
    after other clients' move generation)."""
    assert _CHOOSER is not None
    rules, lex = _CHOOSER
    rack = tuple(rules.tile_set.parse_token(f) for f in rack_faces)
    cand = movegen.best_move(board_from_rows(rows, rules), rack, lex, rules, bag_count=bag_count)
    return move_message(cand.move, rules.tile_set)


async def seat_bot(
    ws_url: str,
    game_id: str,
    token: str,
    pool: ProcessPoolExecutor,
    stats: Stats,
    deadline: float,
    think: float = 0.0,
    start: float = 0.0,
) -> None:
    """One seat: play every turn until the game is over (joining ``start`` seconds late)."""
    await asyncio.sleep(start)
    async with connect(f"{ws_url}/ws/{game_id}", max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seat: int | None = None
        state: dict[str, Any] | None = None
        sent_at: float | None = None
        sent_version = -1
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "welcome":
                seat = msg["seat"]
                continue
            if kind == "error":
                stats.errors.append(msg["message"])
                sent_at = None
                if state is None:
                    continue
            elif kind == "state":
                if state is not None and msg["version"] < state["version"]:
                    continue
                state = msg
                if sent_at is not None and msg["version"] > sent_version:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    stats.actions += 1
                    sent_at = None
            else:
                continue
            if state is None or sent_at is not None:
                continue
            if state["status"] == "over":
                if seat == 0:
                    stats.finished += 1
                stats.final_versions.append((game_id, state["version"]))
                return
            can = state["can"]
            if can["accept"]:
                action: dict[str, Any] = {"type": "accept"}
            elif can["play"]:
                began = time.perf_counter()
                action = await asyncio.get_running_loop().run_in_executor(
                    pool, choose, state["board"], state["rack"], state["bag_count"]
                )
                if think:  # the thinking time includes the move's generation
                    await asyncio.sleep(max(0.0, think - (time.perf_counter() - began)))
                sent_version = state["version"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps(action))
                continue
            else:
                continue
            if think:
                await asyncio.sleep(think)
            sent_version = state["version"]
            sent_at = time.perf_counter()
            await ws.send(json.dumps(action))


async def _loop_lag(stats: Stats) -> None:
    """How late this process's own loop wakes from a 10 ms sleep: the part of a measured
    latency that is the clients' waiting, not the server's."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        stats.loop_lag.append(time.perf_counter() - t - 0.01)


async def _create_games(args: argparse.Namespace, server: ServerProcess) -> list[tuple[str, str]]:
    """Create the games and take both seats of each: (game id, seat token) per seat."""
    limits = httpx.Limits(max_connections=20)
    seats: list[tuple[str, str]] = []
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        for i in range(args.games):
            r = await http.post(
                "/api/games",
                json={
                    "preset": args.rules,
                    "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}],
                    "seed": args.seed + i,
                },
            )
            r.raise_for_status()
            d = r.json()
            invite = d["invites"][0]["path"].rsplit("/", 1)[1]
            j = await http.post(f"/api/games/{d['game_id']}/join", json={"invite": invite, "name": "B"})
            j.raise_for_status()
            seats += [(d["game_id"], d["token"]), (d["game_id"], j.json()["token"])]
    return seats


async def _play_share(
    ws_url: str, share: list[tuple[str, str, float]], args: argparse.Namespace, ready: Any, go: Any
) -> Stats:
    """One client process's seats (game, token, start offset), played to the end."""
    stats = Stats()
    me = os.getpid()
    with ProcessPoolExecutor(args.client_processes, initializer=_load_chooser, initargs=(args.rules,)) as pool:
        pool.submit(int).result()  # the workers started (and their lexicon loaded) before the clock
        workers = [p.pid for p in pool._processes.values()]  # noqa: SLF001 (their CPU is reported)
        ready.set()
        go.wait()
        client0 = cpu_seconds(me)
        chooser0 = sum(cpu_seconds(w) for w in workers)
        deadline = time.monotonic() + args.timeout
        lag_task = asyncio.create_task(_loop_lag(stats))
        await asyncio.gather(
            *(seat_bot(ws_url, g, t, pool, stats, deadline, args.think, start) for g, t, start in share)
        )
        lag_task.cancel()
        stats.client_cpu = cpu_seconds(me) - client0
        stats.chooser_cpu = sum(cpu_seconds(w) for w in workers) - chooser0
    return stats


def _share_process(
    ws_url: str, share: list[tuple[str, str, float]], args: argparse.Namespace, ready: Any, go: Any, out: Any
) -> None:
    out.put(asyncio.run(_play_share(ws_url, share, args, ready, go)))


def run(args: argparse.Namespace, server: ServerProcess, pids: list[int]) -> tuple[Stats, float, float]:
    """Create the games, then play them from ``--socket-processes`` client processes (each
    its own loop and move choosers), all starting together; their figures merged."""
    seats = asyncio.run(_create_games(args, server))
    # the games begin one after another over one thinking time (--all-at-once: in the
    # same instant, a herd of first moves that a server of people never sees)
    spread = 0.0 if args.all_at_once else args.think / max(1, args.games)
    timed = [(g, t, spread * (k // 2)) for k, (g, t) in enumerate(seats)]
    n = max(1, min(args.socket_processes, len(timed)))
    ctx = multiprocessing.get_context("fork")
    go, out = ctx.Event(), ctx.Queue()
    procs = []
    readies = []
    for i in range(n):
        ready = ctx.Event()
        readies.append(ready)
        # whole games per process (both seats of a game in the same one)
        share = [s for k, s in enumerate(timed) if (k // 2) % n == i]
        procs.append(ctx.Process(target=_share_process, args=(server.ws_url, share, args, ready, go, out)))
    for pr in procs:
        pr.start()
    for ready in readies:
        ready.wait()

    def cpu_now() -> float:
        return sum(cpu_seconds(p) for p in pids) if pids and all(pids) else float("nan")

    cpu0 = cpu_now()
    t0 = time.perf_counter()
    go.set()
    GAMES_GO.set()
    parts = [out.get(timeout=args.timeout + 120) for _ in procs]
    wall = time.perf_counter() - t0
    cpu = cpu_now() - cpu0
    for pr in procs:
        pr.join()
    stats = Stats()
    for part in parts:
        stats.latencies += part.latencies
        stats.actions += part.actions
        stats.errors += part.errors
        stats.finished += part.finished
        stats.client_cpu += part.client_cpu
        stats.chooser_cpu += part.chooser_cpu
        stats.loop_lag += part.loop_lag
        stats.final_versions += part.final_versions
    return stats, wall, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=50, help="concurrent games (default: 50)")
    ap.add_argument("--rules", default="tournament", help="rules preset (default: tournament)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game; the others follow (default: 1)")
    ap.add_argument("--database-url", help="database of the server (default: a SQLite file in a temporary folder)")
    ap.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL on loopback and use it")
    ap.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a bot waits before each move (default: 0, as fast as the server goes)",
    )
    ap.add_argument("--port", type=int, help="use a server already running on 127.0.0.1:PORT (e.g. under a profiler)")
    ap.add_argument("--pid", type=int, help="its process id, to report its CPU time")
    ap.add_argument("--timeout", type=float, default=300, help="stop after this many seconds (default: 300)")
    ap.add_argument(
        "--all-at-once",
        action="store_true",
        help="start every game in the same instant (default: one after another over one thinking time)",
    )
    ap.add_argument(
        "--client-processes",
        type=int,
        default=1,
        help="processes that choose the client bots' moves, for each socket process (default: 1)",
    )
    ap.add_argument(
        "--kill-redis",
        type=float,
        metavar="SECONDS",
        help=f"with --processes: kill Redis this many seconds after the games start and start it again "
        f"{REDIS_DOWN:g} s later, then check that every game still ended with both clients at its final "
        "version (the news lost meanwhile is caught up from the database)",
    )
    ap.add_argument(
        "--socket-processes",
        type=int,
        default=2,
        help="client processes holding the bots' sockets, the games shared among them (default: 2: "
        "one loop for 400 sockets is itself late by tens of milliseconds at the 99th percentile, "
        "which would be counted as the server's)",
    )
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="app processes in shared mode behind nginx (needs --postgres, redis-server and nginx; "
        "default: 1, no proxy)",
    )
    args = ap.parse_args()
    if args.kill_redis is not None and args.processes < 2:
        sys.exit("--kill-redis needs --processes 2 or more (one process has no Redis)")
    if args.kill_redis is not None and not args.kill_redis >= 0:
        sys.exit(f"--kill-redis is seconds after the games start, 0 or more, not {args.kill_redis:g}")
    if args.socket_processes < 1:
        sys.exit(f"--socket-processes is 1 or more, not {args.socket_processes}")
    outages: list[float] = []

    tmp = tempfile.TemporaryDirectory(prefix="lexiko-load-")
    # everything started is stopped, whatever fails after it (an nginx that does not start
    # must not leave PostgreSQL, Redis and the app processes running)
    with contextlib.ExitStack() as started:
        pg: TemporaryPostgres | None = None
        if args.postgres:
            pg = TemporaryPostgres()
            started.callback(pg.stop)
            url = pg.start()
        else:
            url = args.database_url or str(Path(tmp.name) / "load.db")
        log_path = Path(tmp.name) / "server.log"
        log_path.touch()
        # every client here has one address: no per-address limits on games and connections;
        # seeded games between the client players make runs comparable
        extra = ["--games-per-hour", "0", "--connections-per-minute", "0", "--allow-seeds"]
        apps: list[ServerProcess] = []
        proxy: NginxProxy | None = None
        if args.processes > 1:
            if pg is None:
                sys.exit("--processes needs --postgres (shared mode runs on PostgreSQL)")
            redis = RedisServer()
            started.callback(lambda: redis.stop())
            extra += ["--redis-url", redis.start(), "--behind-proxy", "127.0.0.1"]
            if args.kill_redis is not None:

                def outage() -> None:
                    nonlocal redis
                    GAMES_GO.wait()
                    time.sleep(args.kill_redis)
                    redis.stop()
                    outages.append(time.monotonic())
                    time.sleep(REDIS_DOWN)
                    redis = RedisServer(port=redis.port)
                    redis.start()

                threading.Thread(target=outage, daemon=True).start()
            apps = [ServerProcess(url, log_path=log_path, extra=extra) for _ in range(args.processes)]
            for a in apps:
                started.callback(a.stop)
                a.start()
            proxy = NginxProxy([a.port for a in apps], Path(tmp.name))
            started.callback(proxy.stop)
            proxy.start()
        server = ServerProcess(url, log_path=log_path, port=proxy.port if proxy else args.port, extra=extra)
        if args.port is None and proxy is None:
            started.callback(server.stop)
            server.start()
        pids = [a.proc.pid for a in apps if a.proc is not None] or (
            [args.pid or (server.proc.pid if server.proc is not None else 0)]
        )
        stats, wall, cpu = run(args, server, pids)
    lat = [x * 1000 for x in stats.latencies]
    db = "PostgreSQL" if "postgresql" in url else "SQLite" if args.port is None else "a running server"
    if args.processes > 1:
        db += f", {args.processes} processes in shared mode (Redis) behind nginx"
    think = f", {args.think:g} s thinking per move" if args.think else ""
    if args.think and not args.all_at_once:
        think += f", games starting over {args.think:g} s"
    print(f"lexiko server load: {args.games} concurrent games, 2 WebSocket bots each{think}, {db}, loopback")
    print(f"  games finished      {stats.finished} / {args.games}")
    print(f"  moves               {stats.actions} in {wall:.2f} s")
    print(f"  moves per second    {stats.actions / wall:.1f}")
    if lat:
        print(
            f"  move latency (ms)   p50 {percentile(lat, 50):.1f}   p90 {percentile(lat, 90):.1f}"
            f"   p99 {percentile(lat, 99):.1f}"
            f"   max {max(lat):.1f}   mean {statistics.fmean(lat):.1f}"
        )
    print(
        f"  server CPU          {cpu:.2f} s ({100 * cpu / wall:.0f}% of one core), "
        f"{1000 * cpu / max(1, stats.actions):.2f} ms per move"
    )
    print(
        f"  client CPU          sockets {stats.client_cpu:.2f} s ({100 * stats.client_cpu / wall:.0f}%), "
        f"move choice {stats.chooser_cpu:.2f} s ({100 * stats.chooser_cpu / wall:.0f}%); "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    if stats.loop_lag:
        lag = [x * 1000 for x in stats.loop_lag]
        print(
            f"  client loop lag     p50 {percentile(lag, 50):.1f}   p99 {percentile(lag, 99):.1f}"
            f"   max {max(lag):.1f} ms (late wake-ups of the clients' own loop)"
        )
    if args.kill_redis is not None:
        seen: dict[str, set[int]] = {}
        for gid, version in stats.final_versions:
            seen.setdefault(gid, set()).add(version)
        apart = sum(1 for vs in seen.values() if len(vs) > 1)
        print(
            f"  Redis outage        {'killed' if outages else 'NOT killed'} {args.kill_redis:g} s in, back "
            f"{REDIS_DOWN:g} s later; games finished {stats.finished} / {args.games}; "
            f"games whose two clients ended at different versions: {apart}"
        )
    if stats.errors:
        print(f"  errors              {len(stats.errors)} (first: {stats.errors[0]})")
    log = log_path.read_text(errors="replace")
    if "Traceback" in log:
        print("  the server logged a traceback:\n" + log[-3000:])
    tmp.cleanup()
    return 0 if stats.finished == args.games and not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
