"""How fast /roll parses, rolls and draws: rolls per second for everyday expressions, with and
without the history written to the store, and the time of the largest rolls the limits allow
(1,000 dice; the worst refused ones are timed too, since a refusal must be as quick as an answer).
/roll-bones is timed the same way (throw, read, embed). Last, /rolls stats for a player with
10,000 rolls kept: the store's sums, the text, and the d20 picture (drawn once, then cached).

    .venv/bin/python bench/roll_speed.py
    .venv/bin/python bench/roll_speed.py --seconds 2 --database-url postgresql://bone@localhost/bench
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pictures import PictureCache  # noqa: E402
from bot.store import RollAsked, Store, open_store  # noqa: E402
from cogs.dice.luck import luck_text  # noqa: E402
from cogs.dice.pictures import PER_ROW, d20_chart, dice_of, dice_picture, row_length  # noqa: E402
from cogs.dice.post import ROLLS_KEPT, luck_faces, stored  # noqa: E402
from cogs.dice.roll_bones import MAX_TIDE, bones_embed, roll_bones  # noqa: E402
from cogs.dice.text import roll_text  # noqa: E402
from rules.notation import RollError, roll  # noqa: E402

TYPICAL = ["1d20+5", "1d20+5 adv", "4d6kh3", "8d6", "2d20kh1+7", "10d10e10", "1d20[attack]+5 sneak attack"]
LARGEST = [
    ("1000d6", {}),
    ("1000d10000kh500", {}),
    ("50d6", {"repeat": 20}),
    ("1000d10", {"target": 7, "fail": 1}),
    ("1000d6" + "kh999pl1" * 61, {}),
]
REFUSED = ["1d1e1", "400d6" + "rrh1" * 123, "-" * 499 + "1", "9" * 497 + "d6"]
#: rolls of the player whose /rolls stats are timed
STATS_ROLLS = 10_000
GUILD, PLAYER = 1, 2


def once(expression: str, rng: random.Random, **options: int) -> None:
    """Everything /roll does before sending and keeping: parse, roll, draw the reply."""
    try:
        roll_text(roll(expression, rng=rng, **options))
    except RollError:
        pass


def bones(rng: random.Random) -> None:
    """Everything /roll-bones does before sending: throw, read at a random Tide, draw the embed."""
    bones_embed(roll_bones(rng.randint(1, MAX_TIDE), rng=rng), "bench")


def rate(action: Callable[[], None], seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            action()
        count += 100
    return count / elapsed


def worst(expression: str, rng: random.Random, runs: int = 5, **options: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        once(expression, rng, **options)
        times.append(time.perf_counter() - start)
    return max(times)


async def kept(store: Store, pictures: PictureCache | None, expression: str, rng: random.Random, user: int) -> None:
    """/roll with its history: parse, roll, draw the reply and (with ``pictures``) the dice
    picture, cached as the bot caches it, and keep the roll in the store."""
    asked = RollAsked(expression=expression)
    series = roll(expression, rng=rng)
    text = roll_text(series)
    per_row = row_length(series)
    dice = dice_of(series) if per_row else []
    if dice and pictures is not None:
        await pictures.render(dice_picture(dice, per_row or PER_ROW))
    entry = stored(asked, series, guild_id=GUILD, channel_id=3, user_id=user, seen="public", text=text, dice=dice,
                   per_row=per_row or PER_ROW, label=None)
    await store.record_roll(entry, luck_faces(series), keep=ROLLS_KEPT)


async def kept_rate(store: Store, expression: str, rng: random.Random, seconds: float, *, drawn: bool) -> float:
    pictures = PictureCache() if drawn else None
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(20):
            await kept(store, pictures, expression, rng, user=100 + count % 7)
        count += 20
    return count / elapsed


async def stats_times(store: Store, rng: random.Random) -> None:
    print(f"/rolls stats for a player with {STATS_ROLLS:,} rolls kept:")
    pictures = PictureCache()
    start = time.perf_counter()
    for n in range(STATS_ROLLS):
        await kept(store, None, TYPICAL[n % len(TYPICAL)], rng, user=PLAYER)
    print(f"  {'filling the history':32} {time.perf_counter() - start:10.1f} s")

    async def stats() -> None:
        luck = await store.luck(GUILD, PLAYER, hidden=True)
        luck_text(luck, "Your", "in this server", hidden=True)
        await pictures.render(d20_chart(luck.faces[20]))

    first = time.perf_counter()
    await stats()
    cold = time.perf_counter() - first
    times = []
    for _ in range(20):
        begin = time.perf_counter()
        await stats()
        times.append(time.perf_counter() - begin)
    sums = []
    for _ in range(20):
        begin = time.perf_counter()
        await store.luck(GUILD, PLAYER, hidden=False)
        sums.append(time.perf_counter() - begin)
    print(f"  {'first (picture drawn)':32} {cold * 1000:10.1f} ms")
    print(f"  {'again (picture cached), median':32} {statistics.median(times) * 1000:10.1f} ms"
          f"   slowest {max(times) * 1000:.1f} ms")
    print(f"  {'the store sums alone, median':32} {statistics.median(sums) * 1000:10.1f} ms   (public rolls only)")


async def with_store(url: str | None, seconds: float) -> None:
    folder = tempfile.TemporaryDirectory(prefix="boneyard-bench-")
    target = url or f"sqlite:///{Path(folder.name) / 'bench.sqlite3'}"
    store = await open_store(target)
    try:
        rng = random.Random(2)
        print(f"with the history kept ({store.dialect}): parse + roll + reply + store write;"
              " then + the dice picture (drawn for each new set of dice, in a worker thread in the bot)")
        for expression in TYPICAL[:5]:
            bare = await kept_rate(store, expression, rng, seconds, drawn=False)
            drawn = await kept_rate(store, expression, rng, seconds, drawn=True)
            print(f"  {expression:32} {bare:10,.0f} rolls/s {drawn:10,.0f} rolls/s with the picture")
        await stats_times(store, rng)
    finally:
        await store.close()
        folder.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time spent on each typical expression")
    parser.add_argument("--database-url", help="a PostgreSQL database to time the history on (default: a "
                                               "fresh SQLite file); its rolls tables are written to")
    args = parser.parse_args()
    rng = random.Random(1)
    print("typical expressions (parse + roll + reply text):")
    for expression in TYPICAL:
        print(f"  {expression:32} {rate(partial(once, expression, rng), args.seconds):10,.0f} rolls/s")
    print("largest allowed rolls (slowest of 5):")
    for expression, options in LARGEST:
        label = expression if len(expression) <= 30 else expression[:27] + "..."
        extra = " ".join(f"{k}={v}" for k, v in options.items())
        print(f"  {label:32} {extra:18} {worst(expression, rng, **options) * 1000:8.1f} ms")
    print("refused at a limit (slowest of 5):")
    for expression in REFUSED:
        label = expression if len(expression) <= 30 else expression[:27] + "..."
        print(f"  {label:32} {'':18} {worst(expression, rng) * 1000:8.1f} ms")
    print("/roll-bones (throw + reading + embed):")
    print(f"  {'four Bones, Tide 1-6':32} {rate(partial(bones, rng), args.seconds):10,.0f} rolls/s")
    asyncio.run(with_store(args.database_url, args.seconds))


if __name__ == "__main__":
    main()
