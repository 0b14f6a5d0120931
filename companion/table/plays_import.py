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
names, numbers; each id, number and date for its JSON type and size: :func:`_ref`,
:func:`_whole`, issue 35); a bad file raises one :class:`ImportRefused` line naming
the file and the fault, and nothing is stored.  The command line and the History
tab both read through :func:`import_plays`.
A play already imported (the same BG Stats uuid or BGG play id; a play
with neither: the same date, game, players and scores) or a game of this table
exported and brought back (its BG Stats uuid is the one this companion wrote) is
skipped, never stored twice.
"""
from __future__ import annotations

import hashlib
import json
import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..core.errors import CompanionError
from ..core.jsontypes import JSON
from . import registry
from .registry import GAME_NAMES
from ..core.roles import Role, Write, check as check_role
from ..core.safeio import loads_json, name_problem, read_bytes, decode
from .derived import has_details, sync
# an imported play's record: offered here too, as the History tab and docs name them
from .imported import (IMPORTED_FORMAT as IMPORTED_FORMAT, SOURCES as SOURCES, derive as derive,
                       validate_record as validate_record)
from .plays_export import game_bgg_ids, own_play_uuid as _export_uuid
from .store import Progress, Store

#: the largest file read (a BG Stats export of a few thousand plays is a few MB)
MAX_FILE_BYTES = 20_000_000
#: plays in one file, players in one play
MAX_PLAYS = 20_000
MAX_PLAYERS = 10
#: a score's size (the history's SCORE_LIMIT)
SCORE_LIMIT = 1_000_000
#: a name: at most this many characters
MAX_NAME = 100
#: a seat's place in the order (BG Stats' seatOrder, BGG's startposition)
MAX_SEAT = 1_000
#: a BoardGameGeek id (a game's; BGG's are 6 digits now)
MAX_BGG_ID = 10**12
#: the dates a play may carry (1970-01-02 .. 2100-01-01)
MIN_TIME, MAX_TIME = 86_400, 4_102_444_800


def names() -> dict[str, str]:
    """{game name in lower case: record format}: the names matched (case and spacing
    aside) in another logger's file, of every registered game (``GameKind.import_names``)."""
    return {n: k.format for k in registry.kinds() for n in k.import_names}

_FORMULA = ("=", "+", "-", "@")
_MARKUP = re.compile(r"<\s*/?\s*[a-zA-Z!?]")


class ImportRefused(CompanionError):
    """A file that cannot be imported; the message is one line: the fault (``fault``:
    the file and what is wrong in it) and "; nothing was imported"."""

    def __init__(self, fault: str):
        self.fault = fault
        super().__init__(f"{fault}; nothing was imported")


def _fail(name: str, what: str) -> ImportRefused:
    return ImportRefused(f"{name}: {what}")


# ---------------------------------------------------------------------------
# the values of a file: each id, number and date is checked for its JSON type and
# its size before it is used (issue 35: a list as an id was a TypeError, "²" as a
# seat a ValueError); one line naming the file, the play and the field
# ---------------------------------------------------------------------------
def _kind(v: Any) -> str:
    """A JSON value as a message names it."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, str):
        return f"the text {v[:20]!r}"
    if isinstance(v, (int, float)):
        return f"the number {_short(v)}"
    return f"{type(v).__name__}"


def _short(v: Any) -> str:
    """A number as a message shows it: at most 20 characters."""
    text = repr(v)
    return text if len(text) <= 20 else f"{text[:12]}… ({len(text)} characters)"


def _ref(v: Any, field: str, where: str, fname: str) -> int | str | None:
    """An id of BG Stats' tables (``id``, ``gameRefId``, ``playerRefId``,
    ``locationRefId``): a whole number (or a text id); None when absent."""
    if v is None:
        return None
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip() and len(v) <= MAX_NAME:
        return v.strip()
    if isinstance(v, float):
        raise _fail(fname, f"{where}: {field} must be a whole number, not {_short(v)}")
    raise _fail(fname, f"{where}: {field} must be a number, not {_kind(v)}")


def _whole(v: Any, field: str, where: str, fname: str, lo: int, hi: int, *,
           unit: str = "") -> int | None:
    """An optional whole number from ``lo`` to ``hi``: a JSON number, or text of ASCII
    digits (BGG writes every number as text); None when absent or empty."""
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    n: Any = v
    if isinstance(v, float) and v.is_integer():
        n = int(v)
    if isinstance(v, str) and re.fullmatch(r"[+-]?[0-9]+", v.strip()):
        digits = len(v.strip().lstrip("+-"))
        if digits > 30:
            raise _fail(fname, f"{where}: {field} is a number of {digits:,} digits, out of "
                               f"range ({lo} to {hi})")
        n = int(v.strip())
    if not isinstance(n, int) or isinstance(n, bool):
        raise _fail(fname, f"{where}: {field} must be a whole number{unit}, not {_kind(v)}")
    if not lo <= n <= hi:
        raise _fail(fname, f"{where}: {field} {_short(v if isinstance(v, float) else n)} "
                           f"is out of range ({lo} to {hi})")
    return n


def _opt_text(v: Any, field: str, where: str, fname: str) -> str | None:
    """An optional text field (``uuid``): text or absent, never another JSON type."""
    if v is None or isinstance(v, str):
        return v
    raise _fail(fname, f"{where}: {field} must be text, not {_kind(v)}")


# ---------------------------------------------------------------------------
# checks shared by both readers
# ---------------------------------------------------------------------------
def _name(v: Any, where: str, fname: str) -> str:
    if not isinstance(v, str) or not v.strip():
        raise _fail(fname, f"{where}: a player without a name")
    name = v.strip()
    problem = name_problem(name, MAX_NAME)
    if problem:
        raise _fail(fname, f"{where}: the name {name[:30]!r} {problem}")
    if name.startswith(_FORMULA) or _MARKUP.search(name):
        raise _fail(fname, f"{where}: the name {name[:30]!r} looks like a formula or markup, "
                           "not a name")
    return name


def _text(v: Any, limit: int) -> str:
    if not isinstance(v, str):
        return ""
    from ..core.safeio import BAD_CHAR
    return BAD_CHAR.sub("", v).strip()[:limit]


def _score(v: Any, where: str, fname: str) -> int | None:
    """A score as the loggers write it ("42", 42, "" for none)."""
    if v is None or v == "":
        return None
    if isinstance(v, bool):
        raise _fail(fname, f"{where}: the score is not a number ({_kind(v)})")
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, str):
        s = v.strip()
        if not re.fullmatch(r"[+-]?\d{1,7}", s):
            raise _fail(fname, f"{where}: the score {s[:20]!r} is not a whole number")
        v = int(s)
    if not isinstance(v, int):
        raise _fail(fname, f"{where}: the score is not a whole number ({_kind(v)})")
    if not -SCORE_LIMIT <= v <= SCORE_LIMIT:
        raise _fail(fname, f"{where}: the score {_short(v)} is out of range")
    return v


def _ranks(scores: list[int | None], winners: list[bool],
           given: list[int | None]) -> list[int | None]:
    """Each seat's rank: the file's own ranks when it gives every one (BG Stats);
    else the winners first (rank 1), then the others by score (equal scores, equal
    rank); None for all when a non-winner's score is unknown."""
    if given and all(isinstance(r, int) and r > 0 for r in given):
        return list(given)
    n_win = sum(winners)
    out: list[int | None] = []
    for s, w in zip(scores, winners):
        if w:
            out.append(1)
        elif s is None or any(x is None for x, ww in zip(scores, winners) if not ww):
            out.append(None)
        else:
            out.append(1 + n_win + sum(1 for x, ww in zip(scores, winners)
                                       if not ww and x is not None and x > s))
    return out


def _play(fname: str, where: str, *, source: str, key: str, fmt: str, played: float,
          seats: list[tuple[str, int | None, bool, bool, int | None]], location: Any,
          notes: Any, duration: Any, duration_field: str) -> JSON:
    """One imported play, checked: ``seats`` is (name, score, winner, new, rank)."""
    if not seats:
        raise _fail(fname, f"{where}: a play without players")
    if len(seats) > MAX_PLAYERS:
        raise _fail(fname, f"{where}: {len(seats)} players; a play has at most {MAX_PLAYERS}")
    names = [s[0] for s in seats]
    if len(set(names)) != len(names):
        raise _fail(fname, f"{where}: two players with the same name")
    if not MIN_TIME <= played <= MAX_TIME:
        raise _fail(fname, f"{where}: the date is out of range")
    from .playtime import MAX_MINUTES
    dur = _whole(duration, f"the duration ({duration_field})", where, fname, 0, MAX_MINUTES,
                 unit=" of minutes") or None
    from .playtime import MAX_LOCATION, MAX_NOTES
    scores = [s[1] for s in seats]
    winners = [s[2] for s in seats]
    return {"source": source, "key": key, "format": fmt, "played": float(played),
            "content": content_hash(fmt, played, names, [s[1] for s in seats]),
            "players": names, "scores": scores,
            "ranks": _ranks(scores, winners, [s[4] for s in seats]),
            "winners": [n for n, w in zip(names, winners) if w],
            "new_players": [s[0] for s in seats if s[3]],
            "location": _text(location, MAX_LOCATION), "notes": _text(notes, MAX_NOTES),
            "duration_min": dur}


def content_hash(fmt: str, played: float, names: Sequence[str],
                 scores: Sequence[int | None]) -> str:
    """What a play is without any id: its game, day (local time), players in seat
    order and scores."""
    text = json.dumps([fmt, time.strftime("%Y-%m-%d", time.localtime(played)), list(names),
                       list(scores)])
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _content_key(source: str, fmt: str, played: float, names: Sequence[str],
                scores: Sequence[int | None]) -> str:
    """The key of a play that carries no id of its own."""
    return f"{source}:content:{content_hash(fmt, played, names, scores)}"


def _game_of(name: Any, bgg_id: Any, ids: Mapping[str, int | None]) -> str | None:
    """The record format of a logger's game (its name, else its BGG id), or None."""
    if isinstance(name, str):
        fmt = names().get(" ".join(name.lower().split()))
        if fmt:
            return fmt
    bid = bgg_id if isinstance(bgg_id, int) else None     # checked by the reader (_whole)
    if bid:
        for game, gid in ids.items():
            if gid == bid:
                return names().get(game.lower(), None)
    return None


def _bgg_ids(bgg_ids: Mapping[str, Any] | None) -> dict[str, int | None]:
    """The BGG id of each game that has one: the given ones, else the table's settings
    (loggers.json)."""
    return {g: v for g, v in game_bgg_ids(bgg_ids).items() if v}


def own_play_uuid(gid: str) -> str:
    """The BG Stats uuid companion.table.plays_export writes for the game ``gid``."""
    return _export_uuid(gid)


# ---------------------------------------------------------------------------
# BG Stats
# ---------------------------------------------------------------------------
def _local_time(text: Any, where: str, fname: str) -> float:
    """BG Stats' ``playDate`` ("YYYY-MM-DD HH:MM:SS", the phone's local time)."""
    if text is None:
        raise _fail(fname, f"{where}: no playDate")
    if not isinstance(text, str):
        raise _fail(fname, f"{where}: playDate must be text (YYYY-MM-DD HH:MM:SS), "
                           f"not {_kind(text)}")
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return time.mktime(time.strptime(text.strip()[:19], fmt))
        except (ValueError, OverflowError):
            continue
    raise _fail(fname, f"{where}: the date {text[:30]!r} is not YYYY-MM-DD HH:MM:SS")


def parse_bgstats(doc: Any, fname: str = "file", *,
                  bgg_ids: Mapping[str, Any] | None = None) -> tuple[list[JSON], int]:
    """The plays of our two games in a BG Stats export; (plays, plays of other games)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("plays"), list):
        raise _fail(fname, "not a BG Stats export (no list of plays)")
    ids = _bgg_ids(bgg_ids)

    def table(key: str) -> dict[Any, Any]:
        rows = doc.get(key) or []
        if not isinstance(rows, list):
            raise _fail(fname, f"'{key}' is not a list")
        out: dict[Any, Any] = {}
        for n, r in enumerate(rows, 1):
            rid = _ref(r.get("id"), "id", f"{key} {n}", fname) if isinstance(r, dict) else None
            if rid is not None:
                out[rid] = r
        return out

    players, games, locations = table("players"), table("games"), table("locations")
    if len(doc["plays"]) > MAX_PLAYS:
        raise _fail(fname, f"{len(doc['plays']):,} plays; at most {MAX_PLAYS:,} in one file")
    out, other = [], 0
    for i, p in enumerate(doc["plays"], 1):
        where = f"play {i}"
        if not isinstance(p, dict):
            raise _fail(fname, f"{where} is not an object")
        g = games.get(_ref(p.get("gameRefId"), "gameRefId", where, fname))
        if not isinstance(g, dict):
            raise _fail(fname, f"{where}: its game (gameRefId) is not in the file")
        fmt = _game_of(g.get("name"), _whole(g.get("bggId"), "its game's bggId", where, fname,
                                             0, MAX_BGG_ID), ids)
        if fmt is None:
            other += 1
            continue
        if p.get("ignored") in (True, 1):
            other += 1
            continue
        scores = p.get("playerScores")
        if not isinstance(scores, list):
            raise _fail(fname, f"{where}: no playerScores")
        if not scores:           # logged without players: nothing to count
            other += 1
            continue
        if len(scores) > MAX_PLAYERS:
            raise _fail(fname, f"{where}: {len(scores)} players; a play has at most "
                               f"{MAX_PLAYERS}")
        if not all(isinstance(s, dict) for s in scores):
            raise _fail(fname, f"{where}: a player score is not an object")
        seat_order = [_whole(s.get("seatOrder"), "seatOrder", where, fname, 0, MAX_SEAT)
                      for s in scores]
        seats = []
        for k in sorted(range(len(scores)), key=lambda k: (
                k if seat_order[k] is None else seat_order[k], k)):
            s = scores[k]
            pl = players.get(_ref(s.get("playerRefId"), "playerRefId", where, fname))
            if not isinstance(pl, dict):
                raise _fail(fname, f"{where}: a player (playerRefId) is not in the file")
            # rank 0: not given (BG Stats); a real export's rank may pass the number of
            # players it lists (a play of 1 listed player, rank 2)
            rank = _whole(s.get("rank"), "rank", where, fname, 0, MAX_SEAT) or None
            seats.append((_name(pl.get("name"), where, fname),
                          _score(s.get("score"), where, fname),
                          s.get("winner") in (True, 1), s.get("newPlayer") in (True, 1),
                          rank))
        played = _local_time(p.get("playDate"), where, fname)
        loc = locations.get(_ref(p.get("locationRefId"), "locationRefId", where, fname))
        uid = _opt_text(p.get("uuid"), "uuid", where, fname)
        key = f"bgstats:{uid.strip().upper()}" if isinstance(uid, str) and uid.strip() \
            else _content_key("bgstats", fmt, played, [s[0] for s in seats],
                              [s[1] for s in seats])
        out.append(_play(fname, where, source="bgstats", key=key, fmt=fmt, played=played,
                         seats=seats, location=loc.get("name") if isinstance(loc, dict) else "",
                         notes=p.get("comments"), duration=p.get("durationMin"),
                         duration_field="durationMin"))
    return out, other


# ---------------------------------------------------------------------------
# BoardGameGeek plays XML
# ---------------------------------------------------------------------------
def parse_bgg_xml(text: str, fname: str = "file", *,
                  bgg_ids: Mapping[str, Any] | None = None) -> tuple[list[JSON], int]:
    """The plays of our two games in BGG plays XML; (plays, plays of other games).
    A document type or entity declaration is refused before parsing (no entity
    expansion, no external resource)."""
    if re.search(r"<!\s*(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        raise _fail(fname, "the XML declares a document type or entities; plays XML has none")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise _fail(fname, f"not well-formed XML ({str(e)[:80]})") from None
    if root.tag != "plays":
        raise _fail(fname, f"not BoardGameGeek plays XML (the root is <{root.tag[:30]}>, "
                           "not <plays>)")
    ids = _bgg_ids(bgg_ids)
    found = root.findall("play")
    if len(found) > MAX_PLAYS:
        raise _fail(fname, f"{len(found):,} plays; at most {MAX_PLAYS:,} in one file")
    out, other = [], 0
    for i, p in enumerate(found, 1):
        pid = _whole(p.get("id"), "its id", f"play {i}", fname, 0, MAX_BGG_ID)
        where = f"play {pid or i}"
        item = p.find("item")
        if item is None:
            raise _fail(fname, f"{where}: no <item> (the game)")
        fmt = _game_of(item.get("name"), _whole(item.get("objectid"), "the objectid of its "
                                                "<item>", where, fname, 0, MAX_BGG_ID), ids)
        if fmt is None or p.get("incomplete") == "1":
            other += 1
            continue
        date = p.get("date") or ""
        try:
            played = time.mktime(time.strptime(date.strip(), "%Y-%m-%d"))
        except (ValueError, OverflowError):
            raise _fail(fname, f"{where}: the date {date[:30]!r} is not YYYY-MM-DD") from None
        ps = p.find("players")
        rows = list(ps.findall("player")) if ps is not None else []
        if not rows:             # logged as a play count only: no players, nothing to count
            other += 1
            continue
        if len(rows) > MAX_PLAYERS:
            raise _fail(fname, f"{where}: {len(rows)} players; a play has at most {MAX_PLAYERS}")
        start = [_whole(r.get("startposition"), "a player's startposition", where, fname,
                        0, MAX_SEAT) for r in rows]
        rows = [r for _, _, r in sorted(
            ((1_000_000 if pos is None else pos, k, r) for k, (pos, r)
             in enumerate(zip(start, rows))), key=lambda t: t[:2])]
        seats: list[tuple[str, int | None, bool, bool, int | None]] = []
        for r in rows:
            seats.append((_name(r.get("name") or r.get("username"), where, fname),
                          _score(r.get("score"), where, fname), r.get("win") == "1",
                          r.get("new") == "1", None))
        key = f"bgg:{pid}" if pid else _content_key(
            "bgg", fmt, played, [s[0] for s in seats], [s[1] for s in seats])
        c = p.find("comments")
        out.append(_play(fname, where, source="bgg", key=key, fmt=fmt, played=played,
                         seats=seats, location=p.get("location") or "",
                         notes=c.text if c is not None else "", duration=p.get("length"),
                         duration_field="length"))
    return out, other


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
        raise _fail(fname, "neither a BG Stats export (JSON) nor BoardGameGeek plays XML")
    if not plays:
        raise _fail(fname, "no play of Among the Stars or Small Star Empires in it"
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
