"""Roll the Bones: what each seat and the channel may see.

The sealed choices are the ante a seat is building and the die it picked: they live in the
state, but only ``view`` reads them, and only for their own seat. The channel learns every ante
when the whole ante phase closes and every pick when the dice are rolled (in ``this_round`` and
``last_round``). ``scramble_hidden`` declares exactly those secrets.
"""

from __future__ import annotations

import random

from pydantic import BaseModel

from rules.roll_the_bones.models import (
    BONE,
    CHANGES_PER_ROLL,
    EndReason,
    Phase,
    RollRecord,
    RollTheBonesOptions,
    RollTheBonesState,
    RoundReport,
    copy_state,
    dice_counts,
    dice_text,
    die_name,
    pot_name,
)
from rules.roll_the_bones.moves import (
    can_call,
    dice_in_play,
    pick_options,
    take_backs_left,
    to_act,
    winners,
)


class SeatView(BaseModel):
    seat: int
    #: the collection by die type; public, as dice on a table are
    dice: dict[str, int]
    total: int
    bones: int
    eliminated: bool
    eliminated_round: int | None
    in_round: bool
    #: whether the game waits for this seat now
    owes: bool
    #: in a sealed phase: has sealed their choice (never *what* they chose)
    chosen: bool
    #: dice this seat must put in this cycle, and whether that is short of the ante
    ante_due: int
    short: bool
    called: bool
    forced_call: bool
    can_call: bool
    changes_left: int
    ready: bool


class PotView(BaseModel):
    name: str
    dice: dict[str, int]
    count: int
    eligible: list[int]


class PrivateView(BaseModel):
    """What only this seat may see: its collection, its ante being built and its pick."""

    seat: int
    hand: dict[str, int]
    hand_sides: list[int]
    ante_due: int
    draft: dict[str, int]
    draft_sides: list[int]
    pick: int | None
    pick_options: list[int]
    called: bool
    #: dice this seat may still take back from the ante it is building
    take_backs_left: int = 0
    prompt: str


class RollTheBonesView(BaseModel):
    phase: Phase
    over: bool
    end_reason: EndReason | None
    winners: list[int]
    round: int
    max_rounds: int
    cycle: int
    options: RollTheBonesOptions
    base_ante: int
    ante: int
    eliminations: int
    dice_total: int
    seats: list[SeatView]
    in_round: list[int]
    to_act: list[int]
    pots: list[PotView]
    pot_total: int
    #: this cycle's antes per seat (by type), once the ante phase has closed; None before
    antes: list[dict[str, int]] | None
    this_round: list[RollRecord]
    last_round: RoundReport | None
    me: PrivateView | None = None


def view(state: RollTheBonesState, seat: int | None) -> RollTheBonesView:
    """The public view shows who has sealed a choice, never what: drafts and picks appear only
    in ``me``, for their own seat."""
    acting = to_act(state)
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
    public = RollTheBonesView(
        phase=state.phase, over=state.phase == "over", end_reason=state.end_reason,
        winners=winners(state), round=state.round, max_rounds=state.options.max_rounds,
        cycle=state.cycle, options=state.options, base_ante=state.base_ante, ante=state.ante,
        eliminations=len(state.eliminated), dice_total=dice_in_play(state), seats=seats,
        in_round=list(state.in_round), to_act=acting,
        pots=[PotView(name=pot_name(i), dice=dice_counts(p.dice), count=len(p.dice),
                      eligible=list(p.eligible)) for i, p in enumerate(state.pots)],
        pot_total=sum(len(p.dice) for p in state.pots),
        antes=None if state.antes is None else [dice_counts(a) for a in state.antes],
        this_round=list(state.this_round), last_round=state.last_round,
    )
    return public if seat is None else seat_view(state, seat, public)


def seat_view(state: RollTheBonesState, seat: int, public: RollTheBonesView) -> RollTheBonesView:
    """``view(state, seat)`` from the public view of the same state: a seat's drafts and picks
    are in ``me``, and nothing else differs."""
    if not 0 <= seat < state.seats:
        return public
    return public.model_copy(update={"me": _private(state, seat, public.to_act)})


def _private(state: RollTheBonesState, seat: int, acting: list[int]) -> PrivateView:
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
        if seat not in acting:
            prompt = "You are ready; waiting for the others."
        elif can_call(state, seat):
            prompt = "Call the bone die to roll it this time, or press Ready."
        else:
            prompt = "Your changes of call are used, so your call stands; press Ready."
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


def scramble_hidden(state: RollTheBonesState, viewer: int | None, rng: random.Random
                    ) -> RollTheBonesState:
    """The same table with every other seat's sealed choice changed to another it could be: in
    the ante, a sealed ante becomes other dice of its size from the same collection and an ante
    being built any draft not larger than its due; in the pick, a picked die becomes another
    the seat may roll. Whether a seat has chosen is public, so it stays."""
    other = copy_state(state)
    for seat in other.in_round:
        if seat == viewer:
            continue
        if other.phase == "ante":
            due = other.required[seat]
            size = due if other.confirmed[seat] else rng.randint(0, due)
            other.drafts[seat] = sorted(rng.sample(other.hands[seat], size))
        elif other.phase == "pick" and other.picks[seat] is not None:
            other.picks[seat] = rng.choice(pick_options(other, seat))
    return other
