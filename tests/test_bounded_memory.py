"""A long-lived bot's per-process maps stay bounded however many games it has seen."""

from __future__ import annotations

from typing import Any

from bot.deliver import CHANNELS_KEPT, COPIES_KEPT, Deliverer
from bot.recent import Recent


def test_a_recent_map_forgets_the_least_recently_written() -> None:
    seen: Recent[int, int] = Recent(3)
    for key in range(5):
        seen[key] = key
    seen[2] = 20  # written again: the most recent now
    seen[5] = 5
    assert list(seen) == [4, 2, 5]


def test_the_deliverers_maps_are_bounded() -> None:
    deliverer = Deliverer(client=None, store=None)  # type: ignore[arg-type]
    for channel in range(CHANNELS_KEPT + 500):
        deliverer._since_table[channel] = 0
        deliverer.note_message(channel, author_is_me=False)
    assert len(deliverer._since_table) == CHANNELS_KEPT
    copies: Any = deliverer._ephemeral
    for game in range(COPIES_KEPT + 10):
        copies[(game, 1)] = object()
    assert len(copies) == COPIES_KEPT
