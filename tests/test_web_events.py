"""Events in the web app (`lexiko.web.services.events`): created by a director, players
registered by the link, rounds paired by `lexiko.tournament` with their games made in the
app, results from the games (or the director), refusals that change nothing, a restart,
and two processes on one database."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
import webharness
from webharness import Server

from lexiko.tournament import Division, Player, Settings, pair, standings
from lexiko.tournament.files import event_from_json

PEOPLE = (("Ann", 1900), ("Bo", 1800), ("Cy", 1700), ("Di", 1600))


class Director:
    """An event made through the API, and its director's requests."""

    def __init__(self, http: Any, *, method: str = "swiss", rounds: int = 3, auto: bool = True, **extra: Any) -> None:
        self.http = http
        body = {
            "name": "Club night",
            "divisions": [{"name": "A", "method": method, "rounds": rounds}],
            "options": {"time_minutes": 10},
            "auto": auto,
            **extra,
        }
        r = http.post("/api/events", json=body)
        assert r.status_code == 200, r.text
        made = r.json()
        self.id: str = made["event_id"]
        self.key: str = made["register_path"].rsplit("/", 1)[1]
        self.auth = {"Authorization": "Bearer " + made["token"]}
        self.tokens: dict[str, str] = {}

    def register(self, name: str, rating: int = 0, http: Any = None) -> dict[str, Any]:
        r = (http or self.http).post(
            f"/api/events/{self.id}/register", json={"key": self.key, "name": name, "rating": rating}
        )
        assert r.status_code == 200, r.text
        self.tokens[name] = r.json()["token"]
        return dict(r.json())

    def post(self, what: str, body: dict[str, Any] | None = None, status: int = 200) -> dict[str, Any]:
        r = self.http.post(f"/api/events/{self.id}/{what}", json=body or {}, headers=self.auth)
        assert r.status_code == status, r.text
        return dict(r.json())

    def refused(self, what: str, body: dict[str, Any] | None, message: str, status: int = 400) -> None:
        """``what`` is refused with ``message``, and the event does not change."""
        before = self.view()
        assert self.post(what, body, status=status) == {"error": message}
        assert self.view() == before

    def view(self, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": "Bearer " + token} if token else {}
        r = self.http.get(f"/api/events/{self.id}", headers=headers)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def division(self) -> dict[str, Any]:
        return dict(self.view()["divisions"][0])


def resign(server: Server, game_id: str, token: str) -> None:
    """The player of ``token`` resigns their game (through the game's socket)."""
    conn = server.connect(game_id, token)
    assert conn.act({"type": "resign"})["type"] == "state"
    conn.close()


def wait_for(director: Director, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
    import time

    deadline = time.monotonic() + timeout
    while True:
        v = director.view()
        if pred(v):
            return v
        assert time.monotonic() < deadline, f"the event did not get there: {v}"
        time.sleep(0.1)


def library_standings(view: dict[str, Any]) -> list[tuple[int, str, float, int]]:
    """The standings `lexiko.tournament` computes from the results the view shows."""
    return [(rank, name, wins, spread) for rank, name, _, wins, spread in webharness.library_standings(view)]


def check_pairings(view: dict[str, Any]) -> None:
    """Each round of the view is the round `lexiko.tournament` pairs after the results
    before it (the rounds the director paired again aside)."""
    div = view["divisions"][0]
    d = Division("A", Settings(method=div["method"], rounds=div["rounds"]))
    for p in div["players"]:
        d.add_player(Player(p["name"], p["rating"]))
    for rnd in div["paired"]:
        paired = pair(d)
        assert [(p.first, p.second) for p in paired.pairings] == [(p["first"], p["second"]) for p in rnd["pairings"]]
        for p in rnd["pairings"]:
            if p["second"] is not None:
                d.record(rnd["round"], p["first"], p["scores"][0], p["second"], p["scores"][1])


def shown_standings(view: dict[str, Any]) -> list[tuple[int, str, float, int]]:
    return [(s["rank"], s["name"], s["wins"], s["spread"]) for s in view["divisions"][0]["standings"]]


def test_an_event_of_four_people_over_three_rounds(server: Server) -> None:
    ev = Director(server.http)
    assert ev.register("Ann", 1900) == {"event_id": ev.id, "division": "A", "number": 1, "token": ev.tokens["Ann"]}
    for name, rating in PEOPLE[1:]:
        ev.register(name, rating)
    view = ev.view()
    assert (view["status"], view["version"], view["director"], view["divisions"][0]["paired"]) == (
        "registering",
        4,
        False,
        [],
    )
    assert ev.view(ev.auth["Authorization"][7:])["register_path"] == f"/event/{ev.id}/register/{ev.key}"
    started = ev.post("start")
    assert started["status"] == "running" and started["director"] is True
    rnd = started["divisions"][0]["paired"][0]
    assert [(p["first"], p["second"], p["table"], p["scores"]) for p in rnd["pairings"]] == [
        (1, 3, 1, None),
        (2, 4, 2, None),
    ]
    ann = ev.view(ev.tokens["Ann"])["you"]
    assert ann == {
        "division": "A",
        "number": 1,
        "name": "Ann",
        "game": {
            "round": 1,
            "bye": False,
            "done": False,
            "table": 1,
            "opponent": 3,
            "opponent_name": "Cy",
            "first": True,
            "game_id": rnd["pairings"][0]["game_id"],
        },
    }
    # the player's key to the event is their seat's key in its games
    conn = server.connect(ann["game"]["game_id"], ev.tokens["Ann"])
    assert conn.seat == 0 and conn.state["event_id"] == ev.id and conn.state["players"][1]["name"] == "Cy"
    assert conn.act({"type": "abort"}) == {
        "type": "error",
        "action": "abort",
        "id": None,
        "message": "a game of an event is not called off nor played again by its players: the event's director decides",
    }
    conn.close()
    names = [name for name, _ in PEOPLE]
    for r in range(1, 4):
        view = wait_for(ev, lambda v, r=r: len(v["divisions"][0]["paired"]) == r)
        for p in view["divisions"][0]["paired"][r - 1]["pairings"]:
            resign(server, p["game_id"], ev.tokens[names[p["second"] - 1]])  # the second resigns at once
    view = wait_for(ev, lambda v: v["status"] == "over")
    div = view["divisions"][0]
    # a resignation at 0-0: the winner did not score more, so it is a forfeit, 50-0
    check_pairings(view)
    assert [[(p["first"], p["second"], p["scores"]) for p in rnd["pairings"]] for rnd in div["paired"]] == [
        [(1, 3, [50, 0]), (2, 4, [50, 0])],
        [(4, 1, [50, 0]), (3, 2, [50, 0])],
        [(1, 2, [50, 0]), (3, 4, [50, 0])],
    ]
    assert shown_standings(view) == [
        (1, "Ann", 2.0, 50),
        (2, "Cy", 2.0, 50),
        (3, "Bo", 1.0, -50),
        (4, "Di", 1.0, -50),
    ]
    assert shown_standings(view) == library_standings(view)
    # the file is the library's event file of the same event
    f = server.http.get(f"/api/events/{ev.id}/file")
    assert f.headers["content-type"] == "application/vnd.lexiko.event+json; charset=utf-8"
    event = event_from_json(f.text)
    assert [(s.rank, s.name, s.wins, s.spread) for s in standings(event.division("A"))] == shown_standings(view)


def test_refusals_say_why_and_change_nothing(server: Server) -> None:
    ev = Director(server.http, auto=False)
    for name, rating in PEOPLE:
        ev.register(name, rating)
    other = server.client()
    for key in ("nope", "ключ"):
        r = other.post(f"/api/events/{ev.id}/register", json={"key": key, "name": "Eve"})
        assert (r.status_code, r.json()) == (400, {"error": "this registration link is not the event's"})
    r = other.post(f"/api/events/{ev.id}/register", json={"key": ev.key, "name": "ANN"})
    assert r.json() == {"error": "division A already has a player named Ann: choose another name"}
    assert other.get("/api/events/nosuchevent").json() == {"error": "no such event"}
    ev.refused("pair", None, "the event has not started: start it to pair its first round")
    ev.post("start")
    r = other.post(f"/api/events/{ev.id}/results", json={"round": 1, "player": 1, "opponent": 3, "score": 1})
    assert (r.status_code, r.json()) == (403, {"error": "only the event's director can do this"})
    ev.refused(
        "results",
        {"round": 1, "player": 1, "opponent": 2, "score": 400, "opponent_score": 300},
        "round 1 has no game between player 1 (Ann) and player 2 (Bo)",
    )
    ev.refused(
        "results",
        {"round": 2, "player": 1, "opponent": 3, "score": 400, "opponent_score": 300},
        "division A has no round 2 (rounds 1 to 1 are paired)",
    )
    ev.refused(
        "results",
        {"round": 1, "player": 1, "opponent": 3, "score": 420, "opponent_score": 380, "spread": 50},
        "the scores 420-380 make a spread of 40, not 50",
    )
    ev.refused(
        "pair", None, "round 1 of division A is not complete (2 results missing): enter them before pairing round 2"
    )
    ev.refused(
        "withdraw",
        {"player": 2},
        "player 2 (Bo) has a game in round 1 without a result: enter its result (or a forfeit) first",
    )
    ev.refused(
        "bots", {"kind": "grandmaster"}, "unknown computer player 'grandmaster'; known: random, greedy, static, hard"
    )
    ev.refused("start", None, "the event has already started")
    after = ev.post(
        "results", {"round": 1, "player": 3, "score": 380, "opponent": 1, "opponent_score": 420, "spread": -40}
    )
    assert after["divisions"][0]["paired"][0]["pairings"][0]["scores"] == [420, 380]
    ev.refused(
        "results",
        {"round": 1, "player": 1, "opponent": 3, "score": 400, "opponent_score": 300},
        "round 1: the game between player 1 (Ann) and player 3 (Cy) already has a result (420-380); correct it to change it",
    )
    ev.refused(
        "pair", None, "round 1 of division A is not complete (1 result missing): enter them before pairing round 2"
    )
    ev.refused("repair", None, "round 1 has results: it cannot be paired again")
    ev.refused("pause", {"paused": False}, "the event is not paused")


def test_the_director_corrects_pauses_removes_and_pairs_again(server: Server) -> None:
    ev = Director(server.http, rounds=3)
    for name, rating in PEOPLE:
        ev.register(name, rating)
    ev.post("start")
    assert ev.post("pause", {"paused": True})["paused"] is True
    ev.post("results", {"round": 1, "player": 1, "score": 420, "opponent": 3, "opponent_score": 380})
    ev.post("results", {"round": 1, "player": 2, "score": 300, "opponent": 4, "opponent_score": 410})
    assert len(ev.division()["paired"]) == 1  # paused: round 2 waits
    view = ev.post(
        "results", {"round": 1, "player": 2, "score": 500, "opponent": 4, "opponent_score": 410, "correct": True}
    )
    assert shown_standings(view) == [(1, "Bo", 1.0, 90), (2, "Ann", 1.0, 40), (3, "Cy", 0.0, -40), (4, "Di", 0.0, -90)]
    assert shown_standings(view) == library_standings(view)
    resumed = ev.post("pause", {"paused": False})  # resumed: round 2 is paired at once
    round2 = resumed["divisions"][0]["paired"][1]["pairings"]
    assert [(p["first"], p["second"]) for p in round2] == [(3, 2), (4, 1)]
    old = [p["game_id"] for p in round2]
    again = ev.post("repair")["divisions"][0]["paired"]
    assert len(again) == 2 and [(p["first"], p["second"]) for p in again[1]["pairings"]] == [(3, 2), (4, 1)]
    assert not set(old) & {p["game_id"] for p in again[1]["pairings"]}
    called_off = server.http.get(f"/api/games/{old[0]}/state").json()
    assert (called_off["status"], called_off["status_text"]) == ("aborted", "Game called off by the event's director")
    ev.post("results", {"round": 2, "player": 1, "forfeit": True, "opponent": 4})
    ev.post("results", {"round": 2, "player": 3, "score": 350, "opponent": 2, "opponent_score": 350})
    view = wait_for(ev, lambda v: len(v["divisions"][0]["paired"]) == 3)
    ev.post("pause", {"paused": True})
    for p in view["divisions"][0]["paired"][2]["pairings"]:
        ev.post(
            "results", {"round": 3, "player": p["first"], "score": 400, "opponent": p["second"], "opponent_score": 399}
        )
    view = ev.post("withdraw", {"player": 4})
    assert view["divisions"][0]["players"][3]["withdrawn"] is True
    assert view["status"] == "over"  # the 3 rounds are played
    assert view["divisions"][0]["paired"][1]["pairings"][1]["scores"] == [50, 0]  # Di wins Ann's forfeit
    assert shown_standings(view) == library_standings(view)


def test_an_event_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'events.db'}"
    with Server(db) as first:
        ev = Director(first.http, rounds=1)
        for name, rating in PEOPLE[:2]:
            ev.register(name, rating)
        before = ev.post("start")
        tokens = ev.tokens
    with Server(db) as second:
        ev.http = second.http
        assert ev.post("start", status=400) == {"error": "the event has already started"}
        view = ev.view(ev.auth["Authorization"][7:])
        assert view == before
        game_id = view["divisions"][0]["paired"][0]["pairings"][0]["game_id"]
        resign(second, game_id, tokens["Bo"])  # the game is rebuilt from the database, and ends
        view = wait_for(ev, lambda v: v["status"] == "over")
        assert view["divisions"][0]["paired"][0]["pairings"][0]["scores"] == [50, 0]


@pytest.mark.slow
def test_two_processes_register_on_one_database(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'events.db'}"
    with Server(db) as a, Server(db) as b:
        ev = Director(a.http)
        clients = [a.client() if i % 2 else b.client() for i in range(12)]
        numbers: list[int] = []
        errors: list[BaseException] = []

        def register(i: int) -> None:
            try:
                numbers.append(ev.register(f"Player {i}", 1000 + i, http=clients[i])["number"])
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=register, args=(i,)) for i in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        assert sorted(numbers) == list(range(1, 13))
        view = ev.view()
        assert view["version"] == 12 and len(view["divisions"][0]["players"]) == 12


def test_bots_fill_seats_and_play_their_games(server: Server) -> None:
    ev = Director(server.http, rounds=2)
    ev.register("Ann", 1900)
    for _ in range(3):
        ev.post("bots", {"kind": "greedy"})
    view = ev.post("start")
    people = [p for p in view["divisions"][0]["paired"][0]["pairings"] if 1 in (p["first"], p["second"])]
    resign(server, people[0]["game_id"], ev.tokens["Ann"])
    view = wait_for(ev, lambda v: len(v["divisions"][0]["paired"]) == 2, timeout=60)
    for p in view["divisions"][0]["paired"][1]["pairings"]:
        if 1 in (p["first"], p["second"]):
            resign(server, p["game_id"], ev.tokens["Ann"])
    view = wait_for(ev, lambda v: v["status"] == "over", timeout=60)
    for rnd in view["divisions"][0]["paired"]:
        for p in rnd["pairings"]:
            if 1 in (p["first"], p["second"]):
                continue
            state = server.http.get(f"/api/games/{p['game_id']}/state").json()
            assert state["status"] == "over" and p["scores"] == state["result"]["scores"]
    assert shown_standings(view) == library_standings(view)


def test_signed_in_players_register_as_their_accounts_and_their_games_are_rated(server: Server) -> None:
    ev = Director(server.http, rounds=1)
    for name in ("Ann", "Bob"):
        http = server.client()
        assert http.post("/api/accounts", json={"name": name, "password": "correct horse"}).status_code == 200
        csrf = http.get("/api/me").json()["csrf"]
        r = http.post(
            f"/api/events/{ev.id}/register",
            json={"key": ev.key, "name": "someone else", "rating": 2500},
            headers={"X-CSRF-Token": csrf},
        )
        assert r.status_code == 200, r.text
        ev.tokens[name] = r.json()["token"]
        again = http.post(
            f"/api/events/{ev.id}/register", json={"key": ev.key, "name": "x"}, headers={"X-CSRF-Token": csrf}
        )
        assert again.json() == {"error": "you are already registered in division A"}
    players = ev.division()["players"]
    assert [(p["name"], p["rating"], p["kind"]) for p in players] == [("Ann", 1500, "human"), ("Bob", 1500, "human")]
    game_id = ev.post("start")["divisions"][0]["paired"][0]["pairings"][0]["game_id"]
    conn = server.connect(game_id, ev.tokens["Ann"])
    assert conn.state["rated"] is True  # two signed-in people: the game counts for their ratings
    conn.close()


@pytest.mark.slow
def test_the_sweep_enters_a_result_nobody_entered(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A process that stored a game's end and died before entering its result: another
    process's sweep enters it (here the hook that enters it at once is off)."""
    from lexiko.web.services.events import Events

    monkeypatch.setattr(Events, "on_over", lambda self, live: None)
    with Server(f"sqlite:///{tmp_path / 'events.db'}") as server:
        ev = Director(server.http, rounds=1)
        for name, rating in PEOPLE[:2]:
            ev.register(name, rating)
        game_id = ev.post("start")["divisions"][0]["paired"][0]["pairings"][0]["game_id"]
        resign(server, game_id, ev.tokens["Bo"])
        assert ev.division()["paired"][0]["pairings"][0]["scores"] is None
        view = wait_for(ev, lambda v: v["status"] == "over", timeout=10)
        assert view["divisions"][0]["paired"][0]["pairings"][0]["scores"] == [50, 0]
