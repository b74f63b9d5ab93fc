"""Each server's own settings, as the runtime reads them on every table it opens or steers.

Kept in memory for a minute: a click costs no store read, and a change made through another
process of a cluster reaches this one within that minute (a change made here, at once).
"""

from __future__ import annotations

import time

import discord

from bot.permissions import is_gm
from bot.recent import Recent
from bot.store import Store
from bot.store.records import ServerSettings

#: seconds a server's settings are trusted before they are read again
FRESH = 60.0
#: servers whose settings are kept in memory at once
KEPT = 5_000


class Servers:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: Recent[int, tuple[float, ServerSettings]] = Recent(KEPT)

    async def of(self, guild_id: int) -> ServerSettings:
        known = self._known.get(guild_id)
        if known is not None and time.monotonic() - known[0] < FRESH:
            return known[1]
        settings = await self.store.server_settings(guild_id)
        self._known[guild_id] = (time.monotonic(), settings)
        return settings

    async def put(self, settings: ServerSettings) -> None:
        await self.store.put_server_settings(settings)
        self._known[settings.guild_id] = (time.monotonic(), settings)

    def cached(self, guild_id: int) -> ServerSettings | None:
        """What is known without a read (a table redrawn where no await may happen)."""
        known = self._known.get(guild_id)
        return known[1] if known is not None else None

    async def gm(self, interaction: discord.Interaction) -> bool:
        """Someone the server trusts with every table: Manage Server, or its GM role."""
        if interaction.guild_id is None:
            return False
        return is_gm(interaction, await self.of(interaction.guild_id))
