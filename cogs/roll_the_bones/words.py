"""Roll the Bones in the words of the table: dice, rolls, pots and where each player stands.

Every line here reads without the rules at hand: no "(short)", no "Pot 6:", no mark that is not
also said in words. Names are the players' own (``Namer``); the engine's "Seat N" words are for
the log and history, where the host puts names in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.models import Table
from bot.render import clip, safe
from cogs.roll_the_bones.pictures import Thrown
from rules import roll_the_bones as rtb
from rules.base import Event, seat_name

BONE = "🦴"
Namer = Callable[[int], str]
#: a name on the table keeps this much, so a player's block stays two lines on a phone
NAME_ON_TABLE = 20


def dice_list(counts: dict[str, int]) -> str:
    """`2×d4 d6 d12🦴`: a collection or a pot, smallest die first."""
    parts = []
    for name, n in counts.items():
        mark = BONE if name == rtb.die_name(rtb.BONE) else ""
        parts.append(f"{n}×{name}{mark}" if n > 1 else f"{name}{mark}")
    return " ".join(parts) or "no dice"


def dice_count(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def and_names(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names) or "nobody"
    return ", ".join(names[:-1]) + " and " + names[-1]


def or_names(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def namer(table: Table, short: bool = False) -> Namer:
    """Names for markdown: cut to a table's width if ``short``, with Discord's marks escaped."""
    if short:
        return lambda seat: safe(clip(table.seats[seat].name, NAME_ON_TABLE))
    return lambda seat: safe(table.seats[seat].name)


def plain_namer(table: Table) -> Namer:
    """Names as typed, for a picture and its words for screen readers (no markdown there)."""
    return lambda seat: table.seats[seat].name


def who_may_win(name: Namer, eligible: Sequence[int], everyone: Sequence[int]) -> str:
    """Who may win a pot: "anyone" when it is everyone rolling, else their names."""
    return "anyone rolling" if set(eligible) == set(everyone) else "only " + or_names([name(s) for s in eligible])


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
    tied = and_names([name(s) for s in record.tied])
    if record.result == "last_die_tie":
        return f"tie at {record.top}: {tied} keep their dice and roll again"
    return f"tie at {record.top}: every rolled die goes to the pot, {tied} roll again"


def dice_of(record: rtb.RollRecord, name: Namer) -> tuple[Thrown, ...]:
    tops = set(record.tied) if record.result != "win" else {record.winner}
    return tuple(Thrown(name(e.seat), e.sides, e.face, e.bone, e.seat in tops) for e in record.rolls)


def plain_roll(record: rtb.RollRecord, name: Namer) -> str:
    """The picture in words, for screen readers: each die, its kind and its face."""
    dice = "; ".join(
        f"{name(e.seat)} rolled {'the bone ' if e.bone else 'a '}d{e.sides}: {e.face}" for e in record.rolls)
    return f"Round {record.round}, roll {record.cycle}. {dice}. {outcome_words(record, name)}."


# -- the table ------------------------------------------------------------------------------------


PHASE_NAMES = {"ante": "antes", "bone": "bone call", "pick": "pick"}


def where(view: rtb.RollTheBonesView) -> str:
    """`Round 2`, `Round 2, roll 3` (the third roll of the round, after ties)."""
    return f"Round {view.round}" + (f", roll {view.cycle}" if view.cycle > 1 else "")


def phase_line(view: rtb.RollTheBonesView) -> str:
    """What the phase is, in one sentence a newcomer understands."""
    if view.phase == "ante":
        rise = f" ({view.base_ante}, +1 for each player out)" if view.eliminations else ""
        return (f"**Antes**: each player puts {dice_count(view.ante)}{rise} in the pot, in secret; "
                "every ante is shown at once.")
    if view.phase == "bone":
        return (f"**Bone call**, in the open: only a called bone die ({BONE}) may be rolled. A call binds, "
                "and any change of call undoes every Ready.")
    return "**Pick**: each player picks one die to roll, in secret. Every die is rolled at once."


def pot_lines(view: rtb.RollTheBonesView, name: Namer) -> list[str]:
    """The dice at stake and who may win them."""
    if not view.pots:
        return []
    if len(view.pots) == 1:
        pot = view.pots[0]
        return [f"**Pot**: {dice_count(pot.count)} ({dice_list(pot.dice)}). The highest roll takes "
                "it and every die rolled."]
    lines = [f"**{p.name}**: {dice_count(p.count)}, {who_may_win(name, p.eligible, view.in_round)} can win it"
             for p in view.pots]
    return lines + ["The highest roll takes every pot it may win and every die rolled."]


def antes_line(view: rtb.RollTheBonesView, name: Namer) -> str:
    if view.antes is None:
        return ""
    shown = [f"{name(s)} {dice_list(a)}" for s, a in enumerate(view.antes) if a]
    return "**Antes**: " + (" · ".join(shown) or "none")


def ante_status(view: rtb.RollTheBonesView, seat: rtb.SeatView) -> str:
    """How much a seat antes when it is not the ante in force, and why (the same words before
    and after it seals, so the table does not change while antes are sealed)."""
    if seat.ante_due == 0:
        return "antes nothing: keeps their last die"
    could = min(view.ante, seat.total - 1)
    why = "matching the smallest ante" if seat.ante_due < could else "all they can spare"
    return f"{dice_count(seat.ante_due)}, {why}"


def seat_status(view: rtb.RollTheBonesView, seat: rtb.SeatView) -> list[str]:
    """Where a seat stands in this phase, in words: what it has done, what it still owes."""
    if view.phase == "ante":
        if seat.short:
            return ["ante sealed" if seat.chosen else "choosing an ante", ante_status(view, seat)]
        return ["ante sealed" if seat.chosen else f"choosing {dice_count(seat.ante_due)} to ante"]
    if view.phase == "bone":
        # a player with no call to make is not asked, so the block says why, not "ready"
        if seat.forced_call:
            return [f"{BONE} called (only bone dice left)"]
        if not seat.bones:
            return ["no bone die"]
        call = f"{BONE} called" if seat.called else "bone die not called"
        if not seat.can_call:  # both changes spent: the call stands, Ready is still theirs
            call += " (no changes left)"
        return ["ready" if seat.ready else "not ready", call]
    if seat.called:
        return [f"{BONE} rolls the bone die"]
    return ["die picked" if seat.chosen else "picking a die"]


def seat_block(table: Table, view: rtb.RollTheBonesView, seat: rtb.SeatView) -> str:
    """One player: whether the game waits for them (⏳) or not (✅) and where they stand, in
    words; then the dice they hold."""
    name = safe(clip(table.seats[seat.seat].name, NAME_ON_TABLE))
    dice = f"{dice_count(seat.total)}: {dice_list(seat.dice)}"
    if seat.eliminated:
        return f"💀 ~~{name}~~ · out of dice since round {seat.eliminated_round}"
    if view.over:
        return f"**{name}** · {dice}"
    if not seat.in_round:
        return f"**{name}** · sits out this roll (not in the tie)\n{dice}"
    done = seat.ready if view.phase == "bone" else seat.chosen
    mark = "✅" if done else "⏳"
    return f"{mark} **{name}** · {' · '.join(seat_status(view, seat))}\n{dice}"


# -- the story: a line of history per table, a headline per round ------------------------------------


def round_story(report: rtb.RoundReport, name: Namer, fresh_ties: int = 0) -> str:
    """`Seat 1 d8 7 · Seat 2 d12🦴 3 → Seat 1 takes 9 dice · Seat 3 out · the ante rises to 3`.

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
        parts.append(f"{and_names([name(s) for s in report.eliminated])} out")
    if report.ante_after != report.ante_before:
        parts.append(f"the ante rises to {report.ante_after}")
    return " · ".join(parts)


def tie_story(record: rtb.RollRecord, name: Namer) -> str:
    return f"{roll_words(record, name, bold=False)} → {outcome_words(record, name)}"


def first(events: list[Event], kind: str) -> Event | None:
    return next((e for e in events if e.kind == kind), None)


def antes_story(event: Event) -> str:
    """`Antes: Seat 1 d4 (all they can spare) · Seat 2 2×d4`, from the reveal's figures."""
    shown = zip(event.seats, event.data["antes"], event.data["notes"], strict=True)
    return "Antes: " + " · ".join(f"{seat_name(s)} {rtb.ante_words(a, n)}" for s, a, n in shown)


def calls_story(events: list[Event]) -> str:
    """The bone calls and withdrawals a table saw, in order: `Seat 1 calls their bone die`.
    Presses of Ready are left out (every call ends with all of them), and so is who must press
    again: that is the next table's news, not this line's."""
    return " · ".join(rtb.call_words(e.seat or 0, bool(e.data.get("called"))) for e in events
                      if e.kind == "call" and not e.data.get("forced"))


def asked_again(events: list[Event], view: rtb.RollTheBonesView) -> list[int]:
    """Seats whose Ready a change of call undid, and who still owe it: the re-ask."""
    again = {s for e in events if e.kind == "call" for s in e.data.get("again", [])}
    return sorted(again & set(view.to_act)) if view.phase == "bone" else []
