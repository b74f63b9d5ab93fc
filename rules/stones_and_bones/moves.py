"""Stones & Bones: who is asked, and what each seat may do (the one source the table, the checks,
the bot and the tests all read), with the few facts of the table those answers rest on.

What players decide: pay and throw (or Pilfer, Fly the Black, fold, Walk the Plank when broke),
Grumbles, Mutiny (the call, the parley, the sealed vote, the split of the coffer), Swallow the
Anchor and the sealed Tide-rise choice.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from rules.base import IllegalAction
from rules.stones_and_bones.models import (
    ANTE,
    GIFTS,
    GIFTS_PER_PARLEY,
    GRUMBLE_FEE,
    MUTINY_WINDOW,
    StonesAndBonesAction,
    StonesAndBonesState,
    TurnRecord,
    make_action,
)
from rules.stones_and_bones.reading import Throw, bet_of, throw_of

A = StonesAndBonesAction
#: the phases whose choices are sealed until all are in (RULINGS 5.4)
SEALED_PHASES = ("vote", "tide")


# -- the table's facts ------------------------------------------------------------------------


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


def reading_at(s: StonesAndBonesState, faces: Sequence[int]) -> Throw:
    """The numbers of a throw at this Tide under the table's Ill Omens rule."""
    return throw_of(faces, s.tide, s.options.ill_omens)


def bet_at(s: StonesAndBonesState, faces: Sequence[int]) -> int:
    return bet_of(faces, s.tide, s.options.ill_omens)


def ante_at(s: StonesAndBonesState) -> int:
    """«Ante 1 Silver × Tide»."""
    return ANTE * s.tide


def grumble_fee(tide: int) -> int:
    """SB-15: «pay 1 gp × Tide»."""
    return GRUMBLE_FEE * tide


def current_bones(turn: TurnRecord) -> list[int] | None:
    """The Bones that decide the turn: the Plank's, Fly the Black's, or the first throw."""
    return turn.plank or turn.flown or turn.bones


def can_pilfer(s: StonesAndBonesState) -> bool:
    """SB-14: the roller may throw the Sunk Stone lying on the table with their own, if it is
    not theirs, they are not Cursed (no Stone at all) and they can pay the bet."""
    turn = s.turn
    if s.phase != "turn" or turn is None or s.table_stone is None or turn.cursed:
        return False
    if s.options.pilfer == "off" or s.table_stone.owner == s.current:
        return False
    return s.pirates[s.current].purse >= bet_at(s, turn.bones or [])


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


def side_of(s: StonesAndBonesState) -> list[int]:
    """The winner of a Challenge and the voters who backed them."""
    m = s.mutiny
    assert m is not None and m.winner is not None
    vote = "yay" if m.winner == m.mutineer else "nay"
    return [m.winner] + [x for x in voters_of(s) if m.votes[x] == vote]


# -- who acts, what is legal ------------------------------------------------------------------


def to_act(s: StonesAndBonesState) -> list[int]:
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


def legal_actions(s: StonesAndBonesState, seat: int) -> list[A]:
    """Deterministic, at most 16 entries; the timeout's default is always the first."""
    if seat not in to_act(s):
        return []
    pirate = s.pirates[seat]
    if s.phase == "turn":
        if seat != s.current:
            return [make_action("leave_stone"), make_action("pick_up")]
        turn = s.turn
        assert turn is not None and turn.bones is not None
        can_pay = pirate.purse >= bet_at(s, turn.bones)
        actions = [make_action("pay")] if can_pay else [make_action("plank")]
        if can_pilfer(s):
            actions.append(make_action("pilfer"))
        if pirate.flew_tide != s.tide:
            actions.append(make_action("fly"))
        if s.options.fold and can_pay:  # SB-10 over SB-11: «If broke on bet» → the Plank
            actions.append(make_action("fold"))
        return actions
    if s.phase == "grumble":
        can_grumble = pirate.purse >= grumble_fee(s.tide)
        return [make_action("let_stand")] + ([make_action("grumble")] if can_grumble else [])
    if s.phase == "object":
        return [make_action("allow"), make_action("object")]
    if s.phase == "mutiny_call":
        return [make_action("pass"), make_action("mutiny")]
    if s.phase == "parley":  # gifts are capped per seat, so the parley always ends
        if not gifts_left(s, seat):
            return [make_action("ready")]
        gifts = [make_action("give", target, amount) for target in afloat_seats(s) if target != seat
                 for amount in GIFTS if amount <= pirate.purse]
        return [make_action("ready")] + gifts
    if s.phase == "vote":
        return [make_action("nay"), make_action("yay")]
    if s.phase == "split":
        m = s.mutiny
        assert m is not None
        actions = [make_action("keep")]
        if len(afloat_seats(s)) > 2:  # (between two, sharing with all aboard is giving half)
            actions.append(make_action("share_all"))
        if len(side_of(s)) > 1:
            actions.append(make_action("share_side"))
        if sum(m.paid) > 0:
            actions.append(make_action("refund"))
        actions += [make_action("give_half", target) for target in afloat_seats(s) if target != seat]
        return actions
    if s.phase == "anchor":
        return [make_action("stay_aboard"), make_action("anchor")]
    if s.phase == "tide":
        return ([make_action("stay"), make_action("heave"), make_action("end")]
                + [make_action("buy", amount=amount) for amount in s.options.buy_ins])
    return []


def timeout_action(s: StonesAndBonesState, seat: int) -> A:
    """RULINGS 5.4: pay and throw (no Fly the Black, Pilfer or fold; the Plank if broke);
    leave a Stone on the table; no Mutiny; ready at the parley; Nay; keep the coffer; no
    Grumbles, no objection; stay aboard; stay at the Tide rise with no buy-in. Each is the
    first legal action."""
    legal = legal_actions(s, seat)
    if not legal:
        raise IllegalAction("Nothing is waiting for that seat.")
    return legal[0]


def open_actions(s: StonesAndBonesState) -> list[A]:
    """Every decision but the sealed ones is made in the open, on the table itself: the union of
    what the seats owing a decision may do (a click counts for whoever pressed it, if it is
    theirs to make). The Mutiny vote and the Tide-rise choice go to each seat privately."""
    if s.phase in SEALED_PHASES or s.phase == "over":
        return []
    shared: list[A] = []
    for seat in to_act(s):
        shared += [a for a in legal_actions(s, seat) if a not in shared]
    return shared


def decision_stamp(s: StonesAndBonesState, seat: int) -> str | None:
    """In a sealed phase a seat's buttons stay valid until its own choice is made, so one vote
    does not void the buttons another voter is about to press."""
    if s.phase == "vote" and s.mutiny is not None:
        mine: tuple[object, ...] = ("v", s.turns, s.waves_played, s.mutiny.votes[seat])
    elif s.phase == "tide":
        choice = s.tide_choices[seat]
        mine = ("t", s.tide, s.waves_played, choice.kind if choice else None)
    else:
        return None
    return f"{zlib.crc32(repr(mine).encode()):08x}"


def decision_window(s: StonesAndBonesState) -> int | None:
    """RULINGS 5.4: the «Mutiny!» call is open for a minute after the Captain plunders, even at a
    table whose timer is off, so one silent player cannot hold the game there for ever."""
    return MUTINY_WINDOW if s.phase == "mutiny_call" else None
