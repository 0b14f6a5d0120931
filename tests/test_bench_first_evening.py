"""Issue 50, done-when: ``bench/bench_first_evening.py`` plays the first evening in-process
from an empty data folder (a 4-player laid game with races and objectives, the next game on
the same links, Small Star Empires).  Its ``--quick`` run (2 players) here: it runs to the
end and every target of the issue is met (<= 10 forms before the laid game's final table,
<= 4 inputs a form, 0 rescans, the Qualeen's secret named on every page at the end)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_first_evening_bench_quick_meets_its_targets(tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    env.pop("COMPANION_HOME", None)              # the bench makes its own, empty
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_first_evening.py"),
                        "--quick"], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    out = r.stdout
    assert "from an empty data folder" in out
    laid = re.search(r"1\. laid, races and objectives: (\d+) forms, at most (\d+) inputs a "
                     r"form, (\d+) taps; finished: True; the secret revealed on every page: "
                     r"True", out)
    assert laid, out
    assert int(laid.group(1)) >= 1 and int(laid.group(3)) > 0      # it asked, and was answered
    assert re.search(r"2\. next game, same links: 0 rescans, 2 actions \(\d+ builds, 2 "
                     r"recorded\)", out), out
    assert re.search(r"3\. Small Star Empires: (\d+) moves \(\1 recorded\)", out), out
    assert "MISS" not in out and out.count("PASS") == 4, out
