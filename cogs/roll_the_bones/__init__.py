"""Roll the Bones at a Discord table: sealed antes and picks by DM, bone calls in the open,
each roll shown as a picture of the dice, and a line of history per phase.

The public table never shows a sealed choice: it draws only ``engine.view(state, None)``, in
which antes appear once the ante phase has closed and picks once the dice are rolled. It holds
what a player needs to act now: the phase in a sentence, the pot and who may win it, and a block
per player saying where they stand, beside which the host puts that player's own bone-call
button. The roll just thrown is the table's picture; the line of history above the table says it
in words, so the table does not say it again. Where every die went, the earlier rolls of a round
and the full accounts are behind **Details**.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.errors import guarded
from bot.games import GameSpec, Page, Part, Tavern
from bot.models import Table
from bot.pictures import Picture
from bot.tavern import TavernCog
from cogs.roll_the_bones import pages
from cogs.roll_the_bones.pictures import Kind, hand_picture, roll_picture
from cogs.roll_the_bones.words import (
    BONE,
    PHASE_NAMES,
    and_names,
    antes_story,
    asked_again,
    calls_story,
    dice_count,
    dice_list,
    dice_of,
    first,
    latest_roll,
    namer,
    phase_line,
    plain_namer,
    plain_roll,
    pot_lines,
    round_story,
    seat_block,
    tie_story,
    where,
)
from rules import roll_the_bones as rtb
from rules.base import Event, seat_name

if TYPE_CHECKING:
    from bot.client import Boneyard

#: a line of history keeps this much (the host cuts at 400 with the chapter in front)
STORY = 380
#: what a private view is about, in each phase
PRIVATE_HEADINGS = {"ante": "your ante", "bone": "your bone call", "pick": "your die"}


def _roll_caption(view: rtb.RollTheBonesView, record: rtb.RollRecord) -> str:
    """Which roll the picture shows: a new round's antes sit above the last round's roll,
    which would read as this round's."""
    if view.over:
        return "The last roll"
    if record.round == view.round:
        return "The tie"
    return f"Round {record.round}'s roll"


class RollTheBonesSpec(GameSpec[rtb.RollTheBonesView, rtb.RollTheBonesAction, rtb.RollTheBonesOptions]):
    engine = rtb.ENGINE
    #: a game-master can run it in a campaign: a table without their seat, NPCs played by the bot
    tavern = Tavern()
    command = "roll-the-bones"
    colour = discord.Colour.from_rgb(200, 190, 160)
    blurb = ("Wager dice in sealed antes, roll one die each, the highest takes the pot; the last "
             "player holding dice wins. 2–6 players, about 15 minutes.")

    def table_parts(self, table: Table, view: rtb.RollTheBonesView) -> list[Part]:
        """The phase in a sentence and the pot, then a block per player (their bone-call button
        sits beside it). The roll just thrown is the picture, said in words by the line of
        history above the table."""
        if view.over:
            reason = (f"Round {view.max_rounds} was the last: the most dice wins."
                      if view.end_reason == "cap" else "One player holds every die.")
            return [Part(f"### Game over\n{reason}")]
        head = [f"### {where(view)} · {PHASE_NAMES[view.phase]}", phase_line(view)]
        if view.cycle > 1:
            tied = and_names([namer(table, short=True)(s) for s in view.in_round])
            head.append(f"After a tie, only {tied} roll.")
        head += pot_lines(view, namer(table, short=True))
        return [Part("\n".join(head)), *[Part(seat_block(table, view, s), seat=s.seat) for s in view.seats]]

    def picture(self, table: Table, view: rtb.RollTheBonesView) -> Picture | None:
        record = latest_roll(view)
        if record is None:
            return None
        name = plain_namer(table)
        return roll_picture(dice_of(record, name), plain_roll(record, name), _roll_caption(view, record))

    def private_parts(self, table: Table, seat: int, view: rtb.RollTheBonesView) -> list[Part]:
        """Facts, never instructions: the host adds the question while the seat is asked, and an
        old copy without its buttons must still read right."""
        heading = "Game over" if view.over else f"{where(view)} · {PRIVATE_HEADINGS[view.phase]}"
        return [Part(f"### {heading}\n" + "\n".join(pages.own_lines(view)))]

    def private_picture(self, table: Table, seat: int, view: rtb.RollTheBonesView) -> Picture | None:
        """Your dice, while you choose an ante or the die to roll: the kinds in your ante ringed,
        the dice you may not roll greyed."""
        me = view.me
        if me is None or view.over or view.phase == "bone":
            return None
        may_roll = set(me.pick_options)
        kinds = tuple(
            Kind(sides, me.hand_sides.count(sides), sides == rtb.BONE, me.draft_sides.count(sides),
                 idle=view.phase == "pick" and sides not in may_roll)
            for sides in sorted(set(me.hand_sides)))
        words = f"Your dice: {dice_list(me.hand)}."
        if view.phase == "ante":
            words += f" In your ante: {dice_list(me.draft) if me.draft_sides else 'nothing yet'}."
        return hand_picture(kinds, words)

    def details_pages(self, table: Table, view: rtb.RollTheBonesView, seat: int | None) -> list[Page]:
        return pages.details_pages(table, view)

    def rules_pages(self, options: rtb.RollTheBonesOptions) -> list[Page]:
        return pages.rules_pages(options)

    def chapter(self, view: rtb.RollTheBonesView) -> str:
        return "Game over" if view.over else where(view)

    def story(self, table: Table, view: rtb.RollTheBonesView, events: list[Event]) -> str | None:
        """What the table saw happen: the antes revealed, the bone calls, the roll and who took
        the pot (the newest kept when bot moves ran several rounds on one table). The next
        table does not say these again: it shows the roll as its picture."""
        parts: list[str] = []
        late = sorted({e.seat for e in events if e.kind == "timeout" and e.seat is not None})
        if late:
            parts.append(f"⏰ {and_names([seat_name(s) for s in late])} ran out of time")
        antes = first(events, "ante")
        if antes is not None:
            parts.append(antes_story(antes))
        calls = calls_story(events)
        closed = first(events, "calls")
        if calls:
            parts.append(calls)
        elif closed is not None:
            parts.append(rtb.callers_words(closed.data["callers"]))
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
        return text if len(text) <= STORY else "…" + text[-(STORY - 1):]

    def headline(self, table: Table, view: rtb.RollTheBonesView, events: list[Event]) -> str | None:
        """The re-ask: whoever had pressed Ready and must press again after a change of call is
        told so, and pinged, above the new table. A round's result is the line of history above
        and the table's picture, so it is no headline; the end is the host's standings."""
        again = asked_again(events, view)
        if not again:
            return None
        names = and_names([seat_name(s) for s in again])
        return f"🔁 {names}: a change of bone call undoes every Ready, so press **{rtb.READY_LABEL}** again."

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
            return (f"Choose {dice_count(due)} for your ante ({len(me.draft_sides)} chosen), then seal it. "
                    "**Fill** adds your smallest. Nobody sees an ante until all are in.")
        if view.phase == "bone":
            return (f"Call your bone die ({BONE}) to roll it this time (everyone sees the call, and it "
                    f"binds), or press **{rtb.READY_LABEL}**.")
        return "Pick the die you roll. Nobody sees it until every die is rolled."

    def open_prompt(self, table: Table, view: rtb.RollTheBonesView) -> str:
        """The bone call is asked on the table: a call is one player's own (beside their name
        when they alone may make it); Ready is everyone's, and the line says so."""
        each = "each of you presses" if len(view.to_act) > 1 else "press"
        return f"will you roll your bone die ({BONE}) this time? Call it or not, then {each} **{rtb.READY_LABEL}**."

    def score_text(self, score: int, view: rtb.RollTheBonesView) -> str:
        """The score is the dice a player holds at the end."""
        return f"{score} {'die' if score == 1 else 'dice'}"

    def option_lines(self, options: rtb.RollTheBonesOptions) -> list[str]:
        lines = []
        if options.dice_set != "mixed":
            lines.append("dice: 10×d6 and the bone d12 each")
        if options.side_pots != "layered":
            lines.append("simple side pots: everyone matches the smallest ante")
        if options.max_rounds != rtb.RollTheBonesOptions().max_rounds:
            lines.append(f"the game ends after round {options.max_rounds}")
        return lines


SPEC = RollTheBonesSpec()


class RollTheBonesCog(TavernCog, group_name="roll-the-bones",
                      group_description="Roll the Bones: wager dice, roll one, take the pot"):
    spec = SPEC

    @app_commands.command(name="new", description="Open a Roll the Bones table in this channel")
    @app_commands.describe(
        dice_set="Each player's ten ordinary dice (default: mixed d4-d10)",
        side_pots="Layered side pots when an ante is short, or everyone matches it (default layered)",
        max_rounds="End after this many rounds; most dice wins (default 200)",
        gm_mode="Run the table as game-master without taking a seat (default off)",
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
        gm_mode: bool = False,
    ) -> None:
        async def run() -> None:
            options = rtb.RollTheBonesOptions.model_validate(
                {"dice_set": dice_set, "side_pots": side_pots, "max_rounds": max_rounds}
            )
            await self.bot.runtime.open_lobby(interaction, SPEC, options, host_plays=not gm_mode)

        await guarded(interaction, run)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(RollTheBonesCog(bot))
