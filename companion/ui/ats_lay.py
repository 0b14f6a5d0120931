"""Among the Stars, a station laid as it lies on the table (issue 39, "Score the table as
it lies"): a part of the play screen's mode panel (:class:`companion.ui.modes.ModePanel`)
while the game's setup says ``options.laid`` and a station is still to be laid.

The player taps a cell of the grid and says what lies there: a location (its name, with
the catalogue's names offered), a Power Reactor with the energy cubes left on it, a
spaceship (Revival), or nothing.  The Main Reactor is at [0, 0]; its cubes are set the
same way.  Then the credits in front of the player and the VP on the score track, and
*Lay the station*: one ``lay`` entry (companion/ats/lay.py) through the page's session,
so that the engine checks it (connected, MAX, copies, cubes, supply, spaceships) and a
refusal names the card, the cell and the rule, with nothing recorded.  A seat's page lays
its own station; the host's page any still to lay; the table view none.

No rule here: the grid only offers the cells around what is laid; what may lie there is
the engine's to say.  Every text shown is escaped.  The draft is kept in the store after
every tap (companion.table.drafts) until it is laid: a reload, a phone whose kernel was
culled, or the host's page finds it again.  A lay undone on a page is its player's draft
again (:meth:`Draft.from_entry`, kept in the store the same way) and the panel shows that
player: nothing typed is lost."""
from __future__ import annotations

from typing import Any

import ipywidgets as w

from ..core.errors import CompanionError, UnknownCardValues
from ..core.htmlsafe import escape
from .drafting import Drafts
from .photo_entry import StationPhoto

#: what a cell may be given on the page (the engine decides whether it may)
WHAT = [("Location", "card"), ("Power Reactor", "reactor"), ("Spaceship", "ship"),
        ("Nothing", "empty")]
MAIN = (0, 0)
#: the panel's own look: a card's whole name in its cell, wrapped (a phone's 4 columns)
CSS = ("<style>.lay-grid .lay-cell{white-space:normal!important;height:auto!important;"
       "min-height:44px;line-height:1.15;font-size:12px;padding:2px;overflow-wrap:anywhere}"
       ".lay-message:empty{display:none}</style>")


def cell_class(at: tuple[int, int]) -> str:
    """The CSS class of the grid's cell ``at``: ``lay-at-0_m1`` for [0, -1]."""
    return "lay-at-" + "_".join(str(x).replace("-", "m") for x in at)


class Draft:
    """One player's station as typed so far: cells, spaceships, credits, track VP."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], dict[str, Any]] = {MAIN: {"reactor": True, "cubes": 0}}
        self.ships: set[tuple[int, int]] = set()
        self.credits = 0
        self.vp = 0

    def entry(self, player: str) -> dict[str, Any]:
        """The ``lay`` entry of this draft (docs/record-format.md)."""
        cells = []
        for at in sorted(self.cells):
            c = self.cells[at]
            cells.append({"at": list(at), **({"card": c["card"]} if "card" in c else
                                              {"reactor": True, "cubes": c["cubes"]})})
        a: dict[str, Any] = {"do": "lay", "player": player, "cells": cells,
                             "credits": self.credits, "vp": self.vp}
        if self.ships:
            a["spaceships"] = [list(s) for s in sorted(self.ships)]
        return a

    def to_json(self) -> dict[str, Any]:
        """What is kept in the store between taps (companion.table.drafts)."""
        return {"cells": [{"at": list(at), **c} for at, c in sorted(self.cells.items())],
                "ships": [list(s) for s in sorted(self.ships)],
                "credits": self.credits, "vp": self.vp}

    @classmethod
    def from_json(cls, data: Any) -> "Draft":
        """A draft read back; anything that does not read as one is left out."""
        d = cls()
        if not isinstance(data, dict):
            return d

        def cell(x: Any) -> tuple[int, int] | None:
            ok = isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x)
            return (x[0], x[1]) if ok else None
        for c in data.get("cells") or []:
            at = cell(c.get("at")) if isinstance(c, dict) else None
            if at is None:
                continue
            if isinstance(c.get("card"), str) and at != MAIN:
                d.cells[at] = {"card": c["card"][:200]}
            elif c.get("reactor") is True and c.get("cubes") in (0, 1, 2):
                d.cells[at] = {"reactor": True, "cubes": c["cubes"]}
        d.ships = {at for at in map(cell, data.get("ships") or []) if at is not None}
        for key in ("credits", "vp"):
            v = data.get(key)
            setattr(d, key, v if type(v) is int and 0 <= v <= 999 else 0)
        return d

    @classmethod
    def from_entry(cls, entry: dict[str, Any]) -> "Draft":
        """The draft a ``lay`` entry was laid from (the inverse of :meth:`entry`): a lay
        undone is the player's draft again, nothing typed lost."""
        return cls.from_json({"cells": entry.get("cells"), "ships": entry.get("spaceships"),
                              "credits": entry.get("credits"), "vp": entry.get("vp")})

    def extent(self) -> tuple[int, int, int, int]:
        """Rows and columns shown: what is laid and one cell around it."""
        cells = set(self.cells) | self.ships
        return (min(r for r, _ in cells) - 1, max(r for r, _ in cells) + 1,
                min(c for _, c in cells) - 1, max(c for _, c in cells) + 1)


class LayPanel:
    """The station-laying panel of one page (see the module's docstring)."""

    def __init__(self, app) -> None:
        self.app = app
        self.selected: tuple[int, int] = MAIN
        self.player = w.Dropdown(description="Station of", options=[])
        self.player.add_class("lay-player")
        self.player.observe(app.guarded(lambda _: self._draw()), "value")
        self.title = w.HTML()
        self.title.add_class("lay-title")
        self.grid = w.GridBox()
        self.grid.add_class("lay-grid")
        self.cell_line = w.HTML()
        self.cell_line.add_class("lay-cell-line")
        self.what = w.ToggleButtons(options=WHAT, value="card")
        self.what.add_class("lay-what")
        self.card = w.Combobox(placeholder="the card's name, as printed", ensure_option=False,
                               layout=w.Layout(width="300px", max_width="100%"))
        self.card.add_class("lay-card")
        # a name picked (or typed) whole that no other name begins with is put at once
        self.card.observe(app.guarded(lambda ch: self._named(ch["new"])), "value")
        self.quiet = False              # the page itself is setting the name field
        self.cubes = w.ToggleButtons(options=[("0 cubes", 0), ("1 cube", 1), ("2 cubes", 2)],
                                     value=0)
        self.cubes.add_class("lay-cubes")
        self.put = w.Button(description="Put it here", icon="check",
                            layout=w.Layout(width="auto", min_height="44px"))
        self.put.add_class("lay-put")
        self.put.on_click(app.guarded(lambda _: self._put()))
        self.credits = w.BoundedIntText(value=0, min=0, max=999, description="Credits",
                                        style={"description_width": "initial"},
                                        layout=w.Layout(width="160px"))
        self.credits.add_class("lay-credits")
        self.vp = w.BoundedIntText(value=0, min=0, max=999, description="Track VP",
                                   tooltip="the player's VP on the score track",
                                   style={"description_width": "initial"},
                                   layout=w.Layout(width="160px"))
        self.vp.add_class("lay-vp")
        self.lay = w.Button(description="Lay the station", button_style="primary", icon="flag",
                            layout=w.Layout(width="auto", min_height="44px"))
        self.lay.add_class("lay-station")
        self.lay.on_click(app.guarded(lambda _: self._lay()))
        self.message = w.HTML()
        self.message.add_class("lay-message")
        self.drafts = Drafts(lambda: app.session, Draft, self.message)
        self.what.observe(app.guarded(lambda _: self._show_editor()), "value")
        self.credits.observe(app.guarded(lambda ch: self._typed("credits", ch["new"])), "value")
        self.vp.observe(app.guarded(lambda ch: self._typed("vp", ch["new"])), "value")
        self.editor = w.VBox([self.cell_line, self.what, self.card, self.cubes, self.put])
        # the card form for printed values the lay needs (a MAX when a station holds two
        # copies): asked here, beside the button, as a build asks them beside its grid
        self.values = w.VBox()
        self.values.add_class("lay-values")
        self.asked: Any = None          # the card definition the form was opened for
        self.pick: str | None = None    # the player whose lay this page undid: shown next
        # a photo of the station: its cards proposed cell by cell (issue 40)
        self.photo = StationPhoto(self, self.put_named)
        self.box = w.VBox([w.HTML(CSS), self.title, self.player, self.photo.box, self.grid,
                           self.editor,
                           w.HBox([self.credits, self.vp], layout=w.Layout(flex_flow="row wrap")),
                           self.message, self.values, self.lay])
        self.box.add_class("lay-panel")

    # -- which station ----------------------------------------------------------------
    def still_to_lay(self) -> list[str]:
        g = self.app.game
        return g.still_to_lay() if g is not None else []

    def refresh(self) -> w.Widget | None:
        """The panel for the mode panel, or None when nothing is to be laid here."""
        todo = self.still_to_lay()
        g = self.app.game
        pick, self.pick = self.pick, None       # asked for once, by this refresh only
        if self.asked is not None and (g is None or g.catalogue.get(self.asked.name)
                                       is not self.asked):
            self.asked, self.values.children = None, ()      # its values were saved
            self.message.value = ("<div class='lay-saved'>The card's values are saved: press "
                                  "<b>Lay</b> again.</div>") if todo else ""
        if not todo:
            self.drafts.clear()
            return None
        for p in g.state.laid:          # laid: a lay undone later reads the store's draft
            self.drafts.mine.pop(p, None)
        names = tuple(g.catalogue.names("location"))
        if self.card.options != names:
            self.card.options = names
        ships = bool(g.setup.options.get("spaceships"))
        opts = [o for o in WHAT if ships or o[1] != "ship"]
        if list(self.what.options) != opts:
            self.what.options = opts
        laid = ", ".join(g.state.laid)
        self.title.value = ("<h3 style='margin:4px 0'>Lay each station as it lies</h3><div>"
                            f"Still to lay: <b>{escape(', '.join(todo))}</b>"
                            + (f"; laid: {escape(laid)}" if laid else "") + ". Tap a cell, "
                            "say what lies there, then the credits and the VP on the score "
                            "track.</div>")
        seat, view = self.app.seat, self.app.view
        if view == "table":
            self.title.value += "<div><i>The players lay their stations on their pages.</i></div>"
            return self.title
        mine = [seat] if seat else todo
        mine = [p for p in mine if p in todo]
        if not mine:
            self.title.value += ("<div><i>Your station is laid: the others are laying "
                                 "theirs.</i></div>")
            return self.title
        keep = next(p for p in (pick, self.player.value, mine[0]) if p in mine)
        with self.player.hold_sync():
            self.player.options = mine
            self.player.value = keep
        self.player.layout.display = "none" if len(mine) == 1 else ""
        self._draw()
        return self.box

    def undone(self, entry: dict[str, Any]) -> None:
        """``entry`` was undone on this page (the screen's *Undo*): a lay is its player's
        draft again, kept in the store as after a tap (other pages find it), and the
        panel shows that player's station."""
        player = self.drafts.restore(entry)
        if player is not None:
            self.pick, self.selected = player, MAIN

    def _typed(self, key: str, value: int) -> None:
        if self.player.value and getattr(self._draft(), key) != int(value):
            setattr(self._draft(), key, int(value))
            self._keep()

    def _draft(self) -> Draft:
        """The player's draft (companion.ui.drafting)."""
        return self.drafts.get(self.player.value)

    def _keep(self) -> None:
        """The draft kept in the store after each tap (nothing typed is lost)."""
        self.drafts.keep(self.player.value)

    def _draw(self) -> None:
        if not self.player.value:
            return
        d = self._draft()
        r0, r1, c0, c1 = d.extent()
        kids = []
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                kids.append(self._cell((r, c), d))
        self.grid.layout.grid_template_columns = f"repeat({c1 - c0 + 1}, minmax(64px, 1fr))"
        self.grid.children = kids
        self.credits.value, self.vp.value = d.credits, d.vp
        self.lay.description = f"Lay {self.player.value}'s station"
        self._show_editor()

    def _cell(self, at: tuple[int, int], d: Draft) -> w.Button:
        c = d.cells.get(at)
        if c is not None and "card" in c:
            label, kind = c["card"], "location"
        elif c is not None:
            label = f"{'Main' if at == MAIN else 'Reactor'} {'■' * c['cubes'] or '□'}"
            kind = "reactor"
        elif at in d.ships:
            label, kind = "ship", "ship"
        else:
            label, kind = "+", "empty"
        b = w.Button(description=label, tooltip=f"{label} [{at[0]}, {at[1]}]",
                     layout=w.Layout(width="auto", min_height="44px"))
        b.add_class("lay-cell")
        b.add_class(f"lay-{kind}")
        b.add_class(cell_class(at))
        if at == self.selected:
            b.add_class("lay-selected")
            b.button_style = "info"
        b.on_click(self.app.guarded(lambda _, at=at: self._select(at)))
        return b

    def _select(self, at: tuple[int, int]) -> None:
        self.selected = at
        d = self._draft()
        c = d.cells.get(at)
        self.quiet = True
        try:
            with self.what.hold_trait_notifications():
                if at == MAIN or (c is not None and "card" not in c):
                    self.what.value = "reactor"
                    self.cubes.value = c["cubes"] if c is not None else 0
                elif c is not None:
                    self.what.value = "card"
                    self.card.value = c["card"]
                elif at in d.ships:
                    self.what.value = "ship"
                else:
                    self.what.value = "card"
                    self.card.value = ""
        finally:
            self.quiet = False
        self._draw()
        if self.what.value == "card" and at != MAIN:
            self.card.focus()           # the keyboard up at once: one tap less a card

    def _named(self, value: str) -> None:
        """The name field changed: a catalogue name whole that no other name begins with
        (the list's pick, or typed to its end) is put on the cell at once."""
        name = (value or "").strip()
        if self.quiet or not name or self.what.value != "card" or self.selected == MAIN:
            return
        names = self.card.options or ()
        if name in names and not any(n != name and n.startswith(name) for n in names):
            c = self._draft().cells.get(self.selected)
            if c is None or c.get("card") != name:
                self._put()

    def _show_editor(self) -> None:
        at = self.selected
        what = self.what.value
        where = "the Main Reactor" if at == MAIN else f"the cell [{at[0]}, {at[1]}]"
        self.cell_line.value = f"<b>{escape(where)}</b>:"
        self.what.layout.display = "none" if at == MAIN else ""
        self.card.layout.display = "" if what == "card" and at != MAIN else "none"
        self.cubes.layout.display = "" if what == "reactor" or at == MAIN else "none"

    def _put(self) -> None:
        d = self._draft()
        at, what = self.selected, self.what.value
        if at == MAIN or what == "reactor":
            d.cells[at] = {"reactor": True, "cubes": int(self.cubes.value)}
            d.ships.discard(at)
        elif what == "card":
            name = (self.card.value or "").strip()
            if not name:
                raise CompanionError(f"Type the name of the card at [{at[0]}, {at[1]}], or "
                                     "choose Nothing.")
            known = self.app.game.catalogue.get(name)
            d.cells[at] = {"card": known.name if known is not None else name}
            d.ships.discard(at)
        elif what == "ship":
            d.cells.pop(at, None)
            d.ships.add(at)
        else:
            d.cells.pop(at, None)
            d.ships.discard(at)
        self.message.value = ""
        self._keep()
        self._draw()

    def put_named(self, at: tuple[int, int], name: str) -> None:
        """A card the station's photo read, put on ``at`` by the player's tap (a Power
        Reactor with no cube: the cubes are the player's to set)."""
        if at == MAIN:
            raise CompanionError("The Main Reactor is at [0, 0]: set its cubes on its cell.")
        d = self._draft()
        known = self.app.game.catalogue.get(name)
        d.cells[at] = ({"reactor": True, "cubes": 0} if name == "Power Reactor" and known is None
                       else {"card": known.name if known is not None else name})
        d.ships.discard(at)
        self._keep()
        self._draw()

    # -- lay it -----------------------------------------------------------------------
    def _lay(self) -> None:
        d = self._draft()
        d.credits, d.vp = int(self.credits.value), int(self.vp.value)
        player = self.player.value
        self.message.value = ""
        try:
            unknown = sorted({c["card"] for c in d.cells.values() if "card" in c
                              and self.app.game.catalogue.get(c["card"]) is None})
            if unknown:
                raise CompanionError(
                    f"Not laid: {', '.join(repr(n) for n in unknown)} "
                    f"{'is' if len(unknown) == 1 else 'are'} not in your catalogue. Check the "
                    "spelling on the physical card; a card we do not ship is added in the "
                    "catalogue (setup screen, Cards still unknown) by its name and printed "
                    "values.")
            self.app.push_entry(d.entry(player))
        except UnknownCardValues as e:
            # the values typed from the physical card, once (the catalogue keeps them)
            self.message.value = (f"<div class='status-error' style='color:#b00020'>⚠ "
                                  f"{escape(str(e))}</div>")
            self.asked = self.app.game.catalogue.get(e.card)
            self.app.entry_part.ask_values(e.card, e.fields, box=self.values)
            raise
        except CompanionError as e:
            # said beside the button too (the status line is at the page's top)
            self.message.value = (f"<div class='status-error' style='color:#b00020'>⚠ "
                                  f"{escape(str(e))}</div>")
            raise
        if player in self.app.game.state.laid:      # recorded (not a page behind the store)
            self.drafts.laid(player)
            self.photo.clear()
            self.selected = MAIN
