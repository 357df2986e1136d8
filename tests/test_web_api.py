"""The web app over real HTTP and WebSockets (uvicorn in a thread, SQLite, and
PostgreSQL when it is installed): creating and joining games, playing, previews,
challenges, exchanges, blanks, refusals, what each client is sent, GCG, review,
clocks and bots."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webharness import (
    Connection,
    Server,
    board_from_rows,
    find_phony,
    move_message,
    new_game,
)

from lexiko import gcg, movegen
from lexiko.lexicon import Lexicon
from lexiko.move import Place
from lexiko.review import ReviewDepth
from lexiko.rules import Rules, preset
from lexiko.web.limits import Limits


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("TWL06")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path, pg_url: str | None) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    if pg_url is None:
        pytest.skip(
            "PostgreSQL is not installed here (apt-get install postgresql) and LEXIKO_TEST_POSTGRES_URL is unset"
        )
    return pg_url


@pytest.fixture
def app_options() -> dict[str, Any]:
    # the games of these tests are dealt from a seed, and played as fast as a program
    # can: more moves a second than a person's budget (`lexiko.web.limits.MESSAGE_COSTS`)
    # (and their reviews are small: 2 moves simulated 4 times a turn, in the review's thread)
    return {
        "allow_seeds": True,
        "limits": Limits(messages="1000/second"),
        "review_depth": ReviewDepth(candidates=2, iterations=4),
        "review_jobs": 0,
    }


def rules_of(name: str = "tournament", **kw: Any) -> Rules:
    r = preset(name)
    return r.replace(**kw) if kw else r


def codes(state: dict[str, Any], rules: Rules) -> tuple[int, ...]:
    return tuple(rules.tile_set.parse_token(f) for f in state["rack"])


def best(state: dict[str, Any], lex: Lexicon, rules: Rules) -> movegen.Candidate:
    board = board_from_rows(state["board"], rules)
    return movegen.best_move(board, codes(state, rules), lex, rules, bag_count=state["bag_count"])


def on_turn(conns: list[Connection]) -> tuple[Connection, Connection]:
    """(player on turn, the other) after both have the latest state."""
    v = max(c.state["version"] for c in conns if c.state)
    for c in conns:
        c.wait_version(v)
    t = conns[0].state["turn"]
    return conns[t], conns[1 - t]


# -- creating and joining ---------------------------------------------------------------


def test_options_offer_presets_rules_and_bots(server: Server) -> None:
    data = server.http.get("/api/options").json()
    assert "tournament" in data["presets"] and data["presets"]["duplicate"]["max_players"] == 2000
    assert data["presets"]["tournament"]["rules"]["end_rack_rule"] == "double"
    names = {f["name"] for f in data["schema"]}
    assert {"challenge_rule", "time_minutes", "rack_size", "lexicon"} <= names
    assert all(f["help"] for f in data["schema"])  # every option explains itself
    most = {f["name"]: f["max"] for f in data["schema"]}  # the form's bounds, as the server checks them
    assert (most["time_minutes"], most["bingo_bonus"], most["rack_size"], most["challenge_rule"]) == (
        1440,
        1000,
        15,
        None,
    )
    only_duplicate = {f["name"] for f in data["schema"] if f["for"] == "duplicate"}
    assert only_duplicate == {n for n in names if n.startswith("duplicate_")}  # the form shows them for duplicate
    assert "greedy" in data["bots"]
    assert data["lexicons"] == ["TWL06", "SOWPODS"]
    # casual play is the default: a word not in the lexicon is refused, not challenged off
    assert data["default_preset"] == "casual" and data["presets"]["casual"]["rules"]["challenge_rule"] == "void"
    # a language is offered only with its own word list, never with an English one
    assert "spanish" not in data["presets"] and "french" not in data["presets"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"preset": "nope", "seats": [{"name": "A"}, {"kind": "greedy"}]}, 400, "unknown rules preset 'nope'"),
        ({"seats": [{"kind": "greedy"}, {"kind": "greedy"}]}, 400, "at least one person"),
        ({"seats": [{"name": "A"}, {"kind": "chess"}]}, 400, "unknown computer player 'chess'"),
        (
            {"options": {"rack_size": "x"}, "seats": [{"name": "A"}, {"kind": "greedy"}]},
            400,
            "rack_size must be a whole number",
        ),
        ({"options": {"colour": 1}, "seats": [{"name": "A"}, {"kind": "greedy"}]}, 400, "unknown rule option 'colour'"),
        (
            {"options": {"lexicon": "/etc/passwd"}, "seats": [{"name": "A"}, {"kind": "greedy"}]},
            400,
            "lexicon must be one of",
        ),
        (
            {"preset": "teams", "seats": [{"name": "A"}, {"kind": "greedy"}]},
            400,
            "teams rules need exactly 4 players, not 2",
        ),
        ({"seats": [{"name": "A"}, {"kind": "human", "name": "a"}]}, 400, "same name"),
        ({"seats": [{"name": ""}, {"kind": "greedy"}]}, 400, "give your name"),
        ({"seats": [{"name": "A"}, {"kind": "greedy"}], "seed": -1}, 400, "seed"),
        ({"seats": "two"}, 422, "invalid request: seats"),
        (
            {"options": {"time_minutes": 1e308}, "seats": [{"name": "A"}, {"kind": "greedy"}]},
            400,
            "time_minutes must be from 0 to 1440, not 1e+308",
        ),
        (
            {"options": {"time_increment": -5}, "seats": [{"name": "A"}, {"kind": "greedy"}]},
            400,
            "time_increment must be from 0 to 3600, not -5",
        ),
        (
            {"options": {"bingo_bonus": -50}, "seats": [{"name": "A"}, {"kind": "greedy"}]},
            400,
            "bingo_bonus must be from 0 to 1000, not -50",
        ),
    ],
)
def test_create_game_refusals_are_clear(server: Server, body: dict[str, Any], status: int, message: str) -> None:
    r = server.http.post("/api/games", json=body)
    assert r.status_code == status, r.text
    assert message in r.json()["error"]
    assert "Traceback" not in r.text


def test_invitation_join_and_start(server: Server) -> None:
    r = server.http.post("/api/games", json={"seats": [{"name": "Ann"}, {"kind": "human"}, {"kind": "greedy"}]})
    d = r.json()
    gid, invite = d["game_id"], d["invites"][0]
    assert invite["seat"] == 1 and invite["path"].startswith(f"/join/{gid}/")
    key = invite["path"].rsplit("/", 1)[1]
    info = server.http.get(f"/api/games/{gid}").json()
    assert info["status"] == "waiting" and "invites" not in info  # invitations only for players
    mine = server.http.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {d['token']}"}).json()
    assert mine["invites"][0]["path"] == invite["path"]
    ann = server.connect(gid, d["token"])
    assert ann.state["status"] == "waiting" and ann.state["rack"] == []
    assert server.http.post(f"/api/games/{gid}/join", json={"invite": "wrong", "name": "Bob"}).status_code == 400
    assert (
        "same name" in server.http.post(f"/api/games/{gid}/join", json={"invite": key, "name": "ann"}).json()["error"]
    )
    j = server.http.post(f"/api/games/{gid}/join", json={"invite": key, "name": "Bob"})
    assert j.status_code == 200 and j.json()["seat"] == 1
    again = server.http.post(f"/api/games/{gid}/join", json={"invite": key, "name": "Eve"})
    assert "has been used" in again.json()["error"]
    st = ann.wait_state(lambda s: s["status"] == "active")
    assert [p["name"] for p in st["players"]] == ["Ann", "Bob", "Computer"]
    assert len(st["rack"]) == 7
    assert server.http.get("/api/games/nope").status_code == 404


def test_pages_and_static_files_are_served(server: Server) -> None:
    for path in ("/", "/game/abc", "/join/abc/def", "/static/game.js", "/static/style.css", "/favicon.ico"):
        r = server.http.get(path)
        assert r.status_code == 200, path
    page = server.http.get("/game/abc")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "/static/game.js" in page.text


# -- playing ----------------------------------------------------------------------------------


def test_two_players_play_preview_challenge_exchange(db_url: str, lex: Lexicon) -> None:
    srv = Server(db_url, allow_seeds=True)
    try:
        rules = rules_of()
        gid, tokens = new_game(srv.http, seed=11)
        a, b = srv.connect(gid, tokens[0]), srv.connect(gid, tokens[1])
        p, q = on_turn([a, b])
        # the player not on turn is refused, and nothing changes
        err = q.act({"type": "pass"})
        assert err["type"] == "error" and err["message"].startswith("it is not your turn")
        # preview then play the best move, as tiles dropped on squares
        cand = best(p.state, lex, rules)
        assert isinstance(cand.move, Place)
        msg = move_message(cand.move, rules.tile_set)
        p.send({"type": "preview", "id": 5, "tiles": msg["tiles"]})
        pv = p.recv("preview")
        assert pv["ok"] and pv["id"] == 5 and pv["score"] == cand.score
        st = p.act(msg)
        assert st["type"] == "state" and st["players"][p.seat]["score"] == cand.score
        q.wait_version(st["version"])
        assert q.state["board"] == st["board"]
        assert q.state["can"]["challenge"] and not p.state["can"]["challenge"]
        # q challenges a valid play: under the double rule q loses the turn
        st = q.act({"type": "challenge"})
        assert st["history"][-1]["kind"] == "lost-turn" and st["turn"] == p.seat
        # p exchanges
        p.wait_version(st["version"])
        rack = p.state["rack"]
        st = p.act({"type": "exchange", "tiles": rack[:3]})
        assert st["type"] == "state" and st["history"][-1]["kind"] == "exchange"
        q.wait_version(st["version"])
        # q plays a phony and p challenges it off the board
        board = board_from_rows(q.state["board"], rules)
        phony = find_phony(board, codes(q.state, rules), lex, rules)
        assert phony is not None
        before = q.state["board"]
        st = q.act({"type": "play", "move": phony.notation(rules.tile_set)})
        assert st["type"] == "state" and st["board"] != before
        p.wait_version(st["version"])
        st = p.act({"type": "challenge"})
        assert st["history"][-1]["kind"] == "withdrawn" and st["board"] == before
        assert st["turn"] == p.seat
        for c in (a, b):
            c.wait_version(st["version"])
        assert a.state["board"] == b.state["board"]
        assert [x["score"] for x in a.state["players"]] == [x["score"] for x in b.state["players"]]
    finally:
        srv.close()


def test_blank_needs_a_letter_and_scores_zero(server: Server, lex: Lexicon) -> None:
    rules = rules_of()
    # find a seed whose first player holds a blank
    from lexiko.game import Game

    seed = next(
        s for s in range(500) if 0 in (g := Game(["Ann", "Bob"], rules, seed=s, lexicon=None)).rack(g.player_on_turn)
    )
    gid, tokens = new_game(server.http, seed=seed)
    a, b = server.connect(gid, tokens[0]), server.connect(gid, tokens[1])
    p, _ = on_turn([a, b])
    assert "?" in p.state["rack"]
    sr = sc = 7
    # a blank with no letter is refused with a message
    letter = next(f for f in p.state["rack"] if f != "?")
    p.send(
        {
            "type": "preview",
            "id": 1,
            "tiles": [
                {"row": sr, "col": sc, "letter": "", "blank": True},
                {"row": sr, "col": sc + 1, "letter": letter},
            ],
        }
    )
    assert "choose the letter the blank stands for" in p.recv("preview")["error"]
    cands = movegen.generate(
        board_from_rows(p.state["board"], rules), codes(p.state, rules), lex, rules, placements_only=True
    )
    with_blank = next(c for c in cands if isinstance(c.move, Place) and any(t & 0x40 for t in c.move.tiles))
    msg = move_message(with_blank.move, rules.tile_set)
    assert any(t["blank"] for t in msg["tiles"])
    st = p.act(msg)
    assert st["type"] == "state", st
    assert st["players"][p.seat]["score"] == with_blank.score
    faces = [f for row in st["board"] for f in row if f]
    assert any(f.islower() for f in faces)  # the blank shows as a lower-case letter


def test_refusals_from_spectators_strangers_and_bad_messages(server: Server) -> None:
    gid, tokens = new_game(server.http)
    watcher = server.connect(gid, None)
    assert watcher.seat is None and watcher.state["rack"] == []
    err = watcher.act({"type": "pass"})
    assert err["type"] == "error" and "only its players can act" in err["message"]
    stranger = Connection(server.ws_url, gid, "not-a-token")
    server.conns.append(stranger)
    assert stranger.seat is None
    assert any(m["type"] == "error" and "you are watching" in m["message"] for m in stranger.messages)
    a = server.connect(gid, tokens[0])
    a.send({"type": "dance"})
    assert "unknown message type" in a.recv("error")["message"]
    a.ws.send("{not json")
    assert "JSON" in a.recv("error")["message"]
    on = a.state["turn"]
    me = a if on == 0 else server.connect(gid, tokens[on])
    err = me.act({"type": "play", "move": "8A QQ"})
    assert err["type"] == "error" and "Traceback" not in err["message"]
    err = me.act({"type": "play", "tiles": [{"row": 0, "col": 0, "letter": "A"}, {"row": 5, "col": 5, "letter": "B"}]})
    assert err["message"] == "tiles are not in one line"
    err = me.act({"type": "challenge"})
    assert err["message"] == "there is no play to challenge"
    err = me.act({"type": "exchange", "tiles": []})
    assert err["message"] == "choose the tiles to exchange"
    assert me.state["version"] == 0
    # an unknown game over the WebSocket
    from websockets.sync.client import connect

    with connect(f"{server.ws_url}/ws/nope") as ws:
        msg = json.loads(ws.recv(timeout=5))
        assert msg == {"type": "error", "message": "no such game", "fatal": True}


def test_void_rule_refuses_phonies_and_preview_names_them(server: Server, lex: Lexicon) -> None:
    rules = rules_of(challenge_rule="void")
    gid, tokens = new_game(server.http, options={"challenge_rule": "void"})
    a, b = server.connect(gid, tokens[0]), server.connect(gid, tokens[1])
    p, _ = on_turn([a, b])
    phony = find_phony(board_from_rows(p.state["board"], rules), codes(p.state, rules), lex, rules)
    assert phony is not None
    msg = move_message(phony, rules.tile_set)
    p.send({"type": "preview", "id": 9, **{"tiles": msg["tiles"]}})
    pv = p.recv("preview")
    assert pv["ok"] and pv["invalid"]
    err = p.act(msg)
    assert err["type"] == "error" and "not in the lexicon" in err["message"]


# -- what each client is sent ------------------------------------------------------------------


def _walk(x: Any) -> Iterator[Any]:
    yield x
    if isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from _walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from _walk(v)


def test_clients_are_never_sent_other_racks_or_the_bag(server: Server, lex: Lexicon) -> None:
    """Play a game with plays, an exchange and a challenge, then look at every message
    each client received: no other player's rack, no exchanged tiles of others, no bag
    order, no seed, no token."""
    rules = rules_of()
    gid, tokens = new_game(server.http, seed=None)  # a secret seed: never sent
    a, b = server.connect(gid, tokens[0]), server.connect(gid, tokens[1])
    watcher = server.connect(gid, None)
    conns = [a, b]
    racks_seen: dict[int, list[list[str]]] = {0: [], 1: []}
    for step in range(8):
        p, q = on_turn(conns)
        assert p.seat is not None
        racks_seen[p.seat].append(list(p.state["rack"]))
        if step == 2:
            st = p.act({"type": "exchange", "tiles": p.state["rack"][:4]})
        elif step == 4:
            phony = find_phony(board_from_rows(p.state["board"], rules), codes(p.state, rules), lex, rules)
            assert phony is not None
            st = p.act({"type": "play", "move": phony.notation(rules.tile_set)})
            q.wait_version(st["version"])
            st = q.act({"type": "challenge"})
        else:
            st = p.act(move_message(best(p.state, lex, rules).move, rules.tile_set))
        assert st["type"] == "state", st
    for c in (*conns, watcher):
        c.wait_version(conns[0].state["version"])
    for c in (*conns, watcher):
        other = None if c.seat is None else 1 - c.seat
        for raw, msg in zip(c.raw, c.messages, strict=True):
            for token in tokens:
                assert token is not None and token not in raw
            keys = {k for k in _walk(msg) if isinstance(k, str)}
            assert not {"seed", "bag", "racks", "token", "token_hash", "invite"} & set(k for m in [msg] for k in m)
            if msg.get("type") != "state" or msg["status"] == "waiting":
                continue
            assert "seed" not in keys
            for p in msg["players"]:
                assert "rack" not in p  # racks of anyone are not in the player list while the game is on
            for h in msg["history"]:
                if h["player"] != c.seat:
                    assert "rack" not in h
                    if h["kind"] == "exchange":
                        assert h["move"] == f"-{h['count']}"
            if c.seat is None:
                assert msg["rack"] == []
            # unseen tiles: exactly the bag and the other rack, as counts
            total = sum(msg["unseen"].values())
            assert total == msg["unseen_count"]
            if other is not None:
                assert total == msg["bag_count"] + msg["players"][other]["rack_count"]
    # and the opponent's actual racks never appear as a list in what a player received
    for c in conns:
        assert c.seat is not None
        other = 1 - c.seat
        theirs = {json.dumps(r) for r in racks_seen[other]} | {json.dumps(sorted(r)) for r in racks_seen[other]}
        for msg in c.messages:
            for x in _walk(msg):
                if isinstance(x, list) and x and all(isinstance(y, str) for y in x):
                    assert json.dumps(x) not in theirs or x == msg.get("rack")


def test_gcg_download_hides_other_racks_until_the_end(server: Server, lex: Lexicon) -> None:
    rules = rules_of()
    gid, tokens = new_game(server.http, seed=5)
    a, b = server.connect(gid, tokens[0]), server.connect(gid, tokens[1])
    for _ in range(3):
        p, _q = on_turn([a, b])
        p.act(move_message(best(p.state, lex, rules).move, rules.tile_set))
    for seat, tok in enumerate(tokens):
        text = server.http.get(f"/api/games/{gid}/gcg", headers={"Authorization": f"Bearer {tok}"}).text
        lines = [ln for ln in text.splitlines() if ln.startswith(">")]
        name = ["Ann", "Bob"][seat]
        other = ["Ann", "Bob"][1 - seat]
        for ln in lines:
            parts = ln.split()
            if parts[0] == f">{other}:":  # no rack: the move comes first
                assert re.fullmatch(r"\d+[A-O]|[A-O]\d+|-\d*", parts[1]), ln
        assert f"#rack{seat + 1}" in text and f"#rack{2 - seat}" not in text
        assert "#incomplete" in text
        # own racks are there
        assert any(ln.startswith(f">{name}: ") and len(ln.split()) == 6 for ln in lines)
    public = server.http.get(f"/api/games/{gid}/gcg")
    assert public.headers["content-disposition"].startswith("attachment")
    assert "#rack" not in public.text


# -- a whole game ---------------------------------------------------------------------------------


def test_whole_game_against_a_bot_then_gcg_and_review(server: Server, lex: Lexicon) -> None:
    rules = rules_of()
    gid, tokens = new_game(server.http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "greedy"}], seed=21)
    ann = server.connect(gid, tokens[0])
    for _ in range(60):
        st = ann.wait_state(
            lambda s: s["status"] == "over" or (s["turn"] == 0 and not s["can"]["accept"]) or s["can"]["accept"],
            timeout=30,
        )
        if st["status"] == "over":
            break
        if st["can"]["accept"]:
            ann.act({"type": "accept"})
            continue
        res = ann.act(move_message(best(st, lex, rules).move, rules.tile_set))
        assert res["type"] == "state", res
    st = ann.wait_state(lambda s: s["status"] == "over")
    assert st["result"]["reason"] == "out", st["history"]
    assert len(st["history"]) > 10
    assert all("rack" in p for p in st["players"])
    text = server.http.get(f"/api/games/{gid}/gcg").text
    replayed = gcg.parse(text).replay()
    assert replayed.scores == [p["score"] for p in st["players"]]
    assert replayed.is_over
    review = server.http.get(f"/api/games/{gid}/review").json()
    for _ in range(1200):  # computed in the background: asked again until it is done
        if review["status"] == "done":
            break
        time.sleep(0.05)
        review = server.http.get(f"/api/games/{gid}/review").json()
    moves = [h for h in st["history"] if h["kind"] in ("play", "exchange", "pass")]
    assert len(review["turns"]) == len(moves)
    totals = [0, 0]
    for t in review["turns"]:  # the chart's data: the spread after each turn and the chance it gives
        totals[t["player"]] += t["played"]["score"]
        if t is review["turns"][-1]:  # the last play went out: the racks' values follow
            totals = list(review["scores"])
        assert t["scores"] == totals and t["spread"] == totals[0] - totals[1]
        assert 0 <= t["win"] <= 100
    for t in review["turns"]:
        assert t["best"] and t["played"]["rank"] is not None
        assert t["best"][0]["value"] >= t["played"]["value"] and t["value_lost"] >= 0 and t["win_lost"] >= 0
    assert review["turns"][-1]["method"] == "endgame" and review["turns"][-1]["win"] in (0, 50, 100)
    assert [s["moves"] for s in review["summaries"]] == [
        sum(1 for t in review["turns"] if t["player"] == p) for p in (0, 1)
    ]
    again = server.http.get(f"/api/games/{gid}/review").json()  # stored, not recomputed
    assert again == review
    # the play that went out waited to be accepted (or challenged) before the game ended
    from lexiko.web.store import Store

    stored = Store(server.db_url).load_game(gid)
    assert stored is not None and stored.status == "over"
    assert stored.actions[-1].text in ("accept", "challenge")


def test_three_players_with_two_kinds_of_bot(server: Server, lex: Lexicon) -> None:
    bots = server.http.get("/api/options").json()["bots"]
    assert {"greedy", "random"} <= set(bots)
    rules = rules_of("tournament", challenge_rule="void")
    gid, tokens = new_game(
        server.http,
        options={"challenge_rule": "void"},
        seed=2,
        seats=[{"kind": "human", "name": "Ann"}, {"kind": "random"}, {"kind": "greedy"}],
    )
    ann = server.connect(gid, tokens[0])
    assert [p["name"] for p in ann.state["players"]] == ["Ann", "Computer 2", "Computer 3"]
    for _ in range(60):
        st = ann.wait_state(lambda s: s["status"] == "over" or s["turn"] == 0, timeout=30)
        if st["status"] == "over":
            break
        assert ann.act(move_message(best(st, lex, rules).move, rules.tile_set))["type"] == "state"
    st = ann.wait_state(lambda s: s["status"] == "over")
    assert {h["player"] for h in st["history"]} == {0, 1, 2}


def test_review_waits_for_the_end(server: Server) -> None:
    gid, _ = new_game(server.http)
    r = server.http.get(f"/api/games/{gid}/review")
    assert r.status_code == 400 and "once the game is over" in r.json()["error"]


def test_bot_challenges_a_phony(server: Server, lex: Lexicon) -> None:
    rules = rules_of()
    gid, tokens = new_game(server.http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "greedy"}], seed=4)
    ann = server.connect(gid, tokens[0])
    st = ann.wait_state(lambda s: s["turn"] == 0)
    phony = find_phony(board_from_rows(st["board"], rules), codes(st, rules), lex, rules)
    assert phony is not None
    ann.act({"type": "play", "move": phony.notation(rules.tile_set)})
    st = ann.wait_state(lambda s: any(h["kind"] == "withdrawn" for h in s["history"]))
    withdrawn = [h for h in st["history"] if h["kind"] == "withdrawn"][0]
    assert withdrawn["player"] == 0
    # the result names the words the lexicon refused
    bad = [w for w in withdrawn["words"] if w not in lex] if "words" in withdrawn else withdrawn["invalid"]
    assert withdrawn["invalid"] == bad and bad
    verdict = "is not a word" if len(bad) == 1 else "are not words"
    assert withdrawn["text"] == f"Ann's play is withdrawn: {', '.join(bad)} {verdict}"


def test_flag_fall_ends_the_game_on_time(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, clock_interval=0.05)
    try:
        opts = {"time_minutes": 0.005, "max_overtime": 0.005}
        gid, tokens = new_game(srv.http, options=opts)
        a = srv.connect(gid, tokens[0])
        assert a.state["players"][0]["time_left"] == pytest.approx(0.3, abs=0.2)
        st = a.wait_state(lambda s: s["status"] == "over", timeout=10)
        assert st["result"]["reason"] == "time"
        kinds = [h["kind"] for h in st["history"]]
        assert kinds == ["time-penalty"]  # the flag fell on the first turn: no move was made
        loser = st["history"][0]["player"]
        assert st["result"]["winners"] == [1 - loser]
    finally:
        srv.close()


@pytest.mark.slow
def test_a_timed_game_let_go_from_memory_is_swept_back_and_its_flag_falls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one process, a timed game nobody watches is let go when idle; the sweep
    loads it back so that its clock runs (before: the flag fell only when someone
    opened the game)."""
    from lexiko.web.services import clocks
    from lexiko.web.store import Store

    monkeypatch.setattr(clocks, "SWEEP_SECONDS", 0.1)
    srv = Server(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, clock_interval=0.05, idle_seconds=0.1)
    store = Store(srv.db_url)
    try:
        gid, _ = new_game(srv.http, options={"time_minutes": 0.01, "max_overtime": 0.005})  # 0.6 s, then 0.3 s
        stored = store.load_game(gid)
        assert stored is not None and (stored.status, stored.actions) == ("active", [])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and stored.status == "active":
            time.sleep(0.1)
            stored = store.load_game(gid)
            assert stored is not None
        assert stored.status == "over"
        assert [a.text for a in stored.actions] == ["flag"]
    finally:
        store.close()
        srv.close()


# -- persistence --------------------------------------------------------------------------------------


def _comparable(state: dict[str, Any]) -> dict[str, Any]:
    out = dict(state)
    out["players"] = [{k: v for k, v in p.items() if k != "time_left"} for p in state["players"]]
    return out


def test_stop_and_restart_rebuilds_every_game_exactly(tmp_path: Path, lex: Lexicon) -> None:
    """The same database opened by a new server gives the same game, down to the
    tiles each player draws next."""
    rules = rules_of()
    url = f"sqlite:///{tmp_path / 'g.db'}"
    srv = Server(url, allow_seeds=True)
    gid, tokens = new_game(srv.http, seed=99, options={"time_minutes": None})  # untimed: no downtime to count
    a, b = srv.connect(gid, tokens[0]), srv.connect(gid, tokens[1])
    for step in range(5):
        p, _q = on_turn([a, b])
        msg = (
            {"type": "exchange", "tiles": p.state["rack"][:2]}
            if step == 1
            else move_message(best(p.state, lex, rules).move, rules.tile_set)
        )
        assert p.act(msg)["type"] == "state"
    on_turn([a, b])
    before = [_comparable(a.state), _comparable(b.state)]
    srv.close()
    srv = Server(url, allow_seeds=True)
    try:
        a2, b2 = srv.connect(gid, tokens[0]), srv.connect(gid, tokens[1])
        assert [_comparable(a2.state), _comparable(b2.state)] == before
        # the bag order survived: replaying the stored actions with the seed gives the same next draws
        from lexiko.game import Game
        from lexiko.web.store import Store

        stored = Store(url).load_game(gid)
        assert stored is not None
        mirror = Game(["Ann", "Bob"], rules, seed=99, lexicon=lex)
        for act in stored.actions:
            mirror.apply(act.text, player=act.seat)
        p, _q = on_turn([a2, b2])
        cand = best(p.state, lex, rules)
        st = p.act(move_message(cand.move, rules.tile_set))
        mirror.apply(cand.move, player=p.seat)
        assert Counter(st["rack"]) == Counter(rules.tile_set.face(t) for t in mirror.rack(p.seat))
        assert st["bag_count"] == mirror.bag_count
    finally:
        srv.close()


def test_moves_by_text_are_stored_as_gcg_notation(server: Server, lex: Lexicon) -> None:
    rules = rules_of()
    gid, tokens = new_game(server.http, seed=8)
    a, b = server.connect(gid, tokens[0]), server.connect(gid, tokens[1])
    p, _ = on_turn([a, b])
    cand = best(p.state, lex, rules)
    text = cand.move.notation(rules.tile_set)
    st = p.act({"type": "play", "move": text})
    assert st["history"][0]["move"] == text  # nothing played through on the first move
    from lexiko.web.store import Store

    stored = Store(server.db_url).load_game(gid)
    assert stored is not None and [(x.seq, x.seat, x.text) for x in stored.actions] == [(0, p.seat, text)]


def test_idle_games_are_let_go_and_come_back_from_the_database(tmp_path: Path, lex: Lexicon) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'g.db'}", allow_seeds=True, clock_interval=0.05, idle_seconds=0.1)
    try:
        rules = rules_of()
        gid, tokens = new_game(srv.http, seed=17)
        a, b = srv.connect(gid, tokens[0]), srv.connect(gid, tokens[1])
        p, _ = on_turn([a, b])
        p.act(move_message(best(p.state, lex, rules).move, rules.tile_set))
        on_turn([a, b])
        before = [_comparable(a.state), _comparable(b.state)]
        a.close()
        b.close()
        time.sleep(0.5)
        app: Any = srv.ts.server.config.app
        assert gid not in app.state.service._games
        a, b = srv.connect(gid, tokens[0]), srv.connect(gid, tokens[1])
        assert [_comparable(a.state), _comparable(b.state)] == before
    finally:
        srv.close()


@pytest.mark.slow
def test_a_clabbers_game_with_a_bot_plays_to_the_end(server: Server, lex: Lexicon) -> None:
    """Clabbers under double challenge: the bot neither gets stuck nor challenges valid
    anagrams (it once did, and lost every turn)."""
    rules = rules_of("clabbers")
    gid, tokens = new_game(
        server.http, preset="clabbers", seats=[{"kind": "human", "name": "Ann"}, {"kind": "static"}], seed=5
    )
    ann = server.connect(gid, tokens[0])
    for _ in range(80):
        st = ann.wait_state(
            lambda s: s["status"] == "over" or (s["turn"] == 0 and not s["can"]["accept"]) or s["can"]["accept"],
            timeout=30,
        )
        if st["status"] == "over":
            break
        if st["can"]["accept"]:
            ann.act({"type": "accept"})
            continue
        res = ann.act(move_message(best(st, lex, rules).move, rules.tile_set))
        assert res["type"] == "state", res
    st = ann.wait_state(lambda s: s["status"] == "over")
    kinds = [h["kind"] for h in st["history"]]
    assert st["result"]["reason"] == "out" and "lost-turn" not in kinds and "withdrawn" not in kinds
    assert {h["player"] for h in st["history"] if h["kind"] == "play"} == {0, 1}
