"""Keeping the store bounded while the bot runs.

Two things go, at start-up and then every RETENTION_EVERY: the move logs (/game log) of games that
ended more than KEEP_FINISHED_DAYS ago (their results and the stats stay), and everything of a
server the bot was removed from GUILD_GRACE_DAYS ago and not invited back to since. Each is a few
short transactions, so clicks go on meanwhile; on PostgreSQL every process runs this, and what one
deletes the others find gone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from bot.store import Store

log = logging.getLogger(__name__)

#: days a server's data is kept after the bot was removed from it: time to invite it back
GUILD_GRACE_DAYS = 30
#: seconds between two rounds
RETENTION_EVERY = 6 * 3600.0
DAY = 86400.0


async def retain(store: Store, keep_days: float, now: float) -> tuple[int, int]:
    """One round: (moves deleted, servers forgotten)."""
    pruned = await store.prune(now, keep_days)
    forgotten = await store.forget_guilds_left_before(now - GUILD_GRACE_DAYS * DAY)
    if pruned or forgotten:
        log.info("retention: %d moves of games that ended over %g days ago deleted; %d servers left over %d days "
                 "ago forgotten", pruned, keep_days, forgotten, GUILD_GRACE_DAYS)
    return pruned, forgotten


async def run_retention(store: Store, keep_days: float, *, every: float = RETENTION_EVERY,
                        clock: Callable[[], float] = time.time) -> None:
    """Rounds until cancelled. A round that fails (the database away for a moment) is logged and
    the next one tries again: nothing is lost by deleting later."""
    while True:
        try:
            await retain(store, keep_days, clock())
        except Exception:
            log.exception("retention round failed; trying again in %.0f s", every)
        await asyncio.sleep(every)
