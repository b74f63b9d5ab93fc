"""Bare Bones engine: the components, setup and the Draft, the rulebook's worked examples and
RULINGS 1.4, and a scripted turn for every Action Card and Dice Card ability with the dice
forced and every question answered as an action (BB-1 to BB-17)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence

import pytest
from pydantic import ValidationError

from rules.base import Chooser, Event, GameError, IllegalAction
from rules.bare_bones import (
    ACTIONS,
    BY_KEY,
    CARDS,
    DICE,
    DICE_CARDS,
    ENGINE,
    SUGGESTED,
    TABLE,
    BareBonesOptions,
    BareBonesState,
    BareBonesView,
    action,
    action_label,
    rules_summary,
    score_options,
    scoresheet_lines,
    working,
)
from rules.bare_bones.cards import COLOURS_BY_KEY, CardTable, DiceTable, load_cards
from rules.bare_bones.view import sheet_rows
from rules.bare_bones.models import Final, SheetColumn, SheetRow

# -- staging ----------------------------------------------------------------------------------------

#: Actions to fill a custom Supply of 7 around the ones a test needs
FILLER = ("greed", "re_re_roll", "pairs", "double_up", "joyride", "yard_sale", "keep_the_change",
          "loan_shark", "swap_meet")


def options(*needed: str, **extra: object) -> BareBonesOptions:
    """A custom Supply holding the Actions ``needed`` and others to make 7."""
    keys = list(dict.fromkeys(needed))
    for key in FILLER:
        if len(keys) < 7 and key not in keys:
            keys.append(key)
    return BareBonesOptions(action_set="custom", custom_actions=keys, **extra)  # type: ignore[arg-type]


def after_draft(seats: int, *needed: str, seed: int = 1, **extra: object) -> BareBonesState:
    """A game at the first turn of round 1, the Draft made by timeouts (a Green Dice Card each
    pick)."""
    state = ENGINE.new_game(seats, options(*needed, **extra), seed)
    while state.phase == "draft":
        state, _ = ENGINE.on_timeout(state, ENGINE.to_act(state)[0])
    return state


def fetch(state: BareBonesState, key: str) -> int:
    """A card of ``key`` taken from the Supply, else from the box."""
    kind = BY_KEY[key].kind
    for card_id in reversed(state.supply.get(kind, [])):
        if CARDS[card_id].key == key:
            state.supply[kind].remove(card_id)
            return card_id
    card_id = next(c for c in state.box if CARDS[c].key == key)
    state.box.remove(card_id)
    return card_id


def arrange(state: BareBonesState, seat: int, hand: Sequence[str] = (),
            draw: Sequence[str] = (), discard: Sequence[str] = (), only: bool = False) -> None:
    """Exactly ``hand`` in the seat's hand, ``draw`` on top of its draw pile (first drawn
    first), ``discard`` as its discard pile. Its own cards are used where they fit, the Supply
    gives the rest; its other cards stay at the bottom of the draw pile, or with ``only`` go
    back to the Supply."""
    p = state.players[seat]
    pool = p.hand + p.draw + p.discard
    p.hand, p.draw, p.discard = [], [], []

    def take(key: str) -> int:
        for card_id in pool:
            if CARDS[card_id].key == key:
                pool.remove(card_id)
                return card_id
        return fetch(state, key)

    p.hand = [take(k) for k in hand]
    top = [take(k) for k in draw]
    p.discard = [take(k) for k in discard]
    if only:
        for card_id in pool:
            state.supply[CARDS[card_id].kind].append(card_id)
        pool = []
    p.draw = pool + list(reversed(top))


def face(colour: str, value: int) -> int:
    """The face position (1-6) showing ``value`` on a die of ``colour``."""
    return COLOURS_BY_KEY[colour].faces.index(value) + 1


def force(state: BareBonesState, *dice: tuple[str, int]) -> None:
    state.dice.forced = [face(colour, value) for colour, value in dice]


def seat_of(state: BareBonesState) -> int:
    return ENGINE.to_act(state)[0]


def act(state: BareBonesState, kind: str, **fields: object) -> tuple[BareBonesState, list[Event]]:
    return ENGINE.apply(state, seat_of(state), action(kind, **fields))


def play(state: BareBonesState, *keys: str) -> tuple[BareBonesState, list[Event]]:
    events: list[Event] = []
    for key in keys:
        state, more = act(state, "play", card=key)
        events += more
    return state, events


def kinds(state: BareBonesState) -> list[str]:
    return [a.kind for a in ENGINE.legal_actions(state, seat_of(state))]


def offered(state: BareBonesState, kind: str) -> list[object]:
    """The values a legal action of ``kind`` is offered with (card, colour, seat, amount...)."""
    found = []
    for a in ENGINE.legal_actions(state, seat_of(state)):
        if a.kind == kind:
            found.append(next((v for v in (a.card, a.colour, a.seat, a.amount, a.die, a.index,
                                           a.choice) if v is not None), None))
    return found


SCORE = re.compile(r"scores (-?\d+) points? and (-?\d+) coins?")


def scored(events: Iterable[Event]) -> tuple[int, int]:
    """(points, coins) of the one score event among ``events``."""
    found = [SCORE.search(e.text) for e in events if e.kind == "score"]
    assert len(found) == 1 and found[0] is not None, [e.text for e in events]
    return int(found[0][1]), int(found[0][2])


def keys_of(cards: Iterable[int]) -> list[str]:
    return sorted(CARDS[c].key for c in cards)


def texts(events: Iterable[Event]) -> str:
    return "\n".join(e.text for e in events)


def end_turn(state: BareBonesState) -> tuple[BareBonesState, list[Event]]:
    """The rest of the turn by its defaults: nothing more played or bought."""
    return ENGINE.on_timeout(state, seat_of(state))


def to_play(state: BareBonesState) -> BareBonesState:
    """Past any bonus match the player before left (a test arranging this turn's hand)."""
    if state.turn is not None and state.turn.stage == "match":
        state, _ = act(state, "no_match")
    return state


def staged(seats: int, hand: Sequence[str], *needed: str, draw: Sequence[str] = (),
           dice: Sequence[tuple[str, int]] = (), seed: int = 1, **extra: object
           ) -> tuple[BareBonesState, int]:
    """The first turn of a game, with this hand for the seat to act and these dice forced."""
    state = after_draft(seats, *needed, seed=seed, **extra)
    seat = seat_of(state)
    arrange(state, seat, hand, draw)
    force(state, *dice)
    return state, seat


def after_a_block(value: int, hand: Sequence[str], *needed: str) -> tuple[BareBonesState, int]:
    """The second seat's turn, holding ``hand``, after the first seat's Can't Touch This (Red)
    rolled ``value``: that number is blocked for it (BB-12)."""
    state, p1 = staged(2, ["cant_touch_this_red", "white"], "cant_touch_this", *needed)
    p2 = 1 - p1
    arrange(state, p2, hand)
    state, _ = play(state, "cant_touch_this_red")
    force(state, ("white", 3), ("red", value))  # the turn's White die, then the card's
    state, _ = play(state, "white")
    state, _ = act(state, "buy_done")
    assert [(b.owner, b.value) for b in state.blocks] == [(p1, value)] and seat_of(state) == p2
    return to_play(state), p2


# -- components ---------------------------------------------------------------------------------------


def test_the_components_are_the_rulebooks() -> None:
    faces = {c.key: list(c.faces) for c in DICE.colours}
    assert faces == {"blue": [1, 1, 1, 2, 3, 4], "red": [1, 2, 3, 3, 4, 5],
                     "green": [2, 2, 2, 5, 5, 5], "white": [2, 3, 3, 3, 4, 5],
                     "yellow": [2, 4, 4, 4, 4, 6], "purple": [4, 4, 5, 5, 6, 6],
                     "black": [5, 5, 6, 6, 6, 6]}
    assert [c.key for c in DICE.colours if c.currency == "coins"] == ["white"]
    assert {d.colour: (d.cost, d.fpv) for d in DICE_CARDS.values()} == {
        "blue": (4, 2), "red": (5, 3), "green": (6, 4), "white": (6, 0), "yellow": (8, 4),
        "purple": (10, 5), "black": (12, 6)}
    assert {k: (a.cost, a.au) for k, a in ACTIONS.items()} == {
        "cant_touch_this": (6, 2), "color_cubed": (7, 3), "double_up": (6, 2),
        "full_house": (8, 4), "greed": (9, 1), "hot_potato": (5, 2), "joyride": (6, 1),
        "keep_the_change": (5, 1), "loan_shark": (4, 1), "mimic": (8, 2),
        "odds_or_evens": (7, 3), "pairs": (7, 3), "point_pro": (4, 1), "rainbow": (7, 3),
        "re_re_roll": (3, 2), "run": (7, 3), "straight_cash": (4, 1), "swap_meet": (6, 2),
        "triplets": (7, 3), "yard_sale": (5, 1)}
    # RULINGS 1.1: 140 Action + 49 Supply Dice Cards + 28 base (12 Blue, 16 White) = 217
    assert len(CARDS) == 217
    assert sum(not c.is_dice for c in CARDS) == 140
    assert sum(c.is_dice and not c.base for c in CARDS) == 49
    assert sorted(c.key for c in CARDS if c.base) == ["blue"] * 12 + ["white"] * 16
    ctt = sorted(c.colour or "" for c in CARDS if c.kind == "cant_touch_this")
    assert ctt == sorted(COLOURS_BY_KEY)  # one card per colour version
    # every multiplier costs 3 AU and Full House 4: one a turn
    assert {a.au for a in ACTIONS.values() if a.pattern and a.key != "full_house"} == {3}
    assert [SUGGESTED[k].name for k in SUGGESTED] == ["Bare Bones Basics", "Interplay",
                                                       "Money, Money", "Many Paths"]


def test_the_draft_allows_what_bb3_lists() -> None:
    from rules.bare_bones.cards import draftable_kind

    actions = sorted(k for k in ACTIONS if draftable_kind(k, False))
    assert actions == sorted(["re_re_roll", "loan_shark", "point_pro", "straight_cash",
                              "hot_potato", "keep_the_change", "yard_sale", "cant_touch_this",
                              "double_up", "joyride", "swap_meet"])
    assert [c for c in DICE_CARDS if draftable_kind(c, False)] == ["blue", "red", "green"]
    assert [c for c in DICE_CARDS if draftable_kind(c, True)] == ["blue", "red", "green", "white"]


def test_bad_component_data_is_refused() -> None:
    data = TABLE.model_dump(mode="json")
    data["total_cards"] = 216
    with pytest.raises(ValidationError, match="add up to 217"):
        CardTable.model_validate(data)
    data = TABLE.model_dump(mode="json")
    data["suggested_sets"][0]["cards"][0] = "pairs"  # Pairs twice in Basics
    with pytest.raises(ValidationError):
        CardTable.model_validate(data)
    dice = DICE.model_dump(mode="json")
    dice["colours"][0]["faces"] = [1, 1, 1, 2, 3, 7]
    with pytest.raises(ValidationError):
        DiceTable.model_validate(dice)
    assert load_cards() == TABLE


def test_options_name_action_sets() -> None:
    assert BareBonesOptions().fixed_set() == sorted(
        SUGGESTED["basics"].cards, key=lambda k: (ACTIONS[k].cost, ACTIONS[k].name))
    custom = BareBonesOptions(action_set="custom", custom_actions=[
        "Can't Touch This", "Jayride", "re-re-roll", "Odds or Evens", "point_pro", "MIMIC",
        "Full House"])
    assert custom.custom_actions == ["re_re_roll", "point_pro", "cant_touch_this", "joyride",
                                     "odds_or_evens", "full_house", "mimic"]
    for bad in (["pairs"] * 7, ["pairs", "run"], ["pairs", "run", "greed", "mimic", "rainbow",
                                                   "triplets", "not a card"]):
        with pytest.raises(ValidationError):
            BareBonesOptions(action_set="custom", custom_actions=bad)
    with pytest.raises(ValidationError):
        BareBonesOptions(custom_actions=["pairs"] * 7)
    with pytest.raises(GameError):
        ENGINE.new_game(5, BareBonesOptions(), seed=1)
    assert ENGINE.seat_range(BareBonesOptions()) == (2, 4)


# -- setup and the Draft ------------------------------------------------------------------------------


def test_setup_lays_out_the_supply_the_box_and_the_base_cards() -> None:
    state = ENGINE.new_game(3, BareBonesOptions(action_set="interplay"), seed=4)
    assert state.phase == "draft"
    assert list(state.supply) == ["blue", "red", "green", "white", "yellow", "purple", "black",
                                  "hot_potato", "yard_sale", "cant_touch_this", "joyride",
                                  "swap_meet", "run", "full_house"]
    assert state.actions == list(state.supply)[7:]  # low to high cost
    assert all(len(stack) == 7 for stack in state.supply.values())
    # 13 Actions not in play, and the base cards 3 players do not need, go back in the box
    assert len(state.box) == 13 * 7 + (12 - 9) + (16 - 12)
    for p in state.players:
        assert keys_of(p.draw) == ["blue"] * 3 + ["white"] * 4 and not p.hand
    assert state.dice_pool == {c: 4 for c in COLOURS_BY_KEY}


def test_the_order_is_set_by_the_blue_dice_and_ties_roll_again() -> None:
    # seat totals 4+4+4+4 = 16, 1+1+1+1 = 4, 16: seats 1 and 3 tie and roll again: 4, 7
    from rules.bare_bones.flow import roll_for_order
    from rules.rng import Dice

    dice = Dice(seed=1, forced=[face("blue", 4)] * 4 + [1] * 4 + [face("blue", 4)] * 4
                + [1] * 4 + [face("blue", 3), face("blue", 2), 1, 1])
    order, rolls = roll_for_order(dice, 3)
    assert rolls == [[16, 4, 16], [4, None, 7]]
    assert order == [2, 0, 1]  # Player 1, then to the left


def test_a_random_action_set_is_7_different_cards_from_the_seed() -> None:
    sets = {tuple(ENGINE.new_game(2, BareBonesOptions(action_set="random"), seed).actions)
            for seed in range(20)}
    assert len(sets) > 10
    assert all(len(set(s)) == 7 and set(s) <= set(ACTIONS) for s in sets)
    assert ENGINE.new_game(2, BareBonesOptions(action_set="random"), 3).actions == \
        ENGINE.new_game(2, BareBonesOptions(action_set="random"), 3).actions


def test_the_draft_goes_round_three_times_from_player_one() -> None:
    state = ENGINE.new_game(3, BareBonesOptions(), seed=9)
    first = state.order[0]
    drafters = []
    while state.phase == "draft":
        seat = seat_of(state)
        drafters.append(seat)
        offered_keys = offered(state, "draft")
        assert "white" not in offered_keys and "yellow" not in offered_keys
        assert all(BY_KEY[k].cost <= 6 for k in offered_keys)
        assert set(offered_keys) == {"blue", "red", "green", "re_re_roll", "double_up", "joyride"}
        view = ENGINE.view(state, None)
        assert view.draft is not None and view.draft.drafter == seat
        pick = offered_keys[len(drafters) % len(offered_keys)]
        state, events = act(state, "draft", card=pick)
        assert events[0].text == f"Seat {seat + 1} drafts {BY_KEY[pick].name}."
    assert drafters == state.order * 3 and drafters[0] == first
    for p in state.players:
        assert len(p.hand) == 5 and len(p.draw) == 5 and not p.discard
    assert state.phase == "turn" and seat_of(state) == first and state.round == 1


def test_white_may_be_drafted_with_the_option_and_a_timeout_drafts_green() -> None:
    state = ENGINE.new_game(2, BareBonesOptions(draft_white=True), seed=2)
    assert "white" in offered(state, "draft")
    seat = seat_of(state)
    state, events = ENGINE.on_timeout(state, seat)
    assert CARDS[state.players[seat].draw[-1]].key == "green"
    assert "ran out of time" in events[0].text and seat_of(state) != seat


# -- the rulebook's worked examples and RULINGS 1.4 ----------------------------------------------------

BASIC = [("red", 4), ("blue", 2), ("white", 4), ("white", 5)]


def test_bbg1_the_basic_roll() -> None:
    assert [(o.points, o.coins) for o in score_options(BASIC, None)] == [(6, 9)]
    state, _ = staged(2, ["red", "blue", "white", "white"], dice=BASIC)
    state, events = play(state, "red", "blue", "white", "white")  # the last play rolls
    assert scored(events) == (6, 9)
    assert state.turn is not None and state.turn.scored is not None
    assert state.turn.scored.working == "4 Red + 2 Blue = 6 points; 4 White + 5 White = 9 coins"
    assert state.turn.coins == 9 and state.turn.stage == "buy"


def test_bbg2_pairs_doubles_the_red_and_white_fours() -> None:
    assert [(o.points, o.coins) for o in score_options(BASIC, "pairs")] == [(10, 13)]
    state, _ = staged(2, ["pairs", "red", "blue", "white", "white"], "pairs", dice=BASIC)
    state, events = play(state, "pairs", "red", "blue", "white", "white")
    assert scored(events) == (10, 13)
    assert state.turn is not None and state.turn.scored is not None
    assert state.turn.scored.working == ("(4 x 2) Red + 2 Blue = 10 points; "
                                         "(4 x 2) White + 5 White = 13 coins")


def test_bbg3_pairs_with_a_choice_and_no_choice_of_doubling_nothing() -> None:
    roll = [("yellow", 4), ("yellow", 4), ("white", 4)]
    assert sorted((o.points, o.coins) for o in score_options(roll, "pairs")) == [(12, 8), (16, 4)]
    for want in ((16, 4), (12, 8)):
        state, seat = staged(2, ["pairs", "yellow", "yellow", "white"], "pairs", dice=roll)
        state, _ = play(state, "pairs", "yellow", "yellow", "white")
        assert state.pending is not None and state.pending.kind == "pattern"
        results = [(o.points, o.coins) for o in state.pending.options]
        assert sorted(results) == [(12, 8), (16, 4)]  # (8, 4), doubling nothing, is no choice
        state, events = act(state, "pattern", index=results.index(want))
        assert scored(events) == want
        assert state.players[seat].score == want[0]


def test_bbg4_odds_or_evens_and_its_erratum() -> None:
    options_ = {o.label: o for o in score_options(BASIC, "odds_or_evens")}
    odds = options_["remove the even dice, double the odds"]
    evens = options_["remove the odd dice, double the evens"]
    assert (odds.points, odds.coins) == (0, 10)
    assert (evens.points, evens.coins) == (12, 8)
    # the rulebook prints «(4 x 2) Red + (4 x 2) Blue»; the Blue die shows 2 (RULINGS 1.4)
    assert working(BASIC, evens).startswith("(4 x 2) Red + (2 x 2) Blue = 12 points")
    state, _ = staged(2, ["odds_or_evens", "red", "blue", "white", "white"], "odds_or_evens",
                      dice=BASIC)
    state, _ = play(state, "odds_or_evens", "red", "blue", "white", "white")
    assert state.pending is not None and state.pending.kind == "pattern"
    index = [o.label for o in state.pending.options].index("remove the odd dice, double the evens")
    state, events = act(state, "pattern", index=index)
    assert scored(events) == (12, 8)


def test_bbg5_bonus_matching_two_sets_draws_two() -> None:
    state, p1 = staged(2, ["red", "red", "blue", "blue", "white"],
                       dice=[("red", 1), ("red", 1), ("blue", 1), ("blue", 1)])
    p2 = 1 - p1
    arrange(state, p2, ["red", "blue", "green", "white", "white"], draw=["yellow", "black"])
    state, _ = play(state, "red", "red", "blue", "blue")
    state, events = act(state, "roll")  # 4 points, no coins: nothing to buy, the turn ends
    assert f"Seat {p1 + 1} leaves exactly 2 Blue and 2 Red Dice Cards" in texts(events)
    assert seat_of(state) == p2 and state.turn is not None and state.turn.stage == "match"
    assert offered(state, "match") == ["blue", "red"] and kinds(state)[-1] == "no_match"
    state, _ = act(state, "match", colour="red")
    state, events = act(state, "match", colour="blue")  # the last match ends the matching
    assert "draws 2 cards (bonus matching)" in texts(events)
    assert keys_of(state.players[p2].hand) == ["black", "green", "white", "white", "yellow"]
    assert state.turn is not None and state.turn.stage == "play"
    assert [CARDS[x.card].key for x in state.turn.play] == ["red", "blue"]


def test_bbg6_the_sample_scoresheet() -> None:
    """The rulebook's sheet: each round's points and total, coin notes, FPV and totals. Every
    total follows from the one before except P1's round 10 (92 + 8 is 100, printed 98)."""
    printed = {  # round: [(points, total, note)] for J., C., A.
        1: [(8, 8, ""), (7, 7, ""), (7, 7, "")],
        2: [(4, 12, ""), (10, 17, ""), (3, 10, "")],
        3: [(7, 19, "+2"), (11, 28, ""), (9, 19, "")],
        4: [(11, 30, ""), (4, 32, ""), (2, 21, "+3")],
        5: [(5, 35, ""), (6, 38, ""), (11, 32, "")],
        6: [(21, 56, ""), (5, 43, "+5"), (5, 37, "")],
        7: [(12, 68, ""), (17, 60, ""), (9, 46, "")],
        8: [(4, 72, "-8"), (4, 64, ""), (9, 55, "")],
        9: [(20, 92, ""), (18, 82, ""), (7, 62, "+7")],
        10: [(8, 98, ""), (5, 87, ""), (21, 83, "")],
        11: [(8, 106, ""), (21, 108, "-3"), (13, 96, "")],
        12: [(17, 123, ""), (17, 125, ""), (15, 111, "")],
    }
    fpv, totals = [45, 31, 29], [168, 156, 140]
    mismatches = []
    for player in range(3):
        running = 0
        for r in range(1, 13):
            points, total, _ = printed[r][player]
            if running + points != total:
                mismatches.append((player + 1, r, running + points, total))
            running = total
    assert mismatches == [(1, 10, 100, 98)]  # the erratum, and nothing else
    assert sum(printed[r][0][0] for r in printed) == 125  # P1's turns add up to P2's 125
    finals = [Final(seat=n, subtotal=printed[12][n][1], fpv=fpv[n], potatoes=0, loan=0,
                    total=printed[12][n][1] + fpv[n], cards=20) for n in range(3)]
    assert [f.total for f in finals] == totals
    # the same sheet drawn by the engine's scoresheet: rows as the rulebook writes them
    view = ENGINE.view(ENGINE.new_game(3, BareBonesOptions(), seed=1), None)
    view.order = [0, 1, 2]
    view.sheet = [SheetColumn(seat=n, rows=[
        SheetRow(round=r, points=printed[r][n][0], total=printed[r][n][1],
                 notes=[printed[r][n][2]] if printed[r][n][2] else []) for r in range(1, 13)],
        final=finals[n]) for n in range(3)]
    view.finals = finals
    lines = scoresheet_lines(view, ["J.", "C.", "A."])
    assert lines[3].split() == ["3", "7", "19", "+2", "11", "28", "9", "19"]
    assert lines[8].split() == ["8", "4", "72", "-8", "4", "64", "9", "55"]
    assert lines[-2].split() == ["Cards", "+", "45", "+", "31", "+", "29"]
    assert lines[-1].split() == ["Total", "168", "156", "140"]
    outcome = ENGINE.outcomes(_with_finals(3, finals))
    assert [o.rank for o in outcome] == [1, 2, 3]


def _with_finals(seats: int, finals: list[Final]) -> BareBonesState:
    state = ENGINE.new_game(seats, BareBonesOptions(), seed=1)
    state.finals = finals
    return state


# -- the Action Cards, A to Z -------------------------------------------------------------------------


def test_cant_touch_this_blocks_its_number_for_the_others_until_its_owners_next_turn() -> None:
    state, p1 = staged(2, ["cant_touch_this_red", "white"], "cant_touch_this", "pairs")
    p2 = 1 - p1
    arrange(state, p2, ["pairs", "white", "white", "red", "blue", "blue"])
    state, _ = play(state, "cant_touch_this_red")
    assert state.turn is not None and state.turn.au == 2
    force(state, ("white", 3), ("red", 4))  # the turn's White die, then Can't Touch This's die
    state, events = play(state, "white")  # the last card: the roll follows
    state, more = act(state, "buy_done")
    events += more
    assert "Can't Touch This rolls Red 4: until their next turn nobody else scores a 4" in texts(events)
    assert [(b.owner, b.colour, b.value) for b in state.blocks] == [(p1, "red", 4)]
    assert state.dice_pool["red"] == 3  # the die on the card is out of play
    assert ENGINE.view(state, None).players[p1].aside[0].key == "cant_touch_this_red"
    # Seat 2: a 4 on any die, points or coins, scores nothing and makes no pair (BB-12)
    force(state, ("white", 4), ("white", 3), ("red", 4), ("blue", 3), ("blue", 1))
    assert seat_of(state) == p2
    state = to_play(state)
    state, events = play(state, "pairs", "white", "white", "red", "blue", "blue")
    assert scored(events) == (3 * 2 + 1, 3 * 2)  # the 3s pair; the 4s neither score nor pair
    assert "White 4 blocked, Red 4 blocked" in texts(events)
    view = ENGINE.view(state, None)
    assert [d.blocked for d in view.turn.dice] == [True, False, True, False, False]  # type: ignore[union-attr]
    state, _ = end_turn(state)
    # Seat 1's next turn: the die goes back, the card to the discard pile
    assert seat_of(state) == p1 and not state.blocks and state.dice_pool["red"] == 4
    assert CARDS[state.players[p1].discard[-1]].key == "cant_touch_this_red"


def test_cant_touch_this_never_blocks_its_owner_and_is_one_name_when_buying() -> None:
    state, p1 = staged(2, ["white", "white", "white", "red"], "cant_touch_this",
                       dice=[("white", 5), ("white", 5), ("white", 4), ("red", 4)])
    state.blocks = []
    from rules.bare_bones.models import Block

    own = next(c for c in state.supply["cant_touch_this"] if CARDS[c].colour == "blue")
    state.supply["cant_touch_this"].remove(own)
    state.blocks.append(Block(owner=p1, card=own, colour="blue", value=4))
    state.dice_pool["blue"] = 3
    state, events = play(state, "white", "white", "white", "red")
    assert scored(events) == (4, 14)  # its owner's own 4s count
    versions = [k for k in offered(state, "buy") if str(k).startswith("cant_touch_this")]
    assert len(versions) == 6  # every version left, Blue's being aside
    state, _ = act(state, "buy", card="cant_touch_this_green")
    assert not [k for k in offered(state, "buy") if str(k).startswith("cant_touch_this")]


def test_color_cubed_doubles_every_colour_rolled_three_times() -> None:
    roll = [("white", 3), ("white", 3), ("white", 4), ("blue", 1), ("blue", 2), ("red", 3)]
    assert [(o.points, o.coins) for o in score_options(roll, "color_cubed")] == [(6, 20)]
    # BB-9: Purple's Blue and Red are a Blue and a Red die: with 2 Blue cards, 3 Blue dice
    state, seat = staged(2, ["color_cubed", "purple", "blue", "blue"], "color_cubed",
                         draw=["yellow"])
    state, events = play(state, "color_cubed")
    assert "draws 1 card (Color Cubed)" in texts(events)
    assert "yellow" in keys_of(state.players[seat].hand)
    state, _ = play(state, "purple", "blue", "blue")
    state, _ = act(state, "roll")
    assert state.pending is not None and state.pending.kind == "purple"
    force(state, ("blue", 2), ("red", 3), ("blue", 3), ("blue", 4))
    state, events = act(state, "purple", choice="blue_red")
    assert scored(events) == ((2 + 3 + 4) * 2 + 3, 0)


def test_color_cubed_counts_a_blocked_die_toward_its_three_but_it_still_scores_nothing() -> None:
    # BB-12: the blocked Red 4 was rolled, so Red has 3 dice; the other two Reds double
    roll = [("red", 4), ("red", 2), ("red", 3), ("blue", 1)]
    [option] = score_options(roll, "color_cubed", blocked=[4])
    assert (option.doubled, option.points, option.coins) == ((1, 2), (2 + 3) * 2 + 1, 0)
    roll = [("white", 5), ("white", 3), ("white", 3), ("red", 5)]  # coins too; a 5 on Red as well
    assert [(o.points, o.coins) for o in score_options(roll, "color_cubed", blocked=[5])] == [(0, 12)]
    state, seat = after_a_block(4, ["color_cubed", "red", "red", "red"], "color_cubed")
    state, _ = play(state, "color_cubed", "red", "red", "red")
    force(state, ("red", 4), ("red", 2), ("red", 3))
    state, events = act(state, "roll")
    assert scored(events) == ((2 + 3) * 2, 0)
    assert "(2 x 2) Red + (3 x 2) Red = 10 points; 0 coins (Red 4 blocked)" in texts(events)


def test_double_up_rolls_two_dice_for_two_chosen_cards_and_no_others() -> None:
    state, seat = staged(2, ["double_up", "red", "blue", "white", "double_up"], "double_up")
    state, _ = play(state, "double_up", "red", "blue")
    assert "double_up" not in [BY_KEY[str(k)].kind for k in offered(state, "play")]  # BB-10
    state, _ = play(state, "white")  # nothing else may be played: the roll begins
    assert state.pending is not None and state.pending.kind == "double_up"
    assert offered(state, "double_up") == ["blue", "red", "white"]
    state, _ = act(state, "double_up", colour="red")
    assert offered(state, "double_up") == ["blue", "white"]
    force(state, ("red", 5), ("red", 4), ("white", 5), ("white", 2))
    state, events = act(state, "double_up", colour="white")
    assert scored(events) == (9, 7)
    assert state.turn is not None and [d.colour for d in state.turn.dice] == ["red", "red", "white", "white"]
    # the Blue card was not rolled but is still in play
    assert "blue" in [CARDS[x.card].key for x in state.turn.play]


def test_double_up_with_one_card_rolls_it_twice_and_purple_rolls_purple() -> None:
    state, _ = staged(2, ["double_up", "purple"], "double_up",
                      dice=[("purple", 6), ("purple", 4)])
    state, events = play(state, "double_up", "purple")  # no question: one card, Purple only
    assert "rolls Purple 6, Purple 4." in texts(events)
    assert scored(events) == (10, 0)


def test_full_house_reveals_plays_draws_to_five_and_rolls_twice() -> None:
    state, seat = staged(2, ["full_house", "red", "blue", "greed"], "full_house", "greed",
                         draw=["pairs", "yellow", "white", "black", "green"])
    before = list(state.players[seat].hand)
    state, events = play(state, "full_house")
    public = ENGINE.view(state, None)
    assert public.turn is not None
    assert [r.seat for r in public.turn.reveals] == [seat]
    assert sorted(c.key for c in public.turn.reveals[0].cards) == sorted(
        CARDS[c].key for c in before if CARDS[c].key != "full_house")
    assert [CARDS[x.card].key for x in state.turn.play] == [  # type: ignore[union-attr]
        "full_house", "red", "blue", "yellow", "white", "black"]
    assert CARDS[state.players[seat].discard[-1]].key == "pairs"  # the drawn Action discarded
    assert "green" in keys_of(state.players[seat].draw)  # 5 Dice Cards: the drawing stopped
    assert offered(state, "play") == ["greed"]  # 4 AU used, 1 left
    force(state, ("red", 4), ("blue", 4), ("yellow", 4), ("white", 5), ("black", 6))
    state, _ = act(state, "roll")
    assert kinds(state) == ["full_house", "rerolls_done"]
    state, _ = act(state, "full_house")
    state, _ = act(state, "fh_mark", die=4)
    assert offered(state, "fh_mark") == [0, 1, 2, 3]
    force(state, ("black", 5))
    state, events = act(state, "fh_roll")
    assert "second roll: Black 6 → 5" in texts(events)
    assert scored(events) == ((4 + 4 + 4 + 5) * 2, 10)


def test_full_house_needs_a_pair_and_a_triplet_of_different_numbers() -> None:
    five = [("red", 4), ("blue", 4), ("yellow", 4), ("white", 4), ("purple", 4)]
    assert [(o.points, o.coins) for o in score_options(five, "full_house")] == [(16, 4)]
    six = [("red", 4), ("blue", 4), ("yellow", 4), ("white", 5), ("black", 5), ("purple", 5)]
    results = sorted((o.points, o.coins) for o in score_options(six, "full_house"))
    # a triplet of 4s with two of the 5s (White among them or not), or a triplet of 5s with two
    # of the 4s: the sixth die scores once
    assert results == [(39, 10), (40, 10), (44, 5)]


def test_greed_draws_two_then_one() -> None:
    state, seat = staged(2, ["greed", "greed", "blue"], "greed", draw=["red", "yellow", "black"])
    state, events = play(state, "greed")
    assert "draws 2 cards (Greed)" in texts(events)
    assert keys_of(state.players[seat].hand) == ["blue", "greed", "red", "yellow"]
    state, events = play(state, "greed")
    assert "draws 1 card (Greed)" in texts(events)
    assert keys_of(state.players[seat].hand) == ["black", "blue", "red", "yellow"]
    assert state.turn is not None and state.turn.au == 2


def test_hot_potato_goes_on_top_of_an_opponents_draw_pile_and_costs_15() -> None:
    state, seat = staged(3, ["hot_potato", "blue"], "hot_potato", draw=["red", "green"])
    state, events = play(state, "hot_potato")
    assert "draws 2 cards (Hot Potato)" in texts(events)
    state, _ = act(state, "roll")  # no dice, no coins: straight to the Hot Potato
    assert state.pending is not None and state.pending.kind == "potato"
    others = [s for s in state.order if s != seat]
    assert offered(state, "potato") == [-1] + others
    target = others[1]
    state, events = act(state, "potato", seat=target)
    assert f"puts the Hot Potato on top of Seat {target + 1}'s draw pile" in texts(events)
    assert CARDS[state.players[target].draw[-1]].key == "hot_potato"
    from rules.bare_bones.flow import final_of

    assert final_of(state, target).potatoes == 1 and final_of(state, seat).potatoes == 0
    f = final_of(state, target)
    assert f.total == f.subtotal + f.fpv - 15


def test_two_hot_potatoes_are_told_apart() -> None:
    """Each Hot Potato played asks where it goes, so two make two events: their lines say which
    is which, not the same words twice."""
    state, seat = staged(3, ["hot_potato", "hot_potato"], "hot_potato", draw=["red", "green", "blue", "white"])
    state, _ = play(state, "hot_potato", "hot_potato")
    state, _ = act(state, "roll")
    target = [s for s in state.order if s != seat][0]
    state, first = act(state, "potato", seat=target)
    state, second = act(state, "potato", seat=-1)
    told = [e.text for e in first + second if e.kind == "potato"]
    assert told == [f"Seat {seat + 1} puts their first Hot Potato on top of Seat {target + 1}'s draw pile.",
                    f"Seat {seat + 1} keeps their second Hot Potato: it goes on their discard pile."]


def test_hot_potato_may_stay_on_its_owners_discard_pile() -> None:
    state, seat = staged(2, ["hot_potato"], "hot_potato", draw=["red", "green"])
    state, _ = play(state, "hot_potato")
    state, _ = act(state, "roll")
    state, _ = act(state, "potato", seat=-1)
    assert CARDS[state.players[seat].discard[-1]].key == "hot_potato"  # on top of the pile


def test_joyride_reveals_a_hand_and_borrows_a_dice_card_for_the_turn() -> None:
    state, seat = staged(3, ["joyride", "blue"], "joyride",
                         dice=[("black", 6), ("blue", 4)])
    target = [s for s in state.order if s != seat][1]
    arrange(state, target, ["black", "black", "white", "greed", "blue"])
    state, _ = play(state, "joyride")
    assert offered(state, "joyride_seat") == [s for s in state.order if s != seat]
    state, events = act(state, "joyride_seat", seat=target)
    assert f"Seat {target + 1} reveals their hand: " in texts(events)
    public = ENGINE.view(state, None)
    assert sorted(c.key for c in public.turn.reveals[0].cards) == [  # type: ignore[union-attr]
        "black", "black", "blue", "greed", "white"]
    assert offered(state, "joyride_card") == ["blue", "white", "black"]
    state, _ = act(state, "joyride_card", colour="black")
    assert len(state.players[target].hand) == 4
    from rules.bare_bones.table import owned_cards

    assert "black" not in keys_of(owned_cards(state, seat))  # BB-16: still its owner's
    state, events = play(state, "blue")  # 10 points and no coins: the turn ends
    assert scored(events) == (10, 0) and "6 Black + 4 Blue" in texts(events)
    assert keys_of(state.players[target].hand).count("black") == 2  # back in its owner's hand
    assert len(state.players[target].hand) == 5


def test_joyride_on_a_hand_without_dice_cards_borrows_nothing() -> None:
    state, seat = staged(2, ["joyride", "blue"], "joyride")
    target = 1 - seat
    arrange(state, target, ["greed", "pairs"])
    state, events = play(state, "joyride")  # one opponent: chosen at once
    assert "holds no Dice Card: nothing to borrow" in texts(events)
    assert state.pending is None and state.turn is not None and state.turn.reveals


def test_keep_the_change_carries_unspent_coins_to_the_next_turn() -> None:
    state, seat = staged(2, ["keep_the_change", "white", "white"], "keep_the_change",
                         dice=[("white", 5), ("white", 5)])
    state, _ = play(state, "keep_the_change", "white", "white")
    state, _ = act(state, "buy", card="green")
    label = action_label(ENGINE.view(state, seat), action("buy_done"))
    assert label == "Done buying (4 coins kept)"
    state, events = act(state, "buy_done")
    assert "4 unspent coins: kept for next turn (Keep the Change)" in texts(events)
    row = sheet_rows(state.players[seat])[-1]
    assert row.notes == ["+4"] and state.players[seat].carry == 4
    state, _ = end_turn(state)  # the opponent's turn
    assert seat_of(state) == seat and state.turn is not None and state.turn.carry_in == 4
    state = to_play(state)
    arrange(state, seat, ["greed"])
    state, _ = act(state, "roll")
    assert state.turn is not None and state.turn.coins == 4  # the carried coins buy a Blue
    assert "blue" in offered(state, "buy")


def test_loan_shark_borrows_is_repaid_from_earnings_and_charges_two_a_coin_owed() -> None:
    state, seat = staged(2, ["loan_shark", "white"], "loan_shark", dice=[("white", 3)])
    state, _ = play(state, "loan_shark")
    amounts = offered(state, "loan")
    assert amounts[:4] == [0, 1, 2, 3] and 8 in amounts
    from rules.bare_bones.table import loan_cap

    assert loan_cap(state) == sum(BY_KEY[k].cost if k != "cant_touch_this" else 6 for k in state.supply)
    state, events = act(state, "loan", amount=8)
    assert "borrows 8 coins, to repay next turn" in texts(events)
    state, _ = play(state, "white")
    assert state.turn is not None and state.turn.coins == 11
    state, _ = act(state, "buy", card="yellow")
    state, _ = act(state, "buy_done")
    assert sheet_rows(state.players[seat])[-1].notes == ["-8"] and state.players[seat].loan == 8
    state, _ = end_turn(state)
    # next turn: 5 coins earned repay 5; 3 still owed cost 6 points; a new loan repays nothing
    assert seat_of(state) == seat
    state = to_play(state)
    arrange(state, seat, ["loan_shark", "white"])
    force(state, ("white", 5))
    score = state.players[seat].score
    state, _ = play(state, "loan_shark")
    state, _ = act(state, "loan", amount=10)
    state, events = play(state, "white")
    assert "repays 5 of the 8 coins borrowed and loses 6 points for the 3 coins still owed" in texts(events)
    assert state.players[seat].score == score - 6
    assert state.turn is not None and state.turn.coins == 10 and state.players[seat].loan == 0
    state, _ = act(state, "buy_done")
    row = sheet_rows(state.players[seat])[-1]
    assert (row.points, row.penalty, row.total, row.notes) == (-6, 6, score - 6, ["-10"])
    # a loan still open after the last round is charged at the end (BB-13)
    from rules.bare_bones.flow import final_of

    f = final_of(state, seat)
    assert f.loan == 10 and f.total == f.subtotal + f.fpv - 20


def test_loan_shark_lends_any_whole_amount_up_to_the_cap() -> None:
    """BB-13 «any amount»: 0 (nothing) and every whole number up to the cap, not round figures,
    in two steps: nothing up to the dearest card left in the Supply (Black, 12), then, asked
    for, nothing or any amount above it; an odd loan is repaid in full, the cap itself short
    and charged 2 points a coin."""
    from rules.bare_bones.table import loan_cap

    state, seat = staged(2, ["loan_shark", "white"], "loan_shark", dice=[("white", 3)])
    state, _ = play(state, "loan_shark")
    cap = loan_cap(state)
    assert offered(state, "loan") == list(range(13)) and offered(state, "loan_more") == [13]
    view = ENGINE.view(state, seat)
    assert action_label(view, action("loan_more", amount=13)) == f"Borrow more (13 to {cap})…"
    state, events = act(state, "loan_more", amount=13)
    assert state.pending is not None and state.pending.kind == "loan" and "looks at larger loans" in texts(events)
    assert offered(state, "loan") == [0, *range(13, cap + 1)] and not offered(state, "loan_more")
    view = ENGINE.view(state, seat)
    assert [action_label(view, action("loan", amount=n)) for n in (0, 17, cap)] == [
        "Borrow nothing", "Borrow 17 coins", f"Borrow {cap} coins"]
    state, events = act(state, "loan", amount=17)
    assert "borrows 17 coins, to repay next turn" in texts(events)
    state, _ = play(state, "white")
    assert state.turn is not None and state.turn.coins == 3 + 17
    state, _ = act(state, "buy_done")
    assert state.players[seat].loan == 17 and sheet_rows(state.players[seat])[-1].notes == ["-17"]
    state, _ = end_turn(state)
    # next turn: 19 coins earned repay the 17 in full; then the cap is borrowed
    assert seat_of(state) == seat
    state = to_play(state)
    arrange(state, seat, ["loan_shark", "white", "white", "white", "white"])
    score = state.players[seat].score
    state, _ = play(state, "loan_shark")
    cap = loan_cap(state)
    state, _ = act(state, "loan_more", amount=13)
    assert offered(state, "loan")[-1] == cap
    state, _ = act(state, "loan", amount=cap)
    force(state, ("white", 5), ("white", 5), ("white", 5), ("white", 4))
    state, events = play(state, "white", "white", "white", "white")
    assert "repays 17 of the 17 coins borrowed." in texts(events)
    assert state.players[seat].score == score and state.turn is not None
    assert (state.turn.repaid, state.turn.penalty, state.turn.coins) == (17, 0, 19 - 17 + cap)
    state, _ = act(state, "buy_done")
    assert state.players[seat].loan == cap
    state, _ = end_turn(state)
    # the turn after: 3 coins repay 3 of the cap; the rest costs 2 points a coin
    assert seat_of(state) == seat
    state = to_play(state)
    arrange(state, seat, ["white"])
    force(state, ("white", 3))
    state, events = play(state, "white")
    assert (f"repays 3 of the {cap} coins borrowed and loses {2 * (cap - 3)} points for the "
            f"{cap - 3} coins still owed") in texts(events)
    assert state.players[seat].score == score - 2 * (cap - 3) and state.players[seat].loan == 0


def test_mimic_copies_a_dice_card_with_its_ability_and_for_matching() -> None:
    state, seat = staged(2, ["mimic", "red", "blue", "white"], "mimic", draw=["yellow"])
    assert "mimic" not in offered(state, "play")  # nothing in play to copy
    state, _ = play(state, "red", "blue", "mimic")
    assert offered(state, "mimic") == ["blue", "red"]
    state, _ = act(state, "mimic", colour="red")
    assert "red_draw" in kinds(state)  # a Red and a Mimic of it: 2 Red Dice Cards
    state, events = act(state, "red_draw")
    assert "draws 1 card (2 Red Dice Cards)" in texts(events)
    assert "red_draw" not in kinds(state)
    force(state, ("red", 5), ("blue", 1), ("red", 4))
    state, events = act(state, "roll")  # 10 points, no coins: the turn ends
    assert "rolls Red 5, Blue 1, Red 4." in texts(events)
    assert "leaves exactly 2 Red Dice Cards" in texts(events)  # the Mimic counts


def test_odds_or_evens_must_remove_one_parity() -> None:
    roll = [("red", 3), ("blue", 1), ("white", 5)]
    results = {o.label: (o.points, o.coins) for o in score_options(roll, "odds_or_evens")}
    assert results == {"remove the even dice, double the odds": (8, 10),
                       "remove the odd dice, double the evens": (0, 0)}


def test_pairs_doubles_as_many_disjoint_pairs_as_the_dice_allow() -> None:
    roll = [("red", 3), ("blue", 3), ("white", 3), ("white", 3), ("green", 5), ("green", 5)]
    assert [(o.points, o.coins) for o in score_options(roll, "pairs")] == [(32, 12)]
    # patterns read numbers, not colours, and a triple makes one pair: which two is the choice
    roll = [("red", 2), ("white", 2), ("blue", 2)]
    assert sorted((o.points, o.coins) for o in score_options(roll, "pairs")) == [(6, 4), (8, 2)]


def test_point_pro_and_straight_cash_convert_the_dice_and_exclude_each_other() -> None:
    state, _ = staged(2, ["point_pro", "straight_cash", "red", "white"], "point_pro",
                      "straight_cash", dice=[("red", 4), ("white", 5)])
    state, _ = play(state, "point_pro")
    assert "straight_cash" not in offered(state, "play")
    state, events = play(state, "red", "white")
    assert scored(events) == (9, 0)
    assert state.turn is None or state.turn.coins == 0
    state, seat = staged(2, ["straight_cash", "yard_sale", "red", "white", "blue"],
                         "straight_cash", "yard_sale", dice=[("red", 4), ("white", 5)])
    state, _ = play(state, "straight_cash")
    assert "point_pro" not in offered(state, "play")
    state, _ = play(state, "yard_sale")
    state, _ = act(state, "sell", card="blue")  # 3 coins: not dice, not converted (BB-14)
    state, events = play(state, "red", "white")
    assert scored(events) == (0, 9)
    assert state.turn is not None and state.turn.coins == 12


def test_rainbow_rolls_one_die_a_colour_and_doubles_three_or_more() -> None:
    state, seat = staged(2, ["rainbow", "blue", "blue", "red", "white"], "rainbow",
                         draw=["green"])
    state, events = play(state, "rainbow")
    assert "draws 1 card (Rainbow)" in texts(events)
    force(state, ("blue", 3), ("red", 2), ("white", 4), ("green", 5))
    state, events = play(state, "blue", "blue", "red", "white", "green")
    assert state.turn is not None
    assert [d.colour for d in state.turn.dice] == ["blue", "red", "white", "green"]
    state, events = act(state, "rerolls_done")  # the Green die may be re-rolled first
    assert scored(events) == ((3 + 2 + 5) * 2, 8)
    assert [(o.points, o.coins) for o in score_options([("blue", 3), ("white", 4)], "rainbow")] == [(3, 4)]


def test_rainbow_counts_a_blocked_die_toward_its_three_but_it_still_scores_nothing() -> None:
    # BB-12: 3 dice were rolled, one of them blocked: the other two double, the blocked one is 0
    roll = [("red", 4), ("blue", 2), ("white", 3)]
    [option] = score_options(roll, "rainbow", blocked=[4])
    assert (option.doubled, option.points, option.coins) == ((1, 2), 2 * 2, 3 * 2)
    assert [(o.points, o.coins) for o in score_options(roll[1:], "rainbow", blocked=[4])] == [(2, 3)]
    state, seat = after_a_block(4, ["rainbow", "red", "blue", "white"], "rainbow")
    state, _ = play(state, "rainbow", "red", "blue", "white")
    force(state, ("red", 4), ("blue", 2), ("white", 3))
    state, events = act(state, "roll")
    assert scored(events) == (2 * 2, 3 * 2)
    assert "(2 x 2) Blue = 4 points; (3 x 2) White = 6 coins (Red 4 blocked)" in texts(events)


def test_re_re_roll_rerolls_one_die_twice_or_two_dice_once() -> None:
    state, _ = staged(2, ["re_re_roll", "red", "blue"], "re_re_roll",
                      dice=[("red", 1), ("blue", 1), ("red", 2), ("red", 5)])
    state, _ = play(state, "re_re_roll", "red", "blue")
    assert kinds(state) == ["reroll", "reroll", "rerolls_done"]
    state, events = act(state, "reroll", die=0)
    assert "re-rolls Red 1: 2 (1 re-roll left)" in texts(events)
    state, events = act(state, "reroll", die=0)
    assert scored(events) == (6, 0)
    state, _ = staged(2, ["re_re_roll", "red", "blue"], "re_re_roll",
                      dice=[("red", 1), ("blue", 1), ("red", 5), ("blue", 4)])
    state, _ = play(state, "re_re_roll", "red", "blue")
    state, _ = act(state, "reroll", die=0)
    state, events = act(state, "reroll", die=1)
    assert scored(events) == (9, 0)


def test_run_doubles_one_whole_run_and_the_option_several() -> None:
    state, seat = staged(2, ["run", "red", "blue", "white", "green"], "run", draw=["yellow"],
                         dice=[("red", 3), ("blue", 2), ("white", 4), ("green", 5), ("yellow", 6)])
    state, events = play(state, "run")
    assert "draws 1 card (Run)" in texts(events)
    state, _ = play(state, "red", "blue", "white", "green", "yellow")
    state, events = act(state, "rerolls_done")
    assert scored(events) == ((3 + 2 + 5 + 6) * 2, 8)  # 2-3-4-5-6, the White 4 among them
    roll = [("white", 4), ("red", 4), ("blue", 3), ("blue", 2)]
    assert sorted((o.points, o.coins) for o in score_options(roll, "run")) == [(14, 8), (18, 4)]
    # a run stops only where the numbers do: 2-3-4-5 is one run of four
    assert [(o.points, o.coins) for o in score_options(
        [("red", 3), ("blue", 2), ("white", 4), ("green", 5)], "run")] == [(20, 8)]
    two_runs = [("red", 1), ("red", 2), ("red", 3), ("blue", 1), ("blue", 2), ("blue", 3)]
    assert [o.points for o in score_options(two_runs, "run")] == [18]
    assert [o.points for o in score_options(two_runs, "run", run_multiple=True)] == [24]


def test_swap_meet_returns_cards_and_takes_one_worth_their_total() -> None:
    state, seat = staged(2, ["swap_meet", "blue", "white", "greed"], "swap_meet")
    blues = len(state.supply["blue"])
    state, _ = play(state, "swap_meet")
    assert offered(state, "swap_give") == ["blue", "white", "greed"]
    state, _ = act(state, "swap_give", card="blue")
    state, _ = act(state, "swap_give", card="white")
    assert len(state.supply["blue"]) == blues + 1  # BB-15: a base card goes back on its stack
    assert action_label(ENGINE.view(state, seat), action("swap_done")) == \
        "Done returning: take a card costing up to 10"
    state, _ = act(state, "swap_done")
    takes = offered(state, "swap_take")
    assert "purple" in takes and "black" not in takes
    state, events = act(state, "swap_take", card="purple")
    assert "takes Purple Dice Card into their hand" in texts(events)
    assert keys_of(state.players[seat].hand) == ["greed", "purple"]
    assert "purple" in offered(state, "play")  # it may be played at once


def test_triplets_doubles_a_triplet_and_leaves_the_fourth_die() -> None:
    roll = [("white", 4), ("yellow", 4), ("red", 4), ("blue", 4), ("green", 5)]
    results = sorted((o.points, o.coins) for o in score_options(roll, "triplets"))
    assert results == [(25, 8), (29, 4)]
    state, _ = staged(2, ["triplets", "red"], "triplets", draw=["blue"])
    state, events = play(state, "triplets")
    assert "draws 1 card (Triplets)" in texts(events)


def test_yard_sale_sells_a_card_for_one_coin_less_than_its_cost() -> None:
    state, seat = staged(2, ["yard_sale", "white", "blue"], "yard_sale")
    whites = len(state.supply["white"])
    state, _ = play(state, "yard_sale")
    assert offered(state, "sell") == ["blue", "white"]
    state, events = act(state, "sell", card="white")
    assert "sells White Dice Card to the Supply for 5 coins" in texts(events)
    assert len(state.supply["white"]) == whites + 1
    force(state, ("blue", 1))
    state, _ = play(state, "blue")
    assert state.turn is not None and state.turn.coins == 5


# -- the Dice Card abilities ----------------------------------------------------------------------------


def test_red_draws_one_card_for_every_two_red_dice_cards() -> None:
    state, seat = staged(2, ["red", "red", "red", "red", "blue"], draw=["yellow", "black"])
    state, _ = play(state, "red")
    assert "red_draw" not in kinds(state)
    state, _ = play(state, "red")
    state, _ = act(state, "red_draw")
    assert "red_draw" not in kinds(state)
    state, _ = play(state, "red", "red")
    state, _ = act(state, "red_draw")
    assert keys_of(state.players[seat].hand) == ["black", "blue", "yellow"]
    assert "red_draw" not in kinds(state)


def test_a_bonus_matched_card_counts_as_played_this_turn() -> None:
    """BB-7: it gives a die, counts for Red's draw, and can be matched in turn."""
    state, p1 = staged(2, ["red", "red", "white"], dice=[("red", 1), ("red", 1)])
    p2 = 1 - p1
    arrange(state, p2, ["red", "red", "blue"], draw=["yellow", "black"])
    state, _ = play(state, "red", "red")
    state, _ = act(state, "roll")
    assert seat_of(state) == p2 and offered(state, "match") == ["red"]
    state, events = act(state, "match", colour="red")
    assert f"bonus matches Seat {p1 + 1}'s Red Dice Cards" in texts(events)
    state, _ = play(state, "red")
    assert "red_draw" in kinds(state)  # the matched Red and this one
    force(state, ("red", 5), ("red", 4), ("blue", 2))
    state, events = play(state, "blue")
    state, events = act(state, "roll")
    assert "rolls Red 5, Red 4, Blue 2." in texts(events)
    assert "leaves exactly 2 Red Dice Cards" in texts(events)  # the match may be matched


def test_green_rerolls_all_green_dice_once_a_turn() -> None:
    state, _ = staged(2, ["green", "green", "white"],
                      dice=[("green", 2), ("green", 2), ("white", 3), ("green", 5), ("green", 5)])
    state, _ = play(state, "green", "green", "white")
    assert kinds(state) == ["green", "rerolls_done"]
    state, events = act(state, "green")
    assert "re-rolls the Green dice: 2 → 5, 2 → 5." in texts(events)
    assert scored(events) == (10, 3)  # Green once only: the scoring follows at once


def test_purple_rolls_a_purple_die_or_a_blue_and_a_red() -> None:
    state, _ = staged(2, ["purple", "purple"],
                      dice=[("purple", 6), ("blue", 4), ("red", 5)])
    state, _ = play(state, "purple", "purple")
    assert state.pending is not None and state.pending.kind == "purple"
    assert offered(state, "purple") == ["purple", "blue_red"]
    state, _ = act(state, "purple", choice="purple")
    state, events = act(state, "purple", choice="blue_red")
    assert "rolls Purple 6, Blue 4, Red 5." in texts(events)
    assert scored(events) == (15, 0)


# -- the dice, the stages and the limits ---------------------------------------------------------------


def test_bb6_draws_at_once_re_rolls_in_any_order_patterns_at_scoring() -> None:
    state, seat = staged(2, ["greed", "re_re_roll", "green", "pairs"], "greed", "re_re_roll",
                         "pairs", draw=["green", "white"],
                         dice=[("green", 2), ("green", 5), ("white", 3),  # the roll
                               ("white", 5),  # Re-Re-Roll on the White die
                               ("green", 5), ("green", 2)])  # then Green: both Green dice
    state, _ = play(state, "greed")
    assert keys_of(state.players[seat].hand) == ["green", "green", "pairs", "re_re_roll", "white"]
    state, _ = play(state, "re_re_roll", "green", "green")
    assert state.turn is not None and state.turn.au == 3 and state.turn.dice == []
    assert "pairs" not in offered(state, "play")  # 3 AU more would make 6
    state, _ = play(state, "white")  # nothing else may be played: the roll follows
    assert kinds(state) == ["green", "reroll", "reroll", "reroll", "rerolls_done"]
    state, _ = act(state, "reroll", die=2)
    state, _ = act(state, "green")
    assert kinds(state) == ["reroll", "reroll", "reroll", "rerolls_done"]  # Green once a turn
    state, events = act(state, "rerolls_done")
    assert scored(events) == (7, 5)


def test_bb9_rainbow_and_double_up_both_limit_the_dice() -> None:
    state, _ = staged(2, ["double_up", "rainbow", "red", "blue"], "double_up", "rainbow",
                      draw=["greed"], dice=[("red", 5), ("blue", 4)])
    state, events = play(state, "double_up", "rainbow", "red", "blue")  # 5 AU: Greed stays
    assert "rolls Red 5, Blue 4." in texts(events)  # 2 dice a card, then 1 a colour
    assert scored(events) == (9, 0)  # and 2 dice are too few for Rainbow's doubling


def test_bb17_the_deck_at_the_end_is_every_card_owned() -> None:
    from rules.bare_bones.flow import final_of

    state, p1 = staged(2, ["cant_touch_this_red", "joyride"], "cant_touch_this", "joyride")
    p2 = 1 - p1
    arrange(state, p2, ["black", "white"])
    before = final_of(state, p1)
    state, _ = play(state, "joyride")  # one opponent: its hand is shown, its Black borrowed
    state, _ = act(state, "joyride_card", colour="black")
    assert final_of(state, p1).fpv == before.fpv  # a borrowed card is not its borrower's
    assert final_of(state, p2).cards == 2 + len(state.players[p2].draw + state.players[p2].discard)
    state, _ = play(state, "cant_touch_this_red")  # the last card: the turn plays out
    assert seat_of(state) == p2 and [b.owner for b in state.blocks] == [p1]
    p = state.players[p1]
    assert final_of(state, p1).cards == len(p.draw + p.hand + p.discard) + 1  # the card aside
    assert final_of(state, p1).cards == before.cards


def test_six_dice_at_most_and_the_player_leaves_out_the_rest() -> None:
    state, _ = staged(2, ["blue", "blue", "red", "green", "white", "yellow", "black"],
                      dice_limit="unlimited")
    state, _ = play(state, "blue", "blue", "red", "green", "white", "yellow", "black")
    assert state.pending is not None and state.pending.kind == "leave_out"
    assert offered(state, "leave_out") == ["blue", "red", "green", "white", "yellow", "black"]
    force(state, ("blue", 1), ("red", 1), ("green", 2), ("white", 2), ("yellow", 2), ("black", 5))
    state, events = act(state, "leave_out", colour="blue")
    assert "rolls Blue 1, Red 1, Green 2, White 2, Yellow 2, Black 5." in texts(events)


def test_physical_dice_limit_the_fifth_blue_die_is_not_rolled() -> None:
    hand = ["blue"] * 5
    state, _ = staged(2, hand, dice=[("blue", 1)] * 4)
    state, events = play(state, *hand)
    assert "rolls Blue 1, Blue 1, Blue 1, Blue 1." in texts(events)  # 4 Blue dice exist
    state, _ = staged(2, hand, dice=[("blue", 1)] * 5, dice_limit="unlimited")
    state, events = play(state, *hand)
    assert "rolls Blue 1, Blue 1, Blue 1, Blue 1, Blue 1." in texts(events)


def test_action_units_dice_cards_are_free_and_actions_stop_at_five() -> None:
    state, _ = staged(2, ["pairs", "double_up", "greed", "blue", "red"], "pairs", "double_up",
                      "greed")
    state, _ = play(state, "pairs", "double_up")
    assert state.turn is not None and state.turn.au == 5
    assert offered(state, "play") == ["blue", "red"]  # Greed's 1 AU no longer fits (BB-5)


def test_buying_one_copy_a_name_onto_the_discard_pile_and_unspent_coins_are_lost() -> None:
    state, seat = staged(2, ["white", "white", "white"],
                         dice=[("white", 5), ("white", 5), ("white", 4)])
    state, _ = play(state, "white", "white", "white")
    assert state.turn is not None and state.turn.coins == 14
    assert offered(state, "buy")[:4] == ["blue", "red", "green", "white"]
    assert "black" in offered(state, "buy")
    state, events = act(state, "buy", card="yellow")
    assert CARDS[state.players[seat].discard[-1]].key == "yellow"
    assert "yellow" not in offered(state, "buy") and "black" not in offered(state, "buy")
    assert action_label(ENGINE.view(state, seat), action("buy_done")) == "Done buying (6 coins lost)"
    state, events = act(state, "buy", card="blue")  # 2 coins buy nothing: the turn ends
    assert "2 unspent coins: lost" in texts(events) and state.players[seat].carry == 0
    assert seat_of(state) != seat


def test_cleanup_draws_a_new_hand_even_when_the_game_ends() -> None:
    state = after_draft(2)
    turns = 0
    while not ENGINE.is_over(state):
        seat = seat_of(state)
        state, _ = ENGINE.on_timeout(state, seat)
        turns += 1
        if not ENGINE.is_over(state):
            assert len(state.players[seat].hand) == 5
    assert turns == 24 and all(p.turns == 12 and len(p.sheet) == 12 for p in state.players)
    assert all(len(p.hand) == 5 for p in state.players)  # after the final turn too
    for f, p in zip(state.finals, state.players, strict=True):
        rows = sheet_rows(p)
        assert f.subtotal == p.score == rows[-1].total == sum(r.points for r in rows)


def test_every_view_shows_its_own_supply_and_sheets_though_their_pieces_are_shared() -> None:
    """A view's supply stacks and sheet rows are made once per look and shared between views
    (frozen): over a whole game played by the bot, every view still reads its own state, and a
    view kept from earlier is not changed by the moves that followed."""
    state = ENGINE.new_game(3, options("keep_the_change", "loan_shark"), 1)  # a seed that does both
    choose = Chooser(random.Random(1))
    kept: list[tuple[BareBonesState, int, BareBonesView, dict[str, object]]] = []
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, choose))
        shown = ENGINE.view(state, seat)
        assert [(s.kind, s.count) for s in shown.supply] == [(k, len(v)) for k, v in state.supply.items()]
        for column, player in zip(shown.sheet, state.players, strict=True):
            assert [(r.round, r.points, r.total, r.penalty) for r in column.rows] == [e[:4] for e in player.sheet]
            assert [r.notes for r in column.rows] == [
                ([f"+{e[4]}"] if e[4] else []) + ([f"-{e[5]}"] if e[5] else []) for e in player.sheet]
        if len(kept) < 40 or ENGINE.is_over(state):
            kept.append((state, seat, shown, shown.model_dump()))
    assert sum(len(p.sheet) for p in state.players) == 36
    notes = {note[0] for p in state.players for row in sheet_rows(p) for note in row.notes}
    assert notes == {"+", "-"}, "the game carried coins and borrowed some"
    for earlier, seat, shown, dump in kept:
        assert shown.model_dump() == dump == ENGINE.view(earlier, seat).model_dump()


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state, seat = staged(2, ["blue", "pairs"], "pairs")
    dump = state.model_dump()
    for bad in (action("play", card="black"), action("buy_done"), action("draft", card="blue")):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, bad)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1 - seat, action("roll"))
    assert state.model_dump() == dump
    state2, _ = play(state, "blue")
    assert state.model_dump() == dump and state2 != state


# -- timeouts, the bot, the end -------------------------------------------------------------------------


def test_a_timeout_plays_the_dice_cards_only_and_buys_nothing() -> None:
    state, seat = staged(2, ["greed", "red", "white", "pairs", "double_up"], "greed", "pairs",
                         "double_up", dice=[("red", 3), ("white", 5)])
    state, events = ENGINE.on_timeout(state, seat)
    assert "ran out of time" in events[0].text
    assert scored(events) == (3, 5)
    row = sheet_rows(state.players[seat])[-1]
    assert (row.points, row.total) == (3, 3)
    assert not [e for e in events if e.kind in ("buy", "draw") and "new hand" not in e.text]
    assert seat_of(state) != seat
    discard = keys_of(state.players[seat].discard)
    assert discard == ["double_up", "greed", "pairs", "red", "white"]  # the Actions unplayed


def test_a_timeout_answers_a_pending_question_at_the_least_cost() -> None:
    state, seat = staged(3, ["loan_shark", "hot_potato", "white"], "loan_shark", "hot_potato",
                         draw=["blue", "blue"], dice=[("white", 4)])
    state, _ = play(state, "hot_potato", "loan_shark")
    state.players[state.order[2]].score = 50  # the leader gets the Hot Potato
    state, events = ENGINE.on_timeout(state, seat)
    assert "borrows nothing" in texts(events)
    assert CARDS[state.players[state.order[2]].draw[-1]].key == "hot_potato"
    assert state.players[seat].loan == 0


def test_the_bot_matches_plays_every_dice_card_and_buys_the_best_it_can() -> None:
    state, seat = staged(2, ["red", "blue", "white", "white", "green"])
    state.dice.forced = [6] * 5  # every die shows its highest face, whatever the order of play
    choose = Chooser(random.Random(0))
    while seat_of(state) == seat and state.turn is not None and state.turn.stage in ("play", "reroll"):
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, choose))
    assert state.turn is not None and state.turn.stage == "buy" and state.turn.coins == 10
    assert len(state.turn.play) == 5
    picks = [ENGINE.ai_action(state, seat, Chooser(random.Random(n))) for n in range(30)]
    assert all(a.kind == "buy" for a in picks)
    dice = [a.card for a in picks if BY_KEY[a.card or ""].is_dice]
    assert set(dice) == {"purple"}  # the best Dice Card 10 coins buy
    assert 10 < len(dice) < 30  # and now and then an Action instead


def test_ties_go_to_fewer_cards_then_are_shared() -> None:
    finals = [Final(seat=0, subtotal=90, fpv=30, potatoes=0, loan=0, total=120, cards=21),
              Final(seat=1, subtotal=100, fpv=20, potatoes=0, loan=0, total=120, cards=19),
              Final(seat=2, subtotal=100, fpv=20, potatoes=0, loan=0, total=120, cards=19),
              Final(seat=3, subtotal=100, fpv=0, potatoes=0, loan=0, total=100, cards=10)]
    outcome = ENGINE.outcomes(_with_finals(4, finals))
    assert [(o.seat, o.rank, o.score) for o in outcome] == [(0, 3, 120), (1, 1, 120),
                                                            (2, 1, 120), (3, 4, 100)]


# -- words for players ----------------------------------------------------------------------------------


def test_labels_and_the_rules_text() -> None:
    state, seat = staged(3, ["joyride", "loan_shark", "red", "yard_sale"], "joyride",
                         "loan_shark", "yard_sale")
    view = ENGINE.view(state, seat)
    labels = [action_label(view, a) for a in ENGINE.legal_actions(state, seat)]
    assert labels == ["Play Red", "Play Loan Shark (1 Action Unit)", "Play Yard Sale (1 Action Unit)",
                      "Play Joyride (1 Action Unit)", "Done playing: roll the dice"]
    state, _ = play(state, "loan_shark")
    view = ENGINE.view(state, seat)
    assert view.pending is not None and view.pending.prompt.endswith("how many coins to borrow (Loan Shark).")
    assert [action_label(view, a) for a in ENGINE.legal_actions(state, seat)][:3] == [
        "Borrow nothing", "Borrow 1 coin", "Borrow 2 coins"]
    for o in (BareBonesOptions(), BareBonesOptions(action_set="random", draft_white=True,
                                                   dice_limit="unlimited", run_multiple=True),
              options("mimic", "full_house", "rainbow")):
        text = rules_summary(o)
        assert len(text) < 4096 and not re.search(r"\bBB-?\d", text)
        assert "12 rounds" in text and "Hot Potato" in text
    assert "Pairs" in rules_summary(BareBonesOptions())
    from rules.bare_bones import card_help, card_short

    assert card_short("cant_touch_this_green").startswith("Before cleanup roll a Green die")
    assert all(len(card_short(c.key)) <= 100 for c in CARDS)
    assert card_help("mimic").startswith("**Mimic**: 8 coins, 2 Action Units\nMimic acts as a copy")
    assert card_help("black").startswith("**Black Dice Card**: 12 coins, worth 6 points at the end\n")
    assert "separate runs" in rules_summary(BareBonesOptions(run_multiple=True))


# -- what a cog reads: figures, not words ---------------------------------------------------------------


def test_the_events_a_table_tells_carry_their_seats_and_figures() -> None:
    """The channel's story and headline are told from kind, seats and figures, never from the
    log's English: a Draft pick, the score, a buy, a Hot Potato."""
    state = ENGINE.new_game(2, options(), 1)
    drafter = seat_of(state)
    state, events = ENGINE.apply(state, drafter, ENGINE.legal_actions(state, drafter)[0])
    pick = next(e for e in events if e.kind == "draft")
    assert pick.seats == (drafter,) and pick.data == {"card": "blue", "name": "Blue Dice Card"}

    state, seat = staged(3, ["hot_potato", "white", "white", "blue"], "hot_potato",
                         draw=["red", "green"], dice=[("white", 5), ("white", 4)])
    state, _ = play(state, "hot_potato", "white", "white")
    state, events = act(state, "roll")
    score = next(e for e in events if e.kind == "score")
    assert score.seats == (seat,) and score.data == {"points": 0, "coins": 9}
    state, events = act(state, "buy", card="yellow")  # 1 coin left buys nothing: on to the potato
    bought = next(e for e in events if e.kind == "buy")
    assert bought.seats == (seat,)
    assert bought.data == {"card": "yellow", "name": "Yellow Dice Card", "cost": 8}
    target = [s for s in state.order if s != seat][1]
    state, events = act(state, "potato", seat=target)
    potato = next(e for e in events if e.kind == "potato")
    assert potato.seats == (seat, target) and potato.data == {"to": target}


def test_a_block_and_a_bonus_match_name_their_seats() -> None:
    state, p1 = staged(2, ["cant_touch_this_red", "red", "red", "white"], "cant_touch_this",
                       dice=[("red", 1), ("red", 1), ("red", 4)])
    p2 = 1 - p1
    arrange(state, p2, ["red", "blue", "blue"])
    state, _ = play(state, "cant_touch_this_red", "red", "red")
    state, events = act(state, "roll")  # 2 points, no coins: nothing to buy, the turn ends
    block = next(e for e in events if e.kind == "block")
    assert block.seats == (p1,) and block.data == {"colour": "red", "value": 4}
    assert seat_of(state) == p2 and offered(state, "match") == ["red"]
    state, events = act(state, "match", colour="red")
    match = next(e for e in events if e.kind == "match")
    assert match.seats == (p2, p1) and match.data == {"colour": "red"}


def test_scramble_hidden_changes_only_what_the_viewer_may_not_see() -> None:
    state = after_draft(3)
    rng = random.Random(5)
    for viewer in (None, 0, 1, 2):
        twin = ENGINE.scramble_hidden(state, viewer, rng)
        assert twin is not state and ENGINE.view(twin, viewer) == ENGINE.view(state, viewer)
        for seat, (p, q) in enumerate(zip(state.players, twin.players, strict=True)):
            assert sorted(p.hand + p.draw) == sorted(q.hand + q.draw) and len(p.hand) == len(q.hand)
            if seat == viewer:
                assert q.hand == p.hand  # one's own hand is no secret to oneself
        assert twin.players != state.players  # something hidden did change
    assert ENGINE.view(state, 0) == ENGINE.view(after_draft(3), 0)  # the input is untouched


def test_a_final_says_what_hot_potatoes_and_a_loan_take_off() -> None:
    f = Final(seat=0, subtotal=90, fpv=30, potatoes=2, loan=3, total=84, cards=21)
    assert f.deducted == 2 * 15 + 3 * 2 == f.subtotal + f.fpv - f.total
