"""lexiko's own generator (lexiko.rng): the published reference outputs of its parts,
its documented first outputs, and the properties of its bounded ints and shuffles."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexiko.rng import Rng, seed_state


def test_xoshiro256starstar_reference_outputs() -> None:
    # the outputs the authors' reference code gives from the state (1, 2, 3, 4)
    r = Rng.from_state((1, 2, 3, 4))
    assert [r.next64() for _ in range(6)] == [
        11520,
        0,
        1509978240,
        1215971899390074240,
        1216172134540287360,
        607988272756665600,
    ]


def test_splitmix64_reference_outputs() -> None:
    # SplitMix64 from 1234567 gives these (a published test sequence); the seed state is
    # its first four outputs
    assert seed_state(1234567) == (
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
    )


def test_documented_first_outputs_of_seed_1() -> None:
    r = Rng(1)
    assert [r.next64() for _ in range(3)] == [12966619160104079557, 9600361134598540522, 10590380919521690900]
    r = Rng(1)
    assert [r.below(10) for _ in range(8)] == [8, 9, 6, 2, 1, 6, 8, 9]
    bag = list(range(10))
    Rng(1).shuffle(bag)
    assert bag == [7, 9, 2, 4, 3, 0, 1, 5, 6, 8]


def test_seeds_are_read_modulo_2_to_the_64() -> None:
    assert seed_state(5) == seed_state(5 + 2**64) == seed_state(5 - 2**64)
    assert seed_state(-1) == seed_state(2**64 - 1)
    assert seed_state(2**63) != seed_state(0)
    assert Rng() == Rng(0)


def test_seed_must_be_an_int() -> None:
    with pytest.raises(TypeError, match="a seed is an int, not str"):
        Rng("1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a seed is an int, not bool"):
        Rng(True)


def test_below_draws_as_documented() -> None:
    # n == 1 draws nothing; otherwise the top bits of each output until one is below n
    r, ref = Rng(9), Rng(9)
    assert r.below(1) == 0 and r == ref
    expected = next(x for x in (ref.next64() >> 61 for _ in range(100)) if x < 5)
    assert r.below(5) == expected and r == ref
    assert Rng(9).below(2**64) == Rng(9).next64()


def test_below_rejects_out_of_range() -> None:
    for n in (0, -3, 2**64 + 1):
        with pytest.raises(ValueError, match=rf"below\({n}\): n is from 1 to 2\*\*64"):
            Rng().below(n)
    with pytest.raises(ValueError, match=r"randrange\(4, 4\): an empty range"):
        Rng().randrange(4, 4)
    with pytest.raises(IndexError, match="choice from an empty sequence"):
        Rng().choice([])


def test_state_round_trip_copy_and_pickle() -> None:
    r = Rng(77)
    r.next64()
    c = r.copy()
    assert c == r and c is not r
    assert copy.copy(r) == r and copy.deepcopy(r) == r
    p = pickle.loads(pickle.dumps(r))
    assert p == r
    assert [r.next64() for _ in range(3)] == [c.next64() for _ in range(3)] == [p.next64() for _ in range(3)]
    s = Rng()
    s.setstate(r.getstate())
    assert s.next64() == r.next64()
    assert eval(repr(r), {"Rng": Rng}) == r


@pytest.mark.parametrize("bad", [(0, 0, 0, 0), (1, 2, 3), (1, 2, 3, 2**64), (1, 2, 3, -1), (1.0, 2, 3, 4)])
def test_setstate_rejects_what_is_not_a_state(bad: tuple[object, ...]) -> None:
    with pytest.raises(ValueError, match="four ints from 0 to 2\\*\\*64 - 1, not all zero"):
        Rng().setstate(bad)  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(st.integers(), st.lists(st.integers(0, 99), max_size=120))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    x = list(items)
    Rng(seed).shuffle(x)
    assert sorted(x) == sorted(items)


@settings(max_examples=200, deadline=None)
@given(st.integers(), st.lists(st.integers(), max_size=300))
def test_shuffle_is_fisher_yates_by_below(seed: int, items: list[int]) -> None:
    # shuffle() inlines the generator for speed: the same draws as the definition
    fast, ref = Rng(seed), Rng(seed)
    x, y = list(items), list(items)
    fast.shuffle(x)
    for i in range(len(y) - 1, 0, -1):
        j = ref.below(i + 1)
        y[i], y[j] = y[j], y[i]
    assert x == y and fast == ref


@settings(max_examples=200, deadline=None)
@given(st.integers(), st.integers(1, 2**64))
def test_below_is_in_range(seed: int, n: int) -> None:
    r = Rng(seed)
    assert all(0 <= r.below(n) < n for _ in range(5))


@settings(max_examples=50, deadline=None)
@given(st.integers(), st.integers(1, 12))
def test_below_reaches_every_value(seed: int, n: int) -> None:
    # 200 draws below n <= 12 miss a value with probability under 12 * (11/12)**200 < 1e-6
    r = Rng(seed)
    assert {r.below(n) for _ in range(200)} == set(range(n))


@settings(max_examples=50, deadline=None)
@given(st.integers())
def test_shuffle_reaches_every_order_of_three(seed: int) -> None:
    r = Rng(seed)
    seen = set()
    for _ in range(200):
        x = [0, 1, 2]
        r.shuffle(x)
        seen.add(tuple(x))
    assert len(seen) == 6


@settings(max_examples=100, deadline=None)
@given(st.integers(), st.integers(-(2**70), 2**70), st.integers(1, 2**40))
def test_randrange_and_choice(seed: int, start: int, width: int) -> None:
    r = Rng(seed)
    assert start <= r.randrange(start, start + width) < start + width
    assert 0 <= r.randrange(width) < width
    assert r.choice("xyz") in "xyz"


# -- the kernel's twin (src/lexiko/_kernel/rng.h) ----------------------------------------


def _kernel_shuffle(seed: int, items: bytes) -> tuple[bytes, tuple[int, int, int, int]]:
    from lexiko import kernel

    if not kernel.available():
        pytest.skip("the compiled kernel is not built")
    return kernel.rng_shuffle(seed, items)


def test_the_kernel_gives_the_documented_shuffle_of_seed_1() -> None:
    shuffled, state = _kernel_shuffle(1, bytes(range(10)))
    assert list(shuffled) == [7, 9, 2, 4, 3, 0, 1, 5, 6, 8]
    r = Rng(1)
    r.shuffle(list(range(10)))
    assert state == r.getstate()


@settings(max_examples=200, deadline=None)
@given(st.integers(), st.binary(max_size=300))
def test_the_kernel_shuffles_as_python_does(seed: int, items: bytes) -> None:
    r = Rng(seed)
    x = list(items)
    r.shuffle(x)
    assert _kernel_shuffle(seed, items) == (bytes(x), r.getstate())


def test_the_kernel_rejects_a_bad_seed() -> None:
    from lexiko import kernel

    if not kernel.available():
        pytest.skip("the compiled kernel is not built")
    with pytest.raises(ValueError, match="rng_shuffle: an 8-byte seed"):
        kernel._module().rng_shuffle(b"\x01" * 16, b"abc")


def test_a_game_stored_before_lexikos_generator_deals_as_it_did() -> None:
    """generator="python" shuffles with Python's random.Random, as every game did before
    lexiko.rng: these racks are what Game dealt for these seeds then."""
    from lexiko.errors import GameStateError
    from lexiko.game import Game

    g = Game(["A", "B"], seed=1, lexicon=None, generator="python")
    assert (g.rack_text(0), g.rack_text(1), g.player_on_turn) == ("EEEOPP?", "IILNORY", 0)
    g = Game(["A", "B"], seed=2024, lexicon=None, first_player=0, generator="python")
    assert (g.rack_text(0), g.rack_text(1)) == ("EEINRVV", "FGLOOSU")
    assert g.copy().rack_text(0) == "EEINRVV"
    g.exchange("VV")  # the old generator shuffles the bag, and undo restores its state
    after = g.rack_text(0)
    g.undo()
    g.exchange("VV")
    assert g.rack_text(0) == after
    with pytest.raises(GameStateError, match="Python's generator"):
        g.draw_state()  # the kernel plays only lexiko's generator
