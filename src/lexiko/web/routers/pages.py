"""The pages of the front end (plain HTML, CSS and JavaScript, no build step) and the
health check. ``/`` creates a game, ``/join/{id}/{invite}`` takes an invited seat,
``/game/{id}`` plays, watches and reviews one, ``/review/{id}`` shows the review of a
GCG record sent from the lobby."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from lexiko.web import models
from lexiko.web.deps import Service

__all__ = ["router", "STATIC"]

STATIC = Path(__file__).resolve().parent.parent / "static"
"""The front end: plain HTML, CSS and JavaScript, no build step."""

router = APIRouter()


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.get("/game/{game_id}", include_in_schema=False)
async def game_page(game_id: str) -> FileResponse:
    return FileResponse(STATIC / "game.html", media_type="text/html")


@router.get("/join/{game_id}/{invite}", include_in_schema=False)
async def join_page(game_id: str, invite: str) -> FileResponse:
    return FileResponse(STATIC / "join.html", media_type="text/html")


@router.get("/event/new", include_in_schema=False)
async def new_event_page() -> FileResponse:
    return FileResponse(STATIC / "event_new.html", media_type="text/html")


@router.get("/event/{event_id}", include_in_schema=False)
async def event_page(event_id: str) -> FileResponse:
    return FileResponse(STATIC / "event.html", media_type="text/html")


@router.get("/event/{event_id}/register/{key}", include_in_schema=False)
async def register_page(event_id: str, key: str) -> FileResponse:
    return FileResponse(STATIC / "event_register.html", media_type="text/html")


@router.get("/review/{review_id}", include_in_schema=False)
async def review_page(review_id: str) -> FileResponse:
    return FileResponse(STATIC / "review.html", media_type="text/html")


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/healthz", response_model=models.Health)
async def healthz(svc: Service) -> dict[str, object]:
    """Up, and on which kind of database."""
    return {"ok": True, "database": svc.core.store.dialect}
