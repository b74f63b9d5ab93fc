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
