"""Looking into a game: whether a word is valid in it, and the review of a finished game
(computed once, in a thread, then stored).

Fair-play rules about looking words up (what a player may look up while the game is on,
how often) go in `Review.lookup`.
"""

from __future__ import annotations

import asyncio
import json
import unicodedata
from typing import Any

from lexiko.errors import LexikoError
from lexiko.game import word_is_valid
from lexiko.web.errors import ActionError
from lexiko.web.live import LiveGame
from lexiko.web.services.core import Core

__all__ = ["Review", "CLOSED"]

CLOSED = "the word judge opens when the game ends"
"""The answer to a lookup while the game is on."""


class Review:
    """Word look-ups and game reviews."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def lookup(self, live: LiveGame, word: str) -> dict[str, Any]:
        """Whether a word is valid in the game's lexicon and rules, with its anagrams:
        once the game is over, for anyone. While it is on, nobody may look up anything,
        not even a word on the board: the play waiting for a challenge is on the board,
        and whether it stands is what a challenge decides (at a club table nobody has a
        word judge until then). The route needs no seat, so a rule for players only
        would leak through a spectator."""
        if live.status not in ("over", "aborted"):
            raise ActionError(CLOSED)
        ts = live.rules.tile_set
        text = unicodedata.normalize("NFKC", word).strip().upper()
        try:
            codes = ts.parse(text)
        except LexikoError as e:
            raise ActionError(str(e)) from None
        if not 2 <= len(codes) <= 15:
            raise ActionError("a word has 2 to 15 letters")
        lex = await self.core.lexicon_for(live.rules)
        out: dict[str, Any] = {
            "word": ts.format(codes),
            "valid": word_is_valid(lex, codes, live.rules),
            "lexicon": live.rules.lexicon,
        }
        out["anagrams"] = [w for w in lex.anagrams(ts.format(codes)) if w != out["word"]][:50]
        return out

    async def review(self, live: LiveGame) -> dict[str, Any]:
        """The analysis of every turn of a finished game (computed once, then stored)."""
        if live.is_duplicate:
            raise ActionError("duplicate games have no review: the master sheet shows every round's top and moves")
        if live.status != "over" or live.game is None:
            raise ActionError("the review is available once the game is over")
        async with live.lock:
            if live.review_json is None:
                from lexiko.web.review import compute_review

                lex = await self.core.lexicon_for(live.rules)
                assert live.started_at is not None
                data = await asyncio.to_thread(
                    compute_review,
                    players=live.names,
                    rules=live.rules,
                    seed=live.seed,
                    started_at=live.started_at,
                    actions=list(live.actions),
                    lexicon=lex,
                )
                text = json.dumps(data)
                await self.core.db(self.core.store.save_review, live.id, text)
                live.review_json = text
            result: dict[str, Any] = json.loads(live.review_json)
            return result
