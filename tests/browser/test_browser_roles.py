"""Issue 20, "roles", in a real browser: the host's page (the laptop, the plain address)
and the table view (``?view=table``) on one Voila server run as ./dashboard runs it
(a pool of preheated kernels: the page's role comes from its address after its widgets
were built), both games saved.

The table view shows no control that writes in any of its tabs (Among the Stars,
Small Star Empires, History): no *Delete…* (which once dropped every page to the New
game screen), no import, no *Start the game*, no undo, no timer, no entry.  A tap on
its Small Star Empires board, the only thing left to tap, is refused in one line.
The host's page shows those controls (so the checks can fail) and its game is intact.
The forced writes through every path are tests/test_roles.py (no browser).
Screenshots at 390x844 in tests/artifacts/roles-*.png.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_harness import WIDGET_TIMEOUT_MS, screenshot
from dashboard_driver import open_tab, writing_controls
from companion.ats.game import Game
from companion.table.store import Store
from companion.sse import SseGame

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cleo"]
SSE_SETUP = {"players": ["Ann", "Bob"], "map": "basic-2p", "pieces": {"ships": 2}}
TABS = ("Among the Stars", "Small Star Empires", "History")
#: the games the History tab lists (one of each game)
GAMES = 2


@pytest.fixture(autouse=True)
def shadow_home(tmp_path, monkeypatch):
    home = tmp_path / "shadow-home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))


def open_page(chromium, url):
    ctx = chromium.new_context(viewport={"width": 390, "height": 844})
    ctx.set_default_timeout(WIDGET_TIMEOUT_MS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"{exc.name}: {exc.message}"))
    page.goto(url, timeout=60_000)
    page.locator(".live-state:visible").first.wait_for(state="visible", timeout=60_000)
    return page, errors


def stored(home, gid) -> tuple[list, int]:
    s = Store(path=home / "games.sqlite")
    try:
        rec, rev = s.load_revision(gid)
        return rec["actions"], rev
    finally:
        s.close()


@pytest.mark.dashboard_config        # preheated kernels: the role comes after the widgets
def test_the_table_view_shows_no_writing_control_and_the_host_game_is_intact(
        voila_server, chromium):
    store = Store(path=voila_server.home / "games.sqlite")
    g = Game({"players": PLAYERS})
    g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    gid = store.create(g.to_record(), title="roles: Among the Stars")
    sse = SseGame(SSE_SETUP)
    sid = store.create(sse.to_record(), title="roles: Small Star Empires")
    store.close()
    before = {gid: stored(voila_server.home, gid), sid: stored(voila_server.home, sid)}
    base = voila_server.url
    sep = "&" if "?" in base else "?"

    # the table view of the Among the Stars game (without game=, it shows the table's
    # newest game, the Small Star Empires one: tests/browser/test_four_pages.py taps its
    # board there and is refused)
    table, table_errors = open_page(chromium, f"{base}{sep}view=table&game={gid}")
    host, host_errors = open_page(chromium, base)

    # the table view is its display alone (issue 50): no tab bar, nothing that writes
    expect(table.locator(".game-tabs > .lm-TabBar")).to_be_hidden()
    assert writing_controls(table) == []
    screenshot(table, "roles-table-1-among-the-stars")
    # it still shows the game: every station
    expect(table.locator(".live-state:visible").first).to_contain_text("actions: 1")
    assert table.locator(".table-stations svg").count() == len(PLAYERS)

    # the host's page shows them (the same check finds them there) ...
    found = {}
    for i, title in enumerate(TABS):
        open_tab(host, title, history_games=GAMES)
        found[title] = writing_controls(host)
        screenshot(host, f"roles-host-{i + 1}-{title.lower().replace(' ', '-')}")
    assert any("Undo" in c for c in found["Among the Stars"]), found
    assert any("Undo" in c for c in found["Small Star Empires"]), found
    assert any("Delete" in c for c in found["History"]), found
    assert any("Import" in c for c in found["History"]), found
    # ... and its games are exactly as they were: same records, same revisions
    assert {k: stored(voila_server.home, k) for k in before} == before
    open_tab(host, "Among the Stars")
    expect(host.locator(".live-state").first).to_contain_text("actions: 1")
    expect(host.locator(".turn-entry")).to_be_visible()
    assert table_errors == [] and host_errors == []
