"""Pictures on tables: drawn off the event loop, each drawn once, kept by what it shows.

A game describes its picture as a key (everything the picture shows, hashable) and a pure
function that draws it; the host draws it in a worker thread, so a click never waits behind
Pillow, and keeps the encoded bytes in a bounded cache, so a table redrawn for a click that did
not change the dice costs nothing. The shared dice-strip drawing lives here too, so every game's
dice read alike: big faces, high contrast on Discord's dark theme, and no word smaller than 11 px
once a phone has shrunk the picture to 400 px wide (tests/test_picture_sizes.py measures it).

A strip shows the same few dice over and over, so its costly parts are drawn once and kept: each
die's body (its outline and rune) as a tile, each word's bitmap in the font, and each die as its
cell of the strip shows it (body, marks and caption), already reduced to its own few colours. A
strip of dice drawn before is then only its cells put side by side and encoded, which costs a
quarter of drawing and quantizing it whole. A die's cell is drawn at the strip's first place and
moved to its own, so a die is drawn once wherever it stands: a strip is the same to the pixel as
its dice drawn one by one at that place, each cut to its cell and moved to its place
(tests/test_picture_tiles.py compares the two, and checks that no die reaches outside its cell);
the phone-size checks draw every part afresh, so they read every word of every picture. Any
game's picture made of parts that recur (Bone Duel's lanes, each side's dice drawn in the first
lane and moved to their own) is kept and put together the same way (``from_parts``).
"""

from __future__ import annotations

import asyncio
import io
import math
import struct
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import discord
from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

#: encoded pictures kept in memory; a table picture is a few kB, so this is a few MB at most
CACHE_SIZE = 512
BACKGROUND = (43, 45, 49, 255)  # a layout container's in the dark theme, opaque so the light theme never shows through
INK = (242, 243, 245)
DIM = (128, 132, 142)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: ISA-L's effort for a picture's rows (0 to 3): 1 and 2 make the same file; 3 takes three
#: times as long for a larger one on these pictures
PNG_LEVEL = 1

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Picture:
    """What a game asks the host to attach: ``draw`` must depend on ``key`` alone."""

    key: Hashable
    draw: Callable[[], bytes] = field(compare=False, hash=False)
    filename: str = "table.png"
    #: the picture's facts in words, for screen readers (the table text says them too)
    description: str = ""
    #: a small line just above the picture (which roll it shows), where the picture is shown:
    #: a server with pictures off, or a table drawn without its picture, has nothing to caption
    caption: str = field(default="", compare=False)


class PictureCache:
    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        self._bytes: OrderedDict[Hashable, bytes] = OrderedDict()
        self.drawn = 0

    async def render(self, picture: Picture) -> bytes:
        key = (picture.filename, picture.key)
        data = self._bytes.get(key)
        if data is None:
            data = await asyncio.to_thread(picture.draw)
            self.drawn += 1
            self._bytes[key] = data
            while len(self._bytes) > self._size:
                self._bytes.popitem(last=False)
        else:
            self._bytes.move_to_end(key)
        return data

    async def file(self, picture: Picture) -> discord.File:
        """A fresh upload each time: discord.py consumes a File once it is sent."""
        data = await self.render(picture)
        return _File(io.BytesIO(data), filename=picture.filename,
                     description=picture.description[:1024] or None)


class _File(discord.File):
    """discord.File swaps its buffer's ``close`` for a no-op while it is sent and, once sent,
    puts the buffer's own bound method back on the buffer: a cycle, so every picture's bytes
    waited for the garbage collector. Taken off instead, the buffer goes with its message."""

    def close(self) -> None:
        super().close()
        self.fp.__dict__.pop("close", None)


# -- drawing helpers shared by the games ---------------------------------------------------------


#: bitmaps of words kept by the fonts (8-bit grey, 1.3 kB for a median word, 9 kB for a long
#: name): whole played games of every game and 2000 /rolls need 400, 0.6 MB; a word met once more
#: than 1024 words ago is rendered again, so names and scores cannot grow it past ~10 MB
GLYPHS = 1024


class _KeptBitmaps(ImageFont.FreeTypeFont):
    """A font that keeps the bitmap of each text it renders: FreeType rendering a word is most of
    what drawing it costs, and pictures draw the same words again and again. Words are still
    drawn with ``ImageDraw.text``, each where it goes, only their bitmaps come from the cache."""

    def getmask2(self, text: str | bytes, mode: str = "", direction: str | None = None,
                 features: list[str] | None = None, language: str | None = None, stroke_width: float = 0,
                 anchor: str | None = None, ink: int = 0, start: tuple[float, float] | None = None,
                 *args: Any, **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        # a colour bitmap (mode RGBA) is changed by the drawing that gets it: never shared
        plain = mode != "RGBA" and not (direction or features or language or stroke_width or args)
        if not plain or set(kwargs) - {"stroke_filled"}:
            return super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink, start,
                                    *args, **kwargs)
        return _bitmap(self, text, mode, anchor, ink, start or (0, 0), bool(kwargs.get("stroke_filled")))


@lru_cache(maxsize=GLYPHS)
def _bitmap(face: _KeptBitmaps, text: str | bytes, mode: str, anchor: str | None, ink: int,
            start: tuple[float, float], stroke_filled: bool) -> tuple[Any, tuple[int, int]]:
    return ImageFont.FreeTypeFont.getmask2(face, text, mode, anchor=anchor, ink=ink, start=start,
                                           stroke_filled=stroke_filled)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font: the same on every machine, no system fonts needed. It
    keeps the bitmaps of the words it renders (see _KeptBitmaps)."""
    bundled = ImageFont.load_default(size=size)
    if not isinstance(bundled, ImageFont.FreeTypeFont):  # a Pillow built without FreeType
        return bundled
    return _KeptBitmaps(io.BytesIO(bundled.font_bytes), size, layout_engine=bundled.layout_engine)


@lru_cache(maxsize=GLYPHS)
def fit_text(text: str, width: float, size: int) -> str:
    """``text`` cut with an ellipsis until it is no wider than ``width`` px at ``size``: a long
    name is shortened, never drawn smaller."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def fixed_palette(colours: Sequence[RGB], edges: Sequence[RGB]) -> Image.Image:
    """A palette for a game whose pictures are drawn in ``colours`` only: each of them, and each
    blended a third and two thirds of the way to each of ``edges`` (the colours its outlines,
    words and background are drawn in, which anti-aliased edges fade into). ``png(image,
    palette)`` maps a picture to it, which costs a sixth of what working a palette out of the
    picture does (the most of a large picture's cost: 6.6 of a Rattlebones board's 12 ms), and
    keeps the drawn colours closer than 64 worked-out ones did.

    At most 256 colours. Pillow maps each colour through a table it fills in as it goes, kept
    with the palette and shared by the worker threads that draw; it is made here, before any
    of them uses it, and what they add to it is the same whoever adds it."""
    entries = list(dict.fromkeys([*colours, *(
        tuple(round(c + (e - c) * share) for c, e in zip(colour, edge, strict=True))
        for edge in edges for colour in colours for share in (1 / 3, 2 / 3))]))
    if len(entries) > PALETTE:
        raise ValueError(f"{len(entries)} colours do not fit a palette of {PALETTE}")
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for entry in entries for value in entry])
    Image.new("RGB", (1, 1), tuple(colours[0])).quantize(palette=palette, dither=Image.Dither.NONE)
    return palette


def png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Small and fast: dice need few colours, and a 64-colour palette image encodes in a fifth
    of the time of full colour, at half the size. A picture drawn in RGB in a game's own
    colours is mapped to that game's ``palette`` (``fixed_palette``) instead.

    The file is written here, its rows deflated by ISA-L (``isal``), not by Pillow: zlib's
    deflate was most of a picture's cost (0.67 of a Knucklebones table's 1.3 ms), and ISA-L's
    takes a fifth of that. Pillow leaves a palette picture's rows unfiltered too, so only the
    deflate changes: a Knucklebones table is written in 0.23 ms instead of 0.83, its file 10.5 kB
    instead of 9.1. tests/test_png.py reads every kind of picture back through Pillow, pixel for
    pixel."""
    if palette is not None and image.mode != "P":
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    elif image.mode != "P":
        image = image.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        image.putpalette(_background_kept(bytes(image.getpalette(rawmode="RGBA") or ())), rawmode="RGBA")
    width, height = image.size
    rgba = image.getpalette(rawmode="RGBA") or [0, 0, 0, 255]
    entries = len(rgba) // 4
    alphas = bytearray(rgba[3::4])
    hidden = image.info.get("transparency")
    if isinstance(hidden, int) and 0 <= hidden < entries:
        alphas[hidden] = 0
    elif isinstance(hidden, bytes):
        alphas[:min(len(hidden), entries)] = hidden[:entries]
    bits = 4 if entries <= 16 else 8
    stride = (width * bits + 7) // 8
    lines = memoryview(image.tobytes("raw", "P;4" if bits == 4 else "P"))
    rows = b"".join([piece for at in range(0, stride * height, stride) for piece in (b"\0", lines[at:at + stride])])
    del rgba[3::4]
    chunks = [(b"IHDR", struct.pack(">IIBBBBB", width, height, bits, 3, 0, 0, 0)), (b"PLTE", bytes(rgba))]
    if opaque := alphas.rstrip(b"\xff"):
        chunks.append((b"tRNS", bytes(opaque)))
    chunks += [(b"IDAT", isal_zlib.compress(rows, PNG_LEVEL)), (b"IEND", b"")]
    return PNG_SIGNATURE + b"".join(
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data)) for kind, data in chunks)


@dataclass(frozen=True)
class DieFace:
    """One die as a player should read it at a glance.

    ``text`` is the big symbol (a number); ``strokes`` are extra line drawings in 0..1
    coordinates (a rune); ``caption`` goes under the die (its kind, "d8"). ``struck`` crosses a
    spent die out, ``dim`` greys an inactive one, ``badge`` marks it (×2) in a corner.
    """

    text: str
    fill: RGB = (236, 230, 214)
    ink: RGB = (30, 30, 30)
    shape: str = "square"  # square, round, d4, d6, d8, d10, d12, d20
    caption: str = ""
    strokes: tuple[tuple[tuple[float, float], ...], ...] = ()
    corner: str = ""
    struck: bool = False
    dim: bool = False
    badge: str = ""
    ring: RGB | None = None


DIE = 120  # px: a die's box; 6 dice in a row are 800 px wide, i.e. ~60 px each on a 400 px phone
GAP = 14
#: a caption's font: 7 dice in a row (952 px) still show it 12.6 px tall on a phone
CAPTION_FONT = 30
CAPTION = 40
#: dice bodies kept as tiles, each DIE x DIE px in RGBA (56 kB), so 14 MB at most. A tile is kept
#: per body and per place (see _tile), but a strip's cells are all drawn at its first place: the
#: strips of fifty played Knucklebones games use 10 (runes, greyed or ringed), those of 5000 /rolls
#: 10; only a strip too big to share a palette (drawn whole) draws dice at other places
TILES = 256
#: entries of a PNG palette
PALETTE = 256
#: colours each part of a picture is quantized to (seven dice, a Knucklebones roll, take 225 of
#: the palette's 256); a picture of many parts shares them out, down to FEWEST_PART_COLOURS
#: each, and one of more parts is quantized as a whole
PART_COLOURS = 32
FEWEST_PART_COLOURS = 8
#: parts of pictures kept, quantized (a byte per pixel: 25 kB for a captioned die, 85 kB for a
#: lane of a Bone Duel grid), 20 MB at most; the strips of fifty played Knucklebones games use
#: 116 dice, those of 5000 /rolls 188
PARTS = 512


def _outline(shape: str, x: int, y: int, size: int) -> list[tuple[float, float]] | None:
    """Polygon of a die's silhouette, so a d4 never looks like a d12 even without its caption."""
    cx, cy, r = x + size / 2, y + size / 2, size / 2 - 4

    def regular(n: int, turn: float = -90.0) -> list[tuple[float, float]]:
        return [(cx + r * math.cos(math.radians(turn + 360 * i / n)),
                 cy + r * math.sin(math.radians(turn + 360 * i / n))) for i in range(n)]

    shapes: dict[str, list[tuple[float, float]]] = {
        "d4": [(cx, y + 6), (x + size - 6, y + size - 10), (x + 6, y + size - 10)],
        "d8": regular(4),
        "d10": [(cx, y + 4), (x + size - 8, cy + 10), (cx, y + size - 4), (x + 8, cy + 10)],
        "d12": regular(5),
        "d20": regular(6),
    }
    return shapes.get(shape)


def dice_strip(dice: Sequence[DieFace], *, per_row: int = 6, caption_font: int = CAPTION_FONT) -> bytes:
    """A row (or rows) of dice, drawn big; the table text says the same in words. A caption
    that matters more than the die's kind (a die's number) may be drawn bigger."""
    rows = max(1, -(-len(dice) // per_row))
    across = min(max(1, len(dice)), per_row)
    has_caption = any(d.caption for d in dice)
    cell_h = DIE + (CAPTION + caption_font - CAPTION_FONT if has_caption else 0)
    size = across * DIE + (across + 1) * GAP, rows * cell_h + (rows + 1) * GAP
    places = [(GAP + col * (DIE + GAP), GAP + row * (cell_h + GAP))
              for row, col in (divmod(index, per_row) for index in range(len(dice)))]
    # each cell is drawn and kept at the first place and moved to its own, so a die is drawn once,
    # not once per place it may stand in (drawn in place, a few outlines, a d20's in the second
    # row, would round a pixel differently on some edges: no one can tell)
    home = cell_box(GAP, GAP, cell_h)
    kept = from_parts(size, [(_draw_cell, (die, GAP, GAP, caption_font), home, cell_box(x, y, cell_h)[:2])
                             for die, (x, y) in zip(dice, places, strict=True)])
    if kept is not None:
        return kept
    image = Image.new("RGBA", size, BACKGROUND)
    draw = ImageDraw.Draw(image)
    for die, (x, y) in zip(dice, places, strict=True):
        _draw_cell(image, draw, die, x, y, caption_font)
    return png(image)


def _draw_cell(image: Image.Image, draw: ImageDraw.ImageDraw, die: DieFace, x: int, y: int, caption_font: int) -> None:
    """A die of a strip, its marks and its caption, where it stands."""
    # a plain paste, no blending: the tile's clear corners replace the strip's clear ones
    image.paste(_tile(_body(die), x, y, DIE), (x, y))
    _draw_marks(draw, die, x, y, DIE)
    if die.caption:
        draw_caption(draw, die, x + DIE / 2, y + DIE + 4, caption_font)


def part_colours(parts: int) -> int | None:
    """The colours each of a picture's ``parts`` gets, None if too few: such a picture is
    quantized as a whole."""
    colours = min(PART_COLOURS, (PALETTE - 1) // max(1, parts))
    return colours if colours >= FEWEST_PART_COLOURS else None


def cell_box(x: int, y: int, cell_h: int) -> tuple[int, int, int, int]:
    """A die's cell: the die at (x, y), its caption under it, and half the gap around them, so
    the cells of a strip tile it (a caption is cut to fit its cell)."""
    return x - GAP // 2, y - GAP // 2, x + DIE + GAP - GAP // 2, y + cell_h + GAP - GAP // 2


#: a part of a picture as kept: its pixels' indices, its palette, its place and size
Part = tuple[bytes, bytes, tuple[int, int, int, int]]
#: draws a part onto a canvas (its image and pen) inside the part's box
Drawer = Callable[..., None]
#: a part as a picture names it: what draws it, with what, where it is drawn (left, top, right,
#: bottom), and where in the picture it goes (its top left). A part that looks the same wherever
#: it stands (a die) is drawn at one place and moved to each of its own, so it is drawn once
Piece = tuple[Drawer, tuple[Hashable, ...], tuple[int, int, int, int], tuple[int, int]]


def from_parts(size: tuple[int, int], pieces: Sequence[Piece]) -> bytes | None:
    """A picture of ``size`` put together from its pieces, each kept (``kept_part``) with its
    share of the palette; None when they are too many to share it (draw it whole then)."""
    colours = part_colours(len(pieces))
    if colours is None:
        return None
    return parts_png(size, [_moved(kept_part(draw, args, box, colours), at) for draw, args, box, at in pieces])


def _moved(part: Part, at: tuple[int, int]) -> Part:
    indices, palette, (_, _, width, height) = part
    return indices, palette, (*at, width, height)


def kept_part(draw: Drawer, args: tuple[Hashable, ...], box: tuple[int, int, int, int], colours: int) -> Part:
    """The part of a picture inside ``box``, as ``draw(image, pen, *args)`` draws it, in at most
    ``colours`` colours: drawn and quantized the first time, kept after (``draw`` must depend
    on ``args`` alone, and draw nothing outside ``box``). Workers share parts as they share tiles."""
    return _kept_part(draw, args, box, colours)


@lru_cache(maxsize=PARTS)
def _kept_part(draw: Drawer, args: tuple[Hashable, ...], box: tuple[int, int, int, int], colours: int) -> Part:
    canvas = Image.new("RGBA", box[2:], BACKGROUND)
    draw(canvas, ImageDraw.Draw(canvas), *args)
    return quantized_part(canvas.crop(box), colours, box[:2])


def quantized_part(image: Image.Image, colours: int, at: tuple[int, int]) -> Part:
    """``image`` (a part, RGBA) in at most ``colours`` colours: its pixels as indices into its
    own palette (a byte each), that palette (RGBA), and the part's place and size."""
    quantized = image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = bytes(quantized.getpalette(rawmode="RGBA") or ())[:colours * 4]
    return quantized.tobytes(), _background_kept(palette), (*at, *image.size)


def _background_kept(palette: bytes) -> bytes:
    """The quantizer rounds the background a shade off in some parts and not in others; the
    picture's background is one colour, so a part's nearest entry to it is made exactly it."""
    entries = [palette[i:i + 4] for i in range(0, len(palette), 4)]
    near = [sum(abs(a - b) for a, b in zip(e, BACKGROUND, strict=True)) for e in entries]
    if near and min(near) <= 6:
        entries[near.index(min(near))] = bytes(BACKGROUND)
    return b"".join(entries)


def parts_png(size: tuple[int, int], parts: Sequence[Part]) -> bytes:
    """A picture put together from its quantized parts, on the background (entry 0), their
    colours in one palette, each colour once. Each part is quantized on its own rather than
    with the whole picture, so a picture whose parts were all drawn before costs no quantizing
    at all (the most of what drawing it cost), and each part keeps more of its colours."""
    image = Image.new("P", size, 0)
    entries: dict[bytes, int] = {bytes(BACKGROUND): 0}
    for indices, palette, (x, y, width, height) in parts:
        ours = bytes(entries.setdefault(palette[i:i + 4], len(entries)) for i in range(0, len(palette), 4))
        image.paste(Image.frombytes("P", (width, height), indices.translate(ours.ljust(PALETTE, b"\0"))), (x, y))
    image.putpalette(b"".join(entries), rawmode="RGBA")
    return png(image)


@lru_cache(maxsize=TILES)
def _tile(body: _Body, x: int, y: int, size: int) -> Image.Image:
    """A die's body as drawn at (x, y) of a strip. Kept per place: the rune's lines and the
    outlines are drawn from fractional coordinates, and moving them by whole pixels changes how
    a few edge pixels round, so a tile drawn elsewhere would differ from the die drawn here.
    Worker threads share tiles: a tile is only ever read once made."""
    canvas = Image.new("RGBA", (x + size, y + size), BACKGROUND)
    _draw_body(ImageDraw.Draw(canvas), body, x, y, size)
    return canvas.crop((x, y, x + size, y + size))


def draw_caption(draw: ImageDraw.ImageDraw, die: DieFace, centre: float, top: float,
                 size: int = CAPTION_FONT) -> None:
    """A die's caption under it, cut to its cell rather than shrunk."""
    draw.text((centre, top), fit_text(die.caption, DIE + GAP - 4, size), font=font(size),
              fill=DIM if die.dim else INK, anchor="ma")


def _faded(colour: RGB, dim: bool) -> RGB:
    if not dim:
        return colour
    grey = (70, 72, 78)
    return tuple((c + g * 2) // 3 for c, g in zip(colour, grey, strict=True))  # type: ignore[return-value]


@dataclass(frozen=True)
class _Body:
    """A die without its words and marks: its silhouette and its drawing (a rune). Dice that
    differ only in their number, caption, badge or cross share one."""

    shape: str
    fill: RGB
    outline: RGB
    width: int
    ink: RGB
    strokes: tuple[tuple[tuple[float, float], ...], ...]
    cornered: bool


def _body(die: DieFace) -> _Body:
    fill, ink = _faded(die.fill, die.dim), _faded(die.ink, die.dim)
    outline = die.ring or (ink if die.dim else (20, 20, 20))
    return _Body(die.shape, fill, outline, 6 if die.ring else 3, ink, die.strokes, bool(die.corner))


def draw_die(draw: ImageDraw.ImageDraw, die: DieFace, x: int, y: int, size: int) -> None:
    _draw_body(draw, _body(die), x, y, size)
    _draw_marks(draw, die, x, y, size)


def _draw_body(draw: ImageDraw.ImageDraw, body: _Body, x: int, y: int, size: int) -> None:
    polygon = _outline(body.shape, x, y, size)
    if body.shape == "round":
        draw.ellipse((x + 4, y + 4, x + size - 4, y + size - 4), fill=body.fill, outline=body.outline,
                     width=body.width)
    elif polygon is not None:
        draw.polygon(polygon, fill=body.fill, outline=body.outline, width=body.width)
    else:
        draw.rounded_rectangle((x + 4, y + 4, x + size - 4, y + size - 4), radius=size // 7, fill=body.fill,
                               outline=body.outline, width=body.width)
    if body.strokes:
        span = size * 0.48
        # a number in the corner moves the drawing up and left, so the two never touch
        left, top = (size * 0.2, size * 0.18) if body.cornered else (size * 0.26, size * 0.26)
        for line in body.strokes:
            points = [(x + left + px * span, y + top + py * span) for px, py in line]
            draw.line(points, fill=body.ink, width=max(5, size // 14), joint="curve")


def _draw_marks(draw: ImageDraw.ImageDraw, die: DieFace, x: int, y: int, size: int) -> None:
    """What goes over a die's body: its number, corner number, badge and cross, in that order
    (the cross goes over the number, the badge over a long number)."""
    ink = _faded(die.ink, die.dim)
    if die.text:
        big = size // 2 if len(die.text) <= 2 else size // 3
        anchor_y = y + size / 2 + (size * 0.06 if die.shape == "d4" else 0)
        draw.text((x + size / 2, anchor_y), die.text, font=font(big), fill=ink, anchor="mm")
    if die.corner:
        draw.text((x + size - 12, y + size - 8), die.corner, font=font(size // 3), fill=ink, anchor="rs")
    if die.badge:
        r = size // 5
        bx, by = x + size - r, y + r
        draw.ellipse((bx - r, by - r, bx + r, by + r), fill=(250, 166, 26), outline=(20, 20, 20), width=2)
        draw.text((bx, by), die.badge, font=font(int(r * 1.4)), fill=(20, 20, 20), anchor="mm")
    if die.struck:
        draw.line((x + 10, y + 10, x + size - 10, y + size - 10), fill=(237, 66, 69), width=9)
        draw.line((x + size - 10, y + 10, x + 10, y + size - 10), fill=(237, 66, 69), width=9)
