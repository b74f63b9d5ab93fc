"""Both grids as one picture, facing each other across the table.

A phone shows an embed's picture at most about 400 px wide and 300 px high, so the grids are
drawn as three lanes across, labelled with the columns' names (left on top): the first player's
dice run left from the middle and the second's right, so a column and its opposite sit on one
line and a knock-out reads at a glance. The middle shows each lane's name and its two scores. The die just placed is ringed; dice it
knocked out stay in the victim's lane, struck through, for this one picture.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.pictures import BACKGROUND, DIM, DieFace, Picture, draw_die, font, png
from rules import bone_duel as bd

DIE = 96
GAP = 10
MIDDLE = 170
BONE = (236, 228, 208)
PLACED = (250, 166, 26)
#: each lane's column, as the rulebook names it from the player's seat
NAMES = ("left", "middle", "right")
#: the two sides' score colours, matching nothing else on the table
SIDE_INK = ((88, 166, 255), (255, 123, 114))

#: (seat, lane) -> (faces, placed row or -1, knocked faces); plus the lane scores
LaneKey = tuple[tuple[int, ...], int, tuple[int, ...]]
Key = tuple[tuple[tuple[LaneKey, ...], ...], tuple[tuple[int, ...], ...]]


def picture_key(view: bd.BoneDuelView) -> Key:
    lanes = []
    last = view.last if view.last is not None and view.last.game == view.game else None
    for seat in (0, 1):
        mine = []
        for column in range(3):
            placed = last.row if last is not None and last.seat == seat and last.column == column else -1
            knocked = tuple(last.knocked) if last is not None and last.seat != seat and last.column == column else ()
            mine.append((tuple(view.grids[seat][column]), placed, knocked))
        lanes.append(tuple(mine))
    return tuple(lanes), tuple(tuple(s) for s in view.column_scores)


def draw(key: Key) -> bytes:
    lanes, scores = key
    width = 2 * (3 * DIE + 4 * GAP) + MIDDLE
    height = 3 * DIE + 4 * GAP
    image = Image.new("RGBA", (width, height), BACKGROUND)
    pen = ImageDraw.Draw(image)
    left_edge = 3 * DIE + 4 * GAP  # where the left grid meets the middle
    for lane in range(3):
        y = GAP + lane * (DIE + GAP)
        for seat in (0, 1):
            faces, placed, knocked = lanes[seat][lane]
            cells = [DieFace(str(f), fill=BONE, ring=PLACED if i == placed else None) for i, f in enumerate(faces)]
            cells += [DieFace(str(f), fill=BONE, dim=True, struck=True) for f in knocked]
            cells += [DieFace("", fill=(58, 60, 66), dim=True)] * (3 - len(cells))
            for slot, cell in enumerate(cells[:3]):
                # the first die of a lane sits nearest the middle, so lanes face each other
                if seat == 0:
                    x = left_edge - GAP - (slot + 1) * DIE - slot * GAP
                else:
                    x = left_edge + MIDDLE + GAP + slot * (DIE + GAP)
                if cell.text or cell.struck:
                    draw_die(pen, cell, x, y, DIE)
                else:
                    pen.rounded_rectangle((x + 6, y + 6, x + DIE - 6, y + DIE - 6), radius=DIE // 7,
                                          outline=(90, 93, 100), width=3)
        middle = left_edge + MIDDLE / 2
        pen.text((middle, y + 14), NAMES[lane], font=font(22), fill=DIM, anchor="mt")
        pen.text((middle - 12, y + DIE / 2 + 12), str(scores[0][lane]), font=font(40), fill=SIDE_INK[0], anchor="rm")
        pen.text((middle, y + DIE / 2 + 12), "·", font=font(40), fill=DIM, anchor="mm")
        pen.text((middle + 12, y + DIE / 2 + 12), str(scores[1][lane]), font=font(40), fill=SIDE_INK[1], anchor="lm")
    return png(image)


def grids_picture(view: bd.BoneDuelView, words: str) -> Picture:
    key = picture_key(view)
    return Picture(key=("duel", key), draw=lambda: draw(key), filename="duel.png", description=words)
