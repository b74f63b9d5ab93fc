"""Knucklebones at a Discord table: rune dice, the pending runes in order, and the score sheet.

The engine (rules/knucklebones/) decides everything; this module only draws it and offers
its options as slash-command options.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import guarded
from bot.game_cog import GameCog
from bot.games import GameSpec
from bot.models import Table
from bot.pictures import Picture
from bot.render import FIELD_VALUE, clip, safe
from cogs.knucklebones.pictures import dice_picture
from rules import knucklebones as kb
from rules.base import Event

if TYPE_CHECKING:
    from bot.client import Boneyard

#: one rune per face, so a glance reads the rune and the number next to it confirms it
RUNES = {1: "ᛁ", 2: "ᚱ", 3: "ᚷ", 4: "ᛞ", 5: "ᚠ", 6: "ᚺ"}
#: what each rune does, for the legend behind Details
RUNE_ACTIONS = {
    1: "does nothing by itself",
    2: "may be spent to reroll another die",
    3: "adds and rolls an inactive die",
    4: "may be spent to double another die",
    5: "adds an inactive die after scoring, if one is left",
    6: "removes itself after scoring, unless that leaves too few",
}
SHORT_NAMES = {
    "two_pairs": "Two Pairs",
    "three_kind": "3 of a Kind",
    "full_house": "Full House",
    "four_kind": "4 of a Kind",
    "all_different": "All Different",
    "five_kind": "5 of a Kind",
    "wild": "Wild",
}


def rune(face: int | None) -> str:
    return "?" if face is None else f"{RUNES[face]}{face}"


def die_word(die: kb.DieView) -> str:
    """`ᚷ3`; struck through when spent, ×2 when doubled, ▶ when its rune is being decided."""
    if die.face is None:
        return "new die"  # a 5 added it; it is rolled next turn
    text = rune(die.face)
    if die.spent:
        return f"~~{text}~~"
    if die.counts_as > 1:
        text += f"×{die.counts_as}"
    if die.pending:
        text = f"▶{text}"
    return text


def roll_line(view: kb.KnucklebonesView) -> str:
    """The roll in one line of words: what the picture shows, for screen readers and search."""
    active = [d for d in view.dice if d.active]
    inactive = len(view.dice) - len(active)
    spare = f" · {inactive} inactive" if inactive else ""
    return " ".join(die_word(d) for d in active) + spare


def plain_roll(view: kb.KnucklebonesView) -> str:
    words = []
    for d in (d for d in view.dice if d.active):
        if d.face is None:
            words.append("a new die")
            continue
        state = " spent" if d.spent else f" doubled ×{d.counts_as}" if d.counts_as > 1 else ""
        words.append(f"{d.face}{state}")
    return "Active dice: " + ", ".join(words) + f"; {len(view.dice) - len(words)} inactive."


def next_runes(view: kb.KnucklebonesView) -> str:
    """The runes still to act this turn, in order, as one short line."""
    return ", ".join(rune(view.dice[i].face) for i in view.waiting)


def chances(view: kb.KnucklebonesView, limit: int = 3) -> str:
    """What the acting player would score with the dice as they lie, best first."""
    if not view.preview:
        return ""
    names = {i.key: SHORT_NAMES.get(i.key, i.name) for i in view.items}
    met = sorted(view.met, key=lambda k: -view.preview[k])
    if not met:
        return "nothing met (Wild is always open once)"
    more = f" +{len(met) - limit}" if len(met) > limit else ""
    return ", ".join(f"{names[k]} {view.preview[k]}" for k in met[:limit]) + more


def score_lines(table: Table, view: kb.KnucklebonesView) -> list[str]:
    """One short line per player, so six players read on a phone: the total and items left."""
    lines = []
    for sheet in view.sheets:
        name = safe(table.seats[sheet.seat].name)
        left = len(view.items) - sheet.filled
        mark = "▸ " if view.current_seat == sheet.seat else ""
        lines.append(f"{mark}**{clip(name, 20)}** {sheet.total} · {left} left")
    return lines


def sheet_field(view: kb.KnucklebonesView, sheet: kb.SheetView) -> str:
    cells = []
    for item in view.items:
        points = sheet.items.get(item.key)
        name = SHORT_NAMES.get(item.key, item.name)
        cells.append(f"{name} **{points}**" if points is not None else f"{name} ·")
    return " | ".join(cells) + f"\n**Total {sheet.total}**"


class KnucklebonesSpec(GameSpec[kb.KnucklebonesView, kb.KnucklebonesAction, kb.KnucklebonesOptions]):
    engine = kb.ENGINE
    command = "knucklebones"
    colour = discord.Colour.from_rgb(138, 94, 58)
    blurb = "Roll seven rune dice, bend them with their runes, fill a score sheet. 2–6 players, about 5 minutes a player."

    def table_embed(self, table: Table, view: kb.KnucklebonesView) -> discord.Embed:
        if view.over:
            return discord.Embed(title="Knucklebones: every sheet is full", colour=self.colour,
                                 description=f"{view.turns_total} turns played. **Details** shows every sheet.")
        who = safe(table.seats[view.current_seat or 0].name)
        lines = [f"**{who}** rolled {roll_line(view)}"]
        if view.pending is None:
            could = chances(view)
            if could:
                lines.append(f"Could score: {could}")
        else:
            later = next_runes(view)
            if later:
                lines.append(f"Runes still to act: {later}")
        lines.append("")
        lines += score_lines(table, view)
        return discord.Embed(title=f"Knucklebones · turn {view.turn} of {view.turns_total}",
                             description=clip("\n".join(lines), 4096), colour=self.colour)

    def picture(self, table: Table, view: kb.KnucklebonesView) -> Picture | None:
        if view.over or not any(d.active and d.face is not None for d in view.dice):
            return None
        return dice_picture(view, plain_roll(view))

    def details(self, table: Table, view: kb.KnucklebonesView, seat: int | None) -> list[discord.Embed]:
        sheet = discord.Embed(title="Score sheets", colour=self.colour)
        for s in view.sheets:
            sheet.add_field(name=safe(clip(table.seats[s.seat].name, 256)), value=clip(sheet_field(view, s), FIELD_VALUE),
                            inline=False)
        legend = discord.Embed(title="The runes", colour=self.colour, description="\n".join(
            f"**{rune(face)}** {what}" for face, what in RUNE_ACTIONS.items()
        ) + "\n~~struck~~ = spent this turn · ×2 = doubled · ▶ = deciding now")
        if not view.over:
            could = chances(view, limit=len(view.items))
            if could:
                legend.add_field(name="Could score now", value=clip(could, FIELD_VALUE), inline=False)
        return [sheet, legend]

    def chapter(self, view: kb.KnucklebonesView) -> str:
        return "Game over" if view.over else f"Turn {view.turn}"

    def story(self, table: Table, view: kb.KnucklebonesView, events: list[Event]) -> str | None:
        """A turn in a line: what was scored (the runes that led there are in /game log)."""
        scored = [kb.event_text(e.kind, e.seats, e.data) for e in events if e.kind in ("score", "timeout")]
        return " · ".join(scored) if scored else super().story(table, view, events)

    def action_label(self, view: kb.KnucklebonesView, action: kb.KnucklebonesAction) -> str:
        return kb.action_label(view, action)

    def action_style(self, view: kb.KnucklebonesView, action: kb.KnucklebonesAction) -> discord.ButtonStyle:
        if action.kind in ("skip_reroll", "skip_double"):
            return discord.ButtonStyle.secondary
        if action.kind == "score":
            return discord.ButtonStyle.success if action.item in view.met else discord.ButtonStyle.secondary
        return discord.ButtonStyle.primary

    def prompt(self, table: Table, view: kb.KnucklebonesView, seat: int) -> str:
        if view.pending is not None:
            return view.pending.prompt
        return "your turn: pick the item to score (green ones are met; an unmet one scores 0)."

    def rules_text(self, options: kb.KnucklebonesOptions) -> str:
        return kb.rules_summary(options)

    def option_lines(self, options: kb.KnucklebonesOptions) -> list[str]:
        lines = []
        if options.min_active != kb.KnucklebonesOptions().min_active:
            lines.append(f"a 6 may take the active dice down to {options.min_active}")
        if options.stack_doubles:
            lines.append("a die may be doubled more than once")
        if options.solo:
            lines.append("solo play allowed")
        return lines


SPEC = KnucklebonesSpec()


class KnucklebonesCog(GameCog, group_name="knucklebones",
                      group_description="Knucklebones: rune dice and a score sheet"):
    spec = SPEC

    @app_commands.command(name="new", description="Open a Knucklebones table in this channel")
    @app_commands.describe(
        min_active="Fewest active dice a 6 may leave (default 5)",
        stack_doubles="Let a die be doubled more than once (default off)",
        solo="Allow a table of one player (default off)",
    )
    @app_commands.choices(min_active=[app_commands.Choice(name=str(n), value=n) for n in range(1, 6)])
    async def new(
        self,
        interaction: discord.Interaction,
        min_active: int = 5,
        stack_doubles: bool = False,
        solo: bool = False,
    ) -> None:
        async def run() -> None:
            options = kb.KnucklebonesOptions(min_active=min_active, stack_doubles=stack_doubles, solo=solo)
            await self.bot.runtime.open_lobby(interaction, SPEC, options)

        await guarded(interaction, run)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(KnucklebonesCog(bot))
