"""Bone Duel: two 3×3 grids facing each other, one die, knock-outs (``bone-duel.md``).

``models`` holds the options, state, actions and views; ``scoring`` what columns score and what
a die knocks out; ``moves`` who acts and what is legal; ``flow`` the turn and the match; ``view``
what the table shows; ``ai`` the bot player; ``text`` the words; ``engine`` ties them. The
names the rest of the bot uses are re-exported here.
"""

from rules.bone_duel.ai import ai_action, evaluate, greedy_column
from rules.bone_duel.engine import ENGINE, BoneDuelEngine
from rules.bone_duel.flow import winners
from rules.bone_duel.models import (
    ACTIONS,
    COLUMNS,
    FACES,
    GAME_PLACEMENTS,
    MATCH_GAMES,
    ROWS,
    SEATS,
    BoneDuelAction,
    BoneDuelOptions,
    BoneDuelState,
    BoneDuelView,
    FinishedGame,
    Placement,
    Preview,
)
from rules.bone_duel.moves import legal_actions, open_columns, timeout_column, to_act
from rules.bone_duel.scoring import column_score, grid_total, knocks, totals
from rules.bone_duel.text import (
    COLUMN_NAMES,
    WORDS,
    bot_reason,
    column_name,
    event_text,
    faces_text,
    how_to_play,
    rules_summary,
)
from rules.bone_duel.view import previews, view

__all__ = [
    "ACTIONS", "COLUMNS", "COLUMN_NAMES", "ENGINE", "FACES", "GAME_PLACEMENTS", "MATCH_GAMES",
    "ROWS", "SEATS", "WORDS", "BoneDuelAction", "BoneDuelEngine", "BoneDuelOptions", "BoneDuelState",
    "BoneDuelView", "FinishedGame", "Placement", "Preview", "ai_action", "bot_reason", "column_name", "column_score",
    "evaluate", "event_text", "faces_text", "greedy_column", "how_to_play", "grid_total", "knocks", "legal_actions",
    "open_columns", "previews", "rules_summary", "timeout_column", "to_act", "totals", "view",
    "winners",
]
