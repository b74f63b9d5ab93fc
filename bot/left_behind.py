"""Tables a stopped process left behind, shown again as soon as the bot is back.

A step is saved before it is shown, and what the channel shows (the book) is written after it
is shown. A process killed in between leaves the game ahead of its channel: the move counts, but
the channel may show the table from before it, or no table at all (the clicked table became a
line of history and the next was never posted), and whoever must act may have had no DM; a game
that ended in that step still shows its buttons, and nobody learns who won. A click on a table
of a game in play that was left behind posts it again; but where no table is left, or the game
is over, a click shows nothing new. So each process, once connected, posts the tables of every
such game afresh, pinging whoever must act.
"""

from __future__ import annotations

import logging
import time

import discord

from bot.errors import GATE
from bot.runtime import TableRuntime

log = logging.getLogger(__name__)

#: seconds after its end a game whose end was never shown is still shown it: a process comes
#: back long before, and older games are not looked through at every start
ENDED_LOOKED_AT = 24 * 3600.0


async def show_tables_left_behind(runtime: TableRuntime) -> int:
    """Post the table of every game left behind; how many were. Each under its game's lock, so
    a step of another process still delivering one is waited for, and not shown twice."""
    shown = 0
    for game_id in await runtime.store.games_left_behind(time.time() - ENDED_LOOKED_AT):
        if not GATE.open:
            break  # stopping: the next process looks again
        try:
            async with GATE.step():
                shown += await runtime.catch_up(game_id, notify=True)
        except discord.NotFound as exc:  # its channel was deleted meanwhile: nothing left to show it in
            log.info("game %s: its channel is gone (%s %s)", game_id, exc.code, exc.text)
        except Exception:
            log.exception("could not show again the table of game %s", game_id)
    if shown:
        log.info("posted again %d table(s) a stopped process had left behind", shown)
    return shown
