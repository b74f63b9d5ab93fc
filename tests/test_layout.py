"""The layout helpers every table is built with: rows of controls as Discord takes them, and a
message measured as Discord counts it."""

from __future__ import annotations

import random

import discord

from bot import layout
from bot.layout import BUTTON, ROW, SELECT, SELECTS, TEXT, Component


def _control(rng: random.Random, n: int) -> Component:
    if rng.random() < 0.2:
        return {"type": rng.choice(sorted(SELECTS)), "custom_id": f"s{n}"}
    return layout.button(f"b{n}", f"Button {n}", discord.ButtonStyle.secondary)


def test_controls_go_in_order_in_as_few_rows_as_discord_allows() -> None:
    rng = random.Random(5)
    for _ in range(500):
        per_row = rng.randint(1, 5)
        controls = [_control(rng, n) for n in range(rng.randint(0, 14))]
        out = layout.rows(controls, per_row)
        assert all(row["type"] == ROW for row in out)
        assert [c for row in out for c in row["components"]] == controls
        for at, row in enumerate(out):
            inside, following = row["components"], out[at + 1] if at + 1 < len(out) else None
            assert 1 <= len(inside) <= per_row
            assert not any(c["type"] in SELECTS for c in inside) or len(inside) == 1  # a select alone
            if following is not None:  # a new row only when this one could take no more
                first = following["components"][0]
                assert len(inside) == per_row or inside[0]["type"] in SELECTS or first["type"] in SELECTS


def test_a_message_is_measured_as_discord_counts_it() -> None:
    section = {"type": layout.SECTION, "components": [layout.text("left of the button")],
               "accessory": layout.button("x", "Go", discord.ButtonStyle.primary)}
    menu = {"type": SELECT, "custom_id": "pick"}
    message = [{"type": layout.CONTAINER, "components": [
        layout.text("héllo"), section, *layout.rows([layout.button("a", "A", discord.ButtonStyle.primary), menu]),
    ]}]
    # container, text, section + its text + its button, row + button, row + menu
    assert layout.size(message) == (9, len("héllo") + len("left of the button"))
    assert layout.size([]) == (0, 0)
    walked = list(layout.walk(message))
    assert layout.size(message) == (len(walked), sum(len(c["content"]) for c in walked if c["type"] == TEXT))
    assert sum(c["type"] == BUTTON for c in walked) == 2
