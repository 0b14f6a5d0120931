"""Issue 23, "screens compose" and "no rule in the page", for Among the Stars: the page
is a shell with one AtsScreen built from parts (no mixins, every attribute made in
``__init__``), no UI file over 500 lines, and the page's action labels, buttons and
hints are the engine's (Game.action_kinds)."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from companion.ats.game import Game
from companion.table.store import Store
from companion.ui import app as app_module
from companion.ui.app import App
from companion.ui.ats_entry import AtsEntry
from companion.ui.ats_final import AtsFinal
from companion.ui.ats_screen import AtsScreen
from companion.ui.ats_setup import AtsSetup
from companion.ui.ats_views import AtsViews
from companion.ui.shell import Shell

UI = Path(app_module.__file__).parent
OWNED = ["app.py", "shell.py", "ats_screen.py", "ats_setup.py", "ats_entry.py", "ats_final.py",
         "ats_views.py", "modes.py", "shippicker.py", "explorer.py", "seatswitch.py"]
PARTS = (AtsSetup, AtsEntry, AtsFinal, AtsViews)
PLAYERS = ["Ana", "Ben", "Cy"]


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "games.sqlite")
    yield s
    s.close()


def page(store, **setup) -> App:
    store.create(Game({"players": PLAYERS, **setup}, book_setup=False).to_record())
    return App(store)


def test_no_mixins_the_parts_are_plain_classes():
    for part in PARTS:
        assert part.__bases__ == (object,), part
        assert "screen" in inspect.signature(part.__init__).parameters
    for cls in (App, Shell, AtsScreen):
        assert not set(PARTS) & set(cls.__mro__), cls
    assert App.__mro__[1] is Shell


def test_no_ui_file_over_500_lines_and_no_late_attributes():
    for name in OWNED:
        text = (UI / name).read_text()
        assert len(text.splitlines()) <= 500, name
        # an attribute that may not exist yet was read with getattr(self, "x", None)
        assert not re.search(r"getattr\(self, ['\"]", text), name


def test_no_rule_numbers_in_the_page():
    for name in OWNED:
        text = (UI / name).read_text()
        for words in ("3 credits", "1 credit", "up to 3", "10 credits"):
            assert words not in text, (name, words)


def test_every_attribute_is_made_in_init(store):
    save = {}
    app = page(store, mode="aggressive", options={"spaceships": True})
    objs = {"screen": app.ats, **{p: getattr(app.ats, p) for p in
                                  ("setup_part", "entry_part", "final_part", "views_part")}}
    objs["shell"] = app
    for k, o in objs.items():
        save[k] = set(vars(o))
    # a turn entered, a build confirmed with its questions, an undo, a discard, a
    # seat's view, the setup screen
    app.entry_player.value = "Ana"
    app.entry_action.value = "reactor"
    app.entry_card.value = "Garden"
    app._clicked((-1, 0))
    app._ask_undo()
    app._undo()
    app.entry_player.value = "Ana"
    app.entry_action.value = "discard"
    app.entry_card.value = "Garden"
    app._discard()
    app.set_view("Ben", None)
    app.set_view(None, None)
    app.apply_query("seat=Ben")
    app.show_setup()
    app.live_tick()
    assert len(app.game.actions) == 1
    for k, o in objs.items():
        assert set(vars(o)) == save[k], (k, set(vars(o)) - save[k])


def test_the_pages_labels_are_the_engines(store):
    app = page(store, mode="aggressive", options={"spaceships": True})
    kinds = app.game.action_kinds(None)
    assert list(app.entry_action.options) == [(k.label, k.kind) for k in kinds]
    by = {k.kind: k for k in kinds}
    # the words stay exactly as before the engine gave them
    assert [label for label, _ in app.entry_action.options] == [
        "Build location", "Build reactor", "Discard for 3 credits", "Apply Conflict",
        "Remove spaceships"]
    assert app.discard_btn.description == by["discard"].button == "Discard for 3 credits"
    assert list(app.entry_action.tooltips) == [k.rule_text or k.hint for k in kinds]
    form = app.mode_panel.conflict_form("Ana", "Conflict card")
    assert form[-1].description == by["conflict"].button == "Apply the Conflict (1 credit)"
    app.entry_player.value = "Ana"
    app.entry_action.value = "discard"
    assert app.hint.value == by["discard"].hint == "Discard the selected card and take 3 credits."
    app.entry_action.value = "reactor"
    app.entry_card.value = "Garden"
    assert app.hint.value == by["reactor"].hint


def test_a_standard_game_offers_the_base_actions_only(store):
    app = page(store)
    assert [v for _, v in app.entry_action.options] == ["build", "reactor", "discard"]
