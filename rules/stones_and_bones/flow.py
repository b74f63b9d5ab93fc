"""Stones & Bones: the flow of play, step by step, on a state the engine has already copied.

Each function does what the rules do by themselves (antes, throws, the Crossbones check, the
Stone, roll-offs, Challenge rolls, the end of a Wave or a Tide) and leaves events in plain words;
the engine in ``rules.stones_and_bones.engine`` checks decisions and calls in here. Every function
mutates the state it is given, and stops where a player must decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel

from rules.base import Event
from rules.stones_and_bones.models import (
    ActionKind,
    Claim,
    ClaimKind,
    EndReason,
    LedgerRow,
    Mutiny,
    StonesAndBonesAction,
    StonesAndBonesState,
    TableStone,
    TurnRecord,
)
from rules.stones_and_bones.reading import (
    BONES,
    FACES,
    GP,
    SP,
    BonesReading,
    Throw,
    bet_of,
    coins,
    crossbones_name,
    signed_coins,
    throw_of,
)

M = TypeVar("M", bound=BaseModel)

WAVES_PER_TIDE = 4  # «A Tide is a sequence of four Waves»
LAST_TIDE = 6  # SB-16: the Tide counter is a d6
TURN_CAP = 2000  # RULINGS 5.6: the hard cap
ANTE = SP  # «Ante 1 Silver × Tide»
GRUMBLE_FEE = GP  # «pay 1 gp × Tide»
CAPTAINS_LUCK = 13
GIFTS = (GP, 5 * GP, 20 * GP)  # SB-12: the parley's «give coins» amounts
#: gifts each seat may give in one parley: the parley ends only when all are Ready, so an
#: unlimited gift would let two players hold the table there for ever
GIFTS_PER_PARLEY = 3
_ROLL_OFF_GUARD = 1000

A = StonesAndBonesAction


_ACTIONS: dict[tuple[str, int | None, int | None], A] = {}


def make_action(kind: ActionKind, target: int | None = None, amount: int | None = None) -> A:
    """Actions are frozen, so each is made once and shared by every list that offers it."""
    key = (kind, target, amount)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = A(kind=kind, target=target, amount=amount)
    return action


# -- small helpers ------------------------------------------------------------------------------


def who(seat: int) -> str:
    return f"Seat {seat + 1}"


def _clone(model: M, **changes: object) -> M:
    """A shallow copy of a pydantic model with ``changes``, as ``model_copy(update=...)``
    makes it (a new field dict, a new set of fields set) without its general machinery:
    these models have no extra or private attributes. Three times faster, which counts in
    ``apply``."""
    new = object.__new__(model.__class__)
    fields = model.__dict__.copy()
    fields.update(changes)
    object.__setattr__(new, "__dict__", fields)
    object.__setattr__(new, "__pydantic_fields_set__", model.__pydantic_fields_set__ | changes.keys())
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


def copy_state(state: StonesAndBonesState) -> StonesAndBonesState:
    """A copy that shares nothing the flow changes in place: shallow copies of each nested
    model and list (the flow replaces lists of dice rather than editing them, actions are
    frozen, and the options are never changed). Much faster than a deep copy, which matters
    when a test plays a thousand games."""
    m = state.mutiny
    return _clone(
        state,
        pirates=[_clone(p) for p in state.pirates],
        carry=list(state.carry),
        decided=list(state.decided),
        tide_choices=list(state.tide_choices),
        turn=_clone(state.turn) if state.turn is not None else None,
        table_stone=_clone(state.table_stone) if state.table_stone is not None else None,
        claim=_clone(state.claim) if state.claim is not None else None,
        mutiny=(_clone(m, votes=list(m.votes), gifts=list(m.gifts), d4=list(m.d4),
                       paid=list(m.paid))
                if m is not None else None),
        dice=_clone(state.dice, forced=list(state.dice.forced)),
    )


def afloat_seats(s: StonesAndBonesState) -> list[int]:
    return [i for i, p in enumerate(s.pirates) if p.status == "afloat"]


def is_afloat(s: StonesAndBonesState, seat: int) -> bool:
    return s.pirates[seat].status == "afloat"


def order_from(s: StonesAndBonesState, start: int) -> list[int]:
    """SB-1: clockwise (seat order) from ``start``, players afloat only."""
    return [(start + i) % s.seats for i in range(s.seats) if is_afloat(s, (start + i) % s.seats)]


def next_afloat(s: StonesAndBonesState, seat: int) -> int:
    for i in range(1, s.seats + 1):
        if is_afloat(s, (seat + i) % s.seats):
            return (seat + i) % s.seats
    raise RuntimeError("nobody is afloat")  # unreachable: the game ends first


def throw_bones(s: StonesAndBonesState) -> list[int]:
    return [s.dice.roll(FACES) for _ in range(BONES)]


def reading_at(s: StonesAndBonesState, faces: Sequence[int]) -> Throw:
    """The numbers of a throw at this Tide under the table's Ill Omens rule."""
    return throw_of(faces, s.tide, s.options.ill_omens)


def bet_at(s: StonesAndBonesState, faces: Sequence[int]) -> int:
    return bet_of(faces, s.tide, s.options.ill_omens)


def ante_at(s: StonesAndBonesState) -> int:
    return ANTE * s.tide


def current_bones(turn: TurnRecord) -> list[int] | None:
    """The Bones that decide the turn: the Plank's, Fly the Black's, or the first throw."""
    return turn.plank or turn.flown or turn.bones


def emit(events: list[Event], kind: str, text: str, seat: int | None = None) -> None:
    events.append(Event(kind=kind, text=text, seat=seat))


def pay_in(s: StonesAndBonesState, seat: int, amount: int) -> None:
    pirate = s.pirates[seat]
    assert 0 <= amount <= pirate.purse, "a payment beyond the purse"
    pirate.purse -= amount
    s.coffer += amount


# -- Captain, waves and tides -------------------------------------------------------------------


def roll_off(s: StonesAndBonesState, events: list[Event], why: str) -> None:
    """SB-16: «everyone rolls their Stone, highest wins, ties re-roll»."""
    contenders = afloat_seats(s)
    for _ in range(_ROLL_OFF_GUARD):
        if len(contenders) <= 1:
            break
        rolls = {seat: s.dice.roll(FACES) for seat in contenders}
        top = max(rolls.values())
        shown = ", ".join(f"{who(seat)} {roll}" for seat, roll in rolls.items())
        contenders = [seat for seat, roll in rolls.items() if roll == top]
        tie = " (a tie: they roll again)" if len(contenders) > 1 else ""
        emit(events, "roll_off", f"{why}, everyone rolls their Stone: {shown}{tie}")
    else:
        raise RuntimeError("the roll-off for Captain did not settle")
    s.captain = contenders[0]
    emit(events, "captain", f"{who(s.captain)} is Captain.", s.captain)


def ensure_captain(s: StonesAndBonesState, events: list[Event]) -> None:
    """RULINGS 5.6: the Captain is always a player still afloat; if the Captain leaves, a
    roll-off names the next."""
    if s.phase != "over" and not is_afloat(s, s.captain) and afloat_seats(s):
        roll_off(s, events, f"{who(s.captain)} is no longer aboard; to name a new Captain")


def begin_wave(s: StonesAndBonesState, events: list[Event]) -> None:
    # RULINGS 5.6: the claim, with any mutiny costs, has emptied the coffer
    assert s.coffer == 0, "a wave began with coins left in the coffer"
    s.claim, s.mutiny, s.table_stone = None, None, None
    if any(s.carry):
        carried = sum(s.carry)
        s.coffer += carried
        s.carry = [0] * s.seats
        emit(events, "carry", f"The Grumbles money ({coins(carried)}) goes into this coffer.")
    emit(events, "wave", f"Wave {s.wave} of Tide {s.tide}: {who(s.captain)}, the Captain, "
                         "throws first.")
    if s.options.ante == "per_wave_all":
        owed = ante_at(s)
        paid = []
        for seat in order_from(s, s.captain):
            pirate = s.pirates[seat]
            pirate.owes_ante = pirate.purse < owed
            if not pirate.owes_ante:
                pay_in(s, seat, owed)
                paid.append(who(seat))
        if paid:
            emit(events, "ante", f"{', '.join(paid)} ante {coins(owed)} each "
                                 f"(coffer {coins(s.coffer)}).")
    begin_turn(s, s.captain, events)


def end_wave(s: StonesAndBonesState, events: list[Event]) -> None:
    """«When someone Takes the Coffer, Wave +1»; after four Waves the Tide rises."""
    s.claim, s.mutiny, s.table_stone = None, None, None
    s.waves_played += 1
    if len(afloat_seats(s)) <= 1:
        end_game(s, events, "afloat")
        return
    if s.wave < WAVES_PER_TIDE:
        s.wave += 1
        begin_wave(s, events)
        return
    if s.tide >= LAST_TIDE:
        end_game(s, events, "tides")
        return
    s.tide += 1
    s.wave = 1
    s.phase = "tide"
    s.tide_choices = [None] * s.seats
    s.decided = [False] * s.seats
    emit(events, "tide", f"The Tide rises to {s.tide}: the ante is now {coins(ante_at(s))} and every "
                         f"bet is × {s.tide}. Stay, Heave Down (cash out), buy in, or vote to end "
                         "the game (sealed until all have chosen).")


def resolve_tide(s: StonesAndBonesState, events: list[Event]) -> None:
    words = []
    for seat in afloat_seats(s):
        choice = s.tide_choices[seat]
        assert choice is not None
        pirate = s.pirates[seat]
        if choice.kind == "buy":
            amount = choice.amount or 0
            pirate.purse += amount
            pirate.bought_in += amount
            words.append(f"{who(seat)} buys in {coins(amount)}")
        elif choice.kind == "heave":
            words.append(f"{who(seat)} Heaves Down with {coins(pirate.purse)}")
            cash_out(s, seat)
        elif choice.kind == "end":
            words.append(f"{who(seat)} votes to end the game")
        else:
            words.append(f"{who(seat)} stays")
    emit(events, "tide_choices", "Tide-rise choices: " + "; ".join(words) + ".")
    left = afloat_seats(s)
    if len(left) <= 1:
        end_game(s, events, "afloat")
        return
    if all(s.tide_choices[seat] is not None and s.tide_choices[seat].kind == "end"  # type: ignore[union-attr]
           for seat in left):
        emit(events, "vote_end", "Everyone still aboard votes to end the game.")
        end_game(s, events, "vote")
        return
    roll_off(s, events, f"Tide {s.tide}")
    begin_wave(s, events)


def cash_out(s: StonesAndBonesState, seat: int) -> None:
    pirate = s.pirates[seat]
    pirate.cashed_out += pirate.purse
    pirate.purse = 0
    pirate.status = "ashore"
    if s.cursed == seat:
        s.cursed = None


def end_game(s: StonesAndBonesState, events: list[Event], reason: EndReason) -> None:
    afloat = afloat_seats(s)
    if s.coffer:
        if len(afloat) == 1:
            emit(events, "last_afloat", f"{who(afloat[0])}, the last pirate afloat, takes the "
                                        f"coffer ({coins(s.coffer)}).", afloat[0])
            s.pirates[afloat[0]].purse += s.coffer
        else:  # the hard cap, mid-wave: share it out (the Captain keeps the odd copper)
            share, rest = divmod(s.coffer, len(afloat))
            for seat in afloat:
                s.pirates[seat].purse += share
            s.pirates[s.captain if s.captain in afloat else afloat[0]].purse += rest
            emit(events, "shared", f"The coffer ({coins(s.coffer)}) is shared among those afloat.")
        s.coffer = 0
    for seat, amount in enumerate(s.carry):  # Grumbles money with no next coffer goes back
        if amount:
            pirate = s.pirates[seat]
            if pirate.status == "afloat":
                pirate.purse += amount
            else:
                pirate.cashed_out += amount
    s.carry = [0] * s.seats
    s.claim, s.mutiny, s.table_stone = None, None, None
    s.phase = "over"
    s.ended_by = reason
    why = {
        "tides": "the fourth Wave of Tide 6 is played",
        "afloat": "no more than one pirate is still afloat",
        "vote": "the crew agreed to cash out",
        "cap": f"the table reached the limit of {TURN_CAP} turns",
    }[reason]
    standings = ", ".join(f"{who(r.seat)} {signed_coins(r.net)}" for r in ledger(s))
    emit(events, "over", f"The game is over: {why}. Net results: {standings}.")


# -- the turn -------------------------------------------------------------------------------------


def begin_turn(s: StonesAndBonesState, seat: int, events: list[Event]) -> None:
    if s.turns >= TURN_CAP:
        end_game(s, events, "cap")
        return
    s.turns += 1
    if s.turn is not None and s.turn.result != "pending":
        s.last_turn = s.turn
    s.turn = TurnRecord(seat=seat, number=s.turns, wave=s.wave, tide=s.tide,
                        captain=s.captain == seat, cursed=s.cursed == seat)
    s.current = seat
    s.phase = "turn"
    s.decided = [False] * s.seats
    pirate = s.pirates[seat]
    if s.options.ante == "per_turn":
        owed = ante_at(s)
        if pirate.purse < owed:
            emit(events, "broke", f"{who(seat)} cannot ante {coins(owed)}.", seat)
            walk_plank(s, seat, events)
            return
        pay_in(s, seat, owed)
        s.turn.ante = owed
        emit(events, "ante", f"{who(seat)} antes {coins(owed)} (coffer {coins(s.coffer)}).", seat)
    elif pirate.owes_ante:
        emit(events, "broke", f"{who(seat)} could not ante this wave.", seat)
        walk_plank(s, seat, events)
        return
    s.turn.bones = throw_bones(s)
    reading = reading_at(s, s.turn.bones)
    emit(events, "bones", f"{who(seat)} throws the Bones: {reading.summary()}.", seat)


def next_turn(s: StonesAndBonesState, events: list[Event]) -> None:
    if s.phase != "over":
        begin_turn(s, next_afloat(s, s.current), events)


def can_pilfer(s: StonesAndBonesState) -> bool:
    turn = s.turn
    if s.phase != "turn" or turn is None or s.table_stone is None or turn.cursed:
        return False
    if s.options.pilfer == "off" or s.table_stone.owner == s.current:
        return False
    return s.pirates[s.current].purse >= bet_at(s, turn.bones or [])


def stone_result(reading: Throw | BonesReading, stones: Sequence[int], pilfered: int | None,
                 captain: bool) -> ClaimKind | None:
    """«Float = Stone matches any Bone»; «Captain's Luck = 13 on Captain's Stone (auto-Float)»,
    on either Blessing Stone but not on a pilfered one (SB-7)."""
    if any(reading.floats(v) for v in stones) or (pilfered is not None and reading.floats(pilfered)):
        return "float"
    if captain and CAPTAINS_LUCK in stones:
        return "luck"
    return None


def turn_decision(s: StonesAndBonesState, seat: int, action: A, events: list[Event]) -> None:
    if seat != s.current:  # the owner of the Stone on the table
        stone = s.table_stone
        assert stone is not None
        if action.kind == "pick_up":
            s.table_stone = None
            emit(events, "pick_up", f"{who(seat)} picks up their Stone.", seat)
        else:
            stone.settled = True
            emit(events, "leave_stone", f"{who(seat)} leaves their Stone ({stone.value}) on the "
                                        "table.", seat)
        return
    turn = s.turn
    assert turn is not None and turn.bones is not None
    stone = s.table_stone
    s.table_stone = None  # «until the next player throws»: this turn closes the window
    pirate = s.pirates[seat]
    reading = reading_at(s, turn.bones)
    if action.kind == "fold":
        turn.result = "fold"
        emit(events, "fold", f"{who(seat)} folds: no bet, no Stone.", seat)
        next_turn(s, events)
        return
    if action.kind == "plank":
        emit(events, "broke", f"{who(seat)} cannot cover the bet of {coins(reading.bet)}.", seat)
        walk_plank(s, seat, events)
        return
    if action.kind == "fly":
        pirate.flew_tide = s.tide
        turn.flown = throw_bones(s)
        reading = reading_at(s, turn.flown)
        emit(events, "fly", f"{who(seat)} Flies the Black: the Bones again, {reading.summary()}; "
                            "no Stone, only a Crossbones wins.", seat)
        if pirate.purse < reading.bet:
            emit(events, "broke", f"{who(seat)} cannot cover the new bet of "
                                  f"{coins(reading.bet)}.", seat)
            walk_plank(s, seat, events)
            return
    pay_in(s, seat, reading.bet)
    turn.paid = reading.bet
    emit(events, "bet", f"{who(seat)} pays {coins(reading.bet)} (coffer {coins(s.coffer)}).", seat)
    if reading.crossbones:
        claim_coffer(s, seat, "crossbones", reading.crossbones, events)
        return
    if turn.flown is not None or turn.cursed:
        turn.result = "sink"
        why = "Flying the Black" if turn.flown is not None else "Cursed"
        emit(events, "sink", f"{who(seat)} throws no Stone ({why}) and no Crossbones shows: "
                             "Sink.", seat)
        next_turn(s, events)
        return
    turn.stones = [s.dice.roll(FACES) for _ in range(reading.stones)]
    if action.kind == "pilfer":
        assert stone is not None
        turn.pilfered = stone.value
    result = stone_result(reading, turn.stones, turn.pilfered, turn.captain)
    thrown = " and ".join(map(str, turn.stones))
    pilfer = f", Pilfering {who(stone.owner)}'s {stone.value}" if turn.pilfered and stone else ""
    blessing = " (Blessing: two Stones)" if len(turn.stones) > 1 else ""
    emit(events, "stone", f"{who(seat)} throws the Stone{blessing}: {thrown}{pilfer}.", seat)
    if result is not None:
        claim_coffer(s, seat, result, None, events)
        return
    sink(s, seat, events)


def sink(s: StonesAndBonesState, seat: int, events: list[Event]) -> None:
    turn = s.turn
    assert turn is not None
    turn.result = "sink"
    if s.options.pilfer != "off" and turn.stones:
        s.table_stone = TableStone(owner=seat, value=turn.stones[-1],
                                   settled=s.options.pilfer == "always")
    emit(events, "sink", f"Sink: no match for {who(seat)}.", seat)
    next_turn(s, events)


def walk_plank(s: StonesAndBonesState, seat: int, events: list[Event]) -> None:
    """SB-10: everything into the coffer and one re-roll of the Bones: a Crossbones claims the
    coffer (Cursed, Captain); anything else and the player is out of the game."""
    turn = s.turn
    assert turn is not None
    s.table_stone = None
    all_in = s.pirates[seat].purse
    pay_in(s, seat, all_in)
    turn.paid += all_in
    turn.plank = throw_bones(s)
    reading = reading_at(s, turn.plank)
    emit(events, "plank", f"{who(seat)} Walks the Plank: throws in {coins(all_in)} and the Bones "
                          f"again: {' '.join(map(str, turn.plank))}.", seat)
    if reading.crossbones:
        claim_coffer(s, seat, "plank", reading.crossbones, events)
        return
    drown(s, seat, events)


def drown(s: StonesAndBonesState, seat: int, events: list[Event]) -> None:
    turn = s.turn
    assert turn is not None
    turn.result = "drowned"
    s.pirates[seat].status = "eliminated"
    if s.cursed == seat:
        s.cursed = None
    emit(events, "eliminated", f"No Crossbones: {who(seat)} is out of the game.", seat)
    if len(afloat_seats(s)) <= 1:
        end_game(s, events, "afloat")
        return
    ensure_captain(s, events)
    next_turn(s, events)


# -- claims ---------------------------------------------------------------------------------------


_CLAIM_WORDS: dict[ClaimKind, str] = {
    "float": "Float: the Stone matches a Bone",
    "luck": "Captain's Luck: a 13 on the Captain's Stone",
    "crossbones": "Crossbones",
    "plank": "Crossbones from the Plank",
}


def claim_coffer(s: StonesAndBonesState, seat: int, kind: ClaimKind, name: str | None,
                 events: list[Event]) -> None:
    turn = s.turn
    assert turn is not None
    turn.result = kind
    turn.crossbones = name
    s.table_stone = None
    s.claim = Claim(seat=seat, kind=kind, crossbones=name, plunder=s.captain == seat)
    what = _CLAIM_WORDS[kind] + (f" ({name})" if name else "")
    emit(events, kind, f"{what}! {who(seat)} claims the coffer ({coins(s.coffer)}).", seat)
    if s.options.grumbles and len(afloat_seats(s)) >= 3:  # «unavailable in Cutthroat»
        s.phase = "grumble"
        s.decided = [False] * s.seats
        emit(events, "grumble_window", f"Anyone else may Grumble ({coins(GRUMBLE_FEE * s.tide)}) "
                                       "to force a reroll.")
        return
    settle_claim(s, events)


def settle_claim(s: StonesAndBonesState, events: list[Event]) -> None:
    """The claim stands: Curse, Captaincy (SB-8), then Mutiny if the Captain plundered."""
    claim = s.claim
    assert claim is not None
    seat = claim.seat
    if claim.kind in ("crossbones", "plank"):
        s.cursed = seat
        emit(events, "curse", f"{who(seat)} is Cursed: no Stone until another player claims the "
                              "coffer.", seat)
    elif s.cursed is not None and s.cursed != seat:
        emit(events, "curse_lifted", f"The Curse on {who(s.cursed)} lifts.", s.cursed)
        s.cursed = None
    if s.captain != seat:
        s.captain = seat
        emit(events, "captain", f"{who(seat)} is the new Captain.", seat)
    afloat = afloat_seats(s)
    if (claim.plunder or s.options.mutiny_trigger == "any_claim") and len(afloat) >= 2:
        s.mutiny = Mutiny(captain=seat, votes=[None] * s.seats, d4=[None] * s.seats,
                          paid=[0] * s.seats)
        if len(afloat) == 2:
            cutthroat(s, events)
            return
        s.phase = "mutiny_call"
        s.decided = [False] * s.seats
        emit(events, "plunder", f"The Captain plunders the coffer ({coins(s.coffer)})! Anyone may "
                                "cry Mutiny.", seat)
        return
    take_coffer(s, seat, events)
    after_claim(s, events)


def take_coffer(s: StonesAndBonesState, seat: int, events: list[Event]) -> None:
    emit(events, "take", f"{who(seat)} takes the coffer: {coins(s.coffer)}.", seat)
    s.pirates[seat].purse += s.coffer
    s.coffer = 0


def after_claim(s: StonesAndBonesState, events: list[Event]) -> None:
    """«Crossbones winner may cash out immediately, despite Tide» (Swallow the Anchor), if the
    coffer stayed theirs."""
    claim = s.claim
    assert claim is not None
    if claim.kind in ("crossbones", "plank") and s.captain == claim.seat \
            and is_afloat(s, claim.seat):
        s.phase = "anchor"
        s.decided = [False] * s.seats
        return
    end_wave(s, events)


def grumble_reroll(s: StonesAndBonesState, events: list[Event]) -> None:
    """SB-15: the dice that made the claim are thrown again; if they no longer claim, the claim
    is void (a Float becomes a Sink, a Crossbones a Sink, a Plank a drowning)."""
    claim, turn = s.claim, s.turn
    assert claim is not None and turn is not None
    turn.grumbled = True
    seat = claim.seat
    if claim.kind in ("float", "luck"):
        turn.stones = [s.dice.roll(FACES) for _ in turn.stones]
        reading = reading_at(s, turn.bones or [])
        result = stone_result(reading, turn.stones, turn.pilfered, turn.captain)
        emit(events, "reroll", f"{who(seat)} throws the Stone again: "
                               f"{' and '.join(map(str, turn.stones))}.", seat)
        if result is not None:
            claim.kind = result
            turn.result = result
            emit(events, "stands", "The claim stands.", seat)
            settle_claim(s, events)
            return
        s.claim = None
        emit(events, "void", "The claim is void.", seat)
        sink(s, seat, events)
        return
    faces = throw_bones(s)
    if claim.kind == "plank":
        turn.plank = faces
    elif turn.flown is not None:
        turn.flown = faces
    else:
        turn.bones = faces
    name = crossbones_name(faces)
    emit(events, "reroll", f"{who(seat)} throws the Bones again: {' '.join(map(str, faces))}.",
         seat)
    if name is not None:
        claim.crossbones = name
        turn.crossbones = name
        emit(events, "stands", f"Crossbones ({name}) again: the claim stands.", seat)
        settle_claim(s, events)
        return
    s.claim = None
    turn.crossbones = None
    if claim.kind == "plank":
        drown(s, seat, events)
        return
    turn.result = "sink"
    emit(events, "void", "No Crossbones: the claim is void. Sink.", seat)
    next_turn(s, events)


# -- Mutiny -----------------------------------------------------------------------------------------


def voters_of(s: StonesAndBonesState) -> list[int]:
    """SB-12: everyone afloat except the Captain and the Mutineer."""
    m = s.mutiny
    assert m is not None
    return [x for x in afloat_seats(s) if x not in (m.captain, m.mutineer)]


def gifts_left(s: StonesAndBonesState, seat: int) -> int:
    """How many more gifts ``seat`` may give in this parley."""
    m = s.mutiny
    given = m.gifts[seat] if m is not None and seat < len(m.gifts) else 0
    return max(0, GIFTS_PER_PARLEY - given)


def give_gift(s: StonesAndBonesState, seat: int, target: int, amount: int,
              events: list[Event]) -> None:
    m = s.mutiny
    assert m is not None
    if len(m.gifts) < s.seats:
        m.gifts = m.gifts + [0] * (s.seats - len(m.gifts))
    m.gifts[seat] += 1
    s.pirates[seat].purse -= amount
    s.pirates[target].purse += amount
    emit(events, "give", f"{who(seat)} gives {who(target)} {coins(amount)}.", seat)


def cutthroat(s: StonesAndBonesState, events: list[Event]) -> None:
    """SB-13: «Mutiny auto-triggers (no cost); Flip a coin to decide mutiny vote. Both roll
    1d20 + 1d6 + 1d4 simultaneously — high total wins»; heads is a Challenge, a tie is the
    Captain's."""
    m = s.mutiny
    assert m is not None
    m.cutthroat = True
    m.mutineer = next(x for x in afloat_seats(s) if x != m.captain)
    m.coin = "heads" if s.dice.roll(2) == 1 else "tails"
    if m.coin == "tails":
        emit(events, "cutthroat", f"Cutthroat: {who(m.mutineer)} flips for Mutiny: tails. The "
                                  "Captain keeps the coffer.", m.mutineer)
        take_coffer(s, m.captain, events)
        after_claim(s, events)
        return
    m.captain_roll = [s.dice.roll(20), s.dice.roll(6), s.dice.roll(4)]
    m.mutineer_roll = [s.dice.roll(20), s.dice.roll(6), s.dice.roll(4)]
    m.captain_total, m.mutineer_total = sum(m.captain_roll), sum(m.mutineer_roll)
    emit(events, "cutthroat", f"Cutthroat: {who(m.mutineer)} flips for Mutiny: heads! "
                              f"Captain {who(m.captain)} {' + '.join(map(str, m.captain_roll))} = "
                              f"{m.captain_total}; {who(m.mutineer)} "
                              f"{' + '.join(map(str, m.mutineer_roll))} = {m.mutineer_total}.")
    challenge_won(s, events)


def challenge(s: StonesAndBonesState, events: list[Event]) -> None:
    """SB-12: every non-Captain pays d4 gp (everything they have if less); each d4 is added to
    the side its owner voted for: Captain d20 + d6 + Nay d4s, Mutineer d20 + d4 + Yay d4s."""
    m = s.mutiny
    assert m is not None and m.mutineer is not None
    costs = []
    for seat in afloat_seats(s):
        if seat == m.captain:
            continue
        roll = s.dice.roll(4)
        m.d4[seat] = roll
        m.paid[seat] = min(roll * GP, s.pirates[seat].purse)
        pay_in(s, seat, m.paid[seat])
        costs.append(f"{who(seat)} d4 {roll} pays {coins(m.paid[seat])}")
    emit(events, "mutiny_costs", "The cost of Mutiny: " + "; ".join(costs)
         + f" (coffer {coins(s.coffer)}).")
    nays = [x for x in voters_of(s) if m.votes[x] == "nay"]
    yays = [x for x in voters_of(s) if m.votes[x] == "yay"]
    m.captain_roll = [s.dice.roll(20), s.dice.roll(6)] + [m.d4[x] or 0 for x in nays]
    m.mutineer_roll = [s.dice.roll(20), m.d4[m.mutineer] or 0] + [m.d4[x] or 0 for x in yays]
    m.captain_total, m.mutineer_total = sum(m.captain_roll), sum(m.mutineer_roll)
    emit(events, "challenge", f"Challenge! Captain {who(m.captain)}: "
                              f"{' + '.join(map(str, m.captain_roll))} = {m.captain_total}; "
                              f"Mutineer {who(m.mutineer)}: "
                              f"{' + '.join(map(str, m.mutineer_roll))} = {m.mutineer_total}.")
    challenge_won(s, events)


def challenge_won(s: StonesAndBonesState, events: list[Event]) -> None:
    m = s.mutiny
    assert m is not None and m.mutineer is not None
    assert m.captain_total is not None and m.mutineer_total is not None
    if m.mutineer_total > m.captain_total:  # a tie is the Captain's
        m.winner = m.mutineer
        s.captain = m.mutineer
        if s.cursed is not None and s.cursed != m.mutineer:
            s.cursed = None  # the Mutineer claims the coffer: the Curse on the Captain ends
        emit(events, "mutiny_won", f"The Mutiny succeeds: {who(m.mutineer)} takes the coffer "
                                   f"({coins(s.coffer)}) and is Captain.", m.mutineer)
    else:
        m.winner = m.captain
        emit(events, "mutiny_lost", f"The Mutiny fails: Captain {who(m.captain)} keeps the "
                                    f"coffer ({coins(s.coffer)}).", m.captain)
    s.phase = "split"
    s.decided = [False] * s.seats


def side_of(s: StonesAndBonesState) -> list[int]:
    """The winner and the voters who backed them."""
    m = s.mutiny
    assert m is not None and m.winner is not None
    vote = "yay" if m.winner == m.mutineer else "nay"
    return [m.winner] + [x for x in voters_of(s) if m.votes[x] == vote]


def split_coffer(s: StonesAndBonesState, action: A, events: list[Event]) -> None:
    m = s.mutiny
    assert m is not None and m.winner is not None
    winner, pot = m.winner, s.coffer
    shares = [0] * s.seats
    if action.kind == "share_all":
        group = afloat_seats(s)
    elif action.kind == "share_side":
        group = side_of(s)
    else:
        group = [winner]
    share, rest = divmod(pot, len(group))
    for seat in group:
        shares[seat] += share
    shares[winner] += rest
    if action.kind == "refund":
        shares = list(m.paid)
        shares[winner] += pot - sum(m.paid)
    elif action.kind == "give_half":
        assert action.target is not None
        shares = [0] * s.seats
        shares[action.target] = pot // 2
        shares[winner] = pot - pot // 2
    for seat, amount in enumerate(shares):
        s.pirates[seat].purse += amount
    s.coffer = 0
    given = [f"{who(x)} {coins(a)}" for x, a in enumerate(shares) if a and x != winner]
    if given:
        emit(events, "split", f"{who(winner)} splits the coffer: " + ", ".join(given)
             + f"; keeps {coins(shares[winner])}.", winner)
    else:
        emit(events, "split", f"{who(winner)} keeps the coffer: {coins(pot)}.", winner)


def ledger(state: StonesAndBonesState) -> list[LedgerRow]:
    """Per seat: bought in, cashed out, still at the table, net (SB-16's ranking). At the end
    the purses still at the table count as cashed out, so the nets sum to zero."""
    over = state.phase == "over"
    rows = []
    for seat, p in enumerate(state.pirates):
        out = p.cashed_out + (p.purse if over else 0)
        at_table = 0 if over else p.purse
        rows.append(LedgerRow(
            seat=seat, status=p.status, bought_in=p.bought_in, cashed_out=out, at_table=at_table,
            net=p.net, bought_in_text=coins(p.bought_in), cashed_out_text=coins(out),
            net_text=signed_coins(p.net)))
    return rows
