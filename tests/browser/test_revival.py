"""A Revival 2-player game year through the real page: the setup controls, the
active player first each turn (refused otherwise, with the rule), the reactor
pile of 8, and the active player switching at the year's end."""
from __future__ import annotations

from browser_harness import screenshot
from dashboard_driver import act, fill_names, open_setup_options, settle
from companion import Game

PLAYERS = ["Ana", "Ben"]


def test_revival_two_player_year(page, voila_server):
    page.set_viewport_size({"width": 1280, "height": 1400})
    page.goto(voila_server.url)
    page.locator(".start-game").wait_for(state="visible")
    fill_names(page, PLAYERS)
    open_setup_options(page)
    page.locator(".setup-two-player select").select_option(label="Revival 2-player rules")
    page.wait_for_function("() => document.querySelector('.deck-composition')"
                           ".textContent.includes('Revival')")
    page.locator(".deck-composition summary").click()
    assert "12" in page.locator(".deck-composition").inner_text()      # piles of 12
    screenshot(page, "revival-01-setup")
    page.click(".start-game")
    page.locator(".scoreboard tr.score-row").first.wait_for(state="visible")
    shadow = Game({"players": PLAYERS, "options": {"two_player": "revival", "first_active": "Ana",
                                                   "reactor_supply": 8}})
    settle(page, shadow)
    assert "reactors left in supply: 8" in page.locator(".turn-info").inner_text()
    assert "active player this year: Ana" in page.locator(".turn-info").inner_text()

    # Ben may not act before the active player: refused with the rule
    page.select_option(".entry-player select", "Ben")
    page.locator(".entry-action button", has_text="Discard for 3 credits").click()
    page.fill(".entry-card input", "Garden")
    page.click(".do-discard")
    err = page.locator(".entry-message .status-error")
    err.wait_for(state="visible")
    assert "[rule: revival-order]" in err.inner_text()
    screenshot(page, "revival-02-order-refused")

    plan = {
        1: [("Ana", "reactor", "Turret", (0, 1)), ("Ben", "build", "Holographic Display Area", (1, 0))],
        2: [("Ana", "build", "Holographic Display Area", (1, 1)), ("Ben", "discard", "Garden", None)],
    }
    for turn in range(1, 7):
        for player, do, card, at in plan.get(turn, [("Ana", "discard", "Garden", None),
                                                    ("Ben", "discard", "Garden", None)]):
            act(page, shadow, player, do, card, at)
    # year 2: Ben is the active player now
    info = page.locator(".turn-info").inner_text()
    assert "Year 2" in info and "active player this year: Ben" in info
    assert page.locator(".entry-player select").input_value() == "Ben"
    act(page, shadow, "Ben", "discard", "Garden")
    screenshot(page, "revival-03-year-2")
    assert shadow.state.reactor_supply == 7
