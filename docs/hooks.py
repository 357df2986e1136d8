"""MkDocs hooks: the page of rules and options, generated from `lexiko.rules.Rules` at
every build (its fields, types, defaults and the comments above them in rules.py, and
every preset), so the documentation cannot drift from the code; and a check that no
docstring holds a Sphinx role (``:class:`...```), which the API pages would show as
raw text: the strict build fails on one."""

from __future__ import annotations

import dataclasses
import inspect
import logging
import re
import typing
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files


def _comments() -> dict[str, str]:
    """The ``#:`` comment lines above each field of Rules, joined."""
    from lexiko.rules import Rules

    lines = inspect.getsource(Rules).splitlines()
    out: dict[str, str] = {}
    pending: list[str] = []
    for line in lines:
        s = line.strip()
        if s.startswith("#:"):
            pending.append(s[2:].strip())
            continue
        if ":" in s and not s.startswith(("#", "def ", "@", '"', "class ")) and pending:
            out[s.split(":", 1)[0].strip()] = " ".join(pending)
        if not s.startswith("#:"):
            pending = [] if s else pending
    return out


_MORE = {
    "name": "the preset's name (shown in records and the web app)",
    "min_players": "fewest players the rules take",
    "max_players": "most players the rules take",
}


def _cell(text: str) -> str:
    """Markdown for a table cell: reST roles and double backquotes become code."""
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text).replace("``", "`")
    return text.replace("|", "\\|")


def rules_page() -> str:
    from lexiko.rules import PRESETS, Rules
    from lexiko.web.options import _HELP

    hints = typing.get_type_hints(Rules)
    comments = _comments()
    base = Rules()
    rows = []
    for f in dataclasses.fields(Rules):
        tp = str(hints[f.name]).replace("typing.", "").replace("<class '", "").replace("'>", "")
        meaning = comments.get(f.name) or _HELP.get(f.name) or _MORE.get(f.name, "")
        default = repr(getattr(base, f.name))
        rows.append(f"| `{f.name}` | `{_cell(tp)}` | `{_cell(default)}` | {_cell(meaning)} |")
    presets = [f"| `{name}` | {_cell(r.describe().split(': ', 1)[-1])} |" for name, r in sorted(PRESETS.items())]
    return "\n".join(
        [
            "# Rules and options",
            "",
            "Every option of the game is a field of one frozen value, `lexiko.rules.Rules`; a preset is a",
            "`Rules` with some fields changed. This page is generated from the code at every build.",
            "",
            "```python",
            ">>> from lexiko.rules import Rules, preset",
            '>>> preset("tournament").replace(time_minutes=25).challenge_rule',
            "'double'",
            "```",
            "",
            "## Fields",
            "",
            "| field | type | default | meaning |",
            "| --- | --- | --- | --- |",
            *rows,
            "",
            "## Presets",
            "",
            "| preset | how it differs from `Rules()` |",
            "| --- | --- |",
            *presets,
            "",
        ]
    )


ROLE = re.compile(r":(?:py:)?[a-z]+:`[^`]*`")
"""A Sphinx role as docstrings wrote them: ``:class:`Game```, ``:func:`~lexiko.svg.board```."""

log = logging.getLogger("mkdocs.hooks.lexiko")


def raw_roles(src: Path) -> list[str]:
    """Every Sphinx role left in the Python files under ``src``, as ``path:line: role``."""
    found = []
    for path in sorted(src.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found.extend(f"{path}:{number}: {m.group(0)}" for m in ROLE.finditer(line))
    return found


def on_pre_build(config: Any) -> None:
    """Warn (a failure in strict mode) for each Sphinx role left in a docstring."""
    src = Path(config["config_file_path"]).parent / "src"
    for hit in raw_roles(src):
        log.warning("a Sphinx role shows as raw text on the API pages; write `Name` instead: %s", hit)


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, "rules.md", content=rules_page()))
    return files
