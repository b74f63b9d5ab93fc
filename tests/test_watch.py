"""The one timer that watches every click's patience: what is due fires at its time, in any
mix of patiences, and nothing else does."""

from __future__ import annotations

import asyncio

import pytest

from bot import replies


async def test_each_wait_fires_once_its_own_patience_has_run_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replies, "WATCH_TICK", 0.02)
    watch = replies._watch()
    assert replies._watch() is watch  # the running loop's, found again
    fired: list[str] = []
    loop = asyncio.get_running_loop()
    began = loop.time()
    watch.arm(0.5, lambda: fired.append("long, armed first"))
    await asyncio.sleep(0.05)
    watch.arm(0.1, lambda: fired.append("short"))
    gone = watch.arm(0.1, lambda: fired.append("disarmed"))
    watch.arm(0.1, lambda: fired.append("short, armed second"))
    watch.disarm(gone)
    await asyncio.sleep(0.3)
    assert fired == ["short", "short, armed second"]
    late = watch.arm(0.1, lambda: fired.append("short, armed late"))
    await asyncio.sleep(0.35)
    assert fired == ["short", "short, armed second", "short, armed late", "long, armed first"]
    assert loop.time() - began >= 0.5
    watch.disarm(late)  # done already: nothing to take back
    await asyncio.sleep(0.05)
    assert not watch._ticking  # nothing left to watch: the timer stopped


async def test_a_wait_that_fails_as_it_fires_leaves_the_others_to_fire(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replies, "WATCH_TICK", 0.02)
    watch = replies._watch()
    reported: list[object] = []
    asyncio.get_running_loop().set_exception_handler(lambda _, context: reported.append(context["exception"]))
    fired: list[str] = []

    def broken() -> None:
        raise RuntimeError("broken")

    watch.arm(0.05, broken)
    watch.arm(0.05, lambda: fired.append("next"))
    await asyncio.sleep(0.2)
    assert fired == ["next"]
    assert [str(e) for e in reported] == ["broken"]


async def test_what_fires_may_arm_another_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wait past its patience may start another (a defer given a patience of its own)."""
    monkeypatch.setattr(replies, "WATCH_TICK", 0.02)
    watch = replies._watch()
    fired: list[str] = []
    watch.arm(0.05, lambda: watch.arm(0.07, lambda: fired.append("second")))
    await asyncio.sleep(0.25)
    assert fired == ["second"]
