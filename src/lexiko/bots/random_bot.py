"""The beginner: a random legal move."""

from __future__ import annotations

import random

from lexiko.bots.base import last_play_is_phony
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Move, Pass
from lexiko.movegen import count_placements, generate


class RandomBot:
    """Plays a placement chosen at random among every legal one (each equally likely);
    with none, exchanges a random handful of tiles when the bag allows, else passes.
    Where the placements are too many to list (over ``MANY``: Clabbers racks with
    blanks reach millions), the tiles to keep get random values and the best of those
    is played: still random, no longer uniform, and bounded in memory.
    Challenges every phony. The same ``seed`` and the same game give the same moves.

    >>> from lexiko.game import Game
    >>> from lexiko.lexicon import Lexicon
    >>> g = Game(["A", "B"], seed=1, lexicon=None, first_player=0)
    >>> g.set_rack(0, "ABCDEFG")
    >>> bot = RandomBot(Lexicon.from_words(["CAB", "BAD", "FED"]), seed=3)
    >>> bot.choose(g).notation()[-3:] in ("CAB", "BAD", "FED")
    True
    """

    def __init__(self, lexicon: Lexicon, seed: int | None = None, name: str = "random") -> None:
        self.lexicon = lexicon
        self.rng = random.Random(seed)
        self.name = name

    MANY = 100_000

    def choose(self, game: Game) -> Move:
        rules = game.rules
        rack = game.rack()
        if count_placements(game.board, rack, self.lexicon, rules) > self.MANY:
            values: dict[tuple[int, ...], float] = {}

            def value(leave: tuple[int, ...]) -> float:
                return values.setdefault(leave, self.rng.random() * 10_000)

            found = generate(game.board, rack, self.lexicon, rules, placements_only=True, best=1, leaves=value)
        else:
            found = generate(game.board, rack, self.lexicon, rules, placements_only=True)
        if found:
            return self.rng.choice(found).move
        bag = game.bag_count
        if game.can_exchange() and rack:
            k = self.rng.randint(1, min(len(rack), bag))
            return Exchange(game.tiles.rack_sort(self.rng.sample(rack, k)))
        return Pass()

    def wants_challenge(self, game: Game) -> bool:
        return last_play_is_phony(game, self.lexicon)
