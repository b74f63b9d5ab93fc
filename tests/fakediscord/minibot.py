"""A minimal discord.py bot used only by tests/test_fakediscord_smoke.py.

It checks the fake against the unchanged library without depending on the real bot (which others
are changing concurrently): one of each kind of thing the real bot does - slash commands (plain,
grouped), a persistent button answered with an edit, a persistent select, a modal, a thinking
defer with a file followup, a DM with the closed-DM fallback, and a handler too slow for the
3-second window. Run as a script: it reads the same environment variables as `python -m bot`.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import sys

import discord
import yarl
from discord import app_commands
from discord.ext import commands

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
log = logging.getLogger("minibot")


class CounterView(discord.ui.View):
    """Persistent (timeout=None, fixed custom_id): survives a restart, like the real bot's buttons."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Count", custom_id="mini:count", style=discord.ButtonStyle.primary)
    async def count(self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]) -> None:
        assert interaction.message is not None
        n = int(interaction.message.content.rsplit(" ", 1)[-1])
        await interaction.response.edit_message(content=f"pong {n + 1}", view=self)


class PictureCounterView(discord.ui.View):
    """The counter again, its answer carrying a picture as a table's does (one of a few drawn
    once, as the real bot's cache mostly serves them): what a bare bot pays for attaching it
    (bench/knucklebones_latency.py --baseline picture)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Count", custom_id="mini:countpic", style=discord.ButtonStyle.primary)
    async def count(self, interaction: discord.Interaction, button: discord.ui.Button[PictureCounterView]) -> None:
        assert interaction.message is not None
        n = int(interaction.message.content.rsplit(" ", 1)[-1]) + 1
        png = _PICTURES.get(n % 6) or _PICTURES.setdefault(n % 6, _picture(n % 6))
        await interaction.response.edit_message(content=f"pong {n}", view=self,
                                                attachments=[discord.File(io.BytesIO(png), filename="count.png")])


_PICTURES: dict[int, bytes] = {}


def _picture(n: int) -> bytes:
    """Three rows of dice tiles on a dark ground, about the size and weight of a table's."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (952, 194), (43, 45, 49))
    draw = ImageDraw.Draw(image)
    for row in range(3):
        for i in range((n + row) % 24 + 1):
            x, y = 12 + i * 38, 20 + row * 58
            draw.rounded_rectangle((x, y, x + 32, y + 32), radius=6, fill=(235, 235, 235))
            for dot in range((i + row) % 6 + 1):
                cx, cy = x + 7 + (dot % 3) * 9, y + 9 + (dot // 3) * 13
                draw.ellipse((cx - 3, cy - 3, cx + 3, cy + 3), fill=(20, 20, 20))
    out = io.BytesIO()  # encoded as cheaply as the real bot encodes its pictures
    image = image.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    image.save(out, format="PNG", compress_level=3, optimize=False)
    return out.getvalue()


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(custom_id="mini:pick", placeholder="Pick a die",
                       options=[discord.SelectOption(label=f"d{n}", value=str(n)) for n in (4, 6, 20)])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[PickView]) -> None:
        await interaction.response.send_message(f"picked d{select.values[0]}", ephemeral=True)


class AskModal(discord.ui.Modal, title="Name your table"):
    answer: discord.ui.TextInput[AskModal] = discord.ui.TextInput(label="Table name", custom_id="mini:answer")

    def __init__(self) -> None:
        super().__init__(custom_id="mini:ask")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"table: {self.answer.value}")


class MiniBot(commands.Bot):
    def __init__(self, guild_id: int | None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None, guild_ready_timeout=0.05)
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        self.add_view(CounterView())
        self.add_view(PictureCounterView())
        self.add_view(PickView())
        if self.guild_id:
            guild = discord.Object(id=self.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s", self.user)


def build(bot: MiniBot) -> None:
    tree = bot.tree

    @tree.command(description="Answer with a counter button")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong 0", view=CounterView())

    @tree.command(description="Answer with a counter button whose answers carry a picture")
    async def pingpic(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong 0", view=PictureCounterView())

    @tree.command(description="Offer a select")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=PickView())

    @tree.command(description="Open a modal")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(AskModal())

    @tree.command(description="Think, then answer with a file")
    async def think(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("thought", embed=discord.Embed(title="Roll", description="4"),
                                        file=discord.File(io.BytesIO(b"d6=4\n"), filename="roll.txt"))

    @tree.command(description="DM the caller")
    async def dm(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("psst, your hand")
        except discord.Forbidden as exc:
            if exc.code != 50007:
                raise
            await interaction.response.send_message("I cannot DM you; open your DMs.", ephemeral=True)
            return
        await interaction.response.send_message("sent you a DM", ephemeral=True)

    @tree.command(description="Too slow for Discord")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(4)
        await interaction.response.send_message("finally")

    game = app_commands.Group(name="game", description="Games")

    @game.command(name="start", description="Start a game")
    @app_commands.describe(sides="faces on the die")
    async def start(interaction: discord.Interaction, sides: int, who: discord.Member | None = None) -> None:
        whom = f" for {who.display_name}" if who else ""
        await interaction.response.send_message(f"started d{sides}{whom}")

    tree.add_command(game)


def run_against_fake(client: discord.Client) -> None:
    """``client`` run until it stops, on the fake Discord the environment names (its REST base,
    its gateway and the token it knows): the same for every bot a test or a bench starts."""
    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"].rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])

    async def run() -> None:
        async with client:
            await client.start(os.environ["DISCORD_TOKEN"])

    asyncio.run(run())


def main() -> None:
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"), format=LOG_FORMAT, stream=sys.stderr)
    guild = os.environ.get("DEV_GUILD_ID")
    bot = MiniBot(int(guild) if guild else None)
    build(bot)
    run_against_fake(bot)


if __name__ == "__main__":
    main()
