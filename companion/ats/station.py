"""A player's space station: a grid of cells held in a networkx graph.

Cells are ``(row, col)`` with the Main Reactor at ``(0, 0)``; rows grow downward
and columns to the right.  Two cells are adjacent when they share a side.
Distance is counted *through built locations only*, each location one step (B
FAQ: two locations with nothing directly between them are 4 apart, not 2).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import networkx as nx

from .render import station_svg

Cell = tuple[int, int]
MAIN = (0, 0)
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))

MAIN_REACTOR = "main_reactor"
REACTOR = "reactor"
LOCATION = "location"
PLACEHOLDER = "placeholder"   # face-down reactor left by a round-end removal


@dataclass(frozen=True)
class Placed:
    kind: str                       # main_reactor | reactor | location | placeholder
    card: str | None = None         # location card name (None for reactors)
    types: tuple[str, ...] | None = ()
    cubes: int = 0
    year: int = 0
    turn: int = 0
    cost: int | str | None = None   # a location's printed credit cost ("X" if so printed)

    @property
    def is_reactor(self) -> bool:
        return self.kind in (MAIN_REACTOR, REACTOR)

    @property
    def label(self) -> str:
        if self.kind == MAIN_REACTOR:
            return "Main Reactor"
        if self.kind == REACTOR:
            return "Power Reactor"
        if self.kind == PLACEHOLDER:
            return "(placeholder)"
        return self.card or "?"


def neighbours(cell: Cell) -> Iterator[Cell]:
    r, c = cell
    for dr, dc in STEPS:
        yield (r + dr, c + dc)


def as_cell(value: Any) -> Cell:
    """``[r, c]`` -> ``(r, c)``; raises ValueError for anything else."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        r, c = value
        if type(r) is int and type(c) is int:       # the usual case, checked fast
            return (r, c)
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return (r, c)
    raise ValueError(f"a cell is [row, col] with two whole numbers, not {value!r}")


class Station:
    """The built cells of one player, its spaceships (Revival) and its bounds."""

    def __init__(self, *, bounds: tuple[int, int, int, int] | None = None):
        self.cells: dict[Cell, Placed] = {MAIN: Placed(MAIN_REACTOR, cubes=2)}
        self.graph = nx.Graph()
        self.graph.add_node(MAIN)
        #: empty spaces holding a spaceship (Revival, R 3): nothing may be built there
        self.spaceships: set[Cell] = set()
        #: (min_row, max_row, min_col, max_col) for the Limited Space variant
        self.bounds = bounds
        self._shared_graph = False
        #: copies of each location card (lower-case name), counted for ``_counted``
        #: (the cells dict they were counted on: a subclass that assigns ``cells``
        #: anew has them counted again)
        self._copies: dict[str, int] = {}
        self._counted: dict[Cell, Placed] | None = self.cells

    def _repr_svg_(self) -> str:
        """The station as a picture in Jupyter (its rich display, as python-chess's
        ``Board._repr_svg_``): :func:`companion.ats.render.station_svg`."""
        return station_svg(self)

    def copy(self) -> "Station":
        """An independent copy.  The graph is shared until either side changes it
        (copy on write): copying a state for a query costs a dict and a set per
        station, and a change to the copy can never reach the original."""
        s = Station.__new__(Station)
        s.cells = dict(self.cells)
        s.graph = self.graph
        s.spaceships = set(self.spaceships)
        s.bounds = self.bounds
        s._shared_graph = self._shared_graph = True
        if getattr(self, "_counted", None) is self.cells:
            s._copies, s._counted = dict(self._copies), s.cells
        else:
            s._counted = None
        return s

    @property
    def blocked(self) -> set[Cell]:
        """The old name of :attr:`spaceships` (the same set), for the pages and
        scripts written before the rename."""
        return self.spaceships

    def own_graph(self) -> nx.Graph:
        """The graph, to change: copied first if another station shares it (for a
        subclass that changes the graph itself, as the what-if views' scratch
        station does when it takes its trial cells back)."""
        if getattr(self, "_shared_graph", False):
            self.graph = self.graph.copy()
            self._shared_graph = False
        return self.graph

    # -- building ------------------------------------------------------------
    def place(self, cell: Cell, placed: Placed) -> None:
        cells = self.cells
        old = cells.get(cell)
        cells[cell] = placed
        if getattr(self, "_counted", None) is cells:    # the copies counter (_count)
            copies = self._copies
            if old is not None and old.kind == LOCATION and old.card:
                key = old.card.lower()
                copies[key] = copies.get(key, 0) - 1
            if placed.kind == LOCATION and placed.card:
                key = placed.card.lower()
                copies[key] = copies.get(key, 0) + 1
        if old is None:            # a card replacing a placeholder keeps its edges
            graph = self.own_graph()
            graph.add_node(cell)
            r, c = cell
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if n in cells:
                    graph.add_edge(cell, n)
        self.spaceships.discard(cell)

    def _count(self, placed: Placed, change: int) -> None:
        """Keep the copies counter (:meth:`copies_of`) as ``placed`` comes or goes."""
        if placed.kind == LOCATION and placed.card:
            key = placed.card.lower()
            self._copies[key] = self._copies.get(key, 0) + change

    def remove(self, cell: Cell) -> None:
        """Take a card out of the station (round-end fixes)."""
        old = self.cells.pop(cell)
        if getattr(self, "_counted", None) is self.cells:
            self._count(old, -1)
        self.own_graph().remove_node(cell)

    def take_cube(self, cell: Cell) -> None:
        p = self.cells[cell]          # dataclasses.replace(p, cubes=p.cubes - 1), faster:
        taken = object.__new__(Placed)  # the frozen fields set as its __init__ would
        taken.__dict__.update(vars(p))
        taken.__dict__["cubes"] = p.cubes - 1
        self.cells[cell] = taken

    # -- queries -------------------------------------------------------------
    def __contains__(self, cell: Cell) -> bool:
        return cell in self.cells

    def in_bounds(self, cell: Cell) -> bool:
        if self.bounds is None:
            return True
        r0, r1, c0, c1 = self.bounds
        return r0 <= cell[0] <= r1 and c0 <= cell[1] <= c1

    def is_adjacent_to_built(self, cell: Cell) -> bool:
        cells, (r, c) = self.cells, cell
        return ((r - 1, c) in cells or (r + 1, c) in cells or (r, c - 1) in cells
                or (r, c + 1) in cells)

    def frontier(self) -> list[Cell]:
        """Empty cells next to a built location: where something may go."""
        out = set()
        for cell in self.cells:
            for n in neighbours(cell):
                if n not in self.cells and n not in self.spaceships and self.in_bounds(n):
                    out.add(n)
        return sorted(out)

    def distances_from(self, cell: Cell, cutoff: int | None = None) -> dict[Cell, int]:
        """Distance from ``cell`` (built or not) to every built cell within ``cutoff``.

        The path runs through built locations only; ``cell`` itself may be empty
        (a location about to be built), which is how the energy range is found.
        """
        adj = self.graph._adj         # a plain breadth-first search: same result as
        if cell in self.cells:        # nx.single_source_shortest_path_length, faster
            dist: dict[Cell, int] = {cell: 0}
            frontier = [cell]
            d = 0
        else:
            frontier = [n for n in neighbours(cell) if n in self.cells]
            dist = {n: 1 for n in frontier}
            d = 1
        while frontier and (cutoff is None or d < cutoff):
            d += 1
            nxt = []
            for f in frontier:
                for n in adj[f]:
                    if n not in dist:
                        dist[n] = d
                        nxt.append(n)
            frontier = nxt
        return dist

    def distance(self, a: Cell, b: Cell) -> float:
        """Steps from ``a`` to ``b`` through built locations (inf if none)."""
        if a == b:
            return 0
        if a not in self.cells and b not in self.cells:
            raise ValueError("at least one end must be built")
        if a not in self.cells:
            a, b = b, a
        if b in self.cells:
            try:
                n: float = nx.shortest_path_length(self.graph, a, b)
                return n
            except nx.NetworkXNoPath:
                return float("inf")
        return self.distances_from(b).get(a, float("inf"))

    def reactors_in_range(self, cell: Cell, reach: int = 2) -> list[tuple[Cell, int, int]]:
        """Reactors within ``reach`` of ``cell``: ``(reactor cell, distance, cubes)``."""
        dist = self.distances_from(cell, cutoff=reach)
        cells = self.cells
        out = [(c, d, p.cubes) for c, d in dist.items()
               if (p := cells[c]).kind == MAIN_REACTOR or p.kind == REACTOR]   # is_reactor
        out.sort(key=lambda t: (t[1], -t[2], t[0]))
        return out

    def energy_in_range(self, cell: Cell, reach: int = 2) -> int:
        return sum(cubes for _, _, cubes in self.reactors_in_range(cell, reach))

    def default_energy(self, cell: Cell, amount: int, reach: int = 2) -> list[Cell] | None:
        """The documented default payer: nearest reactor first, then the one with
        more cubes, then the lowest (row, col).  None if the cubes are not there."""
        out: list[Cell] = []
        for c, _, cubes in self.reactors_in_range(cell, reach):
            take = min(cubes, amount - len(out))
            out += [c] * take
            if len(out) == amount:
                return out
        return out if len(out) == amount else None

    def locations(self, *, reactors: bool = True) -> list[Cell]:
        """Cells that count as locations (placeholders never do)."""
        return [c for c, p in self.cells.items()
                if p.kind != PLACEHOLDER and (reactors or p.kind == LOCATION)]

    def reactors(self) -> list[Cell]:
        return [c for c, p in self.cells.items() if p.is_reactor]

    def cubes(self) -> int:
        return sum(p.cubes for p in self.cells.values() if p.is_reactor)

    def copies_of(self, card: str) -> int:
        if getattr(self, "_counted", None) is not self.cells:   # cells assigned anew
            self._copies = {}
            for p in self.cells.values():
                self._count(p, 1)
            self._counted = self.cells
        return self._copies.get(card.lower(), 0)

    def is_connected(self) -> bool:
        return bool(nx.is_connected(self.graph))

    def bbox(self) -> tuple[int, int, int, int]:
        rows = [c[0] for c in self.cells] + [c[0] for c in self.spaceships]
        cols = [c[1] for c in self.cells] + [c[1] for c in self.spaceships]
        return min(rows), max(rows), min(cols), max(cols)


def count_types(placed: Iterable[Placed], types: Iterable[str] | None) -> int:
    """Count locations; with ``types``, a dual-type card counts once per matching type."""
    total = 0
    wanted = frozenset(types) if types else None
    for p in placed:
        if p.kind == PLACEHOLDER:
            continue
        if wanted is None:
            total += 1
        elif p.kind == LOCATION:
            if p.types is None:
                raise LookupError(p.card)
            for t in p.types:
                if t in wanted:
                    total += 1
    return total
