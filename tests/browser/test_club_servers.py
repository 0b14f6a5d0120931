"""Issue 26 in a real browser: a club, two dashboard servers on one PostgreSQL.

ONE PostgreSQL (tests/pgserver_fixture.py, a fresh database) and TWO Voila servers on two
ports, both with ``COMPANION_DATABASE_URL`` pointing at that database and each with its
own COMPANION_HOME (two machines).  A game is started on server A's host page; server B
opens it on Ben's seat (a phone, 390x844) and the table view.  Then:

- an action entered on A shows on B's pages (the delay is measured and printed; the
  1 s target is bench/bench_club.py's, this test allows a loaded 2-core machine);
- Ben's action and his undo on B show on A;
- B's seat loses its network, A enters an action, the network comes back: B catches up;
- the table view on B shows no control that writes, and a write forced through it is
  refused in one line (the role holds on the other server);
- a wrong entry on B (a discard without a card) gets one clear line, nothing stored;
- the database's record holds exactly the actions entered, each for its player.

A second test plays Small Star Empires the same way: Ann's seat on A (a phone), Bob's
seat and the table view on B; each move and Bob's undo show on the other server.

Screenshots: tests/artifacts/club-*.png.
"""
from __future__ import annotations

import os
import signal
import time

import pytest
from playwright.sync_api import expect

from browser_harness import VoilaServer, screenshot
from dashboard_driver import (PHONE, ats_enter, ats_shows, fill_names, open_page,
                              says_not_connected, is_live, live_line,
                              writing_controls)
from companion.ats.game import Game
from companion.table.backends import open_store
from test_store_limits import _server_processes

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

PLAYERS = ["Ana", "Ben", "Cleo"]
#: "shows within": generous for two servers, three pages and PostgreSQL on 2 shared
#: cores; the issue's 1 s is measured by bench/bench_club.py
LIVE_MS = 10_000
TABLE_REFUSAL = "The table view records nothing: enter actions on a player's page."


@pytest.fixture(autouse=True)
def shadow_home(tmp_path, monkeypatch):
    home = tmp_path / "shadow-home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))


@pytest.fixture
def club(pg_url, tmp_path):
    """Two Voila servers ("machines" A and B) on one PostgreSQL database."""
    # as ./dashboard runs them (the page template: its watchdog says "not connected"),
    # one preheated kernel each (2 cores)
    env = {"COMPANION_DATABASE_URL": pg_url, "COMPANION_POOL_SIZE": "1"}
    servers = []
    try:
        for name in ("a", "b"):
            s = VoilaServer(home=tmp_path / f"home-{name}", workdir=tmp_path / f"voila-{name}",
                            env=env, config=True)
            servers.append(s)
            s.start()
        yield servers[0], servers[1], pg_url
    finally:
        for s in servers:
            s.cleanup()


@pytest.fixture
def pages(chromium):
    contexts: list = []
    opened: list = []

    def opener(url, *, viewport=None, ready=".live-state"):
        p = open_page(chromium, url, viewport=viewport, contexts=contexts, ready=ready)
        opened.append(p)
        return p
    yield opener
    errors = [e for p in opened for e in p.errors]
    for ctx in contexts:
        ctx.close()
    assert errors == [], f"JavaScript error(s) in the pages: {errors}"


def stored(url, gid) -> Game:
    s = open_store(url)
    try:
        return Game.from_record(s.load(gid), trusted=True)
    finally:
        s.close()


def wait_stored(url, gid, n, timeout=15.0) -> Game:
    deadline = time.monotonic() + timeout
    g = stored(url, gid)
    while len(g.actions) != n and time.monotonic() < deadline:
        time.sleep(0.1)
        g = stored(url, gid)
    assert len(g.actions) == n, f"the database holds {len(g.actions)} actions, not {n}"
    return g


def shows_within(page, g, what: str, since: float) -> float:
    """Wait until ``page`` shows the shadow game; return (and print) the seconds since
    ``since`` (taken when the click was made)."""
    ats_shows(page, g, timeout=LIVE_MS)
    dt = time.monotonic() - since
    print(f"club: {what}: shown {dt:.2f} s after the click")
    return dt


def clicked(page, g, *args) -> float:
    """Enter an action (dashboard_driver.ats_enter); the time its last click was made."""
    ats_enter(page, g, *args)
    return time.monotonic()


def test_two_servers_one_postgresql(club, pages, pg_server):
    a, b, url = club
    assert a.port != b.port and a.home != b.home
    # ---- server A: the host page (a laptop) starts a game in the club database
    host = pages(a.url, ready=".start-game")
    fill_names(host, PLAYERS)
    host.click(".start-game")
    expect(host.locator(".companion-status")).to_contain_text("New game started")
    s = open_store(url)
    try:
        games = s.games(format=None)
    finally:
        s.close()
    assert len(games) == 1, games
    gid = games[0]["id"]
    g = stored(url, gid)               # the shadow game: the record the page stored
    assert g.actions == [] and list(g.setup.players) == PLAYERS
    # neither server wrote a saved-games file of its own: the games are in PostgreSQL
    assert not (a.home / "games.sqlite").exists()
    assert not (b.home / "games.sqlite").exists()

    # ---- server B: Ben's seat on a phone, the table view on the laptop
    ben = pages(f"{b.url}?seat=Ben&game={gid}", viewport=PHONE)
    table = pages(f"{b.url}?view=table&game={gid}")
    for p in (host, ben, table):
        ats_shows(p, g, timeout=60_000)
    is_live(ben, timeout=30_000)
    expect(ben.locator(".seat-score")).to_contain_text("Ben · 0 VP")
    screenshot(host, "club-01-a-host")
    screenshot(ben, "club-01-b-ben-phone")
    screenshot(table, "club-01-b-table")

    # ---- an action on A shows on B's pages
    t = clicked(host, g, "Ana", "discard", "Garden")
    delays = [shows_within(ben, g, "A's action on B's seat", t),
              shows_within(table, g, "A's action on B's table view", t)]
    assert wait_stored(url, gid, 1).actions == g.actions
    # ---- Ben's action on B shows on A; his undo on B too
    t = clicked(ben, g, "Ben", "discard", "U-Cannon")
    delays.append(shows_within(host, g, "B's action on A's host", t))
    shows_within(table, g, "B's action on B's table view", t)
    screenshot(ben, "club-02-b-ben-after-action")
    ben.click(".undo")
    ben.click(".undo-yes")
    t = time.monotonic()
    g.pop()
    delays.append(shows_within(host, g, "B's undo on A's host", t))
    shows_within(ben, g, "B's undo on B's seat", t)
    assert wait_stored(url, gid, 1).actions == g.actions
    print(f"club: delays across servers (s): {', '.join(f'{d:.2f}' for d in delays)}")

    # ---- B's phone loses its network; A enters Cleo's action; the network comes back
    ben.context.set_offline(True)
    says_not_connected(ben)
    screenshot(ben, "club-03-b-ben-offline")
    t = clicked(host, g, "Cleo", "discard", "Garden")
    ats_shows(host, g, timeout=LIVE_MS)
    shows_within(table, g, "A's action on B's table view (Ben's phone offline)", t)
    assert wait_stored(url, gid, 2).actions == g.actions
    # the phone heard nothing meanwhile: it still shows one action, and says it is cut off
    ben.wait_for_timeout(1500)          # several of its kernel's polls
    behind = live_line(ben).inner_text()
    print(f"club: B's seat while offline: {behind!r}")
    assert "actions: 1" in behind and "not connected" in behind, behind
    ben.context.set_offline(False)
    t0 = time.monotonic()
    is_live(ben)
    ats_shows(ben, g)
    print(f"club: B's seat caught up {time.monotonic() - t0:.2f} s after its network was back")
    screenshot(ben, "club-04-b-ben-back")

    # ---- the table view on B: nothing that writes (its role holds on server B too)
    assert writing_controls(table) == []
    expect(table.locator(".turn-entry")).to_be_hidden()
    expect(table.locator(".undo")).to_be_hidden()
    # ... and a discard forced through its hidden entry reaches its session on server B,
    # which refuses it in one line: nothing reaches the club database
    table.evaluate("""() => { const el = document.querySelector('.entry-card input');
        el.value = 'Garden';
        for (const ev of ['input', 'change']) el.dispatchEvent(new Event(ev, {bubbles: true}));
    }""")
    table.locator(".do-discard").dispatch_event("click")
    expect(table.locator(".companion-status")).to_contain_text(TABLE_REFUSAL)
    assert "Traceback" not in table.locator(".companion-status").inner_text()
    screenshot(table, "club-05-b-table-refused")
    assert wait_stored(url, gid, 2).actions == g.actions

    # ---- a wrong entry on B: a discard without a card's name; one line, nothing stored
    assert ben.locator(".entry-player select").input_value() == "Ben"
    ben.locator(".entry-action button", has_text="Discard for 3 credits").click()
    ben.fill(".entry-card input", "")
    ben.click(".do-discard")
    err = ben.locator(".companion-status .status-error")
    expect(err).to_contain_text("Type the discarded card's name first")
    assert "Traceback" not in ben.locator("body").inner_text()
    screenshot(ben, "club-06-b-ben-wrong-entry")
    # then Ben's real action on B finishes the turn, and A shows it
    t = clicked(ben, g, "Ben", "discard", "Garden")
    shows_within(host, g, "B's action on A's host (end of turn)", t)
    expect(host.locator(".turn-info")).to_contain_text("Turn 2")

    # ---- the database server stops (SIGSTOP, issue 35): "a message within 10 s, the page
    # says it is not connected, nothing lost"; an entry made meanwhile is not saved, and
    # says so; after SIGCONT both servers' pages are live again without a reload
    pids = _server_processes(pg_server[0])
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        for p in (host, ben):
            expect(live_line(p)).to_contain_text("not connected to the games' store",
                                                 timeout=12_000)
            expect(live_line(p).locator(".live-on")).to_be_hidden()
        said = time.monotonic() - t0
        expect(host.locator(".companion-status")).to_contain_text("cannot be reached")
        screenshot(host, "club-07-a-host-database-stopped")
        screenshot(ben, "club-07-b-ben-database-stopped")
        host_kernel = host.evaluate("window.jupyterapp.widgetManager.kernel.id")
        # an entry while it is stopped: one line, not saved (a write waits for the
        # answer limit), the entry kept; the shadow game does not take it
        host.select_option(".entry-player select", "Ben")
        host.locator(".entry-action button", has_text="Discard for 3 credits").click()
        host.fill(".entry-card input", "Garden")
        host.click(".do-discard")
        expect(host.locator(".companion-status .status-error")).to_contain_text(
            "Not saved", timeout=20_000)
        assert "Traceback" not in host.locator("body").inner_text()
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)
    print(f"club: the stopped database said on both servers' pages within {said:.1f} s")
    assert said < 12
    for p in (host, ben):
        expect(live_line(p)).not_to_contain_text("games' store", timeout=20_000)
        is_live(p)
    assert host.evaluate("window.jupyterapp.widgetManager.kernel.id") == host_kernel
    screenshot(host, "club-08-a-host-database-back")
    assert wait_stored(url, gid, 3).actions == g.actions      # nothing lost, nothing added

    # ---- the club database holds exactly what was entered, each for its player
    final = wait_stored(url, gid, len(g.actions))
    assert [(x["player"], x["do"], x["card"]) for x in final.actions] == \
        [("Ana", "discard", "Garden"), ("Cleo", "discard", "Garden"), ("Ben", "discard", "Garden")]
    assert final.actions == g.actions


# ------------------------------------------------------------------- Small Star Empires
SSE_SETUP = {"players": ["Ann", "Bob"], "map": "basic-2p", "pieces": {"ships": 2}}


def test_small_star_empires_across_two_servers(club, pages):
    """Ann's seat on server A (a phone), Bob's seat and the table view on server B: each
    move shows on the other server's pages, Bob's undo on B shows on A."""
    from companion.sse import SseGame
    from test_sse import hexbtn, pick, settle, wait_legal

    a, b, url = club
    s = open_store(url)
    try:
        gid = s.create(SseGame(SSE_SETUP).to_record(), title="club sse")
    finally:
        s.close()
    ready = ".sse-play .live-state"
    ann = pages(f"{a.url}?seat=Ann&game={gid}", viewport=PHONE, ready=ready)
    bob = pages(f"{b.url}?seat=Bob&game={gid}", ready=ready)
    table = pages(f"{b.url}?view=table&game={gid}", ready=ready)
    g = SseGame(SSE_SETUP)

    def shows(page, since=None, what=""):
        expect(page.locator(".sse-play .live-state")).to_contain_text(
            f"actions: {len(g.actions)}", timeout=LIVE_MS)
        settle(page, g)
        if since is not None:
            print(f"club sse: {what}: shown {time.monotonic() - since:.2f} s after the click")

    def move(page):
        player = g.current
        hexbtn(page, g.state.players[player].ships[0].at).click()
        wait_legal(page, g.legal_destinations(player, 0, piece="city"))
        to = pick(g, 0)
        hexbtn(page, to).click()
        g.push({"player": player, "ship": 0, "to": list(to), "piece": "city"})
        return time.monotonic()

    for p in (ann, bob, table):
        shows(p)
    expect(table.locator(".sse-entry")).to_be_hidden()
    expect(table.locator(".sse-undo")).to_be_hidden()
    t = move(ann)                                   # Ann on server A
    shows(bob, t, "Ann's move on A, on B's seat")
    shows(table, t, "Ann's move on A, on B's table view")
    t = move(bob)                                   # Bob on server B
    shows(ann, t, "Bob's move on B, on A's seat")
    screenshot(ann, "club-sse-01-a-ann-phone")
    screenshot(table, "club-sse-01-b-table")
    bob.click(".sse-undo")                          # Bob undoes his move on B
    bob.click(".sse-undo-yes")
    t = time.monotonic()
    g.pop()
    for p in (ann, table):
        shows(p, t, "Bob's undo on B")
    expect(ann.locator(".sse-play .live-note")).to_contain_text("undone: Bob moved ship 0")
    final = open_store(url)
    try:
        assert final.load(gid)["actions"] == g.actions
    finally:
        final.close()
