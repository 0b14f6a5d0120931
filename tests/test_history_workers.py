"""Issue 26: the first sync in worker processes (companion.table.history.sync with
``workers``).  The workers replay and score; this process reads and writes every row.
What they derive must be what one process derives, row for row, with the player's
own documents as they were when the sync began (files, or a club's documents), and a
failing worker must cost nothing but time.

The games are the fixture games of tests/test_history.py (played through the
engines; FIXTURE cards, objectives and races defined in the records, no real card
given a value)."""
from __future__ import annotations

import os

import pytest
import yaml

from companion.core import userdocs
from companion.table import derived, history, stats
from companion.table.store import Store

from test_history import RU, _race, broken_record, fill, waiting_records
from test_history_sync_chunks import TABLES


def _dump(store) -> dict[str, list]:
    """Every derived row but the time it was derived, sorted (either backend)."""
    out = {}
    for t in TABLES:
        cols = ("game_id, format, finished, played, decided_by, winners, error, waiting"
                if t == "g_results" else "*")
        out[t] = sorted((tuple(r) for r in store.query(f"SELECT {cols} FROM {t}")), key=repr)
    return out

#: every fixture game, a record that no longer replays and three games waiting for values
WAITING = ("race", "objective", "manual")


@pytest.fixture
def parallel(monkeypatch):
    """How many games each sync had derived in worker processes (a sync that fell back
    to this process would derive the same rows: this tells them apart)."""
    real = derived._sync_parallel
    done: list[int] = []

    def spy(*args, **kwargs):
        done.append(real(*args, **kwargs))
        return done[-1]
    monkeypatch.setattr(derived, "_sync_parallel", spy)
    return done


def _stock(store: Store, copies: int = 2) -> None:
    for _ in range(copies):
        fill(store)
    store.create(broken_record(), title="broken")
    for kind, rec in waiting_records().items():
        if kind in WAITING:
            store.create(rec, title=f"waiting {kind}")


def _typed_race() -> str:
    """The player's own catalogue with the race the 'race' game waits for (a fixture
    race: +2 at the end; test values, not a real tile's)."""
    return yaml.safe_dump([_race(RU, [{"when": "end", "flat": 2,
                                       "note": "test fixture: +2 at the end"}])])


def test_workers_derive_what_one_process_derives(make_store, monkeypatch, parallel):
    """On either backend (the workers get the rows this process read; they never open
    the database)."""
    a = make_store()
    _stock(a)
    n = history.sync(a, workers=0)
    one = _dump(a)
    want = stats.all_statistics(a)
    monkeypatch.setattr(derived, "PARALLEL_UNIT", 4)     # several pieces of work
    calls = []
    assert history.sync(a, force=True, workers=2,
                        progress=lambda done, total: calls.append((done, total))) == n
    assert parallel == [n]                              # all of them in the workers
    assert _dump(a) == one
    # progress: before the first game, then after each piece, in order, up to all
    assert calls[0] == (0, n) and calls[-1] == (n, n)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls) and len(calls) > 3
    # the flagged and the waiting games are flagged and waiting as before
    errors = [e for (e,) in a.query("SELECT error FROM g_results WHERE error IS NOT NULL")]
    assert len(errors) == 1 and errors[0].startswith("action 1")
    assert a.query_one("SELECT COUNT(*) FROM g_results WHERE waiting IS NOT NULL")[0] == 3
    got = stats.all_statistics(a)
    assert list(got) == list(want)
    for name in want:
        if name != "games":
            assert got[name].equals(want[name]), name
    a.close()


def test_the_workers_read_the_players_catalogue_as_it_was_when_the_sync_began(
        tmp_path, companion_home, parallel):
    (companion_home / "my-cards.yaml").write_text(_typed_race(), encoding="utf-8")
    s = Store(path=tmp_path / "g.sqlite")
    rid = s.create(waiting_records()["race"], title="race")
    fill(s, ["G3"])
    assert history.sync(s, workers=2) == 2
    assert parallel == [2]
    # the race typed in the player's catalogue: the game scores (+2 at the end)
    row = s.query_one("SELECT finished, waiting FROM g_results WHERE game_id=?", (rid,))
    assert row == (1, None)
    totals = dict(s.query("SELECT player, total FROM g_players WHERE game_id=?", (rid,)))
    assert totals == {"Ann": 39, "Bea": 38}
    s.close()


class _Docs(userdocs.FileDocuments):
    """A club's documents in memory (as companion.table.club keeps them in the database):
    ``file`` is None, so every game reads them as text."""

    def __init__(self, texts):
        self.texts = dict(texts)

    def file(self, name):
        return None

    def read(self, name):
        return self.texts.get(name)

    def changed(self, name):
        return 1.0 if name in self.texts else 0.0

    def where(self, name):
        return f"the club's {name}"

    def names(self, folder):
        return sorted(n.split("/", 1)[1] for n in self.texts if n.startswith(folder + "/"))


def test_the_workers_read_a_clubs_documents_not_the_data_folder(tmp_path, companion_home,
                                                                  parallel):
    """In a club the documents are in the database, which a worker process cannot
    reach: it gets a copy.  The data folder holds nothing, so a worker that read the
    files would leave the game waiting."""
    s = Store(path=tmp_path / "g.sqlite")
    rid = s.create(waiting_records()["race"], title="race")
    with userdocs.using(_Docs({"my-cards.yaml": _typed_race()})):
        assert history.sync(s, workers=2) == 1
    assert not (companion_home / "my-cards.yaml").exists()
    assert s.query_one("SELECT finished, waiting FROM g_results WHERE game_id=?",
                       (rid,)) == (1, None)
    # and without it, the same game waits (the copy is what made the difference)
    assert history.sync(s, force=True, workers=2) == 1
    assert parallel == [1, 1]
    assert s.query_one("SELECT waiting FROM g_results WHERE game_id=?", (rid,))[0] \
        == f"'{RU}' (end abilities)"
    s.close()


def test_a_snapshot_is_a_read_only_copy():
    docs = _Docs({"my-cards.yaml": "[]\n", "sse-maps/a.json": "{}", "sse-maps/b.json": "[]"})
    snap = userdocs.snapshot(["my-cards.yaml", "sse-tiles.json", "sse-maps/"], docs)
    assert snap.read("my-cards.yaml") == "[]\n" and snap.read("sse-tiles.json") is None
    assert snap.names("sse-maps") == ["a.json", "b.json"]
    assert snap.file("my-cards.yaml") is None
    assert snap.where("my-cards.yaml") == "the club's my-cards.yaml"
    docs.texts["my-cards.yaml"] = "changed"
    assert snap.read("my-cards.yaml") == "[]\n"           # taken when it was made
    with pytest.raises(PermissionError, match="read-only copy"):
        snap.write("my-cards.yaml", "x")
    with pytest.raises(PermissionError, match="read-only copy"):
        snap.update("my-cards.yaml", lambda old: "x")
    # what a worker process is given is enough to make it again
    again = userdocs.SnapshotDocuments(*snap.state())
    assert again.read("sse-maps/a.json") == "{}" and again.changed("my-cards.yaml") == 1.0


def _dies(unit):
    os._exit(3)                          # a worker process killed in the middle


def test_a_worker_that_dies_costs_only_time(tmp_path, monkeypatch, parallel):
    a = Store(path=tmp_path / "a.sqlite")
    _stock(a, copies=1)
    n = history.sync(a, workers=0)
    one = _dump(a)
    monkeypatch.setattr(derived, "_derive_unit", _dies)
    monkeypatch.setattr(derived, "PARALLEL_UNIT", 3)
    calls = []
    assert history.sync(a, force=True, workers=2,
                        progress=lambda done, total: calls.append((done, total))) == n
    assert parallel == [0]
    assert _dump(a) == one                              # derived here instead
    assert calls[-1] == (n, n)
    a.close()


def test_how_many_workers(monkeypatch):
    monkeypatch.delenv(history.WORKERS_ENV, raising=False)
    assert history.sync_workers(history.PARALLEL_MIN - 1) == 0      # a few games: here
    cpus = len(os.sched_getaffinity(0))
    assert history.sync_workers(10_000) == (min(cpus, history.MAX_WORKERS) if cpus > 1 else 0)
    monkeypatch.setenv(history.WORKERS_ENV, "0")
    assert history.sync_workers(10_000) == 0
    monkeypatch.setenv(history.WORKERS_ENV, "3")
    assert history.sync_workers(5) == 3
    monkeypatch.setenv(history.WORKERS_ENV, "many")
    assert history.sync_workers(10_000) == 0


# -- the History tab of a long history ------------------------------------------------
def test_a_long_history_lists_the_first_games_and_find_reaches_the_others(
        tmp_path, monkeypatch):
    from companion.ui import history_tab
    from test_history import _tab
    s = Store(path=tmp_path / "g.sqlite")
    ids = fill(s)                                        # 7 games, G1 first ... S2 last
    monkeypatch.setattr(history_tab, "MAX_GAMES", 3)
    tab = _tab(s)
    newest = [gid for _, gid in tab.list.options]
    assert newest == [ids["S2"], ids["S1"], ids["G5"]]   # newest first, 3 of 7
    assert "The first 3 of 7 games" in tab.list_note.value
    tab.order.value = "old"
    assert [gid for _, gid in tab.list.options] == [ids["G1"], ids["G2"], ids["G3"]]
    tab.filter.value = "Dan"                             # only G4 (Ann, Bea, Dan)
    assert [gid for _, gid in tab.list.options] == [ids["G4"]]
    assert tab.list_note.value == ""                     # all found are listed
    s.close()


def test_the_plays_csv_is_made_when_asked_for_and_again_after_a_change(tmp_path):
    from test_history import _tab
    s = Store(path=tmp_path / "g.sqlite")
    ids = fill(s, ["G1"])
    tab = _tab(s)
    assert tab.links.value == ""
    tab.plays_btn.click()
    assert "download='plays.csv'" in tab.links.value
    assert tab.links.value.count("history-plays-csv") == 1
    import base64
    text = base64.b64decode(tab.links.value.split("base64,", 1)[1].split("'", 1)[0]).decode()
    assert [line.split(",")[5] for line in text.splitlines()[1:]] == [ids["G1"]]
    fill(s, ["G3"])
    tab.refresh()                                        # the games changed: no stale link
    assert tab.links.value == ""
    tab.plays_btn.click()
    text = base64.b64decode(tab.links.value.split("base64,", 1)[1].split("'", 1)[0]).decode()
    assert len(text.splitlines()) == 3                   # header, G1, G3
    s.close()


def test_workers_start_from_a_jupyter_kernel(tmp_path):
    """The dashboard's sync runs in a Voila page's Jupyter kernel (its main module and
    output streams are the kernel's): the workers start from there and derive every
    game, as from the command line."""
    import json
    import sys
    from jupyter_client.manager import start_new_kernel
    s = Store(path=tmp_path / "g.sqlite")
    ids = fill(s)
    s.close()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]),
           "COMPANION_HOME": str(tmp_path / "home")}
    km, kc = start_new_kernel(kernel_name="python3", env=env)
    try:
        code = (
            "import json, sys\n"
            "from companion.table import derived, history\n"
            "from companion.table.store import Store\n"
            "done = []\n"
            "real = derived._sync_parallel\n"
            "derived._sync_parallel = lambda *a, **k: done.append(real(*a, **k)) or done[-1]\n"
            f"s = Store(path={str(tmp_path / 'g.sqlite')!r})\n"
            "n = history.sync(s, workers=2)\n"
            "print(json.dumps({'n': n, 'parallel': done, 'kernel': 'ipykernel' in sys.modules,\n"
            "                  'rows': s.query_one('SELECT COUNT(*) FROM g_results')[0]}))\n")
        out: list[str] = []
        reply = kc.execute_interactive(code, timeout=180,
                                       output_hook=lambda m: out.append(m["content"].get("text", "")))
        assert reply["content"]["status"] == "ok", reply["content"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    got = json.loads("".join(out).strip().splitlines()[-1])
    assert got == {"n": len(ids), "parallel": [len(ids)], "kernel": True,
                   "rows": len(ids)}, (got, sys.executable)


def test_a_large_sync_makes_the_planner_statistics_again(make_store, monkeypatch):
    """After a sync of many games the derived tables are ANALYZEd (a planner that still
    thinks them empty made PostgreSQL's statistics twice as slow), on either backend;
    a small sync does not."""
    s = make_store()
    fill(s)
    done = []
    real = derived._analyze
    monkeypatch.setattr(derived, "_analyze", lambda store: done.append(1) or real(store))
    monkeypatch.setattr(derived, "ANALYZE_MIN", 5)
    assert history.sync(s) == 7 and done == [1]
    assert history.sync(s, force=True) == 7 and done == [1, 1]
    fill(s, ["G1"])
    assert history.sync(s) == 1 and done == [1, 1]          # one game: no ANALYZE
    # SQLite keeps what ANALYZE found in sqlite_stat1; PostgreSQL in pg_stat_user_tables
    if getattr(s, "url", None):
        n = s.query_one("SELECT COUNT(*) FROM pg_stat_user_tables WHERE relname = 'g_players' "
                        "AND last_analyze IS NOT NULL")[0]
    else:
        n = s.query_one("SELECT COUNT(*) FROM sqlite_stat1 WHERE tbl = 'g_players'")[0]
    assert n == 1
