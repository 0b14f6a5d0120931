"""Dashboard server soak: many page loads, kernels culled, memory flat (issue 12).

    .venv/bin/python bench/bench_server.py              # 200 pages, about 8 minutes here
    .venv/bin/python bench/bench_server.py 60 --workers 1 --idle 6

Starts Voila with the dashboard's configuration (notebooks/config/voila.py) on
a free port, then opens PAGES pages the way a browser tab does (GET /, which
runs the notebook in a new kernel; a websocket to that kernel; then the tab
goes away, half of them with the shutdown beacon a closing tab sends, half
without, as a phone that drops off), ``--workers`` at a time.  Every
``--every`` pages it prints: kernels alive, the RSS of the server alone and
of the server plus its kernels.  At the end it waits for the culler and prints
kernels started / shut down / culled, the peak of live kernels, and the
server's RSS after the first and the last batch once its kernels are gone.

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
from test_server import kernel_pids, open_page, rss_mb, wait_for  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="?", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--idle", type=int, default=6, help="cull idle timeout in seconds (6)")
    ap.add_argument("--interval", type=int, default=2, help="cull interval in seconds (2)")
    ap.add_argument("--every", type=int, default=25, help="print a line every N pages (25)")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="companion-bench-server-") as tmp:
        s = VoilaServer(Path(tmp) / "home", Path(tmp) / "work", config=True,
                        env={"COMPANION_CULL_IDLE": str(args.idle),
                             "COMPANION_CULL_INTERVAL": str(args.interval)})
        s.start()
        print(f"server on port {s.port}, started in {s.startup_seconds:.1f} s, "
              f"RSS {rss_mb(s.process_ids()):.0f} MB; cull idle {args.idle} s "
              f"every {args.interval} s; {args.pages} pages, {args.workers} at a time")
        print(f"{'pages':>6} {'kernels':>8} {'server MB':>10} {'with kernels MB':>16} "
              f"{'s/page':>7}")
        peak, done, t0 = 0, 0, time.perf_counter()
        settled = {}
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
                        wait_for(lambda: not kernel_pids(s), timeout=args.idle + 6 * args.interval
                                 + 30)
                        settled[done] = (len(kernel_pids(s)), rss_mb(s.process_ids()))
            log = s.log_path.read_text(errors="replace")
        finally:
            s.cleanup()
    first, last = min(settled), max(settled)
    print(f"kernels: {log.count('Kernel started:')} started, "
          f"{log.count('Kernel shutdown:')} shut down ({log.count(chr(39).join(['Culling ', '']))} "
          f"by the idle culler), peak {peak} alive, {settled[last][0]} left at the end")
    print(f"refused shutdowns (_xsrf): {log.count('_xsrf')}")
    print(f"server RSS with no kernel: after {first} pages {settled[first][1]:.0f} MB, "
          f"after {last} pages {settled[last][1]:.0f} MB "
          f"({settled[last][1] / settled[first][1]:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
