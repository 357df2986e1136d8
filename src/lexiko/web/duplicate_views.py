"""What each client of a duplicate game is sent.

Everybody sees the board, the shared rack, the bag, the tops placed so far, who has
played this round (not what), the totals and the percentage of the top; a player also
sees their own move for the round. Every player's move of a round is shown once the
round is closed, and the master sheet once the game is over. Nobody is ever sent a
secret seed, the bag's order or another player's move of the round being played.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from lexiko.duplicate import DuplicateGame, RoundResult, Submission, master_sheet
from lexiko.move import Place
from lexiko.web.live import LiveGame

__all__ = ["duplicate_state"]


def _sub(sub: Submission | None) -> dict[str, Any] | None:
    if sub is None:
        return None
    return {"move": sub.notation, "score": sub.score, "words": list(sub.words)}


def _notation(sub: Submission | None) -> str | None:
    return None if sub is None else sub.notation


def _round(r: RoundResult, d: DuplicateGame) -> dict[str, Any]:
    return {
        "number": r.number,
        "rack": r.rack,
        "top": _sub(r.top),
        "results": [
            {"name": p, "move": _notation(r.submissions[p]), "score": r.scores[p], "bonus": r.bonus.get(p, 0)}
            for p in d.players
        ],
    }


def _history(d: DuplicateGame) -> list[dict[str, Any]]:
    out = []
    total = 0
    for r in d.rounds:
        total += r.top.score
        out.append({"n": r.number - 1, "player": -1, "who": f"R{r.number}", "kind": "play", "move": r.top.notation,
                    "score": r.top.score, "total": total, "words": list(r.top.words), "rack": r.rack,
                    "text": f"round {r.number}: {r.rack}, top {r.top.notation} ({', '.join(r.top.words)})"})
    return out


def duplicate_state(live: LiveGame, seat: int | None, base: dict[str, Any]) -> dict[str, Any]:
    """The state message of a duplicate game for one seat (None: a spectator); ``base``
    holds what every game's state has (rules, tiles, layout, seats)."""
    from lexiko.web.views import board_rows

    msg = dict(base)
    msg["rules"] = {**msg["rules"], "variant": "duplicate", "duplicate_seconds": live.rules.duplicate_seconds}
    d = live.duplicate
    if d is None:
        return msg
    ts = d.tiles
    aborted = live.status == "aborted"
    over = d.over or aborted
    is_player = seat is not None and 0 <= seat < len(live.seats)
    played = set(d.submitted())
    me = live.seats[seat].name if is_player and seat is not None else None
    players = []
    for i, name in enumerate(d.players):
        players.append({
            "seat": i, "name": name, "kind": live.seats[i].kind, "score": d.totals[name],
            "percentage": round(d.percentage(name), 1), "played": name in played,
            "on_turn": not over and name not in played, "time_left": None, "rack_count": len(d.rack),
        })
    unseen = Counter(ts.bag()) - Counter(c for c in d.board.played_tiles()) - Counter(d.rack)
    order = {ts.face(i + 1): i for i in range(ts.size)}
    faces = Counter(ts.face(c) for c in unseen.elements())
    last = d.rounds[-1] if d.rounds else None
    top = last.top.move if last is not None else None
    last_play = [[r, c] for r, c, _ in top.new_tiles()] if isinstance(top, Place) else []
    waiting = [p for p in d.players if p not in played]
    mine = d.submission(me) if me is not None and not over else None
    msg.update(
        board=board_rows(d.board),
        last_play=last_play,
        players=players,
        rack=[ts.face(c) for c in d.rack],
        unseen={k: faces[k] for k in sorted(faces, key=lambda f: order.get(f, 10**6))},
        unseen_count=d.bag_count,
        bag_count=d.bag_count,
        turn=None,
        history=_history(d),
        pending_player=None,
        final_challenge=False,
        can={"play": bool(is_player and not over), "pass": bool(is_player and not over), "exchange": False,
             "challenge": False, "accept": False, "resign": False,
             "abort": bool(is_player and not over and not live.actions),
             "rematch": bool(is_player and over and live.rematch is None)},
        duplicate={
            "round": d.round_number,
            "time_left": None if over else d.time_left(),
            "played": [p for p in d.players if p in played],
            "waiting_for": waiting,
            "mine": _sub(mine),
            "last_round": _round(last, d) if last is not None else None,
            "top_total": d.top_total,
            "standings": [{"name": p, "total": t, "percentage": round(pct, 1)} for p, t, pct in d.standings()],
            "master_sheet": master_sheet(d) if over else None,
        },
    )
    if aborted:
        msg["status_text"] = "Game aborted before the first move"
    elif over:
        best = max(d.totals.values())
        winners = [i for i, p in enumerate(d.players) if d.totals[p] == best]
        names = [d.players[i] for i in winners]
        msg["result"] = {"reason": "duplicate", "winners": winners, "winner_names": names,
                         "scores": [d.totals[p] for p in d.players], "team_scores": None, "phonies": []}
        pct = d.percentage(names[0])
        msg["status_text"] = (f"Game over: {names[0]} wins with {best} ({pct:.1f}% of the top)" if len(names) == 1
                              else f"Game over: a tie at {best} ({pct:.1f}% of the top)")
    elif me is not None and mine is not None:
        msg["status_text"] = (f"Round {d.round_number}: you played {mine.notation} ({mine.score}); "
                              f"waiting for {', '.join(waiting)}")
    elif me is not None:
        msg["status_text"] = f"Round {d.round_number}: your move"
    else:
        msg["status_text"] = f"Round {d.round_number}: waiting for {', '.join(waiting)}"
    return msg
