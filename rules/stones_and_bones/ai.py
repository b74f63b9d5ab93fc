"""Stones & Bones: the tavern-keeper, the bot player's policy."""

from __future__ import annotations

from rules.base import IllegalAction
from rules.stones_and_bones.models import GP, StonesAndBonesAction, StonesAndBonesState, make_action
from rules.stones_and_bones.moves import afloat_seats, ante_at, legal_actions, reading_at
from rules.stones_and_bones.reading import expected_bet


def ai_action(s: StonesAndBonesState, seat: int) -> StonesAndBonesAction:
    """Never folds; Flies the Black only when behind (net below zero) and the bet showing is
    large or unaffordable; Pilfers when it can; cries Mutiny and votes Yay only when ahead (net
    above zero); keeps what it wins; never Grumbles and objects only to a Grumble against its own
    claim; stays aboard, and buys in at a Tide rise when its purse runs low, except where the
    host set the seats' purses (tavern mode): there a purse is a character's coin, and what the
    seat brought is the most it may lose. Deterministic, and always one of the seat's legal
    actions."""
    legal = legal_actions(s, seat)
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
        if s.options.purses is None and s.pirates[seat].purse < low:
            return make_action("buy", amount=s.options.buy_ins[0])
        return kinds["stay"]
    return legal[0]  # let it stand, ready, keep, stay aboard
