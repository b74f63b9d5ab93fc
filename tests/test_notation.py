"""/roll's notation: the d20 grammar, success counting, repeat, every limit, and what reaches Discord."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cogs.dice import text as dice_text
from cogs.dice.text import roll_text
from rules.base import GameError
from rules.notation import (EXAMPLES, MAX_DICE, MAX_EXPRESSION, MAX_SIDES, Counting, Face, RollError, RollSeries,
                            on_ladder, plain_number, roll)

#: a struck-through die and the word after it: every die that does not count says so in words
STRUCK = re.compile(r"~~(?:[^~]|~(?!~))+~~( dropped| rerolled)?")


class Loaded(random.Random):
    """Dice that show the given faces in order (then fall back to a seeded stream)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(1)
        self.faces = list(faces)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        if not self.faces:
            return super().randrange(start, stop, step) if stop is not None else super().randrange(start)
        face = self.faces.pop(0)
        return face if stop is not None else face - 1  # every die asks randrange(sides)


def faces(series: RollSeries, index: int = 0) -> list[Face]:
    return [f for g in series.rolls[index].groups for f in g.faces]


def kept_values(series: RollSeries, index: int = 0) -> list[int]:
    return [f.value for f in faces(series, index) if f.kept]


def check_reply(text: str, series: RollSeries) -> None:
    """Within Discord's 2,000 characters, the results in large type on the first line (one for
    each roll, a comparison's success or failure as it came out), the rest in small type. How each
    result is written is checked with literal replies (test_a_repeat_headline_as_players_read_it)."""
    assert len(text) <= 2000
    head = text.splitlines()[0]
    assert head.startswith("# "), text
    if len(series.rolls) == 1 and series.rolls[0].compared is not None:
        assert head.startswith("# ✅ Success: " if series.rolls[0].compared.success else "# ❌ Failure: "), text
    elif len(series.rolls) == 1 and not series.fate:
        assert re.match(rf"# {series.total}\b", head), text
    elif len(series.rolls) > 1 and not head.endswith("…"):
        assert len(head.split(", ")) == len(series.rolls), text
        marked = [r.compared.success for r in series.rolls if r.compared is not None]
        assert [part.lstrip("# ")[0] == "✅" for part in head.split(", ") if marked] == marked, text
    assert all(line.startswith("-# ") for line in text.splitlines()[1:]), text  # the rest in small type


# ---------------------------------------------------------------- grammar
@pytest.mark.parametrize("seed", range(20))
def test_keep_and_drop_pick_the_right_dice(seed: int) -> None:
    rng = random.Random(seed)
    for expression, pick in [
        ("4d6kh3", lambda v: sorted(v)[1:]),
        ("4d6kl1", lambda v: sorted(v)[:1]),
        ("5d6ph2", lambda v: sorted(v)[:3]),
        ("5d6pl2", lambda v: sorted(v)[2:]),
        ("6d6k>3", lambda v: [x for x in v if x > 3]),
        ("6d6k<3", lambda v: [x for x in v if x < 3]),
        ("6d6p4", lambda v: [x for x in v if x != 4]),
    ]:
        series = roll(expression, rng=rng)
        rolled = [f.value for f in faces(series)]
        assert sorted(kept_values(series)) == sorted(pick(rolled)), expression
        assert series.rolls[0].total == sum(kept_values(series))


def test_dropped_dice_are_struck_through_and_named() -> None:
    series = roll("4d6kh3", rng=Loaded(2, 5, 1, 6))
    assert series.rolls[0].breakdown == "4d6kh3 (2, 5, ~~1~~ dropped, **6**)"  # a struck 1 is not bold
    assert series.total == 13 and [f.kept for f in faces(series)] == [True, True, False, True]
    repeated = roll("4d6kh3", repeat=2, rng=Loaded(2, 5, 1, 6, 3, 3, 4, 2))
    assert [one.terse for one in repeated.rolls] == ["(2, 5, ~~1~~ dropped, **6**)", "(3, 3, 4, ~~2~~ dropped)"]
    assert series.rolls[0].terse is None  # a single roll shows its whole breakdown
    advantage = roll("2d20kh1+7", rng=Loaded(8, 17)).rolls[0]
    assert advantage.breakdown == "2d20kh1 (~~8~~ dropped, 17) + 7"
    # a whole dropped term is struck and named once, not die by die
    assert roll("(1d6, 1d8)kh1", rng=Loaded(2, 7)).rolls[0].breakdown == "(~~1d6 (2)~~ dropped, 1d8 (7))kh1"


@pytest.mark.parametrize("seed", range(10))
def test_every_struck_die_is_named(seed: int) -> None:
    rng = random.Random(seed)
    # (expression, whether each face that does not count has a mark of its own: a dropped die
    # whose earlier face was rerolled, or a dropped set of dice, is struck and named as a whole)
    for expression, one_each in [("4d6kh3", True), ("6d6p4", True), ("5d6pl2", True), ("8d6rr<3", True),
                                 ("10d10e10kh4", True), ("4d6ro1kh3", False), ("(2d6, 1d8, 1d10)kl2", False)]:
        one = roll(expression, repeat=2, rng=rng).rolls[0]
        assert one.terse is not None
        for text in (one.breakdown, one.terse):
            marks = STRUCK.findall(text)
            assert all(marks), text  # no strike without its word
            assert text.count(" dropped") + text.count(" rerolled") == len(marks), text
            if one_each:
                assert len(marks) == sum(not f.kept for f in faces(RollSeries(expression, (one,)))), text


def test_rerolls_replace_the_die() -> None:
    # rolls 1, 4, 1; both 1s are rerolled (1 and 3), the first again (6)
    series = roll("3d6rr1", rng=Loaded(1, 4, 1, 1, 3, 6))
    assert [(f.value, f.kept) for f in faces(series)] == [(1, False), (1, False), (6, True), (4, True), (1, False),
                                                         (3, True)]
    assert series.total == 13
    assert series.rolls[0].breakdown == "3d6rr1 (~~1~~ rerolled, ~~1~~ rerolled, **6**, 4, ~~1~~ rerolled, 3)"

    once = roll("2d6ro1", rng=Loaded(1, 1, 1, 1))
    assert kept_values(once) == [1, 1] and len(faces(once)) == 4  # rerolled once each, not again


def test_explosions_add_dice() -> None:
    series = roll("3d10e10", rng=Loaded(10, 3, 7, 10, 2))
    assert [f.value for f in faces(series)] == [10, 3, 7, 10, 2]
    assert [f.exploded for f in faces(series)] == [True, False, False, True, False]
    assert series.total == 32 and "10!" in series.rolls[0].breakdown

    once = roll("2d6ra6", rng=Loaded(6, 6, 6))
    assert len(faces(once)) == 3 and once.total == 18


@pytest.mark.parametrize("seed", range(10))
def test_minimum_maximum_and_percentile(seed: int) -> None:
    rng = random.Random(seed)
    assert all(v >= 10 for v in kept_values(roll("8d20mi10", rng=rng)))
    assert all(v <= 3 for v in kept_values(roll("8d6ma3", rng=rng)))
    forced = roll("1d20mi10", rng=Loaded(4))
    assert faces(forced) == [Face(value=10, natural=4, sides=20, kept=True)]
    assert "4 -> 10" in forced.rolls[0].breakdown


def test_percentile_die_is_1_to_100() -> None:
    seen: set[int] = set()
    for seed in range(5):
        seen.update(kept_values(roll("1000d%", rng=random.Random(seed))))
    assert seen == set(range(1, 101))  # 1 and 100 both come up; 0 and the tens-only faces of old never
    assert roll("d%", rng=Loaded(100)).total == 100 and roll("1d%", rng=Loaded(1)).total == 1
    assert roll("d%", rng=Loaded(100)).rolls[0].breakdown == "1d% (**100**)"  # its top face, like any die's
    assert roll("d% + d%", rng=Loaded(37, 64)).total == 101
    assert roll("3d%kh1", rng=Loaded(5, 99, 40)).total == 99


@pytest.mark.parametrize("seed", range(10))
def test_arithmetic_and_comparisons(seed: int) -> None:
    rng = random.Random(seed)
    series = roll("2d6*3-1", rng=rng)
    assert series.total == sum(kept_values(series)) * 3 - 1
    series = roll("(1d8+2)//2", rng=rng)
    assert series.total == (sum(kept_values(series)) + 2) // 2
    assert roll("7/2").total == 3 and roll("7%3").total == 1 and roll("-3+10").total == 7
    assert roll("1d20 >= 1", rng=rng).total == 1 and roll("1d6 > 6", rng=rng).total == 0
    assert roll("2 == 2").total == 1 and roll("2 != 2").total == 0


def test_sets_annotations_and_comments() -> None:
    series = roll("(1d6, 1d8, 1d10)kh1", rng=Loaded(2, 7, 5))
    assert series.total == 7 and [g.kept for g in series.rolls[0].groups] == [0, 1, 0]

    series = roll("1d20[attack] + 5 [str] sneak attack on the guard", rng=Loaded(12))
    assert series.total == 17 and series.comment == "sneak attack on the guard"
    assert "[attack]" in series.rolls[0].breakdown and series.rolls[0].groups[0].annotation == "[attack]"
    assert series.expression == "1d20 [attack] + 5 [str]"
    assert roll("1d20").comment is None


def test_criticals_and_fumbles_on_d20s() -> None:
    crit = roll("1d20+5", rng=Loaded(20))
    assert crit.rolls[0].crit == "crit" and "✨" in crit.rolls[0].breakdown and faces(crit)[0].crit
    fumble = roll("2d20kl1", rng=Loaded(1, 15))
    assert fumble.rolls[0].crit == "fumble" and faces(fumble)[0].fumble
    assert roll("2d20kh1", rng=Loaded(1, 15)).rolls[0].crit is None  # the 1 was dropped
    # only a die that counts is marked: a dropped natural 20 must not catch the eye
    assert roll("2d20kl1", rng=Loaded(20, 15)).rolls[0].breakdown == "2d20kl1 (~~20~~ dropped, 15)"
    assert roll("1d6+1d20", rng=Loaded(6, 20)).rolls[0].crit is None  # d20's rule: the roll must lead with it
    assert roll("1d20mi20", rng=Loaded(1)).rolls[0].crit == "fumble"  # a natural 1, even raised
    assert not any(f.crit or f.fumble for f in faces(roll("2d6", rng=Loaded(1, 6))))


def test_rolls_come_from_the_given_random_only() -> None:
    before = random.getstate()
    first = roll("10d20+4d6kh3", rng=random.Random(7))
    assert random.getstate() == before
    assert roll("10d20+4d6kh3", rng=random.Random(7)) == first
    assert roll("10d20+4d6kh3", rng=random.Random(8)) != first


# ---------------------------------------------------------------- Fate dice
# a Fate die is a three-faced die: Loaded(1) shows −, Loaded(2) blank (0), Loaded(3) +

def test_fate_dice_read_as_fate_players_read_them() -> None:
    series = roll("4dF+2", rng=Loaded(3, 3, 2, 1))
    assert series.fate and series.total == 3 and [f.value for f in faces(series)] == [1, 1, 0, -1]
    assert roll_text(series) == "# +3 Good\n-# 4dF (+, +, 0, \u2212) + 2"
    # lower case, a capital D, a lone dF: all Fate dice
    assert roll_text(roll("4df", rng=Loaded(1, 1, 2, 1))) == "# \u22123\n-# 4dF (\u2212, \u2212, 0, \u2212)"
    assert roll_text(roll("4DF to climb", rng=Loaded(2, 2, 2, 2))) == "# +0 Mediocre\n-# *to climb* · 4dF (0, 0, 0, 0)"
    assert roll("dF", rng=Loaded(1)).total == -1 and roll("dF", rng=Loaded(1)).expression == "1dF"
    # a repeat: each result signed, a line each on the ladder, and no sum
    text = roll_text(roll("4dF+1 repeat 2", rng=Loaded(3, 3, 3, 3, 1, 1, 2, 2)))
    assert text == ("# +5, \u22121\n-# 4dF+1, 2 rolls\n-# **+5 Superb**: (+, +, +, +) + 1\n"
                    "-# **\u22121 Poor**: (\u2212, \u2212, 0, 0) + 1")


@pytest.mark.parametrize("total, said", [(9, "+9"), (8, "+8 Legendary"), (6, "+6 Fantastic"), (1, "+1 Average"),
                                         (0, "+0 Mediocre"), (-2, "\u22122 Terrible"), (-3, "\u22123")])
def test_the_fate_ladder(total: int, said: str) -> None:
    assert on_ladder(total) == said


@pytest.mark.parametrize("typed", ["dF+" + "9" * 400, "4dF*" + "9" * 400, "4dF*" + "9" * 400 + " repeat 2",
                                   "4dF/3", "(4dF+" + "9" * 300 + ")/7"])
def test_fate_results_past_any_float_are_shown(typed: str) -> None:
    series = roll(typed, rng=random.Random(1))
    text = roll_text(series)
    check_reply(text, series)
    assert text.startswith("# +") or text.startswith("# \u2212")


@pytest.mark.parametrize("typed, dice, headline", [
    ("1d20+5 repeat 3", (20, 1, 10), "# 25✨, 6💀, 15"),
    ("1d20 adv repeat 2", (20, 3, 1, 2), "# 20✨, 2"),
    ("4dF repeat 3", (3, 3, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2), "# +2, \u22123, +0"),
    ("10d6>4 repeat 2", (5, 4, 6, 1, 2, 3, 5, 5, 6, 1) * 2, "# 5, 5 successes"),
    ("1d20+5>=15 repeat 2", (11, 1), "# ✅ 16, ❌ 6💀"),
    ("1d4/2 repeat 2", (3, 4), "# 1, 2"),
])
def test_a_repeat_headline_as_players_read_it(typed: str, dice: tuple[int, ...], headline: str) -> None:
    assert roll_text(roll(typed, rng=Loaded(*dice))).splitlines()[0] == headline


def test_a_roll_carries_how_it_counts_and_text_reads_it_from_there() -> None:
    assert roll("10d6>4", rng=random.Random(1)).rule == Counting(5)
    assert roll("6d10>=8", fail=1, rng=random.Random(1)).rule == Counting(8, 1)
    under = roll("5d6<3", rng=random.Random(1))
    assert under.rule == Counting(2, under=True) and (under.target, under.fail, under.under) == (2, None, True)
    assert roll("3d6", target=5, rng=random.Random(1)).rule == Counting(5)
    assert roll("1d20+5", rng=random.Random(1)).rule is None


def test_numbers_read_as_players_write_them_in_one_place() -> None:
    assert [plain_number(n) for n in (2.0, 2.5, 7, -3.0)] == ["2", "2.5", "7", "-3"]
    assert dice_text.plain_number is plain_number and not hasattr(dice_text, "_number")


def test_fate_dice_mixed_compared_or_luck() -> None:
    # with other dice it is an ordinary sum; compared, a success or failure on the total
    mixed = roll("4dF+1d6", rng=Loaded(3, 3, 3, 3, 2))
    assert not mixed.fate and roll_text(mixed) == "# 6\n-# 4dF (+, +, +, +) + 1d6 (2)"
    compared = roll("4dF+2 >= 3", rng=Loaded(3, 2, 2, 2))
    assert roll_text(compared).splitlines()[0] == "# ✅ Success: +3 ≥ +3"
    assert roll("4dF>0", rng=Loaded(1, 2, 2, 2)).rolls[0].compared is not None  # the total, not a pool
    # the three-faced die under each Fate die, for a player's luck: faces 1-3, never −1
    assert [(f.sides, f.natural) for f in faces(roll("3dF", rng=Loaded(1, 2, 3)))] == [("F", 1), ("F", 2), ("F", 3)]


# ---------------------------------------------------------------- success counting and repeat
@pytest.mark.parametrize("seed", range(20))
def test_success_counting(seed: int) -> None:
    series = roll("8d10", target=7, fail=2, rng=random.Random(seed))
    values = kept_values(series)
    assert series.rolls[0].successes == sum(v >= 7 for v in values) - sum(v <= 2 for v in values)
    assert series.total == series.rolls[0].successes and series.rolls[0].total == sum(values)


def test_success_counting_skips_dropped_dice_and_counts_explosions() -> None:
    assert roll("4d10kh2", target=5, rng=Loaded(9, 9, 9, 1)).total == 2
    assert roll("2d10e10", target=8, rng=Loaded(10, 4, 8)).total == 2
    assert roll("3d10", target=8, fail=1, rng=Loaded(1, 1, 9)).total == -1
    assert roll("2+3", target=4).total == 0  # no dice, nothing to count
    with pytest.raises(RollError, match="needs a `target`"):
        roll("3d6", fail=1)
    with pytest.raises(RollError, match="lower than"):
        roll("3d6", target=4, fail=4)


@pytest.mark.parametrize("seed", range(5))
def test_repeat_rolls_each_line_and_sums(seed: int) -> None:
    series = roll("4d6kh3", repeat=6, rng=random.Random(seed))
    assert len(series.rolls) == 6 and series.dice == 24
    assert series.total == sum(sum(kept_values(series, i)) for i in range(6))
    counted = roll("5d10", repeat=3, target=8, rng=random.Random(seed))
    assert counted.total == sum(sum(v >= 8 for v in kept_values(counted, i)) for i in range(3))


@pytest.mark.parametrize("repeat", [0, -1, 21])
def test_repeat_out_of_range(repeat: int) -> None:
    with pytest.raises(RollError, match="between 1 and 20"):
        roll("1d20", repeat=repeat)


# ---------------------------------------------------------------- limits and bad input
def test_expression_length_limit() -> None:
    ones = "+".join(["1"] * 249)
    assert len("11+" + ones) == MAX_EXPRESSION and roll("11+" + ones).total == 11 + 249
    assert roll(f"  11+{ones}  ").total == 260  # surrounding blanks do not count
    with pytest.raises(RollError, match="501 characters"):
        roll("111+" + ones)
    with pytest.raises(RollError, match="5000 characters"):
        roll("1" * 5000)


def test_dice_limits() -> None:
    assert roll(f"{MAX_DICE}d6", rng=random.Random(1)).dice == MAX_DICE
    assert roll("1d10000", rng=random.Random(1)).total in range(1, 10_001)
    assert roll("50d6", repeat=20, rng=random.Random(1)).dice == 1000
    for expression, repeat, reason in [
        ("1001d6", 1, "1001 dice"),
        ("500d6+501d6", 1, "1001 dice"),
        ("60d6", 17, "60 × 17 dice"),
        ("99999999999999999999d6", 1, "999999… dice"),
        ("1d10001", 1, "10,000 sides"),
        ("1d99999999999999999999", 1, "10,000 sides"),
        # an explosion or reroll on every face never stops, and is said to be so
        ("1d1e1", 1, "`1d1e1` explodes on every face of a d1, so it would never stop"),
        ("1d2rr<3", 1, "rerolls on every face of a d2"),
        ("900d6e>0", 1, "explodes on every face of a d6"),
        ("10d6rr<7", 5, "rerolls on every face of a d6"),
        ("1d6e1e2e3e4e5e6", 1, "explodes on every face"),
        ("999d6e6", 1, "more than 1,000 dice"),
        ("10d6rr<6", 20, "more than 1,000 dice"),
    ]:
        with pytest.raises(RollError) as caught:
            roll(expression, repeat=repeat, rng=random.Random(1))
        assert reason in caught.value.reason, (expression, caught.value.reason)


def test_too_much_sorting_is_refused() -> None:
    with pytest.raises(RollError, match="too much sorting"):
        roll("400d6" + "rrh1" * 123, rng=random.Random(1))
    # a long chain of ordinary keeps is fine: the first pair drops two dice, every later one a single die
    chain = "1000d6" + "kh999pl1" * 61
    assert len(chain) <= MAX_EXPRESSION
    assert roll(chain, rng=random.Random(1)).rolls[0].groups[0].kept == 1000 - 2 - 60


@pytest.mark.parametrize("expression, reason", [
    ("", "nothing to roll"), ("   ", "nothing to roll"), ("hello", "can't read"), ("1d20+", "can't read"),
    ("((1d6)", "can't read"), ("1d", "can't read"), ("d", "can't read"), ("1d20kx3", "can't read"),
    ("4d6k", "can't read"), ("` `", "can't read"), ("1d6mih1", "not a valid selector"),
    ("1d6ma<3", "not a valid selector"), ("1/0", "divides by zero"), ("1d6%0", "divides by zero"),
    ("(1d6-1d6+1d6-1d6)//0", "divides by zero"), ("1d0", "0-sided"), ("1d6+1d0", "0-sided"),
    ("-" * 400 + "1", "nested too deeply"), ("*".join(["9" * 30 + ".9"] * 14), "too large"),
])
def test_bad_input_is_a_short_explanation(expression: str, reason: str) -> None:
    with pytest.raises(RollError) as caught:
        roll(expression, rng=random.Random(1))
    assert isinstance(caught.value, GameError)
    assert reason in caught.value.reason and "\n" not in caught.value.reason
    assert str(caught.value) == f"{caught.value.reason}\n{EXAMPLES}" and len(str(caught.value)) < 300


def test_odd_but_valid_input() -> None:
    assert roll("1d20 [unclosed", rng=Loaded(7)).comment == "[unclosed"
    assert roll("(" * 200 + "1d6" + ")" * 200, rng=Loaded(4)).total == 4
    assert roll("0d6").total == 0 and roll("1.5*3").total == 4


# ---------------------------------------------------------------- what reaches Discord
def test_a_single_roll_is_its_total_and_one_small_line() -> None:
    text = roll_text(roll("4d6kh3+2 for strength", rng=Loaded(2, 5, 1, 6)))
    assert text == "# 15\n-# *for strength* · 4d6kh3 (2, 5, ~~1~~ dropped, **6**) + 2"
    assert roll_text(roll("1d20+5", rng=Loaded(14))) == "# 19\n-# 1d20 (14) + 5"  # the expression once, not twice
    assert roll_text(roll("2+3")) == "# 5\n-# 2 + 3"
    for expression in ["1d20+5", "2d20kh1+7 to hit", "8d6 fireball", "d%", "1d20[attack]+5 sneak attack"]:
        text = roll_text(roll(expression, rng=random.Random(1)))
        assert len(text.splitlines()) == 2 and len(text) < 100, text  # no title, footer or restated total


def test_comments_are_shown_as_written_not_as_markdown() -> None:
    text = roll_text(roll("1d6 for **everyone** _now_", rng=Loaded(3)))
    assert text.splitlines()[1] == r"-# *for \*\*everyone\*\* \_now\_* · 1d6 (3)"
    # a line separator inside the roller's text would spill the rest of it out of small type
    text = roll_text(roll("1d6 [a\u2028b] x\x1ey", rng=Loaded(3)))
    assert text.splitlines() == ["# 3", "-# *x y* · 1d6 (3) [a b]"]


def test_crit_and_counting_headlines() -> None:
    assert roll_text(roll("1d20+5", rng=Loaded(20))).splitlines()[0] == "# 25 ✨ Natural 20!"
    assert roll_text(roll("2d20kl1+5", rng=Loaded(1, 15))).splitlines()[0] == "# 6 💀 Natural 1!"
    counted = roll_text(roll("3d10", target=8, fail=1, rng=Loaded(9, 10, 1)))
    # the successes stand out, a failure that takes one away is marked, and no sum of faces
    assert counted == ("# 1 success\n-# 3d10 (**9**, **10**, *1*) · "
                       "each die ≥ 8 counts 1, each die ≤ 1 counts −1")


@pytest.mark.parametrize("seed", range(5))
def test_a_repeat_leads_with_each_result_then_the_sum(seed: int) -> None:
    series = roll("4d6kh3", repeat=6, rng=random.Random(seed))
    lines = roll_text(series).splitlines()
    results = [r.total for r in series.rolls]
    assert lines[0] == "# " + ", ".join(map(str, results))  # e.g. "# 15, 12, 14, 10, 13, 8", never the sum
    assert lines[1] == f"-# 4d6kh3, 6 rolls · sum {sum(results)}"  # the sum follows, small
    assert len(lines) == 8
    for line, one in zip(lines[2:], series.rolls):
        assert line == f"-# **{one.total}**: {one.terse}" and "4d6kh3" not in line
        assert line.count(" dropped") == 1 and len(STRUCK.findall(line)) == 1


def test_a_counted_repeat_lists_successes() -> None:
    series = roll("5d10", repeat=3, target=8, rng=Loaded(1, 2, 2, 6, 3, 5, 5, 10, 4, 10, 1, 10, 3, 7, 7))
    lines = roll_text(series).splitlines()
    assert lines[:2] == ["# 0, 2, 1 successes", "-# 5d10, 3 rolls · 3 successes in all · each die ≥ 8 counts 1"]
    assert lines[3] == "-# **2**: (5, 5, **10**, 4, **10**)"


def test_a_huge_roll_is_summarised_but_keeps_its_total() -> None:
    series = roll("1000d6kh900 + 5", rng=random.Random(3))
    text = roll_text(series)
    check_reply(text, series)
    assert len(series.rolls[0].breakdown) > 2000
    assert text.splitlines()[1] == (f"-# 1000d6kh900 + 5 · `1000d6kh900`: 1000 dice, 100 dropped = "
                                    f"{series.total - 5} · too many dice to list each one")


def test_repeated_rolls_shorten_line_by_line() -> None:
    series = roll("50d20", repeat=20, rng=random.Random(3))
    text = roll_text(series)
    check_reply(text, series)
    rows = text.splitlines()[2:]
    assert len(rows) == 20
    for row, one in zip(rows, series.rolls):  # e.g. "-# **563**: `50d20`: 50 dice, 3✨, 3💀 = 563"
        assert row.startswith(f"-# **{one.total}**: `50d20`: 50 dice") and row.endswith(f" = {one.total}"), row
    assert "too many dice to list each one" in text.splitlines()[1]


def test_enormous_numbers_and_texts_stay_within_limits() -> None:
    big = "*".join(["9" * 40] * 12)
    series = roll(big, repeat=20)
    check_reply(roll_text(series), series)
    series = roll(big)
    assert roll_text(series).startswith(f"# {series.total}\n")  # a 480-digit total, whole
    series = roll("1d6 " + "x" * 490)
    text = roll_text(series, note="🤫 Secret roll by **" + "A" * 32 + "** for **" + "B" * 32 + "** in <#1>")
    assert len(text) <= 2000 and text.splitlines()[1] == f"# {series.total}"
    series = roll("+".join(["1d20"] * 60) + "[" + "a" * 99 + "]", rng=random.Random(1))
    check_reply(roll_text(series), series)


# ---------------------------------------------------------------- properties
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SIZES = st.one_of(st.integers(0, 12), st.sampled_from([20, 100, "%", "F", 10_000, 10_001]))
SELECTORS = st.builds(lambda kind, n: f"{kind}{n}", st.sampled_from(["", "h", "l", ">", "<"]), st.integers(0, 25))
OPERATORS = st.builds(lambda op, sel: op + sel, st.sampled_from(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]), SELECTORS)


@st.composite
def dice_term(draw: st.DrawFn) -> str:
    count = draw(st.one_of(st.just(""), st.integers(0, 40).map(str), st.sampled_from(["400", "1000", "1001"])))
    ops = "".join(draw(st.lists(OPERATORS, max_size=3)))
    note = draw(st.one_of(st.just(""), st.just("[fire]")))
    return f"{count}d{draw(SIZES)}{ops}{note}"


def combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binary = st.builds(lambda a, op, b: f"{a} {op} {b}", children,
                       st.sampled_from(["+", "-", "*", "/", "//", "%", "<", ">", "==", ">=", "<=", "!="]), children)
    keep = st.builds(lambda items, ops: f"({', '.join(items)}){ops}", st.lists(children, min_size=1, max_size=4),
                     st.lists(st.builds(lambda op, sel: op + sel, st.sampled_from(["k", "p"]), SELECTORS),
                              max_size=2).map("".join))
    return st.one_of(binary, keep, children.map(lambda c: f"({c})"), children.map(lambda c: f"-{c}"))


EXPRESSIONS = st.recursive(st.one_of(dice_term(), st.integers(0, 99).map(str), st.just("1.5")), combine, max_leaves=8)
COMMENTS = st.one_of(st.just(""), st.text(max_size=40).map(lambda t: " " + t))


def roll_within_limits(expression: str, repeat: int, target: int | None, fail: int | None) -> None:
    try:
        series = roll(expression, repeat=repeat, target=target, fail=fail, rng=random.Random(0))
    except RollError as exc:
        assert len(str(exc)) < 300
        return
    assert series.dice <= MAX_DICE and len(series.rolls) == repeat
    assert all(f.sides in ("%", "F") or f.sides <= MAX_SIDES for r in series.rolls for g in r.groups for f in g.faces)
    check_reply(roll_text(series), series)


@PROPERTY
@given(st.text(max_size=MAX_EXPRESSION + 20), st.integers(1, 20))
def test_any_text_is_rolled_or_refused(text: str, repeat: int) -> None:
    roll_within_limits(text, repeat, None, None)


#: text made of the notation's own characters reaches far deeper into the parser than arbitrary text
NOTATION_TEXT = st.text(alphabet=st.sampled_from(list("0123456789d%khlpreoaim<>=!+-*/(),.[] xF")), max_size=80)


@PROPERTY
@given(NOTATION_TEXT, st.integers(1, 20))
def test_any_text_in_the_notation_alphabet_is_rolled_or_refused(text: str, repeat: int) -> None:
    roll_within_limits(text, repeat, None, None)


@PROPERTY
@given(EXPRESSIONS, COMMENTS, st.integers(1, 20), st.one_of(st.none(), st.integers(-2, 12)),
       st.one_of(st.none(), st.integers(-2, 12)))
def test_valid_looking_expressions_are_rolled_or_refused(expression: str, comment: str, repeat: int,
                                                        target: int | None, fail: int | None) -> None:
    roll_within_limits(expression + comment, repeat, target, fail)
