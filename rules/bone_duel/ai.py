"""The bot player: a search one and a half moves deep.

For each column it may use, the bot averages over the six faces the opponent may roll next the
opponent's best reply (the one worst for the bot), and scores what is left by ``evaluate``: the
lead in points plus what the bot's own coming die should add (a pair with room, a stack of the
opponent's to knock out). A placement that fills a grid is scored as the end of the game.
Grids are tuples of tuples here and column scores come from a table of every column there can
be, which keeps a decision well under a millisecond.
"""

from __future__ import annotations

from itertools import product

from rules.base import Chooser
from rules.bone_duel.models import ACTIONS, COLUMNS, FACES, ROWS, BoneDuelAction, BoneDuelState
from rules.bone_duel.scoring import column_score

Column = tuple[int, ...]
Grid = tuple[Column, Column, Column]

#: every column there can be -> its score
SCORE: dict[Column, int] = {
    dice: column_score(dice) for n in range(ROWS + 1) for dice in product(range(1, FACES + 1), repeat=n)
}
#: a finished game dwarfs any lead in points
WIN = 1000.0
#: the weight of the coming turn's expected gain in ``evaluate`` (tuned with the bench)
NEXT_TURN = 1.3


def _total(grid: Grid) -> int:
    return SCORE[grid[0]] + SCORE[grid[1]] + SCORE[grid[2]]


def _full(grid: Grid) -> bool:
    return len(grid[0]) + len(grid[1]) + len(grid[2]) == COLUMNS * ROWS


def _place(mine: Grid, theirs: Grid, column: int, face: int, knockouts: bool) -> tuple[Grid, Grid]:
    """Both grids after ``face`` goes into ``column`` of ``mine``."""
    new_mine = list(mine)
    new_mine[column] = (*mine[column], face)
    if knockouts and face in theirs[column]:
        new_theirs = list(theirs)
        new_theirs[column] = tuple(d for d in theirs[column] if d != face)
        return tuple(new_mine), tuple(new_theirs)  # type: ignore[return-value]
    return tuple(new_mine), theirs  # type: ignore[return-value]


def next_turn(mine: Grid, theirs: Grid) -> float:
    """What the owner of ``mine`` may expect from its coming die: over the six faces, the most
    one placement adds to its lead (its own gain and what it knocks out). This is what makes a
    pair with room worth more than its points, and an open column facing a stack a threat."""
    expected = 0
    for face in range(1, FACES + 1):
        best = 0
        for c in range(COLUMNS):
            column = mine[c]
            if len(column) >= ROWS:
                continue
            gain = SCORE[(*column, face)] - SCORE[column]
            opposite = theirs[c]
            if face in opposite:
                gain += SCORE[opposite] - SCORE[tuple(d for d in opposite if d != face)]
            if gain > best:
                best = gain
        expected += best
    return expected / FACES


def evaluate(mine: Grid, theirs: Grid) -> float:
    """How good the position is for the owner of ``mine``, whose turn comes next, the game going
    on: the lead in points and what its coming die should add."""
    return _total(mine) - _total(theirs) + NEXT_TURN * next_turn(mine, theirs)


def _final(mine: Grid, theirs: Grid) -> float:
    diff = _total(mine) - _total(theirs)
    return (WIN if diff > 0 else -WIN if diff < 0 else 0.0) + diff


def _reply_value(mine: Grid, theirs: Grid, face: int, knockouts: bool) -> float:
    """The value for the owner of ``mine`` after the opponent places ``face`` as worst for it
    (the bot's own turn comes next)."""
    worst = None
    for c in range(COLUMNS):
        if len(theirs[c]) >= ROWS:
            continue
        t2, m2 = _place(theirs, mine, c, face, knockouts)
        value = _final(m2, t2) if _full(t2) else evaluate(m2, t2)
        if worst is None or value < worst:
            worst = value
    assert worst is not None  # the opponent's grid is not full, or the game would be over
    return worst


def column_values(mine: Grid, theirs: Grid, face: int, knockouts: bool) -> dict[int, float]:
    """Each open column of ``mine`` -> the expected value of placing ``face`` there."""
    values = {}
    for c in range(COLUMNS):
        if len(mine[c]) >= ROWS:
            continue
        m2, t2 = _place(mine, theirs, c, face, knockouts)
        if _full(m2):
            values[c] = _final(m2, t2)
        else:
            values[c] = sum(_reply_value(m2, t2, g, knockouts) for g in range(1, FACES + 1)) / FACES
    return values


def _grid(columns: list[list[int]]) -> Grid:
    return (tuple(columns[0]), tuple(columns[1]), tuple(columns[2]))


def best_column(state: BoneDuelState, seat: int) -> int:
    """The bot's column for the die rolled; the leftmost on equal values. Deterministic."""
    assert state.die is not None
    values = column_values(_grid(state.grids[seat]), _grid(state.grids[1 - seat]), state.die,
                           state.options.knockouts)
    best = max(values.values())
    return min(c for c, v in values.items() if v >= best - 1e-9)


def greedy_column(state: BoneDuelState, seat: int) -> int:
    """The column that adds the most to the seat's own total now, the leftmost on ties: the
    simple player the bot is measured against."""
    assert state.die is not None
    grid = state.grids[seat]
    gains = {c: SCORE[(*grid[c], state.die)] - SCORE[tuple(grid[c])]
             for c in range(COLUMNS) if len(grid[c]) < ROWS}
    best = max(gains.values())
    return min(c for c, g in gains.items() if g == best)


def ai_action(state: BoneDuelState, seat: int, choose: Chooser) -> BoneDuelAction:
    """The bot's move; ``choose`` is not needed (the policy is deterministic)."""
    return ACTIONS[best_column(state, seat)]
