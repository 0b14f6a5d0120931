"""Issue 50, "Nothing aimed at the wrong player, no lost confirmation", in-process on
two pages of one store (the laptop's host page and Ana's phone):

- the laptop's Player dropdown answers by position (ipywidgets syncs ``index``): when
  Ana's action from her phone removed her name ahead of Ben's, a pick of Ben made in that
  instant landed on Cleo.  The list now keeps every name for the whole turn;
- a build being confirmed with its VP still being typed was dropped when another page's
  action arrived ("no longer legal ... [rule: manual-vp]"), though nothing had changed
  for it.
Cards are the record's "Fixture: ..." entries; no real card's number is used.
"""
from __future__ import annotations

from companion.ats.game import Game
from companion.table.store import Store
from companion.ui.app import App

PLAYERS = ["Ana", "Ben", "Cleo"]
MANUAL = {"name": "Fixture: manual", "types": ["business"], "cost": 0, "energy": 0, "vp": 0,
          "max": "none", "abilities": [{"when": "immediate", "manual": True}]}
PLAIN = {"name": "Fixture: plain", "types": ["military"], "cost": 0, "energy": 0, "vp": 1,
         "max": "none", "abilities": []}


def two_pages(tmp_path):
    store = Store(tmp_path / "games.db")
    game = Game({"players": PLAYERS}, cards=[MANUAL, PLAIN], book_setup=False)
    gid = store.create(game.to_record())
    host = App(Store(tmp_path / "games.db"))
    ana = App(Store(tmp_path / "games.db"))
    ana.apply_query(f"game={gid}&seat=Ana")
    return store, gid, host, ana


def actions(store, gid):
    return [(a["player"], a["do"], a.get("card")) for a in store.load(gid)["actions"]]


def test_a_pick_made_as_another_page_acts_stays_the_player_picked(tmp_path):
    store, gid, host, ana = two_pages(tmp_path)
    picker = host.ats.entry_player
    ben = [o[1] for o in picker.options].index("Ben")
    # Ana discards on her phone; the laptop's poll shows it
    ana.driver().choose(action="discard", card="Fixture: plain").discard()
    host.live_tick()
    assert actions(store, gid) == [("Ana", "discard", "Fixture: plain")]
    # the browser's pick of Ben, made on the list as it was before the poll, arrives now:
    # by position, as the dropdown sends it
    picker.index = ben
    assert picker.value == "Ben"
    host.driver().choose(action="build", card="Fixture: plain").tap((0, 1))
    assert actions(store, gid)[-1] == ("Ben", "build", "Fixture: plain")
    # Ana is still listed, marked, and a tap in her name is refused, not moved to another
    assert ("Ana (acted)", "Ana") in picker.options
    assert host.driver().players == ("Cleo",)


def test_a_player_who_acts_elsewhere_takes_the_card_typed_for_them_away(tmp_path):
    store, gid, host, ana = two_pages(tmp_path)
    host.driver().choose(player="Ana", action="build", card="Fixture: plain")
    ana.driver().choose(action="discard", card="Fixture: plain").discard()
    host.live_tick()
    # the laptop's entry moves on to the next player to act, and empty: the card typed for
    # Ana is not left for a tap to record as Ben's
    assert host.ats.entry_player.value == "Ben" and host.ats.entry_card.value == ""
    host.driver().tap((0, 1))
    assert actions(store, gid) == [("Ana", "discard", "Fixture: plain")]
    assert "card" in host.driver().message


def test_with_nothing_typed_the_entry_moves_on_to_the_next_player(tmp_path):
    store, gid, host, ana = two_pages(tmp_path)
    assert host.ats.entry_player.value == "Ana"          # the first to act, by default
    ana.driver().choose(action="discard", card="Fixture: plain").discard()
    host.live_tick()
    assert host.ats.entry_player.value == "Ben"


def test_a_confirmation_with_its_vp_being_typed_survives_another_pages_action(tmp_path):
    store, gid, host, ana = two_pages(tmp_path)
    host.driver().choose(player="Ben", action="build", card="Fixture: manual").tap((1, 0))
    assert host.ats.entry_part.manual_vp is not None
    host.ats.entry_part.manual_vp.value = "2"             # being typed ...
    ana.driver().choose(action="discard", card="Fixture: plain").discard()
    host.live_tick()                                      # ... as Ana's discard arrives
    note = host.ats.live_note.value
    assert "Ana discarded" in note and "no longer legal" not in note
    assert host.ats.pending is not None and host.ats.entry_part.manual_vp.value == "2"
    host.driver().confirm()
    assert actions(store, gid)[-1] == ("Ben", "build", "Fixture: manual")
    assert store.load(gid)["actions"][-1]["manual_vp"] == 2


def test_a_confirmation_made_illegal_by_another_page_is_still_dropped_with_its_rule(tmp_path):
    store, gid, host, ana = two_pages(tmp_path)
    host.driver().choose(player="Ana", action="build", card="Fixture: manual").tap((1, 0))
    assert host.ats.pending is not None
    ana.driver().choose(action="discard", card="Fixture: plain").discard()
    host.live_tick()
    assert "no longer legal" in host.ats.live_note.value and host.ats.pending is None
    assert actions(store, gid) == [("Ana", "discard", "Fixture: plain")]
