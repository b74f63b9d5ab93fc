"""Stones & Bones: the options, the state, the actions and the view, as pydantic models.

The flow of play lives in ``flow`` and ``engine``; these are only the shapes it works on, kept
apart so that the module of rules stays readable. Money is always an integer of copper.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rules.rng import Dice
from rules.stones_and_bones.reading import GP, BonesReading, IllOmensRule

MIN_SEATS, MAX_SEATS = 2, 6  # SB-4: «Players: 2–6 (2 = Cutthroat)»
MAX_PURSE = 10**9  # copper (a million pp): a sanity bound for a GM's typing, not a rule
DEFAULT_PURSE = 50 * GP  # SB-4
DEFAULT_BUY_INS = (10 * GP, 25 * GP, 50 * GP)


class StonesAndBonesOptions(BaseModel):
    """Every OPT of RULINGS section 5 with the rulings' default, and the purses a GM brings."""

    #: SB-4: each seat's purse at the start, in copper (50 gp)
    starting_purse: int = Field(default=DEFAULT_PURSE, ge=1, le=MAX_PURSE)
    #: a purse per seat, in copper, in seat order (the characters' campaign coin); None: all
    #: seats bring ``starting_purse``
    purses: list[int] | None = Field(default=None, min_length=MIN_SEATS, max_length=MAX_SEATS)
    #: SB-2: the active player antes every turn, or everyone antes at the start of each wave
    ante: Literal["per_turn", "per_wave_all"] = "per_turn"
    #: SB-5: two matching groups in a tier multiply it by each size (product) or the largest
    ill_omens: IllOmensRule = "product"
    #: SB-11: a player may fold after the ante (declining the bet; no Stone)
    fold: bool = False
    #: SB-12: Mutiny may be declared when the sitting Captain claims again, or on any claim
    mutiny_trigger: Literal["plunder", "any_claim"] = "plunder"
    #: SB-14: a Sunk Stone lies on the table for the next roller (window: until its owner picks
    #: it up), always lies there, or Pilfer is off
    pilfer: Literal["window", "off", "always"] = "window"
    #: SB-15: after a claim another player may pay 1 gp × Tide to force a reroll
    grumbles: bool = False
    #: what a player may buy in for at a Tide rise, in copper (one choice per Tide rise)
    buy_ins: list[int] = Field(default_factory=lambda: list(DEFAULT_BUY_INS), min_length=1,
                               max_length=5)

    @field_validator("purses")
    @classmethod
    def _purses_in_range(cls, value: list[int] | None) -> list[int] | None:
        if value is not None and any(not 0 <= p <= MAX_PURSE for p in value):
            raise ValueError(f"each purse must be 0 to {MAX_PURSE} cp")
        return value

    @field_validator("buy_ins")
    @classmethod
    def _buy_ins_in_range(cls, value: list[int]) -> list[int]:
        if any(not 1 <= b <= MAX_PURSE for b in value):
            raise ValueError(f"each buy-in must be 1 to {MAX_PURSE} cp")
        return sorted(set(value))


Status = Literal["afloat", "eliminated", "ashore"]


class Pirate(BaseModel):
    """One seat's money and standing. ``ashore``: cashed out (Heave Down, Swallow the Anchor)."""

    purse: int = Field(ge=0)
    bought_in: int = Field(ge=0)
    cashed_out: int = Field(default=0, ge=0)
    status: Status = "afloat"
    #: the Tide in which this player last Flew the Black (0: never); SB-9: once per Tide
    flew_tide: int = 0
    #: per_wave_all ante: could not ante at this wave's start, so Walks the Plank on their turn
    owes_ante: bool = False

    @property
    def net(self) -> int:
        """SB-16: final purse + cash-outs − buy-ins."""
        return self.purse + self.cashed_out - self.bought_in


TurnResult = Literal["pending", "float", "luck", "crossbones", "plank", "sink", "fold", "drowned"]
ClaimKind = Literal["float", "luck", "crossbones", "plank"]


class TurnRecord(BaseModel):
    """One player's turn as it happened: what a table shows and a test checks."""

    seat: int
    number: int
    wave: int
    tide: int
    captain: bool
    cursed: bool
    ante: int = 0
    bones: list[int] | None = None
    #: Fly the Black: the Bones thrown again (SB-9: this bet replaces the first)
    flown: list[int] | None = None
    #: Walk the Plank: the Bones thrown again for Crossbones
    plank: list[int] | None = None
    #: what went into the coffer after the ante: the bet, or everything on the Plank
    paid: int = 0
    #: the roller's own Stones (two with a Blessing)
    stones: list[int] = Field(default_factory=list)
    pilfered: int | None = None
    result: TurnResult = "pending"
    crossbones: str | None = None
    #: a Grumbles reroll happened on this turn's claim
    grumbled: bool = False


class TableStone(BaseModel):
    """SB-14: a Sunk Stone left lying for the next roller to Pilfer."""

    owner: int
    value: int
    #: the owner has had their say (left it) or cannot pick it up (pilfer "always")
    settled: bool = False


class Claim(BaseModel):
    """A claim of the coffer on its way: grumbled over, mutinied against, then paid."""

    seat: int
    kind: ClaimKind
    crossbones: str | None = None
    #: SB-12: the sitting Captain claimed again
    plunder: bool = False
    grumbler: int | None = None


Vote = Literal["yay", "nay"]


class Mutiny(BaseModel):
    captain: int
    mutineer: int | None = None
    cutthroat: bool = False
    #: Cutthroat's coin: heads (a Challenge) or tails
    coin: Literal["heads", "tails"] | None = None
    votes: list[Vote | None]
    #: per seat: gifts given in this Mutiny's parley (empty until the first gift). Capped, so
    #: that two players passing a coin back and forth cannot hold the table in the parley.
    gifts: list[int] = Field(default_factory=list)
    revealed: bool = False
    #: per seat: the d4 rolled for the cost of Mutiny (and added to a side), and what was paid
    d4: list[int | None]
    paid: list[int]
    captain_roll: list[int] = Field(default_factory=list)
    mutineer_roll: list[int] = Field(default_factory=list)
    captain_total: int | None = None
    mutineer_total: int | None = None
    winner: int | None = None


Phase = Literal["turn", "grumble", "object", "mutiny_call", "parley", "vote", "split", "anchor",
                "tide", "over"]
EndReason = Literal["tides", "afloat", "vote", "cap"]

ActionKind = Literal[
    # the turn (the roller), and the owner of a Stone on the table
    "pay", "pilfer", "fly", "fold", "plank", "pick_up", "leave_stone",
    # Grumbles
    "grumble", "let_stand", "object", "allow",
    # Mutiny
    "mutiny", "pass", "ready", "give", "yay", "nay",
    # the winner's split of the coffer
    "keep", "share_all", "share_side", "refund", "give_half",
    # Swallow the Anchor
    "anchor", "stay_aboard",
    # the Tide rise
    "stay", "heave", "buy", "end",
]


class StonesAndBonesAction(BaseModel):
    """One decision. ``target`` is a seat (give, give_half), ``amount`` copper (give, buy)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: ActionKind
    target: int | None = None
    amount: int | None = None


class StonesAndBonesState(BaseModel):
    seats: int = Field(ge=MIN_SEATS, le=MAX_SEATS)
    options: StonesAndBonesOptions
    pirates: list[Pirate]
    phase: Phase
    wave: int = Field(default=1, ge=1, le=4)
    tide: int = Field(default=1, ge=1, le=6)
    waves_played: int = 0
    #: turns begun in the whole game (the hard cap counts these)
    turns: int = 0
    captain: int
    current: int
    cursed: int | None = None
    coffer: int = Field(default=0, ge=0)
    #: SB-15: Grumbles payments waiting for the next coffer, per seat
    carry: list[int]
    turn: TurnRecord | None = None
    last_turn: TurnRecord | None = None
    table_stone: TableStone | None = None
    claim: Claim | None = None
    mutiny: Mutiny | None = None
    #: per seat, in the simultaneous phases: has had their say
    decided: list[bool]
    #: the sealed Tide-rise choices (shown once all are in)
    tide_choices: list[StonesAndBonesAction | None]
    ended_by: EndReason | None = None
    dice: Dice


# -- the view ---------------------------------------------------------------------------------


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
    """SB-16: net = cashed out + still at the table − bought in. At the end, whatever is still
    in a purse counts as cashed out."""

    seat: int
    status: Status
    bought_in: int
    cashed_out: int
    at_table: int
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
