"""A bot player for Bare Bones: plain, sensible, never stuck.

It plays every Dice Card; draws first (Greed, then a drawing multiplier, Hot Potato); holds one
multiplier a turn where it should pay; uses the re-rolls on dice showing less than their
colour's average; takes the scoring choice worth most (coins count fully until the late rounds,
when they can no longer buy much); buys the best Dice Card it can afford and, now and then, an
Action; passes Hot Potatoes to the leader and always makes a bonus match it can. The only
randomness is "now and then", drawn from ``choose`` (seeded by the host, outside the state).
"""

from __future__ import annotations

from collections import Counter

from rules.base import Chooser
from rules.bare_bones.cards import BY_KEY, CARDS, COIN_COLOUR, mean_value
from rules.bare_bones.models import BareBonesAction, BareBonesState
from rules.bare_bones.moves import legal_actions
from rules.bare_bones.table import sources, turn_of

LATE = 10  # from this round coins buy little that still pays back

#: the multipliers, best first, with the least number of dice each needs to be worth 3 AU
MULTIPLIERS = (("full_house", 0), ("color_cubed", 4), ("pairs", 3), ("triplets", 4),
               ("run", 4), ("odds_or_evens", 3), ("rainbow", 3))


def _card(action: BareBonesAction) -> str:
    return action.card or ""


def _dice_in_reach(s: BareBonesState, seat: int) -> list[str]:
    """The colours of the Dice Cards in play and in hand: what this turn will roll."""
    t = turn_of(s)
    held = [CARDS[c].colour or "" for c in s.players[seat].hand if CARDS[c].is_dice]
    return [c for _, c in sources(t)] + held


def _play(s: BareBonesState, seat: int, legal: list[BareBonesAction], choose: Chooser
          ) -> BareBonesAction:
    t = turn_of(s)
    by_kind: dict[str, BareBonesAction] = {}
    for a in legal:
        if a.kind == "play":
            by_kind.setdefault(BY_KEY[_card(a)].kind, a)
    reach = _dice_in_reach(s, seat)
    multiplier_played = any(k in t.actions for k, _ in MULTIPLIERS)
    if "greed" in by_kind:
        return by_kind["greed"]
    if not multiplier_played:
        for kind, need in MULTIPLIERS:
            if kind not in by_kind or len(reach) < need:
                continue
            if kind == "rainbow" and len(set(reach)) < max(3, len(reach) - 1):
                continue
            return by_kind[kind]
    if "hot_potato" in by_kind:
        return by_kind["hot_potato"]
    dice = [a for a in legal if a.kind == "play" and BY_KEY[_card(a)].is_dice]
    if dice:
        return max(dice, key=lambda a: BY_KEY[_card(a)].cost)
    red = next((a for a in legal if a.kind == "red_draw"), None)
    if red is not None:
        return red
    wanted = ["mimic", "re_re_roll", "keep_the_change", "cant_touch_this", "joyride"]
    if len(sources(t)) <= 4:
        wanted.insert(0, "double_up")
    if s.round <= LATE:
        wanted.append("loan_shark")
    if s.round >= LATE:
        wanted.append("point_pro")
    if s.round <= 4:
        wanted.append("straight_cash")
    hand = [CARDS[c] for c in s.players[seat].hand]
    if s.round >= 8 and any(c.kind == COIN_COLOUR for c in hand):
        wanted.append("yard_sale")
    if s.round < 9 and sum(c.base for c in hand) >= 2:
        wanted.append("swap_meet")
    for kind in wanted:
        if kind in by_kind:
            return by_kind[kind]
    return next(a for a in legal if a.kind == "roll")


def _full_house_keep(values: list[int]) -> set[int]:
    """The dice to keep aiming at a Full House: up to 3 of the commonest number, 2 of the next."""
    counts = Counter(values)
    ranked = sorted(counts, key=lambda v: (-counts[v], -v))
    keep: set[int] = set()
    for value, room in zip(ranked, (3, 2), strict=False):
        keep |= set([i for i, v in enumerate(values) if v == value][:room])
    return keep


def _answer(s: BareBonesState, seat: int, legal: list[BareBonesAction], choose: Chooser
            ) -> BareBonesAction:
    q = s.pending
    assert q is not None
    t = turn_of(s)
    if q.kind in ("mimic", "double_up", "joyride_card"):
        return max(legal, key=lambda a: mean_value(a.colour or ""))
    if q.kind == "leave_out":
        return min(legal, key=lambda a: mean_value(a.colour or ""))
    if q.kind == "loan":
        return next((a for a in legal if a.kind == "loan" and a.amount == 3), legal[0])
    if q.kind == "yard_sale":
        def sale(a: BareBonesAction) -> tuple[bool, int]:
            c = BY_KEY[_card(a)]
            return (c.kind == COIN_COLOUR, -c.fpv)
        return max(legal, key=sale)
    if q.kind == "swap_give":
        for a in legal:
            c = BY_KEY[_card(a)] if a.card else None
            if c is not None and c.is_dice and c.kind in ("blue", COIN_COLOUR) and len(q.marked) < 3:
                return a
        return legal[-1]
    if q.kind == "swap_take":
        return max(legal, key=lambda a: (BY_KEY[_card(a)].is_dice, BY_KEY[_card(a)].cost))
    if q.kind == "purple":
        return legal[0]
    if q.kind == "full_house":
        keep = _full_house_keep([d.value for d in t.dice])
        for a in legal:
            if a.kind == "fh_mark" and a.die not in keep:
                return a
        return legal[-1]
    if q.kind == "pattern":
        weight = 1.0 if s.round < LATE else 0.5
        return max(legal, key=lambda a: (q.options[a.index or 0].points
                                         + weight * q.options[a.index or 0].coins))
    if q.kind == "potato":
        others = [a for a in legal if (a.seat or 0) >= 0]
        return max(others, key=lambda a: (s.players[a.seat or 0].score, -others.index(a)))
    return legal[0]  # joyride_seat: the next opponent


def _reroll(s: BareBonesState, legal: list[BareBonesAction]) -> BareBonesAction:
    t = turn_of(s)
    kinds = {a.kind for a in legal}
    if "green" in kinds:
        greens = [d.value for d in t.dice if d.colour == "green"]
        if sum(v < 3.5 for v in greens) > len(greens) / 2:
            return next(a for a in legal if a.kind == "green")
    if "reroll" in kinds:
        gains = [(mean_value(d.colour) - d.value, i) for i, d in enumerate(t.dice)]
        gain, index = max(gains)
        if gain > 0.5:
            return next(a for a in legal if a.kind == "reroll" and a.die == index)
    if "full_house" in kinds:
        values = Counter(d.value for d in t.dice)
        if sorted(values.values())[-2:] != [2, 3]:
            return next(a for a in legal if a.kind == "full_house")
    return legal[-1]


def _buy(s: BareBonesState, legal: list[BareBonesAction], choose: Chooser) -> BareBonesAction:
    buys = [a for a in legal if a.kind == "buy"]
    dice = [a for a in buys if BY_KEY[_card(a)].is_dice and
            (BY_KEY[_card(a)].kind != COIN_COLOUR or s.round <= 4)]
    actions = [a for a in buys if not BY_KEY[_card(a)].is_dice and BY_KEY[_card(a)].kind != "hot_potato"]
    if actions and s.round < LATE and choose([True, False, False]):  # type: ignore[type-var]
        return max(actions, key=lambda a: BY_KEY[_card(a)].cost)
    if dice:
        return max(dice, key=lambda a: (BY_KEY[_card(a)].cost, BY_KEY[_card(a)].fpv))
    return legal[-1]


def choose_action(s: BareBonesState, seat: int, choose: Chooser) -> BareBonesAction | None:
    """The bot's move for ``seat``; None when nothing waits for it."""
    legal = legal_actions(s, seat)
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    if s.phase == "draft":
        dice = [a for a in legal if BY_KEY[_card(a)].is_dice]
        actions = [a for a in legal if not BY_KEY[_card(a)].is_dice
                   and BY_KEY[_card(a)].kind not in ("hot_potato", "loan_shark")]
        if actions and choose([True, False, False]):  # type: ignore[type-var]
            return max(actions, key=lambda a: BY_KEY[_card(a)].cost)
        return max(dice or legal, key=lambda a: (BY_KEY[_card(a)].cost, BY_KEY[_card(a)].fpv))
    if s.pending is not None:
        return _answer(s, seat, legal, choose)
    stage = turn_of(s).stage
    if stage == "match":
        return legal[0]
    if stage == "play":
        return _play(s, seat, legal, choose)
    if stage == "reroll":
        return _reroll(s, legal)
    if stage == "buy":
        return _buy(s, legal, choose)
    return legal[0]
