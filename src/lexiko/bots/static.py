"""The static player: the move of best equity, score plus the value of the tiles kept;
and the leave values it and the players built on it (simulation, the endgame player,
analysis) share: the default table, and the values once the bag is empty."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from lexiko.bots.base import last_play_is_phony
from lexiko.errors import LexikoError
from lexiko.game import Game, Position
from lexiko.leaves import LeaveTable, vowel_flags
from lexiko.lexicon import Lexicon
from lexiko.move import Move, Pass, Place
from lexiko.movegen import Candidate, LeaveValue, generate, sort_key
from lexiko.tiles import LETTER_MASK, TileSet

if TYPE_CHECKING:
    from lexiko.board import Board
    from lexiko.rules import Rules

__all__ = [
    "StaticBot",
    "LeavesArg",
    "default_leaves",
    "resolve_leaves",
    "endgame_leaves",
    "static_choice",
    "opening_adjustment",
    "OPENING_VOWEL_STEP",
    "NON_OUTPLAY_PENALTY",
]

LeavesArg = LeaveValue | Literal[False] | None
"""A leave table, ``None`` for the default table, ``False`` for score only."""


def default_leaves(tiles: TileSet) -> LeaveValue | None:
    """The package's leave table for a tile set (`lexiko.leaves.LeaveTable.default`),
    or None (score only) when there is none.

    >>> from lexiko.tiles import ENGLISH
    >>> default_leaves(ENGLISH) is None or callable(default_leaves(ENGLISH))
    True
    """
    try:
        table: LeaveValue = LeaveTable.default(tiles)
    except (LexikoError, LookupError, ValueError, OSError):  # no table shipped: score only
        return None
    return table


def resolve_leaves(leaves: LeavesArg, tiles: TileSet) -> LeaveValue | None:
    """The leave function ``leaves`` asks for: the default table when None, none when False."""
    if leaves is False:
        return None
    if leaves is None:
        return default_leaves(tiles)
    return leaves


def _fast(leaves: LeaveValue | None) -> LeaveValue | None:
    """The quickest callable for a leave function: a table itself (the kernel reads its
    packed form; its stored values are parsed only when Python first looks one up), or
    the function with its values remembered (the generator asks for every sub-rack)."""
    if leaves is None:
        return None
    if isinstance(leaves, LeaveTable):
        return leaves
    return _Memo(leaves)


NON_OUTPLAY_PENALTY = 10.0
"""What the static player takes off a play that does not go out once the bag is empty,
besides twice the value of the tiles it keeps (MAGPIE's static player takes the same)."""


def endgame_leaves(tiles: TileSet, others: Sequence[int]) -> LeaveValue:
    """Leave values once the bag is empty (as the static player uses them): going out
    gains twice the value of the tiles on the other racks (``others``); keeping tiles
    costs twice their value and `NON_OUTPLAY_PENALTY` besides.

    >>> from lexiko.tiles import ENGLISH
    >>> f = endgame_leaves(ENGLISH, ENGLISH.parse("QI"))
    >>> f(()), f(ENGLISH.parse("Z")), f(ENGLISH.parse("AE"))
    (22.0, -30.0, -14.0)
    """
    return _endgame_table(tiles, 2.0 * tiles.rack_value(others))


@lru_cache(maxsize=1024)
def _endgame_table(tiles: TileSet, bonus: float) -> LeaveTable:
    """`endgame_leaves` as a table (the kernel reads it without calling Python):
    the empty leave stored at ``bonus``, every other leave by the model: the penalty,
    minus twice each tile's value. Kept: the same few bonuses come back game after game."""
    penalty = {code: [-2.0 * v] for code, v in enumerate(tiles.values, start=1) if v}
    return LeaveTable(
        tiles,
        {(): bonus},
        tile_values=penalty,
        offset=-NON_OUTPLAY_PENALTY,
        meta={"note": "values once the bag is empty"},
    )


class _Memo:
    """A leave function with its values remembered."""

    __slots__ = ("fn", "memo")

    def __init__(self, fn: LeaveValue) -> None:
        self.fn = fn
        self.memo: dict[tuple[int, ...], float] = {}

    def __call__(self, leave: tuple[int, ...]) -> float:
        v = self.memo.get(leave)
        if v is None:
            if len(self.memo) > 500_000:
                self.memo.clear()
            v = self.memo[leave] = float(self.fn(leave))
        return v


def static_choice(position: Position, lexicon: Lexicon, leaves: LeavesArg = None) -> Move:
    """The move of best static equity (score plus leave value; the default leave
    table when ``leaves`` is None, the score alone when False).

    >>> from lexiko.game import Game
    >>> lex = Lexicon.from_words(["QI"])
    >>> g = Game(["A", "B"], lexicon=lex, seed=1, first_player=0)
    >>> g.set_rack(0, "QIAAEEE")
    >>> static_choice(g.position(), lex, False).notation()
    '8G QI'
    """
    lv = resolve_leaves(leaves, position.board.tiles)
    if lv is not None and position.bag_count == 0:
        lv = endgame_leaves(position.board.tiles, position.unseen)
    return _best(
        position.board, position.rack, lexicon, position.rules, position.bag_count, position.bag_count, lv
    ).move


OPENING_VOWEL_STEP = -0.35
"""What the static player's opening adjustment takes off per step of premium beside a vowel."""


def opening_adjustment(board: Board, move: Place, equity: float) -> float:
    """``equity`` of the opening play ``move`` on the empty ``board``, adjusted as the
    static player sees it: `OPENING_VOWEL_STEP` for every step of premium (a double
    letter square counts 1, a triple word 2) of the squares on either side of each vowel
    put down (a blank standing for a vowel counts), the squares a reply can use to score
    with that vowel. MAGPIE's static player has the same heuristic (0.7 a vowel beside a
    pair of double letter squares); here it is worth about 0.1% of games won in self-play.
    The kernel's play-outs add the same terms in the same order.

    >>> from lexiko.board import Board
    >>> from lexiko.tiles import ENGLISH
    >>> b = Board.empty()
    >>> opening_adjustment(b, Place(7, 6, False, ENGLISH.parse("AT")), 4.0)  # A beside two 2L
    3.3
    >>> opening_adjustment(b, Place(7, 8, False, ENGLISH.parse("TA")), 4.0)  # nothing beside J8
    4.0
    """
    vowel = vowel_flags(board.tiles)
    n = board.layout.size
    letter, word = board.layout.letter_mult, board.layout.word_mult
    line = move.col if move.down else move.row
    for i, t in enumerate(move.tiles):
        if not vowel[t & LETTER_MASK]:
            continue
        for side in (line - 1, line + 1):
            if 0 <= side < n:
                sq = (move.row + i) * n + side if move.down else side * n + move.col + i
                equity += OPENING_VOWEL_STEP * (letter[sq] - 1 + word[sq] - 1)
    return equity


def _opening(board: Board, c: Candidate) -> Candidate:
    if not isinstance(c.move, Place):
        return c
    return dataclasses.replace(c, equity=opening_adjustment(board, c.move, c.equity))


def _best(
    board: Board,
    rack: Sequence[int],
    lexicon: Lexicon,
    rules: Rules,
    bag: int,
    exchange_bag: int,
    leaves: LeaveValue | None,
) -> Candidate:
    """The static player's candidate: the best by equity (``exchange_bag``: the bag as
    far as exchanges go, 0 for none), except that while the bag holds tiles it passes
    only when it has nothing else to play. A pass keeps the whole rack, a leave no table
    is trained on, and MAGPIE's static player does the same. An opening play's equity
    has `opening_adjustment` (with a leave table)."""
    found: Sequence[Candidate]
    if board.is_empty and leaves is not None:
        every = generate(board, rack, lexicon, rules, bag_count=exchange_bag, leaves=leaves)
        found = sorted((_opening(board, c) for c in every), key=sort_key)
    else:
        found = generate(board, rack, lexicon, rules, bag_count=exchange_bag, best=2 if bag > 0 else 1, leaves=leaves)
    if bag > 0 and len(found) > 1 and isinstance(found[0].move, Pass):
        return found[1]
    return found[0]


class StaticBot:
    """Plays the move of highest equity: its score plus the value of the leave in
    ``table`` (`LeaveTable.default` for the lexicon's tiles when not given).
    Once the bag is empty leave values no longer apply: going out is worth twice the
    tiles left on the other racks, keeping tiles costs twice their value and
    `NON_OUTPLAY_PENALTY` besides. While the bag
    holds tiles it passes only when it has nothing else to play. Challenges every phony.

    >>> from lexiko.game import Game
    >>> from lexiko.lexicon import Lexicon
    >>> lex = Lexicon.from_words(["QI", "QIS", "IS"])
    >>> g = Game(["A", "B"], seed=1, lexicon=None, first_player=0)
    >>> g.set_rack(0, "QISEEEE")
    >>> StaticBot(lex, LeaveTable.zeros()).choose(g).notation()  # leaves worth 0: 24 points either way, the I off G8
    '8G QIS'
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
        leaves: LeaveValue = self.table if bag > 0 else endgame_leaves(game.tiles, game.unseen())
        return _best(game.board, rack, self.lexicon, rules, bag, bag if game.can_exchange() else 0, leaves)

    def choose(self, game: Game) -> Move:
        return self.candidate(game).move

    def wants_challenge(self, game: Game) -> bool:
        return last_play_is_phony(game, self.lexicon)
