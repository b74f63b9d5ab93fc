"""Stones & Bones at a Discord table, with a tavern mode for game-masters.

The engine (rules/stones_and_bones/) decides everything; this package draws it. The live table
holds what a player needs on a phone: where the game stands (Tide, Wave, Captain, coffer), the
throw being decided as a picture (pictures.py) and in one line of words, and one short block per
pirate, beside which a choice that is that pirate's alone sits. The question above it
(asking.py) names what the controls decide. Details (pages.py) opens on this bet worked out step
by step; every purse to the copper, the Mutiny's fine print and the legend are a tap away. An old
table shrinks to one line of what happened on it (history.py).

Public decisions sit on the table itself (Engine.open_actions); the Mutiny vote and the
Tide-rise choices are sealed and go to each player by DM (or the table's **My purse** button,
as what it holds is a purse, never a hand), which holds only that choice, the purse it concerns
and one line of context.

Tavern mode gives a game-master what a campaign needs: a table they run without a seat, NPC
seats with names, each seat's starting purse, and a ledger (on the final table, with a CSV
file) at the end.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from pydantic import BaseModel

from bot.errors import Refusal, guarded
from bot.games import GameSpec, Page, Part, Tavern
from bot.models import Table
from bot.pictures import Picture
from bot.render import and_list, clip, safe
from bot.tavern import StakesTavernCog
from cogs.stones_and_bones import pages
from cogs.stones_and_bones.asking import ask, sealed_prompt
from cogs.stones_and_bones.history import story
from cogs.stones_and_bones.lines import (
    ROLL_MARK,
    ledger_csv,
    ledger_lines,
    mutiny_state,
    names,
    picture_words,
    pirate_short,
    purse_line,
    seat_name,
    throw_line,
)
from cogs.stones_and_bones.money import parse_coins
from cogs.stones_and_bones.pictures import throw_picture
from rules import stones_and_bones as sb
from rules.base import Event
from rules.stones_and_bones import money, signed_money

if TYPE_CHECKING:
    from bot.client import Boneyard

__all__ = ["ROLL_MARK", "SPEC", "StonesAndBonesCog", "ledger_csv", "parse_coins", "setup", "throw_line"]

COLOUR = discord.Colour.from_rgb(60, 110, 150)
#: the phases whose question is about the dice just thrown (paying for them, Grumbling about
#: them): their table shows the throw
THROW_PHASES = ("turn", "grumble", "object")
#: the claims a table shows (in a Grumbles phase): the line above it leaves them out
CLAIMS = ("float", "luck", "crossbones", "plank")
#: the phases of a Mutiny, one chapter (a table of its own) after the claim that set it off
MUTINY_PHASES = ("mutiny_call", "parley", "vote", "split")


def ended(table: Table, view: sb.StonesAndBonesView) -> str:
    """Why the game ended, in words."""
    if view.ended_by == "afloat":
        afloat = [p.seat for p in view.pirates if p.status == "afloat"]
        return f"only {seat_name(table, afloat[0])} is still afloat" if afloat else "every pirate has left the table"
    return {"tides": "the last Wave of Tide 6 was played", "vote": "the crew voted to end it at the Tide rise",
            "cap": "the table reached its turn limit"}.get(view.ended_by or "", "it is over")


class StonesAndBonesTavern(Tavern):
    """A character's purse is their stake; the game-master keeps the ledger. A game where the
    host set purses (``options.purses``) is a tavern game: its rematch carries each purse on."""

    npc_example = "One-Eyed Mags"
    stake_word = "purse"

    def parse_stake(self, text: str) -> int:
        return parse_coins(text)

    def stake_text(self, options: sb.StonesAndBonesOptions, stake: int | None) -> str:
        if stake == 0:  # (only a rematch brings one: what a seat took home)
            return "purse empty"
        return f"purse of {money(sb.purse_of(options, stake))}"

    def starting_options(self, options: sb.StonesAndBonesOptions,
                         stakes: list[int | None]) -> sb.StonesAndBonesOptions:
        """Seats whose purse the host set bring it; the others bring the starting purse. A seat
        that took nothing home from the last game has nothing to play with: the game-master
        gives it a purse or unseats it before the game starts."""
        empty = [str(n + 1) for n, stake in enumerate(stakes) if stake == 0]
        if empty:
            one = len(empty) == 1
            raise Refusal(f"{'Seat' if one else 'Seats'} {and_list(empty)} "
                          f"{'has an empty purse' if one else 'have empty purses'}: give "
                          f"{'it' if one else 'each'} one with `/stones-and-bones stake`, or remove "
                          f"{'the seat' if one else 'them'} with `/game unseat`, then press **Start**.")
        return sb.options_with_purses(options, stakes)

    def rematch_stakes(self, table: Table, view: BaseModel) -> tuple[list[int | None], str | None]:
        """In a tavern game each seat brings what it took home; elsewhere everyone starts afresh
        with the starting purse."""
        shown = cast(sb.StonesAndBonesView, view)
        if shown.options.purses is None:
            return [None] * len(table.seats), None
        stakes: list[int | None] = [row.cashed_out for row in shown.ledger]
        line = ("Each purse is what its seat took home from the last game; `/stones-and-bones stake` "
                "changes one.")
        # (a player who left is not seated again: the lobby says so)
        broke = [safe(seat.name) for seat, stake in zip(table.seats, stakes, strict=True)
                 if stake == 0 and not seat.left]
        if broke:
            line += f" {and_list(broke)} took home nothing: give {'each' if len(broke) > 1 else 'them'} " \
                    "a purse before **Start**."
        return stakes, line

    def last_words(self, table: Table, view: BaseModel) -> list[dict[str, Any]]:
        """The ledger: each seat's buy-in, cash-out and net in coins, and the same as a CSV file
        the game-master keeps (amounts in copper and in coins; the nets sum to zero). A game
        ended early is settled where it stood: each purse is taken home, and what is in the
        coffer stays there, named, for the game-master to hand out as the story has it."""
        shown = cast(sb.StonesAndBonesView, view)
        rows = shown.ledger
        total = sum(r.net for r in rows)
        if shown.over:
            lines = ledger_lines(table, rows, nets=False)
            lines.append(f"Every copper is accounted for: the nets in the standings sum to {signed_money(total)}.")
        else:  # no standings beside it: the nets are here
            lines = ["The game ended early: each purse at the table is cashed out as it stood.",
                     *ledger_lines(table, rows)]
            left = coffer_line(table, shown)
            if left:
                lines.append(left)
            lines.append(f"Every copper is accounted for: the nets sum to {signed_money(total)}"
                         + (", the money left in the coffer." if left else "."))
        embed = discord.Embed(title="The ledger", description=clip("\n".join(lines), 3800), colour=COLOUR)
        data = ledger_csv(table, rows).encode()
        name = f"stones-and-bones-{table.id}-ledger.csv"
        return [{"embed": embed, "file": discord.File(io.BytesIO(data), filename=name)}]


def coffer_line(table: Table, view: sb.StonesAndBonesView) -> str | None:
    """The money a game ended early left in the coffer, in one line, or None. It is nobody's:
    no one had won it, and the rules say nothing of a game stopped mid-Wave. The one exception
    is a coffer already won in a Mutiny whose winner had yet to keep or split it."""
    if not view.coffer and not view.carry:
        return None
    m = view.mutiny
    if view.phase == "split" and m is not None and m.winner is not None and view.coffer:
        won = (f"💰 {money(view.coffer)} stays in the coffer that **{seat_name(table, m.winner)}** won: "
               "the game ended before they kept or shared it")
        grumbles = f", and {money(view.carry)} of Grumbles money with it" if view.carry else ""
        return won + grumbles + "."
    what = [words for amount, words in ((view.coffer, "the Wave's antes and bets"),
                                       (view.carry, f"{money(view.carry)} of Grumbles money")) if amount]
    return (f"💰 {money(view.coffer + view.carry)} stays in the coffer ({' and '.join(what)}): the game "
            "ended before anyone won it.")


def status_line(table: Table, view: sb.StonesAndBonesView) -> str:
    """Where the game stands, in one line: the Tide and Wave, the Captain, the coffer."""
    line = f"**Tide {view.tide} · Wave {view.wave}** · 🏴‍☠️ Captain **{seat_name(table, view.captain)}**"
    if view.phase not in ("mutiny_call", "split"):  # (their question names the coffer)
        line += f" · 💰 Coffer **{view.coffer_text}**"
    if view.tide > 1:
        line += f" · bets × {view.tide}"
    if view.carry:
        line += f" · {money(view.carry)} of Grumbles money waits for the next coffer"
    return line


def table_lines(table: Table, view: sb.StonesAndBonesView) -> list[str]:
    """What the question on the table is about: the throw, a Stone lying there, the Mutiny."""
    turn, lines = view.turn, []
    if view.phase in THROW_PHASES and turn is not None and (turn.bones is not None or turn.plank is not None):
        if view.phase == "object" and view.claim is not None and view.claim.grumbler is not None:
            lines.append(f"🗯 **{seat_name(table, view.claim.grumbler)}** Grumbled: the dice are thrown "
                         "again unless someone objects.")
        lines.append(throw_line(table, turn))
    stone = view.table_stone
    if view.phase == "turn" and stone is not None and stone.owner not in view.to_act:
        # (its owner, when asked, hears of it in the question)
        lines.append(f"🪨 **{seat_name(table, stone.owner)}**'s Stone (**{stone.value}**) lies on the "
                     "table and may be Pilfered.")
    shown = mutiny_state(table, view)
    if shown:
        lines.append(shown)
    return lines


class StonesAndBonesSpec(GameSpec[sb.StonesAndBonesView, sb.StonesAndBonesAction, sb.StonesAndBonesOptions]):
    engine = sb.ENGINE
    command = "stones-and-bones"
    colour = COLOUR
    tavern = StonesAndBonesTavern()
    hand_button = ("My purse", "👛")
    blurb = ("A pirate tavern game: four d20 Bones set your bet, your Stone claims the coffer; "
             "Mutinies and rising Tides. 2–6 players, 30 to 60 minutes (the crew may end it at any Tide rise).")

    # -- the live table ----------------------------------------------------------------------

    def table_parts(self, table: Table, view: sb.StonesAndBonesView) -> list[Part]:
        """Where the game stands, what the question is about, and a block per pirate (a choice
        that is one pirate's alone sits beside theirs). The end says only why it ended: the host
        names the winner and the standings, and the ledger rides below."""
        if view.over:
            return [Part(f"**Game over**: {ended(table, view)}.")]
        if view.phase == "tide":
            # who is still choosing is the line above the table: here, only who has chosen
            chosen = [c.seat for c in view.tide_choices if c.chosen and view.pirates[c.seat].status == "afloat"]
            rose = (f"🌊 **The Tide rose to {view.tide}**: the ante is now {money(view.ante)} and every bet is "
                    f"× {view.tide}. Each pirate stays, Heaves Down (cashes out), buys in or votes to end the game.")
            parts = [Part(rose + (f"\n✅ Chosen, sealed until all are in: {names(table, chosen)}" if chosen else ""))]
        else:
            parts = [Part(status_line(table, view))]
            lines = table_lines(table, view)
            if lines:
                parts.append(Part("\n".join(lines)))
        return parts + [Part(pirate_short(table, p), seat=p.seat) for p in view.pirates]

    def picture(self, table: Table, view: sb.StonesAndBonesView) -> Picture | None:
        """The throw a question is about, whenever the table's words show it."""
        turn = view.turn
        if view.phase not in THROW_PHASES or turn is None or (turn.bones is None and turn.plank is None):
            return None
        stone = view.table_stone.value if view.table_stone is not None else None
        return throw_picture(turn, stone, picture_words(table, turn, stone))

    def open_prompt(self, table: Table, view: sb.StonesAndBonesView) -> str:
        """What the controls decide, after the host's mentions of whoever is asked."""
        return ask(table, view, None)

    def prompt(self, table: Table, view: sb.StonesAndBonesView, seat: int) -> str:
        """One seat's own question, in a DM or My hand: the sealed vote or Tide-rise choice, or
        the seat's part of a choice made on the table."""
        sealed = sealed_prompt(table, view)
        if sealed is not None:
            return sealed
        text = ask(table, view, seat)
        return text[:1].upper() + text[1:]

    # -- the private view --------------------------------------------------------------------

    def private_parts(self, table: Table, seat: int, view: sb.StonesAndBonesView) -> list[Part]:
        """Only what is sealed, or the throw or Stone a seat decides about, and the purse it
        concerns. Read without a question (an old copy), it says what the seat chose."""
        pirate = view.pirates[seat]
        purse = purse_line(pirate)
        m, turn, stone = view.mutiny, view.turn, view.table_stone
        if view.phase == "vote" and m is not None:
            mine = m.votes[seat] if seat < len(m.votes) else None
            if mine:
                sealed = f"You voted **{mine.capitalize()}**, sealed until every vote is in."
            else:
                sealed = ("The votes show once all are in. A Challenge costs everyone but the Captain "
                          "a roll of 1 to 4 gp.")
            return [Part(f"⚔️ Mutineer **{seat_name(table, m.mutineer)}** against Captain "
                         f"**{seat_name(table, m.captain)}**, for the coffer (**{view.coffer_text}**).\n"
                         f"{sealed}\n{purse}")]
        if view.phase == "tide":
            choice = next((c for c in view.tide_choices if c.seat == seat and c.choice), None)
            if choice is not None:
                what = f"buy in {money(choice.amount or 0)}" if choice.choice == "buy" else {
                    "stay": "stay", "heave": "Heave Down", "end": "vote to end"}.get(choice.choice or "", "")
                sealed = f"You chose **{what}**, sealed until everyone has chosen."
            else:
                sealed = "The choices show once everyone has chosen."
            return [Part(f"🌊 **The Tide rose to {view.tide}**: the ante is now {money(view.ante)} and every "
                         f"bet is × {view.tide}.\n{sealed}\n{purse}")]
        if view.phase == "split" and m is not None:  # the Challenge, and the seat's own vote in it
            mine = m.votes[seat] if m.revealed and seat in m.voters else None
            voted = f"You voted **{mine.capitalize()}**.\n" if mine else ""
            return [Part(f"{mutiny_state(table, view)}\n{voted}{purse}")]
        if view.phase == "turn" and stone is not None and stone.owner == seat:
            return [Part(f"🪨 Your Stone (**{stone.value}**) lies on the table.\n{purse}")]
        if view.phase in THROW_PHASES and turn is not None and (turn.bones is not None or turn.plank is not None):
            return [Part(f"{throw_line(table, turn)}\n{purse}")]
        return [Part(f"{status_line(table, view)}\n{purse}")]

    def private_picture(self, table: Table, seat: int, view: sb.StonesAndBonesView) -> Picture | None:
        """The throw, for the roller deciding on it and for whoever may Grumble about it."""
        return self.picture(table, view)

    # -- Details and the rules -----------------------------------------------------------------

    def details_pages(self, table: Table, view: sb.StonesAndBonesView, seat: int | None) -> list[Page]:
        return pages.details_pages(table, view, seat, self.picture(table, view))

    def rules_pages(self, options: sb.StonesAndBonesOptions) -> list[Page]:
        return pages.rules_pages(options)

    # -- the channel's story ------------------------------------------------------------------

    def chapter(self, view: sb.StonesAndBonesView) -> str:
        """Each throw is a chapter of its own, and so is a Mutiny: a new chapter is a new table,
        which pings whoever must act and leaves the last throw's line above it. With a Stone
        lying on the table the next roller is asked already (to pick it up), so without it two
        players' throws, or a Cutthroat Challenge's split, rewrote one table unseen."""
        if view.over:
            return "Game over"
        if view.phase == "tide":
            return f"Tide {view.tide} rises"
        where = f"Tide {view.tide} · Wave {view.wave}"
        return f"{where} · Mutiny" if view.phase in MUTINY_PHASES else f"{where} · Turn {view.turns}"

    def opens_chapter(self, event: Event) -> bool:
        """A throw begins with its ante and Bones (a Wave with its news), which the move that
        ends the turn before makes: the log files them under the new throw."""
        return event.kind in ("carry", "wave", "ante", "bones")

    def story(self, table: Table, view: sb.StonesAndBonesView, events: list[Event]) -> str | None:
        """What came of the turns while a table was live, without what the next table shows."""
        return story(events, CLAIMS if view.phase in ("grumble", "object") else ())

    # -- buttons ------------------------------------------------------------------------------

    def action_label(self, view: sb.StonesAndBonesView, action: sb.StonesAndBonesAction) -> str:
        return sb.action_label(view, action)

    def action_group(self, view: sb.StonesAndBonesView, action: sb.StonesAndBonesAction) -> str | None:
        """A parley's gifts are one menu ("Give…": whom, how much), each the presser's own."""
        return "Give… (from your own purse)" if action.kind == "give" else None

    def action_style(self, view: sb.StonesAndBonesView, action: sb.StonesAndBonesAction) -> discord.ButtonStyle:
        """Green for going on as the rules expect, blurple for a bold move, grey for passing.
        Nothing here destroys anything, so nothing is red: Flying the Black, crying Mutiny and
        cashing out are all fair play."""
        if action.kind in ("pay", "ready", "keep", "stay", "stay_aboard"):
            return discord.ButtonStyle.success
        if action.kind in ("leave_stone", "pass", "let_stand", "allow"):
            return discord.ButtonStyle.secondary
        return discord.ButtonStyle.primary

    # -- the rest -----------------------------------------------------------------------------

    def score_text(self, score: int, view: sb.StonesAndBonesView) -> str:
        return f"a net of {signed_money(score)}"

    def option_lines(self, options: sb.StonesAndBonesOptions) -> list[str]:
        d = sb.StonesAndBonesOptions()
        lines = []
        if options.starting_purse != d.starting_purse:
            lines.append(f"starting purse: {money(options.starting_purse)}")
        if options.ante != d.ante:
            lines.append("ante: everyone antes at the start of each Wave")
        if options.ill_omens != d.ill_omens:
            lines.append("Ill Omens: only the largest matching group counts")
        if options.fold:
            lines.append("fold: a player may fold after the ante")
        if options.mutiny_trigger != d.mutiny_trigger:
            lines.append("Mutiny may be declared on any claim")
        if options.pilfer != d.pilfer:
            lines.append("Pilfer: off" if options.pilfer == "off"
                         else "Pilfer: the last Sunk Stone always lies on the table")
        if options.grumbles:
            lines.append("Grumbles: on")
        if options.buy_ins != d.buy_ins:
            lines.append("buy-ins: " + ", ".join(money(b) for b in options.buy_ins))
        return lines


SPEC = StonesAndBonesSpec()


class StonesAndBonesCog(StakesTavernCog, group_name="stones-and-bones",
                        group_description="Stones & Bones: bet on the Bones, claim the coffer"):
    spec = SPEC

    @app_commands.command(name="new", description="Open a Stones & Bones table in this channel")
    @app_commands.describe(
        starting_purse="Each seat's purse: coins like 12gp 5sp, or whole gp like 50 (default 50 gp)",
        gm_mode="Run the table as game-master without taking a seat (default off)",
        ante="Who antes: the player on each turn (default), or everyone at each Wave's start",
        ill_omens="Two matching groups in one tier: multiply by each (default) or the largest",
        fold="Let a player fold after the ante (default off)",
        mutiny_trigger="Mutiny when the Captain claims again (default) or on any claim",
        pilfer="The last Sunk Stone: until its owner picks it up (default), always, or off",
        grumbles="Allow Grumbles: pay 1 gp × Tide to force a reroll (default off)",
    )
    @app_commands.choices(
        ante=[app_commands.Choice(name="per turn: the player antes", value="per_turn"),
              app_commands.Choice(name="per wave: everyone antes at the start", value="per_wave_all")],
        ill_omens=[app_commands.Choice(name="product: 3,3,5,5 is ×4", value="product"),
                   app_commands.Choice(name="largest group: 3,3,5,5 is ×2", value="max_group")],
        mutiny_trigger=[app_commands.Choice(name="plunder: the Captain claims again", value="plunder"),
                        app_commands.Choice(name="any claim", value="any_claim")],
        pilfer=[app_commands.Choice(name="window: until the owner picks it up", value="window"),
                app_commands.Choice(name="always", value="always"),
                app_commands.Choice(name="off", value="off")],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        starting_purse: str = "50gp",
        gm_mode: bool = False,
        ante: str = "per_turn",
        ill_omens: str = "product",
        fold: bool = False,
        mutiny_trigger: str = "plunder",
        pilfer: str = "window",
        grumbles: bool = False,
    ) -> None:
        async def run() -> None:
            options = sb.StonesAndBonesOptions.model_validate({
                "starting_purse": parse_coins(starting_purse), "ante": ante, "ill_omens": ill_omens,
                "fold": fold, "mutiny_trigger": mutiny_trigger, "pilfer": pilfer, "grumbles": grumbles,
            })
            await self.bot.runtime.open_lobby(interaction, SPEC, options, host_plays=not gm_mode)

        await guarded(interaction, run)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(StonesAndBonesCog(bot))
