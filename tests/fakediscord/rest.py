"""The fake Discord's REST routes: what the bot asks over HTTP, answered as Discord would.

Every call is recorded (``requests``, ``calls``) and timed; unknown routes are 404 and
remembered, and whatever real Discord would refuse (a late or second answer, an expired token,
an invalid body) is refused and recorded as a violation.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import math
import random
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import unquote

from aiohttp import web

from tests.fakediscord.gateway import Gateway
from tests.fakediscord.models import (
    ATTACH_FILES, DM, EMBED_LINKS, FLAG_EPHEMERAL, FLAG_LOADING, MANAGE_THREADS, READ_MESSAGE_HISTORY, SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS, THREADS, VIEW_CHANNEL, FakeChannel,
    Fault, FaultHit, Interaction, RequestRecord, Violation, now_iso,
)
from tests.fakediscord.validate import FormError, check_message

log = logging.getLogger("fakediscord")

API_PREFIX = "/api/v10"

Handler = Callable[[web.Request, "re.Match[str]"], Awaitable[web.StreamResponse]]


def _json(data: Any, status: int = 200) -> web.Response:
    """JSON with Content-Type exactly application/json: discord.py ignores the body otherwise."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _error(status: int, code: int, message: str, extra: Mapping[str, Any] | None = None) -> web.Response:
    return _json({"code": code, "message": message, **(extra or {})}, status)


def _no_content() -> web.Response:
    return web.Response(status=204)


def _missing_permissions() -> web.Response:
    return _error(403, 50013, "Missing Permissions")


#: what Discord says with each failure a test injects, by (status, code)
FAULT_MESSAGES = {
    (403, 50001): "Missing Access", (403, 50007): "Cannot send messages to this user",
    (403, 50013): "Missing Permissions", (404, 10003): "Unknown Channel", (404, 10008): "Unknown Message",
    (404, 10013): "Unknown User", (404, 10062): "Unknown interaction", (500, 0): "500: Internal Server Error",
    (503, 0): "503: Service Unavailable", (504, 0): "504: Gateway Timeout",
}


def _fault_response(fault: Fault) -> web.Response:
    """Discord's answer for an injected failure, body and headers as the real service sends them."""
    if fault.status == 429:
        after = fault.retry_after if fault.retry_after is not None else 0.5
        scope = "global" if fault.is_global else "user"
        bucket = hashlib.blake2s(fault.path.pattern.encode(), digest_size=16).hexdigest()
        headers = {
            "Content-Type": "application/json", "Via": "1.1 google", "Retry-After": str(math.ceil(after)),
            "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}", "X-RateLimit-Bucket": bucket, "X-RateLimit-Scope": scope,
        }
        if fault.is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {"message": "You are being rate limited.", "retry_after": after, "global": fault.is_global}
        if fault.code:
            body["code"] = fault.code
        return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)
    if fault.status == 502:  # Cloudflare's page, not Discord's JSON
        return web.Response(body=b"<html><head><title>502 Bad Gateway</title></head><body>502 Bad Gateway</body>"
                                 b"</html>", status=502, headers={"Content-Type": "text/html"})
    return _error(fault.status, fault.code, fault.message)


class RestApi(Gateway):
    """The world and its gateway, and the HTTP API the bot calls: routes, records, refusals."""

    def __init__(self, *, callback_window: float, token_lifetime: float, max_concurrency: int,
                 **gateway: Any) -> None:
        super().__init__(**gateway)
        #: how many sessions may identify at once, as GET /gateway/bot says
        self.max_concurrency = max_concurrency
        self.callback_window = callback_window
        self.token_lifetime = token_lifetime
        # records tests assert on
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[str] = []
        self.violations: list[Violation] = []
        self.command_syncs: list[tuple[float, int | None]] = []  # (time, guild id or None)
        #: every REST call the bot made, {method, path, status, json, message_id, files}, in order:
        #: what tests of the whole channel read, and what discord-render draws. Written out as
        #: calls.jsonl + transcript-meta.json on stop when FAKE_DISCORD_CALLS names a folder.
        self.calls: list[dict[str, Any]] = []
        self._bodies: dict[int, tuple[Any, list[str]]] = {}  # id(request) -> what it carried
        #: failures armed by ``fail`` (spent ones are dropped), and every call they failed
        self.faults: list[Fault] = []
        self.fault_hits: list[FaultHit] = []
        self.fault_rng = random.Random(0)
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = self._route_table()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    # -- failures on purpose -------------------------------------------------------------------------
    def fail(self, method: str, path: str, status: int, code: int = 0, *, times: int | None = 1,
             retry_after: float | None = None, probability: float | None = None, is_global: bool = False,
             message: str | None = None) -> Fault:
        """Fail the next ``times`` REST calls (None: all until ``clear_faults``) whose method
        (or "*") and path match, as Discord fails them: ``fail("POST", r"^/channels/\\d+/messages$",
        429, retry_after=0.5)`` answers 429 with Discord's body and rate-limit headers (and a
        ``Via`` header, without which discord.py takes it for a Cloudflare ban); 500 and 502 as
        Discord's servers and Cloudflare do; 403 50007 (DM refused), 404 10008 (unknown
        message), 403 50013 (missing permissions) with Discord's messages. ``path`` is a regex
        searched in the path after /api/v10; ``probability`` (with ``fault_rng``) fails only
        some of the matching calls. The first armed fault that matches answers."""
        fault = Fault(method=method.upper(), path=re.compile(path), status=status, code=code,
                      message=message or FAULT_MESSAGES.get((status, code), f"{status}"), times=times,
                      retry_after=retry_after, probability=probability, is_global=is_global)
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        """Disarm every fault (what they failed stays in ``fault_hits``)."""
        self.faults.clear()

    def _fault_for(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.spent or not fault.matches(method, path):
                continue
            if fault.probability is not None and self.fault_rng.random() >= fault.probability:
                continue
            fault.fired += 1
            if fault.spent:
                self.faults.remove(fault)
            return fault
        return None

    async def _injected_failure(self, request: web.Request, sub: str) -> web.Response | None:
        fault = self._fault_for(request.method, sub)
        if fault is None:
            return None
        try:
            body, _ = await self._read(request)  # drained, and kept for the call log
        except (ValueError, UnicodeDecodeError):
            body = None
        self.fault_hits.append(FaultHit(method=request.method, path=sub, status=fault.status, code=fault.code,
                                        body=body, index=len(self.calls)))
        log.info("fake discord: failing %s %s with %s %s on purpose", request.method, sub, fault.status, fault.code)
        return _fault_response(fault)

    # -- plumbing ------------------------------------------------------------------------------------
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
        body, uploads = self._bodies.pop(id(request), (None, []))
        self.calls.append({
            "method": request.method, "path": path.removeprefix(API_PREFIX), "status": resp.status,
            "json": body, "files": [name for name, _ in uploads], "uploads": uploads,
            "message_id": self._message_id_of(resp),
        })
        if resp.status >= 400 and isinstance(resp, web.Response) and isinstance(resp.body, bytes) \
                and resp.content_type == "application/json":
            rec.code = json.loads(resp.body).get("code")
        rec.done = time.monotonic()
        self._notify()
        return resp

    async def _route(self, request: web.Request, path: str) -> web.StreamResponse:
        if path.startswith(API_PREFIX):
            sub = path[len(API_PREFIX):]
            failed = await self._injected_failure(request, sub) if self.faults else None
            if failed is not None:
                return failed
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
        self._bodies[id(request)] = (payload, [(name, data) for name, data, _ in files.values()])
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

    def _violate(self, kind: str, detail: str, iid: int | None = None) -> None:
        log.warning("fake discord violation %s: %s", kind, detail)
        self.violations.append(Violation(kind=kind, detail=detail, interaction_id=iid))
        self._notify()

    # -- identity and commands -----------------------------------------------------------------------
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

    # -- guilds --------------------------------------------------------------------------------------
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

    # -- channels and messages -----------------------------------------------------------------------
    async def _r_channel(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        ch = self._find_channel(m["cid"])
        if ch is not None and ch.outside and ch.guild_id is not None:  # a server the bot is not in
            return _error(403, 50001, "Missing Access")
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
        if ch.type != DM and ch.guild_id is not None and not self.bot_permissions_in(ch) & VIEW_CHANNEL:
            return _error(403, 50001, "Missing Access")
        if ch.type != DM and ch.guild_id is not None and not self.bot_permissions_in(ch) & READ_MESSAGE_HISTORY:
            return _json([])  # Discord: without Read Message History, no messages are returned
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
        if ch.outside:  # a private chat or a server the bot is not in
            return _error(403, 50001, "Missing Access")
        if ch.type == DM and ch.recipient is not None and ch.recipient.dms_closed:
            return _error(403, 50007, "Cannot send messages to this user")
        ref = (body or {}).get("message_reference")
        refused = self._refused_here(ch, files, reply=bool(ref and ref.get("message_id")), post=True)
        if refused is not None:
            return refused
        if ch.archived:  # a message sent to an archived thread opens it again
            ch.archived = False
            await self._dispatch("THREAD_UPDATE", ch.to_dict())
        msg = self._build_message(ch, self.bot_user, self._as_permitted(ch, body or {}), files)
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

    def _refused_here(self, ch: FakeChannel, files: Mapping[int, Any], *, reply: bool = False, post: bool = False,
                      read: bool = False) -> web.Response | None:
        """403 50013 where the channel denies the bot what the call needs: Send Messages to
        post, Attach Files to upload, Read Message History to reply to or read a message."""
        if ch.type == DM or ch.guild_id is None:
            return None
        have = self.bot_permissions_in(ch)
        if not have & VIEW_CHANNEL:  # a channel the bot may not see: nothing about it is answered
            return _error(403, 50001, "Missing Access")
        if post and ch.locked and not have & MANAGE_THREADS:
            return _error(403, 160005, "Thread is locked")
        # in a thread, posting takes Send Messages in Threads, whatever the channel says of Send Messages
        send = SEND_MESSAGES_IN_THREADS if ch.type in THREADS else SEND_MESSAGES
        if (post and not have & send) or (files and not have & ATTACH_FILES) \
                or ((reply or read) and not have & READ_MESSAGE_HISTORY):
            return _missing_permissions()
        return None

    def _as_permitted(self, ch: FakeChannel, body: dict[str, Any]) -> dict[str, Any]:
        """Without Embed Links, Discord keeps the message and drops its embeds."""
        if ch.type != DM and ch.guild_id is not None and body.get("embeds") \
                and not self.bot_permissions_in(ch) & EMBED_LINKS:
            return {**body, "embeds": []}
        return body

    async def _r_get_message(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        ch = self._find_channel(m["cid"])
        if ch is None:
            return _error(404, 10003, "Unknown Channel")
        if (refused := self._refused_here(ch, {}, read=True)) is not None:
            return refused
        msg = self._channel_message(m["cid"], m["mid"])
        return _json(copy.deepcopy(msg)) if msg else _error(404, 10008, "Unknown Message")

    async def _r_edit_message(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        if self._find_channel(m["cid"]) is None:
            return _error(404, 10003, "Unknown Channel")
        msg = self._channel_message(m["cid"], m["mid"])
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        body, files = await self._read(request)
        if msg["author"]["id"] != str(self.bot_user.id):
            if set(body or {}) - {"flags"}:
                return _error(403, 50005, "Cannot edit a message authored by another user")
        ch = self.channel(m["cid"])
        if ch.outside:
            return _error(403, 50001, "Missing Access")
        refused = self._refused_here(ch, files)
        if refused is not None:
            return refused
        self._apply_edit(msg, self._as_permitted(ch, body or {}), files)
        await self._dispatch_message("MESSAGE_UPDATE", msg)
        return _json(copy.deepcopy(msg))

    async def _r_delete_message(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        if self._find_channel(m["cid"]) is None:
            return _error(404, 10003, "Unknown Channel")
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
        refused = self._refused_here(self.channel(m["cid"]), {}, read=request.method == "PUT")
        if refused is not None:
            return refused
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

    # -- interaction callbacks and webhooks ----------------------------------------------------------
    async def _r_callback(self, request: web.Request, m: re.Match[str]) -> web.StreamResponse:
        arrived = time.monotonic()
        it = self._interactions_by_id.get(int(m["iid"]))
        if it is None or it.token != m["token"]:
            return _error(404, 10062, "Unknown interaction")
        body, files = await self._read(request)
        body = body or {}
        if it.response is not None:
            it.rejected_callbacks.append((400, body))
            if it.redelivered and len(it.rejected_callbacks) <= it.redelivered:
                return _error(400, 40060, "Interaction has already been acknowledged.")
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
        # Discord sends the response back only when asked to
        asked = request.query.get("with_response", "").lower() in ("1", "true")
        it.response_status = 200 if asked else 204
        self._notify()
        return out if asked else web.Response(status=204)

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
            # Discord: the first followup after a "thinking" defer replaces the loading message; it
            # stays as ephemeral as the defer made it, and may become a layout message
            self._apply_edit(original, body, files)
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
