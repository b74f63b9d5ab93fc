"""A game's lock that cannot be taken (on PostgreSQL it is an advisory lock, whose connection
the server may drop): the click fails with the store's own error, which the player is told of,
never with a second error about releasing a lock it never held. Stub interactions: what is
under test is the runtime's queue."""

from __future__ import annotations

import asyncio
from typing import Literal

import discord
import pytest

from bot import runtime as runtime_module
from bot.runtime import TableRuntime
from bot.store import StoreUnavailable


class Response:
    def __init__(self) -> None:
        self.deferred = False

    def is_done(self) -> bool:
        return self.deferred

    async def defer(self, **_: object) -> None:
        self.deferred = True


class Click:
    type = discord.InteractionType.component

    def __init__(self) -> None:
        self.response = Response()


class LostLock(asyncio.Lock):
    """A lock whose taking fails after a while, as an advisory lock on a dropped connection does."""

    def __init__(self, after: float) -> None:
        super().__init__()
        self.after = after

    async def acquire(self) -> Literal[True]:
        await asyncio.sleep(self.after)
        raise StoreUnavailable("the connection to the database was lost")


@pytest.mark.parametrize("after", [0.0, 0.3])  # before the click is deferred, and after
async def test_a_lock_that_cannot_be_taken_fails_with_the_stores_error(
        monkeypatch: pytest.MonkeyPatch, after: float) -> None:
    monkeypatch.setattr(runtime_module, "QUEUE_PATIENCE", 0.1)
    runtime = TableRuntime(None, None, None)  # type: ignore[arg-type]
    monkeypatch.setattr(runtime, "lock", lambda game_id: LostLock(after))
    with pytest.raises(StoreUnavailable):
        async with runtime.turn(Click(), 1):  # type: ignore[arg-type]
            raise AssertionError("the turn must not begin")
