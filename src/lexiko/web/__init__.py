"""The web app behind ``lexiko serve`` (an optional extra: ``pip install 'lexiko[web]'``).

A FastAPI server with a WebSocket per game, a database (a SQLite file by default,
PostgreSQL when ``--database-url`` names one) migrated with Alembic at startup, and a
front end of plain HTML, CSS and JavaScript. The server is the authority: it checks
every action with the engine and shows each player only what that player may see.
`lexiko.web.server.create_app` makes the application; the ``lexiko serve``
command (`lexiko.cli.serve`) runs it.

This module imports only the standard library, so that the command can say what to
install when the extra is missing; the server itself (FastAPI, SQLAlchemy) is imported
when it is made.

>>> default_database_url().startswith(("sqlite:///", "postgresql"))
True
>>> missing_packages()  # the extra is installed here
[]
"""

from __future__ import annotations

import importlib.util
import os
import socket
from pathlib import Path

__all__ = ["NEEDS", "missing_packages", "default_database_url", "check_listen"]

NEEDS = (
    "fastapi",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "argon2",
    "confusables",
    "glicko2",
    "limits",
    "orjson",
    "zxcvbn",
)
"""What the web app imports (names of modules, not of distributions): the ``web``
extra. Several processes sharing games also need ``redis`` (the ``shared`` extra)."""


def missing_packages() -> list[str]:
    """The modules of `NEEDS` that cannot be imported here, found without
    importing any (empty when the extra is installed)."""
    return [name for name in NEEDS if importlib.util.find_spec(name) is None]


def default_database_url() -> str:
    """``LEXIKO_DATABASE_URL`` if set, else a SQLite file ``lexiko.db`` in the user data
    folder (``$XDG_DATA_HOME/lexiko`` or ``~/.local/share/lexiko``)."""
    env = os.environ.get("LEXIKO_DATABASE_URL")
    if env:
        return env
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return f"sqlite:///{base / 'lexiko' / 'lexiko.db'}"


def check_listen(host: str, port: int) -> None:
    """Refuse, before any slow start-up, an address the server could not listen on: a
    host name that does not resolve, a port in use or not allowed. The check binds a
    socket and lets it go at once.

    >>> busy = socket.create_server(("127.0.0.1", 0))
    >>> taken = busy.getsockname()[1]
    >>> check_listen("127.0.0.1", taken)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lexiko.errors.LexikoError: cannot listen on 127.0.0.1:...: Address already in use (another server? ...)
    >>> busy.close()
    """
    from lexiko.errors import LexikoError

    where = f"{host}:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise LexikoError(f"cannot listen on {where}: the host {host!r} is not known ({reason})") from None
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server itself does
        try:
            s.bind(address)
        except OSError as e:
            hint = {
                98: " (another server? choose another --port)",
                13: " (ports below 1024 need administrator rights: choose another --port)",
                99: " (not an address of this machine: see --host)",
            }.get(e.errno or 0, "")
            raise LexikoError(f"cannot listen on {where}: {e.strerror}{hint}") from None
