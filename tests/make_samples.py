"""Build the sample records in data/samples/ by playing them through the engine.

    PYTHONPATH=. python tests/make_samples.py          # rewrite data/samples/*.json

Every sample is a real game: the setup plus actions pushed one by one through
``Game.push()``, so the rules checked each one.  The worked examples of
shared/design/rules-digest.md are reproduced exactly; where the books do not
give a card's printed numbers, the record defines clearly named fixture cards
("Fixture: ...") in its ``cards`` list.  Real cards are only used with the
values the rulebooks state (Holographic Display Area, U-Cannon), or discarded
(no value used).

tests/test_examples.py rebuilds every sample and compares it with the
committed file, so a sample can never silently drift from the engine.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

from companion import Catalogue  # noqa: E402
from companion.core.record import dumps  # noqa: E402
from recordkit import (build, discard, fixture_card, fixture_objective,  # noqa: E402
                       new_game, play, reactor)

SAMPLES = ROOT / "data" / "samples"
MADE_BY = "tests/make_samples.py"

# ---------------------------------------------------------------------------
# fixture cards (invented values, clearly named; never values for real cards)
# ---------------------------------------------------------------------------
MILITARY = "Fixture: military 7 VP"
END4 = "Fixture: end +4"
END3 = "Fixture: end +3"
END2 = "Fixture: end +2"
END1 = "Fixture: end +1"
FILLER3 = "Fixture: filler 3 VP"
FILLER6 = "Fixture: filler 6 VP"
CHEAP = "Fixture: cheap 1 VP"
NO_ENERGY = "Fixture: no energy"
MOST_MILITARY = "Fixture: most military"
MOST_CREDITS = "Fixture: most credits"


def _end(n: int) -> list[dict]:
    return [{"when": "end", "flat": n, "note": f"test fixture: +{n} at the end"}]


FIXTURES = {
    MILITARY: fixture_card(MILITARY, types=["military"], cost=5, energy=1, vp=7),
    END4: fixture_card(END4, types=["administrative"], cost=4, energy=0, vp=5, abilities=_end(4)),
    END3: fixture_card(END3, types=["business"], cost=4, energy=0, vp=6, abilities=_end(3)),
    END2: fixture_card(END2, types=["business"], cost=4, energy=0, vp=4, abilities=_end(2)),
    END1: fixture_card(END1, types=["diplomatic"], cost=3, energy=1, vp=3, abilities=_end(1)),
    FILLER3: fixture_card(FILLER3, types=["recreational"], cost=6, energy=0, vp=3),
    FILLER6: fixture_card(FILLER6, types=["recreational"], cost=6, energy=0, vp=6),
    CHEAP: fixture_card(CHEAP, types=["administrative"], cost=1, energy=0, vp=1),
    NO_ENERGY: fixture_card(NO_ENERGY, types=["business"], cost=1, energy=0, vp=1),
    MOST_MILITARY: fixture_objective(MOST_MILITARY, vp=5,
                                     most={"per": "station_location", "types": ["military"]}),
    MOST_CREDITS: fixture_objective(MOST_CREDITS, vp=5, most={"per": "credit"}),
}


def _game(players, **kw):
    """A new game on the shipped catalogue only (a player's own catalogue file
    must never change a sample)."""
    return new_game(players, catalogue=Catalogue.shipped(), **kw)


def fixtures(*names: str) -> list[dict]:
    return [FIXTURES[n] for n in names]


def M(at, payer):
    return build(MILITARY, at, energy_from=[payer])


# ---------------------------------------------------------------------------
# 1. Sandra, year 1 turn 3: Holographic Display Area (B example)
# ---------------------------------------------------------------------------
def sandra_holographic():
    """Reactors at [0,1] (turn 1) and [1,1] (turn 2); turn 3 the Holographic
    Display Area at [1,0] touches the Main Reactor and the reactor at [1,1]
    (2 adjacent locations) and takes its energy cube from the Main Reactor."""
    game = _game(["Sandra", "George", "Thalia"])
    play(game, {"Sandra": [reactor([0, 1]), reactor([1, 1]),
                           build("Holographic Display Area", [1, 0], energy_from=[[0, 0]])]},
         turns=3)
    return game


# ---------------------------------------------------------------------------
# 2. George, base game end (B example): 63 + 7 + 3 + 1 + 5 = 79
# ---------------------------------------------------------------------------
GEORGE_BASE_PLAN = [
    # year 1: 10 credits
    reactor([0, 1]), M([1, 0], [0, 0]), None, M([1, 1], [0, 0]), None, M([-1, 0], [0, 1]),
    # year 2: +10
    reactor([0, 2]), M([-1, 1], [0, 1]), None, M([1, 2], [0, 2]), None, M([-1, 2], [0, 2]),
    # year 3: +10
    build(FILLER3, [0, -1]), None, build(FILLER3, [1, -1]), None, None, build(FILLER3, [-1, -1]),
    # year 4: +10; the third reactor keeps 1 cube
    build(END4, [2, 0]), build(END2, [2, 1]), reactor([0, 3]), None,
    build(END1, [1, 3], energy_from=[[0, 3]]), None,
]


def george_base():
    """4 players, objectives 'most military' and 'most credits'.

    George: 6 military (7 VP), the three end cards (5+4+3 VP), 3 fillers (3 VP)
    = 63 on the track; reactors Main + 3, the last keeps 1 cube; 5 credits.
    Sandra: 5 military, 5 credits (ties George: 'most credits' goes to nobody).
    Thalia: 4 military, 4 credits.  Milo: 2 military, 2 credits.
    """
    game = _game(["George", "Sandra", "Thalia", "Milo"],
                    cards=fixtures(MILITARY, END4, END2, END1, FILLER3, CHEAP,
                                   MOST_MILITARY, MOST_CREDITS),
                    objectives=[MOST_MILITARY, MOST_CREDITS],
                    # B 3 draws 4 objectives for 4 players; the book's example names
                    # only these 2 ("There is one granting +5 VPs to the player with the
                    # most Military locations ... There is also an Objective granting +5
                    # VPs to the player with the most credits"): the others are unknown,
                    # and the record says so (docs/record-format.md, on_trust)
                    options={"on_trust": ["objectives"]})
    m, f, c = build(MILITARY), build(FILLER3), build(CHEAP)
    play(game, {
        "George": GEORGE_BASE_PLAN,
        # (None: discard; cells left out: the first legal cell)
        "Sandra": [reactor(), m, c, c, c, c,   reactor(), m, None, m, None, c,
                   m, m, None, f, None, c,     f, f, None, c, c, None],
        "Thalia": [reactor(), m, c, c, c, c,   m, m, None, c, c, None,
                   m, f, None, f, None, c,     f, f, None, c, c, None],
        "Milo": [m, m] + [f] * 10 + [c],
    }, patient=["Milo"])
    return game


# ---------------------------------------------------------------------------
# 3. George, Revival end game (R example): 74 + 8 + 3 + 1 = 86
# ---------------------------------------------------------------------------
def george_revival():
    """3 players, no objectives.  Same station shape as the base example; the
    cards give 6x7 + 5 + 6 + 3 + 3x6 = 74 VP on the track."""
    game = _game(["George", "Thalia", "Sandra"],
                    cards=fixtures(MILITARY, END4, END3, END1, FILLER6, CHEAP))
    plan = [{**a, "card": {FILLER3: FILLER6, END2: END3}.get(a["card"], a["card"])}
            if a is not None else None for a in GEORGE_BASE_PLAN]
    m, c = build(MILITARY), build(CHEAP)
    play(game, {"George": plan,
                "Thalia": [reactor(), m, m] + [c] * 10,
                "Sandra": [m, m] + [c] * 12},
         patient=["Thalia", "Sandra"])
    return game


# ---------------------------------------------------------------------------
# 4. Thalia, year 1 turn 3: U-Cannon (R example)
# ---------------------------------------------------------------------------
def thalia_u_cannon():
    """Two discards, then the U-Cannon at [0,1] paid from the Main Reactor,
    which keeps 1 cube: 3 + 1 = 4 VP."""
    game = _game(["Thalia", "Sandra", "George"])
    play(game, {"Thalia": [discard(), discard(),
                           build("U-Cannon", [0, 1], energy_from=[[0, 0]])]}, turns=3)
    return game


def thalia_u_cannon_capped():
    """Two more reactors (2 cubes each) first: 1 + 2 + 2 = 5 cubes left after
    paying, the ability is capped at 3: 3 + 3 = 6 VP."""
    game = _game(["Thalia", "Sandra", "George"])
    play(game, {"Thalia": [reactor([1, 0]), reactor([0, -1]),
                           build("U-Cannon", [0, 1], energy_from=[[0, 0]])]}, turns=3)
    return game


SAMPLES_BUILDERS = {
    "sandra-holographic-display-area": (sandra_holographic,
                                        "B worked example: Sandra, year 1 turn 3, +4 VP"),
    "george-base-final-scoring": (george_base,
                                  "B worked example: George's final scoring, 79 VP"),
    "george-revival-final-scoring": (george_revival,
                                     "R worked example: George's final scoring, 86 VP"),
    "thalia-u-cannon": (thalia_u_cannon, "R worked example: Thalia's U-Cannon, 4 VP"),
    "thalia-u-cannon-capped": (thalia_u_cannon_capped,
                               "R worked example: U-Cannon capped, 6 VP"),
}


def sample_record(name: str) -> dict:
    builder, title = SAMPLES_BUILDERS[name]
    record = builder().to_record()
    record["meta"] = {"title": title, "made_by": MADE_BY,
                      "fixture_cards": "cards named 'Fixture: ...' are invented test values, "
                                       "not real cards"}
    return record


def sample_text(name: str) -> str:
    return dumps(sample_record(name)) + "\n"


def main() -> int:
    SAMPLES.mkdir(parents=True, exist_ok=True)
    for name in SAMPLES_BUILDERS:
        path = SAMPLES / f"{name}.json"
        path.write_text(sample_text(name), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
