"""The store on a real SQLite file: migrations, version checks, doubled clicks, failed writes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.models import LogEntry, Seat, Table
from bot.store import ChannelBusy, DuplicateInteraction, Store, VersionConflict, _migrations


def _table(channel: int = 10) -> Table:
    return Table(guild_id=1, channel_id=channel, game="knucklebones", host_id=7,
                 seats=[Seat(user_id=7, name="Ann")], seed=42)


@pytest.fixture
async def store(tmp_path: Path):
    s = await Store.open(tmp_path / "games.sqlite3")
    yield s
    await s.close()


async def test_migrations_from_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "fresh.sqlite3"
    store = await Store.open(path)
    assert await store.schema_version() == max(n for n, _ in _migrations())
    await store.close()
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "actions", "interactions", "deadlines", "results"} <= tables
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # opening again applies nothing twice
    store = await Store.open(path)
    assert await store.schema_version() == max(n for n, _ in _migrations())
    await store.close()


async def test_create_and_reload(store: Store) -> None:
    table = await store.create(_table())
    assert table.id is not None
    again = await store.get(table.id)
    assert again == table
    assert await store.live_in_channel(10) == table
    assert await store.live_in_channel(11) is None


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
    first.recent = ["first"]
    await store.save(first, 0)
    stale = table.model_copy(deep=True)
    stale.version = 1
    stale.recent = ["stale"]
    with pytest.raises(VersionConflict):
        await store.save(stale, 0, log=[LogEntry(version=1, seat=0, user_id=7, action={}, events=["x"])])
    stored = await store.get(table.id or 0)
    assert stored is not None and stored.recent == ["first"] and stored.version == 1
    assert await store.recent_log(table.id or 0) == []


async def test_duplicate_interaction_applies_once(store: Store) -> None:
    table = await store.create(_table())
    one = table.model_copy(deep=True, update={"version": 1, "recent": ["once"]})
    await store.save(one, 0, interaction_id=555,
                     log=[LogEntry(version=1, seat=0, user_id=7, action={"a": 1}, events=["once"])])
    two = one.model_copy(deep=True, update={"version": 2, "recent": ["twice"]})
    with pytest.raises(DuplicateInteraction):
        await store.save(two, 1, interaction_id=555,
                         log=[LogEntry(version=2, seat=0, user_id=7, action={"a": 1}, events=["twice"])])
    stored = await store.get(table.id or 0)
    assert stored is not None and stored.version == 1 and stored.recent == ["once"]
    assert [e.events for e in await store.recent_log(table.id or 0)] == [["once"]]
    assert await store.interaction_seen(555)


def _on_disk(path: Path, game_id: int) -> Table:
    """The game as the file holds it, past the store's copy of live games."""
    row = sqlite3.connect(path).execute("SELECT table_json FROM games WHERE id=?", (game_id,)).fetchone()
    return Table.model_validate_json(row[0])


async def test_the_file_always_matches_what_get_returns(store: Store, tmp_path: Path) -> None:
    table = await store.create(_table())
    table.status, table.version = "active", 1
    await store.save(table, 0, interaction_id=1)
    with pytest.raises(VersionConflict):
        await store.save(table.model_copy(update={"version": 2, "recent": ["lost"]}), 0)
    assert await store.get(table.id or 0) == _on_disk(tmp_path / "games.sqlite3", table.id or 0) == table
    changed = await store.get(table.id or 0)
    assert changed is not None
    changed.recent.append("not saved")  # a copy: changing it changes nothing stored
    assert (await store.get(table.id or 0)).recent == []  # type: ignore[union-attr]


async def test_failed_write_rolls_back_everything(store: Store, tmp_path: Path) -> None:
    table = await store.create(_table())
    bad = table.model_copy(deep=True, update={"version": 1, "recent": ["bad"]})
    # two log rows with the same version break the primary key after the game row was updated
    entries = [LogEntry(version=1, seat=0, user_id=7, action={}, events=["a"]),
               LogEntry(version=1, seat=0, user_id=7, action={}, events=["b"])]
    with pytest.raises(sqlite3.IntegrityError):
        await store.save(bad, 0, log=entries, interaction_id=99, deadline=123.0)
    stored = await store.get(table.id or 0)
    assert stored == table == _on_disk(tmp_path / "games.sqlite3", table.id or 0)
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
    await store.save(table, 1)  # "keep": a message-id update leaves the timer alone
    assert await store.next_deadline() == (table.id, 1, 100.0)
    table.version = 2
    await store.save(table, 1, deadline=200.0)
    assert await store.due_deadlines(150.0) == []
    assert await store.due_deadlines(250.0) == [(table.id, 2)]
    table.status = "finished"
    table.version = 3
    await store.save(table, 2, deadline=300.0)
    assert await store.next_deadline() is None


async def test_results_feed_stats(store: Store) -> None:
    for channel, rank in ((20, 1), (21, 2)):
        table = await store.create(_table(channel))
        table.status, table.version = "finished", 1
        await store.save(table, 0, results=[
            {"seat": 0, "user_id": 7, "rank": rank, "score": 50},
            {"seat": 1, "user_id": None, "rank": 3 - rank, "score": 40},
        ])
    assert await store.stats(1, 7) == [("knucklebones", 2, 1)]
    assert await store.stats(2, 7) == []


async def test_overdue_deadlines_are_postponed_together(store: Store) -> None:
    """After a restart, timers that ran out while the bot was down get a grace, not a default."""
    overdue, later = await store.create(_table(30)), await store.create(_table(31))
    for table, due in ((overdue, 100.0), (later, 5000.0)):
        table.status, table.version = "active", 1
        await store.save(table, 0, deadline=due)
    assert await store.postpone_overdue(900.0, 1000.0) == 1
    assert await store.due_deadlines(999.0) == []
    assert await store.due_deadlines(1000.0) == [(overdue.id, 1)]
    assert await store.next_deadline() == (overdue.id, 1, 1000.0)
    assert await store.due_deadlines(5000.0) == [(overdue.id, 1), (later.id, 1)]


async def test_old_interaction_ids_are_pruned_on_open(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = await Store.open(path)
    table = await store.create(_table())
    table.version = 1
    await store.save(table, 0, interaction_id=111)
    await store.close()
    with sqlite3.connect(path) as conn:  # the click was applied two days ago
        conn.execute("UPDATE interactions SET at=at-2*86400 WHERE id=111")
        conn.execute("INSERT INTO interactions (id, game_id, at) VALUES (222, ?, strftime('%s','now'))", (table.id,))
    store = await Store.open(path)
    try:
        assert not await store.interaction_seen(111)
        assert await store.interaction_seen(222)
    finally:
        await store.close()
