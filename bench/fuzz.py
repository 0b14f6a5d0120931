"""Fuzzer for hostile and broken input (issue 12): N mutated records, maps and
catalogues run through the command line, in-process.

    .venv/bin/python bench/fuzz.py                # 20,000 cases (about 6 minutes here)
    .venv/bin/python bench/fuzz.py 2000 --seed 7  # fewer, another seed
    .venv/bin/python bench/fuzz.py 500 --kinds sse,map --timeout 10
    .venv/bin/python bench/fuzz.py --quick        # 100 cases, a few seconds (tests/test_benches.py)

Each case is made by ``tests/fuzzkit.make_case`` (a seeded ``random.Random``)
in a fresh temporary folder that is also its COMPANION_HOME; its commands run
through ``companion.cli.main`` (``score``, ``check``, ``catalogue import /
export / unknown``), and a mutated map is also read by ``load_map_file``.
Every outcome must be exit 0, or exit 2 with exactly one clean ``error:``
line (``fuzzkit.judge``).

Printed: inputs tried per kind, command runs, exit 0 / exit 2 counts,
crashes (exit 3, an exception, a traceback, several or unclean lines),
hangs (a command over ``--timeout`` seconds), memory errors (the process is
capped at ``--memory`` MB of address space so a blow-up is seen instead of
taking the machine down), the slowest case, and the first problems in full
(seed and case number, so ``--only N`` replays one).  Exit code 1 on any
crash or hang, 0 otherwise.
"""
from __future__ import annotations

import argparse
import random
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "tests")):
    if p not in sys.path:
        sys.path.insert(0, p)

import fuzzkit  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="?", type=int, default=None,
                    help="cases to run (20000; --quick: 100)")
    ap.add_argument("--quick", action="store_true", help="100 cases (unless CASES is given)")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--kinds", default=",".join(fuzzkit.KINDS),
                    help="comma-separated: " + ",".join(fuzzkit.KINDS))
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per command (20)")
    ap.add_argument("--memory", type=int, default=3_000, help="address-space cap in MB (3000)")
    ap.add_argument("--only", type=int, default=None, help="replay only case number N")
    ap.add_argument("--show", type=int, default=10, help="problems printed in full (10)")
    args = ap.parse_args(argv)
    if args.cases is None:
        args.cases = 100 if args.quick else 20_000
    kinds = [k for k in args.kinds.split(",") if k]
    bad = [k for k in kinds if k not in fuzzkit.KINDS]
    if bad:
        ap.error(f"unknown kind(s): {', '.join(bad)}")
    if args.memory:
        lim = args.memory * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (lim, resource.getrlimit(resource.RLIMIT_AS)[1]))

    import companion.cli  # noqa: F401  (import once, outside the timings)

    tried, runs, codes = Counter(), Counter(), Counter()
    problems: list[tuple] = []
    crashes = hangs = memerrs = 0
    worst = (0.0, None, None)
    t_start = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="companion-fuzz-"))
    numbers = [args.only] if args.only is not None else range(args.cases)
    try:
        for i in numbers:
            kind = kinds[i % len(kinds)]
            pick = fuzzkit.RandomPick(random.Random(f"{args.seed}:{i}"))
            folder = work / f"c{i}"
            try:
                case = fuzzkit.make_case(pick, kind)
                results = fuzzkit.run_case(case, folder, timeout=args.timeout)
            except MemoryError:
                results = [{"argv": ["(case)"], "code": "memory", "out": "", "err": "",
                            "secs": 0.0, "problem": "MemoryError"}]
            except Exception as e:   # noqa: BLE001 - the fuzzer itself must keep going
                results = [{"argv": ["(case)"], "code": 3, "out": "", "err": "", "secs": 0.0,
                            "problem": f"{type(e).__name__}: {str(e)[:200]}"}]
            tried[kind] += 1
            case_secs = 0.0
            for r in results:
                runs[kind] += 1
                codes[r["code"]] += 1
                case_secs += r["secs"]
                if r["problem"]:
                    if r["code"] == "hang":
                        hangs += 1
                    elif r["code"] == "memory" or "MemoryError" in str(r["problem"]):
                        memerrs += 1
                        crashes += 1
                    else:
                        crashes += 1
                    problems.append((i, kind, r["argv"], r["code"], r["problem"]))
                    if len(problems) <= args.show:
                        print(f"  PROBLEM case {i} ({kind}) {' '.join(map(str, r['argv']))}: "
                              f"{r['code']}: {r['problem']}", flush=True)
            if case_secs > worst[0]:
                worst = (case_secs, i, kind)
            shutil.rmtree(folder, ignore_errors=True)
            done = sum(tried.values())
            if done % 1000 == 0:
                print(f"  {done} cases, {crashes} crashes, {hangs} hangs, "
                      f"{time.perf_counter() - t_start:.0f} s", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    total = sum(tried.values())
    elapsed = time.perf_counter() - t_start
    print(f"fuzz: seed {args.seed}, {total} inputs in {elapsed:.0f} s "
          f"({total / max(elapsed, 1e-9):.1f}/s), timeout {args.timeout:g} s per command")
    for k in kinds:
        print(f"  {k:<10} {tried[k]:>6} inputs  {runs[k]:>6} runs")
    print("  outcomes: " + ", ".join(f"{c}: {n}" for c, n in sorted(codes.items(), key=str)))
    print(f"  crashes (exit 3, exception, unclean or extra lines): {crashes}"
          f"  (of which memory errors: {memerrs})")
    print(f"  hangs (over {args.timeout:g} s): {hangs}")
    if worst[1] is not None:
        print(f"  slowest case: {worst[0]:.2f} s (case {worst[1]}, {worst[2]}; "
              f"replay with --seed {args.seed} --only {worst[1]})")
    if len(problems) > args.show:
        print(f"  ({len(problems)} problems; the first {args.show} are printed above)")
    print(f"{'MISS' if crashes or hangs else 'PASS'}  every input exits 0 or 2 with one clean "
          f"error line: {crashes} crashes, {hangs} hangs in {total} inputs")
    return 1 if crashes or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
