"""The compiled core of `lexiko.rl`'s environments: a game stepped in the kernel.

An environment step is one move and then the next player's candidates and
observation. Through `Game` and `generate`
that is a few hundred microseconds of Python around the move generator; the
`Core` keeps the game in the kernel (board, racks, bag and the random generator,
drawn and shuffled exactly as ``Game`` does), makes the chosen candidate, lists the next
player's candidates (the same list as `lexiko.rl.Observer.candidates`, in the same
order) and fills the observation's arrays in place. It logs the moves, so that a
``Game`` can be brought up to date when someone asks for one (`Core.sync`).

It plays what `lexiko.bots.playout.unsupported` accepts (classic rules without
clocks, teams, target scores or exchange limits: `lexiko.kernel.RULE_FIELDS`) with
challenges void (a word not in the lexicon cannot be played) and a leave table the
kernel reads, or none; `unsupported` says why not otherwise, and the environments then
step a ``Game``.

>>> from lexiko.game import Game
>>> from lexiko.lexicon import Lexicon
>>> from lexiko.rules import CASUAL
>>> lex = Lexicon.from_words(["QI", "QAT", "AT", "TA", "ATE", "EAT", "TEA"])
>>> core = Core(CASUAL, lex, None, 2, 8)
>>> game = Game(["a", "b"], CASUAL, seed=1, lexicon=lex)
>>> core.reset(game)
>>> moves = core.candidates()
>>> core.step(0)
False
>>> core.sync(game)
>>> game.history[-1].move == moves[0].move
True
"""

from __future__ import annotations

import numpy as np

from lexiko import kernel, movegen
from lexiko.bots.playout import unsupported as playout_unsupported
from lexiko.game import Game
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Move, Pass, Place
from lexiko.movegen import Candidate, LeaveValue
from lexiko.rules import Rules

__all__ = ["Core", "unsupported", "PREMIUMS"]

PREMIUMS = "dtqDTQ"
"""The premium squares' planes of the observation, in order (letter x2, x3, x4, word x2,
x3, x4)."""

Info = kernel.RLInfo


def unsupported(rules: Rules, players: int, leaves: LeaveValue | None) -> str | None:
    """Why the core cannot step these rules (None when it can).

    >>> from lexiko.rules import CASUAL, TOURNAMENT
    >>> unsupported(CASUAL, 2, None) is None, unsupported(TOURNAMENT, 2, None)
    (True, 'challenges')
    """
    why = playout_unsupported(rules, players)
    if why is None and rules.challenge_rule != "void":
        why = "challenges"
    if why is None and leaves is not None and (not isinstance(leaves, LeaveTable) or leaves.packed() is None):
        why = "a leave table the kernel cannot read"
    return why


class Core:
    """A game of ``players`` under ``rules`` (see `unsupported`) with ``lexicon``,
    stepped in the kernel; ``k`` candidate slots, ``leaves`` the leave table of the
    equity (None: the score alone)."""

    def __init__(self, rules: Rules, lexicon: Lexicon, leaves: LeaveValue | None, players: int, k: int) -> None:
        why = unsupported(rules, players, leaves)
        if why is not None:
            raise ValueError(f"the compiled core cannot play {why}")
        lay = rules.board_layout
        self._setting = kernel.Setting.of(lexicon, rules)
        flat = "".join(lay.rows)
        premiums = bytes(PREMIUMS.index(ch) + 1 if ch in PREMIUMS else 0 for ch in flat)
        packed = leaves.packed() if isinstance(leaves, LeaveTable) else None
        self.rules, self.players, self.k = rules, players, k
        self.letters = rules.tile_set.size
        self._core = kernel.rl_new(self._setting, packed, slots=k, premiums=premiums, wordmap=movegen.WORDMAP)
        self._synced = 0

    def deal(self, seed: int) -> int:
        """Start a new game as ``Game(players, rules, seed=seed)`` deals it (the same first
        player, racks and bag, so that such a Game brought up to date by `sync` is
        this game), without making the Game: a reset costs microseconds. The first
        player. Any int seed (`lexiko.rng.Rng` reads it modulo 2**64)."""
        self._synced = 0
        rules = self._setting.rules
        return kernel.rl_deal(self._core, seed, rules.bag, self.players, draw_for_first=rules.draw_for_first)

    def reset(self, game: Game) -> None:
        """Start from ``game`` where it stands (a new game: its moves are logged from here)."""
        d = game.draw_state()
        racks = tuple(bytes(r) for r in d.racks)
        position = kernel.Position(game.board, racks, bytes(d.bag), d.scores, d.turn, d.scoreless_run)
        kernel.rl_reset(self._core, position, d.rng_state)
        self._synced = 0

    def step(self, action: int) -> bool:
        """Make candidate ``action`` of the player on turn; whether the game is over.
        Raises ValueError for a slot that holds no move, or once the game is over."""
        return kernel.rl_step(self._core, action)

    def static_turns(self, seat: int) -> bool:
        """The other seats play as `StaticBot` with this core's leave
        table until ``seat`` is on turn (or the game ends); whether the game is over."""
        return kernel.rl_static_turns(self._core, seat)

    def info(self) -> Info:
        """(player on turn, over, scores, scores before the end's adjustments, tiles in the
        bag, why the game ended, candidates open)."""
        return kernel.rl_info(self._core)

    def observe(self, seat: int, on_turn: bool, out: dict[str, np.ndarray]) -> None:
        """Fill ``out`` (arrays shaped as `lexiko.rl.Observer`'s space) with what
        ``seat`` sees; the candidates and the mask only when ``on_turn``."""
        kernel.rl_observe(self._core, seat, on_turn, out)

    def candidates(self) -> list[Candidate]:
        """The candidates of the player on turn, as `lexiko.movegen.generate` lists
        moves."""
        return [
            Candidate(_move(kind, row, col, down, tiles), score, equity, tuple(kept))
            for (kind, row, col, down, tiles, score, equity), kept in kernel.rl_candidates(self._core)
        ]

    def sync(self, game: Game) -> None:
        """Make in ``game`` (the one given to `reset`) the moves made since it was
        last brought up to date."""
        entries = kernel.rl_log(self._core, self._synced)
        for kind, row, col, down, tiles, score, equity in entries:
            move = _move(kind, row, col, down, tiles)
            game.apply(Candidate(move, score, equity, ()) if kind == 0 else move)
        self._synced += len(entries)


def _move(kind: int, row: int, col: int, down: int, tiles: bytes) -> Move:
    if kind == 0:
        return Place(row, col, bool(down), tuple(tiles))
    if kind == 1:
        return Exchange(tuple(tiles))
    return Pass()
