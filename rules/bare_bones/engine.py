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

from functools import lru_cache
from typing import ClassVar

from rules.base import Chooser, Engine, Event, GameError, IllegalAction, Outcome
from rules.bare_bones import effects, flow
from rules.bare_bones.cards import (
    ACTIONS,
    BY_KEY,
    CARDS,
    COLOURS,
    DICE_CARDS,
    TOTAL_CARDS,
    mean_value,
)
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
from rules.bare_bones.table import (
    STEPS,
    colour_order,
    copy_state,
    has_ability,
    hand_keys,
    planned_dice,
    red_draws_left,
    can_draw,
    turn_of,
    who,
)

A = BareBonesAction
_SETTLE_GUARD = 10_000


@lru_cache(maxsize=8192)
def _a(kind: str, card: str | None = None, colour: str | None = None, seat: int | None = None,
       amount: int | None = None, die: int | None = None, index: int | None = None,
       choice: str | None = None) -> BareBonesAction:
    """Actions are frozen, so each is made once and shared by every list that offers it."""
    return A(kind=kind, card=card, colour=colour, seat=seat, amount=amount, die=die,  # type: ignore[arg-type]
             index=index, choice=choice)  # type: ignore[arg-type]


def opponents(s: BareBonesState, seat: int) -> list[int]:
    """The other seats in play order, starting with the one to ``seat``'s left."""
    at = s.order.index(seat)
    return [s.order[(at + i) % s.seats] for i in range(1, s.seats)]


def answers(s: BareBonesState) -> list[BareBonesAction]:
    """The possible answers to the question held in the state."""
    q = s.pending
    assert q is not None
    t = turn_of(s)
    if q.kind == "mimic":
        return [_a("mimic", colour=c) for c in effects.mimic_colours(s)]
    if q.kind == "joyride_seat":
        return [_a("joyride_seat", seat=o) for o in opponents(s, t.seat)]
    if q.kind == "joyride_card":
        assert q.target is not None
        return [_a("joyride_card", colour=c) for c in effects.joyride_colours(s, q.target)]
    if q.kind == "loan":
        return [_a("loan", amount=n) for n in effects.loan_amounts(s)]
    if q.kind == "yard_sale":
        return [_a("sell", card=k) for k in hand_keys(s.players[t.seat].hand)]
    if q.kind == "swap_give":
        return [_a("swap_give", card=k) for k in hand_keys(s.players[t.seat].hand)] + [_a("swap_done")]
    if q.kind == "swap_take":
        return [_a("swap_take", card=k) for k in effects.swap_take_keys(s, effects.swap_value(q))]
    if q.kind == "double_up":
        return [_a("double_up", colour=c) for c in effects.double_up_colours(s)]
    if q.kind == "purple":
        return [_a("purple", choice="purple"), _a("purple", choice="blue_red")]
    if q.kind == "leave_out":
        return [_a("leave_out", colour=c) for c in colour_order(planned_dice(s))]
    if q.kind == "full_house":
        return ([_a("fh_mark", die=i) for i in range(len(t.dice)) if i not in q.marked]
                + [_a("fh_roll")])
    if q.kind == "pattern":
        return [_a("pattern", index=i) for i in range(len(q.options))]
    if q.kind == "potato":
        return [_a("potato", seat=-1)] + [_a("potato", seat=o) for o in opponents(s, t.seat)]
    raise AssertionError(q.kind)


def _legal(s: BareBonesState) -> list[BareBonesAction]:
    """What the seat in ``to_act`` may do now."""
    if s.phase == "draft":
        return [_a("draft", card=k) for k in flow.draft_keys(s)]
    if s.pending is not None:
        return answers(s)
    t = turn_of(s)
    if t.stage == "match":
        return [_a("match", colour=c) for c in flow.matchable(s)] + [_a("no_match")]
    if t.stage == "play":
        plays = [_a("play", card=k) for k in hand_keys(s.players[t.seat].hand) if flow.can_play(s, k)]
        if red_draws_left(t) > 0 and can_draw(s, t.seat):
            plays.append(_a("red_draw"))
        return plays + [_a("roll")]
    if t.stage == "reroll":
        found: list[BareBonesAction] = []
        if (not t.green_used and has_ability(t, "green_reroll")
                and any(d.colour == "green" for d in t.dice)):
            found.append(_a("green"))
        if t.rerolls > 0:
            found += [_a("reroll", die=i) for i in range(len(t.dice))]
        if t.second_roll == "open" and t.dice:
            found.append(_a("full_house"))
        return found + [_a("rerolls_done")]
    if t.stage == "buy":
        return [_a("buy", card=k) for k in flow.buy_keys(s)] + [_a("buy_done")]
    raise AssertionError(f"no decision in stage {t.stage}")


#: what a decision that changes nothing on the table by itself is called in the log
_QUIET = {
    "roll": "is done playing cards",
    "rerolls_done": "is done re-rolling",
    "purple": "rolls a Purple die for a Purple Dice Card",
    "full_house": "takes Full House's second roll",
    "fh_mark": "picks a die to roll again",
    "buy_done": "is done buying",
}


def _do(s: BareBonesState, action: BareBonesAction, events: list[Event], said_by_player: bool = True
        ) -> None:
    """One decision on a copied state, then every stage that follows by itself. A decision a
    player made leaves at least one line in the log; one made for them because it was the only
    one possible says nothing unless something happened."""
    seat = seat_to_act(s)
    said = len(events)
    _decide(s, action, events)
    if len(events) == said and seat is not None and said_by_player:
        events.append(Event(kind=action.kind, seat=seat,
                            text=f"{who(seat)} {_QUIET.get(action.kind, 'decides')}."))
    flow.advance(s, events)


def _decide(s: BareBonesState, action: BareBonesAction, events: list[Event]) -> None:
    kind = action.kind
    if s.phase == "draft":
        assert action.card is not None
        flow.draft_pick(s, action.card, events)
    elif s.pending is not None:
        pending, s.pending = s.pending, None
        STEPS[pending.resume](s, pending, action, events)
    elif kind == "match":
        assert action.colour is not None
        flow.bonus_match(s, action.colour, events)
    elif kind == "no_match":
        flow.end_matching(s, events)
    elif kind == "play":
        assert action.card is not None
        flow.play_card(s, action.card, events)
    elif kind == "red_draw":
        effects.red_draw(s, events)
    elif kind == "roll":
        flow.start_rolling(s, events)
    elif kind == "green":
        effects.green_reroll(s, events)
    elif kind == "reroll":
        assert action.die is not None
        effects.re_re_roll_die(s, action.die, events)
    elif kind == "full_house":
        effects.full_house_second_roll(s, events)
    elif kind == "rerolls_done":
        flow.stop_rerolling(s, events)
    elif kind == "buy":
        assert action.card is not None
        flow.buy(s, action.card, events)
    elif kind == "buy_done":
        flow.end_buying(s, events)
    else:
        raise AssertionError(kind)


def _settle(s: BareBonesState, events: list[Event]) -> None:
    """A decision with one possible answer is no decision: make it at once."""
    for _ in range(_SETTLE_GUARD):
        if s.phase == "over":
            return
        legal = _legal(s)
        if len(legal) != 1:
            return
        _do(s, legal[0], events, said_by_player=False)
    raise AssertionError("forced moves did not settle")


def seat_to_act(s: BareBonesState) -> int | None:
    if s.phase == "over":
        return None
    if s.phase == "draft":
        return flow.drafter(s)
    return turn_of(s).seat


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
        _settle(state, [])
        return state

    def has_private_view(self) -> bool:
        """Every player holds a secret hand."""
        return True

    def to_act(self, state: BareBonesState) -> list[int]:
        seat = seat_to_act(state)
        return [] if seat is None else [seat]

    def legal_actions(self, state: BareBonesState, seat: int) -> list[BareBonesAction]:
        """Deterministic; at most 25 entries (one button or option per kind of card, colour,
        die, opponent or amount)."""
        if seat != seat_to_act(state):
            return []
        return _legal(state)

    def check(self, state: BareBonesState, seat: int, action: BareBonesAction) -> None:
        if seat != seat_to_act(state):
            raise IllegalAction("It is not your turn.")
        legal = _legal(state)
        if not any(a is action for a in legal) and action not in legal:
            raise IllegalAction("That move is not allowed now.")

    def apply(self, state: BareBonesState, seat: int, action: BareBonesAction
              ) -> tuple[BareBonesState, list[Event]]:
        self.check(state, seat, action)
        s = copy_state(state)
        events: list[Event] = []
        _do(s, action, events)
        _settle(s, events)
        return s, events

    def view(self, state: BareBonesState, seat: int | None) -> BareBonesView:
        """Public: everything on the table. A seat also sees its own hand and discard pile; no
        one sees another hand (unless Joyride or Full House showed it) or a draw pile's order."""
        from rules.bare_bones.text import build_view

        return build_view(self, state, seat)

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
        card there is, then takes one; Joyride asks twice); Red draws (one per 2 Dice Cards);
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

    # -- timeouts -----------------------------------------------------------------------------

    def timeout_action(self, state: BareBonesState, seat: int) -> BareBonesAction:
        """RULINGS 1.3: play all Dice Cards and no Actions, no re-rolls, the best scoring
        choice, buy nothing, skip the bonus match; in the Draft the highest-cost draftable
        Dice Card. A question a card played before the timeout is still asking gets the answer
        that costs the player least (see ``rules_summary``)."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("Nothing is waiting for that seat.")
        s = state
        if s.phase == "draft":
            dice = [a for a in legal if BY_KEY[a.card or ""].is_dice]
            pool = dice or legal
            return max(pool, key=lambda a: (BY_KEY[a.card or ""].cost, BY_KEY[a.card or ""].fpv))
        if s.pending is not None:
            return _timeout_answer(s, legal)
        t = turn_of(s)
        if t.stage == "play":
            dice = [a for a in legal if a.kind == "play" and BY_KEY[a.card or ""].is_dice]
            return dice[0] if dice else _a("roll")
        return legal[-1]  # no_match, rerolls_done, buy_done

    def on_timeout(self, state: BareBonesState, seat: int) -> tuple[BareBonesState, list[Event]]:
        """The default for the rest of the seat's turn (one pick in the Draft)."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        what = ("the highest-cost Dice Card it may draft is picked" if state.phase == "draft"
                else "all Dice Cards are played and no Actions, the best score is taken, nothing "
                     "is bought")
        events = [Event(kind="timeout", seat=seat, text=f"{who(seat)} ran out of time: {what}.")]
        s = copy_state(state)
        if s.phase == "draft":
            _do(s, self.timeout_action(s, seat), events)
            _settle(s, events)
            return s, events
        at = (s.round, s.position)
        while s.phase == "turn" and seat_to_act(s) == seat and (s.round, s.position) == at:
            _do(s, self.timeout_action(s, seat), events)  # taken from the legal actions
            _settle(s, events)
        return s, events

    def ai_action(self, state: BareBonesState, seat: int, choose: Chooser) -> BareBonesAction:
        """See ``ai.choose_action``."""
        from rules.bare_bones.ai import choose_action

        return choose_action(self, state, seat, choose)


def _timeout_answer(s: BareBonesState, legal: list[BareBonesAction]) -> BareBonesAction:
    q = s.pending
    assert q is not None
    if q.kind in ("mimic", "double_up"):
        return max(legal, key=lambda a: mean_value(a.colour or ""))
    if q.kind == "leave_out":
        return min(legal, key=lambda a: mean_value(a.colour or ""))
    if q.kind == "joyride_card":
        return max(legal, key=lambda a: DICE_CARDS[a.colour or ""].cost)
    if q.kind == "yard_sale":
        return min(legal, key=lambda a: BY_KEY[a.card or ""].cost)
    if q.kind == "swap_give":
        return _a("swap_done")
    if q.kind == "swap_take":
        return max(legal, key=lambda a: BY_KEY[a.card or ""].cost)
    if q.kind == "potato":
        seat = turn_of(s).seat
        others = opponents(s, seat)
        leader = max(others, key=lambda o: (s.players[o].score, -others.index(o)))
        return _a("potato", seat=leader)
    if q.kind == "full_house":
        return _a("fh_roll")
    # loan: borrow nothing; purple: the Purple die; joyride_seat: the next opponent;
    # pattern: the best result (options come best first)
    return legal[0]


ENGINE = BareBonesEngine()


def action(kind: str, **fields: object) -> BareBonesAction:
    """An action by its fields, as the UI or a test names it."""
    return _a(kind, **fields)  # type: ignore[arg-type]
