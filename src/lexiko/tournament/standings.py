"""Standings: wins (a draw half a win) then spread, ties broken as documented.

The order, each step breaking the ties of the one before:

1. wins, most first (a draw counts half; a bye counts as a win when its spread is at
   least 0, a missed round as a loss when below);
2. spread (points for minus points against; byes and missed rounds add their spread);
3. points scored in games (byes add none);
4. rating before the event, highest first;
5. the player's number (who joined first).

Withdrawn players keep their place in the standings, marked as withdrawn.

>>> from lexiko.tournament.model import Division, Pairing, Player
>>> d = Division("A")
>>> for name in ("Ann", "Bo", "Cy", "Di"):
...     _ = d.add_player(Player(name))
>>> _ = d.add_round([Pairing(1, 2), Pairing(3, 4)])
>>> _ = d.record(1, 1, 400, 2, 400); _ = d.record(1, 3, 350, 4, 500)
>>> [(s.rank, s.name, s.wins, s.spread) for s in standings(d)]
[(1, 'Di', 1.0, 150), (2, 'Ann', 0.5, 0), (3, 'Bo', 0.5, 0), (4, 'Cy', 0.0, -150)]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lexiko.tournament.model import Division, Result

__all__ = ["Record", "Standing", "TeamStanding", "records", "standings", "team_standings", "outcome"]


def outcome(result: Result, bye: bool) -> float:
    """The first player's share of the win: 1, 0.5 or 0 (a bye: 1 when its spread is at least 0).

    >>> outcome(Result(400, 380), False), outcome(Result(400, 400), False), outcome(Result(-50, 0), True)
    (1.0, 0.5, 0.0)
    """
    if bye:
        return 1.0 if result.first >= 0 else 0.0
    return 1.0 if result.spread > 0 else 0.5 if result.spread == 0 else 0.0


@dataclass
class Record:
    """What one player has done so far (games with results, and byes)."""

    number: int
    wins: float = 0.0
    losses: float = 0.0
    spread: int = 0
    points: int = 0
    games: int = 0
    byes: int = 0
    firsts: int = 0
    seconds: int = 0
    opponents: list[int] = field(default_factory=list)
    """Every opponent met or paired, round by round (repeats included)."""
    last_first: int = 0
    """1 when the player went first in their last game, -1 second, 0 none yet."""

    @property
    def balance(self) -> int:
        """Firsts minus seconds."""
        return self.firsts - self.seconds


def records(division: Division) -> dict[int, Record]:
    """Every player's `Record`, from the rounds (pairings count for opponents, firsts and
    seconds as soon as paired; wins and spread once the result is entered)."""
    recs = {n: Record(n) for n in range(1, len(division.players) + 1)}
    for rnd in division.rounds:
        for p, r in zip(rnd.pairings, rnd.results, strict=True):
            a = recs[p.first]
            if p.second is None:
                if r is not None:
                    a.byes += 1
                    win = outcome(r, True)
                    a.wins += win
                    a.losses += 1 - win
                    a.spread += r.first
                continue
            b = recs[p.second]
            a.opponents.append(p.second)
            b.opponents.append(p.first)
            a.firsts += 1
            b.seconds += 1
            a.last_first, b.last_first = 1, -1
            if r is None:
                continue
            win = outcome(r, False)
            a.wins += win
            a.losses += 1 - win
            b.wins += 1 - win
            b.losses += win
            a.spread += r.spread
            b.spread -= r.spread
            a.points += r.first
            b.points += r.second
            a.games += 1
            b.games += 1
    return recs


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    number: int
    name: str
    rating: int
    team: str
    wins: float
    losses: float
    spread: int
    points: int
    withdrawn: bool


def _key(division: Division, rec: Record) -> tuple[float, int, int, int, int]:
    return (-rec.wins, -rec.spread, -rec.points, -division.players[rec.number - 1].rating, rec.number)


def standings(division: Division) -> list[Standing]:
    """The standings of ``division`` (see the module's documentation for the order).
    Players tied on wins and spread, points and rating share no rank: the number decides."""
    recs = sorted(records(division).values(), key=lambda r: _key(division, r))
    out = []
    for rank, rec in enumerate(recs, 1):
        p = division.players[rec.number - 1]
        out.append(
            Standing(
                rank, rec.number, p.name, p.rating, p.team, rec.wins, rec.losses, rec.spread, rec.points, p.withdrawn
            )
        )
    return out


@dataclass(frozen=True)
class TeamStanding:
    """One line of the team standings: the sums over the team's players."""

    rank: int
    team: str
    players: int
    wins: float
    losses: float
    spread: int


def team_standings(division: Division) -> list[TeamStanding]:
    """Teams ranked by their players' wins, then spread, then name.

    >>> from lexiko.tournament.model import Division, Pairing, Player
    >>> d = Division("A")
    >>> for name, team in [("Ann", "N"), ("Bo", "S"), ("Cy", "N"), ("Di", "S")]:
    ...     _ = d.add_player(Player(name, team=team))
    >>> _ = d.add_round([Pairing(1, 2), Pairing(3, 4)])
    >>> _ = d.record(1, 1, 400, 2, 300); _ = d.record(1, 3, 350, 4, 360)
    >>> [(t.rank, t.team, t.wins, t.spread) for t in team_standings(d)]
    [(1, 'N', 1.0, 90), (2, 'S', 1.0, -90)]
    """
    totals: dict[str, list[float]] = {}
    for rec in records(division).values():
        team = division.players[rec.number - 1].team
        t = totals.setdefault(team, [0, 0.0, 0.0, 0])
        t[0] += 1
        t[1] += rec.wins
        t[2] += rec.losses
        t[3] += rec.spread
    order = sorted(totals.items(), key=lambda kv: (-kv[1][1], -kv[1][3], kv[0]))
    return [TeamStanding(rank, team, int(t[0]), t[1], t[2], int(t[3])) for rank, (team, t) in enumerate(order, 1)]
