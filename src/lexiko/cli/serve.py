"""``lexiko serve``: run the web app (`lexiko.web`, the optional extra
``lexiko[web]``). Registering the command needs nothing of the extra; running it
imports the server, or says which command installs it."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from lexiko.cli.argtypes import non_negative_float, non_negative_int, port, positive_float
from lexiko.errors import LexikoError
from lexiko.lexicon import Lexicon
from lexiko.web import check_listen, default_database_url, missing_packages

__all__ = ["add_parser", "run", "INSTALL"]

INSTALL = "pip install 'lexiko[web]'"
"""The command that installs what ``lexiko serve`` needs."""

SWITCH_INTERVAL = 0.0005
"""Seconds a thread holds the interpreter before another waiting for it may run (the
standard 0.005 made each hand-over between the database thread and the loop wait up
to that long)."""

EPILOG = """\
examples:
  lexiko serve                                   SQLite file in the user data folder, http://127.0.0.1:8000/
  lexiko serve --host 0.0.0.0 --port 8080        reachable from other machines
  lexiko serve --database-url postgresql://lexiko:secret@localhost/lexiko
  lexiko serve --lexicon SOWPODS --lexicon TWL06 --lexicon ~/words/nwl2023.txt

Open the address in a browser, create a game, and send the invitation links to the
other players. Games are saved after every turn: stopping and starting the server
loses nothing.

environment:
  Every option can come from a variable LEXIKO_ and its name in capitals, dashes as
  underscores (for containers): LEXIKO_PORT=9000, LEXIKO_DATABASE_URL=postgresql://...,
  LEXIKO_API_DOCS=1 (a switch: 1/0, true/false, yes/no, on/off), LEXIKO_LEXICON=TWL06,SOWPODS
  (several: commas). An option on the command line wins over its variable.
"""

ENV_PREFIX = "LEXIKO_"
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``serve`` on the ``lexiko`` command's subparsers.

    >>> p = argparse.ArgumentParser(prog="lexiko")
    >>> _ = add_parser(p.add_subparsers(dest="command"))
    >>> a = p.parse_args(["serve", "--port", "9000", "--database-url", "postgresql://u@localhost/lx"])
    >>> a.port, a.database_url, a.host
    (9000, 'postgresql://u@localhost/lx', '127.0.0.1')
    """
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the web app (play in a browser, invite others by link)",
        description="Run the lexiko web app: create games with any rules and computer players, "
        "invite people by link, play in the browser, download GCG records, review finished games.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=port, default=8000, help="port to listen on (default: 8000)")
    p.add_argument(
        "--database-url",
        default=None,
        metavar="URL",
        help="SQLite file path or sqlite:///PATH, or postgresql://USER:PASSWORD@HOST/DB "
        "(default: $LEXIKO_DATABASE_URL, else lexiko.db in the user data folder)",
    )
    p.add_argument(
        "--lexicon",
        action="append",
        metavar="NAME_OR_FILE",
        help="a word list games may use: TWL06, SOWPODS or a file; repeat for several, the first is "
        "the default (default: TWL06 and SOWPODS)",
    )
    p.add_argument(
        "--bot-delay",
        type=non_negative_float,
        default=0.8,
        metavar="SECONDS",
        help="pause before each computer move, so people can follow (default: 0.8)",
    )
    p.add_argument(
        "--redis-url",
        metavar="URL",
        help="shared mode: several lexiko serve processes (any hosts) serve the same games, "
        "telling each other through Redis at URL (redis://host:6379/0); needs PostgreSQL "
        "(default: $LEXIKO_REDIS_URL, else one process on its own)",
    )
    p.add_argument(
        "--behind-proxy",
        metavar="IPS",
        help="trust the X-Forwarded-For of a reverse proxy at these addresses (comma-separated, "
        "or '*'), so limits count each player's address, not the proxy's",
    )
    p.add_argument(
        "--allow-seeds",
        action="store_true",
        help="let a game between people be created with a chosen seed (for tests and analysis: "
        "every player is then shown the seed; by default only a game of one person against "
        "the computer takes a seed, and games between people draw from a secret one)",
    )
    p.add_argument(
        "--games-per-hour",
        type=non_negative_int,
        default=30,
        metavar="N",
        help="new games one address may create in an hour (default: 30; 0: no limit)",
    )
    p.add_argument(
        "--connections-per-minute",
        type=non_negative_int,
        default=60,
        metavar="N",
        help="game connections one address may open in a minute (default: 60; 0: no limit; "
        "behind a proxy every player has the proxy's address: raise it)",
    )
    p.add_argument(
        "--requests-per-minute",
        type=non_negative_int,
        default=600,
        metavar="N",
        help="API requests one address may make in a minute (default: 600; 0: no limit; an event "
        "whose players all join from one address, or from behind one proxy, needs more)",
    )
    p.add_argument(
        "--expire-hours",
        type=positive_float,
        default=24.0,
        metavar="HOURS",
        help="delete games nobody joined within this many hours (default: 24)",
    )
    p.add_argument(
        "--api-docs",
        action="store_true",
        help="serve the interactive API documentation at /api/docs (its page loads from a CDN)",
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="server log level (default: info)",
    )
    p.set_defaults(func=run)
    defaults_from_environment(p, os.environ)
    return p


def defaults_from_environment(parser: argparse.ArgumentParser, environ: Mapping[str, str]) -> None:
    """Set the default of each option ``--NAME-X`` from ``LEXIKO_NAME_X`` when the variable
    is set, converted and checked as the option's own value would be. A bad value is not
    an error until the command runs (`run` reports it), so that other commands and
    ``--help`` still work.

    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("--port", type=int, default=8000)
    >>> _ = p.add_argument("--api-docs", action="store_true")
    >>> defaults_from_environment(p, {"LEXIKO_PORT": "9000", "LEXIKO_API_DOCS": "yes"})
    >>> p.parse_args([]).port, p.parse_args([]).api_docs, p.parse_args(["--port", "1"]).port
    (9000, True, 1)
    >>> defaults_from_environment(p, {"LEXIKO_PORT": "many"})
    >>> p.parse_args([]).environment_error
    "LEXIKO_PORT='many': invalid int value: 'many'"
    """
    for action in parser._actions:
        if not action.option_strings or action.dest in ("help",):
            continue
        name = ENV_PREFIX + action.dest.upper()
        text = environ.get(name)
        if text is None:
            continue
        try:
            if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
                if text.strip().lower() not in _TRUE + _FALSE:
                    raise ValueError(f"a switch is one of {'/'.join(_TRUE)} or {'/'.join(_FALSE[:-1])}")
                on = text.strip().lower() in _TRUE
                value: Any = on if isinstance(action, argparse._StoreTrueAction) else not on
            elif isinstance(action, argparse._AppendAction):
                value = [_convert(action, part.strip()) for part in text.split(",") if part.strip()]
            else:
                value = _convert(action, text)
        except (ValueError, TypeError, argparse.ArgumentTypeError) as e:
            parser.set_defaults(environment_error=f"{name}={text!r}: {e}")
            continue
        action.default = value


def _convert(action: argparse.Action, text: str) -> Any:
    """``text`` as the option would take it: its type, then its choices."""
    value: Any = text
    if callable(action.type):
        try:
            value = action.type(text)
        except ValueError as e:
            if str(e) and action.type not in (int, float):
                raise
            raise ValueError(f"invalid {getattr(action.type, '__name__', 'value')} value: {text!r}") from None
    if action.choices is not None and value not in action.choices:
        raise ValueError(f"choose from {', '.join(map(str, action.choices))}")
    return value


def run(args: argparse.Namespace, console: Console) -> int:
    """Run the server until interrupted; without the web extra, say how to install it
    (exit status 1)."""
    if getattr(args, "environment_error", None):
        raise LexikoError(f"lexiko serve: {args.environment_error}")
    missing = missing_packages()
    if missing:
        text = escape(f"lexiko serve needs the web extra, which is not installed (no {', '.join(missing)}): {INSTALL}")
        console.print(f"[red]error:[/red] {text}", highlight=False, soft_wrap=True, emoji=False)
        return 1
    import uvicorn

    from lexiko.web.limits import MAX_FRAME, Limits
    from lexiko.web.server import create_app
    from lexiko.web.store import Store

    check_listen(args.host, args.port)
    url = args.database_url or default_database_url()
    lexicons = args.lexicon or ["TWL06", "SOWPODS"]
    for name in lexicons:  # fail early, with the lexicon's own message, and compile it once
        if name.upper() not in ("TWL06", "SOWPODS") and not Path(name).is_file():
            raise LexikoError(f"unknown lexicon {name!r}: give TWL06, SOWPODS or the path of a word-list file")
    if lexicons:
        Lexicon.load(lexicons[0])
    try:  # connect and migrate now, to report a bad database as a message, not a traceback
        store = Store(url)
        desc = store.describe()
        store.upgrade()
        store.close()
    except Exception as e:
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        raise LexikoError(f"cannot use the database {url!r}: {reason}") from None
    if args.redis_url:
        if not desc.startswith("postgresql"):
            raise LexikoError(
                "--redis-url (several processes sharing games) needs PostgreSQL, which they all "
                "reach: give --database-url postgresql://...; SQLite is for one process"
            )
        try:
            import redis

            redis.from_url(args.redis_url, socket_connect_timeout=3).ping()
        except ImportError:
            raise LexikoError("--redis-url needs the redis package: pip install redis") from None
        except Exception as e:
            raise LexikoError(f"cannot reach Redis at {args.redis_url}: {e}") from None
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    app = create_app(
        url,
        lexicons=lexicons,
        bot_delay=args.bot_delay,
        allow_seeds=args.allow_seeds,
        limits=Limits(
            games=f"{args.games_per_hour}/hour" if args.games_per_hour else None,
            connections=(f"{args.connections_per_minute}/minute" if args.connections_per_minute else None),
            requests=f"{args.requests_per_minute}/minute" if args.requests_per_minute else None,
        ),
        api_docs=args.api_docs,
        expire_hours=args.expire_hours,
        redis_url=args.redis_url,
    )
    console.print(
        f"lexiko web app on [bold]http://{args.host}:{args.port}/[/bold]  (database: {desc})",
        highlight=False,
        soft_wrap=True,
    )
    # no per-message compression: states are a few kilobytes, and deflating each one
    # costs more server time than anything else per move
    proxied: dict[str, Any] = (
        {"proxy_headers": True, "forwarded_allow_ips": args.behind_proxy} if args.behind_proxy else {}
    )
    # what is loaded by now (the libraries: some 200,000 objects) lives as long as the
    # process: out of the collector's way, so that its full passes, which stop every
    # game, scan only the games' own objects
    gc.freeze()
    # and full passes (60-80 ms with 200 games in play, every game waiting meanwhile) ten
    # times rarer: after 100 middle-generation passes, not 10 (about every half minute
    # under load, where they made the 99th percentile of a move's latency)
    gc.set_threshold(700, 10, 100)
    # the database thread hands its work back to the loop many times a write: at the
    # default 5 ms switch interval, each hand-over may wait that long while the loop
    # runs (under 200 games a move's p99 inside the server went from 120-130 ms to
    # 50-76 ms with 0.5 ms)
    sys.setswitchinterval(SWITCH_INTERVAL)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=MAX_FRAME,
        **proxied,
        ws_per_message_deflate=False,
    )
    return 0
