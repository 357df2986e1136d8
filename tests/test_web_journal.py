"""The journal writes the actions of many games in batches (one transaction each) and
still gives each move its own answer."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from lexiko.web.errors import ActionError
from lexiko.web.service import GameService, SeatRequest
from lexiko.web.store import ActionData, AppendData, ConflictError, Store, SubmissionData


class CountingStore(Store):
    """A store that records the size of each batch of actions it is given."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.batches: list[int] = []

    def append_actions(self, items: Sequence[AppendData]) -> list[ConflictError | None]:
        self.batches.append(len(items))
        return super().append_actions(items)


async def _started_games(svc: GameService, n: int) -> list[str]:
    ids = []
    for _ in range(n):
        d = await svc.create_game(
            preset="casual", options={}, seats=[SeatRequest("human", "Ann"), SeatRequest("human", "Bob")]
        )
        await svc.join(d["game_id"], d["invites"][0]["path"].rsplit("/", 1)[1], "Bob")
        ids.append(d["game_id"])
    return ids


def test_moves_of_many_games_at_once_are_stored_in_a_few_transactions(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[int], list[int]]:
        store = CountingStore(f"sqlite:///{tmp_path / 'games.db'}")
        svc = GameService(store, lexicons=["TWL06"])
        await svc.open()
        try:
            ids = await _started_games(svc, 24)
            lives = [await svc.loader.get(g) for g in ids]
            assert store.batches == []
            await asyncio.gather(
                *(svc.games.act(live, live.game.player_on_turn, {"type": "pass"}) for live in lives if live.game)
            )
            stored = [len(store.load_game(g).actions) for g in ids]  # type: ignore[union-attr]
            return store.batches, stored
        finally:
            await svc.close()

    batches, stored = asyncio.run(scenario())
    assert stored == [1] * 24  # every pass stored, once
    assert batches == [24]  # all in one transaction: they arrived while none was being written


def test_a_move_that_lost_its_race_is_refused_and_the_others_of_its_batch_stand(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[str], list[int]]:
        store = Store(f"sqlite:///{tmp_path / 'games.db'}")
        svc = GameService(store, lexicons=["TWL06"])
        await svc.open()
        try:
            ids = await _started_games(svc, 3)
            lives = [await svc.loader.get(g) for g in ids]
            # another process stores action 0 of the second game behind this one's back
            store.append_action(ids[1], ActionData(0, 0, "-", 1.0), status="active")
            results = await asyncio.gather(
                *(svc.games.act(live, live.game.player_on_turn, {"type": "pass"}) for live in lives if live.game),
                return_exceptions=True,
            )
            msgs = [str(r) if isinstance(r, ActionError) else "stored" for r in results]
            return msgs, [len(store.load_game(g).actions) for g in ids]  # type: ignore[union-attr]
        finally:
            await svc.close()

    msgs, stored = asyncio.run(scenario())
    assert msgs == [
        "stored",
        "the game changed meanwhile (a move came first from elsewhere): look again and act on it",
        "stored",
    ]
    assert stored == [1, 1, 1]


@pytest.mark.parametrize("n", [1, 5])
def test_a_failed_transaction_fails_each_of_its_moves_and_takes_them_back(tmp_path: Path, n: int) -> None:
    class Broken(Store):
        def append_actions(self, items: Sequence[AppendData]) -> list[ConflictError | None]:
            raise RuntimeError("disk full")

    async def scenario() -> tuple[list[str], list[int]]:
        store = Broken(f"sqlite:///{tmp_path / 'games.db'}")
        svc = GameService(store, lexicons=["TWL06"])
        await svc.open()
        try:
            ids = await _started_games(svc, n)
            lives = [await svc.loader.get(g) for g in ids]
            results = await asyncio.gather(
                *(svc.games.act(live, live.game.player_on_turn, {"type": "pass"}) for live in lives if live.game),
                return_exceptions=True,
            )
            return [str(r) for r in results], [len(live.actions) for live in lives]
        finally:
            await svc.close()

    msgs, held = asyncio.run(scenario())
    assert msgs == ["the server could not save this action, so it was not made: try again"] * n
    assert held == [0] * n


class CountingSubmissions(Store):
    """A store that records the size of each batch of duplicate submissions."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.batches: list[int] = []

    def submit_many(self, items: Sequence[tuple[str, SubmissionData]]) -> list[int | ConflictError]:
        self.batches.append(len(items))
        return super().submit_many(items)


def test_a_duplicate_round_s_moves_are_stored_together_and_it_closes_once_all_are_in(tmp_path: Path) -> None:
    """Thirty players' moves at once: judged one after the other, stored in a few
    transactions (before: one at a time, with the game's lock held across each), and
    the round closes once, when the last is stored."""

    async def scenario() -> tuple[list[int], list[str], list[str]]:
        store = CountingSubmissions(f"sqlite:///{tmp_path / 'games.db'}")
        svc = GameService(store, lexicons=["TWL06"])
        await svc.open()
        try:
            d = await svc.create_game(
                preset="duplicate",
                options={"duplicate_seconds": None},
                seats=[SeatRequest("human", f"P{i}") for i in range(30)],
            )
            for i, inv in enumerate(d["invites"], start=1):
                await svc.join(d["game_id"], inv["path"].rsplit("/", 1)[1], f"P{i}")
            live = await svc.loader.get(d["game_id"])
            results = await asyncio.gather(
                *(svc.games.act(live, seat, {"type": "pass"}) for seat in range(30)), return_exceptions=True
            )
            texts = [a.text for a in store.load_game(live.id).actions]  # type: ignore[union-attr]
            return store.batches, [repr(r) for r in results if r is not None], texts
        finally:
            await svc.close()

    batches, errors, actions = asyncio.run(scenario())
    assert errors == []
    assert sum(batches) == 30 and len(batches) <= 3
    assert len(actions) == 1 and actions[0].startswith("close")  # round 1 closed, once


@pytest.mark.parametrize("writers", [1, 2])
def test_an_item_put_as_the_last_batch_ends_is_written(writers: int) -> None:
    """The caller of the last batch's item runs before its writer is dropped from the
    running set: its next item must start a writer, not wait for one that has ended
    (it waited for ever; bots' games stalled)."""
    from lexiko.web.services.core import Batches, Core, Settings

    async def scenario() -> list[int]:
        core = Core(Store("sqlite://"), Settings())
        try:
            double: Batches[int, int] = Batches(core, lambda items: [2 * i for i in items], writers=writers)

            async def one_then_another() -> list[int]:  # the second put in the step the first returns
                return [await double.put(1), await double.put(2)]

            out = await asyncio.wait_for(one_then_another(), 5)
            out += await asyncio.wait_for(asyncio.gather(double.put(3), double.put(4), double.put(5)), 5)
            return out
        finally:
            core.close()

    assert asyncio.run(scenario()) == [2, 4, 6, 8, 10]
