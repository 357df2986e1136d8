"""The shapes of the events' JSON answers (`lexiko.web.routers.events`), as
`lexiko.web.models` holds those of the games: each route's ``response_model``.

>>> EventVersion.model_validate({"version": 3}).version
3
"""

from __future__ import annotations

from lexiko.web.models import Model

__all__ = [
    "NewEvent",
    "Registered",
    "EventVersion",
    "EventRules",
    "EventPlayer",
    "PairingView",
    "RoundView",
    "StandingRow",
    "DivisionView",
    "YourGame",
    "YouView",
    "EventView",
]


class NewEvent(Model):
    """An event just created: its id, the director's secret token, its page and its
    registration link."""

    event_id: str
    token: str
    path: str
    register_path: str


class Registered(Model):
    """A player registered (a person gets their secret token; a computer player none)."""

    event_id: str
    division: str
    number: int
    token: str | None = None


class EventVersion(Model):
    """An event's version: it grows with each change."""

    version: int


class EventRules(Model):
    """What the event's games are played with."""

    lexicon: str
    time_minutes: int | None
    challenge_rule: str


class EventPlayer(Model):
    """A player of a division: number (from 1), name, rating, ``human`` or a bot kind."""

    number: int
    name: str
    rating: int
    kind: str
    withdrawn: bool


class PairingView(Model):
    """A pairing of a round: ``first`` goes first against ``second`` (null: a bye) at
    ``table``, in game ``game_id``; ``scores`` once the result is in (a bye: its spread)."""

    first: int
    second: int | None
    game_id: str | None
    table: int | None
    scores: list[int] | None = None
    bye: int | None = None


class RoundView(Model):
    """A round paired: its number, whether every result is in, its pairings."""

    round: int
    complete: bool
    pairings: list[PairingView]


class StandingRow(Model):
    """A line of a division's standings (`lexiko.tournament.standings`)."""

    rank: int
    number: int
    name: str
    wins: float
    losses: float
    spread: int
    withdrawn: bool


class DivisionView(Model):
    """A division: its method and planned rounds, players, rounds paired, standings."""

    name: str
    method: str
    rounds: int
    players: list[EventPlayer]
    paired: list[RoundView]
    standings: list[StandingRow]


class YourGame(Model):
    """A registered player's game of the last round paired: the next one to play, or
    the one just played (``done``); a bye has no opponent."""

    round: int
    bye: bool
    done: bool
    table: int | None = None
    opponent: int | None = None
    opponent_name: str | None = None
    first: bool | None = None
    game_id: str | None = None


class YouView(Model):
    """The registered player the bearer token is."""

    division: str
    number: int
    name: str
    game: YourGame | None = None


class EventView(Model):
    """An event as anyone sees it; its director also gets ``register_path``, a registered
    player ``you``."""

    event_id: str
    name: str
    version: int
    status: str
    paused: bool
    auto: bool
    rules: EventRules
    director: bool
    divisions: list[DivisionView]
    register_path: str | None = None
    you: YouView | None = None
