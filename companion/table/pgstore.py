"""Saved games in a PostgreSQL database (the club's): the same store as
:class:`companion.table.store.Store`, on a server several dashboards share.

Chosen by :func:`companion.table.backends.open_store` for a ``postgresql://`` (or
``postgres://``) address (``COMPANION_DATABASE_URL``, ``--database``).  Same
tables, same schema steps, same compare-and-set of appends and undos with the
game's revision, same refusals and one-line messages (docs/store.md, "Two
backends").  What differs:

- every write transaction holds one advisory lock of the database (as SQLite's
  ``BEGIN IMMEDIATE`` holds the file's write lock), and an append or undo also
  locks its game's row (``SELECT … FOR UPDATE``): two writers on two servers can
  never both succeed on the same revision;
- the schema version is kept in the table ``store_version`` (PostgreSQL has no
  ``user_version``); nothing is ever "moved aside";
- pages learn of other connections' writes through ``LISTEN``/``NOTIFY``
  (:meth:`PgStore.data_version`), not a file's ``PRAGMA data_version``;
- a lost connection is opened again by the next call: a page whose database
  came back works again without a reload.

psycopg (3) is imported only here, when a PostgreSQL address is used.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import socket
import threading
import time
from types import TracebackType
from typing import Any, Callable, Iterator, Literal, Sequence, TypeVar
from urllib.parse import urlsplit, urlunsplit

from ..core.errors import StaleGame, StoreBusy, StoreError, StoreNotOurs, StoreWriteFailed
from ..core.jsontypes import JSON
from ..core.roles import Role, Write
from .club import create_user_docs
from .store import (ADDITIONS, BUSY_TIMEOUT, DEFAULT_GAME, MIGRATIONS, OUR_TABLES, SCHEMA,
                    SCHEMA_VERSION, Store, _data_steps, data_steps)


_T = TypeVar("_T")

#: the channel of every write's NOTIFY (payload: the game's id, or '' for a write that
#: is not one game's: a new game, History's tables)
CHANNEL = "companion_store"
#: the advisory lock every write transaction holds ("AtSE"): one writer at a time
WRITE_LOCK = 0x41745345
#: SQLSTATEs of a lock or a conflict that lasted too long: busy
_BUSY_STATES = {"55P03", "40001", "40P01", "57014"}
_REASONS = {"25006": "the club database is read-only", "42501": "permission denied",
            "53100": "the disk of the club database is full",
            "53200": "the club database is out of memory",
            "54000": "a value is too large", "22P05": "a value the database cannot store",
            "22021": "a value the database cannot store"}


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
#: a live page's poll (data_version) asks the server for an answer (SELECT 1, which waits
#: on no lock) this often, without waiting for it, and gives the server this long to
#: answer (seconds): a stopped server is noticed within the two (issue 35: within 10 s)
PROBE_EVERY, PROBE_LIMIT = 2.0, 5.0


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


_WATCHDOG = _Watchdog()


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError("The saved games are in a PostgreSQL database, but its driver is not "
                         "installed: pip install 'star-companion[postgres]'") from None
    return psycopg


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


class PgStore(Store):
    """The saved games in a PostgreSQL database, as one page uses them: the API of
    :class:`~companion.table.store.Store`.  ``path`` is the address with its password
    masked (for messages)."""

    club = True

    def __init__(self, url: str, *, timeout: float = BUSY_TIMEOUT,
                 role: Role | str = Role.HOST):
        self.pg = _psycopg()
        self.url = url
        self.path = masked(url)  # type: ignore[assignment]  # a display string, not a file
        self.timeout = float(timeout)
        self.role = Role(role)
        self.notice = None
        self.db: Any = None                  # the psycopg connection (autocommit)
        self.listener: Any = None            # the LISTEN connection (data_version)
        self.own_pids: set[int] = set()
        self.changes = 0                     # data_version's counter
        self.probe_sent: float | None = None   # data_version's question, still unanswered
        self.answered_at = 0.0               # when the listener last answered one
        self.reopening: Any = None           # the listener being opened again (a thread)
        self.down: str | None = None         # why the listener was lost (until reopened)
        self.notify_gid = ""                 # the game the running write is about
        self.limits = limits()               # docs/store.md, "Limits"
        if self.limits["statement"]:         # a lock is waited for `timeout` s (busy) first
            self.limits["statement"] = max(self.limits["statement"], self.timeout + 1)
        self.silent: float | None = None     # the seconds a cut connection waited
        self.checked: tuple[str, int] | None = None   # (game, revision) of the write
        self.creating: str | None = None     # the id of the new game being written
        self.db = self._connect(writing=False)
        try:
            self._prepare()
        except BaseException:
            self.close()                     # refused: no connection is left open
            raise
        if self._read_only():
            self.notice = (f"The club database {self.path} is read-only: your games can be "
                           "seen, but nothing you enter now will be saved. Ask whoever runs "
                           "it to allow writing, then reload the page.")

    # -- connections ----------------------------------------------------------------
    def _params(self) -> dict[str, Any]:
        """psycopg's connection parameters: the limits (docs/store.md, "Limits") and the
        store's busy timeout (``lock_timeout``), as the server's settings of the session
        (``options``) and libpq's own."""
        lim = self.limits
        options = [f"-c lock_timeout={int(self.timeout * 1000)}",
                   f"-c statement_timeout={int(lim['statement'] * 1000)}",
                   f"-c idle_in_transaction_session_timeout={int(lim['idle'] * 1000)}",
                   "-c client_min_messages=warning"]
        params: dict[str, Any] = {"autocommit": True, "options": " ".join(options)}
        if lim["connect"]:
            params["connect_timeout"] = max(1, int(round(lim["connect"])))
        if lim["keepalives_idle"]:
            params.update(keepalives=1,
                          keepalives_idle=max(1, int(round(lim["keepalives_idle"]))),
                          keepalives_interval=max(1, int(round(lim["keepalives_interval"]))),
                          keepalives_count=max(1, int(round(lim["keepalives_count"]))))
        return params

    def _open_connection(self) -> Any:
        self.silent = None
        return self.pg.connect(self.url, **self._params())

    def _connect(self, writing: bool) -> Any:
        try:
            conn = self._open_connection()
        except self.pg.Error as e:
            raise self._unreachable(e, writing) from None
        self.own_pids.add(conn.info.backend_pid)
        return conn

    def _answered(self, conn: Any) -> Callable[[], Any]:
        """``with store._answered(conn)():`` one statement on ``conn``, given up (its
        socket shut: the driver raises "connection lost") when no answer came within
        the statement limit and :data:`ANSWER_GRACE`."""
        limit = self.limits["statement"]

        @contextlib.contextmanager
        def guard() -> Iterator[None]:
            if not limit:
                yield
                return
            wait = limit + ANSWER_GRACE

            def fired() -> None:
                self.silent = wait
            token = _WATCHDOG.arm(conn, wait, fired)
            try:
                yield
            finally:
                _WATCHDOG.disarm(token)
        return guard

    def _run(self, conn: Any, sql: str) -> None:
        """One statement of the store's own on the raw connection (ROLLBACK, COMMIT,
        LISTEN), within the answer limit."""
        with self._answered(conn)():
            conn.execute(sql)

    def _live(self, writing: bool) -> PgConnection:
        """The connection, opened again if it was lost."""
        if self.db is None or self.db.closed or self.db.broken:
            self._drop()
            self.db = self._connect(writing)
        return PgConnection(self.db, self._answered(self.db))

    def _drop(self) -> None:
        if getattr(self, "db", None) is not None:
            try:
                self.db.close()
            except Exception:  # noqa: BLE001 - a broken connection: nothing to keep
                pass
        self.db = None

    def close(self) -> None:
        self._drop()
        self.reopening = None                # a listener still being opened closes itself
        if getattr(self, "listener", None) is not None:
            self._drop_listener()

    def __del__(self) -> None:
        # a page's store lives as long as its kernel and is seldom closed: its
        # connections go with it, quietly
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    def _read_only(self) -> bool:
        try:
            # a standby, a read-only session, or a role that may not write the games
            # (SELECT only: issue 35)
            row = self._live(False).execute(
                "SELECT current_setting('transaction_read_only') = 'on' "
                "OR pg_is_in_recovery() "
                "OR NOT has_table_privilege('games', 'INSERT') "
                "OR NOT has_table_privilege('games', 'UPDATE') "
                "OR NOT has_table_privilege('actions', 'INSERT') "
                "OR NOT has_table_privilege('actions', 'DELETE')").fetchone()
            return bool(row[0])
        except self.pg.Error:
            return False

    # -- the messages -----------------------------------------------------------------
    def _why(self, e: BaseException) -> str:
        if self.silent is not None:
            return (f"the server did not answer within {self.silent:g} s: it may be stopped "
                    "or overloaded")
        state = getattr(e, "sqlstate", None)
        text = " ".join(str(e).split())[:200] or type(e).__name__
        why = _REASONS.get(state or "")
        return f"{why}: {text}" if why else text

    def _lost(self, e: BaseException) -> bool:
        """A connection that is gone (server down, network, terminated)."""
        state = getattr(e, "sqlstate", None) or ""
        if self.db is not None and (self.db.closed or self.db.broken):
            return True
        return isinstance(e, self.pg.OperationalError) and (
            not state or state.startswith(("08", "57P")))

    def _unreachable(self, e: BaseException, writing: bool) -> StoreError:
        why = self._why(e)
        if writing:
            return StoreWriteFailed(f"Not saved: the club database {self.path} cannot be "
                                    f"reached ({why}); nothing of this change was written.")
        return StoreError(f"The club database {self.path} cannot be reached ({why}). Nothing "
                          "was changed; reload the page once it is back.")

    def _commit_unknown(self, why: str) -> CommitUnknown:
        return CommitUnknown(f"Not confirmed: the connection to the club database {self.path} "
                             f"was lost while this change was being saved ({why}), and what "
                             "was stored could not be read back: it may have been saved. "
                             "Reload the page to see what is stored.")

    def _busy(self, writing: bool) -> StoreBusy:
        if writing:
            return StoreBusy(f"Not saved: the club database {self.path} is busy: another "
                             f"connection has kept the games locked for {self.timeout:g} s. "
                             "Nothing was changed; wait a moment and try again.")
        return StoreBusy(f"The club database {self.path} is busy: another connection has "
                         f"kept the games locked for {self.timeout:g} s. It was not changed; "
                         "wait a moment and reload the page.")

    def _failed(self, e: BaseException) -> StoreWriteFailed:
        cls = StoreValueRefused if isinstance(e, self.pg.DataError) else StoreWriteFailed
        return cls(f"Not saved: the club database {self.path} could not be written "
                   f"({self._why(e)}). Nothing of this change was written.")

    def _mapped(self, e: BaseException, writing: bool) -> StoreError:
        """A psycopg error as one of the store's; a lost connection is dropped, so the
        next call opens it again."""
        state = getattr(e, "sqlstate", None)
        if self._lost(e):
            self._drop()
            return self._unreachable(e, writing)
        if state == "57014" and "statement timeout" in str(e):
            why = (f"a statement took longer than {self.limits['statement']:g} s "
                   "(COMPANION_PG_STATEMENT_TIMEOUT)")
            if writing:
                return StoreWriteFailed(f"Not saved: the club database {self.path} could not "
                                        f"be written ({why}). Nothing of this change was "
                                        "written.")
            return StoreError(f"cannot read the club database {self.path} ({why})")
        if state in _BUSY_STATES:
            return self._busy(writing)
        if writing:
            return self._failed(e)
        return StoreError(f"cannot read the club database {self.path} ({self._why(e)})")

    # -- the schema ---------------------------------------------------------------------
    def _up_to_date(self, c: PgConnection) -> bool:
        if not all(c.has_table(t) for t in ("games", "actions", "store_steps", "store_version")):
            return False
        row = c.execute("SELECT max(version) FROM store_version").fetchone()
        if int(row[0] or 0) != SCHEMA_VERSION or "rev" not in c.columns("games"):
            return False
        done = {r[0] for r in c.execute("SELECT name FROM store_steps").fetchall()}
        return set(data_steps()) <= done

    def _identify(self, c: PgConnection) -> None:  # type: ignore[override]
        """Refuse a database whose tables of our names are not ours (read only)."""
        for table, cols in OUR_TABLES.items():
            have = c.columns(table)
            if have and not cols <= have:
                raise StoreNotOurs(f"the club database {self.path} has a table '{table}' of "
                                   "another program, not the companion's saved games; it was "
                                   "left as it is. Use another database (or schema) for the "
                                   "companion.")
        if c.has_table("store_version"):
            row = c.execute("SELECT max(version) FROM store_version").fetchone()
            if (row[0] or 0) > SCHEMA_VERSION:
                raise StoreNotOurs(f"the club database {self.path} was written by a newer "
                                   f"version of the companion (schema {row[0]}, this one "
                                   f"knows {SCHEMA_VERSION}); it was left as it is")

    def _prepare(self) -> None:
        """Create the tables, run the schema steps and the data steps, in ONE
        transaction under the write lock (several kernels open the database at once)."""
        try:
            c = self._live(False)
            if self._up_to_date(c):
                return
            c.execute("BEGIN")
            try:
                c.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})")
                self._identify(c)
                for stmt in SCHEMA.split(";"):
                    if stmt.strip():
                        c.execute(stmt)
                c.execute("CREATE TABLE IF NOT EXISTS store_version (version INTEGER NOT NULL)")
                row = c.execute("SELECT max(version) FROM store_version").fetchone()
                version = int(row[0] or 0)
                cols = c.columns("games")
                for v in range(version + 1, SCHEMA_VERSION + 1):
                    for stmt in MIGRATIONS[v]:
                        if "ADD COLUMN format" in stmt and "format" in cols:
                            continue
                        c.execute(stmt)
                if version != SCHEMA_VERSION:
                    c.execute("DELETE FROM store_version")
                    c.execute("INSERT INTO store_version(version) VALUES (?)", (SCHEMA_VERSION,))
                if "rev" not in cols:
                    c.execute(ADDITIONS[0])
                _data_steps(c)  # type: ignore[arg-type]  # PgConnection: sqlite3's execute
                # the club's catalogues (companion.table.club); a database made before
                # them gets the table with its first document (never on reading)
                create_user_docs(c)
                c.execute("COMMIT")
            except BaseException:
                if not self.db.closed and not self.db.broken:
                    c.execute("ROLLBACK")
                raise
        except self.pg.Error as e:
            if self._lost(e) or getattr(e, "sqlstate", None) in _BUSY_STATES:
                raise self._mapped(e, writing=False) from None
            raise StoreError(f"The club database {self.path} cannot be set up for the saved "
                             f"games ({self._why(e)}); it was left as it is.") from None

    # -- transactions -------------------------------------------------------------------
    def transaction(self) -> _PgTx:  # type: ignore[override]
        """A write transaction (``with store.transaction() as conn:``), under the
        database's write lock, with a NOTIFY to the other pages; a failure becomes
        :class:`StoreBusy` or :class:`StoreWriteFailed` (an integrity error is raised
        as it is)."""
        return _PgTx(self)

    def reading(self) -> _PgRead:  # type: ignore[override]
        return _PgRead(self, False)

    def _tx(self) -> _PgTx:  # type: ignore[override]
        return _PgTx(self)

    def _reading(self, snapshot: bool = False) -> _PgRead:  # type: ignore[override]
        return _PgRead(self, snapshot)

    def _check(self, c: Any, gid: str, rev: int | None,
               n_ok: Callable[[int], bool], stale: str) -> int:
        c.execute("SELECT rev FROM games WHERE id=? FOR UPDATE", (gid,))
        now = super()._check(c, gid, rev, n_ok, stale)
        self.checked = (gid, now)          # what a lost COMMIT is read back against
        return now

    def _new_id(self) -> str:
        gid = super()._new_id()
        self.creating = gid                # what a lost COMMIT of a new game looks for
        return gid

    # -- a COMMIT whose answer was lost: read back what is stored ----------------------
    def _settled(self, write: Callable[[], _T],
                 stored: Callable[[PgConnection], tuple[bool, _T] | None]) -> _T:
        """``write()``; when the connection was lost during its COMMIT, what is stored is
        read back on a new connection, under the write lock (so the lost transaction
        has ended either way): ``stored(conn)`` gives (True, the write's value) when the
        change is there, (False, …) when it is not, None when it cannot tell.  The
        write then returns as saved, or says that nothing of it was written, or, when
        nothing can be read back, that it may have been saved (:class:`CommitUnknown`)."""
        self.checked = None
        try:
            return write()
        except CommitUnknown as lost:
            why = getattr(lost, "why", "")
            if self.silent is not None:    # a server that does not answer: no read back
                raise lost from None
            try:
                found = self._read_back(stored)
            except (StoreError, self.pg.Error):
                raise lost from None
            if found is None:
                raise lost from None
            if found[0]:
                return found[1]
            raise StoreWriteFailed(
                f"Not saved: the club database {self.path} cannot be reached ({why}); "
                "nothing of this change was written.") from None

    def _read_back(self, stored: Callable[[PgConnection], _T]) -> _T:
        self._drop()
        c = self._live(writing=True)       # a new connection
        try:
            c.execute("BEGIN")
            c.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})")
            return stored(c)
        finally:
            db = self.db
            if db is not None and not db.closed and not db.broken:
                try:
                    self._run(db, "ROLLBACK")
                except self.pg.Error:
                    self._drop()

    # every write of one game names it in its NOTIFY (the payload)
    def append(self, gid: str, index: int, action: JSON, *, rev: int | None = None) -> int:
        text = json.dumps(action)

        def stored(c: PgConnection) -> tuple[bool, int] | None:
            row = c.execute("SELECT rev FROM games WHERE id=?", (gid,)).fetchone()
            if row is None or self.checked is None or self.checked[0] != gid:
                return None
            have = c.execute("SELECT action FROM actions WHERE game_id=? AND idx=?",
                             (gid, index)).fetchone()
            now = self.checked[1]
            return (have is not None and have[0] == text and row[0] > now), now + 1
        try:
            return self._settled(
                lambda: self._of(gid, lambda: super(PgStore, self).append(
                    gid, index, action, rev=rev)), stored)
        except self.pg.IntegrityError:
            raise StaleGame("this game was changed in another tab or window; it has been "
                            "reloaded") from None

    def pop(self, gid: str, index: int, *, rev: int | None = None) -> int:
        def stored(c: PgConnection) -> tuple[bool, int] | None:
            row = c.execute("SELECT rev FROM games WHERE id=?", (gid,)).fetchone()
            if row is None or self.checked is None or self.checked[0] != gid:
                return None
            n = c.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (gid,)).fetchone()[0]
            now = self.checked[1]
            return (n <= index and row[0] > now), now + 1
        return self._settled(
            lambda: self._of(gid, lambda: super(PgStore, self).pop(gid, index, rev=rev)),
            stored)

    def create(self, record: JSON, title: str | None = None, *,
               write: Write | str = Write.NEW_GAME, created: float | None = None,
               replaces: str | None = None) -> str:
        # one transaction, as on SQLite: the new game (with its date) is there exactly
        # when the game it replaces is gone, so a lost COMMIT reads back the new game only
        self.creating = None

        def stored(c: PgConnection) -> tuple[bool, str] | None:
            gid = self.creating
            if gid is None:
                return None
            row = c.execute("SELECT 1 FROM games WHERE id=?", (gid,)).fetchone()
            return row is not None, gid
        return self._settled(lambda: super(PgStore, self).create(
            record, title, write=write, created=created, replaces=replaces), stored)

    def delete(self, gid: str) -> None:
        def stored(c: PgConnection) -> tuple[bool, None]:
            row = c.execute("SELECT 1 FROM games WHERE id=?", (gid,)).fetchone()
            return row is None, None
        self._settled(lambda: self._of(gid, lambda: super(PgStore, self).delete(gid)), stored)

    def set_cards(self, gid: str, cards: list[JSON]) -> None:
        self._of(gid, lambda: super(PgStore, self).set_cards(gid, cards))

    def merge_cards(self, gid: str, cards: list[JSON]) -> list[JSON]:
        return self._of(gid, lambda: super(PgStore, self).merge_cards(gid, cards))

    def add_manual(self, gid: str, entries: list[JSON]) -> list[JSON]:
        return self._of(gid, lambda: super(PgStore, self).add_manual(gid, entries))

    def set_manual(self, gid: str, manual: list[JSON]) -> None:
        self._of(gid, lambda: super(PgStore, self).set_manual(gid, manual))

    def _of(self, gid: str, write: Callable[[], _T]) -> _T:
        self.notify_gid = gid
        try:
            return write()
        finally:
            self.notify_gid = ""

    # -- reading --------------------------------------------------------------------------
    # a read that found the connection lost is made once more on a new one: a page whose
    # database came back reads again at once (a write is never made twice on its own)
    def _again(self, read: Callable[[], _T]) -> _T:
        had = self.db is not None and not self.db.closed and not self.db.broken
        try:
            return read()
        except StoreError:
            # not a lost connection (_mapped drops it), a new connection that could not
            # be opened, or a server that did not answer (stopped: a new connection
            # would wait as long again)
            if not had or self.db is not None or self.silent is not None:
                raise
        return read()

    def load(self, gid: str) -> JSON:
        return self._again(lambda: super(PgStore, self).load(gid))

    def load_revision(self, gid: str) -> tuple[JSON, int]:
        return self._again(lambda: super(PgStore, self).load_revision(gid))

    def revision(self, gid: str) -> int:
        return self._again(lambda: super(PgStore, self).revision(gid))

    def games(self, format: str | None = DEFAULT_GAME, *,
              table: str | None = None) -> list[JSON]:
        return self._again(lambda: super(PgStore, self).games(format, table=table))

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        def read() -> list[Any]:
            with _PgRead(self, False) as c:
                return c.execute(sql, params).fetchall()
        return self._again(read)

    def query_one(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        def read() -> Any | None:
            with _PgRead(self, False) as c:
                return c.execute(sql, params).fetchone()
        return self._again(read)

    def _table_exists(self, name: str) -> bool:
        def read() -> bool:
            with _PgRead(self, False) as c:
                return c.has_table(name)
        return self._again(read)

    def data_version(self) -> int:
        """A number that grows whenever another connection (another server's page, the
        command line) has committed a write since this one last looked: the writes'
        ``NOTIFY companion_store`` read without waiting from a connection that
        ``LISTEN``\\s (this store's own writes do not count).  A live page calls it a few
        times a second, so it never waits on the server: every :data:`PROBE_EVERY` s it
        sends ``SELECT 1`` and looks for the answer at the next calls; a server that has
        not answered within the answer limit (stopped, overloaded, the network gone) is
        one :class:`StoreError` (issue 35: a page must not show "live" then).  A lost
        listening connection is opened again in the background (a stopped server would
        hold the page's kernel for the connect limit); until it is, each call raises
        the same error; once it is, it counts as a change (one may have been missed)."""
        if self.listener is None or self.listener.closed or self.listener.broken:
            self._drop_listener()
            if self.down is None:            # the first time, or a connection just lost
                try:
                    conn = self._open_connection()
                    self._run(conn, f"LISTEN {CHANNEL}")
                except self.pg.Error as e:
                    raise self._listener_lost(e) from None
            else:
                conn = self._reopened()
                if conn is None:
                    raise StoreError(self.down)
            self.listener, self.down = conn, None
            self.answered_at, self.probe_sent = time.monotonic(), None
            self.changes += 1
            return self.changes
        pg, now = self.listener.pgconn, time.monotonic()
        try:
            pg.consume_input()               # what has come, without waiting
            while (n := pg.notifies()) is not None:
                if n.be_pid not in self.own_pids:
                    self.changes += 1
            limit = self.limits["statement"] and PROBE_LIMIT    # 0: no limit at all
            if self.probe_sent is not None:
                if not pg.is_busy():
                    while pg.get_result() is not None:
                        pass
                    self.probe_sent, self.answered_at = None, now
                elif limit and now - self.probe_sent > limit:
                    raise self._listener_lost(None, f"the server did not answer within "
                                                    f"{limit:g} s: it may be stopped or "
                                                    "overloaded")
            elif now - self.answered_at >= PROBE_EVERY:
                pg.send_query(b"SELECT 1")
                pg.flush()
                self.probe_sent = now
        except self.pg.Error as e:
            raise self._listener_lost(e) from None
        return self.changes

    def _drop_listener(self) -> None:
        if self.listener is not None:
            try:
                self.listener.close()
            except Exception:  # noqa: BLE001 - a broken connection: nothing to keep
                pass
            self.listener = None
        self.probe_sent = None

    def _listener_lost(self, e: BaseException | None, why: str | None = None) -> StoreError:
        """The listening connection is gone: closed here, opened again in the background
        by the next calls; the error every call raises until then."""
        self._drop_listener()
        self.down = (f"The club database {self.path} cannot be reached "
                     f"({why or self._why(e or OSError('connection lost'))}). Nothing was "
                     "changed.")
        return StoreError(self.down)

    def _reopened(self) -> Any | None:
        """The listening connection opened again by a background thread (started by the
        first call); None while it is still being opened.  An attempt that failed raises
        its error (the next call starts another)."""
        t = self.reopening
        if t is None:
            box: dict[str, Any] = {}

            def work() -> None:
                try:
                    conn = self.pg.connect(self.url, **self._params())
                    with self._answered(conn)():
                        conn.execute(f"LISTEN {CHANNEL}")
                    if self.reopening is not box["me"]:      # the store was closed meanwhile
                        conn.close()
                        return
                    box["conn"] = conn
                except Exception as e:  # noqa: BLE001 - given to the page's next poll
                    box["error"] = e
            t = threading.Thread(target=work, daemon=True, name="companion-pg-listen")
            t.box = box  # type: ignore[attr-defined]
            self.reopening = box["me"] = t
            t.start()
            return None
        if t.is_alive():
            return None
        self.reopening = None
        if "conn" in t.box:
            return t.box["conn"]
        raise self._listener_lost(t.box.get("error"))


class _PgTx:
    """BEGIN, the write lock, … , NOTIFY, COMMIT; ROLLBACK on any error."""

    def __init__(self, store: PgStore):
        self.store = store
        self.conn: PgConnection | None = None

    def __enter__(self) -> PgConnection:
        s = self.store
        try:
            c = s._live(writing=True)
            c.execute("BEGIN")
            self.conn = c
            c.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})")
        except s.pg.Error as e:
            self._rollback()
            raise s._mapped(e, writing=True) from None
        return c

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        s = self.store
        c = self.conn
        assert c is not None
        if exc_type is None:
            try:
                c.execute("SELECT pg_notify(?, ?)", (CHANNEL, s.notify_gid))
            except s.pg.Error as e:
                exc = e
            else:
                try:
                    c.execute("COMMIT")
                    return False
                except s.pg.Error as e:
                    if s._lost(e):
                        # the COMMIT may have been made before the connection went:
                        # the write reads back what is stored (PgStore._settled)
                        why = s._why(e)
                        s._drop()
                        lost = s._commit_unknown(why)
                        lost.why = why          # type: ignore[attr-defined]
                        raise lost from None
                    exc = e
        self._rollback()
        if isinstance(exc, s.pg.Error) and not isinstance(exc, s.pg.IntegrityError):
            raise s._mapped(exc, writing=True) from None
        if exc_type is None and exc is not None:    # COMMIT failed (deferred keys)
            raise s._failed(exc) from None
        return False

    def _rollback(self) -> None:
        db = self.store.db
        if db is None or db.closed or db.broken:
            return
        try:
            if db.info.transaction_status != self.store.pg.pq.TransactionStatus.IDLE:
                self.store._run(db, "ROLLBACK")
        except self.store.pg.Error:
            pass


class _PgRead:
    """Reads outside a write (``snapshot``: one REPEATABLE READ transaction); a lost
    connection says the database cannot be reached, a lock :class:`StoreBusy`."""

    def __init__(self, store: PgStore, snapshot: bool):
        self.store, self.snapshot = store, snapshot

    def __enter__(self) -> PgConnection:
        s = self.store
        try:
            c = s._live(writing=False)
            if self.snapshot and s.db.info.transaction_status == s.pg.pq.TransactionStatus.IDLE:
                c.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
            else:
                self.snapshot = False
        except s.pg.Error as e:
            raise s._mapped(e, writing=False) from None
        return c

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        s = self.store
        db = s.db
        if self.snapshot and db is not None and not db.closed and not db.broken:
            try:
                s._run(db, "COMMIT" if exc is None else "ROLLBACK")
            except s.pg.Error:
                pass
        cause = exc.__cause__ if exc is not None and not isinstance(exc, s.pg.Error) else exc
        if isinstance(cause, s.pg.Error):      # pandas wraps the driver's error
            raise s._mapped(cause, writing=False) from None
        return False
