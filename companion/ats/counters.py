"""What abilities count and test on a station (docs/abilities.md): the counters of
``per`` abilities (:func:`count`, also an objective's measure), the conditions of
``flat`` ones (:func:`condition`) and the values an evaluation needs
(:func:`known`, :func:`by_table`).

Pure functions: a station and a little :class:`Context` in, a number out.  Each
kind's evaluation (companion/ats/abilitykinds.py) is built on them;
:mod:`companion.ats.abilities` gives the evaluation of any ability.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from ..core.errors import UnknownCardValues
from .station import LOCATION, MAIN, PLACEHOLDER, Cell, Placed, Station, count_types, neighbours
from .vocabulary import Ability, Condition

T = TypeVar("T")

YEARS = 4
#: Power Reactors count as costing 1 for an ability that reads costs (R FAQ, Commercial
#: Zone: "Power Reactors have a cost of 1"); a cost printed as X counts as 1 ("X is
#: always considered to be 1").  The Main Reactor counts as a Power Reactor (R 2.2:
#: "Both types count as Power Reactors").
REACTOR_COST = 1
X_COST = 1


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
    extra: dict[str, int] = field(default_factory=dict)
    #: station-wide counts shared by the abilities evaluated on the same,
    #: unchanged station (one projection); never reuse it after a change
    cache: dict[Any, Any] = field(default_factory=dict)


def _memo(ctx: Context, key: Any, compute: Callable[[], T]) -> T:
    try:
        hit: T = ctx.cache[key]
        return hit
    except KeyError:
        v = ctx.cache[key] = compute()
        return v


def _types(ctx: Context, placed: Any, types: Any) -> int:
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


def known(v: int | None, ctx: Context, what: str) -> int:
    """A value the evaluation needs; not known yet: UnknownCardValues (the build and
    the final scoring ask for it before they evaluate)."""
    if v is None:
        raise UnknownCardValues(ctx.source, ["abilities"], why=f"its {what} is not known yet")
    return v


def count(ab: Ability | Mapping[str, Any], ctx: Context) -> int:
    """The number an ability with ``per:`` counts (also an objective's measure)."""
    ab = Ability.of(ab)
    st = ctx.station
    what = ab.per
    types = ab.types
    if what == "adjacent_location":
        cell = _need_cell(ctx, what)
        return _types(ctx, [st.cells[n] for n in neighbours(cell) if n in st.cells], types)
    if what == "station_location":
        n = _memo(ctx, ("station", tuple(types) if types else None),
                  lambda: _types(ctx, st.cells.values(), types))
        if not ab.include_self and ctx.cell is not None and ctx.cell in st.cells:
            n -= _types(ctx, [st.cells[ctx.cell]], types)
        return n
    if what == "location_within":
        cell = _need_cell(ctx, what)
        dist = st.distances_from(cell, cutoff=known(ab.distance, ctx, "distance"))
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
        return len(st.spaceships)
    if what == "adjacent_cost":
        cell = _need_cell(ctx, what)
        return sum(placed_cost(st.cells[n]) for n in neighbours(cell) if n in st.cells)
    if what == "reactor_spaceship":
        if "reactor_spaceship" in ctx.extra:
            return ctx.extra["reactor_spaceship"]
        free = {n for r in st.reactors() for n in neighbours(r)
                if n not in st.cells and n not in st.spaceships}
        return len(reactor_matching(st, free))
    if what == "other_station_location":
        return _memo(ctx, ("others", tuple(types) if types else None),
                     lambda: sum(_types(ctx, o.cells.values(), types) for o in ctx.others))
    raise ValueError(f"unknown counter {what}")


def placed_cost(p: Placed) -> int:
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


def reactor_matching(st: Station, free: set[Cell]) -> dict[Cell, Cell]:
    """reactor cell -> the free cell next to it its spaceship goes on, for as many
    reactors as possible, one spaceship per reactor and per space (R 3: "Each empty
    space cannot have more than 1 Spaceship in it").  Deterministic: reactors in
    (row, col) order, their sides up, down, left, right; augmenting paths."""
    options = {r: [n for n in neighbours(r) if n in free] for r in sorted(st.reactors())}
    owner: dict[Cell, Cell] = {}

    def augment(r: Cell, seen: set[Cell]) -> bool:
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


def condition(cond: Condition | Mapping[str, Any] | None, ctx: Context) -> bool:
    """Whether a flat ability's ``if`` holds (no condition: it always does)."""
    if cond is not None and not isinstance(cond, Condition):
        cond = Condition.of(cond)
    if cond is None:
        return True
    st = ctx.station
    if cond.test == "farthest":
        cell = _need_cell(ctx, "farthest_from_main_reactor")
        dist = _memo(ctx, "from_main", lambda: st.distances_from(MAIN))
        mine = dist.get(cell, 0)
        return all(d <= mine for c, d in dist.items() if st.cells[c].kind != PLACEHOLDER)
    if cond.test == "more":
        mine = _types(ctx, st.cells.values(), cond.more)
        theirs = _types(ctx, st.cells.values(), cond.than)
        return mine > theirs
    if cond.test == "adjacent_to":
        cell = _need_cell(ctx, "adjacent_to")
        return _types(ctx, [st.cells[n] for n in neighbours(cell) if n in st.cells],
                      cond.adjacent_to) > 0
    raise ValueError(f"unknown condition {dict(cond.raw)}")


def by_table(ab: Ability, n: int, ctx: Context) -> int:
    """The VP a table gives for ``n``: the row of the largest count <= n (0 if none)."""
    table = dict(ab.table) if ab.table is not None else None
    if table is None:
        raise UnknownCardValues(ctx.source, ["abilities"], why="its VP table is not known yet")
    keys = [k for k in table if k <= n]
    return table[max(keys)] if keys else 0


def cond_text(cond: Condition | None) -> str:
    return "always" if cond is None else cond.text()
