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
    "ITALIAN",
    "DUTCH",
    "PORTUGUESE",
    "NORWEGIAN",
    "SWEDISH",
    "DANISH",
    "BULGARIAN",
    "UKRAINIAN",
    "CZECH",
    "SLOVAK",
    "HUNGARIAN",
    "ROMANIAN",
    "GREEK",
    "RUSSIAN",
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
    _plain: dict[int, int] | None = field(init=False, repr=False, compare=False, hash=False)

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
        # parse's quick way, for a set of one-character faces: each face to the character
        # of its code (1..63), any other character below "@" (digits, "?", "[") to DEL
        plain: dict[int, int] | None = None
        if all(len(face) == 1 for face in self.letters):
            plain = dict.fromkeys(range(64), 127)
            plain.update({ord(face): code for face, code in codes.items()})
        object.__setattr__(self, "_plain", plain)

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
        if not code & BLANK:
            return face
        # a face without case (the Ukrainian apostrophe) is written ``?'`` for a blank
        return face.lower() if face.lower() != face else "?" + face

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
        if len(token) > 1 and token[0] == "?":
            return self.code(token[1:]) | BLANK  # a blank for a face without case
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
        if self._plain is not None:  # upper-case faces only, the words of a list: at C speed
            mapped = text.translate(self._plain)
            if mapped and max(mapped) < "@":
                return tuple(mapped.encode("ascii"))
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

# Editions whose language Debian ships a spelling list for (lexiko.wordlists), each the
# distribution printed in the current retail set of that language's edition.
# Italian: the 120-tile Italian edition (no J K W X Y tiles).
ITALIAN = TileSet.from_spec(
    "italian",
    "A14:1 B3:5 C6:2 D3:5 E11:1 F3:5 G2:8 H2:8 I12:1 L5:3 M5:3 N5:3 O15:1 P3:5 Q1:10 R6:2 S6:2 T6:2 U5:3 V3:5 Z2:8",
    blanks=2,
)
# Dutch: the set played in the Netherlands and Flanders since 1998, without the IJ tile
# of the older Dutch sets (IJ is spelled with I and J).
DUTCH = TileSet.from_spec(
    "dutch",
    "A6:1 B2:3 C2:5 D5:2 E18:1 F2:4 G3:3 H2:4 I4:1 J2:4 K3:3 L3:3 M3:3 N10:1 O6:1 P2:3 "
    "Q1:10 R5:2 S5:2 T5:2 U3:4 V2:4 W2:5 X1:8 Y1:8 Z2:4",
    blanks=2,
)
# Portuguese: the 120-tile set with 3 blanks (no K W Y tiles; accents other than Ç ignored),
# played in Portugal and Brazil alike.
PORTUGUESE = TileSet.from_spec(
    "portuguese",
    "A14:1 B3:3 C4:2 Ç2:3 D5:2 E11:1 F2:4 G2:4 H2:4 I10:1 J2:5 L5:2 M6:1 N4:3 O10:1 P4:2 "
    "Q1:6 R6:1 S8:1 T5:1 U7:1 V2:4 X1:8 Z1:8",
    blanks=3,
)
NORWEGIAN = TileSet.from_spec(
    "norwegian",
    "A7:1 B3:4 C1:10 D5:1 E9:1 F4:2 G4:2 H3:3 I5:1 J2:4 K4:2 L5:1 M3:2 N6:1 O4:2 P2:4 "
    "R6:1 S6:1 T6:1 U3:4 V3:4 W1:8 Y1:6 Æ1:6 Ø2:5 Å2:4",
    blanks=2,
)
SWEDISH = TileSet.from_spec(
    "swedish",
    "A8:1 B2:4 C1:8 D5:1 E7:1 F2:3 G3:2 H2:2 I5:1 J1:7 K3:2 L5:1 M3:2 N6:1 O5:2 P2:4 "
    "R8:1 S8:1 T8:1 U3:4 V2:3 X1:8 Y1:7 Z1:10 Å2:4 Ä2:3 Ö2:4",
    blanks=2,
)
DANISH = TileSet.from_spec(
    "danish",
    "A7:1 B4:3 C2:8 D5:2 E9:1 F3:3 G3:3 H2:4 I4:3 J2:4 K4:3 L5:2 M3:3 N6:1 O5:2 P2:4 "
    "R6:1 S5:2 T5:2 U3:3 V3:3 X1:8 Y2:4 Z1:8 Æ2:4 Ø2:4 Å2:4",
    blanks=2,
)
BULGARIAN = TileSet.from_spec(
    "bulgarian",
    "А9:1 Б3:2 В4:2 Г3:3 Д4:2 Е8:1 Ж2:4 З2:4 И8:1 Й1:5 К3:2 Л3:2 М4:2 Н4:1 О9:1 П4:1 "
    "Р4:1 С4:1 Т5:1 У3:5 Ф1:10 Х1:5 Ц1:8 Ч2:5 Ш1:8 Щ1:10 Ъ2:3 Ь1:10 Ю1:8 Я2:5",
    blanks=2,
)
# Ukrainian: 104 tiles, among them one apostrophe (as in П'ЯТЬ), worth 10.
UKRAINIAN = TileSet.from_spec(
    "ukrainian",
    "А8:1 Б2:4 В4:1 Г2:4 Ґ1:10 Д3:2 Е5:1 Є1:8 Ж1:6 З2:4 И7:1 І5:1 Ї1:6 Й1:5 К4:2 Л3:2 "
    "М4:2 Н7:1 О10:1 П3:2 Р5:1 С4:2 Т5:1 У3:3 Ф1:8 Х1:5 Ц1:6 Ч1:5 Ш1:6 Щ1:8 Ь1:5 Ю1:7 "
    "Я2:4 '1:10",
    blanks=2,
)

# Editions whose language has no free word list lexiko can read (Debian ships none): their
# tiles, for games with a word list given as a file (--lexicon FILE).
# Czech: no CH tile (CH is spelled C and H).
CZECH = TileSet.from_spec(
    "czech",
    "A5:1 Á2:2 B2:3 C3:2 Č1:4 D3:1 Ď1:8 E5:1 É2:3 Ě2:3 F1:5 G1:5 H3:2 I4:1 Í3:2 J2:2 "
    "K3:1 L3:1 M3:2 N5:1 Ň1:6 O6:1 Ó1:7 P3:1 R3:1 Ř2:4 S4:1 Š2:4 T4:1 Ť1:7 U3:2 Ú1:5 "
    "Ů1:4 V4:1 X1:10 Y2:2 Ý2:4 Z2:2 Ž1:4",
    blanks=2,
)
# Slovak: every accented letter its own tile, no CH, DZ or DŽ tile.
SLOVAK = TileSet.from_spec(
    "slovak",
    "A9:1 Á1:4 Ä1:10 B2:4 C1:4 Č1:5 D3:2 Ď1:8 E8:1 É1:7 F1:8 G1:8 H1:4 I5:1 Í1:5 J2:3 "
    "K3:2 L3:2 Ĺ1:10 Ľ1:7 M4:2 N5:1 Ň1:8 O9:1 Ó1:10 Ô1:8 P3:2 R4:1 Ŕ1:10 S4:1 Š1:5 T4:1 "
    "Ť1:7 U2:3 Ú1:7 V4:1 X1:10 Y1:4 Ý1:5 Z1:4 Ž1:5",
    blanks=2,
)
# Hungarian: CS GY LY NY SZ TY ZS are single tiles; DZ and DZS have none, nor Q W X Y.
HUNGARIAN = TileSet.from_spec(
    "hungarian",
    "A6:1 Á4:1 B3:2 C1:5 CS1:7 D3:2 E6:1 É3:3 F2:4 G3:2 GY2:4 H2:3 I3:1 Í1:5 J2:4 K6:1 "
    "L4:1 LY1:8 M3:1 N4:1 NY1:5 O3:1 Ó3:2 Ö2:4 Ő1:7 P2:4 R4:1 S3:1 SZ2:3 T5:1 TY1:10 "
    "U2:4 Ú1:7 Ü2:4 Ű1:7 V2:3 Z2:4 ZS1:8",
    blanks=2,
)
# Romanian: no tiles for Ă Â Î Ș Ț (played as A, I, S, T), nor K Q W Y.
ROMANIAN = TileSet.from_spec(
    "romanian",
    "A11:1 B2:9 C5:1 D4:2 E9:1 F2:8 G2:9 H1:10 I10:1 J1:10 L4:1 M3:4 N6:1 O5:1 P4:2 R7:1 "
    "S5:1 T7:1 U6:1 V2:8 X1:10 Z1:10",
    blanks=2,
)
GREEK = TileSet.from_spec(
    "greek",
    "Α12:1 Β1:8 Γ2:4 Δ2:4 Ε8:1 Ζ1:10 Η7:1 Θ1:10 Ι8:1 Κ4:2 Λ3:3 Μ3:3 Ν6:1 Ξ1:10 Ο9:1 Π4:2 "
    "Ρ5:2 Σ7:1 Τ8:1 Υ4:2 Φ1:8 Χ1:8 Ψ1:10 Ω3:3",
    blanks=2,
)
RUSSIAN = TileSet.from_spec(
    "russian",
    "А8:1 Б2:3 В4:1 Г2:3 Д4:2 Е8:1 Ё1:3 Ж1:5 З2:5 И5:1 Й1:4 К4:2 Л4:2 М3:2 Н5:1 О10:1 "
    "П4:2 Р5:1 С5:1 Т5:1 У4:2 Ф1:10 Х1:5 Ц1:5 Ч1:5 Ш1:8 Щ1:10 Ъ1:10 Ы2:4 Ь2:3 Э1:8 Ю1:8 "
    "Я2:3",
    blanks=2,
)

TILE_SETS: dict[str, TileSet] = {
    t.name: t
    for t in (
        ENGLISH,
        SUPER_ENGLISH,
        WORDS_MOBILE,
        LEXULOUS,
        GERMAN,
        POLISH,
        FRENCH,
        SPANISH,
        CATALAN,
        ITALIAN,
        DUTCH,
        PORTUGUESE,
        NORWEGIAN,
        SWEDISH,
        DANISH,
        BULGARIAN,
        UKRAINIAN,
        CZECH,
        SLOVAK,
        HUNGARIAN,
        ROMANIAN,
        GREEK,
        RUSSIAN,
    )
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
