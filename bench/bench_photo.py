"""Photo reader benchmark (issue 40): how well and how fast companion.ats.photo reads
synthetic photos of stations.

This is a measurement script, not a test: it prints figures and PASS/MISS lines and
always exits 0.  Run it from the repository root:

    .venv/bin/python bench/bench_photo.py            # 20 photos, about 1-2 minutes
    .venv/bin/python bench/bench_photo.py --photos 5
    .venv/bin/python bench/bench_photo.py --quick      # 1 photo (tests/test_benches.py)

Each photo is a random connected station of 8-15 cards around the Main Reactor
(shipped names from data/among-the-stars/card-names.csv plus a few names "typed by
players", about one Power Reactor in five cells), drawn by tests/photokit.py: rotated
up to +-8 degrees, perspective-skewed, blurred, JPEG at phone resolution (3024 x 4032
or 4032 x 3024).  Only names are drawn, never card numbers.  SYNTHETIC photos: real
photos of printed cards have not been measured.
"""
from __future__ import annotations

import argparse
import csv
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from companion.ats import photo  # noqa: E402
import photokit  # noqa: E402

TYPED = ["Xenobiology Lab", "Stellar Forge", "Quantum Archive Vault", "Nebula Observatory",
         "Diplomatic Lounge", "Orbital Greenhouse"]
SEED = 20261129
TARGET_RIGHT = 0.90
TARGET_SECONDS = 3.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=int, default=None, help="photos read (20; --quick: 1)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--quick", action="store_true", help="1 photo")
    args = ap.parse_args()
    if args.photos is None:
        args.photos = 1 if args.quick else 20
    if not photo.available():
        print("rapidocr-onnxruntime is not installed (./dashboard --camera): nothing measured")
        return
    shipped = [r["name"] for r in csv.DictReader(
        (ROOT / "data" / "among-the-stars" / "card-names.csv").open(encoding="utf-8"))]
    names = shipped + TYPED
    print(f"Python {platform.python_version()}, {platform.machine()}; "
          f"{args.photos} synthetic station photos (seed {args.seed})")
    print("SYNTHETIC photos drawn by tests/photokit.py: real photos of printed cards "
          "have not been measured.\n")
    photo.read_card(photokit.card_photo("Garden", seed=1), names)    # load the models once
    cards = right = wrong = wrong_sure = missing = extra = uncertain_right = 0
    seconds: list[float] = []
    print(f"{'photo':>5} {'cards':>5} {'right':>5} {'wrong':>5} {'sure&wrong':>10} "
          f"{'missing':>7} {'extra':>5} {'anchored':>8} {'seconds':>7}  size")
    for k in range(args.photos):
        rng = random.Random(args.seed + k)
        layout = photokit.random_station(rng, names, rng.randint(8, 15))
        data = photokit.station_photo(layout, seed=args.seed + k)
        t0 = time.perf_counter()
        try:
            result = photo.read_station(data, names)
        except photo.PhotoError as e:
            print(f"{k:>5} PhotoError: {e}")
            cards += len(layout)
            missing += len(layout)
            continue
        dt = time.perf_counter() - t0
        seconds.append(dt)
        got = {c.at: c for c in result.cells}
        r = w = ws = m = 0
        for at, name in layout.items():
            g = got.get(at)
            if g is None:
                m += 1
            elif g.name == name:
                r += 1
                uncertain_right += g.uncertain
            else:
                w += 1
                ws += not g.uncertain
        e = sum(1 for at in got if at not in layout)
        cards += len(layout)
        right, wrong, wrong_sure, missing, extra = (right + r, wrong + w, wrong_sure + ws,
                                                    missing + m, extra + e)
        from PIL import Image
        import io
        size = "x".join(map(str, Image.open(io.BytesIO(data)).size))
        print(f"{k:>5} {len(layout):>5} {r:>5} {w:>5} {ws:>10} {m:>7} {e:>5} "
              f"{str(result.anchored):>8} {dt:>7.2f}  {size}, {len(data) // 1000} kB")
        for note in result.notes:
            print(f"        note: {note}")
    share = right / cards if cards else 0.0
    not_marked = wrong_sure / max(1, wrong + missing + extra)
    print()
    print(f"cards {cards}: right cell and name {right} ({share:.1%}); wrong name {wrong} "
          f"({wrong_sure} of them not marked uncertain); missing {missing}; extra cells {extra}; "
          f"right but marked uncertain {uncertain_right}")
    print(f"share of wrong ones not marked uncertain: {not_marked:.1%} "
          f"({wrong_sure} of {wrong + missing + extra} wrong, missing or extra)")
    if seconds:
        mean, worst = statistics.fmean(seconds), max(seconds)
        print(f"seconds per photo: mean {mean:.2f}, median {statistics.median(seconds):.2f}, "
              f"max {worst:.2f} (decode + OCR + placement, the models loaded)")
    else:
        mean = worst = float("inf")
    print()
    print(f"{'PASS' if share >= TARGET_RIGHT else 'MISS'}  names on the right cell: "
          f"{share:.1%} (target >= {TARGET_RIGHT:.0%})")
    print(f"{'PASS' if worst <= TARGET_SECONDS else 'MISS'}  seconds per photo: max {worst:.2f}, "
          f"mean {mean:.2f} (target <= {TARGET_SECONDS:.0f} s)")
    print("(synthetic photos only: real photos of printed cards have not been measured)")


if __name__ == "__main__":
    main()
