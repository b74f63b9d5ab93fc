"""Knucklebones' score sheet (as data), options, state, actions and views.

Dice are numbered 0-6 in the state and in events' figures (``die.id``); words show them as
1-7. The state always waits for a real decision: ``phase`` names it and ``pending`` is the die
whose 2 or 4 asks, so a restart mid-turn loses nothing.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.base import load_data
from rules.rng import Dice

POOL_SIZE = 7  # «seven six-sided dice»
START_ACTIVE = 5  # «Begin the game with five active dice and two inactive dice»
FACES = 6
MAX_SEATS = 6  # KB-7
REROLL, ADD, DOUBLE, ADD_AFTER, REMOVE_AFTER = 2, 3, 4, 5, 6
PRE_SCORING = (REROLL, ADD, DOUBLE)


# -- the score sheet, as data ---------------------------------------------------------------


class ScoreItem(BaseModel):
    """One line of the sheet. A requirement is ``groups`` (that many dice of *different* runes,
    largest first: [3, 2] is a full house), or ``distinct`` (at least that many dice, all runes
    different, none doubled), or neither (always met, like Wild)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)
    name: str = Field(min_length=1, max_length=40)
    points: int | Literal["sum"]
    requirement: str = Field(min_length=1, max_length=200)
    groups: tuple[int, ...] = ()
    distinct: int | None = Field(default=None, ge=1, le=POOL_SIZE)

    @field_validator("points")
    @classmethod
    def _points_not_negative(cls, value: int | str) -> int | str:
        if isinstance(value, int) and value < 0:
            raise ValueError("points must be 0 or more")
        return value

    @field_validator("groups")
    @classmethod
    def _groups_positive(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(n < 1 for n in value):
            raise ValueError("every group needs at least one die")
        return tuple(sorted(value, reverse=True))

    @model_validator(mode="after")
    def _one_kind_of_requirement(self) -> ScoreItem:
        if self.groups and self.distinct is not None:
            raise ValueError(f"{self.key}: give groups or distinct, not both")
        return self


class ScoreSheet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    source: str = ""
    items: tuple[ScoreItem, ...] = Field(min_length=1, max_length=25)  # 25: one select menu

    @model_validator(mode="after")
    def _unique_keys(self) -> ScoreSheet:
        keys = [item.key for item in self.items]
        if len(set(keys)) != len(keys):
            raise ValueError("score sheet keys must be unique")
        return self


SHEET: ScoreSheet = load_data("knucklebones.json", ScoreSheet)
ITEMS: dict[str, ScoreItem] = {item.key: item for item in SHEET.items}


# -- options, state, actions ----------------------------------------------------------------


class KnucklebonesOptions(BaseModel):
    #: KB-5: a 6 may not take the active pool below this
    min_active: int = Field(default=5, ge=1, le=START_ACTIVE)
    #: KB-3 OPT: a die may be doubled again (each double multiplies what it counts by 2)
    stack_doubles: bool = False
    #: KB-7 OPT: a table of one
    solo: bool = False


class Die(BaseModel):
    id: int = Field(ge=0, lt=POOL_SIZE)
    #: None while inactive, and for a die a 5 has just added (it is rolled next turn)
    face: int | None = Field(default=None, ge=1, le=FACES)
    active: bool = False
    #: «pretend that die doesn't exist for the rest of your turn»
    spent: bool = False
    #: times a 4 doubled it this turn; it counts as 2**doubled dice of its rune
    doubled: int = Field(default=0, ge=0)
    #: its pre-scoring rune has been dealt with since it was last rolled
    resolved: bool = False

    @property
    def counts(self) -> bool:
        """Whether the die takes part now: active, rolled and not spent."""
        return self.active and not self.spent and self.face is not None


Phase = Literal["reroll", "double", "score", "over"]


class KnucklebonesState(BaseModel):
    seats: int = Field(ge=1, le=MAX_SEATS)
    options: KnucklebonesOptions
    pool: list[Die]
    #: per seat: item key -> points scored, None while the item is open
    sheets: list[dict[str, int | None]]
    start_seat: int
    current: int
    #: 1-based number of the turn in progress (the game has len(items) x seats turns)
    turn: int = 1
    phase: Phase
    #: the die whose 2 or 4 waits for a decision (phases "reroll" and "double")
    pending: int | None = None
    dice: Dice


ActionKind = Literal["reroll", "skip_reroll", "double", "skip_double", "score"]


class KnucklebonesAction(BaseModel):
    """One decision. ``die`` is the pending 2 or 4, ``target`` the die it acts on, ``item`` the
    sheet key to score."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: ActionKind
    die: int | None = None
    target: int | None = None
    item: str | None = None


def _all_actions() -> dict[tuple[str, int | None, int | None, str | None], KnucklebonesAction]:
    """Every action there can be, made once: they are frozen, so the lists legal_actions
    returns share them, and a caller passing one back is found by identity at once."""
    made = [KnucklebonesAction(kind="score", item=key) for key in ITEMS]
    for die in range(POOL_SIZE):
        made += [KnucklebonesAction(kind="skip_reroll", die=die),
                 KnucklebonesAction(kind="skip_double", die=die)]
        for target in range(POOL_SIZE):
            if target != die:
                made += [KnucklebonesAction(kind="reroll", die=die, target=target),
                         KnucklebonesAction(kind="double", die=die, target=target)]
    return {(a.kind, a.die, a.target, a.item): a for a in made}


_ACTIONS = _all_actions()


def action_of(kind: ActionKind, die: int | None = None, target: int | None = None,
           item: str | None = None) -> KnucklebonesAction:
    """The one shared instance of an action."""
    return _ACTIONS[(kind, die, target, item)]


# -- views ----------------------------------------------------------------------------------


class DieView(BaseModel):
    model_config = ConfigDict(frozen=True)  # one per look a die can have, shared by every view
    id: int
    number: int  # as words name it: id + 1
    face: int | None
    active: bool
    spent: bool
    doubled: int
    #: how many dice of its rune it counts as for scoring (KB-3: 2 per double)
    counts_as: int
    resolved: bool
    pending: bool


Ask = Literal["reroll", "double"]


class PendingView(BaseModel):
    die: int
    face: int
    ask: Ask
    prompt: str
    targets: list[int]


class ItemView(BaseModel):
    model_config = ConfigDict(frozen=True)  # one per sheet line, shared by every view
    key: str
    name: str
    points: int | Literal["sum"]
    requirement: str
    #: the requirement in a few words, for a line of a sheet ("3 of one rune + 2 of another")
    needs: str


class SheetView(BaseModel):
    seat: int
    items: dict[str, int | None]
    total: int
    filled: int


class KnucklebonesView(BaseModel):
    phase: Phase
    over: bool
    current_seat: int | None
    start_seat: int
    seats: int
    turn: int
    turns_total: int
    options: KnucklebonesOptions
    active_count: int
    dice: list[DieView]
    pending: PendingView | None
    #: the dice whose runes still act before scoring this turn, in the order they will, the
    #: pending die aside
    waiting: list[int]
    items: list[ItemView]
    sheets: list[SheetView]
    #: for the seat to act: each of its open items -> points it would score with the dice now
    preview: dict[str, int]
    #: the open items whose requirement the dice meet now
    met: list[str]
