"""Roll the Bones: what the players' decisions do, and the phases of a roll that run by themselves.

Closing the ante and layering the pots (RB-7), opening and closing the bone calls (RB-2), rolling
every picked die at once, ties (RB-5, RB-6), the end of a round (RB-8, RB-9) and of the game
(RB-10). Each function changes the state it is given (a copy ``apply`` made) and leaves events
with their seats and figures; ``settle`` runs the phases until a player must decide.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.base import Event, GameError, Outcome
from rules.rng import Dice
from rules.roll_the_bones import text
from rules.roll_the_bones.models import (
    BONE,
    CHANGES_PER_ROLL,
    MAX_SEATS,
    MIN_SEATS,
    ROLLOFF_SIDES,
    ROLLS_PER_ROUND,
    START_DICE,
    Award,
    EndReason,
    Pot,
    RollEntry,
    RollRecord,
    RollTheBonesAction,
    RollTheBonesOptions,
    RollTheBonesState,
    RoundReport,
    copy_state,
    make_action,
    pot_name,
    starting_hand,
)
from rules.roll_the_bones.moves import (
    dice_in_play,
    filled_ante,
    has_call,
    live_seats,
    no_choice,
    pick_options,
    smallest_ante,
    winners,
)


def new_state(seats: int, options: RollTheBonesOptions, seed: int) -> RollTheBonesState:
    """RB-1 and RB-8: everyone's dice and the ante, then the first round's ante phase."""
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


def start_round(state: RollTheBonesState) -> tuple[RollTheBonesState, list[Event]]:
    """Begin the current round afresh from the collections in ``state`` (pots emptied).

    What every round starts with; public so that tests and tools can stage a round from chosen
    collections (and forced dice in ``state.dice.forced``). Not a player action."""
    new = copy_state(state)
    events: list[Event] = []
    begin_round(new, events)
    settle(new, events)
    return new, events


# -- the players' decisions ---------------------------------------------------------------------


def decide(state: RollTheBonesState, seat: int, action: RollTheBonesAction) -> list[Event]:
    """Apply a legal decision to ``state`` (a copy); the last seal or Ready closes the phase."""
    events: list[Event] = []
    kind = action.kind
    if kind == "ante_add":
        assert action.sides is not None
        state.drafts[seat].append(action.sides)
        state.drafts[seat].sort()
    elif kind == "ante_remove":
        assert action.sides is not None
        state.drafts[seat].remove(action.sides)
        if len(state.take_backs) < state.seats:
            state.take_backs = state.take_backs + [0] * (state.seats - len(state.take_backs))
        state.take_backs[seat] += 1
    elif kind == "ante_fill":
        state.drafts[seat] = filled_ante(state.hands[seat], state.drafts[seat], state.required[seat])
    elif kind == "ante_confirm":
        state.confirmed[seat] = True
        events.append(Event(kind="chose", text=text.sealed_text(seat, "ante"), seat=seat,
                            seats=(seat,), data={"phase": "ante"}))
    elif kind == "bone_toggle":
        state.calls[seat] = not state.calls[seat]
        state.changes[seat] += 1
        left = CHANGES_PER_ROLL - state.changes[seat]
        was_ready = [s for s in state.in_round if state.ready[s] and s != seat]
        refresh_ready(state)  # RB-2: Ready counts only since the last change
        # whoever had pressed Ready is asked again: the event names them, so the table can say why
        again = [s for s in was_ready if not state.ready[s]]
        events.append(Event(kind="call", text=text.call_text(seat, state.calls[seat], left, again), seat=seat,
                            seats=(seat, *again),
                            data={"called": state.calls[seat], "changes_left": left, "again": again}))
    elif kind == "ready":
        state.ready[seat] = True
        events.append(Event(kind="ready", text=text.ready_text(seat), seat=seat, seats=(seat,)))
    else:  # pick
        state.picks[seat] = action.sides
        state.confirmed[seat] = True
        events.append(Event(kind="chose", text=text.sealed_text(seat, "pick"), seat=seat,
                            seats=(seat,), data={"phase": "pick"}))
    settle(state, events)
    return events


def timeout_default(state: RollTheBonesState, seat: int) -> tuple[RollTheBonesState, RollTheBonesAction]:
    """RULINGS 2.3 for a seat that let its deadline pass, as a legal action on a state: in the
    ante its draft is replaced by its smallest dice (a copy, then), which it seals; in the bone
    call its call stays as it is (Ready); in the pick, the largest ordinary die, or the bone die
    if called."""
    if state.phase == "ante":
        staged = copy_state(state)
        staged.drafts[seat] = smallest_ante(state.hands[seat], state.required[seat])
        return staged, make_action("ante_confirm")
    if state.phase == "bone":
        return state, make_action("ready")
    return state, make_action("pick", pick_options(state, seat)[-1])


def timeout_event(state: RollTheBonesState, seat: int) -> Event:
    return Event(kind="timeout", text=text.timeout_text(seat, state.phase), seat=seat, seats=(seat,),
                 data={"phase": state.phase})


# -- the phases ---------------------------------------------------------------------------------


def _merge_pots(pots: Iterable[Pot]) -> list[Pot]:
    """Pots open to the same seats are one pot; the widest comes first (the main pot)."""
    merged: dict[tuple[int, ...], list[int]] = {}
    for pot in pots:
        if pot.dice:
            merged.setdefault(pot.eligible, []).extend(pot.dice)
    return [
        Pot(dice=tuple(sorted(dice)), eligible=eligible)
        for eligible, dice in sorted(merged.items(), key=lambda kv: (-len(kv[0]), kv[0]))
    ]


def begin_round(state: RollTheBonesState, events: list[Event]) -> None:
    state.in_round = live_seats(state)
    state.cycle = 1
    state.this_round = []
    state.pots = []
    state.counts_at_round_start = [len(h) for h in state.hands]
    events.append(Event(kind="round", text=text.round_text(state.round, state.ante, state.in_round),
                        seats=tuple(state.in_round), data={"round": state.round, "ante": state.ante}))
    _start_roll(state, events, ante=True)


def _start_roll(state: RollTheBonesState, events: list[Event], *, ante: bool) -> None:
    """Open the first phase of a roll: the ante, or (RB-6: after a last-die tie) the calls."""
    n = state.seats
    state.drafts = [[] for _ in range(n)]
    state.antes = None
    state.confirmed = [False] * n
    state.picks = [None] * n
    state.calls = [False] * n
    state.forced_calls = [False] * n
    state.changes = [0] * n
    state.take_backs = [0] * n
    state.ready = [False] * n
    state.required = [0] * n
    state.anteing = ante
    if not ante:
        _open_bone(state, events)
        return
    # RB-8: ante what you can but keep one die; simple variant: everyone matches the shortest.
    due = {s: max(0, min(state.ante, len(state.hands[s]) - 1)) for s in state.in_round}
    if state.options.side_pots == "simple":
        least = min(due.values())
        due = {s: least for s in due}
    for s, n_dice in due.items():
        state.required[s] = n_dice
    state.phase = "ante"
    for s in state.in_round:
        if no_choice(state.hands[s], state.required[s]):
            state.drafts[s] = smallest_ante(state.hands[s], state.required[s])
            state.confirmed[s] = True


def _close_ante(state: RollTheBonesState, events: list[Event]) -> None:
    """Reveal every ante at once and layer the pots (RB-7): each distinct contribution level is
    a pot open to the seats that paid up to it; a seat's smallest dice fill the lowest layer."""
    antes = [sorted(d) for d in state.drafts]
    could = {s: min(state.ante, len(state.hands[s]) - 1) for s in state.in_round}
    for s in state.in_round:
        for sides in antes[s]:
            state.hands[s].remove(sides)
    state.antes = antes
    layers: list[Pot] = []
    previous = 0
    for level in sorted({len(antes[s]) for s in state.in_round if antes[s]}):
        eligible = tuple(s for s in state.in_round if len(antes[s]) >= level)
        dice = tuple(d for s in eligible for d in antes[s][previous:level])
        layers.append(Pot(dice=dice, eligible=eligible))
        previous = level
    state.pots = _merge_pots([*state.pots, *layers])
    notes: list[str | None] = []
    for s in state.in_round:
        if could[s] < state.ante:
            notes.append("last_die" if could[s] == 0 else "short")
        elif state.required[s] < state.ante:
            notes.append("matching")  # RB-7 simple variant
        else:
            notes.append(None)
    shown = [antes[s] for s in state.in_round]
    events.append(Event(kind="ante", text=text.antes_text(state.in_round, shown, notes),
                        seats=tuple(state.in_round), data={"antes": shown, "notes": notes}))
    _open_bone(state, events)


def refresh_ready(state: RollTheBonesState) -> None:
    """RB-2: the calls close when everyone in the bone call has pressed Ready since the last
    change, a seat whose own changes are spent included (its Ready says it is done watching the
    others' calls). Only a seat with no call to make owes none."""
    for s in state.in_round:
        state.ready[s] = not has_call(state, s)


def _open_bone(state: RollTheBonesState, events: list[Event]) -> None:
    state.phase = "bone"
    for s in state.in_round:
        hand = state.hands[s]
        if hand and all(sides == BONE for sides in hand):
            state.calls[s] = state.forced_calls[s] = True
            events.append(Event(kind="call", text=text.forced_call_text(s), seat=s, seats=(s,),
                                data={"called": True, "forced": True}))
    refresh_ready(state)


def _close_bone(state: RollTheBonesState, events: list[Event]) -> None:
    callers = [s for s in state.in_round if state.calls[s]]
    if any(BONE in state.hands[s] for s in state.in_round):
        events.append(Event(kind="calls", text=text.calls_closed_text(callers), seats=tuple(callers),
                            data={"callers": callers}))
    _open_pick(state, events)


def _open_pick(state: RollTheBonesState, events: list[Event]) -> None:
    state.phase = "pick"
    state.confirmed = [False] * state.seats
    for s in state.in_round:
        options = pick_options(state, s)
        if len(options) == 1:
            state.picks[s] = options[0]
            state.confirmed[s] = True


#: a safety net only: every pass of the loop in settle closes a phase, and a game has at most
#: max_rounds rounds of a few phases each (ties end with probability 1)
_SETTLE_GUARD = 1_000_000


def settle(state: RollTheBonesState, events: list[Event]) -> None:
    """Close every phase that waits for nobody, until someone must decide or the game is over.

    A loop rather than phases calling each other: a round in which nobody has a choice (say,
    one player holds only bone dice and the other no bone die and one kind of die) resolves on
    its own, and several such rounds in a row must not deepen the stack."""
    for _ in range(_SETTLE_GUARD):
        if state.phase == "ante" and all(state.confirmed[s] for s in state.in_round):
            _close_ante(state, events)
        elif state.phase == "bone" and all(state.ready[s] for s in state.in_round):
            _close_bone(state, events)
        elif state.phase == "pick" and all(state.confirmed[s] for s in state.in_round):
            _roll(state, events)
        else:
            return
    raise RuntimeError("roll the bones: the game did not settle")  # unreachable


def _roll(state: RollTheBonesState, events: list[Event]) -> None:
    """The server rolls every pick at once, in seat order (tests force values in that order)."""
    state.dice = state.dice.model_copy(update={"forced": list(state.dice.forced)})
    entries: list[RollEntry] = []
    for s in state.in_round:
        sides = state.picks[s]
        assert sides is not None
        face = state.dice.roll(sides)
        entries.append(RollEntry(seat=s, sides=sides, face=face, bone=sides == BONE))
        state.hands[s].remove(sides)  # in the air now
    events.append(Event(kind="roll", text=text.roll_text(entries), seats=tuple(e.seat for e in entries),
                        data={"rolls": [e.model_dump() for e in entries]}))
    top = max(e.face for e in entries)
    tied = tuple(e.seat for e in entries if e.face == top)
    if len(tied) == 1:
        _finish_round(state, entries, tied[0], events)
    elif state.cycle >= ROLLS_PER_ROUND:
        # The round's last roll: a roll-off among the tied decides it, so no round is endless.
        winner, throws = _rolloff(state, list(tied))
        events.append(Event(kind="tie", text=text.last_roll_tie_text(top, tied, throws[-1]), seat=winner,
                            seats=(winner, *(s for s in tied if s != winner)),
                            data={"top": top, "tied": list(tied), "rolloff": True}))
        _finish_round(state, entries, winner, events)
    else:
        _tie(state, entries, tied, top, events)


def _rolloff(state: RollTheBonesState, contenders: list[int]
             ) -> tuple[int, tuple[tuple[RollEntry, ...], ...]]:
    """RB-7 «eligible players tied for a layer roll off»: a d12 each until one is highest."""
    throws: list[tuple[RollEntry, ...]] = []
    while len(contenders) > 1:
        rolled = tuple(RollEntry(seat=s, sides=ROLLOFF_SIDES, face=state.dice.roll(ROLLOFF_SIDES))
                       for s in contenders)
        throws.append(rolled)
        best = max(e.face for e in rolled)
        contenders = [e.seat for e in rolled if e.face == best]
    return contenders[0], tuple(throws)


def _award(state: RollTheBonesState, pot: Pot, name: str, faces: dict[int, int],
           winner: int | None) -> Award:
    """RB-7: a pot goes to the overall winner if they paid into it, else to its highest-rolling
    eligible player (a roll-off among equals)."""
    if winner is not None and winner in pot.eligible:
        return Award(pot=name, dice=pot.dice, eligible=pot.eligible, taker=winner)
    best = max(faces[s] for s in pot.eligible)
    contenders = [s for s in pot.eligible if faces[s] == best]
    taker, throws = _rolloff(state, contenders)
    return Award(pot=name, dice=pot.dice, eligible=pot.eligible, taker=taker, rolloff=throws)


def _award_event(award: Award) -> Event:
    return Event(kind="pot", text=text.award_text(award), seat=award.taker, seats=(award.taker,),
                 data={"pot": award.pot, "dice": list(award.dice), "eligible": list(award.eligible),
                       "rolloff": bool(award.rolloff)})


def _give(state: RollTheBonesState, seat: int, dice: Iterable[int]) -> None:
    state.hands[seat].extend(dice)
    state.hands[seat].sort()


def _tie(state: RollTheBonesState, entries: list[RollEntry], tied: tuple[int, ...], top: int,
         events: list[Event]) -> None:
    """RB-5 and RB-6, then RB-7 for the pots the tied players cannot win."""
    last_die = any(not state.hands[s] for s in tied)
    if last_die:
        # RB-6: «both tiebreaker players keep their last rolled die»: every tied player does.
        for e in entries:
            if e.seat in tied:
                _give(state, e.seat, [e.sides])
        to_centre = [e.sides for e in entries if e.seat not in tied]
    else:
        to_centre = [e.sides for e in entries]  # RB-5: every die rolled in the roll
    faces = {e.seat: e.face for e in entries}
    kept: list[Pot] = []
    settled: list[Award] = []
    for index, pot in enumerate(state.pots):
        eligible = tuple(s for s in pot.eligible if s in tied)
        if eligible:
            kept.append(Pot(dice=pot.dice, eligible=eligible))
            continue
        # Untied players «can't win» the pots (RB-5), but nobody still in the round paid into
        # this one: it is decided now, by this roll, among the seats that did.
        award = _award(state, pot, pot_name(index), faces, None)
        _give(state, award.taker, award.dice)
        settled.append(award)
    if to_centre:
        kept.append(Pot(dice=tuple(sorted(to_centre)), eligible=tied))
    state.pots = _merge_pots(kept)
    record = RollRecord(round=state.round, cycle=state.cycle, rolls=tuple(entries), top=top,
                        tied=tied, result="last_die_tie" if last_die else "tie",
                        settled=tuple(settled))
    state.this_round.append(record)
    events.append(Event(kind="tie", text=text.tie_text(top, tied, last_die, state.ante), seats=tied,
                        data={"top": top, "tied": list(tied), "last_die": last_die}))
    events += [_award_event(award) for award in settled]
    state.in_round = list(tied)
    state.cycle += 1
    _start_roll(state, events, ante=not last_die)


def _finish_round(state: RollTheBonesState, entries: list[RollEntry], winner: int,
                  events: list[Event]) -> None:
    rolled = tuple(sorted(e.sides for e in entries))
    _give(state, winner, rolled)  # RB-4: their own die too
    faces = {e.seat: e.face for e in entries}
    awards: list[Award] = [a for record in state.this_round for a in record.settled]
    top = faces[winner]
    record = RollRecord(round=state.round, cycle=state.cycle, rolls=tuple(entries), top=top,
                        tied=(winner,), result="win", winner=winner)
    events.append(Event(kind="win", text=text.win_text(winner, top, rolled), seat=winner, seats=(winner,),
                        data={"round": state.round, "top": top, "dice": list(rolled)}))
    for index, pot in enumerate(state.pots):
        award = _award(state, pot, pot_name(index), faces, winner)
        _give(state, award.taker, award.dice)
        awards.append(award)
        events.append(_award_event(award))
    state.pots = []
    counts = tuple(len(h) for h in state.hands)
    out = [s for s in range(state.seats) if counts[s] == 0 and state.eliminated_round[s] is None]
    ante_before = state.ante
    for s in out:  # RB-9: checked at the end of the round; permanent
        state.eliminated.append(s)
        state.eliminated_round[s] = state.round
    state.ante = state.base_ante + len(state.eliminated)  # RB-8
    if out:
        events.append(Event(kind="eliminated", text=text.eliminated_text(out, state.ante), seats=tuple(out),
                            data={"ante": state.ante}))
    state.last_round = RoundReport(
        round=state.round, rolls=(*state.this_round, record), winner=winner, rolled_dice=rolled,
        awards=tuple(awards), counts_before=tuple(state.counts_at_round_start),
        counts_after=counts, eliminated=tuple(out), ante_before=ante_before,
        ante_after=state.ante,
    )
    state.this_round = []
    live = live_seats(state)
    if len(live) == 1:
        _end(state, "last_player", events)
    elif state.round >= state.options.max_rounds:
        _end(state, "cap", events)
    else:
        state.round += 1
        begin_round(state, events)


def _end(state: RollTheBonesState, reason: EndReason, events: list[Event]) -> None:
    state.phase = "over"
    state.end_reason = reason
    state.in_round = []
    state.anteing = False
    state.required = [0] * state.seats
    state.confirmed = [False] * state.seats
    state.ready = [False] * state.seats
    best = winners(state)
    dice = len(state.hands[best[0]])
    if reason == "last_player":
        (winner,) = best
        events.append(Event(kind="over", text=text.last_player_text(winner, dice_in_play(state)),
                            seat=winner, seats=(winner,), data={"reason": reason, "dice": dice}))
    else:
        events.append(Event(kind="over", text=text.cap_text(state.round, best, dice), seats=tuple(best),
                            data={"reason": reason, "dice": dice}))


def dice_taken(report: RoundReport, seat: int) -> int:
    """Dice ``seat`` took at the end of a round: the rolled dice if it won (RB-4), and the pots
    it took (RB-7)."""
    rolled = len(report.rolled_dice) if seat == report.winner else 0
    return rolled + sum(len(a.dice) for a in report.awards if a.taker == seat)


def outcomes(state: RollTheBonesState) -> list[Outcome]:
    """Most dice first (RB-10: ties shared); eliminated seats after the live ones, the later out
    placed higher, seats out in the same round sharing a place. Score = dice held."""
    def key(s: int) -> tuple[int, int]:
        out = state.eliminated_round[s]
        return (len(state.hands[s]), out if out is not None else state.round + 1)

    keys = [key(s) for s in range(state.seats)]
    return [
        Outcome(seat=s, rank=1 + sum(other > keys[s] for other in keys), score=len(state.hands[s]))
        for s in range(state.seats)
    ]
