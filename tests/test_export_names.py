"""Issue 50: "two plays of one day download under one file name" (the final table's BG
Stats and BoardGameGeek files were ``play-<day>.bgsplay``: the second download replaced the
first in the phone's Downloads).  Each play's files now carry its start and its id."""
from __future__ import annotations

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
