"""Issue 39, "Score the table as it lies", in History, the statistics and the exports:
"One record. A laid position is an entry of the record, replayed like any other: undo,
reload, other devices, History, statistics (those that need the turn-by-turn actions say
they are not known for such games), exports to BG Stats and BGG."

The laid games are the engine tests' own (tests/test_lay_position.py, a final Among the
Stars position; tests/test_sse_lay_position.py, a final Small Star Empires position;
tests/test_ats_lay_now.py, an Among the Stars game laid at year 2, turn 3 and played on),
with their hand-computed final tables; G1 is tests/test_history.py's game entered turn by
turn (its VP by year worked out there: Ann 2 1 0 0, Bea 1 0 1 1).

What needs the turn-by-turn actions and is "not known: laid from the table"
(companion/table/laid_stats.py): the VP by year (a final position's track VP would all
sit in the year it was laid; a game laid under way is known from its year on, and in the
averages from the year after), and the VP each card gave (the cards' average_vp).  What
the final position gives stays: the final VP, winners, ranks, breakdown, exports.
"""
from __future__ import annotations

import copy
import json
import math

import pandas as pd
import pytest

from companion.table import history, laid_stats, plays_export, plays_import, stats

import test_ats_lay_now as now_kit
import test_lay_position as ats_kit
import test_sse_lay_position as sse_kit
from test_history import records

NOT_KNOWN = "not known: laid from the table"


def ats_final():
    return ats_kit.laid_game()


def sse_final():
    return sse_kit.laid_game()


def ats_now_finished():
    g = now_kit.laid_game()
    now_kit.play_to_the_end(g)
    return g


def ats_now_under_way():
    """Laid at year 2, turn 3; then one turn played: Ana builds the energy lab (2 VP, the
    engine test's legal build), Ben and Cleo discard (+3 credits each)."""
    g = now_kit.laid_game()
    g.push(now_kit.build("Ana", now_kit.LAB, [0, 2]))
    for p in list(g.waiting_in_order()):
        g.push({"player": p, "do": "discard", "card": now_kit.PLOT})
    assert (g.state.year, g.state.turn) == (2, 4) and not g.finished
    return g


def _record(game) -> dict:
    return json.loads(json.dumps(game.to_record()))


@pytest.fixture
def laid(make_store):
    """G1 (turn by turn), the two final positions and the game laid now, played to its end;
    the game laid now and still under way.  Title -> id."""
    store = make_store()
    games = {"G1": records()["G1"], "ATS": _record(ats_final()), "SSE": _record(sse_final()),
             "NOW": _record(ats_now_finished()), "UNDERWAY": _record(ats_now_under_way())}
    ids = {k: store.create(rec, title=k) for k, rec in games.items()}
    return store, ids


def _players(store, gid) -> dict:
    stats.games(store)                                  # derived (a sync)
    return {p: (rank, total, bool(won)) for p, rank, total, won in store.query(
        "SELECT player, rank, total, won FROM g_players WHERE game_id=? ORDER BY seat", (gid,))}


def _engine(game) -> dict:
    return {r["player"]: (r["rank"], r["total"], r["player"] in game.score().winners)
            for r in game.score().to_json()["players"]}


# -- how a game is known to be laid: its record's setup ---------------------------------
def test_laid_is_read_from_the_records_setup():
    assert laid_stats.laid_of(_record(ats_final())["setup"]) == laid_stats.Laid("final")
    assert laid_stats.laid_of(_record(sse_final())["setup"]) == laid_stats.Laid("final")
    assert laid_stats.laid_of(now_kit.setup()) == laid_stats.Laid("now", 2, 3)
    assert laid_stats.laid_of(sse_kit.setup("now")) == laid_stats.Laid("now")
    assert laid_stats.laid_of(records()["G1"]["setup"]) is None
    for damaged in (None, [], {"options": "laid"}, {"options": {"laid": "later"}},
                    {"options": {"laid": True}}):
        assert laid_stats.laid_of(damaged) is None
    # a laid_at that is not a year and a turn: laid now, when not said
    assert laid_stats.laid_of({"options": {"laid": "now", "laid_at": {"year": True}}}) \
        == laid_stats.Laid("now")


def test_the_store_lists_its_laid_games(laid):
    store, ids = laid
    assert laid_stats.laid_games(store) == {
        ids["ATS"]: laid_stats.Laid("final"), ids["SSE"]: laid_stats.Laid("final"),
        ids["NOW"]: laid_stats.Laid("now", 2, 3), ids["UNDERWAY"]: laid_stats.Laid("now", 2, 3)}


# -- what the final position gives stays -------------------------------------------------
def test_final_numbers_of_laid_games_are_the_engines(laid):
    store, ids = laid
    # tests/test_lay_position.py's hand table: Ana 51 and Ben 51, Ana wins on locations;
    # Cleo 42
    assert _players(store, ids["ATS"]) == {"Ana": (1, 51, True), "Ben": (2, 51, False),
                                           "Cleo": (3, 42, False)} == _engine(ats_final())
    # tests/test_sse_lay_position.py's: Cleo 16 beats Ben 16 on planets; Ana 13
    assert _players(store, ids["SSE"]) == {"Ana": (3, 13, False), "Ben": (2, 16, False),
                                           "Cleo": (1, 16, True)} == _engine(sse_final())
    # tests/test_ats_lay_now.py's: Ana 41, Ben 42, Cleo 43
    assert _players(store, ids["NOW"]) == {"Ana": (3, 41, False), "Ben": (2, 42, False),
                                           "Cleo": (1, 43, True)} == _engine(ats_now_finished())
    df = stats.games(store).set_index("title")
    assert df.loc["ATS", "status"] == df.loc["SSE", "status"] == df.loc["NOW", "status"] \
        == "finished"
    assert df.loc["UNDERWAY", "status"] == "in progress"
    assert (df.loc["ATS", "winners"], df.loc["ATS", "decided_by"]) == ("Ana", "locations")
    assert (df.loc["SSE", "winners"], df.loc["SSE", "decided_by"]) == ("Cleo", "planets")
    # the breakdown by category: the track's VP as "during the game", known from the table
    bd = json.loads(store.query_one("SELECT breakdown FROM g_players WHERE game_id=? AND "
                                    "player='Ana'", (ids["ATS"],))[0])
    assert bd == {"during_game": 40, "end_abilities": 4, "empty_reactors": 2, "credits": 1,
                  "objectives": 4}
    # the objective claimed (Ana, most military, 4): from the final position
    assert store.query("SELECT objective, player, vp FROM g_objectives WHERE game_id=?",
                       (ids["ATS"],)) == [("Fixture: most military", "Ana", 4)]


# -- VP by year: not known --------------------------------------------------------------
def test_vp_by_year_of_a_final_position_is_not_known(laid):
    store, ids = laid
    # derived from the actions, the track's 40 / 48 / 40 VP would sit in year 1
    history.sync(store)
    assert store.query("SELECT vp FROM g_year_vp WHERE game_id=? AND player='Ana' AND year=1",
                       (ids["ATS"],)) == [(40,)]
    one = stats.vp_by_year(store, ids["ATS"])
    assert one.empty
    assert one.attrs["note"] == (f"VP by year {NOT_KNOWN} at the game's end (the VP during "
                                 "the game are the score track's, typed).")
    # Small Star Empires has no VP by year at all: nothing to say is unknown
    sse = stats.vp_by_year(store, ids["SSE"])
    assert sse.empty and "note" not in sse.attrs


def test_vp_by_year_of_a_game_laid_now_starts_at_its_year(laid):
    store, ids = laid
    # cumulative from year 2 (the track's VP are the VP gained until the lay): Ana 14 on
    # the track + the lab's 2 in year 2 turn 3, then only discards; Ben 11, Cleo 12
    done = stats.vp_by_year(store, ids["NOW"])
    assert list(done.index) == [2, 3, 4]                # year 1: not known, not 0
    assert done.to_dict("list") == {"Ana": [16, 16, 16], "Ben": [11, 11, 11],
                                    "Cleo": [12, 12, 12]}
    assert done.attrs["note"] == ("VP by year from year 2 on: laid from the table at year 2, "
                                  "turn 3, the years before are not known; year 2 counts the "
                                  "score track's VP as laid.")
    # under way (year 2 turn 4): the year played so far
    going = stats.vp_by_year(store, ids["UNDERWAY"])
    assert list(going.index) == [2]
    assert going.to_dict("list") == {"Ana": [16], "Ben": [11], "Cleo": [12]}
    assert "from year 2 on" in going.attrs["note"]


def test_average_vp_by_year_leaves_out_what_is_not_known(laid):
    store, ids = laid
    df = stats.vp_by_year(store)
    # G1 alone for years 1 and 2 (Ann 2 1, Bea 1 0); the final positions nowhere; the
    # game laid at year 2 from year 3 on (only discards: 0); the one under way is not
    # finished
    got = {p: {y: v for y, v in col.items() if not math.isnan(v)} for p, col in df.to_dict().items()}
    assert got == {"Ann": {1: 2.0, 2: 1.0, 3: 0.0, 4: 0.0}, "Bea": {1: 1.0, 2: 0.0, 3: 1.0, 4: 1.0},
                   "Ana": {3: 0.0, 4: 0.0}, "Ben": {3: 0.0, 4: 0.0}, "Cleo": {3: 0.0, 4: 0.0}}
    assert df.attrs["note"] == (f"VP by year {NOT_KNOWN} (2 games left out up to the year "
                                "they were laid in, a final position entirely).")


def test_only_laid_games_give_an_empty_average_that_says_why(make_store):
    store = make_store()
    store.create(_record(ats_final()), title="ATS")
    df = stats.vp_by_year(store)
    assert df.empty and NOT_KNOWN in df.attrs["note"]


def test_no_laid_game_no_note(make_store):
    store = make_store()
    gid = store.create(records()["G1"], title="G1")
    assert "note" not in stats.vp_by_year(store).attrs
    assert "note" not in stats.vp_by_year(store, gid).attrs
    assert "note" not in stats.cards(store).attrs


# -- the cards: built known, their VP not ------------------------------------------------
def test_cards_built_count_laid_games_and_their_vp_is_not_known(laid):
    store, _ = laid
    df = stats.cards(store)
    rows = {r["card"]: (r["built"], r["games"], r["average_vp"]) for r in df.to_dict("records")}
    nan = rows["Fixture: garden plot"][2]
    assert math.isnan(nan)
    # built: the final positions' and the laid-now game's stations (the one under way is
    # not finished).  Garden plots: final Ana 2 + Ben 3 + Cleo 2, now Ana 1 + Ben 1 +
    # Cleo 2 = 11; military posts 2 + 1 and 1; the end bonus 1 and 1; the lab and the
    # one-in-the-box once each, in the game laid now.  G1: "free 1 VP" Ann 1 + Bea 3,
    # "free 2 VP" Ann 1, with their VP known
    assert {c: (b, g) for c, (b, g, _) in rows.items()} == {
        "Fixture: garden plot": (11, 2), "Fixture: military post": (4, 2),
        "Fixture: end bonus": (2, 2), "Fixture: energy lab": (1, 1),
        "Fixture: one in the box": (1, 1), "Fixture: free 1 VP": (4, 1),
        "Fixture: free 2 VP": (1, 1)}
    assert rows["Fixture: free 1 VP"][2] == 1.0 and rows["Fixture: free 2 VP"][2] == 2.0
    laid_cards = [c for c in rows if c not in ("Fixture: free 1 VP", "Fixture: free 2 VP")]
    assert all(math.isnan(rows[c][2]) for c in laid_cards)        # never a 0 VP average
    assert df.attrs["note"].startswith(f"average_vp {NOT_KNOWN} (2 games:")


def test_cards_without_the_summary_tables_say_the_same(laid, monkeypatch):
    store, _ = laid
    fast = stats.cards(store)
    monkeypatch.setattr(stats, "_has_summaries", lambda s: False)
    slow = stats.cards(store)
    pd.testing.assert_frame_equal(fast, slow)
    assert slow.attrs == fast.attrs


# -- the exports: BG Stats, BoardGameGeek, the plays CSV ----------------------------------
@pytest.mark.parametrize("writer", ["bgstats", "bgg"])
def test_laid_games_export_and_read_back(laid, tmp_path, writer):
    store, ids = laid
    games = {"ATS": ats_final(), "SSE": sse_final(), "NOW": ats_now_finished()}
    path = tmp_path / ("plays.bgsplay" if writer == "bgstats" else "plays.xml")
    n = plays_export.FORMATS[writer](store, path, [ids[k] for k in games], bgg_ids={})
    assert n == 3
    back, other = plays_import.read_plays(path, bgg_ids={})
    assert other == 0 and len(back) == 3
    got = sorted((p["format"], p["players"], p["scores"], p["ranks"], p["winners"])
                 for p in back)
    want = []
    for g in games.values():
        out, seats = g.score().to_json(), g.to_record()["setup"]["players"]
        by = {r["player"]: r for r in out["players"]}
        want.append((g.to_record()["format"], seats, [by[p]["total"] for p in seats],
                     [by[p]["rank"] for p in seats], out["winners"]))
    assert got == sorted(want)
    # the hand tables of the engine tests, as read back
    assert ([51, 51, 42], ["Ana"]) in [(s, w) for _, _, s, _, w in got]
    assert ([13, 16, 16], ["Cleo"]) in [(s, w) for _, _, s, _, w in got]
    assert ([41, 42, 43], ["Cleo"]) in [(s, w) for _, _, s, _, w in got]


def test_laid_games_in_the_plays_csv(laid):
    store, ids = laid
    import csv
    import io
    rows = {r["game_id"]: r for r in csv.DictReader(io.StringIO(history.plays_csv(store)))}
    assert ids["UNDERWAY"] not in rows
    assert (rows[ids["ATS"]]["scores"], rows[ids["ATS"]]["winner"]) == ("51;51;42", "Ana")
    assert (rows[ids["SSE"]]["scores"], rows[ids["SSE"]]["winner"]) == ("13;16;16", "Cleo")
    assert (rows[ids["NOW"]]["scores"], rows[ids["NOW"]]["winner"]) == ("41;42;43", "Cleo")


# -- the History tab ----------------------------------------------------------------------
def test_history_tab_says_what_is_not_known(tmp_path):
    from companion.table.store import Store
    from companion.ui.app import App
    from companion.ui.history_tab import HistoryTab
    store = Store(path=tmp_path / "games.sqlite")
    ids = {"ATS": store.create(_record(ats_final()), title="ATS"),
           "NOW": store.create(_record(ats_now_finished()), title="NOW")}
    tab = HistoryTab(App(store=store))
    tab.list.value = ids["ATS"]
    tab.open_selected()
    html = "".join(getattr(c, "value", "") for c in tab.viewer.children)
    assert f"VP by year {NOT_KNOWN} at the game&#x27;s end" in html      # escaped
    assert "VP gained during the game, by year" not in html       # no chart of the track
    tab.list.value = ids["NOW"]
    tab.open_selected()
    html = "".join(getattr(c, "value", "") for c in tab.viewer.children)
    assert "VP gained during the game, by year" in html and "from year 2 on" in html
    # the statistics tables: only laid games, so the average says why it is empty
    tab.stat.value = "VP by year (average)"
    assert NOT_KNOWN in tab.stat_out.value and "No finished games" not in tab.stat_out.value
    tab.stat.value = "cards built"
    assert f"average_vp {NOT_KNOWN}" in tab.stat_out.value and "Fixture: garden plot" \
        in tab.stat_out.value
    tab.stat.value = "scores"                      # a table of final numbers: no note
    assert NOT_KNOWN not in tab.stat_out.value


def test_a_note_is_escaped():
    from companion.ui.history_view import stat_note
    df = pd.DataFrame()
    df.attrs["note"] = "<script>alert(1)</script>"
    assert "<script>" not in stat_note(df) and "&lt;script&gt;" in stat_note(df)
    assert stat_note(pd.DataFrame()) == "" and stat_note(None) == ""


def test_undo_of_a_lay_in_the_store_is_derived_again(make_store):
    """The laid position is an entry of the record: taking the last lay back makes the
    game unfinished again in History (no final numbers left behind)."""
    store = make_store()
    rec = _record(ats_final())
    gid = store.create({**rec, "actions": []}, title="ATS")
    rev = store.revision(gid)
    for i, a in enumerate(rec["actions"]):
        rev = store.append(gid, i, copy.deepcopy(a), rev=rev)
    assert stats.games(store).status.tolist() == ["finished"]
    store.pop(gid, len(rec["actions"]) - 1, rev=rev)
    assert stats.games(store).status.tolist() == ["in progress"]
    assert laid_stats.laid_games(store) == {gid: laid_stats.Laid("final")}


def test_the_command_line_prints_what_is_not_known(capsys):
    """``history stats`` prints each table's note under it (the page shows it above)."""
    from companion import cli
    from companion.table.backends import open_store
    store = open_store()                    # the test's own COMPANION_HOME (conftest)
    store.create(_record(ats_final()), title="ATS")
    store.close()
    assert cli.main(["history", "stats", "year"]) == 0
    out = capsys.readouterr().out
    assert "== VP by year (average)" in out and NOT_KNOWN in out, out
