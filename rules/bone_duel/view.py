"""What a Bone Duel table shows. Nothing is hidden: every seat and the channel see the same."""

from __future__ import annotations

from rules.bone_duel.flow import winners
from rules.bone_duel.models import BoneDuelState, BoneDuelView, Preview
from rules.bone_duel.moves import open_columns
from rules.bone_duel.scoring import column_score, grid_total, knocks, totals


def previews(state: BoneDuelState) -> list[Preview]:
    """For each column the current player may use: what their total gains, what it knocks out and
    what that takes off the opponent's total."""
    if state.over or state.die is None:
        return []
    seat, face = state.current, state.die
    grid = state.grids[seat]
    before = grid_total(grid)
    found = []
    for c in open_columns(state, seat):
        gain = column_score([*grid[c], face]) - column_score(grid[c])
        opposite = state.grids[1 - seat][c]
        knocked = knocks(face, opposite, state.options.knockouts)
        takes = column_score(opposite) - column_score([d for d in opposite if d != face]) if knocked else 0
        found.append(Preview(column=c, gain=gain, score_after=before + gain, knocks=knocked, takes=takes))
    return found


def view(state: BoneDuelState) -> BoneDuelView:
    return BoneDuelView(
        grids=[[list(column) for column in grid] for grid in state.grids],
        column_scores=[[column_score(column) for column in grid] for grid in state.grids],
        totals=totals(state),
        current=state.current,
        die=state.die,
        last=state.last,
        previews=previews(state),
        game=state.game,
        turn=state.placements + 1,
        wins=list(state.wins),
        best_of_three=state.options.best_of_three,
        knockouts=state.options.knockouts,
        results=list(state.results),
        game_totals=[list(t) for t in state.game_totals],
        last_game=state.last_game,
        over=state.over,
        winners=winners(state),
    )
