"""Plain data kept by the fake Discord: users, channels, recorded requests, violations, interactions.

Kept apart from the server so tests can import and type against them without pulling in aiohttp
routing, and so the server module stays about protocol handling.
"""

from __future__ import annotations

import copy
import datetime as _dt
import itertools
import re
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from tests.fakediscord.driver import FakeDiscord

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions). Only the ones the
# fake hands out are named; tests compare `member.permissions` against them.
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38

#: What @everyone gets in the fake guild: an ordinary member of an ordinary server.
BASIC_PERMISSIONS = (
    CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
    | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | CHANGE_NICKNAME | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
)
#: What the bot's managed role adds (the invite scope a dice bot would ask for).
BOT_PERMISSIONS = BASIC_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS
#: What a channel can take away from the bot (``FakeDiscord.deny``), by the names Discord's
#: settings show: what a game's table needs.
CHANNEL_PERMISSIONS = {"Send Messages": SEND_MESSAGES, "Embed Links": EMBED_LINKS, "Attach Files": ATTACH_FILES,
                       "Read Message History": READ_MESSAGE_HISTORY}
#: More a channel can take away (``FakeDiscord.deny``), kept apart from the four above that the
#: fault runs pick from: without View Channel every call about the channel is refused 403 50001
#: (interactions still come, and their answers go through); in a thread, posting needs Send
#: Messages in Threads and not Send Messages
MORE_CHANNEL_PERMISSIONS = {"View Channel": VIEW_CHANNEL, "Send Messages in Threads": SEND_MESSAGES_IN_THREADS}

# Message flags
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7

# Channel types
GUILD_TEXT = 0
DM = 1
GROUP_DM = 3
GUILD_VOICE = 2
GUILD_ANNOUNCEMENT = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_STAGE_VOICE = 13
GUILD_FORUM = 15
#: the channel types that are threads (a forum's posts are public threads)
THREADS = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)

# Interaction contexts (where a command is used) and install types (who installed the app)
IN_GUILD, IN_BOT_DM, IN_PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


def now_iso() -> str:
    """Discord's timestamp format (ISO 8601 with offset), which discord.utils.parse_time reads."""
    return _dt.datetime.now(_dt.UTC).isoformat()


class SnowflakeFactory:
    """Time-based, strictly increasing snowflakes, so ids sort like Discord's and `created_at` works."""

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
            self._last = max(candidate, self._last + 1)
            return self._last

    def on_shard(self, shard: int, shard_count: int) -> int:
        """The next snowflake that Discord would route to ``shard``: (id >> 22) % shard_count."""
        with self._lock:
            ms = max((int(time.time() * 1000) - DISCORD_EPOCH_MS), (self._last >> 22) + 1)
            ms += (shard - ms) % shard_count
            self._last = ms << 22
            return self._last


@dataclass(eq=False)
class FakeUser:
    """A Discord account in the fake guild. `dms_closed` makes DMs to it fail with 50007."""

    id: int
    name: str
    #: the display name Discord shows (default: the username, title-cased)
    display: str | None = None
    bot: bool = False
    dms_closed: bool = False
    manager: bool = False
    admin: bool = False
    #: holds the guild's "Game Masters" role (no permissions of its own)
    gm: bool = False
    joined_at: str = field(default_factory=now_iso)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_dict(self) -> dict[str, Any]:
        """The public user object, as Discord embeds it in messages, members and interactions."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.display or self.name.title(),
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"FakeUser({self.name!r}, id={self.id})"


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events, as Discord routes them; DMs go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass(eq=False)
class FakeGuild:
    """A server the bot is in. Every member of the fake is a member of every guild."""

    id: int
    name: str

    def __repr__(self) -> str:
        return f"FakeGuild({self.name!r}, id={self.id})"


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0) or a DM channel (type 1, with `recipient`)."""

    id: int
    name: str
    type: int = GUILD_TEXT
    position: int = 0
    guild_id: int | None = None
    recipient: FakeUser | None = None
    #: permission bits the bot's role is denied here (a channel overwrite): posting without Send
    #: Messages, uploading without Attach Files, replying or reading without Read Message
    #: History get 403 50013; without Embed Links a post's embeds are dropped
    bot_denied: int = 0
    #: the role the overwrite names (the bot's managed role; set by the world)
    bot_role_id: int = 0
    last_message_id: int | None = None
    #: a channel the bot is not in (a DM between users, a group DM, a server that never invited
    #: it): reached only by the app installed to a user's account, through interactions
    outside: bool = False
    #: the people in a private chat
    members: tuple[FakeUser, ...] = ()
    #: a thread's channel (a thread is type 11, PUBLIC_THREAD)
    parent_id: int | None = None
    #: a thread archived (by hand, or by inactivity): still there, out of the servers' lists
    archived: bool = False
    #: a thread a moderator locked: only someone with Manage Threads may post in it
    locked: bool = False

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def bot_forbidden(self) -> bool:
        """The bot may not post here (Send Messages denied)."""
        return bool(self.bot_denied & SEND_MESSAGES)

    @bot_forbidden.setter
    def bot_forbidden(self, forbidden: bool) -> None:
        self.bot_denied = self.bot_denied | SEND_MESSAGES if forbidden else self.bot_denied & ~SEND_MESSAGES

    def overwrites(self) -> list[dict[str, Any]]:
        """The channel's permission overwrites, as GUILD_CREATE and CHANNEL_UPDATE carry them."""
        if not self.bot_denied:
            return []
        return [{"id": str(self.bot_role_id), "type": 0, "allow": "0", "deny": str(self.bot_denied)}]

    def to_dict(self) -> dict[str, Any]:
        last = str(self.last_message_id) if self.last_message_id else None
        if self.type == DM and self.outside:
            return {"id": str(self.id), "type": DM, "last_message_id": last, "flags": 0,
                    "recipients": [u.to_dict() for u in self.members]}
        if self.type == DM:
            assert self.recipient is not None
            return {"id": str(self.id), "type": DM, "last_message_id": last, "flags": 0,
                    "recipients": [self.recipient.to_dict()]}
        if self.type == GROUP_DM:
            return {"id": str(self.id), "type": GROUP_DM, "last_message_id": last, "flags": 0, "name": self.name,
                    "icon": None, "owner_id": str(self.members[0].id), "recipients": [u.to_dict() for u in self.members]}
        if self.type in THREADS:
            return {"id": str(self.id), "type": self.type, "guild_id": str(self.guild_id), "name": self.name,
                    "parent_id": str(self.parent_id), "owner_id": str(self.bot_role_id), "last_message_id": last,
                    "rate_limit_per_user": 0, "message_count": 0, "member_count": 0, "total_message_sent": 0,
                    "flags": 0, "thread_metadata": {"archived": self.archived, "auto_archive_duration": 1440,
                                                    "archive_timestamp": now_iso(), "locked": self.locked}}
        data = {
            "id": str(self.id), "type": self.type, "guild_id": str(self.guild_id), "name": self.name,
            "position": self.position, "permission_overwrites": self.overwrites(), "nsfw": False, "topic": None,
            "parent_id": None, "rate_limit_per_user": 0, "last_message_id": last, "flags": 0,
        }
        if self.type in (GUILD_VOICE, GUILD_STAGE_VOICE):
            data.update({"bitrate": 64000, "user_limit": 0, "rtc_region": None})
        if self.type == GUILD_FORUM:
            data.update({"available_tags": [], "default_reaction_emoji": None, "default_sort_order": None,
                         "default_forum_layout": 0, "default_thread_rate_limit_per_user": 0})
        return data

    def __repr__(self) -> str:
        return f"FakeChannel({self.name!r}, id={self.id})"


@dataclass
class RequestRecord:
    """One REST request as the fake saw it; `at`/`done` are time.monotonic() values."""

    method: str
    path: str
    query: str
    at: float
    status: int = 0
    done: float = 0.0
    code: int | None = None  # Discord JSON error code when the answer was an error

    def __repr__(self) -> str:
        q = f"?{self.query}" if self.query else ""
        return f"<{self.method} {self.path}{q} -> {self.status}{f' ({self.code})' if self.code else ''}>"


@dataclass
class Violation:
    """Something real Discord would have refused or shown the user as a failure."""

    kind: str  # late_callback | unanswered | double_ack | webhook_before_ack | expired_token
    detail: str
    interaction_id: int | None = None
    at: float = field(default_factory=time.monotonic)

    def __repr__(self) -> str:
        return f"Violation({self.kind}: {self.detail})"


@dataclass(eq=False)
class Fault:
    """A failure the fake answers instead of routing: the next ``times`` calls (None: every
    call until cleared) whose method and path match, each with ``probability`` (None: always).
    ``path`` is searched in the path after /api/v10 (``/channels/1/messages``)."""

    method: str  # "POST", "PATCH"... or "*" for any
    path: re.Pattern[str]
    status: int
    code: int
    message: str
    times: int | None = 1
    retry_after: float | None = None
    probability: float | None = None
    #: a 429 on every route at once (Discord's global limit), not only this route's bucket
    is_global: bool = False
    fired: int = 0

    @property
    def spent(self) -> bool:
        return self.times is not None and self.fired >= self.times

    def matches(self, method: str, path: str) -> bool:
        return (self.method in ("*", method)) and self.path.search(path) is not None

    def __repr__(self) -> str:
        return f"<Fault {self.method} {self.path.pattern} -> {self.status} {self.code} fired {self.fired}/{self.times}>"


@dataclass
class FaultHit:
    """A call the fake failed on purpose (``FakeDiscord.fail``)."""

    method: str
    path: str
    status: int
    code: int
    at: float = field(default_factory=time.monotonic)
    #: the JSON body the call carried (what the bot tried to send)
    body: Any = None
    #: where the call is in ``FakeDiscord.calls``: what the bot did next follows it
    index: int = 0


_interaction_seq = itertools.count(1)


@dataclass(eq=False)
class Interaction:
    """What the fake injected and everything the bot did with it.

    `response` is the first accepted initial callback body ({"type", "data"}); rejected ones (late
    or duplicate) go to `rejected_callbacks`. Ephemeral messages live here and never in the
    channel store; `messages` lists every message id created for this token, original first.
    """

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    user: FakeUser
    channel_id: int
    payload: dict[str, Any]
    name: str  # command name ("game start") or custom_id
    fd: FakeDiscord = field(repr=False)
    injected_at: float = 0.0  # time.monotonic() when INTERACTION_CREATE went out
    responded_at: float | None = None
    response: dict[str, Any] | None = None
    response_status: int | None = None
    rejected_callbacks: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    original_message_id: int | None = None
    message_ids: list[int] = field(default_factory=list)
    ephemeral: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    original_edits: int = 0
    #: Discord delivered it again (FakeDiscord.deliver_again): a second answer is refused with
    #: 40060, as Discord does, and is no fault of the bot's
    redelivered: int = 0
    seq: int = field(default_factory=lambda: next(_interaction_seq))
    #: the gateway shard it was delivered on (None: a session that identified without shards)
    shard: int | None = None

    # -- views -----------------------------------------------------------------------------
    @property
    def response_type(self) -> int | None:
        return self.response["type"] if self.response else None

    @property
    def latency(self) -> float | None:
        """Seconds from injection to the initial callback (None before it arrives)."""
        return None if self.responded_at is None else self.responded_at - self.injected_at

    @property
    def ephemeral_messages(self) -> list[dict[str, Any]]:
        """Snapshots of the ephemeral messages shown to this user for this interaction."""
        return [copy.deepcopy(m) for m in self.ephemeral.values()]

    @property
    def followups(self) -> list[dict[str, Any]]:
        """Snapshots of followup messages (channel or ephemeral), in order."""
        return [m for m in (self.fd.message(i) for i in self.followup_ids) if m is not None]

    def original(self) -> dict[str, Any] | None:
        """Current state of the @original message (None if there is none, or it was deleted)."""
        return None if self.original_message_id is None else self.fd.message(self.original_message_id)

    # -- waiting ---------------------------------------------------------------------------
    async def wait_response(self, timeout: float = 5.0) -> dict[str, Any]:
        """The accepted initial callback body {"type": int, "data": dict|None}."""
        await self.fd.wait_until(lambda: self.response is not None, timeout,
                                 what=f"initial response to {self.name!r}")
        assert self.response is not None
        return self.response

    async def response_message(self, timeout: float = 5.0) -> dict[str, Any]:
        """The message the response created or edited, once it is final.

        4 -> the new message; 7 -> the edited component message; 5 -> the original once the bot
        filled it in (PATCH @original or first followup); 6 -> the component message after the
        bot edited it through @original. Raises TimeoutError otherwise.
        """
        resp = await self.wait_response(timeout)
        kind = resp["type"]
        if kind in (4, 7):
            msg = self.original()
            assert msg is not None, "response message vanished"
            return msg
        if kind == 5:
            await self.fd.wait_until(
                lambda: (m := self.original()) is not None and not (m["flags"] & FLAG_LOADING), timeout,
                what=f"deferred response to {self.name!r} to be filled in")
        elif kind == 6:
            await self.fd.wait_until(lambda: self.original_edits > 0, timeout,
                                     what=f"edit of @original after deferred update for {self.name!r}")
        else:
            raise AssertionError(f"response type {kind} creates no message")
        msg = self.original()
        assert msg is not None
        return msg

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[dict[str, Any]]:
        """At least `count` followup messages (snapshots)."""
        await self.fd.wait_until(lambda: len(self.followup_ids) >= count, timeout,
                                 what=f"{count} followup(s) for {self.name!r}")
        return self.followups

    def __repr__(self) -> str:
        return (f"<Interaction {self.name!r} type={self.type} user={self.user.name} "
                f"response={self.response_type} latency={self.latency}>")


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every button in a message (action rows and v2 containers flattened), in display order.

    Each entry: label, custom_id, style, disabled, emoji, url.
    """
    out: list[dict[str, Any]] = []
    for comp in _walk(message.get("components") or []):
        if comp.get("type") == 2:
            out.append({"label": comp.get("label"), "custom_id": comp.get("custom_id"),
                        "style": comp.get("style"), "disabled": bool(comp.get("disabled", False)),
                        "emoji": comp.get("emoji"), "url": comp.get("url")})
    return out


def selects(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every select menu in a message: custom_id, type, options (label/value/...), placeholder,
    min_values, max_values, disabled."""
    out: list[dict[str, Any]] = []
    for comp in _walk(message.get("components") or []):
        if comp.get("type") in (3, 5, 6, 7, 8):
            out.append({"custom_id": comp.get("custom_id"), "type": comp.get("type"),
                        "options": list(comp.get("options") or []), "placeholder": comp.get("placeholder"),
                        "min_values": comp.get("min_values", 1), "max_values": comp.get("max_values", 1),
                        "disabled": bool(comp.get("disabled", False))})
    return out


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Depth-first list of components: rows (1), sections (9, with accessory), containers (17), labels (18)."""
    out: list[dict[str, Any]] = []
    for comp in components:
        out.append(comp)
        out.extend(_walk(comp.get("components") or []))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                out.extend(_walk([comp[key]]))
    return out
