"""The rounds of a duplicate game: each player's move for the round (stored as a
submission, which a later one replaces), and the round's close when everybody has
played or its time is up (the top goes on the board). With several processes, a
submission stored elsewhere arrives through the bus, and a close is stored with the
submissions it was computed from.

Rules about what players may do during a round (chat, look words up) are checked where
those actions are (`chat`, `review`); the round itself is here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from typing import Any, NoReturn

from lexiko.errors import LexikoError
from lexiko.web.duplicate_views import SHOWN_PLAYERS
from lexiko.web.errors import ActionError
from lexiko.web.live import CLOSE, SERVER_SEAT, LiveGame, canonical_action
from lexiko.web.services.catchup import CatchUp
from lexiko.web.services.core import Batches, Core
from lexiko.web.store import ConflictError, SubmissionData

__all__ = ["Rounds", "MAX_DUPLICATE_SEATS", "PROGRESS_SECONDS"]

log = logging.getLogger("lexiko.web")

MAX_DUPLICATE_SEATS = 2000
"""Seats of a duplicate game created in the web app (people by invitation, and bots):
an event's players, over as many processes as it takes (docs/web.md)."""

PROGRESS_SECONDS = 0.5
"""In a duplicate game of more than `SHOWN_PLAYERS`
players, a submission does not send every client a new state: the count of players who
have played goes out at most this often, and the state only when the round closes."""


class Rounds:
    """Submissions and the close of duplicate rounds."""

    def __init__(self, core: Core, catchup: CatchUp) -> None:
        self.core = core
        self.catchup = catchup
        self._writes: Batches[tuple[str, SubmissionData], int] = Batches(core, core.store.submit_many)

    async def submit(self, live: LiveGame, seat: int, message: dict[str, Any]) -> None:
        """A player's move for the round of a duplicate game (it replaces their earlier
        one); the round closes when everybody has played."""
        kind = message.get("type")
        if kind in ("exchange", "challenge", "accept"):
            raise ActionError(
                f"duplicate has no {'exchanges' if kind == 'exchange' else 'challenges'}: play a move or pass"
            )
        # judged and applied with the game's lock held, stored without it: a thousand
        # players' moves go to the database in a few transactions, not one at a time
        async with live.lock:
            d = live.duplicate
            if d is None:
                raise ActionError("the game has not started: waiting for every player to join")
            if d.over:
                raise ActionError("the game is over")
            if seat in live.saving:
                raise ActionError("your last move is still being saved: send this one again in a moment")
            try:
                text = canonical_action(d, message)
            except LexikoError as e:
                raise ActionError(str(e)) from None
            sub, previous = self._apply(live, seat, text)
            live.saving.add(seat)
        try:
            count = await self._writes.put((live.id, sub))
        except Exception as e:
            async with live.lock:
                live.saving.discard(seat)
                await self._refused(live, sub, previous, e)
        except BaseException:  # cancelled: the round must not wait for this seat for ever
            live.saving.discard(seat)
            raise
        async with live.lock:
            live.saving.discard(seat)
            await self._stored(live, dataclasses.replace(sub, count=count))
            if not await self.close_if_done(live) and len(live.seats) > SHOWN_PLAYERS:
                self.core.post_state(live, seat)
                self.progress(live)
            else:
                self.core.broadcast(live)

    async def store_submission(self, live: LiveGame, seat: int, text: str) -> None:
        """Judge a submission for the round in progress, store it and tell the other
        processes (call with the lock held). Raises ActionError, with nothing changed,
        when it is refused or the round closed meanwhile (elsewhere)."""
        sub, previous = self._apply(live, seat, text)
        try:
            count = await self._writes.put((live.id, sub))
        except Exception as e:
            await self._refused(live, sub, previous, e)
        await self._stored(live, dataclasses.replace(sub, count=count))

    @staticmethod
    def _apply(live: LiveGame, seat: int, text: str) -> tuple[SubmissionData, SubmissionData | None]:
        """Judge a submission for the round in progress and apply it here: it, and the
        seat's earlier one (to put back if it cannot be stored). Raises ActionError."""
        d = live.duplicate
        assert d is not None
        previous = live.subs.get((d.round_number, seat))
        try:
            return live.submit(SubmissionData(d.round_number, seat, text, time.time())), previous
        except LexikoError as e:
            raise ActionError(str(e)) from None

    async def _refused(
        self, live: LiveGame, sub: SubmissionData, previous: SubmissionData | None, error: Exception
    ) -> NoReturn:
        """A submission the database did not take: taken back here (unless this process
        has meanwhile read the round's end from the database), and the reason raised as
        an ActionError (call with the lock held)."""
        d = live.duplicate
        if d is not None and d.round_number == sub.round and live.subs.get((sub.round, sub.seat)) is sub:
            live.withdraw(sub, previous)
        if isinstance(error, ConflictError):
            await self.catchup.sync(live, seats=False)
            self.core.broadcast(live)
            raise ActionError(f"too late: round {sub.round} is over") from None
        log.error("could not save a submission of game %s: %s", live.id, error)
        raise ActionError("the server could not save this move, so it was not made: try again") from None

    async def _stored(self, live: LiveGame, sub: SubmissionData) -> None:
        """A submission stored: its count kept, and the other processes told."""
        live.keep(sub)
        await self.core.bus.publish_submission(live.id, sub)

    async def on_submission(self, game_id: str, sub: SubmissionData) -> None:
        """A duplicate submission stored by another process: apply it here (this
        process's clients see who has played) and close the round if it was the last."""
        live = self.core.games.get(game_id)
        if live is None:
            return
        async with live.lock:
            d = live.duplicate
            if d is None or d.over or d.round_number != sub.round:
                return  # not started here, or already past that round: a sync reads it from the database
            try:
                live.submit(sub, trusted=True)
            except LexikoError as e:
                log.error("game %s: a submission from elsewhere does not apply here: %s", game_id, e)
                return
            if await self.close_if_done(live) or len(live.seats) <= SHOWN_PLAYERS:
                self.core.broadcast(live)
            else:
                self.progress(live)

    def progress(self, live: LiveGame) -> None:
        """Tell every client, at most every `PROGRESS_SECONDS`, how many players
        have played the round (one short message, the same for all)."""
        if live.progress_task is not None and not live.progress_task.done():
            return

        async def later() -> None:
            await asyncio.sleep(PROGRESS_SECONDS)
            d = live.duplicate
            if d is None or d.over:
                return
            text = json.dumps(
                {"type": "progress", "round": d.round_number, "played": d.submitted_count, "players": len(d.players)},
                separators=(",", ":"),
            )
            self.core.post_all(live, text)

        live.progress_task = asyncio.create_task(later())

    async def close_if_done(self, live: LiveGame, *, time_up: bool = False) -> bool:
        """Close the duplicate round when every player has played (or its time is up):
        the top goes on the board and the rack is refilled. Call with the lock held.

        The close is stored with the submissions it was computed from; if the database
        holds others (one came in on another process meanwhile), they are read and the
        round computed again. Returns True when the round is closed, here or (found
        while storing) by another process, which this one has then caught up with."""
        d = live.duplicate
        if d is None or d.over or live.saving or (not time_up and d.submitted_count < len(d.players)):
            return False  # (with a submission still being stored: at its end, or the next tick)
        number = d.round_number
        # the top is searched for (by the move generator) in a thread, not on the loop
        # every game shares; with the lock held nothing else changes the board or rack
        top = await asyncio.to_thread(d.find_top)
        if live.duplicate is not d or d.over or d.round_number != number:
            return True  # closed meanwhile by another process, which this one caught up with
        close = CLOSE if top is None else f"{CLOSE} {top.notation}"
        for _ in range(10):
            applied = live.round_submissions()
            try:
                live.apply_text(SERVER_SEAT, close)
            except LexikoError as e:
                log.error("game %s: round %d could not be closed: %s", live.id, number, e)
                live.status = "over"
                return False
            a = live.actions[-1]
            totals = (
                json.dumps([live.duplicate.totals[p] for p in live.duplicate.players])
                if live.duplicate is not None
                else None
            )
            try:
                await self.core.db(
                    self.core.store.close_round, live.id, number, a, applied, status=live.status, scores_json=totals
                )
            except ConflictError:
                live.undo_last()
                await self.catchup.sync(live, seats=False)
                d = live.duplicate
                if d is None or d.over or d.round_number != number:
                    return True  # closed elsewhere: this process has read it
                continue
            except Exception:
                log.exception("could not save the close of round %d of game %s", number, live.id)
                live.undo_last()
                return False
            await self.core.bus.publish(live.id, live.version)
            return True
        log.error("game %s: round %d kept changing while it was being closed", live.id, number)
        return False
