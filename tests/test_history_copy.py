"""Moving a history: ``history copy`` (issue 26; companion/table/store_copy.py).

Every store here is made by the ``new_store(name)`` fixture, at ``place(name)`` (what
the command line is given): a store named ``source…`` on the first backend of the
test's pair (:data:`PAIRS`), any other on the second.  The copy only uses the stores'
public API, so another backend is tested by adding its pairs and its place.

The records are real: the sample records of data/samples imported as History does,
a Small Star Empires game played through its engine, a game in progress and one
whose revision is ahead of its action count (an undo).
"""
from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from companion.core.errors import CompanionError, RoleRefused
from companion.core.roles import Role
from companion.table import history, stats
from companion.table.store_copy import (COLUMNS, CopyReport, NO_POSTGRES, copy_history, mask,
                                  scrub)
from companion.table.store import Store
from companion.table.backends import open_store

_SSE_TESTS = str(Path(__file__).resolve().parent / "sse")
if _SSE_TESTS not in sys.path:
    sys.path.insert(0, _SSE_TESTS)
from ssekit import game as sse_game, move  # noqa: E402

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
HOSTILE = ["Ann's \"big\" night", "'); DROP TABLE games;--", "<script>alert(1)</script>",
           '=HYPERLINK("http://evil.example","click")', "Zoë ☄ 𝔘nicode\ttab",
           "Robert'); DELETE FROM actions WHERE ('1'='1"]


# -- the backends: (source, destination) of each run -----------------------------------
#: (source, destination) backends; the PostgreSQL ones run on tests/pgserver_fixture.py's
#: server (marked ``postgres``)
PAIRS = [("sqlite", "sqlite"),
         pytest.param(("sqlite", "postgres"), marks=pytest.mark.postgres),
         pytest.param(("postgres", "sqlite"), marks=pytest.mark.postgres)]


@pytest.fixture(params=PAIRS, ids="-to-".join)
def place(request, tmp_path):
    """``place(name)``: where the store ``name`` lives (a path or a URL)."""
    first, second = request.param

    def where(name: str) -> str:
        backend = first if name.startswith("source") else second
        if backend == "sqlite":
            return str(tmp_path / f"{name}.sqlite")
        if name not in made:                    # postgres: a new database per name
            made[name] = _new_database(request.getfixturevalue("pg_server")[1])
        return made[name]
    made: dict[str, str] = {}
    return where


def _new_database(admin: str) -> str:
    """A new, empty database on the test server (tests/pgserver_fixture.py's
    ``pg_server``, whose databases go with it); its address."""
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    import psycopg
    name = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(admin, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(admin)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


@pytest.fixture
def new_store(place):
    """``new_store(name, role=...)``: the store at ``place(name)`` (empty when new);
    closed after the test."""
    made: list = []

    def make(name: str, *, role: Role = Role.HOST) -> Store:
        s = open_store(place(name), role=role)
        made.append(s)
        return s
    yield make
    for s in made:
        s.close()


# -- the records ------------------------------------------------------------------------
def _sse_record() -> dict:
    g = sse_game("H1 P2 Nr E P1 H2", pieces={"cities": 1, "trade_stations": 1})
    move(g, "Ann", (1, 0))
    move(g, "Bob", (4, 0), "trade_station")
    move(g, "Ann", (2, 0), "trade_station")
    move(g, "Bob", (3, 0))
    return json.loads(json.dumps(g.to_record()))


def fill(store) -> None:
    """The samples, a Small Star Empires game, a game in progress (a sample cut
    short), then one undo on it (its revision is ahead of its actions)."""
    history.import_records(store, sorted(SAMPLES.glob("*.json")))
    store.create(_sse_record(), title="sse")
    rec = history.read_any_record(sorted(SAMPLES.glob("*.json"))[0])
    rec["actions"] = rec["actions"][:12]
    gid = store.create(rec, title="in progress")
    store.pop(gid, 11, rev=store.revision(gid))


def rows(store) -> tuple[list, list]:
    """Every game row (all columns) and every action row, in a fixed order."""
    return (store.query(f"SELECT {', '.join(COLUMNS)} FROM games ORDER BY id"),
            store.query("SELECT game_id, idx, action FROM actions ORDER BY game_id, idx"))


@pytest.fixture
def src(new_store):
    s = new_store("source")
    fill(s)
    return s


@pytest.fixture
def dst(new_store):
    return new_store("destination")


# -- the copy ---------------------------------------------------------------------------
def test_a_copy_into_an_empty_store_replays_every_record_with_its_revision(src, dst):
    games = src.games(None)
    assert len(games) == 7
    report = copy_history(src, dst)
    assert sorted(report.copied) == sorted(g["id"] for g in games)
    assert report.actions == sum(g["actions"] for g in games) > 100
    assert report.already == [] and report.conflicts == []
    for g in games:
        assert dst.load(g["id"]) == src.load(g["id"])
        assert dst.revision(g["id"]) == src.revision(g["id"])
        history.open_game(dst.load(g["id"]))          # it replays
    assert rows(dst) == rows(src)                       # every column, verbatim
    undone = next(g["id"] for g in games if g["title"] == "in progress")
    assert dst.revision(undone) == 1 and len(dst.load(undone)["actions"]) == 11


def test_a_second_copy_adds_nothing(src, dst):
    copy_history(src, dst)
    before = rows(dst)
    report = copy_history(src, dst)
    assert report.copied == [] and report.actions == 0 and report.conflicts == []
    assert len(report.already) == 7
    assert rows(dst) == before
    assert "Copied 0 games (0 actions)" in report.summary("a", "b")
    assert "7 were already there; 0 conflicts." in report.summary("a", "b")


def test_copy_back_restores_a_deleted_game_with_its_id_and_revision(new_store, src, dst):
    copy_history(src, dst)
    lost = src.games(None)[0]
    rec, rev = src.load_revision(lost["id"])
    src.delete(lost["id"])
    report = copy_history(dst, src)                     # back
    assert report.copied == [lost["id"]] and len(report.already) == 6
    assert src.load_revision(lost["id"]) == (rec, rev)
    assert rows(src) == rows(dst)
    third = new_store("third")                          # and on again: the same history
    copy_history(src, third)
    assert rows(third) == rows(dst)


def test_a_game_changed_on_one_side_is_a_conflict_and_is_not_overwritten(src, dst):
    copy_history(src, dst)
    gid = src.games(None)[0]["id"]
    title = src.load(gid)["meta"]["title"]
    src.pop(gid, len(src.load(gid)["actions"]) - 1)     # an undo on the source only
    other = next(g["id"] for g in src.games(None) if g["id"] != gid)
    dst.merge_cards(other, [{"name": "Fixture: typed only here", "vp": 1}])   # no new rev
    before = rows(dst)
    report = copy_history(src, dst)
    assert sorted(report.conflicts) == sorted([(gid, title), (other, src.load(other)["meta"]["title"])])
    assert report.copied == [] and len(report.already) == 5
    assert rows(dst) == before                          # left as it is
    text = report.summary("A", "B")
    assert "2 conflicts: " in text and json.dumps(title) in text and gid in text
    assert "not overwritten" in text


def test_nothing_is_half_copied_when_the_copy_fails(src, dst):
    def fail(done: int, total: int) -> None:
        if done == 3:
            raise CompanionError("stopped after three games")
    with pytest.raises(CompanionError, match="stopped"):
        copy_history(src, dst, progress=fail)
    assert rows(dst) == ([], [])
    assert len(copy_history(src, dst).copied) == 7     # and a new try copies everything


def test_hostile_titles_and_values_round_trip_verbatim(new_store, dst):
    s = new_store("source-hostile")
    base = history.read_any_record(sorted(SAMPLES.glob("*.json"))[0])
    for t in HOSTILE:
        rec = json.loads(json.dumps(base))
        rec["meta"] = {"location": t, "notes": t}
        s.create(rec, title=t, write="import")
    report = copy_history(s, dst)
    assert len(report.copied) == len(HOSTILE)
    assert sorted(r[0] for r in dst.query("SELECT title FROM games")) == sorted(HOSTILE)
    assert rows(dst) == rows(s)
    for g in s.games(None):
        assert dst.load(g["id"])["meta"] == s.load(g["id"])["meta"]
    assert dst.query("SELECT COUNT(*) FROM actions")[0][0] == len(HOSTILE) * len(base["actions"])


def test_history_derives_the_same_results_on_the_destination(src, dst):
    copy_history(src, dst)
    history.sync(src)
    assert dst.query("SELECT COUNT(*) FROM g_results")[0][0] == 0   # not copied
    history.sync(dst)
    q = ("SELECT game_id, format, finished, played, decided_by, winners, error, waiting "
         "FROM g_results ORDER BY game_id")
    assert dst.query(q) == src.query(q) and len(src.query(q)) == 7
    q = "SELECT * FROM g_players ORDER BY game_id, player"
    assert dst.query(q) == src.query(q) and dst.query(q)
    a, b = stats.games(src), stats.games(dst)
    assert a.to_dict("records") == b.to_dict("records")
    assert sorted(a.status) == ["finished"] * 3 + ["in progress"] * 4   # the samples, as they are
    assert sorted(a.title) == sorted(g["title"] for g in src.games(None))


def test_a_table_view_destination_is_refused_and_nothing_is_written(new_store, src):
    tv = new_store("tv", role=Role.TABLE)
    with pytest.raises(RoleRefused, match="table view"):
        copy_history(src, tv)
    assert rows(tv) == ([], [])
    seat = new_store("seat", role=Role.SEAT)
    with pytest.raises(RoleRefused, match="import"):
        copy_history(src, seat)
    assert rows(seat) == ([], [])


class _PortableConn:
    """The destination's transaction connection, refusing SQL another backend lacks."""
    NOT_PORTABLE = ("OR REPLACE", "OR IGNORE", "PRAGMA", "SQLITE_", "RETURNING", "UPSERT",
                    "ON CONFLICT")

    def __init__(self, conn, seen: list):
        self.conn, self.seen = conn, seen

    def execute(self, sql: str, params=()):
        assert not any(w in sql.upper() for w in self.NOT_PORTABLE), sql
        assert "%s" not in sql and sql.count("?") == len(params), sql
        self.seen.append(sql)
        return self.conn.execute(sql, params)


class _OnlyPublic:
    """A store seen only through the public API the copy may use (query, transaction,
    require): no path, no connection, nothing of SQLite's."""

    def __init__(self, store, seen: list):
        self._store, self.seen = store, seen

    def query(self, sql, params=()):
        assert not any(w in sql.upper() for w in _PortableConn.NOT_PORTABLE), sql
        self.seen.append(sql)
        return self._store.query(sql, params)

    def require(self, write):
        self._store.require(write)

    def transaction(self):
        outer, seen = self._store.transaction(), self.seen

        class Tx:
            def __enter__(self):
                return _PortableConn(outer.__enter__(), seen)

            def __exit__(self, *exc):
                return outer.__exit__(*exc)
        return Tx()


def test_the_copy_uses_only_the_public_api_and_portable_sql(src, dst):
    seen: list = []
    report = copy_history(_OnlyPublic(src, seen), _OnlyPublic(dst, seen))
    assert len(report.copied) == 7 and rows(dst) == rows(src)
    assert any(q.startswith("INSERT INTO games(") for q in seen)
    again = copy_history(_OnlyPublic(src, []), _OnlyPublic(dst, []))
    assert len(again.already) == 7 and again.copied == []


def test_a_game_that_keeps_changing_while_it_is_read_is_not_copied(src, dst):
    class Playing(_OnlyPublic):
        """Every read of the game's row sees a new revision: another page plays on."""
        n = 0

        def query(self, sql, params=()):
            got = super().query(sql, params)
            if sql.startswith("SELECT id, title") and got:
                Playing.n += 1
                got = [got[0][:-1] + (got[0][-1] + Playing.n,)]
            return got
    with pytest.raises(CompanionError, match="kept changing"):
        copy_history(Playing(src, []), dst)
    assert rows(dst) == ([], [])


def test_a_game_the_destination_refuses_fails_the_copy_naming_it(src, dst):
    """(PostgreSQL refuses a NUL character in a text, which SQLite keeps.)"""
    victim = src.games(None)[2]

    class Refusing(_PortableConn):
        def execute(self, sql, params=()):
            if sql.startswith("INSERT INTO actions") and params[0] == victim["id"]:
                raise ValueError("a value the database cannot store")
            return super().execute(sql, params)

    class Dst(_OnlyPublic):
        def transaction(self):
            outer = self._store.transaction()

            class Tx:
                def __enter__(self):
                    return Refusing(outer.__enter__(), [])

                def __exit__(self, *exc):
                    return outer.__exit__(*exc)
            return Tx()
    with pytest.raises(CompanionError) as e:
        copy_history(src, Dst(dst, []))
    assert str(e.value).startswith(f"Nothing was copied: the game {json.dumps(victim['title'])}")
    assert victim["id"] in str(e.value) and "cannot store" in str(e.value)
    assert rows(dst) == ([], [])


def test_the_same_store_is_refused(src):
    with pytest.raises(CompanionError, match="same"):
        copy_history(src, src)


def test_a_password_is_masked():
    url = "postgresql://club:s3cr%40t@db.example:5432/games?sslmode=require"
    assert mask(url) == "postgresql://club:***@db.example:5432/games?sslmode=require"
    assert mask("postgres://db.example/games?user=a&password=hunter22&x=1") == \
        "postgres://db.example/games?user=a&password=***&x=1"
    assert mask("postgresql://club@db.example/games") == "postgresql://club@db.example/games"
    assert mask("/home/ann/games.sqlite") == "/home/ann/games.sqlite"
    assert "s3cr" not in scrub(f"could not connect to {url}: password s3cr%40t refused", [url])


def test_the_summary_of_a_report():
    r = CopyReport(copied=["a"], actions=1, already=["b"], conflicts=[("c", "'); DROP--")])
    assert r.summary("X", "Y") == (
        "Copied 1 game (1 action) from X to Y; 1 was already there; 1 conflict: "
        "\"'); DROP--\" (id c). The destination already has a different game under the "
        "same id; it was left as it is, not overwritten (export the source's game as a "
        "record and import it to keep both).")


# -- the command line -------------------------------------------------------------------
def _fill_current(home: Path) -> Store:
    """The current store (COMPANION_HOME's games.sqlite) with the records."""
    s = Store(home / "games.sqlite")
    fill(s)
    return s


def test_cli_copies_the_current_store_then_adds_nothing_then_copies_back(
        run_cli, companion_home, place, new_store):
    cur = _fill_current(companion_home)
    before = rows(cur)
    cur.close()
    to = place("moved")
    r = run_cli("history", "copy", "--to", to)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().startswith(
        f"Copied 7 games ({len(before[1])} actions) from {companion_home / 'games.sqlite'} "
        f"to {mask(to)}; 0 were already there; 0 conflicts.")
    r = run_cli("history", "copy", "--to", to)
    assert r.returncode == 0 and "Copied 0 games (0 actions)" in r.stdout
    assert "7 were already there" in r.stdout
    back = place("source-back")
    r = run_cli("history", "copy", "--from", to, "--to", back)
    assert r.returncode == 0 and "Copied 7 games" in r.stdout
    for name in ("moved", "source-back"):
        assert rows(new_store(name)) == before


def test_cli_an_unreadable_source_is_one_line_and_changes_nothing(run_cli, tmp_path):
    bad = tmp_path / "notes.sqlite"
    bad.write_bytes(b"these are my notes, not a database\n" * 50)
    to = tmp_path / "out.sqlite"
    r = run_cli("history", "copy", "--from", bad, "--to", to)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("error: ") and "not a saved-games file" in r.stderr
    assert bad.read_bytes() == b"these are my notes, not a database\n" * 50
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.sqlite"]   # nothing made, moved
    r = run_cli("history", "copy", "--from", tmp_path / "missing.sqlite", "--to", to)
    assert r.returncode == 2 and "does not exist" in r.stderr and not to.exists()


def test_cli_another_programs_database_is_refused_as_source_and_destination(
        run_cli, companion_home, tmp_path):
    other = tmp_path / "other.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE invoices (n INTEGER)")
    conn.commit()
    conn.close()
    data = other.read_bytes()
    _fill_current(companion_home).close()
    for args in (("--from", other, "--to", tmp_path / "x.sqlite"), ("--to", other)):
        r = run_cli("history", "copy", *args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
        assert "another program" in r.stderr
        assert other.read_bytes() == data
    bad = tmp_path / "bad-destination"
    bad.write_text("not a database")
    r = run_cli("history", "copy", "--to", bad)
    assert r.returncode == 2 and "not a saved-games file" in r.stderr
    assert bad.read_text() == "not a database"


def test_cli_a_conflict_is_named_and_exit_is_zero(run_cli, companion_home, place, new_store):
    cur = _fill_current(companion_home)
    to = place("moved")
    assert run_cli("history", "copy", "--to", to).returncode == 0
    gid = cur.create(history.read_any_record(sorted(SAMPLES.glob("*.json"))[1]),
                     title=HOSTILE[1])
    cur.close()
    moved = new_store("moved")
    with moved.transaction() as c:                       # the same id, another game
        c.execute("INSERT INTO games(id, title, created, updated, setup) VALUES (?,?,?,?,?)",
                  (gid, "theirs", 1.0, 1.0, json.dumps({"players": ["Ann", "Bea"]})))
    before = rows(moved)
    r = run_cli("history", "copy", "--to", to)
    assert r.returncode == 0, r.stderr
    assert "Copied 0 games" in r.stdout and "7 were already there; 1 conflict: " in r.stdout
    assert json.dumps(HOSTILE[1]) in r.stdout and "not overwritten" in r.stdout
    assert rows(moved) == before


def test_cli_a_postgresql_url_never_shows_its_password(run_cli, companion_home, tmp_path):
    """Without PostgreSQL support: one line saying how to install it.  (With it, the
    closed port gives one line saying it cannot be reached.)  Never the password."""
    _fill_current(companion_home).close()
    url = "postgresql://club:pw-s3cret@127.0.0.1:1/games"
    r = run_cli("history", "copy", "--to", url)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
    assert "pw-s3cret" not in r.stderr and "Traceback" not in r.stderr
    try:
        import companion.table.pgstore  # noqa: F401
    except ImportError:
        assert NO_POSTGRES in r.stderr


def test_cli_copy_wants_a_destination_and_its_options_are_its_own(run_cli, tmp_path):
    r = run_cli("history", "copy")
    assert r.returncode == 2 and "--to" in r.stderr and r.stderr.count("\n") == 1
    r = run_cli("history", "stats", "--to", tmp_path / "x.sqlite")
    assert r.returncode == 2 and "history copy" in r.stderr and not (tmp_path / "x.sqlite").exists()
