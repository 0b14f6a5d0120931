"""The what-if explorer in the real page: pick a card, see the heatmap and the
best cell; rank a hand; the projection panel and the VP chart are shown."""
from __future__ import annotations

from browser_harness import screenshot
from dashboard_driver import act, start_game
from companion import Game
from companion.ats.whatif import best_cell, hand_ranking, placement_map

PLAYERS = ["Sandra", "George", "Thalia"]


def test_explorer_heatmap_best_cell_and_hand(page, voila_server):
    page.set_viewport_size({"width": 1280, "height": 1600})
    start_game(page, voila_server.url, PLAYERS)
    shadow = Game({"players": PLAYERS})
    # a station where the Holographic Display Area has one best cell: the one
    # with the most built neighbours (next to both reactors)
    act(page, shadow, "Sandra", "reactor", "Turret", (0, 1))
    act(page, shadow, "George", "discard", "Garden")
    act(page, shadow, "Thalia", "discard", "Garden")
    act(page, shadow, "Sandra", "reactor", "Turret", (1, 1))
    act(page, shadow, "George", "discard", "Garden")
    act(page, shadow, "Thalia", "discard", "Garden")

    page.locator(".whatif").get_by_text("What-if explorer").click()
    page.fill(".wi-card input", "Holographic Display Area")
    best = page.locator(".wi-best")
    best.wait_for(state="visible")
    page.wait_for_function("() => document.querySelector('.wi-best').textContent.includes('Best cell')")
    expected = best_cell(placement_map(shadow, "Sandra", "Holographic Display Area"))
    assert expected == (1, 0)             # two built neighbours: the Main Reactor and [1, 1]
    assert f"Best cell for Holographic Display Area: {list(expected)}" in best.inner_text()
    star = page.locator(".wi-heatmap g.heat-cell.best")
    assert star.count() == 1
    assert star.get_attribute("data-cell") == "1,0"
    assert "★" in star.text_content()
    # every frontier cell of Sandra's station is on the heatmap
    assert page.locator(".wi-heatmap g.heat-cell").count() == len(shadow.state.station("Sandra").frontier())

    # hand ranking: the top row is the engine's top row
    for name in ("U-Cannon", "Holographic Display Area"):
        page.fill(".wi-hand input", name)
        page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('.wi-ranking tbody tr').length > 0")
    want = hand_ranking(shadow, "Sandra", ["U-Cannon", "Holographic Display Area"]).iloc[0]
    first = page.locator(".wi-ranking tbody tr").first.inner_text()
    assert want.card in first and str(int(want.projected_total)) in first

    assert page.locator(".wi-ended-now table").count() == 1
    assert page.locator(".wi-chart svg.vp-chart").count() == 1
    screenshot(page, "explorer-01-heatmap")
    # exploring changed nothing: the scoreboard still shows the shadow game
    assert "Turn 3" in page.locator(".turn-info").inner_text()
