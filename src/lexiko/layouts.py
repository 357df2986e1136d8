"""Premium-square layouts, as data.

A layout is a square of characters, one per square:

==== =====================  ==== =====================
char square                 char square
==== =====================  ==== =====================
.    plain                  D    double word
d    double letter          T    triple word
t    triple letter          Q    quadruple word
q    quadruple letter       *    start square, double word
\\+   start square, plain
==== =====================  ==== =====================

>>> STANDARD.size, STANDARD.start, STANDARD.premium(0, 0)
(15, (7, 7), 'T')
>>> STANDARD.word_mult[7 * 15 + 7], STANDARD.letter_mult[0 * 15 + 3]
(2, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Layout", "LAYOUTS", "layout", "STANDARD", "SUPER", "MOBILE", "LEXULOUS"]

_LETTER = {"d": 2, "t": 3, "q": 4}
_WORD = {"D": 2, "T": 3, "Q": 4, "*": 2}


@dataclass(frozen=True)
class Layout:
    """A board's premium squares; ``letter_mult`` and ``word_mult`` are flat, row-major."""

    name: str
    rows: tuple[str, ...]
    start: tuple[int, int] = field(init=False)
    letter_mult: tuple[int, ...] = field(init=False, repr=False)
    word_mult: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        n = len(self.rows)
        if n < 3 or any(len(r) != n for r in self.rows):
            raise ValueError(f"layout {self.name!r} must be a square of at least 3 rows")
        bad = {c for r in self.rows for c in r} - set(".dtqDTQ*+")
        if bad:
            raise ValueError(f"layout {self.name!r} has unknown squares {sorted(bad)}")
        starts = [(r, c) for r in range(n) for c in range(n) if self.rows[r][c] in "*+"]
        if len(starts) > 1:
            raise ValueError(f"layout {self.name!r} has more than one start square")
        start = starts[0] if starts else (n // 2, n // 2)
        flat = "".join(self.rows)
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "letter_mult", tuple(_LETTER.get(c, 1) for c in flat))
        object.__setattr__(self, "word_mult", tuple(_WORD.get(c, 1) for c in flat))

    @property
    def size(self) -> int:
        """Squares per side."""
        return len(self.rows)

    def premium(self, row: int, col: int) -> str:
        """The layout character of a square."""
        return self.rows[row][col]


def _mirror(quarter: list[str]) -> tuple[str, ...]:
    """Build a full layout from its top-left quarter (middle row and column included)."""
    half = [q + q[-2::-1] for q in quarter]
    return tuple(half + half[-2::-1])


STANDARD = Layout(
    "standard15",
    _mirror(
        [
            "T..d...T",
            ".D...t..",
            "..D...d.",
            "d..D...d",
            "....D...",
            ".t...t..",
            "..d...d.",
            "T..d...*",
        ]
    ),
)

SUPER = Layout(
    "super21",
    _mirror(
        [
            "Q..d...T..d",
            ".D..t...D..",
            "..D..q...D.",
            "d..T..d...T",
            ".t..D...t..",
            "..q..D...d.",
            "...d..D...d",
            "T......D...",
            ".D..t...t..",
            "..D..d...d.",
            "d..T..d...*",
        ]
    ),
)

MOBILE = Layout(
    "mobile15",
    _mirror(
        [
            "...T..t.",
            "..d..D..",
            ".d..d...",
            "T..t...D",
            "..d...d.",
            ".D...t..",
            "t...d...",
            "...D...+",
        ]
    ),
)

# The Lexulous-style board (docs/variants.md says where it comes from and what is
# assumed): the standard triple-word squares, 17 double-word (the centre one of them),
# 24 double-letter and 8 triple-letter squares, placed apart from the standard board's.
LEXULOUS = Layout(
    "lexulous15",
    _mirror(
        [
            "T..d...T",
            "..D...d.",
            ".D...t..",
            "d...D...",
            "...D....",
            "..t...d.",
            ".d...d..",
            "T......*",
        ]
    ),
)

LAYOUTS: dict[str, Layout] = {lay.name: lay for lay in (STANDARD, SUPER, MOBILE, LEXULOUS)}


def layout(name: str) -> Layout:
    """The layout of that name (``standard15``, ``super21``, ``mobile15``, ``lexulous15``).

    >>> layout("super21").size
    21
    """
    try:
        return LAYOUTS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown layout {name!r}; known: {', '.join(sorted(LAYOUTS))}") from None
