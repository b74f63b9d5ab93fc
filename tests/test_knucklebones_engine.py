"""Knucklebones engine: forced-dice unit tests, the RULINGS.md golden cases, and simulations
that check the section 4.5 invariants after every step."""

from __future__ import annotations

import re

import random
from collections.abc import Sequence

import pytest
from pydantic import ValidationError

from rules.base import Chooser, GameError, IllegalAction
from rules.knucklebones import (
    ENGINE,
    ITEMS,
    SHEET,
    Die,
    KnucklebonesAction,
    KnucklebonesOptions,
    KnucklebonesState,
    KnucklebonesView,
    ScoreItem,
    ScoreSheet,
    action_label,
    best_item,
    evaluate,
    event_text,
    hand_of,
    hand_points,
    rules_summary,
    start_turn,
    timeout_item,
    totals,
)

A = KnucklebonesAction


def staged(faces: Sequence[int], *, seats: int = 2, then: Sequence[int] = (), **options: object
           ) -> tuple[KnucklebonesState, list[str]]:
    """The current seat's turn with exactly ``faces`` rolled on dice 1..len(faces); ``then`` are
    the rolls that follow (rerolls, added dice, the next turn)."""
    state = ENGINE.new_game(seats, KnucklebonesOptions(**options), seed=7)  # type: ignore[arg-type]
    for die in state.pool:
        die.active, die.face = die.id < len(faces), None
    state.dice.forced = [*faces, *then]
    state, events = start_turn(state)
    return state, [e.text for e in events]


def dice(*faces: int, doubled: Sequence[int] = (), spent: Sequence[int] = ()) -> list[Die]:
    """Dice by position; ``doubled``/``spent`` hold positions."""
    return [Die(id=i, face=f, active=True, doubled=doubled.count(i), spent=i in spent)
            for i, f in enumerate(faces)]


def act(state: KnucklebonesState, action: A) -> tuple[KnucklebonesState, list[str]]:
    new, events = ENGINE.apply(state, state.current, action)
    return new, [e.text for e in events]


def faces(state: KnucklebonesState) -> list[int | None]:
    return [d.face for d in state.pool]


def active_count(state: KnucklebonesState) -> int:
    return sum(d.active for d in state.pool)


# -- setting up ------------------------------------------------------------------------------


def test_new_game_five_active_two_inactive_and_a_random_start() -> None:
    starts = set()
    for seed in range(40):
        state = ENGINE.new_game(4, KnucklebonesOptions(), seed)
        assert all(d.active for d in state.pool[:5]) and 5 <= active_count(state) <= 7  # 3s add
        assert state.turn == 1 and state.current == state.start_seat
        assert all(v is None for sheet in state.sheets for v in sheet.values())
        starts.add(state.start_seat)
    assert starts == {0, 1, 2, 3}


def test_seat_counts() -> None:
    with pytest.raises(GameError):
        ENGINE.new_game(1, KnucklebonesOptions(), 1)
    with pytest.raises(GameError):
        ENGINE.new_game(7, KnucklebonesOptions(), 1)
    assert ENGINE.new_game(1, KnucklebonesOptions(solo=True), 1).seats == 1
    assert ENGINE.min_seats == 1 and ENGINE.max_seats == 6


def test_options_are_validated() -> None:
    with pytest.raises(ValidationError):
        KnucklebonesOptions(min_active=0)
    with pytest.raises(ValidationError):
        KnucklebonesOptions(min_active=6)
    assert KnucklebonesOptions().min_active == 5


def test_same_seed_same_game() -> None:
    a = ENGINE.new_game(3, KnucklebonesOptions(), 99)
    assert a == ENGINE.new_game(3, KnucklebonesOptions(), 99)


# -- the 2: reroll ---------------------------------------------------------------------------


def test_a_two_may_reroll_another_die() -> None:
    state, events = staged([2, 1, 1, 5, 6], then=[1])
    assert events == [f"Seat {state.current + 1} rolled 2 1 1 5 6"]
    assert state.phase == "reroll" and state.pending == 0
    legal = ENGINE.legal_actions(state, state.current)
    assert legal[0] == A(kind="skip_reroll", die=0)
    assert [a.target for a in legal[1:]] == [1, 2, 3, 4]
    state, events = act(state, A(kind="reroll", die=0, target=3))
    assert faces(state)[:5] == [2, 1, 1, 1, 6]
    assert state.pool[0].spent and state.phase == "score"
    assert events == [f"Seat {state.current + 1} spent a 2 (die 1) to reroll die 4: 5 -> 1"]
    assert evaluate(state.pool, "four_kind") == 0  # the spent 2 no longer counts ...
    assert evaluate(state.pool, "three_kind") == 10
    assert evaluate(state.pool, "wild") == 1 + 1 + 1 + 6  # ... not even for Wild


def test_a_kept_two_scores_as_a_two() -> None:
    state, _ = staged([2, 2, 1, 1, 1])
    state, events = act(state, A(kind="skip_reroll", die=0))
    assert events[0].endswith("kept the 2 on die 1")
    assert state.phase == "reroll" and state.pending == 1  # the next 2 asks in turn
    targets = [a.target for a in ENGINE.legal_actions(state, state.current)[1:]]
    assert targets == [0, 2, 3, 4]  # a kept die is not spent: it may still be rerolled
    state, _ = act(state, A(kind="skip_reroll", die=1))
    assert state.phase == "score"
    assert evaluate(state.pool, "full_house") == 20


def test_a_lone_two_has_nothing_to_reroll() -> None:
    state, events = staged([2], seats=2, min_active=1)
    assert state.phase == "score"
    assert events[-1].endswith("2 on die 1 has no other die to reroll")


def test_a_spent_die_cannot_be_rerolled_or_doubled() -> None:
    state, _ = staged([2, 2, 4, 1, 1], then=[1])
    state, _ = act(state, A(kind="reroll", die=0, target=4))  # die 1 spent
    assert state.pending == 1
    assert 0 not in [a.target for a in ENGINE.legal_actions(state, state.current)]
    state, _ = act(state, A(kind="skip_reroll", die=1))
    assert state.phase == "double" and state.pending == 2
    assert [a.target for a in ENGINE.legal_actions(state, state.current)[1:]] == [1, 3, 4]


# -- the 3: add and roll ---------------------------------------------------------------------


def test_a_three_adds_and_rolls_an_inactive_die() -> None:
    state, events = staged([3, 1, 1, 1, 6], then=[5])
    assert state.phase == "score"
    assert active_count(state) == 6 and state.pool[5].face == 5 and state.pool[5].active
    assert events[1].endswith("3 on die 1 added die 6, which rolled 5")
    assert evaluate(state.pool, "wild") == 3 + 1 + 1 + 1 + 6 + 5  # the 3 itself still scores


def test_a_three_with_no_inactive_die_is_skipped() -> None:
    state, events = staged([3, 1, 1, 1, 1, 1, 1])
    assert active_count(state) == 7 and state.phase == "score"
    assert events[1].endswith("3 on die 1 found no inactive die to add")


# -- chaining: lowest rune first, new dice bring their own rune ------------------------------


def test_an_added_two_acts_before_a_waiting_four() -> None:
    state, events = staged([4, 3, 1, 1, 1], then=[2, 6])
    assert events[1].endswith("3 on die 2 added die 6, which rolled 2")
    assert state.phase == "reroll" and state.pending == 5  # the new 2 before the old 4
    state, _ = act(state, A(kind="reroll", die=5, target=0))  # the 4 becomes a 6
    assert state.phase == "score" and state.pool[0].face == 6


def test_a_rerolled_die_triggers_its_own_rune() -> None:
    state, _ = staged([2, 1, 1, 1, 1], then=[3, 4])
    state, events = act(state, A(kind="reroll", die=0, target=1))
    assert events == [
        f"Seat {state.current + 1} spent a 2 (die 1) to reroll die 2: 1 -> 3",
        f"Seat {state.current + 1}'s 3 on die 2 added die 6, which rolled 4",
    ]
    assert state.phase == "double" and state.pending == 5
    assert [a.target for a in ENGINE.legal_actions(state, state.current)[1:]] == [1, 2, 3, 4]


def test_runes_resolve_lowest_first_then_by_position() -> None:
    state, _ = staged([4, 3, 2, 4, 1], then=[1])
    assert state.phase == "reroll" and state.pending == 2  # 2 before 3 before 4
    state, events = act(state, A(kind="skip_reroll", die=2))
    assert "3 on die 2 added die 6" in events[1]  # the 3 was automatic
    assert state.phase == "double" and state.pending == 0  # then the 4s, die 1 first
    state, _ = act(state, A(kind="skip_double", die=0))
    assert state.pending == 3


# -- the 4: double ---------------------------------------------------------------------------


def test_a_doubled_die_counts_twice_for_kinds_and_for_wild() -> None:
    state, _ = staged([4, 6, 6, 6, 1])
    assert state.phase == "double" and state.pending == 0
    state, events = act(state, A(kind="double", die=0, target=1))
    assert events[0].endswith("spent a 4 (die 1) to double die 2 (a 6)")
    assert state.pool[1].doubled == 1 and state.pool[0].spent
    assert evaluate(state.pool, "four_kind") == 20
    assert evaluate(state.pool, "five_kind") == 0
    assert evaluate(state.pool, "wild") == 6 * 2 + 6 + 6 + 1
    seat = state.current
    state, events = act(state, A(kind="score", item="four_kind"))
    assert state.sheets[seat]["four_kind"] == 20
    assert events[0] == f"Seat {seat + 1} scored Four of a Kind for 20"


def test_each_die_is_doubled_at_most_once_unless_stacking() -> None:
    state, _ = staged([4, 4, 5, 5, 1])
    state, _ = act(state, A(kind="double", die=0, target=2))
    assert state.pending == 1
    assert [a.target for a in ENGINE.legal_actions(state, state.current)[1:]] == [3, 4]

    state, _ = staged([4, 4, 5, 5, 1], stack_doubles=True)
    state, _ = act(state, A(kind="double", die=0, target=2))
    assert [a.target for a in ENGINE.legal_actions(state, state.current)[1:]] == [2, 3, 4]
    state, _ = act(state, A(kind="double", die=1, target=2))
    assert state.pool[2].doubled == 2
    assert evaluate(state.pool, "five_kind") == 40  # 5 x4 plus another 5
    assert evaluate(state.pool, "wild") == 5 * 4 + 5 + 1


def test_a_four_with_no_target_is_skipped() -> None:
    state, events = staged([4, 4], min_active=1)
    state, events = act(state, A(kind="double", die=0, target=1))
    assert state.phase == "score"
    assert events[-1].endswith("4 on die 2 has no other die to double")


# -- after scoring: 5s then 6s ---------------------------------------------------------------


def test_kb2_seven_dice_a_five_and_a_six_leave_six_active() -> None:
    state, _ = staged([1, 1, 1, 1, 1, 5, 6], then=[1] * 6)
    seat = state.current
    state, events = act(state, A(kind="score", item="five_kind"))
    assert state.sheets[seat]["five_kind"] == 40
    assert events[1].endswith("5 on die 6 found no inactive die to add")
    assert events[2].endswith("6 on die 7 removed itself")
    assert active_count(state) == 6
    assert events[3] == f"Seat {state.current + 1} rolled 1 1 1 1 1 1"


def test_a_five_adds_a_die_that_is_rolled_next_turn() -> None:
    state, _ = staged([5, 1, 1, 1, 1], then=[2, 2, 2, 2, 2, 6])
    state, events = act(state, A(kind="score", item="four_kind"))
    assert events[1].endswith("5 on die 1 added die 6 to the active dice")
    assert active_count(state) == 6
    assert events[2].endswith("rolled 2 2 2 2 2 6")


def test_sixes_stop_at_the_floor() -> None:
    state, events = staged([6, 6, 1, 1, 1], then=[1] * 5)
    state, events = act(state, A(kind="score", item="three_kind"))
    assert active_count(state) == 5
    assert events[1].endswith("6 on die 1 stays: 5 active dice is the least allowed")
    assert events[2].endswith("6 on die 2 stays: 5 active dice is the least allowed")

    state, _ = staged([6, 6, 1, 1, 1], then=[1] * 4, min_active=4)
    state, events = act(state, A(kind="score", item="three_kind"))
    assert active_count(state) == 4
    assert events[1].endswith("6 on die 1 removed itself") and "stays" in events[2]


def test_spends_and_doubles_end_with_the_turn() -> None:
    state, _ = staged([4, 6, 1, 1, 1], then=[1] * 5)
    state, _ = act(state, A(kind="double", die=0, target=1))
    state, _ = act(state, A(kind="score", item="three_kind"))
    assert all(not d.spent and d.doubled == 0 for d in state.pool)
    assert active_count(state) == 5  # the 6 was doubled, but 5 is the floor


# -- the score sheet -------------------------------------------------------------------------


def test_sheet_is_kb1() -> None:
    assert [(i.key, i.points) for i in SHEET.items] == [
        ("two_pairs", 10), ("three_kind", 10), ("full_house", 20), ("four_kind", 20),
        ("all_different", 30), ("five_kind", 40), ("wild", "sum"),
    ]


@pytest.mark.parametrize(("roll", "item", "points"), [
    (dice(1, 1, 2, 2, 3), "two_pairs", 10),
    (dice(1, 1, 1, 1, 2), "two_pairs", 0),  # four of a kind is not two pairs
    (dice(1, 1, 2, 3, 3, 3), "two_pairs", 10),  # extra dice are allowed
    (dice(1, 1, 1, 2, 2), "full_house", 20),
    (dice(1, 1, 1, 1, 1), "full_house", 0),  # five of a kind is not a full house
    (dice(1, 1, 1, 1, 2, 2), "full_house", 20),
    (dice(1, 1, 2, 2, 3, 3), "full_house", 0),
    (dice(5, 5, 5, 1, 2), "three_kind", 10),
    (dice(5, 5, 1, 2, 3), "three_kind", 0),
    (dice(1, 2, 3, 4, 5), "all_different", 30),
    (dice(1, 2, 3, 4, 5, 6), "all_different", 30),
    (dice(1, 2, 3, 4), "all_different", 0),  # KB-6: at least 5 dice
    (dice(1, 2, 3, 4, 5, 5), "all_different", 0),
    (dice(1, 2, 3, 4, 5, doubled=[4]), "all_different", 0),  # KB-1: none doubled
    (dice(1, 2, 3, 4, 5, 4, spent=[5]), "all_different", 30),  # a spent die is not there
    (dice(1, 2, 3, 4, 4, spent=[4]), "all_different", 0),
    (dice(2, 2, 2, 2, 1), "four_kind", 20),
    (dice(2, 2, 2, 1, 1, doubled=[0]), "four_kind", 20),
    (dice(2, 2, 2, 2, 2), "five_kind", 40),
    (dice(2, 2, 2, 2, 2, spent=[0]), "five_kind", 0),
    (dice(3, 3, 3, 1, 1, doubled=[0]), "five_kind", 0),
    (dice(3, 3, 3, 1, 1, doubled=[0, 1]), "five_kind", 40),
    (dice(1, 2, 2, doubled=[0]), "two_pairs", 10),  # a doubled die is a pair by itself
    (dice(1, 1, 2, doubled=[2]), "two_pairs", 10),
    (dice(1, 1, 2, 3, doubled=[0, 1, 2]), "full_house", 20),
    (dice(6, 5, 1, doubled=[0]), "wild", 18),
    (dice(6, 5, 1, spent=[0]), "wild", 6),
])
def test_requirements(roll: list[Die], item: str, points: int) -> None:
    assert evaluate(roll, item) == points


def test_inactive_and_unrolled_dice_do_not_count() -> None:
    roll = dice(1, 1, 1, 1, 1)
    roll[4].active = False
    roll[3].face = None
    assert evaluate(roll, "three_kind") == 10 and evaluate(roll, "four_kind") == 0


def test_best_item_and_hand_helpers() -> None:
    assert best_item(dice(1, 1, 1, 1, 1)) == ("five_kind", 40)
    assert best_item(dice(1, 1, 1, 1, 1), ["two_pairs", "wild"]) == ("wild", 5)
    assert best_item(dice(6, 6, 6, 5, 5), ["three_kind", "full_house"]) == ("full_house", 20)
    assert hand_points(hand_of(dice(6, 6, doubled=[1])), "wild") == 18


def test_an_unmet_item_scores_zero_and_is_filled() -> None:
    state, _ = staged([1, 5, 6, 6, 1], then=[1] * 5)
    seat = state.current
    state, events = act(state, A(kind="score", item="five_kind"))
    assert state.sheets[seat]["five_kind"] == 0
    assert events[0] == f"Seat {seat + 1} scored 0 for Five of a Kind (not met)"
    assert totals(state)[seat] == 0


def test_the_sheet_data_is_validated() -> None:
    item = {"key": "x", "name": "X", "points": 1, "requirement": "r"}
    with pytest.raises(ValidationError):
        ScoreSheet(items=[item, item])  # type: ignore[list-item]
    with pytest.raises(ValidationError):
        ScoreItem(**{**item, "groups": [2], "distinct": 5})  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        ScoreItem(**{**item, "points": "double"})  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        ScoreItem(**{**item, "points": -1})  # type: ignore[arg-type]


# -- refusals --------------------------------------------------------------------------------


def test_illegal_actions_raise_and_leave_the_state_alone() -> None:
    state, _ = staged([2, 2, 4, 1, 1], then=[1])
    state, _ = act(state, A(kind="reroll", die=0, target=4))  # die 1 is now spent
    before = state.model_dump()
    seat, other = state.current, 1 - state.current
    bad = [
        A(kind="reroll", die=1, target=0),  # the spent die
        A(kind="reroll", die=1, target=1),  # itself
        A(kind="reroll", die=2, target=3),  # not the pending die
        A(kind="reroll", die=1, target=5),  # an inactive die
        A(kind="double", die=1, target=3),  # wrong phase
        A(kind="skip_double", die=1),
        A(kind="score", item="wild"),  # not yet
        A(kind="score", item="no_such_item"),
        A(kind="skip_reroll", die=0),
    ]
    for action in bad:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, action)
        assert state.model_dump() == before
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, other, A(kind="skip_reroll", die=1))
    with pytest.raises(IllegalAction):
        ENGINE.on_timeout(state, other)
    assert ENGINE.legal_actions(state, other) == []
    assert state.model_dump() == before


def test_a_filled_item_cannot_be_scored_again() -> None:
    state, _ = staged([1, 1, 1, 5, 5], seats=2, then=[1, 1, 1, 5, 5, 1, 1, 1, 5, 5])
    first = state.current
    state, _ = act(state, A(kind="score", item="full_house"))
    state, _ = act(state, A(kind="score", item="wild"))
    assert state.current == first
    before = state.model_dump()
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, first, A(kind="score", item="full_house"))
    assert state.model_dump() == before


def test_apply_does_not_touch_its_input() -> None:
    state, _ = staged([2, 1, 1, 1, 1], then=[3, 4])
    before = state.model_dump()
    ENGINE.apply(state, state.current, A(kind="reroll", die=0, target=1))
    assert state.model_dump() == before


# -- timeout, AI, view, outcomes -------------------------------------------------------------


@pytest.mark.parametrize(("roll", "open_items", "expected"), [
    (dice(1, 1, 1, 5, 5), None, "full_house"),  # the highest met (20 over 10)
    (dice(1, 1, 1, 1, 1), None, "five_kind"),
    (dice(1, 5, 6, 6), None, "wild"),  # nothing met: Wild
    (dice(1, 5, 6, 6), ["two_pairs", "five_kind", "all_different"], "two_pairs"),  # cheapest for 0
    (dice(1, 5, 6, 6), ["five_kind", "all_different"], "all_different"),
    (dice(6, 6, 6, 5, 5), ["three_kind", "wild"], "three_kind"),  # met beats a big Wild
])
def test_timeout_item(roll: list[Die], open_items: list[str] | None, expected: str) -> None:
    assert timeout_item(roll, open_items if open_items is not None else list(ITEMS)) == expected


def test_timeout_keeps_every_die_and_finishes_the_turn() -> None:
    state, _ = staged([2, 4, 1, 1, 1], then=[2] * 5)
    seat = state.current
    state, raw = ENGINE.on_timeout(state, seat)
    events = [e.text for e in raw]
    assert events[0].startswith(f"Seat {seat + 1} ran out of time")
    assert state.sheets[seat]["three_kind"] == 10
    assert state.current != seat and state.turn == 2
    assert any(e.endswith("kept the 2 on die 1") for e in events)
    assert any(e.endswith("kept the 4 on die 2") for e in events)


def test_timeout_in_solo_plays_only_one_turn() -> None:
    state, _ = staged([1, 1, 1, 5, 6], seats=1, solo=True)
    state, _ = ENGINE.on_timeout(state, 0)
    assert state.turn == 2 and sum(v is not None for v in state.sheets[0].values()) == 1


def test_ai_doubles_toward_a_kind_and_takes_five_of_a_kind() -> None:
    state, _ = staged([4, 6, 6, 6, 1])
    action = ENGINE.ai_action(state, state.current, Chooser(random.Random(0)))
    assert action.kind == "double" and action.target in (1, 2, 3)
    state, _ = staged([3, 3, 3, 3, 3, 3, 3])
    action = ENGINE.ai_action(state, state.current, Chooser(random.Random(0)))
    assert action == A(kind="score", item="five_kind")


def test_ai_saves_wild_for_a_poor_roll() -> None:
    state, _ = staged([6, 6, 5, 5, 1])
    action = ENGINE.ai_action(state, state.current, Chooser(random.Random(0)))
    assert action == A(kind="score", item="two_pairs")  # Wild would give 23, below its par


def test_view_has_what_a_renderer_needs() -> None:
    state, _ = staged([2, 1, 1, 5, 6], seats=3)
    view = ENGINE.view(state, None)
    assert isinstance(view, KnucklebonesView) and view == ENGINE.view(state, 0)
    assert view.phase == "reroll" and view.current_seat == state.current and not view.over
    assert view.pending is not None and view.pending.die == 0 and view.pending.ask == "reroll"
    assert view.pending.targets == [1, 2, 3, 4] and "Die 1 shows a 2" in view.pending.prompt
    assert [d.pending for d in view.dice] == [True] + [False] * 6
    assert view.active_count == 5 and view.turns_total == 21 and len(view.sheets) == 3
    assert view.preview["two_pairs"] == 0 and view.preview["wild"] == 15
    assert view.met == ["wild"]
    assert [i.key for i in view.items] == list(ITEMS)
    labels = [action_label(view, a) for a in ENGINE.legal_actions(state, state.current)]
    assert labels == ["Keep die 1 (2)", "Reroll die 2 (1)", "Reroll die 3 (1)", "Reroll die 4 (5)",
                      "Reroll die 5 (6)"]
    state, _ = act(state, A(kind="reroll", die=0, target=4))
    view = ENGINE.view(state, None)
    # an item not met says what it would be worth; a met one what it scores now
    assert action_label(view, A(kind="score", item="three_kind")) == "Three of a Kind (10): not met"
    assert action_label(view, A(kind="score", item="wild")) == f"Wild: {view.preview['wild']}"
    assert all(len(action_label(view, a)) <= 80 for a in ENGINE.legal_actions(state, state.current))


def test_events_carry_their_seats_and_figures() -> None:
    """A cog tells a turn from an event's kind, seats and figures; the log's line is made from
    those alone, so nothing a player reads needs the English parsed back."""
    state, _ = staged([4, 2, 1, 3, 6], then=(5, 5))
    seat = state.current
    state, events = ENGINE.apply(state, seat, A(kind="reroll", die=1, target=4))
    assert (events[0].kind, events[0].seats, events[0].data) == (
        "reroll", (seat,), {"die": 1, "target": 4, "before": 6, "after": 5})
    state, events = ENGINE.apply(state, seat, A(kind="skip_double", die=0))
    state, events = ENGINE.apply(state, seat, A(kind="score", item="wild"))
    assert (events[0].kind, events[0].seats, events[0].data) == (
        "score", (seat,), {"item": "wild", "name": "Wild", "points": 4 + 1 + 3 + 5 + 5, "met": True})
    assert ENGINE.view(state, None).waiting == []
    rng = random.Random(3)
    for game in range(20):
        state = ENGINE.new_game(2 + game % 5, KnucklebonesOptions(), game)
        while not ENGINE.is_over(state):
            seat = state.current
            if rng.random() < 0.3:
                state, events = ENGINE.on_timeout(state, seat)
            else:
                state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
            for e in events:
                if e.kind == "over":
                    assert e.data["totals"] == totals(state) and e.seats
                else:  # the mover's, or the next seat's roll and runes once the dice pass
                    assert e.seat is not None and e.seats == (e.seat,)
                assert e.text == event_text(e.kind, e.seats, e.data)


def test_the_view_lists_the_runes_still_to_act_in_order() -> None:
    state, _ = staged([4, 2, 1, 3, 6], then=(5, 5))
    view = ENGINE.view(state, None)
    assert view.pending is not None and view.pending.die == 1  # the 2 decides first ...
    assert view.waiting == [3, 0]  # ... then the 3 (die 4), then the 4 (die 1)
    assert [d.counts_as for d in view.dice if d.active] == [1] * 5
    state, _ = act(state, A(kind="skip_reroll", die=1))  # the 3 adds die 6, which rolls a 5
    state, _ = act(state, A(kind="double", die=0, target=5))
    view = ENGINE.view(state, None)
    assert view.waiting == [] and view.dice[5].counts_as == 2


def test_outcomes_share_ranks() -> None:
    state = ENGINE.new_game(4, KnucklebonesOptions(), 3)
    for seat, points in enumerate([50, 70, 70, 20]):
        state.sheets[seat]["wild"] = points
    assert totals(state) == [50, 70, 70, 20]
    assert [(o.seat, o.rank, o.score) for o in ENGINE.outcomes(state)] == [
        (0, 3, 50), (1, 1, 70), (2, 1, 70), (3, 4, 20)]


def test_rules_summary_is_short_and_shows_the_options() -> None:
    text = rules_summary(KnucklebonesOptions())
    assert len(text) < 3500 and "at least **5** active dice" in text and "2-6 players" in text
    for item in SHEET.items:
        assert item.name in text
    text = rules_summary(KnucklebonesOptions(min_active=3, stack_doubles=True, solo=True))
    assert len(text) < 3500 and "**3**" in text and "doubled again" in text and "solo" in text
    # players read the rulings in words, never as codes
    assert "House rulings" in text and not re.search(r"\bKB-\d", text)


# -- simulations -----------------------------------------------------------------------------


def check_state(state: KnucklebonesState, round_trip: bool = True) -> None:
    """RULINGS 4.5, within a step; and the state survives the store's JSON unchanged."""
    floor = state.options.min_active
    assert len(state.pool) == 7 and [d.id for d in state.pool] == list(range(7))
    assert floor <= active_count(state) <= 7
    for die in state.pool:
        assert die.active or (die.face is None and not die.spent and die.doubled == 0)
    spent = [d for d in state.pool if d.spent]
    assert all(d.face in (2, 4) for d in spent)  # only a 2 or a 4 is ever spent
    assert sum(d.doubled for d in state.pool) <= sum(d.face == 4 for d in spent)
    assert all(d.doubled <= 1 for d in state.pool) or state.options.stack_doubles
    legal = ENGINE.legal_actions(state, state.current)
    if state.phase in ("reroll", "double"):
        die = state.pool[state.pending]  # type: ignore[index]
        assert die.counts and not die.resolved and die.face == (2 if state.phase == "reroll" else 4)
        for action in legal[1:]:
            target = state.pool[action.target]  # type: ignore[index]
            assert target.counts and target.id != die.id  # never a spent die
    else:
        assert state.pending is None
    if state.phase == "over":
        assert ENGINE.to_act(state) == [] and state.turn == len(ITEMS) * state.seats
    else:
        assert ENGINE.to_act(state) == [state.current]
    assert 1 <= len(legal) <= 25 or state.phase == "over"
    if round_trip:
        assert KnucklebonesState.model_validate_json(state.model_dump_json()) == state


def check_step(before: KnucklebonesState, action: A, after: KnucklebonesState) -> None:
    """RULINGS 4.5, across a step: one item a turn, totals never fall."""
    filled = [(s, k) for s in range(before.seats) for k in ITEMS
              if before.sheets[s][k] != after.sheets[s][k]]
    if action.kind == "score":
        assert filled == [(before.current, action.item)]
        assert before.sheets[before.current][action.item] is None  # type: ignore[index]
        # scored from the unspent dice only
        key = action.item or ""
        unspent = [d for d in before.pool if d.active and not d.spent and d.face]
        hand = tuple((d.face, d.doubled) for d in unspent)
        assert after.sheets[before.current][key] == hand_points(hand, key)
        assert after.turn == before.turn + 1 or after.phase == "over"
    else:
        assert filled == [] and after.turn == before.turn and after.current == before.current
    assert all(a >= b for a, b in zip(totals(after), totals(before), strict=True))


def random_game(rng: random.Random, seed: int) -> tuple[KnucklebonesState, KnucklebonesOptions, int,
                                                        list[tuple[int, KnucklebonesAction]]]:
    seats = rng.randint(1, 6)
    options = KnucklebonesOptions(min_active=rng.randint(1, 5), stack_doubles=rng.random() < 0.5,
                                  solo=seats == 1 or rng.random() < 0.2)
    state = ENGINE.new_game(seats, options, seed)
    log: list[tuple[int, KnucklebonesAction]] = []
    check_state(state)
    cap = len(ITEMS) * seats * 20
    while not ENGINE.is_over(state):
        assert len(log) < cap, "the game did not end"
        seat = state.current
        action = rng.choice(ENGINE.legal_actions(state, seat))
        after, events = ENGINE.apply(state, seat, action)
        assert events and all(e.text for e in events)
        check_state(after)
        check_step(state, action, after)
        log.append((seat, action))
        state = after
    assert all(v is not None for sheet in state.sheets for v in sheet.values())
    assert sum(a.kind == "score" for _, a in log) == len(ITEMS) * seats
    return state, options, seats, log


#: seeded random games; every branch of the engine and of the checks above is reached by the
#: 15th, so many more only repeat what these prove
RANDOM_GAMES = 200


def test_random_games_keep_the_invariants_and_replay() -> None:
    rng = random.Random(20240601)
    seat_counts = set()
    for game in range(RANDOM_GAMES):
        seed = rng.getrandbits(63)
        final, options, seats, log = random_game(rng, seed)
        seat_counts.add(seats)
        if game % 10 == 0:  # replay from the seed gives the same game
            state = ENGINE.new_game(seats, options, seed)
            for seat, action in log:
                state, _ = ENGINE.apply(state, seat, action)
            assert state == final
        outcomes = ENGINE.outcomes(final)
        assert min(o.rank for o in outcomes) == 1
    assert seat_counts == {1, 2, 3, 4, 5, 6}


def test_bots_and_timeouts_always_move_legally_and_finish() -> None:
    rng = random.Random(7)
    for game in range(300):
        seats = rng.randint(1, 6)
        options = KnucklebonesOptions(min_active=rng.randint(1, 5),
                                      stack_doubles=rng.random() < 0.3, solo=True)
        state = ENGINE.new_game(seats, options, game)
        timed_out = {s for s in range(seats) if rng.random() < 0.5}
        choose = Chooser(random.Random(game))
        for _ in range(len(ITEMS) * seats * 20):
            if ENGINE.is_over(state):
                break
            seat = state.current
            if seat in timed_out:
                turn = state.turn
                state, events = ENGINE.on_timeout(state, seat)
                assert state.turn == turn + 1 or ENGINE.is_over(state)
            else:
                action = ENGINE.ai_action(state, seat, choose)
                assert action in ENGINE.legal_actions(state, seat)
                state, _ = ENGINE.apply(state, seat, action)
            check_state(state, round_trip=False)
        assert ENGINE.is_over(state)


def test_the_bot_beats_random_play() -> None:
    """A sanity check on the policy, not a benchmark: bots should outscore random clicks."""
    rng = random.Random(3)
    bot_total = random_total = 0
    for game in range(60):
        state = ENGINE.new_game(2, KnucklebonesOptions(), game)
        choose = Chooser(random.Random(game))
        while not ENGINE.is_over(state):
            seat = state.current
            legal = ENGINE.legal_actions(state, seat)
            action = ENGINE.ai_action(state, seat, choose) if seat == 0 else rng.choice(legal)
            state, _ = ENGINE.apply(state, seat, action)
        bot_total, random_total = bot_total + totals(state)[0], random_total + totals(state)[1]
    assert bot_total > random_total * 1.5


def test_a_double_button_says_what_the_die_then_counts_as() -> None:
    """KB-3: a doubled die counts as two of its rune; doubled again (the option), four."""
    state, _ = staged([4, 4, 6, 5, 1], stack_doubles=True)
    view = ENGINE.view(state, None)
    labels = [action_label(view, a) for a in ENGINE.legal_actions(state, state.current)]
    assert labels == ["Keep die 1 (4)", "Double die 2 (4): two 4s", "Double die 3 (6): two 6s", "Double die 4 (5): two 5s",
                      "Double die 5 (1): two 1s"]
    state, _ = act(state, A(kind="double", die=0, target=2))
    view = ENGINE.view(state, None)
    assert action_label(view, A(kind="double", die=1, target=2)) == "Double die 3 (6): four 6s"


def test_an_item_not_met_says_on_its_button_what_it_is_worth() -> None:
    """A first game's player learns the sheet from the buttons: every item not met names its
    points, short enough for a phone's row of buttons."""
    state, _ = staged([1, 2, 5, 6, 6])
    state, _ = act(state, A(kind="skip_reroll", die=1))  # one pair: only Wild is met
    view = ENGINE.view(state, None)
    labels = {a.item: action_label(view, a) for a in ENGINE.legal_actions(state, state.current)}
    assert view.met == ["wild"]
    assert labels == {"two_pairs": "Two Pairs (10): not met", "three_kind": "Three of a Kind (10): not met",
                      "full_house": "Full House (20): not met", "four_kind": "Four of a Kind (20): not met",
                      "all_different": "All Different (30): not met", "five_kind": "Five of a Kind (40): not met",
                      "wild": "Wild: 20"}
    assert max(len(label) for label in labels.values()) <= 30
