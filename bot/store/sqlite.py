"""The SQLite backend: one file, one process, every write one transaction guarded by a version check.

Besides a copy of the live games it wrote, the process keeps nothing between clicks; everything
a restart must survive is here: the table, the action log, the interaction ids already applied, the deadlines and the
results behind /game stats.

One bot at a time: the bot (and an admin command that must not run beside it) opens the store
``sole``, holding an OS lock on a file beside the database (its name and ``.lock``) for as long as
the store is open, and a second is refused (StoreInUse) before it reads a row. The copy of the live
games depends on it, and the lock goes with the process however it ends, so a crash leaves nothing
to clean up. (A store opened without it, as a test or a script does beside a running bot, must
not write games.)

Three connections: the writer, whose transactions take turns under one lock (a click waits for
it); a read-only one for every read that does not feed that copy of the live games (WAL mode lets
it read beside a write, so a leaderboard or a DM's roll history never makes a click wait); and one
that only checkpoints the WAL into the file, beside both.

A click's own writes (its step, its book) run on the event loop itself: a write of a few rows
costs less than the hop to the connection's thread and back (a queue, a wake-up, the GIL changing
hands twice). Only while no other program holds the database's write lock: then the write waits
on the thread, as every other statement does, so the loop never waits for a lock. The checkpoint,
which writes and syncs the file, runs on its own connection's thread, and no click waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, ClassVar, Literal, TypeVar

import aiosqlite

from bot.models import LIVE, Book, LogEntry, Table
from bot.recent import Recent
from bot.store.base import (
    CLAIM_SECONDS, INTERACTIONS_BATCH, INTERACTIONS_KEPT, PLAYER_DATA, PRUNE_BATCH, PRUNE_EVERY, ChannelBusy, Dialect,
    DuplicateInteraction, LimitReached, SchemaTooNew, Store, StoreInUse, StoreUnavailable, Tally, VersionConflict,
    _migrations,
    book_without_player, book_text, first_id_at, log_rows, statements, table_text, tally, without_player,
)
from bot.store.records import Luck, SavedRoll, ServerSettings, StoredRoll

log = logging.getLogger(__name__)

#: live games whose JSON stays in memory; older ones are read from the file again when clicked
LIVE_CACHE = 2000
#: seconds a statement waits for another connection's write lock before it gives up
BUSY_TIMEOUT = 5.0
#: a click's writes between two checkpoints of the WAL into the database file (SQLite's own
#: automatic checkpoint would run on whichever thread commits: the event loop, for a click)
CHECKPOINT_EVERY = 500
#: checkpoints in a row overtaken by a write before the next holds the writer's lock (see _checkpoint)
OVERTAKEN_BEFORE_HOLDING = 2
#: when a timer is next to be looked at: its time, or the end of a claim on it, whichever is
#: later; the deadlines_next index holds this very expression, so every question the deadline
#: loop asks is read from it ("due and claimed by nobody" is this, up to now)
_NEXT = "MAX(due_at, COALESCE(claimed_until, 0))"

T = TypeVar("T")


def lock_file(path: Path | str) -> Path:
    """The file beside the database that the Boneyard running on it holds locked (it holds that
    Boneyard's process id, to name it); one for a database however its path was written (a
    relative path, a link to it)."""
    return Path(f"{Path(path).resolve()}.lock")


if sys.platform == "win32":
    import msvcrt

    #: the byte locked: past the process id, which another process must still be able to read
    _LOCKED_BYTE = 1 << 20

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, _LOCKED_BYTE, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        """flock, not fcntl's record locks: those are the process's, so a second store opened
        in the same process would be let through (and SQLite's own locks on the database are
        record locks, which closing any descriptor of the file would drop)."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


def _holder(fd: int) -> int | None:
    try:
        return int(os.pread(fd, 32, 0)) if hasattr(os, "pread") else None
    except (OSError, ValueError):
        return None


def hold(path: Path | str) -> int:
    """The lock on the database at ``path``, held until the returned descriptor is closed; or
    StoreInUse, naming the process that holds it."""
    fd = os.open(lock_file(path), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not _try_lock(fd):
            raise StoreInUse(str(path), _holder(fd))
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
    except BaseException:
        os.close(fd)
        raise
    return fd


def held(path: Path | str) -> StoreInUse | None:
    """Whether a Boneyard runs on the database at ``path`` (who, if so), asked without taking
    its place: the lock, if free, is let go at once."""
    try:
        fd = os.open(lock_file(path), os.O_RDONLY)
    except OSError:
        return None  # no lock file: no Boneyard has run here since it came in
    try:
        return None if _try_lock(fd) else StoreInUse(str(path), _holder(fd))
    finally:
        os.close(fd)


class _Writing:
    """The writer connection, one transaction at a time. A write that another program kept
    waiting past the busy timeout is turned away as StoreUnavailable: it wrote nothing. (A
    class, not a generator: a click enters it twice.)"""

    __slots__ = ("lock",)

    def __init__(self) -> None:
        self.lock = asyncio.Lock()

    async def __aenter__(self) -> None:
        await self.lock.acquire()

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None, trace: Any) -> None:
        self.lock.release()
        if isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc)):
            raise StoreUnavailable(f"the database is locked ({exc})") from exc


def _quick_writer(path: Path | str) -> sqlite3.Connection:
    """The event loop's own connection for a click's writes (SqliteStore._quickly). It never
    waits for a lock, so it needs no busy timeout set and reset around every write: another
    program's lock sends the write to the writer's thread, which waits. Its settings are the
    writer's (they belong to a connection, not to the file)."""
    quick = sqlite3.connect(str(path), isolation_level=None, timeout=0)
    quick.row_factory = sqlite3.Row
    for pragma in ("wal_autocheckpoint=0", "synchronous=NORMAL", "foreign_keys=ON"):
        quick.execute(f"PRAGMA {pragma}")
    return quick


class SqliteStore(Store):
    dialect: ClassVar[Dialect] = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, reader: aiosqlite.Connection,
                 checkpointer: aiosqlite.Connection, quick: sqlite3.Connection) -> None:
        self._conn = conn
        self._quick = quick
        self._reader = reader
        self._checkpointer = checkpointer
        self._checkpointing: asyncio.Task[None] | None = None
        # One connection, so one transaction at a time: statements of two writes must not interleave.
        self._writer = _Writing()
        self._lock = self._writer.lock
        # This process is the only writer, so the JSON of the live games it wrote or read lately
        # is kept: a click then costs no read of the database, only the write. Bounded, because
        # abandoned lobbies and untimed games stay live for ever.
        self._live: Recent[int, str] = Recent(LIVE_CACHE)
        # So are their books' JSON, each with the book last written as an object until the next
        # read takes it: a click reads the book its last one wrote, and parsing that text again
        # cost more than the click's whole write of it (a copy is kept: the writer may still
        # hold its own).
        self._books: Recent[int, tuple[str, Book | None]] = Recent(LIVE_CACHE)
        # games that ended before this were pruned already by this process: the next pruning
        # looks only at the games that ended since
        self._pruned_before = float("-inf")
        self._writes_since_checkpoint = 0
        self._checkpoints_overtaken = 0
        #: the lock that makes this process the file's one writer (see hold), let go at close
        self._held: int | None = None

    @classmethod
    async def open(cls, path: Path | str, *, sole: bool = False) -> SqliteStore:
        """``sole``: as the one process writing the file (the bot), refused if another holds it."""
        if not sole or str(path) == ":memory:":  # (a database in memory is this process's alone)
            return await cls._open(path)
        held = hold(path)
        try:
            store = await cls._open(path)
        except BaseException:
            os.close(held)
            raise
        store._held = held
        return store

    @classmethod
    async def _open(cls, path: Path | str) -> SqliteStore:
        # Opened once by hand first: a file that cannot be opened (no such folder, no right to it)
        # then fails here, rather than in aiosqlite's worker thread, which outlives the loop.
        sqlite3.connect(str(path)).close()
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = aiosqlite.Row
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA wal_autocheckpoint=0")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT * 1000:.0f}")
            # opened once the file exists and is in WAL mode (its -shm file exists then)
            reader = await aiosqlite.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                                             isolation_level=None)
            try:
                checkpointer = await aiosqlite.connect(str(path), isolation_level=None)
            except BaseException:
                await reader.close()
                raise
        except BaseException:
            await conn.close()
            raise
        await reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT * 1000:.0f}")
        store = cls(conn, reader, checkpointer, _quick_writer(path))
        try:
            await store._migrate()
            await store._forget_clicks(time.time())
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        try:
            if self._checkpointing is not None:
                await self._checkpointing
            await self._checkpointer.close()
            await self._reader.close()
            self._quick.close()
            await self._conn.close()
        finally:  # the file is let go once this process writes no more to it
            if self._held is not None:
                os.close(self._held)
                self._held = None

    def _writing(self) -> _Writing:
        return self._writer

    async def _quickly(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(raw)``, a click's few rows, on the event loop, through a connection that waits
        for no lock; on the writer's thread, which waits BUSY_TIMEOUT, only if another program
        holds the write lock (``work`` must have written nothing then: a transaction rolled
        back, or one statement). Called under ``_writing``."""
        try:
            return work(self._quick)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
        finally:
            self._writes_since_checkpoint += 1
        return await self._conn._execute(work, self._conn._conn)

    def _checkpoint_now_and_then(self) -> None:
        """Every CHECKPOINT_EVERY writes, the WAL is copied into the database file in the
        background, on a connection of its own: PASSIVE, it waits for no reader or writer and
        none waits for it. Under the writer's lock, its 5 to 10 ms (the file synced) would hold
        the save that started it and every click queued behind that."""
        if self._writes_since_checkpoint >= CHECKPOINT_EVERY and (
                self._checkpointing is None or self._checkpointing.done()):
            self._writes_since_checkpoint = 0
            self._checkpointing = asyncio.create_task(self._checkpoint(), name="wal checkpoint")

    async def _checkpoint(self) -> None:
        """SQLite starts the WAL afresh only from a wholly copied one, and a write that lands
        while the frames are copied (SQLite counts only those there when it began) leaves it
        not wholly copied: then another try comes a tenth of the way to the next. On a slow disk
        under steady load every try can be overtaken, and the WAL would grow without end; so
        after OVERTAKEN_BEFORE_HOLDING in a row, one try holds the writer's lock. The tries
        before it copied all but the last few frames, so the clicks it holds wait only for
        those few (and the file's sync)."""
        holding = self._checkpoints_overtaken >= OVERTAKEN_BEFORE_HOLDING
        try:
            async with self._lock if holding else contextlib.nullcontext():
                # read to its end: a checkpoint's statement left open would keep the file busy
                rows = await self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error:
            log.warning("the WAL could not be checkpointed; the next one tries again", exc_info=True)
            return
        _, frames, copied = next(iter(rows))
        if copied < frames or self._writes_since_checkpoint > 0:
            self._checkpoints_overtaken += 1
            soon = CHECKPOINT_EVERY - max(1, CHECKPOINT_EVERY // 10)
            self._writes_since_checkpoint = max(self._writes_since_checkpoint, soon)
        else:
            self._checkpoints_overtaken = 0

    async def _read(self, query: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """A query's rows, read beside the writer: it waits for no click, and no click for it.
        What it reads was committed, so a write that returned is seen."""
        return list(await self._reader.execute_fetchall(query, args))

    async def _migrate(self) -> None:
        async with self._writing():
            row = await (await self._conn.execute("PRAGMA user_version")).fetchone()
            current = row[0] if row else 0
            known = _migrations("sqlite")[-1][0]
            if current > known:
                raise SchemaTooNew(current, known)
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

    async def table_json(self, game_id: int) -> str | None:
        """Read under the writer's lock, as book() is: what is read goes into the copy of the
        live games, and a read beside a save could put back the game as it was before."""
        cached = self._live.get(game_id)
        if cached is not None:
            self._live.move_to_end(game_id)
            return cached
        async with self._writing():
            cur = await self._conn.execute("SELECT table_json, status FROM games WHERE id=?", (game_id,))
            row = await cur.fetchone()
        if not row:
            return None
        text: str = row[0]
        if row[1] in LIVE:
            self._live[game_id] = text
        return text

    async def book(self, game_id: int) -> Book:
        kept = self._books.get(game_id)
        if kept is None:
            async with self._writing():
                cur = await self._conn.execute("SELECT book_json FROM books WHERE game_id=?", (game_id,))
                row = await cur.fetchone()
            # a book written while the row was read is the newer
            kept = self._books.get(game_id) or (row[0] if row else "{}", None)
        text, unread = kept
        self._books[game_id] = (text, None)  # the object, if any, is this reader's now
        return unread if unread is not None else Book.model_validate_json(text)

    async def live_in_channel(self, channel_id: int) -> Table | None:
        rows = await self._read(
            "SELECT table_json FROM games WHERE channel_id=? AND status IN ('lobby','active')", (channel_id,))
        return Table.model_validate_json(rows[0][0]) if rows else None

    async def live_in_guild(self, guild_id: int) -> list[int]:
        rows = await self._read("SELECT id FROM games WHERE guild_id=? AND status IN ('lobby','active')", (guild_id,))
        return [int(r[0]) for r in rows]

    async def live_channels(self) -> list[tuple[int, int, int]]:
        rows = await self._read("SELECT id, guild_id, channel_id FROM games WHERE status IN ('lobby','active')", ())
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]

    async def latest_in_channel(self, channel_id: int) -> Table | None:
        """The live game of a channel, else the one it played last."""
        rows = await self._read(
            "SELECT table_json FROM games WHERE channel_id=? "
            "ORDER BY status IN ('lobby','active') DESC, id DESC LIMIT 1", (channel_id,))
        return Table.model_validate_json(rows[0][0]) if rows else None

    async def recent_log(self, game_id: int, limit: int = 15) -> list[LogEntry]:
        rows = await self._read(
            "SELECT version, seat, user_id, action, events, chapter FROM actions"
            " WHERE game_id=? ORDER BY version DESC LIMIT ?", (game_id, limit))
        return [
            LogEntry(
                version=r[0], seat=r[1], user_id=r[2],
                action=json.loads(r[3]), events=json.loads(r[4]), chapter=r[5],
            )
            for r in reversed(rows)
        ]

    async def full_log(self, game_id: int) -> list[LogEntry]:
        return await self.recent_log(game_id, limit=-1)

    async def interaction_seen(self, interaction_id: int) -> bool:
        return bool(await self._read("SELECT 1 FROM interactions WHERE id=?", (interaction_id,)))

    async def games_left_behind(self, ended_since: float) -> list[int]:
        # each part read from the games_ended index (status, updated_at), not the whole table
        behind = "COALESCE(json_extract(b.book_json, '$.shown'), -1) < g.version"
        rows = await self._read(
            f"SELECT g.id FROM games g LEFT JOIN books b ON b.game_id=g.id WHERE g.status='active' AND {behind}"
            " UNION ALL SELECT g.id FROM games g LEFT JOIN books b ON b.game_id=g.id"
            " WHERE g.status='lobby' AND b.game_id IS NULL"
            " UNION ALL SELECT g.id FROM games g LEFT JOIN books b ON b.game_id=g.id"
            f" WHERE g.status IN ('finished', 'cancelled') AND g.updated_at>? AND b.game_id IS NOT NULL"
            f" AND {behind} ORDER BY 1",
            (ended_since,))
        return [int(r[0]) for r in rows]

    async def next_deadline(self) -> tuple[int, int, float] | None:
        rows = await self._read(f"SELECT game_id, version, {_NEXT} FROM deadlines ORDER BY {_NEXT} LIMIT 1")
        return (rows[0][0], rows[0][1], rows[0][2]) if rows else None

    async def deadline_of(self, game_id: int) -> float | None:
        """When the decision the game waits for times out (None: no timer runs)."""
        rows = await self._read("SELECT due_at FROM deadlines WHERE game_id=?", (game_id,))
        return float(rows[0][0]) if rows else None

    async def postpone_overdue(self, now: float, until: float) -> int:
        async with self._writing():
            cur = await self._conn.execute(
                f"UPDATE deadlines SET due_at=? WHERE {_NEXT}<?", (until, now))
            return cur.rowcount

    async def due_deadlines(self, now: float) -> list[tuple[int, int]]:
        async with self._writing():
            cur = await self._conn.execute(
                f"UPDATE deadlines SET claimed_until=? WHERE {_NEXT}<=? RETURNING game_id, version, due_at",
                (now + CLAIM_SECONDS, now),
            )
            rows = await cur.fetchall()
        return [(r[0], r[1]) for r in sorted(rows, key=lambda r: (r[2], r[0]))]

    async def stats(self, guild_id: int, user_id: int) -> list[tuple[str, int, int]]:
        """(game, played, won) for one player in one guild."""
        rows = await self._read("SELECT game, played, won FROM player_stats WHERE user_id=? AND guild_id=?"
                                " ORDER BY game", (user_id, guild_id))
        return [(r[0], r[1], r[2]) for r in rows]

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[str, int, int, int]]:
        """(game, user id, played, won) for a guild's players, most wins first within each game."""
        def read() -> list[tuple[str, int, int, int]]:
            """Each game's first rows of the board index, in one hop to the reader's thread."""
            raw = self._reader._conn  # aiosqlite's sqlite3 connection, used on its own thread
            out: list[tuple[str, int, int, int]] = []
            for (game,) in raw.execute(GAMES_OF_GUILD, (guild_id,)).fetchall():
                out += [(game, *r) for r in raw.execute(
                    "SELECT user_id, played, won FROM player_stats WHERE guild_id=? AND game=?"
                    " ORDER BY won DESC, played, user_id LIMIT ?", (guild_id, game, limit))]
            return out

        return await self._reader._execute(read)

    async def game_counts(self) -> dict[str, int]:
        rows = await self._read("SELECT status, COUNT(*) FROM games GROUP BY status")
        return {row[0]: int(row[1]) for row in rows}

    async def deadlines_due(self, now: float) -> int:
        rows = await self._read(f"SELECT COUNT(*) FROM deadlines WHERE {_NEXT}<=?", (now,))
        return int(rows[0][0]) if rows else 0

    async def ping(self) -> None:
        """Both connections answer: the reader for the reads, the writer for the clicks."""
        await self._read("SELECT 1")
        async with self._writing():
            await (await self._conn.execute("SELECT 1")).fetchone()

    # -- writing -----------------------------------------------------------------------------

    async def create(self, table: Table) -> Table:
        now = time.time()
        table = table.model_copy(update={"created_at": now, "updated_at": now, "version": 0})
        async with self._writing():
            await self._conn.execute("BEGIN IMMEDIATE")  # a locked database: nothing to roll back
            try:
                cur = await self._conn.execute(
                    "INSERT INTO games (guild_id, channel_id, game, status, version, table_json,"
                    " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)",
                    (table.guild_id, table.channel_id, table.game, table.status, 0, "{}", now, now),
                )
                table.id = game_id = cur.lastrowid or 0
                text = table_text(table)
                await self._conn.execute("UPDATE games SET table_json=? WHERE id=?", (text, table.id))
                await self._conn.execute("COMMIT")
                self._live[game_id] = text
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
    ) -> str:
        """Write ``table`` if the stored version is still ``expected_version``, all or nothing.

        The deadline row is replaced (or removed when ``deadline`` is None) unless it is "keep",
        so a stale timer can never fire on a newer state.
        """
        now = time.time()
        table.updated_at = now
        text = table_text(table)
        steps: list[tuple[bool, str, Any]] = []  # (many rows, statement, arguments)
        if interaction_id is not None:
            steps.append((False, "INSERT INTO interactions (id, game_id, at) VALUES (?,?,?)",
                          (interaction_id, table.id, now)))
        update = len(steps)
        # A move that leaves the status as it was rewrites the row alone: the status and the
        # time, and so the indexes that hold them (of live games, of ended games by age), change
        # only when the status does, which the full statement below is for.
        steps.append((False, "UPDATE games SET version=?, table_json=? WHERE id=? AND version=? AND status=?",
                      (table.version, text, table.id, expected_version, table.status)))
        changed = ("UPDATE games SET status=?, version=?, table_json=?, updated_at=? WHERE id=? AND version=?",
                   (table.status, table.version, text, now, table.id, expected_version))
        steps.append((True, "INSERT INTO actions (game_id, version, seat, user_id, action, events, chapter, at)"
                            " VALUES (?,?,?,?,?,?,?,?)",
                      log_rows(table.id, log, now)))
        if isinstance(deadline, float) and table.live:
            steps.append((False, "INSERT OR REPLACE INTO deadlines (game_id, version, due_at, claimed_until)"
                                 " VALUES (?,?,?,NULL)", (table.id, table.version, deadline)))
        elif deadline != "keep" or not table.live:
            steps.append((False, "DELETE FROM deadlines WHERE game_id=?", (table.id,)))
        written = [(table.id, table.guild_id, table.game, r["seat"], r["user_id"], r["rank"], r["score"], now)
                   for r in results or ()]

        def write(raw: sqlite3.Connection) -> None:
            """The whole transaction in one call: nothing written unless all of it is."""
            raw.execute("BEGIN IMMEDIATE")
            try:
                for index, (many, sql, args) in enumerate(steps):
                    try:
                        cursor = raw.executemany(sql, args) if many else raw.execute(sql, args)
                    except sqlite3.IntegrityError as exc:
                        if index == 0 and interaction_id is not None:
                            raise DuplicateInteraction(str(interaction_id)) from exc
                        raise
                    if index == update and cursor.rowcount != 1 and raw.execute(*changed).rowcount != 1:
                        raise VersionConflict(f"game {table.id} is no longer at version {expected_version}")
                if written:
                    _write_results(raw, written)
                raw.execute("COMMIT")
            except BaseException:
                raw.execute("ROLLBACK")
                raise

        try:
            async with self._writing():
                await self._quickly(write)
        except VersionConflict:
            # the stored game is not the one kept here: the next load reads it from the file
            self._live.pop(table.id or 0, None)
            self._books.pop(table.id or 0, None)
            raise
        self._checkpoint_now_and_then()
        if table.live and table.id is not None:
            self._live[table.id] = text
        else:
            self._live.pop(table.id or 0, None)
        return text

    async def put_book(self, game_id: int, book: Book) -> None:
        """Kept in memory first: a book is what the channel shows now, already shown, so a
        locked database must not lose it. The next book written for the game carries it."""
        text = book_text(book)
        self._books[game_id] = (text, book.model_copy(update={
            "turn_events": list(book.turn_events), "dm_copies": dict(book.dm_copies), "dm_closed": dict(book.dm_closed)}))
        try:
            async with self._writing():
                await self._quickly(lambda raw: raw.execute(
                    "INSERT INTO books (game_id, book_json) VALUES (?,?)"
                    " ON CONFLICT (game_id) DO UPDATE SET book_json=excluded.book_json", (game_id, text)))
        except StoreUnavailable as exc:
            log.warning("the store could not take the book of game %s, kept in memory: %s", game_id, exc)

    async def hold_interaction(self, interaction_id: int, game_id: int) -> None:
        async with self._writing():
            await self._quickly(lambda raw: raw.execute(
                "INSERT OR IGNORE INTO interactions (id, game_id, at) VALUES (?,?,?)",
                (interaction_id, game_id, time.time())))

    async def drop_deadline(self, game_id: int, version: int) -> None:
        """Forget a deadline that cannot be applied, so it does not fire forever."""
        async with self._writing():
            await self._conn.execute(
                "DELETE FROM deadlines WHERE game_id=? AND version=?", (game_id, version)
            )

    # -- a server's settings, saved rolls and the rolls made -----------------------------------

    async def _one(self, query: str, args: tuple[Any, ...]) -> Any:
        rows = await self._read(query, args)
        return rows[0] if rows else None

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

        async with self._writing():
            return await self._conn._execute(run)

    async def server_settings(self, guild_id: int) -> ServerSettings:
        row = await self._one("SELECT settings_json FROM server_settings WHERE guild_id=?", (guild_id,))
        return ServerSettings.model_validate_json(row[0]) if row else ServerSettings(guild_id=guild_id)

    async def put_server_settings(self, settings: ServerSettings) -> None:
        async with self._writing():
            await self._conn.execute(
                "INSERT INTO server_settings (guild_id, settings_json) VALUES (?,?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings_json=excluded.settings_json",
                (settings.guild_id, settings.model_dump_json()))

    async def saved_rolls(self, guild_id: int, user_id: int) -> list[SavedRoll]:
        rows = await self._read("SELECT roll_json FROM saved_rolls WHERE guild_id=? AND user_id=? ORDER BY name",
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
        async with self._writing():
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
        async with self._writing():
            cur = await self._conn.execute("UPDATE rolls SET revealed=1 WHERE id=? AND revealed=0", (roll_id,))
            return cur.rowcount == 1

    async def roll_history(self, guild_id: int, user_id: int, limit: int = 20) -> list[StoredRoll]:
        rows = await self._read("SELECT id, revealed, roll_json FROM rolls WHERE guild_id=? AND user_id=?"
                               " ORDER BY n DESC LIMIT ?", (guild_id, user_id, limit))
        return [_stored(*r) for r in rows]

    async def luck(self, guild_id: int, user_id: int, *, hidden: bool) -> Luck:
        shown = (guild_id, user_id, int(hidden))
        row = await self._one("SELECT COUNT(*) FROM rolls WHERE guild_id=? AND user_id=? AND hidden<=?", shown)
        rows = await self._read("SELECT sides, face, SUM(count) FROM roll_faces WHERE guild_id=? AND user_id=?"
                               " AND hidden<=? GROUP BY sides, face", shown)
        luck = Luck(rolls=row[0] if row else 0)
        for sides, face, count in rows:
            luck.faces.setdefault(sides, {})[face] = count
        return luck

    async def forget_rolls(self, guild_id: int, user_id: int) -> int:
        def work(raw: sqlite3.Connection) -> int:
            return int(raw.execute("DELETE FROM rolls WHERE guild_id=? AND user_id=?", (guild_id, user_id)).rowcount)

        return int(await self._transaction(work))

    # -- keeping the data bounded, and forgetting ----------------------------------------------

    async def prune(self, now: float, keep_days: float) -> int:
        """Found by the reader, deleted a batch per transaction: clicks go on in between."""
        cutoff = now - keep_days * 86400
        rows = await self._read("SELECT id FROM games WHERE status IN ('finished','cancelled')"
                                " AND updated_at<? AND updated_at>=?", (cutoff, self._pruned_before))
        ids = [r[0] for r in rows]
        deleted = 0
        for start in range(0, len(ids), PRUNE_BATCH):
            batch = ids[start:start + PRUNE_BATCH]

            def work(raw: sqlite3.Connection, batch: list[int] = batch) -> int:
                return int(raw.execute(f"DELETE FROM actions WHERE game_id IN ({_marks(batch)})", batch).rowcount)

            deleted += await self._transaction(work)
        self._pruned_before = max(self._pruned_before, cutoff)
        await self._forget_clicks(now)
        return deleted

    async def _forget_clicks(self, now: float) -> None:
        """An interaction can only come back within its 15-minute token life: ids older than
        INTERACTIONS_KEPT have done their job of applying a click once, and would only grow the
        file. A batch per transaction, in the order of the primary key."""
        before = first_id_at(now - INTERACTIONS_KEPT)

        def work(raw: sqlite3.Connection) -> int:
            return int(raw.execute("DELETE FROM interactions WHERE id IN (SELECT id FROM interactions WHERE id<?"
                                   " ORDER BY id LIMIT ?)", (before, INTERACTIONS_BATCH)).rowcount)

        while await self._transaction(work) == INTERACTIONS_BATCH:
            pass

    async def player_data(self, user_id: int) -> dict[str, int]:
        def read() -> dict[str, int]:
            raw = self._reader._conn
            return _player_data(raw, user_id)

        return await self._reader._execute(read)

    async def forget_player(self, user_id: int) -> dict[str, int]:
        def work(raw: sqlite3.Connection) -> dict[str, int]:
            done = _player_data(raw, user_id)
            # results are written when a game finishes: these are the finished games they sat in
            games = [r[0] for r in raw.execute("SELECT DISTINCT game_id FROM results WHERE user_id=?", (user_id,))]
            for start in range(0, len(games), PRUNE_BATCH):
                batch = games[start:start + PRUNE_BATCH]
                rows = raw.execute(f"SELECT id, table_json FROM games WHERE id IN ({_marks(batch)})", batch).fetchall()
                raw.executemany("UPDATE games SET table_json=? WHERE id=?",
                                [(without_player(text, user_id), game_id) for game_id, text in rows])
                books = raw.execute(f"SELECT game_id, book_json FROM books WHERE game_id IN ({_marks(batch)})",
                                    batch).fetchall()
                raw.executemany("UPDATE books SET book_json=? WHERE game_id=?",
                                [(book_without_player(text, user_id), game_id) for game_id, text in books])
                raw.execute(f"UPDATE results SET user_id=NULL WHERE user_id=? AND game_id IN ({_marks(batch)})",
                            (user_id, *batch))
                raw.execute(f"UPDATE actions SET user_id=NULL WHERE user_id=? AND game_id IN ({_marks(batch)})",
                            (user_id, *batch))
            raw.execute("DELETE FROM player_stats WHERE user_id=?", (user_id,))
            raw.execute("DELETE FROM saved_rolls WHERE user_id=?", (user_id,))
            raw.execute("DELETE FROM rolls WHERE user_id=?", (user_id,))  # their faces go with them
            forgotten.extend(games)
            return done

        forgotten: list[int] = []
        done = dict(await self._transaction(work))
        for game_id in forgotten:  # on the event loop, where the cache is read
            self._books.pop(game_id, None)
        return done

    async def mark_guild_left(self, guild_id: int, at: float) -> None:
        await self._transaction(lambda raw: raw.execute(
            "INSERT INTO guilds_left (guild_id, left_at) VALUES (?,?) ON CONFLICT (guild_id) DO NOTHING",
            (guild_id, at)))

    async def mark_guild_back(self, guild_id: int) -> None:
        await self._transaction(lambda raw: raw.execute("DELETE FROM guilds_left WHERE guild_id=?", (guild_id,)))

    async def guilds_hosted(self) -> set[int]:
        rows = await self._read("SELECT DISTINCT guild_id FROM games UNION SELECT guild_id FROM server_settings")
        return {int(r[0]) for r in rows if r[0]}

    async def guilds_left(self) -> dict[int, float]:
        return {int(r[0]): float(r[1]) for r in await self._read("SELECT guild_id, left_at FROM guilds_left")}

    async def command_guilds(self) -> set[int]:
        return {int(r[0]) for r in await self._read("SELECT guild_id FROM command_guilds")}

    async def put_command_guilds(self, guilds: set[int]) -> None:
        def work(raw: sqlite3.Connection) -> None:
            raw.execute("DELETE FROM command_guilds")
            raw.executemany("INSERT INTO command_guilds (guild_id) VALUES (?)", [(g,) for g in sorted(guilds)])

        await self._transaction(work)

    async def forget_guilds_left_before(self, t: float) -> int:
        """One server per transaction; its live games leave the copy kept in memory too."""
        gone = [r[0] for r in await self._read("SELECT guild_id FROM guilds_left WHERE left_at<?", (t,))]
        for guild_id in gone:
            def work(raw: sqlite3.Connection, guild_id: int = guild_id) -> list[int]:
                games = [r[0] for r in raw.execute("SELECT id FROM games WHERE guild_id=?", (guild_id,))]
                for start in range(0, len(games), PRUNE_BATCH):
                    batch = games[start:start + PRUNE_BATCH]
                    for table in ("actions", "deadlines", "results", "books"):
                        raw.execute(f"DELETE FROM {table} WHERE game_id IN ({_marks(batch)})", batch)
                    raw.execute(f"DELETE FROM games WHERE id IN ({_marks(batch)})", batch)
                for table in ("player_stats", "server_settings", "saved_rolls", "rolls", "guilds_left"):
                    raw.execute(f"DELETE FROM {table} WHERE guild_id=?", (guild_id,))
                return games

            for game_id in await self._transaction(work):
                self._live.pop(game_id, None)
                self._books.pop(game_id, None)
        return len(gone)


def _marks(values: list[Any]) -> str:
    return ",".join("?" * len(values))


def _player_data(raw: sqlite3.Connection, user_id: int) -> dict[str, int]:
    """What forgetting a player deletes or changes, counted (see PLAYER_DATA)."""
    queries = {
        "games": "SELECT COUNT(DISTINCT game_id) FROM results WHERE user_id=?",
        "stats": "SELECT COUNT(*) FROM player_stats WHERE user_id=?",
        "saved_rolls": "SELECT COUNT(*) FROM saved_rolls WHERE user_id=?",
        "rolls": "SELECT COUNT(*) FROM rolls WHERE user_id=?",
    }
    return {key: int(raw.execute(queries[key], (user_id,)).fetchone()[0]) for key in PLAYER_DATA}


#: the games a server has a board for, one index probe each (a skip scan: not every player's row)
GAMES_OF_GUILD = (
    "WITH RECURSIVE g(game) AS ("
    " SELECT MIN(game) FROM player_stats WHERE guild_id=?1"
    " UNION ALL SELECT (SELECT MIN(game) FROM player_stats WHERE guild_id=?1 AND game>g.game)"
    " FROM g WHERE g.game IS NOT NULL"
    ") SELECT game FROM g WHERE game IS NOT NULL"
)


def _write_results(raw: sqlite3.Connection, written: list[tuple[Any, ...]]) -> None:
    """A game's results, and the per-server totals with them: a result written again (the same
    seat) first takes back what it counted."""
    game_id, seats = written[0][0], {row[3] for row in written}
    replaced = [(r[1], r[2], r[3], r[4]) for r in raw.execute(
        "SELECT seat, user_id, guild_id, game, rank FROM results WHERE game_id=?", (game_id,)) if r[0] in seats]
    raw.executemany("INSERT OR REPLACE INTO results (game_id, guild_id, game, seat, user_id, rank, score,"
                    " finished_at) VALUES (?,?,?,?,?,?,?,?)", written)
    _count(raw, tally(replaced, [(r[4], r[1], r[2], r[5]) for r in written]))


def _count(raw: sqlite3.Connection, change: Tally) -> None:
    raw.executemany(
        "INSERT INTO player_stats (user_id, guild_id, game, played, won) VALUES (?,?,?,?,?)"
        " ON CONFLICT (user_id, guild_id, game) DO UPDATE"
        " SET played=played+excluded.played, won=won+excluded.won",
        [(*key, played, won) for key, (played, won) in change.items()])
    raw.executemany("DELETE FROM player_stats WHERE user_id=? AND guild_id=? AND game=? AND played<=0",
                    [key for key, (played, _) in change.items() if played < 0])


def _stored(roll_id: int, revealed: Any, text: str) -> StoredRoll:
    return StoredRoll.model_validate_json(text).model_copy(update={"id": roll_id, "revealed": bool(revealed)})
