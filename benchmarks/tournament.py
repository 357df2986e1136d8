"""Tournament pairing at event scale, and whole events through the library.

1. Pairing one Swiss round of 1,000 players (``--players``) after ``--after`` simulated
   rounds: the time to pair (records, standings, the search), over several rounds.
2. A whole event of 500 players (``--event-players``) over 30 rounds (``--rounds``),
   Swiss, every round paired, its results entered and checked through the library: no
   repeat pairing (the check is that none occurs, which holds while the field is far
   larger than the rounds), byes never twice to one player while another has none,
   standings equal to a recomputation from the raw results, the event file read back
   exactly. Results are simulated from the ratings (``--results ratings``, the default:
   each game's winner drawn by the Elo expectation, scores around 400) or played by two
   static bots in the kernel (``--results bots``, TWL06: every game of a round in one
   call), then Glicko-2 estimates.

    python benchmarks/tournament.py                         # both parts
    python benchmarks/tournament.py --results bots          # the event's games played by bots
    python benchmarks/tournament.py --players 2000 --event-players 0

Prints each figure; nothing is asserted on time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable

from lexiko.tournament import Division, Player, Settings, pair, records, standings
from lexiko.tournament.files import event_from_json, event_to_json
from lexiko.tournament.model import Event

Play = Callable[[Division, random.Random], None]


def field(n: int, rng: random.Random, method: str = "swiss", rounds: int = 0) -> Division:
    d = Division("A", Settings(method=method, rounds=rounds))
    for i in range(n):
        d.add_player(Player(f"Player {chr(65 + i % 26)}{i}", rng.randint(600, 2200)))
    return d


def by_ratings(d: Division, rng: random.Random) -> None:
    """Results of the last round drawn from the ratings (Elo expectation)."""
    number = len(d.rounds)
    for p, r in zip(d.rounds[-1].pairings, d.rounds[-1].results, strict=True):
        if r is not None or p.second is None:
            continue
        ra, rb = d.players[p.first - 1].rating, d.players[p.second - 1].rating
        win = rng.random() < 1 / (1 + 10 ** ((rb - ra) / 400))
        margin = rng.randint(1, 150)
        base = rng.randint(300, 450)
        a, b = (base + margin, base) if win else (base, base + margin)
        d.record(number, p.first, a, p.second, b)


def by_bots(lexicon_name: str) -> Play:
    """Results of the last round played by two static bots each, every game in one kernel call."""
    from lexiko.bots.playout import static_games
    from lexiko.leaves import LeaveTable
    from lexiko.lexicon import Lexicon
    from lexiko.rules import TOURNAMENT

    lexicon = Lexicon.load(lexicon_name)
    tables = [LeaveTable.default(lexicon.tiles)] * 2

    def play(d: Division, rng: random.Random) -> None:
        number = len(d.rounds)
        games = [p for p, r in zip(d.rounds[-1].pairings, d.rounds[-1].results, strict=True) if r is None and p.second]
        seeds = [rng.getrandbits(63) for _ in games]
        for p, g in zip(games, static_games(seeds, [0] * len(games), tables, lexicon, TOURNAMENT), strict=True):
            assert p.second is not None
            d.record(number, p.first, g.scores[0], p.second, g.scores[1])

    return play


def check(d: Division) -> None:
    """The pairing checks over the whole event (raise AssertionError on a breach)."""
    met: Counter[tuple[int, int]] = Counter()
    byes = [0] * (len(d.players) + 1)
    for k, rnd in enumerate(d.rounds):
        for p in rnd.pairings:
            if p.second is None:
                byes[p.first] += 1
            else:
                met[min(p.players), max(p.players)] += 1
        counts = byes[1:]
        assert max(counts) - min(counts) <= 1, f"round {k + 1}: byes {max(counts)} and {min(counts)}"
    assert max(met.values()) == 1, "a repeat pairing"
    wins: Counter[int] = Counter()
    spread: Counter[int] = Counter()
    for rnd in d.rounds:
        for p, r in zip(rnd.pairings, rnd.results, strict=True):
            assert r is not None
            if p.second is None:
                wins[p.first] += 2 * (r.first >= 0)
                spread[p.first] += r.first
            else:
                wins[p.first] += 2 if r.first > r.second else r.first == r.second
                wins[p.second] += 2 if r.second > r.first else r.first == r.second
                spread[p.first] += r.first - r.second
                spread[p.second] += r.second - r.first
    assert [(s.wins, s.spread) for s in standings(d)] == sorted(
        ((wins[n] / 2, spread[n]) for n in range(1, len(d.players) + 1)), key=lambda ws: (-ws[0], -ws[1])
    ), "standings differ from the recomputation"


def swiss_round(players: int, after: int, repeats: int, seed: int) -> None:
    rng = random.Random(seed)
    d = field(players, rng)
    for _ in range(after):
        pair(d)
        by_ratings(d, rng)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        pair(d)
        times.append(time.perf_counter() - t0)
        by_ratings(d, rng)
    balance = max(abs(r.balance) for r in records(d).values())
    print(
        f"Swiss round of {players:,} players after {after} rounds: median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms over {repeats} rounds (the worst first-minus-second after them: {balance})"
    )


def whole_event(players: int, rounds: int, seed: int, play: Play, how: str) -> None:
    rng = random.Random(seed)
    d = field(players, rng, rounds=rounds)
    t0 = time.perf_counter()
    pairing = playing = 0.0
    for _ in range(rounds):
        t = time.perf_counter()
        pair(d)
        pairing += time.perf_counter() - t
        t = time.perf_counter()
        play(d, rng)
        playing += time.perf_counter() - t
    total = time.perf_counter() - t0
    t = time.perf_counter()
    check(d)
    text = event_to_json(Event("Benchmark", [d]))
    assert event_from_json(text).divisions[0] == d, "the event file does not read back"
    checking = time.perf_counter() - t
    rating = ""
    try:
        from lexiko.tournament.ratings import glicko2

        t = time.perf_counter()
        glicko2(d)
        rating = f", Glicko-2 estimates {time.perf_counter() - t:.2f} s"
    except ImportError:  # pragma: no cover - the extra missing
        pass
    balance = Counter(abs(r.balance) for r in records(d).values())
    print(
        f"event of {players:,} players, {rounds} rounds, results {how}: {total:.1f} s "
        f"(pairing {pairing:.1f} s, results {playing:.1f} s); checks and file round trip {checking:.1f} s{rating}; "
        f"{len(text) / 1e6:.1f} MB event file; |firsts - seconds| over players: {dict(sorted(balance.items()))}"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Time lexiko's tournament pairing and whole simulated events.")
    p.add_argument("--players", type=int, default=1000, help="players of the timed Swiss round (0: skip)")
    p.add_argument("--after", type=int, default=5, help="rounds played before the timed rounds (default 5)")
    p.add_argument("--repeats", type=int, default=5, help="timed rounds (default 5)")
    p.add_argument("--event-players", type=int, default=500, help="players of the whole event (0: skip)")
    p.add_argument("--rounds", type=int, default=30, help="rounds of the whole event (default 30)")
    p.add_argument("--results", choices=("ratings", "bots"), default="ratings")
    p.add_argument("--lexicon", default="TWL06", help="the bots' lexicon (--results bots)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    one, five, _ = os.getloadavg()
    print(f"lexiko tournament benchmark; load average {one:.2f} {five:.2f} on {os.cpu_count()} cores")
    if args.players:
        swiss_round(args.players, args.after, args.repeats, args.seed)
    if args.event_players:
        play = by_bots(args.lexicon) if args.results == "bots" else by_ratings
        how = "played by static bots" if args.results == "bots" else "drawn from the ratings"
        whole_event(args.event_players, args.rounds, args.seed, play, how)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
