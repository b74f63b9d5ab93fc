"""What the host keeps about a table besides the engine's own state.

Two records, written differently: the ``Table`` (the game: its state, seats and settings) changes
only by moves and host commands, once per step under a version check; the ``Book`` (which
message shows it, DM copies, the line of history being gathered) is written after delivery,
without the version, so bookkeeping can never undo or block a move."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

Status = Literal["lobby", "active", "finished", "cancelled"]
#: the statuses of a game still going: its lobby, or its play
LIVE: tuple[Status, ...] = ("lobby", "active")


class Seat(BaseModel):
    user_id: int | None = None
    name: str
    #: played by the bot: an AI seat from the lobby, or a player who left mid-game
    ai: bool = False
    #: what this seat brings to the table, in the game's units (a tavern game's starting purse,
    #: set by the host in the lobby); games that use stakes read it at the start
    stake: int | None = None
    #: the move number of this seat's last choice made in the open: a row of open choices
    #: drawn before it no longer counts for this seat, so a double click is one move, not two
    moved: int = 0

    @property
    def left(self) -> bool:
        """A player's seat that a bot plays since they left (or the host handed it to a bot):
        it keeps the player, who may take it back, and ranks them after everyone who stayed."""
        return self.ai and self.user_id is not None

    @property
    def npc(self) -> bool:
        """A bot seat the game-master named, where the lobby's Add bot numbers its own ("Bot 2")
        and a player who left keeps theirs ("Cy (bot)")."""
        return self.ai and self.user_id is None and BOT_NAME.fullmatch(self.name) is None


#: the name the lobby gives a bot seat it adds, which no NPC may take
BOT_NAME = re.compile(r"Bot \d+", re.IGNORECASE)


class Table(BaseModel):
    id: int | None = None
    guild_id: int
    channel_id: int
    game: str
    status: Status = "lobby"
    host_id: int
    #: False when the host runs the table as game-master and takes no seat
    host_plays: bool = True
    seats: list[Seat] = Field(default_factory=list)
    #: a rematch's lobby: the stake each player who left the last game took home (user id ->
    #: stake), theirs again as they Join, where the lobby would seat them with the default
    returning: dict[int, int] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    state: dict[str, Any] | None = None
    version: int = 0
    timer_seconds: int | None = None
    #: the host paused the game: no moves and no timers until they resume it
    paused: bool = False
    #: when the decision the game waits for times out (None: no timer runs), stored with the
    #: move that set it; the store's deadline rows, which fire it, hold the same time
    deadline: float | None = None
    created_at: float = 0.0
    updated_at: float = 0.0

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.ai:
                return index
        return None

    @property
    def live(self) -> bool:
        return self.status in LIVE


class Book(BaseModel):
    """What the channel and the DMs show of a game, as the last delivery left them."""

    #: the live table message (the lobby's before the start)
    message_id: int | None = None
    #: the table version that message shows: behind the game's, a step was stored and the
    #: process stopped before showing it, and the next click posts the table again
    shown: int = 0
    #: where the game stood when the live table was posted ("Turn 4"), and what has happened
    #: since: together they become that message's line of history once the next is posted
    chapter: str = ""
    turn_events: list[dict[str, Any]] = Field(default_factory=list)
    #: user id -> [DM channel id, message id, 1 if a layout message, the game's version it shows]
    #: of the newest private copy sent by DM: the one copy whose controls work, retired when a
    #: newer copy goes out (an older book's copies have no version: unknown, taken as old)
    dm_copies: dict[int, list[int]] = Field(default_factory=dict)
    #: seats whose last private view could not be sent by DM (the table asks them to press
    #: My hand instead), each with the chapter it was refused in: tried again only in a later
    #: one, as each refused DM is a request Discord counts against the bot (None: refused before
    #: refusals were dated, a book that kept a list of seats)
    dm_closed: dict[int, str | None] = Field(default_factory=dict)
    #: the last new table could not be posted (a permission taken, Discord's servers failing):
    #: the table was redrawn where it stood, and the next step posts it anew, pinging whoever
    #: must act
    repost: bool = False
    #: the line of history the live table owes: its next table could not be posted, so it was
    #: redrawn where that line was to go; it shows the line (before its own) once one is posted
    owed: str = ""
    #: what the live table shows (a digest of it; in a game with no secrets, its move number),
    #: so a step nobody can see (a sealed choice being filled in) costs the channel nothing
    look: str = ""
    #: a digest of the picture the live table carries: redrawn with the same picture, the
    #: message keeps its attachment instead of uploading it again
    picture: str = ""
    #: the live table is a layout message (False: posted before tables were, so an edit in
    #: place must clear its content and embeds)
    layout: bool = False
    #: when someone last nudged whoever the table waits for (/game nudge), so a table pings a
    #: slow player at most once in a while however many others are waiting on them
    nudged: float = 0.0

    @field_validator("dm_closed", mode="before")
    @classmethod
    def _undated(cls, value: Any) -> Any:
        return dict.fromkeys(value) if isinstance(value, list) else value


class LogEntry(BaseModel):
    version: int
    seat: int | None
    user_id: int | None
    action: dict[str, Any]
    events: list[str]
    #: the turn or round the move belongs to, so /game log can group moves under it
    chapter: str = ""

    def by_chapter(self) -> list[tuple[str, list[str]]]:
        """The move's events under the chapters they belong to. A move that ends a turn may
        also begin the next (the next player's roll): from its ``NEXT_CHAPTER`` mark on, the
        events belong to the chapter the mark names."""
        out: list[tuple[str, list[str]]] = [(self.chapter, [])]
        for text in self.events:
            if text.startswith(NEXT_CHAPTER):
                out.append((text.removeprefix(NEXT_CHAPTER), []))
            else:
                out[-1][1].append(text)
        return [(chapter, texts) for chapter, texts in out if texts]

    @property
    def texts(self) -> list[str]:
        """What happened, in words (without chapter marks)."""
        return [text for text in self.events if not text.startswith(NEXT_CHAPTER)]


#: an event text that starts a new chapter within one move's events (what follows is filed
#: under the chapter after the mark); stored with the events, so the log needs no new column
NEXT_CHAPTER = "\u241e"
