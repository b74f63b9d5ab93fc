"""Roll the Bones: the bot player's policy (a seat whose player left, or an NPC)."""

from __future__ import annotations

from collections import Counter

from rules.base import IllegalAction
from rules.roll_the_bones.models import (
    READY,
    RollTheBonesAction,
    RollTheBonesState,
    make_action,
)
from rules.roll_the_bones.moves import (
    bone_call,
    can_call,
    pick_options,
    smallest_ante,
    take_backs_left,
    to_act,
)


def ai_action(state: RollTheBonesState, seat: int) -> RollTheBonesAction:
    """Ante the smallest dice, call the bone whenever holding one, roll the largest allowed die
    (so the bone die when called). Deterministic, and always one of the seat's legal actions."""
    if seat not in to_act(state):
        raise IllegalAction("It is not your turn.")
    if state.phase == "ante":
        target = Counter(smallest_ante(state.hands[seat], state.required[seat]))
        draft = Counter(state.drafts[seat])
        extra = sorted((draft - target).elements())
        if extra and take_backs_left(state, seat):
            return make_action("ante_remove", extra[-1])
        if sum(draft.values()) < state.required[seat]:
            return make_action("ante_fill")  # the rest with the smallest dice
        return make_action("ante_confirm")
    if state.phase == "bone":
        if can_call(state, seat) and not state.calls[seat]:
            return bone_call(state, seat)
        return READY
    return make_action("pick", pick_options(state, seat)[-1])
