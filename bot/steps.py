"""A state's path through one step: what the host keeps of it once the step is stored."""

from __future__ import annotations

from bot.models import LogEntry
from rules.base import Event


class Steps:
    """A state's path through one step (a click and the bot moves it set off), as the host
    needs it afterwards: the log entries, the events, and who was asked to act along the way."""

    def __init__(self, acting: list[int] | None) -> None:
        self.entries: list[LogEntry] = []
        self.events: list[Event] = []
        #: seats asked to act at every point of the step (None: nobody was asked before it)
        self.throughout: set[int] | None = None if acting is None else set(acting)

    def passed(self, acting: list[int]) -> None:
        if self.throughout is not None:
            self.throughout &= set(acting)
