"""Moves, racks and candidates read back from their reprs; the package's public face."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lexiko
from lexiko import Exchange, Pass, Place, Rack
from lexiko.movegen import Candidate
from lexiko.tiles import BLANK, POLISH, SPANISH

NAMESPACE = {"Place": Place, "Exchange": Exchange, "Pass": Pass, "Rack": Rack, "Candidate": Candidate}

letters = st.integers(1, 26)
square = st.one_of(st.just(0), letters, letters.map(lambda c: c | BLANK))


@given(st.integers(0, 20), st.integers(0, 20), st.booleans(), st.lists(square, min_size=1, max_size=7))
def test_a_place_reads_back_from_its_repr(row: int, col: int, down: bool, codes: list[int]) -> None:
    m = Place(row, col, down, tuple(codes))
    assert eval(repr(m), NAMESPACE) == m


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Place(7, 3, False, (23, 9, 14, 4, 25)), "Place.parse('8D WINDY')"),
        (Place(6, 7, True, (1 | BLANK, 0, 5)), "Place.parse('H7 a.E')"),
        (Place(18, 3, False, (26, 1)), "Place.parse('19D ZA', size=21)"),
        (Place(7, 3, False, (30, 1)), "Place(row=7, col=3, down=False, tiles=(30, 1))"),  # no English face
        (Place(7, 3, False, ()), "Place(row=7, col=3, down=False, tiles=())"),
        (Exchange((17, 21, 0)), "Exchange.parse('-QU?')"),
        (Exchange((21, 17)), "Exchange.parse('-UQ')"),  # the order kept
        (Exchange((1 | BLANK,)), "Exchange(tiles=(65,))"),
        (Pass(), "Pass()"),
    ],
)
def test_move_reprs_are_notation_that_evaluates_back(move: lexiko.Move, text: str) -> None:
    assert repr(move) == text
    assert eval(text, NAMESPACE) == move


def test_a_spanish_move_shows_its_codes_in_english_and_its_own_notation() -> None:
    m = Place.parse("8D [CH]E", SPANISH)
    assert m.tiles == (4, 6)
    assert (repr(m), m.notation(SPANISH)) == ("Place.parse('8D DF')", "8D [CH]E")
    assert eval(repr(m), NAMESPACE) == m


def test_place_and_exchange_parse_refuse_other_moves() -> None:
    with pytest.raises(lexiko.NotationError, match="^'-AB' is not a placement of tiles$"):
        Place.parse("-AB")
    with pytest.raises(lexiko.NotationError, match="^'8D AB' is not an exchange: write it like -ABC$"):
        Exchange.parse("8D AB")


@pytest.mark.parametrize(
    ("rack", "text"),
    [
        (Rack("AEQ?"), "Rack('AEQ?')"),
        (Rack("[ch]a?", tiles="spanish"), "Rack('[CH]A?', tiles='spanish')"),
        (Rack(POLISH.parse("ŹA"), POLISH), "Rack('ŹA', tiles='polish')"),
        (Rack((1, 99)), "Rack((1, 99))"),
        (Rack(()), "Rack('')"),
    ],
)
def test_rack_reprs_evaluate_back(rack: Rack, text: str) -> None:
    assert repr(rack) == text
    back = eval(text, NAMESPACE)
    assert back == rack and back.tiles == rack.tiles


def test_a_rack_is_the_tuple_of_its_codes() -> None:
    r = Rack("QI?", SPANISH)
    assert r == (SPANISH.code("Q"), SPANISH.code("I"), 0) and hash(r) == hash(tuple(r))
    assert (str(r), r + (1,), r.count(0)) == ("QI?", (*r, 1), 1)
    back = pickle.loads(pickle.dumps(r))
    assert (back, back.tiles, type(back)) == (r, SPANISH, Rack)


def test_a_games_racks_show_their_letters() -> None:
    g = lexiko.Game(["Ann", "Bob"], lexiko.preset("spanish"), seed=1, lexicon=None, first_player=0)
    g.set_rack(0, "[CH]AE?")
    assert repr(g.rack(0)) == "Rack('A[CH]E?', tiles='spanish')"
    assert g.history == [] and g.play("-[CH]", player=0).rack == g.tiles.parse("A[CH]E?")


def test_a_candidate_reads_back_from_its_repr() -> None:
    c = Candidate(Place.parse("8D WINDY"), 32, 32.5, (1, 5, 0))
    assert repr(c) == "Candidate(move=Place.parse('8D WINDY'), score=32, equity=32.5, leave=Rack('AE?'))"
    assert eval(repr(c), NAMESPACE) == c


# -- import lexiko -----------------------------------------------------------------------


def test_every_public_name_is_there() -> None:
    for name in lexiko.__all__:
        assert getattr(lexiko, name) is not None, name
    assert lexiko.Game is __import__("lexiko.game").game.Game
    assert lexiko.gcg.load.__module__ == "lexiko.gcg" and lexiko.SimulationBot.__name__ == "SimulationBot"
    assert set(lexiko.__all__) <= set(dir(lexiko))
    with pytest.raises(AttributeError, match="^module 'lexiko' has no attribute 'nothing'$"):
        _ = lexiko.nothing  # type: ignore[attr-defined]


def test_import_lexiko_loads_neither_the_game_nor_the_generator() -> None:
    code = "import sys, lexiko; print(sorted(m for m in sys.modules if m.startswith('lexiko.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = eval(out)
    assert not {"lexiko.game", "lexiko.movegen", "lexiko.lexicon", "lexiko.gcg", "lexiko.bots"} & set(loaded)
