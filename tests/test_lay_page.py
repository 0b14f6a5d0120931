"""Issue 39, the page (no browser): *Score a finished game* on the setup screen, and each
station laid as it lies through the play screen's laying panel (companion/ui/ats_lay.py),
driven by its widgets as a hand would: tap a cell, say what lies there, the credits and
the track's VP, *Lay the station*.  The engine checks the entry (companion/ats/lay.py):
a refusal names the card, the cell and the rule, nothing is recorded and the draft stays.

The books' sentences relied on:
- B 4: "build it anywhere in your Space Station adjacent to an already-built location"
  (a card not connected to the Main Reactor is refused).
- B 6: "Gain 1 VP for every Power Reactor that DOES NOT contain any Energy cubes."; "Gain
  1 VP for every 3 credits remaining."

Every number is a fixture's ("Fixture: ..." cards defined in the record)."""
from __future__ import annotations

import html
import re

from companion.ats.game import Game
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.ats_lay import cell_class
from widgetkit import find, one, said, shown
from recordkit import fixture_card

PLAYERS = ["Ana", "Ben"]
POST = "Fixture: lay post"          # 2 VP printed (a fixture's number)
PLOT = "Fixture: lay plot"          # 1 VP printed
CARDS = [fixture_card(POST, types=["military"], cost=1, energy=0, vp=2, max=2),
         fixture_card(PLOT, types=["business"], cost=1, energy=0, vp=1)]


def laid_game(store) -> str:
    g = Game({"players": PLAYERS, "options": {"laid": "final"}}, cards=CARDS)
    return store.create(g.to_record(), title="laid")


def tap(app, at):
    one(app.root, cell_class(at)).click()


def put(app, at, what, *, card=None, cubes=None):
    tap(app, at)
    panel = one(app.root, "lay-panel")
    one(panel, "lay-what").value = what
    if card is not None:
        one(panel, "lay-card").value = card
    if cubes is not None:
        one(panel, "lay-cubes").value = cubes
    one(panel, "lay-put").click()


def setup_screen(store, *ticks: str, **numbers: int) -> App:
    """A host's page with the players' names typed on the setup screen, each of ``ticks``
    (e.g. ``"setup-laid"``) ticked and each of ``numbers`` (``laid_year=2``: the box
    ``setup-laid-year``) typed, then *Start* pressed: the path a table takes."""
    app = App(store)
    for name, box in zip(PLAYERS, app.ats.setup_part.name_boxes):
        box.value = name
    for tick in ticks:
        one(app.root, tick).value = True
    for key, value in numbers.items():
        one(app.root, "setup-" + key.replace("_", "-")).value = value
    one(app.root, "start-game").click()
    return app


def test_score_a_finished_game_on_the_setup_screen_starts_a_laid_game(store):
    app = setup_screen(store, "setup-laid")
    assert "lay each player's station" in said(app)
    g = app.ats.game
    assert g.setup.options.get("laid") == "final" and not g.state.finished
    rec = store.load(store.games()[0]["id"])
    assert "timer" not in (rec.get("meta") or {})          # a game already played
    # the turn entry is hidden; the laying panel shows, for the host, either station
    assert not shown(one(app.root, "turn-entry"))
    panel = one(app.root, "lay-panel")
    assert one(panel, "lay-player").options == tuple(PLAYERS)


def test_a_station_laid_by_taps_is_one_lay_entry_and_a_refusal_keeps_the_draft(store):
    gid = laid_game(store)
    app = App(store)
    app.ats.open_game(gid)
    panel = one(app.root, "lay-panel")
    one(panel, "lay-player").value = "Ana"
    put(app, (0, 0), "reactor", cubes=1)                      # the Main Reactor, 1 cube
    put(app, (0, 1), "card", card=POST)
    put(app, (-1, 1), "card", card=PLOT)
    put(app, (1, 0), "reactor", cubes=0)
    # B 4: a card must be connected: (0, 1) emptied leaves the plot at (-1, 1) alone
    put(app, (0, 1), "empty")
    one(panel, "lay-credits").value = 7
    one(panel, "lay-vp").value = 20
    one(panel, "lay-station").click()
    words = said(app)
    assert "not connected to the Main Reactor" in words and PLOT in words and "[-1, 1]" in words
    assert store.load(gid)["actions"] == []                   # nothing recorded
    # the draft stayed: put the post back, lay it
    put(app, (0, 1), "card", card=POST)
    assert one(panel, "lay-credits").value == 7 and one(panel, "lay-vp").value == 20
    one(panel, "lay-station").click()
    actions = [{k: v for k, v in a.items() if k not in ("year", "turn")}
               for a in store.load(gid)["actions"]]
    assert actions == [{"do": "lay", "player": "Ana", "credits": 7, "vp": 20,
                        "cells": [{"at": [-1, 1], "card": PLOT},
                                  {"at": [0, 0], "reactor": True, "cubes": 1},
                                  {"at": [0, 1], "card": POST},
                                  {"at": [1, 0], "reactor": True, "cubes": 0}]}], actions
    assert app.ats.game.state.laid == ["Ana"]
    assert one(panel, "lay-player").options == ("Ben",)       # only Ben's is still to lay
    # Ben's: the Main Reactor only, then the game is over and scored (B 6)
    put(app, (0, 0), "reactor", cubes=2)
    one(panel, "lay-vp").value = 18
    one(panel, "lay-station").click()
    st = app.ats.game.state
    assert st.finished and not shown(one(app.root, "turn-entry"))
    table = app.ats.game.score().table.set_index("player")
    # Ana: 20 on the track + 1 for the reactor at [1, 0] without cubes + 2 for 7 credits
    # (B 6); the cards' printed VP were gained when built: the track holds them. Ben: 18
    assert table.loc["Ana", "total"] == 20 + 1 + 7 // 3 and table.loc["Ben", "total"] == 18
    words = final_words(app).split()
    assert words[words.index("Ana") + 1:words.index("Ana") + 3] == ["23", "1"], words  # total, rank


def final_words(app) -> str:
    """The final table's text on the page."""
    out: list[str] = []

    def walk(x):
        v = getattr(x, "value", None)
        if isinstance(v, str):
            out.extend(re.findall(r"<table[^>]*final-table.*?</table>", v, flags=re.S))
        for k in getattr(x, "children", ()):
            walk(k)
    walk(app.root)
    return html.unescape(re.sub(r"<[^>]+>", " ", " ".join(out)))


def test_a_seat_lays_its_own_station_only(store):
    gid = laid_game(store)
    ben = App(Store(store.path))
    ben.apply_query(f"game={gid}&seat=Ben")
    panel = one(ben.root, "lay-panel")
    assert one(panel, "lay-player").options == ("Ben",)
    assert not shown(one(panel, "lay-player"))              # nothing to choose
    # nothing of his station is known yet: no made-up turn, VP or credits on his page
    # (found by the year-2 browser test: "Year 1 · Turn 1", "0 VP · 10 credits")
    assert "lay your station below" in ben.ats.views_part.seat_score.value and "VP" not in ben.ats.views_part.seat_score.value
    assert "Laying the table" in ben.ats.turn_info.value and "Turn" not in ben.ats.turn_info.value
    put(ben, (0, 0), "reactor", cubes=0)
    one(panel, "lay-station").click()
    assert [a["player"] for a in store.load(gid)["actions"]] == ["Ben"]
    # his station is laid: the page says the others are laying theirs
    assert "Your station is laid" in one(ben.root, "lay-title").value


def test_a_name_not_in_the_catalogue_is_not_laid_and_is_said(store):
    gid = laid_game(store)
    app = App(store)
    app.ats.open_game(gid)
    hostile = "<script>alert(1)</script>=HYPERLINK(\"x\")"
    put(app, (0, 1), "card", card=hostile)
    one(app.root, "lay-station").click()
    assert "not in your catalogue" in said(app) and "<script>" not in app.status.value
    assert store.load(gid)["actions"] == []
    # the grid shows the typed name escaped (a button's text, never HTML)
    assert any(b.description == hostile for b in find(app.root, "lay-location"))


def test_the_table_display_says_who_is_still_to_lay():
    from companion.ui.tableview import ats_display
    g = Game({"players": PLAYERS, "options": {"laid": "final"}}, cards=CARDS)
    g.push({"do": "lay", "player": "Ben", "credits": 0, "vp": 3,
            "cells": [{"at": [0, 0], "reactor": True, "cubes": 2}]})
    text = html.unescape(re.sub(r"<[^>]+>", " ", ats_display(g, g.waiting_in_order())))
    assert "Laying the table" in text and "still to lay:  Ana " in text, text
    assert "Year 1" not in text and "waiting for" not in text


def test_a_name_picked_whole_is_put_at_once_and_a_name_that_begins_another_waits(store):
    """bench/bench_layout.py: a 20-card station took 96 taps, 20 of them *Put it here*
    after a name picked from the list.  A catalogue name whole that no other name begins
    with is put on the cell as soon as it is in the field; one that begins another name
    (the player may be typing on) waits for *Put it here*."""
    longer = POST + " annex"                                  # begins with POST's name
    cards = CARDS + [fixture_card(longer, types=["military"], cost=1, energy=0, vp=1)]
    g = Game({"players": PLAYERS, "options": {"laid": "final"}}, cards=cards)
    gid = store.create(g.to_record(), title="laid")
    app = App(store)
    app.ats.open_game(gid)
    panel = one(app.root, "lay-panel")
    tap(app, (0, 1))
    one(panel, "lay-card").value = PLOT                       # picked: no Put pressed
    grid = one(app.root, "lay-grid")
    assert one(grid, cell_class((0, 1))).description == PLOT
    tap(app, (1, 0))
    one(panel, "lay-card").value = POST                       # begins "… annex": waits
    assert one(one(app.root, "lay-grid"), cell_class((1, 0))).description == "+"
    one(panel, "lay-put").click()
    assert one(one(app.root, "lay-grid"), cell_class((1, 0))).description == POST
    # tapping a laid cell again shows its name without putting anything twice
    tap(app, (0, 1))
    assert one(panel, "lay-card").value == PLOT
    assert one(one(app.root, "lay-grid"), cell_class((0, 1))).description == PLOT


def test_a_max_the_lay_needs_is_asked_beside_the_button_and_the_lay_goes_on(store):
    """bench/bench_layout.py: two copies of a card whose MAX nobody typed were refused
    with no form on the page (the value had to be typed elsewhere).  The card form opens
    in the panel, beside the button; once saved (the catalogue keeps it), Lay goes on."""
    no_max = "Fixture: lay max unknown"
    cards = CARDS + [fixture_card(no_max, types=["business"], cost=1, energy=0, vp=1,
                                  max=None)]
    g = Game({"players": PLAYERS, "options": {"laid": "final"}}, cards=cards)
    gid = store.create(g.to_record(), title="laid")
    app = App(store)
    app.ats.open_game(gid)
    one(app.root, "lay-player").value = "Ana"
    put(app, (0, 1), "card", card=no_max)
    put(app, (0, 2), "card", card=no_max)
    one(app.root, "lay-station").click()
    assert "max" in said(app).lower() and store.load(gid)["actions"] == []
    form = one(one(app.root, "lay-values"), "form-max")
    form.value = "2"                                   # typed from the card (a fixture's)
    one(one(app.root, "lay-values"), "form-save").click()
    assert find(one(app.root, "lay-panel"), "form-max") == []       # the form is gone
    assert "press Lay again" in html.unescape(re.sub(r"<[^>]+>", "", one(
        app.root, "lay-message").value))
    one(app.root, "lay-station").click()
    assert [a["do"] for a in store.load(gid)["actions"]] == ["lay"], said(app)
