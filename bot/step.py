"""One step of a game: a click, a timer or a host's change, the bot moves it sets off, and all
the host needs of it afterwards, each computed once.

Pure: no Discord, no store, no clock but the deadline's "now", which the caller passes in. The
runtime loads a table, asks this module for the step, saves the result once, and hands it to
``bot.present``. Legality is the engine's alone: a click names an index into the engine's legal
actions, and ``engine.apply`` refuses anything else.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import BaseModel

from bot import stamps
from bot.errors import Refusal
from bot.games import GameSpec
from bot.models import NEXT_CHAPTER, LogEntry, Table
from bot.render import and_list, quote, runner, safe, seat_names
from rules.base import Chooser, Event, GameError

#: a runaway engine or policy must not hang a click; far above any real game's chain of bot moves
MAX_AUTOMATIC_STEPS = 2_000


class Stale(Exception):
    """The click was drawn for a moment that has passed."""


class Moment:
    """A stored table as the host reads it: the state parsed once, and what the engine says of
    it (who acts, their legal actions, views, stamps) each asked at most once."""

    def __init__(self, spec: GameSpec[Any, Any, Any], table: Table, state: BaseModel | None = None, *,
                 chapter: str | None = None, pictures: bool = True) -> None:
        """``state``: the state the table now holds, parsed already (a step's new state); it is
        written into the table as it will be stored, so the two never disagree. ``chapter``:
        where the game stands, when the caller knows it already (the book of a table shown up to
        date), which spares reading it off a public view of this state."""
        self.spec = spec
        self._chapter = chapter
        #: the server draws its tables as pictures (its settings may turn them off)
        self.pictures = pictures
        self.engine = spec.engine
        self.table = table
        if state is not None:
            table.state = state.model_dump(mode="json")
        elif table.state is not None:
            state = self.engine.State.model_validate(table.state)
        self.state = state
        self._legal: dict[int, list[Any]] = {}
        self._views: dict[int | None, BaseModel] = {}

    @property
    def playing(self) -> bool:
        return self.table.status == "active" and self.state is not None

    @cached_property
    def public(self) -> BaseModel:
        return self.view(None)

    def known(self, seat: int | None, view: BaseModel) -> None:
        """A view of this very state read elsewhere already."""
        self._views[seat] = view

    def view(self, seat: int | None) -> BaseModel:
        seen = self._views.get(seat)
        if seen is None:
            public = self._views.get(None)
            if seat is None or public is None:
                seen = self.engine.view(self.state, seat)
            else:  # the public view of this state is read already: only the seat's own part is built
                seen = self.engine.seat_view(self.state, seat, public)
            self._views[seat] = seen
        return seen

    @cached_property
    def acting(self) -> list[int]:
        return list(self.engine.to_act(self.state)) if self.playing else []

    @cached_property
    def humans(self) -> list[int]:
        return [s for s in self.acting if not self.table.seats[s].ai]

    def legal(self, seat: int) -> list[Any]:
        found = self._legal.get(seat)
        if found is None:
            found = self._legal[seat] = list(self.engine.legal_actions(self.state, seat))
        return found

    @cached_property
    def shared(self) -> list[Any]:
        """Choices made in the open on the table (Engine.open_actions)."""
        return list(self.engine.open_actions(self.state)) if self.playing else []

    @cached_property
    def stamps(self) -> dict[int, str]:
        """What each seat owing a decision is asked, as its buttons carry it."""
        return {s: stamps.decision(self.engine.decision_stamp(self.state, s), self.table.version)
                for s in self.acting}

    def stamp(self, seat: int) -> str:
        return self.stamps.get(seat) or stamps.decision(self.engine.decision_stamp(self.state, seat), self.table.version)

    @cached_property
    def open_choices(self) -> list[tuple[Any, str]]:
        """The open row as labelled, which its stamp is tied to."""
        return [(a.model_dump(mode="json"), self.spec.action_label(self.public, a)) for a in self.shared]

    def open_stamp(self, asked: Sequence[int]) -> str:
        return stamps.open_row(self.open_choices, asked, self.table.version)

    @cached_property
    def look(self) -> str:
        """What the channel's table is drawn from, to tell a change nobody can see (a sealed
        choice being filled in) from one the table must show. In a game with no secrets every
        stored step shows (a move, a seat taken over, a host's change), and each has its own
        move number: that number stands for the look, which a digest of the state would only
        spell out at length on every click. A game with secrets is looked at through a digest
        of its public view."""
        table = self.table
        if self.state is None:
            seen = b""
        elif self.engine.has_private_view():
            seen = self.public.model_dump_json().encode()
        else:
            return f"move {table.version}"
        text = repr(self.acting) + repr([(s.name, s.ai) for s in table.seats]) + repr(
            (table.status, table.paused, table.timer_seconds))
        return hashlib.sha1(seen + text.encode()).hexdigest()[:16]  # tells changes apart: no secret to keep

    @cached_property
    def chapter(self) -> str:
        if self._chapter is not None:
            return self._chapter
        return seat_names(self.table, self.spec.chapter(self.public)) if self.state is not None else ""

    def waiting_for(self, *, seated: bool = False) -> str:
        """Whom the game waits for, and until when: the end of a refusal. ``seated``: told to a
        player at the table, who on an untimed one may be waiting on someone for good, and so
        hears how to ping them."""
        who = and_list([safe(self.table.seats[s].name) for s in self.acting]) if self.acting else "nobody"
        due = self.table.deadline if self.acting else None
        if due:
            return f"waiting for {who}, whose time runs out <t:{int(due)}:R>"
        return f"waiting for {who}" + (" (`/game nudge` pings them)" if seated and self.humans else "")


@dataclass(frozen=True)
class StepResult:
    """What one step did: the table before and after, and what the host shows of it."""

    before: Moment
    after: Moment
    entries: list[LogEntry] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    #: humans who must act now and were not acting throughout the step: they are pinged
    newly: list[int] = field(default_factory=list)
    #: seats owing a new private decision (their stamp changed): they get a new private view
    fresh: list[int] = field(default_factory=list)
    #: the places, once the step finished the game
    results: list[dict[str, Any]] | None = None
    #: a line said above the table (time ran out, someone left)
    notice: str | None = None
    #: the old table's line of history, when the step itself gives it (the start)
    history: str | None = None

    @property
    def table(self) -> Table:
        return self.after.table

    @property
    def finished_now(self) -> bool:
        return self.results is not None


# -- reading a click ----------------------------------------------------------------------------


def read_click(now: Moment, seat: int | None, drawn_for: int | None, stamp: str,
               choices: Sequence[int]) -> tuple[int, Any]:
    """The seat and action a click on a seat's own controls stands for; Stale for a button of
    a past moment, a Refusal for one that is not the clicker's."""
    _playable(now.table)
    owner = seat if drawn_for is None else drawn_for
    if owner is None or not 0 <= owner < len(now.table.seats) or stamp != now.stamp(owner):
        raise Stale()
    if seat is None:
        raise Refusal(f"You are not playing at this table: {now.waiting_for()}.")
    if seat != owner and seat in now.acting:  # seats choosing at once: this one has its own buttons
        raise Refusal(f"That choice is {safe(now.table.seats[owner].name)}'s; yours are on your own copy.")
    if seat != owner or seat not in now.acting:
        raise Refusal(f"Not your turn: {now.waiting_for(seated=True)}.")
    actions = now.legal(seat)
    if len(choices) != 1 or not 0 <= choices[0] < len(actions):
        raise Refusal("That choice is not available.")
    return seat, actions[choices[0]]


def read_open_click(now: Moment, seat: int | None, stamp: str, index: int) -> tuple[int, Any]:
    """The seat and action of a click on a choice the table offers everyone who owes one."""
    _playable(now.table)
    shown, asked, drawn = stamps.read_open_row(stamp)
    if shown != stamps.read_open_row(now.open_stamp(()))[0]:
        raise Stale()  # another moment's row
    if seat is None:
        raise Refusal(f"You are not playing at this table: {now.waiting_for()}.")
    if seat not in now.acting:
        raise Refusal(f"Nothing is asked of you now: {now.waiting_for(seated=True)}.")
    if not asked >> seat & 1:
        raise Stale()  # drawn before this seat was asked
    if drawn is not None and now.table.seats[seat].moved > drawn:
        raise Stale()  # this seat has moved since: the second click of a double click
    if not 0 <= index < len(now.shared):
        raise Refusal("That choice is not available.")
    if now.shared[index] not in now.legal(seat):
        # said with its label, and the rules' reason where they give one: "Give Ann 1 gp"
        # pressed by Ann reads as what it is
        label = quote(seat_names(now.table, now.spec.action_label(now.public, now.shared[index]), plain=True), 80)
        reason = now.engine.refusal(now.state, seat, now.shared[index])
        raise Refusal(f"{label} is not yours to choose: {reason}." if reason else
                      f"{label} is another player's choice, not yours to make.")
    return seat, now.shared[index]


def _playable(table: Table) -> None:
    if table.status != "active":
        raise Refusal("This game is over.")
    if table.paused:
        raise Refusal(f"The game is paused; {runner(table)} resumes it with `/game resume`.")


# -- taking a step ------------------------------------------------------------------------------


class _Trail:
    """A state's path through one step, as the result needs it."""

    def __init__(self, before: Moment, table: Table | None = None) -> None:
        self.before = before
        self.table = table or before.table
        self.spec = before.spec
        self.engine = before.engine
        self.entries: list[LogEntry] = []
        self.events: list[Event] = []
        #: seats asked to act at every point of the step (None: nobody was asked before it)
        self.throughout: set[int] | None = set(before.acting) if before.state is not None else None
        #: the chapter the next move is made in; None: not yet read off the state
        self._chapter: str | None = before.chapter if before.state is not None else None
        #: the last state whose public view was read here, and that view (the step's result
        #: reuses it rather than reading it again)
        self.seen: tuple[BaseModel, BaseModel] | None = None

    def _chapter_of(self, state: BaseModel) -> str:
        if self._chapter is None:
            self.seen = (state, self.engine.view(state, None))
            self._chapter = seat_names(self.table, self.spec.chapter(self.seen[1]))
        return self._chapter

    def apply(self, state: BaseModel, seat: int, action: BaseModel | None) -> BaseModel:
        """One move (``action`` None: the seat's timeout default), logged under the chapter it
        was made in, with the next move number."""
        engine, table = self.engine, self.table
        chapter = self._chapter_of(state)
        if action is None:
            state, events = engine.on_timeout(state, seat)
            payload: dict[str, Any] = {"timeout": True}
        else:
            state, events = engine.apply(state, seat, action)
            payload = action.model_dump(mode="json")
        self._chapter = None  # a new state: its chapter is read only if another move follows
        texts = [seat_names(table, e.text) for e in events]
        opening = next((i for i, e in enumerate(events) if self.spec.opens_chapter(e)), None)
        if opening is not None:  # the rest of this move belongs to the chapter it opens
            self.seen = (state, self.engine.view(state, None))
            self._chapter = seat_names(table, self.spec.chapter(self.seen[1]))
            if self._chapter != chapter:
                texts.insert(opening, NEXT_CHAPTER + self._chapter)
        self.entries.append(LogEntry(
            version=table.version + len(self.entries) + 1, seat=seat, user_id=table.seats[seat].user_id,
            action=payload, events=texts, chapter=chapter,
        ))
        self.events += events
        if self.throughout is not None:
            self.throughout &= set(engine.to_act(state))
        return state

    def bots(self, state: BaseModel) -> BaseModel:
        """Every bot seat that must act does so, until a person must act or the game ends."""
        engine, table = self.engine, self.table
        for _ in range(MAX_AUTOMATIC_STEPS):
            if engine.is_over(state):
                return state
            bots = [s for s in engine.to_act(state) if table.seats[s].ai]
            if not bots:
                return state
            seat = bots[0]
            version = table.version + len(self.entries) + 1
            action = engine.ai_action(state, seat, Chooser(random.Random(f"{table.seed}:{version}:{seat}")))
            state = self.apply(state, seat, action)
        raise RuntimeError(f"bot seats of game {table.id} did not yield to a person")


def _result(trail: _Trail, table: Table, state: BaseModel | None, now: float, *,
            notice: str | None = None, history: str | None = None) -> StepResult:
    """The table after the step, with its number, status, places and deadline, and who is
    newly asked: the one place a step's consequences are worked out."""
    before, engine = trail.before, trail.engine
    table.version = before.table.version + max(1, len(trail.entries))
    results = None
    if state is not None and table.status == "active" and engine.is_over(state):
        table.status = "finished"
        # A player who left (their seat kept its user, a bot played on) played this game but
        # did not win it, whatever the bot did: they rank after everyone who stayed.
        last = len(table.seats) + 1
        results = [
            {"seat": o.seat, "user_id": table.seats[o.seat].user_id,
             "rank": last if table.seats[o.seat].left else o.rank,
             "score": o.score}
            for o in engine.outcomes(state)
        ]
    after = Moment(trail.spec, table, state, pictures=before.pictures)
    if trail.seen is not None and trail.seen[0] is state:
        after.known(None, trail.seen[1])
    table.deadline = _deadline(after, now)
    throughout = trail.throughout or set()
    newly = [s for s in after.humans if s not in throughout]
    fresh = [s for s, stamp in after.stamps.items() if before.stamps.get(s) != stamp] if after.playing else []
    return StepResult(before=before, after=after, entries=trail.entries, events=trail.events, newly=newly,
                      fresh=fresh, results=results, notice=notice, history=history)


def _deadline(after: Moment, now: float) -> float | None:
    """The table's timer, or the rules' own window when it is shorter (a call that must come at
    once); no timer while only bots act, or while paused."""
    table = after.table
    if not after.playing or table.paused or not after.humans:
        return None
    seconds = decision_seconds(after.engine, table.timer_seconds, after.state)
    return now + float(seconds) if seconds else None


def decision_seconds(engine: Any, timer: int | None, state: Any) -> int | None:
    """The time for the decisions awaited in ``state``: the table's timer, or the rules' own
    window (a call that must come at once) when that is shorter or the table has no timer."""
    window = engine.decision_window(state)
    return min(timer, window) if timer and window else (timer or window)


def _draft(before: Moment) -> Table:
    # a copy whose every changed field is replaced, never mutated in place; its seats too (a
    # changed seat is a new one), so the list alone is copied
    return before.table.model_copy(update={"seats": list(before.table.seats)})


def play(before: Moment, seat: int, action: BaseModel, now: float) -> StepResult:
    """A seat's move and the bot moves it sets off."""
    table = _draft(before)
    trail = _Trail(before, table)
    state = trail.apply(before.state, seat, action)  # type: ignore[arg-type]
    if action in before.shared:  # made in the open: a row drawn before it no longer counts for this seat
        table.seats[seat] = table.seats[seat].model_copy(update={"moved": trail.entries[0].version})
    state = trail.bots(state)
    return _result(trail, table, state, now)


def expire(before: Moment, now: float) -> StepResult:
    """A deadline passed: the rulings' default for everyone still owing a decision."""
    table = _draft(before)
    trail = _Trail(before, table)
    state = before.state
    late = list(before.humans)
    for seat in late:
        if seat in trail.engine.to_act(state):
            state = trail.apply(state, seat, None)  # type: ignore[arg-type]
    state = trail.bots(state)  # type: ignore[arg-type]
    names = and_list([safe(before.table.seats[s].name) for s in late]) if late else "nobody"
    return _result(trail, table, state, now, notice=f"⏰ Time ran out for {names}; the default was played.")


def leave(before: Moment, seat: int, name: str, now: float, *, notice: str | None = None) -> StepResult:
    """A player leaves mid-game (or the host hands their seat to a bot): a bot plays their seat
    from here. The seat keeps its player, who may take it back (``rejoin``)."""
    table = _draft(before)
    left = table.seats[seat]
    table.seats[seat] = left.model_copy(update={"ai": True, "name": f"{left.name}{LEFT}"})
    trail = _Trail(before, table)
    # a paused game: the bot takes the seat now and moves once the game is resumed
    state = before.state if table.paused else trail.bots(before.state)  # type: ignore[arg-type]
    return _result(trail, table, state, now, notice=notice or f"{safe(name)} left the table; a bot plays their seat.")


#: what a seat's name carries while a bot plays it for a player who left
LEFT = " (bot)"


def rejoin(before: Moment, seat: int, name: str, now: float) -> StepResult:
    """A player who left takes their seat back from the bot, as it stands: a mistaken
    /game leave, or an absent player the host handed to a bot, is not for good."""
    table = _draft(before)
    back = table.seats[seat]
    table.seats[seat] = back.model_copy(update={"ai": False, "name": back.name.removesuffix(LEFT)})
    trail = _Trail(before, table)
    return _result(trail, table, before.state, now, notice=f"{safe(name)} is back and plays their seat again.")


def start(before: Moment, now: float) -> StepResult:
    """The host starts the game: the engine deals, and bot seats play until a person acts."""
    spec, table = before.spec, _draft(before)
    engine = spec.engine
    options = engine.Options.model_validate(table.options)
    if spec.tavern is not None:
        options = spec.tavern.starting_options(options, [s.stake for s in table.seats])
    fewest, _ = engine.seat_range(options)
    if len(table.seats) < fewest:
        raise Refusal(f"{engine.title} needs at least {fewest} players: wait for someone to press **Join**, "
                      "or press **Add AI**.")
    try:
        state = engine.new_game(len(table.seats), options, table.seed)
    except GameError as exc:
        raise Refusal(str(exc)) from None
    table.status = "active"
    table.returning = {}  # what a player who left the last game took home waited on their Join alone
    trail = _Trail(before, table)
    state = trail.bots(state)
    return _result(trail, table, state, now,
                   history=f"🎲 **{engine.title}** · {and_list([safe(s.name) for s in table.seats])} sat down.")


def resettle(before: Moment, now: float, **changes: Any) -> StepResult:
    """A host's change to how the table runs (its clock, a pause, the end): a new move number
    and the deadline it now implies, no move; but a game resumed lets the bot play the seats it
    took while it was paused (a player who left meanwhile), as it would have at once."""
    table = _draft(before)
    for name, value in changes.items():
        setattr(table, name, value)
    trail, state = _Trail(before, table), before.state
    if before.table.paused and not table.paused and table.status == "active" and state is not None:
        state = trail.bots(state)
    return _result(trail, table, state, now)
