"""The web app's documented shapes (`lexiko.web.models`): every JSON route of the API
documents a response in the OpenAPI schema, what the routes answer and what the socket
sends fits the models with no key left unnamed, and the messages a client sends parse."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from webharness import Server, check_answers, check_messages, new_game

from lexiko.review import ReviewDepth
from lexiko.web import models
from lexiko.web.server import create_app


def _resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    found: dict[str, Any] = spec
    for part in ref.removeprefix("#/").split("/"):
        found = found[part]
    return found


def test_every_api_route_documents_a_response(tmp_path: Path) -> None:
    spec = create_app(f"sqlite:///{tmp_path / 'games.db'}").openapi()
    routes = [(p, m, op) for p, ops in spec["paths"].items() if p.startswith("/api/") for m, op in ops.items()]
    assert len(routes) == 30  # 16 of games and accounts, 12 of events, 2 of reviews
    for path, method, op in routes:
        ok = {code: r for code, r in op["responses"].items() if code.startswith("2")}
        assert ok, f"{method} {path} documents no 2xx response"
        for code, response in ok.items():
            if code == "204":
                assert "content" not in response
                continue
            content = response.get("content", {})
            assert content, f"{method} {path}: no content"
            for kind, body in content.items():
                schema = _resolve(body.get("schema", {}), spec)
                assert schema, f"{method} {path} ({kind}): an empty schema"
                # one of several objects (a review, or how far it has got), or one shape
                for one in [_resolve(s, spec) for s in schema["anyOf"]] if "anyOf" in schema else [schema]:
                    assert one.get("type") in ("object", "array", "string"), (path, one)
                    if one.get("type") == "object":
                        assert one.get("properties"), f"{method} {path}: an object without properties"


@pytest.mark.slow
def test_the_state_schema_names_its_keys(tmp_path: Path) -> None:
    spec = create_app(f"sqlite:///{tmp_path / 'games.db'}").openapi()
    state = spec["components"]["schemas"]["State"]
    assert {"board", "rack", "players", "history", "can", "duplicate"} <= set(state["properties"])
    assert set(state["required"]) >= {"type", "game_id", "version", "board", "rack", "status_text"}


def test_unmodelled_keys_are_found_at_any_depth() -> None:
    info = models.GameInfo.model_validate(
        {
            "id": "g",
            "status": "waiting",
            "rules": "casual",
            "public": False,
            "seats": [{"seat": 0, "name": "Ann", "kind": "human", "taken": True, "colour": "red"}],
            "seat_count": 1,
            "seats_taken": 1,
        }
    )
    assert models.unmodelled(info) == [".seats[0].colour"]


@pytest.mark.parametrize(
    "message",
    [
        {"type": "hello", "token": "abc"},
        {"type": "hello"},
        {"type": "play", "tiles": [{"row": 7, "col": 7, "letter": "A", "blank": False}], "id": 4},
        {"type": "play", "move": "8D WORD"},
        {"type": "exchange", "tiles": "AEI"},
        {"type": "preview", "tiles": [{"row": 7, "col": 7, "letter": "A"}], "id": "p1"},
        {"type": "chat", "text": "good game"},
        *({"type": kind} for kind in ("pass", "challenge", "accept", "resign", "abort", "rematch", "state", "ping")),
    ],
)
def test_what_a_client_sends_parses(message: dict[str, Any]) -> None:
    parsed = models.client_message(message)
    assert parsed.type == message["type"]
    assert models.unmodelled(parsed) == []


def test_a_message_of_no_known_type_is_refused() -> None:
    with pytest.raises(ValidationError):
        models.client_message({"type": "shout"})
    with pytest.raises(ValidationError):
        models.server_message({"type": "state"})


def test_what_the_server_sends_fits_the_models(tmp_path: Path) -> None:
    """A game against the computer to the end (resigned), a duplicate game's round and
    chat: every message the clients got is a model's, and no key is left unnamed (the
    harness checks every test's messages so when it closes; this test makes sure the
    kinds of message are all there)."""
    depth = ReviewDepth(candidates=2, iterations=4)
    with Server(f"sqlite:///{tmp_path / 'games.db'}", allow_seeds=True, review_depth=depth, review_jobs=0) as s:
        gid, tokens = new_game(s.http, preset="casual", seats=[{"kind": "human", "name": "Ann"}, {"kind": "greedy"}])
        ann = s.connect(gid, tokens[0])
        watcher = s.connect(gid, None)
        ann.wait_state(lambda st: st["turn"] == ann.seat)
        ann.send({"type": "preview", "tiles": [{"row": 7, "col": 7, "letter": "Q"}], "id": 1})
        ann.recv("preview")
        ann.send({"type": "ping", "id": "x"})
        ann.recv("pong")
        ann.send({"type": "chat", "text": "hello"})
        ann.recv("chat")
        assert ann.act({"type": "accept"})["type"] == "error"
        ann.act({"type": "resign"})
        watcher.wait_state(lambda st: st["status"] == "over")
        later = s.connect(gid, None)  # the chat so far
        history = next(m for m in later.messages if m["type"] == "chat-history")
        assert history["messages"][0]["text"] == "hello"
        bearer = {"Authorization": f"Bearer {tokens[0]}"}
        word = next(h["words"][0] for h in watcher.state["history"] if h.get("words"))
        for path, model in [
            (f"/api/games/{gid}", models.GameInfo),
            (f"/api/games/{gid}/state", models.State),
            (f"/api/games/{gid}/lookup?word={word}", models.Lookup),
            (f"/api/games/{gid}/review", models.Review),
            ("/api/options", models.Options),
            ("/api/lobby", models.Lobby),
        ]:
            answer = s.http.get(path, headers=bearer)
            while answer.json().get("status") in ("queued", "running"):  # a review computed in the background
                assert models.unmodelled(models.ReviewProgress.model_validate(answer.json())) == [], path
                time.sleep(0.05)
                answer = s.http.get(path, headers=bearer)
            assert answer.status_code == 200, answer.text
            assert models.unmodelled(model.model_validate(answer.json())) == [], path
        dup, dup_tokens = new_game(
            s.http, preset="duplicate", seats=[{"kind": "human", "name": "Bo"}, {"kind": "greedy"}]
        )
        bo = s.connect(dup, dup_tokens[0])
        bo.act({"type": "pass"})
        bo.wait_state(lambda st: st["duplicate"]["round"] == 2)
        assert {(m, p) for m, p, _ in s.answers} >= {("POST", "/api/games"), ("GET", f"/api/games/{gid}/review")}
        kinds = {m["type"] for c in s.conns for m in c.messages}
        assert kinds >= {"welcome", "state", "preview", "pong", "chat", "chat-history", "error"}
        for conn in s.conns:
            check_messages(conn.messages)


def test_the_harness_finds_an_answer_its_model_does_not_name() -> None:
    joined = {"game_id": "g", "seat": 1, "token": "t"}
    check_answers([("POST", "/api/games/g/join", joined)])
    with pytest.raises(AssertionError, match=r"keys no model names: \['\.colour'\]"):
        check_answers([("POST", "/api/games/g/join", {**joined, "colour": "red"})])
    with pytest.raises(AssertionError, match="answered what its model refuses"):
        check_answers([("POST", "/api/games/g/join", {"game_id": "g"})])
    with pytest.raises(AssertionError, match="keys no model names"):
        check_messages([{"type": "pong", "id": 1, "late": True}])
