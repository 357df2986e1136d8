"""An event in the web app at club-to-congress scale: ``--players`` people register
through the API, the director starts it (the first round paired, its games stored and
started), then every game of each round is resigned at once over the games' sockets,
and the time is taken until the next round is paired (each result entered as its game
ends, the last one pairing the round after).

    python benchmarks/web_event.py                     # 200 players, 3 rounds, SQLite
    python benchmarks/web_event.py --players 500 --rounds 2

The app runs in a thread of this process (tests/webharness.py's ``Server``) on a SQLite
file, without the rate limits per address (every client is on loopback); the clients
run in this process too. Prints each figure; nothing is asserted on time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from webharness import Connection, Server  # noqa: E402

from lexiko.web.limits import Limits  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    unlimited = Limits(connections=None, requests=None, games=None)  # every client on one address
    with (
        tempfile.TemporaryDirectory() as tmp,
        Server(f"sqlite:///{Path(tmp) / 'event.db'}", limits=unlimited) as server,
    ):
        http = server.http
        made = http.post(
            "/api/events",
            json={"name": "Bench", "divisions": [{"name": "A", "rounds": args.rounds}], "options": {}},
        ).json()
        event_id, key = made["event_id"], made["register_path"].rsplit("/", 1)[1]
        auth = {"Authorization": "Bearer " + made["token"]}
        tokens: dict[int, str] = {}
        took: list[float] = []
        t0 = time.perf_counter()
        for i in range(args.players):
            t = time.perf_counter()
            r = http.post(f"/api/events/{event_id}/register", json={"key": key, "name": f"P{i}", "rating": 1000 + i})
            took.append(time.perf_counter() - t)
            tokens[r.json()["number"]] = r.json()["token"]
        print(
            f"{args.players} registrations: {time.perf_counter() - t0:.2f} s "
            f"(median {statistics.median(took) * 1000:.1f} ms, max {max(took) * 1000:.1f} ms)"
        )
        t = time.perf_counter()
        view = http.post(f"/api/events/{event_id}/start", headers=auth).json()
        print(f"start (round 1 paired, {args.players // 2} games stored and started): {time.perf_counter() - t:.2f} s")
        t = time.perf_counter()
        http.get(f"/api/events/{event_id}")
        print(f"the event read (standings, every round): {(time.perf_counter() - t) * 1000:.1f} ms")

        def resign(pairing: dict[str, object]) -> None:
            conn = Connection(server.ws_url, str(pairing["game_id"]), tokens[int(str(pairing["second"]))])
            conn.act({"type": "resign"})
            conn.close()

        for r in range(1, args.rounds + 1):
            pairings = [p for p in view["divisions"][0]["paired"][r - 1]["pairings"] if p["second"] is not None]
            t = time.perf_counter()
            with ThreadPoolExecutor(16) as pool:
                list(pool.map(resign, pairings))
            sent = time.perf_counter() - t
            while True:
                view = http.get(f"/api/events/{event_id}").json()
                if view["status"] == "over" or len(view["divisions"][0]["paired"]) > r:
                    break
                time.sleep(0.05)
            print(
                f"round {r}: {len(pairings)} games resigned in {sent:.2f} s; every result in and the next round "
                f"paired {time.perf_counter() - t:.2f} s after the first"
            )


if __name__ == "__main__":
    main()
