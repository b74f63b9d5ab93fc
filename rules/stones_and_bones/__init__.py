"""Stones & Bones (Quick Core Rulebook v1.2) as Boneyard plays it: RULINGS.md section 5.

A package in the common shape: ``models`` (the game's tables from data/stones_and_bones.json,
options, state, actions), ``reading`` (one roll of the Bones, shared with ``/roll-bones``),
``moves`` (who acts, what is legal), ``flow`` (what decisions do, and the rest of the game),
``view`` (what each seat sees, and what it may not), ``text`` (the words), ``ai`` (the
tavern-keeper) and a thin ``engine``. The names the rest of the bot uses are re-exported here,
so callers need not know that layout.
"""

from rules.stones_and_bones.engine import ENGINE, StonesAndBonesEngine
from rules.stones_and_bones.flow import options_with_purses, purse_of, start_turn
from rules.stones_and_bones.models import (
    CAPTAINS_LUCK,
    DEFAULT_PURSE,
    GIFTS,
    GIFTS_PER_PARLEY,
    LAST_TIDE,
    MAX_PURSE,
    MAX_SEATS,
    MIN_SEATS,
    MUTINY_WINDOW,
    TURN_CAP,
    WAVES_PER_TIDE,
    StonesAndBonesAction,
    StonesAndBonesOptions,
    StonesAndBonesState,
)
from rules.stones_and_bones.moves import can_pilfer, grumble_fee
from rules.stones_and_bones.reading import (
    CROSSBONES,
    GP,
    TIER_ABBR,
    BonesReading,
    bet_of,
    coins,
    crossbones_name,
    crossbones_of,
    expected_bet,
    money,
    read_bones,
    signed_coins,
    signed_money,
)
from rules.stones_and_bones.text import (
    action_label,
    claim_label,
    glossary,
    how_to_play,
    mutiny_cry,
    rules_sections,
    rules_summary,
    tide_rise_words,
)
from rules.stones_and_bones.view import (
    LedgerRow,
    MutinyView,
    PirateView,
    StonesAndBonesView,
    TurnView,
    ledger,
)

__all__ = [
    "CAPTAINS_LUCK", "CROSSBONES", "DEFAULT_PURSE", "ENGINE", "GIFTS", "GIFTS_PER_PARLEY", "GP",
    "LAST_TIDE", "MAX_PURSE", "MAX_SEATS", "MIN_SEATS", "MUTINY_WINDOW", "TIER_ABBR", "TURN_CAP",
    "WAVES_PER_TIDE", "BonesReading", "LedgerRow", "MutinyView", "PirateView",
    "StonesAndBonesAction", "StonesAndBonesEngine", "StonesAndBonesOptions", "StonesAndBonesState",
    "StonesAndBonesView", "TurnView", "action_label", "bet_of", "can_pilfer", "claim_label",
    "coins", "crossbones_name", "crossbones_of", "expected_bet", "glossary", "grumble_fee", "how_to_play",
    "ledger", "money", "mutiny_cry", "options_with_purses", "purse_of", "read_bones", "rules_sections", "rules_summary",
    "signed_coins", "signed_money", "start_turn", "tide_rise_words",
]
