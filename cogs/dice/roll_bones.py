"""/roll-bones: the four Bones of Stones & Bones, thrown and read for a table that plays in person.

Installable to a user's account like /roll, and answered through the interaction alone, so a
table can throw the Bones in DMs and private chats too. The reading is the game engine's own (rules/stones_and_bones/reading.py: tiers, Ill Omens, Bane,
Blessing, Crossbones, the bet at the Tide), so a bet worked out here is the bet the hosted game
would charge. The dice come from rules.notation.die, like every /roll die; only the drawing of
the answer lives in this module.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal, guarded
from bot.render import FIELD_VALUE, clip, safe
from cogs.dice.roll import anywhere
from rules.notation import die
from rules.stones_and_bones.reading import (
    BONES,
    CROSSBONES_TEXT,
    FACES,
    BonesReading,
    BoneView,
    IllOmensRule,
    OmenGroup,
    coins,
    read_bones,
)

if TYPE_CHECKING:
    from bot.client import Boneyard

#: the Tide counter is a d6 (RULINGS SB-16)
MAX_TIDE = 6
RULES: dict[IllOmensRule, str] = {
    "product": "each matching group multiplies",
    "max_group": "only the largest group multiplies",
}
COLOUR = discord.Colour.from_rgb(139, 94, 60)
BANE_COLOUR = discord.Colour.dark_red()
CROSSBONES_COLOUR = discord.Colour.gold()
_WORDS = {2: "two", 3: "three", 4: "four"}


def roll_bones(tide: int = 1, rule: str = "product", rng: random.Random | None = None) -> BonesReading:
    """Throw four d20 and read them; a Refusal (and no throw) for a Tide or rule the game lacks.

    Discord enforces the option ranges, but a client that ignores them must still get an answer."""
    if not 1 <= tide <= MAX_TIDE:
        raise Refusal(f"The Tide runs from 1 to {MAX_TIDE} (the Tide counter is a d6); "
                      f"e.g. `/roll-bones tide:2`.")
    if rule not in RULES:
        raise Refusal("Ill Omens is read as `product` (each group multiplies) or `max_group` "
                      "(only the largest).")
    rng = rng or random.Random()
    return read_bones([die(rng, FACES) for _ in range(BONES)], tide, cast(IllOmensRule, rule))


def _bone(bone: BoneView) -> str:
    marks = [m for m, on in (("Ill Omens", bone.omen), ("Bane", bone.bane), ("Blessing", bone.blessing)) if on]
    return f"**{bone.face}** {bone.tier}" + (f" ({', '.join(marks)})" if marks else "")


def _omen(group: OmenGroup) -> str:
    return f"{_WORDS[group.size]} {group.face}s on {group.tier.capitalize()}"


def bones_embed(reading: BonesReading, roller: str) -> discord.Embed:
    """The four Bones, what they show, and the bet in large type: the engine's steps, verbatim."""
    lines = [" · ".join(_bone(bone) for bone in reading.bones),
             f"# {coins(reading.bet)}",
             f"-# bet at Tide {reading.tide}: {reading.final.text()}"]
    title = f"🦴 The Bones at Tide {reading.tide}"
    colour = COLOUR
    if reading.crossbones:
        title += f": ☠️ Crossbones, {reading.crossbones}!"
        colour = CROSSBONES_COLOUR
    elif reading.bane:
        colour = BANE_COLOUR
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    embed.add_field(name="Ill Omens", value=", ".join(_omen(g) for g in reading.omens) or "none")
    embed.add_field(name="Bane", value="a 20: the whole bet doubles" if reading.bane else "no 20")
    embed.add_field(name="Blessing", value="a 1: throw two Stones" if reading.blessing else "no 1: one Stone")
    if reading.crossbones:
        also = [name for name in reading.crossbones_all if name != reading.crossbones]
        text = (f"**{reading.crossbones}**: {CROSSBONES_TEXT[reading.crossbones]}. It claims the coffer "
                f"as soon as the bet is paid; no Stone is thrown")
        if also:
            text += f"; the Bones also show {' and '.join(also)}"
        embed.add_field(name="☠️ Crossbones", value=clip(text, FIELD_VALUE), inline=False)
    embed.add_field(name="Step by step", value=clip("\n".join(reading.steps), FIELD_VALUE), inline=False)
    embed.set_footer(text=f"{clip(roller, 100)} · Ill Omens: {RULES[reading.rule]}")
    return embed


class RollBonesCog(commands.Cog):
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot

    @anywhere
    @app_commands.command(name="roll-bones",
                          description="Stones & Bones: throw the four Bones and read tiers, omens, Bane, "
                                      "Blessing and the bet")
    @app_commands.describe(
        tide="The current Tide (1-6): the bet is multiplied by it",
        ill_omens="Two matching groups in one tier (3,3,5,5): multiply by each, or by the largest only",
        private="Only you see the throw",
    )
    @app_commands.choices(ill_omens=[
        app_commands.Choice(name="each group multiplies (3,3,5,5: ×4)", value="product"),
        app_commands.Choice(name="largest group only (3,3,5,5: ×2)", value="max_group"),
    ])
    async def roll_bones(
        self,
        interaction: discord.Interaction,
        tide: app_commands.Range[int, 1, MAX_TIDE] = 1,
        ill_omens: str = "product",
        private: bool = False,
    ) -> None:
        async def run() -> None:
            reading = roll_bones(tide, ill_omens)
            embed = bones_embed(reading, safe(interaction.user.display_name))
            await interaction.response.send_message(embed=embed, ephemeral=private)

        await guarded(interaction, run)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(RollBonesCog(bot))
