"""Computer players: the kinds a seat can hold, and the task that lets a game's bots act
while it is up to them (in shared mode, only in the process that holds the game's
lease). A bot thinks in a thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from lexiko.bots.base import Player
from lexiko.duplicate import bot_choice, bot_view
from lexiko.errors import LexikoError
from lexiko.game import Game
from lexiko.lexicon import Lexicon
from lexiko.move import Exchange, Move, Place
from lexiko.web.errors import ActionError
from lexiko.web.live import LiveGame
from lexiko.web.services.core import Core
from lexiko.web.services.duplicate import Rounds
from lexiko.web.services.journal import Journal

__all__ = ["BOT_KINDS", "HARD_AT_ONCE", "make_bot", "available_bots", "Bots"]

log = logging.getLogger("lexiko.web")

BOT_KINDS: dict[str, str] = {
    "random": "Beginner: a random legal move",
    "greedy": "Easy: always the highest-scoring move",
    "static": "Medium: score plus the value of the tiles it keeps",
    "hard": "Hard: plays its best moves out to choose, and solves the endgame exactly",
}
"""Computer players a seat can hold, weakest first: kind -> description (the ones that
work in this installation are listed by `available_bots`)."""

HARD_AT_ONCE = 1
"""How many ``hard`` players of a process think at once (the others wait their turn):
each holds a core for a third of a second a move, seconds in an endgame, so the
process's other cores stay with the people and the lighter bots."""

_AVAILABLE: dict[str, str] | None = None


def make_bot(kind: str, lexicon: Lexicon, name: str, seed: int | None = None) -> Player:
    """A computer player of that kind (see `BOT_KINDS`). Raises ActionError with
    the reason when it cannot be made (an unknown kind, a missing leave table)."""
    if kind not in BOT_KINDS:
        raise ActionError(f"unknown computer player {kind!r}; known: {', '.join(BOT_KINDS)}")
    try:
        from lexiko.bots import make_player
    except ImportError:  # an engine without the bot factory: greedy only
        if kind != "greedy":
            raise ActionError(f"the {kind} computer player is not available") from None
        from lexiko.bots import GreedyBot

        return GreedyBot(lexicon, name=name)
    try:
        return make_player(kind, lexicon, seed=seed, name=name)
    except (LexikoError, ImportError, OSError) as e:
        raise ActionError(f"the {kind} computer player is not available: {e}") from None


def available_bots() -> dict[str, str]:
    """The kinds of `BOT_KINDS` that can be made here (checked once)."""
    global _AVAILABLE
    if _AVAILABLE is None:
        tiny = Lexicon.from_words(["AA"])
        found = {}
        for kind, desc in BOT_KINDS.items():
            try:
                make_bot(kind, tiny, kind, seed=0)
            except ActionError:
                continue
            found[kind] = desc
        _AVAILABLE = found
    return dict(_AVAILABLE)


def _move_text(g: Game, move: Move) -> str:
    if isinstance(move, Exchange):
        return Exchange(g.tiles.rack_sort(move.tiles)).notation(g.tiles)
    return move.notation(g.tiles)


class Bots:
    """The bots of the games in memory, and the tasks that let them act."""

    def __init__(self, core: Core, journal: Journal, rounds: Rounds) -> None:
        self.core = core
        self.journal = journal
        self.rounds = rounds
        self._players: dict[tuple[str, int], Player] = {}
        self._hard = asyncio.Semaphore(HARD_AT_ONCE)
        core.on_forget.append(self.forget)

    def forget(self, live: LiveGame) -> None:
        """Drop the bots of a game let go from memory."""
        for seat in range(len(live.seats)):
            self._players.pop((live.id, seat), None)

    def player(self, live: LiveGame, seat: int) -> Player:
        """The bot of a seat (made on first use, with its own seed)."""
        key = (live.id, seat)
        bot = self._players.get(key)
        if bot is None:
            assert isinstance(live.lexicon, Lexicon)
            bot = make_bot(
                live.seats[seat].kind,
                live.lexicon,
                live.seats[seat].name or "computer",
                seed=(live.seed + seat) % 2**63,
            )
            self._players[key] = bot
        return bot

    def kick(self, live: LiveGame, *, leased: bool = False) -> None:
        """Let the bots of a game play (in shared mode, only where the game's lease is;
        ``leased``: this process has just been found to hold it)."""
        if live.status != "active" or not live.has_bots:
            return
        if live.bot_task is None or live.bot_task.done():
            drive = self._drive_duplicate if live.is_duplicate else self._drive
            live.bot_task = asyncio.create_task(drive(live, leased))

    async def _drive_duplicate(self, live: LiveGame, leased: bool) -> None:
        """Each round, every bot that has not played thinks on a copy of the round (the
        people may play meanwhile) and submits; the round closes when all have played."""
        if not leased and not await self.core.bus.hold(live.id):
            return
        try:
            while True:
                async with live.lock:
                    d = live.duplicate
                    if d is None or d.over or live.status != "active":
                        return
                    done = set(d.submitted())
                    todo = [s.index for s in live.seats if s.is_bot and s.name not in done]
                    if not todo:
                        return
                    number = d.round_number
                    seen = bot_view(d)
                if self.core.settings.bot_delay:
                    await asyncio.sleep(self.core.settings.bot_delay)
                moves = []
                for seat in todo:
                    move = await self._in_thread(live, seat, bot_choice, self.player(live, seat), seen)
                    moves.append((seat, move.notation(d.tiles) if isinstance(move, Place) else "-"))
                async with live.lock:
                    if live.status != "active":
                        return
                    if live.duplicate is not d or d.over or d.round_number != number:
                        continue  # the round closed on time meanwhile: think again
                    for seat, text in moves:
                        try:
                            await self.rounds.store_submission(live, seat, text)
                        except ActionError as e:
                            if live.duplicate is not d or d.round_number != number:
                                break  # the round closed elsewhere meanwhile
                            log.error("bot %d of game %s: %s refused (%s); it passes", seat, live.id, text, e)
                            await self.rounds.store_submission(live, seat, "-")
                    await self.rounds.close_if_done(live)
                    self.core.broadcast(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bots of game %s stopped", live.id)

    async def _drive(self, live: LiveGame, leased: bool) -> None:
        """Let the bots act while it is up to them: challenge a phony, accept a play that
        ends the game, or move on their turn. One action at a time, each saved and shown.

        A bot thinks on a copy of the game with the game's lock let go, so the people
        at the table are not kept waiting by a long think (``hard`` may spend seconds):
        one may resign, or the game end on time, meanwhile. The move is then played
        only if nothing happened in the game since the copy was taken."""
        if not leased and not await self.core.bus.hold(live.id):
            return
        try:
            while True:
                if self.core.settings.bot_delay:
                    await asyncio.sleep(self.core.settings.bot_delay)
                async with live.lock:
                    step = self._step(live)
                    if step is None:
                        return
                    seat, text = step
                    version = live.version
                    copy = None if text is not None or live.game is None else live.game.copy()
                if copy is not None:
                    text = await self._think(live, seat, copy)
                async with live.lock:
                    if live.version != version or live.status != "active":
                        continue  # the game moved on while the bot thought: look again
                    assert text is not None
                    try:
                        live.apply_text(seat, text)
                    except LexikoError as e:
                        log.error("bot %d of game %s: %s refused (%s); it passes", seat, live.id, text, e)
                        g = live.game
                        if g is None or g.player_on_turn != seat:
                            return
                        live.apply_text(seat, "-")
                    try:
                        await self.journal.save(live)
                    except ActionError:
                        return
                    self.core.broadcast(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bots of game %s stopped", live.id)

    def _step(self, live: LiveGame) -> tuple[int, str | None] | None:
        """The next action of a bot: its seat and the action's text (``challenge`` or
        ``accept``), or its seat and None when it is to choose a move; None when no bot
        is to act."""
        g = live.game
        if g is None or g.is_over or live.status != "active":
            return None
        n = len(g.players)
        on = g.player_on_turn
        pending = live.pending_player()
        if pending is not None:
            for k in range(n):
                seat = (on + k) % n
                if seat != pending and live.seats[seat].is_bot and self.player(live, seat).wants_challenge(g):
                    return seat, "challenge"
            if g.awaiting_final_challenge:
                if live.seats[on].is_bot and on != pending:
                    return on, "accept"
                return None
        if not live.seats[on].is_bot:
            return None
        return on, None

    async def _think(self, live: LiveGame, seat: int, game: Game) -> str:
        """The move the bot of ``seat`` chooses in ``game`` (a copy), in a thread."""
        live.thinking = seat
        try:
            move = await self._in_thread(live, seat, self.player(live, seat).choose, game)
        finally:
            live.thinking = None
        return _move_text(game, move)

    async def _in_thread(self, live: LiveGame, seat: int, fn: Callable[..., Move], *args: Any) -> Move:
        """``fn(*args)`` in a thread: a ``hard`` seat's once a `HARD_AT_ONCE` slot is free."""
        if live.seats[seat].kind != "hard":
            return await asyncio.to_thread(fn, *args)
        async with self._hard:
            return await asyncio.to_thread(fn, *args)
