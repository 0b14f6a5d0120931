"""The saved-games file on disk, as SQLite gives it: opening it, telling whether it is
ours, putting a damaged one aside, opening a read-only one, and SQLite's failures in
words (docs/store.md, "Busy", "Damaged", "Not ours", "Read-only").

Apart from :mod:`companion.table.store` (the games in the file, a page's reads and
writes): everything here happens before a :class:`~companion.table.store.Store` has its
connection, or says what an SQLite error means; it knows no game and no page.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path
from typing import Iterator

from ..core.errors import StoreBusy, StoreError, StoreNotOurs, StoreWriteFailed
from .schema import APPLICATION_ID, OUR_TABLES, SCHEMA_VERSION, prepare

# SQLite primary result codes (sqlite3.Error.sqlite_errorcode & 0xff)
_BUSY, _LOCKED, _CORRUPT, _NOTADB = 5, 6, 11, 26
_REASONS = {3: "permission denied", 8: "the file or its folder is read-only",
            10: "input/output error", 13: "the disk is full", 14: "the file cannot be opened",
            23: "permission denied", _CORRUPT: "the file is damaged", _NOTADB: "the file is damaged"}


def _code(e: BaseException) -> int | None:
    c = getattr(e, "sqlite_errorcode", None)
    return None if c is None else c & 0xFF


def is_busy(e: BaseException) -> bool:
    return _code(e) in (_BUSY, _LOCKED) or "database is locked" in str(e)


def reason(e: BaseException) -> str:
    code = _code(e)
    why = None if code is None else _REASONS.get(code)
    return f"{why}: {e}" if why and why not in str(e) else str(e)


class NotADatabase(Exception):
    """The file is not a (healthy) SQLite database; it may be moved aside
    (:meth:`SqliteFile.put_aside`).  Never raised out of the store."""


@contextlib.contextmanager
def folder_lock(path: Path, *, shared: bool) -> Iterator[None]:
    """The saved-games file's folder locked (``flock``, between pages' kernels and
    processes): shared while a page opens the file, exclusive while a damaged file is
    moved aside (:meth:`SqliteFile.put_aside`).  The folder, not a side file, so that
    nothing new lies beside the file.  No lock where there is no ``flock`` (Windows) or no folder
    to open: the open then says what is wrong itself."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


class _IoError(StoreError):
    """Internal: SQLite's I/O error on opening.  Also what a page gets when another
    page moves a damaged file (and its -wal/-shm) aside under it: opened again once,
    after that move (issue 34: one page of six said so in a full run)."""


_IOERR = 10


class SqliteFile:
    """The saved-games file at ``path``, opened by :class:`~companion.table.store.Store`
    (``timeout``: the seconds a lock of another program is waited for), and the
    store's messages about it."""

    def __init__(self, path: Path, timeout: float):
        self.path = path
        self.timeout = timeout

    def put_aside(self, why: str) -> sqlite3.Connection:
        """Keep a damaged file as ``….damaged-…`` and start a new one, whose table
        ``store_notes`` says so (:meth:`damage_note`).

        Several pages' kernels may find the same damaged file at once (the
        dashboard's pool opens it when the server starts).  Only one of them may
        move it: the others would move the new file, or find nothing to move.
        So the move is made under a lock, after looking again."""
        with folder_lock(self.path, shared=False):
            try:
                return self.open()         # another page has already put it aside
            except NotADatabase:
                pass
            stamp = time.strftime('%Y%m%d-%H%M%S')
            aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
            n = 1
            while aside.exists():           # never overwrite an earlier damaged file
                n += 1
                aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{n}")
            try:
                # its -wal/-shm first: once the file itself has gone, a page may start
                # a new file there, whose own -wal/-shm must not be taken with it
                for suffix in ("-wal", "-shm"):
                    side = self.path.with_name(self.path.name + suffix)
                    if side.exists():
                        side.replace(aside.with_name(aside.name + suffix))
                self.path.replace(aside)
            except OSError as e:
                raise StoreError(f"The saved-games file {self.path} is damaged ({why}) and "
                                 f"could not be put aside ({e.strerror or e}); it was left "
                                 "as it is. Make its folder writable, then reload the "
                                 "page.") from None
            conn = self.open()
            note = (f"The saved-games file was damaged ({why}). It was kept as {aside} and a "
                    "new, empty one was started; no file was deleted.")
            conn.execute("CREATE TABLE IF NOT EXISTS store_notes (at REAL, note TEXT)")
            conn.execute("INSERT INTO store_notes VALUES (?, ?)", (time.time(), note))
            return conn

    def damage_note(self, c: sqlite3.Connection) -> str | None:
        """What every page says while the new file that replaced a damaged one is
        still empty: the pages that opened it after the move did not see the damage
        themselves, and the person at the table must still be told."""
        if c.execute("SELECT 1 FROM games LIMIT 1").fetchone() is not None:
            return None
        aside = self.path.name + ".damaged-"
        if not any(p.name.startswith(aside) for p in self.path.parent.iterdir()):
            return None                     # no damaged file was ever put aside here
        # the page that moved it may not have written its note yet: it does so
        # before it lets go of the lock
        with folder_lock(self.path, shared=False):
            if c.execute("SELECT 1 FROM sqlite_master WHERE type='table' "
                         "AND name='store_notes'").fetchone() is None:
                return None
            row = c.execute("SELECT note FROM store_notes ORDER BY at DESC LIMIT 1").fetchone()
        return None if row is None else str(row[0])

    def writable(self) -> bool:
        p = self.path if self.path.exists() else self.path.parent
        return os.access(p, os.W_OK) and os.access(self.path.parent, os.W_OK)

    def open_read_only(self, why: StoreError) -> sqlite3.Connection:
        for query in ("mode=ro", "mode=ro&immutable=1"):
            conn = None
            try:
                conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?{query}", uri=True,
                                       timeout=self.timeout, isolation_level=None,
                                       check_same_thread=False)
                self._identify(conn)
                cols = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
                if "rev" in cols and "format" in cols:
                    return conn
            except sqlite3.Error:
                pass
            except StoreError:
                if conn is not None:
                    conn.close()
                raise
            if conn is not None:
                conn.close()
        raise why

    def busy(self, writing: bool) -> StoreBusy:
        if writing:
            return StoreBusy(f"Not saved: the saved-games file {self.path} is busy: another "
                             f"program has kept it locked for {self.timeout:g} s. Nothing was "
                             "changed; close that program (or wait) and try again.")
        return StoreBusy(f"The saved-games file {self.path} is busy: another program has kept "
                         f"it locked for {self.timeout:g} s. It was not changed; close that "
                         "program (or wait) and reload the page.")

    def failed(self, e: BaseException) -> StoreWriteFailed:
        return StoreWriteFailed(f"Not saved: the saved-games file {self.path} could not be "
                                f"written ({reason(e)}). Nothing of this change was written; "
                                "free some disk space or make the file writable, then try again.")

    def open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"cannot create the folder of the saved-games file {self.path}: "
                             f"{e.strerror or e}") from None
        conn = None
        try:
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None,
                                   check_same_thread=False)
            # first, read only: is it a database, and is it ours?  Nothing is written
            # to a file before both are known.
            self._identify(conn)
            conn.execute("PRAGMA foreign_keys = ON")
            self._wal(conn)
            conn.execute("PRAGMA synchronous = FULL")
            ok = conn.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise NotADatabase(ok)
            prepare(conn)
        except BaseException as e:
            if conn is not None:
                conn.close()
            if isinstance(e, sqlite3.Error):
                if is_busy(e):
                    raise self.busy(writing=False) from None
                if _code(e) in (_NOTADB, _CORRUPT):
                    raise NotADatabase(str(e)) from None
                kind = _IoError if _code(e) == _IOERR else StoreError
                raise kind(f"cannot open the saved-games file {self.path} "
                           f"({reason(e)}); it was left as it is") from None
            raise
        return conn

    def _wal(self, conn: sqlite3.Connection) -> None:
        """Switch a file to WAL.  A new file's switch needs every other connection
        out of it, and SQLite answers "locked" at once instead of waiting (several
        pages open a new file together when the dashboard starts), so the switch
        is retried for the store's ``timeout``, as any other lock is waited for."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as e:
                if not is_busy(e) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _identify(self, conn: sqlite3.Connection) -> None:
        """Refuse an SQLite file that is not a store of ours (read only)."""
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {name: {r[1] for r in conn.execute(f"PRAGMA table_info('{name}')")}
                  for (name,) in conn.execute(
                      "SELECT name FROM sqlite_master WHERE type = 'table' "
                      "AND name NOT LIKE 'sqlite_%'").fetchall()
                  if "'" not in name}
        if app_id == APPLICATION_ID:
            if version > SCHEMA_VERSION:
                raise StoreNotOurs(f"the saved-games file {self.path} was written by a newer "
                                   f"version of the companion (schema {version}, this one "
                                   f"knows {SCHEMA_VERSION}); it was left as it is")
            return
        if app_id == 0 and not tables and version == 0:
            return                              # a new (or empty) file
        if app_id == 0 and all(cols <= tables.get(t, set()) for t, cols in OUR_TABLES.items()) \
                and version <= SCHEMA_VERSION:
            return                              # ours, written before application_id
        what = (f"application id {app_id:#x}" if app_id else
                f"tables {', '.join(sorted(tables))[:120]}" if tables else f"version {version}")
        raise StoreNotOurs(f"{self.path} is an SQLite database of another program ({what}), "
                           "not a saved-games file of the companion; it was left as it is. "
                           "Move it away or point COMPANION_HOME to another folder.")
