"""Helpers the tests of every game share."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from pydantic import BaseModel

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
