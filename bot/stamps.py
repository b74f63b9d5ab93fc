"""What a button is tied to, built and read in one place.

A button's custom id carries a stamp; a click whose stamp is not the one the game would draw now
is from a past moment. Stamps are letters, digits and dots, so they fit the ids' pattern.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any


def decision(engine_stamp: str | None, version: int) -> str:
    """A seat's own buttons: the engine's stamp for seats deciding at the same time (one sealed
    choice must not void another seat's buttons), else the table's move number."""
    return engine_stamp or str(version)


def open_row(choices: Iterable[tuple[Any, str]], asked: Sequence[int], drawn: int) -> str:
    """A row of choices shown to several seats at once: the choices as labelled, the seats it
    was shown to, and the move number it was drawn at. Several players pressing Ready together
    must all count, so another player's click, which changes the move number but not the row,
    leaves the buttons good for the seats that were asked; a row drawn for one player's turn
    never counts for the next, nor for a seat that has moved since it was drawn (the same row
    offered again: a double click gives once)."""
    shown = [[action, label] for action, label in choices]
    digest = hashlib.blake2s(json.dumps(shown, sort_keys=True).encode(), digest_size=5).hexdigest()
    return f"{digest}.{sum(1 << s for s in asked):x}.{drawn}"


def read_open_row(stamp: str) -> tuple[str, int, int | None]:
    """(the row's digest, the seats asked as a bit mask, the move number it was drawn at) of an
    open row's stamp; never raises. A stamp drawn before the move number was in it has none."""
    digest, _, rest = stamp.partition(".")
    mask, _, drawn = rest.partition(".")
    try:
        asked = int(mask, 16) if len(mask) <= 16 else 0
    except ValueError:
        asked = 0
    at = int(drawn) if drawn.isascii() and drawn.isdigit() and len(drawn) <= 18 else None
    return digest, asked, at
