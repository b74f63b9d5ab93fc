"""The dice tools' buttons: Roll again, Reveal, the confirmation that erases a history (or keeps
it), the menu that turns the pages of /rolls list, and /roll-bones' Throw again and Reveal.

Persistent like the games' buttons (bot/components.py): the custom id names the stored roll, so a
button drawn before a restart still works after it, and nothing lives in memory between clicks.
(A throw of the Bones is not stored: its Reveal shows the message it was pressed on, which
Discord hands over with the click and no client can forge.) A click is handed to the cog that
answers it (/roll's Poster, /rolls, or /roll-bones), found through the client, so that this
module imports nothing that builds messages with it.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord

from bot.errors import guarded


class Clicks(Protocol):
    async def again(self, interaction: discord.Interaction, roll_id: int) -> None: ...
    async def reveal(self, interaction: discord.Interaction, roll_id: int) -> None: ...
    async def forget(self, interaction: discord.Interaction, guild_id: int, user_id: int) -> None: ...


class Lists(Protocol):
    async def keep(self, interaction: discord.Interaction, user_id: int) -> None: ...
    async def turn_page(self, interaction: discord.Interaction, user_id: int, page: int) -> None: ...


class Throws(Protocol):
    async def again(self, interaction: discord.Interaction, tide: int, rule: str) -> None: ...
    async def reveal(self, interaction: discord.Interaction) -> None: ...


#: the cog whose ``poster`` answers the clicks on rolls
COG = "RollCog"
#: the cog that answers the clicks on /rolls' own answers
LISTS = "RollsCog"
#: the cog that answers the clicks on /roll-bones' throws
THROWS = "RollBonesCog"


def _poster(interaction: discord.Interaction) -> Clicks:
    cog = interaction.client.get_cog(COG)  # type: ignore[attr-defined]
    return cast(Clicks, cog.poster)


def _lists(interaction: discord.Interaction) -> Lists:
    return cast(Lists, interaction.client.get_cog(LISTS))  # type: ignore[attr-defined]


class RollAgainButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:roll:again:(?P<id>\d{1,18})"):
    """Rolls a public roll's dice again, for whoever presses it."""

    def __init__(self, roll_id: int) -> None:
        super().__init__(discord.ui.Button(label="Roll again", emoji="🎲", style=discord.ButtonStyle.secondary,
                                           custom_id=f"bn:roll:again:{roll_id}"))
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RollAgainButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _poster(interaction).again(interaction, self.roll_id))


class RevealButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:roll:reveal:(?P<id>\d{1,18})"):
    """Shows a private roll to the channel, as it was rolled."""

    def __init__(self, roll_id: int) -> None:
        super().__init__(discord.ui.Button(label="Reveal", emoji="👁️", style=discord.ButtonStyle.primary,
                                           custom_id=f"bn:roll:reveal:{roll_id}"))
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RevealButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _poster(interaction).reveal(interaction, self.roll_id))


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"bn:roll:forget:(?P<guild>\d{1,19}):(?P<user>\d{1,19})"):
    """The second step of erasing your rolls in one place: nothing is erased by a mistyped command."""

    def __init__(self, guild_id: int, user_id: int, count: int = 0) -> None:
        label = "Erase my roll" if count == 1 else f"Erase my {count:,} rolls" if count else "Erase my rolls"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=f"bn:roll:forget:{guild_id}:{user_id}"))
        self.guild_id, self.user_id = guild_id, user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ForgetButton:
        return cls(int(match["guild"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _poster(interaction).forget(interaction, self.guild_id, self.user_id))


class KeepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:roll:keep:(?P<user>\d{1,19})"):
    """The way back from erasing your rolls: the question goes, and nothing is erased."""

    def __init__(self, user_id: int) -> None:
        super().__init__(discord.ui.Button(label="Keep them", style=discord.ButtonStyle.secondary,
                                           custom_id=f"bn:roll:keep:{user_id}"))
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> KeepButton:
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _lists(interaction).keep(interaction, self.user_id))


def _page_picked(values: Any) -> int:
    """The page a menu's choice names: its number, or 0 for anything else a client made up (a
    page past the last is brought back to the last by the list itself)."""
    value = str(values[0])[:100] if isinstance(values, list) and values else ""
    return int(value) if value.isascii() and value.isdigit() else 0


class RollsPageSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"bn:rolls:page:(?P<user>\d{1,19})"):
    """Which page of /rolls list its asker sees: each fits a phone's screen, the others a tap away."""

    def __init__(self, user_id: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"bn:rolls:page:{user_id}", placeholder="Other pages…",
                                           options=options or [discord.SelectOption(label="…", value="0")]))
        self.user_id = user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RollsPageSelect:
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        page = _page_picked(data.get("values"))
        await guarded(interaction, lambda: _lists(interaction).turn_page(interaction, self.user_id, page))


def _throws(interaction: discord.Interaction) -> Throws:
    return cast(Throws, interaction.client.get_cog(THROWS))  # type: ignore[attr-defined]


class ThrowAgainButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"bn:bones:again:(?P<tide>\d{1,2}):(?P<rule>[a-z_]{1,20})"):
    """Throws the Bones again at the same Tide and Ill Omens rule, for whoever presses: at a table
    that plays in person, the next player's throw is a tap away."""

    def __init__(self, tide: int, rule: str) -> None:
        super().__init__(discord.ui.Button(label="Throw again", emoji="🦴", style=discord.ButtonStyle.secondary,
                                           custom_id=f"bn:bones:again:{tide}:{rule}"))
        self.tide, self.rule = tide, rule

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ThrowAgainButton:
        return cls(int(match["tide"]), match["rule"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _throws(interaction).again(interaction, self.tide, self.rule))


class RevealThrowButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:bones:reveal"):
    """Shows a private throw of the Bones to the channel, as it was thrown."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Reveal", emoji="👁️", style=discord.ButtonStyle.primary,
                                           custom_id="bn:bones:reveal"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RevealThrowButton:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _throws(interaction).reveal(interaction))


ITEMS = (RollAgainButton, RevealButton, ForgetButton, KeepButton, RollsPageSelect, ThrowAgainButton,
         RevealThrowButton)
