"""The web app: `create_app` builds it from the routers of `lexiko.web.routers`, with
its middleware and error handlers.

Pages: ``/`` (create a game), ``/join/{id}/{invite}`` (take an invited seat),
``/game/{id}`` (play, watch, review). JSON: ``/api/options``, ``POST /api/games``,
``/api/games/{id}``, ``POST /api/games/{id}/join``, ``POST /api/games/{id}/start`` (a
duplicate game's creator starts it with the players who have joined), ``/api/games/{id}/gcg``,
``/api/games/{id}/review``, ``/api/games/{id}/duplicate`` (a duplicate game's record);
accounts and sessions under ``/api/accounts``, ``/api/session``, ``/api/me``; events under
``/api/events`` (pages ``/event/new``, ``/event/{id}``, ``/event/{id}/register/{key}``). Play: the
WebSocket ``/ws/{id}`` (its protocol: `lexiko.web.routers.socket`). Every answer's shape
is a model of `lexiko.web.models`; every refusal is ``{"error": ...}`` with a 4xx status.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from lexiko.review import DEFAULT_DEPTH, ReviewDepth
from lexiko.web.errors import ActionError, status_of
from lexiko.web.limits import BodyLimit, Limits, RateLimits
from lexiko.web.routers import accounts, duplicate, events, games, pages, review, socket
from lexiko.web.routers.pages import STATIC
from lexiko.web.service import GameService
from lexiko.web.store import Store

__all__ = ["create_app", "STATIC", "ROUTERS"]

log = logging.getLogger("lexiko.web")

ROUTERS = tuple(module.router for module in (pages, accounts, games, duplicate, events, review, socket))
"""The routers of the app, in the order they are included."""

_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


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
        page = path == "/" or path.startswith(("/game/", "/join/", "/event/"))

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


def _add_error_handlers(app: FastAPI) -> None:
    """Every error is answered with a JSON message, never a traceback."""

    @app.exception_handler(ActionError)
    async def _action_error(request: Request, exc: ActionError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=status_of(exc))

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
    review_depth: ReviewDepth = DEFAULT_DEPTH,
    review_jobs: int = 1,
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
    loads scripts from a CDN, so it is off by default); ``review_depth`` is how hard a
    game review looks and ``review_jobs`` the worker processes of its play-outs (0: none,
    in the review's thread)."""
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
            review_depth=review_depth,
            review_jobs=review_jobs,
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
    app.state.rates = rates
    _add_error_handlers(app)
    app.add_middleware(BodyLimit, rates=rates)
    app.add_middleware(_SecurityHeaders)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
