"""Issue 34, the second line of defence: a page whose widgets do not arrive recovers by
itself and says so.

The first line is the kernel's IOPub limit (notebooks/config/jupyter/kernels/python3/companion_kernel.py, tests/test_iopub_burst.py):
no widget message is dropped for a page that reads late.  Should one be lost anyway, the
page's watchdog (the page template's script) sees that the screen its kernel says it shows
(the beat's ``data-screen``) is not on the page, or that ipywidgets shows its error
placeholder, and reloads the page with ``tab=`` of that screen; the reloaded page says why.

Here the loss is made for real, between the server and the browser: the page's kernel
websocket is routed through Playwright, and every widget creation message (``comm_open``)
of the Small Star Empires tab's first screen is dropped, as ZeroMQ dropped them.  Voila as
./dashboard runs it (the page template is the dashboard config's), a phone's size.
"""
from __future__ import annotations

import re
import time

import pytest

from browser_harness import WIDGET_TIMEOUT_MS, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.dashboard_config]


def route_kernel_sockets(page, drop: bytes, first_drops: bool = False) -> list[dict]:
    """Route the page's kernel websockets through Playwright; from the server to the
    page, a message holding ``drop`` is dropped while its connection's ``"drop"`` is
    true (``first_drops``: from the start, on the first connection only).  One dict per
    connection, in order: ``drop`` and the count ``dropped``."""
    sockets: list[dict] = []

    def route(ws):
        me = {"drop": first_drops and not sockets, "dropped": 0}
        relayed = not sockets               # only the first connection is made to lose any
        sockets.append(me)
        server = ws.connect_to_server()
        if not relayed:
            # the reloaded page's connection: Playwright forwards it both ways itself, not
            # through this test's Python relay (whose handlers run only while the test is
            # inside a Playwright call: fresh12 and CI saw the reloaded page stay blank)
            return
        ws.on_message(lambda m: server.send(m))

        def from_server(m):
            raw = m if isinstance(m, (bytes, bytearray)) else m.encode()
            if me["drop"] and drop in raw:
                me["dropped"] += 1
                return
            ws.send(m)
        server.on_message(from_server)

    page.route_web_socket(re.compile(r".*/api/kernels/.*/channels.*"), route)
    return sockets


def test_a_tab_whose_widgets_were_lost_reloads_itself_and_says_so(voila_server, chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(WIDGET_TIMEOUT_MS)
    page = context.new_page()
    WATCHDOG_SAID: list[str] = []          # the page's watchdog lines, across its reloads
    page.on("console", lambda m: "companion watchdog" in m.text and WATCHDOG_SAID.append(m.text))
    sockets = route_kernel_sockets(page, b"comm_open")
    try:
        page.goto(voila_server.url)
        page.locator(".companion-beat [data-beat]").wait_for(state="attached")
        page.locator(".start-game").wait_for(state="visible")
        first = len(sockets)
        assert first >= 1, "the page's kernel websocket was not routed"
        sockets[-1]["drop"] = True                 # this page loses what comes next
        page.locator(".lm-TabBar-tab", has_text="Small Star Empires").click()
        # the kernel built the tab (its title says so), the page never gets it
        page.locator(".companion-title").filter(has_text="Small Star Empires").wait_for()
        t0 = time.monotonic()
        # ... so the page reloads itself on the same address, with the tab it showed
        page.wait_for_url(re.compile(r".*[?&]tab=small-star-empires-1(&|$)"), timeout=90_000)
        # (counted once the page has gone: the build's messages come over a few seconds)
        assert sockets[first - 1]["dropped"] > 50, sockets    # the tab's screen was lost
        page.locator(".sse-setup").wait_for(state="visible", timeout=90_000)
        assert len(sockets) > first                    # a new page, a new connection
        assert not sockets[-1]["drop"] and sockets[-1]["dropped"] == 0
        note = page.locator(".companion-recovered")
        note.wait_for(state="visible")
        # the page found the tab's screen missing and reloaded itself for it (its watchdog
        # says "part" lacks the screen); the note on the page names the last reload.  Seen
        # in CI, fresh12 and fresh14: the reloaded page itself can come up blank (connected
        # to its preheated kernel, which stays silent) and is reloaded once more, then says
        # "did not come up": still recovered by itself, still said; issue 34 keeps it open
        assert any("reloading (widgets missing: part lacks companion-screen-small-star-"
                   "empires-1)" in line for line in WATCHDOG_SAID), WATCHDOG_SAID
        said = note.inner_text()
        assert "loaded again" in said and ("did not arrive" in said
                                           or "did not come up" in said), said
        if "did not arrive" not in said:
            # the open defect of issue 34: keep the server's account of the kernels with the
            # watchdog's (the preheated kernel's "waits for its page", Voila's "Error sending
            # message", the address's retries), so that the next run that sees it shows why
            import warnings
            server_lines = [line for line in voila_server.log_tail(400).splitlines()
                            if re.search(r"kernel|Kernel|query|Error|address|companion", line)]
            warnings.warn("the reloaded ?tab= page came up blank and was reloaded again:\n"
                          + "\n".join(WATCHDOG_SAID) + "\n--- the server's log:\n"
                          + "\n".join(server_lines[-80:]))
        took = time.monotonic() - t0
        assert page.locator(".companion-title").inner_text().startswith("Small Star Empires")
        assert page.locator(".jupyter-widgets-error-widget").count() == 0
        # the reloaded page is whole: its own beat names the screen it shows
        page.wait_for_function(
            "() => { const b = document.querySelector('.companion-beat [data-beat]');"
            " return b && b.getAttribute('data-screen') === 'companion-screen-small-star-empires-1'"
            " && b.getAttribute('data-beat') !== ''; }")
        screenshot(page, "recover-tab-after-reload")
        info = page.evaluate("window.companionWatchdog.info()")
        assert info["recovered"] == 0 and info["screen"] == "companion-screen-small-star-empires-1"
        assert took < 90, took
        # the note goes away by itself
        note.wait_for(state="detached", timeout=30_000)
    finally:
        context.close()


def test_a_page_whose_widgets_never_came_reloads_itself_and_says_so(voila_server, chromium):
    """A blank page: every widget message of the page's first connection is lost (the
    page's widgets never come, its heartbeat neither); 45 s after it loaded it reloads
    itself, comes up whole, and says why."""
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(WIDGET_TIMEOUT_MS)
    page = context.new_page()
    sockets = route_kernel_sockets(page, b"comm", first_drops=True)   # the first loses them
    try:
        t0 = time.monotonic()
        page.goto(voila_server.url)
        page.wait_for_timeout(5000)
        assert page.locator(".companion-beat [data-beat]").count() == 0     # blank
        assert sockets and sockets[0]["dropped"] > 0
        note = page.locator(".companion-recovered")
        note.wait_for(state="visible", timeout=120_000)
        assert "did not come up" in note.inner_text()
        took = time.monotonic() - t0
        assert 40 < took < 120, took                # 45 s after it loaded, not before
        page.locator(".start-game").wait_for(state="visible")
        assert len(sockets) >= 2 and sockets[-1]["dropped"] == 0
        assert page.locator("body.companion-offline").count() == 0
        screenshot(page, "recover-blank-after-reload")
    finally:
        context.close()
