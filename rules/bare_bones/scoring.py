"""Scoring a roll: pure functions of the dice, the turn's pattern card and the blocks in force.

Every pattern choice the rulings allow (BB-8, BB-9, BB-11, BB-12) is enumerated as a set of
doubled dice (and, for Odds or Evens, removed dice); the player picks among the distinct results.
With at most 6 dice there are at most 64 subsets, so brute force is both the simplest and the
most obviously correct way to honour «No die may be part of more than 1 pair».
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rules.bare_bones.cards import COIN_COLOUR, Pattern, colour_name

Conversion = Literal["point_pro", "straight_cash"]
#: what scoring sees of a die: (colour, number showing)
Rolled = tuple[str, int]


class ScoreOption(BaseModel):
    """One way to score the roll. Indices are positions in the turn's list of dice."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    doubled: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    points: int
    coins: int
    #: what the player chooses, in words ("double Yellow 4, Yellow 4"; "keep evens")
    label: str


def die_text(die: Rolled) -> str:
    return f"{colour_name(die[0])} {die[1]}"


def live_dice(dice: Sequence[Rolled], blocked: Iterable[int]) -> list[int]:
    """BB-12: a die showing a blocked number scores 0 and joins no pattern."""
    stop = set(blocked)
    return [i for i, (_, value) in enumerate(dice) if value not in stop]


def double(value: int) -> int:
    """What a multiplier does to a die: its number counts twice."""
    return 2 * value


def tally(dice: Sequence[Rolled], doubled: Iterable[int], removed: Iterable[int],
          blocked: Iterable[int], conversion: Conversion | None = None) -> tuple[int, int]:
    """(points, coins) of the roll: White dice give coins, the others points; a doubled die
    counts twice; BB-14: the conversion applies to these dice values only, after doubling."""
    twice, gone = set(doubled), set(removed)
    points = coins = 0
    for i in live_dice(dice, blocked):
        if i in gone:
            continue
        colour, value = dice[i]
        if i in twice:
            value = double(value)
        if colour == COIN_COLOUR:
            coins += value
        else:
            points += value
    if conversion == "point_pro":
        return points + coins, 0
    if conversion == "straight_cash":
        return 0, points + coins
    return points, coins


# -- the patterns ------------------------------------------------------------------------------


def _subsets(indices: Sequence[int]) -> Iterable[tuple[int, ...]]:
    for size in range(len(indices), -1, -1):
        yield from combinations(indices, size)


def _groups_of(dice: Sequence[Rolled], live: Sequence[int], size: int) -> list[tuple[int, ...]]:
    """BB-8: a maximum set of disjoint pairs (size 2) or triplets (size 3) is required; the
    player picks which dice of a number make up its groups when there are spare ones."""
    counts = Counter(dice[i][1] for i in live)
    wanted = {value: size * (n // size) for value, n in counts.items()}
    if not any(wanted.values()):
        return [()]
    found = []
    for subset in _subsets(live):
        if len(subset) != sum(wanted.values()):
            continue
        if Counter(dice[i][1] for i in subset) == +Counter(wanted):
            found.append(subset)
    return found


def _is_run(values: Sequence[int]) -> bool:
    return len(values) >= 3 and len(set(values)) == len(values) and max(values) - min(values) == len(values) - 1


def _splits_into_runs(values: list[int]) -> bool:
    """Whether a multiset of numbers is a union of runs of 3 or more distinct consecutive
    numbers (the option that lets several runs count)."""
    if not values:
        return True
    values = sorted(values)
    low = values[0]
    for length in range(3, 7):
        run = list(range(low, low + length))
        rest = Counter(values) - Counter(run)
        if sum(rest.values()) == len(values) - length and _splits_into_runs(list(rest.elements())):
            return True
    return False


def _runs(dice: Sequence[Rolled], live: Sequence[int], several: bool) -> list[tuple[int, ...]]:
    """BB-8: one run of distinct consecutive numbers, one die per number, at least 3 dice, as
    long as the numbers shown allow (a player never stops a run short). With ``several``: any
    set of disjoint runs to which no further run can be added."""
    valid = []
    for subset in _subsets(live):
        values = [dice[i][1] for i in subset]
        if several:
            if subset and _splits_into_runs(values):
                valid.append(subset)
        elif _is_run(values):
            shown = {dice[i][1] for i in live}
            if min(values) - 1 not in shown and max(values) + 1 not in shown:
                valid.append(subset)
    if several:
        sets = [set(v) for v in valid]
        valid = [v for v, s in zip(valid, sets, strict=True) if not any(s < other for other in sets)]
    return valid or [()]


def _full_houses(dice: Sequence[Rolled], live: Sequence[int]) -> list[tuple[int, ...]]:
    """BB-11: a pair and a triplet of two different numbers (five alike is not one); with 6
    dice the player picks the 5."""
    found: list[tuple[int, ...]] = [subset for subset in combinations(live, 5)
             if sorted(Counter(dice[i][1] for i in subset).values()) == [2, 3]]
    return found or [()]


def _colours_cubed(dice: Sequence[Rolled], live: Sequence[int]) -> tuple[int, ...]:
    """BB-9: every colour with 3 or more dice doubles all its dice (the colour of the die
    actually rolled). BB-12: a blocked die was still rolled, so it counts toward the 3; only
    the live ones are doubled, a blocked die scoring 0 either way."""
    counts = Counter(colour for colour, _ in dice)
    return tuple(i for i in live if counts[dice[i][0]] >= 3)


def choices(dice: Sequence[Rolled], pattern: Pattern | None, blocked: Iterable[int] = (),
            run_multiple: bool = False) -> list[tuple[tuple[int, ...], tuple[int, ...], str]]:
    """Every legal (doubled, removed, words) for the turn's pattern, before outcomes are
    compared. Doubling is never optional: the card's instructions must be followed."""
    live = live_dice(dice, blocked)

    def doubling(subset: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], str]:
        words = ("double " + ", ".join(die_text(dice[i]) for i in subset)) if subset else "nothing doubles"
        return subset, (), words

    if pattern is None:
        return [((), (), "plain roll")]
    if pattern == "pairs":
        return [doubling(s) for s in _groups_of(dice, live, 2)]
    if pattern == "triplets":
        return [doubling(s) for s in _groups_of(dice, live, 3)]
    if pattern == "run":
        return [doubling(s) for s in _runs(dice, live, run_multiple)]
    if pattern == "full_house":
        return [doubling(s) for s in _full_houses(dice, live)]
    if pattern == "color_cubed":
        return [doubling(_colours_cubed(dice, live))]
    if pattern == "rainbow":  # BB-12: blocked dice were rolled too, so they count toward the 3
        return [doubling(tuple(live) if len(dice) >= 3 else ())]
    if pattern == "odds_or_evens":
        odd = tuple(i for i in live if dice[i][1] % 2)
        even = tuple(i for i in live if not dice[i][1] % 2)
        return [(even, odd, "remove the odd dice, double the evens"),
                (odd, even, "remove the even dice, double the odds")]
    raise AssertionError(pattern)


def score_options(dice: Sequence[Rolled], pattern: Pattern | None, blocked: Iterable[int] = (),
                  conversion: Conversion | None = None, run_multiple: bool = False
                  ) -> list[ScoreOption]:
    """The distinct results a player may choose between, best first (most points and coins
    together, then most points). Choices with the same result are one option."""
    blocked = tuple(blocked)
    seen: dict[tuple[int, int], ScoreOption] = {}
    for doubled, removed, words in choices(dice, pattern, blocked, run_multiple):
        points, coins = tally(dice, doubled, removed, blocked, conversion)
        seen.setdefault((points, coins), ScoreOption(
            doubled=tuple(sorted(doubled)), removed=tuple(sorted(removed)), points=points,
            coins=coins, label=words))
    return sorted(seen.values(), key=lambda o: (-(o.points + o.coins), -o.points, o.doubled))


def working(dice: Sequence[Rolled], option: ScoreOption, blocked: Iterable[int] = (),
            conversion: Conversion | None = None) -> str:
    """The scorekeeper's working, as the rulebook writes it: "(4 x 2) Red + 2 Blue = 10 points;
    (4 x 2) White + 5 White = 13 coins"."""
    stop = set(blocked)
    twice, gone = set(option.doubled), set(option.removed)
    point_terms: list[str] = []
    coin_terms: list[str] = []
    notes: list[str] = []
    for i, (colour, value) in enumerate(dice):
        name = colour_name(colour)
        if value in stop:
            notes.append(f"{name} {value} blocked")
            continue
        if i in gone:
            notes.append(f"{name} {value} removed")
            continue
        term = f"({value} x 2) {name}" if i in twice else f"{value} {name}"
        (coin_terms if colour == COIN_COLOUR else point_terms).append(term)
    points, coins = tally(dice, option.doubled, option.removed, blocked, None)
    parts = [f"{' + '.join(point_terms)} = {points} points" if point_terms else "0 points",
             f"{' + '.join(coin_terms)} = {coins} coins" if coin_terms else "0 coins"]
    text = "; ".join(parts)
    if conversion == "point_pro":
        text += f" → Point Pro: {points + coins} points"
    elif conversion == "straight_cash":
        text += f" → Straight Cash: {points + coins} coins"
    if notes:
        text += " (" + ", ".join(notes) + ")"
    return text
