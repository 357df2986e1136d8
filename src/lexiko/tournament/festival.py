"""Duplicate festivals: several duplicate games, ranked by total score and by percentage
of the top (the best possible score of each game, as the master sheet gives it).

A player who missed a game has no score for it: the total counts it as 0, the
percentage counts only the games played. Equal totals (or percentages) share a place.

>>> f = Festival("Summer")
>>> f.add_game(tops=1000, scores={"Ann": 950, "Bo": 900, "Cy": 700})
>>> f.add_game(tops=800, scores={"Ann": 700, "Bo": 790})
>>> [(line.rank, line.name, line.total, line.percent) for line in f.by_total()]
[(1, 'Bo', 1690, 93.89), (2, 'Ann', 1650, 91.67), (3, 'Cy', 700, 70.0)]
>>> [(line.rank, line.name, line.percent) for line in f.by_percent()]
[(1, 'Bo', 93.89), (2, 'Ann', 91.67), (3, 'Cy', 70.0)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from lexiko.tournament.model import TournamentError

__all__ = ["Festival", "FestivalLine"]


@dataclass(frozen=True)
class FestivalLine:
    """One line of a festival's ranking."""

    rank: int
    name: str
    total: int
    top: int
    """The sum of the tops of the games the player played."""
    percent: float
    """``total`` as a percentage of ``top``, to 2 decimals."""
    games: int


@dataclass
class Festival:
    """A duplicate festival: its games' tops and each player's score per game."""

    name: str
    tops: list[int] = field(default_factory=list)
    scores: dict[str, list[int | None]] = field(default_factory=dict)

    def add_game(self, tops: int, scores: Mapping[str, int]) -> None:
        """Add a game with its top and the scores of the players who played it (new
        players join from this game)."""
        if tops <= 0:
            raise TournamentError(f"a game's top must be above 0, not {tops}")
        for name, s in scores.items():
            if not 0 <= s <= tops:
                raise TournamentError(f"{name}'s score {s} is not between 0 and the top, {tops}")
        for name in scores:
            self.scores.setdefault(name, [None] * len(self.tops))
        self.tops.append(tops)
        for name, row in self.scores.items():
            row.append(scores.get(name))

    def _lines(self) -> list[FestivalLine]:
        lines = []
        for name, row in self.scores.items():
            total = sum(s for s in row if s is not None)
            top = sum(t for s, t in zip(row, self.tops, strict=True) if s is not None)
            percent = round(100 * total / top, 2) if top else 0.0
            lines.append(FestivalLine(0, name, total, top, percent, sum(s is not None for s in row)))
        return lines

    @staticmethod
    def _ranked(lines: list[FestivalLine], key: str) -> list[FestivalLine]:
        lines.sort(key=lambda x: (-getattr(x, key), x.name))
        out: list[FestivalLine] = []
        for i, line in enumerate(lines):
            tied = out and getattr(out[-1], key) == getattr(line, key)
            rank = out[-1].rank if tied else i + 1
            out.append(FestivalLine(rank, line.name, line.total, line.top, line.percent, line.games))
        return out

    def by_total(self) -> list[FestivalLine]:
        """The ranking by total score (equal totals share a place, listed by name)."""
        return self._ranked(self._lines(), "total")

    def by_percent(self) -> list[FestivalLine]:
        """The ranking by percentage of the top over the games played."""
        return self._ranked(self._lines(), "percent")
