"""A named pipe for tests of writers that must refuse one: a reader holds it open, so a
writer that wrongly writes into it fails its test instead of waiting forever."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def named_pipe(path: Path) -> Iterator[Path]:
    """Make a FIFO at ``path`` and hold it open for reading while the block runs."""
    os.mkfifo(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        yield path
    finally:
        os.close(reader)
