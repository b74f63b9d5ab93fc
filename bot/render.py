"""Words on a table: Discord's limits, names for seats, mentions, links, the footer.

The small vocabulary every message is written in, shared by the host's messages (bot/present.py)
and the games' own (the cogs).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import discord

from bot.models import Table

EMBED_DESCRIPTION = 4096
FIELD_VALUE = 1024
CONTENT = 2000
PINGS = discord.AllowedMentions(users=True, everyone=False, roles=False)
NO_PINGS = discord.AllowedMentions.none()


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


_BRACKET = re.compile(r"(?<!\\)([\[\]])")


@lru_cache(maxsize=4096)
def safe(text: str) -> str:
    """User-supplied text (a display name, an NPC's name, a comment) as a message must show it:
    its markdown shown rather than applied, and no mention, link or heading it could form.
    Button labels and menu options are plain text already and take names as they are. Kept:
    the same few names are made safe on every line of every table, a few regexes each."""
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    # a bracket that escape_markdown left (a name cut short, a link not yet closed) could still
    # pair with text after it into a masked link
    text = _BRACKET.sub(r"\\\1", text)
    return text.replace("<", "<\u200b").replace("://", ":\u200b//")


def runner(table: Table, *, start: bool = False) -> str:
    """Who runs a table, as a refusal names them: "the host", or on a game-master's table the
    game-master by name, since a player there (one who asked for its rematch, say) may take
    themselves for its host. ``start``: to begin a sentence."""
    who = "the host" if table.host_plays else f"the game-master (<@{table.host_id}>)"
    return who[0].upper() + who[1:] if start else who


def managers_only(table: Table, what: str) -> str:
    """The refusal of what whoever may steer a table may do (its end, its pause, its clock)."""
    return f"Only {runner(table)}, a GM of this server or someone with Manage Channel can {what}."


def quote(text: str, limit: int = 40) -> str:
    """What someone typed, said back to them (a refusal names what it could not read): on one
    line, cut short, shown as text and in quotation marks. Not in a code span, which a backtick
    in the text would close, letting the rest apply as markdown."""
    return f"“{safe(clip(' '.join(text.split()), limit))}”"


def and_list(people: list[str]) -> str:
    """"Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    return people[0] if len(people) == 1 else ", ".join(people[:-1]) + " and " + people[-1]


_SEAT = re.compile(r"\bSeat (\d+)\b")


def seat_names(table: Table, text: str, *, mentions: bool = False, plain: bool = False) -> str:
    """Engines speak of "Seat 2"; the table knows who sits there. One pass, so a player who
    calls themselves "Seat 1" is never taken for the player in seat 1. With ``mentions``, seated
    people become mentions (bots keep their names); ``plain`` for a button label, which shows
    text as it is, else names are made ``safe``."""
    if "Seat " not in text:
        return text

    def name(found: re.Match[str]) -> str:
        number = int(found[1])
        if not 1 <= number <= len(table.seats):
            return found[0]
        if mentions:
            return mention(table, number - 1)
        raw = table.seats[number - 1].name
        return raw if plain else safe(raw)

    return _SEAT.sub(name, text)


def mention(table: Table, seat: int) -> str:
    info = table.seats[seat]
    return safe(info.name) if info.ai or info.user_id is None else f"<@{info.user_id}>"


def jump_link(table: Table, message_id: int | None) -> str:
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{message_id or ''}".rstrip("/")


def timer_text(table: Table) -> str:
    seconds = table.timer_seconds
    if not seconds:
        return "no turn timer"
    if seconds % 60 == 0:
        return f"{seconds // 60} min per move"
    return f"{seconds} s per move" if seconds < 120 else f"{seconds // 60} min {seconds % 60} s per move"


def footer(table: Table) -> str:
    return f"Game #{table.id} · {timer_text(table)}"


def option_refusal(problems: list[Any]) -> str:
    """Options a client sent outside what a command declares (a stale or modified client), in
    a player's words: each option by the name the command shows and what it takes. Pydantic's
    own messages name Python types and quote its literals."""
    said = [_option_problem(problem) for problem in problems[:3]]
    if not said:
        return "That option is not allowed here."
    return f"{'That option is' if len(said) == 1 else 'Those options are'} not allowed here: {'; '.join(said)}."


def _option_problem(problem: Any) -> str:
    loc = problem.get("loc") or ()
    name = f"`{loc[0]}`" if loc and isinstance(loc[0], str) else "a value"
    kind, ctx = str(problem.get("type", "")), problem.get("ctx") or {}
    if kind in ("literal_error", "enum"):
        allowed = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        return f"{name} must be one of: {', '.join(allowed)}" if allowed else f"{name} is not one of its choices"
    bounds = {"greater_than_equal": ("at least", "ge"), "less_than_equal": ("at most", "le"),
              "greater_than": ("more than", "gt"), "less_than": ("less than", "lt")}
    if kind in bounds and bounds[kind][1] in ctx:
        words, key = bounds[kind]
        return f"{name} must be {words} {ctx[key]}"
    if kind.startswith("int_"):
        return f"{name} must be a whole number"
    if kind.startswith(("float_", "decimal_")):
        return f"{name} must be a number"
    if kind.startswith("bool_"):
        return f"{name} must be true or false"
    if kind == "string_too_long" and "max_length" in ctx:
        return f"{name} must be at most {ctx['max_length']} characters"
    if kind == "string_too_short" and "min_length" in ctx:
        return f"{name} must be at least {ctx['min_length']} characters"
    if kind == "string_type":
        return f"{name} must be text"
    if kind == "extra_forbidden":
        return f"{name} is not an option of this command"
    if kind == "missing":
        return f"{name} is required"
    return f"{name} is not a value it takes"
