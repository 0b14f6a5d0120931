"""Issue 39, a game already under way, on the page (no browser): *A game under way* on
the setup screen (year and turn), each station laid as it lies now through the laying
panel, then the game goes on action by action through the ordinary entry, every rule
checked: a legal build recorded, an illegal one refused naming card, cell and rule with
nothing recorded, an undo.

The books' sentences relied on:
- B 4, Build Location: "build it anywhere in your Space Station adjacent to an
  already-built location" (the illegal build at [3, 3]).
- B 4: "Every round consists of 6 turns" (turn 7 of a standard year is refused).

Every number is a fixture's ("Fixture: ..." cards defined in the record)."""
from __future__ import annotations

from companion.ats.game import Game
from companion.table.store import Store
from companion.ui.app import App
from test_lay_page import CARDS, PLAYERS, PLOT, POST, put, setup_screen
from widgetkit import one, said, shown


def test_a_game_under_way_is_started_from_the_setup_screen_at_its_year_and_turn(store):
    app = App(store)
    for name, box in zip(PLAYERS, app.ats.setup_part.name_boxes):
        box.value = name
    finished, now = one(app.root, "setup-laid"), one(app.root, "setup-laid-now")
    finished.value = True
    now.value = True                                 # one or the other
    assert finished.value is False and now.value is True
    one(app.root, "setup-laid-year").value = 2
    one(app.root, "setup-laid-turn").value = 3
    one(app.root, "start-game").click()
    words = said(app)
    assert "Game under way at year 2, turn 3" in words, words
    g = app.ats.game
    assert g.setup.options["laid"] == "now" and g.setup.options["laid_at"] == {"year": 2,
                                                                            "turn": 3}
    assert (g.state.year, g.state.turn) == (2, 3) and g.actions == []
    rec = store.load(app.ats.gid)
    assert "timer" not in (rec.get("meta") or {})          # the timer is the table's to start
    assert shown(one(app.root, "lay-panel")) and not shown(one(app.root, "turn-entry"))
    assert now.value is False                              # the next game is played


def test_turn_7_of_a_standard_year_is_refused_in_one_line(store):
    app = setup_screen(store, "setup-laid-now", laid_turn=7)
    words = said(app)
    assert "year 1 has 6 turns" in words and "Traceback" not in words, words
    assert store.games() == []


def test_laid_now_then_played_on_with_every_rule_checked_and_an_undo(store):
    g = Game({"players": PLAYERS, "options": {"laid": "now",
                                               "laid_at": {"year": 2, "turn": 3}}}, cards=CARDS)
    gid = store.create(g.to_record(), title="under way")
    app = App(store)
    app.ats.open_game(gid)
    one(app.root, "lay-player").value = "Ana"
    put(app, (0, 0), "reactor", cubes=2)
    put(app, (0, 1), "card", card=POST)
    one(app.root, "lay-credits").value = 5
    one(app.root, "lay-vp").value = 10
    one(app.root, "lay-station").click()
    ben = App(Store(store.path))
    ben.apply_query(f"game={gid}&seat=Ben")
    put(ben, (0, 0), "reactor", cubes=2)
    put(ben, (0, 1), "card", card=PLOT)
    one(ben.root, "lay-credits").value = 4
    one(ben.root, "lay-station").click()
    assert [a["do"] for a in store.load(gid)["actions"]] == ["lay", "lay"], said(ben)
    assert "Turn 3 begins" in said(ben), said(ben)       # every station laid: play on
    app.live_tick()                              # the page's live poll
    # every station laid: the laying panel goes, the turn entry comes, at year 2 turn 3
    assert not app.ats.game.state.finished and (app.ats.game.state.year, app.ats.game.state.turn) == (2, 3)
    assert shown(one(app.root, "turn-entry")), said(app)
    # Ana builds a plot beside her post: B 4, adjacent; 1 credit of her 5
    app.driver().choose(player="Ana", action="build", card=PLOT)
    app.driver().tap((0, 2))
    acts = store.load(gid)["actions"]
    assert acts[-1]["do"] == "build" and acts[-1]["at"] == [0, 2], app.entry_msg.value
    assert app.ats.game.state.players["Ana"].credits == 4
    # Ben: a plot far from his station is refused, nothing recorded
    app.driver().choose(player="Ben", action="build", card=PLOT)
    app.driver().tap((3, 3))
    msg = app.ats.entry_msg.value
    assert "[rule: not-adjacent]" in msg and PLOT in msg, msg
    assert len(store.load(gid)["actions"]) == 3
    # an undo takes Ana's build back; the laid stations stay
    app.session.undo()
    app.live_tick()                              # the page's live poll
    assert [a["do"] for a in store.load(gid)["actions"]] == ["lay", "lay"]
    assert app.ats.game.state.players["Ana"].credits == 5
