"""Issue 37, "The table view is not a table display", in a real browser: the table view
(``?view=table``) of an Among the Stars game of 4 players and of a Small Star Empires game,
at 1366x768 and 1920x1080 (a laptop, a TV) and 390x844 (a phone used as the view): the
stations (the map) cover most of the width, the scoreboard is in large type, an action
written to the store shows on the display within 15 s.  The cards built are the shipped
catalogue's (the engine refuses a card whose numbers it does not know).  One server for
both games, one page per game (the page picks its game at load) resized to each size
(tests/browser/sizes_kit.py: the layout is CSS only) instead of one page per size.

Screenshots: tests/artifacts/tableview-{ats,sse}-{1366,1920,390}.png (the harness's full
page) and tableview-*-screen.png (what the screen itself shows).
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_harness import ARTIFACTS, screenshot
from dashboard_driver import store_of
from sizes_kit import resize
from companion.ats.game import Game
from companion.core.errors import CompanionError
from companion.sse import SseGame

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cy", "Dov"]
SSE_SETUP = {"players": ["Ann", "Bob"], "map": "basic-2p", "pieces": {"ships": 2}}
SIZES = [(1366, 768), (1920, 1080), (390, 844)]
LIVE_MS = 15_000


def ats_game() -> Game:
    """Two turns of builds (the catalogue's location cards, the first each player may
    build, on one of its legal cells), then Ana discards: Ben, Cy and Dov still to act."""
    g = Game({"players": PLAYERS})
    names = g.catalogue.names("location")
    for _ in range(2):
        for i, p in enumerate(g.waiting_in_order()):
            for name in names:
                try:
                    cells = sorted(g.legal_cells(p, name))
                    if cells:
                        g.push({"player": p, "do": "build", "card": name,
                                "at": list(cells[i % len(cells)])})
                        break
                except CompanionError:
                    continue
            else:
                g.push({"player": p, "do": "discard", "card": "Garden"})
    g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    return g


def sse_move(g: SseGame) -> dict:
    m = sorted(g.legal_moves(g.current, 0, piece="city"), key=lambda m: m.to)[0]
    return g.push({"player": g.current, "ship": 0, "to": list(m.to), "piece": "city"})


def boxes(page, css: str) -> dict:
    """The union of the boxes of ``css`` (left, right, width), the viewport's width."""
    return page.evaluate("""(css) => { const r = Array.from(document.querySelectorAll(css))
        .map(e => e.getBoundingClientRect()).filter(b => b.width > 0);
      const l = Math.min(...r.map(b => b.left)), rt = Math.max(...r.map(b => b.right));
      const top = Math.min(...r.map(b => b.top)), bot = Math.max(...r.map(b => b.bottom));
      return {left: l, right: rt, width: rt - l, top: top, bottom: bot,
              vw: window.innerWidth, vh: window.innerHeight,
              scroll: document.documentElement.scrollWidth}; }""", css)


def font_px(page, css: str) -> float:
    return page.evaluate("(css) => parseFloat(getComputedStyle(document.querySelector(css))"
                         ".fontSize)", css)


def shot(page, name: str) -> None:
    screenshot(page, name)
    page.screenshot(path=str(ARTIFACTS / f"{name}-screen.png"))


def check_size(page, main: str, width: int, height: int) -> dict:
    # a phone: the display's main part spans the page (the stations two a row, scaled
    # together: their own boxes are their shares of it)
    got = boxes(page, main if width >= 1366 else ".tv-main")
    score = font_px(page, ".tv-score")
    where = font_px(page, ".tv-where")
    if width >= 1366:
        assert got["width"] >= 0.7 * width, got
        # the display is on the first screen, under the tabs
        assert got["bottom"] <= height + 1, got
        assert score >= (24 if width >= 1920 else 20), score
        assert where >= 30, where
    else:
        assert got["width"] >= 0.8 * width and got["right"] <= width + 1, got
        assert score >= 16 and where >= 20, (score, where)
    return got


def written_elsewhere(server, gid: str, g, act: dict) -> None:
    """Store ``act``, just pushed on the shadow game ``g``, as another page's kernel does."""
    s = store_of(server)
    try:
        s.append(gid, len(g.actions) - 1, act)
    finally:
        s.close()


def test_the_table_views_of_both_games_are_displays_at_every_size(voila_server, open_pages):
    """One server, one table view page per game (the page picks its game at load), each
    resized through SIZES (1366x768, 1920x1080, 390x844) rather than opened once per size;
    at 1920x1080 an action written elsewhere shows on it."""
    g = ats_game()
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="issue 37")
    s.close()
    width, height = SIZES[0]

    # ------------------------------------------------------------ Among the Stars
    page = open_pages(f"{voila_server.url}?view=table&game={gid}",
                      viewport={"width": width, "height": height}, ready=".tv-stations")
    expect(page.locator(".tv-stations svg")).to_have_count(len(PLAYERS), timeout=60_000)
    page.wait_for_timeout(500)
    for width, height in SIZES:
        resize(page, width, height)
        expect(page.locator(".tv-stations svg")).to_have_count(len(PLAYERS))
        expect(page.locator(".tv-waiting")).to_have_text(
            f"waiting for: {', '.join(g.waiting_in_order())}")
        expect(page.locator(".turn-entry")).to_be_hidden()
        got = check_size(page, ".tv-stations svg", width, height)
        shot(page, f"tableview-ats-{width}")
        print(width, got, font_px(page, ".tv-score"))
        if width == 1920:
            # an action written elsewhere (another page's kernel): on the display
            written_elsewhere(voila_server, gid, g,
                              g.push({"player": "Ben", "do": "discard", "card": "Garden"}))
            expect(page.locator(".tv-waiting")).to_have_text("waiting for: Cy, Dov",
                                                             timeout=LIVE_MS)
            ben = g.state.players["Ben"]
            expect(page.locator(".tv-score tr[data-player='Ben'] td.credits")).to_have_text(
                str(ben.credits), timeout=LIVE_MS)
            # the display alone (issue 50): no tabs, no title over it
            expect(page.locator(".game-tabs .lm-TabBar")).to_be_hidden()
            expect(page.locator(".companion-title")).to_be_hidden()
        assert page.errors == [], page.errors
    page.context.close()

    # ------------------------------------------------------------ Small Star Empires
    # the SSE game alone in the store, as on a server of its own (with an Among the Stars
    # game in it, the page's first tab would show that game's table view too)
    sse = SseGame(SSE_SETUP)
    sse_move(sse)
    s = store_of(voila_server)
    s.delete(gid)
    sse_gid = s.create(sse.to_record(), title="issue 37 sse")
    s.close()
    width, height = SIZES[0]
    page = open_pages(f"{voila_server.url}?view=table&game={sse_gid}",
                      viewport={"width": width, "height": height}, ready=".tv-map")
    expect(page.locator(".tv-waiting")).to_have_text(f"to move: {sse.current}",
                                                     timeout=60_000)
    page.wait_for_timeout(500)
    for width, height in SIZES:
        resize(page, width, height)
        expect(page.locator(".tv-waiting")).to_have_text(f"to move: {sse.current}")
        got = check_size(page, ".tv-map svg", width, height)
        shot(page, f"tableview-sse-{width}")
        print(width, got, font_px(page, ".tv-score"))
        if width == 1920:
            written_elsewhere(voila_server, sse_gid, sse, sse_move(sse))
            expect(page.locator(".tv-waiting")).to_have_text(f"to move: {sse.current}",
                                                             timeout=LIVE_MS)
            expect(page.locator(".game-tabs .lm-TabBar")).to_be_hidden()
        assert page.errors == [], page.errors
    page.context.close()
