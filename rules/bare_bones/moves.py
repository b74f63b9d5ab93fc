"""Who decides and what they may do: one seat at a time, the drafter in the Draft and the player
whose turn it is otherwise (for every question a card asks, and for the bonus match of the cards
the player before left). ``legal_actions`` is the one list the UI, the checks, bot seats and
fuzzers use; ``timeout_action`` the ruling's default among it."""

from __future__ import annotations

from rules.bare_bones import effects
from rules.bare_bones.cards import BY_KEY, CARDS, DICE_CARDS, draftable_kind, mean_value
from rules.bare_bones.models import BareBonesAction, BareBonesState, action_of
from rules.bare_bones.table import (
    au_left,
    can_draw,
    colour_order,
    hand_keys,
    has_ability,
    me,
    planned_dice,
    red_draws_left,
    sources,
    supply_keys,
    turn_of,
)


def drafter(s: BareBonesState) -> int:
    """«Beginning with Player 1 and rotating to the left, players draft 1 card at a time.»"""
    return s.order[len(s.picks) % s.seats]


def seat_to_act(s: BareBonesState) -> int | None:
    if s.phase == "over":
        return None
    if s.phase == "draft":
        return drafter(s)
    return turn_of(s).seat


def to_act(s: BareBonesState) -> list[int]:
    seat = seat_to_act(s)
    return [] if seat is None else [seat]


def opponents(s: BareBonesState, seat: int) -> list[int]:
    """The other seats in play order, starting with the one to ``seat``'s left."""
    at = s.order.index(seat)
    return [s.order[(at + i) % s.seats] for i in range(1, s.seats)]


def draft_keys(s: BareBonesState) -> list[str]:
    return [k for k in supply_keys(s) if draftable_kind(BY_KEY[k].kind, s.options.draft_white)]


def matchable(s: BareBonesState) -> list[str]:
    """BB-7: only a real Dice Card from the hand can match, one a set offered."""
    t = turn_of(s)
    held = {CARDS[c].colour for c in me(s).hand if CARDS[c].is_dice}
    return [colour for colour in t.offers if colour not in t.matched and colour in held]


def can_play(s: BareBonesState, key: str) -> bool:
    """Dice Cards cost no Action Units (BB-5); an Action must fit in the 5 AU left, Point Pro
    and Straight Cash exclude each other, a second Double Up is not allowed (BB-10), and a
    Mimic needs a Dice Card in play to copy."""
    c = BY_KEY[key]
    if c.is_dice:
        return True
    t = turn_of(s)
    if c.au > au_left(t):
        return False
    if c.kind == "point_pro" and "straight_cash" in t.actions:
        return False
    if c.kind == "straight_cash" and "point_pro" in t.actions:
        return False
    if c.kind == "double_up" and "double_up" in t.actions:
        return False
    if c.kind == "mimic" and not sources(t):
        return False
    return True


def buy_keys(s: BareBonesState) -> list[str]:
    """«Players may not buy more than 1 copy of any given card per turn» (BB-12: Can't Touch
    This is one card name, whichever colour)."""
    t = turn_of(s)
    left = t.coins - t.spent
    return [k for k in supply_keys(s) if BY_KEY[k].kind not in t.bought and BY_KEY[k].cost <= left]


def answers(s: BareBonesState) -> list[BareBonesAction]:
    """The possible answers to the question held in the state."""
    q = s.pending
    assert q is not None
    t = turn_of(s)
    if q.kind == "mimic":
        return [action_of("mimic", colour=c) for c in effects.mimic_colours(s)]
    if q.kind == "joyride_seat":
        return [action_of("joyride_seat", seat=o) for o in opponents(s, t.seat)]
    if q.kind == "joyride_card":
        assert q.target is not None
        return [action_of("joyride_card", colour=c) for c in effects.joyride_colours(s, q.target)]
    if q.kind == "loan":
        amounts = effects.loan_amounts(s, q.more)
        more = [] if q.more or not effects.loan_has_more(s) else [action_of("loan_more", amount=amounts[-1] + 1)]
        return [action_of("loan", amount=n) for n in amounts] + more
    if q.kind == "yard_sale":
        return [action_of("sell", card=k) for k in hand_keys(s.players[t.seat].hand)]
    if q.kind == "swap_give":
        return ([action_of("swap_give", card=k) for k in hand_keys(s.players[t.seat].hand)]
                + [action_of("swap_done")])
    if q.kind == "swap_take":
        return [action_of("swap_take", card=k)
                for k in effects.swap_take_keys(s, effects.swap_value(q))]
    if q.kind == "double_up":
        return [action_of("double_up", colour=c) for c in effects.double_up_colours(s)]
    if q.kind == "purple":
        return [action_of("purple", choice="purple"), action_of("purple", choice="blue_red")]
    if q.kind == "leave_out":
        return [action_of("leave_out", colour=c) for c in colour_order(planned_dice(s))]
    if q.kind == "full_house":
        return ([action_of("fh_mark", die=i) for i in range(len(t.dice)) if i not in q.marked]
                + [action_of("fh_roll")])
    if q.kind == "pattern":
        return [action_of("pattern", index=i) for i in range(len(q.options))]
    if q.kind == "potato":
        return ([action_of("potato", seat=-1)]
                + [action_of("potato", seat=o) for o in opponents(s, t.seat)])
    raise AssertionError(q.kind)


def legal(s: BareBonesState) -> list[BareBonesAction]:
    """What the seat in ``to_act`` may do now."""
    if s.phase == "draft":
        return [action_of("draft", card=k) for k in draft_keys(s)]
    if s.pending is not None:
        return answers(s)
    t = turn_of(s)
    if t.stage == "match":
        return [action_of("match", colour=c) for c in matchable(s)] + [action_of("no_match")]
    if t.stage == "play":
        plays = [action_of("play", card=k) for k in hand_keys(s.players[t.seat].hand)
                 if can_play(s, k)]
        if red_draws_left(t) > 0 and can_draw(s, t.seat):
            plays.append(action_of("red_draw"))
        return plays + [action_of("roll")]
    if t.stage == "reroll":
        found: list[BareBonesAction] = []
        if (not t.green_used and has_ability(t, "green_reroll")
                and any(d.colour == "green" for d in t.dice)):
            found.append(action_of("green"))
        if t.rerolls > 0:
            found += [action_of("reroll", die=i) for i in range(len(t.dice))]
        if t.second_roll == "open" and t.dice:
            found.append(action_of("full_house"))
        return found + [action_of("rerolls_done")]
    if t.stage == "buy":
        return [action_of("buy", card=k) for k in buy_keys(s)] + [action_of("buy_done")]
    raise AssertionError(f"no decision in stage {t.stage}")


def legal_actions(s: BareBonesState, seat: int) -> list[BareBonesAction]:
    """Deterministic; one button or option per kind of card, colour, die or opponent, at most
    25, except Loan Shark's larger amounts, every one from above the dearest card to the cap
    (BB-13; see ``effects.loan_amounts``)."""
    if seat != seat_to_act(s):
        return []
    return legal(s)


def timeout_action(s: BareBonesState, seat: int) -> BareBonesAction | None:
    """RULINGS 1.3: play all Dice Cards and no Actions, no re-rolls, the best scoring
    choice, buy nothing, skip the bonus match; in the Draft the highest-cost draftable
    Dice Card. A question a card played before the timeout is still asking gets the answer
    that costs the player least (see ``text.rules_summary``). None when the seat owes nothing."""
    options = legal_actions(s, seat)
    if not options:
        return None
    if s.phase == "draft":
        dice = [a for a in options if BY_KEY[a.card or ""].is_dice]
        pool = dice or options
        return max(pool, key=lambda a: (BY_KEY[a.card or ""].cost, BY_KEY[a.card or ""].fpv))
    if s.pending is not None:
        return _timeout_answer(s, options)
    t = turn_of(s)
    if t.stage == "play":
        dice = [a for a in options if a.kind == "play" and BY_KEY[a.card or ""].is_dice]
        return dice[0] if dice else action_of("roll")
    return options[-1]  # no_match, rerolls_done, buy_done


def _timeout_answer(s: BareBonesState, options: list[BareBonesAction]) -> BareBonesAction:
    q = s.pending
    assert q is not None
    if q.kind in ("mimic", "double_up"):
        return max(options, key=lambda a: mean_value(a.colour or ""))
    if q.kind == "leave_out":
        return min(options, key=lambda a: mean_value(a.colour or ""))
    if q.kind == "joyride_card":
        return max(options, key=lambda a: DICE_CARDS[a.colour or ""].cost)
    if q.kind == "yard_sale":
        return min(options, key=lambda a: BY_KEY[a.card or ""].cost)
    if q.kind == "swap_give":
        return action_of("swap_done")
    if q.kind == "swap_take":
        return max(options, key=lambda a: BY_KEY[a.card or ""].cost)
    if q.kind == "potato":
        seat = turn_of(s).seat
        others = opponents(s, seat)
        leader = max(others, key=lambda o: (s.players[o].score, -others.index(o)))
        return action_of("potato", seat=leader)
    if q.kind == "full_house":
        return action_of("fh_roll")
    # loan: borrow nothing; purple: the Purple die; joyride_seat: the next opponent;
    # pattern: the best result (options come best first)
    return options[0]
