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
"""

from __future__ import annotations

import zlib
from collections import Counter
from typing import ClassVar

from rules.base import Chooser, Engine, Event, GameError, IllegalAction, Outcome
from rules.rng import Dice
from rules.roll_the_bones.flow import (
    begin_round,
    can_call,
    copy_state,
    dice_in_play,
    filled_ante,
    make_event,
    pick_options,
    pot_name,
    refresh_ready,
    seat_name,
    settle,
    smallest_ante,
    start_round,
    take_backs_left,
    winners,
)
from rules.roll_the_bones.models import (
    BONE,
    CHANGES_PER_ROLL,
    DICE_SETS,
    MAX_SEATS,
    MIN_SEATS,
    ROLLS_PER_ROUND,
    START_DICE,
    TAKE_BACKS_PER_ANTE,
    PotView,
    PrivateView,
    RollTheBonesAction,
    RollTheBonesOptions,
    RollTheBonesState,
    RollTheBonesView,
    SeatView,
    dice_counts,
    dice_text,
    die_name,
    make_action,
    starting_hand,
)
from rules.roll_the_bones.text import action_label, rules_summary

__all__ = ["ENGINE", "RollTheBonesEngine", "action_label", "rules_summary", "start_round"]

# -- the engine -----------------------------------------------------------------------------


class RollTheBonesEngine(Engine[RollTheBonesState, RollTheBonesAction, RollTheBonesOptions]):
    key: ClassVar[str] = "roll-the-bones"
    title: ClassVar[str] = "Roll the Bones"
    min_seats: ClassVar[int] = MIN_SEATS
    max_seats: ClassVar[int] = MAX_SEATS
    State = RollTheBonesState
    Action = RollTheBonesAction
    Options = RollTheBonesOptions

    def new_game(self, seats: int, options: RollTheBonesOptions, seed: int) -> RollTheBonesState:
        options = RollTheBonesOptions.model_validate(options).model_copy()
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise GameError(f"Roll the Bones is for {MIN_SEATS} to {MAX_SEATS} players.")
        base = 2 if seats <= 3 else 1  # «In a 2-3 player game, players ante 2 dice instead»
        hand = starting_hand(options.dice_set)
        state = RollTheBonesState(
            seats=seats, options=options, base_ante=base, ante=base,
            hands=[list(hand) for _ in range(seats)],
            eliminated_round=[None] * seats, phase="ante", in_round=[], required=[0] * seats,
            drafts=[[] for _ in range(seats)], confirmed=[False] * seats, picks=[None] * seats,
            calls=[False] * seats, forced_calls=[False] * seats, changes=[0] * seats,
            ready=[False] * seats, counts_at_round_start=[START_DICE] * seats,
            dice=Dice(seed=seed),
        )
        begin_round(state, [])
        settle(state, [])
        return state

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
        if state.phase in ("ante", "pick"):
            return [s for s in state.in_round if not state.confirmed[s]]
        if state.phase == "bone":
            return [s for s in state.in_round if not state.ready[s]]
        return []

    def legal_actions(self, state: RollTheBonesState, seat: int) -> list[RollTheBonesAction]:
        """Ante: one "add" per kind of die still free (smallest first), one "take back" per
        kind in the draft (while the seat has take-backs left), then "fill with the smallest"
        while the draft is short or "confirm" once it is complete; bone call: the toggle (if
        the seat may still change it) then Ready; pick: one per kind of die it may roll. At
        most 11 entries."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "ante":
            hand, draft, due = state.hands[seat], state.drafts[seat], state.required[seat]
            actions: list[RollTheBonesAction] = []
            if len(draft) < due:
                actions += [make_action("ante_add", sides) for sides in sorted(set(hand))
                            if hand.count(sides) > draft.count(sides)]
            if take_backs_left(state, seat):
                actions += [make_action("ante_remove", sides) for sides in sorted(set(draft))]
            actions.append(make_action("ante_fill") if len(draft) < due else make_action("ante_confirm"))
            return actions
        if state.phase == "bone":
            return ([make_action("bone_toggle")] if can_call(state, seat) else []) + [make_action("ready")]
        return [make_action("pick", sides) for sides in pick_options(state, seat)]

    def apply(self, state: RollTheBonesState, seat: int, action: RollTheBonesAction
              ) -> tuple[RollTheBonesState, list[Event]]:
        self.check(state, seat, action)
        new = copy_state(state)
        events: list[Event] = []
        kind = action.kind
        if kind == "ante_add":
            assert action.sides is not None
            new.drafts[seat].append(action.sides)
            new.drafts[seat].sort()
        elif kind == "ante_remove":
            assert action.sides is not None
            new.drafts[seat].remove(action.sides)
            if len(new.take_backs) < new.seats:
                new.take_backs = new.take_backs + [0] * (new.seats - len(new.take_backs))
            new.take_backs[seat] += 1
        elif kind == "ante_fill":
            new.drafts[seat] = filled_ante(new.hands[seat], new.drafts[seat], new.required[seat])
        elif kind == "ante_confirm":
            new.confirmed[seat] = True
            events.append(make_event("chose", f"{seat_name(seat)} has sealed their ante.", seat))
        elif kind == "bone_toggle":
            new.calls[seat] = not new.calls[seat]
            new.changes[seat] += 1
            left = CHANGES_PER_ROLL - new.changes[seat]
            verb = "calls the bone die" if new.calls[seat] else "withdraws their bone call"
            events.append(make_event(
                "call", f"{seat_name(seat)} {verb} ({left} change{'s' if left != 1 else ''} left); "
                        "everyone must be Ready again.", seat))
            refresh_ready(new)  # RB-2: Ready counts only since the last change
        elif kind == "ready":
            new.ready[seat] = True
            events.append(make_event("ready", f"{seat_name(seat)} is ready.", seat))
        else:  # pick
            new.picks[seat] = action.sides
            new.confirmed[seat] = True
            events.append(make_event("chose", f"{seat_name(seat)} has picked a die.", seat))
        settle(new, events)  # the last seal or Ready closes the phase
        return new, events

    def view(self, state: RollTheBonesState, seat: int | None) -> RollTheBonesView:
        """The public view shows who has sealed a choice, never what: drafts and picks appear
        only in ``me``, for their own seat. Antes become public when the ante phase closes,
        picks when the dice are rolled (in ``this_round``/``last_round``)."""
        acting = self.to_act(state)
        sealed = state.phase in ("ante", "pick")
        seats = []
        for s in range(state.seats):
            hand = state.hands[s]
            in_round = s in state.in_round
            seats.append(SeatView(
                seat=s, dice=dice_counts(hand), total=len(hand), bones=hand.count(BONE),
                eliminated=state.eliminated_round[s] is not None,
                eliminated_round=state.eliminated_round[s], in_round=in_round, owes=s in acting,
                chosen=sealed and in_round and state.confirmed[s],
                ante_due=state.required[s],
                short=in_round and state.anteing and state.required[s] < state.ante,
                called=in_round and state.calls[s], forced_call=in_round and state.forced_calls[s],
                can_call=can_call(state, s),
                changes_left=CHANGES_PER_ROLL - state.changes[s] if in_round else 0,
                ready=state.phase == "bone" and in_round and state.ready[s],
            ))
        me = None
        if seat is not None and 0 <= seat < state.seats:
            me = self._private(state, seat, acting)
        return RollTheBonesView(
            phase=state.phase, over=state.phase == "over", end_reason=state.end_reason,
            winners=winners(state), round=state.round, max_rounds=state.options.max_rounds,
            cycle=state.cycle, options=state.options, base_ante=state.base_ante, ante=state.ante,
            eliminations=len(state.eliminated), dice_total=dice_in_play(state), seats=seats,
            in_round=list(state.in_round), to_act=acting,
            pots=[PotView(name=pot_name(i), dice=dice_counts(p.dice), count=len(p.dice),
                          eligible=list(p.eligible)) for i, p in enumerate(state.pots)],
            pot_total=sum(len(p.dice) for p in state.pots),
            antes=None if state.antes is None else [dice_counts(a) for a in state.antes],
            this_round=list(state.this_round), last_round=state.last_round, me=me,
        )

    def _private(self, state: RollTheBonesState, seat: int, acting: list[int]) -> PrivateView:
        hand = state.hands[seat]
        draft = state.drafts[seat] if state.phase == "ante" else []
        due = state.required[seat]
        if seat not in state.in_round:
            prompt = ("The game is over." if state.phase == "over"
                      else "You are out of this roll; wait for the next round.")
        elif state.phase == "ante":
            left = take_backs_left(state, seat)
            prompt = (f"Your ante is sealed: {dice_text(draft)}." if seat not in acting else
                      f"Choose {due} {'die' if due == 1 else 'dice'} to ante ({len(draft)} "
                      "chosen; Fill adds your smallest), then seal it. Nobody sees them until "
                      "all antes are in. "
                      + (f"You may take back {left} more {'die' if left == 1 else 'dice'}."
                         if left else "You can take back no more dice."))
        elif state.phase == "bone":
            prompt = ("Call the bone die to roll it this time, or press Ready."
                      if seat in acting else "You are ready; waiting for the others.")
        else:
            picked = state.picks[seat]
            prompt = (f"You will roll your {die_name(picked)}." if picked is not None else
                      "Pick the die to roll; nobody sees it until all dice are rolled.")
        return PrivateView(
            seat=seat, hand=dice_counts(hand), hand_sides=list(hand), ante_due=due,
            draft=dice_counts(draft), draft_sides=list(draft),
            pick=state.picks[seat] if state.phase == "pick" else None,
            pick_options=pick_options(state, seat) if state.phase == "pick" else [],
            called=seat in state.in_round and state.calls[seat], prompt=prompt,
            take_backs_left=take_backs_left(state, seat) if state.phase == "ante" else 0,
        )

    def is_over(self, state: RollTheBonesState) -> bool:
        return state.phase == "over"

    def outcomes(self, state: RollTheBonesState) -> list[Outcome]:
        """Most dice first (RB-10: ties shared); eliminated seats after the live ones, the later
        out placed higher, seats out in the same round sharing a place. Score = dice held."""
        def key(s: int) -> tuple[int, int]:
            out = state.eliminated_round[s]
            return (len(state.hands[s]), out if out is not None else state.round + 1)

        keys = [key(s) for s in range(state.seats)]
        return [
            Outcome(seat=s, rank=1 + sum(other > keys[s] for other in keys), score=len(state.hands[s]))
            for s in range(state.seats)
        ]

    def timeout_action(self, state: RollTheBonesState, seat: int) -> RollTheBonesAction | None:
        """RULINGS 2.3: ante the smallest dice; calls stay as they are (Ready); roll the largest
        ordinary die, or the bone die if called. None in the ante: the draft is replaced."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        if state.phase == "ante":
            return None
        if state.phase == "bone":
            return make_action("ready")
        return make_action("pick", pick_options(state, seat)[-1])

    def on_timeout(self, state: RollTheBonesState, seat: int
                   ) -> tuple[RollTheBonesState, list[Event]]:
        action = self.timeout_action(state, seat)
        # Words that name no die: the default is public, but the table learns the dice at the
        # reveal like everyone else's.
        what = {"ante": "the default ante is sealed for them",
                "bone": "their bone call stays as it is",
                "pick": "the default die is picked for them"}[state.phase]
        events = [make_event("timeout", f"{seat_name(seat)} ran out of time: {what}.", seat)]
        if action is None:  # the ante: whatever was drafted, the default is the smallest dice
            staged = copy_state(state)
            staged.drafts[seat] = smallest_ante(state.hands[seat], state.required[seat])
            state, more = self.apply(staged, seat, make_action("ante_confirm"))
        else:
            state, more = self.apply(state, seat, action)
        return state, events + more

    def ai_action(self, state: RollTheBonesState, seat: int, choose: Chooser) -> RollTheBonesAction:
        """The issue's policy: ante the smallest dice, call the bone whenever holding one, roll
        the largest allowed die (so the bone die when called). Deterministic."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        if state.phase == "ante":
            target = Counter(smallest_ante(state.hands[seat], state.required[seat]))
            draft = Counter(state.drafts[seat])
            extra = sorted((draft - target).elements())
            if extra and take_backs_left(state, seat):
                return make_action("ante_remove", extra[-1])
            if sum(draft.values()) < state.required[seat]:
                return make_action("ante_fill")  # the rest with the smallest dice
            return make_action("ante_confirm")
        if state.phase == "bone":
            if can_call(state, seat) and not state.calls[seat]:
                return make_action("bone_toggle")
            return make_action("ready")
        return make_action("pick", pick_options(state, seat)[-1])

    def has_private_view(self) -> bool:
        return True

    def open_actions(self, state: RollTheBonesState) -> list[RollTheBonesAction]:
        """RB-2: the bone call is made in the open, so its buttons sit on the table itself."""
        return [make_action("bone_toggle"), make_action("ready")] if state.phase == "bone" else []

    def decision_stamp(self, state: RollTheBonesState, seat: int) -> str:
        """Everything a seat's own choices depend on: another seat sealing its ante leaves this
        seat's buttons valid, while its own click (a die added, a call made) retires them."""
        mine = (state.round, state.cycle, state.phase, state.hands[seat], state.drafts[seat],
                state.confirmed[seat], state.picks[seat], state.calls[seat], state.changes[seat],
                state.ready[seat])
        return f"{zlib.crc32(repr(mine).encode()):08x}"


ENGINE = RollTheBonesEngine()
