"""The rune dice as a picture: every die of the pool, active first, inactive greyed.

Runes are drawn as strokes (they are straight lines), so no font on any machine has to carry
runic letters; the face's number sits in the corner for whoever does not read runes yet. Each
die is captioned with its own number ("die 3"), the one the buttons name ("Reroll die 3"), so a
player finds the die a button means although the picture puts the active dice first, and two
dice showing the same rune are told apart.
"""

from __future__ import annotations

from bot.pictures import DieFace, Picture, dice_strip
from rules import knucklebones as kb

#: each rune's strokes in a unit box: ᛁ ᚱ ᚷ ᛞ ᚠ ᚺ
RUNE_STROKES: dict[int, tuple[tuple[tuple[float, float], ...], ...]] = {
    1: (((0.5, 0.0), (0.5, 1.0)),),
    2: (((0.3, 0.0), (0.3, 1.0)), ((0.3, 0.0), (0.75, 0.25), (0.3, 0.5)), ((0.3, 0.5), (0.75, 1.0))),
    3: (((0.15, 0.0), (0.85, 1.0)), ((0.85, 0.0), (0.15, 1.0))),
    4: (((0.15, 0.0), (0.15, 1.0), (0.85, 0.0), (0.85, 1.0), (0.15, 0.0)),),
    5: (((0.3, 0.0), (0.3, 1.0)), ((0.3, 0.35), (0.8, 0.05)), ((0.3, 0.65), (0.8, 0.35))),
    6: (((0.2, 0.0), (0.2, 1.0)), ((0.8, 0.0), (0.8, 1.0)), ((0.2, 0.35), (0.8, 0.65))),
}
BONE = (236, 228, 208)
PENDING = (250, 166, 26)
#: "die 3" under each die: 15 px tall on a phone, bigger than the other games' captions, since
#: it is how a player matches a die to its button
NUMBER_FONT = 36

#: (number, face, active, spent, counts as, pending)
DieKey = tuple[int, int | None, bool, bool, int, bool]


def die_key(die: kb.DieView) -> DieKey:
    return (die.number, die.face, die.active, die.spent, die.counts_as, die.pending)


def _face(key: DieKey) -> DieFace:
    number, face, active, spent, counts_as, pending = key
    caption = f"die {number}"
    if face is None:  # a 5 added it this turn: it is rolled next turn
        return DieFace("new" if active else "", fill=BONE, dim=not active, caption=caption)
    return DieFace(
        "", fill=BONE, strokes=RUNE_STROKES[face], corner=str(face), dim=not active, struck=spent,
        badge=f"x{counts_as}" if counts_as > 1 else "", ring=PENDING if pending else None, caption=caption,
    )


def draw_dice(keys: tuple[DieKey, ...]) -> bytes:
    return dice_strip([_face(k) for k in keys], per_row=7, caption_font=NUMBER_FONT)


def dice_picture(view: kb.KnucklebonesView, words: str) -> Picture:
    dice = sorted(view.dice, key=lambda d: (not d.active, d.id))
    keys = tuple(die_key(d) for d in dice)
    return Picture(key=("kb", keys), draw=lambda: draw_dice(keys), filename="dice.png", description=words)
