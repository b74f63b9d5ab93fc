"""A seeded fault campaign: the real bot against the fake Discord, every game played by honest
clients while Discord and the store fail under it at random moments.

What fails (each step may arm one, by the seed; a fault waits for the first call it matches; the
kinds come round in a shuffled order, each once before any comes again):
- 429 with ``retry_after`` on a channel's messages, on the interaction webhooks, and global;
- 500 and 502 (Discord's servers, Cloudflare) on a channel's messages and on an interaction's
  first answer, which discord.py tries again; 503 on a channel's messages, which it does not;
- 403 50007 on a DM (the player's DMs refused), 404 10008 on an edit (the message is gone),
  403 50013 on a table's post (missing permissions);
- a permission taken from the bot in a channel for a few steps (Send Messages, Embed Links,
  Attach Files, Read Message History), then given back;
- the gateway dropping (the bot resumes) or asking the bot to reconnect;
- the store failing: another connection holds SQLite's write lock longer than the bot's busy
  timeout, then lets go; on PostgreSQL (``database_url``), the server ends every connection
  the bot holds.

Invariants: every interaction's first answer within 3 seconds, and none deferred and then left
without an answer; nothing Discord would refuse and no unknown route (the fake's violations);
no error or traceback in the bot's log, and no warning but those an injected fault explains
(``EXPECTED_WARNINGS``); every stored game equals the replay of its seed and move log; games
keep ending; whoever a failure concerns is told (a refused DM: the table asks them to press My
hand; a table that could not be posted: the player who acted hears what is missing; a table
opened where the bot lacks a permission: its opener hears which; a move the store could not
take: the player hears it was not saved, as no press is deferred and then left unanswered); and
once the faults stop, every game in play has its table, asks someone, takes their presses and is
played to its end.

    .venv/bin/python -c "import asyncio; from tests.e2e.faults import fault_campaign; \\
        print(asyncio.run(fault_campaign(2000, seed=7)))"     (the campaign)
    tests/e2e/test_faults_e2e.py                                (its small version)

Not covered here: SIGKILL (the kill campaign), and two processes sharing one PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sqlite3
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg

from bot.store.sqlite import BUSY_TIMEOUT
from tests.e2e.channel import finished, is_table, live_table, said, settle, top
from tests.e2e.fuzz import GAMES, Report, Run, controls, replays
from tests.fakediscord import FakeDiscord, FakeUser, Interaction, running_bot, running_fake
from tests.fakediscord.models import CHANNEL_PERMISSIONS, Fault

#: how long another connection holds SQLite's write lock: past the bot's busy timeout, by more
#: than a press takes to reach the database on a busy machine
BUSY_HOLD = BUSY_TIMEOUT + 2.5
#: the chance that a step arms a fault
FAULT_RATE = 0.15
#: what the bot tells a player whose move could not post its table
COULD_NOT_POST = "could not post"
#: refusals of a press on the table's open choices that only say it was another player's to make,
#: or why the rules do not let this player make it
MISTAKES = ("another player's choice, not yours to make", "is not yours to choose: ", "Nothing is asked of you now")

#: warnings an injected fault explains (anything else at WARNING or above is a problem):
#: discord.py waiting out a 429; the deliverer not posting or editing a table (50013, or a 5xx
#: after retries) or not DMing (50007, a 5xx after retries); the store turning a write away
#: (SQLite locked) and the player told so; discord.py timing a heartbeat sent on a socket that then dropped, whose
#: answer came only after the resume; the two lines discord.py logs at every start about voice.
EXPECTED_WARNINGS = [
    re.compile(r"discord\.client: (PyNaCl|davey) is not installed"),
    re.compile(r"discord\.gateway: Can't keep up, shard ID \d+ websocket is [\d.]+s behind"),
    re.compile(r"discord\.(http|webhook\.async_): (We are being rate limited|Webhook ID \d+ is rate limited"
               r"|Global rate limit has been hit)"),
    re.compile(r"bot\.deliver: game \d+: (cannot post its (table|last words)|could not edit its table) in channel "
               r"\d+ \((50013 Missing Permissions|5\d\d from Discord's servers)\)"),
    re.compile(r"bot\.private: DM to user \d+ (refused with code|failed)"),
    re.compile(r"bot\.errors: the store turned interaction \d+ away"),
    re.compile(r"bot\.[\w.]+: .*the store could not take"),
]


def _warnings(lines: list[str]) -> list[str]:
    return [ln for ln in lines if re.search(r" (WARNING|ERROR|CRITICAL) ", ln)
            and not any(p.search(ln) for p in EXPECTED_WARNINGS)]


def hold_write_lock(db: Path, seconds: float, held: threading.Event | None = None) -> None:
    """What another program writing the bot's database does to it: SQLite's write lock held,
    for ``seconds``, from a connection of its own (run it in a thread); ``held`` is set once
    the lock is."""
    conn = sqlite3.connect(db, timeout=30, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        if held is not None:
            held.set()
        time.sleep(seconds)
        conn.execute("ROLLBACK")
    finally:
        conn.close()


class Stored:
    """What the campaign reads of the bot's store, on SQLite (``db``) or PostgreSQL (``url``),
    and what it does to it."""

    def __init__(self, db: Path, url: str | None) -> None:
        self.db, self.url = db, url
        self._conn: asyncpg.Connection | None = None

    async def rows(self, query: str, *args: Any) -> list[tuple[Any, ...]]:
        """A query's rows (``?`` placeholders)."""
        if self.url is None:
            with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=30) as conn:
                return [tuple(r) for r in conn.execute(query, args).fetchall()]
        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(self.url)
        for n in range(1, query.count("?") + 1):
            query = query.replace("?", f"${n}", 1)
        return [tuple(r) for r in await self._conn.fetch(query, *args)]

    async def drop_connections(self) -> int:
        """Every connection the bot holds ended by the server, as an administrator's
        pg_terminate_backend or a failover ends them."""
        rows = await self.rows("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                               " WHERE datname=current_database() AND pid <> pg_backend_pid()")
        return int(rows[0][0])

    async def replays(self) -> tuple[int, list[str]]:
        """fuzz.replays of the games; on PostgreSQL, of a copy of them in a SQLite file."""
        if self.url is None:
            return replays(self.db)
        copy = self.db.with_suffix(".replayed.sqlite3")
        with sqlite3.connect(copy) as conn:
            conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, status TEXT, table_json TEXT)")
            conn.execute("CREATE TABLE actions (game_id INTEGER, version INTEGER, seat INTEGER, user_id INTEGER,"
                         " action TEXT, events TEXT, chapter TEXT)")
            conn.executemany("INSERT INTO games VALUES (?,?,?)", await self.rows("SELECT id, status, table_json FROM games"))
            conn.executemany("INSERT INTO actions VALUES (?,?,?,?,?,?,?)", await self.rows(
                "SELECT game_id, version, seat, user_id, action, events, chapter FROM actions"))
        return replays(copy)

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()


def _text(body: Any) -> str:
    return json.dumps(body or {}, ensure_ascii=False)


class FaultRun(Run):
    """Honest players, and a world that fails under them."""

    def __init__(self, fd: FakeDiscord, players: list[FakeUser], spectator: FakeUser, rng: random.Random,
                 store: Stored, *, busy: int) -> None:
        super().__init__(fd, players, spectator, rng)
        self.store = store
        self.armed: Counter[str] = Counter()
        self.untold: list[str] = []
        self.unfinished: list[str] = []
        self.busy_left = busy
        self.holds: list[asyncio.Task[None]] = []
        #: channel -> (the permission taken, steps until it is given back)
        self.denied: dict[str, tuple[str, int]] = {}
        #: /<game> new interactions, with what the bot lacked in that channel then
        self.openings: list[tuple[Interaction, str, set[str]]] = []
        self.hosts: dict[str, FakeUser] = {}
        #: the fault each kind armed last, until it fires
        self.pending: dict[str, Fault] = {}
        #: the kinds still to come round, in the seed's order: each is armed once before any comes
        #: again, so that a short run sees every kind
        self.deck: list[str] = []
        #: every fault a kind armed; the kinds that acted at once (a permission, the gateway)
        self.faults: list[tuple[str, Fault]] = []
        self.fired: set[str] = set()
        self.offered: set[str] = set()
        fd.fault_rng = random.Random(rng.random())

    # -- the players ---------------------------------------------------------------------------

    async def click(self, who: FakeUser, message: dict[str, Any], custom_id: str, value: str | None,
                    what: str) -> Interaction | None:
        """A press on the message as the player's screen shows it (None: the message is gone)."""
        fd = self.fd
        try:
            if value is None:
                it = await fd.click(who, message, custom_id, as_seen=True)
            else:
                it = await fd.select(who, message, custom_id, [value])
        except ValueError:
            return None  # deleted, or redrawn without that menu, before the player pressed
        await self.answered(it, what)
        return it

    def prompted(self, table: dict[str, Any]) -> list[FakeUser]:
        """The players a table's prompt names (choices made in the open name them all)."""
        prompt = (top(table).splitlines() or [""])[-1].split(": ", 1)[0]
        return [p for p in self.players if p.mention in prompt]

    async def asked(self, game: str) -> tuple[FakeUser, dict[str, Any]] | None:
        """Someone asked, and the message that asks them: the table, else a DM with controls,
        else the private copy My hand gives a player whose DMs are closed."""
        fd = self.fd
        table = live_table(fd, game)
        if table is not None and controls(fd, table):
            asked = self.prompted(table)
            if asked:
                return self.rng.choice(asked), table
        mine = {f":{gid}:" for gid, (cid, _) in (await self.versions()).items() if cid == str(fd.channel(game).id)}
        for player in self.players:  # a DM of this channel's game, not of another
            dms = [m for m in fd.dm_messages(player) if any(g in c for c, _ in controls(fd, m) for g in mine)]
            if dms:
                return player, dms[-1]
        hand = [b["custom_id"] for b in fd.buttons(table or {}) if (b["custom_id"] or "").startswith("bn:hand:")]
        if table is None or not hand:
            return None
        asked = [line for line in said(table).splitlines() if "I could not DM you" in line]  # "…press My hand"
        for player in [p for p in self.players if any(p.mention in line for line in asked)]:
            it = await self.click(player, table, hand[0], None, "My hand")
            self.kinds["My hand"] += 1
            if it is None or it.response_type != 4:
                continue
            copy = it.original()
            if copy and controls(fd, copy):
                return player, copy
        return None

    async def open(self, game: str) -> None:
        """A table opened, joined and started by its players, each press answered in time."""
        fd, host = self.fd, self.players[0]
        self.hosts[game] = host
        denied = {name for name, bit in CHANNEL_PERMISSIONS.items() if fd.channel(game).bot_denied & bit}
        it = await fd.slash(host, game, f"{game} new")
        await self.answered(it, f"/{game} new")
        self.kinds["honest"] += 1
        self.openings.append((it, game, denied))
        await settle(fd, quiet=0.05)

    async def lobby(self, game: str, table: dict[str, Any]) -> bool:
        """Join and start a lobby that is waiting; False when the table is no lobby."""
        labels = {b["label"]: b["custom_id"] for b in self.fd.buttons(table)}
        if "Start" not in labels:
            return False
        seated = said(table)
        for player in self.players[1:]:
            if (player.display or player.name.title()) not in seated:
                await self.click(player, table, labels["Join"], None, "Join")
                self.kinds["honest"] += 1
        await self.click(self.hosts.get(game, self.players[0]), table, labels["Start"], None, "Start")
        self.kinds["honest"] += 1
        await settle(self.fd, quiet=0.05)
        return True

    async def one(self, game: str) -> None:
        """One honest press of a control that asks someone, or a new table where a game ended."""
        fd, rng = self.fd, self.rng
        found = await self.asked(game)
        if found is None:
            table = await self.table_of(game)
            if not await self.in_play(game):
                await self.open(game)
            elif table is None or finished(table):
                await self.status(game)  # still no table of its own (a post retried for long): ask for it
            elif not await self.lobby(game, table):
                await self.status(game)
            return
        who, message = found
        custom_id, value = rng.choice(controls(fd, message))
        self.kinds["honest"] += 1
        await self.click(who, message, custom_id, value, f"honest {custom_id}")

    async def status(self, game: str) -> None:
        """/game status: what a player does when the table asks nobody they can see."""
        it = await self.fd.slash(self.players[0], game, "game status")
        await self.answered(it, "/game status")
        self.kinds["status"] += 1
        await settle(self.fd, quiet=0.1)

    async def table_of(self, game: str) -> dict[str, Any] | None:
        """The channel's live table; while a game is in play, a moment's wait for one of its own
        (between the old table's last line and the new table's post, the channel shows only
        an earlier game's, or none)."""
        def current() -> dict[str, Any] | None:
            table = live_table(self.fd, game)
            return table if table is not None and not finished(table) else None

        table = current()
        if table is None and await self.in_play(game):
            with contextlib.suppress(TimeoutError):
                table = await self.fd.wait_until(current, 3.0, what="a table")
        return table or live_table(self.fd, game)

    async def in_play(self, game: str) -> bool:
        """The store has a game in the channel's lobby or in play."""
        return bool(await self.store.rows("SELECT 1 FROM games WHERE channel_id=? AND status IN ('lobby', 'active')",
                                          self.fd.channel(game).id))

    async def versions(self) -> dict[int, tuple[str, int]]:
        """Each game in play: its channel id and its version."""
        rows = await self.store.rows("SELECT id, channel_id, version FROM games WHERE status IN ('lobby', 'active')")
        return {r[0]: (str(r[1]), r[2]) for r in rows}

    # -- the world failing ---------------------------------------------------------------------

    def _channels(self) -> str:
        return "|".join(str(self.fd.channel(g).id) for g in GAMES)

    def _dms(self) -> str | None:
        ids = [str(ch.id) for p in self.players if not p.dms_closed and (ch := self.fd.dm_channel(p)) is not None]
        return "|".join(ids) or None

    async def inject(self) -> None:
        """Arm one fault, chosen by the seed."""
        fd, rng = self.fd, self.rng
        posts, edits = rf"^/channels/({self._channels()})/messages$", rf"^/channels/({self._channels()})/messages/\d+$"
        webhooks, callbacks = r"^/webhooks/\d+/[^/]+", r"^/interactions/\d+/[^/]+/callback$"
        dms = self._dms()
        menu: list[tuple[str, Callable[[], Awaitable[None] | Fault | None]]] = [
            ("429 on a post", lambda: fd.fail("POST", posts, 429, retry_after=round(rng.uniform(0.1, 0.8), 2))),
            ("429 on an edit", lambda: fd.fail("PATCH", edits, 429, retry_after=round(rng.uniform(0.1, 0.8), 2))),
            ("429 global", lambda: fd.fail("*", r"^/channels/", 429, retry_after=0.3, is_global=True)),
            ("429 on a webhook", lambda: fd.fail("*", webhooks, 429, retry_after=0.3)),
            ("500 on a post", lambda: fd.fail("POST", posts, 500)),
            ("503 on a post", lambda: fd.fail("POST", posts, 503)),
            ("502 on an edit", lambda: fd.fail("PATCH", edits, 502)),
            ("503 on an edit", lambda: fd.fail("PATCH", edits, 503)),
            ("500 on a first answer", lambda: fd.fail("POST", callbacks, 500)),
            ("404 10008 on an edit", lambda: fd.fail("PATCH", edits, 404, 10008)),
            ("403 50013 on a post", lambda: fd.fail("POST", posts, 403, 50013)),
            ("a permission taken", self._deny),
            ("gateway dropped", lambda: fd.drop_connection()),
            ("gateway reconnect", lambda: fd.request_reconnect()),
        ]
        if dms is not None:
            menu.append(("403 50007 on a DM", lambda: fd.fail("POST", rf"^/channels/({dms})/messages$", 403, 50007)))
            menu.append(("500 on a DM", lambda: fd.fail("POST", rf"^/channels/({dms})/messages$", 500)))
        if self.busy_left > 0 and not any(not h.done() for h in self.holds):
            menu.append(("store locked", self._lock_store) if self.store.url is None
                        else ("store connections dropped", self._drop_connections))
        self.offered.update(name for name, _ in menu)
        # one of a kind at a time: two 500s on one first answer would outlast Discord's window
        ready = {name: arm for name, arm in menu if name not in self.pending or self.pending[name].spent}
        if not any(name in ready for name in self.deck):
            self.deck = rng.sample([name for name, _ in menu], len(menu))
        name = next((name for name in self.deck if name in ready), None)
        if name is None:
            return
        self.deck.remove(name)
        self.armed[name] += 1
        done = ready[name]()
        if isinstance(done, Fault):
            self.pending[name] = done
            self.faults.append((name, done))
        else:
            if name != "a permission taken":  # taken by _deny, when a channel has all its permissions
                self.fired.add(name)
            if done is not None:
                await done

    def _deny(self) -> None:
        free = [g for g in GAMES if g not in self.denied]
        if not free:
            return
        game = self.rng.choice(free)
        permission = self.rng.choice(sorted(CHANNEL_PERMISSIONS))
        self.fd.deny(game, permission)
        self.denied[game] = (permission, self.rng.randint(2, 12))
        self.fired.add("a permission taken")

    def _lock_store(self) -> None:
        self.busy_left -= 1
        self.holds.append(asyncio.ensure_future(asyncio.to_thread(hold_write_lock, self.store.db, BUSY_HOLD)))

    def unfired(self) -> set[str]:
        """The kinds offered so far that have not failed anything yet."""
        return self.offered - self.fired - {name for name, fault in self.faults if fault.fired}

    async def _drop_connections(self) -> None:
        self.busy_left -= 1
        await self.store.drop_connections()

    def tick(self) -> None:
        """A step has passed: permissions taken long enough are given back."""
        for game, (permission, left) in list(self.denied.items()):
            if left <= 1:
                self.fd.grant(game, permission)
                del self.denied[game]
            else:
                self.denied[game] = (permission, left - 1)

    async def calm(self) -> None:
        """The faults stop: nothing armed, every permission back, the store free, the bot done
        with its retries."""
        self.fd.clear_faults()
        for game in list(self.denied):
            self.fd.grant(game)
        self.denied.clear()
        if self.holds:
            await asyncio.gather(*self.holds)
        await settle(self.fd, quiet=1.2, timeout=30.0)

    # -- whoever a failure concerns is told ----------------------------------------------------

    async def check_told(self) -> None:
        fd = self.fd
        tables = re.compile(rf"^/channels/({self._channels()})/messages$")
        refused = [(n, c["path"].split("/")[2]) for n, c in enumerate(fd.calls)
                   if c["method"] == "POST" and c["status"] in (403, 503) and tables.match(c["path"])]
        channels = {str(r[0]): str(r[1]) for r in await self.store.rows("SELECT id, channel_id FROM games")}
        self._told_posts(refused, channels)
        for hit in fd.fault_hits:
            if hit.code == 50007:
                self._told_dm(hit.path, hit.body, hit.index)
        for it, game, denied in self.openings:
            if not is_table(it.original() or {}):
                continue  # refused (the channel has a game): no table was opened
            told = " ".join(said(m) for m in [*it.ephemeral_messages, *it.followups] if m["flags"] & 64)
            missing = [p for p in denied if f"**{p}**" not in told]
            if missing:
                self.untold.append(f"/{game} new opened without {missing} and its opener was not told: {told!r}")

    def _told_posts(self, refused: list[tuple[int, str]], channels: dict[str, str]) -> None:
        """Each table that could not be posted (a fault, or a permission taken): the player
        whose press set it off hears why. Refusals and notices are paired in order, channel by
        channel, each notice after its refusal: presses go on while a refused post is retried,
        so which press it was is not known, only that someone was told. ``channels``: each
        game's channel by its id, which its controls carry (a press in a DM is its game's)."""
        fd = self.fd
        notices: dict[str, list[int]] = {}
        for n, call in enumerate(fd.calls):
            if call["method"] == "POST" and call["path"].startswith("/webhooks/") \
                    and COULD_NOT_POST in _text(call["json"]):
                it = fd._interactions_by_token.get(call["path"].split("/")[3])
                if it is None:
                    continue
                pressed = str((it.payload.get("data") or {}).get("custom_id") or "").split(":")  # bn:act:<game>:...
                game = channels.get(pressed[2]) if len(pressed) > 2 else None
                notices.setdefault(game or str(it.channel_id), []).append(n)
        for index, cid in refused:
            waiting = notices.get(cid, [])
            told = next((n for n in waiting if n > index), None)
            if told is None:
                self.untold.append(f"a table post in {cid} was refused (call {index}) and nobody was told")
            else:
                waiting.remove(told)

    def _told_dm(self, path: str, body: Any, index: int) -> None:
        """A DM that asked a choice was refused: the table asks its player to press My hand."""
        fd = self.fd
        if not any(key in _text(body) for key in ('"bn:act:', '"bn:pick:', '"bn:all')):
            return
        cid = int(path.split("/")[2])
        user = next(p for p in self.players if (ch := fd.dm_channel(p)) is not None and ch.id == cid)
        mention = f"<@{user.id}>"
        if not any(mention in _text(c["json"]) and "I could not DM you" in _text(c["json"]) for c in fd.calls[index:]):
            self.untold.append(f"a DM asking {user.name} to choose was refused (call {index}) and the table "
                               "never asked them to press My hand")

    # -- once it is calm ----------------------------------------------------------------------

    async def finish(self, game: str, limit: int | None) -> None:
        """Play the channel's game on, as its players would once nothing fails: a game in play
        must show its table (``/game status`` brings it back) and ask someone. ``limit``: that
        many presses at most, and the game must have moved on by then; None: to its end."""
        if not await self.in_play(game):
            return
        before = {gid: v for gid, (cid, v) in (await self.versions()).items() if cid == str(self.fd.channel(game).id)}
        stalled = 0
        for _ in range(limit if limit is not None else 5000):
            table = await self.table_of(game)
            if not await self.in_play(game):
                return  # over
            if table is not None and await self.lobby(game, table):
                continue
            found = await self.asked(game) if table is not None else None
            if found is None:
                stalled += 1
                if stalled > 2:
                    what = "no table" if table is None else f"a table that asks nobody: {said(table)[:300]!r}"
                    self.unfinished.append(f"{game}: {what}")
                    return
                await self.status(game)
                continue
            stalled = 0
            who, message = found
            custom_id, value = self.rng.choice(controls(self.fd, message))
            # a control on the table's open choices may be one seat's: whoever it names tries it
            others = [p for p in self.prompted(message) if p is not who] if message is table else []
            refused: list[str] = []
            for player in [who, *others]:
                self.kinds["honest"] += 1
                it = await self.click(player, message, custom_id, value, f"honest {custom_id}")
                await settle(self.fd, quiet=0.02)
                data = (it.response or {}).get("data") or {} if it is not None else {}
                if it is None or it.response_type != 4 or not data.get("flags", 0) & 64:
                    break
                refused.append(f"{player.name}: {data.get('content')!r}")
            else:
                # nothing fails any more and nobody else presses: a control the table shows must
                # work for someone it asks (a player may press another's choice: the labels say whose)
                if not all(any(mistake in why for mistake in MISTAKES) for why in refused):
                    self.unfinished.append(f"{game}: a press of {custom_id} was refused to all it asks: {refused}")
        now = await self.versions()
        if limit is None:
            self.unfinished.append(f"{game}: not over after 5000 presses")
        elif any(now.get(gid, ("", v + 1))[1] <= v for gid, v in before.items()):
            self.unfinished.append(f"{game}: {limit} presses moved the game no further")


async def fault_campaign(interactions: int, seed: int, *, finish: int | None = None,
                         store_faults: int | None = None, fault_rate: float = FAULT_RATE,
                         database_url: str | None = None, every_kind: bool = False) -> Report:
    """Play ``interactions`` honest interactions while faults are injected at random, then stop
    the faults, play every game on (to its end, or ``finish`` presses each) and check the
    invariants. ``store_faults``: how many times the store fails (SQLite: the file held locked
    past the busy timeout, which costs that long; PostgreSQL: every connection of the bot
    dropped); by default once every 400 interactions, at least once. ``fault_rate``: the
    chance that a step arms a fault. ``database_url``: the bot keeps its games on that
    PostgreSQL database (empty) instead of a SQLite file. ``every_kind``: play on past
    ``interactions`` (up to four times as many) until every kind of fault has failed something."""
    rng = random.Random(seed)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        store = Stored(Path(tmp) / "faults.sqlite3", database_url)
        async with running_fake(channels=tuple(GAMES)) as fd:
            players = [fd.add_user("ann"), fd.add_user("bob", dms_closed=True), fd.add_user("cy")]
            spectator = fd.add_user("dee")
            env = {"DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "WARNING", "GAME_SEED": str(seed)}
            if database_url is not None:
                env["DATABASE_URL"] = database_url
            async with running_bot(fd, env, store.db) as bot:
                failing = max(1, interactions // 400) if store_faults is None else store_faults
                run = FaultRun(fd, players, spectator, rng, store, busy=failing)
                for game in GAMES:
                    await run.open(game)
                while (played := sum(run.kinds.values())) < interactions or (
                        every_kind and run.unfired() and played < 4 * interactions):
                    if rng.random() < fault_rate:
                        await run.inject()
                    await run.one(rng.choice(GAMES))
                    run.tick()
                    await settle(fd, quiet=0.02)  # a retry may still be waiting: players go on meanwhile
                await run.calm()
                for game in GAMES:
                    await run.finish(game, finish)
                await settle(fd)
                await run.check_told()
                errors = bot.error_records()
                warnings = _warnings(bot.lines)
            violations, unknown = list(fd.violations), list(fd.unknown_routes)
            silent = [f"{it.name!r} by {it.user.name}" for it in fd.interactions
                      if it.response_type in (5, 6) and not it.followup_ids and not it.original_edits]
        try:
            replayed, wrong = await store.replays()
            ended = (await store.rows("SELECT COUNT(*) FROM games WHERE status='finished'"))[0][0]
        finally:
            await store.close()
    kinds = Counter({f"fault: {name}": n for name, n in run.armed.items()})  # the cases: faults armed
    kinds["faults that fired"] = len(fd.fault_hits)
    for name in run.fired | {name for name, fault in run.faults if fault.fired}:
        kinds[f"fired: {name}"] = 1
    problems = {"answered late": run.late, "deferred and never answered": silent,
                "fake Discord violations": violations, "unknown routes": unknown, "bot errors": errors,
                "unexpected warnings": warnings, "stored games unlike their replay": wrong,
                "failures nobody was told of": run.untold, "games not played to their end": run.unfinished}
    return Report(sum(run.kinds.values()), time.perf_counter() - began, kinds, sorted(run.latencies) or [0.0],
                  ended, replayed, problems, sent=Counter(run.kinds), tables=len(GAMES))
