"""Who was shown what: every call the bot made, read once, with the person (or the channel) who
sees it and the words it shows them.

A fuzz run plays several tables at once, each with people of its own, so each call belongs to
one table (its channel, its people's DMs, its people's interactions): a client waits for its own
table to fall quiet, and the secrecy check reads what its own table's people were shown. The
mention rule needs no table: every message the bot sends, creates or edits, must mute mass and
role mentions, whatever its words, since its words may be a player's.

Kept lean for runs of a hundred thousand interactions: a call's uploads and body are dropped once
read, and the fake's old messages and attachments are forgotten (``forget``).
"""

from __future__ import annotations

import copy
import re
import time
from collections.abc import Callable
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.channel import said
from tests.fakediscord import FakeDiscord, FakeUser, Interaction

#: a mention that pings many people: everyone, whoever is online, or a role
MASS = re.compile(r"@everyone|@here|<@&\d+>")
PUBLIC = 0  # the audience of a channel message (any other audience is a user id)
#: seconds Discord gives an interaction's first answer
FIRST_ANSWER = 3.0
#: seconds an acknowledged interaction may take to be answered (it waited for its game)
LATE_ANSWER = 15.0

_CHANNEL = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")
_CALLBACK = re.compile(r"^/interactions/(\d+)/([^/]+)/callback$")
_WEBHOOK = re.compile(r"^/webhooks/\d+/([^/]+)(?:/messages/(@original|\d+))?$")
EPHEMERAL = 1 << 6
LOADING = 1 << 7


def strings(body: dict[str, Any] | None) -> set[str]:
    """Every line of text and every label a message body shows: content, embeds, text
    displays, buttons, menus and their options, pictures' descriptions."""
    out: set[str] = set()
    if not body:
        return out

    def lines(text: Any) -> None:
        if isinstance(text, str):
            out.update(line.strip() for line in text.split("\n") if line.strip())

    lines(body.get("content"))
    for embed in body.get("embeds") or []:
        for key in ("title", "description"):
            lines(embed.get(key))
        for f in embed.get("fields") or []:
            lines(f.get("name"))
            lines(f.get("value"))
        lines((embed.get("footer") or {}).get("text"))
        lines((embed.get("author") or {}).get("name"))
    for attachment in body.get("attachments") or []:
        lines(attachment.get("description"))
    stack = list(body.get("components") or [])
    while stack:
        c = stack.pop()
        if not isinstance(c, dict):
            continue
        lines(c.get("content"))
        lines(c.get("label"))
        lines(c.get("placeholder"))
        lines(c.get("description"))
        for option in c.get("options") or []:
            lines(option.get("label"))
            lines(option.get("description"))
        for item in c.get("items") or []:
            lines(item.get("description"))
        stack += c.get("components") or []
        for key in ("accessory", "component"):
            if isinstance(c.get(key), dict):
                stack.append(c[key])
    return out


def unmuted(body: dict[str, Any]) -> str | None:
    """Why a message body would let a mass or role mention ping, or None. No
    ``allowed_mentions`` at all means Discord's default: everything in the text pings."""
    allowed = body.get("allowed_mentions")
    if not isinstance(allowed, dict):
        return "no allowed_mentions (Discord then pings @everyone and roles written in it)"
    parse = allowed.get("parse") or []
    if "everyone" in parse:
        return f"allowed_mentions parses everyone: {allowed}"
    if "roles" in parse or allowed.get("roles"):
        return f"allowed_mentions lets roles ping: {allowed}"
    return None


def said_in(it: Interaction) -> set[str]:
    out: set[str] = set()
    for message in it.ephemeral.values():
        out |= strings(message)
    return out


SILENT = "silent answers"
CLICK_IN_PUBLIC = "clicks answered with a public message"
REFUSAL = "refusals not private or without a reason"
#: clicks whose answer is a new message for the channel: a rematch's lobby, a roll rolled again
PUBLIC_CLICKS = ("bn:again:", "bn:roll:again:")
#: how a DM copy pressed says, in place, that the press did not count (an older moment
#: redrawn as the game stands, or a game that is over)
NOT_COUNTED_IN_PLACE = ("That moment has passed", "This game is over")


def answer_problem(fd: FakeDiscord, it: Interaction, refuse: bool) -> tuple[str, str] | None:
    """What is wrong with how an interaction was answered (after its step settled), as the
    invariant it breaks and the details; None when nothing is. Nothing is answered by a silent
    acknowledgement, a click is answered in place or privately, and a refusal is private and
    says why."""
    response = it.response
    if response is None:
        return None  # unanswered: told as answered late
    kind, who = response["type"], f"{it.name!r} by {it.user.name}"
    if kind == 6 and not it.followup_ids and not it.original_edits:
        return SILENT, f"{who}: answered by a silent deferred update"
    public_answer = kind == 4 and not int((response.get("data") or {}).get("flags") or 0) & EPHEMERAL
    if public_answer and it.type == 3 and not it.name.startswith(PUBLIC_CLICKS):
        return CLICK_IN_PUBLIC, f"{who}: a click answered with a new message everyone sees"
    if not refuse:
        return None
    if kind == 7 or it.original_edits:
        # a DM copy may say in place that the press did not count: a DM is private already
        in_place = said((response.get("data") or {}) if kind == 7 else it.original() or {})
        if it.payload.get("guild_id") is not None or not in_place.startswith(NOT_COUNTED_IN_PLACE):
            return REFUSAL, f"{who}: a refusal edited the message instead of answering privately"
        return None
    if public_answer or [mid for mid in it.message_ids if fd._where.get(mid, ("ephemeral", 0))[0] != "ephemeral"]:
        return REFUSAL, f"{who}: a refusal posted a message others see"
    reason = " ".join(sorted(said_in(it)))
    if len(reason) < 10:
        return REFUSAL, f"{who}: a refusal without a reason ({reason!r})"
    return None


def newest(fd: FakeDiscord, channel_id: int, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
    """The newest message of a channel that is ``wanted``, copied; the fake's own lookups copy
    every message of a channel, which a long run cannot afford."""
    for message in reversed(fd._messages.get(channel_id, [])):
        if wanted(message):
            return copy.deepcopy(message)
    return None


@dataclass
class Shown:
    """One message (or one version of it) as someone saw it."""

    audience: int  # PUBLIC, or the user id of the only person who sees it
    words: set[str]
    what: str  # method and path, to say where a problem was
    interaction: int | None = None


#: what a call read already leaves in ``fd.calls`` on a lean watch: the count stays right
_READ: dict[str, Any] = {"method": "", "path": "", "status": 0, "json": None, "files": [], "uploads": [],
                         "message_id": None}


@dataclass
class Watch:
    """Reads ``fd.calls`` as they come; each call is read once."""

    fd: FakeDiscord
    #: channel id -> the table it belongs to; user id -> the table their people belong to
    tables_of_channel: dict[int, str] = field(default_factory=dict)
    tables_of_user: dict[int, str] = field(default_factory=dict)
    #: calls per table so far (a client waits until its table's count stops moving)
    activity: Counter[str] = field(default_factory=Counter)
    problems: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    #: drop each call once read (a long run keeps no pictures or bodies)
    lean: bool = True
    calls_read: int = 0
    messages_sent: int = 0
    _pending: dict[str, list[Shown]] = field(default_factory=lambda: defaultdict(list))
    _dm_owner: dict[int, int] = field(default_factory=dict)

    def claim(self, table: str, channel_ids: list[int], users: list[FakeUser]) -> None:
        for cid in channel_ids:
            self.tables_of_channel[cid] = table
        for user in users:
            self.tables_of_user[user.id] = table

    def read(self) -> None:
        """Read every call made since the last read."""
        calls = self.fd.calls
        while self.calls_read < len(calls):
            call = calls[self.calls_read]
            self.calls_read += 1
            try:
                self._read_one(call)
            finally:
                if self.lean:  # read by nobody past this point (a long run makes a million)
                    calls[self.calls_read - 1] = _READ

    def shown(self, table: str) -> list[Shown]:
        """What was shown to the people of ``table`` since the last time this was asked."""
        self.read()
        return self._pending.pop(table, [])

    def count(self, table: str) -> int:
        self.read()
        return self.activity[table]

    # -- one call ---------------------------------------------------------------------------

    def _read_one(self, call: dict[str, Any]) -> None:
        path, body = call["path"], call.get("json")
        if not isinstance(body, dict):
            body = {}
        target = self._target(call["method"], path, body)
        if target is None:
            return
        table, audience, message_body, interaction = target
        if table is not None:
            self.activity[table] += 1
        if message_body is None or call["status"] >= 400:
            return
        self.messages_sent += 1
        why = unmuted(message_body)
        if why is not None:
            self.problems["mass or role mention unmuted"].append(f"{call['method']} {path}: {why}")
        if table is not None and audience is not None:
            self._pending[table].append(Shown(audience, strings(message_body), f"{call['method']} {path}",
                                              interaction))

    def _target(self, method: str, path: str, body: dict[str, Any]
                ) -> tuple[str | None, int | None, dict[str, Any] | None, int | None] | None:
        """(the table, the audience, the message body shown, the interaction) of a call, or
        None for a call that shows nobody anything of a table (commands, gateway, users)."""
        fd = self.fd
        found = _CHANNEL.match(path)
        if found:
            cid = int(found[1])
            owner = self._owner_of_dm(cid)
            table = self.tables_of_user.get(owner) if owner is not None else self.tables_of_channel.get(cid)
            shows = body if method in ("POST", "PATCH") else None
            return table, owner if owner is not None else PUBLIC, shows, None
        found = _CALLBACK.match(path)
        if found:
            it = fd._interactions_by_id.get(int(found[1]))
            if it is None:
                return None
            kind = int(body.get("type") or 0)
            data = body.get("data") if kind in (4, 7) else None
            if kind == 7:
                audience = self._audience_of_message(int((it.payload.get("message") or {}).get("id") or 0), it)
            else:
                audience = it.user.id if (data or {}).get("flags", 0) & EPHEMERAL else self._audience_of_channel(it)
            return self._table_of(it), audience, data if isinstance(data, dict) else None, it.id
        found = _WEBHOOK.match(path)
        if found:
            it = fd._interactions_by_token.get(found[1])
            if it is None:
                return None
            if found[2] is None:  # a followup; the first after a "thinking" defer fills that in
                if int(body.get("flags") or 0) & EPHEMERAL or self._deferred_privately(it):
                    audience = it.user.id
                else:
                    audience = self._audience_of_channel(it)
            else:
                mid = it.original_message_id if found[2] == "@original" else int(found[2])
                audience = self._audience_of_message(mid or 0, it)
            return self._table_of(it), audience, body if method in ("POST", "PATCH") else None, it.id
        return None

    def _table_of(self, it: Interaction) -> str | None:
        return self.tables_of_user.get(it.user.id) or self.tables_of_channel.get(it.channel_id)

    def _owner_of_dm(self, cid: int) -> int | None:
        if cid not in self._dm_owner:
            for uid, ch in self.fd._dm_channels.items():
                self._dm_owner[ch.id] = uid
        return self._dm_owner.get(cid)

    def _audience_of_channel(self, it: Interaction) -> int:
        owner = self._owner_of_dm(it.channel_id)
        return owner if owner is not None else (it.user.id if it.payload.get("guild_id") is None else PUBLIC)

    def _audience_of_message(self, mid: int, it: Interaction) -> int:
        where = self.fd._where.get(mid)
        if where is None:
            return it.user.id  # gone already: count it as the presser's (the strictest guess)
        kind, key = where
        if kind == "ephemeral":
            return self.fd._interactions_by_id[key].user.id
        owner = self._owner_of_dm(key)
        return owner if owner is not None else PUBLIC

    @staticmethod
    def _deferred_privately(it: Interaction) -> bool:
        response = it.response or {}
        return response.get("type") == 5 and bool(int((response.get("data") or {}).get("flags") or 0) & EPHEMERAL)

    # -- keeping a long run lean ---------------------------------------------------------------

    def forget(self, keep: int = 40) -> None:
        """Drop what the fake keeps and no later check reads: the bytes of every upload, all but
        the last ``keep`` messages of each channel (the bot edits only its newest tables and
        copies), and the messages interactions carried."""
        self.read()
        fd = self.fd
        fd._attachments.clear()
        for messages in fd._messages.values():
            if len(messages) > keep:
                for old in messages[:-keep]:
                    fd._where.pop(int(old["id"]), None)
                del messages[:-keep]
        horizon = time.monotonic() - 2 * fd.callback_window
        for it in fd.interactions:
            if it.injected_at < horizon and it.response is not None and "message" in it.payload:
                it.payload["message"] = {"id": it.payload["message"]["id"]}
