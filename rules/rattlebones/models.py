"""The options, state, actions and views of Rattlebones.

The state names every open decision in ``phase`` and ``step`` (which die is being used, where
its monkey landed, which slot an arrow is going into), so a player's answer is an ordinary
action and a restart mid-turn loses nothing.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.rattlebones.board import DATA, check_spaces
from rules.rattlebones.dice import is_valid_face
from rules.rng import Dice

MIN_SEATS, MAX_SEATS = 2, 4
MONKEYS = 3
DICE_PER_PLAYER = 3
#: RULINGS 3.5: a safety net; a game that reaches it ends on the scores as they stand
MAX_TURNS = 2000

BoardKey = Literal["standard14", "compact8", "custom"]


class RattlebonesOptions(BaseModel):
    """Every OPT of RULINGS section 3, with its default."""

    model_config = ConfigDict(extra="forbid")
    #: RT-1: the board layout
    board: BoardKey = "standard14"
    #: RT-1 OPT custom: the loop, START first; "tile" marks a blank filled with a random tile
    custom_spaces: tuple[str, ...] | None = None
    #: RT-2: the train track's values, in order round the loop
    train_values: tuple[int, ...] = Field(default=DATA.train_values, min_length=2, max_length=12)
    #: RT-4: how the 15 point sides split over values 1-5: 3 each, or 5/4/3/2/1
    point_sides: Literal["even", "tapered"] = "even"
    #: RT-8: more than 4 stars sell for 4n-1 ("linear"), or in batches of at most 4 ("batches")
    store: Literal["linear", "batches"] = "linear"

    @field_validator("train_values")
    @classmethod
    def _train_values(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(not 0 <= v <= 20 for v in value):
            raise ValueError("a train space is worth 0 to 20 points")
        return value

    @model_validator(mode="after")
    def _custom_board(self) -> RattlebonesOptions:
        if self.board == "custom":
            if self.custom_spaces is None:
                raise ValueError("a custom board needs its spaces")
            check_spaces(self.custom_spaces)
        elif self.custom_spaces is not None:
            raise ValueError("spaces are given only for a custom board")
        return self

    def layout(self) -> tuple[str, ...]:
        if self.board == "custom":
            assert self.custom_spaces is not None
            return self.custom_spaces
        return DATA.boards[self.board].spaces


class Player(BaseModel):
    #: the space each of the three monkeys stands on
    monkeys: list[int] = Field(min_length=MONKEYS, max_length=MONKEYS)
    #: the mouse on the score track (RT-3: a plain integer)
    score: int = Field(default=0, ge=0)
    gold: int = Field(default=0, ge=0)
    stars: int = Field(default=0, ge=0)
    stock: int = Field(default=0, ge=0)
    #: three dice of six faces each, slot 0 the Rattlebones icon
    dice: list[list[str]] = Field(min_length=DICE_PER_PLAYER, max_length=DICE_PER_PLAYER)

    @field_validator("dice")
    @classmethod
    def _six_faces(cls, value: list[list[str]]) -> list[list[str]]:
        for faces in value:
            if len(faces) != 6 or not all(is_valid_face(f, s) for s, f in enumerate(faces)):
                raise ValueError(f"not a die: {faces}")
        return value


RollState = Literal["pending", "done", "dropped"]
Gain = Literal["gold", "star", "points"]


class Roll(BaseModel):
    """One die thrown this turn. A die thrown again by Roll Again gets a second entry."""

    die: int = Field(ge=0, lt=DICE_PER_PLAYER)
    slot: int = Field(ge=0, lt=6)
    face: str
    #: what it does once arrows are followed (RT-7); None when they go round in a circle
    acts_as: str | None
    state: RollState = "pending"
    #: what it gave that an x2 can give again (RT-6), once it is used
    gain: Gain | None = None
    amount: int = 0
    #: an x2 has given this die's gain again (at most once, «does not double both»)
    doubled: bool = False


class Step(BaseModel):
    """Where the use of one die stands while it waits for a player."""

    die: int
    acts_as: str
    #: spaces to move; None for a 9-Pip until the distance is chosen
    steps: int | None = None
    monkey: int | None = None
    space: int | None = None
    #: the slot an Arrow side is going into, while its direction is chosen
    slot: int | None = None
    #: Thief: the seats still to be robbed, in turn order
    victims: list[int] = Field(default_factory=list)


Phase = Literal[
    "roll", "order", "monkey", "distance", "replace", "aim", "store", "add_die", "thief", "x2",
    "over",
]
EndReason = Literal["rattlebones", "cap"]


class RattlebonesState(BaseModel):
    seats: int = Field(ge=MIN_SEATS, le=MAX_SEATS)
    options: RattlebonesOptions
    #: the loop as played: every blank replaced by its tile
    board: list[str]
    #: which spaces hold a tile (drawn from the box) rather than a printed space
    tiles: list[int]
    players: list[Player]
    start_seat: int
    current: int
    #: 1-based number of the turn in progress, over all seats
    turn: int = 1
    phase: Phase = "roll"
    rattlebones: int
    train: int = 0
    #: action sides not on any die, by supply key ("gold", "points:3", "arrow", ...)
    supply: dict[str, int]
    #: pip sides still on dice (they only ever leave the game)
    pips_in_play: int
    gold: int
    stars: int
    stock: int
    rolls: list[Roll] = Field(default_factory=list)
    step: Step | None = None
    gold_spent: int = 0
    #: decisions taken this turn, counted against the per-turn cap the host's guard relies on
    turn_moves: int = 0
    end_reason: EndReason | None = None
    dice: Dice


ActionKind = Literal[
    "roll", "use", "monkey", "distance", "keep", "replace", "upgrade", "aim", "sell", "add_die",
    "steal", "double", "no_double",
]
Take = Literal["gold", "star", "stock"]


class RattlebonesAction(BaseModel):
    """One decision.

    - ``roll`` ``dice``: the dice to throw (two cost 1 gold, three cost 2).
    - ``use`` ``die``: which thrown die to use next.
    - ``monkey`` ``monkey``: which monkey moves; ``distance`` ``n``: how far a 9-Pip moves it.
    - ``keep``: leave the die as it is; ``replace`` ``slot``: put the space's side there;
      ``upgrade`` ``slot``: +1 on the point side there; ``aim`` ``slot``: where an Arrow points.
    - ``sell`` ``n``: stars sold at the Store (0 keeps them).
    - ``add_die`` ``die``: the unrolled die Roll Again throws along.
    - ``steal`` ``victim`` ``take``: what a Thief takes from one player.
    - ``double`` ``die`` ``target``: the x2 on ``die`` gives ``target``'s gain again;
      ``no_double`` ``die``: it gives nothing.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: ActionKind
    dice: tuple[int, ...] | None = None
    die: int | None = None
    target: int | None = None
    monkey: int | None = None
    n: int | None = None
    slot: int | None = None
    victim: int | None = None
    take: Take | None = None


@functools.lru_cache(maxsize=4096)
def action_of(kind: ActionKind, **fields: Any) -> RattlebonesAction:
    """Actions are frozen, so the lists legal_actions returns share one of each (and a caller
    passing one back compares by identity first)."""
    return RattlebonesAction(kind=kind, **fields)


# -- views ----------------------------------------------------------------------------------


class SpaceView(BaseModel):
    index: int
    kind: str
    name: str
    short: str
    #: a tile drawn at setup rather than a printed space
    tile: bool


class PlayerView(BaseModel):
    seat: int
    score: int
    gold: int
    stars: int
    stock: int
    monkeys: list[int]
    dice: list[list[str]]
    #: 1 = leading (ties share a place)
    place: int
    #: points still to score before this mouse meets Rattlebones (0: it has)
    to_go: int


class RollView(BaseModel):
    die: int
    slot: int
    face: str
    acts_as: str | None
    state: RollState
    gain: Gain | None
    amount: int
    doubled: bool


class DecisionView(BaseModel):
    """The open decision, for the prompt and for the dice picture's highlight."""

    phase: Phase
    seat: int
    prompt: str = ""
    die: int | None = None
    #: the side on offer (landing), as a face string ("gold", "points:1", "arrow")
    side: str | None = None
    space: int | None = None
    slot: int | None = None
    victim: int | None = None
    #: the monkey moving (a 9-Pip's distance is chosen after it) and how far (None: 9-Pip)
    monkey: int | None = None
    steps: int | None = None


class RattlebonesView(BaseModel):
    seats: int
    options: RattlebonesOptions
    board_key: BoardKey
    spaces: list[SpaceView]
    players: list[PlayerView]
    start_seat: int
    current_seat: int | None
    turn: int
    max_turns: int
    phase: Phase
    over: bool
    end_reason: EndReason | None
    rattlebones: int
    rattlebones_start: int
    score_track: int
    train: int
    train_values: list[int]
    #: action sides left, only for the kinds in play
    supply: dict[str, int]
    gold_supply: int
    star_supply: int
    stock_supply: int
    rolls: list[RollView]
    decision: DecisionView | None
    #: seats that would win if the game ended now (the winners once it is over)
    leaders: list[int]
