"""Issue 23, "screens compose" and "no rule in the page", for Among the Stars: the page
is a shell with one AtsScreen built from parts (no mixins, every attribute made in
``__init__``), no UI file over 500 lines, and the page's action labels, buttons and
hints are the engine's (Game.action_kinds)."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import ipywidgets as w
import pytest

from companion.ats.game import Game
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
    objs["live"], objs["details"] = app.ats.live, app.ats.details
    for k, o in objs.items():
        save[k] = set(vars(o))
    # a turn entered, a build confirmed with its questions, an undo, a discard, a
    # seat's view, the setup screen
    app.driver().choose(player="Ana", action="reactor", card="Garden")
    app.driver().tap((-1, 0))
    app.driver().ask_undo()
    app.driver().undo()
    app.driver().choose(player="Ana", action="discard", card="Garden")
    app.driver().discard()
    app.ats.views_part.set_view("Ben", None)
    app.ats.views_part.set_view(None, None)
    app.apply_query("seat=Ben")
    app.ats.setup_part.show_setup()
    app.live_tick()
    assert len(app.ats.game.actions) == 1
    for k, o in objs.items():
        assert set(vars(o)) == save[k], (k, set(vars(o)) - save[k])


def test_the_pages_labels_are_the_engines(store):
    app = page(store, mode="aggressive", options={"spaceships": True})
    kinds = app.ats.game.action_kinds(None)
    assert list(app.ats.entry_action.options) == [(k.label, k.kind) for k in kinds]
    by = {k.kind: k for k in kinds}
    # the words stay exactly as before the engine gave them
    assert [label for label, _ in app.ats.entry_action.options] == [
        "Build location", "Build reactor", "Discard for 3 credits", "Apply Conflict",
        "Remove spaceships"]
    assert app.ats.discard_btn.description == by["discard"].button == "Discard for 3 credits"
    assert list(app.ats.entry_action.tooltips) == [k.rule_text or k.hint for k in kinds]
    form = app.ats.mode_panel.conflict_form("Ana", "Conflict card")
    assert form[-1].description == by["conflict"].button == "Apply the Conflict (1 credit)"
    app.ats.entry_player.value = "Ana"
    app.ats.entry_action.value = "discard"
    assert app.ats.hint.value == by["discard"].hint == "Discard the selected card and take 3 credits."
    app.ats.entry_action.value = "reactor"
    app.ats.entry_card.value = "Garden"
    assert app.ats.hint.value == by["reactor"].hint


def test_a_standard_game_offers_the_base_actions_only(store):
    app = page(store)
    assert [v for _, v in app.ats.entry_action.options] == ["build", "reactor", "discard"]


# ------------------------------------------------------------------ round 2 (issue 23)
def _ui_classes() -> list[type]:
    """Every class defined in a module of companion/ui."""
    import importlib
    import pkgutil
    import companion.ui as ui
    out = []
    for info in pkgutil.iter_modules(ui.__path__):
        mod = importlib.import_module(f"companion.ui.{info.name}")
        out += [c for c in vars(mod).values()
                if inspect.isclass(c) and c.__module__ == mod.__name__]
    return out


def test_no_ui_class_inherits_another_ui_class():
    """No mixins: a class of companion/ui inherits object, a widget or an error, never
    another class of companion/ui; the one exception is the page, ``App(Shell)``."""
    classes = _ui_classes()
    assert AtsScreen in classes and Shell in classes and len(classes) > 30
    bad = [(c.__name__, b.__name__) for c in classes for b in c.__bases__
           if b.__module__.startswith("companion.ui") and (c, b) != (App, Shell)]
    assert not bad, bad
    assert AtsScreen.__bases__ == (object,)


def test_the_check_above_sees_a_mixin():
    class Mixin:
        pass

    class Screen(Mixin):
        pass
    Mixin.__module__ = Screen.__module__ = "companion.ui.fake"
    assert [b for b in Screen.__bases__ if b.__module__.startswith("companion.ui")] == [Mixin]


def test_the_session_and_details_are_parts_of_the_screen(store):
    from companion.ui.playdetails import PlayDetailsPart
    from companion.ui.session import SessionPart
    app = page(store)
    ats = app.ats
    assert isinstance(ats.live, SessionPart) and ats.live.screen is ats
    assert isinstance(ats.details, PlayDetailsPart) and ats.details.screen is ats
    assert app.ats.game is ats.session.game and app.store is ats.session.store
    assert app.ats.gid == ats.session.gid and app.ats.rev == ats.session.rev
    app.ats.details_for = "other"
    assert ats.details.shown_for == "other"
    assert app.ats.tap_timer == ats.details.tap_timer


def test_every_attribute_of_the_session_and_details_parts_is_made_in_init(store):
    app = page(store)
    parts = {"live": app.ats.live, "details": app.ats.details}
    before = {k: set(vars(o)) for k, o in parts.items()}
    app.driver().choose(player="Ana", action="discard", card="Garden")
    app.driver().discard()
    app.ats.fill_final_details()
    app.ats.refresh_exports()
    app.apply_query("seat=Ben")
    app.live_tick()
    assert {k: set(vars(o)) for k, o in parts.items()} == before


# --------------------------------------------------------- the tabs follow the registry
def test_the_tabs_are_the_registrys_games_then_history(store):
    from companion.table import registry
    from companion.ui import screens
    app = page(store)
    names = [k.name for k in registry.kinds() if k.format in screens.SCREENS]
    assert names == ["Among the Stars", "Small Star Empires"]
    assert list(app.tabs.titles) == names + ["History"]
    assert app.formats == [k.format for k in registry.kinds() if k.format in screens.SCREENS]
    assert app.tabs.children[0].children == (app.ats.body,)


class DummyScreen:
    """A made-up game's screen: what the shell asks of a screen, no more."""

    def __init__(self, shell):
        self.shell = shell
        self.box = w.VBox([w.HTML("<b>tally</b>")])
        self.setup_role_note = w.HTML()
        self.game = None
        self.gid: str | None = None
        self.timer = None
        self.opened: list[str] = []
        self.views: list[tuple] = []
        self.ticks = 0

    def open_game(self, gid: str) -> None:
        from companion.table import registry
        self.game = registry.load_game(self.shell.store.load(gid), trusted=True)
        self.gid = gid
        self.opened.append(gid)

    def set_view(self, seat, view) -> None:
        self.views.append((seat, view))

    def live_tick(self) -> None:
        self.ticks += 1


@pytest.fixture
def dummy_game(store):
    """The made-up counting game of tests/test_third_game.py, registered with a screen."""
    from companion.core.gamekind import register, unregister
    from companion.ui import screens
    from test_third_game import FORMAT, KIND
    register(KIND)
    screens.register_screen(FORMAT, DummyScreen)
    yield FORMAT
    screens.unregister_screen(FORMAT)
    unregister(FORMAT)


def test_a_registered_game_with_a_screen_gets_its_tab(store, dummy_game):
    from test_third_game import record
    gid = store.create(record(["Ana"]), "tally one")
    app = page(store)
    assert list(app.tabs.titles) == ["Among the Stars", "Small Star Empires",
                                     "Tally (test game)", "History"]
    assert len(app.tabs.children) == 4
    assert dummy_game not in app.screens              # built when first opened
    # the address's game opens the screen of its record's format (through the registry)
    app.apply_query(f"game={gid}&seat=Ben")
    assert app.tabs.selected_index == 2
    screen = app.screens[dummy_game]
    assert isinstance(screen, DummyScreen)
    assert screen.opened == [gid] and ("Ben", None) in screen.views
    assert app.tabs.children[2].children == (screen.box,)
    assert app.title.value.startswith("<h2 style='margin:4px 0'>Tally (test game)")
    assert app.shown_game() == (gid, 1)
    before = screen.ticks
    app.live_tick()
    assert screen.ticks == before + 1
    # History stays the last tab
    app.tabs.selected_index = 3
    assert app.history is not None and app.tabs.children[3].children == (app.history.box,)


def test_a_registered_game_without_a_screen_gets_no_tab(store):
    from companion.core.gamekind import register, unregister
    from test_third_game import FORMAT, KIND
    register(KIND)
    try:
        app = page(store)
        assert list(app.tabs.titles) == ["Among the Stars", "Small Star Empires", "History"]
    finally:
        unregister(FORMAT)
    app = page(store)
    assert list(app.tabs.titles) == ["Among the Stars", "Small Star Empires", "History"]
