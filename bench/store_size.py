"""How the store behaves as it grows: start-up, /game stats and a click, at N finished games.

For each size, a fresh store is filled with N finished games (bulk inserts: 90 % in one busy
server of 500 players, the rest spread over nine more; two seats and MOVES moves each), plus LIVE
games in play with their turn timers. Then it times:

- start-up: ``open_store`` (migrations checked, old click ids cleaned up), and the deadline loop's
  ``next_deadline``;
- /game stats: the store calls behind it, ``leaderboard`` of the busy server and one player's
  ``stats``; and, for comparison, the GROUP BY over every result that the leaderboard used to be;
- a click's store work (``get`` + ``save`` of a live game, with its move and click id), alone and
  beside a running /game stats (leaderboard and stats started just before it);
- a retention round once every game is past KEEP_FINISHED_DAYS (``prune``), last, as it deletes,
  with clicks going on meanwhile.

    .venv/bin/python bench/store_size.py
    .venv/bin/python bench/store_size.py --games 0 10000 --database-url postgresql://bone@localhost/bench

PostgreSQL: the database named is emptied first (every table dropped), so give it one of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.models import LogEntry, Seat, Table  # noqa: E402
from bot.store import Store, open_store  # noqa: E402

#: moves kept per finished game
MOVES = 10
#: games in play, each with a turn timer
LIVE = 200
BUSY_GUILD, PLAYERS = 1, 500
GAMES = ("knucklebones", "bone_duel", "rattlebones", "roll_the_bones", "stones_and_bones")
#: repetitions of each timed call
REPS = 200
DAY = 86400.0
#: the leaderboard before the per-server totals, timed for comparison
GROUP_BY = ("SELECT game, user_id, COUNT(*) AS played, SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END) AS won FROM results"
            " WHERE guild_id={g} AND user_id IS NOT NULL GROUP BY game, user_id ORDER BY game, won DESC, played, user_id")


#: games whose rows are made and written at a time, so that building 100,000 takes little memory
CHUNK = 5000


def chunks(n: int) -> list[range]:
    """The game ids of ``n`` finished games and LIVE games in play (the ids past n), a chunk each."""
    return [range(start, min(start + CHUNK, n + LIVE + 1)) for start in range(1, n + LIVE + 1, CHUNK)]


def rows_of(ids: range, n: int, now: float) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the games ``ids`` (finished up to ``n``, in play past it), as the bot would have
    written them."""
    rng = random.Random(ids.start)
    state = {"board": [[rng.randint(1, 6) for _ in range(9)] for _ in range(2)], "scores": [41, 37], "turn": 20}
    out: dict[str, list[tuple[Any, ...]]] = {k: [] for k in ("games", "actions", "results", "books", "deadlines")}
    for game_id in ids:
        live = game_id > n
        guild = BUSY_GUILD if live or rng.random() < 0.9 else rng.randint(2, 10)
        players = rng.sample(range(1000, 1000 + PLAYERS), 2) if guild == BUSY_GUILD else [rng.randint(10**6, 10**7), 5]
        game = rng.choice(GAMES)
        at = now - rng.uniform(0, 365) * DAY
        table = Table(id=game_id, guild_id=guild, channel_id=10_000 + game_id, game=game, host_id=players[0],
                      seats=[Seat(user_id=p, name=f"player{p}") for p in players], seed=game_id, state=state,
                      status="active" if live else "finished", version=MOVES, created_at=at, updated_at=at)
        out["games"].append((game_id, guild, table.channel_id, game, table.status, MOVES, table.model_dump_json(), at, at))
        out["books"].append((game_id, json.dumps({"message_id": 10**17 + game_id, "shown": MOVES})))
        for v in range(1, MOVES + 1):
            out["actions"].append((game_id, v, v % 2, players[v % 2], json.dumps({"keep": v % 3}),
                                   json.dumps([f"{{seat{v % 2 + 1}}} rolled {v % 6 + 1}"]), f"Turn {v}", at))
        if live:
            out["deadlines"].append((game_id, MOVES, now + rng.uniform(10, 600), None))
            continue
        winner = rng.randrange(2)
        for seat, user in enumerate(players):
            out["results"].append((game_id, guild, game, seat, user, 1 if seat == winner else 2, rng.randint(0, 80), at))
    return out


COLUMNS = {
    "games": "id, guild_id, channel_id, game, status, version, table_json, created_at, updated_at",
    "actions": "game_id, version, seat, user_id, action, events, chapter, at",
    "results": "game_id, guild_id, game, seat, user_id, rank, score, finished_at",
    "books": "game_id, book_json",
    "deadlines": "game_id, version, due_at, claimed_until",
}
TOTALS = ("INSERT INTO player_stats (user_id, guild_id, game, played, won) SELECT user_id, guild_id, game, COUNT(*),"
          " SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END) FROM results WHERE user_id IS NOT NULL"
          " GROUP BY user_id, guild_id, game")


async def build_sqlite(path: Path, n: int, now: float) -> None:
    await (await open_store(path)).close()  # the schema
    with sqlite3.connect(path) as db:
        for ids in chunks(n):
            rows = rows_of(ids, n, now)
            for table, cols in COLUMNS.items():
                marks = ",".join("?" * len(cols.split(",")))
                db.executemany(f"INSERT INTO {table} ({cols}) VALUES ({marks})", rows[table])
        db.execute(TOTALS)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file's size is then all of it


async def build_postgres(url: str, n: int, now: float) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    finally:
        await conn.close()
    await (await open_store(url)).close()
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            for ids in chunks(n):
                rows = rows_of(ids, n, now)
                for table, cols in COLUMNS.items():
                    await conn.copy_records_to_table(table, records=rows[table],
                                                     columns=[c.strip() for c in cols.split(",")])
            await conn.execute(TOTALS)
            await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT MAX(id) FROM games))")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:7.2f} ms (p95 {p95 * 1000:7.2f})"


async def timed(call: Callable[[], Awaitable[Any]], reps: int = REPS) -> list[float]:
    out = []
    for _ in range(reps):
        began = time.perf_counter()
        await call()
        out.append(time.perf_counter() - began)
    return out


class Clicker:
    """A click's store work on a live game: load it, write the next version with its move."""

    def __init__(self, store: Store, game_id: int) -> None:
        self.store, self.game_id, self.interaction = store, game_id, 10**15

    async def __call__(self) -> None:
        table = await self.store.get(self.game_id)
        assert table is not None
        before = table.version
        table.version += 1
        self.interaction += 1
        entry = LogEntry(version=table.version, seat=0, user_id=table.seats[0].user_id, action={"keep": 1},
                         events=["{seat1} kept a 4"], chapter="Turn 11")
        await self.store.save(table, before, log=[entry], interaction_id=self.interaction,
                              deadline=time.time() + 300)


async def group_by(target: str, guild: int) -> Callable[[], Awaitable[Any]]:
    """The old leaderboard query, on a connection of its own."""
    if target.startswith("postgres"):
        conn = await asyncpg.connect(target)

        async def run_pg() -> Any:
            return await conn.fetch(GROUP_BY.format(g=guild))
        run_pg.conn = conn  # type: ignore[attr-defined]
        return run_pg
    db = sqlite3.connect(target.removeprefix("sqlite:///"))

    async def run_sqlite() -> Any:
        return db.execute(GROUP_BY.format(g=guild)).fetchall()
    run_sqlite.conn = db  # type: ignore[attr-defined]
    return run_sqlite


async def measure(target: str, n: int, now: float) -> dict[str, str]:
    figures: dict[str, str] = {}
    opens = []
    for _ in range(5):
        began = time.perf_counter()
        store = await open_store(target)
        opens.append(time.perf_counter() - began)
        await store.close()
    figures["start-up (open_store)"] = ms(opens)
    store = await open_store(target)
    try:
        figures["next_deadline"] = ms(await timed(store.next_deadline))
        player = 1000 + 7

        async def game_stats() -> None:
            await store.leaderboard(BUSY_GUILD)
            await store.stats(BUSY_GUILD, player)

        figures["/game stats: leaderboard"] = ms(await timed(lambda: store.leaderboard(BUSY_GUILD)))
        figures["/game stats: one player"] = ms(await timed(lambda: store.stats(BUSY_GUILD, player)))
        old = await group_by(target, BUSY_GUILD)
        try:
            figures["(old GROUP BY over results)"] = ms(await timed(old, reps=max(5, REPS // 10)))
        finally:
            closing = old.conn.close()  # type: ignore[attr-defined]
            if asyncio.iscoroutine(closing):
                await closing
        click = Clicker(store, n + 1)
        await click()  # the live game's first load
        figures["click (get + save)"] = ms(await timed(click))

        beside_times = []
        for _ in range(REPS):
            stats = asyncio.ensure_future(game_stats())
            await asyncio.sleep(0)  # /game stats is on its way
            began = time.perf_counter()
            await click()
            beside_times.append(time.perf_counter() - began)
            await stats
        figures["click beside /game stats"] = ms(beside_times)
        began = time.perf_counter()
        pruning = asyncio.ensure_future(store.prune(now + 400 * DAY, keep_days=90))
        await asyncio.sleep(0)
        beside_times = []
        while not pruning.done() or not beside_times:
            clicked = time.perf_counter()
            await click()
            beside_times.append(time.perf_counter() - clicked)
        pruned = await pruning
        figures["prune (every game ended)"] = f"{(time.perf_counter() - began) * 1000:7.1f} ms, {pruned:,} moves"
        figures["click beside the pruning"] = ms(beside_times)
    finally:
        await store.close()
    return figures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[0, 10_000, 100_000])
    parser.add_argument("--database-url", default=None, help="a PostgreSQL database to use (emptied first)")
    args = parser.parse_args()
    now = time.time()
    results: dict[int, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for n in args.games:
            began = time.perf_counter()
            if args.database_url:
                target = args.database_url
                await build_postgres(target, n, now)
            else:
                path = Path(folder) / f"store-{n}.sqlite3"
                target = f"sqlite:///{path}"
                await build_sqlite(path, n, now)
            size = "" if args.database_url else f", {path.stat().st_size / 2**20:.0f} MB"
            print(f"{n:,} finished games built in {time.perf_counter() - began:.1f} s{size}", flush=True)
            results[n] = await measure(target, n, now)
            if not args.database_url:
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{path}{suffix}").unlink(missing_ok=True)
    backend = "PostgreSQL" if args.database_url else "SQLite"
    print(f"\n{backend}, median (p95) of {REPS} calls each")
    names = list(next(iter(results.values())))
    print(f"{'':<30}" + "".join(f"{f'{n:,} games':>34}" for n in results))
    for name in names:
        print(f"{name:<30}" + "".join(f"{results[n][name]:>34}" for n in results))


if __name__ == "__main__":
    asyncio.run(main())
