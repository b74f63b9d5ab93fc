"""Stones & Bones in lines of Markdown: the throw, the pirates, the Mutiny, the ledger.

The live table takes the short forms (one line for the throw, one per pirate); Details takes the
long ones (the bet worked out step by step, every purse with what went in and out). Words, never marks a
player must learn: "Captain", "Cursed", "voted", not ▶, ☠ or ✅ alone.
"""

from __future__ import annotations

import csv
import io
import re

from bot.models import Table
from bot.render import and_list, clip, safe, seat_names
from rules import stones_and_bones as sb
from rules.stones_and_bones import BonesReading, LedgerRow, MutinyView, PirateView, TurnView, money

#: the live table's throw line starts with this; a table that shows it carries the picture
ROLL_MARK = "🎲"


def seat_name(table: Table, seat: int | None) -> str:
    return "nobody" if seat is None else safe(table.seats[seat].name)


def names(table: Table, seats: list[int]) -> str:
    return and_list([seat_name(table, s) for s in seats]) if seats else "nobody"


def shorter(timer: int | None, window: int | None) -> int | None:
    """The time a decision gets: the table's timer, or the rules' window if shorter or if the
    table has no timer (0 or None)."""
    if window is None:
        return timer
    return min(timer, window) if timer else window


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


def stones_words(turn: TurnView) -> str:
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
        head = f"{who} {did} {_faces(reading)} → bet **{money(reading.bet)}**"
        marks = _marks(reading)
        if turn.flown is not None and turn.result == "pending":
            marks.append("no Stone")
        elif turn.cursed and turn.result == "pending":
            marks.append("Cursed: no Stone")
    stones = stones_words(turn)
    return " · ".join([f"{ROLL_MARK} {head}", *marks, *([stones] if stones else [])])


def picture_words(table: Table, turn: TurnView, table_stone: int | None) -> str:
    """What the picture shows, in plain words, for screen readers (no Markdown)."""
    reading = turn.plank or turn.flown or turn.bones
    assert reading is not None
    bones = ", ".join(f"{bone.face} ({bone.tier})" for bone in reading.bones)
    words = f"The Bones of {seat_name(table, turn.seat)}: {bones}."
    stones = re.sub(r"\*\*", "", stones_words(turn))
    if stones:
        words += f" {stones.rstrip('!')}."
    if table_stone is not None and turn.result == "pending":
        words += f" A Stone showing {table_stone} lies on the table."
    return words


def bones_line(reading: BonesReading) -> str:
    """The faces, as thrown: the steps under them say what each does."""
    return " ".join(f"`{bone.face}`" for bone in reading.bones)


def reading_lines(reading: BonesReading, title: str) -> list[str]:
    lines = [f"**{title}**: {bones_line(reading)}"]
    lines += [f"• {step}" for step in reading.steps]
    lines.append(f"= **{money(reading.bet)}**")
    return lines


def turn_lines(table: Table, turn: TurnView) -> list[str]:
    """A turn step by step: the ante, each throw with its bet worked out, the Stones, the outcome."""
    who = seat_name(table, turn.seat)
    role = " (Captain)" if turn.captain else ""
    curse = " · Cursed: no Stone" if turn.cursed else ""
    lines = [f"**{who}**{role}, turn {turn.number}: ante {money(turn.ante)}{curse}"]
    if turn.bones is not None:
        lines += reading_lines(turn.bones, "The Bones")
    if turn.flown is not None:
        lines += reading_lines(turn.flown, "Flying the Black, the Bones again")
    if turn.plank is not None:
        lines.append(f"**Walking the Plank**, the Bones again: {bones_line(turn.plank)}")
    if turn.paid:
        lines.append(f"Paid into the coffer: {money(turn.paid)}")
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
    """One pirate in one short line: the purse at a glance, then Captain or Cursed in words."""
    name = safe(clip(table.seats[p.seat].name, 24))
    if p.status != "afloat":
        gone = "out of the game" if p.status == "eliminated" else "ashore"
        return f"~~{name}~~ {gone} · net {p.net_text}"
    tags = [word for on, word in ((p.captain, "Captain"), (p.cursed, "Cursed")) if on]
    return f"**{name}** {money(p.purse)}" + "".join(f" · {tag}" for tag in tags)


def pirate_line(table: Table, p: PirateView) -> str:
    """One pirate in full, for Details: the purse, what they bought in, the net, Fly the Black used."""
    name = safe(table.seats[p.seat].name)
    if p.status != "afloat":
        gone = "out of the game" if p.status == "eliminated" else "ashore"
        out = f" · cashed out {money(p.cashed_out)}" if p.cashed_out else ""
        return f"~~{name}~~ ({gone}){out} · net {p.net_text}"
    tags = "".join(f" ({word})" for on, word in ((p.captain, "Captain"), (p.cursed, "Cursed")) if on)
    fly = "" if p.can_fly else " · flew the Black this Tide"
    return f"**{name}**{tags}: {p.purse_text} · bought in {money(p.bought_in)} · net {p.net_text}{fly}"


def purse_line(p: PirateView) -> str:
    """A seat's own purse, for its private view and its Details, as the table shows purses."""
    return f"Your purse: **{p.purse_text}** (net {p.net_text})."


# -- the Mutiny -----------------------------------------------------------------------------------


def challenge_line(table: Table, m: MutinyView) -> str:
    return (f"⚔️ Challenge: Captain **{seat_name(table, m.captain)}** {' + '.join(map(str, m.captain_roll))} = "
            f"**{m.captain_total}** · Mutineer **{seat_name(table, m.mutineer)}** "
            f"{' + '.join(map(str, m.mutineer_roll))} = **{m.mutineer_total}**")


def vote_progress(table: Table, m: MutinyView) -> str:
    """Who has voted and who not, never how: the votes are sealed until all are in."""
    return " · ".join(f"{seat_name(table, x)} {'✅ voted' if x in m.voted else '⏳ still to vote'}" for x in m.voters)


def mutiny_lines(table: Table, m: MutinyView) -> list[str]:
    """A Mutiny in full, for Details: who against whom, the gifts left, the votes, the costs and
    the Challenge."""
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
            lines.append(f"Votes (sealed until all are in): {vote_progress(table, m)}")
    costs = [f"{seat_name(table, x)} rolled {d}, paid {money(m.paid[x])}" for x, d in enumerate(m.d4) if d is not None]
    if costs:
        lines.append("Cost of Mutiny (a roll of 1 to 4 gold each): " + ", ".join(costs))
    if m.captain_total is not None:
        lines.append(challenge_line(table, m))
    if m.winner is not None:
        lines.append(f"**{seat_name(table, m.winner)}** wins the coffer.")
    return lines


def mutiny_state(table: Table, view: sb.StonesAndBonesView) -> str:
    """Where a Mutiny stands, for the live table: the question above it says what to do."""
    m = view.mutiny
    if m is None or view.phase == "mutiny_call":
        return ""  # the question says it all: the Captain plunders, the crew may cry Mutiny
    rising = f"⚔️ **{seat_name(table, m.mutineer)}**'s Mutiny against Captain **{seat_name(table, m.captain)}**"
    if view.phase == "parley":
        left = ", ".join(f"{seat_name(table, x)} {n}" for x, n in m.gifts_left.items() if n)
        return rising + (f" · gifts left: {left}" if left else "")
    if view.phase == "vote":
        # who is still to vote is the line above the table: here, only who has
        voted = names(table, m.voted) if m.voted else ""
        return rising + (f"\n🗳️ Voted, sealed until all are in: {voted}" if voted else "")
    if m.captain_total is not None:
        coin = (f"Cutthroat: Captain **{seat_name(table, m.captain)}** claimed again, and with two pirates "
                "aboard a coin decides. Heads: a Challenge.\n" if m.cutthroat else "")
        return coin + challenge_line(table, m)
    return ""


# -- the ledger -----------------------------------------------------------------------------------


def ledger_lines(table: Table, rows: list[LedgerRow], *, nets: bool = True) -> list[str]:
    """Each seat's money in and out; ``nets`` False where the standings beside it show them."""
    return [f"**{safe(table.seats[r.seat].name)}**: bought in {r.bought_in_text} · "
            + (f"cashed out {r.cashed_out_text}" if r.cashed_out else "lost it all")
            + (f" · net **{r.net_text}**" if nets else "") for r in rows]


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: one starting like a formula ("=HYPERLINK(...)") is quoted,
    so opening the GM's ledger never runs what a player typed as their name."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def ledger_csv(table: Table, rows: list[LedgerRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["seat", "name", "buy_in_cp", "cash_out_cp", "net_cp", "buy_in", "cash_out", "net"])
    for r in rows:
        writer.writerow([r.seat + 1, _cell(table.seats[r.seat].name), r.bought_in, r.cashed_out,
                         r.net, r.bought_in_text, r.cashed_out_text, r.net_text])
    return out.getvalue()
