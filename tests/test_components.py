"""A control as a table sends it (``component``) and the item its click is routed to are two
faces of one persistent item: the id one builds, the other reads back, whatever it carries."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot import components as c
from bot import layout
from bot.games import Part

OPTIONS = [discord.SelectOption(label="One", value="0"), discord.SelectOption(label="Two", value="1")]
PRIMARY = discord.ButtonStyle.primary

#: (the control as sent, the item's class, the fields its click must carry)
CASES: list[tuple[dict[str, Any], type[discord.ui.DynamicItem[Any]], dict[str, Any]]] = [
    (c.LobbyButton.component(7, "join"), c.LobbyButton, {"game_id": 7, "op": "join"}),
    (c.ActionButton.component(7, 2, "ab12.3", 4, "Keep die 3 (2)", PRIMARY), c.ActionButton,
     {"game_id": 7, "seat": 2, "stamp": "ab12.3", "index": 4}),
    (c.ActionButton.component(7, None, "ab12.3", 0, "Roll", PRIMARY), c.ActionButton,
     {"game_id": 7, "seat": None, "stamp": "ab12.3", "index": 0}),
    (c.OpenButton.component(7, "ab12.3", 1, "I'm ready", PRIMARY), c.OpenButton,
     {"game_id": 7, "stamp": "ab12.3", "index": 1}),
    (c.ActionSelect.component(7, 1, "ab12.3", OPTIONS, page=2), c.ActionSelect,
     {"game_id": 7, "seat": 1, "stamp": "ab12.3"}),
    (c.OpenSelect.component(7, "ab12.3", OPTIONS, menu=3), c.OpenSelect, {"game_id": 7, "stamp": "ab12.3"}),
    (c.HandButton.component(7), c.HandButton, {"game_id": 7}),
    (c.DetailsButton.component(7), c.DetailsButton, {"game_id": 7}),
    (c.HowToButton.component(7), c.HowToButton, {"game_id": 7}),
    (c.RematchButton.component(7), c.RematchButton, {"game_id": 7}),
    (c.PageSelect.component(7, "details", ["Sheet", "Legend"], 1), c.PageSelect, {"game_id": 7, "book": "details"}),
]


@pytest.mark.parametrize(("sent", "kind", "fields"), CASES, ids=[case[1].__name__ for case in CASES])
async def test_a_control_routes_back_to_its_own_item(sent: dict[str, Any], kind: type[Any],
                                                     fields: dict[str, Any]) -> None:
    claimed = [k for k in c.ALL_ITEMS if k.__discord_ui_compiled_template__.fullmatch(sent["custom_id"])]
    assert claimed == [kind], f"{sent['custom_id']} is claimed by {claimed}"
    match = kind.__discord_ui_compiled_template__.fullmatch(sent["custom_id"])
    item = await kind.from_custom_id(None, discord.ui.Button(custom_id=sent["custom_id"]), match)  # type: ignore[arg-type]
    assert {name: getattr(item, name) for name in fields} == fields
    assert layout.carries([sent], sent["custom_id"]), "the click on it is taken as one it carries"
    assert len(sent["custom_id"]) <= 100


def test_a_click_counts_only_if_its_message_carries_the_control() -> None:
    """Wherever a layout puts it: in a row, beside a section, deep in a container."""
    beside = c.HandButton.component(7)
    in_row = c.ActionButton.component(7, 0, "ab12.3", 1, "Roll", PRIMARY)
    section = layout.block(Part("Your hand"), accessory=beside)
    message = layout.container([layout.text("Table"), section, *layout.rows([in_row])], None).to_components()
    assert layout.carries(message, beside["custom_id"]) and layout.carries(message, in_row["custom_id"])
    assert not layout.carries(message, c.ActionButton.id_of(7, 0, "ab12.3", 2)), "a forged or cut id"
    assert not layout.carries(message, "") and not layout.carries(message, None) and not layout.carries([], in_row["custom_id"])


def test_controls_say_what_they_do() -> None:
    """What a player sees of each: a label or its options."""
    button = c.ActionButton.component(7, 0, "s", 0, "x" * 90, PRIMARY)
    assert button["label"] == "x" * 80 and button["style"] == PRIMARY.value, "Discord's 80 characters"
    assert [o["label"] for o in c.PageSelect.component(7, "rules", ["A", "B"], 1)["options"]] == ["A", "B"]
    assert c.DetailsButton.component(7)["emoji"]["name"] == "📋"
