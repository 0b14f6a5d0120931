"""Issue 53: the Revival advisors' two-sided cards and the Bureau, as shapes the players
type once (docs/modes.md "Advisors", docs/catalogue.md).

The books' sentences:

- R 4: "Some of the Advisors have an ability written on both sides of the card. In these
  cases, one side is for use in 2-player games, while the other one is for games with 3
  or more players."
- R 4: "If the Advisor is towards one of the 2 players, that player gets the special
  bonus listed on the Advisor card." and "he may announce it and gain 1 VP instead".
- R FAQ, COMMERCIAL ZONE: "What happens when Commercial Zone is built adjacent to a Power
  Reactor or a Bureau from Ambassadors? Power Reactors have a cost of 1. The Bureaus have
  a cost of 0."

No source gives an advisor card's name or bonus text, nor any other Bureau value: the
advisor names and texts here are fixtures, as players type them from their cards.
"""
from __future__ import annotations

import pytest

from companion.ats import advisors
from companion.ats.catalogue import (Catalogue, export_user_catalogue, import_user_catalogue,
                                     load_user_cards, merge_card, parse_card, save_user_card)
from companion.ats.game import Game
from companion.core.errors import CatalogueError, UnknownCardValues
from companion.table.store import Store
from companion.ui.app import App
from widgetkit import find

ADVISOR = "Fixture: the Quartermaster"          # a fixture: the books name no advisor card
TEXT_3 = "Fixture text: +2 credits"             # as a player types it from the card
TEXT_2 = "Fixture text: +1 VP per reactor"
THREE = ["Ana", "Ben", "Cy"]

R4_SIDES = ("one side is for use in 2-player games, while the other one is for games "
            "with 3 or more players")
FAQ_BUREAU = "The Bureaus have a cost of 0."


# -- the Bureau ------------------------------------------------------------------------
def test_the_bureau_costs_0_and_nothing_else_is_known():
    # R FAQ, COMMERCIAL ZONE: "... a Power Reactor or a Bureau from Ambassadors? Power
    # Reactors have a cost of 1. The Bureaus have a cost of 0."
    with open("/work/shared/rules/among-the-stars-revival-rulebook.md", encoding="utf-8") as f:
        book = f.read()
    if FAQ_BUREAU not in book:                        # the shared copy may be absent
        pytest.skip("the Revival rulebook is not on this machine")
    bureau = Catalogue.shipped()["Bureau"]
    assert bureau.category == "location" and bureau.cost == 0
    assert bureau.extra["set"] == "ambassadors" and bureau.extra["source"] == "R FAQ"
    assert FAQ_BUREAU in bureau.extra["notes"]
    assert (bureau.types, bureau.energy, bureau.vp, bureau.max, bureau.abilities) == \
        (None, None, None, None, None)
    assert bureau.extra.get("kind") is None and bureau.copies is None
    assert bureau.unknown_for_build() == ["energy", "vp", "abilities"]   # cost is known


def test_building_a_bureau_asks_the_values_no_book_gives():
    g = Game({"players": THREE})
    with pytest.raises(UnknownCardValues) as e:
        g.push({"player": "Ana", "do": "build", "card": "Bureau", "at": [0, 1]})
    assert e.value.card == "Bureau"
    assert set(e.value.fields) == {"energy", "vp", "abilities"}       # not the cost: 0
    assert len(g.state.players["Ana"].station.cells) == 1              # nothing built


def test_a_typed_bureau_costs_0_credits_when_built():
    # energy, VP and abilities as a player would type them from the card: fixtures, not
    # the Bureau's (no source gives them); only its cost, 0, is the book's
    typed = parse_card({"name": "Bureau", "energy": 0, "vp": 1, "abilities": []})
    g = Game({"players": THREE}, catalogue=Catalogue.shipped().overlay([typed]))
    credits = g.state.players["Ana"].credits
    g.push({"player": "Ana", "do": "build", "card": "Bureau", "at": [0, 1]})
    assert g.state.players["Ana"].credits == credits                   # cost 0 (R FAQ)
    assert g.catalogue["Bureau"].cost == 0 and g.catalogue["Bureau"].vp == 1


# -- advisor cards: the shape ------------------------------------------------------------
@pytest.mark.parametrize("players,side", [(2, "2 players"), (3, "3+ players"),
                                          (4, "3+ players"), (6, "3+ players")])
def test_the_side_in_play_follows_the_player_count(players, side):
    # R 4: "one side is for use in 2-player games, while the other one is for games with
    # 3 or more players"
    assert advisors.side_in_play(players) == side


def test_no_advisor_card_is_shipped_and_its_text_is_never_invented():
    shipped = Catalogue.shipped()
    assert shipped.names("advisor") == []
    assert advisors.bonus_text(shipped, ADVISOR, 3) is None
    assert advisors.bonus_text(shipped, "", 3) is None
    assert advisors.bonus_text(shipped, "Garden", 3) is None           # a location: no bonus


def test_typed_once_kept_in_the_catalogue_and_shown_for_its_side():
    card = advisors.typed_side(Catalogue.shipped(), ADVISOR, 3, "  " + TEXT_3 + "  ")
    assert card.category == "advisor"
    assert card.extra["sides"] == {"3+ players": TEXT_3}
    assert card.extra["source"] == "typed by the players"
    save_user_card(card)
    cat = Catalogue.default()
    assert advisors.bonus_text(cat, ADVISOR, 3) == TEXT_3
    assert advisors.bonus_text(cat, ADVISOR, 5) == TEXT_3
    assert advisors.bonus_text(cat, ADVISOR, 2) is None              # the other side: not typed
    # the other side typed later (a 2-player game): both kept, value by value
    save_user_card(advisors.typed_side(cat, ADVISOR, 2, TEXT_2))
    cat = Catalogue.default()
    assert advisors.bonus_text(cat, ADVISOR, 2) == TEXT_2
    assert advisors.bonus_text(cat, ADVISOR, 3) == TEXT_3
    assert cat[ADVISOR].unknown_all() == []          # never listed as a card to finish


def test_a_one_sided_card_is_typed_once_for_both_sides():
    card = advisors.typed_side(Catalogue.shipped(), ADVISOR, 2, TEXT_2, both_sides=True)
    cat = Catalogue.shipped().overlay([card])
    assert advisors.bonus_text(cat, ADVISOR, 2) == advisors.bonus_text(cat, ADVISOR, 4) == TEXT_2


def test_a_null_side_never_hides_a_typed_one():
    a = parse_card({"name": ADVISOR, "category": "advisor", "sides": {"3+ players": TEXT_3}})
    b = parse_card({"name": ADVISOR, "category": "advisor",
                    "sides": {"2 players": TEXT_2, "3+ players": None}})
    assert merge_card(a, b).extra["sides"] == {"2 players": TEXT_2, "3+ players": TEXT_3}
    assert merge_card(b, a).extra["sides"] == {"2 players": TEXT_2, "3+ players": TEXT_3}


def test_shared_through_the_catalogue_export_and_import(tmp_path):
    save_user_card(advisors.typed_side(Catalogue.shipped(), ADVISOR, 3, TEXT_3))
    out = export_user_catalogue(tmp_path / "cards.yaml")
    assert "3+ players" in out.read_text(encoding="utf-8")
    mine = tmp_path / "other-club.yaml"
    assert import_user_catalogue(out, mine) == [ADVISOR]
    (card,) = load_user_cards(mine)
    assert card.category == "advisor" and card.extra["sides"] == {"3+ players": TEXT_3}


@pytest.mark.parametrize("raw,key", [
    ({"sides": {"4 players": "x"}}, "sides"),
    ({"sides": {"2 players": ""}}, "sides.2 players"),
    ({"sides": {"2 players": "a\nb"}}, "sides.2 players"),
    ({"sides": {"2 players": "x" * 301}}, "sides.2 players"),
    ({"sides": "x"}, "sides"),
    ({"vp": 2}, "vp"),
    ({"types": ["military"]}, "types"),
])
def test_an_advisor_card_is_a_name_and_two_sides_only(raw, key):
    with pytest.raises(CatalogueError) as e:
        parse_card({"name": ADVISOR, "category": "advisor", **raw})
    assert f"key '{key}'" in str(e.value)


def test_sides_belong_to_advisors_only():
    with pytest.raises(CatalogueError, match="only an advisor card"):
        parse_card({"name": "Garden", "sides": {"2 players": "x"}})


@pytest.mark.parametrize("name,text,words", [
    ("", TEXT_3, "name the advisor card"),
    (ADVISOR, "   ", "type the bonus text"),
    (ADVISOR, "x" * 301, "at most 300"),
    ("Garden", TEXT_3, "'Garden' is already a location card"),   # never replaces a card
])
def test_typing_a_text_is_refused_in_one_line(name, text, words):
    with pytest.raises(CatalogueError) as e:
        advisors.typed_side(Catalogue.shipped(), name, 3, text)
    assert words in str(e.value) and "\n" not in str(e.value)


# -- the screen where an advisor is settled ------------------------------------------------
def _tiles(players, advisor=ADVISOR):
    if len(players) == 2:
        return [{"name": "T1", "between": players, "actions": ["reactor"], "slots": 1,
                 "advisor": advisor},
                {"name": "T2", "between": players, "actions": ["conflict"], "slots": 1}]
    ring = [{"name": f"{a}{b}", "between": [a, b], "actions": ["build"], "slots": 1}
            for a, b in zip(players, players[1:] + players[:1])]
    ring[0].update(actions=["reactor"], advisor=advisor)     # Ana and the next player
    return ring


def _game_at_a_round_end(store, players) -> str:
    """Ana builds a reactor, the others discard until the round ends: the advisor of the
    tile that lists "reactor" leans to Ana (R 4) and waits to be settled."""
    g = Game({"players": players, "options": {"advisors": _tiles(players)}})
    g.push({"player": "Ana", "do": "reactor", "card": "Garden", "at": [0, 1]})
    while not g.unsettled_advisors():
        for p in list(g.state.waiting):
            g.push({"player": p, "do": "discard", "card": "Garden"})
    assert list(g.unsettled_advisors().values()) == ["Ana"]
    return store.create(g.to_record())


def _page(store, query):
    app = App(Store(store.path))
    app.apply_query(query)
    return app


def _html(root) -> str:
    out = []

    def walk(x):
        if type(x).__name__ == "HTML":
            out.append(x.value)
        for k in getattr(x, "children", ()):
            walk(k)
    walk(root)
    return "\n".join(out)


def test_the_text_is_typed_once_on_the_settling_page_and_shown_after(store):
    """R 4: "that player gets the special bonus listed on the Advisor card" -- the page
    shows that bonus once a player has typed it; until then one optional field."""
    gid = _game_at_a_round_end(store, THREE)
    ben = _page(store, "seat=Ben")
    assert not find(ben.root, "advisor-bonus-text")          # Ana's advisor: not Ben's page
    ana = _page(store, "seat=Ana")
    (field,) = find(ana.root, "advisor-bonus-text")
    assert not find(ana.root, "advisor-bonus")
    field.value = TEXT_3
    vp = ana.ats.game.state.players["Ana"].vp
    (decline,) = find(ana.root, "advisor-decline")
    decline.click()
    g = Game.from_record(store.load(gid), trusted=True)
    assert g.unsettled_advisors() == {} and g.state.players["Ana"].vp == vp + 1
    # kept: the player's catalogue and the game's cards (every page of the game sees it)
    (card,) = [c for c in load_user_cards() if c.name == ADVISOR]
    assert card.extra["sides"] == {"3+ players": TEXT_3}
    assert any(c["name"] == ADVISOR for c in store.load(gid)["cards"])
    # the next game with that advisor shows it, without asking
    gid2 = _game_at_a_round_end(store, ["Ana", "Ben", "Cy", "Di"])
    ana2 = _page(store, "seat=Ana")
    assert ana2.ats.gid == gid2
    assert not find(ana2.root, "advisor-bonus-text")
    (shown,) = find(ana2.root, "advisor-bonus")
    assert TEXT_3 in shown.value and "3+ players" in shown.value
    # a 2-player game uses the other side: not typed yet, so the field is offered
    _game_at_a_round_end(store, ["Ana", "Ben"])
    ana3 = _page(store, "seat=Ana")
    assert find(ana3.root, "advisor-bonus-text") and not find(ana3.root, "advisor-bonus")


def test_settling_never_waits_for_the_text_and_it_is_escaped(store):
    gid = _game_at_a_round_end(store, THREE)
    host = _page(store, "")
    assert host.ats.gid == gid
    (take,) = find(host.root, "advisor-take")
    take.click()                                              # nothing typed: settled
    assert Game.from_record(store.load(gid), trusted=True).unsettled_advisors() == {}
    assert load_user_cards() == []                            # nothing invented, nothing kept
    # a text with markup, typed on the next game's page, is shown as text
    save_user_card(advisors.typed_side(Catalogue.shipped(), ADVISOR, 3, "<b>+2</b> credits"))
    _game_at_a_round_end(store, THREE)
    page = _page(store, "")
    (shown,) = find(page.root, "advisor-bonus")
    assert "&lt;b&gt;+2&lt;/b&gt; credits" in shown.value and "<b>+2" not in shown.value
