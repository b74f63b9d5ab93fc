"""Persistent buttons: every custom id carries what a click needs, so no view lives in memory.

Registered once in setup_hook; after a restart every button of every stored game still works,
and a click loads its game from the store. Ids stay far under Discord's 100 characters.

Each item has two faces: ``component(...)``, the control as a table sends it (bot/layout.py
builds messages as Discord's JSON), and the item itself, made from a clicked id alone to route
the click to its callback. Both take the id from the same place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol, cast

import discord

from bot import layout
from bot.errors import guarded


class Clicks(Protocol):
    """What a click is handed to. The runtime provides it; components never import the runtime,
    so imports run one way: client -> runtime -> render -> components."""

    async def lobby(self, interaction: discord.Interaction, game_id: int, op: str) -> None: ...
    async def act(self, interaction: discord.Interaction, game_id: int, seat: int | None, stamp: str,
                  choices: Sequence[int]) -> None: ...
    async def act_in_open(self, interaction: discord.Interaction, game_id: int, stamp: str, index: int) -> None: ...
    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def show_details(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def how_to_play(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def end(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def turn_page(self, interaction: discord.Interaction, game_id: int, book: str, page: int) -> None: ...


def _runtime(interaction: discord.Interaction) -> Clicks:
    return interaction.client.runtime  # type: ignore[attr-defined]


LOBBY_OPS = {"join": "Join", "leave": "Leave", "start": "Start", "cancel": "Cancel", "ai": "Add AI"}
LOBBY_STYLES = {"join": discord.ButtonStyle.success, "start": discord.ButtonStyle.primary,
                "cancel": discord.ButtonStyle.danger}


def _routed(custom_id: str) -> discord.ui.Button[Any]:
    """The item a click is routed through: only its id is read (the message's own component,
    label and all, was built by ``component``)."""
    return discord.ui.Button(custom_id=custom_id)


def _picked(custom_id: str) -> discord.ui.Select[Any]:
    return discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="…", value="0")])


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:lobby:(?P<gid>\d+):(?P<op>[a-z]+)"):
    def __init__(self, game_id: int, op: str) -> None:
        super().__init__(_routed(self.id_of(game_id, op)))
        self.game_id, self.op = game_id, op

    @staticmethod
    def id_of(game_id: int, op: str) -> str:
        return f"bn:lobby:{game_id}:{op}"

    @classmethod
    def component(cls, game_id: int, op: str) -> layout.Component:
        return layout.button(cls.id_of(game_id, op), LOBBY_OPS.get(op, op),
                             LOBBY_STYLES.get(op, discord.ButtonStyle.secondary))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> LobbyButton:
        return cls(int(match["gid"]), match["op"])  # an unknown op is refused by the lobby

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).lobby(interaction, self.game_id, self.op), game_id=self.game_id)


def _seat(match: re.Match[str]) -> int | None:
    return int(match["seat"]) if match["seat"] is not None else None


def _seat_part(seat: int | None) -> str:
    return "" if seat is None else f"s{seat}:"


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"bn:act:(?P<gid>\d+):(?:s(?P<seat>\d+):)?(?P<stamp>[0-9a-z.]+):(?P<idx>\d+)"):
    """One seat's move. The id names the seat it was drawn for, so a click by anyone else is
    told whose button it is, and a stale one is told the moment passed."""

    def __init__(self, game_id: int, seat: int | None, stamp: str, index: int) -> None:
        super().__init__(_routed(self.id_of(game_id, seat, stamp, index)))
        self.game_id, self.seat, self.stamp, self.index = game_id, seat, stamp, index

    @staticmethod
    def id_of(game_id: int, seat: int | None, stamp: str, index: int) -> str:
        return f"bn:act:{game_id}:{_seat_part(seat)}{stamp}:{index}"

    @classmethod
    def component(cls, game_id: int, seat: int | None, stamp: str, index: int, label: str,
                  style: discord.ButtonStyle) -> layout.Component:
        return layout.button(cls.id_of(game_id, seat, stamp, index), label[:80], style)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> ActionButton:
        return cls(int(match["gid"]), _seat(match), match["stamp"], int(match["idx"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).act(
            interaction, self.game_id, self.seat, self.stamp, [self.index]), game_id=self.game_id)


class OpenButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:all:(?P<gid>\d+):(?P<stamp>[0-9a-z.]+):(?P<idx>\d+)"):
    """A choice on the public table that any seat owing a decision may press (Engine.open_actions)."""

    def __init__(self, game_id: int, stamp: str, index: int) -> None:
        super().__init__(_routed(self.id_of(game_id, stamp, index)))
        self.game_id, self.stamp, self.index = game_id, stamp, index

    @staticmethod
    def id_of(game_id: int, stamp: str, index: int) -> str:
        return f"bn:all:{game_id}:{stamp}:{index}"

    @classmethod
    def component(cls, game_id: int, stamp: str, index: int, label: str,
                  style: discord.ButtonStyle) -> layout.Component:
        return layout.button(cls.id_of(game_id, stamp, index), label[:80], style)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> OpenButton:
        return cls(int(match["gid"]), match["stamp"], int(match["idx"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).act_in_open(interaction, self.game_id, self.stamp, self.index), game_id=self.game_id)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"bn:pick:(?P<gid>\d+):(?:s(?P<seat>\d+):)?(?P<stamp>[0-9a-z.]+)(?::p(?P<page>\d+))?"):
    """A menu of a seat's choices; more than a menu holds go on in further menus (``page``),
    whose options keep their index among all the choices."""

    def __init__(self, game_id: int, seat: int | None, stamp: str) -> None:
        super().__init__(_picked(self.id_of(game_id, seat, stamp)))
        self.game_id, self.seat, self.stamp = game_id, seat, stamp

    @staticmethod
    def id_of(game_id: int, seat: int | None, stamp: str, page: int = 0) -> str:
        return f"bn:pick:{game_id}:{_seat_part(seat)}{stamp}" + (f":p{page}" if page else "")

    @classmethod
    def component(cls, game_id: int, seat: int | None, stamp: str, options: list[discord.SelectOption],
                  placeholder: str = "Choose…", page: int = 0) -> layout.Component:
        return layout.select(cls.id_of(game_id, seat, stamp, page), options, placeholder)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> ActionSelect:
        return cls(int(match["gid"]), _seat(match), match["stamp"])

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values: list[Any] = list(data.get("values") or [])
        # a forged value need not be one the menu offered: read only plain small numbers
        choices = [int(v) for v in map(str, values) if v.isascii() and v.isdigit() and len(v) <= 4]
        await guarded(interaction, lambda: _runtime(interaction).act(
            interaction, self.game_id, self.seat, self.stamp, choices), game_id=self.game_id)


class OpenSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"bn:allpick:(?P<gid>\d+):(?P<stamp>[0-9a-z.]+)(?::m(?P<menu>\d+))?"):
    """A menu of choices made in the open (Engine.open_actions); options keep their index
    among all of them. Several on one table are told apart by ``menu``."""

    def __init__(self, game_id: int, stamp: str) -> None:
        super().__init__(_picked(self.id_of(game_id, stamp)))
        self.game_id, self.stamp = game_id, stamp

    @staticmethod
    def id_of(game_id: int, stamp: str, menu: int = 0) -> str:
        return f"bn:allpick:{game_id}:{stamp}" + (f":m{menu}" if menu else "")

    @classmethod
    def component(cls, game_id: int, stamp: str, options: list[discord.SelectOption], placeholder: str = "Choose…",
                  menu: int = 0) -> layout.Component:
        return layout.select(cls.id_of(game_id, stamp, menu), options, placeholder)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> OpenSelect:
        return cls(int(match["gid"]), match["stamp"])

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values") or []]
        if len(values) != 1 or not (values[0].isascii() and values[0].isdigit() and len(values[0]) <= 4):
            values = ["9999"]  # never an offered choice: refused as one
        await guarded(interaction, lambda: _runtime(interaction).act_in_open(
            interaction, self.game_id, self.stamp, int(values[0])), game_id=self.game_id)


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:hand:(?P<gid>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(_routed(self.id_of(game_id)))
        self.game_id = game_id

    @staticmethod
    def id_of(game_id: int) -> str:
        return f"bn:hand:{game_id}"

    @classmethod
    def component(cls, game_id: int, label: str = "My hand", emoji: str = "🃏") -> layout.Component:
        return layout.button(cls.id_of(game_id), label, discord.ButtonStyle.secondary, emoji)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> HandButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).show_hand(interaction, self.game_id), game_id=self.game_id)


class DetailsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:info:(?P<gid>\d+)"):
    """The rest of the table (full sheet, legend, fine print), answered privately."""

    def __init__(self, game_id: int) -> None:
        super().__init__(_routed(self.id_of(game_id)))
        self.game_id = game_id

    @staticmethod
    def id_of(game_id: int) -> str:
        return f"bn:info:{game_id}"

    @classmethod
    def component(cls, game_id: int) -> layout.Component:
        return layout.button(cls.id_of(game_id), "Details", discord.ButtonStyle.secondary, "📋")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> DetailsButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).show_details(interaction, self.game_id), game_id=self.game_id)


class HowToButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:how:(?P<gid>\d+)"):
    """The lobby's rules, privately, for whoever is deciding whether to join."""

    def __init__(self, game_id: int) -> None:
        super().__init__(_routed(self.id_of(game_id)))
        self.game_id = game_id

    @staticmethod
    def id_of(game_id: int) -> str:
        return f"bn:how:{game_id}"

    @classmethod
    def component(cls, game_id: int) -> layout.Component:
        return layout.button(cls.id_of(game_id), "How to play", discord.ButtonStyle.secondary, "📖")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> HowToButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).how_to_play(interaction, self.game_id), game_id=self.game_id)


class EndButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:end:(?P<gid>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="End the game", style=discord.ButtonStyle.danger, custom_id=f"bn:end:{game_id}")
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> EndButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).end(interaction, self.game_id), game_id=self.game_id)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bn:again:(?P<gid>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(_routed(self.id_of(game_id)))
        self.game_id = game_id

    @staticmethod
    def id_of(game_id: int) -> str:
        return f"bn:again:{game_id}"

    @classmethod
    def component(cls, game_id: int) -> layout.Component:
        return layout.button(cls.id_of(game_id), "Rematch", discord.ButtonStyle.success)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> RematchButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: _runtime(interaction).rematch(interaction, self.game_id), game_id=self.game_id)


class PageSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"bn:page:(?P<gid>\d+):(?P<book>[a-z_]+)"):
    """Which page of Details or of the rules a private answer shows: each page fits a phone
    screen, and the others are a tap away."""

    def __init__(self, game_id: int, book: str) -> None:
        super().__init__(_picked(self.id_of(game_id, book)))
        self.game_id, self.book = game_id, book

    @staticmethod
    def id_of(game_id: int, book: str) -> str:
        return f"bn:page:{game_id}:{book}"

    @classmethod
    def component(cls, game_id: int, book: str, titles: Sequence[str], current: int = 0) -> layout.Component:
        options = [discord.SelectOption(label=t[:100] or "…", value=str(i), default=i == current)
                   for i, t in enumerate(titles[:25])] or [discord.SelectOption(label="…", value="0")]
        return layout.select(cls.id_of(game_id, book), options, "More…")

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> PageSelect:
        return cls(int(match["gid"]), match["book"])

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values") or []]
        page = int(values[0]) if values and values[0].isascii() and values[0].isdigit() and len(values[0]) <= 3 else 0
        await guarded(interaction, lambda: _runtime(interaction).turn_page(interaction, self.game_id, self.book, page),
                      game_id=self.game_id)


ALL_ITEMS = (LobbyButton, ActionButton, OpenButton, ActionSelect, OpenSelect, HandButton, DetailsButton, HowToButton,
             EndButton, RematchButton, PageSelect)
