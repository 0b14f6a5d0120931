"""Laying a Small Star Empires map from typed sector tiles on a form (issue 24).

:func:`lay` puts each placement's tile, turned, on its place of the form, numbers the
homeworlds by homeworld place (the k-th homeworld place holds seat k+1), puts the
variants' tiles where the book says ("Place the Wormhole Systems on the middle Empty
System on the Main Sector Tiles."; "shuffle the Unexplored Systems face down and put one
tile without looking at it on each of the Empty Systems on the board. Put the rest back
in the box without looking at them.") and returns the map with its ``layout``: the form,
the placements and the tiles it came from, so that the record keeps what was played
whatever happens to the catalogue later (:func:`relay` lays it again from the layout
alone).  :func:`shuffle` deals the typed tiles and turns from the record's seed.

Pure Python: no widgets here.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core import chance
from ..core.safeio import check_tree, terminal_line
from .forms import Form, FormError
from .hexmap import COLOURS, Hex, HexMap, MapError, System, label, register_layout_check
from .tiles import BOX, SectorTile, TileError, id_problem

DEALT = ("hand", "shuffle")
#: the most entries a layout's placements and tiles may hold
MAX_LAYOUT_TILES = 40


@dataclass(frozen=True)
class Placement:
    """Tile ``tile`` on place ``place`` of the form, turned ``turn`` (0..5) steps of 60
    degrees clockwise; ``wormhole``: a wormhole on its middle (empty) system."""
    place: int
    tile: str
    turn: int
    wormhole: bool = False

    @classmethod
    def from_dict(cls, d: Any, i: int = 0) -> "Placement":
        where = f"placement {i}"
        if not isinstance(d, dict):
            raise LayError(f"{where} must be an object")
        extra = set(d) - {"place", "tile", "turn", "wormhole"}
        if extra:
            raise LayError(f"{where}: unknown key {terminal_line(repr(sorted(extra)[0]), 40)}")
        place: Any = d.get("place")
        tile: Any = d.get("tile")
        turn: Any = d.get("turn")
        worm: Any = d.get("wormhole", False)
        if not _whole(place, 0, 99):
            raise LayError(f"{where}: place is a whole number (the place's index in the form), "
                           f"not {terminal_line(repr(place), 40)}")
        problem = id_problem(tile)
        if problem:
            raise LayError(f"{where}: {problem}")
        if not _whole(turn, 0, 5):
            raise LayError(f"{where}: turn is 0 to 5, not {terminal_line(repr(turn), 40)}")
        if not isinstance(worm, bool):
            raise LayError(f"{where}: wormhole is true or false")
        return cls(place, tile, turn, worm)

    def to_dict(self) -> dict[str, Any]:
        return {"place": self.place, "tile": self.tile, "turn": self.turn,
                "wormhole": self.wormhole}


class LayError(MapError):
    """A map cannot be laid from these placements: one line."""


def _whole(v: Any, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def lay(form: Form, placements: Sequence[Placement], tiles: Mapping[str, SectorTile], *,
        unexplored: bool = False, dealt: str = "hand", shuffle: int | None = None) -> HexMap:
    """The galaxy of ``form`` with each placement's tile on its place (see the module)."""
    if dealt not in DEALT:
        raise LayError(f"dealt is hand or shuffle, not {terminal_line(repr(dealt), 40)}")
    n = len(form.places)
    on: dict[int, Placement] = {}
    for p in placements:
        if not isinstance(p, Placement):
            raise LayError("a placement must be a Placement")
        if not 0 <= p.place < n:
            raise LayError(f"place {p.place} is not in the form {form.name} (its places are 0 to "
                           f"{n - 1})")
        if p.place in on:
            raise LayError(f"place {p.place} has two tiles ({on[p.place].tile} and {p.tile})")
        on[p.place] = p
    missing = [i for i in range(n) if i not in on]
    if missing:
        raise LayError(f"place{'s' if len(missing) > 1 else ''} "
                       f"{', '.join(map(str, missing))} of the form {form.name} "
                       f"{'have' if len(missing) > 1 else 'has'} no tile yet")
    used: dict[str, int] = {}
    for i in range(n):
        p, place = on[i], form.places[i]
        tile = tiles.get(p.tile)
        if tile is None:
            raise LayError(f"place {i}: tile {p.tile} is not typed; type it from the box first")
        if tile.kind != place.kind:
            raise LayError(f"place {i} holds a {place.kind} sector tile; {tile.id} is a "
                           f"{tile.kind} sector tile")
        if tile.id in used:
            raise LayError(f"tile {tile.id} is on places {used[tile.id]} and {i}; a tile lies "
                           "in one place")
        for face in tile.physical():
            if face != tile.id and face in used:
                raise LayError(f"tiles {face} (place {used[face]}) and {tile.id} (place {i}) are "
                               "the two faces of one physical tile")
        for j, other in used.items():
            if tiles[j].other_side == tile.id:
                raise LayError(f"tiles {j} (place {other}) and {tile.id} (place {i}) are the two "
                               "faces of one physical tile")
        used[tile.id] = i
        if place.turn is not None and p.turn != place.turn:
            raise LayError(f"place {i} is turned {place.turn} in the form; {tile.id} is laid "
                           f"turned {p.turn}")
        if tile.reach() > form.reach:
            raise LayError(f"tile {tile.id} reaches {tile.reach()} systems from its middle; the "
                           f"places of form {form.name} hold tiles of reach {form.reach}")
    systems: dict[Hex, System] = {}
    owner: dict[Hex, int] = {}
    homes = {place: k + 1 for k, place in enumerate(form.homeworld_places())}
    worms = 0
    for i in range(n):
        p = on[i]
        tile = tiles[p.tile]
        mq, mr = form.middle(i)
        for (q, r), s in tile.rotated(p.turn).items():
            h = (q + mq, r + mr)
            if h in systems:
                raise LayError(f"places {owner[h]} and {i} overlap at {label(h)} (tiles "
                               f"{on[owner[h]].tile} and {tile.id})")
            if s.kind == "homeworld":
                s = System("homeworld", home=homes[i])
            systems[h] = s
            owner[h] = i
        if p.wormhole:
            if tile.middle() is None:
                raise LayError(f"place {i}: a wormhole goes on the middle empty system of a main "
                               f"sector tile; {tile.id} has none")
            worms += 1
            if worms > BOX["wormhole_black_hole"]:
                raise LayError(f"more wormholes than the box's {BOX['wormhole_black_hole']} "
                               "Wormhole/Black Hole Tiles")
            systems[(mq, mr)] = System("wormhole")
    if unexplored:
        empties = [h for h, s in systems.items() if s.kind == "empty"]
        if len(empties) > BOX["unexplored"]:
            raise LayError(f"the map has {len(empties)} empty systems; the box has "
                           f"{BOX['unexplored']} Unexplored System Tiles, one for each empty "
                           "system")
        for h in empties:
            systems[h] = System("unexplored")
    layout: dict[str, Any] = {"form": form.to_dict(), "dealt": dealt}
    if shuffle is not None:
        layout["shuffle"] = shuffle
    layout["places"] = [on[i].to_dict() for i in range(n)]
    layout["tiles"] = {on[i].tile: tiles[on[i].tile].to_dict() for i in range(n)}
    return HexMap(systems, name=f"laid-{form.name}", title=f"{form.title} (laid from tiles)",
                  players=form.players, approximate=False, layout=layout)


def shuffle(seed: int, form: Form, tiles: Mapping[str, SectorTile], *, n: int = 0,
            wormholes: bool = False) -> list[Placement]:
    """Deal the typed tiles to the places of ``form`` from ``seed`` (the record's) and
    ``n`` (the n-th shuffle of this game): homeworld tiles to homeworld places, main
    tiles to main places, one face of each physical tile, a turn for each place the form
    does not turn; ``wormholes``: a wormhole on the middle of main tiles (at most the
    box's 6).  The same arguments give the same placements on every device."""
    from .tiles import physical_tiles
    why = chance.seed_problem(seed)
    if why:
        raise LayError(f"the shuffle's seed {why}")
    if not _whole(n, 0, 1_000_000):
        raise LayError(f"the shuffle's number is a whole number from 0, not "
                       f"{terminal_line(repr(n), 40)}")
    rand = chance.rng(seed, "sector-tiles", form.name, n)
    groups = physical_tiles(tiles)
    taken: set[tuple[str, ...]] = set()
    dealt: dict[int, str] = {}
    for kind, places in (("homeworld", form.homeworld_places()), ("main", form.main_places())):
        candidates = [g for g in groups if g not in taken
                      and any(tiles[f].kind == kind for f in g)]
        if len(candidates) < len(places):
            typed = ", ".join("/".join(f for f in g if tiles[f].kind == kind)
                              for g in candidates) or "none"
            raise LayError(f"Shuffle needs {len(places)} {kind} sector tiles for this form; "
                           f"{len(candidates)} {'is' if len(candidates) == 1 else 'are'} typed "
                           f"({typed}). Type the others from the box first.")
        rand.shuffle(candidates)
        for place, g in zip(places, candidates):
            faces = [f for f in g if tiles[f].kind == kind]
            dealt[place] = faces[0] if len(faces) == 1 else rand.choice(faces)
            taken.add(g)
    turns = {i: (p.turn if p.turn is not None else rand.randrange(6))
             for i, p in enumerate(form.places)}
    holes: set[int] = set()
    if wormholes:
        eligible = [i for i in form.main_places() if tiles[dealt[i]].middle() is not None]
        k = min(len(eligible), BOX["wormhole_black_hole"])
        holes = set(rand.sample(eligible, k))
    return [Placement(i, dealt[i], turns[i], i in holes) for i in range(len(form.places))]


# ---------------------------------------------------------------------------
# the record's layout
# ---------------------------------------------------------------------------
def _parse_layout(layout: Any) -> tuple[Form, list[Placement], dict[str, SectorTile], str,
                                        int | None]:
    if not isinstance(layout, dict):
        raise LayError("layout must be an object")
    check_tree(layout, "layout", error=LayError, max_depth=10, max_items=5_000,
               max_string=5_000, floats=False)
    extra = set(layout) - {"form", "dealt", "shuffle", "places", "tiles"}
    if extra:
        raise LayError(f"layout: unknown key {terminal_line(repr(sorted(extra)[0]), 40)}")
    form = Form.from_dict(layout.get("form"))
    dealt = layout.get("dealt")
    if dealt not in DEALT:
        raise LayError(f"layout: dealt is hand or shuffle, not {terminal_line(repr(dealt), 40)}")
    n = layout.get("shuffle")
    if n is not None and not _whole(n, 0, 1_000_000):
        raise LayError(f"layout: shuffle is a whole number, not {terminal_line(repr(n), 40)}")
    raw_places = layout.get("places")
    if not isinstance(raw_places, list) or len(raw_places) > MAX_LAYOUT_TILES:
        raise LayError(f"layout: places must be a list of at most {MAX_LAYOUT_TILES} placements")
    placements = [Placement.from_dict(p, i) for i, p in enumerate(raw_places)]
    raw_tiles = layout.get("tiles")
    if not isinstance(raw_tiles, dict) or len(raw_tiles) > MAX_LAYOUT_TILES:
        raise LayError(f"layout: tiles must be an object of at most {MAX_LAYOUT_TILES} tiles")
    tiles: dict[str, SectorTile] = {}
    for key, d in raw_tiles.items():
        t = SectorTile.from_dict(d)
        if t.id != key:
            raise LayError(f"layout: tiles.{terminal_line(key, 30)} holds tile {t.id}")
        tiles[key] = t
    return form, placements, tiles, dealt, n


def layout_problem(layout: Any, systems: Mapping[Hex, System] | None = None) -> str | None:
    """Why ``layout`` is not a record map's layout (malformed, or one that cannot be laid),
    or None.  With ``systems`` (the map's own), also why they are not what the layout's
    tiles lay (issue 36: a map whose systems differ from the tiles its own layout names);
    an unexplored system stands where the tiles lay an empty one (its tile face down).
    A query: JSON only, size-limited."""
    try:
        form, placements, tiles, dealt, n = _parse_layout(layout)
        laid = lay(form, placements, tiles, dealt=dealt, shuffle=n)
    except (LayError, FormError, TileError, MapError) as e:
        return str(e)
    except RecursionError:
        return "layout: nested too deeply"
    if systems is None:
        return None
    for h in sorted(set(systems) | set(laid.systems)):
        got, want = systems.get(h), laid.systems.get(h)
        if got == want or (got is not None and want is not None and got.kind == "unexplored"
                           and want.kind == "empty"):
            continue
        return (f"the map differs from the sector tiles its layout lays: at {label(h)} the "
                f"map has {got.describe() if got else 'no system'}, the tiles lay "
                f"{want.describe() if want else 'no system'}")
    return None


def relay(layout: Any, *, unexplored: bool = False) -> HexMap:
    """The map laid again from ``layout`` alone (a record's map: its form, placements and
    tiles), with ``unexplored`` as :func:`lay`'s."""
    form, placements, tiles, dealt, n = _parse_layout(copy.deepcopy(layout))
    return lay(form, placements, tiles, unexplored=unexplored, dealt=dealt, shuffle=n)


def box_problem(the_map: HexMap, copies: int = 1) -> str | None:
    """Why ``the_map`` cannot be made with ``copies`` boxes of the game (the epic game mixes
    two: "shuffle the Main Sector Tiles from both copies of the game"), or None (issue 36:
    a record could name 4 red nebulae or 8 main sector tiles).  The book: "There are
    three Nebula Systems of each color"; Components: "7 Main Sector Tiles"."""
    counts = the_map.counts()
    for colour in COLOURS:
        n = counts.get(f"nebula {colour}", 0)
        if n > 3 * copies:
            return (f"the map has {n} {colour} nebulae; "
                    + ("the book: \"There are three Nebula Systems of each color\""
                       if copies == 1 else f"the epic game's {copies} boxes hold {3 * copies} "
                       "of each color (\"There are three Nebula Systems of each color\")"))
    if the_map.layout:
        form = Form.from_dict(the_map.layout.get("form"))
        mains = sum(1 for place in form.places if place.kind == "main")
        if mains > BOX["main"] * copies:
            return (f"the map is laid from {mains} main sector tiles; the box has "
                    f"{BOX['main']} (Components: \"{BOX['main']} Main Sector Tiles\")"
                    + (f", the epic game's {copies} boxes {BOX['main'] * copies}"
                       if copies > 1 else ""))
    return None


register_layout_check(layout_problem)
