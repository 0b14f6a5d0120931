"""Issue 20, "phones that sleep": a seat's phone loses its connection and comes back by
itself, in both games.

The seat page (a phone, 390x844) goes through a relay the test cuts (tests/browser/relay.py:
every open connection closed, new ones refused); the host page (a laptop) talks to the
server directly and acts while the phone is away.

- A short cut (the kernel survives): within a few seconds the seat page says "Not
  connected" and no longer "● live", and a tap or a key on it goes nowhere (the overlay is
  what is under the finger; nothing reaches the store, not even after the connection
  returns).  Restored, the page comes back live by itself and shows the host's action,
  and an entry on it is recorded again.
- A cut long enough for the seat page's kernel to be culled (COMPANION_CULL_IDLE=3): on
  restore the page reloads itself into the same seat and the same game (the address gets
  ``game=<id>`` from the kernel's heartbeat when it lacked it: a newer game created while
  the phone slept is not what it comes back to) and shows the current state.

- A phone that drops off without a word (only its side of each connection closed: the
  server still holds the dead one when the page comes back) comes back too.
- A phone whose scripts stop while asleep (Playwright's clock paused, then jumped forward
  by the time slept) stops saying "live" at its first tick on waking, then reloads.

Every case checks the store's action count: nothing recorded twice, nothing recorded from
the page while it was cut off.
"""
from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from browser_harness import WIDGET_TIMEOUT_MS, screenshot
from dashboard_driver import (ACTION_LABEL, BACK_MS, PHONE, ats_enter, ats_shows, cell,
                              is_live, kernel_id, live_line, open_page, overlay_is_under,
                              query_of, says_not_connected, shows_actions, sse_move,
                              sse_shows, store_of, stored_actions, wait_actions, wait_culled,
                              wait_legal)
from relay import Relay
from companion.ats.game import Game
from companion.sse import SseGame
from test_sse import hexbtn, pick, wait_legal as sse_wait_legal

pytestmark = pytest.mark.browser

ATS_SETUP = {"players": ["Ana", "Ben"]}
SSE_SETUP = {"players": ["Ann", "Bob"], "map": "basic-2p", "pieces": {"ships": 2}}
#: one preheated kernel is enough for these pages (the machine has 2 cores)
POOL = {"COMPANION_POOL_SIZE": "1"}
CULL = {**POOL, "COMPANION_CULL_IDLE": "3", "COMPANION_CULL_INTERVAL": "1"}


@pytest.fixture(autouse=True)
def shadow_home(tmp_path, monkeypatch):
    home = tmp_path / "shadow-home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))


@pytest.fixture
def pages(chromium):
    """Open pages in their own browser contexts; each page's JS errors are kept."""
    contexts: list = []

    def open_one(url, *, phone=False):
        return open_page(chromium, url, viewport=PHONE if phone else None, contexts=contexts)

    yield open_one
    for ctx in contexts:
        ctx.close()


# --------------------------------------------------------------------------- a short cut
@pytest.mark.server_env(POOL)
@pytest.mark.dashboard_config
@pytest.mark.parametrize("game,hold,server_sees", [("ats", 60, True), ("sse", 12, True),
                                                   ("ats", 12, False)])
def test_a_seat_cut_off_says_so_takes_nothing_and_comes_back(voila_server, pages, game, hold,
                                                             server_sees):
    """``hold``: seconds the phone stays cut off (Among the Stars: the issue's minute).
    ``server_sees``: the server sees the connections close (its kernel connection is kept
    for the page, and the page reconnects to the same kernel); otherwise only the phone's
    side is closed, as when a phone drops off the network without a word, and the server
    still holds the dead connection when the page comes back (jupyter_server then
    replaces it, and the old one's close sends the kernel's messages to a buffer: the page
    hears no beat and reloads itself)."""
    s = store_of(voila_server)
    if game == "ats":
        g = Game(ATS_SETUP)
        gid = s.create(g.to_record(), title="sleep")
        seat_name = "Ana"
    else:
        g = SseGame(SSE_SETUP)
        gid = s.create(g.to_record(), title="sleep sse")
        seat_name = g.current
    s.close()
    with Relay(voila_server.port) as relay:
        host = pages(f"{voila_server.url}?game={gid}")
        seat = pages(f"{relay.url}?seat={seat_name}&game={gid}", phone=True)
        for p in (host, seat):
            shows_actions(p, 0, timeout=60_000)
            is_live(p, timeout=30_000)
        old_kernel = kernel_id(seat)
        # the seat's player is half-way through an entry when the phone goes away
        if game == "ats":
            assert seat.locator(".entry-player select").input_value() == "Ana"
            seat.locator(".entry-action button", has_text=ACTION_LABEL["reactor"]).click()
            seat.fill(".entry-card input", "Garden")
            wait_legal(seat, g.legal_cells("Ana", do="reactor"))
            target = cell(seat, (0, 1))
        else:
            hexbtn(seat, g.state.players[seat_name].ships[0].at).click()
            sse_wait_legal(seat, g.legal_destinations(seat_name, 0, piece="city"))
            target = hexbtn(seat, pick(g, 0))
        tag = f"sleep-{game}" + ("" if server_sees else "-silent")
        screenshot(seat, f"{tag}-01-seat-live")

        relay.cut(server_sees=server_sees)
        cut_at = time.monotonic()
        says_not_connected(seat)
        noticed = time.monotonic() - cut_at
        overlay_is_under(seat, target)
        target.click(force=True)             # a real click at the cell: the overlay takes it
        seat.keyboard.press("Enter")
        screenshot(seat, f"{tag}-02-seat-not-connected")
        assert stored_actions(voila_server, gid) == []

        # the host acts while the phone is away
        if game == "ats":
            ats_enter(host, g, "Ben", "discard")
            ats_shows(host, g, timeout=15_000)
        else:
            sse_move(host, g)
            sse_shows(host, g, timeout=15_000)
        wait_actions(voila_server, gid, 1)
        time.sleep(max(0.0, hold - (time.monotonic() - cut_at)))
        says_not_connected(seat)            # still honest after the whole time away
        assert relay.refused > 0            # the page did try to come back meanwhile

        relay.restore()
        back_at = time.monotonic()
        is_live(seat)
        if game == "ats":
            ats_shows(seat, g)
        else:
            sse_shows(seat, g)
        back = time.monotonic() - back_at
        reloaded = kernel_id(seat) != old_kernel
        if server_sees:                     # its kernel is alive: no reload needed
            assert not reloaded, [m for m in seat.console if "watchdog" in m]
        q = query_of(seat)
        assert q.get("seat") == seat_name and q.get("game") == gid, seat.url
        screenshot(seat, f"{tag}-03-seat-back")
        # the tap and the key made while cut off never reach the store, not even now
        time.sleep(2)
        acts = wait_actions(voila_server, gid, 1)
        assert acts[0]["player"] == ("Ben" if game == "ats" else seat_name)

        # the page works again: an entry on it is recorded once, and the host sees it
        if game == "ats":
            ats_enter(seat, g, "Ana", "reactor", "Garden", (0, 1))
            ats_shows(host, g, timeout=15_000)
        else:
            sse_move(seat, g)
            sse_shows(host, g, timeout=15_000)
        wait_actions(voila_server, gid, 2)
        print(f"\n{tag}: 'not connected' {noticed:.1f} s after the cut; back "
              f"{back:.1f} s after the restore ({'reloaded' if reloaded else 'reconnected'}); "
              f"page errors: {seat.errors}")


# ------------------------------------------------------------------ a kernel culled asleep
# alone (the solo phase): its culler ends a kernel idle 3 s, and beside two other browser
# workers the reloaded page once did not come up in the watchdog's 45 s and was loaded a
# second time (CI 2026-12-07 and a fresh run, [sse] both times; alone it passes)
@pytest.mark.solo
@pytest.mark.server_env(CULL)
@pytest.mark.dashboard_config
@pytest.mark.parametrize("game", ["ats", "sse"])
def test_a_seat_whose_kernel_was_culled_reloads_into_its_seat_and_game(voila_server, pages,
                                                                       game):
    s = store_of(voila_server)
    if game == "ats":
        g = Game(ATS_SETUP)
        gid = s.create(g.to_record(), title="sleep")
        seat_name = "Ana"
        # no game= in the address: the page shows the most recent game, this one
        seat_url_query = f"?seat={seat_name}"
    else:
        g = SseGame(SSE_SETUP)
        gid = s.create(g.to_record(), title="sleep sse")
        seat_name = g.current
        seat_url_query = f"?seat={seat_name}&game={gid}"
    s.close()
    with Relay(voila_server.port) as relay:
        host = pages(f"{voila_server.url}?game={gid}")
        seat = pages(f"{relay.url}{seat_url_query}", phone=True)
        for p in (host, seat):
            shows_actions(p, 0, timeout=60_000)
            is_live(p, timeout=30_000)
        seat_line = live_line(seat).locator(".live-line")
        assert seat_line.get_attribute("data-game") == gid
        old_kernel = kernel_id(seat)
        # reloads the watchdog made before the cut (a page left blank on a busy laptop
        # is reloaded once): the cut below must add exactly one
        before = seat.evaluate("() => sessionStorage.getItem('companion-watchdog-reloads')")
        reloads_before = json.loads(before)["n"] if before else 0

        relay.cut()
        says_not_connected(seat)
        wait_culled(voila_server, old_kernel)
        # while the phone sleeps: the host acts, and a newer game is started (a page
        # opened without game= would now show that one)
        if game == "ats":
            ats_enter(host, g, "Ben", "discard")
            ats_shows(host, g, timeout=15_000)
            s = store_of(voila_server)
            newer = s.create(Game({"players": ["Zed", "Yul"]}).to_record(), title="newer")
            s.close()
            assert newer != gid
        else:
            sse_move(host, g)
            sse_shows(host, g, timeout=15_000)
        wait_actions(voila_server, gid, 1)
        screenshot(seat, f"sleep-{game}-culled-01-not-connected")

        relay.restore()
        # the page reloads itself: a new kernel, the same seat, the same game
        seat.wait_for_function(
            "(old) => { const el = document.getElementById('jupyter-config-data');"
            " return el && JSON.parse(el.textContent).kernelId !== old; }",
            arg=old_kernel, timeout=BACK_MS)
        seat.locator(".live-state").first.wait_for(state="attached", timeout=60_000)
        is_live(seat, timeout=60_000)
        if game == "ats":
            ats_shows(seat, g, timeout=30_000)
            expect(seat.locator(".seat-score")).to_contain_text("Ana ·")
            assert seat.locator(".entry-player select").input_value() != ""
        else:
            sse_shows(seat, g, timeout=30_000)
            expect(seat.locator(".sse-play .seat-score")).to_contain_text(seat_name)
        q = query_of(seat)
        assert q.get("seat") == seat_name and q.get("game") == gid, seat.url
        assert live_line(seat).locator(".live-line").get_attribute("data-game") == gid
        screenshot(seat, f"sleep-{game}-culled-02-reloaded")
        time.sleep(2)
        wait_actions(voila_server, gid, 1)        # nothing recorded twice
        info = seat.evaluate("() => sessionStorage.getItem('companion-watchdog-reloads')")
        assert info and json.loads(info)["n"] == reloads_before + 1, info  # one, no loop
        print(f"\n{game}: reloaded into {seat.url}; page errors: {seat.errors}")


# ------------------------------------------------------------- a phone that really sleeps
@pytest.mark.server_env(CULL)
@pytest.mark.dashboard_config
def test_a_frozen_phone_wakes_to_the_current_game_not_a_dead_page(voila_server, chromium):
    """A sleeping phone runs no script: the seat page's timers are stopped (Playwright's
    clock, paused) while its connection goes and its kernel is culled; it wakes with its
    clock jumped forward by the time it slept.  Its first tick sees the gap and stops
    claiming "live"; then it reloads into the same seat and game and shows the host's
    action."""
    s = store_of(voila_server)
    g = Game(ATS_SETUP)
    gid = s.create(g.to_record(), title="sleep")
    s.close()
    ctx = chromium.new_context(viewport={"width": 1280, "height": 1100})
    phone = chromium.new_context(viewport=PHONE)
    try:
        for c in (ctx, phone):
            c.set_default_timeout(WIDGET_TIMEOUT_MS)
        with Relay(voila_server.port) as relay:
            host = ctx.new_page()
            host.goto(f"{voila_server.url}?game={gid}", timeout=60_000)
            seat = phone.new_page()
            seat.clock.install()
            seat.goto(f"{relay.url}?seat=Ana", timeout=60_000)
            for p in (host, seat):
                shows_actions(p, 0, timeout=60_000)
                is_live(p, timeout=30_000)
            old_kernel = kernel_id(seat)
            before = seat.evaluate("() => window.companionWatchdog.info()")
            seat.clock.pause_at(int(seat.evaluate("() => Date.now()")) + 100)   # asleep
            slept_at = time.monotonic()
            relay.cut()
            wait_culled(voila_server, old_kernel)
            ats_enter(host, g, "Ben", "discard")
            ats_shows(host, g, timeout=15_000)
            wait_actions(voila_server, gid, 1)
            time.sleep(max(0.0, 12 - (time.monotonic() - slept_at)))
            relay.restore()
            slept = time.monotonic() - slept_at
            asleep = seat.evaluate("() => window.companionWatchdog.info()")
            assert asleep["ticks"] - before["ticks"] <= 1, (before, asleep)   # no script ran
            seat.clock.fast_forward(int(slept * 1000))                         # wakes up
            seat.clock.resume()
            woke = seat.evaluate("() => window.companionWatchdog.info()")
            assert woke["woke"] >= before["woke"] + 1 and woke["state"] != "live", woke
            expect(live_line(seat).locator(".live-on")).to_be_hidden()
            seat.wait_for_function(
                "(old) => { const el = document.getElementById('jupyter-config-data');"
                " return el && JSON.parse(el.textContent).kernelId !== old; }",
                arg=old_kernel, timeout=BACK_MS)
            seat.locator(".live-state").first.wait_for(state="attached", timeout=60_000)
            is_live(seat, timeout=60_000)
            ats_shows(seat, g, timeout=30_000)
            q = query_of(seat)
            assert q.get("seat") == "Ana" and q.get("game") == gid, seat.url
            screenshot(seat, "sleep-ats-frozen-woke")
            wait_actions(voila_server, gid, 1)
            print(f"\nasleep {slept:.0f} s; ticks while asleep: "
                  f"{asleep['ticks'] - before['ticks']}; woke: {woke}")
    finally:
        ctx.close()
        phone.close()
