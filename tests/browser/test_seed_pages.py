"""Issue 20 in a real browser: a timing-rules game started on the host page carries the
fresh seed its Seed box showed, and the seat pages and the table view (each its own
kernel, i.e. its own Python process) show the same turn order before anyone acts.

R 5 step 2: "The player who currently has the most VP announces which action they are
taking. In case of a tie, the player with the most Credits goes first. If there is
still a tie, the order among them is chosen randomly."  And: "Since all players start
the game tied in both VP and Credits, if needed, the order during the first turn will
have to be determined randomly."
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_harness import WIDGET_TIMEOUT_MS, screenshot
from dashboard_driver import fill_names, open_setup_options
from companion.ats.game import Game
from companion.table.store import Store

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cleo", "Dov"]


def open_page(chromium, url):
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(WIDGET_TIMEOUT_MS)
    page = ctx.new_page()
    page.goto(url, timeout=60_000)
    page.locator(".live-state").first.wait_for(state="visible", timeout=60_000)
    return page


@pytest.mark.dashboard_config          # preheated kernels, as ./dashboard runs them
def test_every_page_shows_the_seeded_order_of_a_tie(page, voila_server, chromium):
    page.goto(voila_server.url, timeout=60_000)
    page.locator(".start-game").wait_for(state="visible", timeout=60_000)
    fill_names(page, PLAYERS)
    open_setup_options(page)
    page.locator(".setup-timing input").check()
    shown_seed = int(page.locator(".setup-seed input").input_value())
    assert 0 <= shown_seed < 2 ** 53
    page.click(".start-game")
    page.locator(".scoreboard tr.score-row").first.wait_for(state="visible")
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        [info] = store.games()
        rec = store.load(info["id"])
    finally:
        store.close()
    assert rec["setup"]["seed"] == shown_seed            # exact: 53 bits survive the page
    assert rec["setup"]["options"]["timing_rules"] is True and rec["actions"] == []
    order = Game.from_record(rec).turn_order()
    assert sorted(order) == sorted(PLAYERS)
    want = f"order this turn: {', '.join(order)}"
    base = voila_server.url
    sep = "&" if "?" in base else "?"
    pages = [page] + [open_page(chromium, f"{base}{sep}{q}&game={info['id']}")
                      for q in ("seat=Ana", "seat=Dov", "view=table")]
    for p in pages:
        expect(p.locator(".turn-info")).to_contain_text(want)
        expect(p.locator(".turn-info")).to_contain_text(f"Waiting for: {', '.join(order)}")
    screenshot(pages[1], "seed-01-ana-seat-order")
    for p in pages[1:]:
        p.context.close()
