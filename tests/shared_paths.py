"""Where the test corpora are: ``../shared`` beside the checkout (real games, positions
agreed by three engines), or ``$LEXIKO_SHARED_DIR``; and the repository's own corpus in
``tests/data``, which every checkout has. Tests that need ``../shared`` are marked
``needs_shared`` and skip, with a one-line reason, where it is missing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("LEXIKO_SHARED_DIR") or Path(__file__).resolve().parents[2] / "shared")
HAVE_SHARED = SHARED.is_dir()
DATA = Path(__file__).resolve().parent / "data"

needs_shared = pytest.mark.skipif(
    not HAVE_SHARED, reason=f"needs the corpora in {SHARED} (set LEXIKO_SHARED_DIR to use another place)"
)
