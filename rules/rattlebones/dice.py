"""Die faces as short strings, and the geometry of a d6 that the Arrow side needs.

A face is stored as a string so a state holds twelve dice as plain JSON lists a person can read
in the store: ``"rb"`` (the Rattlebones icon, always slot 0), ``"pip:4"``, ``"points:3"``,
``"arrow:2"`` (pointing at slot 2), or a side kind such as ``"gold"`` or ``"x2"``. Slots 0-5
are the printed faces 1-6 of a standard die, so opposite slots add up to 5 (RT-7: 1-6, 2-5,
3-4) and the four slots next to a slot are the other four.
"""

from __future__ import annotations

from rules.rattlebones.board import DATA, FACE_COUNT, SIDE_KINDS, side_name

RB = "rb"
SLOTS = range(FACE_COUNT)
#: the slots a face may be replaced in: all but the Rattlebones icon's
CHANGEABLE = range(1, FACE_COUNT)


def opposite(slot: int) -> int:
    return FACE_COUNT - 1 - slot


def adjacent(slot: int) -> list[int]:
    """The four slots an Arrow on ``slot`` may point at, in slot order."""
    return [t for t in SLOTS if t != slot and t != opposite(slot)]


def kind_of(face: str) -> str:
    """``"points:3"`` -> ``"points"``; ``"rb"`` -> ``"rb"``."""
    return face.split(":", 1)[0]


def value_of(face: str) -> int:
    """The number after the colon: pips, points, or the slot an arrow points at."""
    return int(face.split(":", 1)[1])


def pip(n: int) -> str:
    return f"pip:{n}"


def points(n: int) -> str:
    return f"points:{n}"


def arrow(to: int) -> str:
    return f"arrow:{to}"


def supply_key(face: str) -> str | None:
    """Which pile of the supply a side goes back to; None for the icon and pip sides, which
    never return (replaced pips «go out of the game»)."""
    kind = kind_of(face)
    if kind in ("rb", "pip"):
        return None
    if kind == "points":
        return face
    return kind


def start_die() -> list[str]:
    return list(DATA.start_die)


def follow(faces: list[str], slot: int) -> tuple[str | None, list[int]]:
    """RT-7: what a face does, following arrows from ``slot``; None when the arrows go round in
    a cycle (which does nothing). Also the slots visited, for the event text."""
    seen = [slot]
    face = faces[slot]
    while kind_of(face) == "arrow":
        slot = value_of(face)
        if slot in seen:
            return None, seen
        seen.append(slot)
        face = faces[slot]
    return face, seen


def face_name(face: str | None) -> str:
    """A face in words for players: "3 pips", "4 points", "Arrow to side 3", "Rattlebones"."""
    if face is None:
        return "nothing (the arrows go round in a circle)"
    kind = kind_of(face)
    if kind == "rb":
        return "Rattlebones"
    if kind == "pip":
        return f"{value_of(face)} pips"
    if kind == "points":
        n = value_of(face)
        return f"{n} point" + ("" if n == 1 else "s")
    if kind == "arrow":
        return f"Arrow to side {value_of(face) + 1}"
    return side_name(kind)


def face_short(face: str) -> str:
    """At most 8 characters, for buttons and pictures."""
    kind = kind_of(face)
    if kind == "rb":
        return "RB"
    if kind == "pip":
        return str(value_of(face))
    if kind == "points":
        return f"{value_of(face)} pt"
    if kind == "arrow":
        return f"->{value_of(face) + 1}"
    return DATA.sides[kind].short


def _faces_for(slot: int) -> frozenset[str]:
    if slot == 0:
        return frozenset({RB})
    plain = [k for k in SIDE_KINDS if k not in ("points", "arrow")]
    return frozenset([pip(n) for n in range(2, 7)] + [points(n) for n in range(1, 6)]
                     + [arrow(t) for t in adjacent(slot)] + plain)


#: every face each slot may carry: slot 0 only the icon, and the icon only slot 0; an arrow
#: only toward a neighbouring slot (a set, as states are checked on every copy)
VALID_FACES: tuple[frozenset[str], ...] = tuple(_faces_for(s) for s in SLOTS)


def is_valid_face(face: str, slot: int) -> bool:
    return face in VALID_FACES[slot]
