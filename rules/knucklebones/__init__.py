"""Knucklebones: seven rune dice, bent by their runes, scored on a sheet of seven items.

``models`` holds the sheet (``data/knucklebones.json``), state, actions and views; ``scoring``
what a roll scores; ``moves`` who acts and what is legal; ``flow`` the turn step by step;
``view`` what the table shows; ``ai`` the bot player; ``text`` the words; ``engine`` ties them.
The names the rest of the bot uses are re-exported here.
"""

from rules.knucklebones.ai import AIM_RATE, WILD_MEAN, keep_value
from rules.knucklebones.engine import ENGINE, KnucklebonesEngine
from rules.knucklebones.flow import start_turn
from rules.knucklebones.models import (
    ADD,
    ADD_AFTER,
    DOUBLE,
    FACES,
    ITEMS,
    MAX_SEATS,
    POOL_SIZE,
    PRE_SCORING,
    REMOVE_AFTER,
    REROLL,
    SHEET,
    START_ACTIVE,
    ActionKind,
    Die,
    DieView,
    ItemView,
    KnucklebonesAction,
    KnucklebonesOptions,
    KnucklebonesState,
    KnucklebonesView,
    PendingView,
    Phase,
    ScoreItem,
    ScoreSheet,
    SheetView,
)
from rules.knucklebones.moves import turns_total
from rules.knucklebones.scoring import (
    Hand,
    best_item,
    evaluate,
    hand_meets,
    hand_of,
    hand_points,
    meets,
    timeout_item,
    totals,
)
from rules.knucklebones.text import (
    WORDS,
    action_label,
    change_text,
    event_text,
    how_to_play,
    needs_text,
    passing_text,
    rules_sections,
    rules_summary,
    score_text,
    worth_text,
)

__all__ = [
    "ADD", "ADD_AFTER", "AIM_RATE", "DOUBLE", "ENGINE", "FACES", "ITEMS", "MAX_SEATS",
    "POOL_SIZE", "PRE_SCORING", "REMOVE_AFTER", "REROLL", "SHEET", "START_ACTIVE", "WILD_MEAN",
    "WORDS", "ActionKind", "Die", "DieView", "Hand", "ItemView", "KnucklebonesAction",
    "KnucklebonesEngine", "KnucklebonesOptions", "KnucklebonesState", "KnucklebonesView",
    "PendingView", "Phase", "ScoreItem", "ScoreSheet", "SheetView", "action_label", "best_item", "change_text",
    "evaluate", "event_text", "hand_meets", "how_to_play", "hand_of", "hand_points", "keep_value", "meets",
    "needs_text", "passing_text", "rules_sections", "rules_summary", "score_text", "start_turn", "timeout_item",
    "totals",
    "turns_total", "worth_text",
]
