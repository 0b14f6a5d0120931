"""Issue 10 at the engine level: what a real table hit through the page.

- a record's embedded copy of a card (written while its values were unknown)
  must not hide the values the players typed since: a ``null`` never
  overrides a known value (item 1);
- the engine says what an action still needs (choices, manual VP, energy
  payer, printed values) *before* it checks the rest, so School of Alien
  Cultures and manual-VP cards can be built (item 2);
- values and manual entries saved by several pages are merged, never
  overwritten (item 4);
- the final screen is told every missing value at once (item 1);
- typing a card's name suggests location cards only ("Spa" is not a race).

Cards invented here are called "Fixture: ..." and live in the record's own
``cards``: no real card's printed number is used or asserted.  School of
Alien Cultures' ability (pay 1 credit or lose 2 VP) is the rulebook's.
"""
from __future__ import annotations

import pytest
import yaml

from companion import Game, IllegalAction
from companion.ats.catalogue import Catalogue, load_user_cards, parse_card, save_user_card
from companion.core.paths import user_catalogue_path
from companion.table.store import Store

PLAYERS = ["Ana", "Ben", "Cleo"]
PAY_OR_LOSE = {"name": "Fixture: pay or lose", "types": ["diplomatic"], "cost": 0, "energy": 0,
               "vp": 0, "max": "none",
               "abilities": [{"when": "immediate", "choice": "pay_or_lose", "pay": 1, "lose": 2}]}
MANUAL = {"name": "Fixture: manual", "types": ["business"], "cost": 0, "energy": 0, "vp": 0,
          "max": "none", "abilities": [{"when": "immediate", "manual": True}]}
MANUAL_END = {"name": "Fixture: manual at the end", "types": ["military"], "cost": 0, "energy": 0,
              "vp": 0, "max": "none", "abilities": [{"when": "end", "manual": True}]}
ONE_ENERGY = {"name": "Fixture: one energy", "types": ["administrative"], "cost": 0, "energy": 1,
              "vp": 0, "max": "none", "abilities": []}


def game(**setup):
    # setups with fewer objectives than B 3 draws: fixtures, so book_setup=False
    return Game({"players": PLAYERS, **setup}, cards=[PAY_OR_LOSE, MANUAL, MANUAL_END, ONE_ENERGY],
                book_setup=False)


# ---------------------------------------------------------------- item 1: null never wins
def test_a_records_null_copy_of_a_race_does_not_hide_the_players_values():
    """Before: the record's embedded Sheptas (every value null) won over the
    player's catalogue, so the final table could never appear."""
    rec = Game({"players": PLAYERS, "races": {"Ana": "Sheptas"}}).to_record()
    embedded = next(c for c in rec["cards"] if c["name"] == "Sheptas")
    assert embedded["abilities"] is None          # what a record written during play holds
    typed = parse_card({"name": "Sheptas", "category": "race",
                        "abilities": [{"when": "end", "manual": True}]})
    save_user_card(typed)
    g = Game.from_record(rec)
    assert g.catalogue.get("Sheptas").abilities == typed.abilities
    # and the record written now carries the typed values to any other machine
    again = next(c for c in g.to_record()["cards"] if c["name"] == "Sheptas")
    assert again["abilities"] == [{"when": "end", "manual": True}]


def test_a_known_value_in_the_record_wins_and_its_nulls_are_filled_value_by_value():
    base = Catalogue([parse_card({"name": "Fixture: x", "cost": 1, "energy": None, "vp": 2,
                                  "types": ["military"], "max": "none", "abilities": []})])
    over = parse_card({"name": "Fixture: x", "cost": 3, "energy": 1, "vp": None})
    got = base.overlay([over]).get("Fixture: x")
    assert (got.cost, got.energy, got.vp, got.types, got.max, got.abilities) == \
        (3, 1, 2, ("military",), "none", ())


def test_nulls_inside_an_ability_are_filled_from_the_known_layer():
    known = parse_card({"name": "Fixture: r", "category": "race",
                        "abilities": [{"when": "end", "per": "reactor", "vp": 2}]})
    embedded = parse_card({"name": "Fixture: r", "category": "race",
                           "abilities": [{"when": "end", "per": "reactor", "vp": None}]})
    assert Catalogue([known]).overlay([embedded]).get("Fixture: r").abilities[0]["vp"] == 2


def test_importing_my_cards_never_erases_a_known_value(tmp_path):
    save_user_card(parse_card({"name": "Fixture: y", "cost": 2, "energy": 0, "vp": 1}))
    f = tmp_path / "friend.yaml"
    f.write_text(yaml.safe_dump([{"name": "Fixture: y", "cost": None, "energy": 0, "vp": 4}]))
    from companion.ats.catalogue import import_user_catalogue
    import_user_catalogue(f)
    (card,) = load_user_cards()
    assert (card.cost, card.vp) == (2, 4)
    assert user_catalogue_path().exists()


# ------------------------------------------------------- item 2: what an action still needs
def test_school_like_choice_is_asked_before_the_action_is_checked():
    g = game()
    action = {"player": "Ana", "do": "build", "card": "Fixture: pay or lose", "at": [0, 1]}
    with pytest.raises(IllegalAction) as e:       # what the page used to do first
        g.check(action)
    assert e.value.rule == "choice"
    needs = g.needs(action)
    assert needs == {"choices": {"card": "Fixture: pay or lose", "players": ["Ben", "Cleo"],
                                 "options": [("pay", "pay 1 credit"), ("lose", "lose 2 VP")]}}
    g.push({**action, "choices": {"Ben": "pay", "Cleo": "lose"}})
    g.push({"player": "Ben", "do": "discard", "card": "Garden"})
    g.push({"player": "Cleo", "do": "discard", "card": "Garden"})
    st = g.state
    # Ben: 10 + 3 for his discard - 1 paid; Cleo had no VP to lose (VP never go below 0)
    assert (st.players["Ben"].credits, st.players["Cleo"].vp) == (12, 0)
    assert any(l.source == "Fixture: pay or lose" and "chose to lose VP" in l.rule
               for l in st.players["Cleo"].ledger)


def test_a_manual_vp_card_is_buildable_and_its_vp_typed():
    g = game()
    action = {"player": "Ana", "do": "build", "card": "Fixture: manual", "at": [1, 0]}
    assert set(g.needs(action)) == {"manual_vp"}
    g.push({**action, "manual_vp": 3})
    assert g.state.players["Ana"].vp == 3


def test_needs_names_the_rule_of_an_illegal_cell_whatever_the_answers():
    g = game()
    with pytest.raises(IllegalAction) as e:
        g.needs({"player": "Ana", "do": "build", "card": "Fixture: pay or lose", "at": [2, 2]})
    assert e.value.rule == "not-adjacent"
    assert "Fixture: pay or lose" in str(e.value) and "[2, 2]" in str(e.value)


def test_needs_asks_for_unknown_printed_values_first_and_changes_nothing():
    g = game()
    before = g.to_record()
    assert g.needs({"player": "Ana", "do": "build", "card": "Garden", "at": [0, 1]}) == \
        {"values": {"card": "Garden", "fields": ["cost", "energy", "vp", "abilities"]}}
    # a cell no values could make legal is refused with its rule, not with a form
    with pytest.raises(IllegalAction) as e:
        g.needs({"player": "Ana", "do": "build", "card": "Garden", "at": [0, 0]})
    assert e.value.rule == "occupied"
    assert g.to_record() == before


def test_the_energy_payer_choice_comes_from_the_engine():
    g = game()
    g.push({"player": "Ana", "do": "reactor", "card": "Garden", "at": [0, 1]})
    for p in ("Ben", "Cleo"):
        g.push({"player": p, "do": "discard", "card": "Garden"})
    need = g.needs({"player": "Ana", "do": "build", "card": "Fixture: one energy", "at": [1, 0]})
    opts = need["energy_from"]
    assert sorted(o["energy_from"] for o in opts) == [[[0, 0]], [[0, 1]]]
    assert [o["default"] for o in opts].count(True) == 1
    # given explicitly: nothing left to ask
    assert g.needs({"player": "Ana", "do": "build", "card": "Fixture: one energy", "at": [1, 0],
                    "energy_from": [[0, 1]]}) == {}


def test_needs_refuses_a_player_out_of_turn_with_the_rule():
    g = game()
    g.push({"player": "Ana", "do": "discard", "card": "Garden"})
    with pytest.raises(IllegalAction) as e:
        g.needs({"player": "Ana", "do": "build", "card": "Fixture: manual", "at": [1, 0]})
    assert e.value.rule == "wrong-player"


# ---------------------------------------------------- item 1: the final screen's list
def _finished(g):
    while not g.state.finished:
        for p in g.waiting_in_order():
            g.push({"player": p, "do": "discard", "card": "Garden"})
    return g


def test_final_needs_lists_every_missing_value_at_once():
    g = game(races={"Ana": "Sheptas", "Ben": "Humareen"}, objectives=["Accelerated Construction"])
    g.push({"player": "Ana", "do": "build", "card": "Fixture: manual at the end", "at": [0, 1]})
    _finished(g)
    needs = g.final_needs()
    assert needs["blocked"] == []
    assert {v["card"] for v in needs["values"]} == {"Sheptas", "Humareen"}
    assert {(m["kind"], m["source"]) for m in needs["manual"]} == {
        ("ability", "Fixture: manual at the end"), ("objective", "Accelerated Construction")}
    # the players type them: the final table appears
    for race in ("Sheptas", "Humareen"):
        g.define(parse_card({"name": race, "category": "race", "abilities": []}))
    g.manual += [{"source": "Fixture: manual at the end", "player": "Ana", "at": [0, 1], "vp": 4},
                 {"source": "Accelerated Construction", "player": "Ben", "vp": 3}]
    assert g.final_needs() == {"blocked": [], "values": [], "manual": []}
    table = g.score().table.set_index("player")
    assert table.loc["Ana", "end_abilities"] == 4 and table.loc["Ben", "objectives"] == 3


def test_final_needs_is_empty_during_the_game():
    assert game(races={"Ana": "Sheptas"}).final_needs() == {"blocked": [], "values": [],
                                                             "manual": []}


# ------------------------------------------------------ item 4: several pages, one store
def test_card_values_saved_by_two_pages_are_merged(tmp_path):
    path = tmp_path / "games.sqlite"
    page1, page2 = Store(path), Store(path)
    gid = page1.create(game().to_record())
    page1.merge_cards(gid, [{"name": "Fixture: typed on page 1", "cost": 1, "energy": 0,
                             "vp": 0, "abilities": []}])
    # page 2 never saw page 1's card; before, its save replaced the whole list
    page2.merge_cards(gid, [{"name": "Fixture: typed on page 2", "cost": 2, "energy": 0,
                             "vp": 1, "abilities": []}])
    names = {c["name"] for c in Store(path).load(gid)["cards"]}
    assert {"Fixture: typed on page 1", "Fixture: typed on page 2", "Fixture: manual"} <= names
    # a null from a page that is behind never erases a value another page typed
    page2.merge_cards(gid, [{"name": "Fixture: typed on page 1", "cost": None, "energy": 0,
                             "vp": 5}])
    card = next(c for c in Store(path).load(gid)["cards"]
                if c["name"] == "Fixture: typed on page 1")
    assert (card["cost"], card["vp"]) == (1, 5)


def test_manual_entries_saved_by_two_pages_are_merged(tmp_path):
    path = tmp_path / "games.sqlite"
    page1, page2 = Store(path), Store(path)
    gid = page1.create(game().to_record())
    page1.add_manual(gid, [{"source": "Accelerated Construction", "player": "Ana", "vp": 3}])
    page2.add_manual(gid, [{"source": "Fixture: manual at the end", "player": "Ben",
                            "at": [0, 1], "vp": 2}])
    got = Store(path).load(gid)["manual"]
    assert len(got) == 2
    # typing the same entry again corrects it; "nobody" replaces a claim
    page2.add_manual(gid, [{"source": "Accelerated Construction", "player": None, "vp": 0}])
    got = Store(path).load(gid)["manual"]
    assert {(m["source"], m["player"]) for m in got} == {
        ("Accelerated Construction", None), ("Fixture: manual at the end", "Ben")}


# ------------------------------------------------------------------ typing a card name
@pytest.mark.parametrize("typed, first", [("Holo", "Holographic Display Area"),
                                          ("holographic d", "Holographic Display Area"),
                                          ("Gardn", "Garden")])
def test_a_partly_typed_name_suggests_location_cards(typed, first):
    assert Catalogue.default().suggest(typed)[0] == first


def test_suggestions_never_offer_a_race_or_an_objective():
    cat = Catalogue.default()
    for typed in ("Spa", "Shep", "Sheptas", "Accel"):
        assert not {cat.get(n).category for n in cat.suggest(typed)} - {"location", "conflict"}


def test_an_ability_typed_in_another_shape_replaces_the_unknown_one_whole():
    """Humareen's shipped ability is a VP table nobody has typed (null); a player
    who types it as "N per type" gets exactly that, never a mix of both."""
    shipped = Catalogue.shipped().get("Humareen")
    assert shipped.abilities[0]["table"] is None
    typed = parse_card({"name": "Humareen", "category": "race",
                        "abilities": [{"when": "end", "per": "distinct_type", "vp": 2}]})
    for layers in ([shipped, typed], [typed, shipped]):      # either layer on top
        got = Catalogue([layers[0]]).overlay([layers[1]]).get("Humareen")
        assert got.abilities == typed.abilities
