"""Knucklebones at a Discord table: rune dice, the pending runes in order, and the score sheet.

The engine (rules/knucklebones.py) decides everything; this module only draws it and offers
its options as slash-command options.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.errors import guarded
from bot.games import GameSpec
from bot.models import Table
from bot.render import FIELD_VALUE, clip
from rules import knucklebones as kb

if TYPE_CHECKING:
    from bot.client import Boneyard

#: one rune per face, so a glance reads the rune and the number next to it confirms it
RUNES = {1: "ᛁ", 2: "ᚱ", 3: "ᚷ", 4: "ᛞ", 5: "ᚠ", 6: "ᚺ"}
#: what each rune does, as the table lists the runes still to act
RUNE_ACTIONS = {
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
    return "?" if face is None else f"{RUNES[face]} {face}"


def die_text(die: kb.DieView) -> str:
    """`ᚷ 3`, struck through when spent, ×2 when doubled, ▶ when its rune is being decided."""
    if die.face is None:
        return "`new die`"  # a 5 added it; it is rolled next turn
    text = f"`{rune(die.face)}`"
    if die.spent:
        return f"~~{text}~~"
    if die.doubled:
        text += f" **×{2 ** die.doubled}**"
    if die.pending:
        text = f"▶ {text}"
    return text


def roll_lines(view: kb.KnucklebonesView) -> list[str]:
    active = [d for d in view.dice if d.active]
    dice = "  ".join(f"**{d.number}** {die_text(d)}" for d in active)
    inactive = len(view.dice) - len(active)
    return [dice, f"{len(active)} active, {inactive} inactive · ~~struck~~ = spent · ×2 = doubled"]


def rune_steps(view: kb.KnucklebonesView) -> list[str]:
    """Every rune with an action, in the order it acts (KB-2: lowest rune first, then position)."""
    dice = [d for d in view.dice if d.active and d.face in RUNE_ACTIONS]
    lines = []
    for d in sorted(dice, key=lambda d: (d.face or 0, d.id)):
        face = d.face or 0
        which = f"die {d.number} `{rune(face)}`"
        if d.spent:
            used = "reroll" if face == 2 else "double"
            lines.append(f"✓ {which} was spent to {used} another die")
        elif d.pending:
            lines.append(f"▶ **{which} {RUNE_ACTIONS[face]}**: deciding now")
        elif face in (2, 4) and d.resolved:
            lines.append(f"✓ {which} was kept (it scores as itself)")
        elif face == 3 and d.resolved:
            lines.append(f"✓ {which} has acted")
        elif face == 6:
            lines.append(f"· {which} removes itself after scoring (never below {view.options.min_active} active)")
        else:
            lines.append(f"· {which} {RUNE_ACTIONS[face]}")
    return lines


def score_sheet(table: Table, view: kb.KnucklebonesView) -> str:
    """Items down the side, players across: the column of the player to act is marked ▸."""
    names = [seat.name for seat in table.seats]
    width = max(4, *(min(len(n), 6) for n in names)) + 2
    head = [("▸" if view.current_seat == s else "") + n[:6] for s, n in enumerate(names)]
    label = max(len(n) for n in SHORT_NAMES.values()) + 1
    rows = ["".ljust(label) + "".join(h.rjust(width) for h in head)]
    for item in view.items:
        cells = []
        for sheet in view.sheets:
            points = sheet.items.get(item.key)
            cells.append(("·" if points is None else str(points)).rjust(width))
        rows.append(SHORT_NAMES.get(item.key, item.name[: label - 1]).ljust(label) + "".join(cells))
    rows.append("─" * (label + width * len(names)))
    rows.append("Total".ljust(label) + "".join(str(s.total).rjust(width) for s in view.sheets))
    return "```\n" + "\n".join(rows) + "\n```"


def chances(view: kb.KnucklebonesView) -> str:
    """What the acting player would score with the dice as they lie, best first."""
    if not view.preview:
        return ""
    names = {i.key: i.name for i in view.items}
    met = sorted(view.met, key=lambda k: -view.preview[k])
    if not met:
        return "no item's requirement is met (Wild is always open once)"
    return ", ".join(f"{names[k]} {view.preview[k]}" for k in met)


class KnucklebonesSpec(GameSpec):
    engine = kb.ENGINE
    command = "knucklebones"
    colour = discord.Colour.from_rgb(138, 94, 58)

    def table_embed(self, table: Table, view: BaseModel) -> discord.Embed:
        assert isinstance(view, kb.KnucklebonesView)
        if view.over:
            title = "Knucklebones: the sheets are full"
            description = "The last item has been scored."
        else:
            who = table.seats[view.current_seat or 0].name
            title = f"Knucklebones · turn {view.turn} of {view.turns_total}"
            description = f"**{who}** rolled:\n" + "\n".join(roll_lines(view))
        embed = discord.Embed(title=title, description=description, colour=self.colour)
        if not view.over:
            steps = rune_steps(view)
            if steps:
                embed.add_field(name="Runes, in order", value=clip("\n".join(steps), FIELD_VALUE), inline=False)
            could = chances(view)
            if could:
                who = table.seats[view.current_seat or 0].name
                embed.add_field(name=f"{who} could score now", value=clip(could, FIELD_VALUE), inline=False)
        embed.add_field(name="Score sheet", value=clip(score_sheet(table, view), FIELD_VALUE), inline=False)
        return embed

    def action_label(self, view: BaseModel, action: BaseModel) -> str:
        assert isinstance(view, kb.KnucklebonesView) and isinstance(action, kb.KnucklebonesAction)
        return kb.action_label(view, action)

    def action_style(self, view: BaseModel, action: BaseModel) -> discord.ButtonStyle:
        assert isinstance(view, kb.KnucklebonesView) and isinstance(action, kb.KnucklebonesAction)
        if action.kind in ("skip_reroll", "skip_double"):
            return discord.ButtonStyle.secondary
        if action.kind == "score":
            return discord.ButtonStyle.success if action.item in view.met else discord.ButtonStyle.secondary
        return discord.ButtonStyle.primary

    def prompt(self, table: Table, view: BaseModel, seat: int) -> str:
        assert isinstance(view, kb.KnucklebonesView)
        if view.pending is not None:
            return view.pending.prompt
        return "choose the item to score (green ones are met; you must pick one, unmet scores 0)."

    def rules_text(self, options: BaseModel) -> str:
        assert isinstance(options, kb.KnucklebonesOptions)
        return kb.rules_summary(options)

    def option_lines(self, options: BaseModel) -> list[str]:
        assert isinstance(options, kb.KnucklebonesOptions)
        lines = []
        if options.min_active != kb.KnucklebonesOptions().min_active:
            lines.append(f"a 6 may take the active dice down to {options.min_active}")
        if options.stack_doubles:
            lines.append("a die may be doubled more than once")
        if options.solo:
            lines.append("solo play allowed")
        return lines


SPEC = KnucklebonesSpec()


class KnucklebonesCog(commands.GroupCog, group_name="knucklebones",
                      group_description="Knucklebones: rune dice and a score sheet"):
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        bot.runtime.register(SPEC)
        super().__init__()

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

    @app_commands.command(name="rules", description="How Knucklebones is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.bot.runtime.show_rules(interaction, SPEC))


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(KnucklebonesCog(bot))
