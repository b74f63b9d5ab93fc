"""Roll the Bones' Details and rules, a phone screen a page.

Details opens on what matters now (your dice and sealed choice, the pot and who may win it, the
antes, this round's rolls so far); the players, the last round's rolls and where its dice went
are a page each. A page gives up its oldest rolls, never its pots or counts, to stay one screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games import SCREEN, Page, Part, split_screens
from bot.models import Table
from bot.render import clip
from cogs.roll_the_bones.words import (
    BONE,
    Namer,
    antes_line,
    dice_count,
    dice_list,
    namer,
    outcome_words,
    pot_lines,
    seat_block,
    where,
    who_may_win,
)
from rules import roll_the_bones as rtb


def fit(units: list[str], limit: int, what: str) -> str:
    """``units`` (each one or more lines) joined, leaving out the oldest whole ones until the
    text fits ``limit``, and saying so: the latest rolls matter most, and the log keeps all."""
    for start in range(len(units)):
        note = [f"… {start} earlier {what} in `/game log`"] if start else []
        text = "\n".join(note + units[start:])
        if len(text) <= limit:
            return text
    return clip(units[-1], limit) if units else ""


def roll_line(entry: rtb.RollEntry, name: Namer) -> str:
    bone = f" {BONE}" if entry.bone else ""
    return f"{name(entry.seat)}: d{entry.sides}{bone} → **{entry.face}**"


def award_line(award: rtb.Award, everyone: Sequence[int], name: Namer) -> str:
    counts = rtb.dice_counts(award.dice)
    rolloff = ""
    if award.rolloff:
        last = ", ".join(f"{name(e.seat)} {e.face}" for e in award.rolloff[-1])
        rolloff = f" (after a d{rtb.ROLLOFF_SIDES} roll-off: {last})"
    return (f"**{award.pot}** ({len(award.dice)}: {dice_list(counts)}), "
            f"{who_may_win(name, award.eligible, everyone)} could win it → **{name(award.taker)}**{rolloff}")


def record_text(record: rtb.RollRecord, numbered: bool, name: Namer) -> str:
    """One roll: every die thrown with its kind, what the roll decided, and any pot it settled
    (a pot none of the tied players paid into is decided by that roll)."""
    rolls = " · ".join(roll_line(e, name) for e in record.rolls)
    everyone = [e.seat for e in record.rolls]
    lines = [f"{f'Roll {record.cycle}: ' if numbered else ''}{rolls}\n→ {outcome_words(record, name)}"]
    lines += [award_line(a, everyone, name) for a in record.settled]
    return "\n".join(lines)


def rolls_of(records: Sequence[rtb.RollRecord], name: Namer) -> list[str]:
    numbered = len(records) > 1 or any(r.cycle > 1 for r in records)
    return [record_text(r, numbered, name) for r in records]


def accounts(report: rtb.RoundReport, name: Namer) -> list[str]:
    """Where every die of the round went: the rolled dice, each pot with who could win it and
    who took it, every player's dice count after the round, who went out and the new ante."""
    everyone = [e.seat for e in report.rolls[0].rolls]
    lines = [f"🏆 **{name(report.winner)}** wins the round and takes the "
             f"{len(report.rolled_dice)} rolled dice ({dice_list(rtb.dice_counts(report.rolled_dice))})"]
    lines += [award_line(a, everyone, name) for a in report.awards]
    counts = " · ".join(
        f"{name(s)} {before}→{after}"
        for s, (before, after) in enumerate(zip(report.counts_before, report.counts_after, strict=True))
        if before or after
    )
    lines.append(f"Dice now: {counts}")
    if report.eliminated:
        lines.append(f"💀 Out: {', '.join(name(s) for s in report.eliminated)}")
    if report.ante_after != report.ante_before:
        lines.append(f"The ante rises to **{report.ante_after}**.")
    return lines


def own_lines(view: rtb.RollTheBonesView) -> list[str]:
    """What only this seat sees: its dice and its sealed choice, said as facts, so an old copy
    with its buttons gone still reads right."""
    me = view.me
    if me is None:
        return []
    lines = [f"**Your {dice_count(sum(me.hand.values()))}**: {dice_list(me.hand)}"]
    if view.over:
        return lines
    mine = view.seats[me.seat]
    if mine.eliminated:
        return lines + ["💀 You are out of dice, and out of the game."]
    if not mine.in_round:
        return lines + ["You sit out this roll: only the tied players roll again."]
    if view.phase == "ante":
        lines.append(ante_line(me, mine.chosen))
    elif view.phase == "bone":
        if me.called:
            lines.append(f"{BONE} You called your bone die: you will roll it.")
        elif mine.bones:
            lines.append("You have not called your bone die: you will roll another die.")
    elif me.pick is not None:
        lines.append(f"**You roll** your d{me.pick}{BONE if me.pick == rtb.BONE else ''}: sealed until "
                     "every die is rolled.")
    elif me.called:
        lines.append(f"{BONE} You called your bone die: you roll it.")
    elif mine.bones:
        lines.append(f"You did not call your bone die ({BONE}), so you may not roll it this time.")
    return lines


def ante_line(me: rtb.PrivateView, sealed: bool) -> str:
    if sealed:
        return f"**Your ante, sealed**: {dice_list(me.draft) if me.draft_sides else 'nothing'}"
    chosen = dice_list(me.draft) if me.draft_sides else "nothing yet"
    return f"**Your ante** ({len(me.draft_sides)} of {me.ante_due}): {chosen}"


def details_pages(table: Table, view: rtb.RollTheBonesView) -> list[Page]:
    name = namer(table)
    now = own_lines(view)
    short = namer(table, short=True)
    if not view.over:
        out = (f"{view.base_ante} to start, +{view.eliminations} for the "
               f"{'player' if view.eliminations == 1 else 'players'} out" if view.eliminations
               else "1 more for each player who goes out")
        now.append(f"**Ante**: {dice_count(view.ante)} each ({out})")
        now += pot_lines(view, short)
        antes = antes_line(view, short)
        now += [antes] if antes else []
    now.append(f"-# {view.dice_total} dice in play · the game ends after round {view.max_rounds} at the latest")
    pages = [Page(f"{where(view)} now" if not view.over else "Game over", [Part(clip("\n".join(now), SCREEN))])]
    if view.this_round and not view.over:
        pages.append(Page(f"Round {view.round}: the rolls so far",
                          [Part(fit(rolls_of(view.this_round, name), SCREEN, "rolls"))]))
    pages.append(Page("Players", [Part(clip("\n".join(seat_block(table, view, s) for s in view.seats), SCREEN))]))
    report = view.last_round
    if report is not None:
        pages.append(Page(f"Round {report.round}: the rolls", [Part(fit(rolls_of(report.rolls, name), SCREEN, "rolls"))]))
        went = screens(accounts(report, name))  # every pot and count, over more pages if need be
        title = f"Round {report.round}: where the dice went"
        pages += [Page(title if len(went) == 1 else f"{title} ({i} of {len(went)})", [Part(clip(text, SCREEN))])
                  for i, text in enumerate(went, 1)]
    return pages


def screens(lines: list[str], size: int = SCREEN) -> list[str]:
    """Lines gathered into pieces of about one screen each."""
    out: list[str] = []
    for line in lines:
        if out and len(out[-1]) + len(line) + 1 <= size:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out


def rules_pages(options: rtb.RollTheBonesOptions) -> list[Page]:
    """How to play on one screen, then the full rules, then the game's words."""
    full = split_screens(rtb.rules_summary(options))
    words = screens(rtb.words_text().splitlines())
    return ([Page("How to play", [Part(rtb.how_to_play(options))])]
            + [Page(f"Full rules ({i} of {len(full)})", [Part(block)]) for i, block in enumerate(full, 1)]
            + [Page("Words" if len(words) == 1 else f"Words ({i} of {len(words)})", [Part(block)])
               for i, block in enumerate(words, 1)])
