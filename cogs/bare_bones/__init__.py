"""Bare Bones at a Discord table: the deck-building dice game, each hand held by DM.

The engine (rules/bare_bones/) decides everything; this package only draws it. The live table
holds what the table can see and a player needs on a phone: the round, whose turn and stage,
the cards in play, the dice as a picture in their seven colours and in one line of words, the
turn's points and coins, the Supply in one line, and one short line per player (score, deck,
hand, loans and Hot Potatoes), plus any Can't Touch This block in force. The scoresheet, the
full Supply with what each card does, the scoring worked out and your own piles sit behind
**Details**.

Every decision in Bare Bones is its player's own (even the bonus match of the player before
is made by the player whose turn it is), so the buttons come to that player with their hand:
by DM, or through **My hand** when DMs are closed. The hand view holds the cards, what each
does in a short line, the Action Units left and the piles; never a copy of the table.

Tavern mode works as in Stones & Bones: ``gm_mode`` runs the table without a seat and ``npc``
seats a named bot player.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from pydantic import ValidationError

from bot.errors import Refusal, guarded
from bot.games import GameSpec, Tavern
from bot.models import Table
from bot.pictures import Picture
from bot.render import EMBED_DESCRIPTION, FIELD_VALUE, clip, safe
from bot.tavern import TavernCog
from cogs.bare_bones.pictures import dice_picture
from rules import bare_bones as bb
from rules.base import Event, seat_name

if TYPE_CHECKING:
    from bot.client import Boneyard

#: what a stage of the turn is called on the table
STAGE_WORDS = {
    "match": "bonus match",
    "play": "playing cards",
    "dice": "rolling",
    "reroll": "re-rolling",
    "score": "scoring",
    "buy": "buying",
    "potato": "Hot Potato",
}
#: the question a card asks, as the asking player reads it above their buttons
PENDING_PROMPTS = {
    "mimic": "which Dice Card in play does your Mimic copy?",
    "joyride_seat": "which opponent do you Joyride? They show their hand.",
    "joyride_card": "which of their Dice Cards do you borrow for this turn?",
    "loan": "how many coins do you borrow (Loan Shark)? Repay next turn, or lose 2 points a coin.",
    "yard_sale": "which card of your hand do you sell to the Supply (Yard Sale)?",
    "swap_give": "return cards to the Supply (Swap Meet), then take one costing up to their total.",
    "swap_take": "which card do you take from the Supply (Swap Meet)?",
    "double_up": "which Dice Card rolls 2 dice (Double Up)?",
    "purple": "your Purple Dice Card: a Purple die, or a Blue and a Red die?",
    "leave_out": "at most 6 dice are rolled: which die is left out?",
    "full_house": "Full House: pick dice to roll again, then roll them (or keep them all).",
    "pattern": "how do you score this roll?",
    "potato": "your Hot Potato: keep it (your discard pile) or put it on an opponent's draw pile.",
}
#: event kinds that tell the story of a turn
STORY_KINDS = ("draft", "timeout", "match", "score", "buy", "potato", "block")


def short(name: str) -> str:
    """'Blue Dice Card' reads as 'Blue' wherever the context says it is a Dice Card."""
    return name.removesuffix(" Dice Card")


def coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def grouped(names: list[str]) -> str:
    """Cards as 'Blue ×2 · Greed', in the order first seen."""
    counts = Counter(names)
    return " · ".join(f"{n} ×{c}" if c > 1 else n for n, c in counts.items())


def die_word(die: bb.DieView) -> str:
    word = f"{die.name} {die.value}" + ("c" if die.currency == "coins" else "")
    return f"~~{word}~~" if die.blocked else word


def dice_words(turn: bb.TurnView) -> str:
    return " · ".join(die_word(d) for d in turn.dice)


def plain_dice(turn: bb.TurnView) -> str:
    """The picture's facts for screen readers: every die, White counted as coins."""
    parts = []
    for d in turn.dice:
        what = "coins" if d.currency == "coins" else "points"
        parts.append(f"{d.name} {d.value} ({what}{', blocked' if d.blocked else ''})")
    return "Dice rolled: " + ", ".join(parts) + "."


def played_name(p: bb.PlayedView) -> str:
    name = short(p.card.name)
    if p.mimics:
        name = f"Mimic ({p.mimics.capitalize()})"
    if p.how == "borrowed":
        name += " (borrowed)"
    return name


def in_play(turn: bb.TurnView) -> str:
    return grouped([played_name(p) for p in turn.play])


def supply_line(view: bb.BareBonesView, draft: bool = False) -> str:
    """The 14 stacks as name, cost and what is left ('Blue 4c ×6'); in the Draft only the
    draftable ones."""
    stacks = [s for s in view.supply if s.draftable] if draft else view.supply
    return " · ".join(f"{short(s.name)} {s.cost}c ×{s.count}" if s.count else f"~~{short(s.name)}~~"
                      for s in stacks)


def player_line(table: Table, view: bb.BareBonesView, p: bb.PlayerView) -> str:
    """One line a player: who acts (▸), score, deck (draw pile), hand, and the debts."""
    mark = "▸ " if view.current == p.seat else ""
    extra = []
    if p.loan:
        extra.append(f"owes {p.loan}c")
    if p.carry:
        extra.append(f"carries {p.carry}c")
    if p.hot_potatoes:
        extra.append(f"🥔×{p.hot_potatoes}" if p.hot_potatoes > 1 else "🥔")
    tail = (" · " + " · ".join(extra)) if extra else ""
    return (f"{mark}**{safe(clip(table.seats[p.seat].name, 20))}** {p.score} pts · deck {p.draw_size} · "
            f"hand {p.hand_size}{tail}")


def ordered_players(view: bb.BareBonesView) -> list[bb.PlayerView]:
    by_seat = {p.seat: p for p in view.players}
    return [by_seat[s] for s in view.order]


def turn_money(turn: bb.TurnView) -> str:
    """This turn's points and coins as they stand, with the coins' sources when there are any
    besides the dice."""
    if turn.score is None:
        return ""
    parts = [f"**{turn.score.points} points**, **{coins(turn.score.coins)}**"]
    if turn.score.conversion:
        parts.append(turn.score.conversion.replace("_", " ").title())
    extra = []
    if turn.carry_in:
        extra.append(f"+{turn.carry_in} carried")
    if turn.sold:
        extra.append(f"+{turn.sold} sold")
    if turn.loaned:
        extra.append(f"+{turn.loaned} borrowed")
    if turn.repaid:
        extra.append(f"−{turn.repaid} repaid")
    if turn.stage in ("buy", "potato") or turn.spent:
        extra.append(f"{turn.coins_left} to spend")
    return " · ".join(parts) + (f" ({', '.join(extra)})" if extra else "")


def _final_rows(view: bb.BareBonesView, seats: list[int], label: int, width: int) -> list[str]:
    """The end of the sheet: each deck's Final Point Values, the deductions, the totals."""
    finals = {f.seat: f for f in view.finals}
    if not finals:
        return []
    rows = ["FPV".ljust(label) + "".join(f"+{finals[n].fpv}".ljust(width) for n in seats)]
    if any(f.potatoes or f.loan for f in finals.values()):
        rows.append("Less".ljust(label) + "".join(
            (f"-{finals[n].deducted}" if finals[n].potatoes or finals[n].loan else "").ljust(width)
            for n in seats))
    rows.append("Total".ljust(label) + "".join(str(finals[n].total).ljust(width) for n in seats))
    return rows


def sheet_compact(view: bb.BareBonesView, names: list[str]) -> str:
    """The final scoresheet small enough for the final table: running totals by round, then
    the Final Point Values, deductions and totals."""
    width, label = 7, 6
    seats = list(view.order)
    columns = {c.seat: c for c in view.sheet}
    lines = ["Rnd".ljust(label) + "".join(names[n][: width - 1].ljust(width) for n in seats)]
    for r in range(1, bb.ROUNDS + 1):
        cells = []
        for n in seats:
            row = next((x for x in columns[n].rows if x.round == r), None)
            cells.append(("" if row is None else str(row.total)).ljust(width))
        lines.append(str(r).ljust(label) + "".join(cells))
    lines += _final_rows(view, seats, label, width)
    return "\n".join(line.rstrip() for line in lines)


def scoresheet(view: bb.BareBonesView, names: list[str]) -> str:
    """The rulebook's scoresheet, narrow enough for a phone with four players: each cell is
    the round's points and the running total ("12/51"); the coin notes (+ carried by Keep the
    Change, − borrowed with Loan Shark) and loan penalties follow the grid, by round."""
    width, label = 8, 6
    seats = list(view.order)
    columns = {c.seat: c for c in view.sheet}
    lines = ["Rnd".ljust(label) + "".join(names[n][: width - 1].ljust(width) for n in seats)]
    notes: list[str] = []
    for r in range(1, bb.ROUNDS + 1):
        cells = []
        for n in seats:
            row = next((x for x in columns[n].rows if x.round == r), None)
            if row is None:
                cells.append("".ljust(width))
                continue
            cells.append(f"{row.points}/{row.total}".ljust(width))
            said = [f"{x}c {'carried' if x.startswith('+') else 'borrowed'}" for x in row.notes]
            if row.penalty:
                said.append(f"-{row.penalty} points for a loan still owed")
            if said:
                notes.append(f"{r}: {names[n]} " + ", ".join(said))
        if any(c.strip() for c in cells):
            lines.append(str(r).ljust(label) + "".join(cells))
    lines += _final_rows(view, seats, label, width)
    grid = "\n".join(line.rstrip() for line in lines)
    return f"```\n{grid}\n```" + ("\n".join(notes) if notes else "")


def names_of(table: Table) -> list[str]:
    return [s.name for s in table.seats]


class BareBonesSpec(GameSpec[bb.BareBonesView, bb.BareBonesAction, bb.BareBonesOptions]):
    engine = bb.ENGINE
    command = "bare-bones"
    colour = discord.Colour.from_rgb(226, 214, 190)
    tavern = Tavern()
    blurb = ("Build a deck of Dice Cards and Actions, roll what your hand gives you, buy better "
             "cards; 12 rounds, hands dealt by DM. 2–4 players, about 15 minutes a player.")

    # -- the public table ------------------------------------------------------------------------

    def table_embed(self, table: Table, view: bb.BareBonesView) -> discord.Embed:
        if view.over:
            return self._final_embed(table, view)
        if view.draft is not None:
            return self._draft_embed(table, view)
        lines: list[str] = []
        turn = view.turn
        if turn is not None:
            who = safe(table.seats[turn.seat].name)
            stage = STAGE_WORDS.get(turn.stage, turn.stage)
            if view.pending is not None and view.pending.card:
                card = bb.BY_KEY.get(view.pending.card)
                name = card.name if card else view.pending.card
                stage += "" if name in stage else f" ({name})"
            au = f" · {turn.au_left} AU left" if turn.stage in ("match", "play") else ""
            lines.append(f"▸ **{who}** · {stage}{au}")
            if turn.offers and turn.stage == "match":
                lines.append(f"May bonus match: {grouped([short(o.replace('_', ' ').title()) for o in turn.offers])}")
            if turn.play:
                lines.append(f"In play: {in_play(turn)}")
            for r in turn.reveals:
                lines.append(f"👀 {safe(table.seats[r.seat].name)}'s hand ({r.by.replace('_', ' ').title()}): "
                             f"{grouped([short(c.name) for c in r.cards]) or 'empty'}")
            if turn.dice:
                lines.append(f"🎲 {dice_words(turn)}")
            money = turn_money(turn)
            if money:
                lines.append(money)
            if turn.bought:
                lines.append("Bought: " + ", ".join(short(b.replace("_", " ").title()) for b in turn.bought))
        for b in view.blocks:
            lines.append(f"🚫 {safe(table.seats[b.owner].name)} blocks {b.value}s ({b.card})")
        lines.append(f"**Supply** {supply_line(view)}")
        lines.append("")
        lines += [player_line(table, view, p) for p in ordered_players(view)]
        return discord.Embed(title=f"Bare Bones · Round {view.round} of {view.rounds}",
                             description=clip("\n".join(lines), EMBED_DESCRIPTION), colour=self.colour)

    def _draft_embed(self, table: Table, view: bb.BareBonesView) -> discord.Embed:
        draft = view.draft
        assert draft is not None
        lines = [f"▸ **{safe(table.seats[draft.drafter].name)}** picks a card (Draft round {draft.round} of 3)"]
        if draft.picks:
            recent = draft.picks[-len(view.order):]
            lines.append("Picked: " + ", ".join(f"{safe(table.seats[s].name)} {short(n)}" for s, n in recent))
        lines.append(f"**Draftable** {supply_line(view, draft=True)}")
        lines.append("")
        lines += [f"{'▸ ' if p.seat == draft.drafter else ''}**{safe(clip(table.seats[p.seat].name, 20))}** "
                  f"Player {p.player_number} · {p.owned} cards" for p in ordered_players(view)]
        return discord.Embed(title=f"Bare Bones · Draft pick {draft.pick} of {draft.picks_total}",
                             description="\n".join(lines), colour=self.colour)

    def _final_embed(self, table: Table, view: bb.BareBonesView) -> discord.Embed:
        names = names_of(table)
        sheet = sheet_compact(view, names)
        return discord.Embed(
            title="Bare Bones: the final scoresheet",
            description=f"```\n{sheet}\n```Running totals by round, then each deck's Final Point "
                        "Values. **Details** has the full sheet.",
            colour=self.colour)

    def picture(self, table: Table, view: bb.BareBonesView) -> Picture | None:
        if view.over or view.turn is None or not view.turn.dice:
            return None
        return dice_picture(view, plain_dice(view.turn))

    # -- the hand ---------------------------------------------------------------------------------

    def private_embed(self, table: Table, seat: int, view: bb.BareBonesView) -> discord.Embed:
        assert view.me is not None  # a seat's own view always holds its hand
        me = view.me
        lines: list[str] = []
        if view.draft is not None:
            title = f"Your deck · Draft pick {view.draft.pick} of {view.draft.picks_total}"
            lines.append("**Your deck so far**: " + grouped(
                [short(n) for n, c in me.owned.items() for _ in range(c)]))
            if view.draft.drafter != seat:
                lines.append(f"{safe(table.seats[view.draft.drafter].name)} is picking.")
            return discord.Embed(title=title, description="\n".join(lines), colour=self.colour)
        title = "Your hand" if view.over else f"Your hand · Round {view.round}"
        dice = [short(c.name) for c in me.hand if c.dice]
        actions = [c for c in me.hand if not c.dice]
        if dice:
            lines.append("**Dice Cards**: " + grouped(dice))
        seen: set[str] = set()
        for c in actions:
            if c.key in seen:
                continue
            seen.add(c.key)
            count = sum(1 for x in actions if x.key == c.key)
            lines.append(f"**{c.name}**{f' ×{count}' if count > 1 else ''} ({c.au} AU): {c.short}")
        if not me.hand:
            lines.append("Your hand is empty.")
        if me.au_left is not None and view.turn is not None and view.turn.stage in ("match", "play"):
            lines.append(f"Action Units left: **{me.au_left}** of {bb.AU_LIMIT}")
        piles = [f"Draw pile {me.draw_size}", f"discard {len(me.discard)}"]
        if me.discard:
            piles[-1] += f" (top: {short(me.discard[-1].name)})"
        if me.carry:
            piles.append(f"carried {me.carry}c")
        if me.loan:
            piles.append(f"owes {me.loan}c")
        lines.append(" · ".join(piles))
        if view.turn is not None and view.turn.seat != seat and not view.over:
            lines.append(f"{safe(table.seats[view.turn.seat].name)}'s turn · {STAGE_WORDS.get(view.turn.stage, '')}")
        return discord.Embed(title=title, description="\n".join(lines), colour=self.colour)

    def prompt(self, table: Table, view: bb.BareBonesView, seat: int) -> str:
        """Every Bare Bones decision is private, so this line heads the hand's DM (or My hand)
        on its own, not after a mention: it starts with a capital."""
        text = self._prompt(view)
        return text[:1].upper() + text[1:]

    def _prompt(self, view: bb.BareBonesView) -> str:
        if view.draft is not None:
            return "your pick in the Draft: one card onto your deck (Details lists what each does)."
        if view.pending is not None:
            return PENDING_PROMPTS.get(view.pending.kind, "your decision.")
        turn = view.turn
        if turn is None:
            return "your move."
        if turn.stage == "match":
            return "bonus match: add a 3rd copy of a pair the player before left (draw 1 each), or not."
        if turn.stage == "play":
            return f"play cards ({turn.au_left} Action Units left), then roll."
        if turn.stage == "reroll":
            return "re-roll, or score the dice as they lie."
        if turn.stage == "buy":
            return f"buy cards ({coins(turn.coins_left)}, one of each name), then Done."
        return "your move."

    def action_label(self, view: bb.BareBonesView, action: bb.BareBonesAction) -> str:
        return bb.action_label(view, action)

    def action_style(self, view: bb.BareBonesView, action: bb.BareBonesAction) -> discord.ButtonStyle:
        if action.kind in ("roll", "rerolls_done", "fh_roll"):
            return discord.ButtonStyle.success
        if action.kind in ("no_match", "buy_done", "swap_done"):
            return discord.ButtonStyle.secondary
        if action.kind == "sell":
            return discord.ButtonStyle.danger  # the card leaves the deck for good
        return discord.ButtonStyle.primary

    # -- behind Details ----------------------------------------------------------------------------

    def details(self, table: Table, view: bb.BareBonesView, seat: int | None) -> list[discord.Embed]:
        names = names_of(table)
        first = discord.Embed(
            title="Scoresheet", colour=self.colour,
            description=clip(scoresheet(view, names) + "\nEach cell: the round's points / the running "
                             "total. At the end: Final Point Values, less 15 a Hot Potato and 2 a "
                             "coin still owed.", EMBED_DESCRIPTION))
        order = ", ".join(f"{i + 1}. {names[s]}" for i, s in enumerate(view.order))
        first.add_field(name="Play order", value=clip(order, FIELD_VALUE), inline=False)
        turn = view.turn
        if turn is not None and not view.over:
            now = []
            if turn.score is not None:
                now.append(f"Scored: {turn.score.working}")
            if turn.dice:
                now.append(plain_dice(turn))
            if turn.coins or turn.spent:
                sources = [f"{word} {n}" for word, n in (("carried", turn.carry_in), ("sold", turn.sold),
                                                        ("borrowed", turn.loaned), ("repaid", turn.repaid)) if n]
                now.append(f"Coins {turn.coins}" + (f" ({', '.join(sources)})" if sources else "")
                           + f", spent {turn.spent}")
            if now:
                first.add_field(name="This turn", value=clip("\n".join(now), FIELD_VALUE), inline=False)
        if view.blocks:
            first.add_field(name="Can't Touch This", value=clip("\n".join(
                f"{names[b.owner]} blocks {b.value} on every die until their next turn ({b.card})"
                for b in view.blocks), FIELD_VALUE), inline=False)
        supply = discord.Embed(title="The Supply: cost, cards left, what it does", colour=self.colour,
                               description=clip("\n".join(
                                   f"**{s.name}** {s.cost}c ×{s.count}" + (f", {s.au} AU" if s.au else "")
                                   + (f", +{s.fpv} at the end" if s.fpv else "") + f": {s.short}"
                                   for s in view.supply), EMBED_DESCRIPTION))
        embeds = [first, supply]
        if view.me is not None:
            me = view.me
            mine = discord.Embed(title="Your cards", colour=self.colour)
            if me.hand:
                counts = Counter(c.key for c in me.hand)
                cards = {c.key: c for c in me.hand}
                mine.add_field(name="Hand", value=clip("\n".join(
                    f"**{cards[k].name}**{f' ×{n}' if n > 1 else ''}: {cards[k].short}" for k, n in counts.items()),
                    FIELD_VALUE), inline=False)
            mine.add_field(name="Discard pile", value=clip(
                grouped([short(c.name) for c in reversed(me.discard)]) or "empty", FIELD_VALUE), inline=False)
            mine.add_field(name=f"Every card you own ({sum(me.owned.values())})", value=clip(
                " · ".join(f"{short(n)} ×{c}" if c > 1 else short(n) for n, c in me.owned.items()),
                FIELD_VALUE), inline=False)
            embeds.append(mine)
        return embeds

    # -- history ------------------------------------------------------------------------------------

    def chapter(self, view: bb.BareBonesView) -> str:
        if view.over:
            return "Game over"
        if view.draft is not None:
            return "Draft"
        return f"Round {view.round}"

    def story(self, table: Table, view: bb.BareBonesView, events: list[Event]) -> str | None:
        """Each turn in a few words: "Seat 2: 7 pts, 10c · bought Greed · 🥔→Seat 3". The roll,
        the cards played and the working are in /game log."""
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
            bits += [f"{points(e.data['points'])} and {coins(e.data['coins'])}" for e in got["score"]]
            if got["match"]:
                bits.append(f"{len(got['match'])} bonus match{'es' if len(got['match']) > 1 else ''}")
            if got["buy"]:
                bits.append("bought " + ", ".join(short(e.data["name"]) for e in got["buy"]))
            sent = [seat_name(e.data["to"]) for e in got["potato"] if e.data["to"] is not None]
            if sent:
                bits.append("🥔→" + ", ".join(sent))
            if got["block"]:
                bits.append("blocks " + ", ".join(str(e.data["value"]) for e in got["block"]))
            if got["timeout"]:
                bits.append("timed out")
            if bits:
                parts.append(f"{seat_name(seat)}: " + ", ".join(bits))
        return clip(" · ".join(parts), 300) if parts else super().story(table, view, events)

    def headline(self, table: Table, view: bb.BareBonesView, events: list[Event]) -> str | None:
        """A Hot Potato put on someone's draw pile concerns them: say so and ping them."""
        news = [f"🥔 {seat_name(e.seats[0])} puts the Hot Potato on top of {seat_name(e.data['to'])}'s "
                "draw pile." for e in events if e.kind == "potato" and e.data.get("to") is not None]
        return clip(" · ".join(news), 300) if news else None

    def score_text(self, score: int) -> str:
        return f"{score} points"

    def rules_text(self, options: bb.BareBonesOptions) -> str:
        return bb.rules_summary(options) + (
            "\n**Tavern mode** (`/bare-bones …`): `new gm_mode:True` runs the table without a seat, "
            "`npc` seats a named bot player.")

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
