"""What a channel shows its players, as end-to-end tests of every game read it.

The fake Discord keeps every REST call the bot made (``fd.calls``); these helpers turn that into
what players experience: who was pinged, which message is the live table, how long a table
reads, whether a picture came with it, and that only one copy of anything has live buttons.
"""

from __future__ import annotations

import asyncio
import os
import platform
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.fakediscord import FakeDiscord, FakeUser

PNG = b"\x89PNG\r\n\x1a\n"
WEBP = b"RIFF"
_MENTION = re.compile(r"<@!?(\d+)>")
#: interactive controls a live table may show (a menu counts as one)
MAX_TABLE_CONTROLS = 8
_CHANNEL_POST = re.compile(r"^/channels/(\d+)/messages$")


#: how often ``settle`` looks, and how many looks in a row must find the bots idle
_POLL = 0.005
_IDLE_LOOKS = 4
_PROC = Path("/proc")
#: what ``_bots`` says when the processes cannot be watched, or one of them sleeps on a timer
#: that may wake it within the silence asked for (a retry's back-off, SQLite waiting for a lock)
_UNSEEN = "unseen"
#: ... and while one of them works
_BUSY = "busy"
#: system calls that wait, by their numbers on this machine: an event loop's wait, whose timeout
#: in milliseconds is its next timer ({number: index of that argument}), and plain sleeps
_WAITS, _SLEEPS = {
    "x86_64": ({232: 3, 281: 3, 7: 2}, {35, 230}),  # epoll_wait, epoll_pwait, poll; nanosleep, clock_nanosleep
    "aarch64": ({22: 3, 73: 2}, {101, 115}),  # epoll_pwait, ppoll; nanosleep, clock_nanosleep
}.get(platform.machine(), ({}, set()))


async def settle(fd: FakeDiscord, quiet: float = 0.1, timeout: float = 10.0) -> None:
    """Until everything a click set off is out: every bot process this test started (and the
    PostgreSQL server its store is on) sat idle for a few looks in a row, each thread asleep with
    no timer due within ``quiet`` and the CPU time unchanged, with no call made and none being
    answered; or, where that cannot be seen (no /proc, a database server elsewhere, a bot
    sleeping on a timer that may wake it), once the bot made no call for ``quiet`` seconds.

    Waiting for a silence guesses: a picture drawn on a busy machine, or a freshly started bot's
    first step, can be a longer gap between two calls than any ``quiet``. A bot that works shows
    it, so it is waited for, and an idle one is known without waiting out ``quiet``. Pair it with
    ``next_table`` when a table must come."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    seen = len(fd.calls)
    last_call = loop.time()
    unanswered = 0  # requests before this index are answered
    before: object = None
    idle = 0
    while loop.time() < end:
        await asyncio.sleep(min(_POLL, quiet))
        now = loop.time()
        requests = fd.requests
        while unanswered < len(requests) and requests[unanswered].done:
            unanswered += 1
        if len(fd.calls) != seen or any(not r.done for r in requests[unanswered:]):
            seen, last_call, before, idle = len(fd.calls), now, None, 0
            continue
        state = _bots(quiet)
        if state == _UNSEEN:
            before, idle = None, 0
            if now - last_call >= quiet:
                return
            continue
        idle = idle + 1 if state != _BUSY and state == before else 0
        before = state
        if idle >= _IDLE_LOOKS - 1:
            return


def _bots(quiet: float) -> tuple[tuple[int, int], ...] | str:
    """(pid, CPU ticks) of every process this one started, directly or not, and of the database
    servers they use, when all their threads sleep; ``_BUSY`` while one runs or waits on the
    disk; ``_UNSEEN`` when they cannot be watched or one sleeps on a timer due within ``quiet``."""
    pids = _children(os.getpid(), deep=True)
    if pids is None or not _WAITS:
        return _UNSEEN
    servers: set[int] = set()
    found: list[tuple[int, int]] = []
    for pid in pids:
        try:
            fields = _stat(pid)
            if fields[0] == "Z":
                continue
            server = _database_server(pid, fields[19])  # a pid's start time tells a reused pid apart
            if server is None:
                return _UNSEEN
            servers |= {server} if server else set()
            state = _threads(pid, quiet)
        except OSError:  # it exited meanwhile
            continue
        if state is not None:
            return state
        found.append((pid, int(fields[11]) + int(fields[12])))  # utime + stime
    for server in servers:  # its own timers wake nothing the bot waits for: only work counts
        serving = _children(server, deep=False)
        if serving is None:
            return _UNSEEN
        for pid in serving:
            try:
                fields = _stat(pid)
                state = _threads(pid, None)
            except OSError:
                continue
            if state is not None:
                return state
            found.append((pid, int(fields[11]) + int(fields[12])))
    return tuple(found)


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat from the third (the state) on."""
    return (_PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()


def _threads(pid: int, quiet: float | None) -> str | None:
    """``_BUSY`` if a thread of the process runs, waits to run or waits on the disk; with
    ``quiet``, ``_UNSEEN`` if one sleeps, or waits for events with a timer due within
    ``quiet`` (a timeout read as the wait began: the timer is no sooner than that); else None."""
    soon = False
    for tid in os.listdir(_PROC / str(pid) / "task"):
        task = _PROC / str(pid) / "task" / tid
        if task.joinpath("stat").read_text().rsplit(")", 1)[1].split()[0] in ("R", "D"):
            return _BUSY
        if quiet is None or soon:
            continue
        call = task.joinpath("syscall").read_text().split()
        if not call or not call[0].isdigit():  # running after all, or not in a system call
            return _BUSY
        number = int(call[0])
        if number in _SLEEPS:
            soon = True
        elif number in _WAITS:
            wait = int(call[1 + _WAITS[number]], 16) & 0xFFFFFFFF
            soon = wait < 2**31 and wait < quiet * 1000  # -1 (none) reads as 2**32 - 1
    return _UNSEEN if soon else None


def _children(pid: int, *, deep: bool) -> list[int] | None:
    """The processes ``pid`` started (``deep``: and theirs, and so on); None when /proc cannot tell."""
    if not (_PROC / str(pid) / "task" / str(pid) / "children").exists():
        return None
    out: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tids = os.listdir(_PROC / str(parent) / "task")
        except OSError:
            continue
        for tid in tids:
            try:
                kids = [int(k) for k in (_PROC / str(parent) / "task" / tid / "children").read_text().split()]
            except OSError:
                continue
            out += kids
            if deep:
                todo += kids
    return out


_SERVERS: dict[tuple[int, str], int | None] = {}


def _database_server(pid: int, started: str) -> int | None:
    """The postmaster of the PostgreSQL server the process keeps its store on (found by the
    socket folder of its DATABASE_URL), 0 for none, None for one that cannot be watched."""
    if (pid, started) not in _SERVERS:
        env = dict(v.split(b"=", 1) for v in (_PROC / str(pid) / "environ").read_bytes().split(b"\0") if b"=" in v)
        url = env.get(b"DATABASE_URL", b"").decode()
        server: int | None = 0
        if url.startswith("postgres"):
            folder = parse_qs(urlsplit(url).query).get("host", [""])[0]
            try:
                server = int((Path(folder) / "postmaster.pid").read_text().split()[0]) if folder else None
            except (OSError, ValueError, IndexError):
                server = None
        _SERVERS[pid, started] = server
    return _SERVERS[pid, started]


def has_controls(message: dict[str, Any]) -> bool:
    return any((b["custom_id"] or "").startswith(("bn:act:", "bn:all:", "bn:pick:", "bn:allpick:"))
               for b in _items(message))


def controls(message: dict[str, Any]) -> int:
    """Interactive controls a player can use: buttons and menus (a menu counts as one)."""
    return len(_items(message))


def _items(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"custom_id": c.get("custom_id"), "label": c.get("label"), "type": c.get("type")}
            for c in walk(message.get("components") or []) if c.get("type") in (2, 3)]


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, depth first: rows, containers, sections and their accessories."""
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        out.extend(walk(comp.get("components") or []))
        if isinstance(comp.get("accessory"), dict):
            out.extend(walk([comp["accessory"]]))
    return out


def is_layout(message: dict[str, Any]) -> bool:
    return bool(int(message.get("flags") or 0) & (1 << 15))


def texts(message: dict[str, Any]) -> list[str]:
    """Every block of text a message shows, in order: its content, its embeds' words, and a
    layout message's text displays."""
    out = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        out += [embed.get("title") or "", embed.get("description") or ""]
        out += [f"{f.get('name') or ''}\n{f.get('value') or ''}" for f in embed.get("fields") or []]
        out += [(embed.get("footer") or {}).get("text") or "", (embed.get("author") or {}).get("name") or ""]
    out += [c.get("content") or "" for c in walk(message.get("components") or []) if c.get("type") == 10]
    return [t for t in out if t]


def said(message: dict[str, Any]) -> str:
    """All a message says, as one text."""
    return "\n".join(texts(message))


def top(message: dict[str, Any]) -> str:
    """The lines above a table: who is asked (they are pinged), news, a notice. A layout table's
    first text display, or a plain message's content."""
    if not is_layout(message):
        return message.get("content") or ""
    shown = [c for c in walk(message.get("components") or []) if c.get("type") == 10]
    return shown[0].get("content") or "" if shown else ""


def footer(message: dict[str, Any]) -> str:
    """The small line under a layout table (a running timer's countdown, the game number), or ""."""
    shown = texts(message)
    return shown[-1] if shown and shown[-1].startswith("-# ") else ""


def lobby_seats(message: dict[str, Any]) -> list[str]:
    """The seats a lobby lists, a line each ("1. Ann (host)")."""
    block = next((t for t in texts(message) if t.startswith("**Seats (")), "")
    return block.splitlines()[1:]


async def read_pages(fd: FakeDiscord, user: FakeUser, message: dict[str, Any]) -> list[str]:
    """Every page of a private answer with a page menu (Details, the rules, /game log), in the
    menu's order, as ``user`` reads them by choosing each in turn (the one it opened on as it
    came)."""
    menus = [m for m in fd.selects(message) if (m["custom_id"] or "").startswith("bn:page:")]
    if not menus:
        return [said(message)]
    options = menus[0]["options"]
    opened = next((i for i, o in enumerate(options) if o.get("default")), 0)
    pages = {opened: said(message)}
    for i, option in enumerate(options):
        if i == opened:
            continue
        turned = await fd.select(user, message, menus[0]["custom_id"], [option["value"]])
        answer = await turned.wait_response()
        assert answer["type"] == 7, answer
        pages[i] = said(answer["data"])
        message = fd.message(message["id"]) or message
    return [pages[i] for i in range(len(options))]


def is_table(message: dict[str, Any]) -> bool:
    """A game's table (or lobby): a layout message in one container, or a plain one from before
    layouts with the game's footer. A line of history is neither."""
    if is_layout(message):
        return any(c.get("type") == 17 for c in message.get("components") or [])
    footer = " ".join((e.get("footer") or {}).get("text", "") for e in message.get("embeds") or [])
    return footer.startswith("Game #")


def live_table(fd: FakeDiscord, channel: str) -> dict[str, Any] | None:
    """The newest message of the channel that is a table or carries the game's buttons."""
    for message in reversed(fd.messages(channel)):
        if is_table(message) or has_controls(message):
            return message
    return None


async def next_table(fd: FakeDiscord, channel: str, timeout: float = 10.0) -> dict[str, Any]:
    """The live table once it is out: one with buttons to press, or the final standings."""
    def ready() -> dict[str, Any] | None:
        table = live_table(fd, channel)
        if table is None:
            return None
        live = has_controls(table) or any((b["custom_id"] or "").startswith("bn:hand:") for b in _items(table))
        return table if finished(table) or live or "paused" in top(table) else None

    table = await fd.wait_until(ready, timeout, what="the live table")
    await settle(fd)
    return live_table(fd, channel) or table


def button(fd: FakeDiscord, message: dict[str, Any], label: str) -> str:
    """The custom id of the button with this label, as a player finds it by reading."""
    for b in fd.buttons(message):
        if b["label"] == label:
            return b["custom_id"]
    raise AssertionError(f"no {label!r} button in {[b['label'] for b in fd.buttons(message)]}")


def actor(message: dict[str, Any], players: list[FakeUser]) -> FakeUser:
    """The player the prompt line asks: the last line of the content (news above it may ping
    others)."""
    content = top(message)
    prompt = content.splitlines()[-1] if content else ""
    for p in players:
        if prompt.startswith(f"<@{p.id}>:"):
            return p
    raise AssertionError(f"nobody is prompted in {content!r}")


def finished(message: dict[str, Any]) -> bool:
    return "Final standings" in said(message)


def clean(fd: FakeDiscord, *bots: Any) -> None:
    """Nothing the bot did would fail on real Discord, and it logged no error."""
    assert fd.violations == [], fd.violations
    assert fd.unknown_routes == [], fd.unknown_routes
    for bot in bots:
        assert bot.error_records() == [], bot.error_records()


def text_length(message: dict[str, Any]) -> int:
    """Characters a player reads: content, every embed's text, every text display."""
    return sum(len(t) for t in texts(message))


def pinged(fd: FakeDiscord, since: int, channel_id: int) -> set[int]:
    """Users a *new* message pinged after call number ``since``: a channel message that
    mentions them (edits ping nobody), or a new DM to them."""
    dm_owner = {ch.id: uid for uid, ch in fd._dm_channels.items()}
    out: set[int] = set()
    for call in fd.calls[since:]:
        if call["method"] != "POST" or call["status"] >= 400:
            continue
        body = call["json"] or {}
        found = _CHANNEL_POST.match(call["path"])
        if found:
            target = int(found[1])
            if target in dm_owner:
                out.add(dm_owner[target])
            elif target == channel_id:
                out |= _mentions(body)
        elif call["path"].startswith("/interactions/") and body.get("type") == 4:
            data = body.get("data") or {}
            if not (data.get("flags") or 0) & 64:
                out |= _mentions(data)
        elif call["path"].startswith("/webhooks/") and not (body.get("flags") or 0) & 64:
            out |= _mentions(body)
    return out


def _mentions(body: dict[str, Any]) -> set[int]:
    allowed = body.get("allowed_mentions")
    if allowed is not None and "users" not in (allowed.get("parse") or []) and not allowed.get("users"):
        return set()
    words = [body.get("content") or ""] + [c.get("content") or "" for c in walk(body.get("components") or [])
                                           if c.get("type") == 10]
    found = {int(m) for text in words for m in _MENTION.findall(text)}
    if allowed is not None and "users" not in (allowed.get("parse") or []):
        found &= {int(u) for u in allowed["users"]}  # only those listed ping
    return found


@dataclass
class Audit:
    """Everything measured while a game is played by clicking what was rendered."""

    fd: FakeDiscord
    channel: str
    table_sizes: list[int] = field(default_factory=list)
    private_sizes: list[int] = field(default_factory=list)
    turn_changes: int = 0
    unnotified: list[str] = field(default_factory=list)
    missing_pictures: list[str] = field(default_factory=list)
    #: steps that cost the channel more than two calls beyond the interaction's own answer
    busy_steps: list[str] = field(default_factory=list)
    extra_live_copies: list[str] = field(default_factory=list)
    #: tables and private views that ask a decision without being layout messages
    not_layout: list[str] = field(default_factory=list)
    #: live tables with more controls than a phone user should face
    walls: list[str] = field(default_factory=list)
    _last_acting: set[int] = field(default_factory=set)
    _last_click: dict[int, int] = field(default_factory=dict)
    _seen_versions: set[str] = field(default_factory=set)

    _step_began: int = 0

    def clicked(self, user: FakeUser) -> None:
        """Call just before ``user`` clicks: their next notification must come after this."""
        self._last_click[user.id] = len(self.fd.calls)
        self._step_began = len(self.fd.calls)

    def look(self, acting: set[int], *, shows_dice: bool | None = None) -> None:
        """Call once a step has settled, with the users the game now waits for."""
        fd = self.fd
        channel_id = fd.channel(self.channel).id
        prefix = f"/channels/{channel_id}/"
        spent = [c for c in fd.calls[self._step_began:] if c["path"].startswith(prefix)]
        if self._step_began and len(spent) > 2:
            self.busy_steps.append(f"{len(spent)} channel calls: {[c['method'] for c in spent]}")
        self._step_began = len(fd.calls)
        table = live_table(fd, self.channel)
        if table is not None:
            key = f"{table['id']}:{table.get('edited_timestamp')}:{text_length(table)}"
            if key not in self._seen_versions:
                self._seen_versions.add(key)
                self.table_sizes.append(text_length(table))
                image = any(c.get("type") in (11, 12) for c in walk(table.get("components") or []))
                if not is_layout(table):
                    self.not_layout.append(f"table {table['id']} is a plain message")
                if controls(table) > MAX_TABLE_CONTROLS:
                    self.walls.append(f"table {table['id']} has {controls(table)} controls")
                if shows_dice or image:
                    files = fd.attachments(table)
                    if not files or not all(data.startswith((PNG, WEBP)) for _, data in files):
                        self.missing_pictures.append(f"table {table['id']}: {[n for n, _ in files]}")
        for user_id in acting - self._last_acting:
            self.turn_changes += 1
            if user_id not in pinged(fd, self._last_click.get(user_id, 0), channel_id):
                self.unnotified.append(f"user {user_id} became one to act unnotified (call {len(fd.calls)})")
        self._last_acting = set(acting)
        live = [m for m in fd.messages(self.channel) if has_controls(m)]
        if len(live) > 1:
            self.extra_live_copies.append(f"{len(live)} channel messages with live buttons")
        for user in fd.users:
            copies = [m for m in fd.dm_messages(user) if has_controls(m)]
            if len(copies) > 1:
                self.extra_live_copies.append(f"{user.name} holds {len(copies)} DM copies with buttons")

    def note_private(self, message: dict[str, Any]) -> None:
        self.private_sizes.append(text_length(message))
        if has_controls(message) and not is_layout(message):
            self.not_layout.append(f"private view {message['id']} is a plain message")

    def assert_targets(self, *, median: int = 700, most: int = 1000, private_median: int = 400) -> None:
        assert self.table_sizes, "no table was seen"
        assert not self.unnotified, self.unnotified[:5]
        assert not self.missing_pictures, self.missing_pictures[:5]
        assert not self.extra_live_copies, self.extra_live_copies[:5]
        assert not self.busy_steps, self.busy_steps[:5]
        assert not self.not_layout, self.not_layout[:5]
        assert not self.walls, self.walls[:5]
        assert statistics.median(self.table_sizes) <= median, sorted(self.table_sizes)
        assert max(self.table_sizes) <= most, sorted(self.table_sizes)[-5:]
        if self.private_sizes:
            assert statistics.median(self.private_sizes) <= private_median, sorted(self.private_sizes)
