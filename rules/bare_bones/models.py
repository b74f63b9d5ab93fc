"""Bare Bones: the options, the state, the actions and the views, as pydantic models.

The state holds card numbers (see ``cards.CARDS``) in zones: the box, the Supply stacks, and
each player's draw pile, hand and discard pile, plus the active player's play area and the Can't
Touch This cards set aside. Piles are lists whose last item is the top. A question a card asks
its player is a ``Pending`` held in the state; the answer is an ordinary action.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rules.bare_bones.cards import ACTIONS, SUGGESTED, action_key
from rules.bare_bones.scoring import ScoreOption
from rules.rng import Dice

MIN_SEATS, MAX_SEATS = 2, 4  # BB-1
ROUNDS = 12
HAND_SIZE = 5
AU_LIMIT = 5
DICE_CAP = 6
DRAFT_ROUNDS = 3
HOT_POTATO_PENALTY = 15  # points a Hot Potato owned at the end
LOAN_PENALTY = 2  # points a coin still owed

ActionSet = Literal["basics", "interplay", "money_money", "many_paths", "random", "custom"]


class BareBonesOptions(BaseModel):
    """Every OPT of RULINGS section 1, with its default, and the Supply's Action Cards."""

    #: the 7 Action stacks: a suggested set, 7 drawn at random at the start, or ``custom_actions``
    action_set: ActionSet = "basics"
    #: with ``action_set="custom"``: 7 different Action Card names (or keys)
    custom_actions: list[str] | None = None
    #: BB-3: White Dice Cards may be drafted (the Draft table says no)
    draft_white: bool = False
    #: BB-4: 4 dice of each colour (less those on Can't Touch This), or as many as cards allow
    dice_limit: Literal["physical", "unlimited"] = "physical"
    #: BB-8: Run doubles several disjoint runs instead of one
    run_multiple: bool = False

    @model_validator(mode="after")
    def _custom_set(self) -> BareBonesOptions:
        if self.action_set == "custom":
            if self.custom_actions is None:
                raise ValueError("a custom action set needs 7 Action Card names")
            keys = [action_key(name) for name in self.custom_actions]
            if len(keys) != 7 or len(set(keys)) != 7:
                raise ValueError("a custom action set is 7 different Action Cards")
            self.custom_actions = sorted(keys, key=lambda k: (ACTIONS[k].cost, ACTIONS[k].name))
        elif self.custom_actions is not None:
            raise ValueError("custom_actions is only for action_set='custom'")
        return self

    def fixed_set(self) -> list[str] | None:
        """The 7 Action keys this option names, low to high cost (None: drawn at random)."""
        if self.action_set == "random":
            return None
        keys = list(self.custom_actions or []) if self.action_set == "custom" else list(
            SUGGESTED[self.action_set].cards)
        return sorted(keys, key=lambda k: (ACTIONS[k].cost, ACTIONS[k].name))


class Played(BaseModel):
    """A card in the active player's play area."""

    card: int
    #: whose card it is (a Joyride-borrowed card stays its owner's, BB-16)
    owner: int
    how: Literal["hand", "match", "borrowed", "full_house", "drawn"] = "hand"
    #: the Dice Card colour a Mimic copies
    mimics: str | None = None
    #: Purple: roll a Purple die, or a Blue and a Red die
    purple: Literal["purple", "blue_red"] | None = None
    #: Double Up chose this card (2 dice)
    doubled_up: bool = False
    #: Hot Potato: where it goes at the end of the turn (-1: its owner's discard pile)
    potato_to: int | None = None


class Die(BaseModel):
    colour: str
    value: int
    rerolls: int = 0


class Block(BaseModel):
    """A Can't Touch This set aside with its die: nobody but ``owner`` scores ``value``."""

    model_config = ConfigDict(frozen=True)

    owner: int
    card: int
    colour: str
    value: int


class Reveal(BaseModel):
    """A hand shown to the table, as it was when shown (Joyride, Full House)."""

    model_config = ConfigDict(frozen=True)

    seat: int
    by: Literal["joyride", "full_house"]
    cards: list[int]


PendingKind = Literal[
    "mimic", "joyride_seat", "joyride_card", "loan", "yard_sale", "swap_give", "swap_take",
    "double_up", "purple", "leave_out", "full_house", "pattern", "potato",
]


class Pending(BaseModel):
    """A question held in the state. ``resume`` names the step that takes the answer."""

    kind: PendingKind
    #: the card whose text asks (None: a rule of the turn asks)
    card: str | None = None
    resume: str
    #: an opponent chosen earlier (Joyride)
    target: int | None = None
    #: play-area position this question is about (Purple, Hot Potato)
    index: int | None = None
    #: cards (Swap Meet) or dice (Full House) chosen so far
    marked: list[int] = Field(default_factory=list)
    #: scoring choices (pattern)
    options: list[ScoreOption] = Field(default_factory=list)
    #: Loan Shark: the player asked for the amounts above the dearest card
    more: bool = False


Stage = Literal["match", "play", "dice", "reroll", "score", "buy", "potato"]


class Scored(BaseModel):
    model_config = ConfigDict(frozen=True)
    option: ScoreOption
    conversion: Literal["point_pro", "straight_cash"] | None = None
    blocked: list[int] = Field(default_factory=list)
    working: str


class Turn(BaseModel):
    """Everything about the turn in progress; dropped at cleanup."""

    seat: int
    round: int
    stage: Stage = "play"
    #: bonus matching (RULINGS 1.3): the colours the player before left exactly 2 of
    offers: list[str] = Field(default_factory=list)
    matched: list[str] = Field(default_factory=list)
    play: list[Played] = Field(default_factory=list)
    au: int = 0
    #: Action kinds played this turn, in order
    actions: list[str] = Field(default_factory=list)
    red_draws: int = 0
    draws: int = 0
    reveals: list[Reveal] = Field(default_factory=list)
    #: colours of dice left out over the 6-dice cap
    left_out: list[str] = Field(default_factory=list)
    dice: list[Die] = Field(default_factory=list)
    rolled: bool = False
    green_used: bool = False
    #: Re-Re-Roll re-rolls left
    rerolls: int = 0
    #: Full House's second roll
    second_roll: Literal["none", "open", "used"] = "none"
    scored: Scored | None = None
    #: coins from Keep the Change last turn, Yard Sale and the dice (they repay a loan)
    carry_in: int = 0
    sold: int = 0
    #: Loan Shark coins taken this turn (they cannot repay an older loan, BB-13)
    loaned: int = 0
    repaid: int = 0
    #: points lost for coins still owed on last turn's loan
    penalty: int = 0
    coins: int = 0
    spent: int = 0
    bought: list[str] = Field(default_factory=list)
    keep_change: bool = False


#: a scoresheet entry as the state keeps it, plain numbers (cheap to store and compare):
#: (round, points, running total, loan penalty, coins carried, coins borrowed)
SheetEntry = tuple[int, int, int, int, int, int]


class SheetRow(BaseModel):
    """One round of a player's column on the scoresheet, as the table shows it."""

    model_config = ConfigDict(frozen=True)

    round: int
    #: the turn's score: dice points less any loan penalty
    points: int
    total: int
    #: points lost this turn for coins still owed on last turn's loan
    penalty: int = 0
    #: coin notes: "+3" carried by Keep the Change, "-8" borrowed with Loan Shark
    notes: list[str] = Field(default_factory=list)


class Player(BaseModel):
    draw: list[int] = Field(default_factory=list)
    hand: list[int] = Field(default_factory=list)
    discard: list[int] = Field(default_factory=list)
    score: int = 0
    #: coins carried into the next turn (Keep the Change)
    carry: int = 0
    #: Loan Shark coins to repay next turn
    loan: int = 0
    turns: int = 0
    sheet: list[SheetEntry] = Field(default_factory=list)


class Final(BaseModel):
    """BB-13, BB-17: subtotal + FPV − 15 a Hot Potato − 2 a coin still owed."""

    model_config = ConfigDict(frozen=True)

    seat: int
    subtotal: int
    fpv: int
    potatoes: int
    loan: int
    total: int
    cards: int

    @property
    def deducted(self) -> int:
        """What the Hot Potatoes owned and the coins still owed take off the total."""
        return HOT_POTATO_PENALTY * self.potatoes + LOAN_PENALTY * self.loan


class BareBonesState(BaseModel):
    seats: int = Field(ge=MIN_SEATS, le=MAX_SEATS)
    options: BareBonesOptions
    #: the 7 Action kinds of this game's Supply, low to high cost
    actions: list[str]
    #: Supply stacks by kind (7 Dice Card colours, 7 Actions); the last card is the top
    supply: dict[str, list[int]]
    box: list[int]
    #: dice in the Supply by colour (below 0 only with unlimited dice)
    dice_pool: dict[str, int]
    players: list[Player]
    #: seats in play order: order[0] is Player 1
    order: list[int]
    #: the Blue-dice totals that set the order, one list per roll-off (None: not rolling)
    order_rolls: list[list[int | None]]
    phase: Literal["draft", "turn", "over"]
    #: the Draft so far: (seat, card) per pick
    picks: list[tuple[int, int]] = Field(default_factory=list)
    round: int = 1
    #: position in ``order`` of the player whose turn it is
    position: int = 0
    turn: Turn | None = None
    pending: Pending | None = None
    blocks: list[Block] = Field(default_factory=list)
    #: the colours the player before left exactly 2 of, for the next player to match
    offer: list[str] = Field(default_factory=list)
    offer_from: int | None = None
    finals: list[Final] = Field(default_factory=list)
    #: the dice stream (tests force faces here) and, apart, the stream that shuffles and draws
    #: a random action set
    dice: Dice
    shuffler: Dice


ActionKind = Literal[
    "draft", "match", "no_match", "play", "red_draw", "roll",
    "mimic", "joyride_seat", "joyride_card", "loan", "loan_more", "sell", "swap_give", "swap_done",
    "swap_take", "double_up", "purple", "leave_out",
    "green", "reroll", "full_house", "fh_mark", "fh_roll", "rerolls_done",
    "pattern", "buy", "buy_done", "potato",
]


class BareBonesAction(BaseModel):
    """One decision. ``card`` is a card key (a version for Can't Touch This), ``colour`` a dice
    colour, ``seat`` an opponent (-1 for "my own discard pile"), ``amount`` coins, ``die`` a
    position in the turn's dice, ``index`` a scoring choice, ``choice`` Purple's dice."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: ActionKind
    card: str | None = None
    colour: str | None = None
    seat: int | None = None
    amount: int | None = None
    die: int | None = None
    index: int | None = None
    choice: Literal["purple", "blue_red"] | None = None


@lru_cache(maxsize=8192)
def action_of(kind: ActionKind, card: str | None = None, colour: str | None = None,
              seat: int | None = None, amount: int | None = None, die: int | None = None,
              index: int | None = None, choice: Literal["purple", "blue_red"] | None = None
              ) -> BareBonesAction:
    """Actions are frozen, so each is made once and shared by every list that offers it."""
    return BareBonesAction(kind=kind, card=card, colour=colour, seat=seat, amount=amount,
                           die=die, index=index, choice=choice)


def action(kind: str, **fields: object) -> BareBonesAction:
    """An action by its fields, as the UI or a test names it."""
    return action_of(kind, **fields)  # type: ignore[arg-type,unused-ignore]


# -- views ----------------------------------------------------------------------------------------


class CardView(BaseModel):
    """A card as every view shows it: frozen, so each card's is made once and shared."""

    model_config = ConfigDict(frozen=True)

    id: int
    key: str
    kind: str
    name: str
    cost: int
    fpv: int
    au: int
    colour: str | None
    dice: bool
    short: str


class PlayedView(BaseModel):
    card: CardView
    owner: int
    how: str
    mimics: str | None
    purple: str | None
    doubled_up: bool


class DieView(BaseModel):
    index: int
    colour: str
    name: str
    value: int
    currency: str
    rerolls: int
    blocked: bool


class StackView(BaseModel):
    """A supply stack: frozen, so each look of it is made once and shared by every view."""

    model_config = ConfigDict(frozen=True)

    kind: str
    name: str
    cost: int
    fpv: int
    au: int
    count: int
    dice: bool
    draftable: bool
    #: Can't Touch This: the colour versions left
    versions: list[str]
    short: str
    #: an Action's key effect in a few words ("" for a Dice Card: its die says it)
    brief: str = ""


class PlayerView(BaseModel):
    seat: int
    #: place in play order (1 = Player 1)
    player_number: int
    score: int
    draw_size: int
    hand_size: int
    discard_size: int
    discard_top: CardView | None
    owned: int
    #: Hot Potatoes among the cards owned (each bought, drafted or passed in the open)
    hot_potatoes: int
    carry: int
    loan: int
    turns: int
    #: Can't Touch This set aside with its die
    aside: list[CardView]


class BlockView(BaseModel):
    owner: int
    colour: str
    value: int
    card: str


class RevealView(BaseModel):
    seat: int
    by: str
    cards: list[CardView]


class ScoreView(BaseModel):
    points: int
    coins: int
    working: str
    conversion: str | None


class PendingView(BaseModel):
    kind: PendingKind
    seat: int
    card: str | None
    prompt: str
    marked: list[int]
    #: Swap Meet: the combined cost of the cards returned so far; Loan Shark: the most that
    #: may be borrowed (BB-13)
    value: int
    options: list[ScoreOption]
    target: int | None
    #: Loan Shark: the amounts above the dearest card are the ones asked
    more: bool = False
    #: Loan Shark: the price of the dearest card left in the Supply
    dearest: int = 0
    #: Loan Shark: the coins the turn has before any die is rolled (carried in, sold, borrowed)
    so_far: int = 0
    #: Loan Shark: the fewest and most coins a die that pays coins can show
    die_pays: tuple[int, int] = (0, 0)


class TurnView(BaseModel):
    seat: int
    round: int
    stage: Stage
    au_used: int
    au_left: int
    play: list[PlayedView]
    actions: list[str]
    dice: list[DieView]
    rolled: bool
    rerolls_left: int
    green_used: bool
    second_roll: str
    offers: list[str]
    matched: list[str]
    offer_from: int | None
    reveals: list[RevealView]
    score: ScoreView | None
    carry_in: int
    sold: int
    loaned: int
    repaid: int
    penalty: int
    coins: int
    spent: int
    coins_left: int
    bought: list[str]
    keep_change: bool
    red_draws_left: int


class SheetColumn(BaseModel):
    seat: int
    rows: list[SheetRow]
    final: Final | None


class PrivateView(BaseModel):
    """What only ``seat`` sees: its hand, its discard pile, its deck (the order stays hidden)."""

    seat: int
    hand: list[CardView]
    draw_size: int
    discard: list[CardView]
    owned: dict[str, int]
    carry: int
    loan: int
    au_left: int | None


class DraftView(BaseModel):
    pick: int
    picks_total: int
    round: int
    drafter: int
    picks: list[tuple[int, str]]


class BareBonesView(BaseModel):
    phase: str
    over: bool
    seats: int
    round: int
    rounds: int
    order: list[int]
    order_rolls: list[list[int | None]]
    current: int | None
    to_act: list[int]
    options: BareBonesOptions
    action_set: list[str]
    supply: list[StackView]
    dice_pool: dict[str, int]
    players: list[PlayerView]
    blocks: list[BlockView]
    turn: TurnView | None
    pending: PendingView | None
    draft: DraftView | None
    sheet: list[SheetColumn]
    finals: list[Final]
    me: PrivateView | None
