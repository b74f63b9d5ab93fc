"""bot.pictures.png writes its PNG files itself (the rows deflated by ISA-L): every kind of
picture it is given must read back through Pillow as the very pixels it was given."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageDraw

from bot import pictures


def read(data: bytes) -> Image.Image:
    checked = Image.open(io.BytesIO(data))
    checked.verify()  # every chunk's CRC and the stream's end
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def quantized(image: Image.Image) -> Image.Image:
    """What png() turns a full-colour picture into before writing it: its palette worked out,
    and the entry nearest the background made exactly the background."""
    shown = image.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    shown.putpalette(pictures._background_kept(bytes(shown.getpalette(rawmode="RGBA") or ())), rawmode="RGBA")
    return shown


def scene(mode: str, size: tuple[int, int], seed: int) -> Image.Image:
    """Dice-like shapes on a transparent (RGBA) or flat (RGB) background, some half-transparent."""
    rng = random.Random(seed)
    image = Image.new(mode, size, pictures.BACKGROUND if mode == "RGBA" else (43, 45, 49))
    draw = ImageDraw.Draw(image)
    for _ in range(12):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.choice((255, 255, 128)))
        draw.rounded_rectangle((x, y, x + rng.randrange(5, 60), y + rng.randrange(5, 60)), radius=6,
                               fill=colour if mode == "RGBA" else colour[:3], outline=pictures.INK)
    draw.text((4, 4), "Knucklebones", fill=pictures.INK, font=pictures.font(14))
    return image


@pytest.mark.parametrize("mode", ["RGBA", "RGB"])
@pytest.mark.parametrize("size", [(952, 194), (801, 3), (1, 1), (37, 90)])
def test_a_full_colour_picture_reads_back_as_its_palette_picture(mode: str, size: tuple[int, int]) -> None:
    image = scene(mode, size, seed=size[0])
    shown = read(pictures.png(image))
    assert shown.size == size and shown.mode == "P"
    assert shown.convert("RGBA").tobytes() == quantized(image).convert("RGBA").tobytes()


def test_a_picture_of_parts_reads_back_pixel_for_pixel() -> None:
    whole = scene("RGBA", (400, 120), seed=3)
    parts = [pictures.quantized_part(whole.crop(box), 64, box[:2])
             for box in ((0, 0, 200, 120), (200, 0, 400, 120))]
    data = pictures.parts_png((400, 120), parts)
    expected = Image.new("RGBA", (400, 120), pictures.BACKGROUND)
    for indices, palette, (x, y, width, height) in parts:
        part = Image.frombytes("P", (width, height), indices)
        part.putpalette(palette, rawmode="RGBA")
        expected.paste(part.convert("RGBA"), (x, y))
    assert read(data).convert("RGBA").tobytes() == expected.tobytes()


@pytest.mark.parametrize("width", [1, 2, 3, 7, 8, 33])
def test_few_colours_are_written_four_bits_a_pixel_and_read_back(width: int) -> None:
    """16 colours or fewer take half a byte a pixel, as Pillow writes them; an odd width ends
    its rows on half a byte."""
    image = Image.new("P", (width, 5))
    image.putpalette([c for i in range(16) for c in (i * 16, 255 - i * 16, i * 8, 255 if i else 0)], rawmode="RGBA")
    image.putdata([(x * 3 + y) % 16 for y in range(5) for x in range(width)])
    data = pictures.png(image)
    assert data[24] == 4  # IHDR's bit depth
    assert read(data).convert("RGBA").tobytes() == image.convert("RGBA").tobytes()


def test_a_transparent_colour_named_by_index_stays_transparent() -> None:
    image = Image.new("P", (20, 10), 3)
    image.putpalette([0, 0, 0, 200, 0, 0, 0, 200, 0, 43, 45, 49] * 8)
    image.paste(1, (5, 2, 15, 8))
    image.info["transparency"] = 3
    shown = read(pictures.png(image)).convert("RGBA")
    assert shown.getpixel((0, 0))[3] == 0 and shown.getpixel((6, 3)) == (200, 0, 0, 255)
    assert shown.tobytes() == image.convert("RGBA").tobytes()


def test_an_opaque_palette_needs_no_transparency_chunk() -> None:
    image = quantized(scene("RGB", (120, 40), seed=9))
    data = pictures.png(image)
    assert b"tRNS" not in data
    assert read(data).convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_a_picture_mapped_to_a_fixed_palette_keeps_its_colours_and_their_edges() -> None:
    """A game that draws in a known few colours maps its pictures to them and the blends of
    their edges (fixed_palette), rather than working a palette out of each picture."""
    red, blue, ink, dark = (235, 64, 52), (45, 125, 255), (242, 243, 245), (24, 24, 28)
    palette = pictures.fixed_palette((dark, red, blue, ink), (dark, ink))
    # four colours and their blends into the two edges, less the six that coincide: dark and ink
    # blended into themselves, and into each other (a third of one is two thirds of the other)
    assert len(palette.getpalette() or ()) // 3 == 4 + 4 * 2 * 2 - 6
    image = Image.new("RGB", (120, 60), dark)
    draw = ImageDraw.Draw(image)
    draw.ellipse((4, 4, 56, 56), fill=red, outline=ink, width=3)
    draw.rounded_rectangle((62, 4, 116, 56), radius=9, fill=blue, outline=dark, width=2)
    draw.text((70, 20), "x2", fill=ink, font=pictures.font(24))
    back = read(pictures.png(image, palette))
    assert back.mode == "P" and back.size == image.size
    drawn, mapped = image.load(), back.convert("RGB").load()
    assert drawn is not None and mapped is not None
    for x, y in ((30, 30), (89, 50), (2, 2), (5, 30)):  # red, blue, the background, the ring
        assert max(abs(a - b) for a, b in zip(drawn[x, y], mapped[x, y], strict=True)) <= 4, (x, y)
    errors = [sum(abs(a - b) for a, b in zip(drawn[x, y], mapped[x, y], strict=True))
              for x in range(120) for y in range(60)]
    assert sum(errors) / len(errors) / 3 < 1.0  # the edges too: each near a blend of its two colours


def test_a_fixed_palette_holds_at_most_256_colours() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        pictures.fixed_palette([(i, i, 255 - i) for i in range(0, 256, 2)], [(0, 0, 0)])
