"""Small Star Empires sector tiles, typed once from the physical piece (issue 24).

The rulebook (Components) gives the box: "4 Homeworld Sector Tiles", "7 Main Sector
Tiles", "15 Unexplored System Tiles", "6 Wormhole/Black Hole Tiles" (the counts are in
data/small-star-empires/box.json, :data:`BOX`).  "A sector tile is a fixed group of
systems": nobody tells us the shape of a tile or its systems, so the player types each
face once, from the tile in hand (:class:`SectorTile`), and the companion remembers it in
the player's data folder (``sse-tiles.json``), exported and imported like the card
catalogue.  Nothing here holds a real tile's contents.

A tile's systems are in LOCAL axial coordinates around its middle hex ``(0, 0)``, within
:data:`TILE_REACH`; a homeworld system has no seat (``home=None``): the seat is given when
the map is laid (companion.sse.laying).

A tiles file (JSON)::

    {"format": "small-star-empires-tiles/1",
     "tiles": [{"id": "M1a", "kind": "main", "title": "...", "other_side": "M1b",
                "systems": [{"at": [0, 0], "type": "empty"},
                            {"at": [1, 0], "type": "planetary", "planets": 2},
                            {"at": [0, 1], "type": "nebula", "colour": "red"}]}]}

Pure Python: no widgets here.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from ..core import userdocs
from ..core.paths import data_dir, side_lock, user_dir
from ..core.roles import Role, Write, check as check_role
from ..core.safeio import (MAX_NOTE, check_tree, loads_json, name_problem, read_json,
                           terminal_line, write_atomic)
from .hexmap import COLOURS, Hex, MapError, System, as_hex, distance, label

TILES_FORMAT = "small-star-empires-tiles/1"
TILE_KINDS = ("main", "homeworld")
#: a tile's systems lie within distance 2 of its middle hex (0, 0)
TILE_REACH = 2
#: the most systems a tile can hold: every hex within TILE_REACH (1 + 6 + 12)
MAX_TILE_SYSTEMS = 19
SYSTEM_KINDS_ON_TILES = ("planetary", "nebula", "empty", "homeworld")
#: a tiles file larger than this is refused (by the bytes actually read)
MAX_TILES_BYTES = 1_000_000
#: at most this many tile faces in one file (the box holds 11 sector tiles, two faces each)
MAX_TILES = 200
_ID = re.compile(r"^[A-Za-z0-9_-]{1,24}$")


class TileError(MapError):
    """A sector tile (typed, in a file or in a record's layout) is malformed: one line
    naming the tile and the hex."""


def _load_box() -> dict[str, int]:
    """The book's counts (data/small-star-empires/box.json; its ``source`` quotes the
    book's Components)."""
    raw = read_json(data_dir() / "small-star-empires" / "box.json", 100_000, what="box file",
                    error=MapError)
    keys = ("homeworld", "main", "unexplored", "wormhole_black_hole", "nebula_markers")
    if not isinstance(raw, dict) or not all(isinstance(raw.get(k), int) for k in keys):
        raise MapError("data/small-star-empires/box.json: the book's counts are missing")
    return {k: int(raw[k]) for k in keys}


#: the book's counts: homeworld 4, main 7, unexplored 15, wormhole_black_hole 6,
#: nebula_markers 9 (read from data/small-star-empires/box.json)
BOX: dict[str, int] = _load_box()


def id_problem(v: Any) -> str | None:
    """Why ``v`` is not a tile id (1 to 24 letters, digits, '-' or '_'), or None."""
    if isinstance(v, str) and _ID.match(v):
        return None
    return (f"a sector tile's id is 1 to 24 letters, digits, '-' or '_' (e.g. M1a), "
            f"not {terminal_line(repr(v), 60)}")


def _system_problem(s: Any) -> str | None:
    """Why ``s`` cannot stand on a typed tile, or None."""
    if not isinstance(s, System):
        return "not a system"
    if s.kind not in SYSTEM_KINDS_ON_TILES:
        return (f"a tile's system is one of {', '.join(SYSTEM_KINDS_ON_TILES)}, not "
                f"{terminal_line(repr(s.kind), 40)} (the variants' tiles are laid on the map, "
                "not typed on a sector tile)")
    if s.kind == "planetary" and not (isinstance(s.planets, int) and not isinstance(s.planets, bool)
                                      and 1 <= s.planets <= 3):
        return f"planets must be a whole number from 1 to 3, not {terminal_line(repr(s.planets), 40)}"
    if s.kind == "nebula" and s.colour not in COLOURS:
        return f"a nebula's colour is red, blue or green, not {terminal_line(repr(s.colour), 40)}"
    if s.kind == "homeworld" and s.home is not None:
        return "a homeworld on a tile has no seat (the seat is given when the map is laid)"
    if s.effect is not None or s.effect_planets is not None:
        return "a tile's system has no effect"
    if s.kind != "planetary" and s.planets is not None:
        return f"a {s.kind} system has no planets"
    if s.kind != "nebula" and s.colour is not None:
        return f"a {s.kind} system has no colour"
    return None


@dataclass(frozen=True)
class SectorTile:
    """One face of a physical sector tile, as the player typed it."""
    id: str
    kind: str
    systems: dict[Hex, System]
    title: str = ""
    other_side: str | None = None
    note: str = ""

    def __post_init__(self) -> None:
        problem = id_problem(self.id)
        if problem:
            raise TileError(problem)
        who = f"tile {self.id}"
        if self.kind not in TILE_KINDS:
            raise TileError(f"{who}: kind is main or homeworld, not "
                            f"{terminal_line(repr(self.kind), 40)}")
        if not isinstance(self.title, str) or name_problem(self.title):
            raise TileError(f"{who}: title {name_problem(self.title) or 'must be a text'}")
        if not (isinstance(self.note, str) and len(self.note) <= MAX_NOTE):
            raise TileError(f"{who}: note must be a text of at most {MAX_NOTE} characters")
        if self.other_side is not None:
            problem = id_problem(self.other_side)
            if problem:
                raise TileError(f"{who}: other side: {problem}")
            if self.other_side == self.id:
                raise TileError(f"{who}: its other side is another id (the other face of the "
                                "same physical tile), not its own")
        if not isinstance(self.systems, dict):
            raise TileError(f"{who}: systems must be a mapping of hexes to systems")
        if not 1 <= len(self.systems) <= MAX_TILE_SYSTEMS:
            raise TileError(f"{who}: a tile has 1 to {MAX_TILE_SYSTEMS} systems, not "
                            f"{len(self.systems)}")
        for h, s in self.systems.items():
            try:
                h = as_hex(h, f"{who}: a hex")
            except MapError as e:
                raise TileError(str(e)) from None
            if distance(h, (0, 0)) > TILE_REACH:
                raise TileError(f"{who} at {label(h)}: beyond the tile's reach (every system "
                                f"lies within {TILE_REACH} of its middle [0, 0])")
            problem = _system_problem(s)
            if problem:
                raise TileError(f"{who} at {label(h)}: {problem}")
        homes = sorted(h for h, s in self.systems.items() if s.kind == "homeworld")
        if self.kind == "homeworld" and len(homes) != 1:
            where = f" (at {', '.join(label(h) for h in homes)})" if homes else ""
            raise TileError(f"{who}: a homeworld sector tile has exactly one homeworld system, "
                            f"not {len(homes)}{where}")
        if self.kind == "main" and homes:
            raise TileError(f"{who} at {label(homes[0])}: a main sector tile has no homeworld "
                            "(a homeworld tile is typed with kind homeworld)")

    # -- the file format ------------------------------------------------------------
    @classmethod
    def from_dict(cls, d: Any) -> "SectorTile":
        if not isinstance(d, dict):
            raise TileError("a sector tile must be an object")
        tid = d.get("id")
        problem = id_problem(tid)
        if problem:
            raise TileError(problem)
        who = f"tile {tid}"
        extra = set(d) - {"id", "kind", "title", "other_side", "note", "systems"}
        if extra:
            raise TileError(f"{who}: unknown key {terminal_line(repr(sorted(map(str, extra))[0]), 40)}")
        raw = d.get("systems")
        if not isinstance(raw, list) or not raw:
            raise TileError(f"{who}: 'systems' must be a non-empty list")
        if len(raw) > MAX_TILE_SYSTEMS:
            raise TileError(f"{who}: a tile has 1 to {MAX_TILE_SYSTEMS} systems, not {len(raw)}")
        systems: dict[Hex, System] = {}
        for i, s in enumerate(raw):
            if not isinstance(s, dict):
                raise TileError(f"{who}: system {i} must be an object")
            try:
                h = as_hex(s.get("at"), f"{who}: system {i}: at")
            except MapError as e:
                raise TileError(str(e)) from None
            where = f"{who} at {label(h)}"
            if distance(h, (0, 0)) > TILE_REACH:
                raise TileError(f"{where}: beyond the tile's reach (every system lies within "
                                f"{TILE_REACH} of its middle [0, 0])")
            if h in systems:
                raise TileError(f"{where}: two systems on one hex")
            kind = s.get("type")
            if kind not in SYSTEM_KINDS_ON_TILES:
                raise TileError(f"{where}: a tile's system is one of "
                                f"{', '.join(SYSTEM_KINDS_ON_TILES)}, not "
                                f"{terminal_line(repr(kind), 40)}")
            if kind == "homeworld":
                if set(s) - {"at", "type"}:
                    raise TileError(f"{where}: a homeworld on a tile has only 'at' and 'type' "
                                    "(the seat is given when the map is laid)")
                systems[h] = System("homeworld")
                continue
            try:
                systems[h] = System.from_dict(s, where)
            except MapError as e:
                raise TileError(str(e)) from None
        other = d.get("other_side")
        return cls(tid, d.get("kind"), systems, title=d.get("title", ""),  # type: ignore[arg-type]
                   other_side=other, note=d.get("note", ""))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "kind": self.kind}
        if self.title:
            d["title"] = self.title
        if self.other_side is not None:
            d["other_side"] = self.other_side
        if self.note:
            d["note"] = self.note
        out = []
        for h, s in sorted(self.systems.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            sd = {"at": list(h), **s.to_dict()}
            if s.kind == "homeworld":
                sd.pop("home", None)
            out.append(sd)
        d["systems"] = out
        return d

    # -- queries --------------------------------------------------------------------
    def reach(self) -> int:
        """The largest distance of its systems from its middle (0, 0)."""
        return max(distance(h, (0, 0)) for h in self.systems)

    def middle(self) -> Hex | None:
        """(0, 0) if this is a main tile whose middle is an empty system (where the
        Wormholes variant puts a wormhole), else None."""
        s = self.systems.get((0, 0))
        if self.kind == "main" and s is not None and s.kind == "empty":
            return (0, 0)
        return None

    def rotated(self, turn: int) -> dict[Hex, System]:
        """Its systems turned ``turn`` (0..5) steps of 60 degrees clockwise about (0, 0)."""
        return {rotate(h, turn): s for h, s in self.systems.items()}

    def physical(self) -> tuple[str, ...]:
        """The ids of the faces of its physical tile (itself and its other side), sorted."""
        return tuple(sorted({self.id, self.other_side} - {None}))  # type: ignore[arg-type]


def rotate(h: Hex, turn: int) -> Hex:
    """``h`` turned ``turn`` steps of 60 degrees clockwise about (0, 0) (pointy-top axial
    hexes, r growing to the south-east: one step sends E (1, 0) to SE (0, 1))."""
    q, r = h
    for _ in range(turn % 6):
        q, r = -r, q + r
    return (q, r)


# ---------------------------------------------------------------------------
# a collection of tiles: the faces of one physical tile
# ---------------------------------------------------------------------------
def collection_problem(tiles: Mapping[str, SectorTile]) -> str | None:
    """Why these tiles do not belong together (two faces that disagree on which is the
    other side of which), or None."""
    for tid, t in sorted(tiles.items()):
        if t.other_side is None:
            continue
        other = tiles.get(t.other_side)
        if other is not None and other.other_side not in (None, tid):
            return (f"tile {tid}: its other side is {t.other_side}, but {t.other_side}'s other "
                    f"side is {other.other_side}")
    for tid, t in sorted(tiles.items()):
        claims = sorted(o.id for o in tiles.values() if o.other_side == tid)
        if len(claims) > 1:
            return f"tile {tid} is the other side of both {claims[0]} and {claims[1]}"
    return None


def physical_tiles(tiles: Mapping[str, SectorTile]) -> list[tuple[str, ...]]:
    """The typed physical tiles: the ids of each one's typed faces, sorted (a face and
    the face it names as its other side, or that names it, are one physical tile)."""
    parent = {tid: tid for tid in tiles}

    def root(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x
    for tid, t in tiles.items():
        if t.other_side is not None and t.other_side in tiles:
            a, b = root(tid), root(t.other_side)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[str, list[str]] = {}
    for tid in sorted(tiles):
        groups.setdefault(root(tid), []).append(tid)
    return sorted(tuple(g) for g in groups.values())


def unknown_tiles(tiles: Mapping[str, SectorTile]) -> dict[str, int]:
    """How many of the box's main and homeworld sector tiles are not typed yet: the
    book's count (:data:`BOX`) minus the typed physical tiles of that kind (a tile and
    its other side count once).  A query: nothing is filled in."""
    typed = {k: 0 for k in TILE_KINDS}
    for faces in physical_tiles(tiles):
        kinds = {tiles[f].kind for f in faces}
        kind = "homeworld" if "homeworld" in kinds else "main"
        typed[kind] += 1
    return {k: max(0, BOX[k] - typed[k]) for k in TILE_KINDS}


# ---------------------------------------------------------------------------
# the player's tiles file
# ---------------------------------------------------------------------------
#: the player's tiles: the document (companion.core.userdocs) of that name, the file
#: ``sse-tiles.json`` of the data folder, or the club database's
USER_TILES = "sse-tiles.json"


def user_tiles_path() -> Path:
    return user_dir() / USER_TILES


def user_tiles_place() -> str:
    """Where the player's tiles are kept, as messages say it."""
    return userdocs.documents().where(USER_TILES)


def _club_docs() -> userdocs.UserDocuments | None:
    """The installed documents when they are not the data folder's files (a club)."""
    docs = userdocs.documents()
    return None if docs.file(USER_TILES) is not None else docs


def _club_tiles(text: str | None, where: str) -> dict[str, SectorTile]:
    if text is None:
        return {}
    data = loads_json(text, where, limit=MAX_TILES_BYTES, what="tiles file", error=TileError)
    return tiles_from_data(data, where)


def _club_change(club: userdocs.UserDocuments,
                 change: Callable[[dict[str, SectorTile]], None]) -> None:
    """Read the club's tiles, ``change`` them, check and write them: one transaction."""
    where = club.where(USER_TILES)

    def apply(text: str | None) -> str:
        tiles = _club_tiles(text, where)
        change(tiles)
        _check_collection(tiles)
        return dumps_tiles(tiles)

    club.update(USER_TILES, apply)


def tiles_from_data(data: Any, name: str = "tiles file") -> dict[str, SectorTile]:
    """The tiles of a parsed tiles file, all checked (a TileError otherwise)."""
    try:
        check_tree(data, name, error=TileError, max_depth=8)
    except TileError:
        raise
    if not isinstance(data, dict):
        raise TileError(f"{name}: a tiles file is an object {{\"format\": \"{TILES_FORMAT}\", "
                        "\"tiles\": [...]}")
    fmt = data.get("format")
    if fmt != TILES_FORMAT:
        raise TileError(f"{name}: unknown format {terminal_line(repr(fmt), 60)}; this companion "
                        f"reads {TILES_FORMAT!r}")
    extra = set(data) - {"format", "tiles", "note"}
    if extra:
        raise TileError(f"{name}: unknown key {terminal_line(repr(sorted(extra)[0]), 40)}")
    raw = data.get("tiles")
    if not isinstance(raw, list):
        raise TileError(f"{name}: 'tiles' must be a list")
    if len(raw) > MAX_TILES:
        raise TileError(f"{name}: at most {MAX_TILES} tiles, not {len(raw)}")
    out: dict[str, SectorTile] = {}
    for d in raw:
        try:
            t = SectorTile.from_dict(d)
        except TileError as e:
            raise TileError(f"{name}: {e}") from None
        if t.id in out:
            raise TileError(f"{name}: tile {t.id} twice")
        out[t.id] = t
    problem = collection_problem(out)
    if problem:
        raise TileError(f"{name}: {problem}")
    return out


def read_tiles_file(path: Path | str) -> dict[str, SectorTile]:
    """A tiles file through the one bounded reader."""
    data = read_json(path, MAX_TILES_BYTES, what="tiles file", error=TileError)
    return tiles_from_data(data, str(path))


def load_tiles(path: Path | None = None) -> dict[str, SectorTile]:
    """The player's typed tiles (id -> tile); {} if there is no file yet."""
    club = None if path else _club_docs()
    if club is not None:
        return _club_tiles(club.read(USER_TILES), club.where(USER_TILES))
    path = Path(path) if path else user_tiles_path()
    if not path.exists():
        return {}
    return read_tiles_file(path)


def dumps_tiles(tiles: Mapping[str, SectorTile]) -> str:
    return json.dumps({"format": TILES_FORMAT,
                       "tiles": [tiles[k].to_dict() for k in sorted(tiles)]},
                      indent=1, ensure_ascii=False)




def _check_collection(tiles: dict[str, SectorTile]) -> None:
    if len(tiles) > MAX_TILES:
        raise TileError(f"your tiles would number {len(tiles)}; at most {MAX_TILES}; "
                        "nothing was saved")
    problem = collection_problem(tiles)
    if problem:
        raise TileError(f"{problem}; nothing was saved")


def _store(tiles: dict[str, SectorTile], path: Path) -> None:
    _check_collection(tiles)
    write_atomic(path, dumps_tiles(tiles))


def save_tile(tile: SectorTile, *, role: Role | str = Role.HOST,
              path: Path | None = None) -> Path:
    """Save ``tile`` in the player's tiles (replacing the one with the same id) and
    return the file.  ``role``: the page's (companion.core.roles, Write.TILES)."""
    check_role(role, Write.TILES)
    if not isinstance(tile, SectorTile):
        raise TileError("only a sector tile can be saved")
    club = None if path else _club_docs()
    if club is not None:
        _club_change(club, lambda tiles: tiles.__setitem__(tile.id, tile))
        return Path(USER_TILES)
    path = Path(path) if path else user_tiles_path()
    with side_lock(path):
        tiles = load_tiles(path)
        tiles[tile.id] = tile
        _store(tiles, path)
    return path


def delete_tile(tile_id: str, *, role: Role | str = Role.HOST, path: Path | None = None) -> None:
    """Remove the tile ``tile_id`` from the player's tiles."""
    check_role(role, Write.TILES)
    club = None if path else _club_docs()
    if club is not None:
        def remove(tiles: dict[str, SectorTile]) -> None:
            if tile_id not in tiles:
                raise TileError(f"no tile {terminal_line(repr(tile_id), 40)} among your tiles")
            del tiles[tile_id]

        _club_change(club, remove)
        return
    path = Path(path) if path else user_tiles_path()
    with side_lock(path):
        tiles = load_tiles(path)
        if tile_id not in tiles:
            raise TileError(f"no tile {terminal_line(repr(tile_id), 40)} among your tiles")
        del tiles[tile_id]
        _store(tiles, path)


def export_tiles(dest: Path | str, path: Path | None = None) -> Path:
    """Write the player's tiles to ``dest`` (a tiles file another table can import)."""
    dest = Path(dest)
    write_atomic(dest, dumps_tiles(load_tiles(path)))
    return dest


def import_tiles(src: Path | str, *, role: Role | str = Role.HOST,
                 path: Path | None = None) -> list[str]:
    """Merge the tiles file ``src`` into the player's tiles (an imported id replaces the
    same id); returns the ids imported.  All or nothing: the whole file is checked
    first, and one bad tile refuses it with nothing saved."""
    check_role(role, Write.IMPORT)
    incoming = read_tiles_file(src)
    club = None if path else _club_docs()
    if club is not None:
        _club_change(club, lambda tiles: tiles.update(incoming))
        return sorted(incoming)
    path = Path(path) if path else user_tiles_path()
    with side_lock(path):
        tiles = load_tiles(path)
        tiles.update(incoming)
        _store(tiles, path)
    return sorted(incoming)


__all__ = ["TILES_FORMAT", "TILE_KINDS", "TILE_REACH", "SYSTEM_KINDS_ON_TILES", "BOX",
           "TileError", "SectorTile", "rotate", "user_tiles_path", "user_tiles_place", "USER_TILES", "load_tiles", "save_tile",
           "delete_tile", "export_tiles", "import_tiles", "unknown_tiles", "physical_tiles",
           "id_problem", "read_tiles_file", "tiles_from_data", "collection_problem",
           "MAX_TILES", "MAX_TILE_SYSTEMS"]
