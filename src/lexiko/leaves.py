"""Leave values: what the tiles kept after a move are worth, learned by self-play.

A `LeaveTable` maps a *leave* (the tiles kept, in rack order: letters by code,
blanks last, as `rack_sort` writes them) to a number of
points. The static player adds it to each move's score (``equity = score + leave``) and
so prefers, say, 30 points keeping ``ERS`` over 32 points keeping ``UUV``.

A table holds the leaves seen often enough in training and, for every other leave, a
fallback model: a value per tile and copy (the second E is worth less than the first),
a term for the balance of vowels and consonants, and a constant. The table shipped with
lexiko (``lexiko/data/leaves-english.tsv.gz``) was trained by
`lexiko.training.train` on lexiko's own self-play games; no third-party table or
figure went into it.

>>> t = LeaveTable.default()
>>> t.value("?") > t.value("S") > t.value("") == 0.0 > t.value("V") > t.value("Q")
True
>>> t.value("EE") < 2 * t.value("E")
True
>>> t.value("AEINST?") == t((1, 5, 9, 14, 19, 20, 0))  # text or codes in rack order
True
"""

from __future__ import annotations

import mmap
import os
import unicodedata
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from lexiko import stamps
from lexiko.errors import LexikoError
from lexiko.files import write_file
from lexiko.tiles import ENGLISH, TileSet, tile_set

if TYPE_CHECKING:  # pathlib is imported where a path is made: the playing start-up never needs it
    from pathlib import Path

__all__ = ["Leave", "LeaveTable", "DATA_FILE", "MAX_TABLE_BYTES"]

MAX_TABLE_BYTES = 200_000_000
"""The largest leave-table file `LeaveTable.load` reads (every leave of a 7-tile rack
of the largest tile set as CSV takes well under a tenth of it)."""

Leave = tuple[int, ...]
"""Tile codes kept, in rack order (letters by code, blanks (0) last)."""

Packed = bytes | mmap.mmap
"""A table as the kernel reads it (`LeaveTable.packed`): built, or mapped from the
cache folder."""

DATA_FILE = "leaves-english.tsv.gz"
"""Name of the shipped English table in the package folder ``lexiko/data``."""

_FORMAT_LINE = "# lexiko leave table 1"
_VOWELS = frozenset("AEIOU")
# vowels of other alphabets, by their own face (Cyrillic Й decomposes to И but is no vowel)
_OTHER_VOWELS = frozenset("ÆØΑΕΗΙΟΥΩАЕЁИОУЫЭЮЯЄІЇ")
MAX_COPY_TERMS = 4
"""The fallback model values the copies of a tile: 1st, 2nd, 3rd, and 4th and beyond."""
_MEMO_LIMIT = 2_000_000  # unseen leaves whose fallback value is remembered


def _is_vowel(face: str) -> bool:
    if face in _OTHER_VOWELS:
        return True
    base = unicodedata.normalize("NFD", face)[:1].upper()
    return base in _VOWELS


@lru_cache(maxsize=16)
def vowel_flags(tiles: TileSet) -> tuple[bool, ...]:
    """Whether each letter code of ``tiles`` is a vowel (A, E, I, O, U, accents aside;
    Æ Ø and the Greek and Cyrillic vowels), indexed by code; the blank (code 0) is not.
    The leave tables' model and the static player's opening adjustment count vowels by
    these flags.

    >>> from lexiko.tiles import ENGLISH
    >>> flags = vowel_flags(ENGLISH)
    >>> [flags[ENGLISH.code(x)] for x in "AYZ"], flags[0]
    ([True, False, False], False)
    """
    return (False, *(_is_vowel(f) for f in tiles.letters))


class _Memo(dict[Leave, float]):
    """The stored values, plus the fallback value of every other leave looked up so far."""

    __slots__ = ("table", "base_size")

    def __init__(self, table: LeaveTable, values: Mapping[Leave, float]) -> None:
        super().__init__(values)
        self.table = table
        self.base_size = len(values)

    def __missing__(self, leave: Leave) -> float:
        if len(self) > self.base_size + _MEMO_LIMIT:
            self.clear()
            self.update(self.table._values)
        v = self[leave] = self.table.fallback(leave)
        return v


class LeaveTable:
    """Value in points of the tiles kept after a move, for one tile set.

    ``values`` maps leaves (codes in rack order) to points; every other leave gets
    `fallback`: ``offset`` plus, for each tile code, ``tile_values[code][k - 1]``
    for its k-th copy (the last entry for further copies), plus
    ``balance[(vowels, consonants)]`` (blanks count as neither).

    Calling the table with a leave in rack order is a dictionary look-up (this is the
    ``leaves=`` argument of `lexiko.movegen.generate`); `lookup` is the same
    without the method call. `value` also takes text (``"ERS?"``) in any order.

    >>> from lexiko.tiles import ENGLISH
    >>> t = LeaveTable(ENGLISH, {(5, 19): 9.5}, tile_values={19: [8.0, 1.0]}, offset=-1.0)
    >>> t.value("SE"), t.value("S"), t.value("SS"), t.value("SSS")
    (9.5, 7.0, 8.0, 9.0)
    >>> len(t), t
    (1, <LeaveTable english: 1 leaves>)
    """

    def __init__(
        self,
        tiles: TileSet = ENGLISH,
        values: Mapping[Leave, float] | None = None,
        *,
        tile_values: Mapping[int, Sequence[float]] | None = None,
        balance: Mapping[tuple[int, int], float] | None = None,
        offset: float = 0.0,
        meta: Mapping[str, str] | None = None,
    ) -> None:
        self.tiles = tiles
        self._values: dict[Leave, float] = {tuple(k): float(v) for k, v in (values or {}).items()}
        self.tile_values: dict[int, tuple[float, ...]] = {
            int(c): tuple(float(x) for x in vs) for c, vs in (tile_values or {}).items() if vs
        }
        self.balance: dict[tuple[int, int], float] = {
            (int(a), int(b)): float(v) for (a, b), v in (balance or {}).items()
        }
        self.offset = float(offset)
        self.meta: dict[str, str] = dict(meta or {})
        self._vowel = list(vowel_flags(tiles))
        self._terms: dict[tuple[int, int], tuple[float, ...]] = {}  # (code, copies): what fallback adds
        self._memo = _Memo(self, self._values)
        self._packed: Packed | None | Literal[False] = False  # not built yet
        self.lookup: Callable[[Leave], float] = self._memo.__getitem__
        """``lookup(leave)``: the value of a leave in rack order (a bound dict method)."""

    # -- values ------------------------------------------------------------------

    def __call__(self, leave: Leave) -> float:
        return self._memo[leave]

    def value(self, leave: str | Iterable[int]) -> float:
        """Value of a leave given as text (``"ERS?"``) or codes, in any order."""
        codes = self.tiles.parse(leave) if isinstance(leave, str) else tuple(leave)
        return self._memo[self.tiles.rack_sort(codes)]

    def fallback(self, leave: Iterable[int]) -> float:
        """The model's value of a leave, ignoring the stored values."""
        total = self.offset
        vowels = consonants = 0
        counts: dict[int, int] = {}  # by code, in order of first appearance (as Counter)
        for code in leave:
            counts[code] = counts.get(code, 0) + 1
        vowel, terms = self._vowel, self._terms
        for code, k in counts.items():
            if code:
                if vowel[code]:
                    vowels += k
                else:
                    consonants += k
            t = terms.get((code, k))
            if t is None:
                t = terms[code, k] = self._copy_terms(code, k)
            for x in t:  # the same additions in the same order: the same float
                total += x
        return total + self.balance.get((vowels, consonants), 0.0)

    def _copy_terms(self, code: int, k: int) -> tuple[float, ...]:
        """What `fallback` adds for ``k`` copies of ``code``: the sum of the first
        ``k`` values, then, past the last, that one for every further copy."""
        vs = self.tile_values.get(code)
        if not vs:
            return ()
        if k > len(vs):
            return (sum(vs[:k]), (k - len(vs)) * vs[-1])
        return (sum(vs[:k]),)

    @staticmethod
    def of(leaves: object) -> LeaveTable | None:
        """The table ``leaves`` is, or whose `lookup` it is; None for anything else.

        >>> t = LeaveTable.default()
        >>> LeaveTable.of(t) is t and LeaveTable.of(t.lookup) is t and LeaveTable.of(len) is None
        True
        """
        if isinstance(leaves, LeaveTable):
            return leaves
        owner = getattr(leaves, "__self__", None)
        return owner.table if isinstance(owner, _Memo) else None

    def packed(self) -> Packed | None:
        """The table as the compiled kernel reads it (`lexiko.kernel.leave_map`): values for
        every sub-rack of a rack without a Python call each. Built once and kept: a table
        is not to be changed once used. None without the kernel, or for a table the
        format cannot hold (a stored leave of more than 10 tiles, codes above 63).

        >>> t = LeaveTable.default()
        >>> t.packed() is None or t.packed() is t.packed()
        True
        """
        if self._packed is False:
            self._packed = _pack(self)
        return self._packed

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, leave: object) -> bool:
        return leave in self._values

    def items(self) -> Iterator[tuple[Leave, float]]:
        """The stored leaves and their values."""
        return iter(self._values.items())

    def __repr__(self) -> str:
        return f"<LeaveTable {self.tiles.name}: {len(self._values):,} leaves>"

    # -- files -------------------------------------------------------------------

    def dumps(self) -> str:
        """The table as text (the format `save` writes, before compression).

        Lines: ``#`` comments (``#@key<TAB>value`` metadata), ``=offset<TAB>x``,
        ``=tile<TAB>face<TAB>v1<TAB>v2...`` (``?`` the blank), ``=balance<TAB>vowels<TAB>
        consonants<TAB>x``, then one ``leave<TAB>value`` per stored leave (``-`` the
        empty leave), shortest first.
        """
        t = self.tiles
        out = [
            _FORMAT_LINE,
            "# value in points of the tiles kept after a move; lines '=' hold the model for other leaves",
            f"#@tiles\t{t.name}",
        ]
        out += [f"#@{k}\t{v}" for k, v in sorted(self.meta.items()) if k != "tiles"]
        out.append(f"=offset\t{self.offset:.3f}")
        for code in sorted(self.tile_values, key=lambda c: (c == 0, c)):
            face = t.format((code,))
            out.append("\t".join(["=tile", face, *(f"{x:.3f}" for x in self.tile_values[code])]))
        for (v, c), x in sorted(self.balance.items()):
            out.append(f"=balance\t{v}\t{c}\t{x:.3f}")
        for leave, x in sorted(self._values.items(), key=lambda kv: (len(kv[0]), _order(kv[0]))):
            out.append(f"{t.format(leave) or '-'}\t{x:.2f}")
        return "\n".join(out) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the table; gzip-compressed when the name ends in ``.gz``; as KLV2 or CSV
        for other engines when it ends in ``.klv2`` or ``.csv`` (the stored leaves only:
        the model for other leaves has no place there). The file is written beside its
        place and renamed, so a failed write (a full disk) never leaves half a table
        under the name; only over a file (`lexiko.files.write_file`): a device, a named
        pipe or a folder is a `LexikoError`, and a link stays a link."""
        from pathlib import Path

        from lexiko import leave_formats

        p = Path(path)
        stored = [(k, v) for k, v in self._values.items() if k]
        if p.suffix == ".klv2":
            data = leave_formats.write_klv2(stored, self.tiles.format)
        elif p.suffix == ".csv":
            data = leave_formats.write_csv((self.tiles.format(k), v) for k, v in stored).encode("utf-8")
        else:
            data = self.dumps().encode("utf-8")
        if p.suffix == ".gz":
            import gzip  # here, not at the top: a process that plays in the kernel never needs it

            data = gzip.compress(data, compresslevel=9, mtime=0)
        write_file(p, data)

    def to_bytes(self) -> bytes:
        """The table as compressed bytes (what `from_bytes` reads)."""
        import gzip  # here, not at the top: a process that plays in the kernel never needs it

        return gzip.compress(self.dumps().encode("utf-8"), compresslevel=6, mtime=0)

    @classmethod
    def from_bytes(cls, data: bytes, tiles: TileSet | None = None, source: str = "<bytes>") -> LeaveTable:
        """Read a table from bytes, compressed or not; raises
        `LexikoError` for bytes that are not one."""
        try:
            if data[:2] == b"\x1f\x8b":
                import gzip  # here, not at the top: a process that plays in the kernel never needs it

                data = gzip.decompress(data)
            text = data.decode("utf-8")
        except (OSError, EOFError, zlib.error, UnicodeDecodeError) as e:
            raise LexikoError(f"{source}: not a leave table ({e})") from None
        return cls.loads(text, tiles, source)

    @classmethod
    def load(cls, path: str | os.PathLike[str], tiles: TileSet | None = None) -> LeaveTable:
        """Read a table written by `save` (compressed or not). ``tiles`` defaults to
        the tile set the file names; raises `LexikoError` naming the
        line for a malformed file, or for one larger than `MAX_TABLE_BYTES` (an endless
        device such as ``/dev/zero`` is refused once that much is read)."""
        from pathlib import Path

        p = Path(path)
        try:
            with open(p, "rb") as f:
                data = f.read(MAX_TABLE_BYTES + 1)
        except OSError as e:
            raise LexikoError(f"cannot read leave table {p}: {e.strerror}") from None
        except ValueError:  # a NUL in the name
            raise LexikoError(f"cannot read leave table {str(p)!r}: a file name holds no NUL character") from None
        if len(data) > MAX_TABLE_BYTES:
            raise LexikoError(f"{p} holds more than a leave table: a table has at most {MAX_TABLE_BYTES:,} bytes")
        if p.suffix.lower() in (".klv2", ".klv", ".csv"):
            return cls._from_other_engine(data, p, tiles or ENGLISH)
        return cls.from_bytes(data, tiles, str(p))

    @classmethod
    def _from_other_engine(cls, data: bytes, p: Path, tiles: TileSet) -> LeaveTable:
        """A KLV2, KLV or CSV file (`lexiko.leave_formats`): its leaves as stored
        values; any other leave is worth 0, as in the engines that write them."""
        from lexiko import leave_formats

        values: dict[Leave, float] = {}
        if p.suffix.lower() == ".csv":
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise LexikoError(f"{p}: not a CSV leave file (not UTF-8 text)") from None
            for leave, v in leave_formats.read_csv(text, str(p)):
                values[tiles.rack_sort(tiles.parse(leave))] = v
        else:
            for codes, v in leave_formats.read_klv(data, str(p)):
                if any(c > tiles.size for c in codes):
                    raise LexikoError(f"{p}: tile {max(codes)} is not in the {tiles.name} tile set")
                values[tiles.rack_sort(codes)] = v
        return cls(tiles, values, meta={"source": p.name})

    @classmethod
    def loads(
        cls, text: str, tiles: TileSet | None = None, source: str = "<text>", *, values: bool = True
    ) -> LeaveTable:
        """Read a table from the text `dumps` writes (``values=False``: its model
        only, the stored leaves left out)."""
        lines = text.splitlines()
        if not lines or lines[0].strip() != _FORMAT_LINE:
            raise LexikoError(f"{source}: line 1: not a lexiko leave table (expected {_FORMAT_LINE!r})")
        meta: dict[str, str] = {}
        body = len(lines)  # index of the first line after the header
        for j in range(1, len(lines)):
            line = lines[j]
            if not line.startswith("#"):
                body = j
                break
            if line.startswith("#@") and "\t" in line:
                k, v = line[2:].split("\t", 1)
                meta[k] = v
        if tiles is None:
            try:
                tiles = tile_set(meta.get("tiles", "english"))
            except ValueError as e:
                raise LexikoError(f"{source}: {e}") from None
        elif meta.get("tiles", tiles.name) != tiles.name and _letters_of(meta["tiles"]) != tiles.letters:
            raise LexikoError(f"{source}: the table is for {meta['tiles']} tiles, not {tiles.name}")
        parse = _leave_parser(tiles)
        offset = 0.0
        tile_values: dict[int, list[float]] = {}
        balance: dict[tuple[int, int], float] = {}
        stored: dict[Leave, float] = {}
        n = body
        try:
            while n < len(lines):
                line = lines[n]
                n += 1  # the line number, counted from 1
                if not line or line.startswith("#"):
                    continue
                if not values and not line.startswith("="):
                    break  # the model comes first
                if line.startswith("="):
                    parts = line.split("\t")
                    if parts[0] == "=offset":
                        offset = float(parts[1])
                    elif parts[0] == "=tile":
                        tile_values[tiles.parse_token(parts[1])] = [float(x) for x in parts[2:]]
                    elif parts[0] == "=balance":
                        balance[int(parts[1]), int(parts[2])] = float(parts[3])
                    else:
                        raise ValueError(f"unknown model line {parts[0]!r}")
                    continue
                leave, _, x = line.partition("\t")
                stored[parse(leave)] = float(x)
        except (ValueError, IndexError, LexikoError) as e:
            raise LexikoError(f"{source}: line {n}: {e}") from None
        return cls(tiles, stored, tile_values=tile_values, balance=balance, offset=offset, meta=meta)

    @classmethod
    def default(cls, tiles: TileSet = ENGLISH) -> LeaveTable:
        """The table shipped with lexiko for ``tiles``: the trained English table for a
        tile set with the English letters, else a table of zeros (the static player then
        plays like the greedy one; train a table with `train`). Loaded once per
        process and shared: do not change it.

        >>> LeaveTable.default() is LeaveTable.default()
        True
        """
        return _default_table(tiles)

    @classmethod
    def zeros(cls, tiles: TileSet = ENGLISH) -> LeaveTable:
        """A table valuing every leave 0 (score alone decides, as for the greedy player)."""
        return cls(tiles)


def _letters_of(name: str) -> tuple[str, ...] | None:
    try:
        return tile_set(name).letters
    except ValueError:
        return None


def _order(leave: Leave) -> tuple[int, ...]:
    return tuple(c if c else 255 for c in leave)


def _leave_parser(tiles: TileSet) -> Callable[[str], Leave]:
    """Text of a leave (``-`` empty) to codes in rack order; fast for one-character faces."""
    if all(len(f) == 1 for f in tiles.letters):
        codes = {f: i + 1 for i, f in enumerate(tiles.letters)}
        codes["?"] = 0

        def fast(text: str) -> Leave:
            if text == "-":
                return ()
            try:
                t = sorted(codes[ch] for ch in text)
            except KeyError:
                raise ValueError(f"{text!r} is not a leave of {tiles.name} tiles") from None
            if t and t[0] == 0:
                k = t.count(0)
                return (*t[k:], *t[:k])
            return tuple(t)

        return fast

    def slow(text: str) -> Leave:
        if text == "-":
            return ()
        codes = tiles.parse(text)
        if any(c > tiles.size for c in codes):
            raise ValueError(f"{text!r} is not a leave (lower case means a designated blank)")
        return tiles.rack_sort(codes)

    return slow


_PACK_K = 32  # the kernel's LM_K, LM_B, LM_MAXLEN
_PACK_B = 33
_PACK_MAXLEN = 10


class _Shipped(LeaveTable):
    """A table read from bytes on demand: the model at once, the stored values when
    first needed (a look-up from Python, ``items``, ``len``), and the packed form from
    the lexicon cache folder (`lexiko.lexicon.cache_dir`) when a process built it
    before. A process that plays only in the kernel (self-play, a pool's worker) then
    maps the packed table in a millisecond instead of parsing 370,000 leaves in about a second."""

    def __init__(self, data: bytes, tiles: TileSet, source: str, key: str) -> None:
        model = LeaveTable.loads(_gzip_head(data), tiles, source, values=False)
        super().__init__(
            model.tiles, tile_values=model.tile_values, balance=model.balance, offset=model.offset, meta=model.meta
        )
        del self._values, self._memo, self.lookup  # read by __getattr__ when first needed
        self._data, self._source, self._key = data, source, key

    def __getattr__(self, name: str) -> object:  # only for attributes not set yet
        if name not in ("_values", "_memo", "lookup"):
            raise AttributeError(name)
        import gzip  # here, not at the top: a process that plays in the kernel never needs it

        text = gzip.decompress(self._data).decode("utf-8")
        self._values = LeaveTable.loads(text, self.tiles, self._source)._values
        self._memo = _Memo(self, self._values)
        self.lookup = self._memo.__getitem__
        return getattr(self, name)

    def packed(self) -> Packed | None:
        if self._packed is False:
            self._packed = _cached_pack(self, self._key)
        return self._packed

    def __reduce__(self) -> tuple[object, tuple[TileSet]]:
        """Sent to another process as what it is, the shipped table (not its mapped pages)."""
        return (_default_table, (self.tiles,))


def _cached_pack(table: LeaveTable, key: str) -> Packed | None:
    """``_pack(table)``, kept in the cache folder under ``key`` and mapped read-only
    when found there (a folder that cannot be written only costs the time to build)."""
    from lexiko import kernel
    from lexiko.lexicon import cache_folder, write_cache_file

    path = os.path.join(cache_folder(), f"leaves-{key}.bin")
    if kernel.available():
        try:
            with open(path, "rb") as f:
                m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            kernel.leave_values(bytes(64), m)  # the kernel's own check of the map's head and size
            return m
        except (OSError, ValueError):
            pass
    data = _pack(table)
    if data is not None:
        write_cache_file(path, data)
    return data


def _pack(table: LeaveTable) -> bytes | None:
    """`LeaveTable.packed`, built."""
    from array import array

    from lexiko import kernel

    if not kernel.available():
        return None
    if any(len(k) > _PACK_MAXLEN or any(not 0 <= c < 64 for c in k) for k in table._values):
        return None
    if any(not 0 <= c < 64 for c in table.tile_values) or any(a >= _PACK_B or b >= _PACK_B for a, b in table.balance):
        return None
    keys = array("Q")
    vals = array("d")
    for leave, v in table._values.items():
        key = 1
        for c in sorted(leave):
            key = key << 6 | c
        keys.append(key)
        vals.append(v)
    bits = max(10, (2 * len(keys)).bit_length())
    terms = array("d", bytes(8 * 64 * (_PACK_K + 1) * 2))
    for code in table.tile_values:
        for k in range(1, _PACK_K + 1):
            t = table._copy_terms(code, k)
            for j, x in enumerate(t):
                terms[(code * (_PACK_K + 1) + k) * 2 + j] = x
    balance = array("d", bytes(8 * _PACK_B * _PACK_B))
    for (v, c), x in table.balance.items():
        balance[v * _PACK_B + c] = x
    vowels = bytes(1 if i < len(table._vowel) and table._vowel[i] else 0 for i in range(64))
    return kernel.leave_map(keys, vals, bits=bits, offset=table.offset, vowels=vowels, terms=terms, balance=balance)


@lru_cache(maxsize=8)
def _default_table(tiles: TileSet) -> LeaveTable:
    if tiles.letters != ENGLISH.letters:
        return LeaveTable(tiles, meta={"note": "no trained table for these tiles: all zeros"})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", DATA_FILE)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:  # installed in a zip file, or broken
        data, path = _data_resource(), ""
    # the digest naming the packed cache file, recorded with the file's stamp (a warm
    # start does not hash 1.7 MB; see lexiko.stamps)
    from lexiko.lexicon import cache_folder

    folder = cache_folder()
    hit = stamps.recall(folder, "leaves-shipped", path) if path else None
    if hit is not None:
        key = hit[0]
    else:
        import hashlib

        key = hashlib.sha256(data).hexdigest()[:24]  # sha256 hashes faster than blake2b here
        if path:
            stamps.remember(folder, "leaves-shipped", path, [path], key)
    return _Shipped(data, tiles, f"lexiko/data/{DATA_FILE}", key)


def _data_resource() -> bytes:  # pragma: no cover - lexiko installed in a zip file, or broken
    from importlib import resources

    try:
        return (resources.files("lexiko") / "data" / DATA_FILE).read_bytes()
    except FileNotFoundError:
        raise LexikoError(f"the leave table lexiko/data/{DATA_FILE} is missing: reinstall lexiko") from None


def _gzip_head(data: bytes, chunk: int = 1 << 14) -> str:
    """The complete lines of a gzipped leave table up to its first stored leave (the
    header and the model, which come first), decompressing no more than that: a process
    that plays only in the kernel never reads the 370,000 leaves as text.

    >>> import gzip
    >>> _gzip_head(gzip.compress(b"# head\\n=offset\\t1.5\\nAB\\t2.0\\n"))
    '# head\\n=offset\\t1.5\\n'
    """
    d = zlib.decompressobj(wbits=31)
    text = b""
    rest = data
    while True:
        text += d.decompress(rest, chunk)
        rest = d.unconsumed_tail
        end = 0  # the end of the last line of the header and the model seen so far
        for line in text.split(b"\n")[:-1]:
            if line and not line.startswith((b"#", b"=")):
                return text[:end].decode("utf-8")
            end += len(line) + 1
        if d.eof or not rest:
            return text.decode("utf-8")
