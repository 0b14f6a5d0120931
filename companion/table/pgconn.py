"""A psycopg connection as the store's SQL uses it: SQLite-style SQL (``?``
placeholders) translated (:func:`pg_sql`), the SQLite connection's ``execute`` on a
psycopg connection (:class:`PgConnection`), the address with its password masked, the
limits of every connection and the watchdog that gives up on a server that does not
answer (docs/store.md, "Limits").

Apart from :mod:`companion.table.pgbase` and :mod:`companion.table.pgstore` (the store
on PostgreSQL): nothing here knows the games or the store, and psycopg itself is not
imported here (the connections are given; the driver is imported by
:mod:`companion.table.pgbase` when a store opens).
"""
from __future__ import annotations

import functools
import os
import re
import socket
import threading
import time
from typing import Any, Callable, Iterator, Sequence
from urllib.parse import urlsplit, urlunsplit

from ..core.errors import StoreError, StoreWriteFailed

#: the channel of every write's NOTIFY (payload: the game's id, or '' for a write that
#: is not one game's: a new game, History's tables)
CHANNEL = "companion_store"
#: the advisory lock every write transaction holds ("AtSE"): one writer at a time
WRITE_LOCK = 0x41745345


#: the limits of every connection (docs/store.md, "Limits"): environment variable, default
#: seconds.  0 turns one off.
LIMITS = {
    # libpq's connect_timeout: opening a connection (a server that does not answer)
    "connect": ("COMPANION_PG_CONNECT_TIMEOUT", 5.0),
    # the server's statement_timeout; the client also gives up on a statement that got
    # no answer ANSWER_GRACE s after it (a hung server cannot enforce its own limit)
    "statement": ("COMPANION_PG_STATEMENT_TIMEOUT", 6.0),
    # the server's idle_in_transaction_session_timeout: a connection left inside a
    # transaction (a page's kernel stopped while writing) lets go of the write lock
    "idle": ("COMPANION_PG_IDLE_TIMEOUT", 30.0),
    # TCP keepalives (a network or a machine that went away; TCP connections only)
    "keepalives_idle": ("COMPANION_PG_KEEPALIVES_IDLE", 5.0),
    "keepalives_interval": ("COMPANION_PG_KEEPALIVES_INTERVAL", 2.0),
    "keepalives_count": ("COMPANION_PG_KEEPALIVES_COUNT", 3.0),
}
#: seconds beyond the statement limit the client waits for an answer before it gives
#: the connection up as lost (the server itself ends a statement at its limit)
ANSWER_GRACE = 2.0


def limits() -> dict[str, float]:
    """:data:`LIMITS` as this process's environment sets them (a value that is not a
    number of seconds, 0 to 86400, is refused in one line)."""
    out = {}
    for key, (env, default) in LIMITS.items():
        text = os.environ.get(env, "").strip()
        if not text:
            out[key] = default
            continue
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0 <= value <= 86400:
            raise StoreError(f"{env} must be a number of seconds from 0 to 86400, not "
                             f"{text[:40]!r}")
        out[key] = value
    return out


class _Watchdog:
    """One daemon thread for every connection of the process: a statement that got no
    answer by its deadline has its connection's socket shut, so the waiting call ends
    with the driver's "connection lost" at once (the server may be stopped: it can
    neither answer nor enforce its statement_timeout, and TCP keepalives are answered
    by its kernel)."""

    def __init__(self) -> None:
        self.cv = threading.Condition()
        self.armed: dict[int, tuple[float, Any, Callable[[], None]]] = {}
        self.count = 0
        self.thread: threading.Thread | None = None

    def arm(self, conn: Any, seconds: float, fired: Callable[[], None]) -> int:
        with self.cv:
            self.count += 1
            token = self.count
            self.armed[token] = (time.monotonic() + seconds, conn, fired)
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, daemon=True,
                                               name="companion-pg-watchdog")
                self.thread.start()
            self.cv.notify()
        return token

    def disarm(self, token: int) -> None:
        with self.cv:
            self.armed.pop(token, None)

    def _run(self) -> None:
        with self.cv:
            while True:
                now = time.monotonic()
                for token in [t for t, (d, _, _) in self.armed.items() if d <= now]:
                    _, conn, fired = self.armed.pop(token)
                    try:
                        fired()
                        _cut(conn)
                    except Exception:  # noqa: BLE001 - the watchdog never stops
                        pass
                first = min((d for d, _, _ in self.armed.values()), default=None)
                self.cv.wait(None if first is None else max(0.0, first - now))


def _cut(conn: Any) -> None:
    """Shut a connection's socket (a duplicate of its descriptor: libpq keeps its own),
    so that a call waiting on it wakes up and finds it closed."""
    fd = conn.pgconn.socket
    sock = socket.socket(fileno=os.dup(fd))
    try:
        sock.shutdown(socket.SHUT_RDWR)
    finally:
        sock.close()


#: the one watchdog of the process (PgBase._answered arms it)
WATCHDOG = _Watchdog()


def masked(url: str) -> str:
    """The address without its password (what messages show)."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rsplit("@", 1)[1]
        user = parts.username or ""
        return urlunsplit((parts.scheme, f"{user}:***@{host}", parts.path, parts.query,
                           parts.fragment))
    except ValueError:
        return "(a PostgreSQL address)"


def is_url(location: object) -> bool:
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


@functools.lru_cache(maxsize=512)
def pg_sql(sql: str) -> str:
    """SQLite-style SQL as psycopg takes it: ``?`` outside quotes becomes ``%s``, every
    ``%`` becomes ``%%``; a column type ``REAL`` of a CREATE/ALTER TABLE becomes
    ``DOUBLE PRECISION`` (SQLite's REAL is 8 bytes, PostgreSQL's 4)."""
    out = []
    quote = None
    for ch in sql:
        if ch == "%":
            out.append("%%")
        elif quote is not None:
            out.append(ch)
            if ch == quote:
                quote = None
        elif ch in ("'", '"'):
            quote = ch
            out.append(ch)
        elif ch == "?":
            out.append("%s")
        else:
            out.append(ch)
    text = "".join(out)
    if re.match(r"\s*(CREATE|ALTER)\s+TABLE", text, re.I):
        text = re.sub(r"\bREAL\b", "DOUBLE PRECISION", text)
    return text


class _Cursor:
    """A psycopg cursor taking SQLite-style SQL (pandas' read_sql_query uses it); every
    statement waits for its answer no longer than the store allows (``answered``)."""

    def __init__(self, cur: Any, answered: Callable[[], Any] | None = None):
        self.cur = cur
        self.answered = answered

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> _Cursor:
        if self.answered is None:
            self.cur.execute(pg_sql(sql), tuple(params or ()))
        else:
            with self.answered():
                self.cur.execute(pg_sql(sql), tuple(params or ()))
        return self

    def executemany(self, sql: str, seq: Sequence[Sequence[Any]]) -> _Cursor:
        rows = [tuple(r) for r in seq]
        if rows:
            if self.answered is None:
                self.cur.executemany(pg_sql(sql), rows)
            else:
                with self.answered():
                    self.cur.executemany(pg_sql(sql), rows)
        return self

    def fetchone(self) -> Any:
        return self.cur.fetchone()

    def fetchall(self) -> list[Any]:
        rows: list[Any] = self.cur.fetchall()
        return rows

    def fetchmany(self, size: int = 1) -> list[Any]:
        rows: list[Any] = self.cur.fetchmany(size)
        return rows

    def __iter__(self) -> Iterator[Any]:
        return iter(self.cur.fetchall())

    @property
    def description(self) -> Any:
        return self.cur.description

    @property
    def rowcount(self) -> int:
        n: int = self.cur.rowcount
        return n

    def close(self) -> None:
        self.cur.close()


class PgConnection:
    """What ``transaction()``, ``reading()`` and the data steps hand out: the SQLite
    connection's ``execute`` / ``executemany`` (``?`` placeholders) on a psycopg
    connection, plus :meth:`has_table`."""

    def __init__(self, raw: Any, answered: Callable[[], Any] | None = None):
        self.raw = raw
        self.answered = answered

    def cursor(self) -> _Cursor:
        return _Cursor(self.raw.cursor(), self.answered)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Cursor:
        return self.cursor().execute(sql, params)

    def executemany(self, sql: str, seq: Sequence[Sequence[Any]]) -> _Cursor:
        return self.cursor().executemany(sql, seq)

    def has_table(self, name: str) -> bool:
        return self.execute("SELECT 1 FROM information_schema.tables WHERE "
                            "table_schema = current_schema() AND table_name = ?",
                            (name,)).fetchone() is not None

    def columns(self, table: str) -> set[str]:
        return {r[0] for r in self.execute(
            "SELECT column_name FROM information_schema.columns WHERE "
            "table_schema = current_schema() AND table_name = ?", (table,)).fetchall()}

    def commit(self) -> None:          # pandas calls these on errors; ours are the store's
        pass

    def rollback(self) -> None:
        pass


class StoreValueRefused(StoreWriteFailed, ValueError):
    """A value PostgreSQL cannot store (a NUL character in a text, a number out of
    range): nothing of the change was written.  Also a ValueError, as SQLite's
    out-of-range numbers are (History flags such a game instead of stopping)."""


class CommitUnknown(StoreWriteFailed):
    """The connection was lost while a write's COMMIT was under way (terminated, a
    server that stopped answering), and what was stored could not be read back: the
    change may or may not have been saved."""

