"""The History tab in a real browser: three finished games are already in the
player's saved-games file (two Among the Stars, one Small Star Empires, played
through the engines with fixture cards: tests/test_history.py).  The player
opens the tab by clicking its title, types a filter and sees the list narrow,
opens a game and steps through it with previous/next and the slider (the step
text and the stations change), chooses a statistics table and downloads it as
CSV (the link's data decodes to the table), and finds the printable score sheet.

(This file is not named test_history.py: tests/test_history.py has that name,
and pytest's default import mode refuses two test modules with one basename.)
"""
from __future__ import annotations

import base64
import csv
import io
import json
import time

import pytest
from playwright.sync_api import expect

from browser_harness import screenshot
from companion.table.store import Store
from test_history import RU, broken_record, records, waiting_records

pytestmark = pytest.mark.browser

WAIT_MS = 15_000


def decode(page, selector: str) -> tuple[str, str]:
    """(download file name, decoded text) of a data: link on the page."""
    a = page.locator(selector)
    href = a.get_attribute("href")
    head, data = href.split(",", 1)
    assert head.startswith("data:") and head.endswith(";base64"), head
    return a.get_attribute("download"), base64.b64decode(data).decode("utf-8")


def options(page) -> list[str]:
    return page.locator(".history-games select option").all_inner_texts()


def wait_options(page, want_games: list[str]) -> None:
    """Wait until the list shows exactly these games (the ' · players · ' part)."""
    page.wait_for_function(
        """(want) => {
             const got = Array.from(document.querySelectorAll('.history-games select option'))
                              .map(o => o.textContent.replace(/\\u00a0/g, ' '));
             return got.length === want.length && want.every((w, i) => got[i].includes(w));
           }""", arg=want_games, timeout=WAIT_MS, polling="raf")


def step_text(page) -> str:
    return page.locator(".history-step-what").inner_text()


def board(page) -> str:
    return page.locator(".history-board").inner_html()


def wait_step(page, text: str) -> None:
    expect(page.locator(".history-step-what")).to_contain_text(text, timeout=WAIT_MS)


def test_history_tab_filter_replay_statistics_and_links(voila_server, page):
    # ------------------------------------------------ three finished games in the store
    # The dashboard's kernel opens the store when the page is loaded (a kernel per page),
    # so games written now, with the server running, are there when the page opens.
    recs = records()
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        ids = {}
        for title in ("G1", "G2", "S1"):
            ids[title] = store.create(recs[title], title=title)
            time.sleep(0.01)                  # newest first: S1, G2, G1
    finally:
        store.close()

    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(voila_server.url)
    page.locator(".companion-title").wait_for(state="visible")
    page.locator(".lm-TabBar-tab", has_text="History").click()
    page.locator(".history-games select").wait_for(state="visible")
    all_three = ["Small Star Empires · Ann, Bob · won by Ann",
                 "Among the Stars · Ann, Cid · won by Cid",
                 "Among the Stars · Ann, Bea · won by Ann"]
    wait_options(page, all_three)
    screenshot(page, "history-01-list")

    # ------------------------------------------------ the filter narrows the list
    page.fill(".history-filter input", "cid")
    wait_options(page, ["Among the Stars · Ann, Cid · won by Cid"])
    page.fill(".history-filter input", "among")
    wait_options(page, all_three[1:])
    page.fill(".history-filter input", "Bea")
    wait_options(page, ["Among the Stars · Ann, Bea · won by Ann"])
    screenshot(page, "history-02-filtered")

    # ------------------------------------------------ open it: the last step is shown
    page.click(".history-open")
    page.locator(".history-step").wait_for(state="visible")
    n = len(recs["G1"]["actions"])
    assert n == 48                            # 2 players x 24 turns
    wait_step(page, f"Step {n}/{n} — year 4, turn 6: Bea discarded Garden for 3 credits")
    final_board = board(page)
    assert final_board.count("<svg") == 2     # Ann's and Bea's stations
    # Ann built B and A, Bea three A
    assert "free 2 VP" in final_board and final_board.count("free 1 VP") >= 4

    # the slider: Home -> the setup, before any action
    handle = page.locator(".history-step .noUi-handle")
    handle.focus()
    page.keyboard.press("Home")
    wait_step(page, "The setup, before the first action.")
    expect(page.locator(".history-step .widget-readout")).to_have_text("0")
    start_board = board(page)
    assert start_board != final_board and "Fixture" not in start_board
    screenshot(page, "history-03-step-0")

    # next: Ann's first build appears on her station
    page.click(".history-next")
    wait_step(page, "Step 1/48 — year 1, turn 1: Ann built Fixture: free 2 VP at [-1, 0]")
    expect(page.locator(".history-step .widget-readout")).to_have_text("1")
    one = board(page)
    assert one != start_board and "free 2 VP" in one and "free 1 VP" not in one
    page.click(".history-next")
    wait_step(page, "Step 2/48 — year 1, turn 1: Bea built Fixture: free 1 VP at [-1, 0]")
    assert "free 1 VP" in board(page)
    screenshot(page, "history-04-step-2")

    # previous: back to step 1, the same stations as before
    page.click(".history-prev")
    wait_step(page, "Step 1/48")
    assert board(page) == one

    # the slider again, by keyboard: one step right, then the end
    handle.focus()
    page.keyboard.press("ArrowRight")
    wait_step(page, "Step 2/48")
    page.keyboard.press("End")
    wait_step(page, f"Step {n}/{n}")
    assert board(page) == final_board

    # ------------------------------------------------ the score sheet and the record
    name, sheet = decode(page, "a.history-sheet")
    assert name == f"score-sheet-{ids['G1']}.html"
    assert sheet.startswith("<!doctype html>") and "Among the Stars — score sheet" in sheet
    assert "Ann wins with 44 VP." in sheet and "Every VP with its source" in sheet
    expect(page.locator("a.history-sheet")).to_have_text("Printable score sheet")
    name, rec = decode(page, "a.history-export-json")
    assert name == f"{ids['G1']}.json"
    rec = json.loads(rec)
    assert rec["actions"] == recs["G1"]["actions"] and rec["setup"] == recs["G1"]["setup"]
    screenshot(page, "history-05-game-end")

    # ------------------------------------------------ a statistics table and its CSV
    # scores (Among the Stars only): Ann 44 (G1) and 39 (G2) -> average 41.5, best 44;
    # Cid 42; Bea 37.  Highest average first.
    page.select_option(".history-stat select", label="scores")
    table = page.locator(".history-stat-table table")
    expect(table).to_contain_text("41.5", timeout=WAIT_MS)
    rows = [[c.strip() for c in r] for r in page.evaluate(
        """() => Array.from(document.querySelectorAll('.history-stat-table tbody tr'))
                 .map(tr => Array.from(tr.querySelectorAll('td')).map(td => td.textContent))""")]
    assert rows == [["Cid", "1", "42.0", "42"], ["Ann", "2", "41.5", "44"],
                    ["Bea", "1", "37.0", "37"]]
    name, text = decode(page, "a.history-csv")
    assert name == "scores.csv"
    assert text == "player,games,average,best\nCid,1,42.0,42\nAnn,2,41.5,44\nBea,1,37.0,37\n"
    assert list(csv.reader(io.StringIO(text)))[1:] == rows
    page.locator("a.history-csv").scroll_into_view_if_needed()
    screenshot(page, "history-06-statistics")

    # the Small Star Empires seat table: seat 1 (Ann) won the only game
    page.select_option(".history-stat select", label="Small Star Empires: win rate by seat")
    expect(page.locator("a.history-csv")).to_have_attribute(
        "download", "Small-Star-Empires:-win-rate-by-seat.csv", timeout=WAIT_MS)
    _, text = decode(page, "a.history-csv")
    assert text == "seat,games,wins,win_rate\n1,1,1,1.0\n2,1,0,0.0\n"

    # every finished play, for play loggers: made when asked for
    expect(page.locator("a.history-plays-csv")).to_have_count(0)
    page.click(".history-plays-csv-make")
    name, plays = decode(page, "a.history-plays-csv")
    assert name == "plays.csv"
    got = list(csv.DictReader(io.StringIO(plays)))
    assert [(r["players"], r["scores"], r["winner"], r["game_id"]) for r in got] == [
        ("Ann;Bea", "44;37", "Ann", ids["G1"]), ("Ann;Cid", "39;42", "Cid", ids["G2"]),
        ("Ann;Bob", "8;4", "Ann", ids["S1"])]

    # ------------------------------------------------ a Small Star Empires game steps too
    page.fill(".history-filter input", "small star")
    wait_options(page, all_three[:1])
    page.click(".history-open")
    wait_step(page, "Step 4/4 — Bob moved ship 0 [4, 0] → [3, 0], colonised with a City")
    sse_end = board(page)
    page.click(".history-prev")
    wait_step(page, "Step 3/4 — Ann moved ship 0 [1, 0] → [2, 0], colonised with a Trade Station")
    assert board(page) != sse_end
    _, sheet = decode(page, "a.history-sheet")
    assert "Small Star Empires — score sheet" in sheet and "Ann wins with 8 VP." in sheet
    expect(page.locator(".companion-status .status-error")).to_have_count(0)
    screenshot(page, "history-07-sse-step")


def test_history_tab_tells_a_failed_record_from_a_game_waiting_for_values(voila_server, page):
    """Three games: G1 finished, a record that no longer replays (G1 with an illegal
    action 1), and a finished game whose final scoring waits for a race tile nobody
    has typed.  Only the broken record says 'record no longer replays'; the waiting
    game is listed with its players and what it waits for, and counts in no statistic."""
    # G1 last: the dashboard resumes the newest game when the page opens (the final table)
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        ids = {"waiting": store.create(waiting_records()["race"], title="waiting")}
        time.sleep(0.01)
        ids["broken"] = store.create(broken_record(), title="broken")
        time.sleep(0.01)
        ids["G1"] = store.create(records()["G1"], title="G1")
    finally:
        store.close()

    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(voila_server.url)
    page.locator(".companion-title").wait_for(state="visible")
    page.locator(".lm-TabBar-tab", has_text="History").click()
    page.locator(".history-games select").wait_for(state="visible")
    wait_options(page, ["Among the Stars · Ann, Bea · won by Ann",
                        "record no longer replays",
                        f"Among the Stars · Ann, Bea · final scoring waits for values: '{RU}' "
                        "(end abilities)"])
    texts = [t.replace("\u00a0", " ") for t in options(page)]
    assert [t.endswith("record no longer replays") for t in texts] == [False, True, False]
    screenshot(page, "history-08-waiting-and-broken")

    # win rates: G1 only (Ann won, Bea lost); the waiting game does not count yet
    page.select_option(".history-stat select", label="win rate by player")
    expect(page.locator("a.history-csv")).to_have_attribute(
        "download", "win-rate-by-player.csv", timeout=WAIT_MS)
    _, text = decode(page, "a.history-csv")
    assert text == "player,games,wins,win_rate\nAnn,1,1,1.0\nBea,1,0,0.0\n"
    page.click(".history-plays-csv-make")
    _, plays = decode(page, "a.history-plays-csv")
    assert [r["game_id"] for r in csv.DictReader(io.StringIO(plays))] == [ids["G1"]]
    expect(page.locator(".companion-status .status-error")).to_have_count(0)


@pytest.mark.server_env({"COMPANION_SYNC_WORKERS": "2"})
def test_a_clubs_long_history_on_a_phone(voila_server, page):
    """A club's long history on a phone (390x844): 323 games in the store, never
    derived.  The page's kernel derives them when the tab opens, in two worker
    processes (COMPANION_SYNC_WORKERS=2 asks for them below the 1,500 games at which
    they start by themselves; tests/test_history_workers.py shows they start from a
    Jupyter kernel).  The list holds the first 300 and says how many there are; Find
    reaches the oldest game; the plays CSV is made when the button is pressed and has
    every finished play."""
    recs = records()
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        oldest = store.create(recs["G3"], title="the oldest game")
        time.sleep(0.01)
        for i in range(46):                   # 7 fixture games x 46 (G5 in progress)
            for title, rec in recs.items():
                store.create(rec, title=f"{title} copy {i}")
        total = len(store.games(format=None))
    finally:
        store.close()
    assert total == 323

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(voila_server.url)
    page.locator(".companion-title").wait_for(state="visible")
    page.locator(".lm-TabBar-tab", has_text="History").click()
    page.wait_for_function(
        "() => document.querySelectorAll('.history-games select option').length === 300",
        timeout=90_000, polling=250)
    expect(page.locator(".history-games-note")).to_contain_text(
        "The first 300 of 323 games", timeout=WAIT_MS)
    screenshot(page, "history-09-long-list-phone")

    # the oldest game is not among the 300 newest: Find reaches it
    page.fill(".history-filter input", "the oldest")
    wait_options(page, ["Among the Stars · Bea, Cid · won by Bea, Cid"])
    expect(page.locator(".history-games-note")).to_have_text("", timeout=WAIT_MS)
    page.click(".history-open")
    page.locator(".history-step").wait_for(state="visible")
    expect(page.locator(".history-viewer h3")).to_contain_text("the oldest game",
                                                               timeout=WAIT_MS)

    # every finished play (6 of the 7 fixture games are finished: G5 is not)
    expect(page.locator("a.history-plays-csv")).to_have_count(0)
    page.click(".history-plays-csv-make")
    name, plays = decode(page, "a.history-plays-csv")
    rows = list(csv.DictReader(io.StringIO(plays)))
    assert name == "plays.csv" and len(rows) == 1 + 46 * 6
    assert oldest in {r["game_id"] for r in rows}
    page.locator("a.history-plays-csv").scroll_into_view_if_needed()
    screenshot(page, "history-10-plays-csv-phone")
    expect(page.locator(".companion-status .status-error")).to_have_count(0)
