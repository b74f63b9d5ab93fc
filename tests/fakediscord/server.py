"""A fake Discord (REST + gateway) on 127.0.0.1 for end-to-end tests of the real bot process.

The unchanged discord.py client talks to it over HTTP and a websocket, so the bot under test runs
exactly the code it runs in production. The fake is deliberately strict where real Discord is
strict (the 3-second callback window, double acknowledgements, 15-minute webhook tokens, message
limits, closed DMs) and records every request, so tests can assert that nothing the bot did would
fail against the real service: `fd.violations == []` and `fd.unknown_routes == []`.

Facts about what discord.py 2.7.1 calls are in the project's shared notes, DISCORD-OFFLINE.md.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.models import (
    ADMINISTRATOR, BASIC_PERMISSIONS, BOT_PERMISSIONS, DM, FLAG_EPHEMERAL, FLAG_LOADING,
    MANAGE_CHANNELS, FakeChannel, FakeGuild, FakeUser, Interaction, RequestRecord, SnowflakeFactory, Violation,
    buttons, now_iso, selects, shard_of,
)
from tests.fakediscord.validate import FormError, check_message

log = logging.getLogger("fakediscord")

API_PREFIX = "/api/v10"
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_MESSAGE_CONTENT = 1 << 15
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_COMPONENTS_V2 = 1 << 15

Handler = Callable[[web.Request, "re.Match[str]"], Awaitable[web.StreamResponse]]

_DISCORD_TYPES = {bool: 5, int: 4, float: 10, str: 3}


def _json(data: Any, status: int = 200) -> web.Response:
    """JSON with Content-Type exactly application/json: discord.py ignores the body otherwise."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _error(status: int, code: int, message: str, extra: Mapping[str, Any] | None = None) -> web.Response:
    return _json({"code": code, "message": message, **(extra or {})}, status)


def _no_content() -> web.Response:
    return web.Response(status=204)


@dataclass(eq=False)
class _Session:
    """One gateway session (IDENTIFY); survives a dropped socket until resumed or replaced."""

    id: str
    intents: int
    identified_at: float
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    buffer: list[dict[str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    guild_create_at: float | None = None
    resumes: int = 0
    closed_at: float | None = None
    #: [shard_id, shard_count] from IDENTIFY (None: the session receives every event)
    shard: tuple[int, int] | None = None

    @property
    def live(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def covers(self, guild_id: int | None) -> bool:
        """Whether Discord routes this guild's events (None: DMs) to this session."""
        return self.shard is None or self.shard[0] == shard_of(guild_id, self.shard[1])


class FakeDiscord:
    """The fake service. Create, add users/channels, `await start()`, point the bot at
    `api_base`/`gateway_url`, then inject interactions and inspect what the bot did."""

    def __init__(
        self,
        *,
        guild_name: str = "Boneyard Test Guild",
        channels: Iterable[str] = ("general", "games", "tavern"),
        bot_name: str = "Boneyard",
        callback_window: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41250,
        shards: int = 1,
        max_concurrency: int = 1,
    ) -> None:
        self.snowflake = SnowflakeFactory()
        #: what GET /gateway/bot recommends: the shard count, and how many may identify at once
        self.recommended_shards = shards
        self.max_concurrency = max_concurrency
        self.callback_window = callback_window
        self.token_lifetime = token_lifetime
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.guild_id: int = self.snowflake()
        self.guild_name = guild_name
        #: every guild the bot is in; the first is the default one (``guild_id``)
        self.guilds: dict[int, FakeGuild] = {self.guild_id: FakeGuild(self.guild_id, guild_name)}
        self.application_id: int = self.snowflake()
        self.bot_user = FakeUser(id=self.application_id, name=bot_name, bot=True)
        self.owner = FakeUser(id=self.snowflake(), name="owner")
        self.manager_role_id: int = self.snowflake()
        self.bot_role_id: int = self.snowflake()
        self.users: list[FakeUser] = []
        self.channels: dict[int, FakeChannel] = {}
        self.app_permissions: int = BOT_PERMISSIONS

        # records tests assert on
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[str] = []
        self.violations: list[Violation] = []
        self.interactions: list[Interaction] = []
        self.gateway_log: list[tuple[float, str, int, str | None]] = []  # (time, "in"/"out", op, t)
        self.identifies: list[tuple[float, str]] = []  # (time, session id)
        self.command_syncs: list[tuple[float, int | None]] = []  # (time, guild id or None)
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # scope (guild id / None) -> commands

        self._messages: dict[int, list[dict[str, Any]]] = {}  # channel id -> live message dicts
        self._where: dict[int, tuple[str, int]] = {}  # message id -> ("channel", cid) | ("ephemeral", iid)
        self._attachments: dict[int, bytes] = {}
        self._dm_channels: dict[int, FakeChannel] = {}  # user id -> DM channel
        self._interactions_by_id: dict[int, Interaction] = {}
        self._interactions_by_token: dict[str, Interaction] = {}
        self._modals: dict[tuple[int, str], dict[str, Any]] = {}  # (user id, custom_id) -> modal
        self._command_ids: dict[tuple[int | None, str, int], int] = {}  # stable ids across syncs
        self._sessions: list[_Session] = []
        self._timers: list[asyncio.TimerHandle] = []
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port: int = 0
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = self._route_table()
        #: every REST call the bot made, {method, path, status, json, message_id, files}, in order:
        #: what tests of the whole channel read, and what discord-render draws. Written out as
        #: calls.jsonl + transcript-meta.json on stop when FAKE_DISCORD_CALLS names a folder.
        self.calls: list[dict[str, Any]] = []
        self.calls_dir: str | None = os.environ.get("FAKE_DISCORD_CALLS") or None
        self._bodies: dict[int, tuple[Any, list[str]]] = {}  # id(request) -> what it carried
        for name in channels:
            self.add_channel(name)

    # ------------------------------------------------------------------ lifecycle
    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port (port 0) so parallel test runs never collide."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("GET", "/gateway/", self._gateway)
        app.router.add_route("GET", r"/attachments/{cid}/{aid}/{filename}", self._get_attachment)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        log.info("fake discord on %s", self.api_base)

    async def stop(self) -> None:
        """Close gateway sockets (the bot sees a disconnect) and the HTTP server."""
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()
        for s in self._sessions:
            if s.live:
                assert s.ws is not None
                await s.ws.close(code=1001, message=b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.calls_dir:
            self.write_calls(self.calls_dir)

    def write_calls(self, folder: str | os.PathLike[str]) -> None:
        """calls.jsonl and transcript-meta.json, as ../shared/tools/discord-render reads them."""
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "calls.jsonl"), "w", encoding="utf-8") as out:
            for call in self.calls:
                out.write(json.dumps({k: call[k] for k in ("method", "path", "status", "json")}) + "\n")
        # the channel the game was played in: the one with the most messages
        main = max((c for c in self.channels.values() if c.type != DM),
                   key=lambda c: len(self._messages.get(c.id, [])))
        meta = {
            "format": "transcript-meta/1",
            "application_id": str(self.application_id),
            "channel_id": str(main.id),
            "channel_name": main.name,
            "users": {str(u.id): u.name for u in [*self.users, self.bot_user]},
            "dm_channels": {str(ch.id): str(uid) for uid, ch in self._dm_channels.items()},
            "calls": [{"message_id": c.get("message_id")} for c in self.calls],
            "interactions": {
                str(it.id): {
                    "user": str(it.user.id), "type": it.type, "channel_id": str(it.channel_id),
                    "message_id": (it.payload.get("message") or {}).get("id"),
                    "custom_id": (it.payload.get("data") or {}).get("custom_id"),
                    "label": self._label_of(it),
                    "command": "/" + it.name if it.type == 2 else None,
                }
                for it in self.interactions
            },
        }
        with open(os.path.join(folder, "transcript-meta.json"), "w", encoding="utf-8") as out:
            json.dump(meta, out)

    @staticmethod
    def _label_of(it: Interaction) -> str | None:
        custom_id = (it.payload.get("data") or {}).get("custom_id")
        for b in buttons(it.payload.get("message") or {}):
            if b.get("custom_id") == custom_id:
                return b.get("label")
        return None

    async def __aenter__(self) -> "FakeDiscord":
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ world building
    def add_user(self, name: str, *, dms_closed: bool = False, manager: bool = False,
                 admin: bool = False) -> FakeUser:
        """A guild member. Add users before the bot connects (GUILD_CREATE lists them all);
        later additions reach the bot only as GUILD_MEMBER_ADD and only with the members intent."""
        user = FakeUser(id=self.snowflake(), name=name, dms_closed=dms_closed, manager=manager, admin=admin)
        self.users.append(user)
        for gid in self.guilds:
            session = self._session_for(gid)
            if session is not None and session.intents & INTENT_GUILD_MEMBERS:
                self._spawn(self._dispatch("GUILD_MEMBER_ADD", {**self._member(user), "guild_id": str(gid)}))
        return user

    def set_manager(self, user: FakeUser, manager: bool = True) -> None:
        """Grant/revoke Manage Channels (via the managers role); interactions carry it from now on."""
        user.manager = manager
        for gid in self.guilds:
            session = self._session_for(gid)
            if session is not None and session.intents & INTENT_GUILD_MEMBERS:
                self._spawn(self._dispatch("GUILD_MEMBER_UPDATE", {**self._member(user), "guild_id": str(gid)}))

    def add_guild(self, name: str, *, channels: Iterable[str] = (), shard: int | None = None,
                  shard_count: int | None = None) -> FakeGuild:
        """Another guild the bot is in (add before the bot connects), with text channels (their
        names must differ from every other channel's). With ``shard`` and ``shard_count`` its id
        is one that Discord routes to that shard."""
        if shard is not None:
            gid = self.snowflake.on_shard(shard, shard_count or self.recommended_shards)
        else:
            gid = self.snowflake()
        guild = FakeGuild(gid, name)
        self.guilds[gid] = guild
        for channel in channels:
            self.add_channel(channel, guild=guild)
        return guild

    def guild_of(self, channel: FakeChannel | int | str) -> FakeGuild | None:
        """The guild a channel belongs to (None for a DM channel)."""
        gid = self.channel(channel).guild_id
        return self.guilds.get(gid) if gid is not None else None

    def add_channel(self, name: str, *, bot_forbidden: bool = False, guild: FakeGuild | None = None) -> FakeChannel:
        """A guild text channel (add before the bot connects; GUILD_CREATE carries channels)."""
        gid = guild.id if guild is not None else self.guild_id
        ch = FakeChannel(id=self.snowflake(), name=name, position=sum(c.guild_id == gid for c in self.channels.values()),
                         guild_id=gid, bot_forbidden=bot_forbidden)
        self.channels[ch.id] = ch
        self._messages[ch.id] = []
        return ch

    def channel(self, which: FakeChannel | int | str) -> FakeChannel:
        """Look a channel up by object, id, or name (guild channels) / DM channel id."""
        if isinstance(which, FakeChannel):
            return which
        if isinstance(which, str) and not which.isdigit():
            for ch in self.channels.values():
                if ch.name == which:
                    return ch
            raise KeyError(f"no channel named {which!r}")
        cid = int(which)
        if cid in self.channels:
            return self.channels[cid]
        for ch in self._dm_channels.values():
            if ch.id == cid:
                return ch
        raise KeyError(f"no channel {cid}")

    def user(self, which: FakeUser | int | str) -> FakeUser:
        if isinstance(which, FakeUser):
            return which
        for u in [*self.users, self.bot_user, self.owner]:
            if u.name == which or str(u.id) == str(which):
                return u
        raise KeyError(f"no user {which!r}")

    def dm_channel(self, user: FakeUser) -> FakeChannel | None:
        return self._dm_channels.get(user.id)

    # ------------------------------------------------------------------ payload builders
    def _roles(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        def role(rid: int, name: str, perms: int, position: int, **extra: Any) -> dict[str, Any]:
            return {"id": str(rid), "name": name, "permissions": str(perms), "position": position, "color": 0,
                    "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                    "hoist": False, "managed": False, "mentionable": False, "icon": None, "unicode_emoji": None,
                    "flags": 0, **extra}
        return [
            role(guild_id or self.guild_id, "@everyone", BASIC_PERMISSIONS, 0),
            role(self.manager_role_id, "Game Managers", MANAGE_CHANNELS, 1),
            role(self.bot_role_id, self.bot_user.name, self.app_permissions, 2, managed=True,
                 tags={"bot_id": str(self.bot_user.id)}),
        ]

    def _role_ids(self, user: FakeUser) -> list[str]:
        if user.bot:
            return [str(self.bot_role_id)]
        return [str(self.manager_role_id)] if user.manager else []

    def permissions_of(self, user: FakeUser) -> int:
        """What `member.permissions` says in an interaction (no channel overwrites in the fake)."""
        if user.bot:
            return BASIC_PERMISSIONS | self.app_permissions
        perms = BASIC_PERMISSIONS | (MANAGE_CHANNELS if user.manager else 0)
        if user.admin or user is self.owner:
            perms |= ADMINISTRATOR | MANAGE_CHANNELS
        return perms

    def _member(self, user: FakeUser, *, with_user: bool = True, permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": self._role_ids(user), "joined_at": user.joined_at, "deaf": False, "mute": False,
            "flags": 0, "nick": None, "avatar": None, "banner": None, "premium_since": None, "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = user.to_dict()
        if permissions:
            data["permissions"] = str(self.permissions_of(user))
        return data

    def _guild_payload(self, *, full: bool, guild_id: int | None = None) -> dict[str, Any]:
        guild = self.guilds[guild_id or self.guild_id]
        data: dict[str, Any] = {
            "id": str(guild.id), "name": guild.name, "icon": None, "splash": None,
            "discovery_splash": None, "banner": None, "description": None, "owner_id": str(self.owner.id),
            "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
            "default_message_notifications": 1, "explicit_content_filter": 0, "mfa_level": 0,
            "nsfw_level": 0, "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
            "features": [], "roles": self._roles(guild.id), "emojis": [], "stickers": [], "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "public_updates_channel_id": None,
            "vanity_url_code": None, "max_members": 500000, "premium_progress_bar_enabled": False,
        }
        if full:
            members = [self.bot_user, *self.users]
            data.update({
                "unavailable": False, "large": False, "lazy": True, "joined_at": now_iso(),
                "member_count": len(members), "members": [self._member(u) for u in members],
                "channels": [ch.to_dict() for ch in self.channels.values() if ch.guild_id == guild.id], "threads": [],
                "presences": [], "voice_states": [], "stage_instances": [], "guild_scheduled_events": [],
                "soundboard_sounds": [],
            })
        return data

    def _me(self) -> dict[str, Any]:
        return {**self.bot_user.to_dict(), "verified": True, "mfa_enabled": False, "flags": 0,
                "email": None, "locale": "en-US", "banner": None, "accent_color": None}

    def _app_info(self) -> dict[str, Any]:
        return {"id": str(self.application_id), "name": self.bot_user.name, "description": "", "icon": None,
                "bot_public": True, "bot_require_code_grant": False, "owner": self.owner.to_dict(),
                "verify_key": "0" * 64, "team": None, "flags": 0, "summary": "", "rpc_origins": [],
                "tags": [], "bot": self.bot_user.to_dict()}

    # ------------------------------------------------------------------ change notification
    def _notify(self) -> None:
        """Wake every waiter; waiters re-check their predicate (cheap, and never misses a change)."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0, *, what: str = "") -> Any:
        """Wait until predicate() is truthy (re-checked on every change in the fake) and return it."""
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what or predicate!r}; "
                                   f"violations={self.violations} unknown_routes={self.unknown_routes}")
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), min(remaining, 0.25))
            except TimeoutError:
                pass

    async def wait_for_message(self, predicate: Callable[[dict[str, Any]], bool] | None = None, timeout: float = 5.0,
                               *, channel: FakeChannel | int | str | None = None,
                               after: int | None = None) -> dict[str, Any]:
        """First channel/DM message (non-ephemeral) matching predicate, optionally in one channel
        and with id > `after` (pass the last id you saw to wait for a new one)."""
        cid = self.channel(channel).id if channel is not None else None

        def find() -> dict[str, Any] | None:
            chans = [cid] if cid is not None else list(self._messages)
            for c in chans:
                for m in self._messages.get(c, []):
                    if after is not None and int(m["id"]) <= after:
                        continue
                    if predicate is None or predicate(m):
                        return copy.deepcopy(m)
            return None
        return await self.wait_until(find, timeout, what="a matching message")

    # ------------------------------------------------------------------ message store (tests)
    def messages(self, channel: FakeChannel | int | str) -> list[dict[str, Any]]:
        """Snapshots of a channel's messages, oldest first (ephemeral messages are never here)."""
        return [copy.deepcopy(m) for m in self._messages.get(self.channel(channel).id, [])]

    def dm_messages(self, user: FakeUser) -> list[dict[str, Any]]:
        """Messages the bot delivered to this user's DM channel."""
        ch = self._dm_channels.get(user.id)
        return self.messages(ch) if ch else []

    def message(self, message_id: int | str) -> dict[str, Any] | None:
        """Current snapshot of any message (channel, DM or ephemeral) by id; None if deleted."""
        live = self._live_message(int(message_id))
        return copy.deepcopy(live) if live is not None else None

    def last_message(self, channel: FakeChannel | int | str) -> dict[str, Any] | None:
        msgs = self._messages.get(self.channel(channel).id, [])
        return copy.deepcopy(msgs[-1]) if msgs else None

    def attachment_bytes(self, attachment: dict[str, Any] | int | str) -> bytes:
        """The uploaded bytes of an attachment (pass the attachment dict from a message or its id)."""
        aid = int(attachment["id"]) if isinstance(attachment, dict) else int(attachment)
        return self._attachments[aid]

    def attachments(self, message: dict[str, Any]) -> list[tuple[str, bytes]]:
        """(filename, bytes) for every attachment of a message, current state."""
        msg = self.message(message["id"]) or message
        return [(a["filename"], self._attachments[int(a["id"])]) for a in msg.get("attachments") or []]

    buttons = staticmethod(buttons)
    selects = staticmethod(selects)

    def command_id(self, name: str, *, guild: bool | None = None) -> int:
        """Id of a synced chat-input command (guild scope first unless guild=False)."""
        scopes: list[int | None] = [self.guild_id, None] if guild is None else ([self.guild_id] if guild else [None])
        for scope in scopes:
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return int(cmd["id"])
        synced = {s: [c["name"] for c in cmds] for s, cmds in self.commands.items()}
        raise LookupError(f"command {name!r} was not synced; synced: {synced}")

    def _live_message(self, mid: int) -> dict[str, Any] | None:
        where = self._where.get(mid)
        if where is None:
            return None
        kind, key = where
        pool = self._messages.get(key, []) if kind == "channel" else list(self._interactions_by_id[key].ephemeral.values())
        for m in pool:
            if int(m["id"]) == mid:
                return m
        return None

    # ------------------------------------------------------------------ REST plumbing
    def _route_table(self) -> list[tuple[str, re.Pattern[str], Handler]]:
        app = r"(?P<app>\d+)"
        tok = r"(?P<token>[^/]+)"
        cid = r"(?P<cid>\d+)"
        mid = r"(?P<mid>\d+)"
        gid = r"(?P<gid>\d+)"
        table: list[tuple[str, str, Handler]] = [
            ("GET", r"/users/@me", self._r_me),
            ("GET", r"/users/(?P<uid>\d+)", self._r_user),
            ("POST", r"/users/@me/channels", self._r_create_dm),
            ("GET", r"/oauth2/applications/@me", self._r_app_info),
            ("GET", r"/applications/@me", self._r_app_info),
            ("GET", r"/gateway", self._r_gateway_info),
            ("GET", r"/gateway/bot", self._r_gateway_info),
            ("GET", rf"/applications/{app}/commands", self._r_commands_list),
            ("PUT", rf"/applications/{app}/commands", self._r_commands_put),
            ("POST", rf"/applications/{app}/commands", self._r_command_post),
            ("GET", rf"/applications/{app}/guilds/{gid}/commands", self._r_commands_list),
            ("PUT", rf"/applications/{app}/guilds/{gid}/commands", self._r_commands_put),
            ("POST", rf"/applications/{app}/guilds/{gid}/commands", self._r_command_post),
            ("GET", rf"/applications/{app}/guilds/{gid}/commands/permissions", self._r_command_perms),
            ("GET", rf"/applications/{app}/(?:guilds/{gid}/)?commands/(?P<cmd>\d+)", self._r_command_one),
            ("PATCH", rf"/applications/{app}/(?:guilds/{gid}/)?commands/(?P<cmd>\d+)", self._r_command_one),
            ("DELETE", rf"/applications/{app}/(?:guilds/{gid}/)?commands/(?P<cmd>\d+)", self._r_command_one),
            ("POST", rf"/interactions/(?P<iid>\d+)/{tok}/callback", self._r_callback),
            ("POST", rf"/webhooks/{app}/{tok}", self._r_followup),
            ("GET", rf"/webhooks/{app}/{tok}/messages/(?P<mid>@original|\d+)", self._r_webhook_message),
            ("PATCH", rf"/webhooks/{app}/{tok}/messages/(?P<mid>@original|\d+)", self._r_webhook_message),
            ("DELETE", rf"/webhooks/{app}/{tok}/messages/(?P<mid>@original|\d+)", self._r_webhook_message),
            ("GET", rf"/channels/{cid}", self._r_channel),
            ("GET", rf"/channels/{cid}/messages", self._r_history),
            ("POST", rf"/channels/{cid}/messages", self._r_send),
            ("GET", rf"/channels/{cid}/messages/{mid}", self._r_get_message),
            ("PATCH", rf"/channels/{cid}/messages/{mid}", self._r_edit_message),
            ("DELETE", rf"/channels/{cid}/messages/{mid}", self._r_delete_message),
            ("POST", rf"/channels/{cid}/typing", self._r_typing),
            ("PUT", rf"/channels/{cid}/messages/{mid}/reactions/(?P<emoji>[^/]+)/@me", self._r_reaction),
            ("DELETE", rf"/channels/{cid}/messages/{mid}/reactions/(?P<emoji>[^/]+)/@me", self._r_reaction),
            ("GET", rf"/channels/{cid}/(?:messages/)?pins", self._r_pins),
            ("PUT", rf"/channels/{cid}/(?:messages/)?pins/{mid}", self._r_pin),
            ("DELETE", rf"/channels/{cid}/(?:messages/)?pins/{mid}", self._r_pin),
            ("GET", rf"/guilds/{gid}", self._r_guild),
            ("GET", rf"/guilds/{gid}/channels", self._r_guild_channels),
            ("GET", rf"/guilds/{gid}/roles", self._r_guild_roles),
            ("GET", rf"/guilds/{gid}/members", self._r_guild_members),
            ("GET", rf"/guilds/{gid}/members/(?P<uid>\d+)", self._r_guild_member),
        ]
        return [(m, re.compile(p + r"/?"), h) for m, p, h in table]

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        """Route, record and time every REST call; unknown routes are 404 and remembered."""
        path = request.path
        rec = RequestRecord(method=request.method, path=path, query=request.query_string, at=time.monotonic())
        self.requests.append(rec)
        resp: web.StreamResponse
        try:
            resp = await self._route(request, path)
        except FormError as exc:
            self._violate("invalid_form_body", f"{request.method} {path}: {exc}")
            resp = _error(400, exc.code, exc.message, {"errors": exc.body()["errors"]})
        except Exception:  # a bug in the fake must show up loudly, not as a hang
            log.exception("fake discord failed on %s %s", request.method, path)
            self._violate("fake_error", f"{request.method} {path} crashed the fake (see log)")
            resp = _error(500, 0, "500: Internal Server Error (fake)")
        rec.status = resp.status
        body, names = self._bodies.pop(id(request), (None, []))
        self.calls.append({
            "method": request.method, "path": path.removeprefix(API_PREFIX), "status": resp.status,
            "json": body, "files": names,
            "message_id": self._message_id_of(resp),
        })
        if resp.status >= 400 and isinstance(resp, web.Response) and isinstance(resp.body, bytes):
            rec.code = json.loads(resp.body).get("code")
        rec.done = time.monotonic()
        self._notify()
        return resp

    async def _route(self, request: web.Request, path: str) -> web.StreamResponse:
        if path.startswith(API_PREFIX):
            sub = path[len(API_PREFIX):]
            allowed: list[str] = []
            for method, pattern, handler in self._routes:
                m = pattern.fullmatch(sub)
                if m is None:
                    continue
                if method != request.method:
                    allowed.append(method)
                    continue
                if not sub.startswith(("/interactions/", "/webhooks/")) and not request.headers.get(
                        "Authorization", "").startswith("Bot "):
                    return _error(401, 0, "401: Unauthorized")
                return await handler(request, m)
            if allowed:
                self.unknown_routes.append(f"{request.method} {path}")
                log.warning("fake discord: method not allowed: %s %s", request.method, path)
                return _error(405, 0, "405: Method Not Allowed")
        self.unknown_routes.append(f"{request.method} {path}")
        log.warning("fake discord: unknown route %s %s", request.method, path)
        return _error(404, 0, "404: Not Found")

    @staticmethod
    def _message_id_of(resp: web.StreamResponse) -> str | None:
        """The message a call created or edited, read back from what the fake answered."""
        if not isinstance(resp, web.Response) or not isinstance(resp.body, bytes) or resp.status >= 400:
            return None
        try:
            body = json.loads(resp.body)
        except ValueError:
            return None
        if not isinstance(body, dict):
            return None
        if "channel_id" in body and "id" in body and "author" in body:
            return str(body["id"])
        resource = body.get("resource") or {}
        message = resource.get("message") if isinstance(resource, dict) else None
        if isinstance(message, dict):
            return str(message["id"])
        return (body.get("interaction") or {}).get("response_message_id")

    async def _read(self, request: web.Request) -> tuple[Any, dict[int, tuple[str, bytes, str]]]:
        """JSON body, or multipart/form-data with payload_json plus files[n] parts (both kept on
        the request for the call log)."""
        payload, files = await self._read_body(request)
        self._bodies[id(request)] = (payload, [name for name, _, _ in files.values()])
        return payload, files

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[int, tuple[str, bytes, str]]]:
        files: dict[int, tuple[str, bytes, str]] = {}
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            payload: Any = None
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = part.name or ""  # type: ignore[union-attr]
                raw = await part.read()  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(raw.decode())
                elif (fm := re.fullmatch(r"files\[(\d+)\]", name)) is not None:
                    files[int(fm.group(1))] = (part.filename or f"file{fm.group(1)}", bytes(raw),  # type: ignore[union-attr]
                                               part.headers.get("Content-Type", "application/octet-stream"))  # type: ignore[union-attr]
            return payload, files
        if request.can_read_body:
            raw_text = await request.text()
            return (json.loads(raw_text) if raw_text else None), files
        return None, files

    # ------------------------------------------------------------------ REST: identity & commands
    async def _r_me(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        return _json(self._me())

    async def _r_user(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        try:
            return _json(self.user(m["uid"]).to_dict())
        except KeyError:
            return _error(404, 10013, "Unknown User")

    async def _r_app_info(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        return _json(self._app_info())

    async def _r_gateway_info(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        return _json({"url": self.gateway_url.rstrip("/"), "shards": self.recommended_shards,
                      "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000,
                                              "max_concurrency": self.max_concurrency}})

    def _scope(self, m: re.Match[str]) -> int | None:
        gid = m.groupdict().get("gid")
        return int(gid) if gid else None

    def _store_command(self, scope: int | None, body: dict[str, Any]) -> dict[str, Any]:
        ctype = int(body.get("type", 1))
        key = (scope, body["name"], ctype)
        if key not in self._command_ids:
            self._command_ids[key] = self.snowflake()
        cmd = {
            "id": str(self._command_ids[key]), "application_id": str(self.application_id), "version": str(self.snowflake()),
            "type": ctype, "name": body["name"], "description": body.get("description", ""),
            "options": body.get("options", []), "default_member_permissions": body.get("default_member_permissions"),
            "dm_permission": body.get("dm_permission", True), "nsfw": body.get("nsfw", False),
            "contexts": body.get("contexts"), "integration_types": body.get("integration_types", [0]),
            "name_localizations": body.get("name_localizations"),
            "description_localizations": body.get("description_localizations"),
        }
        if scope is not None:
            cmd["guild_id"] = str(scope)
        return cmd

    async def _r_commands_put(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        if int(m["app"]) != self.application_id:
            return _error(403, 50001, "Missing Access")
        scope = self._scope(m)
        if scope is not None and scope not in self.guilds:
            return _error(403, 50001, "Missing Access")
        body, _ = await self._read(request)
        names = [c["name"] for c in body]
        if len(set(names)) != len(names):
            return _error(400, 50035, "Invalid Form Body", {"errors": {"_errors": [{"message": "duplicate names"}]}})
        self.commands[scope] = [self._store_command(scope, c) for c in body]
        self.command_syncs.append((time.monotonic(), scope))
        return _json(self.commands[scope])

    async def _r_command_post(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        scope = self._scope(m)
        body, _ = await self._read(request)
        cmd = self._store_command(scope, body)
        cmds = [c for c in self.commands.get(scope, []) if c["id"] != cmd["id"]]
        self.commands[scope] = [*cmds, cmd]
        return _json(cmd, 201)

    async def _r_commands_list(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        return _json(self.commands.get(self._scope(m), []))

    async def _r_command_perms(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        return _json([])

    async def _r_command_one(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        scope = self._scope(m)
        cmds = self.commands.get(scope, [])
        for i, cmd in enumerate(cmds):
            if cmd["id"] == m["cmd"]:
                if request.method == "DELETE":
                    del cmds[i]
                    return _no_content()
                if request.method == "PATCH":
                    body, _ = await self._read(request)
                    cmd.update({k: v for k, v in body.items() if k != "id"})
                return _json(cmd)
        return _error(404, 10063, "Unknown application command")

    # ------------------------------------------------------------------ REST: guild
    async def _r_guild(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        if int(m["gid"]) not in self.guilds:
            return _error(404, 10004, "Unknown Guild")
        data = self._guild_payload(full=False, guild_id=int(m["gid"]))
        data["approximate_member_count"] = len(self.users) + 1
        return _json(data)

    async def _r_guild_channels(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        return _json([ch.to_dict() for ch in self.channels.values() if ch.guild_id == int(m["gid"])])

    async def _r_guild_roles(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        return _json(self._roles(int(m["gid"])))

    async def _r_guild_members(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        return _json([self._member(u) for u in [self.bot_user, *self.users]])

    async def _r_guild_member(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        for u in [self.bot_user, *self.users]:
            if str(u.id) == m["uid"]:
                return _json(self._member(u))
        return _error(404, 10007, "Unknown Member")

    # ------------------------------------------------------------------ REST: channels & messages
    def _find_channel(self, cid: str | int) -> FakeChannel | None:
        try:
            return self.channel(int(cid))
        except KeyError:
            return None

    async def _r_channel(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        ch = self._find_channel(m["cid"])
        return _json(ch.to_dict()) if ch else _error(404, 10003, "Unknown Channel")

    async def _r_create_dm(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        body, _ = await self._read(request)
        try:
            user = self.user(str(body["recipient_id"]))
        except KeyError:
            return _error(400, 50033, "Invalid Recipient(s)")
        ch = self._dm_channels.get(user.id)
        if ch is None:
            ch = FakeChannel(id=self.snowflake(), name=f"dm-{user.name}", type=DM, recipient=user)
            self._dm_channels[user.id] = ch
            self._messages[ch.id] = []
        return _json(ch.to_dict())

    async def _r_history(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        ch = self._find_channel(m["cid"])
        if ch is None:
            return _error(404, 10003, "Unknown Channel")
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = list(self._messages.get(ch.id, []))
        if "before" in q:
            msgs = [x for x in msgs if int(x["id"]) < int(q["before"])]
        if "after" in q:
            msgs = [x for x in msgs if int(x["id"]) > int(q["after"])]
            msgs = msgs[:limit]
        if "around" in q:
            ids = [int(x["id"]) for x in msgs]
            pivot = int(q["around"])
            idx = min(range(len(ids)), key=lambda i: abs(ids[i] - pivot)) if ids else 0
            msgs = msgs[max(0, idx - limit // 2): idx - limit // 2 + limit]
        msgs = msgs[-limit:]
        return _json([copy.deepcopy(x) for x in reversed(msgs)])

    async def _r_send(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        ch = self._find_channel(m["cid"])
        if ch is None:
            return _error(404, 10003, "Unknown Channel")
        body, files = await self._read(request)
        if ch.type == DM and ch.recipient is not None and ch.recipient.dms_closed:
            return _error(403, 50007, "Cannot send messages to this user")
        if ch.bot_forbidden:
            return _error(403, 50013, "Missing Permissions")
        msg = self._build_message(ch, self.bot_user, body or {}, files)
        ref = (body or {}).get("message_reference")
        if ref and ref.get("message_id"):
            target = self._live_message(int(ref["message_id"]))
            if target is None and ref.get("fail_if_not_exists", True):
                return _error(400, 50035, "Invalid Form Body", {"errors": {"message_reference": "Unknown message"}})
            msg["type"] = 19
            msg["message_reference"] = {"type": 0, "message_id": str(ref["message_id"]), "channel_id": str(ch.id),
                                        "guild_id": str(ch.guild_id) if ch.type != DM else None}
            msg["referenced_message"] = copy.deepcopy(target)
        check_message(msg)
        await self._store_channel_message(ch, msg)
        return _json(copy.deepcopy(msg))

    async def _r_get_message(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        msg = self._channel_message(m["cid"], m["mid"])
        return _json(copy.deepcopy(msg)) if msg else _error(404, 10008, "Unknown Message")

    async def _r_edit_message(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        msg = self._channel_message(m["cid"], m["mid"])
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        body, files = await self._read(request)
        if msg["author"]["id"] != str(self.bot_user.id):
            if set(body or {}) - {"flags"}:
                return _error(403, 50005, "Cannot edit a message authored by another user")
        self._apply_edit(msg, body or {}, files)
        await self._dispatch_message("MESSAGE_UPDATE", msg)
        return _json(copy.deepcopy(msg))

    async def _r_delete_message(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        msg = self._channel_message(m["cid"], m["mid"])
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        await self._delete_message(msg)
        return _no_content()

    async def _r_typing(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        return _no_content()

    async def _r_reaction(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        msg = self._channel_message(m["cid"], m["mid"])
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        from urllib.parse import unquote
        emoji = unquote(m["emoji"])
        reactions = msg.setdefault("reactions", [])
        existing = next((r for r in reactions if r["emoji"]["name"] == emoji), None)
        if request.method == "PUT" and existing is None:
            reactions.append({"count": 1, "me": True, "emoji": {"id": None, "name": emoji},
                              "count_details": {"burst": 0, "normal": 1}, "burst_colors": [], "me_burst": False,
                              "burst_me": False, "burst_count": 0})
        elif request.method == "DELETE" and existing is not None:
            reactions.remove(existing)
        return _no_content()

    async def _r_pins(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        ch = self._find_channel(m["cid"])
        if ch is None:
            return _error(404, 10003, "Unknown Channel")
        pinned = [copy.deepcopy(x) for x in self._messages.get(ch.id, []) if x.get("pinned")]
        if "/messages/pins" in request.path:
            return _json({"items": [{"pinned_at": now_iso(), "message": x} for x in pinned], "has_more": False})
        return _json(pinned)

    async def _r_pin(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        msg = self._channel_message(m["cid"], m["mid"])
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        msg["pinned"] = request.method == "PUT"
        await self._dispatch_message("MESSAGE_UPDATE", msg)
        return _no_content()

    async def _get_attachment(self, request: web.Request) -> web.StreamResponse:
        data = self._attachments.get(int(request.match_info["aid"]))
        if data is None:
            return _error(404, 0, "404: Not Found")
        return web.Response(body=data, headers={"Content-Type": "application/octet-stream"})

    def _channel_message(self, cid: str, mid: str) -> dict[str, Any] | None:
        where = self._where.get(int(mid))
        if where != ("channel", int(cid)):
            return None
        return self._live_message(int(mid))

    # ------------------------------------------------------------------ message building
    def _attachment(self, channel_id: int, filename: str, data: bytes, content_type: str,
                    description: str | None = None) -> dict[str, Any]:
        aid = self.snowflake()
        self._attachments[aid] = data
        url = f"http://127.0.0.1:{self.port}/attachments/{channel_id}/{aid}/{filename}"
        att: dict[str, Any] = {"id": str(aid), "filename": filename, "size": len(data), "url": url,
                               "proxy_url": url, "content_type": content_type}
        if description:
            att["description"] = description
        return att

    def _resolve_attachments(self, channel_id: int, body: dict[str, Any], files: dict[int, tuple[str, bytes, str]],
                             existing: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Apply Discord's attachment rules: `attachments` lists kept ids and new file indexes."""
        by_id = {a["id"]: a for a in existing}
        out: list[dict[str, Any]] = []
        used: set[int] = set()
        listed = body.get("attachments")
        if listed is None:
            out = list(existing)
            listed = []
        for entry in listed:
            eid = str(entry.get("id"))
            if eid in by_id:
                out.append(by_id[eid])
            elif eid.isdigit() and int(eid) in files:
                name, data, ctype = files[int(eid)]
                out.append(self._attachment(channel_id, entry.get("filename") or name, data, ctype,
                                            entry.get("description")))
                used.add(int(eid))
        for index in sorted(set(files) - used):
            name, data, ctype = files[index]
            out.append(self._attachment(channel_id, name, data, ctype))
        return out

    def _build_message(self, ch: FakeChannel, author: FakeUser, body: dict[str, Any],
                       files: dict[int, tuple[str, bytes, str]], *, interaction: Interaction | None = None,
                       extra_flags: int = 0) -> dict[str, Any]:
        mid = self.snowflake()
        content = body.get("content") or ""
        msg: dict[str, Any] = {
            "id": str(mid), "channel_id": str(ch.id), "type": 0, "content": content,
            "author": author.to_dict(), "embeds": list(body.get("embeds") or []),
            "components": list(body.get("components") or []),
            "attachments": self._resolve_attachments(ch.id, body, files, []),
            "flags": (int(body.get("flags") or 0) & (FLAG_EPHEMERAL | FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
                                                      | (1 << 12))) | extra_flags,
            "timestamp": now_iso(), "edited_timestamp": None, "tts": bool(body.get("tts", False)),
            "mention_everyone": False, "mentions": [u.to_dict() for u in self._mentioned_users(content)],
            "mention_roles": [], "pinned": False,
        }
        if body.get("poll"):
            msg["poll"] = body["poll"]
        if interaction is None:
            msg["flags"] &= ~FLAG_EPHEMERAL  # only interaction responses can be ephemeral
        else:
            msg["webhook_id"] = str(self.application_id)
            msg["application_id"] = str(self.application_id)
            msg["interaction_metadata"] = {
                "id": str(interaction.id), "type": interaction.type, "user": interaction.user.to_dict(),
                "authorizing_integration_owners": {"0": str(ch.guild_id or self.guild_id)},
            }
            if interaction.type == 2:
                msg["interaction"] = {"id": str(interaction.id), "type": 2, "name": interaction.name,
                                      "user": interaction.user.to_dict()}
        return msg

    def _mentioned_users(self, content: str) -> list[FakeUser]:
        ids = {int(x) for x in re.findall(r"<@!?(\d+)>", content or "")}
        return [u for u in [self.bot_user, *self.users] if u.id in ids]

    def _apply_edit(self, msg: dict[str, Any], body: dict[str, Any], files: dict[int, tuple[str, bytes, str]], *,
                    mark_edited: bool = True) -> None:
        """PATCH semantics: only the given fields change; a deferred (loading) message is filled in."""
        new = copy.deepcopy(msg)
        if "content" in body:
            new["content"] = body["content"] or ""
            new["mentions"] = [u.to_dict() for u in self._mentioned_users(new["content"])]
        if "embeds" in body:
            new["embeds"] = list(body["embeds"] or [])
        if "components" in body:
            new["components"] = list(body["components"] or [])
        if "attachments" in body or files:
            new["attachments"] = self._resolve_attachments(int(msg["channel_id"]), body, files, msg["attachments"])
        if body.get("flags") is not None:
            keep = new["flags"] & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)
            new["flags"] = keep | (int(body["flags"]) & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2))
        was_loading = bool(new["flags"] & FLAG_LOADING)
        new["flags"] &= ~FLAG_LOADING
        if mark_edited and not was_loading:
            new["edited_timestamp"] = now_iso()
        check_message(new)
        msg.clear()
        msg.update(new)

    async def _store_channel_message(self, ch: FakeChannel, msg: dict[str, Any]) -> None:
        self._messages.setdefault(ch.id, []).append(msg)
        self._where[int(msg["id"])] = ("channel", ch.id)
        ch.last_message_id = int(msg["id"])
        self._notify()
        await self._dispatch_message("MESSAGE_CREATE", msg)

    async def _delete_message(self, msg: dict[str, Any]) -> None:
        mid = int(msg["id"])
        kind, key = self._where.pop(mid)
        if kind == "channel":
            self._messages[key] = [x for x in self._messages[key] if x is not msg]
            data: dict[str, Any] = {"id": str(mid), "channel_id": msg["channel_id"]}
            if key in self.channels:
                data["guild_id"] = str(self.channels[key].guild_id)
            await self._dispatch("MESSAGE_DELETE", data)
        else:
            self._interactions_by_id[key].ephemeral.pop(mid, None)
        self._notify()

    # ------------------------------------------------------------------ test-side actions
    async def post_user_message(self, user: FakeUser, channel: FakeChannel | int | str, content: str,
                                **fields: Any) -> dict[str, Any]:
        """A member writes in a channel: stored, then MESSAGE_CREATE to the bot."""
        ch = self.channel(channel)
        msg = self._build_message(ch, user, {"content": content, **fields}, {})
        await self._store_channel_message(ch, msg)
        return copy.deepcopy(msg)

    async def slash(self, user: FakeUser, channel: FakeChannel | int | str, name: str,
                    options: Mapping[str, Any] | list[dict[str, Any]] | None = None, *,
                    group: str | None = None, subcommand: str | None = None) -> Interaction:
        """Invoke a synced chat-input command as `user` in `channel`.

        `name` may be "cmd", "cmd sub" or "cmd group sub" (or use group=/subcommand=). Options as a
        dict are typed from the synced command's schema (unknown or missing required options raise,
        because real Discord's client would not send them); a list is passed through raw.
        """
        parts = name.split()
        top = parts[0]
        if len(parts) == 3:
            group, subcommand = parts[1], parts[2]
        elif len(parts) == 2:
            subcommand = parts[1]
        cmd = self._find_command(top, self.channel(channel).guild_id)
        schema_opts: list[dict[str, Any]] = cmd.get("options") or []
        path = [top]
        if group:
            g = self._schema_child(schema_opts, group, 2, top)
            schema_opts = g.get("options") or []
            path.append(group)
        if subcommand:
            s = self._schema_child(schema_opts, subcommand, 1, " ".join(path))
            schema_opts = s.get("options") or []
            path.append(subcommand)
        resolved: dict[str, dict[str, Any]] = {}
        leaf = (list(options) if isinstance(options, list)
                else self._typed_options(schema_opts, dict(options or {}), resolved, " ".join(path)))
        if subcommand:
            leaf = [{"name": subcommand, "type": 1, "options": leaf}]
        if group:
            leaf = [{"name": group, "type": 2, "options": leaf}]
        data: dict[str, Any] = {"id": cmd["id"], "name": top, "type": 1, "options": leaf}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return await self._inject(user, channel, 2, data, name=" ".join(path))

    async def autocomplete(self, user: FakeUser, channel: FakeChannel | int | str, name: str,
                           options: Mapping[str, Any], focused: str) -> Interaction:
        """Type 4 interaction with `focused` marking the option being typed; response type 8."""
        parts = name.split()
        cmd = self._find_command(parts[0], self.channel(channel).guild_id)
        schema: list[dict[str, Any]] = cmd.get("options") or []
        wrap: list[tuple[str, int]] = []
        for i, part in enumerate(parts[1:]):
            kind = 2 if len(parts) == 3 and i == 0 else 1
            schema = self._schema_child(schema, part, kind, name).get("options") or []
            wrap.append((part, kind))
        leaf = []
        for key, value in options.items():
            decl = next((o for o in schema if o["name"] == key), None)
            if decl is None:
                raise ValueError(f"/{name} has no option {key!r}")
            opt: dict[str, Any] = {"name": key, "type": decl["type"], "value": value}
            if key == focused:
                opt["focused"] = True
            leaf.append(opt)
        for part, kind in reversed(wrap):
            leaf = [{"name": part, "type": kind, "options": leaf}]
        data: dict[str, Any] = {"id": cmd["id"], "name": parts[0], "type": 1, "options": leaf}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return await self._inject(user, channel, 4, data, name=name)

    async def click(self, user: FakeUser, message: dict[str, Any] | int | str, custom_id: str, *,
                    as_seen: bool = False) -> Interaction:
        """Press a button on a stored message (must exist and be enabled, as in the real client).

        ``as_seen``: press it on ``message`` as the client last drew it (a dict), as a phone that
        has not yet received an edit does: the message must still exist, its buttons may be gone."""
        msg = self._component_target(user, message)
        if as_seen and isinstance(message, dict):
            msg = copy.deepcopy(message)
        match = [b for b in buttons(msg) if b["custom_id"] == custom_id]
        if not match:
            raise ValueError(f"no button {custom_id!r} on message {msg['id']}: {buttons(msg)}")
        if match[0]["disabled"]:
            raise ValueError(f"button {custom_id!r} is disabled; a real user cannot press it")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._inject(user, int(msg["channel_id"]), 3, data, message=msg, name=custom_id)

    async def select(self, user: FakeUser, message: dict[str, Any] | int | str, custom_id: str,
                     values: list[str]) -> Interaction:
        """Choose values in a string select on a stored message (values must be offered options)."""
        msg = self._component_target(user, message)
        match = [s for s in selects(msg) if s["custom_id"] == custom_id]
        if not match:
            raise ValueError(f"no select {custom_id!r} on message {msg['id']}: {selects(msg)}")
        sel = match[0]
        if sel["disabled"]:
            raise ValueError(f"select {custom_id!r} is disabled")
        offered = {o["value"] for o in sel["options"]}
        if sel["type"] == 3 and not set(values) <= offered:
            raise ValueError(f"values {values} not among options {sorted(offered)}")
        if not sel["min_values"] <= len(values) <= sel["max_values"]:
            raise ValueError(f"{len(values)} values outside {sel['min_values']}..{sel['max_values']}")
        data = {"custom_id": custom_id, "component_type": sel["type"], "values": list(values)}
        return await self._inject(user, int(msg["channel_id"]), 3, data, message=msg, name=custom_id)

    async def submit_modal(self, user: FakeUser, channel: FakeChannel | int | str, custom_id: str,
                           values: Mapping[str, str | list[str]], *,
                           message: dict[str, Any] | int | str | None = None) -> Interaction:
        """Submit a modal the bot showed this user (type 9 callback) with input values by custom_id.

        The component layout mirrors the modal the bot sent (action rows or labels); `message` is
        the message whose component opened the modal, if any (Discord attaches it).
        """
        modal = self._modals.get((user.id, custom_id))
        components: list[dict[str, Any]] = []
        given = dict(values)
        if modal is not None:
            for top in modal.get("components") or []:
                if top.get("type") == 1:
                    inner = [self._modal_value(c, given) for c in top.get("components") or []]
                    components.append({"type": 1, "components": [c for c in inner if c]})
                elif top.get("type") == 18 and isinstance(top.get("component"), dict):
                    inner_c = self._modal_value(top["component"], given)
                    if inner_c:
                        components.append({"type": 18, "component": inner_c})
        for key, value in given.items():  # inputs not in a known modal: plain text inputs
            components.append({"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]})
        data = {"custom_id": custom_id, "components": components}
        msg = None
        if message is not None:
            msg = self._component_target(user, message)
        return await self._inject(user, channel, 5, data, message=msg, name=custom_id)

    def _modal_value(self, comp: dict[str, Any], given: dict[str, Any]) -> dict[str, Any] | None:
        cid = comp.get("custom_id")
        if cid is None:
            return None
        value = given.pop(cid, None)
        if comp.get("type") == 4:
            if value is None and comp.get("required", True):
                raise ValueError(f"modal input {cid!r} is required")
            return {"type": 4, "custom_id": cid, "value": value or ""}
        vals = value if isinstance(value, list) else ([] if value is None else [value])
        return {"type": comp.get("type"), "custom_id": cid, "values": vals}

    def modal_shown(self, user: FakeUser, custom_id: str) -> dict[str, Any] | None:
        """The modal (type 9 data) last shown to `user` with this custom_id."""
        return copy.deepcopy(self._modals.get((user.id, custom_id)))

    def expire(self, interaction: Interaction, seconds: float | None = None) -> None:
        """Age an interaction (default: past the 15-minute token lifetime) to test expiry handling."""
        interaction.injected_at -= self.token_lifetime + 1 if seconds is None else seconds

    def _component_target(self, user: FakeUser, message: dict[str, Any] | int | str) -> dict[str, Any]:
        mid = int(message["id"]) if isinstance(message, dict) else int(message)
        live = self._live_message(mid)
        if live is None:
            raise ValueError(f"message {mid} does not exist (deleted?)")
        where = self._where[mid]
        if where[0] == "ephemeral" and self._interactions_by_id[where[1]].user is not user:
            raise ValueError("an ephemeral message is only visible to the user it was shown to")
        return copy.deepcopy(live)

    def _find_command(self, name: str, guild_id: int | None = None) -> dict[str, Any]:
        """A synced command as a member of ``guild_id`` (default: the first guild) sees it:
        that guild's own commands, then the global ones."""
        for scope in (guild_id or self.guild_id, None):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        synced = {s: [c["name"] for c in cmds] for s, cmds in self.commands.items()}
        raise LookupError(f"command /{name} was not synced; synced: {synced}")

    @staticmethod
    def _schema_child(opts: list[dict[str, Any]], name: str, kind: int, where: str) -> dict[str, Any]:
        for o in opts:
            if o["name"] == name and o["type"] == kind:
                return o
        raise LookupError(f"/{where} has no {'group' if kind == 2 else 'subcommand'} {name!r}; "
                          f"has {[o['name'] for o in opts]}")

    def _typed_options(self, schema: list[dict[str, Any]], given: dict[str, Any],
                       resolved: dict[str, dict[str, Any]], where: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        declared = {o["name"]: o for o in schema}
        for key in given:
            if key not in declared:
                raise ValueError(f"/{where} has no option {key!r}; has {list(declared)}")
        for decl in schema:
            if decl["name"] not in given:
                if decl.get("required"):
                    raise ValueError(f"/{where}: option {decl['name']!r} is required")
                continue
            value = given[decl["name"]]
            kind = decl["type"]
            if kind in (6, 9) and isinstance(value, FakeUser):
                resolved.setdefault("users", {})[str(value.id)] = value.to_dict()
                resolved.setdefault("members", {})[str(value.id)] = self._member(value, with_user=False,
                                                                                 permissions=True)
                value = str(value.id)
            elif kind == 7:
                ch = self.channel(value)
                resolved.setdefault("channels", {})[str(ch.id)] = {**ch.to_dict(),
                                                                   "permissions": str(self.permissions_of(self.bot_user))}
                value = str(ch.id)
            elif kind == 4:
                value = int(value)
            elif kind == 10:
                value = float(value)
            elif kind == 5:
                value = bool(value)
            elif kind == 3:
                value = str(value)
            choices = decl.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise ValueError(f"/{where}: {value!r} is not a choice of {decl['name']!r}")
            # Discord's client enforces declared ranges and lengths; pass a raw list to go past them
            low, high = decl.get("min_value"), decl.get("max_value")
            if kind in (4, 10) and ((low is not None and value < low) or (high is not None and value > high)):
                raise ValueError(f"/{where}: {value!r} is outside {decl['name']!r}'s {low}..{high}")
            if kind == 3 and not decl.get("min_length", 0) <= len(value) <= decl.get("max_length", 6000):
                raise ValueError(f"/{where}: {decl['name']!r} has a length outside its declared range")
            out.append({"name": decl["name"], "type": kind, "value": value})
        return out

    async def _inject(self, user: FakeUser, channel: FakeChannel | int | str, itype: int, data: dict[str, Any], *,
                      message: dict[str, Any] | None = None, name: str = "") -> Interaction:
        ch = self.channel(channel)
        gid = ch.guild_id if ch.type != DM else None
        session = await self.wait_until(lambda: (s := self._session_for(gid)) is not None and s.live and s, 5.0,
                                        what="a connected bot to receive the interaction")
        iid = self.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.application_id), "type": itype, "token": token,
            "version": 1, "data": data, "locale": "en-US", "attachment_size_limit": 10 * 1024 * 1024,
            "app_permissions": str(self.app_permissions), "entitlements": [], "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(ch.guild_id or self.guild_id)},
        }
        if ch.type == DM:
            payload["channel"] = ch.to_dict()
            payload["channel_id"] = str(ch.id)
            payload["user"] = user.to_dict()
            payload["context"] = 1
        else:
            payload.update({
                "guild_id": str(ch.guild_id), "guild_locale": "en-US", "channel_id": str(ch.id),
                "channel": {**ch.to_dict(), "permissions": str(self.permissions_of(user))},
                "guild": {"id": str(ch.guild_id), "locale": "en-US", "features": []},
                "member": self._member(user, permissions=True), "context": 0,
            })
        if message is not None:
            payload["message"] = message
        it = Interaction(id=iid, token=token, type=itype, user=user, channel_id=ch.id, payload=payload,
                         name=name, fd=self, shard=session.shard[0] if session.shard else None)
        self._interactions_by_id[iid] = it
        self._interactions_by_token[token] = it
        self.interactions.append(it)
        it.injected_at = time.monotonic()
        await self._send_dispatch(session, "INTERACTION_CREATE", payload)
        if itype != 4:  # autocomplete may be left unanswered without the user seeing a failure
            loop = asyncio.get_running_loop()
            self._timers.append(loop.call_later(self.callback_window + 0.05, self._check_answered, it))
        self._notify()
        return it

    def _check_answered(self, it: Interaction) -> None:
        if it.response is None:
            self._violate("unanswered", f"{it.name!r} got no initial response within {self.callback_window}s "
                                        f"(the user sees 'This interaction failed')", it.id)

    def _violate(self, kind: str, detail: str, iid: int | None = None) -> None:
        log.warning("fake discord violation %s: %s", kind, detail)
        self.violations.append(Violation(kind=kind, detail=detail, interaction_id=iid))
        self._notify()

    # ------------------------------------------------------------------ interaction callbacks & webhooks
    async def _r_callback(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        arrived = time.monotonic()
        it = self._interactions_by_id.get(int(m["iid"]))
        if it is None or it.token != m["token"]:
            return _error(404, 10062, "Unknown interaction")
        body, files = await self._read(request)
        body = body or {}
        if it.response is not None:
            it.rejected_callbacks.append((400, body))
            self._violate("double_ack", f"{it.name!r}: second initial response (type {body.get('type')})", it.id)
            return _error(400, 40060, "Interaction has already been acknowledged.")
        elapsed = arrived - it.injected_at
        if elapsed > self.callback_window:
            it.rejected_callbacks.append((404, body))
            self._violate("late_callback", f"{it.name!r}: initial response after {elapsed:.2f}s "
                                           f"(limit {self.callback_window}s)", it.id)
            return _error(404, 10062, "Unknown interaction")
        rtype = int(body.get("type", 0))
        data = body.get("data") or {}
        valid = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}.get(it.type, {1})
        if rtype not in valid:
            it.rejected_callbacks.append((400, body))
            self._violate("invalid_callback", f"{it.name!r}: response type {rtype} is not valid for interaction "
                                              f"type {it.type}", it.id)
            return _error(400, 50035, "Invalid Form Body", {"errors": {"type": "invalid response type"}})
        # Claim the acknowledgement before any await, so a concurrent second callback sees it.
        it.response = {"type": rtype, "data": data}
        it.responded_at = arrived
        try:
            out = await self._perform_callback(it, rtype, data, files)
        except BaseException:
            it.response = None
            it.responded_at = None
            raise
        it.response_status = 200
        self._notify()
        return out

    async def _perform_callback(self, it: Interaction, rtype: int, data: dict[str, Any],
                                files: dict[int, tuple[str, bytes, str]]) -> web.Response:
        """Side effects of an accepted initial response, and the with_response=1 body."""
        ch = self.channel(it.channel_id)
        inter: dict[str, Any] = {"id": str(it.id), "type": it.type}
        out: dict[str, Any] = {"interaction": inter}
        msg: dict[str, Any] | None = None
        if rtype == 4:
            msg = self._build_message(ch, self.bot_user, data, files, interaction=it)
            check_message(msg)
            await self._commit_new(it, ch, msg)
        elif rtype == 5:
            msg = self._build_message(ch, self.bot_user, {"flags": data.get("flags", 0)}, {}, interaction=it,
                                      extra_flags=FLAG_LOADING)
            await self._commit_new(it, ch, msg)
        elif rtype in (6, 7):
            target_id = int(it.payload["message"]["id"]) if "message" in it.payload else None
            target = self._live_message(target_id) if target_id is not None else None
            if target is None:
                if rtype == 7:
                    raise FormError(50035, "Invalid Form Body", ["no message to update (type 7 needs a message)"])
            else:
                it.original_message_id = target_id
                if rtype == 7:
                    self._apply_edit(target, data, files)
                    if self._where[int(target["id"])][0] == "channel":
                        await self._dispatch_message("MESSAGE_UPDATE", target)
                    msg = target
                inter["response_message_id"] = str(target_id)
        elif rtype == 9:
            if not data.get("custom_id") or not data.get("title") or len(data["title"]) > 45:
                raise FormError(50035, "Invalid Form Body", ["modal needs custom_id and a title of 1..45 chars"])
            if not 1 <= len(data.get("components") or []) <= 5:
                raise FormError(50035, "Invalid Form Body", ["modal needs 1..5 components"])
            it.modal = data
            self._modals[(it.user.id, data["custom_id"])] = data
        if msg is not None:
            inter.update({"response_message_id": msg["id"], "response_message_loading": rtype == 5,
                          "response_message_ephemeral": bool(msg["flags"] & FLAG_EPHEMERAL)})
            out["resource"] = {"type": rtype, "message": copy.deepcopy(msg)}
        return _json(out)

    async def _commit_new(self, it: Interaction, ch: FakeChannel, msg: dict[str, Any]) -> None:
        """Store a message created for an interaction: ephemeral on the record, else in the channel."""
        it.original_message_id = it.original_message_id or int(msg["id"])
        it.message_ids.append(int(msg["id"]))
        if msg["flags"] & FLAG_EPHEMERAL:
            it.ephemeral[int(msg["id"])] = msg
            self._where[int(msg["id"])] = ("ephemeral", it.id)
        else:
            await self._store_channel_message(ch, msg)

    def _webhook_interaction(self, m: re.Match[str]) -> tuple[Interaction | None, web.Response | None]:
        it = self._interactions_by_token.get(m["token"])
        if it is None or int(m["app"]) != self.application_id:
            return None, _error(404, 10015, "Unknown Webhook")
        if time.monotonic() - it.injected_at > self.token_lifetime:
            self._violate("expired_token", f"{it.name!r}: webhook token used after {self.token_lifetime}s", it.id)
            return None, _error(401, 50027, "Invalid Webhook Token")
        if it.response is None:
            self._violate("webhook_before_ack", f"{it.name!r}: followup/original used before an initial response",
                          it.id)
            return None, _error(404, 10015, "Unknown Webhook")
        return it, None

    async def _r_followup(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        it, err = self._webhook_interaction(m)
        if err is not None:
            return err
        assert it is not None
        body, files = await self._read(request)
        body = body or {}
        wait = request.query.get("wait", "false").lower() in ("1", "true")
        original = self._live_message(it.original_message_id) if it.original_message_id else None
        if original is not None and original["flags"] & FLAG_LOADING and it.response_type == 5:
            # Discord: the first followup after a "thinking" defer replaces the loading message.
            self._apply_edit(original, {k: v for k, v in body.items() if k != "flags"}, files)
            it.followup_ids.append(int(original["id"]))
            if self._where[int(original["id"])][0] == "channel":
                await self._dispatch_message("MESSAGE_UPDATE", original)
            self._notify()
            return _json(copy.deepcopy(original)) if wait else _no_content()
        ch = self.channel(it.channel_id)
        msg = self._build_message(ch, self.bot_user, body, files, interaction=it)
        check_message(msg)
        await self._commit_new(it, ch, msg)
        it.followup_ids.append(int(msg["id"]))
        self._notify()
        return _json(copy.deepcopy(msg)) if wait else _no_content()

    async def _r_webhook_message(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        it, err = self._webhook_interaction(m)
        if err is not None:
            return err
        assert it is not None
        target_id = it.original_message_id if m["mid"] == "@original" else int(m["mid"])
        if target_id is None or (target_id != it.original_message_id and target_id not in it.message_ids):
            return _error(404, 10008, "Unknown Message")
        msg = self._live_message(target_id)
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        if request.method == "GET":
            return _json(copy.deepcopy(msg))
        if request.method == "DELETE":
            await self._delete_message(msg)
            return _no_content()
        body, files = await self._read(request)
        self._apply_edit(msg, body or {}, files)
        if target_id == it.original_message_id:
            it.original_edits += 1
        if self._where[target_id][0] == "channel":
            await self._dispatch_message("MESSAGE_UPDATE", msg)
        self._notify()
        return _json(copy.deepcopy(msg))

    # ------------------------------------------------------------------ gateway
    def _current_session(self, shard: int | None = None) -> _Session | None:
        """The most recently identified session ('the bot' as far as Discord is concerned), or
        with ``shard`` the most recent one of that shard."""
        for s in reversed(self._sessions):
            if shard is None or (s.shard[0] if s.shard else 0) == shard:
                return s
        return None

    def _session_for(self, guild_id: int | None) -> _Session | None:
        """The session that receives a guild's events (None: DMs): the newest one identified for
        the guild's shard, (guild_id >> 22) % shard_count, as Discord routes them."""
        for s in reversed(self._sessions):
            if s.covers(guild_id):
                return s
        return None

    def _is_current(self, session: _Session) -> bool:
        """No newer session identified for the same shard (a newer one replaces it)."""
        later = self._sessions[self._sessions.index(session) + 1:]
        mine = session.shard[0] if session.shard else None
        return not any(s.shard is None or mine is None or s.shard[0] == mine for s in later)

    def connected(self, shard: int | None = None) -> bool:
        s = self._current_session(shard)
        return s is not None and s.live

    def shard_sessions(self) -> dict[int, str]:
        """Shard id -> the id of its current gateway session (shard 0 for an unsharded one)."""
        out: dict[int, str] = {}
        for s in self._sessions:
            out[s.shard[0] if s.shard else 0] = s.id
        return out

    def _spawn(self, coro: Awaitable[Any]) -> None:
        """Fire-and-forget from sync test helpers; failures are logged, never swallowed silently."""
        task = asyncio.ensure_future(coro)

        def done(t: asyncio.Future[Any]) -> None:
            if not t.cancelled() and t.exception() is not None:
                log.error("fake discord task failed", exc_info=t.exception())
        task.add_done_callback(done)

    async def _send_raw(self, session: _Session, payload: dict[str, Any]) -> None:
        """Send on the session's socket if it has one (caller holds session.lock)."""
        ws = session.ws
        if ws is None or ws.closed:
            return
        try:
            await ws.send_str(json.dumps(payload))
        except (ConnectionError, RuntimeError) as exc:
            log.info("fake discord: send failed on closed socket: %s", exc)
            return
        self.gateway_log.append((time.monotonic(), "out", payload["op"], payload.get("t")))

    async def _send(self, session: _Session, payload: dict[str, Any]) -> None:
        async with session.lock:
            await self._send_raw(session, payload)

    async def _send_dispatch(self, session: _Session, event: str, data: dict[str, Any]) -> None:
        """Number and send a dispatch; the lock keeps `s` strictly increasing on the wire, and the
        buffer lets a RESUME replay what a dropped socket missed."""
        async with session.lock:
            session.seq += 1
            payload = {"op": 0, "t": event, "s": session.seq, "d": data}
            session.buffer.append(payload)
            if len(session.buffer) > 2000:
                del session.buffer[:1000]
            await self._send_raw(session, payload)

    async def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        gid = data.get("guild_id")
        session = self._session_for(int(gid) if gid else None)
        if session is not None:
            await self._send_dispatch(session, event, data)

    async def _dispatch_message(self, event: str, msg: dict[str, Any]) -> None:
        """MESSAGE_CREATE/UPDATE as the gateway delivers it (guild_id and member added; content
        stripped like real Discord when the bot lacks the message-content intent)."""
        ch = self._find_channel(msg["channel_id"])
        session = self._session_for(ch.guild_id if ch is not None and ch.type != DM else None)
        if session is None or msg["flags"] & FLAG_EPHEMERAL:
            return
        data = copy.deepcopy(msg)
        if ch is not None and ch.type != DM:
            data["guild_id"] = str(ch.guild_id)
            try:
                author = self.user(msg["author"]["id"])
                data["member"] = self._member(author, with_user=False)
            except KeyError:
                pass
            is_bot = msg["author"]["id"] == str(self.bot_user.id)
            mentioned = any(u["id"] == str(self.bot_user.id) for u in msg.get("mentions", []))
            if not (session.intents & INTENT_MESSAGE_CONTENT) and not is_bot and not mentioned:
                data.update(content="", embeds=[], attachments=[], components=[])
        await self._send_dispatch(session, event, data)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True, timeout=2.0)
        await ws.prepare(request)
        bound: _Session | None = None
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                                      "s": None, "t": None}))
        try:
            async for raw in ws:
                if raw.type != WSMsgType.TEXT:
                    if raw.type == WSMsgType.ERROR:
                        break
                    continue
                msg = json.loads(raw.data)
                op = msg.get("op")
                self.gateway_log.append((time.monotonic(), "in", op, None))
                if op == 1:  # heartbeat
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:  # identify
                    bound = await self._identify(ws, msg["d"])
                elif op == 6:  # resume
                    bound = await self._resume(ws, msg["d"])
                elif op == 8 and bound is not None:  # request guild members
                    d = msg["d"]
                    await self._send_dispatch(bound, "GUILD_MEMBERS_CHUNK", {
                        "guild_id": str(d.get("guild_id") or self.guild_id), "members": [self._member(u) for u in
                                                                    [self.bot_user, *self.users]],
                        "chunk_index": 0, "chunk_count": 1, "nonce": d.get("nonce"), "not_found": []})
                self._notify()
        finally:
            if bound is not None and bound.ws is ws:
                bound.ws = None
                bound.closed_at = time.monotonic()
            self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> _Session:
        shard = d.get("shard")
        session = _Session(id=secrets.token_hex(16), intents=int(d.get("intents", 0)), identified_at=time.monotonic(),
                           ws=ws, shard=(int(shard[0]), int(shard[1])) if shard else None)
        self._sessions.append(session)
        self.identifies.append((session.identified_at, session.id))
        mine = [gid for gid in self.guilds if session.covers(gid)]
        ready: dict[str, Any] = {
            "v": 10, "user": self._me(), "guilds": [{"id": str(gid), "unavailable": True} for gid in mine],
            "session_id": session.id, "session_type": "normal", "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0}, "private_channels": [],
            "relationships": [], "presences": [], "guild_join_requests": [], "geo_ordered_rtc_regions": [],
            "user_settings": {}, "auth": {}, "_trace": ["fake-discord"],
        }
        if d.get("shard") is not None:
            ready["shard"] = d["shard"]
        await self._send_dispatch(session, "READY", ready)
        for gid in mine:
            await self._send_dispatch(session, "GUILD_CREATE", self._guild_payload(full=True, guild_id=gid))
        session.guild_create_at = time.monotonic()
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> _Session | None:
        session = next((s for s in self._sessions if s.id == d.get("session_id")), None)
        if session is None or not self._is_current(session):
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return None
        old = session.ws
        session.ws = ws
        session.resumes += 1
        if old is not None and old is not ws and not old.closed:
            await old.close(code=4000)
        last = int(d.get("seq") or 0)
        async with session.lock:
            for payload in [p for p in session.buffer if p["s"] > last]:
                await self._send_raw(session, payload)
        await self._send_dispatch(session, "RESUMED", {"_trace": ["fake-discord"]})
        return session

    async def request_reconnect(self, shard: int | None = None) -> None:
        """Send op 7 (RECONNECT): the client reconnects at once and RESUMEs (tests resume handling)."""
        s = self._current_session(shard)
        if s is not None and s.live:
            await self._send(s, {"op": 7, "d": None, "s": None, "t": None})

    async def drop_connection(self, code: int = 4000, shard: int | None = None) -> None:
        """Close the bot's socket with a resumable code (client backs off ~1 s, then RESUMEs)."""
        s = self._current_session(shard)
        if s is not None and s.ws is not None:
            await s.ws.close(code=code)

    def session_count(self) -> int:
        return len(self._sessions)
