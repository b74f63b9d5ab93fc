"""Who acts and what they may do: the dice still to use, the monkeys worth telling apart, the
sides a landing offers, what an x2 may double, what a Thief may take."""

from __future__ import annotations

from rules.rattlebones.board import POINT_VALUES
from rules.rattlebones.dice import CHANGEABLE, adjacent, kind_of, points, value_of
from rules.rattlebones.models import (
    DICE_PER_PLAYER,
    Player,
    RattlebonesAction,
    RattlebonesState,
    Roll,
    Take,
    action_of,
)

TAKES: tuple[Take, ...] = ("gold", "star", "stock")  # RULINGS 3.3: gold > star > ticket
NINE = 9
#: the most decisions one turn can ask for: the throw, then at most five dice used (three
#: dice, two of them thrown again by Roll Again), each asking at most which die, which monkey,
#: how far, which side and where the arrow points (a Thief: which die and three victims; an
#: x2: where it goes). A timeout plays out the rest of the turn as one action.
MOVES_PER_TURN = 1 + 5 * 5


def me(state: RattlebonesState) -> Player:
    return state.players[state.current]


def to_act(state: RattlebonesState) -> list[int]:
    return [] if state.phase == "over" else [state.current]


def pending(state: RattlebonesState) -> list[Roll]:
    """Dice still to be used, x2 aside (an x2 waits for the others, RT-6)."""
    return [r for r in state.rolls if r.state == "pending" and r.acts_as != "x2"]


def unrolled(state: RattlebonesState) -> list[int]:
    """The dice not thrown this turn (what Roll Again may throw along)."""
    rolled = {r.die for r in state.rolls}
    return [d for d in range(DICE_PER_PLAYER) if d not in rolled]


def monkey_choices(state: RattlebonesState) -> list[int]:
    """Monkeys on the same space are the same choice: offer the first of each space."""
    seen: set[int] = set()
    choices = []
    for m, space in enumerate(me(state).monkeys):
        if space not in seen:
            seen.add(space)
            choices.append(m)
    return choices


def side_on_offer(state: RattlebonesState) -> str | None:
    """The side the landing space hands out, as a supply key (None: START/STORE)."""
    assert state.step is not None and state.step.space is not None
    kind = state.board[state.step.space]
    if kind == "start":
        return None
    return points(1) if kind == "plus_one" else kind


def landing_actions(state: RattlebonesState) -> list[RattlebonesAction]:
    """The ways to change the rolled die on this space, "keep" aside (RT-4, RT-11)."""
    step = state.step
    assert step is not None and step.space is not None
    faces = me(state).dice[step.die]
    kind = state.board[step.space]
    out: list[RattlebonesAction] = []
    if kind == "plus_one":
        if state.supply.get(points(1), 0) > 0:
            out += [action_of("replace", slot=s) for s in CHANGEABLE if faces[s] != points(1)]
        for s in CHANGEABLE:
            if kind_of(faces[s]) == "points" and value_of(faces[s]) < max(POINT_VALUES):
                if state.supply.get(points(value_of(faces[s]) + 1), 0) > 0:
                    out.append(action_of("upgrade", slot=s))
        return out
    if state.supply.get(kind, 0) <= 0:
        return out
    if kind == "arrow":
        return [action_of("replace", slot=s) for s in CHANGEABLE]
    return [action_of("replace", slot=s) for s in CHANGEABLE if faces[s] != kind]


def x2_targets(state: RattlebonesState, x2: Roll) -> list[Roll]:
    """RT-6: another die of this turn, used, with a gain, not doubled yet."""
    return [r for r in state.rolls if r.state == "done" and r.die != x2.die and r.gain
            and r.amount > 0 and not r.doubled]


def first_x2(state: RattlebonesState) -> Roll | None:
    return next((r for r in state.rolls if r.state == "pending" and r.acts_as == "x2"), None)


def ready_x2(state: RattlebonesState) -> Roll | None:
    """The first x2 waiting that already has a die to double."""
    return next((r for r in state.rolls if r.state == "pending" and r.acts_as == "x2"
                 and x2_targets(state, r)), None)


def _double_actions(x2: Roll | None, state: RattlebonesState) -> list[RattlebonesAction]:
    if x2 is None:
        return []
    return [action_of("double", die=x2.die, target=r.die) for r in x2_targets(state, x2)]


def takes(player: Player) -> list[Take]:
    """What a Thief may take from this player, in the order the timeout prefers."""
    have = {"gold": player.gold, "star": player.stars, "stock": player.stock}
    return [t for t in TAKES if have[t] > 0]


def legal_actions(state: RattlebonesState, seat: int) -> list[RattlebonesAction]:
    """Declining comes first wherever a decision can be declined (keep, sell none)."""
    if seat not in to_act(state):
        return []
    player = state.players[seat]
    step = state.step
    phase = state.phase
    if phase == "roll":
        out = [action_of("roll", dice=(d,)) for d in range(DICE_PER_PLAYER)]
        if player.gold >= 1:
            out += [action_of("roll", dice=(a, b)) for a in range(3) for b in range(a + 1, 3)]
        if player.gold >= 2:
            out.append(action_of("roll", dice=(0, 1, 2)))
        return out
    if phase == "order":
        uses = [action_of("use", die=r.die) for r in pending(state)]
        return uses + _double_actions(ready_x2(state), state)
    if phase == "x2":
        x2 = first_x2(state)
        assert x2 is not None
        return _double_actions(x2, state) + [action_of("no_double", die=x2.die)]
    assert step is not None
    if phase == "monkey":
        return [action_of("monkey", monkey=m) for m in monkey_choices(state)]
    if phase == "distance":
        return [action_of("distance", n=n) for n in range(1, NINE + 1)]
    if phase == "replace":
        return [action_of("keep")] + landing_actions(state)
    if phase == "aim":
        assert step.slot is not None
        return [action_of("aim", slot=t) for t in adjacent(step.slot)]
    if phase == "store":
        return [action_of("sell", n=n) for n in range(player.stars + 1)]
    if phase == "add_die":
        return [action_of("add_die", die=d) for d in unrolled(state)]
    if phase == "thief":
        victim = step.victims[0]
        return [action_of("steal", victim=victim, take=t) for t in takes(state.players[victim])]
    raise AssertionError(phase)  # pragma: no cover
