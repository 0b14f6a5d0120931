"""Issue 16, the dashboard's part, driven from Python (no browser): the play timer
button of both games (starts with the game, a tap pauses and resumes, a second
page on the same store sees it, a stale page's tap is refused, it stops at the
final table), location / notes / new players on the setup and final screens
(saved to the record's meta, shown in History, hostile text refused or escaped),
the final table's exports to other play loggers (read back with
companion.plays_export), and the History tab's first-sync progress bar, search,
sort and people statistics.  The browser test is
tests/browser/test_browser_play_details.py.

The games are the fixture games of tests/test_history.py (fixture cards only)."""
from __future__ import annotations

import base64
import copy
import json
import re
import time
import xml.etree.ElementTree as ET

import pytest

from companion.sse.record import FORMAT as SSE_FORMAT
from companion.table import derived, history, playtime, plays_export
from companion.ui.app import App
from companion.ui.history_tab import HistoryTab, search_sort
from companion.ui.playdetails import check_text

from test_history import records

EVIL = "<script>alert(1)</script>"


def status(app) -> str:
    return app.status.value


def start_ats(app, names=("Ann", "Bea"), **details):
    for box, n in zip(app.ats.setup_part.name_boxes, names):
        box.value = n
    form = app.ats.setup_part.setup_details
    form.location.value = details.get("location", "")
    form.notes.value = details.get("notes", "")
    for n in details.get("new", ()):
        form.new_boxes[n].value = True
    app.guarded(app.ats.setup_part.start_game)()


def links(html: str) -> dict[str, tuple[str, bytes]]:
    """class -> (download name, decoded bytes) of every data: link in ``html``."""
    out = {}
    for m in re.finditer(r"<a class='([\w-]+) export-link' download='([^']*)' "
                         r"href='data:[^;]+;base64,([^']*)'", html):
        out[m.group(1)] = (m.group(2), base64.b64decode(m.group(3)))
    return out


def exports_html(page) -> str:
    """Open the final table's *Send this play…* panel and return its HTML."""
    screen = page.ats if isinstance(page, App) else page      # either game's screen
    screen.exports.panel.selected_index = 0
    return screen.exports.html.value


def stored_meta(store, gid) -> dict:
    return store.load(gid)["meta"]


# ---------------------------------------------------------------------------
# the timer
# ---------------------------------------------------------------------------
def test_the_timer_starts_with_the_game_and_a_tap_pauses_and_resumes_across_pages(store):
    app = App(store)
    start_ats(app)
    gid = app.ats.gid
    assert playtime.state(stored_meta(store, gid)) == "running"
    button = app.ats.timer.button
    assert "running" in button.description and "tap to pause" in button.description
    assert "play-timer" in button._dom_classes and "timer-running" in button._dom_classes
    # it sits in the play screen's status area, right under the turn line
    kids = list(app.ats.play_screen.children)
    assert kids[kids.index(app.ats.turn_info) + 1] is button

    button.click()                                   # pause
    assert playtime.state(stored_meta(store, gid)) == "paused"
    assert "paused" in button.description and "Play timer paused" in status(app)

    # a reload (a second page on the same store) sees the paused timer
    app2 = App(store)
    assert app2.ats.gid == gid
    assert "paused" in app2.ats.timer.button.description
    assert playtime.timer(app2.ats.timer.meta) == playtime.timer(app.ats.timer.meta)

    app2.ats.timer.button.click()                        # resumed on the second page
    assert playtime.state(stored_meta(store, gid)) == "running"
    # the first page has not seen it: its tap is refused, nothing written, and it now
    # shows the stored timer
    before = stored_meta(store, gid)
    button.click()
    assert "changed on another page" in status(app)
    assert stored_meta(store, gid) == before
    assert "running" in button.description
    button.click()                                   # now it pauses
    assert playtime.state(stored_meta(store, gid)) == "paused"
    # a tap never changes the game's revision: the other page's entries stay valid
    assert store.revision(gid) == app2.ats.rev == 0


def test_two_taps_at_once_never_both_get_through(store, monkeypatch):
    """The read of the stored timer and the write are one compare-and-set: a page
    whose read came just before another page's write is refused at the write."""
    app = App(store)
    start_ats(app)
    gid = app.ats.gid
    app2 = App(store)
    seen = stored_meta(store, gid)                  # both pages read "running" ...
    app2.ats.timer.button.click()                        # ... page 2 writes "paused" first
    assert playtime.state(stored_meta(store, gid)) == "paused"
    after_page2 = stored_meta(store, gid)
    import companion.ui.playdetails as pd
    monkeypatch.setattr(pd, "stored_meta", lambda _s, _g: seen)   # page 1's earlier read
    app.ats.timer.button.click()
    assert "changed on another page" in status(app)
    assert stored_meta(store, gid) == after_page2    # page 2's pause kept, nothing else
    with pytest.raises(Exception, match="changed on another page"):
        history.set_play_details(store, gid, playtime.pause(seen),
                                 expect_timer=playtime.timer(seen))
    assert stored_meta(store, gid) == after_page2


def test_a_pause_is_not_counted(store):
    app = App(store)
    start_ats(app)
    t0 = time.time()
    meta = playtime.start({}, now=t0 - 3600)             # an hour ago
    meta = playtime.pause(meta, now=t0 - 1800)           # 30 min played, then paused
    history.set_play_details(store, app.ats.gid, meta)
    app2 = App(store)
    assert app2.ats.timer.button.description.startswith("Timer 0:30:00 · paused")
    app2.ats.timer.button.click()                            # resume: still 30 min
    assert "0:30:0" in app2.ats.timer.button.description


def _finished_but_last(title="G1"):
    rec = records()[title]
    last = rec["actions"].pop()
    return rec, last


def test_the_timer_stops_at_the_final_table(store):
    rec, last = _finished_but_last()
    rec["meta"] = playtime.start({}, now=time.time() - 95 * 60)
    gid = store.create(rec, title="G1")
    app = App(store)
    assert app.ats.gid == gid and not app.ats.game.state.finished
    app.ats.push_entry(last)                                  # the game's last action
    assert app.ats.game.state.finished and app.ats.final_box.children
    meta = stored_meta(store, gid)
    assert playtime.state(meta) == "stopped"
    assert meta["duration_min"] == 95
    assert "played (stopped)" in app.ats.timer.button.description
    app.ats.timer.button.click()                              # a tap says so, changes nothing
    assert "stopped at the final table" in status(app)
    assert stored_meta(store, gid) == meta
    # the final screen's form is filled, the exports carry the duration
    exports = links(exports_html(app))
    doc = json.loads(exports["export-bgstats"][1])
    assert doc["plays"][0]["durationMin"] == 95


def test_an_old_game_without_a_timer_can_start_one(store):
    rec = records()["G1"]
    rec["actions"] = rec["actions"][:2]
    store.create(rec, title="old")
    app = App(store)
    assert app.ats.timer.button.description == "Start the play timer"
    app.ats.timer.button.click()
    assert playtime.state(stored_meta(store, app.ats.gid)) == "running"


def test_a_finished_game_without_a_timer_offers_none(store):
    gid = store.create(records()["G1"], title="G1")
    app = App(store)
    assert app.ats.game.state.finished
    assert app.ats.timer.button.layout.display == "none"
    app.guarded(app.ats.timer.tap)()
    assert "can no longer be started" in status(app)
    assert "timer" not in stored_meta(store, gid)


def test_a_tap_after_the_game_was_deleted_goes_back_to_the_setup_screen(store):
    app = App(store)
    start_ats(app)
    store.delete(app.ats.gid)
    app.ats.timer.button.click()
    assert app.ats.body.children == (app.ats.setup_part.setup_screen,)
    assert "deleted on another page" in status(app)


# ---------------------------------------------------------------------------
# details on the setup and final screens, shown in History
# ---------------------------------------------------------------------------
def test_setup_details_are_saved_and_shown_in_history(store):
    app = App(store)
    start_ats(app, location=f"Kitchen {EVIL}", notes="line one\nline two", new=["Bea"])
    d = history.play_details(store, app.ats.gid)
    assert (d["location"], d["notes"], d["new_players"]) == \
        (f"Kitchen {EVIL}", "line one\nline two", ["Bea"])
    # History: the list names the location, a search finds it, the game shows it escaped
    app.tabs.selected_index = 2
    tab = app.history
    assert any("at Kitchen" in label for label, _ in tab.list.options)
    tab.filter.value = "kitchen"
    assert [v for _, v in tab.list.options] == [app.ats.gid]
    tab.filter.value = "line two"                         # notes are searched too
    assert [v for _, v in tab.list.options] == [app.ats.gid]
    tab.open_selected()
    head = tab.viewer.children[0].value
    assert "Kitchen &lt;script&gt;alert(1)&lt;/script&gt;" in head
    assert "<script>" not in head and "line two" in head and "new: Bea" in head
    assert "timer running" in head


def test_final_screen_details_are_saved_and_reach_history_and_exports(store):
    gid = store.create(records()["G1"], title="G1")
    app = App(store)
    form = app.ats.final_details
    assert app.ats.final_details_box in app.ats.final_box.children
    assert [c.description for c in form.new_box.children] == ["Ann", "Bea"]
    form.location.value = "Club"
    form.notes.value = EVIL
    form.new_box.children[0].value = True
    app.ats.final_details_box.children[-1].click()          # Save the play details
    assert "Saved the play details" in status(app)
    d = history.play_details(store, gid)
    assert (d["location"], d["notes"], d["new_players"]) == ("Club", EVIL, ["Ann"])
    # the exports were made again with them
    doc = json.loads(links(exports_html(app))["export-bgstats"][1])
    assert doc["locations"][0]["name"] == "Club" and EVIL in doc["plays"][0]["comments"]
    # a new page shows them in the form
    app2 = App(store)
    assert (app2.ats.final_details.location.value, app2.ats.final_details.notes.value) == ("Club", EVIL)
    assert app2.ats.final_details.new_box.children[0].value is True
    # the History list and the games table
    app2.tabs.selected_index = 2
    games = app2.history.games_table.set_index("game_id")
    assert games.loc[gid, "location"] == "Club" and games.loc[gid, "notes"] == EVIL


@pytest.mark.parametrize("field, text, words", [
    ("location", "a" * 10_000, "Location: too long (10,000 characters, at most 200)"),
    ("notes", "n" * 10_000, "Notes: too long (10,000 characters, at most 5,000)"),
    ("location", "Kitchen\x07", "Location: contains a control character (U+0007) at character 8"),
    ("notes", "ok\x00bad", "Notes: contains a control character (U+0000) at character 3"),
    ("location", "two\nlines", "Location: contains a line break"),
])
def test_hostile_details_are_refused_with_a_message_and_start_nothing(store, field, text,
                                                                      words):
    app = App(store)
    kw = {field: text}
    start_ats(app, **kw)
    assert words in status(app) and "Traceback" not in status(app)
    assert app.ats.gid is None and store.games() == []
    assert app.ats.body.children == (app.ats.setup_part.setup_screen,)


def test_hostile_details_on_the_final_screen_are_refused_and_nothing_is_written(store):
    gid = store.create(records()["G1"], title="G1")
    app = App(store)
    before = stored_meta(store, gid)
    app.ats.final_details.notes.value = "x" * 10_000
    app.ats.final_details_box.children[-1].click()
    assert "Notes: too long (10,000 characters, at most 5,000)" in status(app)
    app.ats.final_details.notes.value = "bell\x07"
    app.ats.final_details_box.children[-1].click()
    assert "control character (U+0007)" in app.ats.final_msg.value    # next to the form
    assert stored_meta(store, gid) == before


def test_check_text_messages():
    assert check_text("The notes", "  a\nb\tc ", 10, lines=True) == "a\nb\tc"
    with pytest.raises(Exception, match="lone surrogate"):
        check_text("The location", "x\ud800", 10)
    with pytest.raises(Exception, match="at most 3"):
        check_text("The location", "abcd", 3)


# ---------------------------------------------------------------------------
# the final table's exports
# ---------------------------------------------------------------------------
def _read_back(store, gid, html):
    got = links(html)
    name, data = got["export-bgstats"]
    assert name.endswith(".bgsplay")
    doc = json.loads(data)
    want = plays_export.bgstats_document(plays_export.plays(store, {gid}))
    assert doc == want and len(doc["plays"]) == 1
    name, data = got["export-bgg"]
    assert name.endswith("-bgg.xml")
    root = ET.fromstring(data)
    assert data.decode() == plays_export.bgg_xml(plays_export.plays(store, {gid}))
    link = plays_export.play_link(store, gid)
    assert f"href='{link}'" in html                     # quote(safe=''): nothing to escape
    assert "class='export-qr'" in html and "<svg viewBox=" in html
    return doc, root


def test_ats_final_table_exports_are_what_plays_export_writes(store):
    rec = records()["G1"]
    rec["meta"] = playtime.with_details(playtime.stop(playtime.start({}, now=1e9),
                                                      now=1e9 + 3000),
                                        location=EVIL, new_players=["Bea"])
    gid = store.create(rec, title="G1")
    app = App(store)
    doc, root = _read_back(store, gid, exports_html(app))
    play = doc["plays"][0]
    assert play["durationMin"] == 50
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bea"]
    scores = {s["playerRefId"]: s for s in play["playerScores"]}
    assert (scores[1]["score"], scores[1]["winner"], scores[2]["newPlayer"]) == ("44", True, True)
    assert "Scoresheet:" in play["comments"]
    p = root.find("play")
    assert (p.get("length"), p.get("location")) == ("50", EVIL)
    assert [x.get("name") for x in p.find("players")] == ["Ann", "Bea"]
    # the hostile location is escaped in the HTML: only inside the files and the link
    assert EVIL not in app.ats.exports.html.value
    # the exported record carries the details too (import keeps them)
    rec_link = next(a for a in app.ats.final_box.children if hasattr(a, "value")
                    and "export-json" in getattr(a, "value", ""))
    data = re.search(r"export-json export-link' download='[^']*' href='data:application/json;"
                     r"base64,([^']*)'", rec_link.value).group(1)
    assert json.loads(base64.b64decode(data))["meta"]["location"] == EVIL


def test_sse_final_table_exports_timer_and_details(store):
    rec = records()["S1"]
    rec["meta"] = playtime.start({}, now=time.time() - 20 * 60)
    gid = store.create(rec, title="S1")
    app = App(store)
    app.tabs.selected_index = 1
    tab = app.sse
    assert tab.gid == gid and tab.game.state.finished
    # the timer stopped at the final table
    assert playtime.state(stored_meta(store, gid)) == "stopped"
    assert tab.timer.button.description.endswith(" played")
    assert tab.final_part.final_extra.layout.display == ""
    tab.final_part.final_details.location.value = "Café"
    tab.final_part.final_details.new_box.children[1].value = True
    tab.final_part.final_extra.children[2].click()                   # Save the play details
    d = history.play_details(store, gid)
    assert (d["location"], d["new_players"], d["duration_min"]) == ("Café", ["Bob"], 20)
    doc, root = _read_back(store, gid, exports_html(tab))
    scores = doc["plays"][0]["playerScores"]
    assert [s["role"] for s in scores] and all(s["role"] for s in scores)   # colours
    assert root.find("play").get("location") == "Café"


def test_sse_timer_starts_with_the_game_and_survives_a_reload(store):
    app = App(store)
    app.tabs.selected_index = 1
    tab = app.sse
    tab.setup_part.names[0].value, tab.setup_part.names[1].value = "Ann", "Bob"
    tab.setup_part.ships.value = 2
    tab.setup_part.setup_details.location.value = "Garden"
    tab.setup_part.setup_details.notes.value = EVIL
    tab.setup_part.setup_details.new_boxes["Bob"].value = True
    tab.start_game()
    gid = tab.gid
    meta = stored_meta(store, gid)
    assert playtime.state(meta) == "running" and meta["location"] == "Garden"
    # compact, beside the turn line (the board stays on a phone's first screen)
    assert tab.play_screen.children[0].children == (tab.turn, tab.timer.button)
    assert tab.timer.button.description.endswith(" running")
    tab.timer.button.click()
    app2 = App(store)
    app2.tabs.selected_index = 1
    assert app2.sse.gid == gid and "paused" in app2.sse.timer.button.description
    app2.sse.timer.button.click()
    assert playtime.state(stored_meta(store, gid)) == "running"
    # hostile setup text is refused there too
    app.sse.show_setup()
    tab.setup_part.setup_details.location.value = "x\x1b[31m"
    tab.guarded(tab.start_game)()
    assert "control character (U+001B)" in status(app)
    assert len(store.games(format=SSE_FORMAT)) == 1


# ---------------------------------------------------------------------------
# History: progress, search and sort, people statistics
# ---------------------------------------------------------------------------
def _many(store, n=12):
    recs = records()
    for i in range(n):
        rec = copy.deepcopy(recs["G1" if i % 2 else "S1"])
        rec["meta"] = {"location": f"table {i:02d}"}
        store.create(rec, title=f"game {i}")


def test_the_first_sync_shows_a_progress_bar_with_counts(store):
    _many(store)
    app = App(store)
    seen = []
    tab = HistoryTab(app, load=False)
    orig = tab.progress.__class__.__call__

    def spy(self, done, total):
        orig(self, done, total)
        seen.append((done, total, self.box.layout.display, self.label.value))
    tab.progress.__class__.__call__ = spy
    try:
        tab.refresh()
    finally:
        tab.progress.__class__.__call__ = orig
    assert seen[0][:3] == (0, 12, "") and seen[-1][:3] == (12, 12, "")
    assert "Updating the history: 12 of 12 games (100%)" in seen[-1][3]
    assert tab.progress.box.layout.display == "none"        # hidden when done
    # a second opening has nothing to derive: no bar
    tab.progress.updates = 0
    tab.refresh()
    assert tab.progress.updates == 0


def test_the_history_tab_opened_from_the_page_shows_the_bar_before_the_sync(store):
    _many(store, 3)
    app = App(store)
    shown = []
    real = derived.sync          # what the History tab syncs through (history.current)

    def sync(s, **kw):
        # the tab is on the page before the sync starts
        shown.append(app.history_box.children and app.history_box.children[0])
        return real(s, **kw)
    derived.sync = sync
    try:
        app.tabs.selected_index = 2
    finally:
        derived.sync = real
    assert shown and shown[0] is app.history.box


def test_games_list_sorts_and_statistics_tables_search_and_sort(store):
    _many(store)
    app = App(store)
    app.tabs.selected_index = 2
    tab = app.history
    labels = [lab for lab, _ in tab.list.options]
    tab.order.value = "old"
    assert [lab for lab, _ in tab.list.options] == labels[::-1]
    tab.order.value = "location"
    locs = [re.search(r"at (table \d+)", lab).group(1) for lab, _ in tab.list.options]
    assert locs == sorted(locs)
    tab.order.value = "game"
    games = [lab.split(" · ")[1] for lab, _ in tab.list.options]
    assert games == sorted(games)
    # the statistics table: search and sort, the CSV is what is shown
    tab.stat.value = "games"
    assert tab.stat_sort.options[0] == ("as listed", "")
    assert ("location", "location") in tab.stat_sort.options
    tab.stat_find.value = "table 03"
    assert tab.stat_out.value.count("table 03") >= 1 and "table 05" not in tab.stat_out.value
    assert "1 of 12 rows" in tab.stat_out.value
    tab.stat_find.value = ""
    tab.stat_sort.value = "location"
    html = tab.stat_out.value
    assert html.index("table 00") < html.index("table 11")
    tab.stat_reverse.value = True
    html = tab.stat_out.value
    assert html.index("table 11") < html.index("table 00")
    tab.stat_find.value = "<script>"                        # a search is only text
    assert "<script>" not in tab.stat_out.value


def test_search_sort_on_numbers_text_and_a_named_index():
    import pandas as pd
    df = pd.DataFrame({"player": ["bea", "Ann", "cid"], "games": [2, 5, 1]})
    assert list(search_sort(df, "", "games").player) == ["Ann", "bea", "cid"]
    assert list(search_sort(df, "", "games", reverse=True).player) == ["cid", "bea", "Ann"]
    assert list(search_sort(df, "", "player").player) == ["Ann", "bea", "cid"]
    assert list(search_sort(df, "AN", "").player) == ["Ann"]
    by_year = pd.DataFrame({"Ann": [3, 9]}, index=pd.Index([1, 2], name="year"))
    assert list(search_sort(by_year, "", "year", reverse=False).index) == [2, 1]
    assert list(search_sort(by_year, "2", "").index) == [2]


def test_people_statistics_in_history_with_csv_and_chart(store):
    ids = {}
    for t in ("G1", "G2", "S1"):
        ids[t] = store.create(records()[t], title=t)
    app = App(store)
    app.tabs.selected_index = 2
    tab = app.history
    names = [o for o in tab.stat.options if o.startswith("people: ")]
    assert names == ["people: head-to-head", "people: streaks", "people: monthly",
                     "people: yearly"]
    tab.stat.value = "people: head-to-head"
    html = tab.stat_out.value
    assert "<svg" in html and "history-people-chart" in html
    m = re.search(r"download='people-head-to-head.csv' [^>]*base64,([^']*)'", html)
    csv = base64.b64decode(m.group(1)).decode()
    assert csv.splitlines()[0] == "player,opponent,games,won,lost,tied,win_rate"
    assert any(line.startswith("Ann,Bea,1,1,0,0") for line in csv.splitlines())
    tab.stat.value = "people: streaks"
    assert "Longest winning streak" in tab.stat_out.value
