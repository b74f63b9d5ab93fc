"""Stones & Bones: what each seat and the channel may see.

Everything at this table is public but the sealed choices: a Mutiny vote or a Tide-rise choice
is shown to its own seat at once and to everyone else only when all are in. ``view`` is the one
reader of them, and ``scramble_hidden`` declares exactly those secrets.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel, Field

from rules.base import seat_name
from rules.stones_and_bones.models import (
    CAPTAINS_LUCK,
    GIFTS_PER_PARLEY,
    ActionKind,
    ClaimKind,
    EndReason,
    Phase,
    Status,
    StonesAndBonesOptions,
    StonesAndBonesState,
    TurnRecord,
    TurnResult,
    Vote,
    copy_state,
    make_action,
)
from rules.stones_and_bones.moves import (
    afloat_seats,
    ante_at,
    current_bones,
    decision_window,
    gifts_left,
    grumble_fee,
    legal_actions,
    to_act,
    voters_of,
)
from rules.stones_and_bones.reading import BonesReading, expected_bet, money, read_bones, signed_money


class PirateView(BaseModel):
    seat: int
    status: Status
    purse: int
    purse_text: str
    captain: bool
    cursed: bool
    acting: bool
    #: Fly the Black is still unused this Tide
    can_fly: bool
    bought_in: int
    cashed_out: int
    net: int
    net_text: str


class StoneView(BaseModel):
    value: int
    pilfered: bool
    floats: bool
    #: Captain's Luck: a 13 on the Captain's own Stone
    luck: bool


class TurnView(BaseModel):
    seat: int
    number: int
    wave: int
    tide: int
    captain: bool
    cursed: bool
    ante: int
    bones: BonesReading | None
    flown: BonesReading | None
    plank: BonesReading | None
    paid: int
    stones: list[StoneView]
    result: TurnResult
    crossbones: str | None
    #: the outcome in words, e.g. "Crossbones (Daggers): Seat 2 claims the coffer and is Cursed"
    result_text: str


class TableStoneView(BaseModel):
    owner: int
    value: int


class ClaimView(BaseModel):
    seat: int
    kind: ClaimKind
    crossbones: str | None
    plunder: bool
    grumbler: int | None


class MutinyView(BaseModel):
    captain: int
    mutineer: int | None
    cutthroat: bool
    coin: Literal["heads", "tails"] | None
    voters: list[int]
    #: who has voted (not how) while the votes are sealed
    voted: list[int]
    #: during the parley: each seat still to press Ready -> the gifts it may still give
    gifts_left: dict[int, int] = Field(default_factory=dict)
    revealed: bool
    #: per seat once revealed, else only the viewer's own
    votes: list[Vote | None]
    yay: int | None
    nay: int | None
    d4: list[int | None]
    paid: list[int]
    captain_roll: list[int]
    mutineer_roll: list[int]
    captain_total: int | None
    mutineer_total: int | None
    winner: int | None


class TideChoiceView(BaseModel):
    seat: int
    chosen: bool
    #: "stay", "heave", "end" or "buy"; shown once all are in (or to the chooser)
    choice: str | None
    amount: int | None


class LedgerRow(BaseModel):
    """SB-16: net = cashed out − bought in, the table settled where it stands: whatever is still
    in a purse counts as cashed out, at the end of the game or where a game-master ended it
    early (the character takes it home)."""

    seat: int
    status: Status
    bought_in: int
    #: what the seat takes home: its cash-outs and its purse
    cashed_out: int
    net: int
    bought_in_text: str
    cashed_out_text: str
    net_text: str


class StonesAndBonesView(BaseModel):
    phase: Phase
    over: bool
    ended_by: EndReason | None
    viewer: int | None
    seats: int
    wave: int
    tide: int
    waves_played: int
    turns: int
    captain: int
    cursed: int | None
    current_seat: int | None
    to_act: list[int]
    coffer: int
    coffer_text: str
    #: Grumbles money waiting for the next coffer
    carry: int
    ante: int
    expected_bet: int
    pirates: list[PirateView]
    #: the turn in progress, or the last one played
    turn: TurnView | None
    #: the turn before ``turn`` (e.g. the Sink just before a new roll)
    last_turn: TurnView | None
    table_stone: TableStoneView | None
    claim: ClaimView | None
    mutiny: MutinyView | None
    tide_choices: list[TideChoiceView]
    ledger: list[LedgerRow]
    #: what the game waits for, in words
    question: str
    options: StonesAndBonesOptions
    #: in the phase "turn": what the roller may do with the throw in front of them (pay or the
    #: Plank, then any of pilfer, fly, fold), so a table can say it without working it out
    roller_choices: list[ActionKind] = Field(default_factory=list)
    #: seconds the rules allow for the decision awaited now whatever the table's timer (the
    #: Mutiny call); None: only the table's timer runs
    decision_window: int | None = None


def ledger(state: StonesAndBonesState) -> list[LedgerRow]:
    """Per seat: bought in, taken home (cash-outs and purse), net (SB-16's ranking). The nets
    sum to zero but for what is still in the coffer (nothing, once the game is over)."""
    rows = []
    for seat, p in enumerate(state.pirates):
        out = p.cashed_out + p.purse
        rows.append(LedgerRow(
            seat=seat, status=p.status, bought_in=p.bought_in, cashed_out=out, net=p.net,
            bought_in_text=money(p.bought_in), cashed_out_text=money(out),
            net_text=signed_money(p.net)))
    return rows


def count_words(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}.get(n, str(n))


def _result_text(turn: TurnRecord) -> str:
    who = seat_name(turn.seat)
    name = f" ({turn.crossbones})" if turn.crossbones else ""
    return {
        "pending": f"{who} is deciding on the bet.",
        "float": f"Float: {who} claims the coffer.",
        "luck": f"Captain's Luck ({CAPTAINS_LUCK}): {who} claims the coffer.",
        "crossbones": f"Crossbones{name}: {who} claims the coffer and is Cursed.",
        "plank": f"Walked the Plank into Crossbones{name}: {who} claims the coffer, Cursed.",
        "sink": f"Sink: {who} passes.",
        "fold": f"{who} folds.",
        "drowned": f"Walked the Plank, no Crossbones: {who} is out of the game.",
    }[turn.result]


def _turn_view(s: StonesAndBonesState, turn: TurnRecord | None) -> TurnView | None:
    if turn is None:
        return None
    rule = s.options.ill_omens

    def read(faces: list[int] | None) -> BonesReading | None:
        return read_bones(faces, turn.tide, rule) if faces else None

    bones = read(turn.bones)
    deciding = read(current_bones(turn))
    stones = [StoneView(value=v, pilfered=False,
                        floats=bool(deciding and deciding.floats(v)),
                        luck=turn.captain and v == CAPTAINS_LUCK) for v in turn.stones]
    if turn.pilfered is not None:
        stones.append(StoneView(value=turn.pilfered, pilfered=True,
                                floats=bool(deciding and deciding.floats(turn.pilfered)), luck=False))
    return TurnView(
        seat=turn.seat, number=turn.number, wave=turn.wave, tide=turn.tide, captain=turn.captain,
        cursed=turn.cursed, ante=turn.ante, bones=bones, flown=read(turn.flown),
        plank=read(turn.plank), paid=turn.paid, stones=stones, result=turn.result,
        crossbones=turn.crossbones, result_text=_result_text(turn),
    )


def _mutiny_view(s: StonesAndBonesState, seat: int | None) -> MutinyView | None:
    m = s.mutiny
    if m is None:
        return None
    voters = voters_of(s) if m.mutineer is not None and not m.cutthroat else []
    if m.revealed:
        votes = list(m.votes)
    else:
        votes = [v if x == seat else None for x, v in enumerate(m.votes)]
    gifts = ({x: gifts_left(s, x) for x in afloat_seats(s) if not s.decided[x]}
             if s.phase == "parley" else {})
    return MutinyView(
        captain=m.captain, mutineer=m.mutineer, cutthroat=m.cutthroat, coin=m.coin,
        voters=voters, voted=[x for x in voters if m.votes[x] is not None], gifts_left=gifts,
        revealed=m.revealed,
        votes=votes,
        yay=sum(m.votes[x] == "yay" for x in voters) if m.revealed else None,
        nay=sum(m.votes[x] == "nay" for x in voters) if m.revealed else None,
        d4=list(m.d4), paid=list(m.paid), captain_roll=list(m.captain_roll),
        mutineer_roll=list(m.mutineer_roll), captain_total=m.captain_total,
        mutineer_total=m.mutineer_total, winner=m.winner,
    )


def _tide_view(s: StonesAndBonesState, seat: int | None) -> list[TideChoiceView]:
    if all(c is None for c in s.tide_choices):
        return []
    sealed = s.phase == "tide"
    rows = []
    for x, choice in enumerate(s.tide_choices):
        shown = choice if choice is not None and (not sealed or x == seat) else None
        rows.append(TideChoiceView(seat=x, chosen=choice is not None,
                                   choice=shown.kind if shown else None,
                                   amount=shown.amount if shown else None))
    return rows


def _question(s: StonesAndBonesState) -> str:
    m, claim = s.mutiny, s.claim
    if s.phase == "over":
        return "The game is over."
    if s.phase == "turn":
        turn = s.turn
        assert turn is not None and turn.bones is not None
        bet = read_bones(turn.bones, s.tide, s.options.ill_omens).bet
        text = f"{seat_name(s.current)}: pay the bet of {money(bet)} and throw"
        if s.table_stone is not None and len(to_act(s)) > 1:
            text += (f"; {seat_name(s.table_stone.owner)} may pick up their Stone "
                     f"({s.table_stone.value}) before it is Pilfered")
        return text + "."
    if s.phase == "grumble" and claim is not None:
        return (f"Anyone but {seat_name(claim.seat)} may Grumble ({money(grumble_fee(s.tide))}) to "
                "force a reroll of the claim.")
    if s.phase == "object" and claim is not None and claim.grumbler is not None:
        return f"{seat_name(claim.grumbler)} Grumbled: object to stop the reroll, or allow it."
    if s.phase == "mutiny_call":
        return (f"Captain {seat_name(s.captain)} plunders the coffer ({money(s.coffer)}): anyone may "
                "cry Mutiny!")
    if s.phase == "parley" and m is not None and m.mutineer is not None:
        return (f"{seat_name(m.mutineer)} cries Mutiny against Captain {seat_name(m.captain)}: parley, give "
                f"coins (at most {count_words(GIFTS_PER_PARLEY)} gifts each), then ready for "
                "the vote.")
    if s.phase == "vote":
        return "The crew votes Yay (for the Mutineer) or Nay (for the Captain), sealed."
    if s.phase == "split" and m is not None and m.winner is not None:
        return f"{seat_name(m.winner)} won the coffer ({money(s.coffer)}): keep it or split it."
    if s.phase == "anchor" and claim is not None:
        return (f"{seat_name(claim.seat)} may Swallow the Anchor: cash out "
                f"{money(s.pirates[claim.seat].purse)} now.")
    if s.phase == "tide":
        return (f"The Tide rose to {s.tide}: stay, Heave Down (cash out), buy in, or vote to end "
                "the game (sealed).")
    return ""


def view(s: StonesAndBonesState, seat: int | None) -> StonesAndBonesView:
    """Everything but the sealed choices is public: a Mutiny vote or a Tide-rise choice is shown
    to its own seat at once and to everyone else only when all are in."""
    over = s.phase == "over"
    acting = to_act(s)
    rows: list[LedgerRow] = ledger(s)
    pirates = [
        PirateView(
            seat=x, status=p.status, purse=p.purse, purse_text=money(p.purse),
            captain=x == s.captain and not over, cursed=x == s.cursed, acting=x in acting,
            can_fly=p.status == "afloat" and p.flew_tide != s.tide, bought_in=p.bought_in,
            cashed_out=p.cashed_out, net=p.net, net_text=signed_money(p.net),
        )
        for x, p in enumerate(s.pirates)
    ]
    claim = s.claim
    public = StonesAndBonesView(
        phase=s.phase, over=over, ended_by=s.ended_by, seats=s.seats, wave=s.wave,
        tide=s.tide, waves_played=s.waves_played, turns=s.turns, captain=s.captain,
        cursed=s.cursed, current_seat=None if over else s.current, to_act=acting,
        coffer=s.coffer, coffer_text=money(s.coffer), carry=sum(s.carry), ante=ante_at(s),
        expected_bet=round(expected_bet(s.tide, s.options.ill_omens)), pirates=pirates,
        turn=_turn_view(s, s.turn), last_turn=_turn_view(s, s.last_turn),
        table_stone=(TableStoneView(owner=s.table_stone.owner, value=s.table_stone.value)
                     if s.table_stone else None),
        claim=(ClaimView(seat=claim.seat, kind=claim.kind, crossbones=claim.crossbones,
                         plunder=claim.plunder, grumbler=claim.grumbler) if claim else None),
        ledger=rows, question=_question(s), options=s.options,
        roller_choices=[a.kind for a in legal_actions(s, s.current)] if s.phase == "turn" else [],
        decision_window=decision_window(s), **_seen_by(s, None),
    )
    return public if seat is None else seat_view(s, seat, public)


def _seen_by(s: StonesAndBonesState, seat: int | None) -> dict[str, Any]:
    """The only fields that depend on who looks: the sealed choices, each shown to its own seat."""
    return {"viewer": seat, "mutiny": _mutiny_view(s, seat), "tide_choices": _tide_view(s, seat)}


def seat_view(s: StonesAndBonesState, seat: int, public: StonesAndBonesView) -> StonesAndBonesView:
    """``view(s, seat)`` from the public view of the same state."""
    return public.model_copy(update=_seen_by(s, seat))


def scramble_hidden(s: StonesAndBonesState, viewer: int | None, rng: random.Random
                    ) -> StonesAndBonesState:
    """The same table with every sealed choice ``viewer`` may not see changed to another it
    could be: the Mutiny votes cast (Yay or Nay) until they are revealed, the Tide-rise choices
    made (stay, Heave Down, end, a buy-in) until all are in. Who has chosen is public, so it
    stays; everything else at this table is public."""
    other = copy_state(s)
    m = other.mutiny
    if other.phase == "vote" and m is not None and not m.revealed:
        for x, vote in enumerate(m.votes):
            if x != viewer and vote is not None:
                m.votes[x] = rng.choice(("yay", "nay"))
    if other.phase == "tide":
        choices = [make_action("stay"), make_action("heave"), make_action("end")] + [
            make_action("buy", amount=amount) for amount in other.options.buy_ins]
        for x, choice in enumerate(other.tide_choices):
            if x != viewer and choice is not None:
                other.tide_choices[x] = rng.choice(choices)
    return other
