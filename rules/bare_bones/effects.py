"""What each card does, in the order its text says it.

Every Action Card has a function named after it, run when it is played (``PLAY``); a card that
must ask its player something (which card, which die, which opponent, how many coins) holds the
question in the state with ``ask`` and names the step that takes the answer. A card whose work
comes later in the turn (a multiplier, Double Up, Can't Touch This) says so and leaves it to
the stage that reads it. The Dice Card abilities (Red, Green, Purple) follow the Actions.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.base import Event, counted
from rules.bare_bones.cards import ACTIONS, BY_KEY, CARDS, CTT, colour_name
from rules.bare_bones.models import (
    BareBonesAction,
    BareBonesState,
    Block,
    Pending,
    Played,
    Reveal,
)
from rules.bare_bones.table import (
    ask,
    colour_order,
    discard,
    draw,
    draw_one,
    emit,
    dearest_cost,
    loan_cap,
    me,
    names,
    return_to_supply,
    roll_colour,
    sources,
    step,
    supply_keys,
    take_from_hand,
    take_from_supply,
    turn_of,
    who,
)

#: (state, the card's play-area position, events)
PlayEffect = Callable[[BareBonesState, int, list[Event]], None]
PLAY: dict[str, PlayEffect] = {}

def effect(kind: str) -> Callable[[PlayEffect], PlayEffect]:
    def register(fn: PlayEffect) -> PlayEffect:
        PLAY[kind] = fn
        return fn
    return register


def _draws(kind: str) -> int:
    return ACTIONS[kind].draws


def _seat(s: BareBonesState) -> int:
    return turn_of(s).seat


def reveal(s: BareBonesState, seat: int, by: str, events: list[Event]) -> None:
    """A hand shown to the table: kept as it was shown for the rest of the turn."""
    hand = list(s.players[seat].hand)
    turn_of(s).reveals.append(Reveal(seat=seat, by=by, cards=hand))
    emit(events, "reveal", f"{who(seat)} reveals their hand: {names(hand)}.", seat)


def put_in_play(s: BareBonesState, card_id: int, owner: int, how: str) -> int:
    t = turn_of(s)
    t.play.append(Played(card=card_id, owner=owner, how=how))
    return len(t.play) - 1


def reroll(s: BareBonesState, index: int) -> tuple[int, int]:
    """Roll one of the turn's dice again: (old number, new number)."""
    die = turn_of(s).dice[index]
    old = die.value
    die.value = roll_colour(s, die.colour)
    die.rerolls += 1
    return old, die.value


# -- the Action Cards, A to Z --------------------------------------------------------------------


@effect(CTT)
def cant_touch_this(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Before cleanup, roll the indicated die»: nothing happens yet (``set_aside`` does it)."""


def set_aside(s: BareBonesState, events: list[Event]) -> None:
    """«Before cleanup, roll the indicated die and place it on the card. Set the card and die
    aside... Until your next turn, no other players may score with the number you rolled, and
    the die on the card is out of play.»"""
    t = turn_of(s)
    for played in [x for x in t.play if CARDS[x.card].kind == CTT and x.owner == t.seat]:
        colour = CARDS[played.card].colour
        assert colour is not None
        value = roll_colour(s, colour)
        s.dice_pool[colour] -= 1
        s.blocks.append(Block(owner=t.seat, card=played.card, colour=colour, value=value))
        t.play.remove(played)
        emit(events, "block", f"{who(t.seat)}'s Can't Touch This rolls {colour_name(colour)} "
                              f"{value}: until their next turn nobody else scores a {value}.", t.seat,
             colour=colour, value=value)


def take_back_blocks(s: BareBonesState, seat: int, events: list[Event]) -> None:
    """«At the start of your next turn, return the die to the Supply and discard Can't Touch
    This.»"""
    for block in [b for b in s.blocks if b.owner == seat]:
        s.blocks.remove(block)
        s.dice_pool[block.colour] += 1
        discard(s, seat, [block.card])
        emit(events, "unblock", f"{who(seat)} takes back Can't Touch This: {block.value}s "
                                "score again.", seat)


@effect("color_cubed")
def color_cubed(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Draw 1 card.» The doubling of 3 or more dice of a colour comes at scoring."""
    draw(s, _seat(s), _draws("color_cubed"), events, "Color Cubed")


@effect("double_up")
def double_up(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Choose 2 Dice Cards you have in play»: chosen when the dice are rolled (BB-10), so
    Dice Cards played after it count too; see ``double_up_question``."""


def double_up_question(s: BareBonesState) -> bool:
    """Ask for the next of Double Up's 2 cards; with 2 or fewer Dice Cards in play there is no
    choice (with only 1, it rolls 2 dice alone). Returns whether a question is now pending."""
    t = turn_of(s)
    found = sources(t)
    chosen = [i for i, _ in found if t.play[i].doubled_up]
    if len(chosen) >= 2 or len(chosen) == len(found):
        return False
    if len(found) <= 2:
        for i, _ in found:
            t.play[i].doubled_up = True
        return False
    ask(s, "double_up", double_up_choose, card="double_up")
    return True


def double_up_colours(s: BareBonesState) -> list[str]:
    t = turn_of(s)
    return colour_order(c for i, c in sources(t) if not t.play[i].doubled_up)


@step
def double_up_choose(s: BareBonesState, pending: Pending, action: BareBonesAction,
                     events: list[Event]) -> None:
    """«Roll 2 dice for each of those 2 cards, ignoring any other Dice Cards»."""
    t = turn_of(s)
    i = next(i for i, c in sources(t) if c == action.colour and not t.play[i].doubled_up)
    t.play[i].doubled_up = True
    emit(events, "double_up", f"{who(t.seat)} doubles up on a {colour_name(action.colour or '')} "
                              "Dice Card.", t.seat)


@effect("full_house")
def full_house(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Reveal your hand and play all of your Dice Cards. If you have fewer than 5 Dice Cards,
    draw until you have 5 Dice Cards to play, discarding any Action Cards. You now have 2
    rolls» (BB-11: all Dice Cards in play count; the drawing stops when no Dice Card is left
    to draw)."""
    seat, p, t = _seat(s), me(s), turn_of(s)
    reveal(s, seat, "full_house", events)
    from_hand = [c for c in p.hand if CARDS[c].is_dice]
    for card_id in from_hand:
        p.hand.remove(card_id)
        put_in_play(s, card_id, seat, "full_house")
    played, discarded = [], []
    while len(sources(t)) < 5 and any(CARDS[c].is_dice for c in p.draw + p.discard):
        drawn = draw_one(s, seat)
        assert drawn is not None
        t.draws += 1
        if CARDS[drawn].is_dice:
            put_in_play(s, drawn, seat, "drawn")
            played.append(drawn)
        else:
            discard(s, seat, [drawn])
            discarded.append(drawn)
    t.second_roll = "open"
    text = f"{who(seat)} plays every Dice Card in hand ({names(from_hand)})"
    if played or discarded:
        text += (f", then draws {counted(len(played) + len(discarded), 'card')}: plays "
                 f"{names(played)}, discards {names(discarded)}")
    emit(events, "full_house", text + ".", seat)


def full_house_second_roll(s: BareBonesState, events: list[Event]) -> None:
    """The second of Full House's 2 rolls: any of the dice, once (BB-11)."""
    ask(s, "full_house", full_house_roll, card="full_house")


@step
def full_house_roll(s: BareBonesState, pending: Pending, action: BareBonesAction,
                    events: list[Event]) -> None:
    """Mark dice one at a time, then roll the marked ones again (none marked: keep them all)."""
    t = turn_of(s)
    if action.kind == "fh_mark":
        assert action.die is not None
        ask(s, "full_house", full_house_roll, card="full_house", marked=pending.marked + [action.die])
        return
    t.second_roll = "used"
    if not pending.marked:
        emit(events, "second_roll", f"{who(t.seat)} keeps the dice: no second roll.", t.seat)
        return
    changes = []
    for index in sorted(pending.marked):
        old, new = reroll(s, index)
        changes.append(f"{colour_name(t.dice[index].colour)} {old} → {new}")
    emit(events, "second_roll", f"{who(t.seat)}'s second roll: {', '.join(changes)}.", t.seat)


@effect("greed")
def greed(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Draw 2 cards the first time you play Greed in a turn. For each additional Greed you
    play, draw 1 card.»"""
    first = turn_of(s).actions.count("greed") == 1
    draw(s, _seat(s), 2 if first else 1, events, "Greed")


@effect("hot_potato")
def hot_potato(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Draw 2 cards.» Where it goes is asked at the end of the turn (``hot_potato_question``)."""
    draw(s, _seat(s), _draws("hot_potato"), events, "Hot Potato")


def hot_potato_question(s: BareBonesState) -> bool:
    """«At the end of your turn, place this card on top of your discard pile or on top of any
    opponent's draw pile»: one question a Hot Potato played."""
    t = turn_of(s)
    for i, played in enumerate(t.play):
        if CARDS[played.card].kind == "hot_potato" and played.owner == t.seat and played.potato_to is None:
            ask(s, "potato", hot_potato_place, card="hot_potato", index=i)
            return True
    return False


@step
def hot_potato_place(s: BareBonesState, pending: Pending, action: BareBonesAction,
                     events: list[Event]) -> None:
    t = turn_of(s)
    assert pending.index is not None and action.seat is not None
    t.play[pending.index].potato_to = action.seat
    which = _which_potato(s, pending.index)
    if action.seat < 0:
        emit(events, "potato", f"{who(t.seat)} keeps {which}: it goes on their discard "
                               "pile.", t.seat, to=None)
    else:
        emit(events, "potato", f"{who(t.seat)} puts {which} on top of "
                               f"{who(action.seat)}'s draw pile.", t.seat, also=(action.seat,),
             to=action.seat)


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _which_potato(s: BareBonesState, index: int) -> str:
    """Each Hot Potato played is sent on by a question of its own, so a turn with two would
    log two lines word for word alike, as if one had been told twice: the log counts them."""
    t = turn_of(s)
    mine = [i for i, x in enumerate(t.play)
            if x.owner == t.seat and CARDS[x.card].kind == "hot_potato"]
    if len(mine) < 2:
        return "the Hot Potato"
    n = mine.index(index)
    return f"their {_ORDINALS[n]} Hot Potato" if n < len(_ORDINALS) else f"Hot Potato {n + 1}"


@effect("joyride")
def joyride(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Choose an opponent, who must reveal their hand to the table.»"""
    ask(s, "joyride_seat", joyride_reveal, card="joyride")


@step
def joyride_reveal(s: BareBonesState, pending: Pending, action: BareBonesAction,
                   events: list[Event]) -> None:
    """The opponent reveals; «"Borrow" any 1 of their Dice Cards» (BB-16: none, nothing)."""
    target = action.seat
    assert target is not None
    reveal(s, target, "joyride", events)
    if not any(CARDS[c].is_dice for c in s.players[target].hand):
        emit(events, "joyride", f"{who(target)} holds no Dice Card: nothing to borrow.", target)
        return
    ask(s, "joyride_card", joyride_borrow, card="joyride", target=target)


def joyride_colours(s: BareBonesState, target: int) -> list[str]:
    return colour_order(CARDS[c].colour or "" for c in s.players[target].hand if CARDS[c].is_dice)


@step
def joyride_borrow(s: BareBonesState, pending: Pending, action: BareBonesAction,
                   events: list[Event]) -> None:
    """«put it in play next to your own cards. For the remainder of your turn, you have all
    rights associated with this card. Return the card to your opponent's hand at the end of
    your turn.»"""
    target = pending.target
    assert target is not None and action.colour is not None
    card_id = take_from_hand(s.players[target], action.colour)
    put_in_play(s, card_id, target, "borrowed")
    emit(events, "borrow", f"{who(_seat(s))} borrows {who(target)}'s {CARDS[card_id].name}.",
         _seat(s))


@effect("keep_the_change")
def keep_the_change(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Any unspent coins at the end of this turn are rolled over to your available coins next
    turn.»"""
    turn_of(s).keep_change = True


@effect("loan_shark")
def loan_shark(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«You may "borrow" any amount of coins, by declaring the amount you wish to immediately
    add to your coin total.»"""
    ask(s, "loan", loan_shark_borrow, card="loan_shark")


def loan_amounts(s: BareBonesState, more: bool = False) -> list[int]:
    """BB-13 «any amount»: every whole number of coins up to the cap, asked in two steps so
    that the amounts a turn can repay are a few buttons, not four menus: first nothing up to
    the price of the dearest card left in the Supply, then (``more``, only when the player
    asks for them) nothing or any amount above it."""
    cap = loan_cap(s)
    first = min(cap, dearest_cost(s))
    return [0, *range(first + 1, cap + 1)] if more else list(range(first + 1))


def loan_has_more(s: BareBonesState) -> bool:
    """Whether any amount lies above the first step's (the cap is above the dearest card)."""
    return loan_cap(s) > dearest_cost(s)


@step
def loan_shark_borrow(s: BareBonesState, pending: Pending, action: BareBonesAction,
                      events: list[Event]) -> None:
    """«On your next turn, you must repay this loan by earning enough coins» (BB-13). Asking
    for the larger amounts asks the question again with them."""
    if action.kind == "loan_more":
        ask(s, "loan", loan_shark_borrow, card="loan_shark", more=True)
        return
    t = turn_of(s)
    amount = action.amount or 0
    t.loaned += amount
    text = (f"{who(t.seat)} borrows {counted(amount, 'coin')}, to repay next turn." if amount
            else f"{who(t.seat)} borrows nothing.")
    emit(events, "loan", text, t.seat)


@effect("mimic")
def mimic(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Mimic acts as a copy of any Dice Card you have in play (including any special abilities
    it has, as well as for the purposes of bonus matching).»"""
    ask(s, "mimic", mimic_copy, card="mimic", index=at)


def mimic_colours(s: BareBonesState) -> list[str]:
    return colour_order(c for _, c in sources(turn_of(s)))


@step
def mimic_copy(s: BareBonesState, pending: Pending, action: BareBonesAction,
               events: list[Event]) -> None:
    assert pending.index is not None and action.colour is not None
    turn_of(s).play[pending.index].mimics = action.colour
    emit(events, "mimic", f"{who(_seat(s))}'s Mimic copies a {colour_name(action.colour)} Dice "
                          "Card.", _seat(s))


@effect("odds_or_evens")
def odds_or_evens(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«After you roll, remove either all odd-numbered or all even-numbered dice»: at scoring."""


@effect("pairs")
def pairs(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«If you roll a Pair... double the values on those dice»: at scoring."""


@effect("point_pro")
def point_pro(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«On this turn, all coins you earn are automatically converted to points»: at scoring."""


@effect("rainbow")
def rainbow(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Draw 1 card.» One die a colour and the doubling come when rolling and scoring."""
    draw(s, _seat(s), _draws("rainbow"), events, "Rainbow")


@effect("re_re_roll")
def re_re_roll(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«You may re-roll 1 die up to 2 times, or re-roll 2 dice 1 time each»: two re-rolls of
    any die, used after rolling."""
    turn_of(s).rerolls += 2


def re_re_roll_die(s: BareBonesState, index: int, events: list[Event]) -> None:
    t = turn_of(s)
    t.rerolls -= 1
    old, new = reroll(s, index)
    emit(events, "reroll", f"{who(t.seat)} re-rolls {colour_name(t.dice[index].colour)} {old}: "
                           f"{new} ({counted(t.rerolls, 're-roll')} left).", t.seat)


@effect("run")
def run(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Draw 1 card.» The run is doubled at scoring."""
    draw(s, _seat(s), _draws("run"), events, "Run")


@effect("straight_cash")
def straight_cash(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«On this turn, all points you score are automatically converted to coins»: at scoring."""


@effect("swap_meet")
def swap_meet(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Return any number of cards from your hand to the Supply.»"""
    ask(s, "swap_give", swap_meet_give, card="swap_meet")


def swap_value(pending: Pending) -> int:
    return sum(CARDS[c].cost for c in pending.marked)


@step
def swap_meet_give(s: BareBonesState, pending: Pending, action: BareBonesAction,
                   events: list[Event]) -> None:
    """One card at a time back to the Supply; then «take 1 card costing up to the combined
    value of the returned card(s)»."""
    seat = _seat(s)
    if action.kind == "swap_give":
        assert action.card is not None
        card_id = take_from_hand(s.players[seat], action.card)
        return_to_supply(s, card_id)
        emit(events, "swap_give", f"{who(seat)} returns {CARDS[card_id].name} to the Supply.", seat)
        ask(s, "swap_give", swap_meet_give, card="swap_meet", marked=pending.marked + [card_id])
        return
    value = swap_value(pending)
    if not swap_take_keys(s, value):
        emit(events, "swap_take", f"{who(seat)} takes nothing: no card costs {value} or less.", seat)
        return
    ask(s, "swap_take", swap_meet_take, card="swap_meet", marked=pending.marked)


def swap_take_keys(s: BareBonesState, value: int) -> list[str]:
    return [k for k in supply_keys(s) if BY_KEY[k].cost <= value]


@step
def swap_meet_take(s: BareBonesState, pending: Pending, action: BareBonesAction,
                   events: list[Event]) -> None:
    """«This card goes directly into your hand, and may be played immediately.»"""
    assert action.card is not None
    seat = _seat(s)
    card_id = take_from_supply(s, action.card)
    s.players[seat].hand.append(card_id)
    emit(events, "swap_take", f"{who(seat)} takes {CARDS[card_id].name} into their hand.", seat)


@effect("triplets")
def triplets(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Draw 1 card.» Triplets are doubled at scoring."""
    draw(s, _seat(s), _draws("triplets"), events, "Triplets")


@effect("yard_sale")
def yard_sale(s: BareBonesState, at: int, events: list[Event]) -> None:
    """«Return a card from your hand to the Supply, in exchange for 1 coin less than its face
    value.»"""
    if not me(s).hand:
        emit(events, "yard_sale", f"{who(_seat(s))} has no card left to sell.", _seat(s))
        return
    ask(s, "yard_sale", yard_sale_sell, card="yard_sale")


@step
def yard_sale_sell(s: BareBonesState, pending: Pending, action: BareBonesAction,
                   events: list[Event]) -> None:
    """«Add this amount to your coin total for this turn» (BB-15: face value = cost)."""
    assert action.card is not None
    t = turn_of(s)
    card_id = take_from_hand(me(s), action.card)
    return_to_supply(s, card_id)
    coins = max(0, CARDS[card_id].cost - 1)
    t.sold += coins
    emit(events, "yard_sale", f"{who(t.seat)} sells {CARDS[card_id].name} to the Supply for "
                              f"{counted(coins, 'coin')}.", t.seat)


if set(PLAY) != set(ACTIONS):  # every Action Card in the data has its effect here
    raise ValueError(f"effects missing for {sorted(set(ACTIONS) - set(PLAY))}")


# -- the Dice Card abilities ---------------------------------------------------------------------


def red_draw(s: BareBonesState, events: list[Event]) -> None:
    """Red: «You may draw 1 card for every 2 Red Dice Cards you play this turn.»"""
    t = turn_of(s)
    t.red_draws += 1
    draw(s, t.seat, 1, events, "2 Red Dice Cards")


def green_reroll(s: BareBonesState, events: list[Event]) -> None:
    """Green: «You may re-roll all Green Dice once. If you do, they must all be re-rolled at the
    same time» (BB-6: once a turn, however many Green cards or Mimics)."""
    t = turn_of(s)
    t.green_used = True
    changes = []
    for index, die in enumerate(t.dice):
        if die.colour == "green":
            old, new = reroll(s, index)
            changes.append(f"{old} → {new}")
    emit(events, "green", f"{who(t.seat)} re-rolls the Green dice: {', '.join(changes)}.", t.seat)


def purple_question(s: BareBonesState) -> bool:
    """Purple: «For every Purple Dice Card you play, you may choose to roll either 1 Purple Die
    by itself, or 1 Blue Die and 1 Red Die together» (BB-10: under Double Up, Purple only)."""
    t = turn_of(s)
    if "double_up" in t.actions:
        return False
    for i, colour in sources(t):
        if colour == "purple" and t.play[i].purple is None:
            ask(s, "purple", purple_choose, index=i)
            return True
    return False


@step
def purple_choose(s: BareBonesState, pending: Pending, action: BareBonesAction,
                  events: list[Event]) -> None:
    assert pending.index is not None and action.choice is not None
    turn_of(s).play[pending.index].purple = action.choice
    if action.choice == "blue_red":
        emit(events, "purple", f"{who(_seat(s))} rolls a Blue and a Red die for a Purple Dice "
                               "Card.", _seat(s))


