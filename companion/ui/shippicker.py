"""The stations drawn as grids of buttons on which spaceships are placed or removed by
tapping (the Revival spaceships' entry forms of :mod:`companion.ui.modes`).  Widgets
only: the engine says which spaces may be chosen and checks the action again."""
from __future__ import annotations

from ..core.htmlsafe import escape

import ipywidgets as w

from ..ats import render
from ..core.errors import CompanionError
from .common import CELL_PX, LEGAL, cell_class


SHIP = "ship"     # words only: a phone without an emoji font shows a box for 🚀


class ShipPicker:
    """Stations drawn as grids of buttons (the entry grid's cells, ``cell_class``) on
    which spaceships are placed or removed by tapping.  ``choosable`` is the set of
    (player, cell) the engine allows (Game.needs' spots, or the player's spaceships
    for a removal); at most ``limit`` are picked.  No rule here: the engine checks the
    action again when it is pushed."""

    def __init__(self, app, stations: dict, choosable: set, limit: int, *,
                 remove: bool = False):
        self.app = app
        self.stations = stations
        self.choosable = {(p, tuple(c)) for p, c in choosable}
        self.limit = limit
        self.remove = remove
        self._picked: list = []
        self.buttons: dict = {}
        self.summary = w.HTML()
        self.summary.add_class("ships-picked")
        boxes = []
        players = list(app.game.setup.players)
        for p, st in stations.items():
            grid = self._grid(p, st)
            box = w.VBox([w.HTML(f"<b>{escape(p)}</b>'s station"), grid])
            box.add_class("ship-station")
            box.add_class(f"ship-station-{players.index(p) + 1}")
            boxes.append(box)
        self.box = w.VBox([*boxes, self.summary])
        self.box.add_class("ship-picker")
        self._show()

    @property
    def picked(self) -> list:
        """[(player, [r, c]), ...] in the order tapped."""
        return [(p, list(c)) for p, c in self._picked]

    def _grid(self, player, st):
        mine = {c for p, c in self.choosable if p == player}
        cells = set(st.cells) | mine | set(st.spaceships)
        r0, r1 = min(c[0] for c in cells), max(c[0] for c in cells)
        c0, c1 = min(c[1] for c in cells), max(c[1] for c in cells)
        kids = []
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                b = w.Button(layout=w.Layout(width=f"{CELL_PX}px", height=f"{CELL_PX}px",
                                             padding="0"))
                b.add_class("ship-cell")
                b.add_class(cell_class(r, c))
                placed = st.cells.get((r, c))
                if placed is not None:
                    b.description = placed.label
                    b.tooltip = f"{placed.label} [{r}, {c}]"
                    b.style.button_color = render.cell_colours(placed)[0]
                    b.style.text_color = "white"     # no handler: a tap does nothing
                    b.add_class("ship-built")
                elif (player, (r, c)) in self.choosable:
                    b.on_click(self.app.guarded(lambda _, k=(player, (r, c)): self.tap(k)))
                    self.buttons[(player, (r, c))] = b
                elif (r, c) in st.spaceships:
                    b.description, b.tooltip = SHIP, f"spaceship [{r}, {c}]"
                    b.style.button_color = "#eeeeee"
                    b.disabled = True
                    b.add_class("ship-here")
                else:
                    b.layout.visibility = "hidden"
                kids.append(b)
        grid = w.GridBox(kids, layout=w.Layout(
            grid_template_columns=f"repeat({c1 - c0 + 1}, {CELL_PX}px)", grid_gap="3px"))
        grid.add_class("ship-grid")
        return grid

    def tap(self, key):
        key = (key[0], tuple(key[1]))
        if key not in self.choosable:
            raise CompanionError(f"{list(key[1])} in {key[0]}'s station cannot be "
                                 f"{'chosen' if self.remove else 'given a spaceship'}.")
        if key in self._picked:
            self._picked.remove(key)
        elif len(self._picked) >= self.limit:
            raise CompanionError(f"At most {self.limit} spaceship(s): tap a chosen one to "
                                 "take it back first.")
        else:
            self._picked.append(key)
        self._show()

    def _show(self):
        for key, b in self.buttons.items():
            on = key in self._picked
            if self.remove:
                b.description = "remove" if on else SHIP
                b.tooltip = (f"{list(key[1])}: " + ("to remove (tap to keep)" if on
                                                     else "spaceship (tap to remove)"))
                b.style.button_color = "#f4b6b6" if on else "#eeeeee"
            else:
                b.description = SHIP if on else "+"
                b.tooltip = (f"{list(key[1])}: " + ("spaceship here (tap to take back)" if on
                                                     else "tap to place a spaceship"))
                b.style.button_color = "#ffd54f" if on else LEGAL
            b.style.text_color = "black"
            for cls, want in (("ship-picked", on), ("ship-spot", not on)):
                if want and cls not in b._dom_classes:
                    b.add_class(cls)
                elif not want and cls in b._dom_classes:
                    b.remove_class(cls)
        words = ", ".join(f"{p} {list(c)}" for p, c in self._picked)
        verb = "to remove" if self.remove else "spaceships"
        self.summary.value = (f"<span class='ships-count'>{len(self._picked)}/{self.limit}</span>"
                              f" {verb}: {escape(words) if words else 'none tapped yet'}")
