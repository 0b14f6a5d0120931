"""Nothing entered is lost: a killed server, a second tab, a damaged saved-games file.

Clicks and typing only; the stored record is read from the SQLite file in the
test process (companion.store.Store) to check what was written.
"""
from __future__ import annotations

import sqlite3

import pytest
from playwright.sync_api import expect

from browser_harness import WIDGET_TIMEOUT_MS, screenshot
from dashboard_driver import act, expected_board, fill_names, read_board, settle, start_game
from companion import Game
from companion.table.store import Store

pytestmark = pytest.mark.browser

PLAYERS = ["Sandra", "George", "Thalia"]
HDA, UC = "Holographic Display Area", "U-Cannon"
KEYS = ("year", "turn", "player", "do", "card", "at", "energy_from")


@pytest.fixture(autouse=True)
def shadow_home(tmp_path, monkeypatch):
    """The test process's own COMPANION_HOME (the server has its own)."""
    home = tmp_path / "shadow-home"
    home.mkdir()
    monkeypatch.setenv("COMPANION_HOME", str(home))
    return home


def stored(home) -> tuple[list[dict], list[dict]]:
    """(saved games, actions of the newest one) as the SQLite file holds them."""
    store = Store(path=home / "games.sqlite")
    try:
        games = store.games()
        rec = store.load(games[0]["id"]) if games else {"actions": []}
    finally:
        store.close()
    return games, rec["actions"]


def essentials(actions):
    return [{k: a.get(k) for k in KEYS} for a in actions]


def reopen(page, url):
    page.goto(url, timeout=WIDGET_TIMEOUT_MS)
    page.locator(".scoreboard tr.score-row").first.wait_for(state="visible",
                                                            timeout=WIDGET_TIMEOUT_MS)


def test_hard_kill_mid_game_loses_no_action(voila_server, page):
    start_game(page, voila_server.url, PLAYERS)
    g = Game({"players": PLAYERS})
    settle(page, g)
    act(page, g, "Sandra", "build", HDA, (0, 1))
    act(page, g, "George", "reactor", "Turret", (1, 0))
    act(page, g, "Thalia", "discard", "Garden")
    act(page, g, "Sandra", "build", UC, (1, 1))
    act(page, g, "George", "build", UC, (0, 1), energy_from=(1, 0))
    # the last action was shown, so it was stored: pull the plug now
    board, info = read_board(page), page.locator(".turn-info").inner_text()
    assert board == expected_board(g) and "Turn 2" in info
    screenshot(page, "resume-01-before-kill")

    voila_server.restart(hard=True)      # SIGKILL to Voila and every kernel, then start again
    assert voila_server.starts == 2
    reopen(page, voila_server.url)
    expect(page.locator(".companion-status")).to_contain_text("Resumed")
    settle(page, g)
    assert read_board(page) == board
    assert page.locator(".turn-info").inner_text() == info
    screenshot(page, "resume-02-after-restart")
    games, actions = stored(voila_server.home)
    assert len(games) == 1
    assert essentials(actions) == essentials(g.actions)

    # the resumed game goes on from where it was
    act(page, g, "Thalia", "reactor", "Turret", (0, -1))
    assert essentials(stored(voila_server.home)[1]) == essentials(g.actions)


# a page that has not seen another page's action: each page follows the store live
# (issue 14, tests/browser/test_four_pages.py), so here its polling is slowed to keep it behind
@pytest.mark.server_env({"COMPANION_POLL_SECONDS": "3600"})
def test_second_tab_shows_the_same_game_and_a_stale_tab_is_refused(voila_server, page):
    start_game(page, voila_server.url, PLAYERS)
    g = Game({"players": PLAYERS})
    act(page, g, "Sandra", "build", HDA, (0, 1))

    tab2 = page.context.new_page()
    errors2 = []
    tab2.on("pageerror", lambda exc: errors2.append(f"{exc.name}: {exc.message}"))
    try:
        reopen(tab2, voila_server.url)
        expect(tab2.locator(".companion-status")).to_contain_text("Resumed")
        settle(tab2, g)
        assert read_board(tab2) == read_board(page)
        assert tab2.locator(".turn-info").inner_text() == page.locator(".turn-info").inner_text()

        # tab 2 enters George's discard; tab 1 has not seen it
        act(tab2, g, "George", "discard", "Garden")
        assert read_board(page)["George"]["credits"] == "10"
        # tab 1 enters George's action too on its stale game (a player on two devices):
        # refused, reloaded, nothing recorded twice.  (Another player's action on a stale
        # page is recorded once the session has replayed the store: tests/test_session.py)
        page.select_option(".entry-player select", "George")
        page.locator(".entry-action button", has_text="Discard for 3 credits").click()
        page.fill(".entry-card input", "Garden")
        page.click(".do-discard")
        expect(page.locator(".companion-status .status-error")).to_contain_text(
            "Not recorded: this game was changed on another page or tab "
            "(added: George discarded Garden")
        settle(page, g)                      # tab 1 now shows George's discard
        screenshot(page, "resume-03-stale-tab")
        assert essentials(stored(voila_server.home)[1]) == essentials(g.actions)
        # entered again in tab 1, it is accepted
        act(page, g, "Thalia", "discard", "Garden")
        assert essentials(stored(voila_server.home)[1]) == essentials(g.actions)
        assert len(g.actions) == 3 and g.state.turn == 2
    finally:
        tab2.close()
    assert not errors2, errors2


@pytest.mark.dashboard_config      # a pool of kernels all open the damaged file at the start
def test_damaged_store_is_reported_and_kept(voila_server, page):
    start_game(page, voila_server.url, PLAYERS)
    g = Game({"players": PLAYERS})
    act(page, g, "Sandra", "build", HDA, (0, 1))
    voila_server.stop()

    db = voila_server.home / "games.sqlite"
    # The killed kernels leave a write-ahead log that still holds every page, and
    # SQLite would read the game from it whatever the main file holds.  Fold it in
    # first (as a clean shutdown does), so the damage below hits the only copy.
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert not db.with_name("games.sqlite-wal").exists()
    garbage = b"this is not an SQLite file\x00\xff" * 256
    db.write_bytes(garbage)
    voila_server.start()
    page.goto(voila_server.url, timeout=WIDGET_TIMEOUT_MS)
    status = page.locator(".companion-status")
    expect(status.locator(".status-error")).to_contain_text(
        "The saved-games file was damaged", timeout=WIDGET_TIMEOUT_MS)
    expect(status).to_contain_text("no file was deleted")
    screenshot(page, "resume-04-damaged-store")
    damaged = sorted(voila_server.home.glob("games.sqlite.damaged-*"))
    damaged = [p for p in damaged if not p.name.endswith(("-wal", "-shm"))]
    assert len(damaged) == 1, list(voila_server.home.iterdir())
    assert damaged[0].read_bytes() == garbage
    assert damaged[0].name in status.inner_text()
    # the dashboard falls back to the setup screen with a new, empty store that works
    expect(page.locator(".start-game")).to_be_visible()
    fill_names(page, ["Ann", "Bob"])
    page.click(".start-game")
    expect(page.locator(".companion-status")).to_contain_text("New game started")
    games, _ = stored(voila_server.home)
    assert [x["players"] for x in games] == [["Ann", "Bob"]]
