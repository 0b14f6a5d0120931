"""The dashboard's server (issue 12): kernels culled, tab close shuts its kernel
down, a Host allowlist, the token kept out of argv and logs, /logout.

Starts Voila with the dashboard's configuration (notebooks/config/voila.py)
through tests/browser/browser_harness.VoilaServer, and ./dashboard itself for
the token.  The 50-page test talks HTTP + websocket as a page does (GET /,
which runs the notebook in a new kernel; a websocket to the kernel; then either
the shutdown beacon a closing tab sends, or nothing, as when a phone goes
away) and shows that the kernels go away and the memory of the server and its
kernels stays flat.  One test closes a real Chromium tab.

Preheated kernels (issue 14): the configuration keeps a pool of ``POOL`` kernels
that have run the notebook up to reading the page's query, and every page takes
one (Voila starts a new one for the pool a second later).  So a server at rest
has ``POOL`` kernels, not none, and ``POOL`` more kernels are started than pages
were opened; the tests below count the pool in (``settled``, ``page_kernels``).

Figures of a longer run: ``bench/bench_server.py``.
"""
from __future__ import annotations

import ast
import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from soak import soak_size

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from browser_harness import (CHROMIUM, CHROMIUM_ARGS, CONFIG_DIR, VoilaServer, _descendants,  # noqa: E402
                             free_port)

TOKEN = "Tok-" + "x7Qm2Lp9Zr4Vb8Nc1Hd6"           # 24 characters, a test value
#: preheated kernels kept ready (COMPANION_POOL_SIZE): the tests' servers keep 2, not
#: the configuration's default of 4, to keep this 2-CPU machine light
POOL = 2


# ---------------------------------------------------------------------------
# helpers (also used by bench/bench_server.py)
# ---------------------------------------------------------------------------
def request(port: int, method: str, path: str, headers=None, body=None, timeout=120):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.getheaders(), resp.read()
    finally:
        conn.close()


def raw_request(port: int, host_header: str, path: str = "/") -> int:
    """One HTTP/1.1 request written by hand with the given ``Host:`` line; the status."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n"
                  .encode())
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return int(data.split(b" ", 2)[1])


def kernel_pids(server: VoilaServer) -> list[int]:
    out = []
    for pid in server.process_ids()[1:]:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            # the dashboard's kernel (companion_kernel.py), or ipykernel's own
            if b"companion_kernel.py" in cmdline or b"ipykernel" in cmdline:
                out.append(pid)
        except OSError:
            pass
    return out


def page_kernels(server: VoilaServer) -> set[str]:
    """Ids of the kernels pages took from the pool and that are not shut down yet
    (from the server's log: "Using pre-heated kernel", "Kernel shutdown")."""
    log = server.log_path.read_text(errors="replace")
    used = set(re.findall(r"Using pre-heated kernel: ([0-9a-f-]+)", log))
    return used - set(re.findall(r"Kernel shutdown: ([0-9a-f-]+)", log))


def settled(server: VoilaServer, pool: int = POOL) -> bool:
    """No page's kernel left, and just the pool's kernels alive (and filled)."""
    return not page_kernels(server) and len(kernel_pids(server)) == pool


def rss_mb(pids) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def open_page(port: int, *, close: str = "beacon", token: str | None = None) -> str:
    """What a browser tab does: GET / (the notebook runs in a new kernel), a
    websocket to that kernel, then the tab goes away: ``close="beacon"`` sends
    the shutdown request Voila's page sends on ``beforeunload`` (form field
    ``_xsrf`` = the ``_xsrf`` cookie), ``"none"`` just disappears.  The kernel id."""
    query = f"?token={token}" if token else ""
    status, headers, body = request(port, "GET", "/" + query)
    assert status == 200, (status, body[:300])
    m = re.search(rb'"kernelId": "([0-9a-f-]+)"', body)
    assert m, body[:300]
    kid = m.group(1).decode()
    cookies = dict(v.split(";", 1)[0].split("=", 1) for k, v in headers
                   if k.lower() == "set-cookie")
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    _websocket_touch(port, kid, cookie)
    if close == "beacon":
        boundary = "----companionbeacon"
        form = (f'--{boundary}\r\nContent-Disposition: form-data; name="_xsrf"\r\n\r\n'
                f'{cookies.get("_xsrf", "")}\r\n--{boundary}--\r\n')
        status, _, body = request(port, "POST", f"/voila/api/shutdown/{kid}",
                                  {"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}",
                                   "Content-Type": f"multipart/form-data; boundary={boundary}"},
                                  form)
        assert status == 204, (status, body[:300])
    return kid


def _websocket_touch(port: int, kid: str, cookie: str) -> None:
    """Connect to the kernel's channels as the page does, ask for kernel_info, close."""
    import asyncio
    import json
    import uuid

    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    async def go():
        req = HTTPRequest(f"ws://127.0.0.1:{port}/api/kernels/{kid}/channels"
                          f"?session_id={uuid.uuid4().hex}",
                          headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"})
        ws = await asyncio.wait_for(websocket_connect(req), 30)
        msg_id = uuid.uuid4().hex
        ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "kernel_info_request", "username": "t",
                       "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "content": {}, "channel": "shell",
            "buffers": []}))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            raw = await asyncio.wait_for(ws.read_message(), 30)
            if raw is None:
                break
            if isinstance(raw, str) and json.loads(raw).get("msg_type") == "kernel_info_reply":
                break
        ws.close()

    in_own_thread(asyncio.run, go())


class HeldPages:
    """Pages kept open as tabs keep them: GET / and the kernel's websocket, held (and
    read) on an event loop of their own until :meth:`drop` (the socket just closes, no
    beacon: a phone gone without unloading) or :meth:`close`."""

    def __init__(self, port: int, token: str | None = None):
        import asyncio
        import threading
        self.port, self.token = port, token
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.sockets: dict = {}

    def _run(self, coro):
        import asyncio
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=300)

    def open(self, query: str = "") -> str:
        """Open a page (``query`` without the token); its kernel id."""
        q = "&".join(x for x in (query, f"token={self.token}" if self.token else "") if x)
        status, headers, body = request(self.port, "GET", "/" + ("?" + q if q else ""))
        assert status == 200, (status, body[:300])
        kid = re.search(rb'"kernelId": "([0-9a-f-]+)"', body).group(1).decode()
        cookie = "; ".join(v.split(";", 1)[0] for k, v in headers if k.lower() == "set-cookie")
        self.sockets[kid] = self._run(self._connect(kid, cookie))
        return kid

    async def _connect(self, kid: str, cookie: str):
        import asyncio
        import uuid

        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect
        req = HTTPRequest(f"ws://127.0.0.1:{self.port}/api/kernels/{kid}/channels"
                          f"?session_id={uuid.uuid4().hex}",
                          headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{self.port}"})
        ws = await asyncio.wait_for(websocket_connect(req), 60)

        async def drain():           # read everything, pings answered (as a browser does)
            while await ws.read_message() is not None:
                pass
        asyncio.ensure_future(drain())
        return ws

    def drop(self, kid: str) -> None:
        ws = self.sockets.pop(kid)
        self.loop.call_soon_threadsafe(ws.close)

    def close(self) -> None:
        for kid in list(self.sockets):
            self.drop(kid)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def in_own_thread(fn, *args):
    """Run ``fn(*args)`` in a new thread and return its result: the browser tests'
    Playwright session (same pytest run) keeps an event loop running in the main
    thread, where ``asyncio.run`` and Playwright's sync API refuse to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn, *args).result()


def wait_for(predicate, timeout: float, step: float = 0.5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


@pytest.fixture
def server(tmp_path):
    servers = []

    def start(**kw):
        env = {"COMPANION_CULL_IDLE": "1200", "COMPANION_CULL_INTERVAL": "60",
               "COMPANION_POOL_SIZE": str(POOL)}
        env.update(kw.pop("env", {}))
        s = VoilaServer(tmp_path / f"home{len(servers)}", tmp_path / f"work{len(servers)}",
                        config=True, env=env, **kw)
        servers.append(s)
        s.start()
        return s

    yield start
    for s in servers:
        s.cleanup()


# ---------------------------------------------------------------------------
# 50 pages: kernels culled, memory flat
# ---------------------------------------------------------------------------
#: a soak: 50 pages with COMPANION_SOAK=1 (tests/soak.py), 20 by default
#: (issue 34: the suite in 15 minutes; every check below is the same at either size)
PAGES = soak_size(20, 50)


@pytest.mark.soak
def test_fifty_pages_leave_no_kernels_and_flat_memory(server):
    s = server(env={"COMPANION_CULL_IDLE": "6", "COMPANION_CULL_INTERVAL": "2"})
    figures = {}
    peak = 0

    def one(i):
        # every other page is closed with the shutdown beacon; the rest just go away
        return open_page(s.port, close="beacon" if i % 2 == 0 else "none")

    def settle():
        return wait_for(lambda: settled(s), timeout=40)

    # a page that comes before the pool's first kernel has read the notebook gets a
    # kernel of its own (Voila's handler); the count below is about a running server
    assert wait_for(lambda: "is filled with" in s.log_path.read_text(errors="replace"),
                    timeout=90), s.log_tail()
    with ThreadPoolExecutor(max_workers=2) as pool:
        for i, _ in enumerate(pool.map(one, range(5)), 1):
            peak = max(peak, len(kernel_pids(s)))
        assert settle(), f"{len(kernel_pids(s))} kernels still alive after 5 pages"
        figures[5] = rss_mb(s.process_ids())
        for i, _ in enumerate(pool.map(one, range(5, PAGES)), 6):
            peak = max(peak, len(kernel_pids(s)))
    assert settle(), f"{len(kernel_pids(s))} kernels still alive after {PAGES} pages"
    figures[PAGES] = rss_mb(s.process_ids())
    # a kernel's process can be gone a moment before the server logs its shutdown (seen
    # on a loaded machine): wait for the log to say so before counting
    wait_for(lambda: s.log_path.read_text(errors="replace").count("Kernel shutdown:") >= PAGES,
             timeout=60)
    log = s.log_path.read_text(errors="replace")
    started = log.count("Kernel started:")
    preheated = log.count("Using pre-heated kernel:")
    stopped = log.count("Kernel shutdown:")
    culled = log.count("Culling '")
    print(f"\n{PAGES} pages: {started} kernels started ({preheated} pages took a preheated "
          f"one), {stopped} shut down ({culled} by the idle culler), peak {peak} alive; "
          f"server RSS after 5 pages {figures[5]:.0f} MB, after {PAGES} {figures[PAGES]:.0f} MB")
    # preheating: every page takes a pool kernel and the pool is filled again
    assert started == PAGES + POOL and preheated == PAGES and stopped == PAGES
    assert culled >= PAGES // 2 - 2            # the pages that sent no beacon
    # no refused shutdown (every beacon above also answered 204): tornado's two refusals
    assert "'_xsrf' argument missing" not in log and "XSRF cookie does not match" not in log
    assert not re.search(r"\b403 POST /voila/api/shutdown", log)
    # once in a fresh full run (stop 30) a line of the log held the test client's Cookie
    # header (`..."; _xsrf=...']`); not reproduced in 5 runs since, its source not found:
    # kept as evidence for the next run, with its neighbours
    lines = log.splitlines()
    leaked = [i for i, line in enumerate(lines) if "_xsrf=" in line]
    if leaked:
        i = leaked[0]
        warnings.warn("a cookie value reached the server log:\n" + "\n".join(
            lines[max(0, i - 15):i + 3]))
    assert peak <= 12 + POOL
    assert figures[PAGES] <= 1.5 * figures[5], figures


def test_fifty_bare_page_loads_stay_under_the_kernel_cap_and_go_within_a_minute(server):
    """Issue 35: "every GET / with the token starts a kernel of about 120 MB that lives 20
    minutes unless a page unloads it. 30 requests: 52 kernels, +3.7 GB."  "Kernels are
    bounded: a cap on kernels (total, and per client) with a clear page when it is
    reached; a kernel whose page never connects is ended within a minute."

    50 bare ``GET /`` with the token from one client (no websocket ever comes): past the
    client's pages waiting for their websocket (3 here) each gets the 429 page in one
    paragraph and starts no kernel; the kernels of those that never connected are ended
    (20 s here, 60 s by default: long enough that the three pages' loads on a busy
    machine all come before the first is ended), and a real page then comes up.  Real pages (each
    connects) fill the server up to its total (6 here): the next gets the 503 page."""
    s = server(env={"COMPANION_TOKEN": TOKEN, "COMPANION_POOL_SIZE": "1",
                    "COMPANION_MAX_KERNELS": "6", "COMPANION_MAX_WAITING_PAGES": "3",
                    "COMPANION_UNCONNECTED_SECONDS": "20", "COMPANION_CULL_INTERVAL": "2"})
    assert wait_for(lambda: "is filled with" in s.log_path.read_text(errors="replace"),
                    timeout=90), s.log_tail()
    statuses, peak = [], 0
    for _ in range(50):
        status, _, body = request(s.port, "GET", f"/?token={TOKEN}")
        statuses.append(status)
        peak = max(peak, len(kernel_pids(s)))
        if status == 429:
            text = body.decode()
            assert "Too many pages at once" in text and "Wait a minute" in text
            assert "Traceback" not in text and TOKEN not in text
    assert statuses[:3] == [200, 200, 200] and set(statuses[3:]) == {429}, statuses
    assert peak <= 1 + 3 + 1, peak          # the pool (refilled) and the three waiting pages
    # the three kernels whose page never came are ended within the minute (20 s here)
    assert wait_for(lambda: len(kernel_pids(s)) == 1, timeout=90), kernel_pids(s)
    assert "its page never connected" in s.log_path.read_text(errors="replace")
    # real pages (each keeps its websocket, as an open tab does) up to the total, then
    # the 503 page
    held = HeldPages(s.port, TOKEN)
    try:
        # (five games: one host page per game; a second page of the host's for the same
        # game would replace the first, issue 50)
        kids = [held.open(f"game=g{i}") for i in range(5)]
        assert len(set(kids)) == 5
        assert wait_for(lambda: len(kernel_pids(s)) == 6, timeout=60), kernel_pids(s)
        status, headers, body = request(s.port, "GET", f"/?token={TOKEN}")
        assert status == 503, (status, body[:300])
        assert "Too many pages are open" in body.decode() and "Nothing of the game is lost" \
            in body.decode()
        assert len(kernel_pids(s)) == 6
        # a connected page's kernel is not ended as one that never connected (past the 20 s)
        time.sleep(24)
        assert len(kernel_pids(s)) == 6
        # issue 50: the cap counts live pages.  Two tabs go without a word (their sockets
        # close, no beacon): the next page comes at once (the dead pages' kernels are
        # ended to make room), not after the idle culler's minutes
        held.drop(kids[0])
        held.drop(kids[1])
        time.sleep(1)
        assert request(s.port, "GET", f"/?token={TOKEN}")[0] == 200
        assert "a new page needs the room" in s.log_path.read_text(errors="replace")
    finally:
        held.close()


# ---------------------------------------------------------------------------
# Host allowlist, /logout, a real tab closed
# ---------------------------------------------------------------------------
def test_foreign_host_header_is_refused_without_starting_a_kernel(server):
    s = server(env={"COMPANION_ALLOWED_HOSTS": "table.example"})
    assert wait_for(lambda: settled(s), timeout=60)          # the pool is filled
    for host in ("evil.example", f"evil.example:{s.port}", "127.0.0.1.evil.example",
                 f"192.0.2.7:{s.port}", "localhost.evil.example", "[::2]"):
        assert raw_request(s.port, host, "/") == 403, host
        assert raw_request(s.port, host, "/api/kernels/0000") == 403, host
        assert raw_request(s.port, host, "/logout") == 403, host
    # no kernel but the pool's (preheating starts POOL kernels when the server starts)
    assert len(kernel_pids(s)) == POOL
    log = s.log_path.read_text()
    assert log.count("Kernel started") == POOL and "Using pre-heated kernel" not in log
    for host in (f"127.0.0.1:{s.port}", f"localhost:{s.port}", "table.example",
                 f"TABLE.example:{s.port}", "[::1]"):
        assert raw_request(s.port, host, "/logout") == 302, host


def test_logout_redirects_instead_of_500(server):
    s = server()
    status, headers, _ = request(s.port, "GET", "/logout")
    assert status == 302 and dict(headers)["Location"] == "/"


def test_closing_a_real_tab_shuts_its_kernel_down(server):
    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    s = server()                          # idle culling after 20 minutes: not what stops it

    def visit_and_leave():
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(s.url)
                page.locator(".widget-button:visible").first.wait_for(timeout=90_000)
                # the page's kernel (from the pool) and the pool filled again
                assert wait_for(lambda: len(page_kernels(s)) == 1
                                and len(kernel_pids(s)) == POOL + 1, timeout=30), kernel_pids(s)
                beacons = []
                page.on("request", lambda r: beacons.append(r.url)
                        if "/voila/api/shutdown/" in r.url else None)
                page.goto("about:blank")             # the page unloads as when its tab closes
                assert wait_for(lambda: settled(s), timeout=30), (beacons, s.log_tail())
            finally:
                browser.close()

    in_own_thread(visit_and_leave)
    log = s.log_path.read_text()
    assert "Kernel shutdown" in log and "_xsrf" not in log and "Culling '" not in log


def test_the_page_needs_nothing_from_the_internet_and_draws_its_icons(server):
    """Voila's lab page linked two Font Awesome stylesheets on cdn.jsdelivr.net; a
    stylesheet in <head> holds the page, so a table's network without internet made
    every phone wait on them (3 s of delay from that host cost 3 s of joining).  The
    page asks nothing but its own server, and a button's icon is still drawn (from
    the font Voila bundles)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    s = server()
    origin = s.url.rstrip("/")

    def visit():
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 900, "height": 900})
                asked: list[str] = []
                page.on("request", lambda r: asked.append(r.url))
                page.goto(s.url)
                page.locator(".companion-title").wait_for(timeout=90_000)
                page.locator(".lm-TabBar-tab", has_text="Small Star Empires").click()
                icon = page.locator("button:has-text('Start the game') i.fa-play:visible").first
                icon.wait_for(state="visible", timeout=30_000)
                glyph = icon.evaluate("i => { const st = getComputedStyle(i, '::before');"
                                      " return [st.content, st.fontFamily,"
                                      " i.getBoundingClientRect().width]; }")
                return asked, glyph
            finally:
                browser.close()

    asked, (content, family, width) = in_own_thread(visit)
    foreign = sorted({u for u in asked if not u.startswith(origin)})
    assert not foreign, foreign
    assert content not in ("", "none", "normal") and "Font Awesome" in family and width > 0, \
        (content, family, width)


# ---------------------------------------------------------------------------
# issue 20: no route or socket without the token; hashed files immutable
# ---------------------------------------------------------------------------
UUID0 = "00000000-0000-0000-0000-000000000000"
KID = r"(?P<kernel_id>\w+-\w+-\w+-\w+-\w+)"
#: every route of the server, as the configuration lists them in the log at start
#: ("companion: gated routes: ..."), with a request for each: (kind, method, path).
#: ``{kid}`` is a page's kernel; the test fails if the server has a route not here.
ROUTES = {
    f"/api/kernels/{KID}": ("http", "GET", "/api/kernels/{kid}"),
    f"/api/kernels/{KID}/channels": ("ws", "GET", "/api/kernels/{kid}/channels?session_id=t"),
    "/voila/templates/(.*)": ("http", "GET", "/voila/templates/lab/static/index.css"),
    "/voila/static/(.*)": ("http", "GET", "/voila/static/voila.js"),
    "/voila/api/themes/(.*)": ("http", "GET",
                               "/voila/api/themes/@jupyterlab/theme-light-extension/index.css"),
    "/voila/api/shutdown/(.*)": ("http", "POST", "/voila/api/shutdown/{kid}"),
    "/login": ("http", "GET", "/login"),
    "/logout": ("http", "GET", "/logout"),
    f"/voila/query/{KID}": ("ws", "GET", f"/voila/query/{UUID0}"),
    "/voila/labextensions/(.*)": ("http", "GET", "/voila/labextensions/jupyterlab_pygments/package.json"),
    "/voila/files/(.*)": ("http", "GET", "/voila/files/nothing-here.png"),
    "/(.*)": ("http", "GET", "/"),
    # the kernels' own query route: its secret is not in the log; a wrong one is refused
    f"/companion-kernel-[secret]/voila/query/{KID}":
        ("ws", "GET", f"/companion-kernel-wrong-secret/voila/query/{UUID0}"),
}
#: reachable without the token (the login form and its files, /logout); never with a
#: foreign Host
NO_TOKEN = {"/login", "/logout"}


def _ws(port: int, path: str, headers: dict, read: float = 0.0):
    """Open a websocket; ("open", first message or None within ``read`` s) or
    ("refused", HTTP status)."""
    import asyncio

    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    async def go():
        req = HTTPRequest(f"ws://127.0.0.1:{port}{path}", headers=headers)
        try:
            ws = await asyncio.wait_for(websocket_connect(req), 30)
        except HTTPClientError as e:
            location = e.response.headers.get("Location") if e.response is not None else None
            return "refused", (e.code, location)
        msg = None
        if read:
            try:
                msg = await asyncio.wait_for(ws.read_message(), read)
            except asyncio.TimeoutError:
                msg = None
        ws.close()
        return "open", msg

    return in_own_thread(asyncio.run, go())


def _probe(port: int, kind: str, method: str, path: str, *, token: str | None, host: str):
    """One request to a route: (status, body or message).  A websocket that opens
    answers 101."""
    headers = {"Host": host, "Origin": f"http://{host}"}
    if token:
        path += ("&" if "?" in path else "?") + f"token={token}"
    if kind == "ws":
        what, got = _ws(port, path, headers)
        return (101, got) if what == "open" else (got[0], (got[1], b""))
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.putrequest(method, path, skip_host=True)
        for k, v in {**headers, "Content-Length": "0"}.items():
            conn.putheader(k, v)
        conn.endheaders()
        resp = conn.getresponse()
        return resp.status, (resp.getheader("Location"), resp.read())
    finally:
        conn.close()


def _refused(status: int, data) -> bool:
    if status in (401, 403):
        return True
    # the page: redirected to the login form, nothing of the page sent
    return status == 302 and (data[0] or "").startswith("/login") and not data[1]


def _waiting_kernels(s) -> set[str]:
    """Pool kernels that ran the notebook up to the page's query (they connected to
    their own query route) and no page took yet."""
    log = s.log_path.read_text(errors="replace")
    waiting = set(re.findall(r"companion: kernel ([0-9a-f-]+) waits for its page", log))
    return waiting - set(re.findall(r"Using pre-heated kernel: ([0-9a-f-]+)", log))


def test_every_route_and_socket_needs_the_token_and_a_good_host(server):
    """issue 20: "A client on the Wi-Fi without the token can take it": every route
    Voila registers (the query socket that hands a preheated kernel its page's
    address included) refuses a request without the token and one with a foreign
    Host, and answers one with both."""
    s = server(env={"COMPANION_TOKEN": TOKEN, "COMPANION_ALLOWED_HOSTS": "table.example"})
    port, good, bad = s.port, f"127.0.0.1:{s.port}", "evil.example"
    assert wait_for(lambda: len(_waiting_kernels(s)) == POOL, timeout=120), s.log_tail()
    log = s.log_path.read_text(errors="replace")
    assert TOKEN not in log
    listed = re.search(r"companion: gated routes: (.*)", log).group(1).split(" ; ")
    routes = {r.rsplit(" ", 1)[0] for r in listed}
    assert routes == set(ROUTES), routes ^ set(ROUTES)      # a new route needs a probe here

    # the attack: a pool kernel's id (it is in the log), its query socket without the
    # token (or with a wrong one), before any page takes it
    pool = sorted(_waiting_kernels(s))
    for kid in pool:
        for token in (None, "wrong-" + TOKEN[6:]):
            assert _probe(port, "ws", "GET", f"/voila/query/{kid}", token=token,
                          host=good)[0] == 403
        assert _probe(port, "ws", "GET", f"/voila/query/{kid}", token=TOKEN, host=bad)[0] == 403

    # a phone with the token takes a pool kernel, and its kernel got the page's
    # address through its own route: nothing is left over for anyone else
    status, headers, body = request(port, "GET", f"/?seat=Ana&token={TOKEN}")
    assert status == 200, body[:300]
    kid = re.search(rb'"kernelId": "([0-9a-f-]+)"', body).group(1).decode()
    assert kid in pool
    assert _ws(port, f"/voila/query/{kid}?token={TOKEN}", {"Host": good}, read=3) \
        == ("open", None)

    for pattern, (kind, method, path) in ROUTES.items():
        path = path.format(kid=kid)
        for token in (None, "wrong-" + TOKEN[6:]):
            status, data = _probe(port, kind, method, path, token=token, host=good)
            if pattern in NO_TOKEN:
                assert status in (200, 302), (pattern, token, status)
            else:
                assert _refused(status, data), (pattern, token, status, data)
                assert kid.encode() not in (data[1] or b""), pattern
        status, data = _probe(port, kind, method, path, token=TOKEN, host=bad)
        assert status == 403, (pattern, "foreign Host", status)
        if pattern.startswith("/companion-kernel-") or pattern == "/voila/api/shutdown/(.*)":
            continue                      # no secret here; the shutdown comes last
        status, data = _probe(port, kind, method, path, token=TOKEN, host=good)
        # /login with the token: logged in, sent on to the page; /voila/files: no such file
        works = {"/login": 302, "/logout": 302, "/voila/files/(.*)": 404}.get(
            pattern, 101 if kind == "ws" else 200)
        assert status == works, (pattern, status, data)
    # the login page's own files need no token (the form is drawn without one)
    assert request(port, "GET", "/voila/static/style/index.css")[0] == 200
    assert request(port, "GET", "/voila/static/style/../voila.js")[0] in (403, 404)
    # the page's shutdown beacon with the token: the kernel goes
    assert _probe(port, "http", "POST", f"/voila/api/shutdown/{kid}",
                  token=TOKEN, host=good)[0] == 204
    assert wait_for(lambda: f"Kernel shutdown: {kid}" in s.log_path.read_text(), timeout=30)
    assert TOKEN not in s.log_path.read_text(errors="replace")


def test_a_seat_page_under_the_token_gets_its_seat_from_a_preheated_kernel(server):
    """The preheated kernel learns its page's address (``?seat=Ana``) on its own
    route now; a phone's seat page, opened with the token, is Ana's, and the page's
    static files and sockets pass with the login cookie alone (none is refused)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("no Chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    from companion.ats.game import Game
    from companion.table.store import Store
    s = server(env={"COMPANION_TOKEN": TOKEN})
    store = Store(path=s.home / "games.sqlite")
    try:
        gid = store.create(Game({"players": ["Ana", "Ben"]}).to_record(), title="seat")
    finally:
        store.close()
    assert wait_for(lambda: len(_waiting_kernels(s)) == POOL, timeout=120), s.log_tail()

    def visit():
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": 390, "height": 844})
                refused: list[str] = []
                page.on("response", lambda r: r.status in (401, 403) and refused.append(r.url))
                page.goto(f"{s.url}?seat=Ana&game={gid}&token={TOKEN}")
                page.locator(".seat-score").first.wait_for(timeout=90_000)
                return page.locator(".seat-score").first.inner_text(), refused
            finally:
                browser.close()

    text, refused = in_own_thread(visit)
    assert text.startswith("Ana"), text
    assert not refused, refused
    assert " 403 " not in s.log_path.read_text(errors="replace")


def test_hashed_static_files_are_immutable_and_the_others_are_not(server):
    """issue 20: a returning phone re-validated every hashed file.  A file whose URL
    carries its content hash is served immutable; a file without one is not."""
    s = server(env={"COMPANION_POOL_SIZE": "1"})
    _, _, body = request(s.port, "GET", "/")
    page = body.decode()
    css = re.search(r'href="(/voila/templates/(?:lab|star-companion)/static/index\.css\?v=[0-9a-f]+)"', page).group(1)
    entry = re.search(r'"load": "(static/remoteEntry\.[0-9a-f]+\.js)", "name": "jupyterlab_pygments"',
                      page).group(1)

    def cache_control(path):
        status, headers, _ = request(s.port, "GET", path)
        assert status == 200, path
        return dict((k.lower(), v) for k, v in headers).get("cache-control", "")

    immutable = "public, max-age=31536000, immutable"
    assert cache_control(css) == immutable                              # ?v=<content hash>
    assert cache_control(f"/voila/labextensions/jupyterlab_pygments/{entry}") == immutable  # hash in the name
    for path in ("/voila/templates/lab/static/index.css",               # no hash
                 "/voila/templates/lab/static/index.css?v=0123456789abcdef0123",  # not its hash
                 "/voila/static/voila.js",
                 "/voila/labextensions/jupyterlab_pygments/package.json",
                 "/voila/api/themes/@jupyterlab/theme-light-extension/index.css"):
        got = cache_control(path)
        assert "immutable" not in got and "max-age=3" not in got, (path, got)


# ---------------------------------------------------------------------------
# the token: ./dashboard --lan
# ---------------------------------------------------------------------------
def _dashboard(tmp_path, *args, env=None):
    e = dict(os.environ)
    for var, sub in [("JUPYTER_RUNTIME_DIR", "rt"), ("TMPDIR", "tmp"), ("COMPANION_HOME", "home")]:
        (tmp_path / sub).mkdir(exist_ok=True)
        e[var] = str(tmp_path / sub)
    e.pop("COMPANION_TOKEN", None)
    e.update(env or {})
    return e


@pytest.mark.parametrize("how", ["--token", "COMPANION_TOKEN", "--token-file"])
def test_short_token_is_refused(tmp_path, how):
    env, args = {}, ["--lan"]
    if how == "--token":
        args += ["--token", "short-token"]
    elif how == "COMPANION_TOKEN":
        env["COMPANION_TOKEN"] = "short-token"
    else:
        f = tmp_path / "token"
        f.write_text("short-token\n")
        args += ["--token-file", str(f)]
    proc = subprocess.run([str(ROOT / "dashboard"), *args, "--port", str(free_port())],
                          env=_dashboard(tmp_path, env=env), capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2
    assert "at least" in proc.stderr and "16" in proc.stderr and "short-token" not in proc.stderr


def test_voila_config_refuses_a_short_token(tmp_path):
    s = VoilaServer(tmp_path / "home", tmp_path / "work", config=True,
                    env={"COMPANION_TOKEN": "too-short"})
    with pytest.raises(RuntimeError, match="at least 16"):
        s.start()


@pytest.mark.parametrize("how", ["--token", "--token-file"])
def test_lan_token_is_not_on_any_command_line_nor_in_the_log(tmp_path, how):
    port = free_port()
    args = ["--lan", "--port", str(port)]
    if how == "--token":
        args += ["--token", TOKEN]
    else:
        f = tmp_path / "token"
        f.write_text(TOKEN + "\n")
        f.chmod(0o600)
        args += ["--token-file", str(f)]
    log = tmp_path / "dashboard.log"
    with open(log, "w") as fh:
        proc = subprocess.Popen([str(ROOT / "dashboard"), *args], env=_dashboard(tmp_path),
                                stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    try:
        def ready():
            try:
                return request(port, "GET", f"/voila/static/voila.js?token={TOKEN}",
                               timeout=2)[0] == 200
            except OSError:
                return False
        assert wait_for(ready, timeout=90, step=0.3), log.read_text()
        # without the token: refused; with it: the page and its kernel
        status, headers, _ = request(port, "GET", "/")
        assert status in (302, 403) and "login" in dict(headers).get("Location", "login")
        open_page(port, token=TOKEN)
        request(port, "GET", f"/api/kernels/00000000-0000-0000-0000-000000000000?token={TOKEN}")
        request(port, "GET", "/?token=wrong-wrong-wrong-wrong")
        request(port, "GET", f"/nowhere?token={TOKEN}", {"Referer": f"http://x/?token={TOKEN}"})
        # every process of the server: no token on its command line
        pids = [proc.pid] + _descendants(proc.pid)
        for pid in pids:
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            assert TOKEN.encode() not in cmdline, cmdline
        ps = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
        assert TOKEN not in ps
        # the token is not inherited by kernels through COMPANION_TOKEN
        for pid in _descendants(proc.pid):
            try:
                environ = Path(f"/proc/{pid}/environ").read_bytes()
            except OSError:
                continue
            assert b"COMPANION_TOKEN=" not in environ
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        kids = _descendants(proc.pid)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        for k in kids:
            try:
                os.kill(k, signal.SIGKILL)
            except ProcessLookupError:
                pass
    text = log.read_text(errors="replace")
    assert "403" in text or "302" in text or "404" in text
    assert TOKEN not in text, [line for line in text.splitlines() if TOKEN in line]
    assert "token=<your token>" in text            # the URL is shown without the token


def _from_config(expr: str, env: dict) -> subprocess.CompletedProcess:
    """Print ``expr`` (``cfg``: notebooks/config/voila.py read the way Voila reads it, a
    traitlets config file) in a process of its own, with ``env`` over the environment:
    the config file patches Voila's classes when it is loaded."""
    code = ("import sys\n"
            "from traitlets.config.loader import PyFileConfigLoader\n"
            "from voila.execute import VoilaExecutor\n"
            "import nbformat\n"
            "cfg = PyFileConfigLoader('voila.py', path=sys.argv[1]).load_config()\n"
            f"print({expr})\n")
    base = {k: v for k, v in os.environ.items()
            if k not in ("COMPANION_KERNEL_TRANSPORT", "COMPANION_IOPUB_TIMEOUT")}
    return subprocess.run([sys.executable, "-c", code, str(CONFIG_DIR)], capture_output=True,
                          text=True, timeout=120, env={**base, **env})


def test_the_dashboard_config_waits_for_a_pages_widgets():
    """Issue 34: nbclient's 4 s wait for a cell's last output blanked pages on a busy
    laptop ("Timeout waiting for IOPub output", the display dropped); the dashboard's
    config gives Voila's executor COMPANION_IOPUB_TIMEOUT (300 s by default), and the
    executor built from it uses it (Voila's default stays 4)."""
    expr = ("VoilaExecutor(nbformat.v4.new_notebook(), config=cfg).iopub_timeout, "
            "VoilaExecutor(nbformat.v4.new_notebook()).iopub_timeout")
    for env, want in (({}, "300 4"), ({"COMPANION_IOPUB_TIMEOUT": "45"}, "45 4")):
        out = _from_config(expr, env)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == want, out.stdout


def test_the_dashboard_config_gives_kernels_local_sockets(tmp_path):
    """Issue 34: the kernels are on unix sockets in Voila's connection folder (TCP ports
    chosen before they are bound were taken on a busy machine), unless that folder's
    path is too long for a socket (107 bytes) or COMPANION_KERNEL_TRANSPORT=tcp."""
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    tcp = {"COMPANION_KERNEL_TRANSPORT": "tcp"}
    for env, want in (({"TMPDIR": "/tmp"}, "ipc"), ({"TMPDIR": "/tmp", **tcp}, "tcp"),
                      ({"TMPDIR": str(deep)}, "tcp")):
        out = _from_config("cfg.KernelManager.transport", env)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == want, (env, out.stdout)
    bad = _from_config("cfg.KernelManager.transport",
                       {"COMPANION_KERNEL_TRANSPORT": "carrier-pigeon"})
    assert bad.returncode != 0 and "must be ipc or tcp" in bad.stderr


def test_the_dashboard_config_starts_the_dashboards_kernel():
    """Issue 34: under the dashboard's config, the notebook's kernelspec (python3) is
    notebooks/config/jupyter/kernels/python3/companion_kernel.py (an IOPub socket that keeps a late page's widget messages), found
    the way Voila finds it (jupyter_client's KernelSpecManager on JUPYTER_PATH)."""
    expr = ("(lambda k: (k.argv, k.resource_dir))(__import__('jupyter_client.kernelspec', "
            "fromlist=['x']).KernelSpecManager().get_kernel_spec('python3'))")
    out = _from_config(expr, {})
    assert out.returncode == 0, out.stderr
    argv, folder = ast.literal_eval(out.stdout.strip())
    assert argv == ["python", "{resource_dir}/companion_kernel.py", "-f", "{connection_file}"]
    assert Path(folder) == CONFIG_DIR / "jupyter" / "kernels" / "python3"
    assert (Path(folder) / "companion_kernel.py").is_file()


def test_the_dashboard_config_never_culls_a_kernel_still_starting():
    """Issue 34: with a short idle timeout (the culling tests' 3 s) on a busy machine, the
    culler killed kernels that were still starting, and the page waiting for one hung on
    "Running ...".  Under the config a starting kernel is kept (up to 120 s); a dead one,
    or one that started too long ago, is culled as before."""
    code = (
        "import asyncio, logging\n"
        "from datetime import timedelta\n"
        "from jupyter_server._tz import utcnow\n"
        "from jupyter_server.services.kernels.kernelmanager import MappingKernelManager as M\n"
        "class K:\n"
        "    def __init__(s, state, age):\n"
        "        s.execution_state = state; s.last_activity = utcnow() - timedelta(seconds=age)\n"
        "        s.kernel_name = 'python3'\n"
        "        s.kernel_spec = type('S', (), {'metadata': {}})()\n"
        "class Fake:\n"
        "    cull_idle_timeout = 3; cull_busy = False; cull_connected = False\n"
        "    log = logging.getLogger('t')\n"
        "    def __init__(s, k): s._kernels = {'k': k}; s._kernel_connections = {}; s.down = []\n"
        "    async def shutdown_kernel(s, kid): s.down.append(kid)\n"
        "out = []\n"
        "for state, age in (('starting', 10), ('starting', 500), ('dead', 1)):\n"
        "    f = Fake(K(state, age))\n"
        "    asyncio.run(M.cull_kernel_if_idle(f, 'k'))\n"
        "    out.append(f.down == ['k'])\n"
        "print(out)\n")
    out = _from_config("0", {})              # the config loads (its patches are installed)
    assert out.returncode == 0, out.stderr
    base = {k: v for k, v in os.environ.items() if k != "COMPANION_KERNEL_TRANSPORT"}
    run = subprocess.run(
        [sys.executable, "-c",
         "import sys\nfrom traitlets.config.loader import PyFileConfigLoader\n"
         "PyFileConfigLoader('voila.py', path=sys.argv[1]).load_config()\n" + code,
         str(CONFIG_DIR)], capture_output=True, text=True, timeout=120, env=base)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[False, True, True]", run.stdout


def test_the_culler_forgets_what_it_kept_for_kernels_that_ended():
    """Stop 40's review: the page's address kept for a kernel until it says "received"
    (and the taken / ever-connected marks) stayed for the server's lifetime when the
    kernel ended first.  The culler's pass drops them for every kernel the manager no
    longer has, and keeps those of a kernel it still has."""
    code = (
        "import asyncio, logging\n"
        "from datetime import timedelta\n"
        "from jupyter_server._tz import utcnow\n"
        "from jupyter_server.services.kernels.kernelmanager import MappingKernelManager as M\n"
        "g = M.cull_kernel_if_idle.__globals__\n"
        "for kid in ('gone', 'k'):\n"
        "    g['_TAKEN'][kid] = 1.0; g['_UNACKED'][kid] = 'address'\n"
        "    g['EVER_CONNECTED'].add(kid)\n"
        "class K:\n"
        "    execution_state = 'idle'; kernel_name = 'python3'\n"
        "    last_activity = utcnow() - timedelta(seconds=1)\n"
        "    kernel_spec = type('S', (), {'metadata': {}})()\n"
        "class Fake:\n"
        "    cull_idle_timeout = 600; cull_busy = False; cull_connected = False\n"
        "    log = logging.getLogger('t')\n"
        "    def __init__(s): s._kernels = {'k': K()}; s._kernel_connections = {'k': 1}\n"
        "    async def shutdown_kernel(s, kid): raise AssertionError(kid)\n"
        "asyncio.run(M.cull_kernel_if_idle(Fake(), 'k'))\n"
        "print(sorted(g['_TAKEN']), sorted(g['_UNACKED']), sorted(g['EVER_CONNECTED']))\n")
    base = {k: v for k, v in os.environ.items() if k != "COMPANION_KERNEL_TRANSPORT"}
    run = subprocess.run(
        [sys.executable, "-c",
         "import sys\nfrom traitlets.config.loader import PyFileConfigLoader\n"
         "PyFileConfigLoader('voila.py', path=sys.argv[1]).load_config()\n" + code,
         str(CONFIG_DIR)], capture_output=True, text=True, timeout=120, env=base)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "['k'] ['k'] ['k']", run.stdout
