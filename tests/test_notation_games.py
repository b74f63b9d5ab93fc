"""What a game's players type after the dice and get back: Call of Cthulhu's success levels
(`vs 55`), a DC met or not (`dc 15`, D&D) or Pathfinder 2e's degrees of success (`dc 20 pf2`), Powered by the Apocalypse's hits
(`pbta`), Blades in the Dark's outcomes (`blades`), D&D's critical damage (`crit`), and
`/roll help`, whose every example rolls."""

from __future__ import annotations

import random
import re

import pytest

from cogs.dice.text import HELP, asks_help, roll_text
from rules.notation import RollError, roll
from tests.test_notation import Loaded


def head(typed: str, *dice: int) -> str:
    return roll_text(roll(typed, rng=Loaded(*dice))).splitlines()[0]


@pytest.mark.parametrize("d100, said", [
    (1, "# 🌟 Critical success: 01"), (11, "# ✅ Extreme success: 11"), (12, "# ✅ Hard success: 12"),
    (27, "# ✅ Hard success: 27"), (28, "# ✅ Regular success: 28"), (55, "# ✅ Regular success: 55"),
    (56, "# ❌ Failure: 56"), (99, "# ❌ Failure: 99"), (100, "# 💀 Fumble: 100"),
])
def test_call_of_cthulhu_success_levels_against_a_skill(d100: int, said: str) -> None:
    assert head("1d100 vs 55", d100) == said


def test_under_50_a_96_fumbles_and_the_rule_is_said_once() -> None:
    assert head("d% vs 40", 96) == "# 💀 Fumble: 96"
    assert head("1d100 vs 50", 96) == "# ❌ Failure: 96"
    text = roll_text(roll("1d100 vs 40 spot hidden", rng=Loaded(95)))
    assert text == "# ❌ Failure: 95\n-# *spot hidden* · skill 40 · Hard ≤ 20 · Extreme ≤ 8 · 96+ fumbles · 1d100 (95)"


def test_a_difficulty_needs_its_level_and_says_what_was_reached() -> None:
    text = roll_text(roll("1d100 vs 55 hard", rng=Loaded(30)))
    assert text.splitlines()[0] == "# ❌ Failure: 30"
    assert "skill 55, Hard: ≤ 27 · Extreme ≤ 11 · 96+ fumbles · a Regular success; Hard was needed" in text
    assert head("1d100 vs 55 extreme", 11) == "# ✅ Extreme success: 11"
    assert head("1d100 vs 55 extreme", 1) == "# 🌟 Critical success: 01"


@pytest.mark.parametrize("typed, d100, said", [
    # 7th edition: 96+ fumbles when the number needed is under 50, whatever the skill
    ("1d100 vs 60 hard", 97, "# 💀 Fumble: 97"), ("1d100 vs 99 hard", 96, "# 💀 Fumble: 96"),
    ("1d100 vs 200 extreme", 96, "# 💀 Fumble: 96"), ("1d100 vs 100 hard", 96, "# ❌ Failure: 96"),
    ("1d100 vs 60", 97, "# ❌ Failure: 97"), ("1d100 vs 60 hard", 95, "# ❌ Failure: 95"),
])
def test_the_fumble_range_follows_the_number_needed_not_the_skill(typed: str, d100: int, said: str) -> None:
    assert head(typed, d100) == said
    rule = roll_text(roll(typed, rng=Loaded(d100))).splitlines()[1]
    assert ("96+ fumbles" in rule) == (typed != "1d100 vs 60" and "vs 100 hard" not in typed), rule


def test_a_difficulty_typed_full_width_is_read_and_not_shown_again() -> None:
    series = roll("1d100 vs 55 ＨＡＲＤ", rng=Loaded(30))
    assert series.comment is None and roll_text(series).splitlines()[0] == "# ❌ Failure: 30"
    series = roll("1d100 vs 55 ＨＡＲＤ ｓｐｏｔ ｈｉｄｄｅｎ", rng=Loaded(20))
    assert series.comment == "spot hidden" and roll_text(series).splitlines()[0] == "# ✅ Hard success: 20"
    assert roll("1d100 vs 55 ｓｐｏｔ ｈｉｄｄｅｎ", rng=Loaded(20)).comment == "ｓｐｏｔ ｈｉｄｄｅｎ"  # as typed


def test_bonus_dice_and_a_skill_together() -> None:
    # tens 3 and 7 (a d10 each), units 4: the bonus die keeps 34
    series = roll("1d100 bonus vs 55 listen", rng=Loaded(3, 7, 4))
    text = roll_text(series)
    assert text.splitlines()[0] == "# ✅ Regular success: 34" and series.comment == "listen"
    assert "bonus die (tens 30, ~~70~~ dropped; units 4 = 34)" in text


def test_a_repeat_marks_each_result_and_names_it_on_its_line() -> None:
    text = roll_text(roll("1d100 vs 55 repeat 3", rng=Loaded(5, 40, 80)))
    lines = text.splitlines()
    assert lines[0] == "# ✅ 05, ✅ 40, ❌ 80"
    assert lines[1] == "-# 1d100 vs 55, 3 rolls · skill 55 · Hard ≤ 27 · Extreme ≤ 11"  # no sum of d100s
    assert lines[2].startswith("-# **✅ 05** Extreme success") and lines[4].startswith("-# **❌ 80** Failure")


@pytest.mark.parametrize("typed, d20, said", [
    ("1d20+5 dc 15", 13, "# ✅ Success: 18"), ("1d20+5 dc 15", 10, "# ✅ Success: 15"),
    ("1d20+5 dc 15", 7, "# ❌ Failure: 12"), ("1d20+5 vs dc 15", 9, "# ❌ Failure: 14"),
    # no degrees in D&D: ten over is a success, a natural 20 or 1 on a check moves nothing
    ("1d20+5 dc 15", 20, "# ✅ Success: 25"), ("1d20+17 dc 15", 18, "# ✅ Success: 35"),
    ("1d20 dc 21", 20, "# ❌ Failure: 20"), ("1d20+30 DC:15", 1, "# ✅ Success: 31"),
    ("1d20-1 dc 10", 1, "# ❌ Failure: 0"),
])
def test_a_dc_alone_is_met_or_not(typed: str, d20: int, said: str) -> None:
    assert head(typed, d20) == said


def test_a_dc_alone_says_the_dc_and_works_with_advantage() -> None:
    text = roll_text(roll("1d20+5 dc 15 perception", rng=Loaded(20)))
    assert text == "# ✅ Success: 25\n-# *perception* · DC 15 · 1d20 (**20**✨) + 5"
    assert head("1d20+5 dc 15 adv", 4, 9) == "# ❌ Failure: 14"
    assert roll("1d20+5 dc 15 dis", rng=Loaded(4, 9)).typed == "1d20+5 dis dc 15"


@pytest.mark.parametrize("typed, d20, said", [
    ("1d20+7 dc 20 pf2", 13, "# ✅ Success: 20"), ("1d20+7 dc 20 pf2", 12, "# ❌ Failure: 19"),
    ("1d20+7 dc 20 pf2", 3, "# 💀 Critical failure: 10"), ("1d20+7 dc 20 pf2", 4, "# ❌ Failure: 11"),
    ("1d20+7 vs dc 20 pf", 19, "# ✅ Success: 26"), ("1d20+7 DC:20 PF2", 23 - 7, "# ✅ Success: 23"),
    ("1d20+17 pathfinder dc 20", 13, "# 🌟 Critical success: 30"),
    # a natural 20 or 1 moves the degree one step, within the four
    ("1d20+7 dc 20 pf2", 20, "# 🌟 Critical success: 27"), ("1d20+1 dc 30 pf2", 20, "# ✅ Success: 21"),
    ("1d20 dc 31 pf2e", 20, "# ❌ Failure: 20"),
    ("1d20+30 dc 20 pf2", 1, "# ✅ Success: 31"), ("1d20 dc 5 pf2", 1, "# 💀 Critical failure: 1"),
])
def test_pathfinder_degrees_of_success(typed: str, d20: int, said: str) -> None:
    assert head(typed, d20) == said


def test_a_natural_20_says_what_it_did_and_advantage_works_with_a_dc() -> None:
    series = roll("1d20+7 dc 20 pf2 stealth", rng=Loaded(20))
    assert roll_text(series) == ("# 🌟 Critical success: 27\n-# *stealth* · DC 20 · degrees of success · "
                                 "natural 20: a degree better · 1d20 (**20**✨) + 7")
    assert series.comment == "stealth" and series.typed == "1d20+7 dc 20 pf2"
    assert "natural 1: a degree worse" in roll_text(roll("1d20+30 dc 20 pf2", rng=Loaded(1)))
    assert head("1d20+7 dc 20 pf2 adv", 4, 15) == "# ✅ Success: 22"
    # the word alone, with no DC, is a comment
    assert roll("1d20+7 pf2 stealth", rng=Loaded(20)).comment == "pf2 stealth"


@pytest.mark.parametrize("dice, said", [
    ((4, 5), "# ✅ Strong hit: 10"), ((6, 6), "# ✅ Strong hit: 13"), ((3, 3), "# ⚠️ Weak hit: 7"),
    ((4, 4), "# ⚠️ Weak hit: 9"), ((2, 3), "# ❌ Miss: 6"),
])
def test_powered_by_the_apocalypse_hits(dice: tuple[int, int], said: str) -> None:
    assert head("2d6+1 pbta go aggro", *dice) == said
    assert roll("2d6+1 pbta go aggro", rng=Loaded(*dice)).comment == "go aggro"


@pytest.mark.parametrize("typed, dice, said", [
    ("3d6 blades", (6, 2, 6), "# 🌟 Critical success: 6"), ("3d6 blades", (2, 6, 1), "# ✅ Full success: 6"),
    ("2d6 blades", (5, 4), "# ⚠️ Partial success: 5"), ("1d6 bitd", (3,), "# ❌ Bad outcome: 3"),
    # zero dice: two rolled, the lower counts, and two 6s are no critical
    ("0d6 blades", (6, 2), "# ❌ Bad outcome: 2"), ("0d6 blades", (6, 6), "# ✅ Full success: 6"),
])
def test_blades_in_the_dark_reads_the_highest_die(typed: str, dice: tuple[int, ...], said: str) -> None:
    assert head(typed, *dice) == said


def test_a_blades_pool_says_why() -> None:
    assert "2 sixes" in roll_text(roll("3d6 blades", rng=Loaded(6, 2, 6)))
    text = roll_text(roll("0d6 blades", rng=Loaded(6, 2)))
    assert text == "# ❌ Bad outcome: 2\n-# 0 dice: the lower of 2d6 · 2d6kl1 (~~6~~ dropped, 2)"


def test_critical_damage_doubles_the_dice_not_the_modifiers() -> None:
    series = roll("2d6+3 crit slashing", rng=Loaded(1, 2, 3, 4))
    assert series.expression == "4d6 + 3" and series.total == 13 and series.comment == "slashing"
    assert roll_text(series).splitlines()[1].startswith("-# *slashing* · `crit`: every die doubled, the modifiers not")
    assert roll("1d8+1d6+4 crit", rng=random.Random(1)).expression == "2d8 + 2d6 + 4"


@pytest.mark.parametrize("typed, comment", [
    ("1d8 twin blades", "twin blades"), ("1d20 crit on 19", "crit on 19"), ("1d20 vs AC 15", "vs AC 15"),
    ("1d6 bonus damage", "bonus damage"),
    # `dc` after anything but a d20, `vs` on anything but a d100 (they rolled so before either was read)
    ("8d6 fireball dc 15 dex save", "fireball dc 15 dex save"), ("2d6 fire vs 2 orcs", "fire vs 2 orcs"),
    ("1d20+5 vs 15", "vs 15"), ("3d6 dc 12", "dc 12"), ("2d8+3 vs. 2 goblins", "vs. 2 goblins"),
    ("1d4+1d20 dc 10", "dc 10"), ("3d20 dc 10", "dc 10"), ("1d100 dc 20", "dc 20"),
])
def test_these_words_stay_a_comment_where_they_cannot_be_meant(typed: str, comment: str) -> None:
    series = roll(typed, rng=random.Random(1))
    assert series.comment == comment and series.reading is None and series.rolls[0].verdict is None


@pytest.mark.parametrize("typed, options, said", [
    ("1d100+10 vs 55", {}, "A skill roll is one d100 alone, like `1d100 vs 55`"),
    ("1d100 vs 0", {}, "A skill is from 1 to 200"),
    # advantage written out: the words say it, so a natural 20 and 1 are the kept die's
    ("2d20kh1+7 dc 20", {}, "`dc 20` reads one d20 against the DC; to roll it twice, say so: `1d20+7 adv dc 20`."),
    ("2d20kl1-1 dc 12 pf2", {}, "say so: `1d20-1 dis dc 12 pf2`."),
    ("2d20 + 3 dc 12", {}, "say so: `1d20+3 adv dc 12`."), ("2d20dl1+2 dc 9", {}, "say so: `1d20+2 adv dc 9`."),
    ("1d20 dc 1000", {}, "A DC is at most 999."),
    ("1d20 pbta", {}, "`pbta` reads 2d6 plus a stat"),
    ("3d6+1 blades", {}, "`blades` reads a pool of d6s alone"), ("3d6kh1 blades", {}, "`blades` reads a pool"),
    ("11d6 blades", {}, "at most 10 dice"),
    ("1d20 dc 20 dc 15", {}, "Ask for one reading of the roll, not `dc 20` and `dc 15`."),
    ("3d6 blades pbta", {}, "Ask for one reading of the roll, not `blades` and `pbta`."),
    ("5d6 blades", {"target": 6}, "`blades` reads the roll already; leave out `target`."),
    ("1d100 vs 55", {"target": 50}, "`vs 55` reads the roll already; leave out `target`."),
    ("2d6+1 >= 7 pbta", {}, "`pbta` reads the roll already; leave out `>=7`."),
    ("2d6 pbta crit", {}, "`crit` doubles a damage roll's dice; `pbta` reads a check."),
])
def test_a_reading_that_cannot_be_made_is_refused_with_the_fix(typed: str, options: dict[str, int], said: str) -> None:
    with pytest.raises(RollError) as caught:
        roll(typed, **options)  # type: ignore[arg-type]
    assert said in caught.value.reason


def test_every_example_in_help_rolls_as_shown() -> None:
    examples = [found for line in HELP.splitlines() if line.startswith("**")
                for found in re.findall(r"`([^`]+)`", line) if not found.startswith("target:")]
    assert len(examples) >= 20
    for typed in examples:
        roll(typed, rng=random.Random(1))  # raises if not
    assert len(HELP) <= 2000
    for system in ("D&D 5e", "Pathfinder 2e", "Call of Cthulhu", "Powered by the Apocalypse", "Blades in the Dark",
                   "World of Darkness", "Shadowrun", "Fate"):
        assert f"**{system}**" in HELP
    assert asks_help(" Help ") and asks_help("?") and not asks_help("1d20 help")
