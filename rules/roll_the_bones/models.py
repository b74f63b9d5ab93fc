"""Roll the Bones: the dice sets, the options, the state and the actions.

Only shapes live here (and the few words that name dice, which every other module uses);
``moves`` says who may do what, ``flow`` moves a state through the phases and ``view`` shows it.
Dice are their number of sides (4, 6, 8, 10, 12); the bone die is the d12 of the dice set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.base import load_data
from rules.rng import Dice

MIN_SEATS, MAX_SEATS = 2, 6  # «in a 4-6 player game ... In a 2-3 player game»
ORDINARY_PER_PLAYER = 10  # «Give each player 10 dice and one 12-sided "bone" die»
CHANGES_PER_ROLL = 2  # RB-2: at most 2 bone-call changes per player per roll
#: RB-7: eligible players tied for a pot the overall winner can't take «roll off»: the server
#: rolls this die for each of them until one is highest. It belongs to nobody: no dice move.
ROLLOFF_SIDES = 12
#: dice a player may take back while building one ante: the ante is sealed only by its owner,
#: so without a cap adding and taking back the same die could hold the table for ever
TAKE_BACKS_PER_ANTE = 3
#: the rolls one round may take: every tie rolls again, so a round is otherwise unbounded
#: (RB-10 caps rounds). If the last of them ties too, a roll-off among the tied decides it.
ROLLS_PER_ROUND = 20


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


DICE_SETS: DiceSets = load_data("roll_the_bones.json", DiceSets)
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


def pot_name(index: int) -> str:
    """A pot by its place: the widest (everyone's) comes first."""
    return "Main pot" if index == 0 else f"Side pot {index}"


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
    #: per seat: dice taken back from the ante being built this cycle (TAKE_BACKS_PER_ANTE)
    take_backs: list[int] = Field(default_factory=list)
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
    """One decision. ``sides`` names the kind of die for ``ante_add``/``ante_remove``/``pick``;
    for ``bone_toggle`` it says which way the call turns: the bone die's sides to call it (the
    die the caller will roll), 0 to withdraw the call. So a player never presses a button
    without knowing which way it turns, and "call" and "withdraw" are two buttons on the table.

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


def make_action(kind: ActionKind, sides: int | None = None) -> RollTheBonesAction:
    """Actions are frozen and made once, so the lists legal_actions returns share them."""
    key = (kind, sides)
    made = _ACTIONS.get(key)
    if made is None:
        made = _ACTIONS[key] = RollTheBonesAction(kind=kind, sides=sides)
    return made


#: RB-2: the bone call, in the open: call the bone die, withdraw the call, or be Ready
CALL = make_action("bone_toggle", BONE)
WITHDRAW = make_action("bone_toggle", 0)
READY = make_action("ready")


def copy_state(state: RollTheBonesState) -> RollTheBonesState:
    """A copy ``apply`` may change freely. Records and pots are frozen and shared; every list is
    copied, in one ``model_copy``. Twice as fast as ``rules.base.copy_state`` on this state,
    which a simulation of many games feels (about a sixth of its time). The dice are shared
    too, until a roll takes its own copy (``flow``)."""
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
    })
