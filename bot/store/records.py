"""What the store keeps besides the games: a server's own settings, saved rolls, and every roll made.

These are records of the dice tools and of the server, not of any game: the host reads a server's
GM role the same way for a table and for a saved roll, and the dice cog is the only writer of rolls.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

#: who sees a roll: the channel, only the roller (an ephemeral reply), or the roller and a GM by DM
Seen = Literal["public", "private", "secret"]


class ServerSettings(BaseModel):
    """One server's own settings, kept as one document so a new one needs no migration (a default
    turn timer, the games a server offers, where they may be played, pictures on or off)."""

    guild_id: int
    #: members of this role may do what a table's host may at any table of the server, and manage
    #: the server's saved rolls (people with Manage Server always may)
    gm_role_id: int | None = None
    #: a new table's turn timer in seconds (0: none; None: the bot's DEFAULT_TIMER_SECONDS)
    default_timer: int | None = None
    #: the games that may be opened here, by key (None: all of them)
    games: list[str] | None = None
    #: the channels and categories where tables may open (None: anywhere)
    channels: list[int] | None = None
    #: tables and dice drawn as pictures (off: words only)
    pictures: bool = True


class RollAsked(BaseModel):
    """What a roll asks for: enough to roll it again exactly as asked."""

    expression: str
    mode: Literal["normal", "advantage", "disadvantage"] = "normal"
    #: None: as many times as the expression says (`repeat 6` typed in it), else once
    repeat: int | None = None
    target: int | None = None
    fail: int | None = None


class SavedRoll(RollAsked):
    """A roll kept under a name: a player's own (``guild_id`` 0: theirs in every server and DM) or
    a server's shared one (``user_id`` 0), which its GMs set."""

    guild_id: int = 0
    user_id: int = 0
    #: lower case letters, digits and dashes; unique per owner
    name: str
    #: who saved it (for a shared roll, the GM)
    by: int = 0

    @property
    def shared(self) -> bool:
        return self.user_id == 0


class RolledDie(BaseModel):
    """One die of a roll's picture: its size, what it shows, whether it counts."""

    sides: int | str
    value: int
    kept: bool


class StoredRoll(RollAsked):
    """One roll as it was shown, kept for the roller's history, Roll again and Reveal."""

    id: int | None = None
    #: 0 for a roll in DMs or a private channel
    guild_id: int
    channel_id: int
    user_id: int
    at: float = 0.0
    seen: Seen = "public"
    #: the result in large type, for a line of history ("17", "15, 12, 14")
    result: str
    #: the whole reply as it was shown, so that Reveal shows it word for word and never rolls again
    text: str
    #: the dice in the picture, when it had one, and how many a row
    dice: list[RolledDie] = Field(default_factory=list)
    per_row: int = 6
    #: the saved roll it was, if it was one
    label: str | None = None
    revealed: bool = False

    @property
    def hidden(self) -> bool:
        return self.seen != "public"


class Luck(BaseModel):
    """Every die one player rolled in one place (dice of up to 100 sides), for /rolls stats."""

    rolls: int = 0
    #: sides -> face -> how many times it came up, natural (before a minimum or maximum)
    faces: dict[int, dict[int, int]] = Field(default_factory=dict)
