"""What one club database gives every server (issue 26): the player's own documents
(the card catalogue, the typed sector tiles) shared in the database, and the table a
server lists its games of.

- :class:`ClubDocuments`: the documents of ``companion.core.userdocs`` kept in the
  table ``user_docs`` of the club's PostgreSQL database (created with the store's
  schema, :func:`create_user_docs`).  A change is a read-merge-write in ONE write
  transaction of the store (its advisory write lock held, the row locked): two
  servers typing two cards at once both keep theirs.  :func:`serve` installs them
  when the store is a club database; a laptop's SQLite file keeps the data folder's
  files, exactly as before.
- the table: ``COMPANION_TABLE`` (``--table NAME`` of the dashboard and the command
  line).  A server given one tags the games it creates (``meta["table"]``) and lists
  only that table's games (:func:`table_from_env`, :func:`check_table_name`);
  History and the statistics stay the club's.
"""
from __future__ import annotations

import os
import time
from typing import Any, Callable

from ..core import userdocs
from ..core.errors import StoreError
from ..core.safeio import terminal_line
from .store import Store

#: the table of the player's documents in the club database
USER_DOCS_SCHEMA = ("CREATE TABLE IF NOT EXISTS user_docs (name TEXT PRIMARY KEY, "
                    "body TEXT NOT NULL, updated REAL NOT NULL)")
#: the environment variable naming this server's table (``--table``)
TABLE_ENV = "COMPANION_TABLE"
#: the longest table name
MAX_TABLE_NAME = 40


class TableNameRefused(StoreError):
    """A table name (``--table``, ``COMPANION_TABLE``) that cannot be used."""


def create_user_docs(c: Any) -> None:
    """Create the table ``user_docs`` on the connection ``c`` (inside the store's
    schema transaction, or any write transaction: it is ``IF NOT EXISTS``)."""
    c.execute(USER_DOCS_SCHEMA)


def is_club(store: object) -> bool:
    """Whether ``store`` is the club's PostgreSQL database (not a laptop's file)."""
    return isinstance(store, Store) and store.club


class ClubDocuments:
    """The player's documents in the club database's table ``user_docs``."""

    def __init__(self, store: Store | Callable[[], Store]):
        """``store``: the club's store, or a function opening it at the first use (the
        command line opens the database only for a command that reads a document)."""
        self._store = store if isinstance(store, Store) else None
        self._open = None if isinstance(store, Store) else store

    @property
    def store(self) -> Store:
        if self._store is None:
            assert self._open is not None
            self._store = self._open()
        return self._store

    @staticmethod
    def _name(name: str) -> str:
        problem = userdocs.name_problem(name)
        if problem:
            raise StoreError(f"{problem}, not {terminal_line(repr(name), 60)}")
        return name

    def file(self, name: str) -> None:
        return None

    def where(self, name: str) -> str:
        return f"the club database {self.store.path} ({name})"

    def read(self, name: str) -> str | None:
        name = self._name(name)
        if not self.store.has_table("user_docs"):
            return None
        row = self.store.query_one("SELECT body FROM user_docs WHERE name = ?", (name,))
        return None if row is None else str(row[0])

    def changed(self, name: str) -> float:
        name = self._name(name)
        if not self.store.has_table("user_docs"):
            return 0.0
        row = self.store.query_one("SELECT updated FROM user_docs WHERE name = ?", (name,))
        return 0.0 if row is None else float(row[0])

    def names(self, folder: str) -> list[str]:
        if not self.store.has_table("user_docs"):
            return []
        head = folder.rstrip("/") + "/"
        return sorted(n[len(head):] for (n,) in self.store.query("SELECT name FROM user_docs")
                      if isinstance(n, str) and n.startswith(head))

    def update(self, name: str, change: Callable[[str | None], str]) -> str:
        name = self._name(name)
        with self.store.transaction() as c:
            create_user_docs(c)
            row = c.execute("SELECT body FROM user_docs WHERE name = ? FOR UPDATE",
                            (name,)).fetchone()
            new = change(None if row is None else str(row[0]))
            if not isinstance(new, str):
                raise TypeError("a document's text is a str")
            c.execute("INSERT INTO user_docs(name, body, updated) VALUES (?, ?, ?) "
                      "ON CONFLICT (name) DO UPDATE SET body = excluded.body, "
                      "updated = excluded.updated", (name, new, time.time()))
        return new

    def write(self, name: str, text: str) -> None:
        self.update(name, lambda _old: text)


def documents_for(store: Store) -> userdocs.UserDocuments:
    """The documents a server with ``store`` uses: the club's, or the data folder's."""
    return ClubDocuments(store) if is_club(store) else userdocs.FileDocuments()


def serve(store: Store) -> userdocs.UserDocuments:
    """Install the documents of ``store`` for this process (a page's kernel, the
    command line); returns them."""
    docs = documents_for(store)
    userdocs.use(docs)
    return docs


# ---------------------------------------------------------------------------
# the table this server lists
# ---------------------------------------------------------------------------
def check_table_name(name: object) -> str:
    """``name`` stripped, or :class:`TableNameRefused` (one line): 1 to 40 printable
    characters."""
    if not isinstance(name, str):
        raise TableNameRefused("a table's name is text (--table NAME)")
    text = name.strip()
    if not 1 <= len(text) <= MAX_TABLE_NAME or not text.isprintable():
        raise TableNameRefused(f"a table's name (--table) is 1 to {MAX_TABLE_NAME} printable "
                               f"characters, not {terminal_line(repr(name), 60)}")
    return text


def table_from_env() -> str | None:
    """This server's table (``$COMPANION_TABLE``), checked; None when not set."""
    raw = os.environ.get(TABLE_ENV)
    if raw is None or not raw.strip():
        return None
    return check_table_name(raw)


def table_of(meta: object) -> str | None:
    """The table a game was created at (its record's ``meta["table"]``), if any."""
    if isinstance(meta, dict):
        t = meta.get("table")
        if isinstance(t, str):
            return t
    return None


__all__ = ["USER_DOCS_SCHEMA", "TABLE_ENV", "MAX_TABLE_NAME", "TableNameRefused",
           "create_user_docs", "is_club", "ClubDocuments", "documents_for", "serve",
           "check_table_name", "table_from_env", "table_of"]
