"""Pairing methods: who meets whom in the next round, and who goes first.

Every method returns the pairings of the next round; `pair` checks them and adds the
round to the division. The methods (`METHODS`):

- ``round-robin``: everyone meets everyone once, by the circle method over the players
  in number order (an odd field gets a bye each round, each player once); who goes first
  is fixed so that each player's firsts and seconds differ by at most 1 at the end.
  ``double-round-robin`` plays it twice, the second time with firsts and seconds swapped.
  Past one cycle the schedule starts again.
- ``swiss``: players ranked by the standings; within a group of equal wins the top half
  meets the bottom half (the leader meets the player half the group below), an odd
  player floating down to the next group. No repeat pairing while one can be avoided:
  the search is complete (bounded by `SEARCH_STEPS` tries, which only a field playing
  more rounds than about half its size reaches) before it allows repeats, and then
  pairs with the fewest it finds. A player who has met everyone else makes a repeat
  certain: then it does not search for none. An
  opponent due the same turn (both have gone first more often, or both second) is taken
  only after those who are not, in the player's score group and the next two down
  (`TURN_SLACK`), and after every other when one of the two is already 2 or more off
  even: firsts and seconds stay within 1 for nearly everyone (in simulated 500-player,
  30-round events, results drawn from ratings or played by bots, 496 players end even
  and 4 at 2).
- ``king-of-the-hill``: 1 meets 2, 3 meets 4, ... by the standings, repeats allowed.
- ``initial-fontes``: the first ``fontes`` rounds (odd) are round robins within groups
  of ``fontes + 1`` players spread by rating (the top-rated player of each group in
  turn, then the next); players left over (fewer than a group) join the last group,
  which plays the first ``fontes`` rounds of its longer round robin. Later rounds are Swiss.
- ``factor``: the player ranked 1 meets the player ranked 1 + ``factor``, 2 meets
  2 + ``factor``, ... for the top 2 x ``factor`` players; the rest king of the hill.
- ``elimination``: single elimination, reseeded each round (the highest seed left meets
  the lowest); seeds by rating, then number; the top seeds get byes when the field is
  not a power of 2; a drawn game goes to the higher seed. Losers are not paired again.
- ``team-round-robin``: each team meets each other team (a circle over the teams, a bye
  team when their number is odd); a meeting lasts as many rounds as a team has players,
  each player meeting every player of the other team once (teams ranked by rating);
  in each round one team goes first on every board, in turn, so that every player's
  firsts and seconds differ by at most 1 at the end.
- ``manual``: the pairings given, checked (each player once, first listed goes first).

Byes (Swiss, king of the hill, factor): when the number of players to pair is odd, the
lowest-ranked player among those with the fewest byes gets it: nobody gets a second bye
while another active player has none. In Swiss, when the rest cannot then be paired
without a repeat, the next of those players in line takes it instead if that avoids
one (up to `BYE_TRIES` of them). A bye counts ``bye_spread`` (a win when at least 0).

Who goes first (every method without a fixed schedule): the player with more seconds
than firsts so far; if equal, the one who went second last time; then the higher ranked.

Gibsonization (``gibson`` with ``rounds`` planned): when the leader is ahead of the
second by more wins than there are rounds left, they have clinched first; if the field
is odd they get the bye, else they meet the highest-ranked player who can no longer
finish in the ``prizes`` places (one not met before if there is one), and the others are
paired by the method.

>>> from lexiko.tournament.model import Division, Player, Settings
>>> d = Division("A", Settings(method="round-robin"))
>>> for name in "ABCDE":
...     _ = d.add_player(Player(name))
>>> pair(d)
Round(Pairing(1, None): bye +50, Pairing(5, 2), Pairing(3, 4))
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from lexiko.tournament.model import Division, Pairing, Round, TournamentError, check_method
from lexiko.tournament.standings import Record, outcome, records, standings

__all__ = ["pair", "pairings_for", "round_robin_round", "SEARCH_STEPS"]

TURN_SLACK = 2
"""How many score groups further down Swiss looks for an opponent not due the same
turn before it takes one who is."""

BYE_TRIES = 4
"""How many players due the bye Swiss tries, lowest-ranked first, for a round without a
repeat (each with a tenth of `SEARCH_STEPS`)."""

SEARCH_STEPS = 50_000
"""The most candidate tries one Swiss search makes before giving up its constraint."""


def pair(division: Division, method: str | None = None, manual: Sequence[Pairing] = ()) -> Round:
    """Pair the next round of ``division`` by ``method`` (default: its settings') and add it."""
    division.check_next_round()
    method = check_method(method or division.settings.method)
    pairings = pairings_for(division, method, manual)
    if method == "elimination":
        return division.add_round(pairings, everyone=False)
    return division.add_round(pairings)


def pairings_for(division: Division, method: str, manual: Sequence[Pairing] = ()) -> list[Pairing]:
    """The pairings of the next round by ``method`` (not checked, not added)."""
    if method == "manual":
        if not manual:
            raise TournamentError("manual pairing needs the pairings")
        return list(manual)
    if manual:
        raise TournamentError(f"pairings are given only with the manual method, not {method}")
    number = len(division.rounds)
    if method in ("round-robin", "double-round-robin"):
        return _round_robin(division, number, method == "double-round-robin")
    if method == "team-round-robin":
        return _team_round_robin(division, number)
    if method == "elimination":
        return _elimination(division)
    return _ranked(division, method, number)


# -- round robin


def round_robin_round(size: int, r: int) -> list[tuple[int, int]]:
    """Round ``r`` (from 0) of a round robin of ``size`` places (even), as pairs of places
    (from 0) the first goes first; over ``size - 1`` rounds every two places meet once and
    every place goes first ``size / 2`` or ``size / 2 - 1`` times (the last place, which
    an odd field's bye takes, exactly half of the others' games).

    >>> round_robin_round(4, 0)
    [(0, 3), (1, 2)]
    >>> sorted(tuple(sorted(p)) for r in range(3) for p in round_robin_round(4, r))
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    """
    m = size - 1
    r %= m
    fixed = (r, size - 1) if r % 2 == 0 else (size - 1, r)
    pairs = [fixed]
    for k in range(1, size // 2):
        a, b = (r - k) % m, (r + k) % m
        # a meets b with b = a + 2k (mod m): the first is the one the other lies "ahead" of
        pairs.append((a, b) if (2 * k) % m <= (m - 1) // 2 else (b, a))
    return pairs


def _round_robin(division: Division, number: int, double: bool) -> list[Pairing]:
    players = list(range(1, len(division.players) + 1))
    size = len(players) + len(players) % 2
    if size < 2:
        raise TournamentError(f"division {division.name} needs at least 2 players for a round robin")
    swap = double and (number // (size - 1)) % 2 == 1
    out = []
    for a, b in round_robin_round(size, number):
        if swap:
            a, b = b, a
        pa = players[a] if a < len(players) else None
        pb = players[b] if b < len(players) else None
        out += _scheduled(division, pa, pb)
    return out


def _scheduled(division: Division, a: int | None, b: int | None) -> list[Pairing]:
    """A scheduled game, a withdrawn player's opponent given a bye instead."""
    live = [p for p in (a, b) if p is not None and not division.players[p - 1].withdrawn]
    if len(live) == 2:
        return [Pairing(live[0], live[1])]
    return [Pairing(live[0], None)] if live else []


# -- team round robin


def _team_round_robin(division: Division, number: int) -> list[Pairing]:
    teams: dict[str, list[int]] = {}
    for n, p in enumerate(division.players, 1):
        if not p.team:
            raise TournamentError(f"{division.label(n)} has no team: a team round robin needs every player's team")
        teams.setdefault(p.team, []).append(n)
    if len(teams) < 2:
        raise TournamentError("a team round robin needs at least 2 teams")
    sizes = {len(v) for v in teams.values()}
    if len(sizes) > 1:
        listed = ", ".join(f"{t} {len(v)}" for t, v in sorted(teams.items()))
        raise TournamentError(f"the teams of a team round robin need as many players each ({listed})")
    size = sizes.pop()
    names = sorted(teams)
    members = [sorted(teams[t], key=lambda n: (-division.players[n - 1].rating, n)) for t in names]
    slots = len(names) + len(names) % 2
    meeting, board_round = divmod(number, size)
    out: list[Pairing] = []
    for ta, tb in round_robin_round(slots, meeting):
        if ta >= len(names) or tb >= len(names):
            real = ta if ta < len(names) else tb
            out += [q for n in members[real] for q in _scheduled(division, n, None)]
            continue
        for i in range(size):
            a, b = members[ta][i], members[tb][(i + board_round) % size]
            # the whole team goes first in turn: a meeting of an even number of rounds
            # leaves both teams even, an odd one gives the first listed one more first,
            # which the circle evens out over the meetings
            out += _scheduled(division, *((a, b) if board_round % 2 == 0 else (b, a)))
    return out


# -- elimination


def _seeds(division: Division) -> list[int]:
    return sorted(range(1, len(division.players) + 1), key=lambda n: (-division.players[n - 1].rating, n))


def _elimination(division: Division) -> list[Pairing]:
    out_of_it: set[int] = set()
    seed = {n: i for i, n in enumerate(_seeds(division))}
    for rnd in division.rounds:
        for p, r in zip(rnd.pairings, rnd.results, strict=True):
            if p.second is None or r is None:
                continue
            share = outcome(r, False)
            if share == 0.5:
                share = 1.0 if seed[p.first] < seed[p.second] else 0.0
            out_of_it.add(p.second if share == 1.0 else p.first)
    alive = [n for n in _seeds(division) if n not in out_of_it and not division.players[n - 1].withdrawn]
    if len(alive) < 2:
        if alive:
            raise TournamentError(f"the elimination is over: {division.label(alive[0])} won")
        raise TournamentError("the elimination is over: nobody is left")
    full = 1
    while full < len(alive):
        full *= 2
    byes = full - len(alive)
    out = [Pairing(n, None) for n in alive[:byes]]
    rest = alive[byes:]
    recs = records(division)
    rank = {n: i for i, n in enumerate(alive)}
    for i in range(len(rest) // 2):
        out.append(_orient(rest[i], rest[-1 - i], recs, rank))
    return out


# -- ranked methods: Swiss, king of the hill, factor, initial fontes


def _orient(a: int, b: int, recs: dict[int, Record], rank: dict[int, int]) -> Pairing:
    """The pairing of ``a`` and ``b`` with the player due to go first first."""
    ka = (recs[a].balance, recs[a].last_first, rank[a])
    kb = (recs[b].balance, recs[b].last_first, rank[b])
    return Pairing(a, b) if ka <= kb else Pairing(b, a)


def _ranked(division: Division, method: str, number: int) -> list[Pairing]:
    recs = records(division)
    order = [s.number for s in standings(division) if not s.withdrawn]
    rank = {n: i for i, n in enumerate(order)}
    out: list[Pairing] = []
    settings = division.settings
    if method == "initial-fontes" and number < settings.fontes:
        return _fontes(division, number)
    gibson = _gibsonized(division, recs, order)
    if gibson is not None:
        order.remove(gibson)
        if len(order) % 2 == 0:
            out.append(Pairing(gibson, None))
        else:
            opponent = _gibson_opponent(division, recs, order, gibson)
            order.remove(opponent)
            out.append(_orient(gibson, opponent, recs, rank))
    pairs: list[tuple[int, int]] | None = None
    if len(order) % 2:
        fewest = min(recs[n].byes for n in order)
        due = [n for n in reversed(order) if recs[n].byes == fewest]
        bye = due[0]
        if method not in ("king-of-the-hill", "factor"):
            # Swiss: the next in line for the bye takes it when that avoids a repeat
            for other in due[:BYE_TRIES]:
                rest = [n for n in order if n != other]
                pairs = swiss_pairs(rest, recs, SEARCH_STEPS // 10, repeats=False)
                if pairs is not None:
                    bye = other
                    break
        order.remove(bye)
        out.append(Pairing(bye, None))
    if pairs is not None:
        pass
    elif method == "king-of-the-hill":
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    elif method == "factor":
        f = min(settings.factor, len(order) // 2)
        pairs = [(order[i], order[i + f]) for i in range(f)]
        pairs += [(order[i], order[i + 1]) for i in range(2 * f, len(order), 2)]
    else:
        pairs = swiss_pairs(order, recs)
        assert pairs is not None
    out += [_orient(a, b, recs, rank) for a, b in pairs]
    return out


def _gibsonized(division: Division, recs: dict[int, Record], order: list[int]) -> int | None:
    s = division.settings
    if not s.gibson or not s.rounds or len(order) < 3:
        return None
    left = s.rounds - len(division.rounds)
    lead = recs[order[0]].wins - recs[order[1]].wins
    return order[0] if lead > left else None


def _gibson_opponent(division: Division, recs: dict[int, Record], order: list[int], gibson: int) -> int:
    left = division.settings.rounds - len(division.rounds)
    prizes = division.settings.prizes
    bar = recs[order[prizes - 2]].wins if prizes >= 2 and len(order) >= prizes - 1 else None
    out_of_prizes = [n for n in order if bar is None or recs[n].wins + left < bar]
    if not out_of_prizes:
        return order[-1]
    fresh = [n for n in out_of_prizes if n not in recs[gibson].opponents]
    return (fresh or out_of_prizes)[0]


def _fontes(division: Division, number: int) -> list[Pairing]:
    size = division.settings.fontes + 1
    if size % 2:
        raise TournamentError(f"initial fontes needs an odd number of rounds, not {size - 1}")
    by_rating: list[int | None] = [n for n in _seeds(division) if not division.players[n - 1].withdrawn]
    if len(by_rating) % 2:
        by_rating.append(None)  # the bye: the lowest "rating"
    count = max(1, len(by_rating) // size)
    out: list[Pairing] = []
    for g in range(count):
        members = by_rating[g : count * size : count]
        if g == count - 1:
            members += by_rating[count * size :]  # the players left over: the last group grows
        for a, b in round_robin_round(len(members), number):
            pa, pb = members[a], members[b]
            if pa is None or pb is None:
                real = pa if pa is not None else pb
                assert real is not None
                out.append(Pairing(real, None))
            else:
                out.append(Pairing(pa, pb))
    return out


# -- the Swiss search


def swiss_pairs(
    order: list[int], recs: dict[int, Record], steps: int = SEARCH_STEPS, repeats: bool = True
) -> list[tuple[int, int]] | None:
    """Pairs of the players of ``order`` (ranked, an even number), Swiss (see the module's
    documentation): no repeat while one can be avoided (within ``steps`` tries); None
    when there is none without a repeat and ``repeats`` is False.

    >>> recs = {n: Record(n) for n in range(1, 7)}
    >>> swiss_pairs([1, 2, 3, 4, 5, 6], recs)
    [(1, 4), (2, 5), (3, 6)]
    >>> recs[1].opponents.append(4); recs[4].opponents.append(1)
    >>> swiss_pairs([1, 2, 3, 4, 5, 6], recs)
    [(1, 5), (2, 6), (3, 4)]
    """
    n = len(order)
    if n % 2:
        raise TournamentError("the Swiss search pairs an even number of players")
    wins = [recs[p].wins for p in order]
    groups: list[tuple[int, int]] = []
    group_of = [0] * n
    start = 0
    for i in range(1, n + 1):
        if i == n or wins[i] != wins[start]:
            groups.append((start, i))
            for k in range(start, i):
                group_of[k] = len(groups) - 1
            start = i
    ideal = [0] * n
    for lo, hi in groups:
        half = (hi - lo) // 2
        for k in range(lo, hi):
            ideal[k] = k + half if k - lo < half else k + 1
    index = {p: i for i, p in enumerate(order)}
    met = [{index[o] for o in recs[p].opponents if o in index} for p in order]
    due = [max(-1, min(1, recs[p].balance)) for p in order]
    far = [abs(recs[p].balance) >= 2 for p in order]

    def nearest(i: int, lo: int, hi: int) -> Iterator[int]:
        target = min(max(ideal[i], lo), hi - 1)
        yield target
        for d in range(1, hi - lo):
            if target + d < hi:
                yield target + d
            if target - d >= lo:
                yield target - d

    taken = [False] * n

    def candidates(i: int, repeat: bool) -> Iterator[int]:
        # group by group, each by distance, the players due the same turn put off by
        # TURN_SLACK groups, or to the end when one of the two is 2 or more off even
        put_off: list[list[int]] = []
        last: list[int] = []
        for lo, hi in groups[group_of[i] :]:
            later: list[int] = []
            for j in nearest(i, lo, hi):
                if taken[j] or j in met[i]:
                    continue
                if due[i] and due[i] == due[j]:
                    (last if far[i] or far[j] else later).append(j)
                    continue
                yield j
            put_off.append(later)
            if len(put_off) > TURN_SLACK:
                yield from put_off.pop(0)
        for later in put_off:
            yield from later
        yield from last
        if repeat:
            for lo, hi in groups[group_of[i] :]:
                for j in nearest(i, lo, hi):
                    if not taken[j] and j in met[i]:
                        yield j

    def search(repeat: bool) -> list[tuple[int, int]] | None:
        for k in range(n):
            taken[k] = False
        stack: list[tuple[int, Iterator[int], int]] = []
        tries = 0
        cur = 0
        while True:
            while cur < n and taken[cur]:
                cur += 1
            if cur == n:
                return [(order[i], order[j]) for i, _, j in stack]
            taken[cur] = True
            stack.append((cur, candidates(cur, repeat), -1))
            while True:
                i, it, j = stack[-1]
                if j >= 0:
                    taken[j] = False
                nxt = next(it, -1)
                tries += 1
                if tries > steps and not repeat:
                    return None
                if nxt >= 0:
                    taken[nxt] = True
                    stack[-1] = (i, it, nxt)
                    cur = i + 1
                    break
                stack.pop()
                taken[i] = False
                if not stack:
                    return None

    # a player who has met everyone else makes a repeat certain: no need to search for none
    certain = any(len(m) >= n - 1 for m in met)
    for repeat in (False, True) if repeats else (False,):
        if certain and not repeat:
            continue
        found = search(repeat)
        if found is not None:
            return found
    return None
