"""The saved-games file's schema: its tables, the schema steps that bring an older
file up to this companion's version, and the games' one-off data steps.

Apart from :mod:`companion.table.store` because both backends share them: the SQLite
file (:func:`prepare`, in one transaction) and the club's PostgreSQL database
(:mod:`companion.table.pgbase`, which keeps its version in ``store_version``) run the
same statements and the same data steps (docs/store.md, "Schema").
"""
from __future__ import annotations

import json
import sqlite3
import time
from typing import Callable

from ..core.gamekind import StoreStep
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


def _add_revision(conn: sqlite3.Connection) -> None:
    """The additions by presence; called inside :func:`prepare`'s transaction."""
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


def run_data_steps(conn: sqlite3.Connection) -> None:
    """The data steps not yet done; called inside :func:`prepare`'s transaction."""
    conn.execute("CREATE TABLE IF NOT EXISTS store_steps (name TEXT PRIMARY KEY, done REAL)")
    done = {r[0] for r in conn.execute("SELECT name FROM store_steps")}
    for name, step in data_steps().items():
        if name not in done:
            step(conn)
            conn.execute("INSERT INTO store_steps(name, done) VALUES (?, ?)", (name, time.time()))


def _migrate(conn: sqlite3.Connection) -> None:
    """The schema steps; called inside :func:`prepare`'s transaction."""
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
    """Read only: does the file need none of :func:`prepare`'s writes?"""
    if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION \
            or conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
        return False
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not {"games", "actions", "store_steps"} <= tables:
        return False
    if "rev" not in {r[1] for r in conn.execute("PRAGMA table_info(games)")}:
        return False
    return set(data_steps()) <= {r[0] for r in conn.execute("SELECT name FROM store_steps")}


def prepare(conn: sqlite3.Connection) -> None:
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
        run_data_steps(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:          # SQLite may have rolled it back itself (I/O error)
            conn.execute("ROLLBACK")
        raise

