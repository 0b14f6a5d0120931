"""Issue 13: the store's public query and transaction API (docs/store.md), which
history, stats and the exports use instead of the store's connection."""
from __future__ import annotations

import ast
import json
import sqlite3
import warnings
from pathlib import Path

import pandas as pd
import pytest

from companion.table.pgstore import PgStore
from companion.table.store import StoreWriteFailed
from pgserver_fixture import set_read_only

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = json.loads((ROOT / "data/samples/george-base-final-scoring.json").read_text())


@pytest.fixture
def store(make_store):
    """A store on each backend (SQLite; PostgreSQL, marked ``postgres``)."""
    return make_store()


def test_query_and_query_one(store):
    gid = store.create({**SAMPLE, "actions": SAMPLE["actions"][:3]}, title="T")
    assert store.query("SELECT idx FROM actions WHERE game_id=? ORDER BY idx", (gid,)) \
        == [(0,), (1,), (2,)]
    assert store.query_one("SELECT title FROM games WHERE id=?", (gid,)) == ("T",)
    assert store.query_one("SELECT title FROM games WHERE id=?", ("nope",)) is None
    assert store.query("SELECT id FROM games WHERE id=?", ("nope",)) == []


def test_has_table(store):
    assert store.has_table("games") and store.has_table("actions")
    assert not store.has_table("no_such_table")
    assert not store.has_table("games' OR '1'='1")       # a name is a value, not SQL


def test_transaction_commits_or_rolls_back(store):
    gid = store.create({**SAMPLE, "actions": []}, title="T")
    with store.transaction() as c:
        c.execute("UPDATE games SET title='U' WHERE id=?", (gid,))
    assert store.query_one("SELECT title FROM games WHERE id=?", (gid,)) == ("U",)
    with pytest.raises(RuntimeError):
        with store.transaction() as c:
            c.execute("UPDATE games SET title='V' WHERE id=?", (gid,))
            raise RuntimeError("boom")
    assert store.query_one("SELECT title FROM games WHERE id=?", (gid,)) == ("U",)


def test_a_failed_transaction_says_not_saved(store):
    gid = store.create({**SAMPLE, "actions": []}, title="T")
    set_read_only(store, True)
    try:
        with pytest.raises(StoreWriteFailed, match="Not saved"):
            with store.transaction() as c:
                c.execute("UPDATE games SET title='V' WHERE id=?", (gid,))
    finally:
        set_read_only(store, False)
    assert store.query_one("SELECT title FROM games WHERE id=?", (gid,)) == ("T",)


def test_reading_gives_a_connection_for_pandas(store):
    store.create({**SAMPLE, "actions": []}, title="T")
    with store.reading() as conn, warnings.catch_warnings():
        if isinstance(store, PgStore):      # pandas reads our DB-API connection, but warns
            warnings.filterwarnings("ignore", "pandas only supports SQLAlchemy", UserWarning)
        else:
            assert isinstance(conn, sqlite3.Connection)
        df = pd.read_sql_query("SELECT title FROM games WHERE title=?", conn, params=["T"])
    assert df.title.tolist() == ["T"]


def test_statistics_read_without_warnings(store):
    from companion.table import stats
    store.create({**SAMPLE, "actions": []}, title="T")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = stats.games(store)
    assert df.status.tolist() == ["in progress"]


def test_no_module_outside_the_store_reaches_into_it():
    """history, stats, plays_export (and every other module) use the public API:
    no ``<x>._conn`` or ``<x>._tx`` outside companion/table/store.py."""
    bad = []
    for path in (ROOT / "companion").rglob("*.py"):
        if path.relative_to(ROOT).as_posix() == "companion/table/store.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("_conn", "_tx", "_reading"):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert bad == []


def test_core_imports_no_private_name_of_another_module():
    """companion/core (and the CLI) import no ``_name`` from another module."""
    bad = []
    paths = [*(ROOT / "companion/core").glob("*.py"), ROOT / "companion/cli.py"]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                bad += [f"{path.relative_to(ROOT)}:{node.lineno} {a.name}" for a in node.names
                        if a.name.startswith("_") and not a.name.startswith("__")]
    assert bad == []
