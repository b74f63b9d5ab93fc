"""Roll the Bones at a Discord table: sealed antes and picks by DM, bone calls in the open,
each roll shown as a picture of the dice, and a line of history per phase.

The public table never shows a sealed choice: it draws only ``engine.view(state, None)``, in
which antes appear once the ante phase has closed and picks once the dice are rolled. It holds
what a player needs to act now (the phase, the latest roll, the pot, one line per player); where
every die went, the earlier rolls of a round and the full accounts are behind **Details**.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import guarded
from bot.game_cog import GameCog
from bot.games import GameSpec
from bot.models import Table
from bot.pictures import Picture
from bot.render import FIELD_VALUE, clip, safe
from cogs.roll_the_bones.pictures import Thrown, roll_picture
from rules import roll_the_bones as rtb
from rules.base import Event, seat_name

if TYPE_CHECKING:
    from bot.client import Boneyard

BONE = "🦴"
Namer = Callable[[int], str]


# -- words ----------------------------------------------------------------------------------------


def dice_list(counts: dict[str, int]) -> str:
    """`2×d4 d6 d12🦴`: a collection or a pot, smallest die first."""
    parts = []
    for name, n in counts.items():
        mark = BONE if name == rtb.die_name(rtb.BONE) else ""
        parts.append(f"{n}×{name}{mark}" if n > 1 else f"{name}{mark}")
    return " ".join(parts) or "no dice"


def dice_count(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def _and(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names) or "nobody"
    return ", ".join(names[:-1]) + " and " + names[-1]


def namer(table: Table) -> Namer:
    return lambda seat: safe(table.seats[seat].name)


def names_of(table: Table, seats: Sequence[int]) -> str:
    return ", ".join(safe(table.seats[s].name) for s in seats) or "nobody"


def open_to(table: Table, eligible: Sequence[int], everyone: Sequence[int]) -> str:
    """Who may win a pot: "all" when it is everyone rolling, else their names."""
    return "all" if set(eligible) == set(everyone) else names_of(table, eligible)


def latest_roll(view: rtb.RollTheBonesView) -> rtb.RollRecord | None:
    """The roll the table shows: the one just thrown, until the next antes are revealed (then
    the table is about the new pot). After a tie it is the tied roll, at the end the last one."""
    if view.over:
        return view.last_round.rolls[-1] if view.last_round else None
    if view.antes is not None:
        return None
    if view.this_round:
        return view.this_round[-1]
    if view.last_round is not None and view.last_round.round == view.round - 1:
        return view.last_round.rolls[-1]
    return None


def thrown(entry: rtb.RollEntry, name: Namer, top: int, bold: bool) -> str:
    die = f"d{entry.sides}{BONE if entry.bone else ''}"
    face = f"**{entry.face}**" if bold and entry.face == top else str(entry.face)
    return f"{name(entry.seat)} {die} {face}"


def roll_words(record: rtb.RollRecord, name: Namer, *, bold: bool = True) -> str:
    """`Ann d8 **7** · Bob d12🦴 3`: every die thrown, the highest in bold."""
    return " · ".join(thrown(e, name, record.top, bold) for e in record.rolls)


def outcome_words(record: rtb.RollRecord, name: Namer) -> str:
    if record.result == "win" and record.winner is not None:
        return f"{name(record.winner)} rolls highest"
    tied = _and([name(s) for s in record.tied])
    if record.result == "last_die_tie":
        return f"tie at {record.top}: {tied} keep their dice and roll again"
    return f"tie at {record.top}: every rolled die goes to the centre, {tied} roll again"


# -- the details (behind the Details button) -------------------------------------------------------

#: Of the 6,000 characters Discord allows the embeds of one message, what Details may use: the
#: host adds the latest moves (six lines) below.
DETAILS_BUDGET = 4800
#: a field that gives way to keep the details within their budget keeps at least this much
FIELD_FLOOR = 200


def roll_line(table: Table, entry: rtb.RollEntry) -> str:
    bone = f" {BONE}" if entry.bone else ""
    return f"{safe(table.seats[entry.seat].name)}: d{entry.sides}{bone} → **{entry.face}**"


def record_text(table: Table, record: rtb.RollRecord, numbered: bool) -> str:
    """One roll: every die thrown with its type, what the roll decided, and any pot it settled
    (a pot none of the tied players paid into is decided by that roll)."""
    rolls = " · ".join(roll_line(table, e) for e in record.rolls)
    everyone = [e.seat for e in record.rolls]
    lines = [f"{f'Roll {record.cycle}: ' if numbered else ''}{rolls}\n→ {outcome_words(record, namer(table))}"]
    lines += [award_line(table, a, everyone) for a in record.settled]
    return "\n".join(lines)


def award_line(table: Table, award: rtb.Award, everyone: Sequence[int]) -> str:
    counts = rtb.dice_counts(award.dice)
    rolloff = ""
    if award.rolloff:
        last = ", ".join(f"{safe(table.seats[e.seat].name)} {e.face}" for e in award.rolloff[-1])
        rolloff = f" (after a d{rtb.ROLLOFF_SIDES} roll-off: {last})"
    return (f"**{award.pot}** ({len(award.dice)}: {dice_list(counts)}), open to "
            f"{open_to(table, award.eligible, everyone)} → **{safe(table.seats[award.taker].name)}**{rolloff}")


def rolls_of(table: Table, records: Sequence[rtb.RollRecord]) -> list[str]:
    numbered = len(records) > 1 or any(r.cycle > 1 for r in records)
    return [record_text(table, r, numbered) for r in records]


def accounts(table: Table, report: rtb.RoundReport) -> str:
    """Where every die of the round went: the rolled dice, each pot with who could win it and
    who took it, every player's dice count after the round, eliminations and the new ante."""
    everyone = [e.seat for e in report.rolls[0].rolls]
    lines = [f"🏆 **{safe(table.seats[report.winner].name)}** wins the round and takes the "
             f"{len(report.rolled_dice)} rolled dice ({dice_list(rtb.dice_counts(report.rolled_dice))})"]
    lines += [award_line(table, a, everyone) for a in report.awards]
    counts = " · ".join(
        f"{safe(table.seats[s].name)} {before}→{after}"
        for s, (before, after) in enumerate(zip(report.counts_before, report.counts_after, strict=True))
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
    """One field of the details. A part with ``what`` may give up its oldest units for room."""

    name: str
    units: list[str]
    what: str | None = None
    limit: int = FIELD_VALUE

    def value(self) -> str:
        if self.what is not None:
            return fit(self.units, self.limit, self.what) or "—"
        return clip("\n".join(self.units), self.limit) or "—"


def add_parts(embed: discord.Embed, parts: list[Part], budget: int = DETAILS_BUDGET) -> discord.Embed:
    """Add the fields, shrinking the largest part that may give way while the embed is over
    ``budget``: a long round of ties must not push the details past Discord's limits."""
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


# -- the table ------------------------------------------------------------------------------------

#: a name on the table keeps this much, so a line per player stays a line on a phone
NAME_ON_TABLE = 20
PHASES = {
    "ante": "**Ante {ante}**, sealed until all are in.",
    "bone": "**Bone call**, in the open: to roll your bone die you must call it; a call binds.",
    "pick": "**Pick**, sealed: every die is rolled together.",
}


def seat_line(table: Table, view: rtb.RollTheBonesView, seat: rtb.SeatView) -> str:
    """One player in one line: whether the game waits for them (⏳) or not (✅) first, where a
    phone's eye lands, then the dice they hold and anything the others should know."""
    name = safe(clip(table.seats[seat.seat].name, NAME_ON_TABLE))
    if seat.eliminated:
        return f"💀 ~~{name}~~ out in round {seat.eliminated_round}"
    mark = ""
    notes = []
    if view.over:
        pass
    elif not seat.in_round:
        notes.append("sits out")
    else:
        done = seat.ready if view.phase == "bone" else seat.chosen
        mark = "✅ " if done else "⏳ "
        if seat.called:
            notes.append(f"{BONE} called" if view.phase == "bone" else f"{BONE} rolls the bone")
        if seat.short:
            notes.append(f"short ante ({seat.ante_due})")
    return f"{mark}**{name}** {dice_count(seat.total)}: {dice_list(seat.dice)}" + "".join(f" · {n}" for n in notes)


def pot_line(table: Table, view: rtb.RollTheBonesView) -> str:
    if not view.pots:
        return ""
    if len(view.pots) == 1:
        pot = view.pots[0]
        return f"**Pot** {pot.count}: {dice_list(pot.dice)}"
    return " · ".join(f"**{p.name}** {p.count} ({open_to(table, p.eligible, view.in_round)})" for p in view.pots)


def antes_line(table: Table, view: rtb.RollTheBonesView) -> str:
    if view.antes is None:
        return ""
    shown = [f"{safe(clip(table.seats[s].name, NAME_ON_TABLE))} {dice_list(a)}" for s, a in enumerate(view.antes) if a]
    return "Antes: " + (" · ".join(shown) or "none")


def dice_of(record: rtb.RollRecord, name: Namer) -> tuple[Thrown, ...]:
    tops = set(record.tied) if record.result != "win" else {record.winner}
    return tuple(Thrown(name(e.seat), e.sides, e.face, e.bone, e.seat in tops) for e in record.rolls)


def plain_roll(record: rtb.RollRecord, name: Namer) -> str:
    """The picture in words, for screen readers: each die, its kind and its face."""
    dice = "; ".join(
        f"{name(e.seat)} rolled {'the bone ' if e.bone else 'a '}d{e.sides}: {e.face}" for e in record.rolls)
    return f"Round {record.round}, roll {record.cycle}. {dice}. {outcome_words(record, name)}."


# -- the story: a line of history per table, a headline per round ------------------------------------


def round_story(report: rtb.RoundReport, name: Namer, fresh_ties: int = 0) -> str:
    """`Seat 1 d8 7 · Seat 2 d12🦴 3 → Seat 1 takes 9 dice · Seat 3 out`.

    ``fresh_ties`` tied rolls were thrown since the table was last posted (bot seats rolling
    off among themselves): no table ever showed them, so the line spells them out before the
    deciding roll. Ties an earlier table showed are only counted."""
    deciding = report.rolls[-1]
    fresh = min(fresh_ties, len(report.rolls) - 1)
    ties = len(report.rolls) - 1 - fresh
    after = f" (after {ties} tie{'s' if ties > 1 else ''})" if ties else ""
    parts = [tie_story(r, name) for r in report.rolls[len(report.rolls) - 1 - fresh:-1]]
    parts.append(f"{roll_words(deciding, name, bold=False)} → {name(report.winner)} takes "
                 f"{rtb.dice_taken(report, report.winner)} dice{after}")
    others = sorted({a.taker for a in report.awards} - {report.winner})
    parts += [f"{name(s)} takes {dice_count(rtb.dice_taken(report, s))}" for s in others]
    if report.eliminated:
        parts.append(f"{_and([name(s) for s in report.eliminated])} out")
    return " · ".join(parts)


def tie_story(record: rtb.RollRecord, name: Namer) -> str:
    return f"{roll_words(record, name, bold=False)} → {outcome_words(record, name)}"


def first(events: list[Event], kind: str) -> Event | None:
    return next((e for e in events if e.kind == kind), None)


def antes_story(event: Event) -> str:
    """`Antes: Seat 1 d4 (short) · Seat 2 2×d4`, from the reveal's figures."""
    shown = zip(event.seats, event.data["antes"], event.data["notes"], strict=True)
    return "Antes: " + " · ".join(f"{seat_name(s)} {rtb.ante_words(a, n)}" for s, a, n in shown)


class RollTheBonesSpec(GameSpec[rtb.RollTheBonesView, rtb.RollTheBonesAction, rtb.RollTheBonesOptions]):
    engine = rtb.ENGINE
    command = "roll-the-bones"
    colour = discord.Colour.from_rgb(200, 190, 160)
    blurb = ("Wager dice in sealed antes, roll one die each, the highest takes the pot; the last "
             "player holding dice wins. 2–6 players, about 15 minutes.")

    def table_embed(self, table: Table, view: rtb.RollTheBonesView) -> discord.Embed:
        name = namer(table)
        record = latest_roll(view)
        lines: list[str] = []
        if view.over:
            title = "Roll the Bones: game over"
            lines.append("The round cap is reached: the most dice wins." if view.end_reason == "cap"
                         else "One player holds every die.")
        else:
            cycle = f" · tie roll {view.cycle}" if view.cycle > 1 else ""
            title = f"Roll the Bones · round {view.round}{cycle}"
            lines.append(PHASES[view.phase].format(ante=dice_count(view.ante)))
        if record is not None:
            lines.append(f"🎲 {roll_words(record, name)} → {outcome_words(record, name)}")
        if not view.over:
            lines += [line for line in (antes_line(table, view), pot_line(table, view)) if line]
        lines.append("")
        lines += [seat_line(table, view, s) for s in view.seats]
        return discord.Embed(title=title, description=clip("\n".join(lines), 4096), colour=self.colour)

    def picture(self, table: Table, view: rtb.RollTheBonesView) -> Picture | None:
        record = latest_roll(view)
        if record is None:
            return None
        name = namer(table)
        return roll_picture(dice_of(record, name), plain_roll(record, name))

    def private_embed(self, table: Table, seat: int, view: rtb.RollTheBonesView) -> discord.Embed:
        me = view.me
        assert me is not None, "a seat's own view"
        lines = [f"**Your {dice_count(sum(me.hand.values()))}**: {dice_list(me.hand)}"]
        acting = seat in view.to_act
        if view.over:
            what = "game over"
        elif seat not in view.in_round:
            what = "you sit out this roll"
        elif view.phase == "ante":
            what = "your ante"
            if me.draft_sides or acting:
                lines.append(f"**Your ante** {len(me.draft_sides)} of {me.ante_due}: "
                             f"{dice_list(me.draft) if me.draft_sides else 'nothing yet'}")
            if not acting:
                lines[-1] += " · sealed"
        elif view.phase == "bone":
            what = "your bone call"
            if me.called:
                lines.append(f"{BONE} You have called your bone: you will roll it.")
        else:
            what = "your die"
            if me.pick is not None:
                lines.append(f"**You roll** your d{me.pick}{BONE if me.pick == rtb.BONE else ''} · sealed")
            elif me.called:
                lines.append(f"{BONE} You called your bone: you roll it.")
        others = [safe(table.seats[s].name) for s in view.to_act if s != seat]
        if not view.over:
            waiting = (["you"] if acting else []) + others
            lines.append(f"Waiting for {_and(waiting)}." if waiting else "Everyone has chosen.")
        cycle = f" · tie roll {view.cycle}" if view.cycle > 1 else ""
        return discord.Embed(title=f"Round {view.round}{cycle} · {what}", description="\n".join(lines),
                             colour=self.colour)

    def details(self, table: Table, view: rtb.RollTheBonesView, seat: int | None) -> list[discord.Embed]:
        now = discord.Embed(
            title=f"Roll the Bones · round {view.round}" if not view.over else "Roll the Bones: game over",
            description=(f"Ante **{view.ante}** (base {view.base_ante} + {view.eliminations} eliminated) · "
                         f"{view.dice_total} dice in play · the game ends after round {view.max_rounds}"),
            colour=self.colour)
        parts = [Part("Players", [seat_line(table, view, s) for s in view.seats])]
        if view.pots and not view.over:
            parts.append(Part(f"Centre: {view.pot_total} dice", [
                f"**{p.name}**: {p.count} ({dice_list(p.dice)}), open to {open_to(table, p.eligible, view.in_round)}"
                for p in view.pots
            ]))
        if view.antes is not None and not view.over:
            parts.append(Part("Antes this roll", [antes_line(table, view).removeprefix("Antes: ")]))
        if view.this_round and not view.over:
            parts.append(Part("This round so far", rolls_of(table, view.this_round), what="rolls"))
        if view.last_round is not None:
            report = view.last_round
            parts.append(Part(f"Round {report.round}: the rolls", rolls_of(table, report.rolls), what="rolls"))
            parts.append(Part(f"Round {report.round}: where the dice went", [accounts(table, report)]))
        parts.append(Part("Key", [f"⏳ still to choose · ✅ sealed or ready · {BONE} bone die · "
                                  "**bold**: the highest roll"]))
        return [add_parts(now, parts)]

    def chapter(self, view: rtb.RollTheBonesView) -> str:
        if view.over:
            return "Game over"
        return f"Round {view.round}" + (f" · tie roll {view.cycle}" if view.cycle > 1 else "")

    def story(self, table: Table, view: rtb.RollTheBonesView, events: list[Event]) -> str | None:
        """What the phase decided: the antes revealed, who rolls the bone, the roll and who took
        the pot (the newest first kept when bot moves ran several rounds on one table)."""
        parts: list[str] = []
        late = sorted({e.seat for e in events if e.kind == "timeout" and e.seat is not None})
        if late:
            parts.append(f"⏰ {_and([seat_name(s) for s in late])} ran out of time")
        antes = first(events, "ante")
        if antes is not None:
            parts.append(antes_story(antes))
        calls = first(events, "calls")
        if calls is not None:
            parts.append(rtb.callers_words(calls.data["callers"]))
        kinds = [e.kind for e in events]
        if "win" in kinds and view.last_round is not None:
            rounds = kinds.count("win")
            earlier = f"{rounds - 1} more rounds played · " if rounds > 1 else ""
            fresh = kinds.count("roll") - 1 if rounds == 1 else 0
            parts.append(earlier + round_story(view.last_round, seat_name, fresh))
        elif "tie" in kinds and view.this_round:
            parts.append(tie_story(view.this_round[-1], seat_name))
        if not parts:
            return super().story(table, view, events)
        text = " · ".join(parts)
        return text if len(text) <= 380 else "…" + text[-379:]

    def headline(self, table: Table, view: rtb.RollTheBonesView, events: list[Event]) -> str | None:
        """A round's result pings whom it concerns: the winner, anyone who took a side pot, and
        whoever is out. The end of the game is the host's standings, so it has none."""
        if view.over or "win" not in [e.kind for e in events] or view.last_round is None:
            return None
        report = view.last_round
        won = report.rolls[-1].top
        lines = [f"🏆 {seat_name(report.winner)} wins round {report.round} rolling {won} and takes "
                 f"{rtb.dice_taken(report, report.winner)} dice."]
        others = sorted({a.taker for a in report.awards} - {report.winner})
        lines += [f"{seat_name(s)} takes a side pot ({rtb.dice_taken(report, s)} dice)." for s in others]
        if report.eliminated:
            out = [seat_name(s) for s in report.eliminated]
            lines.append(f"💀 {_and(out)} {'is' if len(out) == 1 else 'are'} out of dice.")
        if report.ante_after != report.ante_before:
            lines.append(f"The ante rises to {report.ante_after}.")
        return " ".join(lines)

    def action_label(self, view: rtb.RollTheBonesView, action: rtb.RollTheBonesAction) -> str:
        return rtb.action_label(view, action)

    def action_style(self, view: rtb.RollTheBonesView, action: rtb.RollTheBonesAction) -> discord.ButtonStyle:
        kind = action.kind
        if kind in ("ante_confirm", "ready"):
            return discord.ButtonStyle.success
        if kind in ("ante_add", "ante_remove") or action == rtb.WITHDRAW:
            return discord.ButtonStyle.secondary
        return discord.ButtonStyle.primary

    def prompt(self, table: Table, view: rtb.RollTheBonesView, seat: int) -> str:
        me = view.me
        if me is None:
            return "your move."
        if view.phase == "ante":
            due = me.ante_due
            return (f"Choose {due} {'die' if due == 1 else 'dice'} for your ante ({len(me.draft_sides)} chosen), "
                    "then seal it. **Fill** adds your smallest.")
        if view.phase == "bone":
            return "Call your bone to roll it (public and binding), or press **Ready**."
        return "Pick the die you roll. Nobody sees it until every die is rolled."

    def open_prompt(self, table: Table, view: rtb.RollTheBonesView) -> str:
        return "call your bone if you will roll it, then press **Ready**."

    def score_text(self, score: int) -> str:
        """The score is the dice a player holds at the end."""
        return f"{score} {'die' if score == 1 else 'dice'}"

    def rules_text(self, options: rtb.RollTheBonesOptions) -> str:
        return rtb.rules_summary(options)

    def option_lines(self, options: rtb.RollTheBonesOptions) -> list[str]:
        lines = []
        if options.dice_set != "mixed":
            lines.append("dice: 10×d6 and the bone d12 each")
        if options.side_pots != "layered":
            lines.append("simple side pots: everyone matches a short ante")
        if options.max_rounds != rtb.RollTheBonesOptions().max_rounds:
            lines.append(f"the game ends after round {options.max_rounds}")
        return lines


SPEC = RollTheBonesSpec()


class RollTheBonesCog(GameCog, group_name="roll-the-bones",
                      group_description="Roll the Bones: wager dice, roll one, take the pot"):
    spec = SPEC

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


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(RollTheBonesCog(bot))
