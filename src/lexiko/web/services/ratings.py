"""Ratings of signed-in players: read when a game starts (the state shows them), updated
once when a rated game ends (Glicko-2, `lexiko.web.ratings`), and the table of the best.

What is rated (`unrated_reason`, one pure rule): a game between two different signed-in
people counts only when

- each of them made at least `MIN_TURNS` turns that are plays or exchanges, at least
  one of them a play (a play taken back after a challenge does not count; exchanges
  alone would end the game on six scoreless turns): a resignation, a timeout or an
  abandonment before that does not rate, so a second account that resigns at once
  gives nothing;
- the two accounts have not already had `REPEAT_LIMIT` rated games against each other
  in the last `REPEAT_HOURS` hours (the later games are played unrated, and the page
  says so from their start): rematching a friend does not farm rating;
- they did not play from the same address (the client address of the game's
  WebSocket, as the app sees it: behind a trusted proxy, its X-Forwarded-For). Such a
  game is logged and not rated. Every process keeps the addresses it sees in the
  database (`lexiko.web.store.Store.note_address`), as keyed hashes (the database holds
  no address), until the game is over: in shared mode a player connected to one
  process and the other to another are compared all the same.

The page shows why a game is not rated (the state's ``rating_note``); the reason a
finished game was not rated is stored with it, so a restart keeps it.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from lexiko.game import Game
from lexiko.web.live import LiveGame
from lexiko.web.ratings import Rating, after_game
from lexiko.web.services.core import Core
from lexiko.web.store import address_digest

__all__ = ["Ratings", "MIN_TURNS", "REPEAT_LIMIT", "REPEAT_HOURS", "turns_made", "unrated_reason"]

log = logging.getLogger("lexiko.web")

MIN_TURNS = 3
"""Plays or exchanges each player must make for a game to be rated."""

REPEAT_LIMIT = 3
"""Rated games two accounts may play against each other in `REPEAT_HOURS`."""

REPEAT_HOURS = 24.0
"""The window in which rated games between the same two accounts are counted."""


def remote(address: str) -> bool:
    """True for an address that tells players apart: an IP address, not a loopback one.

    >>> remote("203.0.113.5"), remote("127.0.0.1"), remote("::1"), remote("?")
    (True, False, False, False)
    """
    try:
        return not ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def turns_made(g: Game) -> list[tuple[int, int]]:
    """Each player's turns that were plays (not taken back) or exchanges, and of them
    the plays.

    >>> from lexiko.rules import Rules
    >>> g = Game(["Ann", "Bob"], Rules(), seed=1)
    >>> turns_made(g)
    [(0, 0), (0, 0)]
    """
    turns, plays = [0] * len(g.players), [0] * len(g.players)
    for e in g.history:
        if e.kind in ("play", "exchange"):
            turns[e.player] += 1
            plays[e.player] += e.kind == "play"
        elif e.kind == "withdrawn":
            turns[e.player] -= 1
            plays[e.player] -= 1
    return list(zip(turns, plays, strict=True))


def unrated_reason(
    turns: Sequence[tuple[int, int]] | None, names: Sequence[str], *, recent: int, shared_address: bool
) -> str | None:
    """Why a game between two accounts is not rated, or None when it is: ``turns``
    are each player's plays and exchanges, and of them the plays (`turns_made`; None:
    not known yet, the game goes on), ``recent`` the rated games the two accounts played
    against each other in the last `REPEAT_HOURS` hours (this one not included),
    ``shared_address`` whether they played from one address.

    >>> unrated_reason([(3, 1), (4, 2)], ["Ann", "Bob"], recent=0, shared_address=False) is None
    True
    >>> unrated_reason([(3, 3), (0, 0)], ["Ann", "Bob"], recent=0, shared_address=False)
    'Not rated: a game counts once each player has made 3 plays or exchanges, one of them a play (Bob made 0)'
    >>> unrated_reason([(3, 0), (3, 3)], ["Ann", "Bob"], recent=0, shared_address=False)
    'Not rated: a game counts once each player has made 3 plays or exchanges, one of them a play (Ann made no play)'
    >>> unrated_reason(None, ["Ann", "Bob"], recent=3, shared_address=False)
    'Not rated: Ann and Bob have played 3 rated games against each other in the last 24 hours'
    >>> unrated_reason([(5, 5), (5, 5)], ["Ann", "Bob"], recent=0, shared_address=True)
    'Not rated: both players played from the same address'
    """
    if recent >= REPEAT_LIMIT:
        return (
            f"Not rated: {names[0]} and {names[1]} have played {recent} rated games against each other"
            f" in the last {REPEAT_HOURS:g} hours"
        )
    if shared_address:
        return "Not rated: both players played from the same address"
    if turns is not None:
        short = [
            f"{names[i]} made {n}" if n < MIN_TURNS else f"{names[i]} made no play"
            for i, (n, plays) in enumerate(turns)
            if n < MIN_TURNS or plays < 1
        ]
        if short:
            return (
                f"Not rated: a game counts once each player has made {MIN_TURNS} plays or exchanges,"
                f" one of them a play ({', '.join(short)})"
            )
    return None


class Ratings:
    """The players' ratings, as the games need them."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._address_key: str | None = None

    async def read(self, live: LiveGame) -> None:
        """Learn the ratings of the game's signed-in players (for its state), and
        whether a game to be rated will not be (its players' repeat pairings)."""
        ids = [s.account_id for s in live.seats if s.account_id is not None]
        if ids:
            accounts = await self.core.db(self.core.store.accounts, ids)
            live.ratings = {i: a.rating for i, a in accounts.items()}
        if live.rated and live.status in ("waiting", "active"):
            live.rating_note = unrated_reason(
                None, live.names, recent=await self._recent(live), shared_address=await self.shared_address(live)
            )

    async def seen(self, live: LiveGame, seat: int | None, address: str) -> None:
        """Note the address a seat's player connected from (a few per seat are kept),
        here and, as its keyed hash, in the database for every process."""
        if seat is None or not live.rated or live.status not in ("waiting", "active"):
            return
        seen = live.addresses.setdefault(seat, set())
        if address in seen or len(seen) >= 8:
            return
        seen.add(address)
        if remote(address):
            try:
                digest = address_digest(await self._key(), address)
                await self.core.db(self.core.store.note_address, live.id, seat, digest)
            except Exception:  # the game goes on; this process still compares what it saw
                log.exception("game %s: the address of seat %d could not be stored", live.id, seat)

    async def _key(self) -> str:
        """The key of the addresses' hashes (read once)."""
        if self._address_key is None:
            self._address_key = await self.core.db(self.core.store.address_key)
        return self._address_key

    async def shared_address(self, live: LiveGame) -> bool:
        """True when both seats' players connected from one address, as this process
        saw them or any process did (not a loopback one: that is a proxy whose
        forwarded address the app was not told to trust, or a test on one machine)."""
        a, b = live.addresses.get(0, set()), live.addresses.get(1, set())
        if any(remote(x) for x in a & b):
            return True
        return await self.core.db(self.core.store.shared_addresses, live.id, 0, 1) > 0

    async def forget_addresses(self, live: LiveGame) -> None:
        """Drop what the database kept of the addresses of a game that will not be
        rated (it was called off)."""
        try:
            await self.core.db(self.core.store.forget_addresses, live.id)
        except Exception:
            log.exception("game %s: the addresses of its players could not be dropped", live.id)

    async def _recent(self, live: LiveGame) -> int:
        """The rated games the two accounts played against each other in the last
        `REPEAT_HOURS` hours."""
        a_id, b_id = live.seats[0].account_id, live.seats[1].account_id
        assert a_id is not None and b_id is not None
        since = datetime.fromtimestamp(time.time() - REPEAT_HOURS * 3600, UTC)
        return await self.core.db(self.core.store.rated_between, a_id, b_id, since)

    async def rate(self, live: LiveGame) -> None:
        """The ratings of a rated game's players after its result (once, whatever
        happens: the database refuses a second time)."""
        g = live.game
        assert g is not None
        a_id, b_id = live.seats[0].account_id, live.seats[1].account_id
        assert a_id is not None and b_id is not None
        db, store = self.core.db, self.core.store
        try:
            shared = await self.shared_address(live)
            reason = unrated_reason(turns_made(g), live.names, recent=await self._recent(live), shared_address=shared)
            await db(store.forget_addresses, live.id)  # nothing needs them any more
            if shared:
                here = live.addresses.get(0, set()) & live.addresses.get(1, set())
                same = ", ".join(sorted(x for x in here if remote(x))) or "seen by another process"
                log.warning("game %s: accounts %d and %d played from the same address (%s)", live.id, a_id, b_id, same)
            if reason is not None:
                log.info("game %s is not rated: %s", live.id, reason)
                live.rating_note = reason
                live.view_cache.clear()
                await db(store.note_unrated, live.id, reason)
                return
            accounts = await db(store.accounts, [a_id, b_id])
            a, b = accounts[a_id], accounts[b_id]
            winners = g.winners()
            score_a = 0.5 if len(winners) == 2 else 1.0 if winners == [0] else 0.0
            ra, rb = after_game(Rating(a.rating, a.rd, a.vol), Rating(b.rating, b.rd, b.vol), score_a)
            done = await db(
                store.rate_game, live.id, {a_id: (ra.rating, ra.rd, ra.vol), b_id: (rb.rating, rb.rd, rb.vol)}
            )
        except Exception:
            log.exception("the ratings of game %s could not be updated", live.id)
            return
        if done:
            live.ratings = {a_id: ra.rating, b_id: rb.rating}
            live.view_cache.clear()

    async def top(self) -> list[dict[str, Any]]:
        """The rated players, best first."""
        return [
            {"name": a.name, "rating": round(a.rating), "rd": round(a.rd), "games": a.games}
            for a in await self.core.db(self.core.store.top_accounts)
        ]
