"""The bot when Discord or its database fails under it: the fault campaign's small version
(tests/e2e/faults.py says what fails and what must hold), and the faults it found, each on its
own."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from pathlib import Path

import asyncpg

from bot.store.sqlite import BUSY_TIMEOUT
from tests.e2e import play
from tests.e2e.channel import actor, clean, is_table, live_table, next_table, said, settle
from tests.e2e.faults import BUSY_HOLD, fault_campaign, hold_write_lock
from tests.e2e.fuzz import replays
from tests.fakediscord import running_bot, running_fake

CHANNEL = "games"


async def test_every_game_played_while_discord_and_the_database_fail_breaks_nothing() -> None:
    """Seeded honest presses across every game while each kind of fault fails something at least
    once: 429s (a channel's posts and edits, the webhooks, global), 5xx (posts, edits, a first
    answer, DMs; a 503 on a post or an edit is not tried again), refused DMs, vanished
    messages, refused posts, a permission taken, the gateway dropped and asked to reconnect. Then every game in play shows its table and moves on. The
    store failing is the two tests below: the SQLite file held locked, PostgreSQL's connections
    ended."""
    report = await fault_campaign(40, seed=5, finish=8, store_faults=0, fault_rate=0.5, every_kind=True)
    armed = {kind.removeprefix("fault: ") for kind in report.kinds if kind.startswith("fault: ")}
    fired = {kind.removeprefix("fired: ") for kind in report.kinds if kind.startswith("fired: ")}
    assert len(armed) == 16 and fired == armed, (sorted(armed - fired), report.kinds)
    assert report.kinds["faults that fired"] >= 10, report.kinds
    assert report.replayed >= 6, "every game was stored and replayed"
    assert {name: found[:3] for name, found in report.problems.items() if found} == {}


def written(db: Path) -> bool:
    """The bot wrote all it had to: the first game's book records its last step as shown."""
    with sqlite3.connect(db) as conn:
        version = conn.execute("SELECT version FROM games WHERE id=1").fetchone()
        book = conn.execute("SELECT book_json FROM books WHERE game_id=1").fetchone()
    return version is not None and book is not None and json.loads(book[0]).get("shown") == version[0]


async def test_a_database_locked_past_its_busy_timeout_loses_no_answer_and_no_move(tmp_path: Path) -> None:
    """Another program holds the database longer than the bot waits for it, while a move is
    pressed and a table opened. Both are answered within Discord's three seconds; the first in
    line waits the busy timeout out, stores nothing and is told privately to press again (the
    second may get the lock as it is let go). Pressed and opened again, each counts once, and a
    table opened is in the channel for all to see."""
    db = tmp_path / "busy.sqlite3"
    async with running_fake(channels=(CHANNEL, "tavern")) as fd:
        players = [fd.add_user("ann"), fd.add_user("bob")]
        async with running_bot(fd, {}, db) as bot:
            table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
            who, move = actor(table, players), [b["custom_id"] for b in fd.buttons(table)
                                                if b["custom_id"].startswith("bn:act:")][-1]
            await fd.wait_until(lambda: written(db), 10, what="the bot done writing")
            held = threading.Event()
            holder = asyncio.ensure_future(asyncio.to_thread(hold_write_lock, db, BUSY_HOLD, held))
            assert await asyncio.to_thread(held.wait, 10)
            pressed = await fd.click(who, table, move)
            opened = await fd.slash(players[1], "tavern", "knucklebones new")
            assert (await pressed.wait_response(timeout=3.0))["type"] == 6  # deferred in time
            assert (await opened.wait_response(timeout=3.0))["type"] == 5
            await fd.wait_until(lambda: (pressed.followup_ids or pressed.original_edits) and opened.followup_ids,
                                BUSY_TIMEOUT + BUSY_HOLD, what="both outcomes")
            await holder
            await settle(fd)
            refused = [it for it in (pressed, opened)
                       if any("could not be saved" in said(m) and m["flags"] & 64 for m in it.followups)]
            assert refused, ("the first in line waited past the busy timeout", [
                (it.name, it.original_edits, [said(m) for m in it.followups]) for it in (pressed, opened)],
                bot.output(30))
            if pressed in refused:
                assert fd.message(table["id"])["components"] == table["components"], "the move was not shown"
                assert (await (await fd.click(who, table, move)).wait_response())["type"] == 7
            if opened in refused:
                await (await fd.slash(players[1], "tavern", "knucklebones new")).wait_response()
            else:
                assert said(opened.followups[0]) == "Your table is open below." and opened.followups[0]["flags"] & 64
            await settle(fd)
            lobby = live_table(fd, "tavern")
            assert lobby is not None and is_table(lobby) and not lobby["flags"] & 64, "the table is in the channel"
        clean(fd, bot)
    replayed, wrong = replays(db)
    assert replayed == 1 and wrong == []  # the lobby in the tavern has no moves yet
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM actions WHERE seat IS NOT NULL").fetchone()[0] == 1


async def test_connections_postgresql_drops_cost_no_answer_and_no_move(pg_url: str) -> None:
    """The server ends every connection the bot holds (an administrator's pg_terminate_backend,
    a failover) as a press arrives, again and again: each press is applied, once, in time, with
    no error logged. A statement on a dropped connection goes again on a fresh one, a
    transaction whose BEGIN finds its connection gone begins on another, a game's lock is
    taken on a new connection."""
    admin = await asyncpg.connect(pg_url)
    terminate = ("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                 " WHERE datname=current_database() AND pid <> pg_backend_pid()")
    try:
        async with running_fake() as fd:
            players = [fd.add_user("ann"), fd.add_user("bob")]
            async with running_bot(fd, {"DATABASE_URL": pg_url}) as bot:
                table = await play.open_table(fd, CHANNEL, "knucklebones new", players[0], players[1:])
                pressed = 0
                for _ in range(12):
                    table = await next_table(fd, CHANNEL)
                    moves = [b["custom_id"] for b in fd.buttons(table) if b["custom_id"].startswith("bn:act:")]
                    ended, it = await asyncio.gather(
                        admin.fetchval(terminate), fd.click(actor(table, players), table, moves[-1]))
                    assert ended >= 1
                    answer = await it.wait_response(timeout=3.0)
                    assert answer["type"] == 7, answer
                    pressed += 1
                    await settle(fd)
            clean(fd, bot)
        logged = await admin.fetchval("SELECT count(*) FROM actions WHERE seat IS NOT NULL")
        assert logged == pressed, "each press stored once"
    finally:
        await admin.close()
