"""What every service of the web app shares: the database (each store call run in its
thread pool), the bus to the other processes, the settings, the games held in memory,
the lexicons loaded, and the clients of each game (who is sent each new state).

Each concern's service (`lexiko.web.services`) is made on a `Core`; none holds state of
its own that another service needs.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from lexiko.errors import LexikoError
from lexiko.lexicon import BUILTIN, Lexicon
from lexiko.review import DEFAULT_DEPTH, ReviewDepth
from lexiko.rules import Rules
from lexiko.web.bus import Bus
from lexiko.web.errors import ActionError
from lexiko.web.live import Listener, LiveGame
from lexiko.web.store import DB_THREADS, Store, lost_connection
from lexiko.web.store_async import LoopAppends
from lexiko.web.views import state_text

__all__ = ["Settings", "Core", "Batches", "WATCHERS_SECONDS"]

log = logging.getLogger("lexiko.web")

T = TypeVar("T")

WATCHERS_SECONDS = 0.5
"""How long the clients of a game may see the number of spectators behind: the state
that tells it is sent once for all who came or went in that time."""


@dataclass(frozen=True)
class Settings:
    """How the server runs (the arguments of `lexiko.web.server.create_app`).

    >>> Settings(lexicons=("TWL06",)).idle_seconds
    600.0
    """

    lexicons: Sequence[str] = ("TWL06", "SOWPODS")
    bot_delay: float = 0.0
    clock_interval: float = 1.0
    idle_seconds: float = 600.0
    allow_seeds: bool = False
    expire_hours: float = 24.0
    abandon_days: float = 7.0
    #: How hard a game review looks (`lexiko.review.ReviewDepth`), and the worker
    #: processes of its play-outs (0: in the review's own thread).
    review_depth: ReviewDepth = DEFAULT_DEPTH
    review_jobs: int = 1


Item = TypeVar("Item")
Result = TypeVar("Result")


class Batches(Generic[Item, Result]):
    """Writes that wait for each other: while one database call stores a batch, the
    items that arrive meanwhile wait and go together in the next (one transaction, one
    commit). A quiet server writes each at once; a busy one does not queue a commit per
    item behind the database thread (at 240 moves a second that queue, not the work,
    was most of a move's latency). ``write`` stores a batch in the database thread and
    gives, for each item, its result or the exception its caller gets.

    >>> async def demo() -> list[int]:
    ...     core = Core(Store("sqlite://"), Settings())
    ...     double = Batches(core, lambda items: [2 * i for i in items])
    ...     try:
    ...         return list(await asyncio.gather(*(double.put(i) for i in range(3))))
    ...     finally:
    ...         core.close()
    >>> asyncio.run(demo())
    [0, 2, 4]
    """

    def __init__(
        self,
        core: Core,
        write: Callable[[list[Item]], Sequence[Result | Exception]],
        *,
        on_loop: Callable[[list[Item]], Awaitable[Sequence[Result | Exception]]] | None = None,
        writers: int = 1,
    ) -> None:
        self.core = core
        self.write = write
        #: The same write awaited on the loop, without the database thread, where the
        #: store has one (`lexiko.web.store_async`).
        self.on_loop = on_loop
        #: Batches written at once: with two, an item that arrives while one is being
        #: written goes at once, not after it (the items must not depend on each other).
        self.writers = writers
        self._waiting: list[tuple[Item, asyncio.Future[Result]]] = []
        self._running: set[asyncio.Task[None]] = set()

    async def put(self, item: Item) -> Result:
        """Store one item with whatever others are waiting; its result (or raises its error)."""
        done: asyncio.Future[Result] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, done))
        # (a writer whose loop has ended is done at once; its callback that drops it
        # from the set runs later, so it is counted by done(), not by the set's size)
        if sum(not task.done() for task in self._running) < self.writers:
            task = asyncio.get_running_loop().create_task(self._write())
            self._running.add(task)
            task.add_done_callback(self._running.discard)
        return await done

    async def _write(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                items = [item for item, _ in batch]
                results = await (self.on_loop(items) if self.on_loop is not None else self.core.db(self.write, items))
            except Exception as e:  # the whole transaction failed: each caller is told
                for _, done in batch:
                    if not done.done():
                        done.set_exception(e)
                continue
            for (_, done), result in zip(batch, results, strict=True):
                if done.done():  # its caller was cancelled
                    continue
                if isinstance(result, Exception):
                    done.set_exception(result)
                else:
                    done.set_result(result)


class Core:
    """The store, the bus, the settings and the games in memory, shared by the services."""

    def __init__(self, store: Store, settings: Settings, bus: Bus | None = None) -> None:
        self.store = store
        self.settings = settings
        self.bus = bus if bus is not None else Bus()
        self.lexicons = list(dict.fromkeys(settings.lexicons)) or list(BUILTIN)
        #: The games held in memory, by id (the database has every game).
        self.games: dict[str, LiveGame] = {}
        self._lexicons: dict[tuple[str, str], Lexicon] = {}
        self._lexicon_lock = asyncio.Lock()
        #: Called with a game let go from memory (each service drops what it kept of it).
        self.on_forget: list[Callable[[LiveGame], None]] = []
        #: Called with a game whose end was just stored here (its event takes the result).
        self.on_over: list[Callable[[LiveGame], None]] = []
        # SQLite takes one writer at a time (others sleep and retry): one database thread
        # keeps writes in line without that; PostgreSQL takes a few at once
        workers = 1 if store.dialect == "sqlite" else DB_THREADS
        self._db_pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lexiko-db")
        #: Every game's moves, stored from the loop (PostgreSQL; None: in the thread).
        self.loop_appends = LoopAppends(store) if LoopAppends.usable(store) else None
        self.tasks: set[asyncio.Task[None]] = set()  # publications under way (kept from the collector)
        #: When this process started, and the last heartbeat of the one before it: the
        #: server was down in between, and nobody's clock ran then.
        self.up_since = time.time()
        self.down_since: float | None = None

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call in the database thread(s). A call that finds its pooled
        connection dead (the database restarted) is made once more, on a new one."""
        loop = asyncio.get_running_loop()
        call = functools.partial(fn, *args, **kwargs)
        try:
            return await loop.run_in_executor(self._db_pool, call)
        except Exception as e:
            if not lost_connection(e):
                raise
            log.warning("the database connection was lost; trying again on a new one")
            return await loop.run_in_executor(self._db_pool, call)

    def close(self) -> None:
        """Wait for the database threads, then close the store."""
        self._db_pool.shutdown(wait=True)
        self.store.close()

    async def lexicon_for(self, rules: Rules) -> Lexicon:
        """The rules' lexicon for their tile set, loaded once per process."""
        ts = rules.tile_set
        key = (rules.lexicon, ts.name)
        lex = self._lexicons.get(key)
        if lex is not None:
            return lex
        async with self._lexicon_lock:
            lex = self._lexicons.get(key)
            if lex is None:
                try:
                    lex = await asyncio.to_thread(Lexicon.load, rules.lexicon, ts)
                except LexikoError as e:
                    raise ActionError(str(e)) from None
                self._lexicons[key] = lex
            return lex

    # -- the games in memory ---------------------------------------------------------

    @staticmethod
    def busy(live: LiveGame) -> bool:
        """True while something here acts on the game (its lock held, its bots moving)."""
        return live.lock.locked() or (live.bot_task is not None and not live.bot_task.done())

    def forget(self, live: LiveGame) -> None:
        """Let a game go from this process's memory (and its lease): the next use reads
        it from the database."""
        if self.games.get(live.id) is live:
            del self.games[live.id]
        if self.bus.shared:
            asyncio.get_running_loop().create_task(self.bus.release(live.id))
        for drop in self.on_forget:
            drop(live)

    def tell_others(self, live: LiveGame) -> None:
        """Publish a game's new version for the other processes, without making this
        process's clients wait for Redis (they get the state first). Versions may
        arrive out of order; a process reads whatever it lacks from the database."""
        if not self.bus.shared:
            return
        task = asyncio.get_running_loop().create_task(self.bus.publish(live.id, live.version))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- the clients of each game ------------------------------------------------------

    def subscribe(self, live: LiveGame, listener: Listener) -> None:
        """Send this client every new state of the game from now on (and the chat so far)."""
        if listener not in live.listeners and listener.seat is None:
            live.watchers += 1
        live.listeners.add(listener)
        if listener.seat is not None:
            live.by_seat.setdefault(listener.seat, set()).add(listener)
        live.idle_since = None
        if live.chat:
            listener.post({"type": "chat-history", "messages": list(live.chat)})
        if listener.seat is None:
            self.watchers_changed(live)

    def unsubscribe(self, live: LiveGame, listener: Listener) -> None:
        """Stop sending states to this client."""
        if listener in live.listeners and listener.seat is None:
            live.watchers -= 1
        live.listeners.discard(listener)
        if listener.seat is not None:
            live.by_seat.get(listener.seat, set()).discard(listener)
        if not live.listeners:
            live.idle_since = time.monotonic()
        elif listener.seat is None:
            self.watchers_changed(live)

    def watchers_changed(self, live: LiveGame) -> None:
        """The number of spectators changed: every client is sent the new state within
        `WATCHERS_SECONDS` (once for all the spectators who came or went meanwhile: 200
        arriving together cost one state each, not 200)."""
        if live.game is None or (live.watchers_task is not None and not live.watchers_task.done()):
            return

        async def later() -> None:
            await asyncio.sleep(WATCHERS_SECONDS)
            if live.listeners:
                self.broadcast(live)

        live.watchers_task = asyncio.get_running_loop().create_task(later())

    def broadcast(self, live: LiveGame) -> None:
        """Queue the new state for every client, serialized once per seat (every
        spectator is sent the same text)."""
        views: dict[int | None, str] = {}
        for listener in list(live.listeners):
            seat = listener.seat
            if seat not in views:
                views[seat] = state_text(live, seat)
            listener.post(views[seat])

    def post_state(self, live: LiveGame, seat: int) -> None:
        """Send one seat's clients (a player may have several tabs) their new state."""
        text = ""
        for listener in list(live.by_seat.get(seat, ())):
            text = text or state_text(live, seat)
            listener.post(text)

    def post_all(self, live: LiveGame, message: dict[str, Any] | str) -> None:
        """Send one message to every client of the game."""
        for listener in list(live.listeners):
            listener.post(message)
