"""The components of Bare Bones as data: the dice table, the card table and every physical card.

``data/bare_bones/dice.json`` and ``data/bare_bones/cards.json`` are validated here once at
import, so a typo in a cost or a face fails at start rather than in the middle of a game. The
217 physical cards each get a fixed number (``CARDS[id]``); the state moves those numbers from
zone to zone, so conservation of cards is a plain check that every number is somewhere once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.base import load_data

Currency = Literal["points", "coins"]
Ability = Literal["red_draw", "green_reroll", "purple_choice"]
Pattern = Literal["pairs", "triplets", "run", "odds_or_evens", "full_house", "color_cubed", "rainbow"]


class DiceColour(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str = Field(pattern=r"^[a-z]+$")
    name: str = Field(min_length=1, max_length=20)
    faces: tuple[int, ...]
    currency: Currency

    @field_validator("faces")
    @classmethod
    def _six_faces(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if len(value) != 6 or any(not 1 <= f <= 6 for f in value):
            raise ValueError("a die has six faces, each 1 to 6")
        return value


class DiceTable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    source: str = ""
    per_colour: int = Field(ge=1)
    colours: tuple[DiceColour, ...] = Field(min_length=7, max_length=7)

    @model_validator(mode="after")
    def _unique(self) -> DiceTable:
        keys = [c.key for c in self.colours]
        if len(set(keys)) != len(keys):
            raise ValueError("dice colours must be unique")
        if sum(c.currency == "coins" for c in self.colours) != 1:
            raise ValueError("exactly one colour (White) gives coins")
        return self


class DiceCardDef(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    colour: str
    name: str = Field(min_length=1, max_length=40)
    cost: int = Field(ge=1)
    fpv: int = Field(ge=0)
    ability: Ability | None = None
    #: base cards of this colour in the box (dealt 3 Blue + 4 White a player)
    base: int = Field(default=0, ge=0)
    text: str = Field(min_length=1)
    short: str = Field(min_length=1, max_length=100)


class ActionCardDef(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str = Field(pattern=r"^[a-z_]+$")
    name: str = Field(min_length=1, max_length=40)
    cost: int = Field(ge=1)
    #: Action Units, of the 5 a turn allows
    au: int = Field(ge=1, le=5)
    #: cards drawn when played (Greed's 2-then-1 is its own rule)
    draws: int = Field(default=0, ge=0)
    #: the scoring pattern it sets for the turn, if any
    pattern: Pattern | None = None
    #: one card per dice colour instead of 7 copies (Can't Touch This)
    versions: tuple[str, ...] = ()
    text: str = Field(min_length=1)
    short: str = Field(min_length=1, max_length=100)
    #: its key effect in a few words, for the line a card has when buying
    brief: str = Field(min_length=1, max_length=48)


class SuggestedSet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str
    name: str
    cards: tuple[str, ...] = Field(min_length=7, max_length=7)


class CardTable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    source: str = ""
    total_cards: int
    copies_per_stack: int = Field(ge=1)
    draft_max_cost: int = Field(ge=0)
    base_per_player: dict[str, int]
    dice_cards: tuple[DiceCardDef, ...] = Field(min_length=7, max_length=7)
    actions: tuple[ActionCardDef, ...] = Field(min_length=7)
    suggested_sets: tuple[SuggestedSet, ...]

    @model_validator(mode="after")
    def _consistent(self) -> CardTable:
        keys = [a.key for a in self.actions]
        if len(set(keys)) != len(keys):
            raise ValueError("action keys must be unique")
        colours = [d.colour for d in self.dice_cards]
        if len(set(colours)) != len(colours):
            raise ValueError("one Dice Card per colour")
        for action in self.actions:
            if action.versions and len(action.versions) != self.copies_per_stack:
                raise ValueError(f"{action.key}: one version per card of its stack")
            if action.versions and set(action.versions) != set(colours):
                raise ValueError(f"{action.key}: a version for every dice colour")
        for suggested in self.suggested_sets:
            if len(set(suggested.cards)) != 7 or not set(suggested.cards) <= set(keys):
                raise ValueError(f"{suggested.key}: 7 different known Action Cards")
        base = {d.colour: d.base for d in self.dice_cards if d.base}
        if set(self.base_per_player) != set(base):
            raise ValueError("base cards dealt must be the colours the box has base cards of")
        counted = (len(self.actions) + len(self.dice_cards)) * self.copies_per_stack + sum(base.values())
        if counted != self.total_cards:
            raise ValueError(f"the cards add up to {counted}, not {self.total_cards}")
        return self


def load_dice() -> DiceTable:
    return load_data("bare_bones/dice.json", DiceTable)


def load_cards() -> CardTable:
    table = load_data("bare_bones/cards.json", CardTable)
    if {d.colour for d in table.dice_cards} != set(COLOURS_BY_KEY):
        raise ValueError("the card table and the dice table must name the same colours")
    return table


DICE: DiceTable = load_dice()
COLOURS_BY_KEY: dict[str, DiceColour] = {c.key: c for c in DICE.colours}
#: the colours in Supply order (cheapest Dice Card first)
COLOURS: tuple[str, ...] = tuple(c.key for c in DICE.colours)
TABLE: CardTable = load_cards()
DICE_CARDS: dict[str, DiceCardDef] = {d.colour: d for d in TABLE.dice_cards}
ACTIONS: dict[str, ActionCardDef] = {a.key: a for a in TABLE.actions}
SUGGESTED: dict[str, SuggestedSet] = {s.key: s for s in TABLE.suggested_sets}
DICE_PER_COLOUR = DICE.per_colour
TOTAL_DICE = DICE_PER_COLOUR * len(COLOURS)
TOTAL_CARDS = TABLE.total_cards
COIN_COLOUR = next(c.key for c in DICE.colours if c.currency == "coins")
#: the fewest and most coins a die that pays coins shows (what a loan is weighed against)
COIN_FACES: tuple[int, int] = (min(f for c in DICE.colours if c.currency == "coins" for f in c.faces),
                               max(f for c in DICE.colours if c.currency == "coins" for f in c.faces))
CTT = "cant_touch_this"


def colour_name(colour: str) -> str:
    return COLOURS_BY_KEY[colour].name


def face_value(colour: str, face: int) -> int:
    """The number on face ``face`` (1-6) of a die of ``colour``."""
    return COLOURS_BY_KEY[colour].faces[face - 1]


def mean_value(colour: str) -> float:
    return sum(COLOURS_BY_KEY[colour].faces) / 6


# -- the 217 physical cards ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card. ``key`` tells versions apart (``cant_touch_this_red``); ``kind`` is its
    name for the Supply stack and the one-copy buying rule (``cant_touch_this``)."""

    id: int
    key: str
    kind: str
    name: str
    cost: int
    fpv: int
    au: int
    #: the die a Dice Card rolls, or the die a Can't Touch This version targets
    colour: str | None
    is_dice: bool
    base: bool = False


def _catalogue() -> tuple[Card, ...]:
    cards: list[Card] = []

    def add(**fields: object) -> None:
        cards.append(Card(id=len(cards), **fields))  # type: ignore[arg-type]

    for colour in COLOURS:
        d = DICE_CARDS[colour]
        for _ in range(TABLE.copies_per_stack):
            add(key=colour, kind=colour, name=d.name, cost=d.cost, fpv=d.fpv, au=0, colour=colour,
                is_dice=True)
    for colour in COLOURS:
        d = DICE_CARDS[colour]
        for _ in range(d.base):
            add(key=colour, kind=colour, name=d.name, cost=d.cost, fpv=d.fpv, au=0, colour=colour,
                is_dice=True, base=True)
    for a in TABLE.actions:
        if a.versions:
            for colour in a.versions:
                add(key=version_key(a.key, colour), kind=a.key,
                    name=f"{a.name} ({colour_name(colour)})", cost=a.cost, fpv=0, au=a.au,
                    colour=colour, is_dice=False)
        else:
            for _ in range(TABLE.copies_per_stack):
                add(key=a.key, kind=a.key, name=a.name, cost=a.cost, fpv=0, au=a.au, colour=None,
                    is_dice=False)
    return tuple(cards)


def version_key(kind: str, colour: str) -> str:
    return f"{kind}_{colour}"


CARDS: tuple[Card, ...] = _catalogue()
if len(CARDS) != TOTAL_CARDS:  # the table's own check, from the other side
    raise ValueError(f"{len(CARDS)} cards built, {TOTAL_CARDS} expected")

#: every card key (a version for Can't Touch This) in display order: Dice Cards by colour, then
#: Actions from low to high cost
KEY_ORDER: dict[str, int] = {}
for _card in CARDS:
    KEY_ORDER.setdefault(_card.key, len(KEY_ORDER))
#: one representative card per key
BY_KEY: dict[str, Card] = {}
for _card in CARDS:
    BY_KEY.setdefault(_card.key, _card)
KINDS: dict[str, str] = {c.key: c.kind for c in CARDS}


def card(card_id: int) -> Card:
    return CARDS[card_id]


def kind_name(kind: str) -> str:
    """The card name of a Supply stack: "Red Dice Card", "Can't Touch This"."""
    if kind in DICE_CARDS:
        return DICE_CARDS[kind].name
    return ACTIONS[kind].name


def kind_cost(kind: str) -> int:
    return DICE_CARDS[kind].cost if kind in DICE_CARDS else ACTIONS[kind].cost


def card_text(key: str) -> str:
    """The card's full text, for "What does it do?"."""
    kind = KINDS[key]
    if kind in DICE_CARDS:
        return DICE_CARDS[kind].text
    return ACTIONS[kind].text


def card_short(key: str) -> str:
    kind = KINDS[key]
    if kind in DICE_CARDS:
        return DICE_CARDS[kind].short
    short = ACTIONS[kind].short
    c = BY_KEY[key]
    if kind == CTT and c.colour:
        return short.replace("its colour's die", f"a {colour_name(c.colour)} die")
    return short


_ALIASES = {"jayride": "joyride"}  # RULINGS key findings: «Jayride» is a typo for Joyride


def action_key(name: str) -> str:
    """An Action Card's key from its name as a host might type it ("Can't Touch This",
    "re-re-roll", "odds_or_evens"). Raises ValueError for an unknown name."""
    if name in ACTIONS:
        return name
    squeezed = "".join(ch for ch in name.lower() if ch.isalnum())
    squeezed = _ALIASES.get(squeezed, squeezed)
    for a in TABLE.actions:
        if squeezed in ("".join(ch for ch in a.name.lower() if ch.isalnum()), a.key.replace("_", "")):
            return a.key
    raise ValueError(f"no Action Card is called {name!r}")


def draftable_kind(kind: str, draft_white: bool) -> bool:
    """BB-3: cost at most 6, and White only with the option (the Draft table marks it «No»)."""
    if kind == COIN_COLOUR and not draft_white:
        return False
    return kind_cost(kind) <= TABLE.draft_max_cost
