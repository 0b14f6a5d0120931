"""Issue 21, "a spaceship whose space was built on is silently dropped", at the table:
three seat phones (390x844) in a simultaneous Revival turn with the Spaceships module.

The book, R 3: "When a card's ability requires you to put a Spaceship in a player's
Station, take a Spaceship token and place it on an empty space adjacent to an existing
card in that Station."  Base Playing Order: such effects are "carried out after all other
players' actions are completed".  Ana's shipyard sends a spaceship to [1, 1] in Ben's
station; it is placed after Ben's action, so Ben's page offers only the cells that keep
[1, 1] next to a card of his, a discard is refused with a clear message and nothing is
stored; his reactor next to it is accepted, and the spaceship is there when the turn ends.

Fixture, not the box's contents: "Fixture: shipyard" (its cost, VP and ability are
invented for the test) is in the record's cards and the server's catalogue.
"""
from __future__ import annotations

import pytest
import yaml
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import ACTION_LABEL, cell, wait_legal
from test_browser_seat import ats_shows, open_page, stored
from companion.ats.game import Game
from companion.table.store import Store

pytestmark = pytest.mark.browser

SHIPYARD = {"name": "Fixture: shipyard", "types": ["military"], "cost": 1, "energy": 0,
            "vp": 1, "max": "none",
            "abilities": [{"when": "immediate", "spaceships": 1, "target": "other"}]}
PLAYERS = ["Ana", "Ben", "Cy"]
SETUP = {"players": PLAYERS, "options": {"spaceships": True}}


@pytest.fixture(autouse=True)
def shadow_home(tmp_path, monkeypatch):
    home = tmp_path / "shadow-home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))


def pick_action(page, do: str, card: str) -> None:
    page.locator(".entry-action button", has_text=ACTION_LABEL[do]).click()
    page.fill(".entry-card input", card)


@pytest.mark.dashboard_config
def test_a_waiting_spaceships_space_is_never_offered_and_a_discard_is_refused(voila_server,
                                                                             chromium):
    voila_server.home.mkdir(parents=True, exist_ok=True)
    (voila_server.home / "my-cards.yaml").write_text(yaml.safe_dump([SHIPYARD]))
    store = Store(path=voila_server.home / "games.sqlite")
    gid = store.create(Game(SETUP, cards=[SHIPYARD]).to_record(), title="ships")
    store.close()
    base = voila_server.url
    sep = "&" if "?" in base else "?"
    ana = open_page(chromium, f"{base}{sep}seat=Ana&game={gid}")
    ben = open_page(chromium, f"{base}{sep}seat=Ben&game={gid}")
    cy = open_page(chromium, f"{base}{sep}seat=Cy&game={gid}")
    pages = (ana, ben, cy)
    g = Game(SETUP, cards=[SHIPYARD])
    assert "spaceship_filled" not in g.setup.options       # the default is the book's

    # Ana's shipyard: a spaceship to [1, 1] in Ben's station, tapped on his drawn station
    pick_action(ana, "build", SHIPYARD["name"])
    wait_legal(ana, g.legal_cells("Ana", SHIPYARD["name"]))
    cell(ana, (0, 1)).click()
    spot = ana.locator(".entry-extra .ship-station-2 .ship-cell.cell_r1_c1")
    spot.wait_for(state="visible")
    spot.click()
    expect(ana.locator(".ships-picked")).to_contain_text("Ben [1, 1]")
    ana.click(".confirm-build")
    g.push({"player": "Ana", "do": "build", "card": SHIPYARD["name"], "at": [0, 1],
            "spaceships": [{"player": "Ben", "at": [1, 1]}]})
    for p in pages:
        ats_shows(p, g)

    # Ben's page offers only what the engine accepts: [0, 1] and [1, 0] keep [1, 1] next
    # to a card; [-1, 0] and [0, -1] would leave it next to none
    offered = g.legal_cells("Ben", do="reactor")
    assert sorted(offered) == [(0, 1), (1, 0)]
    pick_action(ben, "reactor", "Garden")
    wait_legal(ben, offered)
    screenshot(ben, "ship-space-01-ben-offered-phone")
    # a discard builds nothing next to [1, 1]: refused, in words, and nothing stored
    pick_action(ben, "discard", "Garden")
    ben.click(".do-discard")
    message = ben.locator(".entry-message, .status-error").filter(has_text="spaceship").first
    expect(message).to_contain_text("[1, 1] in Ben's station")
    expect(message).to_contain_text("R 3")
    assert "Traceback" not in ben.content()
    screenshot(ben, "ship-space-02-ben-discard-refused-phone")
    assert [a["player"] for a in stored(voila_server.home, gid)] == ["Ana"]

    # the real table: Ben's reactor at [1, 0], Cy discards; the spaceship lands at [1, 1]
    pick_action(ben, "reactor", "Garden")
    wait_legal(ben, offered)
    cell(ben, (1, 0)).click()
    g.push({"player": "Ben", "do": "reactor", "card": "Garden", "at": [1, 0]})
    for p in pages:
        ats_shows(p, g)
    pick_action(cy, "discard", "Garden")
    cy.click(".do-discard")
    g.push({"player": "Cy", "do": "discard", "card": "Garden"})
    for p in pages:
        ats_shows(p, g)
    assert g.state.station("Ben").blocked == {(1, 1)}
    back = Game.from_record(Store(path=voila_server.home / "games.sqlite").load(gid))
    assert back.state.station("Ben").blocked == {(1, 1)}
    assert [(a["player"], a["do"]) for a in stored(voila_server.home, gid)] == \
        [(a["player"], a["do"]) for a in g.actions]
    screenshot(ben, "ship-space-03-ben-after-turn-phone")
    for p in pages:
        assert p.js_errors == []
        p.context.close()
