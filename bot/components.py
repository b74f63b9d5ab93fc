"""Persistent buttons: every custom id carries what a click needs, so no view lives in memory.

Registered once in setup_hook; after a restart every button of every stored game still works,
and a click loads its game from the store. Ids stay far under Discord's 100 characters.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import guarded

if TYPE_CHECKING:
    from bot.runtime import TableRuntime


def _runtime(interaction: discord.Interaction) -> "TableRuntime":
    return interaction.client.runtime  # type: ignore[attr-defined]


LOBBY_OPS = {"join": "Join", "leave": "Leave", "start": "Start", "cancel": "Cancel", "ai": "Add AI"}


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:lobby:(?P<gid>\d+):(?P<op>[a-z]+)"):
    def __init__(self, game_id: int, op: str) -> None:
        style = {
            "join": discord.ButtonStyle.success,
            "start": discord.ButtonStyle.primary,
            "cancel": discord.ButtonStyle.danger,
        }.get(op, discord.ButtonStyle.secondary)
        super().__init__(
            discord.ui.Button(label=LOBBY_OPS[op], style=style, custom_id=f"bn:lobby:{game_id}:{op}")
        )
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> "LobbyButton":
        op = match["op"] if match["op"] in LOBBY_OPS else "join"
        return cls(int(match["gid"]), op)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).lobby(interaction, self.game_id, self.op), game_id=self.game_id)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:act:(?P<gid>\d+):(?P<stamp>[0-9a-z.]+):(?P<idx>\d+)"):
    def __init__(self, game_id: int, stamp: str, index: int, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, row=row,
                              custom_id=f"bn:act:{game_id}:{stamp}:{index}")
        )
        self.game_id, self.stamp, self.index = game_id, stamp, index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> "ActionButton":
        return cls(int(match["gid"]), match["stamp"], int(match["idx"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).act(interaction, self.game_id, self.stamp, [self.index]), game_id=self.game_id)


class OpenButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:all:(?P<gid>\d+):(?P<stamp>[0-9a-z.]+):(?P<idx>\d+)"):
    """A choice on the public table that any seat owing a decision may press (Engine.open_actions)."""

    def __init__(self, game_id: int, stamp: str, index: int, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, row=row,
                              custom_id=f"bn:all:{game_id}:{stamp}:{index}")
        )
        self.game_id, self.stamp, self.index = game_id, stamp, index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> "OpenButton":
        return cls(int(match["gid"]), match["stamp"], int(match["idx"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).act_in_open(interaction, self.game_id, self.stamp, self.index), game_id=self.game_id)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"bn:pick:(?P<gid>\d+):(?P<stamp>[0-9a-z.]+)"):
    def __init__(self, game_id: int, stamp: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str = "Choose…", row: int | None = None) -> None:
        super().__init__(
            discord.ui.Select(custom_id=f"bn:pick:{game_id}:{stamp}", options=options or [discord.SelectOption(label="…", value="0")],
                              placeholder=placeholder, row=row)
        )
        self.game_id, self.stamp = game_id, stamp

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> "ActionSelect":
        return cls(int(match["gid"]), match["stamp"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values", [])  # type: ignore[union-attr]
        choices = [int(v) for v in values if str(v).isdigit()]
        await guarded(interaction, lambda: _runtime(interaction).act(interaction, self.game_id, self.stamp, choices), game_id=self.game_id)


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:hand:(?P<gid>\d+)"):
    def __init__(self, game_id: int, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(label="My hand", emoji="🃏", style=discord.ButtonStyle.secondary,
                              custom_id=f"bn:hand:{game_id}", row=row)
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> "HandButton":
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).show_hand(interaction, self.game_id), game_id=self.game_id)


class EndButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:end:(?P<gid>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="End the game", style=discord.ButtonStyle.danger, custom_id=f"bn:end:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> "EndButton":
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).end(interaction, self.game_id), game_id=self.game_id)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:again:(?P<gid>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Rematch", style=discord.ButtonStyle.success, custom_id=f"bn:again:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> "RematchButton":
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).rematch(interaction, self.game_id), game_id=self.game_id)


ALL_ITEMS = (LobbyButton, ActionButton, OpenButton, ActionSelect, HandButton, EndButton, RematchButton)
