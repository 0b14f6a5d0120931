"""People statistics (issue 16, companion/stats.py): head-to-head, winning
streaks, plays and play time per month, a yearly summary per person; each a
DataFrame with a CSV export and an SVG chart.

The games are the fixture games of tests/test_history.py, played through the
engines (their results are worked out by hand there and checked against the
engines in test_the_fixture_games_score_as_worked_out_by_hand):

    G1  Ann 44 (rank 1, wins)   Bea 37 (2)
    G2  Cid 42 (1, wins)        Ann 39 (2)
    G3  Bea 37 (1) Cid 37 (1)   a shared victory: both win
    G4  Ann 37 (1, wins)        Bea 37 (2)  Dan 37 (2)   (tiebreak on locations)
    S1  Ann 8 (1, wins)         Bob 4 (2)
    S2  Bob 5 (1, wins)         Ann 5 (2)   (tiebreak on Cities left)
    G5  unfinished: in no table

Each game gets its date from its play timer (the timer's start is the date of
the play), in local time, and a duration:

    G1  2025-12-30 20:00  60 min
    G2  2026-01-05 20:00  45 min
    G3  2026-01-20 20:00  timer still running: duration unknown
    G4  2026-02-02 20:00  90 min (30 played, 10 paused, 60 played)
    S1  2026-02-10 20:00  30 min
    S2  2026-02-14 20:00  25 min
"""
from __future__ import annotations

import csv
import io
import time
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

from companion.sse.record import FORMAT as SSE_FORMAT
from companion.table import history, playtime, stats
from companion.table.store import Store

from test_history import fill


def _at(y, mo, d, h=20, mi=0) -> float:
    return time.mktime((y, mo, d, h, mi, 0, 0, 0, -1))


def _timer(start: float, minutes: int | None, pause: tuple[int, int] | None = None) -> dict:
    m = playtime.start({}, now=start)
    if pause:
        m = playtime.pause(m, now=start + pause[0] * 60)
        m = playtime.resume(m, now=start + (pause[0] + pause[1]) * 60)
    if minutes is not None:
        paused = pause[1] if pause else 0
        m = playtime.stop(m, now=start + (minutes + paused) * 60)
    return m


PLAN = {"G1": (_at(2025, 12, 30), 60, None), "G2": (_at(2026, 1, 5), 45, None),
        "G3": (_at(2026, 1, 20), None, None), "G4": (_at(2026, 2, 2), 90, (30, 10)),
        "S1": (_at(2026, 2, 10), 30, None), "S2": (_at(2026, 2, 14), 25, None)}


@pytest.fixture
def people(tmp_path):
    s = Store(path=tmp_path / "games.sqlite")
    ids = fill(s)
    for k, (start, minutes, pause) in PLAN.items():
        history.set_play_details(s, ids[k], _timer(start, minutes, pause))
    yield s
    s.close()


def test_the_timers_give_the_planned_durations(people):
    g = stats.games(people).set_index("title")
    assert {k: (None if pd.isna(g.loc[k, "duration_min"]) else int(g.loc[k, "duration_min"]))
            for k in PLAN} == {"G1": 60, "G2": 45, "G3": None, "G4": 90, "S1": 30, "S2": 25}


def test_head_to_head(people):
    # Every two players who met, from the ranks above (a better rank = won):
    #   Ann-Bea: G1 Ann 1 < Bea 2, G4 Ann 1 < Bea 2          -> 2 games, Ann won 2
    #   Ann-Bob: S1 Ann won, S2 Bob won                       -> 2 games, 1-1
    #   Ann-Cid: G2 Cid won                                   -> 1 game, Ann lost 1
    #   Ann-Dan: G4 Ann 1 < Dan 2                             -> 1 game, Ann won 1
    #   Bea-Cid: G3 both rank 1 (shared victory)              -> 1 game, tied
    #   Bea-Dan: G4 both rank 2                               -> 1 game, tied
    # each pair in both directions, win_rate = won / games
    df = stats.head_to_head(people)
    assert list(df.columns) == stats.HEAD_TO_HEAD_COLUMNS
    got = {(r.player, r.opponent): (r.games, r.won, r.lost, r.tied, r.win_rate)
           for r in df.itertuples()}
    assert got == {
        ("Ann", "Bea"): (2, 2, 0, 0, 1.0), ("Bea", "Ann"): (2, 0, 2, 0, 0.0),
        ("Ann", "Bob"): (2, 1, 1, 0, 0.5), ("Bob", "Ann"): (2, 1, 1, 0, 0.5),
        ("Ann", "Cid"): (1, 0, 1, 0, 0.0), ("Cid", "Ann"): (1, 1, 0, 0, 1.0),
        ("Ann", "Dan"): (1, 1, 0, 0, 1.0), ("Dan", "Ann"): (1, 0, 1, 0, 0.0),
        ("Bea", "Cid"): (1, 0, 0, 1, 0.0), ("Cid", "Bea"): (1, 0, 0, 1, 0.0),
        ("Bea", "Dan"): (1, 0, 0, 1, 0.0), ("Dan", "Bea"): (1, 0, 0, 1, 0.0)}
    # one game only: Small Star Empires
    sse = stats.head_to_head(people, SSE_FORMAT)
    assert sse[["player", "opponent", "games", "won", "lost"]].values.tolist() == \
        [["Ann", "Bob", 2, 1, 1], ["Bob", "Ann", 2, 1, 1]]


def test_streaks(people):
    # In date order (G1, G2, G3, G4, S1, S2), W = win (a shared victory counts):
    #   Ann: G1 W, G2 L, G4 W, S1 W, S2 L -> longest 2 (G4 2026-02-02 .. S1 2026-02-10),
    #        now 0; 5 games, 3 wins
    #   Bea: G1 L, G3 W, G4 L             -> longest 1 (G3 2026-01-20), now 0; 3 games, 1 win
    #   Cid: G2 W, G3 W                   -> longest 2 (2026-01-05 .. 2026-01-20), now 2
    #   Bob: S1 L, S2 W                   -> longest 1 (2026-02-14), now 1
    #   Dan: G4 L                         -> 0, no dates, now 0
    # sorted by longest streak, then name
    df = stats.streaks(people)
    assert list(df.columns) == stats.STREAK_COLUMNS
    assert df.values.tolist() == [
        ["Ann", 5, 3, 2, "2026-02-02", "2026-02-10", 0],
        ["Cid", 2, 2, 2, "2026-01-05", "2026-01-20", 2],
        ["Bea", 3, 1, 1, "2026-01-20", "2026-01-20", 0],
        ["Bob", 2, 1, 1, "2026-02-14", "2026-02-14", 1],
        ["Dan", 1, 0, 0, "", "", 0]]


def test_monthly(people):
    # 2025-12: G1                 -> 1 play, players Ann Bea = 2, timed 1, 60 min, avg 60.0
    # 2026-01: G2, G3 (untimed)   -> 2 plays, Ann Cid Bea = 3, timed 1, 45 min, avg 45.0
    # 2026-02: G4, S1, S2         -> 3 plays, Ann Bea Dan Bob = 4, timed 3,
    #                                90 + 30 + 25 = 145 min, avg 145 / 3 = 48.33 -> 48.3
    df = stats.monthly(people)
    assert list(df.columns) == stats.MONTHLY_COLUMNS
    assert df.values.tolist() == [["2025-12", 1, 2, 1, 60, 60.0],
                                  ["2026-01", 2, 3, 1, 45, 45.0],
                                  ["2026-02", 3, 4, 3, 145, 48.3]]


def test_yearly(people):
    # 2025 Ann: G1 44, won             -> 1 play, 1 win, 1.0, avg 44, best 44, 60 min
    # 2025 Bea: G1 37                  -> 1, 0, 0.0, 37, 37, 60
    # 2026 Ann: G2 39, G4 37 (won), S1 8 (won), S2 5
    #           -> 4 plays, 2 wins, 0.5, avg 89 / 4 = 22.25, best 39, 45 + 90 + 30 + 25 = 190
    # 2026 Bea: G3 37 (shared win), G4 37 -> 2, 1, 0.5, 37.0, 37, 0 (G3 untimed) + 90 = 90
    # 2026 Bob: S1 4, S2 5 (won)       -> 2, 1, 0.5, 4.5, 5, 30 + 25 = 55
    # 2026 Cid: G2 42 (won), G3 37 (shared win) -> 2, 2, 1.0, 39.5, 42, 45
    # 2026 Dan: G4 37                  -> 1, 0, 0.0, 37.0, 37, 90
    df = stats.yearly(people)
    assert list(df.columns) == stats.YEARLY_COLUMNS
    assert df.values.tolist() == [
        [2025, "Ann", 1, 1, 1.0, 44.0, 44, 60], [2025, "Bea", 1, 0, 0.0, 37.0, 37, 60],
        [2026, "Ann", 4, 2, 0.5, 22.25, 39, 190], [2026, "Bea", 2, 1, 0.5, 37.0, 37, 90],
        [2026, "Bob", 2, 1, 0.5, 4.5, 5, 55], [2026, "Cid", 2, 2, 1.0, 39.5, 42, 45],
        [2026, "Dan", 1, 0, 0.0, 37.0, 37, 90]]


def test_csv_export_reads_back(people, tmp_path):
    for name, df in stats.people_statistics(people).items():
        path = tmp_path / f"{name}.csv"
        text = stats.to_csv(df, path)
        assert path.read_text(encoding="utf-8") == text
        rows = list(csv.DictReader(io.StringIO(text)))
        assert len(rows) == len(df) and list(rows[0]) == list(df.columns)
    back = pd.read_csv(tmp_path / "yearly.csv")
    assert back.equals(stats.yearly(people))


def test_charts_are_well_formed_svg_with_every_name_escaped(people):
    for name, df in stats.people_statistics(people).items():
        svg = stats.people_chart_svg(name, df)
        root = ET.fromstring(svg)                            # well-formed XML
        assert root.tag.endswith("svg")
        assert ("2026-02" if name == "monthly" else "Ann") in svg
    hostile = pd.DataFrame([{"player": "<script>&", "opponent": "Bea\"'", "games": 1, "won": 1,
                             "lost": 0, "tied": 0, "win_rate": 1.0}])
    svg = stats.people_chart_svg("head-to-head", hostile)
    ET.fromstring(svg)
    assert "<script>" not in svg and "&lt;script&gt;&amp;" in svg
    with pytest.raises(KeyError):
        stats.people_chart_svg("nope", hostile)


def test_an_empty_store_gives_empty_tables_and_a_chart_saying_so(tmp_path):
    s = Store(path=tmp_path / "games.sqlite")
    for name, df in stats.people_statistics(s).items():
        assert df.empty and list(df.columns) == {
            "head-to-head": stats.HEAD_TO_HEAD_COLUMNS, "streaks": stats.STREAK_COLUMNS,
            "monthly": stats.MONTHLY_COLUMNS, "yearly": stats.YEARLY_COLUMNS}[name]
        assert "no finished games" in stats.people_chart_svg(name, df)
    s.close()


def test_cli_people_csv_and_chart(people, tmp_path, monkeypatch, capsys):
    from companion import cli
    monkeypatch.setattr("companion.table.store.default_path", lambda: people.path)
    out_csv, out_svg = tmp_path / "h2h.csv", tmp_path / "h2h.svg"
    assert cli.main(["history", "stats", "--people", "head-to-head", "--csv", str(out_csv),
                     "--chart", str(out_svg)]) == 0
    assert len(list(csv.DictReader(out_csv.open()))) == 12
    ET.parse(out_svg)
    assert cli.main(["history", "stats", "--people", "streaks"]) == 0
    assert "Ann" in capsys.readouterr().out
