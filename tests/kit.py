"""Helpers the tests of every game share."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import discord
from pydantic import BaseModel

from bot import layout
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
    shown_texts = [i for i in layout.items(shown.layout) if isinstance(i, discord.ui.TextDisplay)]
    return shown_texts[0].content if shown_texts else ""


def controls(shown: Any, kind: type | tuple[type, ...] | None = None) -> list[Any]:
    """The message's controls (the host's dynamic items: ActionButton, ActionSelect, OpenButton,
    OpenSelect, DetailsButton...), in display order; ``kind`` picks some."""
    found = [i for i in layout.items(shown.layout) if isinstance(i, discord.ui.DynamicItem)]
    return [i for i in found if kind is None or isinstance(i, kind)]


def labels(shown: Any) -> list[str]:
    """What each button says and each menu offers, in display order."""
    out: list[str] = []
    for item in controls(shown):
        inner = item.item
        out += [o.label for o in inner.options] if hasattr(inner, "options") else [inner.label or ""]
    return out
