"""Whether chat has scrolled a table away, learnt from the newest message each interaction names:
Discord is asked only when something new came below, and never once the table is gone up."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import deliver
from bot.deliver import Deliverer
from bot.models import Book, Table

CHANNEL = 9


class _Messages:
    """The channel's messages as Discord's REST API reads them, counting the reads; ``failing``:
    Discord's servers fail the read; ``meanwhile``: run while the read is under way."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.reads = 0
        self.failing = False
        self.meanwhile: Callable[[], None] | None = None

    async def logs_from(self, channel_id: int, limit: int, *, after: int) -> list[dict[str, Any]]:
        self.reads += 1
        if self.failing:
            raise discord.DiscordServerError(SimpleNamespace(status=503, reason="down"), "down")  # type: ignore[arg-type]
        found = [{"id": str(i)} for i in sorted(i for i in self.ids if i > after)[:limit]]
        if self.meanwhile is not None:
            self.meanwhile()
            self.meanwhile = None
        return found


def _deliverer() -> tuple[Deliverer, _Messages]:
    messages = _Messages()
    return Deliverer(client=SimpleNamespace(http=messages), store=None), messages  # type: ignore[arg-type]


async def _scrolled(deliverer: Deliverer, table_message: int, *, heard: bool = True) -> bool:
    table = Table(id=1, guild_id=1, channel_id=CHANNEL, game="knucklebones", host_id=1, seed=0)
    return (await deliverer.channel(table, Book(message_id=table_message), heard=heard)).scrolled


async def test_chat_below_a_table_is_asked_of_discord_only_when_a_click_names_a_newer_message() -> None:
    deliverer, chat = _deliverer()
    deliverer.posted(CHANNEL, 100)
    deliverer.note_newest(CHANNEL, 100)  # the table is the newest: nothing to ask
    assert not await _scrolled(deliverer, 100) and chat.reads == 0
    chat.ids += [101, 102, 103]
    deliverer.note_newest(CHANNEL, 103)
    assert not await _scrolled(deliverer, 100) and chat.reads == 1  # three below: still recent
    deliverer.note_newest(CHANNEL, 103)
    deliverer.note_newest(CHANNEL, 102)  # an older click, answered late: nothing new
    assert not await _scrolled(deliverer, 100) and chat.reads == 1
    chat.ids.append(104)
    deliverer.note_newest(CHANNEL, 104)
    assert await _scrolled(deliverer, 100) and chat.reads == 2  # four below: gone up
    chat.ids.append(105)
    deliverer.note_newest(CHANNEL, 105)
    assert await _scrolled(deliverer, 100) and chat.reads == 2  # more chat changes nothing
    deliverer.posted(CHANNEL, 200)  # the table posted again: the newest message
    assert not await _scrolled(deliverer, 200) and chat.reads == 2


async def test_a_table_this_process_did_not_post_is_asked_of_discord_once() -> None:
    deliverer, chat = _deliverer()
    chat.ids += [101, 102]
    assert not await _scrolled(deliverer, 100) and chat.reads == 1
    deliverer.note_newest(CHANNEL, 102)  # the newest the answer named: known already
    assert not await _scrolled(deliverer, 100) and chat.reads == 1
    chat.ids += [103, 104]
    deliverer.note_newest(CHANNEL, 104)
    assert await _scrolled(deliverer, 100) and chat.reads == 2


async def test_a_step_no_click_of_the_channel_set_off_asks_discord_now_and_then(monkeypatch: pytest.MonkeyPatch) -> None:
    """A timer, or a choice made in a DM, names no newest message of the table's channel: what
    lies below a table still recent is asked, at most every few seconds."""
    clock = [1000.0]
    monkeypatch.setattr(deliver.time, "monotonic", lambda: clock[0])
    deliverer, chat = _deliverer()
    deliverer.posted(CHANNEL, 100)
    chat.ids += [101, 102, 103, 104]  # chat nobody's click told of
    assert await _scrolled(deliverer, 100, heard=False) and chat.reads == 1
    deliverer.posted(CHANNEL, 200)
    chat.ids += [201]
    assert not await _scrolled(deliverer, 200, heard=False) and chat.reads == 1  # asked moments ago
    clock[0] += deliver.UNHEARD_ASKED_EVERY
    assert not await _scrolled(deliverer, 200, heard=False) and chat.reads == 2
    chat.ids += [202, 203, 204]
    clock[0] += 3
    assert not await _scrolled(deliverer, 200, heard=False) and chat.reads == 2  # asked moments ago
    clock[0] += deliver.UNHEARD_ASKED_EVERY
    assert await _scrolled(deliverer, 200, heard=False) and chat.reads == 3


async def test_when_discord_fails_to_say_the_table_counts_as_recent_and_is_asked_about_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(deliver.time, "monotonic", lambda: clock[0])
    deliverer, chat = _deliverer()
    deliverer.posted(CHANNEL, 100)
    chat.ids += [101, 102, 103, 104]
    deliverer.note_newest(CHANNEL, 104)
    chat.failing = True
    assert not await _scrolled(deliverer, 100) and chat.reads == 1
    assert not await _scrolled(deliverer, 100) and chat.reads == 1  # not asked again at once
    chat.failing = False
    clock[0] += deliver.FAILED_WAIT
    # the click that named message 104 is not forgotten: the chat it told of is asked about
    assert await _scrolled(deliverer, 100) and chat.reads == 2


async def test_a_click_heard_of_while_discord_is_asked_is_asked_about_next() -> None:
    deliverer, chat = _deliverer()
    deliverer.posted(CHANNEL, 100)
    chat.ids += [101]
    deliverer.note_newest(CHANNEL, 101)

    def more_chat() -> None:
        chat.ids.extend([102, 103, 104])
        deliverer.note_newest(CHANNEL, 104)

    chat.meanwhile = more_chat
    assert not await _scrolled(deliverer, 100) and chat.reads == 1  # one below when asked
    assert await _scrolled(deliverer, 100) and chat.reads == 2  # the newer click's chat counted
