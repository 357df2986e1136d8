"""The review by simulation in the web app: computed in the background with its
progress, stored so that the second view reads it, for a finished game and for a GCG
record sent to be reviewed; refusals. Small seeded depths, play-outs in the review's
own thread (``review_jobs=0``)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from webharness import Server, board_from_rows, move_message, new_game

import lexiko.web.review as web_review
from lexiko import movegen
from lexiko.lexicon import Lexicon
from lexiko.review import ReviewDepth
from lexiko.rules import preset
from lexiko.web.review import MAX_RECORD
from lexiko.web.store import Store

DEPTH = ReviewDepth(candidates=2, iterations=4, seed=1)


@pytest.fixture
def app_options() -> dict[str, Any]:
    return {"allow_seeds": True, "review_depth": DEPTH, "review_jobs": 0}


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The players of every game the server reviews (each review computed is counted)."""
    seen: list[str] = []
    real = web_review.review_game

    def counted(game: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(",".join(game.players))
        return real(game, *args, **kwargs)

    monkeypatch.setattr(web_review, "review_game", counted)
    return seen


def play_short_game(server: Server, lex: Lexicon) -> str:
    """The two players each play their best move, then pass three times: over after
    six scoreless turns. The game's id."""
    rules = preset("tournament")
    gid, tokens = new_game(server.http, seed=11)
    conns = [server.connect(gid, t) for t in tokens]
    for k in range(8):
        version = max(c.state.get("version", -1) for c in conns)
        for c in conns:
            c.wait_version(version)
        st = conns[conns[0].state["turn"]].state
        seat = st["turn"]
        if k < 2:
            board = board_from_rows(st["board"], rules)
            rack = tuple(rules.tile_set.parse_token(f) for f in st["rack"])
            move = movegen.best_move(board, rack, lex, rules, bag_count=st["bag_count"]).move
            assert conns[seat].act(move_message(move, rules.tile_set))["type"] == "state"
        else:
            assert conns[seat].act({"type": "pass"})["type"] == "state"
    assert conns[0].wait_state(lambda s: s["status"] == "over")["result"]["reason"] == "scoreless"
    return gid


def until_done(server: Server, path: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        r = server.http.get(path)
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        seen.append(answer)
        if answer["status"] == "done":
            return answer
        time.sleep(0.05)
    raise AssertionError(f"{path}: not done in 60 s: {seen[-1]}")


def test_a_finished_game_is_reviewed_once_and_stored(server: Server, twl06: Lexicon, computed: list[str]) -> None:
    gid = play_short_game(server, twl06)
    seen: list[dict[str, Any]] = []
    review = until_done(server, f"/api/games/{gid}/review", seen)
    # the first answers say how far it has got, in turns of the 8
    assert seen[0]["status"] in ("queued", "running", "done")
    assert all(a["total"] in (None, 8) and 0 <= a["done"] <= 8 for a in seen if a["status"] == "running")
    assert computed == ["Ann,Bob"]
    turns = review["turns"]
    assert [t["turn"] for t in turns] == list(range(1, 9))
    assert [t["name"] for t in turns] == ["Bob", "Ann"] * 4  # the draw for first play: Bob
    assert [t["played"]["move"] for t in turns[2:]] == ["-"] * 6
    assert all(t["method"] == "simulation" and t["played"]["iterations"] == 4 for t in turns)
    assert turns[0]["played"]["rank"] is not None and len(turns[0]["best"]) in (2, 3)
    assert turns[-1]["scores"] == review["scores"] and turns[-1]["spread"] == review["scores"][0] - review["scores"][1]
    assert all(
        0 <= t["win"] <= 100 and t["verdict"] in ("best", "good", "inaccuracy", "mistake", "blunder") for t in turns
    )
    assert [s["name"] for s in review["summaries"]] == ["Ann", "Bob"] and review["summaries"][0]["moves"] == 4
    assert review["depth"] == {
        "candidates": 2,
        "iterations": 4,
        "plies": 2,
        "finish": 7,
        "endgame_time": 10.0,
        "seed": 1,
    }
    stored = Store(server.db_url).load_review(gid)
    assert stored is not None and stored[0] is None and json.loads(stored[1] or "") == review
    # the second view reads what was stored: nothing is computed again
    again = server.http.get(f"/api/games/{gid}/review")
    assert again.json() == review and computed == ["Ann,Bob"]


def test_a_record_sent_is_reviewed_once(server: Server, twl06: Lexicon, computed: list[str]) -> None:
    gid = play_short_game(server, twl06)
    text = server.http.get(f"/api/games/{gid}/gcg").text
    r = server.http.post("/api/reviews", json={"gcg": text})
    assert r.status_code == 200, r.text
    sent = r.json()
    assert sent["id"].startswith("gcg-") and len(sent["id"]) == 36 and sent["path"] == f"/review/{sent['id']}"
    review = until_done(server, f"/api/reviews/{sent['id']}", [])
    assert [t["played"]["move"] for t in review["turns"][2:]] == ["-"] * 6 and review["lexicon"] == "TWL06"
    assert computed == ["Ann,Bob"]
    # the same record again: the same review, read, not computed
    r = server.http.post("/api/reviews", json={"gcg": text})
    assert r.json() == {"id": sent["id"], "path": sent["path"], "review": review} and computed == ["Ann,Bob"]
    assert server.http.get("/review/" + sent["id"]).headers["content-type"].startswith("text/html")


@pytest.mark.parametrize(
    ("gcg", "status", "message"),
    [
        ("#player1 A A\n#player2 B B\n>A: QZ 8D QZ +99 99\n", 400, "line 3:"),
        ("#player1 A A\n#player2 B B\n", 400, "the record has no move to review"),
        ("#" * (MAX_RECORD + 1), 422, "invalid request: gcg: String should have at most 64000 characters"),
    ],
)
def test_a_bad_record_is_refused(server: Server, gcg: str, status: int, message: str) -> None:
    r = server.http.post("/api/reviews", json={"gcg": gcg})
    assert r.status_code == status and r.json()["error"].startswith(message), r.text


def test_an_unknown_review(server: Server) -> None:
    for key in ("gcg-0123", "nope"):
        r = server.http.get(f"/api/reviews/{key}")
        assert (r.status_code, r.json()) == (404, {"error": "no such review"})
