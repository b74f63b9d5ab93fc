"""Pictures of Rattlebones: the board, and one player's three dice with all six sides each.

Pure functions of a view, returning PNG bytes: Pillow only, Pillow's bundled font (the same
on every machine), no Discord. Each picture is drawn from a small hashable "facts" tuple of
what it shows, so a host can cache by the facts and draw off the event loop.

They are drawn 800 px wide for a phone that shows them at ~400 px: big shapes, few words, no
word under 24 px (12 px on the phone), light tiles on Discord's dark background, every player
told apart by colour *and* shape, and named beside their pawn on the score track.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.pictures import fit_text, fixed_palette, font, png
from rules.base import seat_name
from rules.rattlebones.dice import kind_of, value_of
from rules.rattlebones.models import RattlebonesView

RGB = tuple[int, int, int]
WIDTH = 800
MARGIN = 18
GAP = 6
BACKGROUND: RGB = (49, 51, 56)  # Discord's dark theme, #313338
INK: RGB = (242, 243, 245)
DARK: RGB = (24, 24, 28)
DIM: RGB = (140, 144, 152)
HIGHLIGHT: RGB = (250, 166, 26)
#: the smallest words drawn: 12 px tall on a phone that shows the 800 px picture 400 px wide
SMALL = 24
#: numbers and names a player looks up (a space's number, a score, a name): 14 px on that phone
LABEL = 28

#: spaces kept as drawn where they are drawn, and sides kept as drawn (a space 149 px square on
#: the standard board, 66 kB, and 201 px on the compact one, 121 kB; a side 105 px, 33 kB): a
#: board has 14 or 8 spaces, each in 3 layouts, and eighteen played games show 48 sides, ringed
#: or not, in all; these keep what a few games' boards show, 16 MB at most, and every side, 4 MB
SPACE_TILES = 128
FACE_TILES = 128
#: players: strong colours, each with its own shape, so colour-blind players can tell them apart
PLAYER_COLOURS: tuple[RGB, ...] = ((235, 64, 52), (45, 125, 255), (20, 185, 90), (255, 205, 30))
PLAYER_SHAPES: tuple[str, ...] = ("circle", "square", "diamond", "triangle")
#: each player's colour and shape in words, for the table to say which pawns are whose
PAWN_WORDS: tuple[str, ...] = tuple(f"{c} {s}" for c, s in zip(("red", "blue", "green", "yellow"), PLAYER_SHAPES,
                                                                 strict=True))

#: space and side colours: light, so dark words and the players' strong colours stand out
KIND_FILL: dict[str, RGB] = {
    "start": (88, 101, 242), "gold": (250, 215, 95), "star": (140, 195, 250),
    "roll_again": (200, 165, 240), "train": (200, 202, 208), "nine_pip": (130, 225, 205),
    "plus_one": (165, 232, 150), "points": (165, 232, 150), "thief": (105, 108, 120),
    "arrow": (250, 185, 140), "place": (248, 165, 200), "stock": (232, 214, 172),
    "x2": (255, 128, 110), "gamble": (195, 232, 110), "pip": (245, 242, 232),
    "rb": (236, 228, 208),
}
#: the rest of what is drawn: the score track, the train's stations, a side of no known kind,
#: and the marks on a die's sides
TRACK: RGB = (36, 37, 41)
LANE_LINE: RGB = (62, 64, 70)
BAR: RGB = (90, 94, 102)
BAR_LIT: RGB = (200, 204, 210)
STATION: RGB = (70, 73, 80)
OTHER_SIDE: RGB = (220, 220, 220)
SKULL: RGB = (250, 248, 240)
STAR: RGB = (255, 255, 255)
COIN: RGB = (255, 196, 0)
#: every colour above, and their edges fading into the dark, the light and the background:
#: 217 colours, to which each picture is mapped rather than having a palette worked out
PALETTE = fixed_palette(
    (BACKGROUND, INK, DARK, DIM, HIGHLIGHT, *PLAYER_COLOURS, *KIND_FILL.values(), TRACK, LANE_LINE, BAR,
     BAR_LIT, STATION, OTHER_SIDE, SKULL, STAR, COIN),
    (DARK, INK, BACKGROUND))
LIGHT_TEXT = {"start", "thief"}
#: few words: what a space or side says, in capitals, at most two short lines
KIND_WORDS: dict[str, str] = {
    "start": "START\nSTORE", "gold": "GOLD", "star": "STAR", "roll_again": "ROLL\nAGAIN",
    "train": "TRAIN", "nine_pip": "9-PIP", "plus_one": "+1", "thief": "THIEF", "arrow": "ARROW",
    "place": "1234", "stock": "STOCK", "x2": "x2", "gamble": "GAMBLE",
}


def _text_fill(kind: str) -> RGB:
    return INK if kind in LIGHT_TEXT else DARK


def _fit_font(draw: ImageDraw.ImageDraw, text: str, size: int, width: float,
              line_height: float | None = None) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The biggest font up to ``size`` whose widest line fits ``width`` (and whose lines fit
    ``line_height``), never under SMALL: a word too long for a tiny space overflows rather than
    becoming unreadable."""
    if line_height is not None:
        size = min(size, int(line_height * 0.95))
    while size > SMALL:
        f = font(size)
        if max(draw.textlength(line, font=f) for line in text.split("\n")) <= width:
            return f
        size -= 2
    return font(max(size, SMALL))


def _marker(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float,
            label: str = "") -> None:
    """A player's pawn: their colour and shape, with a dark rim so it reads on any tile."""
    colour, shape = PLAYER_COLOURS[seat], PLAYER_SHAPES[seat]
    rim = max(2, int(r / 5))
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=DARK, width=rim)
    elif shape == "square":
        s = r * 0.9
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=colour, outline=DARK, width=rim)
    elif shape == "diamond":
        s = r * 1.15
        draw.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=colour,
                     outline=DARK, width=rim)
    else:
        s = r * 1.2
        draw.polygon([(cx, cy - s), (cx + s, cy + s * 0.8), (cx - s, cy + s * 0.8)], fill=colour,
                     outline=DARK, width=rim)
    if label:
        dy = r * 0.15 if shape == "triangle" else 0
        draw.text((cx, cy + dy), label, font=font(max(SMALL, int(r * 1.2))), fill=DARK, anchor="mm")


# -- the board ------------------------------------------------------------------------------

#: what a board picture shows: spaces, monkeys by seat, train, train values, scores,
#: Rattlebones, its start, the track length, the players' names
BoardFacts = tuple[tuple[str, ...], tuple[tuple[int, ...], ...], int, tuple[int, ...],
                   tuple[int, ...], int, int, int, tuple[str, ...]]


def board_facts(view: RattlebonesView, names: tuple[str, ...] | None = None) -> BoardFacts:
    """The board's facts; without the players' names, seats are named as the engine names them
    ("Seat 1")."""
    named = names or tuple(seat_name(p.seat) for p in view.players)
    return (tuple(s.kind for s in view.spaces), tuple(tuple(p.monkeys) for p in view.players),
            view.train, tuple(view.train_values), tuple(p.score for p in view.players),
            view.rattlebones, view.rattlebones_start, view.score_track, named)


def ring_shape(spaces: int) -> tuple[int, int]:
    """Columns and rows of the loop: 14 spaces are 5 across and 4 down, 8 are 3 by 3."""
    rows = max(3, (spaces + 4) // 4)
    cols = max(2, -(-(spaces - 2 * (rows - 2)) // 2))
    return cols, rows


def ring_cells(spaces: int) -> list[tuple[int, int]]:
    """(column, row) of each space, clockwise from the top-left corner (START)."""
    cols, rows = ring_shape(spaces)
    cells = [(c, 0) for c in range(cols)] + [(cols - 1, r) for r in range(1, rows - 1)]
    cells += [(c, rows - 1) for c in range(cols - 1, -1, -1)] + [(0, r) for r in range(rows - 2, 0, -1)]
    return cells[:spaces]


def cell_size(spaces: int) -> int:
    cols, _ = ring_shape(spaces)
    return min(200, (WIDTH - 2 * MARGIN - (cols - 1) * GAP) // cols)


#: the score track under the board: a lane per player (4 at most), Rattlebones' bar, its scale
LANE = 38
TRACK_H = 12 + 4 * LANE + 48 + 34


def board_size(spaces: int) -> tuple[int, int]:
    """Fixed for a number of spaces: 800 x 910 for standard14, 800 x 912 for compact8."""
    _, rows = ring_shape(spaces)
    cell = cell_size(spaces)
    return WIDTH, MARGIN + rows * cell + (rows - 1) * GAP + MARGIN + TRACK_H + MARGIN


def draw_board(facts: BoardFacts) -> bytes:
    kinds, monkeys, train, train_values, scores, rattlebones, rb_start, track, names = facts
    n = len(kinds)
    width, height = board_size(n)
    cols, rows = ring_shape(n)
    cell = cell_size(n)
    ring_w = cols * cell + (cols - 1) * GAP
    ring_h = rows * cell + (rows - 1) * GAP
    x0, y0 = (width - ring_w) // 2, MARGIN
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for index, (col, row) in enumerate(ring_cells(n)):
        x, y = x0 + col * (cell + GAP), y0 + row * (cell + GAP)
        here = [(seat, spots.count(index)) for seat, spots in enumerate(monkeys) if index in spots]
        _space(image, draw, kinds[index], index, x, y, cell, here)
    inner = (x0 + cell + GAP, y0 + cell + GAP, x0 + ring_w - cell - GAP, y0 + ring_h - cell - GAP)
    _train(draw, inner, train, train_values)
    _score_track(draw, (MARGIN, y0 + ring_h + MARGIN, width - MARGIN, height - MARGIN), scores, names,
                 rattlebones, rb_start, track)
    return png(image, PALETTE)


def _space(image: Image.Image, draw: ImageDraw.ImageDraw, kind: str, index: int, x: int, y: int, cell: int,
           here: list[tuple[int, int]]) -> None:
    """A space: its number in the top-left corner, its colour and word under it, then one pawn
    per player standing there (a number in it when more than one of their monkeys does), two
    rows of smaller pawns for 3-4 players. The space under the pawns is kept (``_space_tile``):
    a board shows the same fourteen spaces on every move, and they were half its drawing."""
    rows = 0 if not here else (1 if len(here) <= 2 else 2)
    image.paste(_space_tile(kind, index, x, y, cell, rows), (x, y))
    top, body = y + 30, cell - 30 - 4  # under the number
    r = cell / (8 if rows < 2 else 11)
    step = 2.5 * r
    for i, (seat, count) in enumerate(here):
        row, col = divmod(i, 2) if rows == 2 else (0, i)
        in_row = min(2, len(here) - 2 * row) if rows == 2 else len(here)
        cx = x + cell / 2 + (col - (in_row - 1) / 2) * step
        cy = top + body * (0.76 if rows == 1 else (0.62 + 0.25 * row))
        _marker(draw, seat, cx, cy, r, str(count) if count > 1 else "")


@lru_cache(maxsize=SPACE_TILES)
def _space_tile(kind: str, index: int, x: int, y: int, cell: int, rows: int) -> Image.Image:
    """A space as drawn at (x, y) of a board, its words made room for ``rows`` rows of pawns.
    Kept per place, as a die's tile is (bot.pictures._tile): words at fractional coordinates
    round differently elsewhere. Worker threads share the tiles, and only read them."""
    canvas = Image.new("RGB", (x + cell + 1, y + cell + 1), BACKGROUND)
    draw_space(ImageDraw.Draw(canvas), kind, index, x, y, cell, rows)
    return canvas.crop((x, y, x + cell + 1, y + cell + 1))


def draw_space(draw: ImageDraw.ImageDraw, kind: str, index: int, x: int, y: int, cell: int, rows: int) -> None:
    """A space without its pawns, its words higher and smaller for each row of them."""
    fill = KIND_FILL[kind]
    draw.rounded_rectangle((x, y, x + cell, y + cell), radius=cell // 9, fill=fill,
                           outline=DARK, width=3)
    ink = _text_fill(kind)
    draw.text((x + 9, y + 17), str(index), font=font(LABEL), fill=ink, anchor="lm")
    top, body = y + 30, cell - 30 - 4
    words = KIND_WORDS[kind]
    room = body * (0.9, 0.55, 0.45)[rows]  # the height left for the words
    size = cell // 2 if len(words) <= 2 else cell // 4
    f = _fit_font(draw, words, size, cell - 16, room / (words.count("\n") + 1))
    words_y = top + body * (0.45, 0.27, 0.22)[rows]
    draw.multiline_text((x + cell / 2, words_y), words, font=f, fill=ink, anchor="mm",
                        align="center", spacing=2)


def _train(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], train: int,
           values: tuple[int, ...]) -> None:
    """The train track as a loop of stations inside the board, the train's station lit."""
    left, top, right, bottom = box
    cx, cy = (left + right) / 2, (top + bottom) / 2
    rx, ry = (right - left) / 2 - 26, (bottom - top) / 2 - 26
    r = max(12, min(24, min(rx, ry) * 0.28))
    points = [(cx + rx * math.sin(2 * math.pi * i / len(values)),
               cy - ry * math.cos(2 * math.pi * i / len(values))) for i in range(len(values))]
    draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), outline=DIM, width=4)
    for i, (px, py) in enumerate(points):
        lit = i == train
        fill = HIGHLIGHT if lit else STATION
        rr = r * 1.25 if lit else r
        draw.ellipse((px - rr, py - rr, px + rr, py + rr), fill=fill,
                     outline=INK if lit else DIM, width=3)
        draw.text((px, py), str(values[i]), font=font(max(LABEL, int(rr * 1.1))), fill=DARK if lit else INK,
                  anchor="mm")
    label = "TRAIN"
    draw.text((cx, cy), label, font=_fit_font(draw, label, int(min(rx, ry) * 0.5), rx * 1.2),
              fill=INK, anchor="mm")


def _skull(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB = INK) -> None:
    """The Rattlebones icon: a skull, drawn, since no bundled font has one."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r * 0.7), fill=fill, outline=DARK, width=max(2, int(r / 8)))
    draw.rectangle((cx - r * 0.5, cy + r * 0.4, cx + r * 0.5, cy + r * 1.0), fill=fill,
                   outline=DARK, width=max(2, int(r / 8)))
    e = r * 0.3
    for ex in (cx - r * 0.4, cx + r * 0.4):
        draw.ellipse((ex - e, cy - e * 0.6, ex + e, cy + e * 1.2), fill=DARK)
    for tx in (-0.25, 0.0, 0.25):
        draw.line((cx + tx * r, cy + r * 0.6, cx + tx * r, cy + r * 1.0), fill=DARK,
                  width=max(1, int(r / 10)))


def _score_track(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], scores: tuple[int, ...],
                 names: tuple[str, ...], rattlebones: int, rb_start: int, track: int) -> None:
    """0 to the end of the track. Each player has a lane: their pawn and name on its left, so a
    player finds their colour and shape, and the pawn again at their score with the number
    beside it (equal scores never hide each other). Rattlebones has the bar under the lanes,
    lit up to where he stands, his number on its left, a line up through the lanes to show
    who is close to him; the scale reads every 10 points."""
    left, top, right, bottom = box
    legend = 232
    x_left, x_right = left + legend, right - 26
    pawn = 14  # a circle 28 px across: 14 px on a phone

    def x_of(score: int) -> float:
        return x_left + (x_right - x_left) * min(score, track) / track

    draw.rounded_rectangle((left, top, right, bottom), radius=12, fill=TRACK)
    lanes_top = top + 12
    lane = min(46.0, 4 * LANE / max(1, len(scores)))
    first = lanes_top + (4 * LANE - lane * len(scores)) / 2
    bar_y = lanes_top + 4 * LANE + 24
    rx = x_of(rattlebones)
    draw.line((rx, lanes_top, rx, bar_y), fill=DIM, width=2)
    for seat, score in enumerate(scores):
        y = first + lane * (seat + 0.5)
        _marker(draw, seat, left + 24, y, pawn)
        draw.text((left + 46, y), fit_text(names[seat] if seat < len(names) else seat_name(seat),
                                            legend - 46 - pawn - 12, LABEL),
                  font=font(LABEL), fill=INK, anchor="lm")
        draw.line((x_left, y, x_right, y), fill=LANE_LINE, width=2)
        draw.line((x_left, y, x_of(score), y), fill=PLAYER_COLOURS[seat], width=4)
        x = x_of(score)
        _marker(draw, seat, x, y, pawn)
        before = x > x_right - 44
        draw.text((x + (-1 if before else 1) * (pawn + 8), y), str(score), font=font(LABEL), fill=INK,
                  anchor="rm" if before else "lm")
    _skull(draw, left + 24, bar_y - 2, 14)
    draw.text((left + 46, bar_y), str(rattlebones), font=font(LABEL + 4), fill=INK, anchor="lm")
    draw.rounded_rectangle((x_left, bar_y - 9, x_right, bar_y + 9), radius=9, fill=BAR)
    draw.rounded_rectangle((x_left, bar_y - 9, rx, bar_y + 9), radius=9, fill=BAR_LIT)
    if rb_start < track:
        draw.line((x_of(rb_start), bar_y - 13, x_of(rb_start), bar_y + 13), fill=DIM, width=2)
    for v in range(0, track + 1, 5):
        big = v % 10 == 0
        draw.line((x_of(v), bar_y + 10, x_of(v), bar_y + (20 if big else 15)), fill=DIM, width=2)
        if big:
            draw.text((x_of(v), bar_y + 21), str(v), font=font(LABEL), fill=DIM, anchor="ma")
    _skull(draw, rx, bar_y - 2, 15)


def board_png(view: RattlebonesView) -> bytes:
    """The whole board for the table: spaces, monkeys, train, score track."""
    return draw_board(board_facts(view))


# -- the dice -------------------------------------------------------------------------------

#: what a dice picture shows: the seat and its player's name, its three dice, the die in
#: focus, faces to ring, the side on offer (a landing's new side) and the side it would go on
DiceFacts = tuple[int, str, tuple[tuple[str, ...], ...], int | None, tuple[tuple[int, int], ...],
                  str | None, int | None]

FACE = 104
DIE_LABEL = 64
ROW_GAP = 18
HEADER = 24
#: the player's pawn and name over their dice
TITLE = 44


def dice_facts(view: RattlebonesView, seat: int, name: str | None = None) -> DiceFacts:
    """The seat's dice; when it is that seat's turn, the sides thrown this turn are ringed and,
    while a side of a die is being chosen, that die is in focus with the side on offer below it
    (a new arrow, whose direction is being chosen, where it goes)."""
    dice = tuple(tuple(d) for d in view.players[seat].dice)
    focus: int | None = None
    ringed: tuple[tuple[int, int], ...] = ()
    offer: str | None = None
    slot: int | None = None
    if view.current_seat == seat:
        decision = view.decision
        if decision is not None and decision.phase in ("replace", "aim") and decision.die is not None:
            focus, offer = decision.die, decision.side
            slot = decision.slot if decision.phase == "aim" else None
        ringed = tuple(sorted({(r.die, r.slot) for r in view.rolls}))
    return seat, name or seat_name(seat), dice, focus, ringed, offer, slot


def dice_size(offer: bool = False) -> tuple[int, int]:
    """800 x 452: the player's name, a row of side numbers, three rows of six sides; 122 px
    more for the side on offer."""
    return WIDTH, MARGIN * 2 + TITLE + HEADER + 3 * FACE + 2 * ROW_GAP + (ROW_GAP + FACE if offer else 0)


def offer_caption(offer: str) -> str:
    return "NEW SIDE (OR +1 ON POINTS):" if offer == "points:1" else "NEW SIDE ON OFFER:"


def draw_dice(facts: DiceFacts) -> bytes:
    seat, name, dice, focus, ringed, offer, slot = facts
    below = offer is not None and slot is None  # a new arrow is drawn where it goes instead
    width, height = dice_size(below)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    row_w = DIE_LABEL + 6 * FACE + 5 * GAP * 2
    x0 = (width - row_w) // 2
    _marker(draw, seat, x0 + DIE_LABEL / 2 - 4, MARGIN + 8, 14)
    draw.text((x0 + DIE_LABEL, MARGIN + 8), fit_text(f"{name}'s dice", row_w - DIE_LABEL, LABEL),
              font=font(LABEL), fill=INK, anchor="lm")
    top = MARGIN + TITLE
    for side in range(6):  # side numbers once, above the columns: "side 3", "TO 3"
        x = x0 + DIE_LABEL + side * (FACE + GAP * 2)
        draw.text((x + FACE / 2, top - 6), str(side + 1), font=font(LABEL), fill=DIM, anchor="ma")
    for d, faces in enumerate(dice):
        y = top + HEADER + d * (FACE + ROW_GAP)
        if d == focus:
            draw.rounded_rectangle((x0 - 8, y - 10, x0 + row_w + 8, y + FACE + 10), radius=16,
                                   outline=HIGHLIGHT, width=6)
        _marker(draw, seat, x0 + DIE_LABEL / 2 - 4, y + FACE / 2, 26, str(d + 1))
        for side, face in enumerate(faces):
            x = x0 + DIE_LABEL + side * (FACE + GAP * 2)
            new = offer is not None and d == focus and side == slot
            image.paste(_face_tile(offer if new and offer else face, FACE, new or (d, side) in ringed), (x, y))
    if below and offer is not None:
        y = top + HEADER + 3 * (FACE + ROW_GAP)
        x = x0 + row_w - FACE
        draw.text((x - 18, y + FACE / 2), offer_caption(offer), font=font(LABEL), fill=HIGHLIGHT, anchor="rm")
        image.paste(_face_tile(offer, FACE, True), (x, y))
    return png(image, PALETTE)


_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.28, 0.28), (0.72, 0.72)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)),
    5: ((0.26, 0.26), (0.74, 0.26), (0.5, 0.5), (0.26, 0.74), (0.74, 0.74)),
    6: ((0.28, 0.22), (0.72, 0.22), (0.28, 0.5), (0.72, 0.5), (0.28, 0.78), (0.72, 0.78)),
}


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    draw.polygon(pts, fill=fill, outline=DARK, width=2)


def _arrow_glyph(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    half = size / 2
    draw.line((cx - half, cy, cx + half - 8, cy), fill=DARK, width=7)
    draw.polygon([(cx + half + 4, cy), (cx + half - 16, cy - 14), (cx + half - 16, cy + 14)], fill=DARK)


@lru_cache(maxsize=FACE_TILES)
def _face_tile(face: str, size: int, ring: bool) -> Image.Image:
    """A side as drawn, kept: a player's eighteen sides change a few at a time, and drawing
    them was most of the picture's cost. A side is drawn the same wherever it stands (its
    shapes and words sit on whole pixels of its box), so one tile serves every place, as a
    die's cell does in a strip."""
    canvas = Image.new("RGB", (size + 1, size + 1), BACKGROUND)
    draw_face(ImageDraw.Draw(canvas), face, 0, 0, size, ring)
    return canvas


def draw_face(draw: ImageDraw.ImageDraw, face: str, x: int, y: int, size: int, ring: bool = False) -> None:
    """One side: pips as on a real die, the icon as a skull, action sides by colour and word."""
    kind = kind_of(face)
    fill = KIND_FILL.get(kind, OTHER_SIDE)
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size // 7, fill=fill,
                           outline=HIGHLIGHT if ring else DARK, width=7 if ring else 3)
    ink = _text_fill(kind)
    cx, cy = x + size / 2, y + size / 2
    if kind == "rb":
        _skull(draw, cx, cy - size * 0.06, size * 0.3, fill=SKULL)
    elif kind == "pip":
        r = size * 0.085
        for px, py in _PIPS[value_of(face)]:
            draw.ellipse((x + px * size - r, y + py * size - r, x + px * size + r, y + py * size + r),
                         fill=DARK)
    elif kind == "points":
        draw.text((cx, cy - size * 0.08), str(value_of(face)), font=font(int(size * 0.55)), fill=ink,
                  anchor="mm")
        draw.text((cx, y + size * 0.84), "POINTS", font=font(max(SMALL, int(size * 0.2))), fill=ink, anchor="mm")
    elif kind == "star":
        _star(draw, cx, cy, size * 0.36, STAR)
    elif kind == "gold":
        r = size * 0.28
        draw.ellipse((cx - r, cy - r - 10, cx + r, cy + r - 10), fill=COIN, outline=DARK, width=3)
        draw.text((cx, y + size * 0.84), "GOLD", font=font(max(SMALL, int(size * 0.19))), fill=ink, anchor="mm")
    elif kind == "arrow":
        _arrow_glyph(draw, cx, cy - size * 0.14, size * 0.6)
        to = f"TO {value_of(face) + 1}" if ":" in face else "NEW"  # a new arrow points nowhere yet
        draw.text((cx, y + size * 0.72), to, font=font(int(size * 0.26)), fill=ink, anchor="mm")
    else:
        words = KIND_WORDS[kind]
        size_hint = int(size * 0.5) if len(words) <= 2 else int(size * 0.26)
        draw.multiline_text((cx, cy), words, font=_fit_font(draw, words, size_hint, size - 14),
                            fill=ink, anchor="mm", align="center", spacing=2)


def dice_png(view: RattlebonesView, seat: int, name: str | None = None) -> bytes:
    """One player's three dice, every side showing."""
    return draw_dice(dice_facts(view, seat, name))
