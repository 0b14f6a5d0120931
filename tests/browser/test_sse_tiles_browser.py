"""Issue 24 in a real browser at phone size (390 x 844): two homeworld sector tiles typed
by taps, a wrong tile refused in one line, a small 2-place form drawn, the map laid from
the typed tiles by tapping and by *Shuffle*, a 2-player game (2 ships each) started on it
and played to the final table; the final table shown equals ``python -m companion score
--json`` on the record exported from the page.  The seconds per tile typed are logged.

The tiles are TEST INPUTS (made-up systems), not the box's real tiles.
"""
from __future__ import annotations

import base64
import json
import time

import pytest
from playwright.sync_api import expect

import test_sse as ui                      # the SSE page helpers (settle, play_move, ...)
from dashboard_driver import SSE_FINAL_TABLE
from browser_harness import ARTIFACTS, screenshot
from companion.sse import SseGame
from companion.sse.record import FORMAT
from companion.sse.tiles import load_tiles
from companion.table.store import Store

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PLAYERS = ["Ann", "Bob"]
SHIPS = 2
RING = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
#: made-up homeworld tiles (test inputs): the middle is the homeworld, a ring around it
TILES = {"H1": ["1●", "2●", "red", "3●", "blue", "1●"],
         "H2": ["2●", "green", "1●", "3●", "red", "2●"]}



def tile_hex(page, grid: str, h):
    return page.locator(f".{grid} .{ui.hex_class(h)}")


def brush(page, name: str) -> None:
    page.locator(".sse-tile-brush button", has_text=name).first.click()
    expect(page.locator(".sse-tile-brush button.mod-active")).to_have_text(name)


def type_tile(page, tid: str, taps: list[tuple[str, tuple]]) -> None:
    page.fill(".sse-tile-id input", tid)
    page.locator(".sse-tile-kind button", has_text="homeworld").click()
    for name, h in taps:
        brush(page, name)
        tile_hex(page, "sse-tile-grid", h).click()
    page.locator(".sse-tile-save").click()


def test_tiles_typed_form_drawn_map_laid_and_played_at_phone_size(voila_server, page, tmp_path,
                                                                 run_cli):
    page.set_viewport_size(PHONE)
    page.goto(voila_server.url)
    page.locator(".lm-TabBar-tab", has_text="Small Star Empires").click()
    page.locator(".sse-setup").wait_for(state="visible")
    # the header names the game of the tab (issue 37 saw "Among the Stars" here)
    expect(page.locator(".companion-title")).to_have_text("Small Star Empires — table companion")
    page.locator(".sse-tile-panel .jupyter-widget-Collapse-header").nth(0).click()
    page.locator(".sse-tile-grid").wait_for(state="visible")
    # the 19 hexes of the grid, each a touch target at least 44 px tall, inside the screen
    boxes = [b.bounding_box() for b in page.locator(".sse-tile-grid .sse-hex").all()]
    assert len(boxes) == 19
    assert all(b["height"] >= 44 and b["x"] >= 0 and b["x"] + b["width"] <= PHONE["width"]
               for b in boxes), boxes

    # ------------------------------------------------ two homeworld tiles, by taps
    seconds = {}
    for tid, ring in TILES.items():
        t0 = time.monotonic()
        type_tile(page, tid, [("home", (0, 0))] + list(zip(ring, RING)))
        expect(page.locator(".sse-tile-message")).to_contain_text(f"Saved tile {tid}")
        seconds[tid] = time.monotonic() - t0
        print(f"tile {tid} typed in {seconds[tid]:.1f} s (15 taps through the page)")
    expect(page.locator(".sse-tile-list .sse-tile-edit")).to_have_text(["H1", "H2"])
    tiles_path = voila_server.home / "sse-tiles.json"
    assert sorted(load_tiles(tiles_path)) == ["H1", "H2"]
    screenshot(page, "sse-tiles-typed-phone")

    # ------------------- deleting a typed tile asks first (issue 37): the first tap only asks
    type_tile(page, "H9", [("home", (0, 0))] + list(zip(TILES["H1"], RING)))
    expect(page.locator(".sse-tile-message")).to_contain_text("Saved tile H9")
    delete_h9 = page.locator(".sse-tile-list .sse-tile-delete").nth(2)
    delete_h9.click()
    expect(page.locator(".sse-tile-message")).to_contain_text("Delete tile H9?")
    expect(delete_h9).to_have_text("tap again to delete H9")
    for button in (delete_h9, page.locator(".sse-tile-list .sse-tile-edit").nth(2)):
        box = button.bounding_box()              # whole on the phone's screen, not cut
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert button.evaluate("(b) => b.scrollWidth <= b.clientWidth"), button.inner_text()
    assert sorted(load_tiles(tiles_path)) == ["H1", "H2", "H9"]     # nothing deleted yet
    screenshot(page, "sse-tiles-delete-asks-phone")
    delete_h9.click()
    expect(page.locator(".sse-tile-list .sse-tile-edit")).to_have_text(["H1", "H2"])
    assert sorted(load_tiles(tiles_path)) == ["H1", "H2"]

    # ------------------------------------------- a wrong entry: one line, nothing saved
    type_tile(page, "H3", [("home", (0, 0)), ("home", (1, 0))])
    msg = page.locator(".sse-tile-message")
    expect(msg).to_contain_text("H3")
    text = msg.inner_text().strip()
    assert "\n" not in text and "Traceback" not in text and "Saved" not in text, text
    assert sorted(load_tiles(tiles_path)) == ["H1", "H2"]
    screenshot(page, "sse-tiles-wrong-phone")
    page.locator(".sse-tile-new").click()

    # ------------------------------------------------------- a small 2-place form
    page.locator(".sse-tile-panel .jupyter-widget-Collapse-header").nth(1).click()
    page.locator(".sse-form-grid").wait_for(state="visible")
    for cell in ((0, 0), (1, 0)):
        tile_hex(page, "sse-form-grid", cell).click()            # main
        tile_hex(page, "sse-form-grid", cell).click()            # homeworld
    page.fill(".sse-form-name input", "duo")
    page.locator(".sse-form-save").click()
    expect(page.locator(".sse-form-message")).to_contain_text("Saved the form 'duo'")
    screenshot(page, "sse-tiles-form-phone")

    # ------------------------------------------------------------ laying by tapping
    page.select_option(".sse-map select", label="From our sector tiles")
    page.locator(".sse-lay").wait_for(state="visible")
    expect(page.locator(".sse-lay-form select")).to_have_value("duo")   # the one form
    page.select_option(".sse-lay-tile-0 select", label="H2")
    page.select_option(".sse-lay-tile-1 select", label="H1")
    page.select_option(".sse-lay-turn-1 select", label="turn 3 (180°)")
    expect(page.locator(".sse-lay-map")).to_contain_text("laid by hand")
    expect(page.locator(".sse-lay-map svg")).to_be_visible()
    screenshot(page, "sse-tiles-laid-by-hand-phone")
    # ... and by Shuffle (the seed the setup drew once)
    page.locator(".sse-lay-shuffle").click()
    expect(page.locator(".sse-lay-map")).to_contain_text("dealt by Shuffle #1")
    screenshot(page, "sse-tiles-shuffled-phone")

    # ------------------------------------------------------------------ the game
    page.fill(".sse-name-1 input", PLAYERS[0])
    page.fill(".sse-name-2 input", PLAYERS[1])
    page.select_option(".sse-ships select", label=str(SHIPS))
    page.click(".sse-start")
    expect(page.locator(".companion-status")).to_contain_text("new game on 'laid-duo'")
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        games = store.games(format=FORMAT)
        assert len(games) == 1
        rec = store.load(games[0]["id"])
    finally:
        store.close()
    layout = rec["setup"]["map"]["layout"]
    assert layout["dealt"] == "shuffle" and layout["form"]["name"] == "duo"
    assert sorted(p["tile"] for p in layout["places"]) == ["H1", "H2"]
    assert len(rec["setup"]["map"]["systems"]) == 14
    g = SseGame.from_record(rec)                 # the shadow game, on the laid map
    ui.settle(page, g)
    screenshot(page, "sse-tiles-game-phone")
    while not g.state.finished:
        p = g.current
        ship, m = next((s.id, m) for s in g.state.players[p].ships
                       for m in sorted(g.legal_moves(p, s.id), key=lambda m: m.to))
        ui.play_move(page, g, ship, m.to)

    # ----------------------------- the final table = `score --json` on the exported record
    final = page.locator(".sse-final")
    # the final table comes with the last move's refresh: wait for it (a busy machine)
    page.wait_for_function(f"({SSE_FINAL_TABLE})() !== null", timeout=60_000)
    shown = page.evaluate(SSE_FINAL_TABLE)
    assert shown is not None and shown["head"][:2] == ["player", "total"]
    by_player = {r[0]: dict(zip(shown["head"], r)) for r in shown["rows"]}
    href = final.locator("a.sse-export-json").get_attribute("href")
    exported = json.loads(base64.b64decode(href.split(",", 1)[1]))
    assert exported["actions"] == g.actions
    assert exported["setup"]["map"]["layout"] == layout
    path = tmp_path / "exported.json"
    path.write_text(json.dumps(exported))
    out = run_cli("score", str(path), "--json")
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["final"] and sorted(by_player) == sorted(PLAYERS)
    for row in cli["players"]:
        mine = by_player[row["player"]]
        assert mine["total"] == str(row["total"]) and mine["rank"] == str(row["rank"])
    assert cli["winners"] == g.score().winners
    final.locator(".final-cards").scroll_into_view_if_needed()    # a phone: one card each
    screenshot(page, "sse-tiles-final-phone")
    line = "seconds per tile typed: " + ", ".join(f"{k} {v:.1f}" for k, v in seconds.items())
    print(line)
    (ARTIFACTS / "sse-tiles-seconds.txt").write_text(
        line + " (15 taps a tile by Playwright at 390x844, through the page and its kernel)\n")
