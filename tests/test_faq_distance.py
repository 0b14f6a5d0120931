"""The FAQ distance ruling (B 11 FAQ; R FAQ): "Since there is no location
directly between them, the distance is considered to be 4", not 2.

Distance runs through built locations only, one step per location.  Two
locations two cells apart in a row, with the cell between them empty, are
joined only by the way round (down, across, up): 4 steps.  The same ruling
seen through the game: a reactor 4 steps away cannot pay energy, and an
ability counting locations within distance 2 does not see it.
"""
from __future__ import annotations

import math

import pytest

from companion import Catalogue, IllegalAction
from companion.ats.station import LOCATION, REACTOR, Placed, Station
from recordkit import build, new_game, play, reactor

E1 = "Fixture: energy 1"
E0 = "Fixture: no energy"
WITHIN2 = "Fixture: +1 per location within 2"
CARDS = [
    {"name": E1, "types": ["business"], "cost": 1, "energy": 1, "vp": 1, "max": "none",
     "abilities": [], "notes": "test fixture"},
    {"name": E0, "types": ["business"], "cost": 1, "energy": 0, "vp": 1, "max": "none",
     "abilities": [], "notes": "test fixture"},
    {"name": WITHIN2, "types": ["diplomatic"], "cost": 1, "energy": 0, "vp": 0, "max": "none",
     "abilities": [{"when": "immediate", "per": "location_within", "distance": 2, "vp": 1}],
     "notes": "test fixture"},
]


def station(*cells, reactors=()):
    s = Station()
    for c in cells:
        s.place(c, Placed(LOCATION, "x", ("business",)))
    for c in reactors:
        s.place(c, Placed(REACTOR, cubes=2))
    return s


# ---------------------------------------------------------------------------
# the Station API
# ---------------------------------------------------------------------------
def test_gap_in_a_row_is_4_not_2():
    #  M . B        M = Main Reactor (0,0), B = (0,2), the cell between is empty
    #  x x x
    s = station((1, 0), (1, 1), (1, 2), (0, 2))
    assert (0, 1) not in s
    assert s.distance((0, 0), (0, 2)) == 4
    assert s.distance((0, 2), (0, 0)) == 4
    assert s.distances_from((0, 0))[(0, 2)] == 4
    assert (0, 2) not in s.distances_from((0, 0), cutoff=2)


def test_filling_the_gap_makes_it_2():
    s = station((1, 0), (1, 1), (1, 2), (0, 2), (0, 1))
    assert s.distance((0, 0), (0, 2)) == 2


def test_diagonal_neighbours_through_a_built_corner_are_2():
    s = station((0, 1), (1, 1))
    assert s.distance((0, 0), (1, 1)) == 2


def test_diagonal_with_both_corners_empty_goes_the_long_way():
    # (0,0) and (1,1) with (0,1) and (1,0) empty: the shortest way round is 6
    s = station((-1, 0), (-1, 1), (-1, 2), (0, 2), (1, 2), (1, 1))
    assert s.distance((0, 0), (1, 1)) == 6
    # with no way round at all there is no distance
    t = Station()
    t.place((1, 1), Placed(LOCATION, "x", ("business",)))    # (a state no rule allows)
    assert math.isinf(t.distance((0, 0), (1, 1)))


def test_distance_from_an_empty_cell_counts_the_new_location_as_step_one():
    s = station((0, 1), (1, 1), (2, 1), reactors=[(2, 2)])
    d = s.distances_from((0, 2))               # (0,2) is empty: about to be built
    assert d[(0, 1)] == 1 and d[(0, 0)] == 2 and d[(1, 1)] == 2
    assert d[(2, 1)] == 3 and d[(2, 2)] == 4
    assert [r for r, _, _ in s.reactors_in_range((0, 2), 2)] == [(0, 0)]
    assert (2, 2) in [r for r, _, _ in s.reactors_in_range((1, 2), 2)]


# ---------------------------------------------------------------------------
# the same ruling through the game
# ---------------------------------------------------------------------------
@pytest.fixture
def game():
    """Ann's station after 4 turns (Bea discards):

        M  E  .        M = Main Reactor, emptied by the two 'energy 1' cards
        .  E  .        E = 'energy 1' (paid from M), N = 'no energy'
        .  N  R        R = Power Reactor with 2 cubes

    The empty cell [0, 2] is next to E, 4 steps from R, 2 from M (empty).
    """
    g = new_game(["Ann", "Bea"], cards=CARDS, catalogue=Catalogue.shipped())
    play(g, {"Ann": [build(E1, [0, 1], energy_from=[[0, 0]]),
                     build(E1, [1, 1], energy_from=[[0, 0]]),
                     build(E0, [2, 1]), reactor([2, 2])]}, turns=4)
    st = g.state.station("Ann")
    assert st.cells[(0, 0)].cubes == 0 and st.cells[(2, 2)].cubes == 2
    return g


def test_a_reactor_4_steps_away_cannot_pay(game):
    state_before = game.to_record()
    with pytest.raises(IllegalAction) as e:
        game.push({"player": "Ann", "do": "build", "card": E1, "at": [0, 2]})
    assert e.value.rule == "no-energy"
    with pytest.raises(IllegalAction) as e:
        game.push({"player": "Ann", "do": "build", "card": E1, "at": [0, 2],
                   "energy_from": [[2, 2]]})
    assert e.value.rule == "energy-from"
    assert "not a reactor within distance 2" in str(e.value)
    assert game.to_record() == state_before        # nothing changed
    assert game.payers("Ann", (0, 2)) == []
    assert [0, 2] not in [list(c) for c in game.legal_cells("Ann", E1)]
    assert [1, 2] in [list(c) for c in game.legal_cells("Ann", E1)]
    # next to the reactor it pays
    game.push({"player": "Ann", "do": "build", "card": E1, "at": [1, 2]})
    assert game.actions[-1]["energy_from"] == [[2, 2]]


def test_once_the_gap_is_built_the_reactor_is_2_away(game):
    game.push({"player": "Ann", "do": "build", "card": E0, "at": [1, 2]})
    game.push({"player": "Bea", "do": "discard", "card": "Garden"})
    assert game.payers("Ann", (0, 2)) == [((2, 2), 2, 2)]
    game.push({"player": "Ann", "do": "build", "card": E1, "at": [0, 2]})
    assert game.actions[-1]["energy_from"] == [[2, 2]]


def test_ability_within_2_does_not_count_a_location_4_away(game):
    game.push({"player": "Ann", "do": "build", "card": WITHIN2, "at": [0, 2]})
    line = game.state.players["Ann"].ledger[-1]
    # within 2 of [0,2]: E [0,1] (1), Main [0,0] (2), E [1,1] (2); not N (3), not R (4)
    assert (line.source, line.category, line.vp) == (WITHIN2, "ability", 3)
