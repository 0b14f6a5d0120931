"""The reads every statistics module shares (companion.table.stats, people_stats):
the derived tables brought up to date (:func:`companion.table.derived.sync`) and each
query read, once per :func:`one_read`, as a DataFrame or as rows.

Apart from :mod:`companion.table.stats` so that the game statistics and the people
statistics (:mod:`companion.table.people_stats`) share one sync and one read of each
query without importing each other.
"""
from __future__ import annotations

import contextlib
import contextvars
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import pandas as pd

from .derived import sync
from .store import Store


class OneRead:
    """Several statistics of one store computed together (:func:`one_read`:
    ``stats.all_statistics``, ``people_stats.people_statistics``): the derived tables are
    brought up to date once, and each query is read once (a copy of its DataFrame is
    handed out)."""

    def __init__(self, store: Store):
        self.store = store
        self.synced = False
        self.frames: dict[tuple[str, tuple[Any, ...]], pd.DataFrame] = {}
        self.rows: dict[tuple[str, tuple[Any, ...]], list[Any]] = {}
        self.games: dict[str | None, pd.DataFrame] = {}
        self.summaries: bool | None = None


_ONE_READ: contextvars.ContextVar[OneRead | None] = contextvars.ContextVar(
    "companion_stats_one_read", default=None)


@contextlib.contextmanager
def one_read(store: Store) -> Iterator[None]:
    """``with one_read(store):`` every statistics function of ``store`` called inside
    shares one sync and one read of each query (the History tab builds all its tables
    in one).  Nested uses of the same store share the outer one."""
    now = _ONE_READ.get()
    if now is not None and now.store is store:
        yield
        return
    token = _ONE_READ.set(OneRead(store))
    try:
        yield
    finally:
        _ONE_READ.reset(token)


def shared(store: Store) -> OneRead | None:
    """The :func:`one_read` of ``store`` under way here, if any."""
    now = _ONE_READ.get()
    return now if now is not None and now.store is store else None


def sync_once(store: Store) -> None:
    """:func:`companion.table.history.sync`, once per :func:`one_read`."""
    now = _ONE_READ.get()
    if now is not None and now.store is store:
        if not now.synced:
            sync(store)
            now.synced = True
        return
    sync(store)


def mark_synced(store: Store) -> None:
    """The caller has just brought the derived tables up to date
    (:func:`companion.table.history.sync`, e.g. with the History tab's progress bar):
    inside :func:`one_read` of ``store``, the statistics computed after it do not sync
    again.  Outside one, nothing."""
    now = _ONE_READ.get()
    if now is not None and now.store is store:
        now.synced = True


def read_frame(store: Store, sql: str, params: list[Any] | None = None) -> pd.DataFrame:
    """One read of the store as a DataFrame (pandas' read_sql_query).  On PostgreSQL the
    connection is companion.table.pgconn's (SQLite-style SQL, a DB-API cursor), which
    pandas reads as it reads sqlite3's but warns that it is not sqlite3."""
    now = _ONE_READ.get()
    key = (sql, tuple(params or ()))
    if now is not None and now.store is store and key in now.frames:
        return now.frames[key].copy()
    with store.reading() as conn, warnings.catch_warnings():
        warnings.filterwarnings("ignore", "pandas only supports SQLAlchemy", UserWarning)
        df = pd.read_sql_query(sql, conn, params=params)
    if now is not None and now.store is store:
        now.frames[key] = df.copy()
    return df


def read_rows(store: Store, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    """One read of the store as a list of tuples (shared within :func:`one_read`)."""
    now = _ONE_READ.get()
    key = ("rows:" + sql, tuple(params))
    if now is not None and now.store is store:
        if key not in now.rows:
            with store.reading():
                now.rows[key] = store.query(sql, params)
        return now.rows[key]
    with store.reading():
        return store.query(sql, params)
