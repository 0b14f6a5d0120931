"""A phone whose page's socket went long enough for the server to end its kernel (issue 50:
"a page whose socket has gone is freed within 2 minutes") comes back by itself to a
working page in its seat and game when it can reach the server again, with nothing lost:
the record is in the store.  The idle culler is out of it here (20 minutes): the kernel is
ended by the server's own rule (COMPANION_DISCONNECTED_SECONDS), so the page's watchdog
(the star-companion template) meets a kernel that is gone, and reloads.

- ``server_sees=False``: the phone dropped off the Wi-Fi without a word; the server learns
  it from its websocket pings (COMPANION_WS_PING_SECONDS) and then ends the kernel.
"""
from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import (BACK_MS, ats_enter, ats_shows, is_live, kernel_id,
                              live_line, query_of, says_not_connected,
                              shows_actions, store_of, wait_actions)
from relay import Relay
from test_sleep import pages  # noqa: F401 (the fixture: pages in their own contexts)
from companion.ats.game import Game

pytestmark = pytest.mark.browser

GONE = {"COMPANION_POOL_SIZE": "1", "COMPANION_CULL_IDLE": "1200",
        "COMPANION_CULL_INTERVAL": "2", "COMPANION_DISCONNECTED_SECONDS": "4",
        "COMPANION_WS_PING_SECONDS": "2"}




def wait_ended(server, kid: str, timeout: float = 90.0) -> str:
    """Wait until the server's log says why it ended kernel ``kid``; that line."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = server.log_path.read_text(errors="replace")
        m = re.search(rf"companion: ending kernel {re.escape(kid)}: [^\n]*", log)
        if m:
            return m.group(0)
        time.sleep(0.5)
    raise AssertionError(f"kernel {kid} was not ended\n{server.log_tail()}")


@pytest.mark.server_env(GONE)
@pytest.mark.dashboard_config
@pytest.mark.parametrize("server_sees", [True, False], ids=["closed", "vanished"])
def test_a_seat_whose_socket_went_is_freed_and_comes_back_by_itself(voila_server, pages,
                                                                    server_sees):
    s = store_of(voila_server)
    g = Game({"players": ["Ana", "Ben"]})
    gid = s.create(g.to_record(), title="evening")
    s.close()
    with Relay(voila_server.port) as relay:
        host = pages(f"{voila_server.url}?game={gid}")
        seat = pages(f"{relay.url}?seat=Ana&game={gid}", phone=True)
        for p in (host, seat):
            shows_actions(p, 0, timeout=60_000)
            is_live(p, timeout=30_000)
        old_kernel = kernel_id(seat)

        relay.cut(server_sees=server_sees)
        says_not_connected(seat)
        line = wait_ended(voila_server, old_kernel)
        assert "its page's socket closed" in line, line
        log = voila_server.log_path.read_text(errors="replace")
        assert "Culling '" not in log                 # not the idle culler's doing
        # meanwhile the host plays on
        ats_enter(host, g, "Ben", "discard")
        ats_shows(host, g, timeout=15_000)
        wait_actions(voila_server, gid, 1)

        relay.restore()
        seat.wait_for_function(
            "(old) => { const el = document.getElementById('jupyter-config-data');"
            " return el && JSON.parse(el.textContent).kernelId !== old; }",
            arg=old_kernel, timeout=BACK_MS)
        is_live(seat, timeout=60_000)
        ats_shows(seat, g, timeout=30_000)
        expect(seat.locator(".seat-score")).to_contain_text("Ana ·")
        q = query_of(seat)
        assert q.get("seat") == "Ana" and q.get("game") == gid, seat.url
        assert live_line(seat).locator(".live-line").get_attribute("data-game") == gid
        screenshot(seat, f"evening-socket-gone-{'closed' if server_sees else 'vanished'}")
        info = seat.evaluate("() => sessionStorage.getItem('companion-watchdog-reloads')")
        assert info and json.loads(info)["n"] == 1, info     # one reload, no loop
        wait_actions(voila_server, gid, 1)                    # nothing lost, nothing twice
        assert "Traceback" not in voila_server.log_path.read_text(errors="replace")
