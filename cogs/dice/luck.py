"""How lucky a player's dice were, against what chance expects: the sums behind /rolls stats.

Every die rolled counts, a dropped or rerolled one too: luck is in the dice, not in what the
notation kept (with advantage, both d20s were rolled). A count is called out as more or fewer
than chance only past two standard deviations, so that ordinary variation reads as ordinary.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.store import Luck

#: die sizes shown by name and in this order; any other size follows by its number of sides
USUAL = (4, 6, 8, 10, 12, 20, 100)


@dataclass(frozen=True)
class Tally:
    """A count of one face against chance: what came, what chance expects, and whether the
    difference is more than chance usually gives."""

    seen: int
    expected: float
    spread: float

    @property
    def verdict(self) -> str:
        """Empty while the count is within what chance gives 19 times in 20."""
        if self.spread == 0 or abs(self.seen - self.expected) <= 2 * self.spread:
            return ""
        return "more than chance usually gives" if self.seen > self.expected else "fewer than chance usually gives"


def tally(seen: int, rolled: int, chance: float) -> Tally:
    return Tally(seen=seen, expected=rolled * chance, spread=math.sqrt(rolled * chance * (1 - chance)))


def dice_rolled(luck: Luck, sides: int) -> int:
    return sum(luck.faces.get(sides, {}).values())


def average(luck: Luck, sides: int) -> float:
    faces = luck.faces.get(sides, {})
    count = sum(faces.values())
    return sum(face * n for face, n in faces.items()) / count if count else 0.0


def sizes(luck: Luck) -> list[int]:
    """The die sizes rolled, the usual ones first."""
    rolled = [s for s in luck.faces if dice_rolled(luck, s)]
    return sorted(rolled, key=lambda s: (s not in USUAL, USUAL.index(s) if s in USUAL else s))


def luck_text(luck: Luck, whose: str, place: str, *, hidden: bool) -> str:
    """The stats in a few short lines: counts, the d20's natural 20s and 1s, each size's average."""
    lines = [f"### 🎲 {whose} luck {place}"]
    if not luck.rolls:
        lines.append("No rolls kept here yet.")
        return "\n".join(lines)
    total = sum(dice_rolled(luck, s) for s in luck.faces)
    lines.append(f"**{luck.rolls:,}** roll{'' if luck.rolls == 1 else 's'} · **{total:,}** "
                 f"{'die' if total == 1 else 'dice'} of up to 100 sides")
    d20s = dice_rolled(luck, 20)
    if d20s:
        lines.append(f"**{d20s:,}** d20{'' if d20s == 1 else 's'} rolled")
        for face, name in ((20, "Natural 20s"), (1, "Natural 1s")):
            count = tally(luck.faces[20].get(face, 0), d20s, 1 / 20)
            verdict = f": {count.verdict}" if count.verdict else ""
            lines.append(f"{name}: **{count.seen:,}** (expected: {count.expected:,.1f}){verdict}")
    averages = [f"d{s} **{average(luck, s):.2f}** ({(s + 1) / 2:g})" for s in sizes(luck)]
    lines.append("Average per die (expected in brackets): " + " · ".join(averages))
    lines.append("-# Every die rolled counts, dropped and rerolled ones too." if hidden else
                 "-# Only rolls shown to everyone count, and every die rolled in them, dropped and rerolled ones too.")
    return "\n".join(lines)
