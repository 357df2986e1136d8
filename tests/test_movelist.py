"""The kernel's MoveList: moves packed, each Candidate made when first read. It must
behave as the list the reference generator returns for the same position: length,
indexing, slicing, iteration, equality both ways, and a list's methods (the first
change turns it into that list)."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import MutableSequence, Sequence
from typing import Any

import pytest

from lexiko import kernel
from lexiko.board import Board
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Pass, Place
from lexiko.movegen import Candidate, generate
from lexiko.tiles import ENGLISH

pytestmark = pytest.mark.skipif(not kernel.available(), reason="the kernel is not built")

LEX = Lexicon.from_words(["QI", "QAT", "AT", "TA", "CAT", "ACT", "TAXI", "AX", "XI"])
RACK = ENGLISH.parse("AQITX?E")


def both(**kw: Any) -> tuple[Any, list[Candidate]]:
    lazy = generate(Board.empty(), RACK, LEX, leaves=LeaveTable.default(), **kw)
    eager = generate(Board.empty(), RACK, LEX, leaves=LeaveTable.default(), backend="python", **kw)
    assert isinstance(eager, list)
    return lazy, eager


def test_the_kernel_returns_a_movelist_equal_to_the_reference_list() -> None:
    lazy, eager = both()
    assert type(lazy) is kernel.MoveList
    assert isinstance(lazy, MutableSequence) and isinstance(lazy, Sequence)
    assert random.Random(1).sample(lazy, 5) == random.Random(1).sample(eager, 5)
    assert len(lazy) == len(eager) == 196
    assert lazy == eager and eager == lazy and not (lazy != eager)
    assert list(lazy) == eager
    assert [c for c in lazy] == eager
    assert list(reversed(lazy)) == eager[::-1]
    assert lazy != eager[:-1] and lazy != [*eager[:-1], eager[0]]


def test_indexing_makes_each_candidate_once() -> None:
    lazy, eager = both()
    assert lazy[0] == eager[0] and lazy[-1] == eager[-1] and lazy[100] == eager[100]
    assert lazy[0] is lazy[0]
    assert isinstance(lazy[0].move, Place)
    assert isinstance(lazy[-1].move, Exchange) and eager[-1] == lazy[-1]
    assert any(isinstance(c.move, Pass) for c in lazy)
    with pytest.raises(IndexError):
        lazy[196]
    with pytest.raises(IndexError):
        lazy[-197]
    with pytest.raises(TypeError, match="indices must be integers or slices, not str"):
        lazy["a"]


def test_slices_copies_and_pickles_are_lists() -> None:
    lazy, eager = both()
    for s in (slice(None, 5), slice(-3, None), slice(None, None, -7), slice(10, 2, -2)):
        assert lazy[s] == eager[s] and type(lazy[s]) is list
    assert lazy.copy() == eager and type(lazy.copy()) is list
    assert type(copy.copy(lazy)) is list
    assert pickle.loads(pickle.dumps(lazy)) == eager
    assert lazy + eager[:2] == eager + eager[:2]
    assert repr(lazy) == repr(eager)


def test_search_and_best_mode() -> None:
    lazy, eager = both()
    c = eager[42]
    assert c in lazy and lazy.index(c) == 42 and lazy.count(c) == 1
    assert "x" not in lazy and lazy.count("x") == 0
    with pytest.raises(ValueError):
        lazy.index("x")
    best, ref = both(best=3)
    assert best == ref and len(best) == 3
    none = generate(Board.empty(), ENGLISH.parse("VV"), LEX, placements_only=True)
    assert none == [] and len(none) == 0 and not none


def test_a_change_turns_it_into_the_list() -> None:
    lazy, eager = both()
    first = lazy[0]
    lazy.sort(key=lambda c: (c.score, str(c.move)))
    eager.sort(key=lambda c: (c.score, str(c.move)))
    assert lazy == eager and len(lazy) == 196
    lazy.append(first)
    del lazy[0]
    lazy[0] = first
    eager.append(first)
    del eager[0]
    eager[0] = first
    assert lazy == eager and lazy[-1] is first and lazy[:2] == eager[:2]
    lazy += [first]
    assert type(lazy) is kernel.MoveList and len(lazy) == 197
    assert lazy.pop() is first and lazy.index(first) == 0
    grown: list[object] = []
    moves = generate(Board.empty(), RACK, LEX)
    grown += moves  # a list grows in place by a MoveList, as by any sequence
    assert grown == list(moves)
    lazy.clear()
    assert lazy == [] and len(lazy) == 0
