"""The greedy player: always the highest-scoring legal move."""

from __future__ import annotations

from lexiko.bots.base import last_play_is_phony
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Move
from lexiko.movegen import best_move


class GreedyBot:
    """Plays the highest-scoring move (exchanging or passing when nothing scores) and
    challenges every phony.

    >>> GreedyBot.__doc__.split()[0]
    'Plays'
    """

    def __init__(self, lexicon: Lexicon, name: str = "greedy") -> None:
        self.lexicon = lexicon
        self.name = name

    def choose(self, game: Game) -> Move:
        # what game.position() holds, without the unseen tiles it also works out
        return best_move(game.board, game.rack(), self.lexicon, game.rules, bag_count=game.bag_count).move

    def wants_challenge(self, game: Game) -> bool:
        return last_play_is_phony(game, self.lexicon)
