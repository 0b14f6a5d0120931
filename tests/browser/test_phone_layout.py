"""Issue 15, Among the Stars: the main paths at a phone's 390x844 and a laptop's
1366x768, checked for what a hand on a phone hits (tests/browser/layout.py):
no control past the right edge, no sideways scrolling, every control at
least 44 px tall.

The paths: the setup screen (options folded, then opened); a build with a
legal click and an illegal click (its rule shown next to the grid); an undo;
the final table of a finished game; the History tab with that game opened.
Small Star Empires and the History tab's own paths are in
test_phone_layout_sse_history.py.

One page (one Voila server) goes through every path once and is resized to each size at
every step (tests/browser/sizes_kit.py: the layout is CSS only); it is loaded again only
where the page picks its game at load (the finished game, the year-3 game).

Cards: Garden is named by discards and reactors only (none of its numbers is
used); the build is a "Fixture:" card typed into the player's catalogue.
"""
from __future__ import annotations

import pytest
import yaml
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import cell, fill_names, open_setup_options, settle, wait_stored
from layout import assert_layout, cards_fit
from sizes_kit import each_size
from companion import Game
from companion.table.store import Store

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
FIX = {"name": "Fixture: a plain card", "types": ["business"], "cost": 1, "energy": 0, "vp": 1,
       "max": "none", "abilities": []}
PLAYERS = ["Ana", "Ben", "Cleo"]


def finished_record() -> dict:
    g = Game({"players": ["Dora", "Eli"]})
    while not g.state.finished:
        for p in g.waiting_in_order():
            g.push({"player": p, "do": "discard", "card": "Garden"})
    return g.to_record()


def test_main_paths_fit_the_screen_at_each_size(voila_server, page, monkeypatch):
    """One page through the paths, resized to each size at every step (the layout is CSS
    only: tests/browser/sizes_kit.py); then the year-3 game (below), loaded into the same
    page."""
    voila_server.home.mkdir(parents=True, exist_ok=True)
    (voila_server.home / "my-cards.yaml").write_text(yaml.safe_dump([FIX]))
    monkeypatch.setenv("COMPANION_HOME", str(voila_server.home))
    w, h = SIZES["phone"]
    page.set_viewport_size({"width": w, "height": h})

    # ---------------------------------------------------------------- setup
    page.goto(voila_server.url)
    page.locator(".start-game").wait_for(state="visible")
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: setup")
        screenshot(page, f"phone-ats-{size}-1-setup")
    open_setup_options(page)
    page.locator(".setup-races input").check()
    fill_names(page, PLAYERS)
    for size, w, h in each_size(page, SIZES):
        expect(page.locator(".race-3")).to_be_visible()
        assert_layout(page, f"{size}: setup with the options open")
        screenshot(page, f"phone-ats-{size}-2-setup-options")
    page.locator(".setup-races input").uncheck()
    page.click(".start-game")
    page.locator(".scoreboard tr.score-row").first.wait_for(state="visible")
    store = Store(voila_server.home / "games.sqlite")
    gid = store.games()[0]["id"]
    game = lambda: Game.from_record(store.load(gid), trusted=True)
    settle(page, game())

    # ---------------------------------------- a build: an illegal click, then a legal one
    page.select_option(".entry-player select", "Ana")
    page.locator(".entry-action button", has_text="Build location").click()
    page.fill(".entry-card input", FIX["name"])
    page.locator(".station-grid .grid-cell.legal").first.wait_for(state="visible")
    msg = page.locator(".entry-message")
    for size, w, h in each_size(page, SIZES):
        cell(page, (0, 0)).click()                   # the Main Reactor: occupied
        expect(msg).to_contain_text("[rule: occupied]")
        assert msg.is_visible()
        # the message is on screen while the grid is used, not only at the top of the page
        box = msg.bounding_box()
        assert box and 0 <= box["y"] < h, (size, box)
        assert_layout(page, f"{size}: illegal click")
        screenshot(page, f"phone-ats-{size}-3-illegal")
    assert len(game().actions) == 0                  # the illegal clicks stored nothing
    cell(page, (0, 1)).click()
    settle(page, wait_stored(game, 1))
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: after a build")

    # --------------------------------------------------------------------- undo
    page.locator(".undo button, button.undo").first.click()
    page.locator(".undo-yes").click()
    settle(page, wait_stored(game, 0))
    for size, w, h in each_size(page, SIZES):
        expect(page.locator(".entry-player select")).to_have_value("Ana")
        assert_layout(page, f"{size}: after an undo")
        screenshot(page, f"phone-ats-{size}-4-undo")

    # ---------------------------------------------- the final table of a finished game
    done = store.create(finished_record(), title="Dora and Eli")
    page.reload()                   # the page opens the store's latest game at its load
    page.locator(".final-table").wait_for(state="attached")
    for size, w, h in each_size(page, SIZES):
        # issue 37: "opening a finished game says 'Resumed'"
        expect(page.locator(".companion-status")).to_contain_text(
            "Opened the finished game 'Dora and Eli': its final table is below.")
        # issue 37: "on a phone the final table's breakdown columns (objectives included)
        # hide behind a sideways scroll with no cue": on a phone one card per player,
        # every column on the screen; the wide table on a laptop
        if size == "phone":
            page.locator(".final-cards").first.wait_for(state="visible")
            cards_fit(page)
            expect(page.locator(".final-card").first).to_contain_text("objectives")
        else:
            page.locator(".final-table").wait_for(state="visible")
        assert_layout(page, f"{size}: final table")
        screenshot(page, f"phone-ats-{size}-5-final")

    # ---------------------------------------------------------------- History
    page.locator(".lm-TabBar-tab", has_text="History").click()
    page.locator(".history-games select").wait_for(state="visible")
    page.locator(".history-games select").select_option(index=0)
    page.click(".history-open")
    page.locator(".history-step").wait_for(state="visible")
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: History")
        screenshot(page, f"phone-ats-{size}-6-history")
    assert done

    # ------------------------------------------- year 3 (a game of its own, loaded fresh)
    record = year_three_record()
    three = Game.from_record(record)
    store.create(record, title="Year three")
    store.close()
    page.goto(voila_server.url)     # the page opens the store's latest game at its load
    year_three_entry_grid_and_message_in_view(page, three)


def year_three_record() -> dict:
    """Year 3: every player has built a long station of Fixture cards (the station grid
    is then far larger than at the start)."""
    g = Game({"players": PLAYERS}, cards=[FIX])
    while g.state.year < 3:
        for p in g.waiting_in_order():
            cells = g.legal_cells(p, FIX["name"])
            if cells and g.state.players[p].credits >= FIX["cost"] + 3:
                # the farthest legal cell from the Main Reactor: a long, wide station
                at = max(cells, key=lambda c: (abs(c[0]) + abs(c[1]), c))
                g.push({"player": p, "do": "build", "card": FIX["name"], "at": list(at)})
            else:
                g.push({"player": p, "do": "discard", "card": "Garden"})
    return g.to_record()


def year_three_entry_grid_and_message_in_view(page, game) -> None:
    """Issue 15: "At 1366x768, from year 3 on the grid is pushed below the fold". In year 3
    the entry, the grid's top and the rule message are on the first screen, and a long
    station scrolls inside its own box (at each size: the page resized)."""
    assert game.state.year == 3 and len(game.state.players["Ana"].station.cells) > 6
    page.locator(".scoreboard tr.score-row").first.wait_for(state="visible")
    settle(page, game)
    player = game.waiting_in_order()[0]
    page.select_option(".entry-player select", player)
    page.locator(".entry-action button", has_text="Build location").click()
    page.fill(".entry-card input", FIX["name"])
    page.locator(".station-grid .grid-cell.legal").first.wait_for(state="visible")
    for size, w, h in each_size(page, SIZES):
        cell(page, (0, 0)).click()                      # the Main Reactor: occupied
        expect(page.locator(".entry-message")).to_contain_text("[rule: occupied]")
        for what in (".entry-card input", ".station-grid", ".entry-message"):
            box = page.locator(what).first.bounding_box()
            assert box and 0 <= box["y"] < h, (size, what, box)
        grid = page.locator(".station-grid").first.bounding_box()
        assert grid["height"] <= h * 0.6 + 2 and grid["width"] <= w, (size, grid)
        assert_layout(page, f"{size}: year 3")
        screenshot(page, f"phone-ats-{size}-7-year-three")
