"""Rattlebones: a race round a board with dice whose sides players rebuild as they play.

``board`` holds the printed parts (``data/rattlebones.json``, checked when this package loads)
and ``dice`` the faces; ``models`` the state, actions and views; ``scoring`` the Store, the stock
and who leads; ``moves`` who acts and what is legal; ``flow`` the turn step by step; ``view``
what the table shows; ``ai`` the bot player; ``text`` the words; ``engine`` ties them. The names
the rest of the bot uses are re-exported here.
"""

from rules.rattlebones.ai import die_value, face_value
from rules.rattlebones.board import DATA, BoardData, load_board_data
from rules.rattlebones.dice import adjacent, face_name, face_short, follow, opposite
from rules.rattlebones.engine import ENGINE, RattlebonesEngine
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
from rules.rattlebones.moves import MOVES_PER_TURN
from rules.rattlebones.scoring import leaders, place_of, star_value, stock_payout
from rules.rattlebones.text import (
    action_label,
    die_words,
    event_text,
    glossary,
    how_to_play,
    rules_sections,
    rules_summary,
    side_does,
    standings,
    star_chart,
)

__all__ = [
    "DATA", "ENGINE", "MAX_TURNS", "MOVES_PER_TURN", "BoardData", "DecisionView", "PlayerView",
    "RattlebonesAction", "RattlebonesEngine", "RattlebonesOptions", "RattlebonesState",
    "RattlebonesView", "RollView", "SpaceView", "action_label", "adjacent", "die_value",
    "die_words", "event_text", "glossary", "how_to_play", "rules_sections", "face_name", "face_short", "face_value", "follow", "leaders",
    "load_board_data", "opposite", "place_of", "rules_summary", "side_does", "standings", "star_chart", "star_value",
    "stock_payout",
]
