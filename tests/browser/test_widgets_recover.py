"""Issue 34, the second line of defence: a page whose widgets do not arrive recovers by
itself and says so.

The first line is the kernel's IOPub limit (notebooks/config/jupyter/kernels/python3/companion_kernel.py, tests/test_iopub_burst.py):
no widget message is dropped for a page that reads late.  Should one be lost anyway, the
page's watchdog (the page template's script) sees that the screen its kernel says it shows
(the beat's ``data-screen``) is not on the page, or that ipywidgets shows its error
placeholder, and reloads the page with ``tab=`` of that screen; the reloaded page says why.

Here the loss is made for real, in the browser, before ipywidgets sees it: the page's
WebSocket is wrapped (an init script), and every widget creation message (``comm_open``)
of the Small Star Empires tab's first screen is dropped, as ZeroMQ dropped them.  Voila as
./dashboard runs it (the page template is the dashboard config's), a phone's size.
"""
from __future__ import annotations

import re
import time

import pytest

from browser_harness import WIDGET_TIMEOUT_MS, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.dashboard_config]


#: the page's own WebSocket, wrapped before any script of the page runs: a kernel
#: connection's message holding NEEDLE is dropped (before ipywidgets' handler sees it)
#: while that connection's ``drop`` is on; each connection's record lives in the tab's
#: sessionStorage, so that it outlives the page's own reloads
_DROP_SCRIPT = r"""(() => {
  const NEEDLE = %(needle)s, FIRST = %(first)s, KEY = 'companion-test-ws-drop';
  const read = () => { try { return JSON.parse(sessionStorage.getItem(KEY)) || []; }
                       catch (e) { return []; } };
  const write = (v) => sessionStorage.setItem(KEY, JSON.stringify(v));
  const Native = window.WebSocket;
  const here = {last: null};
  window.companionTestDrop = here;
  function Dropping(url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    if (!/\/api\/kernels\/[^/]+\/channels/.test(String(url))) return ws;
    const log = read(), index = log.length;
    log.push({drop: FIRST && index === 0, dropped: 0});
    write(log);
    const me = {on: FIRST && index === 0, index};
    here.last = me;
    ws.addEventListener('message', (ev) => {
      if (!me.on) return;
      const text = typeof ev.data === 'string' ? ev.data
        : (ev.data instanceof ArrayBuffer ? new TextDecoder().decode(ev.data) : '');
      if (!text.includes(NEEDLE)) return;
      ev.stopImmediatePropagation();
      const l = read(); l[index].dropped += 1; write(l);
    });
    return ws;
  }
  Dropping.prototype = Native.prototype;
  Object.assign(Dropping, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Dropping;
})();"""


class KernelSockets:
    """The page's kernel websocket connections, in order, each ``{"drop", "dropped"}``
    (read from the tab, across its reloads); :meth:`drop_from_now` makes the page's
    current connection lose what comes next."""

    def __init__(self, page):
        self.page = page

    def _all(self) -> list[dict]:
        return self.page.evaluate(
            "() => JSON.parse(sessionStorage.getItem('companion-test-ws-drop') || '[]')")

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, i: int) -> dict:
        return self._all()[i]

    def __bool__(self) -> bool:
        return len(self) > 0

    def __repr__(self) -> str:
        return repr(self._all())

    def drop_from_now(self) -> None:
        assert self.page.evaluate(
            """() => { const me = window.companionTestDrop && window.companionTestDrop.last;
                       if (!me) return false;
                       me.on = true;
                       const l = JSON.parse(sessionStorage.getItem('companion-test-ws-drop'));
                       l[me.index].drop = true;
                       sessionStorage.setItem('companion-test-ws-drop', JSON.stringify(l));
                       return true; }"""), "the page has no kernel connection"


def route_kernel_sockets(page, drop: bytes, first_drops: bool = False) -> KernelSockets:
    """Make the page's kernel websockets lose messages from the server holding ``drop``
    (``first_drops``: from the start, on the tab's first connection only; else from
    :meth:`KernelSockets.drop_from_now`, on the connection open then).

    Done inside the page (its WebSocket wrapped by an init script), where ipywidgets
    would have received them: Playwright's own websocket routing, used before, relayed
    every message of the page, and its reloaded page came up blank now and then (a
    kernel idle and connected, no widget ever shown: fresh12, fresh14, fresh18, CI),
    a loss of the test's relay, never seen on a page without it."""
    import json
    page.add_init_script(_DROP_SCRIPT % {"needle": json.dumps(drop.decode()),
                                         "first": "true" if first_drops else "false"})
    return KernelSockets(page)


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
        sockets.drop_from_now()                    # this page loses what comes next
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
    said: list[str] = []
    page.on("console", lambda m: "companion watchdog: reloading" in m.text and said.append(m.text))
    try:
        t0 = time.monotonic()
        page.goto(voila_server.url)
        page.wait_for_timeout(5000)
        assert page.locator(".companion-beat [data-beat]").count() == 0     # blank
        assert sockets and sockets[0]["dropped"] > 0
        note = page.locator(".companion-recovered")
        note.wait_for(state="visible", timeout=120_000)
        assert "did not come up" in note.inner_text()
        # the line says what the blank page had: the server's HTML brought the notebook's
        # output (widget views to draw), the kernel's widget states never came
        evidence = [re.search(r"(\d+) outputs in the HTML, (\d+) widget models", m) for m in said]
        assert evidence and evidence[0] and int(evidence[0][1]) > 0, said
        took = time.monotonic() - t0
        assert 40 < took < 120, took                # 45 s after it loaded, not before
        page.locator(".start-game").wait_for(state="visible")
        assert len(sockets) >= 2 and sockets[-1]["dropped"] == 0
        assert page.locator("body.companion-offline").count() == 0
        screenshot(page, "recover-blank-after-reload")
    finally:
        context.close()
