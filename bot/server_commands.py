"""``/boneyard``: what a server's admins set for the whole server, from Discord.

``settings`` shows and changes the server's own settings (Manage Server): the default turn
timer, which games may be opened, the channels or categories tables may open in, pictures on
or off, and the GM role, whose members steer any table as its host would. ``/forget-me`` is for
everyone, wherever they are: it deletes what Boneyard keeps about the person asking, after they
confirm.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import privacy
from bot.config import timer_fault
from bot.errors import Refusal, guarded
from bot.render import quote
from bot.replies import reply
from bot.store.records import ServerSettings

if TYPE_CHECKING:
    from bot.client import Boneyard
    from bot.runtime import TableRuntime


class ServerCommands(commands.GroupCog, group_name="boneyard", group_description="This server's Boneyard"):
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        super().__init__()

    @property
    def runtime(self) -> TableRuntime:
        return self.bot.runtime

    @app_commands.command(name="settings", description="Show or change this server's settings (Manage Server)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        gm_role="Members of this role steer any table as its host would (start, pause, end, timer, seats)",
        clear_gm_role="No GM role (people with Manage Server still steer every table)",
        default_timer="A new table's seconds per decision (0: no timer; at least 15)",
        games="The games tables may be opened for, e.g. knucklebones, bare-bones (or: all)",
        add_channel="Let tables open in this channel or category (the first one limits tables to the list)",
        remove_channel="Take this channel or category off the list",
        anywhere="Let tables open in any channel again",
        pictures="Draw tables and dice as pictures (off: words only)",
    )
    async def settings(
        self, interaction: discord.Interaction, gm_role: discord.Role | None = None, clear_gm_role: bool = False,
        default_timer: app_commands.Range[int, 0, 86400] | None = None,
        games: app_commands.Range[str, 1, 300] | None = None,
        add_channel: discord.TextChannel | discord.CategoryChannel | None = None,
        remove_channel: discord.TextChannel | discord.CategoryChannel | None = None,
        anywhere: bool = False, pictures: bool | None = None,
    ) -> None:
        async def run() -> None:
            guild_id = interaction.guild_id
            permissions = interaction.permissions
            if guild_id is None:
                raise Refusal("Server settings are set in a server.")
            if not (permissions.manage_guild or permissions.administrator):
                raise Refusal("Only someone with **Manage Server** can change this server's settings.")
            now = await self.runtime.servers.of(guild_id)
            changed = self._changed(now, gm_role, clear_gm_role, default_timer, games, add_channel,
                                    remove_channel, anywhere, pictures)
            if changed != now:
                await self.runtime.servers.put(changed)
            said = "Saved. " if changed != now else ""
            await reply(interaction, content=said + self.describe(changed), ephemeral=True,
                        allowed_mentions=discord.AllowedMentions.none())

        await guarded(interaction, run)

    def _changed(self, now: ServerSettings, gm_role: discord.Role | None, clear_gm_role: bool,
                 default_timer: int | None, games: str | None,
                 add_channel: discord.abc.GuildChannel | None, remove_channel: discord.abc.GuildChannel | None,
                 anywhere: bool, pictures: bool | None) -> ServerSettings:
        """The settings with the asked changes, each refused in words when it cannot be."""
        out = now.model_copy(deep=True)
        if gm_role is not None and clear_gm_role:
            raise Refusal("Give a GM role or clear it, not both.")
        if gm_role is not None:
            if gm_role.is_default():
                raise Refusal("@everyone cannot be the GM role: everyone would steer every table.")
            out.gm_role_id = gm_role.id
        if clear_gm_role:
            out.gm_role_id = None
        if default_timer is not None:
            fault = timer_fault(default_timer)
            if fault is not None:
                raise Refusal(fault)
            out.default_timer = default_timer
        if games is not None:
            out.games = self._games(games)
        if anywhere and (add_channel or remove_channel):
            raise Refusal("Choose **anywhere** or a channel to add or remove, not both.")
        if anywhere:
            out.channels = None
        if add_channel is not None:
            out.channels = sorted({*(out.channels or []), add_channel.id})
        if remove_channel is not None and out.channels is not None:
            if remove_channel.id not in out.channels:
                raise Refusal(f"<#{remove_channel.id}> is not on the list.")
            out.channels = [c for c in out.channels if c != remove_channel.id]
            if not out.channels:
                raise Refusal("That would leave no channel for tables: use **anywhere** to lift the limit instead.")
        if pictures is not None:
            out.pictures = pictures
        return out

    def _games(self, text: str) -> list[str] | None:
        if text.strip().lower() == "all":
            return None
        by_name = {}
        for key, spec in self.runtime.specs.items():
            by_name.update({key: key, spec.command: key, spec.engine.title.lower(): key})
        chosen = []
        for word in (w.strip().lower() for w in text.split(",")):
            if not word:
                continue
            if word not in by_name:
                known = ", ".join(sorted(spec.command for spec in self.runtime.specs.values()))
                raise Refusal(f"No game is called {quote(word)}. The games: {known}, "
                              "or **all**.")
            chosen.append(by_name[word])
        if not chosen:
            raise Refusal("Name at least one game, or **all**.")
        return sorted(set(chosen))

    def describe(self, settings: ServerSettings) -> str:
        titles = {key: spec.engine.title for key, spec in self.runtime.specs.items()}
        default = self.runtime.default_timer
        if settings.default_timer is None:
            timer = f"{default} s per decision (the bot's default)" if default else "none (the bot's default)"
        else:
            timer = f"{settings.default_timer} s per decision" if settings.default_timer else "none"
        games = "all" if settings.games is None else ", ".join(titles.get(g, g) for g in settings.games)
        channels = "any channel" if settings.channels is None else ", ".join(f"<#{c}>" for c in settings.channels)
        role = f"<@&{settings.gm_role_id}>" if settings.gm_role_id else "none (Manage Server only)"
        return ("**This server's settings**\n"
                f"GM role: {role}\nTurn timer for new tables: {timer}\nGames: {games}\n"
                f"Tables open in: {channels}\nPictures: {'on' if settings.pictures else 'off'}")


class ForgetMe(commands.Cog):
    """``/forget-me`` stands alone, where its asker may be: in a server, in a DM with the bot, or
    in a private chat by a user who installed Boneyard to their account (who may share no server
    with it). A subcommand of ``/boneyard``, a server's command, reached none of those."""

    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot

    @app_commands.command(name="forget-me", description="Delete what Boneyard keeps about you (asks first)")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: privacy.forget_me(interaction, self.bot.runtime.store))


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(ServerCommands(bot))
    await bot.add_cog(ForgetMe(bot))
