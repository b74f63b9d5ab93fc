"""Bare Bones (rulebook 2025) as Boneyard plays it: RULINGS.md section 1, BB-1 to BB-17.

The engine keeps the shape of the others: ``apply`` is pure, the dice and the shuffles come from
streams kept in the state, and ``legal_actions`` is the one list the UI, the checks, bot seats
and fuzzers use. One seat decides at a time: the player whose turn it is, for every question a
card asks, and for the bonus match of the cards the player before left (RULINGS 1.3, step 0);
in the Draft, the player picking. A decision with only one possible answer is made at once.

Dice come from ``state.dice`` in this order, which tests rely on when forcing faces (1-6, the
position of the face in the colour's list, not its number): the 4 Blue dice of each seat for
the play order at setup; then, a turn, the dice in play-area order (a Purple's Blue before its
Red), re-rolls as they are asked for, Can't Touch This dice at cleanup. Shuffles use their own
stream (``state.shuffler``), so a reshuffle never eats a forced face.
"""

from __future__ import annotations

import random
from typing import ClassVar, cast

from pydantic import BaseModel

from rules.base import Chooser, Engine, Event, GameError, IllegalAction, Outcome, copy_state
from rules.bare_bones import ai, flow, moves
from rules.bare_bones.cards import ACTIONS, CARDS, COLOURS, TOTAL_CARDS
from rules.bare_bones.models import (
    AU_LIMIT,
    DICE_CAP,
    DRAFT_ROUNDS,
    MAX_SEATS,
    MIN_SEATS,
    ROUNDS,
    BareBonesAction,
    BareBonesOptions,
    BareBonesState,
    BareBonesView,
)
from rules.bare_bones.table import who
from rules.bare_bones.view import scramble_hidden
from rules.bare_bones.view import seat_view as seat_view_of
from rules.bare_bones.view import view as view_of


class BareBonesEngine(Engine[BareBonesState, BareBonesAction, BareBonesOptions]):
    key: ClassVar[str] = "bare_bones"
    title: ClassVar[str] = "Bare Bones"
    min_seats: ClassVar[int] = MIN_SEATS
    max_seats: ClassVar[int] = MAX_SEATS
    State = BareBonesState
    Action = BareBonesAction
    Options = BareBonesOptions

    def new_game(self, seats: int, options: BareBonesOptions, seed: int) -> BareBonesState:
        options = BareBonesOptions.model_validate(options).model_copy()
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise GameError(f"Bare Bones is for {MIN_SEATS} to {MAX_SEATS} players.")
        state = flow.new_state(seats, options, seed)
        flow.settle(state, [])
        return state

    def has_private_view(self) -> bool:
        """Every player holds a secret hand."""
        return True

    def to_act(self, state: BareBonesState) -> list[int]:
        return moves.to_act(state)

    def legal_actions(self, state: BareBonesState, seat: int) -> list[BareBonesAction]:
        return moves.legal_actions(state, seat)

    def check(self, state: BareBonesState, seat: int, action: BareBonesAction) -> None:
        if seat != moves.seat_to_act(state):
            raise IllegalAction("It is not your turn.")
        legal = moves.legal(state)
        if not any(a is action for a in legal) and action not in legal:
            raise IllegalAction("That move is not allowed now.")

    def apply(self, state: BareBonesState, seat: int, action: BareBonesAction
              ) -> tuple[BareBonesState, list[Event]]:
        self.check(state, seat, action)
        s = copy_state(state)
        events: list[Event] = []
        flow.decide(s, action, events)
        flow.settle(s, events)
        return s, events

    def view(self, state: BareBonesState, seat: int | None) -> BareBonesView:
        """Public: everything on the table. A seat also sees its own hand and discard pile; no
        one sees another hand (unless Joyride or Full House showed it) or a draw pile's order."""
        return view_of(state, seat)

    def seat_view(self, state: BareBonesState, seat: int, public: BaseModel) -> BareBonesView:
        return seat_view_of(state, seat, cast(BareBonesView, public))

    def scramble_hidden(self, state: BareBonesState, viewer: int | None, rng: random.Random
                        ) -> BareBonesState:
        return scramble_hidden(state, viewer, rng)

    def is_over(self, state: BareBonesState) -> bool:
        return state.phase == "over"

    def outcomes(self, state: BareBonesState) -> list[Outcome]:
        """Highest total first; on a tie the player with fewer cards (BB-17); still tied,
        a shared place."""
        finals = state.finals or [flow.final_of(state, seat) for seat in range(state.seats)]
        key = {f.seat: (f.total, -f.cards) for f in finals}
        return [Outcome(seat=f.seat, rank=1 + sum(other > key[f.seat] for other in key.values()),
                        score=f.total) for f in finals]

    def move_cap(self, seats: int, options: BareBonesOptions) -> int:
        """The most actions (timeouts included) a game can take, from the bounds of each
        stage: every move either plays a card out of a hand, answers one of a bounded number of
        questions, or ends a stage.

        A turn: bonus matches (one per colour, then done); at most 5 Actions (1 AU or more each
        of 5) and each Dice Card once; each Action's questions (Swap Meet returns at most every
        card there is, then takes one; Joyride and Loan Shark ask twice); Red draws (one per 2 Dice Cards);
        Double Up's 2 picks, a Purple question and 2 left-out dice per Dice Card; re-rolls
        (Green once, 2 Re-Re-Rolls of 2, Full House's marks on 6 dice, its roll, done); one
        scoring choice; a buy per Supply stack and done; 2 Hot Potatoes."""
        dice_cards = sum(1 for c in CARDS if c.is_dice)
        # Dice Cards in play: each played once, plus Mimics and a borrowed card (by AU)
        in_play = dice_cards + AU_LIMIT
        stacks = len(COLOURS) + 7
        per_turn = (
            (len(COLOURS) + 1)  # bonus matching
            + AU_LIMIT + dice_cards + 1  # card plays, then roll
            + AU_LIMIT * (TOTAL_CARDS + 2)  # the questions the Actions ask
            + in_play // 2  # Red draws
            + 2 + in_play + 2 * in_play  # Double Up, Purple, dice left out
            + 1 + 2 * 2 + (DICE_CAP + 2) + 1  # re-rolls
            + 1  # scoring
            + stacks + 1  # buying
            + AU_LIMIT // ACTIONS["hot_potato"].au  # Hot Potatoes
        )
        return DRAFT_ROUNDS * seats + ROUNDS * seats * per_turn

    def timeout_action(self, state: BareBonesState, seat: int) -> BareBonesAction:
        """See ``moves.timeout_action``."""
        action = moves.timeout_action(state, seat)
        if action is None:
            raise IllegalAction("Nothing is waiting for that seat.")
        return action

    def on_timeout(self, state: BareBonesState, seat: int) -> tuple[BareBonesState, list[Event]]:
        """The default for the rest of the seat's turn (one pick in the Draft)."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        what = ("the highest-cost Dice Card it may draft is picked" if state.phase == "draft"
                else "all Dice Cards are played and no Actions, the best score is taken, nothing "
                     "is bought")
        events = [Event(kind="timeout", seat=seat, seats=(seat,),
                        text=f"{who(seat)} ran out of time: {what}.")]
        s = copy_state(state)
        if s.phase == "draft":
            flow.decide(s, self.timeout_action(s, seat), events)
            flow.settle(s, events)
            return s, events
        at = (s.round, s.position)
        while s.phase == "turn" and moves.seat_to_act(s) == seat and (s.round, s.position) == at:
            flow.decide(s, self.timeout_action(s, seat), events)  # taken from the legal actions
            flow.settle(s, events)
        return s, events

    def ai_action(self, state: BareBonesState, seat: int, choose: Chooser) -> BareBonesAction:
        """See ``ai.choose_action``."""
        action = ai.choose_action(state, seat, choose)
        if action is None:
            raise IllegalAction("Nothing is waiting for that seat.")
        return action


ENGINE = BareBonesEngine()
