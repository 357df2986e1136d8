"""What the routes depend on, as FastAPI dependencies: the game service, the rate
budgets of the client's address, the signed-in account (with its CSRF check), and the
seat a bearer token holds in a game. A route names what it needs in its signature
(``svc: Service``, ``account: SignedIn``, ``_: Annotated[None, Depends(game_budget)]``)
and never checks these itself.

>>> bearer("Bearer abc"), bearer("Basic abc"), bearer(None)
('abc', None, None)
>>> len(csrf_token("a session key"))
64
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Annotated

from fastapi import Depends, Header, Request
from starlette.requests import HTTPConnection

from lexiko.web.errors import Forbidden, RateLimited
from lexiko.web.limits import RateLimits
from lexiko.web.live import LiveGame
from lexiko.web.service import GameService
from lexiko.web.store import Account

__all__ = [
    "SESSION_COOKIE",
    "csrf_token",
    "service",
    "Service",
    "rates",
    "Rates",
    "address",
    "signin_budget",
    "game_budget",
    "signed_in",
    "SignedIn",
    "bearer",
    "Bearer",
    "game",
    "Game",
    "game_and_seat",
    "GameAndSeat",
]

SESSION_COOKIE = "lexiko_session"
"""The cookie that keeps a browser signed in (HttpOnly, SameSite=Lax)."""


def csrf_token(session: str) -> str:
    """The value a signed-in page sends in ``X-CSRF-Token`` with every request that uses
    the session cookie: derived from the session key, which another site cannot read."""
    return hashlib.sha256(b"lexiko-csrf:" + session.encode()).hexdigest()


def service(conn: HTTPConnection) -> GameService:
    """The app's game service (made when the app starts)."""
    svc: GameService = conn.app.state.service
    return svc


Service = Annotated[GameService, Depends(service)]


def rates(conn: HTTPConnection) -> RateLimits:
    """The app's rate budgets (per address, per seat, per spectator's connection)."""
    limits: RateLimits = conn.app.state.rates
    return limits


Rates = Annotated[RateLimits, Depends(rates)]


def address(conn: HTTPConnection) -> str:
    """The client's address, as the rates count it."""
    return conn.client.host if conn.client else "?"


async def signin_budget(request: Request, budget: Rates) -> None:
    """One attempt of the address's sign-up and sign-in budget, or 429."""
    if not await budget.signin(address(request)):
        raise RateLimited("too many attempts from your address: wait a minute")


async def game_budget(request: Request, budget: Rates) -> None:
    """One game of the address's budget of new games, or 429."""
    if not await budget.game(address(request)):
        raise RateLimited(
            f"too many new games from your address (at most {budget.limits.games}): wait, or play the ones you have"
        )


async def signed_in(request: Request, svc: Service) -> Account | None:
    """The account of the request's session cookie, checking the CSRF header: a
    request that carries the cookie without the page's token is refused (another
    site may make a browser send the cookie, never the token)."""
    session = request.cookies.get(SESSION_COOKIE)
    if not session:
        return None
    sent = request.headers.get("x-csrf-token", "")
    if not hmac.compare_digest(sent, csrf_token(session)):
        raise Forbidden("this request did not come from lexiko's own page (no CSRF token): reload the page")
    return await svc.accounts.account_for(session)


SignedIn = Annotated[Account | None, Depends(signed_in)]


def bearer(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The seat's secret token of an ``Authorization: Bearer`` header (None: none)."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


Bearer = Annotated[str | None, Depends(bearer)]


async def game(game_id: str, svc: Service) -> LiveGame:
    """The game of the path (404 when there is none)."""
    return await svc.loader.get(game_id)


Game = Annotated[LiveGame, Depends(game)]


async def game_and_seat(game_id: str, svc: Service, token: Bearer) -> tuple[LiveGame, int | None]:
    """The game of the path and the seat the bearer token holds in it (None: a
    spectator), as the database has them."""
    return await svc.loader.game_and_seat(game_id, token)


GameAndSeat = Annotated[tuple[LiveGame, int | None], Depends(game_and_seat)]
