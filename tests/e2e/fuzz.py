"""A seeded fuzz run: the real bot against the fake Discord, every game played by honest and
dishonest clients at once, with the invariants checked as it goes and at the end.

What the clients do (each interaction draws one, by the seed):
- honest: whoever a table or a DM asks presses one of its controls;
- forged: a control id edited by a modified client (another game, a random or stale stamp, an
  index out of range, garbage, 100 characters, select values never offered);
- wrong person: a spectator or another player presses someone's control;
- duplicate: Discord delivers the same interaction twice;
- double click: the same control pressed twice at once.

Invariants: every interaction gets its first answer within 3 seconds; no request Discord would
refuse and no unknown route (the fake's violations); no error or traceback in the bot's log;
every stored game equals the replay of its seed and its move log; games keep ending.

    .venv/bin/python bench/fuzz.py --interactions 2000 --seed 7   (the campaign)
    tests/e2e/test_fuzz_e2e.py                                    (its small version)

A first version of issue 22's campaign: faults (429s, 500s, a store that fails, SIGKILL) and the
secrecy and mention checks are still to come.
"""

from __future__ import annotations

import json
import random
import sqlite3
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.models import LogEntry, Table
from tests.e2e import play
from tests.e2e.channel import actor, live_table, settle
from tests.fakediscord import FakeDiscord, FakeUser, running_bot, running_fake
from tests.fixtures.tables import game_specs

GAMES = ["knucklebones", "roll-the-bones", "stones-and-bones", "bare-bones", "rattlebones", "bone-duel"]
FIRST_ANSWER = 3.0
KINDS = ("honest", "honest", "honest", "honest", "forged", "wrong_person", "duplicate", "double_click")


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


class Run:
    def __init__(self, fd: FakeDiscord, players: list[FakeUser], spectator: FakeUser, rng: random.Random) -> None:
        self.fd, self.players, self.spectator, self.rng = fd, players, spectator, rng
        self.kinds: Counter[str] = Counter()
        self.latencies: list[float] = []
        self.late: list[str] = []
        self.games_ended = 0
        self.busy = 0

    async def answered(self, it: Any, what: str) -> None:
        try:
            await it.wait_response(timeout=FIRST_ANSWER)
        except TimeoutError:
            self.late.append(what)
            return
        if it.latency is not None:
            self.latencies.append(it.latency)

    async def open(self, game: str) -> None:
        try:
            await play.open_table(self.fd, game, f"{game} new", self.players[0], self.players[1:], first=_first)
        except AssertionError:
            self.busy += 1  # the channel still has a game (refused in words): it is played on

    async def asked(self, game: str) -> tuple[FakeUser, dict[str, Any]] | None:
        """Someone asked, and the message that asks them: the table, else a DM with controls,
        else the private copy My hand gives a player whose DMs are closed."""
        fd = self.fd
        table = live_table(fd, game)
        if table is not None and controls(fd, table):
            try:
                return actor(table, self.players), table
            except AssertionError:
                return self.rng.choice(self.players), table  # choices made in the open
        for player in self.players:
            dms = [m for m in fd.dm_messages(player) if controls(fd, m)]
            if dms:
                return player, dms[-1]
        hand = [b["custom_id"] for b in fd.buttons(table or {}) if (b["custom_id"] or "").startswith("bn:hand:")]
        for player in self.players if hand else []:
            it = await fd.click(player, table or {}, hand[0])
            copy = await it.response_message()
            if copy and controls(fd, copy):
                return player, copy
        return None

    async def one(self, game: str) -> None:
        fd, rng = self.fd, self.rng
        found = await self.asked(game)
        if found is None:
            table = live_table(fd, game)
            if table is None or "Final standings" in json.dumps(table):
                self.games_ended += table is not None
                await self.open(game)
            return
        who, message = found
        custom_id, value = rng.choice(controls(fd, message))
        kind = rng.choice(KINDS)
        self.kinds[kind] += 1
        if kind == "forged":
            fake = forged_ids(rng, custom_id)
            values = None if value is None else rng.choice([[value], ["9999"], ["0", "1"], ["x"]])
            await self.answered(await fd.forge(who, message, fake, values=values, carried=rng.random() < 0.5),
                                f"forged {fake!r}")
            return
        in_channel = message.get("channel_id") in {str(fd.channel(g).id) for g in GAMES} \
            and not int(message.get("flags") or 0) & 64
        if kind == "wrong_person" and in_channel:  # a DM or a private copy shows to its owner only
            who = rng.choice([self.spectator, *[p for p in self.players if p is not who]])
        presses = 2 if kind == "double_click" else 1
        sent = []
        for _ in range(presses):
            if value is None:
                sent.append(await fd.click(who, message, custom_id, as_seen=True))
            else:
                sent.append(await fd.select(who, message, custom_id, [value]))
        if kind == "duplicate":
            await fd.deliver_again(sent[0])
        for it in sent:
            await self.answered(it, f"{kind} {custom_id}")
        await settle(fd, quiet=0.02)


async def _first(fd: FakeDiscord, channel: str) -> dict[str, Any]:
    await settle(fd)
    table = live_table(fd, channel)
    assert table is not None
    return table


def replays(db: Path) -> tuple[int, list[str]]:
    """How many stored games were replayed from their seed and move log, and those that came
    out different."""
    specs = {spec.engine.key: spec for spec in game_specs()}
    wrong = []
    with sqlite3.connect(db) as conn:
        games = conn.execute("SELECT id, table_json FROM games WHERE status IN ('active', 'finished')").fetchall()
        for game_id, text in games:
            table = Table.model_validate_json(text)
            spec = specs[table.game]
            engine = spec.engine
            options = engine.Options.model_validate(table.options)
            if spec.tavern is not None:
                options = spec.tavern.starting_options(options, [s.stake for s in table.seats])
            state = engine.new_game(len(table.seats), options, table.seed)
            rows = conn.execute("SELECT version, seat, user_id, action, events, chapter FROM actions"
                                " WHERE game_id=? ORDER BY version", (game_id,)).fetchall()
            for r in rows:
                entry = LogEntry(version=r[0], seat=r[1], user_id=r[2], action=json.loads(r[3]),
                                 events=json.loads(r[4]), chapter=r[5] or "")
                if entry.seat is None:
                    continue
                if entry.action.get("timeout"):
                    state, _ = engine.on_timeout(state, entry.seat)
                else:
                    state, _ = engine.apply(state, entry.seat, engine.Action.model_validate(entry.action))
            if state.model_dump(mode="json") != table.state:
                wrong.append(f"game {game_id} ({table.game}) differs from its replay after {len(rows)} moves")
    return len(games), wrong


@dataclass
class Report:
    interactions: int
    seconds: float
    kinds: Counter[str]
    latencies: list[float]
    games_ended: int
    replayed: int
    problems: dict[str, list[Any]]


async def campaign(interactions: int, seed: int) -> Report:
    """Play ``interactions`` interactions by the seed's clients, then check the invariants."""
    rng = random.Random(seed)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "fuzz.sqlite3"
        async with running_fake(channels=tuple(GAMES)) as fd:
            players = [fd.add_user("ann"), fd.add_user("bob", dms_closed=True), fd.add_user("cy")]
            spectator = fd.add_user("dee")
            env = {"DEFAULT_TIMER_SECONDS": "0", "LOG_LEVEL": "WARNING", "GAME_SEED": str(seed)}
            async with running_bot(fd, env, db) as bot:
                run = Run(fd, players, spectator, rng)
                for game in GAMES:
                    await run.open(game)
                while sum(run.kinds.values()) < interactions:
                    await run.one(rng.choice(GAMES))
                await settle(fd)
                errors = bot.error_records()
            violations, unknown = list(fd.violations), list(fd.unknown_routes)
        replayed, wrong = replays(db)
    problems = {"answered late": run.late, "fake Discord violations": violations, "unknown routes": unknown,
                "bot errors": errors, "stored games unlike their replay": wrong}
    return Report(sum(run.kinds.values()), time.perf_counter() - began, run.kinds, sorted(run.latencies) or [0.0],
                  run.games_ended, replayed, problems)
