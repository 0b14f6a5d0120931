"""The catalogue screen (companion.ui.catalogue_screen), driven in-process.

The player's catalogue lives in a temporary COMPANION_HOME holding invented
entries ("Fixture: ..." names) with null values.  The shipped real cards are
listed too (their values are unknown); no test types or asserts a value for
them.  Every number typed below is arbitrary and goes to a Fixture entry.
"""
from __future__ import annotations

from pathlib import Path

import ipywidgets as w
import pytest
import yaml

from companion.ats.catalogue import Card, Catalogue, load_user_cards
from companion.core.errors import CatalogueError
from companion.core.paths import user_catalogue_path
from companion.ui.catalogue_screen import CatalogueScreen, unknown_of

FIXTURES = [
    # unknown: listed
    {"name": "Fixture: Alpha Dock", "types": ["military"], "cost": None, "energy": None,
     "vp": None, "max": None, "abilities": None},
    {"name": "Fixture: Beta Lab", "types": None, "cost": 1, "energy": 0, "vp": 1,
     "max": "none", "abilities": []},                                   # only its types
    {"name": "Fixture: Gamma Hall", "types": ["business"], "cost": None, "energy": None,
     "vp": None, "max": None, "abilities": [{"when": "end", "per": "credit", "vp": None}]},
    {"name": "Fixture: Race", "category": "race", "abilities": None},
    {"name": "Fixture: Objective", "category": "objective", "abilities": None},
    {"name": "Fixture: <script>alert(1)</script>", "types": ["diplomatic"], "cost": None,
     "energy": None, "vp": None, "max": None, "abilities": None},
    # known: not listed (a race's cost/energy/VP are never asked)
    {"name": "Fixture: Known Module", "types": ["recreational"], "cost": 2, "energy": 1,
     "vp": 1, "max": 2, "abilities": []},
    {"name": "Fixture: Known Race", "category": "race", "abilities": []},
]
LISTED = ["Fixture: <script>alert(1)</script>", "Fixture: Alpha Dock", "Fixture: Beta Lab",
          "Fixture: Gamma Hall", "Fixture: Race", "Fixture: Objective"]


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    user_catalogue_path().write_text(yaml.safe_dump(FIXTURES, sort_keys=False),
                                     encoding="utf-8")
    return tmp_path


@pytest.fixture
def screen(home):
    saved = []
    s = CatalogueScreen(on_saved=saved.append)
    s.saved = saved
    s.filter.value = "fixture"
    return s


def names(screen) -> list[str]:
    return [c.name for c, _ in screen.entries]


def rows(screen) -> list[w.HBox]:
    return [r for r in screen.list.children if "catalogue-row" in r._dom_classes]


def row_of(screen, name: str) -> w.HBox:
    return next(r for r in rows(screen) if r.children[0].description == name)


def fill_location(form, cost="1", energy="0", vp="1"):
    form.cost.value, form.energy.value, form.vp.value = cost, energy, vp


def test_it_lists_every_unknown_entry_with_what_is_unknown(screen):
    assert names(screen) == LISTED       # location cards by name, then races, objectives
    unknown = dict((c.name, u) for c, u in screen.entries)
    assert unknown["Fixture: Beta Lab"] == ["types"]
    assert unknown["Fixture: Gamma Hall"] == ["cost", "energy", "vp", "ability 1 vp per unit",
                                             "max"]
    assert unknown["Fixture: Race"] == ["abilities"]
    assert unknown["Fixture: Objective"] == ["what it measures", "vp"]
    row = row_of(screen, "Fixture: Beta Lab")
    assert "catalogue-open" in row.children[0]._dom_classes
    assert row.children[1].value == "location card"
    assert row.children[2].value == "type(s)"
    assert row_of(screen, "Fixture: Gamma Hall").children[2].value == \
        "cost, energy, VP, ability 1 VP per unit, MAX"
    assert row_of(screen, "Fixture: Race").children[1].value == "race"


def test_the_count_is_every_unknown_entry(screen):
    cat = Catalogue.default()
    total = sum(1 for c in cat if unknown_of(c))
    assert len(screen.unknown) == total
    assert f"{total} entries still unknown ({len(LISTED)} shown)" in screen.count.value
    screen.filter.value = ""
    assert f"{total} entries still unknown</b>" in screen.count.value
    # the shipped (real) entries are listed with what is unknown, never with values
    assert any(c.category == "location" and not c.name.startswith("Fixture:")
               for c, _ in screen.entries)


def test_known_entries_are_not_listed(screen):
    assert "Fixture: Known Module" not in [c.name for c, _ in screen.unknown]
    assert "Fixture: Known Race" not in [c.name for c, _ in screen.unknown]


def test_the_filters(screen):
    screen.filter.value = "fixture dock"
    assert names(screen) == ["Fixture: Alpha Dock"]
    screen.filter.value = "fixture"
    screen.category.value = "race"
    assert names(screen) == ["Fixture: Race"]
    screen.category.value = "objective"
    assert names(screen) == ["Fixture: Objective"]
    screen.category.value = "location"
    assert names(screen) == LISTED[:4]
    screen.filter.value = "no such card at all"
    assert names(screen) == [] and rows(screen) == []


def test_selecting_opens_the_form_in_place(screen):
    row_of(screen, "Fixture: Beta Lab").children[0].click()
    assert screen.selected == "Fixture: Beta Lab"
    kids = list(screen.list.children)
    row = row_of(screen, "Fixture: Beta Lab")
    assert "catalogue-selected" in row._dom_classes
    assert kids[kids.index(row) + 1] is screen.form_box          # right under its row
    assert screen.form.box in screen.form_box.children
    assert screen.form.cost.value == "1"                          # known values prefilled
    assert "form-needed" in screen.form.type1._dom_classes        # the unknown one highlighted
    assert "form-needed" not in screen.form.cost._dom_classes


def test_save_writes_the_user_catalogue_and_moves_to_the_next(screen, home):
    screen.select("Fixture: Alpha Dock")
    form = screen.form
    fill_location(form, cost="2", energy="1", vp="3")
    form.ab1.filter.value = "adjacent location"
    form.ab1.vp.value = "1"
    form.save.click()
    # saved in the player's own catalogue, in the temporary COMPANION_HOME
    assert user_catalogue_path().parent == home
    mine = {c.name: c for c in load_user_cards()}
    card = mine["Fixture: Alpha Dock"]
    assert (card.cost, card.energy, card.vp, card.max, card.types) == (2, 1, 3, "none",
                                                                       ("military",))
    assert card.abilities == ({"when": "immediate", "per": "adjacent_location", "vp": 1},)
    raw = yaml.safe_load(user_catalogue_path().read_text())
    assert next(e for e in raw if e["name"] == "Fixture: Alpha Dock")["cost"] == 2
    # on_saved, the list, the count, the next entry
    assert [c.name for c in screen.saved] == ["Fixture: Alpha Dock"]
    assert "Fixture: Alpha Dock" not in names(screen)
    assert screen.selected == "Fixture: Beta Lab"                 # the next one, at once
    assert screen.form is not form and screen.form.card.name == "Fixture: Beta Lab"
    assert f"{len(LISTED) - 1} shown" in screen.count.value
    assert "Saved the values of 'Fixture: Alpha Dock'" in screen.message.value


def test_a_whole_deck_one_after_the_other_with_enter(screen):
    typed = 0
    while screen.selected is not None or typed == 0:
        if screen.selected is None:
            screen.skip()                                         # opens the first one
        form = screen.form
        if form.is_location:
            fill_location(form)
            if "types" in form.missing:
                form.type1.value = "business"
        if form.is_objective:
            form.measure.value = "manual"            # claimed at the table
            form.vp._handle_custom_msg({"event": "submit"}, [])   # Enter
        else:
            form.ab1.choose("manual")
            form.ab1.vp._handle_custom_msg({"event": "submit"}, [])   # Enter
        typed += 1
        assert typed <= len(LISTED)
    assert typed == len(LISTED)
    assert names(screen) == [] and screen.form is None
    mine = {c.name: c for c in load_user_cards()}
    for name in LISTED:
        assert unknown_of(mine[name]) == []
    assert [c.name for c in screen.saved] == LISTED          # in list order


def test_saving_the_last_entry_wraps_to_the_first(screen):
    screen.select("Fixture: Objective")
    screen.form.measure.value = "manual"
    screen.form.save.click()
    assert screen.selected == LISTED[0]


def test_an_objective_claimed_at_the_table_may_be_typed_as_shared(screen):
    # B 6: "Each Objective can only be claimed by 1 player unless stated otherwise":
    # the box shown only for an objective claimed at the table, kept in the catalogue
    screen.select("Fixture: Objective")
    form = screen.form
    form.measure.value = "credit"
    assert form.shared.layout.display == "none"
    form.measure.value = "manual"
    assert form.shared.layout.display == "" and form.shared.value is False
    form.shared.value = True
    form.save.click()
    mine = {c.name: c for c in load_user_cards()}
    assert mine["Fixture: Objective"].extra.get("shared") is True


def test_skip_goes_to_the_next_without_saving(screen, home):
    screen.skip()
    assert screen.selected == LISTED[0]
    screen.skip_button.click()
    assert screen.selected == LISTED[1]
    assert screen.saved == []
    assert {c.name for c in load_user_cards()} == {e["name"] for e in FIXTURES}
    assert "catalogue-skip" in screen.skip_button._dom_classes


def test_cancel_closes_the_form(screen):
    screen.select("Fixture: Race")
    screen.form.cancel.click()
    assert screen.selected is None and screen.form is None
    assert screen.form_box not in screen.list.children


def test_a_race_is_asked_only_its_ability(screen):
    screen.select("Fixture: Race")
    form = screen.form
    assert form.ab1.when.value == "end"
    form.ab1.choose("reactor")
    form.ab1.vp.value = "1"
    form.save.click()
    race = next(c for c in load_user_cards() if c.name == "Fixture: Race")
    assert race.category == "race"
    assert race.abilities == ({"when": "end", "per": "reactor", "vp": 1},)
    assert "Fixture: Race" not in names(screen)


def test_a_name_with_markup_is_escaped(screen):
    screen.select(LISTED[0])
    assert "<script>" not in screen.form.intro.value
    fill_location(screen.form)
    screen.form.save.click()
    assert "<script>" not in screen.message.value and "&lt;script&gt;" in screen.message.value
    for x in screen.list.children:
        for kid in getattr(x, "children", ()):
            if isinstance(kid, w.HTML):
                assert "<script>" not in kid.value


def test_a_failed_save_keeps_the_form_and_says_why(home):
    def refuse(card):
        raise CatalogueError("the file is locked <now>", file="my-cards.yaml")
    saved = []
    s = CatalogueScreen(on_saved=saved.append, save=refuse)
    s.select("Fixture: Race")
    s.form.ab1.choose("manual")
    s.form.save.click()
    assert s.selected == "Fixture: Race" and saved == []
    assert "Not saved" in s.form.message.value and "&lt;now&gt;" in s.form.message.value


def test_a_broken_user_catalogue_is_reported_not_raised(home):
    user_catalogue_path().write_text("- name: [broken\n", encoding="utf-8")
    s = CatalogueScreen()
    assert "Cannot read the catalogue" in s.message.value
    assert s.entries == [] and "0 entries still unknown" in s.count.value


def test_custom_factory_and_save():
    """The screen works on any catalogue and any writer (the lead's game catalogue)."""
    cards = [Card(name="Fixture: One"), Card(name="Fixture: Two", category="race")]
    written = []
    s = CatalogueScreen(catalogue_factory=lambda: Catalogue(cards), save=written.append)
    assert [c.name for c, _ in s.entries] == ["Fixture: One", "Fixture: Two"]
    assert "2 entries still unknown" in s.count.value
    s.select("Fixture: Two")
    s.form.ab1.choose("none")
    s.form.save.click()
    assert [c.name for c in written] == ["Fixture: Two"]
    assert s.selected == "Fixture: One"          # still unknown here: the factory is static


def test_the_class_hooks(screen):
    import companion.ui.catalogue_screen as mod
    screen.select("Fixture: Race")
    found = set()

    def walk(x):
        found.update(getattr(x, "_dom_classes", ()))
        for k in getattr(x, "children", ()):
            walk(k)
    walk(screen.box)
    hooks = {"catalogue-screen", "catalogue-filter", "catalogue-list", "catalogue-count",
             "catalogue-category", "catalogue-message", "catalogue-row", "catalogue-header",
             "catalogue-selected", "catalogue-open", "catalogue-category-of",
             "catalogue-unknown", "catalogue-form", "catalogue-skip", "card-form"}
    assert hooks <= found
    for hook in hooks - {"card-form"}:
        assert f"``{hook}``" in mod.__doc__, hook



def test_an_objective_typed_on_the_setup_screen_is_offered_at_once(home, tmp_path):
    """Issue 36: "after typing 7 objective cards on the catalogue screen, *pick* still
    lists only the one shipped, until a reload".  The host's setup screen: the catalogue
    screen opened inside it, an objective typed and saved; the pick list offers it at
    once, and what was picked stays picked."""
    from companion.table.store import Store
    from companion.ui.app import App
    app = App(Store(tmp_path / "games.sqlite"))
    setup = app.ats.setup_part
    setup.show_setup()
    assert "Test: least credits" not in setup.objective_pick.options
    setup.objective_pick.value = ("Accelerated Construction",)
    app.ats.setup_part.catalogue_panel.selected_index = 0           # open *Cards still unknown*
    cat_screen = setup.catalogue_screen
    form = cat_screen.add_objective()
    form.name.value = "Test: least credits"
    form.measure.value = "credit"
    form.most.value = "least"
    form.vp.value = "3"
    form.save.click()
    assert "Test: least credits" in setup.objective_pick.options
    assert setup.objective_pick.value == ("Accelerated Construction",)
