"""Every game's table picture, drawn for a seeded mid-game table, matches its golden PNG pixel for
pixel, so a change to a drawing shows as a visible diff in review. The README shows these files.

After an intended change: BONEYARD_GOLDEN=update .venv/bin/python -m pytest tests/test_table_pictures.py
"""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path

import pytest
from PIL import Image

from tests.fixtures.tables import game_specs, mid_game

GOLDEN = Path(__file__).parent / "golden"


def pixels(data: bytes) -> str:
    with Image.open(io.BytesIO(data)) as image:
        return hashlib.sha256(image.convert("RGBA").tobytes()).hexdigest()


@pytest.mark.parametrize("spec", game_specs(), ids=lambda spec: spec.engine.key)
def test_the_table_picture_matches_its_golden(spec) -> None:  # noqa: ANN001
    table, view = mid_game(spec, seats=min(3, spec.engine.max_seats), seed=11)
    picture = spec.picture(table, view)
    if picture is None:
        pytest.fail(f"{spec.engine.title} drew no picture in a seeded game")
    data = picture.draw()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    golden = GOLDEN / f"{spec.engine.key}-table.png"
    if os.environ.get("BONEYARD_GOLDEN") == "update" or not golden.exists() and os.environ.get("CI") is None:
        golden.write_bytes(data)
    assert golden.exists(), f"no golden picture for {spec.engine.title}: run with BONEYARD_GOLDEN=update"
    assert pixels(data) == pixels(golden.read_bytes()), f"{golden.name} changed: look at it, then update it"


@pytest.mark.parametrize("spec", game_specs(), ids=lambda spec: spec.engine.key)
def test_a_table_picture_reads_on_the_light_theme_too(spec) -> None:  # noqa: ANN001
    """Its words and marks are light, drawn for the dark theme: a clear background would put
    them on white on the light theme, where captions and names vanish. Each picture is opaque
    and of one background colour, so no part of it shows a shade of its own."""
    table, view = mid_game(spec, seats=min(3, spec.engine.max_seats), seed=11)
    picture = spec.picture(table, view)
    assert picture is not None
    with Image.open(io.BytesIO(picture.draw())) as image:
        rgba = image.convert("RGBA")
    assert rgba.getextrema()[3] == (255, 255), "a pixel is see-through"
    corners = {rgba.getpixel((x, y)) for x in (0, rgba.width - 1) for y in (0, rgba.height - 1)}
    assert len(corners) == 1, corners
    background = corners.pop()
    assert isinstance(background, tuple)
    near = {c: n for n, c in rgba.getcolors(1 << 16) or []
            if c != background and sum(abs(a - b) for a, b in zip(c, background, strict=True)) <= 6}
    # an edge fading into the background passes through such shades; an area is never one
    assert sum(near.values()) < rgba.width * rgba.height / 100, f"areas a shade off the background: {near}"
