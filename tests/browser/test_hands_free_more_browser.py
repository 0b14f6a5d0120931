"""Issue 40, "Hands-free", in the browser, beyond Among the Stars' year
(test_hands_free_browser.py):

- Small Star Empires on two seat phones (390x844): Ana says where her ship goes without
  naming it; both stand on the homeworld, so either gives the same move and the line
  takes ship 0 (issue 52: no question whose answers are the same), says it back with where
  it lands, marks the destination and waits for Confirm.  Ben's phone first gets a
  sentence that names no line of the hexes ("fly up": one line, nothing recorded), then
  names his ship.
- A station's photo on *Score the table as it lies* (Ana's phone): the camera's file
  input takes a synthetic photo of her station (tests/photokit.py: INVENTED card names
  drawn on card-sized rectangles, turned, skewed, blurred, JPEG at phone size); the cards
  read are proposed cell by cell, nothing put before her tap, nothing laid before *Lay*;
  a file that is no photo is one line.  Real photos of printed cards are not measured.

Screenshots: tests/artifacts/hands-free-sse-*.png, hands-free-photo-*.png."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import store_of, wait_actions, wait_taking_entries
from companion.ats.game import Game
from companion.sse import SseGame

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import photokit  # noqa: E402

pytestmark = pytest.mark.browser

SSE_SETUP = {"players": ["Ana", "Ben"], "map": "basic-2p", "pieces": {"ships": 2}}


def say(page, text: str) -> None:
    wait_taking_entries(page)
    line = page.locator(".say-line input:visible")
    line.fill(text)
    line.press("Enter")


def words(pair) -> str:
    """A hex as dictation writes it: "two minus three"."""
    names = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight"]
    return " ".join(("minus " if v < 0 else "") + names[abs(v)] for v in pair)


@pytest.mark.dashboard_config
def test_small_star_empires_moves_said_on_two_seat_phones(voila_server, phones):
    g = SseGame(SSE_SETUP)
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="hands free sse")
    s.close()
    ana = phones(f"{voila_server.url}?game={gid}&seat=Ana")
    ben = phones(f"{voila_server.url}?game={gid}&seat=Ben")
    n = 0
    for page, player, piece in ((ana, "Ana", "city"), (ben, "Ben", "trade station")):
        wait_taking_entries(page)
        expect(page.locator(".sse-play .say-line input")).to_be_visible(timeout=60_000)
        move = g.legal_moves(player, 0)[0]
        if player == "Ana":
            # both ships stand on the homeworld: either gives the same move, so the line
            # takes ship 0 without asking (issue 52) and says it back before Confirm
            say(page, f"{piece} at {words(move.to)}")
            expect(page.locator(".sse-play .say-understood")).to_be_visible(timeout=30_000)
            expect(page.locator(".sse-play .say-reply")).to_contain_text(
                f"at {move.to[0]},{move.to[1]}, 1 step")
            expect(page.locator(".sse-play .say-reply")).to_contain_text("of ship 0")
            screenshot(page, "hands-free-sse-01-said-back")
        else:
            # "up" alone is no line of the hexes: one line, nothing recorded
            say(page, "I'm gonna fly up with a trade station")
            expect(page.locator(".sse-play .say-missed")).to_be_visible(timeout=30_000)
            expect(page.locator(".sse-play .say-reply")).to_contain_text("up")
            assert len(wait_actions(voila_server, gid, n)) == n
            say(page, f"ship zero to {words(move.to)} and a {piece}")
            expect(page.locator(".sse-play .say-understood")).to_be_visible(timeout=30_000)
        expect(page.locator(".sse-board .said")).to_have_count(1)
        if player == "Ana":
            screenshot(page, "hands-free-sse-02-understood")
        assert len(wait_actions(voila_server, gid, n)) == n       # nothing before Confirm
        page.locator(".sse-said-confirm").click()
        n += 1
        got = wait_actions(voila_server, gid, n)[-1]
        assert (got["player"], got["ship"], tuple(got["to"]), got["piece"]) == (
            player, 0, tuple(move.to), piece.replace(" ", "_"))
        g.push(got)
        expect(page.locator(".sse-play .say-line input")).to_have_value("")
    screenshot(ben, "hands-free-sse-03-ben-done")


PHOTO_CARDS = [{"name": n, "types": ["business"], "cost": 1, "energy": 0, "vp": v,
                "max": "none", "abilities": []}
               for n, v in (("Quartz Garden", 1), ("Orbital Bakery", 2), ("Comet Kiln", 1))]
STATION = {(0, 0): "Main Reactor", (0, 1): "Quartz Garden", (1, 0): "Orbital Bakery",
           (0, -1): "Power Reactor", (-1, 0): "Comet Kiln"}


def take_photo(page, data: bytes, name: str) -> None:
    """The phone's camera through the page's file input: the chooser gets the photo."""
    with page.expect_file_chooser() as chooser:
        page.locator(".lay-panel .station-photo").click()
    chooser.value.set_files(files=[{"name": name, "mimeType": "image/jpeg", "buffer": data}])


@pytest.mark.dashboard_config
def test_a_station_photo_on_a_phone_is_proposed_then_laid_by_the_player(voila_server, phones):
    pytest.importorskip("rapidocr_onnxruntime")
    g = Game({"players": ["Ana", "Ben"], "options": {"laid": "final"}}, cards=PHOTO_CARDS)
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="hands free photo")
    s.close()
    ana = phones(f"{voila_server.url}?game={gid}&seat=Ana")
    wait_taking_entries(ana)
    panel = ana.locator(".lay-panel")
    expect(panel.locator(".station-photo")).to_be_visible(timeout=60_000)
    # a file that is no photo: one line, nothing proposed
    take_photo(ana, b"<script>alert(1)</script>", "evil.jpg")
    expect(ana.locator(".companion-status")).to_contain_text("photo", timeout=30_000)
    expect(panel.locator(".station-photo-row")).to_have_count(0)
    data = photokit.station_photo(STATION, seed=7, distortion=photokit.Distortion(
        max_angle=6.0, skew=0.04, blur=1.5, quality=80, size=(1512, 2016)))
    take_photo(ana, data, "station.jpg")
    expect(panel.locator(".station-photo-reply")).to_contain_text("Read 4 cards",
                                                                  timeout=60_000)
    expect(panel.locator(".station-photo-row")).to_have_count(4)
    screenshot(ana, "hands-free-photo-01-proposed")
    assert wait_actions(voila_server, gid, 0) == []
    # nothing is on the grid before her tap
    expect(panel.locator(".lay-grid .lay-location")).to_have_count(0)
    panel.locator(".station-photo-all").click()
    expect(panel.locator(".lay-grid .lay-location")).to_have_count(3, timeout=30_000)
    expect(panel.locator(".lay-grid .lay-reactor")).to_have_count(2)
    for name in ("Quartz Garden", "Orbital Bakery", "Comet Kiln"):
        expect(panel.locator(".lay-grid")).to_contain_text(name)
    assert wait_actions(voila_server, gid, 0) == []            # laid only by its button
    screenshot(ana, "hands-free-photo-02-put")
    panel.locator(".lay-station").click()
    acts = wait_actions(voila_server, gid, 1)
    laid = {tuple(c["at"]): c.get("card", "reactor") for c in acts[0]["cells"]}
    assert laid == {(0, 0): "reactor", (0, 1): "Quartz Garden", (1, 0): "Orbital Bakery",
                    (0, -1): "reactor", (-1, 0): "Comet Kiln"}
    assert acts[0]["player"] == "Ana"
