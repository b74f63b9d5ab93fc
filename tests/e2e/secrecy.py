"""What each seat of a stored game keeps secret, and whether anyone else was shown it.

A game declares its secrets once, in ``engine.scramble_hidden``: the same table with everything a
viewer may not see changed to something else it could be. So a seat's secret facts, in the very
words the bot uses, are the lines of its own private view (``present.private_message``: its
words, its buttons, its picture's description; and its Details) that change when the hidden
things are changed. Any of them in a channel message, or in a reply or DM shown to another
person, is a leak, unless that person holds the same line themselves (two hands alike).

The game is followed from the store move by move: its seed and its log are replayed as they
grow, so after every interaction the stored state is held to its replay (nothing lost, nothing
doubled), and the events each move told are held to the rule that the channel cannot tell apart
what it cannot see: the same move in a world scrambled where the channel does not look, or
another choice the channel cannot see, must be told in the same words if it leaves the same
public view.
"""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot import present
from bot.games import GameSpec, Page
from bot.models import Book, LogEntry, Table
from bot.step import Moment
from rules.base import Event, GameError
from tests.e2e.watch import PUBLIC, Shown, strings
from tests.fixtures.tables import game_specs

#: scrambled worlds a seat's lines are compared with: a line that differs in any is secret
WORLDS = 2
#: states of one check's window whose lines excuse a person holding the same line
OWN_WINDOW = 8


def _specs() -> dict[str, GameSpec[Any, Any, Any]]:
    return {spec.engine.key: spec for spec in game_specs()}


SPECS = _specs()


def page_words(pages: list[Page]) -> set[str]:
    out: set[str] = set()
    for page in pages:
        out |= strings({"content": page.title})
        for part in page.parts:
            out |= strings({"content": part.text})
        if page.picture is not None:
            out |= strings({"content": page.picture.description})
    return out


def seat_words(moment: Moment, seat: int) -> set[str]:
    """Everything the bot would show this seat of itself: its private view and its Details."""
    shown = present.private_message(moment, seat)
    words = strings({"components": shown.layout.to_components()})
    for picture in shown.pictures:
        words |= strings({"content": picture.description})
    return words | page_words(present.details_pages(moment, seat, []))


def starting_state(spec: GameSpec[Any, Any, Any], table: Table) -> BaseModel:
    engine = spec.engine
    options = engine.Options.model_validate(table.options)
    if spec.tavern is not None:
        options = spec.tavern.starting_options(options, [s.stake for s in table.seats])
    return engine.new_game(len(table.seats), options, table.seed)


def _told(events: list[Event]) -> list[tuple[Any, ...]]:
    return [(e.kind, e.text, e.seat, e.seats, json.dumps(e.data, sort_keys=True, default=str)) for e in events]


def _own(events: list[Event], seat: int) -> list[Event]:
    """The events that tell the move itself: those about the seat that made it, up to the first
    about anyone else (what follows may be a reveal the rules make now, such as the votes)."""
    return list(itertools.takewhile(lambda e: e.seat == seat, events))


def replay_move(spec: GameSpec[Any, Any, Any], state: BaseModel, entry: LogEntry) -> tuple[BaseModel, list[Any]]:
    engine = spec.engine
    if entry.action.get("timeout"):
        return engine.on_timeout(state, entry.seat)
    return engine.apply(state, entry.seat, engine.Action.model_validate(entry.action))


@dataclass
class Secrets:
    """A table at one version: each seat's secret lines, and whose seat is whose."""

    table: Table
    secret: dict[int, set[str]]
    owners: dict[int, int]  # seat -> user id, for seats a person plays


@dataclass
class Follower:
    """One channel's games, followed in the store as they are played."""

    db: sqlite3.Connection
    channel_id: int
    game_id: int | None = None
    state: BaseModel | None = None
    version: int = 0  # the last log entry replayed
    problems: dict[str, list[str]] = field(default_factory=dict)
    replayed_moves: int = 0
    #: the game as last read from the store
    table: Table | None = None
    _cache: tuple[int, int, Secrets] | None = None
    _window: list[BaseModel] = field(default_factory=list)

    def _problem(self, kind: str, text: str) -> None:
        self.problems.setdefault(kind, []).append(text)

    def follow(self) -> tuple[Table, list[BaseModel]] | None:
        """The channel's newest game as stored, and the states it went through since the last
        call (its replay, move by move, ending at the stored state); None before any game."""
        db = self.db
        db.execute("BEGIN")
        try:
            row = db.execute("SELECT id, table_json FROM games WHERE channel_id=? ORDER BY id DESC LIMIT 1",
                             (self.channel_id,)).fetchone()
            if row is None:
                return None
            game_id, text = row
            if game_id != self.game_id:
                self.game_id, self.state, self.version = game_id, None, 0
            rows = db.execute("SELECT version, seat, user_id, action, events, chapter FROM actions "
                              "WHERE game_id=? AND version>? ORDER BY version", (game_id, self.version)).fetchall()
        finally:
            db.execute("COMMIT")
        table = self.table = Table.model_validate_json(text)
        spec = SPECS[table.game]
        if table.state is None:
            return table, []
        if self.state is None:
            self.state = starting_state(spec, table)
        states = [self.state]
        for r in rows:
            entry = LogEntry(version=r[0], seat=r[1], user_id=r[2], action=json.loads(r[3]),
                             events=json.loads(r[4]), chapter=r[5] or "")
            self.version = entry.version
            if entry.seat is None:
                continue
            before = states[-1]
            try:
                after, events = replay_move(spec, before, entry)
            except Exception as exc:  # noqa: BLE001 - a log the engine refuses is a finding
                self._problem("stored games unlike their replay",
                              f"game {game_id} ({table.game}) move {entry.version} does not replay: {exc!r}")
                break
            self.replayed_moves += 1
            if spec.engine.has_private_view() and not entry.action.get("timeout"):
                self._hold_events(spec, before, entry, after, events)
            states.append(after)
        stored = spec.engine.State.model_validate(table.state)
        if states[-1].model_dump(mode="json") != table.state:
            self._problem("stored games unlike their replay",
                          f"game {game_id} ({table.game}) at version {table.version} differs from its replay "
                          f"of {self.version} logged moves")
            states.append(stored)
        self.state = stored
        self._window = states
        return table, states

    def _hold_events(self, spec: GameSpec[Any, Any, Any], before: BaseModel, entry: LogEntry,
                     after: BaseModel, events: list[Event]) -> None:
        """Another world the channel cannot tell from this one must be told in the same words:
        the same move where the hidden things differ, or another sealed choice. Only the move's
        own events are compared: a move that closes a sealed phase reveals what the rules reveal
        then, in the events that follow."""
        engine, seat = spec.engine, entry.seat
        assert seat is not None
        seen, told = engine.view(after, None), _told(_own(events, seat))
        action = engine.Action.model_validate(entry.action)
        worlds = [("in a world scrambled where the channel does not look",
                   engine.scramble_hidden(before, None, random.Random(k)), action) for k in range(WORLDS)]
        # a choice is sealed where the engine says seats decide at the same time (it stamps each
        # seat's buttons with that seat's own choices); elsewhere every move is made in the open,
        # and two of them may well leave the same table, told apart by their events alone
        sealed = len(engine.to_act(before)) > 1 and engine.decision_stamp(before, seat) is not None
        alternatives = [a for a in engine.legal_actions(before, seat) if a != action] if sealed else []
        rng = random.Random(entry.version)
        worlds += [(f"choosing {alt.model_dump(mode='json')} instead", before, alt)
                   for alt in rng.sample(alternatives, min(2, len(alternatives)))]
        for what, world, move in worlds:
            try:
                state, more = engine.apply(world, seat, move)
            except GameError:
                continue
            if engine.view(state, None) == seen and _told(_own(more, seat)) != told:
                self._problem("a sealed choice or hidden card told in events",
                              f"{engine.key} move {entry.version} {entry.action}, {what}: told {told} "
                              f"but {_told(_own(more, seat))}")

    # -- secrets ----------------------------------------------------------------------------

    def secrets(self, table: Table, state: BaseModel) -> Secrets:
        """Each seat's secret lines at this version (kept while the version stays)."""
        key = (table.id or 0, table.version)
        if self._cache is not None and self._cache[:2] == key:
            return self._cache[2]
        spec = SPECS[table.game]
        owners = {s: seat.user_id for s, seat in enumerate(table.seats) if seat.user_id and not seat.ai}
        secret: dict[int, set[str]] = {}
        if spec.engine.has_private_view():
            here = Moment(spec, table, state)
            words = {s: seat_words(here, s) for s in range(len(table.seats))}
            changed: dict[int, set[str]] = {s: set() for s in words}
            for k in range(WORLDS):
                elsewhere = Moment(spec, table, spec.engine.scramble_hidden(state, None, random.Random(k)))
                for s in words:
                    changed[s] |= words[s] - seat_words(elsewhere, s)
            public = strings({"components": present.table_message(here, Book()).layout.to_components()})
            secret = {s: found - public for s, found in changed.items() if found - public}
        found = Secrets(table, secret, owners)
        self._cache = (key[0], key[1], found)
        return found

    def check(self, shown: list[Shown]) -> list[str]:
        """Follow the game to where the store has it, then: lines of a seat's secrets shown to
        the channel or to anyone but that seat's player."""
        followed = self.follow()
        if followed is None:
            return []
        return self.leaks(*followed, shown)

    def leaks(self, table: Table, states: list[BaseModel], shown: list[Shown]) -> list[str]:
        """Lines of a seat's secrets at the last of ``states`` in what was ``shown`` to the
        channel or to anyone but that seat's player (who may hold the same line at any of
        ``states``: two hands alike)."""
        if table.state is None or not states or not shown or not SPECS[table.game].engine.has_private_view():
            return []
        self._window = states
        found = self.secrets(table, states[-1])
        out: list[str] = []
        own: dict[int, set[str]] = {}
        for item in shown:
            for seat, lines in found.secret.items():
                if item.audience != PUBLIC and found.owners.get(seat) == item.audience:
                    continue
                seen = lines & item.words
                if seen and item.audience != PUBLIC:
                    seen -= self._own(table, item.audience, own)
                if seen:
                    who = "the channel" if item.audience == PUBLIC else f"user {item.audience}"
                    out.append(f"game {table.id} ({table.game}) v{table.version}: seat {seat + 1}'s "
                               f"{sorted(seen)[:3]} shown to {who} by {item.what}")
        return out

    def _own(self, table: Table, user: int, cache: dict[int, set[str]]) -> set[str]:
        """What ``user`` may hold themselves over this check's states (their own seat's lines)."""
        if user not in cache:
            seat = table.seat_of(user)
            words: set[str] = set()
            if seat is not None:
                spec = SPECS[table.game]
                for state in self._window[-OWN_WINDOW:]:
                    words |= seat_words(Moment(spec, table, state), seat)
            cache[user] = words
        return cache[user]
