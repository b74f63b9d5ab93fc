"""How a roll reaches its readers, whichever command or button asked for it: rolled, kept in the
roller's history, then answered through the interaction alone.

Only the interaction is used, never a post to the channel: with the app installed to a user's
account, /roll works in DMs, group DMs and servers the bot is not in, where the bot may not post
but may always answer (and follow up on) an interaction. A public roll carries Roll again, a
private one Reveal; both name the stored roll, so they work after a restart. A roll of up to 12
dice is a layout message with the dice drawn above its button; a bigger one stays text.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

import discord
from discord import ui

from bot.errors import Refusal
from bot.layout import MAX_TEXT, Built, gallery, rows
from bot.layout import text as words
from bot.pictures import PictureCache
from bot.private import send_private
from bot.render import CONTENT, clip, safe
from bot.store import RollAsked, RolledDie, Store, StoredRoll
from bot.store.base import LUCK_SIDES
from cogs.dice.buttons import RevealButton, RollAgainButton
from cogs.dice.pictures import PER_ROW, dice_of, dice_picture, row_length
from cogs.dice.text import NO_PINGS, headline, roll_text
from rules import notation
from rules.notation import RollSeries, sides_of

if TYPE_CHECKING:
    from bot.client import Boneyard

#: each player's newest rolls kept in each place; older ones are pruned (README: Dice rolling)
ROLLS_KEPT = 10_000
GONE = "That roll is no longer kept (old rolls are pruned, and players may erase theirs); roll it anew with `/roll`."


def luck_faces(series: RollSeries) -> dict[tuple[int, int], int]:
    """How often each natural face of each die size came up: every die rolled counts, a dropped
    or rerolled one too, since luck is in the dice, not in what the notation kept."""
    counted: Counter[tuple[int, int]] = Counter()
    for one in series.rolls:
        for group in one.groups:
            for face in group.faces:
                sides = sides_of(face.sides)
                if sides <= LUCK_SIDES and face.sides != notation.FATE:  # a Fate die is no d3 to its player
                    counted[(sides, face.natural)] += 1
    return dict(counted)


def stored(asked: RollAsked, series: RollSeries, *, guild_id: int, channel_id: int, user_id: int, seen: str,
           text: str, dice: list[RolledDie], per_row: int, label: str | None) -> StoredRoll:
    """A roll as the history keeps it: what was asked (to roll it again), and what was shown (to
    reveal it word for word)."""
    return StoredRoll(**asked.model_dump(), guild_id=guild_id, channel_id=channel_id, user_id=user_id, seen=seen,
                      result=clip(headline(series)[2:], 100), text=text, dice=dice, per_row=per_row, label=label)


def where(interaction: discord.Interaction) -> int:
    """The place a roll is kept under: its server, or 0 for DMs and private channels."""
    return interaction.guild_id or 0



#: characters of a refused expression shown back to its roller
ECHOED = 60


def rolled(asked: RollAsked, rng: random.Random | None = None) -> RollSeries:
    """The roll asked for, or its refusal with the roll as typed: Discord shows the answer under
    "used /roll" (or "/rolls save"), not what was typed."""
    try:
        return notation.roll(asked.expression, repeat=asked.repeat, target=asked.target, fail=asked.fail,
                             mode=asked.mode, rng=rng)
    except notation.RollError as exc:
        raise notation.RollError(f"{echoed(asked.expression)}{exc.reason}") from None


def echoed(expression: str) -> str:
    """A refused roll as typed, in code: "`1d20+`: ". Left out when it holds a backtick, which
    would break out of the code span, or a line break, which Discord's box for an option does
    not let a player type (a raw request, whose text need not be shown back)."""
    text = expression.strip()
    if not text or "`" in text or "\n" in text or "\r" in text:
        return ""
    return f"`{text if len(text) <= ECHOED else text[:ECHOED - 1] + '…'}`: "

class Poster:
    """Rolls, keeps and answers: /roll, /rolls use, Roll again and Reveal all end here."""

    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        self.pictures = PictureCache()

    @property
    def store(self) -> Store:
        return self.bot.runtime.store

    async def message(self, text: str, dice: list[RolledDie], per_row: int, button: ui.Item[Any] | None, *,
                      layout: bool = False, edit: bool = False) -> dict[str, Any]:
        """A roll's message as keyword arguments for sending (or, ``edit``, for editing one):
        a layout message with the dice drawn, or text with its button underneath."""
        if not dice and not layout:
            view = ui.View(timeout=None)
            if button is not None:
                view.add_item(button)
            view.stop()  # clicks are routed by the registered items, not by this view
            return {"content": clip(text, CONTENT), "view": view}
        components = [words(clip(text, MAX_TEXT))]
        out: dict[str, Any] = {}
        if dice:
            picture = dice_picture(dice, per_row)
            components.append(gallery(picture))
            file = await self.pictures.file(picture)
            out["attachments" if edit else "file"] = [file] if edit else file
        if button is not None:
            components += rows([button.to_component_dict()])
        out["view"] = Built(components)
        return out

    async def pictures_on(self, interaction: discord.Interaction) -> bool:
        """A server may turn pictures off (/boneyard settings); rolls then are words only."""
        if interaction.guild_id is None:
            return True
        return (await self.bot.runtime.servers.of(interaction.guild_id)).pictures

    # -- rolling ----------------------------------------------------------------------------

    async def roll(self, interaction: discord.Interaction, asked: RollAsked, *, private: bool = False,
                   secret_to: discord.abc.User | None = None, label: str | None = None,
                   note: str | None = None) -> None:
        if secret_to is not None and secret_to.bot:
            raise Refusal("A secret roll goes to a person (your GM), not to a bot.")
        series = rolled(asked)
        per_row = row_length(series)
        dice = dice_of(series) if per_row and await self.pictures_on(interaction) else []
        if secret_to is not None:
            await self.secret(interaction, asked, series, secret_to, private=private, label=label,
                              dice=dice, per_row=per_row or PER_ROW)
            return
        text = roll_text(series, note=note, label=label)
        kept = await self.keep(interaction, asked, series, "private" if private else "public", text, dice,
                               per_row or PER_ROW, label)
        button = RevealButton(kept.id or 0) if private else RollAgainButton(kept.id or 0)
        await interaction.response.send_message(**await self.message(text, dice, per_row or PER_ROW, button),
                                                ephemeral=private, allowed_mentions=NO_PINGS)

    async def keep(self, interaction: discord.Interaction, asked: RollAsked, series: RollSeries, seen: str,
                   text: str, dice: list[RolledDie], per_row: int, label: str | None) -> StoredRoll:
        roll = stored(asked, series, guild_id=where(interaction), channel_id=interaction.channel_id or 0,
                      user_id=interaction.user.id, seen=seen, text=text, dice=dice, per_row=per_row, label=label)
        return await self.store.record_roll(roll, luck_faces(series), keep=ROLLS_KEPT)

    async def secret(self, interaction: discord.Interaction, asked: RollAsked, series: RollSeries,
                     gm: discord.abc.User, *, private: bool, label: str | None, dice: list[RolledDie],
                     per_row: int) -> None:
        """Answer in the channel at once (the 3-second rule), then deliver the result by DM; what
        cannot be delivered comes back to the roller privately, with the reason."""
        name = safe(interaction.user.display_name)
        gm_name = safe(gm.display_name)
        place = f"in <#{interaction.channel_id}>" if interaction.guild_id else "in a private chat"
        # a roll kept secret from everyone else, its roller their own GM, names them once
        to = "" if gm.id == interaction.user.id else f" for **{gm_name}**"
        note = f"🤫 Secret roll by **{name}**{to} {place}"
        text = roll_text(series, note=note, label=label)
        await self.keep(interaction, asked, series, "secret", text, dice, per_row, label)
        await interaction.response.send_message(
            clip(f"🤫 **{name}** made a secret roll{to}.", CONTENT),
            ephemeral=private, allowed_mentions=NO_PINGS,
        )
        to_roller = await send_private(self.bot, interaction.user.id, **await self.message(text, dice, per_row, None))
        to_gm = gm.id == interaction.user.id or await send_private(
            self.bot, gm.id, **await self.message(text, dice, per_row, None))
        if not to_roller:
            missed = "" if to_gm else f" {gm_name} could not be sent a DM either."
            fallback = roll_text(series, note=f"I could not DM you, so here is your secret roll.{missed}\n{note}",
                                 label=label)
            await interaction.followup.send(**await self.message(fallback, dice, per_row, None),
                                            ephemeral=True, allowed_mentions=NO_PINGS)
        elif not to_gm:
            await interaction.followup.send(
                clip(f"I could not DM {gm_name} (their DMs are closed to me, or we share no server); "
                     f"your result is in your DMs.", CONTENT),
                ephemeral=True, allowed_mentions=NO_PINGS,
            )

    # -- the buttons ------------------------------------------------------------------------

    async def again(self, interaction: discord.Interaction, roll_id: int) -> None:
        """The same roll for whoever pressed, as their own public roll."""
        kept = await self.store.stored_roll(roll_id)
        if kept is None:
            raise Refusal(GONE)
        if kept.hidden and not kept.revealed:
            raise Refusal("That roll was not shown to anyone but its roller.")
        name = safe(interaction.user.display_name)
        asked = RollAsked.model_validate(kept.model_dump(include=set(RollAsked.model_fields)))
        await self.roll(interaction, asked, label=kept.label, note=f"-# 🔁 **{name}** rolls again")

    async def reveal(self, interaction: discord.Interaction, roll_id: int) -> None:
        """A private roll shown to the channel word for word, marked as revealed; never rolled again.
        The private copy loses its button, so it is revealed once."""
        kept = await self.store.stored_roll(roll_id)
        if kept is None:
            raise Refusal(GONE)
        if kept.user_id != interaction.user.id or kept.seen != "private":
            raise Refusal("Only the person who rolled a private roll can reveal it.")
        if not await self.store.mark_revealed(roll_id):
            raise Refusal("That roll was revealed already.")
        name = safe(interaction.user.display_name)
        shown = f"-# 👁️ **{name}** reveals a private roll made <t:{int(kept.at)}:R>\n{kept.text}"
        if kept.dice:
            await interaction.response.edit_message(**await self.message(
                f"{kept.text}\n-# 👁️ Revealed to the channel", kept.dice, kept.per_row, None, edit=True))
        else:
            await interaction.response.edit_message(
                content=clip(f"-# 👁️ Revealed to the channel\n{kept.text}", CONTENT), view=None)
        await interaction.followup.send(**await self.message(shown, kept.dice, kept.per_row,
                                                             RollAgainButton(roll_id), layout=True),
                                        allowed_mentions=NO_PINGS)

    async def forget(self, interaction: discord.Interaction, guild_id: int, user_id: int) -> None:
        if user_id != interaction.user.id or guild_id != where(interaction):
            raise Refusal("That button erases someone else's rolls, or rolls somewhere else.")
        erased = await self.store.forget_rolls(guild_id, user_id)
        await interaction.response.edit_message(
            content=f"Erased {'your roll' if erased == 1 else f'{erased:,} of your rolls'} "
                    f"{'in this server' if guild_id else 'in DMs and private chats'}. "
                    f"Your saved rolls are kept.", view=None)
