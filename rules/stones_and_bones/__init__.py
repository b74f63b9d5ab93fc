"""Stones & Bones (Quick Core Rulebook v1.2) as Boneyard plays it: RULINGS.md section 5.

The game is too big for one file, so it is a package: ``reading`` reads one roll of the Bones
(shared with ``/roll-bones``), ``models`` holds the shapes, ``flow`` the steps the rules take by
themselves, ``engine`` the decisions players make, and ``text`` everything players read. The
names the rest of the bot uses are re-exported here, so callers need not know that layout.
"""

from rules.stones_and_bones.engine import (
    CAPTAINS_LUCK,
    CROSSBONES,
    DEFAULT_PURSE,
    ENGINE,
    GIFTS,
    GIFTS_PER_PARLEY,
    LAST_TIDE,
    TURN_CAP,
    WAVES_PER_TIDE,
    BonesReading,
    LedgerRow,
    StonesAndBonesAction,
    StonesAndBonesEngine,
    StonesAndBonesOptions,
    StonesAndBonesState,
    StonesAndBonesView,
    action_label,
    bet_of,
    coins,
    crossbones_name,
    crossbones_of,
    expected_bet,
    ledger,
    read_bones,
    rules_summary,
    signed_coins,
    start_turn,
)

__all__ = [
    "CAPTAINS_LUCK", "CROSSBONES", "DEFAULT_PURSE", "ENGINE", "GIFTS", "GIFTS_PER_PARLEY",
    "LAST_TIDE", "TURN_CAP",
    "WAVES_PER_TIDE", "BonesReading", "LedgerRow", "StonesAndBonesAction",
    "StonesAndBonesEngine", "StonesAndBonesOptions", "StonesAndBonesState",
    "StonesAndBonesView", "action_label", "bet_of", "coins", "crossbones_name", "crossbones_of",
    "expected_bet", "ledger", "read_bones", "rules_summary", "signed_coins", "start_turn",
]
