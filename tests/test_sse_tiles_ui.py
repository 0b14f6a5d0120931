"""Issue 24, the page: typing sector tiles, drawing a form and laying a game's map from the
table's tiles, driven through the widgets in-process (no browser), every tap counted.

The tiles here are TEST INPUTS (made-up systems), not the box's real tiles: nobody tells
us a tile's contents (the player types them from the piece in hand).  The book's counts
(Components: "4 Homeworld Sector Tiles, 7 Main Sector Tiles") are the engine's
(companion.sse.tiles.BOX)."""
from __future__ import annotations

import base64
import json
import re

import pytest

from companion.core.errors import RoleRefused
from companion.core.roles import Role
from companion.table.store import Store
from companion.ui import sse_tiles
from companion.ui.session import GameSession

tiles = pytest.importorskip("companion.sse.tiles")
forms = pytest.importorskip("companion.sse.forms")
laying = pytest.importorskip("companion.sse.laying")

RING = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]     # around the middle


class Taps:
    """Every tap and choice of a person, counted."""

    def __init__(self) -> None:
        self.n = 0

    def click(self, button) -> None:
        self.n += 1
        button.click()

    def choose(self, widget, value) -> None:
        self.n += 1
        widget.value = value

    def type(self, text_widget, text: str) -> None:        # one field typed: one tap
        self.n += 1
        text_widget.value = text


#: made-up tiles (test inputs): 7 systems each, as (brush, hex) taps.  Together (homeworld
#: tiles 0-3, main tiles 0-6) they hold at most 3 nebulae of each colour, as the box does
#: ("There are three Nebula Systems of each color"; a map with more is refused)
def homeworld_tile(k: int) -> list[tuple[str, tuple[int, int]]]:
    out = [("home", (0, 0))]
    brushes = (["1●", "2●", "red", "empty", "3●", "blue"] if k == 0 else
               ["1●", "2●", "3●", "empty", "3●", "1●"])
    return out + [(brushes[(i + k) % 6], h) for i, h in enumerate(RING)]


def main_tile(k: int) -> list[tuple[str, tuple[int, int]]]:
    brushes = ["2●", ("green", "blue", "red")[k % 3], "1●", "empty", "3●", "2●"]
    return [("empty", (0, 0))] + [(brushes[(i + k) % 6], h) for i, h in enumerate(RING)]


def type_tile(typer: sse_tiles.TileTyper, taps: Taps, tid: str, kind: str,
              systems: list[tuple[str, tuple[int, int]]]) -> None:
    taps.type(typer.tile_id, tid)
    if typer.kind.value != kind:
        taps.choose(typer.kind, kind)
    for brush, h in systems:
        if typer.brush.value != brush:
            taps.choose(typer.brush, brush)
        taps.click(typer.grid.buttons[h])
    taps.click(next(b for b in _buttons(typer.box) if "sse-tile-save" in b._dom_classes))


def _buttons(box):
    import ipywidgets as w
    out = []
    for c in getattr(box, "children", ()):
        if isinstance(c, w.Button):
            out.append(c)
        out += _buttons(c)
    return out


def one_line(html: str) -> str:
    text = re.sub(r"<[^>]+>", "", html).strip()
    assert text and "\n" not in text and "Traceback" not in text, html
    return text


@pytest.fixture
def tab(tmp_path):
    from companion.ui.app import App
    app = App(Store(tmp_path / "games.sqlite"))
    app.tabs.selected_index = 1
    tab = app.sse
    tab.show_setup()
    return tab


def test_a_tile_typed_by_taps_is_saved_and_listed(tab):
    typer, taps = tab.setup_part.tiles, Taps()
    type_tile(typer, taps, "H1", "homeworld", homeworld_tile(0))
    saved = tiles.load_tiles()
    assert list(saved) == ["H1"] and saved["H1"].kind == "homeworld"
    assert saved["H1"].systems[(0, 0)].kind == "homeworld"
    assert saved["H1"].systems[(1, 0)].kind == "planetary" and saved["H1"].systems[(1, 0)].planets == 1
    assert saved["H1"].systems[(1, -1)].planets == 2
    assert saved["H1"].systems[(0, -1)].colour == "red"
    assert len(saved["H1"].systems) == 7
    assert "Saved tile H1" in typer.message.value
    assert [b.description for b in _buttons(typer.listing) if "sse-tile-edit" in b._dom_classes] == ["H1"]
    # the count of the box's tiles still to type is the engine's
    left = tiles.unknown_tiles(saved)
    assert f"{left['homeworld']} homeworld" in typer.unknown.value
    # the grid is empty again for the next tile; the taps: id, kind, 7 brushes (each system
    # differs from the one before), 7 hexes, save
    assert typer.systems == {} and typer.tile_id.value == ""
    assert taps.n == 1 + 1 + 7 + 7 + 1


def test_the_grid_has_19_hexes_in_rows_3_4_5_4_3_the_middle_marked(tab):
    typer = tab.setup_part.tiles
    hexes = list(typer.grid.buttons)
    assert len(hexes) == 19
    rows = {}
    for q, r in hexes:
        rows[r] = rows.get(r, 0) + 1
    assert [rows[r] for r in sorted(rows)] == [3, 4, 5, 4, 3]
    assert "◎" in typer.grid.buttons[(0, 0)].description
    assert "selected" in typer.grid.buttons[(0, 0)]._dom_classes
    assert all("◎" not in b.description for h, b in typer.grid.buttons.items() if h != (0, 0))


@pytest.mark.parametrize("kind, systems, words", [
    # a homeworld tile with two homeworld systems
    ("homeworld", [("home", (0, 0)), ("home", (1, 0))], "H9"),
    # a main tile with a homeworld system
    ("main", [("home", (0, 0)), ("1●", (1, 0))], "H9"),
])
def test_an_impossible_tile_shows_one_line_and_saves_nothing(tab, kind, systems, words):
    typer, taps = tab.setup_part.tiles, Taps()
    type_tile(typer, taps, "M1", "main", main_tile(0))
    before = tiles.load_tiles()
    type_tile(typer, taps, "H9", kind, systems)
    text = one_line(typer.message.value)
    assert words in text                           # the engine's line names the tile
    assert tiles.load_tiles() == before
    assert typer.systems                             # what was typed stays, to mend


def test_a_tile_is_edited_and_deleted_from_the_list(tab):
    typer, taps = tab.setup_part.tiles, Taps()
    type_tile(typer, taps, "M1", "main", main_tile(0))
    edit = next(b for b in _buttons(typer.listing) if b.description == "M1")
    edit.click()
    assert typer.tile_id.value == "M1" and len(typer.systems) == 7
    typer.brush.value = "erase"
    typer.grid.buttons[(1, 0)].click()
    _save(typer).click()
    assert len(tiles.load_tiles()["M1"].systems) == 6
    delete = next(b for b in _buttons(typer.listing) if "sse-tile-delete" in b._dom_classes)
    delete.click()          # issue 37: "deleting a typed sector tile asks no confirmation"
    assert "M1" in tiles.load_tiles() and "Delete tile M1?" in typer.message.value
    again = next(b for b in _buttons(typer.listing) if "sse-tile-delete" in b._dom_classes)
    assert again.description == "tap again to delete M1"
    again.click()
    assert tiles.load_tiles() == {} and "Deleted tile M1" in typer.message.value


def _save(typer):
    return next(b for b in _buttons(typer.box) if "sse-tile-save" in b._dom_classes)


class _Upload:
    def __init__(self, content: bytes):
        self.value = ({"name": "tiles.json", "content": content},)


def test_export_and_import_all_or_nothing(tab, tmp_path, monkeypatch):
    typer, taps = tab.setup_part.tiles, Taps()
    type_tile(typer, taps, "M1", "main", main_tile(0))
    type_tile(typer, taps, "H1", "homeworld", homeworld_tile(0))
    href = re.search(r"base64,([A-Za-z0-9+/=]+)", typer.export.value).group(1)
    exported = base64.b64decode(href)
    typer.session.delete_tile("M1")
    typer.session.delete_tile("H1")
    assert tiles.load_tiles() == {}
    monkeypatch.setattr(typer, "upload", _Upload(exported))
    typer.import_file()
    assert sorted(tiles.load_tiles()) == ["H1", "M1"]
    # one bad tile in the file: the whole file refused, nothing saved
    data = json.loads(exported)
    data["tiles"].append({"id": "M2", "kind": "main",
                          "systems": [{"at": [0, 0], "type": "planetary", "planets": 4}]})
    data["tiles"][0] = {**data["tiles"][0], "id": "X1"}
    monkeypatch.setattr(typer, "upload", _Upload(json.dumps(data).encode()))
    typer.import_file()
    one_line(typer.message.value)
    assert sorted(tiles.load_tiles()) == ["H1", "M1"]


def test_the_table_view_writes_no_tile_and_a_seat_types_tiles(tab, tmp_path):
    """Tiles are typed from the physical piece like card values: a seat may type them
    (Write.TILES), the table view writes nothing; a form is the host's (Write.MAP)."""
    typer = tab.setup_part.tiles
    tile = tiles.SectorTile.from_dict({"id": "M1", "kind": "main", "systems": [
        {"at": [0, 0], "type": "empty"}]})
    seat = GameSession(Store(tmp_path / "s.sqlite"), role=Role.SEAT)
    seat.save_tile(tile)
    assert "M1" in tiles.load_tiles()
    with pytest.raises(RoleRefused):
        seat.save_form(None)
    table = GameSession(Store(tmp_path / "t.sqlite"), role=Role.TABLE)
    for write in (lambda: table.save_tile(tile), lambda: table.delete_tile("M1"),
                  lambda: table.import_tiles(tmp_path / "x.json")):
        with pytest.raises(RoleRefused):
            write()
    assert "host-only" not in typer.box._dom_classes and "writes" in typer.box._dom_classes
    assert "host-only" in tab.setup_part.forms.box._dom_classes


# ------------------------------------------------------------------------- forms
#: a 3-player form on the coarse grid: three homeworld places around four main ones
FORM_3P = {(0, 0): "main", (0, 1): "main", (-1, 0): "main", (1, -1): "main",
           (1, 0): "homeworld", (-1, 1): "homeworld", (0, -1): "homeworld"}


def draw_form(drawer: sse_tiles.FormDrawer, taps: Taps, name: str, places: dict) -> None:
    for cell, kind in places.items():
        for _ in range(1 if kind == "main" else 2):
            taps.click(drawer.grid.buttons[cell])
    taps.type(drawer.name, name)
    taps.click(next(b for b in _buttons(drawer.box) if "sse-form-save" in b._dom_classes))


def test_a_form_drawn_by_taps_is_saved(tab):
    drawer, taps = tab.setup_part.forms, Taps()
    cell = (0, 0)
    for want in ("main", "homeworld", None):        # a tap cycles empty -> main -> home -> empty
        drawer.grid.buttons[cell].click()
        assert drawer.places.get(cell) == want
    draw_form(drawer, taps, "our-3p", FORM_3P)
    assert "Saved the form" in drawer.message.value, drawer.message.value
    form = forms.load_form("our-3p")
    assert form.players == 3 and len(form.places) == 7
    assert {p.at: p.kind for p in form.places} == FORM_3P
    assert "<svg" in drawer.picture.value


def test_a_form_the_engine_refuses_shows_one_line(tab):
    drawer = tab.setup_part.forms
    # one homeworld place only: the engine wants 2 to 4
    draw_form(drawer, Taps(), "bad", {(0, 0): "main", (1, 0): "homeworld"})
    one_line(drawer.message.value)
    assert "bad" not in forms.available_forms()


# ------------------------------------------------------------------------ laying
def _typed_box(tab, taps: Taps | None = None) -> None:
    typer, taps = tab.setup_part.tiles, taps or Taps()
    for k in range(3):
        type_tile(typer, taps, f"H{k + 1}", "homeworld", homeworld_tile(k))
    for k in range(4):
        type_tile(typer, taps, f"M{k + 1}", "main", main_tile(k))
    draw_form(tab.setup_part.forms, taps, "our-3p", FORM_3P)


def test_tiles_that_lay_more_nebulae_than_the_box_start_nothing_and_say_why(tab):
    """Issue 36: "There are three Nebula Systems of each color": main tiles typed with a
    red nebula each lay a map of 4 red ones; Start says so in one line, starts nothing,
    and keeps what was typed and laid."""
    typer, taps = tab.setup_part.tiles, Taps()
    for k in range(3):
        type_tile(typer, taps, f"H{k + 1}", "homeworld", homeworld_tile(k))
    red = ["2●", "red", "1●", "empty", "3●", "2●"]
    for k in range(4):
        type_tile(typer, taps, f"M{k + 1}", "main",
                  [("empty", (0, 0))] + [(red[i], h) for i, h in enumerate(RING)])
    draw_form(tab.setup_part.forms, taps, "our-3p", FORM_3P)
    setup, lay = tab.setup_part, tab.setup_part.laying
    setup.map_pick.value = ":tiles"
    lay.form_pick.value = "our-3p"
    lay.shuffle_btn.click()
    laid = lay.choices()
    for i, n in enumerate(("Ann", "Bob", "Cid")):
        setup.names[i].value = n
    setup.ships.value = 2
    setup.start_btn.click()
    said = tab.app.status.value
    assert "the map has 5 red nebulae" in said and "three Nebula Systems of each color" in said
    assert "Traceback" not in said
    assert tab.gid is None and tab.store.games() == []
    assert sorted(tiles.load_tiles()) == ["H1", "H2", "H3", "M1", "M2", "M3", "M4"]
    assert lay.choices() == laid


def test_laying_a_3_player_map_by_shuffle_takes_at_most_12_taps_and_starts_on_it(tab):
    """Issue 24: "laying a 3-player map from typed tiles takes at most 12 taps"."""
    _typed_box(tab)
    setup, lay = tab.setup_part, tab.setup_part.laying
    taps = Taps()
    taps.choose(setup.map_pick, ":tiles")
    if lay.form_pick.value != "our-3p":
        taps.choose(lay.form_pick, "our-3p")
    taps.click(lay.shuffle_btn)
    assert taps.n <= 12
    print(f"taps to lay a 3-player map by Shuffle: {taps.n}")
    # the engine's deal, from the seed the setup drew once, press n = 0
    want = laying.shuffle(lay.seed, forms.load_form("our-3p"), tiles.load_tiles(), n=0)
    assert [(p.tile, p.turn) for p in want] == lay.choices()
    assert "<svg" in lay.picture.value
    # a second press: n = 1
    lay.shuffle_btn.click()
    assert lay.dealt[0] == 1
    again = laying.shuffle(lay.seed, forms.load_form("our-3p"), tiles.load_tiles(), n=1)
    assert [(p.tile, p.turn) for p in again] == lay.choices()
    seed = lay.seed
    for i, n in enumerate(("Ann", "Bob", "Cid")):
        setup.names[i].value = n
    setup.ships.value = 2
    setup.start_game()
    rec = tab.store.load(tab.gid)
    assert rec["setup"]["seed"] == seed                # the record's seed: the shuffle's
    m = rec["setup"]["map"]
    assert m["layout"]["dealt"] == "shuffle" and m["layout"]["shuffle"] == 1
    assert m["layout"]["form"]["name"] == "our-3p"
    assert [p["tile"] for p in m["layout"]["places"]] == [p.tile for p in again]
    laid = laying.lay(forms.load_form("our-3p"), again, tiles.load_tiles(),
                      dealt="shuffle", shuffle=1)
    assert {tuple(s["at"]) for s in m["systems"]} == set(laid.systems)
    assert lay.seed != seed and lay.presses == 0        # the next game shuffles anew


def test_laying_by_hand_tile_and_turn_per_place(tab):
    _typed_box(tab)
    setup, lay = tab.setup_part, tab.setup_part.laying
    setup.map_pick.value = ":tiles"
    lay.form_pick.value = "our-3p"
    form = forms.load_form("our-3p")
    homes = iter(["H1", "H2", "H3"])
    mains = iter(["M1", "M2", "M3", "M4"])
    chosen = []
    for i, (tile, turn) in enumerate(lay.rows):
        tid = next(homes if form.places[i].kind == "homeworld" else mains)
        tile.value, turn.value = tid, i % 6
        chosen.append(laying.Placement(place=i, tile=tid, turn=i % 6))
    assert lay.dealt is None
    laid = laying.lay(form, chosen, tiles.load_tiles())
    assert lay.laid().systems == laid.systems and "<svg" in lay.picture.value
    # the Unexplored variant ticked in the setup feeds lay()
    setup.v_unexplored.value = True
    assert lay.laid().systems == laying.lay(form, chosen, tiles.load_tiles(),
                                            unexplored=True).systems


def test_shuffle_with_too_few_typed_tiles_shows_the_engines_line(tab):
    typer, taps = tab.setup_part.tiles, Taps()
    type_tile(typer, taps, "H1", "homeworld", homeworld_tile(0))
    draw_form(tab.setup_part.forms, taps, "our-3p", FORM_3P)
    lay = tab.setup_part.laying
    tab.setup_part.map_pick.value = ":tiles"
    lay.form_pick.value = "our-3p"
    lay.shuffle_btn.click()
    text = one_line(lay.message.value)
    with pytest.raises(laying.LayError) as e:
        laying.shuffle(lay.seed, forms.load_form("our-3p"), tiles.load_tiles())
    assert text == str(e.value)
    assert lay.dealt is None and lay.presses == 0


def test_the_wormholes_tick_feeds_the_shuffle_and_the_hand_laying(tab):
    """Wormholes variant: "Place the Wormhole Systems on the middle Empty System on the Main
    Sector Tiles." The tick asks the engine for them (which ones: the engine's)."""
    _typed_box(tab)
    setup, lay = tab.setup_part, tab.setup_part.laying
    setup.map_pick.value = ":tiles"
    lay.form_pick.value = "our-3p"
    lay.wormholes.value = True
    lay.shuffle_btn.click()
    form, typed = forms.load_form("our-3p"), tiles.load_tiles()
    want = laying.shuffle(lay.seed, form, typed, n=0, wormholes=True)
    assert lay.placements() == want and any(p.wormhole for p in want)
    laid = lay.laid()
    assert sum(s.kind == "wormhole" for s in laid.systems.values()) == sum(p.wormhole for p in want)
    # unticked after the Shuffle: the same press dealt again without them
    lay.wormholes.value = False
    assert lay.dealt[0] == 0
    assert lay.placements() == laying.shuffle(lay.seed, form, typed, n=0)
    # by hand: a wormhole on the middle of every main tile whose middle is empty
    lay.rows[0][1].value = (lay.rows[0][1].value + 1) % 6 if form.places[0].turn is None else 0
    lay.wormholes.value = True
    assert lay.dealt is None
    hand = lay.placements()
    assert [p.wormhole for p in hand] == [typed[p.tile].kind == "main" and
                                          typed[p.tile].middle() is not None for p in hand]
    assert sum(s.kind == "wormhole" for s in lay.laid().systems.values()) == sum(
        p.wormhole for p in hand)


def test_the_tiles_panel_is_hidden_on_the_table_view_and_forms_on_a_seat(tab):
    from companion.ui.writes import hidden_for
    panel, part = tab.setup_part.tile_panel, tab.setup_part
    assert hidden_for(Role.TABLE, panel) and not hidden_for(Role.SEAT, panel)
    assert not hidden_for(Role.SEAT, part.tiles.box) and hidden_for(Role.SEAT, part.forms.box)


def test_the_tile_screens_stay_under_500_lines():
    """Issue 23: "No UI file over 500 lines"."""
    from pathlib import Path
    ui = Path(sse_tiles.__file__).parent
    for name in ("sse_tiles.py", "sse_laying.py", "sse_setup.py", "session.py", "style.py"):
        n = len((ui / name).read_text(encoding="utf-8").splitlines())
        assert n <= 500, f"companion/ui/{name}: {n} lines"


def test_a_form_file_that_cannot_be_read_is_one_line_not_a_broken_setup(tab):
    _typed_box(tab)
    path = forms.available_forms()["our-3p"]
    path.write_text("{not json", encoding="utf-8")
    tab.setup_part.map_pick.value = ":tiles"
    tab.show_setup()                                  # the setup screen still shows
    lay = tab.setup_part.laying
    assert lay.form is None or lay.message.value
    tab.setup_part.laying.refresh()
    one_line(lay.message.value)
