"""Issue 20's "Done when": every phone at the table, no phone can hurt it.  One Voila
server run as ./dashboard runs it (preheated kernels, the page template, culling), and
FOUR pages open at once at 390x844: the laptop (the plain address), Ana's seat
(``?seat=Ana``, through a relay the test cuts: tests/browser/relay.py), Ben's seat
(``?seat=Ben``) and the table view (``?view=table``).  One test per game, in one flow:

- the table view shows no writing control in any tab, and a write forced through its
  session is refused in one line (nothing is stored);
- after acting, Ana's page still enters for Ana (not the next waiting player);
- Among the Stars with the timing rules: a tie shows the same turn order on all four
  pages; Small Star Empires: the same player to move on all four;
- Ana's connection is cut: her page says it is not connected and takes no entry, the
  others act, the relay is restored and her page shows the current game; then her
  kernel is culled while she is away, and her page comes back by itself into her seat
  and game;
- a reload of one page; an undo on one page, seen on all;
- at the end the store's record holds exactly the actions entered, each for the player
  it was entered for: none for the wrong player.

Screenshots: tests/artifacts/four-*.png.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from dashboard_driver import (PHONE, ats_enter, ats_shows, is_live, kernel_id, open_page,
                              open_tab, overlay_is_under, query_of, says_not_connected,
                              sse_move, sse_shows, store_of, stored_actions, wait_actions,
                              wait_culled, writing_controls)
from relay import Relay
from companion.ats.game import Game
from companion.sse import SseGame
from test_sse import hexbtn

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cleo"]
SSE_SETUP = {"players": ["Ana", "Ben"], "map": "basic-2p", "pieces": {"ships": 2}}
TABLE_REFUSAL = "The table view records nothing: enter actions on a player's page."
#: one preheated kernel (the machine has 2 cores); a kernel with no page connected is
#: culled after 30 s idle: long enough for a short cut (the other pages' actions reach
#: Ana's kernel meanwhile, which counts as activity), short enough to wait for
SERVER_ENV = {"COMPANION_POOL_SIZE": "1", "COMPANION_CULL_IDLE": "30",
              "COMPANION_CULL_INTERVAL": "2"}


@pytest.fixture(autouse=True)
def shadow_home(tmp_path, monkeypatch):
    home = tmp_path / "shadow-home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))


@pytest.fixture
def table_pages(chromium):
    """Open phone-sized pages, each in its own browser context (its own cookies)."""
    contexts: list = []
    yield lambda url, ready=".live-state": open_page(chromium, url, viewport=PHONE,
                                                     contexts=contexts, ready=ready)
    for ctx in contexts:
        ctx.close()


def table_view_writes_nothing(table, *, sse_ready=".sse-play .live-state") -> None:
    """No writing control shown on the table view, and no tab bar to reach another tab
    (issue 50: the table view is its display alone; it follows the table's game, either
    game, by itself)."""
    expect(table.locator(".game-tabs > .lm-TabBar")).to_be_hidden()
    assert writing_controls(table) == []


def comes_back_after_cull(relay, page, old_kernel) -> None:
    """Restore the relay: the page (its kernel culled) reloads itself on a new kernel."""
    relay.restore()
    page.wait_for_function(
        "(old) => { const el = document.getElementById('jupyter-config-data');"
        " return el && JSON.parse(el.textContent).kernelId !== old; }",
        arg=old_kernel, timeout=90_000)
    page.locator(".live-state").first.wait_for(state="attached", timeout=60_000)
    is_live(page, timeout=60_000)


def undo_on(page, css: str) -> None:
    page.click(f".{css}")
    page.click(f".{css}-yes")


# ------------------------------------------------------------------------ Among the Stars
def timing_seed() -> int:
    """A seed whose drawn orders make every step of the flow possible: turn 1 not in the
    setup's order (a real draw, so a page drawing its own would differ), Ana first in
    turn 2 (the others act after her, while she is cut off), Ana second in turn 3 (Cleo
    acts while her kernel is culled).  Found with the engine, as the pages will draw."""
    for seed in range(1, 10_000):
        g = Game({"players": PLAYERS, "seed": seed, "options": {"timing_rules": True}})
        orders = []
        for _ in range(3):
            orders.append(g.turn_order())
            for p in orders[-1]:
                g.push({"player": p, "do": "discard", "card": "Garden"})
        if orders[0] != PLAYERS and orders[1][0] == "Ana" and orders[2][1] == "Ana":
            return seed
    raise AssertionError("no seed gives the orders this flow needs")


def order_shown(pages, g: Game) -> None:
    """R 5 step 2 (Revival rulebook): "The player who currently has the most VP announces
    which action they are taking. In case of a tie, the player with the most Credits goes
    first. If there is still a tie, the order among them is chosen randomly."  Every page
    shows the order drawn from the record's seed."""
    order = g.turn_order()
    for p in pages:
        expect(p.locator(".turn-info")).to_contain_text(f"order this turn: {', '.join(order)}")
        expect(p.locator(".turn-info")).to_contain_text(
            f"Waiting for: {', '.join(g.waiting_in_order())}")


@pytest.mark.server_env(SERVER_ENV)
@pytest.mark.dashboard_config
def test_four_pages_among_the_stars_timing_rules(voila_server, table_pages):
    seed = timing_seed()
    setup = {"players": PLAYERS, "seed": seed, "options": {"timing_rules": True}}
    g = Game(setup)
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="four pages")
    s.close()
    # every player is tied on VP and credits at the start: the order is the seed's draw
    assert len({(ps.vp, ps.credits) for ps in g.state.players.values()}) == 1
    assert g.turn_order() != PLAYERS
    with Relay(voila_server.port) as relay:
        host = table_pages(voila_server.url)
        ana = table_pages(f"{relay.url}?seat=Ana")
        ben = table_pages(f"{voila_server.url}?seat=Ben")
        table = table_pages(f"{voila_server.url}?view=table")
        pages = (host, ana, ben, table)
        entered_on = {"Ana": ana, "Ben": ben, "Cleo": host}     # Cleo has no phone
        for p in pages:
            ats_shows(p, g, timeout=60_000)
        is_live(ana, timeout=30_000)
        order_shown(pages, g)
        for name, p in zip(("host", "ana", "ben", "table"), pages):
            screenshot(p, f"four-ats-01-{name}")

        # the table view: no writing control in any tab ...
        table_view_writes_nothing(table, sse_ready=".sse-setup")     # no such game saved
        expect(table.locator(".companion-screen-among-the-stars-1, .turn-info").first
               ).to_be_visible()                   # the display shows the table's game
        expect(table.locator(".turn-entry")).to_be_hidden()
        # ... and a discard forced through its hidden entry reaches its session, which
        # refuses it in one line
        table.evaluate("""() => { const el = document.querySelector('.entry-card input');
            el.value = 'Garden';
            for (const ev of ['input', 'change']) el.dispatchEvent(new Event(ev, {bubbles: true}));
        }""")
        table.locator(".do-discard").dispatch_event("click")
        expect(table.locator(".companion-status")).to_contain_text(TABLE_REFUSAL)
        assert "Traceback" not in table.locator(".companion-status").inner_text()
        screenshot(table, "four-ats-02-table-refused")
        assert stored_actions(voila_server, gid) == []

        # turn 1: each player acts on his own page, in the drawn order
        for player in g.turn_order():
            ats_enter(entered_on[player], g, player, "discard")
            for p in pages:
                ats_shows(p, g, timeout=15_000)
        # still a tie (3 credits each): turn 2's order is drawn again, the same everywhere
        assert len({(ps.vp, ps.credits) for ps in g.state.players.values()}) == 1
        order_shown(pages, g)
        assert g.turn_order()[0] == "Ana"

        # turn 2: Ana acts first; her page is still hers, the host's entry moves on
        ats_enter(ana, g, "Ana", "discard")
        for p in pages:
            ats_shows(p, g, timeout=15_000)
        waiting = g.waiting_in_order()
        expect(ana.locator(".entry-player select")).to_have_value("Ana")
        expect(ana.locator(".seat-done")).to_have_text(
            f"Ana: done, waiting for {', '.join(waiting)}")
        expect(host.locator(".entry-player select")).to_have_value(waiting[0])
        screenshot(ana, "four-ats-03-ana-done")

        # Ana's phone goes away: it says so and takes nothing; the others act
        relay.cut()
        says_not_connected(ana)
        switch = ana.locator(".seat-switch")
        overlay_is_under(ana, switch)
        switch.click(force=True)
        ana.keyboard.press("Enter")
        screenshot(ana, "four-ats-04-ana-not-connected")
        n = len(g.actions)
        for player in waiting:
            ats_enter(entered_on[player], g, player, "discard")
            # the page it was entered on first: a failure then says which side missed
            on = entered_on[player]
            for p in (on, *(p for p in (host, ben, table) if p is not on)):
                ats_shows(p, g, timeout=15_000)
        wait_actions(voila_server, gid, n + len(waiting))
        says_not_connected(ana)
        relay.restore()
        is_live(ana)
        ats_shows(ana, g)
        order_shown(pages, g)
        screenshot(ana, "four-ats-05-ana-back")

        # her kernel is culled while she is away: her page comes back into her seat and
        # this game by itself (its address had no game=)
        old_kernel = kernel_id(ana)
        relay.cut()
        says_not_connected(ana)
        first = g.turn_order()[0]
        ats_enter(entered_on[first], g, first, "discard")
        for p in (host, ben, table):
            ats_shows(p, g, timeout=15_000)
        wait_culled(voila_server, old_kernel, timeout=90)
        comes_back_after_cull(relay, ana, old_kernel)
        ats_shows(ana, g, timeout=30_000)
        q = query_of(ana)
        assert q.get("seat") == "Ana" and q.get("game") == gid, ana.url
        expect(ana.locator(".seat-score")).to_contain_text("Ana ·")
        expect(ana.locator(".entry-player select")).to_have_value("Ana")
        screenshot(ana, "four-ats-06-ana-after-cull")

        # Ana acts on her page again: recorded once, hers; the page stays hers
        ats_enter(ana, g, "Ana", "discard", "U-Cannon")
        for p in pages:
            ats_shows(p, g, timeout=15_000)
        expect(ana.locator(".entry-player select")).to_have_value("Ana")
        expect(ana.locator(".seat-done")).to_have_text(
            f"Ana: done, waiting for {', '.join(g.waiting_in_order())}")

        # a reload of Ben's page: his seat, this game
        ben.reload(timeout=60_000)
        ben.locator(".live-state").first.wait_for(state="attached", timeout=60_000)
        ats_shows(ben, g, timeout=30_000)
        expect(ben.locator(".entry-player select")).to_have_value("Ben")
        expect(ben.locator(".seat-score")).to_contain_text("your turn to act")

        # an undo on the host's page, seen on all four: Ana's action is taken back
        undone = g.actions[-1]
        assert undone["player"] == "Ana"
        undo_on(host, "undo")
        g.pop()
        for p in pages:
            ats_shows(p, g, timeout=15_000)
        expect(ana.locator(".seat-score")).to_contain_text("your turn to act")
        expect(ana.locator(".entry-player select")).to_have_value("Ana")
        for name, p in zip(("host", "ana", "ben", "table"), pages):
            screenshot(p, f"four-ats-07-{name}-after-undo")

        # the record: exactly the actions entered, each for its player
        acts = wait_actions(voila_server, gid, len(g.actions))
        assert [(a["player"], a["do"], a["card"]) for a in acts] == \
            [(a["player"], a["do"], a["card"]) for a in g.actions]
        for p in (host, ben, table):
            assert p.errors == [], p.errors
        print(f"\nseed {seed}; Ana's page errors: {ana.errors}")


# --------------------------------------------------------------------- Small Star Empires
def same_player_to_move(pages, g: SseGame) -> None:
    """Every page shows the same player to move, the shadow game's (and the same score)."""
    for p in pages:
        sse_shows(p, g, timeout=15_000)
        expect(p.locator(".sse-turn .sse-current")).to_have_text(g.current)


@pytest.mark.server_env(SERVER_ENV)
@pytest.mark.dashboard_config
def test_four_pages_small_star_empires(voila_server, table_pages):
    g = SseGame(SSE_SETUP)
    s = store_of(voila_server)
    gid = s.create(g.to_record(), title="four pages sse")
    s.close()
    with Relay(voila_server.port) as relay:
        # no Among the Stars game saved: the laptop's first tab is its setup screen
        host = table_pages(voila_server.url, ready=".start-game")
        open_tab(host, "Small Star Empires")
        ana = table_pages(f"{relay.url}?seat=Ana&game={gid}")
        ben = table_pages(f"{voila_server.url}?seat=Ben&game={gid}")
        table = table_pages(f"{voila_server.url}?view=table&game={gid}")
        pages = (host, ana, ben, table)
        for p in pages:
            sse_shows(p, g, timeout=60_000)
        same_player_to_move(pages, g)
        is_live(ana, timeout=30_000)
        assert g.current == "Ana"
        for name, p in zip(("host", "ana", "ben", "table"), pages):
            screenshot(p, f"four-sse-01-{name}")

        # the table view: no writing control in any tab; a tap on its board (the only
        # thing left to tap) goes to its session, which refuses it in one line
        table_view_writes_nothing(table)                  # it shows the SSE game itself
        table.locator(".sse-play").first.wait_for(state="visible")
        hexbtn(table, g.state.players["Ana"].ships[0].at).click()
        expect(table.locator(".companion-status")).to_contain_text(TABLE_REFUSAL)
        assert "Traceback" not in table.locator(".companion-status").inner_text()
        screenshot(table, "four-sse-02-table-refused")
        assert stored_actions(voila_server, gid) == []

        # Ana moves on her page; it is still hers, waiting for Ben (not Ben's entry)
        sse_move(ana, g)
        same_player_to_move(pages, g)
        expect(ana.locator(".sse-entry")).to_be_hidden()
        expect(ana.locator(".sse-play .seat-done")).to_have_text("Ana: done, waiting for Ben")
        expect(ana.locator(".sse-play .seat-switch")).to_have_text("Enter Ben's move (no phone)")
        expect(ana.locator(".sse-play .seat-score")).to_contain_text("Ana")
        screenshot(ana, "four-sse-03-ana-done")

        # Ana's phone goes away: it says so and takes nothing; Ben moves on his page
        relay.cut()
        says_not_connected(ana)
        switch = ana.locator(".sse-play .seat-switch")
        overlay_is_under(ana, switch)
        switch.click(force=True)
        ana.keyboard.press("Enter")
        screenshot(ana, "four-sse-04-ana-not-connected")
        sse_move(ben, g)
        for p in (host, ben, table):
            sse_shows(p, g, timeout=15_000)
        wait_actions(voila_server, gid, 2)
        says_not_connected(ana)
        relay.restore()
        is_live(ana)
        same_player_to_move(pages, g)
        expect(ana.locator(".sse-entry")).to_be_visible()          # Ana to move again
        screenshot(ana, "four-sse-05-ana-back")

        # her kernel is culled while she is away; the laptop enters her move meanwhile
        # (a player without her phone), then Ben moves on his page
        old_kernel = kernel_id(ana)
        relay.cut()
        says_not_connected(ana)
        sse_move(host, g)
        sse_shows(ben, g, timeout=15_000)
        sse_move(ben, g)
        for p in (host, ben, table):
            sse_shows(p, g, timeout=15_000)
        wait_culled(voila_server, old_kernel, timeout=90)
        comes_back_after_cull(relay, ana, old_kernel)
        q = query_of(ana)
        assert q.get("seat") == "Ana" and q.get("game") == gid, ana.url
        same_player_to_move(pages, g)
        expect(ana.locator(".sse-play .seat-score")).to_contain_text("Ana")
        expect(ana.locator(".sse-entry")).to_be_visible()
        screenshot(ana, "four-sse-06-ana-after-cull")

        # Ana moves on her page again; it stays hers
        sse_move(ana, g)
        same_player_to_move(pages, g)
        expect(ana.locator(".sse-play .seat-done")).to_have_text("Ana: done, waiting for Ben")

        # a reload of the table view: still the table view of this game, writing nothing
        table.reload(timeout=60_000)
        table.locator(".sse-play .live-state").wait_for(state="visible", timeout=60_000)
        sse_shows(table, g, timeout=30_000)
        assert writing_controls(table) == []

        # Ben's page may not undo Ana's move (a seat undoes only its own player's action,
        # issue 35): one line, nothing asked, nothing changed
        assert g.actions[-1]["player"] == "Ana"
        ben.click(".sse-undo")
        expect(ben.locator(".companion-status")).to_contain_text("cannot undo Ana's action")
        assert "Traceback" not in ben.locator(".companion-status").inner_text()
        expect(ben.locator(".sse-undo-yes")).to_have_count(0)
        assert len(wait_actions(voila_server, gid, len(g.actions))) == len(g.actions)
        # an undo on Ana's page, seen on all four: her last move is taken back
        undo_on(ana, "sse-undo")
        g.pop()
        same_player_to_move(pages, g)
        expect(ana.locator(".sse-entry")).to_be_visible()
        expect(ben.locator(".sse-play .live-note")).to_contain_text("undone: Ana moved ship 0")
        for name, p in zip(("host", "ana", "ben", "table"), pages):
            screenshot(p, f"four-sse-07-{name}-after-undo")

        # the record: exactly the moves made, each for its player
        acts = wait_actions(voila_server, gid, len(g.actions))
        assert [(a["player"], a["ship"], a["to"]) for a in acts] == \
            [(a["player"], a["ship"], a["to"]) for a in g.actions]
        assert [a["player"] for a in acts] == ["Ana", "Ben", "Ana", "Ben"]
        for p in (host, ben, table):
            assert p.errors == [], p.errors
        print(f"\nAna's page errors: {ana.errors}")
