"""The game's course: setup and the Draft, then each turn stage by stage.

A turn, as RULINGS 1.3 orders it: (0) bonus matching of the cards the player before left, made
by the player whose turn it now is, then the extra draws; (1) card playing; (2) dice rolling and
re-rolls; (3) scoring; (4) buying, after the old loan is repaid; then Hot Potatoes, Can't Touch
This, and cleanup with a new hand of 5. ``advance`` walks through every stage that needs no
decision and stops where a player must answer; ``decide`` takes a player's decision and
``settle`` makes every decision that has only one possible answer.
"""

from __future__ import annotations

from rules.base import Event, counted
from rules.bare_bones import effects
from rules.bare_bones.cards import (
    ACTIONS,
    CARDS,
    COLOURS,
    DICE_PER_COLOUR,
    TABLE,
    colour_name,
    face_value,
)
from rules.bare_bones.effects import (
    PLAY,
    double_up_question,
    hot_potato_question,
    purple_question,
    put_in_play,
    set_aside,
    take_back_blocks,
)
from rules.bare_bones.models import (
    DICE_CAP,
    DRAFT_ROUNDS,
    HAND_SIZE,
    HOT_POTATO_PENALTY,
    LOAN_PENALTY,
    ROUNDS,
    BareBonesAction,
    BareBonesOptions,
    BareBonesState,
    Die,
    Final,
    Pending,
    Player,
    Scored,
    Turn,
)
from rules.bare_bones.moves import drafter, legal, seat_to_act
from rules.bare_bones.scoring import ScoreOption, score_options, working
from rules.bare_bones.table import (
    STEPS,
    ask,
    blocked_values,
    colour_order,
    conversion_of,
    copies_in_play,
    dice_text,
    discard,
    draw,
    emit,
    me,
    owned_cards,
    pattern_of,
    planned_dice,
    roll_colour,
    shuffle,
    step,
    take_from_hand,
    take_from_supply,
    turn_of,
    who,
)
from rules.rng import Dice

#: a safety net for ``advance``: a turn has fewer than 10 automatic stages
_GUARD = 64
#: a safety net for ``settle``: forced answers come a few at a time
_SETTLE_GUARD = 10_000
#: BB-2 roll-offs: ties re-roll; after this many (never in practice) the lowest tied seat starts
_ROLL_OFFS = 50


# -- setup and the Draft --------------------------------------------------------------------------


def new_state(seats: int, options: BareBonesOptions, seed: int) -> BareBonesState:
    """The Supply, the box, the 7 base cards each, the play order; the Draft comes next."""
    dice = Dice(seed=seed)
    shuffler = Dice(seed=(seed * 0x9E3779B1 + 0x7F4A7C15) & ((1 << 63) - 1))
    chosen = options.fixed_set()
    if chosen is None:
        keys = [a.key for a in TABLE.actions]
        for i in range(len(keys) - 1, 0, -1):
            j = shuffler.below(i + 1)
            keys[i], keys[j] = keys[j], keys[i]
        chosen = sorted(keys[:7], key=lambda k: (ACTIONS[k].cost, ACTIONS[k].name))
    supply: dict[str, list[int]] = {kind: [] for kind in (*COLOURS, *chosen)}
    box: list[int] = []
    base: dict[str, list[int]] = {colour: [] for colour in COLOURS}
    for c in CARDS:
        if c.base:
            base[c.kind].append(c.id)
        elif c.kind in supply:
            supply[c.kind].append(c.id)
        else:
            box.append(c.id)
    players = [Player() for _ in range(seats)]
    for p in players:
        for colour, n in TABLE.base_per_player.items():
            p.draw += base[colour][:n]
            del base[colour][:n]
    for rest in base.values():  # «In a 2- or 3-player game... Put these back in the box.»
        box += rest
    order, rolls = roll_for_order(dice, seats)
    return BareBonesState(
        seats=seats, options=options, actions=list(chosen), supply=supply, box=sorted(box),
        dice_pool={colour: DICE_PER_COLOUR for colour in COLOURS}, players=players,
        order=order, order_rolls=rolls, phase="draft", dice=dice, shuffler=shuffler,
    )


def roll_for_order(dice: Dice, seats: int) -> tuple[list[int], list[list[int | None]]]:
    """«Each player rolls all 4 Blue Dice. Whoever rolls the highest total is Player 1. Play
    rotates to Player 1's left.» BB-2: the tied players roll again."""
    rolling = list(range(seats))
    rolls: list[list[int | None]] = []
    for _ in range(_ROLL_OFFS):
        totals: list[int | None] = [None] * seats
        for seat in rolling:
            totals[seat] = sum(face_value("blue", dice.roll(6)) for _ in range(4))
        rolls.append(totals)
        best = max(t for t in totals if t is not None)
        rolling = [seat for seat in rolling if totals[seat] == best]
        if len(rolling) == 1:
            break
    first = rolling[0]
    return [(first + i) % seats for i in range(seats)], rolls


def draft_pick(s: BareBonesState, key: str, events: list[Event]) -> None:
    seat = drafter(s)
    card_id = take_from_supply(s, key)
    s.players[seat].draw.append(card_id)
    s.picks.append((seat, card_id))
    emit(events, "draft", f"{who(seat)} drafts {CARDS[card_id].name}.", seat,
         card=CARDS[card_id].key, name=CARDS[card_id].name)
    if len(s.picks) == DRAFT_ROUNDS * s.seats:
        end_draft(s, events)


def end_draft(s: BareBonesState, events: list[Event]) -> None:
    """«Each player should shuffle their starting deck and deal 5 cards, face down.»"""
    for seat in s.order:
        p = s.players[seat]
        shuffle(s, p.draw)
        p.hand = [p.draw.pop() for _ in range(min(HAND_SIZE, len(p.draw)))]
    emit(events, "dealt", "The Draft is over: every player shuffles their 10 cards and draws 5.")
    s.phase = "turn"
    s.round, s.position = 1, 0
    begin_turn(s, events)


# -- a turn ---------------------------------------------------------------------------------------


def begin_turn(s: BareBonesState, events: list[Event]) -> None:
    """Can't Touch This comes back; the carried coins arrive; the bonus match is offered."""
    seat = s.order[s.position]
    take_back_blocks(s, seat, events)
    p = s.players[seat]
    t = Turn(seat=seat, round=s.round, carry_in=p.carry, offers=list(s.offer))
    p.carry = 0
    t.stage = "match" if t.offers else "play"
    s.offer = []
    s.turn = t
    emit(events, "turn", f"Round {s.round}: {who(seat)}'s turn.", seat)


def bonus_match(s: BareBonesState, colour: str, events: list[Event]) -> None:
    """«the player to their left may play a third copy of that card, face up»; BB-7: it counts
    as a Dice Card played on this turn."""
    t = turn_of(s)
    card_id = take_from_hand(me(s), colour)
    put_in_play(s, card_id, t.seat, "match")
    t.matched.append(colour)
    left_by = s.offer_from or 0
    emit(events, "match", f"{who(t.seat)} bonus matches {who(left_by)}'s "
                          f"{colour_name(colour)} Dice Cards.", t.seat, also=(left_by,),
         colour=colour)


def end_matching(s: BareBonesState, events: list[Event]) -> None:
    """«For each bonus match completed, the matching player may draw 1 extra card at the start
    of their turn.»"""
    t = turn_of(s)
    if t.matched:
        draw(s, t.seat, len(t.matched), events, "bonus matching")
    else:
        emit(events, "no_match", f"{who(t.seat)} makes no bonus match.", t.seat)
    t.stage = "play"


def play_card(s: BareBonesState, key: str, events: list[Event]) -> None:
    t = turn_of(s)
    card_id = take_from_hand(me(s), key)
    at = put_in_play(s, card_id, t.seat, "hand")
    c = CARDS[card_id]
    if c.is_dice:
        emit(events, "play", f"{who(t.seat)} plays a {c.name}.", t.seat)
        return
    t.au += c.au
    t.actions.append(c.kind)
    emit(events, "play", f"{who(t.seat)} plays {c.name} ({t.au}/5 Action Units).", t.seat)
    PLAY[c.kind](s, at, events)


def start_rolling(s: BareBonesState, events: list[Event]) -> None:
    turn_of(s).stage = "dice"


def dice_stage(s: BareBonesState, events: list[Event]) -> None:
    """Stage 2: Double Up's cards, Purple's dice, the 6-dice cap; then every die is rolled.

    Every die the cards allow is rolled: an extra die never lowers a score, so the only choices
    are the ones that change which dice are rolled."""
    t = turn_of(s)
    if "double_up" in t.actions and double_up_question(s):
        return
    if purple_question(s):
        return
    plan = planned_dice(s)
    if len(plan) > DICE_CAP:
        colours = colour_order(plan)
        if len(colours) > 1:
            ask(s, "leave_out", leave_out_die)
            return
        t.left_out += [colours[0]] * (len(plan) - DICE_CAP)
        plan = planned_dice(s)
    roll_all(s, plan, events)
    t.stage = "reroll"


@step
def leave_out_die(s: BareBonesState, pending: Pending, action: BareBonesAction,
                  events: list[Event]) -> None:
    """«If more than 6 Dice Cards are played, the player may choose up to 6 eligible dice.»"""
    assert action.colour is not None
    turn_of(s).left_out.append(action.colour)
    emit(events, "leave_out", f"{who(turn_of(s).seat)} leaves a {colour_name(action.colour)} "
                              "die out (6 dice at most).", turn_of(s).seat)


def roll_all(s: BareBonesState, plan: list[str], events: list[Event]) -> None:
    t = turn_of(s)
    for colour in plan:
        t.dice.append(Die(colour=colour, value=roll_colour(s, colour)))
        s.dice_pool[colour] -= 1
    t.rolled = True
    emit(events, "roll", f"{who(t.seat)} rolls {dice_text((d.colour, d.value) for d in t.dice)}.",
         t.seat)


def stop_rerolling(s: BareBonesState, events: list[Event]) -> None:
    turn_of(s).stage = "score"


def score_stage(s: BareBonesState, events: list[Event]) -> None:
    """Stage 3: with a pattern card, the player chooses among the distinct results (BB-8)."""
    t = turn_of(s)
    options = score_options([(d.colour, d.value) for d in t.dice], pattern_of(t),
                            blocked_values(s, t.seat), conversion_of(t), s.options.run_multiple)
    if len(options) > 1:
        ask(s, "pattern", choose_pattern, card=pattern_card(t), options=options)
        return
    settle_score(s, options[0], events)


def pattern_card(t: Turn) -> str | None:
    pattern = pattern_of(t)
    return next((k for k in t.actions if ACTIONS[k].pattern == pattern), None) if pattern else None


@step
def choose_pattern(s: BareBonesState, pending: Pending, action: BareBonesAction,
                   events: list[Event]) -> None:
    assert action.index is not None
    settle_score(s, pending.options[action.index], events)


def settle_score(s: BareBonesState, option: ScoreOption, events: list[Event]) -> None:
    """Points go on the sheet; coins are counted; then, as Stage 4 begins, last turn's loan is
    repaid from the coins earned this turn, never from a new loan (BB-13), and every coin still
    owed costs 2 points."""
    t, p = turn_of(s), me(s)
    blocked = blocked_values(s, t.seat)
    conversion = conversion_of(t)
    dice = [(d.colour, d.value) for d in t.dice]
    t.scored = Scored(option=option, conversion=conversion, blocked=blocked,
                      working=working(dice, option, blocked, conversion))
    emit(events, "score", f"{who(t.seat)} scores {counted(option.points, 'point')} and "
                          f"{counted(option.coins, 'coin')}: {t.scored.working}.", t.seat,
         points=option.points, coins=option.coins)
    earned = option.coins + t.sold + t.carry_in
    owed = p.loan
    t.repaid = min(owed, earned)
    t.penalty = LOAN_PENALTY * (owed - t.repaid)
    p.loan = 0
    if owed:
        short = owed - t.repaid
        emit(events, "repay", f"{who(t.seat)} repays {t.repaid} of the {counted(owed, 'coin')} "
                              "borrowed" + (f" and loses {t.penalty} points for the "
                                            f"{counted(short, 'coin')} still owed." if short else "."),
             t.seat)
    t.coins = earned - t.repaid + t.loaned
    p.score += option.points - t.penalty
    t.stage = "buy"


def buy(s: BareBonesState, key: str, events: list[Event]) -> None:
    """«Cards a player buys in this stage go directly on top of their discard pile.»"""
    t = turn_of(s)
    card_id = take_from_supply(s, key)
    discard(s, t.seat, [card_id])
    t.spent += CARDS[card_id].cost
    t.bought.append(CARDS[card_id].kind)
    emit(events, "buy", f"{who(t.seat)} buys {CARDS[card_id].name} for "
                        f"{counted(CARDS[card_id].cost, 'coin')}.", t.seat,
         card=CARDS[card_id].key, name=CARDS[card_id].name, cost=CARDS[card_id].cost)


def end_buying(s: BareBonesState, events: list[Event]) -> None:
    t = turn_of(s)
    left = t.coins - t.spent
    if left:
        fate = "kept for next turn (Keep the Change)" if t.keep_change else "lost"
        emit(events, "unspent", f"{who(t.seat)}'s {counted(left, 'unspent coin')}: {fate}.", t.seat)
    t.stage = "potato"


def end_turn(s: BareBonesState, events: list[Event]) -> None:
    """Cleanup: dice back to the Supply (Can't Touch This keeps its own), borrowed cards back
    to their owner's hand, Hot Potatoes where they were sent, play area and hand to the discard
    pile, a new hand of 5 («even after a player's final turn»). The sheet gets its row."""
    t, p = turn_of(s), me(s)
    seat = t.seat
    for die in t.dice:
        s.dice_pool[die.colour] += 1
    t.dice = []
    set_aside(s, events)
    copies = copies_in_play(t)
    offer = [colour for colour in COLOURS if copies[colour] == 2]
    kept_potatoes: list[int] = []
    for played in t.play:
        if played.owner != seat:
            s.players[played.owner].hand.append(played.card)
        elif played.potato_to is not None and played.potato_to >= 0:
            s.players[played.potato_to].draw.append(played.card)
        elif played.potato_to is not None:
            kept_potatoes.append(played.card)
    hand, p.hand = p.hand, []
    discard(s, seat, hand)
    discard(s, seat, [x.card for x in t.play if x.owner == seat and x.potato_to is None])
    discard(s, seat, kept_potatoes)  # «on top of your discard pile»
    t.play = []
    draw(s, seat, HAND_SIZE, events, "a new hand")
    p.carry = t.coins - t.spent if t.keep_change else 0
    p.loan = t.loaned
    points = (t.scored.option.points if t.scored else 0) - t.penalty
    p.sheet.append((t.round, points, p.score, t.penalty, p.carry, t.loaned))
    p.turns += 1
    s.turn = None
    s.position += 1
    if s.position == s.seats:
        s.position, s.round = 0, s.round + 1
    if s.round > ROUNDS:
        finish(s, events)
        return
    s.offer, s.offer_from = offer, seat
    if offer:
        emit(events, "offer", f"{who(seat)} leaves exactly 2 "
                              f"{' and 2 '.join(colour_name(c) for c in offer)} Dice Cards: "
                              f"{who(s.order[s.position])} may bonus match.", seat)
    begin_turn(s, events)


def final_of(s: BareBonesState, seat: int) -> Final:
    """BB-13, BB-17: subtotal + FPV of every owned card − 15 a Hot Potato − 2 a coin owed."""
    owned = owned_cards(s, seat)
    p = s.players[seat]
    fpv = sum(CARDS[c].fpv for c in owned)
    potatoes = sum(1 for c in owned if CARDS[c].kind == "hot_potato")
    total = p.score + fpv - HOT_POTATO_PENALTY * potatoes - LOAN_PENALTY * p.loan
    return Final(seat=seat, subtotal=p.score, fpv=fpv, potatoes=potatoes, loan=p.loan,
                 total=total, cards=len(owned))


def finish(s: BareBonesState, events: list[Event]) -> None:
    s.phase = "over"
    s.turn, s.pending, s.offer, s.offer_from = None, None, [], None
    s.finals = [final_of(s, seat) for seat in range(s.seats)]
    for f in s.finals:
        extra = ""
        if f.potatoes:
            extra += f" − {HOT_POTATO_PENALTY * f.potatoes} (Hot Potato)"
        if f.loan:
            extra += f" − {LOAN_PENALTY * f.loan} (loan)"
        emit(events, "final", f"{who(f.seat)}: {f.subtotal} points + {f.fpv} for cards{extra} = {f.total}.",
             f.seat, subtotal=f.subtotal, fpv=f.fpv, deducted=f.deducted, total=f.total)


def advance(s: BareBonesState, events: list[Event]) -> None:
    """Go through every stage that needs nobody, until a player must decide or the game ends."""
    for _ in range(_GUARD):
        if s.phase != "turn" or s.pending is not None:
            return
        t = turn_of(s)
        if t.stage == "dice":
            dice_stage(s, events)
        elif t.stage == "score":
            score_stage(s, events)
        elif t.stage == "potato":
            if not hot_potato_question(s):
                end_turn(s, events)
        else:
            return
    raise AssertionError("the turn did not settle")



# -- a player's decision ----------------------------------------------------------------------

#: what a decision that changes nothing on the table by itself is called in the log
_QUIET = {
    "roll": "is done playing cards",
    "rerolls_done": "is done re-rolling",
    "purple": "rolls a Purple die for a Purple Dice Card",
    "full_house": "takes Full House's second roll",
    "fh_mark": "picks a die to roll again",
    "loan_more": "looks at larger loans",
    "buy_done": "is done buying",
}


def decide(s: BareBonesState, action: BareBonesAction, events: list[Event],
           said_by_player: bool = True) -> None:
    """One decision on a copied state, then every stage that follows by itself. A decision a
    player made leaves at least one line in the log; one made for them because it was the only
    one possible says nothing unless something happened."""
    seat = seat_to_act(s)
    said = len(events)
    _take(s, action, events)
    if len(events) == said and seat is not None and said_by_player:
        emit(events, action.kind, f"{who(seat)} {_QUIET.get(action.kind, 'decides')}.", seat)
    advance(s, events)


def _take(s: BareBonesState, action: BareBonesAction, events: list[Event]) -> None:
    kind = action.kind
    if s.phase == "draft":
        assert action.card is not None
        draft_pick(s, action.card, events)
    elif s.pending is not None:
        pending, s.pending = s.pending, None
        STEPS[pending.resume](s, pending, action, events)
    elif kind == "match":
        assert action.colour is not None
        bonus_match(s, action.colour, events)
    elif kind == "no_match":
        end_matching(s, events)
    elif kind == "play":
        assert action.card is not None
        play_card(s, action.card, events)
    elif kind == "red_draw":
        effects.red_draw(s, events)
    elif kind == "roll":
        start_rolling(s, events)
    elif kind == "green":
        effects.green_reroll(s, events)
    elif kind == "reroll":
        assert action.die is not None
        effects.re_re_roll_die(s, action.die, events)
    elif kind == "full_house":
        effects.full_house_second_roll(s, events)
    elif kind == "rerolls_done":
        stop_rerolling(s, events)
    elif kind == "buy":
        assert action.card is not None
        buy(s, action.card, events)
    elif kind == "buy_done":
        end_buying(s, events)
    else:
        raise AssertionError(kind)


def settle(s: BareBonesState, events: list[Event]) -> None:
    """A decision with one possible answer is no decision: make it at once."""
    for _ in range(_SETTLE_GUARD):
        if s.phase == "over":
            return
        options = legal(s)
        if len(options) != 1:
            return
        decide(s, options[0], events, said_by_player=False)
    raise AssertionError("forced moves did not settle")
