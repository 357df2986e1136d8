"""Every move of a busy PostgreSQL server stored from the event loop: the batches of
actions (`Store.append_actions`) go through one asyncio connection (psycopg's
``AsyncConnection``), with no database thread between the loop and the database.

Through a thread, each batch handed its work to the thread and its answer back, and both
hand-overs waited for the interpreter's lock while the loop served the other games: a
batch that takes the database 1.4 ms took 5 ms at the median and 45 ms at the 99th
percentile at 240 moves a second. Here the batch is one statement over arrays (an
insert and an update), sent on a connection that only this writer uses, one batch at a
time (`lexiko.web.services.core.Batches` keeps them in line).

The answer is `Store.append_actions`'s: for each item None (stored) or the
`ConflictError` of an action whose number another process stored first; then each is
stored on its own, so the others still go in. A connection found dead is opened again
and the batch sent once more (one that was committed before the connection died then
conflicts with itself, and its games catch up from the database, as after any conflict).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from lexiko.web.store import AppendData, ConflictError, Store

__all__ = ["LoopAppends"]

_ARRAYS = (
    "unnest(CAST(%(g)s AS varchar[]), CAST(%(seq)s AS integer[]), CAST(%(seat)s AS integer[]), "
    "CAST(%(text)s AS varchar[]), CAST(%(at)s AS double precision[]), "
    "CAST(%(status)s AS varchar[]), CAST(%(scores)s AS text[]))"
)
_ROWS = f"{_ARRAYS} AS u(g, seq, seat, text, at, status, scores)"
_APPEND = (
    f"WITH new AS (INSERT INTO actions (game_id, seq, seat, text, at) SELECT g, seq, seat, text, at FROM {_ROWS}) "
    f"UPDATE games SET status = u.status, scores = u.scores, updated_at = %(now)s FROM {_ROWS} WHERE id = u.g"
)
"""The batch in one statement, atomic by itself: one round trip, no BEGIN and COMMIT
(each round trip waits for the loop to come back to it, a few milliseconds when busy)."""


def _params(items: Sequence[AppendData]) -> dict[str, Any]:
    return {
        "g": [it.game_id for it in items],
        "seq": [it.action.seq for it in items],
        "seat": [it.action.seat for it in items],
        "text": [it.action.text for it in items],
        "at": [it.action.at for it in items],
        "status": [it.status for it in items],
        "scores": [it.scores_json for it in items],
        "now": datetime.now(UTC),
    }


class LoopAppends:
    """`Store.append_actions` for a PostgreSQL store, awaited on the event loop.

    >>> LoopAppends.usable(Store("sqlite://"))
    False
    """

    connections = 2
    """Batches written at once, each on its own connection."""

    def __init__(self, store: Store) -> None:
        self.conninfo = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._idle: list[Any] = []  # connections open and not in use

    @staticmethod
    def usable(store: Store) -> bool:
        """True for a PostgreSQL store (SQLite's writes stay in the database thread)."""
        return store.dialect == "postgresql"

    async def append_actions(self, items: Sequence[AppendData]) -> list[ConflictError | None]:
        """Store the next action of each game, in one statement (see the module)."""
        import psycopg

        conn = self._idle.pop() if self._idle else None
        try:
            if conn is None or conn.closed:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            try:
                out = await self._batch(conn, items)
            except psycopg.OperationalError:  # it died (the database restarted): once more, on another
                await _close(conn)
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                out = await self._batch(conn, items)
        except BaseException:
            if conn is not None:
                await _close(conn)
            raise
        self._idle.append(conn)
        return out

    async def _batch(self, conn: Any, items: Sequence[AppendData]) -> list[ConflictError | None]:
        import psycopg

        try:
            await conn.execute(_APPEND, _params(items))
        except psycopg.errors.UniqueViolation:  # one lost a race with another process: each on its own
            if len(items) == 1:
                return [ConflictError(f"action {items[0].action.seq} of game {items[0].game_id} is already stored")]
            return [(await self._batch(conn, [it]))[0] for it in items]
        return [None] * len(items)

    async def close(self) -> None:
        """Close the connections not in use (the next batch opens another)."""
        idle, self._idle = self._idle, []
        for conn in idle:
            await _close(conn)


async def _close(conn: Any) -> None:
    try:
        await conn.close()
    except Exception:  # closing a dead connection: nothing is lost
        pass
