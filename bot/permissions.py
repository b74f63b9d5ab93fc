"""Who a server trusts beyond a table's host: its GMs.

A GM is someone with Manage Server (or Administrator), or a member of the role the server's
settings name. Read from the interaction alone, so it costs no request; outside a server nobody
is a GM, as there is no server to trust them.
"""

from __future__ import annotations

import discord

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
