"""The bot player: greedy one step ahead, weighing what an item is worth later."""

from __future__ import annotations

from collections.abc import Sequence

from rules.knucklebones.models import FACES, KnucklebonesAction, KnucklebonesState, ScoreItem
from rules.knucklebones.moves import legal_actions, open_items
from rules.knucklebones.scoring import Hand, hand_of, hand_points, item_of

#: Appendix B: how often each item is met when aimed for (floor 5), and Wild's mean sum. An
#: item's "keep value" is what it is worth later; scoring it now costs that much.
AIM_RATE: dict[str, float] = {
    "two_pairs": 0.779, "three_kind": 0.846, "full_house": 0.482, "four_kind": 0.481,
    "all_different": 0.092, "five_kind": 0.105,
}
WILD_MEAN = 24.4


def keep_value(item: ScoreItem | str) -> float:
    item = item_of(item)
    if item.points == "sum":
        return WILD_MEAN
    return AIM_RATE.get(item.key, 0.5) * item.points


def _utility(hand: Hand, items: Sequence[str]) -> float:
    """The gain over par of the best item to score with this hand."""
    return max(hand_points(hand, key) - keep_value(key) for key in items)


def _hand_without(state: KnucklebonesState, *ids: int) -> dict[int, tuple[int, int]]:
    return {d.id: (d.face, d.doubled) for d in state.pool
            if d.counts and d.face is not None and d.id not in ids}


def _policy_value(state: KnucklebonesState, action: KnucklebonesAction, items: list[str]) -> float:
    """Expected utility after the action, looking no further than this step."""
    if action.kind == "score":
        return hand_points(hand_of(state.pool), action.item or "") - keep_value(action.item or "")
    if action.kind in ("skip_reroll", "skip_double"):
        return _utility(tuple(_hand_without(state).values()), items)
    assert action.die is not None and action.target is not None
    hand = _hand_without(state, action.die)
    face, doubled = hand[action.target]
    if action.kind == "double":
        hand[action.target] = (face, doubled + 1)
        return _utility(tuple(hand.values()), items)
    total = 0.0
    for new_face in range(1, FACES + 1):  # a reroll: the mean over the six faces
        hand[action.target] = (new_face, doubled)
        total += _utility(tuple(hand.values()), items)
    return total / FACES


def choose_action(state: KnucklebonesState, seat: int) -> KnucklebonesAction | None:
    """The move whose expected best score, less what that item is worth later (so Wild is kept
    for a poor roll), is highest. Deterministic; keeps on ties. None when the seat owes no move."""
    legal = legal_actions(state, seat)
    if not legal:
        return None
    items = open_items(state, seat)
    best, best_value = legal[0], _policy_value(state, legal[0], items)
    for action in legal[1:]:
        value = _policy_value(state, action, items)
        if value > best_value + 1e-9:
            best, best_value = action, value
    return best
