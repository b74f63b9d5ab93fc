"""The line of clicks in front of a busy game: whoever waited too long is deferred, and nobody
loses their place for it. Stub interactions: what is under test is the runtime's queue."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot import replies
from bot import runtime as runtime_module
from bot.runtime import TableRuntime


class Response:
    def __init__(self, fails: bool = False) -> None:
        self.deferred = False
        self.fails = fails
        self.at: float | None = None

    def is_done(self) -> bool:
        return self.deferred

    async def defer(self, **_: object) -> None:
        if self.fails:
            raise discord.DiscordException("Discord is down")
        self.deferred = True
        self.at = asyncio.get_running_loop().time()


class Click:
    type = discord.InteractionType.component

    def __init__(self, fails: bool = False) -> None:
        self.response = Response(fails)


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> TableRuntime:
    monkeypatch.setattr(runtime_module, "QUEUE_PATIENCE", 0.2)
    return TableRuntime(None, None, None)  # type: ignore[arg-type]


async def test_a_deferred_click_keeps_its_place_in_line(runtime: TableRuntime) -> None:
    served: list[tuple[str, bool]] = []

    async def click(name: str, after: float) -> None:
        await asyncio.sleep(after)
        it = Click()
        async with runtime.turn(it, 1):  # type: ignore[arg-type]
            served.append((name, it.response.deferred))

    busy = runtime.lock(1)
    await busy.acquire()  # another click is being handled (DMs going out, say)
    clicks = [asyncio.create_task(click("first", 0.02)), asyncio.create_task(click("second", 0.12))]
    await asyncio.sleep(0.3)  # the first has waited 0.28 s and was deferred; the second 0.18 s
    busy.release()
    await asyncio.gather(*clicks)
    assert served == [("first", True), ("second", False)]


async def test_a_click_whose_deferral_fails_leaves_the_lock_free(runtime: TableRuntime) -> None:
    busy = runtime.lock(2)
    await busy.acquire()
    failing = asyncio.create_task(runtime.turn(Click(fails=True), 2).__aenter__())  # type: ignore[arg-type]
    await asyncio.sleep(0.3)
    assert failing.done() and isinstance(failing.exception(), discord.DiscordException)
    busy.release()
    await asyncio.sleep(0)
    assert not busy.locked()  # the failed click did not take the lock on its way out
    async with runtime.turn(Click(), 2):  # type: ignore[arg-type]
        assert busy.locked()
    assert not busy.locked()


async def test_a_click_whose_deferral_fails_as_its_turn_comes_leaves_the_lock_to_the_next(
        runtime: TableRuntime, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lock handed to a click in the very moment its defer fails: the click ends with the
    defer's error, and the lock goes on to whoever waits next, not to nobody."""
    busy = runtime.lock(3)
    await busy.acquire()

    unlucky = Click()

    async def defer(click: Click) -> None:
        if click is unlucky:
            busy.release()  # the click ahead finishes as the defer goes out
            raise discord.DiscordException("Discord is down")
        click.response.deferred = True

    monkeypatch.setattr(replies, "defer", defer)
    failing = asyncio.create_task(runtime.turn(unlucky, 3).__aenter__())  # type: ignore[arg-type]
    await asyncio.sleep(0.01)
    served: list[str] = []

    async def next_click() -> None:
        async with runtime.turn(Click(), 3):  # type: ignore[arg-type]
            served.append("next")

    following = asyncio.create_task(next_click())
    await asyncio.wait_for(asyncio.gather(failing, following, return_exceptions=True), 2.0)
    assert isinstance(failing.exception(), discord.DiscordException)
    assert served == ["next"] and not busy.locked()


async def test_a_click_whose_save_runs_past_the_store_patience_is_deferred_while_it_waits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One deferred as its patience runs out (at most a tick of the watch later), while the save
    still waits; one whose save came in time is never deferred, then or later."""
    monkeypatch.setattr(replies, "STORE_PATIENCE", 0.1)
    loop = asyncio.get_running_loop()
    quick, slow = Click(), Click()
    assert await replies.in_time(quick, asyncio.sleep(0.01, "saved")) == "saved"  # type: ignore[arg-type]
    began = loop.time()
    assert await replies.in_time(slow, asyncio.sleep(0.5, "saved")) == "saved"  # type: ignore[arg-type]
    assert slow.response.at is not None and 0.1 <= slow.response.at - began <= 0.1 + replies.WATCH_TICK + 0.05
    await asyncio.sleep(2 * replies.WATCH_TICK)
    assert not quick.response.deferred
