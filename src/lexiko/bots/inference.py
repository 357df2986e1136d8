"""What the opponent kept: inference from their last play, as the strongest engines do.

A player who just made a placement held the tiles they played and some tiles they kept,
drawn from the tiles the player on turn cannot see. If they play as the static player
would (best equity, within ``tolerance`` points), only some of those kept tiles explain
the play: with the Q kept, a player would have played it; with a good leave they might
not have played off so many tiles. `infer` draws candidate kept tiles from the
unseen tiles (``samples`` draws, each as likely as the bag would make it) and keeps the
draws whose rack makes the play (near-)best: the opponent's kept tiles are then dealt
from those in a simulation (`lexiko.bots.simulation.simulate`, ``known=``).

Only public information is used: the board before the play, the play and its score, and
the number of tiles in the bag; never the rack the game records for the opponent.

>>> from lexiko.game import Game
>>> from lexiko.lexicon import Lexicon
>>> from lexiko.tiles import ENGLISH
>>> lex = Lexicon.from_words(["QI", "QIS", "ZA", "ZAS", "AS"])
>>> g = Game(["A", "B"], lexicon=lex, seed=5, first_player=0)
>>> g.set_rack(0, "ZAEEEEE")
>>> ev = g.apply("8G ZA")
>>> inf = infer(g, lex, leaves=False, tolerance=0, samples=200)
>>> all("S" not in ENGLISH.format(kept) for kept in inf.leaves)  # with an S kept, 8G ZAS scores 24, not 22
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from lexiko.bots.static import LeavesArg, resolve_leaves
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Place
from lexiko.movegen import generate

__all__ = ["Inference", "infer", "explains"]


@dataclass(frozen=True)
class Inference:
    """The kept tiles (rack order) that explain the opponent's last play, one entry per
    draw that did (so as often as the bag would give them), and how many distinct kept
    racks were tried."""

    leaves: tuple[tuple[int, ...], ...]
    tried: int


class _Judge:
    """Whether kept tiles explain the opponent's last play (see `explains`)."""

    def __init__(self, game: Game, lexicon: Lexicon, leaves: LeavesArg, tolerance: float) -> None:
        last = game.history[-1]
        move = last.move
        assert isinstance(move, Place)
        self.game, self.lexicon, self.tolerance, self.score = game, lexicon, tolerance, last.score
        self.played = list(move.rack_tiles())
        self.lv = resolve_leaves(leaves, game.tiles)
        self.before = game.board.remove([(r, c) for r, c, _ in move.new_tiles()])
        self.bag_before = game.bag_count + len(self.played)  # the bag was not empty: they drew them all

    def __call__(self, leave: tuple[int, ...]) -> bool:
        lv = self.lv
        best = generate(
            self.before,
            self.played + list(leave),
            self.lexicon,
            self.game.rules,
            bag_count=self.bag_before,
            best=1,
            leaves=lv,
        )
        theirs = self.score + (lv(leave) if lv is not None else 0.0)
        return bool(best) and theirs >= best[0].equity - self.tolerance


def _judge(game: Game, lexicon: Lexicon, leaves: LeavesArg, tolerance: float) -> _Judge | None:
    if len(game.players) != 2 or game.is_over or game.bag_count == 0 or not game.history:
        return None
    last = game.history[-1]
    if last.kind != "play" or last.player == game.player_on_turn or not isinstance(last.move, Place):
        return None
    if last.move.tile_count >= game.rules.rack_size:
        return None  # nothing kept
    return _Judge(game, lexicon, leaves, tolerance)


def explains(
    game: Game, lexicon: Lexicon, kept: Sequence[int], *, leaves: LeavesArg = None, tolerance: float = 5.0
) -> bool | None:
    """Whether ``kept`` (the tiles the opponent kept with their last play) makes that play
    one the static player would make: its equity within ``tolerance`` of the best of
    the rack it came from. None when `infer` infers nothing here."""
    judge = _judge(game, lexicon, leaves, tolerance)
    return None if judge is None else judge(game.tiles.rack_sort(kept))


def infer(
    game: Game,
    lexicon: Lexicon,
    *,
    leaves: LeavesArg = None,
    tolerance: float = 5.0,
    samples: int = 1000,
    seed: int = 0,
) -> Inference | None:
    """The tiles the opponent of the player on turn may have kept with their last play
    (see the module docstring), or None when nothing can be inferred: not two players,
    the last move not a placement by the opponent, the bag empty (both racks are then
    known anyway), nothing kept, or no draw explains the play (the opponent does not
    play as the static player does). ``leaves`` as for the static player."""
    judge = _judge(game, lexicon, leaves, tolerance)
    if judge is None:
        return None
    keep = game.rules.rack_size - len(judge.played)
    pool = list(game.unseen(game.player_on_turn))
    if len(pool) < keep:
        return None
    rng = random.Random(seed)
    verdict: dict[tuple[int, ...], bool] = {}
    kept: list[tuple[int, ...]] = []
    for _ in range(samples):
        leave = game.tiles.rack_sort(rng.sample(pool, keep))
        ok = verdict.get(leave)
        if ok is None:
            ok = verdict[leave] = judge(leave)
        if ok:
            kept.append(leave)
    if not kept:
        return None
    return Inference(tuple(kept), len(verdict))
