"""The fake Discord refuses the layout messages real Discord refuses, so a table that would fail
in a real channel fails in the tests first."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakediscord.validate import FLAG_COMPONENTS_V2, FormError, check_message


def _layout(*children: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"flags": FLAG_COMPONENTS_V2, "components": [{"type": 17, "components": list(children)}],
            "content": "", "embeds": [], "attachments": [], **extra}


def _text(words: str) -> dict[str, Any]:
    return {"type": 10, "content": words}


def _refused(message: dict[str, Any]) -> str:
    with pytest.raises(FormError) as caught:
        check_message(message)
    return "; ".join(caught.value.problems)


def test_a_layout_message_that_discord_takes_passes() -> None:
    picture = {"type": 12, "items": [{"media": {"url": "attachment://dice.png"}}]}
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "bn:x"}]}
    check_message(_layout(_text("Ann: your move"), picture, row,
                          attachments=[{"id": "1", "filename": "dice.png"}]))


def test_content_or_embeds_beside_a_layout_are_refused() -> None:
    assert "cannot be used" in _refused(_layout(_text("hi"), content="hello"))
    assert "cannot be used" in _refused(_layout(_text("hi"), embeds=[{"title": "x"}]))


def test_more_than_40_components_are_refused() -> None:
    assert "at most 40 components" in _refused(_layout(*[_text(f"line {n}") for n in range(40)]))
    check_message(_layout(*[_text(f"line {n}") for n in range(39)]))  # 39 and their container: 40


def test_more_than_4000_characters_of_text_are_refused() -> None:
    assert "4000 characters" in _refused(_layout(_text("x" * 2000), _text("y" * 2001)))


def test_an_attachment_no_component_shows_is_refused() -> None:
    problem = _refused(_layout(_text("hi"), attachments=[{"id": "1", "filename": "dice.png"}]))
    assert "'dice.png' is shown by no component" in problem
    beside = {"type": 9, "components": [_text("Ann")],
              "accessory": {"type": 11, "media": {"url": "attachment://dice.png"}}}
    check_message(_layout(beside, attachments=[{"id": "1", "filename": "dice.png"}]))
