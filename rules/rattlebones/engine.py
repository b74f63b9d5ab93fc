"""Rattlebones as Boneyard plays it: the rulebook plus RULINGS.md section 3, RT-1 to RT-13.

A turn: choose the dice to throw (paying gold for extra dice), then use each thrown die in the
order the player picks. A die moves a monkey (pips, the Rattlebones icon, a 9-Pip), and the
space it lands on may put a new side on *that* die; or the die does its action. The state
always waits for a real decision: when only one die is left to use, or only one monkey can
be meant, or a victim of the Thief has one thing to take, the engine goes on by itself and
says so in an event.

Seats are "Seat 1".."Seat N" in event text, dice "die 1".."die 3" and faces "side 1".."side 6"
(side 1 is always the Rattlebones icon), so a renderer can put names and pictures in.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel

from rules.base import Chooser, Engine, Event, GameError, IllegalAction, Outcome
from rules.rattlebones.board import DATA, POINT_VALUES, TILE, side_name, space_name, space_short
from rules.rattlebones.dice import (
    CHANGEABLE,
    RB,
    adjacent,
    arrow,
    face_name,
    follow,
    kind_of,
    points,
    start_die,
    supply_key,
    value_of,
)
from rules.rattlebones.models import (
    DICE_PER_PLAYER,
    MAX_SEATS,
    MAX_TURNS,
    MIN_SEATS,
    MONKEYS,
    DecisionView,
    Player,
    PlayerView,
    RattlebonesAction,
    RattlebonesOptions,
    RattlebonesState,
    RattlebonesView,
    Roll,
    RollView,
    SpaceView,
    Step,
    Take,
)
from rules.rng import Dice


@functools.lru_cache(maxsize=4096)
def A(kind: str, **fields: Any) -> RattlebonesAction:  # noqa: N802 - reads as the model
    """Actions are frozen, so the lists legal_actions returns share one of each (and a caller
    passing one back compares by identity first)."""
    return RattlebonesAction(kind=kind, **fields)  # type: ignore[arg-type]

TAKES: tuple[Take, ...] = ("gold", "star", "stock")  # RULINGS 3.3: gold > star > ticket
NINE = 9
#: the most decisions one turn can ask for: the throw, then at most five dice used (three
#: dice, two of them thrown again by Roll Again), each asking at most which die, which monkey,
#: how far, which side and where the arrow points (a Thief: which die and three victims; an
#: x2: where it goes). A timeout plays out the rest of the turn as one action.
MOVES_PER_TURN = 1 + 5 * 5
#: a safety net for the loop that goes on by itself; a turn settles in a dozen steps
_STEP_GUARD = 100


# -- small helpers --------------------------------------------------------------------------


_M = TypeVar("_M", bound=BaseModel)


def _clone(model: _M, **changes: Any) -> _M:
    """A shallow copy with some fields replaced: what ``model_copy(update=...)`` does, without
    its per-call overhead, which was a third of every ``apply``."""
    new = model.__class__.__new__(model.__class__)
    fields = dict(model.__dict__)
    fields.update(changes)
    object.__setattr__(new, "__dict__", fields)
    object.__setattr__(new, "__pydantic_fields_set__", set(model.__pydantic_fields_set__))
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


def _copy(state: RattlebonesState) -> RattlebonesState:
    """A copy sharing nothing that ``apply`` changes, so the caller's state is never touched.

    Built by hand from shallow copies: a dump and re-validation costs three times as much, and
    the simulation tests check every state through the store's JSON anyway. Options are
    shared: nothing changes them after ``new_game``."""
    step = state.step
    return _clone(
        state,
        board=list(state.board),
        tiles=list(state.tiles),
        players=[_clone(p, monkeys=list(p.monkeys), dice=[list(d) for d in p.dice])
                 for p in state.players],
        supply=dict(state.supply),
        rolls=[_clone(r) for r in state.rolls],
        step=None if step is None else _clone(step, victims=list(step.victims)),
        dice=_clone(state.dice, forced=list(state.dice.forced)),
    )


def _who(seat: int) -> str:
    return f"Seat {seat + 1}"


def _ev(state: RattlebonesState, kind: str, text: str) -> Event:
    return Event(kind=kind, seat=state.current, text=text)


def _me(state: RattlebonesState) -> Player:
    return state.players[state.current]


def _pending(state: RattlebonesState) -> list[Roll]:
    """Dice still to be used, x2 aside (an x2 waits for the others, RT-6)."""
    return [r for r in state.rolls if r.state == "pending" and r.acts_as != "x2"]


def _roll_of(state: RattlebonesState, die: int) -> Roll:
    """The die's latest throw this turn (Roll Again gives a die a second one)."""
    return next(r for r in reversed(state.rolls) if r.die == die)


def _rolled_dice(state: RattlebonesState) -> set[int]:
    return {r.die for r in state.rolls}


def _unrolled(state: RattlebonesState) -> list[int]:
    rolled = _rolled_dice(state)
    return [d for d in range(DICE_PER_PLAYER) if d not in rolled]


def star_value(n: int, store: str = "linear") -> int:
    """RT-8: the Store pays 3/7/11/15 for 1-4 stars; more than 4 pay 4n-1, or (the option)
    in batches of at most 4, each at the chart's price."""
    if n <= 0:
        return 0
    chart = DATA.star_chart
    if n <= len(chart):
        return chart[n - 1]
    if store == "linear":
        return 4 * n - 1
    batches, rest = divmod(n, len(chart))
    return batches * chart[-1] + (chart[rest - 1] if rest else 0)


def stock_payout(holdings: list[int]) -> list[int]:
    """RT-10: the points each seat scores when the last ticket leaves the supply.

    Seats holding none never place. One seat holding all five: 15. Otherwise a single leader
    scores 10 and a single second 5; seconds tied 2 each; leaders tied 7 each and the next
    group 2 each."""
    total = sum(holdings)
    paid = [0] * len(holdings)
    holders = sorted({h for h in holdings if h > 0}, reverse=True)
    if not holders:
        return paid
    top = [s for s, h in enumerate(holdings) if h == holders[0]]
    if len(top) == 1 and holdings[top[0]] == total:
        paid[top[0]] = 15
        return paid
    second = [s for s, h in enumerate(holdings) if len(holders) > 1 and h == holders[1]]
    if len(top) == 1:
        paid[top[0]] = 10
        for s in second:
            paid[s] = 5 if len(second) == 1 else 2
    else:
        for s in top:
            paid[s] = 7
        for s in second:
            paid[s] = 2
    return paid


def place_of(state: RattlebonesState, seat: int) -> int:
    """RT-9: 1 + the players with strictly more points."""
    mine = state.players[seat].score
    return 1 + sum(p.score > mine for p in state.players)


def leaders(state: RattlebonesState) -> list[int]:
    """RT-12: the highest score, then gold + stars + stock; what is still equal is a tie."""
    def key(p: Player) -> tuple[int, int]:
        return p.score, p.gold + p.stars + p.stock

    best = max(key(p) for p in state.players)
    return [s for s, p in enumerate(state.players) if key(p) == best]


def _monkey_choices(state: RattlebonesState) -> list[int]:
    """Monkeys on the same space are the same choice: offer the first of each space."""
    seen: set[int] = set()
    choices = []
    for m, space in enumerate(_me(state).monkeys):
        if space not in seen:
            seen.add(space)
            choices.append(m)
    return choices


def _side_on_offer(state: RattlebonesState) -> str | None:
    """The side the landing space hands out, as a supply key (None: START/STORE)."""
    assert state.step is not None and state.step.space is not None
    kind = state.board[state.step.space]
    if kind == "start":
        return None
    return points(1) if kind == "plus_one" else kind


def _landing_actions(state: RattlebonesState) -> list[RattlebonesAction]:
    """The ways to change the rolled die on this space, "keep" aside (RT-4, RT-11)."""
    step = state.step
    assert step is not None and step.space is not None
    faces = _me(state).dice[step.die]
    kind = state.board[step.space]
    out: list[RattlebonesAction] = []
    if kind == "plus_one":
        if state.supply.get(points(1), 0) > 0:
            out += [A(kind="replace", slot=s) for s in CHANGEABLE if faces[s] != points(1)]
        for s in CHANGEABLE:
            if kind_of(faces[s]) == "points" and value_of(faces[s]) < max(POINT_VALUES):
                if state.supply.get(points(value_of(faces[s]) + 1), 0) > 0:
                    out.append(A(kind="upgrade", slot=s))
        return out
    if state.supply.get(kind, 0) <= 0:
        return out
    if kind == "arrow":
        return [A(kind="replace", slot=s) for s in CHANGEABLE]
    return [A(kind="replace", slot=s) for s in CHANGEABLE if faces[s] != kind]


def _x2_targets(state: RattlebonesState, x2: Roll) -> list[Roll]:
    """RT-6: another die of this turn, used, with a gain, not doubled yet."""
    return [r for r in state.rolls if r.state == "done" and r.die != x2.die and r.gain
            and r.amount > 0 and not r.doubled]


def _first_x2(state: RattlebonesState) -> Roll | None:
    return next((r for r in state.rolls if r.state == "pending" and r.acts_as == "x2"), None)


def _ready_x2(state: RattlebonesState) -> Roll | None:
    """The first x2 waiting that already has a die to double."""
    return next((r for r in state.rolls if r.state == "pending" and r.acts_as == "x2"
                 and _x2_targets(state, r)), None)


def _double_actions(x2: Roll | None, state: RattlebonesState) -> list[RattlebonesAction]:
    if x2 is None:
        return []
    return [A(kind="double", die=x2.die, target=r.die) for r in _x2_targets(state, x2)]


def _takes(player: Player) -> list[Take]:
    have = {"gold": player.gold, "star": player.stars, "stock": player.stock}
    return [t for t in TAKES if have[t] > 0]


# -- the turn, step by step (on a state the caller has already copied) ----------------------


def _begin_turn(state: RattlebonesState) -> None:
    state.phase = "roll"
    state.rolls = []
    state.step = None
    state.gold_spent = 0
    state.turn_moves = 0


def _end_turn(state: RattlebonesState, events: list[Event]) -> None:
    state.step = None
    if state.turn >= MAX_TURNS:
        state.phase, state.end_reason = "over", "cap"
        state.rolls = []
        events.append(Event(kind="over", text=f"The game reached its {MAX_TURNS}-turn limit "
                                              "and ends on the scores as they stand."))
        return
    state.current = (state.current + 1) % state.seats
    state.turn += 1
    _begin_turn(state)


def _check_end(state: RattlebonesState, events: list[Event]) -> bool:
    """«The game ends immediately whenever the Rattlebones pawn and a player pawn meet or
    pass»; dice not used yet are dropped (RT-12)."""
    if max(p.score for p in state.players) < state.rattlebones:
        return False
    state.phase, state.end_reason, state.step = "over", "rattlebones", None
    for r in state.rolls:
        if r.state == "pending":
            r.state = "dropped"
    won = leaders(state)
    names = " and ".join(_who(s) for s in won)
    events.append(Event(kind="over", text=f"A mouse meets Rattlebones on {state.rattlebones}: "
                                          f"the game is over. {names} "
                                          f"{'wins' if len(won) == 1 else 'tie'}."))
    return True


def _score(state: RattlebonesState, seat: int, n: int, why: str, events: list[Event]) -> None:
    player = state.players[seat]
    player.score += n
    events.append(_ev(state, "score", f"{_who(seat)} scores {n} ({why}): "
                                      f"{player.score} point{'' if player.score == 1 else 's'}"))


def _rattlebones_back(state: RattlebonesState, events: list[Event]) -> bool:
    """Rattlebones steps back one space; True when that ends the game."""
    state.rattlebones = max(0, state.rattlebones - 1)
    events.append(_ev(state, "rattlebones", f"Rattlebones steps back to {state.rattlebones}"))
    return _check_end(state, events)


def _throw(state: RattlebonesState, dice: list[int], events: list[Event]) -> None:
    faces_seen = []
    for die in dice:
        faces = _me(state).dice[die]
        slot = state.dice.roll(6) - 1
        acts_as, _ = follow(faces, slot)
        state.rolls.append(Roll(die=die, slot=slot, face=faces[slot], acts_as=acts_as))
        shown = face_name(faces[slot])
        if kind_of(faces[slot]) == "arrow":
            shown += f" ({face_name(acts_as)})"
        faces_seen.append(f"die {die + 1}: {shown}")
    events.append(_ev(state, "throw", f"{_who(state.current)} throws " + ", ".join(faces_seen)))


def _advance(state: RattlebonesState, events: list[Event]) -> None:
    """Go on until a player must decide: use the only die left, drop an x2 with nothing to
    double, end the turn when every die is used."""
    for _ in range(_STEP_GUARD):
        if state.phase == "over" or state.step is not None:
            return
        pending = _pending(state)
        if len(pending) >= 2 or (pending and _ready_x2(state) is not None):
            state.phase = "order"  # RT-6: an x2 may go as soon as it has a die to double
            return
        if len(pending) == 1:
            _use(state, pending[0], events)
            continue
        x2 = _first_x2(state)
        if x2 is not None:
            if _x2_targets(state, x2):
                state.phase = "x2"
                return
            x2.state = "dropped"
            events.append(_ev(state, "x2", f"x2 on die {x2.die + 1} has nothing to double"))
            continue
        _end_turn(state, events)
        return
    raise RuntimeError("rattlebones: a turn did not settle")  # unreachable: dice run out


def _use(state: RattlebonesState, roll: Roll, events: list[Event]) -> None:
    """Use one thrown die: a move, or its action."""
    roll.state = "done"
    face = roll.acts_as
    me = state.current
    die = roll.die
    if face is None:
        events.append(_ev(state, "arrow", f"The arrows on die {die + 1} go round in a circle: "
                                          "nothing happens"))
        return
    kind = kind_of(face)
    if kind == "rb":
        if _rattlebones_back(state, events):
            return
        state.step = Step(die=die, acts_as=face, steps=1)
        _ask_monkey(state, events)
    elif kind == "pip":
        state.step = Step(die=die, acts_as=face, steps=value_of(face))
        _ask_monkey(state, events)
    elif kind == "nine_pip":
        state.step = Step(die=die, acts_as=face)
        _ask_monkey(state, events)
    elif kind in ("gold", "star"):
        _give(state, roll, kind, 1, events)
    elif kind in ("points", "train", "place"):
        if kind == "points":
            n, why = value_of(face), "points side"
        elif kind == "train":
            n, why = state.options.train_values[state.train], f"the train on {state.train}"
        else:
            n = place_of(state, me)
            why = f"1234, place {n}"
        roll.gain, roll.amount = "points", n
        if n:
            _score(state, me, n, why, events)
        else:
            events.append(_ev(state, "score", f"{_who(me)} scores nothing ({why})"))
        if kind == "train":
            state.train = (state.train + 1) % len(state.options.train_values)
            events.append(_ev(state, "train", f"The train moves on to space {state.train}"))
        _check_end(state, events)
    elif kind == "roll_again":
        unrolled = _unrolled(state)
        if not unrolled:
            roll.state = "dropped"
            events.append(_ev(state, "roll_again", f"Roll Again on die {die + 1} is ignored: "
                                                   "every die has been thrown this turn"))
        elif len(unrolled) == 1:
            _roll_again(state, die, unrolled[0], events)
        else:
            state.step = Step(die=die, acts_as=face)
            state.phase = "add_die"
    elif kind == "thief":
        order = [(me + k) % state.seats for k in range(1, state.seats)]
        victims = [s for s in order if _takes(state.players[s])]
        if not victims:
            events.append(_ev(state, "thief", "Thief: nobody has anything to take"))
            return
        state.step = Step(die=die, acts_as=face, victims=victims)
        _next_victim(state, events)
    elif kind == "stock":
        _take_ticket(state, events)
    elif kind == "gamble":
        _gamble(state, events)
    else:  # pragma: no cover - an x2 never comes here, every other kind is above
        raise RuntimeError(f"no use for {face!r}")


def _give(state: RattlebonesState, roll: Roll, kind: str, n: int, events: list[Event]) -> None:
    """Gold or stars from the supply, as many as are left («he takes none»)."""
    player = _me(state)
    roll.gain, roll.amount = ("gold" if kind == "gold" else "star"), n
    if kind == "gold":
        got = min(n, state.gold)
        state.gold -= got
        player.gold += got
    else:
        got = min(n, state.stars)
        state.stars -= got
        player.stars += got
    noun = "gold" if kind == "gold" else ("star" if got == 1 else "stars")
    if got:
        events.append(_ev(state, kind, f"{_who(state.current)} takes {got} {noun}"))
    else:
        events.append(_ev(state, kind, f"No {'gold' if kind == 'gold' else 'stars'} left "
                                       "in the supply"))


def _take_ticket(state: RattlebonesState, events: list[Event]) -> None:
    if state.stock <= 0:  # unreachable: the payout refills the supply at once
        events.append(_ev(state, "stock", "No stock tickets left"))
        return
    state.stock -= 1
    _me(state).stock += 1
    events.append(_ev(state, "stock", f"{_who(state.current)} takes a stock ticket "
                                      f"({state.stock} left)"))
    if state.stock:
        return
    paid = stock_payout([p.stock for p in state.players])  # RT-10: only from the supply
    events.append(_ev(state, "stock", "The last stock ticket is taken: the stock pays out"))
    for seat, n in enumerate(paid):
        if n:
            _score(state, seat, n, f"stock, {state.players[seat].stock} tickets", events)
    for p in state.players:
        p.stock = 0
    state.stock = DATA.stock
    _check_end(state, events)


def _gamble(state: RattlebonesState, events: list[Event]) -> None:
    face = DATA.gamble_die[state.dice.roll(len(DATA.gamble_die)) - 1]
    events.append(_ev(state, "gamble", f"The Gamble die shows {face_name(face)}"))
    if face == RB:
        _rattlebones_back(state, events)  # «He does not move his pawn.»
        return
    _score(state, state.current, value_of(face), "Gamble die", events)
    _check_end(state, events)


def _roll_again(state: RattlebonesState, die: int, added: int, events: list[Event]) -> None:
    state.step = None
    events.append(_ev(state, "roll_again", f"Roll Again: die {die + 1} is thrown again "
                                           f"with die {added + 1}"))
    _throw(state, [die, added], events)


def _next_victim(state: RattlebonesState, events: list[Event]) -> None:
    """Ask about the next victim, taking at once from one who has only one kind of thing."""
    step = state.step
    assert step is not None
    while step.victims:
        takes = _takes(state.players[step.victims[0]])
        if len(takes) > 1:
            state.phase = "thief"
            return
        _steal(state, step.victims.pop(0), takes[0], events)
    state.step = None


def _steal(state: RattlebonesState, victim: int, take: Take, events: list[Event]) -> None:
    """RT-10: a ticket taken by a Thief never triggers the payout."""
    thief, robbed = _me(state), state.players[victim]
    field = {"gold": "gold", "star": "stars", "stock": "stock"}[take]
    setattr(robbed, field, getattr(robbed, field) - 1)
    setattr(thief, field, getattr(thief, field) + 1)
    noun = {"gold": "1 gold", "star": "1 star", "stock": "1 stock ticket"}[take]
    events.append(_ev(state, "thief", f"{_who(state.current)} steals {noun} "
                                      f"from {_who(victim)}"))


def _ask_monkey(state: RattlebonesState, events: list[Event]) -> None:
    choices = _monkey_choices(state)
    if len(choices) == 1:
        _choose_monkey(state, choices[0], events)
    else:
        state.phase = "monkey"


def _choose_monkey(state: RattlebonesState, monkey: int, events: list[Event]) -> None:
    step = state.step
    assert step is not None
    step.monkey = monkey
    if step.steps is None:
        state.phase = "distance"
    else:
        _move(state, events)


def _move(state: RattlebonesState, events: list[Event]) -> None:
    step = state.step
    assert step is not None and step.monkey is not None and step.steps is not None
    player = _me(state)
    space = (player.monkeys[step.monkey] + step.steps) % len(state.board)
    player.monkeys[step.monkey] = space
    step.space = space
    kind = state.board[space]
    spaces = f"{step.steps} space{'' if step.steps == 1 else 's'}"
    events.append(_ev(state, "move", f"{_who(state.current)} moves monkey {step.monkey + 1} "
                                     f"{spaces} to {space_name(kind)} (space {space})"))
    if kind == "start":
        if player.stars:
            state.phase = "store"
        else:
            state.step = None
        return
    if _landing_actions(state):
        state.phase = "replace"
        return
    offered = _side_on_offer(state)
    assert offered is not None
    what = face_name(offered) if kind == "plus_one" else side_name(kind)
    events.append(_ev(state, "supply", f"No {what} side is left to put on the die"))
    state.step = None


def _replace(state: RattlebonesState, die: int, slot: int, new: str, events: list[Event]) -> None:
    """Put ``new`` on the die from the supply; the old side goes back, or out if it is pips."""
    faces = _me(state).dice[die]
    old = faces[slot]
    back = supply_key(old)
    if back is None:
        state.pips_in_play -= 1
    else:
        state.supply[back] += 1
    taken = supply_key(new)
    assert taken is not None and state.supply[taken] > 0
    state.supply[taken] -= 1
    faces[slot] = new
    events.append(_ev(state, "replace", f"{_who(state.current)} puts {face_name(new)} on die "
                                        f"{die + 1}, side {slot + 1} (was {face_name(old)})"))


# -- the bot player's policy ----------------------------------------------------------------

#: what a face is worth on a die, roughly in points a throw: points and x2 highest, pips low
_VALUE: dict[str, float] = {
    "rb": 0.5, "pip": 1.0, "gold": 1.8, "star": 1.8, "roll_again": 1.6, "train": 3.0,
    "nine_pip": 1.5, "thief": 1.6, "place": 2.2, "stock": 2.0, "x2": 2.6, "gamble": 2.3,
}


def face_value(faces: list[str], slot: int, alone: bool = False) -> float:
    """Roughly what the face is worth a throw: points and x2 highest, pips lowest. Thrown
    ``alone``, an x2 has nothing to double and Roll Again is the whole turn again."""
    face, path = follow(faces, slot)
    if face is None:
        return 0.0
    kind = kind_of(face)
    if kind == "points":
        value = 1.0 + 0.9 * value_of(face)
    elif alone and kind == "x2":
        value = 0.0
    else:
        value = _VALUE.get(kind, 1.0)
    return value * 0.95 if len(path) > 1 else value


def die_value(faces: list[str], alone: bool = False) -> float:
    return sum(face_value(faces, s, alone) for s in range(6)) / 6


def _replacement_gain(state: RattlebonesState, action: RattlebonesAction) -> float:
    step = state.step
    assert step is not None and action.slot is not None
    faces = list(_me(state).dice[step.die])
    before = die_value(faces)
    if action.kind == "upgrade":
        faces[action.slot] = points(value_of(faces[action.slot]) + 1)
    else:
        offered = _side_on_offer(state)
        assert offered is not None
        if offered == "arrow":
            best = max(adjacent(action.slot), key=lambda t: face_value(faces, t))
            faces[action.slot] = arrow(best)
        else:
            faces[action.slot] = offered
    return die_value(faces) - before


def _landing_value(state: RattlebonesState, space: int) -> float:
    """How good landing there is for the die in use: the best change it allows."""
    kind = state.board[space]
    if kind == "start":
        stars = _me(state).stars
        return 3.0 if stars >= 3 else 0.0
    assert state.step is not None
    trial = state.model_copy(update={"step": state.step.model_copy(update={"space": space})})
    gains = [_replacement_gain(trial, a) for a in _landing_actions(trial)]
    return max(gains, default=0.0)


# -- the engine -----------------------------------------------------------------------------


class RattlebonesEngine(Engine[RattlebonesState, RattlebonesAction, RattlebonesOptions]):
    key: ClassVar[str] = "rattlebones"
    title: ClassVar[str] = "Rattlebones"
    min_seats: ClassVar[int] = MIN_SEATS
    max_seats: ClassVar[int] = MAX_SEATS
    State = RattlebonesState
    Action = RattlebonesAction
    Options = RattlebonesOptions

    def new_game(self, seats: int, options: RattlebonesOptions, seed: int) -> RattlebonesState:
        options = RattlebonesOptions.model_validate(options).model_copy()
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise GameError(f"Rattlebones is for {MIN_SEATS} to {MAX_SEATS} players.")
        dice = Dice(seed=seed)
        layout = list(options.layout())
        tiles = list(DATA.tiles)
        slots = [i for i, kind in enumerate(layout) if kind == TILE]
        for i in slots:  # «Shuffle them and place 7 randomly on the blank spaces»
            layout[i] = tiles.pop(dice.below(len(tiles)))
        in_play = {k for k in layout if k not in ("start", "plus_one")}
        supply = {k: DATA.side_count for k in sorted(in_play)}
        if "plus_one" in layout:  # RT-4: point sides only where a +1 space hands them out
            split = DATA.point_sides[options.point_sides]
            supply.update({points(v): n for v, n in zip(POINT_VALUES, split)})
        players = [Player(monkeys=[0] * MONKEYS, dice=[start_die() for _ in range(DICE_PER_PLAYER)])
                   for _ in range(seats)]
        start = dice.below(seats)  # RT-13: the start player is random
        return RattlebonesState(
            seats=seats, options=options, board=layout, tiles=slots, players=players,
            start_seat=start, current=start, rattlebones=DATA.rattlebones_start[seats],
            supply=supply, pips_in_play=seats * DICE_PER_PLAYER * 5, gold=DATA.gold,
            stars=DATA.stars, stock=DATA.stock, dice=dice,
        )

    def move_cap(self, seats: int, options: RattlebonesOptions) -> int:
        """The most actions, timeouts included, before the game must be over: every turn asks
        at most MOVES_PER_TURN decisions (a timeout finishes the turn), and turn 2,000 is the
        last (RULINGS 3.5)."""
        return MAX_TURNS * MOVES_PER_TURN

    def to_act(self, state: RattlebonesState) -> list[int]:
        return [] if state.phase == "over" else [state.current]

    def legal_actions(self, state: RattlebonesState, seat: int) -> list[RattlebonesAction]:
        """Declining comes first wherever a decision can be declined (keep, sell none)."""
        if seat not in self.to_act(state):
            return []
        me = state.players[seat]
        step = state.step
        phase = state.phase
        if phase == "roll":
            out = [A(kind="roll", dice=(d,)) for d in range(DICE_PER_PLAYER)]
            if me.gold >= 1:
                out += [A(kind="roll", dice=(a, b)) for a in range(3) for b in range(a + 1, 3)]
            if me.gold >= 2:
                out.append(A(kind="roll", dice=(0, 1, 2)))
            return out
        if phase == "order":
            uses = [A(kind="use", die=r.die) for r in _pending(state)]
            return uses + _double_actions(_ready_x2(state), state)
        if phase == "x2":
            x2 = _first_x2(state)
            assert x2 is not None
            return _double_actions(x2, state) + [A(kind="no_double", die=x2.die)]
        assert step is not None
        if phase == "monkey":
            return [A(kind="monkey", monkey=m) for m in _monkey_choices(state)]
        if phase == "distance":
            return [A(kind="distance", n=n) for n in range(1, NINE + 1)]
        if phase == "replace":
            return [A(kind="keep")] + _landing_actions(state)
        if phase == "aim":
            assert step.slot is not None
            return [A(kind="aim", slot=t) for t in adjacent(step.slot)]
        if phase == "store":
            return [A(kind="sell", n=n) for n in range(me.stars + 1)]
        if phase == "add_die":
            return [A(kind="add_die", die=d) for d in _unrolled(state)]
        if phase == "thief":
            victim = step.victims[0]
            return [A(kind="steal", victim=victim, take=t) for t in _takes(state.players[victim])]
        raise AssertionError(phase)  # pragma: no cover

    def apply(self, state: RattlebonesState, seat: int, action: RattlebonesAction
              ) -> tuple[RattlebonesState, list[Event]]:
        self.check(state, seat, action)
        new = _copy(state)
        new.turn_moves += 1
        events: list[Event] = []
        _DISPATCH[action.kind](new, action, events)
        _advance(new, events)
        return new, events

    def view(self, state: RattlebonesState, seat: int | None) -> RattlebonesView:
        """Everything in Rattlebones is on the table, so every seat sees the same."""
        over = state.phase == "over"
        in_play = {k: n for k, n in state.supply.items()}
        return RattlebonesView(
            seats=state.seats, options=state.options, board_key=state.options.board,
            spaces=[SpaceView(index=i, kind=k, name=space_name(k), short=space_short(k),
                              tile=i in state.tiles) for i, k in enumerate(state.board)],
            players=[PlayerView(seat=s, score=p.score, gold=p.gold, stars=p.stars, stock=p.stock,
                                monkeys=list(p.monkeys), dice=[list(d) for d in p.dice],
                                place=place_of(state, s)) for s, p in enumerate(state.players)],
            start_seat=state.start_seat, current_seat=None if over else state.current,
            turn=state.turn, max_turns=MAX_TURNS, phase=state.phase, over=over,
            end_reason=state.end_reason, rattlebones=state.rattlebones,
            rattlebones_start=DATA.rattlebones_start[state.seats], score_track=DATA.score_track,
            train=state.train, train_values=list(state.options.train_values), supply=in_play,
            gold_supply=state.gold, star_supply=state.stars, stock_supply=state.stock,
            rolls=[RollView(**r.model_dump()) for r in state.rolls],
            decision=None if over else _decision(state), leaders=leaders(state),
        )

    def is_over(self, state: RattlebonesState) -> bool:
        return state.phase == "over"

    def outcomes(self, state: RattlebonesState) -> list[Outcome]:
        """RT-12: by score, then gold + stars + stock; still equal shares the place."""
        keys = [(p.score, p.gold + p.stars + p.stock) for p in state.players]
        return [Outcome(seat=s, rank=1 + sum(o > k for o in keys), score=state.players[s].score)
                for s, k in enumerate(keys)]

    def on_timeout(self, state: RattlebonesState, seat: int
                   ) -> tuple[RattlebonesState, list[Event]]:
        """RULINGS 3.3 for the rest of the seat's turn."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        events = [Event(kind="timeout", seat=seat, text=f"{_who(seat)} ran out of time: the "
                                                         "rest of the turn is played by default.")]
        turn = state.turn
        while state.turn == turn and not self.is_over(state):
            state, more = self.apply(state, seat, self.timeout_action(state, seat))
            events += more
        return state, events

    def timeout_action(self, state: RattlebonesState, seat: int) -> RattlebonesAction:
        """RULINGS 3.3: the leftmost die and no gold; dice in thrown order; the rearmost monkey
        (a 9-Pip moves it 9); no new side; sell every star; gold > star > ticket; x2 on the
        largest gain."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("It is not your turn.")
        phase = state.phase
        if phase == "monkey":
            monkeys = _me(state).monkeys
            return min(legal, key=lambda a: (monkeys[a.monkey or 0], a.monkey))
        if phase == "distance":
            return legal[-1]
        if phase == "store":
            return legal[-1]
        if phase == "x2":
            gains = {r.die: r.amount for r in state.rolls if r.state == "done"}
            doubles = [a for a in legal if a.kind == "double"]
            return max(doubles, key=lambda a: gains[a.target or 0]) if doubles else legal[-1]
        return legal[0]

    def ai_action(self, state: RattlebonesState, seat: int, choose: Chooser) -> RattlebonesAction:
        """Race sensibly: throw the best dice (gold buys more when there is gold to spare), move
        where the die can gain the most, build toward points and x2, sell stars at 3 or more,
        steal gold before stars before tickets. Deterministic."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("It is not your turn.")
        phase = state.phase
        me = state.players[seat]
        if phase == "roll":
            if me.gold >= 2:
                return legal[-1]  # all three: gold is worth most as dice
            alone = me.gold == 0
            values = [die_value(d, alone) for d in me.dice]
            sizes = [a for a in legal if len(a.dice or ()) == (1 if alone else 2)]
            return max(sizes, key=lambda a: sum(values[d] for d in a.dice or ()))
        if phase == "order":
            # actions before moves, so a move can land while a gain is already in hand
            moves = ("pip", "rb", "nine_pip")
            rolls = {r.die: r for r in _pending(state)}
            uses = [a for a in legal if a.kind == "use"]  # an x2 waits for the biggest gain
            return min(uses, key=lambda a: kind_of(rolls[a.die or 0].acts_as or "") in moves)
        if phase in ("monkey", "distance"):
            return max(legal, key=lambda a: self._destination_value(state, a))
        if phase == "replace":
            gains = [(_replacement_gain(state, a), i) for i, a in enumerate(legal) if i]
            best_gain, best = max(gains, default=(0.0, 0))
            return legal[best] if best_gain > 0.05 else legal[0]
        if phase == "aim":
            assert state.step is not None
            faces = me.dice[state.step.die]
            return max(legal, key=lambda a: face_value(faces, a.slot or 0))
        if phase == "store":
            return legal[-1] if me.stars >= 3 else legal[0]
        if phase == "add_die":
            return max(legal, key=lambda a: die_value(me.dice[a.die or 0]))
        if phase == "x2":
            weight = {"gold": 1.5, "star": 1.8, "points": 1.0}
            gains = {r.die: weight[r.gain] * r.amount for r in state.rolls
                     if r.state == "done" and r.gain}
            doubles = [a for a in legal if a.kind == "double"]
            return max(doubles, key=lambda a: gains[a.target or 0]) if doubles else legal[-1]
        return legal[0]  # thief: already in the order gold, star, ticket

    def _destination_value(self, state: RattlebonesState, action: RattlebonesAction) -> float:
        step = state.step
        assert step is not None
        me = _me(state)
        n = len(state.board)
        if action.kind == "distance":
            assert step.monkey is not None and action.n is not None
            return _landing_value(state, (me.monkeys[step.monkey] + action.n) % n)
        start = me.monkeys[action.monkey or 0]
        reach = [step.steps] if step.steps is not None else list(range(1, NINE + 1))
        return max(_landing_value(state, (start + k) % n) for k in reach)


ENGINE = RattlebonesEngine()


# -- applying one action (on a copy) --------------------------------------------------------


def _do_roll(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    dice = list(action.dice or ())
    cost = len(dice) - 1  # «spend one gold ... one extra die», «two gold ... all three»
    if cost:
        _me(state).gold -= cost
        state.gold += cost
        state.gold_spent += cost
        events.append(_ev(state, "pay", f"{_who(state.current)} pays {cost} gold to throw "
                                        f"{len(dice)} dice"))
    _throw(state, dice, events)


def _do_use(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    _use(state, next(r for r in _pending(state) if r.die == action.die), events)


def _do_monkey(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    assert action.monkey is not None
    _choose_monkey(state, action.monkey, events)


def _do_distance(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    assert state.step is not None
    state.step.steps = action.n
    _move(state, events)


def _do_keep(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    events.append(_ev(state, "keep", f"{_who(state.current)} keeps the die as it is"))
    state.step = None


def _do_replace(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    step = state.step
    assert step is not None and action.slot is not None
    offered = _side_on_offer(state)
    assert offered is not None
    if offered == "arrow":  # RT-7: the direction is set as it is placed
        step.slot = action.slot
        state.phase = "aim"
        return
    _replace(state, step.die, action.slot, offered, events)
    state.step = None


def _do_upgrade(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    step = state.step
    assert step is not None and action.slot is not None
    old = _me(state).dice[step.die][action.slot]
    _replace(state, step.die, action.slot, points(value_of(old) + 1), events)
    state.step = None


def _do_aim(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    step = state.step
    assert step is not None and step.slot is not None and action.slot is not None
    _replace(state, step.die, step.slot, arrow(action.slot), events)
    state.step = None


def _do_sell(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    n = action.n or 0
    state.step = None
    if not n:
        events.append(_ev(state, "store", f"{_who(state.current)} keeps their stars"))
        return
    me = _me(state)
    me.stars -= n
    state.stars += n
    _score(state, state.current, star_value(n, state.options.store), f"sold {n} "
           f"star{'s' if n > 1 else ''}", events)
    _check_end(state, events)


def _do_add_die(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    assert state.step is not None and action.die is not None
    _roll_again(state, state.step.die, action.die, events)


def _do_steal(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    assert state.step is not None and action.take is not None
    _steal(state, state.step.victims.pop(0), action.take, events)
    _next_victim(state, events)


def _do_double(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    x2 = next(r for r in state.rolls if r.state == "pending" and r.acts_as == "x2"
              and r.die == action.die)
    x2.state = "done"
    target = next(r for r in _x2_targets(state, x2) if r.die == action.target)
    target.doubled = True
    events.append(_ev(state, "x2", f"x2 on die {x2.die + 1} doubles die {target.die + 1}"))
    me = state.current
    if target.gain == "points":
        _score(state, me, target.amount, "x2", events)
        _check_end(state, events)
    else:
        assert target.gain is not None
        # the gain is given once more; the record keeps the first amount
        amount, gain = target.amount, target.gain
        _give(state, target, gain, amount, events)
        target.gain, target.amount = gain, amount


def _do_no_double(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    x2 = _first_x2(state)
    assert x2 is not None
    x2.state = "dropped"
    events.append(_ev(state, "x2", f"x2 on die {x2.die + 1} is not used"))


_DISPATCH: dict[str, Callable[[RattlebonesState, RattlebonesAction, list[Event]], None]] = {
    "roll": _do_roll, "use": _do_use, "monkey": _do_monkey, "distance": _do_distance,
    "keep": _do_keep, "replace": _do_replace, "upgrade": _do_upgrade, "aim": _do_aim,
    "sell": _do_sell, "add_die": _do_add_die, "steal": _do_steal, "double": _do_double,
    "no_double": _do_no_double,
}


# -- the open decision in words -------------------------------------------------------------


def _decision(state: RattlebonesState) -> DecisionView:
    seat, step, phase = state.current, state.step, state.phase
    me = state.players[seat]
    if phase == "roll":
        extra = []
        if me.gold >= 1:
            extra.append("1 gold for two")
        if me.gold >= 2:
            extra.append("2 gold for all three")
        paid = f" (or pay {' or '.join(extra)})" if extra else ""
        return DecisionView(phase=phase, seat=seat, prompt=f"Choose a die to throw{paid}.")
    if phase == "order":
        ready = _ready_x2(state)
        also = f" (or give die {ready.die + 1}'s x2 to a die used already)" if ready else ""
        return DecisionView(phase=phase, seat=seat, prompt=f"Choose which die to use next{also}.")
    if phase == "x2":
        x2 = _first_x2(state)
        assert x2 is not None
        return DecisionView(phase=phase, seat=seat, die=x2.die,
                            prompt=f"x2 on die {x2.die + 1}: choose a die whose gain it gives "
                                   "once more.")
    assert step is not None
    base = DecisionView(phase=phase, seat=seat, die=step.die, space=step.space, slot=step.slot,
                        monkey=step.monkey, steps=step.steps)
    if phase == "monkey":
        how = "9-Pip" if step.steps is None else f"{step.steps} space" + (
            "" if step.steps == 1 else "s")
        base.prompt = f"Die {step.die + 1}: choose the monkey to move ({how})."
    elif phase == "distance":
        base.prompt = f"9-Pip: how far does monkey {(step.monkey or 0) + 1} move?"
    elif phase in ("replace", "aim"):
        offered = _side_on_offer(state)
        base.side = offered
        if phase == "replace":
            base.prompt = (f"Landed on {space_name(state.board[step.space or 0])}: choose a "
                           f"side of die {step.die + 1} to change, or keep it.")
        else:
            base.prompt = f"Choose where the Arrow on side {(step.slot or 0) + 1} points."
    elif phase == "store":
        base.prompt = f"The Store: how many of your {me.stars} stars do you sell?"
    elif phase == "add_die":
        base.prompt = "Roll Again: choose the die to throw along."
    elif phase == "thief":
        base.victim = step.victims[0]
        base.prompt = f"Thief: what do you take from {_who(step.victims[0])}?"
    return base
