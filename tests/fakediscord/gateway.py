"""The fake Discord's gateway: the websocket the bot identifies on, and every event it hears.

Sessions survive a dropped socket until resumed or replaced; events are numbered per session
and buffered so a RESUME replays what was missed; guild events go to the session of the guild's
shard, DMs to shard 0's.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.models import DM, FLAG_EPHEMERAL, FakeChannel, shard_of
from tests.fakediscord.world import World

log = logging.getLogger("fakediscord")

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_MESSAGE_CONTENT = 1 << 15
#: the intents without which Discord sends no message events of servers' channels, or of DMs
INTENT_GUILD_MESSAGES, INTENT_DIRECT_MESSAGES = 1 << 9, 1 << 12


@dataclass(eq=False)
class Session:
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


class Gateway(World):
    """The world, and how the bot hears of it: gateway sessions and dispatches."""

    def __init__(self, *, heartbeat_interval_ms: int, **world: Any) -> None:
        super().__init__(**world)
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.gateway_log: list[tuple[float, str, int, str | None]] = []  # (time, "in"/"out", op, t)
        self.identifies: list[tuple[float, str]] = []  # (time, session id)
        self._sessions: list[Session] = []

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    # -- sessions ------------------------------------------------------------------------------------
    def _current_session(self, shard: int | None = None) -> Session | None:
        """The most recently identified session ('the bot' as far as Discord is concerned), or
        with ``shard`` the most recent one of that shard."""
        for s in reversed(self._sessions):
            if shard is None or (s.shard[0] if s.shard else 0) == shard:
                return s
        return None

    def _session_for(self, guild_id: int | None) -> Session | None:
        """The session that receives a guild's events (None: DMs): the newest one identified for
        the guild's shard, (guild_id >> 22) % shard_count, as Discord routes them."""
        for s in reversed(self._sessions):
            if s.covers(guild_id):
                return s
        return None

    def _is_current(self, session: Session) -> bool:
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

    def session_count(self) -> int:
        return len(self._sessions)

    # -- dispatch ------------------------------------------------------------------------------------
    async def _send_raw(self, session: Session, payload: dict[str, Any]) -> None:
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

    async def _send(self, session: Session, payload: dict[str, Any]) -> None:
        async with session.lock:
            await self._send_raw(session, payload)

    async def _send_dispatch(self, session: Session, event: str, data: dict[str, Any]) -> None:
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
        if ch is not None and ch.outside:  # the bot hears nothing of a channel it is not in
            return
        session = self._session_for(ch.guild_id if ch is not None and ch.type != DM else None)
        if session is None or msg["flags"] & FLAG_EPHEMERAL or not self._hears_messages(session, ch):
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

    @staticmethod
    def _hears_messages(session: Session, ch: FakeChannel | None) -> bool:
        """Whether a session asked for the message events of this channel: a server's with the
        guild-messages intent, a DM's with the direct-messages one."""
        dm = ch is None or ch.type == DM
        return bool(session.intents & (INTENT_DIRECT_MESSAGES if dm else INTENT_GUILD_MESSAGES))

    # -- messages the bot hears of -------------------------------------------------------------------
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
            if key in self.channels and self.channels[key].outside:
                self._notify()
                return
            if key in self.channels:
                data["guild_id"] = str(self.channels[key].guild_id)
            session = self._session_for(self.channels[key].guild_id if key in self.channels else None)
            if session is not None and not self._hears_messages(session, self.channels.get(key)):
                self._notify()
                return
            await self._dispatch("MESSAGE_DELETE", data)
        else:
            self._interactions_by_id[key].ephemeral.pop(mid, None)
        self._notify()

    # -- the websocket -------------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True, timeout=2.0)
        await ws.prepare(request)
        bound: Session | None = None
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

    async def _identify(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> Session:
        shard = d.get("shard")
        session = Session(id=secrets.token_hex(16), intents=int(d.get("intents", 0)), identified_at=time.monotonic(),
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

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> Session | None:
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
