"""A roll in words: dice in the notation RPG players already use, drawn so the eye lands on the result.

rules/notation.py parses, limits and rolls; this module only writes the result.

A reply is text, not an embed: the result in large type, then one small line saying what
was rolled and how, each die that did not count struck through and named (a few dice are also
drawn under it, cogs/dice/pictures.py, but the words never lean on the picture). On a phone an embed's
frame, title and footer took as much room as the roll itself, and Discord already shows who used
/roll above the reply. A repeated roll leads with each result in order (ability scores are read
one by one, not summed), each natural 20 or 1 marked as on a single roll, then what was rolled as
it was typed ("1d20+5 adv, 3 rolls", not d20's rewrite `2d20kh1 + 5 × 3`, which reads as
arithmetic), its sum and one small line per roll. A comparison reads as a success or a failure,
with the relation that held (`✅ Success: 16 ≥ 15`), never as d20's 1 or 0; a dice pool's successes
are the dice in bold, and its lines end with the successes, not with a sum of faces nobody needs. A roll of
Fate dice reads as Fate players read it: the result signed and on the ladder (`+2 Fair`), each die
`+`, `−` or `0`, and a repeat of them has no sum (Fate results are compared, never added). A roll too long to list is
drawn again with less detail (each dice term summarised, then only how many dice) until it fits
Discord's 2,000 characters; the results are always shown.
"""

from __future__ import annotations

import discord

from bot.render import CONTENT, clip, safe
from rules.notation import (CRIT_MARK, FUMBLE_MARK, Counting, DiceGroup, Roll, RollSeries, Tone, on_ladder,
                            plain_number, signed)

NOTE = 300
COMMENT = 300
EXPRESSION = 200
#: the longest total a 500-character expression can reach (about 500 digits) fits whole; only a
#: repeat of such totals is cut short
NUMBERS = 520
TOO_MANY = "too many dice to list each one"
#: comments and annotations are the roller's own text: never a ping
NO_PINGS = discord.AllowedMentions.none()

FULL, SUMMARY, TOTALS = range(3)
#: the mark before a game's name for a result, best to worst: read at a glance on a phone
TONES: dict[Tone, str] = {"critical": "🌟", "success": "✅", "partial": "⚠️", "failure": "❌", "fumble": "💀"}


def group_summary(group: DiceGroup, counting: Counting | None = None) -> str:
    """`4d6kh3: 4 dice, 1 dropped = 12`: what is left of a dice term when its dice can't be listed
    (in a dice pool, `= 3 successes`)."""
    parts = [f"{len(group.faces)} dice"]
    dropped = len(group.faces) - group.kept
    if dropped:
        parts.append(f"{dropped} dropped")
    crits = sum(f.crit for f in group.faces if f.kept)
    fumbles = sum(f.fumble for f in group.faces if f.kept)
    if crits:
        parts.append(f"{crits}{CRIT_MARK}")
    if fumbles:
        parts.append(f"{fumbles}{FUMBLE_MARK}")
    worth = str(group.total)
    if counting is not None:
        worth = successes(group.successes(counting))
    return f"`{clip(group.notation, 40)}`: {', '.join(parts)} = {worth}"


def roll_detail(one: Roll, level: int, *, terse: bool = False, counting: Counting | None = None) -> str:
    if level == FULL:
        return (one.terse or one.breakdown) if terse else one.breakdown
    if level == SUMMARY and one.groups:
        return "; ".join(group_summary(g, counting) for g in one.groups)
    return f"{one.dice} dice" if one.dice else ""


def small(text: str) -> str:
    """A line in small type. A comment or an annotation may hold a line separator (U+2028, \\x1e
    ...): the rest of the line would leave small type, so it becomes a space."""
    return "-# " + " ".join(text.splitlines())


def successes(n: int) -> str:
    return f"{n} success" if abs(n) == 1 else f"{n} successes"


def marks(one: Roll) -> str:
    return CRIT_MARK if one.crit == "crit" else FUMBLE_MARK if one.crit == "fumble" else ""


def number(one: Roll, series: RollSeries) -> str:
    """A result read by a game, as its players write it: a Call of Cthulhu d100 in two digits (`05`)."""
    coc = series.reading is not None and series.reading.system == "coc"
    return f"{one.result:02d}" if coc else str(one.result)


def counted(n: int, series: RollSeries) -> str:
    """A pool's count as its players say it: Shadowrun's `3 hits`, World of Darkness's `3 successes`;
    any other result as `number` writes it."""
    reading = series.reading
    if reading is None or not reading.pool:
        return str(n)
    if reading.system == "sr":
        return f"{n} hit" if n == 1 else f"{n} hits"
    return successes(n)


def said(one: Roll, series: RollSeries) -> str:
    """A result read by a game with its mark: `✅ Hard success: 23`, `🌟 Exceptional: 5 successes`,
    a pool whose count says it all `✅ 3 hits`, one whose name does `💀 Botch`."""
    assert one.verdict is not None
    pool = series.reading is not None and series.reading.pool
    if pool and one.verdict.outcome and not one.result:
        return f"{TONES[one.verdict.tone]} {one.verdict.outcome}"  # a botch is no success: said once
    shown = counted(one.result, series) if pool else number(one, series)
    outcome = f"{one.verdict.outcome}: " if one.verdict.outcome else ""
    return f"{TONES[one.verdict.tone]} {outcome}{shown}"


def result_of(one: Roll, fate: bool = False, series: RollSeries | None = None) -> str:
    """One result of a repeat: `17`, for a comparison `✅ 17` (the total, marked), for Fate dice `+2`
    (`❌ −1` compared), read by a game `⚠️ 8`."""
    if one.verdict is not None and series is not None:
        return f"{TONES[one.verdict.tone]} {number(one, series)}"
    if one.compared is not None:
        left = signed(one.compared.left) if fate else plain_number(one.compared.left)
        return f"{'✅' if one.compared.success else '❌'} {left}"
    return signed(one.result) if fate else str(one.result)


def headline(series: RollSeries) -> str:
    """The result in large type: a single roll's total (and its natural 20 or 1), or each result
    of a repeat in the order rolled, each natural 20 or 1 marked."""
    if len(series.rolls) == 1:
        one = series.rolls[0]
        if one.verdict is not None:
            # the game's name for it says what a natural 20 or 1 did (the small line says how)
            return f"# {said(one, series)}"
        if one.compared is not None:
            text = f"{'✅ Success' if one.compared.success else '❌ Failure'}: {one.compared.said(series.fate)}"
        else:
            text = successes(one.result) if series.counting else on_ladder(one.result) if series.fate else str(one.result)
        if one.crit == "crit":
            text += f" {CRIT_MARK} Natural 20!"
        elif one.crit == "fumble":
            text += f" {FUMBLE_MARK} Natural 1!"
    else:
        text = ", ".join(result_of(one, series.fate, series) + ("" if one.verdict else marks(one))
                         for one in series.rolls)
        if series.counting:
            text += " successes"
        elif series.reading is not None and series.reading.pool:
            text += " hits" if series.reading.system == "sr" else " successes"
    return f"# {clip(text, NUMBERS)}"


def body(series: RollSeries, level: int, label: str | None = None) -> list[str]:
    """The small lines under the result: the saved roll's name, the comment, how the words were
    read, what was rolled (each die, as far as `level` allows), the rule for counting successes,
    and for a repeat the sum and one line per roll."""
    single = len(series.rolls) == 1
    counting = series.rule
    facts = [f"**{safe(label)}**"] if label else []
    if series.comment:
        facts.append(f"*{safe(clip(series.comment, COMMENT))}*")
    facts.extend(series.notes)
    if series.reading is not None and single:
        facts.append(series.reading.rule)
        facts.append(series.rolls[0].verdict.note if series.rolls[0].verdict else "")
    if single:
        if level > FULL:
            facts.append(clip(series.expression, EXPRESSION))
        facts.append(roll_detail(series.rolls[0], level, counting=counting))
    else:
        facts.append(f"{clip(series.typed or series.expression, EXPRESSION)}, {len(series.rolls)} rolls")
        if series.reading is not None and (series.reading.system in ("coc", "chance") or series.reading.pool):
            facts.append(series.reading.rule)
        if series.counting:
            total = successes(series.total) + " in all"
        elif series.comparing:
            total = f"{series.total} of {len(series.rolls)} succeed"
        elif series.fate or series.reading is not None:
            total = ""  # Fate results are compared, and a game's results are named, never added
        else:
            total = f"sum {series.total}"
        facts.append(clip(total, NUMBERS))
    if series.counting:
        rule = f"each die {'≤' if series.under else '≥'} {series.target} counts 1"
        if series.fail is not None:
            rule += f", each die ≤ {series.fail} counts −1"
        facts.append(rule)
    if level > FULL and series.dice:
        facts.append(TOO_MANY)
    lines = [small(" · ".join(fact for fact in facts if fact))] if any(facts) else []
    if not single and level < TOTALS:
        for one in series.rolls:
            detail = roll_detail(one, level, terse=True, counting=counting)
            if one.verdict is not None and series.reading is not None and series.reading.pool:
                shown = " · ".join(part for part in (f"**{said(one, series)}**", one.verdict.note) if part)
            elif one.verdict is not None:
                shown = " · ".join(part for part in (f"**{result_of(one, series=series)}** {one.verdict.outcome}",
                                                     one.verdict.note) if part)
            elif series.fate and one.compared is None:
                shown = f"**{on_ladder(one.result)}**"
            else:
                shown = f"**{result_of(one, series.fate)}**{marks(one)}"
            lines.append(small(f"{shown}: {detail}" if detail else shown))
    return lines


def roll_text(series: RollSeries, *, note: str | None = None, label: str | None = None) -> str:
    """The whole roll, or as much of it as fits one message: never over Discord's limit, never
    without the results. `note` leads (who rolled a secret roll and for whom, who rolled again);
    `label` names the saved roll it was."""
    top = [clip(note, NOTE)] if note else []
    top.append(headline(series))
    for level in (FULL, SUMMARY, TOTALS):
        text = "\n".join(top + body(series, level, label))
        if len(text) <= CONTENT:
            return text
    return clip(text, CONTENT)


#: what `/roll help` answers: what to type for each game the tables here play, and what comes back
HELP = """### 🎲 /roll: what to type
**D&D 5e** `1d20+5 adv` · `1d20+5 dis` · `1d20+3 dc 15` (success or failure) · `4d6kh3 repeat 6` (stats) · `2d6+3 crit` (damage, dice doubled) · `8d6 fireball`
**Pathfinder 2e** `1d20+9 dc 25 pf2`: critical success, success, failure or critical failure (±10 and natural 20/1 move a degree)
**Call of Cthulhu** `1d100 vs 55`: Critical, Extreme, Hard, Regular, Failure or Fumble · `1d100 vs 55 hard` · `1d100 bonus vs 55` · `1d100 penalty 2 vs 55`
**Powered by the Apocalypse** `2d6+1 pbta`: strong hit (10+), weak hit (7-9) or miss
**Blades in the Dark** `3d6 blades`: the highest die; two 6s crit · `0d6 blades` (two dice, the lower)
**World of Darkness** `7d10 wod`: successes (8+, 10-again), exceptional at 5 · `7d10 wod 9-again` · `7d10 wod rote` · `chance` (dramatic failure on 1) · classic: `5d10 diff 6` (1s cancel; botch)
**Shadowrun** `12d6 sr`: hits (5-6), glitch, critical glitch · `12d6 sr edge` (6s explode)
**Fate** `4dF+2` · **GURPS** `3d6<=12`
**Anything else** `4d6dl1` · `10d10e10` · `1d8ro1` · `d%` · `2d20kh1+3 [fire]`
-# Options: `private` (only you, with Reveal) · `secret_to` (to you and your GM by DM) · `repeat` · `target` and `fail` (count dice) · `mode` (adv/dis)"""

#: what typed alone in the expression asks for HELP
HELP_WORDS = frozenset({"help", "?", "examples", "systems"})


def asks_help(expression: str) -> bool:
    return expression.strip().lower() in HELP_WORDS
