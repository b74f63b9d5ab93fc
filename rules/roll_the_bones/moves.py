"""Roll the Bones: who is asked, and what each seat may do (the one source the table, the checks,
the bot and the tests all read).

A seat with nothing to decide is not asked: an ante with one possible multiset of dice, a single
die to roll, a bone call it has no say in (no bone die, or only bone dice). ``flow`` makes those
choices for it. A seat whose two changes of call are spent is still asked for its Ready (RB-2).
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Sequence

from rules.roll_the_bones.models import (
    BONE,
    CALL,
    CHANGES_PER_ROLL,
    READY,
    TAKE_BACKS_PER_ANTE,
    WITHDRAW,
    RollTheBonesAction,
    RollTheBonesState,
    make_action,
)


def live_seats(state: RollTheBonesState) -> list[int]:
    return [s for s in range(state.seats) if state.eliminated_round[s] is None]


def dice_in_play(state: RollTheBonesState) -> int:
    """Every die of the game: collections plus pots (RULINGS 2.5: always 11 per starting seat;
    a die being rolled stays in its owner's collection until the roll is resolved)."""
    return sum(len(h) for h in state.hands) + sum(len(p.dice) for p in state.pots)


def winners(state: RollTheBonesState) -> list[int]:
    """The seats holding the most dice once the game is over (RB-10: ties are shared)."""
    if state.phase != "over":
        return []
    best = max(len(h) for h in state.hands)
    return [s for s in range(state.seats) if len(state.hands[s]) == best]


def no_choice(hand: Sequence[int], due: int) -> bool:
    """Every ante of ``due`` dice from ``hand`` is the same multiset."""
    return due == 0 or len(set(hand)) == 1


def smallest_ante(hand: Sequence[int], due: int) -> list[int]:
    """RULINGS 2.3 timeout and the bot's policy: the smallest dice (the bone die last)."""
    return sorted(hand)[:due]


def filled_ante(hand: Sequence[int], draft: Sequence[int], due: int) -> list[int]:
    """``draft`` completed to ``due`` dice with the smallest dice not in it yet."""
    free = Counter(hand)
    free.subtract(draft)
    return sorted([*draft, *sorted(free.elements())[: due - len(draft)]])


def pick_options(state: RollTheBonesState, seat: int) -> list[int]:
    """The dice ``seat`` may roll, smallest first. RB-2: a call is binding, so a caller rolls a
    bone die; RB-3: a bone die can't be rolled without a call."""
    if seat not in state.in_round:
        return []
    hand = state.hands[seat]
    if state.calls[seat]:
        return [BONE] if BONE in hand else []
    return sorted({sides for sides in hand if sides != BONE})


def take_backs_left(state: RollTheBonesState, seat: int) -> int:
    """How many more dice ``seat`` may take back from the ante it is building."""
    taken = state.take_backs[seat] if seat < len(state.take_backs) else 0
    return max(0, TAKE_BACKS_PER_ANTE - taken)


def has_call(state: RollTheBonesState, seat: int) -> bool:
    """RB-2: a seat holding a bone die it is free to call or not takes part in the bone call,
    and owes a Ready since the last change, even once its own changes are spent. A seat with no
    bone die, or only bone dice (it must call), has no call to make and is not asked."""
    return (
        state.phase == "bone"
        and seat in state.in_round
        and BONE in state.hands[seat]
        and not state.forced_calls[seat]
    )


def can_call(state: RollTheBonesState, seat: int) -> bool:
    """RB-2: a seat in the bone call may change its call at most twice per roll."""
    return has_call(state, seat) and state.changes[seat] < CHANGES_PER_ROLL


def bone_call(state: RollTheBonesState, seat: int) -> RollTheBonesAction:
    """The seat's bone-call change, the way it turns: a call, or the withdrawal of its call."""
    return WITHDRAW if state.calls[seat] else CALL


def to_act(state: RollTheBonesState) -> list[int]:
    if state.phase in ("ante", "pick"):
        return [s for s in state.in_round if not state.confirmed[s]]
    if state.phase == "bone":
        return [s for s in state.in_round if not state.ready[s]]
    return []


def legal_actions(state: RollTheBonesState, seat: int) -> list[RollTheBonesAction]:
    """Ante: one "add" per kind of die still free (smallest first), one "take back" per kind in
    the draft (while the seat has take-backs left), then "fill with the smallest" while the
    draft is short or "confirm" once it is complete; bone call: the call or the withdrawal (if
    the seat may still change it) then Ready; pick: one per kind of die it may roll. At most 11
    entries."""
    if seat not in to_act(state):
        return []
    if state.phase == "ante":
        hand, draft, due = state.hands[seat], state.drafts[seat], state.required[seat]
        actions: list[RollTheBonesAction] = []
        if len(draft) < due:
            actions += [make_action("ante_add", sides) for sides in sorted(set(hand))
                        if hand.count(sides) > draft.count(sides)]
        if take_backs_left(state, seat):
            actions += [make_action("ante_remove", sides) for sides in sorted(set(draft))]
        actions.append(make_action("ante_fill") if len(draft) < due else make_action("ante_confirm"))
        return actions
    if state.phase == "bone":
        return ([bone_call(state, seat)] if can_call(state, seat) else []) + [READY]
    return [make_action("pick", sides) for sides in pick_options(state, seat)]


def open_actions(state: RollTheBonesState) -> list[RollTheBonesAction]:
    """RB-2: the bone call is made in the open, so its buttons sit on the table itself: a call
    and a withdrawal, each only while someone asked may press it, then Ready."""
    if state.phase != "bone":
        return []
    offered = {a for s in to_act(state) for a in legal_actions(state, s)}
    return [a for a in (CALL, WITHDRAW) if a in offered] + [READY]


def decision_stamp(state: RollTheBonesState, seat: int) -> str:
    """Everything a seat's own choices depend on: another seat sealing its ante leaves this
    seat's buttons valid, while its own click (a die added, a call made) retires them."""
    mine = (state.round, state.cycle, state.phase, state.hands[seat], state.drafts[seat],
            state.confirmed[seat], state.picks[seat], state.calls[seat], state.changes[seat],
            state.ready[seat])
    return f"{zlib.crc32(repr(mine).encode()):08x}"
