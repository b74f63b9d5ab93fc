"""Roll the Bones as Boneyard plays it: the rulebook plus RULINGS.md section 2, RB-1 to RB-10.

«The object of the game is to collect all the dice.» Every roll of a round runs the phases of
RULINGS 2.3, and the state always says which one it is in:

1. **ante** (sealed): each player still in the round chooses which dice to put in;
2. **bone**: public bone-die calls with a Ready flag (RB-2);
3. **pick** (sealed): each player chooses the die to roll;
4. the server rolls every picked die at once and resolves: a single highest roll takes the
   pots (RB-7) and every rolled die (RB-4); a tie sends the tied players round again (RB-5,
   RB-6, without the ante when a tied player rolled their last die).

Sealed choices (an ante being built, a picked die) live in the state but only ``view`` reads
them, and only for their own seat; the public view learns an ante when the whole ante phase
closes and a pick when the dice are rolled. A player with nothing to decide (one die left, a
single kind of die, a called bone die) is not asked: the engine makes the only possible
choice for them, still sealed.

Dice are their number of sides (4, 6, 8, 10, 12); the bone die is the d12 of the dice set.
Seats are "Seat 1".."Seat N" in event text, so the host can put names in.
"""

from __future__ import annotations

import json
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.base import Chooser, Engine, Event, GameError, IllegalAction, Outcome
from rules.rng import Dice

DATA_PATH = Path(__file__).resolve().parent.parent / "data" / "roll_the_bones.json"

MIN_SEATS, MAX_SEATS = 2, 6  # «in a 4-6 player game ... In a 2-3 player game»
ORDINARY_PER_PLAYER = 10  # «Give each player 10 dice and one 12-sided "bone" die»
CHANGES_PER_ROLL = 2  # RB-2: at most 2 bone-call changes per player per roll
#: RB-7: eligible players tied for a pot the overall winner can't take «roll off»: the server
#: rolls this die for each of them until one is highest. It belongs to nobody: no dice move.
ROLLOFF_SIDES = 12


# -- the dice sets, as data -----------------------------------------------------------------


class DiceSet(BaseModel):
    """RB-1: the ten ordinary dice each player starts with (sides -> how many)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1, max_length=40)
    description: str = Field(min_length=1, max_length=200)
    ordinary: dict[int, int]

    @field_validator("ordinary")
    @classmethod
    def _ten_real_dice(cls, value: dict[int, int]) -> dict[int, int]:
        if sum(value.values()) != ORDINARY_PER_PLAYER:
            raise ValueError(f"a player starts with {ORDINARY_PER_PLAYER} ordinary dice")
        if any(sides < 2 or count < 1 for sides, count in value.items()):
            raise ValueError("every die needs at least 2 sides and a count of at least 1")
        return dict(sorted(value.items()))


class DiceSets(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    source: str = ""
    #: the bone die's sides; RB-1 «one 12-sided "bone" die»
    bone: int = Field(ge=2)
    sets: dict[str, DiceSet]

    @model_validator(mode="after")
    def _bone_is_distinct(self) -> DiceSets:
        # RB-1: «every ordinary die is smaller than the bone die», which is also what lets the
        # engine tell a bone die by its sides alone.
        for key, dice_set in self.sets.items():
            if any(sides >= self.bone for sides in dice_set.ordinary):
                raise ValueError(f"{key}: every ordinary die must be smaller than the bone die")
        return self


def load_dice_sets(path: Path = DATA_PATH) -> DiceSets:
    return DiceSets.model_validate(json.loads(path.read_text(encoding="utf-8")))


DICE_SETS: DiceSets = load_dice_sets()
BONE: int = DICE_SETS.bone
DiceSetKey = Literal["mixed", "all_d6"]
if set(DICE_SETS.sets) != {"mixed", "all_d6"}:  # the options name exactly these
    raise ValueError("data/roll_the_bones.json must define exactly the sets 'mixed' and 'all_d6'")


def starting_hand(dice_set: DiceSetKey) -> list[int]:
    """One player's collection at the start: the ten ordinary dice plus the bone die."""
    ordinary = DICE_SETS.sets[dice_set].ordinary
    return sorted([sides for sides, count in ordinary.items() for _ in range(count)] + [BONE])


START_DICE = ORDINARY_PER_PLAYER + 1


def die_name(sides: int) -> str:
    return f"d{sides}"


def dice_counts(dice: Iterable[int]) -> dict[str, int]:
    """{"d4": 2, "d12": 1}, smallest die first: how the table shows a collection or a pot."""
    counts = Counter(dice)
    return {die_name(sides): counts[sides] for sides in sorted(counts)}


def dice_text(dice: Iterable[int]) -> str:
    counts = dice_counts(dice)
    return ", ".join(f"{n}×{name}" if n > 1 else name for name, n in counts.items()) or "nothing"


# -- models ---------------------------------------------------------------------------------


class RollTheBonesOptions(BaseModel):
    """Every OPT of RULINGS section 2, with its default."""

    #: RB-1: which ten ordinary dice each player gets (the bone d12 is always added)
    dice_set: DiceSetKey = "mixed"
    #: RB-7: layered side pots whenever contributions differ, or the rulebook's simple variant
    #: (everyone matches the shortest ante)
    side_pots: Literal["layered", "simple"] = "layered"
    #: RB-10: the game ends after this many rounds; then most dice wins, ties shared
    max_rounds: int = Field(default=200, ge=1, le=1000)


class Pot(BaseModel):
    """Dice in the centre and the seats that may win them (RB-7: only the layers they paid
    into; a tie's rolled dice are open to every tied player)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    dice: tuple[int, ...]
    eligible: tuple[int, ...]


class RollEntry(BaseModel):
    """One die thrown: a player's pick, or a roll-off throw."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    sides: int
    face: int
    bone: bool = False


class Award(BaseModel):
    """Who took one pot, and why: ``rolloff`` holds the throws of a roll-off, if one was needed."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    pot: str
    dice: tuple[int, ...]
    eligible: tuple[int, ...]
    taker: int
    rolloff: tuple[tuple[RollEntry, ...], ...] = ()


RollResult = Literal["win", "tie", "last_die_tie"]


class RollRecord(BaseModel):
    """One roll of a round, as revealed: every die, and what the roll decided."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    round: int
    cycle: int
    rolls: tuple[RollEntry, ...]
    top: int
    tied: tuple[int, ...]
    result: RollResult
    winner: int | None = None
    #: pots decided at a tie because none of the tied players could win them (RB-7)
    settled: tuple[Award, ...] = ()


class RoundReport(BaseModel):
    """The whole of a finished round, kept so the table can show the last reveal."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    round: int
    rolls: tuple[RollRecord, ...]
    winner: int
    #: the dice thrown in the deciding roll, which all go to the winner (RB-4, RB-7)
    rolled_dice: tuple[int, ...]
    #: every pot of the round, in the order it was decided (settled ones first)
    awards: tuple[Award, ...]
    counts_before: tuple[int, ...]
    counts_after: tuple[int, ...]
    eliminated: tuple[int, ...]
    ante_before: int
    ante_after: int


Phase = Literal["ante", "bone", "pick", "over"]
EndReason = Literal["last_player", "cap"]


class RollTheBonesState(BaseModel):
    seats: int = Field(ge=MIN_SEATS, le=MAX_SEATS)
    options: RollTheBonesOptions
    #: RB-8: from the *starting* player count: 2 for 2-3 players, 1 for 4-6
    base_ante: int
    #: base_ante + eliminations (RULINGS 2.5)
    ante: int
    #: each seat's collection, sorted by sides
    hands: list[list[int]]
    #: seats in the order they went out, and the round each went out in
    eliminated: list[int] = Field(default_factory=list)
    eliminated_round: list[int | None]
    round: int = 1
    #: 1 for a round's first roll, +1 for every tie-break roll
    cycle: int = 1
    phase: Phase
    #: the seats rolling this cycle (the tied ones after a tie)
    in_round: list[int]
    #: whether this cycle has an ante (not after a last-die tie, RB-6)
    anteing: bool = True
    #: dice each seat must put in this cycle (0 for seats not in the round, or no ante)
    required: list[int]
    #: sealed: the ante each seat is putting together (still in its collection)
    drafts: list[list[int]]
    #: the antes of this cycle once the ante phase closed (public from then on)
    antes: list[list[int]] | None = None
    #: sealed-phase decisions made (ante confirmed / die picked)
    confirmed: list[bool]
    #: sealed: the die (sides) each seat will roll
    picks: list[int | None]
    calls: list[bool]
    #: a seat holding only bone dice must call (RB-3: no unannounced bone die can be rolled)
    forced_calls: list[bool]
    changes: list[int]
    ready: list[bool]
    pots: list[Pot] = Field(default_factory=list)
    counts_at_round_start: list[int]
    #: the rolls of the round in progress (ties so far)
    this_round: list[RollRecord] = Field(default_factory=list)
    last_round: RoundReport | None = None
    end_reason: EndReason | None = None
    dice: Dice


ActionKind = Literal[
    "ante_add", "ante_remove", "ante_fill", "ante_confirm", "bone_toggle", "ready", "pick"
]


class RollTheBonesAction(BaseModel):
    """One decision. ``sides`` names the kind of die for ``ante_add``/``ante_remove``/``pick``.

    The ante is built one die at a time (add a d4, take back a d6, ..., then confirm) so that a
    seat's list stays short whatever it holds: dice of the same size are interchangeable.
    ``ante_fill`` fills the free places with the smallest free dice (an ante of 5 is then two
    clicks, not six)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: ActionKind
    sides: int | None = None

    # Compared on every apply (``action in legal_actions``): two fields decide equality, which
    # is several times quicker than pydantic's general comparison.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, RollTheBonesAction):
            return self.kind == other.kind and self.sides == other.sides
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.kind, self.sides))


_ACTIONS: dict[tuple[str, int | None], RollTheBonesAction] = {}


def _action(kind: ActionKind, sides: int | None = None) -> RollTheBonesAction:
    """Actions are frozen and made once, so the lists legal_actions returns share them."""
    key = (kind, sides)
    made = _ACTIONS.get(key)
    if made is None:
        made = _ACTIONS[key] = RollTheBonesAction(kind=kind, sides=sides)
    return made


# -- views ----------------------------------------------------------------------------------


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


# -- helpers on a state the caller has already copied ---------------------------------------


def _copy(state: RollTheBonesState) -> RollTheBonesState:
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


def _filled(hand: Sequence[int], draft: Sequence[int], due: int) -> list[int]:
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


def can_call(state: RollTheBonesState, seat: int) -> bool:
    """RB-2: a seat holding a bone die may change its call at most twice per roll."""
    return (
        state.phase == "bone"
        and seat in state.in_round
        and BONE in state.hands[seat]
        and not state.forced_calls[seat]
        and state.changes[seat] < CHANGES_PER_ROLL
    )


def _event(kind: str, text: str, seat: int | None = None) -> Event:
    return Event(kind=kind, text=text, seat=seat)


def _start_round(state: RollTheBonesState, events: list[Event]) -> None:
    state.in_round = live_seats(state)
    state.cycle = 1
    state.this_round = []
    state.pots = []
    state.counts_at_round_start = [len(h) for h in state.hands]
    events.append(_event(
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
    events.append(_event("ante", "Antes revealed. " + "; ".join(parts) + "."))
    _open_bone(state, events)


def _refresh_ready(state: RollTheBonesState) -> None:
    """RB-2: a seat that can no longer change anything owes no Ready."""
    for s in state.in_round:
        state.ready[s] = not can_call(state, s)


def _open_bone(state: RollTheBonesState, events: list[Event]) -> None:
    state.phase = "bone"
    for s in state.in_round:
        hand = state.hands[s]
        if hand and all(sides == BONE for sides in hand):
            state.calls[s] = state.forced_calls[s] = True
            events.append(_event(
                "call", f"{seat_name(s)} holds only bone dice and must call the bone.", s))
    _refresh_ready(state)


def _close_bone(state: RollTheBonesState, events: list[Event]) -> None:
    callers = [s for s in state.in_round if state.calls[s]]
    if any(BONE in state.hands[s] for s in state.in_round):
        text = (f"Bone calls are closed: {seats_text(callers)} "
                f"{'rolls' if len(callers) == 1 else 'roll'} a bone die." if callers
                else "Bone calls are closed: nobody rolls a bone die.")
        events.append(_event("calls", text))
    _open_pick(state, events)


def _open_pick(state: RollTheBonesState, events: list[Event]) -> None:
    state.phase = "pick"
    state.confirmed = [False] * state.seats
    for s in state.in_round:
        options = pick_options(state, s)
        if len(options) == 1:
            state.picks[s] = options[0]
            state.confirmed[s] = True


#: a safety net only: every pass of the loop in _settle closes a phase, and a game has at most
#: max_rounds rounds of a few phases each (ties end with probability 1)
_SETTLE_GUARD = 1_000_000


def _settle(state: RollTheBonesState, events: list[Event]) -> None:
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
    events.append(_event("roll", "; ".join(_roll_text(e) for e in entries) + "."))
    top = max(e.face for e in entries)
    tied = tuple(e.seat for e in entries if e.face == top)
    if len(tied) == 1:
        _finish_round(state, entries, tied[0], events)
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
    events.append(_event("tie", text))
    for award in settled:
        events.append(_event("pot", _award_text(award) + ".", award.taker))
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
    events.append(_event("win", won_text + ".", winner))
    for index, pot in enumerate(state.pots):
        award = _award(state, pot, pot_name(index), faces, winner)
        _give(state, award.taker, award.dice)
        awards.append(award)
        events.append(_event("pot", _award_text(award) + ".", award.taker))
    state.pots = []
    counts = tuple(len(h) for h in state.hands)
    out = [s for s in range(state.seats) if counts[s] == 0 and state.eliminated_round[s] is None]
    ante_before = state.ante
    for s in out:  # RB-9: checked at the end of the round; permanent
        state.eliminated.append(s)
        state.eliminated_round[s] = state.round
    state.ante = state.base_ante + len(state.eliminated)  # RB-8
    if out:
        events.append(_event(
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
        _start_round(state, events)


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
        events.append(_event(
            "over", f"{seat_name(winner)} holds all {dice_in_play(state)} dice and wins!", winner))
    else:
        best = winners(state)
        events.append(_event(
            "over", f"Round {state.round} was the last (RB-10): most dice wins: "
                    f"{seats_text(best)} with {len(state.hands[best[0]])}."))


def start_round(state: RollTheBonesState) -> tuple[RollTheBonesState, list[Event]]:
    """Begin the current round afresh from the collections in ``state`` (pots emptied).

    What every round starts with; public so that tests and tools can stage a round from chosen
    collections (and forced dice in ``state.dice.forced``). Not a player action."""
    new = _copy(state)
    events: list[Event] = []
    _start_round(new, events)
    _settle(new, events)
    return new, events


def winners(state: RollTheBonesState) -> list[int]:
    """The seats holding the most dice once the game is over (RB-10: ties are shared)."""
    if state.phase != "over":
        return []
    best = max(len(h) for h in state.hands)
    return [s for s in range(state.seats) if len(state.hands[s]) == best]


# -- the engine -----------------------------------------------------------------------------


class RollTheBonesEngine(Engine[RollTheBonesState, RollTheBonesAction, RollTheBonesOptions]):
    key: ClassVar[str] = "roll-the-bones"
    title: ClassVar[str] = "Roll the Bones"
    min_seats: ClassVar[int] = MIN_SEATS
    max_seats: ClassVar[int] = MAX_SEATS
    State = RollTheBonesState
    Action = RollTheBonesAction
    Options = RollTheBonesOptions

    def new_game(self, seats: int, options: RollTheBonesOptions, seed: int) -> RollTheBonesState:
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
        _start_round(state, [])
        _settle(state, [])
        return state

    def to_act(self, state: RollTheBonesState) -> list[int]:
        if state.phase in ("ante", "pick"):
            return [s for s in state.in_round if not state.confirmed[s]]
        if state.phase == "bone":
            return [s for s in state.in_round if not state.ready[s]]
        return []

    def legal_actions(self, state: RollTheBonesState, seat: int) -> list[RollTheBonesAction]:
        """Ante: one "add" per kind of die still free (smallest first), one "take back" per
        kind in the draft, then "fill with the smallest" while the draft is short or "confirm"
        once it is complete; bone call: the toggle (if the seat may still change it) then
        Ready; pick: one per kind of die it may roll. At most 11 entries."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "ante":
            hand, draft, due = state.hands[seat], state.drafts[seat], state.required[seat]
            actions: list[RollTheBonesAction] = []
            if len(draft) < due:
                actions += [_action("ante_add", sides) for sides in sorted(set(hand))
                            if hand.count(sides) > draft.count(sides)]
            actions += [_action("ante_remove", sides) for sides in sorted(set(draft))]
            actions.append(_action("ante_fill") if len(draft) < due else _action("ante_confirm"))
            return actions
        if state.phase == "bone":
            return ([_action("bone_toggle")] if can_call(state, seat) else []) + [_action("ready")]
        return [_action("pick", sides) for sides in pick_options(state, seat)]

    def apply(self, state: RollTheBonesState, seat: int, action: RollTheBonesAction
              ) -> tuple[RollTheBonesState, list[Event]]:
        self.check(state, seat, action)
        new = _copy(state)
        events: list[Event] = []
        kind = action.kind
        if kind == "ante_add":
            assert action.sides is not None
            new.drafts[seat].append(action.sides)
            new.drafts[seat].sort()
        elif kind == "ante_remove":
            assert action.sides is not None
            new.drafts[seat].remove(action.sides)
        elif kind == "ante_fill":
            new.drafts[seat] = _filled(new.hands[seat], new.drafts[seat], new.required[seat])
        elif kind == "ante_confirm":
            new.confirmed[seat] = True
            events.append(_event("chose", f"{seat_name(seat)} has sealed their ante.", seat))
        elif kind == "bone_toggle":
            new.calls[seat] = not new.calls[seat]
            new.changes[seat] += 1
            left = CHANGES_PER_ROLL - new.changes[seat]
            verb = "calls the bone die" if new.calls[seat] else "withdraws their bone call"
            events.append(_event(
                "call", f"{seat_name(seat)} {verb} ({left} change{'s' if left != 1 else ''} left); "
                        "everyone must be Ready again.", seat))
            _refresh_ready(new)  # RB-2: Ready counts only since the last change
        elif kind == "ready":
            new.ready[seat] = True
            events.append(_event("ready", f"{seat_name(seat)} is ready.", seat))
        else:  # pick
            new.picks[seat] = action.sides
            new.confirmed[seat] = True
            events.append(_event("chose", f"{seat_name(seat)} has picked a die.", seat))
        _settle(new, events)  # the last seal or Ready closes the phase
        return new, events

    def view(self, state: RollTheBonesState, seat: int | None) -> RollTheBonesView:
        """The public view shows who has sealed a choice, never what: drafts and picks appear
        only in ``me``, for their own seat. Antes become public when the ante phase closes,
        picks when the dice are rolled (in ``this_round``/``last_round``)."""
        acting = self.to_act(state)
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
        me = None
        if seat is not None and 0 <= seat < state.seats:
            me = self._private(state, seat, acting)
        return RollTheBonesView(
            phase=state.phase, over=state.phase == "over", end_reason=state.end_reason,
            winners=winners(state), round=state.round, max_rounds=state.options.max_rounds,
            cycle=state.cycle, options=state.options, base_ante=state.base_ante, ante=state.ante,
            eliminations=len(state.eliminated), dice_total=dice_in_play(state), seats=seats,
            in_round=list(state.in_round), to_act=acting,
            pots=[PotView(name=pot_name(i), dice=dice_counts(p.dice), count=len(p.dice),
                          eligible=list(p.eligible)) for i, p in enumerate(state.pots)],
            pot_total=sum(len(p.dice) for p in state.pots),
            antes=None if state.antes is None else [dice_counts(a) for a in state.antes],
            this_round=list(state.this_round), last_round=state.last_round, me=me,
        )

    def _private(self, state: RollTheBonesState, seat: int, acting: list[int]) -> PrivateView:
        hand = state.hands[seat]
        draft = state.drafts[seat] if state.phase == "ante" else []
        due = state.required[seat]
        if seat not in state.in_round:
            prompt = ("The game is over." if state.phase == "over"
                      else "You are out of this roll; wait for the next round.")
        elif state.phase == "ante":
            prompt = (f"Your ante is sealed: {dice_text(draft)}." if seat not in acting else
                      f"Choose {due} {'die' if due == 1 else 'dice'} to ante ({len(draft)} "
                      "chosen; Fill adds your smallest), then seal it. Nobody sees them until "
                      "all antes are in.")
        elif state.phase == "bone":
            prompt = ("Call the bone die to roll it this time, or press Ready."
                      if seat in acting else "You are ready; waiting for the others.")
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
        )

    def is_over(self, state: RollTheBonesState) -> bool:
        return state.phase == "over"

    def outcomes(self, state: RollTheBonesState) -> list[Outcome]:
        """Most dice first (RB-10: ties shared); eliminated seats after the live ones, the later
        out placed higher, seats out in the same round sharing a place. Score = dice held."""
        def key(s: int) -> tuple[int, int]:
            out = state.eliminated_round[s]
            return (len(state.hands[s]), out if out is not None else state.round + 1)

        keys = [key(s) for s in range(state.seats)]
        return [
            Outcome(seat=s, rank=1 + sum(other > keys[s] for other in keys), score=len(state.hands[s]))
            for s in range(state.seats)
        ]

    def timeout_action(self, state: RollTheBonesState, seat: int) -> RollTheBonesAction | None:
        """RULINGS 2.3: ante the smallest dice; calls stay as they are (Ready); roll the largest
        ordinary die, or the bone die if called. None in the ante: the draft is replaced."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        if state.phase == "ante":
            return None
        if state.phase == "bone":
            return _action("ready")
        return _action("pick", pick_options(state, seat)[-1])

    def on_timeout(self, state: RollTheBonesState, seat: int
                   ) -> tuple[RollTheBonesState, list[Event]]:
        action = self.timeout_action(state, seat)
        # Words that name no die: the default is public, but the table learns the dice at the
        # reveal like everyone else's.
        what = {"ante": "the default ante is sealed for them",
                "bone": "their bone call stays as it is",
                "pick": "the default die is picked for them"}[state.phase]
        events = [_event("timeout", f"{seat_name(seat)} ran out of time: {what}.", seat)]
        if action is None:  # the ante: whatever was drafted, the default is the smallest dice
            staged = _copy(state)
            staged.drafts[seat] = smallest_ante(state.hands[seat], state.required[seat])
            state, more = self.apply(staged, seat, _action("ante_confirm"))
        else:
            state, more = self.apply(state, seat, action)
        return state, events + more

    def ai_action(self, state: RollTheBonesState, seat: int, choose: Chooser) -> RollTheBonesAction:
        """The issue's policy: ante the smallest dice, call the bone whenever holding one, roll
        the largest allowed die (so the bone die when called). Deterministic."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        if state.phase == "ante":
            target = Counter(smallest_ante(state.hands[seat], state.required[seat]))
            draft = Counter(state.drafts[seat])
            extra = sorted((draft - target).elements())
            if extra:
                return _action("ante_remove", extra[-1])
            if sum(draft.values()) < state.required[seat]:
                return _action("ante_fill")  # the draft is part of the smallest dice: fill it
            return _action("ante_confirm")
        if state.phase == "bone":
            if can_call(state, seat) and not state.calls[seat]:
                return _action("bone_toggle")
            return _action("ready")
        return _action("pick", pick_options(state, seat)[-1])

    def has_private_view(self) -> bool:
        return True

    def open_actions(self, state: RollTheBonesState) -> list[RollTheBonesAction]:
        """RB-2: the bone call is made in the open, so its buttons sit on the table itself."""
        return [_action("bone_toggle"), _action("ready")] if state.phase == "bone" else []

    def decision_stamp(self, state: RollTheBonesState, seat: int) -> str:
        """Everything a seat's own choices depend on: another seat sealing its ante leaves this
        seat's buttons valid, while its own click (a die added, a call made) retires them."""
        mine = (state.round, state.cycle, state.phase, state.hands[seat], state.drafts[seat],
                state.confirmed[seat], state.picks[seat], state.calls[seat], state.changes[seat],
                state.ready[seat])
        return f"{zlib.crc32(repr(mine).encode()):08x}"


ENGINE = RollTheBonesEngine()


# -- words for players ----------------------------------------------------------------------


def action_label(view: RollTheBonesView, action: RollTheBonesAction) -> str:
    """A short button label (under 80 characters) for one legal action of ``view.me``."""
    me = view.me
    if action.kind in ("ante_add", "ante_remove", "pick"):
        sides = action.sides or 0
        name = die_name(sides)
        if action.kind == "ante_add":
            have = me.hand_sides.count(sides) - me.draft_sides.count(sides) if me else None
            return f"Ante a {name}" + (f" ({have} free)" if have is not None else "")
        if action.kind == "ante_remove":
            return f"Take back a {name}"
        return f"Roll the bone ({name})" if sides == BONE else f"Roll a {name}"
    if action.kind == "ante_fill":
        if me is None:
            return "Fill with my smallest dice"
        filled = _filled(me.hand_sides, me.draft_sides, me.ante_due)
        return f"Fill with my smallest: {dice_text(filled)}"[:80]
    if action.kind == "ante_confirm":
        if me is None:
            return "Seal my ante"
        return f"Seal my ante: {dice_text(me.draft_sides)}"[:80] if me.draft_sides else "Seal my ante (nothing)"
    if action.kind == "bone_toggle":
        seat = view.seats[me.seat] if me else None
        left = seat.changes_left if seat else CHANGES_PER_ROLL
        verb = "Withdraw my bone call" if me is not None and me.called else "Call the bone"
        return f"{verb} ({left} change{'s' if left != 1 else ''} left)"
    return "Ready"


def rules_summary(options: RollTheBonesOptions | None = None) -> str:
    """The rulebook round, the rulings and the options in force, for the rules command."""
    options = options or RollTheBonesOptions()
    dice_set = DICE_SETS.sets[options.dice_set]
    if options.side_pots == "layered":
        pots = ("**Side pots (layered)**: whenever antes differ, each contribution level is its "
                "own pot, open only to the players who paid into it. The overall winner takes "
                "every pot they paid into and all rolled dice; each other pot goes to its "
                "highest-rolling eligible player (a d12 roll-off among equals).")
    else:
        pots = ("**Side pots (simple)**: no side pots; when a player can't ante in full, "
                "everyone antes only what that player can.")
    return f"""**Roll the Bones**: collect every die. 2-6 players.

**Dice** ({dice_set.name}): each player starts with {dice_set.description}. Bone dice are ordinary members of a collection: they can be anted, lost and won.

**Each roll**
1. **Ante** (sealed): put in the ante; it is 2 dice with 2-3 starting players, 1 with 4-6, **+1 per elimination**. You always keep at least one die. Antes are revealed together.
2. **Bone call**: to roll a bone die you must call it. Toggle your call (at most 2 changes per roll) and press Ready; the calls close when everyone is Ready since the last change. A call is binding.
3. **Pick** (sealed): choose the die to roll. The bot rolls every die at once.
4. The highest roll takes the pot and every rolled die, their own included.

**Ties**: every die rolled goes to the centre; the tied players ante again and roll again with any die. If a tied player rolled their last die, all tied players keep their rolled dice and roll again without a new ante (untied dice still go to the centre). Untied players can't win the pots a tied player paid into; a side pot no tied player paid into is decided at once, by that roll, among those who paid into it.

{pots}

A player with no dice at the end of a round is eliminated. The last player left wins; after round **{options.max_rounds}** the most dice wins (ties shared).

**Timeouts**: ante = your smallest dice; bone call = stays as it is; pick = your largest ordinary die, or the bone die if called.

**Rulings in force**: RB-1 dice set *{options.dice_set}*; RB-2 bone-call phase; RB-3 you can't roll an uncalled bone die (holding only bone dice forces a call); RB-4 the winner keeps their own die; RB-5/RB-6 ties as above; RB-7 side pots *{options.side_pots}*; RB-8 ante by starting player count; RB-9 eliminations at the end of a round; RB-10 cap *{options.max_rounds}* rounds.
"""
