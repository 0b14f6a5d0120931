"""History's derived tables, kept in step with the store (issue 38: apart from the
imports and exports of companion.table.history, which use them).

The store keeps each record (setup + actions); :func:`sync` derives, for every game
changed since it was last derived (companion.table.derive), its result (finished?,
winners, the tiebreak step), each player's total with its breakdown, the VP per year,
the cards built with the VP each gave, and the objectives claimed; the play details
(``g_details``, from each record's meta); the summary tables.  Statistics
(:mod:`companion.table.stats`) read those tables and never replay a game.  A large sync
derives in worker processes (:func:`sync_workers`).
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from typing import Any

from ..core.errors import CompanionError, GameNotFound, StoreWriteFailed
from ..core.jsontypes import JSON
from ..core.roles import Role, Write, check as check_role
from . import registry
from .imported import IMPORTED_FORMAT
from .derive import _catalogue_changed, _check_derived, _played, _why, derive
# has_table / transaction as functions: _ensure_details also takes a read-only
# stand-in shaped like a Store (tests/test_play_details.py)
from .store import MemoryStore, Progress, Store, has_table, transaction


from .derive import _catalogue_changed, _check_derived, _played, _why, derive


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
