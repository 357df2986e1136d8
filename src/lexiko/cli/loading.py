"""Loading a lexicon with a progress bar (compiling takes seconds on first use): the
one loader the commands share.

>>> import io
>>> from rich.console import Console
>>> from lexiko.tiles import ENGLISH
>>> load_lexicon("TWL06", ENGLISH, Console(file=io.StringIO())).name
'TWL06'
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn

from lexiko.cli.progress import WorkProgress
from lexiko.lexicon import Lexicon
from lexiko.tiles import TileSet

__all__ = ["load_lexicon"]


def load_lexicon(name: str, tiles: TileSet, console: Console) -> Lexicon:
    """Load a lexicon, with a progress bar while it is compiled (first use only)."""
    bar: WorkProgress | None = None
    tasks: dict[str, object] = {}

    def progress(phase: str, done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = WorkProgress(
                TextColumn(f"compiling {name} ({{task.description}})"),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f}%"),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            )
            bar.start()
        if phase not in tasks:
            tasks[phase] = bar.add_task(phase, total=total)
        bar.update(tasks[phase], completed=done)  # type: ignore[arg-type]

    try:
        return Lexicon.load(name, tiles, progress=progress)
    finally:
        if bar is not None:
            bar.stop()
