"""A Knucklebones turn, step by step, as the rulebook has it (RULINGS.md section 4).

Roll the active dice, do the runes that act before scoring, score one item of the sheet, do
the runes that act after scoring, pass the dice on. The state always waits for a real
decision: whatever the rules do by themselves (a 3 adding a die, a 2 with nothing to reroll,
the 5s and 6s after scoring, rolling the next seat's dice) happens here, and each of those
steps leaves an event with its figures (dice by id, 0-6).

Everything here but ``new_state`` and ``start_turn`` works on a state the caller has copied.
"""

from __future__ import annotations

from typing import Any

from rules.base import Event, copy_state
from rules.knucklebones.models import (
    ADD,
    ADD_AFTER,
    FACES,
    ITEMS,
    POOL_SIZE,
    REMOVE_AFTER,
    START_ACTIVE,
    Die,
    KnucklebonesAction,
    KnucklebonesOptions,
    KnucklebonesState,
)
from rules.knucklebones.moves import asks, targets, waiting
from rules.knucklebones.scoring import evaluate, hand_meets, hand_of, totals
from rules.knucklebones.text import event_text
from rules.rng import Dice

#: a safety net only: a turn resolves in at most ~14 rolls (KB-2: every 2 or 4 spends itself)
_STEP_GUARD = 200


def _event(state: KnucklebonesState, kind: str, **data: Any) -> Event:
    seats = (state.current,)
    return Event(kind=kind, seat=state.current, seats=seats, data=data,
                 text=event_text(kind, seats, data))


def _active(state: KnucklebonesState) -> list[Die]:
    return [d for d in state.pool if d.active]


def active_count(state: KnucklebonesState) -> int:
    return len(_active(state))


def _first_inactive(state: KnucklebonesState) -> Die | None:
    return next((d for d in state.pool if not d.active), None)


def _roll(state: KnucklebonesState, die: Die) -> int:
    """A newly rolled die brings its own pre-scoring rune with it (KB-2 HR)."""
    die.face = state.dice.roll(FACES)
    die.resolved = False
    return die.face


def _clear_turn_marks(state: KnucklebonesState) -> None:
    for die in state.pool:
        if die.spent or die.doubled or die.resolved:
            die.spent, die.doubled, die.resolved = False, 0, False


def new_state(seats: int, options: KnucklebonesOptions, seed: int) -> KnucklebonesState:
    """Five active dice and two inactive, a random start player (KB-7), whose dice are rolled."""
    dice = Dice(seed=seed)
    start = dice.below(seats)
    state = KnucklebonesState(
        seats=seats,
        options=options,
        pool=[Die(id=i, active=i < START_ACTIVE) for i in range(POOL_SIZE)],
        sheets=[{key: None for key in ITEMS} for _ in range(seats)],
        start_seat=start,
        current=start,
        phase="score",
        dice=dice,
    )
    _begin_turn(state, [])
    return state


def start_turn(state: KnucklebonesState) -> tuple[KnucklebonesState, list[Event]]:
    """Begin the current seat's turn afresh: roll its active dice and settle to a decision.

    What every turn starts with; public so that tests and tools can stage a turn from forced
    dice (put them in ``state.dice.forced`` first). Not a player action."""
    new = copy_state(state)
    events: list[Event] = []
    _begin_turn(new, events)
    return new, events


def apply_action(state: KnucklebonesState, action: KnucklebonesAction) -> list[Event]:
    """One legal decision of the current seat, and everything that follows by itself."""
    events: list[Event] = []
    if action.kind == "score":
        assert action.item is not None
        _score(state, action.item, events)
        _after_scoring(state, events)
        _pass_dice(state, events)
        return events
    if action.kind == "reroll":
        _reroll(state, action, events)
    elif action.kind == "double":
        _double(state, action, events)
    else:
        _keep(state, action, events)
    _resolve(state, events)
    return events


def _begin_turn(state: KnucklebonesState, events: list[Event]) -> None:
    _clear_turn_marks(state)
    for die in state.pool:
        if die.active:
            _roll(state, die)
        else:
            die.face = None
    events.append(_event(state, "roll", faces=[d.face for d in _active(state)]))
    _resolve(state, events)


def _resolve(state: KnucklebonesState, events: list[Event]) -> None:
    """Do every pre-scoring step that needs nobody, until a 2 or 4 asks or scoring is due."""
    for _ in range(_STEP_GUARD):
        runes = waiting(state)
        if not runes:
            state.phase, state.pending = "score", None
            return
        die = runes[0]
        if die.face == ADD:
            _three_adds(state, die, events)
            continue
        if not targets(state, die):
            die.resolved = True  # «If you are unable to perform an action, skip it.»
            events.append(_event(state, "skip", die=die.id, face=die.face, why="no_target"))
            continue
        state.phase = asks(die)
        state.pending = die.id
        return
    raise RuntimeError("knucklebones: a turn did not settle")  # unreachable: KB-2


def _three_adds(state: KnucklebonesState, three: Die, events: list[Event]) -> None:
    three.resolved = True
    added = _first_inactive(state)
    if added is None:
        events.append(_event(state, "skip", die=three.id, face=ADD, why="no_inactive"))
        return
    added.active = True  # KB-4: it stays until a 6 removes it
    face = _roll(state, added)
    events.append(_event(state, "add", die=three.id, face=ADD, added=added.id, rolled=face))


def _reroll(state: KnucklebonesState, action: KnucklebonesAction, events: list[Event]) -> None:
    assert action.die is not None and action.target is not None
    two, target = state.pool[action.die], state.pool[action.target]
    two.spent = two.resolved = True
    before = target.face
    after = _roll(state, target)
    events.append(_event(state, "reroll", die=two.id, target=target.id, before=before,
                         after=after))


def _double(state: KnucklebonesState, action: KnucklebonesAction, events: list[Event]) -> None:
    assert action.die is not None and action.target is not None
    four, target = state.pool[action.die], state.pool[action.target]
    four.spent = four.resolved = True
    target.doubled += 1
    events.append(_event(state, "double", die=four.id, target=target.id, face=target.face))


def _keep(state: KnucklebonesState, action: KnucklebonesAction, events: list[Event]) -> None:
    assert action.die is not None
    die = state.pool[action.die]
    die.resolved = True  # «Spending a die is always optional»: it stays and scores as itself
    events.append(_event(state, "keep", die=die.id, face=die.face))


def _score(state: KnucklebonesState, key: str, events: list[Event]) -> None:
    item = ITEMS[key]
    points = evaluate(state.pool, item)
    state.sheets[state.current][key] = points
    met = hand_meets(hand_of(state.pool), item)
    events.append(_event(state, "score", item=key, name=item.name, points=points, met=met))


def _after_scoring(state: KnucklebonesState, events: list[Event]) -> None:
    """KB-2: every 5, then every 6; with 7 active, a 5 and a 6, that leaves 6 active."""
    for five in [d for d in state.pool if d.counts and d.face == ADD_AFTER]:
        added = _first_inactive(state)
        if added is None:
            events.append(_event(state, "skip", die=five.id, face=ADD_AFTER, why="no_inactive"))
            continue
        added.active, added.face = True, None  # rolled with the others next turn
        events.append(_event(state, "add", die=five.id, face=ADD_AFTER, added=added.id))
    floor = state.options.min_active
    for six in [d for d in state.pool if d.counts and d.face == REMOVE_AFTER]:
        if len(_active(state)) <= floor:  # KB-5: at the floor a 6 is «unable» and skipped
            events.append(_event(state, "skip", die=six.id, face=REMOVE_AFTER, why="floor",
                                 floor=floor))
            continue
        six.active, six.face = False, None
        events.append(_event(state, "remove", die=six.id, face=REMOVE_AFTER))


def _pass_dice(state: KnucklebonesState, events: list[Event]) -> None:
    _clear_turn_marks(state)
    state.pending = None
    if all(None not in sheet.values() for sheet in state.sheets):
        # «once each player has scored all items on their score sheet»
        state.phase = "over"
        scores = totals(state)
        winners = tuple(s for s, t in enumerate(scores) if t == max(scores))
        events.append(Event(kind="over", seats=winners, data={"totals": scores},
                            text=event_text("over", winners, {})))
        return
    state.current = (state.current + 1) % state.seats
    state.turn += 1
    _begin_turn(state, events)
