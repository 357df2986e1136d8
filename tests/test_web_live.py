"""The in-memory game of the server: actions as text, exact replays (clocks included),
placements from dropped tiles, and what the views show to whom."""

from __future__ import annotations

import json
import time

import pytest

from lexiko.errors import IllegalMoveError, LexikoError, NotationError
from lexiko.rules import preset
from lexiko.web.live import LiveGame, Seat, canonical_action, placement_from_tiles
from lexiko.web.views import STATE_SECONDS, gcg_for, state_for, state_text


def new_live(**rules: object) -> LiveGame:
    r = preset("tournament").replace(**rules) if rules else preset("tournament")
    live = LiveGame("g", r, 42, [Seat(0, "human", "Ann"), Seat(1, "human", "Bob")], lexicon=None)
    live.start(1000.0)
    return live


def test_replay_gives_the_same_game_clocks_included() -> None:
    live = new_live(time_minutes=25, challenge_rule="void")
    g = live.game
    assert g is not None
    first = g.player_on_turn
    t = 1000.0
    texts = []
    for k in range(6):
        seat = g.player_on_turn
        t += 7.25 + k
        msg = {"type": "exchange", "tiles": list(reversed([g.tiles.face(x) for x in g.rack(seat)[:2]]))}
        text = canonical_action(g, msg) if k % 2 == 0 else "-"
        texts.append(text)
        live.apply_text(seat, text, at=t)
    again = LiveGame("g", live.rules, 42, [Seat(0, "human", "Ann"), Seat(1, "human", "Bob")], lexicon=None)
    again.start(1000.0)
    again.replay(live.actions)
    h = again.game
    assert h is not None
    live.clock.frozen = again.clock.frozen = t + 30
    assert [g.time_left(p) for p in (0, 1)] == [h.time_left(p) for p in (0, 1)]
    assert [g.rack(p) for p in (0, 1)] == [h.rack(p) for p in (0, 1)]
    assert g._s.bag == h._s.bag  # the bag order too
    assert g.player_on_turn == h.player_on_turn and h.history[0].player == first
    # exchanges are stored with their tiles in rack order, whatever order the client named them in
    assert all(x == "-" or list(x[1:]) == sorted(x[1:], key=lambda f: (f == "?", f)) for x in texts)


def test_undo_last_takes_back_an_unsaved_action() -> None:
    live = new_live()
    g = live.game
    assert g is not None
    before = (g.rack(0), g.rack(1), g.player_on_turn)
    live.apply_text(g.player_on_turn, "-", at=1001.0)
    live.undo_last()
    assert (g.rack(0), g.rack(1), g.player_on_turn) == before and live.actions == []


def test_undo_of_a_duplicate_close_reopens_the_round_without_a_replay() -> None:
    from lexiko.lexicon import Lexicon
    from lexiko.web.live import CLOSE, SERVER_SEAT
    from lexiko.web.store import SubmissionData

    lex = Lexicon.from_words(["QI", "QAT", "AT", "TA", "TI", "IT", "AI", "QATS"])
    live = LiveGame("d", preset("duplicate"), 7, [Seat(0, "human", "Ann"), Seat(1, "human", "Bob")], lexicon=lex)
    live.start(1000.0)
    d = live.duplicate
    assert d is not None
    d.set_rack("AIQT")
    live.submit(SubmissionData(1, 0, "8G QI", 1001.0), trusted=True)
    live.submit(SubmissionData(1, 1, "-", 1002.0), trusted=True)
    live.apply_text(SERVER_SEAT, CLOSE, at=1003.0)
    assert d.round_number == 2 and live.actions[-1].text == "close 8F QAT"
    live.undo_last()
    assert live.duplicate is d  # taken back in place, not rebuilt by replaying the game
    assert (d.round_number, d.rack_text, d.submitted(), live.actions, live.status) == (
        1,
        "AIQT",
        ["Ann", "Bob"],
        [],
        "active",
    )
    assert live.state_version == 2  # the two submissions still count


@pytest.mark.parametrize(
    ("tiles", "error", "message"),
    [
        ([], IllegalMoveError, "put some tiles on the board first"),
        ([{"row": 7, "col": 7}], NotationError, "each tile needs its letter"),
        (
            [{"row": 7, "col": 7, "letter": "", "blank": True}],
            IllegalMoveError,
            "choose the letter the blank stands for",
        ),
        ([{"row": 15, "col": 7, "letter": "A"}], IllegalMoveError, "a tile is off the board"),
        ([{"row": "7", "col": 7, "letter": "A"}], NotationError, "each tile needs a row and a column"),
        ([{"row": 7, "col": 7, "letter": "%"}], NotationError, "not a letter of the english tile set"),
        ([{"row": 7, "col": 7, "letter": "A"}, {"row": 7, "col": 9, "letter": "B"}], IllegalMoveError, "gap"),
    ],
)
def test_placement_refusals(tiles: list[dict[str, object]], error: type[LexikoError], message: str) -> None:
    live = new_live()
    assert live.game is not None
    with pytest.raises(error, match=message):
        placement_from_tiles(live.game, tiles)


def test_placement_from_tiles_in_any_order_with_a_blank() -> None:
    live = new_live()
    assert live.game is not None
    move = placement_from_tiles(
        live.game,
        [
            {"row": 7, "col": 9, "letter": "T"},
            {"row": 7, "col": 7, "letter": "c"},
            {"row": 7, "col": 8, "letter": "A", "blank": True},
        ],
    )
    assert move.notation(live.game.tiles) == "8H CaT"


def test_views_hide_other_racks_until_the_end() -> None:
    live = new_live()
    g = live.game
    assert g is not None
    seat = g.player_on_turn
    live.apply_text(
        seat,
        canonical_action(g, {"type": "exchange", "tiles": "".join(g.tiles.face(x) for x in g.rack(seat)[:3])}),
        at=1002.0,
    )
    mine, theirs, watcher = state_for(live, seat), state_for(live, 1 - seat), state_for(live, None)
    assert mine["history"][0]["move"].startswith("-") and mine["history"][0]["move"] != "-3"
    assert "rack" in mine["history"][0]
    assert theirs["history"][0]["move"] == "-3" and "rack" not in theirs["history"][0]
    assert watcher["rack"] == [] and watcher["unseen_count"] == 100
    assert mine["rack"] == [g.tiles.face(x) for x in g.rack(seat)]
    text = gcg_for(live, 1 - seat)
    assert "#incomplete" in text and f"#rack{2 - seat}" in text and f"#rack{seat + 1}" not in text


@pytest.mark.parametrize("first", ["seat", "spectator"])
def test_the_state_text_kept_for_spectators_never_holds_a_rack(first: str) -> None:
    """The text of a state is built once per viewer and version and reused: a seat's
    (with its rack and its own exchange) and a spectator's are kept apart, whichever is
    asked for first, and a new version or a new watcher makes new texts."""
    live = new_live()
    g = live.game
    assert g is not None
    seat = g.player_on_turn
    swapped = "".join(g.tiles.face(x) for x in g.rack(seat)[:3])
    live.apply_text(seat, canonical_action(g, {"type": "exchange", "tiles": swapped}), at=1002.0)
    order = [seat, None] if first == "seat" else [None, seat]
    texts = {who: state_text(live, who) for who in order}
    for who in order:  # asked again: the same text, not a new one
        assert state_text(live, who) is texts[who]
    mine, watcher = json.loads(texts[seat]), json.loads(texts[None])
    rack = [g.tiles.face(x) for x in g.rack(seat)]
    assert mine["rack"] == rack and mine["you"] == seat and "rack" in mine["history"][0]
    assert watcher["rack"] == [] and watcher["you"] is None
    assert watcher["history"][0]["move"] == "-3" and "rack" not in watcher["history"][0]
    for who, view in ((None, watcher), (seat, mine)):  # what state_for gives, as JSON
        assert view == json.loads(json.dumps(state_for(live, who)))
    other = json.loads(state_text(live, 1 - seat))
    assert other["rack"] == [g.tiles.face(x) for x in g.rack(1 - seat)] != rack
    live.watchers += 1  # a spectator came: the count changes
    assert json.loads(state_text(live, None))["watchers"] == 1
    live.apply_text(1 - seat, "-", at=1003.0)
    assert json.loads(state_text(live, None))["version"] == 2 == json.loads(state_text(live, seat))["version"]


def test_the_state_text_of_a_running_clock_is_kept_a_tenth_of_a_second() -> None:
    """With a clock running the state's time left may be at most `STATE_SECONDS` old;
    without one the text stays until the game changes."""
    live = new_live(time_minutes=25)
    text = state_text(live, None)
    time.sleep(2 * STATE_SECONDS)
    assert state_text(live, None) is not text
    untimed = new_live()
    text = state_text(untimed, None)
    time.sleep(2 * STATE_SECONDS)
    assert state_text(untimed, None) is text
