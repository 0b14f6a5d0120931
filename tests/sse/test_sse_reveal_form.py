"""The Small Star Empires tab's exploration form, driven from Python (no browser), and its
setup's pieces (issue 11).

The form offers exactly the engine's choices (``nordinn_choices``, ``refuel_choices``)
under the game's ``setup.options``, asks only when there is a real choice, and records
what was chosen.  The book (S = Small Star Empires rulebook):

* Nordinn Empire: "If you don't have any Cities adjacent to this system, then choose
  another player's City and destroy that instead. If you destroy an adjacent City this
  way, place put the Nordinn Empire conquest marker on the system."
* Refueling Station: "You may then move the ship in this system into an adjacent
  uncolonized system and colonize that system."
* S Setup: "each player starts with 2-4 ships".
"""
from __future__ import annotations

import pytest

from companion.sse import SseGame
from companion.sse.hexmap import save_user_map

from ssekit import grid

# Ann's homeworld (0,0), the unexplored tile (2,0); Bob's homeworld (4,2)
HOLLANA = """
H1 E U E E
E  E E E E
E  E E E H2
"""
ADJACENT = {(3, 0), (1, 0), (2, 1), (1, 1)}          # the systems next to (2,0)


@pytest.fixture
def tab(tmp_path):
    from companion.table.store import Store
    from companion.ui.app import App
    app = App(Store(tmp_path / "games.sqlite"))
    app.tabs.selected_index = 1
    return app.sse


def start(tab, text: str, ships: int = 2) -> SseGame:
    """A new game through the setup screen (the book's pieces)."""
    save_user_map(grid(text), "reveal-test")
    tab.show_setup()
    tab.setup_part.map_pick.value = "reveal-test"
    tab.setup_part.names[0].value, tab.setup_part.names[1].value = "Ann", "Bob"
    tab.setup_part.ships.value = ships
    tab.start_game()
    return tab.game


def open_record(tab, setup: dict) -> SseGame:
    """A game with setup.options the setup screen does not offer, opened from the store."""
    gid = tab.store.create(SseGame(setup).to_record(), title="reveal test")
    tab.open_game(gid)
    return tab.game


def click_move(tab, frm, to):
    tab.driver().tap(tuple(frm))
    tab.driver().tap(tuple(to))


def widget(tab, cls):
    """The one widget of the exploration form with CSS class ``cls``."""
    def walk(x):
        yield x
        for c in getattr(x, "children", ()):
            yield from walk(c)
    found = [x for c in tab.reveal_part.extra.children for x in walk(c) if cls in getattr(x, "_dom_classes", ())]
    assert len(found) == 1, (cls, found)
    return found[0]


def shown(x) -> bool:
    return x.layout.display != "none"


def confirm(tab):
    widget(tab, "sse-confirm").click()


def status(tab) -> str:
    return tab.app.status.value


def far_cities(tab) -> SseGame:
    """Ann's City (0,1) and Bob's Cities (1,2) and (4,1): none next to (2,0).  Ann's ship 1
    then explores (2,0) from (0,2)."""
    g = start(tab, HOLLANA)
    click_move(tab, (0, 0), (0, 1))                  # Ann ship 0
    click_move(tab, (4, 2), (1, 2))                  # Bob ship 0
    tab.driver().tap((0, 0))
    tab.ship_pick.value = 1
    tab.driver().tap((0, 2))                             # Ann ship 1, past her own (0,1)
    click_move(tab, (4, 2), (4, 1))                  # Bob ship 1
    assert {h for h, c in g.state.colonies.items() if c.piece == "city"} == {
        (0, 1), (1, 2), (4, 1), (0, 2)}
    assert not ADJACENT & set(g.state.colonies)
    return g


def test_nordinn_far_cities_the_form_offers_the_other_players_and_records_the_choice(tab):
    """No City next to the Nordinn Empire: any of Bob's Cities may go (the default
    reading), never Ann's own; the form asks, labelled with owner and cell, and the
    recorded action destroys the one chosen (far: no conquest marker)."""
    g = far_cities(tab)
    n = len(g.actions)
    click_move(tab, (0, 2), (2, 0))                  # Ann ship 1 explores (2,0)
    assert tab.reveal_part.pending is not None and len(g.actions) == n
    widget(tab, "sse-reveal").value = "nordinn_empire"
    destroy = widget(tab, "sse-destroy")
    assert shown(destroy)
    assert g.nordinn_choices("Ann", (2, 0)) == [(1, 2), (4, 1)]
    assert list(destroy.options) == [("choose the City…", None),
                                     ("Bob's City at [1, 2]", (1, 2)),
                                     ("Bob's City at [4, 1]", (4, 1))]
    confirm(tab)                                     # nothing chosen: asked, not recorded
    assert "Choose the City the Nordinn Empire destroys" in status(tab)
    assert len(g.actions) == n
    destroy.value = (4, 1)
    confirm(tab)
    a = g.actions[-1]
    assert a["reveal"] == {"effect": "nordinn_empire"} and a["destroy"] == [4, 1]
    assert tab.store.load(tab.gid)["actions"][-1] == a
    st = g.state
    assert (4, 1) not in st.colonies and (4, 1) not in st.conquered and (1, 2) in st.colonies
    assert st.players["Ann"].ships[1].damaged and (2, 0) in st.blocked
    assert "destroyed the City at [4, 1]" in status(tab)


def test_nordinn_one_far_city_is_named_and_not_asked(tab):
    g = start(tab, HOLLANA)
    click_move(tab, (0, 0), (0, 1))                  # Ann
    click_move(tab, (4, 2), (4, 1))                  # Bob's only City, far
    tab.driver().tap((0, 0))
    tab.ship_pick.value = 1
    tab.driver().tap((2, 0))                             # Ann ship 1 explores (2,0)
    widget(tab, "sse-reveal").value = "nordinn_empire"
    assert not shown(widget(tab, "sse-destroy"))
    note = widget(tab, "sse-destroy-note")
    assert shown(note) and "Bob's City at [4, 1]" in note.value
    confirm(tab)
    assert g.actions[-1]["destroy"] == [4, 1] and (4, 1) not in g.state.colonies


def test_nordinn_option_adjacent_city_far_cities_are_not_offered(tab):
    """options.nordinn: adjacent_city (only a record can set it): far Cities are safe and
    the form says nothing is destroyed."""
    m = grid(HOLLANA).to_dict()
    g = open_record(tab, {"players": ["Ann", "Bob"], "map": m, "pieces": {"ships": 2},
                          "options": {"nordinn": "adjacent_city"}})
    click_move(tab, (0, 0), (0, 1))
    click_move(tab, (4, 2), (4, 1))
    tab.driver().tap((0, 0))
    tab.ship_pick.value = 1
    tab.driver().tap((2, 0))
    widget(tab, "sse-reveal").value = "nordinn_empire"
    assert not shown(widget(tab, "sse-destroy"))
    assert "No City is destroyed" in widget(tab, "sse-destroy-note").value
    confirm(tab)
    assert "destroy" not in g.actions[-1] and (4, 1) in g.state.colonies


REFUEL = "H1 U U E H2\nE P1 E E E"


def refuel_form(tab, g):
    tab.driver().tap((0, 0))
    tab.driver().tap((1, 0))                             # Ann explores (1,0)
    widget(tab, "sse-reveal").value = "refuelling_station"
    then = widget(tab, "sse-then")
    assert shown(then)
    return then


def test_refuel_then_to_offers_the_engines_choices_and_enters_an_unexplored_system(tab):
    """The default reading (options.refuel: uncolonised): the extra move may enter the
    Unexplored System (2,0); the form then asks for that tile too and records it."""
    g = start(tab, REFUEL)
    then = refuel_form(tab, g)
    want = [m.to for m in g.refuel_choices("Ann", (1, 0), ship=0)]
    assert want == [(0, 1), (1, 1), (2, 0)]
    assert [v for _, v in then.options] == [None, *want]
    assert ("[2, 0] (unexplored)", (2, 0)) in then.options
    then.value = (1, 1)
    piece = widget(tab, "sse-then-piece")
    assert shown(piece) and [v for _, v in piece.options] == ["city", "trade_station"]
    then.value = (2, 0)
    assert not shown(piece)
    widget(tab, "sse-reveal-2").value = "planetary"
    widget(tab, "sse-reveal-planets-2").value = 2
    confirm(tab)
    a = g.actions[-1]
    assert a["then"] == {"to": [2, 0], "piece": "city",
                         "reveal": {"effect": "planetary", "planets": 2}}
    assert g.state.players["Ann"].vp == 1 + 2 and g.state.players["Ann"].ships[0].at == (2, 0)
    assert "then to [2, 0], revealed Planetary System (City)" in status(tab)


def test_refuel_option_explored_offers_no_unexplored_system(tab):
    m = grid(REFUEL).to_dict()
    g = open_record(tab, {"players": ["Ann", "Bob"], "map": m, "pieces": {"ships": 2},
                          "options": {"refuel": "explored"}})
    then = refuel_form(tab, g)
    assert [v for _, v in then.options] == [None, (0, 1), (1, 1)]
    then.value = (1, 1)
    widget(tab, "sse-then-piece").value = "trade_station"
    confirm(tab)
    assert g.actions[-1]["then"] == {"to": [1, 1], "piece": "trade_station"}


def test_refuel_into_a_nordinn_empire_destroys_a_choice_from_that_state(tab):
    """A chain: the Refuelling Station's extra move enters an Unexplored System that is a
    Nordinn Empire.  Ann's City on the Refuelling Station is then her own adjacent City,
    so the engine names it and the form records it without asking."""
    g = start(tab, REFUEL)
    then = refuel_form(tab, g)
    then.value = (2, 0)
    widget(tab, "sse-reveal-2").value = "nordinn_empire"
    note = widget(tab, "sse-destroy-note-2")
    assert "Ann's City at [1, 0]" in note.value
    assert not shown(widget(tab, "sse-destroy-2"))
    confirm(tab)
    a = g.actions[-1]
    assert a["then"]["reveal"] == {"effect": "nordinn_empire"}
    assert a["then"]["destroy"] == [1, 0] and (1, 0) in g.state.conquered
    # the turn line and the undo question describe it (a 'then' without a piece)
    assert "then to [2, 0], revealed Nordinn Empire, destroyed the City at [1, 0]" in status(tab)
    tab.driver().ask_undo()
    assert "destroyed the City at [1, 0]" in tab.undo_box.children[0].value


# ---------------------------------------------------------------------- setup: the pieces
def test_ships_choice_is_the_books_and_custom_pieces_are_ticked(tab):
    """S Setup: "each player starts with 2-4 ships".  The ships choice offers 2 to 4; 1 to
    6 only with 'Custom pieces' ticked (or in epic mode), and an off-book setup is refused
    until it is ticked; the record then says options.pieces: custom."""
    assert [v for _, v in tab.setup_part.ships.options] == [None, 2, 3, 4]
    tab.setup_part.custom_pieces.value = True
    assert [v for _, v in tab.setup_part.ships.options] == [None, 1, 2, 3, 4, 5, 6]
    tab.setup_part.ships.value = 1
    tab.setup_part.custom_pieces.value = False
    assert tab.setup_part.ships.value is None and [v for _, v in tab.setup_part.ships.options] == [None, 2, 3, 4]
    tab.setup_part.v_epic.value = True
    assert 5 in [v for _, v in tab.setup_part.ships.options]
    tab.setup_part.v_epic.value = False
    save_user_map(grid("H1 P1 P2 P3 H2"), "pieces-test")
    tab.show_setup()
    tab.setup_part.map_pick.value = "pieces-test"
    tab.setup_part.names[0].value, tab.setup_part.names[1].value = "Ann", "Bob"
    tab.setup_part.ships.value = 3
    tab.setup_part.cities.value = 10
    with pytest.raises(Exception, match="tick 'Custom pieces'") as e:
        tab.start_game()
    assert "4 Ships, 16 Cities and 4 Trade Stations per player" in str(e.value)
    assert tab.game is None
    tab.setup_part.custom_pieces.value = True
    tab.start_game()
    assert tab.game.setup.option("pieces") == "custom" and tab.game.setup.cities == 10
    # the book's pieces: nothing to say in the record
    tab.show_setup()
    tab.setup_part.custom_pieces.value = False
    tab.setup_part.cities.value = 16
    tab.setup_part.ships.value = 2
    tab.start_game()
    assert "options" not in tab.store.load(tab.gid)["setup"]
