"""Issue 15, Small Star Empires and History: the main paths at a phone's 390x844 and a
laptop's 1366x768, checked for what a hand on a phone hits (tests/browser/layout.py): no
control past the right edge, no sideways scrolling, every control at least 44 px tall.

The paths (Among the Stars is in test_phone_layout.py): the SSE setup screen (options
folded, then opened) and the map editor; a move with an illegal click (its rule shown next to the entry, in
view) and a legal one; an undo; the final table of a finished game (the board drawn once);
the History tab with that game opened and a statistics table shown.

One page (one Voila server) goes through every path once and is resized to each size at
every step (tests/browser/sizes_kit.py: the layout is CSS only); it is loaded again only
where the page picks its game at load (the finished game).
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

import test_sse as ui                      # the SSE page helpers (settle, hexbtn, wait_legal)
from browser_harness import screenshot
from companion.sse import SseGame
from companion.table.store import Store
from layout import assert_layout, cards_fit
from sizes_kit import each_size

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
PLAYERS = ["Ann", "Bob"]
SETUP = {"players": PLAYERS, "map": "basic-2p",
         "pieces": {"ships": 3, "cities": 16, "trade_stations": 4},
         "variants": {"damaged_ships": False, "unexplored": False, "open_borders": False}}


def finished_record() -> dict:
    """A whole 2-player game on the basic map, the first legal City move each time."""
    g = SseGame({**SETUP, "players": ["Dora", "Eli"]})
    while not g.state.finished:
        p = g.current
        for piece in list(g.placeable_pieces(p)) + [None]:
            moves = [(s, m) for s in range(3) for m in g.legal_moves(p, s, piece=piece)]
            if moves:
                break
        ship, m = sorted(moves, key=lambda o: (o[1].to, o[0]))[0]
        g.push({"player": p, "ship": ship, "to": list(m.to),
                "piece": piece if m.kind == "colonise" else None})
    return g.to_record()


def in_view(page, selector: str, h: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box and 0 <= box["y"] and box["y"] + min(box["height"], 40) <= h, (selector, box)


def test_sse_and_history_fit_the_screen_at_each_size(voila_server, page):
    """One page through the paths, resized to each size at every step (the layout is CSS
    only: tests/browser/sizes_kit.py)."""
    w, h = SIZES["phone"]
    page.set_viewport_size({"width": w, "height": h})

    # ---------------------------------------------------------------- setup
    page.goto(voila_server.url)
    page.locator(".start-game").wait_for(state="visible")
    page.locator(".lm-TabBar-tab", has_text="Small Star Empires").click()
    page.locator(".sse-setup").wait_for(state="visible")
    expect(page.locator(".companion-title")).to_contain_text("Small Star Empires")
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: SSE setup")
        screenshot(page, f"phone-sse-{size}-1-setup")
        # one column of names: each name field below the one before
        ys = [page.locator(f".sse-name-{i} input").bounding_box()["y"] for i in (1, 2, 3, 4)]
        assert ys == sorted(ys) and len(set(ys)) == 4, (size, ys)
    # the map editor: the same board sizing, its tools wrapping
    page.click(".sse-edit-maps")
    page.locator(".sse-editor .sse-hex").first.wait_for(state="visible")
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: SSE map editor")
        screenshot(page, f"phone-sse-{size}-1b-editor")
    page.click(".sse-ed-back")
    page.locator(".sse-setup").wait_for(state="visible")
    page.locator(".sse-options .jupyter-widget-Collapse-header, "
                 ".sse-options .lm-AccordionPanel-title").first.click()
    page.locator(".sse-variant-epic input").wait_for(state="visible")
    page.locator(".sse-variant-epic input").check()
    page.locator(".sse-variant-campaign input").check()
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: SSE setup with the options open")
        screenshot(page, f"phone-sse-{size}-2-setup-options")
    page.locator(".sse-variant-epic input").uncheck()
    page.locator(".sse-variant-campaign input").uncheck()
    page.fill(".sse-name-1 input", PLAYERS[0])
    page.fill(".sse-name-2 input", PLAYERS[1])
    page.select_option(".sse-ships select", label="3")
    page.click(".sse-start")
    expect(page.locator(".companion-status")).to_contain_text("new game on 'basic-2p'")
    g = SseGame(SETUP)
    ui.settle(page, g)
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: SSE play, first move")

    # ----------------------------------------- a move: an illegal click, then a legal one
    ann = g.current
    ui.hexbtn(page, g.state.players[ann].ships[0].at).click()
    ui.wait_legal(page, g.legal_destinations(ann, 0, piece="city"))
    bob_home = g.state.players["Bob"].home
    msg = page.locator(".sse-message")
    for size, w, h in each_size(page, SIZES):
        # the ship stays selected after an illegal click: the same click at each size
        ui.hexbtn(page, bob_home).click()
        expect(msg).to_contain_text("[rule: ")
        ui.wait_legal(page, g.legal_destinations(ann, 0, piece="city"))
        # the rule is next to the entry and on screen while the board is used
        in_view(page, ".sse-message", h)
        in_view(page, ".sse-piece", h)
        # the status line above the tabs would only repeat it: hidden while the board is
        # shown
        expect(page.locator(".companion-status")).to_be_hidden()
        board = page.locator(".sse-play .sse-board").bounding_box()
        # the entry, its message and the whole 2-player board on the first screen
        assert board["width"] <= w and board["y"] + board["height"] <= h, (size, board)
        # the 2-player map is scaled to the width: no hex is past the board's right edge
        right = page.evaluate("() => Math.max(...Array.from(document.querySelectorAll("
                              "'.sse-play .sse-board .sse-hex')).map(b => "
                              "b.getBoundingClientRect().right))")
        assert right <= board["x"] + board["width"] + 1, (size, right, board)
        assert_layout(page, f"{size}: SSE illegal click")
        screenshot(page, f"phone-sse-{size}-3-illegal")
    to = ui.pick(g, 0)
    ui.hexbtn(page, to).click()
    g.push({"player": ann, "ship": 0, "to": list(to), "piece": "city"})
    ui.settle(page, g)
    expect(msg).to_contain_text(f"{ann} moved ship 0")
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: SSE after a move")
        # the compact scoreboard; its details (ships, the score by category) open on a tap
        expect(page.locator("table.sse-score td.cities").first).to_be_visible()
        expect(page.locator(".sse-score-details table")).to_be_hidden()
        # the compact table fits without scrolling its box
        assert page.evaluate("() => { const t = document.querySelector('table.sse-score');"
                             " return t.getBoundingClientRect().width"
                             " <= t.parentElement.clientWidth + 1; }"), size
    page.locator(".sse-score-more .lm-AccordionPanel-title, "
                 ".sse-score-more .jupyter-widget-Collapse-header").first.click()
    for size, w, h in each_size(page, SIZES):
        expect(page.locator(".sse-score-details table")).to_be_visible()
        assert_layout(page, f"{size}: SSE score details")
        screenshot(page, f"phone-sse-{size}-4-moved")

    # --------------------------------------------------------------------- undo
    page.click(".sse-undo")
    expect(page.locator(".sse-undo-confirm")).to_contain_text(f"Undo: {ann} moved ship 0")
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: SSE undo question")
    page.click(".sse-undo-yes")
    g.pop()
    ui.settle(page, g)
    expect(msg).to_contain_text(f"Undone: {ann} moved ship 0")
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: SSE after an undo")
        screenshot(page, f"phone-sse-{size}-5-undo")

    # ---------------------------------------------- the final table of a finished game
    store = Store(voila_server.home / "games.sqlite")
    done = store.create(finished_record(), title="Small Star Empires: Dora, Eli")
    store.close()
    page.reload()                   # the page opens the store's latest game at its load
    page.locator(".start-game, .scoreboard").first.wait_for(state="visible")
    page.locator(".lm-TabBar-tab", has_text="Small Star Empires").click()
    page.locator(".sse-final-table").wait_for(state="attached")
    for size, w, h in each_size(page, SIZES):
        # issue 37: "on a phone the final table's breakdown columns (objectives included)
        # hide behind a sideways scroll with no cue": on a phone one card per player,
        # every column on the screen; the wide table on a laptop
        if size == "phone":
            page.locator(".final-cards").first.wait_for(state="visible")
            cards_fit(page)
        else:
            page.locator(".sse-final-table").wait_for(state="visible")
        # the final position is drawn once (the SVG in the final panel), not twice
        assert page.locator(".sse-play svg.sse-map").count() == 1
        assert not page.locator(".sse-play .sse-board").is_visible()
        assert_layout(page, f"{size}: SSE final table")
        screenshot(page, f"phone-sse-{size}-6-final")

    # ---------------------------------------------------------------- History
    page.locator(".lm-TabBar-tab", has_text="History").click()
    page.locator(".history-games select").wait_for(state="visible")
    for size, w, h in each_size(page, SIZES):
        assert page.evaluate("() => getComputedStyle(document.querySelector("
                             "'.companion-status')).display") != "none"  # other tabs: shown
        assert_layout(page, f"{size}: History list")
    page.fill(".history-filter input", "Dora")
    expect(page.locator(".history-games select option")).to_have_count(1)
    expect(page.locator(".history-games select option")).to_contain_text("Dora")
    page.locator(".history-games select").select_option(index=0)
    page.click(".history-open")
    page.locator(".history-step").wait_for(state="visible")
    expect(page.locator(".history-board svg")).to_have_count(1)
    page.select_option(".history-stat select",
                       label="Small Star Empires: trade stations and territory")
    page.locator(".history-stat-table table").wait_for(state="visible")
    for size, w, h in each_size(page, SIZES):
        expect(page.locator(".history-board svg")).to_have_count(1)
        assert_layout(page, f"{size}: History with a game open")
        screenshot(page, f"phone-sse-{size}-7-history")
    page.click(".history-delete")
    page.locator(".history-delete-yes").wait_for(state="visible")
    for size, w, h in each_size(page, SIZES):
        assert_layout(page, f"{size}: History delete question")
    assert done
