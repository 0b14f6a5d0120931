"""Issue 40, the photos on the page (no browser): a photo of a station on *Score the table
as it lies* proposes each card read on its cell, and nothing goes into the station being
laid before the player's tap (all the sure ones with one tap, an uncertain one by choosing
its name); nothing is recorded before *Lay the station*.  A photo of one card puts its
name into the entry's card box, and the build goes on as typed.  A file that is no photo
is one line on the page, never a traceback.

The photos are synthetic (tests/photokit.py: card names drawn on card-sized rectangles,
turned, skewed, blurred, JPEG); only shipped card NAMES are used, never a number."""
from __future__ import annotations

import datetime
import sys
from pathlib import Path

import pytest

from companion.ats.game import Game
from companion.ui.app import App
from widgetkit import one

sys.path.insert(0, str(Path(__file__).parent))
import photokit  # noqa: E402

pytest.importorskip("rapidocr_onnxruntime")

PLAYERS = ["Ana", "Ben"]
LAYOUT = {(0, 0): "Main Reactor", (0, 1): "Shield Generator", (1, 0): "Power Reactor",
          (0, -1): "Turret", (-1, 0): "Alien Bazaar"}
SMALL = photokit.Distortion(max_angle=5.0, skew=0.03, blur=1.0, quality=80, size=(1200, 1600))


def choose_file(upload, data: bytes, name: str = "photo.jpg") -> None:
    upload.value = ({"name": name, "type": "image/jpeg", "size": len(data),
                     "content": memoryview(data),
                     "last_modified": datetime.datetime(2026, 11, 29)},)


@pytest.fixture
def laying(store):
    g = Game({"players": PLAYERS, "options": {"laid": "final"}})
    gid = store.create(g.to_record(), title="laid")
    app = App(store)
    app.ats.open_game(gid)
    return app, gid


def test_a_station_photo_is_proposed_cell_by_cell_and_put_only_on_a_tap(laying, store):
    app, gid = laying
    panel = app.ats.mode_panel.lay
    choose_file(panel.photo.upload, photokit.station_photo(LAYOUT, seed=3, distortion=SMALL))
    proposed = {at: c.name for at, c in panel.photo.proposed.items()}
    assert proposed == {at: n for at, n in LAYOUT.items() if at != (0, 0)}
    draft = panel.drafts.get(panel.player.value)
    assert set(draft.cells) == {(0, 0)}                      # nothing put yet
    assert store.load(gid)["actions"] == []
    one(panel.photo.box, "station-photo-all").click()
    draft = panel.drafts.get(panel.player.value)
    assert draft.cells[(0, 1)] == {"card": "Shield Generator"}
    assert draft.cells[(1, 0)] == {"reactor": True, "cubes": 0}
    assert draft.cells[(-1, 0)] == {"card": "Alien Bazaar"}
    assert store.load(gid)["actions"] == []                   # laid only by its button
    assert panel.photo.proposed == {}


def test_a_file_that_is_no_photo_is_one_line(laying, store):
    app, gid = laying
    panel = app.ats.mode_panel.lay
    choose_file(panel.photo.upload, b"<script>alert(1)</script>", "evil.jpg")
    status = app.status.value
    assert "photo" in status.lower() and "<script>" not in status and "Traceback" not in status
    assert store.load(gid)["actions"] == [] and panel.photo.proposed == {}


def test_a_card_photo_puts_its_name_into_the_entry(store):
    g = Game({"players": PLAYERS})
    gid = store.create(g.to_record())
    app = App(store)
    app.ats.open_game(gid)
    d = app.driver()
    d.choose(player="Ana", action="build")
    choose_file(d.screen.entry_part.card_photo.upload,
                photokit.card_photo("Shield Generator", seed=1))
    assert d.screen.entry_card.value == "Shield Generator"
    assert store.load(gid)["actions"] == []

