"""Stones & Bones: what players' decisions do, and everything the rules do by themselves.

A turn, as the rulebook has it: «Raise the Sails: Ante 1 Silver × Tide», «Throw the Bones», read
the bet, «Pay Bet», «Throw Stone», «Resolve Outcome». The ante, the throws, the Crossbones check,
the Stone, the Captain's roll-off and the Challenge rolls happen here, each leaving an event with
its seats and figures. Every function changes the state it is given (a copy ``apply`` made) and
stops where a player must decide.

Dice come from ``state.dice`` in this order, which tests rely on when forcing values:
- a turn: four Bones; then one Stone, or two with a Blessing (no Stone for a Crossbones, a
  Cursed roller or Fly the Black); Fly the Black and Walk the Plank each throw four Bones again;
- a roll-off for Captain: a d20 per player afloat in seat order, again among the tied;
- a Challenge: a d4 per non-Captain afloat in seat order, then the Captain's d20 and d6, then
  the Mutineer's d20; Cutthroat: a d2 (1 = heads), then the Captain's d20, d6, d4 and the
  Mutineer's d20, d6, d4;
- a Grumbles reroll: the claimer's Stones again, or four Bones for a Crossbones or the Plank.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.base import Event, GameError, Outcome, seat_name
from rules.rng import Dice
from rules.stones_and_bones import text
from rules.stones_and_bones.models import (
    BONES,
    CAPTAINS_LUCK,
    FACES,
    GP,
    LAST_TIDE,
    MAX_SEATS,
    MIN_SEATS,
    TURN_CAP,
    WAVES_PER_TIDE,
    Claim,
    ClaimKind,
    EndReason,
    Mutiny,
    Pirate,
    StonesAndBonesAction,
    StonesAndBonesOptions,
    StonesAndBonesState,
    TableStone,
    TurnRecord,
    copy_state,
)
from rules.stones_and_bones.moves import (
    afloat_seats,
    ante_at,
    grumble_fee,
    is_afloat,
    next_afloat,
    order_from,
    reading_at,
    side_of,
    to_act,
    voters_of,
)
from rules.stones_and_bones.reading import BonesReading, Throw, crossbones_name, money, signed_money
from rules.stones_and_bones.view import ledger

A = StonesAndBonesAction
_ROLL_OFF_GUARD = 1000


def emit(events: list[Event], kind: str, words: str, seat: int | None = None, *,
         seats: tuple[int, ...] = (), data: dict[str, Any] | None = None) -> None:
    """An event; the seats it concerns are ``seat`` alone unless given."""
    if not seats and seat is not None:
        seats = (seat,)
    events.append(Event(kind=kind, text=words, seat=seat, seats=seats, data=data or {}))


def throw_bones(s: StonesAndBonesState) -> list[int]:
    return [s.dice.roll(FACES) for _ in range(BONES)]


def pay_in(s: StonesAndBonesState, seat: int, amount: int) -> None:
    pirate = s.pirates[seat]
    assert 0 <= amount <= pirate.purse, "a payment beyond the purse"
    pirate.purse -= amount
    s.coffer += amount


# -- the start ----------------------------------------------------------------------------------


def purse_of(options: StonesAndBonesOptions, stake: int | None) -> int:
    """What a seat brings: the purse its host set for it, or the table's starting purse."""
    return options.starting_purse if stake is None else stake


def options_with_purses(options: StonesAndBonesOptions, stakes: Sequence[int | None]
                        ) -> StonesAndBonesOptions:
    """The options a table starts with when a host set some seats' purses (tavern mode): every
    seat brings its own purse or the starting purse. Unchanged when no seat has one, or when
    the table has a number of seats the game refuses anyway."""
    if all(stake is None for stake in stakes) or not MIN_SEATS <= len(stakes) <= MAX_SEATS:
        return options
    return options.model_copy(update={"purses": [purse_of(options, stake) for stake in stakes]})


def seat_purses(options: StonesAndBonesOptions, seats: int) -> list[int]:
    if options.purses is None:
        return [options.starting_purse] * seats
    if len(options.purses) != seats:
        raise GameError(f"{len(options.purses)} purses were set for {seats} seats.")
    return list(options.purses)


def new_state(seats: int, options: StonesAndBonesOptions, seed: int, forced: Sequence[int] = ()
              ) -> StonesAndBonesState:
    """Purses from the options, a roll-off for the first Captain, and the first throw.
    ``forced``: dice values for tests (the roll-off comes first)."""
    options = StonesAndBonesOptions.model_validate(options).model_copy()
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise GameError(f"Stones & Bones is for {MIN_SEATS} to {MAX_SEATS} players.")
    purses = seat_purses(options, seats)
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


# -- the players' decisions ---------------------------------------------------------------------


def decide(s: StonesAndBonesState, seat: int, action: A) -> list[Event]:
    """Apply a legal decision to ``s`` (a copy) and run the rules until someone must decide."""
    events: list[Event] = []
    kind = action.kind
    if s.phase == "turn":
        turn_decision(s, seat, action, events)
    elif s.phase == "grumble":
        assert s.claim is not None
        if kind == "grumble":
            fee = grumble_fee(s.tide)
            s.pirates[seat].purse -= fee
            s.carry[seat] += fee
            s.claim.grumbler = seat
            s.phase = "object"
            s.decided = [False] * s.seats
            emit(events, "grumble", f"{seat_name(seat)} Grumbles and pays {money(fee)} into the "
                                    "next coffer: the dice are thrown again unless anyone "
                                    "objects.", seat, data={"fee": fee})
        else:
            s.decided[seat] = True
            emit(events, "let_stand", f"{seat_name(seat)} lets the claim stand.", seat)
            if not to_act(s):
                settle_claim(s, events)
    elif s.phase == "object":
        if kind == "object":
            emit(events, "object", f"{seat_name(seat)} objects: the Grumbles fails.", seat)
            settle_claim(s, events)
        else:
            s.decided[seat] = True
            emit(events, "allow", f"{seat_name(seat)} lets the dice be thrown again.", seat)
            if not to_act(s):
                grumble_reroll(s, events)
    elif s.phase == "mutiny_call":
        _mutiny_call(s, seat, action, events)
    elif s.phase == "parley":
        if kind == "give":
            assert action.target is not None and action.amount is not None
            give_gift(s, seat, action.target, action.amount, events)
        else:
            s.decided[seat] = True
            emit(events, "ready", f"{seat_name(seat)} is ready to vote.", seat)
            if not to_act(s):
                s.phase = "vote"
                voters = voters_of(s)
                emit(events, "vote", f"The vote on the Mutiny: {', '.join(seat_name(x) for x in voters)} "
                                     "vote Yay or Nay, sealed until all are in.", seats=tuple(voters))
    elif s.phase == "vote":
        _vote(s, seat, action, events)
    elif s.phase == "split":
        split_coffer(s, action, events)
        after_claim(s, events)
    elif s.phase == "anchor":
        if kind == "anchor":
            purse = s.pirates[seat].purse
            emit(events, "anchor", f"{seat_name(seat)} Swallows the Anchor and cashes out "
                                   f"{money(purse)}.", seat, data={"amount": purse})
            cash_out(s, seat)
            if len(afloat_seats(s)) >= 2:
                ensure_captain(s, events)
        else:
            emit(events, "stay_aboard", f"{seat_name(seat)} stays aboard.", seat)
        end_wave(s, events)
    elif s.phase == "tide":
        s.tide_choices[seat] = action
        emit(events, "chosen", f"{seat_name(seat)} has chosen.", seat)
        if not to_act(s):
            resolve_tide(s, events)
    return events


def _mutiny_call(s: StonesAndBonesState, seat: int, action: A, events: list[Event]) -> None:
    m = s.mutiny
    assert m is not None
    if action.kind == "mutiny":  # SB-12: the first to declare is the Mutineer
        m.mutineer = seat
        s.phase = "parley"
        s.decided = [False] * s.seats
        emit(events, "mutiny", f"{text.mutiny_cry(seat)} Parley before the vote: deals may be struck "
                               "(and broken), coins given.", seat, seats=(seat, m.captain))
        return
    s.decided[seat] = True
    emit(events, "pass", f"{seat_name(seat)} lets it be.", seat)
    if not to_act(s):
        emit(events, "no_mutiny", "Nobody cries Mutiny.")
        take_coffer(s, m.captain, events)
        after_claim(s, events)


def _vote(s: StonesAndBonesState, seat: int, action: A, events: list[Event]) -> None:
    m = s.mutiny
    assert m is not None
    m.votes[seat] = "yay" if action.kind == "yay" else "nay"
    emit(events, "voted", f"{seat_name(seat)} has voted.", seat)
    if to_act(s):
        return
    m.revealed = True
    voters = voters_of(s)
    yay = sum(m.votes[x] == "yay" for x in voters)
    shown = ", ".join(f"{seat_name(x)} {(m.votes[x] or '').capitalize()}" for x in voters)
    majority = yay * 2 > len(voters)  # a strict Yay majority
    data = {"challenge": majority, "yay": yay, "nay": len(voters) - yay}
    if majority:
        emit(events, "votes", f"The votes: {shown}. A Yay majority: Challenge!", seats=tuple(voters), data=data)
        challenge(s, events)
        return
    emit(events, "votes", f"The votes: {shown}. No Yay majority: the Mutiny fails.", seats=tuple(voters),
         data=data)
    take_coffer(s, m.captain, events)
    after_claim(s, events)


def timeout_event(seat: int, default: A) -> Event:
    return Event(kind="timeout", text=text.timeout_text(seat, default), seat=seat, seats=(seat,),
                 data={"default": default.kind})


def outcomes(state: StonesAndBonesState) -> list[Outcome]:
    """SB-16: ranked by net result; equal nets share a place. The score is the net in cp."""
    nets = [p.net for p in state.pirates]
    return [Outcome(seat=seat, rank=1 + sum(o > net for o in nets), score=net)
            for seat, net in enumerate(nets)]


# -- Captain, waves and tides -------------------------------------------------------------------


def roll_off(s: StonesAndBonesState, events: list[Event], why: str) -> None:
    """SB-16: «everyone rolls their Stone, highest wins, ties re-roll»."""
    contenders = afloat_seats(s)
    for _ in range(_ROLL_OFF_GUARD):
        if len(contenders) <= 1:
            break
        rolls = {seat: s.dice.roll(FACES) for seat in contenders}
        top = max(rolls.values())
        shown = ", ".join(f"{seat_name(seat)} {roll}" for seat, roll in rolls.items())
        contenders = [seat for seat, roll in rolls.items() if roll == top]
        tie = " (a tie: they roll again)" if len(contenders) > 1 else ""
        emit(events, "roll_off", f"{why}, everyone rolls their Stone: {shown}{tie}",
             seats=tuple(rolls), data={"rolls": [[seat, roll] for seat, roll in rolls.items()]})
    else:
        raise RuntimeError("the roll-off for Captain did not settle")
    s.captain = contenders[0]
    emit(events, "captain", f"{seat_name(s.captain)} is Captain.", s.captain, data={"by": "roll_off"})


def ensure_captain(s: StonesAndBonesState, events: list[Event]) -> None:
    """RULINGS 5.6: the Captain is always a player still afloat; if the Captain leaves, a
    roll-off names the next."""
    if s.phase != "over" and not is_afloat(s, s.captain) and afloat_seats(s):
        roll_off(s, events, f"{seat_name(s.captain)} is no longer aboard; to name a new Captain")


def begin_wave(s: StonesAndBonesState, events: list[Event]) -> None:
    # RULINGS 5.6: the claim, with any mutiny costs, has emptied the coffer
    assert s.coffer == 0, "a wave began with coins left in the coffer"
    s.claim, s.mutiny, s.table_stone = None, None, None
    if any(s.carry):
        carried = sum(s.carry)
        s.coffer += carried
        s.carry = [0] * s.seats
        emit(events, "carry", f"The Grumbles money ({money(carried)}) goes into this coffer.",
             data={"amount": carried})
    emit(events, "wave", f"Wave {s.wave} of Tide {s.tide}: {seat_name(s.captain)}, the Captain, "
                         "throws first.", seats=(s.captain,), data={"wave": s.wave, "tide": s.tide})
    if s.options.ante == "per_wave_all":
        owed = ante_at(s)
        paid = []
        for seat in order_from(s, s.captain):
            pirate = s.pirates[seat]
            pirate.owes_ante = pirate.purse < owed
            if not pirate.owes_ante:
                pay_in(s, seat, owed)
                paid.append(seat)
        if paid:
            emit(events, "ante", f"{', '.join(seat_name(x) for x in paid)} ante {money(owed)} each "
                                 f"(coffer {money(s.coffer)}).",
                 seats=tuple(paid), data={"amount": owed, "coffer": s.coffer})
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
    emit(events, "tide", f"{text.tide_rise_words(s.tide, ante_at(s))}. Stay, Heave Down (cash out), "
                         "buy in, or vote to end the game (sealed until all have chosen).",
         data={"tide": s.tide, "ante": ante_at(s)})


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
            words.append(f"{seat_name(seat)} buys in {money(amount)}")
        elif choice.kind == "heave":
            words.append(f"{seat_name(seat)} Heaves Down with {money(pirate.purse)}")
            cash_out(s, seat)
        elif choice.kind == "end":
            words.append(f"{seat_name(seat)} votes to end the game")
        else:
            words.append(f"{seat_name(seat)} stays")
    chosen = afloat_seats(s)
    ending = [x for x in chosen if (choice := s.tide_choices[x]) is not None and choice.kind == "end"]
    # SB-16: it takes everyone aboard; a voter who is outvoted hears why the next Wave comes
    going_on = " Not everyone voted to end: the game goes on." if ending and len(ending) < len(chosen) else ""
    emit(events, "tide_choices", "Tide-rise choices: " + "; ".join(words) + "." + going_on, seats=tuple(chosen),
         data={"choices": [choice.model_dump() for x in chosen if (choice := s.tide_choices[x])]})
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
            emit(events, "last_afloat", f"{seat_name(afloat[0])}, the last pirate afloat, takes the "
                                        f"coffer ({money(s.coffer)}).", afloat[0], data={"amount": s.coffer})
            s.pirates[afloat[0]].purse += s.coffer
        else:  # the hard cap, mid-wave: share it out (the Captain keeps the odd copper)
            share, rest = divmod(s.coffer, len(afloat))
            for seat in afloat:
                s.pirates[seat].purse += share
            s.pirates[s.captain if s.captain in afloat else afloat[0]].purse += rest
            emit(events, "shared", f"The coffer ({money(s.coffer)}) is shared among those afloat.",
                 seats=tuple(afloat), data={"amount": s.coffer})
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
    rows = ledger(s)
    standings = ", ".join(f"{seat_name(r.seat)} {signed_money(r.net)}" for r in rows)
    emit(events, "over", f"The game is over: {why}. Net results: {standings}.",
         data={"reason": reason, "nets": [r.net for r in rows]})


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
            emit(events, "broke", f"{seat_name(seat)} cannot ante {money(owed)}.", seat, data={"owed": owed})
            walk_plank(s, seat, events)
            return
        pay_in(s, seat, owed)
        s.turn.ante = owed
        emit(events, "ante", f"{seat_name(seat)} antes {money(owed)} (coffer {money(s.coffer)}).", seat,
             data={"amount": owed, "coffer": s.coffer})
    elif pirate.owes_ante:
        emit(events, "broke", f"{seat_name(seat)} could not ante this wave.", seat)
        walk_plank(s, seat, events)
        return
    s.turn.bones = throw_bones(s)
    reading = reading_at(s, s.turn.bones)
    emit(events, "bones", f"{seat_name(seat)} throws the Bones: {reading.summary()}.", seat,
         data={"faces": list(reading.faces), "bet": reading.bet, "crossbones": reading.crossbones})


def next_turn(s: StonesAndBonesState, events: list[Event]) -> None:
    if s.phase != "over":
        begin_turn(s, next_afloat(s, s.current), events)


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
            emit(events, "pick_up", f"{seat_name(seat)} picks up their Stone.", seat)
        else:
            stone.settled = True
            emit(events, "leave_stone", f"{seat_name(seat)} leaves their Stone ({stone.value}) on the "
                                        "table.", seat, data={"value": stone.value})
        return
    turn = s.turn
    assert turn is not None and turn.bones is not None
    stone = s.table_stone
    s.table_stone = None  # «until the next player throws»: this turn closes the window
    pirate = s.pirates[seat]
    reading = reading_at(s, turn.bones)
    if action.kind == "fold":
        turn.result = "fold"
        emit(events, "fold", f"{seat_name(seat)} folds: no bet, no Stone.", seat)
        next_turn(s, events)
        return
    if action.kind == "plank":
        emit(events, "broke", f"{seat_name(seat)} cannot cover the bet of {money(reading.bet)}.", seat,
             data={"owed": reading.bet})
        walk_plank(s, seat, events)
        return
    if action.kind == "fly":
        pirate.flew_tide = s.tide
        turn.flown = throw_bones(s)
        reading = reading_at(s, turn.flown)
        emit(events, "fly", f"{seat_name(seat)} Flies the Black: the Bones again, {reading.summary()}; "
                            "no Stone, only a Crossbones wins.", seat,
             data={"faces": list(reading.faces), "bet": reading.bet, "crossbones": reading.crossbones})
        if pirate.purse < reading.bet:
            emit(events, "broke", f"{seat_name(seat)} cannot cover the new bet of "
                                  f"{money(reading.bet)}.", seat, data={"owed": reading.bet})
            walk_plank(s, seat, events)
            return
    pay_in(s, seat, reading.bet)
    turn.paid = reading.bet
    emit(events, "bet", f"{seat_name(seat)} pays {money(reading.bet)} (coffer {money(s.coffer)}).", seat,
         data={"amount": reading.bet, "coffer": s.coffer})
    if reading.crossbones:
        claim_coffer(s, seat, "crossbones", reading.crossbones, events)
        return
    if turn.flown is not None or turn.cursed:
        turn.result = "sink"
        why = "Flying the Black" if turn.flown is not None else "Cursed"
        emit(events, "sink", f"{seat_name(seat)} throws no Stone ({why}) and no Crossbones shows: "
                             "Sink.", seat)
        next_turn(s, events)
        return
    turn.stones = [s.dice.roll(FACES) for _ in range(reading.stones)]
    if action.kind == "pilfer":
        assert stone is not None
        turn.pilfered = stone.value
    result = stone_result(reading, turn.stones, turn.pilfered, turn.captain)
    thrown = " and ".join(map(str, turn.stones))
    pilfer = f", Pilfering {seat_name(stone.owner)}'s {stone.value}" if turn.pilfered and stone else ""
    blessing = " (Blessing: two Stones)" if len(turn.stones) > 1 else ""
    emit(events, "stone", f"{seat_name(seat)} throws the Stone{blessing}: {thrown}{pilfer}.", seat,
         data={"stones": list(turn.stones), "pilfered": turn.pilfered})
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
    emit(events, "sink", f"Sink: no match for {seat_name(seat)}.", seat)
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
    emit(events, "walk_plank", f"{seat_name(seat)} Walks the Plank: throws in {money(all_in)} and the Bones "
                               f"again: {' '.join(map(str, turn.plank))}.", seat,
         data={"paid": all_in, "faces": list(turn.plank)})
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
    emit(events, "eliminated", f"No Crossbones: {seat_name(seat)} is out of the game.", seat)
    if len(afloat_seats(s)) <= 1:
        end_game(s, events, "afloat")
        return
    ensure_captain(s, events)
    next_turn(s, events)


# -- claims ---------------------------------------------------------------------------------------


def claim_coffer(s: StonesAndBonesState, seat: int, kind: ClaimKind, name: str | None,
                 events: list[Event]) -> None:
    turn = s.turn
    assert turn is not None
    turn.result = kind
    turn.crossbones = name
    s.table_stone = None
    s.claim = Claim(seat=seat, kind=kind, crossbones=name, plunder=s.captain == seat)
    emit(events, kind, text.claim_text(seat, kind, name, s.coffer), seat,
         data={"coffer": s.coffer, "crossbones": name})
    if s.options.grumbles and len(afloat_seats(s)) >= 3:  # «unavailable in Cutthroat»
        s.phase = "grumble"
        s.decided = [False] * s.seats
        fee = grumble_fee(s.tide)
        emit(events, "grumble_window", f"Anyone else may Grumble ({money(fee)}) to force a reroll.",
             seats=tuple(x for x in afloat_seats(s) if x != seat), data={"fee": fee})
        return
    settle_claim(s, events)


def settle_claim(s: StonesAndBonesState, events: list[Event]) -> None:
    """The claim stands: Curse, Captaincy (SB-8), then Mutiny if the Captain plundered."""
    claim = s.claim
    assert claim is not None
    seat = claim.seat
    if claim.kind in ("crossbones", "plank"):
        s.cursed = seat
        emit(events, "curse", f"{seat_name(seat)} is Cursed: no Stone until another player claims the "
                              "coffer.", seat)
    elif s.cursed is not None and s.cursed != seat:
        emit(events, "curse_lifted", f"The Curse on {seat_name(s.cursed)} lifts.", s.cursed)
        s.cursed = None
    if s.captain != seat:
        s.captain = seat
        emit(events, "captain", f"{seat_name(seat)} is the new Captain.", seat, data={"by": "claim"})
    afloat = afloat_seats(s)
    if (claim.plunder or s.options.mutiny_trigger == "any_claim") and len(afloat) >= 2:
        s.mutiny = Mutiny(captain=seat, votes=[None] * s.seats, d4=[None] * s.seats,
                          paid=[0] * s.seats)
        if len(afloat) == 2:
            cutthroat(s, events)
            return
        s.phase = "mutiny_call"
        s.decided = [False] * s.seats
        emit(events, "plunder", f"The Captain plunders the coffer ({money(s.coffer)})! Anyone may "
                                "cry Mutiny.", seat, data={"coffer": s.coffer})
        return
    take_coffer(s, seat, events)
    after_claim(s, events)


def take_coffer(s: StonesAndBonesState, seat: int, events: list[Event]) -> None:
    emit(events, "take", f"{seat_name(seat)} takes the coffer: {money(s.coffer)}.", seat,
         data={"amount": s.coffer})
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
        emit(events, "reroll", f"{seat_name(seat)} throws the Stone again: "
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
    emit(events, "reroll", f"{seat_name(seat)} throws the Bones again: {' '.join(map(str, faces))}.",
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


def give_gift(s: StonesAndBonesState, seat: int, target: int, amount: int,
              events: list[Event]) -> None:
    m = s.mutiny
    assert m is not None
    if len(m.gifts) < s.seats:
        m.gifts = m.gifts + [0] * (s.seats - len(m.gifts))
    m.gifts[seat] += 1
    s.pirates[seat].purse -= amount
    s.pirates[target].purse += amount
    emit(events, "give", f"{seat_name(seat)} gives {seat_name(target)} {money(amount)}.", seat,
         seats=(seat, target), data={"amount": amount})


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
        emit(events, "cutthroat_tails", f"Cutthroat: {seat_name(m.mutineer)} flips for Mutiny: tails. "
                                        "The Captain keeps the coffer.", m.mutineer,
             seats=(m.mutineer, m.captain), data={"coin": "tails"})
        take_coffer(s, m.captain, events)
        after_claim(s, events)
        return
    m.captain_roll = [s.dice.roll(20), s.dice.roll(6), s.dice.roll(4)]
    m.mutineer_roll = [s.dice.roll(20), s.dice.roll(6), s.dice.roll(4)]
    m.captain_total, m.mutineer_total = sum(m.captain_roll), sum(m.mutineer_roll)
    emit(events, "cutthroat", f"Cutthroat: {seat_name(m.mutineer)} flips for Mutiny: heads! "
                              f"Captain {seat_name(m.captain)} {' + '.join(map(str, m.captain_roll))} = "
                              f"{m.captain_total}; {seat_name(m.mutineer)} "
                              f"{' + '.join(map(str, m.mutineer_roll))} = {m.mutineer_total}.",
         seats=(m.mutineer, m.captain),
         data={"coin": "heads", "captain": m.captain_total, "mutineer": m.mutineer_total})
    challenge_won(s, events)


def challenge(s: StonesAndBonesState, events: list[Event]) -> None:
    """SB-12: every non-Captain pays d4 gp (everything they have if less); each d4 is added to
    the side its owner voted for: Captain d20 + d6 + Nay d4s, Mutineer d20 + d4 + Yay d4s."""
    m = s.mutiny
    assert m is not None and m.mutineer is not None
    costs, payers = [], []
    for seat in afloat_seats(s):
        if seat == m.captain:
            continue
        roll = s.dice.roll(4)
        m.d4[seat] = roll
        m.paid[seat] = min(roll * GP, s.pirates[seat].purse)
        pay_in(s, seat, m.paid[seat])
        costs.append(f"{seat_name(seat)} d4 {roll} pays {money(m.paid[seat])}")
        payers.append(seat)
    emit(events, "mutiny_costs", "The cost of Mutiny: " + "; ".join(costs)
         + f" (coffer {money(s.coffer)}).", seats=tuple(payers),
         data={"paid": [m.paid[x] for x in payers], "coffer": s.coffer})
    nays = [x for x in voters_of(s) if m.votes[x] == "nay"]
    yays = [x for x in voters_of(s) if m.votes[x] == "yay"]
    m.captain_roll = [s.dice.roll(20), s.dice.roll(6)] + [m.d4[x] or 0 for x in nays]
    m.mutineer_roll = [s.dice.roll(20), m.d4[m.mutineer] or 0] + [m.d4[x] or 0 for x in yays]
    m.captain_total, m.mutineer_total = sum(m.captain_roll), sum(m.mutineer_roll)
    emit(events, "challenge", f"Challenge! Captain {seat_name(m.captain)}: "
                              f"{' + '.join(map(str, m.captain_roll))} = {m.captain_total}; "
                              f"Mutineer {seat_name(m.mutineer)}: "
                              f"{' + '.join(map(str, m.mutineer_roll))} = {m.mutineer_total}.",
         seats=(m.captain, m.mutineer), data={"captain": m.captain_total, "mutineer": m.mutineer_total})
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
        emit(events, "mutiny_won", f"The Mutiny succeeds: {seat_name(m.mutineer)} takes the coffer "
                                   f"({money(s.coffer)}) and is Captain.", m.mutineer,
             data={"coffer": s.coffer})
    else:
        m.winner = m.captain
        emit(events, "mutiny_lost", f"The Mutiny fails: Captain {seat_name(m.captain)} keeps the "
                                    f"coffer ({money(s.coffer)}).", m.captain, data={"coffer": s.coffer})
    s.phase = "split"
    s.decided = [False] * s.seats


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
    takers = [x for x, a in enumerate(shares) if a and x != winner]
    data = {"shared": bool(takers), "shares": shares}
    # (said with how the coffer was won: the line this leaves in a table's history is all that
    # tells a Challenge, once the table that showed it has shrunk)
    who = f"{seat_name(winner)}, who won the Challenge,"
    if takers:
        given = ", ".join(f"{seat_name(x)} {money(shares[x])}" for x in takers)
        emit(events, "split", f"{who} splits the coffer: {given}; keeps "
                              f"{money(shares[winner])}.", winner, seats=(winner, *takers), data=data)
    else:
        emit(events, "split", f"{who} keeps the coffer: {money(pot)}.", winner, data=data)
