"""The chat of a game: players write, everyone watching reads (each may mute a player on
their page); lines from players connected to other processes arrive through the bus.

Rules about when players may chat (not during a duplicate round) go in `Chat.say`.
"""

from __future__ import annotations

import time
import unicodedata
from typing import Any

from lexiko.web.errors import ActionError
from lexiko.web.live import LiveGame
from lexiko.web.services.core import Core

__all__ = ["Chat", "KEPT", "MAX_CHARS", "CLOSED"]

KEPT = 100
"""Lines of a game's chat kept (and sent to a client that connects)."""

MAX_CHARS = 300
"""Characters of a chat line, at most."""

CLOSED = "the chat is closed while a duplicate round is on: it opens when the game ends"
"""The answer to a player's line during a duplicate round (rounds follow each other at
once, so the chat opens again when the game ends)."""


class Chat:
    """Players' chat lines, to every client of the game."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def _keep(self, live: LiveGame, line: dict[str, Any]) -> None:
        live.chat.append(line)
        del live.chat[:-KEPT]
        self.core.post_all(live, line)

    async def on_chat(self, game_id: str, line: dict[str, Any]) -> None:
        """A chat line of a player connected to another process."""
        live = self.core.games.get(game_id)
        if live is None:
            return
        self._keep(live, line)

    async def say(self, live: LiveGame, seat: int | None, message: dict[str, Any]) -> None:
        """A player's chat line, sent to everyone watching the game (players and
        spectators; each may mute a player on their page). Spectators only read, and
        players of a duplicate game write before it starts and after it ends, never
        during a round: they could pass each other their moves."""
        if seat is None:
            raise ActionError("only the players of a game can chat in it")
        if live.duplicate is not None and live.status == "active" and not live.duplicate.over:
            raise ActionError(CLOSED)
        now = time.time()
        if now - live.last_chat.get(seat, 0.0) < 0.5:  # before any work on the text
            raise ActionError("one chat message at a time: wait a moment")
        text = message.get("text")
        if not isinstance(text, str):
            raise ActionError("a chat message needs its text")
        text = " ".join(
            "".join(ch for ch in unicodedata.normalize("NFKC", text) if unicodedata.category(ch)[0] != "C").split()
        )
        if not text:
            raise ActionError("a chat message needs its text")
        if len(text) > MAX_CHARS:
            raise ActionError(f"a chat message has at most {MAX_CHARS} characters")
        live.last_chat[seat] = now
        line = {"type": "chat", "seat": seat, "from": live.seats[seat].name, "text": text, "at": round(now, 3)}
        self._keep(live, line)
        await self.core.bus.publish_chat(live.id, line)
