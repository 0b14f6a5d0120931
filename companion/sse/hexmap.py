"""The Small Star Empires galaxy: a map of hexagonal systems in axial coordinates.

Coordinates are axial ``(q, r)`` for pointy-top hexagons: ``q`` grows to the
east, ``r`` to the south-east; the third cube coordinate is ``s = -q - r``.
The six directions are named by compass (E, NE, NW, W, SW, SE).  Drawing uses
the *doubled* column ``2q + r`` and the row ``r``, so a hex's neighbours to the
east and west are 2 columns away and its other neighbours 1 column and 1 row.

A map file (JSON, see docs/small-star-empires.md)::

    {"format": "small-star-empires-map/1", "name": "basic-2p",
     "title": "...", "approximate": true, "note": "...", "players": 2,
     "systems": [{"at": [0, 0], "type": "homeworld", "home": 1},
                 {"at": [1, 0], "type": "planetary", "planets": 2},
                 {"at": [2, 0], "type": "nebula", "colour": "red"},
                 {"at": [3, 0], "type": "empty"}],
     "layout": {...}}

``layout`` (optional) says which form and sector tiles a map laid from tiles came from
(companion.sse.laying; checked by :func:`companion.sse.laying.layout_problem`); it is
written back unchanged.

Pure Python: no widgets here.
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..core.errors import RecordError
from ..core import userdocs
from ..core.paths import data_dir, user_dir
from ..core.roles import Role, Write, check as check_role
from ..core.safeio import MAX_NOTE, loads_json, name_problem, read_json, terminal_line
from .render import map_svg

Hex = tuple[int, int]
MAP_FORMAT = "small-star-empires-map/1"

#: the six directions of a pointy-top hexagon, axial (dq, dr)
DIRECTIONS: dict[str, Hex] = {
    "E": (1, 0), "NE": (1, -1), "NW": (0, -1),
    "W": (-1, 0), "SW": (-1, 1), "SE": (0, 1),
}
DIRS = tuple(DIRECTIONS.values())
_DIRECTION_NAMES = {d: name for name, d in DIRECTIONS.items()}

KINDS = ("planetary", "nebula", "empty", "homeworld", "wormhole", "black_hole", "unexplored")
COLOURS = ("red", "blue", "green")
#: the eight Unexplored System tiles (S Variants, Unexplored Systems)
EFFECTS = ("planetary", "chromatic_nebula", "asteroid_field", "abandoned_trade_station",
           "refuelling_station", "hollana_federation", "tennar_union", "nordinn_empire")
EFFECT_NAMES = {
    "planetary": "Planetary System", "chromatic_nebula": "Chromatic Nebula",
    "asteroid_field": "Asteroid Field", "abandoned_trade_station": "Abandoned Trade Station",
    "refuelling_station": "Refuelling Station", "hollana_federation": "Hollana Federation",
    "tennar_union": "Tennar Union", "nordinn_empire": "Nordinn Empire",
}
KIND_NAMES = {"planetary": "planetary system", "nebula": "nebula", "empty": "empty system",
              "homeworld": "homeworld", "wormhole": "wormhole", "black_hole": "black hole",
              "unexplored": "unexplored system"}
MAX_SYSTEMS = 2000
#: every coordinate of a map or a move lies within -COORD_LIMIT..COORD_LIMIT
COORD_LIMIT = 1000
#: a map file larger than this is refused (by the bytes actually read)
MAX_MAP_BYTES = 1_000_000


class MapError(RecordError):
    """A map (file, record's map or editor input) is malformed."""


#: the check of a map's ``layout`` (companion.sse.laying.layout_problem, registered by
#: laying when the package is imported: laying builds on this module, not the reverse)
_layout_check: Callable[[Any, Any], str | None] | None = None


def register_layout_check(check: Callable[[Any, Any], str | None]) -> None:
    """Set the check :meth:`HexMap.from_dict` applies to a map's ``layout``."""
    global _layout_check
    _layout_check = check


# ---------------------------------------------------------------------------
# hex arithmetic
# ---------------------------------------------------------------------------
def add(a: Hex, b: Hex, k: int = 1) -> Hex:
    return (a[0] + k * b[0], a[1] + k * b[1])


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRS]


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def direction_to(a: Hex, b: Hex) -> tuple[str, int] | None:
    """(direction name, distance) if ``b`` lies on a straight line from ``a``, else None."""
    if a == b:
        return None
    dq, dr = b[0] - a[0], b[1] - a[1]
    n = max(abs(dq), abs(dr), abs(dq + dr))      # distance(a, b), at least 1
    uq, ur = dq // n, dr // n
    if uq * n != dq or ur * n != dr:              # not n whole steps of one direction
        return None
    name = _DIRECTION_NAMES.get((uq, ur))
    return None if name is None else (name, n)


def as_hex(v: Any, what: str = "hex") -> Hex:
    if isinstance(v, (list, tuple)) and len(v) == 2:
        q, r = v
        if (isinstance(q, int) and not isinstance(q, bool)
                and isinstance(r, int) and not isinstance(r, bool)):
            if not (-COORD_LIMIT <= q <= COORD_LIMIT and -COORD_LIMIT <= r <= COORD_LIMIT):
                raise MapError(f"{what}: {terminal_line(list(v), 80)} is out of range "
                               f"(coordinates are from {-COORD_LIMIT} to {COORD_LIMIT})")
            return (q, r)
    raise MapError(f"{what} must be [q, r] (two whole numbers), not {terminal_line(repr(v), 80)}")


def label(h: Hex) -> str:
    return f"[{h[0]}, {h[1]}]"


# ---------------------------------------------------------------------------
# systems and maps
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class System:
    kind: str
    planets: int | None = None       # planetary: 1-3
    colour: str | None = None        # nebula: red | blue | green
    home: int | None = None          # homeworld: seat number 1..n
    effect: str | None = None        # unexplored: the face-down tile, if already known
    effect_planets: int | None = None

    @classmethod
    def from_dict(cls, d: Any, where: str = "system") -> "System":
        if not isinstance(d, dict):
            raise MapError(f"{where} must be an object")
        known = {"at", "type", "planets", "colour", "home", "effect", "note"}
        extra = set(d) - known
        if extra:
            raise MapError(f"{where}: unknown key '{sorted(extra)[0]}'")
        kind = d.get("type")
        if kind not in KINDS:
            raise MapError(f"{where}: type must be one of {', '.join(KINDS)}, not {kind!r}")
        planets = d.get("planets")
        colour = d.get("colour")
        home = d.get("home")
        effect = d.get("effect")

        def whole(v: object, lo: int, hi: int, name: str) -> int:
            if not (isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi):
                raise MapError(f"{where}: {name} must be a whole number from {lo} to {hi}, not {v!r}")
            return v
        if kind == "planetary":
            return cls(kind, planets=whole(planets, 1, 3, "planets"))
        if kind == "nebula":
            if colour not in COLOURS:
                raise MapError(f"{where}: a nebula's colour is red, blue or green, not {colour!r}")
            return cls(kind, colour=colour)
        if kind == "homeworld":
            return cls(kind, home=whole(home, 1, 8, "home (the seat number)"))
        if kind == "unexplored":
            if effect is None:
                if planets is not None:
                    raise MapError(f"{where}: planets without an effect")
                return cls(kind)
            if effect not in EFFECTS:
                raise MapError(f"{where}: effect must be one of {', '.join(EFFECTS)}")
            if effect == "planetary":
                return cls(kind, effect=effect, effect_planets=whole(planets, 1, 3, "planets"))
            if planets is not None:
                raise MapError(f"{where}: only a planetary effect has planets")
            return cls(kind, effect=effect)
        for k, v in (("planets", planets), ("colour", colour), ("home", home), ("effect", effect)):
            if v is not None:
                raise MapError(f"{where}: a {KIND_NAMES[kind]} has no {k}")
        return cls(kind)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind}
        if self.kind == "planetary":
            d["planets"] = self.planets
        elif self.kind == "nebula":
            d["colour"] = self.colour
        elif self.kind == "homeworld":
            d["home"] = self.home
        elif self.kind == "unexplored" and self.effect:
            d["effect"] = self.effect
            if self.effect_planets:
                d["planets"] = self.effect_planets
        return d

    def describe(self) -> str:
        if self.kind == "planetary":
            return f"planetary system ({self.planets} planet{'s' if self.planets != 1 else ''})"
        if self.kind == "nebula":
            return f"{self.colour} nebula"
        if self.kind == "homeworld":
            return f"homeworld of seat {self.home}"
        return KIND_NAMES[self.kind]


class HexMap:
    """The systems of a galaxy board, keyed by axial hex."""

    def __init__(self, systems: dict[Hex, System] | None = None, *, name: str = "custom",
                 title: str | None = None, players: int | None = None,
                 approximate: bool = False, note: str = "",
                 layout: dict[str, Any] | None = None):
        self.systems: dict[Hex, System] = dict(systems or {})
        self.name = name
        self.title = title or name
        self.players = players
        self.approximate = approximate
        self.note = note
        #: where a map laid from sector tiles came from (issue 24, companion.sse.laying):
        #: provenance only, replay and scoring use ``systems``
        self.layout: dict[str, Any] | None = copy.deepcopy(layout) if layout else None

    def _repr_svg_(self) -> str:
        """The map as a picture in Jupyter (its rich display, as python-chess's
        ``Board._repr_svg_``), with its title: :func:`companion.sse.render.map_svg`."""
        return map_svg(self, title=self.title)

    # -- file format -------------------------------------------------------------
    @classmethod
    def from_dict(cls, d: Any) -> "HexMap":
        if not isinstance(d, dict):
            raise MapError("a map must be a JSON object")
        fmt = d.get("format", MAP_FORMAT)
        if fmt != MAP_FORMAT:
            raise MapError(f"unknown map format {fmt!r}; this companion reads {MAP_FORMAT!r}")
        known = {"format", "name", "title", "approximate", "note", "players", "systems",
                 "layout"}
        extra = set(d) - known
        if extra:
            raise MapError(f"map: unknown key '{sorted(extra)[0]}'")
        raw = d.get("systems")
        if not isinstance(raw, list) or not raw:
            raise MapError("map: 'systems' must be a non-empty list")
        if len(raw) > MAX_SYSTEMS:
            raise MapError(f"map: at most {MAX_SYSTEMS} systems")
        systems: dict[Hex, System] = {}
        for i, s in enumerate(raw):
            where = f"map system {i}"
            if not isinstance(s, dict):
                raise MapError(f"{where} must be an object")
            h = as_hex(s.get("at"), f"{where}: at")
            if h in systems:
                raise MapError(f"{where}: two systems at {label(h)}")
            systems[h] = System.from_dict(s, f"{where} at {label(h)}")
        players = d.get("players")
        if players is not None and not (isinstance(players, int) and not isinstance(players, bool)
                                        and 1 <= players <= 8):
            raise MapError("map: players must be a whole number")
        name = d.get("name", "custom")
        if not isinstance(name, str) or not name.strip():
            raise MapError("map: name must be a text")
        if name_problem(name):
            raise MapError(f"map: name {name_problem(name)}")
        title = d.get("title")
        if title is not None and (not isinstance(title, str) or name_problem(title)):
            raise MapError(f"map: title {name_problem(title) or 'must be a text'}")
        note = d.get("note")
        if note is not None and not (isinstance(note, str) and len(note) <= MAX_NOTE):
            raise MapError(f"map: note must be a text of at most {MAX_NOTE} characters")
        if not isinstance(d.get("approximate", False), bool):
            raise MapError("map: approximate must be true or false")
        layout = d.get("layout")
        if layout is not None:
            if _layout_check is None:          # cannot happen: the package registers it
                raise MapError("map: layout cannot be checked here")
            problem = _layout_check(layout, systems)
            if problem:
                raise MapError(f"map: {problem}" if problem.startswith("layout")
                               else f"map: layout: {problem}")
        m = cls(systems, name=name.strip(), title=title or name,
                players=players, approximate=bool(d.get("approximate", False)),
                note=note or "", layout=layout)
        m.check_homeworlds()
        return m

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": MAP_FORMAT, "name": self.name, "title": self.title}
        if self.approximate:
            d["approximate"] = True
        if self.note:
            d["note"] = self.note
        if self.players is not None:
            d["players"] = self.players
        d["systems"] = [{"at": list(h), **s.to_dict()}
                        for h, s in sorted(self.systems.items(), key=lambda kv: (kv[0][1], kv[0][0]))]
        if self.layout is not None:
            d["layout"] = copy.deepcopy(self.layout)
        return d

    def copy(self) -> "HexMap":
        return HexMap(self.systems, name=self.name, title=self.title, players=self.players,
                      approximate=self.approximate, note=self.note, layout=self.layout)

    def check_homeworlds(self) -> None:
        seats = sorted(s.home for s in self.systems.values()
                       if s.kind == "homeworld" and s.home is not None)
        if len(seats) != len(set(seats)):
            raise MapError("map: two homeworlds for the same seat")

    # -- queries -----------------------------------------------------------------
    def __contains__(self, h: object) -> bool:
        return h in self.systems

    def __getitem__(self, h: Hex) -> System:
        return self.systems[h]

    def get(self, h: Hex) -> System | None:
        return self.systems.get(h)

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.systems)

    def __len__(self) -> int:
        return len(self.systems)

    def homeworlds(self) -> dict[int, Hex]:
        return {s.home: h for h, s in self.systems.items()
                if s.kind == "homeworld" and s.home is not None}

    def of_kind(self, kind: str) -> list[Hex]:
        return sorted([h for h, s in self.systems.items() if s.kind == kind])

    def neighbours(self, h: Hex) -> list[Hex]:
        return [n for n in neighbours(h) if n in self.systems]

    def bounds(self) -> tuple[int, int, int, int]:
        """min/max doubled column (2q + r) and min/max row (r)."""
        xs = [2 * q + r for q, r in self.systems]
        ys = [r for _, r in self.systems]
        return min(xs), max(xs), min(ys), max(ys)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for s in self.systems.values():
            key = f"nebula {s.colour}" if s.kind == "nebula" else s.kind
            out[key] = out.get(key, 0) + 1
        return out

    # -- editing -------------------------------------------------------------------
    def set(self, h: Hex, system: System | None) -> None:
        """Put ``system`` at ``h`` (None removes the hex from the map).  A map laid from
        sector tiles that is edited is no longer as laid: its ``layout`` is dropped."""
        if system is None:
            self.systems.pop(h, None)
            self.layout = None
            return
        if system.kind == "homeworld":
            for other, s in self.systems.items():
                if other != h and s.kind == "homeworld" and s.home == system.home:
                    raise MapError(f"seat {system.home} already has its homeworld at {label(other)}")
        self.systems[h] = system
        self.layout = None

    def validate_for(self, players: int) -> dict[int, Hex]:
        """The homeworld of each seat 1..players; a clear error if the map does not fit."""
        homes = self.homeworlds()
        want = set(range(1, players + 1))
        if set(homes) != want:
            have = ", ".join(str(k) for k in sorted(homes)) or "none"
            raise MapError(f"the map '{self.name}' must have exactly one homeworld for each seat "
                           f"1 to {players} (it has: {have})")
        return homes


# ---------------------------------------------------------------------------
# map files: shipped ones and the player's own
# ---------------------------------------------------------------------------
def shipped_dir() -> Path:
    return data_dir() / "small-star-empires" / "maps"


def user_maps_dir() -> Path:
    return user_dir() / "sse-maps"


_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,60}$")


def load_map_file(path: str | Path) -> HexMap:
    """A map file through the one bounded reader (companion.core.safeio): at most
    MAX_MAP_BYTES actually read, a regular UTF-8 file, JSON within the limits."""
    path = Path(path)
    data = read_json(path, MAX_MAP_BYTES, what="map", error=MapError)
    try:
        return HexMap.from_dict(data)
    except MapError as e:
        raise MapError(f"{path}: {e}") from None


#: the player's own maps: the documents (companion.core.userdocs) of this folder, the
#: data folder's ``sse-maps/``, or the club database's
USER_MAPS = "sse-maps"


def _club_docs() -> userdocs.UserDocuments | None:
    """The installed documents when they are not the data folder's files (a club)."""
    docs = userdocs.documents()
    return None if docs.file(USER_MAPS) is not None else docs


def _club_maps(club: userdocs.UserDocuments) -> dict[str, Path]:
    """The club's maps: name -> its document's name (``sse-maps/NAME.json``)."""
    return {n[:-len(".json")]: Path(USER_MAPS, n) for n in club.names(USER_MAPS)
            if n.endswith(".json") and _NAME.match(n[:-len(".json")])}


def available_maps() -> dict[str, Path]:
    """Map name -> file: the shipped starting maps, then the player's own (which win).
    In a club the player's own are the club's documents (their names, not files)."""
    out: dict[str, Path] = {}
    club = _club_docs()
    for d in (shipped_dir(), user_maps_dir()) if club is None else (shipped_dir(),):
        if d.is_dir():
            for p in sorted(d.glob("*.json")):
                out[p.stem] = p
    if club is not None:
        out.update(_club_maps(club))
    return out


def load_named(name: str) -> HexMap:
    club = _club_docs()
    if club is not None and name in _club_maps(club):
        doc = f"{USER_MAPS}/{name}.json"
        where = club.where(doc)
        text = club.read(doc)
        if text is None:
            raise MapError(f"no map called '{terminal_line(name, 70)}' (deleted meanwhile?)")
        data = loads_json(text, where, limit=MAX_MAP_BYTES, what="map", error=MapError)
        try:
            return HexMap.from_dict(data)
        except MapError as e:
            raise MapError(f"{where}: {e}") from None
    path = available_maps().get(name)
    if path is None:
        names = ", ".join(sorted(available_maps())) or "none"
        raise MapError(f"no map called '{name}' (maps: {names})")
    return load_map_file(path)


def save_user_map(m: HexMap, name: str | None = None, *, role: Role | str = Role.HOST) -> Path:
    """Save ``m`` in the player's own map folder as NAME.json and return the path.
    ``role``: the page's (companion.core.roles); only the host's page saves maps."""
    check_role(role, Write.MAP)
    name = (name or m.name).strip()
    if not _NAME.match(name):
        raise MapError("a map name uses letters, digits, spaces, '-', '_' or '.' (at most 61)")
    m.name = name
    club = _club_docs()
    if club is not None:
        club.write(f"{USER_MAPS}/{name}.json", json.dumps(m.to_dict(), indent=1))
        return Path(USER_MAPS, f"{name}.json")
    d = user_maps_dir()
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{name}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(m.to_dict(), indent=1), encoding="utf-8")
    tmp.replace(path)
    return path


def rectangle(cols: int, rows: int, kind: str = "empty") -> HexMap:
    """A blank roughly rectangular map (a start for the editor)."""
    systems = {}
    for r in range(rows):
        for x in range(cols):
            q = x - (r // 2)
            systems[(q, r)] = System(kind)
    return HexMap(systems, name="blank", title="Blank map")


def flower(centre: Hex) -> list[Hex]:
    """A 7-system sector tile: the centre and its six neighbours."""
    return [centre] + neighbours(centre)


def iter_line(start: Hex, d: Hex, n: int) -> Iterable[Hex]:
    for k in range(1, n + 1):
        yield add(start, d, k)
