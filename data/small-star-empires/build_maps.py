"""Write the starting maps in data/small-star-empires/maps/ (run from the repository root:
``python data/small-star-empires/build_maps.py``).

HONESTY: the rulebook shows the basic 2-, 3- and 4-player layouts only as
pictures, and the sector tiles are shuffled before every game.  These maps are
*approximate* shapes made of 7-system sector tiles (a centre and its six
neighbours) with placeholder systems: every map says so in its title and note,
and the players adjust each hex to the tiles on their table (map editor).
What the book does state is respected: a Main Sector Tile's middle system is
empty (wormholes go there), each Homeworld Sector Tile holds one homeworld,
and there are at most 3 nebulae of each colour.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.sse.hexmap import DIRS, HexMap, System  # noqa: E402

OUT = Path(__file__).resolve().parent / "maps"

P = lambda n: System("planetary", planets=n)          # noqa: E731
N = lambda c: System("nebula", colour=c)              # noqa: E731
E = System("empty")

#: placeholder rings (the six systems around the empty middle) of the 7 main tiles;
#: 9 nebulae in all, 3 of each colour
MAIN_RINGS = [
    [P(1), N("red"), P(2), E, P(1), N("blue")],
    [P(2), N("green"), P(1), P(3), E, P(1)],
    [N("red"), P(1), E, P(2), N("green"), P(1)],
    [P(1), P(3), N("blue"), P(1), E, P(2)],
    [N("red"), P(2), P(1), E, P(1), N("blue")],
    [P(2), E, N("green"), P(1), P(2), P(1)],
    [P(1), P(2), E, P(1), P(3), E],
]
HOME_RING = [P(1), P(1), P(2), P(1), P(2), P(1)]

#: sector tiles placed on a lattice of flowers: (a, b) -> centre (2a - b, a + 3b)
LAYOUTS = {
    2: {"homes": [(0, -1), (0, 1)], "mains": [(-1, 0), (0, 0), (1, 0)]},
    3: {"homes": [(2, 0), (-2, 2), (0, -2)], "mains": [(0, 0), (1, 0), (-1, 1), (0, -1)]},
    4: {"homes": [(2, -2), (2, 0), (-2, 2), (-2, 0)],
        "mains": [(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]},
}


def centre(a: int, b: int) -> tuple[int, int]:
    return (2 * a - b, a + 3 * b)


def build(players: int) -> HexMap:
    lay = LAYOUTS[players]
    systems = {}
    for seat, (a, b) in enumerate(lay["homes"], 1):
        c = centre(a, b)
        systems[c] = System("homeworld", home=seat)
        for d, s in zip(DIRS, HOME_RING):
            systems[(c[0] + d[0], c[1] + d[1])] = s
    for i, (a, b) in enumerate(lay["mains"]):
        c = centre(a, b)
        systems[c] = E
        for d, s in zip(DIRS, MAIN_RINGS[i]):
            systems[(c[0] + d[0], c[1] + d[1])] = s
    homes, mains = len(lay["homes"]), len(lay["mains"])
    note = (f"APPROXIMATE LAYOUT - adjust it to your tiles. The rulebook shows the basic "
            f"{players}-player setup only as a picture, and the tiles are shuffled before each "
            f"game. This map is {homes} homeworld sector tiles and {mains} main sector tiles of 7 "
            f"systems each, with placeholder systems: open it in the map editor and set every "
            f"hex to match the tiles on your table before you start.")
    return HexMap(systems, name=f"basic-{players}p",
                  title=f"Basic {players}-player layout (approximate: adjust to your tiles)",
                  players=players, approximate=True, note=note)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for n in (2, 3, 4):
        m = build(n)
        path = OUT / f"basic-{n}p.json"
        path.write_text(json.dumps(m.to_dict(), indent=1) + "\n", encoding="utf-8")
        print(f"{path}: {len(m)} systems, {m.counts()}")


if __name__ == "__main__":
    main()
