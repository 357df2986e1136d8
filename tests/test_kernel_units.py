"""The C kernel's units under src/lexiko/_kernel/: each starts with a comment saying what it
holds, none is over 1,500 lines, their ``#include "..."`` graph has no cycle, only the
bindings units include Python.h (the others are plain C), and a function over 150 lines
says why beside it ("long on purpose")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

KERNEL = Path(__file__).resolve().parents[1] / "src" / "lexiko" / "_kernel"
MAX_LINES = 1500
MAX_FUNCTION_LINES = 150
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SYSTEM = re.compile(r"^\s*#\s*include\s+<([^>]+)>", re.M)
PYTHON_HEADERS = {"Python.h", "structmember.h"}
# a definition: its name and "(" at the start of a line, its body from a "{" alone on a line
# to the next "}" alone on a line (the code is formatted so)
DEFINITION = re.compile(r"^[A-Za-z_][^;{}()=]*?\b([A-Za-z_]\w*)\(", re.M)

UNITS = sorted(KERNEL.glob("*.[ch]"))


def unit_ids() -> list[str]:
    return [path.name for path in UNITS]


def includes(path: Path) -> list[str]:
    """The units path includes with quotes (its own headers)."""
    return INCLUDE.findall(path.read_text())


def find_cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """A cycle of graph (node -> the nodes it points to) as a path that comes back to its
    start, or None.

    >>> find_cycle({"a.c": ["a.h"], "a.h": ["b.h"], "b.h": []}) is None
    True
    >>> find_cycle({"a.h": ["b.h"], "b.h": ["a.h"]})
    ['a.h', 'b.h', 'a.h']
    """
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := walk(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := walk(node)) is not None:
            return found
    return None


def functions(text: str) -> list[tuple[str, int, int]]:
    """The function definitions of C text: (name, first line of the signature, lines from
    the signature to the closing brace).

    >>> functions("static int f(int x)\\n{\\n    return x;\\n}\\n\\nint g(void);\\n")
    [('f', 1, 4)]
    """
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        m = DEFINITION.match(lines[i])
        if m and not lines[i].rstrip().endswith(";"):
            j = i
            while j < len(lines) and lines[j] != "{" and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and lines[j] == "{":
                end = j
                while end < len(lines) and lines[end] != "}":
                    end += 1
                found.append((m.group(1), i + 1, end - i + 1))
                i = end
        i += 1
    return found


def test_the_kernel_is_split_into_units() -> None:
    names = {path.name for path in UNITS}
    assert {"common.h", "movegen.c", "movegen.h", "rng.h", "bindings.c"} <= names
    assert not (KERNEL.parent / "_kernel.c").exists()


@pytest.mark.parametrize("path", UNITS, ids=unit_ids())
def test_each_unit_starts_with_a_comment_saying_what_it_holds(path: Path) -> None:
    text = path.read_text()
    assert text.startswith("/*\n"), path.name
    assert f"lexiko._kernel, {path.name}:" in text.split("*/", 1)[0], path.name


@pytest.mark.parametrize("path", UNITS, ids=unit_ids())
def test_no_unit_is_over_1500_lines(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= MAX_LINES, path.name


def test_every_unit_included_is_there() -> None:
    names = {path.name for path in UNITS}
    missing = {(path.name, inc) for path in UNITS for inc in includes(path) if inc not in names}
    assert missing == set()


def test_the_include_graph_has_no_cycle() -> None:
    graph = {path.name: includes(path) for path in UNITS}
    assert find_cycle(graph) is None


def test_only_the_bindings_include_python() -> None:
    python = {path.name for path in UNITS if PYTHON_HEADERS & set(SYSTEM.findall(path.read_text()))}
    assert python and all(name.startswith("bindings") for name in python)
    # Python.h comes with bindings.h, which no unit but the bindings includes
    assert "Python.h" in SYSTEM.findall((KERNEL / "bindings.h").read_text())
    through = {path.name for path in UNITS if "bindings.h" in includes(path)}
    assert through and all(name.startswith("bindings") for name in through)


@pytest.mark.parametrize("path", [p for p in UNITS if p.suffix == ".c"], ids=lambda p: p.name)
def test_a_long_function_says_why(path: Path) -> None:
    text = path.read_text()
    lines = text.split("\n")
    unexplained = []
    for name, first, length in functions(text):
        if length <= MAX_FUNCTION_LINES:
            continue
        before = "\n".join(lines[max(0, first - 15) : first - 1])
        if "long on purpose" not in before.rsplit("*/", 1)[0].rsplit("/*", 1)[-1]:
            unexplained.append((name, length))
    assert unexplained == []
