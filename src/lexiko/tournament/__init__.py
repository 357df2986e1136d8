"""Tournaments: events of divisions, pairings, standings, ratings, duplicate festivals
and the files directors use (a JSON event file, TSH's ``.t`` division files).

Pure rules, no input or output: the ``lexiko tournament`` command reads and writes the
files. See ``docs/tournaments.md``.

>>> from lexiko.tournament import Division, Player, Settings, pair, standings
>>> d = Division("A", Settings(method="swiss", rounds=3))
>>> for name, rating in [("Ann", 1900), ("Bo", 1800), ("Cy", 1700), ("Di", 1600)]:
...     _ = d.add_player(Player(name, rating))
>>> pair(d)
Round(Pairing(1, 3), Pairing(2, 4))
>>> _ = d.record(1, 1, 380, 3, 420); _ = d.record(1, 2, 400, 4, 350)
>>> [(s.name, s.wins, s.spread) for s in standings(d)]
[('Bo', 1.0, 50), ('Cy', 1.0, 40), ('Ann', 0.0, -40), ('Di', 0.0, -50)]
"""

from __future__ import annotations

from lexiko.tournament.model import (
    METHODS,
    Division,
    Event,
    Pairing,
    Player,
    Result,
    Round,
    Settings,
    TournamentError,
)
from lexiko.tournament.pairing import pair, pairings_for
from lexiko.tournament.standings import Standing, TeamStanding, records, standings, team_standings

__all__ = [
    "METHODS",
    "Division",
    "Event",
    "Pairing",
    "Player",
    "Result",
    "Round",
    "Settings",
    "TournamentError",
    "pair",
    "pairings_for",
    "Standing",
    "TeamStanding",
    "records",
    "standings",
    "team_standings",
]
