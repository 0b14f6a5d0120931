"""Issue 26: the History tab and every statistics table stay exactly what they were
while they are made faster.

A store of 300 mixed games (the history benchmark's mix scaled down: copies of the
two sample games, the fixture games G1-G5 / S1, S2 of tests/test_history.py, the
Small Star Empires sample, plus games waiting for values and one record that no
longer replays), with deterministic ids, creation times and play details, is
summarised by :func:`snapshot`: every statistics table (all_statistics, the people
statistics of both games and of each, the other tables' variants), the games list,
the plays CSV and what the History tab shows (its game list, table names, charts,
the default table).  tests/golden/history-stats.json holds that summary as the code
before issue 26's changes made it (``python tests/test_history_golden.py --write``
wrote it); the test compares every value, its type and every DataFrame's dtypes.

Every Among the Stars card, objective and race is a fixture defined in the record
("Fixture: ..."); no real card is given a value.
"""
from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
for _p in (ROOT, TESTS, TESTS / "sse"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from companion.ats.record import FORMAT as ATS  # noqa: E402
from companion.sse.kind import KIND as SSE_KIND  # noqa: E402
from companion.sse.record import FORMAT as SSE  # noqa: E402
from companion.table import history, playtime, stats  # noqa: E402
from companion.table import store as store_mod  # noqa: E402
from companion.table.store import Store  # noqa: E402

GOLDEN = TESTS / "golden" / "history-stats.json"
SSE_SHARES = next(t.kwargs["parts"] for t in SSE_KIND.statistics if t.table == "shares")
TZ = "Europe/Berlin"
#: copies of each distinct record (300 games; the benchmark's 1,000 mix / 10 * 3, rounded)
WEIGHTS = {"george-base-final-scoring": 60, "george-revival-final-scoring": 40,
           "G1": 30, "G2": 25, "G3": 20, "G4": 20, "G5": 6,
           "S1": 22, "S2": 22, "sse-two-player-random": 45,
           "race": 3, "objective": 3, "manual": 2, "broken": 2}


def distinct_records() -> dict[str, dict]:
    from test_history import broken_record, records, waiting_records
    out = {}
    for name in ("george-base-final-scoring", "george-revival-final-scoring"):
        out[name] = json.loads((ROOT / "data" / "samples" / f"{name}.json").read_text())
    out.update(records())
    out["sse-two-player-random"] = json.loads(
        (ROOT / "data" / "small-star-empires" / "samples" / "two-player-random.json").read_text())
    out.update(waiting_records())
    out["broken"] = broken_record()
    return out


def build_store(path: Path) -> Store:
    """The 300 games, each with its own id, creation time and play details, all
    deterministic (ids and ``created`` are set while the games are stored)."""
    store = Store(path=path)
    recs = distinct_records()
    assert sum(WEIGHTS.values()) == 300
    day0 = 1_700_000_000.0                      # 2023-11-14
    clock = [day0]
    counter = [0]

    def fake_time() -> float:
        return clock[0]

    def fake_uuid() -> uuid.UUID:
        counter[0] += 1
        return uuid.UUID(int=(counter[0] * 7919) << 80)

    real_time, real_uuid = store_mod.time.time, store_mod.uuid.uuid4
    store_mod.time.time, store_mod.uuid.uuid4 = fake_time, fake_uuid  # type: ignore[assignment]
    try:
        i = 0
        for name, n in WEIGHTS.items():
            for _ in range(n):
                clock[0] = day0 + (i * 7919 % 300) * 2.3 * 86400 + i * 61.0
                start = clock[0] - 3 * 3600
                meta: dict[str, Any] = {}
                if i % 7 != 3:                              # some plays were never timed
                    meta = playtime.start({}, now=start)
                    if i % 11 != 5:                         # some timers still run
                        meta = playtime.stop(meta, now=start + (20 + i % 97) * 60)
                meta = playtime.with_details(
                    meta, location=f"table {i % 4}" if i % 5 else "",
                    notes="rematch" if i % 13 == 0 else "",
                    new_players=["Ann"] if i % 17 == 0 else [])
                store.create({**recs[name], "meta": meta}, title=f"{name} #{i}")
                i += 1
    finally:
        store_mod.time.time, store_mod.uuid.uuid4 = real_time, real_uuid  # type: ignore[assignment]
    return store


def _value(v: Any) -> Any:
    """A cell as [type name, repr]: 1 and 1.0 and np.int64(1) all differ."""
    return [type(v).__name__, repr(v)]


def frame(df: pd.DataFrame) -> dict[str, Any]:
    return {"columns": [repr(c) for c in df.columns],
            "dtypes": [str(t) for t in df.dtypes],
            "index": {"type": type(df.index).__name__, "names": [repr(n) for n in df.index.names],
                      "values": [_value(v) for v in df.index]},
            "rows": [[_value(v) for v in row] for row in df.itertuples(index=False, name=None)]}


def snapshot(store: Store) -> dict[str, Any]:
    """Everything the History tab and the statistics give for the store."""
    from companion.ui.history_tab import HistoryTab, PEOPLE_PREFIX
    out: dict[str, Any] = {}
    for name, df in stats.all_statistics(store).items():
        out[f"all_statistics/{name}"] = frame(df)
    for fmt in (None, ATS, SSE):
        for name, df in stats.people_statistics(store, fmt).items():
            out[f"people/{fmt}/{name}"] = frame(df)
            out[f"people-chart/{fmt}/{name}"] = stats.people_chart_svg(name, df)
    out["games/ats"] = frame(stats.games(store, ATS))
    out["win_rates/race"] = frame(stats.win_rates(store, "race"))
    out["win_rates/seat/sse"] = frame(stats.win_rates(store, "seat", SSE))
    out["win_rates/all"] = frame(stats.win_rates(store, "player", None))
    out["scores/all"] = frame(stats.scores(store, None))
    out["breakdown/per_player"] = frame(stats.breakdown(store, per_player=True))
    out["breakdown/sse"] = frame(stats.breakdown(store, SSE))
    out["shares/sse"] = frame(stats.shares(store, SSE, SSE_SHARES))
    out["tiebreaks/all"] = frame(stats.tiebreaks(store))
    out["tiebreaks/sse"] = frame(stats.tiebreaks(store, SSE))
    out["objectives_deciding/all"] = frame(stats.objectives_deciding(store, None))
    out["vp_by_year"] = frame(stats.vp_by_year(store))
    for title in ("george-base-final-scoring #0", "G5 #195", "sse-two-player-random #250"):
        gid = store.query_one("SELECT id FROM games WHERE title=?", (title,))[0]
        out[f"vp_by_year/{title}"] = frame(stats.vp_by_year(store, gid))
    out["plays_csv"] = history.plays_csv(store)
    out["plays_csv/all"] = history.plays_csv(store, finished_only=False)

    class App:
        def __init__(self, store: Store):
            self.store = store

        def guarded(self, fn: Any, **how: Any) -> Any:
            return fn

        def say(self, text: str, colour: str | None = None) -> None:
            pass

    tab = HistoryTab(App(store))
    out["tab/list"] = [list(o) for o in tab.list.options]
    out["tab/stat_names"] = list(tab.stat.options)
    out["tab/stat_value"] = tab.stat.value
    out["tab/charts"] = tab.charts.value
    out["tab/stat_out"] = tab.stat_out.value
    assert tab.links.value == ""          # the plays CSV is made when asked for
    tab.make_plays_csv()
    out["tab/links"] = tab.links.value
    for order in ("old", "game", "players", "long", "location"):
        tab.order.value = order
        out[f"tab/list/{order}"] = [o[1] for o in tab.list.options]
    tab.order.value = "new"
    tab.filter.value = "table 2"
    out["tab/list/filter"] = [o[1] for o in tab.list.options]
    for name in ("cards built", "VP by year (average)", PEOPLE_PREFIX + "head-to-head",
                 PEOPLE_PREFIX + "yearly"):
        if name in tab.stat.options:
            tab.stat.value = name
            out[f"tab/stat_out/{name}"] = tab.stat_out.value
    return out


@pytest.fixture
def berlin(monkeypatch):
    monkeypatch.setenv("TZ", TZ)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_history_and_statistics_match_the_golden_file(tmp_path, berlin):
    store = build_store(tmp_path / "games.sqlite")
    try:
        got = snapshot(store)
    finally:
        store.close()
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert len(want) > 60
    assert sorted(got) == sorted(want)
    # the mix is what it should be: each status is there, tables are not empty
    statuses = {r[7][1] for r in want["all_statistics/games"]["rows"]}
    assert statuses == {repr(s) for s in stats.STATUSES}
    assert len(want["all_statistics/games"]["rows"]) == 300
    for key in want:
        assert got[key] == want[key], key


def main() -> int:
    import os
    import tempfile
    if "--write" not in sys.argv:
        print("usage: python tests/test_history_golden.py --write  (writes " f"{GOLDEN})")
        return 2
    os.environ["COMPANION_HOME"] = tempfile.mkdtemp(prefix="golden-home-")
    os.environ["TZ"] = TZ
    time.tzset()
    with tempfile.TemporaryDirectory() as d:
        store = build_store(Path(d) / "games.sqlite")
        snap = snapshot(store)
        store.close()
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(snap, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}: {len(snap)} entries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
