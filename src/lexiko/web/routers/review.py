"""Looking into a game: whether a word is valid in it (while it is on, only the words on
the board), the review of a finished game turn by turn, and the review of a GCG record
sent to be reviewed. A review is computed in the background: until it is done these
routes answer how far it has got (`lexiko.web.models.ReviewProgress`); ask again."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from lexiko.web import models
from lexiko.web.deps import Game, Service
from lexiko.web.review import MAX_RECORD

__all__ = ["router", "RecordIn"]

router = APIRouter(prefix="/api")


class RecordIn(BaseModel):
    """A GCG record to review (its text)."""

    gcg: str = Field(max_length=MAX_RECORD)


@router.get("/games/{game_id}/lookup", response_model=models.Lookup, response_model_exclude_unset=True)
async def lookup(live: Game, word: str, svc: Service) -> dict[str, Any]:
    """Is WORD valid in this game (and, once it is over, its anagrams)?"""
    return await svc.review.lookup(live, word[:40])


@router.get(
    "/games/{game_id}/review",
    response_model=models.Review | models.ReviewProgress,
    response_model_exclude_unset=True,
)
async def review(live: Game, svc: Service) -> dict[str, Any]:
    """The review of a finished game (every turn weighed by simulation), or how far it
    has got: the first request starts it."""
    return await svc.review.review(live)


@router.post("/reviews", response_model=models.ReviewUpload, response_model_exclude_unset=True)
async def upload(body: RecordIn, svc: Service) -> dict[str, Any]:
    """Review a GCG record: its review's id and page, and the review or how far it has
    got (the same record sent again is the same review)."""
    return await svc.review.upload(body.gcg)


@router.get(
    "/reviews/{review_id}",
    response_model=models.Review | models.ReviewProgress,
    response_model_exclude_unset=True,
)
async def record(review_id: str, svc: Service) -> dict[str, Any]:
    """The review of a record sent before, or how far it has got."""
    return await svc.review.record(review_id[:80])
