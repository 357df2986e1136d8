"""The review of a game as the web app shows it: the game rebuilt (from its stored
actions, or from a GCG record sent to be reviewed), every turn weighed by
`lexiko.review.review_game` (the best moves simulated with the move played, win
chances, verdicts, accuracy, the endgame solved), and the answer as JSON with what the
page draws: the board before each turn, the squares of each move, the scores after it.

The chart's win chance is the first player's, after each turn: the win chance the
review gives the move played (its mover's), turned to the first player's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from lexiko.analysis import _start_board
from lexiko.bots.static import LeavesArg
from lexiko.errors import LexikoError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Place, parse_move
from lexiko.progress import Progress
from lexiko.review import GameReview, Line, ReviewDepth, review_game
from lexiko.rules import Rules
from lexiko.tiles import TileSet
from lexiko.web.live import WallClock
from lexiko.web.store import ActionData
from lexiko.web.views import describe_event

__all__ = ["compute_review", "game_of_actions", "game_of_record", "review_answer", "leave_values", "MAX_RECORD"]

MAX_RECORD = 64_000
"""The longest GCG record (bytes of UTF-8) the server takes to review."""


def leave_values(tiles: TileSet) -> Callable[[tuple[int, ...]], float] | None:
    """The default leave table's lookup for a tile set, or None when there is none."""
    try:
        from lexiko.leaves import LeaveTable

        table = LeaveTable.default(tiles)
    except Exception:  # no table for these tiles, or no leaves module: score alone
        return None
    lookup: Callable[[tuple[int, ...]], float] = table.lookup
    return lookup


def game_of_actions(
    *, players: Sequence[str], rules: Rules, seed: int, started_at: float, actions: Sequence[ActionData]
) -> Game:
    """A finished game of the server rebuilt from its stored actions."""
    clock = WallClock()
    clock.frozen = started_at
    g = Game(list(players), rules, seed=seed, lexicon=None, clock=clock)
    for a in actions:
        clock.frozen = a.at
        if a.text == "abort" or a.text.startswith("rematch "):
            continue  # nothing the game's rules know of
        if a.text.startswith("downtime "):
            g.discount_time(float(a.text.split()[1]))
        elif a.text in ("flag", "resign"):
            (g.flag if a.text == "flag" else g.resign)(a.seat)
        else:
            g.apply(a.text, player=a.seat)
    return g


def game_of_record(text: str) -> Game:
    """The game of a GCG record, replayed and checked; raises `LexikoError` naming the
    first bad line. Its lexicon is the one its rules name."""
    from lexiko import gcg

    if len(text.encode("utf-8")) > MAX_RECORD:
        raise LexikoError(f"a record to review is at most {MAX_RECORD // 1000} KB")
    game = gcg.parse(text).replay()
    if not any(ev.kind in ("play", "exchange", "pass") for ev in game.history):
        raise LexikoError("the record has no move to review")
    return game


def _squares(notation: str, tiles: TileSet, board: Any) -> list[list[Any]]:
    """The new tiles of a move given in notation (none for an exchange or a pass)."""
    try:
        move = parse_move(notation.removesuffix(" (withdrawn)"), tiles, board)
    except LexikoError:
        return []
    if isinstance(move, Place):
        return [[r, c, tiles.face(t)] for r, c, t in move.new_tiles()]
    return []


def _move(line: Line, tiles: TileSet, board: Any) -> dict[str, Any]:
    return {
        "move": line.move,
        "score": line.score,
        "equity": round(line.equity, 2),
        "value": round(line.value, 2),
        "win": round(100 * line.win, 1),
        "iterations": line.iterations,
        "leave": line.leave,
        "squares": _squares(line.move, tiles, board),
    }


def review_answer(game: Game, review: GameReview, *, lexicon: str, leaves: bool) -> dict[str, Any]:
    """The review as the page takes it (`lexiko.web.models.Review`)."""
    tiles = game.tiles
    players = list(game.players)
    by_turn = {t.turn: t for t in review.turns}
    board = _start_board(game)
    scores = [0] * len(players)
    turns: list[dict[str, Any]] = []
    number = 0
    last: dict[str, Any] | None = None
    for ev in game.history:
        if ev.kind in ("play", "exchange", "pass") and ev.move is not None:
            number += 1
            t = by_turn.get(number)
            last = None
            if t is not None:
                played = _move(t.played, tiles, board)
                played.update(words=list(ev.words), valid=t.valid, rank=t.rank)
                last = {
                    "turn": t.turn,
                    "player": t.player,
                    "name": t.name,
                    "rack": t.rack,
                    "board": board.rows(),
                    "bag_count": t.bag,
                    "played": played,
                    "best": [_move(line, tiles, board) for line in t.top],
                    "value_lost": t.value_lost,
                    "win_lost": round(100 * t.win_lost, 1),
                    "verdict": t.verdict,
                    "accuracy": t.accuracy,
                    "method": t.method,
                    "exact": t.exact,
                    "after": [],
                }
                if len(players) == 2:
                    mine = t.played.win if t.player == 0 else 1.0 - t.played.win
                    last["win"] = round(100 * mine, 1)
                turns.append(last)
            if ev.kind == "play" and isinstance(ev.move, Place):
                board = board.place(ev.move)
        else:
            if ev.kind == "withdrawn" and isinstance(ev.move, Place):
                board = board.remove([(r, c) for r, c, _ in ev.move.new_tiles()])
            if last is not None:
                last["after"].append(describe_event(game, ev, players))
        scores[ev.player] = ev.total
        if last is not None:
            last["scores"] = list(scores)
            if len(players) == 2:
                last["spread"] = scores[0] - scores[1]
    return {
        "status": "done",
        "players": players,
        "scores": list(game.scores),
        "turns": turns,
        "summaries": [dataclasses.asdict(s) for s in review.summaries],
        "depth": dataclasses.asdict(review.depth),
        "leaves": leaves,
        "lexicon": lexicon,
    }


def compute_review(
    game: Game,
    lexicon: Lexicon,
    depth: ReviewDepth,
    *,
    executor: Any = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Weigh every turn of ``game`` and answer as `review_answer` (to run off the
    event loop: it takes seconds to a minute)."""
    table = leave_values(game.tiles)
    leaves: LeavesArg = None if table is not None else False
    review = review_game(game, lexicon, depth, leaves=leaves, executor=executor, progress=progress)
    return review_answer(game, review, lexicon=lexicon.name, leaves=table is not None)
