"""Roll the Bones: the phases of a roll, on a state the engine has already copied.

Everything the rules do by themselves lives here: closing the ante and layering the pots
(RB-7), opening and closing the bone calls (RB-2), rolling every picked die at once, ties
(RB-5, RB-6), the end of a round (RB-8, RB-9) and of the game (RB-10). Each function changes
the state it is given and leaves events in plain words; ``settle`` runs them until a player
must decide.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rules.base import Event
from rules.roll_the_bones.models import (
    BONE,
    CHANGES_PER_ROLL,
    ROLLOFF_SIDES,
    ROLLS_PER_ROUND,
    TAKE_BACKS_PER_ANTE,
    Award,
    EndReason,
    Pot,
    RollEntry,
    RollRecord,
    RollTheBonesState,
    RoundReport,
    dice_text,
    die_name,
)

# -- helpers on a state the caller has already copied ---------------------------------------


def copy_state(state: RollTheBonesState) -> RollTheBonesState:
    """A copy ``apply`` may change freely. Records and pots are frozen and shared; every list is
    copied, in one ``model_copy`` (a deep copy is several times slower, which simulations feel).
    The dice are shared too, until ``_roll`` copies them."""
    return state.model_copy(update={
        "hands": [list(h) for h in state.hands],
        "eliminated": list(state.eliminated),
        "eliminated_round": list(state.eliminated_round),
        "in_round": list(state.in_round),
        "required": list(state.required),
        "drafts": [list(d) for d in state.drafts],
        "antes": None if state.antes is None else [list(a) for a in state.antes],
        "confirmed": list(state.confirmed),
        "picks": list(state.picks),
        "calls": list(state.calls),
        "forced_calls": list(state.forced_calls),
        "changes": list(state.changes),
        "take_backs": list(state.take_backs),
        "ready": list(state.ready),
        "pots": list(state.pots),
        "counts_at_round_start": list(state.counts_at_round_start),
        "this_round": list(state.this_round),
        # the dice are shared until a roll: _roll takes its own copy before rolling
    })


def seat_name(seat: int) -> str:
    return f"Seat {seat + 1}"


def seats_text(seats: Sequence[int]) -> str:
    names = [seat_name(s) for s in seats]
    if len(names) <= 1:
        return "".join(names) or "nobody"
    return ", ".join(names[:-1]) + " and " + names[-1]


def pot_name(index: int) -> str:
    return "Main pot" if index == 0 else f"Side pot {index}"


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


def live_seats(state: RollTheBonesState) -> list[int]:
    return [s for s in range(state.seats) if state.eliminated_round[s] is None]


def dice_in_play(state: RollTheBonesState) -> int:
    """Every die of the game: collections plus pots (RULINGS 2.5: always 11 per starting seat;
    a die being rolled stays in its owner's collection until the roll is resolved)."""
    return sum(len(h) for h in state.hands) + sum(len(p.dice) for p in state.pots)


def _no_choice(hand: Sequence[int], due: int) -> bool:
    """Every ante of ``due`` dice from ``hand`` is the same multiset."""
    return due == 0 or len(set(hand)) == 1


def smallest_ante(hand: Sequence[int], due: int) -> list[int]:
    """RULINGS 2.3 timeout and the bot's policy: the smallest dice (the bone die last)."""
    return sorted(hand)[:due]


def filled_ante(hand: Sequence[int], draft: Sequence[int], due: int) -> list[int]:
    """``draft`` completed to ``due`` dice with the smallest dice not in it yet."""
    free = Counter(hand)
    free.subtract(draft)
    return sorted([*draft, *sorted(free.elements())[: due - len(draft)]])


def pick_options(state: RollTheBonesState, seat: int) -> list[int]:
    """The dice ``seat`` may roll, smallest first. RB-2: a call is binding, so a caller rolls a
    bone die; RB-3: a bone die can't be rolled without a call."""
    if seat not in state.in_round:
        return []
    hand = state.hands[seat]
    if state.calls[seat]:
        return [BONE] if BONE in hand else []
    return sorted({sides for sides in hand if sides != BONE})


def take_backs_left(state: RollTheBonesState, seat: int) -> int:
    """How many more dice ``seat`` may take back from the ante it is building."""
    taken = state.take_backs[seat] if seat < len(state.take_backs) else 0
    return max(0, TAKE_BACKS_PER_ANTE - taken)


def can_call(state: RollTheBonesState, seat: int) -> bool:
    """RB-2: a seat holding a bone die may change its call at most twice per roll."""
    return (
        state.phase == "bone"
        and seat in state.in_round
        and BONE in state.hands[seat]
        and not state.forced_calls[seat]
        and state.changes[seat] < CHANGES_PER_ROLL
    )


def make_event(kind: str, text: str, seat: int | None = None) -> Event:
    return Event(kind=kind, text=text, seat=seat)


def begin_round(state: RollTheBonesState, events: list[Event]) -> None:
    state.in_round = live_seats(state)
    state.cycle = 1
    state.this_round = []
    state.pots = []
    state.counts_at_round_start = [len(h) for h in state.hands]
    events.append(make_event(
        "round", f"Round {state.round}: the ante is {state.ante} "
                 f"({seats_text(state.in_round)} play)."))
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
        if _no_choice(state.hands[s], state.required[s]):
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
    parts = []
    for s in state.in_round:
        put = dice_text(antes[s])
        if could[s] < state.ante:
            put += " (short: keeps their last die)" if could[s] == 0 else " (short)"
        elif state.required[s] < state.ante:
            put += " (matching the short ante)"  # RB-7 simple variant
        parts.append(f"{seat_name(s)}: {put}")
    events.append(make_event("ante", "Antes revealed. " + "; ".join(parts) + "."))
    _open_bone(state, events)


def refresh_ready(state: RollTheBonesState) -> None:
    """RB-2: a seat that can no longer change anything owes no Ready."""
    for s in state.in_round:
        state.ready[s] = not can_call(state, s)


def _open_bone(state: RollTheBonesState, events: list[Event]) -> None:
    state.phase = "bone"
    for s in state.in_round:
        hand = state.hands[s]
        if hand and all(sides == BONE for sides in hand):
            state.calls[s] = state.forced_calls[s] = True
            events.append(make_event(
                "call", f"{seat_name(s)} holds only bone dice and must call the bone.", s))
    refresh_ready(state)


def _close_bone(state: RollTheBonesState, events: list[Event]) -> None:
    callers = [s for s in state.in_round if state.calls[s]]
    if any(BONE in state.hands[s] for s in state.in_round):
        text = (f"Bone calls are closed: {seats_text(callers)} "
                f"{'rolls' if len(callers) == 1 else 'roll'} a bone die." if callers
                else "Bone calls are closed: nobody rolls a bone die.")
        events.append(make_event("calls", text))
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


def _roll_text(entry: RollEntry) -> str:
    die = f"the bone {die_name(entry.sides)}" if entry.bone else die_name(entry.sides)
    return f"{seat_name(entry.seat)} rolled {die}: {entry.face}"


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
    events.append(make_event("roll", "; ".join(_roll_text(e) for e in entries) + "."))
    top = max(e.face for e in entries)
    tied = tuple(e.seat for e in entries if e.face == top)
    if len(tied) == 1:
        _finish_round(state, entries, tied[0], events)
    elif state.cycle >= ROLLS_PER_ROUND:
        # The round's last roll: a roll-off among the tied decides it, so no round is endless.
        winner, throws = _rolloff(state, list(tied))
        shown = ", ".join(f"{seat_name(e.seat)} {e.face}" for e in throws[-1])
        events.append(make_event(
            "tie", f"Tie at {top} between {seats_text(tied)} on the round's last roll "
                   f"({ROLLS_PER_ROUND}): a d{ROLLOFF_SIDES} roll-off ({shown}) decides it.", winner))
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


def _award_text(award: Award) -> str:
    text = f"{seat_name(award.taker)} takes the {award.pot.lower()} ({dice_text(award.dice)})"
    if award.rolloff:
        last = award.rolloff[-1]
        text += " after a roll-off (" + ", ".join(f"{seat_name(e.seat)} {e.face}" for e in last) + ")"
    return text


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
    if last_die:
        text = (f"Tie at {top} between {seats_text(tied)}, and a last die was rolled: the tied "
                f"players keep their dice and roll again without a new ante.")
    else:
        text = (f"Tie at {top} between {seats_text(tied)}: every rolled die goes to the centre "
                f"and the tied players ante {state.ante} again and roll again.")
    events.append(make_event("tie", text))
    for award in settled:
        events.append(make_event("pot", _award_text(award) + ".", award.taker))
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
    won_text = (f"{seat_name(winner)} wins the roll with {top} and takes the rolled dice "
                f"({dice_text(rolled)})")
    record = RollRecord(round=state.round, cycle=state.cycle, rolls=tuple(entries), top=top,
                        tied=(winner,), result="win", winner=winner)
    events.append(make_event("win", won_text + ".", winner))
    for index, pot in enumerate(state.pots):
        award = _award(state, pot, pot_name(index), faces, winner)
        _give(state, award.taker, award.dice)
        awards.append(award)
        events.append(make_event("pot", _award_text(award) + ".", award.taker))
    state.pots = []
    counts = tuple(len(h) for h in state.hands)
    out = [s for s in range(state.seats) if counts[s] == 0 and state.eliminated_round[s] is None]
    ante_before = state.ante
    for s in out:  # RB-9: checked at the end of the round; permanent
        state.eliminated.append(s)
        state.eliminated_round[s] = state.round
    state.ante = state.base_ante + len(state.eliminated)  # RB-8
    if out:
        events.append(make_event(
            "eliminated", f"{seats_text(out)} {'is' if len(out) == 1 else 'are'} out of dice and "
                          f"eliminated; the ante rises to {state.ante}."))
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
    if reason == "last_player":
        (winner,) = live_seats(state)
        events.append(make_event(
            "over", f"{seat_name(winner)} holds all {dice_in_play(state)} dice and wins!", winner))
    else:
        best = winners(state)
        events.append(make_event(
            "over", f"Round {state.round} was the last: most dice wins: "
                    f"{seats_text(best)} with {len(state.hands[best[0]])}."))


def start_round(state: RollTheBonesState) -> tuple[RollTheBonesState, list[Event]]:
    """Begin the current round afresh from the collections in ``state`` (pots emptied).

    What every round starts with; public so that tests and tools can stage a round from chosen
    collections (and forced dice in ``state.dice.forced``). Not a player action."""
    new = copy_state(state)
    events: list[Event] = []
    begin_round(new, events)
    settle(new, events)
    return new, events


def winners(state: RollTheBonesState) -> list[int]:
    """The seats holding the most dice once the game is over (RB-10: ties are shared)."""
    if state.phase != "over":
        return []
    best = max(len(h) for h in state.hands)
    return [s for s in range(state.seats) if len(state.hands[s]) == best]
