"""Engine benchmark: prints timings of the rules engine on this machine.

This is a measurement script, not a test: it prints a table with each target
and PASS/MISS.  Run it from the repository root:

    PYTHONPATH=. python bench/bench_engine.py          # about 20-40 s
    PYTHONPATH=. python bench/bench_engine.py --quick  # fewer repetitions

What it measures (all with time.perf_counter, several repetitions, median
and p95 / min reported):

1. ``Game.from_record`` of a complete 6-player game (4 years x 6 turns x
   6 players = 144 actions): a record from outside (the bounded reader's checks,
   ``validate_record``, first) and the replay of a record the companion wrote itself
   (``trusted=True``: the store, memory; target 4 ms, issue 23).  The record is built once by playing a random
   legal game (seeded) with FIXTURE cards defined in the record's ``cards``
   (names start with "Fixture: "; their numbers are invented for the
   benchmark and never describe a real card).  Builds are preferred when
   legal, so the stations grow as large as the rules allow.
2. ``game.score()`` on that finished game.
3. ``game.push`` / ``game.check`` per action and ``game.pop`` (undo) on the
   full record: with the state kept from before the last action (target 4 ms,
   issue 23), and without it (the replay of the other 143 actions).
4. The legal cells plus energy checks for one card on stations of
   10/20/40/80 locations: the Station-level queries that
   ``Game.legal_cells`` / ``Game.payers`` run (``frontier()``,
   ``energy_in_range()``, ``reactors_in_range()``), on stations built
   directly with ``Station.place`` in two shapes (a compact blob and a
   one-cell-wide snake, the worst case for the frontier).  For 10 and 20
   locations the Game-level ``legal_cells`` + ``payers`` is timed too.
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

# Keep the player's own catalogue out of the measurement (and untouched).
os.environ["COMPANION_HOME"] = tempfile.mkdtemp(prefix="bench-companion-home-")

from companion import Game  # noqa: E402
from companion.ats.station import LOCATION, REACTOR, Placed, Station  # noqa: E402

PLAYERS = ["Ada", "Bo", "Cy", "Di", "Eve", "Flo"]
SEED = 20240601

# --------------------------------------------------------------------------
# Fixture cards.  Invented values, for the benchmark only; every name starts
# with "Fixture: " and no real card is given a value.  They exercise the
# ability vocabulary the engine evaluates during the game and at the end.
# --------------------------------------------------------------------------
FIXTURE_CARDS = [
    {"name": "Fixture: plain", "types": ["business"], "cost": 1, "energy": 0, "vp": 1,
     "max": "none", "abilities": []},
    {"name": "Fixture: adjacent +1", "types": ["recreational"], "cost": 2, "energy": 1, "vp": 2,
     "max": "none", "abilities": [{"when": "immediate", "per": "adjacent_location", "vp": 1}]},
    {"name": "Fixture: end per mil/bus", "types": ["administrative"], "cost": 2, "energy": 1,
     "vp": 1, "max": "none",
     "abilities": [{"when": "end", "per": "station_location", "types": ["military", "business"],
                    "vp": 1}]},
    {"name": "Fixture: end within 2", "types": ["military"], "cost": 3, "energy": 2, "vp": 2,
     "max": "none",
     "abilities": [{"when": "end", "per": "location_within", "distance": 2, "vp": 1, "cap": 4}]},
    {"name": "Fixture: end farthest +3", "types": ["diplomatic"], "cost": 1, "energy": 0, "vp": 0,
     "max": "none",
     "abilities": [{"when": "end", "flat": 3, "if": {"farthest_from_main_reactor": True}}]},
    {"name": "Fixture: others' military", "types": ["business"], "cost": 2, "energy": 1, "vp": 1,
     "max": "none",
     "abilities": [{"when": "immediate", "per": "other_station_location", "types": ["military"],
                    "vp": 1, "cap": 3}]},
    {"name": "Fixture: end empty reactors", "types": ["military"], "cost": 2, "energy": 1, "vp": 1,
     "max": "none", "abilities": [{"when": "end", "per": "empty_reactor", "vp": 1}]},
    {"name": "Fixture: dual", "types": ["military", "recreational"], "cost": 2, "energy": 1,
     "vp": 2, "max": "none", "abilities": []},
    {"name": "Fixture: objective most military", "category": "objective", "vp": 5,
     "most": {"per": "station_location", "types": ["military"]}},
    {"name": "Fixture: objective most reactors", "category": "objective", "vp": 3,
     "most": {"per": "reactor"}},
    {"name": "Fixture: objective most credits", "category": "objective", "vp": 4,
     "most": {"per": "credit"}},
    {"name": "Fixture: objective most business", "category": "objective", "vp": 4,
     "most": {"per": "station_location", "types": ["business"]}},
    {"name": "Fixture: objective most cubes", "category": "objective", "vp": 3,
     "most": {"per": "energy_cube"}},
    {"name": "Fixture: objective most types", "category": "objective", "vp": 5,
     "most": {"per": "distinct_type"}},
]
#: the book draws as many objectives as players (B 3): six, all the fixtures'
OBJECTIVES = [c["name"] for c in FIXTURE_CARDS if c.get("category") == "objective"]
LOCATION_FIXTURES = [c["name"] for c in FIXTURE_CARDS if c.get("category", "location") == "location"]


# --------------------------------------------------------------------------
# timing helpers
# --------------------------------------------------------------------------
def timeit(fn, reps: int, warmup: int = 1) -> list[float]:
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


def ms(x: float) -> str:
    return f"{x * 1000:8.3f}"


ROWS: list[tuple] = []


def row(what: str, xs: list[float], target_ms: float | None, n: int | None = None):
    med = statistics.median(xs)
    verdict = "" if target_ms is None else ("PASS" if med * 1000 <= target_ms else "MISS")
    ROWS.append((what, len(xs) if n is None else n, med, p95(xs), min(xs),
                 "" if target_ms is None else f"<= {target_ms:g}", verdict))


# --------------------------------------------------------------------------
# 1. a complete random 6-player game
# --------------------------------------------------------------------------
def play_random_game(seed: int = SEED) -> dict:
    rng = random.Random(seed)
    game = Game({"players": PLAYERS, "mode": "standard",
                 "objectives": OBJECTIVES, "seed": seed + 1},
                cards=FIXTURE_CARDS, book_setup=False)
    while not game.finished:
        for player in list(game.state.waiting):
            card = rng.choice(LOCATION_FIXTURES)
            acts = game.legal_entries(player, card)
            builds = [a for a in acts if a["do"] == "build"]
            reactors = [a for a in acts if a["do"] == "reactor"]
            if builds:
                action = rng.choice(builds)
            elif reactors and rng.random() < 0.6:
                action = rng.choice(reactors)
            else:
                action = [a for a in acts if a["do"] == "discard"][0]
            game.push(action)
    return game.to_record()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = ap.parse_args()
    k = 1 if not args.quick else 0.3
    reps = lambda n: max(5, int(n * k))  # noqa: E731

    t_start = time.perf_counter()
    print("Engine benchmark (companion)")
    print(f"  Python {platform.python_version()} ({platform.python_implementation()}) "
          f"on {platform.system()} {platform.machine()}")
    print(f"  processor: {platform.processor() or '?'}; os.cpu_count() = {os.cpu_count()}")
    try:
        import networkx, pandas  # noqa: E401
        print(f"  networkx {networkx.__version__}, pandas {pandas.__version__}")
    except Exception:  # pragma: no cover
        pass

    t0 = time.perf_counter()
    record = play_random_game()
    build_s = time.perf_counter() - t0
    actions = record["actions"]
    game = Game.from_record(record)
    assert game.finished and len(actions) == 144, (game.finished, len(actions))
    kinds = {d: sum(1 for a in actions if a["do"] == d) for d in ("build", "reactor", "discard")}
    sizes = [len(game.state.station(p).cells) for p in PLAYERS]
    print(f"  random game (seed {SEED}) played in {build_s:.2f} s: {len(actions)} actions "
          f"({kinds['build']} builds, {kinds['reactor']} reactors, {kinds['discard']} discards); "
          f"station cells per player {sizes}")
    print()

    # 1. replay (cold: the first call in a process also parses the shipped YAML)
    from companion.ats import catalogue as _cat
    cold = []
    for _ in range(3):
        getattr(_cat, "_CACHE", {}).clear()
        t0 = time.perf_counter()
        Game.from_record(record)
        cold.append(time.perf_counter() - t0)
    row("from_record, cold (YAML catalogue parsed again)", cold, None)
    row("from_record: complete 6-player game (144 actions), from outside (checked)",
        timeit(lambda: Game.from_record(record), reps(100)), 30)
    row("replay: from_record(trusted=True), the store's record (144 actions)",
        timeit(lambda: Game.from_record(record, trusted=True), reps(100)), 4)

    # 2. final scoring
    sc = game.score()
    assert sc.final
    row("score(): final scoring, finished game", timeit(game.score, reps(150), warmup=3), 5)

    # 3. push / check per action, pop on the full record
    push_t, check_t = [], []
    for _ in range(max(1, int(3 * k))):
        g = Game(record["setup"], cards=record["cards"], book_setup=False)
        for a in actions:
            t0 = time.perf_counter()
            g.check(a)
            check_t.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            g.push(a)
            push_t.append(time.perf_counter() - t0)
    row("push(): per action (all 144 actions)", push_t, None)
    row("check(): per action (all 144 actions)", check_t, None)

    g = Game.from_record(record, trusted=True)
    pop_t = []
    for _ in range(reps(100)):
        t0 = time.perf_counter()
        last = g.pop()
        pop_t.append(time.perf_counter() - t0)
        g.push(last)
    row("undo: pop() on the full record (state kept before the last action)", pop_t, 4)
    pop_t = []
    for _ in range(reps(30)):
        g = Game.from_record(record, trusted=True)
        g._undo.clear()                   # no state kept: pop replays the record
        t0 = time.perf_counter()
        g.pop()
        pop_t.append(time.perf_counter() - t0)
    row("pop() with no state kept (replays the other 143)", pop_t, None)

    # 3b. the same through two pages' GameSession on one store (SQLite in a temp folder)
    from companion.table.store import Store
    from companion.ui.session import GameSession
    store = Store(os.path.join(os.environ["COMPANION_HOME"], "bench-games.sqlite"))
    gid = store.create({**record, "actions": actions[:-1]}, title="bench")
    one, two = GameSession(store), GameSession(store)
    one.open(gid)
    two.open(gid)
    sync_t, undo_t = [], []
    for _ in range(reps(30)):
        one.push(actions[-1])
        t0 = time.perf_counter()
        two.sync()
        sync_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        one.undo()
        undo_t.append(time.perf_counter() - t0)
        two.sync()
    assert two.game.to_record() == one.game.to_record()
    store.close()
    row("GameSession.sync: another page's action (store read, 1 action replayed)", sync_t, None)
    row("GameSession.undo: store write + pop()", undo_t, None)

    # 4. legal cells + energy checks vs station size, two shapes
    sizes_wanted = (10, 20, 40, 80)
    per_size: dict[str, dict[int, float]] = {"blob": {}, "snake": {}}
    for shape in ("blob", "snake"):
        for n in sizes_wanted:
            st = make_station(n, shape)
            nloc = len(st.locations())
            assert nloc == n, (shape, n, nloc)
            xs = timeit(lambda: legal_cells_and_payers(st, energy=2), reps(200), warmup=5)
            per_size[shape][n] = statistics.median(xs)
            cells = legal_cells_and_payers(st, energy=2)
            row(f"{shape:5s} {nloc:3d} loc: frontier+energy_in_range+reactors_in_range"
                f" ({len(st.frontier())} frontier, {len(cells)} legal)",
                xs, 10 if n == 40 else None)
    # Game-level API on the largest stations a 24-action game reaches
    for n in (10, 20):
        g, player, card = game_with_station(n)
        xs = timeit(lambda: [g.payers(player, c) for c in g.legal_cells(player, card)],
                    reps(200), warmup=5)
        row(f"Game.legal_cells+payers, station of {len(g.state.station(player).locations())} loc",
            xs, None)

    # --- print --------------------------------------------------------------
    w = max(len(r[0]) for r in ROWS)
    print(f"{'measurement':<{w}}  {'n':>5}  {'median ms':>9}  {'p95 ms':>8}  {'min ms':>8}"
          f"  {'target ms':>9}  result")
    print("-" * (w + 58))
    for what, n, med, hi, lo, target, verdict in ROWS:
        print(f"{what:<{w}}  {n:>5}  {ms(med):>9}  {ms(hi):>8}  {ms(lo):>8}  {target:>9}  {verdict}")
    print()
    print("growth of the station query (median time ratio for x2 locations):")
    for shape, times in per_size.items():
        steps = ", ".join(f"{a}->{b}: x{times[b] / times[a]:.2f}"
                          for a, b in zip(sizes_wanted, sizes_wanted[1:]))
        print(f"  {shape:5s} {steps}")
    misses = [r for r in ROWS if r[6] == "MISS"]
    print()
    print(f"{len([r for r in ROWS if r[6] == 'PASS'])} PASS, {len(misses)} MISS; "
          f"total bench time {time.perf_counter() - t_start:.1f} s")
    return 0


# --------------------------------------------------------------------------
# 4. stations of a given size
# --------------------------------------------------------------------------
def blob_cells(n: int) -> list[tuple[int, int]]:
    """``n`` cells other than the Main Reactor in a compact blob: rows 9 wide
    (columns -4..4) filled in the order 0, 1, -1, 2, -2, ...; each cell touches
    one placed before it.  The frontier grows like the perimeter (~sqrt n)."""
    cells: list[tuple[int, int]] = []
    r = 0
    while len(cells) < n:
        cells += [(r, c) for c in range(-4, 5) if (r, c) != (0, 0)]
        r = -r if r > 0 else -r + 1   # rows 0, 1, -1, 2, -2, ...
    return cells[:n]


def snake_cells(n: int) -> list[tuple[int, int]]:
    """``n`` cells other than the Main Reactor in a snake one cell wide: runs
    of 8 to the right along every other row, joined at alternate ends.  The
    frontier grows linearly with n: the worst case for legal_cells."""
    cells: list[tuple[int, int]] = []
    r, c, d = 0, 0, 1
    while len(cells) < n:
        for _ in range(8):
            c += d
            cells.append((r, c))
        cells += [(r + 1, c), (r + 2, c)]
        r, d = r + 2, -d
    return cells[:n]


def make_station(n_locations: int, shape: str = "blob") -> Station:
    """A station with ``n_locations`` locations counted as the rules count them
    (the Main Reactor and Power Reactors included): every 4th cell a Power
    Reactor, half of them with 2 cubes and half with 1."""
    st = Station()
    cells = (blob_cells if shape == "blob" else snake_cells)(n_locations - 1)
    for i, cell in enumerate(cells):
        if i % 4 == 3:
            st.place(cell, Placed(REACTOR, cubes=2 if i % 8 == 3 else 1))
        else:
            st.place(cell, Placed(LOCATION, "Fixture: plain", ("business",)))
    assert st.is_connected()
    return st


def legal_cells_and_payers(st: Station, energy: int) -> list:
    """What Game.legal_cells(player, card) + Game.payers(player, cell) run."""
    cells = [c for c in st.frontier() if st.energy_in_range(c, 2) >= energy]
    return [[r for r in st.reactors_in_range(c, 2) if r[2] > 0] for c in cells]


def game_with_station(n: int):
    """A Game whose first player built ``n`` - 1 cells (plus the Main Reactor)
    through push(): the most a real game allows is 25."""
    setup = {"players": ["Ada", "Bo"], "options": {"reactor_supply": 99}}
    g = Game(setup, cards=FIXTURE_CARDS)
    rng = random.Random(n)
    for i in range(n - 1):
        acts = g.legal_entries("Ada", "Fixture: plain")
        reactor = [a for a in acts if a["do"] == "reactor"]
        builds = [a for a in acts if a["do"] == "build"]
        pick = rng.choice(reactor if i % 4 == 3 or not builds else builds)
        g.push(pick)
        g.push({"player": "Bo", "do": "discard", "card": "Fixture: plain"})
    return g, "Ada", "Fixture: adjacent +1"


if __name__ == "__main__":
    sys.exit(main())
