"""Issue 39, a Small Star Empires game already under way, on the page (no browser): *A
game under way* on the setup screen, each player's pieces AND ships laid by taps (Ship:
one ship per tap, as many as the setup gives), whose turn it is ticked on that player's
page, then the game goes on move by move through the ordinary entry, every rule checked.

The book's sentences relied on (the positions are tests/test_sse_lay_position.py's NOW):
- S Setup: "each player starts with 2-4 ships of his color" (the setup's 3 here, none
  ever leaves the board: three ships a player).
- S Movement: "Your ship CANNOT MOVE INTO a system you have already colonized"."""
from __future__ import annotations

import copy

import pytest

from companion.core.errors import IllegalAction
from companion.sse import SseGame
from companion.sse.hexmap import HexMap, save_user_map
from companion.table.store import Store
from companion.ui.sse_board import hex_class
from test_sse_lay_page import panel, sse_app
from test_sse_lay_position import MAP, NOW, PLAYERS, setup
from widgetkit import one, said, shown


def lay_now_by_taps(app, entry: dict) -> None:
    p = panel(app)
    who = one(p, "sse-laid-player")
    if entry["player"] in who.options and who.value != entry["player"]:
        who.value = entry["player"]
    board = one(p, "sse-laid-board")
    for piece in entry["pieces"]:
        one(p, "sse-laid-what").value = piece["piece"]
        one(board, hex_class(tuple(piece["at"]))).click()
    one(p, "sse-laid-what").value = "ship"
    for ship in entry["ships"]:
        one(one(p, "sse-laid-board"), hex_class(tuple(ship["at"]))).click()
    one(p, "sse-laid-vp").value = entry["vp"]
    one(p, "sse-laid-next").value = bool(entry.get("next"))
    one(p, "sse-laid-go").click()


def test_a_game_under_way_from_the_setup_screen(store):
    save_user_map(HexMap.from_dict(copy.deepcopy(MAP)), "lay-now-test")
    app = sse_app(store)
    tab = app.sse
    tab.show_setup()
    tab.setup_part.map_pick.value = "lay-now-test"
    for box, name in zip(tab.setup_part.names, PLAYERS):
        box.value = name
    tab.setup_part.ships.value = 3
    finished, now = one(tab.box, "sse-setup-laid"), one(tab.box, "sse-setup-laid-now")
    finished.value = True
    now.value = True                                   # one or the other
    assert finished.value is False
    one(tab.box, "sse-start").click()
    assert "game under way" in said(app), said(app)
    g = tab.game
    assert g.setup.laid == "now" and g.actions == []
    p = panel(app)
    assert shown(p) and shown(one(p, "sse-laid-next"))
    assert ("Ship", "ship") in one(p, "sse-laid-what").options


def test_pieces_and_ships_laid_then_played_on_with_every_rule_checked(store):
    gid = store.create(SseGame(setup("now")).to_record(), title="under way")
    pages = {}
    for entry in NOW:                                  # each seat lays its own
        page = sse_app(Store(store.path), f"game={gid}&seat={entry['player']}")
        pages[entry["player"]] = page
        lay_now_by_taps(page, entry)
    laid = [a for a in store.load(gid)["actions"] if a["do"] == "lay"]
    assert [a["player"] for a in laid] == PLAYERS, said(pages["Cleo"])
    for a, want in zip(laid, NOW):
        assert sorted(s["at"] for s in a["ships"]) == sorted(s["at"] for s in want["ships"])
        assert a.get("next", False) == want.get("next", False)
    host = sse_app(Store(store.path), f"game={gid}")
    g = host.sse.game
    assert not g.state.finished and g.current == "Ben"
    assert not shown(panel(host)) and shown(host.sse.entry)
    # Ben's move through the page's session: recorded, and it is Cleo's turn
    host.sse.push({"player": "Ben", "ship": 0, "to": [5, 2], "piece": "city"})
    assert store.load(gid)["actions"][-1]["player"] == "Ben" and host.sse.game.current == "Cleo"
    # Cleo into her own City at [7, 4] (S Movement): refused, nothing recorded
    n = len(store.load(gid)["actions"])
    ship = next(i for i, x in enumerate(host.sse.game.state.players["Cleo"].ships)
                if tuple(x.at) == (8, 4))
    with pytest.raises(IllegalAction, match="own-system"):
        host.sse.push({"player": "Cleo", "ship": ship, "to": [7, 4], "piece": "city"})
    assert len(store.load(gid)["actions"]) == n and host.sse.game.current == "Cleo"


def test_a_fourth_ship_is_said_and_not_placed(store):
    gid = store.create(SseGame(setup("now")).to_record(), title="under way")
    page = sse_app(Store(store.path), f"game={gid}&seat=Ana")
    p = panel(page)
    one(p, "sse-laid-what").value = "ship"
    for at in ([0, 0], [1, 0], [2, 0], [1, -1]):
        one(one(p, "sse-laid-board"), hex_class(tuple(at))).click()
    assert "has 3 ships, all placed" in one(p, "sse-laid-message").value
    assert "<b>3</b> of 3 ships" in one(p, "sse-laid-count").value
    # tapped again: that ship is taken away (to move it)
    one(one(p, "sse-laid-board"), hex_class((2, 0))).click()
    assert "<b>2</b> of 3 ships" in one(p, "sse-laid-count").value
