"""Time to draw one table picture, cold (drawn) and cached (the host's cache hit), per game, and
the pictures Details shows (Rattlebones: everyone's dice).

Every game that has a picture is asked for one from a mid-game table, seeded, so runs compare:

    .venv/bin/python bench/table_picture.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from collections.abc import Callable  # noqa: E402

from bot.pictures import Picture, PictureCache  # noqa: E402
from tests.fixtures.tables import game_specs, mid_game  # noqa: E402


async def timed(pictures: list[Picture], again: list[Callable[[], Picture]]) -> tuple[list[float], list[float], list[int]]:
    """Each picture drawn into a fresh cache, then asked of the game again and found in the cache."""
    cold: list[float] = []
    warm: list[float] = []
    sizes: list[int] = []
    for picture, same in zip(pictures, again, strict=True):
        cache = PictureCache()
        began = time.perf_counter()
        data = await cache.render(picture)
        cold.append(time.perf_counter() - began)
        began = time.perf_counter()
        await cache.render(same())
        warm.append(time.perf_counter() - began)
        sizes.append(len(data))
    return cold, warm, sizes


def detail(spec: Any, table: Any, view: Any, index: int) -> Picture:
    return spec.details_pictures(table, view, None)[index]


def line(title: str, cold: list[float], warm: list[float], sizes: list[int]) -> str:
    return (f"{title:24} cold draw p50 {statistics.median(cold) * 1000:6.2f} ms, max {max(cold) * 1000:6.2f} ms"
            f" · cached {statistics.median(warm) * 1e6:6.1f} µs · PNG {statistics.median(sizes) / 1024:5.1f} kB"
            f" ({len(cold)} pictures)")


async def main() -> None:
    for spec in game_specs():
        engine = spec.engine
        seats = max(engine.min_seats, min(4, engine.max_seats))
        tables: list[Picture] = []
        tables_again: list[Callable[[], Picture]] = []
        details: list[Picture] = []
        details_again: list[Callable[[], Picture]] = []
        for seed in range(20):
            table, view = mid_game(spec, seats, seed)
            picture = spec.picture(table, view)
            if picture is not None:
                tables.append(picture)
                tables_again.append(partial(spec.picture, table, view))
            shown = spec.details_pictures(table, view, None)
            details += shown
            details_again += [partial(detail, spec, table, view, i) for i in range(len(shown))]
        if not tables:
            print(f"{engine.title:24} no picture")
        else:
            print(line(engine.title, *await timed(tables, tables_again)))
        if details:
            print(line(f"{engine.title} (Details)", *await timed(details, details_again)))


if __name__ == "__main__":
    asyncio.run(main())
