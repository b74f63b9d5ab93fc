"""Roll the Bones as Boneyard plays it: the rulebook plus RULINGS.md section 2, RB-1 to RB-10.

«The object of the game is to collect all the dice.» Every roll of a round runs the phases of
RULINGS 2.3, and the state always says which one it is in:

1. **ante** (sealed): each player still in the round chooses which dice to put in;
2. **bone**: public bone-die calls with a Ready flag (RB-2);
3. **pick** (sealed): each player chooses the die to roll;
4. the server rolls every picked die at once and resolves: a single highest roll takes the
   pots (RB-7) and every rolled die (RB-4); a tie sends the tied players round again (RB-5,
   RB-6, without the ante when a tied player rolled their last die).

Sealed choices (an ante being built, a picked die) live in the state but only ``view`` reads
them, and only for their own seat; the public view learns an ante when the whole ante phase
closes and a pick when the dice are rolled. A player with nothing to decide (one die left, a
single kind of die, a called bone die) is not asked: the engine makes the only possible
choice for them, still sealed.

Dice are their number of sides (4, 6, 8, 10, 12); the bone die is the d12 of the dice set.
Seats are "Seat 1".."Seat N" in event text, so the host can put names in.

This class only ties the package together: ``moves`` (who acts, what is legal), ``flow`` (what
decisions do, the phases), ``view`` (what each seat sees), ``ai`` (the bot player).
"""

from __future__ import annotations

import random
from typing import ClassVar, cast

from pydantic import BaseModel

from rules.base import Chooser, Engine, Event, IllegalAction, Outcome
from rules.roll_the_bones import ai, flow, moves, text, view
from rules.roll_the_bones.models import (
    CHANGES_PER_ROLL,
    MAX_SEATS,
    MIN_SEATS,
    ROLLS_PER_ROUND,
    TAKE_BACKS_PER_ANTE,
    RollTheBonesAction,
    RollTheBonesOptions,
    RollTheBonesState,
    copy_state,
)
from rules.roll_the_bones.view import RollTheBonesView


class RollTheBonesEngine(Engine[RollTheBonesState, RollTheBonesAction, RollTheBonesOptions]):
    key: ClassVar[str] = "roll_the_bones"
    title: ClassVar[str] = "Roll the Bones"
    min_seats: ClassVar[int] = MIN_SEATS
    max_seats: ClassVar[int] = MAX_SEATS
    State = RollTheBonesState
    Action = RollTheBonesAction
    Options = RollTheBonesOptions

    def new_game(self, seats: int, options: RollTheBonesOptions, seed: int) -> RollTheBonesState:
        return flow.new_state(seats, options, seed)

    def move_cap(self, seats: int, options: RollTheBonesOptions) -> int:
        """RB-10 caps the rounds and ROLLS_PER_ROUND the rolls of a round. One roll asks each
        seat in it for: an ante of at most base + eliminations dice (each add or fill puts in
        at least one die, and only a take-back, TAKE_BACKS_PER_ANTE at most, makes room for
        another) and its seal; at most CHANGES_PER_ROLL bone-call changes, and a Ready at the
        opening and after each change of anyone's; one pick."""
        options = RollTheBonesOptions.model_validate(options)
        n = seats
        most_ante = (2 if n <= 3 else 1) + max(0, n - 2)  # a round starts with 2 or more left
        ante = most_ante + 2 * TAKE_BACKS_PER_ANTE + 1
        changes = CHANGES_PER_ROLL * n
        bone = changes + n * (1 + changes)
        per_roll = n * ante + bone + n
        return options.max_rounds * ROLLS_PER_ROUND * per_roll

    def to_act(self, state: RollTheBonesState) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: RollTheBonesState, seat: int) -> list[RollTheBonesAction]:
        return moves.legal_actions(state, seat)

    def open_actions(self, state: RollTheBonesState) -> list[RollTheBonesAction]:
        return moves.open_actions(state)

    def refusal(self, state: RollTheBonesState, seat: int, action: RollTheBonesAction) -> str | None:
        return text.refusal(state, seat, action)

    def decision_stamp(self, state: RollTheBonesState, seat: int) -> str:
        return moves.decision_stamp(state, seat)

    def apply(self, state: RollTheBonesState, seat: int, action: RollTheBonesAction
              ) -> tuple[RollTheBonesState, list[Event]]:
        self.check(state, seat, action)
        new = copy_state(state)
        return new, flow.decide(new, seat, action)

    def view(self, state: RollTheBonesState, seat: int | None) -> RollTheBonesView:
        return view.view(state, seat)

    def seat_view(self, state: RollTheBonesState, seat: int, public: BaseModel) -> RollTheBonesView:
        return view.seat_view(state, seat, cast(RollTheBonesView, public))

    def has_private_view(self) -> bool:
        return True

    def scramble_hidden(self, state: RollTheBonesState, viewer: int | None, rng: random.Random
                        ) -> RollTheBonesState:
        return view.scramble_hidden(state, viewer, rng)

    def is_over(self, state: RollTheBonesState) -> bool:
        return state.phase == "over"

    def outcomes(self, state: RollTheBonesState) -> list[Outcome]:
        return flow.outcomes(state)

    def timeout_action(self, state: RollTheBonesState, seat: int) -> RollTheBonesAction:
        """The default as one legal action: Ready in the bone call, the largest allowed die in
        the pick. The ante's default replaces whatever was drafted by the smallest dice, which
        no single action does (``on_timeout`` plays it)."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        if state.phase == "ante":
            raise IllegalAction("The ante's default is no single action: see on_timeout.")
        return flow.timeout_default(state, seat)[1]

    def on_timeout(self, state: RollTheBonesState, seat: int
                   ) -> tuple[RollTheBonesState, list[Event]]:
        """RULINGS 2.3, told in words that name no die (``flow.timeout_default``)."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        staged, action = flow.timeout_default(state, seat)
        new, events = self.apply(staged, seat, action)
        return new, [flow.timeout_event(state, seat), *events]

    def ai_action(self, state: RollTheBonesState, seat: int, choose: Chooser) -> RollTheBonesAction:
        return ai.ai_action(state, seat)


ENGINE = RollTheBonesEngine()
