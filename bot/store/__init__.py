"""The game store: every game, its log, the interactions applied, deadlines and results.

``await Store.open(target)`` opens the backend that DATABASE_URL (or DATABASE_PATH) names: a
SQLite file by default, or a PostgreSQL server that several bot processes share. Nothing else in
the bot knows which one it runs on.
"""

from bot.store.base import (
    CLAIM_SECONDS, INTERACTIONS_KEPT, ChannelBusy, DuplicateInteraction, Store, StoreError, Target,
    VersionConflict, _migrations, parse_target,
)
from bot.store.sqlite import LIVE_CACHE, SqliteStore

__all__ = [
    "CLAIM_SECONDS", "INTERACTIONS_KEPT", "LIVE_CACHE", "ChannelBusy", "DuplicateInteraction", "SqliteStore",
    "Store", "StoreError", "Target", "VersionConflict", "_migrations", "parse_target",
]
