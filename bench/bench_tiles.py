"""Typing the box's sector tiles and laying a map (issue 24), driven through the widgets
in this process (no browser).  Run it from the repository root:

    .venv/bin/python bench/bench_tiles.py            # a few seconds
    .venv/bin/python bench/bench_tiles.py --quick    # the same run (it is quick already)

Types 11 tiles (the book's Components: "4 Homeworld Sector Tiles, 7 Main Sector Tiles")
of 7 systems each through the Small Star Empires setup screen's tile typing part
(companion/ui/sse_tiles.py).  The tiles are TEST INPUTS (made-up systems), not the box's
real tiles.  Every tap and choice a person makes is counted (typing the tile's id counts
as one tap) and the page's handlers are timed.

Assumption (stated, not measured): a person who knows the tile in hand needs about
1.5 s a tap (find the hex, tap it; choose a brush).  The estimate per tile is
``taps x 1.5 s + the handlers' time``; target (issue 24): under 30 s a tile.

Then draws a 3-player form and lays a 3-player map from the typed tiles by *Shuffle*,
counting the taps (target: at most 12).

Prints one row per tile and a PASS/MISS line per target; a measurement script, never a
test: it always exits 0.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: seconds a person needs for one tap (an assumption: see the docstring)
TAP_S = 1.5
TILE_TARGET_S = 30.0
LAY_TARGET_TAPS = 12
RING = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
MIXES = [["1●", "2●", "red", "empty", "3●", "blue"], ["2●", "green", "1●", "empty", "3●", "red"],
         ["blue", "1●", "3●", "green", "empty", "2●"]]
#: a 3-player form on the coarse grid (a test input)
FORM_3P = {(0, 0): "main", (0, 1): "main", (-1, 0): "main", (1, -1): "main",
           (1, 0): "homeworld", (-1, 1): "homeworld", (0, -1): "homeworld"}


class Taps:
    """A person's taps, counted; the page's handler time summed."""

    def __init__(self) -> None:
        self.n = 0
        self.handler_s = 0.0

    def _timed(self, fn) -> None:
        self.n += 1
        t0 = time.perf_counter()
        fn()
        self.handler_s += time.perf_counter() - t0

    def click(self, button) -> None:
        self._timed(button.click)

    def choose(self, widget, value) -> None:
        self._timed(lambda: setattr(widget, "value", value))


def tile_taps(k: int, kind: str) -> list[tuple[str, tuple[int, int]]]:
    mix = MIXES[k % len(MIXES)]
    first = ("home", (0, 0)) if kind == "homeworld" else ("empty", (0, 0))
    return [first] + [(mix[(i + k) % 6], h) for i, h in enumerate(RING)]


def type_tile(typer, taps: Taps, tid: str, kind: str) -> None:
    taps.choose(typer.tile_id, tid)
    if typer.kind.value != kind:
        taps.choose(typer.kind, kind)
    for brush, h in tile_taps(int(tid[1:]), kind):
        if typer.brush.value != brush:
            taps.choose(typer.brush, brush)
        taps.click(typer.grid.buttons[h])
    taps.click(typer.save_btn)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="the same run: the 11 tiles and the map take a few seconds already")
    args = ap.parse_args(argv)
    if args.quick:
        print("--quick: the same run (11 tiles and one map take a few seconds)")
    home = tempfile.mkdtemp(prefix="bench-tiles-")
    os.environ["COMPANION_HOME"] = home
    from companion.sse import tiles
    from companion.table.store import Store
    from companion.ui.app import App
    app = App(Store(Path(home) / "games.sqlite"))
    app.tabs.selected_index = 1
    tab = app.sse
    tab.show_setup()
    typer = tab.setup_part.tiles
    print(f"Typing 11 sector tiles of 7 systems (test inputs); a tap = {TAP_S} s (assumed)")
    print(f"{'tile':6} {'taps':>5} {'handlers ms':>12} {'estimate s':>11}  target {TILE_TARGET_S:.0f} s")
    misses = 0
    ids = [f"H{k}" for k in range(1, 5)] + [f"M{k}" for k in range(1, 8)]
    for tid in ids:
        taps = Taps()
        type_tile(typer, taps, tid, "homeworld" if tid[0] == "H" else "main")
        est = taps.n * TAP_S + taps.handler_s
        ok = est < TILE_TARGET_S and tid in tiles.load_tiles()
        misses += not ok
        print(f"{tid:6} {taps.n:5d} {taps.handler_s * 1000:12.1f} {est:11.1f}  {'PASS' if ok else 'MISS'}")
    assert len(tiles.load_tiles()) == 11, typer.message.value
    # the form (drawn once, not counted in the laying)
    drawer = tab.setup_part.forms
    for cell, kind in FORM_3P.items():
        for _ in range(1 if kind == "main" else 2):
            drawer.grid.buttons[cell].click()
    drawer.name.value = "our-3p"
    drawer.save()
    # laying a 3-player map by Shuffle
    lay, taps = tab.setup_part.laying, Taps()
    taps.choose(tab.setup_part.map_pick, ":tiles")
    if lay.form_pick.value != "our-3p":
        taps.choose(lay.form_pick, "our-3p")
    taps.click(lay.shuffle_btn)
    laid = lay.laid()
    ok = taps.n <= LAY_TARGET_TAPS and len(laid) > 0
    misses += not ok
    print(f"{'PASS' if ok else 'MISS'}  laying a 3-player map by Shuffle: {taps.n} taps "
          f"(target <= {LAY_TARGET_TAPS}), handlers {taps.handler_s * 1000:.1f} ms, "
          f"{len(laid)} systems")
    print(f"{11 + 1 - misses} PASS, {misses} MISS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
