"""Issue 37, "Dead ends and silent screens": "The first build of an unknown card: ... at
1366x768 the form pushes the station below the screen, on a phone the player scrolls back
up."  The rule: every form that interrupts an action finishes that action when saved, and
the player never hunts for the station grid.

A 3-player game in year 3 (long stations: the page is as long as in a game under way), on
the seat page of the player who builds:

- At 1366x768 (and 900x768) the card-values form stands beside the station grid: with the
  entry at the top of the page, the grid's top, the tapped cell and the form's Save button
  are all on the screen; Save builds the card in the tapped cell.
- At 390x844 the form stands above the grid (one column); the player scrolls until Save
  is in the middle of the screen and taps it; once saved, the entry's message and the
  tapped cell are on the screen again.  The same for the new-card form (issue 36) and for
  the what-if explorer's form (its best cell and heatmap).

Cards: "Fixture: ..." cards whose printed values are null; the values the test types are
test input, typed as a player would from the physical card.

One server and one game for every size: each size's player builds a card of her own on
her own seat page, opened at that size (Save changes the game: a card's values are typed
once, a player builds once a turn, so a size cannot be done again on a page resized); the
new-card form is on one of those pages in the next turn, resized to a phone.

Screenshots: tests/artifacts/issue37-cardform-*.png (the whole page) and
issue37-cardform-*-screen.png (the screen as the player sees it).
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PWTimeout
from playwright.sync_api import expect

from browser_harness import ARTIFACTS, screenshot
from dashboard_driver import (ACTION_LABEL, ats_shows, cell, store_of, stored_actions,
                              wait_taking_entries)
from layout import assert_layout
from sizes_kit import resize
from companion.ats.catalogue import parse_card
from companion.ats.game import Game
from companion.ui.common import cell_class

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1366, 768), "phone": (390, 844), "narrow": (900, 768)}
PLAYERS = ["Ana", "Ben", "Cleo"]
PLAIN = {"name": "Fixture: a plain card", "types": ["business"], "cost": 1, "energy": 0, "vp": 1,
         "max": "none", "abilities": []}
UNKNOWN = {"name": "Fixture: values not typed yet", "types": None, "cost": None,
           "energy": None, "vp": None, "max": None, "abilities": None}
WHATIF = {**UNKNOWN, "name": "Fixture: asked by the what-if"}
#: the card each size's player builds through the form (one card a size: once its values
#: are typed, a card is known to the game and asks for no form)
FORM_CARDS = {"laptop": UNKNOWN,
              "narrow": {**UNKNOWN, "name": "Fixture: values not typed yet, narrow"},
              "phone": {**UNKNOWN, "name": "Fixture: values not typed yet, phone"}}
NEW = "Fixture: a card typed as new"
#: typed by the test as a player would from the physical card (test values)
TYPED = {"cost": "1", "energy": "0", "vp": "2"}

#: each selector's first element's box on the screen (null: not on the page), measured
#: in one go (a grid being redrawn is never half measured)
_BOXES = """(sels) => Object.fromEntries(Object.entries(sels).map(([k, s]) => {
  const e = document.querySelector(s), r = e && e.getBoundingClientRect();
  return [k, r && r.height > 0 ? {x: r.x, y: r.y, width: r.width, height: r.height} : null];
}))"""
#: the whole element inside the viewport (for a key ending in "top": its top edge), to a
#: pixel's rounding
_IN_VIEW = """([sels, h]) => Object.entries((""" + _BOXES + """)(sels)).every(([k, b]) =>
  b !== null && b.y >= -1 && (k.endsWith('top') ? b.y < h : b.y + b.height <= h + 1))"""


def boxes(page, sels: dict) -> dict:
    return page.evaluate(_BOXES, sels)


def assert_in_view(page, sels: dict, h: int, timeout: int = 5_000) -> None:
    """Each selector's first element is inside the viewport (0 <= y, y + height <= h; for
    a key ending in "top", 0 <= y < h; to a pixel's rounding), waiting up to ``timeout``
    for the page to settle."""
    try:
        page.wait_for_function(_IN_VIEW, arg=[sels, h], timeout=timeout, polling="raf")
    except PWTimeout:
        got = boxes(page, sels)
        raise AssertionError(f"not on the {h} px high screen: {got}") from None


def shot(page, name: str) -> None:
    """NAME-screen.png: the screen as the player sees it; NAME.png: the whole page
    (screenshot() makes the window as tall as the page for it: the page's scroll is put
    back after it, the test goes on where the player is)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-screen.png"))
    top = page.evaluate("() => document.querySelector('#rendered_cells').scrollTop")
    screenshot(page, name)
    # once the window has its size back (the layout follows it a frame later)
    page.wait_for_function("""(t) => { const el = document.querySelector('#rendered_cells');
        el.scrollTop = t; return Math.abs(el.scrollTop - t) < 1; }""", arg=top,
                           polling="raf", timeout=5_000)


def type_card(page, player: str, name: str) -> None:
    """On ``player``'s seat page (its entry is hers: no player to choose)."""
    wait_taking_entries(page)
    expect(page.locator(".entry-player select")).to_have_value(player)
    page.locator(".entry-action button", has_text=ACTION_LABEL["build"]).click()
    page.fill(".entry-card input", name)


def fill_values(form) -> None:
    for key, value in TYPED.items():
        form.locator(f".form-{key} input").fill(value)
    if form.locator(".form-type1 select").is_visible():  # issue 50: asked when counted
        form.locator(".form-type1 select").select_option("business")


def save_from_the_bottom(page, form) -> None:
    """Scroll as a thumb does until Save is in the middle of the screen (the form's top
    above it), then tap it."""
    save = form.locator(".form-save")
    save.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(200)
    save.click()
    expect(form).to_have_count(0)


def year_three(*unknown: dict) -> Game:
    """Year 3: every player has built a long station of plain Fixture cards (the page, its
    grid and its station pictures are as long as in a game under way); each of
    ``unknown`` is in the game's cards with no value typed yet."""
    g = Game({"players": PLAYERS}, cards=[PLAIN, *unknown])
    while g.state.year < 3:
        for p in g.waiting_in_order():
            cells = g.legal_cells(p, PLAIN["name"])
            if cells and g.state.players[p].credits >= PLAIN["cost"] + 3:
                at = max(cells, key=lambda c: (abs(c[0]) + abs(c[1]), c))
                g.push({"player": p, "do": "build", "card": PLAIN["name"], "at": list(at)})
            else:
                g.push({"player": p, "do": "discard", "card": "Garden"})
    return g


def defined(fixture: dict) -> dict:
    return {**fixture, "types": ["business"], "cost": int(TYPED["cost"]),
            "energy": int(TYPED["energy"]), "vp": int(TYPED["vp"]), "max": "none",
            "abilities": []}


def build_through_the_card_form(open_pages, server, g: Game, gid: str, size: str,
                                unknown: dict):
    """On the seat page of the next player to act, opened at ``size``: the card-values
    form of ``unknown`` keeps the station in view and builds the card when saved.
    Returns the page (still open)."""
    width, h = SIZES[size]
    before = len(g.actions)
    player = g.waiting_in_order()[0]
    # the cell to tap: one where the card, once typed, is legal (nearest the Main Reactor)
    typed = Game.from_record(g.to_record(), trusted=True)
    typed.define(parse_card(defined(unknown)))
    at = min(typed.legal_cells(player, unknown["name"]), key=lambda c: (abs(c[0]) + abs(c[1]), c))
    cell_sel = f".station-grid .{cell_class(*at)}"
    # the player's own seat page: once she has built, its grid is her station
    page = open_pages(f"{server.url}?seat={player}", viewport={"width": width, "height": h})
    ats_shows(page, g, timeout=60_000)
    # the entry at the top of the screen, as a player holds it to enter a turn
    page.locator(".turn-entry").evaluate("e => e.scrollIntoView({block: 'start'})")
    type_card(page, player, unknown["name"])
    form = page.locator(".values-form .card-form")
    expect(form).to_be_visible()
    expect(form).to_contain_text(f"Enter the printed values of '{unknown['name']}'")
    tapped = cell(page, at)
    tapped.wait_for(state="visible")
    if size != "phone":
        # the form beside the grid: the grid, the cell to tap and Save on one screen
        assert_in_view(page, {"grid top": ".station-grid", "Save": ".values-form .form-save",
                              "cell": cell_sel}, h)
    assert_layout(page, f"{size}: the card form open")
    shot(page, f"issue37-cardform-{size}-1-form")
    tapped.click()
    expect(page.locator(".companion-status")).to_contain_text(
        f"once saved, the build at {list(at)} goes on")
    if size != "phone":
        assert_in_view(page, {"grid top": ".station-grid", "Save": ".values-form .form-save",
                              "cell": cell_sel}, h)
        fb, gb = boxes(page, {"f": ".values-form .card-form", "g": ".station-grid"}).values()
        assert fb["x"] >= gb["x"] + gb["width"] - 1, (fb, gb)      # beside, not above
    shot(page, f"issue37-cardform-{size}-2-tapped")
    fill_values(form)
    if size != "phone":
        form.locator(".form-save").click()
        expect(form).to_have_count(0)
    else:
        save_from_the_bottom(page, form)
    g.define(parse_card(defined(unknown)))
    g.push({"player": player, "do": "build", "card": unknown["name"], "at": list(at)})
    ats_shows(page, g, timeout=20_000)
    assert [(a["player"], a["card"], a["at"]) for a in stored_actions(server, gid)
            ][before:] == [(player, unknown["name"], list(at))]
    expect(cell(page, at)).to_have_class(re.compile(r"\bbuilt\b"))
    expect(page.locator(".entry-message")).to_contain_text(unknown["name"])
    # after Save: the message and the cell built are on the screen, nothing to hunt for
    assert_in_view(page, {"message": ".entry-message", "cell": cell_sel}, h)
    shot(page, f"issue37-cardform-{size}-3-built")
    return page


@pytest.mark.server_env({"COMPANION_POOL_SIZE": "1"})
@pytest.mark.dashboard_config          # as ./dashboard serves it: the page template
def test_the_card_forms_keep_the_station_in_view_and_finish_their_action_when_saved(
        voila_server, open_pages):
    """One server, one game, each size on the seat page of a player who has not yet built
    this turn, with a card of its own (Save builds the card: the game changes, so each
    size needs its own seat and its own card with no value typed yet); then the new-card
    form on the seat page of the next turn's first player, resized to a phone.  First, the
    what-if explorer's form on the host page at a phone's size (its card is one of its own:
    saving its values changes no other form)."""
    g = year_three(*FORM_CARDS.values(), WHATIF)
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="issue 37 card form")
    s.close()
    # the what-if explorer's form on the host page, at a phone's size: once saved, its
    # best cell and its heatmap (first: the server's first page, as on a server of its own)
    width, h = SIZES["phone"]
    page = open_pages(voila_server.url, viewport={"width": width, "height": h})
    ats_shows(page, g, timeout=60_000)
    wait_taking_entries(page)
    page.locator(".whatif").get_by_text("What-if explorer").click()
    page.fill(".wi-card input", WHATIF["name"])
    form = page.locator(".wi-card-form .card-form")
    expect(form).to_be_visible()
    fill_values(form)
    save_from_the_bottom(page, form)
    expect(page.locator(".wi-best")).to_contain_text(f"Best cell for {WHATIF['name']}")
    page.locator(".wi-heatmap svg").wait_for(state="visible")
    assert_in_view(page, {"best cell": ".wi-best", "heatmap top": ".wi-heatmap"}, h)
    shot(page, "issue37-cardform-phone-5-whatif-saved")
    page.context.close()

    pages = {}
    for size, unknown in FORM_CARDS.items():
        player = g.waiting_in_order()[0]
        pages[player] = build_through_the_card_form(open_pages, voila_server, g, gid, size,
                                                    unknown)
    # every player has built: the next turn
    assert len(pages) == len(PLAYERS) and len(g.waiting_in_order()) == len(PLAYERS), \
        g.waiting_in_order()

    # the new-card form (issue 36), the same way on a phone: once saved, the message and
    # the grid; the seat page of the next player to act, resized to a phone and scrolled
    # to its top as a page just opened
    other = g.waiting_in_order()[0]
    page = pages[other]
    resize(page, width, h)
    page.evaluate("() => { document.querySelector('#rendered_cells').scrollTop = 0; }")
    ats_shows(page, g, timeout=60_000)
    type_card(page, other, NEW)
    page.locator(".entry-new-card").click()
    form = page.locator(".values-form .card-form")
    expect(form).to_be_visible()
    form.locator(".form-kind select").select_option(label="basic location")
    fill_values(form)
    save_from_the_bottom(page, form)
    expect(page.locator(".entry-message")).to_contain_text(f"Added '{NEW}'")
    assert_in_view(page, {"message": ".entry-message", "grid top": ".station-grid"}, h)
    shot(page, "issue37-cardform-phone-4-new-card-saved")

