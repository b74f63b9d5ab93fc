"""Permissions: who a server trusts beyond a table's host (its GMs), and what a moderator must
give the bot in a channel for a table to be played there.

A GM is someone with Manage Server (or Administrator), or a member of the role the server's
settings name. Read from the interaction alone, so it costs no request; outside a server nobody
is a GM, as there is no server to trust them.

The advice to whoever opens a table names the bot, each permission and the channel whose
settings hold it, in the words Discord's settings use: a thread has no permissions of its own
(they are its channel's), so for a thread it names the channel above it, where they are given.
"""

from __future__ import annotations

import discord

from bot.deliver import lacking
from bot.render import and_list, safe
from bot.store.records import ServerSettings


def is_gm(interaction: discord.Interaction, settings: ServerSettings) -> bool:
    if interaction.guild_id is None or interaction.guild_id != settings.guild_id:
        return False
    permissions = interaction.permissions
    if permissions.manage_guild or permissions.administrator:
        return True
    role = settings.gm_role_id
    # a member's roles (a user outside a server has none)
    return role is not None and any(r.id == role for r in getattr(interaction.user, "roles", ()))


def host_advice(interaction: discord.Interaction) -> str | None:
    """What the person opening a table must have a moderator change, when the bot could not
    post the game's tables in this channel as its turns go by (None: nothing). Each turn posts a
    new table, so a lobby that opens (an interaction's answer needs no permission) says nothing
    of the game that follows."""
    channel, have = interaction.channel, interaction.app_permissions
    thread = isinstance(channel, discord.Thread)
    me = safe(interaction.client.user.name) if interaction.client.user is not None else "the bot"
    # where the permissions are set: a thread's are its channel's
    where = f"<#{channel.parent_id}>" if isinstance(channel, discord.Thread) else f"<#{interaction.channel_id}>"
    said = []
    missing = lacking(have, thread=thread)
    if missing:
        them = "them" if len(missing) > 1 else "it"
        said.append(f"Before you play: give **{me}** {and_list([f'**{m}**' for m in missing])} in {where}"
                    + (", this thread's channel" if thread else "")
                    + f" (Edit Channel → Permissions): its tables need {them}.")
    if isinstance(channel, discord.Thread) and channel.locked and not have.manage_threads:
        said.append(f"This thread is locked: I cannot post its tables until a moderator unlocks it, or gives "
                    f"**{me}** **Manage Threads** in {where}.")
    return "\n".join(said) or None
