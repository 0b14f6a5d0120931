"""Issue 35, "a seat is its player's, in its game", enforced by the session.

A hostile review found that a seat's page (``?seat=Ana``) could undo the last action of
any game, finished ones included, and another player's action in its own game; and,
through the page's own socket, switch games with the hidden saved-games list, undo
there and save play details for a game it is not in.  The rule now: a seat's page
undoes only its own player's last action (or the one it entered for another player with
the switch, see below); writes nothing to another game nor to a finished game's actions;
and a seat name that is not a player of the game makes the page a view of it.  The host
may do everything; the table view nothing.  Every refusal is one line (``RoleRefused``)
and leaves the saved-games file as it was.

Both games: Among the Stars (``companion.ats.game.Game``) and Small Star Empires
(``companion.sse.SseGame``).  The finished records are tests/test_history.py's (G1:
Ann and Bea, Bea's discard last; S2: Ann and Bob, Ann's move last).
"""
from __future__ import annotations

import pytest

from companion.ats.game import Game
from companion.core.errors import CompanionError, RoleRefused
from companion.core.roles import Role
from companion.sse import SseGame
from companion.table import playtime
from companion.table.store import Store
from companion.ui.app import App
from companion.ui.session import GameSession
from test_history import MU, manual_cell, records, waiting_records

PLAYERS = ["Ana", "Ben", "Cleo"]
SSE_SETUP = {"players": ["Ana", "Ben"], "map": "basic-2p", "pieces": {"ships": 2}}


def snapshot(store: Store) -> tuple:
    """Every saved game: the list and each record with its revision."""
    games = store.games(format=None)
    return games, {g["id"]: store.load_revision(g["id"]) for g in games}


def discard(player: str) -> dict:
    return {"do": "discard", "player": player, "card": "Garden"}


def sse_move(game) -> dict:
    """A legal move of the player to move (ship 0, a City on an explored system)."""
    p = game.current
    m = next(m for m in game.legal_moves(p, 0) if "city" in m.pieces
             and not game.state.unexplored(m.to))
    return {"player": p, "ship": 0, "to": list(m.to), "piece": "city"}


def seat_session(store: Store, gid: str, seat: str) -> GameSession:
    """A seat's page as its address makes it: the seat's role, its player in the game."""
    s = GameSession(store, role=Role.SEAT)
    s.open(gid)
    s.seat = seat
    return s


def host_session(store: Store, gid: str) -> GameSession:
    s = GameSession(store)
    s.open(gid)
    return s


def refused(write, store: Store, *, match: str) -> str:
    """``write()`` is refused in one line (RoleRefused) and nothing is changed."""
    before = snapshot(store)
    with pytest.raises(RoleRefused) as e:
        write()
    msg = str(e.value)
    assert "\n" not in msg and msg.strip() == msg
    assert match in msg, msg
    assert snapshot(store) == before
    return msg


# -- 2. another player's action in its own game ---------------------------------------------
def test_a_seat_cannot_undo_another_players_action_among_the_stars(store):
    gid = store.create(Game({"players": PLAYERS}).to_record())
    host_session(store, gid).push(discard("Ben"))
    ana = seat_session(store, gid, "Ana")
    msg = refused(ana.undo, store, match="Ana's page cannot undo Ben's action")
    assert msg == ("Ana's page cannot undo Ben's action (Ben discarded Garden for 3 credits): "
                   "Ben undoes it on Ben's page, or the host on the laptop.")
    assert [a["player"] for a in ana.game.actions] == ["Ben"]


def test_a_seat_cannot_undo_another_players_move_small_star_empires(store):
    gid = store.create(SseGame(SSE_SETUP).to_record())
    host = host_session(store, gid)
    host.push(sse_move(host.game))                     # Ana moves (on the laptop)
    ben = seat_session(store, gid, "Ben")
    refused(ben.undo, store, match="Ben's page cannot undo Ana's action (Ana moved ship 0")


def test_a_seat_undoes_its_own_last_action_and_then_not_the_one_before(store):
    gid = store.create(Game({"players": PLAYERS}).to_record())
    host_session(store, gid).push(discard("Ben"))
    ana = seat_session(store, gid, "Ana")
    ana.sync()
    ana.push(discard("Ana"))
    assert ana.undo()["player"] == "Ana"                # her own: undone
    assert [a["player"] for a in store.load(gid)["actions"]] == ["Ben"]
    refused(ana.undo, store, match="cannot undo Ben's action")


def test_a_seat_undoes_the_action_it_entered_for_another_player_with_the_switch(store):
    """The decision on act_for: a seat that entered Ben's action for him with the switch
    (a friend without a phone) may undo that same action, while it is still the game's
    last and this page entered it (a page reloaded since has forgotten it: Ben's page or
    the host undoes it then).  An action Ben entered on his own page stays his."""
    gid = store.create(Game({"players": PLAYERS}).to_record())
    ana = seat_session(store, gid, "Ana")
    ana.act_for("Ben")
    ana.push(discard("Ben"))
    assert ana.undo()["player"] == "Ben"                # entered here: undone here
    assert store.load(gid)["actions"] == []
    ben = seat_session(store, gid, "Ben")
    ben.push(discard("Ben"))                            # Ben on his own phone
    ana.sync()
    refused(ana.undo, store, match="Ana's page cannot undo Ben's action")
    ana.act_for("Ben")                                  # the switch alone gives no undo
    refused(ana.undo, store, match="Ana's page cannot undo Ben's action")


# -- 1 and 3. another game, a finished game -------------------------------------------------
def test_a_seat_writes_nothing_to_a_game_opened_later_where_it_is_no_player(store):
    """Hole 3: the seat page switched games with the (hidden) saved-games list, then undid
    there and saved play details: the session is the guard, whatever the screen shows."""
    mine = store.create(Game({"players": PLAYERS}).to_record())
    other = store.create(Game({"players": ["Zoe", "Yann"]}).to_record())
    host_session(store, other).push(discard("Zoe"))
    ana = seat_session(store, mine, "Ana")
    ana.open(other)                                     # what the saved list's Resume does
    assert ana.seat is None
    refused(ana.undo, store, match="'Ana' is not a player of this game (Zoe, Yann)")
    refused(lambda: ana.push(discard("Yann")), store, match="is a view")
    meta = playtime.with_details(store.load(other).get("meta") or {}, location="Café")
    refused(lambda: ana.set_play_details(meta), store, match="is a view")
    ana.act_for("Yann")                                 # the switch gives nothing here
    refused(lambda: ana.push(discard("Yann")), store, match="is a view")


def test_a_seat_writes_no_play_details_to_another_game_than_the_one_it_shows(store):
    mine = store.create(Game({"players": PLAYERS}).to_record())
    other = store.create(Game({"players": ["Ana", "Yann"]}).to_record())
    ana = seat_session(store, mine, "Ana")
    meta = playtime.start(store.load(other).get("meta") or {})
    refused(lambda: ana.set_play_details(meta, gid=other), store,
            match="Ana's page cannot save play details for another game")
    refused(lambda: ana.set_play_details(meta, gid=other, timer=True,
                                         expect_timer=playtime.timer({})),
            store, match="cannot change the play timer for another game")
    ana.set_play_details(playtime.start(store.load(mine).get("meta") or {}), timer=True,
                         expect_timer=playtime.timer(store.load(mine).get("meta") or {}))


def test_a_seat_switched_to_a_game_where_it_is_a_player_is_that_games_seat(store):
    mine = store.create(Game({"players": PLAYERS}).to_record())
    other = store.create(SseGame({**SSE_SETUP, "players": ["Ben", "ana"]}).to_record())
    ana = seat_session(store, mine, "Ana")
    ana.open(other)
    assert ana.seat == "ana"                            # her name there, as it is spelled
    ana.act_for("Ben")
    ana.push(sse_move(ana.game))                        # Ben first: entered for him
    ana.push(sse_move(ana.game))                        # her own move
    assert ana.undo()["player"] == "ana"
    refused(ana.undo, store, match="ana's page cannot undo Ben's action")


def finished(title: str) -> dict:
    """A finished record: test_history's G1 or S2, or "manual" (Ann and Bea, whose final
    scoring waits for the VP of Ann's card MU, typed at the table)."""
    return waiting_records()[title] if title == "manual" else records()[title]


@pytest.mark.parametrize("title,seat", [("manual", "Bea"), ("S2", "Ann")])
def test_a_finished_games_last_action_is_not_undone_by_a_seat_even_its_own(store, title, seat):
    """The final entries are typed after the end, so a seat of a finished game keeps
    them, its card values, play details and timer; its actions stay as they are."""
    rec = finished(title)
    gid = store.create(rec, title=title)
    s = seat_session(store, gid, seat)
    assert s.game.state.finished and s.game.actions[-1]["player"] == seat
    refused(s.undo, store, match=f"This game is over: {seat}'s page cannot undo an action")
    refused(lambda: s.push(dict(s.game.actions[-1])), store,
            match=f"This game is over: {seat}'s page cannot record an action")
    before = store.revision(gid)
    meta = playtime.with_details(store.load(gid).get("meta") or {}, notes="good game")
    s.set_play_details(meta)                            # still allowed after the end
    assert store.load(gid)["meta"]["notes"] == "good game"
    if title == "manual":                               # a final entry, typed at the end
        s.add_manual([{"source": MU, "player": "Ann", "at": manual_cell(), "vp": 4}])
        assert [m["vp"] for m in store.load(gid)["manual"]] == [4]
    assert len(store.load(gid)["actions"]) == len(rec["actions"])
    assert store.revision(gid) >= before


def test_hole_1_a_finished_game_in_the_address_of_a_seat_that_is_no_player(store):
    """`/?game=<finished>&seat=Ana`, Ana no player of it: the page said "this page is not a
    seat" but showed *Undo last action*, and *Yes, undo it* removed Bea's final action."""
    gid = store.create(records()["G1"], title="G1")
    app = App(Store(store.path))
    app.apply_query(f"game={gid}&seat=Ana")
    assert app.ats.gid == gid and app.ats.seat is None and app.session.seat is None
    assert "this page is not a seat" in app.status.value
    before = snapshot(store)
    app.driver().ask_undo()                        # *Undo last action*
    assert app.ats.undo_box.children == ()                  # no *Yes, undo it* to press
    assert "is a view and cannot undo an action" in app.status.value
    with pytest.raises(RoleRefused):
        app.ats.undo()                                     # *Yes, undo it* forced anyway
    assert snapshot(store) == before


def test_hole_3_the_saved_games_list_on_a_seat_page_gives_no_writes_elsewhere(store):
    mine = store.create(Game({"players": PLAYERS}).to_record())
    other = store.create(Game({"players": ["Zoe", "Yann"]}).to_record())
    host_session(store, other).push(discard("Zoe"))
    app = App(Store(store.path))
    app.apply_query(f"game={mine}&seat=Ana")
    assert app.ats.seat == "Ana"
    app.ats.setup_part.saved.options = [(g["title"], g["id"]) for g in store.games()]
    app.ats.setup_part.saved.value = other
    app.ats.setup_part.resume_selected()                              # through the page's socket
    assert app.ats.gid == other and app.ats.seat is None and app.session.seat is None
    before = snapshot(store)
    app.driver().ask_undo()
    assert "&#x27;Ana&#x27; is not a player of this game" in app.status.value
    app.ats.final_details.location.value = "Somewhere"
    app.guarded(app.ats.save_final_details)()
    assert snapshot(store) == before


# -- a seat name that is no player: a view -------------------------------------------------
def test_a_seat_name_that_is_no_player_is_a_view_every_write_refused(store):
    gid = store.create(Game({"players": PLAYERS}).to_record())
    host_session(store, gid).push(discard("Ben"))
    app = App(Store(store.path))
    app.apply_query(f"game={gid}&seat=Zed")
    s = app.session
    assert s.role is Role.SEAT and s.seat is None
    meta = store.load(gid).get("meta") or {}
    from companion.ats.catalogue import parse_card
    card = parse_card({"name": "Fixture: typed", "types": ["military"], "cost": 1,
                       "energy": 0, "vp": 0, "max": "none", "abilities": []})
    writes = {
        "push": lambda: s.push(discard("Ana")),
        "undo": s.undo,
        "save_card": lambda: s.save_card(card),
        "add_manual": lambda: s.add_manual([{"source": "Fixture", "player": "Ana", "vp": 2}]),
        "details": lambda: s.set_play_details(playtime.with_details(meta, location="X")),
        "timer": lambda: s.set_play_details(playtime.start(meta), timer=True,
                                            expect_timer=playtime.timer(meta)),
    }
    for name, write in writes.items():
        msg = refused(write, store, match="'Zed' is not a player of this game (Ana, Ben, Cleo)")
        assert "is a view" in msg, name


def test_a_small_star_empires_seat_name_that_is_no_player_is_a_view(store):
    gid = store.create(SseGame(SSE_SETUP).to_record())
    host = host_session(store, gid)
    host.push(sse_move(host.game))
    app = App(Store(store.path))
    app.apply_query(f"game={gid}&seat=Zed")
    tab = app.sse
    assert tab.gid == gid and tab.seat is None and tab.session.role is Role.SEAT
    refused(tab.session.undo, store, match="'Zed' is not a player of this game")
    refused(lambda: tab.session.push(sse_move(tab.game)), store, match="is a view")
    refused(lambda: tab.session.set_manual([{"source": "nebula_table",
                                             "values": [1, 2, 3, 4, 5, 6]}]),
            store, match="is a view")


# -- the host and the table view -------------------------------------------------------------
@pytest.mark.parametrize("title", ["G1", "S2"])
def test_the_host_undoes_anything_the_seat_and_the_table_view_cannot(store, title):
    gid = store.create(records()[title], title=title)
    last = records()[title]["actions"][-1]
    other = next(p for p in records()[title]["setup"]["players"] if p != last["player"])
    refused(seat_session(store, gid, other).undo, store,
            match=f"This game is over: {other}'s page cannot undo")
    table = GameSession(store, role=Role.TABLE)
    table.open(gid)
    with pytest.raises(RoleRefused, match="The table view records nothing"):
        table.undo()
    host = host_session(store, gid)
    assert host.undo() == last                          # a finished game's, another's
    assert len(store.load(gid)["actions"]) == len(records()[title]["actions"]) - 1


def test_a_refusal_on_the_page_is_one_line_never_a_traceback(store):
    gid = store.create(Game({"players": PLAYERS}).to_record())
    host_session(store, gid).push(discard("Ben"))
    app = App(Store(store.path))
    app.apply_query(f"game={gid}&seat=Ana")
    app.driver().ask_undo()
    assert "Ana&#x27;s page cannot undo Ben&#x27;s action" in app.status.value
    assert "Traceback" not in app.status.value and app.ats.undo_box.children == ()
    assert isinstance(RoleRefused("seat", "undo", "x"), CompanionError)


def test_a_seat_name_with_a_line_break_is_still_refused_in_one_line(store):
    gid = store.create(Game({"players": PLAYERS}).to_record())
    host_session(store, gid).push(discard("Ben"))
    s = GameSession(store, role=Role.SEAT)
    s.open(gid)
    s.set_seat("Zed\nTraceback (most recent call last):")
    assert s.seat is None
    refused(s.undo, store, match="'Zed Traceback (most recent call last):' is not a player")
