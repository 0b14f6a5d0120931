"""A 3-player game played through the real page for a whole year (and one action of
year 2): clicks and typing only, checked after every action against a shadow
engine in the test process, then against the engine's score of the stored record.

Cards used for builds: Holographic Display Area and U-Cannon, whose cost (2) and
energy (1) the books give, and a fixture card whose printed values are null in
the player's catalogue (like most real cards): the test types values for it into
the card form, as a player types the numbers of their physical card.  No real
card gets a number the books do not give.  Reactors and discards name any card
("Turret", "Garden").
"""
from __future__ import annotations

import re

import pytest
import yaml
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import (act, cell, choose, expected_board, fill_names, legal_shown,
                              read_board, settle, wait_legal)
from companion import Game
from companion.table.store import Store

pytestmark = pytest.mark.browser

PLAYERS = ["Sandra", "George", "Thalia"]
HDA, UC = "Holographic Display Area", "U-Cannon"
#: a card the player's catalogue knows only by name and type (its numbers are null)
FIX = "Fixture: typed at the table"
UNKNOWN_DEF = {"name": FIX, "category": "location", "types": ["recreational"], "cost": None,
               "energy": None, "vp": None, "max": None, "abilities": None}
#: what the test types into the card form for it
TYPED_GARDEN = {"cost": 1, "energy": 0, "vp": 1}
GARDEN_DEF = {**UNKNOWN_DEF, **TYPED_GARDEN, "max": "none", "abilities": []}


@pytest.fixture
def shadow_home(tmp_path, monkeypatch):
    """The test process's own COMPANION_HOME (the server has its own)."""
    home = tmp_path / "shadow-home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))
    return home


def test_one_year_through_the_page(voila_server, page, shadow_home):
    # ---------------------------------------------------------------- setup
    page.set_viewport_size({"width": 1280, "height": 1500})   # screenshots show the stations
    voila_server.home.mkdir(parents=True, exist_ok=True)
    (voila_server.home / "my-cards.yaml").write_text(yaml.safe_dump([UNKNOWN_DEF]))
    page.goto(voila_server.url)
    page.locator(".start-game").wait_for(state="visible")
    fill_names(page, PLAYERS)
    expect(page.locator(".player-name-3 input")).to_have_value("Thalia")
    screenshot(page, "play-01-setup-filled")
    page.click(".start-game")
    status = page.locator(".companion-status")
    expect(status).to_contain_text("New game started")

    # The shadow game knows the fixture card's typed values from the start; the page learns
    # them from the form below.
    g = Game({"players": PLAYERS}, cards=[GARDEN_DEF])
    settle(page, g)
    expect(page.locator(".turn-info")).to_contain_text("cards pass clockwise")

    # ------------------------------------ turn 1: the fixture card's values, once
    choose(page, "Sandra", "build", FIX)
    form = page.locator(".card-form")
    form.wait_for(state="visible")
    expect(form).to_contain_text(f"Enter the printed values of '{FIX}'")
    page.click(".form-save")                          # every field still empty
    expect(page.locator(".form-message")).to_contain_text(
        "Cost: please type the number printed on the card")
    expect(form).to_be_visible()                      # nothing saved, form still there
    page.fill(".form-cost input", str(TYPED_GARDEN["cost"]))
    page.fill(".form-energy input", str(TYPED_GARDEN["energy"]))
    page.fill(".form-vp input", str(TYPED_GARDEN["vp"]))
    screenshot(page, "play-02-card-form")
    page.click(".form-save")
    expect(status).to_contain_text(f"Saved the values of '{FIX}' in your catalogue")
    expect(form).to_have_count(0)
    mine = yaml.safe_load((voila_server.home / "my-cards.yaml").read_text())
    saved = {c["name"]: c for c in (mine if isinstance(mine, list) else mine.get("cards", []))}
    assert {k: saved[FIX][k] for k in TYPED_GARDEN} == TYPED_GARDEN
    wait_legal(page, g.legal_cells("Sandra", FIX))
    cell(page, (0, 1)).click()
    g.push({"player": "Sandra", "do": "build", "card": FIX, "at": [0, 1]})
    settle(page, g)
    expect(status).to_contain_text(f"Sandra built {FIX} at [0, 1]")

    act(page, g, "George", "build", HDA, (0, 1))
    act(page, g, "Thalia", "discard", "Garden")
    expect(page.locator(".turn-info")).to_contain_text("Turn 2")

    # --------------------------------------------------------------- turn 2
    # a second copy: now its MAX matters, and only that is asked (issue 50: only what
    # the moment needs); blank = no maximum, as the shadow's card says
    choose(page, "Sandra", "build", FIX)
    form = page.locator(".card-form")
    form.wait_for(state="visible")
    expect(form).to_contain_text("Unknown: MAX")
    assert page.locator(".card-form .form-cost input").count() == 0 or \
        not page.locator(".card-form .form-cost input").is_visible()
    page.click(".form-save")
    expect(form).to_have_count(0)
    act(page, g, "Sandra", "build", FIX, (0, 2))
    act(page, g, "George", "reactor", "Turret", (1, 0))
    act(page, g, "Thalia", "reactor", "Turret", (0, -1))

    # ------------------------------------- turn 3: an illegal click is refused
    choose(page, "Sandra", "build", HDA)
    wait_legal(page, g.legal_cells("Sandra", HDA))
    assert "cell_r0_c3" not in legal_shown(page)
    expect(cell(page, (0, 3))).to_have_class(re.compile(r"\bfrontier\b"))
    before = read_board(page)
    cell(page, (0, 3)).click()       # 3 steps from the Main Reactor: out of energy range
    err = page.locator(".companion-status .status-error")
    expect(err).to_contain_text("[rule: no-energy]")
    expect(err).to_contain_text("Sandra build 'Holographic Display Area' at [0, 3]")
    screenshot(page, "play-03-illegal-click")
    assert read_board(page) == before == expected_board(g)
    assert "Sandra" in g.state.waiting
    # the same player then builds it where it is legal
    wait_legal(page, g.legal_cells("Sandra", HDA))
    cell(page, (1, 0)).click()
    g.push({"player": "Sandra", "do": "build", "card": HDA, "at": [1, 0]})
    settle(page, g)
    # two reactors could pay: the page asks, and the player picks the Main Reactor
    # instead of the default (the Power Reactor next to the cell)
    norm = act(page, g, "George", "build", UC, (1, 1), energy_from=(0, 0))
    assert norm["energy_from"] == [[0, 0]]
    act(page, g, "Thalia", "build", HDA, (1, 0))         # default payer confirmed

    # --------------------------------------------------------------- turn 4
    act(page, g, "Sandra", "reactor", "Turret", (0, 3))
    screenshot(page, "play-04-mid-year")
    # undo: "Keep it" first changes nothing, then "Yes" takes the reactor back
    page.click(".undo")
    confirm = page.locator(".undo-confirm")
    expect(confirm).to_contain_text("Undo year 1, turn 4: Sandra built a Power Reactor at [0, 3]?")
    page.click(".undo-no")
    expect(page.locator(".undo-yes")).to_have_count(0)
    settle(page, g)
    board_with_reactor = read_board(page)
    page.click(".undo")
    expect(confirm).to_contain_text("Sandra built a Power Reactor at [0, 3]")
    screenshot(page, "play-05-undo-confirm")
    page.click(".undo-yes")
    g.pop()
    settle(page, g)
    expect(status).to_contain_text("Undone: Sandra built a Power Reactor at [0, 3]")
    assert read_board(page) != board_with_reactor
    assert read_board(page)["Sandra"] == {"vp": "5", "credits": "6", "cubes": "1", "locations": "3"} \
        == expected_board(g)["Sandra"]
    act(page, g, "Sandra", "reactor", "Turret", (0, 3))  # entered again
    # The fixture card again, by another player: its values are not asked again
    choose(page, "George", "build", FIX)
    wait_legal(page, g.legal_cells("George", FIX))
    expect(page.locator(".card-form")).to_have_count(0)
    act(page, g, "George", "build", FIX, (0, -1))
    act(page, g, "Thalia", "build", UC, (1, -1))

    # --------------------------------------------------------------- turn 5
    act(page, g, "Sandra", "build", UC, (0, 4))
    act(page, g, "George", "discard", "Garden")
    act(page, g, "Thalia", "build", FIX, (0, 1))

    # --------------------------------------------------------------- turn 6
    act(page, g, "Sandra", "discard", "Garden")
    act(page, g, "George", "build", FIX, (-1, 0))
    act(page, g, "Thalia", "reactor", "Turret", (-1, 0))   # the 18th action ends year 1
    assert (g.state.year, g.state.turn) == (2, 1)
    expect(status).to_contain_text("Year 2 begins: everyone takes 10 credits; "
                                   "cards now pass counter-clockwise")
    info = page.locator(".turn-info")
    expect(info).to_contain_text("Year 2")
    expect(info).to_contain_text("Turn 1 of 6")
    expect(info).to_contain_text("counter-clockwise")
    screenshot(page, "play-06-year-2")
    # every player got +10: credits before the last action were 6, 6 and 7 (+0/+0/-1)
    assert {p: read_board(page)[p]["credits"] for p in PLAYERS} == \
        {"Sandra": "16", "George": "16", "Thalia": "16"}

    # ------------------------------------------ year 2, turn 1: first action
    choose(page, "Sandra", "build", FIX)
    wait_legal(page, g.legal_cells("Sandra", FIX))
    expect(page.locator(".card-form")).to_have_count(0)
    act(page, g, "Sandra", "build", FIX, (2, 0))
    expect(info).to_contain_text("Year 2")
    expect(info).to_contain_text("Waiting for: George, Thalia")
    screenshot(page, "play-07-year-2-first-action")

    # ---------------- the page agrees with the engine's score of the stored record
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        games = store.games()
        assert len(games) == 1 and games[0]["actions"] == 19
        rec = store.load(games[0]["id"])
    finally:
        store.close()
    keys = ("year", "turn", "player", "do", "card", "at", "energy_from")
    assert [{k: a.get(k) for k in keys} for a in rec["actions"]] == \
        [{k: a.get(k) for k in keys} for a in g.actions]
    garden = next(c for c in rec["cards"] if c["name"] == FIX)
    assert {k: garden[k] for k in TYPED_GARDEN} == TYPED_GARDEN
    replay = Game.from_record(rec)
    table = replay.score().table.set_index("player")
    board = read_board(page)
    for p in PLAYERS:
        row = table.loc[p]
        assert int(board[p]["vp"]) == row["during_game"] == row["total"], p
        assert int(board[p]["credits"]) == row["credits_left"], p
        assert int(board[p]["locations"]) == row["locations"], p
    # and the numbers themselves, derived by hand (comment at the end of this file)
    assert {p: (board[p]["vp"], board[p]["credits"]) for p in PLAYERS} == {
        "Sandra": ("11", "15"), "George": ("10", "16"), "Thalia": ("9", "16")}


# Hand check of the final numbers.  VP: the printed VP plus the immediate abilities the
# books give (Holographic Display Area +1 per adjacent location, which the engine
# counts for the Main Reactor next to it; U-Cannon +1 per energy cube left, MAX 3);
# The fixture card gives the typed 1 VP.  Credits: 10 at the start, +10 when year 2 begins.
# Sandra: fixture 1 + fixture 1 + HDA (2+1) + U-Cannon (3 + 2 cubes left) + fixture 1 = 11;
#         10 -1 -1 -2 -1 (reactor; undone and entered again) -2 +3 +10 -1 = 15.
# George: HDA (2+1) + U-Cannon (3 + 2 cubes: the Main Reactor paid) + fixture 1 + fixture 1
#         = 10; 10 -2 -1 -2 -1 +3 -1 +10 = 16.
# Thalia: HDA (2+1) + U-Cannon (3 + 2) + fixture 1 = 9; 10 +3 -1 -2 -2 -1 -1 +10 = 16.
