"""Issue 51, "Benches that cannot rot": every script in ``bench/`` has a ``--quick`` mode (the
same measurement on a small size) and this file runs each one as a subprocess, so a bench that
no longer runs against today's code (``bench_layout.py`` read ``App.name_boxes`` long after the
drivers moved them) fails here instead of in front of the next person who measures.

A MISS is not a failure: a bench measures, and its figures depend on the machine.  A crash is:
each run must exit 0, print no traceback and print its verdicts (a ``PASS``/``MISS`` line; the
tools that judge nothing print their figure).  ``bench_first_evening.py`` has its own test,
``tests/test_bench_first_evening.py``, which also holds it to its targets."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

# from this file, not ``from conftest import ROOT``: that may be tests/browser/conftest.py
ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
#: a verdict: a PASS/MISS line, a table's verdict column, or "N PASS, M MISS"
VERDICT = r"\b(PASS|MISS)\b"

#: script -> (what its --quick must print besides no traceback, seconds allowed)
#: the scripts that start Voila (and Chromium) get more time; every --quick's time on the
#: development machine is in bench/README.md
SCRIPTS: dict[str, tuple[str, float]] = {
    "bench_engine.py": (VERDICT, 120),
    "bench_whatif.py": (VERDICT, 120),
    "bench_history.py": (VERDICT, 120),
    "bench_layout.py": (VERDICT, 120),
    "bench_sentences.py": (VERDICT, 120),
    "bench_tiles.py": (VERDICT, 120),
    "bench_photo.py": (VERDICT, 180),
    "fuzz.py": (VERDICT, 120),
    "score_outputs.py": (VERDICT, 180),
    "bench_dashboard.py": (VERDICT, 300),
    "bench_server.py": (VERDICT, 300),
    "bench_devices.py": (VERDICT, 400),
    "bench_club.py": (VERDICT, 400),
    # a tool that profiles one join: its figure is the join's time and its marks
    "join_trace.py": (r"^cold: \d+\.\d+ s; .*interactive \d+\.\d+ s", 300),
}
#: what a script prints when a part of it failed and it went on (a measurement never crashes
#: a bench): here that is a crash too
FORBIDDEN = {"bench_club.py": "could not be measured"}
#: run by their own test
ELSEWHERE = {"bench_first_evening.py": "tests/test_bench_first_evening.py"}


def test_every_bench_script_is_run_by_a_test():
    """A new script in bench/ gets its --quick run here (or names the test that runs it)."""
    on_disk = {p.name for p in BENCH.glob("*.py")}
    assert on_disk == set(SCRIPTS) | set(ELSEWHERE), on_disk ^ (set(SCRIPTS) | set(ELSEWHERE))


#: benches to run alone (the solo phase of ./run-tests), not beside the other tests'
#: workers.  bench_devices.py was (four seat pages opened at once did not all come up:
#: the host link's key, fixed in issue 51, bench/README.md); its --quick opens 2 now
SOLO: set[str] = set()


@pytest.mark.parametrize("script", [pytest.param(s, marks=pytest.mark.solo) if s in SOLO
                                    else s for s in sorted(SCRIPTS)])
def test_the_bench_quick_runs_and_prints_its_verdicts(script, tmp_path):
    want, timeout = SCRIPTS[script]
    home = tmp_path / "home"
    home.mkdir()
    # (TMPDIR stays: Chromium's singleton socket path under pytest's tmp_path is too long)
    env = {**os.environ, "COMPANION_HOME": str(home),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "PYTHONUNBUFFERED": "1"}
    env.pop("COMPANION_DATABASE_URL", None)
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, f"bench/{script}", "--quick"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=timeout)
    took = time.perf_counter() - t0
    out = r.stdout + r.stderr
    if script == "bench_photo.py" and "rapidocr-onnxruntime is not installed" in out:
        pytest.skip("the [camera] extra (rapidocr-onnxruntime) is not installed")
    assert r.returncode == 0, f"{script} --quick exited {r.returncode}:\n{out[-4000:]}"
    assert "Traceback" not in out, f"{script} --quick:\n{out[-4000:]}"
    assert FORBIDDEN.get(script, "Traceback") not in out, f"{script} --quick:\n{out[-4000:]}"
    assert re.search(want, r.stdout, re.M), f"{script} --quick printed no {want!r}:\n{out[-4000:]}"
    print(f"{script} --quick: {took:.1f} s\n{r.stdout[-3000:]}")     # pytest -rA shows it
