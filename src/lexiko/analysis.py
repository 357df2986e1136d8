"""Analysis: the best moves of a position, and the review of a game turn by turn.

`analyze_position` lists the moves of the player on turn with their score, the
tiles kept, the value of those tiles (the leave table's, or once the bag is empty the
end-of-game value the static player uses) and equity (score plus leave value); with
``simulate=True`` the top moves are also simulated (`lexiko.bots.simulation`)
and come with the simulated value and a win rate. `review` compares each move
of a game with the best move by equity. The ``lexiko analyze`` and ``lexiko endgame``
commands (`lexiko.cli.analyze`, `lexiko.cli.endgame`) show them.

>>> from lexiko.game import Game
>>> from lexiko.lexicon import Lexicon
>>> lex = Lexicon.from_words(["QI", "QAT", "AT", "TA"])
>>> g = Game(["Ann", "Bob"], lexicon=lex, seed=2, first_player=0)
>>> g.set_rack(0, "QIATEEE")
>>> rows = analyze_position(g, lex, top=4, leaves=False)
>>> [(r.notation, r.score, r.leave) for r in rows]
[('8F QAT', 24, 'EEEI'), ('8G QAT', 24, 'EEEI'), ('8H QAT', 24, 'EEEI'), ('8G QI', 22, 'AEEET')]
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from lexiko.board import Board
from lexiko.bots.inference import infer as infer_leaves
from lexiko.bots.simulation import Progress, Rank
from lexiko.bots.simulation import simulate as simulate_moves
from lexiko.bots.static import LeavesArg, endgame_leaves, resolve_leaves
from lexiko.errors import LexikoError
from lexiko.game import Event, Game, Position
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Move, Pass, Place
from lexiko.movegen import Candidate, LeaveValue, generate, sort_key
from lexiko.rules import Rules
from lexiko.scoring import score as score_play
from lexiko.tiles import TileSet

__all__ = ["AnalysisRow", "TurnReview", "analyze_position", "review", "same_move", "position_at_turn"]


@dataclass(frozen=True)
class AnalysisRow:
    """One move of an analysis. ``leave`` is the tiles kept as text, ``leave_value``
    their value, ``equity`` score plus leave value. Simulated rows also have the
    simulated value (``sim_value``: mean spread change plus final leave value, with its
    standard deviation), ``win_rate`` and the number of ``iterations``."""

    move: Move
    notation: str
    score: int
    leave: str
    leave_value: float
    equity: float
    win_rate: float | None = None
    sim_value: float | None = None
    sim_stdev: float | None = None
    iterations: int = 0


@dataclass(frozen=True)
class TurnReview:
    """One move of a reviewed game: what was played and the best move by equity.

    ``turn`` counts moves (plays, exchanges, passes) from 1; ``rank`` is the place of
    the move played among all legal moves by equity (1: the best; None when it was not
    among them, e.g. a phony); ``equity_lost`` is the best equity minus the equity
    of the move played (0 or more).
    """

    turn: int
    player: int
    name: str
    rack: str
    played: str
    played_score: int
    played_equity: float
    best: str
    best_score: int
    best_equity: float
    equity_lost: float
    rank: int | None
    moves: int
    withdrawn: bool = False


# -- positions ---------------------------------------------------------------------


def _leave_function(position: Position, leaves: LeavesArg) -> LeaveValue | None:
    lv = resolve_leaves(leaves, position.board.tiles)
    if lv is not None and position.bag_count == 0:
        return endgame_leaves(position.board.tiles, position.unseen)
    return lv


def _row(c: Candidate, board: Board, tiles: TileSet) -> AnalysisRow:
    return AnalysisRow(
        move=c.move,
        notation=c.move.notation(tiles, board),
        score=c.score,
        leave=tiles.format(c.leave),
        leave_value=round(c.equity - c.score, 6),
        equity=c.equity,
    )


def analyze_position(
    game_or_position: Game | Position,
    lexicon: Lexicon,
    top: int = 10,
    leaves: LeavesArg = None,
    simulate: bool = False,
    iterations: int = 100,
    *,
    plies: int = 2,
    jobs: int = 1,
    executor: Executor | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    sort: Literal["equity", "score"] = "equity",
    progress: Progress | None = None,
    prune: float | None = None,
    infer: bool = False,
    rank: Rank = "value",
) -> list[AnalysisRow]:
    """The ``top`` moves of the player on turn, best first by ``sort`` (equity or
    score), or with ``simulate`` by simulated value (the ``top`` moves by equity are
    simulated, ``iterations`` play-outs each, over ``jobs`` processes or the
    ``executor``). ``leaves`` as for `SimulationBot`:
    None the package's table, False the score alone, or a table. ``prune``: the
    simulation's stopping rule (`lexiko.bots.simulation.simulate`); ``infer``: deal
    the opponent tiles that explain their last play (`lexiko.bots.inference`; a
    game, not a position, has that play); ``rank``: simulated moves by mean value or by
    win rate (``"win"``).

    >>> from lexiko.game import Game
    >>> lex = Lexicon.from_words(["QI", "QAT", "AT", "TA"])
    >>> g = Game(["Ann", "Bob"], lexicon=lex, seed=2, first_player=0)
    >>> g.set_rack(0, "QIATEEE")
    >>> rows = analyze_position(g, lex, top=2, leaves=False, simulate=True, iterations=4, seed=1)
    >>> [(r.notation, r.iterations, 0.0 <= (r.win_rate or 0.0) <= 1.0) for r in rows]
    [('8G QAT', 4, True), ('8F QAT', 4, True)]
    """
    pos = game_or_position.position() if isinstance(game_or_position, Game) else game_or_position
    tiles = pos.board.tiles
    lv = _leave_function(pos, leaves)
    if top <= 0:
        return []
    if sort == "score" and not simulate:
        every = generate(pos.board, pos.rack, lexicon, pos.rules, bag_count=pos.bag_count, leaves=lv)
        found = sorted(every, key=lambda c: (-c.score, sort_key(c)))
        return [_row(c, pos.board, tiles) for c in found[:top]]
    if sort not in ("equity", "score"):
        raise ValueError(f"sort must be 'equity' or 'score', not {sort!r}")
    cands = generate(pos.board, pos.rack, lexicon, pos.rules, bag_count=pos.bag_count, best=top, leaves=lv)
    if not simulate:
        return [_row(c, pos.board, tiles) for c in cands]
    known = None
    if infer and isinstance(game_or_position, Game):
        inferred = infer_leaves(game_or_position, lexicon, leaves=leaves, seed=seed or 0)
        known = inferred.leaves if inferred is not None else None
    results = simulate_moves(
        pos,
        lexicon,
        leaves=leaves,
        candidates=cands,
        iterations=iterations,
        plies=plies,
        seed=seed,
        time_limit=time_limit,
        executor=executor,
        jobs=jobs,
        progress=progress,
        prune=prune,
        known=known,
        rank=rank,
    )
    rows = []
    for r in results:
        base = _row(r.candidate, pos.board, tiles)
        rows.append(
            dataclasses.replace(base, win_rate=r.win_rate, sim_value=r.mean, sim_stdev=r.stdev, iterations=r.iterations)
        )
    return rows


# -- reviews -----------------------------------------------------------------------------


_MOVE_KINDS = ("play", "exchange", "pass")


def same_move(a: Move, b: Move, board: Board) -> bool:
    """Whether two moves are the same move on ``board`` (placements compared in canonical
    form, exchanges as sets of tiles)."""
    if isinstance(a, Place) and isinstance(b, Place):
        return a.normalized(board) == b.normalized(board)
    if isinstance(a, Exchange) and isinstance(b, Exchange):
        return sorted(a.tiles) == sorted(b.tiles)
    return isinstance(a, Pass) and isinstance(b, Pass)


def _start_board(game: Game) -> Board:
    """The board before the first event of the history: the board now without the
    tiles of every play that stayed on it."""
    stayed: list[Place] = []
    for ev in game.history:
        if ev.kind == "play" and isinstance(ev.move, Place):
            stayed.append(ev.move)
        elif ev.kind == "withdrawn" and isinstance(ev.move, Place):
            for i in range(len(stayed) - 1, -1, -1):
                if stayed[i] == ev.move:
                    del stayed[i]
                    break
    squares = [(r, c) for m in stayed for r, c, _ in m.new_tiles()]
    return game.board.remove(squares)


def _unseen(board: Board, rack: Sequence[int], tiles: TileSet) -> tuple[int, ...]:
    left = Counter(tiles.bag()) - Counter(board.played_tiles()) - Counter(rack)
    return tiles.rack_sort(list(left.elements()))


def _bag_count(board: Board, rules: Rules, players: int) -> int:
    """Tiles in the bag before a turn: while it holds any, every rack is full."""
    return max(0, rules.tile_set.total - board.count - players * rules.rack_size)


def review(game: Game, lexicon: Lexicon | None = None, leaves: LeavesArg = None) -> list[TurnReview]:
    """Every move of a game (finished, or as far as it went) against the best move by
    equity in the same position (the player's rack as the history records it).

    >>> from lexiko.game import Game
    >>> lex = Lexicon.from_words(["QI", "QAT", "AT", "TA"])
    >>> g = Game(["Ann", "Bob"], lexicon=lex, seed=2, first_player=0)
    >>> g.set_rack(0, "QIATEEE")
    >>> _ = g.play("8G QI")
    >>> [(t.played, t.best, t.equity_lost) for t in review(g, lex, leaves=False)]
    [('8G QI', 'H6 QAT', 2.0)]
    """
    if lexicon is None:
        from lexiko.bots.endgame import game_lexicon

        lexicon = game_lexicon(game)
    tiles = game.tiles
    rules = game.rules
    n = len(game.players)
    board = _start_board(game)
    out: list[TurnReview] = []
    turn = 0
    for ev in game.history:
        if ev.kind in _MOVE_KINDS and ev.move is not None:
            turn += 1
            if ev.rack:
                out.append(_review_turn(turn, ev, game, board, lexicon, leaves, rules, tiles, n))
            if ev.kind == "play" and isinstance(ev.move, Place):
                board = board.place(ev.move)
        elif ev.kind == "withdrawn" and isinstance(ev.move, Place):
            board = board.remove([(r, c) for r, c, _ in ev.move.new_tiles()])
            for i in range(len(out) - 1, -1, -1):
                if out[i].player == ev.player and out[i].played == ev.move.notation(tiles, board):
                    out[i] = dataclasses.replace(out[i], withdrawn=True)
                    break
    return out


def _review_turn(
    turn: int,
    ev: Event,
    game: Game,
    board: Board,
    lexicon: Lexicon,
    leaves: LeavesArg,
    rules: Rules,
    tiles: TileSet,
    n: int,
) -> TurnReview:
    assert ev.move is not None
    bag = _bag_count(board, rules, n)
    pos = Position(
        board=board,
        rack=ev.rack,
        scores=tuple([0] * n),
        player=ev.player,
        unseen=_unseen(board, ev.rack, tiles),
        bag_count=bag,
        scoreless_turns=0,
        rules=rules,
    )
    lv = _leave_function(pos, leaves)
    # a down opening is as good as its mirror image: list it so the move played is found
    found = generate(board, ev.rack, lexicon, rules, bag_count=bag, leaves=lv, down_openings=board.is_empty)
    best = found[0]
    rank: int | None = None
    played: Candidate | None = None
    for i, c in enumerate(found):
        if same_move(c.move, ev.move, board):
            rank, played = i + 1, c
            break
    if played is None:  # a phony or a move the generator does not list: score it here
        kept = list(ev.rack)
        move = ev.move
        points = 0
        if isinstance(move, Place):
            for t in move.rack_tiles():
                if t in kept:
                    kept.remove(t)
            try:
                points = score_play(board, move.normalized(board), rules)
            except (LexikoError, ValueError, IndexError):
                points = ev.score
        elif isinstance(move, Exchange):
            for t in move.tiles:
                if t in kept:
                    kept.remove(t)
        leave = tiles.rack_sort(kept)
        played = Candidate(move, points, points + (float(lv(leave)) if lv is not None else 0.0), leave)
    return TurnReview(
        turn=turn,
        player=ev.player,
        name=game.players[ev.player],
        rack=tiles.format(ev.rack),
        played=played.move.notation(tiles, board),
        played_score=played.score,
        played_equity=played.equity,
        best=best.move.notation(tiles, board),
        best_score=best.score,
        best_equity=best.equity,
        equity_lost=max(0.0, best.equity - played.equity),
        rank=rank,
        moves=len(found),
    )


# -- positions from records ----------------------------------------------------------


def position_at_turn(path: str | Path, turn: int | None = None, rack: str | None = None) -> Game:
    """The game of a GCG file set up before its ``turn``-th move (plays, exchanges and
    passes counted from 1), with the rack the record shows for it; without ``turn``,
    the game as the record leaves it. ``rack`` replaces the rack of the player on
    turn. Raises `LexikoError` when there is no such turn or the rack of the
    player on turn is unknown.

    >>> game = position_at_turn("game.gcg", 10)  # doctest: +SKIP
    >>> game.rack_text(), game.bag_count  # doctest: +SKIP
    ('AEELPST', 49)
    """
    from lexiko import gcg

    record = gcg.read(path)
    moves = [i for i, ev in enumerate(record.events) if ev.kind in _MOVE_KINDS]
    if turn is None:
        game = record.replay()
        if game.awaiting_final_challenge:
            game.accept()
        if not game.is_over:
            p = game.player_on_turn
            if rack is None and p not in record.final_racks:
                raise LexikoError(
                    f"the record does not show {game.players[p]}'s rack at the end: give --rack or --turn"
                )
        shown = rack
    else:
        if not 1 <= turn <= len(moves):
            raise LexikoError(f"the record has {len(moves)} moves: --turn must be 1 to {len(moves)}")
        idx = moves[turn - 1]
        ev = record.events[idx]
        cut = dataclasses.replace(record, events=record.events[:idx], final_racks={}, final_rack_lines={})
        game = cut.replay(record.rules())
        if game.awaiting_final_challenge:
            game.accept()
        p = record.nicks.index(ev.nick)
        if game.player_on_turn != p:
            on_turn = game.players[game.player_on_turn]
            raise LexikoError(f"turn {turn} is {ev.nick}'s, but the game has {on_turn} to play")
        shown = rack if rack is not None else ev.rack
    if shown is not None and not game.is_over:
        try:
            game.set_rack(game.player_on_turn, game.tiles.parse(shown.upper()))
        except LexikoError as e:
            raise LexikoError(f"rack {shown}: {e}") from None
    return game
