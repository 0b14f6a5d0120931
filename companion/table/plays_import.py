"""Plays logged in other loggers, brought into the history (issue 22, docs/history.md
"Import from other loggers", docs/record-format.md "Imported plays").

Two inputs:

- a **BG Stats** export (``.bgsplay`` / ``.json``: ``players``, ``locations``,
  ``games``, ``plays`` with ``playerScores``); its plays of Among the Stars and
  Small Star Empires are taken, a game matched by its name or by the BGG id set
  for it (companion.table.plays_export's settings, ``loggers.json``);
- **BoardGameGeek** plays XML (the shape of BGG's XML API 2 ``plays`` answer:
  ``<plays><play id date length location incomplete><item name objectid/>
  <comments/><players><player name score win new startposition/>``).

An imported play has no action record: it is stored as a record of the format
:data:`IMPORTED_FORMAT` whose ``setup`` holds what the file says (the game, the
date, the players in seat order, their scores, ranks and the winners, where it
came from) and whose ``meta`` holds the play details (location, notes, duration,
new players), with no actions.  :func:`derive` gives its result to the history
tables without replaying anything, so it counts in the statistics (the people
statistics too) like a game played here; it is never offered to resume.

Reading is all-or-nothing: the whole file is read and checked first (size, shape,
names, numbers; each id, number and date for its JSON type and size: the readers of
:mod:`companion.table.plays_readers`, issue 35); a bad file raises one
:class:`ImportRefused` line naming the file and the fault, and nothing is stored.  The
command line and the History tab both read through :func:`import_plays`.
A play already imported (the same BG Stats uuid or BGG play id; a play
with neither: the same date, game, players and scores) or a game of this table
exported and brought back (its BG Stats uuid is the one this companion wrote) is
skipped, never stored twice.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from collections.abc import Iterable, Mapping
from typing import Any

from ..core.errors import CompanionError
from ..core.jsontypes import JSON
from .registry import GAME_NAMES
from ..core.roles import Role, Write, check as check_role
from ..core.safeio import loads_json, read_bytes, decode
from .derived import has_details, sync
# an imported play's record: offered here too, as the History tab and docs name them
from .imported import (IMPORTED_FORMAT as IMPORTED_FORMAT, SOURCES as SOURCES, derive as derive,
                       validate_record as validate_record)
from .plays_export import own_play_uuid as _export_uuid
# the readers and their limits (companion.table.plays_readers, issue 38); their names
# stay here
from .plays_readers import (MAX_BGG_ID as MAX_BGG_ID, MAX_NAME as MAX_NAME,
                            MAX_PLAYERS as MAX_PLAYERS, MAX_PLAYS as MAX_PLAYS,
                            MAX_SEAT as MAX_SEAT, MAX_TIME as MAX_TIME, MIN_TIME as MIN_TIME,
                            SCORE_LIMIT as SCORE_LIMIT, ImportRefused as ImportRefused,
                            content_hash as content_hash, names as names,
                            parse_bgg_xml as parse_bgg_xml, parse_bgstats as parse_bgstats)
from .store import Progress, Store

#: the largest file read (a BG Stats export of a few thousand plays is a few MB)
MAX_FILE_BYTES = 20_000_000


def own_play_uuid(gid: str) -> str:
    """The BG Stats uuid companion.table.plays_export writes for the game ``gid``."""
    return _export_uuid(gid)


# ---------------------------------------------------------------------------
# files
# ---------------------------------------------------------------------------
def read_plays(path: str | Path, *,
               bgg_ids: Mapping[str, Any] | None = None) -> tuple[list[JSON], int]:
    """Every play of our two games in one file (BG Stats JSON or BGG XML, told
    apart by its first character); (plays, plays of other games).  One line and
    nothing stored for a file that is missing, too large, not UTF-8, malformed or
    hostile, or holds no play of Among the Stars or Small Star Empires."""
    fname = Path(path).name[:80]
    data = read_bytes(path, MAX_FILE_BYTES, what="plays file",
                      error=ImportRefused)
    text = decode(data, fname, error=ImportRefused)
    head = text.lstrip("\ufeff \t\r\n")[:1]
    if head == "<":
        plays, other = parse_bgg_xml(text, fname, bgg_ids=bgg_ids)
    elif head in ("{", "["):
        doc = loads_json(text, fname, limit=MAX_FILE_BYTES, what="plays file",
                         error=ImportRefused)
        plays, other = parse_bgstats(doc, fname, bgg_ids=bgg_ids)
    else:
        raise ImportRefused(f"{fname}: neither a BG Stats export (JSON) nor BoardGameGeek "
                            "plays XML")
    if not plays:
        raise ImportRefused(f"{fname}: no play of Among the Stars or Small Star Empires in it"
                            + (f" ({other:,} play(s) of other games)" if other else ""))
    return plays, other


def to_record(play: JSON) -> JSON:
    """The stored record of an imported play (docs/record-format.md)."""
    from .playtime import with_details
    meta = with_details({}, location=play["location"], notes=play["notes"],
                        new_players=play["new_players"], duration_min=play["duration_min"])
    meta["title"] = (f"{GAME_NAMES[play['format']]}, "
                     f"{time.strftime('%Y-%m-%d', time.localtime(play['played']))} "
                     f"({SOURCES[play['source']]})")
    return {"format": IMPORTED_FORMAT,
            "setup": {"game": play["format"], "players": play["players"],
                      "scores": play["scores"], "ranks": play["ranks"],
                      "winners": play["winners"], "played": play["played"],
                      "source": play["source"], "key": play["key"]},
            "actions": [], "meta": meta}


def imported_keys(store: Store) -> set[str]:
    """The keys of every play already here: imported ones (BG Stats uuid, BGG play
    id or content key) and the BG Stats uuid this companion writes for each of its
    own games (an exported game brought back is the same game)."""
    keys: set[str] = set()
    for gid, fmt, setup in store.query("SELECT id, format, setup FROM games"):
        if fmt == IMPORTED_FORMAT:
            try:
                k = json.loads(setup).get("key")
            except (ValueError, AttributeError):
                continue
            if isinstance(k, str):
                keys.add(k)
        else:
            keys.add(f"bgstats:{own_play_uuid(gid)}")
    return keys


def stored_contents(store: Store) -> set[str]:
    """:func:`content_hash` of every finished game already stored (played here or
    imported): the same play logged elsewhere too (BGG plays XML carries no uuid
    this companion knows, and two players may log one play twice) is not added again."""
    sync(store)
    when = "COALESCE(d.started, r.played)" if has_details(store) else "r.played"
    join = "LEFT JOIN g_details d USING (game_id) " if has_details(store) else ""
    seats: dict[str, list[tuple[str, int | None]]] = {}
    for gid, p, total in store.query("SELECT game_id, player, total FROM g_players "
                                     "ORDER BY game_id, seat"):
        seats.setdefault(gid, []).append((p, total))
    out = set()
    for gid, fmt, played in store.query(f"SELECT r.game_id, r.format, {when} FROM g_results r "
                                        f"{join}WHERE r.finished = 1 AND r.error IS NULL"):
        ps = seats.get(gid, [])
        try:
            out.add(content_hash(fmt, float(played), [p for p, _ in ps], [t for _, t in ps]))
        except (TypeError, ValueError, OverflowError, OSError):
            continue
    return out


def import_plays(store: Store, paths: Iterable[str | Path], *,
                 bgg_ids: Mapping[str, Any] | None = None,
                 progress: Progress | None = None) -> JSON:
    """Import the plays of our two games from BG Stats / BGG files: every file is
    read and checked first, then the new plays are stored (a host's write:
    :data:`Write.IMPORT`).  Returns ``{"imported": [game ids], "duplicates": n,
    "other_games": n}``.  A bad file: one line (:class:`ImportRefused`) and nothing
    stored."""
    check_role(getattr(store, "role", Role.HOST), Write.IMPORT)
    files = [Path(p) for p in paths]
    if not files:
        raise ImportRefused("no plays file to import")
    plays: list[JSON] = []
    other = 0
    for f in files:
        ps, o = read_plays(f, bgg_ids=bgg_ids)
        plays += ps
        other += o
    seen = imported_keys(store)
    stored = stored_contents(store)
    todo, dup = [], 0
    for p in plays:
        k = p["key"]                # a BG Stats uuid in upper case (parse_bgstats)
        if k in seen or p["content"] in stored:
            dup += 1
            continue
        seen.add(k)
        todo.append(p)
    if progress is not None and todo:
        progress(0, len(todo))
    ids: list[str] = []
    try:
        for i, p in enumerate(todo, 1):
            rec = to_record(p)
            ids.append(store.create(rec, title=rec["meta"].pop("title"), write=Write.IMPORT))
            if progress is not None:
                progress(i, len(todo))
    except Exception:
        # a write failed half-way (busy, read-only, disk full, or a fault of the companion):
        # the plays stored so far are taken out again, so the import changes nothing
        for gid in ids:
            try:
                store.delete(gid)
            except CompanionError:
                pass
        raise
    return {"imported": ids, "duplicates": dup, "other_games": other}


def summary(result: JSON) -> str:
    """The one line said after an import."""
    n, d, o = len(result["imported"]), result["duplicates"], result["other_games"]
    words = f"imported {n} play(s) of Among the Stars / Small Star Empires"
    if d:
        words += f"; {d} already here, skipped"
    if o:
        words += (f"; {o} play(s) of other games (or marked incomplete / ignored, or "
                  "without players) left out")
    return words
