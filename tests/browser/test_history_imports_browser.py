"""Issue 37 in the real page: "the History tab does not duplicate it but says 'Imported 1
game(s)' both times" and "History offers no per-game BG Stats / BGG export (only the
final screen and the CLI), and the BGG XML has no game id (`bgg-api` reads
`game_id=None`)".

The host imports the same record file twice: the second time the page says it was
already there, and the games list (with its winner) does not change.  Then the game,
opened, asks once for its BoardGameGeek id, and its BG Stats play file and BGG XML
download (Playwright's expect_download); bgg-api reads the id the player typed.

Then, on the same page (one server, one page load: issue 51; this was
test_history_import_plays.py), issue 22: the History tab reads plays logged on
BoardGameGeek.  The host imports a real BGG plays XML (tests/data/real/README-import.md)
whose games the table has given the BGG ids of (history bgg-ids, loggers.json); the list
shows the imported plays, one opens with the file's scores, and the same file again adds
nothing.  Issue 37: "a player who imported plays from one logger should be able to send
one to the other".  The opened BGG play offers its BG Stats play file (no BGG XML:
BoardGameGeek has it, said in one line); then a play imported from a BG Stats file offers
its BGG XML (no BG Stats file or link, said in one line), which bgg-api's plays loader
(the third-party reader the other tests use) reads: the game id the player set, the day,
the players and scores; names and a location with markup are shown as text."""
from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from playwright.sync_api import expect

from boardgamegeek.loaders.plays import add_plays_from_xml, create_plays_from_xml

from companion.table import plays_export
from companion.table.store import Store
from browser_harness import screenshot
from dashboard_driver import open_tab
from test_history import records

pytestmark = pytest.mark.browser

WAIT_MS = 30_000
PLAYED = time.mktime((2021, 3, 4, 20, 0, 0, 0, 0, -1))


PHONE = {"width": 390, "height": 844}
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

#: each player's name on the VP chart, with the end of the line of the same colour (SVG units)
_NAMES_AND_ENDS = """(svg) => {
  const width = svg.viewBox.baseVal && svg.viewBox.baseVal.width
      ? svg.viewBox.baseVal.width : svg.width.baseVal.value;
  const ends = {};
  for (const pl of svg.querySelectorAll('polyline')) {
    const pts = pl.points; const p = pts.getItem(pts.numberOfItems - 1);
    ends[pl.getAttribute('stroke')] = {x: p.x, y: p.y};
  }
  return Array.from(svg.querySelectorAll('text.vp-chart-name')).map(t => {
    const b = t.getBBox(); const end = ends[t.getAttribute('fill')];
    return {name: t.textContent, left: b.x, right: b.x + b.width, y_mid: b.y + b.height / 2,
            x_end: end.x, y_end: end.y, svg_width: width};
  });
}"""


def _choose(page, path) -> None:
    with page.expect_file_chooser() as chooser:
        page.click(".history-import")
    chooser.value.set_files(str(path))


def _choose_plays(page, path: Path) -> None:
    with page.expect_file_chooser() as chooser:
        page.click(".history-import-plays")
    chooser.value.set_files(str(path))


def test_history_imports_a_record_once_then_real_bgg_plays_and_exports_them(voila_server, page,
                                                                            tmp_path):
    rec = records()["G1"]
    rec["meta"] = {"title": "Ann and Bea, at the club", "played": PLAYED}
    path = tmp_path / "g1.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    # the same game exported at its 30th action, before it was played to its end
    early = dict(rec, actions=rec["actions"][:30])
    early_path = tmp_path / "g1-at-30.json"
    early_path.write_text(json.dumps(early), encoding="utf-8")
    more = len(rec["actions"]) - 30
    page.goto(voila_server.url)
    page.locator(".companion-title").wait_for(state="visible", timeout=60_000)
    open_tab(page, "History", history_games=0)
    status = page.locator(".companion-status")
    _choose(page, early_path)
    expect(status).to_contain_text("Imported 1 new game", timeout=WAIT_MS)
    options = page.locator(".history-games option")
    expect(options).to_have_count(1, timeout=WAIT_MS)
    # the game played on: the same game brought up to date, not a second one
    _choose(page, path)
    expect(status).to_contain_text(f"Imported 0 new games; 1 brought up to date (Ann and Bea, "
                                   f"at the club: {more} more actions)", timeout=WAIT_MS)
    expect(options).to_have_count(1)
    expect(options.first).to_contain_text("won by", timeout=WAIT_MS)
    before = options.all_inner_texts()
    assert before[0].replace("\u00a0", " ").startswith("2021-03-04 20:00 · Among the Stars · Ann, Bea · won by"), before
    # the same file again: nothing added, and the page says so
    _choose(page, path)
    expect(status).to_contain_text("Imported 0 new games; 1 already there (g1.json: Ann and "
                                   "Bea, at the club)", timeout=WAIT_MS)
    expect(options).to_have_count(1)
    assert options.all_inner_texts() == before
    screenshot(page, "issue37-01-imported-twice")
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        assert len(store.games(format=None)) == 1
    finally:
        store.close()
    # the game's exports, its BoardGameGeek id asked once
    page.locator(".history-games select").select_option(index=0)
    page.click(".history-open")
    box = page.locator(".history-game-exports")
    expect(box).to_be_visible(timeout=WAIT_MS)
    # -- on a phone: the chosen game's whole line, and each name at the end of its line -----
    page.set_viewport_size(PHONE)
    chosen = page.locator(".history-chosen")
    expect(chosen).to_contain_text(before[0].replace("\u00a0", " ").split(" · won by")[0])
    line = chosen.bounding_box()
    assert line["x"] >= 0 and line["x"] + line["width"] <= PHONE["width"], line
    assert chosen.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1")
    chart = page.locator(".vp-chart:visible").first      # the opened game's
    chart.scroll_into_view_if_needed()
    ends = chart.evaluate(_NAMES_AND_ENDS)
    assert sorted(e["name"].split(" ")[0] for e in ends) == ["Ann", "Bea"], ends
    for e in ends:
        assert e["left"] >= e["x_end"], e                 # right of its own line's end
        assert abs(e["y_mid"] - e["y_end"]) <= 13 * len(ends), e   # beside it, not a corner
        assert e["right"] <= e["svg_width"], e             # not cut by the chart's edge
    screenshot(page, "issue37-02b-phone-chosen-and-chart")
    page.set_viewport_size({"width": 1280, "height": 900})
    ask = page.locator(".history-bgg-ask")
    expect(ask).to_contain_text("No BoardGameGeek id for Among the Stars", timeout=WAIT_MS)
    screenshot(page, "issue37-02-asks-the-bgg-id")
    page.locator(".history-bgg-id input").fill("4242")
    page.click(".history-bgg-id-save")
    expect(status).to_contain_text("Saved: Among the Stars is BoardGameGeek game 4242",
                                   timeout=WAIT_MS)
    expect(ask).to_be_hidden(timeout=WAIT_MS)
    settings = json.loads((voila_server.home / "loggers.json").read_text())
    assert settings["bgg_ids"]["Among the Stars"] == 4242
    screenshot(page, "issue37-03-exports")
    with page.expect_download() as dl:
        box.locator(".export-bgstats").click()
    doc = json.loads(open(dl.value.path(), encoding="utf-8").read())
    assert dl.value.suggested_filename.endswith(".bgsplay")
    assert len(doc["plays"]) == 1 and doc["games"][0]["bggId"] == 4242
    with page.expect_download() as dl:
        box.locator(".export-bgg").click()
    root = ET.fromstring(open(dl.value.path(), "rb").read())
    plays = create_plays_from_xml(root)
    add_plays_from_xml(plays, root)
    assert [(p.game_id, p.game_name, p.date.strftime("%Y-%m-%d")) for p in plays] == \
        [(4242, "Among the Stars", "2021-03-04")]
    expect(page.locator(".companion-status .status-error")).to_have_count(0)

    # ===================== issue 22: plays logged on BoardGameGeek, on the host's phone
    # the table gives the BGG ids (as `companion history bgg-ids` writes them)
    plays_export.save_bgg_ids({"Among the Stars": 276025, "Small Star Empires": 105551},
                              path=voila_server.home / plays_export.SETTINGS_FILE)
    page.set_viewport_size(PHONE)
    _choose_plays(page, REAL)
    status = page.locator(".companion-status")
    expect(status).to_contain_text("Imported 3 play(s) of Among the Stars / Small Star "
                                   "Empires", timeout=WAIT_MS)
    expect(options).to_have_count(1 + 3, timeout=WAIT_MS)     # the record above, 3 plays
    texts = [t.replace("\u00a0", " ") for t in options.all_inner_texts()]
    assert any(t.startswith("2021-01-01 00:00 · Among the Stars · Dimitris Dranidis, Andreas · "
                          "won by Andreas")
               for t in texts), texts
    assert any("2020-03-15 00:00 · Small Star Empires · Dimitris Dranidis, Andreas, "
               "Andreas Alexiou · won by Dimitris Dranidis, Andreas"
               in t for t in texts), texts
    # the Among the Stars play of 2021-01-01 (the record above, of 2021-03-04, is newer)
    texts = [t.replace("\u00a0", " ") for t in options.all_inner_texts()]
    bgg_play = [i for i, t in enumerate(texts)
                if t.startswith("2021-01-01 00:00 · Among the Stars")]
    assert len(bgg_play) == 1, texts
    page.locator(".history-games select").select_option(index=bgg_play[0])
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
    _choose_plays(page, REAL)
    expect(status).to_contain_text("3 already here, skipped", timeout=WAIT_MS)
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        assert len(store.games(format=None)) == 1 + 3
    finally:
        store.close()
    # issue 37: a play from BG Stats goes to BoardGameGeek, read by bgg-api
    bgs = tmp_path / "plays.bgsplay"
    bgs.write_text(json.dumps(BGSTATS), encoding="utf-8")
    _choose_plays(page, bgs)
    expect(status).to_contain_text("Imported 1 play(s)", timeout=WAIT_MS)
    expect(options).to_have_count(1 + 4, timeout=WAIT_MS)
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
