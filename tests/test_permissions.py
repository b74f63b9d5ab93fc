"""Who is a GM: Manage Server or Administrator, or the role the server names; nobody outside a server."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.permissions import is_gm
from bot.store import ServerSettings

GUILD, ROLE = 5, 77


def asking(*, guild: int | None = GUILD, permissions: discord.Permissions | None = None,
           roles: tuple[int, ...] = ()) -> discord.Interaction:
    user = SimpleNamespace(roles=[SimpleNamespace(id=r) for r in roles])
    return SimpleNamespace(guild_id=guild, permissions=permissions or discord.Permissions.none(),  # type: ignore[return-value]
                           user=user)


def test_a_gm_manages_the_server_or_holds_its_gm_role() -> None:
    settings = ServerSettings(guild_id=GUILD, gm_role_id=ROLE)
    assert is_gm(asking(permissions=discord.Permissions(manage_guild=True)), settings)
    assert is_gm(asking(permissions=discord.Permissions(administrator=True)), settings)
    assert is_gm(asking(roles=(1, ROLE)), settings)
    assert not is_gm(asking(roles=(1, 2)), settings)
    assert not is_gm(asking(permissions=discord.Permissions(manage_channels=True)), settings)
    assert not is_gm(asking(roles=(ROLE,)), ServerSettings(guild_id=GUILD))  # no role named yet


def test_nobody_is_a_gm_outside_the_server_the_settings_belong_to() -> None:
    settings = ServerSettings(guild_id=GUILD, gm_role_id=ROLE)
    assert not is_gm(asking(guild=None, permissions=discord.Permissions.all()), settings)
    assert not is_gm(asking(guild=GUILD + 1, roles=(ROLE,)), settings)
