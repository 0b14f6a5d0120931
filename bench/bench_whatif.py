"""What-if benchmark: the placement map and the hand ranking (companion/whatif.py).

This is a measurement script, not a test: it prints a table with each target
and PASS/MISS and always exits 0.  Run it from the repository root:

    .venv/bin/python bench/bench_whatif.py            # about 15 s
    .venv/bin/python bench/bench_whatif.py --quick    # fewer repetitions

What it times (time.perf_counter, several repetitions, median / p95 / min):

1. ``placement_map(game, player, card)`` (a build and "a reactor here" for
   every frontier cell, each tried and projected to the end of the game) for
   one card on stations of 10/20/40/80 locations.  Target: <= 10 ms at 40
   locations, and the cost roughly linear in the size (the growth ratios for
   x2 locations are printed).
2. ``hand_ranking(game, player, hand)`` for a hand of 7 cards on a
   40-location station.  Target: <= 100 ms.

The stations.  A real game ends before a station reaches 40 locations (one
action a turn, at most 27 turns), so the stations are built by placing cards
directly onto the players' ``Station`` objects in a ``Game``'s state with
``Station.place`` (every 4th cell a Power Reactor, holding 2 or 1 cubes, the
others cycling through the fixture cards below); the record does not replay to
that state, which the what-if views never need: they read ``game.state`` and
the catalogue only.  Both players get a station of the same size, so the
objectives compare two real stations.  Two shapes: a compact blob (9 columns
wide, the frontier grows like the perimeter) and a snake one cell wide (the
frontier grows linearly, the worst case).  As a cross-check, the map is also
timed on 10- and 20-location stations built through ``Game.push()`` with a
large reactor supply.

The cards are FIXTURES defined in the game's ``cards``: every name starts
with "Fixture: " and the numbers are invented for the benchmark; no real card
is given a value.  They cover the ability vocabulary the projection evaluates
(immediate and end abilities, adjacency, distance, farthest from the Main
Reactor, types, empty reactors, credits) and two objectives.

``COMPANION_HOME`` is set to a fresh temporary folder, so the player's own
catalogue is neither read nor changed.
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time

os.environ["COMPANION_HOME"] = tempfile.mkdtemp(prefix="bench-whatif-home-")

from companion import Game  # noqa: E402
from companion.ats.station import LOCATION, REACTOR, Placed  # noqa: E402
from companion.ats.whatif import hand_ranking, placement_map  # noqa: E402

PLAYERS = ["Ada", "Bo"]


def _card(name, types, cost, energy, vp, abilities=()):
    return {"name": name, "types": list(types), "cost": cost, "energy": energy, "vp": vp,
            "max": "none", "abilities": [dict(a) for a in abilities],
            "notes": "benchmark fixture: invented values, not a real card"}


FIXTURE_CARDS = [
    _card("Fixture: plain", ["business"], 1, 0, 1),
    _card("Fixture: adjacent +1", ["recreational"], 2, 1, 2,
          [{"when": "immediate", "per": "adjacent_location", "vp": 1}]),
    _card("Fixture: end per mil/bus", ["administrative"], 2, 1, 1,
          [{"when": "end", "per": "station_location", "types": ["military", "business"],
            "vp": 1}]),
    _card("Fixture: end within 2", ["military"], 3, 2, 2,
          [{"when": "end", "per": "location_within", "distance": 2, "vp": 1, "cap": 4}]),
    _card("Fixture: end farthest +3", ["diplomatic"], 1, 0, 0,
          [{"when": "end", "flat": 3, "if": {"farthest_from_main_reactor": True}}]),
    _card("Fixture: end adjacent military", ["administrative"], 1, 0, 0,
          [{"when": "end", "per": "adjacent_location", "types": ["military"], "vp": 1}]),
    _card("Fixture: end empty reactors", ["military"], 2, 1, 1,
          [{"when": "end", "per": "empty_reactor", "vp": 1}]),
    _card("Fixture: dual", ["military", "recreational"], 2, 1, 2),
    _card("Fixture: cubes now", ["business"], 2, 1, 1,
          [{"when": "immediate", "per": "energy_cube", "vp": 1, "cap": 3}]),
    {"name": "Fixture: objective most military", "category": "objective", "vp": 5,
     "most": {"per": "station_location", "types": ["military"]}},
    {"name": "Fixture: objective most credits", "category": "objective", "vp": 3,
     "most": {"per": "credit"}},
]
LOCATIONS = [c["name"] for c in FIXTURE_CARDS if c.get("category", "location") == "location"]
OBJECTIVES = [c["name"] for c in FIXTURE_CARDS if c.get("category") == "objective"]
MAP_CARD = "Fixture: adjacent +1"          # energy 1: the energy check runs on every cell
HAND = LOCATIONS[1:8]                      # 7 different cards


# --------------------------------------------------------------------------
# stations
# --------------------------------------------------------------------------
def blob_cells(n: int) -> list[tuple[int, int]]:
    """``n`` cells other than the Main Reactor: rows 9 wide (columns -4..4)
    filled in the order 0, 1, -1, 2, -2, ...; each touches one placed before."""
    cells: list[tuple[int, int]] = []
    r = 0
    while len(cells) < n:
        cells += [(r, c) for c in range(-4, 5) if (r, c) != (0, 0)]
        r = -r if r > 0 else -r + 1
    return cells[:n]


def snake_cells(n: int) -> list[tuple[int, int]]:
    """``n`` cells other than the Main Reactor in a snake one cell wide."""
    cells: list[tuple[int, int]] = []
    r, c, d = 0, 0, 1
    while len(cells) < n:
        for _ in range(8):
            c += d
            cells.append((r, c))
        cells += [(r + 1, c), (r + 2, c)]
        r, d = r + 2, -d
    return cells[:n]


def placed_game(n_locations: int, shape: str = "blob") -> Game:
    """A game whose two players each have ``n_locations`` locations (the Main
    Reactor and Power Reactors count, as in the rules), placed directly."""
    game = Game({"players": PLAYERS, "objectives": OBJECTIVES,
                 "options": {"reactor_supply": 99}}, cards=FIXTURE_CARDS)
    cells = (blob_cells if shape == "blob" else snake_cells)(n_locations - 1)
    for k, player in enumerate(PLAYERS):
        st = game.state.station(player)
        for i, cell in enumerate(cells):
            if i % 4 == 3:
                st.place(cell, Placed(REACTOR, cubes=2 if i % 8 == 3 else 1))
            else:
                card = game.catalogue.get(LOCATIONS[(i + k) % len(LOCATIONS)])
                st.place(cell, Placed(LOCATION, card.name, card.types))
        assert st.is_connected() and len(st.locations()) == n_locations
    return game


def pushed_game(n_locations: int) -> Game:
    """The same through Game.push(): Ada builds (a reactor every 4th action), Bo
    discards; the reactor supply is large so the station can keep growing."""
    game = Game({"players": PLAYERS, "objectives": OBJECTIVES,
                 "options": {"reactor_supply": 99}}, cards=FIXTURE_CARDS)
    rng = random.Random(n_locations)
    for i in range(n_locations - 1):
        acts = game.legal_entries("Ada", "Fixture: plain")
        reactors = [a for a in acts if a["do"] == "reactor"]
        builds = [a for a in acts if a["do"] == "build"]
        game.push(rng.choice(reactors if i % 4 == 3 or not builds else builds))
        game.push({"player": "Bo", "do": "discard", "card": "Fixture: plain"})
    assert len(game.state.station("Ada").locations()) == n_locations
    return game


# --------------------------------------------------------------------------
# timing
# --------------------------------------------------------------------------
def timeit(fn, reps: int, warmup: int = 2) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]


ROWS: list[tuple] = []


def row(what: str, xs: list[float], target_ms: float | None) -> float:
    med = statistics.median(xs)
    verdict = "" if target_ms is None else ("PASS" if med * 1000 <= target_ms else "MISS")
    ROWS.append((what, len(xs), med, p95(xs), min(xs),
                 "" if target_ms is None else f"<= {target_ms:g}", verdict))
    return med


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = ap.parse_args()
    k = 0.3 if args.quick else 1.0
    reps = lambda n: max(5, int(n * k))  # noqa: E731
    t_start = time.perf_counter()

    print("What-if benchmark (companion.ats.whatif)")
    print(f"  Python {platform.python_version()} ({platform.python_implementation()}) "
          f"on {platform.system()} {platform.machine()}; os.cpu_count() = {os.cpu_count()}")
    try:
        import networkx, pandas  # noqa: E401
        print(f"  networkx {networkx.__version__}, pandas {pandas.__version__}")
    except Exception:  # pragma: no cover
        pass
    print(f"  map card: {MAP_CARD!r}; hand: {len(HAND)} fixture cards")
    print()

    sizes = (10, 20, 40, 80)
    growth: dict[str, dict[int, float]] = {"blob": {}, "snake": {}}
    for shape in ("blob", "snake"):
        for n in sizes:
            game = placed_game(n, shape)
            df = placement_map(game, "Ada", MAP_CARD)
            options, legal = len(df), int(df.legal.sum())
            xs = timeit(lambda: placement_map(game, "Ada", MAP_CARD), reps(60 if n <= 40 else 25))
            growth[shape][n] = row(f"placement_map, {shape:5s} {n:2d} loc ({options} options, "
                                   f"{legal} legal)", xs, 10 if (n == 40 and shape == "blob")
                                   else None)
    for n in (10, 20):
        game = pushed_game(n)
        options = len(placement_map(game, "Ada", MAP_CARD))
        xs = timeit(lambda: placement_map(game, "Ada", MAP_CARD), reps(60))
        row(f"placement_map, built by push(), {n} loc ({options} options)", xs, None)

    game = placed_game(40, "blob")
    df = hand_ranking(game, "Ada", HAND)
    xs = timeit(lambda: hand_ranking(game, "Ada", HAND), reps(20), warmup=1)
    row(f"hand_ranking, 7 cards, blob 40 loc ({len(df)} rows)", xs, 100)
    game = placed_game(40, "snake")
    df = hand_ranking(game, "Ada", HAND)
    xs = timeit(lambda: hand_ranking(game, "Ada", HAND), reps(10), warmup=1)
    row(f"hand_ranking, 7 cards, snake 40 loc ({len(df)} rows)", xs, None)

    w = max(len(r[0]) for r in ROWS)
    print(f"{'measurement':<{w}}  {'n':>4}  {'median ms':>9}  {'p95 ms':>8}  {'min ms':>8}"
          f"  {'target ms':>9}  result")
    print("-" * (w + 57))
    for what, n, med, hi, lo, target, verdict in ROWS:
        print(f"{what:<{w}}  {n:>4}  {med * 1000:9.2f}  {hi * 1000:8.2f}  {lo * 1000:8.2f}"
              f"  {target:>9}  {verdict}")
    print()
    print("growth of placement_map (median time ratio for x2 locations; linear = x2):")
    for shape, times in growth.items():
        steps = ", ".join(f"{a}->{b}: x{times[b] / times[a]:.2f}" for a, b in zip(sizes, sizes[1:]))
        print(f"  {shape:5s} {steps}")
    misses = [r for r in ROWS if r[6] == "MISS"]
    print()
    print(f"{len([r for r in ROWS if r[6] == 'PASS'])} PASS, {len(misses)} MISS; "
          f"total bench time {time.perf_counter() - t_start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
