"""Whether chat has scrolled a table away, learnt from the newest message each interaction names:
Discord is asked only when something new came below, and never once the table is gone up."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.deliver import Deliverer
from bot.models import Book, Table

CHANNEL = 9


class _Messages:
    """The channel's messages as Discord's REST API reads them, counting the reads."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.reads = 0

    async def logs_from(self, channel_id: int, limit: int, *, after: int) -> list[dict[str, Any]]:
        self.reads += 1
        return [{"id": str(i)} for i in sorted(i for i in self.ids if i > after)[:limit]]


def _deliverer() -> tuple[Deliverer, _Messages]:
    messages = _Messages()
    return Deliverer(client=SimpleNamespace(http=messages), store=None), messages  # type: ignore[arg-type]


async def _scrolled(deliverer: Deliverer, table_message: int) -> bool:
    table = Table(id=1, guild_id=1, channel_id=CHANNEL, game="knucklebones", host_id=1, seed=0)
    return (await deliverer.channel(table, Book(message_id=table_message))).scrolled


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
