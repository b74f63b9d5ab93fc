"""Time to draw one table picture, cold (drawn) and cached (the host's cache hit), per game.

Every game that has a picture is asked for one from a mid-game table, seeded, so runs compare:

    .venv/bin/python bench/table_picture.py
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pictures import PictureCache  # noqa: E402
from tests.fixtures.tables import game_specs, mid_game  # noqa: E402


async def main() -> None:
    for spec in game_specs():
        engine = spec.engine
        seats = max(engine.min_seats, min(4, engine.max_seats))
        cold: list[float] = []
        warm: list[float] = []
        sizes: list[int] = []
        for seed in range(20):
            table, view = mid_game(spec, seats, seed)
            picture = spec.picture(table, view)
            if picture is None:
                continue
            cache = PictureCache()
            began = time.perf_counter()
            data = await cache.render(picture)
            cold.append(time.perf_counter() - began)
            began = time.perf_counter()
            await cache.render(spec.picture(table, view))
            warm.append(time.perf_counter() - began)
            sizes.append(len(data))
        if not cold:
            print(f"{engine.title:16} no picture")
            continue
        print(f"{engine.title:16} cold draw p50 {statistics.median(cold) * 1000:6.2f} ms, max {max(cold) * 1000:6.2f} ms"
              f" · cached {statistics.median(warm) * 1e6:6.1f} µs · PNG {statistics.median(sizes) / 1024:5.1f} kB"
              f" ({len(cold)} tables)")


if __name__ == "__main__":
    asyncio.run(main())
