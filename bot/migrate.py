"""boneyard migrate-db: copy a SQLite store into an empty PostgreSQL database.

Every game, move, deadline, result and applied click, the stats, the servers' settings, the saved
rolls and the rolls made are copied, so a server that outgrows one process keeps its tables, its
stats and its dice.

    boneyard migrate-db --from sqlite:///boneyard.sqlite3 --to postgresql://bone@db/boneyard

Stop the bot first (it is refused while one runs on the file): a click stored in the file after the
copy would not reach PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.base import StoreInUse, Target, parse_target
from bot.store.postgres import PostgresStore
from bot.store.sqlite import SqliteStore

#: every table and column the store keeps, parents first (foreign keys point at games)
COLUMNS: dict[str, list[str]] = {
    "games": ["id", "guild_id", "channel_id", "game", "status", "version", "table_json", "created_at", "updated_at"],
    "actions": ["game_id", "version", "seat", "user_id", "action", "events", "chapter", "at"],
    "interactions": ["id", "game_id", "at"],
    "deadlines": ["game_id", "version", "due_at", "claimed_until"],
    "results": ["game_id", "guild_id", "game", "seat", "user_id", "rank", "score", "finished_at"],
    "books": ["game_id", "book_json"],
    "player_stats": ["user_id", "guild_id", "game", "played", "won"],
    "server_settings": ["guild_id", "settings_json"],
    "saved_rolls": ["guild_id", "user_id", "name", "roll_json", "updated_at"],
    "rolls": ["id", "guild_id", "user_id", "n", "hidden", "revealed", "at", "roll_json"],
    "roll_faces": ["roll_id", "guild_id", "user_id", "hidden", "sides", "face", "count"],
    "guilds_left": ["guild_id", "left_at"],
    "command_guilds": ["guild_id"],
}
#: REAL in SQLite, DOUBLE PRECISION in PostgreSQL: SQLite may hand back an int or numeric text
TIMES = {"created_at", "updated_at", "at", "due_at", "finished_at", "left_at"}
#: 0 or 1 in SQLite, BOOLEAN in PostgreSQL
FLAGS = {"hidden", "revealed"}
#: tables whose ids PostgreSQL numbers itself: new rows continue after the copied ids
NUMBERED = ("games", "rolls")


class MigrationError(Exception):
    """The copy cannot be made; nothing was written."""


@dataclass
class Copied:
    rows: dict[str, int] = field(default_factory=dict)
    live: int = 0

    def summary(self) -> str:
        r = self.rows
        return (f"{r['games']} games ({self.live} in a lobby or in play), {r['actions']} moves, "
                f"{r['deadlines']} turn timers, {r['results']} results, {r['interactions']} recent clicks, "
                f"{r['saved_rolls']} saved rolls, {r['rolls']} rolls, {r['server_settings']} servers' settings")


def _row(table: str, raw: sqlite3.Row) -> tuple[Any, ...]:
    out = []
    for name in COLUMNS[table]:
        value = raw[name]
        if name == "claimed_until":
            value = None  # a claim belongs to a process of the old bot, which is stopped
        elif name in TIMES and value is not None:
            value = float(value)
        elif name in FLAGS:
            value = bool(value)
        out.append(value)
    return tuple(out)


async def copy_store(source: Target, target: Target) -> Copied:
    if source.dialect != "sqlite" or target.dialect != "postgres":
        raise MigrationError("the copy goes from a SQLite file (sqlite:///…) to PostgreSQL (postgresql://…)")
    if not Path(source.location).is_file():
        raise MigrationError(f"no SQLite file at {source.location}")
    # Opening migrates each side to the newest schema, so both hold the same columns; the file
    # stays open while it is read, so no bot starts on it meanwhile (nor runs on it now: refused).
    try:
        held = await SqliteStore.open(source.location, sole=True)
    except StoreInUse as exc:
        raise MigrationError(f"{exc}: stop it first (a click it stores after the copy would not reach "
                             "PostgreSQL), then copy") from None
    try:
        await (await PostgresStore.open(target.location)).close()
        with sqlite3.connect(f"file:{source.location}?mode=ro", uri=True) as db:
            db.row_factory = sqlite3.Row
            data = {table: [_row(table, r) for r in db.execute(f"SELECT {', '.join(cols)} FROM {table}")]
                    for table, cols in COLUMNS.items()}
            live = db.execute("SELECT COUNT(*) FROM games WHERE status IN ('lobby','active')").fetchone()[0]
    finally:
        await held.close()

    conn = await asyncpg.connect(target.location)
    try:
        for table in COLUMNS:
            already = await conn.fetchval(f"SELECT COUNT(*) FROM {table}")
            if already:
                raise MigrationError(f"{target.shown} already holds {already} {table.replace('_', ' ')};"
                                     " copy into an empty database")
        async with conn.transaction():
            for table, rows in data.items():
                if rows:
                    await conn.copy_records_to_table(table, records=rows, columns=COLUMNS[table])
            for table in NUMBERED:
                await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                                   f" GREATEST((SELECT MAX(id) FROM {table}), 1), (SELECT COUNT(*) > 0 FROM {table}))")
        counts = {table: await conn.fetchval(f"SELECT COUNT(*) FROM {table}") for table in COLUMNS}
    finally:
        await conn.close()
    expected = {table: len(rows) for table, rows in data.items()}
    if counts != expected:
        raise MigrationError(f"the copy does not match: {counts} copied, {expected} in the file")
    return Copied(rows=counts, live=live)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="boneyard migrate-db", description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", required=True, help="sqlite:///path/to/boneyard.sqlite3")
    parser.add_argument("--to", dest="target", required=True, help="postgresql://user@host/database")
    args = parser.parse_args(argv)
    try:
        source, target = parse_target(args.source), parse_target(args.target)
        copied = asyncio.run(copy_store(source, target))
    except (ValueError, MigrationError) as exc:
        print(f"boneyard migrate-db: {exc}", file=sys.stderr)
        return 1
    except (OSError, asyncpg.PostgresError) as exc:
        print(f"boneyard migrate-db: cannot reach the database: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"Copied {copied.summary()} from {source.shown} to {target.shown}.")
    print("Set DATABASE_URL to the PostgreSQL URL and start the bot (or boneyard-cluster).")
    return 0
