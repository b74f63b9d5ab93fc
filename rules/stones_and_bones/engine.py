"""Stones & Bones (Quick Core Rulebook v1.2) as Boneyard plays it: RULINGS.md section 5.

A turn, as the rulebook has it: «Raise the Sails: Ante 1 Silver × Tide», «Throw the Bones»,
read the bet, «Pay Bet», «Throw Stone», «Resolve Outcome». The state always waits for a real
decision: the ante, the throws, the Crossbones check, the Stone, the Captain's roll-off and the
Challenge rolls happen inside ``apply``, each leaving an event in plain words. What players
decide: pay and throw (or Pilfer, Fly the Black, fold, Walk the Plank when broke), Grumbles,
Mutiny (the call, the parley, the sealed vote, the split of the coffer), Swallow the Anchor and
the sealed Tide-rise choice.

Dice come from ``state.dice`` in this order, which tests rely on when forcing values:
- a turn: four Bones; then one Stone, or two with a Blessing (no Stone for a Crossbones, a
  Cursed roller or Fly the Black); Fly the Black and Walk the Plank each throw four Bones again;
- a roll-off for Captain: a d20 per player afloat in seat order, again among the tied;
- a Challenge: a d4 per non-Captain afloat in seat order, then the Captain's d20 and d6, then
  the Mutineer's d20; Cutthroat: a d2 (1 = heads), then the Captain's d20, d6, d4 and the
  Mutineer's d20, d6, d4;
- a Grumbles reroll: the claimer's Stones again, or four Bones for a Crossbones or the Plank.

Seats are 0-based in the state and "Seat N" (1-based) in event text. Money is integer copper.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import ClassVar

from rules.base import Chooser, Engine, Event, GameError, IllegalAction, Outcome
from rules.rng import Dice
from rules.stones_and_bones.flow import (
    CAPTAINS_LUCK,
    GIFTS,
    GIFTS_PER_PARLEY,
    GRUMBLE_FEE,
    LAST_TIDE,
    TURN_CAP,
    WAVES_PER_TIDE,
    after_claim,
    afloat_seats,
    ante_at,
    begin_turn,
    begin_wave,
    can_pilfer,
    cash_out,
    challenge,
    copy_state,
    emit,
    end_wave,
    ensure_captain,
    gifts_left,
    give_gift,
    grumble_reroll,
    ledger,
    make_action as _a,
    reading_at,
    bet_at,
    resolve_tide,
    roll_off,
    settle_claim,
    side_of,
    split_coffer,
    take_coffer,
    turn_decision,
    voters_of,
    who,
)
from rules.stones_and_bones.models import (
    DEFAULT_PURSE,
    MAX_SEATS,
    MIN_SEATS,
    LedgerRow,
    Pirate,
    StonesAndBonesAction,
    StonesAndBonesOptions,
    StonesAndBonesState,
    StonesAndBonesView,
)
from rules.stones_and_bones.reading import (
    CROSSBONES,
    GP,
    BonesReading,
    bet_of,
    coins,
    crossbones_name,
    crossbones_of,
    expected_bet,
    read_bones,
    signed_coins,
)

__all__ = [
    "CAPTAINS_LUCK", "CROSSBONES", "DEFAULT_PURSE", "ENGINE", "GIFTS", "GIFTS_PER_PARLEY",
    "LAST_TIDE", "TURN_CAP",
    "WAVES_PER_TIDE", "BonesReading", "LedgerRow", "StonesAndBonesAction",
    "StonesAndBonesEngine", "StonesAndBonesOptions", "StonesAndBonesState",
    "StonesAndBonesView", "action_label", "bet_of", "coins", "crossbones_name", "crossbones_of",
    "expected_bet", "ledger", "read_bones", "rules_summary", "signed_coins", "start_turn",
]

A = StonesAndBonesAction
#: the phases whose choices are sealed until all are in (RULINGS 5.4)
SEALED_PHASES = ("vote", "tide")


# -- the engine ---------------------------------------------------------------------------------


def _seat_purses(options: StonesAndBonesOptions, seats: int) -> list[int]:
    if options.purses is None:
        return [options.starting_purse] * seats
    if len(options.purses) != seats:
        raise GameError(f"{len(options.purses)} purses were set for {seats} seats.")
    return list(options.purses)


def start_turn(state: StonesAndBonesState, seat: int | None = None
               ) -> tuple[StonesAndBonesState, list[Event]]:
    """Begin ``seat``'s turn (default: the current seat's) afresh, throwing away the turn
    waiting for its decision and handing back its ante.

    Not a player action: public so that tests and tools can stage a turn from forced dice (put
    them in ``state.dice.forced`` first) after setting purses, the Captain or the Curse."""
    if state.phase != "turn" or state.turn is None or state.turn.result != "pending":
        raise GameError("A turn can only be restaged while it waits for its decision.")
    new = copy_state(state)
    assert new.turn is not None
    if new.turn.ante:
        new.coffer -= new.turn.ante
        new.pirates[new.turn.seat].purse += new.turn.ante
    new.turns -= 1
    new.turn = new.last_turn
    events: list[Event] = []
    begin_turn(new, new.current if seat is None else seat, events)
    return new, events


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
        """Purses from the options, a roll-off for the first Captain, and the first throw.
        ``forced``: dice values for tests (the roll-off comes first)."""
        options = StonesAndBonesOptions.model_validate(options).model_copy()
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise GameError(f"Stones & Bones is for {MIN_SEATS} to {MAX_SEATS} players.")
        purses = _seat_purses(options, seats)
        state = StonesAndBonesState(
            seats=seats, options=options,
            pirates=[Pirate(purse=p, bought_in=p) for p in purses],
            phase="turn", captain=0, current=0, carry=[0] * seats, decided=[False] * seats,
            tide_choices=[None] * seats, dice=Dice(seed=seed, forced=list(forced)),
        )
        events: list[Event] = []
        roll_off(state, events, "To name the first Captain")
        begin_wave(state, events)
        return state

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

    def has_private_view(self) -> bool:
        """Mutiny votes and Tide-rise choices are sealed."""
        return True

    def open_actions(self, state: StonesAndBonesState) -> list[StonesAndBonesAction]:
        """Every decision but the sealed ones is made in the open, on the table itself: the
        union of what the seats owing a decision may do (a click counts for whoever pressed it,
        if it is theirs to make). The Mutiny vote and the Tide-rise choice go to each seat
        privately instead."""
        if state.phase in SEALED_PHASES or state.phase == "over":
            return []
        shared: list[StonesAndBonesAction] = []
        for seat in self.to_act(state):
            shared += [a for a in self.legal_actions(state, seat) if a not in shared]
        return shared

    def decision_stamp(self, state: StonesAndBonesState, seat: int) -> str | None:
        """In a sealed phase a seat's buttons stay valid until its own choice is made, so one
        vote does not void the buttons another voter is about to press."""
        if state.phase == "vote" and state.mutiny is not None:
            mine: tuple[object, ...] = ("v", state.turns, state.waves_played, state.mutiny.votes[seat])
        elif state.phase == "tide":
            choice = state.tide_choices[seat]
            mine = ("t", state.tide, state.waves_played, choice.kind if choice else None)
        else:
            return None
        return f"{zlib.crc32(repr(mine).encode()):08x}"

    def to_act(self, state: StonesAndBonesState) -> list[int]:
        s = state
        if s.phase == "over":
            return []
        if s.phase == "turn":
            waiting = [s.current]
            stone = s.table_stone
            if stone is not None and not stone.settled and can_pilfer(s):
                waiting.append(stone.owner)  # SB-14: the owner may pick it up first
            return waiting
        if s.phase == "split":
            assert s.mutiny is not None and s.mutiny.winner is not None
            return [s.mutiny.winner]
        if s.phase == "anchor":
            assert s.claim is not None
            return [s.claim.seat]
        if s.phase == "grumble":
            assert s.claim is not None
            return [x for x in afloat_seats(s) if x != s.claim.seat and not s.decided[x]]
        if s.phase == "object":
            assert s.claim is not None
            return [x for x in afloat_seats(s) if x != s.claim.grumbler and not s.decided[x]]
        if s.phase == "mutiny_call":
            return [x for x in afloat_seats(s) if x != s.captain and not s.decided[x]]
        if s.phase == "parley":
            return [x for x in afloat_seats(s) if not s.decided[x]]
        if s.phase == "vote":
            assert s.mutiny is not None
            return [x for x in voters_of(s) if s.mutiny.votes[x] is None]
        if s.phase == "tide":
            return [x for x in afloat_seats(s) if s.tide_choices[x] is None]
        raise AssertionError(s.phase)

    def legal_actions(self, state: StonesAndBonesState, seat: int) -> list[StonesAndBonesAction]:
        """Deterministic, at most 16 entries; the timeout's default is always among them."""
        s = state
        if seat not in self.to_act(s):
            return []
        pirate = s.pirates[seat]
        if s.phase == "turn":
            if seat != s.current:
                return [_a("leave_stone"), _a("pick_up")]
            turn = s.turn
            assert turn is not None and turn.bones is not None
            can_pay = pirate.purse >= bet_at(s, turn.bones)
            actions = [_a("pay")] if can_pay else [_a("plank")]
            if can_pilfer(s):
                actions.append(_a("pilfer"))
            if pirate.flew_tide != s.tide:
                actions.append(_a("fly"))
            if s.options.fold and can_pay:  # SB-10 over SB-11: «If broke on bet» → the Plank
                actions.append(_a("fold"))
            return actions
        if s.phase == "grumble":
            fee = GRUMBLE_FEE * s.tide
            return [_a("let_stand")] + ([_a("grumble")] if pirate.purse >= fee else [])
        if s.phase == "object":
            return [_a("allow"), _a("object")]
        if s.phase == "mutiny_call":
            return [_a("pass"), _a("mutiny")]
        if s.phase == "parley":  # gifts are capped per seat, so the parley always ends
            if not gifts_left(s, seat):
                return [_a("ready")]
            gifts = [_a("give", target, amount) for target in afloat_seats(s) if target != seat
                     for amount in GIFTS if amount <= pirate.purse]
            return [_a("ready")] + gifts
        if s.phase == "vote":
            return [_a("nay"), _a("yay")]
        if s.phase == "split":
            m = s.mutiny
            assert m is not None
            actions = [_a("keep"), _a("share_all")]
            if len(side_of(s)) > 1:
                actions.append(_a("share_side"))
            if sum(m.paid) > 0:
                actions.append(_a("refund"))
            actions += [_a("give_half", target) for target in afloat_seats(s) if target != seat]
            return actions
        if s.phase == "anchor":
            return [_a("stay_aboard"), _a("anchor")]
        if s.phase == "tide":
            return ([_a("stay"), _a("heave"), _a("end")]
                    + [_a("buy", amount=amount) for amount in s.options.buy_ins])
        return []

    def apply(self, state: StonesAndBonesState, seat: int, action: StonesAndBonesAction
              ) -> tuple[StonesAndBonesState, list[Event]]:
        self.check(state, seat, action)
        s = copy_state(state)
        events: list[Event] = []
        kind = action.kind
        if s.phase == "turn":
            turn_decision(s, seat, action, events)
        elif s.phase == "grumble":
            assert s.claim is not None
            if kind == "grumble":
                fee = GRUMBLE_FEE * s.tide
                s.pirates[seat].purse -= fee
                s.carry[seat] += fee
                s.claim.grumbler = seat
                s.phase = "object"
                s.decided = [False] * s.seats
                emit(events, "grumble", f"{who(seat)} Grumbles and pays {coins(fee)} into the "
                                        "next coffer: the dice are thrown again unless anyone "
                                        "objects.", seat)
            else:
                s.decided[seat] = True
                emit(events, "let_stand", f"{who(seat)} lets the claim stand.", seat)
                if not self.to_act(s):
                    settle_claim(s, events)
        elif s.phase == "object":
            if kind == "object":
                emit(events, "object", f"{who(seat)} objects: the Grumbles fails.", seat)
                settle_claim(s, events)
            else:
                s.decided[seat] = True
                emit(events, "allow", f"{who(seat)} lets the dice be thrown again.", seat)
                if not self.to_act(s):
                    grumble_reroll(s, events)
        elif s.phase == "mutiny_call":
            self._mutiny_call(s, seat, action, events)
        elif s.phase == "parley":
            if kind == "give":
                assert action.target is not None and action.amount is not None
                give_gift(s, seat, action.target, action.amount, events)
            else:
                s.decided[seat] = True
                emit(events, "ready", f"{who(seat)} is ready to vote.", seat)
                if not self.to_act(s):
                    s.phase = "vote"
                    voters = ", ".join(who(x) for x in voters_of(s))
                    emit(events, "vote", f"The vote on the Mutiny: {voters} vote Yay or Nay, "
                                         "sealed until all are in.")
        elif s.phase == "vote":
            self._vote(s, seat, action, events)
        elif s.phase == "split":
            split_coffer(s, action, events)
            after_claim(s, events)
        elif s.phase == "anchor":
            if kind == "anchor":
                emit(events, "anchor", f"{who(seat)} Swallows the Anchor and cashes out "
                                       f"{coins(s.pirates[seat].purse)}.", seat)
                cash_out(s, seat)
                if len(afloat_seats(s)) >= 2:
                    ensure_captain(s, events)
            else:
                emit(events, "stay_aboard", f"{who(seat)} stays aboard.", seat)
            end_wave(s, events)
        elif s.phase == "tide":
            s.tide_choices[seat] = action
            emit(events, "chosen", f"{who(seat)} has chosen.", seat)
            if not self.to_act(s):
                resolve_tide(s, events)
        return s, events

    def _mutiny_call(self, s: StonesAndBonesState, seat: int, action: A,
                     events: list[Event]) -> None:
        m = s.mutiny
        assert m is not None
        if action.kind == "mutiny":  # SB-12: the first to declare is the Mutineer
            m.mutineer = seat
            s.phase = "parley"
            s.decided = [False] * s.seats
            emit(events, "mutiny", f"{who(seat)} cries Mutiny! Parley before the vote: deals may "
                                   "be struck (and broken), coins given.", seat)
            return
        s.decided[seat] = True
        emit(events, "pass", f"{who(seat)} lets it be.", seat)
        if not self.to_act(s):
            emit(events, "no_mutiny", "Nobody cries Mutiny.")
            take_coffer(s, m.captain, events)
            after_claim(s, events)

    def _vote(self, s: StonesAndBonesState, seat: int, action: A, events: list[Event]) -> None:
        m = s.mutiny
        assert m is not None
        m.votes[seat] = "yay" if action.kind == "yay" else "nay"
        emit(events, "voted", f"{who(seat)} has voted.", seat)
        if self.to_act(s):
            return
        m.revealed = True
        voters = voters_of(s)
        yay = sum(m.votes[x] == "yay" for x in voters)
        shown = ", ".join(f"{who(x)} {(m.votes[x] or '').capitalize()}" for x in voters)
        if yay * 2 > len(voters):  # a strict Yay majority
            emit(events, "votes", f"The votes: {shown}. A Yay majority: Challenge!")
            challenge(s, events)
            return
        emit(events, "votes", f"The votes: {shown}. No Yay majority: the Mutiny fails.")
        take_coffer(s, m.captain, events)
        after_claim(s, events)

    def view(self, state: StonesAndBonesState, seat: int | None) -> StonesAndBonesView:
        """Everything but the sealed choices is public; see ``text``."""
        from rules.stones_and_bones.text import build_view

        return build_view(self, state, seat)

    def is_over(self, state: StonesAndBonesState) -> bool:
        return state.phase == "over"

    def outcomes(self, state: StonesAndBonesState) -> list[Outcome]:
        """SB-16: ranked by net result; equal nets share a place. The score is the net in cp."""
        nets = [p.net for p in state.pirates]
        return [Outcome(seat=seat, rank=1 + sum(o > net for o in nets), score=net)
                for seat, net in enumerate(nets)]

    def timeout_action(self, state: StonesAndBonesState, seat: int) -> StonesAndBonesAction:
        """RULINGS 5.4: pay and throw (no Fly the Black, Pilfer or fold; the Plank if broke);
        leave a Stone on the table; no Mutiny; ready at the parley; Nay; keep the coffer; no
        Grumbles, no objection; stay aboard; stay at the Tide rise with no buy-in. Each is the
        first legal action."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("Nothing is waiting for that seat.")
        return legal[0]

    def on_timeout(self, state: StonesAndBonesState, seat: int
                   ) -> tuple[StonesAndBonesState, list[Event]]:
        action = self.timeout_action(state, seat)
        new, events = self.apply(state, seat, action)
        note = Event(kind="timeout", seat=seat,
                     text=f"{who(seat)} ran out of time: {_TIMEOUT_WORDS[action.kind]}.")
        return new, [note, *events]

    def ai_action(self, state: StonesAndBonesState, seat: int, choose: Chooser
                  ) -> StonesAndBonesAction:
        """The tavern-keeper: never folds; Flies the Black only when behind (net below zero) and
        the bet showing is large or unaffordable; Pilfers when it can; cries Mutiny and votes
        Yay only when ahead (net above zero); keeps what it wins; never Grumbles and objects
        only to a Grumble against its own claim; stays aboard, and buys in at a Tide rise when
        its purse runs low. Deterministic (``choose`` is not used)."""
        s = state
        legal = self.legal_actions(s, seat)
        if not legal:
            raise IllegalAction("Nothing is waiting for that seat.")
        kinds = {a.kind: a for a in legal}
        net = s.pirates[seat].net
        if s.phase == "turn":
            if seat != s.current:
                return kinds["leave_stone"]
            assert s.turn is not None
            reading = reading_at(s, s.turn.bones or [])
            if reading.crossbones is None and "fly" in kinds and net < 0 and (
                    "plank" in kinds or reading.bet > 2 * expected_bet(s.tide, s.options.ill_omens)):
                return kinds["fly"]
            return kinds.get("pilfer") or legal[0]
        if s.phase == "mutiny_call":
            crew = len(afloat_seats(s)) - 1
            worth = s.coffer >= crew * 5 * GP // 2  # the crew's d4 gp costs, on average
            return kinds["mutiny"] if net > 0 and worth else kinds["pass"]
        if s.phase == "vote":
            return kinds["yay"] if net > 0 else kinds["nay"]
        if s.phase == "object":
            assert s.claim is not None
            return kinds["object"] if s.claim.seat == seat else kinds["allow"]
        if s.phase == "tide":
            low = 4 * (expected_bet(s.tide, s.options.ill_omens) + ante_at(s))
            if s.pirates[seat].purse < low:
                return _a("buy", amount=s.options.buy_ins[0])
            return kinds["stay"]
        return legal[0]  # let it stand, ready, keep, stay aboard


_TIMEOUT_WORDS: dict[str, str] = {
    "pay": "the bet is paid and the Stone thrown",
    "plank": "broke, they Walk the Plank",
    "leave_stone": "the Stone stays on the table",
    "let_stand": "no Grumbles",
    "allow": "no objection",
    "pass": "no Mutiny",
    "ready": "ready to vote",
    "nay": "a Nay vote",
    "keep": "the coffer is kept",
    "stay_aboard": "they stay aboard",
    "stay": "they stay, with no buy-in",
}

ENGINE = StonesAndBonesEngine()



# -- words for players (kept in .text) ------------------------------------------------------


def action_label(view: StonesAndBonesView, action: StonesAndBonesAction) -> str:
    """A button label (at most 80 characters) for one legal action."""
    from rules.stones_and_bones.text import action_label as label

    return label(view, action)


def rules_summary(options: StonesAndBonesOptions | None = None) -> str:
    """The quick rules, the rulings, the errata and the options in force (Markdown)."""
    from rules.stones_and_bones.text import rules_summary as summary

    return summary(options)
