"""The documentation site: every example in docs/ runs as a doctest, and the site builds
with MkDocs in strict mode (a warning fails the build)."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md"))


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT / "docs")) for p in PAGES])
def test_the_examples_of_each_page_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # examples read the repository's own records
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_generated_rules_page_lists_every_field() -> None:
    import dataclasses

    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import hooks  # the MkDocs hook that writes the page
    finally:
        sys.path.pop(0)
    from lexiko.rules import Rules

    page = hooks.rules_page()
    for f in dataclasses.fields(Rules):
        assert f"| `{f.name}` |" in page
    assert "| `lexulous` |" in page and "| `tournament` |" in page


def _hooks() -> Any:
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import hooks  # the MkDocs hooks

        return hooks
    finally:
        sys.path.pop(0)


def test_no_docstring_holds_a_sphinx_role(tmp_path: Path) -> None:
    """The API pages render docstrings as Markdown, where ``:class:`Game``` shows as raw
    text; the site build warns (strict: fails) on one, and so does this test."""
    hooks = _hooks()
    assert hooks.raw_roles(ROOT / "src") == []
    (tmp_path / "m.py").write_text('"""See :class:`~lexiko.game.Game` and\n:func:`play_game`."""\n')
    assert hooks.raw_roles(tmp_path) == [
        f"{tmp_path / 'm.py'}:1: :class:`~lexiko.game.Game`",
        f"{tmp_path / 'm.py'}:2: :func:`play_game`",
    ]


@pytest.mark.slow
def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="the site needs MkDocs (pip install 'lexiko[docs]')")
    pytest.importorskip("mkdocstrings", reason="the site needs mkdocstrings (pip install 'lexiko[docs]')")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT / "src")}
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "site" / "rules" / "index.html").exists()
    assert "lexiko.game.Game" in (tmp_path / "site" / "api" / "index.html").read_text()
