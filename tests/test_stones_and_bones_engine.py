"""Stones & Bones engine: the RULINGS.md 5.5 bet table, the Crossbones classifier against the
exact counts of 5.3, scenario tests with forced dice, and five hundred random games that check
the invariants of 5.6 after every step and replay from their seeds."""

from __future__ import annotations

import re

import csv
import io
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement, product
from math import factorial, prod

import pytest
from pydantic import ValidationError

from rules.base import Chooser, GameError, IllegalAction
from rules.stones_and_bones import (
    ENGINE,
    LAST_TIDE,
    MUTINY_WINDOW,
    TURN_CAP,
    StonesAndBonesAction,
    StonesAndBonesOptions,
    StonesAndBonesState,
    StonesAndBonesView,
    action_label,
    bet_of,
    coins,
    crossbones_name,
    crossbones_of,
    expected_bet,
    ledger,
    money,
    options_with_purses,
    read_bones,
    rules_summary,
    signed_coins,
    signed_money,
    start_turn,
)
from rules.stones_and_bones.flow import stone_result
from rules.stones_and_bones.reading import BET_SUM_TIDE_1, bet_sum_by_enumeration, throw_of

A = StonesAndBonesAction
Options = StonesAndBonesOptions
QUIET = (3, 7, 12, 16)  # 1 cp + 1 sp + 2 gp = 211 cp: no match, no 1, no 20, no Crossbones
QUIET_BET = 211


def new(seats: int = 3, captain: int = 0, bones: Sequence[int] = QUIET, then: Sequence[int] = (),
        **options: object) -> StonesAndBonesState:
    """A fresh game where ``captain`` wins the roll-off and throws ``bones`` first; ``then``
    are the dice that follow."""
    roll_off = [20 if seat == captain else 1 for seat in range(seats)]
    return ENGINE.new_game(seats, Options(**options), seed=11,  # type: ignore[arg-type]
                           forced=[*roll_off, *bones, *then])


def restage(state: StonesAndBonesState, seat: int, bones: Sequence[int],
            then: Sequence[int] = ()) -> StonesAndBonesState:
    state.dice.forced = [*bones, *then]
    state, _ = start_turn(state, seat)
    return state


def act(state: StonesAndBonesState, seat: int, kind: str, target: int | None = None,
        amount: int | None = None) -> tuple[StonesAndBonesState, list[str]]:
    new_state, events = ENGINE.apply(state, seat, A(kind=kind, target=target, amount=amount))  # type: ignore[arg-type]
    return new_state, [e.text for e in events]


def kinds(state: StonesAndBonesState, seat: int) -> list[str]:
    return [a.kind for a in ENGINE.legal_actions(state, seat)]


def purses(state: StonesAndBonesState) -> list[int]:
    return [p.purse for p in state.pirates]


def conserved(state: StonesAndBonesState) -> bool:
    """RULINGS 5.6: Σ purses + coffer + cashed out (+ Grumbles money waiting) = Σ buy-ins."""
    held = sum(p.purse + p.cashed_out for p in state.pirates) + state.coffer + sum(state.carry)
    return held == sum(p.bought_in for p in state.pirates)


# -- coins and the bet ----------------------------------------------------------------------------


def test_coins_are_copper_with_change_made() -> None:
    assert coins(347) == "3 gp 4 sp 7 cp"
    assert coins(2400) == "2 pp 4 gp"
    assert coins(0) == "0 cp" and coins(5000) == "5 pp" and coins(10) == "1 sp"
    # the table counts platinum in gold, so purses compare at a glance and stay exact
    assert [money(cp) for cp in (0, 7, 95, 100, 3000, 3147, 4999, 2400)] == [
        "0 cp", "7 cp", "9 sp 5 cp", "1 gp", "30 gp", "31 gp 4 sp 7 cp", "49 gp 9 sp 9 cp", "24 gp"]
    assert signed_money(-3147) == "-31 gp 4 sp 7 cp" and signed_money(2400) == "+24 gp"
    assert signed_coins(-212) == "-2 gp 1 sp 2 cp" and signed_coins(5) == "+5 cp"


@pytest.mark.parametrize(("faces", "tiers", "cp", "wrong"), [
    ((2, 2, 4, 12), "6 cp, 1 gp", 106, None),
    ((5, 5, 5, 2), "12 cp", 12, None),
    ((10, 10, 12, 12), "4 sp, 4 gp", 440, "4 sp, 1 gp"),  # the rulebook's «4sp, 1gp» is wrong
    ((6, 8, 12, 20), "4 sp, 4 gp", 440, None),
    ((20, 2, 4, 2), "12 cp, 2 gp", 212, "12 cp, 4 gp"),  # the rulebook's «12cp, 4gp» is wrong
    ((17, 17, 20, 17), "24 gp", 2400, None),
])
def test_golden_bets_of_rulings_5_5(faces: tuple[int, ...], tiers: str, cp: int,
                                    wrong: str | None) -> None:
    reading = read_bones(faces)
    assert reading.final.text() == tiers and reading.bet == cp == bet_of(faces)
    assert reading.final.text() != wrong
    if faces == (17, 17, 20, 17):
        assert coins(reading.bet) == "2 pp 4 gp"  # «24gp = 2pp, 4gp»


def test_the_bet_step_by_step() -> None:
    reading = read_bones((20, 2, 4, 2), tide=3)
    assert reading.steps == (
        "Tiers: 2, 4, 2 → 3 cp; 20 → 1 gp",
        "Ill Omens on Copper (two 2s ×2): 3 cp × 2 = 6 cp",
        "Bane (a 20): (6 cp, 1 gp) × 2 = 12 cp, 2 gp",
        "× Tide 3 = 36 cp, 6 gp = 6 gp 3 sp 6 cp",
    )
    assert reading.bet == 636 and reading.bane and not reading.blessing
    assert [b.tier for b in reading.bones] == ["gold", "copper", "copper", "copper"]
    assert [b.omen for b in reading.bones] == [False, True, False, True]
    assert read_bones((1, 7, 12, 16)).blessing and read_bones((1, 7, 12, 16)).stones == 2


def test_ill_omens_two_groups_in_one_tier_sb5() -> None:
    assert read_bones((3, 3, 5, 5)).bet == 16  # 4 cp × 2 × 2
    assert read_bones((3, 3, 5, 5), rule="max_group").bet == 8  # 4 cp × 2
    assert read_bones((20, 20, 20, 9)).bet == 2 * (3 * 3 * GP_ + 10)  # one Bane for three 20s


GP_ = 100


def test_the_mean_bet_is_exact() -> None:
    """Appendix A: 313.32 cp (product rule) and 311.67 cp (largest group); bet_of agrees with
    the full reading on every roll."""
    for rule in ("product", "max_group"):
        assert bet_sum_by_enumeration(rule) == BET_SUM_TIDE_1[rule]  # type: ignore[index]
    assert round(expected_bet(), 2) == 313.32 and round(expected_bet(1, "max_group"), 2) == 311.67
    for roll in combinations_with_replacement(range(1, 21), 4):  # the fast numbers agree
        reading, fast = read_bones(roll), throw_of(roll)
        assert fast.bet == reading.bet and fast.final == (reading.final.copper,
                                                          reading.final.silver, reading.final.gold)
        assert (fast.bane, fast.blessing, fast.ill_omens, fast.crossbones) == (
            reading.bane, reading.blessing, reading.ill_omens, reading.crossbones)
        assert fast.summary() == reading.summary()
        if len(reading.omens) == 2:
            assert bet_of(roll, 3, "max_group") == read_bones(roll, 3, "max_group").bet


# -- Crossbones and the Stone: exact counts over all rolls ----------------------------------------


def test_crossbones_classifier_matches_rulings_5_3_on_all_160000_rolls() -> None:
    """SB-6 readings: at least two 1s / 20s, any run of four, at least three 13s, four of a kind
    of any value. RULINGS 5.3 / Appendix A give the counts."""
    each: Counter[str] = Counter()
    union = blessing = bane = omens = 0
    for roll in product(range(1, 21), repeat=4):
        found = crossbones_of(roll)
        each.update(found)
        union += bool(found)
        blessing += 1 in roll
        bane += 20 in roll
        omens += len(set(roll)) < 4
    assert each == {"Daggers": 2243, "Dubloons": 2243, "Jacob's Ladder": 408,
                    "Thirteen Thrice": 77, "Rum Runner": 20}
    assert union == 4982  # 3.1138 %, 1:32.1
    assert blessing == bane == 29679 and omens == 43720


def test_crossbones_names() -> None:
    assert crossbones_name((1, 9, 1, 4)) == "Daggers" and crossbones_name((1, 1, 1, 5)) == "Daggers"
    assert crossbones_name((20, 3, 20, 20)) == "Dubloons"
    assert crossbones_name((10, 8, 7, 9)) == "Jacob's Ladder"
    assert crossbones_name((17, 18, 19, 20)) == "Jacob's Ladder"
    assert crossbones_name((7, 8, 9, 11)) is None and crossbones_name((7, 8, 9, 9)) is None
    assert crossbones_name((13, 2, 13, 13)) == "Thirteen Thrice"
    assert crossbones_name((13, 13, 13, 13)) == "Rum Runner"  # the rarer name; both show
    assert crossbones_of((13, 13, 13, 13)) == ["Rum Runner", "Thirteen Thrice"]
    assert crossbones_of((1, 20, 1, 20)) == ["Daggers", "Dubloons"]
    assert read_bones((1, 1, 8, 15)).crossbones == "Daggers"


def test_the_tables_come_from_data_and_bad_data_is_refused() -> None:
    """data/stones_and_bones.json holds the coins, tiers, Bones and Crossbones the rulings
    read (SB-3 to SB-6), validated when the game loads."""
    import json

    from rules.base import DATA_DIR
    from rules.stones_and_bones.models import DATA, GameData
    from rules.stones_and_bones.reading import CROSSBONES, TIER_ABBR, TIER_VALUE

    raw = json.loads((DATA_DIR / "stones_and_bones.json").read_text(encoding="utf-8"))
    assert GameData.model_validate(raw) == DATA
    assert (DATA.bones, DATA.faces, DATA.bane, DATA.blessing, DATA.captains_luck) == (4, 20, 20, 1, 13)
    assert TIER_VALUE == {"copper": 1, "silver": 10, "gold": 100} and TIER_ABBR["silver"] == "sp"
    assert CROSSBONES == ("Rum Runner", "Thirteen Thrice", "Jacob's Ladder", "Daggers", "Dubloons")
    assert (DATA.money.purse, DATA.money.ante, DATA.money.grumble_fee) == (5000, 10, 100)

    def broken(change: dict[str, object]) -> None:
        with pytest.raises(ValidationError):
            GameData.model_validate({**raw, **change})

    broken({"coins": [{"name": "pp", "cp": 1000}, {"name": "gp", "cp": 300}, *raw["coins"][2:]]})
    broken({"coins": raw["coins"][::-1]})  # the largest first: change is made in that order
    broken({"tiers": [{**raw["tiers"][0], "highest": 12}, *raw["tiers"][1:]]})  # overlapping
    broken({"tiers": [*raw["tiers"][:2], {**raw["tiers"][2], "highest": 19}]})  # a face left out
    broken({"crossbones": [*raw["crossbones"], raw["crossbones"][0]]})  # a name twice
    broken({"crossbones": [{"name": "X", "text": "x", "shape": "at_least", "face": 21, "count": 2}]})
    broken({"captains_luck": 21})


def test_stone_odds_match_appendix_a() -> None:
    """Float with one Stone: 29679/160000; the Captain (Float or 13): 723901/3200000."""
    floats = captain = 0
    for roll in combinations_with_replacement(range(1, 21), 4):
        weight = factorial(4) // prod(factorial(n) for n in Counter(roll).values())
        reading = throw_of(roll)
        for stone in range(1, 21):
            floats += weight * (stone_result(reading, [stone], None, captain=False) == "float")
            captain += weight * (stone_result(reading, [stone], None, captain=True) is not None)
    assert floats == 29679 * 20 and captain == 723901


# -- setting up -----------------------------------------------------------------------------------


def test_new_game_rolls_for_captain_who_throws_first() -> None:
    state = new(4, captain=2)
    assert state.captain == state.current == 2 and state.wave == 1 and state.tide == 1
    assert state.turn is not None and state.turn.bones == list(QUIET) and state.turn.ante == 10
    assert purses(state) == [5000, 5000, 4990, 5000] and state.coffer == 10  # SB-4: 50 gp
    assert ENGINE.to_act(state) == [2] and kinds(state, 2) == ["pay", "fly"]
    tied = ENGINE.new_game(3, Options(), 1, forced=[15, 15, 3, 4, 9, *QUIET])  # a tie re-rolls
    assert tied.captain == 1 and tied.current == 1
    captains = {ENGINE.new_game(3, Options(), seed).captain for seed in range(30)}
    assert captains == {0, 1, 2}


def test_seats_and_purses() -> None:
    assert ENGINE.seat_range(Options()) == (2, 6)
    for seats in (1, 7):
        with pytest.raises(GameError):
            ENGINE.new_game(seats, Options(), 1)
    state = ENGINE.new_game(3, Options(purses=[100, 2500, 90000]), 1)
    assert [p.bought_in for p in state.pirates] == [100, 2500, 90000]
    assert ENGINE.seat_range(Options(purses=[100, 2500, 90000])) == (3, 3)
    with pytest.raises(GameError):
        ENGINE.new_game(2, Options(purses=[100, 2500, 90000]), 1)
    with pytest.raises(ValidationError):
        Options(purses=[100, -1])
    with pytest.raises(ValidationError):
        Options(starting_purse=0)
    with pytest.raises(ValidationError):
        Options(ante="never")  # type: ignore[arg-type]
    assert Options(buy_ins=[500, 100, 500]).buy_ins == [100, 500]


# -- the turn -------------------------------------------------------------------------------------


def test_sink_then_float_claims_the_coffer_and_the_captaincy() -> None:
    state = new(3, captain=0, then=[5, 2, 8, 11, 19, 8])
    state, texts = act(state, 0, "pay")
    assert state.coffer == 10 + 211 + 10 and state.current == 1  # seat 1 anted
    assert state.last_turn is not None and state.last_turn.result == "sink"
    assert state.last_turn.stones == [5]
    assert any("Sink" in t for t in texts)
    state, texts = act(state, 1, "pay")
    assert any("Float" in t for t in texts)
    assert state.captain == 1 and state.wave == 2 and state.waves_played == 1
    assert purses(state)[:3] == [5000 - 221, 5000 - 221 + 442 - 10, 5000]  # 10: the next ante
    assert state.current == 1 and state.coffer == 10 and conserved(state)


def test_captains_luck_is_a_float_and_a_plunder() -> None:
    state = new(3, captain=0, then=[13])
    state, texts = act(state, 0, "pay")
    assert state.turn is not None and state.turn.result == "luck"
    assert any("Captain's Luck" in t for t in texts)
    assert state.phase == "mutiny_call" and ENGINE.to_act(state) == [1, 2]  # SB-12: plunder


def test_not_the_captain_a_13_is_just_a_stone() -> None:
    state = restage(new(3, captain=0), 1, QUIET, then=[13])
    state, _ = act(state, 1, "pay")
    assert state.last_turn is not None and state.last_turn.result == "sink"


def test_blessing_throws_two_stones() -> None:
    state = restage(new(3, captain=0), 1, (1, 7, 12, 16), then=[4, 12])
    assert "two Stones" in action_label(ENGINE.view(state, 1), ENGINE.legal_actions(state, 1)[0])
    state, _ = act(state, 1, "pay")
    record = state.last_turn if state.last_turn and state.last_turn.seat == 1 else state.turn
    assert record is not None and record.stones == [4, 12] and record.result == "float"


def test_pilfer_uses_the_last_sunk_stone() -> None:
    state = new(3, captain=0, then=[2, 2, 8, 11, 19, 4])
    state, _ = act(state, 0, "pay")  # Stone 2 sinks and lies on the table
    assert state.table_stone is not None and state.table_stone.value == 2
    assert ENGINE.to_act(state) == [1, 0]  # SB-14: its owner may pick it up first
    assert kinds(state, 1) == ["pay", "pilfer", "fly"]
    assert kinds(state, 0) == ["leave_stone", "pick_up"]
    state, texts = act(state, 1, "pilfer")
    assert any("Pilfering Seat 1's 2" in t for t in texts)
    assert state.captain == 1 and state.waves_played == 1  # own 4 missed, the pilfered 2 floats


def test_the_owner_may_pick_up_the_stone() -> None:
    state = new(3, captain=0, then=[2, 2, 8, 11, 19])
    state, _ = act(state, 0, "pay")
    state, texts = act(state, 0, "pick_up")
    assert state.table_stone is None and ENGINE.to_act(state) == [1]
    assert "pilfer" not in kinds(state, 1) and texts == ["Seat 1 picks up their Stone."]
    left, _ = act(new(3, then=[2, 2, 8, 11, 19]), 0, "pay")
    left, texts = act(left, 0, "leave_stone")
    assert texts == ["Seat 1 leaves their Stone (2) on the table."]
    assert ENGINE.to_act(left) == [1] and "pilfer" in kinds(left, 1)


def test_pilfer_options() -> None:
    off = act(new(3, pilfer="off", then=[2, 2, 8, 11, 19]), 0, "pay")[0]
    assert off.table_stone is None and "pilfer" not in kinds(off, 1)
    always = act(new(3, pilfer="always", then=[2, 2, 8, 11, 19]), 0, "pay")[0]
    assert ENGINE.to_act(always) == [1] and "pilfer" in kinds(always, 1)


def test_a_pilfered_13_is_no_captains_luck_sb7() -> None:
    state = restage(new(3, captain=2), 1, QUIET, then=[13, *QUIET, 4])
    state, _ = act(state, 1, "pay")  # seat 1 (not Captain) sinks a 13
    assert state.current == 2 and state.table_stone is not None and state.table_stone.value == 13
    state, _ = act(state, 2, "pilfer")  # the Captain's own 4 misses; the pilfered 13 is not luck
    assert state.last_turn is not None and state.last_turn.result == "sink"
    assert state.last_turn.pilfered == 13


def test_captains_luck_counts_on_the_second_blessing_stone_sb7() -> None:
    blessed = (1, 7, 12, 16)  # a Blessing: two Stones; neither 5 nor 13 is among the Bones
    state, texts = act(new(3, captain=0, bones=blessed, then=[5, 13]), 0, "pay")
    assert state.turn is not None and state.turn.stones == [5, 13] and state.turn.result == "luck"
    assert any("Captain's Luck" in t for t in texts) and state.phase == "mutiny_call"
    view = ENGINE.view(state, None).turn
    assert view is not None and [(v.luck, v.floats) for v in view.stones] == [(False, False), (True, False)]
    # the same two Stones for a player who is not Captain: a Sink, and only the second Stone
    # is left on the table
    other, _ = act(restage(new(3, captain=0), 1, blessed, then=[5, 13]), 1, "pay")
    assert other.last_turn is not None and other.last_turn.seat == 1
    assert other.last_turn.result == "sink" and other.last_turn.stones == [5, 13]
    assert other.table_stone is not None and (other.table_stone.owner, other.table_stone.value) == (1, 13)


def test_a_blessing_and_a_pilfer_make_three_stones_sb7() -> None:
    # seat 1 Sinks a 2; seat 2 throws a Blessing, Pilfers the 2 and throws two Stones of its own
    state = new(3, captain=0, then=[2, 1, 2, 9, 14, 5, 6, *QUIET])
    state, _ = act(state, 0, "pay")
    assert kinds(state, 1) == ["pay", "pilfer", "fly"]
    state, texts = act(state, 1, "pilfer")
    assert "Seat 2 throws the Stone (Blessing: two Stones): 5 and 6, Pilfering Seat 1's 2." in texts
    record = state.last_turn
    assert record is not None and record.seat == 1 and record.result == "float"
    assert record.stones == [5, 6] and record.pilfered == 2
    assert state.captain == 1 and state.waves_played == 1
    # exactly two Stones of its own were thrown: the next Bones are the dice forced after them
    assert state.turn is not None and state.turn.bones == list(QUIET) and state.dice.forced == []
    stones = ENGINE.view(state, None).last_turn.stones  # type: ignore[union-attr]
    assert [(v.value, v.pilfered, v.floats) for v in stones] == [(5, False, False), (6, False, False),
                                                                 (2, True, True)]


def test_the_pilfer_window_closes_when_the_next_player_throws_sb14() -> None:
    # seat 1 Sinks a 2; seat 2 throws without Pilfering and Sinks a 4
    state = new(3, captain=0, then=[2, *QUIET, 4, *QUIET])
    state, _ = act(state, 0, "pay")
    assert ENGINE.to_act(state) == [1, 0] and "pilfer" in kinds(state, 1)
    state, _ = act(state, 1, "pay")
    assert state.last_turn is not None and state.last_turn.pilfered is None
    assert state.table_stone is not None and (state.table_stone.owner, state.table_stone.value) == (1, 4)
    assert ENGINE.to_act(state) == [2, 1] and kinds(state, 0) == []  # seat 1's 2 is gone
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, A(kind="pick_up"))
    state, _ = act(state, 2, "pilfer")
    assert state.last_turn is not None and state.last_turn.pilfered == 4  # seat 2's, not seat 1's
    # Flying the Black throws no Stone: the window closes and nothing is left to Pilfer
    flown, _ = act(new(3, captain=0, then=[2, *QUIET, *QUIET]), 0, "pay")
    flown, _ = act(flown, 1, "fly")
    assert flown.table_stone is None and ENGINE.to_act(flown) == [2] and "pilfer" not in kinds(flown, 2)


def test_fold_only_with_the_option() -> None:
    assert "fold" not in kinds(new(3), 0)
    state = new(3, fold=True)
    assert kinds(state, 0) == ["pay", "fly", "fold"]
    state, _ = act(state, 0, "fold")
    assert state.last_turn is not None and state.last_turn.result == "fold"
    assert purses(state)[0] == 4990 and state.coffer == 20 and state.current == 1


def test_a_player_who_cannot_pay_the_bet_may_not_fold_sb10() -> None:
    """SB-10 over SB-11: «If broke on bet» → Walk the Plank, even with fold on; fold stays for a
    player who can pay."""
    broke = restage(new(3, fold=True, purses=[5000, 300, 5000]), 1, (17, 17, 20, 17),
                    then=[2, 5, 9, 14])
    assert kinds(broke, 1) == ["plank", "fly"]  # 24 gp against 2 gp 9 sp
    with pytest.raises(IllegalAction):
        ENGINE.apply(broke, 1, A(kind="fold"))
    assert ENGINE.timeout_action(broke, 1).kind == "plank"
    assert ENGINE.ai_action(broke, 1, Chooser(random.Random(1))).kind in ("plank", "fly")
    broke, _ = act(broke, 1, "plank")
    assert broke.pirates[1].status == "eliminated" and conserved(broke)
    flown = restage(new(3, fold=True, purses=[5000, 300, 5000]), 1, (17, 17, 20, 17))
    flown.pirates[1].flew_tide = 1  # Fly the Black already used this Tide: the Plank only
    assert kinds(flown, 1) == ["plank"]
    able = restage(new(3, fold=True, purses=[5000, 300, 5000]), 1, QUIET)
    assert kinds(able, 1) == ["pay", "fly", "fold"]  # 2 gp 1 sp 1 cp from 2 gp 9 sp
    able, _ = act(able, 1, "fold")
    assert able.last_turn is not None and able.last_turn.result == "fold"
    assert able.pirates[1].purse == 290 and able.pirates[1].status == "afloat"


def test_ante_per_wave_all() -> None:
    state = new(3, ante="per_wave_all", purses=[5000, 5, 5000], then=[5, 2, 5, 9, 14])
    assert state.coffer == 20 and state.turn is not None and state.turn.ante == 0
    assert purses(state) == [4990, 5, 4990] and state.pirates[1].owes_ante
    state, texts = act(state, 0, "pay")  # a Sink; seat 2 could not ante, so walks the Plank
    assert "Seat 2 could not ante this wave." in texts
    assert state.pirates[1].status == "eliminated" and state.current == 2
    assert state.coffer == 20 + 211 + 5 and state.turn is not None and state.turn.ante == 0
    assert conserved(state)


# -- Walk the Plank -------------------------------------------------------------------------------


def test_walk_the_plank_and_drown() -> None:
    state = restage(new(3, purses=[5000, 300, 5000]), 1, (17, 17, 20, 17), then=[2, 5, 9, 14])
    assert kinds(state, 1) == ["plank", "fly"]  # 2400 cp against 290 cp
    label = action_label(ENGINE.view(state, 1), ENGINE.legal_actions(state, 1)[0])
    assert label == "Walk the Plank (can't cover 24 gp)"
    state, texts = act(state, 1, "plank")
    assert state.pirates[1].status == "eliminated" and state.pirates[1].purse == 0
    assert any("out of the game" in t for t in texts)
    assert state.current == 2 and state.coffer == 300 + 10 and conserved(state)
    assert ledger(state)[1].net == -300
    for _ in range(30):  # an eliminated player never acts again
        seat = ENGINE.to_act(state)[0]
        assert 1 not in ENGINE.to_act(state)
        state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, Chooser(random.Random())))


def test_walk_the_plank_into_crossbones() -> None:
    state = restage(new(3, purses=[5000, 300, 5000]), 1, (17, 17, 20, 17), then=[20, 20, 5, 9])
    state, texts = act(state, 1, "plank")
    assert any("Dubloons" in t for t in texts)
    assert state.cursed == 1 and state.captain == 1 and state.phase == "anchor"
    assert state.pirates[1].purse == 300 and state.coffer == 0  # 10 ante + 290 all in, claimed


def test_cannot_ante_walks_the_plank() -> None:
    state = restage(new(3, purses=[5000, 5, 5000]), 1, (2, 5, 9, 14))
    assert state.pirates[1].status == "eliminated" and state.current == 2
    assert state.coffer == 5 + 10 and conserved(state)


def test_the_last_pirate_afloat_takes_the_coffer() -> None:
    state = restage(new(2, purses=[5000, 5]), 1, (2, 5, 9, 14))
    assert ENGINE.is_over(state) and state.ended_by == "afloat"
    assert purses(state) == [5005, 0] and state.coffer == 0
    assert [o.rank for o in ENGINE.outcomes(state)] == [1, 2]
    assert sum(row.net for row in ledger(state)) == 0


# -- Fly the Black --------------------------------------------------------------------------------


def test_fly_the_black_replaces_the_bet_and_throws_no_stone() -> None:
    state = new(3, bones=(17, 17, 20, 17), then=QUIET)
    state, texts = act(state, 0, "fly")
    record = state.last_turn
    assert record is not None and record.flown == list(QUIET) and record.stones == []
    assert record.result == "sink" and record.paid == QUIET_BET  # SB-9: the old bet is not paid
    assert purses(state)[0] == 5000 - 10 - QUIET_BET and state.pirates[0].flew_tide == 1
    assert any("Flies the Black" in t for t in texts)
    state = restage(state, 0, (17, 17, 20, 17))
    assert "fly" not in kinds(state, 0)  # once per Tide
    state.tide = 2
    state = restage(state, 0, (17, 17, 20, 17))
    assert "fly" in kinds(state, 0)  # reset at the Tide rise


def test_fly_the_black_into_crossbones() -> None:
    state = new(3, bones=(17, 17, 20, 17), then=(1, 1, 8, 15))
    state, texts = act(state, 0, "fly")
    assert any("Crossbones (Daggers)" in t for t in texts)
    assert state.cursed == 0 and state.phase == "mutiny_call"  # the Captain claimed again


def test_fly_the_black_into_a_bet_too_big_walks_the_plank_sb9() -> None:
    state = restage(new(3, purses=[5000, 300, 5000]), 1, QUIET, then=[17, 17, 20, 17, 2, 5, 9, 14])
    assert kinds(state, 1) == ["pay", "fly"]  # the first bet (2 gp 1 sp 1 cp) could be paid
    state, texts = act(state, 1, "fly")
    assert "Seat 2 cannot cover the new bet of 24 gp." in texts
    record = state.last_turn
    assert record is not None and record.flown == [17, 17, 20, 17] and record.plank == [2, 5, 9, 14]
    assert record.result == "drowned" and record.stones == [] and record.paid == 290  # all in
    assert state.pirates[1].status == "eliminated" and state.pirates[1].purse == 0
    assert state.pirates[1].flew_tide == 1 and state.current == 2
    assert state.coffer == 10 + 290 + 10 and conserved(state)  # the antes of seats 2 and 3


# -- the Curse and Swallow the Anchor ---------------------------------------------------------------


def test_curse_no_stone_until_another_claims() -> None:
    state = restage(new(3), 1, (1, 1, 8, 15))  # Daggers: 4 cp + 1 sp + 1 gp
    state, texts = act(state, 1, "pay")
    assert any("Crossbones (Daggers)" in t for t in texts) and any("Cursed" in t for t in texts)
    assert state.cursed == 1 and state.captain == 1 and state.phase == "anchor"
    assert purses(state)[1] == 5000 - 10 - 114 + 124
    state.dice.forced = [*QUIET, *QUIET, 12]
    state, _ = act(state, 1, "stay_aboard")
    assert state.wave == 2 and state.current == 1 and kinds(state, 1) == ["pay", "fly"]
    label = action_label(ENGINE.view(state, 1), ENGINE.legal_actions(state, 1)[0])
    assert label == "Pay 2 gp 1 sp 1 cp (Cursed: no Stone)"
    state, _ = act(state, 1, "pay")
    assert state.last_turn is not None and state.last_turn.stones == []
    assert state.last_turn.result == "sink" and state.table_stone is None
    state, texts = act(state, 2, "pay")
    assert state.cursed is None and state.captain == 2 and any("Curse" in t for t in texts)


def test_a_crossbones_throws_no_stone_and_wins_even_when_cursed_sb6() -> None:
    state = restage(new(3), 1, (1, 1, 8, 15), then=[8, 15])  # Daggers, and a Blessing too
    state, _ = act(state, 1, "pay")
    assert state.turn is not None and state.turn.result == "crossbones" and state.phase == "anchor"
    assert state.turn.stones == [] and state.dice.forced == [8, 15]  # no Stone was thrown
    assert state.cursed == 1 and state.captain == 1
    # the Cursed Captain opens Wave 2 with Dubloons: the Crossbones wins (a plunder)
    state.dice.forced = [20, 3, 20, 4, 3, 4]
    state, _ = act(state, 1, "stay_aboard")
    assert state.turn is not None and state.turn.cursed and state.turn.captain
    coffer = state.coffer + 804  # (2 cp + 4 gp) × 2
    state, texts = act(state, 1, "pay")
    assert "Crossbones (Dubloons)! Seat 2 claims the coffer (8 gp 1 sp 4 cp)." in texts
    assert state.turn.result == "crossbones" and state.turn.stones == [] and state.dice.forced == [3, 4]
    assert state.phase == "mutiny_call" and state.cursed == 1 and state.coffer == coffer
    before = state.pirates[1].purse
    for seat in (0, 2):
        state, _ = act(state, seat, "pass")
    assert state.phase == "anchor" and state.pirates[1].purse == before + coffer


def test_only_the_latest_crossbones_winner_is_cursed() -> None:
    state = restage(new(3), 1, (1, 1, 8, 15))
    state, _ = act(state, 1, "pay")
    state.dice.forced = [*QUIET, 20, 20, 3, 4]
    state, _ = act(state, 1, "stay_aboard")
    state, _ = act(state, 1, "pay")
    state, _ = act(state, 2, "pay")  # seat 2 throws Dubloons
    assert state.cursed == 2 and state.captain == 2


def test_swallow_the_anchor_cashes_out_at_once() -> None:
    state = restage(new(3), 1, (1, 1, 8, 15))
    state, _ = act(state, 1, "pay")
    purse = state.pirates[1].purse
    state.dice.forced = [9, 4]  # the roll-off for the next Captain: seats 1 and 3
    state, texts = act(state, 1, "anchor")
    assert state.pirates[1].status == "ashore" and state.pirates[1].cashed_out == purse
    assert state.cursed is None and state.captain == 0 and state.current == 0
    assert any("Swallows the Anchor" in t for t in texts) and conserved(state)
    assert ledger(state)[1].cashed_out == purse and ledger(state)[1].net == purse - 5000


# -- Mutiny -----------------------------------------------------------------------------------------


def plundered(seats: int = 4) -> StonesAndBonesState:
    """Seat 1 is Captain, throws QUIET and Floats with a 7: the Captain plunders."""
    state = new(seats, captain=0, then=[7])
    state, _ = act(state, 0, "pay")
    assert state.phase == "mutiny_call" and state.coffer == 221
    return state


def to_the_vote(state: StonesAndBonesState) -> StonesAndBonesState:
    state, texts = act(state, 2, "mutiny")
    assert state.phase == "parley" and state.mutiny is not None and state.mutiny.mutineer == 2
    assert ENGINE.to_act(state) == [0, 1, 2, 3]
    assert len(ENGINE.legal_actions(state, 0)) == 1 + 3 * 3  # ready + 3 others × 3 gifts
    state, texts = act(state, 0, "give", target=1, amount=100)
    assert texts == ["Seat 1 gives Seat 2 1 gp."]
    for seat in range(4):
        state, _ = act(state, seat, "ready")
    assert state.phase == "vote" and ENGINE.to_act(state) == [1, 3]
    return state


def test_mutiny_call_passes_and_the_captain_takes_the_coffer() -> None:
    state = plundered()
    for seat in (1, 2):
        state, _ = act(state, seat, "pass")
        assert state.phase == "mutiny_call"
    state, texts = act(state, 3, "pass")
    assert texts[:2] == ["Seat 4 lets it be.", "Nobody cries Mutiny."] and state.waves_played == 1
    assert state.pirates[0].purse == 5000 - 221 + 221 - 10  # the next ante


def test_mutiny_fails_on_a_tied_vote_and_votes_are_sealed() -> None:
    state = to_the_vote(plundered())
    state, texts = act(state, 1, "nay")
    assert texts == ["Seat 2 has voted."]
    public = ENGINE.view(state, None)
    assert public.mutiny is not None and public.mutiny.votes == [None] * 4
    assert public.mutiny.voted == [1] and public.mutiny.yay is None
    assert ENGINE.view(state, 1).mutiny.votes[1] == "nay"  # type: ignore[union-attr]
    assert ENGINE.view(state, 3).mutiny.votes[1] is None  # type: ignore[union-attr]
    before = purses(state)
    state, texts = act(state, 3, "yay")
    assert any("No Yay majority" in t for t in texts)  # SB-12: a tie fails
    assert texts[1] == "The votes: Seat 2 Nay, Seat 4 Yay. No Yay majority: the Mutiny fails."
    assert state.pirates[0].purse == before[0] + 221 - 10 and purses(state)[1:] == before[1:]
    assert state.captain == 0 and conserved(state)


def test_a_failed_challenge() -> None:
    state = to_the_vote(plundered())
    state.dice.forced = [2, 3, 4, 15, 6, 5]  # d4s of seats 2-4, Captain d20 d6, Mutineer d20
    state, _ = act(state, 1, "yay")
    state, texts = act(state, 3, "yay")
    m = state.mutiny
    assert m is not None and m.revealed and m.paid == [0, 200, 300, 400]
    assert m.captain_roll == [15, 6] and m.captain_total == 21
    assert m.mutineer_roll == [5, 3, 2, 4] and m.mutineer_total == 14
    assert state.phase == "split" and ENGINE.to_act(state) == [0] and state.coffer == 1121
    assert kinds(state, 0) == ["keep", "share_all", "refund", "give_half", "give_half", "give_half"]
    assert any("The Mutiny fails" in t for t in texts)
    state, _ = act(state, 0, "keep")
    assert purses(state)[1:] == [4900, 4700, 4600] and state.captain == 0
    assert state.pirates[0].purse == 4779 - 100 + 1121 - 10 and conserved(state)


def test_a_successful_mutiny_and_a_split_with_the_side() -> None:
    state = to_the_vote(plundered())
    state.dice.forced = [2, 3, 4, 3, 1, 18]
    state, _ = act(state, 1, "yay")
    state, texts = act(state, 3, "yay")
    m = state.mutiny
    assert m is not None and m.captain_total == 4 and m.mutineer_total == 27 and m.winner == 2
    assert state.captain == 2 and ENGINE.to_act(state) == [2]
    assert kinds(state, 2)[:4] == ["keep", "share_all", "share_side", "refund"]
    state, texts = act(state, 2, "share_side")  # 1121: 373 each to seats 2 and 4, 375 kept
    assert texts[0] == ("Seat 3, who won the Challenge, splits the coffer: Seat 2 3 gp 7 sp 3 cp, Seat 4 3 gp "
                        "7 sp 3 cp; keeps 3 gp 7 sp 5 cp.")  # (the line it leaves in the history says how they won it)
    assert state.current == 2 and state.captain == 2  # the new Captain opens the next wave
    assert purses(state) == [4679, 5273, 5075 - 10, 4973] and conserved(state)


def test_a_tied_challenge_goes_to_the_captain() -> None:
    state = to_the_vote(plundered())
    state.dice.forced = [2, 3, 4, 10, 4, 5]
    state, _ = act(state, 1, "yay")
    state, _ = act(state, 3, "yay")
    assert state.mutiny is not None and state.mutiny.captain_total == state.mutiny.mutineer_total == 14
    assert state.mutiny.winner == 0


def test_the_cost_of_mutiny_is_not_multiplied_by_the_tide_sb12() -> None:
    state = new(4, captain=0)
    state.tide = 2
    state = restage(state, 0, QUIET, then=[7])
    state, _ = act(state, 0, "pay")
    assert state.phase == "mutiny_call" and state.coffer == 20 + 2 * QUIET_BET
    state = to_the_vote(state)
    state.dice.forced = [2, 3, 4, 15, 6, 5]
    state, _ = act(state, 1, "yay")
    state, texts = act(state, 3, "yay")
    m = state.mutiny
    assert m is not None and m.d4 == [None, 2, 3, 4]
    assert m.paid == [0, 200, 300, 400]  # d4 gp each at Tide 2, not × 2
    assert state.coffer == 20 + 2 * QUIET_BET + 900 and conserved(state)
    assert any("Seat 2 d4 2 pays 2 gp" in t for t in texts)


def test_a_tied_cutthroat_goes_to_the_captain_sb13() -> None:
    state = new(2, then=[7, 1, 10, 3, 2, 12, 2, 1])  # Float; heads; 10+3+2 = 15 vs 12+2+1 = 15
    state, _ = act(state, 0, "pay")
    m = state.mutiny
    assert m is not None and m.cutthroat and m.coin == "heads"
    assert m.captain_total == m.mutineer_total == 15 and m.winner == 0
    assert state.phase == "split" and ENGINE.to_act(state) == [0] and state.captain == 0
    state, _ = act(state, 0, "keep")
    assert state.captain == 0 and purses(state) == [5000 - 10, 5000] and conserved(state)  # their own 221 back


def cursed_captain_plunders() -> StonesAndBonesState:
    """Seat 1, Captain, throws Dubloons: Cursed, and a plunder; seat 3 cries Mutiny."""
    state = new(4, captain=0, bones=(20, 3, 20, 4))
    state, _ = act(state, 0, "pay")
    assert state.claim is not None and state.claim.kind == "crossbones" and state.cursed == 0
    return to_the_vote(state)


def test_a_successful_mutiny_lifts_the_curse_and_no_anchor_is_swallowed() -> None:
    state = cursed_captain_plunders()
    state.dice.forced = [2, 3, 4, 3, 1, 18]  # the Mutineer wins, 4 against 27
    state, _ = act(state, 1, "yay")
    state, _ = act(state, 3, "yay")
    assert state.mutiny is not None and state.mutiny.winner == 2
    assert state.cursed is None and state.captain == 2  # the Mutineer claimed the coffer
    state, _ = act(state, 2, "keep")
    # the Crossbones winner lost the coffer: no Swallow the Anchor, the next Wave begins
    assert state.phase == "turn" and state.waves_played == 1 and state.current == 2
    assert "anchor" not in [a.kind for seat in range(4) for a in ENGINE.legal_actions(state, seat)]
    assert state.pirates[0].status == "afloat" and conserved(state)


def test_a_crossbones_captain_who_beats_the_mutiny_may_swallow_the_anchor() -> None:
    state = cursed_captain_plunders()
    state.dice.forced = [2, 3, 4, 15, 6, 5]  # the Captain wins, 21 against 14
    state, _ = act(state, 1, "yay")
    state, _ = act(state, 3, "yay")
    state, _ = act(state, 0, "keep")
    assert state.phase == "anchor" and ENGINE.to_act(state) == [0] and state.cursed == 0
    assert kinds(state, 0) == ["stay_aboard", "anchor"]


def test_a_player_who_cannot_pay_the_cost_pays_everything() -> None:
    state = to_the_vote(plundered())
    state.pirates[3].purse, state.pirates[3].bought_in = 150, 150
    state.dice.forced = [1, 1, 4, 10, 4, 5]
    state, _ = act(state, 1, "yay")
    state, _ = act(state, 3, "nay")  # 1 Yay, 1 Nay: no Challenge, no cost
    assert state.pirates[3].purse == 150
    state = to_the_vote(plundered())
    state.pirates[3].purse, state.pirates[3].bought_in = 150, 150
    state.dice.forced = [1, 1, 4, 10, 4, 5]
    state, _ = act(state, 1, "yay")
    state, _ = act(state, 3, "yay")
    assert state.mutiny is not None and state.mutiny.paid[3] == 150 and state.pirates[3].purse == 0


def test_cutthroat_heads_and_the_mutineer_wins() -> None:
    state = new(2, then=[7, 1, 10, 3, 2, 12, 2, 2])  # Float; heads; 10+3+2 = 15 vs 12+2+2 = 16
    state, texts = act(state, 0, "pay")
    m = state.mutiny
    assert m is not None and m.cutthroat and m.coin == "heads" and m.mutineer == 1
    assert m.captain_total == 15 and m.mutineer_total == 16 and m.paid == [0, 0]  # no cost
    # (no "Share it with all aboard": between two pirates it is the same as giving half)
    assert state.phase == "split" and kinds(state, 1) == ["keep", "give_half"]
    state, _ = act(state, 1, "keep")
    assert state.captain == 1 and purses(state) == [4779, 5221 - 10] and conserved(state)


def test_cutthroat_tails_the_captain_keeps() -> None:
    state = new(2, then=[7, 2])
    state, texts = act(state, 0, "pay")
    assert state.mutiny is None and state.phase == "turn" and state.captain == 0
    assert any("tails" in t for t in texts) and purses(state) == [5000 - 10, 5000]


def test_any_claim_opens_a_mutiny() -> None:
    state = restage(new(3, mutiny_trigger="any_claim"), 1, QUIET, then=[7])
    state, _ = act(state, 1, "pay")
    assert state.phase == "mutiny_call" and state.captain == 1 and ENGINE.to_act(state) == [0, 2]


# -- Grumbles -------------------------------------------------------------------------------------


def test_grumbles_reroll_voids_a_float() -> None:
    state = restage(new(3, grumbles=True), 1, QUIET, then=[7])
    state, _ = act(state, 1, "pay")
    assert state.phase == "grumble" and ENGINE.to_act(state) == [0, 2]
    state, texts = act(state, 0, "grumble")
    assert state.carry == [100, 0, 0] and state.phase == "object"
    assert ENGINE.to_act(state) == [1, 2] and conserved(state)
    state, _ = act(state, 1, "allow")
    state.dice.forced = [4, *QUIET, 16]
    state, texts = act(state, 2, "allow")
    assert "The claim is void." in texts and state.current == 2 and state.captain == 0
    state, _ = act(state, 2, "pay")  # seat 3 Floats; nobody grumbles
    for seat in (0, 1):
        state, _ = act(state, seat, "let_stand")
    assert state.waves_played == 1 and state.captain == 2
    assert state.carry == [0, 0, 0] and state.coffer == 100 + 10  # the Grumbles money, an ante


def test_an_objection_kills_the_grumbles() -> None:
    state = restage(new(3, grumbles=True), 1, QUIET, then=[7])
    state, _ = act(state, 1, "pay")
    state, _ = act(state, 2, "grumble")
    state, texts = act(state, 1, "object")
    assert "Seat 2 objects: the Grumbles fails." in texts
    assert state.captain == 1 and state.waves_played == 1 and state.carry == [0, 0, 0]
    assert state.coffer == 100 + 10  # the Grumbles money went into the next coffer


def test_no_grumbles_in_cutthroat_or_by_default() -> None:
    assert act(new(2, grumbles=True, then=[7, 2]), 0, "pay")[0].phase == "turn"
    assert act(restage(new(3), 1, QUIET, then=[7]), 1, "pay")[0].phase == "turn"


# -- Tide rise and the end ----------------------------------------------------------------------------


def at_tide_rise(tide: int = 1) -> StonesAndBonesState:
    """Wave 4 of ``tide``: seat 1 Sinks, seat 2 Floats; seat 2 is 1 bet up, seat 1 one down."""
    state = new(3, then=[5, *QUIET, 7])
    state.wave, state.tide = 4, tide
    state, _ = act(state, 0, "pay")
    state, _ = act(state, 1, "pay")
    return state


def test_tide_rise_sealed_choices_heave_down_buy_in_and_a_new_captain() -> None:
    state = at_tide_rise()
    assert state.phase == "tide" and state.tide == 2 and state.wave == 1
    assert ENGINE.to_act(state) == [0, 1, 2]
    assert kinds(state, 0) == ["stay", "heave", "end", "buy", "buy", "buy"]
    state, texts = act(state, 0, "heave")
    assert texts == ["Seat 1 has chosen."]
    public, mine = ENGINE.view(state, None), ENGINE.view(state, 0)
    assert public.tide_choices[0].chosen and public.tide_choices[0].choice is None
    assert mine.tide_choices[0].choice == "heave"
    state, _ = act(state, 1, "buy", amount=1000)
    state.dice.forced = [5, 9, *QUIET]  # the roll-off between seats 2 and 3, then the Bones
    state, texts = act(state, 2, "stay")
    assert texts[1] == ("Tide-rise choices: Seat 1 Heaves Down with 47 gp 7 sp 9 cp; "
                        "Seat 2 buys in 10 gp; Seat 3 stays.")
    assert state.pirates[0].status == "ashore" and state.pirates[0].cashed_out == 4779
    assert state.pirates[1].purse == 5221 + 1000 and state.pirates[1].bought_in == 6000
    assert state.captain == 2 and state.current == 2 and state.turn is not None
    assert state.turn.ante == 20 and state.turn.tide == 2
    view = ENGINE.view(state, 2)
    assert view.turn is not None and view.turn.bones is not None and view.turn.bones.bet == 422
    assert [c.choice for c in ENGINE.view(state, None).tide_choices] == ["heave", "buy", "stay"]
    assert conserved(state)


def test_a_unanimous_vote_ends_the_game() -> None:
    state = at_tide_rise()
    for seat in range(3):
        state, texts = act(state, seat, "end")
    assert ENGINE.is_over(state) and state.ended_by == "vote" and ENGINE.to_act(state) == []
    rows = ledger(state)
    assert [r.net for r in rows] == [-221, 221, 0] and [r.cashed_out for r in rows] == [4779, 5221, 5000]
    assert [(o.rank, o.score) for o in ENGINE.outcomes(state)] == [(3, -221), (1, 221), (2, 0)]


def test_a_vote_to_end_that_not_everyone_casts_says_the_game_goes_on() -> None:
    """Ending takes every pirate still aboard: the button says so before the vote, and the
    choices' news says so after it, where 'Seat 1 votes to end the game' left its voter
    wondering why the next Wave came."""
    state = at_tide_rise()
    end = next(a for a in ENGINE.legal_actions(state, 0) if a.kind == "end")
    assert action_label(ENGINE.view(state, 0), end) == "Vote to end the game (all must agree)"
    state, _ = act(state, 0, "end")
    state, _ = act(state, 1, "stay")
    state, texts = act(state, 2, "stay")
    assert texts[1] == ("Tide-rise choices: Seat 1 votes to end the game; Seat 2 stays; Seat 3 stays. "
                        "Not everyone voted to end: the game goes on.")
    assert state.phase == "turn" and not ENGINE.is_over(state)


def test_the_game_ends_after_wave_4_of_tide_6() -> None:
    state = at_tide_rise(tide=LAST_TIDE)
    assert ENGINE.is_over(state) and state.ended_by == "tides" and state.tide == 6
    # at Tide 6 seat 1 anted 1 sp (Tide 1) and bet 211 cp × 6; seat 2 anted 6 sp and won
    assert [(o.rank, o.score) for o in ENGINE.outcomes(state)] == [(3, -1276), (1, 1276), (2, 0)]
    view = ENGINE.view(state, None)
    assert view.over and view.current_seat is None and sum(r.net for r in view.ledger) == 0


def test_the_hard_cap_ends_the_game() -> None:
    state = new(3, then=[5])
    state.turns = TURN_CAP
    state, texts = act(state, 0, "pay")
    assert ENGINE.is_over(state) and state.ended_by == "cap" and state.coffer == 0
    assert conserved(state) and sum(r.net for r in ledger(state)) == 0


# -- contract ---------------------------------------------------------------------------------------


def test_illegal_actions_raise_and_leave_the_state_alone() -> None:
    state = new(3)
    frozen = state.model_dump_json()
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, A(kind="pay"))  # not seat 2's turn
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, A(kind="fold"))  # the option is off
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, A(kind="yay"))
    assert state.model_dump_json() == frozen
    after, _ = ENGINE.apply(state, 0, A(kind="pay"))
    assert state.model_dump_json() == frozen and after != state


def test_timeouts_play_the_rulings_defaults() -> None:
    state = new(3, then=[2, 2, 8, 11, 19])
    state, _ = act(state, 0, "pay")
    assert ENGINE.timeout_action(state, 0).kind == "leave_stone"
    assert ENGINE.timeout_action(state, 1).kind == "pay"  # not Pilfer, not Fly the Black
    state, events = ENGINE.on_timeout(state, 1)
    assert events[0].kind == "timeout" and events[0].text.startswith("Seat 2 ran out of time")
    broke = restage(new(3, purses=[5000, 300, 5000]), 1, (17, 17, 20, 17))
    assert ENGINE.timeout_action(broke, 1).kind == "plank"
    state = plundered()
    assert ENGINE.timeout_action(state, 1).kind == "pass"
    state = to_the_vote(state)
    assert ENGINE.timeout_action(state, 1).kind == "nay"
    state = at_tide_rise()
    assert ENGINE.timeout_action(state, 0).kind == "stay"
    for seat in range(3):
        state, _ = ENGINE.on_timeout(state, seat)
    assert [p.status for p in state.pirates] == ["afloat"] * 3 and state.phase == "turn"
    anchor = act(restage(new(3), 1, (1, 1, 8, 15)), 1, "pay")[0]
    assert ENGINE.timeout_action(anchor, 1).kind == "stay_aboard"
    with pytest.raises(IllegalAction):
        ENGINE.on_timeout(anchor, 0)


def test_the_tavern_keeper_policy() -> None:
    choose = Chooser(random.Random(1))
    state = new(3, fold=True, bones=(17, 17, 20, 17))
    state.pirates[0].bought_in -= 10  # the ante back: even on the night
    assert ENGINE.ai_action(state, 0, choose).kind == "pay"  # not behind: no Fly, never folds
    state.pirates[0].bought_in += 1000  # now 10 gp down on the night
    assert ENGINE.ai_action(state, 0, choose).kind == "fly"
    small = new(3, fold=True)
    small.pirates[0].bought_in += 1000
    assert ENGINE.ai_action(small, 0, choose).kind == "pay"  # behind, but a small bet
    cross = new(3, fold=True, bones=(1, 1, 8, 15))
    cross.pirates[0].bought_in += 1000
    assert ENGINE.ai_action(cross, 0, choose).kind == "pay"  # Crossbones showing
    state = to_the_vote(plundered())
    assert ENGINE.ai_action(state, 3, choose).kind == "nay"  # even
    assert ENGINE.ai_action(state, 1, choose).kind == "yay"  # ahead by the 1 gp gift
    pilfer = act(new(3, then=[2, 2, 8, 11, 19]), 0, "pay")[0]
    assert ENGINE.ai_action(pilfer, 1, choose).kind == "pilfer"
    assert ENGINE.ai_action(pilfer, 0, choose).kind == "leave_stone"


def tide_rise_with_purses(purses: list[int] | None) -> StonesAndBonesState:
    """A Tide rise where seat 3 has 1 gp left: the tavern-keeper's purse has run low."""
    state = new(3, then=[5, *QUIET, 7], purses=purses)
    state.wave = 4
    low = state.pirates[2]
    low.bought_in, low.purse = low.bought_in - low.purse + 100, 100
    state, _ = act(state, 0, "pay")
    state, _ = act(state, 1, "pay")
    assert state.phase == "tide" and conserved(state)
    return state


def test_a_bot_seat_buys_in_only_where_no_host_set_the_purses() -> None:
    """Tavern mode: a purse is a character's coin, and a bot seat (an NPC, a player who left)
    never puts in more than it brought. A table without purses keeps the keeper who buys in."""
    choose = Chooser(random.Random(1))
    plain = tide_rise_with_purses(None)
    assert plain.pirates[2].purse < 500
    assert ENGINE.ai_action(plain, 2, choose) == A(kind="buy", amount=Options().buy_ins[0])
    tavern = tide_rise_with_purses([850, 5000, 3000])
    assert tavern.pirates[2].purse == plain.pirates[2].purse
    assert ENGINE.ai_action(tavern, 2, choose).kind == "stay"
    # a whole tavern game of bots: no seat ever buys in, so none loses more than its purse
    for seed in range(20):
        state = ENGINE.new_game(4, Options(purses=[850, 300, 3000, 5000]), seed=seed)
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, choose))
        assert [p.bought_in for p in state.pirates] == [850, 300, 3000, 5000], seed


def test_the_ledger_settles_a_game_where_it_stands() -> None:
    """Ended mid-game (by a game-master), each purse is what its seat takes home; only what is
    in the coffer is nobody's yet."""
    state = new(3, purses=[850, 5000, 3000])
    rows = ledger(state)
    assert state.coffer == 10 and [p.purse for p in state.pirates] == [840, 5000, 3000]  # seat 1 anted
    assert [r.cashed_out for r in rows] == [840, 5000, 3000] and [r.net for r in rows] == [-10, 0, 0]
    assert rows[0].cashed_out_text == "8 gp 4 sp" and sum(r.net for r in rows) == -state.coffer


def test_view_has_what_the_table_needs() -> None:
    state = new(3, bones=(20, 2, 4, 2))
    view = ENGINE.view(state, None)
    assert isinstance(view, StonesAndBonesView)
    assert (view.wave, view.tide, view.captain, view.current_seat) == (1, 1, 0, 0)
    assert view.coffer == 10 and view.coffer_text == "1 sp" and view.ante == 10
    assert [p.purse_text for p in view.pirates] == ["49 gp 9 sp", "50 gp", "50 gp"]
    assert view.pirates[0].captain and view.pirates[0].acting and view.pirates[0].can_fly
    assert view.turn is not None and view.turn.bones is not None
    assert view.turn.bones.final.text() == "12 cp, 2 gp" and view.turn.bones.bane
    assert view.turn.bones.steps[-1] == "× Tide 1 = 12 cp, 2 gp = 2 gp 1 sp 2 cp"
    assert [r.net for r in view.ledger] == [-10, 0, 0] and view.ledger[1].bought_in_text == "50 gp"
    assert "pay the bet of 2 gp 1 sp 2 cp" in view.question
    labels = [action_label(view, a) for a in ENGINE.legal_actions(state, 0)]
    assert labels == ["Pay 2 gp 1 sp 2 cp & throw the Stone",
                      "Fly the Black: new Bones, new bet, no Stone"]
    cross = restage(new(3), 1, (1, 1, 8, 15))
    done, _ = act(cross, 1, "pay")
    shown = ENGINE.view(done, None)
    assert shown.turn is not None and shown.turn.result == "crossbones"
    assert shown.turn.crossbones == "Daggers" and "Daggers" in shown.turn.result_text
    assert shown.cursed == 1 and shown.claim is not None and shown.claim.kind == "crossbones"
    assert action_label(ENGINE.view(cross, 1), ENGINE.legal_actions(cross, 1)[0]) \
        == "Pay 1 gp 1 sp 4 cp: Crossbones (Daggers)!"


def test_rules_summary_has_the_options_and_no_errata() -> None:
    text = rules_summary(Options())
    assert len(text) < 4000
    # players read the rules as played, not the rulebook's slips
    assert "Errata" not in text and "«4sp, 1gp»" not in text and not re.search(r"\bSB-\d", text)
    for words in ("50 gp each",
                  "Daggers", "Rum Runner", "Captain's Luck", "Cutthroat", "Heave Down", "Pilfer!"):
        assert words in text, words
    text = rules_summary(Options(ante="per_wave_all", ill_omens="max_group", fold=True,
                                 mutiny_trigger="any_claim", pilfer="off", grumbles=True,
                                 purses=[100, 200]))
    assert len(text) < 4000 and "Pilfer!" not in text
    for words in ("start of each Wave", "largest group", "if you can pay it, **fold**", "on any claim",
                  "**Grumbles**", "set per seat", "voids a Crossbones is a Sink",
                  "goes back to its payer", "no Grumbles, no objection"):
        assert words in text, words


def test_rules_summary_shows_the_rulings_in_force_and_every_page_fits_a_screen() -> None:
    """SB-7, the end and the cap, the house choices where the rulings are silent, and every
    timeout default. The rules are pages of one phone screen each: How to play first, then the
    whole rules text a section a page with the tavern-mode note, nothing clipped under any
    options, then the game's words."""
    from bot.games import SCREEN
    from cogs.stones_and_bones import SPEC

    text = rules_summary(Options())
    for words in (
        "**Captain's Luck**, on either Blessing Stone", "3 Stones with a Blessing",
        "a pilfered 13 is no Luck", "only the second is left", "Cursed or not",
        "no Stone is thrown", "24 Waves at most", "2,000-turn safety cap", "d4 gp (not × Tide)",
        "no cost, ties to the Captain", "up to 60 s", "a won Mutiny lifts the Curse",
        "only a Crossbones winner who kept the coffer may Swallow the Anchor",
        "a Captain who leaves mid-Tide is replaced by a roll-off",
        "a rolled-off Captain's first claim is a plunder",
        "at the turn cap, a coffer in play is shared among those afloat",
        "never Fly, Pilfer or fold", "the Stone is left on the table", "no Mutiny",
        "ready at the parley", "Nay", "keep the coffer", "stay aboard",
        "stay at the Tide rise, no buy-in",
    ):
        assert words in text, words
    assert "Grumbles" not in text  # the Grumbles rulings only when Grumbles is on
    widest = 999_999_999  # "9999999 gp 9 sp 9 cp", five times
    for options in (Options(), Options(fold=True, grumbles=True, mutiny_trigger="any_claim",
                                       ante="per_wave_all", ill_omens="max_group",
                                       purses=[100, 200], buy_ins=[widest - n for n in range(5)])):
        pages = SPEC.rules_pages(options)
        titles = [p.title for p in pages]
        assert titles[0] == "How to play" and titles[-1].startswith("Words") and "Tavern mode" in titles
        shown = ["\n".join(part.text for part in p.parts) for p in pages]
        assert all(len(page) <= SCREEN for page in shown), [len(page) for page in shown]
        rules = "\n\n".join(shown[1:titles.index("Tavern mode") + 1])
        assert rules.startswith(rules_summary(options)) and rules.endswith("at the end.")
        assert "Fly the Black" in shown[-1] or "Fly the Black" in shown[-2]  # the game's words


# -- random games -----------------------------------------------------------------------------------


def check_state(state: StonesAndBonesState, full: bool = True) -> None:
    """RULINGS 5.6 within a state; ``full`` also asks every seat for its legal actions."""
    assert conserved(state)
    assert all(p.purse >= 0 and p.cashed_out >= 0 for p in state.pirates) and state.coffer >= 0
    assert 1 <= state.wave <= 4 and 1 <= state.tide <= 6 and state.waves_played <= 24
    assert state.turns <= TURN_CAP
    afloat = [s for s, p in enumerate(state.pirates) if p.status == "afloat"]
    acting = ENGINE.to_act(state)
    if state.phase == "over":
        assert acting == [] and state.coffer == 0 and not any(state.carry)
        assert sum(r.net for r in ledger(state)) == 0
        return
    assert state.waves_played == (state.tide - 1) * 4 + state.wave - 1
    assert state.captain in afloat and len(afloat) >= 2
    assert state.cursed is None or state.cursed in afloat
    assert acting and set(acting) <= set(afloat)
    if state.phase == "tide":
        assert state.coffer == 0
    if not full:
        return
    for seat in acting:
        legal = ENGINE.legal_actions(state, seat)
        assert 1 <= len(legal) <= 25 and ENGINE.timeout_action(state, seat) == legal[0]
    for seat in set(range(state.seats)) - set(acting):
        assert ENGINE.legal_actions(state, seat) == []


def check_turn(record: object) -> None:
    from rules.stones_and_bones.models import TurnRecord

    assert isinstance(record, TurnRecord)
    if record.cursed or record.flown is not None:
        assert record.stones == [] and record.pilfered is None  # the Cursed never throw
    if record.stones:
        assert len(record.stones) == (2 if record.bones and 1 in record.bones else 1)


def check_view(state: StonesAndBonesState) -> None:
    public = ENGINE.view(state, None)
    if public.mutiny is not None and not public.mutiny.revealed:
        assert public.mutiny.votes == [None] * state.seats
    if state.phase == "tide":
        assert all(c.choice is None for c in public.tide_choices)
    for seat in ENGINE.to_act(state):
        mine = ENGINE.view(state, seat)
        for action in ENGINE.legal_actions(state, seat):
            assert 0 < len(action_label(mine, action)) <= 80


def random_options(rng: random.Random, seats: int) -> Options:
    purse_choices = [300, 1000, 2500, 5000, 20000]
    return Options(
        purses=[rng.choice(purse_choices) for _ in range(seats)] if rng.random() < 0.5 else None,
        starting_purse=rng.choice(purse_choices),
        ante=rng.choice(["per_turn", "per_wave_all"]),
        ill_omens=rng.choice(["product", "max_group"]),
        fold=rng.random() < 0.3,
        mutiny_trigger=rng.choice(["plunder", "any_claim"]),
        pilfer=rng.choice(["window", "off", "always"]),
        grumbles=rng.random() < 0.4,
    )


def play(rng: random.Random, seed: int, seats: int, options: Options, style: str,
         ) -> tuple[StonesAndBonesState, list[tuple[int, A]], Counter[str]]:
    """One full game: bots, random clicks and timeouts, checked after every step."""
    state = ENGINE.new_game(seats, options, seed)
    choose = Chooser(rng)
    log: list[tuple[int, A]] = []
    seen: Counter[str] = Counter()
    flights: Counter[tuple[int, int]] = Counter()
    check_state(state)
    while not ENGINE.is_over(state):
        assert len(log) < 5000, "the game did not end"
        seat = rng.choice(ENGINE.to_act(state))
        roll = rng.random()
        if style == "quitters" and state.phase == "tide":
            action = A(kind="end")
        elif style == "bots" or roll < 0.5:
            action = ENGINE.ai_action(state, seat, choose)  # apply checks that it is legal
        elif roll < 0.6:
            action = ENGINE.timeout_action(state, seat)
        else:
            legal = ENGINE.legal_actions(state, seat)
            action = rng.choice(legal)
            if action.kind in ("end", "heave", "anchor", "give") and rng.random() < 0.8:
                action = legal[0]  # most games go on to the later Tides; parleys stay short
        if action.kind == "fly":
            flights[(seat, state.tide)] += 1
            assert flights[(seat, state.tide)] == 1  # Fly the Black ≤ 1 per player per Tide
        frozen = state.model_dump_json() if len(log) % 50 == 0 else None
        after, events = ENGINE.apply(state, seat, action)
        assert frozen is None or state.model_dump_json() == frozen  # the input is untouched
        state = after
        assert events and all(e.text for e in events)
        seen.update(e.kind for e in events)
        seen[f"act:{action.kind}"] += 1
        seen[f"phase:{state.phase}"] += 1
        log.append((seat, action))
        check_state(state, full=len(log) % 5 == 0)
        for record in (state.last_turn, state.turn):
            if record is not None and record.result != "pending":
                check_turn(record)
        if len(log) % 25 == 0:
            check_view(state)
    return state, log, seen


#: seeded random games; every branch of the engine and of the checks is reached by the 228th
#: (a thousand reach no more)
RANDOM_GAMES = 500


def test_random_games_keep_the_invariants_and_replay() -> None:
    rng = random.Random(20251121)
    seen: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    for game in range(RANDOM_GAMES):
        seed = rng.getrandbits(62)
        seats = rng.randint(2, 6)
        options = random_options(rng, seats)
        style = "bots" if game % 4 == 0 else "quitters" if game % 10 == 1 else "mixed"
        final, log, kinds_seen = play(rng, seed, seats, options, style)
        seen += kinds_seen
        endings[final.ended_by or ""] += 1
        if game % 50 == 0:  # serialises, and replays from the seed to the same game
            assert StonesAndBonesState.model_validate_json(final.model_dump_json()) == final
            state = ENGINE.new_game(seats, options, seed)
            for seat, action in log:
                state, _ = ENGINE.apply(state, seat, action)
            assert state == final
    for kind in ("float", "luck", "crossbones", "plank", "walk_plank", "eliminated", "fly", "curse",
                 "curse_lifted", "mutiny", "no_mutiny", "challenge", "mutiny_won", "mutiny_lost",
                 "cutthroat", "cutthroat_tails", "split", "anchor", "grumble", "object", "reroll",
                 "void", "stands",
                 "carry", "tide_choices", "fold", "give", "roll_off", "last_afloat",
                 "act:pilfer", "act:pick_up", "act:leave_stone", "act:heave", "act:buy",
                 "act:end", "act:refund", "act:share_all", "act:share_side", "act:give_half",
                 "phase:anchor", "phase:split", "phase:vote", "phase:tide"):
        assert seen[kind] > 0, kind
    assert set(endings) == {"tides", "afloat", "vote"}


def test_bots_alone_play_to_the_sixth_tide() -> None:
    """The tavern-keeper never leaves: a bots-only table with deep purses plays all 24 waves."""
    for seed in range(3):
        state = ENGINE.new_game(4, Options(starting_purse=100_000), seed)
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            state, _ = ENGINE.apply(state, seat, ENGINE.ai_action(state, seat, Chooser(random.Random())))
        assert state.ended_by == "tides" and state.waves_played == 24
        assert sum(r.net for r in ledger(state)) == 0


# -- choices in the open and sealed choices -------------------------------------------------------


def test_public_choices_are_open_to_whoever_owes_them_and_sealed_ones_are_not() -> None:
    state = new(3, then=[5])  # seat 1 Sinks with a 5: its Stone lies on the table
    state, _ = act(state, 0, "pay")
    assert ENGINE.to_act(state) == [1, 0]
    shared = [a.kind for a in ENGINE.open_actions(state)]
    assert shared == kinds(state, 1) + kinds(state, 0) == ["pay", "pilfer", "fly", "leave_stone", "pick_up"]
    state = to_the_vote(plundered())
    assert ENGINE.open_actions(state) == []  # the vote goes to each voter privately
    assert ENGINE.open_actions(at_tide_rise()) == []


def test_one_sealed_choice_leaves_the_others_buttons_standing() -> None:
    state = to_the_vote(plundered())
    stamps = {seat: ENGINE.decision_stamp(state, seat) for seat in (1, 3)}
    assert None not in stamps.values()
    after, _ = act(state, 1, "yay")
    assert ENGINE.decision_stamp(after, 3) == stamps[3]  # seat 4's vote buttons still stand
    assert ENGINE.decision_stamp(after, 1) != stamps[1]  # seat 2's own vote retired theirs
    rise = at_tide_rise()
    before = ENGINE.decision_stamp(rise, 2)
    rise, _ = act(rise, 0, "stay")
    assert ENGINE.decision_stamp(rise, 2) == before
    assert ENGINE.decision_stamp(new(3), 0) is None  # public moments: the move number decides


def test_scrambling_what_a_viewer_may_not_see_changes_nothing_it_sees() -> None:
    """``scramble_hidden`` declares the secrets: the Mutiny votes cast and the Tide-rise choices
    made, until all are in. Whatever they are changed to, every viewer's view (the channel's too)
    stays the same; and the scramble does change them, so the declaration is not empty."""
    rng = random.Random(7)
    changed = {"vote": 0, "tide": 0}
    for game in range(12):
        seats = 3 + game % 4
        options = Options(mutiny_trigger="any_claim", starting_purse=20_000)
        state = ENGINE.new_game(seats, options, seed=game)
        chooser = Chooser(random.Random(game))
        while not ENGINE.is_over(state):
            sealed = state.phase in ("vote", "tide")  # elsewhere only every tenth turn is checked
            for viewer in [None, *range(seats)] if sealed or state.turns % 10 == 0 else []:
                scrambled = ENGINE.scramble_hidden(state, viewer, rng)
                assert ENGINE.view(scrambled, viewer) == ENGINE.view(state, viewer), (game, viewer)
                if scrambled.mutiny is not None and scrambled.mutiny.votes != state.mutiny.votes:  # type: ignore[union-attr]
                    changed["vote"] += 1
                if scrambled.tide_choices != state.tide_choices:
                    changed["tide"] += 1
                    assert scrambled.phase == "tide"  # revealed choices are no secret
            seat = rng.choice(ENGINE.to_act(state))
            legal = ENGINE.legal_actions(state, seat)
            action = rng.choice(legal) if rng.random() < 0.5 else ENGINE.ai_action(state, seat, chooser)
            if action.kind in ("end", "heave", "anchor"):
                action = legal[0]  # play on to the later Tides
            state, _ = ENGINE.apply(state, seat, action)
    assert changed["vote"] > 100 and changed["tide"] > 100, changed


# -- the Discord table's pieces (cogs/stones_and_bones.py) ----------------------------------------


def test_purse_amounts_are_read_in_one_clear_format() -> None:
    from bot.errors import Refusal
    from cogs.stones_and_bones import parse_coins

    assert parse_coins("12") == 1200 and parse_coins(" 12gp 5sp ") == 1250
    assert parse_coins("1 pp, 2 GP 3 sp 4 cp") == 1234 and parse_coins("7cp") == 7
    for bad in ("", "lots", "1.5", "-3", "5gp 5gp", "12 goats", "0", "0gp", "2000000pp", "12345678901"):
        with pytest.raises(Refusal):
            parse_coins(bad)


def test_the_table_pieces_render_every_moment_of_many_games_within_discord_limits() -> None:
    from bot.models import Seat, Table
    from cogs.stones_and_bones import SPEC

    cast = 0  # moments with a sealed vote or choice already made, but not yet shown
    for game in range(30):
        options = Options(grumbles=game % 2 == 0, fold=game % 3 == 0,
                          mutiny_trigger="any_claim" if game % 2 else "plunder")
        seats = 2 + game % 5
        table = Table(id=game + 1, guild_id=1, channel_id=1, game=ENGINE.key, host_id=1, seed=game,
                      seats=[Seat(user_id=10 + i, name=f"A rather long name {i}") for i in range(seats)],
                      options=options.model_dump())
        state = ENGINE.new_game(seats, options, game)
        rng = random.Random(game)
        while not ENGINE.is_over(state):
            for seat in [None, *ENGINE.to_act(state)]:
                view = ENGINE.view(state, seat)
                parts = SPEC.table_parts(table, view) if seat is None else SPEC.private_parts(table, seat, view)
                assert sum(len(p.text) for p in parts) <= 4000 - 1000 and len(parts) <= 12  # room for the host's
                for action in ENGINE.open_actions(state) if seat is None else ENGINE.legal_actions(state, seat):
                    assert 0 < len(SPEC.action_label(view, action)) <= 80
            if seat_is_voting := state.phase in ("vote", "tide"):
                # sealed until all are in: the public view holds no vote or choice, and the table
                # names none of the words a vote or a Tide-rise choice is shown with
                seen = ENGINE.view(state, None)
                public = "\n".join(p.text for p in SPEC.table_parts(table, seen))
                if state.phase == "vote":
                    assert seen.mutiny is not None and not seen.mutiny.revealed
                    assert seen.mutiny.votes == [None] * seats and "Votes:" not in public
                    cast += any(v is not None for v in state.mutiny.votes)  # type: ignore[union-attr]
                else:
                    assert all(c.choice is None for c in seen.tide_choices)
                    cast += any(c is not None for c in state.tide_choices)
            assert seat_is_voting or len(ENGINE.open_actions(state)) <= 20
            seat = ENGINE.to_act(state)[0]
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        view = ENGINE.view(state, None)
        (message,) = SPEC.tavern.last_words(table, view)  # type: ignore[union-attr]
        rows = list(csv.DictReader(io.StringIO(message["file"].fp.read().decode())))
        assert len(rows) == seats and sum(int(r["net_cp"]) for r in rows) == 0
        assert [int(r["net_cp"]) for r in rows] == [p.net for p in state.pirates]
    assert cast > 10  # the sealed-vote checks above really saw votes waiting to be revealed


def test_the_mutiny_window_holds_with_or_without_a_table_timer() -> None:
    """RULINGS 5.4: «"Mutiny!" button for 60 s after the Captain plunders»: 60 s at a table
    without a timer, the table's timer if shorter; every other moment keeps the table's timer."""
    from bot.step import decision_seconds

    call, turn = plundered(), new(3)
    assert call.phase == "mutiny_call" and turn.phase == "turn" and MUTINY_WINDOW == 60
    assert ENGINE.decision_window(call) == 60 and ENGINE.decision_window(turn) is None
    assert ENGINE.view(call, None).decision_window == 60 and ENGINE.view(turn, None).decision_window is None
    assert [decision_seconds(ENGINE, t, call) for t in (None, 0, 20, 60, 300)] == [60, 60, 20, 60, 60]
    assert [decision_seconds(ENGINE, t, turn) for t in (None, 20, 300)] == [None, 20, 300]
    parley, _ = act(call, 2, "mutiny")  # the window is only for the call
    assert parley.phase == "parley" and decision_seconds(ENGINE, None, parley) is None
    assert ENGINE.decision_window(parley) is None


def test_seat_purses_the_mutiny_window_and_the_standings_words() -> None:
    from bot.models import Seat, Table
    from bot.step import decision_seconds
    from cogs.stones_and_bones import SPEC

    tavern = SPEC.tavern
    assert tavern is not None
    table = Table(guild_id=1, channel_id=1, game=ENGINE.key, host_id=1, seed=1, host_plays=False,
                  seats=[Seat(user_id=2, name="Ann", stake=850), Seat(user_id=3, name="Bob"),
                         Seat(name="One-Eyed Mags", ai=True, stake=3000)],
                  options=Options(starting_purse=2000).model_dump(), timer_seconds=300)
    options = tavern.starting_options(Options(starting_purse=2000), [s.stake for s in table.seats])
    assert isinstance(options, Options) and options.purses == [850, 2000, 3000]
    state = ENGINE.new_game(3, options, 5)
    assert [p.bought_in for p in state.pirates] == [850, 2000, 3000]
    assert [tavern.stake_text(Options(starting_purse=2000), s.stake) for s in table.seats] == [
        "purse of 8 gp 5 sp", "purse of 20 gp", "purse of 30 gp"]
    assert decision_seconds(ENGINE, table.timer_seconds, plundered()) == MUTINY_WINDOW
    assert decision_seconds(ENGINE, table.timer_seconds, new(3)) == 300
    assert tavern.starting_options(Options(), [850]) == Options()  # too few seats: the start refuses
    # the rule itself, in the rules package: the cog only hands it the seats' stakes
    assert options_with_purses(Options(starting_purse=2000), [850, None, 3000]).purses == [850, 2000, 3000]
    assert options_with_purses(Options(), [None, None]) == Options()  # nobody set a purse
    assert options_with_purses(Options(), [850] * 7) == Options()  # more seats than the game takes
    assert SPEC.score_text(-125, None) == "a net of -1 gp 2 sp 5 cp"


def test_the_ledger_csv_never_hands_a_spreadsheet_a_formula() -> None:
    """A player's name goes into a file the game-master opens in a spreadsheet: a name that
    starts like a formula is written as text."""
    from bot.models import Seat, Table
    from cogs.stones_and_bones import ledger_csv

    names = ["=HYPERLINK(\"http://x\",\"pay\")", "+1", "-Mags", "@Pete", "Ann"]
    table = Table(guild_id=1, channel_id=1, game="stonesandbones", host_id=1, seed=1,
                  seats=[Seat(user_id=i + 1, name=n) for i, n in enumerate(names)])
    state = ENGINE.new_game(len(names), StonesAndBonesOptions(), seed=3)
    rows = list(csv.DictReader(io.StringIO(ledger_csv(table, ledger(state)))))
    assert [r["name"] for r in rows] == ["'" + n for n in names[:4]] + ["Ann"]
