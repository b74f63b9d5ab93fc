"""The SQLite backend: one file, one process, every write one transaction guarded by a version check.

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
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, Literal

import aiosqlite

from bot.models import Book, LogEntry, Table
from bot.store.base import (
    CLAIM_SECONDS, INTERACTIONS_KEPT, PRUNE_EVERY, ChannelBusy, Dialect, DuplicateInteraction, LimitReached, Store,
    VersionConflict, _migrations, statements, top_per_game,
)
from bot.store.records import Luck, SavedRoll, ServerSettings, StoredRoll

#: live games whose JSON stays in memory; older ones are read from the file again when clicked
LIVE_CACHE = 2000


class SqliteStore(Store):
    dialect: ClassVar[Dialect] = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        # One connection, so one transaction at a time: statements of two writes must not interleave.
        self._lock = asyncio.Lock()
        # This process is the only writer, so the JSON of the live games it wrote or read lately
        # is kept: a click then costs no read of the database, only the write. Bounded, because
        # abandoned lobbies and untimed games stay live for ever.
        self._live: OrderedDict[int, str] = OrderedDict()
        self._books: OrderedDict[int, str] = OrderedDict()

    @classmethod
    async def open(cls, path: Path | str) -> SqliteStore:
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
            current = row[0] if row else 0
            for number, sql in _migrations("sqlite"):
                if number <= current:
                    continue
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    for statement in statements(sql):
                        await self._conn.execute(statement)
                    await self._conn.execute(f"PRAGMA user_version={number}")
                    await self._conn.execute("COMMIT")
                except BaseException:
                    await self._conn.execute("ROLLBACK")
                    raise

    async def schema_version(self) -> int:
        row = await (await self._conn.execute("PRAGMA user_version")).fetchone()
        return int(row[0]) if row else 0

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

    def _remember(self, game_id: int, text: str, cache: OrderedDict[int, str] | None = None) -> None:
        cache = self._live if cache is None else cache
        cache[game_id] = text
        cache.move_to_end(game_id)
        while len(cache) > LIVE_CACHE:
            cache.popitem(last=False)

    async def book(self, game_id: int) -> Book:
        cached = self._books.get(game_id)
        if cached is None:
            async with self._lock:
                cur = await self._conn.execute("SELECT book_json FROM books WHERE game_id=?", (game_id,))
                row = await cur.fetchone()
            cached = row[0] if row else "{}"
            self._remember(game_id, cached, self._books)
        else:
            self._books.move_to_end(game_id)
        return Book.model_validate_json(cached)

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
                "SELECT version, seat, user_id, action, events, chapter FROM actions"
                " WHERE game_id=? ORDER BY version DESC LIMIT ?",
                (game_id, limit),
            )
            rows = await cur.fetchall()
        return [
            LogEntry(
                version=r[0], seat=r[1], user_id=r[2],
                action=json.loads(r[3]), events=json.loads(r[4]), chapter=r[5],
            )
            for r in reversed(list(rows))
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
                "SELECT game_id, version, MAX(due_at, COALESCE(claimed_until, 0)) AS at FROM deadlines"
                " ORDER BY at LIMIT 1"
            )
            row = await cur.fetchone()
        return (row[0], row[1], row[2]) if row else None

    async def deadline_of(self, game_id: int) -> float | None:
        """When the decision the game waits for times out (None: no timer runs)."""
        async with self._lock:
            cur = await self._conn.execute("SELECT due_at FROM deadlines WHERE game_id=?", (game_id,))
            row = await cur.fetchone()
        return float(row[0]) if row else None

    async def postpone_overdue(self, now: float, until: float) -> int:
        async with self._lock:
            cur = await self._conn.execute(
                "UPDATE deadlines SET due_at=? WHERE due_at<? AND (claimed_until IS NULL OR claimed_until<?)",
                (until, now, now),
            )
            return cur.rowcount

    async def due_deadlines(self, now: float) -> list[tuple[int, int]]:
        async with self._lock:
            cur = await self._conn.execute(
                "UPDATE deadlines SET claimed_until=? WHERE due_at<=? AND (claimed_until IS NULL OR claimed_until<=?)"
                " RETURNING game_id, version, due_at",
                (now + CLAIM_SECONDS, now, now),
            )
            rows = await cur.fetchall()
        return [(r[0], r[1]) for r in sorted(rows, key=lambda r: (r[2], r[0]))]

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

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[str, int, int, int]]:
        """(game, user id, played, won) for a guild's players, most wins first within each game."""
        async with self._lock:
            cur = await self._conn.execute(
                "SELECT game, user_id, COUNT(*) AS played, SUM(rank = 1) AS won FROM results"
                " WHERE guild_id=? AND user_id IS NOT NULL GROUP BY game, user_id"
                " ORDER BY game, won DESC, played ASC, user_id",
                (guild_id,),
            )
            rows = await cur.fetchall()
        return top_per_game(rows, limit)

    # -- writing -----------------------------------------------------------------------------

    async def game_counts(self) -> dict[str, int]:
        async with self._lock:
            cur = await self._conn.execute("SELECT status, COUNT(*) FROM games GROUP BY status")
            return {row[0]: int(row[1]) for row in await cur.fetchall()}

    async def deadlines_due(self, now: float) -> int:
        async with self._lock:
            cur = await self._conn.execute("SELECT COUNT(*) FROM deadlines WHERE due_at<=?", (now,))
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def ping(self) -> None:
        async with self._lock:
            await (await self._conn.execute("SELECT 1")).fetchone()

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
                table.id = game_id = cur.lastrowid or 0
                text = table.model_dump_json()
                await self._conn.execute("UPDATE games SET table_json=? WHERE id=?", (text, table.id))
                await self._conn.execute("COMMIT")
                self._remember(game_id, text)
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
        steps: list[tuple[bool, str, Any]] = []  # (many rows, statement, arguments)
        if interaction_id is not None:
            steps.append((False, "INSERT INTO interactions (id, game_id, at) VALUES (?,?,?)",
                          (interaction_id, table.id, now)))
        update = len(steps)
        steps.append((False, "UPDATE games SET status=?, version=?, table_json=?, updated_at=?"
                             " WHERE id=? AND version=?",
                      (table.status, table.version, text, now, table.id, expected_version)))
        steps.append((True, "INSERT INTO actions (game_id, version, seat, user_id, action, events, chapter, at)"
                            " VALUES (?,?,?,?,?,?,?,?)",
                      [(table.id, e.version, e.seat, e.user_id, json.dumps(e.action),
                        json.dumps(e.events), e.chapter, now) for e in log]))
        if isinstance(deadline, float) and table.live:
            steps.append((False, "INSERT OR REPLACE INTO deadlines (game_id, version, due_at, claimed_until)"
                                 " VALUES (?,?,?,NULL)", (table.id, table.version, deadline)))
        elif deadline != "keep" or not table.live:
            steps.append((False, "DELETE FROM deadlines WHERE game_id=?", (table.id,)))
        if results:
            steps.append((True, "INSERT OR REPLACE INTO results (game_id, guild_id, game, seat, user_id,"
                                " rank, score, finished_at) VALUES (?,?,?,?,?,?,?,?)",
                          [(table.id, table.guild_id, table.game, r["seat"], r["user_id"], r["rank"],
                            r["score"], now) for r in results]))

        def write() -> None:
            """The whole transaction in one call on the connection's thread: one hop from the
            event loop per click, where a statement at a time took six."""
            raw = self._conn._conn  # aiosqlite's sqlite3 connection, used on its own thread
            raw.execute("BEGIN IMMEDIATE")
            try:
                for index, (many, sql, args) in enumerate(steps):
                    try:
                        cursor = raw.executemany(sql, args) if many else raw.execute(sql, args)
                    except sqlite3.IntegrityError as exc:
                        if index == 0 and interaction_id is not None:
                            raise DuplicateInteraction(str(interaction_id)) from exc
                        raise
                    if index == update and cursor.rowcount != 1:
                        raise VersionConflict(f"game {table.id} is no longer at version {expected_version}")
                raw.execute("COMMIT")
            except BaseException:
                raw.execute("ROLLBACK")
                raise

        async with self._lock:
            await self._conn._execute(write)
        if table.live and table.id is not None:
            self._remember(table.id, text)
        else:
            self._live.pop(table.id or 0, None)

    async def put_book(self, game_id: int, book: Book) -> None:
        text = book.model_dump_json()
        async with self._lock:
            await self._conn.execute(
                "INSERT INTO books (game_id, book_json) VALUES (?,?)"
                " ON CONFLICT (game_id) DO UPDATE SET book_json=excluded.book_json", (game_id, text))
        self._remember(game_id, text, self._books)

    async def drop_deadline(self, game_id: int, version: int) -> None:
        """Forget a deadline that cannot be applied, so it does not fire forever."""
        async with self._lock:
            await self._conn.execute(
                "DELETE FROM deadlines WHERE game_id=? AND version=?", (game_id, version)
            )

    # -- a server's settings, saved rolls and the rolls made -----------------------------------

    async def _one(self, query: str, args: tuple[Any, ...]) -> Any:
        async with self._lock:
            cur = await self._conn.execute(query, args)
            return await cur.fetchone()

    async def _all(self, query: str, args: tuple[Any, ...]) -> list[Any]:
        async with self._lock:
            cur = await self._conn.execute(query, args)
            return list(await cur.fetchall())

    async def _transaction(self, work: Any) -> Any:
        """``work(raw)`` inside one transaction, in one hop to the connection's thread (as save())."""
        def run() -> Any:
            raw = self._conn._conn
            raw.execute("BEGIN IMMEDIATE")
            try:
                out = work(raw)
                raw.execute("COMMIT")
                return out
            except BaseException:
                raw.execute("ROLLBACK")
                raise

        async with self._lock:
            return await self._conn._execute(run)

    async def server_settings(self, guild_id: int) -> ServerSettings:
        row = await self._one("SELECT settings_json FROM server_settings WHERE guild_id=?", (guild_id,))
        return ServerSettings.model_validate_json(row[0]) if row else ServerSettings(guild_id=guild_id)

    async def put_server_settings(self, settings: ServerSettings) -> None:
        async with self._lock:
            await self._conn.execute(
                "INSERT INTO server_settings (guild_id, settings_json) VALUES (?,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings_json=excluded.settings_json",
                (settings.guild_id, settings.model_dump_json()))

    async def saved_rolls(self, guild_id: int, user_id: int) -> list[SavedRoll]:
        rows = await self._all("SELECT roll_json FROM saved_rolls WHERE guild_id=? AND user_id=? ORDER BY name",
                               (guild_id, user_id))
        return [SavedRoll.model_validate_json(r[0]) for r in rows]

    async def put_saved_roll(self, roll: SavedRoll, limit: int) -> bool:
        owner = (roll.guild_id, roll.user_id)

        def work(raw: sqlite3.Connection) -> bool:
            replaced = raw.execute("SELECT 1 FROM saved_rolls WHERE guild_id=? AND user_id=? AND name=?",
                                   (*owner, roll.name)).fetchone() is not None
            if not replaced:
                kept = raw.execute("SELECT COUNT(*) FROM saved_rolls WHERE guild_id=? AND user_id=?", owner).fetchone()[0]
                if kept >= limit:
                    raise LimitReached(f"{kept} saved rolls")
            raw.execute("INSERT OR REPLACE INTO saved_rolls (guild_id, user_id, name, roll_json, updated_at)"
                        " VALUES (?,?,?,?,?)", (*owner, roll.name, roll.model_dump_json(), time.time()))
            return replaced

        return bool(await self._transaction(work))

    async def delete_saved_roll(self, guild_id: int, user_id: int, name: str) -> bool:
        async with self._lock:
            cur = await self._conn.execute("DELETE FROM saved_rolls WHERE guild_id=? AND user_id=? AND name=?",
                                           (guild_id, user_id, name))
            return cur.rowcount > 0

    async def record_roll(self, roll: StoredRoll, faces: dict[tuple[int, int], int], keep: int) -> StoredRoll:
        roll = roll.model_copy(update={"at": time.time()})
        text = roll.model_dump_json(exclude={"id", "revealed"})
        who = (roll.guild_id, roll.user_id)

        def work(raw: sqlite3.Connection) -> int:
            n = raw.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM rolls WHERE guild_id=? AND user_id=?", who).fetchone()[0]
            roll_id = raw.execute("INSERT INTO rolls (guild_id, user_id, n, hidden, at, roll_json) VALUES (?,?,?,?,?,?)",
                                  (*who, n, int(roll.hidden), roll.at, text)).lastrowid or 0
            raw.executemany("INSERT INTO roll_faces (roll_id, guild_id, user_id, hidden, sides, face, count)"
                            " VALUES (?,?,?,?,?,?,?)",
                            [(roll_id, *who, int(roll.hidden), sides, face, count)
                             for (sides, face), count in faces.items()])
            if n % PRUNE_EVERY == 0 and n > keep:
                raw.execute("DELETE FROM rolls WHERE guild_id=? AND user_id=? AND n<=?", (*who, n - keep))
            return int(roll_id)

        return roll.model_copy(update={"id": await self._transaction(work)})

    async def stored_roll(self, roll_id: int) -> StoredRoll | None:
        row = await self._one("SELECT id, revealed, roll_json FROM rolls WHERE id=?", (roll_id,))
        return _stored(row[0], row[1], row[2]) if row else None

    async def mark_revealed(self, roll_id: int) -> bool:
        async with self._lock:
            cur = await self._conn.execute("UPDATE rolls SET revealed=1 WHERE id=? AND revealed=0", (roll_id,))
            return cur.rowcount == 1

    async def roll_history(self, guild_id: int, user_id: int, limit: int = 20) -> list[StoredRoll]:
        rows = await self._all("SELECT id, revealed, roll_json FROM rolls WHERE guild_id=? AND user_id=?"
                               " ORDER BY n DESC LIMIT ?", (guild_id, user_id, limit))
        return [_stored(*r) for r in rows]

    async def luck(self, guild_id: int, user_id: int, *, hidden: bool) -> Luck:
        shown = (guild_id, user_id, int(hidden))
        row = await self._one("SELECT COUNT(*) FROM rolls WHERE guild_id=? AND user_id=? AND hidden<=?", shown)
        rows = await self._all("SELECT sides, face, SUM(count) FROM roll_faces WHERE guild_id=? AND user_id=?"
                               " AND hidden<=? GROUP BY sides, face", shown)
        luck = Luck(rolls=row[0] if row else 0)
        for sides, face, count in rows:
            luck.faces.setdefault(sides, {})[face] = count
        return luck

    async def forget_rolls(self, guild_id: int, user_id: int) -> int:
        def work(raw: sqlite3.Connection) -> int:
            return int(raw.execute("DELETE FROM rolls WHERE guild_id=? AND user_id=?", (guild_id, user_id)).rowcount)

        return int(await self._transaction(work))


def _stored(roll_id: int, revealed: Any, text: str) -> StoredRoll:
    return StoredRoll.model_validate_json(text).model_copy(update={"id": roll_id, "revealed": bool(revealed)})
