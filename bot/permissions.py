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

from bot.render import and_list, safe
from bot.store.records import ServerSettings


#: what a table message needs of the bot in its channel, in Discord's words
TABLE_PERMISSIONS = {"view_channel": "View Channel", "send_messages": "Send Messages",
                     "send_messages_in_threads": "Send Messages in Threads", "embed_links": "Embed Links",
                     "attach_files": "Attach Files", "read_message_history": "Read Message History"}
#: Discord's codes for a thread the bot may not post in whatever its permissions: locked, or
#: archived and not to be opened by a post
THREAD_LOCKED = (160005, 50083)


def lacking(have: discord.Permissions, *, thread: bool = False) -> list[str]:
    """The permissions a table needs that are not in ``have``, in the words the channel's
    settings use."""
    return [words for name, words in TABLE_PERMISSIONS.items()
            if not getattr(have, name) and (name != "send_messages_in_threads" or thread)
            and (name != "send_messages" or not thread)]


def given_in(channel: object, channel_id: int) -> str:
    """Where a channel's permissions are set, as a mention: a thread's are its channel's."""
    if isinstance(channel, discord.Thread):
        return f"<#{channel.parent_id}>, this thread's channel"
    return f"<#{channel_id}>"


def listed(missing: list[str]) -> str:
    return and_list([f"**{m}**" for m in missing]) if missing else "a permission I need"


def missing_permissions(missing: list[str], where: str, *, above: bool = True) -> str:
    """Which permission the bot lacks, and where it is given, in words the person who can fix
    it recognises. ``above``: the old table shows the game meanwhile (it was redrawn)."""
    return (f"I could not post the new table here: I am missing {listed(missing)} in {where}. "
            + ("The table above is up to date; once" if above else "Once")
            + " a server admin grants that, the next move or `/game status` posts it again.")


def thread_locked(*, above: bool = True) -> str:
    """A locked thread refuses the table whatever the bot's permissions: no admin's grant
    mends it, a moderator's unlock does."""
    return ("I could not post the new table here: this thread is locked. "
            + ("The table above is up to date; once" if above else "Once")
            + " a moderator unlocks it, the next move or `/game status` posts it again.")


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
    where = given_in(channel, interaction.channel_id or 0)
    said = []
    missing = lacking(have, thread=thread)
    if missing:
        them = "them" if len(missing) > 1 else "it"
        said.append(f"Before you play: give **{me}** {listed(missing)} in {where}"
                    f" (Edit Channel → Permissions): its tables need {them}.")
    if isinstance(channel, discord.Thread) and channel.locked and not have.manage_threads:
        said.append(f"This thread is locked: I cannot post its tables until a moderator unlocks it, or gives "
                    f"**{me}** **Manage Threads** in {where}.")
    return "\n".join(said) or None
