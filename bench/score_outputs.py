"""The command line's scores, kept and compared byte for byte (issue 38, "Done when":
"``python -m companion score`` and ``score --json`` give byte-identical output on every
sample and every record under ``tests/`` before and after").

The records: every shipped sample (data/samples, data/small-star-empires/samples), the
final record of every random-play case of tests/test_random_play.py (each registered
game, its setups and seeds, played to the end with the test's own cards: no real card's
numbers), and the laid positions of tests/test_lay_position.py and
tests/test_sse_lay_position.py.  For each, ``python -m companion score FILE`` and
``score FILE --json`` are run in a fresh process (an empty COMPANION_HOME: no player's
catalogue) and their exit code, stdout and stderr kept.

    python bench/score_outputs.py --save /tmp/before      # on the commit before
    python bench/score_outputs.py --compare /tmp/before   # after: PASS or MISS per file
    python bench/score_outputs.py --quick    # a few records scored twice, the outputs
                                             # compared run to run (tests/test_benches.py)

Run from the checkout whose code is measured (its ``companion`` is the one imported).
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def records(quick: bool = False) -> dict[str, dict]:
    """Every record measured, by a stable name (``quick``: the first random-play case, an
    Among the Stars game, and the shipped Small Star Empires sample)."""
    out: dict[str, dict] = {}
    folders = [ROOT / "data" / "samples", ROOT / "data" / "small-star-empires" / "samples"]
    for folder in folders[1:] if quick else folders:
        for p in sorted(folder.glob("*.json"))[:1 if quick else None]:
            out[f"sample-{p.stem}"] = json.loads(p.read_text(encoding="utf-8"))
    home = tempfile.mkdtemp(prefix="score-outputs-home-")
    os.environ["COMPANION_HOME"] = home
    import test_random_play as rp                      # noqa: E402  (tests/ on the path)
    for case in rp.CASES[:1 if quick else None]:
        fmt, label, make, seed = case.values
        out[f"random-{case.id}"] = rp.play(fmt, label, make, seed, cap=400)
    if quick:
        return {k: copy.deepcopy(v) for k, v in sorted(out.items())}
    import test_lay_position as ats_lay                # noqa: E402
    import test_sse_lay_position as sse_lay            # noqa: E402
    for name in dir(ats_lay):
        if name.startswith("laid_") and callable(getattr(ats_lay, name)):
            try:
                out[f"laid-ats-{name}"] = getattr(ats_lay, name)().to_record()
            except TypeError:
                pass                                   # a helper that needs arguments
    out["laid-sse-final"] = sse_lay.laid_game().to_record()
    return {k: copy.deepcopy(v) for k, v in sorted(out.items())}


def outputs(recs: dict[str, dict]) -> dict[str, str]:
    env = {**os.environ, "COMPANION_HOME": tempfile.mkdtemp(prefix="score-outputs-cli-")}
    folder = Path(tempfile.mkdtemp(prefix="score-outputs-records-"))
    out: dict[str, str] = {}
    for name, rec in recs.items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(rec, indent=1), encoding="utf-8")
        for extra in ([], ["--json"]):
            r = subprocess.run([sys.executable, "-m", "companion", "score", str(path), *extra],
                               capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
            err = r.stderr.replace(str(folder), "<records>")
            out[name + ("-json" if extra else "")] = (f"exit {r.returncode}\n--- stdout\n"
                                                      f"{r.stdout}--- stderr\n{err}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--save", type=Path, help="write every output into this folder")
    g.add_argument("--compare", type=Path, help="compare with the outputs in this folder")
    g.add_argument("--quick", action="store_true",
                   help="2 records (one random play, the Small Star Empires sample) scored "
                        "twice: the outputs must be byte-identical run to run")
    a = ap.parse_args()
    if a.quick:
        recs = records(quick=True)
        first, second = outputs(recs), outputs(recs)
        differ = sorted(n for n in first if first[n] != second.get(n))
        for n in differ:
            print(f"DIFFERS run to run: {n}")
        codes = sorted({t.split("\n", 1)[0] for t in first.values()})
        print(f"{len(recs)} records ({', '.join(recs)}): {len(first)} outputs "
              f"({', '.join(codes)}), {len(first) - len(differ)} byte-identical run to run: "
              f"{'MISS' if differ else 'PASS'}")
        return 1 if differ else 0
    got = outputs(records())
    if a.save:
        a.save.mkdir(parents=True, exist_ok=True)
        for name, text in got.items():
            (a.save / f"{name}.out").write_text(text, encoding="utf-8")
        print(f"saved {len(got)} outputs in {a.save}")
        return 0
    before = {p.stem: p.read_text(encoding="utf-8") for p in a.compare.glob("*.out")}
    missing = sorted(set(before) - set(got))
    new = sorted(set(got) - set(before))
    differ = sorted(n for n in set(got) & set(before) if got[n] != before[n])
    for n in differ:
        print(f"DIFFERS: {n}")
    for n in missing:
        print(f"MISSING now: {n}")
    ok = not differ and not missing
    print(f"{len(set(got) & set(before)) - len(differ)} of {len(before)} outputs byte-identical"
          + (f"; {len(new)} new" if new else "") + f": {'PASS' if ok else 'MISS'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
