"""Dice pools as their players read them: Shadowrun's hits, glitches and Edge (`12d6 sr`),
Chronicles of Darkness's successes, 10-again and chance die (`7d10 wod`, `chance`), classic World
of Darkness's difficulty, cancelling 1s and botch (`5d10 diff 6`); and a letter O typed for a zero."""

from __future__ import annotations

import random

import pytest

from cogs.dice.text import roll_text
from rules.notation import RollError, roll
from tests.test_notation import Loaded


def text(typed: str, *dice: int, **options: int) -> str:
    return roll_text(roll(typed, rng=Loaded(*dice), **options))  # type: ignore[arg-type]


def head(typed: str, *dice: int) -> str:
    return text(typed, *dice).splitlines()[0]


@pytest.mark.parametrize("typed, dice, said", [
    ("4d6 sr", (5, 6, 2, 3), "# ✅ 2 hits"), ("4d6 sr", (1, 2, 3, 5), "# ✅ 1 hit"),
    ("3d6 sr", (2, 3, 4), "# ❌ 0 hits"),
    # more than half the dice on 1 glitches; exactly half does not
    ("4d6 sr", (1, 1, 1, 5), "# ⚠️ Glitch: 1 hit"), ("4d6 sr", (1, 1, 2, 5), "# ✅ 1 hit"),
    ("3d6 sr", (1, 1, 4), "# 💀 Critical glitch"), ("1d6 shadowrun", (1,), "# 💀 Critical glitch"),
    # Edge: each 6 rolls again, and the dice it adds hit too
    ("2d6 sr edge", (6, 1, 6, 5), "# ✅ 3 hits"), ("2d6! sr", (6, 1, 6, 5), "# ✅ 3 hits"),
    ("3d6 SR5 edge", (2, 3, 4), "# ❌ 0 hits"),
])
def test_shadowrun_counts_hits_and_names_glitches(typed: str, dice: tuple[int, ...], said: str) -> None:
    assert head(typed, *dice) == said


def test_a_glitch_says_why_and_the_dice_edge_adds_never_glitch() -> None:
    reply = text("4d6 sr shoot the troll", 1, 1, 1, 5)
    assert reply == ("# ⚠️ Glitch: 1 hit\n-# *shoot the troll* · hits on 5 and 6 · over half 1s glitches · "
                     "3 of 4 dice show 1 · 4d6 (*1*, *1*, *1*, **5**)")
    # the 6 rolls again and shows 1: two 1s of three dice rolled, but one of the two in the pool
    assert text("2d6 sr edge", 6, 1, 1).splitlines() == [
        "# ✅ 1 hit", "-# hits on 5 and 6 · over half 1s glitches · edge: 6s explode · 2d6e6 (**6!**, *1*, *1*)"]


def test_a_repeat_of_a_pool_reads_each_roll() -> None:
    lines = text("2d6 sr repeat 2", 1, 1, 5, 6).splitlines()
    assert lines[0] == "# 💀 0, ✅ 2 hits"
    assert lines[1] == "-# 2d6 sr, 2 rolls · hits on 5 and 6 · over half 1s glitches"
    assert lines[2] == "-# **💀 Critical glitch** · 2 of 2 dice show 1: (*1*, *1*)"
    assert lines[3] == "-# **✅ 2 hits**: (**5**, **6**)"


@pytest.mark.parametrize("typed, dice, said", [
    ("5d10 wod", (8, 9, 10, 3, 2, 7), "# ✅ 3 successes"), ("1d10 cofd", (8,), "# ✅ 1 success"),
    ("3d10 nwod", (1, 2, 7), "# ❌ Failure"),
    # five successes are exceptional, those 10-again adds included
    ("5d10 wod", (8, 9, 10, 3, 8, 8), "# 🌟 Exceptional: 5 successes"),
    ("2d10 wod 9-again", (9, 3, 4), "# ✅ 1 success"), ("2d10 wod 9again", (9, 3, 9, 8), "# ✅ 3 successes"),
    ("2d10 wod 8-again", (8, 3, 8, 2), "# ✅ 2 successes"), ("2d10 wod no-again", (10, 3, 10), "# ✅ 1 success"),
    ("2d10 8-again", (8, 3, 8, 2), "# ✅ 2 successes"),
    # a rote action rolls each failed die once more, and a 10 it shows rolls again
    ("3d10 wod rote", (8, 3, 2, 9, 10, 5), "# ✅ 3 successes"),
])
def test_chronicles_of_darkness_counts_eight_and_up_with_ten_again(typed: str, dice: tuple[int, ...],
                                                                   said: str) -> None:
    assert head(typed, *dice) == said


@pytest.mark.parametrize("typed, face, said", [
    ("chance", 10, "# ✅ Success: 10"), ("chance", 1, "# 💀 Dramatic failure: 1"), ("chance", 9, "# ❌ Failure: 9"),
    ("1d10 chance", 1, "# 💀 Dramatic failure: 1"), ("0d10 wod", 1, "# 💀 Dramatic failure: 1"),
    ("1d10 wod chance", 10, "# ✅ Success: 10"),
])
def test_the_chance_die(typed: str, face: int, said: str) -> None:
    assert head(typed, face) == said


def test_a_chance_die_says_its_rule_and_keeps_the_comment() -> None:
    series = roll("chance die sneak past", rng=Loaded(1, 10))
    assert series.comment == "sneak past" and series.typed == "chance"
    assert roll_text(series) == ("# 💀 Dramatic failure: 1\n-# *sneak past* · chance die: 10 succeeds, 1 is a "
                                 "dramatic failure · 1d10 (*1*)")


@pytest.mark.parametrize("typed, dice, said", [
    ("5d10 diff 6", (6, 7, 2, 3, 4), "# ✅ 2 successes"), ("5d10 diff 6", (6, 7, 1, 2, 3), "# ✅ 1 success"),
    ("4d10 diff 6", (6, 1, 1, 3), "# ❌ Failure"), ("3d10 diff 6", (2, 3, 5), "# ❌ Failure"),
    ("3d10 diff 6", (1, 2, 5), "# 💀 Botch"), ("3d10 owod", (6, 6, 2), "# ✅ 2 successes"),
    ("3d10 difficulty 8", (7, 8, 10), "# ✅ 2 successes"), ("3d10 DIFF:9", (8, 8, 8), "# ❌ Failure"),
])
def test_classic_world_of_darkness_ones_cancel_and_botch(typed: str, dice: tuple[int, ...], said: str) -> None:
    assert head(typed, *dice) == said


def test_cancelled_successes_and_a_botch_say_why() -> None:
    assert text("5d10 diff 6", 6, 7, 1, 2, 3) == ("# ✅ 1 success\n-# difficulty 6 · each 1 cancels a success · "
                                                 "1s cancel 1 of 2 · 5d10 (**6**, **7**, *1*, 2, 3)")
    assert "2 ones, no success" in text("3d10 diff 6", 1, 1, 5)


@pytest.mark.parametrize("typed, options, said", [
    ("12d6+2 sr", {}, "`sr` counts hits in a pool of d6s alone, like `12d6 sr`; `12d6 + 2` is not one."),
    ("7d10+2 wod", {}, "`wod` counts successes in a pool of d10s alone, like `7d10 wod`; `7d10 + 2` is not one."),
    ("5d10kh3 diff 6", {}, "`diff 6` counts successes in a pool of d10s alone, like `5d10 diff 6`"),
    ("2d10 wod chance", {}, "A chance die is one d10 alone"),
    ("5d10 diff 11", {}, "A difficulty is from 2 to 10, like `5d10 diff 6`; `diff 11` is not."),
    ("0d6 sr", {}, "In Shadowrun a pool of no dice fails without a roll; roll at least one, like `1d6 sr`."),
    ("61d6 sr", {}, "A pool is at most 60 dice"),
    ("12d6>=5 sr", {}, "`sr` reads the roll already; leave out `>=5`."),
    ("12d6 sr", {"target": 5}, "`sr` reads the roll already; leave out `target`."),
    ("5d10 wod 9-again diff 6", {}, "Ask for one reading of the roll"),
    ("5d10 wod 9-again 8-again", {}, "Say how dice roll again once"),
    ("5d10 diff 6 diff 7", {}, "Say the difficulty once"),
    ("12d6 sr adv", {}, "`adv` rolls the d20 twice"),
])
def test_a_pool_that_cannot_be_read_is_refused_with_the_fix(typed: str, options: dict[str, int], said: str) -> None:
    with pytest.raises(RollError) as caught:
        roll(typed, **options)  # type: ignore[arg-type]
    assert said in caught.value.reason


@pytest.mark.parametrize("typed, comment", [
    ("1d20 chance to hit", "chance to hit"), ("1d6 edge of the blade", "edge of the blade"),
    ("1d20 diff 5", "diff 5"), ("2d6 rote", "rote"), ("2d10 chance", "chance"),
    # `sr` only on d6s, `wod` only on d10s, each a whole word (they rolled so before either was read)
    ("1d20 insight on Sr. Lopez", "insight on Sr. Lopez"), ("4d6 for Sr. Lopez", "for Sr. Lopez"),
    ("1d20 sr", "sr"), ("1d8 edge sr", "edge sr"), ("8d6 wod", "wod"), ("1d100 owod", "owod"),
    ("3d6 sr-71 flyby", "sr-71 flyby"), ("2d10 wod.com", "wod.com"),
])
def test_these_words_stay_a_comment_where_they_cannot_be_meant(typed: str, comment: str) -> None:
    series = roll(typed, rng=random.Random(1))
    assert series.comment == comment and series.reading is None


def test_a_pool_word_ending_the_roll_is_read_before_its_full_stop() -> None:
    series = roll("3d6 sr.", rng=Loaded(5, 6, 2))
    assert head("3d6 sr.", 5, 6, 2) == "# ✅ 2 hits" and series.comment is None


@pytest.mark.parametrize("typed, left_out", [
    ("0d10 wod rote", "`rote`"), ("0d10 wod 9-again", "`9-again`"), ("0d10 cofd no-again rote", "`no-again` and `rote`"),
])
def test_no_dice_roll_a_chance_die_and_say_what_it_leaves_out(typed: str, left_out: str) -> None:
    reply = text(typed, 1)
    assert reply == (f"# 💀 Dramatic failure: 1\n-# a pool of none: {left_out} left out · chance die: "
                     "10 succeeds, 1 is a dramatic failure · 1d10 (*1*)")
    assert text("0d10 wod", 10) == "# ✅ Success: 10\n-# chance die: 10 succeeds, 1 is a dramatic failure · 1d10 (**10**)"


def test_words_read_from_what_a_phone_typed_leave_the_comment() -> None:
    series = roll("3d10 wod ⁹-again", rng=Loaded(9, 2, 3, 8))
    assert series.comment is None and series.reading is not None and series.reading.again == 9
    # the rest of the comment is then shown as read, never with the words it read
    assert roll("3d10 wod ⁹-again ｆｏｒ ｔｈｅ ｄｏｏｒ", rng=Loaded(9, 2, 3, 8)).comment == "for the door"
    assert roll("3d10 wod 9-again ｆｏｒ ｔｈｅ ｄｏｏｒ", rng=Loaded(9, 2, 3, 8)).comment == "ｆｏｒ ｔｈｅ ｄｏｏｒ"


@pytest.mark.parametrize("typed, expression, note", [
    ("1d2O", "1d20", "`1d2O` read as `1d20`"), ("d1OO+5", "1d100 + 5", "`d1OO` read as `d100`"),
    ("2d1o", "2d10", "`2d1o` read as `2d10`"),
])
def test_a_letter_o_in_a_die_size_is_a_zero(typed: str, expression: str, note: str) -> None:
    series = roll(typed, rng=random.Random(1))
    assert series.expression == expression and note in series.notes and series.comment is None


def test_a_word_after_a_die_stays_a_comment() -> None:
    series = roll("1d6Orc", rng=random.Random(1))
    assert series.expression == "1d6" and series.comment == "Orc" and not series.notes
