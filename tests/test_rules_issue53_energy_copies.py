"""Issue 53, two of its rules through the engine (and so ``python -m companion check``,
``score`` and ``history import``, which replay a record through it): a laid station's
energy, and the copies of a basic location the game's deck holds.  Every number here is
a fixture's ("Fixture: ..." cards defined in the record): no real card is given a number.

The books' sentences (B = the base rulebook, R = the Revival rulebook):

- B 4: "This energy requirement must be paid by a location in your Space Station with
  Energy Cubes on it and within 2 distance of the location you are attempting to build.
  Distance is counted through built locations, orthogonally, with each location counting
  as a distance of 1."
- B 4: "There are 2 Energy-providing locations in the game: The Main Reactor (the card
  with which each player started the game) and the Power Reactor. They both come into
  play with 2 Energy Cubes on them."; Sandra "removes 1 Energy Cube from her Main
  Reactor" to pay the energy requirement.
- B FAQ: "Can I pay the cost in Energy using Energy Cubes from more than one Power
  Reactor? Yes, you can. As long as the cost is paid and all the Reactors are within
  range, it doesn't matter where the Energy Cubes came from."
- B 3: "If you are playing a 3-player game, remove the Basic Location Cards with the
  number "4" written in the lower, right-hand corner and place them back in the box."
- R 2.1: "There are 15 unique Basic Locations in the game, each of them in 4 copies.
  Choose 10 different out of them and gather all of their copies with the number 3 on
  the lower right corner (for a total of 30 cards)."
"""
from __future__ import annotations

import copy
import json

import pytest

from companion.ats.game import Game
from companion.core.errors import IllegalAction
from recordkit import fixture_card

PLOT = "Fixture: garden plot"             # no energy
LAB = "Fixture: energy lab"               # 1 energy
FORGE = "Fixture: energy forge"           # 2 energy
UNTYPED = "Fixture: energy not typed"     # energy null: nobody typed it yet
BASIC = "Fixture: basic location"         # a basic location, 4 copies in the box
CARDS = [
    fixture_card(PLOT, types=["business"], cost=1, energy=0, vp=1),
    fixture_card(LAB, types=["recreational"], cost=2, energy=1, vp=2),
    fixture_card(FORGE, types=["military"], cost=2, energy=2, vp=3),
    {**fixture_card(UNTYPED, types=["business"], cost=1, energy=0, vp=1), "energy": None},
    {**fixture_card(BASIC, types=["business"], cost=1, energy=0, vp=1), "kind": "basic",
     "copies": 4},
]


def reactor(at, cubes):
    return {"at": list(at), "reactor": True, "cubes": cubes}


def card(at, name):
    return {"at": list(at), "card": name}


def lay(player, *cells, credits=5, vp=20):
    return {"do": "lay", "player": player, "cells": list(cells), "credits": credits, "vp": vp}


def game(players=("Ana", "Ben"), laid="final", **options) -> Game:
    opts: dict = {"laid": laid, **options}
    if laid == "now":
        opts["laid_at"] = {"year": 2, "turn": 1}
    return Game({"players": list(players), "options": opts}, cards=copy.deepcopy(CARDS))


def refused(g: Game, entry, rule, *words) -> str:
    before = g.to_record()
    with pytest.raises(IllegalAction) as e:
        g.push(copy.deepcopy(entry))
    line = str(e.value)
    assert e.value.rule == rule, line
    assert "\n" not in line
    for w in words:
        assert w in line, line
    assert g.to_record() == before                  # nothing changed
    return line


#: the lab at [0, 3] is 3 from the Main Reactor through [0, 1] and [0, 2]
FAR = lay("Ana", reactor([0, 0], 1), card([0, 1], PLOT), card([0, 2], PLOT), card([0, 3], LAB))
#: the same lab, 2 from the Main Reactor through the built [0, 1]; 1 cube paid it
NEAR = lay("Ana", reactor([0, 0], 1), card([0, 1], PLOT), card([0, 2], LAB))


# -- a laid station's energy: within 2 of a reactor (energy-reach) ----------------------
@pytest.mark.parametrize("laid", ["final", "now"])
def test_a_card_needing_energy_three_from_the_only_reactor_is_refused(laid):
    # B 4: "paid by a location in your Space Station with Energy Cubes on it and within
    # 2 distance ... Distance is counted through built locations, orthogonally": the same
    # rule for a position at the game's end and a game under way
    line = refused(game(laid=laid), FAR, "energy-reach", f"'{LAB}' at [0, 3]",
                   "no reactor is within 2")
    assert "[rule: energy-reach]" in line


def test_a_card_two_from_a_reactor_through_a_built_location_is_accepted():
    # B 4: "with each location counting as a distance of 1": [0, 0] -> [0, 1] -> [0, 2]
    g = game()
    g.push(copy.deepcopy(NEAR))
    assert g.state.players["Ana"].station.cells[(0, 0)].cubes == 1


def test_distance_is_counted_through_built_locations_not_across_empty_space():
    # the lab at [1, 1] is diagonal to the Main Reactor; through the built [0, 1] it is
    # 2, so accepted; a lab at [2, 2] reached only by way of [0, 1], [0, 2], [1, 2] is 4
    g = game()
    g.push(lay("Ana", reactor([0, 0], 1), card([0, 1], PLOT), card([1, 1], LAB)))
    refused(game(), lay("Ana", reactor([0, 0], 1), card([0, 1], PLOT), card([0, 2], PLOT),
                        card([1, 2], PLOT), card([2, 2], LAB)),
            "energy-reach", f"'{LAB}' at [2, 2]")


def test_a_power_reactor_within_2_pays_a_card_far_from_the_main_reactor():
    # B 4: "There are 2 Energy-providing locations in the game: The Main Reactor ... and
    # the Power Reactor": the Power Reactor at [0, 2] is next to the lab at [0, 3]
    g = game()
    g.push(lay("Ana", reactor([0, 0], 2), card([0, 1], PLOT), reactor([0, 2], 1),
               card([0, 3], LAB)))


def test_a_card_whose_energy_nobody_typed_is_not_counted():
    # never invented: an energy not typed (null) is asked when it is needed; the lay,
    # which cannot decide on it, accepts
    g = game()
    g.push(lay("Ana", reactor([0, 0], 2), card([0, 1], PLOT), card([0, 2], PLOT),
               card([0, 3], UNTYPED)))


# -- a laid station's energy: the cubes spent (energy-spent) ---------------------------
@pytest.mark.parametrize("laid", ["final", "now"])
def test_a_card_paid_while_its_only_reactor_still_holds_2_cubes_is_refused(laid):
    # B 4: reactors "come into play with 2 Energy Cubes on them" and paying "removes 1
    # Energy Cube": a lab that took 1 energy beside a Main Reactor still holding 2
    line = refused(game(laid=laid), lay("Ana", reactor([0, 0], 2), card([0, 1], LAB)),
                   "energy-spent", f"'{LAB}' at [0, 1]", "needs 1 energy", "lost 0 cubes")
    assert "[rule: energy-spent]" in line


def test_cubes_spent_exactly_are_accepted():
    # the lab (1) and the forge (2) took 3 cubes: the Main Reactor lost 2, the Power
    # Reactor 1, and the forge is within 2 of both (the FAQ: "it doesn't matter where
    # the Energy Cubes came from")
    g = game()
    g.push(lay("Ana", reactor([0, 0], 0), card([0, 1], LAB), card([1, 0], FORGE),
               reactor([1, 1], 1)))
    st = g.state.players["Ana"].station
    assert (st.cells[(0, 0)].cubes, st.cells[(1, 1)].cubes) == (0, 1)


def test_more_energy_than_the_reactors_lost_is_refused():
    # the lab and the forge took 3 energy; the Main Reactor lost 2 and nothing else
    refused(game(), lay("Ana", reactor([0, 0], 0), card([0, 1], LAB), card([1, 0], FORGE)),
            "energy-spent", "need 3 energy", "lost 2 cubes")


def test_a_cube_spent_out_of_the_card_s_reach_does_not_pay_it():
    # 2 cubes lost and 2 energy laid, but the lab at [0, 4] has only the Power Reactor at
    # [0, 3] within 2, and it still holds its 2: the Main Reactor's cube paid the plot
    # lab at [0, 1], not it.  The refusal names the card that could not have been paid.
    line = refused(game(), lay("Ana", reactor([0, 0], 0), card([0, 1], LAB),
                               card([0, 2], PLOT), reactor([0, 3], 2), card([0, 4], LAB)),
                   "energy-spent", f"'{LAB}' at [0, 4]", "[0, 3]")
    assert "[0, 1]" not in line


def test_a_payment_that_could_come_from_either_reactor_is_accepted():
    # both reactors are within 2 of the lab at [0, 1]; the Power Reactor lost the cube
    # (the Main Reactor keeps 2): which one paid is not asked
    g = game()
    g.push(lay("Ana", reactor([0, 0], 2), card([0, 1], LAB), reactor([0, 2], 1)))


def test_cubes_lost_beyond_the_cards_energy_are_accepted():
    # more lost than the cards laid take (a location removed at a round's end, B 5,
    # keeps its cubes spent): nothing says it could not have happened
    g = game()
    g.push(lay("Ana", reactor([0, 0], 0), card([0, 1], PLOT)))


# -- the copies the game's deck holds (deck-copies) ------------------------------------
def _three_copies_then(g: Game, extra_player: str):
    g.push(lay("Ana", reactor([0, 0], 2), card([0, 1], BASIC), card([0, 2], BASIC)))
    return lay(extra_player, reactor([0, 0], 2), card([0, 1], BASIC), card([1, 0], BASIC))


def test_a_fourth_copy_of_a_basic_location_is_refused_with_3_players():
    # B 3: with 3 players "remove the Basic Location Cards with the number "4"": 3 of
    # each basic location are in the deck
    g = game(["Ana", "Ben", "Cleo"])
    line = refused(g, _three_copies_then(g, "Ben"), "deck-copies", f"'{BASIC}'",
                   "holds 3 copies", "B 3", "4 are laid")
    assert "[rule: deck-copies]" in line


def test_a_fourth_copy_is_refused_with_the_revival_two_player_rules():
    # R 2.1: "gather all of their copies with the number 3 ... (for a total of 30 cards)"
    g = game(two_player="revival")
    refused(g, _three_copies_then(g, "Ben"), "deck-copies", f"'{BASIC}'", "R 2.1",
            "all of their copies with the number 3")


@pytest.mark.parametrize("players, options", [
    (["Ana", "Ben", "Cleo", "Dev"], {}),                  # B 3: 4 players, every copy
    (["Ana", "Ben"], {"two_player": "virtual"}),          # B 8: the 4-player setup
    (["Ana", "Ben", "Cleo"], {"all_in": True}),           # B 9: every card of the set
])
def test_a_fourth_copy_is_accepted_where_the_deck_holds_all_four(players, options):
    g = game(players, **options)
    g.push(_three_copies_then(g, "Ben"))
    assert sum(g.state.players[p].station.copies_of(BASIC) for p in players) == 4


def test_a_fourth_copy_built_in_a_three_player_game_is_refused_and_not_offered():
    # a game under way with 3 players: 3 copies laid, the 4th is not offered and its
    # build is refused quoting the deck (B 3)
    g = game(["Ana", "Ben", "Cleo"], laid="now")
    g.push(lay("Ana", reactor([0, 0], 2), card([0, 1], BASIC), card([0, 2], BASIC)))
    g.push(lay("Ben", reactor([0, 0], 2), card([0, 1], BASIC)))
    g.push(lay("Cleo", reactor([0, 0], 2)))
    assert g.legal_cells("Cleo", BASIC) == []
    refused(g, {"player": "Cleo", "do": "build", "card": BASIC, "at": [0, 1]},
            "deck-copies", f"'{BASIC}'", "holds 3 copies", "already built (Ana 2, Ben 1)")


# -- the command line: check, score and history import refuse the same line ------------
@pytest.mark.parametrize("entry, rule, where", [
    (FAR, "energy-reach", f"'{LAB}' at [0, 3]"),
    (lay("Ana", reactor([0, 0], 2), card([0, 1], LAB)), "energy-spent", f"'{LAB}' at [0, 1]"),
])
def test_check_score_and_history_import_refuse_in_one_line(tmp_path, run_cli, entry, rule,
                                                            where):
    rec = game().to_record()
    rec["actions"] = [copy.deepcopy(entry)]
    path = tmp_path / "laid.json"
    path.write_text(json.dumps(rec))
    home = tmp_path / "home"
    lines = {}
    for command in (["check"], ["score"], ["history", "import"]):
        out = run_cli(*command, str(path), home=home)
        assert out.returncode != 0 and "Traceback" not in out.stderr, (out.stdout, out.stderr)
        hit = [x for x in (out.stdout + out.stderr).splitlines() if f"[rule: {rule}]" in x]
        assert len(hit) == 1 and where in hit[0], (command, out.stdout, out.stderr)
        lines[command[0]] = hit[0]
    # the legal station beside it goes through
    rec["actions"] = [copy.deepcopy(NEAR)]
    path.write_text(json.dumps(rec))
    ok = run_cli("check", str(path), home=home)
    assert ok.returncode == 0, ok.stderr
