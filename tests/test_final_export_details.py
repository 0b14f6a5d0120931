"""Issue 22: "After saving the play details, *Export the record (JSON)* gave a file
without the location, notes or new players; the History export had them."  The
final screen exports the stored record, play details included (both games),
in process (the page's own test: tests/browser/test_browser_play_details.py::
test_final_table_details_and_exports_on_a_phone)."""
from __future__ import annotations

import base64
import json
import re


from companion.table import history
from companion.ui.app import App

from test_history import records


def _record_of(html: str, cls: str) -> dict:
    m = re.search(cls + r" export-link' download='[^']*' href='data:application/json;"
                  r"base64,([^']*)'", html)
    assert m, "no record export on the final screen"
    return json.loads(base64.b64decode(m.group(1)))


def _ats_html(app) -> str:
    return "".join(getattr(c, "value", "") for c in app.ats.final_box.children
                   if isinstance(getattr(c, "value", None), str))


def test_ats_final_export_has_the_details_just_saved_and_equals_history(store):
    gid = store.create(records()["G1"], title="G1")
    app = App(store)
    assert "location" not in _record_of(_ats_html(app), "export-json").get("meta", {})
    form = app.ats.final_details
    form.location.value = "Ann's kitchen"
    form.notes.value = "rematch <soon>"
    form.new_box.children[1].value = True                # Bea is new
    app.ats.final_details_box.children[-1].click()           # Save the play details
    rec = _record_of(_ats_html(app), "export-json")
    assert (rec["meta"]["location"], rec["meta"]["notes"], rec["meta"]["new_players"]) == \
        ("Ann's kitchen", "rematch <soon>", ["Bea"])
    # the same record the History tab exports (store.load, through the one dumps)
    assert rec == json.loads(history.dumps(store.load(gid)))


def test_sse_final_export_has_the_details_just_saved(store):
    gid = store.create(records()["S1"], title="S1")
    app = App(store)
    app.tabs.selected_index = 1
    tab = app.sse
    assert tab.gid == gid and tab.game.state.finished
    tab.final_part.final_details.location.value = "Café"
    tab.final_part.final_details.notes.value = "first SSE"
    tab.final_part.final_details.new_box.children[1].value = True   # Bob is new
    tab.final_part.final_extra.children[2].click()                  # Save the play details
    rec = _record_of(tab.final_part.final.value, "sse-export-json")
    assert (rec["meta"]["location"], rec["meta"]["notes"], rec["meta"]["new_players"]) == \
        ("Café", "first SSE", ["Bob"])
    assert rec == json.loads(history.dumps(store.load(gid)))
