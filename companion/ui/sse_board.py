"""The Small Star Empires board as buttons: one hexagonal button a system, sized to the
screen (a touch target on a phone), the map editor's palette.  No game rule here: what is
legal comes from the engine."""
from __future__ import annotations

from ..core.htmlsafe import colour

import ipywidgets as w

from ..sse import hexmap as hm
from ..sse.hexmap import System
from ..sse.render import KIND_FILL, NEBULA_FILL, NEBULA_TEXT

COL_PX, ROW_PX, HEX_W, HEX_H = 27, 46, 54, 62
#: the smallest hex on a narrow screen: 44 px tall, a touch target (issue 15)
MIN_HEX_H = 44
MIN_COL_PX = round(MIN_HEX_H * COL_PX / HEX_H + 0.05, 1)
LEGAL = "#16a34a"
KIND_LABEL = {"planetary": "planetary", "nebula": "nebula", "empty": "empty",
              "homeworld": "homeworld", "wormhole": "wormhole", "black_hole": "black hole",
              "unexplored": "unexplored"}
#: the map editor's palette: label -> system (None removes the hex)
PALETTE = ([(f"{n} planet{'s' if n > 1 else ''}", System("planetary", planets=n)) for n in (1, 2, 3)]
           + [(f"{c} nebula", System("nebula", colour=c)) for c in hm.COLOURS]
           + [("empty", System("empty")), ("wormhole", System("wormhole")),
              ("black hole", System("black_hole")), ("unexplored", System("unexplored"))]
           + [(f"homeworld {k}", System("homeworld", home=k)) for k in (1, 2, 3, 4)]
           + [("remove", None)])


def hex_class(h) -> str:
    """Stable CSS class of a hex button (tests click on it)."""
    q, r = h
    return f"hx_{'m' if q < 0 else ''}{abs(q)}_{'m' if r < 0 else ''}{abs(r)}"


def col_css(n: int) -> str:
    """The width of one doubled column of a board ``n`` columns wide: the board scaled to the
    width of its box (``cqw``: the ``sse-board-wrap`` container), never larger than
    :data:`COL_PX`, and never so small that a hex is under :data:`MIN_HEX_H` px tall (a touch
    target: a wider map then scrolls sideways inside its own box)."""
    return f"clamp({MIN_COL_PX}px, calc(100cqw / {n}), {COL_PX}px)"


class HexBoard:
    """A map of hexagonal buttons: a CSS grid of doubled columns (2q + r) and rows (r).

    ``box`` (class ``sse-board-wrap``, a CSS size container) holds ``grid``; the columns,
    rows and hexes are sized from the box's width (:func:`col_css`), so the board fits a
    phone's width and keeps its full size on a laptop."""

    def __init__(self, on_click, css: str = "sse-board"):
        self.on_click = on_click
        self.grid = w.GridBox(layout=w.Layout(grid_gap="0px"))
        self.grid.add_class(css)
        if css != "sse-board":
            self.grid.add_class("sse-board")          # the same sizing and scroll box
        self.box = w.VBox([self.grid], layout=w.Layout(width="100%"))
        self.box.add_class("sse-board-wrap")
        self.buttons: dict[tuple, w.Button] = {}
        self._cols = 0

    def _size(self, b):
        col = col_css(self._cols or 1)
        b.layout.width = "100%"
        b.layout.height = f"calc({col} * {HEX_H / COL_PX:.4f})"

    def _button(self, h):
        b = self.buttons.get(h)
        if b is None:
            b = w.Button(layout=w.Layout(width="100%", height=f"{HEX_H}px"))
            self._size(b)
            b.add_class("sse-hex")
            b.add_class(hex_class(h))
            b.on_click(lambda _, h=h: self.on_click(h))
            self.buttons[h] = b
        return b

    def draw(self, cells: dict):
        """``cells``: hex -> {label, fill, text, tip, state} (state: a CSS class)."""
        if not cells:
            self.grid.children = []
            return
        xs = [2 * q + r for q, r in cells]
        ys = [r for _, r in cells]
        x0, y0 = min(xs), min(ys)
        kids = []
        for h in sorted(cells, key=lambda h: (h[1], h[0])):
            c = cells[h]
            b = self._button(h)
            # never an empty description: the button view keeps its old text then
            b.description = c.get("label") or "\u00a0"
            b.tooltip = c.get("tip", "")
            b.style.button_color = colour(c.get("fill"), "#eee")
            b.style.text_color = colour(c.get("text"), "#222")
            # grid_area (grid_row/grid_column are not applied by the Voila widget manager)
            b.layout.grid_area = f"{h[1] - y0 + 1} / {2 * h[0] + h[1] - x0 + 1} / auto / span 2"
            want = set(c.get("state", "").split())
            for cls in ("legal", "selected", "ghost", "ship", "colony"):
                have = cls in b._dom_classes
                if cls in want and not have:
                    b.add_class(cls)
                elif cls not in want and have:
                    b.remove_class(cls)
            kids.append(b)
        cols = max(xs) - x0 + 2
        if cols != self._cols:
            self._cols = cols
            for b in self.buttons.values():
                self._size(b)
        col = col_css(cols)
        self.grid.layout.grid_template_columns = f"repeat({cols}, {col})"
        self.grid.layout.grid_auto_rows = f"calc({col} * {ROW_PX / COL_PX:.4f})"
        if tuple(self.grid.children) != tuple(kids):
            self.grid.children = kids


def system_cell(s: System) -> dict:
    if s.kind == "nebula":
        return {"label": f"{s.colour} neb.", "fill": NEBULA_FILL[s.colour],
                "text": NEBULA_TEXT[s.colour]}
    if s.kind == "planetary":
        return {"label": "●" * s.planets, "fill": KIND_FILL["planetary"]}
    if s.kind == "black_hole":
        return {"label": "black hole", "fill": KIND_FILL["black_hole"], "text": "#ddd"}
    if s.kind == "wormhole":
        return {"label": "worm-hole", "fill": KIND_FILL["wormhole"]}
    if s.kind == "unexplored":
        return {"label": "?", "fill": KIND_FILL["unexplored"], "text": "white"}
    if s.kind == "homeworld":
        return {"label": f"home {s.home}", "fill": "#ffffff"}
    return {"label": "", "fill": KIND_FILL["empty"]}


