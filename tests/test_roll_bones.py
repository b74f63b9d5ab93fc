"""/roll-bones: four Bones forced through the throw, read by the Stones & Bones engine, drawn in an embed."""

from __future__ import annotations

import random
import re

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.errors import Refusal
from cogs.dice.roll_bones import MAX_TIDE, bones_embed, roll_bones
from rules.stones_and_bones.reading import coins, read_bones, throw_of
from tests.test_notation import Loaded


def drawn(faces: tuple[int, ...], tide: int = 1, rule: str = "product") -> tuple[discord.Embed, dict[str, str]]:
    """Throw exactly `faces` through /roll-bones' own throw and draw it; fields by name."""
    reading = roll_bones(tide, rule, rng=Loaded(*faces))
    assert reading.faces == faces
    embed = bones_embed(reading, "Ann")
    within_limits(embed)
    return embed, {f.name: f.value for f in embed.fields}


def within_limits(embed: discord.Embed) -> None:
    data = embed.to_dict()
    assert len(data["title"]) <= 256 and len(data["description"]) <= 4096
    assert len(data["footer"]["text"]) <= 2048 and len(data["fields"]) <= 25
    assert all(len(f["value"]) <= 1024 and len(f["name"]) <= 256 for f in data["fields"])
    assert len(embed) <= 6000


def big(embed: discord.Embed) -> str:
    found = re.search(r"^# (.+)$", embed.description or "", re.M)
    assert found, embed.description
    return found.group(1)


# ---------------------------------------------------------------- the golden cases of RULINGS 5.5
@pytest.mark.parametrize("faces, tiers, total, omens, step", [
    ((2, 2, 4, 12), "6 cp, 1 gp", "1 gp 6 cp", "two 2s on Copper", "Ill Omens on Copper (two 2s ×2): 3 cp × 2 = 6 cp"),
    ((5, 5, 5, 2), "12 cp", "1 sp 2 cp", "three 5s on Copper",
     "Ill Omens on Copper (three 5s ×3): 4 cp × 3 = 12 cp"),
    ((10, 10, 12, 12), "4 sp, 4 gp", "4 gp 4 sp", "two 10s on Silver, two 12s on Gold",
     "Ill Omens on Gold (two 12s ×2): 2 gp × 2 = 4 gp"),
    ((6, 8, 12, 20), "4 sp, 4 gp", "4 gp 4 sp", "none", "Bane (a 20): (2 sp, 2 gp) × 2 = 4 sp, 4 gp"),
    ((20, 2, 4, 2), "12 cp, 2 gp", "2 gp 1 sp 2 cp", "two 2s on Copper",
     "Bane (a 20): (6 cp, 1 gp) × 2 = 12 cp, 2 gp"),
    ((17, 17, 20, 17), "24 gp", "2 pp 4 gp", "three 17s on Gold", "Bane (a 20): (12 gp) × 2 = 24 gp"),
])
def test_golden_bets_at_tide_1(faces: tuple[int, ...], tiers: str, total: str, omens: str, step: str) -> None:
    embed, fields = drawn(faces)
    assert big(embed) == total and f"bet at Tide 1: {tiers}" in embed.description
    assert embed.title == "🦴 The Bones at Tide 1"
    assert fields["Ill Omens"] == omens
    steps = fields["Step by step"].splitlines()
    assert step in steps and steps[-1] == f"× Tide 1 = {tiers} = {total}"
    # the four Bones, in the order thrown, each with its tier
    shown = re.findall(r"\*\*(\d+)\*\* (copper|silver|gold)", embed.description.splitlines()[0])
    assert [int(face) for face, _ in shown] == list(faces)
    assert [tier for _, tier in shown] == ["copper" if f <= 5 else "silver" if f <= 10 else "gold" for f in faces]


def test_a_higher_tide_multiplies_the_whole_bet() -> None:
    embed, fields = drawn((20, 2, 4, 2), tide=3)
    assert embed.title == "🦴 The Bones at Tide 3"
    assert big(embed) == "6 gp 3 sp 6 cp" and "bet at Tide 3: 36 cp, 6 gp" in embed.description
    assert fields["Step by step"].splitlines()[-1] == "× Tide 3 = 36 cp, 6 gp = 6 gp 3 sp 6 cp"
    embed, _ = drawn((17, 17, 20, 17), tide=MAX_TIDE)
    assert big(embed) == "14 pp 4 gp"  # 24 gp × 6


# ---------------------------------------------------------------- Bane, Blessing, Crossbones
def test_bane_doubles_and_is_marked() -> None:
    embed, fields = drawn((6, 8, 12, 20))
    assert fields["Bane"] == "a 20: the whole bet doubles" and "**20** gold (Bane)" in embed.description
    assert fields["Blessing"] == "no 1: one Stone" and "☠️ Crossbones" not in fields
    assert embed.colour == discord.Colour.dark_red()
    _, plain = drawn((6, 8, 12, 19))
    assert plain["Bane"] == "no 20" and big(drawn((6, 8, 12, 19))[0]) == "2 gp 2 sp"


def test_blessing_gives_two_stones() -> None:
    embed, fields = drawn((1, 7, 12, 19))
    assert fields["Blessing"] == "a 1: throw two Stones" and "**1** copper (Blessing)" in embed.description
    assert "Blessing (a 1): two Stones" in fields["Step by step"].splitlines()
    assert fields["Ill Omens"] == "none" and fields["Bane"] == "no 20" and big(embed) == "2 gp 1 sp 1 cp"


@pytest.mark.parametrize("faces, name, also", [
    ((1, 9, 1, 14), "Daggers", None),
    ((20, 3, 20, 8), "Dubloons", None),
    ((9, 7, 10, 8), "Jacob's Ladder", None),
    ((13, 2, 13, 13), "Thirteen Thrice", None),
    ((5, 5, 5, 5), "Rum Runner", None),
    ((13, 13, 13, 13), "Rum Runner", "Thirteen Thrice"),
    ((1, 20, 20, 1), "Daggers", "Dubloons"),
])
def test_crossbones_is_named(faces: tuple[int, ...], name: str, also: str | None) -> None:
    embed, fields = drawn(faces, tide=2)
    assert embed.title == f"🦴 The Bones at Tide 2: ☠️ Crossbones, {name}!"
    assert fields["☠️ Crossbones"].startswith(f"**{name}**: ") and "no Stone is thrown" in fields["☠️ Crossbones"]
    assert ("also show" in fields["☠️ Crossbones"]) == (also is not None)
    if also:
        assert fields["☠️ Crossbones"].endswith(f"the Bones also show {also}")
    assert embed.colour == discord.Colour.gold()
    assert fields["Step by step"].splitlines()[-1] == f"Crossbones: {' and '.join([name] + ([also] if also else []))}"


def test_rum_runner_of_fives_is_also_ill_omens_of_four() -> None:
    embed, fields = drawn((5, 5, 5, 5))
    assert fields["Ill Omens"] == "four 5s on Copper" and big(embed) == "1 sp 6 cp"  # 4 cp × 4


def test_ill_omens_rule_choice() -> None:
    product, fields = drawn((3, 3, 5, 5))
    assert big(product) == "1 sp 6 cp" and product.footer.text == "Ann · Ill Omens: each matching group multiplies"
    largest, fields = drawn((3, 3, 5, 5), rule="max_group")
    assert big(largest) == "8 cp" and largest.footer.text == "Ann · Ill Omens: only the largest group multiplies"
    assert "(largest group only)" in fields["Step by step"]


# ---------------------------------------------------------------- the throw and bad input
def test_the_throw_is_four_fair_d20_from_the_given_random() -> None:
    before = random.getstate()
    first = roll_bones(2, rng=random.Random(11))
    assert random.getstate() == before
    assert roll_bones(2, rng=random.Random(11)) == first and roll_bones(2, rng=random.Random(12)) != first
    rng = random.Random(5)
    seen = [face for _ in range(500) for face in roll_bones(rng=rng).faces]
    assert set(seen) == set(range(1, 21))
    assert all(1 <= face <= 20 for face in roll_bones(MAX_TIDE).faces)  # unseeded: a fresh Random


@pytest.mark.parametrize("tide", [0, -1, MAX_TIDE + 1, 100])
def test_a_tide_out_of_range_is_refused(tide: int) -> None:
    with pytest.raises(Refusal, match=r"The Tide runs from 1 to 6.*`/roll-bones tide:2`"):
        roll_bones(tide, rng=Loaded(1, 2, 3, 4))


def test_an_unknown_ill_omens_rule_is_refused() -> None:
    with pytest.raises(Refusal, match="`product`.*`max_group`"):
        roll_bones(1, "sum")


# ---------------------------------------------------------------- every throw, the engine's numbers
@settings(max_examples=300, deadline=None)
@given(st.tuples(*[st.integers(1, 20)] * 4), st.integers(1, MAX_TIDE), st.sampled_from(["product", "max_group"]))
def test_every_throw_is_the_engines_bet_within_limits(faces: tuple[int, ...], tide: int, rule: str) -> None:
    embed, fields = drawn(faces, tide, rule)
    reading = read_bones(faces, tide, rule)  # type: ignore[arg-type]
    assert reading.bet == throw_of(faces, tide, rule).bet  # type: ignore[arg-type]
    assert big(embed) == coins(reading.bet)
    assert fields["Step by step"] == "\n".join(reading.steps)
    assert ("☠️ Crossbones" in fields) == (reading.crossbones is not None)
