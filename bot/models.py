"""What the host keeps about a table besides the engine's own state."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Status = Literal["lobby", "active", "finished", "cancelled"]


class Seat(BaseModel):
    user_id: int | None = None
    name: str
    #: played by the bot: an AI seat from the lobby, or a player who left mid-game
    ai: bool = False
    #: the last private view could not be sent by DM, so the table shows a "My hand" button
    dm_closed: bool = False
    #: what this seat brings to the table, in the game's units (a tavern game's starting purse,
    #: set by the host in the lobby); games that use stakes read it at the start
    stake: int | None = None


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
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    state: dict[str, Any] | None = None
    version: int = 0
    message_id: int | None = None
    timer_seconds: int | None = None
    #: the host paused the game: no moves and no timers until they resume it
    paused: bool = False
    #: the latest events in words, newest last, shown by Details
    recent: list[str] = Field(default_factory=list)
    #: where the game stood when the live table message was posted ("Turn 4"), and what has
    #: happened since: together they become that message's one line of history once the
    #: next player's table is posted below it
    chapter: str = ""
    turn_events: list[dict[str, Any]] = Field(default_factory=list)
    #: user id -> [DM channel id, message id] of the newest private copy sent by DM: the one
    #: copy whose buttons work, stripped when a newer copy goes out
    dm_copies: dict[int, list[int]] = Field(default_factory=dict)
    created_at: float = 0.0
    updated_at: float = 0.0

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.ai:
                return index
        return None

    @property
    def live(self) -> bool:
        return self.status in ("lobby", "active")


class LogEntry(BaseModel):
    version: int
    seat: int | None
    user_id: int | None
    action: dict[str, Any]
    events: list[str]
    #: the turn or round the move belongs to, so /game log can group moves under it
    chapter: str = ""
