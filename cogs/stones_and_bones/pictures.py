"""The Bones and the Stone as a picture: four d20s in their coin tier's colour, then the Stones.

A player reads the bet from the colours before the numbers: copper, silver and gold Bones are
drawn in those metals, a matching group (Ill Omens) is ringed, a 20 (Bane) carries a ×2 badge,
and a Crossbones rings every Bone in green. The Stones stand apart, round and slate grey: green
ring for a Float, gold for Captain's Luck; a Stone still to be thrown is a faded "?", and a Sunk
Stone lying on the table for the next roller to Pilfer is faded with its value.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.pictures import BACKGROUND, CAPTION, DIE, GAP, DieFace, Picture, draw_caption, draw_die, png
from rules.stones_and_bones.view import TurnView
from rules.stones_and_bones.reading import BonesReading

TIER_FILL = {"copper": (196, 122, 66), "silver": (200, 205, 214), "gold": (242, 196, 48)}
TIER_INK = {"copper": (28, 16, 8), "silver": (24, 26, 30), "gold": (40, 28, 0)}
STONE_FILL = (92, 104, 120)
STONE_INK = (246, 246, 246)
OMEN = (170, 98, 230)
WIN = (87, 242, 135)
LUCK = (250, 200, 40)
TRAY = (35, 36, 40, 255)
#: the space between the Bones and the Stones, so the two read as two things
SPLIT = 34


@dataclass(frozen=True)
class Throw:
    """Everything the picture shows, hashable, so the host draws each distinct throw once."""

    bones: tuple[DieFace, ...]
    stones: tuple[DieFace, ...]


def bone_faces(reading: BonesReading) -> tuple[DieFace, ...]:
    crossbones = reading.crossbones is not None
    return tuple(
        DieFace(str(bone.face), fill=TIER_FILL[bone.tier], ink=TIER_INK[bone.tier], shape="d20",
                caption=bone.tier, badge="x2" if bone.bane else "",
                ring=WIN if crossbones else OMEN if bone.omen else None)
        for bone in reading.bones
    )


def stone_faces(turn: TurnView, table_stone: int | None) -> tuple[DieFace, ...]:
    """The Stones thrown this turn; before the throw, the Stones still to come (none for a
    Cursed roller, after Flying the Black, or on the Plank); and a Stone lying on the table."""
    shown: list[DieFace] = []
    if turn.stones:
        for stone in turn.stones:
            ring = WIN if stone.floats else LUCK if stone.luck else None
            caption = "Pilfered" if stone.pilfered else "Float" if stone.floats else "Luck" if stone.luck else "Sink"
            shown.append(DieFace(str(stone.value), fill=STONE_FILL, ink=STONE_INK, shape="round",
                                 caption=caption, ring=ring))
    elif turn.result == "pending" and not turn.cursed and turn.flown is None and turn.plank is None:
        reading = turn.bones
        if reading is not None and reading.crossbones is None:
            for _ in range(reading.stones):
                shown.append(DieFace("?", fill=STONE_FILL, ink=STONE_INK, shape="round", caption="Stone",
                                     dim=True))
    if table_stone is not None and turn.result == "pending":
        shown.append(DieFace(str(table_stone), fill=STONE_FILL, ink=STONE_INK, shape="round",
                             caption="on table", dim=True))
    return tuple(shown)


def draw_throw(throw: Throw) -> bytes:
    """One row: the four Bones, a gap, the Stones. Pure: depends on ``throw`` alone."""
    cells = len(throw.bones) + len(throw.stones)
    split = SPLIT if throw.stones else 0
    width = cells * DIE + (cells + 1) * GAP + split
    height = DIE + CAPTION + 2 * GAP
    image = Image.new("RGBA", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    # a dark tray under the dice, so the light captions read on Discord's light theme too
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=18, fill=TRAY)
    x = GAP
    for index, die in enumerate(throw.bones + throw.stones):
        if index == len(throw.bones):
            x += split
        draw_die(draw, die, x, GAP, DIE)
        draw_caption(draw, die, x + DIE / 2, GAP + DIE + 4)
        x += DIE + GAP
    # a few flat colours: 64 of them keep every edge and halve the bytes (about 7 kB)
    return png(image.quantize(colors=64, method=Image.Quantize.FASTOCTREE))


def throw_picture(turn: TurnView, table_stone: int | None, words: str) -> Picture | None:
    """The deciding Bones of ``turn`` (the Plank's, Fly the Black's or the first throw) and its
    Stones; None when no Bones were thrown."""
    reading = turn.plank or turn.flown or turn.bones
    if reading is None:
        return None
    throw = Throw(bone_faces(reading), stone_faces(turn, table_stone))
    return Picture(key=("sb", throw), draw=lambda: draw_throw(throw), filename="bones.png", description=words)
