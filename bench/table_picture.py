"""Time to draw one table picture, cold (drawn) and cached (the host's cache hit), per game, and
the pictures Details shows (Rattlebones: everyone's dice); then every table picture of whole
played games, in the order a table shows them.

Every game that has a picture is asked for one from a mid-game table, seeded, so runs compare.
A mid-game table is one picture per seed; the whole games are what a busy bot draws: a click
after a click, the same dice over and over (the host draws a picture once per distinct look, so
only the distinct ones are drawn here too):

    .venv/bin/python bench/table_picture.py
    .venv/bin/python bench/table_picture.py --whole-games 20 --only knucklebones --no-tables
    .venv/bin/python bench/table_picture.py --whole-games 20 --only roll --no-tables

Times are wall clock (median) and the drawing thread's CPU (mean): on a shared machine the CPU
figure is the steadier of the two.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from collections.abc import Callable, Hashable  # noqa: E402

from bot.models import Seat, Table  # noqa: E402
from bot.pictures import Picture, PictureCache  # noqa: E402
from cogs.dice.pictures import dice_of, dice_picture, row_length  # noqa: E402
from rules.base import Chooser  # noqa: E402
from rules.notation import roll  # noqa: E402
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


def whole_game_pictures(spec: Any, seats: int, seed: int) -> list[Picture]:
    """The table pictures of a game the bots play to its end, each distinct one once, in order:
    what the host draws for a table (a repeat is the host's cache hit, not a drawing)."""
    engine = spec.engine
    state = engine.new_game(seats, engine.Options(), seed)
    table = Table(guild_id=1, channel_id=1, game=engine.key, host_id=1, seed=seed, status="active",
                  seats=[Seat(user_id=i + 1, name=name) for i, name in enumerate(("Ann", "Bob", "Cy", "Dee")[:seats])])
    choose = Chooser(random.Random(seed))
    seen: dict[Hashable, Picture] = {}
    for _ in range(5000):
        picture = spec.picture(table, engine.view(state, None))
        if picture is not None:
            seen.setdefault((picture.filename, picture.key), picture)
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, choose))
    return list(seen.values())


#: what people /roll, most often first (the tools draw up to 12 dice)
ROLLS = ("1d20", "1d20", "1d20 adv", "1d20+1d4", "2d6", "1d8+1d6", "4d6kh3", "3d6", "8d6", "1d12", "1d4",
         "2d20kh1", "1d100", "1d10", "6d6", "1d20 dis", "3d4+2d8")


def roll_pictures(count: int) -> list[Picture]:
    """The /roll pictures of ``count`` seeded rolls, each distinct one once."""
    rng = random.Random(5)
    seen: dict[Hashable, Picture] = {}
    for _ in range(count):
        series = roll(rng.choice(ROLLS), rng=rng)
        per_row = row_length(series)
        if per_row is not None:
            picture = dice_picture(dice_of(series), per_row)
            seen.setdefault(picture.key, picture)
    return list(seen.values())


def drawn(title: str, pictures: list[Picture], source: str) -> str:
    wall: list[float] = []
    cpu: list[float] = []
    sizes: list[int] = []
    for picture in pictures:
        began, began_cpu = time.perf_counter(), time.thread_time()
        data = picture.draw()
        cpu.append(time.thread_time() - began_cpu)
        wall.append(time.perf_counter() - began)
        sizes.append(len(data))
    return (f"{title:24} draw p50 {statistics.median(wall) * 1000:6.2f} ms"
            f" · CPU mean {statistics.fmean(cpu) * 1000:6.2f} ms · PNG {statistics.median(sizes) / 1024:5.1f} kB"
            f" ({len(pictures)} pictures, {source})")


def whole_games(spec: Any, games: int) -> str:
    engine = spec.engine
    seats = max(engine.min_seats, min(3, engine.max_seats))
    pictures = [p for seed in range(games) for p in whole_game_pictures(spec, seats, seed)]
    if not pictures:
        return f"{engine.title + ' (games)':24} no picture"
    return drawn(f"{engine.title} (games)", pictures, f"{games} games of {seats}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--whole-games", type=int, default=10, help="played games per game (0: none)")
    parser.add_argument("--only", default="", help="one game's key, e.g. knucklebones, or roll")
    parser.add_argument("--no-tables", action="store_true", help="only the whole games")
    args = parser.parse_args()
    specs = [spec for spec in game_specs() if args.only in ("", spec.engine.key)]
    # the whole games first: they start from a fresh process, as a bot does
    for spec in specs if args.whole_games else ():
        print(whole_games(spec, args.whole_games))
    if args.whole_games and args.only in ("", "roll"):
        rolls = 50 * args.whole_games
        print(drawn("/roll", roll_pictures(rolls), f"{rolls} rolls"))
    for spec in () if args.no_tables else specs:
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
