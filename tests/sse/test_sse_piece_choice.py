"""The piece a player colonises with (issue 10, item 6).

Engine: ``placeable_pieces`` / ``pieces_left`` say what the player can place, and
``legal_moves(..., piece=)`` offers only the destinations that take the selected piece.
Tab (in-process): the "Colonise with" choice goes back to City after every move, undo,
another page's move, a game opened or a new game, and stays chosen when another ship is
tapped (issue 37); it shows how many of each piece are left and never
offers a kind with none left; the green cells are legal for the piece actually selected.
Found at a table: after one Trade Station the choice stayed on Trade Station, so 7 of the
next 9 placements were Trade Stations by accident, and once they ran out the cells stayed
green and every click answered [rule: no-pieces].
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from companion.core.errors import IllegalAction
from companion.sse import SseGame
from companion.sse.hexmap import EFFECTS, save_user_map

from ssekit import game, grid, move


# ============================================================== engine
def test_placeable_pieces_follow_the_reserve():
    g = game("H1 P1 P2 P3 E P1 P2 H2", pieces={"cities": 1, "trade_stations": 1})
    assert g.placeable_pieces("Ann") == ("city", "trade_station")
    assert g.pieces_left("Ann") == {"city": 1, "trade_station": 1}
    move(g, "Ann", (1, 0), piece="trade_station")
    assert g.placeable_pieces("Ann") == ("city",)
    assert g.pieces_left("Ann") == {"city": 1, "trade_station": 0}
    move(g, "Bob", (6, 0), piece="city")
    assert g.placeable_pieces("Bob") == ("trade_station",)
    move(g, "Ann", (2, 0), piece="city")
    assert g.placeable_pieces("Ann") == ()
    move(g, "Bob", (5, 0), piece="trade_station")
    assert g.state.finished and g.placeable_pieces("Ann") == g.placeable_pieces("Bob") == ()


def test_legal_moves_for_a_piece_that_has_run_out():
    g = game("H1 P1 P2 P3 E P1 P2 H2", pieces={"cities": 3, "trade_stations": 1})
    move(g, "Ann", (1, 0), piece="trade_station")
    move(g, "Bob", (6, 0))
    every = g.legal_destinations("Ann", 0)
    assert every and g.legal_destinations("Ann", 0, piece="city") == every
    assert g.legal_destinations("Ann", 0, piece="trade_station") == set()
    with pytest.raises(IllegalAction, match=r"rule: no-pieces"):
        g.check({"player": "Ann", "ship": 0, "to": [2, 0], "piece": "trade_station"})
    with pytest.raises(ValueError):
        g.legal_moves("Ann", 0, piece="ship")


def test_unexplored_system_takes_a_city_only():
    g = game("H1 E U E H2")
    assert (2, 0) in g.legal_destinations("Ann", 0, piece="city")
    assert (2, 0) not in g.legal_destinations("Ann", 0, piece="trade_station")
    assert (1, 0) in g.legal_destinations("Ann", 0, piece="trade_station")


def test_open_borders_last_city_pays_the_passage():
    # Ann's last City pays to pass Bob's system: only a Trade Station can colonise beyond it
    g = game("H1 P1 P2 E H2\nE E E E E", ships=2, pieces={"cities": 2, "trade_stations": 2},
             variants={"open_borders": True})
    move(g, "Ann", (0, 1), ship=0)
    move(g, "Bob", (2, 0), ship=0)
    beyond = (3, 0)                        # from Ann's home, past Bob's (2, 0)
    m = {m.to: m for m in g.legal_moves("Ann", 1)}[beyond]
    assert m.pay and m.pieces == ("trade_station",)
    assert g.placeable_pieces("Ann") == ("city", "trade_station")
    assert beyond not in g.legal_destinations("Ann", 1, piece="city")
    assert (1, 0) in g.legal_destinations("Ann", 1, piece="city")
    assert beyond in g.legal_destinations("Ann", 1, piece="trade_station")


PROPS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(seed=hs.integers(0, 10_000), steps=hs.integers(0, 30),
       open_borders=hs.booleans(), unexplored=hs.booleans(), damaged=hs.booleans())
def test_legal_moves_with_a_piece_agree_with_check(seed, steps, open_borders, unexplored, damaged):
    """For every ship and piece: a hex is offered for that piece exactly when the move
    colonising it with that piece is legal (or it is a repair at home, which places none)."""
    rnd = random.Random(seed)
    g = SseGame({"players": ["Ann", "Bob"], "map": "basic-2p",
                 "pieces": {"ships": 2, "cities": rnd.randint(1, 6),
                            "trade_stations": rnd.randint(0, 3)},
                 "variants": {"open_borders": open_borders, "unexplored": unexplored,
                              "damaged_ships": damaged},
                 "options": {"pieces": "custom"}})          # a few pieces: runs out sooner
    while not g.state.finished and len(g.actions) < steps:
        p = g.current
        if damaged and rnd.random() < 0.15:
            healthy = [s.id for s in g.state.players[p].ships if not s.damaged]
            if healthy:
                g.push({"do": "damage", "player": p, "ship": rnd.choice(healthy)})
                continue
        i, m = rnd.choice([(i, m) for i in range(2) for m in g.legal_moves(p, i)])
        a = {"player": p, "ship": i, "to": list(m.to),
             "piece": rnd.choice(m.pieces) if m.kind == "colonise" else None}
        if m.kind == "explore":
            a["piece"] = "city"
            a["reveal"] = {"effect": "planetary", "planets": 1}
        g.push(a)
    if g.state.finished:
        return
    p = g.current
    st = g.state
    for ship in range(2):
        repairs = {m.to for m in g.legal_moves(p, ship) if m.kind == "repair"}
        for piece in ("city", "trade_station"):
            want = set(repairs)
            for h in st.map.systems:
                a = {"player": p, "ship": ship, "to": list(h), "piece": piece}
                if st.unexplored(h):
                    a["reveal"] = {"effect": EFFECTS[0], "planets": 1}
                if g.is_legal(a):
                    want.add(h)
            assert g.legal_destinations(p, ship, piece=piece) == want, (ship, piece)
        assert g.placeable_pieces(p) == tuple(k for k, n in g.pieces_left(p).items() if n)


# ============================================================== the tab, in-process
@pytest.fixture
def tab(tmp_path):
    from companion.table.store import Store
    from companion.ui.app import App
    app = App(Store(tmp_path / "games.sqlite"))
    app.tabs.selected_index = 1
    return app.sse


def start(tab, text: str, ships: int = 1, cities: int = 16, trade: int = 4, **variants):
    save_user_map(grid(text), "piece-test")
    tab.show_setup()
    tab.setup_part.map_pick.value = "piece-test"
    tab.setup_part.names[0].value, tab.setup_part.names[1].value = "Ann", "Bob"
    # 1 ship or a few pieces: not the book's (2-4 ships, 16 Cities and 4 Trade Stations)
    tab.setup_part.custom_pieces.value = not (2 <= ships <= 4 and (cities, trade) == (16, 4))
    tab.setup_part.ships.value = ships
    tab.setup_part.cities.value, tab.setup_part.trade.value = cities, trade
    for k, v in variants.items():
        getattr(tab, f"v_{k}").value = v
    tab.start_game()
    return tab.game


def select(tab, ship: int = 0):
    g = tab.game
    tab.driver().tap(g.state.players[g.current].ships[ship].at)
    assert tab.selected == ship


def offered(tab) -> list[str]:
    return [v for _, v in tab.piece.options]


def green(tab) -> set:
    return {h for h, b in tab.board_part.board.buttons.items() if "legal" in b._dom_classes}


LINE = "H1 P1 P2 P3 E Nr Nb E P3 P2 P1 H2\nE E E E E E E E E E E E"


def test_choice_goes_back_to_city_after_a_trade_station(tab):
    g = start(tab, LINE, ships=2)
    assert tab.piece.value == "city"
    select(tab)
    tab.piece.value = "trade_station"
    tab.driver().tap((1, 0))
    assert g.actions[-1]["piece"] == "trade_station"
    assert g.current == "Bob" and tab.piece.value == "city"          # the next player
    select(tab)
    tab.driver().tap((10, 0))
    assert g.actions[-1]["piece"] == "city"                          # not by accident
    assert tab.piece.value == "city"


def test_choice_goes_back_to_city_after_undo_reload_ship_change_and_new_game(tab):
    g = start(tab, LINE, ships=2)
    select(tab)
    tab.driver().tap((1, 0))
    # undo
    tab.piece.value = "trade_station"
    tab.driver().ask_undo()
    tab.driver().undo()
    assert g.current == "Ann" and tab.piece.value == "city"
    # another ship (by the ship picker and by clicking on the board): the piece chosen
    # stays chosen (issue 37: "tap Trade Station, then tap a ship: the choice silently
    # goes back to City, and a City is recorded")
    select(tab, 0)
    tab.piece.value = "trade_station"
    tab.ship_pick.value = 1
    assert tab.selected == 1 and tab.piece.value == "trade_station"
    tab.driver().tap(g.state.players["Ann"].ships[0].at)
    assert tab.selected == 0 and tab.piece.value == "trade_station"
    tab.piece.value = "city"
    # reload (a stale store, another tab's move) and resume
    tab.piece.value = "trade_station"
    tab.reload()
    assert tab.piece.value == "trade_station"         # nothing changed: kept
    tab.piece.value = "trade_station"
    tab.open_game(tab.gid)                            # the same game, nothing recorded
    assert tab.piece.value == "trade_station"
    # a new game
    tab.piece.value = "trade_station"
    start(tab, LINE)
    assert tab.piece.value == "city"


def test_choice_shows_what_is_left_and_hides_what_ran_out(tab):
    g = start(tab, LINE, cities=3, trade=1)
    assert tab.piece.options == (("City (3 left)", "city"), ("Trade Station (1 left)", "trade_station"))
    assert tab.piece_note.value == ""
    select(tab)
    tab.piece.value = "trade_station"
    tab.driver().tap((1, 0))
    select(tab)
    tab.driver().tap((10, 0))
    assert g.current == "Ann"
    assert offered(tab) == ["city"] and tab.piece.options[0][0] == "City (3 left)"
    assert "no Trade Stations left" in tab.piece_note.value
    # the reported failure: every green cell is accepted, none answers [rule: no-pieces]
    select(tab)
    cells = green(tab)
    assert cells == g.legal_destinations("Ann", 0, piece="city") and cells
    n = len(g.actions)
    tab.driver().tap(sorted(cells)[0])
    assert len(g.actions) == n + 1 and g.actions[-1]["piece"] == "city"


def test_only_trade_stations_left(tab):
    g = start(tab, LINE, cities=1, trade=2)
    select(tab)
    tab.driver().tap((1, 0))                 # Ann's only City
    select(tab)
    tab.driver().tap((10, 0))
    assert offered(tab) == ["trade_station"] and tab.piece.value == "trade_station"
    assert "no Cities left" in tab.piece_note.value
    select(tab)
    assert green(tab) == g.legal_destinations("Ann", 0, piece="trade_station")


def test_green_cells_are_legal_for_the_selected_piece(tab):
    g = start(tab, "H1 E U E E H2\nE E E E E E")
    select(tab)
    assert (2, 0) in green(tab)                          # an unexplored system: with a City
    tab.piece.value = "trade_station"
    assert (2, 0) not in green(tab) and (1, 0) in green(tab)
    assert green(tab) == g.legal_destinations("Ann", 0, piece="trade_station")
    assert "for a Trade Station" in tab.hint.value
    with pytest.raises(IllegalAction, match=r"rule: unexplored-city"):
        tab.board_part.clicked((2, 0))      # forced: the board shows it grey
    assert not g.actions
    tab.piece.value = "city"
    assert (2, 0) in green(tab)


def test_trade_station_then_a_ship_records_a_trade_station(tab):
    """Issue 37: "tap Trade Station, then tap a ship: the choice silently goes back to City,
    and a City is recorded. It only works ship first, then piece."  "A chosen piece or
    action stays chosen until the player changes it or the action is recorded."."""
    g = start(tab, LINE, ships=2)
    tab.piece.value = "trade_station"            # the piece first ...
    select(tab)                                  # ... then the ship
    assert tab.piece.value == "trade_station"
    tab.driver().tap((1, 0))
    assert g.actions[-1]["piece"] == "trade_station"
    assert tab.piece.value == "city"             # recorded: the next choice starts at City


def test_trade_station_then_a_ship_shows_the_trade_stations_cells_and_stores_it(tab):
    """Issue 37 (from tests/browser/test_entry_table_browser.py, issue 51): the piece first,
    then the ship: the Trade Station stays the one chosen (its button the active one), the
    green cells are the Trade Station's destinations, and the stored record holds a Trade
    Station."""
    g = start(tab, LINE, ships=2)
    player = g.current
    tab.piece.value = "trade_station"            # the piece first ...
    select(tab)                                  # ... then the ship
    assert "Trade Station" in dict((v, k) for k, v in tab.piece.options)[tab.piece.value]
    assert green(tab) == g.legal_destinations(player, 0, piece="trade_station")
    to = sorted(green(tab))[0]
    tab.driver().tap(to)
    assert tab.app.store.load(tab.gid)["actions"][-1]["piece"] == "trade_station"
