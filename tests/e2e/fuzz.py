"""A seeded fuzz run: the real bot against the fake Discord, every game played by honest and
dishonest clients at once, with the invariants checked after every case and at the end.

Tables play at the same time, several per game (``tables_per_game``), each in a channel of its
own with people of its own (a host, a player whose DMs are closed, others, one who sometimes
joins and leaves mid-game, and a spectator), so what one table's people were shown is theirs
alone and can be held to that table's secrets. Each table's client draws its cases from its own
seeded generator, so a table plays the same cases on every run, as far as the interleaving of
tables lets the bot answer alike.

What the clients do (each case draws one, by the seed):
- honest: whoever a table, a DM or a My hand copy asks presses one of its controls;
- forged: a control id edited by a modified client (another game, a random or stale stamp, an
  index out of range, garbage, 100 characters, select values never offered);
- wrong person: a spectator or another player presses someone's control on the table;
- private view of another: a player or the spectator presses a control of someone else's DM
  copy or My hand copy;
- someone who left: a player who left the game presses its controls and My hand;
- not the host: host-only controls and commands (Start, Cancel, Add AI, End, pause, resume,
  the timer, seats) by someone else;
- duplicate: Discord delivers the same interaction twice;
- double click: the same control pressed twice at once;
- simultaneous: every seat asked presses its own control at the same instant (or, where one
  seat is asked, everyone presses the table at once).

Beside the tables, in channels of their own: the dice tools, rolled in the open, in private and
in secret, with a stranger at their buttons (tests/e2e/dice_clients.py); and, when asked, a
client that sends every slash option at and past its limits, laced with mentions, markdown and
control characters (tests/e2e/inputs.py).

Invariants, after every case (tests/e2e/watch.py and secrecy.py do the reading):
- every interaction gets its first answer within 3 seconds;
- no request Discord would refuse, no unknown route, no error or traceback in the bot's log;
- the game's stored state equals the replay of its seed and its move log (each move as it is
  made, and every stored game at the end): nothing lost, nothing doubled;
- no channel message, and no DM or reply shown to another person, shows a line of a seat's
  hidden hand or sealed choice, pictures' descriptions and buttons included; and no move's
  events tell apart worlds the channel cannot see;
- no message the bot sends, creates or edits, lets @everyone, @here or a role ping;
- a case that must be refused is answered privately with its reason: never a public message,
  never an edit of the table, never a silent acknowledgement, and the game does not change;
  no interaction at all is answered by a silent acknowledgement, and no click by a new public
  message (but a rematch's lobby and a roll rolled again);
- a private or secret roll reaches nobody but its roller (and its game-master) until revealed;
- an option past its limits is refused and changes nothing; typed mentions and markdown are
  shown as text;
- games keep ending: a table where nobody is asked and no game is over counts as stuck.

The bot keeps its games in a SQLite file, or in PostgreSQL shared by one bot process a shard
(the tables split over a guild per shard, so every process serves clicks); the checks read the
store either way (tests/e2e/stores.py).

    .venv/bin/python bench/fuzz.py --interactions 100000 --tables 3              (the campaign)
    .venv/bin/python bench/fuzz.py --interactions 100000 --tables 3 --store postgres --processes 2
    tests/e2e/test_fuzz_e2e.py                                                  (its small versions)
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.models import Book, Table
from tests.e2e import inputs
from tests.e2e.channel import actor, finished, has_controls, is_table, settle
from tests.e2e.processes import BotProcesses, shard_guilds
from tests.e2e.secrecy import Follower, SPECS
from tests.e2e.stores import Reader, StoreKind, pg_records, reader, replayed, replays, throwaway_postgres
from tests.e2e.dice_clients import DiceRun
from tests.e2e.watch import (
    CLICK_IN_PUBLIC, FIRST_ANSWER, LATE_ANSWER, REFUSAL, SILENT, Watch, answer_problem, newest,
)
from tests.fakediscord import FakeDiscord, FakeUser, Interaction, running_fake

GAMES = ["knucklebones", "roll-the-bones", "stones-and-bones", "bare-bones", "rattlebones", "bone-duel"]
KINDS = ("honest", "honest", "honest", "honest", "forged", "wrong_person", "duplicate", "double_click",
         "simultaneous", "private_view", "left", "not_host")
#: between a table's copies in channel names ("roll-the-bones·2")
COPY = "·"
#: cases a table may find nobody asked before it counts as stuck
IDLE_LIMIT = 60


def game_of(channel: str) -> str:
    return channel.split(COPY)[0]


def controls(fd: FakeDiscord, message: dict[str, Any]) -> list[tuple[str, str | None]]:
    """(custom id, select value or None) of every move control a message offers."""
    out: list[tuple[str, str | None]] = [
        (b["custom_id"], None) for b in fd.buttons(message)
        if (b["custom_id"] or "").startswith(("bn:act:", "bn:all:"))]
    for menu in fd.selects(message):
        if (menu["custom_id"] or "").startswith(("bn:pick:", "bn:allpick:")):
            out += [(menu["custom_id"], o["value"]) for o in menu["options"]]
    return out


def forged_ids(rng: random.Random, real: str) -> str:
    parts = real.split(":")
    choice = rng.randrange(6)
    if choice == 0:
        return "bn:act:999999:s0:zz.0:0"  # another (no) game
    if choice == 1 and len(parts) >= 5:
        return ":".join(parts[:-2] + ["deadbeef.1", parts[-1]])  # a stale or random stamp
    if choice == 2:
        return ":".join(parts[:-1] + [str(rng.randrange(50, 9999))])  # out of range
    if choice == 3:
        return "bn:" + "x" * 97  # 100 characters
    if choice == 4:
        return rng.choice(["", "bn", "bn:act", "bn:act:-1:s-1:.:", "\u0000bn:act:1", "bn:hand:1" * 5])
    return real.replace(":s0:", ":s1:") if ":s0:" in real else real.replace(":s1:", ":s0:")


def seat_in(custom_id: str) -> int | None:
    """The seat a seat's own control was drawn for (``bn:act:<game>:s<seat>:...``)."""
    parts = custom_id.split(":")
    if len(parts) > 3 and parts[0] == "bn" and parts[1] in ("act", "pick") and parts[3][:1] == "s":
        return int(parts[3][1:]) if parts[3][1:].isdigit() else None
    return None


@dataclass
class Case:
    """The interactions of one case, and whether each must be refused."""

    kind: str
    sent: list[tuple[Interaction, bool]] = field(default_factory=list)


class Run:
    """The clients of one table (``Run(fd, players, spectator, rng)``: the players of the
    tables in channels named after their games). With a ``watch`` and a ``follower`` (the
    campaign gives them) every case is held to the invariants; without, only to the first
    answer in time."""

    def __init__(self, fd: FakeDiscord, players: list[FakeUser], spectator: FakeUser, rng: random.Random, *,
                 watch: Watch | None = None, follower: Follower | None = None, channel: str | None = None,
                 leaver: FakeUser | None = None) -> None:
        self.fd, self.players, self.spectator, self.rng = fd, players, spectator, rng
        self.watch, self.follower, self.channel, self.leaver = watch, follower, channel, leaver
        self.kinds: Counter[str] = Counter()
        #: interactions sent, by the kind of case that sent them
        self.sent: Counter[str] = Counter()
        self.latencies: list[float] = []
        self.late: list[str] = []
        self.games_ended = 0
        self.ended: set[int] = set()
        self.busy = 0
        self.problems: dict[str, list[str]] = {}
        self.table: Table | None = None
        self.left = False
        self.idle = 0
        #: whoever may hold a seat: the players, and the one who joins and leaves
        self.everyone = [*players, *([leaver] if leaver is not None else [])]

    # -- bookkeeping ----------------------------------------------------------------------------

    def problem(self, kind: str, text: str) -> None:
        self.problems.setdefault(kind, []).append(text)

    @property
    def interactions(self) -> int:
        return sum(self.sent.values())

    async def answered(self, it: Any, what: str) -> None:
        try:
            await it.wait_response(timeout=FIRST_ANSWER)
        except TimeoutError:
            self.late.append(what)
            return
        if it.latency is not None:
            self.latencies.append(it.latency)

    async def settle(self, channel: str) -> None:
        """Until this table's people have been shown nothing new for a moment."""
        if self.watch is None:
            await settle(self.fd, quiet=0.02)
            return
        seen, end = -1, time.monotonic() + 10
        while time.monotonic() < end:
            now = self.watch.count(channel)
            if now == seen:
                return
            seen = now
            await asyncio.sleep(0.03)

    async def conclude(self, channel: str, case: Case, version: int | None) -> None:
        """A case is over: wait for its answers, let its step settle, then hold it to the rules."""
        for it, _ in case.sent:
            await self.answered(it, f"{case.kind} {it.name!r}")
        if self.watch is None or self.follower is None:  # the first answer is all a bare run holds
            await self.settle(channel)
            return
        for it, _ in case.sent:  # an acknowledgement now, the answer once the game's lock is free
            if it.response is not None and it.response["type"] in (5, 6):
                try:
                    await self.fd.wait_until(lambda: it.followup_ids or it.original_edits, LATE_ANSWER,
                                             what="the answer after an acknowledgement")
                except TimeoutError:
                    pass
        await self.settle(channel)
        for it, refuse in case.sent:
            wrong = answer_problem(self.fd, it, refuse)
            if wrong is not None:
                self.problem(*wrong)
        shown = self.watch.shown(channel)
        for leak in self.follower.check(shown):
            self.problem("secrets shown to others", leak)
        for kind, found in self.follower.problems.items():
            self.problems.setdefault(kind, []).extend(found)
        self.follower.problems.clear()
        previous, self.table = self.table, self.follower.table
        if self.table is not None and self.table.status == "finished":
            self.ended.add(self.table.id or 0)
            self.games_ended = len(self.ended)
        if case.sent and all(refuse for _, refuse in case.sent) and version is not None and self.table is not None \
                and previous is not None and previous.id == self.table.id and self.table.version != version:
            self.problem("refused interactions that changed the game",
                         f"{case.kind} {[it.name for it, _ in case.sent]} moved game {self.table.id} "
                         f"from version {version} to {self.table.version}")

    async def shown_in_full(self, channel: str) -> None:
        """Until the bot has shown the game's last step in full (the game's book, written last,
        is up to date: every DM is out, on a loaded machine maybe well after the channel fell
        quiet), then hold what it showed to the rules. A seat's own lines are its player's to
        see only while they hold it: a DM sent before a leave must not be read after it."""
        if self.follower is None:
            return
        game = self.follower.game_id
        end = time.monotonic() + LATE_ANSWER
        while game is not None and time.monotonic() < end:
            row = self.follower.db.execute("SELECT b.book_json, g.version FROM books b JOIN games g"
                                           " ON g.id = b.game_id WHERE g.id=?", (game,)).fetchone()
            if row is None or Book.model_validate_json(row[0]).shown >= row[1]:
                break
            await asyncio.sleep(0.03)
        await self.conclude(channel, Case("shown"), None)

    def send(self, case: Case, it: Interaction, refuse: bool) -> Interaction:
        case.sent.append((it, refuse))
        self.sent[case.kind] += 1
        return it

    # -- where things are -----------------------------------------------------------------------

    def live(self, channel: str) -> dict[str, Any] | None:
        """The newest message of the channel that is a table or carries a game's buttons."""
        return newest(self.fd, self.fd.channel(channel).id, lambda m: is_table(m) or has_controls(m))

    def copy_of(self, player: FakeUser) -> dict[str, Any] | None:
        """The player's newest DM copy with controls to press."""
        dm = self.fd.dm_channel(player)
        return newest(self.fd, dm.id, lambda m: has_controls(m)) if dm is not None else None

    def seat_of(self, user: FakeUser) -> int | None:
        return self.table.seat_of(user.id) if self.table is not None else None

    async def open(self, game: str) -> None:
        """A lobby opened by the host, joined by the others (the leaver, one time in two),
        pressed at by someone who is not the host, started."""
        fd, rng, channel = self.fd, self.rng, game
        command = game_of(channel)
        case = Case("lobby")
        host = self.players[0]
        it = self.send(case, await fd.slash(host, channel, f"{command} new", {}), False)
        try:
            lobby = await it.response_message()
        except (AssertionError, TimeoutError):
            lobby = None
        join = [b["custom_id"] for b in fd.buttons(lobby or {}) if b["label"] == "Join"]
        if lobby is None or not join:
            self.busy += 1  # the channel still has a game (refused in words): it is played on
            await self.conclude(channel, case, None)
            return
        self.left = False
        joining = self.players[1:] + ([self.leaver] if self.leaver is not None and rng.random() < 0.5 else [])
        for p in joining:
            await self.answered(self.send(case, await fd.click(p, lobby, join[0]), False), "join")
        await self.conclude(channel, case, None)
        if self.watch is not None and rng.random() < 0.5:
            lobby = self.fd.message(lobby["id"]) or lobby
            ops = [b["custom_id"] for b in fd.buttons(lobby) if b["label"] in ("Start", "Cancel", "Add AI")]
            someone = rng.choice([*self.players[1:], self.spectator])
            hostile = Case("not_host")
            version = self.table.version if self.table is not None else None
            self.kinds["not_host"] += 1
            self.send(hostile, await fd.click(someone, lobby, rng.choice(ops)), True)
            await self.conclude(channel, hostile, version)
        start = [b["custom_id"] for b in fd.buttons(self.fd.message(lobby["id"]) or lobby) if b["label"] == "Start"]
        if start:
            case = Case("lobby")
            self.send(case, await fd.click(host, lobby, start[0]), False)
            await self.conclude(channel, case, None)

    async def asked(self, game: str) -> tuple[FakeUser, dict[str, Any]] | None:
        """Someone asked, and the message that asks them: the table, else a DM copy with
        controls, else the private copy My hand gives a player whose DMs are closed."""
        fd = self.fd
        table = self.live(game)
        if table is not None and controls(fd, table):
            try:
                return actor(table, self.everyone), table
            except AssertionError:
                return self.rng.choice(self.players), table  # choices made in the open
        copies = [(p, m) for p in self.everyone if (m := self.copy_of(p)) is not None and controls(fd, m)]
        if copies:
            return self.rng.choice(copies)
        hand = [b["custom_id"] for b in fd.buttons(table or {}) if (b["custom_id"] or "").startswith("bn:hand:")]
        for player in self.players if hand else []:
            case = Case("hand")
            it = self.send(case, await fd.click(player, table or {}, hand[0], as_seen=True), False)
            try:
                mine = await it.response_message()
            except (AssertionError, TimeoutError):
                mine = None
            await self.conclude(game, case, None)
            if mine and controls(fd, mine):
                return player, mine
        return None

    # -- one case -------------------------------------------------------------------------------

    async def one(self, game: str) -> None:
        fd, rng, channel = self.fd, self.rng, game
        if self.leaver is not None and not self.left and self.seat_of(self.leaver) is not None \
                and self.table is not None and self.table.status == "active" and rng.random() < 0.05:
            await self._leave(channel)
            return
        found = await self.asked(channel)
        if found is None:
            table = self.live(channel)
            if table is None or finished(table) or "cancelled" in json.dumps(table):
                if self.follower is None:  # else counted from the store, once a game
                    self.games_ended += table is not None and finished(table)
                self.idle = 0
                await self.open(channel)
                return
            self.idle += 1
            if self.idle >= IDLE_LIMIT:
                self.problem("games stuck", f"{channel}: nobody asked and no game over after {IDLE_LIMIT} looks")
                self.idle = 0
                await self._end(channel)
            await asyncio.sleep(0.05)
            return
        self.idle = 0
        who, message = found
        custom_id, value = rng.choice(controls(fd, message))
        kind = rng.choice(KINDS) if self.watch is not None else rng.choice(KINDS[:8])
        if kind == "left" and not (self.left and self.live(channel) is not None):
            kind = "honest"  # nobody has left this game (yet)
        private = message.get("channel_id") not in {str(fd.channel(channel).id)} or bool(int(message.get("flags") or 0) & 64)
        version = self.table.version if self.table is not None else None
        case = Case(kind)
        try:
            await self._case(channel, case, who, message, custom_id, value, private)
        except ValueError:
            pass  # the message changed under the client (a select's options went): drawn again next time
        self.kinds[case.kind] += 1
        await self.conclude(channel, case, version)

    async def _case(self, channel: str, case: Case, who: FakeUser, message: dict[str, Any], custom_id: str,
                    value: str | None, private: bool) -> None:
        fd, rng, kind = self.fd, self.rng, case.kind
        if kind == "forged":
            fake = forged_ids(rng, custom_id)
            values = None if value is None else rng.choice([[value], ["9999"], ["0", "1"], ["x"]])
            refuse = fake != custom_id or (values is not None and values != [value])
            self.send(case, await fd.forge(who, message, fake, values=values, carried=rng.random() < 0.5), refuse)
        elif kind == "simultaneous":
            await self._all_at_once(channel, case, who, message, custom_id, value)
        elif kind == "private_view":
            await self._on_private_view(channel, case, who, message, custom_id, value, private)
        elif kind == "left":
            await self._as_leaver(channel, case, message, custom_id, value, private)
        elif kind == "not_host":
            await self._not_host(channel, case)
        else:
            refuse = False
            if kind == "wrong_person" and not private:  # a DM or a private copy shows to its owner only
                who = rng.choice([self.spectator, *[p for p in self.players if p is not who]])
                owner = seat_in(custom_id)
                refuse = who is self.spectator or (owner is not None and self.seat_of(who) != owner)
            presses = 2 if kind == "double_click" else 1
            for _ in range(presses):
                self.send(case, await self._press(who, message, custom_id, value), refuse)
            if kind == "duplicate":
                await fd.deliver_again(case.sent[0][0])

    async def _press(self, who: FakeUser, message: dict[str, Any], custom_id: str, value: str | None) -> Interaction:
        if value is None:
            return await self.fd.click(who, message, custom_id, as_seen=True)
        return await self.fd.select(who, message, custom_id, [value])

    async def _all_at_once(self, channel: str, case: Case, who: FakeUser, message: dict[str, Any],
                           custom_id: str, value: str | None) -> None:
        """Every seat with its own controls presses one at the same instant; where only one is
        asked, everyone presses the table's control at once (one may win, the rest are told)."""
        fd, rng = self.fd, self.rng
        presses: list[tuple[FakeUser, dict[str, Any], str, str | None]] = []
        for p in self.everyone:
            mine = self.copy_of(p)
            if mine is not None and controls(fd, mine):
                presses.append((p, mine, *rng.choice(controls(fd, mine))))
        if not any(p is who for p, *_ in presses):
            presses.append((who, message, custom_id, value))
        if len(presses) < 2 and not _private(fd, channel, message):
            presses = [(p, message, custom_id, value) for p in [*self.everyone, self.spectator]]
        sent = await asyncio.gather(*[self._press(p, m, c, v) for p, m, c, v in presses])
        for it, (p, _, c, _) in zip(sent, presses):
            self.send(case, it, self._refused(p, c))

    def _refused(self, presser: FakeUser, custom_id: str) -> bool:
        """Whether a press must be refused, as far as who pressed tells: a spectator's, or one on
        a control drawn for another seat (a choice made in the open may be anyone's)."""
        owner = seat_in(custom_id)
        return self.seat_of(presser) is None or (owner is not None and self.seat_of(presser) != owner)

    async def _on_private_view(self, channel: str, case: Case, who: FakeUser, message: dict[str, Any],
                               custom_id: str, value: str | None, private: bool) -> None:
        """Someone else presses a control of a player's private view: on the DM itself (a
        modified client, or a forwarded copy), or carried onto the table."""
        fd, rng = self.fd, self.rng
        owner, view = who, message if private else self.copy_of(who)
        if view is None:
            others = [(p, m) for p in self.everyone if (m := self.copy_of(p)) is not None and controls(fd, m)]
            owner, view = rng.choice(others) if others else (who, message)
        cid, val = rng.choice(controls(fd, view) or [(custom_id, value)])
        intruder = rng.choice([self.spectator, *[p for p in self.everyone if p is not owner]])
        values = None if val is None else [val]
        in_dm = not int(view.get("flags") or 0) & 64 and _private(fd, channel, view)
        if in_dm and rng.random() < 0.5:
            it = await fd.forge(intruder, view, cid, values=values)
        else:
            it = await fd.forge(intruder, self.live(channel) or message, cid, values=values, carried=True)
        self.send(case, it, self._refused(intruder, cid))

    async def _as_leaver(self, channel: str, case: Case, message: dict[str, Any], custom_id: str, value: str | None,
                         private: bool) -> None:
        """A player who left the game presses on: its table's controls, and My hand."""
        fd, rng = self.fd, self.rng
        table = self.live(channel)
        assert self.leaver is not None and table is not None
        hand = [b["custom_id"] for b in fd.buttons(table) if (b["custom_id"] or "").startswith("bn:hand:")]
        if hand and rng.random() < 0.3:
            self.send(case, await fd.click(self.leaver, table, hand[0]), True)
            return
        old = self.copy_of(self.leaver)  # a copy from before they left, should it still have buttons
        if old is not None and controls(fd, old) and rng.random() < 0.5:
            self.send(case, await self._press(self.leaver, old, *rng.choice(controls(fd, old))), True)
            return
        values = None if value is None else [value]
        self.send(case, await fd.forge(self.leaver, table, custom_id, values=values, carried=True), True)

    async def _not_host(self, channel: str, case: Case) -> None:
        """What only the host (a GM, a channel manager) may do, done by someone else."""
        fd, rng = self.fd, self.rng
        someone = rng.choice([*self.players[1:], self.spectator])
        gid = self.table.id if self.table is not None else 0
        choice = rng.randrange(8)
        if choice == 0:
            it = await fd.slash(someone, channel, "game pause")
        elif choice == 1:
            it = await fd.slash(someone, channel, "game resume")
        elif choice == 2:
            it = await fd.slash(someone, channel, "game timer", {"seconds": rng.choice([0, 15, 300])})
        elif choice == 3:
            it = await fd.slash(someone, channel, "game end")
        elif choice == 4:
            it = await fd.slash(someone, channel, "game unseat", {"seat": rng.choice(["1", "2", "@ann"])})
        elif choice == 5:
            it = await fd.slash(someone, channel, f"{game_of(channel)} npc", {"name": "Gus"})
        else:
            table = self.live(channel) or {}
            forged = f"bn:end:{gid}" if choice == 6 else f"bn:lobby:{gid}:{rng.choice(['start', 'cancel', 'ai'])}"
            if not table:
                return
            it = await fd.forge(someone, table, forged, carried=True)
        self.send(case, it, True)

    async def _leave(self, channel: str) -> None:
        """The leaver leaves; what they were shown while they held a seat is checked first."""
        assert self.leaver is not None
        await self.shown_in_full(channel)
        case = Case("leave")
        version = self.table.version if self.table is not None else None
        self.send(case, await self.fd.slash(self.leaver, channel, "game leave"), False)
        self.kinds["leave"] += 1
        self.left = True
        await self.conclude(channel, case, version)

    async def _end(self, channel: str) -> None:
        """A stuck game ended by its host, so the run goes on."""
        case = Case("end")
        it = self.send(case, await self.fd.slash(self.players[0], channel, "game end"), False)
        try:
            ask = await it.response_message()
            end = [b["custom_id"] for b in self.fd.buttons(ask) if (b["custom_id"] or "").startswith("bn:end:")]
            if end:
                self.send(case, await self.fd.click(self.players[0], ask, end[0]), False)
        except (AssertionError, TimeoutError):
            pass
        await self.conclude(channel, case, None)


def _private(fd: FakeDiscord, channel: str, message: dict[str, Any]) -> bool:
    return message.get("channel_id") != str(fd.channel(channel).id) or bool(int(message.get("flags") or 0) & 64)


@dataclass
class Report:
    interactions: int
    seconds: float
    kinds: Counter[str]
    latencies: list[float]
    games_ended: int
    replayed: int
    problems: dict[str, list[Any]]
    #: interactions sent, by the kind of case that sent them
    sent: Counter[str] = field(default_factory=Counter)
    tables: int = 0
    #: moves replayed as they were made (each table's game followed in the store)
    moves_followed: int = 0
    #: messages and versions of messages whose words were read for secrets and mentions
    messages_read: int = 0
    #: seconds the fake's own process stalled, each time it stalled past half a second
    fake_stalls: list[float] = field(default_factory=list)
    store: str = "sqlite"
    processes: int = 1
    #: interactions delivered, by the shard (the process) they were delivered on
    served: Counter[int] = field(default_factory=Counter)


def people(fd: FakeDiscord, channel: str) -> tuple[list[FakeUser], FakeUser, FakeUser]:
    """A table's people: its host, a player whose DMs are closed, another player; one who may
    join and leave; a spectator. Names of their own, so what they are shown is theirs."""
    tag = "".join(w[0] for w in game_of(channel).split("-")) + (channel.split(COPY)[1] if COPY in channel else "")
    players = [fd.add_user(f"ann{tag}"), fd.add_user(f"bob{tag}", dms_closed=True), fd.add_user(f"cy{tag}")]
    return players, fd.add_user(f"lee{tag}"), fd.add_user(f"dee{tag}")


def shard_of_table(index: int, processes: int) -> int:
    """The shard whose guild holds the ``index``-th table's channel: each game's tables take
    turns, so with two tables of a game or more every game is played on every shard."""
    copy, game = divmod(index, len(GAMES))
    return (game + copy) % processes


async def campaign(interactions: int, seed: int, *, tables_per_game: int = 1, bad_input: bool = False,
                   dice: bool = True, forget_every: int = 2000, store: StoreKind = "sqlite", processes: int = 1,
                   pg_url: str | None = None, progress: Callable[[int, float], None] | None = None) -> Report:
    """Play ``interactions`` interactions by the seed's clients, every table at once, holding
    every case to the invariants; then replay every stored game. ``bad_input``: a client in a
    channel of its own sends every slash option at and past its limits, over and over
    (tests/e2e/inputs.py), alongside the tables. ``dice``: rolls in the open, in private and in
    secret, with a stranger at their buttons (tests/e2e/dice_clients.py). ``store``: the bot
    keeps its games in a SQLite file, or in PostgreSQL (``pg_url``'s empty database, else a
    throwaway one), which ``processes`` bot processes share, one shard each: the tables are
    split over a guild per shard, so every process serves clicks (the bad-input and dice
    channels are in a guild of their own, whichever shard it falls on).
    ``progress(interactions, seconds)`` is told how far the run is now and then."""
    if store == "postgres" and pg_url is None:
        async with throwaway_postgres() as url:
            return await campaign(interactions, seed, tables_per_game=tables_per_game, bad_input=bad_input, dice=dice,
                                  forget_every=forget_every, store=store, processes=processes, pg_url=url,
                                  progress=progress)
    began = time.perf_counter()
    url = pg_url if store == "postgres" else None
    channels = [game + (f"{COPY}{n + 1}" if n else "") for n in range(tables_per_game) for game in GAMES]
    aside = (("inputs",) if bad_input else ()) + (("dice",) if dice else ())
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "fuzz.sqlite3"
        async with running_fake(channels=(tuple(channels) if processes == 1 else ()) + aside,
                                shards=processes) as fd:
            if processes > 1:
                shard_guilds(fd, [[c for i, c in enumerate(channels) if shard_of_table(i, processes) == shard]
                                  for shard in range(processes)])
            crowd = {channel: people(fd, channel) for channel in channels}
            typists = inputs.typists(fd) if bad_input else []
            rollers = [fd.add_user("rhea"), fd.add_user("gideon"), fd.add_user("stray"),
                       fd.add_user("shy", dms_closed=True)] if dice else []
            watch = Watch(fd)
            bots = BotProcesses(fd, processes, seed, db, url)
            try:
                await bots.start()
                with reader(db, url) as db_reader:
                    found = await _play(fd, watch, db_reader, interactions, seed, crowd, typists, rollers, began,
                                        forget_every, progress)
            finally:
                await bots.stop()
            errors = bots.errors()
            violations, unknown = list(fd.violations), list(fd.unknown_routes)
            served = Counter(it.shard or 0 for it in fd.interactions)
        replayed_games, wrong = replays(db) if url is None else replayed(await pg_records(url))
    report = _report(found, began, errors, violations, unknown, replayed_games, wrong, len(channels))
    report.store, report.processes, report.served = store, processes, served
    return report


@dataclass
class _Played:
    """The clients of a campaign once they stopped, and what their run saw."""

    runs: dict[str, Run]
    watch: Watch
    prober: inputs.Prober | None
    roller: DiceRun | None
    stalls: list[float]


async def _play(fd: FakeDiscord, watch: Watch, db_reader: Reader, interactions: int, seed: int,
                crowd: dict[str, tuple[list[FakeUser], FakeUser, FakeUser]], typists: list[FakeUser],
                rollers: list[FakeUser], began: float, forget_every: int,
                progress: Callable[[int, float], None] | None) -> _Played:
    """Every client at once until ``interactions`` were sent, then every table concluded."""
    runs: dict[str, Run] = {}
    for channel, (players, leaver, spectator) in crowd.items():
        watch.claim(channel, [fd.channel(channel).id], [*players, leaver, spectator])
        runs[channel] = Run(fd, players, spectator, random.Random(f"{seed}:{channel}"), watch=watch,
                            follower=Follower(db_reader, fd.channel(channel).id), channel=channel,
                            leaver=leaver)
    prober = None
    if typists:
        watch.claim("inputs", [fd.channel("inputs").id], typists)
        prober = inputs.Prober(fd, db_reader, watch, "inputs", names=[u.display or "" for u in typists])
    roller = None
    if rollers:
        watch.claim("dice", [fd.channel("dice").id], rollers)
        roller = DiceRun(fd, watch, "dice", *rollers, rng=random.Random(f"{seed}:dice"), db=db_reader)
    total = lambda: (sum(r.interactions for r in runs.values()) + (prober.sent if prober else 0)  # noqa: E731
                     + (roller.interactions if roller else 0))

    async def roll() -> None:
        assert roller is not None
        while total() < interactions:
            try:
                await roller.one()
            except Exception as exc:  # noqa: BLE001
                roller.problem("fuzz clients that failed", f"dice: {exc!r}"[:2000])
                await asyncio.sleep(0.5)

    async def type_badly() -> None:
        assert prober is not None
        host, *others = typists
        while total() < interactions:
            try:
                await inputs.everything(prober, host, host, others,
                                        sorted(spec.command for spec in SPECS.values()),
                                        until=lambda: total() >= interactions)
            except Exception as exc:  # noqa: BLE001
                prober.problem("fuzz clients that failed", f"inputs: {exc!r}"[:2000])
                await asyncio.sleep(0.5)

    async def play(channel: str) -> None:
        run = runs[channel]
        await run.open(channel)
        while total() < interactions:
            try:
                await run.one(channel)
            except Exception as exc:  # noqa: BLE001 - the client's own failure is a finding, not the end
                run.problem("fuzz clients that failed", f"{channel}: {exc!r}"[:2000])
                await asyncio.sleep(0.5)

    async def lean() -> None:
        """Forget what no check reads any more, and say how far the run is."""
        mark = 0
        while total() < interactions:
            await asyncio.sleep(1.0)
            if total() - mark >= forget_every:
                mark = total()
                watch.forget()
                # what the fake and the checks keep is out of the collector's sight:
                # a full collection over it would stall the fake past the bot's 3 s
                gc.freeze()
                if progress is not None:
                    progress(mark, time.perf_counter() - began)

    async def watch_the_fake() -> None:
        """How long the fake itself stalled (its checks run in its process): a late
        answer during a stall of the fake is the run's fault, not the bot's."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(0.1)
            lag = loop.time() - before - 0.1
            if lag > 0.5:
                stalls.append(lag)

    stalls: list[float] = []
    keeper = asyncio.create_task(lean())
    stall_watch = asyncio.create_task(watch_the_fake())
    await asyncio.gather(*[play(channel) for channel in runs], *([type_badly()] if prober else []),
                         *([roll()] if roller else []))
    keeper.cancel()
    stall_watch.cancel()
    gc.unfreeze()
    for channel, run in runs.items():
        await run.conclude(channel, Case("end"), None)
    await settle(fd)
    watch.read()
    return _Played(runs, watch, prober, roller, stalls)


def _report(played: _Played, began: float, errors: list[str], violations: list[Any], unknown: list[Any],
            replayed_games: int, wrong: list[str], tables: int) -> Report:
    runs, watch, prober, roller = played.runs, played.watch, played.prober, played.roller
    kinds: Counter[str] = sum((r.kinds for r in runs.values()), Counter())
    sent: Counter[str] = sum((r.sent for r in runs.values()), Counter())
    latencies = sorted(x for r in runs.values() for x in r.latencies)
    problems: dict[str, list[Any]] = {
        "answered late": [x for r in runs.values() for x in r.late],
        "fake Discord violations": violations, "unknown routes": unknown, "bot errors": errors,
        "stored games unlike their replay": wrong,
    }
    for run in runs.values():
        for kind, found in run.problems.items():
            problems.setdefault(kind, []).extend(found)
    for kind, found in watch.problems.items():
        problems.setdefault(kind, []).extend(found)
    if roller is not None:
        problems["answered late"] += roller.late
        for kind, found in roller.problems.items():
            problems.setdefault(kind, []).extend(found)
        for kind, n in roller.sent.items():
            sent[f"dice {kind}"] = n
            kinds[f"dice {kind}"] = n
        latencies = sorted(latencies + roller.latencies)
    latencies = latencies or [0.0]
    if prober is not None:
        problems["answered late"] += prober.late
        for kind, found in prober.problems.items():
            problems.setdefault(kind, []).extend(found)
        sent["bad_input"] = prober.sent
        kinds["bad_input"] = prober.sent
    for kind in ("secrets shown to others", "mass or role mention unmuted", REFUSAL, CLICK_IN_PUBLIC, SILENT,
                 "refused interactions that changed the game", "games stuck", "fuzz clients that failed",
                 "a sealed choice or hidden card told in events"):
        problems.setdefault(kind, [])
    return Report(sum(sent.values()), time.perf_counter() - began, kinds, latencies,
                  sum(r.games_ended for r in runs.values()), replayed_games, problems, sent=sent, tables=tables,
                  moves_followed=sum(r.follower.replayed_moves for r in runs.values() if r.follower),
                  messages_read=watch.messages_sent, fake_stalls=played.stalls)
