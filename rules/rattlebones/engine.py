"""Rattlebones as Boneyard plays it: the rulebook plus RULINGS.md section 3, RT-1 to RT-13."""

from __future__ import annotations

from typing import ClassVar

from rules.base import Chooser, Engine, Event, GameError, IllegalAction, Outcome, seat_name
from rules.rattlebones import ai, flow, moves
from rules.rattlebones.models import (
    MAX_SEATS,
    MAX_TURNS,
    MIN_SEATS,
    RattlebonesAction,
    RattlebonesOptions,
    RattlebonesState,
    RattlebonesView,
)
from rules.rattlebones.scoring import ranks
from rules.rattlebones.text import TIMEOUT
from rules.rattlebones.view import view as public_view


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
        return flow.new_state(seats, options, seed)

    def move_cap(self, seats: int, options: RattlebonesOptions) -> int:
        """The most actions, timeouts included, before the game must be over: every turn asks
        at most MOVES_PER_TURN decisions (a timeout finishes the turn), and turn 2,000 is the
        last (RULINGS 3.5)."""
        return MAX_TURNS * moves.MOVES_PER_TURN

    def to_act(self, state: RattlebonesState) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: RattlebonesState, seat: int) -> list[RattlebonesAction]:
        return moves.legal_actions(state, seat)

    def apply(self, state: RattlebonesState, seat: int, action: RattlebonesAction
              ) -> tuple[RattlebonesState, list[Event]]:
        self.check(state, seat, action)
        new = flow.copy_state(state)
        return new, flow.apply_action(new, action)

    def view(self, state: RattlebonesState, seat: int | None) -> RattlebonesView:
        """Everything in Rattlebones is on the table, so every seat sees the same."""
        return public_view(state)

    def is_over(self, state: RattlebonesState) -> bool:
        return state.phase == "over"

    def outcomes(self, state: RattlebonesState) -> list[Outcome]:
        """RT-12: by score, then gold + stars + stock; still equal shares the place."""
        return [Outcome(seat=s, rank=rank, score=state.players[s].score)
                for s, rank in enumerate(ranks(state))]

    def timeout_turn(self, state: RattlebonesState) -> object:
        """RULINGS 3.3: the rest of the seat's turn is played by default."""
        return state.turn

    def timeout_event(self, state: RattlebonesState, seat: int, default: RattlebonesAction) -> Event:
        return Event(kind="timeout", seat=seat, seats=(seat,), text=f"{seat_name(seat)} {TIMEOUT}")

    def timeout_action(self, state: RattlebonesState, seat: int) -> RattlebonesAction:
        """RULINGS 3.3: the leftmost die and no gold; dice in thrown order; the rearmost monkey
        (a 9-Pip moves it 9); no new side; sell every star; gold > star > ticket; x2 on the
        largest gain."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("It is not your turn.")
        phase = state.phase
        if phase == "monkey":
            monkeys = moves.me(state).monkeys
            return min(legal, key=lambda a: (monkeys[a.monkey or 0], a.monkey))
        if phase in ("distance", "store"):
            return legal[-1]
        if phase == "x2":
            gains = {r.die: r.amount for r in state.rolls if r.state == "done"}
            doubles = [a for a in legal if a.kind == "double"]
            return max(doubles, key=lambda a: gains[a.target or 0]) if doubles else legal[-1]
        return legal[0]

    def ai_action(self, state: RattlebonesState, seat: int, choose: Chooser) -> RattlebonesAction:
        """See ``ai.choose_action``."""
        action = ai.choose_action(state, seat)
        if action is None:
            raise IllegalAction("It is not your turn.")
        return action


ENGINE = RattlebonesEngine()
