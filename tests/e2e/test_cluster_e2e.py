"""Two bot processes, one shard each, sharing one PostgreSQL store, against a sharded fake Discord.

Guild "Harbour" is on shard 0 (process A), guild "Crypt" on shard 1 (process B); DMs reach
shard 0 whatever guild their game is in. Players act only by clicking what the bots rendered.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from tests.e2e.channel import button, clean, live_table, next_table, said, top
from tests.e2e.play import open_table
from tests.fakediscord import BotProcess, FakeDiscord, FakeUser, running_fake

SEALED = "tests.fixtures.sealed_game"


def shard_env(url: str, shard: int, **extra: str) -> dict[str, str]:
    # no DEV_GUILD_ID: commands are synced globally, so both guilds have them
    return {"DATABASE_URL": url, "SHARD_COUNT": "2", "SHARD_IDS": str(shard), "DEV_GUILD_ID": "",
            "EXTRA_COGS": SEALED, "DEFAULT_TIMER_SECONDS": "0", **extra}


async def start(fd: FakeDiscord, url: str, shard: int, **extra: str) -> BotProcess:
    """A bot process for one shard; only shard 0's syncs the commands."""
    bot = BotProcess(fd, shard_env(url, shard, **extra))
    await bot.start(wait_sync=shard == 0)
    return bot


@pytest.fixture
async def world() -> AsyncIterator[FakeDiscord]:
    async with running_fake(channels=(), shards=2) as fd:
        fd.add_guild("Harbour", channels=["harbour", "quay"], shard=0)
        fd.add_guild("Crypt", channels=["crypt", "vault"], shard=1)
        yield fd


def finished(message: dict[str, Any]) -> bool:
    return "Final standings" in said(message)


def prompted(message: dict[str, Any], players: list[FakeUser]) -> FakeUser:
    content = top(message)
    return next(p for p in players if f"<@{p.id}>" in content)


async def knucklebones(fd: FakeDiscord, channel: str, host: FakeUser, other: FakeUser | None = None) -> dict[str, Any]:
    """A started game: ``host`` against ``other``, or against an AI seat."""
    others = [other] if other is not None else []
    return await open_table(fd, channel, "knucklebones new", host, others, bots=1 - len(others))


async def play(fd: FakeDiscord, channel: str, players: list[FakeUser], clicks: int = 400) -> list[int | None]:
    """Click the prompted player's last move ``clicks`` times or to the end; returns the shards
    the clicks were delivered on."""
    shards: list[int | None] = []
    for _ in range(clicks):
        table = await next_table(fd, channel)
        if finished(table):
            break
        moves = [b for b in fd.buttons(table) if (b["custom_id"] or "").startswith("bn:act:")]
        it = await fd.click(prompted(table, players), table, moves[-1]["custom_id"])
        assert (await it.wait_response(timeout=10))["type"] == 7
        shards.append(it.shard)
    await next_table(fd, channel)  # everything the last click set off is out
    return shards


async def rows(url: str, query: str, *args: object) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(query, *args)
    finally:
        await conn.close()


async def test_two_shard_processes_share_every_game(world: FakeDiscord, pg_url: str) -> None:
    fd = world
    ann, bob = fd.add_user("ann"), fd.add_user("bob", dms_closed=True)
    a = await start(fd, pg_url, 0)
    b = await start(fd, pg_url, 1)
    try:
        assert sum("synced" in line for line in a.lines) == 1 and not any("synced" in ln for ln in b.lines)
        assert any("[shard 0/2 pid " in line for line in a.lines)
        assert any("[shard 1/2 pid " in line for line in b.lines)

        # a game in each shard's guild, played to the end by the process that owns the guild
        await knucklebones(fd, "harbour", ann)
        await knucklebones(fd, "crypt", bob)
        here, there = await asyncio.gather(play(fd, "harbour", [ann]), play(fd, "crypt", [bob]))
        assert set(here) == {0} and set(there) == {1}
        for channel in ("harbour", "crypt"):
            assert finished(live_table(fd, channel) or {})

        # Sealed Pick in the Crypt (shard 1): ann's choices come by DM, bob's DMs are closed
        lobby = await (await fd.slash(ann, "crypt", "sealedpick new")).response_message()
        await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
        await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()
        dm = await fd.wait_until(lambda: fd.dm_messages(ann) and fd.dm_messages(ann)[-1])
        table = await fd.wait_until(lambda: (m := live_table(fd, "crypt")) and "My hand" in json.dumps(
            fd.buttons(m)) and m)
        hand = await fd.click(bob, table, button(fd, table, "My hand"))
        private = await hand.response_message()

        # at the same instant: ann's DM click reaches process A (shard 0), bob's click on his
        # private copy in the Crypt reaches process B (shard 1); both apply, one after the other
        by_dm, by_hand = await asyncio.gather(fd.click(ann, dm, button(fd, dm, "4")),
                                              fd.click(bob, private, button(fd, private, "2")))
        answers = await asyncio.gather(by_dm.wait_response(timeout=10), by_hand.wait_response(timeout=10))
        assert (by_dm.shard, by_hand.shard) == (0, 1)
        assert max(by_dm.injected_at, by_hand.injected_at) < min(by_dm.responded_at or 0, by_hand.responded_at or 0)
        assert [x["type"] for x in answers] == [7, 7], answers  # no "the table changed" refusal
        final = await fd.wait_for_message(lambda m: finished(m) and int(m["id"]) > int(lobby["id"]), timeout=10,
                                          channel="crypt")
        # her 4 against his 2: both picks counted
        assert f"<@{ann.id}> wins" in top(final) and "**1.** Ann: 4 points" in said(final)

        game = (await rows(pg_url, "SELECT id FROM games WHERE game='sealedpick'"))[0]["id"]
        moves = await rows(pg_url, "SELECT version, seat, action FROM actions WHERE game_id=$1 ORDER BY version", game)
        picks = [(r["seat"], json.loads(r["action"])) for r in moves]
        assert sorted(picks) == [(0, {"number": 4}), (1, {"number": 2})]  # each once
        assert [r["version"] for r in moves] == [moves[0]["version"], moves[0]["version"] + 1]  # in order
        applied = {r["id"] for r in await rows(pg_url, "SELECT id FROM interactions")}
        assert {by_dm.id, by_hand.id} <= applied
        clean(fd, a, b)
    finally:
        await asyncio.gather(a.stop(), b.stop())


async def test_a_killed_process_comes_back_and_its_games_carry_on(world: FakeDiscord, pg_url: str) -> None:
    fd = world
    ann, bob, cy = fd.add_user("ann"), fd.add_user("bob"), fd.add_user("cy")
    a = await start(fd, pg_url, 0)
    b = await start(fd, pg_url, 1)
    b2: BotProcess | None = None
    try:
        await knucklebones(fd, "crypt", ann, bob)
        assert set(await play(fd, "crypt", [ann, bob], clicks=3)) == {1}
        b.kill()  # mid-game, as an OOM kill or a crash would
        assert await b.wait() != 0

        # the other process keeps serving its guild meanwhile
        await knucklebones(fd, "harbour", cy)
        assert set(await play(fd, "harbour", [cy], clicks=4)) == {0}

        # a fresh process for shard 1 identifies again and the Crypt's game goes on to the end
        b2 = await start(fd, pg_url, 1)
        assert set(await play(fd, "crypt", [ann, bob])) == {1}
        final = live_table(fd, "crypt")
        assert final is not None and finished(final)
        assert set(await play(fd, "harbour", [cy])) <= {0}
        versions = [r["version"] for r in await rows(
            pg_url, "SELECT a.version FROM actions a JOIN games g ON g.id=a.game_id"
                    " WHERE g.channel_id=$1 ORDER BY a.version", fd.channel("crypt").id)]
        # no move lost or doubled by the kill: one log entry per move number, none missing
        assert versions == list(range(versions[0], versions[0] + len(versions)))
        clean(fd, a, b2)
    finally:
        await asyncio.gather(a.stop(), b.stop(), *([b2.stop()] if b2 else []))


async def test_every_deadline_fires_once_with_two_processes_watching(world: FakeDiscord, pg_url: str) -> None:
    fd = world
    ann, bob = fd.add_user("ann"), fd.add_user("bob")
    a = await start(fd, pg_url, 0, DEFAULT_TIMER_SECONDS="3")
    b = await start(fd, pg_url, 1, DEFAULT_TIMER_SECONDS="3")
    channels = ["harbour", "quay", "crypt", "vault"]
    try:
        seen = 0
        for channel in channels:  # ann picks by DM (through shard 0); bob's timer decides for him
            lobby = await (await fd.slash(ann, channel, "sealedpick new")).response_message()
            await (await fd.click(bob, lobby, button(fd, lobby, "Join"))).wait_response()
            await (await fd.click(ann, lobby, button(fd, lobby, "Start"))).wait_response()
            dm = await fd.wait_until(lambda: (m := fd.dm_messages(ann)) and int(m[-1]["id"]) > seen and m[-1])
            seen = int(dm["id"])
            assert (await (await fd.click(ann, dm, button(fd, dm, "4"))).wait_response())["type"] == 7
        await fd.wait_until(lambda: all((m := live_table(fd, c)) and finished(m) for c in channels), timeout=20,
                            what="every game to time out")
        await asyncio.sleep(1.0)  # room for a second firing, were there one
        for channel in channels:
            cid = fd.channel(channel).id
            notices = [c for c in fd.calls if c["method"] == "POST" and c["path"] == f"/channels/{cid}/messages"
                       and "Time ran out" in json.dumps(c["json"])]
            assert len(notices) == 1, (channel, notices)
            assert f"<@{ann.id}> wins" in top(live_table(fd, channel) or {})
        timeouts = await rows(pg_url, "SELECT game_id, seat FROM actions WHERE action LIKE '%timeout%'")
        assert sorted(r["seat"] for r in timeouts) == [1] * len(channels)  # bob's, once in each game
        assert len({r["game_id"] for r in timeouts}) == len(channels)
        assert await rows(pg_url, "SELECT * FROM deadlines") == []
        clean(fd, a, b)
    finally:
        await asyncio.gather(a.stop(), b.stop())
