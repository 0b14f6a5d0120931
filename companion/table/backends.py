"""Which store a server or the command line opens (issue 38: "the store's backends behind
one ``backends.py``"): a laptop's SQLite file (:class:`companion.table.store.Store`) or
the club's PostgreSQL database (:class:`companion.table.pgstore.PgStore`), chosen by an
address; and the player's documents that go with it (companion.table.club).

The modules point one way: ``store`` (SQLite, the schema) ← ``club`` (documents in the
club database, the table a server lists) ← ``pgstore`` (PostgreSQL) ← ``backends``.
Only this module knows them all; psycopg itself is imported by ``pgstore`` when a
PostgreSQL address is opened, so a laptop never loads it.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..core import userdocs
from ..core.errors import StoreError
from ..core.roles import Role
from .club import ClubDocuments, table_from_env
from .pgstore import PgStore
from .store import BUSY_TIMEOUT, Store

#: the club database's address: a ``postgresql://`` URL makes every page use PostgreSQL
DATABASE_ENV = "COMPANION_DATABASE_URL"
#: the schemes of a PostgreSQL address
SCHEMES = ("postgresql://", "postgres://")


def open_store(location: Path | str | None = None, *, role: Role | str = Role.HOST,
               timeout: float = BUSY_TIMEOUT) -> Store:
    """The store at ``location``: a ``postgresql://`` (or ``postgres://``) address opens
    the club database (:class:`~companion.table.pgstore.PgStore`), anything else is the
    path of an SQLite file.  Without a location: ``$COMPANION_DATABASE_URL`` when it is
    set, else the default file (:func:`companion.table.store.default_path`)."""
    if location is None or location == "":
        location = os.environ.get(DATABASE_ENV, "").strip() or None
    table = table_from_env()                 # $COMPANION_TABLE (--table), checked
    store: Store
    if isinstance(location, str) and location.startswith(SCHEMES):
        store = PgStore(location, role=role, timeout=timeout)
    elif isinstance(location, str) and "://" in location:
        raise StoreError(f"{DATABASE_ENV} (or --database) must be a postgresql:// address "
                         f"or the path of a saved-games file, not {location.split('://')[0]}://…")
    else:
        store = Store(location, role=role, timeout=timeout)
    store.table = table
    return store


def serve_from_env() -> userdocs.UserDocuments:
    """The command line's documents: the club's when ``$COMPANION_DATABASE_URL`` (or
    ``--database``) is a ``postgresql://`` address (the database opened at the first
    document read or written), else the data folder's files; installed."""
    url = os.environ.get(DATABASE_ENV, "").strip()
    docs: userdocs.UserDocuments
    if url.startswith(SCHEMES):
        docs = ClubDocuments(lambda: open_store(url))
    else:
        docs = userdocs.FileDocuments()
    userdocs.use(docs)
    return docs


__all__ = ["DATABASE_ENV", "SCHEMES", "open_store", "serve_from_env"]
