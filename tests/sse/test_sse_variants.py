"""Variants (S Variants): damaged ships, open borders, unexplored systems (all 8 tiles),
and the unexplored-systems setup."""
from __future__ import annotations


from companion.sse import SseGame

from ssekit import colonise, game, move, rule_of


def M(player, to, ship=0, piece="city", **kw):
    a = {"player": player, "ship": ship, "to": list(to)}
    if piece is not None:
        a["piece"] = piece
    a.update(kw)
    return a


def totals(g):
    return {r.player: r._asdict() for r in g.score(project=True).table.itertuples()}


# ------------------------------------------------------------------ damaged ships
def test_damage_needs_the_variant():
    g = game("H1 E E E E H2")
    assert rule_of(g, {"do": "damage", "player": "Ann", "ship": 0}) == "damaged"


def test_damaged_ship_moves_two_and_goes_home_for_repair_without_colonising():
    g = game("H1 E E E E E E H2", variants={"damaged_ships": True})
    move(g, "Ann", (3, 0))
    move(g, "Bob", (6, 0))
    g.push({"do": "damage", "player": "Ann", "ship": 0})     # an expansion's effect
    assert g.state.players["Ann"].ships[0].damaged
    assert g.current == "Ann"                                 # damaging takes no turn
    # home (0,0) is 3 systems away: too far for a damaged ship
    assert rule_of(g, M("Ann", (0, 0), piece=None)) == "damaged-reach"
    assert g.legal_destinations("Ann", 0) == {(1, 0), (2, 0), (4, 0), (5, 0)}
    move(g, "Ann", (1, 0))
    move(g, "Bob", (5, 0))
    assert rule_of(g, M("Ann", (0, 0), piece="city")) == "repair"    # a repair places nothing
    before = g.state.players["Ann"].reserve()
    a = move(g, "Ann", (0, 0), piece=None)
    assert a["piece"] is None
    ann = g.state.players["Ann"]
    assert not ann.ships[0].damaged and ann.reserve() == before and (0, 0) not in g.state.colonies
    move(g, "Bob", (4, 0))
    # repaired: the full range again, passing its own (1,0) and (3,0)
    assert g.legal_destinations("Ann", 0) == {(2, 0)}


def test_damaged_ship_reach_rule():
    g = game("H1 E E E E E H2", variants={"damaged_ships": True})
    g.push({"do": "damage", "player": "Ann", "ship": 0})
    assert rule_of(g, M("Ann", (3, 0))) == "damaged-reach"
    assert g.legal_destinations("Ann", 0) == {(1, 0), (2, 0)}
    assert rule_of(g, {"do": "damage", "player": "Ann", "ship": 0}) == "damaged"


# ------------------------------------------------------------------ open borders
def test_open_borders_pay_a_city_to_pass_and_score_two_per_city_received():
    g = game("H1 E E E E E H2", variants={"open_borders": True})
    move(g, "Ann", (2, 0))
    move(g, "Bob", (3, 0))
    assert rule_of(g, M("Ann", (3, 0))) == "opponent-system"      # never ends there
    a = move(g, "Ann", (4, 0))
    assert a["pay"] == [{"at": [3, 0], "to": "Bob"}]
    ann, bob = g.state.players["Ann"], g.state.players["Bob"]
    assert ann.cities == 16 - 1 - 1 - 1 and ann.paid == 1 and bob.received == 1
    assert totals(g)["Bob"]["open_borders"] == 2
    # without the variant the same pass is refused
    h = game("H1 E E E E E H2")
    move(h, "Ann", (2, 0))
    move(h, "Bob", (3, 0))
    assert rule_of(h, M("Ann", (4, 0))) == "opponent-system"


def test_open_borders_needs_enough_cities():
    g = game("H1 E E E E E H2", variants={"open_borders": True},
             pieces={"cities": 1, "trade_stations": 2})
    move(g, "Ann", (2, 0), piece="trade_station")
    move(g, "Bob", (3, 0))
    # paying the City leaves none to colonise with a City, but a Trade Station is fine
    assert rule_of(g, M("Ann", (4, 0), piece="city")) == "no-pieces"
    assert rule_of(g, M("Ann", (4, 0), piece="trade_station")) is None
    g2 = game("H1 E E E E E H2", variants={"open_borders": True},
              pieces={"cities": 0, "trade_stations": 2})
    move(g2, "Ann", (2, 0), piece="trade_station")
    move(g2, "Bob", (3, 0), piece="trade_station")
    assert rule_of(g2, M("Ann", (4, 0), piece="trade_station")) == "open-borders"
    assert (4, 0) not in g2.legal_destinations("Ann", 0)


def test_open_borders_repair_trip_home_pays_too_and_needs_a_city():
    """Regression (found by the property test, reserve went to -1): a damaged ship going home
    for repair colonises nothing, but passing an opponent's system still costs an unused City
    from the reserve (S Open Borders); without one the trip is illegal and not offered."""
    def setup(cities):
        g = game("""
H1 E  E E E
.  E
.  H2
""", variants={"open_borders": True, "damaged_ships": True},
                 pieces={"cities": cities, "trade_stations": 2})
        move(g, "Ann", (2, 0), piece="trade_station")
        move(g, "Bob", (1, 0), piece="trade_station")            # between Ann's ship and home
        g.push({"do": "damage", "player": "Ann", "ship": 0})
        return g

    g = setup(cities=0)
    assert g.state.players["Ann"].cities == 0
    assert rule_of(g, M("Ann", (0, 0), piece=None)) == "open-borders"
    assert (0, 0) not in g.legal_destinations("Ann", 0)
    assert g.legal_destinations("Ann", 0) == {(3, 0), (4, 0), (1, 1)}
    assert all(m.kind == "colonise" for m in g.legal_moves("Ann", 0))
    assert g.state.players["Ann"].cities == 0                    # nothing was spent

    g = setup(cities=1)                                          # with a City the trip is paid
    a = move(g, "Ann", (0, 0), piece=None)
    assert a["pay"] == [{"at": [1, 0], "to": "Bob"}]
    ann, bob = g.state.players["Ann"], g.state.players["Bob"]
    assert ann.cities == 0 and ann.paid == 1 and bob.received == 1
    assert not ann.ships[0].damaged


def test_open_borders_prefers_a_free_wormhole_jump():
    text = """
H1 W E E E
.  .  E .  .
E  E  E W  H2
"""
    g = game(text, variants={"open_borders": True})
    assert g.check(M("Ann", (2, 0)))["via"] == "line"


# ------------------------------------------------------------------ unexplored systems
UNX = "H1 U E U E E H2"


def test_unexplored_variant_puts_a_tile_on_every_empty_system():
    g = game("H1 E P1 E H2", variants={"unexplored": True})
    kinds = {h: s.kind for h, s in g.state.map.systems.items()}
    assert kinds[(1, 0)] == kinds[(3, 0)] == "unexplored" and kinds[(2, 0)] == "planetary"
    assert g.setup.map[(1, 0)].kind == "empty"         # the record keeps the board as laid


def test_unexplored_needs_a_reveal_a_city_and_an_undamaged_ship():
    g = game(UNX, variants={"damaged_ships": True})
    assert rule_of(g, M("Ann", (1, 0))) == "reveal"
    assert rule_of(g, M("Ann", (1, 0), piece="trade_station",
                        reveal={"effect": "tennar_union"})) == "unexplored-city"
    assert rule_of(g, M("Ann", (1, 0), reveal={"effect": "planetary"})) == "reveal"
    g2 = game(UNX, pieces={"cities": 0})
    assert rule_of(g2, M("Ann", (1, 0), piece=None, reveal={"effect": "tennar_union"})) == "unexplored-city"
    assert (1, 0) not in g2.legal_destinations("Ann", 0)
    g.push({"do": "damage", "player": "Ann", "ship": 0})
    assert rule_of(g, M("Ann", (1, 0), reveal={"effect": "tennar_union"})) == "damaged-unexplored"
    # a ship may pass an unexplored system (ruling)
    assert rule_of(g, M("Ann", (2, 0))) is None


def test_planetary_tile():
    g = game(UNX)
    a = move(g, "Ann", (1, 0), piece=None, reveal={"effect": "planetary", "planets": 3})
    assert a["piece"] == "city" and a["reveal"] == {"effect": "planetary", "planets": 3}
    ann = g.state.players["Ann"]
    assert ann.vp == 3 and ann.cities == 15
    assert g.score().table.set_index("player").loc["Ann"].planets_controlled == 3


def test_chromatic_nebula_is_a_wild_colour_and_a_set_stays_at_most_three():
    g = game("H1 U E E E E H2\nNr Nr Nr Nb E E E")
    move(g, "Ann", (1, 0), piece=None, reveal={"effect": "chromatic_nebula"})
    # alone: any colour, 1 nebula = 2
    assert totals(g)["Ann"]["nebulae"] == 2
    colonise(g, (0, 1), "Ann")
    colonise(g, (1, 1), "Ann")
    assert totals(g)["Ann"]["nebulae"] == 8            # joins red: 3 red
    colonise(g, (2, 1), "Ann")                         # 3 red already: the wild one may not be red
    assert totals(g)["Ann"]["nebulae"] == 8 + 2
    colonise(g, (3, 1), "Ann")                         # 1 blue: wild joins blue -> 8 + 5
    t = g.score(project=True)
    assert totals(g)["Ann"]["nebulae"] == 13
    assert "Chromatic" in " ".join(t.lines.rule)


def test_asteroid_field_damages_the_ship_and_blocks_the_system():
    g = game("H1 U E E E E H2")
    a = move(g, "Ann", (1, 0), piece=None, reveal={"effect": "asteroid_field"})
    assert a["piece"] is None and (1, 0) not in g.state.colonies
    assert g.state.players["Ann"].ships[0].damaged
    assert g.state.players["Ann"].reserve() == 20
    move(g, "Bob", (2, 0))
    # the damaged ship: Bob's (2,0) blocks the east, home is next door: repair only
    moves = g.legal_moves("Ann", 0)
    assert [(m.to, m.kind) for m in moves] == [((0, 0), "repair")]


def test_asteroid_field_blocks_everyone():
    g = game("H1 E U E E H2", ships=2)
    move(g, "Ann", (2, 0), piece=None, reveal={"effect": "asteroid_field"})
    assert rule_of(g, M("Bob", (1, 0))) == "blocked-system"
    assert rule_of(g, M("Bob", (2, 0))) == "blocked-system"
    move(g, "Bob", (3, 0))
    move(g, "Ann", (1, 0))                     # the damaged ship leaves the field
    move(g, "Bob", (4, 0))
    # nobody may enter or pass it afterwards, not even its owner's other ship
    assert rule_of(g, M("Ann", (2, 0), ship=1)) == "blocked-system"
    assert g.legal_destinations("Ann", 1) == set()


def test_abandoned_trade_station():
    g = game("H1 U H2")
    move(g, "Ann", (1, 0), piece=None, reveal={"effect": "abandoned_trade_station"})
    c = g.state.colonies[(1, 0)]
    assert c.piece == "city" and c.counts_as_trade_station
    t = totals(g)["Ann"]
    assert t["exploration"] == 1
    assert t["trade_stations"] == 1                     # next to Bob's homeworld


def test_refuelling_station_moves_on_and_colonises():
    g = game("H1 U P2 E H2")
    a = move(g, "Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"},
             then={"to": [2, 0], "piece": "trade_station"})
    assert a["then"] == {"to": [2, 0], "piece": "trade_station"}
    ann = g.state.players["Ann"]
    assert ann.ships[0].at == (2, 0)
    assert ann.vp == 1 + 2 and ann.cities == 15 and ann.trade_stations == 3
    assert g.state.colonies[(2, 0)].piece == "trade_station"
    g2 = game("H1 U P2 E H2")
    assert rule_of(g2, M("Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"},
                         then={"to": [3, 0], "piece": "city"})) == "refuel"
    assert rule_of(g2, M("Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"},
                         then={"to": [0, 0], "piece": "city"})) == "refuel"
    # the extra move is optional
    move(g2, "Ann", (1, 0), piece=None, reveal={"effect": "refuelling_station"})
    assert g2.state.players["Ann"].ships[0].at == (1, 0)
    assert rule_of(game("H1 U P2 E H2"), M("Ann", (1, 0), reveal={"effect": "tennar_union"},
                                           then={"to": [2, 0], "piece": "city"})) == "malformed"


HOLLANA = """
H1 E U E E
E  E E E E
E  E E E H2
"""


def test_hollana_federation_most_adjacent_three_ties_two_each():
    g = game(HOLLANA)
    move(g, "Ann", (2, 0), piece=None, reveal={"effect": "hollana_federation"})
    assert g.state.players["Ann"].vp == 2
    # neighbours of (2,0) on the board: (1,0) (3,0) (2,1) (1,1)
    colonise(g, (1, 0), "Ann")
    colonise(g, (2, 1), "Bob")
    colonise(g, (1, 1), "Bob")
    t = totals(g)
    assert t["Bob"]["hollana"] == 3 and t["Ann"]["hollana"] == 0
    colonise(g, (3, 0), "Ann")
    t = totals(g)
    assert t["Bob"]["hollana"] == 2 and t["Ann"]["hollana"] == 2


def test_tennar_union_two_to_each_adjacent_player():
    g = game(HOLLANA)
    move(g, "Ann", (2, 0), piece=None, reveal={"effect": "tennar_union"})
    assert totals(g)["Ann"]["tennar"] == 0      # the Tennar system itself is not adjacent
    colonise(g, (1, 0), "Ann")
    colonise(g, (3, 0), "Ann")
    colonise(g, (2, 1), "Bob")
    t = totals(g)
    assert t["Ann"]["tennar"] == 2 and t["Bob"]["tennar"] == 2
    assert t["Ann"]["exploration"] == 2


def test_nordinn_empire_destroys_an_own_adjacent_city_first():
    g = game(HOLLANA, ships=3)
    move(g, "Ann", (1, 0))                      # Ann's City next to (2,0)
    colonise(g, (2, 1), "Bob")                  # Bob's City next to (2,0)
    move(g, "Bob", (4, 1))
    a = move(g, "Ann", (2, 0), ship=1, piece=None, reveal={"effect": "nordinn_empire"})
    assert a["destroy"] == [1, 0]               # her own, the only own adjacent City
    st = g.state
    assert (1, 0) not in st.colonies and (1, 0) in st.conquered and (2, 1) in st.colonies
    assert st.players["Ann"].cities == 16       # the destroyed City went back to the reserve
    assert st.players["Ann"].ships[1].damaged and (2, 0) in st.blocked
    move(g, "Bob", (4, 0))
    # conquered: nobody moves into it (Ann's third ship, from home)
    assert rule_of(g, M("Ann", (1, 0), ship=2)) == "conquered"
    # the ship that stood there stays and may leave
    assert st.players["Ann"].ships[0].at == (1, 0)


def _none_of_yours(**setup):
    """Ann's only City (0,1) is not next to (2,0); Bob has a City next to it, (2,1), and a
    far one, (4,1)."""
    g = game(HOLLANA, ships=2, **setup)
    move(g, "Ann", (0, 1))                      # not next to (2,0)
    colonise(g, (2, 1), "Bob")
    move(g, "Bob", (4, 1))
    return g


NORD = M("Ann", (2, 0), ship=1, piece=None, reveal={"effect": "nordinn_empire"})


def test_nordinn_empire_destroys_another_players_city_when_none_of_yours():
    """The book (S Unexplored Systems, Nordinn Empire): "If you don't have any Cities
    adjacent to this system, then choose another player's City and destroy that instead.
    If you destroy an adjacent City this way, place put the Nordinn Empire conquest marker
    on the system."  Default reading (options.nordinn: any_city): any other player's City,
    adjacent or not, and the player chooses; the conquest marker only for an adjacent one."""
    g = _none_of_yours()
    assert g.nordinn_choices("Ann", (2, 0)) == [(2, 1), (4, 1)]
    assert rule_of(g, NORD) == "destroy"                          # "choose": two Cities
    assert rule_of(g, {**NORD, "destroy": [0, 1]}) == "destroy"   # her own far City: never
    # an adjacent one: destroyed and conquered
    a = g.push({**NORD, "destroy": [2, 1]})
    assert a["destroy"] == [2, 1]
    assert (2, 1) in g.state.conquered and g.state.players["Bob"].cities == 16 - 2 + 1
    assert (4, 1) in g.state.colonies and (0, 1) in g.state.colonies
    # a far one: destroyed, no conquest marker ("If you destroy an adjacent City")
    g = _none_of_yours()
    a = g.push({**NORD, "destroy": [4, 1]})
    assert a["destroy"] == [4, 1] and (4, 1) not in g.state.colonies
    assert (4, 1) not in g.state.conquered and (2, 1) in g.state.colonies
    assert g.state.players["Bob"].cities == 16 - 2 + 1


def test_nordinn_empire_option_adjacent_city_keeps_to_the_adjacent_one():
    """options.nordinn: adjacent_city reads "another player's City" as one next to the
    system: Bob's far City is not a choice and his adjacent one goes without asking."""
    g = _none_of_yours(options={"nordinn": "adjacent_city"})
    assert g.nordinn_choices("Ann", (2, 0)) == [(2, 1)]
    assert rule_of(g, {**NORD, "destroy": [4, 1]}) == "destroy"
    a = g.push(NORD)
    assert a["destroy"] == [2, 1] and (2, 1) in g.state.conquered


def test_nordinn_choice_among_several():
    g = game(HOLLANA, ships=2)
    move(g, "Ann", (0, 1))
    colonise(g, (2, 1), "Bob")
    colonise(g, (1, 1), "Bob")
    colonise(g, (3, 0), "Bob", "trade_station")  # a Trade Station is never destroyed
    move(g, "Bob", (4, 1))
    nord = M("Ann", (2, 0), ship=1, piece=None, reveal={"effect": "nordinn_empire"})
    assert rule_of(g, nord) == "destroy"
    assert rule_of(g, {**nord, "destroy": [3, 0]}) == "destroy"
    a = g.push({**nord, "destroy": [1, 1]})
    assert a["destroy"] == [1, 1] and (2, 1) in g.state.colonies


def test_known_tiles_on_the_map_reveal_themselves():
    m = {"players": ["Ann", "Bob"], "pieces": {"ships": 1}, "options": {"pieces": "custom"},
         "map": {"systems": [{"at": [0, 0], "type": "homeworld", "home": 1},
                             {"at": [1, 0], "type": "unexplored", "effect": "planetary", "planets": 2},
                             {"at": [2, 0], "type": "homeworld", "home": 2}]}}
    g = SseGame(m)
    assert rule_of(g, M("Ann", (1, 0), piece=None, reveal={"effect": "tennar_union"})) == "reveal"
    move(g, "Ann", (1, 0), piece=None)
    assert g.state.players["Ann"].vp == 2
