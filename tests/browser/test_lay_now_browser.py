"""Issue 39, "A game already under way", in the browser ("Done when": a browser test joins
a game in year 2: lays three stations, then plays the rest of year 2 with an illegal
action refused and an undo).

A 3-player Among the Stars game is joined at year 2, turn 5 (``setup.options.laid:
"now"``, ``laid_at: {year: 2, turn: 5}``): one seat page per player, each in its own
browser context, and the table view, all at 390x844.  Each seat lays its own station on
its phone (cells tapped, a location named, Power Reactors with their cubes, the credits,
the score track's VP, *Lay*).  The turn entry then comes on every seat page and the two
turns left of year 2 are played on the seat pages:

- turn 5: Ana builds a plot; Ben's build of a card he cannot pay is refused in one line
  naming the card, the cell and the rule, nothing recorded (the store is read); he
  discards it; Cleo builds a Power Reactor, then takes it back with *Undo last action* on
  her page: every other page and the table view follow; she discards instead;
- turn 6: Ana discards, Ben builds a post, Cleo discards: year 3 begins and each player
  took 10 credits, on every page.

The books' sentences (B = /work/shared/rules/among-the-stars-rulebook.md):
- B 4: "In order to build a location, you have to cover its cost." (the refusal)
- B 4, Build Power Reactor: "pay its cost (1 credit)"; Discard: "immediately gain 3
  credits".
- B 4: "At the beginning of every round, each player should: - Take 10 credits and put
  them in their play area."; "Every round consists of 6 turns."

Every card is a "Fixture: ..." card defined in the record (a test's numbers, no real
card's).  Screenshots: tests/artifacts/lay-now-*.png."""
from __future__ import annotations

import copy

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import (ACTION_LABEL, ats_enter, ats_shows, cell, store_of, turn_words,
                              wait_actions, wait_taking_entries)
from test_lay_browser import number, put
from companion.ats.game import Game
from recordkit import fixture_card

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cleo"]
PLOT = "Fixture: now plot"
POST = "Fixture: now post"
HALL = "Fixture: now dear hall"
CARDS = [fixture_card(PLOT, types=["business"], cost=1, energy=0, vp=1),
         fixture_card(POST, types=["military"], cost=1, energy=0, vp=2),
         fixture_card(HALL, types=["diplomatic"], cost=3, energy=0, vp=3)]
SETUP = {"players": PLAYERS, "options": {"laid": "now", "laid_at": {"year": 2, "turn": 5}}}


def reactor(at, cubes):
    return {"at": list(at), "reactor": True, "cubes": cubes}


#: the stations as they lie on the table, each laid by its own seat's phone below
LAYS = [
    {"do": "lay", "player": "Ana", "cells": [reactor((0, 0), 1), {"at": [0, 1], "card": PLOT}],
     "credits": 4, "vp": 12},
    {"do": "lay", "player": "Ben",
     "cells": [reactor((0, 0), 2), {"at": [0, 1], "card": POST}, reactor((1, 0), 0)],
     "credits": 1, "vp": 10},
    {"do": "lay", "player": "Cleo", "cells": [reactor((0, 0), 2)], "credits": 6, "vp": 9},
]


def stored(server, gid) -> list:
    s = store_of(server)
    try:
        return s.load(gid)["actions"]
    finally:
        s.close()


@pytest.mark.dashboard_config
def test_a_game_joined_in_year_2_is_laid_then_played_to_year_3_with_a_refusal_and_an_undo(
        voila_server, phones):
    s = store_of(voila_server)
    gid = s.create(Game(SETUP, cards=copy.deepcopy(CARDS)).to_record(), title="joined in year 2")
    s.close()
    seats = {p: phones(f"{voila_server.url}?seat={p}&game={gid}") for p in PLAYERS}
    table = phones(f"{voila_server.url}?view=table&game={gid}")
    ana, ben, cleo = (seats[p] for p in PLAYERS)
    pages = [ana, ben, cleo, table]
    for p in seats.values():
        wait_taking_entries(p)
        expect(p.locator(".lay-panel")).to_be_visible(timeout=60_000)
        expect(p.locator(".turn-entry")).to_be_hidden()
    expect(table.locator(".lay-panel")).to_have_count(0)
    # no turn is played while the stations are laid: the line says so, and where the
    # game goes on from
    expect(table.locator(".turn-info")).to_contain_text("Laying the table")
    expect(table.locator(".turn-info")).to_contain_text("goes on from year 2, turn 5")

    # -- each seat lays its own station as it lies ------------------------------------
    put(ana, (0, 0), "Power Reactor", cubes="1 cube")
    put(ana, (0, 1), "Location", card=PLOT)
    number(ana, ".lay-credits", 4)
    number(ana, ".lay-vp", 12)
    # Ben at the same time on his phone
    put(ben, (0, 0), "Power Reactor", cubes="2 cubes")
    put(ben, (0, 1), "Location", card=POST)
    put(ben, (1, 0), "Power Reactor", cubes="0 cubes")
    screenshot(ana, "lay-now-01-ana-laying")
    ana.locator(".lay-station").click()
    expect(ana.locator(".lay-title")).to_contain_text("Your station is laid", timeout=30_000)
    number(ben, ".lay-credits", 1)
    number(ben, ".lay-vp", 10)
    # Ben lays at once, his phone not waiting to show Ana's station: a page behind the
    # store records another player's entry once it has replayed the store, if still
    # legal (issue 39: two seats a second apart; GameSession._again_behind)
    ben.locator(".lay-station").click()
    expect(ben.locator(".lay-title")).to_contain_text("Your station is laid", timeout=30_000)
    expect(cleo.locator(".lay-title")).to_contain_text("laid: Ana, Ben", timeout=30_000)
    put(cleo, (0, 0), "Power Reactor", cubes="2 cubes")
    number(cleo, ".lay-credits", 6)
    number(cleo, ".lay-vp", 9)
    cleo.locator(".lay-station").click()

    g = Game(SETUP, cards=copy.deepcopy(CARDS))
    for a in LAYS:
        g.push(copy.deepcopy(a))
    assert wait_actions(voila_server, gid, 3) == LAYS          # the stations as laid
    assert (g.state.year, g.state.turn) == (2, 5)
    # every station laid: the laying panel goes, the turn entry comes on every seat page
    for p in seats.values():
        expect(p.locator(".turn-entry")).to_be_visible(timeout=30_000)
        expect(p.locator(".lay-panel")).to_be_hidden()
    for p in pages:
        ats_shows(p, g)
        expect(p.locator(".turn-info")).to_contain_text(turn_words(g))
    expect(table.locator(".turn-entry")).to_be_hidden()

    # -- year 2, turn 5 ------------------------------------------------------------------
    ats_enter(ana, g, "Ana", "build", PLOT, (0, 2))                # 1 credit of her 4, +1 VP
    for p in pages:
        ats_shows(p, g)
    # Ben's hall costs 3; he laid 1 credit: B 4 "you have to cover its cost"
    wait_taking_entries(ben)
    ben.locator(".entry-action button", has_text=ACTION_LABEL["build"]).click()
    ben.fill(".entry-card input", HALL)
    expect(ben.locator(".turn-entry")).to_contain_text("No legal cell for this card now")
    wait_taking_entries(ben)
    cell(ben, (0, 2)).click()
    refusal = ben.locator(".entry-message")
    expect(refusal).to_contain_text("[rule: credits]")
    line = refusal.inner_text().strip()
    assert "\n" not in line, line                                # one line
    assert f"'{HALL}' at [0, 2]" in line and "costs 3 credits, Ben has 1" in line, line
    assert "Traceback" not in ben.content()
    screenshot(ben, "lay-now-02-ben-refused")
    assert stored(voila_server, gid) == g.actions              # nothing recorded
    for p in (ana, cleo, table):
        ats_shows(p, g)
    ats_enter(ben, g, "Ben", "discard", HALL)                      # +3 credits
    for p in pages:
        ats_shows(p, g)
    ats_enter(cleo, g, "Cleo", "reactor", PLOT, (0, 1))            # 1 credit, a new reactor
    for p in pages:
        ats_shows(p, g)
    assert stored(voila_server, gid) == g.actions
    assert g.state.turn == 6

    # -- Cleo takes her reactor back on her page: every page follows -------------------
    wait_taking_entries(cleo)
    cleo.click(".undo")
    expect(cleo.locator(".undo-confirm")).to_contain_text("Undo year 2, turn 5")
    cleo.click(".undo-yes")
    undone = g.pop()
    assert undone["player"] == "Cleo" and undone["do"] == "reactor"
    expect(cleo.locator(".companion-status")).to_contain_text("Undone")
    for p in pages:
        ats_shows(p, g)
        expect(p.locator(".turn-info")).to_contain_text("Year 2 · Turn 5 of 6")
        expect(p.locator(".turn-info")).to_contain_text("Waiting for: Cleo")
    assert wait_actions(voila_server, gid, 5) == g.actions
    assert g.state.players["Cleo"].station.cells.get((0, 1)) is None
    ats_enter(cleo, g, "Cleo", "discard", PLOT)
    for p in pages:
        ats_shows(p, g)

    # -- year 2, turn 6: the year's last -------------------------------------------------
    assert (g.state.year, g.state.turn) == (2, 6)
    before = {p: g.state.players[p].credits for p in PLAYERS}
    assert before == {"Ana": 4 - 1 + 0, "Ben": 1 + 3, "Cleo": 6 + 3}
    # each entry once every page shows the one before, as the table plays it
    ats_enter(ana, g, "Ana", "discard", PLOT)                      # +3
    for p in pages:
        ats_shows(p, g)
    ats_enter(ben, g, "Ben", "build", POST, (0, 2))                # -1, +2 VP
    for p in pages:
        ats_shows(p, g)
    ats_enter(cleo, g, "Cleo", "discard", POST)                    # +3
    # B 4: "At the beginning of every round, each player should: - Take 10 credits"
    assert (g.state.year, g.state.turn) == (3, 1)
    credits = {p: g.state.players[p].credits for p in PLAYERS}
    assert credits == {"Ana": before["Ana"] + 3 + 10, "Ben": before["Ben"] - 1 + 10,
                       "Cleo": before["Cleo"] + 3 + 10} == {"Ana": 16, "Ben": 13, "Cleo": 22}
    expect(cleo.locator(".companion-status")).to_contain_text(
        "Year 3 begins: everyone takes 10 credits")
    for p in pages:
        ats_shows(p, g)
        expect(p.locator(".turn-info")).to_contain_text("Year 3 · Turn 1 of 6")
    for name, p in seats.items():
        expect(p.locator(".seat-score")).to_contain_text(f"{credits[name]} credits")
    assert wait_actions(voila_server, gid, 9) == g.actions
    assert [(a["player"], a["do"]) for a in g.actions[3:]] == [
        ("Ana", "build"), ("Ben", "discard"), ("Cleo", "discard"),
        ("Ana", "discard"), ("Ben", "build"), ("Cleo", "discard")]
    screenshot(ana, "lay-now-03-ana-year-3")
    screenshot(table, "lay-now-04-table-year-3")
    for p in pages:
        assert p.errors == [], p.errors
