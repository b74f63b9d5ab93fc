"""What a game cog hands the host: its engine and how its state looks in Discord."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

import discord
from pydantic import BaseModel

from bot.models import Table
from bot.pictures import Picture
from rules.base import Engine, Event, GameError


V = TypeVar("V", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)


class Tavern:
    """What a game that a game-master can run tells the host. The defaults: no stakes, no
    record at the end."""

    #: an NPC's name the refusal of a bad one suggests
    npc_example: ClassVar[str] = "Old Marrow"
    #: what a seat's stake is called here ("purse"); None: the game has no stakes
    stake_word: ClassVar[str | None] = None

    def parse_stake(self, text: str) -> int:
        """A stake the host typed, in the game's units; a Refusal that says how to write one."""
        raise GameError("This game has no stakes: seat the NPC without one.")

    def stake_text(self, options: Any, stake: int | None) -> str | None:
        """A seat's stake in words for the lobby (``None``: the seat set none)."""
        return None

    def starting_options(self, options: Any, stakes: list[int | None]) -> Any:
        """The options a game starts with, given what each seat brings."""
        return options

    def last_words(self, table: Table, view: BaseModel) -> list[dict[str, Any]]:
        """Messages (keyword arguments of ``channel.send``) after the final standings, such as a
        ledger with a file the game-master keeps; they ride on the final table when they fit."""
        return []


class GameSpec(Generic[V, A, O]):
    """Subclass in a cog, as ``GameSpec[TheView, TheAction, TheOptions]``, so every hook gets the
    game's own types. The host asks it for pictures of the game, never for rules."""

    engine: ClassVar[Engine[Any, Any, Any]]
    #: the slash-command group name, e.g. "knucklebones"
    command: ClassVar[str]
    colour: ClassVar[discord.Colour] = discord.Colour.dark_gold()
    #: the lobby's one line: what the game is and about how long it takes
    blurb: ClassVar[str] = ""
    #: tavern mode (NPC seats, stakes, a record at the end), for games a game-master can run
    tavern: ClassVar[Tavern | None] = None

    def table_embed(self, table: Table, view: V) -> discord.Embed:
        """The live public table (``view`` is ``engine.view(state, None)``): only what a player
        needs to act now, phone-sized. Everything else belongs in ``details``."""
        raise NotImplementedError

    def picture(self, table: Table, view: V) -> Picture | None:
        """The dice (or board) of this table version as a picture, or None when it shows none."""
        return None

    def private_embed(self, table: Table, seat: int, view: V) -> discord.Embed:
        """One seat's private view: their hand or sealed choice and one line of context, never
        a copy of the table. Only games with secrets need it."""
        raise NotImplementedError

    def details(self, table: Table, view: V, seat: int | None) -> list[discord.Embed]:
        """What the Details button shows privately: the full sheet, the legend, the fine print.
        ``view`` is what the asker may see (their own view if they hold a seat)."""
        return []

    def details_pictures(self, table: Table, view: V, seat: int | None) -> list[Picture]:
        """Pictures Details shows under its embeds, one each (a player's dice, say), at most 4."""
        return []

    def chapter(self, view: V) -> str:
        """Where the game stands, as a heading for history and the log ("Turn 4", "Round 2 ·
        Seat 1": "Seat N" becomes the player's name)."""
        return ""

    def story(self, table: Table, view: V, events: list[Event]) -> str | None:
        """One line for history: what happened while a table was live, from its events and the
        public ``view`` after them ("Seat N" names are replaced by the host). None: the line
        only names the chapter."""
        texts = [e.text for e in events]
        return texts[-1] if texts else None

    def headline(self, table: Table, view: V, events: list[Event]) -> str | None:
        """News worth a ping, put above the next table: every seated person it names is
        mentioned (a round's winner, who is out). None for turns that concern only their player."""
        return None

    def action_label(self, view: V, action: A) -> str:
        """A button label (at most 80 characters) for one legal action."""
        raise NotImplementedError

    def action_style(self, view: V, action: A) -> discord.ButtonStyle:
        return discord.ButtonStyle.primary

    def prompt(self, table: Table, view: V, seat: int) -> str:
        """One line telling the acting seat what the buttons decide. On the table it follows
        "@Name: "; in a private view (a DM) it stands first, so write it to read both ways."""
        return "Your move."

    def open_prompt(self, table: Table, view: V) -> str:
        """One line for the choices everyone makes on the table at once (Engine.open_actions)."""
        return "choose below; this choice is public."

    def score_text(self, score: int) -> str:
        """A final score in words, for the standings."""
        return f"{score} points"

    def rules_text(self, options: O) -> str:
        raise NotImplementedError

    def option_lines(self, options: O) -> list[str]:
        """The options that differ from the defaults, in words, for the lobby and /game rules."""
        defaults = type(options)()
        return [
            f"{name.replace('_', ' ')}: {value}"
            for name, value in options.model_dump().items()
            if value != getattr(defaults, name)
        ]
