"""Issue 39, "A game already under way" (Among the Stars): a game laid from the table
*now* (``setup.options.laid: "now"`` with ``setup.options.laid_at: {"year": Y, "turn":
T}``) holds one ``lay`` entry per player, each station as it lies with its credits and
the score track's VP; once every station is laid the game goes on from the start of
year Y's turn T, action by action, every rule checked as for a game entered from its
start, to the final scoring after year 4.  Every number here is a fixture's ("Fixture:
..." cards defined in the record): no real card is given a number.

The books' sentences the tests rely on (B = the base rulebook):

- B 4: "Location Cards may only be built adjacent to other Location Cards"; "Two
  locations are considered adjacent if they are placed next to each other orthogonally."
- B 4: "In order to build a location, you have to cover its cost."; "If a player
  selects a card but is unable to pay its cost, then he cannot build the location and
  must select another action instead."
- B 4: "This energy requirement must be paid by a location in your Space Station with
  Energy Cubes on it and within 2 distance of the location you are attempting to build.
  Distance is counted through built locations, orthogonally, with each location counting
  as a distance of 1."  B FAQ: "Since there is no location directly between them, the
  distance is considered to be 4."
- B 4: "In the rare occasion where there are no Power Reactor Cards available (or if a
  player has no credits left), this action may not be taken."
- B 4: "Discard your selected card (after revealing it simultaneously with the other
  players) and immediately gain 3 credits."
- B 4: "The game is played over a period of 4 years"; "At the beginning of every round,
  each player should: Take 10 credits"; "Every round consists of 6 turns."
- B 10 (the card's anatomy): "The maximum number of times this card can be built in
  your Station" (MAX).
- B 6: "Check all the cards in his Space Station with abilities in yellow boxes for any
  VPs gained."; "Gain 1 VP for every Power Reactor that DOES NOT contain any Energy
  cubes."; "Gain 1 VP for every 3 credits remaining."; "If 2 or more players are tied
  for any Objective, no bonus is given."; "The player with the most Victory Points is
  the winner."
"""
from __future__ import annotations

import copy
import json

import pytest

from companion.ats.game import Game
from companion.ats.actions import Discard
from companion.core.errors import IllegalAction, RecordError
from recordkit import fixture_card, fixture_objective

PLAYERS = ["Ana", "Ben", "Cleo"]
PLOT = "Fixture: garden plot"
MILITARY = "Fixture: military post"
LAB = "Fixture: energy lab"
BONUS = "Fixture: end bonus"
ONE_COPY = "Fixture: one in the box"
CARDS = [
    fixture_card(PLOT, types=["business"], cost=1, energy=0, vp=1, max=2),
    fixture_card(MILITARY, types=["military"], cost=1, energy=0, vp=2, max=2),
    fixture_card(LAB, types=["recreational"], cost=2, energy=1, vp=2, max=1),
    fixture_card(BONUS, types=["diplomatic"], cost=2, energy=1, vp=0, max=1,
                 abilities=[{"when": "end", "flat": 4, "note": "test fixture: +4 at the end"}]),
    {**fixture_card(ONE_COPY, types=["business"], cost=1, energy=0, vp=1, max=1), "copies": 1},
    fixture_objective("Fixture: most military", vp=4,
                      most={"per": "station_location", "types": ["military"]}),
    fixture_objective("Fixture: most credits", vp=5, most={"per": "credit"}),
    fixture_objective("Fixture: most reactors", vp=3, most={"per": "reactor"}),
]
OBJECTIVES = ["Fixture: most military", "Fixture: most credits", "Fixture: most reactors"]
#: the Power Reactors in the supply at the start, the record's (B 2's 16 is the box's;
#: a small supply lets the laid reactors empty it)
SUPPLY = 2
TRACK_RULE = "VP during the game: from the score track, typed"


def reactor(at, cubes):
    return {"at": list(at), "reactor": True, "cubes": cubes}


def card(at, name):
    return {"at": list(at), "card": name}


LAYS = [
    {"do": "lay", "player": "Ana",
     "cells": [reactor([0, 0], 1), card([0, 1], PLOT), reactor([1, 0], 0)],
     "credits": 6, "vp": 14},
    {"do": "lay", "player": "Ben",
     "cells": [reactor([0, 0], 1), card([0, -1], MILITARY), card([0, -2], PLOT),
               card([-1, 0], ONE_COPY), card([1, 0], BONUS)],
     "credits": 1, "vp": 11},
    {"do": "lay", "player": "Cleo",
     "cells": [reactor([0, 0], 0), card([0, 1], PLOT), card([0, 2], PLOT),
               reactor([0, 3], 2)],
     "credits": 9, "vp": 12},
]


def setup(**laid_at):
    at = laid_at or {"year": 2, "turn": 3}
    return {"players": PLAYERS, "objectives": OBJECTIVES,
            "options": {"laid": "now", "laid_at": at, "reactor_supply": SUPPLY}}


def new_game(**laid_at) -> Game:
    return Game(setup(**laid_at), cards=copy.deepcopy(CARDS))


def laid_game() -> Game:
    g = new_game()
    for a in LAYS:
        g.push(copy.deepcopy(a))
    return g


def snapshot(g: Game):
    st = g.state
    return (g.to_record(), st.year, st.turn, list(st.acted), st.reactor_supply,
            {p: (st.players[p].vp, st.players[p].credits,
                 sorted(st.players[p].station.locations())) for p in PLAYERS})


def refused(g: Game, action, rule, *words):
    before = snapshot(g)
    with pytest.raises(IllegalAction) as e:
        g.push(copy.deepcopy(action))
    assert e.value.rule == rule, str(e.value)
    for w in words:
        assert w in str(e.value), str(e.value)
    assert snapshot(g) == before            # nothing changed
    return e.value


def build(player, name, at, **kw):
    return {"player": player, "do": "build", "card": name, "at": list(at), **kw}


# -- the laid position -----------------------------------------------------------------
def test_every_station_laid_the_game_stands_at_laid_at_with_everyone_to_act():
    g = laid_game()
    st = g.state
    assert not g.finished and (st.year, st.turn) == (2, 3)
    assert st.waiting == PLAYERS and st.acted == []
    assert {p: (st.players[p].vp, st.players[p].credits) for p in PLAYERS} == {
        "Ana": (14, 6), "Ben": (11, 1), "Cleo": (12, 9)}
    # B 4: a Power Reactor is taken "from the Power Reactor Deck": Ana's and Cleo's laid
    # reactors left the supply of 2
    assert st.reactor_supply == SUPPLY - 2 == 0


def test_laying_comes_first_and_nothing_is_offered_before():
    g = new_game()
    assert (g.state.year, g.state.turn) == (2, 3)
    g.push(copy.deepcopy(LAYS[0]))
    assert g.legal_cells("Ana", PLOT) == [] and g.legal_actions("Ana", PLOT) == []
    refused(g, {"player": "Ana", "do": "discard", "card": PLOT}, "lay",
            "lay every player's station first", "Ben, Cleo")


def test_a_lay_after_play_began_is_refused():
    g = laid_game()
    g.push({"player": "Ana", "do": "discard", "card": PLOT})
    refused(g, copy.deepcopy(LAYS[0]), "lay", "a station is laid before any other action")
    g.pop()
    refused(g, copy.deepcopy(LAYS[1]), "lay", "Ben's station is laid already")


# -- every rule checked from the laid position -------------------------------------------
def test_a_legal_build_is_accepted_with_its_cost_energy_and_vp():
    # B 4: energy "within 2 distance ... counted through built locations": Cleo's lab at
    # [1, 2] is 2 from her reactor at [0, 3] (through [0, 2]), which pays its cube.
    g = laid_game()
    assert (1, 2) in g.legal_cells("Cleo", LAB)
    norm = g.push(build("Cleo", LAB, [1, 2]))
    assert norm["year"] == 2 and norm["turn"] == 3 and norm["energy_from"] == [[0, 3]]
    cleo = g.state.players["Cleo"]
    assert cleo.credits == 9 - 2 and cleo.vp == 12 + 2
    assert cleo.station.cells[(0, 3)].cubes == 1
    assert g.state.acted == ["Cleo"]


def test_a_build_not_adjacent_is_refused_naming_card_cell_and_rule():
    # B 4: "Location Cards may only be built adjacent to other Location Cards"
    e = refused(laid_game(), build("Ana", PLOT, [2, 2]), "not-adjacent", PLOT, "[2, 2]")
    assert "Ana" in str(e) and "[rule: not-adjacent]" in str(e)


def test_energy_out_of_reach_is_refused():
    # B 4: "within 2 distance ... Distance is counted through built locations"; Cleo's
    # Main Reactor holds no cube, her reactor at [0, 3] is 4 from [1, 0]
    e = refused(laid_game(), build("Cleo", LAB, [1, 0]), "no-energy", LAB, "[1, 0]")
    assert "Cleo" in str(e)


def test_credits_laid_are_the_credits_to_pay_with():
    # B 4: "In order to build a location, you have to cover its cost."  Ben laid 1 credit;
    # the lab costs 2 (and his Main Reactor, 1 cube, is 2 from [-1, -1])
    refused(laid_game(), build("Ben", LAB, [-1, -1]), "credits", LAB, "[-1, -1]")


def test_max_counts_the_laid_copies():
    # B 10: "The maximum number of times this card can be built in your Station": Cleo
    # laid 2 plots of MAX 2
    refused(laid_game(), build("Cleo", PLOT, [1, 1]), "max", PLOT, "MAX 2")


def test_the_box_copies_count_the_laid_stations():
    # the copies the box holds, typed (here the fixture's 1), stand in Ben's laid station
    refused(laid_game(), build("Ana", ONE_COPY, [1, 1]), "copies", ONE_COPY,
            "the box holds 1 copy")


def test_the_reactor_supply_is_less_the_laid_reactors():
    # B 4: "In the rare occasion where there are no Power Reactor Cards available ...,
    # this action may not be taken."  The supply of 2 went to Ana's and Cleo's stations.
    g = laid_game()
    assert g.legal_cells("Ben", do="reactor") == []
    refused(g, {"player": "Ben", "do": "reactor", "card": PLOT, "at": [1, 1]},
            "reactor-supply")


def test_check_and_legal_actions_are_queries_from_the_laid_position():
    g = laid_game()
    before = snapshot(g)
    assert g.check(build("Cleo", LAB, [1, 2]))["energy_from"] == [[0, 3]]
    with pytest.raises(IllegalAction) as e:
        g.check(build("Cleo", LAB, [1, 0]))
    assert e.value.rule == "no-energy"
    assert not g.is_legal(build("Cleo", PLOT, [1, 1]))
    acts = g.legal_actions("Ana", PLOT)
    assert Discard(year=2, turn=3, player="Ana", card=PLOT) in acts     # action values
    assert not any(a.kind == "reactor" for a in acts)      # the supply is empty
    assert snapshot(g) == before


# -- undo, the record ------------------------------------------------------------------
def test_undo_of_an_action_and_of_a_lay():
    g = laid_game()
    laid = snapshot(g)
    g.push(build("Cleo", LAB, [1, 2]))
    assert g.pop()["card"] == LAB
    assert snapshot(g) == laid
    last = g.pop()
    assert last == LAYS[-1] and g.state.laid == ["Ana", "Ben"]
    assert g.state.players["Cleo"].station.locations() == [(0, 0)]
    assert g.state.reactor_supply == SUPPLY - 1 and (g.state.year, g.state.turn) == (2, 3)
    g.push(copy.deepcopy(LAYS[-1]))
    assert snapshot(g) == laid


def test_the_record_round_trip_replays_identically():
    g = laid_game()
    g.push(build("Cleo", LAB, [1, 2]))
    g.push({"player": "Ana", "do": "discard", "card": PLOT})
    rec = json.loads(json.dumps(g.to_record()))
    assert rec["setup"]["options"] == {"laid": "now", "laid_at": {"year": 2, "turn": 3},
                                       "reactor_supply": SUPPLY}
    assert rec["actions"][:3] == LAYS
    for trusted in (False, True):
        back = Game.from_record(copy.deepcopy(rec), trusted=trusted)
        assert back.to_record() == rec and snapshot(back) == snapshot(g)
        assert back.score().to_json() == g.score().to_json()
    part = Game.from_record({**copy.deepcopy(rec), "actions": rec["actions"][:2]})
    part.replay(copy.deepcopy(rec["actions"][2:]))
    assert snapshot(part) == snapshot(g)


# -- to the end ------------------------------------------------------------------------
def play_to_the_end(g: Game) -> list[dict]:
    credits_at_year_3 = None
    g.push(build("Ana", LAB, [0, 2]))          # 2 from her Main Reactor (1 cube)
    while not g.finished:
        if g.state.year == 3 and credits_at_year_3 is None:
            credits_at_year_3 = {p: g.state.players[p].credits for p in PLAYERS}
        for p in list(g.waiting_in_order()):
            g.push({"player": p, "do": "discard", "card": PLOT})
    return credits_at_year_3


#: by hand.  Ana builds the lab in year 2 turn 3 (2 credits, its 2 VP, her Main
#: Reactor's last cube); every other action to the end of year 4 is a discard (+3
#: credits, B 4): year 2 turns 3-6, years 3 and 4 of 6 turns = 16 actions a player,
#: 15 discards for Ana; +10 credits at the start of years 3 and 4 (B 4).
#: Ana:  credits 6 - 2 + 15 x 3 + 20 = 69; track 14 + 2 = 16; "Power Reactor that DOES
#:       NOT contain any Energy cubes": Main Reactor (its cube paid the lab) and [1, 0]:
#:       +2; 69 credits: +23.  Total 41.
#: Ben:  credits 1 + 48 + 20 = 69; track 11; the end bonus's yellow box +4; Main Reactor
#:       1 cube: 0; +23; most military (Ben 1, the others 0): +4.  Total 42.
#: Cleo: credits 9 + 48 + 20 = 77; track 12; Main Reactor empty +1, [0, 3] 2 cubes: 0;
#:       +25; most credits (77 against 69 and 69): +5.  Total 43.
#: Most reactors: Ana 2, Ben 1, Cleo 2: tied, "no bonus is given".
HAND = {
    "Ana": {"during_game": 16, "end_abilities": 0, "empty_reactors": 2, "credits": 23,
            "objectives": 0},
    "Ben": {"during_game": 11, "end_abilities": 4, "empty_reactors": 0, "credits": 23,
            "objectives": 4},
    "Cleo": {"during_game": 12, "end_abilities": 0, "empty_reactors": 1, "credits": 25,
             "objectives": 5},
}


def test_the_game_goes_on_to_its_end_and_is_scored():
    g = laid_game()
    at_year_3 = play_to_the_end(g)
    # year 2's last turn done: "Take 10 credits" at the start of year 3 (Ana: 6 - 2 + 3 x 3
    # discards in turns 4-6 + 10; Ben and Cleo 4 discards each)
    assert at_year_3 == {"Ana": 6 - 2 + 9 + 10, "Ben": 1 + 12 + 10, "Cleo": 9 + 12 + 10}
    assert g.finished and (g.state.year, g.state.turn) == (4, 6)
    assert len(g.actions) == 3 + 3 * 16
    assert {p: g.state.players[p].credits for p in PLAYERS} == {"Ana": 69, "Ben": 69,
                                                                 "Cleo": 77}
    out = g.score().to_json()
    assert out["final"]
    for row in out["players"]:
        assert row["breakdown"] == HAND[row["player"]], row
    assert {r["player"]: r["total"] for r in out["players"]} == {"Ana": 41, "Ben": 42,
                                                                 "Cleo": 43}
    assert out["winners"] == ["Cleo"]
    lines = g.score().line_rows
    track = [l for l in lines if l["category"] == "during_game" and l["source"] == "score track"]
    assert {l["player"]: l["vp"] for l in track} == {"Ana": 14, "Ben": 11, "Cleo": 12}
    assert all(l["rule"] == TRACK_RULE for l in track)
    lab = [l for l in lines if l["category"] == "during_game" and l["source"] == LAB]
    assert [(l["player"], l["vp"]) for l in lab] == [("Ana", 2)]
    assert lab[0]["rule"].startswith("year 2 turn 3: ")
    refused(g, {"player": "Ana", "do": "discard", "card": PLOT}, "game-over")
    back = Game.from_record(json.loads(json.dumps(g.to_record())))
    assert back.score().to_json() == out


# -- setup.options.laid_at -------------------------------------------------------------
@pytest.mark.parametrize("laid_at, words", [
    ({"year": 0, "turn": 1}, "not year 0"),
    ({"year": 5, "turn": 1}, "not year 5"),
    ({"year": 2, "turn": 7}, "year 2 has 6 turns"),
    ({"year": 2, "turn": 0}, "not turn 0"),
    ("2.3", "not '2.3'"),
    ({"year": "2", "turn": 3}, "laid_at is"),
    ({"year": True, "turn": 3}, "laid_at is"),
    ({"year": 2}, "laid_at is"),
    ({"year": 2, "turn": 3, "player": "Ana"}, "laid_at is"),
])
def test_a_malformed_laid_at_is_refused(laid_at, words):
    # B 4: "The game is played over a period of 4 years"; "Every round consists of 6 turns."
    rec = {"format": "among-the-stars/1", "cards": copy.deepcopy(CARDS), "actions": [],
           "setup": {**setup(), "options": {"laid": "now", "laid_at": laid_at}}}
    with pytest.raises(RecordError, match="setup.options.laid_at") as e:
        Game.from_record(rec)
    assert words in str(e.value)
    with pytest.raises(RecordError):
        Game(rec["setup"], cards=copy.deepcopy(CARDS))


def test_laid_at_goes_with_laid_now_only():
    with pytest.raises(RecordError, match="laid_at"):
        Game({"players": PLAYERS, "objectives": OBJECTIVES, "options": {"laid": "now"}},
             cards=copy.deepcopy(CARDS))
    with pytest.raises(RecordError, match="laid_at names the turn of a game laid under way"):
        Game({"players": PLAYERS, "objectives": OBJECTIVES,
              "options": {"laid": "final", "laid_at": {"year": 2, "turn": 3}}},
             cards=copy.deepcopy(CARDS))


def test_the_aggressive_modes_seventh_turn():
    # B 7: "For each of the next 3 rounds, every player will draw an extra card from the
    # Location Deck (for a total of 7 cards per player)": year 2 has 7 turns, year 1 has 6
    s = {**setup(), "mode": "aggressive"}
    s["options"] = {"laid": "now", "laid_at": {"year": 2, "turn": 7}}
    g = Game(s, cards=copy.deepcopy(CARDS))
    assert (g.state.year, g.state.turn) == (2, 7)
    s["options"] = {"laid": "now", "laid_at": {"year": 1, "turn": 7}}
    with pytest.raises(RecordError, match="year 1 has 6 turns"):
        Game(s, cards=copy.deepcopy(CARDS))


def test_a_year_s_first_turn_laid():
    # laid at year 3 turn 1: the credits laid are those in front of the players, the
    # year's 10 already taken ("At the beginning of every round, each player should: Take
    # 10 credits"); the first action is the year's first
    g = new_game(year=3, turn=1)
    for a in LAYS:
        g.push(copy.deepcopy(a))
    assert (g.state.year, g.state.turn) == (3, 1) and g.state.players["Ben"].credits == 1
    g.push({"player": "Ben", "do": "discard", "card": PLOT})
    assert g.state.players["Ben"].credits == 4


def test_the_influence_tiles_cannot_be_laid_now():
    # R 4's advisors stand between the players, not in a station: a lay entry cannot say
    # where; the game is refused rather than given a guessed position
    tiles = [{"name": "Fixture: tile", "between": ["Ana", "Ben"], "actions": ["discard"],
              "slots": 2}]
    s = setup()
    s["options"] = {**s["options"], "advisors": tiles}
    with pytest.raises(RecordError, match="Influence tiles"):
        Game(s, cards=copy.deepcopy(CARDS), book_setup=False)
