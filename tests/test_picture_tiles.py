"""A dice strip drawn from kept tiles and cells is, to the pixel, the strip drawn die by die.

bot/pictures.py keeps each die's body as a tile and each word's bitmap in its font, and each die
as its cell of the strip, drawn at the strip's first place and quantized on its own, and puts
strips together from those. The reference here draws as it did before anything was kept: every
die drawn straight onto a canvas, fonts as Pillow loads them (a copy of the code tiles changed,
left as it was: when the look changes on purpose, change it here the same way). Each die is
drawn alone at the first place, cut to its cell and quantized as the strip quantizes it (which
only holds if no die reaches outside its cell, so that is checked too), and moved to its own; a
strip too big to share a palette is drawn whole, each die in place. The two are compared on
decoded pixels, for generated strips (every shape and mark, long captions cut short, rows wrapping,
caption fonts, the empty strip) and for every game's own pictures through whole played games,
drawn once as they are and once with the reference's helpers in their place.
"""

from __future__ import annotations

import importlib
import io
import random
import sys
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFont

from bot import pictures
from bot.models import Seat, Table
from bot.pictures import BACKGROUND, CAPTION, CAPTION_FONT, DIE, DIM, GAP, INK, RGB, DieFace, Picture, dice_strip
from cogs.bone_duel import pictures as bone_duel_pictures
from cogs.dice.pictures import d20_chart, dice_of, dice_picture, row_length
from cogs.knucklebones.pictures import RUNE_STROKES
from rules.base import Chooser
from rules.notation import roll
from tests.fixtures.tables import game_specs

# -- the reference: the strip as drawn before tiles -------------------------------------------

# what tiles left as it was (a die's outline, its faded colours, the encoding) is shared
ref_outline, ref_faded, ref_png = pictures._outline, pictures._faded, pictures.png


@lru_cache(maxsize=32)
def ref_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def ref_fit_text(text: str, width: float, size: int) -> str:
    face = ref_font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def ref_draw_die(draw: ImageDraw.ImageDraw, die: DieFace, x: int, y: int, size: int) -> None:
    fill, ink = ref_faded(die.fill, die.dim), ref_faded(die.ink, die.dim)
    outline = die.ring or (ink if die.dim else (20, 20, 20))
    width = 6 if die.ring else 3
    polygon = ref_outline(die.shape, x, y, size)
    if die.shape == "round":
        draw.ellipse((x + 4, y + 4, x + size - 4, y + size - 4), fill=fill, outline=outline, width=width)
    elif polygon is not None:
        draw.polygon(polygon, fill=fill, outline=outline, width=width)
    else:
        draw.rounded_rectangle((x + 4, y + 4, x + size - 4, y + size - 4), radius=size // 7, fill=fill,
                               outline=outline, width=width)
    if die.strokes:
        span = size * 0.48
        left, top = (size * 0.2, size * 0.18) if die.corner else (size * 0.26, size * 0.26)
        for line in die.strokes:
            points = [(x + left + px * span, y + top + py * span) for px, py in line]
            draw.line(points, fill=ink, width=max(5, size // 14), joint="curve")
    if die.text:
        big = size // 2 if len(die.text) <= 2 else size // 3
        anchor_y = y + size / 2 + (size * 0.06 if die.shape == "d4" else 0)
        draw.text((x + size / 2, anchor_y), die.text, font=ref_font(big), fill=ink, anchor="mm")
    if die.corner:
        draw.text((x + size - 12, y + size - 8), die.corner, font=ref_font(size // 3), fill=ink, anchor="rs")
    if die.badge:
        r = size // 5
        bx, by = x + size - r, y + r
        draw.ellipse((bx - r, by - r, bx + r, by + r), fill=(250, 166, 26), outline=(20, 20, 20), width=2)
        draw.text((bx, by), die.badge, font=ref_font(int(r * 1.4)), fill=(20, 20, 20), anchor="mm")
    if die.struck:
        draw.line((x + 10, y + 10, x + size - 10, y + size - 10), fill=(237, 66, 69), width=9)
        draw.line((x + size - 10, y + 10, x + 10, y + size - 10), fill=(237, 66, 69), width=9)


def ref_draw_caption(draw: ImageDraw.ImageDraw, die: DieFace, centre: float, top: float,
                     size: int = CAPTION_FONT) -> None:
    draw.text((centre, top), ref_fit_text(die.caption, DIE + GAP - 4, size), font=ref_font(size),
              fill=DIM if die.dim else INK, anchor="ma")


def ref_dice_strip(dice: Sequence[DieFace], *, per_row: int = 6, caption_font: int = CAPTION_FONT) -> bytes:
    rows = max(1, -(-len(dice) // per_row))
    across = min(max(1, len(dice)), per_row)
    has_caption = any(d.caption for d in dice)
    cell_h = DIE + (CAPTION + caption_font - CAPTION_FONT if has_caption else 0)
    width = across * DIE + (across + 1) * GAP
    height = rows * cell_h + (rows + 1) * GAP
    image = Image.new("RGBA", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    places = []
    for index, die in enumerate(dice):
        row, col = divmod(index, per_row)
        x = GAP + col * (DIE + GAP)
        y = GAP + row * (cell_h + GAP)
        places.append((x, y))
        ref_draw_die(draw, die, x, y, DIE)
        if die.caption:
            ref_draw_caption(draw, die, x + DIE / 2, y + DIE + 4, caption_font)
    colours = pictures.part_colours(len(dice))
    if colours is None:
        return ref_png(image)
    # each die drawn alone at the first place, cut to its cell and moved to its own, each cell
    # quantized as the strip quantizes it: the same pixels only if no die reaches outside its
    # cell, and the cells hold everything
    home = pictures.cell_box(GAP, GAP, cell_h)
    cells = []
    for die, (x, y) in zip(dice, places, strict=True):
        alone = Image.new("RGBA", (home[2] + GAP, home[3] + GAP), BACKGROUND)
        ref_draw_die(ImageDraw.Draw(alone), die, GAP, GAP, DIE)
        if die.caption:
            ref_draw_caption(ImageDraw.Draw(alone), die, GAP + DIE / 2, GAP + DIE + 4, caption_font)
        cell = alone.crop(home)
        alone.paste(BACKGROUND, home)
        assert alone.tobytes() == Image.new("RGBA", alone.size, BACKGROUND).tobytes(), f"{die} drawn outside its cell"
        cells.append(pictures.quantized_part(cell, colours, pictures.cell_box(x, y, cell_h)[:2]))
    return pictures.parts_png((width, height), cells)


#: bot/pictures.py's helpers the games import, and the reference's in their place
REFERENCE: dict[str, Callable[..., Any]] = {
    "dice_strip": ref_dice_strip, "draw_die": ref_draw_die, "draw_caption": ref_draw_caption,
    "fit_text": ref_fit_text, "font": ref_font, "png": ref_png,
}


def pixels(data: bytes) -> tuple[tuple[int, int], bytes]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size, image.convert("RGBA").tobytes()


def assert_same(new: bytes, old: bytes, what: object) -> None:
    (size, got), (old_size, want) = pixels(new), pixels(old)
    assert size == old_size, f"{what}: {size} px, was {old_size}"
    if got != want:
        differ = [i // 4 for i in range(0, len(want), 4) if got[i:i + 4] != want[i:i + 4]]
        where = [(i % size[0], i // size[0]) for i in differ[:5]]
        raise AssertionError(f"{what}: {len(differ)} pixels differ, first at {where}")


# -- generated strips --------------------------------------------------------------------------

SHAPES = ("square", "round", "d4", "d6", "d8", "d10", "d12", "d20")
COLOURS: tuple[RGB, ...] = ((236, 230, 214), (236, 228, 208), (30, 30, 30), (250, 166, 26), (237, 66, 69),
                            (88, 101, 242), (255, 255, 255), (0, 0, 0))
CAPTIONS = ("", "d20", "d100", "die 3", "x2", "Ann", "gjpqy", "Bartholomew the Magnificent", "W" * 12, "ÅÉ gj")
TEXTS = ("", "1", "6", "20", "100", "new", "W")
CAPTION_FONTS = (CAPTION_FONT, 36, 24, 44)

unit = st.floats(min_value=0, max_value=1, allow_nan=False)
strokes = st.one_of(
    st.sampled_from([(), *RUNE_STROKES.values()]),
    st.lists(st.lists(st.tuples(unit, unit), min_size=2, max_size=5).map(tuple),
             min_size=1, max_size=3).map(tuple),
)
faces = st.builds(
    DieFace,
    text=st.sampled_from(TEXTS),
    fill=st.sampled_from(COLOURS),
    ink=st.sampled_from(COLOURS),
    shape=st.sampled_from(SHAPES),
    caption=st.sampled_from(CAPTIONS),
    strokes=strokes,
    corner=st.sampled_from(("", "1", "6", "12")),
    struck=st.booleans(),
    dim=st.booleans(),
    badge=st.sampled_from(("", "x2", "x3", "×4")),
    ring=st.one_of(st.none(), st.sampled_from(COLOURS)),
)


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(dice=st.lists(faces, max_size=15), per_row=st.integers(1, 8), caption_font=st.sampled_from(CAPTION_FONTS))
def test_a_generated_strip_is_the_strip_drawn_die_by_die(dice: list[DieFace], per_row: int, caption_font: int) -> None:
    new = dice_strip(dice, per_row=per_row, caption_font=caption_font)
    old = ref_dice_strip(dice, per_row=per_row, caption_font=caption_font)
    assert_same(new, old, (dice, per_row, caption_font))


def every_kind_of_die() -> list[DieFace]:
    """Every shape with each mark alone and all of them together, plain and with a caption."""
    marks: list[dict[str, Any]] = [
        {}, {"dim": True}, {"struck": True, "dim": True}, {"badge": "x2"}, {"ring": (250, 166, 26)},
        {"corner": "4", "strokes": RUNE_STROKES[4]}, {"strokes": RUNE_STROKES[2]}, {"text": "20"}, {"text": "100"},
        {"text": "7", "corner": "3", "badge": "x3", "ring": (237, 66, 69), "struck": True, "dim": True,
         "strokes": RUNE_STROKES[3]},
    ]
    found = []
    for shape in SHAPES:
        for mark in marks:
            for caption in ("", "Bartholomew the Magnificent"):
                found.append(DieFace(**{"text": "5", "shape": shape, "caption": caption, **mark}))
    return found


@pytest.mark.parametrize("per_row", [7, 6, 5])
def test_every_kind_of_die_at_every_place_is_the_die_drawn_alone(per_row: int) -> None:
    dice = every_kind_of_die()
    # shifted by one each strip, so every die is drawn in every column of a strip of two rows
    for shift in range(per_row):
        turned = dice[shift:] + dice[:shift]
        for start in range(0, len(turned), 2 * per_row):
            strip = turned[start:start + 2 * per_row]
            assert_same(dice_strip(strip, per_row=per_row), ref_dice_strip(strip, per_row=per_row),
                        (per_row, shift, start))


def test_a_strip_drawn_again_from_its_tiles_is_the_same() -> None:
    dice = [DieFace("6", shape="d20", caption="d20"), DieFace("", strokes=RUNE_STROKES[5], corner="5", badge="x2")]
    first = dice_strip(dice, per_row=2)
    assert pictures._tile.cache_info().currsize > 0  # the bodies were kept
    assert_same(dice_strip(dice, per_row=2), first, "again")
    assert_same(first, ref_dice_strip(dice, per_row=2), "reference")


def test_the_empty_strip_and_the_caches_are_bounded() -> None:
    assert_same(dice_strip([]), ref_dice_strip([]), "empty")
    assert_same(dice_strip([], per_row=3, caption_font=44), ref_dice_strip([], per_row=3, caption_font=44), "empty")
    for cache in (pictures._tile, pictures._kept_part, pictures._bitmap, pictures.fit_text):
        assert cache.cache_info().maxsize is not None, cache


def test_kept_bitmaps_draw_words_as_pillow_does() -> None:
    """Words drawn by any game with the shared fonts, where a game puts them: at fractional
    places, every anchor, a colour font's mode and a stroke (which are never kept)."""
    for size in (11, 24, 30, 40, 60):
        for anchor in ("la", "mm", "rs", "ma", "ls"):
            for x, y in ((10, 10), (10.5, 20.25), (33.7, 7.9)):
                for extra in ({}, {"stroke_width": 2, "stroke_fill": (0, 0, 0)}, {"embedded_color": True}):
                    images = []
                    for face in (pictures.font(size), ref_font(size)):
                        image = Image.new("RGBA", (300, 120), BACKGROUND)
                        ImageDraw.Draw(image).text((x + 100, y + 40), "die 3 Åg…×", font=face, fill=INK,
                                                   anchor=anchor, **extra)
                        images.append(image.tobytes())
                    assert images[0] == images[1], (size, anchor, x, y, extra)
    assert pictures.fit_text("Bartholomew the Magnificent", 130, 30) == ref_fit_text("Bartholomew the Magnificent",
                                                                                     130, 30)


# -- every game's own pictures -----------------------------------------------------------------

NAMES = ("Ann", "Bartholomew the Magnificent", "Cy", "Dee", "Eve", "Flo")
#: pictures compared per game and seat count, spread over a game, plus the end's
SAMPLE = 30


#: every game's picture module: cogs/*/pictures.py
GAME_PICTURES = sorted(f"cogs.{path.parent.name}.pictures"
                       for path in Path(__file__).resolve().parent.parent.glob("cogs/*/pictures.py"))


def picture_modules() -> list[Any]:
    """Every game's picture module, and whatever else of cogs is loaded."""
    for name in GAME_PICTURES:
        importlib.import_module(name)
    return [module for name, module in sorted(sys.modules.items()) if name.startswith("cogs.") and module]


@contextmanager
def drawn_as_before(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The games' pictures drawn with the reference's helpers wherever they import bot's, every
    part drawn afresh (none of those the pictures kept while drawn as they are)."""
    with monkeypatch.context() as patch:
        patch.setattr(pictures, "_kept_part", pictures._kept_part.__wrapped__)
        patched = set()
        for module in picture_modules():
            for name, old in REFERENCE.items():
                if getattr(module, name, None) is getattr(pictures, name):
                    patch.setattr(module, name, old)
                    patched.add(module.__name__)
        assert len(GAME_PICTURES) >= 7 and set(GAME_PICTURES) <= patched, set(GAME_PICTURES) - patched
        yield


def assert_drawn_as_before(monkeypatch: pytest.MonkeyPatch, shown: list[Picture]) -> None:
    assert shown
    new = [picture.draw() for picture in shown]
    with drawn_as_before(monkeypatch):
        old = [picture.draw() for picture in shown]
    for picture, now, then in zip(shown, new, old, strict=True):
        assert_same(now, then, (picture.filename, picture.key))


def played_pictures(spec: Any, seats: int, seed: int, sample: int) -> list[Picture]:
    """The distinct pictures of a seeded game the bots play to its end (the table's, and the
    Details pages', as everyone and as the first seat see them): a spread of them, and the end's."""
    engine = spec.engine
    table = Table(guild_id=1, channel_id=1, game=engine.key, host_id=1, seed=seed, status="active",
                  seats=[Seat(user_id=i + 1, name=NAMES[i]) for i in range(seats)])
    state = engine.new_game(seats, engine.Options(), seed)
    choose = Chooser(random.Random(seed))
    seen: dict[Hashable, Picture] = {}
    last: list[Picture] = []
    for _ in range(5000):
        last = []
        for seat in (None, 0):
            view = engine.view(state, seat)
            shown = [spec.picture(table, view), *(page.picture for page in spec.details_pages(table, view, seat))]
            last += [p for p in shown if p is not None]
        for picture in last:
            seen.setdefault((picture.filename, picture.key), picture)
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, choose))
    found = list(seen.values())
    step = max(1, len(found) // sample)
    return found[::step] + last


@pytest.mark.parametrize("spec", game_specs(), ids=lambda spec: spec.engine.key)
def test_every_games_pictures_are_drawn_as_before(spec: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = spec.engine
    for seats in sorted({max(2, engine.min_seats), engine.max_seats}):
        assert_drawn_as_before(monkeypatch, played_pictures(spec, seats, seed=5, sample=SAMPLE))


def test_every_knucklebones_picture_of_whole_games_is_drawn_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = next(s for s in game_specs() if s.engine.key == "knucklebones")
    for seed in range(3):
        assert_drawn_as_before(monkeypatch, played_pictures(spec, 3, seed, sample=10_000))


def test_the_roll_pictures_are_drawn_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(2)
    shown = [d20_chart({face: rng.randrange(9) for face in range(1, 21)}), d20_chart({})]
    for expression in ("1d20", "1d20 adv", "1d20 dis", "1d20+1d4", "4d6kh3", "12d6", "2d4+2d6+2d8+2d10+2d12+2d20",
                       "1d100+1d10000", "3d6"):
        for _ in range(4):
            series = roll(expression, rng=rng)
            shown.append(dice_picture(dice_of(series), row_length(series) or 6))
        twice = roll(expression, repeat=2, rng=rng)
        shown.append(dice_picture(dice_of(twice), row_length(twice) or 6))
    assert_drawn_as_before(monkeypatch, shown)


def test_a_bone_duel_picture_is_its_parts_drawn_on_one_canvas() -> None:
    """Its parts tile the picture, and each drawn alone (a side in the first lane, moved to its
    own) is that part of the whole drawn at once, every side in its own lane: so no part draws
    outside its box, a side looks the same in every lane, and the kept parts make the picture
    it always was."""
    bd = bone_duel_pictures
    spec = next(s for s in game_specs() if s.engine.key == "bone_duel")
    shown = played_pictures(spec, 2, seed=3, sample=10_000) + played_pictures(spec, 2, seed=8, sample=40)
    for picture in shown:
        key = picture.key[1]
        parts = bd.parts(key)
        boxes = [(x, y, x + right - left, y + bottom - top) for _, _, (left, top, right, bottom), (x, y) in parts]
        area = Image.new("L", (bd.WIDTH, bd.HEIGHT), 0)
        for box in boxes:
            assert area.crop(box).getextrema() == (0, 0), f"{box} overlaps another part"
            area.paste(255, box)
        assert area.getextrema() == (255, 255), "the parts leave a gap"
        whole = Image.new("RGBA", area.size, BACKGROUND)
        pen = ImageDraw.Draw(whole)
        for draw, args, _, (_, y) in parts:
            if draw is bd._side:  # in its own lane
                seat, _, lane_key = args
                args = (seat, (y - bd.HEAD) // (bd.DIE + bd.GAP), lane_key)
            draw(whole, pen, *args)
        colours = pictures.part_colours(len(parts))
        assert colours is not None
        cut = pictures.parts_png(area.size, [pictures.quantized_part(whole.crop(box), colours, box[:2]) for box in boxes])
        assert_same(picture.draw(), cut, key)
