"""Roll the Bones at a Discord table: sealed antes and picks by DM, bone calls in the open,
and a reveal that accounts for every die.

The public table never shows a sealed choice: it draws only ``engine.view(state, None)``, in
which antes appear once the ante phase has closed and picks once the dice are rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.errors import guarded
from bot.games import GameSpec
from bot.models import Table
from bot.render import FIELD_VALUE, clip
from rules import roll_the_bones as rtb

if TYPE_CHECKING:
    from bot.client import Boneyard

BONE = "🦴"
PHASES = {
    "ante": "**Ante**: everyone seals the dice they put in. Nobody sees them until all antes are in.",
    "bone": "**Bone call**: call the bone die if you mean to roll it (public and binding), then "
            "press **Ready**. The calls close when everyone is Ready.",
    "pick": "**Pick**: everyone seals the die they will roll; the dice are rolled together.",
}


def dice_list(counts: dict[str, int]) -> str:
    """`2×d4 d6 d12🦴`: a collection or a pot, smallest die first."""
    parts = []
    for name, n in counts.items():
        mark = BONE if name == rtb.die_name(rtb.BONE) else ""
        parts.append(f"{n}×{name}{mark}" if n > 1 else f"{name}{mark}")
    return " ".join(parts) or "no dice"


#: Of the 6,000 characters Discord allows the embeds of one message, what the table may use: the
#: host adds "What just happened" (up to 1,024), the footer and, at the end, the final standings.
TABLE_BUDGET = 4200
#: a field that gives way to keep the table within its budget keeps at least this much
FIELD_FLOOR = 200


def names_of(table: Table, seats: list[int] | tuple[int, ...]) -> str:
    return ", ".join(table.seats[s].name for s in seats) or "nobody"


def open_to(table: Table, eligible: tuple[int, ...] | list[int], everyone: tuple[int, ...] | list[int]) -> str:
    """Who may win a pot: "all" when it is everyone rolling, else their names."""
    return "all" if set(eligible) == set(everyone) else names_of(table, eligible)


def roll_line(table: Table, entry: rtb.RollEntry) -> str:
    bone = f" {BONE}" if entry.bone else ""
    return f"{table.seats[entry.seat].name}: d{entry.sides}{bone} → **{entry.face}**"


def record_text(table: Table, record: rtb.RollRecord, numbered: bool) -> str:
    """One roll: every die thrown with its type, what the roll decided, and any pot it settled
    (RB-7: a pot none of the tied players paid into)."""
    rolls = " · ".join(roll_line(table, e) for e in record.rolls)
    if record.result == "win" and record.winner is not None:
        outcome = f"{table.seats[record.winner].name} rolls highest"
    elif record.result == "last_die_tie":
        outcome = (f"tie at {record.top} between {names_of(table, record.tied)}: a last die was rolled, "
                   "so they keep their dice and roll again")
    else:
        outcome = (f"tie at {record.top} between {names_of(table, record.tied)}: every rolled die goes "
                   "to the centre, they ante again")
    everyone = [e.seat for e in record.rolls]
    lines = [f"{f'Roll {record.cycle}: ' if numbered else ''}{rolls}\n→ {outcome}"]
    lines += [award_line(table, a, everyone) for a in record.settled]
    return "\n".join(lines)


def award_line(table: Table, award: rtb.Award, everyone: tuple[int, ...] | list[int]) -> str:
    counts = rtb.dice_counts(award.dice)
    rolloff = ""
    if award.rolloff:
        last = ", ".join(f"{table.seats[e.seat].name} {e.face}" for e in award.rolloff[-1])
        rolloff = f" (after a d{rtb.ROLLOFF_SIDES} roll-off: {last})"
    return (f"**{award.pot}** ({len(award.dice)}: {dice_list(counts)}), open to "
            f"{open_to(table, award.eligible, everyone)} → **{table.seats[award.taker].name}**{rolloff}")


def seat_line(table: Table, view: rtb.RollTheBonesView, seat: rtb.SeatView) -> str:
    name = table.seats[seat.seat].name
    if seat.eliminated:
        return f"~~{name}~~: out (round {seat.eliminated_round})"
    status = ""
    if seat.in_round and view.phase in ("ante", "pick"):
        # a bone call is public and binding (RB-2), so the pick phase still shows it
        call = f" · {BONE} called" if seat.called and view.phase == "pick" else ""
        status = call + (" · ✅ sealed" if seat.chosen else " · ⏳ choosing")
    elif seat.in_round and view.phase == "bone":
        call = f" · {BONE} called" if seat.called else ""
        status = call + (" · ✅ ready" if seat.ready else " · ⏳ deciding")
    elif not seat.in_round and not view.over:
        status = " · sits out this roll"
    short = f" · short ante ({seat.ante_due})" if seat.short else ""
    dice = "die" if seat.total == 1 else "dice"
    return f"**{name}**: {seat.total} {dice} ({dice_list(seat.dice)}){status}{short}"


def rolls_of(table: Table, records: list[rtb.RollRecord] | tuple[rtb.RollRecord, ...]) -> list[str]:
    numbered = len(records) > 1 or any(r.cycle > 1 for r in records)
    return [record_text(table, r, numbered) for r in records]


def accounts(table: Table, report: rtb.RoundReport) -> str:
    """Where every die of the round went: the rolled dice, each pot with who could win it and
    who took it, every player's dice count after the round, eliminations and the new ante."""
    everyone = [e.seat for e in report.rolls[0].rolls]
    lines = [f"🏆 **{table.seats[report.winner].name}** wins the round and takes the "
             f"{len(report.rolled_dice)} rolled dice ({dice_list(rtb.dice_counts(report.rolled_dice))})"]
    lines += [award_line(table, a, everyone) for a in report.awards]
    counts = " · ".join(
        f"{table.seats[s].name} {before}→{after}"
        for s, (before, after) in enumerate(zip(report.counts_before, report.counts_after))
        if before or after
    )
    lines.append(f"Dice now: {counts}")
    if report.eliminated:
        lines.append(f"💀 Out: {names_of(table, report.eliminated)}")
    if report.ante_after != report.ante_before:
        lines.append(f"The ante rises to **{report.ante_after}**.")
    return "\n".join(lines)


def fit(units: list[str], limit: int, what: str) -> str:
    """``units`` (each one or more lines) joined, leaving out the oldest whole ones until the
    text fits ``limit``, and saying so: the latest rolls matter most, and the log keeps all."""
    for start in range(len(units)):
        note = [f"… {start} earlier {what} in `/game log`"] if start else []
        text = "\n".join(note + units[start:])
        if len(text) <= limit:
            return text
    return clip(units[-1], limit) if units else ""


@dataclass
class Part:
    """One field of the table. A part with ``what`` may give up its oldest units for room."""

    name: str
    units: list[str]
    what: str | None = None
    limit: int = FIELD_VALUE

    def value(self) -> str:
        if self.what is not None:
            return fit(self.units, self.limit, self.what) or "—"
        return clip("\n".join(self.units), self.limit) or "—"


def add_parts(embed: discord.Embed, parts: list[Part], budget: int = TABLE_BUDGET) -> discord.Embed:
    """Add the fields, shrinking the largest part that may give way while the embed is over
    ``budget``: a long round of ties must not push the table past Discord's limits."""
    base = len(embed)
    while True:
        over = base + sum(len(p.name) + len(p.value()) for p in parts) - budget
        flexible = [p for p in parts if p.what is not None and p.limit > FIELD_FLOOR]
        if over <= 0 or not flexible:
            break
        largest = max(flexible, key=lambda p: len(p.value()))
        largest.limit = max(FIELD_FLOOR, len(largest.value()) - over)
    for part in parts:
        embed.add_field(name=part.name, value=part.value(), inline=False)
    return embed


class RollTheBonesSpec(GameSpec):
    engine = rtb.ENGINE
    command = "roll-the-bones"
    colour = discord.Colour.from_rgb(200, 190, 160)

    def table_embed(self, table: Table, view: BaseModel) -> discord.Embed:
        assert isinstance(view, rtb.RollTheBonesView)
        if view.over:
            title = "Roll the Bones: game over"
            description = ("Round cap reached: the most dice wins." if view.end_reason == "cap"
                           else "One player holds every die.")
        else:
            cycle = f" · tie roll {view.cycle}" if view.cycle > 1 else ""
            title = f"Roll the Bones · round {view.round}{cycle}"
            description = (f"Ante **{view.ante}** (base {view.base_ante} + {view.eliminations} "
                           f"eliminated) · {view.dice_total} dice in play\n{PHASES[view.phase]}")
        embed = discord.Embed(title=title, description=description, colour=self.colour)
        parts = [Part("Players", [seat_line(table, view, s) for s in view.seats])]
        if view.pots and not view.over:
            parts.append(Part(f"Centre: {view.pot_total} dice", [
                f"**{p.name}**: {p.count} ({dice_list(p.dice)})"
                + (f", open to {open_to(table, p.eligible, view.in_round)}" if len(view.pots) > 1 else "")
                for p in view.pots
            ]))
        if view.antes is not None and not view.over:
            antes = " · ".join(
                f"{table.seats[s].name}: {dice_list(a)}" for s, a in enumerate(view.antes) if a
            )
            parts.append(Part("Antes this roll", [antes or "none"]))
        if view.this_round and not view.over:
            parts.append(Part("This round so far", rolls_of(table, view.this_round), what="rolls"))
        if view.last_round is not None:
            report = view.last_round
            parts.append(Part(f"Round {report.round}: the rolls", rolls_of(table, report.rolls), what="rolls"))
            parts.append(Part(f"Round {report.round}: where the dice went", [accounts(table, report)]))
        return add_parts(embed, parts)

    def private_embed(self, table: Table, seat: int, view: BaseModel) -> discord.Embed:
        assert isinstance(view, rtb.RollTheBonesView) and view.me is not None
        me = view.me
        embed = self.table_embed(table, view)
        embed.title = f"{embed.title} · your dice"
        mine = f"**Your dice**: {sum(me.hand.values())} ({dice_list(me.hand)})"
        if view.phase == "ante" and (me.draft or me.ante_due):
            mine += f"\n**Your ante** ({len(me.draft_sides)}/{me.ante_due}): {dice_list(me.draft)}"
        if me.pick is not None:
            mine += f"\n**You roll**: d{me.pick}"
        if me.called:
            mine += f"\n{BONE} You have called the bone."
        embed.description = f"{mine}\n\n{me.prompt}\n\n{embed.description}"
        return embed

    def action_label(self, view: BaseModel, action: BaseModel) -> str:
        assert isinstance(view, rtb.RollTheBonesView) and isinstance(action, rtb.RollTheBonesAction)
        if view.me is None and action.kind == "bone_toggle":
            return "Call or withdraw my bone"
        return rtb.action_label(view, action)

    def action_style(self, view: BaseModel, action: BaseModel) -> discord.ButtonStyle:
        assert isinstance(action, rtb.RollTheBonesAction)
        kind = action.kind
        if kind in ("ante_confirm", "ready"):
            return discord.ButtonStyle.success
        if kind == "ante_remove":
            return discord.ButtonStyle.secondary
        if kind == "bone_toggle" or (kind == "pick" and action.sides == rtb.BONE):
            return discord.ButtonStyle.danger
        return discord.ButtonStyle.primary

    def prompt(self, table: Table, view: BaseModel, seat: int) -> str:
        assert isinstance(view, rtb.RollTheBonesView)
        return view.me.prompt if view.me is not None else "your move."

    def open_prompt(self, table: Table, view: BaseModel) -> str:
        return "call the bone if you will roll it, then press **Ready**. Calls are public and binding."

    def score_text(self, score: int) -> str:
        """The score is the dice a player holds at the end (RB-10)."""
        return f"{score} {'die' if score == 1 else 'dice'}"

    def rules_text(self, options: BaseModel) -> str:
        assert isinstance(options, rtb.RollTheBonesOptions)
        return rtb.rules_summary(options)

    def option_lines(self, options: BaseModel) -> list[str]:
        assert isinstance(options, rtb.RollTheBonesOptions)
        lines = []
        if options.dice_set != "mixed":
            lines.append("dice: 10×d6 and the bone d12 each")
        if options.side_pots != "layered":
            lines.append("simple side pots: everyone matches a short ante")
        if options.max_rounds != rtb.RollTheBonesOptions().max_rounds:
            lines.append(f"the game ends after round {options.max_rounds}")
        return lines


SPEC = RollTheBonesSpec()


class RollTheBonesCog(commands.GroupCog, group_name="roll-the-bones",
                      group_description="Roll the Bones: wager dice, roll one, take the pot"):
    def __init__(self, bot: Boneyard) -> None:
        self.bot = bot
        bot.runtime.register(SPEC)
        super().__init__()

    @app_commands.command(name="new", description="Open a Roll the Bones table in this channel")
    @app_commands.describe(
        dice_set="Each player's ten ordinary dice (default: mixed d4-d10)",
        side_pots="Layered side pots when an ante is short, or everyone matches it (default layered)",
        max_rounds="End after this many rounds; most dice wins (default 200)",
    )
    @app_commands.choices(
        dice_set=[app_commands.Choice(name="mixed: 2×d4 3×d6 3×d8 2×d10", value="mixed"),
                  app_commands.Choice(name="all d6: 10×d6", value="all_d6")],
        side_pots=[app_commands.Choice(name="layered", value="layered"),
                   app_commands.Choice(name="simple", value="simple")],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        dice_set: str = "mixed",
        side_pots: str = "layered",
        max_rounds: app_commands.Range[int, 1, 1000] = 200,
    ) -> None:
        async def run() -> None:
            options = rtb.RollTheBonesOptions.model_validate(
                {"dice_set": dice_set, "side_pots": side_pots, "max_rounds": max_rounds}
            )
            await self.bot.runtime.open_lobby(interaction, SPEC, options)

        await guarded(interaction, run)

    @app_commands.command(name="rules", description="How Roll the Bones is played here")
    async def rules(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: self.bot.runtime.show_rules(interaction, SPEC))


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(RollTheBonesCog(bot))
