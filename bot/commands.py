"""/game: the commands every table shares, whatever is being played."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.components import EndButton
from bot.config import timer_fault
from bot.errors import Refusal, guarded
from bot.models import Table
from bot.replies import reply, update
from bot.seats import find_seat
from bot.render import clip, managers_only, runner, safe

if TYPE_CHECKING:
    from bot.client import Boneyard


#: a win rate means little over fewer games
MIN_GAMES_FOR_RATE = 3


def leaderboard_lines(rows: list[tuple[str, int, int, int]]) -> dict[str, list[str]]:
    """Per game: place, player, wins of games, and the win rate once it means something."""
    out: dict[str, list[str]] = {}
    for game, user_id, played, won in rows:
        lines = out.setdefault(game, [])
        rate = f" · {round(100 * won / played)}%" if played >= MIN_GAMES_FOR_RATE else ""
        lines.append(f"{len(lines) + 1}. <@{user_id}>: {won} won of {played}{rate}")
    return out


class KeepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:keep:(?P<what>game|lobby)"):
    """The way back from /game end's question. Dismissing the private question would do too, but
    a question with one answer reads as if that answer were the only way out."""

    def __init__(self, what: str) -> None:
        super().__init__(discord.ui.Button(label="Keep playing" if what == "game" else "Keep it open",
                                           style=discord.ButtonStyle.secondary, custom_id=f"bn:keep:{what}"))
        self.what = what

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> KeepButton:
        return cls(match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        said = "the game goes on" if self.what == "game" else "the lobby stays open"
        await guarded(interaction, lambda: update(interaction, content=f"Nothing changed: {said}.", view=None))


class GameCommands(commands.GroupCog, group_name="game", group_description="The game in this channel"):
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        super().__init__()

    @property
    def runtime(self):  # noqa: ANN201
        return self.bot.runtime

    @app_commands.command(name="status", description="Show the table of this channel's game again")
    async def status(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.runtime.show_table(interaction))

    @app_commands.command(name="end", description="End this channel's game (host, GM or Manage Channel)")
    async def end(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            table = await self.runtime.live_table(interaction)
            if not self.runtime.may_manage(interaction, table, await self.runtime.servers.gm(interaction)):
                raise Refusal(managers_only(table, "end the game"))
            lobby = table.status == "lobby"
            end = EndButton(table.id or 0)
            if lobby:
                end.item.label = "Close the lobby"
            view = discord.ui.View(timeout=None)
            view.add_item(end)
            view.add_item(KeepButton("lobby" if lobby else "game"))
            view.stop()
            await interaction.response.send_message(
                "Close the lobby for everyone? No game has started in it." if lobby
                else "End the game for everyone? Nothing is recorded for an unfinished game.",
                view=view, ephemeral=True,
            )

        await guarded(interaction, run)

    @app_commands.command(name="leave", description="Leave this channel's game (a bot plays your seat)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.runtime.leave(interaction))

    @app_commands.command(name="nudge", description="Ping whoever the table is waiting for (once every 5 minutes)")
    async def nudge(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.runtime.nudge(interaction))

    @app_commands.command(name="rejoin", description="Take back your seat from the bot that plays it since you left")
    async def rejoin(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.runtime.rejoin(interaction))

    @app_commands.command(name="unseat",
                          description="Remove a seat from the lobby, or hand a player's seat to a bot in play (host, GM)")
    @app_commands.describe(seat="A seat number, an @player or a name")
    async def unseat(self, interaction: discord.Interaction, seat: app_commands.Range[str, 1, 100]) -> None:
        async def run() -> None:
            table = await self.runtime.live_table(interaction)
            if table.status == "active":
                await self.runtime.hand_to_bot(interaction, seat)
            else:
                await self.runtime.edit_lobby(interaction, change, what="remove a seat")

        def change(table: Table) -> str:
            index = find_seat(table, seat)
            gone = table.seats[index]
            if table.host_plays and not gone.ai and gone.user_id == table.host_id:
                raise Refusal("The host keeps their seat; use **Cancel** to close the lobby.")
            table.seats.pop(index)
            return f"{safe(gone.name)} no longer has a seat."

        await guarded(interaction, run)

    @app_commands.command(name="pause", description="Pause this channel's game: no moves, no timers (host, GM or Manage Channel)")
    async def pause(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.runtime.pause(interaction, True))

    @app_commands.command(name="resume", description="Resume this channel's paused game (host, GM or Manage Channel)")
    async def resume(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.runtime.pause(interaction, False))

    @app_commands.command(name="log", description="Every move of this channel's game, a page at a time (opens on the newest)")
    async def log(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.runtime.show_log(interaction))

    @app_commands.command(name="timer", description="The time for each decision: see it, set it or turn it off")
    @app_commands.describe(seconds="Seconds per decision (15 to 86400), or 0 for off; leave empty to see the timer")
    async def timer(
        self, interaction: discord.Interaction, seconds: app_commands.Range[int, 0, 86400] | None = None
    ) -> None:
        async def run() -> None:
            if seconds is None:  # a question, not a change: anyone may ask
                table = await self.runtime.live_table(interaction)
                now = f"{table.timer_seconds} seconds per decision" if table.timer_seconds else "off"
                how = "change it with `/game timer seconds:` (0 turns it off)" if table.timer_seconds else \
                    "set one with `/game timer seconds:` (15 or more)"
                await reply(interaction, ephemeral=True,
                            content=f"Turn timer: {now}. {runner(table, start=True)}, a GM of this server or "
                                    f"someone with Manage Channel can {how}.")
                return
            fault = timer_fault(seconds)
            if fault is not None:
                raise Refusal(fault)
            await self.runtime.set_timer(interaction, seconds or None)

        await guarded(interaction, run)

    @app_commands.command(name="stats", description="This server's leaderboard, or one player's record")
    @app_commands.describe(player="Whose record (default: the server's leaderboard for every game)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        async def run() -> None:
            if interaction.guild_id is None:
                raise Refusal("Records are kept per server; ask in a server channel.")
            titles = {key: spec.engine.title for key, spec in self.runtime.specs.items()}
            if player is None:
                rows = await self.runtime.store.leaderboard(interaction.guild_id)
                embed = discord.Embed(title="Leaderboard", description=None if rows else "No finished games yet.")
                for game, lines in leaderboard_lines(rows).items():
                    embed.add_field(name=titles.get(game, game), value=clip("\n".join(lines), 1024), inline=False)
                embed.set_footer(text=f"A win rate shows once a player has finished {MIN_GAMES_FOR_RATE} games · "
                                      "/game stats player: for one record")
            else:
                rows3 = await self.runtime.store.stats(interaction.guild_id, player.id)
                lines = [f"**{titles.get(g, g)}**: {won} won of {played} played" for g, played, won in rows3]
                who = f"<@{player.id}>"  # a mention reads as their name whether or not Discord resolved the user
                embed = discord.Embed(title="Record in this server",
                                      description=f"{who}\n" + ("\n".join(lines) or "No finished games yet."))
            await reply(interaction, embed=embed, ephemeral=True)

        await guarded(interaction, run)

    @app_commands.command(name="rules", description="The rules, rulings and options of this channel's game")
    async def rules(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.runtime.show_rules(interaction))


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(GameCommands(bot))
    bot.add_dynamic_items(KeepButton)
