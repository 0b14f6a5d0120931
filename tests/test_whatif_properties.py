"""Property tests for the what-if views: what the map predicts is what happens.

Random LEGAL game prefixes (2-4 players, standard or aggressive, some with a
small reactor supply, Limited Space or objectives) are played with FIXTURE
cards only (names start with "Fixture: ", numbers invented for the test), by
choosing among ``game.legal_actions``.  Then, for a random waiting player who
is not the last of the turn and a random card:

* every legal row of ``placement_map``: its ``vp_now`` is the VP the player
  gains when the action is really pushed (on ``game.branch()``), its
  ``projected_total`` is that player's total in ``score(branch, project=True)``,
  and its energy payers and empty-reactor change are the pushed action's;
* every illegal row: ``game.check`` raises with the same rule, and
  ``game.why_illegal`` gives the same reason;
* the same for every row of ``hand_ranking`` (builds, reactors, discards) for a
  random hand, which is ranked by projected total;
* nothing of the game changed.

Hypothesis runs derandomized with no example database, so CI is deterministic.
"""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import Catalogue, Game
from companion.ats.whatif import hand_ranking, placement_map
from recordkit import fixture_card, fixture_objective
from test_whatif import check_rows_against_push


def _school() -> list[dict]:
    # the real School of Alien Cultures ability; the card carrying it is a fixture
    return [dict(a) for a in Catalogue.shipped().get("School of Alien Cultures").abilities]


CARDS = [
    fixture_card("Fixture: p cheap", types=["military"], cost=0, energy=0, vp=1),
    fixture_card("Fixture: p hungry", types=["business"], cost=3, energy=2, vp=4),
    fixture_card("Fixture: p max 1", types=["administrative"], cost=1, energy=1, vp=2, max=1,
                 abilities=[{"when": "end", "per": "station_location", "vp": 1, "cap": 8}]),
    fixture_card("Fixture: p adjacent now", types=["recreational", "business"], cost=2,
                 energy=1, vp=1,
                 abilities=[{"when": "immediate", "per": "adjacent_location", "vp": 1}]),
    fixture_card("Fixture: p end adjacent military", types=["administrative"], cost=1, energy=0,
                 vp=0, abilities=[{"when": "end", "per": "adjacent_location",
                                   "types": ["military"], "vp": 1}]),
    fixture_card("Fixture: p farthest", types=["diplomatic"], cost=1, energy=0, vp=0,
                 abilities=[{"when": "end", "flat": 4,
                             "if": {"farthest_from_main_reactor": True}}]),
    fixture_card("Fixture: p cubes now", types=["military"], cost=2, energy=1, vp=1,
                 abilities=[{"when": "immediate", "per": "energy_cube", "vp": 1, "cap": 2}]),
    fixture_card("Fixture: p empty reactors", types=["military"], cost=2, energy=1, vp=1,
                 abilities=[{"when": "end", "per": "empty_reactor", "vp": 1}]),
    fixture_card("Fixture: p per credit", types=["business"], cost=1, energy=0, vp=0,
                 abilities=[{"when": "end", "per": "credit", "every": 2, "vp": 1}]),
    fixture_card("Fixture: p within 2", types=["military", "diplomatic"], cost=2, energy=1, vp=1,
                 abilities=[{"when": "end", "per": "location_within", "distance": 2,
                             "types": ["military"], "vp": 1}]),
    fixture_card("Fixture: p variety", types=["business"], cost=2, energy=0, vp=0,
                 abilities=[{"when": "end", "per": "distinct_type",
                             "table": {1: 1, 3: 4, 5: 9}}]),
    fixture_card("Fixture: p more", types=["business", "military"], cost=1, energy=0, vp=0,
                 abilities=[{"when": "end", "flat": 3,
                             "if": {"more": ["business"], "than": ["military"]}},
                            {"when": "immediate", "flat": 1,
                             "if": {"adjacent_to": ["military"]}}]),
    fixture_card("Fixture: p years", types=["recreational"], cost=1, energy=0, vp=0,
                 abilities=[{"when": "immediate", "per": "remaining_year", "vp": 1}]),
    fixture_card("Fixture: p school", types=["diplomatic"], cost=2, energy=1, vp=1,
                 abilities=_school()),
    fixture_card("Fixture: p watcher", types=["military"], cost=1, energy=0, vp=0,
                 abilities=[{"when": "immediate", "per": "other_station_location",
                             "types": ["military"], "vp": 1, "cap": 3}]),
    fixture_card("Fixture: p typed now", types=["business"], cost=1, energy=0, vp=1,
                 abilities=[{"when": "immediate", "manual": True}]),
    fixture_card("Fixture: p splurge", types=["business"], cost=12, energy=0, vp=2),
    fixture_objective("Fixture: p most military", vp=5,
                      most={"per": "station_location", "types": ["military"]}),
    fixture_objective("Fixture: p most credits", vp=3, most={"per": "credit"}),
    fixture_objective("Fixture: p least reactors", vp=2, least={"per": "reactor"}),
]
LOCATIONS = [c["name"] for c in CARDS if c.get("category", "location") == "location"]
OBJECTIVES = [c["name"] for c in CARDS if c.get("category") == "objective"]
PLAYERS = ["Ann", "Bo", "Cy", "Di"]

PROFILE = dict(deadline=None, derandomize=True, database=None, max_examples=40,
               suppress_health_check=[h for h in (getattr(HealthCheck, "too_slow", None),
                                                  getattr(HealthCheck, "data_too_large", None))
                                      if h is not None])


def _fill(game: Game, action: dict) -> dict:
    card = game.catalogue.get(action["card"])
    if action["do"] == "build":
        for ab in card.abilities or ():
            if ab.get("when") == "immediate" and "choice" in ab:
                action = {**action, "choices": {p: "pay" for p in game.setup.players
                                                if p != action["player"]}}
            if ab.get("when") == "immediate" and "manual" in ab:
                action = {**action, "manual_vp": 0}
    return action


def random_prefix(seed: int) -> tuple[Game, random.Random]:
    """A legal game drawn from ``seed`` (players, mode, options, objectives and
    some actions), stopped where at least two players still have to act in the
    turn.  Everything comes from the seed: Hypothesis's derandomized search
    tries small numbers first, and small lengths would leave most games empty."""
    rng = random.Random(seed)
    n = rng.randint(2, 4)
    options = {}
    supply = rng.choice([None, None, 2, 0])
    if supply is not None:
        options["reactor_supply"] = supply
    if rng.random() < 0.25:
        options["limited_space"] = [-1, 2, -2, 2]
    objectives = rng.sample(OBJECTIVES, rng.choice([0, 1, 2, 3, 3]))
    mode = rng.choice(["standard", "aggressive"])
    length = rng.choice([rng.randint(0, 4), rng.randint(4, 14 * n), rng.randint(4, 14 * n)])
    game = Game({"players": PLAYERS[:n], "mode": mode, "options": options,
                 "objectives": objectives, "seed": seed + 1}, cards=CARDS,
                book_setup=False)     # random objective counts: fixtures (B 3 not checked here)

    def one(player):
        acts = game.legal_entries(player, rng.choice(LOCATIONS))
        builds = [a for a in acts if a["do"] == "build"]
        pool = builds if builds and rng.random() < 0.7 else acts
        game.push(_fill(game, rng.choice(pool)))

    for _ in range(length):
        one(rng.choice(game.state.waiting))
    while len(game.state.waiting) < 2:     # the last of a turn: let them act
        one(game.state.waiting[0])
    assert not game.finished
    return game, rng


games = st.integers(0, 2 ** 32 - 1).map(random_prefix)


@settings(**PROFILE)
@given(games, st.sampled_from(LOCATIONS))
def test_placement_map_predicts_the_pushed_action(game_rng, card):
    game, rng = game_rng
    player = rng.choice(game.state.waiting)
    record = json.dumps(game.to_record(), sort_keys=True)
    df = placement_map(game, player, card)
    assert len(df) == 2 * len(game.state.station(player).frontier())
    check_rows_against_push(game, player, df)
    assert json.dumps(game.to_record(), sort_keys=True) == record


@settings(**{**PROFILE, "max_examples": 25})
@given(games, st.lists(st.sampled_from(LOCATIONS), min_size=1, max_size=4))
def test_hand_ranking_predicts_the_pushed_action(game_rng, hand):
    game, rng = game_rng
    player = rng.choice(game.state.waiting)
    df = hand_ranking(game, player, hand)
    legal = df[df.legal]
    totals = [int(t) for t in legal.projected_total]
    assert totals == sorted(totals, reverse=True)
    assert (legal.action == "discard").sum() == len(hand)
    check_rows_against_push(game, player, df)
