"""Stones & Bones at a Discord table, with a tavern mode for game-masters.

The engine (rules/stones_and_bones/) decides everything; this package draws it. The live table
holds what a player needs on a phone: the Captain and the coffer, the throw as a picture
(pictures.py) and in one line of words, what the buttons decide, and one short line per pirate.
The bet worked out step by step, every purse in every coin, the Mutiny's fine print and the
ledger sit behind **Details**. Claims, Mutiny outcomes and Tide rises are the channel's news: a
headline above the next table pings whom they concern, and each old table shrinks to a line of
that story.

Public decisions sit on the table itself (Engine.open_actions); the Mutiny vote and the
Tide-rise choices are sealed and go to each player by DM (or the **My hand** button), which
holds only that choice, the purse it concerns and one line of context.

Tavern mode gives a game-master what a campaign needs: a table they run without a seat, NPC
seats with names, each seat's starting purse, and a ledger (an embed and a CSV file) at the end.
"""

from __future__ import annotations

import csv
import io
import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from pydantic import BaseModel

from bot.errors import Refusal, guarded
from bot.games import GameSpec, Tavern
from bot.models import Table
from bot.pictures import Picture
from bot.render import FIELD_VALUE, clip, safe, seat_names
from bot.tavern import TavernCog
from cogs.stones_and_bones.pictures import throw_picture
from rules import stones_and_bones as sb
from rules.base import Event
from rules.base import seat_name as seat_word
from rules.stones_and_bones import (
    GP,
    MAX_PURSE,
    TIER_ABBR,
    BonesReading,
    LedgerRow,
    MutinyView,
    PirateView,
    TurnView,
    coins,
    signed_coins,
)

if TYPE_CHECKING:
    from bot.client import Boneyard

MONEY_HELP = ("Write an amount as coins, e.g. `12gp 5sp` (units pp, gp, sp, cp), or a whole "
              "number of gold pieces, e.g. `12`.")
_COIN = {"pp": 1000, "gp": 100, "sp": 10, "cp": 1}
_COIN_PART = re.compile(r"\s*(\d{1,10})\s*(pp|gp|sp|cp)\s*,?", re.IGNORECASE)
TIER_MARK = {"copper": "🟤", "silver": "⚪", "gold": "🟡"}
STATUS_WORDS = {"eliminated": "out of the game", "ashore": "ashore"}
#: the live table's roll line starts with this; a table that shows it carries the picture
ROLL_MARK = "🎲"
#: a headline is news above a table, not a second table
HEADLINE_LIMIT = 300
HEADLINE_ITEMS = 3
STORY_LIMIT = 300


def parse_coins(text: str) -> int:
    """``"12gp 5sp"`` -> 1250 cp; ``"12"`` -> 1200 cp (whole gold pieces). Refuses anything
    else, and amounts outside 1 cp to a million pp, with a short explanation."""
    raw = text.strip()
    if re.fullmatch(r"\d{1,10}", raw):
        amount = int(raw) * _COIN["gp"]
    else:
        parts = _COIN_PART.findall(raw)
        if not parts or _COIN_PART.sub("", raw).strip():
            raise Refusal(f"`{clip(raw, 40)}` is not an amount. {MONEY_HELP}")
        units = [unit.lower() for _, unit in parts]
        if len(set(units)) != len(units):
            raise Refusal(f"Name each coin once in `{clip(raw, 40)}`. {MONEY_HELP}")
        amount = sum(int(n) * _COIN[unit.lower()] for n, unit in parts)
    if not 1 <= amount <= MAX_PURSE:
        raise Refusal(f"A purse holds from 1 cp to {coins(MAX_PURSE)}; `{clip(raw, 40)}` is "
                      f"{coins(amount)}.")
    return amount


def short_coins(cp: int) -> str:
    """A purse at a glance: platinum folded into gold ("31 gp 4 sp", not "3 pp 1 gp 4 sp"), so
    purses compare at a look; exact, since a few coppers can decide whether a bet is covered."""
    if cp < GP:
        return coins(cp)
    whole, rest = divmod(cp, GP)
    return f"{whole} gp" + (f" {coins(rest)}" if rest else "")


def seat_name(table: Table, seat: int | None) -> str:
    return "nobody" if seat is None else safe(table.seats[seat].name)


def shorter(timer: int | None, window: int | None) -> int | None:
    """The time a decision gets: the table's timer, or the rules' window if shorter or if the
    table has no timer (0 or None)."""
    if window is None:
        return timer
    return min(timer, window) if timer else window


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# -- the throw in words (the live table) and step by step (Details) -----------------------------


def _marks(reading: BonesReading) -> list[str]:
    marks = []
    if reading.crossbones:
        marks.append(f"**Crossbones ({reading.crossbones})!**")
    if reading.ill_omens:
        marks.append("Ill Omens")
    if reading.bane:
        marks.append("Bane ×2")
    if reading.blessing:
        marks.append("Blessing: two Stones")
    return marks


def _faces(reading: BonesReading) -> str:
    return " ".join(str(face) for face in reading.faces)


def _stones_words(turn: TurnView) -> str:
    if not turn.stones:
        return ""
    own = [s for s in turn.stones if not s.pilfered]
    taken = [s for s in turn.stones if s.pilfered]
    label = "Stones" if len(own) > 1 else "Stone"
    text = f"{label} **{', '.join(str(s.value) for s in own)}**"
    if taken:
        text += f" + Pilfered **{taken[0].value}**"
    result = {"float": "Float!", "luck": "Captain's Luck!", "sink": "Sink"}.get(turn.result, "")
    return f"{text}: {result}" if result else text


def throw_line(table: Table, turn: TurnView) -> str:
    """The roll in one line of words: who threw which Bones, the bet, what shows, the Stone."""
    who = f"**{seat_name(table, turn.seat)}**"
    if turn.plank is not None:
        reading = turn.plank
        head = f"{who} walked the Plank, all in: {_faces(reading)}"
        marks = _marks(reading) or ["no Crossbones"]
    else:
        reading = turn.flown or turn.bones  # type: ignore[assignment]
        assert reading is not None
        did = "flew the Black" if turn.flown is not None else "threw"
        head = f"{who} {did} {_faces(reading)} → bet **{coins(reading.bet)}**"
        marks = _marks(reading)
        if turn.flown is not None and turn.result == "pending":
            marks.append("no Stone")
        elif turn.cursed and turn.result == "pending":
            marks.append("Cursed: no Stone")
    stones = _stones_words(turn)
    return " · ".join([f"{ROLL_MARK} {head}", *marks, *([stones] if stones else [])])


def picture_words(table: Table, turn: TurnView, table_stone: int | None) -> str:
    """What the picture shows, in plain words, for screen readers (no Markdown)."""
    reading = turn.plank or turn.flown or turn.bones
    assert reading is not None
    bones = ", ".join(f"{bone.face} ({bone.tier})" for bone in reading.bones)
    words = f"The Bones of {seat_name(table, turn.seat)}: {bones}."
    stones = re.sub(r"\*\*", "", _stones_words(turn))
    if stones:
        words += f" {stones.rstrip('!')}."
    if table_stone is not None and turn.result == "pending":
        words += f" A Stone showing {table_stone} lies on the table."
    return words


def bones_line(reading: BonesReading) -> str:
    """`12`🟡 `2`🟤 … with the Bane, Blessing and Ill Omens marked on the Bones that make them."""
    shown = []
    for bone in reading.bones:
        marks = ("☠" if bone.bane else "") + ("✚" if bone.blessing else "") + ("◆" if bone.omen else "")
        shown.append(f"`{bone.face:>2}`{TIER_MARK[bone.tier]}{TIER_ABBR[bone.tier]}{marks}")
    return "  ".join(shown)


def legend(reading: BonesReading) -> str:
    marks = [text for on, text in ((reading.ill_omens, "◆ Ill Omens"), (reading.bane, "☠ Bane"),
                                   (reading.blessing, "✚ Blessing")) if on]
    return f" ({' · '.join(marks)})" if marks else ""


def reading_lines(reading: BonesReading, title: str) -> list[str]:
    lines = [f"**{title}**: {bones_line(reading)}{legend(reading)}"]
    lines += [f"• {step}" for step in reading.steps]
    lines.append(f"= **{coins(reading.bet)}**")
    return lines


def turn_lines(table: Table, turn: TurnView) -> list[str]:
    """A turn step by step: the ante, each throw with its bet worked out, the Stones, the outcome."""
    who = seat_name(table, turn.seat)
    role = " (Captain)" if turn.captain else ""
    curse = " · Cursed: no Stone" if turn.cursed else ""
    lines = [f"**{who}**{role}, turn {turn.number}: ante {coins(turn.ante)}{curse}"]
    if turn.bones is not None:
        lines += reading_lines(turn.bones, "The Bones")
    if turn.flown is not None:
        lines += reading_lines(turn.flown, "Flying the Black, the Bones again")
    if turn.plank is not None:
        lines.append(f"**Walking the Plank**, the Bones again: {bones_line(turn.plank)}")
    if turn.paid:
        lines.append(f"Paid into the coffer: {coins(turn.paid)}")
    if turn.stones:
        stones = []
        for stone in turn.stones:
            mark = " ✓ Float" if stone.floats else " ★ Captain's Luck" if stone.luck else ""
            whose = " (pilfered)" if stone.pilfered else ""
            stones.append(f"`{stone.value}`{whose}{mark}")
        label = "Stones" if len(turn.stones) > 1 else "Stone"
        lines.append(f"**{label}**: " + " · ".join(stones))
    lines.append(f"**Outcome**: {seat_names(table, turn.result_text)}")
    return lines


# -- the pirates ----------------------------------------------------------------------------------


def pirate_short(table: Table, p: PirateView) -> str:
    """One pirate in one short line: who acts, the Captain, the Curse, the purse at a glance."""
    name = safe(clip(table.seats[p.seat].name, 24))
    if p.status != "afloat":
        return f"~~{name}~~ {'out' if p.status == 'eliminated' else 'ashore'} · net {signed_coins(p.net)}"
    marks = ("▶ " if p.acting else "") + ("🏴‍☠️ " if p.captain else "") + ("☠ " if p.cursed else "")
    return f"{marks}**{name}** {short_coins(p.purse)}"


def pirate_line(table: Table, p: PirateView) -> str:
    """One pirate in full, for Details: the purse in every coin, the net, Fly the Black used."""
    name = safe(table.seats[p.seat].name)
    marks = ("🏴‍☠️ " if p.captain else "") + ("☠ " if p.cursed else "") + ("▶ " if p.acting else "")
    if p.status != "afloat":
        out = f" · cashed out {coins(p.cashed_out)}" if p.cashed_out else ""
        return f"~~{name}~~ ({STATUS_WORDS[p.status]}){out} · net {p.net_text}"
    fly = "" if p.can_fly else " · flew the Black this Tide"
    return f"{marks}**{name}**: {p.purse_text} · bought in {coins(p.bought_in)} · net {p.net_text}{fly}"


def mutiny_lines(table: Table, m: MutinyView) -> list[str]:
    lines = [f"Captain **{seat_name(table, m.captain)}**"
             + (f" against Mutineer **{seat_name(table, m.mutineer)}**" if m.mutineer is not None else "")]
    if m.gifts_left:
        lines.append("Gifts left: " + ", ".join(f"{seat_name(table, x)} {n}" for x, n in m.gifts_left.items()))
    if m.cutthroat:
        lines.append(f"Cutthroat: the coin shows {m.coin}.")
    if m.voters:
        if m.revealed:
            votes = ", ".join(f"{seat_name(table, x)} {(m.votes[x] or '?').capitalize()}" for x in m.voters)
            lines.append(f"Votes: {votes} (Yay {m.yay}, Nay {m.nay})")
        else:
            votes = ", ".join(f"{seat_name(table, x)} {'✅ voted' if x in m.voted else '⏳'}"
                              for x in m.voters)
            lines.append(f"Votes (sealed until all are in): {votes}")
    costs = [f"{seat_name(table, x)} d4 {d} → {coins(m.paid[x])}" for x, d in enumerate(m.d4) if d is not None]
    if costs:
        lines.append("Cost of Mutiny: " + ", ".join(costs))
    if m.captain_total is not None:
        lines.append(challenge_line(table, m))
    if m.winner is not None:
        lines.append(f"**{seat_name(table, m.winner)}** wins the coffer.")
    return lines


def challenge_line(table: Table, m: MutinyView) -> str:
    return (f"⚔️ Challenge: Captain **{seat_name(table, m.captain)}** {'+'.join(map(str, m.captain_roll))} = "
            f"**{m.captain_total}** · Mutineer **{seat_name(table, m.mutineer)}** "
            f"{'+'.join(map(str, m.mutineer_roll))} = **{m.mutineer_total}**")


def mutiny_state(table: Table, view: sb.StonesAndBonesView) -> str:
    """Where a Mutiny stands, in a line or two: the table's question says what to do about it."""
    m = view.mutiny
    if m is None:
        return ""
    captain = f"Captain **{seat_name(table, m.captain)}**"
    if view.phase == "mutiny_call":
        return ""  # the question says it all: the Captain plunders, the crew may cry Mutiny
    rising = f"⚔️ **{seat_name(table, m.mutineer)}**'s Mutiny against {captain}"
    if view.phase == "parley":
        left = ", ".join(f"{seat_name(table, x)} {n}" for x, n in m.gifts_left.items() if n)
        return rising + (f" · gifts left: {left}" if left else "")
    if view.phase == "vote":
        votes = " · ".join(f"{seat_name(table, x)} {'✅' if x in m.voted else '⏳'}" for x in m.voters)
        return f"{rising}\n🗳️ Sealed vote: {votes}"
    if m.captain_total is not None:
        won = f"**{seat_name(table, m.winner)}** wins the coffer." if m.winner is not None else ""
        return f"{challenge_line(table, m)}\n{won}".strip()
    return ""


def ledger_lines(table: Table, rows: list[LedgerRow]) -> list[str]:
    return [f"**{safe(table.seats[r.seat].name)}**: bought in {r.bought_in_text} · cashed out "
            f"{r.cashed_out_text} · net **{r.net_text}**" for r in rows]


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: one starting like a formula ("=HYPERLINK(...)") is quoted,
    so opening the GM's ledger never runs what a player typed as their name."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def ledger_csv(table: Table, rows: list[LedgerRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["seat", "name", "buy_in_cp", "cash_out_cp", "net_cp", "buy_in", "cash_out", "net"])
    for r in rows:
        writer.writerow([r.seat + 1, _cell(table.seats[r.seat].name), r.bought_in, r.cashed_out + r.at_table,
                         r.net, r.bought_in_text, coins(r.cashed_out + r.at_table), r.net_text])
    return out.getvalue()


# -- the prompts ----------------------------------------------------------------------------------


def _bet_prompt(table: Table, view: sb.StonesAndBonesView, *, you: bool) -> str:
    """What the roller's buttons decide: pay and throw, or the ways around it."""
    turn = view.turn
    assert turn is not None and turn.bones is not None
    reading, choices = turn.bones, view.roller_choices
    your = "your" if you else "the"
    can_pay = "pay" in choices
    if reading.crossbones:
        first = f"**Crossbones ({reading.crossbones})!** Pay **{coins(reading.bet)}** to claim the coffer"
    elif not can_pay:
        first = f"{'you' if you else 'they'} cannot cover **{coins(reading.bet)}**: Walk the Plank (all in, the Bones again)"
    elif turn.cursed:
        first = f"pay **{coins(reading.bet)}** (Cursed: no Stone, only a Crossbones wins)"
    else:
        stones = "two Stones" if reading.blessing else f"{your} Stone"
        first = f"pay **{coins(reading.bet)}** and throw {stones}"
    others = []
    stone = view.table_stone
    if "pilfer" in choices and stone is not None:
        others.append(f"Pilfer {seat_name(table, stone.owner)}'s Stone")
    if "fly" in choices:
        others.append("Fly the Black")
    if "fold" in choices:
        others.append("fold")
    if not others:
        return first
    return first + ", or " + (others[0] if len(others) == 1 else ", ".join(others[:-1]) + " or " + others[-1])


def ask(table: Table, view: sb.StonesAndBonesView, seat: int | None) -> str:
    """What the buttons decide. ``seat`` None: on the table, after the mentions of everyone
    asked (a choice everyone makes says "each of you"; two people's choices say whose is
    which); a seat: that seat's own part, said to them alone."""
    humans = [s for s in view.to_act if not table.seats[s].ai]
    each = "each of you: " if seat is None and len(humans) > 1 else ""
    m, claim = view.mutiny, view.claim
    if view.phase == "turn" and view.current_seat is not None:
        roller, stone = view.current_seat, view.table_stone
        keep = f"before {seat_name(table, roller)} Pilfers it, or leave it"
        if stone is not None and seat is None and stone.owner in humans and roller in humans:
            return (f"**{seat_name(table, roller)}**: {_bet_prompt(table, view, you=False)}. "
                    f"**{seat_name(table, stone.owner)}**: pick up your Stone ({stone.value}) before "
                    "it is Pilfered, or leave it. Each button names its player.")
        if stone is not None and stone.owner in view.to_act and (seat == stone.owner or seat is None
                                                                    and roller not in humans):
            return f"your Stone ({stone.value}) lies on the table: pick it up {keep}."
        return f"{_bet_prompt(table, view, you=True)}."
    if view.phase == "grumble" and claim is not None:
        fee = coins(sb.grumble_fee(view.tide))
        return (f"{each}let **{seat_name(table, claim.seat)}**'s claim stand, or Grumble "
                f"({fee}, into the next coffer) to have the dice thrown again.")
    if view.phase == "object" and claim is not None:
        return f"{each}let the dice be thrown again, or object to stop it."
    if view.phase == "mutiny_call" and m is not None:
        seconds = shorter(table.timer_seconds, view.decision_window)
        cry = "Each of you: cry" if each else "Cry"
        return (f"Captain **{seat_name(table, m.captain)}** plunders the coffer (**{view.coffer_text}**). "
                f"{cry} **Mutiny!** (the first cry leads it) or let it be, within {seconds} s.")
    if view.phase == "parley":
        gifts = sb.GIFTS_PER_PARLEY
        if seat is None and len(humans) > 1:
            return (f"parley before the sealed vote: give coins if you like (up to {gifts} gifts each; "
                    "a gift names who may give it), then every one of you presses **Ready to vote**.")
        return (f"parley before the sealed vote: give coins if you like (up to {gifts} gifts), then "
                "press **Ready to vote**.")
    if view.phase == "split":
        return f"you won the coffer (**{view.coffer_text}**): keep it, or share it."
    if view.phase == "anchor" and claim is not None:
        purse = coins(view.pirates[claim.seat].purse)
        return (f"your Crossbones lets you Swallow the Anchor: cash out **{purse}** now and leave "
                "the table, or stay aboard.")
    return seat_names(table, view.question)


COLOUR = discord.Colour.from_rgb(60, 110, 150)


class StonesAndBonesTavern(Tavern):
    """A character's purse is their stake; the game-master keeps the ledger."""

    npc_example = "One-Eyed Mags"
    stake_word = "purse"

    def parse_stake(self, text: str) -> int:
        return parse_coins(text)

    def stake_text(self, options: sb.StonesAndBonesOptions, stake: int | None) -> str:
        return f"purse of {coins(sb.purse_of(options, stake))}"

    def starting_options(self, options: sb.StonesAndBonesOptions,
                         stakes: list[int | None]) -> sb.StonesAndBonesOptions:
        """Seats whose purse the host set bring it; the others bring the starting purse."""
        return sb.options_with_purses(options, stakes)

    def last_words(self, table: Table, view: BaseModel) -> list[dict[str, Any]]:
        """The ledger: each seat's buy-in, cash-out and net in coins, and the same as a CSV file
        the game-master keeps (amounts in copper and in coins; the nets sum to zero)."""
        rows = cast(sb.StonesAndBonesView, view).ledger
        total = sum(r.net for r in rows)
        embed = discord.Embed(
            title=f"Stones & Bones ledger · game #{table.id}",
            description=clip("\n".join(ledger_lines(table, rows)), 4000)
            + f"\n\nEvery copper accounted for: the nets sum to {signed_coins(total)}.",
            colour=COLOUR,
        )
        data = ledger_csv(table, rows).encode()
        name = f"stones-and-bones-{table.id}-ledger.csv"
        return [{"embed": embed, "file": discord.File(io.BytesIO(data), filename=name)}]


class StonesAndBonesSpec(GameSpec[sb.StonesAndBonesView, sb.StonesAndBonesAction, sb.StonesAndBonesOptions]):
    engine = sb.ENGINE
    command = "stones-and-bones"
    colour = COLOUR
    tavern = StonesAndBonesTavern()
    blurb = ("A pirate tavern game: four d20 Bones set your bet, your Stone claims the coffer; "
             "Mutinies and rising Tides. 2–6 players, 30 to 60 minutes (the crew may end it at any Tide rise).")

    # -- the live table ----------------------------------------------------------------------

    def table_embed(self, table: Table, view: sb.StonesAndBonesView) -> discord.Embed:
        if view.over:
            why = {"tides": "the last Wave of Tide 6 was played", "afloat": "one pirate is left afloat",
                   "vote": "the crew voted to end it", "cap": "the table reached its turn limit"}.get(
                       view.ended_by or "", "it is over")
            return discord.Embed(title="Stones & Bones: the game is over", colour=self.colour,
                                 description=f"The game ended: {why}. The ledger follows; **Details** "
                                             "has every coin.")
        head = f"🏴‍☠️ Captain **{seat_name(table, view.captain)}** · 💰 Coffer **{view.coffer_text}**"
        if view.tide > 1:
            head += f" · bets × {view.tide}"
        if view.carry:
            head += f" · Grumbles money {coins(view.carry)} waits"
        # at a Tide rise the Captain is about to be rolled for and the coffer is empty
        lines = [] if view.phase == "tide" else [head]
        if view.phase == "tide":
            chosen = {c.seat for c in view.tide_choices if c.chosen}
            waiting = " · ".join(f"{seat_name(table, p.seat)} {'✅' if p.seat in chosen else '⏳'}"
                                 for p in view.pirates if p.status == "afloat")
            lines.append(f"🌊 The Tide rose to **{view.tide}**: ante {coins(view.ante)}, every bet × {view.tide}.")
            lines.append(f"Sealed choices: {waiting}")
        else:
            turn, last = view.turn, view.last_turn
            if (view.phase == "turn" and turn is not None and last is not None and last.seat == turn.seat
                    and last.result != "pending"):
                # the same pirate throws again (a claim makes them Captain, who throws first): the
                # table was redrawn in place, so say how their last turn ended
                lines.append(f"Last turn: {seat_names(table, last.result_text)}")
            if turn is not None and (turn.bones is not None or turn.plank is not None):
                lines.append(throw_line(table, turn))
            if view.table_stone is not None and view.table_stone.owner not in view.to_act:
                # (its owner, when asked, hears of it in the question)
                lines.append(f"🪨 **{seat_name(table, view.table_stone.owner)}**'s Stone "
                             f"(**{view.table_stone.value}**) lies on the table and may be Pilfered.")
            if view.phase == "object" and view.claim is not None and view.claim.grumbler is not None:
                lines.append(f"🗯 **{seat_name(table, view.claim.grumbler)}** Grumbled: the dice are "
                             "thrown again unless someone objects.")
            shown = mutiny_state(table, view)
            if shown:
                lines.append(shown)
        lines.append("")
        lines += [pirate_short(table, p) for p in view.pirates]
        title = f"Stones & Bones · Tide {view.tide} · Wave {view.wave}"
        return discord.Embed(title=title, description=clip("\n".join(lines), 4096), colour=self.colour)

    def picture(self, table: Table, view: sb.StonesAndBonesView) -> Picture | None:
        """The throw on the table, whenever the table's text shows it."""
        turn = view.turn
        if view.over or view.phase == "tide" or turn is None:
            return None
        stone = view.table_stone.value if view.table_stone is not None else None
        if turn.bones is None and turn.plank is None:
            return None
        return throw_picture(turn, stone, picture_words(table, turn, stone))

    def open_prompt(self, table: Table, view: sb.StonesAndBonesView) -> str:
        """What the buttons decide, after the host's mentions of whoever is asked. A choice that
        is everyone's says so; a table with two people's choices says whose is which."""
        return ask(table, view, None)

    def prompt(self, table: Table, view: sb.StonesAndBonesView, seat: int) -> str:
        """One seat's own question, in a DM or My hand: the sealed vote or Tide-rise choice, or
        the seat's part of a choice made on the table."""
        m = view.mutiny
        if view.phase == "vote" and m is not None:
            return (f"Your sealed vote: **Yay** backs Mutineer {seat_name(table, m.mutineer)}, **Nay** "
                    f"stands by Captain {seat_name(table, m.captain)}.")
        if view.phase == "tide":
            return (f"Your sealed choice for Tide {view.tide}: stay, Heave Down (cash out and go "
                    "ashore), buy in, or vote to end the game.")
        text = ask(table, view, seat)
        return text[:1].upper() + text[1:]

    # -- the private view --------------------------------------------------------------------

    def private_embed(self, table: Table, seat: int, view: sb.StonesAndBonesView) -> discord.Embed:
        """Only what is sealed and the purse it concerns, with one line of where the game is."""
        pirate = view.pirates[seat]
        where = f"Tide {view.tide} · Wave {view.wave}"
        purse = f"Your purse: **{pirate.purse_text}** (net {pirate.net_text})."
        m = view.mutiny
        if view.phase == "vote" and m is not None:
            mine = m.votes[seat] if seat < len(m.votes) else None
            sealed = (f"You voted **{mine.capitalize()}**; the votes show once all are in." if mine
                      else "The votes show once all are in. A Challenge costs every non-Captain d4 gp.")
            text = (f"Mutineer **{seat_name(table, m.mutineer)}** against Captain "
                    f"**{seat_name(table, m.captain)}** for the coffer (**{view.coffer_text}**).\n{sealed}\n{purse}")
            return discord.Embed(title=f"Mutiny vote · {where}", description=text, colour=self.colour)
        if view.phase == "tide":
            choice = next((c for c in view.tide_choices if c.seat == seat and c.choice), None)
            if choice is not None:
                what = f"buy in {coins(choice.amount or 0)}" if choice.choice == "buy" else {
                    "stay": "stay", "heave": "Heave Down", "end": "vote to end"}.get(choice.choice or "", "")
                sealed = f"You chose **{what}**; the choices show once all are in."
            else:
                sealed = "The choices show once everyone has chosen."
            text = (f"Ante {coins(view.ante)}, every bet × {view.tide} from now on.\n{sealed}\n{purse}")
            return discord.Embed(title=f"The Tide rises to {view.tide}", description=text, colour=self.colour)
        title = f"Stones & Bones · {where}"
        if seat not in view.to_act:
            acting = _and([seat_name(table, s) for s in view.to_act]) if view.to_act else "nobody"
            text = f"Nothing is asked of you now; {acting} to act.\n{purse}"
            return discord.Embed(title=title, description=text, colour=self.colour)
        # a choice made on the table: the buttons here are the same choice, for a player who
        # reads their DMs first; the one line of context is what they decide about
        # (the question above says what the choice is about; only a roller needs their throw)
        turn = view.turn
        throw = throw_line(table, turn) + "\n" if view.phase == "turn" and turn is not None and seat == turn.seat else ""
        text = f"{throw}{purse}\nYou may answer here or on the table."
        return discord.Embed(title=title, description=text, colour=self.colour)

    # -- Details ------------------------------------------------------------------------------

    def details(self, table: Table, view: sb.StonesAndBonesView, seat: int | None) -> list[discord.Embed]:
        """Everything the phone-sized table leaves out: the bet step by step, every purse in
        every coin, the Mutiny's fine print, the Tide-rise choices, the ledger, the legend."""
        embeds = []
        if view.turn is not None:
            turn = discord.Embed(title="This turn" if view.turn.result == "pending" else "The last turn",
                                 description=clip("\n".join(turn_lines(table, view.turn)), 4096),
                                 colour=self.colour)
            if view.last_turn is not None and view.turn.result == "pending":
                turn.add_field(name="The turn before", value=clip("\n".join(turn_lines(table, view.last_turn)),
                                                                  FIELD_VALUE), inline=False)
            embeds.append(turn)
        money = discord.Embed(title="Purses", colour=self.colour, description=clip(
            "\n".join(pirate_line(table, p) for p in view.pirates), 4096))
        money.add_field(name="The table", value=(
            f"Coffer {view.coffer_text} · ante {coins(view.ante)} · every bet × {view.tide} · "
            f"a bet averages {coins(view.expected_bet)} at this Tide"
            + (f" · Grumbles money waiting for the next coffer: {coins(view.carry)}" if view.carry else "")),
            inline=False)
        if view.table_stone is not None:
            money.add_field(name="On the table", value=(
                f"{seat_name(table, view.table_stone.owner)}'s Stone `{view.table_stone.value}` (may be Pilfered)"),
                inline=False)
        embeds.append(money)
        if view.mutiny is not None:
            embeds.append(discord.Embed(title="Mutiny!", colour=self.colour,
                                        description=clip("\n".join(mutiny_lines(table, view.mutiny)), 4096)))
        if view.tide_choices:
            rows = []
            for c in view.tide_choices:
                if view.pirates[c.seat].status != "afloat" and not c.chosen:
                    continue
                shown = (f"buy in {coins(c.amount or 0)}" if c.choice == "buy" else c.choice) if c.choice else (
                    "✅ chosen (sealed)" if c.chosen else "⏳ choosing")
                rows.append(f"{seat_name(table, c.seat)}: {shown}")
            embeds.append(discord.Embed(title="Tide-rise choices", colour=self.colour,
                                        description=clip("\n".join(rows), 4096)))
        if view.over:
            embeds.append(discord.Embed(title="Ledger", colour=self.colour,
                                        description=clip("\n".join(ledger_lines(table, view.ledger)), 4096)))
        embeds.append(discord.Embed(title="Reading the Bones", colour=self.colour, description=(
            "🟤 copper 1–5 = 1 cp · ⚪ silver 6–10 = 1 sp · 🟡 gold 11–20 = 1 gp each\n"
            "◆ Ill Omens: matching Bones multiply their tier · ☠ Bane: a 20 doubles the bet · "
            "✚ Blessing: a 1 gives two Stones\n"
            "In the picture: a ringed Bone is in a matching group, ×2 marks a Bane, green rings a "
            "Crossbones or a floating Stone; a faded Stone is still to be thrown or lies on the table.")))
        return embeds

    # -- the channel's story ------------------------------------------------------------------

    def chapter(self, view: sb.StonesAndBonesView) -> str:
        if view.over:
            return "Game over"
        if view.phase == "tide":
            return f"Tide {view.tide} rises"
        return f"Tide {view.tide} · Wave {view.wave}"

    def story(self, table: Table, view: sb.StonesAndBonesView, events: list[Event]) -> str | None:
        """What came of the turns while a table was live, one short clause each: sinks, folds,
        claims, Mutinies, Tide-rise choices. The throws and antes are in /game log."""
        parts = [text for e in events if (text := _story_of(e))]
        if not parts:
            return None
        return clip(" · ".join(parts), STORY_LIMIT)

    def headline(self, table: Table, view: sb.StonesAndBonesView, events: list[Event]) -> str | None:
        """Claims, Mutiny outcomes, Tide rises, cash-outs and eliminations: news that pings the
        pirates it names. Once a Mutiny is decided, its outcome is the news (the cry and the
        Challenge's rolls are in the story and the log)."""
        decided = any(e.kind in ("mutiny_won", "mutiny_lost") or e.kind == "votes" and not e.data["challenge"]
                      for e in events)
        parts = [text for e in events
                 if not (decided and e.kind in ("mutiny", "challenge", "cutthroat"))
                 and (text := _headline_of(e))]
        # turns that went on without anyone new to ping (the same pirate claiming wave after
        # wave) pile up news: the newest is kept whole, the rest is in the history line above
        while len(parts) > HEADLINE_ITEMS or len(parts) > 1 and len("\n".join(parts)) > HEADLINE_LIMIT:
            parts.pop(0)
        return clip("\n".join(parts), HEADLINE_LIMIT) if parts else None

    # -- buttons ------------------------------------------------------------------------------

    def action_label(self, view: sb.StonesAndBonesView, action: sb.StonesAndBonesAction) -> str:
        return sb.action_label(view, action)

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

    def score_text(self, score: int) -> str:
        return f"a net of {signed_coins(score)}"

    def rules_text(self, options: sb.StonesAndBonesOptions) -> str:
        return sb.rules_summary(options) + (
            "\n\n**Tavern mode** (`/stones-and-bones …`): `new gm_mode:True` runs the table without "
            "a seat, `npc` seats a named NPC, `stake` sets a seat's purse; `/game pause`, `/game "
            "resume`; a ledger (embed and CSV) at the end.")

    def option_lines(self, options: sb.StonesAndBonesOptions) -> list[str]:
        d = sb.StonesAndBonesOptions()
        lines = []
        if options.starting_purse != d.starting_purse:
            lines.append(f"starting purse: {coins(options.starting_purse)}")
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
            lines.append("buy-ins: " + ", ".join(coins(b) for b in options.buy_ins))
        return lines


# -- story and headline, event by event ----------------------------------------------------------


#: the kinds of event that claim the coffer
_CLAIMS = ("float", "luck", "crossbones", "plank")


def _story_of(e: Event) -> str | None:
    who = seat_word(e.seat) if e.seat is not None else ""
    if e.kind in _CLAIMS:
        what = sb.claim_label(e.kind, e.data["crossbones"])  # type: ignore[arg-type]
        return f"{who} claims {coins(e.data['coffer'])} ({what})"
    simple = {
        "sink": f"{who} sinks",
        "fold": f"{who} folds",
        "fly": f"{who} flies the Black",
        "eliminated": f"{who} is out",
        "anchor": f"{who} Swallows the Anchor",
        "mutiny": f"{who} cries Mutiny",
        "no_mutiny": "no Mutiny",
        "grumble": f"{who} Grumbles",
        "timeout": f"{who} ran out of time",
    }
    if e.kind in simple:
        return simple[e.kind]
    if e.kind in ("mutiny_won", "mutiny_lost", "split", "tide_choices", "last_afloat", "void", "vote_end"):
        return e.text.rstrip(".")
    if e.kind == "votes" and not e.data["challenge"]:
        return "no Yay majority: the Mutiny fails"
    if e.kind == "cutthroat_tails":
        return "Cutthroat: tails, the Captain keeps the coffer"
    if e.kind == "tide":
        return sb.tide_rise_words(e.data["tide"], e.data["ante"])
    return None


def _headline_of(e: Event) -> str | None:
    if e.kind in _CLAIMS:
        return f"💰 {e.text}"
    if e.kind == "mutiny" and e.seat is not None:
        return f"⚔️ {sb.mutiny_cry(e.seat)}"
    if e.kind in ("votes", "challenge", "cutthroat", "cutthroat_tails"):
        return f"🗳️ {e.text}" if e.kind == "votes" else f"⚔️ {e.text}"
    if e.kind in ("mutiny_won", "mutiny_lost"):
        return f"⚔️ {e.text}"
    if e.kind == "split" and e.data["shared"]:  # coins went to others (keeping it is no news)
        return f"💰 {e.text}"
    if e.kind == "tide":
        return f"🌊 {sb.tide_rise_words(e.data['tide'], e.data['ante'])}."
    if e.kind == "tide_choices":
        return f"🌊 {e.text}"
    if e.kind == "captain" and e.data["by"] == "roll_off":
        return f"🏴‍☠️ {e.text}"  # named by a roll-off (a new Tide, a Captain gone ashore)
    if e.kind in ("eliminated", "anchor", "last_afloat", "vote_end"):
        return f"☠ {e.text}" if e.kind == "eliminated" else f"⚓ {e.text}" if e.kind == "anchor" else e.text
    return None


SPEC = StonesAndBonesSpec()



class StonesAndBonesCog(TavernCog, group_name="stones-and-bones",
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
