"""Bad input: every option of every slash command, at and beyond its declared limits, and every
text a user types carrying control characters, mass mentions and markdown.

The options are read from the commands the bot synced (the fake keeps them), so a new command or
option is tried without a word here. For each option, each value in ``values_for`` is sent with
the command's other required options set to something ordinary:
- within what the option declares (its shortest and longest text, its least and greatest number,
  each choice; texts laced with mentions, markdown and control characters, cut to fit): the bot
  answers, does not fail, and shows the text as text;
- beyond it (an empty text, one character too many, a number past its range, a value that is
  not one of its choices), which only a modified client sends: the bot refuses, privately and
  saying why, and nothing it keeps changes.

Every message that carries the user's text is then read: a mention or markdown from it must not
be applied (no ``@everyone`` or ``**bold**`` as typed outside a code span), and, as always, no
message may let a mass or role mention ping (the watch checks that of every call).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.stores import Reader
from tests.e2e.watch import PUBLIC, REFUSAL, Watch, answer_problem, said_in
from tests.fakediscord import FakeDiscord, FakeUser, Interaction

#: texts a user types, each laced with what a bot must not apply as typed
LACED = [
    "@everyone look @here",
    "<@&{role}> and <@{user}>",
    "**bold** __under__ ~~gone~~ ||spoiler|| `code`",
    "# Heading\n> quote\n- item [link](https://example.com)",
    "\x00nul\x07bell\x1b[31mred\u202eevil\u200bzw",
    "```\nblock\n```",
    "line one\nline two\n\n\nline five",
]
#: what a required option takes when another option is being tried
ORDINARY = {"expression": "1d20+2", "name": "torch", "seat": "2", "seat-or-player": "2", "amount": "5gp",
            "stake": "5gp", "games": "all"}
#: commands whose success changes what other tables may do (the whole server's settings)
SERVER_WIDE = {"boneyard settings"}
_STRING, _INTEGER, _BOOLEAN, _USER, _CHANNEL, _ROLE, _NUMBER = 3, 4, 5, 6, 7, 8, 10


@dataclass
class Try:
    """One command with one option set to one value."""

    command: str
    option: str
    options: dict[str, Any] | list[dict[str, Any]]
    #: past what the option declares: a modified client's; must be refused, nothing changed
    beyond: bool
    #: the text typed, when it carries a mention or markdown to be shown as text
    laced: str | None = None

    def __str__(self) -> str:
        shown = self.options if isinstance(self.options, dict) else {o["name"]: o["value"] for o in self.options}
        return f"/{self.command} {self.option}={str(shown.get(self.option))[:60]!r}" + (" (beyond)" if self.beyond else "")


def paths(command: dict[str, Any]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Every invocable path of a command ("rolls save") and its options."""
    options = command.get("options") or []
    subs = [o for o in options if o["type"] in (1, 2)]
    if not subs:
        yield command["name"], options
        return
    for sub in subs:
        if sub["type"] == 1:
            yield f"{command['name']} {sub['name']}", sub.get("options") or []
        else:
            for leaf in sub.get("options") or []:
                yield f"{command['name']} {sub['name']} {leaf['name']}", leaf.get("options") or []


def values_for(option: dict[str, Any], fd: FakeDiscord, user: FakeUser) -> Iterator[tuple[Any, bool, str | None]]:
    """(value, beyond its declared limits, the laced text) for one option."""
    kind = option["type"]
    choices = [c["value"] for c in option.get("choices") or []]
    if choices:
        for choice in choices:
            yield choice, False, None
        yield ("nope" if kind == _STRING else 987654), True, None
        return
    if kind == _STRING:
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        yield "a" * max(low, 1), False, None
        yield "a" * high, False, None
        for text in LACED:
            laced = text.format(role=fd.manager_role_id, user=user.id)[:high]
            if len(laced) >= max(low, 1):
                yield laced, False, laced
        if low >= 1:
            yield "", True, None
        yield "a" * (high + 1), True, None
    elif kind in (_INTEGER, _NUMBER):
        low, high = option.get("min_value"), option.get("max_value")
        for value in (low, high):
            if value is not None:
                yield value, False, None
        if low is None and high is None:
            for value in (0, -1, 2**31, 2**53):
                yield value, False, None
        if low is not None:
            yield low - 1, True, None
            yield -(2**53), True, None
        if high is not None:
            yield high + 1, True, None
            yield 2**53, True, None
    elif kind == _BOOLEAN:
        yield True, False, None
        yield False, False, None
    elif kind in (_USER, 9):
        yield fd.bot_user, False, None
        yield user, False, None
    elif kind == _ROLE:
        yield str(fd.guild_id), False, None  # @everyone
        yield str(fd.manager_role_id), False, None


def tries(fd: FakeDiscord, user: FakeUser, *, skip: frozenset[str] = frozenset()) -> list[Try]:
    """Every option of every command synced for the guild, each value of ``values_for``."""
    out: list[Try] = []
    commands = fd.commands.get(fd.guild_id, []) + fd.commands.get(None, [])
    seen: set[str] = set()
    for command in commands:
        if command.get("type", 1) != 1 or command["name"] in seen:
            continue
        seen.add(command["name"])
        for path, options in paths(command):
            if path in skip:
                continue
            base = {o["name"]: ORDINARY.get(o["name"], "x") for o in options if o.get("required")}
            for option in options:
                if option["type"] == _CHANNEL:
                    continue  # a channel option picks from what exists: nothing to push past
                for value, beyond, laced in values_for(option, fd, user):
                    given = {**base, option["name"]: value}
                    if beyond:  # past what the client allows: sent as a modified client would
                        raw = [{"name": o["name"], "type": o["type"], "value": given[o["name"]]}
                               for o in options if o["name"] in given]
                        out.append(Try(path, option["name"], raw, True))
                    else:
                        out.append(Try(path, option["name"], given, False, laced))
    return out


def snapshot(db: Reader, channel_id: int, user_id: int) -> tuple[Any, ...]:
    """What the bot keeps that a command refused in ``channel_id`` to ``user_id`` must leave
    alone (other clients may be rolling and playing elsewhere meanwhile)."""
    return (
        db.execute("SELECT id, version, status FROM games WHERE channel_id=? ORDER BY id", (channel_id,)).fetchall(),
        db.execute("SELECT guild_id, user_id, name FROM saved_rolls ORDER BY 1, 2, 3").fetchall(),
        db.execute("SELECT settings_json FROM server_settings ORDER BY guild_id").fetchall(),
        db.execute("SELECT COUNT(*) FROM rolls WHERE user_id=?", (user_id,)).fetchone(),
    )


#: marks Discord applies wherever they stand, and those it applies only at a line's start
INLINE = ("@everyone", "@here", "<@&", "**", "__", "~~", "||", "](")
LINE_START = ("# ", "## ", "### ", "> ", ">>> ", "- ", "-# ")


def shown_as_typed(text: str, words: set[str]) -> bool:
    """Whether a typed text's mention or markdown reaches a message as typed (applied): a line
    of it with an inline mark anywhere in a line shown, outside a code span, or one that opens
    with a line mark at the start of a line shown."""
    for line in (part.strip() for part in text.split("\n")):
        if not line:
            continue
        inline = any(mark in line for mark in INLINE)
        opening = line.startswith(LINE_START)
        for word in words:
            if inline and line in word and f"`{line}`" not in word:
                return True
            if opening and word.startswith(line):
                return True
    return False


@dataclass
class Prober:
    """Sends tries and holds each to its rule; what went wrong, by rule, in ``problems``."""

    fd: FakeDiscord
    db: Reader
    watch: Watch
    channel: str
    problems: dict[str, list[str]] = field(default_factory=dict)
    sent: int = 0
    late: list[str] = field(default_factory=list)
    #: what the people here are called, laced too: every message is read for it
    names: list[str] = field(default_factory=list)

    def problem(self, kind: str, text: str) -> None:
        self.problems.setdefault(kind, []).append(text)

    async def send(self, user: FakeUser, attempt: Try) -> Interaction | None:
        fd = self.fd
        channel_id = fd.channel(self.channel).id
        before = snapshot(self.db, channel_id, user.id)
        self.watch.shown(self.channel)
        try:
            it = await fd.slash(user, self.channel, attempt.command, attempt.options)
        except (LookupError, ValueError) as exc:  # the fake's client would not send it: nothing to try
            self.problem("tries the client cannot send", f"{attempt}: {exc}")
            return None
        self.sent += 1
        try:
            await it.wait_response(timeout=3.0)
        except TimeoutError:
            self.late.append(str(attempt))
            return it
        if it.response is not None and it.response["type"] in (5, 6):
            try:
                await fd.wait_until(lambda: it.followup_ids or it.original_edits, 15.0, what="the answer")
            except TimeoutError:
                pass
        await self._quiet()
        answer = " ".join(sorted(said_in(it)))
        if "went wrong" in answer:
            self.problem("inputs that broke a command", f"{attempt}: {answer[:200]}")
        wrong = answer_problem(fd, it, attempt.beyond)
        if wrong is not None:
            kind, detail = wrong
            self.problem("inputs past their limits not refused privately" if kind == REFUSAL else kind,
                         f"{attempt}: {detail}")
        if attempt.beyond and snapshot(self.db, channel_id, user.id) != before:
            self.problem("inputs past their limits that changed something", str(attempt))
        self.look(str(attempt), [attempt.laced] if attempt.laced else [])
        return it

    def look(self, what: str, typed: list[str]) -> None:
        """Read what was shown since the last look for typed text shown as typed."""
        for item in self.watch.shown(self.channel):
            for text in [*typed, *self.names]:
                if shown_as_typed(text, item.words):
                    who = "the channel" if item.audience == PUBLIC else "its author"
                    self.problem("typed mentions or markdown shown as typed",
                                 f"{what} to {who} by {item.what}: {text!r} in {sorted(item.words)[:4]}")
                    break

    async def answered(self, it: Interaction, what: str) -> None:
        """A press of the prober's own (a join, a cancel): answered in time, or told as late."""
        self.sent += 1
        try:
            await it.wait_response(timeout=3.0)
        except TimeoutError:
            self.late.append(what)

    async def _quiet(self) -> None:
        seen = -1
        for _ in range(300):
            now = self.watch.count(self.channel)
            if now == seen:
                return
            seen = now
            await asyncio.sleep(0.03)


def typists(fd: FakeDiscord) -> list[FakeUser]:
    """People whose names are laced too: a host, and two who join its lobbies (add them before
    the bot connects)."""
    return [fd.add_user("typist", display=f"@everyone **Host** <@&{fd.manager_role_id}> ||x||"),
            fd.add_user("pal", display="@here __pal__"), fd.add_user("mate", display="# mate\x07")]


async def everything(prober: Prober, host: FakeUser, admin: FakeUser, others: list[FakeUser], games: list[str], *,
                     until: Callable[[], bool] = lambda: False) -> None:
    """Every try of every command (until ``until`` says enough): each game's ``new`` on an
    empty channel (a lobby it opens is cancelled), its lobby commands and the table's commands
    in a lobby of its own, then the rest; a server-wide setting that was changed is set back."""
    fd = prober.fd
    pending: dict[str, list[Try]] = {}
    for attempt in tries(fd, host):
        pending.setdefault(attempt.command, []).append(attempt)
    shared_lobby = ["game unseat", "game timer", "game pause", "game resume", "game status", "game log",
                    "game end", "game leave"]
    for game in games:
        if until():
            return
        for attempt in pending.pop(f"{game} new", []):
            await prober.send(host, attempt)
            await close_lobby(prober, host)
        await prober.send(host, Try(f"{game} new", "", {}, False))
        for joiner in others:
            lobby = newest_lobby(fd, prober.channel)
            join = [b["custom_id"] for b in fd.buttons(lobby or {}) if b["label"] == "Join"]
            if join:
                await prober.answered(await fd.click(joiner, lobby or {}, join[0]), "join")
        prober.look(f"{game} lobby", [])
        for path in [f"{game} npc", f"{game} stake", *shared_lobby]:
            for attempt in pending.pop(path, []):
                await prober.send(host, attempt)
        await close_lobby(prober, host)
    for path, attempts in pending.items():
        if until():
            return
        for attempt in attempts:
            wide = path in SERVER_WIDE
            await prober.send(admin if wide else host, attempt)
            if wide and not attempt.beyond:
                await prober.send(admin, Try("boneyard settings", "", {
                    "anywhere": True, "games": "all", "pictures": True, "clear_gm_role": True, "default_timer": 0},
                    False))


def newest_lobby(fd: FakeDiscord, channel: str) -> dict[str, Any] | None:
    for message in reversed(fd._messages.get(fd.channel(channel).id, [])):
        if any(b["label"] == "Cancel" for b in fd.buttons(message)):
            return message
    return None


async def close_lobby(prober: Prober, host: FakeUser) -> None:
    """The host cancels the lobby a try opened, so the channel is free for the next."""
    fd = prober.fd
    lobby = newest_lobby(fd, prober.channel)
    if lobby is None:
        return
    cancel = [b["custom_id"] for b in fd.buttons(lobby) if b["label"] == "Cancel"]
    await prober.answered(await fd.click(host, lobby, cancel[0]), "cancel")
    await prober._quiet()
    prober.look("cancel", [])
