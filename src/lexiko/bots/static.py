"""The static player: the move of best equity, score plus the value of the tiles kept."""

from __future__ import annotations

from collections.abc import Callable

from lexiko.bots.base import last_play_is_phony
from lexiko.game import Game
from lexiko.leaves import Leave, LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.move import Move
from lexiko.movegen import Candidate, generate


class StaticBot:
    """Plays the move of highest equity: its score plus the value of the leave in
    ``table`` (:meth:`LeaveTable.default` for the lexicon's tiles when not given).
    Once the bag is empty leave values no longer apply: going out is worth twice the
    tiles left on the other racks, keeping tiles costs twice their value. Challenges
    every phony.

    >>> from lexiko.game import Game
    >>> from lexiko.lexicon import Lexicon
    >>> lex = Lexicon.from_words(["QI", "QIS", "IS"])
    >>> g = Game(["A", "B"], seed=1, lexicon=None, first_player=0)
    >>> g.set_rack(0, "QISEEEE")
    >>> StaticBot(lex, LeaveTable.zeros()).choose(g).notation()  # no leave values: greedy
    '8F QIS'
    >>> StaticBot(lex).choose(g).notation()  # the shipped table: keep S, change the rest
    '-EEEIQ'
    """

    def __init__(self, lexicon: Lexicon, table: LeaveTable | None = None, name: str = "static") -> None:
        self.lexicon = lexicon
        self.table = table if table is not None else LeaveTable.default(lexicon.tiles)
        self.name = name

    def candidate(self, game: Game) -> Candidate:
        """The chosen move with its score, equity and leave."""
        rules = game.rules
        rack = game.rack()
        bag = game.bag_count
        leaves: Callable[[Leave], float]
        if bag > 0:
            leaves = self.table.lookup
        else:
            leaves = _endgame_values(game)
        if not game.can_exchange():
            bag = 0  # no exchange allowed: list none
        return generate(game.board, rack, self.lexicon, rules, bag_count=bag, best=1, leaves=leaves)[0]

    def choose(self, game: Game) -> Move:
        return self.candidate(game).move

    def wants_challenge(self, game: Game) -> bool:
        return last_play_is_phony(game, self.lexicon)


def _endgame_values(game: Game) -> Callable[[Leave], float]:
    """Leave values with the bag empty: going out gains twice the tiles on the other
    racks (all unseen tiles); every tile kept may cost twice its value."""
    tiles = game.tiles
    out_bonus = 2.0 * tiles.rack_value(game.unseen())
    values = [0.0] + [2.0 * v for v in tiles.values]

    def value(leave: Leave) -> float:
        if not leave:
            return out_bonus
        return -sum(values[c] for c in leave)

    return value
