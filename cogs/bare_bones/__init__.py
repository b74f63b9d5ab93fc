"""Bare Bones at a Discord table: the deck-building dice game, each hand held by DM.

The engine (rules/bare_bones/) decides everything; this package only draws it: ``table`` the
live table everyone sees, ``hand`` a player's own view with the subject of their decision,
``pages`` Details and the rules a phone screen a page, ``pictures`` the dice, ``words`` the
phrases they share.

Every decision in Bare Bones is its player's own (even the bonus match of the player before
is made by the player whose turn it is), so the buttons come to that player with their hand:
by DM, or through **My hand** when DMs are closed.

Tavern mode works as in Stones & Bones: ``gm_mode`` runs the table without a seat and ``npc``
seats a named bot player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from pydantic import ValidationError

from bot.errors import Refusal, guarded
from bot.games import GameSpec, Page, Part, Tavern
from bot.models import Table
from bot.pictures import Picture
from bot.render import clip
from bot.tavern import TavernCog
from cogs.bare_bones import hand, pages
from cogs.bare_bones.pictures import dice_picture
from cogs.bare_bones.table import table_parts
from cogs.bare_bones.words import coins, offer_words, plain_dice, short
from rules import bare_bones as bb
from rules.base import Event, counted, seat_name

if TYPE_CHECKING:
    from bot.client import Boneyard

#: event kinds that tell the story of a turn
STORY_KINDS = ("draft", "timeout", "match", "score", "potato", "buy", "block")


class BareBonesSpec(GameSpec[bb.BareBonesView, bb.BareBonesAction, bb.BareBonesOptions]):
    engine = bb.ENGINE
    command = "bare-bones"
    colour = discord.Colour.from_rgb(226, 214, 190)
    tavern = Tavern()
    blurb = ("Build a deck of Dice Cards and Actions, roll what your hand gives you, buy better "
             "cards; 12 rounds, hands dealt by DM. 2–4 players, about 15 minutes a player.")

    def table_parts(self, table: Table, view: bb.BareBonesView) -> list[Part]:
        return table_parts(table, view)

    def picture(self, table: Table, view: bb.BareBonesView) -> Picture | None:
        if view.over or view.turn is None or not view.turn.dice:
            return None
        return dice_picture(view, plain_dice(view.turn))

    def private_parts(self, table: Table, seat: int, view: bb.BareBonesView) -> list[Part]:
        return hand.private_parts(table, seat, view)

    def private_picture(self, table: Table, seat: int, view: bb.BareBonesView) -> Picture | None:
        """The dice the player re-rolls, scores or buys with: only on their own turn."""
        if view.turn is None or view.turn.seat != seat or not hand.dice_matter(view):
            return None
        return self.picture(table, view)

    def prompt(self, table: Table, view: bb.BareBonesView, seat: int) -> str:
        """Every Bare Bones decision is private, so this line heads the hand's DM (or My hand)
        on its own, not after a mention: it starts with a capital."""
        return hand.prompt(view)

    def action_label(self, view: bb.BareBonesView, action: bb.BareBonesAction) -> str:
        return bb.action_label(view, action)

    def action_group(self, view: bb.BareBonesView, action: bb.BareBonesAction) -> str | None:
        """The cards on offer belong in one menu, each option with its price and what it does;
        Done buying is a button of its own: fourteen buttons were most of a phone's screen."""
        return "Buy a card…" if action.kind == "buy" else None

    def action_description(self, view: bb.BareBonesView, action: bb.BareBonesAction) -> str | None:
        """A card on offer: its price, then what it rolls or does, in a menu option's line."""
        if action.kind != "buy" or action.card is None:
            return None
        kind = bb.BY_KEY[action.card].kind
        stack = next((s for s in view.supply if s.kind == kind), None)
        return offer_words(stack) if stack is not None else None

    def action_style(self, view: bb.BareBonesView, action: bb.BareBonesAction) -> discord.ButtonStyle:
        if action.kind in ("roll", "rerolls_done", "fh_roll"):
            return discord.ButtonStyle.success
        if action.kind in ("no_match", "buy_done", "swap_done"):
            return discord.ButtonStyle.secondary
        if action.kind == "sell":
            return discord.ButtonStyle.danger  # the card leaves the deck for good
        return discord.ButtonStyle.primary

    def details_pages(self, table: Table, view: bb.BareBonesView, seat: int | None) -> list[Page]:
        return pages.details_pages(table, view, seat)

    def rules_pages(self, options: bb.BareBonesOptions) -> list[Page]:
        return pages.rules_pages(options)

    # -- history ------------------------------------------------------------------------------------

    def chapter(self, view: bb.BareBonesView) -> str:
        if view.over:
            return "Game over"
        if view.draft is not None:
            return "Draft"
        return f"Round {view.round}"

    def story(self, table: Table, view: bb.BareBonesView, events: list[Event]) -> str | None:
        """Each turn in a few words: "Seat 2: 7 points and 10 coins, bought Greed". The roll,
        the cards played and the working are in /game log. A Hot Potato put on a draw pile is
        told here, its victim named: a line of history pings nobody, and the table below pings
        only whom it asks to act."""
        order: list[int] = []
        said: dict[int, dict[str, list[Event]]] = {}
        for e in events:
            if e.seat is None or e.kind not in STORY_KINDS:
                continue
            if e.seat not in said:
                order.append(e.seat)
                said[e.seat] = {k: [] for k in STORY_KINDS}
            said[e.seat][e.kind].append(e)
        parts = []
        for seat in order:
            got = said[seat]
            bits = [f"drafts {', '.join(e.data['name'] for e in got['draft'])}"] if got["draft"] else []
            bits += [f"{counted(e.data['points'], 'point')} and {coins(e.data['coins'])}" for e in got["score"]]
            if got["match"]:
                bits.append(f"{len(got['match'])} bonus match{'es' if len(got['match']) > 1 else ''}")
            if got["buy"]:
                bits.append("bought " + ", ".join(short(e.data["name"]) for e in got["buy"]))
            passed = bb.potatoes_passed([e.data["to"] for e in got["potato"] if e.data.get("to") is not None])
            bits += [passed] if passed else []
            if got["block"]:
                bits.append("blocks " + " and ".join(f"every {e.data['value']}" for e in got["block"]))
            if got["timeout"]:
                bits.append("ran out of time")
            if bits:
                parts.append(f"{seat_name(seat)}: " + ", ".join(bits))
        return clip(" · ".join(parts), 300) if parts else super().story(table, view, events)

    def score_text(self, score: int, view: bb.BareBonesView) -> str:
        return counted(score, "point")

    def option_lines(self, options: bb.BareBonesOptions) -> list[str]:
        lines = []
        if options.action_set == "custom":
            lines.append("Actions: " + ", ".join(bb.ACTIONS[k].name for k in options.custom_actions or []))
        elif options.action_set == "random":
            lines.append("Actions: 7 drawn at random")
        elif options.action_set != "basics":
            lines.append(f"Actions: {bb.SUGGESTED[options.action_set].name}")
        if options.draft_white:
            lines.append("White Dice Cards may be drafted")
        if options.dice_limit == "unlimited":
            lines.append("dice not limited to 4 a colour")
        if options.run_multiple:
            lines.append("Run doubles several runs")
        return lines


SPEC = BareBonesSpec()



def make_options(action_set: str, custom_actions: str | None, draft_white: bool, dice_limit: str,
                 run_multiple: bool) -> bb.BareBonesOptions:
    """The slash options as the engine's options; a bad custom list is told in words."""
    names = [n.strip() for n in custom_actions.split(",") if n.strip()] if custom_actions else None
    if names and action_set != "custom":
        action_set = "custom"
    try:
        return bb.BareBonesOptions.model_validate({
            "action_set": action_set, "custom_actions": names, "draft_white": draft_white,
            "dice_limit": dice_limit, "run_multiple": run_multiple,
        })
    except (ValidationError, KeyError, ValueError) as error:
        raise Refusal("A custom Action set is 7 different Action Card names, separated by commas, "
                      "e.g. `Greed, Pairs, Run, Mimic, Joyride, Yard Sale, Re-Re-Roll`.") from error


class BareBonesCog(TavernCog, group_name="bare-bones",
                   group_description="Bare Bones: build a deck, roll its dice, 12 rounds"):
    spec = SPEC

    @app_commands.command(name="new", description="Open a Bare Bones table in this channel")
    @app_commands.describe(
        action_set="The 7 Action stacks of the Supply (default Basics)",
        custom_actions="With a custom set: 7 Action Card names, separated by commas",
        draft_white="Let White Dice Cards be drafted (default off)",
        dice_limit="4 dice of each colour (default), or as many as the cards call for",
        run_multiple="Run doubles several separate runs, not just one (default off)",
        gm_mode="Run the table as game-master without taking a seat (default off)",
    )
    @app_commands.choices(
        action_set=[app_commands.Choice(name="Basics", value="basics"),
                    app_commands.Choice(name="Interplay", value="interplay"),
                    app_commands.Choice(name="Money Money", value="money_money"),
                    app_commands.Choice(name="Many Paths", value="many_paths"),
                    app_commands.Choice(name="7 at random", value="random"),
                    app_commands.Choice(name="custom (list them in custom_actions)", value="custom")],
        dice_limit=[app_commands.Choice(name="physical: 4 of each colour", value="physical"),
                    app_commands.Choice(name="unlimited", value="unlimited")],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        action_set: str = "basics",
        custom_actions: str | None = None,
        draft_white: bool = False,
        dice_limit: str = "physical",
        run_multiple: bool = False,
        gm_mode: bool = False,
    ) -> None:
        async def run() -> None:
            options = make_options(action_set, custom_actions, draft_white, dice_limit, run_multiple)
            await self.bot.runtime.open_lobby(interaction, SPEC, options, host_plays=not gm_mode)

        await guarded(interaction, run)


async def setup(bot: Boneyard) -> None:
    await bot.add_cog(BareBonesCog(bot))
