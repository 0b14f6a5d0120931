"""Issue 21, the box's own contents: objectives typed once from the physical card and
drawn, Qualeen's secret objective asked and scored at the final table, a card's number
of copies (typed by the players) refusing a build past it, and a cost printed "X".

Every objective and every number of copies below is a TEST value typed the way a player
types it from a physical card (the books name one objective and give only totals); none
of them is shipped data."""
from __future__ import annotations

import pytest

from companion import Game
from companion.ats import decks
from companion.ats.catalogue import (Catalogue, X, X_VALUE, make_objective, objective_unknowns,
                                     parse_card)
from companion.ats.scoring import SECRET, manual_requests, secret_objectives
from companion.core.errors import CatalogueError, IllegalAction, MissingEntry
from companion.core.rules import Rule

PLAYERS = ["Ana", "Ben", "Cy"]
# test objectives, typed as a player would type them from cards (not the books' numbers)
T_REACTORS = make_objective("Test: most reactors", measure="reactor", most=True, vp=4)
T_CREDITS = make_objective("Test: least credits", measure="credit", most=False, vp=3)
T_MILITARY = make_objective("Test: most military", measure="station_location",
                            types=["military"], vp=5)
T_CLAIMED = make_objective("Test: claimed at the table", measure="manual")
TYPED = [T_REACTORS, T_CREDITS, T_MILITARY, T_CLAIMED]


def _catalogue(*extra):
    return Catalogue.shipped().overlay([*TYPED, *extra])


# -- objectives typed once ------------------------------------------------------------
def test_an_objective_is_typed_with_its_measure_most_or_least_and_vp():
    assert T_MILITARY.to_dict()["most"] == {"per": "station_location", "types": ["military"]}
    assert T_CREDITS.to_dict()["least"] == {"per": "credit"} and T_CREDITS.vp == 3
    assert objective_unknowns(T_MILITARY) == []
    assert objective_unknowns(T_CLAIMED) == []           # claimed at the table
    # the shipped one the books only name: what it measures and its VP are still unknown
    shipped = Catalogue.shipped()["Accelerated Construction"]
    assert objective_unknowns(shipped) == ["what it measures", "vp"]
    # typed over the shipped entry, value by value
    typed = make_objective("Accelerated Construction", measure="manual")
    merged = Catalogue.shipped().overlay([typed])["Accelerated Construction"]
    assert objective_unknowns(merged) == [] and merged.extra["source"]


def test_a_wrong_objective_is_refused_with_a_message_naming_the_key():
    with pytest.raises(CatalogueError, match="measure"):
        make_objective("Test: bad", measure="happiness", vp=2)
    with pytest.raises(CatalogueError, match="vp"):
        make_objective("Test: bad", measure="credit", vp=-1)


def test_a_3_player_game_draws_3_typed_objectives_and_no_secret_one():
    # B 3: "shuffle the Objective Cards and randomly draw as many Objectives as the
    # number of players"
    cat = _catalogue()
    got = decks.complete_choices(PLAYERS, races={"Cy": "Qualeen"}, use_races=True,
                                 use_objectives=True, catalogue=cat, seed=7)
    assert len(got["objectives"]) == 3 and len(set(got["objectives"])) == 3
    objectives = set(cat.names("objective"))
    assert set(got["objectives"]) <= objectives
    # the Qualeen draws the physical secret objective and keeps it: nothing drawn here,
    # Cy's page asks which card it is (issue 36; tests/test_qualeen_secret.py)
    assert got["races"]["Cy"] == "Qualeen"
    assert got["secret_objectives"] == {}
    # the seeded setup draw names them too (no "take from the box" left for 5 of 8 cards)
    d = decks.draw_setup(PLAYERS, seed=7, catalogue=cat)
    assert len(d["objectives"]) + d["options"].get("objectives_from_box", 0) == 3


# -- Qualeen's secret objective -------------------------------------------------------
def _finished(setup_extra: dict, cat: Catalogue, build=True) -> Game:
    # book_setup=False: these fixtures name fewer objectives than players (issue 21 check)
    g = Game({"players": PLAYERS, **setup_extra}, catalogue=cat, book_setup=False)
    first = True
    while not g.finished:
        for p in g.state.waiting:
            if build and first and p == "Cy":
                g.push({"player": "Cy", "do": "reactor", "card": "Garden", "at": [0, 1]})
                first = False
            else:
                g.push({"player": p, "do": "discard", "card": "Garden"})
    return g


def test_qualeen_secret_objective_not_recorded_at_setup_is_asked_not_skipped():
    # B FAQ, Qualeen: "If I draw the "Accelerated Construction" Objective, do I still
    # reveal it at the end of the game?" -- the Qualeen's extra objective is revealed at
    # the end; a game whose setup could not record it (none left in the catalogue, or
    # taken from the box) must ask for it, never score without a word.
    cat = _catalogue()
    g = _finished({"races": {"Cy": "Qualeen"}, "objectives": ["Test: least credits"]}, cat)
    reqs = manual_requests(g)
    assert {"kind": "secret", "source": SECRET, "player": "Cy", "race": "Qualeen"} in reqs
    with pytest.raises(MissingEntry, match="secret objective of Cy"):
        g.score()
    # Cy reveals "most reactors": Cy built the only Power Reactor, so Cy claims it
    g.manual.append({"source": SECRET, "player": "Cy", "note": "Test: most reactors", "vp": 0})
    assert secret_objectives(g) == {"Cy": "Test: most reactors"}
    assert g.final_needs()["manual"] == []
    lines = g.score().lines
    got = lines[lines.source == "Test: most reactors (secret objective of Cy)"]
    assert list(got.player) == ["Cy"] and list(got.vp) == [4]
    # the record keeps the reveal: a replay scores the same
    again = Game.from_record(g.to_record(), catalogue=cat, trusted=True)   # the store's
    assert again.score().to_json() == g.score().to_json()


def test_secret_objective_only_its_owner_claims_and_none_left_is_an_answer():
    # B 6: "Each Objective can only be claimed by 1 player unless stated otherwise."
    cat = _catalogue()
    g = _finished({"races": {"Ana": "Qualeen"}, "objectives": ["Test: least credits"]}, cat)
    g.manual.append({"source": SECRET, "player": "Ana", "note": "Test: most reactors", "vp": 0})
    lines = g.score().lines
    # Cy has the most reactors, not Ana: the secret objective gives nobody anything
    assert lines[lines.source.str.contains("secret objective")].empty
    g2 = _finished({"races": {"Ana": "Qualeen"}}, cat)
    g2.manual.append({"source": SECRET, "player": "Ana", "vp": 0})   # no card was left
    assert secret_objectives(g2) == {"Ana": None}
    g2.score()                                                     # nothing missing


def test_a_secret_objective_claimed_at_the_table_asks_who_and_vp():
    cat = _catalogue()
    g = _finished({"races": {"Cy": "Qualeen"}}, cat, build=False)
    g.manual.append({"source": SECRET, "player": "Cy", "note": "Test: claimed at the table",
                     "vp": 0})
    assert g.final_needs()["manual"] == [{"kind": "objective", "source": "Test: claimed at the "
                                          "table", "player": "Cy"}]
    g.manual.append({"source": "Test: claimed at the table", "player": "Cy", "vp": 6})
    lines = g.score().lines
    assert int(lines[lines.source.str.contains("secret objective of Cy")].vp.sum()) == 6


def test_a_claimed_objective_claimed_by_two_players_gives_the_bonus_to_nobody():
    # B 6: "Each Objective can only be claimed by 1 player unless stated otherwise. If 2
    # or more players are tied for any Objective, no bonus is given." (issue 36: both got
    # the bonus)
    cat = _catalogue()
    g = _finished({"objectives": ["Test: claimed at the table"]}, cat, build=False)
    g.manual.append({"source": "Test: claimed at the table", "player": "Ana", "vp": 5})
    g.manual.append({"source": "Test: claimed at the table", "player": "Ben", "vp": 5})
    lines = g.score().lines
    got = lines[lines.source == "Test: claimed at the table"]
    assert sorted(got.player) == ["Ana", "Ben"] and list(got.vp) == [0, 0]
    assert all("a tie gives the bonus to nobody (B 6)" in r for r in got.rule)
    # the same record read back (a file, the store) scores the same
    again = Game.from_record(g.to_record(), catalogue=cat, trusted=True)   # the store's
    assert again.score().to_json() == g.score().to_json()
    # one claim: its VP
    one = _finished({"objectives": ["Test: claimed at the table"]}, cat, build=False)
    one.manual.append({"source": "Test: claimed at the table", "player": "Ana", "vp": 5})
    lines = one.score().lines
    assert list(lines[lines.source == "Test: claimed at the table"].vp) == [5]
    # "unless stated otherwise": a card typed as claimable by several gives each claim
    shared = make_objective("Test: claimed at the table", measure="manual", shared=True)
    assert shared.to_dict()["shared"] is True
    cat2 = _catalogue(shared)
    g2 = _finished({"objectives": ["Test: claimed at the table"]}, cat2, build=False)
    g2.manual += [{"source": "Test: claimed at the table", "player": p, "vp": 5}
                  for p in ("Ana", "Ben")]
    lines = g2.score().lines
    got = lines[lines.source == "Test: claimed at the table"]
    assert sorted(got.player) == ["Ana", "Ben"] and list(got.vp) == [5, 5]
    with pytest.raises(CatalogueError, match="true or false"):
        parse_card({**shared.to_dict(), "shared": "yes"})


# -- copies ---------------------------------------------------------------------------
def test_a_build_past_the_copies_typed_is_refused_with_the_rule_copies():
    cat = Catalogue.shipped()
    school = cat["School of Alien Cultures"]
    # TEST values, as a player types them from the physical card and box (the card list
    # in card-names.csv gives 2 copies for this card; the test types its own number)
    typed = parse_card({**school.to_dict(), "cost": 1, "energy": 0, "vp": 1, "max": 1,
                        "copies": 2})
    g = Game({"players": PLAYERS}, catalogue=cat.overlay([typed]))
    choices = lambda me: {p: "pay" for p in PLAYERS if p != me}
    g.push({"player": "Ana", "do": "build", "card": typed.name, "at": [0, 1],
            "choices": choices("Ana")})
    g.push({"player": "Ben", "do": "build", "card": typed.name, "at": [0, 1],
            "choices": choices("Ben")})
    with pytest.raises(IllegalAction) as e:
        g.push({"player": "Cy", "do": "build", "card": typed.name, "at": [0, 1],
                "choices": choices("Cy")})
    assert e.value.rule == Rule.COPIES
    assert "the box holds 2 copies of 'School of Alien Cultures' and 2 are already built" \
        in str(e.value)
    assert g.legal_cells("Cy", typed.name) == []
    # copies nobody typed (null) check nothing: five builds of an untyped card pass
    assert cat["Minefield"].copies is None
    free = parse_card({"name": "Test card", "cost": 0, "energy": 0, "vp": 0, "max": "none",
                       "abilities": []})
    assert free.copies is None
    g = Game({"players": PLAYERS}, catalogue=cat.overlay([free]))
    for at in ([0, 1], [0, 2], [0, 3], [0, 4], [0, 5]):
        g.push({"player": "Ana", "do": "build", "card": "Test card", "at": at})
        for p in ("Ben", "Cy"):
            g.push({"player": p, "do": "discard", "card": "Garden"})
    assert g.state.players["Ana"].station.copies_of("Test card") == 5


# -- a cost printed "X" ---------------------------------------------------------------
def test_a_cost_printed_x_is_stored_as_printed_and_counts_1():
    # Revival FAQ (Commercial Zone): "In such a case, X is always considered to be 1."
    card = parse_card({"name": "Test X card", "cost": "x", "energy": 0, "vp": 0,
                       "abilities": []}, file="cards.yaml")
    assert card.cost == X == "X" and card.to_dict()["cost"] == "X"
    assert card.known("cost") == X_VALUE == 1
    with pytest.raises(CatalogueError, match="or X"):
        parse_card({"name": "Test bad", "cost": "Y"}, file="cards.yaml")
    g = Game({"players": PLAYERS}, catalogue=Catalogue.shipped().overlay([card]))
    before = g.state.players["Ana"].credits
    g.push({"player": "Ana", "do": "build", "card": "Test X card", "at": [0, 1]})
    assert g.state.players["Ana"].credits == before - 1
    assert g.state.players["Ana"].station.cells[(0, 1)].cost == "X"


# -- the page: the catalogue screen, the card form, the final table -------------------
def test_the_catalogue_screen_adds_objective_cards_one_after_the_other():
    from companion.ats.catalogue import load_user_cards
    from companion.ui.catalogue_screen import CatalogueScreen
    screen = CatalogueScreen()
    assert "1 of the box's 8" in screen.objectives.value       # the books name one
    form = screen.add_objective()
    assert screen.add_objective() is form                      # an empty form is reused
    form.name.value = "Test: most military"
    form.measure.value = "station_location"
    form.otype1.value = "military"
    form.most.value = "most"
    form.vp.value = "5"
    # the values preview speaks of this card
    assert "Test: most military: +5 VP to the single player with the most military " \
        "locations in the station" in form.preview_out.value
    form.vp._handle_custom_msg({"event": "submit"}, [])        # Enter saves
    mine = {c.name: c for c in load_user_cards()}
    assert mine["Test: most military"].extra["most"] == {"per": "station_location",
                                                         "types": ["military"]}
    assert "Saved the objective 'Test: most military'" in screen.message.value
    assert "2 of the box's 8" in screen.objectives.value
    nxt = screen.new_form
    assert nxt is not None and nxt is not form and nxt.name.value == ""   # the next card
    # a name already there is refused, never silently overwritten
    nxt.name.value = "test: most military"
    nxt.measure.value = "credit"
    nxt.vp.value = "1"
    nxt.save.click()
    assert "already in your catalogue" in nxt.message.value
    assert Catalogue.default()["Test: most military"].extra["most"]["per"] == "station_location"


def test_did_you_mean_is_a_button_that_opens_the_objective():
    from companion.ui.catalogue_screen import CatalogueScreen
    screen = CatalogueScreen()
    form = screen.add_objective()
    form.name.value = "accel"
    buttons = [b for b in form.did_you_mean.children if isinstance(b, __import__(
        "ipywidgets").Button)]
    assert [b.description for b in buttons] == ["Accelerated Construction"]
    buttons[0].click()
    assert screen.new_form is None and screen.selected == "Accelerated Construction"
    assert screen.form.is_objective
    assert "form-needed" in screen.form.measure._dom_classes


def test_the_card_form_takes_copies_and_a_cost_printed_x():
    from companion.ui.cardform import CardForm
    saved = []
    card = parse_card({"name": "Test: X module", "types": None, "cost": None, "energy": None,
                       "vp": None, "max": None, "abilities": None})
    form = CardForm(card, saved.append, lambda: None)
    form.cost.value = "x"
    form.energy.value = "0"
    form.vp.value = "2"
    form.copies.value = "3"
    assert "Test: X module: cost X (counts 1), energy 0, 2 VP" in form.preview_out.value
    assert "3 in the box" in form.preview_out.value
    form.save.click()
    assert saved[0].cost == "X" and saved[0].copies == 3
    assert saved[0].to_dict()["cost"] == "X"
    form.copies.value = "0"
    form.save.click()
    assert "Copies: must be 1 or more" in form.message.value and len(saved) == 1


def test_the_values_preview_names_the_card_edited_not_another():
    # issue 21: "while editing Vak it spoke of Zehuti"
    from companion.ui.cardform import CardForm
    vak = Catalogue.shipped()["Vak"]
    form = CardForm(vak, lambda c: None, lambda: None)
    form.ab1.choose("reactor")
    form.ab1.vp.value = "1"
    assert form.preview_out.value.startswith("<div class='form-preview-text'>Vak: ")
    assert "Zehuti" not in form.preview_out.value


def test_the_final_table_asks_the_secret_objective_then_scores_it(tmp_path):
    from companion.ats.catalogue import save_user_card
    from companion.table.store import Store
    from companion.ui.app import App
    for c in TYPED:
        save_user_card(c)
    g = _finished({"races": {"Cy": "Qualeen"}, "objectives": ["Test: least credits"]},
                  Catalogue.default())
    store = Store(tmp_path / "games.sqlite")
    try:
        store.create(g.to_record())
        app = App(store)
        form = next(x for x in _walk(app.ats.final_box) if "manual-form" in x._dom_classes)
        row = next(x for x in _walk(form) if "secret-objective-row" in x._dom_classes)
        assert "Secret objective of Cy (Qualeen)" in row.children[0].value
        which = next(x for x in _walk(row) if "secret-which" in x._dom_classes)
        # the objective cards not in play are offered, another card typed by its name
        # (issue 50), and "none was left"
        assert [v for _, v in which.options][1:] == [
            "Accelerated Construction", "Test: claimed at the table", "Test: most military", "Test: most reactors", "\t", ""]
        save = next(x for x in _walk(form) if "manual-save" in x._dom_classes)
        save.click()                                        # nothing chosen: refused
        assert "choose the objective card" in app.ats.final_msg.value
        which.value = "Test: most reactors"
        save.click()
        text = " ".join(x.value for x in _walk(app.ats.final_box) if hasattr(x, "value")
                        and isinstance(x.value, str))
        assert "Cy wins" in text and "Test: most reactors (secret objective of Cy)" in text
        rec = store.load(store.games()[0]["id"])
        assert {"source": SECRET, "player": "Cy", "note": "Test: most reactors",
                "vp": 0} in rec["manual"]
    finally:
        store.close()


def _walk(box):
    yield box
    for kid in getattr(box, "children", ()):
        yield from _walk(kid)


# -- types asked when they matter now -------------------------------------------------
def test_a_type_that_matters_now_is_asked_before_the_build():
    # R 4 (advisors): an Influence tile lists the actions its advisor reacts to, here
    # "build:military"; a location built with its type unknown cannot move it, so the
    # type is asked first (issue 21: U-Cannon was built "types not entered yet")
    from companion.ats.build import types_needed_now
    from companion.core.errors import UnknownCardValues
    untyped = parse_card({"name": "Test: untyped module", "types": None, "cost": 0,
                          "energy": 0, "vp": 0, "max": "none", "abilities": []})
    cat = Catalogue.shipped().overlay([untyped, *TYPED])
    tile = {"name": "Test tile", "between": ["Ana", "Ben"], "actions": ["build:military"],
            "slots": 2}
    g = Game({"players": PLAYERS, "options": {"advisors": [tile]}}, catalogue=cat,
             book_setup=False)
    with pytest.raises(UnknownCardValues) as e:
        g.push({"player": "Ana", "do": "build", "card": "Test: untyped module", "at": [0, 1]})
    assert e.value.fields == ["types"] and "advisor of 'Test tile'" in str(e.value)
    # Cy sits next to no tile: nothing reads the type now, the build goes on
    assert types_needed_now(cat, g.state, "Cy") is None
    g.push({"player": "Cy", "do": "build", "card": "Test: untyped module", "at": [0, 1]})
    # an objective in play that counts a type makes it matter for everyone
    g2 = Game({"players": PLAYERS, "objectives": ["Test: most military"]}, catalogue=cat,
              book_setup=False)
    assert types_needed_now(cat, g2.state, "Cy") == \
        "the objective 'Test: most military' counts location types"
    with pytest.raises(UnknownCardValues):
        g2.push({"player": "Cy", "do": "build", "card": "Test: untyped module", "at": [0, 1]})
    # with the type typed, the build is entered
    typed = parse_card({**untyped.to_dict(), "types": ["military"]})
    g3 = Game({"players": PLAYERS, "options": {"advisors": [tile]}}, book_setup=False,
              catalogue=cat.overlay([typed]))
    g3.push({"player": "Ana", "do": "build", "card": "Test: untyped module", "at": [0, 1]})


def test_a_preview_stopped_by_another_card_says_so_after_the_card_edited():
    from companion.core.errors import UnknownCardValues
    from companion.ui.cardform import CardForm

    def preview(card):
        raise UnknownCardValues("Zehuti", ["abilities"])
    form = CardForm(Catalogue.shipped()["Vak"], lambda c: None, lambda: None, preview=preview)
    form.ab1.choose("reactor")
    form.ab1.vp.value = "1"
    text = form.preview_out.value
    assert text.index("Vak: ") < text.index("also needs the values of &#x27;Zehuti&#x27;")
