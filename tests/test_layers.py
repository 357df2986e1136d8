"""Layers only look down: no module of the library imports argparse, rich, the web
stack or one of lexiko's faces (the ``lexiko`` command, terminal play, the web app),
at the top of the module or inside a function.

The faces, by the design: ``cli/`` (with ``__main__.py``, ``python -m lexiko``),
``terminal.py`` and ``web/``. ``svg.py`` and
``plots.py`` are renderers a notebook calls (a board as SVG, a figure of results): they
return values and raise lexiko's errors, so they are library and are checked too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import lexiko

PACKAGE = Path(lexiko.__file__).parent
FACES = ("cli", "__main__.py", "terminal.py", "web")
"""Paths, inside the package, of the faces: everything else is library."""

FORBIDDEN = (
    "argparse",
    "rich",
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "lexiko.cli",
    "lexiko.terminal",
    "lexiko.web",
)
"""Modules (with their submodules) the library never imports."""


def _module_name(path: Path) -> str:
    parts = ["lexiko", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """Every module ``source`` imports, anywhere in it, with its line: relative imports
    made absolute (``module`` is the importing module's name), and ``from lexiko import
    web`` counted as ``lexiko.web``.

    >>> imports("import os\\nfrom . import web\\ndef f():\\n    from rich.table import Table\\n", "lexiko.x")
    [(1, 'os'), (2, 'lexiko'), (2, 'lexiko.web'), (4, 'rich.table'), (4, 'rich.table.Table')]
    """
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{a.name}") for a in node.names if a.name != "*"]
    return sorted(found)


def forbidden(name: str) -> bool:
    """Whether ``name`` is one of :data:`FORBIDDEN` or inside one.

    >>> forbidden("rich.console"), forbidden("lexiko.web"), forbidden("lexiko.webhooks"), forbidden("richer")
    (True, True, False, False)
    """
    return any(name == f or name.startswith(f + ".") for f in FORBIDDEN)


def library_modules() -> list[Path]:
    """Every module of the package but the faces'."""
    return sorted(
        p
        for p in PACKAGE.rglob("*.py")
        if p.relative_to(PACKAGE).parts[0] not in FACES and "__pycache__" not in p.parts
    )


def test_the_library_is_the_whole_package_but_the_faces() -> None:
    names = {_module_name(p) for p in library_modules()}
    assert {"lexiko", "lexiko.analysis", "lexiko.selfplay", "lexiko.training", "lexiko.svg", "lexiko.plots"} <= names
    assert {"lexiko.bots.simulation", "lexiko.progress", "lexiko.executors"} <= names
    assert not any(n.startswith(("lexiko.cli", "lexiko.web")) or n == "lexiko.terminal" for n in names)


@pytest.mark.parametrize("path", library_modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_library_module_imports_a_face(path: Path) -> None:
    found = imports(path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py")
    assert [f"line {line}: {name}" for line, name in found if forbidden(name)] == []


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("lexiko.analysis", "import argparse"),
        ("lexiko.analysis", "from rich.console import Console"),
        ("lexiko.analysis", "def f():\n    import fastapi"),
        ("lexiko.analysis", "class C:\n    def m(self):\n        from sqlalchemy import select"),
        ("lexiko.analysis", "from lexiko import web"),
        ("lexiko.analysis", "from lexiko.cli.progress import WorkProgress"),
        ("lexiko.analysis", "from .terminal import render_board"),
        ("lexiko.bots.simulation", "from ..web import server"),
        ("lexiko.analysis", "import uvicorn as server"),
        ("lexiko.analysis", "if True:\n    from lexiko import gcg, cli"),
    ],
)
def test_the_check_catches_each_way_of_importing_a_face(module: str, source: str) -> None:
    found = imports(source, module)
    assert any(forbidden(name) for _, name in found), found


def test_the_check_lets_the_library_import_the_library() -> None:
    found = imports("from lexiko import gcg\nfrom . import base\nimport richtext_free\n", "lexiko.bots.simulation")
    assert not any(forbidden(name) for _, name in found), found
