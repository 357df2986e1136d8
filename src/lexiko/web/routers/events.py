"""Events (`lexiko.web.services.events`): a director creates one and runs it with its
secret token (``Authorization: Bearer TOKEN``); players register by its link (signed in:
as their account) and follow it with theirs; anyone reads it, its version (a page
polls it and reads the event again when it moves) and its JSON event file."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field

from lexiko.web import models_events as models
from lexiko.web.deps import Bearer, Service, SignedIn, game_budget
from lexiko.web.routers.games import attachment, text_response
from lexiko.web.services.events import DivisionRequest

__all__ = ["router"]

router = APIRouter(prefix="/api")


class DivisionIn(BaseModel):
    """A division of a new event."""

    name: str = Field(default="A", max_length=24)
    method: str = Field(default="swiss", max_length=32)
    rounds: int = 3
    bye_spread: int = 50
    gibson: bool = False


class CreateEventIn(BaseModel):
    """A new event: its name, divisions, the rules of its games (a preset with changes;
    ``time_minutes`` is each player's clock, 25 unless given) and whether each round
    is paired as soon as the last one is complete (``auto``)."""

    name: str = Field(max_length=100)
    divisions: list[DivisionIn] = Field(default_factory=lambda: [DivisionIn()], max_length=20)
    preset: str = "tournament"
    options: dict[str, Any] = Field(default_factory=dict)
    auto: bool = True


class RegisterIn(BaseModel):
    """Register by the event's link (``key``: its last part)."""

    key: str = Field(max_length=100)
    name: str = Field(default="", max_length=100)
    division: str | None = Field(default=None, max_length=24)
    rating: int = 0


class BotIn(BaseModel):
    """A computer player the director adds to a division."""

    kind: str = Field(default="greedy", max_length=32)
    division: str | None = Field(default=None, max_length=24)
    name: str | None = Field(default=None, max_length=100)


class WhichDivision(BaseModel):
    """The division to act on (none: the only one)."""

    division: str | None = Field(default=None, max_length=24)


class ResultIn(BaseModel):
    """A result the director enters: ``player`` scored ``score`` against ``opponent``'s
    ``opponent_score`` in ``round`` (``spread`` as read on the scorecard, checked when
    given); ``forfeit``: ``player`` forfeited; ``correct``: replace the result entered."""

    division: str | None = Field(default=None, max_length=24)
    round: int
    player: int
    opponent: int
    score: int = 0
    opponent_score: int = 0
    spread: int | None = None
    forfeit: bool = False
    correct: bool = False


class PauseIn(BaseModel):
    """Pause the event (no round is paired by itself) or resume it."""

    paused: bool = True


class WithdrawIn(BaseModel):
    """Remove player ``player`` from the rounds to come."""

    division: str | None = Field(default=None, max_length=24)
    player: int


@router.post("/events", response_model=models.NewEvent)
async def create_event(body: CreateEventIn, svc: Service, _: Annotated[None, Depends(game_budget)]) -> dict[str, Any]:
    """Create an event: you are its director (keep the token)."""
    return await svc.events.create(
        name=body.name,
        divisions=[DivisionRequest(d.name, d.method, d.rounds, d.bye_spread, d.gibson) for d in body.divisions],
        preset=body.preset,
        options=body.options,
        auto=body.auto,
    )


@router.get("/events/{event_id}", response_model=models.EventView, response_model_exclude_unset=True)
async def event(event_id: str, svc: Service, token: Bearer) -> dict[str, Any]:
    """The event: divisions, players, rounds and results, standings; the director's
    link to register, a player's next game."""
    return await svc.events.view(event_id, token)


@router.get("/events/{event_id}/version", response_model=models.EventVersion)
async def version(event_id: str, svc: Service) -> dict[str, Any]:
    """The event's version: read the event again when it moves."""
    return {"version": await svc.events.version(event_id)}


EVENT_FILE = "application/vnd.lexiko.event+json"
"""The media type of an event file (JSON, but not an answer of the API's models)."""


@router.get("/events/{event_id}/file", response_class=PlainTextResponse, responses=text_response(EVENT_FILE))
async def event_file(event_id: str, svc: Service) -> PlainTextResponse:
    """The event as the library's JSON event file (``lexiko tournament`` reads it)."""
    _, text = await svc.events.file(event_id)
    return attachment(text, f"{EVENT_FILE}; charset=utf-8", f"lexiko-event-{event_id}.json")


@router.post("/events/{event_id}/register", response_model=models.Registered, response_model_exclude_unset=True)
async def register(event_id: str, body: RegisterIn, svc: Service, account: SignedIn) -> dict[str, Any]:
    """Register by the event's link (signed in: as your account, with its rating)."""
    return await svc.events.register(
        event_id, key=body.key, name=body.name, division=body.division, rating=body.rating, account=account
    )


@router.post("/events/{event_id}/bots", response_model=models.Registered, response_model_exclude_unset=True)
async def add_bot(event_id: str, body: BotIn, svc: Service, token: Bearer) -> dict[str, Any]:
    """The director fills a seat with a computer player."""
    return await svc.events.add_bot(event_id, token, division=body.division, kind=body.kind, name=body.name)


@router.post("/events/{event_id}/start", response_model=models.EventView, response_model_exclude_unset=True)
async def start(event_id: str, svc: Service, token: Bearer) -> dict[str, Any]:
    """The director starts the event: each division's first round is paired and its games begin."""
    return await svc.events.start(event_id, token)


@router.post("/events/{event_id}/pair", response_model=models.EventView, response_model_exclude_unset=True)
async def pair_next(event_id: str, body: WhichDivision, svc: Service, token: Bearer) -> dict[str, Any]:
    """The director pairs a division's next round now (the last one must be complete)."""
    return await svc.events.pair_next(event_id, token, body.division)


@router.post("/events/{event_id}/repair", response_model=models.EventView, response_model_exclude_unset=True)
async def repair(event_id: str, body: WhichDivision, svc: Service, token: Bearer) -> dict[str, Any]:
    """The director pairs a division's last round again (none of its games has a result):
    its games are called off, new ones begin."""
    return await svc.events.repair(event_id, token, body.division)


@router.post("/events/{event_id}/results", response_model=models.EventView, response_model_exclude_unset=True)
async def enter_result(event_id: str, body: ResultIn, svc: Service, token: Bearer) -> dict[str, Any]:
    """The director enters or corrects a result."""
    return await svc.events.enter_result(
        event_id,
        token,
        division=body.division,
        round=body.round,
        player=body.player,
        score=body.score,
        opponent=body.opponent,
        opponent_score=body.opponent_score,
        spread=body.spread,
        forfeit=body.forfeit,
        correct=body.correct,
    )


@router.post("/events/{event_id}/pause", response_model=models.EventView, response_model_exclude_unset=True)
async def pause(event_id: str, body: PauseIn, svc: Service, token: Bearer) -> dict[str, Any]:
    """The director pauses the event or resumes it."""
    return await svc.events.pause(event_id, token, body.paused)


@router.post("/events/{event_id}/withdraw", response_model=models.EventView, response_model_exclude_unset=True)
async def withdraw(event_id: str, body: WithdrawIn, svc: Service, token: Bearer) -> dict[str, Any]:
    """The director removes a player from the rounds to come (their results stay)."""
    return await svc.events.withdraw(event_id, token, body.division, body.player)
