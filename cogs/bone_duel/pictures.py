"""Both grids as one picture, facing each other across the table.

A phone shows an embed's picture at most about 400 px wide and 300 px high, so the grids are
drawn as three lanes across, each a row of each player's grid (the rulebook's left column on
top), labelled top, middle and bottom as the buttons name them: columns drawn upright would
stack six dice high and shrink to nothing on a phone. The first player's dice run left from the
middle and the second's right, so a row and its facing row sit on one line and a knock-out
reads at a glance. The middle shows each lane's name and its two scores. The
die just placed is ringed; dice it knocked out stay in the victim's lane, struck through, for this
one picture. A row on top names each side, its colour beside the name (the colour of its scores),
so a player finds their side; between the names sits the die to place, ringed in its roller's
colour and pointing to their side, so the picture shows what the buttons decide.

At the start of a game of a match the game before ends in the same move; its final grids (the
die that ended it ringed) sit above the new ones under a row of its totals, so players see how
it ended beside the first die of the next.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.pictures import DIM, INK, DieFace, Picture, Piece, draw_die, fit_text, font, from_parts
from rules import bone_duel as bd
from rules.base import seat_name

DIE = 96
GAP = 10
MIDDLE = 170
#: the row of names and the die to place on top, and the names' font: 826 px wide, the names
#: are 14.5 px tall on a phone
HEAD = 112
ROLLED = 96
NAME_FONT = 30
LANE_FONT = 28
BONE = (236, 228, 208)
PLACED = (250, 166, 26)
SIDE_WIDTH = 3 * DIE + 4 * GAP  # one grid; the left one meets the middle here
WIDTH = 2 * SIDE_WIDTH + MIDDLE
HEIGHT = HEAD + 3 * DIE + 3 * GAP
#: each lane's name, as the buttons say it
NAMES = bd.COLUMN_NAMES
#: the two sides' score colours, matching nothing else on the table
SIDE_INK = ((88, 166, 255), (255, 123, 114))

#: (seat, lane) -> (faces, placed row or -1, knocked faces); the lane scores; the two names;
#: the die to place and its roller's seat (None when the game is over)
LaneKey = tuple[tuple[int, ...], int, tuple[int, ...]]
Rolled = tuple[int, int] | None
Lanes = tuple[tuple[LaneKey, ...], ...]
Scores = tuple[tuple[int, ...], ...]
#: a finished game's lanes, lane scores, number and totals
Ended = tuple[Lanes, Scores, int, tuple[int, int]]
Key = tuple[Lanes, Scores, tuple[str, str], Rolled, Ended | None]


def _lanes(grids: list[list[list[int]]], last: bd.Placement | None) -> Lanes:
    lanes = []
    for seat in (0, 1):
        mine = []
        for column in range(3):
            placed = last.row if last is not None and last.seat == seat and last.column == column else -1
            knocked = tuple(last.knocked) if last is not None and last.seat != seat and last.column == column else ()
            mine.append((tuple(grids[seat][column]), placed, knocked))
        lanes.append(tuple(mine))
    return tuple(lanes)


def picture_key(view: bd.BoneDuelView, names: tuple[str, str] | None = None,
                ended: bd.FinishedGame | None = None) -> Key:
    """What the picture shows; without the players' names, the sides are named as the engine
    names seats ("Seat 1"). ``ended``: a finished game to show above the one in progress."""
    last = view.last if view.last is not None and view.last.game == view.game else None
    rolled = (view.die, view.current) if view.die is not None and not view.over else None
    before = None if ended is None else (
        _lanes(ended.grids, ended.last), tuple(tuple(s) for s in ended.column_scores), ended.game,
        (ended.totals[0], ended.totals[1]))
    return (_lanes(view.grids, last), tuple(tuple(s) for s in view.column_scores),
            names or (seat_name(0), seat_name(1)), rolled, before)


def _names(pen: ImageDraw.ImageDraw, names: tuple[str, str], side_width: int, width: int) -> None:
    """Each name over its own grid, the side's colour as a disc on the outer edge."""
    r = 13
    cy = HEAD / 2
    room = side_width - 3 * GAP - 2 * r
    face = font(NAME_FONT)
    for seat, (disc_x, text_x, anchor) in enumerate(((GAP + r, GAP + 2 * r + GAP, "lm"),
                                                     (width - GAP - r, width - GAP - 2 * r - GAP, "rm"))):
        pen.ellipse((disc_x - r, cy - r, disc_x + r, cy + r), fill=SIDE_INK[seat])
        pen.text((text_x, cy), fit_text(names[seat], room, NAME_FONT), font=face, fill=INK, anchor=anchor)


def _rolled(pen: ImageDraw.ImageDraw, rolled: Rolled, left_edge: int) -> None:
    """The die to place, between the names, ringed in its roller's colour, a point to their side."""
    if rolled is None:
        return
    face, seat = rolled
    x, y = left_edge + (MIDDLE - ROLLED) // 2, (HEAD - ROLLED) // 2
    draw_die(pen, DieFace(str(face), fill=BONE, ring=SIDE_INK[seat]), x, y, ROLLED)
    cy, tip = HEAD / 2, 14
    if seat == 0:
        base = x - 4
        pen.polygon(((base - tip, cy), (base, cy - tip), (base, cy + tip)), fill=SIDE_INK[seat])
    else:
        base = x + ROLLED + 4
        pen.polygon(((base + tip, cy), (base, cy - tip), (base, cy + tip)), fill=SIDE_INK[seat])


def _head(image: Image.Image, pen: ImageDraw.ImageDraw, names: tuple[str, str], rolled: Rolled) -> None:
    _names(pen, names, SIDE_WIDTH, WIDTH)
    _rolled(pen, rolled, SIDE_WIDTH)


def _ended(image: Image.Image, pen: ImageDraw.ImageDraw, ended: Ended) -> None:
    """A finished game whole, in a part of its own: a row of its number and totals (each in
    its side's colour, on its side), then its lanes as they ended."""
    lanes, scores, game, totals = ended
    cy = HEAD / 2
    pen.text((SIDE_WIDTH + MIDDLE / 2, cy - 16), f"game {game}", font=font(LANE_FONT), fill=DIM, anchor="mm")
    pen.text((SIDE_WIDTH + MIDDLE / 2, cy + 16), "ended", font=font(LANE_FONT), fill=DIM, anchor="mm")
    pen.text((SIDE_WIDTH - GAP, cy), f"total {totals[0]}", font=font(NAME_FONT), fill=SIDE_INK[0], anchor="rm")
    pen.text((SIDE_WIDTH + MIDDLE + GAP, cy), f"total {totals[1]}", font=font(NAME_FONT), fill=SIDE_INK[1],
             anchor="lm")
    for lane in range(3):
        for seat in (0, 1):
            _side(image, pen, seat, lane, lanes[seat][lane])
        _middle(image, pen, lane, (scores[0][lane], scores[1][lane]))
    pen.line((GAP, HEIGHT - GAP // 2, WIDTH - GAP, HEIGHT - GAP // 2), fill=DIM, width=2)


def _side(image: Image.Image, pen: ImageDraw.ImageDraw, seat: int, lane: int, key: LaneKey) -> None:
    """One seat's dice in one lane, the first nearest the middle, so lanes face each other."""
    faces, placed, knocked = key
    y = HEAD + lane * (DIE + GAP)
    cells = [DieFace(str(f), fill=BONE, ring=PLACED if i == placed else None) for i, f in enumerate(faces)]
    cells += [DieFace(str(f), fill=BONE, dim=True, struck=True) for f in knocked]
    cells += [DieFace("", fill=(58, 60, 66), dim=True)] * (3 - len(cells))
    for slot, cell in enumerate(cells[:3]):
        if seat == 0:
            x = SIDE_WIDTH - GAP - (slot + 1) * DIE - slot * GAP
        else:
            x = SIDE_WIDTH + MIDDLE + GAP + slot * (DIE + GAP)
        if cell.text or cell.struck:
            draw_die(pen, cell, x, y, DIE)
        else:
            pen.rounded_rectangle((x + 6, y + 6, x + DIE - 6, y + DIE - 6), radius=DIE // 7,
                                  outline=(90, 93, 100), width=3)


def _middle(image: Image.Image, pen: ImageDraw.ImageDraw, lane: int, scores: tuple[int, int]) -> None:
    """A lane's name and its two scores."""
    y = HEAD + lane * (DIE + GAP)
    middle = SIDE_WIDTH + MIDDLE / 2
    pen.text((middle, y + 8), NAMES[lane], font=font(LANE_FONT), fill=DIM, anchor="mt")
    pen.text((middle - 12, y + DIE / 2 + 12), str(scores[0]), font=font(40), fill=SIDE_INK[0], anchor="rm")
    pen.text((middle, y + DIE / 2 + 12), "·", font=font(40), fill=DIM, anchor="mm")
    pen.text((middle + 12, y + DIE / 2 + 12), str(scores[1]), font=font(40), fill=SIDE_INK[1], anchor="lm")


def parts(key: Key) -> list[Piece]:
    """The picture's parts, each drawn on its own and kept (bot.pictures.from_parts): the row of
    names and the die to place, then each lane's two sides and middle. A move changes the die
    to place, one lane and its scores; the other parts are drawn already. A finished game shown
    above is one part more (shown once or twice, so not worth parts of its own), and moves the
    rest down by its height."""
    lanes, scores, names, rolled, ended = key
    found: list[Piece] = [] if ended is None else [(_ended, (ended,), (0, 0, WIDTH, HEIGHT), (0, 0))]
    down = 0 if ended is None else HEIGHT
    found.append((_head, (names, rolled), (0, 0, WIDTH, HEAD), (0, down)))
    first = HEAD + DIE + GAP  # the first lane's bottom
    for lane in range(3):
        top, bottom = HEAD + lane * (DIE + GAP), HEAD + (lane + 1) * (DIE + GAP)
        at = top + down
        # a side is drawn in the first lane and moved to its own: the same dice look the same
        # in any lane, so they are drawn once; a lane's middle carries its name
        found += [(_side, (0, 0, lanes[0][lane]), (0, HEAD, SIDE_WIDTH, first), (0, at)),
                  (_middle, (lane, (scores[0][lane], scores[1][lane])), (SIDE_WIDTH, top, SIDE_WIDTH + MIDDLE, bottom),
                   (SIDE_WIDTH, at)),
                  (_side, (1, 0, lanes[1][lane]), (SIDE_WIDTH + MIDDLE, HEAD, WIDTH, first), (SIDE_WIDTH + MIDDLE, at))]
    return found


def size(key: Key) -> tuple[int, int]:
    return WIDTH, HEIGHT * (1 if key[4] is None else 2)


def draw(key: Key) -> bytes:
    drawn = from_parts(size(key), parts(key))
    assert drawn is not None  # ten parts: 25 colours each; eleven: 23
    return drawn


def grids_picture(view: bd.BoneDuelView, words: str, names: tuple[str, str] | None = None,
                  ended: bd.FinishedGame | None = None) -> Picture:
    key = picture_key(view, names, ended)
    return Picture(key=("duel", key), draw=lambda: draw(key), filename="duel.png", description=words)
