"""Property tests: random LEGAL games (2-6 players, standard and aggressive, some
with a small reactor supply or Limited Space) played with FIXTURE cards only, by
choosing at random among ``game.legal_entries(player, card)``.

After every action (complete games: at regular checkpoints and at the end, to
keep the run short) these must hold:

* credits >= 0 and VP >= 0 for everyone; the VP equals the sum of the ledger;
* every reactor holds 0, 1 or 2 cubes; the station graph is connected;
* the reactor supply went down by exactly the Power Reactors built;
* the replay of the record (``Game.from_record(game.to_record())``) equals the
  incremental state (VP, credits, cells, cubes, year, turn, ...);
* a JSON round-trip of the record scores identically;
* ``pop()`` then ``push(the same action)`` is the identity;
* ``legal_cells`` agrees with ``is_legal`` on every cell around the station.

A last property edits one value anywhere in a valid record (replace, delete or
add): replaying and scoring it works or raises a CompanionError, never a crash.

Hypothesis runs derandomized with no example database, so CI is deterministic.
"""
from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion import Catalogue, Game, IllegalAction
from companion.ats.station import neighbours


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "companion-home"))


def _school_ability() -> list[dict]:
    # the real School of Alien Cultures ability (its cost is unknown: the fixture
    # card carries made-up numbers, clearly named)
    return [dict(a) for a in Catalogue.shipped().get("School of Alien Cultures").abilities]


def _card(name, types, cost, energy, vp, abilities=(), max="none"):
    return {"name": name, "types": list(types), "cost": cost, "energy": energy, "vp": vp,
            "max": max, "abilities": [dict(a) for a in abilities]}


FIXTURES = [
    _card("Fixture: cheap", ["military"], 0, 0, 1),
    _card("Fixture: hungry", ["business"], 3, 2, 4),
    _card("Fixture: max 1", ["administrative"], 1, 1, 2, max=1,
          abilities=[{"when": "end", "per": "station_location", "vp": 1, "cap": 8}]),
    _card("Fixture: end +4", ["diplomatic"], 2, 0, 0, max=2,
          abilities=[{"when": "end", "flat": 4}]),
    _card("Fixture: per adjacent", ["recreational", "business"], 2, 1, 1,
          abilities=[{"when": "immediate", "per": "adjacent_location", "vp": 1}]),
    _card("Fixture: per cube cap 2", ["military"], 2, 1, 1,
          abilities=[{"when": "immediate", "per": "energy_cube", "vp": 1, "cap": 2}]),
    _card("Fixture: school", ["diplomatic"], 2, 1, 1, abilities=_school_ability()),
    _card("Fixture: watcher", ["military"], 1, 0, 0,
          abilities=[{"when": "immediate", "per": "other_station_location",
                      "types": ["military"], "vp": 1, "cap": 3}]),
    _card("Fixture: splurge", ["business"], 10, 0, 2),
    _card("Fixture: far end", ["administrative"], 1, 1, 0,
          abilities=[{"when": "end", "per": "empty_reactor", "vp": 1},
                     {"when": "end", "flat": 2, "if": {"farthest_from_main_reactor": True}}]),
    _card("Fixture: years", ["recreational"], 1, 0, 0,
          abilities=[{"when": "immediate", "per": "remaining_year", "vp": 1}]),
    _card("Fixture: near military", ["military", "diplomatic"], 2, 1, 1,
          abilities=[{"when": "end", "per": "location_within", "distance": 2,
                      "types": ["military"], "vp": 1}]),
    _card("Fixture: variety", ["business"], 2, 0, 0,
          abilities=[{"when": "end", "per": "distinct_type", "table": {1: 1, 3: 4, 5: 9}}]),
    _card("Fixture: more", ["business", "military"], 1, 0, 0,
          abilities=[{"when": "end", "flat": 3, "if": {"more": ["business"],
                                                        "than": ["military"]}},
                     {"when": "immediate", "flat": 1, "if": {"adjacent_to": ["military"]}}]),
]
NAMES = [c["name"] for c in FIXTURES]
CHOICE_CARDS = {c["name"] for c in FIXTURES if any("choice" in a for a in c["abilities"])}
PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]

PROFILE = dict(deadline=None, derandomize=True, database=None, print_blob=True,
               suppress_health_check=[h for h in (getattr(HealthCheck, "too_slow", None),
                                                  getattr(HealthCheck, "data_too_large", None))
                                      if h is not None])


# ---------------------------------------------------------------------------
# Views and invariants
# ---------------------------------------------------------------------------
def view(game: Game) -> dict:
    s = game.state
    return {
        "year": s.year, "turn": s.turn, "acted": list(s.acted), "finished": s.finished,
        "reactor_supply": s.reactor_supply, "index": s.index, "discards": list(s.discards),
        "players": {
            n: {"vp": ps.vp, "credits": ps.credits, "ledger": list(ps.ledger),
                "cells": {c: (p.kind, p.card, p.types, p.cubes)
                          for c, p in sorted(ps.station.cells.items())},
                "cubes": ps.station.cubes()}
            for n, ps in s.players.items()},
    }


def cheap_invariants(game: Game, supply0: int) -> None:
    s = game.state
    built_reactors = 0
    for name, ps in s.players.items():
        assert ps.credits >= 0, (name, ps.credits)
        assert ps.vp >= 0, (name, ps.vp)
        assert ps.vp == sum(l.vp for l in ps.ledger), name
        st_ = ps.station
        assert st_.is_connected()
        assert set(st_.graph.nodes) == set(st_.cells)
        for cell, p in st_.cells.items():
            if p.is_reactor:
                assert 0 <= p.cubes <= 2, (name, cell, p)
            else:
                assert p.cubes == 0
        built_reactors += sum(1 for p in st_.cells.values() if p.kind == "reactor")
        if st_.bounds is not None:
            assert all(st_.in_bounds(c) for c in st_.cells)
    assert s.reactor_supply == supply0 - built_reactors >= 0
    assert 1 <= s.year <= 4 and 1 <= s.turn <= s.setup.turns_in_year(s.year)
    assert set(s.acted) <= set(s.players) and len(set(s.acted)) == len(s.acted)
    assert s.index == len(game.actions)


def score_view(game: Game):
    sc = game.score()
    return sc.to_json(), sc.lines.to_dict("records")


def expensive_invariants(game: Game) -> None:
    here = view(game)
    record = game.to_record()
    # the replay of the record is the incremental state
    replay = Game.from_record(copy.deepcopy(record))
    assert view(replay) == here
    assert replay.to_record() == record
    # a JSON round trip scores identically
    text = json.dumps(record)
    again = Game.from_record(json.loads(text))
    assert view(again) == here
    assert score_view(again) == score_view(game)
    # pop() then push(the same action) is the identity
    if game.actions:
        last = game.pop()
        assert game.state.index == len(game.actions)
        assert game.push(copy.deepcopy(last)) == last
        assert view(game) == here
        assert game.to_record() == record


def legal_cells_agree(game: Game, player: str, card: str) -> None:
    """legal_cells(player, card) is exactly the set of cells where a build is legal."""
    station = game.state.station(player)
    around = {n for c in station.cells for n in neighbours(c)} - set(station.cells)
    around |= {(r + 1, c + 1) for r, c in around}          # include some non-adjacent cells
    legal = set(game.legal_cells(player, card))
    others = [p for p in game.setup.players if p != player]
    for cell in sorted(around):
        action = {"player": player, "do": "build", "card": card, "at": list(cell)}
        if card in CHOICE_CARDS:
            action["choices"] = {o: "pay" for o in others}
        assert game.is_legal(action) == (cell in legal), (player, card, cell,
                                                          game.why_illegal(action))
    reactor_cells = set(game.legal_cells(player, do="reactor"))
    for cell in sorted(around):
        action = {"player": player, "do": "reactor", "card": card, "at": list(cell)}
        assert game.is_legal(action) == (cell in reactor_cells), game.why_illegal(action)


# ---------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------
@st.composite
def setups(draw):
    n = draw(st.integers(2, 6))
    options = {}
    supply = draw(st.sampled_from([None, 16, 3, 0]))
    if supply is not None:
        options["reactor_supply"] = supply
    if draw(st.booleans()) and draw(st.booleans()):
        options["limited_space"] = [-1, 2, -2, 2]
    return {"players": PLAYERS[:n], "mode": draw(st.sampled_from(["standard", "aggressive"])),
            "options": options}


class DataPicker:
    """Choices drawn by Hypothesis (shrinkable): used for partial games."""

    def __init__(self, data):
        self.data = data

    def one(self, seq, label):
        return self.data.draw(st.sampled_from(list(seq)), label=label)

    def shuffled(self, seq, label):
        return self.data.draw(st.permutations(list(seq)), label=label)


class SeedPicker:
    """Choices from a seeded random.Random: complete 6-player games would overrun
    Hypothesis's data buffer, so only the seed comes from Hypothesis."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def one(self, seq, label):
        return self.rng.choice(list(seq))

    def shuffled(self, seq, label):
        out = list(seq)
        self.rng.shuffle(out)
        return out


def choose_action(pick, game: Game, player: str | None = None, card: str | None = None,
                  at=None) -> dict:
    s = game.state
    player = player or pick.one(s.waiting, "player")
    card = card or pick.one(NAMES, "card")
    options = game.legal_entries(player, card)
    assert options, "discarding is always possible"
    assert all(a["player"] == player and a["card"] == card for a in options)
    if at is not None:
        options = [a for a in options if a["do"] == "build" and a["at"] == list(at)] or options
    action = dict(pick.one(options, "action"))
    if action["do"] == "build":
        if card in CHOICE_CARDS:
            action["choices"] = {o: pick.one(["pay", "lose"], "choice")
                                 for o in game.setup.players if o != player}
        if pick.one([False, True], "pick energy"):
            # pay the energy from other reactors in range than the default ones
            need = next(c["energy"] for c in FIXTURES if c["name"] == card)
            cubes = [cell for cell, _, n in game.payers(player, action["at"]) for _ in range(n)]
            assert len(cubes) >= need
            action["energy_from"] = [list(c) for c in pick.shuffled(cubes, "cubes")[:need]]
    return action


def play(pick, game: Game, steps: int, check_every: int, supply0: int, rng: random.Random,
         tie_first_turn: bool = False):
    cheap_invariants(game, supply0)
    event(f"{len(game.setup.players)} players, {game.setup.mode}")
    effect_card = pick.one(["Fixture: school", "Fixture: watcher"], "tie card")
    for i in range(steps):
        if game.finished:
            break
        if tie_first_turn and i < len(game.setup.players):
            # everybody builds the same effect card on turn 1: tied VP and credits
            action = choose_action(pick, game, game.state.waiting[0], effect_card, at=(0, 1))
        else:
            action = choose_action(pick, game)
        before = len(game.actions)
        norm = game.push(action)                         # every offered action is legal
        assert len(game.actions) == before + 1 and game.actions[-1] == norm
        assert norm["player"] == action["player"] and norm["do"] == action["do"]
        cheap_invariants(game, supply0)
        event(f"do={norm['do']}")
        if "resolve_order" in norm:
            event("tied simultaneous effects (resolve_order stored)")
        if norm.get("choices"):
            event("school choices")
        if (i + 1) % check_every == 0:
            expensive_invariants(game)
            if not game.finished:
                legal_cells_agree(game, rng.choice(game.state.waiting), rng.choice(NAMES))
    expensive_invariants(game)
    if game.state.reactor_supply == 0 and supply0:
        event("reactor supply exhausted")


def new_game(setup: dict, seed: int) -> tuple[Game, int]:
    game = Game({**setup, "seed": seed}, cards=copy.deepcopy(FIXTURES))
    return game, game.setup.reactor_supply     # the mode's default when not given (issue 11)


@settings(max_examples=40, **PROFILE)
@given(setup=setups(), steps=st.integers(0, 30), seed=st.integers(0, 2**16),
       tie=st.booleans(), data=st.data())
def test_partial_games_keep_the_invariants(setup, steps, seed, tie, data):
    game, supply0 = new_game(setup, seed)
    play(DataPicker(data), game, steps, check_every=1, supply0=supply0,
         rng=random.Random(seed), tie_first_turn=tie)
    assert not game.finished or len(game.actions) == steps


@settings(max_examples=25, **PROFILE)
@given(setup=setups(), seed=st.integers(0, 2**32 - 1), tie=st.booleans())
def test_complete_games_keep_the_invariants_and_score(setup, seed, tie):
    game, supply0 = new_game(setup, seed)
    n = len(setup["players"])
    turns = sum(game.setup.turns_in_year(y) for y in range(1, 5))
    play(SeedPicker(seed), game, n * turns, check_every=max(1, n * turns // 12),
         supply0=supply0, rng=random.Random(seed + 1), tie_first_turn=tie)
    assert game.finished and len(game.actions) == n * turns
    assert game.state.waiting == []
    # after the end nothing more is accepted, and the record says so on replay
    with pytest.raises(IllegalAction) as info:
        game.push({"player": setup["players"][0], "do": "discard", "card": NAMES[0]})
    assert info.value.rule == "game-over"
    sc = game.score()
    out = sc.to_json()
    assert out["final"] is True
    for row in out["players"]:
        assert row["total"] == sum(row["breakdown"].values())
        assert row["breakdown"]["during_game"] == game.state.players[row["player"]].vp
        assert min(row["breakdown"].values()) >= 0
        assert row["credits"] == game.state.players[row["player"]].credits
        assert row["breakdown"]["credits"] == row["credits"] // 3
    best = max(r["total"] for r in out["players"])
    assert set(out["winners"]) <= {r["player"] for r in out["players"] if r["total"] == best}
    assert out["winners"]
    ranks = [r["rank"] for r in out["players"]]
    assert ranks == sorted(ranks) and ranks[0] == 1


# ---------------------------------------------------------------------------
# Hand-edited records: any JSON value in any field gives a CompanionError, never
# a crash (the CLI turns CompanionError into exit status 2 and one line).
# ---------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False, width=16)
    | st.sampled_from(["", "Ann", "Bo", "build", "reactor", "discard", "pay", "lose",
                       "Fixture: cheap", "Fixture: school", "none", "end", "immediate",
                       "military", "adjacent_location", "Humareen"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["per", "vp", "when", "flat", "types", "if", "name", "x"]), inner,
        max_size=3),
    max_leaves=6)


def _base_record() -> dict:
    game = Game({"players": ["Ann", "Bo"], "seed": 3}, cards=copy.deepcopy(FIXTURES))
    for a in ({"player": "Ann", "do": "build", "card": "Fixture: school", "at": [0, 1],
               "choices": {"Bo": "pay"}},
              {"player": "Bo", "do": "build", "card": "Fixture: school", "at": [0, 1],
               "choices": {"Ann": "lose"}},
              {"player": "Ann", "do": "reactor", "card": "Fixture: cheap", "at": [1, 0]},
              {"player": "Bo", "do": "build", "card": "Fixture: per adjacent", "at": [1, 0],
               "energy_from": [[0, 0]]},
              {"player": "Bo", "do": "discard", "card": "Fixture: cheap"}):
        game.push(a)
    return game.to_record()


BASE_RECORD = _base_record()


def _paths(node, prefix=()):
    """Every place in a JSON document: (path to the container, key)."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append((prefix, k))
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append((prefix, i))
            out += _paths(v, prefix + (i,))
    return out


BASE_PATHS = _paths(BASE_RECORD)
EXTRA_KEYS = ["player", "do", "card", "at", "energy_from", "choices", "resolve_order", "year",
              "turn", "manual_vp", "types", "cost", "energy", "vp", "max", "abilities", "per",
              "when", "flat", "if", "cap", "table", "every", "distance", "include_self",
              "category", "most", "least", "secret_objective", "players", "mode", "races",
              "objectives", "secret_objectives", "reactor_supply", "limited_space", "manual"]


@settings(max_examples=200, **PROFILE)
@given(n=st.integers(0, len(BASE_PATHS) - 1), how=st.sampled_from(["replace", "delete", "add"]),
       extra=st.sampled_from(EXTRA_KEYS), value=json_values)
def test_hand_edited_records_fail_cleanly(n, how, extra, value):
    """Replace, delete or add one value anywhere in a valid record: replaying and
    scoring it either works or raises a CompanionError, never anything else."""
    from companion import CompanionError
    rec = copy.deepcopy(BASE_RECORD)
    path, key = BASE_PATHS[n]
    parent = rec
    for k in path:
        parent = parent[k]
    if how == "replace":
        parent[key] = value
    elif how == "delete":
        del parent[key]
    elif isinstance(parent, dict):
        parent[extra] = value
    else:
        parent.insert(key, value)
    rec = json.loads(json.dumps(rec))
    try:
        game = Game.from_record(rec)
        game.score()
    except CompanionError:
        pass
