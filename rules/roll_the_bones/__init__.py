"""Roll the Bones as Boneyard plays it: the rulebook plus RULINGS.md section 2.

Too big for one file, so a package: ``models`` holds the shapes (dice sets, options, state,
actions, views), ``flow`` the phases of a roll that run by themselves, ``engine`` the players'
decisions and ``text`` the words players read. The names the bot and its tests use are
re-exported here, so callers need not know that layout.
"""

from rules.roll_the_bones.engine import ENGINE, RollTheBonesEngine
from rules.roll_the_bones.flow import (
    can_call,
    dice_in_play,
    pick_options,
    smallest_ante,
    start_round,
    winners,
)
from rules.roll_the_bones.models import (
    BONE,
    CHANGES_PER_ROLL,
    DICE_SETS,
    MAX_SEATS,
    MIN_SEATS,
    ROLLOFF_SIDES,
    ROLLS_PER_ROUND,
    START_DICE,
    TAKE_BACKS_PER_ANTE,
    Award,
    DiceSet,
    DiceSets,
    PotView,
    PrivateView,
    RollEntry,
    RollRecord,
    RollTheBonesAction,
    RollTheBonesOptions,
    RollTheBonesState,
    RollTheBonesView,
    RoundReport,
    SeatView,
    dice_counts,
    dice_text,
    die_name,
    load_dice_sets,
    starting_hand,
)
from rules.roll_the_bones.text import action_label, rules_summary

__all__ = [
    "BONE", "CHANGES_PER_ROLL", "DICE_SETS", "ENGINE", "MAX_SEATS", "MIN_SEATS", "ROLLOFF_SIDES",
    "ROLLS_PER_ROUND", "START_DICE", "TAKE_BACKS_PER_ANTE", "Award", "DiceSet", "DiceSets",
    "PotView", "PrivateView", "RollEntry",
    "RollRecord", "RollTheBonesAction", "RollTheBonesEngine", "RollTheBonesOptions",
    "RollTheBonesState", "RollTheBonesView", "RoundReport", "SeatView", "action_label",
    "can_call", "dice_counts", "dice_in_play", "dice_text", "die_name", "load_dice_sets",
    "pick_options", "rules_summary", "smallest_ante", "start_round", "starting_hand", "winners",
]
