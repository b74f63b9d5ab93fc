"""The fuzz campaign's checks catch what they are for: a message that lets a mass mention ping,
a seat's secret shown to someone else, a refusal answered in public or silently, a sealed choice
told in a move's events. (A check that never fires proves nothing; these make each fire.)"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

from bot import present
from bot.models import Book, LogEntry, Seat, Table
from bot.step import Moment
from rules.base import Event
from tests.e2e.secrecy import SPECS, Follower, seat_words
from tests.e2e.watch import PUBLIC, Shown, answer_problem, strings, unmuted


def test_a_message_without_muted_mass_mentions_is_told() -> None:
    assert unmuted({"content": "hi"}) is not None
    assert unmuted({"allowed_mentions": {"parse": ["users", "everyone"]}}) is not None
    assert unmuted({"allowed_mentions": {"parse": ["roles"]}}) is not None
    assert unmuted({"allowed_mentions": {"parse": [], "roles": ["1"]}}) is not None
    assert unmuted({"allowed_mentions": {"parse": ["users"], "replied_user": True}}) is None
    assert unmuted({"allowed_mentions": {"parse": []}}) is None


def test_every_word_a_message_shows_is_read() -> None:
    body = {"content": "one\ntwo", "embeds": [{"title": "t", "fields": [{"name": "f", "value": "v"}]}],
            "attachments": [{"id": 0, "description": "alt text"}],
            "components": [{"type": 17, "components": [
                {"type": 10, "content": "shown"}, {"type": 12, "items": [{"media": {}, "description": "picture"}]},
                {"type": 1, "components": [{"type": 2, "label": "Press"},
                                           {"type": 3, "placeholder": "Pick", "options": [{"label": "d6"}]}]}]}]}
    assert strings(body) >= {"one", "two", "t", "f", "v", "alt text", "shown", "picture", "Press", "Pick", "d6"}


def _ante() -> tuple[Table, Any]:
    """Roll the Bones in its sealed ante, seat 1 having put a die in."""
    spec = SPECS["roll_the_bones"]
    engine = spec.engine
    state = engine.new_game(3, engine.Options(), 5)
    add = next(a for a in engine.legal_actions(state, 0) if a.kind == "ante_add")
    state, _ = engine.apply(state, 0, add)
    table = Table(id=1, guild_id=1, channel_id=1, game="roll_the_bones", host_id=11, seed=5, status="active",
                  seats=[Seat(user_id=11 + i, name=n) for i, n in enumerate(("Ann", "Bob", "Cy"))],
                  state=state.model_dump(mode="json"), version=3)
    return table, state


def test_a_seat_s_secret_shown_to_the_channel_or_another_player_is_told() -> None:
    table, state = _ante()
    mine = seat_words(Moment(SPECS["roll_the_bones"], table, state), 0)
    follower = Follower(db=None, channel_id=1)  # type: ignore[arg-type]
    assert follower.leaks(table, [state], [Shown(PUBLIC, mine, "POST /channels/1/messages")])
    assert follower.leaks(table, [state], [Shown(13, mine, "POST /webhooks/x")]), "Cy was shown Ann's ante"
    assert not follower.leaks(table, [state], [Shown(11, mine, "POST /channels/dm/messages")]), "Ann's own"
    public = strings({"components": present.table_message(Moment(SPECS["roll_the_bones"], table, state),
                                                          Book()).layout.to_components()})
    assert not follower.leaks(table, [state], [Shown(PUBLIC, public, "POST /channels/1/messages")])


def _interaction(response: dict[str, Any] | None, ephemeral: dict[int, Any], message_ids: list[int],
                 followup_ids: list[int] | None = None, guild_id: str | None = "1") -> Any:
    return SimpleNamespace(response=response, ephemeral=ephemeral, message_ids=message_ids,
                           followup_ids=followup_ids or [], original_edits=0, name="bn:act:1:s0:x:0",
                           user=SimpleNamespace(name="dee"), type=3, payload={"guild_id": guild_id})


def test_a_refusal_must_be_private_and_say_why() -> None:
    fd = SimpleNamespace(_where={5: ("ephemeral", 1), 6: ("channel", 9)})
    told = {5: {"content": "Not your turn: waiting for Ann."}}
    private = {"type": 4, "data": {"flags": 64}}
    def said(*args: Any) -> str:
        found = answer_problem(fd, _interaction(*args[:-1]), args[-1])  # type: ignore[arg-type]
        return "" if found is None else " ".join(found)

    assert said(private, told, [5], True) == ""
    assert "everyone sees" in said({"type": 4}, {}, [6], True)
    assert "others see" in said({"type": 5}, {}, [6], [6], True)
    assert "edited" in said({"type": 7}, {}, [], True)
    # a DM copy saying in place that the press did not count is private, with its reason; a
    # table edited so, or a DM edited into anything else, is not
    passed = {"type": 7, "data": {"content": "That moment has passed: this copy now shows the game as it stands."}}
    assert answer_problem(fd, _interaction(passed, {}, [], guild_id=None), True) is None  # type: ignore[arg-type]
    assert "edited" in " ".join(answer_problem(fd, _interaction(passed, {}, []), True) or ())  # type: ignore[arg-type]
    other = {"type": 7, "data": {"content": "Your ante: d8"}}
    assert "edited" in " ".join(answer_problem(fd, _interaction(other, {}, [], guild_id=None), True) or ())  # type: ignore[arg-type]
    assert "without a reason" in said(private, {5: {"content": ""}}, [5], True)
    assert "silent" in said({"type": 6}, {}, [], False)
    assert "public message" in said({"type": 4, "data": {}}, {}, [6], False)


class _Telling:
    """Roll the Bones, but a pick is told in its event: the leak the events check is for."""

    def __init__(self) -> None:
        self._engine = SPECS["roll_the_bones"].engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Event]]:
        state, events = self._engine.apply(state, seat, action)
        if action.kind == "ante_add":
            events = [Event(kind="chose", text=f"Seat {seat + 1} antes a d{action.sides}", seat=seat), *events]
        return state, events


def test_a_sealed_choice_told_in_events_is_found() -> None:
    engine = _Telling()
    state = engine.new_game(3, engine.Options(), 5)
    follower = Follower(db=None, channel_id=1)  # type: ignore[arg-type]
    rng = random.Random(1)
    for version, seat in enumerate(engine.to_act(state), start=1):
        action = rng.choice([a for a in engine.legal_actions(state, seat) if a.kind == "ante_add"])
        after, events = engine.apply(state, seat, action)
        entry = LogEntry(version=version, seat=seat, user_id=None, action=action.model_dump(mode="json"), events=[])
        follower._hold_events(SimpleNamespace(engine=engine), state, entry, after, events)  # type: ignore[arg-type]
        state = after
    assert follower.problems.get("a sealed choice or hidden card told in events")
