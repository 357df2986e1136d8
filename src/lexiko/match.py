"""Matches: several games between the same players, decided as the seeds decide them.

The player who wins more games wins the match; when the games are shared (a two-game
match with one win each, or draws), the combined score of all the games decides; when
that too is level, the match is a draw. Players take turns to start the games.

>>> m = Match(["Ann", "Bob"], games=2, seed=3)
>>> g = m.next_game(lexicon=None)
>>> g.first_player, len(m.played)
(0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lexiko.errors import GameStateError
from lexiko.game import Game, WordJudge
from lexiko.rules import Rules

__all__ = ["Match"]


@dataclass
class Match:
    """A match of ``games`` games (two by default, as in seed 000)."""

    players: Sequence[str]
    rules: Rules | None = None
    games: int = 2
    seed: int | None = None
    played: list[Game] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.games < 1:
            raise GameStateError("a match has at least one game")
        if self.rules is not None and self.rules.teams:
            raise GameStateError("team games are decided by team scores, not as a match")

    @property
    def is_over(self) -> bool:
        """True when every game has been played to its end."""
        return len(self.played) == self.games and all(g.is_over for g in self.played)

    def next_game(self, *, lexicon: WordJudge | None | str = "auto") -> Game:
        """Start the next game; the players take turns to start."""
        if self.played and not self.played[-1].is_over:
            raise GameStateError("the last game of the match is not over")
        if len(self.played) == self.games:
            raise GameStateError(f"the match is over: it has {self.games} games")
        n = len(self.played)
        seed = None if self.seed is None else self.seed + n
        game = Game(list(self.players), self.rules, seed=seed, lexicon=lexicon, first_player=n % len(self.players))
        self.played.append(game)
        return game

    def wins(self) -> list[float]:
        """Games won by each player so far (a shared game counts as a share of a win)."""
        out = [0.0] * len(self.players)
        for g in self.played:
            if g.is_over:
                top = g.winners()
                for p in top:
                    out[p] += 1 / len(top)
        return out

    def totals(self) -> list[int]:
        """Each player's combined score over the games played."""
        return [sum(g.scores[p] for g in self.played) for p in range(len(self.players))]

    def winners(self) -> list[int]:
        """The match's winner (more than one: a draw). Wins first, then the combined score.

        >>> from lexiko.rules import Rules
        >>> m = Match(["Ann", "Bob"], Rules(challenge_rule="void"), seed=1)
        >>> for _ in range(2):
        ...     g = m.next_game(lexicon=None)
        ...     g.flag(g.player_on_turn)          # each loses one game on time
        >>> m.wins(), m.totals(), m.winners()
        ([1.0, 1.0], [0, 0], [0, 1])
        """
        if not self.is_over:
            raise GameStateError("the match is not over")
        wins = self.wins()
        best = max(wins)
        top = [p for p, w in enumerate(wins) if w == best]
        if len(top) > 1:
            totals = self.totals()
            high = max(totals[p] for p in top)
            top = [p for p in top if totals[p] == high]
        return top
