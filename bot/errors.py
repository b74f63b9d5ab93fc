"""How failures reach a user: a short ephemeral line, never "This interaction failed"."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from pydantic import ValidationError

from bot import logs, metrics
from bot.render import option_refusal
from bot.replies import UNKNOWN_INTERACTION, NotAnswered
from bot.store import DuplicateInteraction, StoreUnavailable, VersionConflict
from rules.base import GameError

log = logging.getLogger("bot.errors")


class Refusal(GameError):
    """The host's own refusals (not your seat, lobby full...): shown to the user as they are."""


class Gate:
    """Open while the bot takes clicks. At shutdown it closes: a click arriving then is told to
    press again in a moment (the next process takes it), and the steps in flight finish."""

    def __init__(self) -> None:
        self.open = True
        self.active = 0
        self._idle: asyncio.Event | None = None

    def step(self) -> Gate:
        """``async with GATE.step():`` around a step, so a stop waits for it."""
        return self

    async def __aenter__(self) -> None:
        self.active += 1

    async def __aexit__(self, *exc: object) -> None:
        self.active -= 1
        if self.active == 0 and self._idle is not None:
            self._idle.set()

    async def close(self, patience: float) -> bool:
        """Take no more clicks; True once every step in flight is done, False if ``patience``
        seconds ran out first."""
        self.open = False
        if self.active == 0:
            return True
        self._idle = asyncio.Event()
        try:
            await asyncio.wait_for(self._idle.wait(), patience)
            return True
        except TimeoutError:
            return False


GATE = Gate()
RESTARTING = "Boneyard is restarting; press again in a moment."
STORE_BUSY = "That could not be saved just now (the game's database was busy), so nothing changed: try again in a moment."


def servers_failed(exc: discord.DiscordServerError) -> str:
    """A 5xx that outlasted discord.py's retries: nothing the server's admins can fix."""
    return f"Discord's servers failed just now (they answered {exc.status})"


def reference(interaction: discord.Interaction) -> str:
    return f"E{interaction.id:x}"[-8:].upper()


#: Discord's limit on a message's text
CONTENT = 2000
#: the interaction was answered already (a duplicate delivery of the same interaction)
ALREADY_ANSWERED = 40060


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Reply ephemerally whether or not the interaction was already answered. Clipped, as a
    refusal may quote what the user typed."""
    text = text if len(text) <= CONTENT else text[: CONTENT - 1] + "…"
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell interaction %s: %s", interaction.id, text)


async def guarded(
    interaction: discord.Interaction,
    handler: Callable[[], Awaitable[Any]],
    *,
    game_id: int | None = None,
) -> None:
    """Run a handler so that every outcome is an answer to the user.

    Component callbacks need this themselves: discord.py only logs their exceptions.
    """
    handling = metrics.Handling(interaction)
    logs.concerning(interaction=interaction.id, guild=interaction.guild_id, game=game_id)
    outcome = "refused"
    if not GATE.open:
        await tell(interaction, RESTARTING)
        handling.done("restarting")
        return
    try:
        async with GATE.step():
            await handler()
        outcome = "applied"
    except GameError as exc:
        await tell(interaction, str(exc))
    except ValidationError as exc:
        # options a client sent outside what the command declares (a forged or stale client)
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in exc.errors()[:3])
        log.info("refused options of interaction %s: %s", interaction.id, problems)
        await tell(interaction, option_refusal(exc.errors()))
    except DuplicateInteraction:
        await tell(interaction, "That click was already counted.")
    except VersionConflict:
        await tell(interaction, "The table changed at the same moment; please try again.")
    except StoreUnavailable as exc:
        log.warning("the store turned interaction %s away: %s", interaction.id, exc)
        outcome = "unavailable"
        await tell(interaction, STORE_BUSY)
    except NotAnswered:
        # Discord's servers failed the answer until the interaction died: nobody is left to tell
        log.warning("Discord's servers failed the answer to interaction %s until it expired", interaction.id)
        outcome = "discord failed"
    except discord.DiscordServerError as exc:
        # Discord's outage, not a fault of ours: no traceback in the log, and the user told
        # what happened rather than "something went wrong on our side"
        log.warning("Discord's servers failed interaction %s (%s)", interaction.id, exc.status)
        outcome = "discord failed"
        await tell(interaction, f"{servers_failed(exc)}, so I could not finish that. Try again in a moment.")
    except Exception as exc:
        if isinstance(exc, discord.HTTPException) and exc.code == ALREADY_ANSWERED:
            # the same interaction delivered twice: the first delivery answered it
            log.info("interaction %s was answered already", interaction.id)
            outcome = "duplicate"
            return
        if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION:
            log.warning("interaction %s reached us too late to be answered", interaction.id)
            outcome = "too late"
            return
        outcome = "failed"
        ref = reference(interaction)
        log.exception(
            "unexpected error ref=%s game=%s interaction=%s", ref, game_id, interaction.id
        )
        await tell(interaction, f"Sorry, something went wrong on our side (reference {ref}).")
    finally:
        handling.done(outcome)
