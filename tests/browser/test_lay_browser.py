"""Issue 39, "Score the table as it lies", in the browser: a 2-player Among the Stars game
played without the companion, each station laid as it lies by its own seat's phone at
the same time, the table view beside them (390x844 each).  Ana lays a card that is not
connected (refused in one line naming the card, the cell and B 4; nothing recorded; her
draft kept), puts the missing card back and lays it; Ben lays his.  Every page then shows
the final table, which equals ``python -m companion score --json`` of the record exported
from the page and the hand computation below.

The books' sentences:
- B 4: "build it anywhere in your Space Station adjacent to an already-built location".
- B 6: "Gain 1 VP for every Power Reactor that DOES NOT contain any Energy cubes."; "Gain
  1 VP for every 3 credits remaining."; "The player with the most Victory Points is the
  winner."

The cards are "Fixture: ..." cards of the record (a test's numbers, no real card's).
Screenshots: tests/artifacts/lay-*.png."""
from __future__ import annotations

import base64
import json
import os
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import store_of, wait_taking_entries
from companion.ats.game import Game
from companion.ui.ats_lay import cell_class
from recordkit import fixture_card

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben"]
POST = "Fixture: lay post"
PLOT = "Fixture: lay plot"
CARDS = [fixture_card(POST, types=["military"], cost=1, energy=0, vp=2, max=2),
         fixture_card(PLOT, types=["business"], cost=1, energy=0, vp=1)]


def at_class(at) -> str:
    return "." + cell_class(at)


CUBES = {0: "0 cubes", 1: "1 cube", 2: "2 cubes"}


def put(page, at, what: str, *, card: str | None = None, cubes: int | str | None = None) -> None:
    """Tap the cell, say what lies there, Put it here; wait until the grid shows it.
    ``cubes``: the button's label, or a number (then the cell's cube marks are checked
    too: ■ each, □ none)."""
    panel = page.locator(".lay-panel")
    panel.locator(at_class(at)).click()
    # a busy laptop (3 browser tests beside): the tap's answer may take longer than 5 s
    expect(panel.locator(".lay-cell-line")).to_contain_text(
        "Main Reactor" if tuple(at) == (0, 0) else f"[{at[0]}, {at[1]}]", timeout=20_000)
    if what == "Location" and tuple(at) != (0, 0):
        # the page puts the cursor in the name field at the tap (bench_layout.py: a tap
        # less a card on the phone)
        expect(panel.locator(".lay-card input")).to_be_focused()
    if tuple(at) != (0, 0):
        panel.locator(".lay-what button", has_text=what).click()
    if card is not None:
        panel.locator(".lay-card input").fill(card)
    if cubes is not None:
        panel.locator(".lay-cubes button",
                      has_text=CUBES[cubes] if isinstance(cubes, int) else cubes).click()
    panel.locator(".lay-put").click()
    want = {"Location": card, "Nothing": "+"}.get(what) or (
        "Main" if tuple(at) == (0, 0) else "Reactor")
    expect(panel.locator(at_class(at))).to_contain_text(want)
    if what == "Power Reactor" and isinstance(cubes, int):
        expect(panel.locator(at_class(at))).to_contain_text("■" * cubes or "□")


def number(page, cls: str, value: int) -> None:
    box = page.locator(f".lay-panel {cls} input")
    box.fill(str(value))
    box.press("Tab")


@pytest.mark.dashboard_config
def test_two_seats_lay_their_stations_and_every_page_shows_the_final_table(
        voila_server, phones, tmp_path):
    g = Game({"players": PLAYERS, "options": {"laid": "final"}}, cards=CARDS)
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="laid at the table")
    s.close()
    ana = phones(f"{voila_server.url}?game={gid}&seat=Ana")
    ben = phones(f"{voila_server.url}?game={gid}&seat=Ben")
    table = phones(f"{voila_server.url}?game={gid}&view=table")
    for p in (ana, ben):
        wait_taking_entries(p)
        expect(p.locator(".lay-panel")).to_be_visible(timeout=60_000)
        expect(p.locator(".turn-entry")).to_be_hidden()
    expect(table.locator(".lay-panel")).to_have_count(0)
    screenshot(ana, "lay-01-phone-empty")

    # Ana: the Main Reactor with 1 cube, a post at [0, 1], a plot at [-1, 1], a reactor
    # without cubes at [1, 0]; then [0, 1] emptied: the plot is no longer connected
    put(ana, (0, 0), "Power Reactor", cubes="1 cube")
    put(ana, (0, 1), "Location", card=POST)
    put(ana, (-1, 1), "Location", card=PLOT)
    put(ana, (1, 0), "Power Reactor", cubes="0 cubes")
    # Ben, at the same time on his phone: the Main Reactor with its 2 cubes, 18 on the track
    put(ben, (0, 0), "Power Reactor", cubes="2 cubes")
    number(ben, ".lay-vp", 18)
    put(ana, (0, 1), "Nothing")
    number(ana, ".lay-credits", 7)
    number(ana, ".lay-vp", 20)
    ana.locator(".lay-station").click()
    status = ana.locator(".companion-status")
    expect(status).to_contain_text("not connected to the Main Reactor")
    expect(status).to_contain_text(f"'{PLOT}' at [-1, 1]")
    screenshot(ana, "lay-02-phone-refused")
    s = store_of(voila_server)
    assert s.load(gid)["actions"] == []                   # nothing recorded
    s.close()
    # her draft is kept: the post back, and it is laid
    put(ana, (0, 1), "Location", card=POST)
    expect(ana.locator(".lay-panel .lay-credits input")).to_have_value("7")
    screenshot(ana, "lay-03-phone-drafted")
    ana.locator(".lay-station").click()
    expect(ana.locator(".lay-title")).to_contain_text("Your station is laid", timeout=30_000)
    # Ben's phone shows Ana's station laid (live), his draft still there; he lays his
    expect(ben.locator(".lay-title")).to_contain_text("laid: Ana", timeout=30_000)
    expect(ben.locator(".lay-panel .lay-vp input")).to_have_value("18")
    ben.locator(".lay-station").click()

    # every page: the final table (B 6): Ana 20 + 1 (the reactor without cubes) + 2 (7
    # credits) = 23, Ben 18
    for p in (ana, ben, table):
        expect(p.locator(".final-winner")).to_contain_text("Ana", timeout=60_000)
    rows = ana.locator(".final-wide table.final-table tbody tr")
    expect(rows).to_have_count(2)
    shown = {r.locator("td").nth(0).inner_text(): r.locator("td").nth(1).inner_text()
             for r in rows.all()}
    assert shown == {"Ana": str(20 + 1 + 7 // 3), "Ben": "18"}, shown
    screenshot(ana, "lay-04-phone-final")
    screenshot(table, "lay-05-table-final")

    # ... and = `python -m companion score --json` of the record exported from the page
    href = ana.locator("a.export-json").first.get_attribute("href")
    exported = json.loads(base64.b64decode(href.split(",", 1)[1]))
    assert [a["do"] for a in exported["actions"]] == ["lay", "lay"]
    path = tmp_path / "laid.json"
    path.write_text(json.dumps(exported))
    env = {**os.environ, "COMPANION_HOME": str(tmp_path / "home")}
    out = subprocess.run([sys.executable, "-m", "companion", "score", str(path), "--json"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert {r["player"]: str(r["total"]) for r in cli["players"]} == shown
    check = subprocess.run([sys.executable, "-m", "companion", "check", str(path)],
                           capture_output=True, text=True, env=env, timeout=120)
    assert "taken on trust" in check.stdout, check.stdout + check.stderr
