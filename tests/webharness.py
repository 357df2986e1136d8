"""The harness of the web tests and the load benchmarks (test-only, not in the package):
the app served in a thread with its clients (:class:`Server`), the server in a process
of its own (to kill and restart it), a WebSocket client that keeps what it is sent, a
throwaway PostgreSQL, Redis or nginx on loopback, and helpers to create games and build
moves. ``tests/conftest.py`` makes fixtures of some; benchmarks/ puts tests/ on
``sys.path`` to import it.
"""

from __future__ import annotations

import contextlib
import glob
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from lexiko.board import Board
from lexiko.move import Exchange, Move, Place
from lexiko.rules import Rules
from lexiko.tiles import BLANK, LETTER_MASK, TileSet

if TYPE_CHECKING:
    import httpx

__all__ = [
    "cpu_seconds",
    "percentile",
    "free_port",
    "RedisServer",
    "NginxProxy",
    "nginx_config",
    "ServerProcess",
    "ThreadServer",
    "Server",
    "Connection",
    "TemporaryPostgres",
    "postgres_binaries",
    "test_postgres",
    "board_from_rows",
    "move_message",
    "find_phony",
    "new_game",
]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux; NaN where it cannot be read),
    for the load benchmarks' server CPU per action."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def percentile(xs: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile (NaN for no values).

    >>> percentile([5, 1, 4, 2, 3], 50), percentile([5, 1, 4, 2, 3], 99), percentile([], 50)
    (3, 5, nan)
    """
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(p / 100 * len(s)) - 1))]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    return free_ports(1)[0]


def free_ports(n: int) -> list[int]:
    """``n`` different TCP ports free on 127.0.0.1 right now (held open together while
    they are chosen: ports chosen one after another may repeat, and two servers given
    one port leave one dead while the other answers for both)."""
    with contextlib.ExitStack() as stack:
        ports = []
        for _ in range(n):
            s = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            s.bind(("127.0.0.1", 0))
            ports.append(s.getsockname()[1])
        return ports


class _Loopback:
    """A server on 127.0.0.1 at ``self.port``: its HTTP and WebSocket addresses."""

    port: int

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """``ws://127.0.0.1:PORT``."""
        return f"ws://127.0.0.1:{self.port}"


class ServerProcess(_Loopback):
    """``python -m lexiko.web`` in a child process on 127.0.0.1.

    >>> ServerProcess("sqlite:///x.db", port=9).url
    'http://127.0.0.1:9'
    """

    def __init__(
        self,
        database_url: str,
        *,
        port: int | None = None,
        bot_delay: float = 0.0,
        extra: Sequence[str] = (),
        log_path: str | os.PathLike[str] | None = None,
    ) -> None:
        self.database_url = database_url
        self.port = port if port is not None else free_port()
        self.bot_delay = bot_delay
        self.extra = list(extra)
        self.log_path = Path(log_path) if log_path is not None else None
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> ServerProcess:
        """Start the server and wait until it answers."""
        cmd = [
            sys.executable,
            "-m",
            "lexiko.web",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--database-url",
            self.database_url,
            "--bot-delay",
            str(self.bot_delay),
            "--log-level",
            "warning",
            *self.extra,
        ]
        out = open(self.log_path, "ab") if self.log_path is not None else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        finally:
            if out is not subprocess.DEVNULL:
                out.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {self.proc.returncode}: see {self.log_path}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if json.loads(r.read()).get("ok"):
                        return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"the server did not answer within {timeout} s")

    def kill(self) -> None:
        """Kill the server at once (SIGKILL): no shutdown, no chance to save anything more."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        """Stop the server politely (SIGTERM), killing it if it takes too long."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class ThreadServer(_Loopback):
    """An app served by uvicorn in a thread of this process, on 127.0.0.1 and a free port."""

    def __init__(self, app: Any, *, port: int | None = None) -> None:
        import uvicorn

        self.port = port if port is not None else free_port()
        from lexiko.web.limits import MAX_FRAME

        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on", ws_max_size=MAX_FRAME
        )
        self.server = uvicorn.Server(config)
        self.thread: threading.Thread | None = None

    def start(self, timeout: float = 30.0) -> ThreadServer:
        """Start serving and wait until the app has started."""
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        """Shut down (the app's shutdown runs) and wait for the thread."""
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(30)
            self.thread = None

    def __enter__(self) -> ThreadServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Server:
    """The app of ``create_app(database_url, **options)`` served in a thread, with the
    clients a test opens on it: an HTTP client ``http`` (more from :meth:`client`) and
    WebSocket connections (:meth:`connect`). :meth:`close` closes them all and stops the
    app; so does leaving a ``with`` block.

    ``options`` are ``create_app``'s (``allow_seeds``, ``limits``, ``clock_interval``, ...).
    """

    def __init__(self, database_url: str, **options: Any) -> None:
        from lexiko.web.server import create_app

        self.db_url = database_url
        self.ts = ThreadServer(create_app(database_url, **options)).start()
        self.url = self.ts.url
        self.ws_url = self.ts.ws_url
        self.clients: list[httpx.Client] = []
        self.conns: list[Connection] = []
        self.answers: list[tuple[str, str, Any]] = []
        self.http = self.client()

    def client(self) -> httpx.Client:
        """A new HTTP client of the app (its own cookies: another person), closed with it.
        Its JSON answers of 2xx under ``/api/`` are kept, to be checked at the close."""
        import httpx

        c = httpx.Client(base_url=self.url, timeout=20, event_hooks={"response": [self._keep]})
        self.clients.append(c)
        return c

    def _keep(self, response: httpx.Response) -> None:
        request = response.request
        kind = response.headers.get("content-type", "")
        if request.url.path.startswith("/api/") and response.is_success and kind.startswith("application/json"):
            response.read()
            self.answers.append((request.method, request.url.path, response.json()))

    def connect(self, game_id: str, token: str | None, *, headers: dict[str, str] | None = None) -> Connection:
        """A WebSocket connection to a game, as the seat of ``token`` (None: a spectator),
        with extra ``headers`` on its handshake (``X-Forwarded-For``: another address)."""
        c = Connection(self.ws_url, game_id, token, headers=headers)
        self.conns.append(c)
        return c

    def close(self) -> None:
        """Close every connection and client, then stop the app; then check that every
        message the connections received fits the models of `lexiko.web.models`."""
        for c in self.conns:
            c.close()
        for h in self.clients:
            h.close()
        self.ts.stop()
        for c in self.conns:
            check_messages(c.messages)
        check_answers(self.answers)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Connection:
    """A client of a game's WebSocket that keeps every message it receives (to check
    what a client is sent) and waits for messages with a time limit."""

    def __init__(
        self,
        ws_url: str,
        game_id: str,
        token: str | None,
        *,
        timeout: float = 20.0,
        headers: dict[str, str] | None = None,
    ) -> None:
        from websockets.sync.client import connect

        self.timeout = timeout
        self.token = token
        self._cm = connect(f"{ws_url}/ws/{game_id}", open_timeout=timeout, max_size=2**22, additional_headers=headers)
        self.ws = self._cm.__enter__()
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] = {}
        self.seat: int | None = None
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = self.recv("welcome")
        self.seat = welcome["seat"]
        self.recv("state")

    def send(self, message: dict[str, Any]) -> None:
        """Send one message."""
        self.ws.send(json.dumps(message))

    def _next(self, deadline: float) -> dict[str, Any]:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no message from the server in time")
        text = self.ws.recv(timeout=left)
        assert isinstance(text, str)
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        self.messages.append(msg)
        if msg.get("type") == "state":
            if not self.state or msg["version"] >= self.state["version"]:
                self.state = msg
        return msg

    def recv(self, kind: str | None = None, timeout: float | None = None) -> dict[str, Any]:
        """The next message (of that type, skipping others)."""
        deadline = time.monotonic() + (timeout if timeout is not None else self.timeout)
        while True:
            msg = self._next(deadline)
            if kind is None or msg.get("type") == kind:
                return msg

    def wait_state(self, pred: Any, timeout: float | None = None) -> dict[str, Any]:
        """Wait for a state for which ``pred(state)`` is true (the latest one may do)."""
        if self.state and pred(self.state):
            return self.state
        deadline = time.monotonic() + (timeout if timeout is not None else self.timeout)
        while True:
            msg = self._next(deadline)
            if msg.get("type") == "state" and pred(msg):
                return msg

    def wait_version(self, version: int, timeout: float | None = None) -> dict[str, Any]:
        """Wait for a state at least at this version."""
        return self.wait_state(lambda s: s["version"] >= version, timeout)

    def act(self, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """Send an action and return the next state or error answering it."""
        before = self.state.get("version", -1)
        self.send(message)
        deadline = time.monotonic() + (timeout if timeout is not None else self.timeout)
        while True:
            msg = self._next(deadline)
            if msg.get("type") == "error":
                return msg
            if msg.get("type") == "state" and msg["version"] > before:
                return msg

    def close(self) -> None:
        """Close the connection."""
        with contextlib.suppress(Exception):
            self._cm.__exit__(None, None, None)


def check_messages(messages: Sequence[dict[str, Any]]) -> None:
    """Raise AssertionError unless every message is one of the socket messages of
    `lexiko.web.models`, with no key the models do not name."""
    from pydantic import ValidationError

    from lexiko.web import models

    for message in messages:
        try:
            parsed = models.server_message(message)
        except ValidationError as e:
            raise AssertionError(f"a {message.get('type')!r} message fits no model: {e}") from None
        extra = models.unmodelled(parsed)
        assert not extra, f"a {message['type']!r} message has keys no model names: {extra}"


def check_answers(answers: Sequence[tuple[str, str, Any]]) -> None:
    """Raise AssertionError unless every answer (method, path, JSON body) fits the
    ``response_model`` of its route, with no key the models do not name."""
    from fastapi.routing import APIRoute
    from pydantic import TypeAdapter, ValidationError

    from lexiko.web import models
    from lexiko.web.server import ROUTERS

    routes = [r for router in ROUTERS for r in router.routes if isinstance(r, APIRoute)]
    for method, path, body in answers:
        route = next((r for r in routes if method in r.methods and r.path_regex.match(path)), None)
        assert route is not None and route.response_model is not None, f"{method} {path}: no route with a model"
        try:
            parsed = TypeAdapter(route.response_model).validate_python(body)
        except ValidationError as e:
            raise AssertionError(f"{method} {path} answered what its model refuses: {e}") from None
        extra = models.unmodelled(parsed)
        assert not extra, f"{method} {path} answered keys no model names: {extra}"


def library_standings(view: dict[str, Any]) -> list[tuple[int, str, int, float, int]]:
    """The standings `lexiko.tournament` computes from the results an event's view shows
    (its first division): rank, name, number, wins and spread of each player."""
    from lexiko.tournament import Division, Pairing, Player, Settings, standings

    div = view["divisions"][0]
    d = Division("A", Settings(method=div["method"], rounds=div["rounds"]))
    for p in div["players"]:
        d.add_player(Player(p["name"], p["rating"]))
    for rnd in div["paired"]:
        d.add_round([Pairing(p["first"], p["second"]) for p in rnd["pairings"]], everyone=False)
        for p in rnd["pairings"]:
            if p["second"] is not None and p["scores"] is not None:
                d.record(rnd["round"], p["first"], p["scores"][0], p["second"], p["scores"][1])
    return [(s.rank, s.name, s.number, s.wins, s.spread) for s in standings(d)]


def board_from_rows(rows: Sequence[Sequence[str]], rules: Rules) -> Board:
    """The board of a state message (rows of faces) as a `Board`."""
    ts = rules.tile_set
    n = len(rows)
    cells = bytearray(n * n)
    for r, row in enumerate(rows):
        for c, face in enumerate(row):
            if face:
                cells[r * n + c] = ts.parse_token(face)
    return Board(bytes(cells), rules.board_layout, ts)


def move_message(move: Move, tiles: TileSet) -> dict[str, Any]:
    """The WebSocket message for a move, a placement as tiles dropped on squares."""
    if isinstance(move, Place):
        return {
            "type": "play",
            "tiles": [
                {"row": r, "col": c, "letter": tiles.face(t & LETTER_MASK), "blank": bool(t & BLANK)}
                for r, c, t in move.new_tiles()
            ],
        }
    if isinstance(move, Exchange):
        return {"type": "exchange", "tiles": [tiles.face(t) for t in move.tiles]}
    return {"type": "pass"}


def find_phony(board: Board, rack: Sequence[int], judge: Any, rules: Rules) -> Place | None:
    """A placement of one or two rack tiles (no blanks) that the rules allow where it
    goes but that forms a word ``judge`` does not know: a phony to challenge."""
    from lexiko.errors import LexikoError
    from lexiko.legality import check_placement
    from lexiko.scoring import words_formed

    n = board.size
    tiles = [t for t in dict.fromkeys(rack) if t]
    pairs = [(a, b) for i, a in enumerate(rack) for j, b in enumerate(rack) if i != j and a and b]
    if board.is_empty:
        sr, sc = board.layout.start
        for a, b in pairs:
            m = Place(sr, sc, False, (a, b))
            if not judge.contains_codes([a, b]):
                return m
        return None
    near = [
        (r, c)
        for r in range(n)
        for c in range(n)
        if not board.tile_at(r, c)
        and any(
            0 <= r + dr < n and 0 <= c + dc < n and board.tile_at(r + dr, c + dc)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )
    ]
    for r, c in near:
        for down in (False, True):
            for combo in [(t,) for t in tiles] + pairs:
                dr, dc = (1, 0) if down else (0, 1)
                if len(combo) == 2 and not (r + dr < n and c + dc < n and not board.tile_at(r + dr, c + dc)):
                    continue
                m = Place(r, c, down, combo)
                try:
                    m = check_placement(board, m, rules)
                except LexikoError:
                    continue
                words = words_formed(board, m)
                if words and any(not judge.contains_codes([x & LETTER_MASK for x in w.codes]) for w in words):
                    return m
    return None


def new_game(
    http: Any,
    *,
    seats: Sequence[dict[str, Any]] = ({"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}),
    preset: str = "tournament",
    options: dict[str, Any] | None = None,
    seed: int | None = 7,
) -> tuple[str, list[str | None]]:
    """Create a game through the HTTP API (``http``: an httpx client with the server's
    base URL) and take every invited seat; returns the id and each seat's token
    (None for bots)."""
    r = http.post("/api/games", json={"preset": preset, "options": options or {}, "seats": list(seats), "seed": seed})
    if r.status_code != 200:
        raise AssertionError(f"creating the game failed: {r.status_code} {r.text}")
    d = r.json()
    tokens: list[str | None] = [None] * len(seats)
    tokens[d["seat"]] = d["token"]
    for inv in d["invites"]:
        name = seats[inv["seat"]].get("name") or f"Player {inv['seat'] + 1}"
        j = http.post(f"/api/games/{d['game_id']}/join", json={"invite": inv["path"].rsplit("/", 1)[1], "name": name})
        if j.status_code != 200:
            raise AssertionError(f"joining failed: {j.status_code} {j.text}")
        tokens[j.json()["seat"]] = j.json()["token"]
    return d["game_id"], tokens


def postgres_binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` of the newest PostgreSQL installed
    (Debian puts them in ``/usr/lib/postgresql/VERSION/bin``), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    which = shutil.which("initdb")
    return Path(which).parent if which else None


class TemporaryPostgres:
    """A PostgreSQL server of its own in a temporary folder, on 127.0.0.1 and a free
    port, with trust authentication for one user and a database ``lexiko``; removed
    on exit. Run as root, the server runs as the ``postgres`` user (PostgreSQL refuses
    to run as root)."""

    def __init__(self, bindir: Path | None = None) -> None:
        found = bindir or postgres_binaries()
        if found is None:
            raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        self.bindir = found
        self.port = free_port()
        self.tmp: str | None = None
        self.url = f"postgresql+psycopg://lexiko@127.0.0.1:{self.port}/lexiko"

    def _run(self, args: list[str]) -> None:
        cmd = args
        if os.geteuid() == 0:
            runuser = shutil.which("runuser")
            if runuser is None:
                raise RuntimeError("running as root needs runuser to start PostgreSQL as the postgres user")
            cmd = [runuser, "-u", "postgres", "--", *args]
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if res.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {res.stderr.strip() or res.stdout.strip()}")

    def start(self) -> str:
        """Create and start the server; returns its SQLAlchemy URL."""
        self.tmp = tempfile.mkdtemp(prefix="lexiko-pg-")
        data = os.path.join(self.tmp, "data")
        if os.geteuid() == 0:
            shutil.chown(self.tmp, "postgres", "postgres")
        self._run([str(self.bindir / "initdb"), "-D", data, "-U", "lexiko", "--auth=trust", "-E", "UTF8", "--no-sync"])
        opts = f"-h 127.0.0.1 -p {self.port} -k {self.tmp} -F -c fsync=off -c full_page_writes=off"
        self._run(
            [
                str(self.bindir / "pg_ctl"),
                "-D",
                data,
                "-o",
                opts,
                "-l",
                os.path.join(self.tmp, "log"),
                "-w",
                "-t",
                "60",
                "start",
            ]
        )
        self._run([str(self.bindir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "lexiko", "lexiko"])
        return self.url

    def stop(self) -> None:
        """Stop the server and remove its files."""
        if self.tmp is None:
            return
        with contextlib.suppress(Exception):
            self._run(
                [str(self.bindir / "pg_ctl"), "-D", os.path.join(self.tmp, "data"), "-m", "immediate", "-w", "stop"]
            )
        shutil.rmtree(self.tmp, ignore_errors=True)
        self.tmp = None

    def __enter__(self) -> str:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


@contextlib.contextmanager
def test_postgres() -> Iterator[str | None]:
    """A PostgreSQL URL for tests: ``LEXIKO_TEST_POSTGRES_URL`` when set (for example by
    CI, which starts the server), else a `TemporaryPostgres` when PostgreSQL is
    installed (raising if it does not start), else None."""
    env = os.environ.get("LEXIKO_TEST_POSTGRES_URL")
    if env:
        yield env
        return
    if postgres_binaries() is None:
        yield None
        return
    pg = TemporaryPostgres()
    try:
        yield pg.start()
    finally:
        pg.stop()


test_postgres.__test__ = False  # type: ignore[attr-defined]  # not a test for pytest


class RedisServer:
    """A throwaway ``redis-server`` on loopback (no persistence), for shared mode.

    >>> RedisServer(port=9).url
    'redis://127.0.0.1:9/0'
    """

    def __init__(self, port: int | None = None) -> None:
        self.port = port if port is not None else free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> str:
        """Start it and wait until it answers; returns its URL."""
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (Debian: apt-get install redis-server)")
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return self.url
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"redis-server did not answer within {timeout} s")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


def nginx_config(listen: int, upstreams: Sequence[int], folder: Path) -> str:
    """``deploy/nginx.conf`` of the source tree with this port, these app ports and
    temporary files in ``folder`` (as the tests and the load benchmark run it)."""
    import re

    conf = (Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf").read_text()
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in upstreams)
    conf = re.sub(r"(?:        server app\d+:8000[^\n]*\n)+", lambda m: servers + "\n", conf)  # each upstream
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    for old, new in (
        ("/run/nginx-lexiko.pid", folder / "nginx.pid"),
        ("/var/log/nginx/lexiko-error.log", folder / "error.log"),
    ):
        conf = conf.replace(old, str(new))
    temp = "".join(f"    {kind}_temp_path {folder / kind};\n" for kind in ("client_body", "proxy"))
    return conf.replace("http {\n", "http {\n" + temp, 1)  # its temporary files in the folder


class NginxProxy(_Loopback):
    """nginx with `nginx_config` in front of app processes on loopback."""

    def __init__(self, upstreams: Sequence[int], folder: Path, port: int | None = None) -> None:
        self.port = port if port is not None else free_port()
        self.upstreams = list(upstreams)
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> NginxProxy:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.path.exists(binary):
            raise RuntimeError("nginx is not installed (Debian: apt-get install nginx)")
        conf = self.folder / "nginx.conf"
        conf.write_text(nginx_config(self.port, self.upstreams, self.folder))
        self.proc = subprocess.Popen(
            [binary, "-c", str(conf), "-p", str(self.folder), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            health = self.url + "/healthz"
            with contextlib.suppress(OSError, ValueError), urllib.request.urlopen(health, timeout=1) as r:
                if json.loads(r.read()).get("ok"):
                    return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"nginx did not start: see {self.folder / 'error.log'}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None
