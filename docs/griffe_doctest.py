"""A Griffe extension for the API reference: the interactive examples (``>>>`` lines and
their output) in lexiko's docstrings are shown as Python code blocks, not read as
Markdown (where an output such as ``[('8F QAT', 24)]`` looks like a link)."""

from __future__ import annotations

from typing import Any

import griffe


def fence(text: str) -> str:
    """Wrap every run of ``>>>``/``...`` lines and the output after them in a fence."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(">>>") and not inside:
            out.append("```python")
            inside = True
        elif inside and not s:
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the examples of every docstring Griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence(obj.docstring.value)
