"""A click's first answer that Discord's servers fail for all of Discord's three seconds is given
up (bot/replies.py): the interaction has died, so nobody is told anything, and the log and the
metrics call it Discord's failure, not an error of ours. Stub interactions: what is under test
is how the answer's end is told apart."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import pytest

from bot import metrics, replies
from bot.errors import guarded


class _Dead:
    """An interaction whose answers Discord's servers never take."""

    type = discord.InteractionType.component
    id, guild_id, token = 42, 1, "token"

    def __init__(self) -> None:
        self.told: list[str] = []
        parent = self

        class Response:
            def is_done(self) -> bool:
                return False

            async def send_message(self, text: str, **_: Any) -> None:
                parent.told.append(text)

        self.response = Response()


def _outcomes(outcome: str) -> float:
    return metrics.INTERACTIONS.labels("component", outcome)._value.get()


async def test_an_answer_given_up_is_discords_failure_told_to_nobody(caplog: pytest.LogCaptureFixture) -> None:
    dead = _Dead()

    async def handler() -> None:
        raise replies.NotAnswered(f"interaction {dead.id}")

    before = _outcomes("discord failed")
    with caplog.at_level(logging.INFO):
        await guarded(dead, handler)  # type: ignore[arg-type]
    assert dead.told == [], "the interaction is dead: nothing more can be said to it"
    assert _outcomes("discord failed") == before + 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "until it expired" in caplog.text


async def test_the_answer_is_tried_for_discords_three_seconds_then_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """However long discord.py would go on retrying."""
    tries: list[float] = []

    class Retrying:
        async def request(self, *args: Any, **kwargs: Any) -> None:
            while True:  # a 5xx, a pause, again: as discord.py's webhook adapter does
                tries.append(asyncio.get_running_loop().time())
                await asyncio.sleep(0.02)

    monkeypatch.setattr(replies, "ANSWER_PATIENCE", 0.1)
    adapter = replies.async_context.set(Retrying())  # type: ignore[arg-type]
    response = type("R", (), {"is_done": lambda self: False})()
    click: Any = type("Click", (), {"id": 1, "token": "t", "_session": None, "response": response})()
    click._state = type("S", (), {"allowed_mentions": None, "http": type("H", (), {"proxy": None, "proxy_auth": None})()})()
    began = asyncio.get_running_loop().time()
    try:
        with pytest.raises(replies.NotAnswered):
            await asyncio.wait_for(replies.update(click, content="x"), 2)  # unbounded: TimeoutError
    finally:
        replies.async_context.reset(adapter)
    assert 0.09 < asyncio.get_running_loop().time() - began < 0.5
    assert len(tries) >= 3
