"""``lexiko serve`` options, the default database, and errors as messages."""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import lexiko
from lexiko.cli import main, serve
from lexiko.web import NEEDS, default_database_url


def parse(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="lexiko")
    serve.add_parser(p.add_subparsers(dest="command"))
    return p.parse_args(["serve", *argv])


def test_serve_options() -> None:
    a = parse("--lexicon", "SOWPODS", "--lexicon", "TWL06", "--bot-delay", "0")
    assert (a.host, a.port, a.database_url, a.lexicon, a.bot_delay) == (
        "127.0.0.1",
        8000,
        None,
        ["SOWPODS", "TWL06"],
        0,
    )
    assert a.func is serve.run


def test_default_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LEXIKO_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_database_url() == f"sqlite:///{tmp_path}/lexiko/lexiko.db"
    monkeypatch.setenv("LEXIKO_DATABASE_URL", "postgresql://u@h/db")
    assert default_database_url() == "postgresql://u@h/db"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--database-url", "postgresql://nobody@127.0.0.1:1/x"], "cannot use the database"),
        (["--lexicon", "no-such-list"], "unknown lexicon 'no-such-list'"),
    ],
)
def test_errors_are_messages(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *argv]) == 2
    out = capsys.readouterr().out
    assert message in out and "Traceback" not in out


def test_an_address_it_cannot_listen_on_is_one_line_before_any_start_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import socket

    db = f"sqlite:///{tmp_path / 'x.db'}"
    with socket.create_server(("127.0.0.1", 0)) as busy:
        taken = busy.getsockname()[1]
        assert main(["serve", "--port", str(taken), "--database-url", db]) == 2
    out = capsys.readouterr().out
    assert out == (
        f"error: cannot listen on 127.0.0.1:{taken}: Address already in use (another server? choose another --port)\n"
    )
    assert not (tmp_path / "x.db").exists()  # refused before the database was touched
    assert main(["serve", "--host", "10.255.255.1", "--database-url", db]) == 2
    assert capsys.readouterr().out == (
        "error: cannot listen on 10.255.255.1:8000: Cannot assign requested "
        "address (not an address of this machine: see --host)\n"
    )


def _without_the_web_extra(*argv: str) -> subprocess.CompletedProcess[str]:
    """``lexiko ARGV`` in a process where no package of the web extra can be imported."""
    code = (
        "import sys\n"
        f"for name in {NEEDS!r}:\n"
        "    sys.modules[name] = None  # what an import finds for a package that is not installed\n"
        "from lexiko.cli import main\n"
        f"sys.exit(main({list(argv)!r}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(lexiko.__file__).parents[1]), "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_serve_without_the_web_extra_gives_the_one_command_that_installs_it() -> None:
    run = _without_the_web_extra("serve", "--port", "1")
    assert (run.returncode, run.stderr) == (1, "")
    assert run.stdout == (
        "error: lexiko serve needs the web extra, which is not installed (no fastapi, uvicorn, sqlalchemy, "
        "alembic, argon2, confusables, glicko2, limits, orjson, zxcvbn): pip install 'lexiko[web]'\n"
    )


def test_the_other_commands_need_no_web_extra() -> None:
    run = _without_the_web_extra("judge", "QI", "QX")
    assert (run.returncode, run.stdout, run.stderr) == (1, "QI: valid\nQX: not valid\n", "")


def test_needs_names_every_package_the_web_app_imports() -> None:
    """A package the web app imports but NEEDS leaves out would pass the check of
    ``lexiko serve`` and fail later, in the middle of a game."""
    web = Path(lexiko.__file__).parent / "web"
    came_with = {"starlette", "pydantic"}  # installed with fastapi
    # redis: the shared extra (--redis-url says so); psycopg: imported only for a
    # PostgreSQL URL, whose engine needs it at start
    elsewhere = {"redis", "psycopg"}
    imported: set[str] = set()
    for path in web.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(a.name.partition(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.partition(".")[0])
    third_party = imported - set(sys.stdlib_module_names) - {"lexiko", "__future__"}
    assert third_party - came_with - elsewhere == set(NEEDS) - {"uvicorn"}  # uvicorn: the command runs it
