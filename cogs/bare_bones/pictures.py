"""The dice of a Bare Bones turn as a picture: one die per rolled die, in its own colour.

The seven colours matter for play (White pays coins, Can't Touch This blocks a number on any
colour), so each die is filled with its colour, captioned with its name, and a blocked die is
struck through. The picture is always as wide as the most dice a turn rolls, so a die is the
same size on a phone whether one was rolled or six: a lone die is never blown up to a screen.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.pictures import BACKGROUND, CAPTION, DIE, GAP, DieFace, Picture, draw_caption, draw_die, png
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
    caption = "Blocked" if blocked else "Coins" if colour == "white" else colour.capitalize()
    # a blocked die is faded as well as struck: the cross alone vanishes on a Red die
    return DieFace(str(value), fill=fill, ink=ink, caption=caption, struck=blocked, dim=blocked)


def draw_dice(keys: tuple[DieKey, ...]) -> bytes:
    """At most 6 dice are ever rolled, so one row always holds them, centred."""
    across = max(bb.DICE_CAP, len(keys))
    width, height = across * DIE + (across + 1) * GAP, DIE + CAPTION + 2 * GAP
    image = Image.new("RGBA", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left = (width - len(keys) * (DIE + GAP) + GAP) // 2
    for index, key in enumerate(keys):
        face = _face(key)
        x = left + index * (DIE + GAP)
        draw_die(draw, face, x, GAP, DIE)
        draw_caption(draw, face, x + DIE / 2, GAP + DIE + 4)
    return png(image)


def dice_picture(view: bb.BareBonesView, words: str) -> Picture | None:
    if view.turn is None or not view.turn.dice:
        return None
    keys = tuple(die_key(d) for d in view.turn.dice)
    return Picture(key=("bb", keys), draw=lambda: draw_dice(keys), filename="dice.png", description=words)
