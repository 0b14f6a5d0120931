"""Issue 36's "Done when": "A browser test plays Revival with a card that is not shipped:
typed when first built, then used again in the same game without a form; the catalogue
export carries it."

A Revival 2-player game (R 2.1) in the server's store; three phones at 390x844: Ana's
seat, Ben's seat and the table view.  Ana types a card the catalogue does not name, is
offered "… is a new card: add it", types it once (a blank value first: refused with the
field named), builds it; Ben builds the same card with no form; the table view shows
both; ``star-companion catalogue export`` carries the card.  The card is a
"Fixture: ..." card: a real card's name with numbers typed by a test would be a value
nobody can source; its values are what the test types, as a player would.

Screenshots: tests/artifacts/newcard-*.png.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
import yaml
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import (ACTION_LABEL, ats_shows, cell, store_of, stored_actions,
                              wait_legal, wait_taking_entries)
from companion.ats.catalogue import parse_card
from companion.ats.game import Game

pytestmark = pytest.mark.browser

NEW = "Fixture: a Revival card we do not ship"
PLAYERS = ["Ana", "Ben"]
#: typed by the test as a player would from the physical card (test values)
TYPED = {"cost": "1", "energy": "0", "vp": "2"}



def build_new_card(page, g, player: str) -> None:
    """Type the unknown card's name on ``player``'s seat page and add it as a new card."""
    wait_taking_entries(page)
    page.locator(".entry-action button", has_text=ACTION_LABEL["build"]).click()
    page.fill(".entry-card input", NEW)
    offer = page.locator(".entry-new-card")
    expect(offer).to_have_text(f"'{NEW}' is a new card: add it")
    screenshot(page, "newcard-01-offered")
    offer.click()
    form = page.locator(".card-form")
    expect(form).to_be_visible()
    expect(form.locator(".form-name input")).to_have_value(NEW)
    expect(form.locator(".form-set select")).to_have_value("Revival")   # its label
    # a wrong entry: saved with its cost blank, the form names the field, nothing saved
    form.locator(".form-save").click()
    expect(form.locator(".form-message")).to_contain_text("Cost")
    form.locator(".form-kind select").select_option(label="special location")
    for key, value in TYPED.items():
        form.locator(f".form-{key} input").fill(value)
    form.locator(".form-type1 select").select_option("business")
    screenshot(page, "newcard-02-form")
    form.locator(".form-save").click()
    expect(form).to_be_hidden()
    expect(page.locator(".companion-status")).to_contain_text(f"Added '{NEW}'")


@pytest.mark.server_env({"COMPANION_POOL_SIZE": "1"})
@pytest.mark.dashboard_config          # as ./dashboard serves it: preheated kernels, template
def test_a_revival_card_not_shipped_is_typed_once_then_built_again_without_a_form(
        voila_server, phones):
    g = Game({"players": PLAYERS, "options": {"two_player": "revival"}}, book_setup=False)
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="new card")
    s.close()
    first = g.state.setup.active_player(g.state.year)          # R 2.2: the active player first
    second = [p for p in PLAYERS if p != first][0]
    pages = {p: phones(f"{voila_server.url}?seat={p}") for p in PLAYERS}
    table = phones(f"{voila_server.url}?view=table")
    for p in (*pages.values(), table):
        ats_shows(p, g, timeout=60_000)

    # the first player: the card is new to the catalogue, typed once, built
    build_new_card(pages[first], g, first)
    card = parse_card({"name": NEW, "types": ["business"], "cost": 1, "energy": 0, "vp": 2,
                       "max": "none", "abilities": [], "set": "revival", "kind": "special"})
    g.define(card)
    wait_legal(pages[first], g.legal_cells(first, NEW))
    cell(pages[first], (0, 1)).click()
    g.push({"player": first, "do": "build", "card": NEW, "at": [0, 1]})
    for p in (*pages.values(), table):
        ats_shows(p, g, timeout=20_000)
    screenshot(pages[first], "newcard-03-built")

    # the second player builds the same card: no offer, no form
    page = pages[second]
    wait_taking_entries(page)
    page.locator(".entry-action button", has_text=ACTION_LABEL["build"]).click()
    page.fill(".entry-card input", NEW)
    wait_legal(page, g.legal_cells(second, NEW))
    expect(page.locator(".entry-new-card")).to_have_count(0)
    expect(page.locator(".card-form")).to_have_count(0)
    cell(page, (0, 1)).click()
    g.push({"player": second, "do": "build", "card": NEW, "at": [0, 1]})
    for p in (*pages.values(), table):
        ats_shows(p, g, timeout=20_000)
    screenshot(page, "newcard-04-built-again")
    screenshot(table, "newcard-05-table")
    assert [(a["player"], a["card"]) for a in stored_actions(voila_server, gid)] == \
        [(first, NEW), (second, NEW)]

    # the catalogue export (the command a player runs) carries it, as typed
    out = voila_server.home / "exported.yaml"
    env = {**os.environ, "COMPANION_HOME": str(voila_server.home)}
    done = subprocess.run([sys.executable, "-m", "companion", "catalogue", "export", str(out)],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    entry = {e["name"]: e for e in yaml.safe_load(out.read_text())}[NEW]
    assert (entry["set"], entry["kind"], entry["cost"], entry["vp"], entry["types"]) == \
        ("revival", "special", 1, 2, ["business"])
