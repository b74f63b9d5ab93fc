"""Discord's layout messages (components v2), built from a game's parts.

A layout message has no ``content`` or ``embeds``: its words are text displays, its picture a
media gallery, its buttons action rows or a section's accessory. Discord refuses more than 40
components or 4,000 characters of text in one message, so every builder here counts both and
cuts the game's blocks, never the controls, to fit.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import ui

from bot.games import Part
from bot.pictures import Picture
from bot.render import clip

#: Discord's limits for one layout message
MAX_COMPONENTS = 40
MAX_TEXT = 4000


def frozen(view: ui.LayoutView) -> ui.LayoutView:
    """A finished layout, ready to be sent and then dropped.

    Clicks are routed by the registered dynamic items: stopping the view keeps discord.py from
    holding a copy of every message's view for the life of the process. And every discord.ui
    item points back at its parent and its view, which point at it: cycles that only the
    garbage collector frees, fifty-odd objects a click, in pauses of 10 to 20 ms that land in the
    middle of whichever clicks are in flight. Nothing here is dispatched through those links,
    and sending reads only downwards, so they are cut: a message's objects go the moment it is
    sent, with no collector. Call it again after adding to a frozen view."""
    view.stop()
    for item in items(view):
        for linked in (item, getattr(item, "item", None)):  # a dynamic item wraps its button
            if isinstance(linked, ui.Item):
                linked._parent = None
                linked._view = None
    return view


def text_message(text: str) -> ui.LayoutView:
    """A message of one line of text (a table turned history, a superseded copy)."""
    view = ui.LayoutView(timeout=None)
    view.add_item(ui.TextDisplay(clip(text, MAX_TEXT)))
    return frozen(view)


def gallery(picture: Picture) -> ui.MediaGallery:
    return ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{picture.filename}",
                                                    description=picture.description[:1024] or None))


def block(part: Part, accessory: ui.Item | None = None) -> ui.Item:
    """One part: a text display, or a section when a button or a thumbnail sits beside it."""
    if accessory is None and part.thumbnail is not None:
        accessory = ui.Thumbnail(f"attachment://{part.thumbnail.filename}",
                                 description=part.thumbnail.description[:1024] or None)
    if accessory is None:
        return ui.TextDisplay(part.text)
    return ui.Section(ui.TextDisplay(part.text), accessory=accessory)


def _is_select(item: ui.Item) -> bool:
    return isinstance(getattr(item, "item", item), ui.Select)


def rows(items: Sequence[ui.Item], per_row: int = 5) -> list[ui.ActionRow]:
    """Buttons in rows of ``per_row``; a select alone in its row, as Discord requires."""
    out: list[ui.ActionRow] = []
    for item in items:
        if not out or _is_select(item) or len(out[-1].children) >= per_row or any(
                _is_select(c) for c in out[-1].children):
            out.append(ui.ActionRow())
        out[-1].add_item(item)
    return out


def size(items: Sequence[ui.Item]) -> tuple[int, int]:
    """Components and characters of text, as Discord counts them."""
    count = chars = 0
    for item in items:
        count += 1
        if isinstance(item, ui.TextDisplay):
            chars += len(item.content)
        children = list(getattr(item, "children", []) or [])
        accessory = getattr(item, "accessory", None)
        if accessory is not None:
            children.append(accessory)
        c, t = size(children)
        count, chars = count + c, chars + t
    return count, chars


def fit(top: list[ui.Item], middle: list[ui.Item], bottom: list[ui.Item]) -> list[ui.Item]:
    """``top`` and ``bottom`` kept whole; ``middle`` (the game's blocks) cut from its end until
    the message fits Discord's limits, with a last line saying Details has the rest."""
    count, chars = size(top + bottom)
    kept: list[ui.Item] = []
    for item in middle:
        c, t = size([item])
        # one container wraps everything, and one line may be needed to say what was cut
        if count + c + 2 > MAX_COMPONENTS or chars + t + 60 > MAX_TEXT:
            kept.append(ui.TextDisplay("-# More in **Details**."))
            break
        kept.append(item)
        count, chars = count + c, chars + t
    return top + kept + bottom


def container(items: list[ui.Item], colour: discord.Colour | int | None) -> ui.LayoutView:
    view = ui.LayoutView(timeout=None)
    box: ui.Container[ui.LayoutView] = ui.Container(accent_colour=colour)
    for item in items:
        box.add_item(item)
    view.add_item(box)
    return frozen(view)


def items(view: ui.LayoutView) -> list[ui.Item]:
    """Every component of a layout message, depth first, a section's accessory after its text."""
    out: list[ui.Item] = []
    # a stack, not a nested recursive function: such a function is a cycle of its own
    pending: list[ui.Item] = list(reversed(view.children))
    while pending:
        item = pending.pop()
        out.append(item)
        below = list(getattr(item, "children", []) or [])
        accessory = getattr(item, "accessory", None)
        if accessory is not None:
            below.append(accessory)
        pending.extend(reversed(below))
    return out


def texts(view: ui.LayoutView) -> str:
    """Every word a layout message shows, in order (for a digest or a test)."""
    return "\n".join(item.content for item in items(view) if isinstance(item, ui.TextDisplay))
