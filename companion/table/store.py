"""Saved games in a local SQLite file: every accepted action is written at once.

The store holds records, nothing else: a game is its setup, its card
definitions, its manual entries and its ordered actions.  Resuming is a replay.

Hostile and broken files (docs/store.md):

- every game has a revision, a counter bumped by each append and each undo
  (:meth:`Store.pop`).  A page passes the revision it last saw (``rev=``); a
  page that has not seen another page's append *or undo* is refused with
  :class:`StaleGame`, so two pages can never interleave their actions;
- a file another program keeps locked: the store waits ``timeout`` seconds,
  then raises :class:`StoreBusy`; the file is never moved;
- only a file that is not an SQLite database (or fails its integrity check) is
  moved aside as ``….damaged-…`` and a new one started;
- an SQLite file of another program (``PRAGMA application_id`` not ours, or
  without our tables) is refused with :class:`StoreNotOurs` and never altered;
- a failed write (read-only, disk full, I/O error) raises
  :class:`StoreWriteFailed`, whose message says the change was not saved; the
  transaction is rolled back, so nothing is half-written.
"""
from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Iterator, Literal, Protocol, Sequence

from ..core.errors import (CompanionError, StaleGame as StaleGame, StoreBusy as StoreBusy,  # noqa: F401
                     GameNotFound as GameNotFound, StoreError as StoreError, StoreNotOurs,
                     StoreWriteFailed as StoreWriteFailed)
from ..core.gamekind import StoreStep
from ..core.jsontypes import JSON
from ..core.paths import user_dir
from ..core.roles import Role, Write, check as check_role
from . import registry

#: a row without a format (a file written before games of more than one kind, where
#: every game was the default game's): the default game's format.  The SQL keeps the
#: text it always had: ``DEFAULT '<the default format>'``.
_FORMAT_DEFAULT = "'" + registry.DEFAULT_FORMAT.replace("'", "''") + "'"

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    setup TEXT NOT NULL,
    cards TEXT NOT NULL DEFAULT '[]',
    manual TEXT NOT NULL DEFAULT '[]',
    meta TEXT NOT NULL DEFAULT '{}',
    format TEXT NOT NULL DEFAULT """ + _FORMAT_DEFAULT + """
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
"""


#: PRAGMA application_id of our files: "AtSE" (stores written before version 4
#: have none and are recognised by their tables)
APPLICATION_ID = 0x41745345

#: schema version (PRAGMA user_version) and the steps that reach it
SCHEMA_VERSION = 4
MIGRATIONS = {
    # 0 -> 1: games of more than one kind (Small Star Empires) in one store
    1: ["ALTER TABLE games ADD COLUMN format TEXT NOT NULL DEFAULT " + _FORMAT_DEFAULT],
    # 1 -> 2: tables derived from each record (companion.table.history keeps them in step),
    # so statistics never replay every game
    2: ["""CREATE TABLE IF NOT EXISTS g_results (
            game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            format TEXT NOT NULL, finished INTEGER NOT NULL, played REAL NOT NULL,
            derived_at REAL NOT NULL, decided_by TEXT, winners TEXT NOT NULL DEFAULT '[]',
            error TEXT)""",
        """CREATE TABLE IF NOT EXISTS g_players (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            player TEXT NOT NULL, seat INTEGER NOT NULL, race TEXT, rank INTEGER,
            total INTEGER, won INTEGER NOT NULL, breakdown TEXT NOT NULL DEFAULT '{}',
            PRIMARY KEY (game_id, player))""",
        """CREATE TABLE IF NOT EXISTS g_year_vp (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            player TEXT NOT NULL, year INTEGER NOT NULL, vp INTEGER NOT NULL,
            PRIMARY KEY (game_id, player, year))""",
        """CREATE TABLE IF NOT EXISTS g_cards (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            player TEXT NOT NULL, card TEXT NOT NULL, cell TEXT NOT NULL, vp INTEGER NOT NULL)""",
        """CREATE TABLE IF NOT EXISTS g_objectives (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            objective TEXT NOT NULL, player TEXT NOT NULL, vp INTEGER NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS g_cards_game ON g_cards(game_id)",
        "CREATE INDEX IF NOT EXISTS g_objectives_game ON g_objectives(game_id)"],
    # 2 -> 3: a finished game whose final scoring waits for values the players still
    # have to type is told apart from a record that no longer replays (g_results.error);
    # every game is derived again, since version 2 flagged such games as errors
    3: ["ALTER TABLE g_results ADD COLUMN waiting TEXT",
        "UPDATE g_results SET derived_at = 0"],
    # 3 -> 4 (issue 26): two more tables derived with each game, so the statistics of
    # 10,000 games sum a few rows per game instead of reading every location built or
    # decoding every breakdown: each card's copies built and VP per game, and each
    # player's VP per scoring category.  Every game is derived again to fill them.
    4: ["""CREATE TABLE IF NOT EXISTS g_card_sums (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            card TEXT NOT NULL, built INTEGER NOT NULL, vp BIGINT NOT NULL,
            PRIMARY KEY (game_id, card))""",
        """CREATE TABLE IF NOT EXISTS g_categories (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            player TEXT NOT NULL, category TEXT NOT NULL, vp BIGINT,
            PRIMARY KEY (game_id, player, category))""",
        "UPDATE g_results SET derived_at = 0"],
}

#: added by presence, not by version (older companions open the file unchanged):
#: a revision per game, bumped by every append and undo, so a page that has not
#: seen an undo on another page is refused; and the mark that the file is ours
ADDITIONS = ["ALTER TABLE games ADD COLUMN rev INTEGER NOT NULL DEFAULT 0",
             f"PRAGMA application_id = {APPLICATION_ID}"]

#: the tables (and columns) a store of ours written before application_id had
OUR_TABLES = {"games": {"id", "title", "created", "updated", "setup"},
              "actions": {"game_id", "idx", "action"}}

# SQLite primary result codes (sqlite3.Error.sqlite_errorcode & 0xff)
_BUSY, _LOCKED, _CORRUPT, _NOTADB = 5, 6, 11, 26
_REASONS = {3: "permission denied", 8: "the file or its folder is read-only",
            10: "input/output error", 13: "the disk is full", 14: "the file cannot be opened",
            23: "permission denied", _CORRUPT: "the file is damaged", _NOTADB: "the file is damaged"}


def _code(e: BaseException) -> int | None:
    c = getattr(e, "sqlite_errorcode", None)
    return None if c is None else c & 0xFF


def _is_busy(e: BaseException) -> bool:
    return _code(e) in (_BUSY, _LOCKED) or "database is locked" in str(e)


def _reason(e: BaseException) -> str:
    code = _code(e)
    why = None if code is None else _REASONS.get(code)
    return f"{why}: {e}" if why and why not in str(e) else str(e)


def _add_revision(conn: sqlite3.Connection) -> None:
    """The additions by presence; called inside :func:`_prepare`'s transaction."""
    cols = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    for stmt in ADDITIONS:
        if "ADD COLUMN rev" in stmt and "rev" in cols:
            continue
        conn.execute(stmt)


def _game_step(step: StoreStep, family: str) -> Callable[[sqlite3.Connection], None]:
    """A game's one-off data step (companion.core.gamekind.StoreStep) over the saved
    games of its format family: each setup the step changes is written back, and its
    History rows are derived again."""
    def run(conn: sqlite3.Connection) -> None:
        history = _conn_has_table(conn, "g_results")
        for gid, text in conn.execute("SELECT id, setup FROM games WHERE format LIKE ?",
                                      (family + "%",)).fetchall():
            try:
                new = step.fix(json.loads(text))
            except (ValueError, RecursionError):
                continue                        # unreadable: reported when it is opened
            if new is not None:
                conn.execute("UPDATE games SET setup=? WHERE id=?", (json.dumps(new), gid))
                if history:
                    conn.execute("UPDATE g_results SET derived_at = 0 WHERE game_id=?", (gid,))
    return run


def _conn_has_table(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the database of ``conn`` has the table ``name`` (a PostgreSQL
    connection of companion.table.pgstore answers it itself)."""
    own = getattr(conn, "has_table", None)
    if own is not None:
        return bool(own(name))
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                        (name,)).fetchone() is not None


def data_steps() -> dict[str, Callable[[sqlite3.Connection], None]]:
    """{name: step(conn)}: the one-off data steps of every registered game
    (``GameKind.store_steps``), run once per file (in the opening transaction) and
    remembered in the table ``store_steps`` (added by presence: older companions
    ignore it)."""
    return {step.name: _game_step(step, kind.family)
            for kind in registry.kinds() for step in kind.store_steps}


def _data_steps(conn: sqlite3.Connection) -> None:
    """The data steps not yet done; called inside :func:`_prepare`'s transaction."""
    conn.execute("CREATE TABLE IF NOT EXISTS store_steps (name TEXT PRIMARY KEY, done REAL)")
    done = {r[0] for r in conn.execute("SELECT name FROM store_steps")}
    for name, step in data_steps().items():
        if name not in done:
            step(conn)
            conn.execute("INSERT INTO store_steps(name, done) VALUES (?, ?)", (name, time.time()))


class Progress(Protocol):
    """A long table step's report: ``progress(done, total)``, called before the first
    item (0, total) and after each one."""

    def __call__(self, done: int, total: int, /) -> None: ...


class _NotADatabase(Exception):
    """Internal: the file is not a (healthy) SQLite database; it may be moved aside."""


@contextlib.contextmanager
def _folder_lock(path: Path, *, shared: bool) -> Iterator[None]:
    """The saved-games file's folder locked (``flock``, between pages' kernels and
    processes): shared while a page opens the file, exclusive while a damaged file is
    moved aside (Store._put_aside).  The folder, not a side file, so that nothing new
    lies beside the file.  No lock where there is no ``flock`` (Windows) or no folder
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


def _migrate(conn: sqlite3.Connection) -> None:
    """The schema steps; called inside :func:`_prepare`'s transaction."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    cols = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    for v in range(version + 1, SCHEMA_VERSION + 1):
        for stmt in MIGRATIONS[v]:
            # a fresh database created by SCHEMA may already have the column
            if "ADD COLUMN format" in stmt and "format" in cols:
                continue
            conn.execute(stmt)
        conn.execute(f"PRAGMA user_version = {v}")


def _up_to_date(conn: sqlite3.Connection) -> bool:
    """Read only: does the file need none of :func:`_prepare`'s writes?"""
    if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION \
            or conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
        return False
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not {"games", "actions", "store_steps"} <= tables:
        return False
    if "rev" not in {r[1] for r in conn.execute("PRAGMA table_info(games)")}:
        return False
    return set(data_steps()) <= {r[0] for r in conn.execute("SELECT name FROM store_steps")}


def _prepare(conn: sqlite3.Connection) -> None:
    """Bring a file to this companion's schema in ONE transaction.

    Several pages' kernels (the dashboard keeps a pool of them) open the same
    file at the same moment.  Each step is decided inside ``BEGIN IMMEDIATE``,
    after the write lock is held, so the second page finds the first one's
    work done instead of adding a column twice; and another page only ever
    sees the file before or after all of it, never half made.  A file that is
    already up to date is not written at all (a read-only one still opens).
    """
    if _up_to_date(conn):
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        for stmt in SCHEMA.split(";"):
            if stmt.strip():
                conn.execute(stmt)
        _migrate(conn)
        _add_revision(conn)
        _data_steps(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:          # SQLite may have rolled it back itself (I/O error)
            conn.execute("ROLLBACK")
        raise


def default_path() -> Path:
    return user_dir() / "games.sqlite"


#: seconds the store waits for a file another program keeps locked
BUSY_TIMEOUT = 5.0
#: ``Store.games()``'s default: the default game's format (registry.DEFAULT_FORMAT)
DEFAULT_GAME = "<the default game>"


class Store:
    """The saved-games file as one page uses it.  ``role`` is the page's
    (:class:`companion.core.roles.Role`: host, seat or table view); every write
    method checks it first (:meth:`require`) and a refused write raises
    :class:`~companion.core.errors.RoleRefused` with nothing written.

    ``table``: the table this server serves (``--table``, ``COMPANION_TABLE``, set by
    :func:`companion.table.backends.open_store`; companion.table.club): a game created here is tagged with it
    (``meta["table"]``) and ``games(..., table=store.table)`` lists that table's."""

    #: this server's table (None: no table given, nothing tagged)
    table: str | None = None
    #: the club's shared database (companion.table.pgstore), not a laptop's file
    club: bool = False

    def __init__(self, path: Path | str | None = None, *, timeout: float = BUSY_TIMEOUT,
                 role: Role | str = Role.HOST):
        self.path = Path(path) if path else default_path()
        self.timeout = float(timeout)
        self.role = Role(role)
        self.notice: str | None = None     # a damaged file put aside, or a read-only file
        try:
            # opened under the folder's lock, shared: a damaged file is moved aside under it,
            # exclusive (_put_aside), never while a page is opening it.  Seen without it
            # (6 pages at once, 7 times in 150): a page's connection made on the damaged
            # file before the move read the new file's -wal (SQLite finds it by name) as
            # its own and wrote the new database into the kept damaged file (0 or 4096
            # bytes left of it), or failed with "disk I/O error" / "locking protocol"
            with _folder_lock(self.path, shared=True):
                self._conn = self._open()
        except _NotADatabase as e:
            self._conn = self._put_aside(str(e))
        except StoreError as e:
            if isinstance(e, (StoreBusy, StoreNotOurs)) or self._writable():
                raise
            # a read-only file or folder: the games can still be seen; every write
            # will say plainly that it was not saved
            self._conn = self._open_read_only(e)
            self.notice = (f"The saved-games file {self.path} is read-only: your games can be "
                           "seen, but nothing you enter now will be saved. Make the file and "
                           "its folder writable, then reload the page.")
        if self.notice is None:
            self.notice = self._damage_note()

    def _put_aside(self, why: str) -> sqlite3.Connection:
        """Keep a damaged file as ``….damaged-…`` and start a new one, whose table
        ``store_notes`` says so (:meth:`_damage_note`).

        Several pages' kernels may find the same damaged file at once (the
        dashboard's pool opens it when the server starts).  Only one of them may
        move it: the others would move the new file, or find nothing to move.
        So the move is made under a lock, after looking again."""
        with _folder_lock(self.path, shared=False):
            try:
                return self._open()         # another page has already put it aside
            except _NotADatabase:
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
            conn = self._open()
            note = (f"The saved-games file was damaged ({why}). It was kept as {aside} and a "
                    "new, empty one was started; no file was deleted.")
            conn.execute("CREATE TABLE IF NOT EXISTS store_notes (at REAL, note TEXT)")
            conn.execute("INSERT INTO store_notes VALUES (?, ?)", (time.time(), note))
            return conn

    def _damage_note(self) -> str | None:
        """What every page says while the new file that replaced a damaged one is
        still empty: the pages that opened it after the move did not see the damage
        themselves, and the person at the table must still be told."""
        c = self._conn
        if c.execute("SELECT 1 FROM games LIMIT 1").fetchone() is not None:
            return None
        aside = self.path.name + ".damaged-"
        if not any(p.name.startswith(aside) for p in self.path.parent.iterdir()):
            return None                     # no damaged file was ever put aside here
        # the page that moved it may not have written its note yet: it does so
        # before it lets go of the lock
        with _folder_lock(self.path, shared=False):
            if c.execute("SELECT 1 FROM sqlite_master WHERE type='table' "
                         "AND name='store_notes'").fetchone() is None:
                return None
            row = c.execute("SELECT note FROM store_notes ORDER BY at DESC LIMIT 1").fetchone()
        return None if row is None else str(row[0])

    def _writable(self) -> bool:
        p = self.path if self.path.exists() else self.path.parent
        return os.access(p, os.W_OK) and os.access(self.path.parent, os.W_OK)

    def _open_read_only(self, why: StoreError) -> sqlite3.Connection:
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

    def _busy(self, writing: bool) -> StoreBusy:
        if writing:
            return StoreBusy(f"Not saved: the saved-games file {self.path} is busy: another "
                             f"program has kept it locked for {self.timeout:g} s. Nothing was "
                             "changed; close that program (or wait) and try again.")
        return StoreBusy(f"The saved-games file {self.path} is busy: another program has kept "
                         f"it locked for {self.timeout:g} s. It was not changed; close that "
                         "program (or wait) and reload the page.")

    def _failed(self, e: BaseException) -> StoreWriteFailed:
        return StoreWriteFailed(f"Not saved: the saved-games file {self.path} could not be "
                                f"written ({_reason(e)}). Nothing of this change was written; "
                                "free some disk space or make the file writable, then try again.")

    def _open(self) -> sqlite3.Connection:
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
                raise _NotADatabase(ok)
            _prepare(conn)
        except BaseException as e:
            if conn is not None:
                conn.close()
            if isinstance(e, sqlite3.Error):
                if _is_busy(e):
                    raise self._busy(writing=False) from None
                if _code(e) in (_NOTADB, _CORRUPT):
                    raise _NotADatabase(str(e)) from None
                kind = _IoError if _code(e) == _IOERR else StoreError
                raise kind(f"cannot open the saved-games file {self.path} "
                           f"({_reason(e)}); it was left as it is") from None
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
                if not _is_busy(e) or time.monotonic() > deadline:
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

    def close(self) -> None:
        self._conn.close()

    # -- writing ------------------------------------------------------------------
    def require(self, write: Write | str) -> None:
        """Refuse ``write`` (:class:`~companion.core.errors.RoleRefused`) unless this
        page's role may make it (companion.core.roles); changes nothing."""
        check_role(self.role, write)

    def create(self, record: JSON, title: str | None = None, *,
               write: Write | str = Write.NEW_GAME, created: float | None = None,
               replaces: str | None = None) -> str:
        """Store a new game; ``write`` says what it is for the page's role: a new
        game, or an import (a record file).

        ``created``: the game's date (seconds since 1970: when it was played, for an
        import), else now.  ``replaces``: the id of a stored game this one takes the
        place of (the same play imported from another logger, issue 37), removed in the
        same transaction: either the new game is stored, with its date, and that game
        is gone, or nothing changed (the page's role must also allow a delete)."""
        if Write(write) not in (Write.NEW_GAME, Write.IMPORT):
            raise ValueError(f"a game is created by a new game or an import, not {write!r}")
        self.require(write)
        if replaces is not None:
            self.require(Write.DELETE)
        gid = self._new_id()
        now = time.time()
        setup = record["setup"]
        title = title or f"{', '.join(setup['players'])} ({time.strftime('%Y-%m-%d %H:%M')})"
        meta = record.get("meta") or {}
        if self.table:                   # created at this server's table (issue 26)
            meta = {**meta, "table": self.table}
        with self.transaction() as c:
            c.execute("INSERT INTO games(id, title, created, updated, setup, cards, manual, meta, "
                      "format) VALUES (?,?,?,?,?,?,?,?,?)",
                      (gid, title, now if created is None else float(created), now,
                       json.dumps(setup), json.dumps(record.get("cards") or []),
                       json.dumps(record.get("manual") or []), json.dumps(meta),
                       record.get("format", registry.DEFAULT_FORMAT)))
            for i, a in enumerate(record.get("actions") or []):
                c.execute("INSERT INTO actions(game_id, idx, action) VALUES (?,?,?)",
                          (gid, i, json.dumps(a)))
            if replaces is not None:
                c.execute("DELETE FROM games WHERE id=?", (replaces,))
        return gid

    def _new_id(self) -> str:
        """A new game's id."""
        return uuid.uuid4().hex[:12]

    def _check(self, c: sqlite3.Connection, gid: str, rev: int | None,
               n_ok: Callable[[int], bool], stale: str) -> int:
        """The game's revision, after refusing a page that has not seen it."""
        row = c.execute("SELECT rev FROM games WHERE id=?", (gid,)).fetchone()
        if row is None:
            raise StaleGame(f"this game is no longer in the saved-games file (deleted on another "
                            f"page?); {stale}")
        n = c.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (gid,)).fetchone()[0]
        if not n_ok(n) or (rev is not None and rev != row[0]):
            raise StaleGame(f"this game was changed in another tab or window; it has been "
                            f"reloaded, {stale}")
        now: int = row[0]
        return now

    def append(self, gid: str, index: int, action: JSON, *, rev: int | None = None) -> int:
        """Store ``action`` as the game's action number ``index`` (0-based) and
        return the game's new revision.  With ``rev`` (the revision the page last
        saw: from :meth:`load_revision`, :meth:`append` or :meth:`pop`), a page
        that has not seen another page's append or undo is refused
        (:class:`StaleGame`); without it only the index is compared."""
        self.require(Write.ACTION)
        text = json.dumps(action)
        try:
            with self.transaction() as c:
                now = self._check(c, gid, rev, lambda n: n == index,
                                  "please enter the action again")
                c.execute("INSERT INTO actions(game_id, idx, action) VALUES (?,?,?)",
                          (gid, index, text))
                c.execute("UPDATE games SET updated=?, rev=? WHERE id=?",
                          (time.time(), now + 1, gid))
        except sqlite3.IntegrityError:
            raise StaleGame("this game was changed in another tab or window; it has been "
                            "reloaded") from None
        return now + 1

    def pop(self, gid: str, index: int, *, rev: int | None = None) -> int:
        """Remove action number ``index``, which must be the last one; return the
        game's new revision (``rev``: as for :meth:`append`)."""
        self.require(Write.UNDO)
        with self.transaction() as c:
            now = self._check(c, gid, rev, lambda n: n == index + 1, "nothing was undone")
            c.execute("DELETE FROM actions WHERE game_id=? AND idx=?", (gid, index))
            c.execute("UPDATE games SET updated=?, rev=? WHERE id=?", (time.time(), now + 1, gid))
        return now + 1

    def set_cards(self, gid: str, cards: list[JSON]) -> None:
        """Replace the game's card definitions (import, repair).  Pages adding
        values a player typed use :meth:`merge_cards`, which never loses any."""
        self.require(Write.CARDS)
        with self.transaction() as c:
            c.execute("UPDATE games SET cards=?, updated=? WHERE id=?",
                      (json.dumps(cards), time.time(), gid))

    def merge_cards(self, gid: str, cards: list[JSON]) -> list[JSON]:
        """Add card definitions to the game, value by value, in one transaction:
        a known value wins, a ``null`` never hides a known one, and cards other
        pages saved meanwhile are kept.  Returns the game's cards afterwards."""
        self.require(Write.CARDS)
        with self.transaction() as c:
            row = c.execute("SELECT cards, format FROM games WHERE id=?", (gid,)).fetchone()
            if row is None:
                raise GameNotFound(f"no saved game with id {gid}")
            merge = registry.kind_of(row[1]).merge_card
            have = {}
            for d in json.loads(row[0]):
                have[str(d.get("name", "")).lower()] = d
            for d in cards:
                key = str(d["name"]).lower()
                if key in have and merge is not None:
                    d = merge(have[key], d)
                have[key] = d
            out = sorted(have.values(), key=lambda d: str(d.get("name", "")))
            c.execute("UPDATE games SET cards=?, updated=? WHERE id=?",
                      (json.dumps(out), time.time(), gid))
        return out

    def add_manual(self, gid: str, entries: list[JSON]) -> list[JSON]:
        """Add the players' typed final-scoring entries, in one transaction; an
        entry for the same source, player and cell replaces the earlier one, and
        entries other pages saved meanwhile are kept.  Returns them all."""
        def key(m: JSON) -> tuple[str, Any, tuple[Any, ...] | None]:
            return (str(m.get("source", "")).lower(), m.get("player"),
                    tuple(m["at"]) if m.get("at") else None)
        self.require(Write.FINAL)
        with self.transaction() as c:
            row = c.execute("SELECT manual FROM games WHERE id=?", (gid,)).fetchone()
            if row is None:
                raise GameNotFound(f"no saved game with id {gid}")
            have = {key(m): m for m in json.loads(row[0])}
            for m in entries:
                if m.get("player") is None:      # "nobody claimed it" replaces any claim
                    have = {k: v for k, v in have.items() if k[0] != key(m)[0]}
                else:
                    have.pop((key(m)[0], None, key(m)[2]), None)
                have[key(m)] = m
            out = list(have.values())
            c.execute("UPDATE games SET manual=?, updated=? WHERE id=?",
                      (json.dumps(out), time.time(), gid))
        return out

    def set_manual(self, gid: str, manual: list[JSON]) -> None:
        self.require(Write.FINAL)
        with self.transaction() as c:
            c.execute("UPDATE games SET manual=?, updated=? WHERE id=?",
                      (json.dumps(manual), time.time(), gid))

    def delete(self, gid: str) -> None:
        self.require(Write.DELETE)
        with self.transaction() as c:
            c.execute("DELETE FROM games WHERE id=?", (gid,))

    # -- reading ------------------------------------------------------------------
    def load(self, gid: str) -> JSON:
        with self._reading() as c:
            return self._load(c, gid)

    def load_revision(self, gid: str) -> tuple[JSON, int]:
        """The game's record and its revision, read together (one snapshot)."""
        with self._reading(snapshot=True) as c:
            rec = self._load(c, gid)
            return rec, c.execute("SELECT rev FROM games WHERE id=?", (gid,)).fetchone()[0]

    def data_version(self) -> int:
        """A number that changes whenever another connection (another page's kernel, the
        command line) has committed to the file since this one last looked (SQLite's
        ``PRAGMA data_version``; this store's own writes do not change it).  A live page polls
        it: cheap, reads no table."""
        with self._reading() as c:
            return int(c.execute("PRAGMA data_version").fetchone()[0])

    def revision(self, gid: str) -> int:
        with self._reading() as c:
            row = c.execute("SELECT rev FROM games WHERE id=?", (gid,)).fetchone()
        if row is None:
            raise GameNotFound(f"no saved game with id {gid}")
        rev: int = row[0]
        return rev

    def _load(self, c: sqlite3.Connection, gid: str) -> JSON:
        row = c.execute("SELECT setup, cards, manual, meta, title, format FROM games "
                        "WHERE id=?", (gid,)).fetchone()
        if row is None:
            raise GameNotFound(f"no saved game with id {gid}")
        actions = [json.loads(a) for (a,) in c.execute(
            "SELECT action FROM actions WHERE game_id=? ORDER BY idx", (gid,))]
        meta = json.loads(row[3])
        meta["title"] = row[4]
        return {"format": row[5], "setup": json.loads(row[0]), "cards": json.loads(row[1]),
                "actions": actions, "manual": json.loads(row[2]), "meta": meta}

    def games(self, format: str | None = DEFAULT_GAME, *,
              table: str | None = None) -> list[JSON]:
        """Saved games of one format (None: all; by default the default game's,
        companion.table.registry.DEFAULT_FORMAT), newest first:
        id, title, players, actions, updated, format (and table, for a game created
        at a named table).  ``table``: only the games created at that table (a page's
        lists pass ``store.table``); None: every table's."""
        if format == DEFAULT_GAME:
            format = registry.DEFAULT_FORMAT
        out = []
        with self._reading() as c:
            rows = c.execute(
                "SELECT g.id, g.title, g.setup, g.updated, g.format, "
                "(SELECT COUNT(*) FROM actions a WHERE a.game_id=g.id), g.meta "
                "FROM games g WHERE (CAST(? AS TEXT) IS NULL OR g.format = ?) "
                "ORDER BY g.updated DESC",
                (format, format)).fetchall()
        for gid, title, setup, updated, fmt, n, meta in rows:
            at = _table_of(meta)
            if table is not None and at != table:
                continue
            info = {"id": gid, "title": title, "players": json.loads(setup)["players"],
                    "actions": n, "updated": updated, "format": fmt}
            if at is not None:
                info["table"] = at
            out.append(info)
        return out

    # -- queries and transactions of the modules built on the store --------------
    # (companion.table.history, stats, plays_export keep their derived tables in the
    # same file; they go through these, never through the connection itself)
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of one read (tuples), outside any write; SQLite errors are
        raised as they are."""
        return self._conn.execute(sql, params).fetchall()

    def query_one(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        """The first row of one read (a tuple), or None."""
        return self._conn.execute(sql, params).fetchone()

    def has_table(self, name: str) -> bool:
        """Whether the file has the table ``name`` (e.g. the derived ``g_details``,
        which a store written by an older companion may lack)."""
        return has_table(self, name)

    def transaction(self) -> _Tx:
        """A write transaction, used as ``with store.transaction() as conn:``:
        BEGIN IMMEDIATE … COMMIT, rolled back on any error; an SQLite failure
        becomes :class:`StoreBusy` or :class:`StoreWriteFailed` (an integrity
        error is raised as it is)."""
        return _Tx(self)

    def reading(self) -> _Read:
        """The connection for reads made by another library (pandas'
        ``read_sql_query``), used as ``with store.reading() as conn:``; an SQLite
        failure becomes :class:`StoreBusy` or :class:`StoreError`."""
        return _Read(self, False)

    # -- helpers ------------------------------------------------------------------
    def _tx(self) -> _Tx:
        return self.transaction()

    def _reading(self, snapshot: bool = False) -> _Read:
        return _Read(self, snapshot)


def has_table(store: Store, name: str) -> bool:
    """:meth:`Store.has_table`, for any object shaped like a :class:`Store` (a
    PostgreSQL store answers it itself)."""
    own = getattr(store, "_table_exists", None)
    if own is not None:
        return bool(own(name))
    return store._conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                               (name,)).fetchone() is not None


def transaction(store: Store) -> _Tx:
    """:meth:`Store.transaction`, for any object shaped like a :class:`Store` (a
    read-only stand-in whose ``_tx`` refuses every write)."""
    return store._tx()


class _Tx:
    def __init__(self, store: Store):
        self.store = store
        self.conn = store._conn

    def __enter__(self) -> sqlite3.Connection:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise self._mapped(e) from None
        return self.conn

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
                return False
            except sqlite3.Error as e:
                exc = e
        self._rollback()
        if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
            raise self._mapped(exc) from None
        if exc_type is None and exc is not None:    # COMMIT failed with an IntegrityError
            raise self.store._failed(exc) from None     # (deferred keys)
        return False

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:         # SQLite may have rolled back on its own (I/O, full)
                pass

    def _mapped(self, e: sqlite3.Error) -> StoreError:
        return self.store._busy(writing=True) if _is_busy(e) else self.store._failed(e)


class _Read:
    """Reads outside a write: a locked file becomes :class:`StoreBusy`, any
    other SQLite failure a :class:`StoreError` naming the file."""

    def __init__(self, store: Store, snapshot: bool):
        self.store, self.conn, self.snapshot = store, store._conn, snapshot

    def __enter__(self) -> sqlite3.Connection:
        if self.snapshot and not self.conn.in_transaction:
            self.conn.execute("BEGIN")
        else:
            self.snapshot = False
        return self.conn

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> Literal[False]:
        if self.snapshot and self.conn.in_transaction:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error:
                # never leave the read open: the connection would go on reading this
                # snapshot, and a live page would not see another page's change again
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
        if isinstance(exc, sqlite3.Error):
            if _is_busy(exc):
                raise self.store._busy(writing=False) from None
            raise StoreError(f"cannot read the saved-games file {self.store.path} "
                             f"({_reason(exc)})") from None
        return False


class MemoryStore(Store):
    """A copy of another store's games in an SQLite database in memory, for what must be
    computed from a store that cannot be written (History's derived tables of a
    read-only file or a SELECT-only PostgreSQL role, companion.table.history.current):
    nothing written to it is kept.  ``path`` is the original's (for messages)."""

    def __init__(self, source: Store, *, schema: Sequence[str] = (),
                 tables: Sequence[str] = ()):
        """Copy ``games`` and ``actions`` of ``source``, then, after the statements of
        ``schema`` (CREATE TABLE …), the rows of ``tables`` (the columns both have)."""
        self.path = source.path
        self.timeout = source.timeout
        self.role = source.role
        self.table = source.table
        self.notice = None
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA foreign_keys = ON")
        _prepare(conn)
        for stmt in schema:
            conn.execute(stmt)
        self._conn = conn
        present = [t for t in ("games", "actions", *tables) if has_table(source, t)]
        conn.execute("BEGIN")
        with source.reading() as src:
            for table in present:
                cols = [d[0] for d in src.execute(f"SELECT * FROM {table} LIMIT 0").description]
                mine = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
                both = [c for c in cols if c in mine]
                rows = src.execute(f"SELECT {', '.join(both)} FROM {table}").fetchall()
                conn.executemany(f"INSERT INTO {table}({', '.join(both)}) "
                                 f"VALUES ({', '.join('?' * len(both))})",
                                 [tuple(r) for r in rows])
        conn.execute("COMMIT")


def _table_of(meta: Any) -> str | None:
    """The table a stored game's ``meta`` (JSON text) names, if any."""
    try:
        t = json.loads(meta).get("table") if meta else None
    except (ValueError, AttributeError):
        return None
    return t if isinstance(t, str) else None
