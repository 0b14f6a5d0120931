"""Game-history benchmark: 1,000 (--games N) stored games, their derived tables, every
statistics table and the History tab (companion/history.py, companion/stats.py,
companion/ui/history_tab.py).

This is a measurement script, not a test: it prints a table with each target
and PASS/MISS and always exits 0.  Run it from the repository root:

    .venv/bin/python bench/bench_history.py            # about a minute
    .venv/bin/python bench/bench_history.py --quick    # fewer repetitions, 100 games (a few seconds)
    .venv/bin/python bench/bench_history.py --profile  # + cProfile of the slow parts
    .venv/bin/python bench/bench_history.py --games 10000   # issue 26: 7,000 + 3,000 games
    .venv/bin/python bench/bench_history.py --games 10000 --postgres   # the club's backend

``--games N`` scales the mix below (10,000: 7,000 Among the Stars and 3,000 Small
Star Empires games).  The last lines repeat issue 26's four figures with PASS/MISS:
the first sync with its progress updates, all statistics, the History tab build and
the people statistics.

The 1,000 games.  Playing 1,000 games through the engines would take longer
than what is measured, so a handful of distinct, complete records are made and
then stored again and again with ``Store.create`` (each copy is a new game with
its own id; the derived tables and the statistics treat it as a separate game):

* the two 4- and 3-player sample games in data/samples/ (george-base,
  george-revival: full games of 96 and 72 actions, fixture cards);
* the small fixture games of tests/test_history.py (G1-G4 finished, G5
  unfinished; 2-3 players, fixture cards, objective and races) and its two
  Small Star Empires games S1, S2;
* the Small Star Empires sample data/small-star-empires/samples/two-player-random.json.

Every Among the Stars card, objective and race they use is a FIXTURE defined in
the record (names start with "Fixture: "); no real card is given a value.

What it times (time.perf_counter):

1. ``history.sync(store, progress=...)`` of the games, the first time (each record
   is replayed once and scored; a one-off after an upgrade or an import), with the
   cost per game.  Target (issue 26): 30 s for 10,000 games (3 ms a game, scaled
   for --games).  And a second ``sync`` with nothing to do.
2. "Load the History tab and compute all statistics" on the synced store:
   ``stats.all_statistics(store)`` + ``stats.games(store)``, and the
   construction of ``HistoryTab`` in this process (ipywidgets works without a
   browser; the tab syncs, lists the games, computes every table, draws the
   charts and builds the plays CSV).  Target: <= 1 s each.
3. Printed, no target: opening the store (SQLite quick_check), each
   statistics function alone, ``history.plays_csv``, opening one game in the
   tab and one step of its replay.
4. Issue 16: the first sync's progress updates (``history.sync(progress=...)``:
   how many, the longest gap between two), the people statistics of the 1,000
   games (``stats.people_statistics``: head-to-head, streaks, monthly, yearly;
   target <= 1 s, as the tab's other tables), and the BG Stats / BoardGameGeek
   exports of every play (printed).

Each copy carries play details in its meta (a stopped play timer started on a
different day over about two years, 30-120 minutes, a location), so the people
statistics and the exports have durations and months to work on.

``COMPANION_HOME`` is a fresh temporary folder and the store is a temporary
file: the player's own catalogue and saved games are neither read nor changed.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ["COMPANION_HOME"] = tempfile.mkdtemp(prefix="bench-history-home-")
ROOT = Path(__file__).resolve().parent.parent
for _p in (ROOT, ROOT / "tests", ROOT / "tests" / "sse"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from companion.sse.record import FORMAT as SSE_FORMAT  # noqa: E402
from companion.sse.kind import KIND as SSE_KIND  # noqa: E402
from companion.table import history, playtime, plays_export, stats  # noqa: E402
from companion.table.store import Store
from companion.table.backends import open_store

SSE_SHARES = next(t.kwargs["parts"] for t in SSE_KIND.statistics if t.table == "shares")

N_GAMES = 1000          # the default; --games N (issue 26: --games 10000)
QUICK_GAMES = 100       # --quick without --games: the same measurement, a small store
TARGET_S = 1.0
#: issue 26: the first sync of 10,000 games with its progress bar <= 30 s (3 ms a game)
SYNC_TARGET_PER_GAME_S = 30.0 / 10_000


def distinct_records() -> list[tuple[str, dict]]:
    from test_history import records        # the fixture games of the unit tests
    out = []
    for name in ("george-base-final-scoring", "george-revival-final-scoring"):
        out.append((name, json.loads((ROOT / "data" / "samples" / f"{name}.json").read_text())))
    fx = records()
    out += [(k, fx[k]) for k in ("G1", "G2", "G3", "G4", "G5")]
    out += [(k, fx[k]) for k in ("S1", "S2")]
    out.append(("sse-two-player-random", json.loads(
        (ROOT / "data" / "small-star-empires" / "samples" / "two-player-random.json").read_text())))
    return out


#: how many copies of each distinct record among 1,000 (the big games weigh more):
#: 700 Among the Stars, 300 Small Star Empires; scaled for --games (weights())
WEIGHTS = {"george-base-final-scoring": 250, "george-revival-final-scoring": 150,
           "G1": 80, "G2": 80, "G3": 60, "G4": 60, "G5": 20,
           "S1": 60, "S2": 60, "sse-two-player-random": 180}


def weights(n: int) -> dict[str, int]:
    """:data:`WEIGHTS` scaled to ``n`` games (10,000: 7,000 Among the Stars and 3,000
    Small Star Empires); a rounding remainder goes to the first sample game."""
    out = {k: v * n // 1000 for k, v in WEIGHTS.items()}
    out["george-base-final-scoring"] += n - sum(out.values())
    return out


def timed(fn, reps: int) -> list[float]:
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true",
                    help=f"fewer repetitions, {QUICK_GAMES} games unless --games says")
    ap.add_argument("--profile", action="store_true", help="cProfile the timed parts")
    ap.add_argument("--games", type=int, default=None,
                    help=f"stored games (default {N_GAMES}; issue 26: 10000)")
    ap.add_argument("--postgres", action="store_true",
                    help="the store on a PostgreSQL 16 that pgserver starts (issue 26: the "
                         "club's backend); default: an SQLite file")
    args = ap.parse_args()
    reps = 3 if args.quick else 7
    if args.games is None:
        args.games = QUICK_GAMES if args.quick else N_GAMES
    n_games = max(10, args.games)
    w_of = weights(n_games)
    sync_target = SYNC_TARGET_PER_GAME_S * n_games

    tmp = Path(tempfile.mkdtemp(prefix="bench-history-"))
    path = tmp / "games.sqlite"
    location: str | Path = path
    pg = None
    if args.postgres:
        from bench_club import new_database, start_postgres
        pg, admin, _ = start_postgres()
        location = new_database(admin)
        print("backend: PostgreSQL 16 (pgserver)")
    else:
        print("backend: SQLite file")
    store = open_store(location)
    recs = distinct_records()
    assert sum(w_of.values()) == n_games
    t0 = time.perf_counter()
    kinds = {}
    day0 = time.time() - 730 * 86400
    i = 0
    for name, rec in recs:
        for _ in range(w_of[name]):
            # spread over ~2 years
            start = day0 + (i * 7919 % n_games) * (730 / n_games) * 86400
            meta = playtime.stop(playtime.start({}, now=start),
                                 now=start + (30 + i % 91) * 60)
            meta = playtime.with_details(meta, location=f"table {i % 5}")
            store.create({**rec, "meta": meta}, title=name)
            i += 1
        kinds[rec.get("format", "among-the-stars/1")] = \
            kinds.get(rec.get("format", "among-the-stars/1"), 0) + w_of[name]
    t_insert = time.perf_counter() - t0
    print(f"{n_games} games stored with Store.create in {t_insert:.1f} s: copies of "
          f"{len(recs)} distinct complete records ("
          + ", ".join(f"{k} x{w_of[k]}" for k, _ in recs) + ")")
    print("  by game: " + ", ".join(f"{v} {history.GAME_NAMES.get(k, k)}" for k, v in
                                    kinds.items()))
    if not args.postgres:
        print(f"  database file: {path.stat().st_size / 1e6:.1f} MB")

    rows = []   # (measurement, n, median, p95, min, max, unit, target, verdict)

    def add(name, xs, unit="ms", target=None):
        scale = 1000 if unit == "ms" else 1
        v = [x * scale for x in xs]
        verdict = ""
        if target is not None:
            verdict = "PASS" if max(v) <= target * scale else "MISS"
        rows.append((name, len(v), statistics.median(v), p95(v), min(v), max(v), unit,
                     f"max <= {target:.3g} s" if target is not None else "", verdict))

    prof = cProfile.Profile() if args.profile else None

    # 1. the first sync: every game replayed once, with its progress updates
    updates: list[tuple[float, int, int]] = []

    def progress(done, total):
        updates.append((time.perf_counter(), done, total))
    if prof:
        prof.enable()
    t0 = time.perf_counter()
    n = history.sync(store, progress=progress)
    t_sync = time.perf_counter() - t0
    if prof:
        prof.disable()
    assert n == n_games, n
    add(f"first sync with progress ({n_games:,} games)", [t_sync], "s", sync_target)
    add("  per game", [t_sync / n_games])
    add("history.sync, nothing to do", timed(lambda: history.sync(store), reps))
    gaps = [b[0] - a[0] for a, b in zip(updates, updates[1:])]
    first_update = updates[0][0] - t0 if updates else float("nan")
    progress_note = (f"first sync: {len(updates)} progress updates ({updates[0][1]}/"
                     f"{updates[0][2]} .. {updates[-1][1]}/{updates[-1][2]}), the first "
                     f"{first_update * 1000:.0f} ms after the start, longest gap between two "
                     f"{max(gaps) * 1000:.0f} ms" if updates else "first sync: no updates")

    # 2. the History tab and every statistics table on the synced store
    def load_all():
        stats.all_statistics(store)
        stats.games(store)
    load_all()                                   # warm-up (imports, SQLite cache)
    if prof:
        prof.enable()
    add("all statistics: all_statistics + games", timed(load_all, reps), "s", TARGET_S)
    if prof:
        prof.disable()
    from companion.ui.history_tab import HistoryTab
    from companion.ui.shell import Shell
    page = Shell(store)                          # the dashboard's page (its History tab's app)
    HistoryTab(page)                             # warm-up
    if prof:
        prof.enable()
    tabs = []
    add("History tab build: HistoryTab(app)",
        timed(lambda: tabs.append(HistoryTab(page)), reps), "s", TARGET_S)
    if prof:
        prof.disable()

    # 3. the parts, printed
    add("Store() open (quick_check + migrations)" if not args.postgres else
        "open_store() (connect + schema check)",
        timed(lambda: open_store(location).close(), reps))
    for name, fn in [
            ("stats.games", lambda: stats.games(store)),
            ("stats.win_rates by player", lambda: stats.win_rates(store, "player")),
            ("stats.win_rates by race", lambda: stats.win_rates(store, "race")),
            ("stats.scores", lambda: stats.scores(store)),
            ("stats.breakdown", lambda: stats.breakdown(store)),
            ("stats.vp_by_year", lambda: stats.vp_by_year(store)),
            ("stats.objectives_deciding", lambda: stats.objectives_deciding(store)),
            ("stats.cards", lambda: stats.cards(store)),
            ("stats.tiebreaks", lambda: stats.tiebreaks(store)),
            ("stats.win_rates by seat (SSE)", lambda: stats.win_rates(store, "seat",
                                                                    SSE_FORMAT)),
            ("stats.shares", lambda: stats.shares(store, SSE_FORMAT, SSE_SHARES)),
            ("history.plays_csv", lambda: history.plays_csv(store))]:
        add("  " + name, timed(fn, reps))
    # 4. issue 16: people statistics (target), exports (printed)
    stats.people_statistics(store)                # warm-up
    add("people statistics: people_statistics", timed(lambda: stats.people_statistics(store), reps),
        "s", TARGET_S)
    for pname, fn in stats.PEOPLE.items():
        add(f"  stats.{fn.__name__}", timed(lambda fn=fn: fn(store), reps))
    add("  people charts (4 SVG)", timed(lambda: [stats.people_chart_svg(k, df) for k, df in
                                                  stats.people_statistics(store).items()], reps))
    out_dir = Path(tempfile.mkdtemp(prefix="bench-history-out-"))
    add("BG Stats play file, every play", timed(lambda: plays_export.write_bgstats(
        store, out_dir / "plays.json", bgg_ids={}), reps), "s")
    add("BoardGameGeek play XML, every play", timed(lambda: plays_export.write_bgg(
        store, out_dir / "plays.xml", bgg_ids={}), reps), "s")
    one = plays_export.plays(store)[0]
    add("  one create-play link + QR code", timed(lambda: plays_export.qr_svg(
        plays_export.bgstats_play_link(one, bgg_ids={})), reps))
    tab = tabs[-1]
    # found as a player finds a game among thousands: typed in Find (the list holds 300)
    tab.filter.value = "george-base-final-scoring"
    tab.list.value = tab.list.options[0][1]
    add("open a 96-action game in the tab", timed(tab.open_selected, reps))
    add("  one step of its replay (slider)",
        timed(lambda: setattr(tab.step, "value", (tab.step.value + 37) % 97), reps))

    print(f"\nPython {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"{platform.machine()}, repetitions: {reps}\n")
    head = (f"{'measurement':44} {'n':>3} {'median':>9} {'p95':>9} {'min':>9} {'max':>9}  "
            f"{'unit':4}  {'target':14} verdict")
    print(head)
    print("-" * len(head))
    for name, n_, med, p, lo, hi, unit, target, verdict in rows:
        f = "{:9.3f}" if unit == "s" else "{:9.1f}"
        print(f"{name:44} {n_:3d} {f.format(med)} {f.format(p)} {f.format(lo)} {f.format(hi)}  "
              f"{unit:4}  {target:14} {verdict}")
    print()
    print(progress_note)
    # issue 26's figures, each with its target
    print(f"\nissue 26 at {n_games:,} games (max of the runs; targets as in the issue):")
    for name, *_rest in rows:
        verdict = _rest[-1]
        if verdict:
            hi, unit, target = _rest[4], _rest[5], _rest[6]
            print(f"  {verdict}  {name.strip()}: {hi:.3f} {unit} (target {target})")
    if prof:
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(30)
        print("\ncProfile (the first sync, all_statistics + games, HistoryTab), cumulative:")
        print(s.getvalue())
    store.close()
    if pg is not None:
        pg.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
