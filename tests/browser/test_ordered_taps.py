"""Taps reach the kernel in the order they were made, on a kernel slow to answer.

Seen in a full run under load (issue 34): a sector tile typed by taps (brush "home", tap
the middle, brush "2●", tap the next hex, ...) was refused as "exactly one homeworld
system, not 2": the hex was painted with the brush before.  The cause is ipywidgets' own:
a widget's change is held back while its previous change is unanswered by the kernel
(WidgetModel.sync, ``_pending_msgs``), a button's click is sent at once, so a tap could
overtake the brush picked before it.  The page template's ordered_sync.js sends every
change at once.

Here the kernel's answers are made late for good, for real, between the server and the
browser: every "idle" status message of the page's kernel is dropped after the page is
up.  On a page without the script (``browser.bare_new_context``), ipywidgets holds the
brush back and the tile is refused, as seen; on a page with it, the tile is saved with
every system where it was tapped."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_harness import WIDGET_TIMEOUT_MS
from companion.sse.tiles import load_tiles
from test_sse_tiles_browser import RING, type_tile
from test_widgets_recover import route_kernel_sockets

pytestmark = pytest.mark.browser

#: a made-up homeworld tile (test input): the homeworld in the middle, a ring around it
RING_BRUSHES = ["1●", "2●", "red", "3●", "blue", "1●"]
IDLE = b'"execution_state": "idle"'


def _type_with_late_answers(context, url: str, tid: str) -> tuple[str, bool]:
    """Open the tile typer, drop the kernel's idle answers, type tile ``tid`` by taps;
    (the page's message, whether ordered_sync.js is installed)."""
    context.set_default_timeout(WIDGET_TIMEOUT_MS)
    page = context.new_page()
    sockets = route_kernel_sockets(page, IDLE)
    page.goto(url)
    page.locator(".lm-TabBar-tab", has_text="Small Star Empires").click()
    page.locator(".sse-setup").wait_for(state="visible")
    page.locator(".sse-tile-panel .jupyter-widget-Collapse-header").nth(0).click()
    page.locator(".sse-tile-grid").wait_for(state="visible")
    assert sockets, "the page's kernel websocket was not routed"
    sockets.drop_from_now()                          # from now on the kernel answers late
    type_tile(page, tid, [("home", (0, 0))] + list(zip(RING_BRUSHES, RING)))
    msg = page.locator(".sse-tile-message")
    expect(msg).to_contain_text(tid)
    ordered = page.evaluate("() => !!(window.companionOrderedSync && window.companionOrderedSync())")
    assert sockets[-1]["dropped"] > 5, sockets       # the answers really were lost
    return msg.inner_text().strip(), ordered


def test_a_tap_never_overtakes_the_brush_picked_before_it(voila_server, chromium):
    tiles = voila_server.home / "sse-tiles.json"
    # Voila's own page, without the script: ipywidgets holds the brush back, the taps go
    bare = chromium.bare_new_context(viewport={"width": 390, "height": 844})
    try:
        said, ordered = _type_with_late_answers(bare, voila_server.url, "B1")
    finally:
        bare.close()
    assert not ordered
    assert "exactly one homeworld" in said and "Saved" not in said, said
    assert not tiles.exists() or "B1" not in load_tiles(tiles)

    # the same with the template's script: every tap painted with the brush picked before it
    ctx = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        said, ordered = _type_with_late_answers(ctx, voila_server.url, "T1")
    finally:
        ctx.close()
    assert ordered
    assert said.startswith("Saved tile T1 (7 systems)"), said
    tile = load_tiles(tiles)["T1"]
    want = {(0, 0): "homeworld", **{h: b for h, b in zip(RING, RING_BRUSHES)}}
    got = {}
    for h, s in tile.systems.items():
        got[h] = ("homeworld" if s.kind == "homeworld" else
                  f"{s.planets}●" if s.kind == "planetary" else s.colour)
    assert got == want, got
