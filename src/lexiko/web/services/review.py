"""Looking into a game: whether a word is valid in it, and the review by simulation of
a finished game or of a GCG record sent to be reviewed.

A review takes seconds to a minute (`lexiko.review`), so it is computed in the
background, never on the event loop: one review at a time in a thread of its own, its
play-outs in a worker process (``review_jobs`` of them; 0: in that thread), its endgame
solves in threads. A request starts it and is answered at once with how far it has
got (``queued``, ``running``: turns done of the total); the page asks again until it is
``done``. The result is stored (`Store.save_review`), so every later view, on any
process and after a restart, reads it instead of computing it again. At most
``MAX_WAITING`` reviews wait at once; past that a request is refused for a while.

Fair-play rules about looking words up (what a player may look up while the game is on,
how often) go in `Review.lookup`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import multiprocessing
import unicodedata
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from lexiko.errors import LexikoError
from lexiko.game import Game, word_is_valid
from lexiko.rules import Rules
from lexiko.web.errors import ActionError, NotFoundError, RateLimited
from lexiko.web.live import LiveGame
from lexiko.web.services.core import Core

__all__ = ["Review", "CLOSED", "MAX_WAITING", "BUSY"]

log = logging.getLogger("lexiko.web")

CLOSED = "the word judge opens when the game ends"
"""The answer to a lookup while the game is on."""

MAX_WAITING = 8
"""Reviews being computed or waiting in one process, at most."""

BUSY = "the server is busy reviewing other games: try again in a few minutes"
"""The answer to a review asked for when `MAX_WAITING` are under way."""


class _Stopped(Exception):
    """The server is stopping: the review under way gives up."""


@dataclass
class _Job:
    """A review under way: how far it has got, or why it failed."""

    number: int
    done: int = 0
    total: int | None = None
    started: bool = False
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Review:
    """Word look-ups and game reviews."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lexiko-review")
        self._workers: ProcessPoolExecutor | None = None
        self._jobs: dict[str, _Job] = {}
        self._failed: dict[str, str] = {}
        self._count = 0
        self._stopping = False

    def close(self) -> None:
        """Stop: the review under way gives up at its next turn, none waiting starts."""
        self._stopping = True
        self._thread.shutdown(wait=False, cancel_futures=True)
        if self._workers is not None:
            self._workers.shutdown(wait=False, cancel_futures=True)

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

    # -- reviews ---------------------------------------------------------------------

    async def review(self, live: LiveGame) -> dict[str, Any]:
        """The review of a finished game, or how far it has got (it starts on the first
        request)."""
        if live.is_duplicate:
            raise ActionError("duplicate games have no review: the master sheet shows every round's top and moves")
        if live.status != "over" or live.game is None:
            raise ActionError("the review is available once the game is over")
        from lexiko.web.review import game_of_actions

        assert live.started_at is not None
        players, rules, seed, started_at = live.names, live.rules, live.seed, live.started_at
        actions = list(live.actions)

        def build() -> Game:
            return game_of_actions(players=players, rules=rules, seed=seed, started_at=started_at, actions=actions)

        return await self._fetch(live.id, rules, build)

    async def upload(self, text: str) -> dict[str, Any]:
        """Take a GCG record to review: its id, its page, and its review or how far it
        has got. The same record sent again is the same review."""
        from lexiko.web.review import game_of_record

        text = text.replace("\r\n", "\n")
        try:
            game = await asyncio.to_thread(game_of_record, text)
        except LexikoError as e:
            raise ActionError(str(e)) from None
        key = "gcg-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
        if await self.core.db(self.core.store.load_review, key) is None:
            await self.core.db(self.core.store.save_review, key, None, text)
        review = await self._fetch(key, self._rules_here(game.rules), lambda: game)
        return {"id": key, "path": f"/review/{key}", "review": review}

    async def record(self, key: str) -> dict[str, Any]:
        """The review of a record sent before, or how far it has got."""
        if key in self._jobs:
            return self._status(key)
        stored = await self.core.db(self.core.store.load_review, key) if key.startswith("gcg-") else None
        if stored is None:
            raise NotFoundError("no such review")
        source, result = stored
        if source is None:
            raise NotFoundError("no such review")
        if result is not None:
            loaded: dict[str, Any] = json.loads(result)
            return loaded
        from lexiko.web.review import game_of_record

        try:
            game = await asyncio.to_thread(game_of_record, source)
        except LexikoError as e:
            raise ActionError(str(e)) from None
        return await self._fetch(key, self._rules_here(game.rules), lambda: game)

    def _rules_here(self, rules: Rules) -> Rules:
        """A record's rules with a lexicon this server has: its own, else the default."""
        if rules.lexicon in self.core.lexicons:
            return rules
        import dataclasses

        return dataclasses.replace(rules, lexicon=self.core.lexicons[0])

    def _status(self, key: str) -> dict[str, Any]:
        job = self._jobs[key]
        if not job.started:
            ahead = sum(1 for j in self._jobs.values() if j.number < job.number)
            return {"status": "queued", "done": 0, "ahead": ahead}
        return {"status": "running", "done": job.done, "total": job.total}

    async def _fetch(self, key: str, rules: Rules, build: Callable[[], Game]) -> dict[str, Any]:
        """The stored review under ``key``, else how far its computing has got (started
        here when nothing computes it)."""
        if key in self._jobs:
            return self._status(key)
        if key in self._failed:
            raise ActionError(self._failed[key])
        stored = await self.core.db(self.core.store.load_review, key)
        if stored is not None and stored[1] is not None:
            result: dict[str, Any] = json.loads(stored[1])
            return result
        if key in self._jobs:  # started while the database answered
            return self._status(key)
        if len(self._jobs) >= MAX_WAITING or self._stopping:
            raise RateLimited(BUSY)
        self._count += 1
        job = self._jobs[key] = _Job(self._count)
        job.task = asyncio.get_running_loop().create_task(self._run(key, job, rules, build))
        return self._status(key)

    def _executor(self) -> Executor | None:
        """The worker processes of the play-outs (made on first use), if any."""
        jobs = self.core.settings.review_jobs
        if jobs < 1:
            return None
        if self._workers is None:
            # spawned, not forked: the server's threads hold locks a fork would copy
            self._workers = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
        return self._workers

    async def _run(self, key: str, job: _Job, rules: Rules, build: Callable[[], Game]) -> None:
        from lexiko.web.review import compute_review

        try:
            lex = await self.core.lexicon_for(rules)
        except ActionError as e:
            self._failed[key] = str(e)
            self._jobs.pop(key, None)
            return
        depth = self.core.settings.review_depth
        executor = self._executor()

        def progress(phase: str, done: int, total: int) -> None:
            if self._stopping:
                raise _Stopped
            job.started = True
            job.done, job.total = done, total

        def work() -> str:
            job.started = True
            return json.dumps(compute_review(build(), lex, depth, executor=executor, progress=progress))

        try:
            text = await asyncio.get_running_loop().run_in_executor(self._thread, work)
            await self.core.db(self.core.store.save_review, key, text)
        except (_Stopped, asyncio.CancelledError, RuntimeError):
            if not self._stopping:
                raise
        except Exception as e:  # a review that cannot be made is not tried again by this process
            log.exception("the review of %s failed", key)
            self._failed[key] = f"the review could not be made: {e}"
        finally:
            self._jobs.pop(key, None)
