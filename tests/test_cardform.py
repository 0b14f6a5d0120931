"""The card-values form (companion.ui.cardform), driven in-process.

Every card here is invented ("Fixture: ..." names) and every number typed is
arbitrary: nothing here is, or claims to be, a real card's printed value.
The widgets are driven as a person would: values set, buttons clicked, Enter
sent as the front end sends it (a custom ``{"event": "submit"}`` message).
"""
from __future__ import annotations

import warnings

import ipywidgets as w
import pytest

from companion.ats.catalogue import Card, parse_card
from companion.core.errors import UnknownCardValues
from companion.ui.cardform import (TEMPLATES, AbilityEditor, CardForm, matches, parse_table,
                                   school_label, template_of)


def fixture_card(**kw) -> Card:
    kw.setdefault("name", "Fixture: Test Module")
    return Card(**kw)


class Saved(list):
    def __call__(self, card):
        self.append(card)


def make(card=None, **kw):
    saved, cancelled = Saved(), []
    form = CardForm(card or fixture_card(), saved, lambda: cancelled.append(True), **kw)
    return form, saved, cancelled


def numbers(form, cost="1", energy="0", vp="2", mx=""):
    form.cost.value, form.energy.value, form.vp.value, form.max.value = cost, energy, vp, mx


def enter(widget):
    """What the browser sends when Enter is pressed in a Text."""
    widget._handle_custom_msg({"event": "submit"}, [])


def classes(widget) -> set[str]:
    """Every CSS class in a widget tree."""
    out = set(getattr(widget, "_dom_classes", ()))
    for kid in getattr(widget, "children", ()):
        out |= classes(kid)
    return out


def walk(widget):
    yield widget
    for kid in getattr(widget, "children", ()):
        yield from walk(kid)


# -- every template, through the form ----------------------------------------------------
#: template key -> (values typed into the first ability part, the ability expected);
#: every number is arbitrary (a fixture card)
CASES = {
    "none": ({}, None),
    "adjacent": ({"when": "end", "vp": "1", "types": "military", "types2": "business"},
                 {"when": "end", "per": "adjacent_location", "vp": 1,
                  "types": ["military", "business"]}),
    "station": ({"vp": "2", "types": "recreational", "include_self": False, "cap": "8"},
                {"when": "immediate", "per": "station_location", "vp": 2,
                 "types": ["recreational"], "include_self": False, "cap": 8}),
    "within": ({"vp": "1", "distance": "2"},
               {"when": "immediate", "per": "location_within", "vp": 1, "distance": 2}),
    "reactor": ({"when": "end", "vp": "2"}, {"when": "end", "per": "reactor", "vp": 2}),
    "empty_reactor": ({"when": "end", "vp": "1"},
                      {"when": "end", "per": "empty_reactor", "vp": 1}),
    "cube": ({"vp": "1", "cap": "3"},
             {"when": "immediate", "per": "energy_cube", "vp": 1, "cap": 3}),
    "credit": ({"when": "end", "vp": "1", "every": "3"},
               {"when": "end", "per": "credit", "vp": 1, "every": 3}),
    "year": ({"vp": "1"}, {"when": "immediate", "per": "remaining_year", "vp": 1}),
    "distinct": ({"when": "end", "vp": "1"}, {"when": "end", "per": "distinct_type", "vp": 1}),
    "distinct_table": ({"when": "end", "table": "1:1, 2:3 3=6"},
                       {"when": "end", "per": "distinct_type", "table": {1: 1, 2: 3, 3: 6}}),
    "spaceship": ({"when": "end", "vp": "1"}, {"when": "end", "per": "spaceship", "vp": 1}),
    "others": ({"vp": "1", "types": "business"},
               {"when": "immediate", "per": "other_station_location", "vp": 1,
                "types": ["business"]}),
    "flat": ({"vp": "4"}, {"when": "immediate", "flat": 4}),
    "farthest": ({"when": "end", "vp": "5"},
                 {"when": "end", "flat": 5, "if": {"farthest_from_main_reactor": True}}),
    "more": ({"when": "end", "vp": "2", "types": "military", "than": "business"},
             {"when": "end", "flat": 2, "if": {"more": ["military"], "than": ["business"]}}),
    "adjacent_to": ({"when": "end", "vp": "2", "types": "diplomatic"},
                    {"when": "end", "flat": 2, "if": {"adjacent_to": ["diplomatic"]}}),
    "school": ({}, {"when": "immediate", "choice": "pay_or_lose", "pay": 1, "lose": 2}),
    "spaceships": ({"ships": "1", "target": "self"},
                   {"when": "immediate", "spaceships": 1, "target": "self"}),
    "manual": ({"when": "end"}, {"when": "end", "manual": True}),
}


def test_the_cases_cover_every_template():
    legacy = {"none", "adjacent", "station", "within", "reactor", "empty_reactor", "cube",
              "credit", "year", "distinct", "spaceship", "others", "flat", "farthest", "more",
              "adjacent_to", "school", "manual"}
    assert legacy <= set(TEMPLATES)            # every template of the old form is kept
    assert set(CASES) == set(TEMPLATES)


def fill_ability(ab: AbilityEditor, key: str, values: dict):
    """Find the template with the find box (its first label word that narrows to it
    or the whole label), pick it, type its values."""
    ab.filter.value = TEMPLATES[key][0] if key != "school" else "school"
    assert key in [k for _, k in ab.template.options]
    ab.template.value = key
    for name, v in values.items():
        getattr(ab, name).value = v


@pytest.mark.parametrize("key", list(CASES))
def test_every_template_builds_the_right_ability(key):
    values, expected = CASES[key]
    form, saved, _ = make()
    numbers(form)
    fill_ability(form.ab1, key, values)
    form.save.click()
    assert form.message.value == ""
    assert len(saved) == 1
    card = saved[0]
    assert card.name == "Fixture: Test Module"
    assert (card.cost, card.energy, card.vp, card.max) == (1, 0, 2, "none")
    assert list(card.abilities) == ([] if expected is None else [expected])
    # the card is exactly what the catalogue loader accepts
    assert parse_card(card.to_dict()) == card


@pytest.mark.parametrize("key", [k for k in CASES if CASES[k][1] is not None])
def test_a_typed_ability_is_shown_again_as_typed(key):
    """Opening the form on a card that has the ability prefills it: saving again
    gives the same ability."""
    expected = CASES[key][1]
    card = fixture_card(cost=1, energy=0, vp=2, max=2, types=("military",),
                        abilities=(expected,))
    assert template_of(expected) == key
    form, saved, _ = make(card)
    assert form.ab1.template.value == key
    assert form.cost.value == "1" and form.max.value == "2"
    assert form.type1.value == "military"
    form.save.click()
    assert saved and list(saved[0].abilities) == [expected]


def test_two_ability_parts():
    form, saved, _ = make()
    numbers(form)
    fill_ability(form.ab1, "flat", {"vp": "1"})
    assert form.ab2.box not in list(walk(form.box))        # hidden until asked for
    form.add_second.click()
    assert form.ab2.box in list(walk(form.box))
    fill_ability(form.ab2, "credit", {"when": "end", "vp": "1", "every": "3"})
    form.save.click()
    assert list(saved[0].abilities) == [{"when": "immediate", "flat": 1},
                                        {"when": "end", "per": "credit", "vp": 1, "every": 3}]


def test_the_printed_note_stays_with_an_unchanged_template():
    ab = {"when": "end", "per": "distinct_type", "table": None, "note": "fixture note"}
    form, saved, _ = make(fixture_card(category="race", abilities=(ab,)))
    assert form.ab1.template.value == "distinct_table"
    form.ab1.table.value = "1:1, 2:2"
    form.save.click()
    assert saved[0].abilities[0] == {"when": "end", "per": "distinct_type",
                                     "table": {1: 1, 2: 2}, "note": "fixture note"}


# -- the searchable template list --------------------------------------------------------
def test_the_find_box_narrows_the_template_list():
    form, _, _ = make()
    ab = form.ab1
    assert [k for _, k in ab.template.options] == list(TEMPLATES)
    ab.filter.value = "adjacent"
    keys = [k for _, k in ab.template.options]
    assert set(keys) == {"adjacent", "adjacent_to"}
    assert ab.template.value in keys
    ab.filter.value = "yellow"        # nothing matches: everything is listed, and said so
    assert [k for _, k in ab.template.options] == list(TEMPLATES)
    assert "No ability template matches" in ab.no_match.value
    ab.filter.value = "K credits"
    assert [k for _, k in ab.template.options] == ["credit"]
    assert ab.template.value == "credit"
    assert ab.vp in ab.params.children and ab.every in ab.params.children
    ab.filter.value = ""
    assert len(ab.template.options) == len(TEMPLATES)
    assert ab.template.value == "credit"             # clearing keeps the choice


def test_matches_is_case_and_order_insensitive():
    assert matches("farthest", "MAIN farther")
    assert matches("school", "pay lose")
    assert not matches("reactor", "credit")


def test_the_school_label_comes_from_its_values():
    assert TEMPLATES["school"][0] == school_label(1, 2)
    assert "1 credit " in school_label(1, 2) and "2 VP" in school_label(1, 2)
    ab = {"when": "immediate", "choice": "pay_or_lose", "pay": 3, "lose": 4}  # arbitrary
    form, saved, _ = make(fixture_card(abilities=(ab,)))
    labels = dict((k, lab) for lab, k in form.ab1.template.options)
    assert labels["school"] == school_label(3, 4)
    assert "3 credits" in labels["school"] and "4 VP" in labels["school"]
    numbers(form)
    form.save.click()
    assert saved[0].abilities[0] == ab


def test_parse_table():
    assert parse_table("1:1,2:3; 3 : 6") == {1: 1, 2: 3, 3: 6}
    for bad in ("", "1", "a:b", "1:x"):
        with pytest.raises(ValueError):
            parse_table(bad)


# -- Enter saves ----------------------------------------------------------------------------
def test_enter_in_any_text_field_saves():
    form, saved, _ = make()
    numbers(form)
    fill_ability(form.ab1, "adjacent", {"vp": "1"})
    texts = form.texts()
    assert {form.cost, form.energy, form.vp, form.max, form.ab1.filter, form.ab1.vp,
            form.ab1.cap} <= set(texts)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # not the deprecated on_submit
        for i, t in enumerate(texts, 1):
            enter(t)
            assert len(saved) == i, t.description
    assert all(c == saved[0] for c in saved)


def test_other_messages_from_the_page_do_nothing():
    form, saved, _ = make()
    numbers(form)
    form.cost._handle_custom_msg({"event": "something else"}, [])
    form.cost._handle_custom_msg("not a mapping", [])
    assert saved == []


def test_enter_with_a_blank_field_says_what_is_missing():
    form, saved, _ = make()
    enter(form.energy)
    assert saved == []
    assert "Cost: please type the number printed on the card" in form.message.value


# -- clear messages, never an exception ------------------------------------------------------
@pytest.mark.parametrize("setup, says", [
    (lambda f: numbers(f, cost=""), "Cost: please type the number printed on the card"),
    (lambda f: numbers(f, energy=" "), "Energy: please type the number"),
    (lambda f: numbers(f, vp=""), "VP: please type the number"),
    (lambda f: numbers(f, cost="two"), "Cost: &#x27;two&#x27; is not a whole number"),
    (lambda f: numbers(f, energy="-1"), "Energy: must be 0 or more"),
    (lambda f: numbers(f, mx="0"), "MAX: must be 1 or more"),
    (lambda f: (numbers(f), fill_ability(f.ab1, "adjacent", {"vp": ""})),
     "N (VP): please type the number"),
    (lambda f: (numbers(f), fill_ability(f.ab1, "within", {"vp": "1", "distance": ""})),
     "distance D: please type the number"),
    (lambda f: (numbers(f), fill_ability(f.ab1, "credit", {"vp": "1", "every": "0"})),
     "per K credits: must be 1 or more"),
    (lambda f: (numbers(f), fill_ability(f.ab1, "more", {"vp": "1", "types": ""})),
     "choose type A"),
    (lambda f: (numbers(f), fill_ability(f.ab1, "adjacent_to", {"vp": "1", "types": ""})),
     "choose the type it must be adjacent to"),
    (lambda f: (numbers(f), fill_ability(f.ab1, "distinct_table", {"table": ""})),
     "VP table: please type the table"),
    (lambda f: (numbers(f), fill_ability(f.ab1, "spaceships", {"ships": "0"})),
     "spaceships N: must be 1 or more"),
    (lambda f: (numbers(f), setattr(f.type1, "value", "military"),
                setattr(f.type2, "value", "military")), "the two types must differ"),
])
def test_a_wrong_or_blank_field_gives_a_clear_message(setup, says):
    form, saved, _ = make()
    setup(form)
    form.save.click()                       # never raises
    assert saved == []
    assert says in form.message.value
    assert "form-message" in form.message._dom_classes
    assert "Traceback" not in form.message.value


def test_the_message_clears_once_the_values_are_right():
    form, saved, _ = make()
    form.save.click()
    assert form.message.value
    numbers(form)
    form.save.click()
    assert form.message.value == "" and len(saved) == 1


def test_cancel():
    form, saved, cancelled = make()
    form.cancel.click()
    assert cancelled == [True] and saved == []


# -- escaping ------------------------------------------------------------------------------
def test_a_name_with_markup_is_escaped():
    name = "Fixture: <script>alert(1)</script> & <b>"
    form, saved, _ = make(fixture_card(name=name), preview=lambda c: f"{c.name} gives <i>2</i>")
    assert "<script>" not in form.intro.value
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;" in form.intro.value
    numbers(form)
    assert "<script>" not in form.preview_out.value and "<i>" not in form.preview_out.value
    assert "&lt;script&gt;" in form.preview_out.value
    form.cost.value = "<img src=x>"
    form.save.click()
    assert "<img" not in form.message.value and "&lt;img src=x&gt;" in form.message.value
    for x in walk(form.box):
        if isinstance(x, w.HTML) and "<style>" not in x.value:
            assert "<script>" not in x.value


def test_the_missing_names_are_escaped_too():
    form, _, _ = make(missing=["cost", "<b>odd</b>"])
    assert "<b>odd</b>" not in form.intro.value and "&lt;b&gt;odd" in form.intro.value


# -- the live preview ----------------------------------------------------------------------
def test_the_preview_is_shown_when_the_values_form_a_valid_card():
    calls = []

    def preview(card):
        calls.append(card)
        return f"Built here now: +{card.vp} VP"
    form, _, _ = make(preview=preview)
    # nothing typed yet: no game preview; the values preview says what is still needed
    # (issue 21: it was empty in every form)
    assert calls == [] and "Values so far: Cost: please type" in form.preview_out.value
    form.cost.value = "1"
    form.energy.value = "0"
    assert calls == []                                       # VP still blank
    form.vp.value = "2"
    assert len(calls) == 1 and isinstance(calls[0], Card)
    assert calls[0].vp == 2 and calls[0].name == "Fixture: Test Module"
    assert "Built here now: +2 VP" in form.preview_out.value
    assert "form-preview" in form.preview_out._dom_classes
    form.ab1.filter.value = "ability"           # "No ability" still listed: the card is unchanged
    assert form.ab1.template.value == "none" and len(calls) == 1
    form.ab1.filter.value = "per reactor"       # picks the first match: no N yet, no preview
    assert form.ab1.template.value == "reactor" and "Built here" not in form.preview_out.value
    fill_ability(form.ab1, "reactor", {"vp": "1"})
    assert calls[-1].abilities == ({"when": "immediate", "per": "reactor", "vp": 1},)
    n = len(calls)
    form.ab1.vp.value = "x"                  # invalid: only why, no game preview
    assert "is not a whole number" in form.preview_out.value and len(calls) == n
    assert "Built here" not in form.preview_out.value
    form.ab1.vp.value = "1"
    assert len(calls) == n + 1 and "Built here now" in form.preview_out.value


def test_a_card_already_valid_is_previewed_at_once():
    calls = []
    card = fixture_card(cost=1, energy=0, vp=2, max="none", types=(), abilities=())
    form, _, _ = make(card, preview=lambda c: calls.append(c) or "fine")
    assert len(calls) == 1 and "fine" in form.preview_out.value


@pytest.mark.parametrize("error, shown", [
    (UnknownCardValues("Fixture: Other", ["types"]), "Fixture: Other"),
    (ValueError("no <cell> chosen"), "no &lt;cell&gt; chosen"),
    (RuntimeError("boom"), "No preview (RuntimeError)"),
])
def test_an_error_in_the_preview_is_shown_never_raised(error, shown):
    def preview(card):
        raise error
    form, saved, _ = make(preview=preview)
    numbers(form)                                  # does not raise
    assert shown in form.preview_out.value
    assert "Traceback" not in form.preview_out.value
    form.save.click()
    assert len(saved) == 1                         # the preview never blocks saving


def test_a_preview_returning_nothing_shows_only_the_values():
    form, _, _ = make(preview=lambda c: "")
    numbers(form)
    # the values preview speaks of the card being edited, and only of it (issue 21)
    assert form.preview_out.value == ("<div class='form-preview-text'>Fixture: Test Module: "
                                      "cost 1, energy 0, 2 VP, no MAX, no type, no ability."
                                      "</div>")


# -- what is asked -------------------------------------------------------------------------
def test_known_values_are_prefilled_and_unknown_ones_highlighted():
    card = fixture_card(cost=3, types=("business",), energy=None, vp=None)
    form, _, _ = make(card)
    assert form.cost.value == "3" and form.type1.value == "business"
    assert "form-needed" not in form.cost._dom_classes
    assert "form-needed" not in form.type1._dom_classes
    for x in (form.energy, form.vp, form.max, form.ab1.template):
        assert "form-needed" in x._dom_classes
    assert "Unknown: <b>energy, VP, ability, MAX</b>" in form.intro.value


def test_missing_given_by_the_caller_wins():
    form, _, _ = make(fixture_card(), missing=["vp"])
    assert "form-needed" in form.vp._dom_classes
    assert "form-needed" not in form.cost._dom_classes
    assert "form-needed" not in form.ab1.template._dom_classes


@pytest.mark.parametrize("category", ["race"])
def test_races_show_only_the_ability(category):
    extra = {"most": {"per": "credit"}} if category == "objective" else {}
    card = fixture_card(name=f"Fixture: {category}", category=category, extra=extra)
    form, saved, _ = make(card)
    shown = list(walk(form.box))
    for x in (form.cost, form.energy, form.vp, form.max, form.type1, form.type2):
        assert x not in shown
    assert form.cost not in form.texts()
    if category == "race":
        assert form.ab1.when.value == "end"
    fill_ability(form.ab1, "reactor", {"when": "end", "vp": "1"})
    enter(form.ab1.vp)
    card = saved[0]
    assert card.category == category
    assert card.abilities == ({"when": "end", "per": "reactor", "vp": 1},)
    assert (card.cost, card.energy, card.vp) == (None, None, None)
    assert card.extra.get("most") == extra.get("most")


def test_conflicts_are_asked_like_locations():
    form, saved, _ = make(fixture_card(name="Fixture: conflict", category="conflict"))
    assert form.cost in list(walk(form.box))


# -- layout and hooks ----------------------------------------------------------------------
HOOKS = {"card-form", "form-cost", "form-energy", "form-vp", "form-max", "form-type1",
         "form-type2", "form-save", "form-cancel", "form-message", "form-preview",
         "ability-template", "ability-filter", "ability-vp", "ability-cap", "ability-when",
         "ability-type1", "ability-type2", "ability-than", "ability-include-self",
         "ability-distance", "ability-every", "ability-table", "ability-ships",
         "ability-target", "ability-add-second"}


def test_every_class_hook_exists_and_is_documented():
    import companion.ui.cardform as mod
    form, _, _ = make()
    found = classes(form.box)
    for ab in (form.ab1, form.ab2):               # parameters not shown right now
        for x in (ab.vp, ab.types, ab.types2, ab.than, ab.include_self, ab.distance,
                  ab.every, ab.table, ab.ships, ab.target, ab.cap):
            found |= set(x._dom_classes)
    assert HOOKS <= found
    for hook in HOOKS:
        assert f"``{hook}``" in mod.__doc__, hook


def test_tab_order_is_cost_energy_vp_max_types_then_the_ability():
    form, _, _ = make()
    focusable = (w.Text, w.Dropdown, w.Select, w.ToggleButtons, w.Checkbox, w.Button)
    order = [x for x in walk(form.box) if isinstance(x, focusable)]
    assert order[:9] == [form.cost, form.energy, form.vp, form.max, form.copies, form.type1,
                         form.type2, form.ab1.filter, form.ab1.template]
    assert order.index(form.ab1.when) < order.index(form.save)


def test_no_control_is_wider_than_a_phone():
    form, _, _ = make()
    for x in walk(form.box):
        lay = x.layout
        for v in (lay.width, lay.min_width):
            if v and v.endswith("px"):
                assert float(v[:-2]) <= 300, (x, v)
        if isinstance(x, (w.Text, w.Dropdown)):
            assert x.style.description_width == "initial"      # labels never cut off
            assert lay.max_width and lay.width == "100%"


def test_the_style_sets_44px_targets_and_one_column_on_phones():
    from companion.ui.cardform import STYLE
    assert "min-height: 44px" in STYLE
    assert "@media (max-width: 520px)" in STYLE
