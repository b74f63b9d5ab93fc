"""The one way a seat's secrets leave the bot: by DM, or not at all.

When Discord refuses the DM (the player closed DMs: 403, code 50007) the caller marks the seat,
and the player reads the same view through the table's **My hand** button, ephemerally.
A hand is never edited in place later: a fresh copy is sent, because interaction tokens die.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import metrics

log = logging.getLogger(__name__)

CANNOT_DM = 50007


async def send_private(client: discord.Client, user_id: int, **message: Any) -> discord.Message | None:
    """Send ``message`` to a user's DMs: the message, or None when they cannot receive it."""
    message.pop("allowed_mentions", None)
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        return await user.send(**{k: v for k, v in message.items() if v is not None})
    except discord.Forbidden as exc:
        metrics.DMS_REFUSED.inc()
        if exc.code != CANNOT_DM:
            log.warning("DM to user %s refused with code %s", user_id, exc.code)
        return None
    except discord.NotFound:
        log.warning("DM to user %s: no such user", user_id)
        return None
    except discord.HTTPException as exc:
        # Discord failing after its retries: this player reads the view through My hand, and
        # the other seats still get theirs.
        log.warning("DM to user %s failed: %s %s", user_id, exc.status, exc.text)
        return None
