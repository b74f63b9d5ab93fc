"""How failures reach a user: a short ephemeral line, never "This interaction failed"."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.store import DuplicateInteraction, VersionConflict
from rules.base import GameError

log = logging.getLogger("bot.errors")


class Refusal(GameError):
    """The host's own refusals (not your seat, lobby full...): shown to the user as they are."""


def reference(interaction: discord.Interaction) -> str:
    return f"E{interaction.id:x}"[-8:].upper()


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Reply ephemerally whether or not the interaction was already answered."""
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
    try:
        await handler()
    except GameError as exc:
        await tell(interaction, str(exc))
    except DuplicateInteraction:
        await tell(interaction, "That click was already counted.")
    except VersionConflict:
        await tell(interaction, "The table changed at the same moment; please try again.")
    except Exception:
        ref = reference(interaction)
        log.exception(
            "unexpected error ref=%s game=%s interaction=%s", ref, game_id, interaction.id
        )
        await tell(interaction, f"Sorry, something went wrong on our side (reference {ref}).")
