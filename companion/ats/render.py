"""Pure rendering: a station in, SVG (or HTML) out.  No widgets here.

The drawing reads only a station's public attributes (:class:`DrawnStation`: its
built cells and spaceships; :class:`DrawnCell`: what each built cell shows), so this
module imports nothing of :mod:`companion.ats.station`: the station imports it instead,
for its Jupyter picture (:meth:`companion.ats.station.Station._repr_svg_`), and the
dependency points one way.
"""
from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any, Callable, Iterable, Protocol

from ..core.htmlsafe import escape

#: ``(row, col)``, as :data:`companion.ats.station.Cell`
Cell = tuple[int, int]


class DrawnCell(Protocol):
    """What the drawing reads of a built cell (:class:`companion.ats.station.Placed`)."""

    @property
    def kind(self) -> str: ...

    @property
    def types(self) -> tuple[str, ...] | None: ...

    @property
    def cubes(self) -> int: ...

    @property
    def is_reactor(self) -> bool: ...

    @property
    def label(self) -> str: ...


class DrawnStation(Protocol):
    """What the drawing reads of a station (:class:`companion.ats.station.Station`)."""

    @property
    def cells(self) -> Mapping[Cell, DrawnCell]: ...

    @property
    def spaceships(self) -> Set[Cell]: ...


#: rulebook colours of the location types (B 4)
TYPE_COLOURS = {
    "administrative": "#2f6fd6",
    "business": "#e0b000",
    "military": "#d13b2f",
    "recreational": "#8a44c2",
    "diplomatic": "#2e9b4f",
}
REACTOR_COLOUR = "#5b6470"
MAIN_COLOUR = "#2b3138"
UNKNOWN_COLOUR = "#9aa3ad"
LEGAL_COLOUR = "#2e9b4f"    # legal cells: outlined in green
CELL = 64
GAP = 4


def cell_colours(placed: DrawnCell) -> list[str]:
    if placed.kind == "main_reactor":
        return [MAIN_COLOUR]
    if placed.is_reactor:
        return [REACTOR_COLOUR]
    if not placed.types:
        return [UNKNOWN_COLOUR]
    return [TYPE_COLOURS[t] for t in placed.types]


def _wrap(name: str, width: int = 10) -> list[str]:
    words, lines, cur = [], [], ""
    for w in name.split():          # split words longer than a line
        while len(w) > width:
            words.append(w[:width - 1] + "-")
            w = w[width - 1:]
        words.append(w)
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    if cur:
        lines.append(cur)
    return lines[:3]


def _frame(cells: list[Cell], title: str | None,
           cell_size: int) -> tuple[int, int, int, int, int]:
    """The grid of ``cells`` as a station's picture frames it: its first row and
    column, the picture's width and height, and the height of the title's band."""
    r0 = min(c[0] for c in cells)
    r1 = max(c[0] for c in cells)
    c0 = min(c[1] for c in cells)
    c1 = max(c[1] for c in cells)
    step = cell_size + GAP
    top = 22 if title else 0
    w = (c1 - c0 + 1) * step + GAP
    h = (r1 - r0 + 1) * step + GAP + top
    return r0, c0, w, h, top


def station_svg(station: DrawnStation, *, legal: Iterable[Cell] = (), selected: Cell | None = None,
                title: str | None = None, cell_size: int = CELL) -> str:
    """The station as an SVG grid: type colours, card names, cubes on reactors,
    spaceships, and the ``legal`` cells outlined in green."""
    legal = set(legal)
    cells = list(station.cells) + list(station.spaceships) + list(legal)
    r0, c0, w, h, top = _frame(cells, title, cell_size)
    step = cell_size + GAP
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="station-svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="sans-serif">']
    if title:
        out.append(f'<text x="{GAP}" y="16" font-size="14" font-weight="bold">{escape(title)}</text>')

    def xy(cell: Cell) -> tuple[int, int]:
        return GAP + (cell[1] - c0) * step, top + GAP + (cell[0] - r0) * step

    for cell in sorted(legal):
        x, y = xy(cell)
        out.append(f'<rect x="{x}" y="{y}" width="{cell_size}" height="{cell_size}" rx="6" '
                   f'fill="#e8f7ec" stroke="{LEGAL_COLOUR}" stroke-width="2" stroke-dasharray="5,3">'
                   f'<title>legal: [{cell[0]}, {cell[1]}]</title></rect>')
    for cell in sorted(station.spaceships):
        x, y = xy(cell)
        out.append(f'<text x="{x + cell_size / 2}" y="{y + cell_size / 2 + 6}" text-anchor="middle" '
                   f'font-size="12">ship<title>spaceship</title></text>')
    for cell, placed in sorted(station.cells.items()):
        x, y = xy(cell)
        colours = cell_colours(placed)
        if len(colours) == 1:
            out.append(f'<rect x="{x}" y="{y}" width="{cell_size}" height="{cell_size}" rx="6" '
                       f'fill="{colours[0]}"/>')
        else:   # dual type: two halves
            half = cell_size / 2
            out.append(f'<rect x="{x}" y="{y}" width="{half}" height="{cell_size}" fill="{colours[0]}"/>')
            out.append(f'<rect x="{x + half}" y="{y}" width="{half}" height="{cell_size}" '
                       f'fill="{colours[1]}"/>')
        stroke = "#000" if cell == selected else "#ffffff"
        out.append(f'<rect x="{x}" y="{y}" width="{cell_size}" height="{cell_size}" rx="6" '
                   f'fill="none" stroke="{stroke}" stroke-width="{3 if cell == selected else 1}"/>')
        lines = _wrap(placed.label)
        for i, line in enumerate(lines):
            out.append(f'<text x="{x + cell_size / 2}" y="{y + 16 + i * 12}" text-anchor="middle" '
                       f'font-size="9" fill="#fff">{escape(line)}</text>')
        if placed.is_reactor:
            for k in range(placed.cubes):
                out.append(f'<rect class="cube" x="{x + 10 + k * 16}" y="{y + cell_size - 18}" '
                           f'width="12" height="12" fill="#35c9f0" stroke="#fff"/>')
        out.append(f'<title>{escape(placed.label)} [{cell[0]}, {cell[1]}]</title>')
    out.append("</svg>")
    return "".join(out)


#: the space between two stations side by side (:func:`stations_svg`)
STATION_SPACING = 16


def stations_svg(stations: Iterable[tuple[str, DrawnStation]], *, cell_size: int = CELL) -> str:
    """Stations side by side, each as :func:`station_svg` draws it with its player's
    name as title, in one group ``<g class="station" data-player="...">`` a player: a
    game's picture (:meth:`companion.ats.game.Game._repr_svg_`, Jupyter's rich display)."""
    parts: list[str] = []
    x = height = 0
    for name, station in stations:
        cells = list(station.cells) + list(station.spaceships)
        w, h = _frame(cells, name, cell_size)[2:4]
        parts.append(f'<g class="station" data-player="{escape(name)}" '
                     f'transform="translate({x},0)">'
                     f'{station_svg(station, title=name, cell_size=cell_size)}</g>')
        x += w + STATION_SPACING
        height = max(height, h)
    width = max(0, x - STATION_SPACING)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="stations-svg" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">'
            + "".join(parts) + "</svg>")


def legend_html() -> str:
    items = [f'<span style="display:inline-block;width:12px;height:12px;background:{c};'
             f'margin:0 4px 0 10px;vertical-align:middle"></span>{t}'
             for t, c in TYPE_COLOURS.items()]
    items.append(f'<span style="display:inline-block;width:12px;height:12px;background:{REACTOR_COLOUR};'
                 'margin:0 4px 0 10px;vertical-align:middle"></span>reactor '
                 '<span style="display:inline-block;width:10px;height:10px;background:#35c9f0;'
                 'margin:0 4px 0 10px"></span>energy cube')
    return '<div class="legend" style="font-size:12px">' + "".join(items) + "</div>"


def _heat(t: float) -> str:
    """0 -> pale yellow, 1 -> deep green."""
    t = max(0.0, min(1.0, t))
    lo, hi = (255, 244, 200), (30, 140, 70)
    r, g, b = (round(lo[i] + (hi[i] - lo[i]) * t) for i in range(3))
    return f"#{r:02x}{g:02x}{b:02x}"


def heatmap_svg(station: DrawnStation, rows: Any, *, value: str = "projected_change", action: str = "build",
                title: str | None = None, cell_size: int = CELL) -> str:
    """The station with every frontier cell coloured by ``value`` from a
    :func:`companion.ats.whatif.placement_map` table; the best legal cell is marked
    with a star, illegal cells are grey with the reason on hover."""
    rows = rows[rows.action == action]
    legal = rows[rows.legal]
    vals = [int(v) for v in legal[value]] if len(legal) else []
    lo, hi = (min(vals), max(vals)) if vals else (0, 0)
    best = None
    if len(legal):
        top = legal.sort_values([value, "vp_now"], ascending=False, kind="stable").iloc[0]
        best = tuple(top.cell)
    cells = list(station.cells) + [tuple(c) for c in rows.cell]
    r0 = min(c[0] for c in cells)
    r1 = max(c[0] for c in cells)
    c0 = min(c[1] for c in cells)
    c1 = max(c[1] for c in cells)
    step = cell_size + GAP
    top_px = 22 if title else 0
    w = (c1 - c0 + 1) * step + GAP
    h = (r1 - r0 + 1) * step + GAP + top_px
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="heatmap-svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="sans-serif">']
    if title:
        out.append(f'<text x="{GAP}" y="16" font-size="14" font-weight="bold">{escape(title)}</text>')

    def xy(cell: Cell) -> tuple[int, int]:
        return GAP + (cell[1] - c0) * step, top_px + GAP + (cell[0] - r0) * step

    for cell, placed in sorted(station.cells.items()):
        x, y = xy(cell)
        out.append(f'<rect x="{x}" y="{y}" width="{cell_size}" height="{cell_size}" rx="6" '
                   f'fill="{cell_colours(placed)[0]}" opacity="0.55"/>')
        for i, line in enumerate(_wrap(placed.label)):
            out.append(f'<text x="{x + cell_size / 2}" y="{y + 16 + i * 12}" text-anchor="middle" '
                       f'font-size="9" fill="#fff">{escape(line)}</text>')
    for _, r in rows.iterrows():
        cell = tuple(r.cell)
        x, y = xy(cell)
        if r.legal:
            v = int(r[value])
            t = (v - lo) / (hi - lo) if hi > lo else 1.0
            tip = (f"[{cell[0]}, {cell[1]}]: {int(r.vp_now):+d} VP now, {int(r.end_change):+d} at the "
                   f"end, projected {int(r.projected_total)} VP; energy from "
                   f"{', '.join(str(list(c)) for c in r.energy_from) or 'none'}")
            cls = "heat-cell legal" + (" best" if cell == best else "")
            out.append(f'<g class="{cls}" data-cell="{cell[0]},{cell[1]}"><title>{escape(tip)}</title>'
                       f'<rect x="{x}" y="{y}" width="{cell_size}" height="{cell_size}" rx="6" '
                       f'fill="{_heat(t)}" stroke="{"#000" if cell == best else "#888"}" '
                       f'stroke-width="{3 if cell == best else 1}"/>'
                       f'<text x="{x + cell_size / 2}" y="{y + cell_size / 2 + 5}" text-anchor="middle" '
                       f'font-size="15" font-weight="bold">{"★ " if cell == best else ""}{v:+d}</text></g>')
        else:
            tip = f"[{cell[0]}, {cell[1]}] not legal: {r.reason} [rule: {r.rule}]"
            out.append(f'<g class="heat-cell illegal" data-cell="{cell[0]},{cell[1]}">'
                       f'<title>{escape(tip)}</title>'
                       f'<rect x="{x}" y="{y}" width="{cell_size}" height="{cell_size}" rx="6" '
                       f'fill="#dddddd" stroke="#bbb"/><text x="{x + cell_size / 2}" '
                       f'y="{y + cell_size / 2 + 4}" text-anchor="middle" font-size="11" '
                       f'fill="#777">{escape(str(r.rule))}</text></g>')
    out.append("</svg>")
    return "".join(out)


CHART_COLOURS = ("#2f6fd6", "#d13b2f", "#2e9b4f", "#8a44c2", "#e0b000", "#5b6470")


def vp_chart_svg(df: Any, *, width: int = 420, height: int = 220, title: str = "VP by year") -> str:
    """A line chart of a :func:`companion.ats.whatif.vp_by_year` table (years x players)."""
    left, right, top, bottom = 36, 110, 24, 28
    years = [int(y) for y in df.index]
    vmax = max(1, int(df.values.max()) if df.size else 1)
    xs: Callable[[int], float] = (lambda i: left + (i if len(years) > 1 else 0.5) * (width - left - right)
          / max(1, len(years) - 1))
    ys: Callable[[float], float] = (lambda v: top + (height - top - bottom) * (1 - v / vmax))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="vp-chart" width="{width}" '
           f'height="{height}" font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="14" font-weight="bold">{escape(title)}</text>',
           f'<line x1="{left}" y1="{ys(0)}" x2="{width - right}" y2="{ys(0)}" stroke="#999"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{ys(0)}" stroke="#999"/>',
           f'<text x="{left - 4}" y="{ys(vmax) + 4}" text-anchor="end">{vmax}</text>',
           f'<text x="{left - 4}" y="{ys(0) + 4}" text-anchor="end">0</text>']
    for i, y in enumerate(years):
        out.append(f'<text x="{xs(i)}" y="{height - 10}" text-anchor="middle">year {y}</text>')
    ends: list[tuple[float, int, str, int]] = []        # (y, k, player, last VP)
    for k, player in enumerate(df.columns):
        colour = CHART_COLOURS[k % len(CHART_COLOURS)]
        pts = " ".join(f"{xs(i)},{ys(int(v))}" for i, v in enumerate(df[player]))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for i, v in enumerate(df[player]):
            out.append(f'<circle cx="{xs(i)}" cy="{ys(int(v))}" r="3" fill="{colour}">'
                       f'<title>{escape(str(player))}, year {years[i]}: {int(v)} VP</title></circle>')
        last = int(df[player].iloc[-1]) if len(df[player]) else 0
        ends.append((ys(last), k, str(player), last))
    # each name next to the end of its own line (issue 37: the names were a list in the
    # corner, not next to their lines), moved apart just enough not to overlap
    placed: list[float] = []
    for y_end, k, player, last in sorted(ends):
        at = max(y_end + 4, placed[-1] + 13) if placed else y_end + 4
        placed.append(at)
        x_end = xs(len(years) - 1) if years else left
        out.append(f'<text class="vp-chart-name" x="{x_end + 8}" y="{at}" '
                   f'fill="{CHART_COLOURS[k % len(CHART_COLOURS)]}">'
                   f'{escape(player)} {last}</text>')
    out.append("</svg>")
    return "".join(out)
