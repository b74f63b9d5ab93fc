"""One task per process that fires turn timers. Deadlines are rows in the store, so they survive
restarts; each is claimed before it fires, so it fires once however many processes share the store.

A game nobody can see any more (its channel or thread deleted, the bot removed from its server)
is cancelled rather than timed: its timer would play every seat's default move in the dark, into
the players' stats, and again after every restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

import discord

from bot import layout, present, step
from bot.deliver import channel_gone
from bot.errors import GATE
from bot.present import Shown
from bot.store import Store, StoreUnavailable

if TYPE_CHECKING:
    from bot.runtime import TableRuntime as Runtime


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

#: why a game nobody can see was cancelled, as the log and its players' private copies say it
CHANNEL_GONE = "its channel is gone"
SERVER_LEFT = "the bot was removed from its server"


async def cancel_unseen(runtime: Runtime, game_id: int, why: str) -> bool:
    """Cancel a game in its lobby or in play that nobody can see any more, as `/game end` does:
    cancelled, its deadline gone, nothing counted in anyone's stats; its players' private copies
    lose their controls and say why. Whether it was still live."""
    async with runtime.lock(game_id):
        now, book = await runtime.load(game_id)
        if not now.table.live:
            return False
        result = step.resettle(now, time.time(), status="cancelled")
        table = result.table
        runtime.keep(await runtime.store.save(table, now.table.version, deadline=table.deadline), result.after)
        plan = present.redraw(result.after, present.Channel(book))
        plan.channel = []  # nowhere left to show it
        said = Shown(layout.text_message(f"This game was cancelled: {why}."))
        plan.retire = [(user, said) for user, _ in plan.retire]
        await runtime.deliverer.run(plan, table, book, None)
    log.info("game %s: %s; cancelled", game_id, why)
    return True


async def still_there(client: discord.Client, channel_id: int) -> bool:
    """Whether a channel or thread still exists. Every channel of the servers this process
    hears of is known without asking, as is every thread not archived; of any other (an
    archived thread, a server another process of a cluster hears of) Discord is asked. Only
    Discord saying it is unknown counts as gone."""
    if client.get_channel(channel_id) is not None:
        return True
    try:
        await client.fetch_channel(channel_id)
    except Exception as exc:  # (a network failure says nothing: the game goes on, timer and all)
        return not channel_gone(exc)
    return True


async def cancel_if_gone(runtime: Runtime, game_id: int, told: bool = False) -> bool:
    """Before a timer plays anyone's default, the game is cancelled if its channel is gone
    (deleted while the bot was away, say); ``told``: Discord has just said so, as the timer's
    move was shown. Whether it was cancelled."""
    table = await runtime.store.get(game_id)
    if table is None or not table.live or (not told and await still_there(runtime.bot, table.channel_id)):
        return False
    return await cancel_unseen(runtime, game_id, CHANNEL_GONE)


#: ``cancel_if_gone`` for one runtime: (game, whether Discord has said its channel is gone)
Gone = Callable[[int, bool], Awaitable[bool]]


async def run_deadlines(runtime: TableRuntime, *, gone: Gone | None = None) -> None:
    """``gone``: asked before a timer is applied whether its game's channel is gone, cancelling
    the game if it is."""
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
                        if gone is None or not await gone(game_id, False):
                            await runtime.expire(game_id, version)
                except StoreUnavailable as exc:
                    # nothing was written: the row stays, and fires again once its claim runs out
                    log.warning("timer of game %s (move %s) waits: the store could not take it (%s)",
                                game_id, version, exc)
                    continue
                except Exception as exc:
                    if gone is None or not channel_gone(exc):
                        log.exception("timer of game %s (move %s) could not be applied", game_id, version)
                    else:  # deleted since it was looked at: the move counted, and the game ends there
                        await _cancel_quietly(gone, game_id)
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


async def _cancel_quietly(gone: Gone, game_id: int) -> None:
    try:
        async with GATE.step():
            await gone(game_id, True)
    except Exception:
        log.exception("game %s: its channel is gone, and it could not be cancelled", game_id)
