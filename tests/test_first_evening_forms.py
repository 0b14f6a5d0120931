"""Issue 50, "Ask only what the moment needs": a 4-player game with races and objectives
scored as it lies (setup ``options.laid: "final"``), from an empty data folder, reaches
its final table through the host's page with at most 10 forms and at most 4 inputs a
form (counted by tests/firstevening.py as a person sees them).  Before, each of the 26
laid cards and 3 race tiles had a form of 8-12 inputs (cost, energy, VP, MAX, copies,
types, the ability), though a laid game's track VP is typed and its final score reads
only the end-of-game abilities (B 6: "Check ... the abilities of their locations that
are written in yellow boxes") and the types an objective counts.

Every card, race tile and objective here is a "Fixture: ..." name that no data folder
knows (the races come with the record, their values null): every value typed is the
test's own, no printed card's, and no real card is said to have (or lack) a yellow box."""
from __future__ import annotations

import html
import re

from companion.ats.catalogue import Catalogue, make_objective, save_user_card
from companion.ats.game import Game
from companion.ui.app import App
from companion.ui.ats_lay import cell_class
from firstevening import Tally, answer, forms_shown, inputs_of, title_of
from widgetkit import one

PLAYERS = ["Ana", "Ben", "Cy", "Dee"]
RACES = {"Ana": "Fixture: race A", "Ben": "Fixture: race B", "Cy": "Fixture: race C",
         "Dee": "Fixture: race D"}
#: the race tiles as a record names them before anyone typed them: a name, every value
#: unknown (null), asked by the final table when its score reads it
RACE_CARDS = [{"name": r, "category": "race", "types": None, "cost": None, "energy": None,
               "vp": None, "max": None, "abilities": None,
               "notes": "test fixture: invented race, not a real tile"} for r in RACES.values()]
#: 26 laid cards, each a fixture's name the catalogue does not know (typed on the lay
#: panel as a player types a card's printed name): no shipped card's values are claimed
STATIONS = {p: [f"Fixture: {p} {i}" for i in range(1, n + 1)]
            for p, n in (("Ana", 7), ("Ben", 7), ("Cy", 6), ("Dee", 6))}
MILITARY_UNTYPED = "Fixture: Ana 7"
#: the record names them as the shipped list names real cards: a name and its types (one
#: card's types not given, as U-Cannon's are not in the shipped list), every value null
LOCATION_CARDS = [{"name": n, "category": "location",
                   "types": None if n == MILITARY_UNTYPED else ["business"], "cost": None,
                   "energy": None, "vp": None, "max": None, "abilities": None,
                   "notes": "test fixture: invented card, not a real one"}
                  for names in STATIONS.values() for n in names]      # its types asked: the military objective counts them
#: what the "physical cards" of this test say (a fixture's values)
YELLOW = {"Fixture: Ana 6": {"template": "adjacent_to", "vp": 3, "types": ["recreational"]},
          "Fixture: Ben 7": {"template": "empty_reactor", "vp": 2}}
RACE_ABILITIES = {"Fixture: race A": {"template": "distinct_table", "table": "1:1, 2:3, 3:6, 4:10"},
                  "Fixture: race B": {"template": "reactor", "vp": 1},
                  "Fixture: race C": {"template": "distinct", "vp": 1},
                  "Fixture: race D": {"template": "cube", "vp": 1}}
OBJECTIVES = ["Fixture: most military", "Fixture: most credits", "Fixture: fewest reactors",
              "Fixture: judged at the table"]


def type_objectives() -> None:
    """The 4 objectives drawn (B 3: "draw as many Objectives as the number of players"),
    typed in the player's catalogue as the setup screen types them (not counted here)."""
    save_user_card(make_objective(OBJECTIVES[0], measure="station_location", vp=5,
                                  types=["military"]))
    save_user_card(make_objective(OBJECTIVES[1], measure="credit", vp=4))
    save_user_card(make_objective(OBJECTIVES[2], measure="reactor", most=False, vp=3))
    save_user_card(make_objective(OBJECTIVES[3], measure="manual"))


def lay(app, player: str, names: list[str], credits: int, vp: int, tally: Tally) -> None:
    panel = one(app.root, "lay-panel")
    one(panel, "lay-player").value = player
    for col, name in enumerate(names, start=1):
        one(app.root, cell_class((0, col))).click()
        one(panel, "lay-what").value = "card"
        one(panel, "lay-card").value = name
        if one(panel, "lay-card").value:             # not put at once by the name
            one(panel, "lay-put").click()
    one(panel, "lay-credits").value = credits
    one(panel, "lay-vp").value = vp
    one(panel, "lay-station").click()
    tally.look(app.root)
    assert player in app.ats.game.state.laid, app.status.value


def final_table_text(app, cls: str = "final-table") -> str:
    """The text of the page's table of class ``cls`` (the final table, or the table so
    far: ``final-partial-table``)."""
    out: list[str] = []

    def walk(x):
        v = getattr(x, "value", None)
        if isinstance(v, str):
            out.extend(re.findall(rf"<table[^>]*{cls}.*?</table>", v, flags=re.S))
        for k in getattr(x, "children", ()):
            walk(k)
    walk(app.root)
    return html.unescape(re.sub(r"<[^>]+>", " ", " ".join(out)))


def test_a_laid_game_reaches_its_final_table_with_few_short_forms(store, companion_home):
    assert not any(companion_home.iterdir())           # an empty data folder
    type_objectives()
    g = Game({"players": PLAYERS, "races": RACES, "objectives": OBJECTIVES,
              "options": {"laid": "final"}}, cards=RACE_CARDS + LOCATION_CARDS,
             catalogue=Catalogue.default())
    gid = store.create(g.to_record(), title="laid")
    app = App(store)
    app.ats.open_game(gid)
    tally = Tally()
    for i, p in enumerate(PLAYERS):
        lay(app, p, STATIONS[p], credits=3 + i, vp=30 + i, tally=tally)
    assert app.ats.game.state.finished
    truth = {"yellow": list(YELLOW), "claims": {OBJECTIVES[3]: ("Ben", 4)}}
    for _ in range(40):                               # answer each form as it comes
        tally.look(app.root)
        shown = forms_shown(app.ats.final_box)
        if not shown:
            break
        form = shown[-1]
        words = title_of(form)             # "Enter the printed values of 'Vak' ..."
        card = {}
        for name, ab in {**YELLOW, **RACE_ABILITIES}.items():
            if f"'{name}'" in words:
                card = {"ability": ab}
        if f"'{MILITARY_UNTYPED}'" in words:
            card = {"types": ["military"]}
        answer(form, {**truth, **card}, tally)
    else:
        raise AssertionError("the forms never ended: " + tally.report())
    text = final_table_text(app)
    assert "Ana" in text and "?" not in text, text
    assert len(tally.forms) <= 10, tally.report()
    assert tally.most_inputs <= 4, tally.report()
    assert len(tally.forms) == 9, tally.report()    # which cards, 4 races, 2 yellow
    # boxes, U-Cannon's types (the military objective counts them), the claim
    # what was typed is in the user's catalogue, and only that: a laid card with no
    # yellow box keeps its cost, energy and VP unknown (asked when a build needs them)
    cat = Catalogue.default()
    bazaar = cat["Fixture: Ana 1"]
    assert bazaar.abilities == () and bazaar.end_only
    assert (bazaar.cost, bazaar.energy, bazaar.vp) == (None, None, None)
    assert bazaar.unknown_for_build() == ["cost", "energy", "vp", "abilities"]
    resort = cat["Fixture: Ana 6"]
    assert [a.when for a in resort.abilities] == ["end"] and resort.cost is None
    assert cat[MILITARY_UNTYPED].types == ("military",)


def test_a_final_table_missing_a_value_shows_the_rest_and_names_the_part(store):
    """Before the last value is typed the page shows the table so far: the track's VP
    and every total that waits for nothing, "?" where a value is missing, and which
    card, which value, on whose station."""
    type_objectives()
    g = Game({"players": PLAYERS, "races": RACES, "objectives": OBJECTIVES, "options": {"laid": "final"}}, cards=RACE_CARDS + LOCATION_CARDS,
             catalogue=Catalogue.default())
    gid = store.create(g.to_record(), title="laid")
    app = App(store)
    app.ats.open_game(gid)
    tally = Tally()
    for i, p in enumerate(PLAYERS):
        lay(app, p, STATIONS[p], credits=3 + i, vp=30 + i, tally=tally)
    words = html.unescape(re.sub(r"<[^>]+>", " ", str(
        [getattr(x, "value", "") for x in app.ats.final_box.children])))
    assert "The final table so far" in words
    assert "Ana's station: Fixture: Ana 6 at [0, 6]" in re.sub(r"\s+", " ", words), words
    assert "end-of-game abilities" in words               # the column in words
    assert final_table_text(app) == ""                     # no final table yet
    table = final_table_text(app, "final-partial-table")
    assert "30" in table and "?" in table                  # Ana's track VP, her total open
    # the yellow question: one input, every laid card with no ability typed
    yellow = forms_shown(app.ats.final_box)[-1]
    assert len(inputs_of(yellow)) == 1


def test_a_build_later_asks_the_white_box_and_keeps_what_the_final_table_typed():
    """A card typed for a final table (its yellow box only, ``end_only``) is asked again
    by a build for what the build reads (cost, energy, VP, its white box), never for
    what was typed; saved whole, the partial mark goes and a null never hides a value."""
    from companion.ats.cards import merge_card, parse_card
    from companion.ui.cardform import CardForm
    end = parse_card({"name": "Fixture: a laid card", "types": ["business"],
                      "abilities": [{"when": "end", "flat": 2}], "end_only": True})
    assert end.unknown_for_build() == ["cost", "energy", "vp", "abilities"]
    saved = []
    form = CardForm(end, saved.append, lambda: None, missing=end.unknown_for_build())
    shown = inputs_of(form.box)
    assert form.max not in shown and form.type1 not in shown and form.copies not in shown
    form.cost.value, form.energy.value, form.vp.value = "1", "0", "2"
    form.ab1.template.value = "none"         # this fixture's white box: none
    form.show_second(True)                   # its yellow box, typed before, kept
    form.ab2.template.value = "flat"
    form.ab2.vp.value = "2"
    form.submit()
    whole = saved[-1]
    assert not whole.end_only and (whole.cost, whole.vp) == (1, 2)
    assert [a.when for a in whole.abilities] == ["end"]
    # the catalogue's merge: a record's end-only copy never hides the whole card
    assert merge_card(whole, end).abilities == whole.abilities
    assert not merge_card(whole, end).end_only and merge_card(whole, end).cost == 1
