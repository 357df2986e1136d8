"""``lexiko serve`` takes every option from the environment (LEXIKO_PORT and so on), as
container platforms configure a process; the command line wins, bad values are one line."""

from __future__ import annotations

import argparse

import pytest

from lexiko.cli import main, serve

EVERY = {
    "LEXIKO_HOST": ("0.0.0.0", "host", "0.0.0.0"),
    "LEXIKO_PORT": ("9001", "port", 9001),
    "LEXIKO_DATABASE_URL": ("postgresql://u@db/lx", "database_url", "postgresql://u@db/lx"),
    "LEXIKO_LEXICON": ("SOWPODS, TWL06", "lexicon", ["SOWPODS", "TWL06"]),
    "LEXIKO_BOT_DELAY": ("0", "bot_delay", 0.0),
    "LEXIKO_REDIS_URL": ("redis://cache:6379/0", "redis_url", "redis://cache:6379/0"),
    "LEXIKO_BEHIND_PROXY": ("*", "behind_proxy", "*"),
    "LEXIKO_ALLOW_SEEDS": ("yes", "allow_seeds", True),
    "LEXIKO_GAMES_PER_HOUR": ("0", "games_per_hour", 0),
    "LEXIKO_CONNECTIONS_PER_MINUTE": ("500", "connections_per_minute", 500),
    "LEXIKO_REQUESTS_PER_MINUTE": ("5000", "requests_per_minute", 5000),
    "LEXIKO_EXPIRE_HOURS": ("2.5", "expire_hours", 2.5),
    "LEXIKO_API_DOCS": ("1", "api_docs", True),
    "LEXIKO_LOG_LEVEL": ("debug", "log_level", "debug"),
}


def parse(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="lexiko")
    serve.add_parser(p.add_subparsers(dest="command"))
    return p.parse_args(["serve", *argv])


def test_every_option_comes_from_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    options = {a.dest for a in _serve_parser()._actions if a.option_strings} - {"help"}
    assert {dest for _, dest, _ in EVERY.values()} == options  # a new option joins the table
    for name, (text, _, _) in EVERY.items():
        monkeypatch.setenv(name, text)
    a = parse()
    assert {dest: getattr(a, dest) for _, dest, _ in EVERY.values()} == {d: v for _, d, v in EVERY.values()}
    assert parse("--port", "9002", "--log-level", "error").port == 9002  # the command line wins
    monkeypatch.setenv("LEXIKO_ALLOW_SEEDS", "off")
    assert parse().allow_seeds is False


def _serve_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="lexiko")
    sub = p.add_subparsers(dest="command")
    return serve.add_parser(sub)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("LEXIKO_PORT", "many", "lexiko serve: LEXIKO_PORT='many': must be a whole number of at least 1, not 'many'"),
        ("LEXIKO_API_DOCS", "maybe", "LEXIKO_API_DOCS='maybe': a switch is one of 1/true/yes/on or 0/false/no/off"),
        ("LEXIKO_LOG_LEVEL", "loud", "LEXIKO_LOG_LEVEL='loud': choose from critical, error, warning, info, debug"),
        ("LEXIKO_BOT_DELAY", "-1", "LEXIKO_BOT_DELAY='-1': must be"),
    ],
)
def test_a_bad_variable_is_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str, text: str, message: str
) -> None:
    monkeypatch.setenv(name, text)
    assert main(["serve"]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert message in out and "Traceback" not in out
    assert main(["judge", "QI"]) == 0  # other commands do not care
