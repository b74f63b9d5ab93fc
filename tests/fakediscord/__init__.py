"""A fake Discord for end-to-end tests: the real bot process talks to it over 127.0.0.1.

Typical use (no conftest needed; these are plain async context managers):

    async with running_fake() as fd:
        alice = fd.add_user("alice")
        async with running_bot(fd) as bot:             # python -m bot, waits for GUILD_CREATE
            it = await fd.slash(alice, "games", "play", {"game": "dice"})
            msg = await it.response_message()
        assert fd.violations == [] and fd.unknown_routes == []
        assert bot.error_records() == []

Sharded, as Discord routes events: ``running_fake(shards=2)`` recommends two shards,
``fd.add_guild("other", channels=["den"], shard=1)`` adds a guild that shard 1 receives; each
bot process identifies with its [shard_id, shard_count], guild events go to the guild's shard,
DMs to shard 0, and every Interaction records the shard it was delivered on.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Sequence
from typing import Any

from tests.fakediscord.botproc import FAKE_TOKEN, REPO_ROOT, BotProcess
from tests.fakediscord.models import (
    BASIC_PERMISSIONS, BOT_PERMISSIONS, FLAG_EPHEMERAL, FLAG_LOADING, MANAGE_CHANNELS, FakeChannel, FakeGuild,
    FakeUser, Interaction, RequestRecord, Violation, buttons, selects, shard_of,
)
from tests.fakediscord.driver import FakeDiscord

__all__ = [
    "BASIC_PERMISSIONS", "BOT_PERMISSIONS", "FAKE_TOKEN", "FLAG_EPHEMERAL", "FLAG_LOADING", "MANAGE_CHANNELS",
    "REPO_ROOT", "BotProcess", "FakeChannel", "FakeDiscord", "FakeGuild", "FakeUser", "Interaction", "RequestRecord",
    "Violation", "buttons", "running_bot", "running_fake", "selects", "shard_of",
]


@contextlib.asynccontextmanager
async def running_fake(**kwargs: Any) -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord (kwargs go to its constructor), stopped on exit."""
    fd = FakeDiscord(**kwargs)
    await fd.start()
    try:
        yield fd
    finally:
        await fd.stop()


@contextlib.asynccontextmanager
async def running_bot(fd: FakeDiscord, env_extra: dict[str, str] | None = None,
                      db_path: str | os.PathLike[str] | None = None, *, command: Sequence[str] | None = None,
                      wait_sync: bool = True, timeout: float = 15.0, **kwargs: Any) -> AsyncIterator[BotProcess]:
    """A bot process connected to `fd` (ready as BotProcess defines it), SIGTERMed on exit."""
    bot = BotProcess(fd, env_extra, db_path, command=command, **kwargs)
    try:
        await bot.start(wait_sync=wait_sync, timeout=timeout)
        yield bot
    finally:
        await bot.stop()
