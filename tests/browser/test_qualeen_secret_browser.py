"""Issue 36, Qualeen's secret objective on four phones (390x844): the host's page, Cy's
seat (Cy plays the Qualeen), Ana's seat and the table view.  Cy's page asks which
objective card Cy drew; a card face up is refused with the book's sentence; the card
saved is shown on Cy's page only (no other page's text holds its name); the final table
scores it.

- B FAQ, Qualeen: "If I draw the "Accelerated Construction" Objective, do I still reveal
  it at the end of the game?" (a secret objective, revealed at the end);
- B 3: "Put these cards face up on the table where everyone can see them." (the secret
  one is another card).

Screenshots: tests/artifacts/qualeen-*.png.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import store_of
from companion.ats.game import Game
from companion.ui.session import GameSession
from recordkit import fixture_objective, play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("shadow_home")]

PLAYERS = ["Ana", "Ben", "Cy"]
OBJ = [fixture_objective("Fixture: most credits", vp=3, most={"per": "credit"}),
       fixture_objective("Fixture: least credits", vp=3, least={"per": "credit"}),
       fixture_objective("Fixture: least reactors", vp=2, least={"per": "reactor"}),
       fixture_objective("Fixture: most reactors", vp=4, most={"per": "reactor"})]
FACE_UP = [o["name"] for o in OBJ[:3]]
SECRET_CARD = "Fixture: most reactors"
#: Cy builds the only extra Power Reactor on the way to the end
CY_REACTOR = {"player": "Cy", "do": "reactor", "card": "Garden", "at": [0, 1]}
WAIT_MS = 30_000



def _all_but_the_last_action() -> tuple[dict, dict]:
    """A record played to its last action (Cy builds the only extra Power Reactor), and
    that last action."""
    g = play_to_the_end(Game({"players": PLAYERS, "races": {"Cy": "Qualeen"},
                              "objectives": FACE_UP}, cards=OBJ), CY_REACTOR)
    last = g.pop()
    return g.to_record(), last


def _text(page) -> str:
    return page.evaluate("() => document.body.innerText")


def _wait_text(page, words: str) -> None:
    page.wait_for_function("(w) => document.body.innerText.includes(w)", arg=words,
                           timeout=WAIT_MS)


def test_cys_page_asks_the_secret_objective_no_other_page_shows_it(voila_server, phones):
    rec, last = _all_but_the_last_action()
    s = store_of(voila_server)
    gid = s.create(rec, title="qualeen")
    url = voila_server.url
    cy = phones(f"{url}?seat=Cy")
    ana = phones(f"{url}?seat=Ana")
    table = phones(f"{url}?view=table")
    host = phones(url)

    # -- Cy's page asks; the others do not ------------------------------------------------
    ask = cy.locator(".secret-ask")
    ask.wait_for(state="visible", timeout=WAIT_MS)
    assert "which objective card did you draw?" in ask.inner_text()
    for other in (ana, table):
        assert other.locator(".secret-ask").count() == 0
    fold = host.locator(".secret-ask-host")
    fold.wait_for(state="visible", timeout=WAIT_MS)
    assert "Enter Cy's secret objective here if Cy has no phone" in fold.inner_text()
    assert not host.locator(".secret-ask-host .secret-ask-which").is_visible()   # folded
    screenshot(cy, "qualeen-01-cy-asked")

    # -- a card face up: refused, with the book's sentence; nothing stored ---------------
    cy.locator(".secret-ask-which select").select_option(label="another card (type its name)")
    other = cy.locator(".secret-ask-other input")
    other.wait_for(state="visible", timeout=WAIT_MS)
    other.fill(FACE_UP[0])
    other.press("Enter")
    cy.locator(".secret-ask-save").click()
    msg = cy.locator(".secret-ask-msg")
    _wait_text(cy, "is one of the objectives face up")
    assert 'Put these cards face up on the table' in msg.inner_text()
    assert "[rule: objectives]" in msg.inner_text()
    assert s.load(gid).get("manual", []) == []
    screenshot(cy, "qualeen-02-face-up-refused")

    # -- the card Cy drew ---------------------------------------------------------------
    cy.locator(".secret-ask-which select").select_option(SECRET_CARD)
    cy.locator(".secret-ask-save").click()
    _wait_text(cy, f"Your secret objective: {SECRET_CARD}")
    # the question goes in the same change that shows the answer; the page may draw the
    # new line a moment before it takes the old box away
    expect(cy.locator(".secret-ask")).to_have_count(0)
    assert {"source": "secret objective", "player": "Cy", "note": SECRET_CARD,
            "vp": 0} in s.load(gid)["manual"]
    screenshot(cy, "qualeen-03-cy-saved")
    _wait_text(host, "Cy's secret objective is recorded (hidden until the end)")
    _wait_text(table, "Cy holds a secret objective (revealed at the end)")
    for page in (host, ana, table):
        assert SECRET_CARD not in _text(page)
    screenshot(host, "qualeen-04-host-recorded")
    screenshot(table, "qualeen-05-table-view")

    # -- the last action: the final table scores what Cy said ---------------------------------
    session = GameSession(store_of(voila_server))
    session.open(gid)
    session.push(last)
    line = f"{SECRET_CARD} (secret objective of Cy)"
    for page in (host, cy):
        page.locator(".final-table").wait_for(state="attached", timeout=WAIT_MS)
        assert page.locator(".secret-objective-row").count() == 0     # not asked again
        page.locator(".final-box summary, details summary").last.click()
        _wait_text(page, line)
    screenshot(host, "qualeen-06-final-table")
