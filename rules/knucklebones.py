"""Knucklebones (rulebook v0.1) as Boneyard plays it: RULINGS.md section 4, KB-1 to KB-7.

A turn, as the rulebook has it: roll the active dice, do the runes that act before scoring,
score one item of the sheet, do the runes that act after scoring, pass the dice on. The state
always waits for a real decision: whatever the rules do by themselves (a 3 adding a die, a 2
with nothing to reroll, the 5s and 6s after scoring, rolling the next seat's dice) happens
inside ``apply``, and each of those steps leaves an event in plain words.

Dice are numbered 1-7 in event text (``die.id + 1``), seats 1-N ("Seat 2"), so a renderer can
replace "Seat N" with a name and show dice in the same positions.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.base import Chooser, Engine, Event, GameError, IllegalAction, Outcome
from rules.rng import Dice

DATA_PATH = Path(__file__).resolve().parent.parent / "data" / "knucklebones.json"

POOL_SIZE = 7  # «seven six-sided dice»
START_ACTIVE = 5  # «Begin the game with five active dice and two inactive dice»
FACES = 6
MAX_SEATS = 6  # KB-7
REROLL, ADD, DOUBLE, ADD_AFTER, REMOVE_AFTER = 2, 3, 4, 5, 6
PRE_SCORING = (REROLL, ADD, DOUBLE)
#: a safety net only: a turn resolves in at most ~14 rolls (KB-2: every 2 or 4 spends itself)
_STEP_GUARD = 200


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


def load_sheet(path: Path = DATA_PATH) -> ScoreSheet:
    return ScoreSheet.model_validate(json.loads(path.read_text(encoding="utf-8")))


SHEET: ScoreSheet = load_sheet()
ITEMS: dict[str, ScoreItem] = {item.key: item for item in SHEET.items}


# -- models ---------------------------------------------------------------------------------


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


def _action(kind: ActionKind, die: int | None = None, target: int | None = None,
            item: str | None = None) -> KnucklebonesAction:
    return _ACTIONS[(kind, die, target, item)]


class DieView(BaseModel):
    id: int
    number: int  # as the event text names it: id + 1
    face: int | None
    active: bool
    spent: bool
    doubled: int
    resolved: bool
    pending: bool


class PendingView(BaseModel):
    die: int
    face: int
    ask: Literal["reroll", "double"]
    prompt: str
    targets: list[int]


class ItemView(BaseModel):
    key: str
    name: str
    points: int | Literal["sum"]
    requirement: str


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
    items: list[ItemView]
    sheets: list[SheetView]
    #: for the seat to act: each of its open items -> points it would score with the dice now
    preview: dict[str, int]
    #: the open items whose requirement the dice meet now
    met: list[str]


# -- scoring --------------------------------------------------------------------------------

#: what scoring sees of a roll: (rune, times doubled) of every die that counts
Hand = tuple[tuple[int, int], ...]


def hand_of(dice: Iterable[Die]) -> Hand:
    """KB-1: only unspent active dice count."""
    return tuple((d.face, d.doubled) for d in dice if d.counts and d.face is not None)


def _rune_counts(hand: Hand) -> Counter[int]:
    counts: Counter[int] = Counter()
    for face, doubled in hand:
        counts[face] += 2**doubled  # KB-3: a doubled die is two dice of its rune
    return counts


def _item(item: ScoreItem | str) -> ScoreItem:
    return ITEMS[item] if isinstance(item, str) else item


def hand_meets(hand: Hand, item: ScoreItem | str) -> bool:
    item = _item(item)
    if item.distinct is not None:
        faces = [face for face, _ in hand]
        return (
            len(faces) >= item.distinct  # KB-6: a minimum, or one die would be "all different"
            and len(set(faces)) == len(faces)
            and all(doubled == 0 for _, doubled in hand)  # KB-1: «none doubled»
        )
    if item.groups:
        # KB-6: each group from a different rune; pairing the largest groups with the largest
        # counts is enough to know whether any assignment exists.
        counts = sorted(_rune_counts(hand).values(), reverse=True)
        return len(counts) >= len(item.groups) and all(c >= n for c, n in zip(counts, item.groups))
    return True


def hand_points(hand: Hand, item: ScoreItem | str) -> int:
    item = _item(item)
    if not hand_meets(hand, item):
        return 0
    if item.points == "sum":
        return sum(face * 2**doubled for face, doubled in hand)  # KB-3: counts twice for Wild
    return item.points


def meets(dice: Iterable[Die], item: ScoreItem | str) -> bool:
    return hand_meets(hand_of(dice), item)


def evaluate(dice: Iterable[Die], item: ScoreItem | str) -> int:
    """Points ``item`` would score with these dice (0 when its requirement is not met)."""
    return hand_points(hand_of(dice), item)


def best_item(dice: Iterable[Die], open_items: Iterable[str] | None = None) -> tuple[str, int]:
    """The open item scoring most now (the first on the sheet among equals)."""
    hand = hand_of(dice)
    keys = _in_sheet_order(open_items)
    if not keys:
        raise ValueError("no open item")
    return max(((key, hand_points(hand, key)) for key in keys), key=lambda kv: kv[1])


def timeout_item(dice: Iterable[Die], open_items: Iterable[str]) -> str:
    """RULINGS 4.3: the highest-value met item; else Wild; else the cheapest open item for 0.

    Wild-type ("sum") items are left out of the first step: they are always met, so the
    ruling's "Wild if none is met" only makes sense if the first step means the fixed items."""
    hand = hand_of(dice)
    items = [ITEMS[key] for key in _in_sheet_order(open_items)]
    if not items:
        raise ValueError("no open item")
    fixed = [i for i in items if isinstance(i.points, int)]
    met = [i for i in fixed if hand_meets(hand, i)]
    if met:
        return max(met, key=lambda i: i.points).key
    sums = [i for i in items if i.points == "sum"]
    if sums:
        return sums[0].key
    return min(fixed, key=lambda i: i.points).key


def _in_sheet_order(keys: Iterable[str] | None) -> list[str]:
    if keys is None:
        return list(ITEMS)
    wanted = set(keys)
    return [key for key in ITEMS if key in wanted]


# -- the turn, step by step (on a state the caller has already copied) ----------------------


def _copy(state: KnucklebonesState) -> KnucklebonesState:
    """A deep copy, so the caller's state is never touched; a dump and re-validation is three
    times faster than ``model_copy(deep=True)`` and checks the state on the way."""
    return KnucklebonesState.model_validate(state.model_dump())


def _who(state: KnucklebonesState) -> str:
    return f"Seat {state.current + 1}"


def _event(state: KnucklebonesState, kind: str, text: str) -> Event:
    return Event(kind=kind, seat=state.current, text=text)


def _active(state: KnucklebonesState) -> list[Die]:
    return [d for d in state.pool if d.active]


def _first_inactive(state: KnucklebonesState) -> Die | None:
    return next((d for d in state.pool if not d.active), None)


def _roll(state: KnucklebonesState, die: Die) -> int:
    """A newly rolled die brings its own pre-scoring rune with it (KB-2 HR)."""
    die.face = state.dice.roll(FACES)
    die.resolved = False
    return die.face


def _next_pending(state: KnucklebonesState) -> Die | None:
    """KB-2 HR: lowest rune first; among equal runes, the lower die position."""
    waiting = [d for d in state.pool if d.counts and not d.resolved and d.face in PRE_SCORING]
    return min(waiting, key=lambda d: (d.face, d.id), default=None)


def _targets(state: KnucklebonesState, die: Die) -> list[Die]:
    """Dice the pending 2 or 4 may act on: «another die», never a spent one."""
    others = [d for d in state.pool if d.counts and d.id != die.id]
    if die.face == DOUBLE and not state.options.stack_doubles:
        others = [d for d in others if d.doubled == 0]  # KB-3: each die doubled at most once
    return others


def _clear_turn_marks(state: KnucklebonesState) -> None:
    for die in state.pool:
        if die.spent or die.doubled or die.resolved:
            die.spent, die.doubled, die.resolved = False, 0, False


def _begin_turn(state: KnucklebonesState, events: list[Event]) -> None:
    _clear_turn_marks(state)
    for die in state.pool:
        if die.active:
            _roll(state, die)
        else:
            die.face = None
    faces = " ".join(str(d.face) for d in _active(state))
    events.append(_event(state, "roll", f"{_who(state)} rolled {faces}"))
    _resolve(state, events)


def _resolve(state: KnucklebonesState, events: list[Event]) -> None:
    """Do every pre-scoring step that needs nobody, until a 2 or 4 asks or scoring is due."""
    for _ in range(_STEP_GUARD):
        die = _next_pending(state)
        if die is None:
            state.phase, state.pending = "score", None
            return
        if die.face == ADD:
            _three_adds(state, die, events)
            continue
        if not _targets(state, die):
            die.resolved = True  # «If you are unable to perform an action, skip it.»
            what = "reroll" if die.face == REROLL else "double"
            events.append(_event(state, "skip", f"{_who(state)}'s {die.face} on die {die.id + 1} "
                                                f"has no other die to {what}"))
            continue
        state.phase = "reroll" if die.face == REROLL else "double"
        state.pending = die.id
        return
    raise RuntimeError("knucklebones: a turn did not settle")  # unreachable: KB-2


def _three_adds(state: KnucklebonesState, three: Die, events: list[Event]) -> None:
    three.resolved = True
    added = _first_inactive(state)
    if added is None:
        events.append(_event(state, "skip", f"{_who(state)}'s 3 on die {three.id + 1} "
                                            "found no inactive die to add"))
        return
    added.active = True  # KB-4: it stays until a 6 removes it
    face = _roll(state, added)
    events.append(_event(state, "add", f"{_who(state)}'s 3 on die {three.id + 1} added "
                                       f"die {added.id + 1}, which rolled {face}"))


def _reroll(state: KnucklebonesState, action: KnucklebonesAction, events: list[Event]) -> None:
    two, target = state.pool[action.die], state.pool[action.target]  # type: ignore[index]
    two.spent = two.resolved = True
    before = target.face
    after = _roll(state, target)
    events.append(_event(state, "reroll", f"{_who(state)} spent a 2 (die {two.id + 1}) to "
                                          f"reroll die {target.id + 1}: {before} -> {after}"))


def _double(state: KnucklebonesState, action: KnucklebonesAction, events: list[Event]) -> None:
    four, target = state.pool[action.die], state.pool[action.target]  # type: ignore[index]
    four.spent = four.resolved = True
    target.doubled += 1
    events.append(_event(state, "double", f"{_who(state)} spent a 4 (die {four.id + 1}) to "
                                          f"double die {target.id + 1} (a {target.face})"))


def _keep(state: KnucklebonesState, action: KnucklebonesAction, events: list[Event]) -> None:
    die = state.pool[action.die]  # type: ignore[index]
    die.resolved = True  # «Spending a die is always optional»: it stays and scores as itself
    events.append(_event(state, "keep", f"{_who(state)} kept the {die.face} on die {die.id + 1}"))


def _score(state: KnucklebonesState, key: str, events: list[Event]) -> None:
    item = ITEMS[key]
    points = evaluate(state.pool, item)
    state.sheets[state.current][key] = points
    if points or hand_meets(hand_of(state.pool), item):
        text = f"{_who(state)} scored {item.name} for {points}"
    else:
        text = f"{_who(state)} scored 0 for {item.name} (requirement not met)"
    events.append(_event(state, "score", text))


def _after_scoring(state: KnucklebonesState, events: list[Event]) -> None:
    """KB-2: every 5, then every 6; with 7 active, a 5 and a 6, that leaves 6 active."""
    for five in [d for d in state.pool if d.counts and d.face == ADD_AFTER]:
        added = _first_inactive(state)
        if added is None:
            events.append(_event(state, "skip", f"{_who(state)}'s 5 on die {five.id + 1} "
                                                "found no inactive die to add"))
            continue
        added.active, added.face = True, None  # rolled with the others next turn
        events.append(_event(state, "add", f"{_who(state)}'s 5 on die {five.id + 1} "
                                           f"added die {added.id + 1} to the active dice"))
    floor = state.options.min_active
    for six in [d for d in state.pool if d.counts and d.face == REMOVE_AFTER]:
        if len(_active(state)) <= floor:  # KB-5: at the floor a 6 is «unable» and skipped
            events.append(_event(state, "skip", f"{_who(state)}'s 6 on die {six.id + 1} stays: "
                                                f"{floor} active dice is the least allowed"))
            continue
        six.active, six.face = False, None
        events.append(_event(state, "remove", f"{_who(state)}'s 6 on die {six.id + 1} "
                                              "removed itself"))


def _pass_dice(state: KnucklebonesState, events: list[Event]) -> None:
    _clear_turn_marks(state)
    state.pending = None
    if None not in state.sheets[state.current].values() and all(
        None not in sheet.values() for sheet in state.sheets
    ):  # «once each player has scored all items on their score sheet»
        state.phase = "over"
        events.append(Event(kind="over", text="Every score sheet is full: the game is over."))
        return
    state.current = (state.current + 1) % state.seats
    state.turn += 1
    _begin_turn(state, events)


def start_turn(state: KnucklebonesState) -> tuple[KnucklebonesState, list[Event]]:
    """Begin the current seat's turn afresh: roll its active dice and settle to a decision.

    What every turn starts with; public so that tests and tools can stage a turn from forced
    dice (put them in ``state.dice.forced`` first). Not a player action."""
    new = _copy(state)
    events: list[Event] = []
    _begin_turn(new, events)
    return new, events


def turns_total(state: KnucklebonesState) -> int:
    return len(ITEMS) * state.seats


def totals(state: KnucklebonesState) -> list[int]:
    return [sum(v for v in sheet.values() if v is not None) for sheet in state.sheets]


# -- the bot player's policy ----------------------------------------------------------------

#: Appendix B: how often each item is met when aimed for (floor 5), and Wild's mean sum. An
#: item's "keep value" is what it is worth later; scoring it now costs that much.
AIM_RATE: dict[str, float] = {
    "two_pairs": 0.779, "three_kind": 0.846, "full_house": 0.482, "four_kind": 0.481,
    "all_different": 0.092, "five_kind": 0.105,
}
WILD_MEAN = 24.4


def keep_value(item: ScoreItem | str) -> float:
    item = _item(item)
    if item.points == "sum":
        return WILD_MEAN
    return AIM_RATE.get(item.key, 0.5) * item.points


def _utility(hand: Hand, open_items: Sequence[str]) -> float:
    """The gain over par of the best item to score with this hand."""
    return max(hand_points(hand, key) - keep_value(key) for key in open_items)


def _hand_without(state: KnucklebonesState, *ids: int) -> dict[int, tuple[int, int]]:
    return {d.id: (d.face, d.doubled) for d in state.pool
            if d.counts and d.face is not None and d.id not in ids}


def _policy_value(
    state: KnucklebonesState, action: KnucklebonesAction, open_items: list[str]
) -> float:
    """Expected utility after the action, looking no further than this step."""
    if action.kind == "score":
        return hand_points(hand_of(state.pool), action.item or "") - keep_value(action.item or "")
    if action.kind in ("skip_reroll", "skip_double"):
        return _utility(tuple(_hand_without(state).values()), open_items)
    assert action.die is not None and action.target is not None
    hand = _hand_without(state, action.die)
    face, doubled = hand[action.target]
    if action.kind == "double":
        hand[action.target] = (face, doubled + 1)
        return _utility(tuple(hand.values()), open_items)
    total = 0.0
    for new_face in range(1, FACES + 1):  # a reroll: the mean over the six faces
        hand[action.target] = (new_face, doubled)
        total += _utility(tuple(hand.values()), open_items)
    return total / FACES


# -- the engine -----------------------------------------------------------------------------


class KnucklebonesEngine(Engine[KnucklebonesState, KnucklebonesAction, KnucklebonesOptions]):
    key: ClassVar[str] = "knucklebones"
    title: ClassVar[str] = "Knucklebones"
    #: 1 only with the solo option (KB-7), which new_game checks
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = MAX_SEATS
    State = KnucklebonesState
    Action = KnucklebonesAction
    Options = KnucklebonesOptions

    def new_game(self, seats: int, options: KnucklebonesOptions, seed: int) -> KnucklebonesState:
        options = KnucklebonesOptions.model_validate(options).model_copy()
        if not 1 <= seats <= MAX_SEATS:
            raise GameError(f"Knucklebones is for 2 to {MAX_SEATS} players.")
        if seats == 1 and not options.solo:
            raise GameError("Knucklebones needs at least 2 players (or the solo option).")
        dice = Dice(seed=seed)
        start = dice.below(seats)  # KB-7: the start player is random
        state = KnucklebonesState(
            seats=seats,
            options=options,
            pool=[Die(id=i, active=i < START_ACTIVE) for i in range(POOL_SIZE)],
            sheets=[{key: None for key in ITEMS} for _ in range(seats)],
            start_seat=start,
            current=start,
            phase="score",
            dice=dice,
        )
        _begin_turn(state, [])
        return state

    def move_cap(self, seats: int, options: KnucklebonesOptions) -> int:
        """Every seat plays one turn per sheet item (RULINGS 4.5). Each decision of a turn
        answers one roll of a 2 or a 4, and a turn rolls each of the seven dice once (the start
        and the 3s) plus once per reroll; every reroll spends a 2, which the last die standing
        cannot, so at most six. Thirteen rolls, then the item scored. Nothing is open to several
        seats, and no move leaves a decision unfinished, so nothing else needs a cap."""
        rolls = POOL_SIZE + (POOL_SIZE - 1)
        return len(ITEMS) * seats * (rolls + 1)

    def seat_range(self, options: KnucklebonesOptions) -> tuple[int, int]:
        return (1 if options.solo else 2), MAX_SEATS

    def to_act(self, state: KnucklebonesState) -> list[int]:
        return [] if state.phase == "over" else [state.current]

    def legal_actions(self, state: KnucklebonesState, seat: int) -> list[KnucklebonesAction]:
        """Keeping the die always comes first, then targets by die position; items in sheet
        order."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "score":
            sheet = state.sheets[seat]
            return [_action("score", item=key) for key in ITEMS if sheet[key] is None]
        assert state.pending is not None
        die = state.pool[state.pending]
        keep: ActionKind
        spend: ActionKind
        if state.phase == "reroll":
            keep, spend = "skip_reroll", "reroll"
        else:
            keep, spend = "skip_double", "double"
        return [_action(keep, die.id)] + [
            _action(spend, die.id, target.id) for target in _targets(state, die)
        ]

    def apply(
        self, state: KnucklebonesState, seat: int, action: KnucklebonesAction
    ) -> tuple[KnucklebonesState, list[Event]]:
        self.check(state, seat, action)
        new = _copy(state)
        events: list[Event] = []
        if action.kind == "score":
            assert action.item is not None
            _score(new, action.item, events)
            _after_scoring(new, events)
            _pass_dice(new, events)
            return new, events
        if action.kind == "reroll":
            _reroll(new, action, events)
        elif action.kind == "double":
            _double(new, action, events)
        else:
            _keep(new, action, events)
        _resolve(new, events)
        return new, events

    def view(self, state: KnucklebonesState, seat: int | None) -> KnucklebonesView:
        """Everything is public, so every seat sees the same."""
        over = state.phase == "over"
        pending = None
        if state.pending is not None and not over:
            die = state.pool[state.pending]
            ask: Literal["reroll", "double"] = "reroll" if state.phase == "reroll" else "double"
            verb = "reroll another die" if ask == "reroll" else "double another die for scoring"
            pending = PendingView(
                die=die.id, face=die.face or 0, ask=ask,
                prompt=f"Die {die.id + 1} shows a {die.face}: spend it to {verb}, or keep it.",
                targets=[t.id for t in _targets(state, die)],
            )
        hand = hand_of(state.pool)
        sheet = state.sheets[state.current]
        open_items = [] if over else [key for key, points in sheet.items() if points is None]
        return KnucklebonesView(
            phase=state.phase,
            over=over,
            current_seat=None if over else state.current,
            start_seat=state.start_seat,
            seats=state.seats,
            turn=state.turn,
            turns_total=turns_total(state),
            options=state.options,
            active_count=len(_active(state)),
            dice=[
                DieView(id=d.id, number=d.id + 1, face=d.face, active=d.active, spent=d.spent,
                        doubled=d.doubled, resolved=d.resolved, pending=d.id == state.pending)
                for d in state.pool
            ],
            pending=pending,
            items=[ItemView(key=i.key, name=i.name, points=i.points, requirement=i.requirement)
                   for i in SHEET.items],
            sheets=[
                SheetView(seat=s, items=dict(sheet), total=total,
                          filled=sum(v is not None for v in sheet.values()))
                for s, (sheet, total) in enumerate(zip(state.sheets, totals(state)))
            ],
            preview={k: hand_points(hand, k) for k in open_items},
            met=[k for k in open_items if hand_meets(hand, k)],
        )

    def is_over(self, state: KnucklebonesState) -> bool:
        return state.phase == "over"

    def outcomes(self, state: KnucklebonesState) -> list[Outcome]:
        """Highest total wins; equal totals share a place (KB-7), ranked 1, 1, 3."""
        scores = totals(state)
        return [Outcome(seat=s, rank=1 + sum(o > t for o in scores), score=t)
                for s, t in enumerate(scores)]

    def on_timeout(
        self, state: KnucklebonesState, seat: int
    ) -> tuple[KnucklebonesState, list[Event]]:
        """RULINGS 4.3 for the rest of the seat's turn: keep every die, then timeout_item."""
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        text = f"Seat {seat + 1} ran out of time: no dice are spent and the default item is scored."
        events = [Event(kind="timeout", seat=seat, text=text)]
        turn = state.turn
        while state.turn == turn and not self.is_over(state):
            state, more = self.apply(state, seat, self.timeout_action(state, seat))
            events += more
        return state, events

    def timeout_action(self, state: KnucklebonesState, seat: int) -> KnucklebonesAction:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("It is not your turn.")
        if state.phase != "score":
            return legal[0]  # keep: «no spends»
        open_items = [a.item for a in legal if a.item is not None]
        return _action("score", item=timeout_item(state.pool, open_items))

    def ai_action(self, state: KnucklebonesState, seat: int, choose: Chooser) -> KnucklebonesAction:
        """Greedy one step ahead: the move whose expected best score, less what that item is
        worth later (so Wild is kept for a poor roll), is highest. Deterministic; keeps on ties."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("It is not your turn.")
        open_items = [k for k, v in state.sheets[seat].items() if v is None]
        best, best_value = legal[0], _policy_value(state, legal[0], open_items)
        for action in legal[1:]:
            value = _policy_value(state, action, open_items)
            if value > best_value + 1e-9:
                best, best_value = action, value
        return best


ENGINE = KnucklebonesEngine()


# -- words for players ----------------------------------------------------------------------


def action_label(view: KnucklebonesView, action: KnucklebonesAction) -> str:
    """A short button label (under 80 characters) for one legal action."""
    dice = {d.id: d for d in view.dice}
    if action.kind in ("skip_reroll", "skip_double"):
        return f"Keep the {dice[action.die].face if action.die is not None else '?'}"
    if action.kind in ("reroll", "double"):
        target = dice[action.target] if action.target is not None else None
        verb = "Reroll" if action.kind == "reroll" else "Double"
        return f"{verb} die {target.number if target else '?'} ({target.face if target else '?'})"
    item = ITEMS[action.item or ""]
    points = view.preview.get(item.key, 0)
    return f"{item.name}: {points}" + ("" if item.key in view.met else " (not met)")


def _points_text(item: ScoreItem) -> str:
    return "sum of runes" if item.points == "sum" else str(item.points)


def rules_summary(options: KnucklebonesOptions | None = None) -> str:
    """The rulebook turn, the score sheet and the rulings in force, for the rules command."""
    options = options or KnucklebonesOptions()
    sheet = "\n".join(f"- **{i.name}** ({_points_text(i)}): {i.requirement}" for i in SHEET.items)
    stacking = ("a die may be doubled again (each double doubles what it counts)"
                if options.stack_doubles else "each die at most once")
    players = "1-6 players (solo allowed)" if options.solo else "2-6 players"
    return f"""**Knucklebones** (rules v0.1): seven rune dice, five active and two inactive at the start.

**Your turn**
1. Roll all active dice.
2. Runes before scoring, lowest rune first:
 - **2**: you may spend it to reroll another die.
 - **3**: adds and rolls an inactive die, if there is one.
 - **4**: you may spend it to double another die for scoring.
3. Score one open item of your sheet (0 if its requirement isn't met; you must choose one).
4. After scoring: every **5** adds an inactive die (rolled next turn), then every **6** removes itself.
5. The active dice pass to the next player.
A spent die is out for the rest of your turn: it can't be spent again, targeted or scored.

**Score sheet** ({len(SHEET.items)} items, so {len(SHEET.items)} turns each)
{sheet}

**House rulings**
- Only unspent dice count; a doubled die counts as two of its rune, for Wild too.
- Runes act from 1 to 6; a rerolled or added die brings its own rune, lowest first. After scoring, 5s act before 6s.
- Doubling: {stacking}.
- Added dice stay active until a 6 removes them; spent dice are still passed on.
- There are always at least **{options.min_active}** active dice; a 6 at that floor stays.
- All Different needs at least 5 dice, none doubled; Two Pairs and Full House need different runes.
- {players}; a random player starts; the highest total wins, and ties share the win.
- Timeout: no dice are spent, then the highest-value item met is scored (else Wild, else the cheapest open item for 0).
"""
