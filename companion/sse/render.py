"""Pure rendering of a Small Star Empires board: a map (and optionally a game state) in,
SVG out.  No widgets here.  Pointy-top hexagons; axial (q, r) -> x = sqrt(3)·(q + r/2),
y = 1.5·r (in hex radii)."""
from __future__ import annotations

import math
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from typing import Any, Protocol

from ..core.htmlsafe import colour, escape

# What the drawing reads of a map and a game state, as Protocols: the map's module
# (companion.sse.hexmap) draws itself with this one, which imports neither it nor the
# state (no import cycle), as companion.ats.render reads a station.
Hex = tuple[int, int]


class SystemView(Protocol):
    """A system (:class:`companion.sse.hexmap.System`)."""
    @property
    def kind(self) -> str: ...
    @property
    def planets(self) -> int | None: ...
    @property
    def colour(self) -> str | None: ...
    @property
    def home(self) -> int | None: ...
    def describe(self) -> str: ...


class MapView(Protocol):
    """A map (:class:`companion.sse.hexmap.HexMap`): its hexes and their systems."""
    def __getitem__(self, h: Hex) -> SystemView: ...
    def __iter__(self) -> Iterator[Hex]: ...
    def __len__(self) -> int: ...


class SetupView(Protocol):
    @property
    def players(self) -> Sequence[str]: ...
    def colour(self, player: str) -> str: ...


class ColonyView(Protocol):
    @property
    def owner(self) -> str: ...
    @property
    def piece(self) -> str: ...


class ShipView(Protocol):
    @property
    def damaged(self) -> bool: ...


class StateView(Protocol):
    """A game's state (:class:`companion.sse.state.State`)."""
    @property
    def setup(self) -> SetupView: ...
    @property
    def map(self) -> MapView: ...
    @property
    def colonies(self) -> Mapping[Hex, ColonyView]: ...
    @property
    def revealed(self) -> Mapping[Hex, Mapping[str, Any]]: ...
    @property
    def blocked(self) -> Mapping[Hex, str]: ...
    @property
    def conquered(self) -> Container[Hex]: ...
    def ships_at(self, h: Hex) -> Sequence[tuple[str, ShipView]]: ...

SQ3 = math.sqrt(3)
KIND_FILL = {"planetary": "#e3dccb", "empty": "#f3f3f1", "wormhole": "#d9c8f5",
             "black_hole": "#1d1d22", "unexplored": "#8f9bb0", "homeworld": "#ffffff"}
NEBULA_FILL = {"red": "#f2a7a7", "blue": "#a9c4f2", "green": "#aee0ae"}
NEBULA_TEXT = {"red": "#8b1a1a", "blue": "#173f8a", "green": "#1d6b1d"}
EFFECT_SHORT = {"planetary": "planets", "chromatic_nebula": "chromatic", "asteroid_field": "asteroids",
                "abandoned_trade_station": "aband. TS", "refuelling_station": "refuel",
                "hollana_federation": "Hollana", "tennar_union": "Tennar",
                "nordinn_empire": "Nordinn"}
LEGAL = "#17a34a"
SELECTED = "#111111"


def _label(h: Hex) -> str:
    """A hex in words, as :func:`companion.sse.hexmap.label` writes it: ``[q, r]``."""
    return f"[{h[0]}, {h[1]}]"


def centre(h: Hex, size: float) -> tuple[float, float]:
    q, r = h
    return size * SQ3 * (q + r / 2), size * 1.5 * r


def corners(cx: float, cy: float, size: float) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{cx + size * math.cos(a):.1f},{cy + size * math.sin(a):.1f}")
    return " ".join(pts)


def system_words(s: SystemView) -> str:
    if s.kind == "planetary":
        return "●" * (s.planets or 0)
    if s.kind == "nebula":
        return f"{s.colour} neb."
    if s.kind == "homeworld":
        return f"home {s.home}"
    return {"empty": "", "wormhole": "wormhole", "black_hole": "black hole",
            "unexplored": "?"}[s.kind]


def map_svg(m: MapView, state: StateView | None = None, *, legal: Iterable[Hex] = (), selected: Hex | None = None,
            size: float = 26, coords: bool = False, colours: dict[str, str] | None = None,
            title: str | None = None) -> str:
    """The board as SVG.  With ``state`` (a game State): owners' colours, pieces (C = City,
    T = Trade Station), ships (triangles; a damaged ship lies on its side), revealed tiles,
    blocked and conquered systems.  ``legal`` hexes get a green outline."""
    legal = set(legal)
    if state is not None:
        m = state.map
        colours = colours or {p: state.setup.colour(p) for p in state.setup.players}
    # a colour comes from a record: only a strict #hex or a plain name reaches the SVG
    colours = {p: colour(c) for p, c in (colours or {}).items()}
    seats = {}
    if state is not None:
        seats = {i + 1: p for i, p in enumerate(state.setup.players)}
    xs, ys = zip(*(centre(h, size) for h in m)) if len(m) else ((0,), (0,))
    pad = size * 1.2
    x0, x1, y0, y1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    top = 22 if title else 0
    w, h_ = x1 - x0, y1 - y0 + top
    # scaled to the width of its box, never larger than drawn (the viewBox keeps the
    # proportions): a phone shows the whole map (issue 15)
    out = [f"<svg class='sse-map' xmlns='http://www.w3.org/2000/svg' width='{w:.0f}' "
           f"height='{h_:.0f}' viewBox='{x0:.1f} {y0 - top:.1f} {w:.1f} {h_:.1f}' "
           f"style='width:100%;max-width:{w:.0f}px;height:auto' "
           f"font-family='DejaVu Sans, Arial, sans-serif'>"]
    if title:
        out.append(f"<text x='{x0 + 4:.1f}' y='{y0 - 6:.1f}' font-size='14' font-weight='bold'>"
                   f"{escape(title)}</text>")
    fs = max(7.0, size * 0.34)
    for h in sorted(m, key=lambda x: (x[1], x[0])):
        s = m[h]
        cx, cy = centre(h, size)
        fill = NEBULA_FILL.get(s.colour or "") if s.kind == "nebula" else KIND_FILL[s.kind]
        text_col = "#222"
        words = system_words(s)
        if s.kind == "homeworld":
            owner = seats.get(s.home or 0)       # seats are 1..n
            fill = colours.get(owner, "#ffffff") if owner else "#ffffff"
            text_col = "white" if owner else "#222"
            words = owner if owner else f"home {s.home}"
        elif s.kind == "nebula":
            text_col = NEBULA_TEXT[s.colour or ""]
        elif s.kind == "black_hole":
            text_col = "#ddd"
        if state is not None and h in state.revealed:
            rv = state.revealed[h]
            fill = "#c7ccd6"
            words = EFFECT_SHORT[rv["effect"]]
            if rv.get("planets"):
                words = "●" * rv["planets"]
        stroke, sw = "#777", 1.0
        if h in legal:
            stroke, sw = LEGAL, 3.5
        if selected == h:
            stroke, sw = SELECTED, 3.5
        cls = f"hex hex_{h[0]}_{h[1]}".replace("-", "m")
        out.append(f"<polygon class='{cls}' points='{corners(cx, cy, size * 0.97)}' fill='{fill}' "
                   f"stroke='{stroke}' stroke-width='{sw}'><title>{escape(_label(h))} "
                   f"{escape(s.describe())}</title></polygon>")
        colony = state.colonies.get(h) if state is not None else None
        if colony is not None:
            col = colours.get(colony.owner, "#444")
            out.append(f"<circle cx='{cx:.1f}' cy='{cy - size * 0.1:.1f}' r='{size * 0.42:.1f}' "
                       f"fill='{col}' stroke='white' stroke-width='1.5'/>")
            letter = "T" if colony.piece == "trade_station" else "C"
            out.append(f"<text x='{cx:.1f}' y='{cy - size * 0.1 + fs * 0.4:.1f}' font-size='{fs * 1.3:.1f}' "
                       f"text-anchor='middle' fill='white' font-weight='bold'>{letter}</text>")
            text_col = "#222"
        if state is not None and h in state.blocked:
            words = state.blocked[h].split()[0]
        if state is not None and h in state.conquered:
            words = "conquered"
        if words:
            y = cy + size * 0.62 if colony is not None else cy + fs * 0.35
            out.append(f"<text x='{cx:.1f}' y='{y:.1f}' font-size='{fs:.1f}' text-anchor='middle' "
                       f"fill='{text_col}'>{escape(words)}</text>")
        if coords:
            out.append(f"<text x='{cx:.1f}' y='{cy - size * 0.55:.1f}' font-size='{fs * 0.8:.1f}' "
                       f"text-anchor='middle' fill='#555'>{h[0]},{h[1]}</text>")
        if state is not None:
            ships = state.ships_at(h)
            for i, (p, ship) in enumerate(ships):
                sx = cx - size * 0.5 + i * size * 0.28
                sy = cy - size * 0.45
                col = colours.get(p, "#444")
                if ship.damaged:
                    pts = f"{sx:.1f},{sy - 5:.1f} {sx:.1f},{sy + 5:.1f} {sx + 9:.1f},{sy:.1f}"
                else:
                    pts = f"{sx - 5:.1f},{sy + 5:.1f} {sx + 5:.1f},{sy + 5:.1f} {sx:.1f},{sy - 6:.1f}"
                out.append(f"<polygon class='ship' points='{pts}' fill='{col}' stroke='black' "
                           f"stroke-width='1'/>")
    out.append("</svg>")
    return "".join(out)


def legend_html() -> str:
    items = [("#e3dccb", "planetary (● per planet)"), (NEBULA_FILL["red"], "red nebula"),
             (NEBULA_FILL["blue"], "blue nebula"), (NEBULA_FILL["green"], "green nebula"),
             (KIND_FILL["empty"], "empty"), (KIND_FILL["wormhole"], "wormhole"),
             (KIND_FILL["black_hole"], "black hole"), (KIND_FILL["unexplored"], "unexplored")]
    parts = [f"<span style='display:inline-block;margin-right:10px'><span style='display:inline-block;"
             f"width:12px;height:12px;background:{c};border:1px solid #777;vertical-align:middle'>"
             f"</span> {escape(t)}</span>" for c, t in items]
    return ("<div class='sse-legend' style='font-size:12px'>" + "".join(parts)
            + " · C = City, T = Trade Station, ▲ ship (on its side: damaged)</div>")
