"""Games: what the creation form offers, creating one, the lobby, a game's public facts
and state, taking an invited seat, and the GCG record. A player is known by the bearer
token of their seat (``Authorization: Bearer TOKEN``); without one, a spectator."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field

from lexiko import duplicate
from lexiko.web import models
from lexiko.web.deps import GameAndSeat, Service, SignedIn, game_budget
from lexiko.web.errors import ActionError
from lexiko.web.services.games import SeatRequest, creator, invites, open_path
from lexiko.web.views import gcg_for, lobby_info, state_for

__all__ = ["router", "SeatIn", "CreateGameIn", "JoinIn", "text_response"]

router = APIRouter(prefix="/api")


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


def text_response(media_type: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of a route that answers with text of that media type."""
    return {200: {"content": {media_type: {"schema": {"type": "string"}}}}}


def attachment(text: str, media_type: str, filename: str) -> PlainTextResponse:
    """Text to download as a file of that name."""
    return PlainTextResponse(
        text, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


@router.get("/options", response_model=models.Options, response_model_exclude_unset=True)
async def options(svc: Service) -> dict[str, Any]:
    """What the game-creation form offers: presets, the rules one may change, bots, lexicons."""
    return svc.lobby.options()


@router.post("/games", response_model=models.NewGame)
async def create_game(
    body: CreateGameIn, svc: Service, account: SignedIn, _: Annotated[None, Depends(game_budget)]
) -> dict[str, Any]:
    """Create a game: the first human seat is yours, the others get invitation links."""
    return await svc.games.create(
        preset=body.preset,
        options=body.options,
        seats=[SeatRequest(s.kind, s.name) for s in body.seats],
        seed=body.seed,
        listed=body.public,
        account=account,
    )


@router.get("/lobby", response_model=models.Lobby, response_model_exclude_unset=True)
async def lobby(svc: Service) -> dict[str, Any]:
    """Listed games: ``open`` (a seat to take, with the path that takes it) and ``live`` (to watch)."""
    return await svc.lobby.listed()


@router.get("/games/{game_id}", response_model=models.GameInfo, response_model_exclude_unset=True)
async def game_info(found: GameAndSeat) -> dict[str, Any]:
    """What anyone with the game's address may know; its players also get their seat
    and the invitations."""
    live, seat = found
    info = lobby_info(live)
    if seat is not None:
        info["you"] = seat
        info["invites"] = invites(live)
        info["open_path"] = open_path(live)
        info["can_start"] = live.status == "waiting" and live.is_duplicate and seat == creator(live)
    return info


@router.post("/games/{game_id}/join", response_model=models.Joined)
async def join(game_id: str, body: JoinIn, svc: Service, account: SignedIn) -> dict[str, Any]:
    """Take the seat an invitation is for (signed in: as your account)."""
    return await svc.games.join(game_id, body.invite, body.name, account)


@router.get("/games/{game_id}/state", response_model=models.State, response_model_exclude_unset=True)
async def state(found: GameAndSeat) -> dict[str, Any]:
    """The game as the seat of the bearer token sees it (none: a spectator)."""
    live, seat = found
    return state_for(live, seat)


@router.get("/games/{game_id}/gcg", response_class=PlainTextResponse, responses=text_response("application/x-gcg"))
async def download_gcg(found: GameAndSeat) -> PlainTextResponse:
    """The game as GCG; while it is on, without what the seat may not see. A duplicate
    game's GCG holds its tops, one round a turn."""
    live, seat = found
    if live.duplicate is not None:  # the tops, one round a turn (no seed while the game is on)
        text = duplicate.top_gcg(live.duplicate, seed=live.duplicate.over)
    elif live.game is None:
        raise ActionError("the game has not started yet")
    else:
        text = gcg_for(live, seat)
    return attachment(text, "application/x-gcg; charset=utf-8", f"lexiko-{live.id}.gcg")
