"""The dice of a Bare Bones turn as a picture: one die per rolled die, in its own colour.

The seven colours matter for play (White pays coins, Can't Touch This blocks a number on any
colour), so each die is filled with its colour, captioned with its name, and a blocked die is
struck through.
"""

from __future__ import annotations

from bot.pictures import DieFace, Picture, dice_strip
from rules import bare_bones as bb

#: fill and ink per die colour; the ink keeps the number readable on dark dice
COLOUR_RGB: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "blue": ((52, 112, 214), (255, 255, 255)),
    "red": ((206, 52, 52), (255, 255, 255)),
    "green": ((46, 150, 72), (255, 255, 255)),
    "white": ((244, 242, 234), (30, 30, 30)),
    "yellow": ((240, 198, 40), (30, 30, 30)),
    "purple": ((124, 62, 168), (255, 255, 255)),
    "black": ((28, 28, 30), (255, 255, 255)),
}

DieKey = tuple[str, int, bool]


def die_key(die: bb.DieView) -> DieKey:
    return (die.colour, die.value, die.blocked)


def _face(key: DieKey) -> DieFace:
    colour, value, blocked = key
    fill, ink = COLOUR_RGB.get(colour, ((200, 200, 200), (30, 30, 30)))
    caption = "blocked" if blocked else "coins" if colour == "white" else colour
    # a blocked die is faded as well as struck: the cross alone vanishes on a Red die
    return DieFace(str(value), fill=fill, ink=ink, caption=caption, struck=blocked, dim=blocked)


def draw_dice(keys: tuple[DieKey, ...]) -> bytes:
    """At most 6 dice are ever rolled, so one row always holds them."""
    return dice_strip([_face(k) for k in keys], per_row=6)


def dice_picture(view: bb.BareBonesView, words: str) -> Picture | None:
    if view.turn is None or not view.turn.dice:
        return None
    keys = tuple(die_key(d) for d in view.turn.dice)
    return Picture(key=("bb", keys), draw=lambda: draw_dice(keys), filename="dice.png", description=words)
