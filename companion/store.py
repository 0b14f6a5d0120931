"""Saved games in a local SQLite file: every accepted action is written at once.

The store holds records, nothing else: a game is its setup, its card
definitions, its manual entries and its ordered actions.  Resuming is a replay.
Two tabs on the same game are detected (an append at an index another tab has
already used raises :class:`StaleGame`).
"""
from __future__ import annotations

import json
import sqlite3
import time
import uuid
from pathlib import Path

from .errors import CompanionError
from .paths import user_dir
from .record import FORMAT

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
    format TEXT NOT NULL DEFAULT 'among-the-stars/1'
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
"""


#: schema version (PRAGMA user_version) and the steps that reach it
SCHEMA_VERSION = 3
MIGRATIONS = {
    # 0 -> 1: games of more than one kind (Small Star Empires) in one store
    1: ["ALTER TABLE games ADD COLUMN format TEXT NOT NULL DEFAULT 'among-the-stars/1'"],
    # 1 -> 2: tables derived from each record (companion.history keeps them in step),
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
}


def _migrate(conn: sqlite3.Connection) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    cols = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    for v in range(version + 1, SCHEMA_VERSION + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for stmt in MIGRATIONS[v]:
                # a fresh database created by SCHEMA may already have the column
                if "ADD COLUMN format" in stmt and "format" in cols:
                    continue
                conn.execute(stmt)
            conn.execute(f"PRAGMA user_version = {v}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


class StoreError(CompanionError):
    """The saved-games file cannot be used."""


class StaleGame(CompanionError):
    """Another tab or window changed this game; reload it."""


def default_path() -> Path:
    return user_dir() / "games.sqlite"


class Store:
    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path else default_path()
        self.notice: str | None = None     # set when a damaged file was put aside
        try:
            self._conn = self._open()
        except sqlite3.DatabaseError as e:
            stamp = time.strftime('%Y%m%d-%H%M%S')
            aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}")
            n = 1
            while aside.exists():           # never overwrite an earlier damaged file
                n += 1
                aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{n}")
            self.path.replace(aside)
            for suffix in ("-wal", "-shm"):
                side = self.path.with_name(self.path.name + suffix)
                if side.exists():
                    side.replace(aside.with_name(aside.name + suffix))
            self.notice = (f"The saved-games file was damaged ({e}). It was kept as {aside} and a "
                           "new, empty one was started; no file was deleted.")
            self._conn = self._open()

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None,
                               check_same_thread=False)
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            ok = conn.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise sqlite3.DatabaseError(ok)
            conn.executescript(SCHEMA)
            _migrate(conn)
        except sqlite3.DatabaseError:
            conn.close()
            raise
        return conn

    def close(self) -> None:
        self._conn.close()

    # -- writing ------------------------------------------------------------------
    def create(self, record: dict, title: str | None = None) -> str:
        gid = uuid.uuid4().hex[:12]
        now = time.time()
        setup = record["setup"]
        title = title or f"{', '.join(setup['players'])} ({time.strftime('%Y-%m-%d %H:%M')})"
        with self._tx() as c:
            c.execute("INSERT INTO games(id, title, created, updated, setup, cards, manual, meta, "
                      "format) VALUES (?,?,?,?,?,?,?,?,?)",
                      (gid, title, now, now, json.dumps(setup), json.dumps(record.get("cards") or []),
                       json.dumps(record.get("manual") or []), json.dumps(record.get("meta") or {}),
                       record.get("format", FORMAT)))
            for i, a in enumerate(record.get("actions") or []):
                c.execute("INSERT INTO actions(game_id, idx, action) VALUES (?,?,?)",
                          (gid, i, json.dumps(a)))
        return gid

    def append(self, gid: str, index: int, action: dict) -> None:
        """Store ``action`` as the game's action number ``index`` (0-based)."""
        try:
            with self._tx() as c:
                n = c.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (gid,)).fetchone()[0]
                if n != index:
                    raise StaleGame("this game was changed in another tab or window; "
                                    "it has been reloaded, please enter the action again")
                c.execute("INSERT INTO actions(game_id, idx, action) VALUES (?,?,?)",
                          (gid, index, json.dumps(action)))
                c.execute("UPDATE games SET updated=? WHERE id=?", (time.time(), gid))
        except sqlite3.IntegrityError:
            raise StaleGame("this game was changed in another tab or window; it has been reloaded")

    def pop(self, gid: str, index: int) -> None:
        """Remove action number ``index``, which must be the last one."""
        with self._tx() as c:
            n = c.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (gid,)).fetchone()[0]
            if n != index + 1:
                raise StaleGame("this game was changed in another tab or window; "
                                "it has been reloaded, nothing was undone")
            c.execute("DELETE FROM actions WHERE game_id=? AND idx=?", (gid, index))
            c.execute("UPDATE games SET updated=? WHERE id=?", (time.time(), gid))

    def set_cards(self, gid: str, cards: list[dict]) -> None:
        """Replace the game's card definitions (import, repair).  Pages adding
        values a player typed use :meth:`merge_cards`, which never loses any."""
        with self._tx() as c:
            c.execute("UPDATE games SET cards=?, updated=? WHERE id=?",
                      (json.dumps(cards), time.time(), gid))

    def merge_cards(self, gid: str, cards: list[dict]) -> list[dict]:
        """Add card definitions to the game, value by value, in one transaction:
        a known value wins, a ``null`` never hides a known one, and cards other
        pages saved meanwhile are kept.  Returns the game's cards afterwards."""
        from .catalogue import merge_card, parse_card
        with self._tx() as c:
            row = c.execute("SELECT cards FROM games WHERE id=?", (gid,)).fetchone()
            if row is None:
                raise StoreError(f"no saved game with id {gid}")
            have = {}
            for d in json.loads(row[0]):
                have[str(d.get("name", "")).lower()] = d
            for d in cards:
                key = str(d["name"]).lower()
                if key in have:
                    d = merge_card(parse_card(have[key]), parse_card(d)).to_dict()
                have[key] = d
            out = sorted(have.values(), key=lambda d: str(d.get("name", "")))
            c.execute("UPDATE games SET cards=?, updated=? WHERE id=?",
                      (json.dumps(out), time.time(), gid))
        return out

    def add_manual(self, gid: str, entries: list[dict]) -> list[dict]:
        """Add the players' typed final-scoring entries, in one transaction; an
        entry for the same source, player and cell replaces the earlier one, and
        entries other pages saved meanwhile are kept.  Returns them all."""
        def key(m):
            return (str(m.get("source", "")).lower(), m.get("player"),
                    tuple(m["at"]) if m.get("at") else None)
        with self._tx() as c:
            row = c.execute("SELECT manual FROM games WHERE id=?", (gid,)).fetchone()
            if row is None:
                raise StoreError(f"no saved game with id {gid}")
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

    def set_manual(self, gid: str, manual: list[dict]) -> None:
        with self._tx() as c:
            c.execute("UPDATE games SET manual=?, updated=? WHERE id=?",
                      (json.dumps(manual), time.time(), gid))

    def delete(self, gid: str) -> None:
        with self._tx() as c:
            c.execute("DELETE FROM games WHERE id=?", (gid,))

    # -- reading ------------------------------------------------------------------
    def load(self, gid: str) -> dict:
        row = self._conn.execute("SELECT setup, cards, manual, meta, title, format FROM games "
                                 "WHERE id=?", (gid,)).fetchone()
        if row is None:
            raise StoreError(f"no saved game with id {gid}")
        actions = [json.loads(a) for (a,) in self._conn.execute(
            "SELECT action FROM actions WHERE game_id=? ORDER BY idx", (gid,))]
        meta = json.loads(row[3])
        meta["title"] = row[4]
        return {"format": row[5], "setup": json.loads(row[0]), "cards": json.loads(row[1]),
                "actions": actions, "manual": json.loads(row[2]), "meta": meta}

    def games(self, format: str | None = FORMAT) -> list[dict]:
        """Saved games of one format (None: all), newest first:
        id, title, players, actions, updated, format."""
        out = []
        for gid, title, setup, updated, fmt, n in self._conn.execute(
                "SELECT g.id, g.title, g.setup, g.updated, g.format, "
                "(SELECT COUNT(*) FROM actions a WHERE a.game_id=g.id) "
                "FROM games g WHERE (? IS NULL OR g.format = ?) ORDER BY g.updated DESC",
                (format, format)):
            out.append({"id": gid, "title": title, "players": json.loads(setup)["players"],
                        "actions": n, "updated": updated, "format": fmt})
        return out

    # -- helpers ------------------------------------------------------------------
    def _tx(self):
        return _Tx(self._conn)


class _Tx:
    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        self.conn.execute("COMMIT" if exc_type is None else "ROLLBACK")
        return False
