"""Roll the Bones as pictures: a roll (each player's die, its shape, its face and its owner), and
a player's own dice while they choose an ante or the die to roll.

A d4 is a triangle, a d8 a diamond, a d10 a kite, a d12 a pentagon, a d6 a square, and each
kind has its own colour, so a glance tells a d8 from a d10 before the caption does; the bone die
is ivory with a dark ring and says "bone" under it. The highest face wears a gold ring (every
tied face, after a tie). The table says the same in one line of words.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.pictures import (
    BACKGROUND,
    CAPTION,
    DIE,
    DIM,
    GAP,
    INK,
    DieFace,
    Picture,
    draw_die,
    fit_text,
    font,
    png,
)

#: the fill of each ordinary die, light enough for dark numbers on Discord's dark theme
FILLS: dict[int, tuple[int, int, int]] = {
    4: (244, 160, 150),
    6: (226, 230, 238),
    8: (160, 214, 172),
    10: (170, 200, 244),
}
OTHER = (210, 210, 214)
BONE_FILL = (246, 238, 214)
BONE_INK = (86, 52, 24)
BONE_RING = (86, 52, 24)
TOP_RING = (250, 190, 40)
#: a name above each die: this much room, and a size that six dice across (818 px) still show
#: 13.7 px tall on a phone (the kind under the die too: "bone d12" fits its cell with room)
NAME = 38
NAME_FONT = 28
PER_ROW = 6


@dataclass(frozen=True)
class Thrown:
    """One die as drawn: everything the picture depends on, so a tuple of these is its key."""

    name: str
    sides: int
    face: int
    bone: bool
    top: bool


def shape(sides: int) -> str:
    return f"d{sides}" if sides in (4, 8, 10, 12, 20) else "square"


def face_of(die: Thrown) -> DieFace:
    if die.bone:
        return DieFace(str(die.face), fill=BONE_FILL, ink=BONE_INK, shape=shape(die.sides),
                       ring=TOP_RING if die.top else BONE_RING)
    return DieFace(str(die.face), fill=FILLS.get(die.sides, OTHER), shape=shape(die.sides),
                   ring=TOP_RING if die.top else None)


def draw_roll(dice: tuple[Thrown, ...]) -> bytes:
    """Up to six dice a row: name above, die with its face, kind below (gold for the top)."""
    rows = max(1, -(-len(dice) // PER_ROW))
    across = min(max(1, len(dice)), PER_ROW)
    cell_w = DIE + GAP
    cell_h = NAME + DIE + CAPTION
    image = Image.new("RGBA", (across * cell_w + GAP, rows * (cell_h + GAP) + GAP), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for index, die in enumerate(dice):
        row, col = divmod(index, PER_ROW)
        x = GAP + col * cell_w
        y = GAP + row * (cell_h + GAP)
        centre = x + DIE / 2
        draw.text((centre, y + NAME - 8), fit_text(die.name, cell_w - 4, NAME_FONT), font=font(NAME_FONT),
                  fill=INK if die.top else DIM, anchor="ms")
        draw_die(draw, face_of(die), x, y + NAME, DIE)
        caption = f"bone d{die.sides}" if die.bone else f"d{die.sides}"
        draw.text((centre, y + NAME + DIE + 2), fit_text(caption, cell_w - 4, NAME_FONT), font=font(NAME_FONT),
                  fill=TOP_RING if die.top else INK, anchor="ma")
    return png(image)


def roll_picture(dice: tuple[Thrown, ...], words: str, caption: str = "") -> Picture:
    return Picture(key=("rtb-roll", dice), draw=lambda: draw_roll(dice), filename="roll.png",
                   description=words, caption=caption)


@dataclass(frozen=True)
class Kind:
    """One kind of die a player holds, as their own picture draws it."""

    sides: int
    count: int
    bone: bool
    #: how many of them are in the ante being built
    in_ante: int = 0
    #: greyed: a die this player may not roll now (an uncalled bone die, at the pick)
    idle: bool = False


def kind_face(kind: Kind) -> DieFace:
    """The die's shape and colour as in a roll, blank: the kind is written on it afterwards,
    smaller than a face's number, so that a kind never reads as a roll."""
    fill, ink = (BONE_FILL, BONE_INK) if kind.bone else (FILLS.get(kind.sides, OTHER), (30, 30, 30))
    return DieFace("", fill=fill, ink=ink, shape=shape(kind.sides),
                   ring=TOP_RING if kind.in_ante else (BONE_RING if kind.bone else None), dim=kind.idle,
                   badge=str(kind.in_ante) if kind.in_ante else "")


#: the kind written on a die of your own: small enough for "d10" inside a d4's triangle
KIND_FONT = 40


def draw_hand(kinds: tuple[Kind, ...]) -> bytes:
    """One die per kind: its shape with its kind on it, how many under it ("x3")."""
    across = max(1, len(kinds))
    image = Image.new("RGBA", (across * (DIE + GAP) + GAP, DIE + CAPTION + 2 * GAP), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for index, kind in enumerate(kinds):
        x, y = GAP + index * (DIE + GAP), GAP
        face = kind_face(kind)
        draw_die(draw, face, x, y, DIE)
        low = DIE * 0.12 if kind.sides == 4 else 0  # a triangle's room is low down
        ink = (40, 40, 44) if kind.idle else face.ink
        draw.text((x + DIE / 2, y + DIE / 2 + low), f"d{kind.sides}", font=font(KIND_FONT), fill=ink, anchor="mm")
        draw.text((x + DIE / 2, y + DIE + 4), fit_text(f"x{kind.count}", DIE + GAP - 4, NAME_FONT),
                  font=font(NAME_FONT), fill=DIM if kind.idle else INK, anchor="ma")
    return png(image)


def hand_picture(kinds: tuple[Kind, ...], words: str) -> Picture:
    """A player's dice, one die per kind (its shape and colour as in a roll) with its kind on it
    and how many they hold under it; a kind in their ante ringed in gold, with how many of it
    are in the ante on its badge; a die they may not roll now greyed."""
    return Picture(key=("rtb-hand", kinds), draw=lambda: draw_hand(kinds), filename="your-dice.png",
                   description=words)
