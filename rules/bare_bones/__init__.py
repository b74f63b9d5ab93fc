"""Bare Bones, the deck-building dice game, as Boneyard plays it: RULINGS.md section 1.

``cards`` loads the components from ``data/bare_bones``; ``models`` holds the options, state,
actions and views; ``scoring`` scores a roll; ``table`` holds the physical moves (draw, roll,
re-roll, return to the Supply) and the questions a card asks; ``effects`` what each card does;
``moves`` who decides and what is legal; ``flow`` the course of a turn; ``view`` what each seat
may see; ``ai`` a bot player; ``text`` everything players read; ``engine`` ties them together.
The names the rest of the bot uses are re-exported here.
"""

from rules.bare_bones.cards import (
    ACTIONS,
    BY_KEY,
    CARDS,
    COLOURS,
    DICE,
    DICE_CARDS,
    SUGGESTED,
    TABLE,
    TOTAL_CARDS,
    TOTAL_DICE,
    Card,
    card_short,
    card_text,
    load_cards,
    load_dice,
)
from rules.bare_bones.engine import ENGINE, BareBonesEngine
from rules.bare_bones.models import (
    AU_LIMIT,
    DICE_CAP,
    HAND_SIZE,
    HOT_POTATO_PENALTY,
    LOAN_PENALTY,
    MAX_SEATS,
    MIN_SEATS,
    ROUNDS,
    ActionKind,
    BareBonesAction,
    BareBonesOptions,
    BareBonesState,
    BareBonesView,
    BlockView,
    CardView,
    DieView,
    DraftView,
    Final,
    PendingKind,
    PendingView,
    PlayedView,
    PlayerView,
    PrivateView,
    RevealView,
    ScoreView,
    SheetColumn,
    SheetRow,
    Stage,
    StackView,
    TurnView,
    action,
)
from rules.bare_bones.moves import answers, opponents
from rules.bare_bones.scoring import ScoreOption, score_options, tally, working
from rules.bare_bones.text import (
    GLOSSARY,
    action_label,
    card_help,
    glossary,
    how_to_play,
    potatoes_passed,
    rules_sections,
    rules_summary,
    scoresheet_lines,
    units,
)
from rules.bare_bones.view import scramble_hidden, sheet_rows

__all__ = [
    "ACTIONS", "AU_LIMIT", "GLOSSARY", "BY_KEY", "CARDS", "COLOURS", "DICE", "DICE_CAP", "DICE_CARDS",
    "ENGINE", "HAND_SIZE", "HOT_POTATO_PENALTY", "LOAN_PENALTY", "MAX_SEATS", "MIN_SEATS",
    "ROUNDS", "SUGGESTED", "TABLE", "TOTAL_CARDS", "TOTAL_DICE", "ActionKind", "BareBonesAction",
    "BareBonesEngine", "BareBonesOptions", "BareBonesState", "BareBonesView", "BlockView", "Card",
    "CardView", "DieView", "DraftView", "Final", "PendingKind", "PendingView", "PlayedView",
    "PlayerView", "PrivateView", "RevealView", "ScoreOption", "ScoreView", "SheetColumn",
    "SheetRow", "Stage", "StackView", "TurnView", "action", "action_label", "answers",
    "card_help", "card_short", "card_text", "glossary", "how_to_play", "load_cards", "load_dice",
    "opponents", "potatoes_passed", "rules_sections", "rules_summary", "score_options", "scoresheet_lines", "scramble_hidden", "sheet_rows", "tally",
    "units", "working",
]
