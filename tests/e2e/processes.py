"""The bot's processes for a campaign: one on a SQLite file, or one per shard sharing a
PostgreSQL database, each serving the guilds Discord routes to its shard (DMs reach shard 0's).
Only shard 0's process syncs the commands, globally, so every guild has them."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from tests.fakediscord import BotProcess, FakeDiscord


def shard_guilds(fd: FakeDiscord, channels: Sequence[Sequence[str]]) -> None:
    """A guild for each shard of the fake, with the channels given for that shard (add them
    before the bot connects)."""
    for shard, names in enumerate(channels):
        fd.add_guild(f"Guild {shard}", channels=names, shard=shard)


class BotProcesses:
    """One bot process per shard (one in all on SQLite: ``url`` None)."""

    def __init__(self, fd: FakeDiscord, count: int, seed: int, db: Path, url: str | None) -> None:
        if url is None and count != 1:
            raise ValueError("one process owns a SQLite file")
        self.fd, self.count, self.seed, self.db, self.url = fd, count, seed, db, url
        self.live: list[BotProcess] = []
        #: processes that ended (killed, or replaced): their log still counts
        self.dead: list[BotProcess] = []

    def env(self, index: int) -> dict[str, str]:
        env = {"DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "WARNING", "GAME_SEED": str(self.seed)}
        if self.url is not None:  # one shard each, commands synced globally by shard 0's process
            env.update({"DATABASE_URL": self.url, "SHARD_COUNT": str(self.count), "SHARD_IDS": str(index),
                        "DEV_GUILD_ID": ""})
        return env

    def spawn(self, index: int) -> BotProcess:
        return BotProcess(self.fd, self.env(index), self.db)

    async def start(self) -> None:
        for index in range(self.count):
            bot = self.spawn(index)
            await bot.start(wait_sync=index == 0, timeout=60)
            self.live.append(bot)

    async def stop(self) -> None:
        await asyncio.gather(*(bot.stop() for bot in self.live))

    def errors(self) -> list[str]:
        """The error records of every process, those that ended included."""
        return [record for bot in [*self.dead, *self.live] for record in bot.error_records()]
