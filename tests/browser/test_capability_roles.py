"""Issue 35, "A role is a capability, not an address", in a real browser under a token
(as ``./dashboard --lan`` serves: notebooks/config/voila.py, preheated kernels).

The issue's test: "A browser test with ``--lan``: a phone that joined through Ana's seat
link opens the plain address, ``?seat=Ben``, ``?view=table`` and ``?game=<another
game>``: it never gets more than Ana's seat in Ana's game; every write forced through
its page's session beyond that is refused in one line.  The host re-issues Ana's link
and the old one stops working."

Two Among the Stars games that Ana and Ben both play (G1, and G2 the most recent).  The
host's page (the laptop, opened with the token) gives out Ana's link in its join panel;
a phone context opens it, then every other address; the host sees Ana joined, re-issues
her link, and the old link, the old phone's login cookie and the page still open on it
stop working.  The capability logic without a browser: tests/test_capabilities.py.
"""
from __future__ import annotations

import re
import shutil
import time

import pytest
from playwright.sync_api import expect

from browser_harness import WIDGET_TIMEOUT_MS, VoilaServer, free_port, screenshot
from dashboard_driver import PHONE, stored_actions, wait_taking_entries, writing_controls
from companion.ats.game import Game
from companion.table.store import Store

pytestmark = pytest.mark.browser

TOKEN = "Tok-" + "x7Qm2Lp9Zr4Vb8Nc1Hd6"
PLAYERS = ["Ana", "Ben"]
TABLE_REFUSAL = "The table view records nothing: enter actions on a player's page."
REISSUED = "This page's link no longer works"


@pytest.fixture
def lan_server(tmp_path):
    """Voila as ./dashboard --lan runs it: the token in force, the address the join
    panel gives (COMPANION_PUBLIC_URL), two preheated kernels."""
    port = free_port()
    server = VoilaServer(home=tmp_path / "home", workdir=tmp_path / "voila", port=port,
                         config=True, env={
                             "COMPANION_TOKEN": TOKEN, "COMPANION_POOL_SIZE": "2",
                             # the old page's kernel is ended by the server after its
                             # link is re-issued (issue 50); here it first refuses an entry
                             "COMPANION_REVOKED_SECONDS": "300",
                             "COMPANION_PUBLIC_URL": f"http://127.0.0.1:{port}/"})
    store = Store(path=server.home / "games.sqlite")
    try:
        g1 = store.create(Game({"players": PLAYERS}).to_record(), title="caps: G1")
        time.sleep(0.01)
        g2 = store.create(Game({"players": PLAYERS}).to_record(), title="caps: G2")
    finally:
        store.close()
    server.start()
    try:
        yield server, g1, g2
    finally:
        server.cleanup()
        shutil.rmtree(tmp_path / "voila", ignore_errors=True)


def context(chromium):
    ctx = chromium.new_context(viewport=PHONE)
    ctx.set_default_timeout(WIDGET_TIMEOUT_MS)
    return ctx


def visit(page, url: str) -> None:
    """Open ``url`` and wait for the page's game screen (its live line)."""
    page.goto(url, timeout=90_000)
    page.locator(".live-state").first.wait_for(state="attached", timeout=90_000)
    page.locator(".companion-root.role-host, .companion-root.role-seat, "
                 ".companion-root.role-table").first.wait_for(state="attached", timeout=90_000)


def what(page) -> dict:
    """What the page is: its role (the root's class), its seat's score line, its game."""
    return page.evaluate("""() => {
        const root = document.querySelector('.companion-root');
        const role = ['host', 'seat', 'table'].find(r => root.classList.contains('role-' + r));
        const seat = document.querySelector('.seat-score');
        const shown = seat && seat.offsetParent !== null ? seat.innerText.trim() : '';
        const line = document.querySelector('.live-line[data-game]');
        return {role, seat: shown.split(/\\s/)[0] || null,
                game: line ? line.getAttribute('data-game') : null,
                table: root.classList.contains('view-table')}; }""")


def wait_what(page, want: dict, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    got = what(page)
    while any(got.get(k) != v for k, v in want.items()) and time.monotonic() < deadline:
        time.sleep(0.3)
        got = what(page)
    return got


def join_links(page) -> dict[str, str]:
    """The host's join panel: {label: address} (the text under each QR code)."""
    page.locator(".join-box .join-code").first.wait_for(state="attached", timeout=60_000)
    cards = page.evaluate("""() => [...document.querySelectorAll('.join-box .join-code')]
        .map(c => [c.querySelector('b').textContent, c.lastElementChild.textContent,
                   (c.querySelector('.join-state') || {}).textContent || ''])""")
    return {label: (url, state) for label, url, state in cards}


def force_discard(page) -> None:
    """A discard of Garden through the page's entry, shown or hidden (a write forced
    through the page's session)."""
    page.evaluate("""() => { const el = document.querySelector('.entry-card input');
        el.value = 'Garden';
        for (const ev of ['input', 'change']) el.dispatchEvent(new Event(ev, {bubbles: true}));
    }""")
    time.sleep(0.5)
    page.locator(".do-discard").dispatch_event("click")


def one_line_refusal(page, words: str) -> None:
    status = page.locator(".companion-status")
    expect(status).to_contain_text(words, timeout=30_000)
    text = status.inner_text()
    assert "Traceback" not in text and len(text.strip().splitlines()) == 1, text


def is_dead_link_page(page, url: str) -> None:
    """A re-issued link lands on the companion's own page (issue 50), not the login form."""
    page.goto(url, timeout=60_000)
    expect(page.locator("body")).to_contain_text(
        "This link no longer works: ask the host for its new code", timeout=30_000)
    assert page.locator(".live-state").count() == 0 and "/login" not in page.url


def is_login_form(page, url: str) -> None:
    page.goto(url, timeout=60_000)
    page.wait_for_url(re.compile(r".*/login.*"), timeout=30_000)
    assert page.locator(".live-state").count() == 0


def test_a_seat_link_gives_ana_her_seat_in_her_game_and_never_more(lan_server, chromium):
    """ "a phone that joined through Ana's seat link opens the plain address, ?seat=Ben,
    ?view=table and ?game=<another game>: it never gets more than Ana's seat in Ana's
    game; every write forced through its page's session beyond that is refused in one
    line.  The host re-issues Ana's link and the old one stops working." """
    server, g1, g2 = lan_server
    base = server.url
    host_ctx, phone_ctx = context(chromium), context(chromium)
    others = []
    try:
        # the laptop: the host's secret (the token) makes the host's page
        host = host_ctx.new_page()
        visit(host, f"{base}?token={TOKEN}&game={g1}")
        assert wait_what(host, {"role": "host", "game": g1})["role"] == "host"
        links = join_links(host)
        ana_link, state = links["Ana's seat"]
        assert TOKEN not in ana_link and "cap=" in ana_link and f"game={g1}" in ana_link
        assert state == "not joined yet"
        assert TOKEN not in links["Table view (read-only)"][0]

        # the phone joins through Ana's link: Ana's seat in G1
        phone = phone_ctx.new_page()
        visit(phone, ana_link)
        assert wait_what(phone, {"role": "seat", "seat": "Ana", "game": g1}) == {
            "role": "seat", "seat": "Ana", "game": g1, "table": False}
        screenshot(phone, "caps-01-ana-joined")

        # ... and no address raises it: Ana's seat in Ana's game, or a view of it
        for ask in ("", "?seat=Ben", f"?game={g2}", f"?seat=Ben&game={g2}"):
            visit(phone, base + ask)
            got = wait_what(phone, {"role": "seat", "seat": "Ana", "game": g1})
            assert got == {"role": "seat", "seat": "Ana", "game": g1, "table": False}, (ask, got)
            assert not phone.locator(".companion-root .host-only:visible").count(), ask
        visit(phone, f"{base}?view=table&game={g2}")
        got = wait_what(phone, {"role": "table", "game": g1})
        assert got["role"] == "table" and got["game"] == g1 and got["table"], got
        assert writing_controls(phone) == []
        screenshot(phone, "caps-02-ana-asks-for-the-table-view")
        # a write forced through that view's session: refused in one line, nothing stored
        force_discard(phone)
        one_line_refusal(phone, TABLE_REFUSAL)
        # a wrong token is no way up either: the login form sends the phone back to
        # the page it may have, Ana's seat
        visit(phone, f"{base}?token=wrong-{TOKEN[6:]}")
        got = wait_what(phone, {"role": "seat", "seat": "Ana", "game": g1})
        assert got == {"role": "seat", "seat": "Ana", "game": g1, "table": False}, got
        assert stored_actions(server, g1) == [] and stored_actions(server, g2) == []

        # Ana's own page records Ana's action, in G1
        visit(phone, base)
        assert wait_what(phone, {"role": "seat", "seat": "Ana", "game": g1})["seat"] == "Ana"
        wait_taking_entries(phone)
        assert phone.locator(".entry-player select").input_value() == "Ana"
        phone.locator(".entry-action button", has_text="Discard").click()
        phone.fill(".entry-card input", "Garden")
        wait_taking_entries(phone)
        phone.click(".do-discard")
        deadline = time.monotonic() + 30
        while len(stored_actions(server, g1)) < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [a["player"] for a in stored_actions(server, g1)] == ["Ana"]
        assert stored_actions(server, g2) == []

        # the host sees that Ana joined, and Ben not
        expect(host.locator(".live-state").first).to_contain_text("actions: 1", timeout=30_000)
        deadline = time.monotonic() + 30
        while join_links(host)["Ana's seat"][1] == "not joined yet" and time.monotonic() < deadline:
            time.sleep(0.3)
        links = join_links(host)
        assert links["Ana's seat"][1].startswith("joined"), links
        assert links["Ben's seat"][1] == "not joined yet", links

        # the host re-issues Ana's link (a lost phone)
        host.get_by_text("Join from other devices (QR codes)").first.click()
        box = host.locator(".reissue-box")
        expect(box).to_be_visible(timeout=30_000)
        box.locator("select").select_option("Ana")
        host.locator(".reissue-seat").click()
        expect(host.locator(".companion-status")).to_contain_text(
            "Ana's seat has a new link", timeout=30_000)
        deadline = time.monotonic() + 30
        while join_links(host)["Ana's seat"][0] == ana_link and time.monotonic() < deadline:
            time.sleep(0.3)
        new_link = join_links(host)["Ana's seat"][0]
        assert new_link != ana_link
        screenshot(host, "caps-03-host-reissued")

        # the old phone's page, still open, records nothing more (one line) ...
        force_discard(phone)
        one_line_refusal(phone, REISSUED)
        assert len(stored_actions(server, g1)) == 1
        # ... its login cookie and the old link no longer open anything
        is_login_form(phone, base)
        stranger = context(chromium)
        others.append(stranger)
        is_dead_link_page(stranger.new_page(), ana_link)
        # the new link is Ana's seat in G1
        fresh = context(chromium)
        others.append(fresh)
        page = fresh.new_page()
        visit(page, new_link)
        assert wait_what(page, {"role": "seat", "seat": "Ana", "game": g1})["seat"] == "Ana"
        # the host is still the host
        visit(host, base)
        assert wait_what(host, {"role": "host"})["role"] == "host"
    finally:
        for ctx in (host_ctx, phone_ctx, *others):
            ctx.close()
