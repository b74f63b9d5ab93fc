"""/roll: dice in the notation RPG players already use, drawn so the eye lands on the total.

rules/notation.py parses, limits and rolls; this module only draws the result and delivers it
publicly, privately, or as a secret GM roll by DM. A roll too long to list is drawn again with
less detail (each dice term summarised, then only the totals) until it fits Discord's limits;
the total is always shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.errors import Refusal, guarded
from bot.private import send_private
from bot.render import CONTENT, EMBED_DESCRIPTION, clip
from rules import notation
from rules.notation import CRIT_MARK, FUMBLE_MARK, MAX_EXPRESSION, MAX_REPEAT, DiceGroup, Roll, RollSeries

if TYPE_CHECKING:
    from bot.client import Boneyard

TITLE = 256
COMMENT = 300
COLOUR = discord.Colour.from_rgb(96, 125, 139)
CRIT_COLOUR = discord.Colour.green()
FUMBLE_COLOUR = discord.Colour.red()

FULL, SUMMARY, TOTALS = range(3)


def group_summary(group: DiceGroup) -> str:
    """`4d6kh3: 4 dice, 1 dropped = 12`: what is left of a dice term when its dice can't be listed."""
    parts = [f"{len(group.faces)} dice"]
    dropped = len(group.faces) - group.kept
    if dropped:
        parts.append(f"{dropped} dropped")
    crits = sum(f.crit for f in group.faces if f.kept)
    fumbles = sum(f.fumble for f in group.faces if f.kept)
    if crits:
        parts.append(f"{crits}{CRIT_MARK}")
    if fumbles:
        parts.append(f"{fumbles}{FUMBLE_MARK}")
    return f"`{clip(group.notation, 40)}`: {', '.join(parts)} = {group.total}"


def roll_detail(one: Roll, level: int) -> str:
    if level == FULL:
        return one.breakdown
    if level == SUMMARY and one.groups:
        return "; ".join(group_summary(g) for g in one.groups)
    return f"{one.dice} dice" if one.dice else ""


def successes(n: int) -> str:
    return f"{n} success" if abs(n) == 1 else f"{n} successes"


def body(series: RollSeries, level: int) -> str:
    if len(series.rolls) == 1:
        text = roll_detail(series.rolls[0], level)
        return text + ("\n-# too many dice to list each one" if level > FULL and text else "")
    lines = []
    for number, one in enumerate(series.rolls, 1):
        result = successes(one.result) if series.counting else str(one.result)
        detail = roll_detail(one, level)
        lines.append(f"**{number}.** {detail} → **{result}**" if detail else f"**{number}.** **{result}**")
    return "\n".join(lines)


def headline(series: RollSeries) -> list[str]:
    """The total in large type, then what it means in small type."""
    total = successes(series.total) if series.counting else str(series.total)
    lines = [f"# {total}"]
    notes = []
    if len(series.rolls) == 1:
        crit = series.rolls[0].crit
        if crit == "crit":
            lines.append(f"{CRIT_MARK} **Natural 20!**")
        elif crit == "fumble":
            lines.append(f"{FUMBLE_MARK} **Natural 1!**")
    else:
        notes.append(f"sum of {len(series.rolls)} rolls")
    if series.counting:
        rule = f"each die ≥ {series.target} counts 1"
        if series.fail is not None:
            rule += f", each die ≤ {series.fail} counts −1"
        notes.append(rule)
        if len(series.rolls) == 1:
            notes.append(f"dice total {series.rolls[0].total}")
    if notes:
        lines.append("-# " + " · ".join(notes))
    return lines


def roll_embed(series: RollSeries, roller: str, *, note: str | None = None) -> discord.Embed:
    """The whole roll, or as much of it as fits: never over Discord's limits, never without the total."""
    top = [f"*{clip(escape_markdown(series.comment), COMMENT)}*"] if series.comment else []
    bottom = headline(series)
    room = EMBED_DESCRIPTION - len("\n".join(top + bottom)) - 2
    level, text = FULL, body(series, FULL)
    while len(text) > room and level < TOTALS:
        level += 1
        text = body(series, level)
    description = "\n".join(top + ([clip(text, room)] if text else []) + bottom)
    colour = COLOUR
    if len(series.rolls) == 1 and series.rolls[0].crit:
        colour = CRIT_COLOUR if series.rolls[0].crit == "crit" else FUMBLE_COLOUR
    embed = discord.Embed(title=clip(f"🎲 {series.expression}", TITLE), description=description, colour=colour)
    footer = [clip(roller, 100)]
    if note:
        footer.append(clip(note, 200))
    embed.set_footer(text=" · ".join(footer))
    return embed


class RollCog(commands.Cog):
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description="Roll dice: 1d20+5, 4d6kh3, 2d20kl1+3, 10d10e10, 8d6 fireball...")
    @app_commands.describe(
        expression="Dice to roll, e.g. 1d20+5 or 4d6kh3; a comment may follow",
        repeat="Roll it this many times, one line each plus the sum",
        target="Count dice showing at least this as successes",
        fail="With a target: take one success away for each die at or below this",
        private="Only you see the result",
        secret_to="A secret roll: the result goes by DM to you and this person (the GM)",
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: app_commands.Range[str, 1, MAX_EXPRESSION],
        repeat: app_commands.Range[int, 1, MAX_REPEAT] = 1,
        target: int | None = None,
        fail: int | None = None,
        private: bool = False,
        secret_to: discord.User | None = None,
    ) -> None:
        async def run() -> None:
            if secret_to is not None and secret_to.bot:
                raise Refusal("A secret roll goes to a person (your GM), not to a bot.")
            series = notation.roll(expression, repeat=repeat, target=target, fail=fail)
            if secret_to is not None:
                await self.secret(interaction, series, secret_to, private)
                return
            embed = roll_embed(series, interaction.user.display_name)
            await interaction.response.send_message(embed=embed, ephemeral=private)

        await guarded(interaction, run)

    async def secret(self, interaction: discord.Interaction, series: RollSeries, gm: discord.abc.User,
                     private: bool) -> None:
        """Answer in the channel at once (the 3-second rule), then deliver the result by DM."""
        name = escape_markdown(interaction.user.display_name)
        gm_name = escape_markdown(gm.display_name)
        await interaction.response.send_message(
            clip(f"🤫 **{name}** made a secret roll for **{gm_name}**.", CONTENT),
            ephemeral=private, allowed_mentions=discord.AllowedMentions.none(),
        )
        where = f"in <#{interaction.channel_id}>" if interaction.guild_id else "in DMs"
        embed = roll_embed(series, interaction.user.display_name, note=f"secret roll for {gm.display_name}")
        content = f"🤫 Secret roll {where}"
        to_roller = await send_private(self.bot, interaction.user.id, content=content, embed=embed)
        to_gm = gm.id == interaction.user.id or await send_private(self.bot, gm.id, content=content, embed=embed)
        if not to_roller:
            missed = "" if to_gm else f" {gm_name} could not be sent a DM either."
            await interaction.followup.send(
                clip(f"I could not DM you, so here is your secret roll.{missed}", CONTENT), embed=embed, ephemeral=True
            )
        elif not to_gm:
            await interaction.followup.send(
                clip(f"I could not DM {gm_name} (their DMs are closed); your result is in your DMs.", CONTENT),
                ephemeral=True,
            )


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(RollCog(bot))
