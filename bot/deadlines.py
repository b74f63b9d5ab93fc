"""One task per process that fires turn timers. Deadlines are rows in the store, so they survive
restarts; each is claimed before it fires, so it fires once however many processes share the store."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Protocol

from bot.errors import GATE
from bot.store import Store, StoreUnavailable


class TableRuntime(Protocol):
    """What the timer task needs of the runtime (which starts it, so never imports back)."""

    store: Store
    deadline_changed: asyncio.Event
    next_wake: float

    async def expire(self, game_id: int, version: int) -> None: ...

log = logging.getLogger(__name__)

#: upper bound on a sleep, so a deadline written by another process is noticed even if its
#: notification was missed
MAX_SLEEP = 30.0
#: after a restart, a decision whose time ran out while the bot was down gets this long again
RESTART_GRACE = 15.0


async def run_deadlines(runtime: TableRuntime) -> None:
    try:
        now = time.time()
        postponed = await runtime.store.postpone_overdue(now, now + RESTART_GRACE)
        if postponed:
            log.info("turn timers that ran out while the bot was down: %d; each gets %d s more",
                     postponed, RESTART_GRACE)
    except Exception:
        log.exception("could not give overdue turn timers their grace; they fire now")
    while True:
        try:
            runtime.deadline_changed.clear()
            runtime.next_wake = 0.0  # while we look, any new deadline must wake us again
            if not GATE.open:
                return  # shutting down: the next process fires what is due
            for game_id, version in await runtime.store.due_deadlines(time.time()):
                try:
                    async with GATE.step():
                        await runtime.expire(game_id, version)
                except StoreUnavailable as exc:
                    # nothing was written: the row stays, and fires again once its claim runs out
                    log.warning("timer of game %s (move %s) waits: the store could not take it (%s)",
                                game_id, version, exc)
                    continue
                except Exception:
                    log.exception("timer of game %s (move %s) could not be applied", game_id, version)
                # Applied, the game has moved on and the row is a newer one; not applied (the
                # game moved on before the timer, or it failed), the claimed row must not come back.
                await runtime.store.drop_deadline(game_id, version)
            upcoming = await runtime.store.next_deadline()
            wait = MAX_SLEEP if upcoming is None else max(0.0, min(MAX_SLEEP, upcoming[2] - time.time()))
            runtime.next_wake = time.time() + wait
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(runtime.deadline_changed.wait(), timeout=wait)
        except asyncio.CancelledError:
            raise
        except StoreUnavailable as exc:  # another program holds the database: the timers wait for it
            log.warning("the store could not take the turn timers' claim: %s", exc)
            await asyncio.sleep(1)
        except Exception:
            log.exception("deadline loop hiccup")
            await asyncio.sleep(1)
