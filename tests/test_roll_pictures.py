"""The dice tools' pictures and luck: a small roll's dice with the dropped ones told apart, no
picture past 12 dice, a d20 chart readable on a phone, and luck called out only past chance."""

from __future__ import annotations

import math
import random
import re
from fractions import Fraction
from math import comb

from bot.pictures import DIE, GAP, DieFace, dice_strip
from bot.store import Luck
from cogs.dice import pictures
from cogs.dice.luck import FEW, MANY, _tail, average, luck_text, sizes, tally
from cogs.dice.pictures import d20_chart, dice_of, dice_picture, row_length
from rules.notation import roll
from tests.test_notation import Loaded
from tests.test_picture_sizes import MIN_TEXT_PX, Drawn, decode, drawn, phone_px  # noqa: F401  (a fixture)


def test_kept_and_dropped_dice_are_drawn_apart(monkeypatch) -> None:  # noqa: ANN001
    series = roll("1d20+1d4 adv", rng=Loaded(20, 7, 3))
    dice = dice_of(series)
    assert [(d.sides, d.value, d.kept) for d in dice] == [(20, 20, True), (20, 7, False), (4, 3, True)]
    faces: list[DieFace] = []
    monkeypatch.setattr(pictures, "dice_strip", lambda shown, per_row: faces.extend(shown) or dice_strip(shown))
    picture = dice_picture(dice, row_length(series) or 6)
    image = decode(picture.draw())
    # the die that does not count is greyed and says so, its number left clear of any cross
    assert [(f.text, f.shape, f.struck, f.dim, f.caption) for f in faces] == [
        ("20", "d20", False, False, "d20"), ("7", "d20", False, True, "not kept"), ("3", "d4", False, False, "d4")]
    assert faces[0].ring == pictures.GOLD and faces[1].ring is None  # a natural 20 that counts
    assert image.width == 6 * DIE + 7 * GAP  # three dice drawn the size six are: as big as on a table
    faces.clear()
    dice_picture(dice_of(roll("2d6", rng=Loaded(3, 4)))).draw()
    assert [f.caption for f in faces] == ["", ""]  # one size: the text names it
    faces.clear()
    dice_picture(dice_of(roll("4d6kh3", rng=Loaded(6, 5, 1, 6)))).draw()
    assert [(f.caption, f.dim, f.struck) for f in faces] == [("", False, False)] * 2 + [("not kept", True, False),
                                                                                       ("", False, False)]
    assert picture.description == "d20: 20; d20: 7, does not count; d4: 3"
    # the same dice are the same picture, whatever else differs
    assert dice_picture(dice_of(roll("1d20+1d4 adv again", rng=Loaded(20, 7, 3)))).key == picture.key


def in_words(breakdown: str) -> list[int]:
    """The dice a roll's words list, in their order: the numbers inside its brackets."""
    return [int(n) for inside in re.findall(r"\(([^)]*)\)", breakdown) for n in re.findall(r"\d+", inside)]


def test_the_picture_shows_the_dice_in_the_order_the_words_list_them() -> None:
    # advantage, the d20 that does not count rolled first: the words name the one that counts first
    series = roll("1d20+5 adv to hit", rng=Loaded(16, 18))
    assert series.rolls[0].breakdown.startswith("advantage (18, ~~16~~ dropped)")
    assert [(d.value, d.kept) for d in dice_of(series)] == [(18, True), (16, False)]
    assert [(d.value, d.kept) for d in dice_of(roll("1d20 dis", rng=Loaded(4, 9)))] == [(4, True), (9, False)]
    # written out as 2d20kh1, the words list the dice as rolled, and so does the picture
    assert [(d.value, d.kept) for d in dice_of(roll("2d20kh1+5", rng=Loaded(16, 18)))] == [(16, False), (18, True)]
    rng = random.Random(4)
    for expression, repeat in [("1d20+5 adv", None), ("1d20+5 dis", 3), ("2d20kh1+5", 2), ("1d20+1d4 adv", 2),
                               ("4d6kh3", None), ("2d6ro<3+1d8", None), ("1d20+1d20+2", None)]:
        for _ in range(20):
            series = roll(expression, repeat=repeat, rng=rng)
            words = [n for one in series.rolls for n in in_words(one.terse or one.breakdown)]
            assert [d.value for d in dice_of(series)] == words, (expression, series.rolls[0].breakdown)


def test_only_up_to_twelve_dice_are_drawn() -> None:
    rng = random.Random(1)
    assert row_length(roll("12d6", rng=rng)) == 6
    assert row_length(roll("13d6", rng=rng)) is None
    assert row_length(roll("3d6", repeat=4, rng=rng)) == 3  # a row a roll
    assert row_length(roll("7d6", rng=rng)) == 6
    assert row_length(roll("2d6", repeat=7, rng=rng)) is None
    assert row_length(roll("5+3", rng=rng)) is None  # no dice, no picture
    assert row_length(roll("1d6e6", repeat=2, rng=Loaded(6, 2, 3))) is None  # rows of different lengths


def test_the_pictures_read_at_phone_size(drawn: list[Drawn]) -> None:  # noqa: F811
    for picture in (dice_picture(dice_of(roll("4d6kh3 + 1d100 + 1d10000", rng=random.Random(3)))),
                    d20_chart({face: face * 3 for face in range(1, 21)}), d20_chart({20: 1})):
        drawn.clear()
        image = decode(picture.draw())
        assert drawn and all(phone_px(d.size, image.width) >= MIN_TEXT_PX for d in drawn), picture.filename
    assert d20_chart({7: 2}).description.startswith("2 d20s rolled: 1: 0, 2: 0")


def exact_tail(seen: int, rolled: int, *, up: bool) -> Fraction:
    """The binomial tail in whole fractions: the count's chance reckoned with no rounding at all."""
    p = Fraction(1, 20)
    shown = range(seen, rolled + 1) if up else range(seen + 1)
    return sum((comb(rolled, k) * p**k * (1 - p) ** (rolled - k) for k in shown), Fraction(0))


def test_luck_is_called_only_when_chance_rarely_gives_it() -> None:
    # a few dice never make a verdict: 1 natural 1 in 3 d20s, 1 natural 20 in the first 6, even 2 in 2
    assert [tally(1, rolled, 1 / 20).verdict for rolled in range(1, 7)] == [""] * 6
    assert tally(2, 2, 1 / 20).verdict == tally(0, 3, 1 / 20).verdict == ""
    # nothing is called before 90 d20s, when none at all first becomes rare (0.95^90 < 1 in 100)
    assert not tally(0, 89, 1 / 20).telling and tally(0, 90, 1 / 20).telling
    assert tally(11, 89, 1 / 20).verdict == tally(0, 89, 1 / 20).verdict == ""  # 11 of 89: 1 in 206, yet too few dice
    assert tally(0, 90, 1 / 20).verdict == FEW  # 1 in 101
    assert tally(11, 90, 1 / 20).verdict == MANY and tally(10, 90, 1 / 20).verdict == ""  # 1 in 189; 1 in 69
    assert tally(12, 100, 1 / 20).verdict == MANY and tally(11, 100, 1 / 20).verdict == ""
    assert tally(0, 100, 1 / 20).verdict == FEW and tally(1, 100, 1 / 20).verdict == ""
    assert tally(68, 1000, 1 / 20).verdict == MANY and tally(67, 1000, 1 / 20).verdict == ""  # 1 in 135; 1 in 94
    assert tally(34, 1000, 1 / 20).verdict == FEW and tally(35, 1000, 1 / 20).verdict == ""
    # a truly lopsided lifetime of dice is called, an ordinary one is not
    assert tally(1000, 10_000, 1 / 20).verdict == MANY and tally(500, 10_000, 1 / 20).verdict == ""
    assert tally(0, 100_000, 1 / 20).verdict == FEW and tally(5_000, 100_000, 1 / 20).verdict == ""
    assert tally(5, 100, 1 / 20).expected == 5


def test_the_verdict_is_the_exact_binomial_one() -> None:
    """Every count of a few sizes of sample, against the tails in whole fractions: the float
    reckoning never lands on the wrong side of 1 in 100."""
    for rolled in (90, 91, 137, 200, 400):
        for seen in range(rolled + 1):
            many, few = exact_tail(seen, rolled, up=True), exact_tail(seen, rolled, up=False)
            expected = MANY if many < Fraction(1, 100) else FEW if few < Fraction(1, 100) else ""
            assert tally(seen, rolled, 1 / 20).verdict == expected, (seen, rolled)
            if seen > rolled / 20:
                assert math.isclose(_tail(seen, rolled, 1 / 20, up=True), many, rel_tol=1e-9, abs_tol=1e-300)
            elif seen < rolled / 20:
                assert math.isclose(_tail(seen, rolled, 1 / 20, up=False), few, rel_tol=1e-9, abs_tol=1e-300)


def test_luck_in_words() -> None:
    luck = Luck(rolls=3, faces={6: {1: 1, 6: 1}, 20: {20: 2}, 7: {7: 1}, 4: {2: 2}})
    assert sizes(luck) == [4, 6, 20, 7] and average(luck, 6) == 3.5 and average(luck, 100) == 0.0
    text = luck_text(luck, "Ann's", "in this server", hidden=False)
    assert text.splitlines() == [
        "### 🎲 Ann's luck in this server",
        "**3** rolls · **7** dice of up to 100 sides",
        "**2** d20s rolled",
        "Natural 20s: **2** (expected: 0.1)",  # two in two: too few dice to tell
        "Natural 1s: **0** (expected: 0.1)",
        "Average per die (expected in brackets): d4 **2.00** (2.5) · d6 **3.50** (3.5) · d20 **20.00** (10.5)"
        " · d7 **7.00** (4)",
        "-# Only rolls shown to everyone count, and every die rolled in them, dropped and rerolled ones too.",
    ]
    one = luck_text(Luck(rolls=1, faces={20: {20: 1}}), "Your", "here", hidden=True).splitlines()
    assert one[1:3] == ["**1** roll · **1** die of up to 100 sides", "**1** d20 rolled"]
    assert luck_text(Luck(), "Your", "here", hidden=True).splitlines() == ["### 🎲 Your luck here",
                                                                           "No rolls kept here yet."]
    # a lifetime of dice that rolled far too few 1s: called, and what "unusually" means is said
    lucky = Luck(rolls=500, faces={20: {1: 1, 20: 28, 7: 471}})
    text = luck_text(lucky, "Your", "here", hidden=True).splitlines()
    assert text[3:5] == ["Natural 20s: **28** (expected: 25.0)", "Natural 1s: **1** (expected: 25.0) · unusually few"]
    assert text[-2:] == ["-# Unusually: by chance alone, less than 1 time in 100.",
                         "-# Every die rolled counts, dropped and rerolled ones too."]
    assert "Unusually" not in luck_text(Luck(rolls=500, faces={20: {1: 25, 20: 28, 7: 447}}), "Your", "here",
                                        hidden=True)


def test_fate_dice_are_drawn_as_their_sides_and_are_no_d3_to_luck(monkeypatch) -> None:  # noqa: ANN001
    """A Fate die shows a plus, a blank or a minus, drawn as bold strokes (the font's "-" is a
    thin dash beside its "+"), never a number; and a player's luck is in their numbered dice."""
    from cogs.dice.post import luck_faces

    series = roll("4dF+1d20", rng=Loaded(3, 2, 1, 3, 17))
    faces: list[DieFace] = []
    monkeypatch.setattr(pictures, "dice_strip", lambda shown, per_row: faces.extend(shown) or dice_strip(shown))
    picture = dice_picture(dice_of(series))
    picture.draw()
    assert [(f.text, len(f.strokes), f.shape) for f in faces] == [
        ("", 2, "square"), ("", 0, "square"), ("", 1, "square"), ("", 2, "square"), ("17", 0, "d20")]
    assert picture.description.startswith("dF: plus; dF: blank; dF: minus; dF: plus; d20: 17")
    assert luck_faces(series) == {(20, 17): 1}
