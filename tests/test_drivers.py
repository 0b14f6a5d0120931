"""Issue 38: a driver per screen (companion.ui.drivers), the one interface that tests,
notebooks and other screens use.  A turn of each game played through the driver only,
on a page built as the dashboard builds it: a wrong entry is the page's message, never
a traceback, and the state stays as it was; an undo; two pages of one store.

Cards invented here are "Fixture: ..." entries of the record (no real card's number).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.ats.game import Game
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.drivers import AtsDriver, SseDriver

sys.path.insert(0, str(Path(__file__).parent / "sse"))
from ssekit import started_page  # noqa: E402

PLAYERS = ["Ana", "Ben", "Cleo"]
FREE = {"name": "Fixture: free", "types": ["business"], "cost": 0, "energy": 0, "vp": 1,
        "max": "none", "abilities": []}


@pytest.fixture
def ats(store):
    game = Game({"players": PLAYERS}, cards=[FREE], book_setup=False)
    store.create(game.to_record())
    return App(store)


def test_the_page_gives_each_games_driver(ats):
    assert isinstance(ats.driver(), AtsDriver)
    sse = ats.driver("sse")
    assert isinstance(sse, SseDriver) and sse.screen is ats.sse


def test_a_build_through_the_driver_is_recorded(ats, store):
    d = ats.driver()
    d.choose(player="Ana", action="build", card="Fixture: free").tap((1, 0))
    if d.pending is not None:          # the energy or choices asked: the page's Confirm
        d.confirm()
    stored = store.load(d.gid)["actions"]
    assert [(a["player"], a["do"], a["card"]) for a in stored] == [
        ("Ana", "build", "Fixture: free")]
    assert (1, 0) in d.game.state.players["Ana"].station.cells
    assert "Fixture: free" in d.message and "Traceback" not in d.message


def test_a_wrong_entry_is_a_message_and_records_nothing(ats, store):
    d = ats.driver()
    d.choose(player="Ana", action="build", card="Fixture: free").tap((3, 3))
    # the book: a location is built next to one already in the station
    assert "[rule: not-adjacent]" in d.message
    assert store.load(d.gid)["actions"] == [] and d.game.actions == []


def test_a_discard_then_an_undo_through_the_driver(ats, store):
    d = ats.driver()
    d.choose(player="Ben", action="discard", card="Garden").discard()
    assert [a["do"] for a in store.load(d.gid)["actions"]] == ["discard"]
    d.ask_undo()
    assert "Garden" in d.undo_question
    d.undo()
    assert store.load(d.gid)["actions"] == [] and d.game.actions == []


def test_a_second_page_behind_refuses_through_its_driver(ats, store):
    one, two = ats.driver(), App(Store(store.path)).driver()
    two.choose(player="Ana", action="discard", card="Garden").discard()
    one.choose(player="Ana", action="discard", card="Garden").discard()
    assert "Not recorded" in one.message
    assert len(store.load(one.gid)["actions"]) == 1


LINE = "H1 P1 P2 P3 E Nr Nb E P3 P2 P1 H2\nE E E E E E E E E E E E"


def test_a_small_star_empires_move_and_undo_through_the_driver(tmp_path):
    d = started_page(tmp_path, LINE, "driver-test")
    g = d.game
    d.tap(g.state.players["Ann"].ships[0].at)
    assert d.selected == 0 and (1, 0) in d.legal()
    d.tap((1, 0))
    assert [a["player"] for a in g.actions] == ["Ann"] and g.current == "Bob"
    # Bob's ship cannot reach the far end: refused with the rule, nothing recorded
    d.tap(g.state.players["Bob"].ships[0].at)
    d.tap((0, 1))
    assert len(g.actions) == 1 and "rule:" in d.status, d.status
    d.ask_undo()
    d.undo()
    assert g.actions == [] and g.current == "Ann"
