"""Seats from what a host typed: finding one by number, @mention or name, and naming an NPC."""

from __future__ import annotations

import re
import unicodedata

from bot.errors import Refusal
from bot.models import BOT_NAME, Table
from bot.render import quote, safe


def find_seat(table: Table, text: str) -> int:
    """A seat by number (`2`, `seat 2`), by @mention, or by name (any case)."""
    raw = text.strip()
    number = re.fullmatch(r"(?:seat\s*)?#?(\d{1,2})", raw, re.IGNORECASE)
    if number and 1 <= int(number[1]) <= len(table.seats):
        return int(number[1]) - 1
    seats = ", ".join(f"{i + 1}. {safe(s.name)}" for i, s in enumerate(table.seats)) or "none yet"
    mention = re.fullmatch(r"<@!?(\d+)>", raw)
    if mention:
        user_id = int(mention[1])
        seat = table.seat_of(user_id)
        if seat is not None:
            return seat
        if user_id == table.host_id and not table.host_plays:
            raise Refusal(f"<@{user_id}> runs this table as its game-master and has no seat (seats: {seats}).")
        raise Refusal(f"<@{user_id}> has no seat at this table (seats: {seats}).")
    typed = raw.casefold()
    for index, seat_info in enumerate(table.seats):
        if seat_info.name.casefold() == typed:
            return index
    # an NPC's name may be shortened to the start of a word of it ("mags" for One-Eyed Mags)
    # when that names one seat alone; a player is named in full or @mentioned, so a short name
    # never removes the wrong person, and a letter or two is taken for a typo
    partly = [i for i, s in enumerate(table.seats) if s.ai and s.user_id is None and len(typed) >= 3
              and any(word.startswith(typed) for word in re.split(r"[\s\-]+", s.name.casefold()))]
    if len(partly) == 1:
        return partly[0]
    if len(partly) > 1:
        raise Refusal(f"{quote(raw)} could be {len(partly)} seats; give more of the name or a seat number "
                      f"(seats: {seats}).")
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
    if BOT_NAME.fullmatch(name):
        raise Refusal(f"{quote(name)} is how the lobby names the bot seats it adds; give the NPC a name of its own "
                      f"(e.g. `{example}`).")
    same = next((s for s in table.seats if s.name.casefold() == name.casefold()), None)
    if same is not None:
        raise Refusal(f"{safe(same.name)} already sits at this table; pick another name.")
    return name
