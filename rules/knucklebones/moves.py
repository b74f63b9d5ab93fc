"""Who acts and what they may do: the pending 2 or 4 and the dice it may act on, the runes
still to act, the open items of the sheet."""

from __future__ import annotations

from rules.knucklebones.models import (
    DOUBLE,
    ITEMS,
    PRE_SCORING,
    REROLL,
    ActionKind,
    Ask,
    Die,
    KnucklebonesAction,
    KnucklebonesState,
    action_of,
)


def to_act(state: KnucklebonesState) -> list[int]:
    return [] if state.phase == "over" else [state.current]


def turns_total(state: KnucklebonesState) -> int:
    """«once each player has scored all items on their score sheet»: one turn an item a seat."""
    return len(ITEMS) * state.seats


def waiting(state: KnucklebonesState) -> list[Die]:
    """The dice whose pre-scoring rune has not acted since they were rolled, in the order they
    will (KB-2 HR: lowest rune first; among equal runes, the lower die position)."""
    found = [d for d in state.pool if d.counts and not d.resolved and d.face in PRE_SCORING]
    return sorted(found, key=lambda d: (d.face or 0, d.id))


def targets(state: KnucklebonesState, die: Die) -> list[Die]:
    """Dice a 2 or 4 may act on: «another die», never a spent one."""
    others = [d for d in state.pool if d.counts and d.id != die.id]
    if die.face == DOUBLE and not state.options.stack_doubles:
        others = [d for d in others if d.doubled == 0]  # KB-3: each die doubled at most once
    return others


def open_items(state: KnucklebonesState, seat: int) -> list[str]:
    """The items of a seat's sheet not scored yet, in sheet order."""
    return [key for key, points in state.sheets[seat].items() if points is None]


def legal_actions(state: KnucklebonesState, seat: int) -> list[KnucklebonesAction]:
    """Keeping the die always comes first, then targets by die position; items in sheet
    order."""
    if seat not in to_act(state):
        return []
    if state.phase == "score":
        sheet = state.sheets[seat]
        return [action_of("score", item=key) for key in ITEMS if sheet[key] is None]
    assert state.pending is not None
    die = state.pool[state.pending]
    keep: ActionKind
    spend: ActionKind
    if state.phase == "reroll":
        keep, spend = "skip_reroll", "reroll"
    else:
        keep, spend = "skip_double", "double"
    return [action_of(keep, die.id)] + [action_of(spend, die.id, t.id) for t in targets(state, die)]


def asks(die: Die) -> Ask:
    """What a pending rune asks for: a 2 a reroll, a 4 a double."""
    return "reroll" if die.face == REROLL else "double"
