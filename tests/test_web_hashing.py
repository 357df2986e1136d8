"""Passwords off the event loop (`lexiko.web.hashing`): at most ``workers`` hashes run
and ``queue`` wait; past that a request is refused at once instead of queueing work for
minutes (200 sign-ins at once took 151 s and 678 MB with the default thread pool)."""

from __future__ import annotations

import asyncio

from lexiko.web.hashing import Busy, PasswordHashing, SignInBackoff


def test_hashing_is_bounded_and_refuses_past_its_queue() -> None:
    hashing = PasswordHashing(workers=1, queue=2)

    async def burst() -> list[object]:
        return await asyncio.gather(*(hashing.hash(f"tulip-orbit-{i}") for i in range(5)), return_exceptions=True)

    try:
        results = asyncio.run(burst())
    finally:
        hashing.close()
    assert [type(r) for r in results] == [str, str, str, Busy, Busy]
    assert str(results[3]) == "the server is busy checking passwords: try again in a few seconds"
    assert hashing.pending == 0


def test_back_off_doubles_after_the_free_tries_and_forgets_the_oldest() -> None:
    now = [100.0]
    b = SignInBackoff(free=5, base=1.0, cap=900.0, size=3, clock=lambda: now[0])
    waits = []
    for _ in range(8):
        b.failed("ann")
        waits.append(b.wait("ann"))
    assert waits == [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 4.0]
    for _ in range(20):
        b.failed("bob")
    assert b.wait("bob") == 900.0  # the cap
    for name in ("cy", "di"):  # two more names: ann, the least recently failed, is forgotten
        b.failed(name)
    assert b.wait("ann") == 0.0 and b.wait("bob") == 900.0
