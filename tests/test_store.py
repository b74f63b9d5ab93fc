"""The store on both backends, a real SQLite file and a real PostgreSQL server: migrations,
version checks, doubled clicks, failed writes, deadlines and stats behave the same on each. Then
what only a shared server must do: keep two processes' clicks on one game in line, and fire each
deadline once whoever looks."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import discord
import pytest

from bot.models import Book, LogEntry, Seat, Table
from bot.store import (
    CLAIM_SECONDS, ChannelBusy, DuplicateInteraction, SchemaTooNew, SqliteStore, Store, VersionConflict, _migrations, open_store,
    parse_target,
)
from bot.store import postgres as postgres_store
from bot.store import sqlite as sqlite_store
from bot.store.base import INTERACTIONS_KEPT, StoreInUse, book_text, first_id_at, table_text
from bot.store.postgres import PostgresStore


def _table(channel: int = 10, guild: int = 1) -> Table:
    return Table(guild_id=guild, channel_id=channel, game="knucklebones", host_id=7,
                 seats=[Seat(user_id=7, name="Ann")], seed=42)


@dataclass
class Backend:
    """One database the store runs on, and how a test reaches past the store into it."""

    name: str
    url: str
    #: what a write that breaks a constraint raises (a bug: no caller expects it)
    integrity_error: type[Exception]

    async def open(self) -> Store:
        return await open_store(self.url)

    async def sql(self, query: str, *args: object) -> list[tuple]:
        """Run one statement outside the store (``?`` placeholders) and return its rows."""
        if self.name == "sqlite":
            with sqlite3.connect(self.url.removeprefix("sqlite:///")) as conn:
                return [tuple(r) for r in conn.execute(query, args).fetchall()]
        numbered = query
        for n in range(1, query.count("?") + 1):
            numbered = numbered.replace("?", f"${n}", 1)
        conn = await asyncpg.connect(self.url)
        try:
            return [tuple(r) for r in await conn.fetch(numbered, *args)]
        finally:
            await conn.close()

    async def stored(self, game_id: int) -> Table:
        """The game as the database holds it, past any copy the store keeps."""
        rows = await self.sql("SELECT table_json FROM games WHERE id=?", game_id)
        return Table.model_validate_json(rows[0][0])


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        return Backend("sqlite", f"sqlite:///{tmp_path / 'games.sqlite3'}", sqlite3.IntegrityError)
    url = request.getfixturevalue("pg_url")
    return Backend("postgres", url, asyncpg.UniqueViolationError)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    s = await backend.open()
    yield s
    await s.close()


# -- opening ----------------------------------------------------------------------------------


def test_targets() -> None:
    assert parse_target("sqlite:///boneyard.sqlite3").location == "boneyard.sqlite3"
    assert parse_target("sqlite:////var/lib/b.db").location == "/var/lib/b.db"
    assert parse_target(Path("x.db")).dialect == "sqlite"
    pg = parse_target("postgresql://bone:s3cret@db.example:5433/boneyard")
    assert pg.dialect == "postgres" and pg.shown == "postgresql://bone@db.example:5433/boneyard"
    assert "s3cret" not in pg.shown
    with pytest.raises(ValueError):
        parse_target("mysql://x/y")
    # several hosts (a failover list, as asyncpg reads it), and an IPv6 one
    assert parse_target("postgresql://bone:pw@h1:5432,h2:5433/b").shown == "postgresql://bone@h1:5432,h2:5433/b"
    assert parse_target("postgresql://bone:pw@[::1]:5432/b").shown == "postgresql://bone@[::1]:5432/b"


@pytest.mark.parametrize("url", ["postgresql://bone:Hunter2Secret/x@127.0.0.1/b",
                                 "postgresql://bone:Hunter2#Secret@127.0.0.1/b",
                                 "postgresql://bone:pw@db.example:99999/b"])
def test_a_postgres_url_that_reads_wrong_is_refused_without_its_password(url: str) -> None:
    """An unescaped / or # in a password ends the host early, and what follows is read as the
    port: the refusal says what to do, and quotes no part of the URL."""
    with pytest.raises(ValueError, match="percent-encode") as refused:
        parse_target(url)
    assert "Hunter2" not in str(refused.value) and "Secret" not in str(refused.value)


async def test_a_database_a_newer_boneyard_migrated_is_refused(backend: Backend) -> None:
    """Rolled back to an older Boneyard, the bot would misread or overwrite what it does not know
    of: it does not open the store, and says why (the store stays as it was)."""
    latest = _migrations(backend.name)[-1][0]
    await (await backend.open()).close()
    if backend.name == "sqlite":
        with sqlite3.connect(backend.url.removeprefix("sqlite:///")) as conn:
            conn.execute(f"PRAGMA user_version={latest + 1}")
    else:
        await backend.sql("INSERT INTO boneyard_schema (version, applied_at) VALUES (?, 0)", latest + 1)
    with pytest.raises(SchemaTooNew, match=f"schema {latest + 1}, newer than this Boneyard knows \\({latest}\\)"):
        await backend.open()
    if backend.name == "sqlite":
        with sqlite3.connect(backend.url.removeprefix("sqlite:///")) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == latest + 1


async def _stored_before(backend: Backend, schema: int, rows: list[tuple[str, tuple[object, ...]]]) -> None:
    """A database left at an older schema (migrations up to ``schema``) holding ``rows``
    (statements with ``?`` placeholders), as a bot of that time left it."""
    migrations = [(n, sql) for n, sql in _migrations(backend.name) if n <= schema]
    if backend.name == "sqlite":
        with sqlite3.connect(backend.url.removeprefix("sqlite:///")) as conn:
            for number, sql in migrations:
                conn.executescript(sql)
                conn.execute(f"PRAGMA user_version={number}")
            for statement, args in rows:
                conn.execute(statement, args)
        return
    conn = await asyncpg.connect(backend.url)
    try:
        await conn.execute("CREATE TABLE boneyard_schema (version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)")
        for number, sql in migrations:
            await conn.execute(sql)
            await conn.execute("INSERT INTO boneyard_schema VALUES ($1, 0)", number)
        for statement, args in rows:
            for n in range(1, statement.count("?") + 1):
                statement = statement.replace("?", f"${n}", 1)
            await conn.execute(statement, *args)
    finally:
        await conn.close()


async def test_a_game_stored_before_books_keeps_what_its_channel_shows(backend: Backend) -> None:
    """Games stored when the table row also held its messages (schema 4) open on the newest
    schema: the game loads, and its book holds the live message, chapter and DM copies."""
    old = {"guild_id": 1, "channel_id": 10, "game": "knucklebones", "status": "active", "host_id": 7,
           "seats": [{"user_id": 7, "name": "Ann", "dm_closed": True}], "options": {}, "seed": 3,
           "state": None, "version": 9, "message_id": 555, "chapter": "Turn 2", "recent": ["x"],
           "turn_events": [{"kind": "score", "text": "Seat 1 scored"}], "dm_copies": {"7": [70, 71]}}
    await _stored_before(backend, 4, [(
        "INSERT INTO games (id, guild_id, channel_id, game, status, version, table_json, created_at,"
        " updated_at) VALUES (1, 1, 10, 'knucklebones', 'active', 9, ?, 0, 0)", (json.dumps(old),))])
    store = await backend.open()
    try:
        table = await store.get(1)
        assert table is not None and table.version == 9 and table.seats[0].name == "Ann"
        assert await store.book(1) == Book(message_id=555, shown=9, chapter="Turn 2", dm_copies={7: [70, 71]},
                                           turn_events=[{"kind": "score", "text": "Seat 1 scored"}])
        assert await store.book(2) == Book()  # nothing delivered yet
    finally:
        await store.close()


async def test_games_stored_under_an_old_engine_key_load_under_the_new(backend: Backend) -> None:
    """Roll the Bones was stored as "roll-the-bones" (schema 5); its games and results move to
    the key every game now has, its package's name."""
    old = _table().model_copy(update={"game": "roll-the-bones", "id": 1}).model_dump_json()
    await _stored_before(backend, 5, [
        ("INSERT INTO games (id, guild_id, channel_id, game, status, version, table_json, created_at,"
         " updated_at) VALUES (1, 1, 10, 'roll-the-bones', 'finished', 3, ?, 0, 0)", (old,)),
        ("INSERT INTO results (game_id, guild_id, game, seat, user_id, rank, score, finished_at)"
         " VALUES (1, 1, 'roll-the-bones', 0, 7, 1, 5, 0)", ())])
    store = await backend.open()
    try:
        table = await store.get(1)
        assert table is not None and table.game == "roll_the_bones"
        assert await store.stats(1, 7) == [("roll_the_bones", 1, 1)]
        assert await backend.sql("SELECT game FROM games") == [("roll_the_bones",)]
    finally:
        await store.close()


async def test_a_book_is_written_whatever_the_game_version(store: Store) -> None:
    table = await store.create(_table())
    await store.put_book(table.id or 0, Book(message_id=1, shown=0))
    await store.put_book(table.id or 0, Book(message_id=2, shown=0))
    assert (await store.book(table.id or 0)).message_id == 2
    again = await store.book(table.id or 0)
    again.dm_copies[5] = [1, 2]  # a copy: changing it changes nothing stored
    assert (await store.book(table.id or 0)).dm_copies == {}


async def test_a_book_written_is_read_back_as_written_whoever_changes_their_copy(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A click reads the book the last one wrote. On SQLite that read is not a parse of the text
    just written; on either backend, neither the writer's copy nor the reader's is shared."""
    table = await store.create(_table())
    game = table.id or 0
    written = Book(message_id=3, turn_events=[{"kind": "keep"}], dm_copies={7: [1, 2, 1]}, dm_closed=[8])
    await store.put_book(game, written)
    written.message_id, written.dm_copies[9], written.dm_closed[5], written.turn_events[:] = 4, [5, 6], "Round 2", []
    parsed: list[str] = []
    if store.dialect == "sqlite":
        real = Book.model_validate_json
        monkeypatch.setattr(Book, "model_validate_json",
                            classmethod(lambda cls, text, **kw: parsed.append(text) or real(text, **kw)))
    read = await store.book(game)
    assert read == Book(message_id=3, turn_events=[{"kind": "keep"}], dm_copies={7: [1, 2, 1]}, dm_closed=[8])
    assert parsed == []
    read.dm_copies.pop(7)
    read.message_id = 5
    again = await store.book(game)  # the first read's changes were never written
    assert again.message_id == 3 and again.dm_copies == {7: [1, 2, 1]}


def test_a_table_and_a_book_are_written_as_pydantic_would_write_them() -> None:
    """The store writes both by orjson, faster, where their values are plain JSON already; what
    it writes must read back as the very same table and book, Discord-sized ids included."""
    from tests.test_straight_line import _knucklebones_table

    table = _knucklebones_table()
    table.id, table.channel_id, table.options = 2**62, 2**63 - 5, {"solo": False}
    assert json.loads(table_text(table)) == json.loads(table.model_dump_json())
    assert Table.model_validate_json(table_text(table)) == table
    book = Book(message_id=2**63 - 1, shown=4, chapter="Turn 2", turn_events=[{"kind": "keep", "data": {"die": 3}}],
                dm_copies={2**62: [1, 2, 1]}, dm_closed=[5], repost=True, owed="x", look="move 4", picture="ab",
                layout=True)
    assert book_text(book) == book.model_dump_json()
    assert Book.model_validate_json(book_text(book)) == book


def test_both_dialects_number_their_migrations_alike() -> None:
    assert [n for n, _ in _migrations("sqlite")] == [n for n, _ in _migrations("postgres")]
    assert [n for n, _ in _migrations("sqlite")] == list(range(1, len(_migrations("sqlite")) + 1))


async def test_migrations_from_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite3"
    store = await open_store(path)
    assert isinstance(store, SqliteStore)
    assert await store.schema_version() == max(n for n, _ in _migrations())
    await store.close()
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "actions", "interactions", "deadlines", "results", "books"} <= tables
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # opening again applies nothing twice
    store = await open_store(path)
    assert await store.schema_version() == max(n for n, _ in _migrations())
    await store.close()


async def test_migrations_on_an_empty_postgres_database(pg_url: str) -> None:
    # two processes starting together: the migrations run once, the other waits for them
    first, second = await asyncio.gather(open_store(pg_url), open_store(pg_url))
    assert isinstance(first, PostgresStore)
    latest = max(n for n, _ in _migrations("postgres"))
    assert await first.schema_version() == await second.schema_version() == latest
    await asyncio.gather(first.close(), second.close())
    conn = await asyncpg.connect(pg_url)
    try:
        tables = {r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname='public'")}
        applied = [r[0] for r in await conn.fetch("SELECT version FROM boneyard_schema ORDER BY version")]
        kinds = dict(await conn.fetch(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name='games'"))
    finally:
        await conn.close()
    assert {"games", "actions", "interactions", "deadlines", "results", "books"} <= tables
    assert applied == list(range(1, latest + 1))
    assert kinds["guild_id"] == "bigint" and kinds["created_at"] == "double precision"


# -- the same behaviour on both ---------------------------------------------------------------


async def test_create_and_reload(store: Store) -> None:
    table = await store.create(_table())
    assert table.id is not None
    again = await store.get(table.id)
    assert again == table
    assert await store.live_in_channel(10) == table
    assert await store.live_in_channel(11) is None
    assert await store.latest_in_channel(10) == table


async def test_discord_sized_ids_round_trip(store: Store) -> None:
    big = 1_300_000_000_000_000_000
    table = await store.create(_table(channel=big + 1, guild=big))
    table.status, table.version = "finished", 1
    await store.save(table, 0, interaction_id=big + 2,
                     results=[{"seat": 0, "user_id": big + 3, "rank": 1, "score": 2**40}])
    assert (await store.get(table.id or 0)) == table
    assert await store.interaction_seen(big + 2)
    assert await store.stats(big, big + 3) == [("knucklebones", 1, 1)]


async def test_one_live_game_per_channel(store: Store) -> None:
    await store.create(_table())
    with pytest.raises(ChannelBusy):
        await store.create(_table())
    other = await store.create(_table(channel=11))
    assert other.id is not None


async def test_version_conflict_leaves_the_stored_state(store: Store) -> None:
    table = await store.create(_table())
    first = table.model_copy(deep=True)
    first.version = 1
    first.options = {"said": ["first"]}
    await store.save(first, 0)
    stale = table.model_copy(deep=True)
    stale.version = 1
    stale.options = {"said": ["stale"]}
    with pytest.raises(VersionConflict):
        await store.save(stale, 0, log=[LogEntry(version=1, seat=0, user_id=7, action={}, events=["x"])])
    stored = await store.get(table.id or 0)
    assert stored is not None and stored.options == {"said": ["first"]} and stored.version == 1
    assert await store.recent_log(table.id or 0) == []


async def test_the_status_and_its_time_are_written_when_the_status_changes(store: Store, backend: Backend) -> None:
    """A move that keeps the status writes the row alone; the one that ends the game writes the
    status and the time it ended, which the pruning of ended games reads."""
    table = await store.create(_table())
    game_id = table.id or 0
    started = table.model_copy(deep=True, update={"version": 1, "status": "active"})
    await store.save(started, 0)
    assert await backend.sql("SELECT status, version FROM games WHERE id=?", game_id) == [("active", 1)]
    moved = started.model_copy(deep=True, update={"version": 2, "options": {"said": ["moved"]}})
    await store.save(moved, 1)
    assert await backend.sql("SELECT status, version FROM games WHERE id=?", game_id) == [("active", 2)]
    assert await backend.stored(game_id) == moved
    ended = moved.model_copy(deep=True, update={"version": 3, "status": "finished"})
    with pytest.raises(VersionConflict):  # a status change from a stale version is refused too
        await store.save(ended.model_copy(deep=True), 1)
    assert await backend.sql("SELECT status, version FROM games WHERE id=?", game_id) == [("active", 2)]
    await store.save(ended, 2)
    rows = await backend.sql("SELECT status, version, updated_at FROM games WHERE id=?", game_id)
    assert rows == [("finished", 3, pytest.approx(ended.updated_at))]
    assert ended.updated_at > moved.updated_at > 0


async def test_duplicate_interaction_applies_once(store: Store) -> None:
    table = await store.create(_table())
    one = table.model_copy(deep=True, update={"version": 1, "options": {"said": ["once"]}})
    await store.save(one, 0, interaction_id=555,
                     log=[LogEntry(version=1, seat=0, user_id=7, action={"a": 1}, events=["once"], chapter="Turn 1")])
    two = one.model_copy(deep=True, update={"version": 2, "options": {"said": ["twice"]}})
    with pytest.raises(DuplicateInteraction):
        await store.save(two, 1, interaction_id=555,
                         log=[LogEntry(version=2, seat=0, user_id=7, action={"a": 1}, events=["twice"])])
    stored = await store.get(table.id or 0)
    assert stored is not None and stored.version == 1 and stored.options == {"said": ["once"]}
    log = await store.full_log(table.id or 0)
    assert [(e.events, e.chapter, e.action) for e in log] == [(["once"], "Turn 1", {"a": 1})]
    assert await store.interaction_seen(555)
    assert not await store.interaction_seen(556)


async def test_an_interaction_answered_without_a_move_never_makes_one(store: Store) -> None:
    """Held in the ledger (twice: a refusal delivered again), a refused click saved later as a
    move is refused as a doubled one, and the game is as it was."""
    table = await store.create(_table())
    await store.hold_interaction(777, table.id or 0)
    await store.hold_interaction(777, table.id or 0)
    assert await store.interaction_seen(777)
    moved = table.model_copy(deep=True, update={"version": 1, "options": {"said": ["late"]}})
    with pytest.raises(DuplicateInteraction):
        await store.save(moved, 0, interaction_id=777,
                         log=[LogEntry(version=1, seat=0, user_id=7, action={"a": 1}, events=["late"])])
    assert await store.get(table.id or 0) == table and await store.full_log(table.id or 0) == []


async def test_the_database_always_matches_what_get_returns(store: Store, backend: Backend) -> None:
    table = await store.create(_table())
    table.status, table.version = "active", 1
    await store.save(table, 0, interaction_id=1)
    with pytest.raises(VersionConflict):
        await store.save(table.model_copy(update={"version": 2, "options": {"said": ["lost"]}}), 0)
    assert await store.get(table.id or 0) == await backend.stored(table.id or 0) == table
    changed = await store.get(table.id or 0)
    assert changed is not None
    changed.options["said"] = ["not saved"]  # a copy: changing it changes nothing stored
    assert (await store.get(table.id or 0)).options == {}  # type: ignore[union-attr]


async def test_failed_write_rolls_back_everything(store: Store, backend: Backend) -> None:
    table = await store.create(_table())
    bad = table.model_copy(deep=True, update={"version": 1, "options": {"said": ["bad"]}})
    # two log rows with the same version break the primary key after the game row was updated
    entries = [LogEntry(version=1, seat=0, user_id=7, action={}, events=["a"]),
               LogEntry(version=1, seat=0, user_id=7, action={}, events=["b"])]
    with pytest.raises(backend.integrity_error):
        await store.save(bad, 0, log=entries, interaction_id=99, deadline=123.0)
    stored = await store.get(table.id or 0)
    assert stored == table == await backend.stored(table.id or 0)
    assert not await store.interaction_seen(99)
    assert await store.next_deadline() is None
    # and the store still works afterwards
    good = table.model_copy(deep=True, update={"version": 1})
    await store.save(good, 0, interaction_id=99)
    assert (await store.get(table.id or 0)).version == 1  # type: ignore[union-attr]


async def test_deadlines_replace_and_keep(store: Store) -> None:
    table = await store.create(_table())
    table.status = "active"
    table.version = 1
    await store.save(table, 0, deadline=100.0)
    assert await store.next_deadline() == (table.id, 1, 100.0)
    assert await store.deadline_of(table.id or 0) == 100.0
    await store.save(table, 1)  # "keep": a message-id update leaves the timer alone
    assert await store.next_deadline() == (table.id, 1, 100.0)
    table.version = 2
    await store.save(table, 1, deadline=200.0)
    assert await store.due_deadlines(150.0) == []
    assert await store.deadlines_due(199.0) == 0 and await store.deadlines_due(200.0) == 1
    assert await store.due_deadlines(250.0) == [(table.id, 2)]
    # claimed: it does not come back while the claim lasts, and says when the claim ends
    assert await store.due_deadlines(251.0) == []
    assert await store.deadlines_due(251.0) == 0  # being fired
    assert await store.next_deadline() == (table.id, 2, 250.0 + CLAIM_SECONDS)
    assert await store.deadlines_due(250.0 + CLAIM_SECONDS) == 1  # its firing died with its process
    # a new deadline for the game is a new, unclaimed row
    table.version = 3
    await store.save(table, 2, deadline=260.0)
    assert await store.due_deadlines(270.0) == [(table.id, 3)]
    await store.drop_deadline(table.id or 0, 2)  # a stale version drops nothing
    assert await store.deadline_of(table.id or 0) == 260.0
    await store.drop_deadline(table.id or 0, 3)
    assert await store.deadline_of(table.id or 0) is None
    table.status = "finished"
    table.version = 4
    await store.save(table, 3, deadline=300.0)
    assert await store.next_deadline() is None


async def test_the_deadline_loop_reads_only_the_next_timers(tmp_path: Path) -> None:
    """Each question about timers (the next one, the due ones, the overdue, how many are due)
    is read from the deadlines_next index, not by scanning every live game's timer: the loop
    asks on every deadline written, and the metrics on every scrape."""
    store = await SqliteStore.open(tmp_path / "plans.sqlite3")
    asked: list[str] = []
    try:
        for conn in (store._conn, store._reader):  # each on its own thread
            await conn._execute(conn._conn.set_trace_callback, asked.append)
        store._quick.set_trace_callback(asked.append)
        await store.next_deadline()
        await store.due_deadlines(100.0)
        await store.postpone_overdue(100.0, 200.0)
        await store.deadlines_due(100.0)
    finally:
        plans = {}
        with sqlite3.connect(tmp_path / "plans.sqlite3") as conn:
            for sql in asked:
                if "deadlines" in sql:
                    plans[sql] = " ".join(str(r[3]) for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
        await store.close()
    assert len(plans) == 4
    for sql, plan in plans.items():
        # searched by its bounds, or (the next one) its first row read in the index's order
        assert plan.startswith("SEARCH deadlines USING INDEX deadlines_next (<expr><") or (
            plan == "SCAN deadlines USING INDEX deadlines_next" and sql.endswith("LIMIT 1")), (sql, plan)


async def test_results_feed_stats_and_the_leaderboard(store: Store) -> None:
    for channel, rank in ((20, 1), (21, 2), (22, 1)):
        table = await store.create(_table(channel))
        table.status, table.version = "finished", 1
        await store.save(table, 0, results=[
            {"seat": 0, "user_id": 7, "rank": rank, "score": 50},
            {"seat": 1, "user_id": 8 if channel != 22 else None, "rank": 3 - rank, "score": 40},
        ])
    assert await store.stats(1, 7) == [("knucklebones", 3, 2)]
    assert await store.stats(1, 8) == [("knucklebones", 2, 1)]
    assert await store.stats(2, 7) == []
    assert await store.leaderboard(1) == [("knucklebones", 7, 3, 2), ("knucklebones", 8, 2, 1)]
    assert await store.leaderboard(1, limit=1) == [("knucklebones", 7, 3, 2)]


async def test_overdue_deadlines_are_postponed_together(store: Store) -> None:
    """After a restart, timers that ran out while the bot was down get a grace, not a default."""
    overdue, later = await store.create(_table(30)), await store.create(_table(31))
    for table, due in ((overdue, 100.0), (later, 5000.0)):
        table.status, table.version = "active", 1
        await store.save(table, 0, deadline=due)
    assert await store.postpone_overdue(900.0, 1000.0) == 1
    assert await store.due_deadlines(999.0) == []
    assert await store.next_deadline() == (overdue.id, 1, 1000.0)
    assert await store.due_deadlines(1000.0) == [(overdue.id, 1)]
    # one being fired right now (claimed) is not postponed by a process that starts meanwhile
    assert await store.postpone_overdue(1001.0, 2000.0) == 0
    assert await store.due_deadlines(5000.0) == [(overdue.id, 1), (later.id, 1)]


async def test_old_interaction_ids_are_pruned_on_open(backend: Backend) -> None:
    # an interaction's id says when it was made: one from two days ago, one from just now
    old, new = first_id_at(time.time() - 2 * 86400), first_id_at(time.time())
    store = await backend.open()
    table = await store.create(_table())
    table.version = 1
    await store.save(table, 0, interaction_id=old)
    await store.close()
    await backend.sql("INSERT INTO interactions (id, game_id, at) VALUES (?, ?, ?)", new, table.id, time.time())
    store = await backend.open()
    try:
        assert not await store.interaction_seen(old)
        assert await store.interaction_seen(new)
    finally:
        await store.close()


async def test_old_interaction_ids_are_pruned_in_batches_by_each_round(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long-running process forgets old clicks too, and a day of them goes a batch at a
    time; the ids just inside INTERACTIONS_KEPT stay."""
    monkeypatch.setattr(sqlite_store, "INTERACTIONS_BATCH", 2)
    monkeypatch.setattr(postgres_store, "INTERACTIONS_BATCH", 2)
    store = await backend.open()
    try:
        table = await store.create(_table())
        now = time.time() + 3 * 86400  # the process has run for three days since
        gone = [first_id_at(now - INTERACTIONS_KEPT - 60 * k) for k in range(1, 6)]
        kept = [first_id_at(now - INTERACTIONS_KEPT + 60), first_id_at(now)]
        for n, interaction_id in enumerate(gone + kept):
            table.version = n + 1
            await store.save(table, n, interaction_id=interaction_id)
        assert await store.prune(now, 7) == 0
        assert sorted(r[0] for r in await backend.sql("SELECT id FROM interactions")) == kept
        assert not await store.interaction_seen(gone[0])
        assert await store.interaction_seen(kept[0])
    finally:
        await store.close()


def test_a_time_s_first_id_is_discord_s() -> None:
    at = datetime(2026, 11, 29, 8, 40, 12, 345000, tzinfo=UTC)
    assert first_id_at(at.timestamp()) == discord.utils.time_snowflake(at)
    assert discord.utils.snowflake_time(first_id_at(at.timestamp())) == at


# -- several processes on one PostgreSQL --------------------------------------------------------


@pytest.fixture
async def two_processes(pg_url: str) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores with their own connections: as far as the server can tell, two bot processes."""
    first = await open_store(pg_url)
    second = await open_store(pg_url)
    yield first, second
    await asyncio.gather(first.close(), second.close())


async def test_clicks_from_two_processes_on_one_game_are_applied_each_once_in_order(
        two_processes: tuple[Store, Store]) -> None:
    first, second = two_processes
    table = await first.create(_table())
    game = table.id or 0

    async def clicks(store: Store, who: str, count: int) -> None:
        lock = store.game_lock(game)  # each process has its own lock object, as each runtime does
        for n in range(count):
            async with lock:
                now = await store.get(game)
                assert now is not None
                expected = now.version
                now.version += 1
                now.options.setdefault("said", []).append(f"{who}{n}")
                await store.save(now, expected, interaction_id=hash((who, n)) & 0xFFFFFFFF,
                                 log=[LogEntry(version=now.version, seat=0, user_id=7, action={"by": who}, events=[])])
                await asyncio.sleep(0)  # let the other process try to get in while this one holds it

    await asyncio.gather(clicks(first, "a", 15), clicks(second, "b", 15))
    final = await first.get(game)
    assert final is not None and final.version == 30
    assert sorted(final.options["said"]) == sorted([f"a{n}" for n in range(15)] + [f"b{n}" for n in range(15)])
    # within each process the clicks kept their order
    assert [r for r in final.options["said"] if r[0] == "a"] == [f"a{n}" for n in range(15)]
    assert [e.version for e in await second.full_log(game)] == list(range(1, 31))


async def test_a_game_lock_waits_for_the_other_process_and_only_for_that_game(
        two_processes: tuple[Store, Store]) -> None:
    first, second = two_processes
    held = first.game_lock(1)
    await held.acquire()
    waiting = asyncio.ensure_future(second.game_lock(1).acquire())
    await asyncio.sleep(0.2)
    assert not waiting.done()
    other = second.game_lock(2)
    await asyncio.wait_for(other.acquire(), 2.0)  # another game is not held up
    other.release()
    held.release()
    await asyncio.wait_for(waiting, 2.0)
    # a waiting click that gives up (cancelled) leaves nothing held behind
    again = asyncio.ensure_future(first.game_lock(1).acquire())
    await asyncio.sleep(0.1)
    again.cancel()
    with pytest.raises(asyncio.CancelledError):
        await again


async def test_each_deadline_is_claimed_by_one_process(two_processes: tuple[Store, Store]) -> None:
    first, second = two_processes
    games = []
    for channel in range(40, 60):
        table = await first.create(_table(channel))
        table.status, table.version = "active", 1
        await first.save(table, 0, deadline=100.0 + channel)
        games.append((table.id, 1))
    a, b = await asyncio.gather(first.due_deadlines(1000.0), second.due_deadlines(1000.0))
    assert not set(a) & set(b)
    assert sorted(a + b) == sorted(games)
    # nobody gets them again while the claims last; once a claimer is presumed dead, another does
    assert await first.due_deadlines(1000.0 + CLAIM_SECONDS - 1) == []
    assert sorted(await second.due_deadlines(1000.0 + CLAIM_SECONDS)) == sorted(games)


async def test_a_deadline_written_by_one_process_wakes_the_other(two_processes: tuple[Store, Store]) -> None:
    first, second = two_processes
    heard: list[float] = []
    woke = asyncio.Event()

    def written(due: float) -> None:
        heard.append(due)
        woke.set()

    second.watch_deadlines(written)
    await asyncio.sleep(0.2)  # LISTEN is set up in the background
    table = await first.create(_table())
    table.status, table.version = "active", 1
    await first.save(table, 0, deadline=1234.5)
    await asyncio.wait_for(woke.wait(), 5.0)
    assert heard == [1234.5]


async def test_the_servers_commands_were_synced_to_alone_are_replaced_as_a_set(store: Store) -> None:
    assert await store.command_guilds() == set()
    await store.put_command_guilds({5, 2**62})
    assert await store.command_guilds() == {5, 2**62}  # a snowflake fits
    await store.put_command_guilds({7})
    assert await store.command_guilds() == {7}
    await store.put_command_guilds(set())
    assert await store.command_guilds() == set()


# -- one process on a SQLite file -------------------------------------------------------------


async def test_a_second_bot_s_store_on_a_sqlite_file_is_refused_and_the_first_keeps_working(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    first = await SqliteStore.open(path, sole=True)
    try:
        table = await first.create(_table())
        with pytest.raises(StoreInUse) as refused:
            await SqliteStore.open(path, sole=True)
        assert str(refused.value) == f"another Boneyard (process {os.getpid()}) is running on the SQLite database {path}"
        table.version = 1
        await first.save(table, 0)
        assert (await first.get(table.id or 0)).version == 1  # type: ignore[union-attr]
        assert sqlite_store.held(path) is not None and sqlite_store.held(path).pid == os.getpid()  # type: ignore[union-attr]
    finally:
        await first.close()
    assert sqlite_store.held(path) is None
    again = await SqliteStore.open(path, sole=True)  # let go with the store, as it is with the process
    try:
        assert (await again.get(table.id or 0)).version == 1  # type: ignore[union-attr]
    finally:
        await again.close()


async def test_a_game_written_past_the_store_is_read_again_after_its_conflict(tmp_path: Path) -> None:
    """The copy of a live game kept in memory is dropped when a save finds the stored game
    moved on: the next load reads what the file holds, so the next click can be applied."""
    path = tmp_path / "games.sqlite3"
    store = await SqliteStore.open(path)
    try:
        table = await store.create(_table())
        moved = table.model_copy(update={"version": 1, "options": {"said": ["elsewhere"]}})
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE games SET version=1, table_json=? WHERE id=?", (table_text(moved), table.id))
        stale = (await store.get(table.id or 0)).model_copy(update={"version": 1})  # type: ignore[union-attr]
        with pytest.raises(VersionConflict):
            await store.save(stale, 0)
        now = await store.get(table.id or 0)
        assert now is not None and now.version == 1 and now.options == {"said": ["elsewhere"]}
        await store.save(now.model_copy(update={"version": 2}), 1)
    finally:
        await store.close()
