"""Issue 12, the store seen from the pages (in-process, the page's own widgets, as
tests/test_app_table.py drives them): two pages with an undo between them, a
busy file and a failed write ("⚠ Not saved", the entry stays filled in and
pressing again saves it), and a saved-games file of another program.
"""
from __future__ import annotations

import random
import sqlite3

import pytest

from companion.ats.game import Game
from companion.table.store import Store
from companion.ui.app import App
from pgserver_fixture import reopen, set_read_only
from test_store_hostile import Locker, digest

PLAYERS = ["Ana", "Ben", "Cleo"]
CARDS = ["Garden", "Holographic Display Area", "U-Cannon"]


@pytest.fixture
def store(make_store):
    """A store on each backend (SQLite; PostgreSQL, marked ``postgres``)."""
    return make_store()


@pytest.fixture
def sqlite_store(tmp_path):
    s = Store(tmp_path / "games.sqlite")
    yield s
    s.close()


def open_app(store) -> App:
    store.create(Game({"players": PLAYERS}).to_record())
    return App(store)


def enter(app, player, card, do="discard"):
    app.driver().choose(player=player, action=do, card=card)


def message(app) -> str:
    return app.driver().message


def stored(store, gid):
    rec = store.load(gid)
    Game.from_record(rec)                      # the stored record replays
    return [(a["player"], a["do"], a.get("card")) for a in rec["actions"]]


# ------------------------------------------------------- two pages and an undo
def test_a_page_that_missed_an_undo_and_a_new_entry_is_refused(store):
    page1 = open_app(store)
    enter(page1, "Ana", "Garden")
    page1.driver().discard()
    page2 = App(reopen(store))             # sees Ana's discard of Garden
    page1.driver().undo()                              # page 1 takes it back …
    enter(page1, "Ana", "U-Cannon")
    page1.driver().discard()                           # … and enters another card: same count
    enter(page2, "Ben", "Garden")
    page2.driver().discard()
    assert "Not recorded" in message(page2) and "U-Cannon" in message(page2)
    assert stored(store, page1.ats.gid) == [("Ana", "discard", "U-Cannon")]
    # page 2 shows the game as stored now, and its next entry is saved
    assert [a["card"] for a in page2.ats.game.actions] == ["U-Cannon"]
    enter(page2, "Ben", "Garden")
    page2.driver().discard()
    assert stored(store, page1.ats.gid) == [("Ana", "discard", "U-Cannon"), ("Ben", "discard", "Garden")]


def test_an_undo_on_a_page_that_missed_an_undo_is_refused(store):
    page1 = open_app(store)
    for p, c in (("Ana", "Garden"), ("Ben", "Garden")):
        enter(page1, p, c)
        page1.driver().discard()
    page2 = App(reopen(store))
    page1.driver().undo()
    enter(page1, "Ben", "U-Cannon")
    page1.driver().discard()
    page2.driver().undo()               # would take back page 1's new entry
    assert stored(store, page1.ats.gid) == [("Ana", "discard", "Garden"), ("Ben", "discard", "U-Cannon")]
    assert "Not recorded" in message(page2)


def test_twenty_trials_of_two_pages_and_an_undo_never_break_the_record(store):
    """The issue's experiment: before, 13 of 20 trials left a record that no longer
    replayed.  Each trial: k discards, two pages, page 1 undoes and enters another
    card, page 2 (behind) enters the next action and tries an undo."""
    rnd = random.Random(12)
    refused = 0
    for trial in range(20):
        page1 = open_app(store)
        for _ in range(rnd.randrange(0, 5)):
            enter(page1, page1.ats.entry_player.value, rnd.choice(CARDS))
            page1.driver().discard()
        enter(page1, page1.ats.entry_player.value, "Garden")
        page1.driver().discard()
        page2 = App(reopen(store))
        page1.driver().undo()
        enter(page1, page1.ats.entry_player.value, "U-Cannon")
        page1.driver().discard()
        before = stored(store, page1.ats.gid)
        enter(page2, page2.ats.entry_player.value, rnd.choice(CARDS))
        page2.driver().discard()
        after = stored(store, page1.ats.gid)
        refused += after == before and "Not recorded" in message(page2)
        page2.store.close()
    assert refused == 20


# ------------------------------------------------- a busy file, a failed write
def test_a_busy_file_says_not_saved_keeps_the_entry_and_a_retry_saves(sqlite_store, tmp_path):
    store = sqlite_store
    store.create(Game({"players": PLAYERS}).to_record())
    page = App(Store(store.path, timeout=0.3))
    enter(page, "Ana", "Garden")
    lock = Locker(store.path, "write")
    try:
        page.driver().discard()
    finally:
        lock.release()
    msg = message(page)
    assert "⚠ Not saved:" in msg and "busy" in msg and "press again" in msg
    assert "Everything you entered is saved" not in msg
    assert (page.ats.entry_player.value, page.ats.entry_action.value, page.ats.entry_card.value) == \
        ("Ana", "discard", "Garden")
    assert stored(store, page.ats.gid) == [] and page.ats.game.actions == []
    page.driver().discard()              # pressing again saves it
    assert stored(store, page.ats.gid) == [("Ana", "discard", "Garden")]
    assert "Ana discarded Garden" in message(page) or "Garden" in message(page)


def test_a_failed_write_says_not_saved_and_nothing_is_undone(store):
    page = open_app(store)
    enter(page, "Ana", "Garden")
    page.driver().discard()
    enter(page, "Ben", "U-Cannon")
    set_read_only(page.store, True)   # every write now fails
    page.driver().discard()
    msg = message(page)
    assert "⚠ Not saved:" in msg and "read-only" in msg and "saved" in msg
    assert (page.ats.entry_player.value, page.ats.entry_card.value) == ("Ben", "U-Cannon")
    page.driver().undo()
    assert "⚠ Not saved:" in message(page)
    assert [a["card"] for a in page.ats.game.actions] == ["Garden"]      # nothing undone
    set_read_only(page.store, False)
    page.driver().discard()
    assert stored(store, page.ats.gid) == [("Ana", "discard", "Garden"), ("Ben", "discard", "U-Cannon")]


def test_small_star_empires_failed_write_says_not_saved_and_a_retry_saves(store):
    from companion.sse import SseGame
    app = App(store)
    app.tabs.selected_index = 1
    tab = app.sse
    gid = store.create(SseGame({"players": ["Ann", "Bob"], "map": "basic-2p",
                                "pieces": {"ships": 2}}).to_record(), title="sse")
    tab.open_game(gid)
    p = tab.game.current
    move = tab.game.legal_moves(p, 0)[0]
    action = {"do": "move", "player": p, "ship": 0, "to": list(move.to), "piece": "city"}
    set_read_only(store, True)
    app.guarded(tab.push)(dict(action))
    assert "⚠ Not saved:" in app.status.value and tab.game.actions == []
    set_read_only(store, False)
    tab.push(dict(action))
    assert len(store.load(gid)["actions"]) == 1


# ----------------------------------------------------------------- not ours
def test_the_dashboard_refuses_another_programs_file_and_leaves_it(companion_home):
    from companion.ui.app import dashboard
    path = companion_home / "games.sqlite"
    c = sqlite3.connect(path)
    c.executescript("CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('mine');")
    c.close()
    before = digest(path)
    root = dashboard()
    assert "another program" in root.value and "left as it is" in root.value
    assert digest(path) == before
