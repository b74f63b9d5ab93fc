"""The host's own work per click, game by game and part by part, without Discord.

``knucklebones_latency.py`` measures a whole bot against a bare one, but on a shared machine its
CPU per click moves by a tenth or more from run to run, more than most single changes to the
host save. This plays whole seeded games through the host's own path, in process and in order
(load the game and its book, starting from the moment the last step left as the runtime does,
read the click, step, save, present, build the messages' JSON, write the book), against a
SQLite store in a temporary folder, and prints what each part costs per click. Nothing of
discord.py's transport, aiohttp or the gateway is in these figures: they are the part of a
click that is Boneyard's own code.

Each seat plays the game's own AI move, seeded, so a run plays the same games every time.

``--pause MS`` sleeps that long between clicks, as the bot does between players' clicks at
normal load: a click then costs what it costs a bot that was idle, which is far more than in a
warm loop (caches gone cold, the core asleep). Run it on one core (``taskset -c 1``) to compare
with ``knucklebones_latency.py --think 1000 --pin``.

    .venv/bin/python bench/click_cost.py
    .venv/bin/python bench/click_cost.py --games 100 --only knucklebones
    taskset -c 1 .venv/bin/python bench/click_cost.py --games 40 --only knucklebones --pause 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import present, step  # noqa: E402
from bot.models import Book, Seat, Table  # noqa: E402
from bot.present import Channel, Origin, Plan  # noqa: E402
from bot.step import Moment  # noqa: E402
from bot.store import open_store  # noqa: E402
from rules.base import Chooser  # noqa: E402
from tests.fixtures.tables import game_specs  # noqa: E402

PARTS = ("load", "read", "step", "save", "present", "json", "book")
#: a game that has not ended after this many clicks is left (none does with its AI)
MOST_CLICKS = 3000


def shown_in(plan: Plan) -> list[Any]:
    """Every message the plan sends or edits, as the deliverer hands them to discord.py."""
    ops: list[Any] = [plan.answer, *plan.channel]
    out = [getattr(op, "shown", None) for op in ops if op is not None]
    for dm in plan.dms:
        out += [dm.shown, dm.superseded]
    return [s for s in out if s is not None]


async def play(spec: Any, games: int, seats: int, pause: float = 0.0) -> tuple[int, Counter[str]]:
    """``games`` whole games; the clicks made, and the seconds each part took in all. ``pause``:
    seconds slept between clicks (the event loop idle, as between players' clicks)."""
    engine = spec.engine
    spent: Counter[str] = Counter()
    clicks = 0
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(Path(folder) / "bench.sqlite3")
        for number in range(games):
            table = await store.create(Table(
                guild_id=1, channel_id=100 + number, game=engine.key, host_id=1, seed=number,
                options=engine.Options().model_dump(),
                seats=[Seat(user_id=i + 1, name=name) for i, name in enumerate(("Ann", "Bob", "Cy", "Dee")[:seats])]))
            game_id = table.id or 0
            now = Moment(spec, table)
            result = step.start(now, 0.0)
            await store.save(result.table, now.table.version)
            await store.put_book(game_id, Book())
            choose = Chooser(random.Random(number))
            kept: tuple[str, Moment] | None = None
            for _ in range(MOST_CLICKS):
                if result.table.status != "active":
                    break
                t0 = time.perf_counter()
                text = await store.table_json(game_id)
                book = await store.book(game_id)
                assert text is not None
                if kept is not None and kept[0] == text:  # as the runtime does: the last step's moment
                    now = kept[1]
                else:
                    stored = Table.model_validate_json(text)
                    shown = book.chapter if book.shown == stored.version and book.chapter else None
                    now = Moment(spec, stored, chapter=shown)
                t1 = time.perf_counter()
                seat = now.humans[0]
                action = engine.ai_action(now.state, seat, choose)  # the player's choice: not the host's work
                chosen = time.perf_counter()
                index = now.legal(seat).index(action)
                now.stamp(seat)
                t2 = time.perf_counter()
                result = step.play(now, seat, now.legal(seat)[index], 0.0)
                t3 = time.perf_counter()
                written = await store.save(result.table, now.table.version, log=result.entries,
                                           interaction_id=10**9 * (number + 1) + clicks,
                                           deadline=result.table.deadline, results=result.results)
                kept = (written, result.after)
                t4 = time.perf_counter()
                private = engine.has_private_view()
                plan = present.present(result, Channel(book), Origin(message_id=book.message_id, private=private,
                                                                     seat=seat))
                t5 = time.perf_counter()
                for message in shown_in(plan):
                    json.dumps(message.layout.to_components())
                t6 = time.perf_counter()
                book = book.model_copy(update={"shown": result.table.version, "message_id": 7, "chapter": plan.chapter,
                                               "turn_events": plan.turn_events, "look": plan.look})
                await store.put_book(game_id, book)
                t7 = time.perf_counter()
                for part, began, ended in zip(PARTS, (t0, chosen, t2, t3, t4, t5, t6), (t1, t2, t3, t4, t5, t6, t7),
                                              strict=True):
                    spent[part] += ended - began
                clicks += 1
                if pause:
                    time.sleep(pause)  # not asyncio.sleep: nothing may run meanwhile and keep the caches warm
        await store.close()
    return clicks, spent


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="whole games of each game, three seats each")
    parser.add_argument("--only", default=None, help="one game's key (knucklebones, bare_bones...)")
    parser.add_argument("--pause", type=float, default=0.0,
                        help="ms slept between clicks: a click as a bot idle between players' clicks pays for it")
    args = parser.parse_args()
    specs = [s for s in game_specs() if args.only in (None, s.engine.key)]
    print(f"{'game':<17}{'clicks':>7}  {'host':>7} =" + "".join(f"{p:>8}" for p in PARTS) + "   (ms per click)")
    for spec in specs:
        fewest, most = spec.engine.seat_range(spec.engine.Options())
        clicks, spent = await play(spec, args.games, max(fewest, min(3, most)), args.pause / 1000)
        print(f"{spec.engine.key:<17}{clicks:>7}  {sum(spent.values()) * 1000 / clicks:>7.3f}  "
              + "".join(f"{spent[p] * 1000 / clicks:>8.3f}" for p in PARTS))


if __name__ == "__main__":
    asyncio.run(main())
