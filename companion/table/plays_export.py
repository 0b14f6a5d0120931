"""Plays to other loggers: BG Stats' play file (JSON) and its "create play" link,
BoardGameGeek's play XML (docs/history.md, "Plays to other loggers").

Everything is read from the derived tables (:func:`companion.table.history.sync` keeps
them in step) and the stored records' setup, cards and meta: no game is
replayed.  :func:`plays` gives each play as a plain dict; the writers turn those
into the two formats.

Sources for the two formats (field names, not guessed; docs/history.md documents
every field):

* BG Stats: the keys a real BG Stats export has at every level (issue 22's
  comparison with a real 217-play export; a public description of the export of
  app v5.7.1, trimmed in tests/data/real/bgstats_export_trimmed.json), a play file
  exported by the app (pastebin.com/iDbHyBui), the bgsplay writer of
  github.com/ctuncan/bga_bgstats and readers of such files (``userInfo.meRefId``
  read first; ``expansionPlays`` as ``{"gameRefId", "bggId"}``).  Dates are local
  time "YYYY-MM-DD HH:MM:SS" like the app's own exports; uuids upper-case like
  the app's.  The "create play" link is
  ``https://app.bgstatsapp.com/createPlay.html?data=`` + the URL-encoded JSON of
  one play (sourceName, sourcePlayId, playDate, game{name, sourceGameId, bggId,
  highestWins, noPoints}, players[{name, sourcePlayerId, score, winner, ...}]), as
  several open-source companions send it; what is not known is left out.  No
  source shows a per-category field in a play, so the breakdown travels as
  scoresheet rows in ``comments`` (one line per scoring category).
* BoardGameGeek: the plays XML its XML API 2 returns (``/xmlapi2/plays``; a real
  answer trimmed in tests/data/real/bgg_plays_trimmed.xml), as read by bgg-api's
  plays loader (boardgamegeek/loaders/plays.py): ``<plays username userid total
  page termsofuse>``, ``<play id date quantity length incomplete nowinstats
  location>`` with ``<item name objecttype="thing" objectid>`` and its
  ``<subtypes>``, ``<comments>`` and ``<players><player username userid name
  startposition color score new rating win/></players>``.

BoardGameGeek ids are never guessed: they come from the settings file
``loggers.json`` in the companion's data folder (:func:`load_settings`,
:func:`save_bgg_ids`) or from the caller, and stay absent (BG Stats) / empty
(BGG) until set.
"""
from __future__ import annotations

import json
import os
import time
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias, overload
from urllib.parse import quote

from ..core.errors import CompanionError
from ..core.jsontypes import JSON
from .derived import json_or, has_details, has_summaries, sync
from . import registry
from .registry import GAME_NAMES
from ..core.paths import user_dir
from .store import Progress, Store

class _LoggerNames(Sequence[str]):
    """The names other loggers know every registered game and its expansions by
    (``GameKind.logger_names``), in the order the games were registered."""

    def _names(self) -> tuple[str, ...]:
        return tuple(n for k in registry.kinds() for n in k.logger_names)

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[str, ...]: ...

    def __getitem__(self, i: int | slice) -> str | tuple[str, ...]:
        return self._names()[i]

    def __len__(self) -> int:
        return len(self._names())

    def __repr__(self) -> str:
        return repr(self._names())


#: {game or expansion: its BoardGameGeek id, None until the player sets it}
BggIds: TypeAlias = dict[str, int | None]
#: the settings file: ``{"bgg_ids": BggIds}``
Settings: TypeAlias = dict[str, BggIds]

#: the games (and expansions) that can have a BoardGameGeek id, by name
GAMES: Sequence[str] = _LoggerNames()
SETTINGS_FILE = "loggers.json"
SOURCE_NAME = "Star Companion"
CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html"
ABOUT = ("This is a Play file that can be read by Board Game Stats, written by the Among the "
         "Stars / Small Star Empires table companion.")
#: fixed namespace, so a play, player or game keeps its uuid from one export to the next
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://example.invalid/star-companion/plays")
#: the largest BoardGameGeek id accepted
MAX_BGG_ID = 10_000_000
#: our BGG play ids start here (BGG's own are far below; see :func:`bgg_play_id`)
BGG_PLAY_ID_BASE = 1_000_000_000
#: the root's ``termsofuse``, as BoardGameGeek's XML API 2 writes it
BGG_TERMS = "https://boardgamegeek.com/xmlapi/termsofuse"


# ---------------------------------------------------------------------------
# settings: BoardGameGeek ids
# ---------------------------------------------------------------------------
def settings_path() -> Path:
    return user_dir() / SETTINGS_FILE


def _check_id(name: str, v: object) -> int | None:
    if v is None or v == "":
        return None
    if isinstance(v, str) and v.strip().isdigit():
        v = int(v.strip())
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_BGG_ID:
        raise CompanionError(f"the BoardGameGeek id of {name} must be a whole number "
                             f"1..{MAX_BGG_ID}, not {str(v)[:20]!r}")
    return v


def load_settings(path: str | Path | None = None) -> Settings:
    """``{"bgg_ids": {game: id or None}}`` from the settings file (every game of
    :data:`GAMES`; None until the player sets it).  A missing file gives no ids;
    a broken one raises, naming it."""
    from ..core.safeio import read_json
    path = Path(path) if path else settings_path()
    ids: dict[str, int | None] = {g: None for g in GAMES}
    if not path.exists():
        return {"bgg_ids": ids}
    data = read_json(path, 100_000, what="settings file",
                     error=lambda m: CompanionError(f"{path}: {m}"))
    raw = data.get("bgg_ids") if isinstance(data, dict) else None
    if not isinstance(raw, dict):
        raise CompanionError(f"{path}: expected {{\"bgg_ids\": {{game: id}}}}")
    for g in GAMES:
        ids[g] = _check_id(g, raw.get(g))
    return {"bgg_ids": ids}


def save_bgg_ids(ids: Mapping[str, Any], path: str | Path | None = None) -> Settings:
    """Set BoardGameGeek ids (``{game: id}``; None or "" clears one) and write the
    settings file; returns the settings."""
    path = Path(path) if path else settings_path()
    s = load_settings(path)
    for g, v in ids.items():
        if g not in GAMES:
            raise CompanionError(f"no game called {str(g)[:60]!r}: one of {', '.join(GAMES)}")
        s["bgg_ids"][g] = _check_id(g, v)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(s, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return s


def parse_bgg_ids(items: Iterable[object] | None) -> BggIds:
    """``["Small Star Empires=12345", ...]`` (the CLI's --bgg-id) as a dict."""
    out: BggIds = {}
    for it in items or []:
        name, sep, value = str(it).rpartition("=")
        if not sep or name.strip() not in GAMES:
            raise CompanionError(f"--bgg-id takes GAME=ID with GAME one of {', '.join(GAMES)}")
        out[name.strip()] = _check_id(name.strip(), value.strip())
    return out


def game_bgg_ids(bgg_ids: Mapping[str, Any] | None) -> BggIds:
    """``{game: BGG id or None}`` for every game: the given ids (checked), else the
    settings file's (loggers.json)."""
    if bgg_ids is None:
        return load_settings()["bgg_ids"]
    return {g: _check_id(g, bgg_ids.get(g)) for g in GAMES}


# ---------------------------------------------------------------------------
# the plays, from the derived tables
# ---------------------------------------------------------------------------
def plays(store: Store, ids: Collection[str] | None = None, *, finished_only: bool = True,
          progress: Progress | None = None) -> list[JSON]:
    """Every stored play (finished games only, unless ``finished_only=False``),
    oldest first, as plain dicts:

    ``game_id, format, game, played`` (timestamp: the timer's start, else when the
    game was stored), ``finished, duration_min`` (None when unknown),
    ``location, notes, new_players, expansions, decided_by, explanation`` (the
    engine's sentence, e.g. the tiebreak), ``start_player``, ``board`` and
    ``players``: one dict per seat with ``name, seat, score`` (None while
    unknown), ``rank, winner, role`` (race / colour or None), ``new, start,
    breakdown`` ({category: VP}).  A game whose record no longer replays is left
    out.  ``progress(done, total)`` reports the sync (see history.sync)."""
    sync(store, progress=progress)
    det = ("d.started, d.duration_min, d.location, d.notes, d.new_players, d.expansions, "
           "d.explanation, d.roles" if has_details(store) else ", ".join(["NULL"] * 8))
    q = ("SELECT r.game_id, r.format, r.played, r.finished, r.decided_by, r.winners, g.setup, "
         f"g.cards, {det} FROM g_results r JOIN games g ON g.id = r.game_id "
         + ("LEFT JOIN g_details d ON d.game_id = r.game_id " if has_details(store) else "")
         + "WHERE r.error IS NULL " + ("AND r.finished = 1 " if finished_only else "")
         + "ORDER BY r.played, r.game_id")
    seats: dict[str, list[tuple[Any, ...]]] = {}
    for gid, p, seat, rank, total, won, bd in store.query(
            "SELECT game_id, player, seat, rank, total, won, breakdown FROM g_players "
            "ORDER BY game_id, seat"):
        seats.setdefault(gid, []).append((p, seat, rank, total, won, bd))
    built: dict[str, set[str]] = {}
    # g_card_sums (store schema 4) has one row per game and card already
    for gid, card in store.query("SELECT game_id, card FROM g_card_sums" if has_summaries(store)
                                 else "SELECT DISTINCT game_id, card FROM g_cards"):
        built.setdefault(gid, set()).add(card)
    out = []
    for (gid, fmt, played, finished, decided, winners, setup, cards, started, dur, loc, notes,
         new, exp, expl, roles) in store.query(q):
        if ids is not None and gid not in ids:
            continue
        setup = json_or(setup, {})
        names = [p for p, *_ in seats.get(gid, [])]
        new = json_or(new, [])
        declared = json_or(exp, [])
        roles = json_or(roles, {})
        kind = registry.kind_of(fmt)
        expansions = kind.expansions(setup, json_or(cards, []), built.get(gid, set()), declared)
        start = kind.start_player(setup, names) if names else None
        win = set(json_or(winners, [])) if finished else set()
        key = setup.get("key") if isinstance(setup, dict) else None
        out.append({
            "game_id": gid, "format": fmt, "game": GAME_NAMES.get(fmt, str(fmt)),
            # an imported play (docs/record-format.md): the other logger's own id
            "source_key": key if isinstance(key, str) else None,
            "played": started if started is not None else played,
            "finished": bool(finished), "duration_min": dur,
            "location": loc or "", "notes": notes or "", "new_players": new,
            "expansions": expansions, "decided_by": decided, "explanation": expl,
            # an imported play's board is not in its file: left unknown, not "standard"
            "start_player": start, "board": "" if isinstance(key, str) else kind.board(setup),
            "players": [{"name": p, "seat": seat, "score": total, "rank": rank,
                         "winner": p in win, "role": roles.get(p), "new": p in new,
                         "start": p == start, "breakdown": json_or(bd, {})}
                        for p, seat, rank, total, won, bd in seats.get(gid, [])]})
    out.sort(key=lambda p: (p["played"], p["game_id"]))
    return out


def scoresheet_rows(play: JSON) -> list[str]:
    """The per-category breakdown as scoresheet rows, one per scoring category:
    ``"credits: Ann 35, Bea 34"``, then ``"total: Ann 44, Bea 37"``."""
    cats: list[str] = []
    for p in play["players"]:
        cats += [k for k in p["breakdown"] if k not in cats]
    rows = [f"{k.replace('_', ' ')}: " + ", ".join(f"{p['name']} {p['breakdown'].get(k, 0)}"
                                                   for p in play["players"]) for k in cats]
    if cats and all(p["score"] is not None for p in play["players"]):
        rows.append("total: " + ", ".join(f"{p['name']} {p['score']}" for p in play["players"]))
    return rows


def comments(play: JSON) -> str:
    """The play's comments: the tiebreak sentence (when a tiebreak decided the
    game), the players' notes, the expansions, then the scoresheet rows."""
    parts = []
    if play["explanation"] and play["decided_by"] not in (None, "vp"):
        parts.append(play["explanation"])
    if play["notes"]:
        parts.append(play["notes"])
    if play["expansions"]:
        parts.append("Expansions: " + ", ".join(play["expansions"]))
    rows = scoresheet_rows(play)
    if rows:
        parts.append("Scoresheet:\n" + "\n".join(rows))
    return "\n\n".join(parts)


def _local(t: float) -> str:
    """A timestamp as BG Stats writes its dates: local time, ``YYYY-MM-DD HH:MM:SS``."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


# ---------------------------------------------------------------------------
# BG Stats
# ---------------------------------------------------------------------------
def _uid(kind: str, key: str) -> str:
    """A stable uuid, upper-case like the app's own (``"1DB76738-9A83-..."``)."""
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{key}")).upper()


def _bgg_game(name: str, bgg_id: int | None, expansion: bool, gid: int, when: str) -> JSON:
    """A game as a real BG Stats export lists it: every key, 0 / "" when unknown,
    0/1 flags for base game and expansion.  ``bggName`` is the name: readers take
    ``bggName`` before ``name``."""
    return {"id": gid, "uuid": _uid("game", name), "name": name, "modificationDate": when,
            "cooperative": False, "highestWins": True, "noPoints": False, "usesTeams": False,
            "urlThumb": "", "urlImage": "", "bggName": name, "bggYear": 0,
            "bggId": bgg_id or 0, "designers": "", "isBaseGame": 0 if expansion else 1,
            "isExpansion": 1 if expansion else 0, "rating": 0, "minPlayerCount": 0,
            "maxPlayerCount": 0, "minPlayTime": 0, "maxPlayTime": 0, "minAge": 0}


def bgstats_document(the_plays: list[JSON], *,
                     bgg_ids: Mapping[str, Any] | None = None) -> JSON:
    """BG Stats' play file for ``the_plays`` (from :func:`plays`), with the keys a
    real BG Stats export has at every level (docs/history.md, "BG Stats play
    file"): ``about``, ``players``, ``locations``, ``games``, ``plays`` and
    ``userInfo``.  Dates are local time; a game without a BoardGameGeek id has
    ``bggId`` 0; a play without a location has no ``locationRefId``."""
    bgg = game_bgg_ids(bgg_ids)
    players: dict[str, JSON] = {}
    games: dict[str, JSON] = {}
    locations: dict[str, JSON] = {}

    def game_ref(name: str, expansion: bool, when: str) -> int:
        if name not in games:
            games[name] = _bgg_game(name, bgg.get(name), expansion, len(games) + 1, when)
        ref: int = games[name]["id"]
        return ref

    out_plays = []
    for pl in the_plays:
        when = _local(pl["played"])
        gref = game_ref(pl["game"], False, when)
        scores = []
        for p in pl["players"]:
            if p["name"] not in players:
                players[p["name"]] = {"id": len(players) + 1, "uuid": _uid("player", p["name"]),
                                      "name": p["name"], "isAnonymous": False,
                                      "modificationDate": when}
            scores.append({"score": "" if p["score"] is None else str(p["score"]),
                           "winner": bool(p["winner"]), "newPlayer": bool(p["new"]),
                           "startPlayer": bool(p["start"]),
                           "playerRefId": players[p["name"]]["id"], "role": p["role"] or "",
                           "rank": p["rank"] or 0, "seatOrder": p["seat"]})
        exp = [{"gameRefId": game_ref(e, True, when), "bggId": bgg.get(e) or 0}
               for e in pl["expansions"]]
        play = {"uuid": play_uuid(pl), "modificationDate": when,
                "entryDate": when, "playDate": when, "usesTeams": False,
                "durationMin": pl["duration_min"] or 0, "ignored": False,
                "manualWinner": False, "rounds": 0, "bggId": 0, "importPlayId": 0}
        if pl["location"]:
            if pl["location"] not in locations:
                locations[pl["location"]] = {"id": len(locations) + 1,
                                             "uuid": _uid("location", pl["location"]),
                                             "name": pl["location"], "modificationDate": when}
            play["locationRefId"] = locations[pl["location"]]["id"]
        play.update({"gameRefId": gref, "board": pl["board"], "rating": 0, "nemestatsId": 0,
                     "scoringSetting": 0, "playImages": [], "comments": comments(pl),
                     "playerScores": scores, "expansionPlays": exp})
        out_plays.append(play)
    return {"about": ABOUT, "players": list(players.values()),
            "locations": list(locations.values()), "games": list(games.values()),
            "plays": out_plays, "userInfo": {"meRefId": 0}}


def write_bgstats(store: Store, path: str | Path, ids: Collection[str] | None = None, *,
                  finished_only: bool = True, bgg_ids: Mapping[str, Any] | None = None,
                  progress: Progress | None = None) -> int:
    """Write BG Stats' play file; returns the number of plays written."""
    return write_plays("bgstats", store, path, ids, finished_only=finished_only,
                       bgg_ids=bgg_ids, progress=progress)


def bgstats_text(the_plays: list[JSON], *, bgg_ids: Mapping[str, Any] | None = None) -> str:
    """BG Stats' play file of ``the_plays``, as text."""
    # ASCII with \u escapes: any name (even a lone surrogate) gives valid JSON
    return json.dumps(bgstats_document(the_plays, bgg_ids=bgg_ids), indent=1) + "\n"


def bgstats_play_data(play: JSON, *, bgg_ids: Mapping[str, Any] | None = None) -> JSON:
    """One play as BG Stats' "create play" link carries it.  What is not known
    is left out: a score or rank not yet known (a play still waiting for
    values), a duration, location, comments, board or BoardGameGeek id."""
    bgg = game_bgg_ids(bgg_ids)
    game = {"name": play["game"], "sourceGameId": play["format"], "highestWins": True,
            "noPoints": False}
    if bgg.get(play["game"]):
        game["bggId"] = bgg[play["game"]]
    players = []
    for p in play["players"]:
        d = {"name": p["name"], "sourcePlayerId": p["name"]}
        if p["score"] is not None:
            d["score"] = str(p["score"])
        d["winner"] = bool(p["winner"])
        if p["rank"]:
            d["rank"] = p["rank"]
        d.update({"seatOrder": p["seat"], "startPlayer": bool(p["start"]),
                  "role": p["role"] or "", "newPlayer": bool(p["new"])})
        players.append(d)
    data = {"sourceName": SOURCE_NAME, "sourcePlayId": play["game_id"],
            "playDate": _local(play["played"]), "game": game, "players": players}
    if play["duration_min"]:
        data["durationMin"] = play["duration_min"]
    if play["location"]:
        data["location"] = play["location"]
    text = comments(play)
    if text:
        data["comments"] = text
    if play["board"]:
        data["board"] = play["board"]
    return data


def bgstats_play_link(play: JSON, *, bgg_ids: Mapping[str, Any] | None = None) -> str:
    """BG Stats' "create play" link for one play (from :func:`plays`): the play as
    URL-encoded JSON.  Opening it on a phone with BG Stats installed creates the play."""
    data = json.dumps(bgstats_play_data(play, bgg_ids=bgg_ids), separators=(",", ":"))
    return f"{CREATE_PLAY_URL}?data={quote(data, safe='')}"


def play_link(store: Store, gid: str, *, bgg_ids: Mapping[str, Any] | None = None) -> str:
    """The "create play" link of one stored game (finished or not)."""
    found = [p for p in plays(store, {gid}, finished_only=False)]
    if not found:
        raise CompanionError(f"game {gid} has no play to send (its record no longer replays?)")
    return bgstats_play_link(found[0], bgg_ids=bgg_ids)


def qr_svg(link: str, *, scale: int = 3) -> str | None:
    """The link as a QR code (inline SVG, for a phone's camera), or None when the
    link is too long for a QR code."""
    import segno
    try:
        return segno.make(link, error="l", micro=False).svg_inline(scale=scale)
    except segno.DataOverflowError:
        return None


# ---------------------------------------------------------------------------
# BoardGameGeek
# ---------------------------------------------------------------------------
def _x(text: object) -> str:
    """Text XML 1.0 can hold: characters it cannot (control characters, lone
    surrogates, U+FFFE/U+FFFF) become U+FFFD; xml.etree escapes the rest."""
    return "".join(ch if ch in "\t\n\r" or ("\x20" <= ch <= "\ud7ff")
                   or ("\ue000" <= ch <= "\ufffd") or ch >= "\U00010000" else "\ufffd"
                   for ch in str(text))


def bgg_play_id(game_id: str) -> int:
    """The ``id`` of a play in our XML: not a BoardGameGeek play id (only BGG gives
    those) but a stable number from the game's id, 1_000_000_000..1_999_999_999
    (above BGG's own play ids, below 2**31), the same in every export."""
    return BGG_PLAY_ID_BASE + uuid.uuid5(NAMESPACE, f"bgg-play:{game_id}").int % BGG_PLAY_ID_BASE


def play_uuid(pl: JSON) -> str:
    """A play's BG Stats uuid: the one BG Stats gave it when it was imported from a BG
    Stats file (so sending it back does not add it twice), else a stable uuid made
    from the game's id."""
    key = pl.get("source_key") or ""
    return key[len("bgstats:"):] if key.startswith("bgstats:") else own_play_uuid(pl["game_id"])


def own_play_uuid(game_id: str) -> str:
    """The BG Stats uuid of a game played here (stable, the same in every export)."""
    return _uid("play", game_id)


def bgg_id_of(pl: JSON) -> int:
    """A play's id in our BGG XML: BGG's own play id when it was imported from BGG,
    else :func:`bgg_play_id`."""
    key = pl.get("source_key") or ""
    tail = key[len("bgg:"):]
    return int(tail) if key.startswith("bgg:") and tail.isdigit() else bgg_play_id(pl["game_id"])


def bgg_element(the_plays: list[JSON], *, bgg_ids: Mapping[str, Any] | None = None) -> ET.Element:
    """BoardGameGeek's play XML as its XML API 2 returns a user's plays (docs/history.md,
    "BoardGameGeek play XML"): ``<plays username userid total page termsofuse>``
    with one ``<play id date quantity length incomplete nowinstats location>``
    per play, holding ``<item name objecttype objectid>`` (objectid only when the
    BoardGameGeek id is set) with its ``<subtypes>``, ``<comments>`` and
    ``<players>`` of ``<player username userid name startposition color score new
    rating win/>``.  Nobody has a BoardGameGeek account here: ``username`` is empty
    and ``userid`` 0, as BGG writes for a player without one."""
    bgg = game_bgg_ids(bgg_ids)
    root = ET.Element("plays", {"username": "", "userid": "0", "total": str(len(the_plays)),
                                "page": "1", "termsofuse": BGG_TERMS})
    for pl in the_plays:
        play = ET.SubElement(root, "play", {
            "id": str(bgg_id_of(pl)),
            "date": time.strftime("%Y-%m-%d", time.localtime(pl["played"])),
            "quantity": "1", "length": str(pl["duration_min"] or 0),
            "incomplete": "0" if pl["finished"] else "1", "nowinstats": "0",
            "location": _x(pl["location"])})
        item = {"name": _x(pl["game"]), "objecttype": "thing"}
        if bgg.get(pl["game"]):
            item["objectid"] = str(bgg[pl["game"]])
        subtypes = ET.SubElement(ET.SubElement(play, "item", item), "subtypes")
        ET.SubElement(subtypes, "subtype", {"value": "boardgame"})
        text = comments(pl)
        if text:
            ET.SubElement(play, "comments").text = _x(text)
        ps = ET.SubElement(play, "players")
        for p in pl["players"]:
            ET.SubElement(ps, "player", {
                "username": "", "userid": "0", "name": _x(p["name"]),
                "startposition": str(p["seat"]), "color": _x(p["role"] or ""),
                "score": "" if p["score"] is None else str(p["score"]),
                "new": "1" if p["new"] else "0", "rating": "0",
                "win": "1" if p["winner"] else "0"})
    return root


def bgg_xml(the_plays: list[JSON], *, bgg_ids: Mapping[str, Any] | None = None) -> str:
    """The play XML as text (UTF-8 declaration, indented); xml.etree escapes
    every name, location and comment."""
    root = bgg_element(the_plays, bgg_ids=bgg_ids)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") \
        + "\n"


def bgg_id_missing(the_plays: Iterable[JSON], *,
                   bgg_ids: Mapping[str, Any] | None = None) -> list[str]:
    """The games of ``the_plays`` whose BoardGameGeek id the player has not set yet
    (issue 37): their BGG XML names the game but carries no ``objectid``, so a reader
    (bgg-api's ``game_id``) finds no game.  No id is ever guessed or shipped."""
    bgg = game_bgg_ids(bgg_ids)
    return sorted({str(pl["game"]) for pl in the_plays if not bgg.get(pl["game"])})


def bgg_id_request(games: Sequence[str]) -> str:
    """The one message that asks for the missing BoardGameGeek id(s), once."""
    return (f"no BoardGameGeek id for {', '.join(games)} yet: the BoardGameGeek play XML "
            "names the game but carries no game id (objectid), so readers find no game. "
            "Type it once (the number in the game's boardgamegeek.com/boardgame/<id>/ "
            f"address); it is kept in {SETTINGS_FILE} in your data folder")


def write_bgg(store: Store, path: str | Path, ids: Collection[str] | None = None, *,
              finished_only: bool = True, bgg_ids: Mapping[str, Any] | None = None,
              progress: Progress | None = None, missing: list[str] | None = None) -> int:
    """Write BoardGameGeek's play XML; returns the number of plays written.
    ``missing``: filled with the games whose BGG id is not set (:func:`bgg_id_missing`)."""
    return write_plays("bgg", store, path, ids, finished_only=finished_only, bgg_ids=bgg_ids,
                       progress=progress, missing=missing)


@dataclass(frozen=True)
class Exporter:
    """One other logger's play file (issue 38: "one exporter protocol that the CLI and the
    page both list from"): ``key`` (the command line's ``--format``, an imported play's
    ``source``), ``name`` (its words), the download's ``link`` words, file ``suffix``,
    ``mime`` type and ``css`` class on the page, the file's ``text`` for some plays, and
    the games whose ids it lacks (``missing``: asked once, issue 37)."""
    key: str
    name: str
    link: str
    suffix: str
    mime: str
    css: str
    text: Callable[..., str]
    missing: Callable[..., list[str]] | None = None


#: every exporter, in the order the page shows them
EXPORTERS: dict[str, Exporter] = {e.key: e for e in (
    Exporter("bgstats", "BG Stats play file", "⬇ BG Stats play file", ".bgsplay",
             "application/json", "export-bgstats", bgstats_text),
    Exporter("bgg", "BoardGameGeek play XML", "⬇ BoardGameGeek play (XML)", "-bgg.xml",
             "application/xml", "export-bgg", bgg_xml, bgg_id_missing),
)}


def write_plays(key: str, store: Store, path: str | Path,
                ids: Collection[str] | None = None, *, finished_only: bool = True,
                bgg_ids: Mapping[str, Any] | None = None, progress: Progress | None = None,
                missing: list[str] | None = None) -> int:
    """Write the plays of ``store`` (``ids``, or all; finished ones only unless said) in
    the file of the exporter ``key``; returns the number of plays written.  ``missing``:
    filled with the games whose id that file lacks (:attr:`Exporter.missing`)."""
    e = EXPORTERS[key]
    the_plays = plays(store, ids, finished_only=finished_only, progress=progress)
    if missing is not None and e.missing is not None:
        missing += e.missing(the_plays, bgg_ids=bgg_ids)
    _write(path, e.text(the_plays, bgg_ids=bgg_ids))
    return len(the_plays)


#: the writer of each exporter (as before :data:`EXPORTERS`)
FORMATS = {"bgstats": write_bgstats, "bgg": write_bgg}


def _write(path: str | Path, text: str) -> None:
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC
                     | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as e:
        raise CompanionError(f"cannot write {path}: {e.strerror or type(e).__name__}") from None
