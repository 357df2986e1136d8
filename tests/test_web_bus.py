"""The shared mode's bus (Redis): many publishes at once wait for a connection instead of
failing (redis-py's asyncio pool used to refuse past 100 connections, and a move's news
was then lost: "could not publish game ... at version 2")."""

from __future__ import annotations

import asyncio
import logging
import shutil

import pytest
from webharness import RedisServer

from lexiko.web.bus import RedisBus

N = 300  # more than redis-py's default pool held

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")


def test_many_publishes_at_once_all_go_out(caplog: pytest.LogCaptureFixture) -> None:
    server = RedisServer()
    url = server.start()
    try:

        async def flood() -> int:
            bus = RedisBus(url)
            heard: list[tuple[str, int]] = []
            other = RedisBus(url)
            other.me = "another process"

            async def on_version(game_id: str, version: int) -> None:
                heard.append((game_id, version))

            await other.start(on_version)
            await bus.start(on_version)
            try:
                await asyncio.gather(*(bus.publish(f"g{i}", i) for i in range(N)))
                for _ in range(100):  # the other process hears every one
                    if len(heard) >= N:
                        break
                    await asyncio.sleep(0.05)
                return len(heard)
            finally:
                await bus.stop()
                await other.stop()

        with caplog.at_level(logging.ERROR, logger="lexiko.web"):
            assert asyncio.run(flood()) == N
        assert [r.getMessage() for r in caplog.records] == []
    finally:
        server.stop()


def test_submissions_of_one_turn_go_out_together_and_each_is_heard() -> None:
    """Duplicate submissions stored in one turn of the loop go out as one Redis message
    (a line each): the other process hears each, whole and in order, and a line it
    cannot read does not stop the others."""
    import redis.asyncio as redis

    from lexiko.web.bus import SUBMISSION_CHANNEL
    from lexiko.web.store import SubmissionData

    server = RedisServer()
    url = server.start()
    try:

        async def run() -> tuple[list[tuple[str, SubmissionData]], int]:
            bus, other = RedisBus(url), RedisBus(url)
            other.me = "another process"
            heard: list[tuple[str, SubmissionData]] = []

            async def on_version(game_id: str, version: int) -> None:
                pass

            async def on_submission(game_id: str, sub: SubmissionData) -> None:
                heard.append((game_id, sub))

            raw = redis.Redis.from_url(url)
            watch = raw.pubsub()
            await watch.subscribe(SUBMISSION_CHANNEL)
            await other.start(on_version, on_submission=on_submission)
            await bus.start(on_version)
            try:
                for i in range(N):
                    await bus.publish_submission(f"g{i % 3}", SubmissionData(2, i, f"8D W{i} (A)B", 1.5 + i, 1 + i % 2))
                messages = 0

                async def count(until: int) -> None:
                    nonlocal messages
                    for _ in range(100):
                        msg = await watch.get_message(ignore_subscribe_messages=True, timeout=0.05)
                        messages += msg is not None
                        if len(heard) >= until and msg is None:
                            break

                await count(N)
                await raw.publish(SUBMISSION_CHANNEL, "g0 2 not-a-seat 1 1.0 x 8D A\ng1 2 7 1 1.0 x 8D AB")
                await count(N + 1)
                return heard, messages
            finally:
                await bus.stop()
                await other.stop()
                await watch.aclose()
                await raw.aclose()

        heard, messages = asyncio.run(run())
        sent = [(f"g{i % 3}", SubmissionData(2, i, f"8D W{i} (A)B", 1.5 + i, 1 + i % 2)) for i in range(N)]
        assert heard == [*sent, ("g1", SubmissionData(2, 7, "8D AB", 1.0, 1))]
        assert messages == 2  # the N submissions in one message, and the hand-written one
    finally:
        server.stop()
