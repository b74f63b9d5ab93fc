"""Discord's layout messages (components v2), built from a game's parts as the JSON Discord reads.

A layout message has no ``content`` or ``embeds``: its words are text displays, its picture a
media gallery, its buttons action rows or a section's accessory. Discord refuses more than 40
components or 4,000 characters of text in one message, so every builder here counts both and
cuts the game's blocks, never the controls, to fit.

A table is built on every click, and building it from discord.ui objects (an item per
component, each with its parent and view, its own component model, a view with its own id and
future) cost more than working out what the table says: here each component is the dict
Discord reads, built once and sent as it is; the controls' ids come from the persistent items
that route their clicks (bot/components.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import discord
from discord import ui

from bot.games import Part
from bot.pictures import Picture
from bot.render import clip

#: Discord's limits for one layout message
MAX_COMPONENTS = 40
MAX_TEXT = 4000

#: one component of a layout message, as Discord's API reads it
Component = dict[str, Any]

TEXT, SECTION, THUMBNAIL, GALLERY, FILE, ROW, BUTTON, SELECT, CONTAINER = 10, 9, 11, 12, 13, 1, 2, 3, 17


class Built(ui.LayoutView):
    """A finished layout message, handed to discord.py's send and edit calls as a view. It
    holds no items, so nothing in it is dispatched, stored or linked back to it: its
    components go out as they are, and the message's objects go with it, with no collector."""

    #: what discord.py reads (and sets, for an ephemeral message) of a view it sends; a class
    #: value, as a view of no items needs no timer
    timeout: float | None = None

    def __init__(self, components: list[Component]) -> None:
        # Not discord.py's own init: it draws a random id, makes a future and walks the items
        # of a view that has none, on every click; sending reads only the methods below.
        self.components = components

    def __repr__(self) -> str:
        return f"<Built components={len(self.components)}>"

    def to_components(self) -> list[Component]:
        return self.components

    def has_components_v2(self) -> bool:
        return True

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def text(content: str) -> Component:
    return {"type": TEXT, "content": content}


def button(custom_id: str, label: str, style: discord.ButtonStyle, emoji: str | None = None) -> Component:
    out: Component = {"type": BUTTON, "style": style.value, "disabled": False, "custom_id": custom_id}
    if label:
        out["label"] = label
    if emoji:
        out["emoji"] = {"name": emoji, "id": None}
    return out


def select(custom_id: str, options: Sequence[discord.SelectOption], placeholder: str) -> Component:
    out: Component = {"type": SELECT, "custom_id": custom_id, "min_values": 1, "max_values": 1, "disabled": False,
                      "required": True, "options": [o.to_dict() for o in options]}
    if placeholder:
        out["placeholder"] = placeholder
    return out


def text_message(content: str) -> Built:
    """A message of one line of text (a table turned history, a superseded copy)."""
    return Built([text(clip(content, MAX_TEXT))])


def gallery(picture: Picture) -> Component:
    item: Component = {"media": {"url": f"attachment://{picture.filename}"}, "spoiler": False}
    if picture.description[:1024]:
        item["description"] = picture.description[:1024]
    return {"type": GALLERY, "items": [item]}


def file(filename: str) -> Component:
    return {"type": FILE, "file": {"url": f"attachment://{filename}"}, "spoiler": False}


def block(part: Part, accessory: Component | None = None) -> Component:
    """One part: a text display, or a section when a button or a thumbnail sits beside it."""
    if accessory is None and part.thumbnail is not None:
        accessory = {"type": THUMBNAIL, "spoiler": False, "media": {"url": f"attachment://{part.thumbnail.filename}"},
                     "description": part.thumbnail.description[:1024] or None}
    if accessory is None:
        return text(part.text)
    return {"type": SECTION, "components": [text(part.text)], "accessory": accessory}


#: the menus: of strings, users, roles, mentionables, channels
SELECTS = {SELECT, 5, 6, 7, 8}


def _is_select(control: Component) -> bool:
    return control["type"] in SELECTS


def rows(controls: Sequence[Component], per_row: int = 5) -> list[Component]:
    """Buttons in rows of ``per_row``; a select alone in its row, as Discord requires."""
    out: list[Component] = []
    last: list[Component] = []
    closed = True  # no row yet, or the last one holds a select
    for control in controls:
        select = _is_select(control)
        if closed or select or len(last) >= per_row:
            last = [control]
            out.append({"type": ROW, "components": last})
            closed = select
        else:
            last.append(control)
    return out


def size(components: Sequence[Component]) -> tuple[int, int]:
    """Components and characters of text, as Discord counts them (in no order: a table is
    measured three times a click, and a walk in order took a generator's every step)."""
    count = chars = 0
    pending = list(components)
    while pending:
        found = pending.pop()
        count += 1
        if found["type"] == TEXT:
            chars += len(found["content"])
        below = found.get("components")
        if below:
            pending.extend(below)
        if "accessory" in found:
            pending.append(found["accessory"])
    return count, chars


def carries(components: Sequence[Component], custom_id: object) -> bool:
    """Whether a message carries the control, wherever its layout put it (as ``size`` looks,
    from the message's end, where a table keeps its controls): a click is taken only on a
    control its message shows. It stops at the control found."""
    if not isinstance(custom_id, str) or not custom_id:
        return False
    pending = list(components)
    while pending:
        found = pending.pop()
        if found.get("custom_id") == custom_id:
            return True
        below = found.get("components")
        if below:
            pending.extend(below)
        if "accessory" in found:
            pending.append(found["accessory"])
    return False


def fit(top: list[Component], middle: list[Component], bottom: list[Component]) -> list[Component]:
    """``top`` and ``bottom`` kept whole; ``middle`` (the game's blocks) cut from its end until
    the message fits Discord's limits, with a last line saying Details has the rest."""
    count, chars = size(top + bottom)
    kept: list[Component] = []
    for item in middle:
        c, t = size([item])
        # one container wraps everything, and one line may be needed to say what was cut
        if count + c + 2 > MAX_COMPONENTS or chars + t + 60 > MAX_TEXT:
            kept.append(text("-# More in **Details**."))
            break
        kept.append(item)
        count, chars = count + c, chars + t
    return top + kept + bottom


def container(components: list[Component], colour: discord.Colour | int | None) -> Built:
    accent = colour if isinstance(colour, int) or colour is None else colour.value
    return Built([{"type": CONTAINER, "accent_color": accent or None, "spoiler": False, "components": components}])


def walk(components: Sequence[Component]) -> Iterator[Component]:
    """Every component, depth first, a section's accessory after its text."""
    pending = list(reversed(components))
    while pending:
        found = pending.pop()
        yield found
        below = list(found.get("components") or ())
        if "accessory" in found:
            below.append(found["accessory"])
        pending.extend(reversed(below))


def items(view: ui.LayoutView) -> list[Component]:
    """Every component of a layout message, depth first."""
    return list(walk(view.to_components()))


def texts(view: ui.LayoutView) -> str:
    """Every word a layout message shows, in order (for a digest or a test)."""
    return "\n".join(found["content"] for found in items(view) if found["type"] == TEXT)
