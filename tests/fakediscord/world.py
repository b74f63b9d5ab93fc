"""The world a fake Discord serves: its guilds, channels, members, messages and DMs.

Only state and what follows from it (lookups, the payloads Discord builds from it, messages
built and edited by Discord's rules); how the bot hears of it is the gateway's job
(``gateway.py``), how it asks is the REST routes' (``rest.py``).
"""

from __future__ import annotations

import asyncio
import copy
import re
from collections.abc import Iterable
from typing import Any

from tests.fakediscord.models import (
    ADMINISTRATOR, BASIC_PERMISSIONS, BOT_PERMISSIONS, DM, FLAG_EPHEMERAL, FLAG_LOADING, GROUP_DM, MANAGE_CHANNELS,
    GUILD_TEXT, PUBLIC_THREAD, SEND_MESSAGES, THREADS, FakeChannel, FakeGuild, FakeUser, Interaction, SnowflakeFactory, now_iso,
)
from tests.fakediscord.validate import check_message

FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_COMPONENTS_V2 = 1 << 15


class World:
    """Guilds, channels, members, messages, DMs, the synced commands and the interactions made,
    as Discord keeps them; ``FakeDiscord`` is built on it."""

    def __init__(self, *, guild_name: str, channels: Iterable[str], bot_name: str, shards: int) -> None:
        self.snowflake = SnowflakeFactory()
        #: what GET /gateway/bot recommends: the shard count
        self.recommended_shards = shards
        self.guild_id: int = self.snowflake()
        self.guild_name = guild_name
        #: every guild the bot is in; the first is the default one (``guild_id``)
        self.guilds: dict[int, FakeGuild] = {self.guild_id: FakeGuild(self.guild_id, guild_name)}
        self.application_id: int = self.snowflake()
        self.bot_user = FakeUser(id=self.application_id, name=bot_name, bot=True)
        self.owner = FakeUser(id=self.snowflake(), name="owner")
        self.manager_role_id: int = self.snowflake()
        #: a role with no permissions of its own, for a server to name as its game-masters
        self.gm_role_id: int = self.snowflake()
        self.bot_role_id: int = self.snowflake()
        self.users: list[FakeUser] = []
        self.channels: dict[int, FakeChannel] = {}
        #: channels and threads an admin deleted (``FakeDiscord.delete_channel``)
        self.deleted_channels: dict[int, FakeChannel] = {}
        self.app_permissions: int = BOT_PERMISSIONS
        self.interactions: list[Interaction] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # scope (guild id / None) -> commands
        #: the port the service listens on (0 until it does): attachment URLs name it
        self.port: int = 0

        self._messages: dict[int, list[dict[str, Any]]] = {}  # channel id -> live message dicts
        self._where: dict[int, tuple[str, int]] = {}  # message id -> ("channel", cid) | ("ephemeral", iid)
        self._attachments: dict[int, bytes] = {}
        self._dm_channels: dict[int, FakeChannel] = {}  # user id -> DM channel
        self._interactions_by_id: dict[int, Interaction] = {}
        self._interactions_by_token: dict[str, Interaction] = {}
        self._modals: dict[tuple[int, str], dict[str, Any]] = {}  # (user id, custom_id) -> modal
        self._command_ids: dict[tuple[int | None, str, int], int] = {}  # stable ids across syncs
        self._changed = asyncio.Event()
        for name in channels:
            self.add_channel(name)

    # -- guilds, channels and members ----------------------------------------------------------------
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

    def add_channel(self, name: str, *, bot_forbidden: bool = False, guild: FakeGuild | None = None,
                    kind: int = GUILD_TEXT) -> FakeChannel:
        """A guild text channel (add before the bot connects; GUILD_CREATE carries channels), or
        another ``kind``: an announcement channel, a voice or stage channel (its text chat), a forum."""
        gid = guild.id if guild is not None else self.guild_id
        ch = FakeChannel(id=self.snowflake(), name=name, position=sum(c.guild_id == gid for c in self.channels.values()),
                         guild_id=gid, type=kind, bot_denied=SEND_MESSAGES if bot_forbidden else 0, bot_role_id=self.bot_role_id)
        self.channels[ch.id] = ch
        self._messages[ch.id] = []
        return ch

    def add_thread(self, name: str, parent: FakeChannel | int | str, *, archived: bool = False,
                   kind: int = PUBLIC_THREAD, locked: bool = False) -> FakeChannel:
        """A public thread of a text channel (add before the bot connects: GUILD_CREATE carries
        the active ones), a forum's post, or another ``kind`` of thread (a private one, one of an
        announcement channel); the bot's permissions there are the channel's."""
        under = self.channel(parent)
        ch = FakeChannel(id=self.snowflake(), name=name, type=kind, guild_id=under.guild_id,
                         parent_id=under.id, archived=archived, locked=locked, bot_denied=under.bot_denied,
                         bot_role_id=self.bot_role_id)
        self.channels[ch.id] = ch
        self._messages[ch.id] = []
        return ch

    def add_private_chat(self, name: str, members: Iterable[FakeUser], *, group: bool = False) -> FakeChannel:
        """A DM between users (two members) or a group DM: the bot is not in it, so only a command
        of the app installed to a user's account reaches it, and only through the interaction."""
        people = tuple(members)
        ch = FakeChannel(id=self.snowflake(), name=name, type=GROUP_DM if group else DM, outside=True,
                         members=people)
        self.channels[ch.id] = ch
        self._messages[ch.id] = []
        return ch

    def add_outside_guild(self, name: str, channels: Iterable[str]) -> FakeGuild:
        """A server that never invited the bot, where a user who installed the app uses it."""
        guild = FakeGuild(self.snowflake(), name)
        for channel in channels:
            ch = FakeChannel(id=self.snowflake(), name=channel, guild_id=guild.id, outside=True)
            self.channels[ch.id] = ch
            self._messages[ch.id] = []
        return guild

    def open_dm(self, user: FakeUser) -> FakeChannel:
        """The user's DM with the bot, as opening it from their side does."""
        ch = self._dm_channels.get(user.id)
        if ch is None:
            ch = FakeChannel(id=self.snowflake(), name=f"dm-{user.name}", type=DM, recipient=user)
            self._dm_channels[user.id] = ch
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

    # -- payloads built from the world ---------------------------------------------------------------
    def _roles(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        def role(rid: int, name: str, perms: int, position: int, **extra: Any) -> dict[str, Any]:
            return {"id": str(rid), "name": name, "permissions": str(perms), "position": position, "color": 0,
                    "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                    "hoist": False, "managed": False, "mentionable": False, "icon": None, "unicode_emoji": None,
                    "flags": 0, **extra}
        return [
            role(guild_id or self.guild_id, "@everyone", BASIC_PERMISSIONS, 0),
            role(self.manager_role_id, "Game Managers", MANAGE_CHANNELS, 1),
            role(self.gm_role_id, "Game Masters", 0, 3),
            role(self.bot_role_id, self.bot_user.name, self.app_permissions, 2, managed=True,
                 tags={"bot_id": str(self.bot_user.id)}),
        ]

    def _role_ids(self, user: FakeUser) -> list[str]:
        if user.bot:
            return [str(self.bot_role_id)]
        return ([str(self.manager_role_id)] if user.manager else []) + ([str(self.gm_role_id)] if user.gm else [])

    def permissions_of(self, user: FakeUser) -> int:
        """What `member.permissions` says in an interaction (no channel overwrites in the fake)."""
        if user.bot:
            return BASIC_PERMISSIONS | self.app_permissions
        perms = BASIC_PERMISSIONS | (MANAGE_CHANNELS if user.manager else 0)
        if user.admin or user is self.owner:
            perms |= ADMINISTRATOR | MANAGE_CHANNELS
        return perms

    def bot_permissions_in(self, channel: FakeChannel | int | str) -> int:
        """The bot's permissions in a channel: its role's, less what the channel denies it (what
        an interaction there carries as ``app_permissions``)."""
        return self.app_permissions & ~self.channel(channel).bot_denied

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
                "channels": [ch.to_dict() for ch in self.channels.values()
                             if ch.guild_id == guild.id and ch.type not in THREADS],
                "threads": [ch.to_dict() for ch in self.channels.values()
                            if ch.guild_id == guild.id and ch.type in THREADS and not ch.archived],
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

    # -- change notification -------------------------------------------------------------------------
    def _notify(self) -> None:
        """Wake every waiter; waiters re-check their predicate (cheap, and never misses a change)."""
        self._changed.set()
        self._changed = asyncio.Event()

    # -- messages ------------------------------------------------------------------------------------
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

    def _find_channel(self, cid: str | int) -> FakeChannel | None:
        try:
            return self.channel(int(cid))
        except KeyError:
            return None

    def _channel_message(self, cid: str, mid: str) -> dict[str, Any] | None:
        where = self._where.get(int(mid))
        if where != ("channel", int(cid)):
            return None
        return self._live_message(int(mid))

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
