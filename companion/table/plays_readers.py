"""The two readers of another logger's file (issue 22): a **BG Stats** export (JSON)
and **BoardGameGeek** plays XML, each giving the plays of the registered games in it,
every value checked first (each id, number and date for its JSON type and size:
:func:`_ref`, :func:`_whole`, issue 35; names, scores, dates, the number of plays and
players).  A bad value raises one :class:`ImportRefused` line naming the file, the
play and the field.

Apart from :mod:`companion.table.plays_import` (which reads a file through these,
tells the plays already here apart and stores the new ones, and keeps these names
too): nothing here touches a store.
"""
from __future__ import annotations

import hashlib
import json
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import CompanionError
from ..core.jsontypes import JSON
from . import registry
from ..core.safeio import name_problem
from .plays_export import game_bgg_ids

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
