"""What a column and a grid score, and what a die does when placed: pure arithmetic shared by
the flow, the view and the bot player."""

from __future__ import annotations

from collections.abc import Sequence

from rules.bone_duel.models import BoneDuelState


def column_score(dice: Sequence[int]) -> int:
    """«a number that appears k times in a column scores number × k for each of those dice,
    that is number × k × k in all»."""
    score = 0
    for face in set(dice):
        k = dice.count(face)
        score += face * k * k
    return score


def grid_total(grid: Sequence[Sequence[int]]) -> int:
    return sum(column_score(column) for column in grid)


def totals(state: BoneDuelState) -> list[int]:
    """Each seat's total in the game in progress (the last game's, once over)."""
    return [grid_total(grid) for grid in state.grids]


def knocks(face: int, opposite: Sequence[int], knockouts: bool = True) -> list[int]:
    """The dice a ``face`` placed facing ``opposite`` removes (none without knock-outs)."""
    return [d for d in opposite if d == face] if knockouts else []
