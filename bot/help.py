"""/help: what Boneyard can do where it is asked, on one phone screen.

Discord's command picker lists every command, but not which games this server offers, that a
lobby teaches its game, or which few of the /game commands a player needs. So /help answers
with what works *here*: in a server that added the bot, its games (as the server's settings
allow) and the table commands; where the bot is not a member (a user's own install, a DM), only
the dice tools, which are all that work there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import layout
from bot.errors import guarded
from bot.present import players
from bot.replies import reply

if TYPE_CHECKING:
    from bot.client import Boneyard

AT_A_TABLE = ("**At a table**\n"
              "`/game status` shows it again · `/game nudge` pings whoever it waits for\n"
              "`/game rules` · `/game log` · `/game stats`\n"
              "`/game leave` hands your seat to a bot; `/game rejoin` takes it back")
RUNNING = ("**Running a table**\n"
           "Its host, a GM or Manage Channel: `/game pause`, `/game timer`, `/game end`. "
           "A server's admins choose its games with `/boneyard settings`.")
DICE = ("**Dice**\n"
        "`/roll 1d20+5 adv` · `/roll 4d6kh3` · `/roll 1d100 vs 55`\n"
        "`/roll help` shows every system; `/rolls save` keeps a roll to reuse")
ELSEWHERE = ("Games are played in servers that added Boneyard; here it rolls dice for you. "
             "`/forget-me` deletes what it keeps about you.")


class Help(commands.Cog):
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Boneyard can do here: its games, the table commands, dice")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def help(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.answer(interaction))

    async def answer(self, interaction: discord.Interaction) -> None:
        heading = "### Boneyard: dice games on Discord\n"
        if interaction.guild_id is None or not interaction.is_guild_integration():
            sections = [heading + ELSEWHERE, DICE]
        else:
            specs, elsewhere = await self.bot.runtime.offered(interaction)
            if specs:
                games = [f"🎲 **{spec.engine.title}** · {players(*spec.engine.seat_range(spec.engine.Options()))}: "
                         f"`/{spec.command} new`" for spec in specs]
                sections = [heading + "Open a table; others press **Join**, and each lobby has **How to play**.\n"
                            + "\n".join(games + ([elsewhere] if elsewhere else []))]
            else:
                sections = [heading + "This server offers no game: its admins choose them with `/boneyard settings`."]
            sections += [AT_A_TABLE, DICE, RUNNING]
        await reply(interaction, view=layout.container([layout.text(s) for s in sections], None), ephemeral=True)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(Help(bot))
