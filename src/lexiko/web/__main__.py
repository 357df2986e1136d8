"""``python -m lexiko.web [options]``: the same as ``lexiko serve [options]``."""

from __future__ import annotations

import sys

from lexiko.cli import main

if __name__ == "__main__":
    sys.exit(main(["serve", *sys.argv[1:]]))
