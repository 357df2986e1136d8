"""Leave files other engines publish: KLV2 and KLV (as MAGPIE and wolges write them) and
CSV, so that leave values trained elsewhere, for any lexicon, can be brought to lexiko
(`lexiko.leaves.LeaveTable.load` reads them by suffix, ``.klv2``, ``.klv``,
``.csv``; `save` writes ``.klv2`` and ``.csv`` too).

**KLV2 / KLV** (little-endian): a ``u32`` count of graph nodes, the nodes (``u32`` each:
tile in bits 24-31, "a leave ends here" in bit 23, "last of its siblings" in bit 22, the
index of the first child in bits 0-21; node 0 points to the leaves' graph, node 1 to an
unused second one), a ``u32`` count of leaves, then the values in the order the graph
lists its leaves (depth first, siblings in tile order, a leave before the longer ones
through it): ``f32`` in KLV2, ``i16`` in 256ths of a point in KLV. Tiles are numbered as
the tile set numbers them, 0 the blank, and a leave's tiles are in increasing order.

**CSV**: one ``leave,value`` a line (``?`` the blank, letters in any order).

>>> data = write_klv2([((1,), 1.5), ((0,), 25.0), ((1, 2), -2.0)])
>>> read_klv(data)
[((0,), 25.0), ((1,), 1.5), ((1, 2), -2.0)]
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterable, Sequence

from lexiko.errors import LexikoError

__all__ = ["read_klv", "write_klv2", "read_csv", "write_csv"]

_F32_MAX = 3.4028234663852886e38  # the largest finite 32-bit float
_ACCEPTS = 0x800000
_END = 0x400000
_ARC = 0x3FFFFF


def read_klv(data: bytes, source: str = "<klv>") -> list[tuple[tuple[int, ...], float]]:
    """The leaves of a KLV2 or KLV file and their values, in the file's order (tiles
    in increasing order, 0 the blank)."""

    def bad(why: str) -> LexikoError:
        return LexikoError(f"{source}: not a KLV2/KLV leave file ({why})")

    if len(data) < 8:
        raise bad("too short")
    (n,) = struct.unpack_from("<I", data, 0)
    end_nodes = 4 + 4 * n
    if n < 1 or end_nodes + 4 > len(data):
        raise bad(f"{n} graph nodes do not fit in {len(data)} bytes")
    nodes = struct.unpack_from(f"<{n}I", data, 4)
    (count,) = struct.unpack_from("<I", data, end_nodes)
    rest = len(data) - end_nodes - 4
    if rest >= 4 * count:
        values = [float(x) for x in struct.unpack_from(f"<{count}f", data, end_nodes + 4)]
    elif rest >= 2 * count:
        values = [x / 256.0 for x in struct.unpack_from(f"<{count}h", data, end_nodes + 4)]
    else:
        raise bad(f"{count} values do not fit in the {rest} bytes left")
    leaves: list[tuple[int, ...]] = []

    def walk(p: int, prefix: tuple[int, ...], depth: int) -> None:
        if depth > 64:
            raise bad("the graph loops")
        while True:
            if not 0 <= p < n:
                raise bad(f"a node points outside the graph ({p})")
            node = nodes[p]
            leave = (*prefix, node >> 24)
            if node & _ACCEPTS:
                leaves.append(leave)
            if node & _ARC:
                walk(node & _ARC, leave, depth + 1)
            if node & _END:
                return
            p += 1

    root = nodes[0] & _ARC
    if root:
        walk(root, (), 0)
    if len(leaves) != count:
        raise bad(f"its graph holds {len(leaves)} leaves and it has {count} values")
    return list(zip(leaves, values, strict=True))


def write_klv2(
    leaves: Iterable[tuple[Sequence[int], float]],
    names: Callable[[tuple[int, ...]], str] | None = None,
) -> bytes:
    """A KLV2 file of these leaves (tiles in any order; 0 the blank) and values; ``names``
    spells a leave in the message that refuses a value beyond 32-bit floats."""
    table = {tuple(sorted(t)): float(v) for t, v in leaves if len(t)}  # the empty leave is 0: not stored
    for leave, value in table.items():
        if math.isfinite(value) and abs(value) > _F32_MAX:
            shown = "".join(f"[{t}]" for t in leave) if names is None else names(leave)
            raise LexikoError(f"leave {shown} is worth {value:g}, beyond the 32-bit floats of a KLV2 file")
    # the trie: children of each prefix, in tile order
    children: dict[tuple[int, ...], list[int]] = {}
    for t in table:
        for k in range(len(t)):
            kids = children.setdefault(t[:k], [])
            if t[k] not in kids:
                kids.append(t[k])
    for kids in children.values():
        kids.sort()
    nodes: list[int] = [0, _END]  # node 0: the leaves' graph; node 1: the unused second graph
    first: dict[tuple[int, ...], int] = {}
    order: list[tuple[int, ...]] = [()]  # prefixes whose children get a place, breadth first
    for prefix in order:
        kids = children.get(prefix, [])
        if not kids:
            continue
        first[prefix] = len(nodes)
        nodes.extend([0] * len(kids))
        order.extend((*prefix, k) for k in kids)
    for prefix, at in first.items():
        kids = children[prefix]
        for i, tile in enumerate(kids):
            word = (*prefix, tile)
            node = tile << 24 | first.get(word, 0)
            if word in table:
                node |= _ACCEPTS
            if i == len(kids) - 1:
                node |= _END
            nodes[at + i] = node
    nodes[0] = first.get((), 0) | _END
    values: list[float] = []

    def walk(prefix: tuple[int, ...]) -> None:  # the graph's own order
        for tile in children.get(prefix, []):
            word = (*prefix, tile)
            if word in table:
                values.append(table[word])
            walk(word)

    walk(())
    if len(nodes) > _ARC:
        raise LexikoError("too many leaves for a KLV2 file")
    return (
        struct.pack("<I", len(nodes))
        + struct.pack(f"<{len(nodes)}I", *nodes)
        + struct.pack("<I", len(values))
        + struct.pack(f"<{len(values)}f", *values)
    )


def read_csv(text: str, source: str = "<csv>") -> list[tuple[str, float]]:
    """``leave,value`` lines (a header line, blank lines and ``#`` comments are skipped)."""
    out: list[tuple[str, float]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        leave, sep, value = line.partition(",")
        try:
            number = float(value)
        except ValueError:
            if n == 1 and sep:
                continue  # a header such as "leave,value"
            raise LexikoError(f"{source}: line {n}: expected 'leave,value', got {line[:40]!r}") from None
        if not math.isfinite(number):
            raise LexikoError(f"{source}: line {n}: the value {value.strip()!r} is not a finite number")
        out.append((leave.strip(), number))
    return out


def write_csv(leaves: Iterable[tuple[str, float]]) -> str:
    """The ``leave,value`` lines of these leaves."""
    return "".join(f"{leave},{value:.6g}\n" for leave, value in leaves)
