"""The game store: every game, its log, the interactions applied, deadlines and results.

``await open_store(target)`` opens the backend that DATABASE_URL (or DATABASE_PATH) names: a
SQLite file by default, or a PostgreSQL server that several bot processes share. Nothing else in
the bot knows which one it runs on.
"""

from pathlib import Path

from bot.store.base import (
    CLAIM_SECONDS, INTERACTIONS_KEPT, ChannelBusy, DuplicateInteraction, LimitReached, SchemaTooNew, Store, StoreError,
    StoreInUse, StoreUnavailable, Target, VersionConflict, _migrations, parse_target,
)
from bot.store.postgres import PostgresStore
from bot.store.records import Luck, RollAsked, RolledDie, SavedRoll, ServerSettings, StoredRoll
from bot.store.sqlite import LIVE_CACHE, SqliteStore


async def open_store(target: str | Path | Target, *, sole: bool = False) -> Store:
    """The store the target names: a SQLite file, or a PostgreSQL server. ``sole``: as the one
    process on a SQLite file (the bot; see SqliteStore), refused (StoreInUse) beside another."""
    parsed = target if isinstance(target, Target) else parse_target(target)
    if parsed.dialect == "postgres":
        return await PostgresStore.open(parsed.location)
    return await SqliteStore.open(parsed.location, sole=sole)

__all__ = [
    "CLAIM_SECONDS", "INTERACTIONS_KEPT", "LIVE_CACHE", "ChannelBusy", "DuplicateInteraction", "LimitReached",
    "Luck", "RollAsked", "RolledDie", "SavedRoll", "SchemaTooNew", "ServerSettings", "SqliteStore", "Store", "StoreError",
    "StoreInUse", "StoreUnavailable", "StoredRoll", "Target", "VersionConflict", "_migrations", "open_store", "parse_target",
]
