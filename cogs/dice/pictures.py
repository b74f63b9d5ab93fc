"""The dice tools' pictures: the dice of a small roll, and a player's d20s face by face.

A roll of up to 12 dice is drawn with the games' own dice strip (bot/pictures.py), so a d20 on a
/roll looks like a d20 on a table: the kept dice as they are, a natural 20 ringed gold and a
natural 1 ringed red, and each die that does not count greyed, with "not kept" under it. Its
number stays clear: the words say `~~16~~ dropped`, and a player checking them against the
picture must read the 16 there too (a cross over it, as the games mark a spent die, hid it on a
phone). "Not kept" rather than "dropped", as a rerolled face does not count either and the
picture cannot tell the two apart. The dice stand in the order the words list them. Bigger
pools stay text: past two rows the dice shrink below what a phone shows clearly, and the text
lists them anyway.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.pictures import BACKGROUND, DIE, DIM, GAP, INK, DieFace, Picture, dice_strip, font, png
from bot.store import RolledDie
from rules.notation import FATE, RollSeries, sides_of

#: the most dice a roll's picture shows
MOST_DICE = 12
#: dice in a row of the picture (a repeat draws one row per roll, when its rolls fit one each)
PER_ROW = 6
SHAPES = {4: "d4", 8: "d8", 10: "d10", 12: "d12", 20: "d20"}
GOLD = (250, 166, 26)
RED = (237, 66, 69)
BLURPLE = (88, 101, 242)


#: what a die that does not count says under it
NOT_KEPT = "not kept"


def dice_of(series: RollSeries) -> list[RolledDie]:
    """Every die a roll showed, rerolled faces and dropped dice included, in the order its words
    list them: the order rolled, except that a roll at advantage or disadvantage names the d20
    that counts first (`advantage (18, ~~16~~ dropped)`), so the picture shows it first too. (A
    leading d20 rerolled as well, `1d20ro1 adv`, has more faces than dice and stays as rolled.)"""
    dice: list[RolledDie] = []
    for one in series.rolls:
        for index, group in enumerate(one.groups):
            faces = list(group.faces)
            if index == 0 and series.mode != "normal" and len(faces) == 2:
                faces.sort(key=lambda face: not face.kept)
            dice += [RolledDie(sides=face.sides, value=face.value, kept=face.kept) for face in faces]
    return dice


def row_length(series: RollSeries) -> int | None:
    """Dice per row: a repeat is drawn a roll a row, so the rows read as the lines do; None when
    the roll is too big to draw, or its rolls have rows of different lengths."""
    counts = {sum(len(g.faces) for g in one.groups) for one in series.rolls}
    total = sum(sum(len(g.faces) for g in one.groups) for one in series.rolls)
    if not 0 < total <= MOST_DICE:
        return None
    if len(series.rolls) == 1:
        return PER_ROW
    return counts.pop() if len(counts) == 1 and max(counts) <= PER_ROW else None


def _face(die: RolledDie, caption: bool) -> DieFace:
    sides = sides_of(die.sides)
    natural_edge = die.kept and sides == 20 and die.value in (1, 20)
    # a die that does not count says so in place of its size: its shape and the kept dice beside
    # it tell the size, and "d20, not kept" does not fit under a die
    words = NOT_KEPT if not die.kept else f"d{die.sides}" if caption else ""
    return DieFace(text="" if die.sides == FATE else str(die.value), shape=SHAPES.get(sides, "square"), caption=words, dim=not die.kept,
                   ring=(GOLD if die.value == 20 else RED) if natural_edge else None,
                   strokes=FATE_STROKES[die.value] if die.sides == FATE else ())


def _drawn(faces: list[DieFace], per_row: int) -> bytes:
    """The games' dice strip, on a canvas always six dice wide: Discord stretches a picture to
    the message's width, so one die would fill a phone's screen; this way a die is the size it
    is on a game's table (about 55 px on a phone), whatever the roll."""
    strip = dice_strip(faces, per_row=per_row)
    width = PER_ROW * DIE + (PER_ROW + 1) * GAP
    image = Image.open(io.BytesIO(strip))
    if image.width >= width or image.mode != "P":
        return strip
    # widened in its own palette, with the colour the strip is transparent in, so nothing is
    # converted or quantized again (a strip always has a transparent background colour)
    alpha = image.info.get("transparency")
    clear = alpha.find(b"\x00") if isinstance(alpha, bytes) else alpha
    if not isinstance(clear, int) or clear < 0:
        return strip
    canvas = Image.new("P", (width, image.height), clear)
    canvas.putpalette(image.getpalette() or [])
    canvas.paste(image, (0, 0))
    canvas.info["transparency"] = alpha
    return png(canvas)


#: a Fate die as Fate's own dice show it, a plus, a blank or a minus, drawn as bold strokes: the
#: font's "-" is a short thin dash beside its "+", and it has no "−"
_BAR = ((0.22, 0.5), (0.78, 0.5))
FATE_STROKES = {1: (_BAR, ((0.5, 0.22), (0.5, 0.78))), 0: (), -1: (_BAR,)}
FATE_WORDS = {1: "plus", 0: "blank", -1: "minus"}


def describe(dice: Sequence[RolledDie]) -> str:
    """The picture in words, for screen readers: "d20: 17; d20: 4, dropped"."""
    return "; ".join(f"d{d.sides}: {FATE_WORDS[d.value] if d.sides == FATE else d.value}" + ("" if d.kept else ", does not count") for d in dice)


def dice_picture(dice: Sequence[RolledDie], per_row: int = PER_ROW) -> Picture:
    """The dice as the games draw them; kept by what they show, so the same dice cost one drawing."""
    key = (per_row, tuple((str(d.sides), d.value, d.kept) for d in dice))
    # a caption tells sizes apart; when every die is the same size, the text says which
    captions = len({str(d.sides) for d in dice}) > 1
    faces = [_face(d, captions) for d in dice]
    return Picture(key=key, draw=lambda: _drawn(faces, per_row), filename="dice.png", description=describe(dice))


# -- a player's d20s ---------------------------------------------------------------------------

CHART_W, CHART_H = 800, 380
#: every word at least 24 px, 12 px once a phone shrinks the picture to 400 px
LABEL = 24


def d20_chart(counts: dict[int, int]) -> Picture:
    """How often each face of the d20 came up, a bar each, with the line chance expects."""
    shown = tuple(counts.get(face, 0) for face in range(1, 21))
    total = sum(shown)
    description = (f"{total} d20s rolled: " + ", ".join(f"{face}: {n}" for face, n in enumerate(shown, start=1))
                   + f"; chance expects {total / 20:.1f} of each")
    return Picture(key=shown, draw=lambda: _draw_chart(shown), filename="d20s.png", description=description)


def _draw_chart(shown: tuple[int, ...]) -> bytes:
    image = Image.new("RGBA", (CHART_W, CHART_H), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = 56, CHART_W - 12, 16, CHART_H - 44
    expected = sum(shown) / 20
    peak = max(max(shown), expected, 1)
    scale = (bottom - top) / peak
    step = (right - left) / 20
    label = font(LABEL)
    draw.text((left - 10, top), str(max(shown)), font=label, fill=DIM, anchor="ra")
    draw.text((left - 10, bottom), "0", font=label, fill=DIM, anchor="rs")
    for index, count in enumerate(shown):
        face = index + 1
        x0 = left + index * step + 4
        colour = GOLD if face == 20 else RED if face == 1 else BLURPLE
        if count:
            draw.rectangle((x0, bottom - count * scale, x0 + step - 8, bottom), fill=colour)
        if face in (1, 5, 10, 15, 20):
            draw.text((x0 + (step - 8) / 2, bottom + 8), str(face), font=label, fill=INK, anchor="ma")
    line = bottom - expected * scale
    for x in range(left, right, 18):  # dashed: what chance expects of each face
        draw.line((x, line, min(x + 10, right), line), fill=INK, width=3)
    draw.line((left, bottom, right, bottom), fill=DIM, width=2)
    return png(image)
