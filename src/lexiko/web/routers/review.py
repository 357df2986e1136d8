"""Looking into a game: whether a word is valid in it (while it is on, only the words on
the board) and the review of a finished game, turn by turn."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from lexiko.web import models
from lexiko.web.deps import Game, Service

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.get("/games/{game_id}/lookup", response_model=models.Lookup, response_model_exclude_unset=True)
async def lookup(live: Game, word: str, svc: Service) -> dict[str, Any]:
    """Is WORD valid in this game (and, once it is over, its anagrams)?"""
    return await svc.review.lookup(live, word[:40])


@router.get("/games/{game_id}/review", response_model=models.Review, response_model_exclude_unset=True)
async def review(live: Game, svc: Service) -> dict[str, Any]:
    """The analysis of every turn of a finished game."""
    return await svc.review.review(live)
