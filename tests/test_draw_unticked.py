"""A box unticked after the setup draw (stop 30): ``decks.without_modules`` takes the
races or the objectives out of a draw, with their options and notes, and leaves the
rest of the seed's draw as it was shown.  B 8: "only 2 Objective Cards are drawn" (a
2-player game); the objective names are the shipped catalogue's, no value is used."""
from __future__ import annotations

from companion.ats import decks

PLAYERS = ["Ana", "Ben"]


def partial_draw() -> dict:
    """The first seed whose draw names one of its 2 objectives (the other from the box)."""
    for seed in range(1, 10_000):
        got = decks.draw_setup(PLAYERS, seed=seed, mode="standard", two_player="revival")
        if len(got["objectives"]) == 1 and got["options"].get("objectives_from_box") == 1:
            return got
    raise AssertionError("no seed draws a partial objective pair")


def test_objectives_unticked_after_the_draw_leave_the_races_and_basic_locations():
    got = partial_draw()
    assert any(n.startswith("Objectives") for n in got["options"]["setup_notes"])
    kept = decks.without_modules(got, races=True, objectives=False)
    assert kept["objectives"] == [] and "objectives_from_box" not in kept["options"]
    assert not any(n.startswith("Objectives") for n in kept["options"]["setup_notes"])
    assert kept["races"] == got["races"] and kept["races"]
    assert kept["options"]["basic_locations"] == got["options"]["basic_locations"]
    assert got["objectives"] and "objectives_from_box" in got["options"]   # not changed


def test_races_unticked_take_the_secret_objective_too():
    for seed in range(1, 10_000):
        got = decks.draw_setup(PLAYERS, seed=seed, mode="standard")
        if "Qualeen" in got["races"].values():
            break
    else:
        raise AssertionError("no seed draws Qualeen")
    # the Qualeen draws the physical card (issue 36): the draw only says so
    assert any("secret objective" in n for n in got["options"]["setup_notes"])
    kept = decks.without_modules(got, races=False, objectives=True)
    assert kept["races"] == {} and kept["secret_objectives"] == {}
    assert "secret_objective_from_box" not in kept["options"]
    assert not any("secret objective" in n or n.startswith("Races")
                   for n in kept["options"].get("setup_notes", []))
    assert kept["objectives"] == got["objectives"]
