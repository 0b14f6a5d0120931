"""Setup helper (companion.decks): deck composition and the seeded setup draw.

The expected numbers are the rulebooks' (B = base, R = Revival):
3p 54 + 18, 4p 72 + 24, 5p 80 + 40, 6p 96 + 48 (R 6), Revival 2p 30 + 18 in
4 piles of 12 (R 2.1), reactors 16 (B 2) / 8 (R 1, R 2.1), conflicts 3 x
players before year 2 (B 7) / 10 and 12 before year 3 (R 6), All-in: the
bottom 20 set aside (B 9).
"""
from __future__ import annotations

import pytest

from companion.ats.catalogue import Catalogue, parse_entries
from companion.ats.decks import (Composition, deck_composition, draw_setup)
from companion.ats.game import Setup

PLAYERS = ["Sandra", "George", "Thalia", "Mina", "Oskar", "Pia"]


@pytest.fixture(scope="module")
def shipped() -> Catalogue:
    return Catalogue.shipped()


# ---------------------------------------------------------------------------
# Deck composition
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("players, basic, special, reactors", [
    (3, 54, 18, 16),
    (4, 72, 24, 16),
    (5, 80, 40, 24),
    (6, 96, 48, 24),
])
def test_deck_counts_3_to_6_players(players, basic, special, reactors):
    c = deck_composition(players)
    assert (c.basic_cards, c.special_cards) == (basic, special)
    assert c.location_deck == basic + special
    assert c.reactor_supply == reactors
    assert c.conflicts == 0 and c.conflicts_year is None
    assert c.turns == (6, 6, 6, 6)


def test_3_players_take_the_copies_marked_3():
    c = deck_composition(3)
    assert (c.basic_locations, c.basic_copies) == (18, 3)
    row = c.table().set_index("what").loc["Basic cards"]
    assert 'marked "3"' in row["how"]
    # B does not print 54: the source says it is derived
    assert "B prints no total" in row["source"]


def test_4_players_use_all_copies():
    c = deck_composition(4)
    assert (c.basic_locations, c.basic_copies, c.sets) == (18, 4, ("base",))
    assert c.specials_per_player == 6


@pytest.mark.parametrize("players, chosen", [(5, 20), (6, 24)])
def test_5_6_players_combine_base_and_revival(players, chosen):
    c = deck_composition(players)
    assert c.sets == ("base", "revival")
    assert (c.basic_locations, c.basic_pool, c.basic_copies) == (chosen, 33, 4)
    assert c.specials_per_player == 8
    assert c.main_reactors == players


def test_2_players_virtual_seats_is_the_4_player_deck():
    two, four = deck_composition(2), deck_composition(4)
    assert two.two_player == "virtual" and two.seats == 4
    assert (two.basic_cards, two.special_cards, two.location_deck) == (72, 24, 96)
    assert two.location_deck == four.location_deck
    assert two.reactor_supply == 16
    assert two.main_reactors == 2            # the virtual seats place none (B 8)
    assert two.objectives == 2               # B 8


def test_revival_2_players_piles_of_12():
    c = deck_composition(2, two_player="revival")
    assert c.sets == ("revival",)
    assert (c.basic_locations, c.basic_pool, c.basic_copies) == (10, 15, 3)
    assert (c.basic_cards, c.special_cards, c.location_deck) == (30, 18, 48)
    assert (c.piles, c.pile_size) == (4, 12)
    assert c.piles * c.pile_size == c.location_deck
    assert c.reactor_supply == 8
    assert c.conflicts == 0
    assert c.objectives == 2


@pytest.mark.parametrize("players, two_player, conflicts, year, turns", [
    (2, "virtual", 12, 2, (6, 7, 7, 7)),     # ruling: 3 x 4 seats
    (3, None, 9, 2, (6, 7, 7, 7)),           # B 7: "9 in a 3-player game"
    (4, None, 12, 2, (6, 7, 7, 7)),          # B 7: "all 12 in a 4-player game"
    (5, None, 10, 3, (6, 6, 7, 7)),          # R 6
    (6, None, 12, 3, (6, 6, 7, 7)),          # R 6
])
def test_conflicts_by_player_count(players, two_player, conflicts, year, turns):
    c = deck_composition(players, mode="aggressive", two_player=two_player)
    assert (c.conflicts, c.conflicts_year, c.turns) == (conflicts, year, turns)
    assert c.table().set_index("what").loc["Conflict cards", "count"] == conflicts


def test_turns_agree_with_the_engine():
    for n in range(2, 7):
        c = deck_composition(n, mode="aggressive")
        s = Setup.from_dict({"players": PLAYERS[:n], "mode": "aggressive"})
        assert c.turns == tuple(s.turns_in_year(y) for y in range(1, 5))


@pytest.mark.parametrize("players, two_player", [(2, "virtual"), (2, "revival"), (3, None), (4, None),
                                                 (5, None), (6, None)])
@pytest.mark.parametrize("mode", ["standard", "aggressive"])
def test_the_deck_holds_exactly_the_cards_dealt(players, two_player, mode):
    """Deck arithmetic: every normal setup deals out the whole deck, no more."""
    if two_player == "revival" and mode == "aggressive":
        pytest.skip("no Aggressive Mode in the Revival 2-player rules")
    c = deck_composition(players, mode=mode, two_player=two_player)
    assert c.spare == 0, c.text()


@pytest.mark.parametrize("players, deck", [(2, 116), (3, 116), (4, 116), (5, 206), (6, 206)])
def test_all_in_sets_aside_the_bottom_20(players, deck):
    c = deck_composition(players, all_in=True)
    assert c.location_deck == deck                   # B 2: 72 + 44; R 1: + 60 + 30
    assert c.set_aside == 20
    assert c.deck_in_play == deck - 20
    assert c.spare >= 0
    rows = c.table().set_index("what")
    assert rows.loc["Set aside", "count"] == 20
    assert "B 9" in rows.loc["Set aside", "source"]
    assert c.options()["all_in"] is True


def test_all_in_4_players_deals_the_whole_remaining_deck():
    assert deck_composition(4, all_in=True).spare == 0
    assert deck_composition(4, all_in=True, mode="aggressive").spare == 0


@pytest.mark.parametrize("kwargs", [
    dict(players=1), dict(players=7), dict(players=True), dict(players=3, mode="friendly"),
    dict(players=3, two_player="virtual"), dict(players=2, two_player="solo"),
    dict(players=2, two_player="revival", mode="aggressive"),
    dict(players=2, two_player="revival", all_in=True),
])
def test_combinations_the_books_do_not_give_are_refused(kwargs):
    n = kwargs.pop("players")
    with pytest.raises(ValueError):
        deck_composition(n, **kwargs)


def test_table_and_text_are_readable():
    c = deck_composition(5, mode="aggressive")
    df = c.table()
    assert list(df.columns) == ["what", "count", "how", "source"]
    assert df["count"].dtype.kind == "i"
    assert df["source"].map(bool).all()
    t = c.text()
    assert "5 players" in t and "aggressive" in t
    assert "Rulings where the books are silent" in t
    for r in c.rows:
        assert r.what in t


def test_rulings_are_listed_where_the_books_are_silent():
    assert deck_composition(4).rulings == ()
    assert any("virtual" in r for r in deck_composition(2, mode="aggressive").rulings)
    assert any("24" in r for r in deck_composition(6).rulings)       # reactor supply


def test_options_for_the_record():
    assert deck_composition(3).options() == {"reactor_supply": 16}
    assert deck_composition(2).options() == {"reactor_supply": 16, "two_player": "virtual"}
    assert deck_composition(2, two_player="revival").options() == {"reactor_supply": 8,
                                                                   "two_player": "revival"}
    assert deck_composition(6).options() == {"reactor_supply": 24}


# ---------------------------------------------------------------------------
# Seeded draw
# ---------------------------------------------------------------------------
def _names_out(setup: dict) -> list[str]:
    o = setup["options"]
    return (list(setup["races"].values()) + list(setup["objectives"])
            + list(setup.get("secret_objectives", {}).values()) + list(o.get("basic_locations", [])))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_same_seed_same_draw(n, shipped):
    a = draw_setup(PLAYERS[:n], seed=1234, races=True, objectives=True, catalogue=shipped)
    b = draw_setup(PLAYERS[:n], seed=1234, races=True, objectives=True, catalogue=shipped)
    assert a == b
    assert a["seed"] == 1234 and "seed" not in a["options"]      # the game's seed (issue 20)


def test_different_seeds_give_different_draws(shipped):
    draws = {tuple(draw_setup(PLAYERS[:4], seed=s, races=True, objectives=True,
                              catalogue=shipped)["races"].values()) for s in range(20)}
    assert len(draws) > 10


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_races_are_distinct_one_each(n, shipped):
    for seed in range(30):
        s = draw_setup(PLAYERS[:n], seed=seed, races=True, objectives=False, catalogue=shipped)
        assert set(s["races"]) == set(PLAYERS[:n])
        assert len(set(s["races"].values())) == n


@pytest.mark.parametrize("n, expected", [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6)])
def test_objective_count(n, expected, shipped):
    """As many as players; 2 in a 2-player game (B 3, B 8).  The catalogue
    names only one objective card, so the rest are drawn from the box."""
    for seed in range(10):
        s = draw_setup(PLAYERS[:n], seed=seed, races=False, objectives=True, catalogue=shipped)
        drawn = len(s["objectives"]) + s["options"].get("objectives_from_box", 0)
        assert drawn == expected
        assert len(s["objectives"]) <= 1


def test_objective_count_revival_2p(shipped):
    s = draw_setup(PLAYERS[:2], seed=5, races=False, objectives=True, catalogue=shipped,
                   two_player="revival")
    assert len(s["objectives"]) + s["options"].get("objectives_from_box", 0) == 2


def _objectives(n: int) -> Catalogue:
    """A catalogue with n fixture objectives (no real card gets a value)."""
    return Catalogue.shipped().overlay(parse_entries(
        [{"name": f"Fixture: objective {i}", "category": "objective", "types": None, "cost": None,
          "energy": None, "vp": None, "max": None, "abilities": None} for i in range(n)]))


def test_objectives_all_named_when_the_catalogue_knows_them():
    cat = _objectives(7)          # + Accelerated Construction = 8, the whole box
    for seed in range(10):
        s = draw_setup(PLAYERS[:4], seed=seed, races=False, objectives=True, catalogue=cat)
        assert len(s["objectives"]) == 4 and len(set(s["objectives"])) == 4
        assert "objectives_from_box" not in s["options"]


def test_qualeen_draws_the_physical_secret_objective_nothing_is_drawn_for_it():
    # B FAQ, Qualeen: "If I draw the "Accelerated Construction" Objective, do I still
    # reveal it at the end of the game?" -- the Qualeen player draws the card and keeps
    # it secret: the setup draw records none (issue 36), it says who draws it
    cat = _objectives(7)
    seen = 0
    for seed in range(60):
        s = draw_setup(PLAYERS[:4], seed=seed, races=True, objectives=True, catalogue=cat)
        qualeen = [p for p, r in s["races"].items() if r == "Qualeen"]
        assert "secret_objectives" not in s
        assert "secret_objective_from_box" not in s["options"]
        notes = s["options"].get("setup_notes", [])
        if qualeen:
            seen += 1
            who = qualeen[0]
            assert (f"{who} (Qualeen) draws a secret objective card from the box and keeps "
                    f"it; {who}'s page asks which one.") in notes
        else:
            assert not any("secret objective" in n for n in notes)
    assert seen > 0


def test_qualeen_secret_objective_with_the_shipped_catalogue_is_never_drawn(shipped):
    for seed in range(60):
        s = draw_setup(PLAYERS[:6], seed=seed, races=True, objectives=True, catalogue=shipped)
        assert "secret_objectives" not in s
        assert "secret_objective_from_box" not in s["options"]


def test_objectives_from_the_box_when_the_catalogue_names_none():
    cat = Catalogue([c for c in Catalogue.shipped() if c.category == "race"])
    for seed in range(10):
        s = draw_setup(PLAYERS[:6], seed=seed, races=True, objectives=True, catalogue=cat)
        assert s["objectives"] == [] and s["options"]["objectives_from_box"] == 6
        # the Qualeen draws the physical secret objective (issue 36): only a note
        if "Qualeen" in s["races"].values():
            assert any("draws a secret objective card from the box" in n
                       for n in s["options"]["setup_notes"])
        assert any("objective" in n for n in s["options"]["setup_notes"])


@pytest.mark.parametrize("n, two_player", [(2, None), (2, "revival"), (3, None), (4, None),
                                           (5, None), (6, None)])
def test_every_name_comes_from_the_catalogue(n, two_player, shipped):
    for seed in range(15):
        s = draw_setup(PLAYERS[:n], seed=seed, races=True, objectives=True, catalogue=shipped,
                       two_player=two_player)
        for name in _names_out(s):
            assert name in shipped, name
        for p in s["races"].values():
            assert shipped.get(p).category == "race"
        for o in s["objectives"]:
            assert shipped.get(o).category == "objective"
        for b in s["options"].get("basic_locations", []):
            card = shipped.get(b)
            assert card.extra.get("kind") == "basic" and card.extra.get("set") in ("base", "revival")


@pytest.mark.parametrize("n, chosen", [(5, 20), (6, 24)])
def test_5_6_players_basic_locations(n, chosen, shipped):
    for seed in range(20):
        o = draw_setup(PLAYERS[:n], seed=seed, races=False, objectives=False, catalogue=shipped)["options"]
        named = o["basic_locations"]
        assert len(set(named)) == len(named)
        from_box = o.get("basic_locations_from_box", {})
        assert len(named) + sum(from_box.values()) == chosen
        # the catalogue names all 18 base basics and no Revival basic: the box slots are Revival's
        assert set(from_box) <= {"revival"}
        assert 0 < from_box.get("revival", 0) <= 15
        assert all(shipped.get(b).extra["set"] == "base" for b in named)
        assert o["reactor_supply"] == 24


def test_5_6_players_prefer_known(shipped):
    o = draw_setup(PLAYERS[:5], seed=3, races=False, objectives=False, catalogue=shipped,
                   prefer_known=True)["options"]
    assert len(o["basic_locations"]) == 18 and o["basic_locations_from_box"] == {"revival": 2}
    o = draw_setup(PLAYERS[:6], seed=3, races=False, objectives=False, catalogue=shipped,
                   prefer_known=True)["options"]
    assert len(o["basic_locations"]) == 18 and o["basic_locations_from_box"] == {"revival": 6}


def test_revival_2p_basic_locations_and_first_active(shipped):
    for seed in range(10):
        s = draw_setup(PLAYERS[:2], seed=seed, races=False, objectives=False, catalogue=shipped,
                       two_player="revival")
        o = s["options"]
        # no Revival basic location is named in the shipped catalogue: all 10 come from the box
        assert o["basic_locations"] == [] and o["basic_locations_from_box"] == {"revival": 10}
        assert o["first_active"] in PLAYERS[:2]
        assert o["reactor_supply"] == 8 and o["two_player"] == "revival"
    firsts = {draw_setup(PLAYERS[:2], seed=s, races=False, objectives=False, catalogue=shipped,
                         two_player="revival")["options"]["first_active"] for s in range(20)}
    assert firsts == set(PLAYERS[:2])


def test_revival_2p_uses_named_revival_basics_when_known():
    extra = parse_entries([{"name": f"Fixture: revival basic {i}", "types": None, "cost": None,
                            "energy": None, "vp": None, "max": None, "abilities": None,
                            "set": "revival", "kind": "basic", "copies": 4} for i in range(15)])
    cat = Catalogue.shipped().overlay(extra)
    o = draw_setup(PLAYERS[:2], seed=9, races=False, objectives=False, catalogue=cat,
                   two_player="revival")["options"]
    assert len(o["basic_locations"]) == 10 and "basic_locations_from_box" not in o
    assert all(b.startswith("Fixture: revival basic") for b in o["basic_locations"])


def test_no_basic_location_draw_for_3_4_players(shipped):
    for n in (2, 3, 4):
        o = draw_setup(PLAYERS[:n], seed=1, races=False, objectives=False, catalogue=shipped)["options"]
        assert "basic_locations" not in o and "first_active" not in o


def test_races_and_objectives_off(shipped):
    s = draw_setup(PLAYERS[:3], seed=1, races=False, objectives=False, catalogue=shipped)
    assert s["races"] == {} and s["objectives"] == [] and "secret_objectives" not in s


def test_the_draw_is_a_valid_record_setup(shipped):
    for n, kw in [(2, {}), (2, {"two_player": "revival"}), (3, {"mode": "aggressive"}), (5, {}),
                  (6, {"all_in": True})]:
        s = draw_setup(PLAYERS[:n], seed=42, races=True, objectives=True, catalogue=shipped, **kw)
        setup = Setup.from_dict(s)
        assert setup.seed == setup.draw_seed == 42
        assert setup.options["reactor_supply"] == deck_composition(n, **kw).reactor_supply


@pytest.mark.parametrize("bad", [dict(seed="1"), dict(seed=True), dict(players=["A", "a"]),
                                 dict(players=["A"]), dict(players=["A", ""])])
def test_bad_draw_arguments(bad, shipped):
    kw = dict(players=PLAYERS[:3], seed=1)
    kw.update(bad)
    with pytest.raises(ValueError):
        draw_setup(kw.pop("players"), races=True, objectives=True, catalogue=shipped, **kw)


def test_composition_is_a_dataclass():
    assert isinstance(deck_composition(3), Composition)


def test_revival_first_active_is_the_engines(shipped):
    for seed in range(6):
        s = draw_setup(PLAYERS[:2], seed=seed, races=False, objectives=False, catalogue=shipped,
                       two_player="revival")
        setup = Setup.from_dict(s)
        first = s["options"]["first_active"]
        assert setup.active_player(1) == first and setup.active_player(3) == first
        assert setup.active_player(2) != first
