"""The dashboard's server over a long evening, and its start and stop (issue 50).

"'Too many pages are open' after 35 minutes: phones that close without unloading keep
their kernel up to 20 minutes; a page whose link was re-issued cannot shut its kernel
(403); the cap of 24 was reached after about 20 page opens and the server had to be
restarted."  And: "'Notebook companion.ipynb is not trusted' on every page load; SIGTERM
prints 4 ZMQError tracebacks; a restart within a minute fails 'port already in use';
a revoked or damaged link lands on Jupyter's login page."

A real Voila server with the dashboard's configuration (notebooks/config/voila.py), the
token in force, and plain HTTP + websocket clients doing what a phone's page does: GET
the page (its kernel runs the notebook), connect the kernel's websocket, then keep it,
drop it without a word (a phone closed without unloading), or reload.  The culler's
timings are short here (COMPANION_DISCONNECTED_SECONDS, COMPANION_CULL_INTERVAL, ...).
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from soak import soak_size

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from browser_harness import VoilaServer, free_port  # noqa: E402
from test_server import (TOKEN, _dashboard, in_own_thread, kernel_pids, open_page,  # noqa: E402
                         request, server, wait_for)

__all__ = ["server"]                      # the fixture, reused

DEAD_LINK = "This link no longer works: ask the host for its new code"
#: pages opened and dropped over the simulated evening (200 with COMPANION_SOAK=1).  By
#: default 32: the five held pages and 27 more, every kind of going at least six times
#: (the dead pages, counted as before issue 50, would meet the cap of 8 at the ninth
#: page); each page starts a real kernel, about 1.3 CPU-seconds (issue 51: 60 took 86)
PAGES = soak_size(32, 200)


def _log(s) -> str:
    return s.log_path.read_text(errors="replace")


class Caps:
    """The server's capabilities file, written as the host's page writes it."""

    def __init__(self, home: Path):
        self.home = home

    def __call__(self, fn, *args, **kw):
        old = os.environ.get("COMPANION_HOME")
        os.environ["COMPANION_HOME"] = str(self.home)
        try:
            from companion.table import capabilities
            return getattr(capabilities, fn)(*args, **kw)
        finally:
            if old is None:
                os.environ.pop("COMPANION_HOME", None)
            else:
                os.environ["COMPANION_HOME"] = old


def _game(home: Path) -> str:
    from companion.ats.game import Game
    from companion.table.store import Store
    store = Store(path=home / "games.sqlite")
    try:
        return store.create(Game({"players": ["Ana", "Ben", "Cy", "Di"]}).to_record(),
                            title="evening")
    finally:
        store.close()


class Page:
    """One page as a browser holds it: its kernel and its kernel websocket."""

    def __init__(self, kid: str, cookie: str, ws):
        self.kid, self.cookie, self.ws = kid, cookie, ws


async def _open(port: int, query: str) -> tuple[int, str, Page | None]:
    """GET /?query, then the page's kernel websocket (kept open): (status, body, page)."""
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect
    client = AsyncHTTPClient()
    try:
        resp = await client.fetch(HTTPRequest(f"http://127.0.0.1:{port}/?{query}",
                                              request_timeout=300, follow_redirects=False))
    except HTTPClientError as e:
        body = e.response.body.decode(errors="replace") if e.response is not None else ""
        return e.code, body, None
    body = resp.body.decode(errors="replace")
    m = re.search(r'"kernelId": "([0-9a-f-]+)"', body)
    assert m, body[:300]
    kid = m.group(1)
    cookies = [v.split(";", 1)[0] for k, v in resp.headers.get_all()
               if k.lower() == "set-cookie"]
    cookie = "; ".join(cookies)
    ws = await _socket(port, kid, cookie)
    return resp.code, body, Page(kid, cookie, ws)


async def _socket(port: int, kid: str, cookie: str):
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect
    req = HTTPRequest(f"ws://127.0.0.1:{port}/api/kernels/{kid}/channels"
                      f"?session_id={uuid.uuid4().hex}",
                      headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"})
    ws = await asyncio.wait_for(websocket_connect(req), 60)
    # as the page does: ask the kernel something, so the socket is really through
    ws.write_message(_kernel_info())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        raw = await asyncio.wait_for(ws.read_message(), 60)
        if raw is None or (isinstance(raw, str)
                           and json.loads(raw).get("msg_type") == "kernel_info_reply"):
            break
    # and reads everything that comes, as a page does (tornado's client holds one message:
    # unread, it stops reading the socket, pings included, and the server takes it for gone)
    _DRAINS.add(asyncio.ensure_future(_drain(ws)))
    return ws


_DRAINS: set = set()


async def _drain(ws) -> None:
    try:
        while await ws.read_message() is not None:
            pass
    except Exception:                              # noqa: BLE001 - the socket went
        pass


def _alive(s, kid: str) -> bool:
    """Whether the server still has kernel ``kid`` (its log has not said it ended)."""
    return f"Kernel shutdown: {kid}" not in _log(s)


# ---------------------------------------------------------------------------
# the evening: pages come and go, the cap is never met
# ---------------------------------------------------------------------------
@pytest.mark.soak
def test_an_evening_of_pages_never_meets_too_many_pages(server):
    """Done when (issue 50): "a test opens and drops 200 pages over a simulated evening
    (closed without unload, re-issued, reloaded) and never meets 'Too many pages'".

    A cap of 8 kernels (the pool's 2 included): with dead pages counted, as before, the
    ninth page of the evening met it.  Four phones hold their seats and the TV its view
    all evening; every step opens one more page: a phone closed without unloading (its
    socket just goes), a phone reloading its seat (a new page for the same link while the
    old one is still connected), a seat re-issued by the host while its old page is
    open, a phone that sleeps a moment and reconnects (its kernel is kept)."""
    cap = 8
    s = server(env={"COMPANION_TOKEN": TOKEN, "COMPANION_MAX_KERNELS": str(cap),
                    "COMPANION_DISCONNECTED_SECONDS": "3", "COMPANION_REVOKED_SECONDS": "0",
                    "COMPANION_CULL_INTERVAL": "2", "COMPANION_CULL_IDLE": "1200",
                    # this client sends nothing on a held page's socket (a page's watchdog
                    # pings every 2 s): silent 4 s, a page is no longer live
                    "COMPANION_LIVE_PAGE_SECONDS": "4"})
    gid = _game(s.home)
    caps = Caps(s.home)
    players = ["Ana", "Ben", "Cy", "Di"]
    secret = {p: caps("seat", gid, p).secret for p in players}
    view = caps("view").secret
    assert wait_for(lambda: "is filled with" in _log(s), timeout=120), s.log_tail()
    statuses: list[int] = []
    kept_alive: list[str] = []
    peak = 0

    async def evening():
        nonlocal peak
        held: dict[str, Page] = {}
        tv_status, _, tv = await _open(s.port, f"view=table&cap={view}")
        statuses.append(tv_status)
        for p in players:
            st, _, held[p] = await _open(s.port, f"cap={secret[p]}")
            statuses.append(st)
        i = -1
        while len(statuses) < PAGES:
            i += 1
            p = players[(i // 4) % 4]
            kind = ("closed", "reloaded", "reissued", "asleep")[i % 4]
            if kind == "closed":
                # a phone opens the table's view and goes away without unloading
                st, body, page = await _open(s.port, f"view=table&cap={view}")
                statuses.append(st)
                if page is not None:
                    page.ws.close()
            elif kind == "reloaded":
                # the phone reloads its seat: the new page comes while the old one is
                # still connected; then the old one's socket goes (no beacon)
                old = held[p]
                st, body, held[p] = await _open(s.port, f"cap={secret[p]}")
                statuses.append(st)
                old.ws.close()
            elif kind == "reissued":
                # the host gives the seat a new link (a borrowed phone); the old page
                # stays open: the server ends its kernel; the phone opens the new link
                old, old_secret = held[p], secret[p]
                secret[p] = caps("reissue", gid, p).secret
                st, body, held[p] = await _open(s.port, f"cap={secret[p]}")
                statuses.append(st)
                if i % 8 == 2:
                    # the old link opened again: the companion's own page
                    st_old, body_old, _ = await _open(s.port, f"cap={old_secret}")
                    assert st_old == 403 and DEAD_LINK in body_old, (st_old, body_old[:300])
                old.ws.close()
            else:
                # a phone sleeps a moment: its socket goes and comes back within the
                # grace (DISCONNECTED_SECONDS): its kernel is kept
                page = held[p]
                page.ws.close()
                await asyncio.sleep(1)
                page.ws = await _socket(s.port, page.kid, page.cookie)
                kept_alive.append(page.kid)
            if statuses[-1] != 200:
                break
            peak = max(peak, len(kernel_pids(s)))
        # the live pages are still there at the end, the TV's too
        return held, tv

    held, tv = in_own_thread(asyncio.run, evening())
    log = _log(s)
    assert "Too many pages" not in log
    assert set(statuses) == {200}, [(i, st) for i, st in enumerate(statuses) if st != 200][:5]
    assert len(statuses) == PAGES, len(statuses)
    # every way a page went is the server's doing: gone sockets, replaced, re-issued
    # a page closed late in the evening is ended DISCONNECTED_SECONDS (3) after its
    # socket went, at the culler's next look (2 s): the log may say it a moment later
    assert wait_for(lambda: "its page's socket closed" in _log(s), timeout=30), s.log_tail()
    log = _log(s)
    assert "a new page for the same link took" in log
    assert "its page's link was re-issued" in log or "a new page for the same link" in log
    assert peak <= cap + 2, peak                 # (kernels ending while others start)
    # a phone that slept a moment kept its kernel, unless it was replaced later
    assert all(_alive(s, kid) for kid in {h.kid for h in held.values()}), s.log_tail()
    assert _alive(s, tv.kid), [line for line in log.splitlines() if tv.kid in line]
    # at rest: the pool, the four phones and the TV; the dropped pages are gone
    assert wait_for(lambda: len(kernel_pids(s)) <= 2 + 5, timeout=60), len(kernel_pids(s))
    assert "Traceback" not in _log(s), s.log_tail(80)


def test_a_dropped_page_is_freed_within_two_minutes_with_the_default_timings(server):
    """ "a page whose socket has gone is freed within 2 minutes", with the dashboard's
    own timings (COMPANION_DISCONNECTED_SECONDS 75, the culler every 20 s): not at once
    (a phone that sleeps a moment keeps its kernel), and well before the idle culler's
    20 minutes."""
    s = server(env={"COMPANION_CULL_INTERVAL": "20", "COMPANION_CULL_IDLE": "1200"})
    assert wait_for(lambda: "is filled with" in _log(s), timeout=120), s.log_tail()
    kid = open_page(s.port, close="none")
    gone = time.monotonic()
    time.sleep(40)
    assert _alive(s, kid)                      # a short sleep keeps the page's kernel
    assert wait_for(lambda: not _alive(s, kid), timeout=120 - 40), s.log_tail()
    took = time.monotonic() - gone
    assert 55 < took < 120, took
    assert "its page's socket closed" in _log(s)


def test_a_new_page_for_a_seat_replaces_the_old_and_the_tv_views_do_not(server):
    """ "a new page for the same link replaces the old one's kernel" (here the old page's
    socket is still connected but its kernel has heard nothing from it for
    COMPANION_LIVE_PAGE_SECONDS: a phone whose tab was closed without a word, seen
    connected until the server's ping times out); the table view's capability is every
    watching device's (the TV, a spectator): its pages stay.  A page still live (its
    watchdog pings its kernel every 2 s) is not replaced: two tabs open on one link
    would otherwise end each other by turns."""
    s = server(env={"COMPANION_TOKEN": TOKEN, "COMPANION_DISCONNECTED_SECONDS": "600",
                    "COMPANION_LIVE_PAGE_SECONDS": "2"})
    gid = _game(s.home)
    caps = Caps(s.home)
    ana, view = caps("seat", gid, "Ana").secret, caps("view").secret
    assert wait_for(lambda: "is filled with" in _log(s), timeout=120), s.log_tail()

    async def go():
        _, _, first = await _open(s.port, f"cap={ana}")
        _, _, tv1 = await _open(s.port, f"view=table&cap={view}")
        _, _, tv2 = await _open(s.port, f"view=table&cap={view}")
        await asyncio.sleep(3)
        _, _, second = await _open(s.port, f"cap={ana}")
        # a live page: its kernel hears from it all the time (as the watchdog's pings)
        pinger = asyncio.ensure_future(_keep_pinging(second.ws))
        await asyncio.sleep(3)
        _, _, third = await _open(s.port, f"cap={ana}")
        pinger.cancel()
        # the host's token opens a seat per player (a laptop with a tab for each player
        # who has no phone; bench_devices: two seats at once): seat=Ana and seat=Ben are two
        # links, so the second never ends the first, not even a first not heard from for
        # LIVE_PAGE_SECONDS (seen: the first of two seat pages opened at once was ended
        # while it loaded, and its watchdog reloaded it 45 s later); seat=Ana again is the
        # same link and replaces it
        host = f"token={TOKEN}&game={gid}"
        _, _, host_ana = await _open(s.port, f"{host}&seat=Ana")
        await asyncio.sleep(3)
        _, _, host_ben = await _open(s.port, f"{host}&seat=Ben")
        _, _, host_view = await _open(s.port, f"{host}&view=table")
        await asyncio.sleep(3)
        _, _, host_ana2 = await _open(s.port, f"{host}&seat=Ana")
        return first, second, third, tv1, tv2, (host_ana, host_ben, host_view, host_ana2)

    first, second, third, tv1, tv2, hosts = in_own_thread(asyncio.run, go())
    host_ana, host_ben, host_view, host_ana2 = hosts
    assert wait_for(lambda: not _alive(s, host_ana.kid), timeout=30), s.log_tail()
    assert f"ending kernel {host_ana.kid}: a new page for the same link took " \
        f"{host_ana2.kid}" in _log(s)
    assert _alive(s, host_ben.kid) and _alive(s, host_view.kid) and _alive(s, host_ana2.kid)
    assert f"took {host_ben.kid}" not in _log(s) and f"took {host_view.kid}" not in _log(s)
    assert wait_for(lambda: not _alive(s, first.kid), timeout=30), s.log_tail()
    assert f"ending kernel {first.kid}: a new page for the same link took {second.kid}" \
        in _log(s)
    time.sleep(2)
    assert _alive(s, second.kid) and _alive(s, third.kid), "\n".join(x for x in _log(s).splitlines() if second.kid in x or "ending" in x)
    assert _alive(s, tv1.kid) and _alive(s, tv2.kid)


def _kernel_info() -> str:
    """A kernel_info_request, as a page's watchdog sends its kernel."""
    return json.dumps({
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": "kernel_info_request",
                   "username": "t", "session": uuid.uuid4().hex, "version": "5.3",
                   "date": ""},
        "parent_header": {}, "metadata": {}, "content": {}, "channel": "shell",
        "buffers": []})


async def _keep_pinging(ws) -> None:
    while True:
        ws.write_message(_kernel_info())
        await asyncio.sleep(0.5)


# ---------------------------------------------------------------------------
# a dead link: the companion's own page
# ---------------------------------------------------------------------------
def test_a_revoked_seat_link_and_a_garbage_token_land_on_the_companions_page(server):
    """ "a dead link (revoked capability, damaged token) lands on the companion's own
    page ('This link no longer works: ask the host for its new code'), not Jupyter's
    login page"; no kernel is started for it, and the old link's open page is ended."""
    s = server(env={"COMPANION_TOKEN": TOKEN, "COMPANION_REVOKED_SECONDS": "0",
                    "COMPANION_CULL_INTERVAL": "2"})
    gid = _game(s.home)
    caps = Caps(s.home)
    old = caps("seat", gid, "Ana").secret
    assert wait_for(lambda: "is filled with" in _log(s), timeout=120), s.log_tail()
    _, _, page = in_own_thread(asyncio.run, _open(s.port, f"cap={old}"))
    kid = page.kid
    new = caps("reissue", gid, "Ana").secret
    assert new != old
    started = _log(s).count("Kernel started")
    for query in (f"cap={old}", f"cap={old[:-3]}zzz", "token=garbage-garbage-garbage",
                  f"token={TOKEN[:-1]}", f"cap={old}&seat=Ana&game={gid}"):
        status, headers, body = request(s.port, "GET", "/?" + query)
        text = body.decode()
        assert status == 403 and DEAD_LINK in text, (query, status, text[:300])
        assert "Setup a Password" not in text and "login" not in dict(headers).get(
            "Location", "")
        assert TOKEN not in text and old not in text
    # the open page of the re-issued link is ended by the server (its own beacon is refused)
    assert wait_for(lambda: not _alive(s, kid), timeout=30), s.log_tail()
    assert "its page's link was re-issued" in _log(s)
    assert _log(s).count("Kernel started") <= started + 1       # the pool's refill only
    # the new link works
    assert request(s.port, "GET", f"/?cap={new}")[0] == 200


# ---------------------------------------------------------------------------
# start and stop
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_server_stops_without_a_traceback_and_restarts_on_its_port(tmp_path, sig):
    """ "Ctrl-C and SIGTERM end without a traceback; a restart takes the same port at
    once"; "the address printed is the one to open; no 'not trusted' lines".  Through
    ./dashboard --lan as a host runs it, a page open and its socket connected when the
    signal comes (Ctrl-C in a terminal signals the server's process)."""
    port = free_port()
    env = _dashboard(tmp_path, env={"COMPANION_TOKEN": TOKEN, "COMPANION_POOL_SIZE": "2"})
    logs = []

    def start():
        log = tmp_path / f"dashboard{len(logs)}.log"
        logs.append(log)
        with open(log, "w") as fh:
            proc = subprocess.Popen([str(ROOT / "dashboard"), "--lan", "--port", str(port)],
                                    env=env, stdout=fh, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)

        def ready():
            try:
                return request(port, "GET", f"/voila/static/voila.js?token={TOKEN}",
                               timeout=2)[0] == 200
            except OSError:
                return False
        assert wait_for(ready, timeout=90, step=0.2), log.read_text()
        return proc

    def stop(proc):
        os.kill(proc.pid, sig)                  # the server's own process, as a terminal does
        try:
            assert proc.wait(timeout=30) == 0
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)

    proc = start()
    try:
        assert wait_for(lambda: "is filled with" in logs[0].read_text(), timeout=120)
        open_page(port, close="none", token=TOKEN)
        # a connection left open, so that closing it leaves the port in TIME_WAIT
        held = socket.create_connection(("127.0.0.1", port))
        held.sendall(f"GET /voila/static/voila.js?token={TOKEN} HTTP/1.1\r\n"
                     f"Host: 127.0.0.1:{port}\r\n\r\n".encode())
        held.recv(100)
        stop(proc)
        held.close()
        proc = start()                          # at once, on the same port
        stop(proc)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    for log in logs:
        text = log.read_text(errors="replace")
        assert "Traceback" not in text and "ZMQError" not in text, text[-3000:]
        assert "not trusted" not in text
        assert "companion: the server has stopped" in text
        # Voila's own address line names this machine and "[token]": not one to open
        assert "?token=[token]" not in text and "open the address printed above" in text
        assert f"http://127.0.0.1:{port}/?token=" in text      # the dashboard's own
    assert "already in use" not in logs[1].read_text()


def test_a_page_load_logs_no_trust_warning(server):
    s = server()
    assert request(s.port, "GET", "/")[0] == 200
    log = _log(s)
    assert "Kernel started" in log and "not trusted" not in log


def test_a_port_left_in_time_wait_is_free_for_the_next_server():
    """ "a restart within a minute fails 'port already in use'": the server's closed
    connections stay in TIME_WAIT for a minute, and ./dashboard's check bound the port
    without SO_REUSEADDR (which the server itself sets).  The check now binds as the
    server does: the port is free; one still listening is not."""
    from companion.dashboard import port_free
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = listener.accept()
    assert not port_free("127.0.0.1", port)          # a server still listening
    accepted.close()                                 # the server closes first: TIME_WAIT
    listener.close()
    client.close()
    plain = socket.socket()
    with pytest.raises(OSError):                     # what the old check did
        plain.bind(("127.0.0.1", port))
    plain.close()
    assert port_free("127.0.0.1", port)
