"""Synthetic photos of Among the Stars cards for the photo reader's tests and bench.

Not real photos: white card-sized rectangles (63 x 88 mm proportions) on a dark
table, each with its title in a bold font near the top, coloured shapes (the
"art") and a line of small filler text below it, then the whole picture rotated,
perspective-skewed, blurred and JPEG-compressed at phone resolution.  Every photo
is drawn from ``random.Random(seed)``, so a seed gives the same bytes again.

Only card NAMES are drawn: no cost, energy or VP of any card.
"""
from __future__ import annotations

import io
import random
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
FONT_PLAIN = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CARD_RATIO = 88 / 63            # height / width of a card
FILLER = ("lorem", "ipsum", "dolor", "sit", "amet", "station", "sector", "orbit",
          "alpha", "beta", "gamma", "delta", "nova", "comet")


@dataclass(frozen=True)
class Distortion:
    """How much the camera spoils the picture (all drawn within these bounds)."""
    max_angle: float = 8.0        # degrees, either way
    skew: float = 0.04            # perspective: corners moved by up to this share of the size
    blur: float = 1.2             # Gaussian blur radius at most, in pixels of the photo
    quality: int = 80             # JPEG quality
    size: tuple[int, int] = (3024, 4032)   # portrait (width, height); swapped for wide grids


CLEAN = Distortion(max_angle=0.0, skew=0.0, blur=0.0, quality=92)


def _font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(FONT_BOLD if bold else FONT_PLAIN, size)
    except OSError:
        return ImageFont.load_default(size)


def _wrap(draw: ImageDraw.ImageDraw, title: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
          width: float) -> list[str]:
    """The title on one line, or on two when it is wider than the card allows."""
    if draw.textlength(title, font=font) <= width or " " not in title:
        return [title]
    words = title.split()
    best = [title]
    best_w = float("inf")
    for cut in range(1, len(words)):
        lines = [" ".join(words[:cut]), " ".join(words[cut:])]
        w = max(draw.textlength(line, font=font) for line in lines)
        if w < best_w:
            best, best_w = lines, w
    return best


def draw_card(draw: ImageDraw.ImageDraw, rng: random.Random, x: float, y: float, w: float,
              title: str) -> None:
    """One card with its top-left corner at (x, y), ``w`` pixels wide."""
    h = w * CARD_RATIO
    tone = rng.randint(225, 250)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=w * 0.05,
                           fill=(tone, tone, rng.randint(215, 245)), outline=(40, 40, 40),
                           width=max(1, int(w * 0.006)))
    size = max(10, int(w * 0.085))
    font = _font(size)
    lines = _wrap(draw, title, font, w * 0.86)
    if len(lines) > 1 and max(draw.textlength(s, font=font) for s in lines) > w * 0.86:
        font = _font(max(10, int(size * 0.88)))
    ty = y + h * 0.05
    for line in lines:
        tw = draw.textlength(line, font=font)
        draw.text((x + (w - tw) / 2, ty), line, fill=(15, 15, 25), font=font)
        ty += size * 1.2
    # the art: coloured shapes in the middle of the card
    top, bottom = y + h * 0.25, y + h * 0.72
    draw.rectangle((x + w * 0.08, top, x + w * 0.92, bottom),
                   fill=(rng.randint(40, 160), rng.randint(40, 160), rng.randint(60, 200)))
    for _ in range(rng.randint(3, 7)):
        cx, cy = rng.uniform(x + w * 0.15, x + w * 0.85), rng.uniform(top + 10, bottom - 10)
        r = rng.uniform(w * 0.03, w * 0.12)
        colour = (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    # a line of small filler text, as the ability text of a real card
    small = _font(max(8, int(size * 0.4)), bold=False)
    words = " ".join(rng.choice(FILLER) for _ in range(4))
    draw.text((x + w * 0.1, y + h * 0.78), words, fill=(30, 30, 30), font=small)


def _distort(img: Image.Image, rng: random.Random, d: Distortion) -> Image.Image:
    w, h = img.size
    if d.max_angle:
        img = img.rotate(rng.uniform(-d.max_angle, d.max_angle), resample=Image.BICUBIC,
                         expand=False, fillcolor=(30, 32, 36))
    if d.skew:
        s = d.skew
        # the photo's corners come from these points of the flat picture (a camera held askew)
        quad = (rng.uniform(0, s) * w, rng.uniform(0, s) * h,
                rng.uniform(0, s) * w, h - rng.uniform(0, s) * h,
                w - rng.uniform(0, s) * w, h - rng.uniform(0, s) * h,
                w - rng.uniform(0, s) * w, rng.uniform(0, s) * h)
        img = img.transform((w, h), Image.QUAD, quad, resample=Image.BICUBIC,
                            fillcolor=(30, 32, 36))
    if d.blur:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(d.blur * 0.3, d.blur)))
    return img


def _jpeg(img: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    img.save(out, format="JPEG", quality=quality)
    return out.getvalue()


def station_photo(layout: dict[tuple[int, int], str], seed: int = 0,
                  distortion: Distortion = Distortion()) -> bytes:
    """A JPEG of the station ``layout`` {(row, col): title} lying on a table."""
    rng = random.Random(seed)
    rows = [r for r, _ in layout]
    cols = [c for _, c in layout]
    r0, c0 = min(rows), min(cols)
    nr, nc = max(rows) - r0 + 1, max(cols) - c0 + 1
    gap = 0.07
    grid_w = nc * (1 + gap)                       # in card widths
    grid_h = nr * (CARD_RATIO + gap * CARD_RATIO)
    pw, ph = distortion.size
    if grid_w > grid_h:
        pw, ph = ph, pw
    card_w = min(pw * 0.86 / grid_w, ph * 0.86 / grid_h)
    pitch_x, pitch_y = card_w * (1 + gap), card_w * CARD_RATIO * (1 + gap)
    left = (pw - nc * pitch_x) / 2 + rng.uniform(-0.03, 0.03) * pw
    top = (ph - nr * pitch_y) / 2 + rng.uniform(-0.03, 0.03) * ph
    img = Image.new("RGB", (pw, ph), (rng.randint(20, 60), rng.randint(25, 55), rng.randint(20, 50)))
    draw = ImageDraw.Draw(img)
    for (r, c), title in layout.items():
        jitter = card_w * 0.015
        draw_card(draw, rng, left + (c - c0) * pitch_x + rng.uniform(-jitter, jitter),
                  top + (r - r0) * pitch_y + rng.uniform(-jitter, jitter), card_w, title)
    return _jpeg(_distort(img, rng, distortion), distortion.quality)


def card_photo(title: str, seed: int = 0, distortion: Distortion = Distortion(
        max_angle=8.0, skew=0.05, blur=2.0, quality=80, size=(1512, 2016))) -> bytes:
    """A JPEG of one card filling most of the photo."""
    rng = random.Random(seed)
    pw, ph = distortion.size
    img = Image.new("RGB", (pw, ph), (40, 36, 30))
    card_w = pw * 0.7
    draw_card(ImageDraw.Draw(img), rng, (pw - card_w) / 2, (ph - card_w * CARD_RATIO) / 2,
              card_w, title)
    return _jpeg(_distort(img, rng, distortion), distortion.quality)


def random_station(rng: random.Random, names: list[str], size: int) -> dict[tuple[int, int], str]:
    """A connected station of ``size`` cards around the Main Reactor at (0, 0): distinct
    names from ``names``, about one Power Reactor in five cells."""
    layout: dict[tuple[int, int], str] = {(0, 0): "Main Reactor"}
    pool = list(names)
    rng.shuffle(pool)
    while len(layout) < size:
        r, c = rng.choice(list(layout))
        dr, dc = rng.choice(((0, 1), (0, -1), (1, 0), (-1, 0)))
        at = (r + dr, c + dc)
        rows = {p[0] for p in layout} | {at[0]}
        cols = {p[1] for p in layout} | {at[1]}
        if at in layout or max(rows) - min(rows) > 3 or max(cols) - min(cols) > 4:
            continue
        layout[at] = "Power Reactor" if rng.random() < 0.2 or not pool else pool.pop()
    return layout
