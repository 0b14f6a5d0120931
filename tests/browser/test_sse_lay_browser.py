"""Issue 39, "Score the table as it lies", in the browser, for Small Star Empires: a
3-player game played without the companion, its map laid and stored by the test; Ana, Ben
and Cleo lay their pieces on their own seat phones at the same time, the table view beside
them (390x844 each).  Cleo lays hers, undoes it (her pieces come back as tapped) and lays
them again; her phone then loses its network while the others lay, and shows what was
laid when it is back; Ben's phone reloads halfway through his taps and keeps them.  Ana also taps a City onto her own homeworld: refused beside
the button naming the system and the rule (S Movement: your ship CANNOT "MOVE INTO into
your Homeworld System"), nothing recorded, her draft kept; she takes it away and lays.
Every page then shows the final table, which equals ``python -m companion score --json``
of the record exported from the page and tests/test_sse_lay_position.py's hand
computation (its map is made of TEST tiles, no real tile of the box).

Screenshots: tests/artifacts/sse-lay-*.png."""
from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import (SSE_FINAL_TABLE, is_live, says_not_connected, store_of,
                              wait_taking_entries)
from companion.sse import SseGame
from companion.ui.sse_board import hex_class
from test_sse_lay_position import HAND, LAYS, PLAYERS, setup

pytestmark = pytest.mark.browser



def tap(page, at, what: str) -> None:
    """Choose the piece, tap the system; wait until the map shows the draft's piece there
    (or none)."""
    panel = page.locator(".sse-lay-panel")
    panel.locator(".sse-laid-what button", has_text=what).click()
    hexb = panel.locator(f".sse-laid-board .{hex_class(tuple(at))}")
    hexb.click()
    if what == "Nothing":
        expect(hexb).not_to_have_class(re.compile(r"\bselected\b"))
    else:
        expect(hexb).to_have_class(re.compile(r"\bselected\b"))
        expect(hexb).to_contain_text("C" if what == "City" else "T")


def lay_pieces(page, entry: dict) -> None:
    for p in entry["pieces"]:
        tap(page, p["at"], "City" if p["piece"] == "city" else "Trade Station")
    box = page.locator(".sse-lay-panel .sse-laid-vp input")
    box.fill(str(entry["vp"]))
    box.press("Tab")


@pytest.mark.dashboard_config
def test_three_seats_lay_their_pieces_and_every_page_shows_the_final_table(
        voila_server, phones, tmp_path):
    g = SseGame(setup())
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="laid at the table")
    s.close()
    ana = phones(f"{voila_server.url}?game={gid}&seat=Ana")
    ben = phones(f"{voila_server.url}?game={gid}&seat=Ben")
    cleo = phones(f"{voila_server.url}?game={gid}&seat=Cleo")
    table = phones(f"{voila_server.url}?game={gid}&view=table")
    for p in (ana, ben, cleo):
        wait_taking_entries(p)
        expect(p.locator(".sse-lay-panel")).to_be_visible(timeout=60_000)
        expect(p.locator(".sse-lay-panel .sse-laid-go")).to_be_visible()
        expect(p.locator(".sse-entry")).to_be_hidden()
        expect(p.locator(".sse-laid-title")).to_contain_text("Still to lay: Ana, Ben, Cleo")
    # Cleo lays hers first, alone on her phone; she undoes it (a City forgotten?): her
    # pieces come back as she had tapped them, nothing typed again; she lays them again
    lay_pieces(cleo, LAYS[2])
    expect(cleo.locator(".sse-laid-count")).to_contain_text("5 Cities and 2 Trade Stations")
    cleo.locator(".sse-laid-go").click()
    expect(cleo.locator(".sse-laid-title")).to_contain_text("Your pieces are laid",
                                                            timeout=30_000)
    cleo.locator(".sse-undo").click()
    cleo.locator(".sse-undo-yes").click()
    expect(cleo.locator(".sse-laid-title")).to_contain_text("Still to lay: Ana, Ben, Cleo",
                                                            timeout=30_000)
    expect(cleo.locator(".sse-laid-go")).to_be_visible()
    expect(cleo.locator(".sse-laid-go")).to_contain_text("Lay Cleo's pieces")
    expect(cleo.locator(".sse-laid-count")).to_contain_text("5 Cities and 2 Trade Stations")
    expect(cleo.locator(".sse-lay-panel .sse-laid-vp input")).to_have_value(str(LAYS[2]["vp"]))
    screenshot(cleo, "sse-lay-01b-cleo-undone")
    s = store_of(voila_server)
    assert s.load(gid)["actions"] == []                            # undone in the store
    s.close()
    cleo.locator(".sse-laid-go").click()
    expect(cleo.locator(".sse-laid-title")).to_contain_text("Your pieces are laid",
                                                            timeout=30_000)
    for p in (ana, ben):
        expect(p.locator(".sse-laid-title")).to_contain_text("laid: Cleo", timeout=30_000)
    # Cleo's phone loses its network while the others lay: it says so, and when the
    # network is back it shows what was laid meanwhile
    cleo.context.set_offline(True)
    says_not_connected(cleo)
    expect(ana.locator(".sse-laid-go")).to_contain_text("Lay Ana's pieces")
    expect(table.locator(".sse-laid-title")).to_contain_text("on their pages", timeout=60_000)
    expect(table.locator(".sse-laid-go")).to_be_hidden()
    screenshot(ana, "sse-lay-01-phone-empty")
    screenshot(table, "sse-lay-00-table-laying")

    # Ana's pieces, and a City on her own homeworld [0, 0]; Ben's at the same time, and
    # his phone reloads halfway (it slept): his taps are still there
    lay_pieces(ana, LAYS[0])
    lay_pieces(ben, LAYS[1])
    ben.reload()
    wait_taking_entries(ben)
    expect(ben.locator(".sse-laid-count")).to_contain_text("5 Cities and 2 Trade Stations",
                                                           timeout=60_000)
    tap(ana, (0, 0), "City")
    ana.locator(".sse-laid-go").click()
    msg = ana.locator(".sse-laid-message")
    expect(msg).to_contain_text("Not laid", timeout=30_000)
    expect(msg).to_contain_text("[0, 0]")
    expect(msg).to_contain_text("own-homeworld")
    expect(ana.locator(".companion-status")).to_contain_text("own homeworld")
    screenshot(ana, "sse-lay-02-phone-refused")
    s = store_of(voila_server)
    assert [a["player"] for a in s.load(gid)["actions"]] == ["Cleo"]     # nothing recorded
    s.close()
    # her draft is kept: the homeworld's City taken away, and it is laid
    expect(ana.locator(".sse-lay-panel .sse-laid-vp input")).to_have_value(str(LAYS[0]["vp"]))
    tap(ana, (0, 0), "Nothing")
    expect(ana.locator(".sse-laid-count")).to_contain_text("5 Cities and 1 Trade Station")
    screenshot(ana, "sse-lay-03-phone-drafted")
    ana.locator(".sse-laid-go").click()
    expect(ana.locator(".sse-laid-title")).to_contain_text("Your pieces are laid",
                                                           timeout=30_000)
    # Ben's phone shows Ana's pieces laid (live), his draft still there; he lays his
    expect(ben.locator(".sse-laid-title")).to_contain_text("laid: Cleo, Ana", timeout=30_000)
    expect(ben.locator(".sse-lay-panel .sse-laid-vp input")).to_have_value(str(LAYS[1]["vp"]))
    expect(ben.locator(".sse-laid-count")).to_contain_text("5 Cities and 2 Trade Stations")
    # Cleo's network is back: her page is live and shows Ana laid
    cleo.context.set_offline(False)
    is_live(cleo)
    expect(cleo.locator(".sse-laid-title")).to_contain_text("laid: Cleo, Ana", timeout=30_000)
    ben.locator(".sse-laid-go").click()
    expect(ben.locator(".sse-laid-title")).to_be_hidden(timeout=30_000)     # the game is over

    # every page: the final table (the hand computation: Cleo 16, Ben 16, Ana 13; Cleo
    # wins the tie on planets)
    for p in (ana, ben, cleo, table):
        expect(p.locator(".sse-final .sse-winner")).to_contain_text("Cleo wins", timeout=60_000)
        p.wait_for_function(f"({SSE_FINAL_TABLE})() !== null", timeout=60_000)
    shown = ana.evaluate(SSE_FINAL_TABLE)
    assert shown["head"][:2] == ["player", "total"], shown
    totals = {r[0]: r[1] for r in shown["rows"]}
    assert totals == {p: str(sum(HAND[p].values())) for p in PLAYERS}, totals
    for p in (ben, cleo, table):
        assert p.evaluate(SSE_FINAL_TABLE) == shown
    screenshot(ana, "sse-lay-04-phone-final")
    screenshot(table, "sse-lay-05-table-final")
    screenshot(cleo, "sse-lay-06-cleo-final")

    # ... and = `python -m companion score --json` of the record exported from the page
    href = ana.locator("a.sse-export-json").first.get_attribute("href")
    exported = json.loads(base64.b64decode(href.split(",", 1)[1]))
    assert [(a["do"], a["player"]) for a in exported["actions"]] == [
        ("lay", "Cleo"), ("lay", "Ana"), ("lay", "Ben")]
    path = tmp_path / "laid.json"
    path.write_text(json.dumps(exported))
    env = {**os.environ, "COMPANION_HOME": str(tmp_path / "home")}
    out = subprocess.run([sys.executable, "-m", "companion", "score", str(path), "--json"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    cli = json.loads(out.stdout)
    assert cli["final"] and cli["winners"] == ["Cleo"]
    assert {r["player"]: str(r["total"]) for r in cli["players"]} == totals
    by_player = {r[0]: dict(zip(shown["head"], r)) for r in shown["rows"]}
    for row in cli["players"]:
        assert by_player[row["player"]]["rank"] == str(row["rank"])
