"""lexiko's own random generator: the seeded shuffles of a game, repeated exactly by
the C kernel.

A seeded `Game` and its twin in the kernel (play-outs, whole static
games, simulation, the reinforcement-learning core) must draw the same tiles move for
move. Python's `random` keeps only ``random()`` the same across versions (its
``shuffle`` and ``randrange`` have changed before), and the kernel would have to copy its
private parts; so lexiko defines its generator here, in a few lines that
``src/lexiko/_kernel/rng.h`` repeats in C.

The algorithm
-------------

- **Generator:** ``xoshiro256**`` (Blackman and Vigna, "Scrambled linear pseudorandom
  number generators", 2018). The state is four 64-bit words ``s0, s1, s2, s3``, never
  all zero. Each step outputs ``rotl(s1 * 5, 7) * 9`` and then updates the state:
  ``t = s1 << 17; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)``
  (all arithmetic modulo ``2**64``; ``rotl`` rotates left). Chosen because it is small
  (shifts, rotations, xors, two multiplications by small constants: the same few lines
  in Python and in portable C), fast, passes the usual statistical test batteries in
  every output bit, and has a period of ``2**256 - 1``, far more than any game needs.
- **Seeding: SplitMix64**, as the authors recommend for filling xoshiro's state. A seed
  is any Python int; it is read modulo ``2**64`` (two's complement for a negative seed:
  ``-1`` is ``2**64 - 1``), so seeds that differ by a multiple of ``2**64`` give the same
  games, and ``seed + i`` for a base seed and an iteration number is the same addition
  in C's ``uint64_t``. From that 64-bit ``x``, each of ``s0 .. s3`` in turn is
  ``x += 0x9E3779B97F4A7C15; z = x; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EB; z ^ (z >> 31)``. Four consecutive
  SplitMix64 outputs are never all zero (SplitMix64 gives each output once in ``2**64``).
- **Bounded integers** (`Rng.below`), unbiased by rejection: for ``n`` from 2 to
  ``2**64``, with ``k`` the bit length of ``n - 1``, draw outputs and keep their top ``k``
  bits until that number is below ``n`` (fewer than two draws on average). ``n == 1``
  gives 0 without a draw.
- **Shuffle** (`Rng.shuffle`): Fisher-Yates (Durstenfeld's order): for ``i`` from
  ``len - 1`` down to 1, swap item ``i`` with item ``below(i + 1)``.

The state is the four words, as a tuple of ints (`Rng.getstate`): what the kernel
takes and gives back.

>>> r = Rng(1)
>>> [r.next64() for _ in range(3)]
[12966619160104079557, 9600361134598540522, 10590380919521690900]
>>> r = Rng(1)
>>> [r.below(10) for _ in range(8)]
[8, 9, 6, 2, 1, 6, 8, 9]
>>> bag = list(range(10))
>>> Rng(1).shuffle(bag)
>>> bag
[7, 9, 2, 4, 3, 0, 1, 5, 6, 8]
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Literal, TypeVar

__all__ = ["Rng", "seed_state", "PythonRandom", "Generator", "make_generator"]

_T = TypeVar("_T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> tuple[int, int, int, int]:
    """The generator's state for ``seed`` (read modulo 2**64): four SplitMix64 outputs.

    >>> seed_state(0) == seed_state(2**64), seed_state(-1) == seed_state(2**64 - 1)
    (True, True)
    >>> [hex(w) for w in seed_state(1)][:2]
    ['0x910a2dec89025cc1', '0xbeeb8da1658eec67']
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"a seed is an int, not {type(seed).__name__}")
    x = seed & _MASK
    words = []
    for _ in range(4):
        x = (x + _GAMMA) & _MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        words.append(z ^ (z >> 31))
    return words[0], words[1], words[2], words[3]


class Rng:
    """xoshiro256** seeded by SplitMix64 (see the module): seeded shuffles and bounded
    integers that the C kernel repeats exactly.

    >>> r = Rng(2026)
    >>> c = r.copy()
    >>> r.below(100) == c.below(100), r.getstate() == c.getstate()
    (True, True)
    >>> Rng.from_state(r.getstate()).next64() == r.next64()
    True
    """

    __slots__ = ("_s0", "_s1", "_s2", "_s3")

    def __init__(self, seed: int = 0) -> None:
        self._s0, self._s1, self._s2, self._s3 = seed_state(seed)

    @classmethod
    def from_state(cls, state: Sequence[int]) -> Rng:
        """A generator in the given state (`getstate`)."""
        r = cls.__new__(cls)
        r.setstate(state)
        return r

    def seed(self, seed: int) -> None:
        """Start again from ``seed``, as ``Rng(seed)``."""
        self._s0, self._s1, self._s2, self._s3 = seed_state(seed)

    def getstate(self) -> tuple[int, int, int, int]:
        """The state: four ints from 0 to 2**64 - 1, not all zero.

        >>> Rng(1).getstate() == seed_state(1)
        True
        """
        return self._s0, self._s1, self._s2, self._s3

    def setstate(self, state: Sequence[int]) -> None:
        """Continue from a state `getstate` gave. Raises ValueError for anything
        else than four ints from 0 to 2**64 - 1, not all zero.

        >>> Rng().setstate((0, 0, 0, 0))
        Traceback (most recent call last):
        ...
        ValueError: a generator state is four ints from 0 to 2**64 - 1, not all zero
        """
        words = tuple(state)
        if (
            len(words) != 4
            or not all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w <= _MASK for w in words)
            or not any(words)
        ):
            raise ValueError("a generator state is four ints from 0 to 2**64 - 1, not all zero")
        self._s0, self._s1, self._s2, self._s3 = words

    def copy(self) -> Rng:
        """An independent generator in the same state."""
        r = Rng.__new__(Rng)
        r._s0, r._s1, r._s2, r._s3 = self._s0, self._s1, self._s2, self._s3
        return r

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> Rng:
        return self.copy()

    def __getstate__(self) -> tuple[int, int, int, int]:
        return self.getstate()

    def __setstate__(self, state: tuple[int, int, int, int]) -> None:
        self.setstate(state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and self.getstate() == other.getstate()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Rng.from_state({self.getstate()!r})"

    def next64(self) -> int:
        """The next output: an int from 0 to 2**64 - 1."""
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        x = (s1 * 5) & _MASK
        out = ((((x << 7) | (x >> 57)) & _MASK) * 9) & _MASK
        t = (s1 << 17) & _MASK
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        self._s0, self._s1, self._s2, self._s3 = s0, s1, s2, ((s3 << 45) | (s3 >> 19)) & _MASK
        return out

    def below(self, n: int) -> int:
        """An int from 0 to ``n - 1``, each as likely (rejection); ``n`` from 1 to 2**64.

        >>> Rng(5).below(1)
        0
        """
        if not 1 <= n <= 1 << 64:
            raise ValueError(f"below({n}): n is from 1 to 2**64")
        if n == 1:
            return 0
        drop = 64 - (n - 1).bit_length()
        while True:
            x = self.next64() >> drop
            if x < n:
                return x

    def randrange(self, start: int, stop: int | None = None) -> int:
        """An int from ``start`` to ``stop - 1`` (from 0 to ``start - 1`` when ``stop``
        is left out), as `random.Random.randrange` without a step; the range holds
        1 to 2**64 numbers.

        >>> r = Rng(3)
        >>> 10 <= r.randrange(10, 20) < 20
        True
        """
        if stop is None:
            start, stop = 0, start
        if stop <= start:
            raise ValueError(f"randrange({start}, {stop}): an empty range")
        return start + self.below(stop - start)

    def choice(self, seq: Sequence[_T]) -> _T:
        """One item of a non-empty sequence, each as likely: ``seq[below(len(seq))]``.

        >>> Rng(1).choice("abc") in "abc"
        True
        """
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, items: MutableSequence[_T]) -> None:
        """Shuffle ``items`` in place: Fisher-Yates, from the last item down.

        >>> x = ["a", "b", "c"]
        >>> Rng(7).shuffle(x)
        >>> sorted(x)
        ['a', 'b', 'c']
        """
        # below(i + 1) and next64() written out, the state in locals: the same draws,
        # several times faster than a method call per draw
        m = _MASK
        s0, s1, s2, s3 = self._s0, self._s1, self._s2, self._s3
        for i in range(len(items) - 1, 0, -1):
            drop = 64 - i.bit_length()  # (i + 1) - 1 == i
            while True:
                x = (s1 * 5) & m
                out = ((((x << 7) | (x >> 57)) & m) * 9) & m
                t = (s1 << 17) & m
                s2 ^= s0
                s3 ^= s1
                s1 ^= s2
                s0 ^= s3
                s2 ^= t
                s3 = ((s3 << 45) | (s3 >> 19)) & m
                j = out >> drop
                if j <= i:
                    break
            items[i], items[j] = items[j], items[i]
        self._s0, self._s1, self._s2, self._s3 = s0, s1, s2, s3


class PythonRandom:
    """Python's own generator (`random.Random`) behind the methods a game uses: the
    generator lexiko's games shuffled with before `Rng`. Only for rebuilding games
    stored then (a web server's games in progress are stored as a seed and actions);
    the kernel does not play it.

    >>> r = PythonRandom(1)
    >>> bag = list(range(5)); r.shuffle(bag); bag  # as random.Random(1).shuffle
    [2, 3, 4, 0, 1]
    """

    def __init__(self, seed: int = 0) -> None:
        import random

        self._r = random.Random(seed)

    def getstate(self) -> tuple[object, ...]:
        """The state, as `random.Random.getstate` gives it."""
        return self._r.getstate()

    def setstate(self, state: tuple[object, ...]) -> None:
        """Go back to a state `getstate` gave."""
        self._r.setstate(state)

    def copy(self) -> PythonRandom:
        """An independent generator in the same state."""
        other = PythonRandom()
        other.setstate(self.getstate())
        return other

    def shuffle(self, items: MutableSequence[_T]) -> None:
        """Shuffle in place, as `random.shuffle` does."""
        self._r.shuffle(items)


Generator = Literal["lexiko", "python"]
"""Which generator a seeded game shuffles with: ``"lexiko"`` (`Rng`, the default, the
kernel's too) or ``"python"`` (`PythonRandom`, for games stored before lexiko had its own)."""


def make_generator(kind: Generator, seed: int) -> Rng | PythonRandom:
    """The generator of a game of this kind and seed.

    >>> make_generator("lexiko", 1) == Rng(1), type(make_generator("python", 1)).__name__
    (True, 'PythonRandom')
    """
    if kind == "lexiko":
        return Rng(seed)
    if kind == "python":
        return PythonRandom(seed)
    raise ValueError(f"generator is 'lexiko' or 'python', not {kind!r}")
