"""A server that removes the bot while it is offline sends it no event: at the next start the
bot notices the server missing from those Discord lists, and its data goes after the grace
period like any other server's that left; a server still there, or back, keeps its data."""

from __future__ import annotations

from pathlib import Path

from bot.store import ServerSettings, open_store
from tests.fakediscord import running_bot, running_fake
from tests.test_bounded_data import finished


async def test_a_server_that_removed_the_bot_while_it_was_offline_is_marked_left(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    async with running_fake(channels=("games",)) as fd:
        ann, bob = fd.add_user("ann"), fd.add_user("bob")
        staying = fd.add_guild("staying", channels=("tavern",))
        came_back = fd.add_guild("came back", channels=("hall",))
        store = await open_store(url)
        gone_guild = 4242 << 22  # a server Discord no longer lists for the bot
        await finished(store, [(ann.id, 1), (bob.id, 2)], channel=901, guild=gone_guild)
        await finished(store, [(ann.id, 1), (bob.id, 2)], channel=902, guild=staying.id)
        await store.put_server_settings(ServerSettings(guild_id=fd.guild_id, default_timer=60))
        await store.mark_guild_left(came_back.id, 1000.0)  # left once, invited again while offline
        await store.close()

        async with running_bot(fd, {"DATABASE_URL": url, "LOG_LEVEL": "INFO"}) as bot:
            await bot.wait_for_line(f"server {gone_guild} removed the bot while it was away")
        store = await open_store(url)
        try:
            left = await store.guilds_left()
            assert set(left) == {gone_guild}
            assert await store.guilds_hosted() >= {gone_guild, staying.id, fd.guild_id}
            # the next start does not move the day it left
            async with running_bot(fd, {"DATABASE_URL": url}):
                pass
            assert await store.guilds_left() == left
        finally:
            await store.close()
