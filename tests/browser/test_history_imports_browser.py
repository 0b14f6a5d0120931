"""Issue 37 in the real page: "the History tab does not duplicate it but says 'Imported 1
game(s)' both times" and "History offers no per-game BG Stats / BGG export (only the
final screen and the CLI), and the BGG XML has no game id (`bgg-api` reads
`game_id=None`)".

The host imports the same record file twice: the second time the page says it was
already there, and the games list (with its winner) does not change.  Then the game,
opened, asks once for its BoardGameGeek id, and its BG Stats play file and BGG XML
download (Playwright's expect_download); bgg-api reads the id the player typed."""
from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET

import pytest
from playwright.sync_api import expect

from boardgamegeek.loaders.plays import add_plays_from_xml, create_plays_from_xml

from companion.table.store import Store
from browser_harness import screenshot
from dashboard_driver import open_tab
from test_history import records

pytestmark = pytest.mark.browser

WAIT_MS = 30_000
PLAYED = time.mktime((2021, 3, 4, 20, 0, 0, 0, 0, -1))


PHONE = {"width": 390, "height": 844}

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


def test_history_imports_a_record_once_and_exports_it(voila_server, page, tmp_path):
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
