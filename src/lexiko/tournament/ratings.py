"""Rating estimates after an event: Glicko-2 (as the web app rates, with the ``glicko2``
package) or Elo (pure Python).

The whole event is one rating period: every player's games are rated together against
their opponents' ratings before the event. Byes and missed rounds are not games and
count for nothing. An unrated player (rating 0) starts at 1500; in Glicko-2 a rated
player starts with a deviation of ``rated_rd`` (default 100), an unrated one with 350.

>>> from lexiko.tournament.model import Division, Pairing, Player
>>> d = Division("A")
>>> _ = d.add_player(Player("Ann", 1600)); _ = d.add_player(Player("Bo", 1400))
>>> _ = d.add_round([Pairing(1, 2)]); _ = d.record(1, 1, 350, 2, 420)
>>> [(e.name, e.before, e.after) for e in elo(d)]
[('Ann', 1600, 1576), ('Bo', 1400, 1424)]
"""

from __future__ import annotations

from dataclasses import dataclass

from lexiko.tournament.model import Division, TournamentError
from lexiko.tournament.standings import outcome

__all__ = ["Estimate", "elo", "glicko2", "UNRATED"]

UNRATED = 1500
"""Where a player without a rating (0) starts."""


@dataclass(frozen=True)
class Estimate:
    """A player's rating before and after the event (estimated), with the games rated."""

    number: int
    name: str
    before: int
    after: int
    games: int
    deviation: float | None = None
    """Glicko-2's rating deviation after the event (None for Elo)."""


def _games(division: Division) -> dict[int, list[tuple[int, float]]]:
    """Each player's rated games: (opponent, score 1, 0.5 or 0)."""
    games: dict[int, list[tuple[int, float]]] = {n: [] for n in range(1, len(division.players) + 1)}
    for rnd in division.rounds:
        for p, r in zip(rnd.pairings, rnd.results, strict=True):
            if p.second is None or r is None:
                continue
            share = outcome(r, False)
            games[p.first].append((p.second, share))
            games[p.second].append((p.first, 1 - share))
    return games


def _start(division: Division, n: int) -> int:
    return division.players[n - 1].rating or UNRATED


def elo(division: Division, k: float = 32.0) -> list[Estimate]:
    """Elo estimates: each game moves a rating by ``k`` x (score - expected score), the
    expected score 1 / (1 + 10 ** ((opponent - player) / 400))."""
    out = []
    for n, games in _games(division).items():
        r = _start(division, n)
        change = sum(k * (s - 1 / (1 + 10 ** ((_start(division, o) - r) / 400))) for o, s in games)
        out.append(Estimate(n, division.players[n - 1].name, r, round(r + change), len(games)))
    return out


def glicko2(division: Division, rated_rd: float = 100.0, vol: float = 0.06) -> list[Estimate]:
    """Glicko-2 estimates (Glickman's algorithm as the ``glicko2`` package computes it).

    >>> from lexiko.tournament.model import Division, Pairing, Player
    >>> d = Division("A")
    >>> _ = d.add_player(Player("Ann", 1600)); _ = d.add_player(Player("Bo", 1400))
    >>> _ = d.add_round([Pairing(1, 2)]); _ = d.record(1, 1, 350, 2, 420)
    >>> [(e.name, e.before, e.after, round(e.deviation or 0)) for e in glicko2(d)]
    [('Ann', 1600, 1561, 98), ('Bo', 1400, 1439, 98)]
    """
    try:
        import glicko2 as g2
    except ImportError:
        raise TournamentError(
            "Glicko-2 estimates need the glicko2 package: pip install 'lexiko[tournament]' (or use Elo)"
        ) from None

    def rd(n: int) -> float:
        return rated_rd if division.players[n - 1].rating else 350.0

    out = []
    for n, games in _games(division).items():
        r = _start(division, n)
        player = g2.Player(r, rd(n), vol)
        if games:
            player.update_player(
                [_start(division, o) for o, _ in games], [rd(o) for o, _ in games], [s for _, s in games]
            )
        else:
            player.did_not_compete()
        out.append(Estimate(n, division.players[n - 1].name, r, round(player.getRating()), len(games), player.getRd()))
    return out
