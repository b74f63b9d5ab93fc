"""A Rattlebones turn, step by step: RULINGS.md section 3, RT-1 to RT-13.

A turn: choose the dice to throw (paying gold for extra dice), then use each thrown die in the
order the player picks. A die moves a monkey (pips, the Rattlebones icon, a 9-Pip), and the
space it lands on may put a new side on *that* die; or the die does its action. The state
always waits for a real decision: when only one die is left to use, or only one monkey can
be meant, or a victim of the Thief has one thing to take, the game goes on by itself and
says so in an event. Events carry their figures (seats, dice and sides from 0; faces as
``dice`` writes them), and their words come from ``text.event_text``. Whatever a die's use
changes names that die (``die``), so a turn can be told die by die without reading its words.

Everything here but ``new_state`` works on a state the caller has copied.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from rules.base import Event
from rules.rattlebones.board import DATA, POINT_VALUES, TILE
from rules.rattlebones.dice import RB, arrow, follow, kind_of, points, start_die, supply_key, value_of
from rules.rattlebones.models import (
    DICE_PER_PLAYER,
    MAX_TURNS,
    MONKEYS,
    Player,
    RattlebonesAction,
    RattlebonesOptions,
    RattlebonesState,
    Roll,
    Step,
    Take,
)
from rules.rattlebones.moves import (
    first_x2,
    landing_actions,
    me,
    monkey_choices,
    pending,
    ready_x2,
    side_on_offer,
    takes,
    unrolled,
    x2_targets,
)
from rules.rattlebones.scoring import leaders, place_of, star_value, stock_payout
from rules.rattlebones.text import event_text
from rules.rng import Dice

#: a safety net for the loop that goes on by itself; a turn settles in a dozen steps
_STEP_GUARD = 100

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


def copy_state(state: RattlebonesState) -> RattlebonesState:
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


def event(kind: str, seat: int | None, seats: tuple[int, ...], **data: Any) -> Event:
    """An event with its figures (``seat`` is whose move it came from, ``seats`` every seat it
    concerns); its line is said from them alone."""
    return Event(kind=kind, seat=seat, seats=seats, data=data, text=event_text(kind, seats, data))


def _ev(state: RattlebonesState, kind: str, **data: Any) -> Event:
    """An event of the seat whose turn it is, concerning it alone."""
    return event(kind, state.current, (state.current,), **data)


# -- setting up ----------------------------------------------------------------------------


def new_state(seats: int, options: RattlebonesOptions, seed: int) -> RattlebonesState:
    """The board with its tiles drawn, the supply, three start dice and three monkeys each on
    START, Rattlebones on its start, and a random start player (RT-13)."""
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
        supply.update({points(v): n for v, n in zip(POINT_VALUES, split, strict=True)})
    players = [Player(monkeys=[0] * MONKEYS, dice=[start_die() for _ in range(DICE_PER_PLAYER)])
               for _ in range(seats)]
    start = dice.below(seats)  # RT-13: the start player is random
    return RattlebonesState(
        seats=seats, options=options, board=layout, tiles=slots, players=players,
        start_seat=start, current=start, rattlebones=DATA.rattlebones_start[seats],
        supply=supply, pips_in_play=seats * DICE_PER_PLAYER * 5, gold=DATA.gold,
        stars=DATA.stars, stock=DATA.stock, dice=dice,
    )


def apply_action(state: RattlebonesState, action: RattlebonesAction) -> list[Event]:
    """One legal decision of the seat whose turn it is, and everything that follows by itself."""
    state.turn_moves += 1
    events: list[Event] = []
    _DISPATCH[action.kind](state, action, events)
    _advance(state, events)
    return events


# -- the turn, step by step ----------------------------------------------------------------


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
        events.append(event("over", None, tuple(leaders(state)), reason="cap", turns=MAX_TURNS))
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
    events.append(event("over", None, tuple(leaders(state)), reason="rattlebones", at=state.rattlebones))
    return True


def _score(state: RattlebonesState, seat: int, n: int, events: list[Event], source: str,
           **why: int) -> None:
    """``source`` is what scored (a points side, the train, the Store...), ``why`` its figures
    (``die``: the die that scored, where one did)."""
    player = state.players[seat]
    player.score += n
    events.append(event("score", seat, (seat,), points=n, total=player.score, source=source, **why))


def _rattlebones_back(state: RattlebonesState, die: int, events: list[Event]) -> bool:
    """Rattlebones steps back one space; True when that ends the game."""
    state.rattlebones = max(0, state.rattlebones - 1)
    events.append(_ev(state, "rattlebones", die=die, at=state.rattlebones))
    return _check_end(state, events)


def _throw(state: RattlebonesState, dice: list[int], events: list[Event]) -> None:
    thrown = []
    for die in dice:
        faces = me(state).dice[die]
        slot = state.dice.roll(6) - 1
        acts_as, _ = follow(faces, slot)
        state.rolls.append(Roll(die=die, slot=slot, face=faces[slot], acts_as=acts_as))
        thrown.append({"die": die, "slot": slot, "face": faces[slot], "acts_as": acts_as})
    events.append(_ev(state, "throw", throws=thrown))
    if unrolled(state):
        return
    # «Any ROLL AGAIN sides showing when all dice have been rolled are disregarded» (RTG-5):
    # at once, so they are never offered as a die to use
    for r in state.rolls:
        if r.state == "pending" and r.acts_as == "roll_again":
            r.state = "dropped"
            events.append(_ev(state, "roll_again", die=r.die, added=None))


def _advance(state: RattlebonesState, events: list[Event]) -> None:
    """Go on until a player must decide: use the only die left, drop an x2 with nothing to
    double, end the turn when every die is used."""
    for _ in range(_STEP_GUARD):
        if state.phase == "over" or state.step is not None:
            return
        waiting = pending(state)
        if len(waiting) >= 2 or (waiting and ready_x2(state) is not None):
            state.phase = "order"  # RT-6: an x2 may go as soon as it has a die to double
            return
        if len(waiting) == 1:
            _use(state, waiting[0], events)
            continue
        x2 = first_x2(state)
        if x2 is not None:
            if x2_targets(state, x2):
                state.phase = "x2"
                return
            x2.state = "dropped"
            events.append(_ev(state, "x2", die=x2.die, outcome="nothing"))
            continue
        _end_turn(state, events)
        return
    raise RuntimeError("rattlebones: a turn did not settle")  # unreachable: dice run out


def _use(state: RattlebonesState, roll: Roll, events: list[Event]) -> None:
    """Use one thrown die: a move, or its action."""
    roll.state = "done"
    face = roll.acts_as
    seat = state.current
    die = roll.die
    if face is None:
        events.append(_ev(state, "arrow", die=die))
        return
    kind = kind_of(face)
    if kind == "rb":
        if _rattlebones_back(state, die, events):
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
        _give(state, roll, kind, 1, die, events)
    elif kind in ("points", "train", "place"):
        if kind == "points":
            n, why = value_of(face), {}
        elif kind == "train":
            n, why = state.options.train_values[state.train], {"space": state.train}
        else:
            n = place_of(state, seat)
            why = {"place": n}
        roll.gain, roll.amount = "points", n
        _score(state, seat, n, events, kind, die=die, **why)
        if kind == "train":
            state.train = (state.train + 1) % len(state.options.train_values)
            events.append(_ev(state, "train", die=die, space=state.train))
        _check_end(state, events)
    elif kind == "roll_again":
        left = unrolled(state)
        if not left:
            # a game saved before a throw leaving none disregarded Roll Again at once: the rule
            # (RTG-5) still holds, here
            roll.state = "dropped"
            events.append(_ev(state, "roll_again", die=die, added=None))
        elif len(left) == 1:
            _roll_again(state, die, left[0], events)
        else:
            state.step = Step(die=die, acts_as=face)
            state.phase = "add_die"
    elif kind == "thief":
        order = [(seat + k) % state.seats for k in range(1, state.seats)]
        victims = [s for s in order if takes(state.players[s])]
        if not victims:
            events.append(_ev(state, "thief", die=die, victim=None, take=None))
            return
        state.step = Step(die=die, acts_as=face, victims=victims)
        _next_victim(state, events)
    elif kind == "stock":
        _take_ticket(state, die, events)
    elif kind == "gamble":
        _gamble(state, die, events)
    else:  # pragma: no cover - an x2 never comes here, every other kind is above
        raise RuntimeError(f"no use for {face!r}")


def _give(state: RattlebonesState, roll: Roll, kind: str, n: int, die: int, events: list[Event]) -> None:
    """Gold or stars from the supply, as many as are left («he takes none»); ``die`` gave them
    (the x2's, when it gives ``roll``'s gain again)."""
    player = me(state)
    roll.gain, roll.amount = ("gold" if kind == "gold" else "star"), n
    if kind == "gold":
        got = min(n, state.gold)
        state.gold -= got
        player.gold += got
    else:
        got = min(n, state.stars)
        state.stars -= got
        player.stars += got
    events.append(_ev(state, kind, die=die, got=got))


def _take_ticket(state: RattlebonesState, die: int, events: list[Event]) -> None:
    if state.stock <= 0:  # unreachable: the payout refills the supply at once
        events.append(_ev(state, "stock", die=die, took=False, left=0))
        return
    state.stock -= 1
    me(state).stock += 1
    events.append(_ev(state, "stock", die=die, took=True, left=state.stock))
    if state.stock:
        return
    paid = stock_payout([p.stock for p in state.players])  # RT-10: only from the supply
    paid_seats = [s for s, n in enumerate(paid) if n and s != state.current]
    events.append(event("stock", state.current, (state.current, *paid_seats), payout=paid))
    for seat, n in enumerate(paid):
        if n:
            _score(state, seat, n, events, "stock", tickets=state.players[seat].stock)
    for p in state.players:
        p.stock = 0
    state.stock = DATA.stock
    _check_end(state, events)


def _gamble(state: RattlebonesState, die: int, events: list[Event]) -> None:
    face = DATA.gamble_die[state.dice.roll(len(DATA.gamble_die)) - 1]
    events.append(_ev(state, "gamble", die=die, face=face))
    if face == RB:
        _rattlebones_back(state, die, events)  # «He does not move his pawn.»
        return
    _score(state, state.current, value_of(face), events, "gamble", die=die)
    _check_end(state, events)


def _roll_again(state: RattlebonesState, die: int, added: int, events: list[Event]) -> None:
    state.step = None
    events.append(_ev(state, "roll_again", die=die, added=added))
    _throw(state, [die, added], events)


def _next_victim(state: RattlebonesState, events: list[Event]) -> None:
    """Ask about the next victim, taking at once from one who has only one kind of thing."""
    step = state.step
    assert step is not None
    while step.victims:
        can_take = takes(state.players[step.victims[0]])
        if len(can_take) > 1:
            state.phase = "thief"
            return
        _steal(state, step.victims.pop(0), can_take[0], events)
    state.step = None


def _steal(state: RattlebonesState, victim: int, take: Take, events: list[Event]) -> None:
    """RT-10: a ticket taken by a Thief never triggers the payout."""
    thief, robbed = me(state), state.players[victim]
    field = {"gold": "gold", "star": "stars", "stock": "stock"}[take]
    setattr(robbed, field, getattr(robbed, field) - 1)
    setattr(thief, field, getattr(thief, field) + 1)
    die = state.step.die if state.step is not None else None
    events.append(event("thief", state.current, (state.current, victim), die=die, victim=victim, take=take))


def _ask_monkey(state: RattlebonesState, events: list[Event]) -> None:
    choices = monkey_choices(state)
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
    player = me(state)
    space = (player.monkeys[step.monkey] + step.steps) % len(state.board)
    player.monkeys[step.monkey] = space
    step.space = space
    kind = state.board[space]
    events.append(_ev(state, "move", die=step.die, monkey=step.monkey, steps=step.steps, space=space,
                      space_kind=kind))
    if kind == "start":
        if player.stars:
            state.phase = "store"
        else:
            state.step = None
        return
    if landing_actions(state):
        state.phase = "replace"
        return
    offered = side_on_offer(state)
    assert offered is not None
    events.append(_ev(state, "supply", die=step.die, side=offered, space_kind=kind))
    state.step = None


def _replace(state: RattlebonesState, die: int, slot: int, new: str, events: list[Event]) -> None:
    """Put ``new`` on the die from the supply; the old side goes back, or out if it is pips."""
    faces = me(state).dice[die]
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
    events.append(_ev(state, "replace", die=die, slot=slot, new=new, old=old))


# -- applying one action (on a copy) --------------------------------------------------------


def _do_roll(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    dice = list(action.dice or ())
    cost = len(dice) - 1  # «spend one gold ... one extra die», «two gold ... all three»
    if cost:
        me(state).gold -= cost
        state.gold += cost
        state.gold_spent += cost
        events.append(_ev(state, "pay", gold=cost, dice=len(dice)))
    _throw(state, dice, events)


def _do_use(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    _use(state, next(r for r in pending(state) if r.die == action.die), events)


def _do_monkey(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    assert action.monkey is not None
    _choose_monkey(state, action.monkey, events)


def _do_distance(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    assert state.step is not None
    state.step.steps = action.n
    _move(state, events)


def _do_keep(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    assert state.step is not None
    events.append(_ev(state, "keep", die=state.step.die))
    state.step = None


def _do_replace(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    step = state.step
    assert step is not None and action.slot is not None
    offered = side_on_offer(state)
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
    old = me(state).dice[step.die][action.slot]
    _replace(state, step.die, action.slot, points(value_of(old) + 1), events)
    state.step = None


def _do_aim(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    step = state.step
    assert step is not None and step.slot is not None and action.slot is not None
    _replace(state, step.die, step.slot, arrow(action.slot), events)
    state.step = None


def _do_sell(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    n = action.n or 0
    assert state.step is not None
    die, state.step = state.step.die, None
    if not n:
        events.append(_ev(state, "store", die=die, sold=0))
        return
    player = me(state)
    player.stars -= n
    state.stars += n
    _score(state, state.current, star_value(n, state.options.store), events, "store", die=die, stars=n)
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
    target = next(r for r in x2_targets(state, x2) if r.die == action.target)
    target.doubled = True
    events.append(_ev(state, "x2", die=x2.die, target=target.die, outcome="doubles"))
    if target.gain == "points":
        _score(state, state.current, target.amount, events, "x2", die=x2.die)
        _check_end(state, events)
    else:
        assert target.gain is not None
        # the gain is given once more; the record keeps the first amount
        amount, gain = target.amount, target.gain
        _give(state, target, gain, amount, x2.die, events)
        target.gain, target.amount = gain, amount


def _do_no_double(state: RattlebonesState, action: RattlebonesAction, events: list[Event]) -> None:
    x2 = first_x2(state)
    assert x2 is not None
    x2.state = "dropped"
    events.append(_ev(state, "x2", die=x2.die, outcome="unused"))


_DISPATCH: dict[str, Callable[[RattlebonesState, RattlebonesAction, list[Event]], None]] = {
    "roll": _do_roll, "use": _do_use, "monkey": _do_monkey, "distance": _do_distance,
    "keep": _do_keep, "replace": _do_replace, "upgrade": _do_upgrade, "aim": _do_aim,
    "sell": _do_sell, "add_die": _do_add_die, "steal": _do_steal, "double": _do_double,
    "no_double": _do_no_double,
}
