"""Evaluate abilities written in the catalogue's vocabulary (docs/abilities.md).

Pure functions: a station and a little context in, VP out.  ``manual`` and
``choice`` abilities need an answer from the players; the game engine handles
them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import catalogue as _catalogue
from ..core.errors import UnknownCardValues
from .station import LOCATION, MAIN, PLACEHOLDER, Cell, Station, count_types, neighbours

YEARS = 4
#: Power Reactors count as costing 1 for an ability that reads costs (R FAQ, Commercial
#: Zone: "Power Reactors have a cost of 1"); a cost printed as X counts as 1 ("X is
#: always considered to be 1").  The Main Reactor counts as a Power Reactor (R 2.2:
#: "Both types count as Power Reactors").
REACTOR_COST = 1
X_COST = 1

#: Vocabulary added by issue 11 (docs/abilities.md).  catalogue.py validates abilities
#: against COUNTERS and ABILITY_KINDS; these are registered there on import until that
#: file lists them itself (then this is a no-op).
NEW_COUNTERS: dict[str, tuple[str, ...]] = {
    "adjacent_cost": (),          # Commercial Zone (R FAQ)
    "reactor_spaceship": (),      # Recharging Station (R FAQ)
}
NEW_KINDS = ("remove_spaceships",)   # Travelling Exhibition (R FAQ)


def _register_vocabulary() -> None:
    for name, keys in NEW_COUNTERS.items():
        _catalogue.COUNTERS.setdefault(name, keys)
    missing = tuple(k for k in NEW_KINDS if k not in _catalogue.ABILITY_KINDS)
    if missing:
        _catalogue.ABILITY_KINDS = tuple(_catalogue.ABILITY_KINDS) + missing


_register_vocabulary()


@dataclass
class Context:
    station: Station
    cell: Cell | None            # the card's own cell (None for races/objectives)
    credits: int
    year: int                    # the year now (for remaining_year)
    source: str                  # card or race name, for error messages
    others: list[Station] = field(default_factory=list)   # other real players
    final: bool = False          # evaluated at game end
    #: what only the build knows: "reactor_spaceship" = spaceships it actually put
    extra: dict = field(default_factory=dict)
    #: station-wide counts shared by the abilities evaluated on the same,
    #: unchanged station (one projection); never reuse it after a change
    cache: dict = field(default_factory=dict)


def _memo(ctx: Context, key, compute):
    try:
        return ctx.cache[key]
    except KeyError:
        v = ctx.cache[key] = compute()
        return v


def _types(ctx: Context, placed, types):
    try:
        return count_types(placed, types)
    except LookupError as e:
        raise UnknownCardValues(str(e.args[0]), ["types"],
                                why=f"'{ctx.source}' counts location types") from None


def _need_cell(ctx: Context, what: str) -> Cell:
    if ctx.cell is None:
        raise UnknownCardValues(ctx.source, ["abilities"],
                                why=f"'{what}' needs the card's own cell")
    return ctx.cell


def count(ab: dict, ctx: Context) -> int:
    """The number an ability with ``per:`` counts."""
    st = ctx.station
    what = ab["per"]
    types = ab.get("types")
    if what == "adjacent_location":
        cell = _need_cell(ctx, what)
        return _types(ctx, [st.cells[n] for n in neighbours(cell) if n in st.cells], types)
    if what == "station_location":
        n = _memo(ctx, ("station", tuple(types) if types else None),
                  lambda: _types(ctx, st.cells.values(), types))
        if not ab.get("include_self", True) and ctx.cell is not None and ctx.cell in st.cells:
            n -= _types(ctx, [st.cells[ctx.cell]], types)
        return n
    if what == "location_within":
        cell = _need_cell(ctx, what)
        dist = st.distances_from(cell, cutoff=ab["distance"])
        return _types(ctx, [st.cells[c] for c, d in dist.items() if c != cell and d >= 1], types)
    if what == "reactor":
        return _memo(ctx, "reactor", lambda: len(st.reactors()))
    if what == "empty_reactor":
        return _memo(ctx, "empty_reactor",
                     lambda: sum(1 for c in st.reactors() if st.cells[c].cubes == 0))
    if what == "energy_cube":
        return _memo(ctx, "energy_cube", st.cubes)
    if what == "credit":
        return ctx.credits
    if what == "remaining_year":
        return max(0, YEARS - ctx.year)
    if what == "distinct_type":
        return _memo(ctx, "distinct_type", lambda: _distinct(ctx))
    if what == "spaceship":
        return len(st.blocked)
    if what == "adjacent_cost":
        cell = _need_cell(ctx, what)
        return sum(placed_cost(st.cells[n]) for n in neighbours(cell) if n in st.cells)
    if what == "reactor_spaceship":
        if "reactor_spaceship" in ctx.extra:
            return ctx.extra["reactor_spaceship"]
        free = {n for r in st.reactors() for n in neighbours(r)
                if n not in st.cells and n not in st.blocked}
        return len(reactor_matching(st, free))
    if what == "other_station_location":
        return _memo(ctx, ("others", tuple(types) if types else None),
                     lambda: sum(_types(ctx, o.cells.values(), types) for o in ctx.others))
    raise ValueError(f"unknown counter {what}")


def placed_cost(p) -> int:
    """The cost an ability that reads costs sees for a card in the station (R FAQ,
    Commercial Zone): its printed credit cost; X counts 1; a Power Reactor (and the
    Main Reactor) 1; a face-down placeholder is not a location (B 5) and counts 0."""
    if p.kind == PLACEHOLDER:
        return 0
    if p.is_reactor:
        return REACTOR_COST
    if p.cost == "X":
        return X_COST
    if p.cost is None:
        raise UnknownCardValues(p.card or "?", ["cost"], why="an ability reads the cost of "
                                "the cards next to it")
    return int(p.cost)


def reactor_matching(st: Station, free: set) -> dict:
    """reactor cell -> the free cell next to it its spaceship goes on, for as many
    reactors as possible, one spaceship per reactor and per space (R 3: "Each empty
    space cannot have more than 1 Spaceship in it").  Deterministic: reactors in
    (row, col) order, their sides up, down, left, right; augmenting paths."""
    options = {r: [n for n in neighbours(r) if n in free] for r in sorted(st.reactors())}
    owner: dict = {}

    def augment(r, seen) -> bool:
        for c in options[r]:
            if c in seen:
                continue
            seen.add(c)
            if c not in owner or augment(owner[c], seen):
                owner[c] = r
                return True
        return False

    for r in options:
        augment(r, set())
    return {r: c for c, r in owner.items()}


def _distinct(ctx: Context) -> int:
    seen: set[str] = set()
    for p in ctx.station.cells.values():
        if p.kind == LOCATION:
            if p.types is None:
                raise UnknownCardValues(p.card or "?", ["types"],
                                        why=f"'{ctx.source}' counts location types")
            seen.update(p.types)
    return len(seen)


def condition(cond: dict | None, ctx: Context) -> bool:
    if not cond:
        return True
    st = ctx.station
    if "farthest_from_main_reactor" in cond:
        cell = _need_cell(ctx, "farthest_from_main_reactor")
        dist = _memo(ctx, "from_main", lambda: st.distances_from(MAIN))
        mine = dist.get(cell, 0)
        return all(d <= mine for c, d in dist.items() if st.cells[c].kind != PLACEHOLDER)
    if "more" in cond:
        mine = _types(ctx, st.cells.values(), cond["more"])
        theirs = _types(ctx, st.cells.values(), cond["than"])
        return mine > theirs
    if "adjacent_to" in cond:
        cell = _need_cell(ctx, "adjacent_to")
        return _types(ctx, [st.cells[n] for n in neighbours(cell) if n in st.cells],
                      cond["adjacent_to"]) > 0
    raise ValueError(f"unknown condition {cond}")


def value(ab: dict, ctx: Context) -> int:
    """VP an ability gives now, caps applied (no explanation: the fast path)."""
    if "per" in ab:
        n = count(ab, ctx)
        if "table" in ab:
            keys = [k for k in ab["table"] if k <= n]
            vp = ab["table"][max(keys)] if keys else 0
        else:
            vp = (n // ab.get("every", 1)) * ab["vp"]
    elif "flat" in ab:
        vp = ab["flat"] if condition(ab.get("if"), ctx) else 0
    else:
        raise ValueError("manual and choice abilities are resolved by the game")
    cap = ab.get("cap")
    return cap if cap is not None and vp > cap else vp


def evaluate(ab: dict, ctx: Context) -> tuple[int, str]:
    """VP an ability gives now, and a short explanation.  Caps applied."""
    if "per" in ab:
        n = count(ab, ctx)
        if "table" in ab:
            table = ab["table"]
            keys = [k for k in table if k <= n]
            vp = table[max(keys)] if keys else 0
            why = f"{n} {ab['per'].replace('_', ' ')}(s) -> {vp} by the table"
        else:
            every = ab.get("every", 1)
            vp = (n // every) * ab["vp"]
            unit = f"per {every} " if every != 1 else "per "
            why = f"{ab['vp']:+d} {unit}{ab['per'].replace('_', ' ')}: {n}"
    elif "flat" in ab:
        ok = condition(ab.get("if"), ctx)
        vp = ab["flat"] if ok else 0
        if ab.get("if"):
            why = f"{ab['flat']:+d} if {_cond_text(ab.get('if'))}: {'met' if ok else 'not met'}"
        else:
            why = f"{ab['flat']:+d}"
    else:
        raise ValueError("manual and choice abilities are resolved by the game")
    cap = ab.get("cap")
    if cap is not None and vp > cap:
        why += f", capped at {cap}"
        vp = cap
    return vp, why


def _cond_text(cond: dict | None) -> str:
    if not cond:
        return "always"
    if "farthest_from_main_reactor" in cond:
        return "no location is farther from the Main Reactor"
    if "more" in cond:
        return f"more {'/'.join(cond['more'])} than {'/'.join(cond['than'])}"
    if "adjacent_to" in cond:
        return f"adjacent to {'/'.join(cond['adjacent_to'])}"
    return str(cond)


def reads_other_stations(ab: dict) -> bool:
    return ab.get("per") == "other_station_location"


def describe(ab: dict) -> str:
    """One line a player can read."""
    when = {"immediate": "now", "end": "at game end", None: "(timing?)"}[ab.get("when")]
    if "per" in ab:
        t = f" [{'/'.join(ab['types'])}]" if ab.get("types") else ""
        if "table" in ab:
            s = f"table by {ab['per'].replace('_', ' ')}"
        else:
            vp = "?" if ab["vp"] is None else f"{ab['vp']:+d}"
            every = ab.get("every", 1)
            s = f"{vp} per {'' if every == 1 else str(every) + ' '}{ab['per'].replace('_', ' ')}{t}"
            if ab["per"] == "location_within":
                s += f" within {ab['distance']}"
    elif "flat" in ab:
        s = f"{'?' if ab['flat'] is None else format(ab['flat'], '+d')} if {_cond_text(ab.get('if'))}"
    elif "choice" in ab:
        s = f"others pay {ab['pay']} credit or lose {ab['lose']} VP"
    elif "spaceships" in ab:
        s = f"place {ab['spaceships']} spaceship(s) ({ab.get('target', 'other')} stations)"
    elif "remove_spaceships" in ab:
        s = f"remove up to {ab['remove_spaceships']} of your spaceships"
    else:
        s = "VP typed by the players"
    if "cap" in ab:
        s += f" (max {'?' if ab['cap'] is None else ab['cap']})"
    return f"{s}, {when}"
