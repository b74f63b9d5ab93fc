"""The game store: one SQLite file, every write one transaction guarded by a version check.

Besides a copy of the live games it wrote, the process keeps nothing between clicks; everything
a restart must survive is here: the table, the action log, the interaction ids already applied, the deadlines and the
results behind /game stats.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from bot.models import LogEntry, Table

#: live games whose JSON stays in memory; older ones are read from the file again when clicked
LIVE_CACHE = 2000
#: seconds an applied interaction id is remembered (Discord retries within 15 minutes)
INTERACTIONS_KEPT = 24 * 3600.0


class StoreError(Exception):
    pass


class VersionConflict(StoreError):
    """Someone else wrote the game since it was loaded; the caller's view of it is stale."""


class DuplicateInteraction(StoreError):
    """This Discord interaction was applied already (a retried or doubled click)."""


class ChannelBusy(StoreError):
    """The channel already has a game in its lobby or in play."""


def _migrations() -> list[tuple[int, str]]:
    found = []
    for entry in resources.files("bot.migrations").iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text("utf-8")))
    return sorted(found)


class Store:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        # One connection, so one transaction at a time: statements of two writes must not interleave.
        self._lock = asyncio.Lock()
        # This process is the only writer, so the JSON of the live games it wrote or read lately
        # is kept: a click then costs no read of the database, only the write. Bounded, because
        # abandoned lobbies and untimed games stay live for ever.
        self._live: OrderedDict[int, str] = OrderedDict()

    @classmethod
    async def open(cls, path: Path | str) -> "Store":
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        await conn.execute("PRAGMA busy_timeout=5000")
        store = cls(conn)
        await store._migrate()
        # An interaction can only come back within its 15-minute token life: older ids have done
        # their job of applying a click once, and would only grow the file.
        async with store._lock:
            await conn.execute("DELETE FROM interactions WHERE at<?", (time.time() - INTERACTIONS_KEPT,))
        return store

    async def close(self) -> None:
        await self._conn.close()

    async def _migrate(self) -> None:
        async with self._lock:
            row = await (await self._conn.execute("PRAGMA user_version")).fetchone()
            current = row[0]
            for number, sql in _migrations():
                if number <= current:
                    continue
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    for statement in sql.split(";"):
                        if statement.strip():
                            await self._conn.execute(statement)
                    await self._conn.execute(f"PRAGMA user_version={number}")
                    await self._conn.execute("COMMIT")
                except BaseException:
                    await self._conn.execute("ROLLBACK")
                    raise

    async def schema_version(self) -> int:
        row = await (await self._conn.execute("PRAGMA user_version")).fetchone()
        return int(row[0])

    # -- reading -----------------------------------------------------------------------------

    async def get(self, game_id: int) -> Table | None:
        """A fresh copy of the game: callers change it freely and only save() makes it count."""
        cached = self._live.get(game_id)
        if cached is not None:
            self._live.move_to_end(game_id)
            return Table.model_validate_json(cached)
        async with self._lock:
            cur = await self._conn.execute("SELECT table_json FROM games WHERE id=?", (game_id,))
            row = await cur.fetchone()
        if not row:
            return None
        table = Table.model_validate_json(row[0])
        if table.live:
            self._remember(game_id, row[0])
        return table

    def _remember(self, game_id: int, text: str) -> None:
        self._live[game_id] = text
        self._live.move_to_end(game_id)
        while len(self._live) > LIVE_CACHE:
            self._live.popitem(last=False)

    async def live_in_channel(self, channel_id: int) -> Table | None:
        async with self._lock:
            cur = await self._conn.execute(
                "SELECT table_json FROM games WHERE channel_id=? AND status IN ('lobby','active')",
                (channel_id,),
            )
            row = await cur.fetchone()
        return Table.model_validate_json(row[0]) if row else None

    async def latest_in_channel(self, channel_id: int) -> Table | None:
        """The live game of a channel, else the one it played last."""
        async with self._lock:
            cur = await self._conn.execute(
                "SELECT table_json FROM games WHERE channel_id=? "
                "ORDER BY status IN ('lobby','active') DESC, id DESC LIMIT 1",
                (channel_id,),
            )
            row = await cur.fetchone()
        return Table.model_validate_json(row[0]) if row else None

    async def recent_log(self, game_id: int, limit: int = 15) -> list[LogEntry]:
        async with self._lock:
            cur = await self._conn.execute(
                "SELECT version, seat, user_id, action, events FROM actions"
                " WHERE game_id=? ORDER BY version DESC LIMIT ?",
                (game_id, limit),
            )
            rows = await cur.fetchall()
        return [
            LogEntry(
                version=r[0], seat=r[1], user_id=r[2],
                action=json.loads(r[3]), events=json.loads(r[4]),
            )
            for r in reversed(rows)
        ]

    async def full_log(self, game_id: int) -> list[LogEntry]:
        return await self.recent_log(game_id, limit=-1)

    async def interaction_seen(self, interaction_id: int) -> bool:
        async with self._lock:
            cur = await self._conn.execute("SELECT 1 FROM interactions WHERE id=?", (interaction_id,))
            return await cur.fetchone() is not None

    async def next_deadline(self) -> tuple[int, int, float] | None:
        async with self._lock:
            cur = await self._conn.execute(
                "SELECT game_id, version, due_at FROM deadlines ORDER BY due_at LIMIT 1"
            )
            row = await cur.fetchone()
        return (row[0], row[1], row[2]) if row else None

    async def postpone_overdue(self, now: float, until: float) -> int:
        """Move every deadline that passed (before ``now``) while the bot was down to ``until``:
        nobody could act then, so nobody should lose a turn for it. One statement, whatever the
        number of games."""
        async with self._lock:
            cur = await self._conn.execute("UPDATE deadlines SET due_at=? WHERE due_at<?", (until, now))
            return cur.rowcount

    async def due_deadlines(self, now: float) -> list[tuple[int, int]]:
        async with self._lock:
            cur = await self._conn.execute(
                "SELECT game_id, version FROM deadlines WHERE due_at<=? ORDER BY due_at", (now,)
            )
            rows = await cur.fetchall()
        return [(r[0], r[1]) for r in rows]

    async def stats(self, guild_id: int, user_id: int) -> list[tuple[str, int, int]]:
        """(game, played, won) for one player in one guild."""
        async with self._lock:
            cur = await self._conn.execute(
                "SELECT game, COUNT(*), SUM(rank = 1) FROM results"
                " WHERE guild_id=? AND user_id=? GROUP BY game ORDER BY game",
                (guild_id, user_id),
            )
            rows = await cur.fetchall()
        return [(r[0], r[1], r[2] or 0) for r in rows]

    # -- writing -----------------------------------------------------------------------------

    async def create(self, table: Table) -> Table:
        now = time.time()
        table = table.model_copy(update={"created_at": now, "updated_at": now, "version": 0})
        async with self._lock:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                cur = await self._conn.execute(
                    "INSERT INTO games (guild_id, channel_id, game, status, version, table_json,"
                    " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)",
                    (table.guild_id, table.channel_id, table.game, table.status, 0, "{}", now, now),
                )
                table.id = cur.lastrowid
                text = table.model_dump_json()
                await self._conn.execute("UPDATE games SET table_json=? WHERE id=?", (text, table.id))
                await self._conn.execute("COMMIT")
                self._remember(table.id, text)
            except sqlite3.IntegrityError as exc:
                await self._conn.execute("ROLLBACK")
                raise ChannelBusy(str(exc)) from exc
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
        return table

    async def save(
        self,
        table: Table,
        expected_version: int,
        *,
        log: Iterable[LogEntry] = (),
        interaction_id: int | None = None,
        deadline: float | None | Literal["keep"] = "keep",
        results: list[dict[str, Any]] | None = None,
    ) -> None:
        """Write ``table`` if the stored version is still ``expected_version``, all or nothing.

        The deadline row is replaced (or removed when ``deadline`` is None) unless it is "keep",
        so a stale timer can never fire on a newer state.
        """
        now = time.time()
        table.updated_at = now
        text = table.model_dump_json()
        conn = self._conn
        one, many = conn.execute, conn.executemany
        steps: list[tuple[Callable[..., Any], str, Any]] = []
        if interaction_id is not None:
            steps.append((one, "INSERT INTO interactions (id, game_id, at) VALUES (?,?,?)",
                          (interaction_id, table.id, now)))
        update = len(steps)
        steps.append((one, "UPDATE games SET status=?, version=?, table_json=?, updated_at=?"
                           " WHERE id=? AND version=?",
                      (table.status, table.version, text, now, table.id, expected_version)))
        steps.append((many, "INSERT INTO actions (game_id, version, seat, user_id, action, events, at)"
                            " VALUES (?,?,?,?,?,?,?)",
                      [(table.id, e.version, e.seat, e.user_id, json.dumps(e.action),
                        json.dumps(e.events), now) for e in log]))
        if isinstance(deadline, float) and table.live:
            steps.append((one, "INSERT OR REPLACE INTO deadlines (game_id, version, due_at) VALUES (?,?,?)",
                          (table.id, table.version, deadline)))
        elif deadline != "keep" or not table.live:
            steps.append((one, "DELETE FROM deadlines WHERE game_id=?", (table.id,)))
        if results:
            steps.append((many, "INSERT OR REPLACE INTO results (game_id, guild_id, game, seat, user_id,"
                                " rank, score, finished_at) VALUES (?,?,?,?,?,?,?,?)",
                          [(table.id, table.guild_id, table.game, r["seat"], r["user_id"], r["rank"],
                            r["score"], now) for r in results]))
        async with self._lock:
            await conn.execute("BEGIN IMMEDIATE")
            try:
                for index, (run, sql, args) in enumerate(steps):
                    try:
                        cursor = await run(sql, args)
                    except sqlite3.IntegrityError as exc:
                        if index == 0 and interaction_id is not None:
                            raise DuplicateInteraction(str(interaction_id)) from exc
                        raise
                    if index == update and cursor.rowcount != 1:
                        raise VersionConflict(f"game {table.id} is no longer at version {expected_version}")
                await conn.execute("COMMIT")
            except BaseException:
                await conn.execute("ROLLBACK")
                raise
        if table.live and table.id is not None:
            self._remember(table.id, text)
        else:
            self._live.pop(table.id or 0, None)

    async def drop_deadline(self, game_id: int, version: int) -> None:
        """Forget a deadline that cannot be applied, so it does not fire forever."""
        async with self._lock:
            await self._conn.execute(
                "DELETE FROM deadlines WHERE game_id=? AND version=?", (game_id, version)
            )
