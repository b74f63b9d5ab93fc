"""A long-lived bot's per-process maps stay bounded however many games it has seen."""

from __future__ import annotations

from typing import Any

from bot.deliver import CHANNELS_KEPT, COPIES_KEPT, Deliverer
from bot.recent import Recent
from bot.runtime import MOMENTS_KEPT, TableRuntime


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
        deliverer.posted(channel, 10)
        deliverer.note_newest(channel, 11)
    assert len(deliverer._below) == CHANNELS_KEPT
    copies: Any = deliverer._ephemeral
    for game in range(COPIES_KEPT + 10):
        copies[(game, 1)] = object()
    assert len(copies) == COPIES_KEPT


def test_the_runtimes_kept_moments_are_bounded() -> None:
    runtime = TableRuntime(None, None, None)  # type: ignore[arg-type]
    moment: Any = object()
    for game in range(1, MOMENTS_KEPT + 50):
        runtime._kept[game] = ("{}", moment)
    assert len(runtime._kept) == MOMENTS_KEPT and MOMENTS_KEPT + 48 in runtime._kept and 1 not in runtime._kept
