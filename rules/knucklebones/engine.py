"""Knucklebones (rulebook v0.1) as Boneyard plays it: RULINGS.md section 4, KB-1 to KB-7."""

from __future__ import annotations

from typing import ClassVar

from rules.base import Chooser, Engine, Event, GameError, IllegalAction, Outcome, copy_state, seat_name
from rules.knucklebones import ai, flow, moves
from rules.knucklebones.models import (
    ITEMS,
    MAX_SEATS,
    POOL_SIZE,
    KnucklebonesAction,
    KnucklebonesOptions,
    KnucklebonesState,
    KnucklebonesView,
    action_of,
)
from rules.knucklebones.scoring import timeout_item, totals
from rules.knucklebones.text import TIMEOUT
from rules.knucklebones.view import view as public_view


class KnucklebonesEngine(Engine[KnucklebonesState, KnucklebonesAction, KnucklebonesOptions]):
    key: ClassVar[str] = "knucklebones"
    title: ClassVar[str] = "Knucklebones"
    #: 1 only with the solo option (KB-7), which new_game checks
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = MAX_SEATS
    State = KnucklebonesState
    Action = KnucklebonesAction
    Options = KnucklebonesOptions

    def new_game(self, seats: int, options: KnucklebonesOptions, seed: int) -> KnucklebonesState:
        options = KnucklebonesOptions.model_validate(options).model_copy()
        if not 1 <= seats <= MAX_SEATS:
            raise GameError(f"Knucklebones is for 2 to {MAX_SEATS} players.")
        if seats == 1 and not options.solo:
            raise GameError("Knucklebones needs at least 2 players (or the solo option).")
        return flow.new_state(seats, options, seed)

    def move_cap(self, seats: int, options: KnucklebonesOptions) -> int:
        """Every seat plays one turn per sheet item (RULINGS 4.5). Each decision of a turn
        answers one roll of a 2 or a 4, and a turn rolls each of the seven dice once (the start
        and the 3s) plus once per reroll; every reroll spends a 2, which the last die standing
        cannot, so at most six. Thirteen rolls, then the item scored. Nothing is open to several
        seats, and no move leaves a decision unfinished, so nothing else needs a cap."""
        rolls = POOL_SIZE + (POOL_SIZE - 1)
        return len(ITEMS) * seats * (rolls + 1)

    def seat_range(self, options: KnucklebonesOptions) -> tuple[int, int]:
        return (1 if options.solo else 2), MAX_SEATS

    def to_act(self, state: KnucklebonesState) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: KnucklebonesState, seat: int) -> list[KnucklebonesAction]:
        return moves.legal_actions(state, seat)

    def apply(
        self, state: KnucklebonesState, seat: int, action: KnucklebonesAction
    ) -> tuple[KnucklebonesState, list[Event]]:
        self.check(state, seat, action)
        new = copy_state(state)
        return new, flow.apply_action(new, action)

    def view(self, state: KnucklebonesState, seat: int | None) -> KnucklebonesView:
        """Everything is public, so every seat sees the same."""
        return public_view(state)

    def is_over(self, state: KnucklebonesState) -> bool:
        return state.phase == "over"

    def outcomes(self, state: KnucklebonesState) -> list[Outcome]:
        """Highest total wins; equal totals share a place (KB-7), ranked 1, 1, 3."""
        scores = totals(state)
        return [Outcome(seat=s, rank=1 + sum(o > t for o in scores), score=t)
                for s, t in enumerate(scores)]

    def timeout_turn(self, state: KnucklebonesState) -> object:
        """RULINGS 4.3: the rest of the seat's turn: keep every die, then timeout_item."""
        return state.turn

    def timeout_event(self, state: KnucklebonesState, seat: int, default: KnucklebonesAction) -> Event:
        return Event(kind="timeout", seat=seat, seats=(seat,), text=f"{seat_name(seat)} {TIMEOUT}")

    def timeout_action(self, state: KnucklebonesState, seat: int) -> KnucklebonesAction:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("It is not your turn.")
        if state.phase != "score":
            return legal[0]  # keep: «no spends»
        return action_of("score", item=timeout_item(state.pool, moves.open_items(state, seat)))

    def ai_action(self, state: KnucklebonesState, seat: int, choose: Chooser) -> KnucklebonesAction:
        """See ``ai.choose_action``."""
        action = ai.choose_action(state, seat)
        if action is None:
            raise IllegalAction("It is not your turn.")
        return action


ENGINE = KnucklebonesEngine()
