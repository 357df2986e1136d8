"""The events of the web app in the database: one row per event (`EventRow`) holding the
library's JSON event file, the app's part, and a version.

The database is the truth: a process reads the event, computes the change, and stores it
only on the version it read (``UPDATE ... WHERE version = v``); of two processes changing
one event at once, the second is refused (`ConflictError`), reads it again and computes
again. A new round's games are stored in the same transaction as the round itself, so
a round is never stored without its games, nor games without their round.

>>> from lexiko.web.store import Store
>>> store = Store("sqlite://"); store.upgrade()
>>> events = EventStore(store)
>>> events.create(StoredEvent("e1", "Club night", 0, "registering", "d", "k", "{}", "{...}", "{}"))
>>> events.save("e1", 0, status="running", data="{...}", web="{}")
1
>>> events.save("e1", 0, status="running", data="{...}", web="{}")
Traceback (most recent call last):
...
lexiko.web.store.ConflictError: event e1 changed meanwhile (it is at version 1, not 0)
>>> events.load("e1").version
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select, update

from lexiko.web.store import ConflictError, EventRow, GameRow, SeatRow, SeatSpec, Store, _now

__all__ = ["StoredEvent", "EventGame", "EventStore"]


@dataclass(frozen=True)
class StoredEvent:
    """An event as stored (see `EventRow`)."""

    id: str
    name: str
    version: int
    status: str
    director_hash: str
    register_key: str
    rules_json: str
    data: str
    web: str


@dataclass(frozen=True)
class EventGame:
    """A game of a new round: its id, the seed of its bag and its two seats."""

    game_id: str
    seed: int
    seats: tuple[SeatSpec, ...]


class EventStore:
    """Reading and writing events on a `Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, event: StoredEvent) -> None:
        """Store a new event."""
        with self.store.sessions.begin() as s:
            s.add(
                EventRow(
                    id=event.id,
                    name=event.name,
                    version=event.version,
                    status=event.status,
                    director_hash=event.director_hash,
                    register_key=event.register_key,
                    rules=event.rules_json,
                    data=event.data,
                    web=event.web,
                )
            )

    def load(self, event_id: str) -> StoredEvent | None:
        """The event, or None."""
        with self.store.sessions() as s:
            row = s.get(EventRow, event_id)
            if row is None:
                return None
            return StoredEvent(
                row.id,
                row.name,
                row.version,
                row.status,
                row.director_hash,
                row.register_key,
                row.rules,
                row.data,
                row.web,
            )

    def version(self, event_id: str) -> int | None:
        """The event's version (None: no such event)."""
        with self.store.sessions() as s:
            v = s.scalar(select(EventRow.version).where(EventRow.id == event_id))
            return int(v) if v is not None else None

    def save(
        self,
        event_id: str,
        version: int,
        *,
        status: str,
        data: str,
        web: str,
        games: Sequence[EventGame] = (),
        rules_json: str = "",
    ) -> int:
        """Store a change of the event computed from ``version``, with the games of a new
        round (``rules_json``: theirs), in one transaction; returns the new version.
        Raises ConflictError, storing nothing, when the event is no longer at ``version``."""
        with self.store.sessions.begin() as s:
            res = s.execute(
                update(EventRow)
                .where(EventRow.id == event_id, EventRow.version == version)
                .values(version=version + 1, status=status, data=data, web=web, updated_at=_now())
            )
            if getattr(res, "rowcount", 0) != 1:
                now = s.scalar(select(EventRow.version).where(EventRow.id == event_id))
                raise ConflictError(f"event {event_id} changed meanwhile (it is at version {now}, not {version})")
            for g in games:
                s.add(GameRow(id=g.game_id, rules=rules_json, seed=g.seed, status="waiting", event_id=event_id))
                s.flush()
                for sp in g.seats:
                    s.add(
                        SeatRow(
                            game_id=g.game_id,
                            seat=sp.seat,
                            kind=sp.kind,
                            name=sp.name,
                            token_hash=sp.token_hash,
                            invite=None,
                            joined_at=_now(),
                            account_id=sp.account_id,
                        )
                    )
            return version + 1

    def running(self) -> list[str]:
        """The ids of the events in progress."""
        with self.store.sessions() as s:
            return list(s.scalars(select(EventRow.id).where(EventRow.status == "running")).all())

    def game_statuses(self, event_id: str) -> dict[str, str]:
        """The status of every game of the event, by id."""
        with self.store.sessions() as s:
            rows = s.execute(select(GameRow.id, GameRow.status).where(GameRow.event_id == event_id)).all()
            return {r[0]: r[1] for r in rows}
