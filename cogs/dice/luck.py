"""How lucky a player's dice were, against what chance expects: the sums behind /rolls stats.

Every die rolled counts, a dropped or rerolled one too: luck is in the dice, not in what the
notation kept (with advantage, both d20s were rolled).

A count is called unusual only when chance alone gives one that far out, on that side, less than
1 time in 100, reckoned exactly (the binomial tail), not by the bell curve: on a few dice the
bell curve is far off (it called 1 natural 1 in 3 d20s more than chance gives, when 1 in 7 players
rolls that). The bar is high because each player reads four such counts (20s and 1s, too many or
too few) and comes back after every session: a fair die should almost never be called out. And
nothing is called out until there are enough dice for it to go either way: before 90 d20s even
no natural 20 at all is not rare (19 in 20 d20s miss it), so a verdict could only ever say lucky,
never unlucky, and one lucky roll early on would read as a pattern.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.store import Luck

#: die sizes shown by name and in this order; any other size follows by its number of sides
USUAL = (4, 6, 8, 10, 12, 20, 100)


#: how rarely chance alone must give a count, on its side, for it to be called unusual
RARE = 0.01
MANY, FEW = "unusually many", "unusually few"


@dataclass(frozen=True)
class Tally:
    """A count of one face against chance: what came, of how many dice, and whether chance alone
    rarely gives that many, or that few."""

    seen: int
    rolled: int
    chance: float

    @property
    def expected(self) -> float:
        return self.rolled * self.chance

    @property
    def telling(self) -> bool:
        """Whether there are dice enough that a count could be called out either way: that none
        at all would itself be rare."""
        return 0 < self.chance < 1 and (1 - self.chance) ** self.rolled < RARE

    @property
    def verdict(self) -> str:
        """Empty unless chance alone gives so many (or so few) less than 1 time in 100."""
        if not self.telling or self.seen == self.expected:
            return ""
        many = self.seen > self.expected
        return (MANY if many else FEW) if _tail(self.seen, self.rolled, self.chance, up=many) < RARE else ""


def _tail(seen: int, rolled: int, chance: float, *, up: bool) -> float:
    """The exact binomial chance of at least (up) or at most `seen` of `rolled`, from the side of
    the expected count away from it, so its terms only shrink: summed from `seen` outwards until
    they stop adding anything a float can hold. In logs, as thousands of dice overflow floats."""
    if not 0 <= seen <= rolled:
        return 0.0
    log_term = (math.lgamma(rolled + 1) - math.lgamma(seen + 1) - math.lgamma(rolled - seen + 1)
                + seen * math.log(chance) + (rolled - seen) * math.log1p(-chance))
    term, total, k = math.exp(log_term), 0.0, seen
    odds = chance / (1 - chance)
    while term > 0 and 0 <= k <= rolled:
        total += term
        if term < total * 1e-17:
            break
        # the next term out: one more (up) or one fewer (down) of the face
        term *= (rolled - k) / (k + 1) * odds if up else k / (rolled - k + 1) / odds
        k += 1 if up else -1
    return min(total, 1.0)


def tally(seen: int, rolled: int, chance: float) -> Tally:
    return Tally(seen=seen, rolled=rolled, chance=chance)


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
    called = False
    if d20s:
        lines.append(f"**{d20s:,}** d20{'' if d20s == 1 else 's'} rolled")
        for face, name in ((20, "Natural 20s"), (1, "Natural 1s")):
            count = tally(luck.faces[20].get(face, 0), d20s, 1 / 20)
            called = called or bool(count.verdict)
            verdict = f" · {count.verdict}" if count.verdict else ""
            lines.append(f"{name}: **{count.seen:,}** (expected: {count.expected:,.1f}){verdict}")
    averages = [f"d{s} **{average(luck, s):.2f}** ({(s + 1) / 2:g})" for s in sizes(luck)]
    lines.append("Average per die (expected in brackets): " + " · ".join(averages))
    if called:
        lines.append(f"-# Unusually: by chance alone, less than 1 time in {round(1 / RARE)}.")
    lines.append("-# Every die rolled counts, dropped and rerolled ones too." if hidden else
                 "-# Only rolls shown to everyone count, and every die rolled in them, dropped and rerolled ones too.")
    return "\n".join(lines)
