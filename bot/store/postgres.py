"""The PostgreSQL backend: one server shared by every bot process of a sharded bot.

Several processes may act on one game at the same moment (a DM click reaches shard 0, whichever
process owns the game's guild), so the database is the arbiter:

- a click holds the game's advisory lock from load to save (``game_lock``), so clicks from two
  processes are applied one after the other, each once; the version check in every write stays
  as the second line of defence;
- a deadline is claimed with ``FOR UPDATE SKIP LOCKED`` before it fires, so it fires once;
- a written deadline is announced with NOTIFY, so every process wakes for it, and a process that
  dies does not take its timers with it.

No copy of a game is kept in memory: another process may have written it since.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any, ClassVar, Literal, TypeVar

import asyncpg

from bot.models import Book, LogEntry, Table
from bot.store.base import (
    CLAIM_SECONDS, INTERACTIONS_BATCH, INTERACTIONS_KEPT, PLAYER_DATA, PRUNE_BATCH, PRUNE_EVERY, ChannelBusy, Dialect,
    DuplicateInteraction, LimitReached, SchemaTooNew, Store, StoreUnavailable, Tally, VersionConflict, _migrations,
    book_without_player, book_text, first_id_at, log_rows, table_text, tally, without_player,
)
from bot.store.records import Luck, SavedRoll, ServerSettings, StoredRoll

log = logging.getLogger(__name__)

T = TypeVar("T")

#: connections per process; a click uses one for a few milliseconds at a time
POOL_SIZE = 10
#: first key of every advisory lock this bot takes ("Bone"), so other users of the database
#: with advisory locks of their own never collide with a game's
LOCK_SPACE = 0x426F6E65
#: the advisory lock held while migrations run, so processes starting together migrate once
MIGRATION_LOCK = 0x426F6E65_00000000
#: NOTIFY channel that carries each newly written deadline
DEADLINE_CHANNEL = "boneyard_deadlines"
#: as the SQLite store's _NEXT: the expression of the deadlines_next index
_NEXT = "GREATEST(due_at, COALESCE(claimed_until, 0))"
#: first key of the advisory lock held while one owner's saved rolls are counted and written
SAVED_ROLLS_LOCK = LOCK_SPACE + 1


#: what using a connection the server dropped raises (ended by an administrator, a restart, the
#: network gone), and what connecting to a server that is not there raises
LOST: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError, asyncpg.InterfaceError,
    asyncpg.exceptions.InternalClientError, OSError,
)
#: failed tries in a row after which a game's lock is given up for now
LOCK_TRIES = 3
#: tries of a statement or a transaction whose connection was lost: each connection the pool
#: holds may have been dropped at once, and each is found out in its turn
TRIES = POOL_SIZE + 1


def _unavailable(exc: BaseException) -> StoreUnavailable:
    return StoreUnavailable(f"the connection to the database was lost ({type(exc).__name__}: {exc})")


def _game_key(game_id: int) -> int:
    """The advisory lock's second key is a 32-bit int; two games sharing one only wait for each other."""
    return game_id % 2**31


class _Control:
    """One connection of its own for the advisory locks and for LISTEN.

    Session locks belong to a connection, so they cannot come from the pool; one connection is
    enough because a lock is only ever tried (pg_try_advisory_lock answers at once) and a waiting
    click polls, instead of holding a connection while it waits.
    """

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._conn: asyncpg.Connection | None = None
        self._use = asyncio.Lock()
        self._listeners: list[Callable[[float], None]] = []
        #: the connection LISTENing, if any (a new connection must LISTEN again)
        self._listening: asyncpg.Connection | None = None
        self._pending: set[asyncio.Task[None]] = set()
        self._closed = False

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._pending.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._pending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("store control connection: %s", task.exception())

    async def _connection(self) -> asyncpg.Connection:
        """The connection, opened again if the server dropped it (its locks went with it)."""
        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(self._dsn)
            self._conn.add_termination_listener(self._lost)
        if self._listeners and self._listening is not self._conn:
            await self._conn.add_listener(DEADLINE_CHANNEL, self._heard)
            self._listening = self._conn
        return self._conn

    def _lost(self, _conn: object) -> None:
        """Reconnect at once when listening, so deadlines written elsewhere keep waking us."""
        if not self._closed and self._listeners:
            self.spawn(self._reconnect())

    async def _reconnect(self) -> None:
        delay = 0.5
        while not self._closed:
            try:
                async with self._use:
                    await self._connection()
                return
            except (OSError, asyncpg.PostgresError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)

    async def take(self, game_id: int) -> None:
        """The game's advisory lock. A connection the server dropped is opened again (its
        locks went with it); one that cannot be had, a few times in a row, is StoreUnavailable."""
        delay, failed = 0.002, 0
        while True:
            async with self._use:
                try:
                    conn = await self._connection()
                    if await conn.fetchval("SELECT pg_try_advisory_lock($1::int, $2::int)", LOCK_SPACE,
                                           _game_key(game_id)):
                        return
                    failed = 0
                except LOST as exc:
                    failed += 1
                    await self._drop()
                    if failed >= LOCK_TRIES:
                        raise _unavailable(exc) from exc
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.05)

    async def _drop(self) -> None:
        """Forget a connection the server dropped, so the next use opens a new one."""
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.terminate()

    async def give_back(self, game_id: int) -> None:
        try:
            async with self._use:
                if self._conn is None or self._conn.is_closed():
                    return  # the session ended, and its locks with it
                await self._conn.fetchval("SELECT pg_advisory_unlock($1::int, $2::int)", LOCK_SPACE, _game_key(game_id))
        except (asyncpg.PostgresError, *LOST) as exc:
            log.info("advisory lock of game %s released with its connection (%s)", game_id, exc)

    def give_back_soon(self, game_id: int) -> None:
        """asyncio.Lock.release() cannot wait: the unlock runs right after. Session locks count,
        so a click of this process that takes the lock again first only makes the count two."""
        self.spawn(self.give_back(game_id))

    async def listen(self, written: Callable[[float], None]) -> None:
        self._listeners.append(written)
        async with self._use:
            await self._connection()

    def _heard(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        try:
            due = float(payload)
        except ValueError:
            return
        for written in self._listeners:
            written(due)

    async def close(self) -> None:
        self._closed = True
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=2.0)
        if self._conn is not None and not self._conn.is_closed():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._conn.close(), 2.0)


class SharedGameLock(asyncio.Lock):
    """A game's lock across processes: the in-process lock first (clicks of this process queue
    in order, as on SQLite), then the game's advisory lock on the shared server."""

    def __init__(self, control: _Control, game_id: int) -> None:
        super().__init__()
        self._control = control
        self._game_id = game_id

    async def acquire(self) -> Literal[True]:
        await super().acquire()
        try:
            await self._control.take(self._game_id)
        except BaseException:
            super().release()
            raise
        return True

    def release(self) -> None:
        self._control.give_back_soon(self._game_id)
        super().release()


class _Pool:
    """The connection pool, where a connection the server dropped costs no more than it must.

    A pooled connection the server ended while it sat idle (a restart, an administrator ending
    them) is found out only when it is used, and then closed for the pool to open another. A
    statement that met one is sent again and a transaction run again (the server rolled it
    back), until every connection the pool held has had its turn; past that, or when the
    connection is lost in a COMMIT (whether it happened is unknown), it is StoreUnavailable.
    A save tried again is kept from counting twice by its interaction id and version check."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @staticmethod
    def _lost(exc: BaseException, attempt: int) -> None:
        """Go on to the next try, or give up."""
        if attempt + 1 >= TRIES:
            raise _unavailable(exc) from exc
        if attempt == 0:
            log.info("a database connection was lost (%s); trying again on another", exc)

    async def _release(self, conn: asyncpg.Connection) -> None:
        with contextlib.suppress(*LOST):  # a dead connection is terminated, and its place freed
            await self._pool.release(conn)

    async def _statement(self, method: str, query: str, *args: Any) -> Any:
        for attempt in range(TRIES):
            try:
                return await getattr(self._pool, method)(query, *args)
            except LOST as exc:
                self._lost(exc, attempt)
        raise AssertionError("unreachable")

    async def fetchval(self, query: str, *args: Any) -> Any:
        return await self._statement("fetchval", query, *args)

    async def fetchrow(self, query: str, *args: Any) -> Any:
        return await self._statement("fetchrow", query, *args)

    async def fetch(self, query: str, *args: Any) -> list[Any]:
        return list(await self._statement("fetch", query, *args))

    async def execute(self, query: str, *args: Any) -> str:
        return str(await self._statement("execute", query, *args))

    @contextlib.asynccontextmanager
    async def acquire(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection for a few reads (lost: StoreUnavailable)."""
        try:
            async with self._pool.acquire() as conn:
                yield conn
        except LOST as exc:
            raise _unavailable(exc) from exc

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection in a transaction, for work not worth running again (lost: StoreUnavailable)."""
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                yield conn
        except LOST as exc:
            raise _unavailable(exc) from exc

    async def transact(self, work: Callable[[asyncpg.Connection], Awaitable[T]],
                       applied: Callable[[asyncpg.Connection], Awaitable[bool]] | None = None) -> T:
        """``work`` in one transaction, run again on another connection when its own is lost
        before COMMIT. Lost in COMMIT, ``applied`` asks another connection whether it happened
        (without it: StoreUnavailable)."""
        for attempt in range(TRIES):
            try:
                conn = await self._pool.acquire()
            except LOST as exc:  # no connection can be opened: the server is not there
                raise _unavailable(exc) from exc
            try:
                began = conn.transaction()
                try:
                    await began.start()
                    out = await work(conn)
                except LOST as exc:
                    self._lost(exc, attempt)
                    continue
                except BaseException:
                    with contextlib.suppress(*LOST):
                        await began.rollback()
                    raise
                try:
                    await began.commit()
                except LOST as exc:
                    if applied is None:
                        raise _unavailable(exc) from exc
                    await self._release(conn)
                    conn = None
                    if await self._settled(applied, exc):
                        return out
                    self._lost(exc, attempt)
                    continue
                return out
            finally:
                if conn is not None:
                    await self._release(conn)
        raise AssertionError("unreachable")

    async def _settled(self, applied: Callable[[asyncpg.Connection], Awaitable[bool]], exc: BaseException) -> bool:
        """Whether a transaction whose COMMIT lost its connection happened, asked on another."""
        for _ in range(TRIES):
            try:
                async with self._pool.acquire() as conn:
                    return await applied(conn)
            except LOST:
                continue
        raise _unavailable(exc) from exc

    async def close(self) -> None:
        await self._pool.close()


class PostgresStore(Store):
    dialect: ClassVar[Dialect] = "postgres"

    def __init__(self, pool: asyncpg.Pool, control: _Control) -> None:
        self._pool = _Pool(pool)
        self._control = control
        self._watching = False
        # games that ended before this were pruned already by this process (see SqliteStore)
        self._pruned_before = float("-inf")

    @classmethod
    async def open(cls, dsn: str) -> PostgresStore:
        pool = await asyncpg.create_pool(dsn, min_size=1, max_size=POOL_SIZE)
        store = cls(pool, _Control(dsn))
        try:
            await store._migrate()
            await store._forget_clicks(time.time())
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._control.close()
        await self._pool.close()

    async def _migrate(self) -> None:
        async with self._pool.transaction() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS boneyard_schema"
                " (version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            current = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM boneyard_schema")
            known = _migrations("postgres")[-1][0]
            if current > known:
                raise SchemaTooNew(current, known)
            for number, sql in _migrations("postgres"):
                if number <= current:
                    continue
                await conn.execute(sql)
                await conn.execute("INSERT INTO boneyard_schema (version, applied_at) VALUES ($1, $2)",
                                   number, time.time())

    async def schema_version(self) -> int:
        return int(await self._pool.fetchval("SELECT COALESCE(MAX(version), 0) FROM boneyard_schema"))

    # -- reading -----------------------------------------------------------------------------

    async def table_json(self, game_id: int) -> str | None:
        text: str | None = await self._pool.fetchval("SELECT table_json FROM games WHERE id=$1", game_id)
        return text

    async def book(self, game_id: int) -> Book:
        text = await self._pool.fetchval("SELECT book_json FROM books WHERE game_id=$1", game_id)
        return Book.model_validate_json(text) if text is not None else Book()

    async def live_in_channel(self, channel_id: int) -> Table | None:
        text = await self._pool.fetchval(
            "SELECT table_json FROM games WHERE channel_id=$1 AND status IN ('lobby','active')", channel_id)
        return Table.model_validate_json(text) if text is not None else None

    async def live_in_guild(self, guild_id: int) -> list[int]:
        rows = await self._pool.fetch("SELECT id FROM games WHERE guild_id=$1 AND status IN ('lobby','active')",
                                      guild_id)
        return [int(r[0]) for r in rows]

    async def live_channels(self) -> list[tuple[int, int, int]]:
        rows = await self._pool.fetch("SELECT id, guild_id, channel_id FROM games WHERE status IN ('lobby','active')")
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]

    async def latest_in_channel(self, channel_id: int) -> Table | None:
        text = await self._pool.fetchval(
            "SELECT table_json FROM games WHERE channel_id=$1"
            " ORDER BY status IN ('lobby','active') DESC, id DESC LIMIT 1",
            channel_id,
        )
        return Table.model_validate_json(text) if text is not None else None

    async def recent_log(self, game_id: int, limit: int = 15) -> list[LogEntry]:
        rows = await self._pool.fetch(
            "SELECT version, seat, user_id, action, events, chapter FROM actions"
            " WHERE game_id=$1 ORDER BY version DESC LIMIT $2",
            game_id, None if limit < 0 else limit,
        )
        return [
            LogEntry(
                version=r[0], seat=r[1], user_id=r[2],
                action=json.loads(r[3]), events=json.loads(r[4]), chapter=r[5],
            )
            for r in reversed(rows)
        ]

    async def interaction_seen(self, interaction_id: int) -> bool:
        return await self._pool.fetchval("SELECT 1 FROM interactions WHERE id=$1", interaction_id) is not None

    async def games_left_behind(self, ended_since: float) -> list[int]:
        behind = "COALESCE((b.book_json::jsonb ->> 'shown')::int, -1) < g.version"
        rows = await self._pool.fetch(
            f"SELECT g.id FROM games g LEFT JOIN books b ON b.game_id=g.id WHERE g.status='active' AND {behind}"
            " UNION ALL SELECT g.id FROM games g LEFT JOIN books b ON b.game_id=g.id"
            " WHERE g.status='lobby' AND b.game_id IS NULL"
            " UNION ALL SELECT g.id FROM games g LEFT JOIN books b ON b.game_id=g.id"
            f" WHERE g.status IN ('finished', 'cancelled') AND g.updated_at>$1 AND b.game_id IS NOT NULL"
            f" AND {behind} ORDER BY 1",
            ended_since)
        return [int(r[0]) for r in rows]

    async def next_deadline(self) -> tuple[int, int, float] | None:
        row = await self._pool.fetchrow(f"SELECT game_id, version, {_NEXT} FROM deadlines ORDER BY {_NEXT} LIMIT 1")
        return (row[0], row[1], row[2]) if row else None

    async def deadline_of(self, game_id: int) -> float | None:
        due = await self._pool.fetchval("SELECT due_at FROM deadlines WHERE game_id=$1", game_id)
        return float(due) if due is not None else None

    async def postpone_overdue(self, now: float, until: float) -> int:
        status = await self._pool.execute(f"UPDATE deadlines SET due_at=$1 WHERE {_NEXT}<$2", until, now)
        return int(status.split()[-1])

    async def due_deadlines(self, now: float) -> list[tuple[int, int]]:
        rows = await self._pool.fetch(
            "UPDATE deadlines d SET claimed_until=$2"
            f" FROM (SELECT game_id FROM deadlines WHERE {_NEXT}<=$1"
            f"       ORDER BY {_NEXT} LIMIT 500 FOR UPDATE SKIP LOCKED) due"
            " WHERE d.game_id=due.game_id RETURNING d.game_id, d.version, d.due_at",
            now, now + CLAIM_SECONDS,
        )
        return [(r[0], r[1]) for r in sorted(rows, key=lambda r: (r[2], r[0]))]

    async def stats(self, guild_id: int, user_id: int) -> list[tuple[str, int, int]]:
        rows = await self._pool.fetch(
            "SELECT game, played, won FROM player_stats WHERE user_id=$1 AND guild_id=$2 ORDER BY game",
            user_id, guild_id,
        )
        return [(r[0], int(r[1]), int(r[2])) for r in rows]

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[tuple[str, int, int, int]]:
        # each game's first rows of the board index, the games found by a skip scan
        rows = await self._pool.fetch(
            "WITH RECURSIVE g(game) AS ("
            " SELECT MIN(game) FROM player_stats WHERE guild_id=$1"
            " UNION ALL SELECT (SELECT MIN(game) FROM player_stats WHERE guild_id=$1 AND game>g.game)"
            " FROM g WHERE g.game IS NOT NULL)"
            " SELECT g.game, p.user_id, p.played, p.won FROM g CROSS JOIN LATERAL ("
            "  SELECT user_id, played, won FROM player_stats WHERE guild_id=$1 AND game=g.game"
            "  ORDER BY won DESC, played, user_id LIMIT $2) p"
            " WHERE g.game IS NOT NULL ORDER BY g.game, p.won DESC, p.played, p.user_id",
            guild_id, limit,
        )
        return [(r[0], int(r[1]), int(r[2]), int(r[3])) for r in rows]

    # -- writing -----------------------------------------------------------------------------

    async def game_counts(self) -> dict[str, int]:
        rows = await self._pool.fetch("SELECT status, COUNT(*) FROM games GROUP BY status")
        return {row[0]: int(row[1]) for row in rows}

    async def deadlines_due(self, now: float) -> int:
        return int(await self._pool.fetchval(f"SELECT COUNT(*) FROM deadlines WHERE {_NEXT}<=$1", now) or 0)

    async def ping(self) -> None:
        await self._pool.fetchval("SELECT 1")

    async def create(self, table: Table) -> Table:
        now = time.time()
        table = table.model_copy(update={"created_at": now, "updated_at": now, "version": 0})

        async def write(conn: asyncpg.Connection) -> None:
            table.id = await conn.fetchval(
                "INSERT INTO games (guild_id, channel_id, game, status, version, table_json,"
                " created_at, updated_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING id",
                table.guild_id, table.channel_id, table.game, table.status, 0, "{}", now, now,
            )
            await conn.execute("UPDATE games SET table_json=$1 WHERE id=$2", table_text(table), table.id)

        try:
            await self._pool.transact(write)
        except asyncpg.UniqueViolationError as exc:
            raise ChannelBusy(str(exc)) from exc
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
        now = time.time()
        table.updated_at = now
        text = table_text(table)
        entries = log_rows(table.id, log, now)

        async def write(conn: asyncpg.Connection) -> None:
            if interaction_id is not None:
                status = await conn.execute(
                    "INSERT INTO interactions (id, game_id, at) VALUES ($1,$2,$3) ON CONFLICT (id) DO NOTHING",
                    interaction_id, table.id, now,
                )
                if status.endswith(" 0"):
                    raise DuplicateInteraction(str(interaction_id))
            # As on SQLite: the status and the time (indexed) are written only when the status
            # changes, so a move's new row needs no index entry of its own (a HOT update).
            status = await conn.execute(
                "UPDATE games SET version=$1, table_json=$2 WHERE id=$3 AND version=$4 AND status=$5",
                table.version, text, table.id, expected_version, table.status,
            )
            if status != "UPDATE 1":
                status = await conn.execute(
                    "UPDATE games SET status=$1, version=$2, table_json=$3, updated_at=$4 WHERE id=$5 AND version=$6",
                    table.status, table.version, text, now, table.id, expected_version,
                )
            if status != "UPDATE 1":
                raise VersionConflict(f"game {table.id} is no longer at version {expected_version}")
            if entries:
                await conn.executemany(
                    "INSERT INTO actions (game_id, version, seat, user_id, action, events, chapter, at)"
                    " VALUES ($1,$2,$3,$4,$5,$6,$7,$8)", entries)
            if isinstance(deadline, float) and table.live:
                await conn.execute(
                    "INSERT INTO deadlines (game_id, version, due_at, claimed_until) VALUES ($1,$2,$3,NULL)"
                    " ON CONFLICT (game_id) DO UPDATE"
                    " SET version=EXCLUDED.version, due_at=EXCLUDED.due_at, claimed_until=NULL",
                    table.id, table.version, deadline,
                )
                # delivered on commit, to every process listening (this one too, harmlessly)
                await conn.execute("SELECT pg_notify($1, $2)", DEADLINE_CHANNEL, repr(deadline))
            elif deadline != "keep" or not table.live:
                await conn.execute("DELETE FROM deadlines WHERE game_id=$1", table.id)
            if results:
                # a result written again (the same seat) first takes back what it counted
                seats = {r["seat"] for r in results}
                replaced = [(r["user_id"], r["guild_id"], r["game"], r["rank"]) for r in await conn.fetch(
                    "SELECT seat, user_id, guild_id, game, rank FROM results WHERE game_id=$1", table.id)
                    if r["seat"] in seats]
                await conn.executemany(
                    "INSERT INTO results (game_id, guild_id, game, seat, user_id, rank, score, finished_at)"
                    " VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT (game_id, seat) DO UPDATE SET"
                    " guild_id=EXCLUDED.guild_id, game=EXCLUDED.game, user_id=EXCLUDED.user_id,"
                    " rank=EXCLUDED.rank, score=EXCLUDED.score, finished_at=EXCLUDED.finished_at",
                    [(table.id, table.guild_id, table.game, r["seat"], r["user_id"], r["rank"], r["score"], now)
                     for r in results],
                )
                await _count(conn, tally(replaced, [(r["user_id"], table.guild_id, table.game, r["rank"])
                                                    for r in results]))

        async def applied(conn: asyncpg.Connection) -> bool:
            return bool(await conn.fetchval("SELECT table_json=$2 FROM games WHERE id=$1", table.id, text))

        await self._pool.transact(write, applied)
        return text

    async def put_book(self, game_id: int, book: Book) -> None:
        await self._pool.execute(
            "INSERT INTO books (game_id, book_json) VALUES ($1,$2)"
            " ON CONFLICT (game_id) DO UPDATE SET book_json=EXCLUDED.book_json", game_id, book_text(book))

    async def hold_interaction(self, interaction_id: int, game_id: int) -> None:
        await self._pool.execute("INSERT INTO interactions (id, game_id, at) VALUES ($1,$2,$3)"
                                 " ON CONFLICT (id) DO NOTHING", interaction_id, game_id, time.time())

    async def drop_deadline(self, game_id: int, version: int) -> None:
        await self._pool.execute("DELETE FROM deadlines WHERE game_id=$1 AND version=$2", game_id, version)

    # -- working beside other processes ------------------------------------------------------

    def game_lock(self, game_id: int) -> asyncio.Lock:
        return SharedGameLock(self._control, game_id)

    def watch_deadlines(self, written: Callable[[float], None]) -> None:
        """Every process hears every deadline written, so the earliest one wakes them all and
        the first to claim it fires it."""
        self._control.spawn(self._control.listen(written))

    # -- a server's settings, saved rolls and the rolls made -----------------------------------

    async def server_settings(self, guild_id: int) -> ServerSettings:
        text = await self._pool.fetchval("SELECT settings_json FROM server_settings WHERE guild_id=$1", guild_id)
        return ServerSettings.model_validate_json(text) if text is not None else ServerSettings(guild_id=guild_id)

    async def put_server_settings(self, settings: ServerSettings) -> None:
        await self._pool.execute(
            "INSERT INTO server_settings (guild_id, settings_json) VALUES ($1,$2)"
            " ON CONFLICT (guild_id) DO UPDATE SET settings_json=EXCLUDED.settings_json",
            settings.guild_id, settings.model_dump_json())

    async def saved_rolls(self, guild_id: int, user_id: int) -> list[SavedRoll]:
        rows = await self._pool.fetch(
            "SELECT roll_json FROM saved_rolls WHERE guild_id=$1 AND user_id=$2 ORDER BY name", guild_id, user_id)
        return [SavedRoll.model_validate_json(r[0]) for r in rows]

    async def put_saved_roll(self, roll: SavedRoll, limit: int) -> bool:
        async with self._pool.transaction() as conn:
            # two processes saving for one owner at once must not both pass the count
            await conn.execute("SELECT pg_advisory_xact_lock($1::int, $2::int)", SAVED_ROLLS_LOCK,
                               (roll.guild_id * 31 + roll.user_id) % 2**31)
            replaced = await conn.fetchval("SELECT 1 FROM saved_rolls WHERE guild_id=$1 AND user_id=$2 AND name=$3",
                                           roll.guild_id, roll.user_id, roll.name) is not None
            if not replaced:
                kept = await conn.fetchval("SELECT COUNT(*) FROM saved_rolls WHERE guild_id=$1 AND user_id=$2",
                                           roll.guild_id, roll.user_id)
                if kept >= limit:
                    raise LimitReached(f"{kept} saved rolls")
            await conn.execute(
                "INSERT INTO saved_rolls (guild_id, user_id, name, roll_json, updated_at) VALUES ($1,$2,$3,$4,$5)"
                " ON CONFLICT (guild_id, user_id, name) DO UPDATE"
                " SET roll_json=EXCLUDED.roll_json, updated_at=EXCLUDED.updated_at",
                roll.guild_id, roll.user_id, roll.name, roll.model_dump_json(), time.time())
        return replaced

    async def delete_saved_roll(self, guild_id: int, user_id: int, name: str) -> bool:
        status = await self._pool.execute("DELETE FROM saved_rolls WHERE guild_id=$1 AND user_id=$2 AND name=$3",
                                          guild_id, user_id, name)
        return status != "DELETE 0"

    async def record_roll(self, roll: StoredRoll, faces: dict[tuple[int, int], int], keep: int) -> StoredRoll:
        roll = roll.model_copy(update={"at": time.time()})
        async with self._pool.transaction() as conn:
            row = await conn.fetchrow(
                "INSERT INTO rolls (guild_id, user_id, n, hidden, at, roll_json) VALUES ($1, $2,"
                " (SELECT COALESCE(MAX(n), 0) + 1 FROM rolls WHERE guild_id=$1 AND user_id=$2), $3, $4, $5)"
                " RETURNING id, n",
                roll.guild_id, roll.user_id, roll.hidden, roll.at, roll.model_dump_json(exclude={"id", "revealed"}))
            if faces:
                await conn.executemany(
                    "INSERT INTO roll_faces (roll_id, guild_id, user_id, hidden, sides, face, count)"
                    " VALUES ($1,$2,$3,$4,$5,$6,$7)",
                    [(row["id"], roll.guild_id, roll.user_id, roll.hidden, sides, face, count)
                     for (sides, face), count in faces.items()])
            n = row["n"]
            if n % PRUNE_EVERY == 0 and n > keep:
                await conn.execute("DELETE FROM rolls WHERE guild_id=$1 AND user_id=$2 AND n<=$3",
                                   roll.guild_id, roll.user_id, n - keep)
        return roll.model_copy(update={"id": int(row["id"])})

    async def stored_roll(self, roll_id: int) -> StoredRoll | None:
        row = await self._pool.fetchrow("SELECT id, revealed, roll_json FROM rolls WHERE id=$1", roll_id)
        return _stored(row[0], row[1], row[2]) if row else None

    async def mark_revealed(self, roll_id: int) -> bool:
        status = await self._pool.execute("UPDATE rolls SET revealed=TRUE WHERE id=$1 AND NOT revealed", roll_id)
        return status == "UPDATE 1"

    async def roll_history(self, guild_id: int, user_id: int, limit: int = 20) -> list[StoredRoll]:
        rows = await self._pool.fetch(
            "SELECT id, revealed, roll_json FROM rolls WHERE guild_id=$1 AND user_id=$2"
            " ORDER BY n DESC LIMIT $3", guild_id, user_id, limit)
        return [_stored(r[0], r[1], r[2]) for r in rows]

    async def luck(self, guild_id: int, user_id: int, *, hidden: bool) -> Luck:
        async with self._pool.acquire() as conn:
            rolls = await conn.fetchval(
                "SELECT COUNT(*) FROM rolls WHERE guild_id=$1 AND user_id=$2 AND (NOT hidden OR $3)",
                guild_id, user_id, hidden)
            rows = await conn.fetch(
                "SELECT sides, face, SUM(count) FROM roll_faces WHERE guild_id=$1 AND user_id=$2"
                " AND (NOT hidden OR $3) GROUP BY sides, face", guild_id, user_id, hidden)
        luck = Luck(rolls=int(rolls or 0))
        for sides, face, count in rows:
            luck.faces.setdefault(int(sides), {})[int(face)] = int(count)
        return luck

    async def forget_rolls(self, guild_id: int, user_id: int) -> int:
        status = await self._pool.execute("DELETE FROM rolls WHERE guild_id=$1 AND user_id=$2", guild_id, user_id)
        return int(status.split()[-1])

    # -- keeping the data bounded, and forgetting ----------------------------------------------

    async def prune(self, now: float, keep_days: float) -> int:
        """A batch of games per transaction, as on SQLite; several processes pruning at once
        only delete nothing twice."""
        cutoff = now - keep_days * 86400
        ids = [r[0] for r in await self._pool.fetch(
            "SELECT id FROM games WHERE status IN ('finished','cancelled') AND updated_at<$1 AND updated_at>=$2",
            cutoff, self._pruned_before)]
        deleted = 0
        for start in range(0, len(ids), PRUNE_BATCH):
            status = await self._pool.execute("DELETE FROM actions WHERE game_id = ANY($1::bigint[])",
                                              ids[start:start + PRUNE_BATCH])
            deleted += int(status.split()[-1])
        self._pruned_before = max(self._pruned_before, cutoff)
        await self._forget_clicks(now)
        return deleted

    async def _forget_clicks(self, now: float) -> None:
        """As SqliteStore's: the ids older than INTERACTIONS_KEPT, a batch per transaction."""
        before = first_id_at(now - INTERACTIONS_KEPT)
        while True:
            status = await self._pool.execute(
                "DELETE FROM interactions WHERE id IN (SELECT id FROM interactions WHERE id<$1 ORDER BY id LIMIT $2)",
                before, INTERACTIONS_BATCH)
            if int(status.split()[-1]) < INTERACTIONS_BATCH:
                return

    async def player_data(self, user_id: int) -> dict[str, int]:
        async with self._pool.acquire() as conn:
            return await _player_data(conn, user_id)

    async def forget_player(self, user_id: int) -> dict[str, int]:
        async with self._pool.transaction() as conn:
            done = await _player_data(conn, user_id)
            # results are written when a game finishes: these are the finished games they sat in
            games = [r[0] for r in await conn.fetch("SELECT DISTINCT game_id FROM results WHERE user_id=$1", user_id)]
            for start in range(0, len(games), PRUNE_BATCH):
                batch = games[start:start + PRUNE_BATCH]
                rows = await conn.fetch("SELECT id, table_json FROM games WHERE id = ANY($1::bigint[]) FOR UPDATE",
                                        batch)
                await conn.executemany("UPDATE games SET table_json=$1 WHERE id=$2",
                                       [(without_player(r["table_json"], user_id), r["id"]) for r in rows])
                books = await conn.fetch("SELECT game_id, book_json FROM books WHERE game_id = ANY($1::bigint[])"
                                         " FOR UPDATE", batch)
                await conn.executemany("UPDATE books SET book_json=$1 WHERE game_id=$2",
                                       [(book_without_player(r["book_json"], user_id), r["game_id"]) for r in books])
                for table in ("results", "actions"):
                    await conn.execute(f"UPDATE {table} SET user_id=NULL WHERE user_id=$1"
                                       " AND game_id = ANY($2::bigint[])", user_id, batch)
            for table in ("player_stats", "saved_rolls", "rolls"):  # a roll's faces go with it
                await conn.execute(f"DELETE FROM {table} WHERE user_id=$1", user_id)
        return done

    async def mark_guild_left(self, guild_id: int, at: float) -> None:
        await self._pool.execute("INSERT INTO guilds_left (guild_id, left_at) VALUES ($1,$2)"
                                 " ON CONFLICT (guild_id) DO NOTHING", guild_id, at)

    async def mark_guild_back(self, guild_id: int) -> None:
        await self._pool.execute("DELETE FROM guilds_left WHERE guild_id=$1", guild_id)

    async def guilds_hosted(self) -> set[int]:
        rows = await self._pool.fetch("SELECT DISTINCT guild_id FROM games UNION SELECT guild_id FROM server_settings")
        return {int(r[0]) for r in rows if r[0]}

    async def guilds_left(self) -> dict[int, float]:
        return {int(r[0]): float(r[1]) for r in await self._pool.fetch("SELECT guild_id, left_at FROM guilds_left")}

    async def command_guilds(self) -> set[int]:
        return {int(r[0]) for r in await self._pool.fetch("SELECT guild_id FROM command_guilds")}

    async def put_command_guilds(self, guilds: set[int]) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("DELETE FROM command_guilds")
            await conn.executemany("INSERT INTO command_guilds (guild_id) VALUES ($1)", [(g,) for g in sorted(guilds)])

    async def forget_guilds_left_before(self, t: float) -> int:
        """One server per transaction; a server another process forgets meanwhile is not counted twice."""
        gone = [r[0] for r in await self._pool.fetch("SELECT guild_id FROM guilds_left WHERE left_at<$1", t)]
        forgotten = 0
        for guild_id in gone:
            async with self._pool.transaction() as conn:
                if await conn.execute("DELETE FROM guilds_left WHERE guild_id=$1 AND left_at<$2",
                                      guild_id, t) == "DELETE 0":
                    continue
                games = [r[0] for r in await conn.fetch("SELECT id FROM games WHERE guild_id=$1", guild_id)]
                for start in range(0, len(games), PRUNE_BATCH):
                    batch = games[start:start + PRUNE_BATCH]
                    for table in ("actions", "deadlines", "results", "books"):
                        await conn.execute(f"DELETE FROM {table} WHERE game_id = ANY($1::bigint[])", batch)
                    await conn.execute("DELETE FROM games WHERE id = ANY($1::bigint[])", batch)
                for table in ("player_stats", "server_settings", "saved_rolls", "rolls"):
                    await conn.execute(f"DELETE FROM {table} WHERE guild_id=$1", guild_id)
                forgotten += 1
        return forgotten


async def _count(conn: asyncpg.Connection, change: Tally) -> None:
    """The per-server totals, changed in the transaction that writes the results."""
    if not change:
        return
    await conn.executemany(
        "INSERT INTO player_stats (user_id, guild_id, game, played, won) VALUES ($1,$2,$3,$4,$5)"
        " ON CONFLICT (user_id, guild_id, game) DO UPDATE"
        " SET played=player_stats.played+EXCLUDED.played, won=player_stats.won+EXCLUDED.won",
        [(*key, played, won) for key, (played, won) in change.items()])
    gone = [key for key, (played, _) in change.items() if played < 0]
    if gone:
        await conn.executemany("DELETE FROM player_stats WHERE user_id=$1 AND guild_id=$2 AND game=$3 AND played<=0",
                               gone)


async def _player_data(conn: asyncpg.Connection, user_id: int) -> dict[str, int]:
    """What forgetting a player deletes or changes, counted (see PLAYER_DATA)."""
    queries = {
        "games": "SELECT COUNT(DISTINCT game_id) FROM results WHERE user_id=$1",
        "stats": "SELECT COUNT(*) FROM player_stats WHERE user_id=$1",
        "saved_rolls": "SELECT COUNT(*) FROM saved_rolls WHERE user_id=$1",
        "rolls": "SELECT COUNT(*) FROM rolls WHERE user_id=$1",
    }
    return {key: int(await conn.fetchval(queries[key], user_id)) for key in PLAYER_DATA}


def _stored(roll_id: int, revealed: bool, text: str) -> StoredRoll:
    return StoredRoll.model_validate_json(text).model_copy(update={"id": int(roll_id), "revealed": bool(revealed)})
