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

A festival's file is JSON, one game's top and one player's scores a line (null: a game
missed); `festival_to_json` writes it and `festival_from_json` reads it back, checked::

    {"format": "lexiko-festival", "version": 1, "name": "Summer",
     "tops": [1000, 800],
     "scores": {
      "Ann": [950, 700],
      "Cy": [700, null]
     }}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from lexiko.tournament.model import TournamentError

__all__ = ["Festival", "FestivalLine", "FESTIVAL_FORMAT", "festival_to_json", "festival_from_json"]

FESTIVAL_FORMAT = "lexiko-festival"
"""The ``format`` field of a festival file."""
_VERSION = 1


class DuplicateResult(Protocol):
    """What a festival reads of a duplicate game (`lexiko.duplicate.DuplicateGame`)."""

    @property
    def top_total(self) -> int: ...

    @property
    def totals(self) -> dict[str, int]: ...


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

    def add_duplicate(self, game: DuplicateResult) -> None:
        """Add a finished duplicate game: its sum of the tops and each player's total.

        >>> from types import SimpleNamespace
        >>> f = Festival("Summer"); f.add_duplicate(SimpleNamespace(top_total=900, totals={"Ann": 850}))
        >>> f.tops, f.scores
        ([900], {'Ann': [850]})
        """
        self.add_game(game.top_total, dict(game.totals))

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


def festival_to_json(festival: Festival) -> str:
    """The festival as the text of its file (read back exactly by `festival_from_json`).

    >>> f = Festival("Summer"); f.add_game(tops=1000, scores={"Ann": 950})
    >>> festival_from_json(festival_to_json(f)) == f
    True
    """
    rows = [f"  {json.dumps(name, ensure_ascii=False)}: {json.dumps(row)}" for name, row in festival.scores.items()]
    name = json.dumps(festival.name, ensure_ascii=False)
    return (
        f'{{"format": "{FESTIVAL_FORMAT}", "version": {_VERSION}, "name": {name},\n'
        f' "tops": {json.dumps(festival.tops)},\n'
        ' "scores": {' + ("\n" + ",\n".join(rows) + "\n " if rows else "") + "}}\n"
    )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def festival_from_json(text: str) -> Festival:
    """The festival of a festival file, checked; a `TournamentError` naming the problem
    when the text is not one.

    >>> festival_from_json('{"format": "lexiko-festival", "version": 1, "name": "S", "tops": [0], "scores": {}}')
    Traceback (most recent call last):
    ...
    lexiko.tournament.model.TournamentError: not a festival file: game 1's top must be above 0, not 0
    """
    try:
        data = json.loads(text)
    except ValueError as e:
        raise TournamentError(f"not a festival file: not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("format") != FESTIVAL_FORMAT:
        raise TournamentError(f"not a festival file: its format is not {FESTIVAL_FORMAT!r}")
    if data.get("version") != _VERSION:
        raise TournamentError(f"festival file version {data.get('version')!r} is not known (this lexiko reads 1)")
    name, tops, scores = data.get("name"), data.get("tops"), data.get("scores")
    if not isinstance(name, str) or not isinstance(tops, list) or not isinstance(scores, dict):
        raise TournamentError("not a festival file: it needs a name, tops (a list) and scores (by player)")
    for k, top in enumerate(tops, 1):
        if not _whole(top) or top <= 0:
            raise TournamentError(f"not a festival file: game {k}'s top must be above 0, not {top!r}")
    festival = Festival(name, list(tops))
    for player, row in scores.items():
        if not isinstance(row, list) or len(row) != len(tops):
            raise TournamentError(
                f"not a festival file: {player} needs one score (or null) for each of the {len(tops)} games"
            )
        for k, (score, top) in enumerate(zip(row, tops, strict=True), 1):
            if score is not None and (not _whole(score) or not 0 <= score <= top):
                raise TournamentError(
                    f"not a festival file: {player}'s score in game {k} is {score!r}, "
                    f"not a whole number from 0 to {top}"
                )
        festival.scores[player] = list(row)
    return festival
