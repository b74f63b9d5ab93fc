"""/roll: dice in the notation RPG players already use, publicly, privately or as a secret GM roll.
`/roll help` answers privately with what to type for each game (a help command of its own would
be one more name to learn; `help` is what a stuck player types into the box they are in).

Installable to a user's account as well as to a server, so it works wherever its player is: in
servers, in DMs with the bot and in private chats. Everything it says goes through the
interaction (cogs/dice/post.py), so it needs nothing from a channel it is used in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import guarded
from bot.store import RollAsked
from cogs.dice.post import Poster
from cogs.dice.text import HELP, asks_help
from rules.notation import MAX_EXPRESSION, MAX_REPEAT

if TYPE_CHECKING:
    from bot.client import Boneyard

MODE_CHOICES = [
    app_commands.Choice(name="normal", value="normal"),
    app_commands.Choice(name="advantage: roll the d20 twice, keep the higher", value="advantage"),
    app_commands.Choice(name="disadvantage: roll the d20 twice, keep the lower", value="disadvantage"),
]


def anywhere(command: app_commands.Command) -> app_commands.Command:  # type: ignore[type-arg]
    """Installable by a server and by a user, and usable in servers, DMs with the bot and private
    chats: a dice tool goes where its player goes (the games stay in servers)."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)


class RollCog(commands.Cog):
    def __init__(self, bot: Boneyard, poster: Poster) -> None:
        self.bot = bot
        #: answers the dice tools' buttons too (cogs/dice/buttons.py finds it here)
        self.poster = poster

    @anywhere
    @app_commands.command(name="roll", description="Roll dice: 1d20+5 adv, 4d6kh3, 1d100 vs 55, 2d6+1 pbta, 3d6 blades; help for more")
    @app_commands.describe(
        expression="Dice, e.g. 1d20+5 adv, 1d20+3 dc 15, 1d100 vs 55, 2d6+1 pbta, 3d6 blades; or help",
        mode="Advantage or disadvantage: the d20 the roll starts with is rolled twice",
        repeat="Roll it this many times: each result, then their sum",
        target="Count dice showing at least this as successes",
        fail="With a target: take one success away for each die at or below this",
        private="Only you see the result (a Reveal button shows it to the channel later)",
        secret_to="A secret roll: the result goes by DM to you and this person (the GM)",
    )
    @app_commands.choices(mode=MODE_CHOICES)
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: app_commands.Range[str, 1, MAX_EXPRESSION],
        mode: str = "normal",
        repeat: app_commands.Range[int, 1, MAX_REPEAT] | None = None,
        target: int | None = None,
        fail: int | None = None,
        private: bool = False,
        secret_to: discord.User | None = None,
    ) -> None:
        async def run() -> None:
            if asks_help(expression):
                await interaction.response.send_message(HELP, ephemeral=True)
                return
            asked = RollAsked(expression=expression, mode=mode, repeat=repeat, target=target, fail=fail)
            await self.poster.roll(interaction, asked, private=private, secret_to=secret_to)

        await guarded(interaction, run)
