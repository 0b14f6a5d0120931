"""Issue 39, two things of the laying on the page (no browser):

- "Nothing typed is lost": a ``lay`` entry undone on a page is that player's draft again
  (companion/ui/ats_lay.py ``Draft.from_entry``, the inverse of ``Draft.entry``), kept in
  the store as after a tap, and the laying panel shows that player: every card, reactor,
  cube, spaceship, credit and VP as typed, and *Lay* again records the same entry.
- The table view (``?view=table``, companion/ui/tableview.py) while players are still to
  lay: "Laying the table · still to lay: …", and for a player still to lay no number that
  looks real (not the 0 VP and 10 credits of a player who has laid nothing, not a Small
  Star Empires reserve still whole), no station drawn.

Driven in-process as tests/test_lay_page.py and tests/test_table_view_display.py do: an
App on a store, the panel's widgets, the rendered HTML read back.

The books' sentences relied on:
- R 3 (Revival, spaceships): a spaceship lies on an empty space next to a card of the
  station (the one laid here, at [1, 1], touches the post at [0, 1]).

Every number is a fixture's ("Fixture: ..." cards defined in the record)."""
from __future__ import annotations

import copy
import html
import re

from companion.ats.game import Game
from companion.sse import SseGame
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.ats_lay import Draft, cell_class
from test_lay_page import CARDS, PLAYERS, PLOT, POST, put
from test_sse_lay_page import sse_app
from test_sse_lay_position import NOW as SSE_NOW, setup as sse_setup
from widgetkit import find, one, said, shown

#: Ana's station as typed: the Main Reactor with 1 cube, a post, a plot, an empty
#: reactor, a spaceship (Revival), 7 credits and 20 VP on the track (a fixture's numbers)
ANA = {"do": "lay", "player": "Ana", "credits": 7, "vp": 20,
       "cells": [{"at": [-1, 1], "card": PLOT},
                 {"at": [0, 0], "reactor": True, "cubes": 1},
                 {"at": [0, 1], "card": POST},
                 {"at": [1, 0], "reactor": True, "cubes": 0}],
       "spaceships": [[1, 1]]}


def laid_game(store, **options) -> str:
    g = Game({"players": PLAYERS, "options": {"laid": "final", "spaceships": True, **options}},
             cards=CARDS)
    return store.create(g.to_record(), title="laid")


def type_ana(app) -> None:
    """Ana's station (:data:`ANA`) tapped into the panel, as a hand would."""
    panel = one(app.root, "lay-panel")
    if one(panel, "lay-player").value != "Ana":
        one(panel, "lay-player").value = "Ana"
    put(app, (0, 0), "reactor", cubes=1)
    put(app, (0, 1), "card", card=POST)
    put(app, (-1, 1), "card", card=PLOT)
    put(app, (1, 0), "reactor", cubes=0)
    put(app, (1, 1), "ship")
    one(panel, "lay-credits").value = 7
    one(panel, "lay-vp").value = 20


def recorded(store, gid) -> list[dict]:
    """The stored actions without the turn they were entered in."""
    return [{k: v for k, v in a.items() if k not in ("year", "turn")}
            for a in store.load(gid)["actions"]]


def grid(app) -> dict[tuple[int, int], str]:
    """What the panel's grid shows: each cell's text by where it is ("+" left out)."""
    out = {}
    for b in one(app.root, "lay-grid").children:
        cls = next(c for c in b._dom_classes if c.startswith("lay-at-"))
        at = tuple(int(x.replace("m", "-")) for x in cls[len("lay-at-"):].split("_"))
        if b.description != "+":
            out[at] = b.description
    return out


TYPED = {(0, 0): "Main ■", (0, 1): POST, (-1, 1): PLOT, (1, 0): "Reactor □", (1, 1): "ship"}


def undo(app) -> None:
    app.ats.undo_btn.click()
    one(app.root, "undo-yes").click()


def test_a_draft_read_from_its_entry_gives_the_same_entry():
    d = Draft.from_entry(copy.deepcopy(ANA))
    assert d.entry("Ana") == ANA
    assert d.cells[(0, 0)] == {"reactor": True, "cubes": 1} and d.ships == {(1, 1)}
    assert (d.credits, d.vp) == (7, 20)
    # the normalised entry the engine gives back (year and turn added) reads the same
    assert Draft.from_entry({**ANA, "year": 4, "turn": 6}).to_json() == d.to_json()


def test_an_undone_lay_is_the_players_draft_again_and_lays_the_same_entry(store):
    gid = laid_game(store)
    app = App(store)
    app.ats.open_game(gid)
    type_ana(app)
    assert grid(app) == TYPED
    one(app.root, "lay-station").click()
    assert recorded(store, gid) == [ANA], said(app)
    panel = one(app.root, "lay-panel")
    assert one(panel, "lay-player").options == ("Ben",)       # Ben's turn to lay
    undo(app)
    assert store.load(gid)["actions"] == [] and "Undone: Ana" in said(app)
    # the panel is Ana's again, with everything she had typed
    assert one(panel, "lay-player").value == "Ana"
    assert grid(app) == TYPED
    assert one(panel, "lay-credits").value == 7 and one(panel, "lay-vp").value == 20
    assert "Lay Ana's station" == one(panel, "lay-station").description
    # kept in the store through the same path as a tap: another page finds it
    assert app.session.draft("lay", "Ana") == Draft.from_entry(ANA).to_json()
    other = App(Store(store.path))
    other.apply_query(f"game={gid}&seat=Ana")
    assert grid(other) == TYPED and one(other.root, "lay-vp").value == 20
    # Lay again: the very entry that was undone
    one(panel, "lay-station").click()
    assert recorded(store, gid) == [ANA], said(app)
    assert app.session.draft("lay", "Ana") is None           # laid: the draft is dropped


def test_a_lay_undone_on_a_seat_page_reaches_the_host_page_that_saw_an_older_draft(store):
    """The host's page had Ana's draft in hand before she laid it on her phone; when she
    undoes it there, the host's page shows her station as she laid it, not what it held."""
    gid = laid_game(store)
    host = App(store)
    host.ats.open_game(gid)
    one(host.root, "lay-player").value = "Ana"
    put(host, (0, 0), "reactor", cubes=2)                     # an older draft of hers
    ana = App(Store(store.path))
    ana.apply_query(f"game={gid}&seat=Ana")
    type_ana(ana)
    one(ana.root, "lay-station").click()
    assert recorded(store, gid) == [ANA], said(ana)
    host.live_tick()
    assert one(host.root, "lay-player").options == ("Ben",)
    undo(ana)
    assert store.load(gid)["actions"] == [], said(ana)
    assert grid(ana) == TYPED                                  # her page: hers again
    host.live_tick()
    one(host.root, "lay-player").value = "Ana"
    assert grid(host) == TYPED and one(host.root, "lay-credits").value == 7


def test_undoing_a_turn_action_leaves_the_drafts_alone(store):
    """Once every station is laid, an undone build is not a lay: no draft is made."""
    g = Game({"players": PLAYERS, "options": {"laid": "now", "laid_at": {"year": 2, "turn": 3}}},
             cards=CARDS)
    gid = store.create(g.to_record(), title="under way")
    app = App(store)
    app.ats.open_game(gid)
    for p in PLAYERS:
        one(app.root, "lay-player").value = p
        put(app, (0, 0), "reactor", cubes=2)
        one(app.root, "lay-station").click()
    assert app.ats.game.state.laid == PLAYERS, said(app)
    app.ats.push_entry({"player": "Ana", "do": "discard", "card": POST})
    undo(app)
    assert [a["do"] for a in store.load(gid)["actions"]] == ["lay", "lay"], said(app)
    assert all(app.session.draft("lay", p) is None for p in PLAYERS)
    assert find(app.ats.mode_panel.box, "lay-panel") == [] and shown(one(app.root, "turn-entry"))


# -- the table view while the table is laid ---------------------------------------------
def words(value: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def tv_row(value: str, player: str) -> dict[str, str]:
    """The display's scoreboard row of ``player``: each cell's text by its class."""
    m = re.search(rf"<tr class='tv-row [^']*' data-player='{player}'>(.*?)</tr>", value,
                  flags=re.S)
    assert m, value
    return {c: words(v) for c, v in re.findall(r"<td class='([\w-]+)'>(.*?)</td>",
                                               m.group(1), flags=re.S)}


def test_the_among_the_stars_table_view_shows_no_numbers_for_a_station_still_to_lay(store):
    g = Game({"players": PLAYERS, "options": {"laid": "now", "laid_at": {"year": 2, "turn": 3}}},
             cards=CARDS)
    gid = store.create(g.to_record(), title="under way")
    table = App(Store(store.path))
    table.apply_query(f"view=table&game={gid}")
    tv = table.ats.views_part.table_stations.value
    assert "Laying the table still to lay: Ana, Ben" in words(tv), words(tv)
    for p in PLAYERS:      # not "0 VP, 10 credits": the default of a player who has not laid
        assert tv_row(tv, p) == {"tv-who": f"{p} not laid yet", "vp": "—", "credits": "—",
                                 "cubes": "—", "locations": "—"}, tv_row(tv, p)
        assert f"<tr class='tv-row tv-todo' data-player='{p}'>" in tv
    stations = tv.split("tv-band")[0]
    assert "<svg" not in stations and " VP" not in words(stations), stations
    assert "Year 2" not in words(tv) and "waiting for" not in words(tv)
    # Ana lays on the host's page; the table view's next poll shows her numbers only
    host = App(store)
    host.ats.open_game(gid)
    one(host.root, "lay-player").value = "Ana"
    put(host, (0, 0), "reactor", cubes=2)
    put(host, (0, 1), "card", card=POST)
    one(host.root, "lay-credits").value = 5
    one(host.root, "lay-vp").value = 10
    one(host.root, "lay-station").click()
    table.live_tick()
    tv = table.ats.views_part.table_stations.value
    assert tv_row(tv, "Ana") == {"tv-who": "Ana", "vp": "10", "credits": "5", "cubes": "2",
                                 "locations": "1"}, tv_row(tv, "Ana")
    assert tv_row(tv, "Ben")["tv-who"] == "Ben not laid yet" and tv_row(tv, "Ben")["vp"] == "—"
    assert "<tr class='tv-row tv-done' data-player='Ana'>" in tv
    stations = tv.split("tv-band")[0]
    assert stations.count("<svg") == 1 and "10 VP" in words(stations)
    assert "still to lay: Ben" in words(tv)
    # Ben's too: the game goes on, the display is the turn's again
    one(host.root, "lay-player").value = "Ben"
    put(host, (0, 0), "reactor", cubes=2)
    one(host.root, "lay-station").click()
    table.live_tick()
    tv = table.ats.views_part.table_stations.value
    assert "not laid yet" not in tv and "Laying the table" not in words(tv)
    assert "Year 2 · Turn 3" in words(tv) and tv.split("tv-band")[0].count("<svg") == 2


def test_the_small_star_empires_table_view_shows_no_numbers_for_a_player_still_to_lay(store):
    gid = store.create(SseGame(sse_setup("now")).to_record(), title="under way")
    table = sse_app(Store(store.path), f"game={gid}&view=table")
    disp = table.sse.views_part.display
    tv = disp.value
    assert "Laying the table still to lay: Ana, Ben, Cleo" in words(tv), words(tv)
    for p in ("Ana", "Ben", "Cleo"):  # not 0 VP with the whole reserve: nothing is laid yet
        assert tv_row(tv, p) == {"tv-who": f"{p} not laid yet", "vp": "—", "if-ended": "—",
                                 "cities": "—", "trade": "—"}, tv_row(tv, p)
    # Ana's pieces laid (through the store, as another page would): her numbers, and no
    # "if ended" for anyone while the others' pieces are not on the map
    s = Store(store.path)
    g = SseGame.from_record(s.load(gid))
    a = g.push(copy.deepcopy(SSE_NOW[0]))
    s.append(gid, 0, a)
    s.close()
    table.live_tick()
    tv = disp.value
    ps = g.state.players["Ana"]
    assert tv_row(tv, "Ana") == {"tv-who": "Ana", "vp": str(ps.vp), "if-ended": "—",
                                 "cities": str(ps.cities), "trade": str(ps.trade_stations)}
    assert tv_row(tv, "Ben")["tv-who"] == "Ben not laid yet" and tv_row(tv, "Ben")["vp"] == "—"
    assert "still to lay: Ben, Cleo" in words(tv)


def test_a_hostile_name_still_to_lay_is_text_on_the_table_view(store):
    hostile = "<img src=x onerror=alert(1)>"
    g = Game({"players": [hostile, "Ben"], "options": {"laid": "final"}}, cards=CARDS)
    gid = store.create(g.to_record(), title="laid")
    table = App(Store(store.path))
    table.apply_query(f"view=table&game={gid}")
    tv = table.ats.views_part.table_stations.value
    assert hostile not in tv and "&lt;img src=x onerror=alert(1)&gt;" in tv
    assert f"still to lay: {hostile}, Ben" in words(tv)
