"""The score's lines name their place column ``cell``, as Among the Stars' do (it was
``at``): [q, r] for a line tied to a system, None for one that is not."""
from __future__ import annotations

import json
from pathlib import Path

from companion.ats.scoring import LINE_COLUMNS as ATS_LINE_COLUMNS
from companion.sse import SseGame
from companion.sse.scoring import LINE_COLUMNS

from ssekit import game

ROOT = Path(__file__).resolve().parents[2]


def test_same_columns_as_among_the_stars():
    assert LINE_COLUMNS == ATS_LINE_COLUMNS
    assert "cell" in LINE_COLUMNS and "at" not in LINE_COLUMNS


def test_lines_of_the_sample_record():
    g = SseGame.from_record(json.loads(
        (ROOT / "data/small-star-empires/samples/two-player-random.json").read_text(encoding="utf-8")))
    s = g.score()
    assert list(s.lines.columns) == LINE_COLUMNS
    assert s.breakdown(s.winners[0]).columns.tolist() == LINE_COLUMNS
    for r in s.lines.itertuples():
        if r.category in ("planets", "trade_stations"):
            assert isinstance(r.cell, list) and len(r.cell) == 2, r
        if r.category in ("nebulae", "territory"):
            assert r.cell is None, r


def test_a_planet_line_names_its_system():
    g = game("H1 P2 E H2")
    g.push({"player": "Ann", "ship": 0, "to": [1, 0], "piece": "city"})
    lines = g.score().lines
    assert lines.cell.tolist() == [[1, 0]] and lines.vp.tolist() == [2]
