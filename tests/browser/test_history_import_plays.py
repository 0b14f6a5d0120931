"""Issue 22: the History tab reads plays logged on BoardGameGeek.  In the real page,
the host imports a real BGG plays XML (tests/data/real/README-import.md) whose games
the table has given the BGG ids of (history bgg-ids, loggers.json); the list shows
the imported plays, one opens with the file's scores, and the same file again adds
nothing."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from companion.table import plays_export
from companion.table.store import Store
from browser_harness import screenshot
from dashboard_driver import open_tab

pytestmark = pytest.mark.browser

WAIT_MS = 30_000
REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "bgg_plays_ddmits_trimmed.xml"


def _choose(page, path: Path) -> None:
    with page.expect_file_chooser() as chooser:
        page.click(".history-import-plays")
    chooser.value.set_files(str(path))


def test_history_imports_real_bgg_plays(voila_server, page):
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
    # the same file again: nothing added
    _choose(page, REAL)
    expect(status).to_contain_text("3 already here, skipped", timeout=WAIT_MS)
    store = Store(path=voila_server.home / "games.sqlite")
    try:
        assert len(store.games(format=None)) == 3
    finally:
        store.close()
    expect(page.locator(".companion-status .status-error")).to_have_count(0)
