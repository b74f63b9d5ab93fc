"""Seats from what a host typed: finding one by number, @mention or name, and naming an NPC."""

from __future__ import annotations

import re
import unicodedata

from bot.errors import Refusal
from bot.models import Table
from bot.render import quote, safe


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
    seats = ", ".join(f"{i + 1}. {safe(s.name)}" for i, s in enumerate(table.seats)) or "none yet"
    raise Refusal(f"No seat matches {quote(raw)}. Give a seat number, an @mention or a name "
                  f"(seats: {seats}).")


#: an NPC's name reads as plain text on the table: no mentions, no formatting
NPC_NAME_LIMIT = 32
_NOT_PLAIN = re.compile(r"[<>@`*_~|#\[\]\\]|://|discord\.gg/", re.IGNORECASE)


def _plain(name: str) -> bool:
    """No mention, formatting, link (masked or bare) or invisible character: an NPC's name
    must read the same wherever it is shown."""
    return not _NOT_PLAIN.search(name) and not any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs") for c in name)


def npc_name(raw: str, table: Table, example: str) -> str:
    """The name a host gave an NPC, tidied, or a Refusal that says what a name may be."""
    name = " ".join(raw.split())
    if not 1 <= len(name) <= NPC_NAME_LIMIT or not _plain(name):
        raise Refusal(f"An NPC's name is 1 to {NPC_NAME_LIMIT} characters of plain text: no mentions, "
                      f"formatting, links or control characters (e.g. `{example}`).")
    if any(s.name.casefold() == name.casefold() for s in table.seats):
        raise Refusal(f"Someone at this table is already called {name}; pick another name.")
    return name
