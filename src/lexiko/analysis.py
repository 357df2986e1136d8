"""Analysis: the best moves of a position, and the review of a game turn by turn.

:func:`analyze_position` lists the moves of the player on turn with their score, the
tiles kept, the value of those tiles (the leave table's, or once the bag is empty the
end-of-game value the static player uses) and equity (score plus leave value); with
``simulate=True`` the top moves are also simulated (:mod:`lexiko.bots.simulation`)
and come with the simulated value and a win rate. :func:`review` compares each move
of a game with the best move by equity. :func:`add_parsers` registers the ``lexiko
analyze`` and ``lexiko endgame`` commands.

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

import argparse
import dataclasses
import math
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from lexiko.argtypes import positive_float, positive_int
from lexiko.board import Board
from lexiko.bots.inference import infer as infer_leaves
from lexiko.bots.simulation import RANKS, Progress, Rank
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

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from lexiko.bots.endgame import EndgameResult

__all__ = ["AnalysisRow", "TurnReview", "analyze_position", "review", "same_move", "position_at_turn", "add_parsers"]

#: Seconds ``lexiko endgame`` searches by default before answering with its best line.
ENDGAME_SECONDS = 30.0

#: Seconds ``lexiko analyze --preendgame`` gives each endgame it reaches, by default.
PREENDGAME_ENDGAME_SECONDS = 1.0


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
    ``executor``). ``leaves`` as for :class:`~lexiko.bots.simulation.SimulationBot`:
    None the package's table, False the score alone, or a table. ``prune``: the
    simulation's stopping rule (:func:`lexiko.bots.simulation.simulate`); ``infer``: deal
    the opponent tiles that explain their last play (:mod:`lexiko.bots.inference`; a
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
        found = generate(pos.board, pos.rack, lexicon, pos.rules, bag_count=pos.bag_count, leaves=lv)
        found.sort(key=lambda c: (-c.score, sort_key(c)))
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
    turn. Raises :class:`LexikoError` when there is no such turn or the rack of the
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


# -- the command line ------------------------------------------------------------------


def _fmt(x: float) -> str:
    return f"{x:+.1f}" if x else "0.0"


def _add_position_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", type=Path, metavar="FILE.gcg", help="a game record (GCG)")
    p.add_argument("--turn", type=int, metavar="K", help="the position before the record's K-th move (from 1)")
    p.add_argument("--cgp", metavar="CGP", help="a position in CGP (the rack of the player on turn first)")
    p.add_argument("--board-gcg", type=Path, metavar="FILE", help="take the board from this GCG (with --rack)")
    p.add_argument("--rack", help="the rack of the player on turn (? for a blank)")
    p.add_argument("--lexicon", help="lexicon: TWL06, SOWPODS or a word-list file (default: the position's)")
    p.add_argument("--no-board", action="store_true", help="do not show the board")


def add_parsers(subparsers: Any) -> None:
    """Register ``analyze`` and ``endgame`` on the ``lexiko`` command's subparsers."""
    a = subparsers.add_parser(
        "analyze",
        help="best moves of a position, or a review of a game",
        description="List the best moves of a position (from a GCG record, a CGP line, or a board and a rack) "
        "by equity (score plus leave value), optionally simulated; review every move of a game; or solve "
        "the endgame when the bag is empty.",
        epilog="examples:\n"
        "  lexiko analyze game.gcg --turn 12 --top 15\n"
        "  lexiko analyze game.gcg --turn 12 --sim --iterations 400 --jobs 4\n"
        "  lexiko analyze --cgp '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0'\n"
        "  lexiko analyze --board-gcg game.gcg --rack AEINST?\n"
        "  lexiko analyze game.gcg --review\n"
        "  lexiko analyze game.gcg --turn 40 --endgame\n"
        "  lexiko analyze game.gcg --turn 38 --preendgame --top 6",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_position_options(a)
    a.add_argument("--top", type=positive_int, default=10, metavar="N", help="moves to list (default: 10)")
    a.add_argument("--sort", choices=["equity", "score"], default="equity", help="order of the list (default: equity)")
    a.add_argument("--sim", action="store_true", help="simulate the top moves")
    a.add_argument(
        "--iterations", type=positive_int, default=200, metavar="N", help="play-outs per move (default: 200)"
    )
    a.add_argument("--plies", type=positive_int, default=2, help="turns played out after each move (default: 2)")
    a.add_argument(
        "--infer",
        action="store_true",
        help="with --sim: deal the opponent tiles that explain their last play (what they may have kept)",
    )
    a.add_argument(
        "--prune",
        type=positive_float,
        metavar="Z",
        help="with --sim: drop a move once the leader is Z standard errors ahead of it on the same "
        "play-outs, and stop when one is left (3 is a safe choice)",
    )
    a.add_argument(
        "--rank",
        choices=RANKS,
        default="value",
        help="with --sim: order the moves by simulated value (spread and leave) or by win rate (default: value)",
    )
    a.add_argument("--jobs", type=positive_int, default=1, metavar="J", help="worker processes for --sim (default: 1)")
    from lexiko.executors import add_arguments

    add_arguments(a)
    a.add_argument("--seed", type=int, help="seed of the simulation, to repeat it")
    a.add_argument("--leaves", metavar="FILE", help="leave table file, or 'none' for the score alone")
    a.add_argument("--review", action="store_true", help="review every move of the game in FILE.gcg")
    a.add_argument(
        "--plot",
        metavar="FILE",
        help="with --review: draw the spread and the equity lost turn by turn "
        "into FILE (.png, .svg or .pdf; needs matplotlib: pip install 'lexiko[plot]')",
    )
    a.add_argument("--endgame", action="store_true", help="solve the endgame (the bag must be empty)")
    a.add_argument(
        "--preendgame",
        action="store_true",
        help="play the --top placements and the pass in every split of the unseen tiles into the "
        "opponent's rack and the bag, to the end (two players, 1 to 7 tiles in the bag): the share "
        "of splits each wins",
    )
    a.add_argument(
        "--endgame-time",
        type=positive_float,
        metavar="S",
        help=f"with --preendgame: seconds for each endgame reached (default: {PREENDGAME_ENDGAME_SECONDS:g})",
    )
    a.add_argument(
        "--time-limit", type=positive_float, metavar="S", help="seconds for --endgame, --sim or --preendgame"
    )
    a.add_argument("--max-depth", type=positive_int, metavar="D", help="plies for --endgame")
    a.set_defaults(func=cmd_analyze)

    e = subparsers.add_parser(
        "endgame",
        help="solve the endgame of a position whose bag is empty",
        description="Solve a two-player endgame exactly (both racks are known once the bag is empty): the best "
        "move, the final spread under best play and the principal variation.",
        epilog="examples:\n  lexiko endgame game.gcg --turn 40\n  lexiko endgame --cgp '<cgp line>' --time-limit 30",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_position_options(e)
    e.add_argument(
        "--time-limit",
        type=positive_float,
        metavar="S",
        default=ENDGAME_SECONDS,
        help=f"stop after about S seconds and give the best line found so far (default: "
        f"{ENDGAME_SECONDS:g}; a 7-tile endgame with a blank may need minutes to solve exactly)",
    )
    e.add_argument("--max-depth", type=positive_int, metavar="D", help="search at most D plies")
    e.set_defaults(func=cmd_endgame)


def _game_from_args(args: argparse.Namespace) -> Game:
    from lexiko import cgp

    sources = [x for x in (args.file, args.cgp, args.board_gcg) if x is not None]
    if len(sources) != 1:
        raise LexikoError("give one position: FILE.gcg, --cgp LINE or --board-gcg FILE --rack RACK")
    if args.cgp is not None:
        if args.turn is not None:
            raise LexikoError("--turn goes with a GCG file, not --cgp")
        pos = cgp.parse(args.cgp)
        if not pos.racks[0] and not args.rack:
            raise LexikoError(
                "the position has no rack for the player on turn: write it first in the racks field "
                "(e.g. 'AEINRST/') or give --rack"
            )
        game = cgp.to_game(pos, lexicon=None, seed=0)
        if args.rack:
            game.set_rack(game.player_on_turn, game.tiles.parse(args.rack.upper()))
        return game
    path = args.file if args.file is not None else args.board_gcg
    if args.board_gcg is not None and not args.rack:
        raise LexikoError("--board-gcg needs --rack")
    return position_at_turn(path, args.turn, args.rack.upper() if args.rack else None)


def _lexicon_for(args: argparse.Namespace, game: Game, console: Console) -> Lexicon:
    """The lexicon asked for (``--lexicon``), else the record's; warns when a free list
    stands in for the licensed one the record names."""
    from lexiko.lexicon import stand_in_warning

    if args.lexicon:
        warning = stand_in_warning(game.rules.lexicon, args.lexicon)
        if warning:
            console.print(f"warning: {warning}", style="yellow", markup=False, highlight=False, soft_wrap=True)
    from lexiko.loading import load_lexicon

    return load_lexicon(args.lexicon or game.rules.lexicon, game.tiles, console)


def _leaves_from_args(args: argparse.Namespace, tiles: TileSet) -> LeavesArg:
    if not getattr(args, "leaves", None):
        return None
    if args.leaves.lower() == "none":
        return False
    from lexiko.leaves import LeaveTable

    return LeaveTable.load(args.leaves, tiles)


def _header(game: Game, console: Console, show_board: bool) -> None:
    from lexiko.terminal import render_board

    p = game.player_on_turn
    if show_board:
        console.print(render_board(game.board))
    scores = ", ".join(f"{name} {s}" for name, s in zip(game.players, game.scores, strict=True))
    console.print(
        f"{game.players[p]} to play with [bold]{game.rack_text(p)}[/bold]; scores {scores}; "
        f"bag {game.bag_count}, unseen {game.tiles.format(game.unseen(p))}",
        highlight=False,
        soft_wrap=True,
    )


def cmd_analyze(args: argparse.Namespace, console: Console) -> int:
    """``lexiko analyze``: the table of best moves, a review, or an endgame."""
    if args.plot and not args.review:
        raise LexikoError("--plot draws a game's review: add --review")
    if args.endgame_time is not None and not args.preendgame:
        raise LexikoError("--endgame-time is the time of each endgame of --preendgame: give --preendgame too")
    if args.review:
        return _cmd_review(args, console)
    if args.endgame:
        return cmd_endgame(args, console)
    if args.preendgame:
        return _cmd_preendgame(args, console)
    if args.top < 1:
        raise LexikoError("--top must be at least 1")
    if args.iterations < 1:
        raise LexikoError("--iterations must be at least 1")
    if args.prune is not None and not args.sim:
        raise LexikoError("--prune stops a simulation early: give --sim too")
    if args.infer and not args.sim:
        raise LexikoError("--infer deals the simulation's racks: give --sim too")
    if args.rank != "value" and not args.sim:
        raise LexikoError("--rank orders simulated moves: give --sim too")
    game = _game_from_args(args)
    if game.is_over:
        raise LexikoError("the game is over: give --turn K for a position, or --review")
    lexicon = _lexicon_for(args, game, console)
    leaves = _leaves_from_args(args, game.tiles)
    _header(game, console, not args.no_board)
    rows = _analyze_with_progress(game, lexicon, leaves, args, console)
    console.print(_table(rows, args.sim))
    return 0


def _analyze_with_progress(
    game: Game, lexicon: Lexicon, leaves: LeavesArg, args: argparse.Namespace, console: Console
) -> list[AnalysisRow]:
    if not args.sim:
        return analyze_position(game, lexicon, top=args.top, leaves=leaves, sort=args.sort)
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from lexiko.progress import WorkProgress

    with WorkProgress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("simulating", total=args.iterations)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        from lexiko.executors import make_executor

        executor, release = make_executor(args.executor, args.address, max(1, args.jobs))
        try:
            return analyze_position(
                game,
                lexicon,
                top=args.top,
                leaves=leaves,
                simulate=True,
                iterations=args.iterations,
                plies=args.plies,
                jobs=max(1, args.jobs),
                executor=executor,
                seed=args.seed,
                time_limit=args.time_limit,
                progress=progress,
                prune=args.prune,
                infer=args.infer,
                rank=args.rank,
            )
        finally:
            if release is not None:
                release()


def _table(rows: Sequence[AnalysisRow], simulated: bool) -> Any:
    from rich.table import Table

    t = Table(show_header=True, header_style="bold", box=None)
    t.add_column("#", justify="right", style="dim")
    t.add_column("move", no_wrap=True)
    t.add_column("score", justify="right")
    t.add_column("leave")
    t.add_column("leave value", justify="right")
    t.add_column("equity", justify="right")
    if simulated:
        t.add_column("sim value", justify="right")
        t.add_column("±", justify="right", style="dim")
        t.add_column("win %", justify="right")
        t.add_column("iters", justify="right", style="dim")
    for i, r in enumerate(rows, 1):
        cells = [str(i), r.notation, str(r.score), r.leave or "-", _fmt(r.leave_value), f"{r.equity:.1f}"]
        if simulated:
            err = (r.sim_stdev or 0.0) / math.sqrt(r.iterations) if r.iterations else 0.0
            cells += [
                f"{r.sim_value:.1f}" if r.sim_value is not None else "",
                f"{err:.1f}",
                f"{100 * r.win_rate:.1f}" if r.win_rate is not None else "",
                str(r.iterations),
            ]
        t.add_row(*cells)
    return t


def review_table(turns: Sequence[TurnReview], width: int = 80) -> Table:
    """The review as a table that fits ``width`` columns: moves are never cut (a move
    of 15 letters with letters played through takes 20 columns); below 90 columns the
    rank of the move played is left out and names are shortened."""
    from rich.table import Table

    wide = width >= 90
    t = Table(show_header=True, header_style="bold", box=None, padding=(0, 1, 0, 0), pad_edge=False)
    t.add_column("#", justify="right")
    t.add_column("player", max_width=12 if wide else 8, no_wrap=True, overflow="ellipsis")
    t.add_column("rack", no_wrap=True)
    t.add_column("played", no_wrap=True)
    t.add_column("pts", justify="right", no_wrap=True)
    t.add_column("best", no_wrap=True)
    t.add_column("pts", justify="right", no_wrap=True)
    t.add_column("lost", justify="right", no_wrap=True)
    if wide:
        t.add_column("rank", justify="right", no_wrap=True)
    for r in turns:
        lost = f"{r.equity_lost:.1f}" if r.equity_lost else ""
        played = r.played + (" (withdrawn)" if r.withdrawn and wide else "*" if r.withdrawn else "")
        row = [str(r.turn), r.name, r.rack, played, str(r.played_score), r.best, str(r.best_score), lost]
        if wide:
            row.append(f"{r.rank}/{r.moves}" if r.rank else f"-/{r.moves}")
        t.add_row(*row)
    return t


def _cmd_review(args: argparse.Namespace, console: Console) -> int:

    from lexiko import gcg

    path = args.file if args.file is not None else args.board_gcg
    if path is None or args.cgp is not None:
        raise LexikoError("--review needs a GCG file")
    if args.plot:
        from lexiko import plots

        plots.check_output(args.plot)
    game = gcg.load(path)
    lexicon = _lexicon_for(args, game, console)
    leaves = _leaves_from_args(args, game.tiles)
    turns = review(game, lexicon, leaves)
    console.print(review_table(turns, console.width))
    if console.width < 90 and any(r.withdrawn for r in turns):
        console.print("* withdrawn after a challenge", style="dim")
    for p, name in enumerate(game.players):
        mine = [r for r in turns if r.player == p]
        if mine:
            total = sum(r.equity_lost for r in mine)
            best = sum(1 for r in mine if r.rank == 1)
            console.print(
                f"{name}: {len(mine)} moves, {best} best, equity lost {total:.1f} ({total / len(mine):.1f} a move)",
                highlight=False,
            )
    if args.plot:
        from lexiko import plots

        fig = plots.review_figure(
            game.players, plots.review_series(game.history), [(r.player, r.equity_lost) for r in turns]
        )
        plots.save(fig, args.plot)
        console.print(f"plot written to {args.plot}", highlight=False, soft_wrap=True)
    return 0


def _cmd_preendgame(args: argparse.Namespace, console: Console) -> int:
    """``lexiko analyze --preendgame``: the candidates' shares of the splits won."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from lexiko.bots.preendgame import preendgame
    from lexiko.progress import WorkProgress

    if args.sim:
        raise LexikoError("--preendgame plays every split to the end: leave out --sim")
    game = _game_from_args(args)
    if game.is_over:
        raise LexikoError("the game is over: give --turn K for a position")
    if len(game.players) != 2:
        raise LexikoError("the pre-endgame handles two-player games")
    if not game.bag_count:
        raise LexikoError("the bag is empty: solve the endgame (--endgame)")
    if game.bag_count > game.rules.rack_size:
        raise LexikoError(f"the bag holds {game.bag_count} tiles: the pre-endgame takes 1 to {game.rules.rack_size}")
    lexicon = _lexicon_for(args, game, console)
    leaves = _leaves_from_args(args, game.tiles)
    _header(game, console, not args.no_board)
    with WorkProgress(
        TextColumn("splits"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True
    ) as bar:
        task = bar.add_task("splits", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        results = preendgame(
            game,
            lexicon,
            candidates=args.top,
            leaves=leaves,
            endgame_time=args.endgame_time if args.endgame_time is not None else PREENDGAME_ENDGAME_SECONDS,
            time_limit=args.time_limit,
            seed=args.seed or 0,
            progress=progress,
        )
    t = Table(show_header=True, header_style="bold", box=None)
    for name, justify in (
        ("#", "right"),
        ("move", "left"),
        ("score", "right"),
        ("leave", "left"),
        ("win %", "right"),
        ("mean spread", "right"),
        ("splits", "right"),
        ("exact", "right"),
    ):
        t.add_column(name, justify=justify, no_wrap=name == "move")  # type: ignore[arg-type]
    tiles = game.tiles
    for i, r in enumerate(results, 1):
        c = r.candidate
        t.add_row(
            str(i),
            c.notation(tiles, game.board),
            str(c.score),
            tiles.format(c.leave) or "-",
            f"{100 * r.wins:.1f}",
            f"{r.spread:+.1f}",
            str(r.scenarios),
            str(r.exact),
        )
    console.print(t)
    return 0


def cmd_endgame(args: argparse.Namespace, console: Console) -> int:
    """``lexiko endgame`` (and ``analyze --endgame``): solve and show the line."""
    from rich.text import Text

    from lexiko.bots.endgame import solve

    game = _game_from_args(args)
    if game.is_over:
        raise LexikoError("the game is over: give --turn K for a position")
    if len(game.players) != 2:
        raise LexikoError("the endgame solver handles two-player games")
    if game.bag_count:
        raise LexikoError(f"the bag holds {game.bag_count} tiles: the endgame solver needs it empty")
    lexicon = _lexicon_for(args, game, console)
    _header(game, console, not args.no_board)
    limit = args.time_limit if args.time_limit is not None else ENDGAME_SECONDS
    p = game.player_on_turn
    names = [game.players[p], game.players[1 - p]]
    with console.status(f"solving the endgame (at most {limit:g} s)…") as status_line:

        def progress(r: EndgameResult) -> None:
            moves = r.notations()
            shown = " ".join(moves[:4]) + (" …" if len(moves) > 4 else "")
            status_line.update(
                Text(
                    f"depth {r.depth}: best {moves[0]} ({r.value:+d}), line {shown}; "
                    f"{r.nodes:,} nodes, {r.elapsed:.1f} s of {limit:g}"
                )
            )

        res = solve(game, max_depth=args.max_depth, time_limit=limit, lexicon=lexicon, progress=progress)
    line = "  ".join(f"{names[i % 2]}: {m}" for i, m in enumerate(res.notations()))
    if res.complete:
        status = "solved exactly"
    elif args.max_depth is not None and res.depth >= args.max_depth:
        status = f"best line to depth {res.depth}; not proven optimal"
    else:
        status = f"best found in {limit:g} s at depth {res.depth}; not proven optimal (--time-limit for longer)"
    console.print(f"best move: [bold]{res.notations()[0]}[/bold]", highlight=False)
    console.print(
        f"final spread for {names[0]}: {res.spread:+d} ({_fmt(res.value)} from here), {status}", highlight=False
    )
    console.print(f"line: {line}", highlight=False, soft_wrap=True)
    rate = res.nodes / res.elapsed if res.elapsed > 0 else 0.0
    console.print(f"{res.nodes:,} nodes in {res.elapsed:.2f} s ({rate:,.0f} nodes/s)", style="dim", highlight=False)
    return 0
