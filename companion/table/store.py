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

import json
import sqlite3
import time
import uuid
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Literal, Protocol, Sequence

from ..core.errors import (CompanionError, StaleGame as StaleGame, StoreBusy as StoreBusy,  # noqa: F401
                     GameNotFound as GameNotFound, StoreError as StoreError, StoreNotOurs,
                     StoreWriteFailed as StoreWriteFailed)
from ..core.jsontypes import JSON
from ..core.paths import user_dir
from ..core.roles import Role, Write, check as check_role
from . import registry
# the schema and the file moved to their own modules (issue 38); their names stay here
from .schema import (ADDITIONS as ADDITIONS, APPLICATION_ID as APPLICATION_ID,
                     MIGRATIONS as MIGRATIONS, OUR_TABLES as OUR_TABLES, SCHEMA as SCHEMA,
                     SCHEMA_VERSION as SCHEMA_VERSION, data_steps as data_steps, prepare)
from .store_file import NotADatabase, SqliteFile, folder_lock, is_busy, reason


class Progress(Protocol):
    """A long table step's report: ``progress(done, total)``, called before the first
    item (0, total) and after each one."""

    def __call__(self, done: int, total: int, /) -> None: ...


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
        file = SqliteFile(self.path, self.timeout)    # opening it: companion.table.store_file
        try:
            # opened under the folder's lock, shared: a damaged file is moved aside under it,
            # exclusive (put_aside), never while a page is opening it.  Seen without it
            # (6 pages at once, 7 times in 150): a page's connection made on the damaged
            # file before the move read the new file's -wal (SQLite finds it by name) as
            # its own and wrote the new database into the kept damaged file (0 or 4096
            # bytes left of it), or failed with "disk I/O error" / "locking protocol"
            with folder_lock(self.path, shared=True):
                self._conn = file.open()
        except NotADatabase as e:
            self._conn = file.put_aside(str(e))
        except StoreError as e:
            if isinstance(e, (StoreBusy, StoreNotOurs)) or file.writable():
                raise
            # a read-only file or folder: the games can still be seen; every write
            # will say plainly that it was not saved
            self._conn = file.open_read_only(e)
            self.notice = (f"The saved-games file {self.path} is read-only: your games can be "
                           "seen, but nothing you enter now will be saved. Make the file and "
                           "its folder writable, then reload the page.")
        if self.notice is None:
            self.notice = file.damage_note(self._conn)

    def _busy(self, writing: bool) -> StoreBusy:
        return SqliteFile(self.path, self.timeout).busy(writing)

    def _failed(self, e: BaseException) -> StoreWriteFailed:
        return SqliteFile(self.path, self.timeout).failed(e)

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
            at = table_of(meta)
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
        return self.store._busy(writing=True) if is_busy(e) else self.store._failed(e)


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
            if is_busy(exc):
                raise self.store._busy(writing=False) from None
            raise StoreError(f"cannot read the saved-games file {self.store.path} "
                             f"({reason(exc)})") from None
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
        prepare(conn)
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


def table_of(meta: Any) -> str | None:
    """The table a stored game's ``meta`` (JSON text) names, if any."""
    try:
        t = json.loads(meta).get("table") if meta else None
    except (ValueError, AttributeError):
        return None
    return t if isinstance(t, str) else None
