"""/roll-bones: the four Bones of Stones & Bones, thrown and read for a table that plays in person.

Installable to a user's account like /roll, and answered through the interaction alone, so a
table can throw the Bones in DMs and private chats too. The reading is the game engine's own (rules/stones_and_bones/reading.py: tiers, Ill Omens, Bane,
Blessing, Crossbones, the bet at the Tide), so a bet worked out here is the bet the hosted game
would charge. The dice come from rules.notation.die, like every /roll die; only the drawing of
the answer lives in this module.
"""

from __future__ import annotations

import contextlib
import random
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import Refusal, guarded
from bot.render import FIELD_VALUE, clip, safe
from cogs.dice.buttons import RevealThrowButton, ThrowAgainButton
from cogs.dice.roll import anywhere
from cogs.dice.text import NO_PINGS
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
#: how a throw's embed is titled, before its Tide (and what Reveal knows a throw by)
TITLE = "🦴 The Bones at Tide "


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
    title = f"{TITLE}{reading.tide}"
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


def _with(button: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(button)
    view.stop()  # clicks are routed by the registered items (cogs/dice/buttons.py), not by this view
    return view


#: private throws remembered as revealed
REMEMBERED = 1000
#: what a private throw shows once it is revealed, above its Bones
REVEALED = "-# 👁️ Revealed to the channel"


class RollBonesCog(commands.Cog):
    """A public throw carries Throw again, a private one Reveal, as /roll's rolls do."""

    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        #: the private throws revealed lately: a phone that has not yet drawn the copy without its
        #: button may press it again (after a restart, the copy's own words still say so)
        self.revealed: dict[int, None] = {}

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
        await guarded(interaction, lambda: self.throw(interaction, tide, ill_omens, private=private))

    async def throw(self, interaction: discord.Interaction, tide: int, rule: str, *, private: bool = False,
                    note: str | None = None) -> None:
        reading = roll_bones(tide, rule)
        embed = bones_embed(reading, safe(interaction.user.display_name))
        button = RevealThrowButton() if private else ThrowAgainButton(tide, rule)
        await interaction.response.send_message(note, embed=embed, ephemeral=private, view=_with(button),
                                                allowed_mentions=NO_PINGS)

    async def again(self, interaction: discord.Interaction, tide: int, rule: str) -> None:
        """The same Tide and rule, thrown anew as the presser's own public throw."""
        name = safe(interaction.user.display_name)
        await self.throw(interaction, tide, rule, note=clip(f"-# 🔁 **{name}** throws again", 200))

    async def reveal(self, interaction: discord.Interaction) -> None:
        """A private throw shown to the channel word for word, never thrown again. The throw is
        read from the message pressed, as Discord hands it over (a throw is not stored); the
        private copy loses its button, so it is revealed once."""
        message = interaction.message
        asked = message.interaction_metadata if message is not None else None
        if message is None or not message.flags.ephemeral or asked is None or asked.user.id != interaction.user.id \
                or not message.embeds or not (message.embeds[0].title or "").startswith(TITLE):
            raise Refusal("Only the person who threw the Bones privately can reveal the throw.")
        if message.content.startswith(REVEALED) or message.id in self.revealed:
            raise Refusal("That throw was revealed already.")
        self.revealed[message.id] = None
        while len(self.revealed) > REMEMBERED:
            del self.revealed[next(iter(self.revealed))]
        embed = message.embeds[0]
        name = safe(interaction.user.display_name)
        tide, rule = _asked(embed)
        try:
            await interaction.response.edit_message(content=REVEALED, view=None)
            await interaction.followup.send(
                f"-# 👁️ **{name}** reveals a private throw made {discord.utils.format_dt(message.created_at, 'R')}",
                embed=embed, view=_with(ThrowAgainButton(tide, rule)), allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            # not shown after all: the private copy may be revealed again
            self.revealed.pop(message.id, None)
            if interaction.response.is_done():
                with contextlib.suppress(discord.HTTPException):
                    await interaction.edit_original_response(content=None, view=_with(RevealThrowButton()))
            raise


def _asked(embed: discord.Embed) -> tuple[int, str]:
    """The Tide and Ill Omens rule a throw was made at, as its embed names them (for Throw again
    on a revealed throw)."""
    words = (embed.title or "").removeprefix(TITLE)
    tide = int(words[:1]) if words[:1].isdigit() else 1
    footer = embed.footer.text or ""
    rule = next((key for key, text in RULES.items() if footer.endswith(text)), "product")
    return tide, rule


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(RollBonesCog(bot))
