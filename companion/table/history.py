"""Game history: the tables derived from every stored record, kept in step
with the store, plus import/export of records and the plays CSV.

The store keeps each record (setup + actions); :func:`sync` derives, for every
game changed since it was last derived, its result (finished?, winners, the
tiebreak step), each player's total with its breakdown, the VP per year, the
cards built with the VP each gave, and the objectives claimed.  Statistics
(:mod:`companion.table.stats`) read those tables and never replay a game.
"""
from __future__ import annotations

import json
import math
import os
import sqlite3
import time
from pathlib import Path
from collections.abc import Collection, Iterable
from typing import Any

from ..core.errors import (CompanionError, GameNotFound, IllegalAction, MissingEntry,
                           StoreWriteFailed, UnknownCardValues)
from ..core.jsontypes import JSON
from . import registry
from . import plays_import
from .csvsafe import rows_csv
from .plays_import import IMPORTED_FORMAT
from ..core.record import dumps as dumps  # noqa: F401  (re-exported: the History tab uses it)
from .registry import GAME_NAMES  # noqa: F401  (importers use it)
from ..core.safeio import safe_filename, terminal_line
from ..core.roles import Role, Write, check as check_role
# has_table / transaction as functions: _ensure_details also takes a read-only
# stand-in shaped like a Store (tests/test_play_details.py)
from .store import MemoryStore, Progress, Store, has_table, transaction


def open_game(record: JSON, *, trusted: bool = False) -> registry.GameProtocol:
    """The engine game of a record, whichever game it is (the registry tells).
    ``trusted=True`` only for a record from our own store or memory (the bounded
    reader's checks are skipped; the replay still checks every rule)."""
    return registry.load_game(record, trusted=trusted)


def waits_for(e: CompanionError) -> str:
    """What a finished game's final scoring waits for, in words: the values
    nobody has typed yet (UnknownCardValues) or the players' entries (MissingEntry)."""
    if isinstance(e, UnknownCardValues):
        return f"'{e.card}' ({', '.join(e.fields)})"
    if isinstance(e, MissingEntry):
        return "; ".join(e.needed)
    return str(e)


def derive(record: JSON, *, trusted: bool = False) -> dict[str, Any]:
    """Everything the statistics need from one record (replays it once).

    A record that does not replay raises (:func:`sync` flags it).  A finished
    game whose final scoring waits for values the players still have to type
    (a card's, race's or objective's printed values, manual VP) is no error:
    ``waiting`` says what it waits for, it is not finished, and its players
    have no rank or total yet."""
    fmt = record.get("format", registry.DEFAULT_FORMAT)
    if fmt == IMPORTED_FORMAT:           # a play from another logger: its file's values
        return plays_import.derive(record)
    game = open_game(record, trusted=trusted)
    setup = record["setup"]
    players = list(setup["players"])
    out = {"format": fmt, "players": players, "races": dict(setup.get("races") or {}),
           "finished": bool(game.state.finished), "waiting": None,
           "year_vp": [], "cards": [], "objectives": []}
    kind = registry.kind_of(fmt)
    score = None
    try:
        try:
            score = game.score()
        except IllegalAction as e:
            # the game is over but its round-end entries are not made yet: no result yet
            pending = None if isinstance(e, UnknownCardValues) or kind.pending_score is None \
                else kind.pending_score(game, e)
            if pending is None:
                raise
            score = pending
            out["finished"] = False
    except (UnknownCardValues, MissingEntry) as e:
        if not game.state.finished:
            raise
        # the record replays; only the final scoring waits for the players' values
        out["finished"] = False
        out["waiting"] = waits_for(e)
    out["explanation"] = None
    out["roles"] = kind.game_roles(game, setup, players)
    if score is None:
        out["winners"], out["decided_by"] = [], None
        out["results"] = {p: {"rank": None, "total": None, "breakdown": {}} for p in players}
    else:
        result = score.to_json()
        out["winners"] = result["winners"]
        out["decided_by"] = result.get("decided_by")
        if isinstance(result.get("explanation"), str):
            out["explanation"] = result["explanation"][:500]
        out["results"] = {p["player"]: {"rank": p["rank"], "total": p["total"],
                                        "breakdown": p["breakdown"]}
                          for p in result["players"]}
    if kind.derive_extra is not None:
        kind.derive_extra(game, score, out)
    return out


def _why(e: CompanionError) -> str:
    """The error's message, with the action number of an illegal action (as the CLI says)."""
    msg = str(e)
    index = getattr(e, "index", None)
    if index is not None and not msg.startswith("action "):
        msg = f"action {index}: {msg}"
    return msg


def _catalogue_changed() -> float:
    """When the player's own catalogue was last changed (0: there is none)."""
    from ..core import userdocs
    from ..core.paths import user_catalogue_path
    docs = userdocs.documents()
    if docs.file(user_catalogue_path().name) is None:      # the club's (issue 26)
        return docs.changed(user_catalogue_path().name)
    try:
        return user_catalogue_path().stat().st_mtime
    except OSError:
        return 0.0


#: a derived number (a total, a breakdown, VP of a year, a card or an objective)
#: outside -SCORE_LIMIT..SCORE_LIMIT flags its game instead of reaching the tables
SCORE_LIMIT = 1_000_000
#: the latest date a stored game may carry (2100-01-01); a crafted store's date
#: outside 0..this is read as 0 so that no date conversion fails
MAX_PLAYED = 4_102_444_800


def _check_derived(d: dict[str, Any]) -> None:
    """Every derived number within -SCORE_LIMIT..SCORE_LIMIT (a stored game with
    absurd numbers is flagged, never written into the derived tables)."""
    def ok(v: object, what: str) -> None:
        if v is None:
            return
        if isinstance(v, bool) or not isinstance(v, int) or not -SCORE_LIMIT <= v <= SCORE_LIMIT:
            raise CompanionError(f"{what} is {terminal_line(repr(v), 40)}: out of range "
                                 f"(at most {SCORE_LIMIT} in size)")
    for p, r in d["results"].items():
        ok(r.get("total"), f"{p}'s total")
        ok(r.get("rank"), f"{p}'s rank")
        for k, v in (r.get("breakdown") or {}).items():
            ok(v, f"{p}'s {k}")
    for p, y, v in d["year_vp"]:
        ok(v, f"{p}'s VP in year {y}")
    for p, card, _cell, v in d["cards"]:
        ok(v, f"the VP of {p}'s {card}")
    for o, p, v in d["objectives"]:
        ok(v, f"the VP of {o}")


def _played(created: Any) -> float:
    try:
        t = float(created)
    except (TypeError, ValueError):
        return 0.0
    return t if math.isfinite(t) and 0 <= t <= MAX_PLAYED else 0.0


# ---------------------------------------------------------------------------
# play details (duration, location, notes, new players): the table g_details
# ---------------------------------------------------------------------------
#: the play details of every game, derived from its record's meta
#: (companion.table.playtime.details) and, for explanation and roles, from its score.
#: History adds it to a store that lacks it (the schema's history part); the
#: first sync after that fills it for every game from the stored meta, without
#: replaying any game.
DETAILS_SCHEMA = """CREATE TABLE IF NOT EXISTS g_details (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    started REAL, duration_min INTEGER, paused_min INTEGER NOT NULL DEFAULT 0,
    timer TEXT NOT NULL DEFAULT 'not started', location TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '', new_players TEXT NOT NULL DEFAULT '[]',
    expansions TEXT NOT NULL DEFAULT '[]', explanation TEXT, roles TEXT NOT NULL DEFAULT '{}')"""
DETAILS_COLUMNS = ("game_id", "started", "duration_min", "paused_min", "timer", "location",
                   "notes", "new_players", "expansions", "explanation", "roles")


def has_details(store: Store) -> bool:
    return has_table(store, "g_details")


def _ensure_details(store: Store) -> bool:
    """Add g_details to a store that lacks it and fill it from the meta of every game
    derived already (no replay); False when the store cannot be written (read-only)."""
    if has_details(store):
        return True
    try:
        with transaction(store) as c:
            c.execute(DETAILS_SCHEMA)
            races: dict[str, dict[str, Any]] = {}
            for gid, p, r in c.execute("SELECT game_id, player, race FROM g_players "
                                       "WHERE race IS NOT NULL").fetchall():
                races.setdefault(gid, {})[p] = r
            filled = []
            # the games derived already: the others get theirs when they are derived
            # (the sync that called this one, as a rule: a first sync)
            for gid, meta, setup, fmt in c.execute(
                    "SELECT g.id, g.meta, g.setup, g.format FROM games g "
                    "JOIN g_results r ON r.game_id = g.id").fetchall():
                players = _players_of(setup)
                game_roles = registry.kind_of(fmt).roles
                roles = races.get(gid, {}) if game_roles is None \
                    else game_roles(json_or(setup, {}), players or [])
                filled.append(_details_row(gid, json_or(meta, {}), players, None, roles))
            # the table is new, so empty: one statement for every game (one per game
            # cost 5 s of a first sync of 10,000 games, issue 26)
            c.executemany(_DETAILS_INSERT, filled)
            # the tiebreak sentence needs the score: those games are derived again
            c.execute("UPDATE g_results SET derived_at = 0 WHERE decided_by IS NOT NULL "
                      "AND decided_by != 'vp'")
    except (CompanionError, sqlite3.Error):
        return False
    return True


def json_or(text: Any, default: Any) -> Any:
    """The JSON value stored in ``text`` when it is of ``default``'s type (a column of
    the store), else ``default``: a damaged or hand-edited row never raises."""
    try:
        v = json.loads(text) if isinstance(text, str) else default
    except ValueError:
        return default
    return v if isinstance(v, type(default)) else default


def _players_of(setup_text: str | None) -> list[str] | None:
    setup = json_or(setup_text, {})
    ps = setup.get("players")
    return [p for p in ps if isinstance(p, str)] if isinstance(ps, list) else None


_DETAILS_INSERT = (f"INSERT INTO g_details({', '.join(DETAILS_COLUMNS)}) "
                   f"VALUES ({','.join('?' * len(DETAILS_COLUMNS))})")


def _put_details(c: Any, row: tuple[Any, ...]) -> None:
    """A game's g_details row, replacing its earlier one (portable SQL: SQLite and
    PostgreSQL, companion.table.pgstore)."""
    c.execute("DELETE FROM g_details WHERE game_id=?", (row[0],))
    c.execute(_DETAILS_INSERT, row)


def _details_row(gid: str, meta: JSON, players: list[str] | None, explanation: str | None,
                 roles: dict[str, Any]) -> tuple[Any, ...]:
    from .playtime import details
    d = details(meta, players)
    roles = {p: r[:80] for p, r in roles.items() if isinstance(p, str) and isinstance(r, str)}
    return (gid, d["started"], d["duration_min"], d["paused_min"], d["timer"], d["location"],
            d["notes"], json.dumps(d["new_players"]), json.dumps(d["expansions"]), explanation,
            json.dumps(roles))


_ANY = object()


def _require(store: Store, write: Write) -> None:
    """The page's role may make ``write`` (a stand-in shaped like a Store without a
    role is the command line's: the host)."""
    check_role(getattr(store, "role", Role.HOST), write)


def set_play_details(store: Store, gid: str, meta: JSON, *,
                     expect_timer: JSON | None | object = _ANY) -> JSON:
    """Store a game's play details: ``meta`` is the record's meta as the page keeps
    it (built with companion.table.playtime: start/pause/resume/stop, with_details).
    With ``expect_timer`` (the timer the page last saw, ``playtime.timer(meta)``, None
    for none), the write is refused with :class:`StaleGame` when the stored timer is
    another one: two pages tapping the timer at once never both get through (the
    comparison and the write are one transaction).
    Only the detail keys are written (timer, duration_min, location, notes,
    new_players, expansions); the rest of the stored meta (title, campaign...) is
    kept.  The game is not replayed: g_details is written in the same
    transaction.  Returns the game's details (companion.table.playtime.details)."""
    from .playtime import details
    keys = ("timer", "duration_min", "location", "notes", "new_players", "expansions")
    # the page's role first (companion.core.roles): a tap of the timer or a details form
    _require(store, Write.TIMER if expect_timer is not _ANY else Write.DETAILS)
    if not isinstance(meta, dict):
        raise CompanionError("the play details must be an object")
    ok = _ensure_details(store)
    with store.transaction() as c:
        row = c.execute("SELECT meta, setup FROM games WHERE id=?", (gid,)).fetchone()
        if row is None:
            raise GameNotFound(f"no saved game with id {gid}")
        stored = json_or(row[0], {})
        if expect_timer is not _ANY:
            from .playtime import timer
            if timer(stored) != expect_timer:
                from ..core.errors import StaleGame
                raise StaleGame("the play timer was changed on another page or tab")
        for k in keys:
            if k in meta and meta[k] is not None:
                stored[k] = meta[k]
            else:
                stored.pop(k, None)
        stored.pop("title", None)              # the title lives in its own column
        # the record's own limits (text, control characters, depth): a detail never
        # makes the stored record unreadable
        from ..core.record import check_tree
        check_tree({"meta": stored}, "play details")
        c.execute("UPDATE games SET meta=? WHERE id=?", (json.dumps(stored), gid))
        if ok:
            old = c.execute("SELECT explanation, roles FROM g_details WHERE game_id=?",
                            (gid,)).fetchone()
            _put_details(c, _details_row(
                gid, stored, _players_of(row[1]), old[0] if old else None,
                json_or(old[1], {}) if old else {}))
    return details(stored, _players_of(row[1]))


def play_details(store: Store, gid: str) -> JSON:
    """The stored details of one game (companion.table.playtime.details of its meta)."""
    from .playtime import details
    row = store.query_one("SELECT meta, setup FROM games WHERE id=?", (gid,))
    if row is None:
        raise GameNotFound(f"no saved game with id {gid}")
    return details(json_or(row[0], {}), _players_of(row[1]))


def _derived_rows(gid: str, fmt: str, played: float, d: dict[str, Any] | None,
                  error: str | None, record: JSON | None, details: bool,
                  now: float) -> dict[str, list[tuple[Any, ...]]]:
    """The rows one game adds to each derived table (the writes of :func:`_write_rows`)."""
    out: dict[str, list[tuple[Any, ...]]] = {
        "details": [], "results": [], "failed": [], "players": [], "year_vp": [],
        "cards": [], "objectives": [], "card_sums": [], "categories": []}
    if details:
        meta = (record or {}).get("meta")
        players = (d or {}).get("players") or (
            ((record or {}).get("setup") or {}).get("players")
            if isinstance((record or {}).get("setup"), dict) else None)
        out["details"].append(_details_row(
            gid, meta if isinstance(meta, dict) else {},
            players if isinstance(players, list) else None,
            (d or {}).get("explanation"), (d or {}).get("roles") or {}))
    if d is None:
        out["failed"].append((gid, fmt, 0, played, now, error))
        return out
    out["results"].append((gid, fmt, int(d["finished"]), played, now, d["decided_by"],
                           json.dumps(d["winners"]), d["waiting"]))
    for seat, p in enumerate(d["players"], 1):
        r = d["results"][p]
        out["players"].append((gid, p, seat, d["races"].get(p), r["rank"], r["total"],
                               int(d["finished"] and p in d["winners"]),
                               json.dumps(r["breakdown"])))
    out["year_vp"] += [(gid, p, y, v) for p, y, v in d["year_vp"]]
    out["cards"] += [(gid, p, card, cell, v) for p, card, cell, v in d["cards"]]
    out["objectives"] += [(gid, o, p, v) for o, p, v in d["objectives"]]
    # issue 26's summaries (store schema 4): per card, per player and category
    sums: dict[str, list[int]] = {}
    for _p, card, _cell, v in d["cards"]:
        t = sums.setdefault(card, [0, 0])
        t[0] += 1
        t[1] += v
    out["card_sums"] += [(gid, card, n, v) for card, (n, v) in sums.items()]
    for p in d["players"]:
        out["categories"] += [(gid, p, c, v) for c, v in
                              (d["results"][p]["breakdown"] or {}).items()]
    return out


def _write_rows(store: Store, gids: list[str], rows: dict[str, list[tuple[Any, ...]]]) -> None:
    """Replace the derived rows of ``gids`` by ``rows`` in ONE transaction (a chunk of
    the first sync: executemany per table instead of a transaction per game)."""
    keys = [(g,) for g in gids]
    summaries = has_summaries(store)
    with store.transaction() as c:
        for t in ("g_results", "g_players", "g_year_vp", "g_cards", "g_objectives") + (
                SUMMARY_TABLES if summaries else ()):
            c.executemany(f"DELETE FROM {t} WHERE game_id=?", keys)
        if rows["details"]:              # replaced (portable: no INSERT OR REPLACE)
            c.executemany("DELETE FROM g_details WHERE game_id=?",
                          [(r[0],) for r in rows["details"]])
            c.executemany(_DETAILS_INSERT, rows["details"])
        c.executemany("INSERT INTO g_results(game_id, format, finished, played, derived_at, "
                      "error) VALUES (?,?,?,?,?,?)", rows["failed"])
        c.executemany("INSERT INTO g_results(game_id, format, finished, played, derived_at, "
                      "decided_by, winners, waiting) VALUES (?,?,?,?,?,?,?,?)", rows["results"])
        c.executemany("INSERT INTO g_players VALUES (?,?,?,?,?,?,?,?)", rows["players"])
        c.executemany("INSERT INTO g_year_vp VALUES (?,?,?,?)", rows["year_vp"])
        c.executemany("INSERT INTO g_cards VALUES (?,?,?,?,?)", rows["cards"])
        c.executemany("INSERT INTO g_objectives VALUES (?,?,?,?)", rows["objectives"])
        if summaries:
            c.executemany("INSERT INTO g_card_sums(game_id, card, built, vp) VALUES (?,?,?,?)",
                          rows["card_sums"])
            c.executemany("INSERT INTO g_categories(game_id, player, category, vp) "
                          "VALUES (?,?,?,?)", rows["categories"])


#: the summary tables of store schema 4 (issue 26), derived with each game
SUMMARY_TABLES = ("g_card_sums", "g_categories")


def has_summaries(store: Store) -> bool:
    """Whether the store has schema 4's summary tables (a file of an older companion
    opened read-only has not: the statistics then read the detailed tables)."""
    return has_table(store, "g_card_sums") and has_table(store, "g_categories")


def _write_derived(store: Store, gid: str, fmt: str, played: float, d: dict[str, Any] | None,
                   error: str | None, record: JSON | None = None,
                   details: bool = False) -> None:
    _write_rows(store, [gid], _derived_rows(gid, fmt, played, d, error, record, details,
                                            time.time()))


#: games derived, then written in one transaction, by :func:`sync` (and read in one query)
SYNC_CHUNK = 200


def _load_many(store: Store, gids: list[str]) -> dict[str, Any]:
    """{id: the stored row and its action texts} of ``gids``, in two queries (one for the
    games, one for their actions): :func:`_record_of` makes each record."""
    marks = ",".join("?" * len(gids))
    out: dict[str, Any] = {}
    for gid, setup, cards, manual, meta, title, fmt in store.query(
            "SELECT id, setup, cards, manual, meta, title, format FROM games "
            f"WHERE id IN ({marks})", gids):
        out[gid] = ((setup, cards, manual, meta, title, fmt), [])
    for gid, action in store.query(f"SELECT game_id, action FROM actions WHERE game_id IN "
                                   f"({marks}) ORDER BY game_id, idx", gids):
        if gid in out:
            out[gid][1].append(action)
    return out


def _record_of(gid: str, loaded: dict[str, Any]) -> JSON:
    """The record as :meth:`Store.load` gives it, from :func:`_load_many`'s row."""
    if gid not in loaded:
        raise GameNotFound(f"no saved game with id {gid}")
    (setup, cards, manual, meta_text, title, fmt), actions = loaded[gid]
    acts = [json.loads(a) for a in actions]
    meta = json.loads(meta_text)
    meta["title"] = title
    return {"format": fmt, "setup": json.loads(setup), "cards": json.loads(cards),
            "actions": acts, "manual": json.loads(manual), "meta": meta}


def _derive_one(gid: str, fmt: str, created: Any,
                loaded: dict[str, Any] | None, store: Store | None) -> tuple[
                    str, float, dict[str, Any] | None, str | None, JSON | None]:
    """One game of :func:`sync`: (format, played, derived, error, record)."""
    played = _played(created)
    record = None
    try:
        record = store.load(gid) if loaded is None and store is not None \
            else _record_of(gid, loaded or {})
        stored_fmt = record.get("format")
        fmt = stored_fmt if isinstance(stored_fmt, str) else fmt
        d = derive(record, trusted=True)     # our own store's record
        if fmt == IMPORTED_FORMAT:       # counted as its game, on the day it was played
            fmt, played = d["format"], _played(d["played"])
        _check_derived(d)
        error = None
    except CompanionError as e:          # a record that no longer replays: kept, flagged
        d, error = None, _why(e)
    except Exception as e:               # a crafted or damaged store: kept, flagged
        if os.environ.get("COMPANION_DEBUG"):
            raise
        d, error = None, f"the stored record cannot be read or replayed ({type(e).__name__})"
    return fmt, played, d, error, record


def sync(store: Store, *, force: bool = False, progress: Progress | None = None,
         workers: int | None = None) -> int:
    """Re-derive every game changed since it was last derived; returns how many.
    ``progress(done, total)``, when given, is called before the first game (0,
    total) and after each game or group of games (the first sync after an upgrade
    replays every game); it is not called when there is nothing to do.
    A game waiting for values (or whose record failed) is also re-derived when
    the player's own catalogue changed since: the values may be there now.

    The games are read :data:`SYNC_CHUNK` at a time (two queries) and each chunk's
    derived rows are written in one transaction (issue 26); a chunk whose write
    fails is written again game by game, so only the game at fault is flagged.
    From :data:`PARALLEL_MIN` games on (a first sync, an import), the replays run
    in ``workers`` other processes (default: :func:`sync_workers`), which get a
    copy of the player's documents; this process still reads and writes every
    row.  When the processes cannot start or fail, the rest is derived here.

    A stored game that cannot be read back, does not replay, or gives numbers
    out of range (:data:`SCORE_LIMIT`) is kept and flagged (``g_results.error``);
    it never stops the other games from being derived."""
    details = _ensure_details(store)
    rows = store.query(
        "SELECT g.id, g.updated, g.created, g.format, r.derived_at, "
        "r.error IS NOT NULL OR r.waiting IS NOT NULL FROM games g "
        "LEFT JOIN g_results r ON r.game_id = g.id")
    typed = _catalogue_changed()
    todo = [(gid, created, fmt if isinstance(fmt, str) else registry.DEFAULT_FORMAT)
            for gid, updated, created, fmt, derived, pending in rows
            if force or derived is None or derived < updated or (pending and derived < typed)]
    if progress is not None and todo:
        progress(0, len(todo))
    k = sync_workers(len(todo)) if workers is None else workers
    done = _sync_parallel(store, todo, details, progress, k) if k >= 2 and todo else 0
    for start in range(done, len(todo), SYNC_CHUNK):
        chunk = todo[start:start + SYNC_CHUNK]
        # derived as of the read: a change stored meanwhile is newer, so the next sync
        # derives its game again
        now = time.time()
        try:
            loaded: dict[str, Any] | None = _load_many(store, [gid for gid, _, _ in chunk])
        except sqlite3.Error:
            loaded = None                # read each game alone (its error flags it)
        results = []
        for gid, created, fmt in chunk:
            results.append((gid, *_derive_one(gid, fmt, created, loaded, store)))
            done += 1
            if progress is not None:
                progress(done, len(todo))
        _write_results(store, results, details, now)
    if len(todo) >= ANALYZE_MIN:
        _analyze(store)
    return len(todo)


def current(store: Store, *, progress: Progress | None = None) -> tuple[Store, str | None]:
    """``(store, None)`` once :func:`sync` has brought the derived tables up to date; when
    they cannot be written (a read-only file or folder, a SELECT-only PostgreSQL role, a
    full disk: :class:`StoreWriteFailed`), ``(a copy in memory, the note to show)``: its
    derived tables are up to date, nothing of it is saved.  History, the statistics
    (companion.table.stats) and the exports (plays_csv, companion.table.plays_export) of
    a store that can only be read are those of the copy (issue 35)."""
    try:
        sync(store, progress=progress)
        return store, None
    except StoreWriteFailed:
        if isinstance(store, MemoryStore):
            raise
    # the rows derived already come along when the store has every derived table (an
    # older companion's file has not: then every game is derived in memory)
    full = all(has_table(store, t) for t in DERIVED_TABLES if t != "g_details")
    details = full and has_details(store)
    copy = MemoryStore(store, schema=[DETAILS_SCHEMA] if details else [],
                       tables=[t for t in DERIVED_TABLES if details or t != "g_details"]
                       if full else [])
    sync(copy, progress=progress)
    return copy, (f"History, statistics and exports were computed in memory: {store.path} "
                  "cannot be written, so they were not saved there.")


#: after a sync of this many games the database's planner statistics are made again
ANALYZE_MIN = 1000
#: history's tables (the derived rows, the summaries and the play details)
DERIVED_TABLES = ("g_results", "g_players", "g_year_vp", "g_cards", "g_objectives",
                  "g_card_sums", "g_categories", "g_details")


def _analyze(store: Store) -> None:
    """``ANALYZE`` of the derived tables (SQLite and PostgreSQL alike): after a first
    sync their sizes changed from nothing to thousands of rows, and a planner that
    still thinks them empty (PostgreSQL until its autovacuum comes by) chose joins that
    made the statistics twice as slow (issue 26).  Nothing is lost if it fails."""
    try:
        tables = [t for t in DERIVED_TABLES if has_table(store, t)]
        with store.transaction() as c:
            for t in tables:
                c.execute(f"ANALYZE {t}")
    except (sqlite3.Error, CompanionError):
        pass


def _write_results(store: Store, results: list[tuple[Any, ...]], details: bool,
                   now: float) -> None:
    """Write the derived rows of ``results`` ((id, format, played, derived, error,
    record) of :func:`_derive_one`) in one transaction, else game by game."""
    _write_game_rows(store, [(gid, fmt, played, _derived_rows(
        gid, fmt, played, d, error, record, details, now))
        for gid, fmt, played, d, error, record in results], details, now)


def _write_game_rows(store: Store, games: list[tuple[str, str, float, Any]], details: bool,
                     now: float) -> None:
    """Write each game's rows ((id, format, played, rows of :func:`_derived_rows`)) in one
    transaction; when that fails, game by game, and a game whose rows cannot be
    written is flagged alone."""
    try:
        batch: dict[str, list[tuple[Any, ...]]] = {}
        for _gid, _fmt, _played, rows in games:
            for k, v in rows.items():
                batch.setdefault(k, []).extend(v)
        _write_rows(store, [g[0] for g in games], batch)
    except (sqlite3.Error, OverflowError, ValueError, TypeError, CompanionError) as e:
        if os.environ.get("COMPANION_DEBUG") and not isinstance(e, CompanionError):
            raise
        for gid, fmt, played, rows in games:
            try:
                _write_rows(store, [gid], rows)
            except (sqlite3.Error, OverflowError, ValueError, TypeError) as e:
                if os.environ.get("COMPANION_DEBUG"):
                    raise
                _write_derived(store, gid, fmt, played, None,
                               f"the derived values cannot be stored ({type(e).__name__})",
                               None, details)


# -- the first sync in other processes ----------------------------------------------
#: a sync of at least this many games derives them in worker processes (starting
#: them takes about a second: below this, one process is as fast)
PARALLEL_MIN = 1500
#: games per piece of work sent to a worker process (and per write transaction)
PARALLEL_UNIT = 50
#: how many worker processes (0 or 1: none); default: the processors this process
#: may use, at most :data:`MAX_WORKERS`
WORKERS_ENV = "COMPANION_SYNC_WORKERS"
MAX_WORKERS = 4


def sync_workers(n_games: int) -> int:
    """How many worker processes a sync of ``n_games`` uses (0: none)."""
    env = os.environ.get(WORKERS_ENV, "").strip()
    if env:
        try:
            return max(0, min(int(env), 16))
        except ValueError:
            return 0
    if n_games < PARALLEL_MIN:
        return 0
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return min(cpus, MAX_WORKERS) if cpus >= 2 else 0


def _worker_start(docs_state: tuple[Any, Any, Any]) -> None:
    """A worker process: the player's documents as they were when the sync began."""
    from ..core import userdocs
    userdocs.use(userdocs.SnapshotDocuments(*docs_state))


def _derive_unit(unit: list[tuple[str, str, Any, Any]], details: bool,
                 now: float) -> list[tuple[str, str, float, Any]]:
    """In a worker process: :func:`_derive_one` of each (id, format, created, loaded
    row) of ``unit``, and the rows it writes (:func:`_derived_rows`)."""
    out = []
    for gid, fmt, created, entry in unit:
        loaded = {gid: entry} if entry is not None else {}
        fmt2, played, d, error, record = _derive_one(gid, fmt, created, loaded, None)
        out.append((gid, fmt2, played, _derived_rows(gid, fmt2, played, d, error, record,
                                                     details, now)))
    return out


def _sync_parallel(store: Store, todo: list[tuple[str, Any, str]], details: bool,
                   progress: Progress | None, workers: int) -> int:
    """Derive ``todo`` in ``workers`` processes, :data:`PARALLEL_UNIT` games at a
    time, writing each piece here as it comes back, in order; returns how many games
    of ``todo`` (from its start) are written.  Anything that stops the processes
    (they cannot start, one dies) only ends this early: :func:`sync` derives the
    rest itself."""
    import multiprocessing
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor
    from ..core import userdocs
    try:
        names = [n for kind in registry.kinds() for n in kind.documents]
        docs = userdocs.snapshot(names).state()
    except (OSError, ValueError, CompanionError, sqlite3.Error):
        return 0
    units = [todo[i:i + PARALLEL_UNIT] for i in range(0, len(todo), PARALLEL_UNIT)]
    written = 0
    pending: deque[tuple[list[tuple[str, Any, str]], float, Future[Any]]] = deque()
    pool = None
    try:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_start, initargs=(docs,))
        nxt = 0

        def submit() -> None:
            nonlocal nxt
            unit = units[nxt]
            nxt += 1
            now = time.time()            # derived as of the read (as sync's chunks)
            loaded = _load_many(store, [gid for gid, _, _ in unit])
            work = [(gid, fmt, created, loaded.get(gid)) for gid, created, fmt in unit]
            pending.append((unit, now, pool.submit(_derive_unit, work, details, now)))

        while nxt < len(units) and len(pending) < 2 * workers:
            submit()
        while pending:
            unit, now, fut = pending.popleft()
            results = fut.result()
            if nxt < len(units):         # the workers go on while this piece is written
                submit()
            _write_game_rows(store, results, details, now)
            written += len(unit)
            if progress is not None:
                progress(written, len(todo))
    except Exception:                    # noqa: BLE001 - the processes failed: go on here
        if os.environ.get("COMPANION_DEBUG"):
            raise
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    return written


# ---------------------------------------------------------------------------
# import / export
# ---------------------------------------------------------------------------
#: record files in one import
MAX_IMPORT_FILES = 10_000


def read_any_record(path: str | Path) -> JSON:
    """A record file of either game through the one bounded reader
    (companion.core.record), its shape and limits checked (no replay)."""
    from ..core.record import parse_json, read_text
    text = read_text(path)
    if not text.strip():
        raise CompanionError("the file is empty")
    rec = parse_json(text, str(path))
    if isinstance(rec, dict) and rec.get("format") == IMPORTED_FORMAT:
        plays_import.validate_record(rec)    # a play imported from another logger
        return rec
    registry.validate_record(rec)
    record: JSON = rec                         # validate_record refuses all but an object
    return record


class ImportedRecords(list[str]):
    """What :func:`import_records` did (issue 37): the new games' ids (the list itself,
    as before), ``already``: ``(file, the game already there)`` for each record the
    store already had (the same record: :func:`record_identity`), ``replaced``:
    the plays imported from another logger that a record of the same play replaced, and
    ``continued``: ``(file, the game, actions added)`` for each record that is a stored
    game played on after it was exported (the same setup and seed, the stored actions
    its first ones): the stored game gets the actions it lacks."""

    def __init__(self, ids: Iterable[str] = (), already: Iterable[tuple[str, str]] = (),
                 replaced: Iterable[str] = (),
                 continued: Iterable[tuple[str, str, int]] = ()) -> None:
        super().__init__(ids)
        self.already: list[tuple[str, str]] = list(already)
        self.replaced: list[str] = list(replaced)
        self.continued: list[tuple[str, str, int]] = list(continued)


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _setup_key(fmt: Any, setup: Any) -> str:
    import hashlib
    return hashlib.sha256(_canon([fmt or registry.DEFAULT_FORMAT, setup]).encode()).hexdigest()


def record_identity(rec: JSON) -> str:
    """What makes two records the same game, whatever their file is called: its
    format, its setup (with its seed: every new game has its own) and its actions;
    not its meta (title, play details) nor its cards' typed values.  An imported
    play's is its key (``setup.key``: its BG Stats uuid, BGG play id or content)."""
    import hashlib
    if rec.get("format") == IMPORTED_FORMAT:
        return f"play:{rec['setup']['key']}"
    return _setup_key(rec.get("format"), rec.get("setup")) + ":" + hashlib.sha256(
        _canon(rec.get("actions") or []).encode()).hexdigest()


def record_played(rec: JSON) -> float | None:
    """When a record was played: its ``meta.played`` (written by :func:`export_records`),
    else its play timer's start; None when it says neither."""
    m, tm = rec.get("meta"), None
    meta: dict[str, Any] = m if isinstance(m, dict) else {}
    tm = meta.get("timer")
    timer: dict[str, Any] = tm if isinstance(tm, dict) else {}
    for t in (meta.get("played"), timer.get("started")):
        if isinstance(t, (int, float)) and not isinstance(t, bool) and _played(t) > 0:
            return float(t)
    return None


def _play_content(rec: JSON, d: dict[str, Any] | None) -> str | None:
    """:func:`plays_import.content_hash` of a finished record (its game, day, players
    and scores), the same play as logged in BG Stats or on BGG; None when unknown."""
    if rec.get("format") == IMPORTED_FORMAT:
        s = rec["setup"]
        return plays_import.content_hash(s["game"], float(s["played"]), s["players"],
                                         s["scores"])
    played = record_played(rec)
    if d is None or not d["finished"] or played is None:
        return None
    players = list(d["players"])
    return plays_import.content_hash(d["format"], played, players,
                                     [d["results"].get(p, {}).get("total") for p in players])


#: the stored games of one setup (and seed): (id, title, their actions)
_SameSetup = dict[str, list[tuple[str, str, list[Any]]]]


def _stored_games(store: Store, setups: set[str]) -> tuple[dict[str, tuple[str, str]],
                                                           dict[str, tuple[str, str]],
                                                           _SameSetup]:
    """The stored games a new record may be: ({identity: (id, title)} of the games whose
    setup one of ``setups`` is, {play content: (id, title)} of the imported plays,
    {setup key: [(id, title, actions)]} of the games of those setups)."""
    same: dict[str, tuple[str, str]] = {}
    plays: dict[str, tuple[str, str]] = {}
    by_setup: _SameSetup = {}
    for gid, title, fmt, setup_text in store.query("SELECT id, title, format, setup FROM games"):
        try:
            setup = json.loads(setup_text)
            if fmt == IMPORTED_FORMAT:
                rec = {"format": fmt, "setup": setup}
                same[record_identity(rec)] = (gid, title or gid)
                plays[_play_content(rec, None) or ""] = (gid, title or gid)
            elif (key := _setup_key(fmt, setup)) in setups:
                stored = store.load(gid)
                same[record_identity(stored)] = (gid, title or gid)
                by_setup.setdefault(key, []).append(
                    (gid, title or gid, list(stored.get("actions") or [])))
        except (ValueError, TypeError, KeyError, AttributeError, CompanionError):
            continue                   # a damaged row: history flags it; it matches nothing
    plays.pop("", None)
    return same, plays, by_setup


def _played_on(rec: JSON, by_setup: _SameSetup) -> tuple[str, str, list[Any]] | None:
    """The stored game that ``rec`` continues: the same setup and seed, and its actions
    the record's first ones (the game was played on after it was exported)."""
    actions = list(rec.get("actions") or [])
    for gid, title, stored in by_setup.get(_setup_key(rec.get("format"), rec.get("setup")), []):
        if len(stored) < len(actions) and actions[:len(stored)] == stored:
            return gid, title, stored
    return None


def _further_along(rec: JSON, by_setup: _SameSetup) -> tuple[str, str] | None:
    """The stored game that has been played on past ``rec`` (an older export of it: the
    same setup and seed, the record's actions its first ones): (id, "title (N actions
    further in the store)")."""
    actions = list(rec.get("actions") or [])
    for gid, title, stored in by_setup.get(_setup_key(rec.get("format"), rec.get("setup")), []):
        if len(stored) > len(actions) and stored[:len(actions)] == actions:
            n = len(stored) - len(actions)
            return gid, f"{title} ({n} action{'' if n == 1 else 's'} further in the store)"
    return None


def _continue_game(store: Store, gid: str, stored: list[Any], rec: JSON) -> int:
    """Add to stored game ``gid`` the actions of ``rec`` after its own (each append checks
    the game's revision: a page that added one meanwhile makes it stop, refused), then the
    record's typed card values and manual entries (merged: none is lost).  The number of
    actions added."""
    rev = store.revision(gid)
    actions = list(rec.get("actions") or [])
    for index in range(len(stored), len(actions)):
        rev = store.append(gid, index, actions[index], rev=rev)
    if rec.get("cards"):
        store.merge_cards(gid, list(rec["cards"]))
    if rec.get("manual"):
        store.add_manual(gid, list(rec["manual"]))
    return len(actions) - len(stored)


def import_records(store: Store, paths: Iterable[str | Path], *,
                   progress: Progress | None = None) -> ImportedRecords:
    """Import record files (or every *.json in a folder).  Every file is read by
    the bounded reader and checked by replaying it before anything is stored: a
    bad file stops the import with a message naming it, and then nothing at all
    is imported.  ``progress(done, total)``: total is twice the number of files
    (each file is checked, then stored).  Refused before any file is read when the
    page's role may not import (companion.core.roles).

    Idempotent (issue 37): a record the store already has (:func:`record_identity`:
    the same game, whatever the file is called) is not stored again but listed in
    ``already``; a finished record of a play imported from BG Stats / BGG (the same
    game, day, players and scores) replaces that play (its location, notes, length
    and new players kept where the record has none), so they count as one play: the
    record's game, its date and the play's removal are one write (``Store.create(...,
    created=, replaces=)``); a record is dated when it was played
    (:func:`record_played`), not when imported, in the write that stores it."""
    _require(store, Write.IMPORT)
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        files += sorted(p.glob("*.json")) if p.is_dir() else [p]
        if len(files) > MAX_IMPORT_FILES:
            raise CompanionError(f"more than {MAX_IMPORT_FILES} record files in one import")
    checked: list[tuple[Path, JSON, dict[str, Any] | None]] = []
    total = 2 * len(files)
    if progress is not None and files:
        progress(0, total)
    for i, f in enumerate(files, 1):
        d = None
        try:
            rec = read_any_record(f)
            if rec.get("format") != IMPORTED_FORMAT:   # an imported play has nothing to replay
                try:
                    d = derive(rec)    # replayed and scored: its play, to match (issue 37)
                except CompanionError:
                    open_game(rec)     # the replay decides, as before
        except CompanionError as e:
            raise CompanionError(f"{f}: {_why(e)}") from None
        except Exception as e:       # a record the engine cannot replay: refused, not a crash
            if os.environ.get("COMPANION_DEBUG"):
                raise
            raise CompanionError(f"{f}: the record cannot be replayed ({type(e).__name__})") \
                from None
        checked.append((f, rec, d))
        if progress is not None:
            progress(i, total)
    if not files:
        raise CompanionError("no record files (*.json) to import")
    same, plays, by_setup = _stored_games(store, {_setup_key(r.get("format"), r.get("setup"))
                                                  for _, r, _ in checked})
    any_plays = any(r.get("format") == IMPORTED_FORMAT for _, r, _ in checked)
    stored_contents = plays_import.stored_contents(store) if any_plays else set()
    keys = plays_import.imported_keys(store) if any_plays else set()
    out = ImportedRecords()
    # the plays replaced by a record (the record's new id -> the play's record, title
    # and date): put back if the import fails later (issue 37)
    swapped: dict[str, tuple[JSON, str, float]] = {}
    try:
        for i, (f, rec, d) in enumerate(checked, 1):
            ident, content = record_identity(rec), _play_content(rec, d)
            there = same.get(ident) or (
                (ident, "the same play") if rec.get("format") == IMPORTED_FORMAT and (
                    ident[len("play:"):] in keys
                    or content in stored_contents) else None)
            later = None if there is not None or rec.get("format") == IMPORTED_FORMAT \
                else _played_on(rec, by_setup)
            if there is None and later is None and rec.get("format") != IMPORTED_FORMAT:
                there = _further_along(rec, by_setup)   # an older export of a stored game
            if there is not None:
                out.already.append((f.name, there[1]))
            elif later is not None:            # played on after its export: brought up to date
                gid, title, stored = later
                out.continued.append((f.name, title, _continue_game(store, gid, stored, rec)))
                same[ident] = (gid, title)
                key = _setup_key(rec.get("format"), rec.get("setup"))
                by_setup[key] = [(g, t, list(rec.get("actions") or []) if g == gid else a)
                                 for g, t, a in by_setup[key]]
            else:
                rec = dict(rec)
                played = record_played(rec)
                play = plays.pop(content, None) if content and rec.get("format") \
                    != IMPORTED_FORMAT else None
                old: tuple[JSON, str, float] | None = None
                if play is not None:            # the same play, logged elsewhere: one play
                    old = _kept_play(store, play[0])
                    rec["meta"] = _with_play_details(rec.get("meta"), old[0])
                meta = dict(rec.get("meta") or {})
                meta.pop("played", None)         # kept as the game's date, not in its meta
                rec["meta"] = meta
                # one write: the game, dated when it was played, and the play it replaces
                # removed with it (a failure keeps neither: never two plays of one game)
                gid = store.create(rec, title=meta.get("title"), write=Write.IMPORT,
                                   created=played, replaces=None if play is None else play[0])
                out.append(gid)
                if play is not None and old is not None:    # (both, or neither)
                    swapped[gid] = old
                    out.replaced.append(play[1])
                same[ident] = (gid, meta.get("title") or gid)
                if content:
                    stored_contents.add(content)
            if progress is not None:
                progress(len(files) + i, total)
    except Exception:
        # a write failed half-way: the games stored so far are taken out again, and a
        # play a record replaced comes back in the same write as the record goes
        for gid in out:
            try:
                if gid in swapped:
                    rec_, title, when = swapped[gid]
                    store.create(rec_, title=title, write=Write.IMPORT, created=when,
                                 replaces=gid)
                else:
                    store.delete(gid)
            except CompanionError:
                pass
        raise
    return out


def _kept_play(store: Store, gid: str) -> tuple[JSON, str, float]:
    """A stored game as :meth:`Store.create` takes it back: its record (the title out of
    its meta), its title and its stored date."""
    rec = store.load(gid)
    meta = dict(rec.get("meta") or {})
    title = str(meta.pop("title", None) or gid)
    row = store.query_one("SELECT created FROM games WHERE id=?", (gid,))
    return {**rec, "meta": meta}, title, float(row[0]) if row else time.time()


def _with_play_details(meta: Any, play: JSON) -> JSON:
    """A record's meta with the play details of the same play imported from another
    logger where the record has none (location, notes, length, new players)."""
    out = dict(meta or {})
    for k in ("location", "notes", "duration_min", "new_players"):
        v = (play.get("meta") or {}).get(k)
        if v and not out.get(k):
            out[k] = v
    return out


def import_summary(result: ImportedRecords) -> str:
    """What an import did, in words: "Imported 1 new game; 1 already there (a.json:
    Ann, Bea)" (the History tab; the command line says the same, then " into <store>")."""
    n = len(result)
    words = f"Imported {n} new game{'' if n == 1 else 's'}"
    return words + import_details(result)


def import_details(result: ImportedRecords) -> str:
    """The part of :func:`import_summary` after the count ("" when nothing more)."""
    words = ""
    if result.continued:
        words += (f"; {len(result.continued)} brought up to date ("
                  + "; ".join(f"{terminal_line(t)[:80]}: {n} more action{'' if n == 1 else 's'}"
                              for _, t, n in result.continued[:3])
                  + ("; …" if len(result.continued) > 3 else "") + ")")
    if result.replaced:
        words += (f"; {len(result.replaced)} replace{'s' if len(result.replaced) == 1 else ''} "
                  f"the same play imported from another logger ("
                  + ", ".join(terminal_line(t)[:80] for t in result.replaced[:3])
                  + (", …" if len(result.replaced) > 3 else "") + ")")
    if result.already:
        words += (f"; {len(result.already)} already there ("
                  + "; ".join(f"{terminal_line(f)[:60]}: {terminal_line(t)[:80]}"
                              for f, t in result.already[:3])
                  + ("; …" if len(result.already) > 3 else "") + ")")
    return words


def export_records(store: Store, folder: str | Path, ids: Collection[str] | None = None, *,
                   skipped: list[tuple[str, str]] | None = None,
                   progress: Progress | None = None) -> list[Path]:
    """Write each game's record as one JSON file into ``folder``.

    The file name is the game's id made safe (:func:`companion.core.safeio.safe_filename`:
    letters, digits, '-' and '_' only, unique in the folder), so no stored id can
    write outside ``folder``; a symbolic link in its place is not followed.  A
    game whose record cannot be read back is left out and listed in ``skipped``
    as ``(id, reason)``.  ``progress(done, total)`` after each game."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    root = folder.resolve()
    used: set[str] = set()
    out = []
    todo = [g for g in store.games(format=None) if ids is None or g["id"] in ids]
    created = {str(gid): _played(t) for gid, t in store.query("SELECT id, created FROM games")}
    created = {gid: t for gid, t in created.items() if t > 0}
    if progress is not None and todo:
        progress(0, len(todo))
    for done, g in enumerate(todo, 1):
        if progress is not None and done > 1:
            progress(done - 1, len(todo))
        try:
            rec = store.load(g["id"])
            if g["id"] in created and not isinstance(rec["meta"].get("played"), (int, float)):
                # the game's date travels with it (issue 37): imported, it keeps it
                rec["meta"]["played"] = created[g["id"]]
            data = dumps(rec).encode("utf-8")
        except Exception as e:          # a crafted or damaged row: reported, not a crash
            if os.environ.get("COMPANION_DEBUG"):
                raise
            if skipped is not None:
                skipped.append((g["id"], f"the stored record cannot be read ({type(e).__name__})"))
            continue
        path = folder / safe_filename(g["id"], used, suffix=".json")
        if path.resolve().parent != root:         # cannot happen with a safe name
            raise CompanionError(f"refusing to write {path} outside {folder}")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC
                         | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o644)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        except OSError as e:
            raise CompanionError(f"cannot write {path}: {e.strerror or type(e).__name__}") \
                from None
        out.append(path)
    if progress is not None and todo:
        progress(len(todo), len(todo))
    return out


PLAYS_COLUMNS = ["date", "game", "players", "scores", "winner", "game_id",
                 "duration_min", "location", "notes", "new_players"]


def plays_csv(store: Store, *, finished_only: bool = True,
              progress: Progress | None = None, synced: bool = False) -> str:
    """The documented interop CSV (docs/history.md): one row per game with
    date (YYYY-MM-DD), game, players (';'-separated, seat order), scores
    (';'-separated, same order), winner (';'-separated if shared), game_id,
    then the play details: duration_min (empty when unknown), location, notes,
    new_players (';'-separated).  ``synced=True``: the caller has just brought the
    derived tables up to date (the History tab), so no :func:`sync` first."""
    if not synced:
        sync(store, progress=progress)
    details = {}
    if has_details(store):
        details = {gid: (dur, loc, notes, new) for gid, dur, loc, notes, new in store.query(
            "SELECT game_id, duration_min, location, notes, new_players FROM g_details")}
    rows = []
    q = ("SELECT r.game_id, r.format, r.played, r.winners, r.finished FROM g_results r "
         "WHERE r.error IS NULL " + ("AND r.finished = 1 " if finished_only else "")
         + "ORDER BY r.played")
    # every game's players in one query (not one query per game: issue 26)
    seats: dict[str, list[tuple[str, Any]]] = {}
    for gid, p, total in store.query("SELECT game_id, player, total FROM g_players "
                                     "ORDER BY game_id, seat"):
        seats.setdefault(gid, []).append((p, total))
    won: dict[str, str] = {}             # each distinct winners text decoded once
    for gid, fmt, played, winners, finished in store.query(q):
        ps = seats.get(gid, [])
        if finished and winners not in won:
            won[winners] = ";".join(json.loads(winners))
        rows.append([time.strftime("%Y-%m-%d", time.localtime(played)), GAME_NAMES.get(fmt, fmt),
                    ";".join(p for p, _ in ps),
                    # a game waiting for values has no scores yet: the field is empty
                    "" if any(t is None for _, t in ps) else ";".join(str(t) for _, t in ps),
                    won[winners] if finished else "", gid]
                   + _detail_cells(details.get(gid)))
    # the one CSV writer: no cell runs as a formula in a spreadsheet (csvsafe)
    return rows_csv(rows, PLAYS_COLUMNS)


def _detail_cells(row: tuple[Any, ...] | None) -> list[Any]:
    if row is None:
        return ["", "", "", ""]
    dur, loc, notes, new = row
    return ["" if dur is None else dur, loc or "", notes or "",
            "" if new == "[]" else ";".join(json_or(new, []))]
