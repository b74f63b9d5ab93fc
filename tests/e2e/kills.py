"""SIGKILL at random moments while every game is played, and clicks while the bot restarts:
nothing a player saw accepted may be lost, and nothing pressed once may count twice.

Honest players play all six games (with some duplicate deliveries and double clicks), and a bot
process is killed now and then: while it is quiet or still delivering, a few milliseconds after
a click reached it, or at the n-th call it makes to Discord while answering one (the fake takes
that call, the bot never hears back), and sometimes again while it starts. It is restarted at
once, and players keep clicking meanwhile: those clicks may fail on Discord's side ("This
interaction failed"), as they would for real; what they must not do is lose or double a move.
On PostgreSQL two processes share the store, one shard each, and either may be killed.

How a move is counted, exactly. Every click's interaction is kept with what the fake saw the bot
answer. The store writes a move, its log entry and the interaction's id (the ledger that refuses
a click applied already) in one transaction stamped with one time, so a log entry is joined to
the interaction that made it by (game, time). A click answered without a move (its moment had
passed) is in the ledger alone: delivered again, it must make none.

- LOST: the player saw the move accepted (the bot answered by redrawing the clicked message:
  the table or their private view, a type 7 answer or a deferred one filled in) but the stored
  game has no log entry from that interaction after the restarts;
- DOUBLED: one interaction with two log entries, a log entry no click made, or both clicks of
  one double click applied (one press counted twice);
- every stored game equals the replay of its seed and log; after the last restart every live
  game has a table that acts when clicked, and every game that ended shows it ended (its table
  offers no moves); and every game still ends.

    .venv/bin/python bench/kills.py --kills 100 --store postgres --processes 2   (at scale)
    tests/e2e/test_kills_e2e.py                                                  (its small version)
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import random
import re
import sqlite3
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
from aiohttp import web

from tests.e2e.channel import actor, button, finished, is_table, live_table, said, settle
from tests.e2e.fuzz import FIRST_ANSWER, GAMES, controls
from tests.e2e.watch import NOT_COUNTED_IN_PLACE
from tests.e2e.processes import BotProcesses, shard_guilds
from tests.e2e.stores import Records, StoreKind, records, replayed, throwaway_postgres
from tests.fakediscord import FakeDiscord, FakeUser, Interaction, shard_of
from tests.fakediscord.models import DM

#: when a kill comes: while the bot is quiet or still delivering a click; a few milliseconds
#: after a click reached it; right after the fake took the n-th call it made answering one;
#: or while a fresh process starts (two kills)
MODES = ("idle", "after_inject", "after_inject", "at_call", "at_call", "at_call", "in_start")
#: a request the bot was sending when it died may reach the fake cut short: what the fake makes
#: of it that soon after a kill is the kill's doing, not the bot's
CUT = 0.5
#: a click is answered within Discord's window, or never (the fake gives up a little later)
ANSWER_WAIT = FIRST_ANSWER + 0.3
#: honest clicks that find nothing to press in a game before its players ask for the table again
STUCK = 3
#: seconds a player gives a restarted bot to show a table again before asking for it
SHOWN = 3.0
#: clicks the end of the run may spend finishing one game: random players keep a Roll the Bones
#: game going for dozens of rounds of some twenty clicks (seed 1284: round 2 to round 32 in 600
#: clicks, every one of them counted), far short of its 200-round cap
FINISH_LIMIT = 4000
#: options that make a game short (a small purse, few rounds, the short board), for a run
#: that must finish every game in little time
SHORT = {"roll-the-bones": {"max_rounds": 2}, "rattlebones": {"board": "compact8"},
         "stones-and-bones": {"starting_purse": "6gp"}}
_GAME_ID = re.compile(r"^bn:[a-z]+:(\d+)")
_MOVE = ("bn:act:", "bn:all:", "bn:pick:", "bn:allpick:")


# -- the bot's processes --------------------------------------------------------------------------


@dataclass
class Kill:
    process: int
    mode: str
    at: float
    #: when the process that replaced it was ready (monotonic, as ``at``)
    back: float = float("inf")


class Processes(BotProcesses):
    """The bot's processes, each replaced at once when killed."""

    def __init__(self, fd: FakeDiscord, count: int, seed: int, db: Path, url: str | None) -> None:
        super().__init__(fd, count, seed, db, url)
        self.kills: list[Kill] = []
        self._reader: asyncpg.Connection | None = None

    def index_of(self, interaction: Interaction) -> int:
        """The process an interaction was delivered to: its shard's."""
        return interaction.shard or 0

    def kill(self, index: int, mode: str) -> None:
        self.live[index].kill()
        self.kills.append(Kill(index, mode, time.monotonic()))

    async def restart(self, index: int, *, die_after: float | None = None) -> None:
        """Reap the killed process and start its successor; ``die_after``: kill that one too,
        this long into its start, and start another."""
        old = self.live[index]
        await old.wait(timeout=15)
        self.dead.append(old)
        bot = self.live[index] = self.spawn(index)
        if die_after is not None:
            await bot.start(wait_ready=False)
            with contextlib.suppress(TimeoutError, RuntimeError):
                await asyncio.wait_for(bot.wait_ready(timeout=60, wait_sync=index == 0), die_after)
            self.kill(index, "in_start")
            await bot.wait(timeout=15)
            self.dead.append(bot)
            bot = self.live[index] = self.spawn(index)
        await bot.start(wait_sync=index == 0, timeout=60)
        assert bot.ready_at is not None
        for kill in self.kills:
            if kill.process == index and kill.back == float("inf"):
                kill.back = bot.ready_at

    async def stop(self) -> None:
        await super().stop()
        if self._reader is not None:
            await self._reader.close()

    def excused(self, interaction: Interaction) -> bool:
        """A click its process died on: it reached the process within Discord's window before
        a kill, or reached a socket already dead, before a successor was ready."""
        index = self.index_of(interaction)
        at = interaction.injected_at
        return any(k.process == index and k.at - self.fd.callback_window - 0.1 <= at <= k.at + CUT and at < k.back
                   for k in self.kills)

    async def live_games(self) -> dict[int, tuple[int, str]]:
        """Channel id -> (game id, status) of every game in its lobby or in play, as stored now."""
        query = "SELECT channel_id, id, status FROM games WHERE status IN ('lobby', 'active')"
        if self.url is None:
            with contextlib.closing(sqlite3.connect(f"{self.db.as_uri()}?mode=ro", uri=True)) as conn:
                rows = conn.execute(query).fetchall()
        else:
            if self._reader is None:
                self._reader = await asyncpg.connect(self.url)
            rows = await self._reader.fetch(query)
        return {int(r[0]): (int(r[1]), str(r[2])) for r in rows}

    def near_kill(self, at: float) -> bool:
        return any(k.at <= at <= k.at + CUT for k in self.kills)


class TrapFake(FakeDiscord):
    """The fake, with a kill that can be armed to fire right after it took the n-th call the
    bot makes from now on: Discord has done what was asked, the bot never hears of it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.trap: tuple[int, Callable[[], object]] | None = None  # (calls still to take, what kills)
        self.trapped = asyncio.Event()

    def arm(self, calls: int, fire: Callable[[], object]) -> None:
        self.trapped.clear()
        self.trap = (calls, fire)

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        response = await super()._rest(request)
        if self.trap is not None and request.path.startswith("/api/"):
            left, fire = self.trap
            if left <= 1:
                self.trap = None
                fire()
                self.trapped.set()
            else:
                self.trap = (left - 1, fire)
        return response


# -- what players did -----------------------------------------------------------------------------


@dataclass
class Press:
    """One click as a player made it, and the interaction Discord made of it (None: no bot was
    connected to take it, and Discord said it failed)."""

    game: str
    user: FakeUser
    custom_id: str
    value: str | None
    kind: str
    it: Interaction | None = None
    #: the two clicks of one double click share a number
    pair: int | None = None

    @property
    def move(self) -> bool:
        return self.custom_id.startswith(_MOVE)


def carry_on() -> None:
    """Stop here when asked to (Ctrl-C in the bench): a cancellation that some wait swallowed on
    its way is still counted on the task, and the processes must not be left running."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError()


def accepted(it: Interaction | None) -> bool:
    """The player saw the click change the message they clicked: the move was shown to them."""
    if it is None or it.response is None:
        return False
    if it.response["type"] == 7:
        return not said(it.response.get("data") or {}).startswith(NOT_COUNTED_IN_PLACE)
    return it.response["type"] == 6 and it.original_edits > 0 \
        and not said(it.original() or {}).startswith(NOT_COUNTED_IN_PLACE)


def game_id_of(message: dict[str, Any]) -> int | None:
    for comp in _components(message.get("components") or []):
        found = _GAME_ID.match(comp.get("custom_id") or "")
        if found:
            return int(found[1])
    return None


def _components(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in items:
        yield comp
        yield from _components(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            yield comp["accessory"]


class Players:
    """Honest players clicking what the bot shows them, every click kept."""

    def __init__(self, fd: TrapFake, procs: Processes, rng: random.Random, players: list[FakeUser], *,
                 short: bool = False) -> None:
        self.fd, self.procs, self.rng, self.players = fd, procs, rng, players
        self.short = short
        self.presses: list[Press] = []
        self.pairs = 0
        #: clicks in a row a game's players made that were not accepted (their DMs may not work:
        #: My hand), and times in a row they found nothing to press in it
        self.failed: Counter[str] = Counter()
        self.stuck: Counter[str] = Counter()
        #: each time the players had to ask for a table again, what the channel showed them
        self.recoveries: list[str] = []

    async def inject(self, game: str, who: FakeUser, message: dict[str, Any], custom_id: str, value: str | None,
                     kind: str, pair: int | None = None) -> Press:
        """The click as the player's phone sends it: on the message as they last saw it."""
        press = Press(game, who, custom_id, value, kind, pair=pair)
        self.presses.append(press)
        try:
            if value is None:
                press.it = await self.fd.click(who, message, custom_id, as_seen=True)
            else:
                data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
                press.it = await self.fd._inject(who, int(message["channel_id"]), 3, data,
                                                 message=copy.deepcopy(message), name=custom_id)
        except (TimeoutError, ValueError):
            pass  # no bot connected within 5 s, or the message is gone: Discord says it failed
        return press

    async def answered(self, *presses: Press) -> None:
        for press in presses:
            if press.it is not None:
                with contextlib.suppress(TimeoutError):
                    await press.it.wait_response(timeout=ANSWER_WAIT)

    async def private_copy(self, game: str, player: FakeUser, table: dict[str, Any]) -> dict[str, Any] | None:
        """My hand: the player's private view, right in the channel."""
        hand = [b["custom_id"] for b in self.fd.buttons(table) if (b["custom_id"] or "").startswith("bn:hand:")]
        if not hand:
            return None
        press = await self.inject(game, player, table, hand[0], None, "hand")
        if press.it is None:
            return None
        try:
            copy_ = await press.it.response_message(timeout=ANSWER_WAIT)
        except (TimeoutError, AssertionError):
            return None
        return copy_ if controls(self.fd, copy_) else None

    async def choose(self, game: str) -> tuple[FakeUser, dict[str, Any], str, str | None] | None:
        """Someone asked in this game, the message that asks them, and the control they press:
        the table, else the newest DM of this game with controls, else My hand."""
        fd, rng = self.fd, self.rng
        table = live_table(fd, game)
        if table is None or finished(table) or not game_id_of(table):
            return None
        if controls(fd, table):
            try:
                who = actor(table, self.players)
            except AssertionError:
                who = rng.choice(self.players)  # choices made in the open
            return (who, table, *rng.choice(controls(fd, table)))
        gid = game_id_of(table)
        text = json.dumps(table)  # those the table names first: it asks them
        players = sorted(rng.sample(self.players, len(self.players)), key=lambda p: f"<@{p.id}>" not in text)
        if not self.failed[game]:  # else their DMs did not work last time
            for player in players:
                dms = [m for m in fd.dm_messages(player) if controls(fd, m) and game_id_of(m) == gid]
                if dms and rng.random() < 0.8:
                    return (player, dms[-1], *rng.choice(controls(fd, dms[-1])))
        for player in players:
            copy_ = await self.private_copy(game, player, table)
            if copy_ is not None:
                return (player, copy_, *rng.choice(controls(fd, copy_)))
        return None

    async def step(self, game: str, kind: str = "honest", *, wait: bool = True, may_open: bool = True,
                   chosen: tuple[FakeUser, dict[str, Any], str, str | None] | None = None) -> list[Press]:
        """One honest click in ``game`` (opening a new game when it ended), sometimes delivered
        twice by Discord or double-clicked."""
        carry_on()
        if chosen is None:
            chosen = await self.choose(game)
        if chosen is None:
            await self.unstick(game, may_open=may_open, recover=kind != "restart")
            return []
        self.stuck[game] = 0
        who, message, custom_id, value = chosen
        roll = self.rng.random()
        twice = kind == "honest" and roll < 0.1
        pair = None
        if twice:
            self.pairs += 1
            pair = self.pairs
        sent = [await self.inject(game, who, message, custom_id, value, "double" if twice else kind, pair)]
        if twice:
            sent.append(await self.inject(game, who, message, custom_id, value, "double", pair))
        if kind == "honest" and 0.1 <= roll < 0.2 and sent[0].it is not None:
            sent[0].kind = "duplicate"
            await self.fd.deliver_again(sent[0].it)
        if wait:
            await self.answered(*sent)
            self.failed[game] = 0 if any(accepted(p.it) for p in sent) else self.failed[game] + 1
            await settle(self.fd, quiet=0.02)
            if live_table(self.fd, game) is None:  # the clicked table became history: the next is drawn
                with contextlib.suppress(TimeoutError):
                    await self.fd.wait_until(lambda: live_table(self.fd, game) is not None, ANSWER_WAIT)
        return sent

    async def unstick(self, game: str, *, may_open: bool = True, recover: bool = True) -> None:
        """Nothing to press: a new game when the last one ended (``may_open``); else, after a
        few tries (``recover``: not while the bot restarts), the table asked for again (/game
        status), as a player would."""
        fd = self.fd
        table = live_table(fd, game)
        if (table is None or finished(table)) and fd.channel(game).id in await self.procs.live_games():
            # a game the channel does not show (yet): a moment later, as a player looks again
            with contextlib.suppress(TimeoutError):
                table = await fd.wait_until(lambda: (t := live_table(fd, game)) and not finished(t) and t, SHOWN)
        if table is None or finished(table):
            if may_open:
                await self.open(game)
                return
        elif _lobby(fd, table):
            await self.fill(game, table)
            return
        self.stuck[game] += recover
        if self.stuck[game] >= STUCK:
            self.recoveries.append(f"{game}: nothing to press in {STUCK} tries; {self.shows(game)}")
            self.stuck[game] = 0
            with contextlib.suppress(TimeoutError):
                await (await fd.slash(self.players[0], game, "game status")).wait_response(timeout=ANSWER_WAIT)
            await settle(fd, quiet=0.05)

    def shows(self, game: str) -> str:
        """What the channel and the players' DMs show of a game, for a report."""
        fd = self.fd
        last = [f"{'table' if is_table(m) else 'line'}{'+controls' if controls(fd, m) else ''}:"
                f" {_said_of(m)[:60]!r}" for m in fd.messages(game)[-2:]]
        dms = {p.name: [_said_of(m)[:60] for m in fd.dm_messages(p)[-1:]] for p in self.players}
        return f"the channel ends with {last}; last DMs {dms}"

    async def open(self, game: str) -> None:
        fd = self.fd
        try:
            options = SHORT.get(game, {}) if self.short else {}
            answer = await (await fd.slash(self.players[0], game, f"{game} new", options)).response_message(
                timeout=ANSWER_WAIT)
        except (TimeoutError, AssertionError):
            return
        if not _lobby(fd, answer):  # refused: a game from before a kill holds the channel
            self.recoveries.append(f"{game}: a new game was refused ({_said_of(answer)[:120]}); {self.shows(game)}")
            with contextlib.suppress(TimeoutError):
                await (await fd.slash(self.players[0], game, "game status")).wait_response(timeout=ANSWER_WAIT)
            await settle(fd, quiet=0.05)
            return
        await self.fill(game, answer)

    async def fill(self, game: str, lobby: dict[str, Any]) -> None:
        """Everyone joins (a refusal when seated already), and the host starts."""
        fd = self.fd
        try:
            for player in self.players[1:]:
                await (await fd.click(player, lobby, button(fd, lobby, "Join"))).wait_response(timeout=ANSWER_WAIT)
            await (await fd.click(self.players[0], lobby, button(fd, lobby, "Start"))).wait_response(
                timeout=ANSWER_WAIT)
        except (TimeoutError, AssertionError, ValueError):
            return
        await settle(fd, quiet=0.05)


def _said_of(message: dict[str, Any]) -> str:
    return said(message).replace("\n", " | ")


def _lobby(fd: FakeDiscord, message: dict[str, Any]) -> bool:
    return any((b["custom_id"] or "").startswith("bn:lobby:") for b in fd.buttons(message))


# -- what the store holds -------------------------------------------------------------------------


@dataclass
class Tally:
    """Every move click against what the store holds."""

    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    moves: int = 0
    accepted: int = 0
    applied: int = 0
    #: applied, but the answer never reached the player (the process died first)
    unseen: int = 0
    #: answered without a move (their moment had passed), and held from making one later
    held: int = 0


def tally(presses: list[Press], records: Records) -> Tally:
    out = Tally()
    written: dict[tuple[int, float], list[tuple[Any, ...]]] = defaultdict(list)
    for row in records.log:
        if row[2] is not None:
            written[(row[0], row[7])].append(row)
    made: set[tuple[int, float]] = set()
    by_id: dict[int, list[Press]] = defaultdict(list)
    for press in presses:
        if press.it is not None:
            by_id[press.it.id].append(press)
    moved: set[int] = set()
    for iid, same in by_id.items():
        press = same[0]
        if not press.move:
            continue
        out.moves += 1
        seen = accepted(press.it)
        out.accepted += seen
        where = records.ledger.get(iid)
        entries = [e for e in written.get(where, []) if e[3] == press.user.id] if where is not None else []
        if where is not None and entries:
            made.add(where)
            moved.add(iid)
            out.applied += 1
            out.unseen += not seen
        elif where is not None:
            out.held += 1  # answered without a move: in the ledger alone
        if seen and not entries:
            out.lost.append(f"{press.user.name}'s {press.kind} click {press.custom_id!r} ({iid}) was shown accepted"
                            f" but {'no move' if where else 'nothing'} of it is stored")
        if len(entries) > 1:
            out.doubled.append(f"interaction {iid} wrote {len(entries)} moves: {[e[1] for e in entries]}")
    for key, rows in written.items():
        if key not in made:
            out.doubled.append(f"game {key[0]}: moves {[r[1] for r in rows]} were made by no click on record")
    pairs: dict[int, list[Press]] = defaultdict(list)
    for press in presses:
        if press.pair is not None and press.it is not None:
            pairs[press.pair].append(press)
    for clicks in pairs.values():
        applied = [p for p in clicks if p.it is not None and p.it.id in moved]
        if len(applied) > 1:
            out.doubled.append(f"one double click of {clicks[0].user.name} on {clicks[0].custom_id!r} counted"
                               f" {len(applied)} times")
    return out


# -- the campaign ---------------------------------------------------------------------------------


@dataclass
class KillReport:
    store: str
    processes: int
    kills: int
    seconds: float
    #: interactions Discord delivered (a duplicate delivery counts once), and clicks that found
    #: no bot to take them
    clicks: int
    undelivered: int
    modes: Counter[str]
    moves: int
    accepted: int
    applied: int
    unseen: int
    held: int
    #: clicks their process died on before answering (they failed on Discord's side)
    cut_short: int
    games_ended: int
    replayed: int
    #: the table in the channel was behind the game when first clicked after the last restart
    tables_behind: int
    #: times players had to ask for the table again (/game status) to go on
    recoveries: int
    latencies: list[float]
    problems: dict[str, list[Any]]

    @property
    def lost(self) -> list[str]:
        return self.problems["moves lost"]

    @property
    def doubled(self) -> list[str]:
        return self.problems["moves doubled"]


class Campaign:
    """The players, the processes, and the kills, by one seed."""

    def __init__(self, fd: TrapFake, procs: Processes, players: Players, rng: random.Random) -> None:
        self.fd, self.procs, self.players, self.rng = fd, procs, players, rng

    def target(self, message: dict[str, Any]) -> int:
        """The process a click on ``message`` reaches: its guild's shard's (DMs: shard 0's)."""
        channel = self.fd.channel(int(message["channel_id"]))
        return shard_of(None if channel.type == DM else channel.guild_id, self.procs.count)

    async def run(self, kills: int, steps: tuple[int, int]) -> None:
        for game in GAMES:
            await self.players.step(game)
        while len(self.procs.kills) < kills:
            carry_on()
            for _ in range(self.rng.randint(*steps)):
                await self.players.step(self.rng.choice(GAMES))
            mode = self.rng.choice(MODES)
            if mode == "in_start" and kills - len(self.procs.kills) < 2:
                mode = "at_call"
            await self.kill(mode)

    async def kill(self, mode: str) -> None:
        """One kill at the moment ``mode`` names, then a restart; the click it cut short is
        sometimes delivered again to the new process, as Discord may retry it."""
        rng, players, procs, fd = self.rng, self.players, self.procs, self.fd
        game = rng.choice(GAMES)
        chosen = await players.choose(game)
        index = self.target(chosen[1]) if chosen is not None else rng.randrange(procs.count)
        sent: list[Press] = []
        if mode == "at_call" and chosen is not None:
            fd.arm(rng.randint(1, 3), lambda: procs.kill(index, mode))
            sent = await players.step(game, wait=False, chosen=chosen)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(fd.trapped.wait(), 0.5)
            if fd.trap is not None:  # the click made fewer calls than that: it is over, kill now
                fd.trap = None
                procs.kill(index, "after_click")
        elif mode == "after_inject" and chosen is not None:
            sent = await players.step(game, wait=False, chosen=chosen)
            await asyncio.sleep(rng.uniform(0, 0.03))
            procs.kill(index, mode)
        else:  # quiet, or still delivering the last click
            if chosen is not None and rng.random() < 0.5:
                sent = await players.step(game, wait=False, chosen=chosen)
            await asyncio.sleep(rng.uniform(0, 0.3))
            procs.kill(index, "idle")
        await self.restart(index, again=mode == "in_start")
        again = [p.it for p in sent if p.it is not None]
        if again and rng.random() < 0.5:
            for it in again:
                await fd.deliver_again(it)
            await settle(fd, quiet=0.05)

    async def restart(self, index: int, *, again: bool) -> None:
        """A fresh process (``again``: killed too while it starts, and another one), and players
        clicking while it starts."""
        rng = self.rng
        task = asyncio.create_task(self.procs.restart(index, die_after=rng.uniform(0.05, 1.5) if again else None))
        try:
            for _ in range(rng.randint(0, 3)):
                await asyncio.sleep(rng.uniform(0, 0.5))
                if task.done():
                    break
                await self.players.step(rng.choice(GAMES), "restart", may_open=False)
        finally:
            await task
        await settle(self.fd, quiet=0.05)

    async def tables_work(self) -> tuple[list[str], int]:
        """After the last restart, every live game's table (or a player's private view of it)
        acts when clicked: games whose did not, and how many were behind the game at first
        (the bot then posts them again, up to date)."""
        broken, behind = [], 0
        live = await self.procs.live_games()
        for game in GAMES:
            if live.get(self.fd.channel(game).id, (0, ""))[1] != "active":
                continue
            tries: list[Press] = []
            for _ in range(8):
                sent = await self.players.step(game, "final", may_open=False)
                tries += sent
                if any(accepted(p.it) for p in sent):
                    break
            else:
                table = live_table(self.fd, game)
                shows = "no table" if table is None else "a lobby" if _lobby(self.fd, table) else "a table"
                broken.append(f"{game}: the channel shows {shows}, and no click acted in {len(tries)} tries "
                              f"({[_said(p.it) for p in tries][:3]})")
            behind += any("fallen behind" in _said(p.it) for p in tries)
        return broken, behind

    async def ends_shown(self) -> list[str]:
        """Every channel whose game ended shows it ended: its newest table offers no moves."""
        wrong = []
        live = await self.procs.live_games()
        for game in GAMES:
            if self.fd.channel(game).id in live:
                continue
            try:
                await self.fd.wait_until(lambda: not controls(self.fd, live_table(self.fd, game) or {}), SHOWN)
            except TimeoutError:
                wrong.append(f"{game}: its game ended, and {self.players.shows(game)}")
        return wrong

    async def finish(self) -> list[str]:
        """Every live game played to its end."""
        unfinished = []
        for game in GAMES:
            for _ in range(FINISH_LIMIT):
                if self.fd.channel(game).id not in await self.procs.live_games():
                    break
                await self.players.step(game, "finish", may_open=False)
            else:
                unfinished.append(f"{game} did not end in {FINISH_LIMIT} clicks; {self.players.shows(game)}")
        for channel_id, (game_id, status) in (await self.procs.live_games()).items():
            unfinished.append(f"game {game_id} is still {status} in {self.fd.channel(channel_id).name}")
        return unfinished


def _said(it: Interaction | None) -> str:
    if it is None or it.response is None:
        return ""
    return json.dumps(it.response.get("data") or {})[:200]


async def kill_campaign(kills: int, seed: int, *, store: StoreKind = "sqlite", processes: int = 1,
                        pg_url: str | None = None, steps: tuple[int, int] = (1, 6),
                        finish: bool = True, short: bool = False) -> KillReport:
    """Play every game while ``kills`` SIGKILLs hit the bot's processes (between ``steps``
    honest clicks each), then check that no move was lost or doubled. ``finish``: play every
    game to its end afterwards; ``short``: games opened with options that make them short."""
    if store == "sqlite" and processes != 1:
        raise ValueError("one process owns a SQLite file")
    if store == "postgres" and pg_url is None:
        async with throwaway_postgres() as url:
            return await kill_campaign(kills, seed, store=store, processes=processes, pg_url=url, steps=steps,
                                       finish=finish, short=short)
    rng = random.Random(seed)
    began = time.perf_counter()
    url = pg_url if store == "postgres" else None
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "kills.sqlite3"
        fd = TrapFake(channels=GAMES if processes == 1 else (), shards=processes)
        await fd.start()
        try:
            if processes > 1:
                per = -(-len(GAMES) // processes)
                shard_guilds(fd, [GAMES[shard * per:(shard + 1) * per] for shard in range(processes)])
            users = [fd.add_user("ann"), fd.add_user("bob", dms_closed=True), fd.add_user("cy")]
            procs = Processes(fd, processes, seed, db, url)
            players = Players(fd, procs, rng, users, short=short)
            run = Campaign(fd, procs, players, rng)
            try:
                await procs.start()
                await run.run(kills, steps)
                await settle(fd)
                broken, behind = await run.tables_work()
                unshown = await run.ends_shown()
                unfinished = await run.finish() if finish else []
                await settle(fd)
                unshown += [found for found in await run.ends_shown() if found not in unshown]
            finally:
                await procs.stop()
            errors = procs.errors()
        finally:
            await fd.stop()
        stored = await records(db, url)
        count, wrong = replayed(stored)
    counted = tally(players.presses, stored)
    delivered = [p.it for p in players.presses if p.it is not None]
    violations, cut = [], 0
    for v in fd.violations:
        it = fd._interactions_by_id.get(v.interaction_id or 0)
        if v.kind in ("unanswered", "late_callback") and it is not None and procs.excused(it):
            cut += 1
        elif not (v.kind in ("fake_error", "invalid_form_body") and procs.near_kill(v.at)):
            violations.append(v)
    problems: dict[str, list[Any]] = {
        "moves lost": counted.lost, "moves doubled": counted.doubled, "stored games unlike their replay": wrong,
        "live games whose table did not act": broken, "ended games whose table still offers moves": unshown,
        "games that did not end": unfinished,
        "tables players had to ask for again": players.recoveries,
        "fake Discord violations": violations, "unknown routes": list(fd.unknown_routes), "bot errors": errors,
    }
    return KillReport(
        store=store, processes=processes, kills=len(procs.kills), seconds=time.perf_counter() - began,
        clicks=len(delivered), undelivered=sum(p.it is None for p in players.presses),
        modes=Counter(k.mode for k in procs.kills), moves=counted.moves, accepted=counted.accepted,
        applied=counted.applied, unseen=counted.unseen, held=counted.held, cut_short=cut,
        games_ended=sum(status == "finished" for status, _ in stored.games.values()), replayed=count,
        tables_behind=behind, recoveries=len(players.recoveries),
        latencies=sorted(it.latency for it in delivered if it.latency is not None) or [0.0], problems=problems)


def describe(report: KillReport, seed: int) -> list[str]:
    """The report as a bench prints it."""
    lat = report.latencies
    modes = ", ".join(f"{mode} {n}" for mode, n in sorted(report.modes.items()))
    return [
        f"{report.kills} kills ({modes}) on {report.store} with {report.processes} process(es), seed {seed},"
        f" in {report.seconds:.0f} s",
        f"{report.clicks} clicks delivered ({report.undelivered} found no bot); {report.moves} moves pressed,"
        f" {report.accepted} shown accepted, {report.applied} applied ({report.unseen} applied unseen),"
        f" {report.held} refused and held; {report.cut_short} clicks cut short by a kill",
        f"lost {len(report.lost)}, doubled {len(report.doubled)}; {report.replayed} stored games replayed,"
        f" {report.games_ended} ended; {report.tables_behind} tables behind after the last restart",
        f"first answer p50 {lat[len(lat) // 2] * 1000:.0f} ms, p99 {lat[int(len(lat) * 0.99)] * 1000:.0f} ms",
        *(f"{name}: {len(found)}" + (f"  e.g. {str(found[0])[:300]}" if found else "")
          for name, found in report.problems.items()),
    ]
