"""Pure rendering: a station in, SVG (or HTML) out.  No widgets here."""
from __future__ import annotations

from html import escape
from typing import Iterable

from .station import Cell, Station

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


def cell_colours(placed) -> list[str]:
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


def station_svg(station: Station, *, legal: Iterable[Cell] = (), selected: Cell | None = None,
                title: str | None = None, cell_size: int = CELL) -> str:
    """The station as an SVG grid: type colours, card names, cubes on reactors,
    spaceships, and the ``legal`` cells outlined in green."""
    legal = set(legal)
    cells = list(station.cells) + list(station.blocked) + list(legal)
    r0 = min(c[0] for c in cells)
    r1 = max(c[0] for c in cells)
    c0 = min(c[1] for c in cells)
    c1 = max(c[1] for c in cells)
    step = cell_size + GAP
    top = 22 if title else 0
    w = (c1 - c0 + 1) * step + GAP
    h = (r1 - r0 + 1) * step + GAP + top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="station-svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="sans-serif">']
    if title:
        out.append(f'<text x="{GAP}" y="16" font-size="14" font-weight="bold">{escape(title)}</text>')

    def xy(cell):
        return GAP + (cell[1] - c0) * step, top + GAP + (cell[0] - r0) * step

    for cell in sorted(legal):
        x, y = xy(cell)
        out.append(f'<rect x="{x}" y="{y}" width="{cell_size}" height="{cell_size}" rx="6" '
                   f'fill="#e8f7ec" stroke="{LEGAL_COLOUR}" stroke-width="2" stroke-dasharray="5,3">'
                   f'<title>legal: [{cell[0]}, {cell[1]}]</title></rect>')
    for cell in sorted(station.blocked):
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


def legend_html() -> str:
    items = [f'<span style="display:inline-block;width:12px;height:12px;background:{c};'
             f'margin:0 4px 0 10px;vertical-align:middle"></span>{t}'
             for t, c in TYPE_COLOURS.items()]
    items.append(f'<span style="display:inline-block;width:12px;height:12px;background:{REACTOR_COLOUR};'
                 'margin:0 4px 0 10px;vertical-align:middle"></span>reactor '
                 '<span style="display:inline-block;width:10px;height:10px;background:#35c9f0;'
                 'margin:0 4px 0 10px"></span>energy cube')
    return '<div class="legend" style="font-size:12px">' + "".join(items) + "</div>"
