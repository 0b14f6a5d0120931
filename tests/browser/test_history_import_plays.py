"""Issue 22: the History tab reads plays logged on BoardGameGeek.  In the real page,
the host imports a real BGG plays XML (tests/data/real/README-import.md) whose games
the table has given the BGG ids of (history bgg-ids, loggers.json); the list shows
the imported plays, one opens with the file's scores, and the same file again adds
nothing.

Issue 37: "a player who imported plays from one logger should be able to send one to the
other".  The opened BGG play offers its BG Stats play file (no BGG XML: BoardGameGeek has
it, said in one line); then a play imported from a BG Stats file offers its BGG XML (no BG
Stats file or link, said in one line), which bgg-api's plays loader (the third-party
reader the other tests use) reads: the game id the player set, the day, the players and
scores; names and a location with markup are shown as text."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from boardgamegeek.loaders.plays import add_plays_from_xml, create_plays_from_xml

import pytest
from playwright.sync_api import expect

from companion.table import plays_export
from companion.table.store import Store
from browser_harness import screenshot
from dashboard_driver import open_tab

pytestmark = pytest.mark.browser

WAIT_MS = 30_000
REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "bgg_plays_ddmits_trimmed.xml"
#: a play logged in BG Stats (an export's shape, as tests/test_imports_twice.py writes
#: it): names with an apostrophe and an ampersand, a location with markup (kept as text)
LOCATION = "<b>Hall A</b> & bar"
BGSTATS = {"players": [{"id": 1, "name": "Ann O'Neil"}, {"id": 2, "name": "Bea & Co"}],
           "games": [{"id": 7, "name": "Among the Stars", "bggId": 0}],
           "locations": [{"id": 3, "name": LOCATION}],
           "plays": [{"uuid": "0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F7",
                      "playDate": "2022-05-01 19:30:00", "gameRefId": 7, "locationRefId": 3,
                      "durationMin": 80,
                      "playerScores": [
                          {"playerRefId": 1, "score": "51", "winner": True, "seatOrder": 1},
                          {"playerRefId": 2, "score": "47", "winner": False, "seatOrder": 2}]}]}


def _choose(page, path: Path) -> None:
    with page.expect_file_chooser() as chooser:
        page.click(".history-import-plays")
    chooser.value.set_files(str(path))


def test_history_imports_real_bgg_plays(voila_server, page, tmp_path):
    plays_export.save_bgg_ids({"Among the Stars": 276025, "Small Star Empires": 105551},
                              path=voila_server.home / plays_export.SETTINGS_FILE)
    page.set_viewport_size({"width": 390, "height": 844})       # the host's phone
    page.goto(voila_server.url)
    page.locator(".companion-title").wait_for(state="visible", timeout=60_000)
    open_tab(page, "History", history_games=0)
    _choose(page, REAL)
    status = page.locator(".companion-status")
    expect(status).to_contain_text("Imported 3 play(s) of Among the Stars / Small Star "
                                   "Empires", timeout=WAIT_MS)
    options = page.locator(".history-games option")
    expect(options).to_have_count(3, timeout=WAIT_MS)
    texts = [t.replace("\u00a0", " ") for t in options.all_inner_texts()]
    assert any(t.startswith("2021-01-01 00:00 · Among the Stars · Dimitris Dranidis, Andreas · "
                          "won by Andreas")
               for t in texts), texts
    assert any("2020-03-15 00:00 · Small Star Empires · Dimitris Dranidis, Andreas, "
               "Andreas Alexiou · won by Dimitris Dranidis, Andreas"
               in t for t in texts), texts
    page.locator(".history-games select").select_option(index=0)
    page.click(".history-open")
    viewer = page.locator(".history-imported-scores")
    expect(viewer).to_be_visible(timeout=WAIT_MS)
    rows = viewer.locator("tr").all_inner_texts()
    assert [r.split("\t")[:2] for r in rows[1:]] == [["Dimitris Dranidis", "142"],
                                                     ["Andreas", "145"]]
    expect(page.locator(".history-imported")).to_contain_text("Imported from BoardGameGeek")
    screenshot(page, "history-import-01-opened-phone")
    # issue 37: the BGG play goes to BG Stats; not back to BoardGameGeek, said in one line
    box = page.locator(".history-game-exports")
    expect(box).to_be_visible(timeout=WAIT_MS)
    expect(box.locator(".history-game-exports-heading")).to_have_text(
        "Send this play to BG Stats")
    expect(box.locator(".play-exports-sent-back")).to_have_text(
        "This play came from BoardGameGeek, which has it already: no BoardGameGeek XML "
        "here. Send it to BG Stats.")
    expect(box.locator(".export-bgg")).to_have_count(0)
    expect(box.locator(".export-bgstats-link")).to_have_count(1)
    expect(page.locator(".history-bgg-ask")).to_be_hidden()
    with page.expect_download() as dl:
        box.locator(".export-bgstats").click()
    doc = json.loads(open(dl.value.path(), encoding="utf-8").read())
    names = {p["id"]: p["name"] for p in doc["players"]}
    assert [(names[s["playerRefId"]], s["score"], s["winner"])
            for s in doc["plays"][0]["playerScores"]] == [("Dimitris Dranidis", "142", False),
                                                          ("Andreas", "145", True)]
    assert doc["plays"][0]["playDate"].startswith("2021-01-01")
    assert [(g["name"], g["bggId"]) for g in doc["games"]] == [("Among the Stars", 276025)]
    # the same file again: nothing added
    _choose(page, REAL)
    expect(status).to_contain_text("3 already here, skipped", timeout=WAIT_MS)
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        assert len(store.games(format=None)) == 3
    finally:
        store.close()
    # issue 37: a play from BG Stats goes to BoardGameGeek, read by bgg-api
    bgs = tmp_path / "plays.bgsplay"
    bgs.write_text(json.dumps(BGSTATS), encoding="utf-8")
    _choose(page, bgs)
    expect(status).to_contain_text("Imported 1 play(s)", timeout=WAIT_MS)
    expect(options).to_have_count(4, timeout=WAIT_MS)
    expect(options.first).to_contain_text("Ann O'Neil, Bea & Co", timeout=WAIT_MS)
    page.locator(".history-games select").select_option(index=0)      # newest first
    page.click(".history-open")
    expect(page.locator(".history-imported")).to_contain_text("Imported from BG Stats",
                                                              timeout=WAIT_MS)
    # the location as text: the one bold element is the page's own, holding the markup
    expect(page.locator(".history-details b")).to_have_text(LOCATION)
    expect(box.locator(".history-game-exports-heading")).to_have_text(
        "Send this play to BoardGameGeek")
    expect(box.locator(".play-exports-sent-back")).to_have_text(
        "This play came from BG Stats, which has it already: no BG Stats file or link here "
        "(it would be a second play there). Send it to BoardGameGeek.")
    for sent_back in (".export-bgstats", ".export-bgstats-link", ".export-qr"):
        expect(box.locator(sent_back)).to_have_count(0)
    xml_link = box.locator(".export-bgg")
    expect(xml_link).to_be_visible(timeout=WAIT_MS)
    xml_link.scroll_into_view_if_needed()
    screenshot(page, "issue37-imported-play-exports")
    with page.expect_download() as dl:
        xml_link.click()
    # the day, the hour and the game's id (issue 50: two plays of a day had one name)
    name = dl.value.suggested_filename
    assert name.startswith("among-the-stars-2022-05-01-") and name.endswith("-bgg.xml"), name
    root = ET.fromstring(open(dl.value.path(), "rb").read())
    plays = create_plays_from_xml(root)
    add_plays_from_xml(plays, root)
    assert [(p.game_id, p.game_name, p.date.strftime("%Y-%m-%d"), p.duration) for p in plays] \
        == [(276025, "Among the Stars", "2022-05-01", 80)]
    assert [(q.name, q.score, q.win) for q in plays[0].players] == \
        [("Ann O'Neil", "51", "1"), ("Bea & Co", "47", "0")]
    assert root.find("play").get("location") == LOCATION
    expect(page.locator(".companion-status .status-error")).to_have_count(0)
