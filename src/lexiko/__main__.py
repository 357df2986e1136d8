"""``python -m lexiko [COMMAND ...]``: the same as ``lexiko [COMMAND ...]``."""

from __future__ import annotations

import sys

from lexiko.cli import main

if __name__ == "__main__":
    sys.exit(main())
