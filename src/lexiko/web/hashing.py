"""Passwords off the event loop: Argon2id on a bounded pool of threads, and a back-off
per account after failed sign-ins.

Two hundred sign-ins at once from two hundred addresses took 151 s and 678 MB when each
hash ran in the default thread pool with Argon2's default cost (64 MiB, 4 lanes): every
game waited meanwhile. Here a hash costs what OWASP's first recommendation asks
(Argon2id, 19 MiB, 2 passes, 1 lane: about 35 ms of one core), at most ``workers`` run
at once (memory stays under ``workers`` x 19 MiB), and no more than ``queue`` wait: past
that `PasswordHashing` refuses at once with `Busy`, which the web app answers with
"try again in a few seconds" instead of queueing work for minutes.

>>> import asyncio
>>> hashing = PasswordHashing(workers=1)
>>> digest = asyncio.run(hashing.hash("tulip-orbit-ferry"))
>>> asyncio.run(hashing.verify(digest, "tulip-orbit-ferry")), asyncio.run(hashing.verify(digest, "wrong"))
(True, False)
>>> hashing.close()
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

__all__ = ["Busy", "PasswordHashing", "SignInBackoff"]


class Busy(Exception):
    """Too many passwords are waiting to be hashed: try again shortly."""


class PasswordHashing:
    """Argon2id hashes and checks on ``workers`` threads, ``queue`` more waiting at most."""

    def __init__(self, workers: int = 2, queue: int = 64) -> None:
        from argon2 import PasswordHasher

        self._hasher = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lexiko-argon2")
        self._limit = workers + queue
        self._pending = 0

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self._pending >= self._limit:
            raise Busy("the server is busy checking passwords: try again in a few seconds")
        self._pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        finally:
            self._pending -= 1

    async def hash(self, password: str) -> str:
        """The Argon2id hash of a password (a new salt each time)."""
        return str(await self._run(self._hasher.hash, password))

    async def verify(self, digest: str, password: str) -> bool:
        """Whether ``password`` is the one ``digest`` was made from."""
        from argon2.exceptions import InvalidHashError, VerificationError

        try:
            return bool(await self._run(self._hasher.verify, digest, password))
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, digest: str) -> bool:
        """Whether ``digest`` was made with other parameters (hash the password again)."""
        return bool(self._hasher.check_needs_rehash(digest))

    @property
    def pending(self) -> int:
        """Hashes running or waiting."""
        return self._pending

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class SignInBackoff:
    """Failed sign-ins per account: the first ``free`` failures cost nothing, each one
    after doubles the wait before the next try (``base`` seconds, at most ``cap``); a
    success clears the count. At most ``size`` accounts are remembered (the least
    recently failed are forgotten first), so that guessing at many names cannot fill
    memory.

    >>> now = [0.0]
    >>> b = SignInBackoff(free=2, base=1.0, clock=lambda: now[0])
    >>> for _ in range(4):
    ...     b.failed("ann")
    >>> b.wait("ann"), b.wait("bob")  # the 3rd failure: 1 s; the 4th: 2 s
    (2.0, 0.0)
    >>> now[0] = 1.5; b.wait("ann")
    0.5
    >>> b.succeeded("ann"); b.wait("ann")
    0.0
    """

    def __init__(
        self,
        free: int = 5,
        base: float = 1.0,
        cap: float = 900.0,
        size: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.free, self.base, self.cap, self.size = free, base, cap, size
        self._clock = clock
        self._failures: OrderedDict[str, tuple[int, float]] = OrderedDict()  # key: (count, last failure)

    def wait(self, key: str) -> float:
        """Seconds before ``key`` may try again (0.0: now)."""
        count, last = self._failures.get(key, (0, 0.0))
        if count <= self.free:
            return 0.0
        delay = min(self.cap, self.base * 2.0 ** (count - self.free - 1))
        return max(0.0, last + delay - self._clock())

    def failed(self, key: str) -> None:
        count, _ = self._failures.pop(key, (0, 0.0))
        self._failures[key] = (count + 1, self._clock())
        while len(self._failures) > self.size:
            self._failures.popitem(last=False)

    def succeeded(self, key: str) -> None:
        self._failures.pop(key, None)
