"""Words players type after the dice: adv/dis and the mode option roll the leading d20 twice, on
anything else they are refused with the reason; `repeat N` typed in the expression works."""

from __future__ import annotations

import random
import re

import pytest

from cogs.dice.text import roll_text
from rules.notation import CANCEL_OUT, RollError, roll
from tests.test_notation import Loaded, faces


@pytest.mark.parametrize("typed, mode", [
    ("1d20+5 adv", "advantage"), ("1d20+5 ADV", "advantage"), ("1d20+5 advantage", "advantage"),
    ("1d20+5adv", "advantage"), ("1d20+5 dis", "disadvantage"), ("1d20+5 disadvantage", "disadvantage"),
    ("d20+5 Disadvantage.", "disadvantage"),
])
def test_a_mode_word_rolls_the_d20_twice(typed: str, mode: str) -> None:
    series = roll(typed, rng=Loaded(4, 17))
    kept = 17 if mode == "advantage" else 4
    assert series.mode == mode and series.total == kept + 5 and series.comment is None
    assert series.expression == ("2d20kh1 + 5" if mode == "advantage" else "2d20kl1 + 5")
    assert [(f.value, f.kept) for f in faces(series)] == [(4, kept == 4), (17, kept == 17)]


def test_the_mode_option_and_how_the_roll_reads() -> None:
    series = roll("1d20+5", mode="advantage", rng=Loaded(4, 17))
    # what counts first, then what did not, struck and named
    assert series.rolls[0].breakdown == "advantage (17, ~~4~~ dropped) + 5"
    assert roll_text(series) == "# 22\n-# advantage (17, ~~4~~ dropped) + 5"
    low = roll("1d20+5 to hit", mode="disadvantage", rng=Loaded(4, 17))
    assert roll_text(low) == "# 9\n-# *to hit* · disadvantage (4, ~~17~~ dropped) + 5"
    crit = roll("1d20 adv", rng=Loaded(20, 3))
    assert roll_text(crit).splitlines()[0] == "# 20 ✨ Natural 20!"
    assert "advantage (**20**✨, ~~3~~ dropped)" in roll_text(crit)
    # the d20 that was dropped is not a natural 1 of the roll
    assert roll("1d20 adv", rng=Loaded(1, 12)).rolls[0].crit is None
    assert roll("1d20 dis", rng=Loaded(1, 12)).rolls[0].crit == "fumble"
    # a bless die or a halfling's reroll rides along; only the leading d20 doubles
    blessed = roll("1d20+1d4+5 adv", rng=Loaded(9, 14, 3))
    assert blessed.expression == "2d20kh1 + 1d4 + 5" and blessed.total == 14 + 3 + 5


@pytest.mark.parametrize("typed, comment", [
    ("1d20+5 adv to hit", "to hit"), ("1d20+5 to hit adv", "to hit"), ("1d20 advantage, stealth", "stealth"),
    ("1d20+5 to hit with advantage", "to hit with advantage"),
])
def test_the_comment_keeps_what_is_not_an_instruction(typed: str, comment: str) -> None:
    series = roll(typed, rng=random.Random(1))
    assert series.mode == "advantage" and series.comment == comment


@pytest.mark.parametrize("typed, mode, said", [
    ("3d6 adv", "normal", "`adv` rolls the d20 twice and keeps the higher"),
    ("8d6 fireball disadvantage", "normal", "`disadvantage` rolls the d20 twice and keeps the lower"),
    ("3d6", "advantage", "The `advantage` mode rolls the d20 twice"),
    ("2d20kh1 adv", "normal", "`2d20kh1` does not"),
    ("5+1d20 adv", "normal", "starts with one d20"),
    ("1d20", "sideways", "`normal`, `advantage` or `disadvantage`"),
])
def test_a_mode_where_there_is_no_single_leading_d20_is_explained(typed: str, mode: str, said: str) -> None:
    with pytest.raises(RollError) as refused:
        roll(typed, mode=mode, rng=random.Random(1))  # type: ignore[arg-type]
    assert said in refused.value.reason and len(str(refused.value)) < 300


def test_advantage_and_disadvantage_cancel_out() -> None:
    for typed, mode in (("1d20+2 adv dis", "normal"), ("1d20+2 adv", "disadvantage")):
        series = roll(typed, mode=mode, rng=Loaded(11))  # type: ignore[arg-type]
        assert series.mode == "normal" and series.notes == (CANCEL_OUT,) and series.total == 13
        assert len(faces(series)) == 1
        assert roll_text(series) == f"# 13\n-# {CANCEL_OUT} · 1d20 (11) + 2"


def test_repeat_typed_in_the_expression_works() -> None:
    series = roll("4d6kh3 repeat 6", rng=random.Random(2))
    assert len(series.rolls) == 6 and series.comment is None
    assert len(roll("3d6 repeat:3 stats", rng=random.Random(2)).rolls) == 3
    assert roll("3d6 REPEAT 2 for stats").comment == "for stats"
    assert len(roll("3d6 repeat 4", repeat=4).rolls) == 4  # said twice alike: fine
    # each line at advantage
    both = roll("1d20+5 adv repeat 2", rng=Loaded(3, 9, 18, 2))
    assert [one.total for one in both.rolls] == [14, 23] and both.expression == "2d20kh1 + 5"
    assert roll_text(both).splitlines()[2:] == ["-# **14**: advantage (9, ~~3~~ dropped) + 5",
                                                "-# **23**: advantage (18, ~~2~~ dropped) + 5"]


@pytest.mark.parametrize("typed, repeat, said", [
    ("3d6 repeat 4", 3, "says `repeat 4` and the `repeat` option says 3"),
    ("3d6 repeat 2 repeat 3", None, "Say `repeat` once"),
    ("3d6 repeat 21", None, "between 1 and 20"),
    ("3d6 repeat 0", None, "between 1 and 20"),
    ("60d6 repeat 17", None, "60 × 17 dice"),
])
def test_repeat_typed_is_held_to_the_same_limits(typed: str, repeat: int | None, said: str) -> None:
    with pytest.raises(RollError) as refused:
        roll(typed, repeat=repeat, rng=random.Random(1))
    assert said in refused.value.reason


# ---------------------------------------------------------------- typos and other bots' notation
@pytest.mark.parametrize("typed, total", [
    ("1D20+5", 16), ("D20+5", 16), ("1d20−5", 6), ("1d20 – 5", 6), ("1d20—5", 6), ("1d20＋5", 16), ("１d２０+5", 16),
])
def test_capitals_dashes_and_wide_characters_roll_what_was_meant(typed: str, total: int) -> None:
    """A phone capitalises the first letter and writes a dash or a full-width plus: once rolled
    as 1 (or without the modifier) in public, with the rest shown as a comment."""
    series = roll(typed, rng=Loaded(11))
    assert series.total == total and series.comment is None and len(faces(series)) == 1


def test_the_comment_is_shown_as_typed() -> None:
    series = roll("1d20+5 ﬁre – hot ＡＣ", rng=Loaded(11))
    assert series.total == 16 and series.comment == "ﬁre – hot ＡＣ"
    assert roll("1d20+5 adv ﬁre", rng=Loaded(3, 9)).comment == "ﬁre"


@pytest.mark.parametrize("typed, options, said", [
    ("1 d20", {}, "Remove the space: `1d20`."),
    ("1 d20 + 5", {}, "Remove the space: `1d20 + 5`."),
    ("2d20 kh1", {}, "Write `kh1` without the space: `2d20kh1`."),
    ("2d20 kh1 + 5", {}, "`2d20kh1 + 5`"),
    ("2d20KH1", {}, "Write `kh1` in lower case: `2d20kh1`."),
    ("4d6 ro1", {}, "`4d6ro1`"),
    ("4d6 d1", {}, "Drop lowest is `pl1`, right after the dice: `4d6pl1`."),
    ("4d6 dl1", {}, "Drop lowest is `pl1`"),
    ("4d6 dh1", {}, "Drop highest is `ph1`"),
    ("1d8 !", {}, "Remove the space: `1d8!`."),
    ("1d8!!", {}, "compounding and other `!` forms are not supported"),
    ("10d6 t5", {}, "For a dice pool use the options `target:5` or write `10d6>=5`."),
    ("10d10 t8 f1", {}, "For a dice pool use the options `target:8 fail:1`."),
    ("6x4d6kh3", {}, "To roll it 6 times, add `repeat 6`: `4d6kh3 repeat 6`."),
    ("6#4d6", {}, "`4d6 repeat 6`"),
    ("4d6kh3 x6", {}, "add `repeat 6`: `4d6kh3 repeat 6`; to multiply, `*6`."),
    ("1d20 adv+5", {}, "Put `adv` after the whole roll: `1d20+5 adv`."),
    # another term is joined with a sign, and the words after it stay words
    ("1d20 adv 1d6", {}, "Put `adv` after the whole roll: `1d20+1d6 adv`."),
    ("1d20 adv dF", {}, "Put `adv` after the whole roll: `1d20+dF adv`."),
    ("1d20 adv + 5 to hit", {}, "Put `adv` after the whole roll: `1d20+5 adv to hit`."),
    ("1d20 dis >= 15", {}, "Put `dis` after the whole roll: `1d20>=15 dis`."),
    ("1d20 dis -2", {}, "`1d20-2 dis`"),
    ("1d20 5", {}, "A number after the dice needs a sign: `1d20+5`."),
    ("1d20+5 1d6", {}, "Join the dice with a sign: `1d20+5+1d6`."),
    ("1d20+5 d6 fire", {}, "`1d20+5+d6`"),
    ("8d6 d6 fireball", {}, "Join the dice with a sign: `8d6+d6`."),
    ("1d20 d20", {}, "Join the dice with a sign: `1d20+d20`."),
    ("4d6 d4", {}, "Join the dice with a sign: `4d6+d4`."),
    ("6d6 d2", {}, "Drop lowest is `pl2`, right after the dice: `6d6pl2`; to add a die, `6d6+d2`."),
    ("1x4d6", {}, "To roll it once, leave out `1x`: `4d6`."),
    ("1d20+5kh1", {}, "`kh1` goes right after the dice: `1d20kh1+5`."),
    ("2d6+3k2", {}, "`k2` goes right after the dice: `2d6k2+3`."),
    ("1d20+5 kh1", {}, "`kh1` goes right after the dice: `1d20kh1+5`."),
    ("1d20+5KH1", {}, "`kh1` goes right after the dice: `1d20kh1+5`."),
    ("5kh1", {}, "`kh1` goes right after dice, like `4d6kh3`."),
    ("1e308*10", {}, "Write numbers out in digits: `1e308` is not read as a number."),
    ("1.5d6", {}, "Dice counts are whole numbers, like `1d6`."),
    ("1d100 bonus <= 55", {}, "Put `bonus` after the whole roll: `1d100 <= 55 bonus`."),
    ("1d100 penalty 2 >= 40", {}, "Put `penalty 2` after the whole roll: `1d100 >= 40 penalty 2`."),
    ("1d100 bonus:2 dice 3", {}, "Say how many bonus or penalty dice once"),
])
def test_what_looks_like_notation_is_refused_with_the_fix(typed: str, options: dict[str, int], said: str) -> None:
    """d20 reads what it cannot parse as a comment: each of these rolled a wrong total in public."""
    with pytest.raises(RollError) as refused:
        roll(typed, rng=random.Random(1), **options)  # type: ignore[arg-type]
    assert said in refused.value.reason, refused.value.reason
    assert len(str(refused.value)) < 300 and "\n" not in refused.value.reason


@pytest.mark.parametrize("typed, options, said", [
    ("10d10k>=8", {}, "`k>=8` is written `k>7`; to count the dice instead, `10d10>=8`."),
    ("6d6k<=2", {}, "`k<=2` is written `k<3`"),
    ("adv 1d20+5", {}, "Put the words after the dice: `1d20+5 adv`."),
    ("stealth: 1d20+3", {}, "`1d20+3 stealth`"),
    ("Roll 1d20+5", {}, "Leave out `Roll`: the roll is `1d20+5`."),
    ("!r 2d6", {}, "Leave out `!r`"),
    ("4dFkh3", {}, "Fate dice are added up as rolled: keep, drop, reroll and explode do not apply"),
    ("4dF!", {}, "Fate dice are added up as rolled"),
    ("4DF+2", {"target": 1}, "leave out `target`, and compare the total instead, like `4dF+2 >= 3`."),
    ("1d1e1", {}, "`1d1e1` explodes on every face of a d1, so it would never stop."),
    ("3d6", {"target": 7}, "No die here can show 7 or more (the biggest is a d6), so `target:7` would never count"),
    ("1d20+5 >= 15", {"target": 10}, "The roll compares its total (`>=15`) and the `target` option counts dice; "
                                     "say it once."),
    ("2d6+1 < 7", {"target": 4}, "say it once"),
    ("4 dF", {}, "Remove the space: `4dF`."),
    ("dF dF", {}, "Join the dice with a sign: `dF+dF`."),
    ("roll 4dF+2", {}, "Leave out `roll`: the roll is `4dF+2`."),
    ("/r 4dF", {}, "Leave out `/r`: the roll is `4dF`."),
    ("10d6>4", {"target": 5}, "The roll counts dice `>4` and the `target` option says 5; say it once."),
    ("5d6<3", {"fail": 1}, "`fail` takes successes away from a pool counted upward"),
])
def test_a_refusal_says_what_to_do(typed: str, options: dict[str, int], said: str) -> None:
    with pytest.raises(RollError) as refused:
        roll(typed, rng=random.Random(1), **options)  # type: ignore[arg-type]
    assert said in refused.value.reason, refused.value.reason
    assert "character" not in refused.value.reason and len(str(refused.value)) < 300


@pytest.mark.parametrize("typed, comment", [
    ("8d6 fireball", "fireball"), ("1d20+5 [fire] to hit", "to hit"), ("d20 stealth check", "stealth check"),
    ("1d20+5 2nd attack", "2nd attack"), ("1d20 + 3 dex", "dex"), ("2d6 fire damage", "fire damage"),
    ("1d20+5 to hit adv", "to hit"), ("1d20 e.g. a test", "e.g. a test"), ("1d8 + d6 sneak attack", "sneak attack"),
    ("1d20 vs AC 15 (D&D)", "vs AC 15 (D&D)"), ("1d20 x marks the spot", "x marks the spot"),
])
def test_real_comments_still_work(typed: str, comment: str) -> None:
    assert roll(typed, rng=random.Random(1)).comment == comment


@pytest.mark.parametrize("typed, dice, total, comment", [
    ("8d6 fireball", (1, 2, 3, 4, 5, 6, 1, 2), 24, "fireball"),
    ("1d20+5 to hit 2 goblins", (11,), 16, "to hit 2 goblins"),
    ("d20 stealth (disadv?)", (11,), 11, "stealth (disadv?)"),
    ("1d20 vs AC 15", (11,), 11, "vs AC 15"),
    ("1d6 bonus damage", (4,), 4, "bonus damage"),
    ("2d6 3rd level", (4, 5), 9, "3rd level"),
    ("1d20 :)", (11,), 11, ":)"),
    ("1d20 #1 attack", (11,), 11, "#1 attack"),
    ("1d20+5 #2", (11,), 16, "#2"),
    ("1d20 x1", (11,), 11, "x1"),
])
def test_real_comments_roll_the_dice_before_them(typed: str, dice: tuple[int, ...], total: int, comment: str) -> None:
    """Comments players really write, each once refused or misread: they roll what comes before them."""
    series = roll(typed, rng=Loaded(*dice))
    assert (series.total, series.comment, len(series.rolls)) == (total, comment, 1)


def test_roll20_drops_and_explosions_are_obeyed_and_said() -> None:
    dropped = roll("4d6dl1", rng=Loaded(2, 5, 1, 6))
    assert dropped.total == 13 and dropped.expression == "4d6pl1"
    assert dropped.notes == ("`dl1` read as `pl1`: drop the lowest 1",)
    assert roll_text(dropped) == ("# 13\n-# `dl1` read as `pl1`: drop the lowest 1 · "
                                  "4d6pl1 (2, 5, ~~1~~ dropped, **6**)")
    assert roll("4d6d1", rng=Loaded(2, 5, 1, 6)).total == 13
    assert roll("4d6dh1+2", rng=Loaded(2, 5, 1, 6)).total == 10
    exploded = roll("1d8!+1", rng=Loaded(8, 8, 3))
    assert exploded.total == 20 and exploded.expression == "1d8e8 + 1"
    assert exploded.notes == ("`!` read as `e8`: explode on 8",)
    assert roll("1d6 what a hit!").comment == "what a hit!"  # not against a dice term: a comment, as typed


def test_k_and_a_number_keeps_dice_showing_it_and_says_so() -> None:
    series = roll("4d6k3", rng=Loaded(3, 2, 4, 6))
    assert series.total == 3
    assert roll_text(series).splitlines()[1].startswith("-# `k3` keeps dice showing 3; the highest 3 is `kh3` · ")
    assert roll("4d6kh3", rng=Loaded(3, 2, 4, 6)).notes == ()


# ---------------------------------------------------------------- comparisons and dice pools
POOL = (5, 4, 6, 1, 2, 3, 5, 5, 6, 1)


def test_a_compared_pool_counts_successes_as_the_target_option_does() -> None:
    typed = roll("10d6>4", rng=Loaded(*POOL))
    option = roll("10d6", target=5, rng=Loaded(*POOL))
    assert typed.total == option.total == 5 and typed.target == 5
    assert roll_text(typed) == roll_text(option) == (
        "# 5 successes\n-# 10d6 (**5**, 4, **6**, 1, 2, 3, **5**, **5**, **6**, 1) · each die ≥ 5 counts 1")
    assert roll("10d6>=5", rng=Loaded(*POOL)).total == 5
    under = roll("10d6<3", rng=Loaded(*POOL))
    assert under.total == 3 and roll_text(under).endswith("· each die ≤ 2 counts 1")
    assert roll("10d6<=2", rng=Loaded(*POOL)).total == 3
    assert roll("6d10>=8", fail=1, rng=Loaded(8, 1, 9, 10, 2, 3)).total == 2
    assert roll("3d10e10>=8", rng=Loaded(10, 9, 3, 2)).total == 2  # the exploded die counts too
    assert roll("10d6>4 repeat 2", rng=Loaded(*POOL, *POOL)).total == 10


@pytest.mark.parametrize("typed, pool", [
    ("10d6>=2", True), ("10d6>=6", True), ("10d6>=1", False), ("10d6>=7", False),
    ("10d6>1", True), ("10d6>5", True), ("10d6>0", False), ("10d6>6", False),
    ("10d6<=1", True), ("10d6<=5", True), ("10d6<=0", False), ("10d6<=6", False),
    ("10d6<2", True), ("10d6<6", True), ("10d6<1", False), ("10d6<7", False),
    ("3d6<=12", False), ("4d6<=20", False), ("2d1>0", False), ("5d%<=50", True),
])
def test_a_compared_pool_is_one_some_die_can_both_meet_and_miss(typed: str, pool: bool) -> None:
    """Otherwise every die would count (or none): what the roller compares is the total."""
    series = roll(typed, rng=random.Random(1))
    assert series.counting is pool and series.comparing is not pool


@pytest.mark.parametrize("typed, dice, headline", [
    ("3d6<=12", (6, 6, 1), "# ❌ Failure: 13 > 12"),  # GURPS: the total against the skill
    ("3d6<=12", (2, 5, 1), "# ✅ Success: 8 ≤ 12"),
    ("4d6<=20", (6, 6, 6, 6), "# ❌ Failure: 24 > 20"),
    ("10d6>=1", (1,) * 10, "# ✅ Success: 10 ≥ 1"),
    ("2d1>0", (1, 1), "# ✅ Success: 2 > 0"),
    ("2d6>=7", (3, 3), "# ❌ Failure: 6 < 7"),
    ("2d6>=8", (5, 4), "# ✅ Success: 9 ≥ 8"),
    ("10d6<1", (1,) * 10, "# ❌ Failure: 10 ≥ 1"),
    ("1d20+5 >= 15", (11,), "# ✅ Success: 16 ≥ 15"),
    ("1d20+5>=15", (9,), "# ❌ Failure: 14 < 15"),
    ("1d20 > 10", (10,), "# ❌ Failure: 10 ≤ 10"),
    ("(2d6)>=8", (5, 4), "# ✅ Success: 9 ≥ 8"),
    ("1d20+5 >= 15", (20,), "# ✅ Success: 25 ≥ 15 ✨ Natural 20!"),
    ("2d6+1 < 7", (3, 3), "# ❌ Failure: 7 ≥ 7"),
])
def test_a_compared_total_reads_as_success_or_failure(typed: str, dice: tuple[int, ...], headline: str) -> None:
    text = roll_text(roll(typed, rng=Loaded(*dice)))
    assert text.splitlines()[0] == headline


def test_fate_results_compared_are_signed_with_a_real_minus() -> None:
    single = roll_text(roll("4dF >= +1", rng=Loaded(1, 3, 1, 2)))
    assert single.splitlines()[0] == "# ❌ Failure: \u22121 < +1"
    assert roll_text(roll("4dF+2 >= 1", rng=Loaded(3, 3, 2, 2))).splitlines()[0] == "# ✅ Success: +4 ≥ +1"
    lines = roll_text(roll("4dF>=0 repeat 2", rng=Loaded(1, 1, 2, 2, 3, 3, 2, 2))).splitlines()
    assert lines[0] == "# ❌ \u22122, ✅ +2"
    assert lines[2].startswith("-# **❌ \u22122**: ") and lines[3].startswith("-# **✅ +2**: ")


def test_a_repeated_comparison_marks_each_result() -> None:
    lines = roll_text(roll("1d20+5>=15 repeat 3", rng=Loaded(11, 5, 20))).splitlines()
    assert lines[:2] == ["# ✅ 16, ❌ 10, ✅ 25✨", "-# 1d20+5>=15, 3 rolls · 2 of 3 succeed"]
    assert lines[3] == "-# **❌ 10**: (5) + 5 >= 15"


# ---------------------------------------------------------------- how a roll reads
def test_a_repeat_marks_crits_and_is_headed_by_what_was_typed() -> None:
    lines = roll_text(roll("1d20+7 repeat 3", rng=Loaded(20, 5, 1))).splitlines()
    assert lines == ["# 27✨, 12, 8💀", "-# 1d20+7, 3 rolls · sum 47", "-# **27**✨: (**20**✨) + 7",
                     "-# **12**: (5) + 7", "-# **8**💀: (**1**💀) + 7"]
    for series in (roll("1d20+5 adv", repeat=2, rng=Loaded(14, 3, 18, 2)),
                   roll("1d20+5", mode="advantage", repeat=2, rng=Loaded(14, 3, 18, 2))):
        assert roll_text(series).splitlines()[:2] == ["# 19, 23", "-# 1d20+5 adv, 2 rolls · sum 42"]


def test_a_pool_shows_its_successes_and_no_sum_of_faces() -> None:
    series = roll("20d6", target=5, rng=Loaded(*POOL, *POOL))
    line = roll_text(series).splitlines()[1]
    assert re.findall(r"\*\*(\d+)\*\*", line) == [str(v) for v in POOL + POOL if v >= 5]
    assert "total" not in line and line.endswith("· each die ≥ 5 counts 1")
    repeated = roll_text(roll("10d6", target=5, repeat=2, rng=Loaded(*POOL, *POOL))).splitlines()
    assert repeated[2] == "-# **5**: (**5**, 4, **6**, 1, 2, 3, **5**, **5**, **6**, 1)"
    summary = roll_text(roll("1000d6", target=5, rng=random.Random(1))).splitlines()[1]
    assert re.search(r"`1000d6`: 1000 dice = \d+ successes · each die ≥ 5 counts 1", summary), summary


def test_a_rerolled_then_dropped_die_reads_as_one_die() -> None:
    series = roll("4d6ro<2kh3", rng=Loaded(1, 4, 5, 6, 2))
    assert series.rolls[0].breakdown == "4d6ro<2kh3 (~~1→2~~ dropped, 4, 5, **6**)"
    assert series.total == 15


def test_a_repeat_of_a_roll20_drop_is_headed_as_typed() -> None:
    series = roll("4d6dl1 repeat 2", rng=Loaded(2, 5, 1, 6, 3, 3, 4, 2))
    assert series.typed == "4d6dl1" and series.expression == "4d6pl1"
    assert roll_text(series).splitlines()[1] == "-# `dl1` read as `pl1`: drop the lowest 1 · 4d6dl1, 2 rolls · sum 23"


# ---------------------------------------------------------------- Call of Cthulhu's bonus and penalty dice
# each tens die is a d10 read 0-9 (a 10 reads 0), rolled before the one units die: Loaded(7, 3, 4)
# is tens 70 and 30, units 4

def test_a_bonus_die_keeps_the_lower_d100_and_a_penalty_die_the_higher() -> None:
    bonus = roll("1d100 bonus", rng=Loaded(7, 3, 4))
    assert bonus.total == 34 and [(f.value, f.kept) for f in faces(bonus)] == [(74, False), (34, True)]
    assert roll_text(bonus) == "# 34\n-# bonus die (tens 30, ~~70~~ dropped; units 4 = 34)"
    penalty = roll("d% penalty", rng=Loaded(7, 3, 4))
    assert roll_text(penalty) == "# 74\n-# penalty die (tens 70, ~~30~~ dropped; units 4 = 74)"
    two = roll("1d100 bonus 2 spot hidden", rng=Loaded(7, 3, 9, 4))
    assert roll_text(two) == ("# 34\n-# *spot hidden* · 2 bonus dice "
                              "(tens 30, ~~70~~ dropped, ~~90~~ dropped; units 4 = 34)")


def test_00_and_0_is_100_so_a_bonus_die_never_keeps_it() -> None:
    bonus = roll("1d100 bonus", rng=Loaded(10, 5, 10))
    assert bonus.total == 50 and roll_text(bonus).endswith("(tens 50, ~~00~~ dropped; units 0 = 50)")
    penalty = roll("1d100 penalty", rng=Loaded(10, 5, 10))
    assert penalty.total == 100 and roll_text(penalty).endswith("(tens 00, ~~50~~ dropped; units 0 = 100)")
    assert roll("1d100 penalty", rng=Loaded(10, 10, 10)).total == 100


def test_bonus_and_penalty_dice_cancel_one_for_one() -> None:
    even = roll("1d100 bonus penalty", rng=Loaded(42))
    assert even.total == 42 and len(faces(even)) == 1
    assert even.notes == ("1 bonus and 1 penalty die cancel one for one: one d100",)
    net = roll("1d100 bonus 2 penalty", rng=Loaded(7, 3, 4))
    assert net.total == 34 and net.notes == ("2 bonus and 1 penalty dice cancel one for one: 1 bonus die",)


def test_bonus_dice_with_a_skill_a_modifier_and_a_repeat() -> None:
    compared = roll("1d100 <= 55 bonus", rng=Loaded(7, 3, 4))
    assert roll_text(compared).splitlines()[0] == "# ✅ Success: 34 ≤ 55"
    assert roll("1d100+5 penalty", rng=Loaded(7, 3, 4)).total == 79
    repeated = roll("1d100 bonus repeat 2", rng=Loaded(7, 3, 4, 1, 2, 3))
    assert [one.total for one in repeated.rolls] == [34, 13] and repeated.typed == "1d100 bonus"
    assert roll_text(repeated).splitlines()[1] == "-# 1d100 bonus, 2 rolls · sum 47"


@pytest.mark.parametrize("typed", ["1d100 bonus dice 2", "1d100 2 bonus", "1d100 2 bonus dice", "1d100 bonus die 2"])
def test_the_number_of_bonus_dice_may_stand_before_or_after_the_words(typed: str) -> None:
    series = roll(typed, rng=Loaded(7, 3, 9, 4))
    assert series.total == 34 and series.comment is None and series.typed == "1d100 bonus 2"


def test_without_a_d100_the_words_are_a_comment() -> None:
    series = roll("1d6 bonus damage", rng=Loaded(3))
    assert series.total == 3 and series.comment == "bonus damage"


@pytest.mark.parametrize("typed, options, said", [
    ("2d100 bonus", {}, "they need a roll that starts with one plain d100, like `1d100 bonus`; `2d100` does not."),
    ("5+1d100 penalty", {}, "like `1d100 penalty`; `5 + 1d100` does not."),
    ("1d100kh1 bonus", {}, "`1d100kh1` does not"),
    ("1d100 bonus 4", {}, "at most 3 bonus or penalty dice"),
    ("1d100 penalty 0", {}, "Say how many bonus or penalty dice"),
    ("1d100 bonus", {"target": 50}, "leave out `target` (to compare it with a skill, `1d100 <= 55 bonus`)"),
    ("bonus 2", {}, "Bonus and penalty dice go with a d100: `1d100 bonus 2`."),
])
def test_bonus_dice_that_cannot_be_rolled_are_refused(typed: str, options: dict[str, int], said: str) -> None:
    with pytest.raises(RollError) as refused:
        roll(typed, rng=random.Random(1), **options)  # type: ignore[arg-type]
    assert said in refused.value.reason, refused.value.reason
