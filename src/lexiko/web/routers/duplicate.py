"""What is particular to a duplicate game over HTTP: its creator starts it with the
players who have joined, and anyone downloads its record (docs/duplicate.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from lexiko import duplicate
from lexiko.web import models
from lexiko.web.deps import Bearer, Game, Service
from lexiko.web.errors import ActionError
from lexiko.web.routers.games import attachment, text_response

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.post("/games/{game_id}/start", response_model=models.Started)
async def start(game_id: str, svc: Service, token: Bearer) -> dict[str, Any]:
    """Start a waiting duplicate game with the players who have joined (its creator only)."""
    return await svc.games.start_now(game_id, token)


@router.get("/games/{game_id}/duplicate", response_class=PlainTextResponse, responses=text_response("text/plain"))
async def download_duplicate(live: Game) -> PlainTextResponse:
    """A duplicate game's record (docs/duplicate.md): every closed round's rack, top
    and each player's move; the seed only once the game is over."""
    if not live.is_duplicate:
        raise ActionError("this is not a duplicate game: its record is the GCG")
    if live.duplicate is None:
        raise ActionError("the game has not started yet")
    return attachment(
        duplicate.dumps(live.duplicate, seed=live.duplicate.over), "text/plain; charset=utf-8", f"lexiko-{live.id}.dup"
    )
