"""Pictures read at phone size: every word in every table picture is at least 11 px tall once a
phone shows the picture 400 px wide, a board names each player beside their colour and shape,
and Knucklebones numbers its dice as the buttons do.

A phone shrinks a picture wider than 400 px to fit and shows a narrower one as drawn, so a font
of ``size`` px in a picture ``width`` px wide is ``size * 400 / max(width, 400)`` px tall there.
Every text Pillow draws is recorded (whichever helper draws it), on real engine states taken
from seeded games played by the bots, through the cogs' own ``picture`` and
``details_pages`` hooks, mid-game and at the end.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot import pictures
from bot.models import Seat, Table
from bot.pictures import DIE, GAP, Picture
from cogs.bone_duel.pictures import SIDE_INK, grids_picture
from cogs.rattlebones import pictures as rattlebones_pictures
from cogs.rattlebones.pictures import PLAYER_COLOURS, board_facts, draw_board
from rules.base import Chooser
from rules.rattlebones import ENGINE as RATTLEBONES
from rules.rattlebones import RattlebonesOptions
from tests.fixtures.tables import game_specs, views_every

PHONE_WIDTH = 400
MIN_TEXT_PX = 11
#: long enough to be cut: a picture must shorten a name, never shrink it below the minimum
NAMES = ("Ann", "Bartholomew the Magnificent", "Cy", "Dee", "Eve", "Flo")
#: pictures drawn per game and seat count, spread over the game, plus the end's
SAMPLE = 40
#: a palette PNG shifts a colour by a few steps
TOLERANCE = 12


def phone_px(size: float, width: int) -> float:
    return size * PHONE_WIDTH / max(width, PHONE_WIDTH)


@dataclass(frozen=True)
class Drawn:
    text: str
    size: float
    xy: tuple[float, float]
    anchor: str | None


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[Drawn]:
    """Every text drawn while the test runs, with its font's pixel size. Pictures are drawn
    whole each time (a picture otherwise keeps the parts it drew, words and all)."""
    monkeypatch.setattr(pictures, "_kept_part", pictures._kept_part.__wrapped__)
    for kept in ("_space_tile", "_face_tile"):
        monkeypatch.setattr(rattlebones_pictures, kept, getattr(rattlebones_pictures, kept).__wrapped__)
    record: list[Drawn] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: tuple[float, float], text: Any, fill: Any = None,
             font: Any = None, anchor: str | None = None, *args: Any, **kwargs: Any) -> None:
        size = kwargs.get("font_size") or getattr(font, "size", 10)  # Pillow's own default is 10 px
        record.append(Drawn(str(text), float(size), (float(xy[0]), float(xy[1])), anchor))
        original(self, xy, text, fill, font, anchor, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return record


def decode(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGBA")


def seated(spec: Any, seats: int, seed: int) -> Table:
    return Table(guild_id=1, channel_id=1, game=spec.engine.key, host_id=1, seed=seed, status="active",
                 seats=[Seat(user_id=i + 1, name=NAMES[i]) for i in range(seats)])


def played(spec: Any, seats: int, seed: int) -> Iterator[tuple[Any, Any]]:
    """Every state of a seeded game the bots play to its end, as (state, public view)."""
    engine = spec.engine
    state = engine.new_game(seats, engine.Options(), seed)
    choose = Chooser(random.Random(seed))
    for _ in range(5000):
        yield state, engine.view(state, None)
        if engine.is_over(state):
            return
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, choose))
    raise AssertionError(f"{engine.title} did not end")


def pictures_of_a_game(spec: Any, seats: int, seed: int) -> list[Picture]:
    """The distinct pictures the hooks give through a game: a spread of them, and the end's."""
    table = seated(spec, seats, seed)
    seen: dict[Any, Picture] = {}
    last: list[Picture] = []
    for _, view in played(spec, seats, seed):
        pages = spec.details_pages(table, view, None)
        shown = [spec.picture(table, view), *(page.picture for page in pages)]
        last = [p for p in shown if p is not None]
        for picture in last:
            seen.setdefault((picture.filename, picture.key), picture)
    found = list(seen.values())
    step = max(1, len(found) // SAMPLE)
    return found[::step] + last


def seat_counts(spec: Any) -> list[int]:
    return sorted({max(2, spec.engine.min_seats), spec.engine.max_seats})


@pytest.mark.parametrize("spec", game_specs(), ids=lambda spec: spec.engine.key)
def test_every_word_in_every_picture_reads_on_a_phone(spec: Any, drawn: list[Drawn]) -> None:
    checked = 0
    for seats in seat_counts(spec):
        for picture in pictures_of_a_game(spec, seats, seed=3):
            drawn.clear()
            data = picture.draw()
            width = decode(data).width
            small = [(d.text, d.size) for d in drawn if d.text.strip() and phone_px(d.size, width) < MIN_TEXT_PX]
            assert not small, (
                f"{spec.engine.title} {picture.filename} ({seats} seats) is {width} px wide: these words are under "
                f"{MIN_TEXT_PX} px on a {PHONE_WIDTH} px phone: {small[:6]}")
            assert len(data) < 40_000, f"{picture.filename} is {len(data)} bytes"
            checked += 1
    assert checked, f"{spec.engine.title} showed no picture in a whole game"


# -- Rattlebones: pawns big enough, and each next to its player's name ------------------------


@dataclass(frozen=True)
class Pawn:
    seat: int
    cx: float
    cy: float
    height: float


#: a pawn's height over its radius, by shape (circle, square, diamond, triangle)
PAWN_HEIGHT = {"circle": 2.0, "square": 1.8, "diamond": 2.3, "triangle": 2.16}


@pytest.fixture
def pawns(monkeypatch: pytest.MonkeyPatch) -> list[Pawn]:
    record: list[Pawn] = []
    original = rattlebones_pictures._marker

    def marker(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float, label: str = "") -> None:
        shape = rattlebones_pictures.PLAYER_SHAPES[seat]
        record.append(Pawn(seat, cx, cy, r * PAWN_HEIGHT[shape]))
        original(draw, seat, cx, cy, r, label)

    monkeypatch.setattr(rattlebones_pictures, "_marker", marker)
    return record


def rattlebones_views(board: str, seats: int) -> Iterator[Any]:
    """Views of a seeded game every 40 moves, and its end."""
    return views_every(RATTLEBONES, RattlebonesOptions(board=board), seats, seed=seats)


@pytest.mark.parametrize("board", ["standard14", "compact8"])
@pytest.mark.parametrize("seats", [2, 4])
def test_rattlebones_pawns_and_score_track_read_on_a_phone(board: str, seats: int, drawn: list[Drawn],
                                                           pawns: list[Pawn]) -> None:
    for view in rattlebones_views(board, seats):
        drawn.clear()
        pawns.clear()
        width = decode(draw_board(board_facts(view))).width
        assert pawns, "no pawn drawn"
        tiny = [p for p in pawns if phone_px(p.height, width) < MIN_TEXT_PX]
        assert not tiny, f"pawns under {MIN_TEXT_PX} px on a phone: {tiny[:4]}"
        scores = {str(p.score) for p in view.players} | {str(view.rattlebones)}
        numbers = [d for d in drawn if d.text in scores]
        assert numbers and all(phone_px(d.size, width) >= MIN_TEXT_PX for d in numbers)


def colour_near(image: Image.Image, colour: tuple[int, int, int], xs: range, y: float) -> bool:
    return any(all(abs(a - b) <= TOLERANCE for a, b in zip(image.getpixel((x, round(y)))[:3], colour, strict=True))
               for x in xs if 0 <= x < image.width)


def shown_as(name: str, texts: list[Drawn]) -> Drawn:
    """The text that draws ``name``, whole or cut with an ellipsis."""
    for d in texts:
        if d.text == name or d.text.endswith("…") and name.startswith(d.text[:-1]) and len(d.text) > 3:
            return d
    raise AssertionError(f"{name!r} is not drawn: {[d.text for d in texts]}")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_rattlebones_board_names_each_player_beside_their_pawn(seats: int, drawn: list[Drawn],
                                                               pawns: list[Pawn]) -> None:
    view = next(rattlebones_views("standard14", seats))
    image = decode(draw_board(board_facts(view, NAMES[:seats])))
    for seat in range(seats):
        name = shown_as(NAMES[seat], drawn)
        assert phone_px(name.size, image.width) >= MIN_TEXT_PX
        x, y = name.xy
        beside = [p for p in pawns if p.seat == seat and abs(p.cy - y) < p.height / 2 and 0 < x - p.cx < 60]
        assert beside, f"no pawn of seat {seat + 1} just left of {name.text!r}"
        assert colour_near(image, PLAYER_COLOURS[seat], range(int(beside[0].cx) - 3, int(beside[0].cx) + 4), y)


def test_bone_duel_names_each_side_beside_its_colour(drawn: list[Drawn]) -> None:
    spec = next(s for s in game_specs() if s.engine.key == "bone_duel")
    _, view = list(played(spec, 2, seed=5))[6]
    names = ("Ann", "Bartholomew the Magnificent")
    image = decode(grids_picture(view, "", names).draw())
    for seat in (0, 1):
        name = shown_as(names[seat], drawn)
        assert phone_px(name.size, image.width) >= MIN_TEXT_PX
        x, y = name.xy
        # the first player's disc is left of their name, the second's right of it
        outside = range(int(x) - 40, int(x)) if seat == 0 else range(int(x), int(x) + 40)
        assert colour_near(image, SIDE_INK[seat], outside, y), f"no {SIDE_INK[seat]} disc beside {name.text!r}"
    assert grids_picture(view, "", names).key != grids_picture(view, "").key  # names are part of the key


# -- Knucklebones: a die's number under it, the same one the buttons name ----------------------


def test_knucklebones_labels_each_die_with_the_number_its_button_uses(drawn: list[Drawn]) -> None:
    spec = next(s for s in game_specs() if s.engine.key == "knucklebones")
    engine = spec.engine
    table = seated(spec, 3, 7)
    buttons_checked = 0
    out_of_order = 0
    for seed in range(4):
        for state, view in played(spec, 3, seed):
            picture = spec.picture(table, view)
            if picture is None:
                continue
            drawn.clear()
            width = decode(picture.draw()).width
            # the dice left to right, each (number under it, face in its corner): each die's cell
            # is drawn in turn (at the strip's first place, then moved to its own), its corner
            # before its caption
            cells: list[tuple[int, int | None]] = []
            corner = None
            for d in drawn:
                number = re.fullmatch(r"die (\d)", d.text)
                if number:
                    assert phone_px(d.size, width) >= 14, "a die's number must stand out"
                    cells.append((int(number.group(1)), corner))
                    corner = None
                elif d.anchor == "rs" and d.text.isdigit():
                    corner = int(d.text)
            assert width == len(cells[:7]) * (DIE + GAP) + GAP, "a die drawn for each place of the strip"
            faces = dict(cells)
            assert sorted(faces) == sorted(d.number for d in view.dice), "every die carries its number"
            for die in view.dice:
                if die.face is not None and die.active:
                    assert faces[die.number] == die.face, f"die {die.number} shows {die.face}"
            out_of_order += [n for n, _ in cells] != sorted(faces)
            for seat in engine.to_act(state):
                for action in engine.legal_actions(state, seat):
                    if action.kind in ("reroll", "double"):
                        said = re.search(r"die (\d) \((\d)\)", spec.action_label(view, action))
                        assert said is not None
                        assert faces[int(said.group(1))] == int(said.group(2)), spec.action_label(view, action)
                        buttons_checked += 1
    assert buttons_checked > 5 and out_of_order > 0, "the games never showed a reroll, double or reordering"
