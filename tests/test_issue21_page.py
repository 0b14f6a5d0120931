"""Issue 21, the page (no browser): the Revival modules on a 2-name setup screen,
spaceships placed and removed by tapping the drawn station, the draw shown on the
setup screen, the Revival 2-player turn line, the play timer, the what-if explorer
and the Small Star Empires final table.  The browser path is
tests/browser/test_revival_two_players.py.

Cards with invented numbers are "Fixture: ..." entries of the record; no real
card's number is used."""
from __future__ import annotations

import pytest

from companion.ats.game import Game
from companion.core.store import Store
from companion.ui.app import App

SHIPYARD = {"name": "Fixture: shipyard", "types": ["military"], "cost": 1, "energy": 0, "vp": 1,
            "max": "none", "abilities": [{"when": "immediate", "spaceships": 1,
                                          "target": "other"}]}
PLAYERS = ["Ana", "Ben"]


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "games.sqlite")
    yield s
    s.close()


def shown(widget) -> bool:
    return widget.layout.display != "none"


# ------------------------------------------------------- setup: 2 names keep the modules
def test_two_names_keep_the_revival_modules_on_the_setup_screen(store):
    # R 2.1 (2-player setup): "If you wish, you may add the Advisors in your game";
    # R 4: "In a 2 player game they are both placed somewhere between the 2 players."
    # R 3: "Revival introduces a brand new mechanic called Spaceships which is found in
    # some of the cards in the set." (the 2-player game is played with those cards)
    app = App(store)
    ms = app.mode_setup
    for name, box in zip(PLAYERS, app.name_boxes):
        box.value = name
    assert shown(ms.two_player)
    assert shown(ms.spaceships) and shown(ms.use_advisors) and shown(ms.all_in)
    assert not shown(ms.timing)                  # "Timing rules" are for 3+ players (R 5)
    ms.two_player.value = "revival"
    ms.spaceships.value = True
    ms.use_advisors.value = True
    assert len(ms._tiles) == 2                   # both tiles between the 2 players
    assert all(t["between"] == ("Ana", "Ben") for t in ms._tiles)
    # a third name and back: still shown (the only way found before the fix)
    app.name_boxes[2].value = "Cleo"
    app.name_boxes[2].value = ""
    assert shown(ms.spaceships) and shown(ms.use_advisors) and not shown(ms.timing)


# ------------------------------------------------------------ spaceships by tapping
def open_revival(store) -> App:
    game = Game({"players": PLAYERS, "options": {"two_player": "revival", "first_active": "Ana",
                                                 "spaceships": True, "reactor_supply": 8}},
                cards=[SHIPYARD])
    gid = store.create(game.to_record())
    app = App(store)
    app.open_game(gid)
    return app


def ship_buttons(box, cls):
    out = []

    def walk(x):
        if cls in getattr(x, "_dom_classes", ()):
            out.append(x)
        for k in getattr(x, "children", ()):
            walk(k)
    walk(box)
    return out


def test_spaceships_are_placed_and_removed_by_tapping_the_drawn_station(store):
    app = open_revival(store)
    app.entry_player.value = "Ana"
    app.entry_action.value = "build"
    app.entry_card.value = SHIPYARD["name"]
    app._clicked((0, 1))
    picker = ship_buttons(app.extra, "ship-picker")
    assert len(picker) == 1
    # only Ben's station is drawn: the card's target is "other" (the engine's spots)
    assert ship_buttons(app.extra, "ship-station-2") and not ship_buttons(app.extra,
                                                                         "ship-station-1")
    spots = ship_buttons(app.extra, "ship-spot")
    spec = app.game.needs({"player": "Ana", "do": "build", "card": SHIPYARD["name"],
                           "at": [0, 1]})["spaceships"]
    assert len(spots) == len(spec["spots"]) > 0
    target = next(b for b in spots if "cell_r1_c0" in b._dom_classes)
    target.click()
    assert "ship-picked" in target._dom_classes
    other = next(b for b in spots if b is not target)
    other.click()                                # one spaceship only: refused, kept as it was
    assert "At most 1" in app.entry_msg.value + app.status.value
    assert "ship-picked" not in other._dom_classes
    next(b for b in ship_buttons(app.extra, "confirm-build")).click()
    assert app.game.actions[-1]["spaceships"] == [{"player": "Ben", "at": [1, 0]}]
    assert app.game.state.station("Ben").spaceships == {(1, 0)}
    # Ben removes it: the new action, by tapping the spaceship on his drawn station
    app.entry_player.value = "Ben"
    app.entry_action.value = "remove_spaceships"
    app.entry_card.value = "Garden"
    ships = ship_buttons(app.extra, "ship-spot")
    assert [b for b in ships if "cell_r1_c0" in b._dom_classes] == ships and len(ships) == 1
    confirm = ship_buttons(app.extra, "confirm-remove-ships")[0]
    confirm.click()                              # nothing tapped: a message, nothing sent
    assert len(app.game.actions) == 1
    ships[0].click()
    assert "ship-picked" in ships[0]._dom_classes
    confirm.click()
    assert app.game.actions[-1]["do"] == "remove_spaceships"
    assert app.game.actions[-1]["cells"] == [[1, 0]]
    assert app.game.state.station("Ben").spaceships == set()
