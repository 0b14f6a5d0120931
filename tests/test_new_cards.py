"""Issue 36: "Every card of both boxes can be named and typed from the page.  A card name
that is not in the catalogue is offered as 'a new card: add it' (name, kind, set, types,
values, ability) when it is first built, and on the catalogue screen beside *Add an
objective card*.  It is kept in the player's catalogue and shared like the rest."

The card is a "Fixture: ..." card (a real card's name with numbers typed by a test would
be a value nobody can source); its values are what a player types in the test.  Two seat
pages and the table view with the catalogue export: tests/test_browser_twins_inprocess.py;
the card form's browser path: tests/browser/test_card_form_finishes_browser.py.
"""
from __future__ import annotations

import yaml

from companion.ats.catalogue import Catalogue, export_user_catalogue, load_user_cards
from companion.ats.game import Game
from companion.ui.app import App
from companion.ui.cardform import CardForm
from companion.ui.catalogue_screen import CatalogueScreen

NEW = "Fixture: a Revival card we do not ship"   # issue 36: "Any other Revival card"
#: what the player types from the physical card in these tests (test values)
TYPED = {"cost": "1", "energy": "0", "vp": "2", "max": ""}


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def hook(box, cls):
    found = [x for x in _walk(box) if cls in getattr(x, "_dom_classes", ())]
    assert found, f"no .{cls}"
    return found[0]


def fill(form_box) -> None:
    for key, value in TYPED.items():
        hook(form_box, f"form-{key}").value = value
    hook(form_box, "form-type1").value = "business"


def revival_game(store) -> App:
    """A Revival 2-player game (R 2: the 2-player rules of the Revival box)."""
    g = Game({"players": ["Ana", "Ben"], "options": {"two_player": "revival"}},
             book_setup=False)
    store.create(g.to_record())
    return App(store)


def test_the_shipped_catalogue_does_not_name_the_card():
    """The premise: the card is not shipped, so the live engine refuses it by name."""
    assert Catalogue.shipped().get(NEW) is None


def test_a_card_not_in_the_catalogue_is_offered_as_new_typed_once_and_used_again(store):
    app = revival_game(store)
    active = app.ats.entry_player.value
    app.ats.entry_action.value = "build"
    app.ats.entry_card.value = NEW
    assert "No location card called" in app.ats.hint.value or "Did you mean" in app.ats.hint.value
    offer = hook(app.ats.extra, "entry-new-card")
    assert offer.description == f"'{NEW}' is a new card: add it"
    offer.click()
    form = app.ats.form_box.children[0]
    assert "card-form" in form._dom_classes
    assert hook(form, "form-name").value == NEW          # typed once, not asked again
    assert hook(form, "form-set").value == "revival"     # a Revival game's unknown card
    hook(form, "form-kind").value = "basic"
    fill(form)
    hook(form, "form-save").click()
    assert app.ats.form_box.children == ()
    assert app.ats.entry_card.value == NEW
    assert "Added" in app.status.value, app.status.value
    # kept in the player's catalogue with what was typed, and in the game's cards
    mine = {c.name: c for c in load_user_cards()}
    assert mine[NEW].extra["set"] == "revival" and mine[NEW].extra["kind"] == "basic"
    assert (mine[NEW].cost, mine[NEW].energy, mine[NEW].vp, mine[NEW].types) == \
        (1, 0, 2, ("business",))
    assert any(c["name"] == NEW for c in store.load(app.ats.gid).get("cards", []))
    # built at once: the grid offers its cells
    app.driver().tap((0, 1))
    if app.ats.extra.children:
        app.confirm()
    acts = store.load(app.ats.gid)["actions"]
    assert [(a["player"], a["card"]) for a in acts] == [(active, NEW)], app.status.value
    # the other player builds it too: no form, no offer
    other = app.ats.entry_player.value
    assert other != active
    app.ats.entry_action.value = "build"
    app.ats.entry_card.value = NEW
    assert app.ats.form_box.children == ()
    assert not [x for x in _walk(app.ats.extra) if "entry-new-card" in getattr(x, "_dom_classes", ())]
    app.driver().tap((0, 1))
    if app.ats.extra.children:
        app.confirm()
    acts = store.load(app.ats.gid)["actions"]
    assert [(a["player"], a["card"]) for a in acts] == [(active, NEW), (other, NEW)], \
        app.status.value


def test_a_close_name_is_a_button_that_takes_it(store):
    """Issue 37: "'Did you mean …' suggestions are not tappable"."""
    app = revival_game(store)
    app.ats.entry_action.value = "build"
    app.ats.entry_card.value = "Gardn"
    pick = hook(app.ats.extra, "entry-suggestion")
    assert pick.description == "Garden"
    pick.click()
    assert app.ats.entry_card.value == "Garden"


def test_the_new_card_form_refuses_a_name_the_catalogue_knows(store):
    app = revival_game(store)
    app.ats.entry_action.value = "build"
    app.ats.entry_card.value = NEW
    hook(app.ats.extra, "entry-new-card").click()
    form = app.ats.form_box.children[0]
    hook(form, "form-name").value = "Garden"
    fill(form)
    hook(form, "form-save").click()
    assert "is in your catalogue already" in app.status.value
    assert NEW not in {c.name for c in load_user_cards()}
    assert "Garden" not in {c.name for c in load_user_cards()}


def test_the_catalogue_screen_adds_a_location_card_and_its_export_carries_it(tmp_path):
    screen = CatalogueScreen(save=lambda card: __import__(
        "companion.ats.catalogue", fromlist=["save_user_card"]).save_user_card(card))
    form = screen.add_location()
    assert isinstance(form, CardForm) and form.new and form.is_location
    assert hook(screen.box, "catalogue-add-location").description == "Add a location card"
    form.name.value = NEW
    hook(form.box, "form-set").value = "revival"
    hook(form.box, "form-kind").value = "special"
    fill(form.box)
    form.submit()
    assert f"Saved the location card '{NEW}'" in screen.message.value
    out = export_user_catalogue(tmp_path / "my-cards.yaml")
    entries = {e["name"]: e for e in yaml.safe_load(out.read_text())}
    assert entries[NEW]["set"] == "revival" and entries[NEW]["kind"] == "special"
    assert entries[NEW]["cost"] == 1 and entries[NEW]["types"] == ["business"]
    # the next blank form is open for the next card of the box
    assert screen.new_form is not form and screen.new_form.is_location


def test_a_new_card_form_with_blank_values_says_what_is_missing(store):
    app = revival_game(store)
    app.ats.entry_action.value = "build"
    app.ats.entry_card.value = NEW
    hook(app.ats.extra, "entry-new-card").click()
    form = app.ats.form_box.children[0]
    hook(form, "form-save").click()
    assert "Cost" in hook(form, "form-message").value
    assert NEW not in {c.name for c in load_user_cards()}


def test_a_discard_of_a_card_not_in_the_catalogue_adds_its_name_only(store):
    """A discard uses no printed value: the new card is added by its name, every value
    null (asked the first time it is built), and the discard is recorded."""
    app = revival_game(store)
    active = app.ats.entry_player.value
    app.ats.entry_action.value = "discard"
    app.ats.entry_card.value = NEW
    offer = hook(app.ats.extra, "entry-new-card")
    offer.click()
    assert app.ats.form_box.children == ()
    mine = {c.name: c for c in load_user_cards()}
    assert (mine[NEW].cost, mine[NEW].vp, mine[NEW].abilities) == (None, None, None)
    assert "by its name" in app.status.value
    app.driver().discard()
    acts = store.load(app.ats.gid)["actions"]
    assert [(a["player"], a["do"], a["card"]) for a in acts] == [(active, "discard", NEW)]


def test_a_hostile_card_name_is_shown_as_text_and_kept_as_typed(store):
    """Script and a spreadsheet formula typed as a card's name: the hint shows them as
    text (escaped), the card form saves the name as typed, nothing runs."""
    app = revival_game(store)
    app.ats.entry_action.value = "build"
    hostile = "<img src=x onerror=alert(1)>=HYPERLINK(\"x\")"
    app.ats.entry_card.value = hostile
    assert "<img" not in app.ats.hint.value and "&lt;img" in app.ats.hint.value
    hook(app.ats.extra, "entry-new-card").click()
    form = app.ats.form_box.children[0]
    assert hook(form, "form-name").value == hostile
    assert "<img" not in app.ats.hint.value
    fill(form)
    hook(form, "form-save").click()
    assert hostile in {c.name for c in load_user_cards()}
    assert "<img" not in app.status.value


def test_an_empty_or_control_character_name_is_refused_by_the_form(store):
    app = revival_game(store)
    app.ats.entry_action.value = "build"
    app.ats.entry_card.value = NEW
    hook(app.ats.extra, "entry-new-card").click()
    form = app.ats.form_box.children[0]
    fill(form)
    for bad in ("", "   ", "Fixture: a\x07card"):
        hook(form, "form-name").value = bad
        hook(form, "form-save").click()
        assert hook(form, "form-message").value, repr(bad)
    assert not load_user_cards()
