"""A player's space station: a grid of cells held in a networkx graph.

Cells are ``(row, col)`` with the Main Reactor at ``(0, 0)``; rows grow downward
and columns to the right.  Two cells are adjacent when they share a side.
Distance is counted *through built locations only*, each location one step (B
FAQ: two locations with nothing directly between them are 4 apart, not 2).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Iterator

import networkx as nx

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
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return (value[0], value[1])
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
        new = cell not in self.cells
        self.cells[cell] = placed
        if new:                    # a card replacing a placeholder keeps its edges
            graph = self.own_graph()
            graph.add_node(cell)
            for n in neighbours(cell):
                if n in self.cells:
                    graph.add_edge(cell, n)
        self.spaceships.discard(cell)

    def remove(self, cell: Cell) -> None:
        """Take a card out of the station (round-end fixes)."""
        del self.cells[cell]
        self.own_graph().remove_node(cell)

    def take_cube(self, cell: Cell) -> None:
        p = self.cells[cell]
        self.cells[cell] = replace(p, cubes=p.cubes - 1)

    # -- queries -------------------------------------------------------------
    def __contains__(self, cell: Cell) -> bool:
        return cell in self.cells

    def in_bounds(self, cell: Cell) -> bool:
        if self.bounds is None:
            return True
        r0, r1, c0, c1 = self.bounds
        return r0 <= cell[0] <= r1 and c0 <= cell[1] <= c1

    def is_adjacent_to_built(self, cell: Cell) -> bool:
        return any(n in self.cells for n in neighbours(cell))

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
        out = [(c, d, self.cells[c].cubes) for c, d in dist.items()
               if self.cells[c].is_reactor]
        return sorted(out, key=lambda t: (t[1], -t[2], t[0]))

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
        return sum(1 for p in self.cells.values()
                   if p.kind == LOCATION and p.card and p.card.lower() == card.lower())

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
