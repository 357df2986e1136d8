"""The static player's turns played in the compiled kernel: whole games, or a few turns
of a simulation, without a Python call per turn.

`play_out` takes a `Game` where it stands and plays on as
`StaticBot` would for every seat (each with its own leave table),
move for move the same game: the same best move by equity, the same ties, the same
draws from the bag, and an exchange shuffles the bag with the game's own random
generator (the kernel runs Python's Mersenne Twister from its state). It returns the
result, not a new `Game`: what self-play statistics and simulations need.

Only what the kernel plays is accepted (`unsupported` says why not): classic
rules without clocks, teams, target scores or exchange limits; leave tables the kernel
can read (`packed`); a game whose last play stands (a
play the next player may still challenge stands unless it is a phony).

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
from typing import cast

from lexiko import movegen
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
    rng_state: tuple[object, ...]
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
    checks = [
        (not movegen.kernel_available(), "the compiled kernel is not built"),
        (rules.variant != "classic", f"the {rules.variant} variant"),
        (rules.teams, "teams"),
        (rules.time_minutes is not None or rules.match_minutes is not None, "clocks"),
        (rules.target_score is not None, "a target score"),
        (rules.max_exchanges_per_player is not None or rules.exchange_min_same_letter is not None, "exchange limits"),
        (rules.board_layout.size > movegen.KERNEL_MAX_SIZE, "a board larger than the kernel's"),
        (rules.rack_size > 15, "racks of more than 15 tiles"),
        (not 1 <= players <= 8, f"{players} players"),
        (any(t.packed() is None for t in tables), "a leave table the kernel cannot read"),
    ]
    return next((why for bad, why in checks if bad), None)


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
    turns). Seeds are integers from 0 to 2**128 - 1.

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
    if why is None and not all(0 <= s < 1 << 128 for s in seeds):
        why = "a seed below 0 or from 2**128 on"
    if why is None and not all(0 <= f < len(tables) for f in first_players):
        why = "a first player who is not a seat"
    if why is None and not rules.min_players <= len(tables) <= rules.max_players:
        why = f"{len(tables)} players"
    if why is not None:
        raise ValueError(f"cannot play the games in the kernel: {why}")
    tiles = rules.tile_set
    board = Board.empty(rules.board_layout, tiles)
    k = _board_args(board, lexicon, rules)
    out = movegen.compiled().static_games(
        k.kwg,
        k.depths,
        k.anagrams,
        board.size,
        k.letter_mult,
        k.word_mult,
        k.values,
        rules.bingo_tiles,
        k.bonuses,
        rules.first_play_min_tiles,
        k.start[0],
        k.start[1],
        k.first_dirs,
        _rules_args(rules),
        bytes(tiles.bag()),
        [t.packed() for t in tables],
        b"".join(s.to_bytes(16, "little") for s in seeds),
        bytes(first_players),
        None,
        k.wordmap if movegen.WORDMAP else None,
    )
    return [GameResult(*cast(_GameOut, g)) for g in out]


def static_turns(
    board: Board,
    racks: Sequence[Sequence[int]],
    bag: Sequence[int],
    scores: Sequence[int],
    turn: int,
    scoreless_run: int,
    rng_state: tuple[object, ...],
    lexicon: Lexicon,
    rules: Rules,
    tables: Sequence[LeaveTable],
    *,
    max_turns: int | None = None,
    log: bool = False,
    penalties: Sequence[float] | None = None,
) -> Playout:
    """`play_out` from a position given piece by piece (the bag drawn from its end,
    ``rng_state`` as `random.getstate` gives it), for simulations that deal the
    unseen tiles themselves. ``penalties``: per seat, points taken off every play that
    does not go out once the bag is empty, besides twice the kept tiles' value
    (`NON_OUTPLAY_PENALTY` by default, as the static player).
    The caller has checked `unsupported`."""
    k = _board_args(board, lexicon, rules)
    version, state, gauss = rng_state
    entries: list[_Entry] | None = [] if log else None
    out = movegen.compiled().playout(
        k.kwg,
        k.depths,
        k.anagrams,
        board.size,
        board.cells,
        k.letter_mult,
        k.word_mult,
        k.values,
        rules.bingo_tiles,
        k.bonuses,
        rules.first_play_min_tiles,
        k.start[0],
        k.start[1],
        k.first_dirs if board.is_empty else 2,
        _rules_args(rules),
        [bytes(r) for r in racks],
        bytes(bag),
        list(scores),
        turn,
        scoreless_run,
        [t.packed() for t in tables],
        state,
        -1 if max_turns is None else max_turns,
        entries,
        None if penalties is None else [float(x) for x in penalties],
        k.wordmap if movegen.WORDMAP else None,
    )
    cells, new_racks, new_bag, new_scores, new_turn, run, reason, new_state, turns, bingos, exchanges, before, kept = (
        cast(_Out, out)
    )
    return Playout(
        Board(cells, board.layout, board.tiles),
        tuple(tuple(r) for r in new_racks),
        tuple(new_bag),
        tuple(new_scores),
        tuple(before),
        new_turn,
        run,
        reason,
        (version, new_state, gauss),
        turns,
        tuple(bingos),
        tuple(exchanges),
        tuple((tuple(t), n) if t is not None else None for t, n in kept),
        tuple(_turn(e) for e in entries) if entries is not None else (),
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
    ``random.Random(seed_base + i)``; candidate ``j`` shuffles with ``random.Random(
    seed_base + i + 7919 * (j + 1))``, ``j`` its position or ``ids[position]``.
    ``known``: per iteration, tiles the first opponent holds for sure (inferred): they
    are taken out of ``unseen`` (each its first copy) before the shuffle, and that
    opponent gets them and then the first tiles of the shuffled rest.
    ``scores``: the player's first. The caller has checked `unsupported`;
    ``seed_base`` must be 0 or more and below 2**120.
    """
    if not 0 <= seed_base < 1 << 120 or iterations.step != 1:
        raise ValueError("simulate_iterations: seed_base must be in 0..2**120 and iterations a plain range")
    k = _board_args(board, lexicon, rules)
    numbers = list(range(len(candidates))) if ids is None else list(ids)
    cands: list[tuple[int, int, int, int, bytes, int, int]] = []
    for move, score, number in zip(candidates, candidate_scores, numbers, strict=True):
        if isinstance(move, Place):
            cands.append((0, move.row, move.col, int(move.down), bytes(move.tiles), score, number))
        elif isinstance(move, Exchange):
            cands.append((1, 0, 0, 0, bytes(move.tiles), 0, number))
        else:
            cands.append((2, 0, 0, 0, b"", 0, number))
    return movegen.compiled().simulate(
        k.kwg,
        k.depths,
        k.anagrams,
        board.size,
        board.cells,
        k.letter_mult,
        k.word_mult,
        k.values,
        rules.bingo_tiles,
        k.bonuses,
        rules.first_play_min_tiles,
        k.start[0],
        k.start[1],
        k.first_dirs if board.is_empty else 2,
        _rules_args(rules),
        table.packed(),
        bytes(rack),
        bytes(unseen),
        bytes(opp_sizes),
        list(scores),
        scoreless_run,
        cands,
        plies,
        seed_base.to_bytes(16, "little"),
        iterations.start,
        iterations.stop,
        k.wordmap if movegen.WORDMAP else None,
        None if known is None else [bytes(t) for t in known],
    )


_args_cache: dict[tuple[int, int, int], tuple[Lexicon, Rules, Board, movegen.KernelBoard]] = {}


def _board_args(board: Board, lexicon: Lexicon, rules: Rules) -> movegen.KernelBoard:
    """`lexiko.movegen.kernel_board` for an empty board of this layout (the play-out
    decides what is empty), kept per lexicon, rules and layout."""
    key = (id(lexicon), id(rules), id(board.layout))
    hit = _args_cache.get(key)
    if hit is None or hit[0] is not lexicon or hit[1] is not rules or hit[2].layout is not board.layout:
        empty = Board.empty(board.layout, board.tiles)
        if len(_args_cache) > 64:
            _args_cache.clear()
        hit = _args_cache[key] = (lexicon, rules, empty, movegen.kernel_board(empty, lexicon, rules))
    return hit[3]


def _rules_args(rules: Rules) -> tuple[int, int, int, int, int, int]:
    return (
        rules.rack_size,
        rules.exchange_min_bag,
        rules.scoreless_turn_limit,
        int(rules.scoreless_passes_only),
        int(rules.exchange_is_scoreless),
        int(rules.end_rack_rule == "double"),
    )


_Out = tuple[
    bytes,
    list[bytes],
    bytes,
    list[int],
    int,
    int,
    "str | None",
    tuple[int, ...],
    int,
    list[int],
    list[int],
    list[int],
    "list[tuple[bytes | None, int]]",
]


_GameOut = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, "str | None"]


_Entry = tuple[int, int, int, int, int, bytes, int, bytes, int]


def _turn(e: _Entry) -> Turn:
    player, kind, row, col, down, tiles, score, kept, bag = e
    move: Move
    if kind == 0:
        move = Place(row, col, bool(down), tuple(tiles))
    elif kind == 1:
        move = Exchange(tuple(tiles))
    else:
        move = Pass()
    return Turn(player, move, score, tuple(kept), bag)
