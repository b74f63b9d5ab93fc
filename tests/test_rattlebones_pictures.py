"""Rattlebones pictures: valid PNGs of a fixed size for every board and seat count, drawn only
from what they show, and golden pictures compared by a hash of their pixels.

A drawing change fails the golden test on purpose: look at the new picture, and if it is
right, rewrite the goldens with ``RATTLEBONES_GOLDEN=update`` (the PNGs under tests/golden/
then show the change in review)."""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageStat

from cogs.rattlebones import pictures

from cogs.rattlebones.pictures import (
    board_facts,
    board_png,
    board_size,
    dice_facts,
    dice_png,
    dice_size,
    draw_board,
    ring_cells,
)
from rules.rattlebones.board import SIDE_KINDS, SPACE_KINDS
from rules.rattlebones import ENGINE, RattlebonesOptions, RattlebonesState, RattlebonesView
from tests.fixtures.tables import views_every

GOLDEN = Path(__file__).resolve().parent / "golden"
#: sha256 of the decoded RGBA pixels of the golden pictures below
BOARD_SHA = "498a75d8f2b3b4564d905b8d8d8624e0799d48e54da6849548c6e807682299b2"
DICE_SHA = "f03cbf8732ab8ec183011041be597b1eca86b4ea15e0dceb9b7320a92d99817e"


def pixels_sha(png: bytes) -> str:
    with Image.open(io.BytesIO(png)) as image:
        return hashlib.sha256(image.convert("RGBA").tobytes()).hexdigest()


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def golden_state() -> RattlebonesState:
    """A 3-player standard14 game mid-race: every kind of side on a die, monkeys spread and
    stacked, the train on 3, scores apart and tied."""
    state = ENGINE.new_game(3, RattlebonesOptions(), seed=2024)
    state.current = 1
    state.players[0].monkeys = [0, 0, 5]
    state.players[1].monkeys = [5, 9, 13]
    state.players[2].monkeys = [9, 9, 9]
    for seat, score in enumerate([23, 31, 23]):
        state.players[seat].score = score
    state.rattlebones = 47
    state.train = 3
    state.players[1].dice = [
        ["rb", "pip:2", "points:3", "x2", "arrow:0", "pip:6"],
        ["rb", "gold", "star", "roll_again", "train", "nine_pip"],
        ["rb", "thief", "place", "stock", "gamble", "points:5"],
    ]
    return state


def test_board_picture_is_a_fixed_size_for_every_board_and_seat_count() -> None:
    sizes = {}
    for board in ("standard14", "compact8"):
        for seats in (2, 3, 4):
            state = ENGINE.new_game(seats, RattlebonesOptions(board=board), seed=seats)
            view = ENGINE.view(state, None)
            image = decode(board_png(view))
            assert image.format == "PNG"
            sizes.setdefault(board, set()).add(image.size)
            assert image.size == board_size(len(view.spaces))
    assert sizes == {"standard14": {(800, 910)}, "compact8": {(800, 912)}}


def test_dice_picture_is_a_fixed_size_for_every_seat() -> None:
    for seats in (2, 3, 4):
        view = ENGINE.view(ENGINE.new_game(seats, RattlebonesOptions(), seed=1), None)
        for seat in range(seats):
            image = decode(dice_png(view, seat))
            assert image.size == dice_size() == (800, 452)
    assert dice_size(offer=True) == (800, 574)  # a row more: the side on offer


def test_a_custom_board_lays_its_loop_out_round_the_edge() -> None:
    for n in range(4, 21):
        cells = ring_cells(n)
        assert len(cells) == len(set(cells)) == n and cells[0] == (0, 0)
    spaces = ("start", "gold", "tile", "star", "tile", "x2", "plus_one", "tile", "train", "arrow")
    state = ENGINE.new_game(2, RattlebonesOptions(board="custom", custom_spaces=spaces), seed=3)
    image = decode(board_png(ENGINE.view(state, None)))
    assert image.size == board_size(10)


def test_pictures_are_drawn_from_what_they_show_only() -> None:
    state = golden_state()
    view = ENGINE.view(state, None)
    assert board_png(view) == draw_board(board_facts(view))
    moved = state.model_copy(deep=True)
    moved.players[0].monkeys = [1, 0, 5]
    assert board_facts(ENGINE.view(moved, None)) != board_facts(view)
    assert board_png(ENGINE.view(moved, None)) != board_png(view)
    other_turn = state.model_copy(deep=True)
    other_turn.turn = 40  # not drawn: the same picture, the same cache key
    assert board_facts(ENGINE.view(other_turn, None)) == board_facts(view)


def test_the_die_being_changed_is_in_focus() -> None:
    state = golden_state()
    state.players[1].dice[0] = ["rb", "pip:2", "pip:3", "pip:4", "pip:5", "pip:6"]
    state.players[1].monkeys = [0, 9, 13]
    state.dice.forced = [2]  # die 1 shows 2 pips: monkey on 0 -> space 2 (Gold)
    state, _ = ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0])
    state, _ = ENGINE.apply(state, 1, next(a for a in ENGINE.legal_actions(state, 1) if a.monkey == 0))
    assert state.phase == "replace"
    view = ENGINE.view(state, None)
    seat, name, _, focus, ringed, offer, slot = dice_facts(view, 1, "Bob")
    assert (seat, name, focus, ringed, offer, slot) == (1, "Bob", 0, ((0, 1),), "gold", None)
    assert dice_facts(view, 0)[3:] == (None, (), None, None)  # not their turn: nothing in focus
    assert dice_facts(view, 0)[1] == "Seat 1"  # named as the engine names seats, without a name
    assert dice_png(view, 1) != dice_png(ENGINE.view(golden_state(), None), 1)
    image = decode(dice_png(view, 1))
    assert image.size == dice_size(offer=True)  # the Gold side on offer is drawn under the dice


def _golden(name: str, png: bytes, expected: str) -> None:
    path = GOLDEN / name
    if os.environ.get("RATTLEBONES_GOLDEN") == "update":
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
        pytest.skip(f"wrote {path}: put {pixels_sha(png)} in the test")
    assert pixels_sha(path.read_bytes()) == expected, f"{name} on disk is not the golden picture"
    assert pixels_sha(png) == expected, (
        f"{name} drew differently: look at it, then RATTLEBONES_GOLDEN=update if it is right")


def test_golden_board_picture() -> None:
    view: RattlebonesView = ENGINE.view(golden_state(), None)
    _golden("rattlebones_board.png", board_png(view), BOARD_SHA)


def test_golden_dice_picture() -> None:
    view = ENGINE.view(golden_state(), None)
    _golden("rattlebones_dice.png", dice_png(view, 1), DICE_SHA)


def test_pictures_stay_small() -> None:
    state = golden_state()
    view = ENGINE.view(state, None)
    assert len(board_png(view)) < 60_000 and len(dice_png(view, 1)) < 40_000


def drawn_in_full_colour(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Image.Image, Image.Image]]:
    """Pictures of two seeded games (2 and 4 seats), boards and the acting player's dice: as
    drawn, and as png() maps them."""
    drawn: list[Image.Image] = []
    write = pictures.png
    monkeypatch.setattr(pictures, "png", lambda image, palette=None: drawn.append(image) or write(image, palette))
    for seats in (2, 4):
        for view in views_every(ENGINE, RattlebonesOptions(), seats, seed=seats):
            for draw in (lambda: board_png(view), lambda: dice_png(view, view.current_seat or 0)):
                png = draw()
                yield drawn[-1], decode(png).convert("RGB")


def test_every_colour_drawn_is_in_the_palette(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pictures are mapped to PALETTE, not given a palette of their own: a colour that
    fills a shape (a pixel whose every neighbour has its colour) must be one of its colours,
    which Pillow's mapping may move by a few units, or a new colour was drawn and not added;
    and the edges must stay close to what was drawn."""
    seen = 0
    for full, mapped in drawn_in_full_colour(monkeypatch):
        spread = ImageChops.difference(full.filter(ImageFilter.MinFilter(3)), full.filter(ImageFilter.MaxFilter(3)))
        red, green, blue = spread.split()
        filled = Image.new("RGB", full.size, (1, 2, 3))
        filled.paste(full, mask=ImageChops.lighter(ImageChops.lighter(red, green), blue).point(
            lambda v: 255 if v == 0 else 0))
        for _, colour in filled.getcolors(1 << 16) or ():
            if colour != (1, 2, 3):
                one = Image.new("RGB", (1, 1), colour).quantize(palette=pictures.PALETTE, dither=Image.Dither.NONE)
                moved = max(abs(a - b) for a, b in zip(colour, one.convert("RGB").getpixel((0, 0)), strict=True))
                assert moved <= 4, f"{colour} fills a shape but is not in the palette"
        assert sum(ImageStat.Stat(ImageChops.difference(full, mapped)).mean) / 3 < 0.25
        seen += 1
    assert seen >= 10


def kept_is_drawn_in_place(size: tuple[int, int], box: tuple[int, int, int, int], kept: Image.Image,
                           draw: Callable[[ImageDraw.ImageDraw], None]) -> None:
    """A kept tile pasted at ``box`` is, to the pixel, the drawing made in place on the
    background, and that drawing reaches nothing outside ``box``."""
    in_place = Image.new("RGB", size, pictures.BACKGROUND)
    draw(ImageDraw.Draw(in_place))
    pasted = Image.new("RGB", size, pictures.BACKGROUND)
    pasted.paste(kept, box[:2])
    assert pasted.tobytes() == in_place.tobytes()
    outside = in_place.copy()
    outside.paste(pictures.BACKGROUND, box)
    assert outside.getcolors() == [(size[0] * size[1], pictures.BACKGROUND)]


@pytest.mark.parametrize("spaces", [14, 8])
def test_a_space_kept_is_the_space_drawn_in_place(spaces: int) -> None:
    """Boards paste their spaces from tiles (``_space_tile``), then draw the pawns: every kind
    of space, at every place of both boards' loops, for each room its words make for pawns."""
    size, cell = board_size(spaces), pictures.cell_size(spaces)
    cols, rows = pictures.ring_shape(spaces)
    x0 = (size[0] - (cols * cell + (cols - 1) * pictures.GAP)) // 2
    for index, (col, row) in enumerate(ring_cells(spaces)):
        x, y = x0 + col * (cell + pictures.GAP), pictures.MARGIN + row * (cell + pictures.GAP)
        for kind in SPACE_KINDS[index % len(SPACE_KINDS):][:4]:
            for pawn_rows in (0, 1, 2):
                kept_is_drawn_in_place(size, (x, y, x + cell + 1, y + cell + 1),
                                       pictures._space_tile.__wrapped__(kind, index, x, y, cell, pawn_rows),
                                       lambda draw: pictures.draw_space(draw, kind, index, x, y, cell, pawn_rows))


def test_a_side_kept_is_the_side_drawn_in_place() -> None:
    """Dice pictures paste their sides from tiles (``_face_tile``), one per kind of side however
    many places show it: every kind, ringed or not, pasted in the corner of the picture and in
    the middle of it is the side drawn there."""
    faces = ["rb", "arrow", *(f"pip:{n}" for n in range(2, 7)), *(f"points:{n}" for n in (1, 5, 10)),
             *(f"arrow:{to}" for to in range(6)), *(k for k in SIDE_KINDS if k not in ("points", "arrow"))]
    size = dice_size(offer=True)
    for face in faces:
        for x, y in ((0, 0), (363, 201)):
            for ring in (False, True):
                kept_is_drawn_in_place(size, (x, y, x + pictures.FACE + 1, y + pictures.FACE + 1),
                                       pictures._face_tile.__wrapped__(face, pictures.FACE, ring),
                                       lambda draw: pictures.draw_face(draw, face, x, y, pictures.FACE, ring))


def test_no_space_or_side_reads_as_a_bare_number() -> None:
    """Review rbx call 52: the 9-Pip drawn as "9" read as one more space number beside the
    spaces' numbers. Only 1234, the tile's own name in the rulebook, is all digits."""
    for kind, words in pictures.KIND_WORDS.items():
        assert kind == "place" or not words.replace("\n", "").isdigit(), (kind, words)
    assert pictures.KIND_WORDS["nine_pip"] == "9-PIP"
