"""Issue 40: the line of entry on a page, driven as a player does (``driver.say``).  What
the game understood is put into the ordinary entry (player, card, the cell marked, the
energy chosen; in Small Star Empires the ship, the piece, the destination marked) and
nothing is recorded before the Confirm tap; what it cannot read is one line on the page,
never a traceback, and nothing is recorded.

Cards invented here are "Fixture: ..." entries (no real card's number)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.ats.game import Game
from companion.table.store import Store
from companion.ui.app import App

sys.path.insert(0, str(Path(__file__).parent / "sse"))
from ssekit import started_page  # noqa: E402

PLAYERS = ["Ana", "Ben", "Cleo"]
BASE = {"types": ["business"], "max": "none", "abilities": []}
FREE = {"name": "Fixture: free", "cost": 0, "energy": 0, "vp": 1, **BASE}
ONE = {"name": "Fixture: one energy", "cost": 1, "energy": 1, "vp": 1, **BASE}


@pytest.fixture
def ats(store):
    game = Game({"players": PLAYERS}, cards=[FREE, ONE], book_setup=False)
    store.create(game.to_record())
    return App(store)


def test_a_line_is_staged_as_the_ordinary_entry_and_recorded_only_on_confirm(ats, store):
    d = ats.driver()
    d.say('Ben build "Fixture: one energy" @0,1')
    # understood: the entry shows Ben, the card, the cell marked, the energy; nothing stored
    assert "Understood" in d.reply and "Ben" in d.reply
    s = d.screen
    assert (s.entry_player.value, s.entry_action.value, s.entry_card.value) == (
        "Ben", "build", "Fixture: one energy")
    assert "said-cell" in s.entry_part.buttons[(0, 1)]._dom_classes
    assert d.pending is not None and d.game.actions == []
    assert store.load(d.gid)["actions"] == []
    d.confirm()
    stored = store.load(d.gid)["actions"]
    assert [(a["player"], a["card"], a["at"]) for a in stored] == [
        ("Ben", "Fixture: one energy", [0, 1])]
    assert d.say_line.text.value == "" and d.reply == ""     # free for the next sentence


def test_a_line_it_cannot_read_is_one_line_and_records_nothing(ats, store):
    d = ats.driver()
    for text in ('build "Fixture: free"',                  # who? (three may act)
                 "<script>alert(1)</script>", "=HYPERLINK(\"http://x\")", ""):
        d.say(text)
        assert "say-missed" in d.reply, (text, d.reply)
        assert "<script>" not in d.reply and "Traceback" not in d.reply + d.status
        assert store.load(d.gid)["actions"] == [] and d.pending is None


def test_an_illegal_line_names_the_rule_and_records_nothing(ats, store):
    d = ats.driver()
    d.say('Ana build "Fixture: free" @3,3')
    assert "Not possible" in d.reply and "not-adjacent" in d.reply
    assert store.load(d.gid)["actions"] == []


def test_a_discard_line_waits_for_the_discard_button(ats, store):
    d = ats.driver()
    d.say('Cleo discard "Fixture: free"')
    assert store.load(d.gid)["actions"] == []
    assert d.screen.entry_action.value == "discard" and "Discard" in d.hint or "discard" in d.hint
    d.discard()
    assert [(a["player"], a["do"]) for a in store.load(d.gid)["actions"]] == [("Cleo", "discard")]


def test_a_seat_page_does_not_stage_another_players_action(ats, store):
    d = ats.driver()
    d.set_view("Ana", None)
    d.say('Ben discard "Fixture: free"')
    assert store.load(d.gid)["actions"] == [] and d.screen.entry_player.value != "Ben"
    assert "Ben" in d.status and "Traceback" not in d.status


LINE = "H1 P1 P2 P3 E Nr Nb E P3 P2 P1 H2\nE E E E E E E E E E E E"


def test_a_small_star_empires_line_is_staged_on_the_board_then_confirmed(tmp_path):
    d = started_page(tmp_path, LINE, "say-test")
    tab = d.screen
    g = d.game
    d.say("->1,0")                 # two pieces may go there: staged, the piece asked
    assert "still to choose: the piece" in d.reply and "repaired" not in d.reply
    assert d.said is not None and g.actions == []
    d.say("->1,0 city")
    assert "Understood" in d.reply, d.reply
    assert d.said is not None and d.selected == 0 and g.actions == []
    marked = [h for h, b in tab.board_part.board.buttons.items() if "said" in b._dom_classes]
    assert marked == [(1, 0)]
    d.confirm_said()
    assert [a["player"] for a in g.actions] == ["Ann"] and d.said is None
    d.say("Ann ->2,0 city")                         # not Ann's turn: one line, nothing
    assert "say-missed" in d.reply and len(g.actions) == 1


# -- sentences as a player says them, on a seat's page (issue 40) ------------------------
SAYABLE = [{"name": n, "types": ["business"], "cost": 1, "energy": e, "vp": 1, "max": "none",
            "abilities": []} for n, e in (("Quartz Garden", 0), ("Orbital Bakery", 1),
                                          ("Bio Lab", 2))]      # INVENTED cards and numbers


@pytest.fixture
def seat(store):
    game = Game({"players": ["Ana", "Ben"]}, cards=SAYABLE, book_setup=False)
    store.create(game.to_record())
    app = App(store)
    d = app.driver()
    d.set_view("Ana", None)
    return d


def test_a_seats_sentence_is_its_players_and_needs_no_name(seat, store):
    seat.say("build quartz garden at one zero")
    assert "Understood" in seat.reply and seat.pending is not None
    seat.confirm()
    assert [(a["player"], a["card"], a["at"]) for a in store.load(seat.gid)["actions"]] == [
        ("Ana", "Quartz Garden", [1, 0])]


def test_a_sentence_without_its_cell_fills_the_form_and_the_grid_asks_the_cell(seat, store):
    seat.say("build the orbital bakery")
    assert "Understood" in seat.reply and "cell" in seat.reply
    assert seat.screen.entry_card.value == "Orbital Bakery" and seat.pending is None
    assert store.load(seat.gid)["actions"] == []
    seat.tap((0, 1))                              # the ordinary entry goes on
    if seat.pending is not None:
        seat.confirm()
    assert [a["at"] for a in store.load(seat.gid)["actions"]] == [[0, 1]]


def test_a_misheard_name_is_understood_and_two_close_names_are_offered(seat, store):
    seat.say("build quarts garden at one zero")
    assert seat.screen.entry_card.value == "Quartz Garden"
    seat.cancel()
    assert store.load(seat.gid)["actions"] == []


def test_a_staged_sentence_beaten_by_another_page_is_kept_and_read_again(store):
    game = Game({"players": ["Ana", "Ben"]}, cards=SAYABLE, book_setup=False)
    store.create(game.to_record())
    ana = App(store).driver()
    ana.set_view("Ana", None)
    other = App(Store(store.path)).driver()
    other.choose(player="Ben", action="discard", card="Garden").discard()
    ana.say("build quartz garden at one zero")
    other.ask_undo()                       # Ben's discard undone on his page, first
    other.undo()
    ana.confirm()
    assert store.load(ana.gid)["actions"] == []
    assert "Not recorded" in ana.reply and "press Read" in ana.reply
    assert ana.say_line.text.value == "build quartz garden at one zero"   # nothing lost
    ana.say(ana.say_line.text.value)
    assert "Understood" in ana.reply
    ana.confirm()
    assert [(a["player"], a["do"]) for a in store.load(ana.gid)["actions"]] == [
        ("Ana", "build")]
