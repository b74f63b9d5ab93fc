"""Who acts (the current player, alone) and where the die may go (a column with room)."""

from __future__ import annotations

from rules.bone_duel.models import ACTIONS, ROWS, BoneDuelAction, BoneDuelState


def to_act(state: BoneDuelState) -> list[int]:
    return [] if state.over else [state.current]


def open_columns(state: BoneDuelState, seat: int) -> list[int]:
    """The seat's columns with room, left to right."""
    return [c for c, column in enumerate(state.grids[seat]) if len(column) < ROWS]


def legal_actions(state: BoneDuelState, seat: int) -> list[BoneDuelAction]:
    """One action per column with room, in column order: «You must place it»."""
    if seat not in to_act(state):
        return []
    return [ACTIONS[c] for c in open_columns(state, seat)]


def timeout_column(state: BoneDuelState, seat: int) -> int:
    """«the die goes into the leftmost column with room»."""
    return open_columns(state, seat)[0]
