"""``lexiko serve`` options, the default database, and errors as messages."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from lexiko.cli import main, serve
from lexiko.web import default_database_url


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
