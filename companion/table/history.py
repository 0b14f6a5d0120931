"""Game history: import and export of records, and the plays CSV, over the derived
tables of companion.table.derived (kept in step with the store by :func:`sync`, from
each record derived by companion.table.derive); the names of both are offered here too,
as the History tab, the command line and the exports have always used them.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from collections.abc import Collection, Iterable
from typing import Any

from ..core.errors import CompanionError
from ..core.jsontypes import JSON
from ..core.record import dumps as dumps  # noqa: F401  (re-exported: the History tab uses it)
from ..core.roles import Write
from ..core.safeio import safe_filename, terminal_line
from . import plays_import, registry
from .csvsafe import rows_csv
from .derive import _played, _why, derive, open_game
from .derive import MAX_PLAYED as MAX_PLAYED, SCORE_LIMIT as SCORE_LIMIT, waits_for as waits_for
from .derived import _require, has_details, json_or, sync
from .derived import (current as current, has_summaries as has_summaries,
                      play_details as play_details, set_play_details as set_play_details,
                      sync_workers as sync_workers, DERIVED_TABLES as DERIVED_TABLES,
                      MAX_WORKERS as MAX_WORKERS, PARALLEL_MIN as PARALLEL_MIN,
                      WORKERS_ENV as WORKERS_ENV)
from .imported import IMPORTED_FORMAT
from .registry import GAME_NAMES  # noqa: F401  (importers use it)
from .store import Progress, Store


from .derive import _played, _why, derive, open_game
from .derive import MAX_PLAYED, SCORE_LIMIT, waits_for  # noqa: F401  (offered here too)
from .derived import _require, has_details, json_or, sync
from .derived import (current, has_summaries, play_details, set_play_details,  # noqa: F401
                      sync_workers, DERIVED_TABLES, MAX_WORKERS, PARALLEL_MIN, WORKERS_ENV)


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
