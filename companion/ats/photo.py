"""Reading a photo of a station's cards, or of one card (issue 40).

The OCR (the optional package ``rapidocr-onnxruntime``, the ``[camera]`` extra) reads
the text on the photo; this module keeps the card titles, merges the lines and words
of one title, places the titles on the station grid by where they lie in the photo,
and matches each to the catalogue's names.  The player confirms every cell: the
result is a proposal (:class:`StationPhoto`), with each weak guess marked
``uncertain`` and the other close names given as ``options``.

Nothing here imports ipywidgets; the OCR package is imported when a photo is read.
"""
from __future__ import annotations

import difflib
import io
import math
import re
import statistics
import threading
import time
from dataclasses import dataclass
from typing import Any, Sequence

from companion.core.errors import CompanionError

MAIN_REACTOR = "Main Reactor"
POWER_REACTOR = "Power Reactor"
MAX_PIXELS = 50_000_000          # refuse bigger pictures (a photo is 12-48 megapixels)
MAX_BYTES = 40_000_000
WORK_SIDE = 1600                 # the photo is scaled down to this longest side first
DET_SIDE = 800                   # and the text is looked for at this longest side
MIN_SCORE = 0.45                 # below: no name proposed
SURE_SCORE = 0.8                 # below: the player must look
CLOSE = 0.06                     # two names this close: the player must look
WEAK_OCR = 0.6                   # the OCR's own confidence below this: the player must look
CARD_RATIO = 88 / 63
STRONG = 0.75                    # a text that reads this well as a name is a title
WEAK = 0.5                       # weaker ones are kept only where a card of the grid lies
TITLE_HEIGHT = 0.76              # texts lower than this share of the tall ones are not titles
INSTALL = "./dashboard --camera"


class PhotoError(CompanionError):
    """A photo that cannot be read; the message says why in a sentence."""


@dataclass(frozen=True)
class CellGuess:
    at: tuple[int, int]          # station cell (row, col): Main Reactor at (0, 0)
    name: str | None             # the catalogue name proposed (None: nothing matched)
    read: str                    # the text the OCR saw there
    score: float                 # 0..1 confidence of the match
    options: tuple[str, ...]     # other close catalogue names
    uncertain: bool              # the player must look at this cell


@dataclass(frozen=True)
class StationPhoto:
    cells: tuple[CellGuess, ...]
    anchored: bool               # the Main Reactor was found; cells are relative to it
    notes: tuple[str, ...]       # plain sentences for the player
    seconds: float


@dataclass
class _Text:
    """One piece of text the OCR read (a box), or several merged into a title."""
    x: float                     # centre, de-rotated
    y: float
    h: float                     # height of a line
    w: float                     # width
    text: str
    conf: float
    lines: int = 1


# ---------------------------------------------------------------- the OCR engine

_ENGINE: Any = None
_LOCK = threading.Lock()


def available() -> bool:
    """Whether the OCR package is installed (found, not imported: every page asks, and
    importing it takes a second)."""
    import importlib.util
    try:
        return importlib.util.find_spec("rapidocr_onnxruntime") is not None
    except (ImportError, ValueError):
        return False


def _engine() -> Any:
    global _ENGINE
    if _ENGINE is None:
        try:
            from rapidocr_onnxruntime import RapidOCR
        except Exception as e:
            raise PhotoError(
                "Reading photos needs the camera add-on, which is not installed: "
                f"start the dashboard with {INSTALL} to install it.") from e
        try:
            _ENGINE = RapidOCR(det_limit_type="max", det_limit_side_len=DET_SIDE,
                               det_box_thresh=0.5, text_score=0.3, use_cls=False)
        except Exception as e:
            raise PhotoError("The text reader of the camera add-on would not start "
                             f"({type(e).__name__}); reinstall it with {INSTALL}.") from e
    return _ENGINE


def _load(image: bytes) -> Any:
    """The photo as a BGR array at most WORK_SIDE pixels long, or PhotoError."""
    if not isinstance(image, (bytes, bytearray, memoryview)):
        raise PhotoError("That is not a photo: send the picture file itself.")
    data = bytes(image)
    if not data:
        raise PhotoError("The photo is empty (0 bytes): take or choose the picture again.")
    if len(data) > MAX_BYTES:
        raise PhotoError(f"The photo file is too big ({len(data) // 1_000_000} MB; "
                         f"at most {MAX_BYTES // 1_000_000} MB): send a smaller picture.")
    try:
        import numpy as np
        from PIL import Image, ImageOps
    except Exception as e:
        raise PhotoError("Reading photos needs the camera add-on, which is not installed: "
                         f"start the dashboard with {INSTALL} to install it.") from e
    try:
        with Image.open(io.BytesIO(data)) as im:
            w, h = im.size
            if w * h > MAX_PIXELS:
                raise PhotoError(
                    f"The photo is too large ({w} x {h} pixels, over "
                    f"{MAX_PIXELS // 1_000_000} megapixels): send a smaller picture.")
            im.draft("RGB", (WORK_SIDE, WORK_SIDE))
            pic = ImageOps.exif_transpose(im).convert("RGB")
    except PhotoError:
        raise
    except Image.DecompressionBombError as e:
        raise PhotoError("The photo is too large: send a smaller picture.") from e
    except Exception as e:
        if "truncated" in str(e).lower() or isinstance(e, (EOFError, SyntaxError)):
            raise PhotoError("The photo is incomplete (the file was cut short): "
                             "send it again.") from e
        raise PhotoError("That file is not a photo this reader understands "
                         "(send a JPEG or PNG picture).") from e
    if min(pic.size) < 32:
        raise PhotoError("The photo is too small to read: take it closer.")
    pic.thumbnail((WORK_SIDE, WORK_SIDE))
    return np.ascontiguousarray(np.asarray(pic)[:, :, ::-1])


def _ocr(arr: Any) -> list[tuple[list[list[float]], str, float]]:
    """[(box of 4 points, text, confidence)] of the text on the photo."""
    with _LOCK:
        eng = _engine()
        try:
            boxes, _ = eng.text_det(arr)
            if boxes is None or len(boxes) == 0:
                return []
            boxes = eng.sorted_boxes(boxes)
            heights = [_dist(b[0], b[3]) + _dist(b[1], b[2]) for b in boxes]
            tall = sorted(heights)[int(len(heights) * 0.75)]
            keep = [b for b, hh in zip(boxes, heights) if hh >= 0.55 * tall]
            crops = eng.get_crop_img_list(arr, keep)
            rec, _ = eng.text_rec(crops)
        except PhotoError:
            raise
        except Exception as e:
            raise PhotoError(f"The text reader failed on this photo ({type(e).__name__}): "
                             "take it again.") from e
    return [([[float(p[0]), float(p[1])] for p in b], str(r[0]), float(r[1]))
            for b, r in zip(keep, rec) if str(r[0]).strip()]


def _dist(p: Any, q: Any) -> float:
    return math.hypot(float(p[0]) - float(q[0]), float(p[1]) - float(q[1]))


# ---------------------------------------------------------------- matching names

_CONFUSE = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "!": "l", "5": "s",
                          "8": "b", "$": "s"})


def _key(text: str) -> str:
    """The text as compared: lower case, letters and digits only, OCR look-alikes folded."""
    t = text.lower().translate(_CONFUSE)
    t = re.sub(r"[^a-z0-9]", "", t)
    return t.replace("rn", "m").replace("vv", "w")


class _Names:
    def __init__(self, names: Sequence[str]):
        seen: dict[str, str] = {}
        for n in [*names, MAIN_REACTOR, POWER_REACTOR]:
            n = " ".join(str(n).split())
            if n and _key(n) and _key(n) not in seen:
                seen[_key(n)] = n
        self.by_key = seen

    def rank(self, text: str) -> list[tuple[str, float]]:
        k = _key(text)
        if not k:
            return []
        out = []
        sm = difflib.SequenceMatcher(autojunk=False)
        sm.set_seq2(k)
        for key, name in self.by_key.items():
            sm.set_seq1(key)
            if sm.real_quick_ratio() < 0.3:
                continue
            out.append((name, round(sm.ratio(), 3)))
        out.sort(key=lambda p: (-p[1], p[0]))
        return out


def _guess(ranked: list[tuple[str, float]], conf: float) -> tuple[str | None, float,
                                                                  tuple[str, ...], bool]:
    if not ranked or ranked[0][1] < MIN_SCORE:
        opts = tuple(n for n, s in ranked[:3] if s >= 0.3)
        return None, ranked[0][1] if ranked else 0.0, opts, True
    best, score = ranked[0]
    close = [n for n, s in ranked[1:5] if s >= score - 0.2 and s >= MIN_SCORE]
    near = len(ranked) > 1 and ranked[1][1] >= score - CLOSE
    uncertain = score < SURE_SCORE or near or conf < WEAK_OCR
    return best, score, tuple(close if uncertain else close[:2]), uncertain


# ---------------------------------------------------------------- geometry

def _texts(found: list[tuple[list[list[float]], str, float]]) -> tuple[list[_Text], float]:
    """The boxes as texts with de-rotated centres, and the photo's angle (radians)."""
    angles, wide = [], []
    for box, _, _ in found:
        (x0, y0), (x1, y1) = box[0], box[1]
        w, h = _dist(box[0], box[1]), _dist(box[0], box[3])
        if w > 1.5 * h:
            angles.append(math.atan2(y1 - y0, x1 - x0))
            wide.append(w)
    angle = statistics.median(angles) if angles else 0.0
    ca, sa = math.cos(-angle), math.sin(-angle)
    out = []
    for box, text, conf in found:
        cx = sum(p[0] for p in box) / 4
        cy = sum(p[1] for p in box) / 4
        h = (_dist(box[0], box[3]) + _dist(box[1], box[2])) / 2
        w = (_dist(box[0], box[1]) + _dist(box[3], box[2])) / 2
        out.append(_Text(cx * ca - cy * sa, cx * sa + cy * ca, max(h, 1.0), w, text, conf))
    return out, angle


def _titles(texts: list[_Text]) -> list[_Text]:
    """Keep the title-sized texts and merge the lines and words of one title."""
    if not texts:
        return []
    hs = sorted(t.h for t in texts)
    tall = hs[int(len(hs) * 0.75)]
    big = [t for t in texts if t.h >= TITLE_HEIGHT * tall]
    parent = list(range(len(big)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(big):
        for j in range(i + 1, len(big)):
            b = big[j]
            h = max(a.h, b.h)
            dy, dx = abs(a.y - b.y), abs(a.x - b.x)
            gap_x = dx - (a.w + b.w) / 2
            same_line = dy < 0.5 * h and gap_x < 1.0 * h
            stacked = 0.5 * h <= dy < 1.6 * h and gap_x < -0.2 * min(a.w, b.w)
            if same_line or stacked:
                parent[root(i)] = root(j)
    groups: dict[int, list[_Text]] = {}
    for i, t in enumerate(big):
        groups.setdefault(root(i), []).append(t)
    merged = []
    for parts in groups.values():
        parts.sort(key=lambda t: (round(t.y / (0.5 * t.h)), t.x))
        lines: list[list[_Text]] = []
        for t in sorted(parts, key=lambda t: t.y):
            if lines and abs(lines[-1][0].y - t.y) < 0.5 * t.h:
                lines[-1].append(t)
            else:
                lines.append([t])
        text = " ".join(" ".join(p.text for p in sorted(line, key=lambda p: p.x))
                        for line in lines)
        top = min(p.y for p in parts)
        merged.append(_Text(
            x=statistics.fmean(p.x for p in parts), y=top,
            h=statistics.fmean(p.h for p in parts), w=max(p.w for p in parts),
            text=text, conf=min(p.conf for p in parts), lines=len(lines)))
    return merged


def _typical(ds: list[float]) -> float:
    """The usual distance to the nearest neighbour (a hole makes some twice as long)."""
    q = sorted(ds)[len(ds) // 4]
    return statistics.median([d for d in ds if 0.7 * q <= d <= 1.4 * q])


def _pitch(items: list[_Text]) -> tuple[float, float]:
    """The distance between neighbouring cards' titles, across and down."""
    across, down = [], []
    for a in items:
        best_x = best_y = float("inf")
        for b in items:
            if b is a:
                continue
            dx, dy = abs(b.x - a.x), abs(b.y - a.y)
            if dx > 3 * a.h and dy < 0.35 * dx:
                best_x = min(best_x, dx)
            if dy > 3 * a.h and dx < 0.35 * dy:
                best_y = min(best_y, dy)
        if best_x < float("inf"):
            across.append(best_x)
        if best_y < float("inf"):
            down.append(best_y)
    px = statistics.median(across) if across else 0.0
    py = statistics.median(down) if down else 0.0
    if across:
        px = _typical(across)
    if down:
        py = _typical(down)
    if not px and not py:
        h = statistics.median(t.h for t in items) if items else 1.0
        px = 14 * h
        py = px * CARD_RATIO
    elif not px:
        px = py / CARD_RATIO
    elif not py:
        py = px * CARD_RATIO
    return px, py


def _on_grid(titles: list[_Text], ranked: list[list[tuple[str, float]]]) -> list[int]:
    """The titles to place: those that read clearly as a name, and the weaker ones that
    lie where a card of the grid lies (not the text printed lower on a card)."""
    strong = [i for i, r in enumerate(ranked) if r and r[0][1] >= STRONG]
    weak = [i for i, r in enumerate(ranked) if r and WEAK <= r[0][1] < STRONG]
    if not strong:
        return weak
    px, py = _pitch([titles[i] for i in strong])
    keep = list(strong)
    for i in weak:
        b = titles[i]
        a = min((titles[j] for j in strong),
                key=lambda t: math.hypot((b.x - t.x) / px, (b.y - t.y) / py))
        u, v = (b.x - a.x) / px, (b.y - a.y) / py
        if abs(u - round(u)) < 0.25 and abs(v - round(v)) < 0.25:
            keep.append(i)
    return sorted(keep)


def _place(items: list[_Text], root: int, px: float, py: float) -> dict[int, tuple[int, int]]:
    """Grid cells by growing from ``root``: each next title is the one nearest (in card
    pitches) to one already placed, at that one's cell plus the rounded offset."""
    pos = {root: (0, 0)}
    while len(pos) < len(items):
        best: tuple[float, int, tuple[int, int]] | None = None
        for i, (r, c) in pos.items():
            a = items[i]
            for j, b in enumerate(items):
                if j in pos:
                    continue
                u, v = (b.x - a.x) / px, (b.y - a.y) / py
                d = math.hypot(u, v)
                if best is None or d < best[0]:
                    best = (d, j, (r + round(v), c + round(u)))
        assert best is not None
        pos[best[1]] = best[2]
    return pos


# ---------------------------------------------------------------- the readers

def read_station(image: bytes, names: Sequence[str]) -> StationPhoto:
    """Propose the station's cells from a photo of its cards (the player confirms)."""
    t0 = time.perf_counter()
    arr = _load(image)
    found = _ocr(arr)
    catalogue = _Names(names)
    texts, angle = _texts(found)
    titles = _titles(texts)
    notes: list[str] = []
    ranked_all = [catalogue.rank(t.text) for t in titles]
    keep = _on_grid(titles, ranked_all)
    dropped = [titles[i].text for i in range(len(titles)) if i not in keep]
    items = [titles[i] for i in keep]
    ranked = [ranked_all[i] for i in keep]
    if not items:
        if dropped:
            shown = ", ".join(f"'{d}'" for d in dropped[:4])
            raise PhotoError(f"No card name was recognised on the photo (read: {shown}); "
                             "take it again closer, with the titles readable.")
        raise PhotoError("No card titles were found on the photo: take it again from "
                         "above, closer, in good light.")
    if dropped:
        notes.append(f"{len(dropped)} text(s) on the photo were not card names and were "
                     f"left out: {', '.join(repr(d) for d in dropped[:5])}.")
    strong = [t for t, r in zip(items, ranked) if r[0][1] >= STRONG]
    px, py = _pitch(strong or items)
    mains = [i for i, r in enumerate(ranked) if r[0][0] == MAIN_REACTOR
             and r[0][1] >= SURE_SCORE]
    anchored = bool(mains)
    if anchored:
        root = max(mains, key=lambda i: ranked[i][0][1])
        if len(mains) > 1:
            notes.append("More than one card reads as the Main Reactor: the clearest one "
                         "was taken as the Main Reactor; check the others.")
    else:
        root = min(range(len(items)), key=lambda i: (round(items[i].y / py), items[i].x))
        notes.append("The Main Reactor was not found: the cells are placed from the "
                     "top-left card; check the position.")
    pos = _place(items, root, px, py)
    if not anchored:            # the top row is row 0 and the leftmost column col 0
        r0 = min(r for r, _ in pos.values())
        c0 = min(c for _, c in pos.values())
        pos = {i: (r - r0, c - c0) for i, (r, c) in pos.items()}
    cells: dict[tuple[int, int], CellGuess] = {}
    clash = 0
    for i, t in enumerate(items):
        name, score, options, uncertain = _guess(ranked[i], t.conf)
        if anchored and i != root and name == MAIN_REACTOR:
            uncertain = True
        g = CellGuess(at=pos[i], name=name, read=t.text, score=round(score, 3),
                      options=options, uncertain=uncertain)
        old = cells.get(g.at)
        if old is not None:
            clash += 1
            keep_g, other = (g, old) if g.score > old.score else (old, g)
            opts = tuple(dict.fromkeys([*keep_g.options, *(o for o in [other.name] if o)]))
            g = CellGuess(at=g.at, name=keep_g.name, read=f"{keep_g.read} / {other.read}",
                          score=keep_g.score, options=opts, uncertain=True)
        cells[g.at] = g
    if clash:
        notes.append(f"{clash} card(s) seemed to lie on a cell already taken: check the "
                     "cells marked to check.")
    if abs(math.degrees(angle)) > 12:
        notes.append(f"The photo is turned by about {abs(math.degrees(angle)):.0f} degrees: "
                     "rows and columns may be mixed up; check the layout.")
    ordered = tuple(sorted(cells.values(), key=lambda g: g.at))
    return StationPhoto(cells=ordered, anchored=anchored, notes=tuple(notes),
                        seconds=round(time.perf_counter() - t0, 3))


def read_card(image: bytes, names: Sequence[str]) -> list[tuple[str, float]]:
    """The catalogue names a photo of one card may show, best first, with scores."""
    arr = _load(image)
    found = _ocr(arr)
    catalogue = _Names(names)
    texts, _ = _texts(found)
    if not texts:
        raise PhotoError("No text was found on the photo: take it again closer, with the "
                         "card's title readable.")
    titles = _titles(texts)
    best: dict[str, float] = {}
    pieces = titles + [t for t in texts if t.text not in {x.text for x in titles}]
    for t in pieces:
        for name, score in catalogue.rank(t.text)[:5]:
            best[name] = max(best.get(name, 0.0), score)
    out = sorted(best.items(), key=lambda p: (-p[1], p[0]))
    return [(n, s) for n, s in out if s >= 0.3][:5]


def sure_name(ranked: Sequence[tuple[str, float]]) -> str | None:
    """The name a card's photo shows without doubt (:func:`read_card`'s answer): the
    best one when it reads well and no other is close; else None (the player chooses)."""
    if not ranked or ranked[0][1] < SURE_SCORE:
        return None
    if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < CLOSE:
        return None
    return ranked[0][0]
