"""The review of a finished game: for each turn, the position, the move played and the
best moves the move generator finds, with how much the move played gave away.

Moves are ranked as the move generator lists them: by equity, the score plus the
value of the tiles kept from the package's leave table (`lexiko.leaves`) while
the bag has tiles, or by score alone when no leave table is installed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from lexiko.analysis import same_move
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Move, Place
from lexiko.rules import Rules
from lexiko.tiles import TileSet
from lexiko.web.live import WallClock
from lexiko.web.store import ActionData
from lexiko.web.views import describe_event

__all__ = ["compute_review", "leave_values"]


def leave_values(tiles: TileSet) -> Callable[[tuple[int, ...]], float] | None:
    """The default leave table's lookup for a tile set, or None when there is none."""
    try:
        from lexiko.leaves import LeaveTable

        table = LeaveTable.default(tiles)
    except Exception:  # no table for these tiles, or no leaves module: score alone
        return None
    lookup: Callable[[tuple[int, ...]], float] = table.lookup
    return lookup


def _squares(move: Move, ts: Any) -> list[list[Any]]:
    if isinstance(move, Place):
        return [[r, c, ts.face(t)] for r, c, t in move.new_tiles()]
    return []


def _spread_and_chance(g: Game) -> dict[str, float]:
    """For two players: the spread (first player's score minus the second's) after the
    turn, and a rough chance in percent that the first player wins: the spread against
    the swing still possible, Φ(spread / σ) with σ = 35 points × √(turns left), turns left
    counted from the tiles not yet played (an estimate to look at, not a simulation)."""
    if len(g.players) != 2:
        return {}
    spread = g.scores[0] - g.scores[1]
    tiles_left = g.bag_count + len(g.rack(0)) + len(g.rack(1))
    if g.is_over or tiles_left == 0:
        chance = 100.0 if spread > 0 else 0.0 if spread < 0 else 50.0
    else:
        sigma = 35.0 * math.sqrt(max(tiles_left / 7.0, 0.25))
        chance = 50.0 * (1.0 + math.erf(spread / (sigma * math.sqrt(2.0))))
    return {"spread": spread, "win": round(chance, 1)}


def compute_review(
    *,
    players: Sequence[str],
    rules: Rules,
    seed: int,
    started_at: float,
    actions: Sequence[ActionData],
    lexicon: Lexicon,
    best: int = 5,
) -> dict[str, Any]:
    """Replay the game and analyse every move (plays, exchanges, passes)."""
    from lexiko import movegen

    clock = WallClock()
    clock.frozen = started_at
    g = Game(list(players), rules, seed=seed, lexicon=lexicon, clock=clock)
    ts = g.tiles
    leaves = leave_values(ts)
    turns: list[dict[str, Any]] = []
    for a in actions:
        clock.frozen = a.at
        if a.text == "abort" or a.text.startswith("rematch "):
            continue  # nothing the game's rules know of
        if a.text.startswith("downtime "):
            g.discount_time(float(a.text.split()[1]))
            continue
        if a.text in ("flag", "resign"):
            (g.flag if a.text == "flag" else g.resign)(a.seat)
            continue
        is_move = a.text not in ("challenge", "accept")
        board, rack, bag = g.board, g.rack(a.seat), g.bag_count
        n_before = len(g.history)
        g.apply(a.text, player=a.seat)
        new_events = g.history[n_before:]
        if not is_move:
            if turns:
                turns[-1]["after"].extend(describe_event(g, e, players) for e in new_events)
            continue
        ev = next((e for e in new_events if e.player == a.seat and e.kind in ("play", "exchange", "pass")), None)
        if ev is None or ev.move is None:
            continue
        cands = movegen.generate(
            board, rack, lexicon, rules, bag_count=bag, leaves=leaves if bag else None, down_openings=board.is_empty
        )
        played_rank: int | None = None
        played_equity: float | None = None
        for i, c in enumerate(cands):
            if same_move(c.move, ev.move, board):
                played_rank, played_equity = i + 1, c.equity
                break
        top = cands[:best]
        best_equity = top[0].equity if top else 0.0
        turns.append(
            {
                "turn": len(turns) + 1,
                "player": a.seat,
                "name": players[a.seat],
                "rack": ts.format(rack),
                "board": board.rows(),
                "bag_count": bag,
                "played": {
                    "move": ev.move.notation(ts, board),
                    "score": ev.score,
                    "words": list(ev.words),
                    "valid": played_rank is not None,
                    "rank": played_rank,
                    "equity": played_equity,
                    "squares": _squares(ev.move, ts),
                },
                "best": [
                    {
                        "move": c.move.notation(ts, board),
                        "score": c.score,
                        "equity": round(c.equity, 2),
                        "leave": ts.format(c.leave),
                        "squares": _squares(c.move, ts),
                    }
                    for c in top
                ],
                "moves_found": len(cands),
                "scores": list(g.scores),
                **_spread_and_chance(g),
                "equity_lost": round(best_equity - played_equity, 2) if played_equity is not None else None,
                "after": [],
            }
        )
    totals: dict[str, float] = {}
    for t in turns:
        if t["equity_lost"] is not None:
            totals[t["name"]] = round(totals.get(t["name"], 0.0) + t["equity_lost"], 2)
    return {
        "players": list(players),
        "scores": g.scores,
        "turns": turns,
        "equity_lost": totals,
        "leaves": leaves is not None,
        "lexicon": rules.lexicon,
    }
