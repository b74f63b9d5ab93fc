"""What a Rattlebones table shows. Everything is on the table, so every seat sees the same."""

from __future__ import annotations

from rules.rattlebones import text
from rules.rattlebones.board import DATA, space_name, space_short
from rules.rattlebones.models import (
    MAX_TURNS,
    DecisionView,
    PlayerView,
    RattlebonesState,
    RattlebonesView,
    RollView,
    SpaceView,
)
from rules.rattlebones.moves import first_x2, ready_x2, side_on_offer
from rules.rattlebones.scoring import leaders, place_of, to_go


def view(state: RattlebonesState) -> RattlebonesView:
    over = state.phase == "over"
    return RattlebonesView(
        seats=state.seats, options=state.options, board_key=state.options.board,
        spaces=[SpaceView(index=i, kind=k, name=space_name(k), short=space_short(k),
                          tile=i in state.tiles) for i, k in enumerate(state.board)],
        players=[PlayerView(seat=s, score=p.score, gold=p.gold, stars=p.stars, stock=p.stock,
                            monkeys=list(p.monkeys), dice=[list(d) for d in p.dice],
                            place=place_of(state, s), to_go=to_go(state, s))
                 for s, p in enumerate(state.players)],
        start_seat=state.start_seat, current_seat=None if over else state.current,
        turn=state.turn, max_turns=MAX_TURNS, phase=state.phase, over=over,
        end_reason=state.end_reason, rattlebones=state.rattlebones,
        rattlebones_start=DATA.rattlebones_start[state.seats], score_track=DATA.score_track,
        train=state.train, train_values=list(state.options.train_values),
        supply=dict(state.supply), gold_supply=state.gold, star_supply=state.stars,
        stock_supply=state.stock, rolls=[RollView(**r.model_dump()) for r in state.rolls],
        decision=None if over else _decision(state), leaders=leaders(state),
    )


def _decision(state: RattlebonesState) -> DecisionView:
    """The open decision, with its prompt in words."""
    seat, step, phase = state.current, state.step, state.phase
    player = state.players[seat]
    if phase == "roll":
        # each player's first two turns say why a die is rolled
        first = state.turn <= 2 * state.seats
        return DecisionView(phase=phase, seat=seat, prompt=text.roll_prompt(player.gold, first))
    if phase == "order":
        ready = ready_x2(state)
        return DecisionView(phase=phase, seat=seat,
                            prompt=text.order_prompt(None if ready is None else ready.die))
    if phase == "x2":
        x2 = first_x2(state)
        assert x2 is not None
        return DecisionView(phase=phase, seat=seat, die=x2.die, prompt=text.x2_prompt(x2.die))
    assert step is not None
    base = DecisionView(phase=phase, seat=seat, die=step.die, space=step.space, slot=step.slot,
                        monkey=step.monkey, steps=step.steps)
    if phase == "monkey":
        base.prompt = text.monkey_prompt(step.die, step.steps)
    elif phase == "distance":
        base.prompt = text.distance_prompt(step.monkey or 0)
    elif phase in ("replace", "aim"):
        base.side = side_on_offer(state)
        if phase == "replace":
            base.prompt = f"{_landed(state)} {text.replace_prompt(step.die)}"
        else:
            base.prompt = text.aim_prompt(step.slot or 0)
    elif phase == "store":
        base.prompt = f"{_landed(state)} {text.store_prompt(player.stars)}"
    elif phase == "add_die":
        base.prompt = text.add_die_prompt(step.die)
    elif phase == "thief":
        base.victim = step.victims[0]
        base.prompt = text.thief_prompt(step.victims[0])
    return base


def _landed(state: RattlebonesState) -> str:
    """The throw and the move that led to a landing's question, in words."""
    step = state.step
    assert step is not None and step.space is not None and step.steps is not None
    roll = next(r for r in reversed(state.rolls) if r.die == step.die)
    start = (step.space - step.steps) % len(state.board)
    return text.landed_words(step.die, roll.face, step.acts_as, state.rattlebones,
                             (start, state.board[start]), (step.space, state.board[step.space]))
