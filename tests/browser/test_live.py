"""Issue 14 in a real browser: three pages — Ana's seat (a phone, 390x844), Ben's seat and
the table view — play the first year of a game with races and an objective.  Actions are
entered on each seat, Ben undoes one on his page, Ana reloads hers.  After every step all
three pages show, without anyone touching them, the same state as the engine's replay of
the store, and no action is ever recorded for the wrong player.
"""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from browser_harness import WIDGET_TIMEOUT_MS, screenshot
from dashboard_driver import ACTION_LABEL, cell, expected_board, read_board, wait_legal
from companion.ats.game import Game
from companion.table.store import Store

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cleo"]
SETUP = {"players": PLAYERS, "races": {"Ana": "Sheptas", "Ben": "Humareen", "Cleo": "Minireen"},
         "objectives": ["Accelerated Construction"]}
#: one objective for 3 players is a fixture, not the book's setup: Game(..., book_setup=False)
#: a page must show another page's action within this (the issue's target is 1 s; the
#: test allows for this shared 2-core machine running three pages and a server)
LIVE_MS = 10_000


@pytest.fixture(autouse=True)
def shadow_home(tmp_path, monkeypatch):
    home = tmp_path / "shadow-home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))


def stored_game(home, gid) -> Game:
    store = Store(path=home / "games.sqlite")
    try:
        return Game.from_record(store.load(gid), trusted=True)     # the store's own
    finally:
        store.close()


def open_page(chromium, url, *, phone=False):
    ctx = chromium.new_context(viewport={"width": 390, "height": 844} if phone
                               else {"width": 1280, "height": 900})
    ctx.set_default_timeout(WIDGET_TIMEOUT_MS)
    page = ctx.new_page()
    page.goto(url, timeout=60_000)
    page.locator(".live-state").first.wait_for(state="visible", timeout=60_000)
    return page


def shows(page, game) -> None:
    """The page shows ``game``: its action count, its scoreboard and who is to act."""
    expect(page.locator(".live-state").first).to_contain_text(
        f"actions: {len(game.actions)}", timeout=LIVE_MS)
    want = expected_board(game)
    page.wait_for_function(
        """(want) => { const rows = document.querySelectorAll('.scoreboard tr.score-row');
             const got = {}; rows.forEach(r => { got[r.dataset.player] = {
               vp: r.querySelector('.vp').innerText, credits: r.querySelector('.credits').innerText,
               cubes: r.querySelector('.cubes').innerText,
               locations: r.querySelector('.locations').innerText}; });
             return JSON.stringify(got) === JSON.stringify(want); }""",
        arg=want, timeout=LIVE_MS)
    assert read_board(page) == want
    if not game.state.finished:
        waiting = ", ".join(game.waiting_in_order())
        expect(page.locator(".turn-info")).to_contain_text(f"Waiting for: {waiting}",
                                                           timeout=LIVE_MS)


def enter(page, game, player, do, card="Garden", at=None) -> dict:
    """Enter ``player``'s action on a seat page: the page's own player, or another through
    the switch (issue 20: a seat page has no Player list)."""
    seat = parse_qs(urlparse(page.url).query)["seat"][0]
    if player != seat:
        page.click(".seat-switch")
        page.locator(".seat-pick-player", has_text=player).click()
        expect(page.locator(".acting-for-banner")).to_have_text(f"Entering for {player}")
    page.locator(".entry-action button", has_text=ACTION_LABEL[do]).click()
    page.fill(".entry-card input", card)
    action = {"player": player, "do": do, "card": card}
    if do == "discard":
        page.click(".do-discard")
    else:
        action["at"] = list(at)
        wait_legal(page, game.legal_cells(player, do="reactor"))
        cell(page, at).click()
    return game.push(action)


def test_three_pages_play_a_year_live(voila_server, chromium, tmp_path):
    store = Store(path=voila_server.home / "games.sqlite")
    gid = store.create(Game(SETUP, book_setup=False).to_record(), title="live")
    store.close()
    base = voila_server.url
    sep = "&" if "?" in base else "?"
    ana = open_page(chromium, f"{base}{sep}seat=Ana&game={gid}", phone=True)
    ben = open_page(chromium, f"{base}{sep}seat=Ben&game={gid}")
    table = open_page(chromium, f"{base}{sep}view=table&game={gid}")
    pages = {"ana": ana, "ben": ben, "table": table}
    g = Game(SETUP, book_setup=False)
    for p in pages.values():
        shows(p, g)
    # a seat page shows its player first and large; the table view has no entry
    expect(ana.locator(".seat-score")).to_contain_text("Ana · 0 VP · 10 credits")
    assert ana.locator(".entry-player select").input_value() == "Ana"
    expect(table.locator(".turn-entry")).to_be_hidden()
    expect(table.locator(".undo")).to_be_hidden()
    expect(table.locator(".play-timer")).to_be_hidden()
    assert table.locator(".table-stations svg").count() == len(PLAYERS)
    screenshot(ana, "live-01-ana-seat-phone")
    screenshot(table, "live-01-table-view")

    def step(page, *args):
        enter(page, g, *args)
        for p in pages.values():
            shows(p, g)
        assert stored_game(voila_server.home, gid).actions == g.actions

    # Cleo has no phone: Ben enters her actions on his (the switch).  Ana acts on hers.
    step(ana, "Ana", "reactor", "Garden", (0, 1))
    step(ben, "Ben", "discard", "U-Cannon")
    step(ben, "Cleo", "discard", "Garden")
    screenshot(table, "live-02-table-after-turn-1")
    # an undo on Ben's page is seen everywhere
    ben.click(".undo")
    ben.click(".undo-yes")
    g.pop()
    for p in pages.values():
        shows(p, g)
    assert stored_game(voila_server.home, gid).actions == g.actions
    step(ben, "Cleo", "reactor", "Garden", (1, 0))
    # Ana reloads her page: the same seat and the same game
    ana.reload()
    ana.locator(".live-state").first.wait_for(state="visible", timeout=60_000)
    shows(ana, g)
    expect(ana.locator(".seat-score")).to_contain_text("Ana ·")
    # the rest of the year: everyone discards, on the two seats
    while g.state.year == 1:
        player = g.waiting_in_order()[0]
        step(ana if player == "Ana" else ben, player, "discard", "Garden")
    screenshot(ana, "live-03-ana-year-2")
    screenshot(table, "live-03-table-year-2")
    # nothing recorded for the wrong player: the store's record is the shadow game's
    stored = stored_game(voila_server.home, gid)
    assert [(a["player"], a["do"]) for a in stored.actions] == \
        [(a["player"], a["do"]) for a in g.actions]
    assert stored.state.year == 2
