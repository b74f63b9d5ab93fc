"""Rattlebones: a race round a board with dice whose sides players rebuild as they play.

The engine is pure and seeded like every other game (``rules/base.py``); the board and sides
are data (``data/rattlebones.json``), checked when this package loads.
"""

from rules.rattlebones.board import DATA, load_board_data
from rules.rattlebones.dice import adjacent, face_name, face_short, follow, opposite
from rules.rattlebones.engine import (
    ENGINE,
    MOVES_PER_TURN,
    RattlebonesEngine,
    leaders,
    place_of,
    star_value,
    stock_payout,
)
from rules.rattlebones.models import (
    MAX_TURNS,
    DecisionView,
    PlayerView,
    RattlebonesAction,
    RattlebonesOptions,
    RattlebonesState,
    RattlebonesView,
    RollView,
    SpaceView,
)
from rules.rattlebones.text import action_label, rules_summary, standings

__all__ = [
    "DATA", "ENGINE", "MAX_TURNS", "MOVES_PER_TURN", "DecisionView", "PlayerView",
    "RattlebonesAction", "RattlebonesEngine", "RattlebonesOptions", "RattlebonesState",
    "RattlebonesView", "RollView", "SpaceView", "action_label", "adjacent", "face_name",
    "face_short", "follow", "leaders", "load_board_data", "opposite", "place_of",
    "rules_summary", "standings", "star_value", "stock_payout",
]
