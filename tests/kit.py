"""Helpers the tests of every game share."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import discord
from pydantic import BaseModel

from discord.components import _component_factory
from discord.ui.view import _component_to_item

from bot import layout
from bot.components import ALL_ITEMS
from bot.models import Seat, Table


def table_for(state: BaseModel, names: Sequence[str], *, game: str, bots: Collection[int] = (),
              first_user: int = 1, **fields: Any) -> Table:
    """A table as the host stores it around ``state``, to read it the way the host renders it.

    Seat i is ``names[i]``: the user ``first_user + i``, who is also the host for seat 0, or a
    bot player (no user) if i is in ``bots``. ``fields`` sets anything else a test reads (the
    table's number, its status, its timer)."""
    seats = [Seat(user_id=None if i in bots else first_user + i, name=name, ai=i in bots)
             for i, name in enumerate(names)]
    defaults: dict[str, Any] = {"guild_id": 1, "channel_id": 2, "host_id": first_user, "seed": 7}
    return Table(**{**defaults, **fields}, game=game, seats=seats, state=state.model_dump(mode="json"))


def public(spec: Any, table: Table) -> BaseModel:
    """The channel's view of a table's stored state, as the host hands it to a game's hooks."""
    engine = spec.engine
    return engine.view(engine.State.model_validate(table.state), None)  # type: ignore[no-any-return]


# -- reading a message the host built (bot.present.Shown), as a player would -----------------


def words(shown: Any) -> str:
    """Everything a layout message says, in order."""
    return layout.texts(shown.layout)


def top(shown: Any) -> str:
    """The lines above the game's blocks: who is asked (pinged), news, a notice."""
    shown_texts = [i["content"] for i in layout.items(shown.layout) if i["type"] == layout.TEXT]
    return shown_texts[0] if shown_texts else ""


def controls(shown: Any, kind: type | tuple[type, ...] | None = None) -> list[Any]:
    """The message's controls (the host's dynamic items: ActionButton, ActionSelect, OpenButton,
    OpenSelect, DetailsButton...), in display order; ``kind`` picks some."""
    found = [_item(i) for i in layout.items(shown.layout) if "custom_id" in i]
    return [i for i in found if kind is None or isinstance(i, kind)]


def _item(sent: layout.Component) -> discord.ui.DynamicItem[Any]:
    """A control as the message carries it, read back the way a click on it is: the host's
    item its id names (its game, seat, stamp, index), holding the button or menu as sent."""
    shown = _component_to_item(_component_factory(sent))  # type: ignore[arg-type]
    for kind in ALL_ITEMS:
        match = kind.__discord_ui_compiled_template__.fullmatch(sent["custom_id"])
        if match is not None:
            reading = kind.from_custom_id(None, shown, match)  # type: ignore[arg-type]
            try:
                reading.send(None)  # it awaits nothing: its first step returns the item
            except StopIteration as done:
                item: discord.ui.DynamicItem[Any] = done.value
                item.item = shown
                return item
    raise AssertionError(f"no item claims {sent['custom_id']}")


def labels(shown: Any) -> list[str]:
    """What each button says and each menu offers, in display order."""
    out: list[str] = []
    for item in controls(shown):
        inner = item.item
        out += [o.label for o in inner.options] if hasattr(inner, "options") else [inner.label or ""]
    return out
