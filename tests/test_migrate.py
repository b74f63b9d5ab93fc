"""boneyard migrate-db: a SQLite store with games in every state is copied into PostgreSQL, and
play goes on there: the game in play is finished, the lobby starts, the stats are kept. The dice
tools' records (a server's settings, saved rolls, rolls and their faces) and a server the bot left
come along."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncpg

from bot.store import SavedRoll, ServerSettings, SqliteStore, StoredRoll, open_store
from tests.e2e.channel import live_table, said
from tests.e2e.test_cluster_e2e import button, finished, knucklebones, play
from tests.fakediscord import REPO_ROOT, running_bot, running_fake

SEALED = {"EXTRA_COGS": "tests.fixtures.sealed_game"}


def migrate_db(source: str, target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "migrate-db", "--from", source, "--to", target],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)


async def test_a_sqlite_store_moves_to_postgres_and_play_goes_on(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "boneyard.sqlite3"
    async with running_fake(channels=("lobby", "playing", "done", "called-off")) as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, SEALED, path) as bot:
            # finished, with results for the stats: ann picks 4 and bob 2, each by DM
            start = await (await fd.slash(ann, "done", "sealedpick new")).response_message()
            await (await fd.click(bob, start, button(fd, start, "Join"))).wait_response()
            await (await fd.click(ann, start, button(fd, start, "Start"))).wait_response()
            for user, pick in ((ann, "4"), (bob, "2")):
                dm = await fd.wait_until(lambda u=user: fd.dm_messages(u) and fd.dm_messages(u)[-1])
                await (await fd.click(user, dm, button(fd, dm, pick))).wait_response()
            await fd.wait_until(lambda: finished(live_table(fd, "done") or {}))
            await knucklebones(fd, "playing", ann, bob)
            await play(fd, "playing", [ann, bob], clicks=3)  # in play, its turn timer running
            lobby = await (await fd.slash(ann, "lobby", "knucklebones new")).response_message()
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            gone = await (await fd.slash(bob, "called-off", "knucklebones new")).response_message()
            await (await fd.click(bob, gone, button(fd, gone, "Cancel"))).wait_response()
            assert bot.error_records() == []
        store = await open_store(path)
        await store.put_server_settings(ServerSettings(guild_id=fd.guild_id, gm_role_id=77))
        await store.put_saved_roll(SavedRoll(user_id=ann.id, name="attack", expression="1d20+5", by=ann.id), 50)
        await store.put_saved_roll(SavedRoll(guild_id=fd.guild_id, name="fireball", expression="8d6", by=ann.id), 50)
        for seen, face in (("public", 4), ("private", 19)):
            await store.record_roll(StoredRoll(guild_id=fd.guild_id, channel_id=5, user_id=bob.id, seen=seen,
                                               expression="1d20", result=str(face), text=f"# {face}"),
                                    {(20, face): 1}, keep=100)
        await store.mark_guild_left(12345, 1000.0)
        await store.close()

        run = migrate_db(f"sqlite:///{path}", pg_url)
        assert run.returncode == 0, run.stderr
        assert "Copied 4 games (2 in a lobby or in play)" in run.stdout and "1 turn timers" in run.stdout
        assert "2 saved rolls, 2 rolls, 1 servers' settings" in run.stdout
        assert "password" not in run.stdout
        again = migrate_db(f"sqlite:///{path}", pg_url)  # never onto games already there
        assert again.returncode == 1 and "already holds 4 games" in again.stderr

        conn = await asyncpg.connect(pg_url)
        try:
            states = sorted(r[0] for r in await conn.fetch("SELECT status FROM games"))
            assert states == ["active", "cancelled", "finished", "lobby"]
        finally:
            await conn.close()
        store = await open_store(pg_url)
        try:
            assert (await store.server_settings(fd.guild_id)).gm_role_id == 77
            assert [r.name for r in await store.saved_rolls(0, ann.id)] == ["attack"]
            assert [r.name for r in await store.saved_rolls(fd.guild_id, 0)] == ["fireball"]
            assert [(r.result, r.seen) for r in await store.roll_history(fd.guild_id, bob.id)] == [
                ("19", "private"), ("4", "public")]
            assert (await store.luck(fd.guild_id, bob.id, hidden=False)).faces == {20: {4: 1}}  # the hidden one kept hidden
            assert (await store.luck(fd.guild_id, bob.id, hidden=True)).faces == {20: {4: 1, 19: 1}}
            assert await store.stats(fd.guild_id, ann.id) == [("sealedpick", 1, 1)]  # the totals came along
            assert await store.guilds_left() == {12345: 1000.0}
            assert await store.command_guilds() == {fd.guild_id}  # tried out there: cleared once synced globally
            newer = await store.record_roll(StoredRoll(guild_id=fd.guild_id, channel_id=5, user_id=ann.id,
                                                       expression="1d6", result="2", text="# 2"), {}, keep=100)
            assert (newer.id or 0) > max(r.id or 0 for r in await store.roll_history(fd.guild_id, bob.id))
        finally:
            await store.close()

        async with running_bot(fd, {**SEALED, "DATABASE_URL": pg_url}) as bot:
            assert any("games are kept in postgresql://" in line for line in bot.lines)
            # the game in play goes on to its end, the lobby starts, new games get new ids
            await play(fd, "playing", [ann, bob])
            assert finished(live_table(fd, "playing") or {})
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()
            await play(fd, "lobby", [ann, bob], clicks=2)
            fresh = await (await fd.slash(bob, "called-off", "knucklebones new")).response_message()
            assert "Game #5" in said(fresh)
            board = (await (await fd.slash(ann, "done", "game stats")).response_message())["embeds"][0]
            fields = {f["name"]: f["value"] for f in board["fields"]}
            assert f"<@{ann.id}>: 1 won of 1" in fields["Sealed Pick"]  # the copied result
            assert len(fields["Knucklebones"].splitlines()) == 2  # the game finished after the move
            assert bot.error_records() == []
        assert fd.violations == [] and fd.unknown_routes == []


def test_migrate_db_refuses_what_it_cannot_copy(tmp_path: Path) -> None:
    missing = migrate_db(f"sqlite:///{tmp_path / 'none.sqlite3'}", "postgresql://bone:s3cret@127.0.0.1:1/x")
    assert missing.returncode == 1 and "no SQLite file" in missing.stderr and "s3cret" not in missing.stderr
    backwards = migrate_db("postgresql://bone@127.0.0.1:1/x", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert backwards.returncode == 1 and "from a SQLite file" in backwards.stderr
    assert not (tmp_path / "x.sqlite3").exists() and not (tmp_path / "none.sqlite3").exists()


async def test_the_copy_is_refused_while_a_bot_runs_on_the_file(tmp_path: Path, pg_url: str) -> None:
    """A click the running bot stores after the copy would be lost: nothing is copied, and the
    PostgreSQL database is left as it was (empty), until the bot is stopped."""
    path = tmp_path / "boneyard.sqlite3"
    running = await SqliteStore.open(path, sole=True)  # as the bot opens it
    try:
        run = await asyncio.to_thread(migrate_db, f"sqlite:///{path}", pg_url)
    finally:
        await running.close()
    assert run.returncode == 1
    assert run.stderr.strip() == (f"boneyard migrate-db: another Boneyard (process {os.getpid()}) is running on the "
                                  f"SQLite database {path}: stop it first (a click it stores after the copy would "
                                  "not reach PostgreSQL), then copy")
    conn = await asyncpg.connect(pg_url)
    try:
        assert await conn.fetchval("SELECT to_regclass('games') IS NULL")
    finally:
        await conn.close()
    stopped = await asyncio.to_thread(migrate_db, f"sqlite:///{path}", pg_url)
    assert stopped.returncode == 0 and "Copied 0 games" in stopped.stdout, stopped.stderr
