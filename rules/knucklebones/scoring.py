"""What a roll scores on each item of the sheet (KB-1, KB-3, KB-6), and the timeout's item."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from rules.knucklebones.models import ITEMS, Die, KnucklebonesState, ScoreItem

#: what scoring sees of a roll: (rune, times doubled) of every die that counts
Hand = tuple[tuple[int, int], ...]


def hand_of(dice: Iterable[Die]) -> Hand:
    """KB-1: only unspent active dice count."""
    return tuple((d.face, d.doubled) for d in dice if d.counts and d.face is not None)


def _rune_counts(hand: Hand) -> Counter[int]:
    counts: Counter[int] = Counter()
    for face, doubled in hand:
        counts[face] += 2**doubled  # KB-3: a doubled die is two dice of its rune
    return counts


def item_of(item: ScoreItem | str) -> ScoreItem:
    return ITEMS[item] if isinstance(item, str) else item


# A roll has few possible hands (seven dice of six runes), and a table's preview, its list of
# met items and the AI ask of the same hands over and over: the recent answers are kept.
@lru_cache(maxsize=8192)
def hand_meets(hand: Hand, item: ScoreItem | str) -> bool:
    item = item_of(item)
    if item.distinct is not None:
        faces = [face for face, _ in hand]
        return (
            len(faces) >= item.distinct  # KB-6: a minimum, or one die would be "all different"
            and len(set(faces)) == len(faces)
            and all(doubled == 0 for _, doubled in hand)  # KB-1: «none doubled»
        )
    if item.groups:
        # KB-6: each group from a different rune; pairing the largest groups with the largest
        # counts is enough to know whether any assignment exists.
        counts = sorted(_rune_counts(hand).values(), reverse=True)
        return len(counts) >= len(item.groups) and all(c >= n for c, n in zip(counts, item.groups, strict=False))
    return True


@lru_cache(maxsize=8192)
def hand_points(hand: Hand, item: ScoreItem | str) -> int:
    item = item_of(item)
    if not hand_meets(hand, item):
        return 0
    if item.points == "sum":
        return sum(face * 2**doubled for face, doubled in hand)  # KB-3: counts twice for Wild
    return item.points


def meets(dice: Iterable[Die], item: ScoreItem | str) -> bool:
    return hand_meets(hand_of(dice), item)


def evaluate(dice: Iterable[Die], item: ScoreItem | str) -> int:
    """Points ``item`` would score with these dice (0 when its requirement is not met)."""
    return hand_points(hand_of(dice), item)


def in_sheet_order(keys: Iterable[str] | None) -> list[str]:
    if keys is None:
        return list(ITEMS)
    wanted = set(keys)
    return [key for key in ITEMS if key in wanted]


def best_item(dice: Iterable[Die], open_items: Iterable[str] | None = None) -> tuple[str, int]:
    """The open item scoring most now (the first on the sheet among equals)."""
    hand = hand_of(dice)
    keys = in_sheet_order(open_items)
    if not keys:
        raise ValueError("no open item")
    return max(((key, hand_points(hand, key)) for key in keys), key=lambda kv: kv[1])


def timeout_item(dice: Iterable[Die], open_items: Iterable[str]) -> str:
    """RULINGS 4.3: the highest-value met item; else Wild; else the cheapest open item for 0.

    Wild-type ("sum") items are left out of the first step: they are always met, so the
    ruling's "Wild if none is met" only makes sense if the first step means the fixed items."""
    hand = hand_of(dice)
    items = [ITEMS[key] for key in in_sheet_order(open_items)]
    if not items:
        raise ValueError("no open item")
    fixed = [i for i in items if isinstance(i.points, int)]
    met = [i for i in fixed if hand_meets(hand, i)]
    if met:
        return max(met, key=lambda i: i.points).key
    sums = [i for i in items if i.points == "sum"]
    if sums:
        return sums[0].key
    return min(fixed, key=lambda i: i.points).key


def totals(state: KnucklebonesState) -> list[int]:
    return [sum(filter(None, sheet.values())) for sheet in state.sheets]  # an open item is None
