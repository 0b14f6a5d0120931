"""Dashboard server soak: many page loads, kernels culled, memory flat (issue 12).

    .venv/bin/python bench/bench_server.py              # 200 pages, about 8 minutes here
    .venv/bin/python bench/bench_server.py 60 --workers 1 --idle 6
    .venv/bin/python bench/bench_server.py --quick     # 4 pages, culled after 2 s idle

Starts Voila with the dashboard's configuration (notebooks/config/voila.py) on
a free port, then opens PAGES pages the way a browser tab does (GET /, which
runs the notebook in a new kernel; a websocket to that kernel; then the tab
goes away, half of them with the shutdown beacon a closing tab sends, half
without, as a phone that drops off), ``--workers`` at a time.  Every
``--every`` pages it prints: kernels alive, the RSS of the server alone and
of the server plus its kernels.  At the end it waits for the culler and prints
kernels started / shut down / culled, the peak of live kernels, and the RSS of the
server and its preheated pool (``--pool``, the dashboard's 4) after the first and the
last batch once the pages' kernels are gone.

Last, a PASS/MISS line: every page's kernel shut down or culled (none left), and that
RSS after the last batch within 1.5x of after the first.

A measurement script: it always exits 0 unless the server cannot start.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "browser")):
    if p not in sys.path:
        sys.path.insert(0, p)

from browser_harness import VoilaServer  # noqa: E402
from test_server import (kernel_pids, open_page, page_kernels, rss_mb, settled,  # noqa: E402
                         wait_for)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="?", type=int, default=None, help="pages (200; --quick: 4)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--pool", type=int, default=None,
                    help="COMPANION_POOL_SIZE, preheated kernels (4, the default; --quick: 1)")
    ap.add_argument("--idle", type=int, default=None,
                    help="cull idle timeout in seconds (6; --quick: 2)")
    ap.add_argument("--interval", type=int, default=None,
                    help="cull interval in seconds (2; --quick: 1)")
    ap.add_argument("--every", type=int, default=None,
                    help="print a line every N pages (25; --quick: 2)")
    ap.add_argument("--quick", action="store_true",
                    help="the same on a small size: 4 pages, a line every 2, culled after 2 s")
    args = ap.parse_args(argv)
    for k, full, quick in (("pages", 200, 4), ("idle", 6, 2), ("interval", 2, 1),
                           ("every", 25, 2), ("pool", 4, 1)):
        if getattr(args, k) is None:
            setattr(args, k, quick if args.quick else full)

    with tempfile.TemporaryDirectory(prefix="companion-bench-server-") as tmp:
        s = VoilaServer(Path(tmp) / "home", Path(tmp) / "work", config=True,
                        env={"COMPANION_CULL_IDLE": str(args.idle),
                             "COMPANION_CULL_INTERVAL": str(args.interval),
                             "COMPANION_POOL_SIZE": str(args.pool)})
        s.start()
        print(f"server on port {s.port}, started in {s.startup_seconds:.1f} s, "
              f"RSS {rss_mb(s.process_ids()):.0f} MB; cull idle {args.idle} s "
              f"every {args.interval} s; pool of {args.pool} preheated kernels; {args.pages} "
              f"pages, {args.workers} at a time")
        print(f"{'pages':>6} {'kernels':>8} {'server MB':>10} {'with kernels MB':>16} "
              f"{'s/page':>7}")
        peak, done, t0 = 0, 0, time.perf_counter()
        after = {}
        try:
            with ThreadPoolExecutor(max_workers=args.workers) as pool:
                while done < args.pages:
                    batch = list(range(done, min(done + args.every, args.pages)))
                    for _ in pool.map(lambda i: open_page(
                            s.port, close="beacon" if i % 2 == 0 else "none"), batch):
                        peak = max(peak, len(kernel_pids(s)))
                    done += len(batch)
                    pids = s.process_ids()
                    print(f"{done:>6} {len(kernel_pids(s)):>8} {rss_mb(pids[:1]):>10.0f} "
                          f"{rss_mb(pids):>16.0f} {(time.perf_counter() - t0) / done:>7.2f}",
                          flush=True)
                    if done == len(batch) or done >= args.pages:
                        # no page's kernel left: only the pool's (filled again)
                        wait_for(lambda: settled(s, args.pool),
                                 timeout=args.idle + 6 * args.interval + 30)
                        after[done] = (len(page_kernels(s)), rss_mb(s.process_ids()))
            log = s.log_path.read_text(errors="replace")
        finally:
            s.cleanup()
    first, last = min(after), max(after)
    print(f"kernels: {log.count('Kernel started:')} started, "
          f"{log.count('Kernel shutdown:')} shut down ({log.count(chr(39).join(['Culling ', '']))} "
          f"by the idle culler), peak {peak} alive, {after[last][0]} pages' kernels left at the end")
    print(f"refused shutdowns (_xsrf): {log.count('_xsrf')}")
    print(f"server + the pool's kernels, no page's kernel left: RSS after {first} pages {after[first][1]:.0f} MB, "
          f"after {last} pages {after[last][1]:.0f} MB "
          f"({after[last][1] / after[first][1]:.2f}x)")
    ratio = after[last][1] / after[first][1]
    ok = after[last][0] == 0 and ratio <= 1.5
    print(f"{'PASS' if ok else 'MISS'}  kernels freed and memory flat after {last} pages: "
          f"{after[last][0]} pages' kernels left (target 0), RSS {ratio:.2f}x of after "
          f"{first} pages (target <= 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
