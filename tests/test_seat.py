"""Issue 20, "a seat stays its player": a seat page (``?seat=Ana``) records its own
player's actions; entering another player's (a friend without a phone) is the explicit
switch ``GameSession.act_for``, for one action.  Enforced in the session (no widgets) and
shown on both game screens (the pages' own widgets, as tests/test_live_pages.py drives
them).  The browser test is tests/browser/test_four_pages.py (issue 51: test_browser_seat.py was merged into it).

Among the Stars rulebook, "4 Round Overview": "During these turns, all players play
simultaneously." -- so after Ana acts, the table waits for the others and her page must
not become theirs.  Small Star Empires rulebook, "Gameplay": "on your turn, you MUST do the following:
Move one of you ships and then colonize the system you have moved into." -- one player at a time:
a seat page moves only its own ships.
"""
from __future__ import annotations

import pytest

from companion.ats.game import Game
from companion.core.errors import CompanionError
from companion.table.store import Store
from companion.sse import SseGame
from companion.ui.app import App
from companion.ui.session import GameSession

PLAYERS = ["Ana", "Ben", "Cleo"]
SSE_SETUP = {"players": ["Ana", "Ben"], "map": "basic-2p", "pieces": {"ships": 2}}


def discard(player: str, card: str = "Garden") -> dict:
    return {"do": "discard", "player": player, "card": card}


def stored(store, gid) -> list[tuple]:
    return [(a.get("player"), a["do"] if "do" in a else "move")
            for a in store.load(gid)["actions"]]


@pytest.fixture
def ana_session(store):
    gid = store.create(Game({"players": PLAYERS}).to_record())
    s = GameSession(store)
    s.open(gid)
    s.seat = "Ana"
    return gid, s


# -- the session ---------------------------------------------------------------------------
def test_a_seat_session_refuses_another_players_action_and_stores_nothing(store, ana_session):
    gid, s = ana_session
    with pytest.raises(CompanionError) as e:
        s.push(discard("Ben"))
    assert str(e.value) == ("This is Ana's page: to enter Ben's action, choose 'Enter for "
                            "another player' first.")
    assert stored(store, gid) == [] and s.game.actions == []
    s.push(discard("Ana"))                             # her own: recorded
    assert stored(store, gid) == [("Ana", "discard")]


def test_act_for_allows_exactly_one_action_for_that_player(store, ana_session):
    gid, s = ana_session
    s.act_for("Ben")
    assert s.acting_for == "Ben"
    with pytest.raises(CompanionError, match="Cleo's action"):   # only the one named
        s.push(discard("Cleo"))
    assert s.acting_for == "Ben" and stored(store, gid) == []
    s.push(discard("Ben"))
    assert stored(store, gid) == [("Ben", "discard")]
    assert s.acting_for is None                        # back to Ana after one action
    with pytest.raises(CompanionError, match="This is Ana's page"):
        s.push(discard("Cleo"))
    assert stored(store, gid) == [("Ben", "discard")]
    s.push(discard("Ana"))                             # Ana's own entry still works
    assert stored(store, gid) == [("Ben", "discard"), ("Ana", "discard")]


def test_an_illegal_action_for_the_other_player_keeps_the_switch(store, ana_session):
    gid, s = ana_session
    s.act_for("Ben")
    with pytest.raises(CompanionError):
        s.push({"do": "build", "player": "Ben", "card": "Garden", "at": [9, 9]})
    assert s.acting_for == "Ben" and stored(store, gid) == []


def test_act_for_checks_the_player_and_none_cancels(store, ana_session):
    _, s = ana_session
    with pytest.raises(CompanionError, match="No player called 'Zed'"):
        s.act_for("Zed")
    assert s.acting_for is None
    s.act_for("Cleo")
    s.act_for(None)
    assert s.acting_for is None
    with pytest.raises(CompanionError, match="This is Ana's page"):
        s.push(discard("Cleo"))


def test_undo_on_a_seat_page_is_its_own_players_only(store, ana_session):
    """Issue 35 (it used to undo anyone's): Ana's page undoes Ana's last action, not
    Ben's; the rest of the rule is tests/test_seat_rules.py."""
    gid, s = ana_session
    other = GameSession(store)                 # the host page enters Ben's action
    other.open(gid)
    other.push(discard("Ben"))
    s.sync()
    with pytest.raises(CompanionError, match="Ana's page cannot undo Ben's action"):
        s.undo()
    assert stored(store, gid) == [("Ben", "discard")]
    s.push(discard("Ana"))
    assert s.undo()["player"] == "Ana"
    assert stored(store, gid) == [("Ben", "discard")]


def test_a_page_that_is_no_seat_records_anyone(store):
    gid = store.create(Game({"players": PLAYERS}).to_record())
    s = GameSession(store)
    s.open(gid)
    for p in PLAYERS:
        s.push(discard(p))
    assert [p for p, _ in stored(store, gid)] == PLAYERS


def test_a_small_star_empires_seat_moves_only_its_own_ships(store):
    gid = store.create(SseGame(SSE_SETUP).to_record())
    s = GameSession(store)
    s.open(gid)
    s.seat = "Ben"
    g = s.game
    assert g.current == "Ana"
    m = next(m for m in g.legal_moves("Ana", 0) if "city" in m.pieces
             and not g.state.unexplored(m.to))
    move = {"player": "Ana", "ship": 0, "to": list(m.to), "piece": "city"}
    with pytest.raises(CompanionError, match="This is Ben's page: to enter Ana's action"):
        s.push(move)
    assert store.load(gid)["actions"] == []
    s.act_for("Ana")
    s.push(move)
    assert [a["player"] for a in store.load(gid)["actions"]] == ["Ana"]
    assert s.acting_for is None


# -- the Among the Stars screen -------------------------------------------------------------
def ats_pages(store) -> tuple[App, App]:
    store.create(Game({"players": PLAYERS}).to_record())
    host, ana = App(Store(store.path)), App(Store(store.path))
    ana.apply_query("seat=Ana")
    return host, ana


def enter(app, card="Garden", do="discard", player=None):
    if player is not None:
        app.ats.entry_player.value = player
    app.ats.entry_action.value = do
    app.ats.entry_card.value = card


def grid_labels(app) -> dict:
    """{cell class: button text} of the built cells of the entry's grid."""
    out = {}
    for b in app.ats.grid.children:
        if "built" in b._dom_classes:
            cell = next(c for c in b._dom_classes if c.startswith("cell_"))
            out[cell] = b.description
    return out


def test_after_acting_the_seat_page_stays_its_player_and_says_whom_it_waits_for(store):
    host, ana = ats_pages(store)
    g = ana.ats.game
    at = sorted(g.legal_cells("Ana", do="reactor"))[0]
    enter(ana, do="reactor")
    ana.driver().tap(at)                                   # Ana builds a Power Reactor
    assert [a["player"] for a in ana.ats.game.actions] == ["Ana"]
    # the issue: the Player list jumped to Ben and showed Ben's station
    assert ana.ats.entry_player.value == "Ana" and ana.ats.entry_player.options == ("Ana",)
    note = ana.ats.views_part.seat_switch.note.value
    assert "<b>Ana</b>: done, waiting for <b>Ben, Cleo</b>" in note
    assert ana.ats.views_part.seat_switch.note.layout.display == ""
    assert " · done" in ana.ats.views_part.seat_score.value
    # her station is the one shown: the grid has her new reactor (Ben's has none)
    ana_built = grid_labels(ana)
    assert any(label.startswith("Reactor") for label in ana_built.values())
    assert len(ana_built) == len(ana.ats.game.state.station("Ana").cells)
    assert len(ana.ats.game.state.station("Ben").cells) < len(ana_built)
    assert "Ana" in ana.ats.views_part.seat_station.value and "Ben" not in ana.ats.views_part.seat_station.value
    # the card and the action are not offered: she has acted
    assert ana.ats.entry_card.layout.display == "none"
    assert ana.ats.entry_action.layout.display == "none"
    # Ana taps a cell of her grid: one line, nothing recorded for Ben (the bug)
    cell = next(b for b in ana.ats.grid.children if "frontier" in b._dom_classes
                or "legal" in b._dom_classes)
    cell.click()
    assert "Ana: done, waiting for Ben, Cleo." in ana.status.value
    assert [a["player"] for a in stored_game(store, ana.ats.gid).actions] == ["Ana"]


def stored_game(store, gid) -> Game:
    return Game.from_record(store.load(gid))


def test_another_page_acting_does_not_move_the_seat_page(store):
    host, ana = ats_pages(store)
    enter(host, player="Ben")
    host.driver().discard()
    ana.live_tick()
    assert ana.ats.entry_player.value == "Ana"
    assert ana.ats.views_part.seat_switch.note.value == ""            # still her turn to act
    assert "your turn to act" in ana.ats.views_part.seat_score.value
    enter(ana)
    ana.driver().discard()
    assert "done, waiting for <b>Cleo</b>" in ana.ats.views_part.seat_switch.note.value


def test_the_switch_enters_one_action_for_another_player_then_back(store):
    host, ana = ats_pages(store)
    bar = ana.ats.views_part.seat_switch
    assert bar.switch.description == "Enter for another player…"
    assert bar.switch.layout.display == "" and bar.banner.layout.display == "none"
    bar.switch.click()
    names = [b.description for b in bar.pick.children if hasattr(b, "description")
             and "seat-pick-player" in b._dom_classes]
    assert names == ["Ben", "Cleo"]                     # those still to act, not Ana
    next(b for b in bar.pick.children if getattr(b, "description", "") == "Ben").click()
    assert ana.session.acting_for == "Ben" and ana.ats.entry_player.value == "Ben"
    assert "Entering for Ben" in bar.banner.value and bar.banner.layout.display == ""
    assert bar.switch.layout.display == "none"
    enter(ana)
    ana.driver().discard()
    assert [(a["player"], a["do"]) for a in stored_game(store, ana.ats.gid).actions] == \
        [("Ben", "discard")]
    # one action later: the banner is gone, the entry is Ana's again
    assert ana.session.acting_for is None and ana.ats.entry_player.value == "Ana"
    assert bar.banner.layout.display == "none" and bar.banner.value == ""
    enter(ana)
    ana.driver().discard()
    assert [a["player"] for a in stored_game(store, ana.ats.gid).actions] == ["Ben", "Ana"]


def test_the_switch_can_be_cancelled(store):
    host, ana = ats_pages(store)
    bar = ana.ats.views_part.seat_switch
    bar.switch.click()
    next(b for b in bar.pick.children if "seat-pick-cancel" in b._dom_classes).click()
    assert ana.session.acting_for is None and bar.pick.layout.display == "none"
    bar.switch.click()
    next(b for b in bar.pick.children if getattr(b, "description", "") == "Cleo").click()
    assert ana.ats.entry_player.value == "Cleo"
    assert bar.back.description == "Cancel: back to Ana"
    bar.back.click()
    assert ana.session.acting_for is None and ana.ats.entry_player.value == "Ana"
    assert bar.banner.layout.display == "none"
    enter(ana)
    ana.driver().discard()
    assert [a["player"] for a in stored_game(store, ana.ats.gid).actions] == ["Ana"]


def test_the_switch_ends_when_that_player_acts_on_another_page(store):
    host, ana = ats_pages(store)
    ana.ats.views_part.act_for("Ben")
    enter(host, player="Ben")
    host.driver().discard()
    ana.live_tick()
    assert ana.session.acting_for is None and ana.ats.entry_player.value == "Ana"
    assert "Entering for" not in ana.ats.views_part.seat_switch.banner.value


def test_the_banner_escapes_the_players_name(store):
    store.create(Game({"players": ["Ana", "<b>Zed</b>"]}).to_record())
    ana = App(Store(store.path))
    ana.apply_query("seat=Ana")
    ana.ats.views_part.act_for("<b>Zed</b>")
    assert "Entering for &lt;b&gt;Zed&lt;/b&gt;" in ana.ats.views_part.seat_switch.banner.value
    assert "<b>Zed</b>" not in ana.ats.views_part.seat_switch.banner.value


def test_the_host_page_is_unchanged(store):
    host, _ = ats_pages(store)
    assert host.ats.seat is None and host.ats.views_part.seat_switch.box.layout.display == "none"
    assert host.driver().players == tuple(PLAYERS)
    enter(host, player="Ana")
    host.driver().discard()
    assert host.ats.entry_player.value == "Ben"             # the next one still to act


# -- the Small Star Empires screen ----------------------------------------------------------
def sse_page(store, seat: str):
    gid = store.create(SseGame(SSE_SETUP).to_record())
    app = App(Store(store.path))
    app.apply_query(f"game={gid}&seat={seat}")
    return app, app.sse


def sse_move(tab):
    g = tab.game
    p = g.current
    m = next(m for m in g.legal_moves(p, 0) if "city" in m.pieces
             and not g.state.unexplored(m.to))
    tab.driver().tap(g.state.players[p].ships[0].at)       # select the ship
    tab.driver().tap(m.to)                                 # move there with a City


def test_a_small_star_empires_seat_page_waits_for_the_other_player(store):
    app, tab = sse_page(store, "Ana")
    assert tab.seat == "Ana" and tab.session.seat == "Ana"
    assert tab.entry.layout.display == ""                       # Ana to move
    assert tab.views_part.seat_switch.switch.layout.display == "none"      # nobody else to enter
    sse_move(tab)
    assert [a["player"] for a in store.load(tab.gid)["actions"]] == ["Ana"]
    assert tab.game.current == "Ben"
    # Ana's page stays hers: no entry for Ben's ships, it says whom it waits for
    assert tab.entry.layout.display == "none"
    assert "<b>Ana</b>: done, waiting for <b>Ben</b>" in tab.views_part.seat_switch.note.value
    assert "<b>Ana</b>" in tab.views_part.seat_score.value
    assert tab.views_part.seat_switch.switch.description == "Enter Ben's move (no phone)"
    # a tap on Ben's ship is refused with one line
    tab.guarded(tab.board_part.clicked)(tab.game.state.players["Ben"].ships[0].at)
    assert "this page moves only Ana&#x27;s ships" in app.status.value
    assert tab.selected is None


def test_a_small_star_empires_seat_enters_the_other_players_move_by_the_switch(store):
    app, tab = sse_page(store, "Ana")
    sse_move(tab)
    tab.views_part.seat_switch.switch.click()                        # "Enter Ben's move (no phone)"
    assert tab.session.acting_for == "Ben" and tab.entry.layout.display == ""
    assert "Entering for Ben" in tab.views_part.seat_switch.banner.value
    sse_move(tab)
    assert [a["player"] for a in store.load(tab.gid)["actions"]] == ["Ana", "Ben"]
    assert tab.session.acting_for is None
    assert tab.views_part.seat_switch.banner.layout.display == "none"
    assert tab.game.current == "Ana" and tab.entry.layout.display == ""


def test_a_small_star_empires_switch_can_be_cancelled(store):
    app, tab = sse_page(store, "Ben")
    assert tab.entry.layout.display == "none"               # Ana moves first
    assert "<b>Ben</b>: waiting for <b>Ana</b>" in tab.views_part.seat_switch.note.value
    tab.views_part.seat_switch.switch.click()
    assert tab.entry.layout.display == ""
    tab.views_part.seat_switch.back.click()
    assert tab.session.acting_for is None and tab.entry.layout.display == "none"
    assert store.load(tab.gid)["actions"] == []


def test_a_seat_page_whose_seat_is_no_player_records_nobody(tmp_path):
    """`?seat=Zed` in a game of Ana and Ben: the page has a seat's role but no player, so
    it is a view of that game (issue 35; issue 20 let the switch enter for Ana): nothing
    is recorded, not even with the switch."""
    from companion.ats.game import Game
    from companion.core.errors import CompanionError
    from companion.core.roles import Role
    from companion.table.store import Store
    from companion.ui.session import GameSession
    store = Store(tmp_path / "games.sqlite")
    gid = store.create(Game({"players": ["Ana", "Ben"]}).to_record())
    ss = GameSession(store, role=Role.SEAT)
    ss.open(gid)
    with pytest.raises(CompanionError, match="not a player of this game"):
        ss.push({"player": "Ana", "do": "discard", "card": "Garden"})
    assert store.load(gid)["actions"] == []
    ss.act_for("Ana")
    with pytest.raises(CompanionError, match="not a player of this game"):
        ss.push({"player": "Ana", "do": "discard", "card": "Garden"})
    assert store.load(gid)["actions"] == []
    store.close()
