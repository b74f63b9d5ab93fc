"""The physical moves every card and rule is made of: draw, shuffle, roll, re-roll, double,
discard, return to the Supply, take from it, ask a question.

Card effects (``effects``) and the turn's flow (``flow``) are written in these words so they
read like the rulebook. Everything here works on a state the caller has already copied.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from rules.base import Event, counted, seat_name
from rules.bare_bones.cards import (
    ACTIONS,
    BY_KEY,
    CARDS,
    COLOURS,
    CTT,
    DICE_CARDS,
    KEY_ORDER,
    Pattern,
    colour_name,
    face_value,
    kind_cost,
)
from rules.bare_bones.models import (
    AU_LIMIT,
    BareBonesAction,
    BareBonesState,
    Pending,
    PendingKind,
    Played,
    Player,
    Turn,
)
from rules.bare_bones.scoring import Conversion

#: a step that takes the answer to a pending question: (state, the question, the answer, events);
#: the question is already cleared from the state when the step runs
Step = Callable[[BareBonesState, Pending, BareBonesAction, list[Event]], None]
STEPS: dict[str, Step] = {}


def step(fn: Step) -> Step:
    """Register ``fn`` as the step a pending question resumes at (by its name)."""
    STEPS[fn.__name__] = fn
    return fn


def who(seat: int) -> str:
    return seat_name(seat)


def emit(events: list[Event], kind: str, text: str, seat: int | None = None, *,
         also: tuple[int, ...] = (), **data: Any) -> None:
    """An event of ``seat`` (and of the seats in ``also`` it concerns too), with its figures."""
    seats = (() if seat is None else (seat,)) + also
    events.append(Event(kind=kind, text=text, seat=seat, seats=seats, data=data))


def names(cards: Iterable[int]) -> str:
    listed = [CARDS[c].name for c in cards]
    return ", ".join(listed) if listed else "nothing"


# -- cards --------------------------------------------------------------------------------------


def turn_of(s: BareBonesState) -> Turn:
    assert s.turn is not None, "no turn in progress"
    return s.turn


def me(s: BareBonesState) -> Player:
    return s.players[turn_of(s).seat]


def shuffle(s: BareBonesState, cards: list[int]) -> None:
    """Fisher-Yates with the game's own shuffling stream (never the dice stream, so tests that
    force dice are not thrown off by a reshuffle)."""
    for i in range(len(cards) - 1, 0, -1):
        j = s.shuffler.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def draw_one(s: BareBonesState, seat: int) -> int | None:
    """«If a player needs to draw a card and their draw pile is empty, they must immediately
    shuffle their discard pile»; with both empty there is nothing to draw."""
    p = s.players[seat]
    if not p.draw and p.discard:
        p.draw, p.discard = p.discard, []
        shuffle(s, p.draw)
    if not p.draw:
        return None
    return p.draw.pop()


def draw(s: BareBonesState, seat: int, n: int, events: list[Event], why: str) -> int:
    """Draw ``n`` cards into the hand; the table learns how many, never which."""
    got = 0
    for _ in range(n):
        card_id = draw_one(s, seat)
        if card_id is None:
            break
        s.players[seat].hand.append(card_id)
        got += 1
    if s.turn is not None and s.turn.seat == seat:
        s.turn.draws += got
    short = f" ({n - got} short: no cards left)" if got < n else ""
    emit(events, "draw", f"{who(seat)} draws {counted(got, 'card')} ({why}){short}.", seat)
    return got


def discard(s: BareBonesState, seat: int, cards: Iterable[int]) -> None:
    """Onto the top of the seat's discard pile, face up, in this order (the last on top)."""
    s.players[seat].discard.extend(cards)


def can_draw(s: BareBonesState, seat: int) -> bool:
    p = s.players[seat]
    return bool(p.draw or p.discard)


def hand_keys(cards: Iterable[int]) -> list[str]:
    """The different cards in a hand, in display order (one button per kind of card)."""
    return sorted({CARDS[c].key for c in cards}, key=KEY_ORDER.__getitem__)


def take_from_hand(p: Player, key: str) -> int:
    card_id = next(c for c in p.hand if CARDS[c].key == key)
    p.hand.remove(card_id)
    return card_id


def return_to_supply(s: BareBonesState, card_id: int) -> None:
    """BB-15: a returned card, base cards included, goes back on its Supply stack."""
    s.supply[CARDS[card_id].kind].append(card_id)


def supply_keys(s: BareBonesState) -> list[str]:
    """What can be taken from the Supply now: one key a stack, one a Can't Touch This version."""
    keys: set[str] = set()
    for kind, stack in s.supply.items():
        if kind == CTT:
            keys.update(CARDS[c].key for c in stack)
        elif stack:
            keys.add(kind)
    return sorted(keys, key=KEY_ORDER.__getitem__)


def take_from_supply(s: BareBonesState, key: str) -> int:
    stack = s.supply[BY_KEY[key].kind]
    card_id = next(c for c in reversed(stack) if CARDS[c].key == key)
    stack.remove(card_id)
    return card_id


def owned_cards(s: BareBonesState, seat: int) -> list[int]:
    """BB-17: draw pile, hand, discard pile, the play area (not borrowed cards) and any Can't
    Touch This set aside; a card this seat lent out by Joyride is still its own."""
    p = s.players[seat]
    cards = p.draw + p.hand + p.discard + [b.card for b in s.blocks if b.owner == seat]
    if s.turn is not None:
        cards += [x.card for x in s.turn.play if x.owner == seat]
    return cards


# -- the play area ------------------------------------------------------------------------------


def source_colour(played: Played) -> str | None:
    """The colour of Dice Card a card in play counts as: its own, or the one a Mimic copies."""
    c = CARDS[played.card]
    if c.is_dice:
        return c.colour
    if c.kind == "mimic":
        return played.mimics
    return None


def sources(t: Turn) -> list[tuple[int, str]]:
    """(play-area position, colour) of every Dice Card in play, Mimics and borrowed and
    bonus-matched cards included (BB-7)."""
    found = []
    for i, played in enumerate(t.play):
        colour = source_colour(played)
        if colour is not None:
            found.append((i, colour))
    return found


def au_left(t: Turn) -> int:
    return AU_LIMIT - t.au


def red_draws_left(t: Turn) -> int:
    """«You may draw 1 card for every 2 Red Dice Cards you play this turn»."""
    reds = sum(1 for _, colour in sources(t) if colour == "red")
    return reds // 2 - t.red_draws


def has_ability(t: Turn, ability: str) -> bool:
    return any(DICE_CARDS[colour].ability == ability for _, colour in sources(t))


def pattern_of(t: Turn) -> Pattern | None:
    """The turn's multiplier. Every multiplier costs 3 AU and Full House 4, so the 5-AU limit
    leaves room for one only (RULINGS 1.1); this is checked, not assumed."""
    patterns = [ACTIONS[k].pattern for k in t.actions if ACTIONS[k].pattern]
    if len(set(patterns)) > 1 or len(patterns) > 1:
        raise AssertionError(f"two multipliers in one turn: {patterns}")
    return patterns[0] if patterns else None


def conversion_of(t: Turn) -> Conversion | None:
    if "point_pro" in t.actions:
        return "point_pro"
    if "straight_cash" in t.actions:
        return "straight_cash"
    return None


def blocked_values(s: BareBonesState, seat: int) -> list[int]:
    """BB-12: the numbers other players' Can't Touch This forbid ``seat`` to score."""
    return sorted({b.value for b in s.blocks if b.owner != seat})


def copies_in_play(t: Turn) -> Counter[str]:
    return Counter(colour for _, colour in sources(t))


# -- dice ---------------------------------------------------------------------------------------


def roll_colour(s: BareBonesState, colour: str) -> int:
    """One die of ``colour``: a fair face (forced faces first, in tests)."""
    return face_value(colour, s.dice.roll(6))


def planned_dice(s: BareBonesState) -> list[str]:
    """The dice the cards in play let the player roll, before the 6-dice cap: one a Dice Card
    (Purple: its own, or a Blue and a Red); Double Up's two cards twice each and nothing else
    (BB-10); Rainbow's one a colour; and, with physical dice, no more of a colour than the
    Supply holds (BB-4: the excess is simply not rolled). Dice the player left out come off."""
    t = turn_of(s)
    plan: list[str] = []
    if "double_up" in t.actions:
        for i, colour in sources(t):
            if t.play[i].doubled_up:
                plan += [colour, colour]
    else:
        for i, colour in sources(t):
            if colour == "purple" and t.play[i].purple == "blue_red":
                plan += ["blue", "red"]
            else:
                plan.append(colour)
    if "rainbow" in t.actions:
        plan = list(dict.fromkeys(plan))
    if s.options.dice_limit == "physical":
        room = dict(s.dice_pool)
        kept = []
        for colour in plan:
            if room[colour] > 0:
                room[colour] -= 1
                kept.append(colour)
        plan = kept
    for colour in t.left_out:
        plan.remove(colour)
    return plan


def dice_text(dice: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{colour_name(c)} {v}" for c, v in dice) or "no dice"


def colour_order(colours: Iterable[str]) -> list[str]:
    wanted = set(colours)
    return [c for c in COLOURS if c in wanted]


# -- questions ----------------------------------------------------------------------------------


def ask(s: BareBonesState, kind: PendingKind, resume: Step, card: str | None = None,
        **fields: object) -> None:
    """Hold a question in the state; ``resume`` takes the answer (an ordinary action)."""
    if resume.__name__ not in STEPS:
        raise AssertionError(f"{resume.__name__} is not a registered step")
    s.pending = Pending(kind=kind, card=card, resume=resume.__name__, **fields)


def loan_cap(s: BareBonesState) -> int:
    """BB-13: the most that could be spent, one card from each non-empty Supply stack. At most
    101 coins: the 7 Dice Card stacks (51) with Loan Shark and the 6 costliest other Actions."""
    return sum(kind_cost(kind) for kind, stack in s.supply.items() if stack)


def dearest_cost(s: BareBonesState) -> int:
    """The price of the dearest card left in the Supply: a loan above it buys more than one
    card, and must be repaid from a single turn's coins."""
    return max((kind_cost(kind) for kind, stack in s.supply.items() if stack), default=0)
