"""Tile sets: the letters of a language, how many of each, and what each is worth.

Inside the engine a tile is a small integer, a *code*:

- ``0`` is the blank on a rack (and an empty square on a board);
- ``1..n`` are the letters of the tile set, in the set's own order;
- ``code | BLANK`` is a blank standing for that letter once it is on the board.

Strings appear only at the edges. A tile's face may be more than one character
(Spanish ``CH``), which the notation writes in brackets: ``[CH]``, ``[ch]`` for a
blank standing for CH.

>>> t = ENGLISH
>>> t.parse("CAt?")
(3, 1, 84, 0)
>>> t.format((3, 1, 84, 0))
'CAt?'
>>> t.value(t.code("Q")), len(t.bag())
(10, 100)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lexiko.errors import NotationError

__all__ = [
    "BLANK",
    "LETTER_MASK",
    "Rack",
    "TileSet",
    "TILE_SETS",
    "tile_set",
    "ENGLISH",
    "SUPER_ENGLISH",
    "WORDS_MOBILE",
    "LEXULOUS",
    "GERMAN",
    "POLISH",
    "FRENCH",
    "SPANISH",
    "CATALAN",
]

BLANK = 0x40
"""Bit set on a board code when the tile there is a blank."""

LETTER_MASK = 0x3F
"""Mask that turns a board code into its letter code."""

MAX_LETTERS = 63


@dataclass(frozen=True)
class TileSet:
    """The letters of a game: faces, counts, values and the number of blanks.

    Letter *i* of ``letters`` has code ``i + 1``.

    >>> TileSet.from_spec("tiny", "A2:1 B1:3", blanks=1).bag()
    (0, 1, 1, 2)
    """

    name: str
    letters: tuple[str, ...]
    counts: tuple[int, ...]
    values: tuple[int, ...]
    blanks: int = 2
    _codes: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not 0 < len(self.letters) <= MAX_LETTERS:
            raise ValueError(f"a tile set has 1 to {MAX_LETTERS} letters, not {len(self.letters)}")
        if not len(self.letters) == len(self.counts) == len(self.values):
            raise ValueError("letters, counts and values must have the same length")
        codes = {}
        for i, face in enumerate(self.letters):
            if face != face.upper() or not face:
                raise ValueError(f"tile face {face!r} must be non-empty upper case")
            codes[face] = i + 1
        object.__setattr__(self, "_codes", codes)

    @classmethod
    def from_spec(cls, name: str, spec: str, blanks: int = 2) -> TileSet:
        """Build a tile set from ``"A9:1 B2:3 ..."`` (face, count, value).

        >>> TileSet.from_spec("x", "CH1:5 A2:1").letters
        ('CH', 'A')
        """
        letters, counts, values = [], [], []
        for item in spec.split():
            head, value = item.split(":")
            i = len(head)
            while head[i - 1].isdigit():
                i -= 1
            letters.append(head[:i])
            counts.append(int(head[i:]))
            values.append(int(value))
        return cls(name, tuple(letters), tuple(counts), tuple(values), blanks)

    # -- codes ---------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of distinct letters (not counting the blank)."""
        return len(self.letters)

    @property
    def total(self) -> int:
        """Number of tiles in a full bag, blanks included."""
        return sum(self.counts) + self.blanks

    def code(self, face: str) -> int:
        """Letter code of an upper-case face; raises NotationError for unknown letters."""
        try:
            return self._codes[face]
        except KeyError:
            raise NotationError(f"{face!r} is not a letter of the {self.name} tile set") from None

    def face(self, code: int) -> str:
        """Face of a code as the notation writes it: lower case for a blank, ``?`` for
        an undesignated blank.

        >>> ENGLISH.face(1), ENGLISH.face(1 | BLANK), ENGLISH.face(0)
        ('A', 'a', '?')
        """
        if code == 0:
            return "?"
        face = self.letters[(code & LETTER_MASK) - 1]
        return face.lower() if code & BLANK else face

    def value(self, code: int) -> int:
        """Points of a tile: 0 for a blank, designated or not."""
        if code == 0 or code & BLANK:
            return 0
        return self.values[code - 1]

    def count(self, code: int) -> int:
        """How many of this tile a full bag holds (code 0: blanks)."""
        return self.blanks if code == 0 else self.counts[(code & LETTER_MASK) - 1]

    def bag(self) -> tuple[int, ...]:
        """Every tile of a full bag as codes, sorted (blanks first)."""
        out = [0] * self.blanks
        for i, n in enumerate(self.counts):
            out.extend([i + 1] * n)
        return tuple(out)

    # -- text ----------------------------------------------------------------

    def tokens(self, text: str) -> list[str]:
        """Split notation into tile faces: ``[CH]`` groups, multi-letter faces matched
        longest first, ``?`` blanks, other single characters as they are.

        >>> SPANISH.tokens("CHA[ll]?")
        ['CH', 'A', 'll', '?']
        """
        text = unicodedata.normalize("NFC", text)
        out: list[str] = []
        longest = max(len(f) for f in self.letters)
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "[":
                j = text.find("]", i)
                if j < 0:
                    raise NotationError(f"unclosed '[' in {text!r}")
                out.append(text[i + 1 : j])
                i = j + 1
                continue
            for n in range(min(longest, len(text) - i), 1, -1):
                chunk = text[i : i + n]
                if chunk.upper() in self._codes and (chunk.isupper() or chunk.islower()):
                    out.append(chunk)
                    i += n
                    break
            else:
                out.append(ch)
                i += 1
        return out

    def parse_token(self, token: str) -> int:
        """Code of one face: upper case a letter, lower case a blank standing for it,
        ``?`` an undesignated blank."""
        if token == "?":
            return 0
        if token.isupper() or not token.isalpha():
            return self.code(token)
        if token.islower():
            return self.code(token.upper()) | BLANK
        if token.upper() not in self._codes:  # a letter without case (日), or none of the set's
            return self.code(token)
        raise NotationError(f"{token!r} mixes upper and lower case")

    def parse(self, text: str) -> tuple[int, ...]:
        """Codes of a run of faces (a rack, a word).

        >>> ENGLISH.parse("QI?")
        (17, 9, 0)
        """
        return tuple(self.parse_token(t) for t in self.tokens(text))

    def format(self, codes: Iterable[int]) -> str:
        """Notation of codes; multi-letter faces in brackets.

        >>> SPANISH.format(SPANISH.parse("[CH]E"))
        '[CH]E'
        """
        out = []
        for c in codes:
            f = self.face(c)
            out.append(f if len(f) == 1 else f"[{f}]")
        return "".join(out)

    def rack_sort(self, codes: Sequence[int]) -> tuple[int, ...]:
        """Codes sorted as a rack is written: letters in order, blanks last."""
        s = sorted(codes)
        if s and s[0] == 0:  # the blanks come first: move them last
            k = s.count(0)
            return tuple(s[k:] + s[:k])
        if s and s[0] < 0:  # not tile codes: the general order
            return tuple(sorted(codes, key=lambda c: (c == 0, c)))
        return tuple(s)

    def rack_value(self, codes: Iterable[int]) -> int:
        """Sum of the tile values."""
        return sum(self.value(c) for c in codes)


# Letter distributions (facts: the published tile counts and values of each edition).
ENGLISH = TileSet.from_spec(
    "english",
    "A9:1 B2:3 C2:3 D4:2 E12:1 F2:4 G3:2 H2:4 I9:1 J1:8 K1:5 L4:1 M2:3 N6:1 O8:1 P2:3 "
    "Q1:10 R6:1 S4:1 T6:1 U4:1 V2:4 W2:4 X1:8 Y2:4 Z1:10",
    blanks=2,
)
SUPER_ENGLISH = TileSet.from_spec(
    "super-english",
    "A16:1 B4:3 C6:3 D8:2 E24:1 F4:4 G5:2 H5:4 I13:1 J2:8 K2:5 L7:1 M6:3 N13:1 O15:1 "
    "P4:3 Q2:10 R13:1 S10:1 T15:1 U7:1 V3:4 W4:4 X2:8 Y4:4 Z2:10",
    blanks=4,
)
WORDS_MOBILE = TileSet.from_spec(
    "mobile",
    "A9:1 B2:4 C2:4 D5:2 E13:1 F2:4 G3:3 H4:3 I8:1 J1:10 K1:5 L4:2 M2:4 N5:2 O8:1 P2:4 "
    "Q1:10 R6:1 S5:1 T7:1 U4:2 V2:5 W2:4 X1:8 Y2:3 Z1:10",
    blanks=2,
)
# Lexulous-style games: 89 tiles worth 206 points, Q and Z worth 12 (docs/variants.md)
LEXULOUS = TileSet.from_spec(
    "lexulous",
    "A8:1 B2:4 C2:4 D3:2 E11:1 F2:5 G2:2 H2:5 I8:1 J1:8 K1:6 L3:1 M2:4 N5:1 O7:1 P2:4 "
    "Q1:12 R5:1 S3:1 T5:2 U3:1 V2:5 W2:5 X1:8 Y3:5 Z1:12",
    blanks=2,
)
GERMAN = TileSet.from_spec(
    "german",
    "A5:1 Ä1:6 B2:3 C2:4 D4:1 E15:1 F2:4 G3:2 H4:2 I6:1 J1:6 K2:4 L3:2 M4:3 N9:1 O3:2 "
    "Ö1:8 P1:4 Q1:10 R6:1 S7:1 T6:1 U6:1 Ü1:6 V1:6 W1:3 X1:8 Y1:10 Z1:3",
    blanks=2,
)
POLISH = TileSet.from_spec(
    "polish",
    "A9:1 Ą1:5 B2:3 C3:2 Ć1:6 D3:2 E7:1 Ę1:5 F1:5 G2:3 H2:3 I8:1 J2:3 K3:2 L3:2 Ł2:3 "
    "M3:2 N5:1 Ń1:7 O6:1 Ó1:5 P3:2 R4:1 S4:1 Ś1:5 T3:2 U2:3 W4:1 Y4:2 Z5:1 Ź1:9 Ż1:5",
    blanks=2,
)
FRENCH = TileSet.from_spec(
    "french",
    "A9:1 B2:3 C2:3 D3:2 E15:1 F2:4 G2:2 H2:4 I8:1 J1:8 K1:10 L5:1 M3:2 N6:1 O6:1 P2:3 "
    "Q1:8 R6:1 S6:1 T6:1 U6:1 V2:4 W1:10 X1:10 Y1:10 Z1:10",
    blanks=2,
)
SPANISH = TileSet.from_spec(
    "spanish",
    "A12:1 B2:3 C4:3 CH1:5 D5:2 E12:1 F1:4 G2:2 H2:4 I6:1 J1:8 L4:1 LL1:8 M2:3 N5:1 "
    "Ñ1:8 O9:1 P2:3 Q1:5 R5:1 RR1:8 S6:1 T4:1 U5:1 V1:4 X1:8 Y1:4 Z1:10",
    blanks=2,
)
CATALAN = TileSet.from_spec(
    "catalan",
    "A12:1 B2:3 C3:2 Ç1:10 D3:2 E13:1 F1:4 G2:3 H1:8 I8:1 J1:8 L4:1 L·L1:10 M3:2 N6:1 "
    "NY1:10 O5:1 P2:3 QU1:8 R8:1 S8:1 T5:1 U4:1 V1:4 X1:10 Z1:8",
    blanks=2,
)

TILE_SETS: dict[str, TileSet] = {
    t.name: t for t in (ENGLISH, SUPER_ENGLISH, WORDS_MOBILE, LEXULOUS, GERMAN, POLISH, FRENCH, SPANISH, CATALAN)
}


class Rack(tuple[int, ...]):
    """Tiles on a rack: a tuple of codes (``0`` a blank), so every caller that takes
    codes takes it, that knows its tile set and shows itself as letters.

    Built from text (``?`` a blank; lower case read as upper case) or from codes, kept
    in the order given. Equal to the tuple of its codes.

    >>> Rack("AEQ?")
    Rack('AEQ?')
    >>> Rack("AEQ?") == (1, 5, 17, 0), str(Rack((1, 5))), list(Rack("QI"))
    (True, 'AE', [17, 9])
    >>> Rack("[CH]A?", tiles="spanish")
    Rack('[CH]A?', tiles='spanish')
    """

    tiles: TileSet

    def __new__(cls, codes: str | Iterable[int] = (), /, tiles: TileSet | str | None = None) -> Rack:
        ts = ENGLISH if tiles is None else tile_set(tiles) if isinstance(tiles, str) else tiles
        if isinstance(codes, str):
            codes = [ts.parse_token(t.upper()) if t != "?" else 0 for t in ts.tokens(codes)]
        rack = super().__new__(cls, codes)
        rack.tiles = ts
        return rack

    def __reduce__(self) -> tuple[Any, ...]:
        return (Rack, (tuple(self), self.tiles))

    def text(self) -> str | None:
        """The rack as text (``?`` for a blank), or None when a code is not a tile of a
        rack of its set (a blank standing for a letter, a code past the set's letters)."""
        ts = self.tiles
        if any(not 0 <= c <= ts.size for c in self):
            return None
        return ts.format(self)

    def __str__(self) -> str:
        text = self.text()
        return text if text is not None else str(tuple(self))

    def __repr__(self) -> str:
        text = self.text()
        ts = self.tiles
        named = TILE_SETS.get(ts.name) == ts
        head = repr(text) if text is not None else repr(tuple(self))
        if ts == ENGLISH:
            return f"Rack({head})"
        return f"Rack({head}, tiles={ts.name!r})" if named else f"Rack({head}, tiles={ts!r})"


def tile_set(name: str) -> TileSet:
    """The tile set of that name (``english``, ``super-english``, ``german`` ...).

    >>> tile_set("german").total
    102
    """
    try:
        return TILE_SETS[name.lower()]
    except KeyError:
        known = ", ".join(sorted(TILE_SETS))
        raise ValueError(f"unknown tile set {name!r}; known: {known}") from None
