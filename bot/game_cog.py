"""What every game's command group shares: its registration with the host and `rules`.

A game's cog subclasses GameCog with its group name and its spec, and adds `new` (and whatever
its lobby needs, such as `npc`): those differ by game, these two never do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import guarded
from bot.games import GameSpec

if TYPE_CHECKING:
    from bot.client import Boneyard


class GameCog(commands.GroupCog):
    spec: ClassVar[GameSpec]

    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        bot.runtime.register(self.spec)
        super().__init__()

    @app_commands.command(name="rules", description="How this game is played here, house rulings included")
    async def rules(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.bot.runtime.show_rules(interaction, self.spec))
