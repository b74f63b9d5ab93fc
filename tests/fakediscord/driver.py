"""A fake Discord (REST + gateway) on 127.0.0.1 for end-to-end tests of the real bot process.

The unchanged discord.py client talks to it over HTTP and a websocket, so the bot under test runs
exactly the code it runs in production. The fake is deliberately strict where real Discord is
strict (the 3-second callback window, double acknowledgements, 15-minute webhook tokens, message
limits, closed DMs) and records every request, so tests can assert that nothing the bot did would
fail against the real service: `fd.violations == []` and `fd.unknown_routes == []`.

One object by four jobs, each in its module and each built on the one before: the world's state
(``world.py``), the gateway the bot hears it on (``gateway.py``), the REST routes it calls
(``rest.py``), and here what tests drive: starting and stopping the service, players' actions
(slash commands, clicks, selects, modals, messages), waiting and reading what the bot did. The
parts reach each other through ``self``, so a test may subclass ``FakeDiscord`` to slow one route
down, or wrap ``_dispatch_message`` to record every version of a message the bot hears of.

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
from typing import Any

from aiohttp import web

from tests.fakediscord.gateway import INTENT_GUILD_MEMBERS
from tests.fakediscord.models import (
    ATTACH_FILES, CHANNEL_PERMISSIONS, DM, EMBED_LINKS, GUILD_INSTALL, IN_BOT_DM, IN_GUILD, IN_PRIVATE_CHANNEL,
    MORE_CHANNEL_PERMISSIONS, THREADS, USE_EXTERNAL_EMOJIS, USER_INSTALL, VIEW_CHANNEL, FakeChannel, FakeGuild, FakeUser, Interaction, buttons, selects,
)
from tests.fakediscord.rest import RestApi

log = logging.getLogger("fakediscord")


class FakeDiscord(RestApi):
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
        super().__init__(guild_name=guild_name, channels=channels, bot_name=bot_name, shards=shards,
                         heartbeat_interval_ms=heartbeat_interval_ms, callback_window=callback_window,
                         token_lifetime=token_lifetime, max_concurrency=max_concurrency)
        self._timers: list[asyncio.TimerHandle] = []
        self._runner: web.AppRunner | None = None
        self.calls_dir: str | None = os.environ.get("FAKE_DISCORD_CALLS") or None

    # -- lifecycle -----------------------------------------------------------------------------------
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
            for number, call in enumerate(self.calls, start=1):
                out.write(json.dumps({k: call[k] for k in ("method", "path", "status", "json")}) + "\n")
                for name, data in call.get("uploads") or ():  # the pictures, so a render shows them
                    os.makedirs(os.path.join(folder, "attachments"), exist_ok=True)
                    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)
                    with open(os.path.join(folder, "attachments", f"{number:05d}-{safe}"), "wb") as f:
                        f.write(data)
        # the channel the game was played in: the one with the most messages
        main = max((c for c in [*self.channels.values(), *self.deleted_channels.values()] if c.type != DM),
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

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -- world building ------------------------------------------------------------------------------
    def add_user(self, name: str, *, dms_closed: bool = False, manager: bool = False,
                 admin: bool = False, display: str | None = None, gm: bool = False) -> FakeUser:
        """A guild member. Add users before the bot connects (GUILD_CREATE lists them all);
        later additions reach the bot only as GUILD_MEMBER_ADD and only with the members intent."""
        user = FakeUser(id=self.snowflake(), name=name, dms_closed=dms_closed, manager=manager, admin=admin,
                        display=display, gm=gm)
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

    def deny(self, channel: FakeChannel | int | str, *permissions: str) -> None:
        """An admin takes permissions away from the bot in a channel, by the names Discord's
        settings show ("Send Messages", "Embed Links", "Attach Files", "Read Message History",
        "View Channel", "Send Messages in Threads"):
        the channel's overwrite changes (CHANNEL_UPDATE) and interactions there carry the
        reduced ``app_permissions`` from now on."""
        ch = self.channel(channel)
        ch.bot_denied |= self._permission_bits(permissions)
        self._channel_changed(ch)

    def grant(self, channel: FakeChannel | int | str, *permissions: str) -> None:
        """Give back what ``deny`` took (all of it when no name is given)."""
        ch = self.channel(channel)
        ch.bot_denied &= ~self._permission_bits(permissions) if permissions else 0
        self._channel_changed(ch)

    def delete_channel(self, channel: FakeChannel | int | str) -> None:
        """An admin deletes a channel (its threads go with it) or a thread: its messages are gone,
        every call about it answers 404 10003 Unknown Channel, and the bot hears CHANNEL_DELETE
        (a channel's threads go without an event of their own) or THREAD_DELETE."""
        ch = self.channel(channel)
        gone = [ch, *(t for t in self.channels.values() if t.parent_id == ch.id)]
        for each in gone:
            self.deleted_channels[each.id] = self.channels.pop(each.id)
            for msg in self._messages.get(each.id, []):  # kept only for the transcript
                self._where.pop(int(msg["id"]), None)
        if ch.type in THREADS:
            data = {"id": str(ch.id), "guild_id": str(ch.guild_id), "parent_id": str(ch.parent_id), "type": ch.type}
            self._spawn(self._dispatch("THREAD_DELETE", data))
        else:
            self._spawn(self._dispatch("CHANNEL_DELETE", ch.to_dict()))
        self._notify()

    def archive_thread(self, thread: FakeChannel | int | str, archived: bool = True) -> None:
        """A thread archived (or opened again): it stays, and the bot hears THREAD_UPDATE. A
        message the bot sends there opens it again, as Discord does."""
        ch = self.channel(thread)
        ch.archived = archived
        self._spawn(self._dispatch("THREAD_UPDATE", ch.to_dict()))

    def lock_thread(self, thread: FakeChannel | int | str, locked: bool = True) -> None:
        """A moderator locks a thread (or unlocks it): only someone with Manage Threads may post
        in it now, and the bot hears THREAD_UPDATE."""
        ch = self.channel(thread)
        ch.locked = locked
        self._spawn(self._dispatch("THREAD_UPDATE", ch.to_dict()))

    def remove_bot(self, guild: FakeGuild) -> None:
        """The server removes the bot (kicked, or the server deleted): the bot hears GUILD_DELETE,
        and its channels answer the bot as a server's it is not in does (403 50001 Missing
        Access)."""
        del self.guilds[guild.id]
        for ch in self.channels.values():
            if ch.guild_id == guild.id:
                ch.outside = True
        session = self._session_for(guild.id)
        if session is not None:
            self._spawn(self._send_dispatch(session, "GUILD_DELETE", {"id": str(guild.id)}))

    @staticmethod
    def _permission_bits(names: Iterable[str]) -> int:
        bits = 0
        for name in names:
            known = CHANNEL_PERMISSIONS | MORE_CHANNEL_PERMISSIONS
            if name not in known:
                raise ValueError(f"{name!r} is none of {sorted(known)}")
            bits |= known[name]
        return bits

    def _channel_changed(self, ch: FakeChannel) -> None:
        if ch.guild_id is not None and not ch.outside:
            self._spawn(self._dispatch("CHANNEL_UPDATE", ch.to_dict()))

    def _spawn(self, coro: Awaitable[Any]) -> None:
        """Fire-and-forget from sync test helpers; failures are logged, never swallowed silently."""
        task = asyncio.ensure_future(coro)

        def done(t: asyncio.Future[Any]) -> None:
            if not t.cancelled() and t.exception() is not None:
                log.error("fake discord task failed", exc_info=t.exception())
        task.add_done_callback(done)

    # -- waiting -------------------------------------------------------------------------------------
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
            chans = [cid] if cid is not None else [c for c in self._messages if c not in self.deleted_channels]
            for c in chans:
                for m in self._messages.get(c, []):
                    if after is not None and int(m["id"]) <= after:
                        continue
                    if predicate is None or predicate(m):
                        return copy.deepcopy(m)
            return None
        return await self.wait_until(find, timeout, what="a matching message")

    # -- reading what the bot did --------------------------------------------------------------------
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

    # -- players' actions ----------------------------------------------------------------------------
    async def post_user_message(self, user: FakeUser, channel: FakeChannel | int | str, content: str,
                                **fields: Any) -> dict[str, Any]:
        """A member writes in a channel: stored, then MESSAGE_CREATE to the bot, if it asked for them."""
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
        cmd = self._command_here(top, channel)
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
        cmd = self._command_here(parts[0], channel)
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

    async def forge(self, user: FakeUser, message: dict[str, Any] | int | str, custom_id: str, *,
                    values: list[str] | None = None, carried: bool = False) -> Interaction:
        """A component interaction a modified client sends: any id (and select values) on a
        message, whether or not the message offers it. ``carried``: the message the bot is
        shown carries that component too, so the bot's own lookup of it succeeds and only its
        later checks stand between the click and the game."""
        msg = self._component_target(user, message)
        if carried:
            msg = copy.deepcopy(msg)
            item: dict[str, Any] = ({"type": 2, "style": 1, "label": "x", "custom_id": custom_id} if values is None
                                    else {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "0"}]})
            msg["components"] = [*msg.get("components", []), {"type": 1, "components": [item]}]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = list(values)
        return await self._inject(user, int(msg["channel_id"]), 3, data, message=msg, name=custom_id[:40])

    async def forge_command(self, user: FakeUser, channel: FakeChannel | int | str, name: str) -> Interaction:
        """A slash command the bot never synced (a client whose command list is stale)."""
        data = {"id": str(self.snowflake()), "name": name, "type": 1, "options": []}
        return await self._inject(user, channel, 2, data, name=name)

    async def deliver_again(self, it: Interaction) -> None:
        """Discord delivering the same interaction a second time (same id and token)."""
        session = self._session_for(int(it.payload["guild_id"]) if "guild_id" in it.payload else None)
        assert session is not None
        it.redelivered += 1
        await self._send_dispatch(session, "INTERACTION_CREATE", it.payload)

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

    def _command_here(self, name: str, channel: FakeChannel | int | str) -> dict[str, Any]:
        """A command as Discord's client offers it in ``channel``. In a server the bot is in: that
        server's commands, then the global ones. Anywhere else (a DM with the bot, a private chat,
        a server that never invited it) only global commands exist, and only those whose contexts
        include that one; where the bot is not, only those installable to a user's account."""
        ch = self.channel(channel)
        context = self._context_of(ch)
        if context == IN_GUILD and not ch.outside:
            return self._find_command(name, ch.guild_id)
        for cmd in self.commands.get(None, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                contexts = cmd.get("contexts") or [IN_GUILD, IN_BOT_DM, IN_PRIVATE_CHANNEL]
                installs = cmd.get("integration_types") or [GUILD_INSTALL]
                if context not in contexts or (ch.outside and USER_INSTALL not in installs):
                    raise LookupError(f"/{name} is not offered in {ch.name}: contexts {contexts}, installs {installs}")
                return cmd
        raise LookupError(f"/{name} is not a global command, so it is not offered in {ch.name}")

    @staticmethod
    def _context_of(ch: FakeChannel) -> int:
        if ch.guild_id is not None:
            return IN_GUILD
        return IN_PRIVATE_CHANNEL if ch.outside else IN_BOT_DM

    def _outside_payload(self, user: FakeUser, ch: FakeChannel) -> dict[str, Any]:
        """What an interaction carries where the bot is not: the app was installed by the user, and
        the bot may answer but not post (its permissions there are an interaction's, not a member's)."""
        payload: dict[str, Any] = {
            "channel_id": str(ch.id), "context": self._context_of(ch),
            "authorizing_integration_owners": {str(USER_INSTALL): str(user.id)},
            "app_permissions": str(VIEW_CHANNEL | EMBED_LINKS | ATTACH_FILES | USE_EXTERNAL_EMOJIS),
        }
        if ch.guild_id is None:
            payload.update({"channel": ch.to_dict(), "user": user.to_dict()})
        else:
            payload.update({"guild_id": str(ch.guild_id), "guild_locale": "en-US",
                            "channel": {**ch.to_dict(), "permissions": str(self.permissions_of(user))},
                            "guild": {"id": str(ch.guild_id), "locale": "en-US", "features": []},
                            "member": self._member(user, permissions=True)})
        return payload

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
            elif kind == 8:
                role = next(r for r in self._roles() if r["id"] == str(value))
                resolved.setdefault("roles", {})[role["id"]] = role
                value = role["id"]
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
        gid = ch.guild_id if ch.type != DM and not ch.outside else None
        session = await self.wait_until(lambda: (s := self._session_for(gid)) is not None and s.live and s, 5.0,
                                        what="a connected bot to receive the interaction")
        iid = self.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.application_id), "type": itype, "token": token,
            "version": 1, "data": data, "locale": "en-US", "attachment_size_limit": 10 * 1024 * 1024,
            # a channel the bot may not post in lacks Send Messages in the bot's permissions there
            "app_permissions": str(self.bot_permissions_in(ch)),
            "entitlements": [], "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(ch.guild_id or self.guild_id)},
        }
        if ch.outside:
            payload.update(self._outside_payload(user, ch))
        elif ch.type == DM:
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
