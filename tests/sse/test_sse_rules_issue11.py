"""Issue 11, Small Star Empires: the book's readings made documented options (items 4 and
5), each checked in the engine and through the command line (``check``/``score`` exit
codes), with the rulebook's words quoted (S = Small Star Empires rulebook).

Maps are drawn with ``ssekit`` (text grids); no card data is involved.
"""
from __future__ import annotations

import json

import pytest

from companion.errors import IllegalAction, RecordError
from companion.sse import SseGame
from companion.sse.game import BOOK_SHIPS, OPTIONS

from ssekit import colonise, game, move, rule_of

NORDINN_WORDS = ("If you don't have any Cities adjacent to this system, then choose another "
                 "player's City and destroy that instead. If you destroy an adjacent City this "
                 "way, place the conquest marker")

# Ann's homeworld (0,0); the unexplored tile (2,0); Bob's Cities at (4,1) (far) and (2,1)
# (next to (2,0)) in the second test
HOLLANA = """
H1 E U E E
E  E E E E
E  E E E H2
"""


def M(player, to, ship=0, piece="city", **kw):
    a = {"player": player, "ship": ship, "to": list(to)}
    if piece is not None:
        a["piece"] = piece
    a.update(kw)
    return a


NORD = M("Ann", (2, 0), ship=1, piece=None, reveal={"effect": "nordinn_empire"})


def _far_city_game(**setup):
    """Ann has no City next to (2,0); Bob's only City is at (1,2), not adjacent."""
    g = game(HOLLANA, ships=2, **setup)
    move(g, "Ann", (0, 1))                    # Ann's City at (0,1): not next to (2,0)
    move(g, "Bob", (1, 2))                    # Bob's City at (1,2): not next to (2,0)
    return g


def _write(tmp_path, g, name="r.json"):
    p = tmp_path / name
    p.write_text(json.dumps(g.to_record()), encoding="utf-8")
    return p


def test_nordinn_default_destroys_any_other_players_city_literal_reading(tmp_path, run_cli):
    """S Unexplored Systems, Nordinn Empire: "If you don't have any Cities adjacent to this
    system, then choose another player's City and destroy that instead. If you destroy an
    adjacent City this way, place the conquest marker".  Default (option
    nordinn: any_city): another player's City anywhere; no conquest marker when it is
    not adjacent."""
    g = _far_city_game()
    assert g.setup.option("nordinn") == "any_city" == OPTIONS["nordinn"][0]
    a = g.push(NORD)
    assert a["destroy"] == [1, 2]                      # the only other player's City
    assert (1, 2) not in g.state.colonies and g.state.players["Bob"].cities == 16
    assert (1, 2) not in g.state.conquered             # not adjacent: no marker
    assert run_cli("check", _write(tmp_path, g)).returncode == 0
    assert run_cli("score", _write(tmp_path, g)).returncode == 0
    # an own City, even far, is never the choice: "choose another player's City"
    g2 = _far_city_game()
    assert rule_of(g2, {**NORD, "destroy": [0, 1]}) == "destroy"


def test_nordinn_option_adjacent_city_only_destroys_an_adjacent_one(tmp_path, run_cli):
    """Option nordinn: adjacent_city (the earlier reading): with no adjacent City at all,
    nothing is destroyed; the command line refuses a 'destroy' of a far City."""
    g = _far_city_game(options={"nordinn": "adjacent_city"})
    a = g.push(NORD)
    assert "destroy" not in a and (1, 2) in g.state.colonies
    g2 = _far_city_game(options={"nordinn": "adjacent_city"})
    bad = g2.to_record()
    bad["actions"].append({**NORD, "destroy": [1, 2]})
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad), encoding="utf-8")
    out = run_cli("check", p)
    assert out.returncode == 2 and "rule: destroy" in out.stderr
    # the same record under the default reading is legal
    bad["setup"].pop("options")
    p.write_text(json.dumps(bad), encoding="utf-8")
    assert run_cli("check", p).returncode == 0


@pytest.mark.parametrize("reading", ["any_city", "adjacent_city"])
def test_nordinn_an_adjacent_city_gets_the_conquest_marker(reading):
    """"If you destroy an adjacent City this way, place the conquest marker": in both
    readings an adjacent City of another player is destroyed and its system conquered;
    with an adjacent City of one's own, that one goes first ("if you have any adjacent
    Cities to this system, choose one of them to destroy")."""
    g = game(HOLLANA, ships=2, options={"nordinn": reading})
    move(g, "Ann", (0, 1))
    colonise(g, (2, 1), "Bob")                        # next to (2,0)
    move(g, "Bob", (4, 1))                            # Bob's far City at (4,1)
    a = g.push({**NORD, "destroy": [2, 1]})
    assert a["destroy"] == [2, 1] and (2, 1) in g.state.conquered
    g2 = game(HOLLANA, ships=2, options={"nordinn": reading})
    move(g2, "Ann", (1, 0))                           # Ann's own City next to (2,0)
    colonise(g2, (2, 1), "Bob")
    move(g2, "Bob", (4, 1))
    assert rule_of(g2, {**NORD, "destroy": [2, 1]}) == "destroy"
    assert g2.push(NORD)["destroy"] == [1, 0]


REFUEL_WORDS = ("You may then move the ship in this system into an adjacent uncolonized "
                "system and colonize that system")


def test_refuelling_station_may_go_on_into_an_unexplored_system(tmp_path, run_cli):
    """S Unexplored Systems, Refueling Station: "You may then move the ship in this system
    into an adjacent uncolonized system and colonize that system".  An Unexplored
    System is uncolonised: by default (option refuel: uncolonised) the ship may go on into
    one; its tile is revealed and applied as for any move (here 2 planets: 1 + 2 VP)."""
    g = game("H1 U U E H2", variants={"unexplored": False})
    assert g.setup.option("refuel") == "uncolonised"
    a = move(g, "Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"},
             then={"to": [2, 0], "reveal": {"effect": "planetary", "planets": 2}})
    assert a["then"] == {"to": [2, 0], "piece": "city",
                         "reveal": {"effect": "planetary", "planets": 2}}
    ann = g.state.players["Ann"]
    assert ann.ships[0].at == (2, 0) and ann.vp == 1 + 2 and ann.cities == 14
    assert g.state.colonies[(2, 0)].piece == "city"
    path = _write(tmp_path, g)
    assert run_cli("check", path).returncode == 0
    out = run_cli("score", "--json", path)
    assert out.returncode == 0
    # "colonize that system": an Unexplored System takes a City, never a Trade Station
    assert rule_of(game("H1 U U E H2"), M("Ann", (1, 0), piece=None,
                                          reveal={"effect": "refuelling_station"},
                                          then={"to": [2, 0], "piece": "trade_station",
                                                "reveal": {"effect": "planetary",
                                                           "planets": 2}})) == "unexplored-city"


def test_refuelling_station_option_explored_refuses_an_unexplored_system(tmp_path, run_cli):
    g = game("H1 U U E H2", options={"refuel": "explored"})
    act = M("Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"},
            then={"to": [2, 0], "reveal": {"effect": "planetary", "planets": 2}})
    assert rule_of(g, act) == "refuel"
    rec = g.to_record()
    rec["actions"].append(act)
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(rec), encoding="utf-8")
    out = run_cli("check", p)
    assert out.returncode == 2 and "rule: refuel" in out.stderr
    # an explored uncolonised system is fine under both readings
    g2 = game("H1 U P2 E H2", options={"refuel": "explored"})
    move(g2, "Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"},
         then={"to": [2, 0], "piece": "trade_station"})
    assert g2.state.colonies[(2, 0)].piece == "trade_station"


def test_unknown_options_and_values_are_refused():
    with pytest.raises(RecordError):
        game("H1 E H2", options={"nordinn": "nearest"})
    with pytest.raises(RecordError):
        game("H1 E H2", options={"wormholes": "any"})
    g = game("H1 E H2", options={"nordinn": "adjacent_city"})
    again = SseGame.from_record(json.loads(json.dumps(g.to_record())))
    assert again.setup.option("nordinn") == "adjacent_city"


def test_pieces_off_the_book_are_reported():
    """S Setup: "each player starts with 2-4 ships of his color on his Homeworld System";
    S Components: "4 Ships, 16 Cities and 4 Trade Stations per player"; Campaign Mode:
    "2 Players - 14 Cities and 4 Trade Stations".  Custom and test setups stay accepted,
    and say how they differ from the book."""
    assert BOOK_SHIPS == (2, 4)
    assert game("H1 E H2", ships=3).setup.off_book() == []
    assert "2-4" in game("H1 E H2", ships=1).setup.off_book()[0]
    off = game("H1 E H2", ships=2, pieces={"cities": 3, "trade_stations": 1}).setup.off_book()
    assert off and "the box gives 16 and 4" in off[0]
    camp = game("H1 E H2", ships=2, campaign={"wins": {}, "game": 1})
    assert camp.setup.cities == 14 and camp.setup.trade_stations == 4
    assert camp.setup.off_book() == []


def test_nordinn_choices_query_follows_the_option():
    """The entry form asks the engine which Cities may go (a query: nothing changes)."""
    g = _far_city_game()
    before = json.dumps(g.to_record(), sort_keys=True)
    assert g.nordinn_choices("Ann", [2, 0]) == [(1, 2)]
    g2 = _far_city_game(options={"nordinn": "adjacent_city"})
    assert g2.nordinn_choices("Ann", [2, 0]) == []
    assert json.dumps(g.to_record(), sort_keys=True) == before
