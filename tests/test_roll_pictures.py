"""The dice tools' pictures and luck: a small roll's dice with the dropped ones told apart, no
picture past 12 dice, a d20 chart readable on a phone, and luck called out only past chance."""

from __future__ import annotations

import random

from bot.pictures import DIE, GAP, DieFace, dice_strip
from bot.store import Luck
from cogs.dice import pictures
from cogs.dice.luck import average, luck_text, sizes, tally
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
    assert [(f.text, f.shape, f.struck, f.dim, f.caption) for f in faces] == [
        ("20", "d20", False, False, "d20"), ("7", "d20", True, True, "d20"), ("3", "d4", False, False, "d4")]
    assert faces[0].ring == pictures.GOLD and faces[1].ring is None  # a natural 20 that counts
    assert image.width == 6 * DIE + 7 * GAP  # three dice drawn the size six are: as big as on a table
    faces.clear()
    dice_picture(dice_of(roll("2d6", rng=Loaded(3, 4)))).draw()
    assert [f.caption for f in faces] == ["", ""]  # one size: the text names it
    assert picture.description == "d20: 20; d20: 7, does not count; d4: 3"
    # the same dice are the same picture, whatever else differs
    assert dice_picture(dice_of(roll("1d20+1d4 adv again", rng=Loaded(20, 7, 3)))).key == picture.key


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


def test_luck_against_chance() -> None:
    assert tally(5, 100, 1 / 20).verdict == ""  # exactly what chance expects
    assert tally(9, 100, 1 / 20).verdict == ""  # within two standard deviations (5 ± 4.4)
    assert tally(10, 100, 1 / 20).verdict == "more than chance usually gives"
    assert tally(0, 200, 1 / 20).verdict == "fewer than chance usually gives"
    luck = Luck(rolls=3, faces={6: {1: 1, 6: 1}, 20: {20: 2}, 7: {7: 1}, 4: {2: 2}})
    assert sizes(luck) == [4, 6, 20, 7] and average(luck, 6) == 3.5 and average(luck, 100) == 0.0
    text = luck_text(luck, "Ann's", "in this server", hidden=False)
    assert text.splitlines() == [
        "### 🎲 Ann's luck in this server",
        "**3** rolls · **7** dice of up to 100 sides",
        "**2** d20s rolled",
        "Natural 20s: **2** (expected: 0.1): more than chance usually gives",
        "Natural 1s: **0** (expected: 0.1)",
        "Average per die (expected in brackets): d4 **2.00** (2.5) · d6 **3.50** (3.5) · d20 **20.00** (10.5)"
        " · d7 **7.00** (4)",
        "-# Only rolls shown to everyone count, and every die rolled in them, dropped and rerolled ones too.",
    ]
    one = luck_text(Luck(rolls=1, faces={20: {20: 1}}), "Your", "here", hidden=True).splitlines()
    assert one[1:3] == ["**1** roll · **1** die of up to 100 sides", "**1** d20 rolled"]
    assert luck_text(Luck(), "Your", "here", hidden=True).splitlines() == ["### 🎲 Your luck here",
                                                                           "No rolls kept here yet."]
