"""Small Star Empires sector tiles (issue 24): typing a tile from the piece in hand, and
drawing a form (the arrangement of tile places).  Two parts of the setup screen
(:class:`companion.ui.sse_setup.SseSetupForm`), phone first: one hand at 390 px.

- :class:`TileTyper` (``box``): the tile's id, its kind, its other side; a brush palette
  (1, 2, 3 planets; red, blue, green nebula; empty; homeworld; erase) and the 19 hexes
  within distance 2 of the tile's middle (rows 3-4-5-4-3, the middle marked), a touch
  target each; *Save*; the typed tiles (tap to edit, delete), how many of the box's tiles
  are not typed yet, export and import.
- :class:`FormDrawer` (``box``): a coarse grid of tile places (hexes); a tap cycles
  empty -> main -> homeworld -> empty; name, title, the tiles' reach; a picture of the
  form; *Save*.

No rule here: the tile and the form are checked by the engine (companion.sse.tiles,
companion.sse.forms), whose one-line errors are shown; every write goes through the
page's session (``save_tile``, ``delete_tile``, ``import_tiles``, ``save_form``).

Stable CSS hooks: ``sse-tile-id``, ``sse-tile-kind``, ``sse-tile-other``, ``sse-tile-brush``,
``sse-tile-grid`` (hex buttons ``hx_<q>_<r>``), ``sse-tile-save``, ``sse-tile-new``,
``sse-tile-message``, ``sse-tile-list``, ``sse-tile-edit``, ``sse-tile-delete``,
``sse-tile-unknown``, ``sse-tile-export``, ``sse-tile-import``; ``sse-form-grid``,
``sse-form-name``, ``sse-form-title``, ``sse-form-reach``, ``sse-form-save``,
``sse-form-message``, ``sse-form-picture``.
"""
from __future__ import annotations

import base64
import os
import tempfile
from typing import TYPE_CHECKING, Any, Callable

import ipywidgets as w

from ..core.errors import CompanionError
from ..core.htmlsafe import escape
from ..core.roles import Write
from ..sse import hexmap as hm
from ..sse.hexmap import HexMap, System
from ..sse.render import KIND_FILL, map_svg
from .sse_board import HexBoard, system_cell
from .writes import writes

if TYPE_CHECKING:
    from .session import GameSession

#: the radius of the typing grid (the engine's TILE_REACH: 19 hexes)
GRID_REACH = 2
#: the radius of the form's coarse grid of tile places (37 places)
FORM_CELLS = 3
ERR = "#b00020"
OK = "#1b6e20"

#: the brushes: label -> the system a tap puts there (None: erase).  The homeworld on a
#: tile has no seat yet (the seat is given when the map is laid).
BRUSHES: list[tuple[str, System | None]] = (
    [(f"{n}●", System("planetary", planets=n)) for n in (1, 2, 3)]
    + [(c, System("nebula", colour=c)) for c in hm.COLOURS]
    + [("empty", System("empty")), ("home", System("homeworld")), ("erase", None)])
BRUSH_NAMES = [b for b, _ in BRUSHES]


def within(reach: int) -> list[hm.Hex]:
    """The hexes within ``reach`` of (0, 0), row by row."""
    return [(q, r) for r in range(-reach, reach + 1) for q in range(-reach, reach + 1)
            if hm.distance((0, 0), (q, r)) <= reach]


def system_entry(at: hm.Hex, s: System) -> dict:
    """One system of a tile as the engine's ``SectorTile.from_dict`` reads it."""
    d: dict[str, Any] = {"at": [at[0], at[1]], "type": s.kind}
    if s.kind == "planetary":
        d["planets"] = s.planets
    elif s.kind == "nebula":
        d["colour"] = s.colour
    return d


def upload_to_file(upload: w.FileUpload, suffix: str,
                   use: Callable[[str], Any]) -> Any:
    """The first file of ``upload`` written to a temporary file, ``use(path)``'s result;
    the file is removed after.  None when nothing was uploaded."""
    files = upload.value
    if not files:
        return None
    f = files[0]
    content = bytes(f["content"]) if isinstance(f, dict) else bytes(f.content)
    with tempfile.NamedTemporaryFile("wb", suffix=suffix, delete=False) as t:
        t.write(content)
    try:
        return use(t.name)
    finally:
        os.unlink(t.name)


def _say(html: w.HTML, text: str, ok: bool) -> None:
    html.value = (f"<div style='color:{OK if ok else ERR};font-weight:600'>"
                  f"{escape(text)}</div>")


class TileTyper:
    """Typing the box's sector tiles, one from the piece in hand at a time."""

    def __init__(self, session: GameSession, guarded: Callable, on_change: Callable = lambda: None):
        self.session = session
        self.on_change = on_change          # the laying part's list of tiles follows
        self.systems: dict[hm.Hex, System] = {}
        self.tile_id = w.Text(description="Tile", placeholder="e.g. M1a (as you name it)",
                              layout=w.Layout(width="260px"))
        self.tile_id.add_class("sse-tile-id")
        self.kind = w.ToggleButtons(options=[("main", "main"), ("homeworld", "homeworld")],
                                    value="main")
        self.kind.add_class("sse-tile-kind")
        self.other = w.Text(description="Other side", placeholder="(optional) its id",
                            layout=w.Layout(width="260px"))
        self.other.add_class("sse-tile-other")
        self.brush = w.ToggleButtons(options=BRUSH_NAMES, value=BRUSH_NAMES[0])
        self.brush.add_class("sse-tile-brush")
        self.grid = HexBoard(guarded(self.tap), css="sse-tile-grid")
        self.save_btn = save = w.Button(description="Save tile", button_style="success",
                                        icon="save")
        save.add_class("sse-tile-save")
        save.on_click(guarded(lambda _: self.save()))
        new = w.Button(description="New tile", icon="plus")
        new.add_class("sse-tile-new")
        new.on_click(guarded(lambda _: self.clear()))
        self.message = w.HTML()
        self.message.add_class("sse-tile-message")
        #: the tile whose delete was tapped once: a second tap deletes it (issue 37)
        self.confirm_delete: str | None = None
        self.unknown = w.HTML()
        self.unknown.add_class("sse-tile-unknown")
        self.listing = w.VBox()
        self.listing.add_class("sse-tile-list")
        self.export = w.HTML()
        self.export.add_class("sse-tile-export")
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Import tiles")
        self.upload.add_class("sse-tile-import")
        writes(self.upload)
        self.upload.observe(guarded(lambda _: self.import_file()), "value")
        self.box = writes(w.VBox([
            w.HTML("<div><small>Type each sector tile once, from the tile in hand: choose a "
                   "brush, then tap its systems (the marked hex is the tile's middle). "
                   "The other side of a double-sided tile is a tile of its own.</small></div>"),
            self.tile_id, self.kind, self.other, self.brush, self.grid.box,
            w.HBox([save, new]), self.message, self.unknown, self.listing,
            w.HBox([self.export, self.upload])]))
        self.box.add_class("sse-tiles")
        self.draw()

    # -- the tile being typed -----------------------------------------------------------
    def tap(self, h: hm.Hex) -> None:
        """A tap on hex ``h`` of the grid: the brush's system there (erase: none)."""
        system = dict(BRUSHES)[self.brush.value]
        if system is None:
            self.systems.pop(h, None)
        else:
            self.systems[h] = system
        self.draw()

    def draw(self) -> None:
        cells = {}
        for h in within(GRID_REACH):
            s = self.systems.get(h)
            if s is None:
                c = {"label": "·", "fill": "#dcdcd6"}
            elif s.kind == "homeworld":
                c = {"label": "home", "fill": KIND_FILL["homeworld"]}
            else:
                c = system_cell(s)
            if h == (0, 0):
                c = {**c, "label": (c["label"] if s is not None else "") + " ◎",
                     "state": (c.get("state", "") + " selected").strip()}
            c["tip"] = f"[{h[0]}, {h[1]}] " + (s.describe() if s and s.kind != "homeworld"
                                               else "homeworld" if s else "no system")
            cells[h] = c
        self.grid.draw(cells)

    def as_dict(self) -> dict:
        """The tile as typed, in the engine's file shape."""
        d: dict[str, Any] = {"id": self.tile_id.value.strip(), "kind": self.kind.value,
                             "systems": [system_entry(h, s) for h, s in sorted(
                                 self.systems.items(), key=lambda x: (x[0][1], x[0][0]))]}
        if self.other.value.strip():
            d["other_side"] = self.other.value.strip()
        return d

    def save(self) -> Any:
        """Check the typed tile with the engine (one line when refused: nothing saved),
        then save it through the session."""
        from ..sse import tiles
        try:
            tile = tiles.SectorTile.from_dict(self.as_dict())
            self.session.save_tile(tile)
        except CompanionError as e:
            _say(self.message, str(e), False)
            return None
        _say(self.message, f"Saved tile {tile.id} ({len(tile.systems)} systems).", True)
        self.clear(keep_message=True)
        return tile

    def clear(self, keep_message: bool = False) -> None:
        """An empty grid for the next tile (its kind kept)."""
        self.systems = {}
        self.tile_id.value = ""
        self.other.value = ""
        if not keep_message:
            self.message.value = ""
        self.draw()
        self.refresh()

    def edit(self, tile_id: str) -> None:
        """Load typed tile ``tile_id`` into the form (saving it again replaces it)."""
        from ..sse import tiles
        t = tiles.load_tiles().get(tile_id)
        if t is None:
            raise CompanionError(f"Tile {tile_id} is no longer typed (deleted on another page?).")
        self.systems = dict(t.systems)
        self.tile_id.value = t.id
        self.kind.value = t.kind
        self.other.value = t.other_side or ""
        self.message.value = ""
        self.draw()

    def delete(self, tile_id: str) -> None:
        self.session.delete_tile(tile_id)
        _say(self.message, f"Deleted tile {tile_id}.", True)
        self.refresh()

    # -- the typed tiles ---------------------------------------------------------------
    def refresh(self) -> None:
        """The list of typed tiles, the count still to type, the export link."""
        from ..sse import tiles
        try:
            typed = tiles.load_tiles()
        except CompanionError as e:
            _say(self.message, str(e), False)
            typed = {}
        rows = []
        for tid in sorted(typed):
            t = typed[tid]
            b = w.Button(description=tid, tooltip=f"edit {tid}", layout=w.Layout(width="auto"))
            b.add_class("sse-tile-edit")
            b.on_click(lambda _, tid=tid: self._guarded_edit(tid))
            sure = self.confirm_delete == tid
            d = w.Button(description=f"tap again to delete {tid}" if sure else "delete",
                         icon="trash", button_style="danger" if sure else "",
                         layout=w.Layout(width="auto"))
            d.add_class("sse-tile-delete")
            d.on_click(lambda _, tid=tid: self._guarded_delete(tid))
            other = f", other side {t.other_side}" if t.other_side else ""
            # a row that wraps: on a phone the asking "tap again to delete" button takes a
            # line of its own instead of cutting the tile's name and its own words
            rows.append(w.HBox([b, w.HTML(f"{escape(t.kind)}, {len(t.systems)} systems"
                                          f"{escape(other)}"), d],
                               layout=w.Layout(flex_flow="row wrap")))
        self.listing.children = rows
        missing = tiles.unknown_tiles(typed)
        left = ", ".join(f"{n} {k}" for k, n in missing.items() if n)
        self.unknown.value = (f"<div>{len(typed)} tile face(s) typed. Still to type from the "
                              f"box: {escape(left)}.</div>" if left else
                              f"<div>{len(typed)} tile face(s) typed: every tile of the box "
                              "is typed.</div>")
        if typed:
            data = base64.b64encode(tiles.dumps_tiles(typed).encode()).decode()
            self.export.value = (f"<a class='sse-tiles-export-link export-link' download='sse-tiles.json' "
                                 f"href='data:application/json;base64,{data}'>⬇ Export our tiles "
                                 f"({len(typed)})</a>")
        else:
            self.export.value = "<i>(no tiles typed yet)</i>"
        self.on_change()

    def _guarded_edit(self, tid: str) -> None:
        self.confirm_delete = None
        try:
            self.edit(tid)
        except CompanionError as e:
            _say(self.message, str(e), False)

    def _guarded_delete(self, tid: str) -> None:
        """The first tap asks; a second tap on the same tile deletes it (issue 37:
        "deleting a typed sector tile asks no confirmation")."""
        if self.confirm_delete != tid:
            self.confirm_delete = tid
            self.refresh()
            _say(self.message, f"Delete tile {tid}? Its systems are lost: tap 'tap again to "
                 f"delete {tid}' to delete it, or go on typing to keep it.", False)
            return
        self.confirm_delete = None
        try:
            self.delete(tid)
        except CompanionError as e:
            _say(self.message, str(e), False)

    def import_file(self) -> None:
        """Import a tiles file (all or nothing: the engine refuses a file with one bad
        tile, and nothing is saved)."""
        if not self.upload.value:
            return
        self.session.require(Write.IMPORT)      # before the file is even read
        try:
            ids = upload_to_file(self.upload, ".json", self.session.import_tiles)
        except CompanionError as e:
            _say(self.message, str(e), False)
            return
        _say(self.message, f"Imported {len(ids or [])} tile(s): {', '.join(ids or [])}.", True)
        self.refresh()


class FormDrawer:
    """Drawing a form: a tap on a place cycles empty -> main -> homeworld -> empty."""

    CYCLE = {None: "main", "main": "homeworld", "homeworld": None}

    def __init__(self, session: GameSession, guarded: Callable, on_change: Callable = lambda: None):
        self.session = session
        self.on_change = on_change
        self.places: dict[hm.Hex, str] = {}
        self.grid = HexBoard(guarded(self.tap), css="sse-form-grid")
        self.name = w.Text(description="Name", placeholder="e.g. our-3p",
                           layout=w.Layout(width="260px"))
        self.name.add_class("sse-form-name")
        self.title = w.Text(description="Title", placeholder="our 3-player form",
                            layout=w.Layout(width="260px"))
        self.title.add_class("sse-form-title")
        self.reach = w.Dropdown(options=[("7 systems (reach 1)", 1), ("19 systems (reach 2)", 2)],
                                value=1, description="Tiles of")
        self.reach.add_class("sse-form-reach")
        self.reach.observe(guarded(lambda _: self.draw()), "value")
        self.save_btn = save = w.Button(description="Save form", button_style="success",
                                        icon="save")
        save.add_class("sse-form-save")
        save.on_click(guarded(lambda _: self.save()))
        self.message = w.HTML()
        self.message.add_class("sse-form-message")
        self.picture = w.HTML()
        self.picture.add_class("sse-form-picture")
        self.box = writes(w.VBox([
            w.HTML("<div><small>Copy the book's picture: tap a place once for a main sector "
                   "tile, again for a homeworld tile, again to leave it empty.</small></div>"),
            self.grid.box, self.name, self.title, self.reach, save, self.message,
            self.picture]), host_only=True)
        self.box.add_class("sse-forms")
        self.draw()

    def tap(self, cell: hm.Hex) -> None:
        nxt = self.CYCLE[self.places.get(cell)]
        if nxt is None:
            self.places.pop(cell, None)
        else:
            self.places[cell] = nxt
        self.draw()

    def draw(self) -> None:
        cells = {}
        for c in within(FORM_CELLS):
            kind = self.places.get(c)
            cells[c] = ({"label": "·", "fill": "#dcdcd6"} if kind is None
                        else {"label": "main", "fill": KIND_FILL["planetary"]} if kind == "main"
                        else {"label": "home", "fill": "#ffe9a8"})
            cells[c]["tip"] = f"place [{c[0]}, {c[1]}]: {kind or 'empty'}"
        self.grid.draw(cells)
        self.picture.value = self._picture()

    def as_dict(self) -> dict:
        ordered = sorted(self.places.items(), key=lambda x: (x[1] != "homeworld", x[0][1], x[0][0]))
        return {"name": self.name.value.strip(), "title": self.title.value.strip() or
                self.name.value.strip(), "reach": self.reach.value,
                "places": [{"at": [a, b], "kind": k} for (a, b), k in ordered]}

    def _picture(self) -> str:
        """The form as a picture: each place's hexes (as far as its tiles reach), its
        middle hex marked (a homeworld place with its seat, in form order)."""
        if not self.places:
            return "<div><small>No places yet.</small></div>"
        return form_svg(self.as_dict())

    def save(self) -> Any:
        from ..sse import forms
        d = self.as_dict()
        if not d["name"]:
            _say(self.message, "Type a name for the form.", False)
            return None
        try:
            form = forms.Form.from_dict({"format": forms.FORM_FORMAT, **d})
            self.session.save_form(form, d["name"])
        except CompanionError as e:
            _say(self.message, str(e), False)
            return None
        _say(self.message, f"Saved the form '{form.name}' ({len(form.places)} places, "
             f"{form.players} players).", True)
        self.on_change()
        return form


def form_svg(form_dict: dict, size: float = 14) -> str:
    """A picture of a form (its dict): every hex of each place's reach, the middles
    marked: homeworld places by their seat, main places by a '?'."""
    from ..sse.forms import lattice
    reach = int(form_dict.get("reach", 1))
    A, B = lattice(reach)
    systems: dict[hm.Hex, System] = {}
    seat = 0
    for p in form_dict["places"]:
        a, b = p["at"]
        mid = (a * A[0] + b * B[0], a * A[1] + b * B[1])
        for dq, dr in within(reach):
            systems.setdefault((mid[0] + dq, mid[1] + dr), System("empty"))
        if p["kind"] == "homeworld":
            seat += 1
            systems[mid] = System("homeworld", home=seat)
        else:
            systems[mid] = System("unexplored")
    return map_svg(HexMap(systems, name="form"), size=size)
