"""Dashboard benchmark in a real browser (Voila + Debian's headless Chromium).

A measurement script, not a test: it prints a table with each target and
PASS/MISS and always exits 0.  Run it from the repository root:

    .venv/bin/python bench/bench_dashboard.py              # about 40 s
    .venv/bin/python bench/bench_dashboard.py --profile    # + kernel-side profile
    .venv/bin/python bench/bench_dashboard.py --quick      # 4 clicks, 1 cold start, the
                                                           # profile once (about 20 s)

What it measures:

1. **Click -> scoreboard.**  A 3-player game is played through the page
   (known cards only: Holographic Display Area and U-Cannon for builds,
   "Turret" for reactors, "Garden" for discards; no card form).  For each
   action, everything before the committing click (choosing the player, the
   action, typing the card's name) is done first and not timed.  Then a
   capture-phase click listener stamps ``performance.now()`` when the click
   reaches the page, and a MutationObserver stamps the moment the scoreboard
   shows the values a shadow engine in this process expects (VP, credits,
   cubes, locations of every player); the figure is taken at the next
   animation frame, i.e. when the browser can paint it.  A second figure
   waits for the turn line and the list of waiting players as well.  The
   clicks are on a legal grid cell (build / reactor) or on the Discard
   button.  Two warm-up actions are not counted.
2. **Cold start.**  From just before the Voila process is started to the
   first interactive page (the setup screen's Start button visible), on a
   fresh COMPANION_HOME, 3 times.  Split into "process start -> HTTP ready"
   (voila.js answers) and "goto -> widgets visible".  Page loads on the
   already running server are printed too (each load starts a new kernel).
3. ``--profile``: the same actions replayed through ``companion.ui.App`` in
   this process (no browser, no kernel: widget messages go nowhere), timing
   ``App.push`` and its parts, to see what the kernel spends per click.

Uses tests/browser/browser_harness.py (VoilaServer) and
tests/browser/dashboard_driver.py.  Jupyter's folders and COMPANION_HOME are
temporary folders, so nothing of the player's is read or changed.
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
for _p in (str(REPO), str(REPO / "tests" / "browser")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

TMP = Path(tempfile.mkdtemp(prefix="bench-dashboard-"))
# The shadow engine in this process must not read the player's own catalogue.
os.environ["COMPANION_HOME"] = str(TMP / "shadow-home")

from browser_harness import CHROMIUM, CHROMIUM_ARGS, WIDGET_TIMEOUT_MS, VoilaServer  # noqa: E402
from dashboard_driver import (_needs_energy_choice, choose, expected_board,  # noqa: E402
                              settle, start_game, turn_words, wait_legal)
from companion import Game  # noqa: E402
from companion.ui import cell_class  # noqa: E402

PLAYERS = ["Ada", "Bo", "Cy"]
HDA, UC = "Holographic Display Area", "U-Cannon"
TARGET_CLICK_P95_MS = 150
TARGET_COLD_S = 3.0

# Armed before each committing click.  Records (ms, page clock): t0 when the click
# reaches the document, board when the scoreboard matches, board_frame at the next
# animation frame after that, all when turn line + waiting list match too.
_ARM = """([selector, want]) => {
  const b = {t0: null, board: null, board_frame: null, all: null, all_frame: null};
  window.__bench = b;
  const boardOk = () => {
    const rows = document.querySelectorAll('.scoreboard tr.score-row');
    if (rows.length !== Object.keys(want.board).length) return false;
    for (const tr of rows) {
      const w = want.board[tr.dataset.player];
      if (!w) return false;
      for (const c of ['vp', 'credits', 'cubes', 'locations'])
        if (tr.querySelector('td.' + c).textContent.trim() !== w[c]) return false;
    }
    return true;
  };
  const restOk = () => {
    const info = document.querySelector('.turn-info');
    if (!info || !info.textContent.includes(want.info)) return false;
    // as tests/browser/dashboard_driver.py's _SETTLED reads the list: no-break spaces,
    // the players who acted listed but marked (issue 50), seat order on the page
    const opts = Array.from(document.querySelectorAll('.entry-player select option'))
                      .map(o => o.textContent.replace(/\u00a0/g, ' '))
                      .filter(t => !t.endsWith(' (acted)'));
    return JSON.stringify(opts.sort()) === JSON.stringify([...want.waiting].sort());
  };
  const check = () => {
    if (b.t0 === null) return;
    const now = performance.now();
    if (b.board === null && boardOk()) {
      b.board = now;
      requestAnimationFrame(() => { b.board_frame = performance.now(); });
    }
    if (b.board !== null && b.all === null && restOk()) {
      b.all = now;
      requestAnimationFrame(() => { b.all_frame = performance.now(); });
      obs.disconnect();
    }
  };
  const obs = new MutationObserver(check);
  obs.observe(document.body, {subtree: true, childList: true, characterData: true,
                              attributes: true});
  document.addEventListener('click', (e) => {
    if (e.target.closest(selector)) { b.t0 = performance.now(); check(); }
  }, {capture: true, once: true});
}"""


def p95(xs):
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(0.95 * (len(s) - 1))))]


# --------------------------------------------------------------------------
# the actions: a legal game with known cards, no card form, no energy choice
# --------------------------------------------------------------------------
PER_PLAYER = ["build:" + HDA, "reactor", "discard", "build:" + UC, "reactor", "discard",
              "discard", "reactor", "discard", "discard", "reactor", "discard", "discard"]


def next_action(g: Game, counts: dict) -> dict:
    """The next action of the first waiting player (seat order)."""
    player = g.state.waiting[0]
    kinds = PER_PLAYER[counts[player] % len(PER_PLAYER):] + ["discard"]
    counts[player] += 1
    for kind in kinds:
        if kind.startswith("build:"):
            card = kind.split(":", 1)[1]
            if g.state.station(player).copies_of(card):
                continue
            cells = [c for c in sorted(g.legal_cells(player, card))
                     if not _needs_energy_choice(g, player, card, c)]
            if cells:
                return {"player": player, "do": "build", "card": card, "at": list(cells[0])}
        elif kind == "reactor":
            cells = sorted(g.legal_cells(player, do="reactor"))
            if cells:
                return {"player": player, "do": "reactor", "card": "Turret", "at": list(cells[0])}
        else:
            return {"player": player, "do": "discard", "card": "Garden"}
    raise AssertionError("unreachable")


def timed_action(page, g: Game, action: dict) -> dict:
    choose(page, action["player"], action["do"], action["card"])
    if action["do"] == "discard":
        selector = ".do-discard"
        page.locator(selector).wait_for(state="visible")
    else:
        legal = (g.legal_cells(action["player"], action["card"]) if action["do"] == "build"
                 else g.legal_cells(action["player"], do="reactor"))
        wait_legal(page, legal)
        selector = f".station-grid .{cell_class(*action['at'])}"
    g.push(dict(action))
    want = {"board": expected_board(g), "info": turn_words(g), "waiting": list(g.state.waiting)}
    page.evaluate(_ARM, [selector, want])
    t_py = time.perf_counter()
    page.click(selector)
    page.wait_for_function("() => window.__bench.all_frame !== null", timeout=15_000,
                           polling="raf")
    wall = time.perf_counter() - t_py
    b = page.evaluate("() => window.__bench")
    settle(page, g)     # the page must agree with the shadow game before the next action
    return {"kind": "cell" if action["do"] != "discard" else "discard",
            "board": b["board_frame"] - b["t0"], "board_dom": b["board"] - b["t0"],
            "all": b["all_frame"] - b["t0"], "wall": wall * 1000}


def bench_clicks(browser, n_actions: int, warmup: int = 2):
    server = VoilaServer(home=TMP / "clicks" / "home", workdir=TMP / "clicks" / "voila")
    server.start()
    try:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.set_default_timeout(WIDGET_TIMEOUT_MS)
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        start_game(page, server.url, PLAYERS)
        g = Game({"players": PLAYERS})
        settle(page, g)
        counts = {p: 0 for p in PLAYERS}
        actions, results = [], []
        for i in range(warmup + n_actions):
            action = next_action(g, counts)
            r = timed_action(page, g, action)
            actions.append(action)
            if i >= warmup:
                results.append(r)
        ctx.close()
        if errors:
            print("JavaScript errors in the page:", *errors, sep="\n  ")
        return results, actions, (g.state.year, g.state.turn)
    finally:
        server.cleanup()


def bench_cold(browser, runs: int):
    out = []
    for run in range(runs):
        server = VoilaServer(home=TMP / f"cold{run}" / "home", workdir=TMP / f"cold{run}" / "voila")
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        try:
            t0 = time.perf_counter()
            server.start()
            t_http = time.perf_counter()
            page.goto(server.url, timeout=WIDGET_TIMEOUT_MS, wait_until="commit")
            page.locator(".start-game").wait_for(state="visible", timeout=WIDGET_TIMEOUT_MS)
            t_vis = time.perf_counter()
            warm = []
            for _ in range(2):       # reloads on the running server: a new kernel each
                t1 = time.perf_counter()
                page.goto(server.url, timeout=WIDGET_TIMEOUT_MS, wait_until="commit")
                page.locator(".start-game").wait_for(state="visible", timeout=WIDGET_TIMEOUT_MS)
                warm.append(time.perf_counter() - t1)
            out.append({"total": t_vis - t0, "http": t_http - t0, "page": t_vis - t_http,
                        "warm": warm})
        finally:
            ctx.close()
            server.cleanup()
    return out


# --------------------------------------------------------------------------
# kernel side: App.push in this process
# --------------------------------------------------------------------------
def profile_kernel(actions: list[dict], reps: int = 3) -> dict[str, list[float]]:
    os.environ["COMPANION_HOME"] = str(TMP / "profile-home")
    from companion.table.store import Store
    from companion.ui.app import App

    parts = ["game.push", "store.append", "refresh", "refresh_info", "refresh_scoreboard",
             "refresh_entry", "draw_grid", "refresh_stations", "refresh_final"]
    times: dict[str, list[float]] = {k: [] for k in ["App.push"] + parts}
    for rep in range(reps):
        app = App(store=Store(path=TMP / "profile-home" / f"games{rep}.sqlite"))
        screen = app.ats
        for box, name in zip(screen.setup_part.name_boxes, PLAYERS):
            box.value = name
        screen.setup_part.start_game()
        acc: dict[str, float] = {}

        def wrap(obj, name, key):
            fn = getattr(obj, name)

            def timed(*a, **k):
                t = time.perf_counter()
                try:
                    return fn(*a, **k)
                finally:
                    acc[key] = acc.get(key, 0.0) + time.perf_counter() - t
            setattr(obj, name, timed)

        wrap(screen.game, "push", "game.push")
        wrap(app.store, "append", "store.append")
        for m in ["refresh", "refresh_entry", "refresh_final"]:
            wrap(screen, m, m)
        for m in ["refresh_info", "refresh_scoreboard", "refresh_stations"]:
            wrap(screen.views_part, m, m)
        wrap(screen.entry_part, "draw_grid", "draw_grid")
        for a in actions:
            # what the page does before the click: choose player, action, card
            screen.entry_player.value = a["player"]
            screen.entry_action.value = a["do"]
            screen.entry_card.value = a["card"]
            acc.clear()
            t = time.perf_counter()
            screen.push(dict(a))
            times["App.push"].append(time.perf_counter() - t)
            for k in parts:
                times[k].append(acc.get(k, 0.0))
    return times


# --------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=None, help="timed actions (default 30)")
    ap.add_argument("--cold-runs", type=int, default=None, help="cold starts (default 3)")
    ap.add_argument("--profile", action="store_true",
                    help="also time App.push in this process (always done on a MISS)")
    ap.add_argument("--quick", action="store_true",
                    help="4 timed actions, 1 cold start, the kernel-side profile once "
                         "(tests/test_benches.py)")
    args = ap.parse_args()
    if args.actions is None:
        args.actions = 4 if args.quick else 30
    if args.cold_runs is None:
        args.cold_runs = 1 if args.quick else 3

    from playwright.sync_api import sync_playwright
    import ipywidgets
    import voila

    print("Dashboard benchmark (companion): Voila + headless Chromium")
    print(f"  Python {platform.python_version()}, voila {voila.__version__}, "
          f"ipywidgets {ipywidgets.__version__}, browser {CHROMIUM}")
    print(f"  os.cpu_count() = {os.cpu_count()}; load average {os.getloadavg()[0]:.2f}")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"  chromium {browser.version}")
        t = time.perf_counter()
        clicks, actions, (year, turn) = bench_clicks(browser, args.actions)
        print(f"  game: {len(actions)} actions entered through the page "
              f"({len(actions) - len(clicks)} warm-up), now year {year} turn {turn}; "
              f"{time.perf_counter() - t:.1f} s")
        cold = bench_cold(browser, args.cold_runs)
        browser.close()

    rows = []

    def add(what, xs, unit, target=None, key=p95, label="p95"):
        if not xs:
            return
        med, hi = statistics.median(xs), key(xs)
        verdict = "" if target is None else ("PASS" if hi <= target else "MISS")
        rows.append((what, len(xs), med, hi, min(xs), max(xs), unit,
                     "" if target is None else f"{label} <= {target:g}", verdict))

    b = [r["board"] for r in clicks]
    add("click -> scoreboard shown (all clicks)", b, "ms", TARGET_CLICK_P95_MS)
    add("  clicks on a grid cell (build/reactor)", [r["board"] for r in clicks if r["kind"] == "cell"], "ms")
    add("  clicks on Discard", [r["board"] for r in clicks if r["kind"] == "discard"], "ms")
    add("  scoreboard in the DOM (before paint)", [r["board_dom"] for r in clicks], "ms")
    add("click -> turn line + player list too", [r["all"] for r in clicks], "ms")
    add("Playwright click() -> seen by the test", [r["wall"] for r in clicks], "ms")
    add("cold start: process -> interactive page", [c["total"] for c in cold], "s",
        TARGET_COLD_S, key=max, label="max")
    add("  process start -> HTTP ready", [c["http"] for c in cold], "s")
    add("  goto -> widgets visible", [c["page"] for c in cold], "s")
    add("page load on a running server (new kernel)", [w for c in cold for w in c["warm"]], "s")

    w = max(len(r[0]) for r in rows)
    print()
    print(f"{'measurement':<{w}}  {'n':>3}  {'median':>8}  {'p95/max':>8}  {'min':>8}  {'max':>8}  "
          f"{'unit':<4}  {'target':<12}  verdict")
    print("-" * (w + 72))
    for what, n, med, hi, lo, mx, unit, target, verdict in rows:
        f = (lambda x: f"{x:8.1f}") if unit == "ms" else (lambda x: f"{x:8.2f}")
        print(f"{what:<{w}}  {n:>3}  {f(med)}  {f(hi)}  {f(lo)}  {f(mx)}  {unit:<4}  {target:<12}  {verdict}")
    print("(p95/max: p95 for clicks, max for the cold starts; each cold run: "
          + ", ".join(f"{c['total']:.2f} s" for c in cold) + ")")

    missed = [r for r in rows if r[-1] == "MISS"]
    if args.quick or args.profile or any(r[0].startswith("click") for r in missed):
        reps = 1 if args.quick else 3
        print()
        print("Kernel side: App.push replayed in this process (no browser, no kernel), "
              f"{len(actions)} actions x {reps}, ms")
        times = profile_kernel(actions, reps)
        print(f"  {'part':<22} {'median':>8} {'p95':>8} {'max':>8}")
        for k, xs in times.items():
            xs_ms = [x * 1000 for x in xs]
            print(f"  {k:<22} {statistics.median(xs_ms):8.2f} {p95(xs_ms):8.2f} {max(xs_ms):8.2f}")
    print()
    print(f"{len([r for r in rows if r[-1] == 'PASS'])} PASS, {len(missed)} MISS"
          + (": " + "; ".join(r[0] for r in missed) if missed else ""))
    shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
