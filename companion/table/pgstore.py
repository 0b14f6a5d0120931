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

The page's one connection, its messages, schema and transactions are the base class's
(:class:`companion.table.pgbase.PgBase`, where psycopg (3) is imported, only when a
PostgreSQL address is used); the SQL translation, the address, the limits and the
watchdog are :mod:`companion.table.pgconn`'s (their names are kept here).
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, Sequence, TypeVar

from ..core.errors import StaleGame, StoreError, StoreWriteFailed
from ..core.jsontypes import JSON
from ..core.roles import Role, Write
from .pgbase import PgBase
# moved to companion.table.pgconn (issue 38); their names stay here
from .pgconn import (ANSWER_GRACE as ANSWER_GRACE, CHANNEL as CHANNEL,
                     LIMITS as LIMITS, WRITE_LOCK as WRITE_LOCK, CommitUnknown as CommitUnknown,
                     PgConnection as PgConnection, StoreValueRefused as StoreValueRefused,
                     is_url as is_url, limits as limits, masked as masked, pg_sql as pg_sql)
from .store import BUSY_TIMEOUT, DEFAULT_GAME


_T = TypeVar("_T")

#: a live page's poll (data_version) asks the server for an answer (SELECT 1, which waits
#: on no lock) this often, without waiting for it, and gives the server this long to
#: answer (seconds): a stopped server is noticed within the two (issue 35: within 10 s)
PROBE_EVERY, PROBE_LIMIT = 2.0, 5.0


class PgStore(PgBase):
    """The saved games in a PostgreSQL database, as one page uses them: the API of
    :class:`~companion.table.store.Store`.  ``path`` is the address with its password
    masked (for messages)."""

    def __init__(self, url: str, *, timeout: float = BUSY_TIMEOUT,
                 role: Role | str = Role.HOST):
        # the live pages' LISTEN connection, opened by the first data_version()
        self.listener: Any = None            # the LISTEN connection (data_version)
        self.changes = 0                     # data_version's counter
        self.probe_sent: float | None = None   # data_version's question, still unanswered
        self.answered_at = 0.0               # when the listener last answered one
        self.reopening: Any = None           # the listener being opened again (a thread)
        self.down: str | None = None         # why the listener was lost (until reopened)
        super().__init__(url, timeout=timeout, role=role)

    def close(self) -> None:
        super().close()
        self.reopening = None                # a listener still being opened closes itself
        if getattr(self, "listener", None) is not None:
            self._drop_listener()

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
            with self.reading() as c:
                return c.execute(sql, params).fetchall()
        return self._again(read)

    def query_one(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        def read() -> Any | None:
            with self.reading() as c:
                return c.execute(sql, params).fetchone()
        return self._again(read)

    def _table_exists(self, name: str) -> bool:
        def read() -> bool:
            with self.reading() as c:
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

