"""The move generator: every legal play of a position, or the best few, with scores.

The hot loop runs in the compiled kernel, through `lexiko.kernel` (GADDAG walk over the
flat arc array of `lexiko.kwg`, cross-checks as bitmasks, incremental scoring).
A pure-Python reference generator with the same results, written independently (the
Appel-Jacobson algorithm on the DAWG half of the automaton), serves the tests and
platforms without a compiler; it is used, with a warning, when the kernel is missing.

A placement is listed once, in the canonical form of `lexiko.move.Place.normalized`
(the whole main word; a one-tile play across when it forms a word across). On an empty
board with a layout symmetric about its diagonal (all built-in layouts), only the across
plays are listed, the down plays being their mirror images, as other engines count
them: the opening rack AEINRST has 1,116 placements under TWL06. Candidates
come best first: by equity, then score, then a fixed order of the moves themselves
(placements by row, column, direction and tiles; then exchanges; then the pass).

>>> from lexiko.board import Board
>>> from lexiko.lexicon import Lexicon
>>> from lexiko.tiles import ENGLISH
>>> lex = Lexicon.from_words(["CAT", "ACT", "AT", "TA"])
>>> rack = ENGLISH.parse("CAT")
>>> best = generate(Board.empty(), rack, lex, best=2)
>>> [(c.notation(), c.score) for c in best]
[('8F ACT', 10), ('8F CAT', 10)]
>>> count_placements(Board.empty(), rack, lex)
10
"""

from __future__ import annotations

import math
import warnings
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Literal, cast

from lexiko import clabbers as _clabbers
from lexiko import kernel
from lexiko import kwg as _kwg
from lexiko.board import Board
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Move, Pass, Place
from lexiko.rules import TOURNAMENT, Rules
from lexiko.tiles import BLANK, ENGLISH, LETTER_MASK, Rack, TileSet

__all__ = [
    "Candidate",
    "LeaveValue",
    "Backend",
    "generate",
    "count_placements",
    "best_move",
    "reference_placements",
    "kernel_available",
    "sort_key",
]

LeaveValue = Callable[[tuple[int, ...]], float]
"""Value of the tiles kept: ``leave_value(leave)``, ``leave`` in rack order (letters by
code, blanks last, as `rack_sort` gives)."""

Backend = Literal["auto", "c", "python"]

KERNEL_MAX_SIZE = kernel.MAX_SIZE
"""Largest board side the compiled kernel handles (larger boards use the reference)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move with its score, its equity (score plus the value of the tiles kept, or the
    score alone without a leave table) and the tiles kept (rack order, blanks last)."""

    move: Move
    score: int
    equity: float
    leave: tuple[int, ...]

    def notation(self, tiles: TileSet = ENGLISH, board: Board | None = None) -> str:
        """The move in GCG notation (see `lexiko.move.Place.notation`)."""
        return self.move.notation(tiles, board)

    def __repr__(self) -> str:
        """The fields, the move in notation and the leave as letters (the default tile
        set's, as the move's repr: see `lexiko.move`), which evaluate back to an
        equal candidate.

        >>> Candidate(Place.parse("8D WINDY"), 32, 32.0, (1, 5))
        Candidate(move=Place.parse('8D WINDY'), score=32, equity=32.0, leave=Rack('AE'))
        """
        return (
            f"Candidate(move={self.move!r}, score={self.score!r}, equity={self.equity!r}, leave={Rack(self.leave)!r})"
        )


SortKey = tuple[float, int, int, int, int, bool, tuple[int, ...]]


def sort_key(c: Candidate) -> SortKey:
    """The order candidates are listed in (smallest first): equity and score descending,
    then placements by row, column, direction and tiles, exchanges by tiles, the pass."""
    m = c.move
    if isinstance(m, Place):
        return (-c.equity, -c.score, 0, m.row, m.col, m.down, m.tiles)
    if isinstance(m, Exchange):
        return (-c.equity, -c.score, 1, 0, 0, False, m.tiles)
    return (-c.equity, -c.score, 2, 0, 0, False, ())


# -- the compiled kernel (see lexiko.kernel) ------------------------------------------

kernel.register_classes(Place, Candidate, Exchange, Pass)
_warned = False


def kernel_available() -> bool:
    """Whether the compiled kernel was built (``pip install .`` with a C compiler).

    >>> isinstance(kernel_available(), bool)
    True
    """
    return kernel.available()


def _use_kernel(backend: Backend, board: Board) -> bool:
    global _warned
    if backend == "python":
        return False
    if backend == "c":
        if not kernel.available():
            raise RuntimeError("lexiko._kernel is not built: reinstall lexiko with a C compiler (pip install .)")
        if board.size > KERNEL_MAX_SIZE:
            raise ValueError(f"the compiled kernel handles boards up to {KERNEL_MAX_SIZE} squares a side")
        return True
    if backend != "auto":
        raise ValueError(f"backend must be 'auto', 'c' or 'python', not {backend!r}")
    if kernel.available():
        return len(board.cells) <= KERNEL_MAX_SIZE * KERNEL_MAX_SIZE  # the board is square
    if not _warned:
        _warned = True
        warnings.warn(
            "lexiko._kernel is not built; using the pure-Python move generator, which is "
            "dozens of times slower (reinstall lexiko with a C compiler: pip install .)",
            RuntimeWarning,
            stacklevel=3,
        )
    return False


# Whether best mode (``best=N``) searches by the word map (`lexiko.kernel.wordmap`:
# the lexicon's words by letter multiset; each group of plays of an anchor by first square
# and number of tiles is filled by looking up the rack's sub-racks of that size) rather
# than by the pruned GADDAG walk. Both give exactly the same moves (the tests compare
# them with this switch); the word map is faster. Racks of more than two blanks or of
# more than 2,048 sub-racks always take the walk.
WORDMAP = True

_CACHE_SIZE = 64
_values_cache: dict[int, tuple[TileSet, bytes]] = {}


def _values(tiles: TileSet) -> bytes:
    """Points of every board code 0..127 (blanks and unknown codes 0), for the reference."""
    hit = _values_cache.get(id(tiles))
    if hit is None or hit[0] is not tiles:
        vals = bytearray(128)
        for code in range(1, tiles.size + 1):
            vals[code] = tiles.value(code)
        hit = (tiles, bytes(vals))
        if len(_values_cache) > _CACHE_SIZE:
            _values_cache.clear()
        _values_cache[id(tiles)] = hit
    return hit[1]


def _check_rack(rack: Sequence[int], tiles: TileSet) -> None:
    letters = tiles.size
    for t in rack:
        if not (t == 0 or 1 <= t <= letters):
            raise ValueError(f"rack code {t!r} is not a tile of {tiles.name} (0 is a blank, letters 1..{letters})")
    if len(rack) > KERNEL_MAX_SIZE:
        raise ValueError(f"a rack holds at most {KERNEL_MAX_SIZE} tiles, not {len(rack)}")


def _rack_counts(rack: Sequence[int], tiles: TileSet) -> bytes:
    """The kernel's form of a rack: how many tiles of each code (64 bytes, blanks at 0);
    kept by rack (the same racks come back: a bot's, a simulation's, a script's)."""
    global _last_counts
    key: tuple[int, bytes] | None = None
    try:
        raw = bytes(rack)  # integers 0..255 only
    except (TypeError, ValueError):
        pass
    else:
        last = _last_counts  # the last rack asked: its tile set held, so compared by identity
        if last[0] is tiles and last[1] == raw:
            return last[2]
        key = (tiles.size, raw)
        hit = _counts_cache.get(key)
        if hit is not None:
            _last_counts = (tiles, raw, hit)
            return hit
    # checked by min and max (in C); anything amiss gets _check_rack's message
    if rack and not (0 <= min(rack) and max(rack) <= tiles.size and len(rack) <= KERNEL_MAX_SIZE):
        _check_rack(rack, tiles)
    counts = bytearray(64)
    try:
        for t in rack:
            counts[t] += 1
    except TypeError:  # not an integer: a 0.5 is not a tile
        _check_rack(rack, tiles)
        raise
    out = bytes(counts)
    if key is not None:
        if len(_counts_cache) >= 4096:
            _counts_cache.clear()
        _counts_cache[key] = out
        _last_counts = (tiles, key[1], out)
    return out


_counts_cache: dict[tuple[int, bytes], bytes] = {}
_last_counts: tuple[TileSet | None, bytes, bytes] = (None, b"", b"")


class _Rack:
    """A rack as counts per code, and the mixed-radix numbering of its sub-racks:
    the sub-rack keeping ``k[c]`` tiles of each code ``c`` has index
    ``sum(k[c] * radix[c])``, ``radix[c]`` being the product of ``count[d] + 1`` over
    the codes ``d < c`` on the rack (the layout the kernel's leave table uses)."""

    __slots__ = ("counts", "codes", "radix", "size", "full", "count")

    def __init__(self, rack: Sequence[int], tiles: TileSet) -> None:
        _check_rack(rack, tiles)
        counts = [0] * 64
        for t in rack:
            counts[t] += 1
        self.counts = counts
        self.count = len(rack)
        self.codes = sorted(set(rack))
        radix = [0] * 64
        size = 1
        for c in self.codes:
            radix[c] = size
            size *= counts[c] + 1
        self.radix = radix
        self.size = size
        self.full = size - 1

    def leave(self, index: int) -> tuple[int, ...]:
        """Tiles of a sub-rack, letters by code then blanks."""
        out: list[int] = []
        blanks = 0
        for c in self.codes:
            k = index // self.radix[c] % (self.counts[c] + 1)
            if c == 0:
                blanks = k
            else:
                out.extend([c] * k)
        out.extend([0] * blanks)
        return tuple(out)

    def removed(self, index: int) -> tuple[int, ...]:
        """Tiles not in the sub-rack, letters by code then blanks."""
        return self.leave(self.full - index)

    def table(self, leaves: LeaveValue) -> Sequence[float]:
        """Value of every sub-rack, by index (as `leave` numbers them): a list, or
        the kernel's doubles (it builds the sub-racks without Python tuple operations)."""
        if kernel.available():
            out = array("d")
            packed = _packed_table(leaves)
            if packed is not None:
                out.frombytes(kernel.leave_values(bytes(self.counts), packed))
            else:
                out.frombytes(kernel.leave_table(bytes(self.counts), leaves))
            return out
        counts = self.counts
        letters = tuple(counts[c] for c in self.codes if c)
        tiles = tuple(c for c in self.codes if c for _ in range(counts[c])) + (0,) * counts[0]
        return list(map(float, map(leaves, [take(tiles) for take in _sub_racks(letters, counts[0])])))


def _packed_table(leaves: LeaveValue) -> kernel.Blob | None:
    """The kernel's form of ``leaves`` when it is a `LeaveTable` or
    its ``lookup`` (`packed`), else None."""
    hit = _packed_cache.get(id(leaves))
    if hit is not None and hit[0] is leaves:
        return hit[1]
    table = LeaveTable.of(leaves)
    packed = table.packed() if table is not None else None
    if packed is not None:  # a table's packed form is made once and kept (LeaveTable.packed)
        if len(_packed_cache) > _CACHE_SIZE:
            _packed_cache.clear()
        _packed_cache[id(leaves)] = (leaves, packed)
    return packed


_packed_cache: dict[int, tuple[LeaveValue, kernel.Blob]] = {}


_SubRack = Callable[[tuple[int, ...]], tuple[int, ...]]


def _one_tile(i: int) -> _SubRack:
    return lambda tiles: (tiles[i],)


def _no_tile(tiles: tuple[int, ...]) -> tuple[int, ...]:
    return ()


_sub_rack_cache: dict[tuple[tuple[int, ...], int], list[_SubRack]] = {}


def _sub_racks(letters: tuple[int, ...], blanks: int) -> list[_SubRack]:
    """For racks with these numbers of copies of their letters (by code) and of blanks,
    one function per sub-rack, by index, taking its tiles out of the rack in rack order
    (letters by code, then blanks): mostly an ``operator.itemgetter``, so that a rack's
    128 sub-racks cost 128 calls in C. Racks of a shape share them (7 tiles: 64 shapes)."""
    key = (letters, blanks)
    hit = _sub_rack_cache.get(key)
    if hit is not None:
        return hit
    starts = []  # where each letter's copies start in the rack, then the blanks
    at = 0
    for k in letters:
        starts.append(at)
        at += k
    digits = [(at, blanks)] if blanks else []  # (start, copies), least significant first
    digits += zip(starts, letters, strict=True)
    out: list[_SubRack] = []
    for index in range(math.prod(k + 1 for _, k in digits)):
        kept: list[int] = []
        for start, k in digits:
            kept += range(start, start + index % (k + 1))
            index //= k + 1
        kept.sort()  # rack order
        if len(kept) >= 2:
            out.append(cast(_SubRack, itemgetter(*kept)))
        elif kept:
            out.append(_one_tile(kept[0]))
        else:
            out.append(_no_tile)
    if len(_sub_rack_cache) > 4096:
        _sub_rack_cache.clear()
    _sub_rack_cache[key] = out
    return out


# -- public API --------------------------------------------------------------------


def _check(board: Board, lexicon: Lexicon, rules: Rules) -> None:
    lt, bt = lexicon.tiles, board.tiles
    if lt is not bt and lt.letters != bt.letters:
        raise ValueError(f"the lexicon spells {lt.name} tiles, the board holds {bt.name} tiles")


def _first_min(board: Board, rules: Rules) -> int:
    return rules.first_play_min_tiles if board.is_empty else 1


def _directions(board: Board, down_openings: bool = False) -> int:
    """2, or 1 on an empty board whose layout is symmetric about its main diagonal: the
    down plays are then mirror images of the across plays and are not listed (as other
    engines count openings; every built-in layout is symmetric)."""
    if down_openings or not board.is_empty:
        return 2
    return kernel.LayoutData.of(board.layout).first_dirs


def _kernel_moves(
    board: Board,
    counts: bytes,
    lexicon: Lexicon,
    rules: Rules,
    best_n: int | None,
    leaves: LeaveValue | None,
    down_openings: bool,
    others: int,
) -> Sequence[Candidate]:
    """Every move (``best_n`` None) or the best ``best_n``, by the kernel; ``others``:
    the moves besides the placements (see `lexiko.kernel.generate`)."""
    mode: Literal[1, 2] = kernel.ALL if best_n is None else kernel.BEST
    clabbers = rules.variant == "clabbers"
    if clabbers:
        kwg = _clabbers.alphagram_kwg(lexicon)
        prune, wordmap = None, None
    else:
        kwg = lexicon.kwg
        prune = kernel.prune_data(kwg) if best_n is not None else None
        # the word map searches best mode, and lists every play of an opening
        wordmap = kernel.wordmap_data(kwg) if WORDMAP and (best_n is not None or board.is_empty) else None
    table: array[float] | None = None
    packed = None
    if leaves is not None:
        packed = _packed_table(leaves)
        if packed is None:
            table = array("d", kernel.leave_table(counts, leaves))
    return kernel.generate(
        kwg,
        board,
        kernel.LayoutData.of(board.layout),
        kernel.PlayRules.of(rules, board.tiles),
        counts,
        mode=mode,
        directions=_directions(board, down_openings),
        best_n=best_n or 0,
        leave_values=table,
        leave_map=packed,
        prune=prune,
        wordmap=wordmap,
        clabbers=clabbers,
        others=others,
    )


_calls: dict[tuple[int, int, int, int, int], tuple[object, ...]] = {}
_last_call: tuple[object, ...] = (None,) * 7


def _holds(entry: tuple[object, ...], parts: tuple[object, ...]) -> bool:
    """Whether a kept call was made for these very objects (lexicon, layout, tile set,
    rules, leaves, automaton): held by the entry, so compared by identity."""
    return (
        entry[0] is parts[0]
        and entry[1] is parts[1]
        and entry[2] is parts[2]
        and entry[3] is parts[3]
        and entry[4] is parts[4]
        and entry[5] is parts[5]
    )


def _best_call(board: Board, lexicon: Lexicon, rules: Rules, leaves: LeaveValue | None) -> kernel.BestCall | None:
    """The kernel's best mode with this lexicon's automaton, the board's layout and tile
    set, the rules and the packed leave table fixed (`lexiko.kernel.best_call`), kept
    for the next call; None when the call is not one it takes (Clabbers; leaves that are
    not a `LeaveTable`)."""
    global _last_call
    layout, tiles = board.layout, board.tiles
    kwg = lexicon.kwg
    parts = (lexicon, layout, tiles, rules, leaves, kwg)
    if _holds(_last_call, parts):  # the last one asked for (a loop asks for the same)
        return cast(kernel.BestCall, _last_call[6])
    key = (id(lexicon), id(layout), id(tiles), id(rules), id(leaves))
    hit = _calls.get(key)
    if hit is not None and _holds(hit, parts):
        _last_call = hit
        return cast(kernel.BestCall, hit[6])
    if rules.variant == "clabbers":
        return None
    packed = _packed_table(leaves) if leaves is not None else None
    if leaves is not None and packed is None:
        return None
    call = kernel.best_call(kwg, kernel.LayoutData.of(layout), kernel.PlayRules.of(rules, tiles), packed)
    if len(_calls) >= 8:  # each holds its lexicon alive: a few
        _calls.clear()
    _calls[key] = _last_call = (lexicon, layout, tiles, rules, leaves, kwg, call)
    return call


def generate(
    board: Board,
    rack: Sequence[int],
    lexicon: Lexicon,
    rules: Rules = TOURNAMENT,
    *,
    bag_count: int = 100,
    best: int | None = None,
    leaves: LeaveValue | None = None,
    placements_only: bool = False,
    down_openings: bool = False,
    backend: Backend = "auto",
) -> Sequence[Candidate]:
    """Every legal move of ``rack`` on ``board``, best first (see `sort_key`).

    Placements form only words of ``lexicon``; exchanges (every distinct choice of
    tiles, at most ``bag_count`` of them) are listed while ``bag_count`` is at least
    ``rules.exchange_min_bag``; the pass is always listed. ``placements_only`` leaves
    out exchanges and the pass. ``best=N`` returns only the first N (the kernel keeps
    a bounded heap, skips the anchors and branches whose bounds cannot make the list,
    and builds N objects). ``leaves`` values the tiles kept; equity is
    the score plus that value, or the score alone. ``backend``: ``"c"`` the compiled
    kernel, ``"python"`` the reference, ``"auto"`` the kernel when built.
    The kernel returns its moves packed (a `lexiko.kernel.MoveList`): each
    `Candidate` is made when it is first read, so that reading a few of 40,000 costs a
    few objects; it is a read-only sequence equal to the list of its candidates (a slice
    or ``list(...)`` gives a list). The reference returns a list.
    ``down_openings`` also lists the down plays of an opening on a layout symmetric
    about its diagonal (left out by default: they mirror the across plays, score the
    same and other engines do not count them).

    Premium squares and letter values come from the board; bingo bonus and the first
    play's minimum number of tiles from ``rules``. With ``rules.variant == "clabbers"``
    every word formed need only be an anagram of a word of ``lexicon``; every distinct
    arrangement of tiles on squares is a move (see `lexiko.clabbers`).
    """
    _check(board, lexicon, rules)
    if best is not None and best <= 0:
        return []
    if _use_kernel(backend, board):
        # the kernel lists the exchanges and the pass too, and ranks them with the rest
        if placements_only:
            others = kernel.PLACEMENTS_ONLY
        elif bag_count >= rules.exchange_min_bag and bag_count >= 0:
            others = bag_count
        else:
            others = kernel.PASS_ONLY
        counts = _rack_counts(rack, board.tiles)
        if best is not None:
            call = _best_call(board, lexicon, rules, leaves)
            if call is not None:
                # the lexicon's search data asked each time (kept by lexiko.kernel)
                kwg = lexicon.kwg
                wordmap = kernel.wordmap_data(kwg) if WORDMAP else None
                return call(
                    board.cells, board.is_empty, counts, down_openings, best, others, kernel.prune_data(kwg), wordmap
                )
        return _kernel_moves(board, counts, lexicon, rules, best, leaves, down_openings, others)
    r = _Rack(rack, board.tiles)
    table = r.table(leaves) if leaves is not None else None
    out = _reference_candidates(board, r, lexicon, rules, table, down_openings)
    if best is not None:
        del out[best:]
    if placements_only:
        return out
    # the equity a move needs to make the list
    floor = out[best - 1].equity if best is not None and len(out) >= best else None
    extra = _other_moves(r, rules, bag_count, table, floor)
    if extra:
        out = _merge(out, sorted(extra, key=sort_key))
        if best is not None:
            del out[best:]
    return out


def count_placements(
    board: Board,
    rack: Sequence[int],
    lexicon: Lexicon,
    rules: Rules = TOURNAMENT,
    backend: Backend = "auto",
    *,
    down_openings: bool = False,
) -> int:
    """Number of legal placements (no exchanges, no pass), without building a move;
    ``down_openings`` as for `generate`.

    >>> from lexiko.tiles import ENGLISH
    >>> count_placements(Board.empty(), ENGLISH.parse("QI"), Lexicon.from_words(["QI"]))
    2
    """
    _check(board, lexicon, rules)
    if _use_kernel(backend, board):
        clabbers = rules.variant == "clabbers"
        return kernel.generate(
            _clabbers.alphagram_kwg(lexicon) if clabbers else lexicon.kwg,
            board,
            kernel.LayoutData.of(board.layout),
            kernel.PlayRules.of(rules, board.tiles),
            _rack_counts(rack, board.tiles),
            mode=kernel.COUNT,
            directions=_directions(board, down_openings),
            clabbers=clabbers,
        )
    return len(_reference(board, _Rack(rack, board.tiles), lexicon, rules, down_openings))


def best_move(
    board: Board,
    rack: Sequence[int],
    lexicon: Lexicon,
    rules: Rules = TOURNAMENT,
    *,
    bag_count: int = 100,
    leaves: LeaveValue | None = None,
    placements_only: bool = False,
    backend: Backend = "auto",
) -> Candidate:
    """The first candidate of `generate` (the pass when nothing else is legal).

    Raises ValueError when there is no move at all (only with ``placements_only``).

    >>> from lexiko.tiles import ENGLISH
    >>> best_move(Board.empty(), ENGLISH.parse("AQI"), Lexicon.from_words(["QI", "QAT"])).notation()
    '8G QI'
    """
    found = generate(
        board,
        rack,
        lexicon,
        rules,
        bag_count=bag_count,
        best=1,
        leaves=leaves,
        placements_only=placements_only,
        backend=backend,
    )
    if not found:
        raise ValueError("no legal move")
    return found[0]


def _other_moves(
    r: _Rack, rules: Rules, bag_count: int, table: Sequence[float] | None, floor: float | None
) -> list[Candidate]:
    """Exchanges allowed by the bag, and the pass; only those of equity ``floor`` or more."""
    out: list[Candidate] = []
    if bag_count >= rules.exchange_min_bag and (floor is None or table is not None or floor <= 0.0):
        # every sub-rack but the whole rack: what is kept; with a floor, those that reach it
        kept = range(r.full) if floor is None or table is None else [i for i in range(r.full) if table[i] >= floor]
        for i in kept:
            eq = 0.0 + table[i] if table is not None else 0.0
            if floor is not None and eq < floor:
                continue
            ex = r.removed(i)
            if len(ex) <= bag_count:
                out.append(Candidate(Exchange(ex), 0, eq, r.leave(i)))
    eq = 0.0 + table[r.full] if table is not None else 0.0
    if floor is None or eq >= floor:
        out.append(Candidate(Pass(), 0, eq, r.leave(r.full)))
    return out


def _merge(a: list[Candidate], b: list[Candidate]) -> list[Candidate]:
    """Merge two lists sorted by `sort_key` (b short)."""
    from bisect import bisect_right

    out: list[Candidate] = []
    lo = 0
    for c in b:
        i = bisect_right(a, sort_key(c), lo, key=sort_key)
        out.extend(a[lo:i])
        out.append(c)
        lo = i
    out.extend(a[lo:])
    return out


# -- the reference generator -----------------------------------------------------------

RawPlacement = tuple[int, int, bool, tuple[int, ...], int, int]
"""row, column, down, tiles (whole main word, 0 played through), score, leave index."""


def _reference_candidates(
    board: Board, r: _Rack, lexicon: Lexicon, rules: Rules, table: Sequence[float] | None, down_openings: bool
) -> list[Candidate]:
    cache: dict[int, tuple[int, ...]] = {}
    out: list[Candidate] = []
    for row, col, down, tiles, score, li in _reference(board, r, lexicon, rules, down_openings):
        leave = cache.get(li)
        if leave is None:
            leave = cache[li] = r.leave(li)
        eq = float(score) + table[li] if table is not None else float(score)
        out.append(Candidate(Place(row, col, down, tiles), score, eq, leave))
    out.sort(key=sort_key)
    return out


def reference_placements(
    board: Board, rack: Sequence[int], lexicon: Lexicon, rules: Rules = TOURNAMENT, *, down_openings: bool = False
) -> list[tuple[Place, int]]:
    """Every legal placement and its score, by the pure-Python reference generator
    (unsorted)."""
    _check(board, lexicon, rules)
    r = _Rack(rack, board.tiles)
    raw = _reference(board, r, lexicon, rules, down_openings)
    return [(Place(row, col, d, t), s) for row, col, d, t, s, _ in raw]


def _reference(board: Board, r: _Rack, lexicon: Lexicon, rules: Rules, down_openings: bool) -> list[RawPlacement]:
    directions = _directions(board, down_openings)
    if rules.variant == "clabbers":
        rack = [c for c in r.codes for _ in range(r.counts[c])]
        return _clabbers.reference_placements(board, rack, lexicon, rules, directions=directions)
    return _Reference(board, r, lexicon.kwg, rules, directions).run()


class _Reference:
    """Appel and Jacobson's algorithm on the DAWG: for each anchor (an empty square next
    to a tile), every left part from the rack over the free squares before it (or the
    tiles already there), extended right through the anchor.

    Lines are walked as lists of codes; ``down`` plays walk columns.
    """

    def __init__(self, board: Board, r: _Rack, kwg: Sequence[int], rules: Rules, directions: int) -> None:
        self.board = board
        self.directions = directions
        self.n = board.size
        self.cells = board.cells
        self.vals = _values(board.tiles)
        self.kwg = kwg
        self.root = _kwg.dawg_root(kwg)
        self.rack = r
        self.counts = list(r.counts)
        self.min_tiles = _first_min(board, rules)
        self.bonus = rules.bonus
        self.out: list[RawPlacement] = []
        self._arcs: dict[int, list[tuple[int, int, bool]]] = {}
        # the line being walked
        self.down = False
        self.squares: list[int] = []
        self.lc: list[int] = []
        self.lmul: list[int] = []
        self.wmul: list[int] = []
        self.xs: list[tuple[set[int] | None, int]] = []
        self.anchor = 0

    # -- the automaton ---------------------------------------------------------

    def arcs(self, node: int) -> list[tuple[int, int, bool]]:
        """(tile, child, accepts) of each arc of a node."""
        res = self._arcs.get(node)
        if res is None:
            kwg = self.kwg
            res = []
            for i in _kwg.node_arcs(kwg, node):
                a = kwg[i]
                res.append((_kwg.arc_tile(a), _kwg.arc_child(a), bool(a & _kwg.ACCEPTS)))
            self._arcs[node] = res
        return res

    def step(self, node: int, tile: int) -> tuple[int, bool] | None:
        """(child, accepts) after ``tile`` from ``node``; None when there is no such arc."""
        for t, child, acc in self.arcs(node) if node else ():
            if t == tile:
                return child, acc
        return None

    # -- the board -------------------------------------------------------------

    def cross(self, idx: int, d: int) -> tuple[set[int] | None, int]:
        """Letters allowed on square idx by the word crossing the play (stride d along
        it), and the points of that word's other tiles; (None, -1) when there is none."""
        n, cells = self.n, self.cells
        same_line = (lambda j: True) if d == n else (lambda j: j // n == idx // n)
        before: list[int] = []
        j = idx - d
        while j >= 0 and same_line(j) and cells[j]:
            before.append(cells[j])
            j -= d
        before.reverse()
        after: list[int] = []
        j = idx + d
        while j < n * n and same_line(j) and cells[j]:
            after.append(cells[j])
            j += d
        if not before and not after:
            return None, -1
        points = sum(self.vals[c] for c in before + after)
        node = self.root
        for c in before:
            s = self.step(node, c & LETTER_MASK)
            if s is None:
                return set(), points
            node = s[0]
        allowed: set[int] = set()
        for t, child, acc in self.arcs(node) if node else ():
            ok, nd = acc, child
            for c in after:
                s = self.step(nd, c & LETTER_MASK)
                if s is None:
                    ok = False
                    break
                nd, ok = s
            if ok:
                allowed.add(t)
        return allowed, points

    def run(self) -> list[RawPlacement]:
        if not self.root:
            return self.out
        n, cells = self.n, self.cells
        for down in (False, True)[: self.directions]:
            self.down = down
            along, between = (n, 1) if down else (1, n)
            cross_stride = 1 if down else n
            for line in range(n):
                self.squares = squares = [line * between + p * along for p in range(n)]
                self.lc = lc = [cells[s] for s in squares]
                self.lmul = [self.board.layout.letter_mult[s] for s in squares]
                self.wmul = [self.board.layout.word_mult[s] for s in squares]
                anchors: list[int] = []
                self.xs = []
                for p, s in enumerate(squares):
                    if self.board.is_empty:
                        if divmod(s, n) == self.board.layout.start:
                            anchors.append(p)
                    elif not lc[p] and self._near(s):
                        anchors.append(p)
                        self.xs.append(self.cross(s, cross_stride))
                        continue
                    self.xs.append((None, -1))
                prev = -1
                for a in anchors:
                    self.anchor = a
                    if a > 0 and lc[a - 1]:
                        self._from_tiles(a)
                    else:
                        self.left_part([], self.root, a - prev - 1)
                    prev = a
        return self.out

    def _near(self, s: int) -> bool:
        n, cells = self.n, self.cells
        r, c = divmod(s, n)
        return bool(
            (r > 0 and cells[s - n])
            or (r < n - 1 and cells[s + n])
            or (c > 0 and cells[s - 1])
            or (c < n - 1 and cells[s + 1])
        )

    # -- the walk ----------------------------------------------------------------

    def _from_tiles(self, a: int) -> None:
        """The left part is the run of tiles already before the anchor."""
        lc = self.lc
        b = a - 1
        while b > 0 and lc[b - 1]:
            b -= 1
        node = self.root
        for p in range(b, a):
            s = self.step(node, lc[p] & LETTER_MASK)
            if s is None:
                return
            node = s[0]
        self.extend_right(b, a, node, False, [0] * (a - b))

    def options(self, t: int) -> list[tuple[int, int]]:
        """(code placed, rack code used) for letter t: the letter, a blank, both or neither."""
        res = []
        if self.counts[t]:
            res.append((t, t))
        if self.counts[0]:
            res.append((t | BLANK, 0))
        return res

    def left_part(self, word: list[int], node: int, limit: int) -> None:
        self.extend_right(self.anchor - len(word), self.anchor, node, False, word)
        if not limit or not node:
            return
        counts = self.counts
        for t, child, _ in self.arcs(node):
            for code, used in self.options(t):
                counts[used] -= 1
                word.append(code)
                self.left_part(word, child, limit - 1)
                word.pop()
                counts[used] += 1

    def extend_right(self, start: int, p: int, node: int, acc: bool, word: list[int]) -> None:
        lc = self.lc
        if p == self.n or not lc[p]:
            if p > self.anchor and acc:
                self.record(start, word)
            if p == self.n or not node:
                return
            allowed = self.xs[p][0]
            counts = self.counts
            for t, child, a in self.arcs(node):
                if allowed is not None and t not in allowed:
                    continue
                for code, used in self.options(t):
                    counts[used] -= 1
                    word.append(code)
                    self.extend_right(start, p + 1, child, a, word)
                    word.pop()
                    counts[used] += 1
        else:
            s = self.step(node, lc[p] & LETTER_MASK)
            if s is None:
                return
            word.append(0)
            self.extend_right(start, p + 1, s[0], s[1], word)
            word.pop()

    def record(self, start: int, word: list[int]) -> None:
        placed = [k for k, code in enumerate(word) if code]
        if len(placed) < self.min_tiles:
            return
        xs = self.xs
        if self.down and len(placed) == 1 and xs[start + placed[0]][1] >= 0:
            return  # a one-tile play forming a word across is listed across
        vals, lmul, wmul, lc = self.vals, self.lmul, self.wmul, self.lc
        main, mult, extra = 0, 1, 0
        for k, code in enumerate(word):
            p = start + k
            if code:
                v = vals[code] * lmul[p]
                main += v
                mult *= wmul[p]
                if xs[p][1] >= 0:
                    extra += (xs[p][1] + v) * wmul[p]
            else:
                main += vals[lc[p]]
        score = main * mult + extra
        score += self.bonus(len(placed))
        radix = self.rack.radix
        li = self.rack.full - sum(radix[0 if c & BLANK else c] for c in word if c)
        sq = self.squares[start]
        self.out.append((sq // self.n, sq % self.n, self.down, tuple(word), score, li))
