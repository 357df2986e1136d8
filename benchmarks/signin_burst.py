"""Sign-ins in a burst: N people signing in at once from N addresses (the server trusts
``X-Forwarded-For`` from loopback, so each request counts for its own address), while a
watcher asks ``/healthz`` every 50 ms. Prints the time until every sign-in is answered,
how they were answered, the slowest ``/healthz`` during the burst (what every game waits
meanwhile) and the server's peak memory.

Issue 34 measured 151 s and 678 MB for 200 sign-ins (Argon2 at its default cost in the
default thread pool); the web app now hashes at OWASP's cost on two threads and answers
"busy, try again" past 64 waiting.

    python benchmarks/signin_burst.py                 # 200 sign-ins, one right password each
    python benchmarks/signin_burst.py --people 500
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from webharness import ServerProcess  # noqa: E402

PASSWORD = "tulip orbit ferry"


def peak_kb(pid: int) -> int:
    """The peak resident memory of a process (VmHWM), in KB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


async def burst(url: str, people: int) -> tuple[float, collections.Counter[str], float]:
    limits = httpx.Limits(max_connections=people)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as http:
        r = await http.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        r.raise_for_status()
        done = asyncio.Event()
        slowest = 0.0

        async def watch() -> None:  # a client of its own: not queued behind the burst's connections
            nonlocal slowest
            async with httpx.AsyncClient(base_url=url, timeout=600) as own:
                while not done.is_set():
                    t = time.perf_counter()
                    await own.get("/healthz")
                    slowest = max(slowest, time.perf_counter() - t)
                    await asyncio.sleep(0.05)

        async def sign_in(i: int) -> str:
            headers = {"X-Forwarded-For": f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}"}
            r = await http.post("/api/session", json={"name": "Ann", "password": PASSWORD}, headers=headers)
            return f"{r.status_code} {r.json().get('error', 'signed in')}"

        watcher = asyncio.create_task(watch())
        start = time.perf_counter()
        answers = await asyncio.gather(*(sign_in(i) for i in range(people)))
        wall = time.perf_counter() - start
        done.set()
        await watcher
        return wall, collections.Counter(answers), slowest


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--people", type=int, default=200, help="sign-ins at once (default: 200)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="lexiko-signin-") as tmp:
        server = ServerProcess(
            f"sqlite:///{tmp}/s.db",
            extra=["--behind-proxy", "127.0.0.1", "--requests-per-minute", "0", "--log-level", "warning"],
            log_path=Path(tmp) / "server.log",
        )
        server.start()
        try:
            assert server.proc is not None
            wall, answers, slowest = asyncio.run(burst(server.url, args.people))
            peak = peak_kb(server.proc.pid)
        finally:
            server.stop()
    load = os.getloadavg()[0]
    print(f"lexiko sign-in burst: {args.people} sign-ins at once from {args.people} addresses (load {load:.1f})")
    print(f"  every answer in      {wall:.2f} s")
    for answer, n in answers.most_common():
        print(f"  {n:5d} x {answer}")
    print(f"  slowest /healthz     {slowest * 1000:.0f} ms during the burst")
    print(f"  server peak memory   {peak / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
