"""Play details (issue 16): the play timer as pure functions over a record's meta
(companion/playtime.py), location, notes and new players; stored in the record's
meta and in the derived table g_details (companion/history.py); they survive a
reload of the store, the record export / import, and reach the plays CSV, the
games list and the BG Stats / BoardGameGeek exports.

The games are the fixture games of tests/test_history.py (played through the
engines, fixture cards only)."""
from __future__ import annotations

import copy
import csv
import io
import json
import sqlite3
import xml.etree.ElementTree as ET

import pytest

from companion.table import derived, history, playtime, plays_export, stats
from companion.table.store import Store

from test_history import fill, records

T0 = 1_767_900_000.0          # 2026-01-08 19:20 UTC: any fixed time will do


# ---------------------------------------------------------------------------
# the timer: pure functions
# ---------------------------------------------------------------------------
def test_timer_start_pause_resume_stop_counts_minutes_without_pauses():
    m0 = {"title": "kept"}
    m1 = playtime.start(m0, now=T0)
    m2 = playtime.pause(m1, now=T0 + 30 * 60)            # 30 min played
    m3 = playtime.resume(m2, now=T0 + 40 * 60)           # 10 min paused
    m4 = playtime.stop(m3, now=T0 + 95 * 60)             # 55 more min played
    assert m0 == {"title": "kept"}                       # nothing changed in place
    assert "timer" not in m0 and m1["timer"]["pauses"] == []
    assert [playtime.state(m) for m in (m0, m1, m2, m3, m4)] == \
        ["not started", "running", "paused", "running", "stopped"]
    # 30 + 55 = 85 minutes played, 10 paused
    assert playtime.elapsed(m4) == 85 * 60
    assert playtime.paused_seconds(m4) == 10 * 60
    assert m4["duration_min"] == 85 and m4["title"] == "kept"
    assert playtime.elapsed(m2, now=T0 + 39 * 60) == 30 * 60    # a pause stops the clock
    assert playtime.clock(m3, now=T0 + 41 * 60 + 5) == "0:31:05 (running)"
    d = playtime.details(m4)
    assert (d["started"], d["duration_min"], d["paused_min"], d["timer"]) == \
        (T0, 85, 10, "stopped")


def test_toggle_is_the_one_tap_and_stop_while_paused_ends_at_the_pause():
    m = playtime.toggle({}, now=T0)                      # start
    m = playtime.toggle(m, now=T0 + 600)                 # pause after 10 min
    assert playtime.state(m) == "paused"
    done = playtime.stop(m, now=T0 + 3600)               # the pause was the end
    assert done["duration_min"] == 10 and done["timer"]["pauses"] == []
    assert playtime.stop(done, now=T0 + 9999) == done    # stopping twice keeps the first
    with pytest.raises(playtime.TimerError):
        playtime.toggle(done, now=T0)
    with pytest.raises(playtime.TimerError):
        playtime.start(m, now=T0)
    with pytest.raises(playtime.TimerError):
        playtime.resume({}, now=T0)
    with pytest.raises(playtime.TimerError):
        playtime.pause(playtime.start({}, now=T0), now=float("nan"))


def test_a_clock_set_back_never_gives_a_negative_time():
    m = playtime.start({}, now=T0)
    m = playtime.pause(m, now=T0 - 100)                  # the clock went back
    m = playtime.resume(m, now=T0 - 200)
    m = playtime.stop(m, now=T0 - 300)
    assert playtime.elapsed(m) == 0 and m["duration_min"] == 0


@pytest.mark.parametrize("meta", [
    None, [], "x", {"timer": "x"}, {"timer": {"started": "yesterday"}},
    {"timer": {"started": float("inf")}}, {"timer": {"started": T0, "pauses": [[T0 + 5, None],
                                                                              [T0 + 9, T0 + 10]]}},
    {"timer": {"started": T0, "pauses": [[T0 - 5, T0]]}},
    {"timer": {"started": T0, "stopped": T0 - 1}}, {"timer": {"started": True}},
    {"duration_min": -5, "location": 7, "notes": ["x"], "new_players": "Ann",
     "expansions": {"a": 1}},
    {"duration_min": 10 ** 9, "location": "x" * 10_000, "notes": "\x00n" * 6000},
])
def test_hostile_or_broken_meta_gives_plain_details(meta):
    d = playtime.details(meta, ["Ann", "Bea"])
    assert d["timer"] in playtime.STATES and d["started"] is None
    assert d["duration_min"] is None
    assert isinstance(d["location"], str) and len(d["location"]) <= playtime.MAX_LOCATION
    assert isinstance(d["notes"], str) and len(d["notes"]) <= playtime.MAX_NOTES
    assert "\x00" not in d["notes"]
    assert d["new_players"] == [] and d["expansions"] == []


def test_with_details_sets_checks_and_clears():
    m = playtime.with_details({"title": "t"}, location="  Ann's kitchen ", notes="fun",
                              new_players=["Dan", "Dan", "Bea"], duration_min=75,
                              expansions=["Revival"])
    assert m == {"title": "t", "location": "Ann's kitchen", "notes": "fun",
                 "new_players": ["Dan", "Bea"], "duration_min": 75, "expansions": ["Revival"]}
    # seat order, and only players of the game
    assert playtime.details(m, ["Bea", "Cid", "Dan"])["new_players"] == ["Bea", "Dan"]
    cleared = playtime.with_details(m, location="", new_players=[])
    assert "location" not in cleared and "new_players" not in cleared
    for bad in ({"duration_min": -1}, {"duration_min": True}, {"location": 3},
                {"new_players": "Dan"}):
        with pytest.raises(ValueError):
            playtime.with_details({}, **bad)


# ---------------------------------------------------------------------------
# the store: meta, g_details, reload, export / import
# ---------------------------------------------------------------------------
def _details_meta():
    m = playtime.start({}, now=T0)
    m = playtime.pause(m, now=T0 + 20 * 60)
    m = playtime.resume(m, now=T0 + 25 * 60)
    m = playtime.stop(m, now=T0 + 75 * 60)              # 20 + 50 = 70 min played, 5 paused
    return playtime.with_details(m, location='Ann\'s <kitchen> & "garden"',
                                 notes="Dan's first game\nrematch next week",
                                 new_players=["Dan"])


def test_details_survive_a_reload_of_the_store(tmp_path):
    path = tmp_path / "games.sqlite"
    s = Store(path=path)
    ids = fill(s, ["G4", "G1"])
    history.sync(s)
    got = history.set_play_details(s, ids["G4"], _details_meta())
    assert (got["duration_min"], got["paused_min"], got["new_players"]) == (70, 5, ["Dan"])
    s.close()
    s = Store(path=path)
    try:
        d = history.play_details(s, ids["G4"])
        assert d["duration_min"] == 70 and d["location"] == 'Ann\'s <kitchen> & "garden"'
        assert d["notes"] == "Dan's first game\nrematch next week"
        assert d["timer"] == "stopped" and d["started"] == T0
        rec = s.load(ids["G4"])
        assert rec["meta"]["title"] == "G4" and rec["meta"]["duration_min"] == 70
        # the title column is untouched; the game is not replayed by a details change
        assert s.games(format=None)[0]["title"] in ("G4", "G1")
        assert history.sync(s) == 0
        row = s._conn.execute("SELECT duration_min, paused_min, timer, location, new_players "
                              "FROM g_details WHERE game_id=?", (ids["G4"],)).fetchone()
        assert row == (70, 5, "stopped", 'Ann\'s <kitchen> & "garden"', '["Dan"]')
        # a game without details: all empty, the record still valid
        assert history.play_details(s, ids["G1"])["duration_min"] is None
    finally:
        s.close()


def test_details_are_listed_in_the_plays_csv_and_the_games_table(tmp_path):
    s = Store(path=tmp_path / "games.sqlite")
    ids = fill(s, ["G4", "G1"])
    history.set_play_details(s, ids["G4"], _details_meta())
    rows = {r["game_id"]: r for r in csv.DictReader(io.StringIO(history.plays_csv(s)))}
    assert (rows[ids["G4"]]["duration_min"], rows[ids["G4"]]["new_players"]) == ("70", "Dan")
    assert rows[ids["G4"]]["notes"] == "Dan's first game\nrematch next week"
    assert (rows[ids["G1"]]["duration_min"], rows[ids["G1"]]["location"]) == ("", "")
    g = stats.games(s).set_index("game_id")
    assert g.loc[ids["G4"], "duration_min"] == 70 and g.loc[ids["G4"], "new_players"] == "Dan"
    assert g.loc[ids["G1"], "location"] == "" and g.loc[ids["G1"], "duration_min"] is not None
    s.close()


def test_details_survive_export_and_import_of_the_records(tmp_path):
    a = Store(path=tmp_path / "a.sqlite")
    ids = fill(a, ["G4", "S1"])
    history.set_play_details(a, ids["G4"], _details_meta())
    history.set_play_details(a, ids["S1"], playtime.with_details({}, location="club",
                                                                 duration_min=25))
    seen = []
    files = history.export_records(a, tmp_path / "out", progress=lambda d, t: seen.append((d, t)))
    assert len(files) == 2 and seen[0] == (0, 2) and seen[-1] == (2, 2)
    b = Store(path=tmp_path / "b.sqlite")
    new = history.import_records(b, [tmp_path / "out"])
    by_title = {b.load(g)["meta"]["title"]: g for g in new}
    d = history.play_details(b, by_title["G4"])
    assert (d["duration_min"], d["paused_min"], d["location"], d["new_players"]) == \
        (70, 5, 'Ann\'s <kitchen> & "garden"', ["Dan"])
    assert history.play_details(b, by_title["S1"])["location"] == "club"
    # and on to the loggers' files
    out = tmp_path / "plays.json"
    plays_export.write_bgstats(b, out, bgg_ids={})
    doc = json.loads(out.read_text())
    by_dur = sorted(p["durationMin"] for p in doc["plays"])
    assert by_dur == [25, 70]
    assert {loc["name"] for loc in doc["locations"]} == {"club", 'Ann\'s <kitchen> & "garden"'}
    xml = tmp_path / "plays.xml"
    plays_export.write_bgg(b, xml, bgg_ids={})
    plays = ET.parse(xml).getroot().findall("play")
    assert sorted(p.get("length") for p in plays) == ["25", "70"]
    g4 = next(p for p in plays if p.get("length") == "70")
    assert g4.get("location") == 'Ann\'s <kitchen> & "garden"'
    assert "Dan's first game" in g4.find("comments").text
    assert [p.get("new") for p in g4.find("players")] == ["0", "0", "1"]     # Ann, Bea, Dan
    a.close()
    b.close()


def test_records_written_before_stay_valid_and_an_older_store_gets_the_details_table(tmp_path):
    """A store from before g_details (its games derived already): the first sync
    adds the table and fills it from each game's meta without replaying a game
    (only the tiebreak games are derived again, for their sentence)."""
    path = tmp_path / "games.sqlite"
    s = Store(path=path)
    recs = records()
    g1 = s.create(recs["G1"], title="G1")                # no meta details at all
    meta = dict(_details_meta())
    g4 = s.create({**recs["G4"], "meta": meta}, title="G4")
    history.sync(s)
    s._conn.execute("DROP TABLE g_details")              # as an older companion left it
    s.close()
    s = Store(path=path)
    try:
        assert not history.has_details(s)
        seen = []
        n = history.sync(s, progress=lambda d, t: seen.append((d, t)))
        assert history.has_details(s)
        assert n == 1 and seen == [(0, 1), (1, 1)]       # G4: decided by locations
        assert history.play_details(s, g4)["duration_min"] == 70
        row = s._conn.execute("SELECT duration_min, explanation FROM g_details "
                              "WHERE game_id=?", (g4,)).fetchone()
        assert row[0] == 70 and "decided by the most locations" in row[1]
        assert s._conn.execute("SELECT duration_min, location FROM g_details WHERE game_id=?",
                               (g1,)).fetchone() == (None, "")
    finally:
        s.close()


def test_a_read_only_store_lists_games_without_the_details_table(tmp_path):
    path = tmp_path / "games.sqlite"
    s = Store(path=path)
    fill(s, ["G1"])
    history.sync(s)
    s._conn.execute("DROP TABLE g_details")
    s.close()
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        class RO:                                        # what the read-only store offers
            _conn = conn

            def _tx(self):
                raise sqlite3.OperationalError("attempt to write a readonly database")
        assert derived._ensure_details(RO()) is False
    finally:
        conn.close()
    ro = Store(path=path)                                # and the exports still work
    ro._conn.close()
    ro._conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                               isolation_level=None)
    try:
        (play,) = plays_export.plays(ro)
        assert play["duration_min"] is None and play["location"] == ""
        assert stats.games(ro).location.tolist() == [""]
        assert not stats.yearly(ro).empty
    finally:
        ro._conn.close()


def test_sync_reports_progress_for_every_game(tmp_path):
    s = Store(path=tmp_path / "games.sqlite")
    fill(s, ["G1", "G2", "G3"])
    seen = []
    assert history.sync(s, progress=lambda d, t: seen.append((d, t))) == 3
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    seen.clear()
    assert history.sync(s, progress=lambda d, t: seen.append((d, t))) == 0 and seen == []
    s.close()


def test_import_reports_progress_checking_then_storing(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for k in ("G1", "S1"):
        (folder / f"{k}.json").write_text(json.dumps(records()[k]))
    s = Store(path=tmp_path / "games.sqlite")
    seen = []
    history.import_records(s, [folder], progress=lambda d, t: seen.append((d, t)))
    assert seen == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]
    s.close()


def test_set_play_details_keeps_other_meta_and_refuses_a_missing_game(tmp_path):
    s = Store(path=tmp_path / "games.sqlite")
    rec = copy.deepcopy(records()["S1"])
    rec["meta"] = {"campaign": "abc"}
    gid = s.create(rec, title="S1")
    history.set_play_details(s, gid, {"location": "club", "title": "ignored"})
    meta = s.load(gid)["meta"]
    assert meta == {"campaign": "abc", "location": "club", "title": "S1"}
    history.set_play_details(s, gid, {})                 # clears the details only
    assert s.load(gid)["meta"] == {"campaign": "abc", "title": "S1"}
    with pytest.raises(Exception):
        history.set_play_details(s, "nope", {})
    s.close()
