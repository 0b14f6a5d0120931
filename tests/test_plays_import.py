"""Issue 22 part B, import from other loggers (companion/table/plays_import.py):
"`history import` and the History tab read a BG Stats export (.bgsplay/.json: its
plays of Among the Stars and Small Star Empires, matched by name or BGG id) and BGG
plays XML.  The imported plays carry date, players, scores, winners, location and
duration, are marked as imported (they have no action record), are never duplicated
when imported again (by uuid or play id), and count in the people statistics.  Bad
files get one clear line and change nothing."

Real files (tests/data/real/README-import.md): BGG's own plays XML of a real user,
and BG Stats' export shape with the values of a public description of a real
export.  Neither holds a play of our games, so their games are matched by the BGG
id the table sets for ours (plays_export's settings), which is how a group whose
BG Stats / BGG game entry is named otherwise gets its plays in."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from companion.table import history, plays_export, plays_import, stats
from companion.core.errors import CompanionError
from companion.ats.record import FORMAT as ATS_FORMAT
from companion.sse.record import FORMAT as SSE_FORMAT
from companion.table.store import Store

from test_history import fill
from test_people_stats import PLAN, _timer

REAL = Path(__file__).parent / "data" / "real"
BGG_REAL = REAL / "bgg_plays_ddmits_trimmed.xml"
BGS_REAL = REAL / "bgstats_format_description_play.json"
NO_IDS = {g: None for g in plays_export.GAMES}


def _local(y, mo, d, h=0, mi=0, s=0) -> float:
    return time.mktime((y, mo, d, h, mi, s, 0, 0, -1))


def _rows(store):
    """(game, date, players with score/rank/won) of every finished game, oldest first."""
    out = []
    for gid, fmt, played in store.query(
            "SELECT r.game_id, r.format, " + ("COALESCE(d.started, r.played)"
                                              if history.has_details(store) else "r.played")
            + " FROM g_results r " + ("LEFT JOIN g_details d USING (game_id) "
                                      if history.has_details(store) else "")
            + "WHERE r.finished = 1 ORDER BY 3, 1"):
        ps = store.query("SELECT player, total, rank, won FROM g_players WHERE game_id=? "
                         "ORDER BY seat", (gid,))
        out.append((fmt, time.strftime("%Y-%m-%d", time.localtime(played)), ps))
    return out


# ---------------------------------------------------------------------------
# the real files
# ---------------------------------------------------------------------------
def test_real_bgg_xml_of_other_games_is_refused_with_one_line_and_nothing_stored(store):
    with pytest.raises(CompanionError) as e:
        plays_import.import_plays(store, [BGG_REAL], bgg_ids=NO_IDS)
    assert str(e.value) == ("bgg_plays_ddmits_trimmed.xml: no play of Among the Stars or "
                            "Small Star Empires in it (3 play(s) of other games); nothing "
                            "was imported")
    assert store.games(format=None) == []


def test_real_bgg_xml_imported_by_bgg_id(store):
    # the table set BGG ids (plays_export.save_bgg_ids) that are the ids of this file's
    # games: 276025 (two plays), 105551 (one play, a shared victory)
    ids = {**NO_IDS, "Among the Stars": 276025, "Small Star Empires": 105551}
    result = plays_import.import_plays(store, [BGG_REAL], bgg_ids=ids)
    assert (len(result["imported"]), result["duplicates"], result["other_games"]) == (3, 0, 0)
    history.sync(store)
    # the file's values: <player name score win startposition/> and <play date>
    assert _rows(store) == [
        (SSE_FORMAT, "2020-03-15", [("Dimitris Dranidis", 10, 1, 1), ("Andreas", 10, 1, 1),
                                    ("Andreas Alexiou", 5, 3, 0)]),
        (ATS_FORMAT, "2020-12-24", [("Dimitris Dranidis", 123, 2, 0), ("Andreas", 178, 1, 1)]),
        (ATS_FORMAT, "2021-01-01", [("Dimitris Dranidis", 142, 2, 0), ("Andreas", 145, 1, 1)]),
    ]
    rec = store.load(result["imported"][0])
    assert rec["format"] == plays_import.IMPORTED_FORMAT and rec["actions"] == []
    assert rec["setup"]["key"] == "bgg:48077780" and rec["setup"]["source"] == "bgg"
    # an imported play is never offered to resume: the games of a format are the played ones
    assert store.games() == [] and store.games(format=SSE_FORMAT) == []
    # imported again: "never duplicated when imported again (by uuid or play id)"
    again = plays_import.import_plays(store, [BGG_REAL], bgg_ids=ids)
    assert (again["imported"], again["duplicates"]) == ([], 3)
    assert len(store.games(format=None)) == 3
    # they count in the people statistics
    h2h = stats.head_to_head(store).set_index(["player", "opponent"])
    assert h2h.loc[("Andreas", "Dimitris Dranidis")].tolist()[:4] == [3, 2, 0, 1]
    yearly = stats.yearly(store).set_index(["year", "player"])
    assert yearly.loc[(2020, "Andreas"), "plays"] == 2 and yearly.loc[(2020, "Andreas"), "wins"] == 2


def test_real_bgstats_export_imported_by_bgg_id(store):
    with pytest.raises(CompanionError, match="no play of Among the Stars or Small Star "
                                             "Empires in it \\(1 play"):
        plays_import.import_plays(store, [BGS_REAL], bgg_ids=NO_IDS)
    ids = {**NO_IDS, "Among the Stars": 445031}       # the file's game's bggId
    result = plays_import.import_plays(store, [BGS_REAL], bgg_ids=ids)
    assert len(result["imported"]) == 1
    gid = result["imported"][0]
    history.sync(store)
    # playDate "2025-04-27 14:47:26" (local time), durationMin 31, the location "..."
    # (locationRefId 2), one player "..." scoring "22" with rank 2 and no winner
    assert store.query_one("SELECT played FROM g_results WHERE game_id=?", (gid,))[0] == \
        _local(2025, 4, 27, 14, 47, 26)
    assert store.query("SELECT player, total, rank, won FROM g_players WHERE game_id=?",
                       (gid,)) == [("...", 22, 2, 0)]
    d = history.play_details(store, gid)
    assert (d["duration_min"], d["location"]) == (31, "...")
    assert store.load(gid)["setup"]["key"] == "bgstats:..."
    again = plays_import.import_plays(store, [BGS_REAL], bgg_ids=ids)
    assert (again["imported"], again["duplicates"]) == ([], 1)


# ---------------------------------------------------------------------------
# round trip: our own exports into a fresh data folder
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["bgstats", "bgg"])
def test_round_trip_gives_the_same_plays_and_people_statistics(tmp_path, kind):
    a = Store(tmp_path / "a.sqlite")
    b = Store(tmp_path / "b.sqlite")
    try:
        # the fixture games with the dates and play times of tests/test_people_stats.py
        # (one play a day), G1 also with a location
        ids = fill(a)
        for k, (start, minutes, pause) in PLAN.items():
            history.set_play_details(a, ids[k], _timer(start, minutes, pause))
        from companion.table import playtime
        meta = playtime.with_details(a.load(ids["G1"])["meta"], location="Club",
                                     new_players=["Bea"])
        history.set_play_details(a, ids["G1"], meta)
        the_plays = plays_export.plays(a)
        path = tmp_path / ("plays.bgsplay" if kind == "bgstats" else "plays.xml")
        path.write_text(json.dumps(plays_export.bgstats_document(the_plays, bgg_ids=NO_IDS))
                        if kind == "bgstats" else plays_export.bgg_xml(the_plays, bgg_ids=NO_IDS),
                        encoding="utf-8")
        result = plays_import.import_plays(b, [path], bgg_ids=NO_IDS)
        assert len(result["imported"]) == len(the_plays) == 6    # G5 is unfinished
        history.sync(a)
        history.sync(b)
        assert _rows(b) == _rows(a)
        for name, fn in stats.PEOPLE.items():
            left, right = fn(a), fn(b)
            assert left.reset_index(drop=True).equals(right.reset_index(drop=True)), name
        # location and duration came along
        g = stats.games(b)
        assert "Club" in set(g.location) and 60 in set(g.duration_min.dropna())
        # a game of this table brought back from its own file is the same game (BG Stats:
        # by its uuid; BGG: by its game, day, players and scores)
        back = plays_import.import_plays(a, [path], bgg_ids=NO_IDS)
        assert (back["imported"], back["duplicates"]) == ([], 6)
        # and the same plays logged in the other logger too are not added again
        other = tmp_path / ("plays.xml" if kind == "bgstats" else "plays.bgsplay")
        other.write_text(plays_export.bgg_xml(the_plays, bgg_ids=NO_IDS) if kind == "bgstats"
                         else json.dumps(plays_export.bgstats_document(the_plays,
                                                                       bgg_ids=NO_IDS)),
                         encoding="utf-8")
        cross = plays_import.import_plays(b, [other], bgg_ids=NO_IDS)
        assert (cross["imported"], cross["duplicates"]) == ([], 6)
        # the imported plays sent back to the logger they came from keep that logger's
        # own ids (BG Stats: the play's uuid; BGG: its play id), so they are not added twice
        again = plays_export.plays(b)
        if kind == "bgstats":
            sent = {pl["uuid"] for pl in json.loads(path.read_text())["plays"]}
            back_doc = plays_export.bgstats_document(again, bgg_ids=NO_IDS)
            assert {pl["uuid"] for pl in back_doc["plays"]} == sent
        else:
            import xml.etree.ElementTree as ET
            sent = {e.get("id") for e in ET.fromstring(path.read_text()).iter("play")}
            back_xml = ET.fromstring(plays_export.bgg_xml(again, bgg_ids=NO_IDS))
            assert {e.get("id") for e in back_xml.iter("play")} == sent
    finally:
        a.close()
        b.close()


# ---------------------------------------------------------------------------
# bad files: one line, nothing stored
# ---------------------------------------------------------------------------
def _bgs(name="Among the Stars", player="Ann", score="40", **play) -> dict:
    return {"players": [{"id": 1, "name": player}, {"id": 2, "name": "Bea"}],
            "games": [{"id": 1, "name": name}], "locations": [],
            "plays": [{"uuid": "abc", "playDate": "2025-01-02 20:00:00", "gameRefId": 1,
                       "playerScores": [{"playerRefId": 1, "score": score, "winner": True},
                                        {"playerRefId": 2, "score": "30", "winner": False}],
                       **play}]}


@pytest.mark.parametrize("content, words", [
    ("{not json", "not valid JSON"),
    ("", "neither a BG Stats export"),
    ("hello", "neither a BG Stats export"),
    ('{"plays": 3}', "not a BG Stats export"),
    ("<plays><play", "not well-formed XML"),
    ('<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY a "aaaa">]><plays>&a;</plays>',
     "declares a document type or entities"),
    ("<items/>", "not BoardGameGeek plays XML"),
    (json.dumps(_bgs(name="Catan")), "no play of Among the Stars"),
    (json.dumps(_bgs(player="=HYPERLINK(\"http://x\")")), "looks like a formula or markup"),
    (json.dumps(_bgs(player="<script>alert(1)</script>")), "looks like a formula or markup"),
    (json.dumps(_bgs(player="a" * 500)), "a name has at most 100"),
    (json.dumps(_bgs(score="12; DROP")), "is not a whole number"),
    (json.dumps(_bgs(score="99999999")), "is not a whole number"),
    (json.dumps(_bgs(playDate="yesterday")), "is not YYYY-MM-DD HH:MM:SS"),
    (json.dumps(_bgs(durationMin="long")), "must be a whole number of minutes"),
])
def test_a_bad_file_gets_one_line_and_changes_nothing(store, tmp_path, content, words):
    fill(store, ["G1"])
    before = store.query("SELECT id FROM games")
    path = tmp_path / "plays.bgsplay"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CompanionError) as e:
        plays_import.import_plays(store, [path], bgg_ids=NO_IDS)
    msg = str(e.value)
    assert words in msg and "\n" not in msg and len(msg) < 300
    assert store.query("SELECT id FROM games") == before


def test_plays_without_players_or_incomplete_are_left_out_and_counted(store, tmp_path):
    xml = ('<plays total="3" page="1">'
           '<play id="1" date="2024-03-01" quantity="1" length="0" incomplete="0">'
           '<item name="Small Star Empires" objecttype="thing" objectid=""/></play>'
           '<play id="2" date="2024-03-02" quantity="1" length="30" incomplete="1">'
           '<item name="Small Star Empires" objecttype="thing" objectid=""/><players>'
           '<player name="Ann" score="9" win="1"/></players></play>'
           '<play id="3" date="2024-03-03" quantity="1" length="40" incomplete="0" '
           'location="Club"><item name="small  star EMPIRES" objecttype="thing" objectid=""/>'
           '<comments>close</comments><players>'
           '<player name="Bob" startposition="2" score="7" win="0" new="1"/>'
           '<player name="Ann" startposition="1" score="9" win="1" new="0"/>'
           '</players></play></plays>')
    path = tmp_path / "plays.xml"
    path.write_text(xml, encoding="utf-8")
    result = plays_import.import_plays(store, [path], bgg_ids=NO_IDS)
    assert (len(result["imported"]), result["other_games"]) == (1, 2)
    assert "2 play(s) of other games (or marked incomplete" in plays_import.summary(result)
    history.sync(store)
    gid = result["imported"][0]
    # seats by startposition; the name matched case and spacing aside
    assert store.query("SELECT player, seat, total, rank, won FROM g_players WHERE game_id=? "
                       "ORDER BY seat", (gid,)) == [("Ann", 1, 9, 1, 1), ("Bob", 2, 7, 2, 0)]
    d = history.play_details(store, gid)
    assert (d["location"], d["notes"], d["duration_min"], d["new_players"]) == \
        ("Club", "close", 40, ["Bob"])
    assert store.query_one("SELECT format FROM g_results WHERE game_id=?", (gid,))[0] == SSE_FORMAT


def test_a_huge_file_is_refused_before_it_is_read(store, tmp_path, monkeypatch):
    monkeypatch.setattr(plays_import, "MAX_FILE_BYTES", 1000)
    path = tmp_path / "plays.bgsplay"
    path.write_text(json.dumps(_bgs(comments="x" * 2000)), encoding="utf-8")
    with pytest.raises(CompanionError, match="1000 bytes"):
        plays_import.import_plays(store, [path], bgg_ids=NO_IDS)
    assert store.games(format=None) == []


def test_a_seat_page_may_not_import(tmp_path):
    from companion.core.errors import RoleRefused
    s = Store(tmp_path / "games.sqlite", role="seat")
    try:
        path = tmp_path / "plays.bgsplay"
        path.write_text(json.dumps(_bgs()), encoding="utf-8")
        with pytest.raises(RoleRefused):
            plays_import.import_plays(s, [path], bgg_ids=NO_IDS)
        assert s.games(format=None) == []
    finally:
        s.close()


def test_an_imported_record_exports_and_imports_as_a_record(store, tmp_path):
    path = tmp_path / "plays.bgsplay"
    path.write_text(json.dumps(_bgs(durationMin=45)), encoding="utf-8")
    plays_import.import_plays(store, [path], bgg_ids=NO_IDS)
    files = history.export_records(store, tmp_path / "out")
    other = Store(tmp_path / "other.sqlite")
    try:
        ids = history.import_records(other, files)
        history.sync(other)
        assert other.query("SELECT player, total, won FROM g_players ORDER BY seat") == \
            [("Ann", 40, 1), ("Bea", 30, 0)]
        assert history.play_details(other, ids[0])["duration_min"] == 45
    finally:
        other.close()


def test_cli_history_import_of_plays(tmp_path, monkeypatch, capsys):
    from companion import cli
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    path = tmp_path / "plays.bgsplay"
    path.write_text(json.dumps(_bgs()), encoding="utf-8")
    assert cli.main(["history", "import", str(path)]) == 0
    assert "imported 1 play(s)" in capsys.readouterr().out
    assert cli.main(["history", "import", str(path)]) == 0
    assert "1 already here, skipped" in capsys.readouterr().out
    bad = tmp_path / "bad.xml"
    bad.write_text("<plays><play", encoding="utf-8")
    assert cli.main(["history", "import", str(bad)]) != 0
    err = capsys.readouterr().err
    assert "not well-formed XML" in err and "Traceback" not in err


# ---------------------------------------------------------------------------
# the History tab
# ---------------------------------------------------------------------------
def _upload(tab_upload, name: str, data: bytes) -> None:
    tab_upload.value = ({"name": name, "type": "", "size": len(data),
                         "content": memoryview(data),
                         "last_modified": __import__("datetime").datetime(2026, 1, 1)},)


def test_history_tab_imports_plays_and_shows_one_escaped(store, monkeypatch):
    from companion.ui.app import App
    monkeypatch.setattr(plays_export, "load_settings", lambda path=None: {"bgg_ids": NO_IDS})
    app = App(store)
    app.tabs.selected_index = 2
    tab = app.history
    doc = _bgs(durationMin=45)
    doc["locations"] = [{"id": 7, "name": "<b>Ann's</b> kitchen"}]
    doc["plays"][0]["locationRefId"] = 7
    _upload(tab.plays_upload, "export.bgsplay", json.dumps(doc).encode())
    assert "Imported 1 play(s)" in app.status.value
    [gid] = [g["id"] for g in store.games(format=None)]
    assert tab.list.value == gid and "Among the Stars" in tab.list.label
    tab.open_selected()
    html = tab.viewer.children[0].value
    assert "Imported from BG Stats" in html and "<b>Ann's</b>" not in html
    assert "&lt;b&gt;Ann&#x27;s&lt;/b&gt;" in html or "&lt;b&gt;Ann&#39;s&lt;/b&gt;" in html
    assert "<td>Ann</td><td>40</td><td>1</td><td>★</td>" in html
    # the same file again: nothing added, said so
    _upload(tab.plays_upload, "export.bgsplay", json.dumps(doc).encode())
    assert "1 already here, skipped" in app.status.value
    # a bad file: one line, nothing stored
    _upload(tab.plays_upload, "bad.xml", b"<plays><play")
    assert "not well-formed XML" in app.status.value
    assert len(store.games(format=None)) == 1
