"""What keeps the store bounded and fast, on SQLite and on PostgreSQL alike: per-server totals that
always match the results they count (and are built from them by the migration), move logs pruned
once a game has long ended, a player forgotten on request, a server's data gone once the bot left
it for good. And on SQLite, reads that never wait for the writer."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

import pytest

from bot.models import Book, LogEntry, Table
from bot.retention import GUILD_GRACE_DAYS, retain, run_retention
from bot.store import SavedRoll, ServerSettings, SqliteStore, Store, StoredRoll
from bot.store.base import FORMER_PLAYER
from tests.test_store import Backend, _stored_before, _table, backend  # noqa: F401  (a fixture)

GUILD, OTHER = 1, 2
ANN, BOB, CAT = 7, 8, 9
DAY = 86400.0

#: the totals the aggregates must always equal, counted the slow way
GROUPED = ("SELECT guild_id, game, user_id, COUNT(*), SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END) FROM results"
           " WHERE user_id IS NOT NULL GROUP BY guild_id, game, user_id")


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:  # noqa: F811
    s = await backend.open()
    yield s
    await s.close()


def moves(n: int, user: int | None = ANN) -> list[LogEntry]:
    return [LogEntry(version=v, seat=0, user_id=user, action={"n": v}, events=[f"move {v}"]) for v in range(1, n + 1)]


async def finished(store: Store, results: list[tuple[int | None, int]], *, channel: int = 10, guild: int = GUILD,
                   game: str = "knucklebones", log: int = 2) -> Table:
    """A game played to its end: ``results`` are (user id, rank) by seat, the first seat's player
    made the ``log`` moves."""
    table = await store.create(_table(channel, guild).model_copy(update={"game": game}))
    table.seats = [table.seats[0].model_copy(update={"user_id": u, "name": f"P{u}"}) for u, _ in results]
    table.status, table.version = "finished", log
    await store.save(table, 0, log=moves(log, results[0][0]), results=[
        {"seat": seat, "user_id": user, "rank": rank, "score": 10 * rank} for seat, (user, rank) in enumerate(results)])
    return table


async def live(store: Store, *, channel: int = 50, guild: int = GUILD, user: int = ANN) -> Table:
    table = await store.create(_table(channel, guild).model_copy(
        update={"seats": [_table().seats[0].model_copy(update={"user_id": user})]}))
    table.status, table.version = "active", 1
    await store.save(table, 0, log=moves(1, user), deadline=time.time() + 300)
    return table


async def grouped(backend: Backend) -> dict[tuple[int, str, int], tuple[int, int]]:  # noqa: F811
    return {(int(g), str(k), int(u)): (int(p), int(w)) for g, k, u, p, w in await backend.sql(GROUPED)}


def board(totals: dict[tuple[int, str, int], tuple[int, int]], guild: int, limit: int) -> list[tuple[str, int, int, int]]:
    """The leaderboard as the GROUP BY over every result gave it: most wins first, then fewest
    games, then the user id, cut to ``limit`` a game."""
    rows = sorted(((k, u, p, w) for (g, k, u), (p, w) in totals.items() if g == guild),
                  key=lambda r: (r[0], -r[3], r[2], r[1]))
    out, kept = [], dict[str, int]()
    for row in rows:
        kept[row[0]] = kept.get(row[0], 0) + 1
        if kept[row[0]] <= limit:
            out.append(row)
    return out


# -- per-server totals ------------------------------------------------------------------------


async def test_the_totals_always_match_the_results(store: Store, backend: Backend) -> None:  # noqa: F811
    """Games of two servers and three kinds, players who come and go, seats nobody held, and
    results written again for a game: the totals equal a GROUP BY over the results each time."""
    rng = random.Random(5)
    tables = []
    for n in range(40):
        players = rng.sample([ANN, BOB, CAT, 10, 11, None], rng.randint(2, 4))
        ranks = list(range(1, len(players) + 1))
        rng.shuffle(ranks)
        tables.append(await finished(store, list(zip(players, ranks, strict=True)), channel=100 + n,
                                     guild=rng.choice([GUILD, OTHER]), game=rng.choice(["knucklebones", "bone_duel", "rattlebones"])))
    for table in rng.sample(tables, 5):  # written again: a seat's rank changes, a player is replaced
        results = [{"seat": 0, "user_id": rng.choice([ANN, 12, None]), "rank": rng.randint(1, 3), "score": 0}]
        version = table.version
        table.version += 1
        await store.save(table, version, results=results)
    totals = await grouped(backend)
    assert {(g, k, u): (p, w) for u, g, k, p, w in await backend.sql(
        "SELECT user_id, guild_id, game, played, won FROM player_stats")} == totals
    for guild in (GUILD, OTHER, 3):
        for limit in (1, 3, 10):
            assert await store.leaderboard(guild, limit=limit) == board(totals, guild, limit)
        for user in (ANN, BOB, CAT, 10, 11, 12):
            assert await store.stats(guild, user) == sorted(
                (k, p, w) for (g, k, u), (p, w) in totals.items() if g == guild and u == user)


async def test_the_migration_builds_the_totals_from_the_results(backend: Backend) -> None:  # noqa: F811
    """A store of schema 7 (results, no totals) opens with totals equal to its results."""
    rows: list[tuple[str, tuple[object, ...]]] = []
    rng = random.Random(3)
    for game_id in range(1001, 1031):  # past the ids new games take
        table = _table(game_id).model_copy(update={"id": game_id}).model_dump_json()
        guild, game = rng.choice([GUILD, OTHER]), rng.choice(["knucklebones", "bone_duel"])
        rows.append(("INSERT INTO games (id, guild_id, channel_id, game, status, version, table_json, created_at,"
                     " updated_at) VALUES (?, ?, ?, ?, 'finished', 3, ?, 0, 0)", (game_id, guild, game_id, game, table)))
        for seat, user in enumerate(rng.sample([ANN, BOB, CAT, None], 3)):
            rows.append(("INSERT INTO results (game_id, guild_id, game, seat, user_id, rank, score, finished_at)"
                         " VALUES (?, ?, ?, ?, ?, ?, 0, 0)", (game_id, guild, game, seat, user, seat + 1)))
    await _stored_before(backend, 7, rows)
    store = await backend.open()
    try:
        totals = await grouped(backend)
        assert totals and {(g, k, u): (p, w) for u, g, k, p, w in await backend.sql(
            "SELECT user_id, guild_id, game, played, won FROM player_stats")} == totals
        assert await store.leaderboard(GUILD) == board(totals, GUILD, 10)
        await finished(store, [(ANN, 1), (BOB, 2)], channel=99)  # and they go on from there
        assert await grouped(backend) == {(g, k, u): (p, w) for u, g, k, p, w in await backend.sql(
            "SELECT user_id, guild_id, game, played, won FROM player_stats")}
    finally:
        await store.close()


# -- pruning ----------------------------------------------------------------------------------


async def test_old_move_logs_are_pruned_and_results_stay(store: Store, backend: Backend) -> None:  # noqa: F811
    old = await finished(store, [(ANN, 1), (BOB, 2)], channel=10, log=4)
    recent = await finished(store, [(ANN, 2), (BOB, 1)], channel=11, log=3)
    called_off = await store.create(_table(12))
    called_off.status, called_off.version = "cancelled", 2
    await store.save(called_off, 0, log=moves(2))
    playing = await live(store, channel=13)
    now = time.time()
    for table in (old, called_off, playing):  # ended (or last played) 100 days ago
        await backend.sql("UPDATE games SET updated_at=? WHERE id=?", now - 100 * DAY, table.id)
    stats = await store.stats(GUILD, ANN)

    assert await store.prune(now, keep_days=90) == 4 + 2
    assert await store.full_log(old.id or 0) == [] and await store.full_log(called_off.id or 0) == []
    assert len(await store.full_log(recent.id or 0)) == 3  # ended too lately
    assert len(await store.full_log(playing.id or 0)) == 1  # still being played
    assert await store.stats(GUILD, ANN) == stats == [("knucklebones", 2, 1)]
    assert len(await backend.sql("SELECT * FROM results")) == 4
    reloaded = await store.get(old.id or 0)
    assert reloaded is not None and reloaded.status == "finished" and reloaded.seats[0].user_id == ANN
    assert await store.prune(now, keep_days=90) == 0
    # later, the game that had ended lately is old in its turn
    assert await store.prune(now + 91 * DAY, keep_days=90) == 3


# -- forgetting a player ----------------------------------------------------------------------


async def test_a_player_forgotten_leaves_the_games_to_the_others(store: Store, backend: Backend) -> None:  # noqa: F811
    first = await finished(store, [(ANN, 1), (BOB, 2)], channel=10)
    second = await finished(store, [(BOB, 1), (ANN, 2), (CAT, 3)], channel=11, guild=OTHER, game="bone_duel")
    await finished(store, [(BOB, 1), (CAT, 2)], channel=12)
    playing = await live(store, channel=13, user=ANN)
    await store.put_saved_roll(SavedRoll(user_id=ANN, name="attack", expression="1d20+5", by=ANN), limit=5)
    await store.put_saved_roll(SavedRoll(guild_id=GUILD, name="fireball", expression="8d6", by=ANN), limit=5)
    for guild, user in ((GUILD, ANN), (0, ANN), (GUILD, BOB)):
        await store.record_roll(StoredRoll(guild_id=guild, channel_id=5, user_id=user, expression="1d20",
                                           result="12", text="# 12"), {(20, 12): 1}, keep=10)
    bob_before = (await store.stats(GUILD, BOB), await store.stats(OTHER, BOB))
    # where each player's last private copy went: ANN's DM channel is hers to have forgotten
    await store.put_book(first.id or 0, Book(message_id=70, dm_copies={ANN: [801, 802, 1], BOB: [901, 902, 1]}))
    assert set((await store.book(first.id or 0)).dm_copies) == {ANN, BOB}  # read, so a cache holds it

    said = await store.player_data(ANN)
    assert said == {"games": 2, "stats": 2, "saved_rolls": 1, "rolls": 2}
    assert await store.forget_player(ANN) == said
    assert await store.player_data(ANN) == {"games": 0, "stats": 0, "saved_rolls": 0, "rolls": 0}

    assert await store.stats(GUILD, ANN) == [] and await store.stats(OTHER, ANN) == []
    assert ANN not in {u for _, u, _, _ in await store.leaderboard(GUILD) + await store.leaderboard(OTHER)}
    assert (await store.stats(GUILD, BOB), await store.stats(OTHER, BOB)) == bob_before
    assert await backend.sql("SELECT COUNT(*) FROM results WHERE user_id=?", ANN) == [(0,)]
    assert len(await backend.sql("SELECT * FROM results")) == 7  # every seat's result stays
    for table, seat in ((first, 0), (second, 1)):
        kept = await store.get(table.id or 0)
        assert kept is not None and kept.seats[seat].user_id is None and kept.seats[seat].name == FORMER_PLAYER
        assert all(s.user_id != ANN and s.name != f"P{ANN}" for s in kept.seats)
        assert all(e.user_id != ANN for e in await store.full_log(table.id or 0))
    assert (await store.get(second.id or 0)).seats[0].name == f"P{BOB}"  # type: ignore[union-attr]
    assert (await store.book(first.id or 0)).dm_copies == {BOB: [901, 902, 1]}
    assert "801" not in str(await backend.sql("SELECT book_json FROM books"))
    still = await store.get(playing.id or 0)  # a game being played is left alone
    assert still is not None and still.seat_of(ANN) == 0 and (await store.full_log(playing.id or 0))[0].user_id == ANN

    assert await store.saved_rolls(0, ANN) == []
    assert [r.name for r in await store.saved_rolls(GUILD, 0)] == ["fireball"]  # the server's, not hers
    assert await store.roll_history(GUILD, ANN) == [] and await store.roll_history(0, ANN) == []
    assert await backend.sql("SELECT COUNT(*) FROM roll_faces WHERE user_id=?", ANN) == [(0,)]
    assert len(await store.roll_history(GUILD, BOB)) == 1


# -- a server the bot left --------------------------------------------------------------------


async def test_a_server_left_for_good_is_forgotten_after_the_grace(store: Store, backend: Backend) -> None:  # noqa: F811
    async def fill(guild: int, channel: int) -> tuple[Table, Table]:
        done = await finished(store, [(ANN, 1), (BOB, 2)], channel=channel, guild=guild)
        playing = await live(store, channel=channel + 1, guild=guild)
        await store.put_server_settings(ServerSettings(guild_id=guild, gm_role_id=guild * 100))
        await store.put_saved_roll(SavedRoll(guild_id=guild, name="fireball", expression="8d6", by=ANN), limit=5)
        await store.record_roll(StoredRoll(guild_id=guild, channel_id=channel, user_id=ANN, expression="1d20",
                                           result="3", text="# 3"), {(20, 3): 1}, keep=10)
        return done, playing

    gone, gone_live = await fill(GUILD, 10)
    kept, kept_live = await fill(OTHER, 20)
    await store.put_saved_roll(SavedRoll(user_id=ANN, name="mine", expression="1d6", by=ANN), limit=5)
    await store.put_server_settings(ServerSettings(guild_id=30, default_timer=60))  # settings, no game yet
    assert await store.guilds_hosted() == {GUILD, OTHER, 30}

    await store.mark_guild_left(GUILD, 1000.0)
    await store.mark_guild_left(GUILD, 5000.0)  # told twice: the first time counts
    assert await store.guilds_left() == {GUILD: 1000.0}
    assert await store.forget_guilds_left_before(900.0) == 0
    await store.mark_guild_back(GUILD)  # invited again within the grace: nothing goes
    assert await store.guilds_left() == {}
    assert await store.forget_guilds_left_before(2000.0) == 0
    assert (await store.get(gone.id or 0)) is not None

    await store.mark_guild_left(GUILD, 1000.0)
    assert await store.forget_guilds_left_before(2000.0) == 1
    assert await store.guilds_left() == {}
    assert await store.guilds_hosted() == {OTHER, 30}
    for table in (gone, gone_live):
        assert await store.get(table.id or 0) is None and await store.full_log(table.id or 0) == []
    assert await store.live_in_channel(11) is None and await store.deadline_of(gone_live.id or 0) is None
    assert await store.stats(GUILD, ANN) == [] and await store.leaderboard(GUILD) == []
    assert await store.server_settings(GUILD) == ServerSettings(guild_id=GUILD)
    assert await store.saved_rolls(GUILD, 0) == [] and await store.roll_history(GUILD, ANN) == []
    for table in ("games", "results", "player_stats", "rolls", "roll_faces"):
        assert await backend.sql(f"SELECT COUNT(*) FROM {table} WHERE guild_id=?", GUILD) == [(0,)]

    # the other server, and the player's own saved rolls, are all there
    assert await store.get(kept.id or 0) is not None and await store.get(kept_live.id or 0) is not None
    assert await store.deadline_of(kept_live.id or 0) is not None
    assert await store.stats(OTHER, ANN) == [("knucklebones", 1, 1)]
    assert (await store.server_settings(OTHER)).gm_role_id == OTHER * 100
    assert len(await store.saved_rolls(OTHER, 0)) == 1 and len(await store.roll_history(OTHER, ANN)) == 1
    assert [r.name for r in await store.saved_rolls(0, ANN)] == ["mine"]


# -- reads beside the writer (SQLite) ----------------------------------------------------------


async def test_reads_do_not_wait_for_the_writer(tmp_path) -> None:  # noqa: ANN001
    """While a write holds the writer's lock, the stats, the leaderboard, a log and the next
    deadline are read all the same."""
    store = await SqliteStore.open(tmp_path / "games.sqlite3")
    try:
        table = await finished(store, [(ANN, 1), (BOB, 2)])
        async with store._lock:
            reads = asyncio.gather(store.stats(GUILD, ANN), store.leaderboard(GUILD), store.recent_log(table.id or 0),
                                   store.next_deadline(), store.live_in_channel(10), store.game_counts(),
                                   store.roll_history(GUILD, ANN), store.player_data(ANN))
            stats, board_, log, *_ = await asyncio.wait_for(reads, timeout=2.0)
        assert stats == [("knucklebones", 1, 1)] and board_[0] == ("knucklebones", ANN, 1, 1) and len(log) == 2
    finally:
        await store.close()


# -- the retention loop -----------------------------------------------------------------------


class FailsOnce:
    """A store whose first pruning fails, as a database away for a moment does."""

    def __init__(self, store: Store) -> None:
        self.store, self.calls = store, 0

    async def prune(self, now: float, keep_days: float) -> int:
        self.calls += 1
        if self.calls == 1:
            raise OSError("the database is away")
        return await self.store.prune(now, keep_days)

    async def forget_guilds_left_before(self, t: float) -> int:
        return await self.store.forget_guilds_left_before(t)


async def test_retention_prunes_and_forgets_in_rounds(store: Store, backend: Backend) -> None:  # noqa: F811
    now = time.time()
    old = await finished(store, [(ANN, 1), (BOB, 2)], channel=10, log=3)
    await backend.sql("UPDATE games SET updated_at=? WHERE id=?", now - 10 * DAY, old.id)
    left = await finished(store, [(ANN, 1), (BOB, 2)], channel=20, guild=OTHER)
    await store.mark_guild_left(OTHER, now - (GUILD_GRACE_DAYS + 1) * DAY)
    await store.mark_guild_left(3, now - (GUILD_GRACE_DAYS - 1) * DAY)  # still within its grace
    flaky = FailsOnce(store)

    task = asyncio.create_task(run_retention(flaky, keep_days=7, every=0.05, clock=lambda: now))  # type: ignore[arg-type]
    try:
        for _ in range(200):
            if flaky.calls >= 3:
                break
            await asyncio.sleep(0.02)
    finally:
        task.cancel()
    assert flaky.calls >= 3  # the failed round did not end the loop
    assert await store.full_log(old.id or 0) == [] and await store.stats(GUILD, ANN) == [("knucklebones", 1, 1)]
    assert await store.get(left.id or 0) is None and await store.guilds_left() == {3: now - (GUILD_GRACE_DAYS - 1) * DAY}
    assert await retain(store, 7, now) == (0, 0)
