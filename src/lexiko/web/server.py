"""The web app: FastAPI routes, the WebSocket of each game, and the static front end.

Pages: ``/`` (create a game), ``/join/{id}/{invite}`` (take an invited seat),
``/game/{id}`` (play, watch, review). JSON: ``/api/options``, ``POST /api/games``,
``/api/games/{id}``, ``POST /api/games/{id}/join``, ``POST /api/games/{id}/start`` (a
duplicate game's creator starts it with the players who have joined), ``/api/games/{id}/gcg``,
``/api/games/{id}/review``, ``/api/games/{id}/duplicate`` (a duplicate game's record).
Play: the WebSocket ``/ws/{id}``. In a duplicate game ``play`` and ``pass`` are the
player's move for the round (sent again, it replaces the first); the state carries a
``duplicate`` object (round, time left, who has played, your move, the last round).

The WebSocket protocol (JSON text messages). The client opens with
``{"type": "hello", "token": TOKEN}`` (no token: watch). The server answers
``welcome`` then a ``state`` after every change. The client sends actions:
``{"type": "play", "tiles": [{"row": 7, "col": 7, "letter": "A", "blank": false}, ...]}``
(or ``"move": "8D WORD"``), ``{"type": "exchange", "tiles": "AEI"}``, ``{"type": "pass"}``,
``{"type": "challenge"}``, ``{"type": "accept"}``, ``{"type": "resign"}``, ``{"type": "abort"}``
(before the first move), ``{"type": "rematch"}`` (once the game is over: a new game with
the same players, whose id the state's ``rematch`` gives); ``{"type": "preview", "tiles": [...],
"id": N}`` asks for the score of tiles placed but not played; ``{"type": "chat", "text": ...}``
(players only) goes to everyone as ``{"type": "chat", "from": ..., "text": ...}``. A refused action gets
``{"type": "error", "message": ...}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketState

from lexiko import duplicate
from lexiko.web import models
from lexiko.web.limits import MAX_MESSAGE, BodyLimit, Limits, RateLimits
from lexiko.web.service import ActionError, GameService, NotFoundError, SeatRequest
from lexiko.web.store import Store
from lexiko.web.views import gcg_for, to_json

__all__ = ["create_app", "STATIC"]

log = logging.getLogger("lexiko.web")

T = TypeVar("T")

STATIC = Path(__file__).resolve().parent / "static"
"""The front end: plain HTML, CSS and JavaScript, no build step."""

_ACTIONS = {"play", "exchange", "pass", "challenge", "accept", "resign", "abort", "rematch"}
_TEXT: dict[str, dict[int | str, dict[str, Any]]] = {
    kind: {200: {"content": {kind: {"schema": {"type": "string"}}}}} for kind in ("application/x-gcg", "text/plain")
}
"""The OpenAPI description of a route that answers with text."""
_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


class SeatIn(BaseModel):
    """A seat of a new game: ``human`` or a bot kind, and a name."""

    kind: str = "human"
    name: str | None = Field(default=None, max_length=100)


class CreateGameIn(BaseModel):
    """A new game: a rules preset with changes, the seats (first human: you) and an optional seed."""

    preset: str = "casual"
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatIn]
    seed: int | None = None
    #: Show the game in the lobby: anyone may take an open seat, or watch.
    public: bool = False


class JoinIn(BaseModel):
    """Take an invited seat (signed in: as your account, whatever ``name`` says)."""

    invite: str = Field(max_length=100)
    name: str = Field(default="", max_length=100)


class AccountIn(BaseModel):
    """A name and a password: to sign up or to sign in."""

    name: str = Field(max_length=100)
    password: str = Field(max_length=200)


SESSION_COOKIE = "lexiko_session"
"""The cookie that keeps a browser signed in (HttpOnly, SameSite=Lax)."""


def csrf_token(session: str) -> str:
    """The value a signed-in page sends in ``X-CSRF-Token`` with every request that uses
    the session cookie: derived from the session key, which another site cannot read."""
    return hashlib.sha256(b"lexiko-csrf:" + session.encode()).hexdigest()


class _Connection:
    """One WebSocket client: its seat and a queue of messages sent in order by one task."""

    def __init__(self, ws: WebSocket, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue(maxsize=500)
        self.task = asyncio.create_task(self._send_loop())

    def post(self, message: dict[str, Any] | str) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:  # a client that does not read: let it go
            self.task.cancel()

    async def _send_loop(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                msg = await self.queue.get()
                if msg is None:
                    return
                await self.ws.send_text(msg if isinstance(msg, str) else to_json(msg))

    async def close(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(self.task, timeout=2)


class _SecurityHeaders:
    """ASGI middleware: ``nosniff`` on every response; a content security policy and no
    referrer on the pages (which carry secret links)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        page = path == "/" or path.startswith(("/game/", "/join/"))

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"x-content-type-options", b"nosniff"))
                if page:
                    headers.append((b"content-security-policy", _CSP.encode()))
                    headers.append((b"referrer-policy", b"no-referrer"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _RateLimited(ActionError):
    """Too many requests of one kind from one address."""


class _Forbidden(ActionError):
    """A request the server will not take from where it came."""


class _Unauthorized(ActionError):
    """Needs a signed-in account."""


async def _receive_text(ws: WebSocket) -> str:
    """The client's next message; a binary frame reads as no text (it is not JSON text,
    and is refused as such). Raises WebSocketDisconnect when the client has gone: its
    goodbye came, or a send to it failed (the socket then counts as disconnected)."""
    if ws.application_state != WebSocketState.CONNECTED:
        raise WebSocketDisconnect(1006)
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else ""


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def create_app(
    database_url: str = "sqlite:///lexiko.db",
    *,
    lexicons: Sequence[str] = ("TWL06", "SOWPODS"),
    bot_delay: float = 0.0,
    clock_interval: float = 1.0,
    idle_seconds: float = 600.0,
    allow_seeds: bool = False,
    limits: Limits | None = None,
    api_docs: bool = False,
    expire_hours: float = 24.0,
    abandon_days: float = 7.0,
    redis_url: str | None = None,
) -> FastAPI:
    """The web app on a database (SQLite path or URL, ``postgresql://...``). The schema is
    migrated at startup. ``lexicons`` are the word lists games may use (the first is the
    default); ``bot_delay`` is a pause in seconds before each computer move; games no
    client has watched for ``idle_seconds`` are let go from memory (the database keeps
    them). A seed chosen by the creator is taken only for a game of one person against
    the computer, unless ``allow_seeds`` (tests, analysis); a seeded game shows its seed
    to every player. ``limits``: the rates of `lexiko.web.limits`; games nobody
    joined within ``expire_hours`` are deleted, and a game nobody has moved in for
    ``abandon_days`` ends with the player on turn losing; ``redis_url`` turns on shared
    mode (several processes on one PostgreSQL database, see `lexiko.web.bus`);
    ``api_docs`` serves the interactive API documentation at ``/api/docs`` (its page
    loads scripts from a CDN, so it is off by default)."""
    rates = RateLimits(limits, redis_url=redis_url)  # counts per address in Redis when shared

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        from lexiko.web.bus import Bus, RedisBus

        bus = RedisBus(redis_url) if redis_url else Bus()
        service = GameService(
            store,
            lexicons=lexicons,
            bot_delay=bot_delay,
            clock_interval=clock_interval,
            idle_seconds=idle_seconds,
            allow_seeds=allow_seeds,
            expire_hours=expire_hours,
            abandon_days=abandon_days,
            bus=bus,
        )
        await service.open()
        app.state.service = service
        log.info("lexiko web app ready on %s", store.describe())
        try:
            yield
        finally:
            await service.close()
            await rates.close()

    app = FastAPI(
        title="lexiko",
        lifespan=lifespan,
        docs_url="/api/docs" if api_docs else None,
        redoc_url=None,
        openapi_url="/api/openapi.json" if api_docs else None,
    )

    def service_of(request: Request | WebSocket) -> GameService:
        svc: GameService = request.app.state.service
        return svc

    # -- errors: always a JSON message, never a traceback -------------------------------

    @app.exception_handler(ActionError)
    async def _action_error(request: Request, exc: ActionError) -> JSONResponse:
        status = (
            404
            if isinstance(exc, NotFoundError)
            else 429
            if isinstance(exc, _RateLimited)
            else 403
            if isinstance(exc, _Forbidden)
            else 401
            if isinstance(exc, _Unauthorized)
            else 400
        )
        return JSONResponse({"error": str(exc)}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg", "invalid")))
        return JSONResponse({"error": "invalid request: " + "; ".join(parts)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s", request.url.path)
        return JSONResponse({"error": "internal error: the request was not carried out"}, status_code=500)

    app.add_middleware(BodyLimit, rates=rates)
    app.add_middleware(_SecurityHeaders)

    # -- pages ------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "game.html", media_type="text/html")

    @app.get("/join/{game_id}/{invite}", include_in_schema=False)
    async def join_page(game_id: str, invite: str) -> FileResponse:
        return FileResponse(STATIC / "join.html", media_type="text/html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- JSON API -----------------------------------------------------------------------

    @app.get("/healthz", response_model=models.Health)
    async def healthz(request: Request) -> dict[str, Any]:
        return {"ok": True, "database": service_of(request).store.dialect}

    @app.get("/api/options", response_model=models.Options, response_model_exclude_unset=True)
    async def options(request: Request) -> dict[str, Any]:
        return service_of(request).options()

    async def signed_in(request: Request) -> Any:
        """The account of the request's session cookie, checking the CSRF header: a
        request that carries the cookie without the page's token is refused (another
        site may make a browser send the cookie, never the token)."""
        session = request.cookies.get(SESSION_COOKIE)
        if not session:
            return None
        sent = request.headers.get("x-csrf-token", "")
        if not hmac.compare_digest(sent, csrf_token(session)):
            raise _Forbidden("this request did not come from lexiko's own page (no CSRF token): reload the page")
        account = await service_of(request).account_for(session)
        return account

    def me(account: Any, session: str) -> dict[str, Any]:
        return {
            "name": account.name,
            "rating": round(account.rating),
            "rd": round(account.rd),
            "games": account.games,
            "csrf": csrf_token(session),
        }

    def with_session(data: dict[str, Any], session: str, request: Request) -> JSONResponse:
        resp = JSONResponse(data)
        resp.set_cookie(
            SESSION_COOKIE,
            session,
            max_age=30 * 86400,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/",
        )
        return resp

    @app.post("/api/accounts", response_model=models.Me)
    async def sign_up(body: AccountIn, request: Request) -> JSONResponse:
        """Make an account (optional: games by invitation need none) and sign in."""
        if not await rates.signin(request.client.host if request.client else "?"):
            raise _RateLimited("too many attempts from your address: wait a minute")
        account, session = await service_of(request).sign_up(body.name, body.password)
        return with_session(me(account, session), session, request)

    @app.post("/api/session", response_model=models.Me)
    async def sign_in(body: AccountIn, request: Request) -> JSONResponse:
        """Sign in with a name and password."""
        if not await rates.signin(request.client.host if request.client else "?"):
            raise _RateLimited("too many attempts from your address: wait a minute")
        account, session = await service_of(request).sign_in(body.name, body.password)
        return with_session(me(account, session), session, request)

    @app.delete("/api/session", status_code=204)
    async def sign_out(request: Request) -> Response:
        """Sign out (this browser)."""
        await signed_in(request)
        session = request.cookies.get(SESSION_COOKIE)
        if session:
            await service_of(request).sign_out(session)
        resp = Response(status_code=204)
        resp.delete_cookie(SESSION_COOKIE, path="/")
        return resp

    @app.get("/api/me", response_model=models.Me)
    async def who_am_i(request: Request) -> dict[str, Any]:
        """The signed-in account (and the CSRF token its page sends), or 401."""
        session = request.cookies.get(SESSION_COOKIE)
        account = await service_of(request).account_for(session)
        if account is None or session is None:
            raise _Unauthorized("not signed in")
        return me(account, session)

    @app.get("/api/ratings", response_model=list[models.RatingRow])
    async def ratings(request: Request) -> list[dict[str, Any]]:
        """The rated players, best first."""
        return await service_of(request).top_ratings()

    @app.post("/api/games", response_model=models.NewGame)
    async def create_game(body: CreateGameIn, request: Request) -> dict[str, Any]:
        svc = service_of(request)
        account = await signed_in(request)
        if not await rates.game(request.client.host if request.client else "?"):
            raise _RateLimited(
                f"too many new games from your address (at most {rates.limits.games}): wait, or play the ones you have"
            )
        return await svc.create_game(
            preset=body.preset,
            options=body.options,
            seats=[SeatRequest(s.kind, s.name) for s in body.seats],
            seed=body.seed,
            listed=body.public,
            account=account,
        )

    @app.get("/api/lobby", response_model=models.Lobby, response_model_exclude_unset=True)
    async def lobby(request: Request) -> dict[str, Any]:
        """Listed games: ``open`` (a seat to take, with the path that takes it) and ``live`` (to watch)."""
        return await service_of(request).listed()

    @app.get("/api/games/{game_id}", response_model=models.GameInfo, response_model_exclude_unset=True)
    async def game_info(
        game_id: str, request: Request, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        svc = service_of(request)
        live, seat = await svc.game_and_seat(game_id, _bearer(authorization))
        info = svc.lobby(live)
        if seat is not None:
            info["you"] = seat
            info["invites"] = svc.invites(live)
            info["open_path"] = svc.open_path(live)
            info["can_start"] = live.status == "waiting" and live.is_duplicate and seat == svc.creator(live)
        return info

    @app.post("/api/games/{game_id}/start", response_model=models.Started)
    async def start(game_id: str, request: Request, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Start a waiting duplicate game with the players who have joined (its creator only)."""
        return await service_of(request).start_now(game_id, _bearer(authorization))

    @app.post("/api/games/{game_id}/join", response_model=models.Joined)
    async def join(game_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
        account = await signed_in(request)
        return await service_of(request).join(game_id, body.invite, body.name, account)

    @app.get("/api/games/{game_id}/state", response_model=models.State, response_model_exclude_unset=True)
    async def state(game_id: str, request: Request, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        svc = service_of(request)
        live, seat = await svc.game_and_seat(game_id, _bearer(authorization))
        return svc.state(live, seat)

    @app.get("/api/games/{game_id}/gcg", response_class=PlainTextResponse, responses=_TEXT["application/x-gcg"])
    async def download_gcg(
        game_id: str, request: Request, authorization: str | None = Header(default=None)
    ) -> PlainTextResponse:
        svc = service_of(request)
        live, seat = await svc.game_and_seat(game_id, _bearer(authorization))
        if live.duplicate is not None:  # the tops, one round a turn (no seed while the game is on)
            text = duplicate.top_gcg(live.duplicate, seed=live.duplicate.over)
        elif live.game is None:
            raise ActionError("the game has not started yet")
        else:
            text = gcg_for(live, seat)
        return PlainTextResponse(
            text,
            media_type="application/x-gcg; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="lexiko-{live.id}.gcg"'},
        )

    @app.get("/api/games/{game_id}/duplicate", response_class=PlainTextResponse, responses=_TEXT["text/plain"])
    async def download_duplicate(game_id: str, request: Request) -> PlainTextResponse:
        """A duplicate game's record (docs/duplicate.md): every closed round's rack, top
        and each player's move; the seed only once the game is over."""
        svc = service_of(request)
        live = await svc.get(game_id)
        if not live.is_duplicate:
            raise ActionError("this is not a duplicate game: its record is the GCG")
        if live.duplicate is None:
            raise ActionError("the game has not started yet")
        return PlainTextResponse(
            duplicate.dumps(live.duplicate, seed=live.duplicate.over),
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="lexiko-{live.id}.dup"'},
        )

    @app.get("/api/games/{game_id}/lookup", response_model=models.Lookup, response_model_exclude_unset=True)
    async def lookup(game_id: str, word: str, request: Request) -> dict[str, Any]:
        """Is WORD valid in this game (and, once it is over, its anagrams)?"""
        svc = service_of(request)
        return await svc.lookup(await svc.get(game_id), word[:40])

    @app.get("/api/games/{game_id}/review", response_model=models.Review, response_model_exclude_unset=True)
    async def review(game_id: str, request: Request) -> dict[str, Any]:
        svc = service_of(request)
        return await svc.review(await svc.get(game_id))

    # -- the game's WebSocket --------------------------------------------------------------

    @app.websocket("/ws/{game_id}")
    async def game_socket(ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        svc = service_of(ws)

        async def refuse(message: str, code: int) -> None:
            with contextlib.suppress(Exception):
                await ws.send_text(json.dumps({"type": "error", "message": message, "fatal": True}))
                await ws.close(code=code)

        async def load(step: Awaitable[T]) -> T | None:
            """What ``step`` (the game's loading) gives, or None after refusing the
            connection with the reason."""
            try:
                return await step
            except ActionError as e:
                await refuse(str(e), 4404)
            except Exception:
                log.exception("game %s could not be loaded", game_id)
                await refuse("the server cannot load this game right now: try again later", 1011)
            return None

        address = ws.client.host if ws.client else "?"
        if not await rates.connection(address):
            await refuse("too many connections from your address: wait a minute", 4429)
            return
        if await load(svc.get(game_id)) is None:
            return
        try:
            first = await asyncio.wait_for(_receive_text(ws), timeout=30)
            hello = json.loads(first) if len(first) <= MAX_MESSAGE else None
        except (TimeoutError, ValueError, RecursionError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await ws.close(code=4400)
            return
        token = hello.get("token") if isinstance(hello, dict) else None
        # again: an idle game may have been let go meanwhile; and as the database has it
        # (its copy here may not have heard yet of a seat or a move made on another process)
        found = await load(svc.game_and_seat(game_id, token))
        if found is None:
            return
        live, seat = found
        conn = _Connection(ws, seat)
        if token and seat is None:
            conn.post(
                {
                    "type": "error",
                    "message": "this link's key does not belong to a player of this game: you are watching",
                }
            )
        conn.post({"type": "welcome", "seat": seat, "name": live.seats[seat].name if seat is not None else None})
        svc.subscribe(live, conn)
        conn.post(svc.state(live, seat))
        me = f"{id(conn)}"
        strikes = 0
        try:
            while True:
                raw = await _receive_text(ws)
                if not rates.message(me):
                    strikes += 1
                    if strikes > 50:  # it does not listen: let it go
                        await refuse("too many messages: the connection is closed", 1008)
                        break
                    conn.post({"type": "error", "message": "too many messages: slow down"})
                    continue
                if len(raw) > MAX_MESSAGE:
                    conn.post({"type": "error", "message": f"a message is at most {MAX_MESSAGE // 1024} KB"})
                    continue
                try:
                    msg = json.loads(raw)
                    if not isinstance(msg, dict):
                        raise ValueError
                except (ValueError, RecursionError):
                    conn.post({"type": "error", "message": "messages must be JSON objects"})
                    continue
                kind = msg.get("type")
                if not isinstance(kind, str):
                    conn.post({"type": "error", "message": 'a message needs a "type" that is text'})
                    continue
                if not isinstance(msg.get("id"), int | str | None) or len(str(msg.get("id"))) > 64:
                    msg["id"] = None
                try:
                    if kind == "preview":
                        conn.post(svc.preview(live, conn.seat, msg))
                    elif kind in _ACTIONS:
                        await svc.act(live, conn.seat, msg)
                    elif kind == "state":
                        conn.post(svc.state(live, conn.seat))
                    elif kind == "chat":
                        await svc.chat(live, conn.seat, msg)
                    elif kind == "ping":
                        conn.post({"type": "pong", "id": msg.get("id")})
                    else:
                        conn.post({"type": "error", "message": f"unknown message type {kind!r}"})
                except ActionError as e:
                    conn.post({"type": "error", "message": str(e), "action": kind, "id": msg.get("id")})
                except Exception:
                    log.exception("game %s: %s failed", live.id, kind)
                    conn.post(
                        {
                            "type": "error",
                            "message": "internal error: the action was not carried out",
                            "action": kind,
                            "id": msg.get("id"),
                        }
                    )
        except WebSocketDisconnect:
            pass
        finally:
            rates.forget(me)
            svc.unsubscribe(live, conn)
            await conn.close()

    return app
