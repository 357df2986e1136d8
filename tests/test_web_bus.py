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
