"""Issue 50, "A TV at the end", in a real browser: the table view (``?view=table``) of a
finished game shows the winner and the final totals first, in large type (>= 32 px at
1920x1080, measured with getComputedStyle), nothing cut at 1366x768 (every box of the
display inside the viewport, no sideways scroll), no tabs, no title and no "Resumed ..."
banner; the totals are the book's final score (all categories), not the track's VP.
Among the Stars (a laid game of 3 and a game of 4 played turn by turn) and Small Star
Empires (laid, finished: the final score, not the track's VP under "If ended").

One page per game (the page picks its game at load), resized from 1920x1080 to 1366x768
(tests/browser/sizes_kit.py) instead of one page per size.

Screenshots: tests/artifacts/tv-end-{game}-{width}.png (what the screen shows).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browser_harness import ARTIFACTS
from dashboard_driver import store_of
from sizes_kit import resize

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import test_ats_lay_now as now_kit  # noqa: E402
import test_sse_lay_position as sse_kit  # noqa: E402
from recordkit import play_to_the_end  # noqa: E402
from test_table_view_display_browser import ats_game  # noqa: E402

pytestmark = pytest.mark.browser

SIZES = [(1920, 1080), (1366, 768)]


def finished_games() -> dict:
    laid = now_kit.laid_game()
    play_to_the_end(laid)
    four = play_to_the_end(ats_game())
    sse = sse_kit.laid_game()
    for g in (laid, four, sse):
        assert g.state.finished
    return {"ats-laid": laid, "ats-four": four, "sse": sse}


def geometry(page) -> dict:
    """The boxes of the end display's parts, the viewport and the widest scroll."""
    return page.evaluate("""() => {
      const box = (e) => { const b = e.getBoundingClientRect();
        return {css: e.className.baseVal ?? e.className, left: b.left, right: b.right,
                top: b.top, bottom: b.bottom, width: b.width, height: b.height}; };
      const shown = (e) => e.getClientRects().length > 0;
      const parts = ['.tv-end', '.tv-winner', 'table.tv-final', '.tv-end .tv-main',
                     '.tv-end .tv-main svg'].flatMap(
        (css) => Array.from(document.querySelectorAll(css)).filter(shown).map(box));
      const first = (css) => Array.from(document.querySelectorAll(css)).filter(shown)[0];
      const scrollers = [document.documentElement, document.body,
        document.querySelector('#rendered_cells')].filter(Boolean);
      return {parts: parts, vw: window.innerWidth, vh: window.innerHeight,
              sideways: Math.max(...scrollers.map(e => e.scrollWidth - e.clientWidth)),
              total_px: parseFloat(getComputedStyle(first('table.tv-final td.tv-total')).fontSize),
              winner_px: parseFloat(getComputedStyle(first('.tv-winner')).fontSize)}; }""")


def visible(page, css: str) -> bool:
    return page.evaluate("""(css) => Array.from(document.querySelectorAll(css)).some(
        e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')""",
                         css)


def test_the_tv_at_the_end_shows_the_winner_and_the_final_totals_large_and_whole(
        voila_server, open_pages):
    games = finished_games()
    s = store_of(voila_server)
    ids = {name: s.create(g.to_record(), title=f"issue 50 {name}") for name, g in games.items()}
    s.close()
    for name, g in games.items():
        result = g.score()
        totals = {r["player"]: int(r["total"]) for r in result.rows}
        track = {p: g.state.players[p].vp for p in g.state.setup.players}
        assert totals != track                     # the test tells the two apart
        # one page per game (the page picks its game at load), resized to each size
        width, height = SIZES[0]
        page = open_pages(f"{voila_server.url}?view=table&game={ids[name]}",
                          viewport={"width": width, "height": height}, ready=".tv-end")
        expect(page.locator(".tv-winner >> visible=true")).to_contain_text(
            f"{result.winners[0]} ", timeout=60_000)
        page.wait_for_timeout(800)
        for width, height in SIZES:
            resize(page, width, height)
            expect(page.locator(".tv-winner >> visible=true")).to_contain_text(
                f"{result.winners[0]} ")
            shown = {r.get_attribute("data-player"): int(r.locator("td.tv-total").inner_text())
                     for r in page.locator("tr.tv-final-row >> visible=true").all()}
            assert shown == totals, (name, width, shown, totals, track)
            got = geometry(page)
            page.screenshot(path=str(ARTIFACTS / f"tv-end-{name}-{width}.png"))
            print(name, width, got["total_px"], got["winner_px"], got["sideways"])
            assert got["total_px"] >= 32 and got["winner_px"] >= 32, got
            assert got["sideways"] <= 0, got
            for b in got["parts"]:
                assert b["width"] > 0 and b["left"] >= -1 and b["top"] >= -1, (name, width, b)
                assert b["right"] <= width + 1 and b["bottom"] <= height + 1, (name, width, b)
            # the display alone: no tabs, no title, no "Resumed ..." banner
            assert not visible(page, ".game-tabs .lm-TabBar"), name
            assert not visible(page, ".companion-title"), name
            assert "Resumed" not in page.locator(".companion-root").inner_text()
            if name == "sse":       # the final score, not the track's VP under "If ended"
                assert page.locator(".tv-sse").count() == 1
                assert page.locator(".tv-sse .tv-score").count() == 0
            assert page.errors == [], page.errors
        page.context.close()
