"""What a game cog hands the host: its engine and how its state looks in Discord."""

from __future__ import annotations

from typing import Any, ClassVar

import discord
from pydantic import BaseModel

from bot.models import Table
from rules.base import Engine


class GameSpec:
    """Subclass in a cog. The host asks it for pictures of the game, never for rules."""

    engine: ClassVar[Engine[Any, Any, Any]]
    #: the slash-command group name, e.g. "knucklebones"
    command: ClassVar[str]
    colour: ClassVar[discord.Colour] = discord.Colour.dark_gold()

    def table_embed(self, table: Table, view: BaseModel) -> discord.Embed:
        """The public table (``view`` is ``engine.view(state, None)``)."""
        raise NotImplementedError

    def private_embed(self, table: Table, seat: int, view: BaseModel) -> discord.Embed:
        """One seat's private view; only games with secrets need it."""
        raise NotImplementedError

    def action_label(self, view: BaseModel, action: BaseModel) -> str:
        """A button label (at most 80 characters) for one legal action."""
        raise NotImplementedError

    def action_style(self, view: BaseModel, action: BaseModel) -> discord.ButtonStyle:
        return discord.ButtonStyle.primary

    def prompt(self, table: Table, view: BaseModel, seat: int) -> str:
        """One line telling the acting seat what the buttons decide."""
        return "Your move."

    def open_prompt(self, table: Table, view: BaseModel) -> str:
        """One line for the choices everyone makes on the table at once (Engine.open_actions)."""
        return "choose below; this choice is public."

    def start_options(self, table: Table, options: BaseModel) -> BaseModel:
        """The options the game starts with; a game that reads seat stakes puts them in here."""
        return options

    def score_text(self, score: int) -> str:
        """A final score in words, for the standings."""
        return f"{score} points"

    def stake_text(self, table: Table, stake: int | None) -> str | None:
        """A seat's stake in words for the lobby (``None``: the seat set none); None shows
        nothing. A game with a default stake shows it for every seat."""
        return None if stake is None else str(stake)

    def timer_seconds(self, table: Table, state: BaseModel) -> int | None:
        """The time for the decisions awaited in ``state``: the table's timer, unless the rules
        ask for a shorter window at this moment (a call that must come at once)."""
        return table.timer_seconds

    def finish_messages(self, table: Table, view: BaseModel) -> list[dict[str, Any]]:
        """Messages (keyword arguments of ``channel.send``) posted after the final standings,
        such as a ledger with a file the game-master keeps."""
        return []

    def rules_text(self, options: BaseModel) -> str:
        raise NotImplementedError

    def option_lines(self, options: BaseModel) -> list[str]:
        """The options that differ from the defaults, in words, for the lobby and /game rules."""
        defaults = type(options)()
        return [
            f"{name.replace('_', ' ')}: {value}"
            for name, value in options.model_dump().items()
            if value != getattr(defaults, name)
        ]
