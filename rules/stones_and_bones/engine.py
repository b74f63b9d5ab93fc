"""Stones & Bones (Quick Core Rulebook v1.2) as Boneyard plays it: RULINGS.md section 5.

The state always waits for a real decision: everything the rules do by themselves happens inside
``apply``. This class only ties the package together: ``moves`` (who acts, what is legal),
``flow`` (what decisions do, and the rest of the game), ``view`` (what each seat sees, and what
it may not), ``ai`` (the tavern-keeper). Seats are 0-based in the state and "Seat N" (1-based)
in event text. Money is integer copper.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, cast

from pydantic import BaseModel

from rules.base import Chooser, Engine, Event, Outcome
from rules.stones_and_bones import ai, flow, moves, text, view
from rules.stones_and_bones.models import (
    GIFTS_PER_PARLEY,
    LAST_TIDE,
    MAX_SEATS,
    MIN_SEATS,
    TURN_CAP,
    WAVES_PER_TIDE,
    StonesAndBonesAction,
    StonesAndBonesOptions,
    StonesAndBonesState,
    copy_state,
)
from rules.stones_and_bones.view import StonesAndBonesView


class StonesAndBonesEngine(Engine[StonesAndBonesState, StonesAndBonesAction, StonesAndBonesOptions]):
    key: ClassVar[str] = "stones_and_bones"
    title: ClassVar[str] = "Stones & Bones"
    min_seats: ClassVar[int] = MIN_SEATS
    max_seats: ClassVar[int] = MAX_SEATS
    State = StonesAndBonesState
    Action = StonesAndBonesAction
    Options = StonesAndBonesOptions

    def new_game(self, seats: int, options: StonesAndBonesOptions, seed: int,
                 forced: Sequence[int] = ()) -> StonesAndBonesState:
        """``forced``: dice values for tests (the roll-off for the first Captain comes first)."""
        return flow.new_state(seats, options, seed, forced)

    def move_cap(self, seats: int, options: StonesAndBonesOptions) -> int:
        """At most TURN_CAP turns, each with one decision of the roller's, one of the owner of
        a Stone left on the table and, for a claim, a Grumbles round and an objection round of
        one decision per seat. A claim that stands ends a Wave (24 at most), and only then come
        the Mutiny call, the parley (a Ready and GIFTS_PER_PARLEY gifts per seat), the vote, the
        split and Swallow the Anchor. Every Tide rise but the first Tide's asks each seat once."""
        options = StonesAndBonesOptions.model_validate(options)
        n = seats
        per_turn = 1 + (options.pilfer == "window") + (2 * (n - 1) if options.grumbles else 0)
        per_wave = (n - 1) + n * (1 + GIFTS_PER_PARLEY) + max(0, n - 2) + 1 + 1
        return TURN_CAP * per_turn + WAVES_PER_TIDE * LAST_TIDE * per_wave + (LAST_TIDE - 1) * n

    def seat_range(self, options: StonesAndBonesOptions) -> tuple[int, int]:
        if options.purses is not None:
            return len(options.purses), len(options.purses)
        return MIN_SEATS, MAX_SEATS

    def to_act(self, state: StonesAndBonesState) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: StonesAndBonesState, seat: int) -> list[StonesAndBonesAction]:
        return moves.legal_actions(state, seat)

    def open_actions(self, state: StonesAndBonesState) -> list[StonesAndBonesAction]:
        return moves.open_actions(state)

    def refusal(self, state: StonesAndBonesState, seat: int, action: StonesAndBonesAction) -> str | None:
        return text.refusal(state, seat, action)

    def decision_stamp(self, state: StonesAndBonesState, seat: int) -> str | None:
        return moves.decision_stamp(state, seat)

    def decision_window(self, state: StonesAndBonesState) -> int | None:
        return moves.decision_window(state)

    def apply(self, state: StonesAndBonesState, seat: int, action: StonesAndBonesAction
              ) -> tuple[StonesAndBonesState, list[Event]]:
        self.check(state, seat, action)
        new = copy_state(state)
        return new, flow.decide(new, seat, action)

    def view(self, state: StonesAndBonesState, seat: int | None) -> StonesAndBonesView:
        return view.view(state, seat)

    def seat_view(self, state: StonesAndBonesState, seat: int, public: BaseModel) -> StonesAndBonesView:
        return view.seat_view(state, seat, cast(StonesAndBonesView, public))

    def has_private_view(self) -> bool:
        """Mutiny votes and Tide-rise choices are sealed."""
        return True

    def scramble_hidden(self, state: StonesAndBonesState, viewer: int | None, rng: random.Random
                        ) -> StonesAndBonesState:
        return view.scramble_hidden(state, viewer, rng)

    def is_over(self, state: StonesAndBonesState) -> bool:
        return state.phase == "over"

    def outcomes(self, state: StonesAndBonesState) -> list[Outcome]:
        return flow.outcomes(state)

    def timeout_action(self, state: StonesAndBonesState, seat: int) -> StonesAndBonesAction:
        return moves.timeout_action(state, seat)

    def timeout_event(self, state: StonesAndBonesState, seat: int, default: StonesAndBonesAction) -> Event:
        """Told with the default's own words ("ran out of time: no Mutiny")."""
        return flow.timeout_event(seat, default)

    def ai_action(self, state: StonesAndBonesState, seat: int, choose: Chooser
                  ) -> StonesAndBonesAction:
        return ai.ai_action(state, seat)


ENGINE = StonesAndBonesEngine()
