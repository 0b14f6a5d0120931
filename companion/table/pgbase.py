"""The store on one PostgreSQL connection: the base of
:class:`companion.table.pgstore.PgStore`, not used alone.

Here: the driver (psycopg 3, imported only when a store opens, by :func:`_psycopg`),
the page's connection (opened with the limits, opened again after it was lost), the
failures in one line each, the schema (its version in ``store_version``) and the
write transactions (one advisory lock, a NOTIFY before the COMMIT) and reads.
Apart from :mod:`companion.table.pgstore`, which adds what a page needs beyond one
connection: a write whose COMMIT was lost read back, a read made once more on a new
connection, and the live pages' ``LISTEN`` connection (docs/store.md, "Two backends").
"""
from __future__ import annotations

import contextlib
from types import TracebackType
from typing import Any, Callable, Iterator, Literal, TypeVar

from ..core.errors import StoreBusy, StoreError, StoreNotOurs, StoreWriteFailed
from ..core.roles import Role
from .club import create_user_docs
from .pgconn import (ANSWER_GRACE, CHANNEL, WATCHDOG, WRITE_LOCK, CommitUnknown, PgConnection,
                     StoreValueRefused, limits, masked)
from .schema import ADDITIONS, MIGRATIONS, OUR_TABLES, SCHEMA, SCHEMA_VERSION, data_steps, \
    run_data_steps
from .store import BUSY_TIMEOUT, Store


_T = TypeVar("_T")


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError("The saved games are in a PostgreSQL database, but its driver is not "
                         "installed: pip install 'star-companion[postgres]'") from None
    return psycopg


#: SQLSTATEs of a lock or a conflict that lasted too long: busy
_BUSY_STATES = {"55P03", "40001", "40P01", "57014"}
_REASONS = {"25006": "the club database is read-only", "42501": "permission denied",
            "53100": "the disk of the club database is full",
            "53200": "the club database is out of memory",
            "54000": "a value is too large", "22P05": "a value the database cannot store",
            "22021": "a value the database cannot store"}


class PgBase(Store):
    """A :class:`~companion.table.store.Store` on one PostgreSQL connection (``db``);
    ``path`` is the address with its password masked (for messages).  Used through
    :class:`~companion.table.pgstore.PgStore`."""

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
        self.own_pids: set[int] = set()
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
            token = WATCHDOG.arm(conn, wait, fired)
            try:
                yield
            finally:
                WATCHDOG.disarm(token)
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

    def _identify(self, c: PgConnection) -> None:
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
                run_data_steps(c)  # type: ignore[arg-type]  # PgConnection: sqlite3's execute
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

    # every write of one game names it in its NOTIFY (the payload)
    def _of(self, gid: str, write: Callable[[], _T]) -> _T:
        self.notify_gid = gid
        try:
            return write()
        finally:
            self.notify_gid = ""


class _PgTx:
    """BEGIN, the write lock, … , NOTIFY, COMMIT; ROLLBACK on any error."""

    def __init__(self, store: PgBase):
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

    def __init__(self, store: PgBase, snapshot: bool):
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
