"""The static player's turns played in the compiled kernel: whole games, or a few turns
of a simulation, without a Python call per turn.

`play_out` takes a `Game` where it stands and plays on as
`StaticBot` would for every seat (each with its own leave table),
move for move the same game: the same best move by equity, the same ties, the same
draws from the bag, and an exchange shuffles the bag with the game's own random
generator (the kernel runs `lexiko.rng`'s generator from its state). It returns the
result, not a new `Game`: what self-play statistics and simulations need.

Only what the kernel plays is accepted (`unsupported` says why not, from
`lexiko.kernel.RULE_FIELDS`): classic rules without clocks, teams, target scores or
exchange limits; leave tables the kernel can read (`packed`); a game whose last play
stands (a play the next player may still challenge stands unless it is a phony).

>>> from lexiko.game import Game
>>> from lexiko.lexicon import Lexicon
>>> from lexiko.leaves import LeaveTable
>>> lex = Lexicon.from_words(["QI", "QIS", "IS", "SI", "AI", "AA", "AB", "BA"])
>>> g = Game(["A", "B"], seed=4, lexicon=None, first_player=0)
>>> r = play_out(g, [LeaveTable.zeros()] * 2, lex)
>>> r.end_reason, len(r.scores), r.turns > 0
('scoreless', 2, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lexiko import kernel, movegen
from lexiko.board import Board
from lexiko.bots.base import last_play_is_phony
from lexiko.game import Game
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Move, Pass, Place
from lexiko.rules import Rules

__all__ = [
    "GameResult",
    "Playout",
    "Turn",
    "play_out",
    "static_games",
    "static_turns",
    "simulate_iterations",
    "unsupported",
]


@dataclass(frozen=True)
class Turn:
    """One turn of a play-out: the player, the move, its score, the tiles the player kept
    (rack order) and the tiles left in the bag after the move (and its draw)."""

    player: int
    move: Move
    score: int
    kept: tuple[int, ...] = ()
    bag: int = 0


@dataclass(frozen=True)
class Playout:
    """Where a play-out stopped: the board, racks (rack order), bag, scores (after the
    end's adjustments when the game ended; ``scores_before_end`` before them), the
    player on turn, the scoreless run, why the game ended (None: it goes on), the
    generator's state, per seat the bingos and exchanges made and what it kept on its
    last move with the tiles then in the bag (None: no move); ``turns`` played and,
    when asked for, each `Turn`."""

    board: Board
    racks: tuple[tuple[int, ...], ...]
    bag: tuple[int, ...]
    scores: tuple[int, ...]
    scores_before_end: tuple[int, ...]
    turn: int
    scoreless_run: int
    end_reason: str | None
    rng_state: tuple[int, int, int, int]
    turns: int
    bingos: tuple[int, ...]
    exchanges: tuple[int, ...]
    kept: tuple[tuple[tuple[int, ...], int] | None, ...]
    log: tuple[Turn, ...] = ()


def unsupported(rules: Rules, players: int, tables: Sequence[LeaveTable] = ()) -> str | None:
    """Why the kernel cannot play these rules or tables (None when it can).

    >>> unsupported(Rules(), 2) is None, unsupported(Rules(time_minutes=25), 2)
    (True, 'clocks')
    """
    if not kernel.available():
        return "the compiled kernel is not built"
    why = kernel.unsupported_rules(rules)
    if why is None and not 1 <= players <= kernel.MAX_PLAYERS:
        why = f"{players} players"
    if why is None and any(t.packed() is None for t in tables):
        why = "a leave table the kernel cannot read"
    return why


def play_out(
    game: Game, tables: Sequence[LeaveTable], lexicon: Lexicon, *, max_turns: int | None = None, log: bool = False
) -> Playout:
    """Play ``game`` on from where it stands as `StaticBot` with
    ``tables[seat]`` for each seat and ``lexicon``, to its end or for ``max_turns``
    turns. ``game`` itself is not changed. ``log``: also return each turn.

    Raises ValueError naming what the kernel does not play (`unsupported`).
    """
    why = unsupported(game.rules, len(game.players), tables)
    if why is None and len(tables) != len(game.players):
        why = f"{len(tables)} leave tables for {len(game.players)} players"
    if why is None and (game.is_over or game.awaiting_final_challenge):
        why = "a game that is over or whose last play awaits a challenge"
    if why is None and game.awaiting_challenge and last_play_is_phony(game, lexicon):
        why = "a phony awaiting a challenge"
    if why is not None:
        raise ValueError(f"cannot play out in the kernel: {why}")
    d = game.draw_state()
    return static_turns(
        game.board,
        d.racks,
        d.bag,
        d.scores,
        d.turn,
        d.scoreless_run,
        d.rng_state,
        lexicon,
        game.rules,
        tables,
        max_turns=max_turns,
        log=log,
    )


@dataclass(frozen=True)
class GameResult:
    """The end of a whole game `static_games` played: final scores, the scores
    before the end's adjustments, bingos by seat, turns played and why it ended."""

    scores: tuple[int, ...]
    scores_before_end: tuple[int, ...]
    bingos: tuple[int, ...]
    turns: int
    end_reason: str | None


def static_games(
    seeds: Sequence[int],
    first_players: Sequence[int],
    tables: Sequence[LeaveTable],
    lexicon: Lexicon,
    rules: Rules,
) -> list[GameResult]:
    """Whole games of `StaticBot` with ``tables[seat]`` for each
    seat, one per seed, in one call to the kernel: game ``i`` is the game `play_out`
    plays from ``Game(players, rules, seed=seeds[i], lexicon=None,
    first_player=first_players[i])`` (the same deal, the same moves and draws), without
    a `Game` or a Python generator per game (what self-play costs besides its
    turns). Seeds are any ints (`lexiko.rng.Rng` reads them modulo 2**64).

    Raises ValueError naming what the kernel does not play (`unsupported`).

    >>> from lexiko.game import Game
    >>> from lexiko.lexicon import Lexicon
    >>> from lexiko.rules import TOURNAMENT
    >>> lex = Lexicon.from_words(["QI", "QIS", "IS", "SI", "AI", "AA", "AB", "BA"])
    >>> t = [LeaveTable.zeros()] * 2
    >>> r = static_games([4], [1], t, lex, TOURNAMENT)[0]
    >>> p = play_out(Game(["A", "B"], TOURNAMENT, seed=4, lexicon=None, first_player=1), t, lex)
    >>> (r.scores, r.turns, r.end_reason) == (p.scores, p.turns, p.end_reason)
    True
    """
    why = unsupported(rules, len(tables), tables)
    if why is None and len(seeds) != len(first_players):
        why = f"{len(seeds)} seeds for {len(first_players)} first players"
    if why is None and not all(0 <= f < len(tables) for f in first_players):
        why = "a first player who is not a seat"
    if why is None and not rules.min_players <= len(tables) <= rules.max_players:
        why = f"{len(tables)} players"
    if why is not None:
        raise ValueError(f"cannot play the games in the kernel: {why}")
    setting = kernel.Setting.of(lexicon, rules)
    out = kernel.static_games(setting, _maps(tables), seeds, first_players, wordmap=movegen.WORDMAP)
    return [GameResult(*g) for g in out]


def static_turns(
    board: Board,
    racks: Sequence[Sequence[int]],
    bag: Sequence[int],
    scores: Sequence[int],
    turn: int,
    scoreless_run: int,
    rng_state: tuple[int, int, int, int],
    lexicon: Lexicon,
    rules: Rules,
    tables: Sequence[LeaveTable],
    *,
    max_turns: int | None = None,
    log: bool = False,
    penalties: Sequence[float] | None = None,
) -> Playout:
    """`play_out` from a position given piece by piece (the bag drawn from its end,
    ``rng_state`` as `lexiko.rng.Rng.getstate` gives it), for simulations that deal the
    unseen tiles themselves. ``penalties``: per seat, points taken off every play that
    does not go out once the bag is empty, besides twice the kept tiles' value
    (`NON_OUTPLAY_PENALTY` by default, as the static player).
    The caller has checked `unsupported`."""
    setting = kernel.Setting.of(lexicon, rules, board.layout, board.tiles)
    position = kernel.Position(board, tuple(bytes(r) for r in racks), bytes(bag), tuple(scores), turn, scoreless_run)
    out = kernel.playout(
        setting,
        position,
        _maps(tables),
        rng_state,
        max_turns=max_turns,
        log=log,
        penalties=penalties,
        wordmap=movegen.WORDMAP,
    )
    return Playout(
        Board(out.cells, board.layout, board.tiles),
        tuple(tuple(r) for r in out.racks),
        tuple(out.bag),
        tuple(out.scores),
        tuple(out.scores_before_end),
        out.turn,
        out.scoreless_run,
        out.end_reason,
        out.rng,
        out.turns,
        tuple(out.bingos),
        tuple(out.exchanges),
        tuple((tuple(t), n) if t is not None else None for t, n in out.kept),
        tuple(_turn(e) for e in out.log) if out.log is not None else (),
    )


def simulate_iterations(
    board: Board,
    rack: Sequence[int],
    unseen: Sequence[int],
    opp_sizes: Sequence[int],
    scores: Sequence[int],
    scoreless_run: int,
    candidates: Sequence[Move],
    candidate_scores: Sequence[int],
    plies: int,
    seed_base: int,
    iterations: range,
    lexicon: Lexicon,
    rules: Rules,
    table: LeaveTable,
    ids: Sequence[int] | None = None,
    known: Sequence[Sequence[int]] | None = None,
) -> list[list[tuple[float, float]]]:
    """The play-outs of `lexiko.bots.simulation` for the given iterations, all in
    the kernel: per iteration, per candidate, (value, win estimate), the same numbers the
    Python play-outs give. Iteration ``i`` deals from ``unseen`` shuffled by
    ``Rng(seed_base + i)``; candidate ``j`` shuffles with ``Rng(seed_base + i + 7919 *
    (j + 1))``, ``j`` its position or ``ids[position]`` (`lexiko.rng.Rng`).
    ``known``: per iteration, tiles the first opponent holds for sure (inferred): they
    are taken out of ``unseen`` (each its first copy) before the shuffle, and that
    opponent gets them and then the first tiles of the shuffled rest.
    ``scores``: the player's first. The caller has checked `unsupported`.
    """
    if iterations.step != 1:
        raise ValueError("simulate_iterations: iterations must be a plain range")
    numbers = list(range(len(candidates))) if ids is None else list(ids)
    cands: list[kernel.SimCandidate] = []
    for move, score, number in zip(candidates, candidate_scores, numbers, strict=True):
        if isinstance(move, Place):
            cands.append((0, move.row, move.col, int(move.down), bytes(move.tiles), score, number))
        elif isinstance(move, Exchange):
            cands.append((1, 0, 0, 0, bytes(move.tiles), 0, number))
        else:
            cands.append((2, 0, 0, 0, b"", 0, number))
    return kernel.simulate(
        kernel.Setting.of(lexicon, rules, board.layout, board.tiles),
        board,
        _packed(table),
        cands,
        rack=bytes(rack),
        unseen=bytes(unseen),
        opp_sizes=bytes(opp_sizes),
        scores=scores,
        scoreless_run=scoreless_run,
        plies=plies,
        seed_base=seed_base,
        iterations=iterations,
        known=None if known is None else [bytes(t) for t in known],
        wordmap=movegen.WORDMAP,
    )


def _packed(table: LeaveTable) -> kernel.Blob:
    packed = table.packed()
    if packed is None:  # the caller has checked unsupported()
        raise ValueError("cannot play in the kernel: a leave table the kernel cannot read")
    return packed


def _maps(tables: Sequence[LeaveTable]) -> list[kernel.Blob]:
    return [_packed(t) for t in tables]


def _turn(e: kernel.TurnRow) -> Turn:
    player, kind, row, col, down, tiles, score, kept, bag = e
    move: Move
    if kind == 0:
        move = Place(row, col, bool(down), tuple(tiles))
    elif kind == 1:
        move = Exchange(tuple(tiles))
    else:
        move = Pass()
    return Turn(player, move, score, tuple(kept), bag)
