"""The Player protocol every computer player follows."""

from __future__ import annotations

from typing import Protocol

from lexiko.game import Game, word_is_valid
from lexiko.lexicon import Lexicon
from lexiko.move import Move


class Player(Protocol):
    """A computer player: ``choose`` a move for the player on turn, and say whether to
    challenge the play just made (``game.awaiting_challenge``)."""

    name: str

    def choose(self, game: Game) -> Move: ...

    def wants_challenge(self, game: Game) -> bool: ...


def last_play_is_phony(game: Game, lexicon: Lexicon) -> bool:
    """Whether the last play formed a word the lexicon lacks (what a bot that knows
    every word challenges)."""
    if not game.awaiting_challenge or not game.history:
        return False
    last = game.history[-1]
    if last.kind != "play":
        return False
    return any(not word_is_valid(lexicon, lexicon.tiles.parse(w), game.rules) for w in last.words)
