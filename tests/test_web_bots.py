"""The computer players of the web app: the levels offered, ``hard`` at the table, and
a bot's think that does not keep the people waiting."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from webharness import Server, new_game

from lexiko.bots import GreedyBot
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Move
from lexiko.web.services import bots


@pytest.fixture
def app_options() -> dict[str, Any]:
    return {"allow_seeds": True}


def test_the_four_levels_are_offered_weakest_first(server: Server) -> None:
    offered = server.http.get("/api/options").json()["bots"]
    assert list(offered) == ["random", "greedy", "static", "hard"]
    assert offered["hard"] == "Hard: plays its best moves out to choose, and solves the endgame exactly"


def test_the_hard_computer_player_plays_its_turns(server: Server) -> None:
    gid, tokens = new_game(server.http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "hard"}], seed=3)
    ann = server.connect(gid, tokens[0])
    st = ann.wait_state(lambda s: s["turn"] == 0, timeout=60)
    if not st["history"]:  # Ann starts: she passes, and the computer answers
        ann.act({"type": "pass"})
        st = ann.wait_state(lambda s: s["turn"] == 0 and len(s["history"]) == 2, timeout=60)
    mine = [h for h in st["history"] if h["player"] == 1]
    # its choice depends on the time it gets (seed 3: an exchange, or a play)
    assert len(mine) == 1 and mine[0]["kind"] in ("play", "exchange")
    assert st["players"][1]["score"] == mine[0].get("score", 0)


class SlowBot:
    """The greedy player, whose every move sets ``thinking`` then waits until ``go`` is set."""

    def __init__(self, lexicon: Lexicon, thinking: threading.Event, go: threading.Event) -> None:
        self.inner = GreedyBot(lexicon)
        self.name = "computer"
        self.thinking = thinking
        self.go = go

    def choose(self, game: Game) -> Move:
        self.thinking.set()
        self.go.wait(20)
        return self.inner.choose(game)

    def wants_challenge(self, game: Game) -> bool:
        return False


def test_a_person_resigns_while_the_computer_thinks(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    thinking, go = threading.Event(), threading.Event()

    def make(kind: str, lexicon: Lexicon, name: str, seed: int | None = None) -> SlowBot:
        return SlowBot(lexicon, thinking, go)

    monkeypatch.setattr(bots, "make_bot", make)
    gid, tokens = new_game(server.http, seats=[{"kind": "human", "name": "Ann"}, {"kind": "greedy"}], seed=3)
    ann = server.connect(gid, tokens[0])
    if ann.state["turn"] == 0:
        ann.act({"type": "pass"})
    assert thinking.wait(10)
    # the computer is thinking (for ever, until told): Ann's resignation is not kept waiting
    st = ann.act({"type": "resign"}, timeout=5)
    assert st["status"] == "over" and st["result"]["reason"] == "resigned"
    go.set()  # the move it then chooses is not played: the game is over
    st = server.connect(gid, tokens[0]).state
    assert st["status"] == "over" and [h["player"] for h in st["history"] if h["kind"] == "play"] == []


def test_hard_players_of_two_games_think_one_at_a_time(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    thinking, go = threading.Event(), threading.Event()
    entered: list[str] = []

    class Counted(SlowBot):
        def choose(self, game: Game) -> Move:
            entered.append(self.name)
            return super().choose(game)

    def make(kind: str, lexicon: Lexicon, name: str, seed: int | None = None) -> SlowBot:
        bot = Counted(lexicon, thinking, go)
        bot.name = name
        return bot

    monkeypatch.setattr(bots, "make_bot", make)
    people = []
    for name in ("Ann", "Bob"):
        gid, tokens = new_game(server.http, seats=[{"kind": "human", "name": name}, {"kind": "hard"}], seed=3)
        people.append(server.connect(gid, tokens[0]))
        if people[-1].state["turn"] == 0:
            people[-1].act({"type": "pass"})
    assert thinking.wait(10)
    time.sleep(0.5)
    assert len(entered) == bots.HARD_AT_ONCE == 1  # the second waits for the first to finish
    go.set()
    for conn in people:
        conn.wait_state(lambda s: any(h["player"] == 1 for h in s["history"]), timeout=20)
    assert len(entered) == 2
