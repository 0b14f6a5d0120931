"""Issue 39, the page (no browser), for Small Star Empires: *Score a finished game* on the
setup screen, and each player's pieces laid as they lie through the play screen's laying
panel (companion/ui/sse_lay.py), driven by its widgets as a hand would: choose City or
Trade Station, tap the systems, type the track's VP, *Lay X's pieces*.  The engine checks
the entry (companion/sse/lay.py): a refusal names the system and the rule, nothing is
recorded and the draft stays.

The map and the laid position are tests/test_sse_lay_position.py's: made-up TEST tiles
(ids HA, HB, HC, MA, MB), no real tile of the box; the final table there is computed by
hand from the rulebook's sentences (quoted there).  S Movement: a ship CANNOT "MOVE INTO
into your Homeworld System" (a piece laid on one's own homeworld is refused)."""
from __future__ import annotations

import copy
import html
import re

from companion.sse import SseGame
from companion.sse.hexmap import HexMap, save_user_map
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.sse_board import hex_class

from test_sse_lay_position import HAND, LAYS, MAP, PLAYERS, setup
from widgetkit import find, one, said, shown


def sse_app(store, query: str | None = None) -> App:
    app = App(store)
    if query is None:
        app.tabs.selected_index = 1                 # the Small Star Empires tab (built)
    else:
        app.apply_query(query)
    assert app.sse is not None, app.status.value
    return app


def laid_game(store, players=PLAYERS) -> str:
    return store.create(SseGame({**setup(), "players": list(players)}).to_record(),
                        title="laid")


def panel(app):
    return one(app.sse.box, "sse-lay-panel")


def lay_by_taps(app, entry: dict, *, press: bool = True) -> None:
    """``entry``'s pieces tapped on the panel's map, its VP typed, *Lay* pressed."""
    p = panel(app)
    who = one(p, "sse-laid-player")
    if entry["player"] in who.options and who.value != entry["player"]:
        who.value = entry["player"]
    for piece in entry["pieces"]:
        one(p, "sse-laid-what").value = piece["piece"]
        one(one(p, "sse-laid-board"), hex_class(tuple(piece["at"]))).click()
    one(p, "sse-laid-vp").value = entry["vp"]
    if press:
        one(p, "sse-laid-go").click()


def stored(store, gid):
    return [{k: v for k, v in a.items()} for a in store.load(gid)["actions"]]


def expected(entry: dict) -> dict:
    return {"do": "lay", "player": entry["player"], "vp": entry["vp"],
            "pieces": sorted(entry["pieces"], key=lambda p: p["at"])}


def test_score_a_finished_game_on_the_setup_screen_starts_a_laid_game(store):
    save_user_map(HexMap.from_dict(copy.deepcopy(MAP)), "lay-test")
    app = sse_app(store)
    tab = app.sse
    tab.show_setup()
    tab.setup_part.map_pick.value = "lay-test"
    for box, name in zip(tab.setup_part.names, PLAYERS):
        box.value = name
    tab.setup_part.ships.value = 3
    one(tab.box, "sse-setup-laid").value = True
    one(tab.box, "sse-start").click()
    assert "lay each player's pieces" in said(app), said(app)
    g = tab.game
    assert g.setup.laid == "final" and not g.state.finished and g.actions == []
    rec = store.load(store.games(format=g.format)[0]["id"])
    assert "timer" not in (rec.get("meta") or {})           # a game already played
    # the move entry and the play board are hidden; the laying panel shows every player
    assert not shown(tab.entry) and not shown(tab.board_part.board.box)
    assert shown(panel(app))
    assert one(panel(app), "sse-laid-player").options == tuple(PLAYERS)
    assert "Laying the table" in tab.turn.value
    assert tab.setup_part.laid.value is False               # the next game is played


def test_pieces_laid_by_taps_are_one_lay_entry_each_and_a_refusal_keeps_the_draft(store):
    gid = laid_game(store)
    app = sse_app(store)
    app.sse.open_game(gid)
    p = panel(app)
    # Ana's pieces, and a City on her own homeworld [0, 0] too (S Movement)
    lay_by_taps(app, LAYS[0], press=False)
    one(p, "sse-laid-what").value = "city"
    one(one(p, "sse-laid-board"), hex_class((0, 0))).click()
    one(p, "sse-laid-go").click()
    words = said(app)
    assert "[0, 0]" in words and "own homeworld" in words and "own-homeworld" in words, words
    beside = html.unescape(re.sub(r"<[^>]+>", "", one(p, "sse-laid-message").value))
    assert "Not laid" in beside and "own-homeworld" in beside and "[0, 0]" in beside
    assert stored(store, gid) == []                          # nothing recorded
    # the draft stayed: the homeworld's City taken away (Nothing), laid
    assert one(p, "sse-laid-vp").value == LAYS[0]["vp"]
    one(p, "sse-laid-what").value = "empty"
    one(one(p, "sse-laid-board"), hex_class((0, 0))).click()
    one(p, "sse-laid-go").click()
    assert stored(store, gid) == [expected(LAYS[0])]
    assert one(p, "sse-laid-player").options == ("Ben", "Cleo")
    assert "Ana's pieces are laid" in one(p, "sse-laid-message").value
    assert not shown(app.sse.msg)           # the status is not said twice beside the button
    # Ben taps a system Ana's City holds: refused (occupied), nothing recorded
    lay_by_taps(app, {**LAYS[1], "pieces": [*LAYS[1]["pieces"], {"at": [1, 0], "piece": "city"}]})
    assert "occupied" in said(app) and "[1, 0]" in said(app) and "Ana's City" in said(app)
    assert len(stored(store, gid)) == 1
    one(p, "sse-laid-what").value = "empty"
    one(one(p, "sse-laid-board"), hex_class((1, 0))).click()
    one(p, "sse-laid-go").click()
    lay_by_taps(app, LAYS[2])
    assert stored(store, gid) == [expected(a) for a in LAYS]
    g = app.sse.game
    assert g.state.finished and not shown(panel(app)) and not shown(app.sse.entry)
    totals = g.score().totals()
    assert totals == {p: sum(HAND[p].values()) for p in PLAYERS}
    assert "Cleo wins" in app.sse.final_part.final.value and "sse-final-table" in app.sse.final_part.final.value


def test_a_seat_lays_its_own_pieces_only_and_the_table_view_none(store):
    gid = laid_game(store)
    ben = sse_app(Store(store.path), f"game={gid}&seat=Ben")
    p = panel(ben)
    who = one(p, "sse-laid-player")
    assert who.options == ("Ben",) and not shown(who)        # nothing to choose
    lay_by_taps(ben, LAYS[1])
    assert [a["player"] for a in stored(store, gid)] == ["Ben"]
    assert "Your pieces are laid" in one(p, "sse-laid-title").value
    assert not shown(p.children[-1])                        # the controls
    table = sse_app(Store(store.path), f"game={gid}&view=table")
    tp = panel(table)
    assert shown(tp) and "on their pages" in one(tp, "sse-laid-title").value
    assert not shown(tp.children[-1])


def test_hostile_names_are_escaped(store):
    names = ["<script>alert(1)</script>", '=HYPERLINK("http://evil","x")', "Cleo"]
    gid = laid_game(store, names)
    app = sse_app(store)
    app.sse.open_game(gid)
    p = panel(app)
    title = one(p, "sse-laid-title").value
    assert "<script>" not in title and "&lt;script&gt;" in title
    assert "<script>" not in app.sse.turn.value
    # a refused entry of the hostile player: the message is escaped too
    one(p, "sse-laid-what").value = "city"
    one(one(p, "sse-laid-board"), hex_class((0, 0))).click()
    one(p, "sse-laid-go").click()
    msg = one(p, "sse-laid-message").value
    assert "own-homeworld" in msg and "<script>" not in msg and "&lt;script&gt;" in msg
    assert "<script>" not in app.status.value
    assert stored(store, gid) == []


def test_the_table_display_says_who_is_still_to_lay_not_who_is_to_move():
    """Seen on the table view while the pieces were laid: "Move 1 / to move: None"."""
    from companion.ui.tableview import sse_display
    g = SseGame(setup())
    g.push(copy.deepcopy(LAYS[0]))
    text = html.unescape(re.sub(r"<[^>]+>", " ", sse_display(g)))
    assert "Laying the table" in text and "still to lay:  Ben, Cleo" in text, text
    assert "to move" not in text and "None" not in text
