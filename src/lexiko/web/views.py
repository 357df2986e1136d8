"""What each client is sent: the game as one seat may see it.

The rule is simple and tested: while a game is on, a player sees the board, the scores,
the clocks, the move list, the number of tiles in the bag and on each rack, their own
rack and the tiles they cannot see (bag and other racks together, as a count per
letter) — never another player's rack, the tiles another player exchanged, the bag's
order or a secret seed (a seed the creator chose is shown to every player). Once the game
is over every rack is shown, as game records do.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import orjson

from lexiko import gcg
from lexiko.board import Board
from lexiko.game import Event, Game
from lexiko.move import Exchange, Place
from lexiko.tiles import TileSet
from lexiko.web.live import LiveGame

__all__ = [
    "state_for",
    "state_text",
    "STATE_SECONDS",
    "gcg_for",
    "tile_info",
    "describe_event",
    "lobby_info",
    "to_json",
]


def to_json(message: dict[str, Any]) -> str:
    """A message as compact JSON text, as it goes to clients (``orjson``: a state is
    serialized for every seat after every move, eight times faster than the standard
    library's encoder).

    >>> to_json({"type": "pong", "id": None})
    '{"type":"pong","id":null}'
    """
    return orjson.dumps(message).decode()


def tile_info(ts: TileSet) -> dict[str, Any]:
    """Letters of the tile set in order, with their values."""
    return {
        "name": ts.name,
        "letters": list(ts.letters),
        "values": {f: v for f, v in zip(ts.letters, ts.values, strict=True)},
        "blanks": ts.blanks,
    }


def _faces(ts: TileSet, codes: Sequence[int]) -> list[str]:
    return [ts.face(c) for c in codes]


def _count_faces(ts: TileSet, codes: Sequence[int]) -> dict[str, int]:
    """How many of each tile, in the tile set's order (the blank last).

    >>> from lexiko.tiles import ENGLISH
    >>> _count_faces(ENGLISH, (0, 5, 1, 5))
    {'A': 1, 'E': 2, '?': 1}
    """
    c = Counter(codes)
    return {ts.face(k): c[k] for k in sorted(c, key=lambda k: k or 10**6)}


def describe_event(game: Game, ev: Event, names: Sequence[str]) -> str:
    """One line for an event, as the move list shows it."""
    name = names[ev.player]
    ts = game.tiles
    if ev.kind == "play" and isinstance(ev.move, Place):
        return f"{name} plays {ev.move.notation(ts, game.board)} ({', '.join(ev.words)})"
    if ev.kind == "exchange" and isinstance(ev.move, Exchange):
        n = len(ev.move.tiles)
        return f"{name} exchanges {n} tile{'s' if n != 1 else ''}"
    if ev.kind == "withdrawn" and ev.invalid:
        verdict = "is not a word" if len(ev.invalid) == 1 else "are not words"
        return f"{name}'s play is withdrawn: {', '.join(ev.invalid)} {verdict}"
    return {
        "pass": f"{name} passes",
        "withdrawn": f"{name}'s play is withdrawn after a challenge",
        "challenge-bonus": f"{name} gets {ev.score} points for a failed challenge",
        "challenge-penalty": f"{name} loses {-ev.score} points for a failed challenge",
        "lost-turn": f"{name} loses a turn",
        "out-of-time": f"{name} is out of time",
        "end-rack-bonus": f"{name} adds the tiles left on the other racks",
        "end-rack-penalty": f"{name} loses the tiles left on the rack",
        "time-penalty": f"{name} loses {-ev.score} points for overtime",
    }.get(ev.kind, f"{name}: {ev.kind}")


def _event_items(live: LiveGame, i: int, ev: Event, turn: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """An event of the move list as its player sees it and as the others do, with its
    turn's number if it is a turn (computed once: events never change, and the letters a
    play goes through stay on the board)."""
    key = ("event", i)
    cached = live.view_cache.get(key)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    g = live.game
    assert g is not None
    ts = g.tiles
    item: dict[str, Any] = {
        "n": i,
        "player": ev.player,
        "kind": ev.kind,
        "score": ev.score,
        "total": ev.total,
        "text": describe_event(g, ev, live.names),
    }
    if ev.elapsed is not None:
        item["elapsed"] = round(ev.elapsed, 1)
    own: dict[str, Any] = {}
    if isinstance(ev.move, Place):
        item["move"] = ev.move.notation(ts, g.board)
        # tuples: kept in the views' cache for the game's life, and the garbage collector
        # stops tracking a tuple of numbers and text (a list it scans at every pass)
        item["words"] = tuple(ev.words)
        item["squares"] = tuple((r, c, ts.face(t)) for r, c, t in ev.move.new_tiles())
    elif isinstance(ev.move, Exchange):
        item["count"] = len(ev.move.tiles)
        item["move"] = f"-{len(ev.move.tiles)}"
        own["move"] = ev.move.notation(ts)
    elif ev.kind == "pass":
        item["move"] = "-"
    if ev.tiles:
        item["tiles"] = ts.format(ev.tiles)
    if ev.invalid:
        item["invalid"] = list(ev.invalid)
    if ev.rack:
        own["rack"] = ts.format(ts.rack_sort(ev.rack))
    if turn is not None:
        item["turn"] = turn
    result = (item, {**item, **own})
    live.view_cache[key] = result
    return result


_TURNS = ("play", "exchange", "pass")


def _history(live: LiveGame, seat: int | None, reveal: bool) -> list[dict[str, Any]]:
    """The move list; each turn (a play, an exchange or a pass) carries its number.
    Kept per viewer and brought up to date with the new events only (events never
    change; taking an action back clears the views' cache)."""
    g = live.game
    assert g is not None
    key = ("history", "all" if reveal else seat)
    cached: tuple[list[dict[str, Any]], int] | None = live.view_cache.get(key)
    out, turn = cached if cached is not None else ([], 0)
    if len(out) < len(g.history):
        out = list(out)  # a new list: a message built earlier keeps its own
        for i in range(len(out), len(g.history)):
            ev = g.history[i]
            if ev.kind in _TURNS:
                turn += 1
            public, own = _event_items(live, i, ev, turn if ev.kind in _TURNS else None)
            out.append(own if reveal or ev.player == seat else public)
        live.view_cache[key] = (out, turn)
    return out


def challenge_banner(g: Game, names: Sequence[str]) -> dict[str, Any] | None:
    """What the last challenge decided, when it is the latest thing that happened: the
    words challenged and the verdict, for a banner over the board (None otherwise)."""
    hist = g.history
    i = len(hist) - 1
    while i >= 0 and hist[i].kind in ("end-rack-bonus", "end-rack-penalty", "time-penalty"):
        i -= 1
    if i < 0 or hist[i].kind not in ("withdrawn", "challenge-bonus", "challenge-penalty", "lost-turn"):
        return None
    ev = hist[i]
    play = next((e for e in reversed(hist[:i]) if e.kind == "play"), None)
    words = list(play.words) if play is not None else []
    who = names[play.player] if play is not None else names[ev.player]
    if ev.kind == "withdrawn":
        bad = list(ev.invalid) or words
        verb = "is not a word" if len(bad) == 1 else "are not words"
        return {
            "verdict": "phony",
            "words": bad,
            "text": f"Challenged: {', '.join(bad)} {verb}. {who}'s play is taken back.",
        }
    verb = "is good" if len(words) == 1 else "are good"
    return {
        "verdict": "good",
        "words": words,
        "text": f"Challenged: {', '.join(words)} {verb}. {describe_event(g, ev, names)}.",
    }


def _last_play_squares(g: Game) -> tuple[tuple[int, int], ...]:
    for ev in reversed(g.history):
        if ev.kind == "withdrawn":
            return ()
        if ev.kind == "play" and isinstance(ev.move, Place):
            return tuple((r, c) for r, c, _ in ev.move.new_tiles())
    return ()


def lobby_info(live: LiveGame) -> dict[str, Any]:
    """What anyone with the game's address may know before joining."""
    return {
        "id": live.id,
        "status": live.status,
        "rules": live.rules.describe(),
        "public": live.listed,
        **({"seed": live.seed} if live.seeded else {}),
        **({"event_id": live.event_id} if live.event_id else {}),
        **_seats(live, None),
    }


def _seats(live: LiveGame, seat: int | None) -> dict[str, Any]:
    """The seats as a client sees them: every seat, or in a crowd (a duplicate event of
    more than ``SHOWN_PLAYERS`` seats) the first ones and the client's own, with the
    counts. Cached until the seats change (a join clears the views' cache)."""
    from lexiko.web.duplicate_views import SHOWN_PLAYERS

    cached = live.view_cache.get("seats")
    if cached is None:
        taken = sum(1 for s in live.seats if s.taken)
        rows = [{"seat": s.index, "name": s.name, "kind": s.kind, "taken": s.taken} for s in live.seats]
        cached = live.view_cache["seats"] = (rows, taken)
    rows, taken = cached
    if len(rows) > SHOWN_PLAYERS:
        shown = rows[:SHOWN_PLAYERS]
        if seat is not None and seat >= SHOWN_PLAYERS and seat < len(rows):
            shown = [*shown, rows[seat]]
        rows = shown
    return {"seats": rows, "seat_count": len(live.seats), "seats_taken": taken}


def _static(live: LiveGame) -> dict[str, Any]:
    """What never changes in a game's state: the rules, the tiles, the board's layout."""
    static = live.view_cache.get("static")
    if static is None:
        r = live.rules
        lay = r.board_layout
        static = live.view_cache["static"] = {
            "rules": {
                "name": r.name,
                "summary": r.describe(),
                "challenge_rule": r.challenge_rule,
                "rack_size": r.rack_size,
                "exchange_min_bag": r.exchange_min_bag,
                "clock": r.time_minutes is not None,
                "lexicon": r.lexicon,
            },
            "tiles": tile_info(r.tile_set),
            "layout": {"size": lay.size, "rows": list(lay.rows), "start": list(lay.start)},
        }
    return static


def _players(live: LiveGame, g: Game, over: bool) -> list[dict[str, Any]]:
    """The players' lines: score, tiles on the rack, clock, turn, rating (and the rack
    once the game is over)."""
    on_turn = g.player_on_turn
    players = []
    for i, name in enumerate(g.players):
        p: dict[str, Any] = {
            "seat": i,
            "name": name,
            "kind": live.seats[i].kind,
            "score": g.scores[i],
            "rack_count": len(g.rack(i)),
            "time_left": g.time_left(i),
            "on_turn": not over and i == on_turn,
        }
        acct = live.seats[i].account_id
        if acct is not None and acct in live.ratings:
            p["rating"] = round(live.ratings[acct])
        if over:
            p["rack"] = g.rack_text(i)
        players.append(p)
    return players


def _can(live: LiveGame, g: Game, seat: int | None, is_player: bool, over: bool) -> dict[str, bool]:
    """The actions the seat may take now."""
    r = live.rules
    pending = live.pending_player()
    final = g.awaiting_final_challenge
    my_turn = is_player and not over and seat == g.player_on_turn
    can_challenge = (
        is_player
        and not over
        and pending is not None
        and pending != seat
        and r.challenge_rule != "void"
        and g.awaiting_challenge
    )
    can_accept = is_player and final and pending is not None and pending != seat
    exchanges_left = r.max_exchanges_per_player is None or (
        is_player and seat is not None and g.exchanges_made[seat] < r.max_exchanges_per_player
    )
    return {
        "play": bool(my_turn and not final),
        "exchange": bool(my_turn and not final and g.bag_count >= r.exchange_min_bag and exchanges_left),
        "pass": bool(my_turn and not final),
        "challenge": bool(can_challenge),
        "accept": bool(can_accept),
        "resign": bool(is_player and not over),
        "abort": bool(is_player and not over and not live.actions and live.event_id is None),
        "rematch": bool(
            is_player and g.is_over and live.status != "aborted" and live.rematch is None and live.event_id is None
        ),
    }


def _result(g: Game, teams: bool) -> tuple[dict[str, Any], str]:
    """How a finished game ended, and the line that says so."""
    winners = g.winners()
    if teams:
        names = [" & ".join(g.players[i] for i in range(len(g.players)) if i % 2 == t) for t in winners]
    else:
        names = [g.players[w] for w in winners]
    result = {
        "reason": g.end_reason,
        "winners": winners,
        "winner_names": names,
        "scores": g.scores,
        "team_scores": g.team_scores() if teams else None,
        "phonies": [e.move.notation(g.tiles) for e in g.phonies if isinstance(e.move, Place)],
    }
    if len(names) == 1:
        return result, f"Game over: {names[0]} {'win' if teams else 'wins'}"
    return result, "Game over: a draw"


def state_for(live: LiveGame, seat: int | None) -> dict[str, Any]:
    """The state message for one seat (None: a spectator)."""
    r = live.rules
    ts = r.tile_set
    msg: dict[str, Any] = {
        "type": "state",
        "game_id": live.id,
        "version": live.state_version,
        "status": live.status,
        "you": seat,
        "rematch": live.rematch,
        "watchers": live.watchers,
        "rated": live.rated and live.rating_note is None,
        **({"rating_note": live.rating_note} if live.rated and live.rating_note else {}),
        **({"seed": live.seed} if live.seeded else {}),
        **({"event_id": live.event_id} if live.event_id else {}),
        **_static(live),
        **_seats(live, seat),
    }
    g = live.game
    if g is None:
        empty = Board.empty(r.board_layout, ts)
        msg.update(board=empty.rows(), rack=[], players=[], history=[], bag_count=ts.total)
        msg["status_text"] = "Waiting for players to join"
        if live.is_duplicate:
            from lexiko.web.duplicate_views import duplicate_state

            return duplicate_state(live, seat, msg)
        return msg
    aborted = live.status == "aborted"
    over = g.is_over or aborted
    on_turn = g.player_on_turn
    pending = live.pending_player()
    is_player = seat is not None and 0 <= seat < len(g.players)
    if is_player:
        assert seat is not None
        unseen: tuple[int, ...] = g.unseen(seat)
        rack = _faces(ts, g.rack(seat))
    else:
        unseen = tuple((Counter(ts.bag()) - Counter(g.board.played_tiles())).elements())
        rack = []
    final = g.awaiting_final_challenge
    rows = live.view_cache.get(("board", live.version))
    if rows is None:
        live.view_cache.pop(("board", live.version - 1), None)
        rows = live.view_cache[("board", live.version)] = g.board.rows()
    msg.update(
        board=rows,
        last_play=_last_play_squares(g),
        players=_players(live, g, over),
        rack=rack,
        unseen=_count_faces(ts, tuple(unseen)),
        unseen_count=len(unseen),
        bag_count=g.bag_count,
        turn=None if over else on_turn,
        history=_history(live, seat, over),
        banner=challenge_banner(g, live.names),
        scoreless_turns=g.scoreless_turns,
        pending_player=pending,
        final_challenge=final,
        can=_can(live, g, seat, is_player, over),
    )
    if aborted:
        msg["status_text"] = (
            "Game called off by the event's director" if live.event_id else "Game aborted before the first move"
        )
        msg["turn"] = None
    elif g.is_over:
        msg["result"], msg["status_text"] = _result(g, bool(r.teams))
    elif final and pending is not None:
        msg["status_text"] = f"{g.players[pending]}'s play ends the game unless it is challenged"
    else:
        msg["status_text"] = f"{g.players[on_turn]} to play"
    return msg


def gcg_for(live: LiveGame, seat: int | None) -> str:
    """The game as GCG text. While the game is on, other players' racks and exchanged
    tiles are left out (a player's own are kept)."""
    g = live.game
    if g is None:
        raise ValueError("the game has not started")
    rec = gcg.record_of(g)
    if g.is_over:
        return rec.to_text()
    events = []
    for ev, rev in zip(g.history, rec.events, strict=True):
        if ev.player != seat:
            rev = replace(rev, rack="")
            if rev.kind == "exchange":
                rev = replace(rev, tiles="", count=rev.count or len(rev.tiles))
        events.append(rev)
    finals = {p: t for p, t in rec.final_racks.items() if p == seat}
    rec = replace(rec, events=tuple(events), final_racks=finals, pragmas={**rec.pragmas, "incomplete": ""})
    return rec.to_text()


STATE_SECONDS = 0.1
"""How long the text of a state is reused while a clock runs (its ``time_left`` is then
at most this much behind): a game without a running clock changes its state only with
a new version."""


def _stamp(live: LiveGame) -> tuple[object, ...]:
    """What a game's state depends on outside its engine's moves: the version (and the
    last action itself, as an action taken back and another stored under its number
    gives the same version), the status, the watchers, the seats, the ratings, the
    rematch, and while a clock runs the tenth of a second."""
    running = live.status == "active" and (live.rules.time_minutes is not None or live.is_duplicate)
    return (
        live.state_version,
        live.actions[-1] if live.actions else None,
        live.status,
        live.watchers,
        live.rated,
        live.rating_note,
        live.rematch,
        live.view_cache.get("seats"),
        tuple(sorted(live.ratings.items())),
        int(time.monotonic() / STATE_SECONDS) if running else None,
    )


def state_text(live: LiveGame, seat: int | None) -> str:
    """The state message for one seat (None: a spectator) as JSON text, built and
    serialized once for each viewer and version of the game: every spectator gets the
    same text (a spectator's view is kept apart from each seat's, which holds its rack),
    and a client asking again for a state that has not changed costs nothing more.
    Duplicate games' players, each with their own move, get theirs built each time.

    >>> from lexiko.rules import Rules
    >>> from lexiko.web.live import Seat
    >>> live = LiveGame("g", Rules(), seed=3, seats=[Seat(0, "human", "Ann"), Seat(1, "human", "Bob")],
    ...                 lexicon=None)
    >>> live.start(100.0)
    >>> state_text(live, None) is state_text(live, None)
    True
    >>> '"rack":[]' in state_text(live, None), '"rack":[]' in state_text(live, 0)
    (True, False)
    """
    if seat is not None and (not 0 <= seat < len(live.seats) or live.is_duplicate):
        return to_json(state_for(live, seat))
    stamp = _stamp(live)
    cached = live.view_cache.get(("state", seat))
    if cached is not None and cached[0] == stamp:
        return cached[1]  # type: ignore[no-any-return]
    text = to_json(state_for(live, seat))
    live.view_cache[("state", seat)] = (_stamp(live), text)
    return text
