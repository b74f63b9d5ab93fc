"""Bone Duel (house rules, ``bone-duel.md``) as Boneyard plays it."""

from __future__ import annotations

from typing import ClassVar

from rules.base import Chooser, Engine, Event, GameError, IllegalAction, Outcome, copy_state, seat_name
from rules.bone_duel import ai, flow, moves
from rules.bone_duel.models import (
    ACTIONS,
    GAME_PLACEMENTS,
    MATCH_GAMES,
    SEATS,
    BoneDuelAction,
    BoneDuelOptions,
    BoneDuelState,
    BoneDuelView,
)
from rules.bone_duel.scoring import totals
from rules.bone_duel.text import TIMEOUT
from rules.bone_duel.view import view as public_view


class BoneDuelEngine(Engine[BoneDuelState, BoneDuelAction, BoneDuelOptions]):
    key: ClassVar[str] = "bone_duel"
    title: ClassVar[str] = "Bone Duel"
    min_seats: ClassVar[int] = SEATS
    max_seats: ClassVar[int] = SEATS
    State = BoneDuelState
    Action = BoneDuelAction
    Options = BoneDuelOptions

    def new_game(self, seats: int, options: BoneDuelOptions, seed: int) -> BoneDuelState:
        options = BoneDuelOptions.model_validate(options).model_copy()
        if seats != SEATS:
            raise GameError("Bone Duel is for 2 players.")
        return flow.new_state(options, seed)

    def move_cap(self, seats: int, options: BoneDuelOptions) -> int:
        """Every move places a die, and a game ends after GAME_PLACEMENTS dice at most (knock-outs
        can empty grids again, so nine dice each is no bound); a match plays MATCH_GAMES games at
        most."""
        return GAME_PLACEMENTS * (MATCH_GAMES if options.best_of_three else 1)

    def to_act(self, state: BoneDuelState) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: BoneDuelState, seat: int) -> list[BoneDuelAction]:
        return moves.legal_actions(state, seat)

    def apply(self, state: BoneDuelState, seat: int, action: BoneDuelAction
              ) -> tuple[BoneDuelState, list[Event]]:
        self.check(state, seat, action)
        new = copy_state(state)
        return new, flow.place(new, action.column)

    def view(self, state: BoneDuelState, seat: int | None) -> BoneDuelView:
        """Everything is public, so every seat sees the same."""
        return public_view(state)

    def is_over(self, state: BoneDuelState) -> bool:
        return state.over

    def outcomes(self, state: BoneDuelState) -> list[Outcome]:
        """Rank 1 for the winner(s), 2 for the other. The score is the total of the last game in
        a single game, and the games won in a best-of-three match."""
        won = flow.winners(state)
        scores = list(state.wins) if state.options.best_of_three else totals(state)
        return [Outcome(seat=s, rank=1 if s in won else 2, score=scores[s]) for s in range(SEATS)]

    def timeout_action(self, state: BoneDuelState, seat: int) -> BoneDuelAction:
        if seat not in moves.to_act(state):
            raise IllegalAction("It is not your turn.")
        return ACTIONS[moves.timeout_column(state, seat)]

    def timeout_event(self, state: BoneDuelState, seat: int, default: BoneDuelAction) -> Event:
        return Event(kind="timeout", seat=seat, seats=(seat,), text=f"{seat_name(seat)} {TIMEOUT}",
                     data={"column": default.column})

    def ai_action(self, state: BoneDuelState, seat: int, choose: Chooser) -> BoneDuelAction:
        """See ``ai.ai_action``."""
        return ai.ai_action(state, seat, choose)


ENGINE = BoneDuelEngine()
