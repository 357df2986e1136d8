"""Accounts (optional: games by invitation need none), the browser's session, and the
ratings. A session is an HttpOnly cookie; every request that uses it also sends the
page's CSRF token (`lexiko.web.deps.signed_in`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from lexiko.web import models
from lexiko.web.deps import SESSION_COOKIE, Service, csrf_token, signed_in, signin_budget
from lexiko.web.errors import Unauthorized
from lexiko.web.store import Account

__all__ = ["router", "AccountIn"]

router = APIRouter(prefix="/api")

SESSION_SECONDS = 30 * 86400
"""How long the session cookie is kept."""


class AccountIn(BaseModel):
    """A name and a password: to sign up or to sign in."""

    name: str = Field(max_length=100)
    password: str = Field(max_length=200)


def me(account: Account, session: str) -> dict[str, Any]:
    """The signed-in account as its page sees it, with the CSRF token it sends."""
    return {
        "name": account.name,
        "rating": round(account.rating),
        "rd": round(account.rd),
        "games": account.games,
        "csrf": csrf_token(session),
    }


def with_session(data: dict[str, Any], session: str, request: Request) -> JSONResponse:
    """``data`` as JSON, setting the session cookie."""
    resp = JSONResponse(data)
    resp.set_cookie(
        SESSION_COOKIE,
        session,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return resp


@router.post("/accounts", response_model=models.Me, dependencies=[Depends(signin_budget)])
async def sign_up(body: AccountIn, request: Request, svc: Service) -> JSONResponse:
    """Make an account (optional: games by invitation need none) and sign in."""
    account, session = await svc.accounts.sign_up(body.name, body.password)
    return with_session(me(account, session), session, request)


@router.post("/session", response_model=models.Me, dependencies=[Depends(signin_budget)])
async def sign_in(body: AccountIn, request: Request, svc: Service) -> JSONResponse:
    """Sign in with a name and password."""
    account, session = await svc.accounts.sign_in(body.name, body.password)
    return with_session(me(account, session), session, request)


@router.delete("/session", status_code=204, dependencies=[Depends(signed_in)])
async def sign_out(request: Request, svc: Service) -> Response:
    """Sign out (this browser)."""
    session = request.cookies.get(SESSION_COOKIE)
    if session:
        await svc.accounts.sign_out(session)
    resp = Response(status_code=204)
    resp.delete_cookie(SESSION_COOKIE, path="/")
    return resp


@router.get("/me", response_model=models.Me)
async def who_am_i(request: Request, svc: Service) -> dict[str, Any]:
    """The signed-in account (and the CSRF token its page sends), or 401."""
    session = request.cookies.get(SESSION_COOKIE)
    account = await svc.accounts.account_for(session)
    if account is None or session is None:
        raise Unauthorized("not signed in")
    return me(account, session)


@router.get("/ratings", response_model=list[models.RatingRow])
async def ratings(svc: Service) -> list[dict[str, Any]]:
    """The rated players, best first."""
    return await svc.ratings.top()
