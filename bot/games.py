"""What a game cog hands the host: its engine and how its state looks in Discord."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

import discord
from pydantic import BaseModel

from bot.models import Table
from bot.pictures import Picture
from rules.base import Engine, Event, GameError


@dataclass(frozen=True)
class Part:
    """A block of a layout message, in markdown. The host turns parts into Discord's components,
    so a game says what a message holds and never how Discord draws it."""

    text: str
    #: the seat this block is about: a choice on the table that is this seat's alone sits
    #: beside it, as the block's button
    seat: int | None = None
    #: a small picture beside the text
    thumbnail: Picture | None = None


@dataclass(frozen=True)
class Page:
    """One screen of Details or of the rules: a phone shows it without scrolling."""

    title: str
    parts: list[Part] = field(default_factory=list)
    picture: Picture | None = None


def embed_parts(embed: discord.Embed, *, title: bool = True) -> list[Part]:
    """An embed's words as parts: the title as a heading, the description, each field as a
    bold name over its value."""
    parts = []
    if embed.title and title:
        parts.append(Part(f"### {embed.title}"))
    if embed.description:
        parts.append(Part(embed.description))
    for f in embed.fields:
        if f.value and f.value != "\u200b":
            parts.append(Part(f"**{f.name}**\n{f.value}" if f.name and f.name != "\u200b" else f.value))
    return parts


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

    @staticmethod
    def runs(table: Table) -> bool:
        """Whether a table is played in tavern mode: a game-master runs it, or its host seated
        an NPC or set a stake. Only such a table leaves last words (a ledger the game-master
        keeps): friends around a plain game have the standings."""
        return not table.host_plays or any(seat.npc or seat.stake is not None for seat in table.seats)

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

    def rematch_stakes(self, table: Table, view: BaseModel) -> tuple[list[int | None], str | None]:
        """What each seat of a finished game (in its order) brings to the rematch, and a line
        for the lobby saying so: a game with stakes may carry forward what each took home."""
        return [seat.stake for seat in table.seats], None


class GameSpec(Generic[V, A, O]):
    """Subclass in a cog, as ``GameSpec[TheView, TheAction, TheOptions]``, so every hook gets the
    game's own types. The host asks it for pictures of the game, never for rules."""

    engine: ClassVar[Engine[Any, Any, Any]]
    #: the slash-command group name, e.g. "knucklebones"
    command: ClassVar[str]
    colour: ClassVar[discord.Colour] = discord.Colour.dark_gold()
    #: the lobby's one line: what the game is and about how long it takes
    blurb: ClassVar[str] = ""
    #: the table's button for a player's private view, and its emoji, named for what that view
    #: holds (a hand of cards; a purse and sealed votes)
    hand_button: ClassVar[tuple[str, str]] = ("My hand", "🃏")
    #: tavern mode (NPC seats, stakes, a record at the end), for games a game-master can run
    tavern: ClassVar[Tavern | None] = None

    def table_embed(self, table: Table, view: V) -> discord.Embed:
        """The live public table (``view`` is ``engine.view(state, None)``): only what a player
        needs to act now, phone-sized. Everything else belongs in ``details``."""
        raise NotImplementedError

    def table_parts(self, table: Table, view: V) -> list[Part]:
        """The live table's blocks, between the line that asks and the picture. A block about
        one seat names it (``Part.seat``) so that seat's own choice sits beside it."""
        return embed_parts(self.table_embed(table, view))

    def private_parts(self, table: Table, seat: int, view: V) -> list[Part]:
        """A private view's blocks: what the seat decides about, in words."""
        return embed_parts(self.private_embed(table, seat, view))

    def private_picture(self, table: Table, seat: int, view: V) -> Picture | None:
        """What a private decision is about, as a picture (the dice being re-rolled), or None."""
        return None

    def details_pages(self, table: Table, view: V, seat: int | None) -> list[Page]:
        """Details, a page each: the first answers what matters now (your sheet, this bet)."""
        pictures = self.details_pictures(table, view, seat)
        pages = [Page(e.title or "Details", embed_parts(e, title=False)) for e in self.details(table, view, seat)]
        pages += [Page(p.description[:40] or "Picture", [Part(p.description)] if p.description else [], p)
                  for p in pictures]
        return pages

    def rules_pages(self, options: O) -> list[Page]:
        """How to play on the first page, one phone screen; the full rules and the game's words
        a tap away."""
        return [Page("How to play", [Part(block)]) for block in split_screens(self.rules_text(options))]

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

    def opens_chapter(self, event: Event) -> bool:
        """Whether this event begins the next chapter although the move that made it belongs
        to the one before (the roll that the last move of a turn makes for the next player):
        /game log files it, and what follows in that move, under the new chapter."""
        return False

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

    def action_group(self, view: V, action: A) -> str | None:
        """Choices that belong in one menu (its placeholder, e.g. "Give…", "Buy a card…"), on
        the table or in a private view, so a choice with many options is not a wall of buttons;
        None: a button of its own (or, past what a message holds, a menu of the rest)."""
        return None

    def action_description(self, view: V, action: A) -> str | None:
        """A grouped choice's second line in its menu (at most 100 characters): what it costs
        or does, which the label has no room for. None: the label alone."""
        return None

    def action_style(self, view: V, action: A) -> discord.ButtonStyle:
        return discord.ButtonStyle.primary

    def prompt(self, table: Table, view: V, seat: int) -> str:
        """One line telling the acting seat what the buttons decide. On the table it follows
        "@Name: "; in a private view (a DM) it stands first, so write it to read both ways."""
        return "Your move."

    def open_prompt(self, table: Table, view: V) -> str:
        """One line for the choices everyone makes on the table at once (Engine.open_actions)."""
        return "choose below; this choice is public."

    def score_text(self, score: int, view: V) -> str:
        """A final score in words, for the standings; ``view`` is the channel's view of the
        finished game, for a game whose score counts different things by its options."""
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


#: about one phone screen of text (a page of Details or of the rules)
SCREEN = 900


def split_screens(text: str, size: int = SCREEN) -> list[str]:
    """Text cut at paragraph ends into pieces of about one screen each."""
    pages: list[str] = []
    for block in text.split("\n\n"):
        if pages and len(pages[-1]) + len(block) + 2 <= size:
            pages[-1] += "\n\n" + block
        else:
            pages.append(block)
    return [p[:3900] for p in pages if p.strip()] or ["Nothing more to show."]
