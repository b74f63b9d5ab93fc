"""Roll the Bones as Boneyard plays it: the rulebook plus RULINGS.md section 2.

A package in the common shape: ``models`` (dice sets, options, state, actions), ``moves`` (who
acts, what is legal), ``flow`` (what decisions do, the phases that run by themselves), ``view``
(what each seat sees, and what it may not), ``text`` (the words), ``ai`` (the bot player) and a
thin ``engine``. The names the bot and its tests use are re-exported here, so callers need not
know that layout.
"""

from rules.roll_the_bones.engine import ENGINE, RollTheBonesEngine
from rules.roll_the_bones.flow import dice_taken, start_round
from rules.roll_the_bones.models import (
    BONE,
    CALL,
    CHANGES_PER_ROLL,
    DICE_SETS,
    MAX_SEATS,
    MIN_SEATS,
    READY,
    ROLLOFF_SIDES,
    ROLLS_PER_ROUND,
    START_DICE,
    TAKE_BACKS_PER_ANTE,
    WITHDRAW,
    Award,
    DiceSet,
    DiceSets,
    RollEntry,
    RollRecord,
    RollTheBonesAction,
    RollTheBonesOptions,
    RollTheBonesState,
    RoundReport,
    dice_counts,
    dice_text,
    die_name,
    starting_hand,
)
from rules.roll_the_bones.moves import (
    can_call,
    dice_in_play,
    pick_options,
    smallest_ante,
    winners,
)
from rules.roll_the_bones.text import (
    READY_LABEL,
    action_label,
    ante_words,
    call_words,
    callers_words,
    how_to_play,
    rules_summary,
    words_text,
)
from rules.roll_the_bones.view import PotView, PrivateView, RollTheBonesView, SeatView

__all__ = [
    "Award", "BONE", "CALL", "CHANGES_PER_ROLL", "DICE_SETS", "DiceSet", "DiceSets", "ENGINE",
    "MAX_SEATS", "MIN_SEATS", "PotView", "PrivateView", "READY", "READY_LABEL", "ROLLOFF_SIDES",
    "ROLLS_PER_ROUND", "RollEntry", "RollRecord", "RollTheBonesAction", "RollTheBonesEngine",
    "RollTheBonesOptions", "RollTheBonesState", "RollTheBonesView", "RoundReport", "START_DICE",
    "SeatView", "TAKE_BACKS_PER_ANTE", "WITHDRAW", "action_label", "ante_words",
    "call_words", "callers_words", "can_call", "dice_counts", "dice_in_play", "dice_taken",
    "dice_text", "die_name", "how_to_play", "pick_options", "rules_summary", "smallest_ante",
    "start_round", "starting_hand", "winners", "words_text",
]
