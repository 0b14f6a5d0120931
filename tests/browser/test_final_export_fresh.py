"""Issue 22: "After saving the play details, *Export the record (JSON)* gave a file
without the location, notes or new players; the History export had them."  In the
real page: a finished game (played through the engine, discards only), the
play details typed and saved on the final screen, then the record exported from
the final screen is read back (the data: link decoded): the details are in it."""
from __future__ import annotations

import base64
import json

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from companion import Game
from companion.table.store import Store

pytestmark = pytest.mark.browser

WAIT_MS = 30_000
LOCATION = "Ann's <b>kitchen</b>"
NOTES = "=HYPERLINK(\"x\") rematch next week"


def _decoded(href: str) -> dict:
    return json.loads(base64.b64decode(href.split("base64,", 1)[1]))


def test_final_record_export_has_the_details_just_saved(voila_server, page):
    g = Game({"players": ["Dora", "Eli"]})
    while not g.state.finished:
        for p in g.waiting_in_order():
            g.push({"player": p, "do": "discard", "card": "Garden"})
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        gid = store.create(g.to_record(), title="fresh export")
    finally:
        store.close()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(voila_server.url)
    page.locator(".final-winner").wait_for(state="visible", timeout=60_000)
    before = _decoded(page.locator(".final a.export-json").get_attribute("href"))
    assert "location" not in before.get("meta", {})
    page.fill(".final-location input", LOCATION)
    page.fill(".final-notes textarea", NOTES)
    page.locator(".final-new-players .new-player", has_text="Eli").locator("input").check()
    page.click(".final-details-save")
    expect(page.locator(".final-message")).to_contain_text("Saved the play details",
                                                           timeout=WAIT_MS)
    link = page.locator(".final a.export-json")
    expect(link).to_have_count(1)
    screenshot(page, "final-export-01-details-saved-phone")
    rec = _decoded(link.get_attribute("href"))
    meta = rec["meta"]
    assert (meta["location"], meta["notes"], meta["new_players"]) == (LOCATION, NOTES, ["Eli"])
    assert rec["actions"] == g.to_record()["actions"]
    # the same record the store keeps (what the History tab exports)
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        assert rec == json.loads(json.dumps(store.load(gid)))
    finally:
        store.close()
    expect(page.locator(".companion-status .status-error")).to_have_count(0)
