"""Undo and replay: pop() restores the exact previous state (across turn and year
boundaries), and Game.define() corrects a card by replaying the whole game, or
changes nothing when the correction would make an earlier action illegal.

Only FIXTURE cards carry numbers here.
"""
from __future__ import annotations

import copy
import dataclasses

import pytest

from companion import Card, Game, IllegalAction

FIXTURES = [
    dict(name="Fixture: free", types=["military"], cost=0, energy=0, vp=1, max="none",
         abilities=[]),
    dict(name="Fixture: one energy", types=["recreational"], cost=1, energy=1, vp=2, max="none",
         abilities=[dict(when="immediate", per="adjacent_location", vp=1)]),
    dict(name="Fixture: to correct", types=["business"], cost=2, energy=0, vp=1, max="none",
         abilities=[]),
    dict(name="Fixture: unknown values", types=["business"], cost=None, energy=None, vp=None,
         max=None, abilities=None),
]


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


def new_game(players=("Sandra", "George")) -> Game:
    return Game({"players": list(players)}, cards=copy.deepcopy(FIXTURES))


def snapshot(game: Game) -> dict:
    st = game.state
    return {
        "year": st.year, "turn": st.turn, "acted": list(st.acted), "finished": st.finished,
        "reactor_supply": st.reactor_supply, "index": st.index, "discards": list(st.discards),
        "actions": copy.deepcopy(game.actions),
        "players": {
            n: {"vp": ps.vp, "credits": ps.credits, "ledger": list(ps.ledger),
                "cells": {c: (p.kind, p.card, p.types, p.cubes)
                          for c, p in sorted(ps.station.cells.items())},
                "edges": sorted(tuple(sorted(e)) for e in ps.station.graph.edges),
                "last": copy.deepcopy(ps.last)}
            for n, ps in st.players.items()},
    }


def discard(p):
    return {"player": p, "do": "discard", "card": "Fixture: free"}


def push_and_pop_is_identity(game: Game, action: dict) -> dict:
    before, record = snapshot(game), game.to_record()
    norm = game.push(action)
    assert snapshot(game) != before
    back = game.pop()
    assert back == norm
    assert snapshot(game) == before
    assert game.to_record() == record
    return norm


def test_pop_on_an_empty_game_raises():
    g = new_game()
    with pytest.raises(IllegalAction) as info:
        g.pop()
    assert "no action to undo" in str(info.value)
    assert g.actions == [] and g.state.index == 0


def test_pop_within_a_turn():
    g = new_game()
    push_and_pop_is_identity(g, {"player": "Sandra", "do": "build", "card": "Fixture: one energy",
                                 "at": [0, 1]})
    push_and_pop_is_identity(g, {"player": "Sandra", "do": "reactor", "card": "Fixture: free",
                                 "at": [1, 0]})
    push_and_pop_is_identity(g, discard("Sandra"))


def test_pop_across_a_turn_boundary():
    g = new_game()
    g.push({"player": "Sandra", "do": "build", "card": "Fixture: one energy", "at": [0, 1]})
    before = snapshot(g)
    assert (g.state.year, g.state.turn, g.state.acted) == (1, 1, ["Sandra"])
    g.push({"player": "George", "do": "reactor", "card": "Fixture: free", "at": [0, 1]})
    assert (g.state.year, g.state.turn, g.state.acted) == (1, 2, [])
    g.pop()
    assert snapshot(g) == before
    assert g.state.waiting == ["George"]


def test_pop_across_a_year_boundary_takes_back_the_ten_credits():
    g = new_game()
    for _ in range(5):
        g.push(discard("Sandra"))
        g.push(discard("George"))
    g.push(discard("Sandra"))
    before = snapshot(g)
    credits = {p: ps.credits for p, ps in g.state.players.items()}
    assert credits == {"Sandra": 28, "George": 25}
    assert (g.state.year, g.state.turn) == (1, 6)
    g.push({"player": "George", "do": "build", "card": "Fixture: to correct", "at": [0, 1]})
    assert (g.state.year, g.state.turn) == (2, 1)
    assert g.state.players["Sandra"].credits == 38               # +10 at the year's start
    assert g.state.players["George"].credits == 25 - 2 + 10
    assert g.state.passing == "counter-clockwise"
    g.pop()
    assert snapshot(g) == before
    assert (g.state.year, g.state.turn) == (1, 6)
    assert {p: ps.credits for p, ps in g.state.players.items()} == credits


def test_pop_after_the_game_ended_reopens_it():
    g = new_game()
    while not g.finished:
        for p in g.state.waiting:
            g.push(discard(p))
    finished = snapshot(g)
    last = g.pop()
    assert not g.finished and g.state.waiting == [last["player"]]
    assert (g.state.year, g.state.turn) == (4, 6)
    g.push(last)
    assert snapshot(g) == finished


def test_pop_then_push_every_action_of_a_game():
    g = new_game(("Sandra", "George", "Thalia"))
    script = [
        {"player": "Sandra", "do": "build", "card": "Fixture: one energy", "at": [0, 1]},
        {"player": "Thalia", "do": "reactor", "card": "Fixture: free", "at": [-1, 0]},
        {"player": "George", "do": "build", "card": "Fixture: free", "at": [1, 0]},
        {"player": "George", "do": "build", "card": "Fixture: one energy", "at": [1, 1]},
        {"player": "Sandra", "do": "build", "card": "Fixture: one energy", "at": [1, 1]},
        discard("Thalia"),
    ]
    for a in script:
        norm = g.push(a)
        after = snapshot(g)
        assert g.pop() == norm
        g.push(norm)
        assert snapshot(g) == after
    # popping everything gives the initial state back
    while g.actions:
        g.pop()
    assert snapshot(g) == snapshot(new_game(("Sandra", "George", "Thalia")))


def test_the_state_is_the_replay_of_the_record():
    g = new_game()
    g.push({"player": "Sandra", "do": "build", "card": "Fixture: one energy", "at": [0, 1]})
    g.push({"player": "George", "do": "build", "card": "Fixture: to correct", "at": [0, -1]})
    g.push({"player": "George", "do": "build", "card": "Fixture: one energy", "at": [0, 1]})
    g.push({"player": "Sandra", "do": "build", "card": "Fixture: one energy", "at": [1, 1]})
    replay = Game.from_record(g.to_record())
    assert snapshot(replay) == snapshot(g)
    assert g.replayed() is not g.state
    # replayed(upto) is the state after that many actions
    early = g.replayed(2)
    assert (early.turn, early.index) == (2, 2)
    assert early.players["Sandra"].vp == 3       # 2 printed + 1 adjacent (Main Reactor)


# ---------------------------------------------------------------------------
# Game.define(): correct a card and replay
# ---------------------------------------------------------------------------
def _card(**changes) -> Card:
    base = Card(name="Fixture: to correct", types=("business",), cost=2, energy=0, vp=1,
                max="none", abilities=())
    return dataclasses.replace(base, **changes)


def _game_with_corrected_card() -> Game:
    g = new_game()
    g.push({"player": "Sandra", "do": "build", "card": "Fixture: to correct", "at": [0, 1]})
    g.push(discard("George"))
    g.push({"player": "Sandra", "do": "build", "card": "Fixture: free", "at": [1, 0]})
    g.push(discard("George"))
    return g


def test_define_replays_with_the_corrected_values():
    g = _game_with_corrected_card()
    assert g.state.players["Sandra"].vp == 2 and g.state.players["Sandra"].credits == 8
    g.define(_card(vp=4, cost=3))
    sandra = g.state.players["Sandra"]
    assert sandra.vp == 5 and sandra.credits == 7
    assert [l.vp for l in sandra.ledger if l.source == "Fixture: to correct"] == [4]
    # the record carries the correction, so it replays the same elsewhere
    rec = g.to_record()
    defined = [c for c in rec["cards"] if c["name"] == "Fixture: to correct"][0]
    assert (defined["vp"], defined["cost"]) == (4, 3)
    assert snapshot(Game.from_record(rec)) == snapshot(g)


def test_define_that_makes_an_earlier_action_illegal_changes_nothing():
    g = _game_with_corrected_card()
    before, record = snapshot(g), g.to_record()
    with pytest.raises(IllegalAction) as info:
        g.define(_card(cost=11))
    e = info.value
    assert e.rule == "credits" and e.index == 0
    assert "Fixture: to correct" in str(e) and "[0, 1]" in str(e)
    assert snapshot(g) == before and g.to_record() == record
    assert g.card("Fixture: to correct").cost == 2
    g.push({"player": "Sandra", "do": "build", "card": "Fixture: to correct", "at": [1, 1]})
    before, record = snapshot(g), g.to_record()
    # energy the station could not have paid
    with pytest.raises(IllegalAction) as info:
        g.define(_card(energy=3))
    assert info.value.rule == "energy-from" and info.value.index == 0    # stored: 0 cubes paid
    assert "needs 3 energy" in str(info.value)
    assert snapshot(g) == before and g.to_record() == record


def test_a_max_correction_is_kept_and_reported_by_the_round_end_check():
    """B 5: a station that breaks a rule (two copies of a MAX 1 card, here after
    the players corrected the card's MAX) loses locations until it is valid."""
    from companion.ats.game import round_end_report
    g = _game_with_corrected_card()
    g.push({"player": "Sandra", "do": "build", "card": "Fixture: to correct", "at": [1, 1]})
    assert round_end_report(g) == []
    vp_before = g.state.players["Sandra"].vp
    g.define(_card(max=1))                    # accepted: the record stays as played
    report = round_end_report(g)
    assert [(r["player"], r["rule"]) for r in report] == [("Sandra", "max")]
    assert sorted(report[0]["cells"]) == [[0, 1], [1, 1]]
    # a third copy cannot be entered now
    g.push(discard("George"))
    with pytest.raises(IllegalAction) as info:
        g.check({"player": "Sandra", "do": "build", "card": "Fixture: to correct", "at": [0, -1]})
    assert info.value.rule == "max"
    # B 5: "Before beginning the next round": not in the middle of a year (issue 11)
    with pytest.raises(IllegalAction) as info:
        g.push({"do": "remove", "player": "Sandra", "at": [1, 1]})
    assert info.value.rule == "round-end" and "Before beginning the next round" in str(info.value)
    while g.state.year == 1:
        for p in g.state.waiting:
            g.push(discard(p))
    # the next year's first action waits for the fix
    with pytest.raises(IllegalAction) as info:
        g.push(discard("George"))
    assert info.value.rule == "round-end" and "MAX 1" in str(info.value)
    vp_before = g.state.players["Sandra"].vp
    # removing a location that breaks nothing is refused
    with pytest.raises(IllegalAction) as info:
        g.push({"do": "remove", "player": "Sandra", "at": [0, 0]})
    assert info.value.rule == "round-end"
    gained = sum(l.vp for l in g.state.players["Sandra"].ledger if l.cell == (1, 1))
    g.push({"do": "remove", "player": "Sandra", "at": [1, 1]})
    assert round_end_report(g) == []
    assert (1, 1) not in g.state.station("Sandra").cells
    assert g.state.players["Sandra"].vp == vp_before - gained
    # the removal is part of the record and replays
    assert snapshot(Game.from_record(g.to_record())) == snapshot(g)


def test_define_fills_in_unknown_values_so_the_card_can_be_built():
    g = new_game()
    action = {"player": "Sandra", "do": "build", "card": "Fixture: unknown values", "at": [0, 1]}
    with pytest.raises(IllegalAction) as info:
        g.push(action)
    assert info.value.rule == "unknown-values"
    g.define(Card(name="Fixture: unknown values", types=("business",), cost=1, energy=1, vp=2,
                  max=None, abilities=()))
    norm = g.push(action)
    assert norm["energy_from"] == [[0, 0]]
    assert g.state.players["Sandra"].vp == 2
    # MAX is still unknown: asked for when a second copy is built
    g.push(discard("George"))
    with pytest.raises(IllegalAction) as info:
        g.push({**action, "at": [1, 0]})
    assert info.value.rule == "unknown-values" and info.value.fields == ["max"]


def test_define_does_not_touch_the_user_catalogue(tmp_path):
    from companion.core.paths import user_catalogue_path
    g = _game_with_corrected_card()
    g.define(_card(vp=4))
    assert not user_catalogue_path().exists()


def test_the_stored_record_does_not_alias_the_callers_dicts():
    g = Game({"players": ["Sandra", "George"]}, cards=copy.deepcopy(FIXTURES) + [
        dict(name="Fixture: school", types=["diplomatic"], cost=2, energy=1, vp=1, max="none",
             abilities=[dict(when="immediate", choice="pay_or_lose", pay=1, lose=2)])])
    action = {"player": "Sandra", "do": "build", "card": "Fixture: school", "at": [0, 1],
              "choices": {"George": "pay"}}
    norm = g.push(action)
    record = g.to_record()
    action["choices"]["George"] = "lose"
    action["at"][1] = 5
    norm["at"][0] = 7
    norm["energy_from"].clear()
    assert g.to_record() == record
    # a game read from a record does not share it either
    rec = g.to_record()
    h = Game.from_record(rec)
    rec["actions"][0]["at"][1] = 9
    assert h.to_record() == record
    h.push(discard("George"))
    assert snapshot(Game.from_record(h.to_record())) == snapshot(h)
