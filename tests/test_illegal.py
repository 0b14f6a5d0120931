"""Illegal actions: each class of mistake is refused with a message that names the
card, the cell (for builds and reactors) and the rule code, and the game is left
exactly as it was (record, VP, credits, station cells and energy cubes).

Only FIXTURE cards carry numbers here (names starting with "Fixture: "); real
cards appear only where their values are unknown (Garden) or to test the
catalogue's own behaviour (a typo suggestion).
"""
from __future__ import annotations

import copy

import pytest

from companion import Catalogue, Game, IllegalAction, UnknownCardValues
from companion.ats.station import Station


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Never read or write the real user catalogue."""
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


def _school_ability() -> list[dict]:
    """The School of Alien Cultures ability exactly as the shipped catalogue has it
    (its cost is unknown, so the fixture card below carries made-up numbers)."""
    school = Catalogue.shipped().get("School of Alien Cultures")
    assert school is not None and school.abilities
    return [dict(a) for a in school.abilities]


def fixture_cards() -> list[dict]:
    base = dict(max="none", abilities=[])
    return [
        dict(base, name="Fixture: free", types=["military"], cost=0, energy=0, vp=1),
        dict(base, name="Fixture: one energy", types=["recreational"], cost=1, energy=1, vp=1),
        dict(base, name="Fixture: three energy", types=["business"], cost=1, energy=3, vp=1),
        dict(base, name="Fixture: max 1", types=["administrative"], cost=1, energy=0, vp=1, max=1),
        dict(base, name="Fixture: max unknown", types=["business"], cost=1, energy=0, vp=1,
             max=None),
        dict(base, name="Fixture: all credits", types=["military"], cost=10, energy=0, vp=0),
        dict(base, name="Fixture: pricey", types=["military"], cost=11, energy=0, vp=0),
        dict(base, name="Fixture: school", types=["diplomatic"], cost=2, energy=1, vp=1,
             abilities=_school_ability()),
    ]


def new_game(players=("Sandra", "George"), **options) -> Game:
    return Game({"players": list(players), "options": options}, cards=fixture_cards())


def snapshot(game: Game) -> dict:
    """Everything an illegal action must not touch."""
    st = game.state
    return {
        "year": st.year, "turn": st.turn, "acted": list(st.acted), "finished": st.finished,
        "reactor_supply": st.reactor_supply, "index": st.index,
        "discards": list(st.discards), "pending": len(st.pending),
        "actions": copy.deepcopy(game.actions),
        "players": {
            name: {
                "vp": ps.vp, "credits": ps.credits,
                "cells": {cell: (p.kind, p.card, p.types, p.cubes)
                          for cell, p in sorted(ps.station.cells.items())},
                "cubes": ps.station.cubes(),
                "blocked": sorted(ps.station.blocked),
                "edges": sorted(tuple(sorted(e)) for e in ps.station.graph.edges),
                "ledger": list(ps.ledger), "last": copy.deepcopy(ps.last),
            } for name, ps in st.players.items()},
    }


def everyone_else_discards(game: Game, **acts) -> None:
    """Play one whole turn: the given players' actions, everybody else discards."""
    for p in list(game.state.waiting):
        a = acts.get(p) or {"player": p, "do": "discard", "card": "Fixture: free"}
        game.push({"player": p, **a})


def build(card, at, **kw):
    return {"do": "build", "card": card, "at": list(at), **kw}


def assert_illegal(game: Game, action: dict, rule: str, *expect: str,
                   error=IllegalAction) -> IllegalAction:
    """push() and check() both refuse ``action`` with ``rule``; nothing changes."""
    before, record = snapshot(game), game.to_record()
    with pytest.raises(error) as info:
        game.push(action)
    e = info.value
    msg = str(e)
    assert e.rule == rule, msg
    assert f"[rule: {rule}]" in msg
    if action.get("card"):
        assert f"'{action['card']}'" in msg, msg
    if action.get("do") in ("build", "reactor") and isinstance(action.get("at"), list):
        assert str(list(action["at"])) in msg, msg
    for part in expect:
        assert part in msg, msg
    assert snapshot(game) == before
    assert game.to_record() == record
    # the query API agrees and does not change anything either
    with pytest.raises(error) as info2:
        game.check(action)
    assert info2.value.rule == rule
    assert not game.is_legal(action)
    assert f"[rule: {rule}]" in game.why_illegal(action)
    assert snapshot(game) == before
    assert game.to_record() == record
    return e


# ---------------------------------------------------------------------------
def test_check_of_a_legal_action_changes_nothing():
    g = new_game()
    before, record = snapshot(g), g.to_record()
    norm = g.check({"player": "Sandra", **build("Fixture: one energy", (0, 1))})
    assert norm["energy_from"] == [[0, 0]] and norm["year"] == 1 and norm["turn"] == 1
    assert g.is_legal({"player": "Sandra", **build("Fixture: one energy", (0, 1))})
    assert g.why_illegal({"player": "Sandra", **build("Fixture: one energy", (0, 1))}) is None
    # even the action that would end the turn (and resolve effects) is only a query
    g.push({"player": "Sandra", **build("Fixture: school", (0, 1), choices={"George": "pay"})})
    before, record = snapshot(g), g.to_record()
    g.check({"player": "George", "do": "discard", "card": "Fixture: free"})
    assert snapshot(g) == before and g.to_record() == record
    # the caller's dict is not modified either
    action = {"player": "George", **build("Fixture: one energy", (1, 0))}
    kept = copy.deepcopy(action)
    g.check(action)
    assert action == kept


def test_not_adjacent():
    g = new_game()
    e = assert_illegal(g, {"player": "Sandra", **build("Fixture: free", (0, 2))}, "not-adjacent",
                       "not orthogonally adjacent")
    assert e.action["at"] == [0, 2]
    # diagonal is not adjacent either
    assert_illegal(g, {"player": "Sandra", **build("Fixture: free", (1, 1))}, "not-adjacent")
    # a reactor follows the same placement rule
    assert_illegal(g, {"player": "Sandra", "do": "reactor", "card": "Fixture: free",
                       "at": [2, 0]}, "not-adjacent")
    assert (0, 2) not in g.legal_cells("Sandra", "Fixture: free")


def test_occupied():
    g = new_game()
    assert_illegal(g, {"player": "Sandra", **build("Fixture: free", (0, 0))}, "occupied",
                   "Main Reactor")
    everyone_else_discards(g, Sandra=build("Fixture: free", (0, 1)))
    assert_illegal(g, {"player": "Sandra", **build("Fixture: one energy", (0, 1))}, "occupied",
                   "Fixture: free")
    assert_illegal(g, {"player": "Sandra", "do": "reactor", "card": "Fixture: free",
                       "at": [0, 1]}, "occupied")
    # the other player's station is separate: George may build at [0, 1]
    assert g.is_legal({"player": "George", **build("Fixture: free", (0, 1))})


def test_no_energy_reactor_at_distance_three():
    g = new_game()
    everyone_else_discards(g, Sandra=build("Fixture: free", (0, 1)))
    everyone_else_discards(g, Sandra=build("Fixture: free", (0, 2)))
    st = g.state.station("Sandra")
    assert st.distance((0, 0), (0, 3)) == 3
    assert st.cells[(0, 0)].cubes == 2          # the cubes are there, but too far
    assert_illegal(g, {"player": "Sandra", **build("Fixture: one energy", (0, 3))}, "no-energy",
                   "hold 0 cube(s)")
    assert (0, 3) not in g.legal_cells("Sandra", "Fixture: one energy")
    assert (0, 3) in g.legal_cells("Sandra", "Fixture: free")     # 0 energy: anywhere
    # at distance 2 the Main Reactor is in range
    assert g.is_legal({"player": "Sandra", **build("Fixture: one energy", (1, 1))})


def test_no_energy_not_enough_cubes_in_range():
    g = new_game()
    assert_illegal(g, {"player": "Sandra", **build("Fixture: three energy", (0, 1))}, "no-energy",
                   "needs 3 energy", "hold 2 cube(s)")
    assert g.legal_cells("Sandra", "Fixture: three energy") == []


def _reactor_far_away() -> Game:
    """Sandra: free (0,1), free (0,2), Power Reactor (0,3)."""
    g = new_game()
    everyone_else_discards(g, Sandra=build("Fixture: free", (0, 1)))
    everyone_else_discards(g, Sandra=build("Fixture: free", (0, 2)))
    everyone_else_discards(g, Sandra={"do": "reactor", "card": "Fixture: free", "at": [0, 3]})
    return g


def test_energy_from_reactor_out_of_range():
    g = _reactor_far_away()
    st = g.state.station("Sandra")
    assert st.cells[(0, 3)].cubes == 2
    e = assert_illegal(g, {"player": "Sandra", **build("Fixture: one energy", (0, -1),
                                                       energy_from=[[0, 3]])},
                       "energy-from", "[0, 3]", "not a reactor within distance 2")
    assert e.action["energy_from"] == [[0, 3]]
    # the same build paid from the Main Reactor is fine
    assert g.is_legal({"player": "Sandra", **build("Fixture: one energy", (0, -1),
                                                   energy_from=[[0, 0]])})


def test_energy_from_too_few_cubes_and_not_a_reactor():
    g = _reactor_far_away()
    assert_illegal(g, {"player": "Sandra", **build("Fixture: three energy", (1, 3),
                                                   energy_from=[[0, 3], [0, 3], [0, 3]])},
                   "energy-from", "has only 2 cube(s)")
    assert_illegal(g, {"player": "Sandra", **build("Fixture: one energy", (1, 1),
                                                   energy_from=[[0, 1]])},
                   "energy-from", "Fixture: free", "not a reactor")
    assert_illegal(g, {"player": "Sandra", **build("Fixture: one energy", (1, 1),
                                                   energy_from=[])},
                   "energy-from", "needs 1 energy")
    # empty the Main Reactor, then name it again
    everyone_else_discards(g, Sandra=build("Fixture: one energy", (1, 0), energy_from=[[0, 0]]))
    everyone_else_discards(g, Sandra=build("Fixture: one energy", (-1, 0), energy_from=[[0, 0]]))
    assert g.state.station("Sandra").cells[(0, 0)].cubes == 0
    assert_illegal(g, {"player": "Sandra", **build("Fixture: one energy", (0, -1),
                                                   energy_from=[[0, 0]])},
                   "energy-from", "has only 0 cube(s)")


def test_not_enough_credits():
    g = new_game()
    assert g.state.players["Sandra"].credits == 10
    assert_illegal(g, {"player": "Sandra", **build("Fixture: pricey", (0, 1))}, "credits",
                   "costs 11 credits", "Sandra has 10")
    assert g.legal_cells("Sandra", "Fixture: pricey") == []
    # a discard or a reactor is still possible (B: take another action)
    kinds = {a.kind for a in g.legal_actions("Sandra", "Fixture: pricey")}
    assert kinds == {"reactor", "discard"}


def test_max_exceeded():
    g = new_game()
    everyone_else_discards(g, Sandra=build("Fixture: max 1", (0, 1)))
    assert_illegal(g, {"player": "Sandra", **build("Fixture: max 1", (1, 0))}, "max", "MAX 1")
    assert g.legal_cells("Sandra", "Fixture: max 1") == []
    # the limit is per station
    assert g.is_legal({"player": "George", **build("Fixture: max 1", (1, 0))})


def test_max_unknown_is_asked_for_only_when_a_second_copy_is_built():
    g = new_game()
    # the first copy needs no MAX
    everyone_else_discards(g, Sandra=build("Fixture: max unknown", (0, 1)))
    e = assert_illegal(g, {"player": "Sandra", **build("Fixture: max unknown", (1, 0))},
                       "unknown-values", "max", error=UnknownCardValues)
    assert e.fields == ["max"] and e.card == "Fixture: max unknown"
    with pytest.raises(UnknownCardValues) as info:
        g.legal_cells("Sandra", "Fixture: max unknown")
    assert info.value.fields == ["max"]
    assert str(info.value).startswith("Sandra build 'Fixture: max unknown': ")
    # legal_actions still offers the other actions
    assert {a.kind for a in g.legal_actions("Sandra", "Fixture: max unknown")} == {"reactor",
                                                                                    "discard"}


def test_reactor_supply_empty():
    g = new_game(reactor_supply=1)
    g.push({"player": "Sandra", "do": "reactor", "card": "Fixture: free", "at": [0, 1]})
    assert g.state.reactor_supply == 0
    assert_illegal(g, {"player": "George", "do": "reactor", "card": "Fixture: free",
                       "at": [0, 1]}, "reactor-supply", "no Power Reactor cards are left")
    assert g.legal_cells("George", do="reactor") == []
    g0 = new_game(reactor_supply=0)
    assert_illegal(g0, {"player": "Sandra", "do": "reactor", "card": "Fixture: free",
                        "at": [1, 0]}, "reactor-supply")


def test_reactor_with_no_credits():
    g = new_game()
    everyone_else_discards(g, Sandra=build("Fixture: all credits", (0, 1)))
    assert g.state.players["Sandra"].credits == 0
    assert_illegal(g, {"player": "Sandra", "do": "reactor", "card": "Fixture: free",
                       "at": [1, 0]}, "reactor-credits", "Sandra has no credits")
    assert g.legal_cells("Sandra", do="reactor") == []
    # a 0-cost card can still be built
    assert g.is_legal({"player": "Sandra", **build("Fixture: free", (1, 0))})


def test_wrong_player_unknown_name():
    g = new_game()
    assert_illegal(g, {"player": "Thalia", **build("Fixture: free", (0, 1))}, "wrong-player",
                   "'Thalia' is not a player")
    assert_illegal(g, {"player": "sandra", **build("Fixture: free", (0, 1))}, "wrong-player")
    assert_illegal(g, {**build("Fixture: free", (0, 1))}, "wrong-player")


def test_wrong_player_acting_twice_in_a_turn():
    g = new_game(players=("Sandra", "George", "Thalia"))
    g.push({"player": "Sandra", **build("Fixture: free", (0, 1))})
    assert_illegal(g, {"player": "Sandra", **build("Fixture: free", (1, 0))}, "wrong-player",
                   "already acted in year 1, turn 1")
    assert_illegal(g, {"player": "Sandra", "do": "discard", "card": "Fixture: free"},
                   "wrong-player")
    assert g.legal_actions("Sandra", "Fixture: free") == []
    assert g.state.waiting == ["George", "Thalia"]


def test_wrong_year_or_turn():
    g = new_game()
    assert_illegal(g, {"player": "Sandra", "year": 1, "turn": 2, **build("Fixture: free", (0, 1))},
                   "wrong-turn", "it is year 1, turn 1, not year 1, turn 2")
    assert_illegal(g, {"player": "Sandra", "year": 2, "turn": 1, **build("Fixture: free", (0, 1))},
                   "wrong-turn")
    everyone_else_discards(g)
    # an action for the turn that is over
    assert_illegal(g, {"player": "Sandra", "year": 1, "turn": 1, **build("Fixture: free", (0, 1))},
                   "wrong-turn", "it is year 1, turn 2")


def test_action_after_the_game_ended():
    g = new_game()
    while not g.finished:
        everyone_else_discards(g)
    assert g.state.waiting == []
    assert len(g.actions) == 2 * 4 * 6
    assert_illegal(g, {"player": "Sandra", **build("Fixture: free", (0, 1))}, "game-over",
                   "ended after year 4")
    assert_illegal(g, {"player": "George", "do": "discard", "card": "Fixture: free"}, "game-over")
    assert g.legal_actions("Sandra", "Fixture: free") == []
    assert g.legal_cells("Sandra", "Fixture: free") == []


def test_unknown_card_with_a_suggestion():
    g = new_game()
    e = assert_illegal(g, {"player": "Sandra", **build("Holographic Display Are", (0, 1))},
                       "unknown-card", "did you mean Holographic Display Area?", "Sandra")
    assert e.rule == "unknown-card"
    assert_illegal(g, {"player": "Sandra", "do": "discard", "card": "Fixture: fre"},
                   "unknown-card", "did you mean Fixture: free")
    e = assert_illegal(g, {"player": "Sandra", **build("Zzzzzz qqq", (0, 1))}, "unknown-card")
    assert "did you mean" not in str(e)
    # a race is in the catalogue but is not a location card
    assert_illegal(g, {"player": "Sandra", **build("Humareen", (0, 1))}, "unknown-card")


def test_real_card_with_unknown_printed_values():
    g = new_game()
    e = assert_illegal(g, {"player": "Sandra", **build("Garden", (0, 1))}, "unknown-values",
                       "enter cost, energy, vp, abilities", error=UnknownCardValues)
    assert e.card == "Garden"
    assert e.fields == ["cost", "energy", "vp", "abilities"]
    with pytest.raises(UnknownCardValues):
        g.legal_cells("Sandra", "Garden")
    # discarding it or using it for a reactor needs none of its numbers
    assert g.is_legal({"player": "Sandra", "do": "discard", "card": "Garden"})
    assert g.is_legal({"player": "Sandra", "do": "reactor", "card": "Garden", "at": [0, 1]})


def test_known_ability_but_unknown_cost():
    """School of Alien Cultures: the ability is known (B FAQ), the cost is not."""
    g = new_game(players=("Sandra", "George", "Thalia"))
    e = assert_illegal(g, {"player": "Sandra", **build("School of Alien Cultures", (0, 1),
                                                       choices={"George": "pay",
                                                                "Thalia": "lose"})},
                       "unknown-values", error=UnknownCardValues)
    assert "abilities" not in e.fields and "cost" in e.fields


@pytest.mark.parametrize("choices", [
    None,
    {},
    {"George": "pay"},                                          # Thalia missing
    {"George": "pay", "Thalia": "maybe"},                       # not pay/lose
    {"George": "pay", "Thalia": "lose", "Sandra": "pay"},        # the builder does not choose
    {"George": "pay", "Thalia": "lose", "Zed": "lose"},
    ["pay", "lose"],
])
def test_school_without_valid_choices(choices):
    g = new_game(players=("Sandra", "George", "Thalia"))
    action = {"player": "Sandra", **build("Fixture: school", (0, 1))}
    if choices is not None:
        action["choices"] = choices
    assert_illegal(g, action, "choice", "George, Thalia", "'pay' (1 credit)", "'lose' (2 VP)")
    action["choices"] = {"George": "pay", "Thalia": "lose"}
    assert g.is_legal(action)


def test_limited_space_bounds():
    g = new_game(limited_space=[0, 0, -1, 1])       # one row, three columns
    st = g.state.station("Sandra")
    assert st.frontier() == [(0, -1), (0, 1)]
    assert_illegal(g, {"player": "Sandra", **build("Fixture: free", (1, 0))}, "limited-space",
                   "outside the agreed area [0, 0, -1, 1]")
    assert_illegal(g, {"player": "Sandra", "do": "reactor", "card": "Fixture: free",
                       "at": [-1, 0]}, "limited-space")
    assert (1, 0) not in g.legal_cells("Sandra", "Fixture: free")
    assert g.legal_cells("Sandra", do="reactor") == [(0, -1), (0, 1)]
    everyone_else_discards(g, Sandra=build("Fixture: free", (0, 1)))
    assert_illegal(g, {"player": "Sandra", **build("Fixture: free", (0, 2))}, "limited-space")
    assert st is not g.state.station("Sandra")
    assert g.state.station("Sandra").frontier() == [(0, -1)]


def test_station_frontier_excludes_spaceship_cells():
    st = Station()
    assert (0, 1) in st.frontier()
    st.blocked.add((0, 1))
    assert (0, 1) not in st.frontier()
    assert set(st.frontier()) == {(-1, 0), (1, 0), (0, -1)}
    # copies keep the hook; building there clears it (the engine refuses first)
    assert (0, 1) in st.copy().blocked


def test_spaceship_blocked_cell_refused():
    """No record field places spaceships yet; the hook is Station.blocked."""
    g = new_game()
    g.state.station("Sandra").blocked.add((0, 1))
    assert_illegal(g, {"player": "Sandra", **build("Fixture: free", (0, 1))}, "spaceship")
    assert_illegal(g, {"player": "Sandra", "do": "reactor", "card": "Fixture: free",
                       "at": [0, 1]}, "spaceship")
    assert (0, 1) not in g.legal_cells("Sandra", "Fixture: free")
    assert (0, 1) not in g.legal_cells("Sandra", do="reactor")
    assert g.is_legal({"player": "George", **build("Fixture: free", (0, 1))})


@pytest.mark.parametrize("action,part", [
    ({"player": "Sandra", "do": "fly", "card": "Fixture: free"}, "'do' must be one of"),
    ({"player": "Sandra", "do": "build", "card": "Fixture: free", "at": "0,1"}, "[row, col]"),
    ({"player": "Sandra", "do": "build", "card": "Fixture: free", "at": [0, 1, 2]}, "[row, col]"),
    ({"player": "Sandra", "do": "build", "card": "Fixture: free"}, "[row, col]"),
    ({"player": "Sandra", "do": "build", "card": "", "at": [0, 1]}, "name the card"),
    ({"player": "Sandra", "do": "build", "card": "Fixture: one energy", "at": [0, 1],
      "energy_from": "main"}, "energy_from must be a list"),
])
def test_malformed_actions(action, part):
    g = new_game()
    before, record = snapshot(g), g.to_record()
    with pytest.raises(IllegalAction) as info:
        g.push(action)
    assert info.value.rule == "malformed" and part in str(info.value)
    assert snapshot(g) == before and g.to_record() == record


def test_non_dict_action_refused():
    g = new_game()
    with pytest.raises(IllegalAction) as info:
        g.push(["build"])
    assert info.value.rule == "malformed"


def test_a_refused_action_is_never_stored_and_the_game_goes_on():
    g = new_game()
    for bad in ({"player": "Sandra", **build("Fixture: pricey", (0, 1))},
                {"player": "Sandra", **build("Fixture: free", (5, 5))},
                {"player": "Sandra", **build("Garden", (0, 1))}):
        with pytest.raises(IllegalAction):
            g.push(bad)
    assert g.actions == []
    g.push({"player": "Sandra", **build("Fixture: free", (0, 1))})
    assert len(g.actions) == 1
    rebuilt = Game.from_record(g.to_record())
    assert snapshot(rebuilt) == snapshot(g)


# ---------------------------------------------------------------------------
# VP never goes below 0 (B FAQ)
# ---------------------------------------------------------------------------
def test_school_loss_at_zero_vp_stays_zero_and_the_ledger_says_so():
    g = new_game()
    g.push({"player": "Sandra", **build("Fixture: all credits", (0, 1))})      # 0 VP printed
    g.push({"player": "George", **build("Fixture: school", (0, 1), choices={"Sandra": "lose"})})
    sandra = g.state.players["Sandra"]
    assert sandra.vp == 0
    lines = [l for l in sandra.ledger if l.source == "Fixture: school"]
    assert len(lines) == 1, sandra.ledger
    assert lines[0].vp == 0 and lines[0].category == "interaction"
    assert "VP never goes below 0" in lines[0].rule and "chose to lose VP" in lines[0].rule
    assert sum(l.vp for l in sandra.ledger) == sandra.vp


def test_school_partial_loss_is_capped_at_the_vp_held():
    g = new_game()
    g.push({"player": "Sandra", **build("Fixture: free", (0, 1))})      # 1 VP
    g.push({"player": "George", **build("Fixture: school", (0, 1), choices={"Sandra": "lose"})})
    sandra = g.state.players["Sandra"]
    assert sandra.vp == 0 and sandra.credits == 10
    line = [l for l in sandra.ledger if l.source == "Fixture: school"][0]
    assert line.vp == -1 and "only 1 could be lost" in line.rule
    assert sum(l.vp for l in sandra.ledger) == 0


def test_choosing_pay_with_no_credits_loses_vp_instead():
    g = new_game()
    # Sandra spends every credit; George's school asks her to pay 1
    everyone_else_discards(g, Sandra=build("Fixture: all credits", (0, 1)))
    everyone_else_discards(g, Sandra=build("Fixture: free", (1, 0)))
    everyone_else_discards(g, Sandra=build("Fixture: free", (-1, 0)))
    everyone_else_discards(g, Sandra=build("Fixture: free", (0, -1)))
    sandra = g.state.players["Sandra"]
    assert (sandra.vp, sandra.credits) == (3, 0)       # Sandra discarded nothing
    everyone_else_discards(g, Sandra=build("Fixture: free", (1, 1)),
                           George=build("Fixture: school", (0, 1), choices={"Sandra": "pay"}))
    sandra = g.state.players["Sandra"]
    assert sandra.credits == 0 and sandra.vp == 2      # 3 + 1 (free card) - 2
    line = [l for l in sandra.ledger if l.source == "Fixture: school"][0]
    assert line.vp == -2 and "could not pay" in line.rule
    # and with 0 VP as well: nothing to lose, the ledger still explains it
    g2 = new_game()
    g2.push({"player": "Sandra", **build("Fixture: all credits", (0, 1))})
    g2.push({"player": "George", **build("Fixture: school", (0, 1), choices={"Sandra": "pay"})})
    s2 = g2.state.players["Sandra"]
    assert (s2.vp, s2.credits) == (0, 0)
    line = [l for l in s2.ledger if l.source == "Fixture: school"][0]
    assert line.vp == 0 and "could not pay" in line.rule and "never goes below 0" in line.rule


def test_choosing_pay_with_credits_pays():
    g = new_game()
    g.push({"player": "Sandra", **build("Fixture: free", (0, 1))})
    g.push({"player": "George", **build("Fixture: school", (0, 1), choices={"Sandra": "pay"})})
    sandra = g.state.players["Sandra"]
    assert (sandra.vp, sandra.credits) == (1, 9)
    assert [l.source for l in sandra.ledger] == ["Fixture: free"]


# ---------------------------------------------------------------------------
# Simultaneous effects: VP, then credits, then a random order stored in the record
# ---------------------------------------------------------------------------
def _two_schools(game: Game, order=None) -> dict:
    game.push({"player": "Sandra", **build("Fixture: school", (0, 1), choices={"George": "pay"})})
    last = {"player": "George", **build("Fixture: school", (0, 1), choices={"Sandra": "lose"})}
    if order is not None:
        last["resolve_order"] = order
    return game.push(last)


def test_tied_simultaneous_effects_store_their_order():
    g = Game({"players": ["Sandra", "George"], "seed": 7}, cards=fixture_cards())
    norm = _two_schools(g)
    assert sorted(norm["resolve_order"]) == ["George", "Sandra"]
    rec = g.to_record()
    assert rec["actions"][-1]["resolve_order"] == norm["resolve_order"]
    # replays deterministically, twice
    a, b = Game.from_record(rec), Game.from_record(copy.deepcopy(rec))
    assert snapshot(a) == snapshot(b) == snapshot(g)
    # the record without the stored order cannot be replayed
    del rec["actions"][-1]["resolve_order"]
    with pytest.raises(IllegalAction) as info:
        Game.from_record(rec)
    assert info.value.rule == "resolve-order" and info.value.index == 1
    assert "resolve_order" in str(info.value)


@pytest.mark.parametrize("order", [["Sandra", "George"], ["George", "Sandra"]])
def test_a_given_resolve_order_is_kept(order):
    g = new_game()
    norm = _two_schools(g, order)
    assert norm["resolve_order"] == order
    replay = Game.from_record(g.to_record())
    assert snapshot(replay) == snapshot(g)
    assert Game.from_record(g.to_record()).actions[-1]["resolve_order"] == order


@pytest.mark.parametrize("order", [["Sandra"], ["Sandra", "George", "Sandra"], "Sandra",
                                   ["Sandra", "Thalia"]])
def test_a_bad_resolve_order_is_refused(order):
    g = new_game()
    g.push({"player": "Sandra", **build("Fixture: school", (0, 1), choices={"George": "pay"})})
    assert_illegal(g, {"player": "George", **build("Fixture: school", (0, 1),
                                                   choices={"Sandra": "lose"}),
                       "resolve_order": order}, "resolve-order")


def test_untied_effects_resolve_by_vp_and_store_no_order():
    g = new_game()
    everyone_else_discards(g, Sandra=build("Fixture: free", (0, 1)))
    g.push({"player": "Sandra", **build("Fixture: school", (1, 0), choices={"George": "lose"})})
    # Sandra 2 VP, George 0 VP: no tie, Sandra's effect first; a given order is dropped
    norm = g.push({"player": "George", **build("Fixture: school", (0, 1),
                                               choices={"Sandra": "lose"}),
                   "resolve_order": ["George", "Sandra"]})
    assert "resolve_order" not in norm
    lines = sorted((l for ps in g.state.players.values() for l in ps.ledger
                    if l.category == "interaction"), key=lambda l: l.player)
    # George (1 VP after his printed VP) lost 1, Sandra (2 VP) lost 2
    assert [(l.player, l.vp) for l in lines] == [("George", -1), ("Sandra", -2)]
    assert snapshot(Game.from_record(g.to_record())) == snapshot(g)


def test_a_single_owner_needs_no_order():
    g = new_game()
    g.push({"player": "Sandra", **build("Fixture: school", (0, 1), choices={"George": "pay"})})
    norm = g.push({"player": "George", "do": "discard", "card": "Fixture: free"})
    assert "resolve_order" not in norm
    assert g.state.players["George"].credits == 12


# ---------------------------------------------------------------------------
# Types unknown: only demanded when an ability counts types
# ---------------------------------------------------------------------------
UNTYPED = [
    dict(name="Fixture: untyped", types=None, cost=0, energy=0, vp=1, max="none", abilities=[]),
    dict(name="Fixture: counts military", types=["military"], cost=0, energy=0, vp=1,
         max="none", abilities=[dict(when="immediate", per="adjacent_location",
                                     types=["military"], vp=1)]),
    dict(name="Fixture: counts all", types=["military"], cost=0, energy=0, vp=1,
         max="none", abilities=[dict(when="immediate", per="adjacent_location", vp=1)]),
    dict(name="Fixture: watcher", types=["military"], cost=0, energy=0, vp=0, max="none",
         abilities=[dict(when="immediate", per="other_station_location", types=["military"],
                         vp=1)]),
]


def test_unknown_types_are_asked_for_only_when_counted():
    g = Game({"players": ["Sandra", "George"]}, cards=fixture_cards() + UNTYPED)
    # building a card whose types are unknown is fine, and so is counting it untyped
    g.push({"player": "Sandra", **build("Fixture: untyped", (0, 1))})
    g.push({"player": "George", **build("Fixture: untyped", (0, 1))})
    assert g.is_legal({"player": "Sandra", **build("Fixture: counts all", (0, 2))})
    e = assert_illegal(g, {"player": "Sandra", **build("Fixture: counts military", (0, 2))},
                       "unknown-values", "'Fixture: untyped'", "enter types",
                       error=UnknownCardValues)
    assert e.card == "Fixture: untyped" and e.fields == ["types"]
    assert str(e).startswith("Sandra build 'Fixture: counts military' at [0, 2]: ")


def test_unknown_types_needed_when_effects_resolve_name_the_action_that_ends_the_turn():
    g = Game({"players": ["Sandra", "George"]}, cards=fixture_cards() + UNTYPED)
    g.push({"player": "Sandra", **build("Fixture: untyped", (0, 1))})
    g.push({"player": "George", **build("Fixture: untyped", (0, 1))})
    # Sandra's watcher counts George's military locations after everyone acted
    g.push({"player": "Sandra", **build("Fixture: watcher", (0, 2))})
    e = assert_illegal(g, {"player": "George", "do": "discard", "card": "Fixture: free"},
                       "unknown-values", "'Fixture: untyped'", "'Fixture: watcher' counts",
                       error=UnknownCardValues)
    assert str(e).startswith("George discard 'Fixture: free': ")
    assert g.state.acted == ["Sandra"]


@pytest.mark.parametrize("action,rule", [
    ({"player": ["Sandra"], "do": "discard", "card": "Fixture: free"}, "wrong-player"),
    ({"player": {"name": "Sandra"}, "do": "discard", "card": "Fixture: free"}, "wrong-player"),
    ({"player": "Sandra", "do": ["build"], "card": "Fixture: free", "at": [0, 1]}, "malformed"),
    ({"player": "Sandra", "do": "discard", "card": ["Fixture: free"]}, "malformed"),
    ({"player": "Sandra", "do": "discard", "card": "Fixture: free", "year": [1]}, "wrong-turn"),
])
def test_wrongly_typed_fields_are_refused_not_crashed(action, rule):
    """A hand-edited record must give an IllegalAction (exit 2), never a TypeError."""
    g = new_game()
    before, record = snapshot(g), g.to_record()
    with pytest.raises(IllegalAction) as info:
        g.push(action)
    assert info.value.rule == rule and f"[rule: {rule}]" in str(info.value)
    assert snapshot(g) == before and g.to_record() == record


@pytest.mark.parametrize("order", [[1, "Sandra"], [["Sandra"], "George"], [None, None]])
def test_wrongly_typed_resolve_order_is_refused_not_crashed(order):
    g = new_game()
    g.push({"player": "Sandra", **build("Fixture: school", (0, 1), choices={"George": "pay"})})
    assert_illegal(g, {"player": "George", **build("Fixture: school", (0, 1),
                                                   choices={"Sandra": "lose"}),
                       "resolve_order": order}, "resolve-order")
