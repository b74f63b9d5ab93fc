"""Finding a seat from what a host typed: a number, an @mention or a name."""

from __future__ import annotations

import re

from bot.errors import Refusal
from bot.models import Table
from bot.render import clip


def find_seat(table: Table, text: str) -> int:
    """A seat by number (`2`, `seat 2`), by @mention, or by name (any case)."""
    raw = text.strip()
    number = re.fullmatch(r"(?:seat\s*)?#?(\d{1,2})", raw, re.IGNORECASE)
    if number and 1 <= int(number[1]) <= len(table.seats):
        return int(number[1]) - 1
    mention = re.fullmatch(r"<@!?(\d+)>", raw)
    if mention:
        seat = table.seat_of(int(mention[1]))
        if seat is not None:
            return seat
    for index, seat_info in enumerate(table.seats):
        if seat_info.name.casefold() == raw.casefold():
            return index
    seats = ", ".join(f"{i + 1}. {s.name}" for i, s in enumerate(table.seats)) or "none yet"
    raise Refusal(f"No seat matches `{clip(raw, 40)}`. Give a seat number, an @mention or a name "
                  f"(seats: {seats}).")
