"""Stones & Bones: coins, and the reading of one roll of the four Bones.

Everything here is a pure function of the four faces and the Tide, so the game engine and a
stand-alone ``/roll-bones`` command read a roll the same way. The rulebook's order of play
decides the order of the steps: «Results determine your bet. ( 1–5 )1 cp | ( 6–10 )=1 sp |
( 11–20 )=1 gp», then «Ill Omens: matching Bones multiply that coin tier before other mods»,
then «Bane: Any 20 (Bones) → double entire bet», and at payment «Apply Tide multiplier».

Money is an exact integer of copper (RULINGS SB-3: 10 cp = 1 sp, 10 sp = 1 gp, 10 gp = 1 pp).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from rules.stones_and_bones.models import (
    BONES,
    CP,
    DATA,
    FACES,
    GP,
    PP,
    SP,
    TIERS,
    AllAlike,
    AtLeast,
    Crossbones,
    IllOmensRule,
    Tier,
)

__all__ = [
    "BET_SUM_TIDE_1", "BONES", "CP", "CROSSBONES", "CROSSBONES_TEXT", "FACES", "GP", "PP", "SP",
    "TIERS", "TIER_ABBR", "TIER_VALUE", "BoneView", "BonesReading", "IllOmensRule", "OmenGroup",
    "Throw", "Tier", "TierCoins", "bet_of", "bet_sum_by_enumeration", "coins", "crossbones_name",
    "crossbones_of", "expected_bet", "money", "read_bones", "signed_coins", "signed_money", "throw_of", "tier_of",
]

TIER_VALUE: dict[Tier, int] = {t.name: {c.name: c.cp for c in DATA.coins}[t.coin] for t in DATA.tiers}
TIER_ABBR: dict[Tier, str] = {t.name: t.coin for t in DATA.tiers}
#: the highest face of each tier, lowest tier first
_TIER_TOPS: tuple[tuple[int, Tier], ...] = tuple((t.highest, t.name) for t in DATA.tiers)
_CU, _AG, _AU = (TIER_VALUE[t] for t in TIERS)  # a coin of each tier, in copper
BANE, BLESSING = DATA.bane, DATA.blessing

#: the combinations, rarest first: a roll that is two of them is named by the rarer
CROSSBONES: tuple[str, ...] = tuple(c.name for c in DATA.crossbones)
CROSSBONES_TEXT: dict[str, str] = {c.name: c.text for c in DATA.crossbones}


# -- coins ------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def coins(cp: int) -> str:
    """``coins(347) -> "3 gp 4 sp 7 cp"``, ``coins(2400) -> "2 pp 4 gp"``, ``coins(0) -> "0 cp"``.

    Change is made automatically (SB-3), so an amount is always shown in the fewest coins."""
    if cp < 0:
        return "-" + coins(-cp)
    if cp == 0:
        return "0 cp"
    parts = []
    for value, name in ((PP, "pp"), (GP, "gp"), (SP, "sp"), (CP, "cp")):
        count, cp = divmod(cp, value)
        if count:
            parts.append(f"{count} {name}")
    return " ".join(parts)


def signed_coins(cp: int) -> str:
    """A net result: ``+3 gp``, ``-4 sp 2 cp``, ``0 cp``."""
    return ("+" if cp > 0 else "") + coins(cp)


def money(cp: int) -> str:
    """An amount as the Stones & Bones table says it: platinum folded into gold (``money(3147)
    -> "31 gp 4 sp 7 cp"``, not "3 pp 1 gp 4 sp 7 cp"), so purses and bets compare at a glance
    and a new player meets one coin fewer; exact, since a few coppers can decide whether a bet is
    covered. (``coins`` keeps the fewest coins, as /roll-bones shows a bet.)"""
    if cp < 0:
        return "-" + money(-cp)
    if cp < GP:
        return coins(cp)
    whole, rest = divmod(cp, GP)
    return f"{whole} gp" + (f" {coins(rest)}" if rest else "")


def signed_money(cp: int) -> str:
    """A net result in ``money``: ``+31 gp``, ``-4 sp 2 cp``, ``0 cp``."""
    return ("+" if cp > 0 else "") + money(cp)


def tier_of(face: int) -> Tier:
    if not 1 <= face <= FACES:
        raise ValueError(f"{face} is not a face of a d{FACES}")
    return next(name for highest, name in _TIER_TOPS if face <= highest)


class TierCoins(BaseModel):
    """A bet as the rulebook writes it: so many coins of each tier (``12cp, 2gp``)."""

    model_config = ConfigDict(frozen=True)
    copper: int = 0
    silver: int = 0
    gold: int = 0

    @property
    def cp(self) -> int:
        return (self.copper * TIER_VALUE["copper"] + self.silver * TIER_VALUE["silver"]
                + self.gold * TIER_VALUE["gold"])

    def get(self, tier: Tier) -> int:
        return int(getattr(self, tier))

    def times(self, factor: int) -> TierCoins:
        return TierCoins(copper=self.copper * factor, silver=self.silver * factor,
                         gold=self.gold * factor)

    def text(self) -> str:
        """``12 cp, 2 gp`` (tier by tier, as the rulebook's examples; no change made)."""
        parts = [f"{self.get(t)} {TIER_ABBR[t]}" for t in TIERS if self.get(t)]
        return ", ".join(parts) or "0 cp"


# -- Crossbones -------------------------------------------------------------------------------


def crossbones_of(faces: Sequence[int]) -> list[str]:
    """Every Crossbones the four Bones show, rarest first, under the readings of SB-6:

    - Daggers / Dubloons: **at least** two 1s / 20s («{1, 1, x, x}», x any value);
    - Jacob's Ladder: **any** run of four («{7-8-9-10}» is an example: only any run gives the
      stated 0.255 %);
    - Thirteen Thrice: at least three 13s;
    - Rum Runner: four of a kind of **any** value (only that gives the stated 1:8,000).
    """
    count = Counter(faces)
    return [name for name, shows in _CROSSBONES_CHECKS if shows(count)]


def _check(combination: Crossbones) -> Callable[[Counter[int]], bool]:
    """Whether a count of the faces shows ``combination``, as a function made once."""
    if isinstance(combination, AtLeast):
        face, least = combination.face, combination.count
        return lambda count: count[face] >= least
    if isinstance(combination, AllAlike):
        return lambda count: len(count) == 1
    return lambda count: len(count) == BONES and max(count) - min(count) == BONES - 1  # a run


_CROSSBONES_CHECKS = tuple((c.name, _check(c)) for c in DATA.crossbones)


def crossbones_name(faces: Sequence[int]) -> str | None:
    """The Crossbones a roll is called by (the rarest it shows), or None."""
    found = crossbones_of(faces)
    return found[0] if found else None


# -- the reading ------------------------------------------------------------------------------


class OmenGroup(BaseModel):
    """Matching Bones: ``size`` Bones showing ``face``, all in ``tier``."""

    model_config = ConfigDict(frozen=True)
    face: int
    size: int
    tier: Tier


class BoneView(BaseModel):
    model_config = ConfigDict(frozen=True)
    face: int
    tier: Tier
    #: part of a matching group (Ill Omens)
    omen: bool
    #: a 20 (Bane)
    bane: bool
    #: a 1 (Blessing)
    blessing: bool


class BonesReading(BaseModel):
    """One roll of the four Bones, read and its bet worked out step by step.

    ``tiers`` counts the Bones per tier (one coin each), ``after_omens`` applies Ill Omens,
    ``after_bane`` the Bane, ``final`` the Tide; ``bet`` is ``final`` in copper."""

    model_config = ConfigDict(frozen=True)
    faces: tuple[int, int, int, int]
    bones: tuple[BoneView, ...]
    tide: int
    rule: IllOmensRule
    tiers: TierCoins
    omens: tuple[OmenGroup, ...]
    after_omens: TierCoins
    bane: bool
    after_bane: TierCoins
    blessing: bool
    final: TierCoins
    bet: int
    crossbones: str | None
    crossbones_all: tuple[str, ...]
    steps: tuple[str, ...]

    @property
    def ill_omens(self) -> bool:
        return bool(self.omens)

    @property
    def stones(self) -> int:
        """Stones the roller throws: «Any 1 (Bones) → may roll two Stones to match either»."""
        return 2 if self.blessing else 1

    def floats(self, stone: int) -> bool:
        """«Float = Stone matches any Bone»."""
        return stone in self.faces

    def summary(self) -> str:
        """One line: faces, bet and what shows, e.g. ``2 2 4 12 → 6 cp, 1 gp (1 gp 6 cp)``."""
        return throw_of(self.faces, self.tide, self.rule).summary()


_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}


def _omen_text(group: OmenGroup) -> str:
    return f"{_COUNT_WORDS[group.size]} {group.face}s ×{group.size}"


class Throw(NamedTuple):
    """The numbers of one throw of the Bones without the words: what play needs, made fast
    (a BonesReading, with its steps in words, is for showing)."""

    faces: tuple[int, ...]
    #: coins of each tier (copper, silver, gold) after Ill Omens, Bane and the Tide
    final: tuple[int, int, int]
    bet: int
    bane: bool
    blessing: bool
    ill_omens: bool
    crossbones: str | None

    @property
    def stones(self) -> int:
        return 2 if self.blessing else 1

    def floats(self, stone: int) -> bool:
        return stone in self.faces

    def summary(self) -> str:
        """One line: faces, bet and what shows, e.g. ``2 2 4 12 → 6 cp, 1 gp (1 gp 6 cp)``."""
        marks = [name for name, on in (("Ill Omens", self.ill_omens), ("Bane", self.bane),
                                       ("Blessing", self.blessing)) if on]
        if self.crossbones:
            marks.insert(0, f"Crossbones: {self.crossbones}")
        extra = f" · {', '.join(marks)}" if marks else ""
        tiers = ", ".join(f"{n} {TIER_ABBR[t]}" for t, n in zip(TIERS, self.final, strict=True) if n) or "0 cp"
        return f"{' '.join(map(str, self.faces))} → {tiers} ({coins(self.bet)}){extra}"


def throw_of(faces: Sequence[int], tide: int = 1, rule: IllOmensRule = "product") -> Throw:
    """The same numbers as ``read_bones`` (the tests check every roll), fast: the Tide-1
    numbers are cached per multiset of faces (8,855 of them), then scaled by the Tide."""
    faces = tuple(faces)
    if len(faces) != BONES:
        raise ValueError("a roll of the Bones is four d20")
    if tide < 1:
        raise ValueError("the Tide starts at 1")
    (copper, silver, gold), bane, blessing, omens, name = _tide_1(tuple(sorted(faces)), rule)
    final = (copper * tide, silver * tide, gold * tide)
    return Throw(faces, final, final[0] * _CU + final[1] * _AG + final[2] * _AU, bane, blessing,
                 omens, name)


@lru_cache(maxsize=1 << 15)
def _tide_1(faces: tuple[int, ...], rule: IllOmensRule
            ) -> tuple[tuple[int, int, int], bool, bool, bool, str | None]:
    count = Counter(faces)
    amounts = [0, 0, 0]
    factor = [1, 1, 1]
    for face, n in count.items():
        tier = TIERS.index(tier_of(face))
        amounts[tier] += n
        if n >= 2:
            factor[tier] = factor[tier] * n if rule == "product" else max(factor[tier], n)
    scale = 2 if BANE in count else 1
    final = (amounts[0] * factor[0] * scale, amounts[1] * factor[1] * scale,
             amounts[2] * factor[2] * scale)
    return final, BANE in count, BLESSING in count, len(count) < BONES, crossbones_name(faces)


def bet_of(faces: Sequence[int], tide: int = 1, rule: IllOmensRule = "product") -> int:
    """The bet of a roll in copper: ``read_bones(...).bet`` without the words (fast)."""
    return throw_of(faces, tide, rule).bet


def read_bones(faces: Sequence[int], tide: int = 1, rule: IllOmensRule = "product") -> BonesReading:
    """Read four Bones at a Tide (see ``_read_bones``); readings are cached, being frozen."""
    return _read_bones(tuple(faces), tide, rule)


@lru_cache(maxsize=1 << 14)
def _read_bones(faces: tuple[int, ...], tide: int, rule: IllOmensRule) -> BonesReading:
    """Read four Bones at a Tide: tiers, Ill Omens, Bane, Blessing, Crossbones and the bet.

    SB-5: two matching groups in one tier multiply it by each group's size (``product``: 3,3,5,5
    is ×4), or only by the largest (``max_group``: ×2). Bane doubles the whole bet once, for
    one 20 or several. The golden cases of RULINGS 5.5 hold: (20,2,4,2) is 12 cp, 2 gp, not the
    rulebook's «12cp, 4gp»; (10,10,12,12) is 4 sp, 4 gp, not «4sp, 1gp».
    """
    if len(faces) != BONES:
        raise ValueError("a roll of the Bones is four d20")
    if tide < 1:
        raise ValueError("the Tide starts at 1")
    tiers_of = [tier_of(face) for face in faces]
    count = Counter(faces)
    base = TierCoins(**{t: tiers_of.count(t) for t in TIERS})
    groups = tuple(OmenGroup(face=face, size=n, tier=tier_of(face))
                   for face, n in sorted(count.items()) if n >= 2)
    factor = {t: 1 for t in TIERS}
    steps = ["Tiers: " + "; ".join(
        f"{', '.join(str(f) for f in faces if tier_of(f) == t)} → {base.get(t)} {TIER_ABBR[t]}"
        for t in TIERS if base.get(t))]
    for tier in TIERS:
        in_tier = [g for g in groups if g.tier == tier]
        if not in_tier:
            continue
        if rule == "product":
            for group in in_tier:
                factor[tier] *= group.size
        else:
            factor[tier] = max(g.size for g in in_tier)
        what = " and ".join(_omen_text(g) for g in in_tier)
        if rule == "max_group" and len(in_tier) > 1:
            what += " (largest group only)"
        steps.append(f"Ill Omens on {tier.capitalize()} ({what}): {base.get(tier)} {TIER_ABBR[tier]}"
                     f" × {factor[tier]} = {base.get(tier) * factor[tier]} {TIER_ABBR[tier]}")
    after_omens = TierCoins(**{t: base.get(t) * factor[t] for t in TIERS})
    bane = BANE in count
    after_bane = after_omens.times(2) if bane else after_omens
    if bane:
        steps.append(f"Bane (a 20): ({after_omens.text()}) × 2 = {after_bane.text()}")
    final = after_bane.times(tide)
    steps.append(f"× Tide {tide} = {final.text()} = {coins(final.cp)}")
    blessing = BLESSING in count
    if blessing:
        steps.append("Blessing (a 1): two Stones")
    found = crossbones_of(faces)
    if found:
        steps.append("Crossbones: " + " and ".join(found))
    return BonesReading(
        faces=tuple(faces),
        bones=tuple(BoneView(face=f, tier=tier_of(f), omen=count[f] >= 2, bane=f == BANE,
                             blessing=f == BLESSING) for f in faces),
        tide=tide,
        rule=rule,
        tiers=base,
        omens=groups,
        after_omens=after_omens,
        bane=bane,
        after_bane=after_bane,
        blessing=blessing,
        final=final,
        bet=final.cp,
        crossbones=found[0] if found else None,
        crossbones_all=tuple(found),
        steps=tuple(steps),
    )


#: the exact mean bet at Tide 1 over all 160,000 rolls, in copper, as a sum over the rolls
#: (RULINGS Appendix A: 313.32 cp with the product rule, 311.67 cp with the largest group)
BET_SUM_TIDE_1: dict[IllOmensRule, int] = {"product": 50_131_560, "max_group": 49_867_080}


def expected_bet(tide: int = 1, rule: IllOmensRule = "product") -> float:
    """The mean bet of one roll at ``tide``, in copper (Tide 1, product rule: 313.32 cp)."""
    return BET_SUM_TIDE_1[rule] * tide / FACES**BONES


def bet_sum_by_enumeration(rule: IllOmensRule) -> int:
    """The total of the Tide-1 bets of all 160,000 rolls, by counting the 8,855 multisets of
    four faces with their number of orderings (what BET_SUM_TIDE_1 records)."""
    total = 0
    for roll in combinations_with_replacement(range(1, FACES + 1), BONES):
        orders = factorial(BONES) // prod(factorial(n) for n in Counter(roll).values())
        total += orders * throw_of(roll, 1, rule).bet
    return total
