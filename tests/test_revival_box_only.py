"""Issue 50's smaller item: no "Revival box only" deck choice.  The Revival rulebook:
R 2: "Revival is an expansion for Among the Stars. However, it can also be played on its
own as a 2-player game with slightly different rules."; R 1 lists its components (no
race, no objective); R 2.1: "if you have a copy of Among the Stars or The Ambassadors
you may also add any additional modules included in those sets like Alien Races,
Objectives".  So with the Revival box alone: the Revival 2-player rules and deck, and
no race and no objective, whatever was ticked."""
from __future__ import annotations

from companion.table.store import Store
from companion.ui.app import App
from widgetkit import one


def _host(store) -> App:
    app = App(Store(store.path))
    app.ats.setup_part.show_setup()
    return app


def test_the_revival_box_alone_plays_its_2_player_rules_without_races_or_objectives(store):
    app = _host(store)
    part = app.ats.setup_part
    part.name_boxes[0].value, part.name_boxes[1].value = "Ana", "Ben"
    part.use_races.value = part.use_objectives.value = True
    labels = dict(part.mode_setup.two_player.options)
    assert "Revival box only (its 2-player rules)" in labels
    part.mode_setup.two_player.value = labels["Revival box only (its 2-player rules)"]
    # the two ticks go off and cannot be ticked again; the page says why
    assert not part.use_races.value and not part.use_objectives.value
    assert part.use_races.disabled and part.use_objectives.disabled
    note = one(app.root, "setup-box-only-note")
    assert note.layout.display != "none" and "no races and no objectives" in note.value
    # the deck shown is the Revival 2-player deck (R 2.1)
    assert "Revival" in part.mode_setup.composition.value
    one(app.root, "setup-draw").click()
    assert not (app.ats.setup_part.drawn or {}).get("races")
    one(app.root, "start-game").click()
    g = app.ats.game
    assert g is not None, app.status.value
    assert g.setup.races == {} and g.setup.objectives == []
    opts = g.setup.options
    assert opts["two_player"] == "revival" and opts["boxes"] == ["revival"]
    assert opts["first_active"] in ("Ana", "Ben")
    # with three names the choice is gone (the box alone is a 2-player game) and the
    # ticks come back
    app.ats.setup_part.show_setup()
    part.name_boxes[2].value = "Cy"
    assert not part.mode_setup.revival_box_only
    assert not part.use_races.disabled and not part.use_objectives.disabled
