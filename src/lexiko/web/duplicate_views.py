"""What each client of a duplicate game is sent.

Everybody sees the board, the shared rack, the bag, the tops placed so far, who has
played this round (not what), the totals and the percentage of the top; a player also
sees their own move for the round. Every player's move of a round is shown once the
round is closed, and the master sheet once the game is over. Nobody is ever sent a
secret seed, the bag's order or another player's move of the round being played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from lexiko.duplicate import DuplicateGame, RoundResult, Submission, master_sheet
from lexiko.move import Place
from lexiko.web.live import LiveGame

__all__ = ["duplicate_state", "SHOWN_PLAYERS"]

SHOWN_PLAYERS = 32
"""A duplicate game of more players than this is a crowd (an event): each client is sent
the best this many and its own line, not every player's, and the master sheet only on
request; what a client receives stays the same size whatever the number of players."""


def _sub(sub: Submission | None) -> dict[str, Any] | None:
    if sub is None:
        return None
    return {"move": sub.notation, "score": sub.score, "words": list(sub.words)}


def _notation(sub: Submission | None) -> str | None:
    return None if sub is None else sub.notation


def _round(r: RoundResult, players: Sequence[str]) -> dict[str, Any]:
    """A closed round's results for ``players``."""
    return {
        "number": r.number,
        "rack": r.rack,
        "top": _sub(r.top),
        "results": [
            {"name": p, "move": _notation(r.submissions[p]), "score": r.scores[p], "bonus": r.bonus.get(p, 0)}
            for p in players
        ],
    }


def _history(d: DuplicateGame) -> list[dict[str, Any]]:
    out = []
    total = 0
    for r in d.rounds:
        total += r.top.score
        out.append(
            {
                "n": r.number - 1,
                "player": -1,
                "who": f"R{r.number}",
                "kind": "play",
                "move": r.top.notation,
                "score": r.top.score,
                "total": total,
                "words": list(r.top.words),
                "rack": r.rack,
                "text": f"round {r.number}: {r.rack}, top {r.top.notation} ({', '.join(r.top.words)})",
            }
        )
    return out


def _shared(live: LiveGame, d: DuplicateGame) -> dict[str, Any]:
    """What every client of the game is sent alike: the round's part computed once a
    round (`_round_part`), who has played once per submission (in a crowd only the
    count and the lines shown: a thousand players' moves must not cost a thousand
    standings each)."""
    count = d.submitted_count
    key = ("duplicate", id(d), live.version, count, live.status)
    cached = live.view_cache.get("duplicate")
    if cached is not None and cached[0] == key:
        return cached[1]  # type: ignore[no-any-return]
    out = dict(_round_part(live, d))
    line = out["line"]
    out["players"] = [line(p) for p in out["shown"]]
    if out["crowd"]:
        out["played"] = out["waiting_for"] = None
    else:
        out["played"] = d.submitted()
        out["waiting_for"] = [p for p in d.players if d.submission(p) is None]
    out["played_count"] = count
    live.view_cache["duplicate"] = (key, out)
    return out


def _round_part(live: LiveGame, d: DuplicateGame) -> dict[str, Any]:
    """What every client is sent alike and changes only when a round closes (or the
    game's status does)."""
    key = ("duplicate-round", id(d), len(live.actions), d.round_number, live.status)
    cached = live.view_cache.get("duplicate-round")
    if cached is not None and cached[0] == key:
        return cached[1]  # type: ignore[no-any-return]
    crowd = len(d.players) > SHOWN_PLAYERS
    ts = d.tiles
    over = d.over or live.status == "aborted"
    index = {name: i for i, name in enumerate(d.players)}
    standings = d.standings()
    shown = [p for p, _, _ in standings[:SHOWN_PLAYERS]] if crowd else d.players

    def line(name: str) -> dict[str, Any]:
        i = index[name]
        played = d.submission(name) is not None
        return {
            "seat": i,
            "name": name,
            "kind": live.seats[i].kind,
            "score": d.totals[name],
            "percentage": round(d.percentage(name), 1),
            "played": played,
            "on_turn": not over and not played,
            "time_left": None,
            "rack_count": len(d.rack),
        }

    unseen = Counter(ts.bag()) - Counter(c for c in d.board.played_tiles()) - Counter(d.rack)
    order = {ts.face(i + 1): i for i in range(ts.size)}
    faces = Counter(ts.face(c) for c in unseen.elements())
    last = d.rounds[-1] if d.rounds else None
    top = last.top.move if last is not None else None
    out = {
        "crowd": crowd,
        "shown": shown,
        "board": d.board.rows(),
        "last_play": [[r, c] for r, c, _ in top.new_tiles()] if isinstance(top, Place) else [],
        "rack": [ts.face(c) for c in d.rack],
        "unseen": {k: faces[k] for k in sorted(faces, key=lambda f: order.get(f, 10**6))},
        "unseen_count": d.bag_count,
        "bag_count": d.bag_count,
        "history": _history(d),
        "player_count": len(d.players),
        "last_round": _round(last, d.players) if last is not None and not crowd else None,
        # a crowd's last round: its best players (and each client's own line is added)
        "round_best": sorted(range(len(d.players)), key=lambda i: -last.scores[d.players[i]])[:SHOWN_PLAYERS]
        if last is not None and crowd
        else [],
        "index": index,
        "standings": [
            {"name": p, "total": t, "percentage": round(pct, 1)}
            for p, t, pct in standings[: SHOWN_PLAYERS if crowd else None]
        ],
        "master_sheet": master_sheet(d) if over and not crowd else None,
        "line": line,
    }
    live.view_cache["duplicate-round"] = (key, out)
    return out


def duplicate_state(live: LiveGame, seat: int | None, base: dict[str, Any]) -> dict[str, Any]:
    """The state message of a duplicate game for one seat (None: a spectator); ``base``
    holds what every game's state has (rules, tiles, layout, seats). In a crowd (more
    than `SHOWN_PLAYERS` players) the lists hold the best players and the seat's
    own line, and ``played``, ``waiting_for`` and ``master_sheet`` are None (the counts
    ``played_count`` and ``player_count`` are always there)."""
    msg = dict(base)
    msg["rules"] = {**msg["rules"], "variant": "duplicate", "duplicate_seconds": live.rules.duplicate_seconds}
    d = live.duplicate
    if d is None:
        return msg
    shared = _shared(live, d)
    crowd = len(d.players) > SHOWN_PLAYERS
    aborted = live.status == "aborted"
    over = d.over or aborted
    is_player = seat is not None and 0 <= seat < len(live.seats)
    me = live.seats[seat].name if is_player and seat is not None else None
    mine = d.submission(me) if me is not None and not over else None
    players = shared["players"]
    last = d.rounds[-1] if d.rounds else None
    last_round = shared["last_round"]
    if crowd:
        best = shared["round_best"]
        if me is not None:
            if not any(p["seat"] == seat for p in players):
                players = [*players, shared["line"](me)]
            best = sorted({*best, shared["index"][me]})
        if last is not None:
            last_round = _round(last, [d.players[i] for i in best])
    waiting_count = shared["player_count"] - shared["played_count"]
    msg.update(
        board=shared["board"],
        last_play=shared["last_play"],
        players=players,
        rack=shared["rack"],
        unseen=shared["unseen"],
        unseen_count=shared["unseen_count"],
        bag_count=shared["bag_count"],
        turn=None,
        history=shared["history"],
        pending_player=None,
        final_challenge=False,
        can={
            "play": bool(is_player and not over),
            "pass": bool(is_player and not over),
            "exchange": False,
            "challenge": False,
            "accept": False,
            "resign": False,
            "abort": bool(is_player and not over and not live.actions and not live.subs),
            "rematch": bool(is_player and over and live.rematch is None),
        },
        duplicate={
            "round": d.round_number,
            "time_left": None if over else d.time_left(),
            "played": shared["played"],
            "waiting_for": shared["waiting_for"],
            "played_count": shared["played_count"],
            "player_count": shared["player_count"],
            "mine": _sub(mine),
            "last_round": last_round,
            "top_total": d.top_total,
            "standings": shared["standings"],
            "master_sheet": shared["master_sheet"],
        },
    )
    waiting = (
        ", ".join(shared["waiting_for"])
        if shared["waiting_for"] is not None
        else f"{waiting_count} of {shared['player_count']} players"
    )
    if aborted:
        msg["status_text"] = "Game aborted before the first move"
    elif over:
        best = max(d.totals.values())
        winners = [i for i, p in enumerate(d.players) if d.totals[p] == best]
        names = [d.players[i] for i in winners]
        msg["result"] = {
            "reason": "duplicate",
            "winners": winners,
            "winner_names": names,
            "scores": [d.totals[p] for p in d.players] if not crowd else None,
            "team_scores": None,
            "phonies": [],
        }
        pct = d.percentage(names[0])
        msg["status_text"] = (
            f"Game over: {names[0]} wins with {best} ({pct:.1f}% of the top)"
            if len(names) == 1
            else f"Game over: a tie at {best} ({pct:.1f}% of the top)"
        )
    elif me is not None and mine is not None:
        msg["status_text"] = f"Round {d.round_number}: you played {mine.notation} ({mine.score}); waiting for {waiting}"
    elif me is not None:
        msg["status_text"] = f"Round {d.round_number}: your move"
    else:
        msg["status_text"] = f"Round {d.round_number}: waiting for {waiting}"
    return msg
