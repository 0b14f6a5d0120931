"""Issue 14 for Small Star Empires in a real browser: Ann's seat on a phone (390x844),
Bob's seat and the table view.  Each seat moves on its own page (a click on a ship, a
click on a green system); the other two pages show the move by themselves; an undo on
Bob's page is seen everywhere; the table view records nothing."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_harness import WIDGET_TIMEOUT_MS, screenshot
from companion.table.store import Store
from companion.sse import SseGame
from test_sse import hexbtn, pick, settle, wait_legal

pytestmark = pytest.mark.browser

SETUP = {"players": ["Ann", "Bob"], "map": "basic-2p", "pieces": {"ships": 2}}
LIVE_MS = 10_000


@pytest.fixture(autouse=True)
def shadow_home(tmp_path, monkeypatch):
    home = tmp_path / "shadow-home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))


def open_page(chromium, url, *, phone=False):
    ctx = chromium.new_context(viewport={"width": 390, "height": 844} if phone
                               else {"width": 1280, "height": 1400})
    ctx.set_default_timeout(WIDGET_TIMEOUT_MS)
    page = ctx.new_page()
    page.goto(url, timeout=60_000)
    page.locator(".sse-play .live-state").wait_for(state="visible", timeout=60_000)
    return page


def shows(page, g) -> None:
    expect(page.locator(".sse-play .live-state")).to_contain_text(
        f"actions: {len(g.actions)}", timeout=LIVE_MS)
    settle(page, g)


def stored(home, gid) -> list:
    s = Store(path=home / "games.sqlite")
    try:
        return s.load(gid)["actions"]
    finally:
        s.close()


def move(page, g, ship=0):
    player = g.current
    hexbtn(page, g.state.players[player].ships[ship].at).click()
    wait_legal(page, g.legal_destinations(player, ship, piece="city"))
    to = pick(g, ship)
    hexbtn(page, to).click()
    return g.push({"player": player, "ship": ship, "to": list(to), "piece": "city"})


def test_two_seats_and_the_table_follow_each_other(voila_server, chromium):
    store = Store(path=voila_server.home / "games.sqlite")
    gid = store.create(SseGame(SETUP).to_record(), title="live sse")
    store.close()
    base = voila_server.url
    sep = "&" if "?" in base else "?"
    ann = open_page(chromium, f"{base}{sep}seat=Ann&game={gid}", phone=True)
    bob = open_page(chromium, f"{base}{sep}seat=Bob&game={gid}")
    table = open_page(chromium, f"{base}{sep}view=table&game={gid}")
    pages = (ann, bob, table)
    g = SseGame(SETUP)
    for p in pages:
        shows(p, g)
    expect(ann.locator(".sse-play .seat-score")).to_contain_text("Ann")
    expect(ann.locator(".sse-play .seat-score")).to_contain_text("your move")
    expect(table.locator(".sse-entry")).to_be_hidden()
    expect(table.locator(".sse-undo")).to_be_hidden()

    for page in (ann, bob, ann):
        move(page, g)
        for p in pages:
            shows(p, g)
        assert [a["player"] for a in stored(voila_server.home, gid)] == \
            [a["player"] for a in g.actions]
    screenshot(ann, "live-sse-01-ann-phone")
    screenshot(table, "live-sse-01-table")
    # Ann undoes her last move on her page (a seat undoes only its own player's
    # action, issue 35): every page shows it
    ann.click(".sse-undo")
    ann.click(".sse-undo-yes")
    g.pop()
    for p in pages:
        shows(p, g)
    assert len(stored(voila_server.home, gid)) == len(g.actions) == 2
    expect(ann.locator(".sse-play .live-note")).to_be_hidden()          # her own undo
    expect(bob.locator(".sse-play .live-note")).to_contain_text("undone: Ann moved ship 0")
