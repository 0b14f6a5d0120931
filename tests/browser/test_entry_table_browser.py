"""Issue 37 in Chromium, the entry as a real table met it (each fails on the main before
this issue, where the in-process tests tests/test_ats_entry_table.py, tests/test_app_table.py
and tests/sse/test_sse_piece_choice.py say how):

Among the Stars, on the laptop's page of a 3-player game with one Influence tile (R 4):
- "'Did you mean …' suggestions are not tappable": a close name is a button that takes it;
- "The first build of an unknown card: after saving its values the player must tap the
  cell again": a card's type (a fixture shaped as the shipped U-Cannon: numbers known,
  no type) is needed by the click (an advisor reacts to the type built
  next to it); once typed and saved the build is recorded, no second tap;
- "School of Alien Cultures: after Confirm build nothing visible changes": the pay or lose
  is listed for the end of the turn (a "Fixture: pay or lose" card, the School's ability);
- "What-if ... opens on the first player even when it is the other's turn": the explorer
  shows the player who acts now.

Small Star Empires on a phone: "tap Trade Station, then tap a ship: the choice silently
goes back to City, and a City is recorded": a Trade Station is recorded.

Screenshots: tests/artifacts/i37-*.png.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import (ACTION_LABEL, PHONE, ats_shows, cell, store_of,
                              stored_actions, wait_legal, wait_taking_entries)
from companion.ats.game import Game
from companion.sse import SseGame
from test_sse import choose_piece, hexbtn, pick
from test_sse import settle as sse_settle
from test_sse import wait_legal as sse_wait_legal

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cy"]
PAY_OR_LOSE = {"name": "Fixture: pay or lose", "types": ["diplomatic"], "cost": 0, "energy": 0,
               "vp": 0, "max": "none",
               "abilities": [{"when": "immediate", "choice": "pay_or_lose", "pay": 1, "lose": 2}]}
#: numbers known, type not (the shape of the shipped U-Cannon); the test types its type
TYPE_UNKNOWN = {"name": "Fixture: type unknown", "types": None, "cost": 0, "energy": 0,
                "vp": 1, "max": "none", "abilities": []}
TILE = {"name": "Test tile", "between": ["Ana", "Ben"], "actions": ["build:military"],
        "slots": 2}



def type_card(page, player: str, do: str, card: str) -> None:
    wait_taking_entries(page)
    page.select_option(".entry-player select", player)
    page.locator(".entry-action button", has_text=ACTION_LABEL[do]).click()
    page.fill(".entry-card input", card)


def test_the_among_the_stars_entry_finishes_what_it_starts(voila_server, open_pages):
    g = Game({"players": PLAYERS, "options": {"advisors": [TILE]}}, cards=[PAY_OR_LOSE, TYPE_UNKNOWN],
             book_setup=False)
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="issue 37")
    s.close()
    page = open_pages(voila_server.url)
    ats_shows(page, g, timeout=60_000)

    # a close name is a button that takes it
    type_card(page, "Ana", "build", "Fixture: type unknwn")
    pick_it = page.locator(".entry-suggestion", has_text=TYPE_UNKNOWN["name"])
    expect(pick_it).to_be_visible()
    screenshot(page, "i37-01-suggestion")
    pick_it.click()
    expect(page.locator(".entry-card input")).to_have_value(TYPE_UNKNOWN["name"])

    # the click asks the card's type; saved, the same build goes on
    cell(page, (0, 1)).click()
    form = page.locator(".card-form")
    expect(form).to_be_visible()
    expect(page.locator(".companion-status")).to_contain_text("once saved, the build at [0, 1]")
    form.locator(".form-type1 select").select_option("military")
    screenshot(page, "i37-02-types-asked")
    form.locator(".form-save").click()
    expect(form).to_have_count(0)
    from companion.ats.catalogue import parse_card
    g.define(parse_card({**TYPE_UNKNOWN, "types": ["military"]}))
    g.push({"player": "Ana", "do": "build", "card": TYPE_UNKNOWN["name"], "at": [0, 1]})
    ats_shows(page, g, timeout=20_000)
    assert [(a["player"], a["card"], a["at"]) for a in stored_actions(voila_server, gid)] == \
        [("Ana", TYPE_UNKNOWN["name"], [0, 1])]

    # School of Alien Cultures' pay or lose: listed for the end of the turn
    type_card(page, "Ben", "build", PAY_OR_LOSE["name"])
    wait_legal(page, g.legal_cells("Ben", PAY_OR_LOSE["name"]))
    cell(page, (0, 1)).click()
    extra = page.locator(".entry-extra")
    extra.locator(".confirm-build").wait_for(state="visible")
    extra.locator(".school-1 button", has_text="pay").first.click()       # Ana pays
    extra.locator(".school-3 button", has_text="lose").first.click()      # Cy loses VP
    extra.locator(".confirm-build").click()
    g.push({"player": "Ben", "do": "build", "card": PAY_OR_LOSE["name"], "at": [0, 1],
            "choices": {"Ana": "pay", "Cy": "lose"}})
    ats_shows(page, g, timeout=20_000)
    pending = page.locator(".pending-effects")
    expect(pending).to_contain_text("At the end of this turn")
    # secret until they resolve (issue 50): the host's page does not name the choices
    for p in ("Ana", "Cy"):
        expect(pending).to_contain_text(
            f"{p}: pays 1 credit or loses 2 VP (Ben's {PAY_OR_LOSE['name']}), chosen in "
            "secret, revealed at the end of this turn")
    screenshot(page, "i37-03-pending")

    # the what-if explorer shows the player who acts now
    page.locator(".whatif").get_by_text("What-if explorer").click()
    expect(page.locator(".wi-player select")).to_have_value("Cy")
    screenshot(page, "i37-04-explorer")


def test_small_star_empires_records_the_piece_chosen_before_the_ship(voila_server, open_pages):
    g = SseGame({"players": ["Ana", "Ben"], "map": "basic-2p", "pieces": {"ships": 2}})
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="issue 37 sse")
    s.close()
    page = open_pages(f"{voila_server.url}?game={gid}", viewport=PHONE)
    sse_settle(page, g)
    player = g.current
    choose_piece(page, g, "trade_station")                 # the piece first ...
    hexbtn(page, g.state.players[player].ships[0].at).click()   # ... then the ship
    sse_wait_legal(page, g.legal_destinations(player, 0, piece="trade_station"))
    expect(page.locator(".sse-piece button.mod-active")).to_contain_text("Trade Station")
    screenshot(page, "i37-05-sse-piece-kept")
    to = pick(g, 0)
    hexbtn(page, to).click()
    g.push({"player": player, "ship": 0, "to": list(to), "piece": "trade_station"})
    sse_settle(page, g)
    assert stored_actions(voila_server, gid)[-1]["piece"] == "trade_station"
