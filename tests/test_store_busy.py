"""A SQLite file another program keeps locked: the store turns the write away as
StoreUnavailable, writes nothing of it, keeps what the channel already shows, and works again
once the lock is gone. The deadline task keeps a timer it could not apply."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

import bot.store.sqlite as sqlite_store
from bot import deadlines
from bot.models import Book, LogEntry, Seat, Table
from bot.store import SqliteStore, StoreUnavailable


def _table(channel: int = 10) -> Table:
    return Table(guild_id=1, channel_id=channel, game="knucklebones", host_id=7,
                 seats=[Seat(user_id=7, name="Ann")], seed=42)


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy timeout of a fifth of a second, so a test does not wait five."""
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT", 0.2)


class Holder:
    """Another program's connection to the same file, holding its write lock."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)

    def __enter__(self) -> Holder:
        self.conn.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.execute("ROLLBACK")


@pytest.fixture
def path(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "games.sqlite3"


async def test_a_locked_database_turns_a_move_away_and_writes_nothing_of_it(quick: None, path: Path) -> None:
    store = await SqliteStore.open(path)
    try:
        table = await store.create(_table())
        moved = table.model_copy(update={"version": 1, "status": "active"})
        entry = LogEntry(version=1, seat=0, user_id=7, action={"x": 1}, events=[])
        with Holder(path):
            with pytest.raises(StoreUnavailable):
                await store.save(moved, 0, log=[entry], interaction_id=555)
            with pytest.raises(StoreUnavailable):  # not "cannot rollback": nothing had begun
                await store.create(_table(channel=11))
        with sqlite3.connect(path) as conn:
            assert conn.execute("SELECT version FROM games WHERE id=?", (table.id,)).fetchone()[0] == 0
            assert conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 0
            assert conn.execute("SELECT COUNT(*) FROM interactions").fetchone()[0] == 0
        assert (await store.get(table.id or 0)).version == 0  # type: ignore[union-attr]
        # the lock gone, the same move (the same interaction) goes through
        await store.save(moved, 0, log=[entry], interaction_id=555)
        assert (await store.get(table.id or 0)).version == 1  # type: ignore[union-attr]
    finally:
        await store.close()


async def test_a_book_the_locked_database_did_not_take_is_kept_and_written_with_the_next(
        quick: None, path: Path) -> None:
    """A book records what the channel already shows: losing it would make the bot forget
    which message is the live table."""
    store = await SqliteStore.open(path)
    try:
        table = await store.create(_table())
        with Holder(path):
            await store.put_book(table.id or 0, Book(message_id=42))  # no error: kept
        assert (await store.book(table.id or 0)).message_id == 42
        await store.put_book(table.id or 0, Book(message_id=43))
    finally:
        await store.close()
    again = await SqliteStore.open(path)
    try:
        assert (await again.book(table.id or 0)).message_id == 43
    finally:
        await again.close()


async def test_a_timer_the_store_could_not_apply_is_kept_to_fire_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline task drops a timer it applied or that can never apply, never one whose
    write the store turned away: the game would wait for ever."""
    dropped: list[tuple[int, int]] = []
    tried: list[int] = []

    class Store:
        async def postpone_overdue(self, now: float, until: float) -> int:
            return 0

        async def due_deadlines(self, now: float) -> list[tuple[int, int]]:
            return [(1, 4)] if not tried else []

        async def drop_deadline(self, game_id: int, version: int) -> None:
            dropped.append((game_id, version))

        async def next_deadline(self) -> None:
            return None

    class Runtime:
        store = Store()
        deadline_changed = asyncio.Event()
        next_wake = 0.0

        async def expire(self, game_id: int, version: int) -> None:
            tried.append(game_id)
            raise StoreUnavailable("the database is locked")

    task = asyncio.create_task(deadlines.run_deadlines(Runtime()))  # type: ignore[arg-type]
    for _ in range(100):
        await asyncio.sleep(0.01)
        if tried:
            break
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert tried == [1] and dropped == []


async def test_a_click_write_waits_for_another_programs_lock_off_the_event_loop(path: Path) -> None:
    """A click's rows are written on the event loop itself; while another program holds the
    write lock, the write waits on the connection's thread instead, and the loop goes on
    serving everyone else meanwhile."""
    store = await SqliteStore.open(path)
    try:
        table = await store.create(_table())
        moved = table.model_copy(update={"version": 1, "status": "active"})
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        running = asyncio.create_task(ticker())
        holder = Holder(path).__enter__()
        asyncio.get_running_loop().call_later(0.3, holder.__exit__)
        await store.save(moved, 0, log=[LogEntry(version=1, seat=0, user_id=7, action={}, events=[])])
        await store.put_book(table.id or 0, Book(message_id=99))
        running.cancel()
        assert ticks >= 10, "the event loop stood still while the database was locked"
        with sqlite3.connect(path) as conn:
            assert conn.execute("SELECT version FROM games WHERE id=?", (table.id,)).fetchone()[0] == 1
    finally:
        await store.close()


async def test_the_wal_is_checkpointed_into_the_file_now_and_then(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """SQLite's own checkpoint is off (it would run on the event loop, in a click's commit): the
    store's own runs every CHECKPOINT_EVERY writes, beside the clicks, so the WAL file stops
    growing, even as saves keep landing while it copies."""

    async def wal_after_writes(every: int, path: Path) -> int:
        monkeypatch.setattr(sqlite_store, "CHECKPOINT_EVERY", every)
        store = await SqliteStore.open(path)
        try:
            table = await store.create(_table())
            for version in range(1, 400):
                await store.save(table.model_copy(update={"version": version, "status": "active"}), version - 1)
                await asyncio.sleep(0.0002)  # the rest of a click: its answer, on the network
            return Path(f"{path}-wal").stat().st_size
        finally:
            await store.close()

    checkpointed = await wal_after_writes(10, tmp_path / "a.sqlite3")
    never = await wal_after_writes(10**9, tmp_path / "b.sqlite3")
    assert checkpointed * 5 < never


async def test_the_wal_is_reset_even_when_every_checkpoint_beside_the_clicks_is_overtaken(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """On a slow disk under steady load, a write can land during every checkpoint that runs
    beside the clicks, and SQLite restarts the WAL only from a wholly copied one. Here a reader's
    snapshot, taken just before a write, stands in for that: SQLite copies no frame past it. One
    try in a while then holds the writer's lock, and the WAL stays small."""
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_EVERY", 10)
    path = tmp_path / "a.sqlite3"
    store = await SqliteStore.open(path)
    copy = store._checkpointer.execute_fetchall
    holding: list[bool] = []

    async def overtaken(sql: str) -> Iterable[sqlite3.Row]:
        holding.append(store._lock.locked())
        if holding[-1]:  # no write can land while the writer's lock is held
            return await copy(sql)
        reader = sqlite3.connect(path, isolation_level=None)
        try:
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM games").fetchall()
            writes = store._writes_since_checkpoint
            for _ in range(400):
                if store._writes_since_checkpoint > writes:
                    break
                await asyncio.sleep(0.0005)
            return await copy(sql)
        finally:
            reader.close()

    monkeypatch.setattr(store._checkpointer, "execute_fetchall", overtaken)
    try:
        table = await store.create(_table())
        for version in range(1, 300):
            await store.save(table.model_copy(update={"version": version, "status": "active"}), version - 1)
            await asyncio.sleep(0.0002)
        wal = Path(f"{path}-wal").stat().st_size
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        frames = (wal - 32) // (conn.execute("PRAGMA page_size").fetchone()[0] + 24)
    # a save writes about three pages: without a reset, 300 saves leave about 900 frames
    assert frames < 250, f"the WAL grew to {frames} frames"
    assert True in holding and False in holding


async def test_a_save_never_waits_for_a_checkpoint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The checkpoint runs beside the clicks, on a connection of its own: while one is still
    copying (held here until the saves are done), every save goes through at once."""
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_EVERY", 3)
    path = tmp_path / "a.sqlite3"
    store = await SqliteStore.open(path)
    release = asyncio.Event()
    started: list[int] = []
    copy = store._checkpoint

    async def held() -> None:
        started.append(1)
        await release.wait()
        await copy()

    monkeypatch.setattr(store, "_checkpoint", held)
    try:
        table = await store.create(_table())
        for version in range(1, 30):
            await asyncio.wait_for(store.save(
                table.model_copy(update={"version": version, "status": "active"}), version - 1), 2)
        await asyncio.sleep(0)
        assert started == [1], "one checkpoint at a time, started by the saves and left running"
        release.set()
        assert store._checkpointing is not None
        await store._checkpointing
        with sqlite3.connect(path) as conn:
            assert conn.execute("SELECT version FROM games WHERE id=?", (table.id,)).fetchone()[0] == 29
    finally:
        await store.close()
