"""Issue 50: "two plays of one day download under one file name" (the final table's BG
Stats and BoardGameGeek files were ``play-<day>.bgsplay``: the second download replaced the
first in the phone's Downloads).  Each play's files now carry its start and its id."""
from __future__ import annotations

from pathlib import Path

from companion.table.store import Store
from companion.ui.play_exports import final_exports

from test_history import records
from test_play_details_ui import links


def test_two_finished_plays_of_one_evening_download_under_two_names(tmp_path):
    store = Store(tmp_path / "games.db")
    rec = records()["G1"]                      # a finished Among the Stars game
    first, second = store.create(rec, title="one"), store.create(records()["G1"], title="two")
    names = {}
    for gid in (first, second):
        got = links(final_exports(store, gid, slug="among-the-stars"))
        assert {"export-bgstats", "export-bgg"} <= set(got)
        names[gid] = {k: v[0] for k, v in got.items()}
        for name in names[gid].values():
            assert name.startswith("among-the-stars-") and gid[:8] in name
            assert all(c.isalnum() or c in "-." for c in name)
    assert names[first]["export-bgstats"] != names[second]["export-bgstats"]
    assert names[first]["export-bgg"] != names[second]["export-bgg"]


def test_history_asks_the_expansions_boardgamegeek_id_after_the_games(tmp_path):
    """Issue 50: "no BGG id for the Revival expansion": History asked for the game's id
    only, and a Revival play went to the loggers with its expansion unnamed by id."""
    import json

    from companion.table import plays_export
    from companion.ui.app import App
    from companion.ui.history_tab import HistoryTab
    ROOT = Path(__file__).resolve().parent.parent

    store = Store(tmp_path / "games.db")
    rec = json.loads((ROOT / "data" / "samples" / "thalia-u-cannon.json").read_text())
    gid = store.create(rec)                      # a Revival game (its record's cards)
    app = App(store)
    tab = HistoryTab(app, load=False)
    tab.refresh()
    ex = tab.exports
    ex.show(gid, "Among the Stars")
    assert ex.ask.layout.display == "" and "Among the Stars yet" in ex.words.value
    ex.id_box.value = "1001"
    ex.save_id()
    # the game's id saved: now the expansion's, in the same box
    assert ex.ask.layout.display == ""
    assert "Among the Stars: Revival yet" in ex.words.value
    ex.id_box.value = "1002"
    ex.save_id()
    assert "expansion 1002" in app.status.value
    assert ex.ask.layout.display == "none"
    ids = plays_export.load_settings()["bgg_ids"]
    assert (ids["Among the Stars"], ids["Among the Stars: Revival"]) == (1001, 1002)
