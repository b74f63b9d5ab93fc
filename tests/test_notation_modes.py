"""Words players type after the dice: adv/dis and the mode option roll the leading d20 twice, on
anything else they are refused with the reason; `repeat N` typed in the expression works."""

from __future__ import annotations

import random

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
