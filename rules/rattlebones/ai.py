"""The bot player: race sensibly and build dice toward points and x2."""

from __future__ import annotations

from rules.rattlebones.dice import adjacent, arrow, follow, kind_of, points, value_of
from rules.rattlebones.models import RattlebonesAction, RattlebonesState
from rules.rattlebones.moves import NINE, landing_actions, legal_actions, me, pending, side_on_offer

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
    faces = list(me(state).dice[step.die])
    before = die_value(faces)
    if action.kind == "upgrade":
        faces[action.slot] = points(value_of(faces[action.slot]) + 1)
    else:
        offered = side_on_offer(state)
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
        stars = me(state).stars
        return 3.0 if stars >= 3 else 0.0
    assert state.step is not None
    trial = state.model_copy(update={"step": state.step.model_copy(update={"space": space})})
    gains = [_replacement_gain(trial, a) for a in landing_actions(trial)]
    return max(gains, default=0.0)


def _destination_value(state: RattlebonesState, action: RattlebonesAction) -> float:
    step = state.step
    assert step is not None
    player = me(state)
    n = len(state.board)
    if action.kind == "distance":
        assert step.monkey is not None and action.n is not None
        return _landing_value(state, (player.monkeys[step.monkey] + action.n) % n)
    start = player.monkeys[action.monkey or 0]
    reach = [step.steps] if step.steps is not None else list(range(1, NINE + 1))
    return max(_landing_value(state, (start + k) % n) for k in reach)


def choose_action(state: RattlebonesState, seat: int) -> RattlebonesAction | None:
    """Throw the best dice (gold buys more when there is gold to spare), move where the die can
    gain the most, build toward points and x2, sell stars at 3 or more, steal gold before stars
    before tickets. Deterministic; None when the seat owes no move."""
    legal = legal_actions(state, seat)
    if not legal:
        return None
    phase = state.phase
    player = state.players[seat]
    if phase == "roll":
        if player.gold >= 2:
            return legal[-1]  # all three: gold is worth most as dice
        alone = player.gold == 0
        values = [die_value(d, alone) for d in player.dice]
        sizes = [a for a in legal if len(a.dice or ()) == (1 if alone else 2)]
        return max(sizes, key=lambda a: sum(values[d] for d in a.dice or ()))
    if phase == "order":
        # actions before moves, so a move can land while a gain is already in hand
        moves = ("pip", "rb", "nine_pip")
        rolls = {r.die: r for r in pending(state)}
        uses = [a for a in legal if a.kind == "use"]  # an x2 waits for the biggest gain
        return min(uses, key=lambda a: kind_of(rolls[a.die or 0].acts_as or "") in moves)
    if phase in ("monkey", "distance"):
        return max(legal, key=lambda a: _destination_value(state, a))
    if phase == "replace":
        gains = [(_replacement_gain(state, a), i) for i, a in enumerate(legal) if i]
        best_gain, best = max(gains, default=(0.0, 0))
        return legal[best] if best_gain > 0.05 else legal[0]
    if phase == "aim":
        assert state.step is not None
        faces = player.dice[state.step.die]
        return max(legal, key=lambda a: face_value(faces, a.slot or 0))
    if phase == "store":
        return legal[-1] if player.stars >= 3 else legal[0]
    if phase == "add_die":
        return max(legal, key=lambda a: die_value(player.dice[a.die or 0]))
    if phase == "x2":
        weight = {"gold": 1.5, "star": 1.8, "points": 1.0}
        worth = {r.die: weight[r.gain] * r.amount for r in state.rolls
                 if r.state == "done" and r.gain}
        doubles = [a for a in legal if a.kind == "double"]
        return max(doubles, key=lambda a: worth[a.target or 0]) if doubles else legal[-1]
    return legal[0]  # thief: already in the order gold, star, ticket
