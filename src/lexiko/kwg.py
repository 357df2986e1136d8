"""The lexicon automaton: a DAWG and a GADDAG packed into one flat array of arcs.

This layout is a contract: the compiled move generator reads the same array.

Format
------
The automaton is one ``array('I')`` of unsigned 32-bit words (native byte order,
little-endian on disk). Each word is an *arc*:

=========  ==================================================================
bits 0-21  low 22 bits of the index of the first arc of the child node (0: no child)
bit 22     *end*: this arc is the last arc of its node
bit 23     *accepts*: a word ends after following this arc
bits 24-29 tile: a letter code 1..63, or 0 for the GADDAG separator
bits 30-31 bits 22-23 of the child's index
=========  ==================================================================

Two layouts share this reading. The *narrow* one, of at most 2**22 arcs (every English
list: TWL06 has 830,481), never sets bits 30-31, so its arcs are those of the first
format, tile in bits 24-31. The *wide* one, of up to 2**24 arcs (Polish: 4.9 million),
keeps the child's two high bits in bits 30-31. `layout` names the layout of an
array; `arc_child` and `arc_tile` read both, and so does the kernel.

A *node* is a contiguous run of arcs whose last arc has the end bit; a node is
named by the index of its first arc. The arcs of a node are sorted by tile,
ascending (so a separator arc comes first). A node with no arcs does not exist: an
arc leading nowhere has child 0.

Index 0 is a pointer arc (tile 0, end bit set) whose child is the root node of the
DAWG, every word read left to right. Index 1 is a pointer arc (tile 0, end bit set)
whose child is the root node of the GADDAG.

GADDAG convention: for a word ``c1..cn`` and each ``i`` in ``1..n-1`` the GADDAG holds
the path ``reverse(c1..ci) + SEP + c(i+1)..cn`` (SEP is tile 0), and for ``i = n`` the
path ``reverse(c1..cn)`` with no separator. The *accepts* bit marks the arc of the last
tile of each path. CARE gives ``C.ARE``, ``AC.RE``, ``RAC.E`` and ``ERAC``.

Both automata are minimal and share nodes: the node under the separator arc of
``reverse(c1..ci)`` is the DAWG node reached by ``c1..ci``. The array of the largest
English lists takes a few megabytes, Polish's some 20.

The compiled kernel builds the same array in seconds (`lexiko.kernel.build_kwg`); the
builder here is the readable reference the tests compare it with.

Words are 2 to 21 letters long (the super board is 21 squares wide).

>>> kwg = build_kwg([(3, 1, 18, 5), (3, 1, 18)])          # CARE, CAR
>>> accepts(kwg, dawg_root(kwg), (3, 1, 18)), accepts(kwg, dawg_root(kwg), (3, 1))
(True, False)
>>> [accepts(kwg, gaddag_root(kwg), p) for p in gaddag_paths((3, 1, 18, 5))]
[True, True, True, True]
>>> list(iter_words(kwg, dawg_root(kwg)))
[(3, 1, 18), (3, 1, 18, 5)]
"""

from __future__ import annotations

import gc
from array import array
from collections.abc import Iterable, Iterator, Sequence

from lexiko.errors import LexiconError
from lexiko.progress import Progress as _Progress

__all__ = [
    "CHILD_MASK",
    "END",
    "ACCEPTS",
    "SEPARATOR",
    "MAX_ARCS",
    "NARROW_ARCS",
    "layout",
    "MIN_WORD",
    "MAX_WORD",
    "Progress",
    "arc_tile",
    "arc_child",
    "child_bits",
    "arc_accepts",
    "arc_is_end",
    "find_arc",
    "dawg_root",
    "gaddag_root",
    "accepts",
    "iter_words",
    "node_arcs",
    "gaddag_paths",
    "build_kwg",
    "build_dawg",
]

CHILD_MASK = 0x3FFFFF
"""Bits of an arc holding the low 22 bits of the index of the child node (`arc_child`
reads the whole index)."""
END = 1 << 22
"""Bit set on the last arc of a node."""
ACCEPTS = 1 << 23
"""Bit set on an arc after which a word (or GADDAG path) ends."""
TILE_SHIFT = 24
TILE_MASK = 0x3F
HIGH_SHIFT = 30  # where the child's bits 22-23 are kept
SEPARATOR = 0
"""Tile of the GADDAG separator arc."""
NARROW_ARCS = CHILD_MASK + 1
"""Most arcs of the narrow layout (22-bit child indexes)."""
MAX_ARCS = 1 << 24
"""Most arcs an automaton can hold: the wide layout's child indexes have 24 bits."""
MIN_WORD = 2
MAX_WORD = 21
MAX_KEY = 24  # longest key the builder handles (a word, or a reversed prefix)

Progress = _Progress
"""Build progress callback (`lexiko.progress.Progress`): ``(phase, done, total)``;
phase is ``"dawg"`` or ``"gaddag"``."""


# -- reading -----------------------------------------------------------------


def arc_tile(a: int) -> int:
    """Tile code of an arc (0 for the separator).

    >>> arc_tile(0x05C00000 | 7), arc_tile(0xC5C00000 | 7)
    (5, 5)
    """
    return (a >> TILE_SHIFT) & TILE_MASK


def arc_child(a: int) -> int:
    """Index of the first arc of the child node, 0 if none (either layout).

    >>> arc_child(0x05C00000 | 7), arc_child(0xC5C00000 | 7)
    (7, 12582919)
    """
    return (a & CHILD_MASK) | (a >> HIGH_SHIFT << 22)


def child_bits(node: int) -> int:
    """The bits of an arc that name ``node`` as its child (the inverse of `arc_child`).

    >>> hex(child_bits(12582919))
    '0xc0000007'
    """
    return (node & CHILD_MASK) | (node >> 22 << HIGH_SHIFT)


def layout(kwg: Sequence[int]) -> str:
    """``"narrow"`` for an automaton of at most 2**22 arcs (whose arcs never use bits
    30-31), ``"wide"`` for a larger one.

    >>> layout(build_kwg([(1, 2)]))
    'narrow'
    """
    return "narrow" if len(kwg) <= NARROW_ARCS else "wide"


def arc_accepts(a: int) -> bool:
    """Whether a word ends after this arc."""
    return bool(a & ACCEPTS)


def arc_is_end(a: int) -> bool:
    """Whether this is the last arc of its node."""
    return bool(a & END)


MAX_PATH = 255
"""The longest path `iter_words` follows: a longer one can only be a loop in a damaged
automaton (the longest word of any list is far shorter)."""


def dawg_root(kwg: Sequence[int]) -> int:
    """Node of the DAWG root (0 for an empty lexicon)."""
    return arc_child(kwg[0])


def gaddag_root(kwg: Sequence[int]) -> int:
    """Node of the GADDAG root (0 for an empty lexicon)."""
    return arc_child(kwg[1])


def find_arc(kwg: Sequence[int], node: int, tile: int) -> int:
    """Index of the arc of ``node`` labelled ``tile``, or -1 (also when node is 0).

    >>> kwg = build_kwg([(1, 2)])
    >>> find_arc(kwg, dawg_root(kwg), 1) == dawg_root(kwg), find_arc(kwg, dawg_root(kwg), 2)
    (True, -1)
    """
    if node == 0:
        return -1
    i = node
    while True:
        a = kwg[i]
        t = (a >> TILE_SHIFT) & TILE_MASK
        if t == tile:
            return i
        if t > tile or a & END:
            return -1
        i += 1


def node_arcs(kwg: Sequence[int], node: int) -> Iterator[int]:
    """Indexes of the arcs of ``node`` (none for node 0)."""
    if node == 0:
        return
    i = node
    while True:
        yield i
        if kwg[i] & END:
            return
        i += 1


def accepts(kwg: Sequence[int], node: int, tiles: Sequence[int]) -> bool:
    """Whether the path ``tiles`` from ``node`` ends on an accepting arc.

    Use ``dawg_root(kwg)`` for a word, ``gaddag_root(kwg)`` for a GADDAG path.
    """
    a = 0
    for t in tiles:
        i = find_arc(kwg, node, t)
        if i < 0:
            return False
        a = kwg[i]
        node = (a & CHILD_MASK) | (a >> HIGH_SHIFT << 22)
    return bool(a & ACCEPTS)


def iter_words(kwg: Sequence[int], node: int) -> Iterator[tuple[int, ...]]:
    """Every accepted path from ``node`` in tile order (from the DAWG root: the
    words, sorted by code)."""
    path: list[int] = []
    stack: list[int] = [node] if node else []  # arc index to look at next, per depth
    while stack:
        i = stack[-1]
        a = kwg[i]
        if len(path) == len(stack):
            path[-1] = (a >> TILE_SHIFT) & TILE_MASK
        else:
            path.append((a >> TILE_SHIFT) & TILE_MASK)
        if a & ACCEPTS:
            yield tuple(path)
        child = (a & CHILD_MASK) | (a >> HIGH_SHIFT << 22)
        if child:
            if len(stack) >= MAX_PATH:
                raise IndexError(f"a path of more than {MAX_PATH} arcs: the automaton loops")
            stack.append(child)
            continue
        # advance to the next sibling, popping finished nodes
        while stack:
            i = stack[-1]
            if kwg[i] & END:
                stack.pop()
                path.pop()
            else:
                stack[-1] = i + 1
                break


def gaddag_paths(word: Sequence[int]) -> list[tuple[int, ...]]:
    """The GADDAG paths of a word, in the convention above.

    >>> gaddag_paths((3, 1, 18))
    [(3, 0, 1, 18), (1, 3, 0, 18), (18, 1, 3)]
    """
    w = tuple(word)
    n = len(w)
    out = [w[i - 1 :: -1] + (SEPARATOR,) + w[i:] for i in range(1, n)]
    out.append(w[::-1])
    return out


# -- building ----------------------------------------------------------------


class _Packer:
    """Register of finished nodes, deduplicated, written straight into the array.

    A node is a tuple of arc words (end bit set on the last). Children are always
    finished before their parents, so every child index is known when a node is
    registered and equal nodes are equal tuples.
    """

    __slots__ = ("out", "register", "singles")

    def __init__(self) -> None:
        self.out = array("I", [END, END])  # the two pointer arcs, children set at the end
        self.register: dict[tuple[int, ...], int] = {}  # nodes of two arcs or more
        self.singles: dict[int, int] = {}  # nodes of one arc, by that arc

    def minimize(
        self,
        keys: Sequence[bytes],
        accept: Sequence[bool] | None,
        tails: Sequence[int] | None,
        record: dict[bytes, int] | None,
        progress: Progress | None,
        phase: str,
    ) -> int:
        """Add the minimal automaton of the sorted, distinct ``keys`` and return its root.

        ``accept[n]`` (all true if None) sets the accepts bit on the last arc of key n;
        ``tails[n]``, if given and not 0, is the child of a separator arc put first in the
        node key n ends at. ``record`` receives the node of every non-empty key prefix.
        """
        out = self.out
        register = self.register
        singles = self.singles
        limit = MAX_ARCS
        stack: list[list[int]] = [[]]
        prev = b""
        px = 0
        from_bytes = int.from_bytes
        total = len(keys)
        step = 1 << 13
        root = 0
        for n, key in enumerate(keys):
            if progress is not None and not n % step:
                progress(phase, n, total)
            # common prefix with the previous key: keys are sorted, distinct and hold no
            # zero byte, so the first differing byte of the zero-padded keys ends it
            x = from_bytes(key.ljust(MAX_KEY, b"\0"))
            k = ((MAX_KEY << 3) - (x ^ px).bit_length()) >> 3
            px = x
            # finish the nodes of the previous key below the common prefix
            for d in range(len(prev), k, -1):
                arcs = stack.pop()
                if len(arcs) == 1:
                    a = arcs[0] | END
                    off = singles.get(a)
                    if off is None:
                        off = singles[a] = len(out)
                        out.append(a)
                elif arcs:
                    arcs[-1] |= END
                    node = tuple(arcs)
                    off = register.get(node)
                    if off is None:
                        off = register[node] = len(out)
                        out.extend(node)
                else:
                    off = 0
                if record is not None:
                    record[prev[:d]] = off
                stack[-1][-1] |= (off & CHILD_MASK) | (off >> 22 << HIGH_SHIFT)
            if len(out) > limit:
                raise too_big(len(out))
            # new arcs for the rest of the key
            for d in range(k, len(key)):
                stack[d].append(key[d] << TILE_SHIFT)
                stack.append([])
            if accept is None or accept[n]:
                stack[-2][-1] |= ACCEPTS
            if tails is not None and tails[n]:
                stack[-1].append(child_bits(tails[n]))
            prev = key
        for d in range(len(prev), -1, -1):
            arcs = stack.pop()
            if arcs:
                arcs[-1] |= END
                node = tuple(arcs)
                off = register.get(node) if len(node) > 1 else singles.get(node[0])
                if off is None:
                    off = len(out)
                    out.extend(node)
                    if len(node) > 1:
                        register[node] = off
                    else:
                        singles[node[0]] = off
            else:
                off = 0
            if d:
                if record is not None:
                    record[prev[:d]] = off
                stack[-1][-1] |= child_bits(off)
            else:
                root = off
        if len(out) > limit:
            raise too_big(len(out))
        if progress is not None:
            progress(phase, total, total)
        return root


def too_big(n: int) -> LexiconError:
    """The error of a word list whose automaton needs ``n`` arcs, more than `MAX_ARCS`."""
    return LexiconError(
        f"the word list needs at least {n:,} arcs; the automaton format addresses at most {MAX_ARCS:,} (24-bit indexes)"
    )


def _build(words: set[bytes], progress: Progress | None = None) -> array[int]:
    """Build from distinct words already checked (letter codes 1..63, 2..21 long)."""
    # Millions of small lists and tuples, none in a cycle: the cyclic collector would
    # only rescan them again and again (about 15% of the build time).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _build_minimal(words, progress)
    finally:
        if was_enabled:
            gc.enable()


def _build_minimal(words: set[bytes], progress: Progress | None) -> array[int]:
    packer = _Packer()
    keys = sorted(words)
    prefix_node: dict[bytes, int] = {}
    dawg = packer.minimize(keys, None, None, prefix_node, progress, "dawg")
    # GADDAG: the minimal automaton of the reversed non-empty prefixes p of the words;
    # the key reverse(p) accepts when p is a word, and its node starts with a separator
    # arc to the DAWG node of p (when p has extensions).
    rev = {p[::-1]: node for p, node in prefix_node.items()}
    del prefix_node
    gkeys = sorted(rev)
    flags = [k[::-1] in words for k in gkeys]
    tails = [rev[k] for k in gkeys]
    del rev
    gaddag = packer.minimize(gkeys, flags, tails, None, progress, "gaddag")
    out = packer.out
    out[0] = END | child_bits(dawg)
    out[1] = END | child_bits(gaddag)
    return out


def _checked(words: Iterable[Sequence[int]]) -> set[bytes]:
    """The distinct words of 2 to 21 letters, as bytes; ValueError for a code outside 1..63."""
    checked: set[bytes] = set()
    for w in words:
        if not MIN_WORD <= len(w) <= MAX_WORD:
            continue
        if not all(1 <= c <= 63 for c in w):
            raise ValueError(f"letter codes are 1..63, not {tuple(w)}")
        checked.add(w if isinstance(w, bytes) else bytes(w))
    return checked


def build_kwg(words: Iterable[Sequence[int]], progress: Progress | None = None) -> array[int]:
    """Build the automaton of ``words`` (sequences of letter codes 1..63).

    Words shorter than 2 or longer than 21 letters are ignored, duplicates collapse.
    Raises ValueError for a code outside 1..63 and LexiconError when the automaton
    would not fit the 24-bit indexes of the wide layout. ``progress(phase, done, total)`` is called from
    time to time.

    >>> len(build_kwg([(1,), (1, 2), (1, 2), (2, 1)]))   # AB, BA: 2 pointers, 4 DAWG arcs, 6 GADDAG
    12
    """
    return _build(_checked(words), progress)


def build_dawg(words: Iterable[Sequence[int]], progress: Progress | None = None) -> array[int]:
    """Build the automaton of ``words`` as `build_kwg` does, without the GADDAG:
    index 1 points nowhere (child 0). Used for the alphagram automaton of Clabbers
    (`lexiko.clabbers`), whose keys are words with their letters sorted; there
    keys of 2 to 21 letters are kept.

    >>> kwg = build_dawg([(1, 2), (1, 2, 3)])
    >>> accepts(kwg, dawg_root(kwg), (1, 2)), arc_child(kwg[1])
    (True, 0)
    """
    checked = _checked(words)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        packer = _Packer()
        root = packer.minimize(sorted(checked), None, None, None, progress, "dawg")
        out = packer.out
        out[0] = END | child_bits(root)
        out[1] = END
        return out
    finally:
        if was_enabled:
            gc.enable()
