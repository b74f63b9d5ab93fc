"""Roll the Bones engine: forced-dice cases for RULINGS.md RB-1 to RB-10 and the 2.3 phases, and
a simulation of 1,000 games that checks the 2.5 invariants after every step."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence

import pytest
from pydantic import ValidationError

from rules.base import Chooser, Event, GameError, IllegalAction
from rules.roll_the_bones import (
    BONE,
    CALL,
    DICE_SETS,
    ENGINE,
    DiceSets,
    RollTheBonesAction,
    RollTheBonesOptions,
    RollTheBonesState,
    RollTheBonesView,
    WITHDRAW,
    action_label,
    dice_in_play,
    rules_summary,
    start_round,
    starting_hand,
)

A = RollTheBonesAction
MIXED = [4, 4, 6, 6, 6, 8, 8, 8, 10, 10, 12]


def act(state: RollTheBonesState, seat: int, kind: str, sides: int | None = None
        ) -> tuple[RollTheBonesState, list[Event]]:
    """One decision by its kind; "bone_toggle" alone is the seat's call, or the withdrawal of
    the call it made (the engine offers the one that applies)."""
    if kind == "bone_toggle" and sides is None:
        return ENGINE.apply(state, seat, WITHDRAW if state.calls[seat] else CALL)
    return ENGINE.apply(state, seat, A(kind=kind, sides=sides))  # type: ignore[arg-type]


def staged(hands: Sequence[Sequence[int]], **options: object) -> RollTheBonesState:
    """A game whose first round starts from exactly these collections."""
    state = ENGINE.new_game(len(hands), RollTheBonesOptions(**options), seed=11)  # type: ignore[arg-type]
    state.hands = [sorted(h) for h in hands]
    state, _ = start_round(state)
    return state


def texts(events: Iterable[Event]) -> list[str]:
    return [e.text for e in events]


def do_ante(state: RollTheBonesState, antes: dict[int, list[int]] | None = None
            ) -> tuple[RollTheBonesState, list[Event]]:
    """Every seat owing an ante takes back what it drafted, puts in ``antes[seat]`` (default: its
    smallest dice) one die at a time, then seals it."""
    assert state.phase == "ante"
    events: list[Event] = []
    for seat in ENGINE.to_act(state):
        dice = (antes or {}).get(seat, sorted(state.hands[seat])[: state.required[seat]])
        for sides in list(state.drafts[seat]):  # start from an empty draft
            state, more = act(state, seat, "ante_remove", sides)
            events += more
        for sides in dice:
            state, more = act(state, seat, "ante_add", sides)
            events += more
        state, more = act(state, seat, "ante_confirm")
        events += more
    return state, events


def do_calls(state: RollTheBonesState, callers: Iterable[int] = ()
             ) -> tuple[RollTheBonesState, list[Event]]:
    events: list[Event] = []
    if state.phase != "bone":
        assert not list(callers), "the bone-call phase was skipped"
        return state, events
    for seat in callers:
        state, more = act(state, seat, "bone_toggle")
        events += more
    while state.phase == "bone":
        state, more = act(state, ENGINE.to_act(state)[0], "ready")
        events += more
    return state, events


def do_picks(state: RollTheBonesState, picks: dict[int, int]
             ) -> tuple[RollTheBonesState, list[Event]]:
    assert state.phase == "pick"
    events: list[Event] = []
    for seat in ENGINE.to_act(state):
        state, more = act(state, seat, "pick", picks[seat])
        events += more
    return state, events


def roll(state: RollTheBonesState, faces: Sequence[int], picks: dict[int, int],
         callers: Iterable[int] = (), antes: dict[int, list[int]] | None = None
         ) -> tuple[RollTheBonesState, list[str]]:
    """One whole roll: antes (if this roll has one), bone calls, picks; the dice then show
    ``faces`` in seat order (then any roll-off throws)."""
    state = state.model_copy(deep=True)
    state.dice.forced = list(faces)
    events: list[Event] = []
    if state.phase == "ante":
        state, more = do_ante(state, antes)
        events += more
    state, more = do_calls(state, callers)
    events += more
    if state.phase == "pick":
        state, more = do_picks(state, picks)
        events += more
    assert not state.dice.forced, "every forced face should have been rolled"
    return state, texts(events)


def counts(state: RollTheBonesState) -> list[int]:
    return [len(h) for h in state.hands]


# -- setting up ------------------------------------------------------------------------------


def test_new_game_dice_sets_and_base_ante() -> None:
    for seats, base in ((2, 2), (3, 2), (4, 1), (5, 1), (6, 1)):
        state = ENGINE.new_game(seats, RollTheBonesOptions(), seed=seats)
        assert state.hands == [MIXED] * seats  # RB-1 mixed: 2×d4 3×d6 3×d8 2×d10 + bone d12
        assert state.ante == state.base_ante == base  # RB-8
        assert state.phase == "ante" and state.round == 1 and state.cycle == 1
        assert ENGINE.to_act(state) == list(range(seats))
        assert state.required == [base] * seats
    d6 = ENGINE.new_game(2, RollTheBonesOptions(dice_set="all_d6"), seed=1)
    assert d6.hands == [[6] * 10 + [12]] * 2
    assert starting_hand("all_d6").count(BONE) == 1 and BONE == 12
    with pytest.raises(GameError):
        ENGINE.new_game(1, RollTheBonesOptions(), seed=1)
    with pytest.raises(GameError):
        ENGINE.new_game(7, RollTheBonesOptions(), seed=1)
    assert ENGINE.has_private_view()
    assert ENGINE.seat_range(RollTheBonesOptions()) == (2, 6)


def test_options_defaults_and_bounds() -> None:
    options = RollTheBonesOptions()
    assert (options.dice_set, options.side_pots, options.max_rounds) == ("mixed", "layered", 200)
    with pytest.raises(ValidationError):
        RollTheBonesOptions(max_rounds=0)
    with pytest.raises(ValidationError):
        RollTheBonesOptions(side_pots="none")  # type: ignore[arg-type]


def test_dice_set_data_is_validated() -> None:
    assert set(DICE_SETS.sets) == {"mixed", "all_d6"}
    good = {"bone": 12, "sets": {"x": {"name": "X", "description": "x", "ordinary": {"6": 10}}}}
    assert DiceSets.model_validate(good).sets["x"].ordinary == {6: 10}
    nine = {"bone": 12, "sets": {"x": {"name": "X", "description": "x", "ordinary": {"6": 9}}}}
    with pytest.raises(ValidationError):
        DiceSets.model_validate(nine)
    big = {"bone": 12, "sets": {"x": {"name": "X", "description": "x", "ordinary": {"12": 10}}}}
    with pytest.raises(ValidationError):  # an ordinary d12 could not be told from the bone die
        DiceSets.model_validate(big)


# -- the exact cases -------------------------------------------------------------------------


def test_plain_win_takes_pot_and_every_rolled_die() -> None:
    state = ENGINE.new_game(3, RollTheBonesOptions(), seed=5)
    state, events = roll(state, [7, 5, 11], picks={0: 10, 1: 8}, callers=[2])
    # Seat 3 called the bone, so its pick was made for it (RB-2: the call is binding).
    report = state.last_round
    assert report is not None and report.winner == 2 and report.round == 1
    assert [(e.seat, e.sides, e.face, e.bone) for e in report.rolls[0].rolls] == [
        (0, 10, 7, False), (1, 8, 5, False), (2, 12, 11, True)]
    assert report.rolled_dice == (8, 10, 12)  # RB-4: the winner keeps its own die too
    (main,) = report.awards
    assert (main.pot, main.dice, main.eligible, main.taker) == ("Main pot", (4,) * 6, (0, 1, 2), 2)
    assert report.counts_before == (11, 11, 11) and report.counts_after == (8, 8, 17)
    assert counts(state) == [8, 8, 17] and state.hands[2].count(4) == 6
    assert report.eliminated == () and report.ante_before == report.ante_after == 2
    assert state.round == 2 and state.phase == "ante" and state.pots == []
    assert "Seat 3 wins the roll with 11 and takes the rolled dice (d8, d10, d12)." in events
    assert any("Antes revealed." in t and "Seat 1: 2×d4" in t for t in events)
    assert "Seat 3 calls their bone die (1 change left)." in events  # nobody had pressed Ready yet


def test_two_way_tie_sends_every_rolled_die_to_the_centre_and_reantes() -> None:
    state = ENGINE.new_game(3, RollTheBonesOptions(), seed=5)
    state, events = roll(state, [9, 9, 3], picks={0: 10, 1: 10, 2: 8})
    assert any(t.startswith("Tie at 9 between Seat 1 and Seat 2") for t in events)
    # RB-5: all three rolled dice join the six anted d4s; only the tied players can win them.
    assert state.round == 1 and state.cycle == 2 and state.in_round == [0, 1]
    assert [(p.dice, p.eligible) for p in state.pots] == [((4, 4, 4, 4, 4, 4, 8, 10, 10), (0, 1))]
    assert state.phase == "ante" and ENGINE.to_act(state) == [0, 1]
    assert state.required == [2, 2, 0]
    (tie,) = state.this_round
    assert tie.result == "tie" and tie.tied == (0, 1) and tie.top == 9
    public = ENGINE.view(state, None)
    assert public.this_round[0].tied == (0, 1) and public.pot_total == 9
    assert counts(state) == [8, 8, 8]

    state, events = roll(state, [2, 5], picks={0: 8, 1: 6})  # the re-roll: any die may be used
    report = state.last_round
    assert report is not None and report.winner == 1
    assert [r.result for r in report.rolls] == ["tie", "win"]
    assert report.rolled_dice == (6, 8)
    (pot,) = report.awards
    assert len(pot.dice) == 13 and pot.taker == 1  # 9 dice + the two new antes of 2 d6
    assert report.counts_after == (5, 20, 8) and sum(report.counts_after) == 33
    assert "Seat 2 wins the roll with 5 and takes the rolled dice (d6, d8)." in events


def test_three_way_tie_then_a_narrower_tie() -> None:
    state = ENGINE.new_game(4, RollTheBonesOptions(), seed=3)
    state, _ = roll(state, [6, 6, 6, 2], picks={0: 8, 1: 8, 2: 6, 3: 4})
    assert state.in_round == [0, 1, 2] and state.required == [1, 1, 1, 0]
    assert [(len(p.dice), p.eligible) for p in state.pots] == [(8, (0, 1, 2))]
    state, events = roll(state, [10, 10, 4], picks={0: 10, 1: 10, 2: 10})
    assert any(t.startswith("Tie at 10 between Seat 1 and Seat 2") for t in events)
    assert state.in_round == [0, 1] and state.cycle == 3
    assert [(len(p.dice), p.eligible) for p in state.pots] == [(14, (0, 1))]
    state, events = roll(state, [12, 8], picks={1: 8}, callers=[0])
    report = state.last_round
    assert report is not None and report.winner == 0
    assert [r.result for r in report.rolls] == ["tie", "tie", "win"]
    assert [r.tied for r in report.rolls] == [(0, 1, 2), (0, 1), (0,)]
    assert report.counts_after == (23, 5, 7, 9) and sum(report.counts_after) == 44
    assert state.round == 2 and state.in_round == [0, 1, 2, 3]


def test_short_ante_makes_a_side_pot_for_the_second_highest() -> None:
    # Seat 1 holds two dice: against an ante of 2 it antes one and keeps its last die (RB-8).
    state = staged([[4, 10], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    assert state.required == [1, 2, 2]
    state, events = roll(state, [9, 7, 3], picks={1: 8, 2: 6}, antes={0: [4]})
    assert any("Seat 1: d4 (all they can spare)" in t for t in events)
    report = state.last_round
    assert report is not None and report.winner == 0
    main, side = report.awards
    assert (main.pot, main.dice, main.eligible, main.taker) == ("Main pot", (4, 4, 4), (0, 1, 2), 0)
    assert (side.pot, side.dice, side.eligible, side.taker) == ("Side pot 1", (4, 4), (1, 2), 1)
    assert report.rolled_dice == (6, 8, 10)
    assert report.counts_after == (6, 10, 17)
    assert "Seat 2 takes the side pot 1 (2×d4)." in events


def test_side_pots_are_shown_with_their_eligible_seats_before_the_roll() -> None:
    state = staged([[4, 10], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    state, _ = do_ante(state, {0: [4]})
    view = ENGINE.view(state, None)
    assert [(p.name, p.dice, p.eligible) for p in view.pots] == [
        ("Main pot", {"d4": 3}, [0, 1, 2]), ("Side pot 1", {"d4": 2}, [1, 2])]
    assert view.antes == [{"d4": 1}, {"d4": 2}, {"d4": 2}]
    assert view.seats[0].short and not view.seats[1].short


def test_a_player_who_could_not_ante_wins_only_the_rolled_dice() -> None:
    state = staged([[10], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10, 12]])
    assert state.required == [0, 2, 2] and ENGINE.to_act(state) == [1, 2]  # nothing to decide
    state, _ = roll(state, [9, 7, 3], picks={1: 8, 2: 6})
    report = state.last_round
    assert report is not None and report.winner == 0
    (main,) = report.awards
    assert main.eligible == (1, 2) and main.taker == 1  # «the second highest ... everything else»
    assert report.counts_after == (3, 12, 18)


def test_eligible_players_tied_for_a_side_pot_roll_off() -> None:
    state = staged([[4, 10], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    # Seats 2 and 3 both roll 7 behind Seat 1's 9: they roll off for the side pot with a d12.
    state, events = roll(state, [9, 7, 7, 5, 8], picks={1: 8, 2: 8}, antes={0: [4]})
    report = state.last_round
    assert report is not None
    side = report.awards[1]
    assert side.taker == 2 and [[(e.seat, e.face) for e in t] for t in side.rolloff] == [[(1, 5), (2, 8)]]
    assert "Seat 3 takes the side pot 1 (2×d4) after a roll-off (Seat 2 5, Seat 3 8)." in events
    assert sum(report.counts_after) == 33


def test_a_pot_no_tied_player_paid_into_is_settled_at_the_tie() -> None:
    state = staged([[10], [4, 10], MIXED + [6] * 19])
    assert state.required == [0, 1, 2] and ENGINE.to_act(state) == [1, 2]
    state, _ = do_ante(state)
    assert [(p.dice, p.eligible) for p in state.pots] == [((4, 4), (1, 2)), ((4,), (2,))]
    # Seats 1 and 2 tie on their last dice, so they keep them and, with nothing left to decide,
    # roll again at once (RB-6): 2 against 9.
    state, events = roll(state, [7, 7, 3, 2, 9], picks={2: 6})
    report = state.last_round
    assert report is not None and report.winner == 1
    tie = report.rolls[0]
    assert tie.result == "last_die_tie" and tie.tied == (0, 1)
    (settled,) = tie.settled  # only Seat 3 paid into the side pot: it takes its die back now
    assert (settled.pot, settled.dice, settled.eligible, settled.taker) == ("Side pot 1", (4,), (2,), 2)
    assert "Seat 3 takes the side pot 1 (d4)." in events
    # what stayed in the centre: Seat 3's rolled d6 (open to both tied seats), Seat 2's main pot
    assert [(a.pot, a.dice, a.eligible, a.taker) for a in report.awards] == [
        ("Side pot 1", (4,), (2,), 2), ("Main pot", (6,), (0, 1), 1), ("Side pot 1", (4, 4), (1,), 1)]
    assert report.counts_after == (0, 5, 28) and report.eliminated == (0,)


def test_simple_variant_everyone_matches_the_short_ante() -> None:
    state = staged([[4, 10], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]], side_pots="simple")
    assert state.required == [1, 1, 1]
    state, _ = do_ante(state, {0: [4]})
    assert [(p.dice, p.eligible) for p in state.pots] == [((4, 4, 4), (0, 1, 2))]


def test_last_die_tie_keeps_the_rolled_dice_and_skips_the_ante() -> None:
    state = staged([[4, 8], MIXED, MIXED + [4, 4, 6, 6, 6, 8, 8, 8, 10]])
    # Seat 1 antes its d4 and must roll its last die, the d8; it ties Seat 2 at 5.
    state, events = roll(state, [5, 5, 2], picks={0: 8, 1: 6, 2: 4}, antes={0: [4]})
    (tie,) = state.this_round
    assert tie.result == "last_die_tie" and tie.tied == (0, 1)
    assert state.hands[0] == [8] and 6 in state.hands[1] and counts(state)[1] == 9  # kept
    assert not state.anteing and state.required == [0, 0, 0]
    # RB-6: untied dice still go to the centre (Seat 3's d4, open to the tied players).
    assert [(p.dice, p.eligible) for p in state.pots] == [((4, 4, 4, 4), (0, 1)), ((4, 4), (1,))]
    assert state.phase == "bone" and ENGINE.to_act(state) == [1]  # only Seat 2 holds a bone die
    assert any("roll again without a new ante" in t for t in events)
    state, events = roll(state, [6, 11], picks={}, callers=[1])  # Seat 1's d8 is its only choice
    report = state.last_round
    assert report is not None and report.winner == 1
    assert [r.result for r in report.rolls] == ["last_die_tie", "win"]
    assert report.counts_after == (0, 16, 17) and report.eliminated == (0,)
    assert report.ante_after == 3 and state.ante == 3  # RB-8: +1 per elimination
    assert state.eliminated == [0] and state.in_round == [1, 2] and state.required == [0, 3, 3]
    assert "Seat 1 is out of dice and eliminated; the ante rises to 3." in events


def test_eliminations_raise_the_ante_and_share_a_place() -> None:
    state = staged([MIXED, MIXED + [6] * 20, [4], [6]])
    assert state.required == [1, 1, 0, 0] and ENGINE.to_act(state) == [0, 1]
    state, events = roll(state, [9, 3, 1, 2], picks={0: 10, 1: 4})
    report = state.last_round
    assert report is not None and report.eliminated == (2, 3)
    assert state.ante == 3 == state.base_ante + 2 and state.eliminated == [2, 3]
    assert state.eliminated_round == [None, None, 1, 1] and state.in_round == [0, 1]
    assert state.required == [3, 3, 0, 0]
    assert "Seat 3 and Seat 4 are out of dice and eliminated; the ante rises to 3." in events
    view = ENGINE.view(state, None)
    assert [s.eliminated for s in view.seats] == [False, False, True, True]
    assert view.eliminations == 2 and view.ante == 3
    chooser = Chooser(random.Random(0))
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, chooser))
    ranks = {o.seat: o.rank for o in ENGINE.outcomes(state)}
    assert ranks[2] == ranks[3] == 3 and sorted(ranks.values()) == [1, 2, 3, 3]
    winner = next(s for s, r in ranks.items() if r == 1)
    assert counts(state)[winner] == 44 and state.end_reason == "last_player"


def test_round_cap_ends_with_most_dice_winning_and_ties_shared() -> None:
    state = ENGINE.new_game(4, RollTheBonesOptions(max_rounds=1), seed=2)
    state, _ = roll(state, [9, 9, 1, 3], picks={0: 10, 1: 10, 2: 4, 3: 4})
    assert not ENGINE.is_over(state)  # the tie-break rolls still belong to round 1
    state, events = roll(state, [10, 2], picks={0: 10, 1: 10})
    assert ENGINE.is_over(state) and state.end_reason == "cap" and state.round == 1
    assert counts(state) == [19, 7, 9, 9]
    outcomes = {o.seat: (o.rank, o.score) for o in ENGINE.outcomes(state)}
    assert outcomes == {0: (1, 19), 1: (4, 7), 2: (2, 9), 3: (2, 9)}
    assert any("most dice wins" in t for t in events)
    assert ENGINE.to_act(state) == [] and ENGINE.legal_actions(state, 0) == []
    assert ENGINE.view(state, None).winners == [0]


# -- the phases ------------------------------------------------------------------------------


def test_ante_is_built_die_by_die_and_sealed_once() -> None:
    state = ENGINE.new_game(2, RollTheBonesOptions(), seed=1)
    assert ENGINE.legal_actions(state, 0) == [
        *(A(kind="ante_add", sides=s) for s in (4, 6, 8, 10, 12)), A(kind="ante_fill")]
    state, events = act(state, 0, "ante_add", 12)
    assert events == []  # building a sealed ante tells the table nothing
    state, _ = act(state, 0, "ante_add", 4)
    assert ENGINE.legal_actions(state, 0) == [
        A(kind="ante_remove", sides=4), A(kind="ante_remove", sides=12), A(kind="ante_confirm")]
    state, _ = act(state, 0, "ante_remove", 12)
    assert state.drafts[0] == [4]
    state, _ = act(state, 0, "ante_fill")  # the free place takes the smallest free die
    assert state.drafts[0] == [4, 4]
    assert ENGINE.legal_actions(state, 0) == [A(kind="ante_remove", sides=4), A(kind="ante_confirm")]
    before = state.model_dump()
    with pytest.raises(IllegalAction):
        act(state, 1, "ante_confirm")  # Seat 2 has chosen nothing yet
    assert state.model_dump() == before
    state, events = act(state, 0, "ante_confirm")
    assert texts(events) == ["Seat 1 has sealed their ante."]
    assert ENGINE.to_act(state) == [1]
    with pytest.raises(IllegalAction):  # a sealed choice made twice counts once
        act(state, 0, "ante_confirm")
    assert state.hands[0] == MIXED  # the dice move only when every ante is in


def test_a_player_with_only_one_kind_of_die_is_not_asked() -> None:
    state = staged([[6, 6, 6], MIXED + [4] * 8])
    assert state.required == [2, 2] and ENGINE.to_act(state) == [1]
    view = ENGINE.view(state, None)
    assert view.seats[0].chosen and not view.seats[1].chosen


def test_bone_calls_reset_ready_and_are_limited_to_two_changes() -> None:
    state = ENGINE.new_game(3, RollTheBonesOptions(), seed=1)
    state, _ = do_ante(state)
    assert state.phase == "bone" and ENGINE.to_act(state) == [0, 1, 2]
    assert ENGINE.legal_actions(state, 0) == [CALL, A(kind="ready")]
    assert ENGINE.open_actions(state) == [CALL, A(kind="ready")]
    state, _ = act(state, 1, "ready")
    state, _ = act(state, 2, "ready")
    state, events = act(state, 0, "bone_toggle")
    assert state.calls == [True, False, False]
    assert ENGINE.to_act(state) == [0, 1, 2]  # Ready counts only since the last change (RB-2)
    # the change names whoever had pressed Ready and must press again: the host asks them anew
    (call,) = events
    assert call.data["again"] == [1, 2] and call.seats == (0, 1, 2)
    assert call.text == "Seat 1 calls their bone die (1 change left); Seat 2 and Seat 3 were ready and " \
                        "must press I'm ready again."
    assert ENGINE.legal_actions(state, 0) == [WITHDRAW, A(kind="ready")]  # the call, turned back
    assert ENGINE.legal_actions(state, 1) == [CALL, A(kind="ready")]
    assert ENGINE.open_actions(state) == [CALL, WITHDRAW, A(kind="ready")]
    with pytest.raises(IllegalAction):  # a call made is withdrawn, not made again
        ENGINE.apply(state, 0, CALL)
    state, _ = act(state, 0, "bone_toggle")
    assert state.calls == [False, False, False] and state.changes[0] == 2
    # no change left, but RB-2 closes the calls only once everyone has *pressed* Ready
    assert ENGINE.legal_actions(state, 0) == [A(kind="ready")]
    assert ENGINE.to_act(state) == [0, 1, 2]
    view = ENGINE.view(state, None)
    assert [(s.called, s.changes_left, s.ready, s.can_call) for s in view.seats] == [
        (False, 0, False, False), (False, 2, False, True), (False, 2, False, True)]
    me = ENGINE.view(state, 0).me
    assert me is not None and me.prompt == "Your changes of call are used, so your call stands; press Ready."
    state, _ = act(state, 1, "bone_toggle")
    state, _ = act(state, 1, "ready")
    state, events = act(state, 2, "ready")
    assert state.phase == "bone" and ENGINE.to_act(state) == [0]  # her Ready is still owed
    state, events = act(state, 0, "ready")
    assert "Bone calls are closed: Seat 2 rolls a bone die." in texts(events)
    assert state.phase == "pick" and ENGINE.to_act(state) == [0, 2]  # Seat 2 must roll its bone
    assert ENGINE.legal_actions(state, 0) == [A(kind="pick", sides=s) for s in (6, 8, 10)]
    assert state.picks[1] == BONE


def test_a_bone_call_a_player_may_not_make_is_refused_with_its_reason() -> None:
    """The bone call's buttons are one row for everyone asked (RB-2): a press that is not the
    presser's own to make says why, in a few words."""
    state = ENGINE.new_game(2, RollTheBonesOptions(), seed=1)
    state, _ = do_ante(state)
    assert ENGINE.open_actions(state) == [CALL, A(kind="ready")]
    assert ENGINE.refusal(state, 0, WITHDRAW) == "you have not called your bone die"
    assert ENGINE.refusal(state, 0, A(kind="ready")) is None
    state, _ = act(state, 0, "bone_toggle")
    assert ENGINE.refusal(state, 0, CALL) == "you have called your bone die already"
    assert ENGINE.refusal(state, 1, CALL) is None  # Bob's to make
    state, _ = act(state, 0, "bone_toggle")
    assert CALL not in ENGINE.legal_actions(state, 0) and CALL in ENGINE.open_actions(state)
    assert ENGINE.refusal(state, 0, CALL) == ("you have used your 2 changes of call this roll, so your "
                                              "call stands")
    # a seat with no call to make is not asked, so the host never asks the rules why
    staged_state = staged([[4, 6, 8], MIXED])
    staged_state, _ = do_ante(staged_state)
    assert staged_state.phase == "bone" and ENGINE.to_act(staged_state) == [1]
    assert ENGINE.refusal(staged_state, 0, CALL) is None


def test_an_uncalled_bone_die_cannot_be_picked_and_a_bone_only_hand_must_call() -> None:
    state = staged([[12, 12], MIXED + [4] * 9])
    assert state.required == [1, 2] and ENGINE.to_act(state) == [1]  # two bones: no choice
    state, events = do_ante(state)
    assert "Seat 1 holds only bone dice and must call the bone." in texts(events)
    assert state.calls[0] and state.forced_calls[0] and not ENGINE.view(state, None).seats[0].can_call
    state, _ = do_calls(state)
    assert state.phase == "pick" and state.picks[0] == BONE
    assert A(kind="pick", sides=BONE) not in ENGINE.legal_actions(state, 1)


def test_no_bone_die_in_the_round_skips_the_call_phase() -> None:
    state = staged([[4, 6, 8], [4, 6, 6] + [8] * 16])
    state, _ = do_ante(state)
    assert state.phase == "pick"


def test_timeouts_play_the_rulings_defaults() -> None:
    state = ENGINE.new_game(2, RollTheBonesOptions(), seed=9)
    state, _ = act(state, 0, "ante_add", 10)
    state, events = ENGINE.on_timeout(state, 0)  # RULINGS 2.3: the smallest dice
    assert texts(events) == ["Seat 1 ran out of time: the default ante is sealed for them.",
                             "Seat 1 has sealed their ante."]
    state, _ = ENGINE.on_timeout(state, 1)
    assert state.antes == [[4, 4], [4, 4]] and state.phase == "bone"
    state, _ = act(state, 0, "bone_toggle")
    state, _ = ENGINE.on_timeout(state, 0)  # the call stays as it is
    state, _ = ENGINE.on_timeout(state, 1)
    assert state.calls == [True, False] and state.phase == "pick"
    assert ENGINE.to_act(state) == [1]
    state.dice.forced = [3, 4]
    with pytest.raises(IllegalAction):
        ENGINE.on_timeout(state, 0)  # not waiting for Seat 1
    state, _ = ENGINE.on_timeout(state, 1)  # the largest ordinary die
    assert [(e.seat, e.sides) for e in state.last_round.rolls[0].rolls] == [(0, 12), (1, 10)]  # type: ignore[union-attr]


def test_bot_policy_antes_smallest_calls_the_bone_and_rolls_the_largest() -> None:
    state = ENGINE.new_game(2, RollTheBonesOptions(), seed=4)
    chooser = Chooser(random.Random(1))
    state, _ = act(state, 0, "ante_add", 12)
    seen = []
    while state.phase == "ante":
        seat = ENGINE.to_act(state)[0]
        action = ENGINE.ai_action(state, seat, chooser)
        seen.append((seat, action.kind, action.sides))
        state, _ = ENGINE.apply(state, seat, action)
    assert seen[:3] == [(0, "ante_remove", 12), (0, "ante_fill", None), (0, "ante_confirm", None)]
    assert state.antes == [[4, 4], [4, 4]]
    assert ENGINE.ai_action(state, 0, chooser) == CALL
    state.dice.forced = [2, 6]
    while state.last_round is None:
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, chooser))
    assert [e.sides for e in state.last_round.rolls[0].rolls] == [12, 12]
    late = staged([[4, 6, 8, 10], MIXED + [4] * 7])
    late, _ = do_ante(late)
    late, _ = do_calls(late)
    assert ENGINE.ai_action(late, 0, chooser) == A(kind="pick", sides=10)


# -- views and words -------------------------------------------------------------------------


def test_views_show_who_has_chosen_never_what_until_the_reveal() -> None:
    state = ENGINE.new_game(3, RollTheBonesOptions(), seed=8)
    state, _ = act(state, 0, "ante_add", 10)
    state, _ = act(state, 0, "ante_add", 12)
    state, _ = act(state, 0, "ante_confirm")
    public = ENGINE.view(state, None)
    assert public.me is None and public.antes is None and public.pots == []
    assert [s.chosen for s in public.seats] == [True, False, False]
    assert public.seats[0].dice == {"d4": 2, "d6": 3, "d8": 3, "d10": 2, "d12": 1}
    mine = ENGINE.view(state, 0).me
    other = ENGINE.view(state, 1).me
    assert mine is not None and mine.draft == {"d10": 1, "d12": 1}
    assert other is not None and other.draft == {} and other.seat == 1
    assert ENGINE.view(state, 1).model_dump(exclude={"me"}) == public.model_dump(exclude={"me"})
    state, _ = do_ante(state)
    assert ENGINE.view(state, None).antes == [{"d10": 1, "d12": 1}, {"d4": 2}, {"d4": 2}]
    state, _ = do_calls(state)
    state, _ = act(state, 0, "pick", 8)
    public = ENGINE.view(state, None)
    assert [s.chosen for s in public.seats] == [True, False, False]
    assert ENGINE.view(state, 0).me.pick == 8  # type: ignore[union-attr]
    assert ENGINE.view(state, 1).me.pick is None  # type: ignore[union-attr]
    assert public == ENGINE.view(ENGINE.scramble_hidden(state, None, random.Random(0)), None)


def test_labels_and_rules_summary() -> None:
    state = ENGINE.new_game(2, RollTheBonesOptions(), seed=1)
    view = ENGINE.view(state, 0)
    labels = [action_label(view, a) for a in ENGINE.legal_actions(state, 0)]
    # the d12 is the bone die: given away, it may be lost, so the button says so
    assert labels[0] == "Ante a d4" and labels[-2] == "Ante my bone die (d12)"
    assert labels[-1] == "Fill with my smallest: 2×d4"
    drafted, _ = act(state, 0, "ante_add", BONE)
    assert all(len(action_label(ENGINE.view(drafted, 0), a)) <= 40 for a in ENGINE.legal_actions(drafted, 0))
    state, _ = act(state, 0, "ante_add", 10)
    state, _ = act(state, 0, "ante_fill")
    assert action_label(ENGINE.view(state, 0), A(kind="ante_confirm")) == "Seal my ante: d4, d10"
    state, _ = do_ante(state)
    view = ENGINE.view(state, 0)
    assert [action_label(view, a) for a in ENGINE.legal_actions(state, 0)] == [
        "Call my bone (2 changes left)", "I'm ready"]
    state, _ = act(state, 0, "bone_toggle")
    assert action_label(ENGINE.view(state, 0), WITHDRAW) == "Withdraw my call (1 change left)"
    assert [action_label(ENGINE.view(state, None), a) for a in (CALL, WITHDRAW)] == [
        "Call my bone", "Withdraw my call"]  # on the table, for whoever may press it
    assert action_label(view, A(kind="pick", sides=12)) == "Roll my bone die (d12)"
    for options in (RollTheBonesOptions(), RollTheBonesOptions(
            dice_set="all_d6", side_pots="simple", max_rounds=50)):
        text = rules_summary(options)
        assert len(text) < 4000 and "House rulings" in text and "Timeouts" in text
        assert not re.search(r"\bRB-\d+", text)  # the rulings in words, not by code
    assert "10×d6" in rules_summary(RollTheBonesOptions(dice_set="all_d6"))
    assert "Side pots (simple)" in rules_summary(RollTheBonesOptions(side_pots="simple"))
    assert "round **50**" in rules_summary(RollTheBonesOptions(max_rounds=50))


# -- simulation ------------------------------------------------------------------------------

DIE_WORD = re.compile(r"\bd\d+\b")


def _broken_invariants(state: RollTheBonesState, total: int) -> list[str]:
    """RULINGS 2.5, after every step: the names of those that do not hold.

    (Plain ``if``s and one ``assert`` by the caller: this runs ~150,000 times, and pytest's
    rewriting of every ``assert`` would double the time of the simulation.)"""
    broken = []
    hands, out_round = state.hands, state.eliminated_round
    if dice_in_play(state) != total:
        broken.append("dice are not conserved")
    if state.ante != state.base_ante + len(state.eliminated):
        broken.append("ante != base + eliminations")
    if sorted(state.eliminated) != [s for s, r in enumerate(out_round) if r is not None]:
        broken.append("eliminations are not recorded consistently")
    if any(hands[s] or s in state.in_round for s in state.eliminated):
        broken.append("an eliminated seat holds dice or plays")
    if state.phase == "over":
        return broken
    if state.round > state.options.max_rounds:
        broken.append("the round cap was passed")
    drafting = state.phase == "ante"
    if any(len(hands[s]) - (len(state.drafts[s]) if drafting else 0) < 1 for s in state.in_round):
        broken.append("a player still rolling holds no die outside the roll")
    if state.cycle == 1 and not all(hands[s] for s, r in enumerate(out_round) if r is None):
        broken.append("a live player starts a round without dice")
    if any(not pot.dice or not set(pot.eligible) <= set(state.in_round) for pot in state.pots):
        broken.append("a pot is empty or open to a seat out of the roll")
    return broken


def _check_round(before: RollTheBonesState, after: RollTheBonesState) -> None:
    """At the end of a round: the overall winner never loses dice; a player who took no pot and
    did not win never gains (RB-7 lets a second-highest player win the pots it paid for).

    One step can finish more than one round: a round in which nobody has a choice plays itself."""
    report = after.last_round
    assert report is not None and report.round >= before.round
    if report.round == before.round:
        assert list(report.counts_before) == before.counts_at_round_start
    takers = {a.taker for a in report.awards}
    for seat, (was, now) in enumerate(zip(report.counts_before, report.counts_after)):
        if seat == report.winner:
            assert now >= was
        elif seat not in takers:
            assert now <= was
    assert sum(report.counts_after) == sum(report.counts_before)
    assert report.ante_after == after.ante
    assert report.rolls[-1].result == "win" and report.rolls[-1].winner == report.winner
    assert all(r.result != "win" for r in report.rolls[:-1])


def _play(index: int, check_views: bool) -> tuple[RollTheBonesState, int]:
    """One whole game from seed ``index``, checked after every step; with ``check_views`` also
    that apply leaves its input alone, that no view shows another seat's sealed choice, the
    JSON round trip and the replay of the action log. Returns the final state and its steps."""
    rng = random.Random(index)
    seats = 2 + index % 5
    options = RollTheBonesOptions(
        dice_set=("mixed", "all_d6")[index // 5 % 2],
        side_pots=("layered", "simple")[index // 10 % 2],
        max_rounds=rng.randint(1, 12) if index % 3 else 200,
    )
    seed = rng.randrange(2**32)
    state = ENGINE.new_game(seats, options, seed)
    total = 11 * seats
    # Each seat plays the bot policy, uniformly random legal actions, timeouts only, or a mix
    # of the three step by step. (Random seats take ~3 times as many steps, hence their share.)
    policies = rng.choices(("ai", "random", "timeout", "mixed"), weights=(3, 2, 3, 2), k=seats)
    chooser = Chooser(random.Random(seed))
    log: list[tuple[int, RollTheBonesAction | None]] = []
    steps = 0
    while not ENGINE.is_over(state):
        steps += 1
        acting = ENGINE.to_act(state)
        if not acting or steps > 20_000:
            raise AssertionError(f"game {index} is stuck at step {steps}")
        seat = rng.choice(acting)
        legal = ENGINE.legal_actions(state, seat)
        if not 0 < len(legal) <= 25:
            raise AssertionError(f"{len(legal)} legal actions for {seat}")
        policy = policies[seat]
        if policy == "mixed":
            policy = rng.choice(("ai", "random", "timeout"))
        before = state
        if check_views:
            dump = state.model_dump()
        phase, cycle, round_ = state.phase, state.cycle, state.round
        if policy == "timeout":
            state, events = ENGINE.on_timeout(state, seat)
            log.append((seat, None))
        else:
            action = ENGINE.ai_action(state, seat, chooser) if policy == "ai" else rng.choice(legal)
            state, events = ENGINE.apply(state, seat, action)
            log.append((seat, action))
        broken = _broken_invariants(state, total)
        if (phase, cycle, round_) == (state.phase, state.cycle, state.round) and phase != "bone":
            # still inside the same sealed phase: nothing said may name a die
            if any(DIE_WORD.search(e.text) for e in events):
                broken.append(f"a sealed choice was told: {texts(events)}")
        if broken:
            raise AssertionError(f"game {index}, step {steps}: {broken}")
        if state.round != round_ or before.last_round is not state.last_round:
            _check_round(before, state)
        if check_views:
            assert before.model_dump() == dump  # apply never changes its input
            public = ENGINE.view(state, None)
            scramble = random.Random(steps)
            assert public == ENGINE.view(ENGINE.scramble_hidden(state, None, scramble), None)
            if state.in_round:  # and one seat's own view, whatever the others chose
                s = rng.choice(state.in_round)
                assert ENGINE.view(state, s) == ENGINE.view(ENGINE.scramble_hidden(state, s, scramble), s)
    # the end: one player holds every die, or the round cap was reached
    if state.end_reason == "last_player":
        assert sorted(counts(state)) == [0] * (seats - 1) + [total]
    else:
        assert state.end_reason == "cap" and state.round == options.max_rounds
        assert sum(1 for c in counts(state) if c) >= 2
    outcomes = ENGINE.outcomes(state)
    best = max(counts(state))
    assert {o.seat for o in outcomes if o.rank == 1} == {s for s, c in enumerate(counts(state)) if c == best}
    assert all(o.score == len(state.hands[o.seat]) for o in outcomes)
    if check_views:
        again = RollTheBonesState.model_validate_json(state.model_dump_json())
        assert again == state
        replay = ENGINE.new_game(seats, options, seed)
        for seat, action in log:
            replay, _ = (ENGINE.on_timeout(replay, seat) if action is None
                         else ENGINE.apply(replay, seat, action))
        assert replay == state
    return state, steps


def test_simulated_games_keep_the_invariants() -> None:
    ends = {"last_player": 0, "cap": 0}
    seen = set()
    for index in range(1000):
        state, _ = _play(index, check_views=index % 97 == 0)
        assert state.end_reason is not None
        ends[state.end_reason] += 1
        seen.add((state.seats, state.options.dice_set, state.options.side_pots))
    assert len(seen) == 5 * 2 * 2  # every seat count with both options
    assert ends["last_player"] > 350 and ends["cap"] > 350  # two tables in three have a short cap


def test_scrambling_what_a_viewer_may_not_see_changes_nothing_it_sees() -> None:
    """``scramble_hidden`` declares the secrets: every other seat's ante being built and picked
    die. Whatever they are changed to, every viewer's view (the channel's too) stays the same;
    and the scramble does change them, so the declaration is not empty."""
    rng = random.Random(41)
    changed = {"ante": 0, "pick": 0}
    for game in range(40):
        seats = 2 + game % 5
        state = ENGINE.new_game(seats, RollTheBonesOptions(max_rounds=4), seed=game)
        chooser = Chooser(random.Random(game))
        while not ENGINE.is_over(state):
            for viewer in [None, *range(seats)]:
                scrambled = ENGINE.scramble_hidden(state, viewer, rng)
                assert ENGINE.view(scrambled, viewer) == ENGINE.view(state, viewer), (game, viewer)
                assert scrambled.hands == state.hands and scrambled.confirmed == state.confirmed
                if scrambled.drafts != state.drafts:
                    changed["ante"] += 1
                    assert ENGINE.view(scrambled, None) == ENGINE.view(state, None)
                if scrambled.picks != state.picks:
                    changed["pick"] += 1
            seat = rng.choice(ENGINE.to_act(state))
            legal = ENGINE.legal_actions(state, seat)
            action = rng.choice(legal) if rng.random() < 0.5 else ENGINE.ai_action(state, seat, chooser)
            state, _ = ENGINE.apply(state, seat, action)
    assert changed["ante"] > 100 and changed["pick"] > 100, changed


def test_mid_game_state_survives_a_json_round_trip() -> None:
    state = ENGINE.new_game(4, RollTheBonesOptions(side_pots="simple"), seed=77)
    chooser = Chooser(random.Random(3))
    rng = random.Random(3)
    for _ in range(300):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat))
                                if rng.random() < 0.5 else ENGINE.ai_action(state, seat, chooser))
        again = RollTheBonesState.model_validate_json(state.model_dump_json())
        assert again == state and ENGINE.view(again, seat) == ENGINE.view(state, seat)
        assert isinstance(ENGINE.view(again, None), RollTheBonesView)
