"""Issue 40, "Hands-free", in the browser: Ana enters a whole year of her actions through
the line of entry only, on her own phone (390x844), as a table says them and dictation
writes them (issue 52: "I'm gonna lay down the quartz garden underneath", "anna goes with
the orbital bakery to the right", "bio lab up top, one cube from ..."; no punctuation
needed, her seat's page is hers).  Before her last build the phone mishears a side: the
line says the action back with where it lands and she cancels it before Confirm.  Each sentence is read by the
game, shown as the ordinary entry (the card in its box, the cell marked, the energy
chosen), and recorded by one tap on Confirm (or on Discard).  One sentence is refused
with the rule it breaks ("needs 2 energy", B: energy within distance 2) and corrected by
the next.  Ben plays his turns on his own phone, through the same line (the table view
beside them, with no line of entry and every action shown, is checked in-process since
issue 51: tests/test_browser_twins_inprocess.py).  Ana undoes a build and says it again; her phone reloads
(it slept) and loses its network once between turns: nothing she said is lost or recorded
twice, and the store ends holding exactly her six actions and Ben's six.

The cards are INVENTED ("Quartz Garden", "Orbital Bakery", "Bio Lab", with numbers made
up here and defined in the record): no real card's numbers.

Screenshots: tests/artifacts/hands-free-*.png."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import (is_live, says_not_connected, shows_actions, store_of,
                              wait_actions, wait_taking_entries)
from companion.ats.game import Game
from handsfreekit import CARDS, MISHEARD, YEAR
from companion.ui.common import cell_class

pytestmark = pytest.mark.browser

#: the sentence refused before turn 4, and the rule its refusal names
REFUSED = ("build bio lab right of the orbital bakery", "no-energy")


def say(page, text: str) -> None:
    """Type (as dictation does) into the line, press Enter: the game's reading shown."""
    wait_taking_entries(page)
    line = page.locator(".say-line input")
    line.fill(text)
    line.press("Enter")


def reply(page):
    return page.locator(".say-reply")


def record_tap(page, how: str) -> None:
    page.locator(".confirm-build" if how == "confirm" else ".do-discard").first.click()


@pytest.mark.dashboard_config
def test_a_year_of_one_players_actions_through_the_line_only(voila_server, phones):
    g = Game({"players": ["Ana", "Ben"]}, cards=CARDS)
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="hands free")
    s.close()
    ana = phones(f"{voila_server.url}?game={gid}&seat=Ana")
    ben = phones(f"{voila_server.url}?game={gid}&seat=Ben")
    for p in (ana, ben):
        wait_taking_entries(p)
        expect(p.locator(".say-line input")).to_be_visible(timeout=60_000)
    n = 0
    for turn, (text, how, want) in enumerate(YEAR, start=1):
        if turn == 4:
            # refused, with the rule; nothing recorded; the next sentence corrects it
            say(ana, REFUSED[0])
            expect(reply(ana)).to_contain_text("Not possible", timeout=30_000)
            expect(reply(ana)).to_contain_text(REFUSED[1])
            screenshot(ana, "hands-free-02-refused")
            assert len(wait_actions(voila_server, gid, n)) == n
        if turn == 6:
            # issue 52: the phone wrote "right" for "below"; the line says the action
            # back with where it lands, she sees it before Confirm and cancels it
            say(ana, MISHEARD[0])
            expect(reply(ana)).to_contain_text(MISHEARD[1], timeout=30_000)
            screenshot(ana, "hands-free-04-said-back")
            assert len(wait_actions(voila_server, gid, n)) == n
            ana.locator(".cancel-build").first.click()
            expect(ana.locator(".station-grid .said-cell")).to_have_count(0, timeout=30_000)
        say(ana, text)
        expect(reply(ana)).to_contain_text("Understood", timeout=30_000)
        if how == "confirm":
            at = want["at"]
            marked = ana.locator(".station-grid .said-cell")
            expect(marked).to_have_count(1)
            expect(marked).to_have_class(re.compile(rf"\b{cell_class(*at)}\b"))
        if turn == 1:
            screenshot(ana, "hands-free-01-understood")
        assert len(wait_actions(voila_server, gid, n)) == n       # nothing before the tap
        record_tap(ana, how)
        n += 1
        acts = wait_actions(voila_server, gid, n)
        got = acts[-1]
        assert got["player"] == "Ana" and all(got.get(k) == v for k, v in want.items()), got
        expect(ana.locator(".say-line input")).to_have_value("")
        if turn == 2:
            # Ana undoes her Orbital Bakery (a slip) and says it again
            ana.locator(".undo").click()
            ana.locator(".undo-yes").click()
            n -= 1
            wait_actions(voila_server, gid, n)
            say(ana, text)
            expect(reply(ana)).to_contain_text("Understood", timeout=30_000)
            record_tap(ana, how)
            n += 1
            wait_actions(voila_server, gid, n)
        if turn == 3:
            # her phone slept: the page reloads, the game comes back as it is
            ana.reload()
            wait_taking_entries(ana)
            shows_actions(ana, n, timeout=60_000)
        # Ben's turn, on his phone, through the same line, once his phone shows Ana's
        # action (as he waits for it at the table)
        shows_actions(ben, n, timeout=60_000)
        say(ben, "discard garden")
        expect(reply(ben)).to_contain_text("Understood", timeout=30_000)
        if turn == 5:
            # Ana's phone loses its network while Ben plays; back, it shows his action
            ana.context.set_offline(True)
            says_not_connected(ana)
        record_tap(ben, "discard")
        n += 1
        assert wait_actions(voila_server, gid, n)[-1]["player"] == "Ben"
        if turn == 5:
            ana.context.set_offline(False)
            is_live(ana)
        shows_actions(ana, n, timeout=60_000)
    expect(ana.locator(".turn-info")).to_contain_text("Year 2", timeout=30_000)
    screenshot(ana, "hands-free-03-year-done")
    acts = wait_actions(voila_server, gid, 12)
    assert [a["player"] for a in acts] == ["Ana", "Ben"] * 6
    replay = Game({"players": ["Ana", "Ben"]}, cards=CARDS)
    for a in acts:
        replay.push(a)                     # the store's record replays as the rules allow
    assert replay.state.year == 2
