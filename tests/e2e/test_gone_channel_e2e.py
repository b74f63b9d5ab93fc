"""A game nobody can see any more is cancelled once, quietly: its channel or thread deleted (the
gateway says so, or Discord answers 404 Unknown Channel as its timer's move is shown, or it was
deleted while the bot was away), or the bot removed from its server. Nothing is counted in anyone's
stats, its timer is gone, a restart does not bring it back, and its players' DM copies lose their
buttons. A thread that is merely archived is still there: its game goes on."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.models import Table
from bot.store import open_store
from tests.e2e import play
from tests.e2e.channel import has_controls
from tests.fakediscord import BotProcess, FakeDiscord, FakeUser, running_bot, running_fake

CANCELLED = r"game 1: its channel is gone; cancelled"


def sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'g.sqlite3'}"


async def stored(url: str, game_id: int = 1) -> tuple[Table, float | None, list[tuple[str, int, int]]]:
    """The game, its deadline, and the first player's stats in the default server."""
    store = await open_store(url)
    try:
        table = await store.get(game_id)
        assert table is not None
        seated = next(s.user_id for s in table.seats if s.user_id)
        return table, await store.deadline_of(game_id), await store.stats(table.guild_id, seated)
    finally:
        await store.close()


async def quiet(seconds: float) -> None:
    """Let ``seconds`` go by, for a timer that must not fire to have had its chance."""
    await asyncio.sleep(seconds)


def complaints(bot: BotProcess) -> list[str]:
    """Warnings, errors and tracebacks."""
    return [r for r in bot.records() if " WARNING " in r.split("\n", 1)[0] or " ERROR " in r.split("\n", 1)[0]
            or "Traceback" in r]


async def open_knucklebones(fd: FakeDiscord, channel: str, ann: FakeUser, bob: FakeUser) -> dict[str, Any]:
    return await play.open_table(fd, channel, "knucklebones new", ann, [bob])


async def test_a_timer_whose_table_finds_the_channel_gone_cancels_the_game_once(tmp_path: Path) -> None:
    """The reviewer's case: the channel is gone (every call about it answers 404 Unknown
    Channel) though the bot heard nothing of it. Its timer's move is the last: the game is
    cancelled, logged once, no traceback, and the timer stops playing it in the dark."""
    url = sqlite(tmp_path)
    async with running_fake(channels=("hall",)) as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {"DATABASE_URL": url, "DEFAULT_TIMER_SECONDS": "2", "LOG_LEVEL": "INFO"}) as bot:
            await open_knucklebones(fd, "hall", ann, bob)
            started, _, _ = await stored(url)
            fd.fail("*", rf"^/channels/{fd.channel('hall').id}(/|$)", 404, 10003, times=None)
            await bot.wait_for_line(CANCELLED, timeout=15)
            table, deadline, stats = await stored(url)
            assert table.status == "cancelled" and deadline is None and stats == []
            assert table.version <= started.version + 2  # the move shown as it was found gone, and the end
            # the timer is gone: nothing more is played, said or complained of
            await quiet(4.0)
            assert (await stored(url))[0].version == table.version
            assert sum(CANCELLED in r for r in bot.records()) == 1
            assert complaints(bot) == []


async def test_a_channel_deleted_while_the_bot_was_away_cancels_its_game_before_its_timer_plays(
        tmp_path: Path) -> None:
    """No event comes of a channel deleted while the bot is down: its timer, due, finds the
    channel gone before it plays anyone's default; and the next start leaves the game be."""
    url = sqlite(tmp_path)
    env = {"DATABASE_URL": url, "DEFAULT_TIMER_SECONDS": "8", "LOG_LEVEL": "INFO"}
    async with running_fake(channels=("hall", "lounge")) as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, env):
            await open_knucklebones(fd, "hall", ann, bob)
        before, due, _ = await stored(url)
        assert due is not None
        fd.delete_channel("hall")  # nobody hears it
        async with running_bot(fd, env) as bot:
            await bot.wait_for_line(CANCELLED, timeout=30)
            table, deadline, stats = await stored(url)
            assert table.status == "cancelled" and table.version == before.version + 1  # no default was played
            assert deadline is None and stats == []
            assert complaints(bot) == []
        async with running_bot(fd, env) as bot:
            await quiet(2.0)
            assert (await stored(url))[0].version == table.version
            assert complaints(bot) == [] and not any("game 1" in r for r in bot.records())


async def test_a_deleted_channel_cancels_its_game_at_once_and_its_dm_copies_lose_their_buttons(
        tmp_path: Path) -> None:
    url = sqlite(tmp_path)
    async with running_fake(channels=("hall",)) as fd:
        ann = fd.add_user("ann")
        async with running_bot(fd, {"DATABASE_URL": url, "LOG_LEVEL": "INFO"}) as bot:
            await play.open_table(fd, "hall", "bare-bones new", ann, [], bots=1, first=_any_table)
            copy = await fd.wait_until(lambda: next((m for m in fd.dm_messages(ann) if has_controls(m)), None),
                                       what="ann's DM with buttons")
            fd.delete_channel("hall")
            await bot.wait_for_line(CANCELLED)
            table, deadline, stats = await stored(url)
            assert table.status == "cancelled" and deadline is None and stats == []
            retired = await fd.wait_until(lambda: (m := fd.message(copy["id"])) and not has_controls(m) and m,
                                          what="ann's DM copy without buttons")
            assert "This game was cancelled: its channel is gone." in str(retired["components"])
            assert complaints(bot) == []


async def _any_table(fd: FakeDiscord, channel: str) -> dict[str, Any]:
    """Bare Bones' first table, whose controls are in the players' DMs."""
    return await fd.wait_until(lambda: len(fd.messages(channel)) >= 2 and fd.messages(channel)[-1],
                               what="the first table")


async def test_an_archived_threads_game_goes_on_and_a_deleted_threads_ends(tmp_path: Path) -> None:
    """Archived, a thread is still there: its timer plays on (the table opens the thread
    again); deleted, its game is cancelled."""
    url = sqlite(tmp_path)
    async with running_fake(channels=("hall",)) as fd:
        thread = fd.add_thread("knucklebones night", "hall")
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, {"DATABASE_URL": url, "DEFAULT_TIMER_SECONDS": "2", "LOG_LEVEL": "INFO"}) as bot:
            await open_knucklebones(fd, thread.name, ann, bob)
            before, _, _ = await stored(url)
            fd.archive_thread(thread)
            await fd.wait_until(lambda: not thread.archived, timeout=10, what="the timer's table in the thread")
            moved, _, _ = await stored(url)
            assert moved.status == "active" and moved.version > before.version
            fd.delete_channel(thread)
            await bot.wait_for_line(CANCELLED)
            table, deadline, stats = await stored(url)
            assert table.status == "cancelled" and deadline is None and stats == []
            assert complaints(bot) == []


async def test_a_server_that_removes_the_bot_has_its_games_cancelled(pg_url: str) -> None:
    """On PostgreSQL: the bot removed from a server, its lobbies and games there end; another
    server's game goes on."""
    async with running_fake(channels=("hall",)) as fd:
        other = fd.add_guild("elsewhere", channels=("den", "nook"))
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        env = {"DATABASE_URL": pg_url, "DEFAULT_TIMER_SECONDS": "3", "LOG_LEVEL": "INFO", "DEV_GUILD_ID": ""}
        async with running_bot(fd, env) as bot:
            await open_knucklebones(fd, "den", ann, bob)
            await open_knucklebones(fd, "hall", ann, bob)
            await (await fd.slash(ann, "nook", "knucklebones new", {})).response_message()  # a lobby
            fd.remove_bot(other)
            await bot.wait_for_line(r"game 1: the bot was removed from its server; cancelled")
            await bot.wait_for_line(r"game 3: the bot was removed from its server; cancelled")
            for game_id in (1, 3):
                gone, deadline, stats = await stored(pg_url, game_id)
                assert gone.status == "cancelled" and deadline is None and stats == []
            await quiet(4.0)  # game 2's timer fires meanwhile
            here, _, _ = await stored(pg_url, 2)
            assert here.status == "active" and here.version > 1
            assert not any("game 2" in r for r in bot.records())
            assert complaints(bot) == []


async def test_an_untimed_game_left_behind_in_a_channel_deleted_meanwhile_is_cancelled(tmp_path: Path) -> None:
    """A process stopped between saving a move and showing it; the channel was deleted before
    the next one started. No timer would ever find it gone, and posting the table it left
    behind fails: the start's look for every live game's channel cancels it."""
    url = sqlite(tmp_path)
    env = {"DATABASE_URL": url, "DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "INFO"}
    async with running_fake(channels=("hall", "lounge")) as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, env):
            await open_knucklebones(fd, "hall", ann, bob)
        store = await open_store(url)
        try:  # the move was saved, its table never shown
            book = await store.book(1)
            table = await store.get(1)
            assert table is not None and book.shown == table.version
            book.shown = table.version - 1
            await store.put_book(1, book)
        finally:
            await store.close()
        fd.delete_channel("hall")
        async with running_bot(fd, env) as bot:
            await bot.wait_for_line(CANCELLED, timeout=15)
            table, deadline, stats = await stored(url)
            assert table.status == "cancelled" and deadline is None and stats == []
            assert complaints(bot) == []


async def test_an_untimed_game_whose_channel_was_deleted_while_the_bot_was_away_is_cancelled_at_start(
        tmp_path: Path) -> None:
    """No event comes of a channel deleted while the bot is down, and an untimed game has no
    timer to find it gone: the start looks for every live game's channel."""
    url = sqlite(tmp_path)
    env = {"DATABASE_URL": url, "DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "INFO"}
    async with running_fake(channels=("hall", "lounge")) as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        async with running_bot(fd, env):
            await open_knucklebones(fd, "hall", ann, bob)
            await play.open_table(fd, "lounge", "knucklebones new", bob, [ann])
        fd.delete_channel("hall")
        async with running_bot(fd, env) as bot:
            await bot.wait_for_line(CANCELLED, timeout=15)
            table, deadline, stats = await stored(url)
            assert table.status == "cancelled" and deadline is None and stats == []
            assert (await stored(url, 2))[0].status == "active"  # the other channel's game goes on
            assert complaints(bot) == []


class _Unreachable:
    """A client whose every question to Discord fails on the way (no channel cached)."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def get_channel(self, channel_id: int) -> None:
        return None

    async def fetch_channel(self, channel_id: int) -> None:
        raise self.exc


async def test_a_channel_is_gone_only_when_discord_says_so() -> None:
    """A network failure while asking says nothing of the channel: its game (and its timer)
    goes on, where the timer used to be dropped for good."""
    import aiohttp
    import discord

    from bot.deadlines import still_there

    class _Response:
        status, reason = 404, "Not Found"

    assert await still_there(_Unreachable(aiohttp.ClientConnectionError()), 5)  # type: ignore[arg-type]
    assert await still_there(_Unreachable(TimeoutError()), 5)  # type: ignore[arg-type]
    gone = discord.NotFound(_Response(), {"code": 10003, "message": "Unknown Channel"})  # type: ignore[arg-type]
    assert not await still_there(_Unreachable(gone), 5)  # type: ignore[arg-type]
